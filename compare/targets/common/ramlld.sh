# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/targets/common/ramlld.sh: what ramlld's targets share: one `mode=all` load (the same
# stores behind the bio, blk-mq and SCSI front ends: ramlld.ko, then the SCSI front end
# ramlld_scsi.ko from beside it), sourced by compare/targets/ramlld-*.sh.
# A target file is sourced again each time its target is selected: what the load learns
# (RAMLLD_SCSI) is set by ramlld_load, not at the top of a file.

# ramlld_load: mode=all with the common settings; ramlld_load_poll: and poll_queues=1 (its mq
# disk and its SCSI host get a poll queue, which io_uring's hipri I/O polls)
# shellcheck disable=SC2119 # ramlld_load_with takes optional parameters
ramlld_load() { ramlld_load_with; }
ramlld_load_poll() { ramlld_load_with poll_queues=1; }

# ramlld_load_with [PARAM=VALUE...]: the common settings and these on top
ramlld_load_with() {
	[ -f "$ko" ] || { note skip "$TARGET" "no $ko (run make module)"; return 1; }
	local common=(nr_devices="$nluns" capacity_mb="$capacity_mb" hw_queue_depth="$depth" nr_hw_queues=0 irqmode=0 "$@")
	# the SCSI host's depth equal to scsi_debug's max_queue (both one tag space per host)
	if modinfo -F parm "$ko" 2> /dev/null | grep -q '^can_queue:'; then common+=(can_queue="$depth"); fi
	local scsi_ko d
	scsi_ko=$(dirname "$ko")/ramlld_scsi.ko
	if ! insmod "$ko" mode=all "${common[@]}" 2> /tmp/compare-insmod.err; then
		note skip "$TARGET" "insmod failed: $(tr '\n' ' ' < /tmp/compare-insmod.err)"
		return 1
	fi
	RAMLLD_SCSI=0
	for d in $(modinfo -F depends "$scsi_ko" 2> /dev/null | tr , ' '); do
		[ "$d" = ramlld ] || modprobe "$d" 2>> /tmp/compare-insmod.err || true
	done
	if insmod "$scsi_ko" 2>> /tmp/compare-insmod.err; then
		RAMLLD_SCSI=1
	else
		note skip ramlld-sd "ramlld_scsi.ko did not load ($(tr '\n' ' ' < /tmp/compare-insmod.err)); bio and mq only"
	fi
	if [ "$RAMLLD_SCSI" = 1 ] && ! wait_for 15 have_n_scsi "$nluns" RAMLLD; then
		RAMLLD_SCSI=0
		note skip ramlld-sd "no sd disk with vendor RAMLLD appeared after mode=all"
	fi
	echo "ramlld: $(cd /sys/module/ramlld/parameters && grep -H . ./* 2> /dev/null | sed 's|^\./||' | tr '\n' ' ')" >> "$LOG"
}

ramlld_unload() {
	echo 0 > /sys/module/ramlld/parameters/throw_away_reads 2> /dev/null || true
	echo 0 > /sys/module/ramlld/parameters/throw_away_writes 2> /dev/null || true
	if [ -d /sys/module/ramlld_scsi ]; then
		rmmod ramlld_scsi || note warn ramlld "rmmod ramlld_scsi failed"
	fi
	rmmod ramlld || note warn ramlld "rmmod ramlld failed"
}

# ramlld_devices bio|mq|scsi THROW_AWAY(0|1): DEVS = that front end's disks, with the store's
# throw_away_reads/writes set for it (a runtime parameter: the load stays)
ramlld_devices() {
	local i p
	DEVS=()
	case $1 in
	bio) for ((i = 0; i < nluns; i++)); do DEVS+=("/dev/ramlld$i"); done ;;
	mq) for ((i = 0; i < nluns; i++)); do DEVS+=("/dev/ramlldmq$i"); done ;;
	scsi)
		[ "${RAMLLD_SCSI:-0}" = 1 ] || { note skip "$TARGET" "the SCSI front end is not available"; return 1; }
		mapfile -t DEVS < <(scsi_disks RAMLLD)
		;;
	esac
	# throw-away: no data either way, as the no-data references (null_blk memory_backed=0,
	# scsi_debug fake_rw=1) skip reads and writes alike
	for p in throw_away_reads throw_away_writes; do echo "$2" > "/sys/module/ramlld/parameters/$p"; done
	for i in "${DEVS[@]}"; do [ -b "$i" ] || { note skip "$TARGET" "$i did not appear"; return 1; }; done
}

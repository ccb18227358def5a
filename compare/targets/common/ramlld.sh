# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/targets/common/ramlld.sh: what ramlld's targets share: one `mode=all` load of
# tools/devices/ramlld.sh (the same stores behind the bio, blk-mq and SCSI front ends), sourced
# by compare/targets/ramlld-*.sh.
# A target file is sourced again each time its target is selected: what the load learns
# (RAMLLD_SCSI) is set by ramlld_up, not at the top of a file.

# shellcheck source=tools/devices/ramlld.sh
. "$top/tools/devices/ramlld.sh"

# ramlld_up: mode=all with the common settings; ramlld_up_poll: and poll_queues=1 (its mq
# disk and its SCSI host get a poll queue, which io_uring's hipri I/O polls)
# shellcheck disable=SC2119 # ramlld_up_with takes optional parameters
ramlld_up() { ramlld_up_with; }
ramlld_up_poll() { ramlld_up_with poll_queues=1; }

# ramlld_up_with [PARAM=VALUE...]: the common settings and these on top; RAMLLD_SCSI=1 once
# its nluns sd disks are there
ramlld_up_with() {
	RAMLLD_KO=$ko
	local common=(mode=all nr_devices="$nluns" capacity_mb="$capacity_mb" hw_queue_depth="$depth" nr_hw_queues=0 irqmode=0 "$@")
	# the SCSI host's depth equal to scsi_debug's max_queue (both one tag space per host)
	! dev_ramlld_has_param can_queue || common+=(can_queue="$depth")
	dev_ramlld_load "${common[@]}" || { note skip "$TARGET" "$DEV_ERR"; return 1; }
	RAMLLD_SCSI=1
	dev_ramlld_sd_disks "$nluns" || { RAMLLD_SCSI=0; note skip ramlld-sd "$DEV_ERR"; }
	echo "ramlld: $(cd /sys/module/ramlld/parameters && grep -H . ./* 2> /dev/null | sed 's|^\./||' | tr '\n' ' ')" >> "$LOG"
}

ramlld_down() {
	echo 0 > /sys/module/ramlld/parameters/throw_away_reads 2> /dev/null || true
	echo 0 > /sys/module/ramlld/parameters/throw_away_writes 2> /dev/null || true
	dev_ramlld_unload || note warn ramlld "$DEV_ERR"
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
		DEVS=("${RAMLLD_SD_DISKS[@]}")
		;;
	esac
	# throw-away: no data either way, as the no-data references (null_blk memory_backed=0,
	# scsi_debug fake_rw=1) skip reads and writes alike
	for p in throw_away_reads throw_away_writes; do echo "$2" > "/sys/module/ramlld/parameters/$p"; done
	for i in "${DEVS[@]}"; do [ -b "$i" ] || { note skip "$TARGET" "$i did not appear"; return 1; }; done
}

# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/targets/common/scsi_debug.sh: scsi_debug with one target of nluns LUNs, sourced by
# compare/targets/sdebug*.sh.

# sdebug_load PARAM=VALUE...: scsi_debug delay=0 with these parameters on top
sdebug_load() {
	modprobe -r scsi_debug 2> /dev/null || true
	modprobe scsi_debug delay=0 dev_size_mb="$capacity_mb" max_luns="$nluns" num_tgts=1 \
		max_queue="$depth" submit_queues="$ncpu" "$@" 2> /tmp/compare-sdebug.err ||
		{ note skip "$TARGET" "modprobe scsi_debug failed: $(tr '\n' ' ' < /tmp/compare-sdebug.err)"; return 1; }
	wait_for 15 have_n_scsi "$nluns" Linux scsi_debug ||
		{ note skip "$TARGET" "scsi_debug disks did not appear"; sdebug_unload; return 1; }
}
sdebug_unload() { rmmod scsi_debug; }
sdebug_devices() { mapfile -t DEVS < <(scsi_disks Linux scsi_debug); }

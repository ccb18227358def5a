# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/targets/common/scsi_debug.sh: scsi_debug of tools/devices/scsi_debug.sh with one
# target of nluns LUNs, sourced by compare/targets/sdebug*.sh.

# shellcheck source=tools/devices/scsi_debug.sh
. "$top/tools/devices/scsi_debug.sh"

# sdebug_load PARAM=VALUE...: scsi_debug delay=0 with these parameters on top
sdebug_load() {
	dev_scsi_debug_load delay=0 dev_size_mb="$capacity_mb" max_luns="$nluns" num_tgts=1 \
		max_queue="$depth" submit_queues="$ncpu" "$@" || { note skip "$TARGET" "$DEV_ERR"; return 1; }
}
sdebug_unload() { dev_scsi_debug_unload || note warn "$TARGET" "$DEV_ERR"; }
sdebug_devices() { DEVS=("${SCSI_DEBUG_DISKS[@]}"); }

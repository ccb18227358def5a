# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/targets/common/null_blk.sh: nluns null_blk disks /dev/cmpnb<i> of
# tools/devices/null_blk.sh, sourced by compare/targets/nullb-*.sh.

# shellcheck source=tools/devices/null_blk.sh
. "$top/tools/devices/null_blk.sh"

# nullb_load QUEUE_MODE MEMORY_BACKED [POLL_QUEUES]: completion inline (irqmode=0, as
# ramlld's); with queue_mode=2 one submission queue per CPU, as ramlld, and poll queues only
# when asked
nullb_load() {
	local qm=$1 mb=$2 pq=${3:-0} i attrs
	attrs=(size="$capacity_mb" queue_mode="$qm" memory_backed="$mb" irqmode=0)
	if [ "$qm" = 2 ]; then
		attrs+=(hw_queue_depth="$depth" submit_queues="$ncpu")
		if dev_null_blk_has poll_queues; then
			attrs+=(poll_queues="$pq")
		elif [ "$pq" != 0 ]; then
			note skip "$TARGET" "null_blk has no poll_queues"
			return 1
		fi
	fi
	for ((i = 0; i < nluns; i++)); do
		dev_null_blk_add "cmpnb$i" "${attrs[@]}" || { note skip "$TARGET" "$DEV_ERR"; return 1; }
	done
}

nullb_unload() { dev_null_blk_unload || note warn "$TARGET" "$DEV_ERR"; }

nullb_devices() {
	local i
	DEVS=()
	for ((i = 0; i < nluns; i++)); do DEVS+=("/dev/cmpnb$i"); done
}

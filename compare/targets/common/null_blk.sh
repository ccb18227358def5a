# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/targets/common/null_blk.sh: null_blk devices through configfs (memory_backed needs it
# in 6.1), sourced by compare/targets/nullb-*.sh.

NULLB=/sys/kernel/config/nullb

# nullb_load QUEUE_MODE MEMORY_BACKED [POLL_QUEUES]: nluns devices /dev/cmpnb<i>
nullb_load() {
	local qm=$1 mb=$2 pq=${3:-0} i d
	modprobe null_blk nr_devices=0 || { note skip "$TARGET" "modprobe null_blk failed"; return 1; }
	[ -d "$NULLB" ] || { note skip "$TARGET" "no $NULLB (configfs)"; return 1; }
	for ((i = 0; i < nluns; i++)); do
		# 6.1 names the disk after the configfs folder
		d=$NULLB/cmpnb$i
		mkdir "$d" || { note skip "$TARGET" "mkdir $d failed"; return 1; }
		{
			echo "$capacity_mb" > "$d/size" &&
				echo "$qm" > "$d/queue_mode" &&
				echo "$mb" > "$d/memory_backed" &&
				echo 0 > "$d/irqmode" && # completion inline, as ramlld's irqmode=0
				if [ "$qm" = 2 ]; then
					echo "$depth" > "$d/hw_queue_depth" && echo "$ncpu" > "$d/submit_queues" &&
						# one queue per CPU, as ramlld; poll queues only when asked
						if [ -e "$d/poll_queues" ]; then echo "$pq" > "$d/poll_queues"; else [ "$pq" = 0 ]; fi
				fi &&
				echo 1 > "$d/power"
		} || { note skip "$TARGET" "configuring $d failed"; return 1; }
	done
	wait_for 5 test -b "/dev/cmpnb$((nluns - 1))" || { note skip "$TARGET" "/dev/cmpnb$((nluns - 1)) did not appear"; return 1; }
}

nullb_unload() {
	local d
	for d in "$NULLB"/cmpnb*; do
		[ -d "$d" ] || continue
		echo 0 > "$d/power" 2> /dev/null || true
		rmdir "$d"
	done
	rmmod null_blk
}

nullb_devices() {
	local i
	DEVS=()
	for ((i = 0; i < nluns; i++)); do DEVS+=("/dev/cmpnb$i"); done
}

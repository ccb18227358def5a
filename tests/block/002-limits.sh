#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: queue limits read back from sysfs; unaligned 512-byte direct I/O on a 4096-sector disk is rejected
# where: guest
. "$TOP/tests/lib.sh"

ramlld_load mode=bio,mq capacity_mb=8 sector_size=4096 physical_block_size=16384
for name in ramlld0 ramlldmq0; do
	q=/sys/block/$name/queue
	expect_eq "$name logical_block_size" 4096 "$(cat $q/logical_block_size)"
	expect_eq "$name physical_block_size" 16384 "$(cat $q/physical_block_size)"
	expect_eq "$name rotational" 0 "$(cat $q/rotational)"
	expect_eq "$name add_random" 0 "$(cat $q/add_random)"
	expect_eq "$name discard_granularity (the physical block size)" 16384 "$(cat $q/discard_granularity)"
	expect_eq "$name size in sectors" 16384 "$(cat /sys/block/$name/size)"
	# 64 MiB: the most one request frees or zeroes inside submit_bio/queue_rq
	expect_eq "$name discard_max_bytes" 67108864 "$(cat $q/discard_max_bytes)"
	expect_eq "$name write_zeroes_max_bytes" 67108864 "$(cat $q/write_zeroes_max_bytes)"
	# iostats starts as the kernel starts such queues: off for bio, on for blk-mq
	expect_eq "$name iostats" "$([ $name = ramlld0 ] && echo 0 || echo 1)" "$(cat $q/iostats)"
	# the tuning knobs stay writable. rq_affinity is in the blk-mq group of queue attributes,
	# which newer kernels (6.12 and 7.2 here, not 5.10 or 6.1) hide on a bio-based queue, with
	# scheduler and nr_requests: there, all three must be absent; a blk-mq queue must have them.
	attrs="add_random iostats"
	if [ -e $q/rq_affinity ]; then
		attrs="$attrs rq_affinity"
	elif [ $name = ramlld0 ] && [ ! -e $q/scheduler ] && [ ! -e $q/nr_requests ]; then
		echo "note: kernel $(uname -r) hides the blk-mq attributes (rq_affinity, scheduler, nr_requests) of the bio queue $name: not checked"
	else
		fail "$name: no queue/rq_affinity"
	fi
	for attr in $attrs; do
		old=$(cat "$q/$attr")
		echo 1 > "$q/$attr" || fail "$name: $attr not writable"
		expect_eq "$name $attr after write" 1 "$(cat "$q/$attr")"
		echo "$old" > "$q/$attr"
	done
	# 512-byte direct I/O on a 4096-byte-sector disk: the block layer says EINVAL
	if out=$(dd if=/dev/$name of=/dev/null bs=512 count=1 iflag=direct 2>&1); then
		fail "$name: 512-byte direct read accepted: $out"
	fi
	echo "$out" | grep -q "Invalid argument" || fail "$name: expected EINVAL, got: $out"
	dd if=/dev/$name of=/dev/null bs=4096 count=1 iflag=direct 2>/dev/null ||
		fail "$name: aligned 4096-byte read failed"
	echo "ok: $name limits and alignment"
done
ramlld_unload

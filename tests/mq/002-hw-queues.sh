#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: nr_hw_queues=1 and one per CPU, hw_queue_depth, shared_tags and blocking: sysfs shows them and data verifies
# where: guest
# requires: fio
# timeout: 300
. "$TOP/tests/lib.sh"

ncpu=$(nproc)
check() {
	local want_q=$1 want_depth=$2; shift 2
	ramlld_load mode=mq capacity_mb=8 nr_devices=2 "$@"
	for d in ramlldmq0 ramlldmq1; do
		expect_eq "$* $d hw queues" "$want_q" "$(find /sys/block/$d/mq/ -mindepth 1 -maxdepth 1 -type d | wc -l)"
		expect_eq "$* $d nr_tags" "$want_depth" "$(cat /sys/block/$d/mq/0/nr_tags)"
		fio --name=v --filename=/dev/$d --direct=1 --ioengine=libaio --iodepth=32 --rw=randwrite \
			--bs=4k --size=4M --verify=crc32c --verify_fatal=1 --output=/dev/null ||
			fail "$* $d verify failed"
	done
	echo "ok: $* -> $want_q hw queues of depth $want_depth, verified"
	ramlld_unload
}
check 1 64 nr_hw_queues=1
check "$ncpu" 64 nr_hw_queues=0
check "$ncpu" 32 hw_queue_depth=32 shared_tags=1
check 1 128 nr_hw_queues=1 hw_queue_depth=128 blocking=1

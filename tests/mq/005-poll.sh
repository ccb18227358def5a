#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: poll_queues: poll queues in sysfs, polled io_uring/pvsync2 writes and reads verify with every queue_rqs/complete_batch setting, bad values refused
# where: guest
# requires: fio python3
# timeout: 900
. "$TOP/tests/lib.sh"
. "$TOP/tests/poll-lib.bash"

d=ramlldmq0
ncpu=$(nproc)

# expect_calls SETTING VALUE FUNC N: FUNC was called N times ("-": not counted); with the
# setting on (VALUE 1) at least once, off never.
expect_calls() {
	[ "$4" != - ] || return 0
	if [ "$2" = 1 ]; then
		[ "$4" -gt 0 ] || fail "$1=1: $3 was never called"
		echo "ok: $1=1: $4 $3 calls"
	else
		expect_eq "$1=0: $3 calls" 0 "$4"
	fi
}

# a bad poll_queues is refused, naming the parameter and what it allows
ramlld_load_refused -F "poll_queues=$((ncpu + 1)) is invalid: allowed 0 (no polling) to $ncpu" \
	mode=mq poll_queues=$((ncpu + 1))

# without poll queues the disk does not poll
ramlld_load mode=mq capacity_mb=8
expect_eq "$d queue/io_poll without poll_queues" 0 "$(cat /sys/block/$d/queue/io_poll)"
ramlld_unload

# every polled engine setting with the defaults (queue_rqs=1 complete_batch=1), then each
# batching setting turned off alone: the data verifies, polled I/O ends in ->poll (in batches with
# complete_batch=1), and plugged lists reach ->queue_rqs only with queue_rqs=1. No scheduler
# (a scheduler's requests are neither batched nor handed to ->queue_rqs) and no merging (each
# 4k write and verify read is one request).
for qr_cb in "1 1" "0 1" "1 0"; do
	read -r qr cb <<< "$qr_cb"
	ramlld_load mode=mq capacity_mb=8 nr_hw_queues=1 poll_queues=1 queue_rqs="$qr" complete_batch="$cb"
	echo "== queue_rqs=$qr complete_batch=$cb"
	poll_check_sysfs $d 1 1
	echo none > /sys/block/$d/queue/scheduler
	echo 2 > /sys/block/$d/queue/nomerges
	probe_add polled ramlld_mq_poll returned || true
	probe_add batches blk_mq_end_request_batch calls || true
	if [ "$qr_cb" = "1 1" ]; then
		poll_verify_all /dev/$d
		# the writes and reads of the io_uring runs, and of pvsync2 where it polls
		want=$(((POLL_VERIFY_RUNS - 1 + POLL_SYNC_RUNS) * 2 * POLL_FIO_BLOCKS))
	else
		poll_fio_verify /dev/$d "$d io_uring hipri" --ioengine=io_uring --hipri=1 --iodepth=16 \
			--iodepth_batch_submit=8
		want=$((2 * POLL_FIO_BLOCKS))
	fi
	n=$(probe_result polled)
	[ "$n" = - ] || expect_eq "requests ended by ramlld_mq_poll" $want "$n"
	expect_calls complete_batch "$cb" "blk_mq_end_request_batch()" "$(probe_result batches)"
	probe_clear
	# plugged, unpolled batches: ->queue_rqs, with irqmode=0 batching
	probe_add queue_rqs ramlld_mq_queue_rqs calls || true
	poll_fio_verify /dev/$d "$d io_uring batches of 16, not polled" --ioengine=io_uring \
		--iodepth=32 --iodepth_batch_submit=16 --iodepth_batch_complete_min=16
	expect_calls queue_rqs "$qr" "ramlld_mq_queue_rqs()" "$(probe_result queue_rqs)"
	probe_clear
	ramlld_unload
done

# as many poll queues as CPUs, beside one submission queue per CPU
ramlld_load mode=mq capacity_mb=8 poll_queues="$ncpu"
poll_check_sysfs $d "$ncpu" "$ncpu"
poll_fio_verify /dev/$d "$d io_uring hipri, $ncpu poll queues" --ioengine=io_uring --hipri=1 \
	--iodepth=16
ramlld_unload

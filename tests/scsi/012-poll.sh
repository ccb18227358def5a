#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: poll_queues on the SCSI host (nr_maps 3, ->mq_poll): poll queues in sysfs, polled io_uring/pvsync2 writes and reads verify on sd; before 5.13 refused and skipped
# where: guest
# requires: fio python3
# timeout: 600
. "$TOP/tests/lib.sh"
. "$TOP/tests/scsi/scsi-lib.bash"
. "$TOP/tests/poll-lib.bash"

need_modules sd_mod sg
if ! kernel_at_least 5 13; then
	# no ->mq_poll: the load is refused with the reason, nothing is registered
	ramlld_load_refused -F "poll_queues=1 is invalid with mode=scsi on this kernel" mode=scsi poll_queues=1
	skip "kernel $(uname -r) has no SCSI ->mq_poll (5.13): poll_queues=1 with mode=scsi is refused, as checked"
fi

ncpu=$(nproc)
kernel_log_mark
scsi_load mode=scsi capacity_mb=8 submit_queues=1 poll_queues=1
kernel_log_since_mark | grep -q "1 submit and 1 poll queue(s)" ||
	fail "the host did not report its poll queue: $(kernel_log_since_mark | grep ramlld | tail -n 2)"
d=${SD[0]}
poll_check_sysfs "$d" 1 1
# no merging: each 4k write and verify read is one command, completed by ->mq_poll
echo 2 > "/sys/block/$d/queue/nomerges"
probe_add polled ramlld_scsi_mq_poll returned || true
poll_verify_all "/dev/$d"
n=$(probe_result polled)
probe_clear
# the writes and reads of the io_uring runs, and of pvsync2 where it polls
[ "$n" = - ] || expect_eq "commands completed by ramlld_scsi_mq_poll" \
	$(((POLL_VERIFY_RUNS - 1 + POLL_SYNC_RUNS) * 2 * POLL_FIO_BLOCKS)) "$n"
ramlld_unload

# a poll queue per CPU beside a submission queue per CPU
scsi_load mode=scsi capacity_mb=8 poll_queues="$ncpu"
d=${SD[0]}
poll_check_sysfs "$d" "$ncpu" "$ncpu"
poll_fio_verify "/dev/$d" "$d io_uring hipri, $ncpu poll queues" --ioengine=io_uring --hipri=1 --iodepth=16
ramlld_unload

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tools/stack up failing part-way (a step failed on purpose at the start, middle and end, on every transport; a real failure: the device held by another stack) exits 1 and undoes everything it made (the two-node halves: stacks/018)
# where: guest
# timeout: 1800
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stacks/stacks-lib.bash
. "$TOP/tests/stacks/stacks-lib.bash"

ramlld_load mode=bio,mq capacity_mb=16
stack_need lio-iblock
state_snapshot
stack_up lio-iblock /dev/ramlldmq0
"$STACK" down lio-iblock
for k in 1 $((STEPS / 2)) last; do
	fail_at lio-iblock /dev/ramlldmq0 "$k"
done

# a real failure: iblock holds the device exclusively, so a second stack's backstore cannot
# open it
stack_up lio-iblock /dev/ramlldmq0
held=$DEV
kernel_state > "$RESULTS/state.held"
run_rc 1 "$STACK" up iscsi /dev/ramlldmq0
expect_in "iscsi on a held device" "undone: nothing of iscsi is left"
kernel_state | diff -u "$RESULTS/state.held" - >&2 || fail "the failed iscsi up left the lines above"
echo "ok: iscsi up on the device lio-iblock holds failed and left nothing"
"$STACK" down lio-iblock
[ ! -e "/sys/block/${held#/dev/}" ] || fail "$held is still there"
state_check "lio-iblock down"

# One failure point per stack (make check's time): half of them part-way, half after the last
# step, so each kind of unwinding runs on two transports.
for s in nvme-tcp:8 iscsi:last srp:8 nvme-rdma:last; do
	k=${s#*:} s=${s%:*}
	if stack_available "$s"; then
		fail_at "$s" /dev/ramlldmq0 "$k"
	else
		echo "not checked: $s is unavailable here"
	fi
done

ramlld_unload

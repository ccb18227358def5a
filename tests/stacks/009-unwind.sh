#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tools/stack up failing part-way (a step failed on purpose at the start, middle and end, on every transport and on the two-node RDMA and NVMe/TCP halves (the NVMe/TCP pair also up together over 127.0.0.1, bytes through it); a real failure: the device held by another stack) exits 1 and undoes everything it made
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

# The two-node RDMA halves on a dummy netdev of this guest: rdma_rxe binds to it as to a link's
# NIC. The initiators' steps: the rxe device, then the login, which fails here (no target).
if stack_available srp-target && stack_available nvme-rdma-target; then
	dummy_was_loaded=
	[ ! -d /sys/module/dummy ] || dummy_was_loaded=1
	ip link add rl-unwind type dummy
	ip addr add 10.190.30.1/24 dev rl-unwind
	ip link set rl-unwind up
	state_snapshot
	fail_at srp-target /dev/ramlldmq0 8 --addr 10.190.30.1
	fail_at nvme-rdma-target /dev/ramlldmq0 last --addr 10.190.30.1
	fail_at srp-initiator 10.190.30.2 1
	fail_at nvme-rdma-initiator 10.190.30.2 last
	ip link del rl-unwind
	[ -n "$dummy_was_loaded" ] || rmmod dummy
else
	echo "not checked: the two-node RDMA halves are unavailable here"
fi

# The two-node NVMe/TCP halves, both in this guest over 127.0.0.1: the target's failures, then
# the initiator's with the target up, then both up together with bytes through them.
if stack_available nvme-tcp-target && stack_available nvme-tcp-initiator; then
	ip link set lo up
	state_snapshot
	cp "$RESULTS/state.before" "$RESULTS/state.base"
	for k in 7 last; do
		fail_at nvme-tcp-target /dev/ramlldmq0 "$k" --addr 127.0.0.1
	done
	"$STACK" up nvme-tcp-target /dev/ramlldmq0 --addr 127.0.0.1 || fail "up nvme-tcp-target on 127.0.0.1 failed"
	state_snapshot
	for k in 1 last; do
		fail_at nvme-tcp-initiator 127.0.0.1 "$k" --ctrl-loss-tmo 5
	done
	stack_up nvme-tcp-initiator 127.0.0.1
	same_size "$DEV" /dev/ramlld0
	write_read "$DEV" /dev/ramlld0 0
	write_read /dev/ramlld0 "$DEV" 1024
	"$STACK" down nvme-tcp-initiator
	state_check "nvme-tcp-initiator down"
	"$STACK" down nvme-tcp-target
	cp "$RESULTS/state.base" "$RESULTS/state.before"
	state_check "nvme-tcp-target down"
else
	echo "not checked: the two-node NVMe/TCP halves are unavailable here"
fi
ramlld_unload

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tools/stack up of the two-node halves failing part-way (the RDMA halves on a dummy netdev, the NVMe/TCP halves over 127.0.0.1, a step failed on purpose) exits 1 and undoes everything it made; the NVMe/TCP pair also up together in the one guest with bytes through it
# where: guest
# suite: two-node
# timeout: 1800
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stacks/stacks-lib.bash
. "$TOP/tests/stacks/stacks-lib.bash"

ramlld_load mode=bio,mq capacity_mb=16
stack_need nvme-tcp-target
stack_need nvme-tcp-initiator

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

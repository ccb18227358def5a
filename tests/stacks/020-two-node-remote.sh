#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/run --target-host --initiator-hosts between two guests (tools/vm/pair) over ssh (sshd in each, a key made here): the target's guest drives itself and the other as real hosts: a run with fio --client/--server (its JSON names the server), crc32c verify clean, a report with both hosts and the "no PMU here" line (TCG), every module, stack, session and configfs entry gone on both sides; an unreachable initiator refused (exit 2, nothing touched); a failure after the set-up (exit 1) and a SIGTERM under load (exit 130) torn down on both
# where: host
# requires: python3 qemu-system-x86_64 fio ssh ssh-keygen sshd
# suite: two-node
# timeout: 1800
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stacks/two-node-host.bash
. "$TOP/tests/stacks/two-node-host.bash"

# the keys: root's (the controller's ssh) and each guest's sshd host key; the guests read them
# through their view of this machine's root
keys=$RESULTS/keys
rm -rf "$keys"
mkdir -p "$keys"
ssh-keygen -q -t ed25519 -N '' -C ramlld-test -f "$keys/id_ed25519"
ssh-keygen -q -t ed25519 -N '' -C ramlld-test-host -f "$keys/host_ed25519"
cp "$keys/id_ed25519.pub" "$keys/authorized_keys"
chmod 600 "$keys/id_ed25519" "$keys/host_ed25519"
echo "ok: keys made in $keys"

TWO_NODE_SIDE=two-node-remote.bash two_node_run iscsi target initiator TWO_NODE_KEYS="$keys"

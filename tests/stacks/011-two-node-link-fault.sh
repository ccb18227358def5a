#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: the link between two guests (tools/vm/pair) down for 5 s under a fio verify load on the iSCSI disk (ramlld's bio disk exported by tools/stack iscsi-target, iscsi-initiator with replacement_timeout 60 s): the session goes FAILED, logs in again once the link is up, and fio's crc32c verify of every block written finds them all intact
# where: host
# requires: python3 qemu-system-x86_64 fio
# suite: two-node
# timeout: 1800
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stacks/two-node-host.bash
. "$TOP/tests/stacks/two-node-host.bash"

two_node_run iscsi target-fault initiator-fault TWO_NODE_DOWN_S=5 TWO_NODE_RECOVERY_S=60

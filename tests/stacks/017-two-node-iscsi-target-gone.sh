#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: the target takes its iSCSI half down (tools/stack down iscsi-target) while the initiator in the other guest holds the disk under fio (replacement_timeout 10 s): fio ends with an I/O error (EIO) within replacement_timeout + 60 s, not a hang, the kernel logs the failed I/O, and both sides go down to what they were before
# where: host
# requires: python3 qemu-system-x86_64 fio
# suite: two-node
# timeout: 1800
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stacks/two-node-host.bash
. "$TOP/tests/stacks/two-node-host.bash"

two_node_run iscsi target-gone initiator-gone TWO_NODE_RECOVERY_S=10

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: two guests joined by a link over the host's 127.0.0.1 (tools/vm/pair): ramlld's bio disk exported by tools/stack iscsi-target in one, logged in to by iscsi-initiator in the other; random bytes written through the iSCSI disk read back identical through /dev/ramlld0 on the target and the other way round; each side torn down (logout, LIO configfs, modules) to nothing left
# where: host
# requires: python3 qemu-system-x86_64
# suite: two-node
# timeout: 1800
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stacks/two-node-host.bash
. "$TOP/tests/stacks/two-node-host.bash"

two_node_run iscsi target initiator

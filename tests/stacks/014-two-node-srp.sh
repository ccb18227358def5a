#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: two guests joined by a link over the host's 127.0.0.1 (tools/vm/pair): ramlld's bio disk exported by tools/stack srp-target in one (rdma_rxe on the link's NIC), logged in to by srp-initiator in the other (rdma_rxe on its NIC); random bytes written through the SRP disk read back identical through /dev/ramlld0 on the target and the other way round; each side torn down (logout, configfs, rxe device, modules) to nothing left
# where: host
# requires: python3 qemu-system-x86_64
# suite: two-node
# timeout: 1800
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stacks/two-node-host.bash
. "$TOP/tests/stacks/two-node-host.bash"

two_node_run srp target initiator

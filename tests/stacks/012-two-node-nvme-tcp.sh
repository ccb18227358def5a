#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: two guests joined by a link over the host's 127.0.0.1 (tools/vm/pair): ramlld's bio disk exported by tools/stack nvme-tcp-target (nvmet bdev namespace, TCP port 4420 on the link) in one, connected to by nvme-tcp-initiator in the other; random bytes written through the NVMe disk read back identical through /dev/ramlld0 on the target and the other way round; each side torn down (disconnect, nvmet configfs, modules) to what it was before
# where: host
# requires: python3 qemu-system-x86_64
# suite: two-node
# timeout: 1800
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stacks/two-node-host.bash
. "$TOP/tests/stacks/two-node-host.bash"

two_node_run nvme-tcp target initiator

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tools/stack srp: LIO ib_srpt -> ib_srp over rdma_rxe; bytes written through it read back through ramlld's bio disk and the other way round; down leaves no module, configfs entry, session or device
# where: guest
# timeout: 900
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stacks/stacks-lib.bash
. "$TOP/tests/stacks/stacks-lib.bash"

stack_roundtrip srp

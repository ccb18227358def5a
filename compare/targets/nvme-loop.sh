# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target nvme-loop, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: nvmet bdev namespace on ramlld's mq disk -> nvme-loop (tools/stack nvme-loop; one disk)
# group: stack
# order: 360
# levels: quick default full
# ladder: nvme-loop, over ramlld-mq
# load: stack-nvme-loop
# ledger: io_uring io_uring-qd1
# precondition: no
# needs: module nvmet, module nvme-loop, command nvme
# own-functions: nvme_.*|__nvme_.*|nvmet_.*|__nvmet_.*

# shellcheck source=compare/targets/common/stack.sh
. "$TARGETS_DIR/common/stack.sh"
target_setup() { stack_load nvme-loop; }
target_teardown() { stack_unload nvme-loop; }
target_devices() { stack_devices nvme-loop; }

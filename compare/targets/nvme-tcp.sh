# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target nvme-tcp, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: nvmet bdev namespace on ramlld's mq disk -> TCP 127.0.0.1 -> nvme-tcp (tools/stack nvme-tcp; one disk)
# group: stack
# order: 340
# levels: quick default full
# ladder: NVMe/TCP, over ramlld-mq
# load: stack-nvme-tcp
# ledger: io_uring io_uring-qd1
# precondition: no
# needs: module nvmet, module nvmet-tcp, module nvme-tcp, command nvme
# own-functions: nvme_.*|__nvme_.*|nvmet_.*|__nvmet_.*

# shellcheck source=compare/targets/common/stack.sh
. "$TARGETS_DIR/common/stack.sh"
target_setup() { stack_load nvme-tcp; }
target_teardown() { stack_unload nvme-tcp; }
target_devices() { stack_devices nvme-tcp; }

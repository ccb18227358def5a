# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target nvme-rdma, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: nvmet bdev namespace on ramlld's mq disk -> RDMA over rdma_rxe -> nvme-rdma (tools/stack nvme-rdma; one disk)
# group: stack
# order: 350
# levels: default full
# ladder: NVMe/RDMA, over ramlld-mq
# load: stack-nvme-rdma
# ledger: io_uring io_uring-qd1
# precondition: no
# needs: module nvmet, module nvmet-rdma, module nvme-rdma, module rdma_rxe, command nvme, command rdma
# own-functions: nvme_.*|__nvme_.*|nvmet_.*|__nvmet_.*

# shellcheck source=compare/targets/common/stack.sh
. "$TARGETS_DIR/common/stack.sh"
target_setup() { stack_load nvme-rdma; }
target_teardown() { stack_unload nvme-rdma; }
target_devices() { stack_devices nvme-rdma; }

# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target srp, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: LIO iblock on ramlld's mq disk -> ib_srpt -> ib_srp -> sd, over rdma_rxe (tools/stack srp; one disk)
# group: stack
# order: 330
# levels: quick default full
# ladder: SRP, over lio-iblock
# load: stack-srp
# ledger: io_uring io_uring-qd1
# precondition: no
# needs: module target_core_iblock, module rdma_rxe, module ib_srpt, module ib_srp, command rdma
# own-functions: srp_.*|__srp_.*|srpt_.*|__srpt_.*|target_.*|__target_.*|transport_.*|sbc_.*|spc_.*|iblock_.*

# shellcheck source=compare/targets/common/stack.sh
. "$TARGETS_DIR/common/stack.sh"
target_setup() { stack_load srp; }
target_teardown() { stack_unload srp; }
target_devices() { stack_devices srp; }

# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target lio-iblock, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: LIO iblock on ramlld's mq disk -> tcm_loop -> sd (tools/stack lio-iblock; one disk)
# group: stack
# order: 310
# levels: quick default full
# ladder: tcm_loop/iblock, over ramlld-mq
# load: stack-lio-iblock
# ledger: io_uring io_uring-qd1
# precondition: no
# needs: module target_core_iblock, module tcm_loop
# own-functions: tcm_loop_.*|target_.*|__target_.*|transport_.*|sbc_.*|spc_.*|iblock_.*

# shellcheck source=compare/targets/common/stack.sh
. "$TARGETS_DIR/common/stack.sh"
target_setup() { stack_load lio-iblock; }
target_teardown() { stack_unload lio-iblock; }
target_devices() { stack_devices lio-iblock; }

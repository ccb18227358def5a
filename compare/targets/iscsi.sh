# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target iscsi, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: LIO iblock on ramlld's mq disk -> iSCSI on 127.0.0.1 -> open-iscsi -> sd (tools/stack iscsi; one disk)
# group: stack
# order: 320
# levels: quick default full
# ladder: iSCSI, over lio-iblock
# load: stack-iscsi
# ledger: io_uring io_uring-qd1
# precondition: no
# needs: module target_core_iblock, module iscsi_target_mod, module iscsi_tcp, command iscsiadm, command iscsid
# own-functions: iscsit_.*|__iscsit_.*|iscsi_target_.*|lio_.*|iscsi_.*|__iscsi_.*|target_.*|__target_.*|transport_.*|sbc_.*|spc_.*|iblock_.*

# shellcheck source=compare/targets/common/stack.sh
. "$TARGETS_DIR/common/stack.sh"
target_setup() { stack_load iscsi; }
target_teardown() { stack_unload iscsi; }
target_devices() { stack_devices iscsi; }

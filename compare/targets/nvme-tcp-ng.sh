# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target nvme-tcp-ng, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: the NVMe generic character device /dev/ngXnY of nvme-tcp's namespace (NVMe passthrough): fio's io_uring_cmd engine, ledger rows only
# group: stack
# order: 345
# levels: -
# load: stack-nvme-tcp
# precondition: no
# needs: module nvmet, module nvmet-tcp, module nvme-tcp, command nvme, kernel>=5.19 (io_uring passthrough, IORING_OP_URING_CMD)
# own-functions: nvme_.*|__nvme_.*|nvmet_.*|__nvmet_.*

# shellcheck source=compare/targets/common/stack.sh
. "$TARGETS_DIR/common/stack.sh"
# shellcheck source=compare/targets/common/ledger-only.sh
. "$TARGETS_DIR/common/ledger-only.sh"
target_setup() { stack_load nvme-tcp; }
target_teardown() { stack_unload nvme-tcp; }
target_devices() { ledger_only_devices /dev/ngXnY io_uring_cmd "--ledger-stacks nvme-tcp --ledger-rows '^nvme-tcp-ng/'"; }

# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target ramlld-sg, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: ramlld's SCSI LUN through its SCSI generic node /dev/sgN (sg + SCSI midlayer, no sd): fio's sg engine, ledger rows only
# group: ramlld
# order: 37
# levels: -
# load: ramlld
# precondition: no
# needs: module sg
# own-functions: ramlld_.*

# shellcheck source=compare/targets/common/ramlld.sh
. "$TARGETS_DIR/common/ramlld.sh"
# shellcheck source=compare/targets/common/ledger-only.sh
. "$TARGETS_DIR/common/ledger-only.sh"
target_setup() { ramlld_load; }
target_teardown() { ramlld_unload; }
target_devices() { ledger_only_devices /dev/sgN sg "--ledger-rows '^ramlld-sg/'"; }

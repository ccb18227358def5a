# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target ramlld-sd-tar, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: ramlld scsi, throw_away_reads=1 throw_away_writes=1
# alias: ramlld-scsi-tar
# group: ramlld
# order: 60
# levels: -
# bench: scsi
# bench-ratio: scsi, over sdebug-fakerw; randread-4k-qd32 1.1; ramlld-sd throw_away_reads+writes=1 / scsi_debug fake_rw=1
# load: ramlld
# ledger: hipri-all
# precondition: no
# own-functions: ramlld_.*

# shellcheck source=compare/targets/common/ramlld.sh
. "$TARGETS_DIR/common/ramlld.sh"
target_setup() { ramlld_up; }
target_teardown() { ramlld_down; }
target_devices() { ramlld_devices scsi 1; }

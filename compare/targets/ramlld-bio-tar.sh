# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target ramlld-bio-tar, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: ramlld bio, throw_away_reads=1 throw_away_writes=1
# group: ramlld
# order: 40
# levels: -
# load: ramlld
# ledger: hipri-all
# precondition: no
# own-functions: ramlld_.*

# shellcheck source=compare/targets/common/ramlld.sh
. "$TARGETS_DIR/common/ramlld.sh"
target_setup() { ramlld_up; }
target_teardown() { ramlld_down; }
target_devices() { ramlld_devices bio 1; }

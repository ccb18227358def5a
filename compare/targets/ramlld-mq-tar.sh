# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target ramlld-mq-tar, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: ramlld mq, throw_away_reads=1 throw_away_writes=1
# group: ramlld
# order: 50
# levels: -
# bench: mq
# bench-ratio: mq, over nullb-mq-nodata; randread-4k-qd32 0.95; ramlld-mq throw_away_reads+writes=1 / null_blk memory_backed=0
# load: ramlld
# ledger: hipri-all
# precondition: no
# own-functions: ramlld_.*

# shellcheck source=compare/targets/common/ramlld.sh
. "$TARGETS_DIR/common/ramlld.sh"
target_setup() { ramlld_up; }
target_teardown() { ramlld_down; }
target_devices() { ramlld_devices mq 1; }

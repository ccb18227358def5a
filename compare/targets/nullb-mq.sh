# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target nullb-mq, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: null_blk queue_mode=2 memory_backed=1 (device lock across copies, BLOCKING)
# group: block
# order: 120
# levels: quick default full
# bench: mq
# load: nullb-mq
# ledger: io_uring hipri-all
# precondition: yes
# needs: module null_blk
# own-functions: null_.*|nullb_.*|copy_(to|from)_nullb

# shellcheck source=compare/targets/common/null_blk.sh
. "$TARGETS_DIR/common/null_blk.sh"
target_setup() { nullb_load 2 1; }
target_teardown() { nullb_unload; }
target_devices() { nullb_devices; }

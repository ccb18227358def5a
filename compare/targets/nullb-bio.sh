# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target nullb-bio, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: null_blk queue_mode=0 memory_backed=1
# group: block
# order: 110
# levels: default full
# load: nullb-bio
# precondition: yes
# needs: module null_blk, kernel<6.9 (null_blk's bio path is gone from 6.9, upstream 8b631f9cf0b8: queue_mode=0 runs blk-mq)
# own-functions: null_.*|nullb_.*|copy_(to|from)_nullb

# shellcheck source=compare/targets/common/null_blk.sh
. "$TARGETS_DIR/common/null_blk.sh"
target_setup() { nullb_load 0 1; }
target_teardown() { nullb_unload; }
target_devices() { nullb_devices; }

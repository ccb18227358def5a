# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target nullb-mq-poll, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: null_blk queue_mode=2 memory_backed=1 poll_queues=1
# group: block
# order: 125
# levels: -
# load: nullb-mq-poll
# ledger: io_uring hipri-all io_uring-qd1
# ab: hipri-all io_uring-qd1
# precondition: yes
# needs: module null_blk, param null_blk poll_queues
# own-functions: null_.*|nullb_.*|copy_(to|from)_nullb

# shellcheck source=compare/targets/common/null_blk.sh
. "$TARGETS_DIR/common/null_blk.sh"
target_setup() { nullb_load 2 1 1; }
target_teardown() { nullb_unload; }
target_devices() { nullb_devices; }

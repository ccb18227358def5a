# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target ramlld-mq, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: ramlld mode=mq (blk-mq, queue_rq)
# group: ramlld
# order: 20
# levels: quick default full
# bench: mq
# bench-ratio: mq, over nullb-mq; randread-4k-qd32 1.2, randwrite-4k-qd32 1.2; ramlld-mq / null_blk memory_backed=1
# ladder: mq, over ramlld-bio
# summary: mq
# load: ramlld
# ledger: libaio io_uring fixedbufs registerfiles sqthread_poll hipri hipri-all io_uring-qd1
# ab: io_uring hipri-all io_uring-qd1
# precondition: yes
# own-functions: ramlld_.*

# shellcheck source=compare/targets/common/ramlld.sh
. "$TARGETS_DIR/common/ramlld.sh"
target_setup() { ramlld_up; }
target_teardown() { ramlld_down; }
target_devices() { ramlld_devices mq 0; }

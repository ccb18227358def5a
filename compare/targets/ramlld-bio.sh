# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target ramlld-bio, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: ramlld mode=bio (submit_bio, no request queue)
# group: ramlld
# order: 10
# levels: quick default full
# bench: bio mq scsi
# bench-ratio: bio, over brd; randread-4k-qd32 1.15, randwrite-4k-qd32 1.0; ramlld-bio / brd
# bench-ratio: mq, over ramlld-mq; -; ramlld bio / mq (same store)
# bench-ratio: scsi, over ramlld-sd; -; ramlld bio / scsi (same store): the seeds' ratio
# ladder: bio
# summary: bio
# load: ramlld
# ledger: libaio io_uring fixedbufs registerfiles sqthread_poll hipri hipri-all io_uring-qd1
# ab: io_uring hipri-all io_uring-qd1
# precondition: yes
# own-functions: ramlld_.*

# shellcheck source=compare/targets/common/ramlld.sh
. "$TARGETS_DIR/common/ramlld.sh"
target_setup() { ramlld_up; }
target_teardown() { ramlld_down; }
target_devices() { ramlld_devices bio 0; }

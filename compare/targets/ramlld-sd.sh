# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target ramlld-sd, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: ramlld mode=scsi (sd + SCSI midlayer + blk-mq), same store
# alias: ramlld-scsi
# group: ramlld
# order: 30
# levels: quick default full
# bench: scsi
# bench-ratio: scsi, over sdebug-norwlock; randread-4k-qd32 1.25, randwrite-4k-qd32 1.25; ramlld-sd / scsi_debug no_rwlock=1 fake_rw=0
# ladder: sd, over ramlld-mq
# summary: sd
# load: ramlld
# ledger: libaio io_uring fixedbufs registerfiles sqthread_poll hipri hipri-all io_uring-qd1
# ab: io_uring hipri-all io_uring-qd1
# precondition: yes
# own-functions: ramlld_.*

# shellcheck source=compare/targets/common/ramlld.sh
. "$TARGETS_DIR/common/ramlld.sh"
target_setup() { ramlld_up; }
target_teardown() { ramlld_down; }
target_devices() { ramlld_devices scsi 0; }

# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target ramlld-sd-poll, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: ramlld scsi with poll_queues=1 (->mq_poll, 5.13 on)
# alias: ramlld-scsi-poll
# group: ramlld
# order: 35
# levels: -
# summary: sd, polled
# load: ramlld-poll
# precondition: yes
# needs: kernel>=5.13 (the SCSI midlayer's ->mq_poll)
# own-functions: ramlld_.*

# shellcheck source=compare/targets/common/ramlld.sh
. "$TARGETS_DIR/common/ramlld.sh"
target_setup() { ramlld_up_poll; }
target_teardown() { ramlld_down; }
target_devices() { ramlld_devices scsi 0; }

# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target ramlld-mq-poll, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: ramlld mq with poll_queues=1 (io_uring hipri polls it)
# group: ramlld
# order: 25
# levels: -
# summary: mq, polled
# load: ramlld-poll
# precondition: yes
# own-functions: ramlld_.*

# shellcheck source=compare/targets/common/ramlld.sh
. "$TARGETS_DIR/common/ramlld.sh"
target_setup() { ramlld_up_poll; }
target_teardown() { ramlld_down; }
target_devices() { ramlld_devices mq 0; }

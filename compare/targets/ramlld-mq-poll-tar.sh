# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target ramlld-mq-poll-tar, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: ramlld mq poll_queues=1, throw_away_reads=1 throw_away_writes=1
# group: ramlld
# order: 55
# levels: -
# load: ramlld-poll
# precondition: no
# own-functions: ramlld_.*

# shellcheck source=compare/targets/common/ramlld.sh
. "$TARGETS_DIR/common/ramlld.sh"
target_setup() { ramlld_up_poll; }
target_teardown() { ramlld_down; }
target_devices() { ramlld_devices mq 1; }

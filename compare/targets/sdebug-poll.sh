# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target sdebug-poll, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: scsi_debug delay=0 no_rwlock=1 poll_queues=1 (one more submit queue to hold it)
# group: scsi
# order: 215
# levels: -
# load: sdebug-poll
# ledger: io_uring hipri-all io_uring-qd1
# ab: io_uring hipri-all io_uring-qd1
# precondition: yes
# needs: module scsi_debug, param scsi_debug poll_queues
# own-functions: scsi_debug_.*|sdebug_.*|sdeb_.*|schedule_resp|resp_.*|do_device_access|fill_from_dev_buffer|fetch_to_dev_buffer|check_device_access_params|lba2fake_store|devip2sip

# shellcheck source=compare/targets/common/scsi_debug.sh
. "$TARGETS_DIR/common/scsi_debug.sh"
target_setup() { sdebug_load fake_rw=0 no_rwlock=1 submit_queues=$((ncpu + 1)) poll_queues=1; }
target_teardown() { sdebug_unload; }
target_devices() { sdebug_devices; }

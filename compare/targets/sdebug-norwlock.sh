# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target sdebug-norwlock, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: scsi_debug delay=0 fake_rw=0 no_rwlock=1
# group: scsi
# order: 210
# levels: quick default full
# bench: scsi
# load: sdebug-norwlock
# precondition: yes
# needs: module scsi_debug, param scsi_debug no_rwlock
# own-functions: scsi_debug_.*|sdebug_.*|sdeb_.*|schedule_resp|resp_.*|do_device_access|fill_from_dev_buffer|fetch_to_dev_buffer|check_device_access_params|lba2fake_store|devip2sip

# shellcheck source=compare/targets/common/scsi_debug.sh
. "$TARGETS_DIR/common/scsi_debug.sh"
target_setup() { sdebug_load fake_rw=0 no_rwlock=1; }
target_teardown() { sdebug_unload; }
target_devices() { sdebug_devices; }

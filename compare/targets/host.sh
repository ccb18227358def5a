# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target host, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: host device(s) named with --host
# group: host
# order: 900
# levels: -
# load: host
# precondition: no
# own-functions: 

# Only through compare/run --host (guest-run --host-devs): nothing is loaded or unloaded.
target_setup() { :; }
target_teardown() { :; }
target_devices() {
	IFS=', ' read -r -a DEVS <<< "$host_devs"
	local d
	for d in "${DEVS[@]}"; do [ -b "$d" ] || [ -f "$d" ] || { note skip host "--host-devs: '$d' is not a block device"; return 1; }; done
}

# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target brd, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: brd (in-kernel RAM disk, bio)
# group: block
# order: 100
# levels: quick default full
# bench: bio
# load: brd
# precondition: yes
# needs: module brd
# own-functions: brd_.*|copy_(to|from)_brd

target_setup() {
	modprobe brd rd_nr="$nluns" rd_size=$((capacity_mb * 1024)) max_part=0 ||
		{ note skip brd "modprobe brd failed"; return 1; }
	wait_for 5 test -b "/dev/ram$((nluns - 1))"
}
target_teardown() { rmmod brd; }
target_devices() {
	local i
	DEVS=()
	for ((i = 0; i < nluns; i++)); do DEVS+=("/dev/ram$i"); done
}

# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target brd, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: brd (in-kernel RAM disk, bio)
# group: block
# order: 100
# levels: quick default full
# bench: bio
# load: brd
# ledger: io_uring hipri-all io_uring-qd1
# ab: io_uring io_uring-qd1
# precondition: yes
# needs: module brd
# own-functions: brd_.*|copy_(to|from)_brd

# shellcheck source=tools/devices/brd.sh
. "$top/tools/devices/brd.sh"
target_setup() { dev_brd_load "$nluns" "$capacity_mb" || { note skip brd "$DEV_ERR"; return 1; }; }
target_teardown() { dev_brd_unload || note warn brd "$DEV_ERR"; }
target_devices() {
	local i
	DEVS=()
	for ((i = 0; i < nluns; i++)); do DEVS+=("/dev/ram$i"); done
}

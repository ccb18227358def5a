# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target nvme, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: QEMU-emulated NVMe
# group: device
# order: 400
# levels: default full
# load: nvme
# precondition: yes
# needs: module nvme
# own-functions: nvme_.*

# target_vm_args DIR: the QEMU arguments (one a line) that give the guest one emulated NVMe
# controller per LUN, each backed by a file in DIR (compare/run: a folder in the host's
# /dev/shm, removed after the run)
target_vm_args() {
	local i f
	for ((i = 0; i < nluns; i++)); do
		f=$1/nvme$i
		truncate -s "${capacity_mb}M" "$f" || return 1
		printf '%s\n' -drive "if=none,id=cmpnv$i,file=$f,format=raw" -device "nvme,serial=ramlldcmp$i,drive=cmpnv$i"
	done
}
target_setup() { modprobe nvme 2> /dev/null || true; }
target_teardown() { :; }
target_devices() {
	local c
	DEVS=()
	for c in /sys/class/nvme/nvme*; do
		[ -e "$c/model" ] || continue
		grep -q QEMU "$c/model" || continue
		DEVS+=("/dev/$(basename "$c")n1")
	done
	if [ ${#DEVS[@]} -eq 0 ] || [ ! -b "${DEVS[0]}" ]; then
		note skip nvme "no QEMU NVMe controller in this guest (compare/run adds one only when tools/vm/run takes --qemu-arg)"
		return 1
	fi
	if command -v nvme > /dev/null; then nvme list >> "$LOG" 2>&1 || true; fi
}

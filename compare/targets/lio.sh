# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target lio, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: LIO rd_mcp behind tcm_loop (seed 000's stack)
# group: stack
# order: 300
# levels: default full
# load: lio
# precondition: yes
# own-functions: tcm_loop_.*|target_.*|transport_.*|sbc_.*|rd_.*

LIO=/sys/kernel/config/target
LIO_TPG=$LIO/loopback/naa.5001405c0a1b2c01/tpgt_1
# LIO rd_mcp backstores behind tcm_loop, straight through configfs (seed 000)
target_setup() {
	# rd_mcp is part of target_core_mod in Debian's 6.1 (a module of its own elsewhere)
	modprobe -a target_core_mod tcm_loop 2> /tmp/compare-lio.err ||
		{ note skip lio "modprobe target_core_mod tcm_loop failed: $(tr '\n' ' ' < /tmp/compare-lio.err)"; return 1; }
	modprobe target_core_rd 2> /dev/null || true
	[ -d "$LIO/core" ] || { note skip lio "no $LIO/core (configfs)"; return 1; }
	local i
	for ((i = 0; i < nluns; i++)); do
		mkdir -p "$LIO/core/rd_mcp_0/ramdisk$i"
		echo "rd_pages=$((capacity_mb * 256))" > "$LIO/core/rd_mcp_0/ramdisk$i/control"
		echo 1 > "$LIO/core/rd_mcp_0/ramdisk$i/enable"
		mkdir -p "$LIO_TPG/lun/lun_$i"
	done
	echo naa.5001405c0a1b2c02 > "$LIO_TPG/nexus"
	for ((i = 0; i < nluns; i++)); do
		ln -s "$LIO/core/rd_mcp_0/ramdisk$i" "$LIO_TPG/lun/lun_$i/vd$i"
	done
	wait_for 15 have_n_scsi "$nluns" LIO-ORG ||
		{ note skip lio "LIO disks did not appear"; target_teardown; return 1; }
}
target_teardown() {
	local l
	for l in "$LIO_TPG"/lun/lun_*; do
		[ -d "$l" ] || continue
		rm -f "$l"/vd*
		rmdir "$l"
	done
	rmdir "$LIO_TPG" "${LIO_TPG%/*}" 2> /dev/null || true
	for l in "$LIO"/core/rd_mcp_0/ramdisk*; do rmdir "$l" 2> /dev/null || true; done
	rmdir "$LIO/core/rd_mcp_0" 2> /dev/null || true
	# the fabric's own directory pins tcm_loop; target_core_mod loaded its backends itself
	rmdir "$LIO/loopback" 2> /dev/null || true
	wait_for 5 eval 'rmmod tcm_loop 2> /dev/null || [ ! -d /sys/module/tcm_loop ]' || true
	for l in /sys/module/target_core_mod/holders/*; do
		[ ! -e "$l" ] || rmmod "${l##*/}" 2> /dev/null || true
	done
	wait_for 5 eval 'rmmod target_core_mod 2> /dev/null || [ ! -d /sys/module/target_core_mod ]' ||
		note warn lio "rmmod target_core_mod failed (holders: $(cd /sys/module/target_core_mod/holders 2> /dev/null && echo *))"
}
target_devices() { mapfile -t DEVS < <(scsi_disks LIO-ORG); }

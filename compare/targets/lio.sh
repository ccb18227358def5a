# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare target lio, sourced by compare/guest-run (docs/usage.md: "Adding a target").
# desc: LIO rd_mcp behind tcm_loop, one loopback target per LUN, emulate_write_cache=1 (seed 000)
# group: stack
# order: 300
# levels: default full
# ladder: LIO rd_mcp, its own store
# load: lio
# precondition: yes
# needs: module target_core_mod, module tcm_loop
# own-functions: tcm_loop_.*|target_.*|transport_.*|sbc_.*|rd_.*

LIO=/sys/kernel/config/target
# LIO rd_mcp backstores behind tcm_loop, straight through configfs (seed 000): as the post, one
# loopback target (a SCSI host of its own) per rd_mcp LUN, each backstore with
# emulate_write_cache=1 (WCE=1 to sd)
target_setup() {
	# rd_mcp is part of target_core_mod in Debian's 6.1 (a module of its own elsewhere)
	modprobe -a target_core_mod tcm_loop 2> /tmp/compare-lio.err ||
		{ note skip lio "modprobe target_core_mod tcm_loop failed: $(tr '\n' ' ' < /tmp/compare-lio.err)"; return 1; }
	modprobe target_core_rd 2> /dev/null || true
	[ -d "$LIO/core" ] || { note skip lio "no $LIO/core (configfs)"; return 1; }
	local i rd tpg
	for ((i = 0; i < nluns; i++)); do
		rd=$LIO/core/rd_mcp_0/ramdisk$i
		mkdir -p "$rd"
		echo "rd_pages=$((capacity_mb * 256))" > "$rd/control"
		echo 1 > "$rd/enable"
		echo 1 > "$rd/attrib/emulate_write_cache" ||
			{ note skip lio "emulate_write_cache=1 refused on ramdisk$i"; return 1; }
		tpg=$LIO/loopback/$(printf 'naa.5001405c0a1b%04x' "$i")/tpgt_1
		mkdir -p "$tpg/lun/lun_0"
		printf 'naa.5001405c0a1c%04x\n' "$i" > "$tpg/nexus"
		ln -s "$rd" "$tpg/lun/lun_0/vd$i"
	done
	dev_wait_scsi_disks "$nluns" LIO-ORG || { note skip lio "$DEV_ERR"; target_teardown; return 1; }
}
target_teardown() {
	local l tpg
	for tpg in "$LIO"/loopback/naa.*/tpgt_1; do
		[ -d "$tpg" ] || continue
		for l in "$tpg"/lun/lun_*; do
			[ -d "$l" ] || continue
			rm -f "$l"/vd*
			rmdir "$l"
		done
		rmdir "$tpg" "${tpg%/*}" 2> /dev/null || true
	done
	for l in "$LIO"/core/rd_mcp_0/ramdisk*; do rmdir "$l" 2> /dev/null || true; done
	rmdir "$LIO/core/rd_mcp_0" 2> /dev/null || true
	# the fabric's own directory pins tcm_loop; target_core_mod loaded its backends itself
	rmdir "$LIO/loopback" 2> /dev/null || true
	DEV_WAIT=5 dev_rmmod tcm_loop || true
	for l in /sys/module/target_core_mod/holders/*; do
		[ ! -e "$l" ] || rmmod "${l##*/}" 2> /dev/null || true
	done
	DEV_WAIT=5 dev_rmmod target_core_mod ||
		note warn lio "$DEV_ERR (holders: $(cd /sys/module/target_core_mod/holders 2> /dev/null && echo *))"
}
target_devices() { mapfile -t DEVS < <(dev_scsi_disks LIO-ORG); }

# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # DEV_ERR and the device lists are what callers read
# tools/devices/brd.sh: the kernel's RAM disk (tools/devices/README.md).

# shellcheck source=tools/devices/rc.sh
. "${BASH_SOURCE[0]%/*}/rc.sh"

# dev_brd_load COUNT MIB [PARTITIONS]: COUNT brd disks of MIB MiB each, /dev/ram0 ..., each
# with room for PARTITIONS partitions (default 0)
dev_brd_load() {
	DEV_ERR=''
	[[ ${1:-} =~ ^[1-9][0-9]*$ ]] || { dev_bad "dev_brd_load: bad count '${1:-}' (allowed: a whole number >= 1)"; return 2; }
	[[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { dev_bad "dev_brd_load: bad size '${2:-}' (allowed: MiB, a whole number >= 1)"; return 2; }
	[[ ${3:-0} =~ ^[0-9]+$ ]] || { dev_bad "dev_brd_load: bad partition count '$3' (allowed: a whole number >= 0)"; return 2; }
	[ ! -d /sys/module/brd ] || { DEV_ERR="brd is loaded already"; return 1; }
	modprobe brd rd_nr="$1" rd_size=$(($2 * 1024)) max_part="${3:-0}" 2> /dev/null || { DEV_ERR="modprobe brd failed"; return 1; }
	dev_wait test -b "/dev/ram$(($1 - 1))" || { DEV_ERR="/dev/ram$(($1 - 1)) did not appear"; return 1; }
}

dev_brd_unload() {
	DEV_ERR=''
	dev_rmmod brd
}

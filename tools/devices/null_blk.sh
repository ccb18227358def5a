# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # DEV_ERR and the device lists are what callers read
# tools/devices/null_blk.sh: null_blk disks through configfs (tools/devices/README.md);
# memory_backed needs configfs in 6.1.

# shellcheck source=tools/devices/rc.sh
. "${BASH_SOURCE[0]%/*}/rc.sh"
NULL_BLK_CONFIG=/sys/kernel/config/nullb

# dev_null_blk_has ATTR: the kernel's null_blk has configfs attribute ATTR (its features list);
# loads null_blk (no devices of its own)
dev_null_blk_has() {
	_dev_null_blk_module || return 1
	grep -qw "$1" "$NULL_BLK_CONFIG/features"
}
_dev_null_blk_module() {
	[ -d /sys/module/null_blk ] || modprobe null_blk nr_devices=0 2> /dev/null ||
		{ DEV_ERR="modprobe null_blk failed"; return 1; }
	mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config 2> /dev/null || true
	[ -d "$NULL_BLK_CONFIG" ] || { DEV_ERR="no $NULL_BLK_CONFIG (null_blk without configfs)"; return 1; }
}

# dev_null_blk_add NAME ATTR=VALUE...: disk NAME: configfs folder NAME with these attributes
# written in this order (size in MiB, queue_mode, memory_backed, irqmode, submit_queues,
# poll_queues, hw_queue_depth...; an attribute the kernel lacks is refused), then powered
# on. NULL_BLK_DEV = its block device (6.x names it NAME, 5.x nullb<index>).
dev_null_blk_add() {
	local name=${1:-} d a
	DEV_ERR=''
	shift || true
	[[ $name =~ ^[a-z][a-z0-9_]*$ ]] ||
		{ dev_bad "dev_null_blk_add: bad name '$name' (allowed: lower-case letters, digits, '_')"; return 2; }
	_dev_null_blk_module || return 1
	d=$NULL_BLK_CONFIG/$name
	[ ! -e "$d" ] || { dev_bad "dev_null_blk_add: $d exists already"; return 2; }
	mkdir "$d" || { DEV_ERR="mkdir $d failed"; return 1; }
	# the attributes are the folder's files
	if ! dev_check_params dev_null_blk_add "$(cd "$d" && echo *)" "$@"; then
		rmdir "$d"
		return 2
	fi
	for a in "$@" power=1; do
		echo "${a#*=}" > "$d/${a%%=*}" 2> /dev/null ||
			{ DEV_ERR="null_blk $name: writing ${a#*=} to ${a%%=*} failed"; rmdir "$d"; return 1; }
	done
	NULL_BLK_DEV=/dev/$name
	if ! dev_wait test -b "$NULL_BLK_DEV"; then
		NULL_BLK_DEV=/dev/nullb$(cat "$d/index" 2> /dev/null || echo '?')
		[ -b "$NULL_BLK_DEV" ] || { DEV_ERR="null_blk $name: no block device appeared"; dev_null_blk_remove "$name"; return 1; }
	fi
}

# dev_null_blk_remove NAME: disk NAME powered off and its folder removed
dev_null_blk_remove() {
	local d=$NULL_BLK_CONFIG/$1
	[ -d "$d" ] || return 0
	echo 0 > "$d/power" 2> /dev/null || true
	rmdir "$d" || { DEV_ERR="rmdir $d failed"; return 1; }
}

# dev_null_blk_unload: every null_blk disk of configfs removed, then the module
dev_null_blk_unload() {
	local d
	DEV_ERR=''
	for d in "$NULL_BLK_CONFIG"/*/; do
		[ -d "$d" ] || continue
		d=${d%/}
		dev_null_blk_remove "${d##*/}" || return
	done
	dev_rmmod null_blk
}

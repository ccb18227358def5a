# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # DEV_ERR and the device lists are what callers read
# tools/devices/stack.sh: the kernel's storage stacks (LIO, iSCSI, SRP, NVMe-oF over nvmet) as
# tools/stack sets them up and takes them down (tools/devices/README.md).

# shellcheck source=tools/devices/rc.sh
. "${BASH_SOURCE[0]%/*}/rc.sh"
_DEV_STACK=$(cd "${BASH_SOURCE[0]%/*}/.." && pwd)/stack

# dev_stack_available STACK: this kernel can run STACK; else DEV_ERR = tools/stack list's reason
dev_stack_available() {
	local line
	DEV_ERR=''
	line=$("$_DEV_STACK" list 2> /dev/null) || { DEV_ERR="tools/stack list failed"; return 1; }
	line=$(awk -v s="$1" '$1 == s' <<< "$line")
	[ -n "$line" ] || { dev_bad "dev_stack_available: tools/stack does not know '$1' (allowed: $("$_DEV_STACK" list | awk '{ printf "%s ", $1 }'))"; return 2; }
	[[ $line != "$1 "*" available"* ]] || return 0
	line=${line#*unavailable}
	DEV_ERR=${line#"${line%%[! ]*}"}
	return 1
}

# dev_stack_up STACK DEV: STACK up on block device DEV; STACK_DEVS = the disks it made (its
# messages go to stderr, tools/stack's own)
dev_stack_up() {
	local rc=0
	DEV_ERR=''
	[ -b "${2:-}" ] || { dev_bad "dev_stack_up: '${2:-}' is not a block device"; return 2; }
	"$_DEV_STACK" up "$1" "$2" > /tmp/dev-stack.out || rc=$?
	[ "$rc" = 0 ] || { DEV_ERR="tools/stack up $1 $2 failed ($rc)"; return 1; }
	mapfile -t STACK_DEVS < /tmp/dev-stack.out
	if [ ${#STACK_DEVS[@]} -eq 0 ] || [ ! -b "${STACK_DEVS[0]}" ]; then
		DEV_ERR="$1 is up but made no block device"
		return 1
	fi
}

# dev_stack_down STACK: STACK down when it is up
dev_stack_down() {
	DEV_ERR=''
	"$_DEV_STACK" down "$1" > /dev/null || { DEV_ERR="tools/stack down $1 failed"; return 1; }
}

# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/targets/common/stack.sh: a kernel storage stack of tools/stack (LIO, iSCSI, SRP,
# NVMe-oF) over ramlld's first mq disk, sourced by the stack targets' files (docs/stacks.md).
# One stack exports one disk: such a target has one device whatever nluns asks.

# shellcheck source=compare/targets/common/ramlld.sh
. "$TARGETS_DIR/common/ramlld.sh"
STACK_STATE=${RAMLLD_STACK_STATE:-/run/ramlld-stack}

# stack_load STACK: ramlld (the common settings), its mq disk 0 filled once (the stack target's
# own preconditioning would write through the stack: the same bytes, more copies), and STACK on
# top of it. A stack the kernel lacks is skipped with tools/stack's reason.
stack_load() {
	local s=$1 line
	line=$("$top/tools/stack" list 2>> "$LOG") || { note skip "$TARGET" "tools/stack list failed"; return 1; }
	line=$(awk -v s="$s" '$1 == s' <<< "$line")
	[ -n "$line" ] || { note skip "$TARGET" "tools/stack does not know $s"; return 1; }
	if [[ $line != "$s "*" available "* ]]; then
		line=${line#*unavailable}
		note skip "$TARGET" "${line#"${line%%[! ]*}"}"
		return 1
	fi
	ramlld_load || return 1
	fio --name=fill --filename=/dev/ramlldmq0 --rw=write --bs=4m --direct=1 --ioengine=libaio \
		--iodepth=8 --output-format=terse > /dev/null 2>> "$LOG" ||
		note warn "$TARGET" "preconditioning write of /dev/ramlldmq0 failed"
	if ! "$top/tools/stack" up "$s" /dev/ramlldmq0 >> "$LOG" 2>&1; then
		note skip "$TARGET" "tools/stack up $s /dev/ramlldmq0 failed (its messages are in guest-run.log)"
		return 1
	fi
}

# stack_unload STACK: the stack down (when up), then ramlld
stack_unload() {
	[ ! -d "$STACK_STATE/$1" ] || "$top/tools/stack" down "$1" >> "$LOG" 2>&1 ||
		note warn "$TARGET" "tools/stack down $1 failed (see guest-run.log)"
	[ ! -d /sys/module/ramlld ] || ramlld_unload
}

# stack_devices STACK: DEVS = the disk the stack made (tools/stack's record of it)
stack_devices() {
	DEVS=()
	[ -s "$STACK_STATE/$1/devices" ] && mapfile -t DEVS < "$STACK_STATE/$1/devices"
	if [ ${#DEVS[@]} -eq 0 ] || [ ! -b "${DEVS[0]}" ]; then
		note skip "$TARGET" "$1 is up but made no block device"
		return 1
	fi
}

# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/targets/common/stack.sh: a kernel storage stack of tools/stack (LIO, iSCSI, SRP,
# NVMe-oF) over ramlld's first mq disk, sourced by the stack targets' files (docs/stacks.md).
# One stack exports one disk: such a target has one device whatever nluns asks.

# shellcheck source=compare/targets/common/ramlld.sh
. "$TARGETS_DIR/common/ramlld.sh"
# shellcheck source=tools/devices/stack.sh
. "$top/tools/devices/stack.sh"

# stack_load STACK: ramlld (the common settings), its mq disk 0 filled once (the stack target's
# own preconditioning would write through the stack: the same bytes, more copies), and STACK on
# top of it. A stack the kernel lacks is skipped with tools/stack's reason.
stack_load() {
	local s=$1
	dev_stack_available "$s" 2>> "$LOG" || { note skip "$TARGET" "$DEV_ERR"; return 1; }
	ramlld_up || return 1
	fio --name=fill --filename=/dev/ramlldmq0 --rw=write --bs=4m --direct=1 --ioengine=libaio \
		--iodepth=8 --output-format=terse > /dev/null 2>> "$LOG" ||
		note warn "$TARGET" "preconditioning write of /dev/ramlldmq0 failed"
	if ! dev_stack_up "$s" /dev/ramlldmq0 2>> "$LOG"; then
		note skip "$TARGET" "$DEV_ERR (its messages are in guest-run.log)"
		return 1
	fi
}

# stack_unload STACK: the stack down (when up), then ramlld
stack_unload() {
	[ ! -d "${RAMLLD_STACK_STATE:-/run/ramlld-stack}/$1" ] || dev_stack_down "$1" 2>> "$LOG" ||
		note warn "$TARGET" "$DEV_ERR (see guest-run.log)"
	[ ! -d /sys/module/ramlld ] || ramlld_down
}

# stack_devices STACK: DEVS = the disk the stack made
stack_devices() { DEVS=("${STACK_DEVS[@]}"); }

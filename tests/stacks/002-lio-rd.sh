#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tools/stack lio-rd: an rd_mcp ramdisk of the size asked behind tcm_loop, write-through or (--write-cache) write-back as sd sees it, bytes written read back; down leaves nothing
# where: guest
# timeout: 900
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stacks/stacks-lib.bash
. "$TOP/tests/stacks/stacks-lib.bash"

stack_need lio-rd
state_snapshot
for wc in "" --write-cache; do
	stack_up lio-rd 16m $wc
	expect_eq "size of $DEV" $((16 << 20)) "$(blockdev --getsize64 "$DEV")"
	expect_eq "SCSI model of $DEV" RAMDISK-MCP "$(tr -d ' ' < "/sys/block/${DEV#/dev/}/device/model")"
	want="write through"
	[ -z "$wc" ] || want="write back"
	expect_eq "sd's cache type of $DEV${wc:+ with $wc}" "$want" "$(cat /sys/block/"${DEV#/dev/}"/device/scsi_disk/*/cache_type)"
	write_read "$DEV" "$DEV" 512
	"$STACK" down lio-rd
	state_check "lio-rd${wc:+ $wc} down"
done

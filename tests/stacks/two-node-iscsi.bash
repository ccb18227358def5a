#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/stacks/two-node-iscsi.bash SIDE: one side (target | initiator) of
# tests/stacks/010-two-node-iscsi.sh, run in its own guest by tools/vm/pair (not a test itself:
# no .sh). The sides meet through files in the shared folder (tests/lib.sh peer_signal/peer_wait),
# where the patterns each side wrote are kept for the other to compare.
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stacks/stacks-lib.bash
. "$TOP/tests/stacks/stacks-lib.bash"

cap_mb=16 kib=256
shared=$RAMLLD_VM_SHARE
mkdir -p "$RESULTS"
# the initiator writes at the start and the end of the disk, the target in between
ini_offsets="0 $((cap_mb * 1024 - kib))"
tgt_offset=1024

# write_at DEV OFF_KIB FILE: write FILE's bytes into DEV at OFF_KIB, past the page cache.
write_at() {
	dd if="$3" of="$1" bs=64k seek=$(($2 / 64)) oflag=direct conv=notrunc status=none ||
		fail "write of $kib KiB through $1 at $2 KiB"
	echo "ok: $kib KiB of random bytes written through $1 at $2 KiB"
}

# check_read DEV OFF_KIB FILE WHAT: the bytes at OFF_KIB of DEV, read past the page cache, are
# FILE's (WHAT says who wrote them and how).
check_read() {
	local dev=$1 off=$2 p=$3 what=$4 r=$RESULTS/readback.$2 diff
	dd if="$dev" of="$r" bs=64k skip=$((off / 64)) count=$((kib / 64)) iflag=direct status=none ||
		fail "read of $kib KiB through $dev at $off KiB"
	if ! diff=$(cmp "$p" "$r" 2>&1); then
		fail "MISMATCH: $kib KiB $what at $off KiB differ read back through $dev on the $RAMLLD_PAIR_SIDE: $diff (written: $p, read: $r)"
	fi
	echo "ok: $kib KiB $what at $off KiB read back identical through $dev on the $RAMLLD_PAIR_SIDE"
}

target_side() {
	local off
	ramlld_load mode=bio capacity_mb=$cap_mb
	stack_need iscsi-target
	state_snapshot
	trap _stacks_on_exit EXIT
	"$STACK" up iscsi-target /dev/ramlld0 --portal "$RAMLLD_LINK_ADDR" ||
		fail "tools/stack up iscsi-target /dev/ramlld0 --portal $RAMLLD_LINK_ADDR failed"
	echo "ok: /dev/ramlld0 exported by LIO iSCSI on $RAMLLD_LINK_ADDR:3260"
	peer_signal target-up
	peer_wait initiator-wrote
	for off in $ini_offsets; do
		check_read /dev/ramlld0 "$off" "$shared/pattern.$off" "written by the initiator through its iSCSI disk"
	done
	pattern "$shared/pattern.$tgt_offset" "$kib"
	write_at /dev/ramlld0 "$tgt_offset" "$shared/pattern.$tgt_offset"
	peer_signal target-wrote
	# the initiator logs out first: a target taken away under a session leaves it retrying
	peer_wait initiator-down
	"$STACK" down iscsi-target || fail "tools/stack down iscsi-target failed"
	state_check "down iscsi-target"
	ramlld_unload
}

initiator_side() {
	local off disk
	stack_need iscsi-initiator
	state_snapshot
	peer_wait target-up
	stack_up iscsi-initiator "$RAMLLD_LINK_PEER"
	expect_eq "size of $DEV (the target's ramlld capacity_mb=$cap_mb)" $((cap_mb * 1024 * 1024)) "$(blockdev --getsize64 "$DEV")"
	for off in $ini_offsets; do
		pattern "$shared/pattern.$off" "$kib"
		write_at "$DEV" "$off" "$shared/pattern.$off"
	done
	peer_signal initiator-wrote
	peer_wait target-wrote
	check_read "$DEV" "$tgt_offset" "$shared/pattern.$tgt_offset" "written by the target through /dev/ramlld0"
	disk=${DEV#/dev/}
	"$STACK" down iscsi-initiator || fail "tools/stack down iscsi-initiator failed"
	[ ! -e "/sys/block/$disk" ] || fail "$DEV is still there after down"
	state_check "down iscsi-initiator"
	peer_signal initiator-down
}

case ${1:-} in
target) target_side ;;
initiator) initiator_side ;;
*) fail "usage: $0 target|initiator (got '${1:-}')" ;;
esac
echo "ok: the $1 side passed"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/stacks/two-node-sides.bash STACK MODE: one side (MODE: target | initiator, or the
# link-fault test's target-fault | initiator-fault) of the two-node tests (tests/stacks/010 on),
# over STACK's two halves (tests/stacks/two-node-stacks.bash), run in its own guest by
# tools/vm/pair (not a test itself: no .sh). The sides meet through files in the shared folder
# (tests/lib.sh peer_signal/peer_wait), where the patterns each side wrote are kept for the other
# to compare.
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stacks/stacks-lib.bash
. "$TOP/tests/stacks/stacks-lib.bash"
# shellcheck source=tests/stacks/two-node-stacks.bash
. "$TOP/tests/stacks/two-node-stacks.bash"

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

# tgt_up: ramlld's bio disk exported by the stack's target half on this guest's link address
tgt_up() {
	ramlld_load mode=bio capacity_mb=$cap_mb
	stack_need "$TN_TARGET"
	[ "${1:-}" != snapshot ] || state_snapshot
	trap _stacks_on_exit EXIT
	"$STACK" up "$TN_TARGET" /dev/ramlld0 "${TN_TARGET_ARGS[@]}" ||
		fail "tools/stack up $TN_TARGET /dev/ramlld0 ${TN_TARGET_ARGS[*]} failed"
	echo "ok: /dev/ramlld0 exported by $TN_TARGET ${TN_TARGET_ARGS[*]}"
	peer_signal target-up
}

# tgt_down: once the initiator is down (a target taken away under a session leaves it
# retrying), the target half down and ramlld unloaded
tgt_down() {
	peer_wait initiator-down
	"$STACK" down "$TN_TARGET" || fail "tools/stack down $TN_TARGET failed"
	[ "${1:-}" != check ] || state_check "down $TN_TARGET"
	ramlld_unload
}

target_side() {
	local off
	tgt_up snapshot
	peer_wait initiator-wrote
	for off in $ini_offsets; do
		check_read /dev/ramlld0 "$off" "$shared/pattern.$off" "written by the initiator through its $TN_STACK disk"
	done
	pattern "$shared/pattern.$tgt_offset" "$kib"
	write_at /dev/ramlld0 "$tgt_offset" "$shared/pattern.$tgt_offset"
	peer_signal target-wrote
	tgt_down check
}

initiator_side() {
	local off disk
	stack_need "$TN_INITIATOR"
	state_snapshot
	peer_wait target-up
	stack_up "$TN_INITIATOR" "$RAMLLD_LINK_PEER"
	expect_eq "size of $DEV (the target's ramlld capacity_mb=$cap_mb)" $((cap_mb * 1024 * 1024)) "$(blockdev --getsize64 "$DEV")"
	for off in $ini_offsets; do
		pattern "$shared/pattern.$off" "$kib"
		write_at "$DEV" "$off" "$shared/pattern.$off"
	done
	peer_signal initiator-wrote
	peer_wait target-wrote
	check_read "$DEV" "$tgt_offset" "$shared/pattern.$tgt_offset" "written by the target through /dev/ramlld0"
	disk=${DEV#/dev/}
	"$STACK" down "$TN_INITIATOR" || fail "tools/stack down $TN_INITIATOR failed"
	[ ! -e "/sys/block/$disk" ] || fail "$DEV is still there after down"
	state_check "down $TN_INITIATOR"
	peer_signal initiator-down
}

# The link-fault run (tests/stacks/011-two-node-link-fault.sh): the target only exports and
# waits; the initiator takes its link down under a fio verify load and brings it back.
target_fault_side() {
	tgt_up
	tgt_down
}

# fio_io_seen: fio has issued I/O to the initiator's disk (its counters moved)
fio_io_seen() {
	local r w
	read -r r _ _ _ w _ < "/sys/block/${DEV#/dev/}/stat"
	wait_seen="$((r + w)) I/Os"
	[ $((r + w)) -gt 200 ]
}

initiator_fault_side() {
	local fio_pid rc=0 down_s=$TWO_NODE_DOWN_S rt=$TWO_NODE_RECOVERY_S recovery
	need_commands fio
	stack_need "$TN_INITIATOR"
	mapfile -t recovery < <(tn_recovery_args "$rt")
	peer_wait target-up
	stack_up "$TN_INITIATOR" "$RAMLLD_LINK_PEER" "${recovery[@]}"
	# writes with a checksum in every block, all read back and checked once the writes end
	fio --name=verify --filename="$DEV" --ioengine=libaio --direct=1 --rw=randwrite --bs=4k \
		--iodepth=4 --size=${cap_mb}m --verify=crc32c --verify_fatal=1 --do_verify=1 \
		--output="$RESULTS/fio.out" &
	fio_pid=$!
	wait_for "fio to write through $DEV" fio_io_seen
	kill -0 "$fio_pid" 2> /dev/null || fail "fio ended before the link went down: $(cat "$RESULTS/fio.out")"
	ip link set "$RAMLLD_LINK_DEV" down || fail "ip link set $RAMLLD_LINK_DEV down"
	echo "ok: link $RAMLLD_LINK_DEV down under fio's load ($wait_seen done)"
	wait_for "the $TN_STACK initiator to notice the link down" tn_state "$TN_LOST"
	echo "ok: the $TN_STACK initiator is $TN_LOST while the link is down"
	# the outage: this guest's own clock, shorter than the recovery timeout
	sleep "$down_s"
	ip link set "$RAMLLD_LINK_DEV" up || fail "ip link set $RAMLLD_LINK_DEV up"
	echo "ok: link up after $down_s s (${recovery[*]})"
	wait_for "the $TN_STACK initiator to come back" tn_state "$TN_LIVE"
	echo "ok: the $TN_STACK initiator is $TN_LIVE again"
	wait "$fio_pid" || rc=$?
	[ "$rc" -eq 0 ] || fail "fio verify exited $rc after the outage: $(grep -iE 'verify|error|bad' "$RESULTS/fio.out" | head -5)"
	grep -q 'err= 0' "$RESULTS/fio.out" || fail "fio reports errors: $(grep 'err=' "$RESULTS/fio.out")"
	echo "ok: fio verify clean after the outage: $(grep -m1 -o 'IOPS=[^,]*' "$RESULTS/fio.out") ($(grep -c 'verify' "$RESULTS/fio.out") verify lines, err= 0)"
	"$STACK" down "$TN_INITIATOR" || fail "tools/stack down $TN_INITIATOR failed"
	peer_signal initiator-down
}

[ $# -eq 2 ] || fail "usage: $0 STACK target|initiator|target-fault|initiator-fault (got '$*')"
two_node_stack "$1"
case $2 in
target) target_side ;;
initiator) initiator_side ;;
target-fault) target_fault_side ;;
initiator-fault) initiator_fault_side ;;
*) fail "usage: $0 STACK target|initiator|target-fault|initiator-fault (got mode '$2')" ;;
esac
echo "ok: the $2 side passed"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/stacks/two-node-sides.bash STACK MODE: one side of the two-node tests (tests/stacks/010
# on) over STACK's two halves (tests/stacks/two-node-stacks.bash), run in its own guest by
# tools/vm/pair (not a test itself: no .sh). MODE: target | initiator, the link-fault test's
# target-fault | initiator-fault, the target-goes-away test's target-gone | initiator-gone. The
# sides meet through files in the shared folder (tests/lib.sh peer_signal/peer_wait), where the
# patterns each side wrote are kept for the other to compare.
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
	read -r r _ _ _ w _ < "$(tn_disk_stat "$DEV")"
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

# The target-goes-away run (tests/stacks/016, 017): the target takes its half
# down while the initiator holds the disk under fio; the initiator must get I/O errors once its
# recovery time is over, not hang, and both sides go down to what they were before.
target_gone_side() {
	tgt_up snapshot
	peer_wait fio-running
	peer_signal target-going
	"$STACK" down "$TN_TARGET" || fail "tools/stack down $TN_TARGET under a connected initiator failed"
	state_check "down $TN_TARGET under a connected initiator"
	peer_wait initiator-down
	ramlld_unload
}

# fio_ended PID: fio (PID) has exited
fio_ended() {
	wait_seen="fio still running, $TN_STACK initiator $(tn_state x; echo "$wait_seen")"
	! kill -0 "$1" 2> /dev/null
}

initiator_gone_side() {
	local fio_pid rc=0 rt=$TWO_NODE_RECOVERY_S recovery t0 took bound msgs disk
	need_commands fio
	stack_need "$TN_INITIATOR"
	state_snapshot
	mapfile -t recovery < <(tn_recovery_args "$rt")
	peer_wait target-up
	stack_up "$TN_INITIATOR" "$RAMLLD_LINK_PEER" "${recovery[@]}"
	disk=${DEV#/dev/}
	dmesg -C
	# a load that would last far past the test: only an I/O error ends it
	fio --name=held --filename="$DEV" --ioengine=libaio --direct=1 --rw=randrw --bs=4k --iodepth=4 \
		--time_based=1 --runtime=36000 --eta=never --output="$RESULTS/fio.out" &
	fio_pid=$!
	wait_for "fio to do I/O through $DEV" fio_io_seen
	echo "ok: fio holds $DEV ($wait_seen done)"
	peer_signal fio-running
	peer_wait target-going
	t0=$EPOCHSECONDS
	echo "ok: the target takes its half down under fio's load (${recovery[*]})"
	wait_for "fio to end with an I/O error once the target is gone" fio_ended "$fio_pid"
	took=$((EPOCHSECONDS - t0))
	wait "$fio_pid" || rc=$?
	# the recovery time, plus a minute for noticing, one reconnect attempt and fio's own exit
	bound=$((rt + 60))
	[ "$took" -le "$bound" ] || fail "fio ended ${took} s after the target went, past $bound s (recovery ${rt} s + 60 s)"
	[ "$rc" -ne 0 ] || fail "fio exited 0 with its disk's target gone: $(grep -E 'err=' "$RESULTS/fio.out")"
	grep -qE 'err= *5\b|Input/output error' "$RESULTS/fio.out" ||
		fail "fio exited $rc without an I/O error (EIO): $(grep -iE 'err|error' "$RESULTS/fio.out" | head -3)"
	echo "ok: fio exited $rc ${took} s after the target went (bound $bound s): $(grep -m1 -oE 'err= *[0-9]+[^)]*|[^:]*Input/output error[^;]*' "$RESULTS/fio.out")"
	dmesg > "$RESULTS/dmesg.txt"
	msgs=$(grep -E "(I/O error|failing I/O).*|${disk}.*error" "$RESULTS/dmesg.txt" | head -2) ||
		fail "the kernel logged no I/O error for $DEV: $(tail -5 "$RESULTS/dmesg.txt")"
	echo "ok: the kernel logged: ${msgs//$'\n'/ | }"
	# how the transport saw the target go, on the kernel's clock
	echo "the kernel's log from the target's going to the first failed I/O:"
	grep -m1 -B8 -E 'I/O error|failing I/O' "$RESULTS/dmesg.txt"
	"$STACK" down "$TN_INITIATOR" || fail "tools/stack down $TN_INITIATOR with its target gone failed"
	[ ! -e "/sys/block/$disk" ] || fail "$DEV is still there after down"
	state_check "down $TN_INITIATOR with its target gone"
	peer_signal initiator-down
}

[ $# -eq 2 ] || fail "usage: $0 STACK target|initiator|target-fault|initiator-fault|target-gone|initiator-gone (got '$*')"
two_node_stack "$1"
case $2 in
target) target_side ;;
initiator) initiator_side ;;
target-fault) target_fault_side ;;
initiator-fault) initiator_fault_side ;;
target-gone) target_gone_side ;;
initiator-gone) initiator_gone_side ;;
*) fail "usage: $0 STACK target|initiator|target-fault|initiator-fault|target-gone|initiator-gone (got mode '$2')" ;;
esac
echo "ok: the $2 side passed"

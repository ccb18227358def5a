# SPDX-License-Identifier: GPL-2.0
# tests/stacks/stacks-lib.bash: helpers of the kernel storage stack tests (tools/stack), sourced
# after tests/lib.sh (not a test: no .sh).
# shellcheck shell=bash

STACK=$TOP/tools/stack
STACK_STATE=/run/ramlld-stack
out=
# tools/stack's waits (a session, a disk) last as long as the test may, not its default 30 s
RAMLLD_STACK_WAIT=${RAMLLD_STACK_WAIT:-$(wait_seconds)}
export RAMLLD_STACK_WAIT

# stack_line STACK: sets line to STACK's line of tools/stack list. What is available is the
# kernel's and stays: list runs once a test (in a TCG guest a program starts slowly), in this
# shell (not in a command substitution, which would lose it).
stack_list_once=
stack_line() {
	[ -n "$stack_list_once" ] || stack_list_once=$("$STACK" list) || fail "tools/stack list failed"
	line=$(awk -v s="$1" '$1 == s' <<< "$stack_list_once")
}

# stack_need STACK: skip unless tools/stack says STACK is available on this kernel.
stack_need() {
	local line
	stack_line "$1"
	[ -n "$line" ] || fail "tools/stack list does not name $1"
	case $line in
	*" available "*) echo "available: $1" ;;
	*) skip "$1: ${line#*unavailable  }" ;;
	esac
}

# stack_available STACK: tools/stack list says STACK is available.
stack_available() {
	local line
	stack_line "$1"
	[[ $line == "$1 "*" available "* ]]
}

# kernel_state: what a stack may leave behind: loaded modules, the configfs trees of LIO and
# nvmet, iSCSI sessions, SRP ports, NVMe controllers, netdevs, RDMA links, SCSI hosts, disks.
kernel_state() {
	awk '{ print "module", $1 }' /proc/modules | sort
	find /sys/kernel/config -mindepth 1 2> /dev/null | { grep -v -E '^/sys/kernel/config/target/core/alua' || true; } | sort
	ls /sys/class/iscsi_session /sys/class/srp_remote_ports /sys/class/nvme /sys/class/net \
		/sys/class/infiniband /sys/class/scsi_host /sys/block 2> /dev/null || true
	pidof iscsid || true
	ls -d "$STACK_STATE"/* 2> /dev/null || true
}

# state_snapshot: remember kernel_state; state_check WHAT: fail when it changed since.
state_snapshot() {
	kernel_state > "$RESULTS/state.before"
}
state_check() {
	kernel_state > "$RESULTS/state.after"
	if ! diff -u "$RESULTS/state.before" "$RESULTS/state.after" >&2; then
		fail "$1: left behind (+) or took away (-) the lines above"
	fi
	echo "ok: $1: no module, configfs entry, session, port, netdev or disk left behind"
}

# On a failed test, take down whatever stack is still up, then unload ramlld (tests/lib.sh), so
# that the next test starts clean.
_stacks_on_exit() {
	local rc=$? d
	if [ "$rc" -ne 0 ]; then
		for d in "$STACK_STATE"/*; do
			[ -d "$d" ] && "$STACK" down "${d##*/}"
		done
	fi
	_ramlld_on_exit
	return "$rc"
}

# stack_up STACK ARG...: tools/stack up; sets DEV to the one device it printed, STEPS to its
# step count.
stack_up() {
	local err=$RESULTS/up.err
	trap _stacks_on_exit EXIT
	out=$("$STACK" up "$@" 2> "$err") || {
		cat "$err" >&2
		fail "tools/stack up $* failed"
	}
	cat "$err"
	[ "$(wc -l <<< "$out")" -eq 1 ] || fail "up $*: expected one device, got: $out"
	DEV=$out
	[ -b "$DEV" ] || fail "up $*: printed '$DEV', not a block device"
	STEPS=$(sed -n 's/.* is up (\([0-9]*\) steps).*/\1/p' "$err")
	[ -n "$STEPS" ] || fail "up $*: no step count in its messages"
	echo "ok: up $*: $DEV in $STEPS steps"
}

# pattern FILE KIB: KIB KiB of random bytes in FILE.
pattern() {
	head -c $(($2 * 1024)) /dev/urandom > "$1"
}

# write_read FROM TO OFFSET_KIB: write 256 KiB of random bytes through FROM at OFFSET_KIB
# (O_DIRECT), read them back through TO (O_DIRECT) and compare.
write_read() {
	local from=$1 to=$2 off=$3 p=$RESULTS/pattern.$3 r=$RESULTS/readback.$3
	pattern "$p" 256
	dd if="$p" of="$from" bs=64k seek=$((off / 64)) oflag=direct conv=notrunc status=none ||
		fail "write through $from at $off KiB"
	dd if="$to" of="$r" bs=64k skip=$((off / 64)) count=4 iflag=direct status=none ||
		fail "read through $to at $off KiB"
	cmp "$p" "$r" || fail "256 KiB written through $from at $off KiB differ read through $to"
	echo "ok: 256 KiB written through $from at $off KiB read back identical through $to"
}

# same_size A B: the two block devices have the same size.
same_size() {
	local a b
	a=$(blockdev --getsize64 "$1")
	b=$(blockdev --getsize64 "$2")
	expect_eq "size of $1 (that of $2)" "$b" "$a"
}

# stack_roundtrip STACK: up over /dev/ramlldmq0, write through the stack and read through
# /dev/ramlld0 and the other way round, down, and check that nothing is left.
stack_roundtrip() {
	local s=$1 disk
	ramlld_load mode=bio,mq capacity_mb=16
	stack_need "$s"
	state_snapshot
	stack_up "$s" /dev/ramlldmq0
	same_size "$DEV" /dev/ramlld0
	write_read "$DEV" /dev/ramlld0 0
	write_read /dev/ramlld0 "$DEV" 1024
	write_read "$DEV" /dev/ramlld0 $((16 * 1024 - 256))
	# not "list | grep -q": grep's early exit would make list die of SIGPIPE under pipefail
	out=$("$STACK" list)
	[[ $out == *$'\n'"$s "*"[up: $DEV ]"* || $out == "$s "*"[up: $DEV ]"* ]] ||
		fail "tools/stack list does not show $s up on $DEV: $out"
	echo "ok: list shows $s up on $DEV"
	disk=${DEV#/dev/}
	"$STACK" down "$s" || fail "tools/stack down $s failed"
	[ ! -e "/sys/block/$disk" ] || fail "$DEV is still there after down"
	state_check "down $s"
	run_rc 2 "$STACK" down "$s"
	expect_in "down twice" "stack $s is not up"
	ramlld_unload
}

# fail_at STACK ARG K [OPTION...]: up with step K failing on purpose must exit 1, say so, and
# leave nothing.
fail_at() {
	local s=$1 arg=$2 k=$3
	shift 3
	run_rc 1 env RAMLLD_STACK_FAIL_AT="$k" "$STACK" up "$s" "$arg" "$@"
	[ "$k" = last ] || expect_in "$s failing at step $k" "step $k ("
	expect_in "$s failing at step $k" "undone: nothing of $s is left"
	state_check "$s failing at step $k"
}

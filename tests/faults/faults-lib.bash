# SPDX-License-Identifier: GPL-2.0
# tests/faults/faults-lib.bash: helpers of the fault-injection tests, sourced after tests/lib.sh
# (not a test: no .sh).
# shellcheck shell=bash

PARAMS=/sys/module/ramlld/parameters

# set_param NAME VALUE: write a fault knob; fail if the write is refused.
set_param() {
	echo "$2" > "$PARAMS/$1" || fail "writing '$2' to $PARAMS/$1 failed"
}

# dd_ok WHAT DD_ARGS...: a direct dd that must succeed.
dd_ok() {
	local what=$1
	shift
	dd "$@" status=none 2> /tmp/dd.err.$$ || fail "$what: dd $* failed: $(cat /tmp/dd.err.$$)"
	echo "ok: $what succeeded"
}

# dd_err WHAT MESSAGE DD_ARGS...: a dd that must fail with the error MESSAGE (strerror text).
dd_err() {
	local what=$1 msg=$2 rc=0
	shift 2
	dd "$@" status=none 2> /tmp/dd.err.$$ || rc=$?
	[ "$rc" -ne 0 ] || fail "$what: dd $* succeeded, expected '$msg'"
	grep -q "$msg" /tmp/dd.err.$$ || fail "$what: expected '$msg', dd said: $(cat /tmp/dd.err.$$)"
	echo "ok: $what failed as expected: dd exit $rc, $msg"
}

# dd_eio WHAT DD_ARGS...: a dd that must fail with EIO.
dd_eio() {
	local what=$1
	shift
	dd_err "$what" "Input/output error" "$@"
}

# sg_medium_error WHAT WANT_KCQ WANT_LBA SG_RAW_ARGS...: sg_raw must end in CHECK CONDITION with
# sense WANT_KCQ (e.g. 3/11/00) and INFORMATION (VALID) WANT_LBA.
sg_medium_error() {
	local what=$1 kcq=$2 lba=$3 out rc=0
	shift 3
	out=$(sg_raw --cmdset=1 -v "$@" 2>&1) || rc=$?
	[ "$rc" -ne 0 ] || fail "$what: sg_raw $* succeeded: $out"
	expect_eq "$what: sg_raw exit status non-zero ($rc), sense" "$kcq" "$(scsi_sense <<< "$out")"
	expect_eq "$what: sense INFORMATION (LBA)" "$lba" "$(scsi_sense_info <<< "$out")"
}

# hex32 N / hex16 N: the bytes of N big-endian, space separated, for a CDB.
hex32() {
	printf '%02x %02x %02x %02x' $(($1 >> 24 & 255)) $(($1 >> 16 & 255)) $(($1 >> 8 & 255)) $(($1 & 255))
}
hex16() {
	printf '%02x %02x' $(($1 >> 8 & 255)) $(($1 & 255))
}

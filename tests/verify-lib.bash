# SPDX-License-Identifier: GPL-2.0
# tests/verify-lib.bash: bytes written through one path to a store and checked through another
# with fio's crc32c verify (each 4 KiB block carries a header with its offset and the crc32c of
# its bytes), and a block changed on purpose found, so that the check can fail. Sourced after
# tests/lib.sh (not a test: no .sh).
# shellcheck shell=bash

# the first VERIFY_MB MiB of the device are written and read; block 100 is the one changed
VERIFY_MB=${VERIFY_MB:-4}
VERIFY_BAD=$((100 * 4096))

# verify_fio WHAT DEV RW FIO_ARG...: fio RW (write: with crc32c headers; read: checking them)
# over the first VERIFY_MB MiB of DEV in 4 KiB blocks, in order; its JSON in $RESULTS/WHAT.json,
# its messages in WHAT.err. Sets FIO_RC (its exit status), FIO_ERR (the job's error number) and
# FIO_BYTES (bytes it moved).
verify_fio() {
	local what=$1 dev=$2 rw=$3 vals
	shift 3
	FIO_RC=0
	fio --name="$what" --filename="$dev" --rw="$rw" --bs=4k --size="${VERIFY_MB}M" --verify=crc32c \
		--verify_fatal=1 --do_verify="$([ "$rw" = read ] && echo 1 || echo 0)" --randrepeat=0 \
		--output-format=json --output="$RESULTS/$what.json" "$@" 2> "$RESULTS/$what.err" || FIO_RC=$?
	vals=$(python3 -c 'import json, sys
t = open(sys.argv[1]).read()
j = json.loads(t[t.index("{"):])["jobs"][0]
print(j["error"], j[sys.argv[2]]["io_bytes"])' "$RESULTS/$what.json" "$rw" 2>&1) ||
		fail "fio $what ($rw $dev) left no JSON: $(tail -n 3 "$RESULTS/$what.err" | tr '\n' ' ') $vals"
	read -r FIO_ERR FIO_BYTES <<< "$vals"
}

# cross_verify A DEV_A ARGS_A B DEV_B ARGS_B: write the area through path A (device DEV_A, fio
# options in the array named ARGS_A), read it back through path B with verify (every block's
# crc32c and offset right); then change block VERIFY_BAD through A (a pattern, no header) and
# read through B again: fio must stop with EILSEQ (84) naming that block's offset.
cross_verify() {
	local a=$1 dev_a=$2 b=$4 dev_b=$5 want=$((VERIFY_MB * 1024 * 1024))
	local -n args_a=$3 args_b=$6
	verify_fio "$a-write" "$dev_a" write "${args_a[@]}"
	if [ "$FIO_RC" != 0 ] || [ "$FIO_ERR" != 0 ]; then
		fail "write through $a ($dev_a): fio exit $FIO_RC, error $FIO_ERR: $(tail -n 3 "$RESULTS/$a-write.err" | tr '\n' ' ')"
	fi
	expect_eq "bytes written through $a ($dev_a)" "$want" "$FIO_BYTES"
	verify_fio "$b-read-$a" "$dev_b" read "${args_b[@]}"
	[ "$FIO_RC" = 0 ] ||
		fail "read through $b ($dev_b) of what $a wrote: fio exit $FIO_RC, error $FIO_ERR: $(tail -n 3 "$RESULTS/$b-read-$a.err" | tr '\n' ' ')"
	expect_eq "verify errors reading through $b ($dev_b) what $a wrote" 0 "$FIO_ERR"
	expect_eq "bytes read and verified through $b" "$want" "$FIO_BYTES"
	fio --name="$a-change" --filename="$dev_a" --rw=write --bs=4k --offset="$VERIFY_BAD" --size=4k \
		--buffer_pattern=0x5a5aa5a5 --output="$RESULTS/$a-change.out" "${args_a[@]}" 2>&1 ||
		fail "changing block $VERIFY_BAD through $a ($dev_a) failed: $(tail -n 3 "$RESULTS/$a-change.out" | tr '\n' ' ')"
	verify_fio "$b-read-$a-changed" "$dev_b" read "${args_b[@]}"
	[ "$FIO_RC" != 0 ] || fail "read through $b ($dev_b) passed verify over the block changed through $a at $VERIFY_BAD"
	expect_eq "fio's error reading through $b over the changed block (EILSEQ)" 84 "$FIO_ERR"
	grep -q "at file $dev_b offset $VERIFY_BAD," "$RESULTS/$b-read-$a-changed.err" ||
		fail "fio's verify failure does not name offset $VERIFY_BAD: $(head -n 3 "$RESULTS/$b-read-$a-changed.err" | tr '\n' ' ')"
	[ "$FIO_BYTES" -lt "$want" ] || fail "read through $b went on to the end ($FIO_BYTES bytes) past the changed block"
	echo "ok: the block changed through $a at offset $VERIFY_BAD found reading through $b (fio stopped after $FIO_BYTES bytes)"
}

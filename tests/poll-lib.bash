# SPDX-License-Identifier: GPL-2.0
# tests/poll-lib.bash: helpers of the polled-I/O tests (tests/mq/005-poll.sh, tests/scsi/012-poll.sh),
# sourced after tests/lib.sh (not a test: no .sh).
# shellcheck shell=bash

# kernel_at_least MAJOR MINOR: true when the running kernel is MAJOR.MINOR or newer.
kernel_at_least() {
	local v
	v=$(uname -r)
	v=${v%%-*}
	[ "${v%%.*}" -gt "$1" ] || { [ "${v%%.*}" -eq "$1" ] && [ "$(echo "$v" | cut -d. -f2)" -ge "$2" ]; }
}

# poll_check_sysfs DISK NR_DEFAULT NR_POLL: the disk polls (queue/io_poll 1), has NR_DEFAULT +
# NR_POLL hardware queues, and (where debugfs has hctx types) the last NR_POLL are of type poll.
poll_check_sysfs() {
	local d=$1 nd=$2 np=$3 i t
	expect_eq "$d queue/io_poll" 1 "$(cat "/sys/block/$d/queue/io_poll")"
	expect_eq "$d hardware queues (mq/*)" $((nd + np)) \
		"$(find "/sys/block/$d/mq/" -mindepth 1 -maxdepth 1 -type d | wc -l)"
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug 2> /dev/null || true
	if [ ! -r "/sys/kernel/debug/block/$d/hctx0/type" ]; then
		echo "note: kernel $(uname -r) shows no debugfs hctx type for $d: queue types not checked"
		return 0
	fi
	for ((i = 0; i < nd + np; i++)); do
		t=default
		[ "$i" -lt "$nd" ] || t=poll
		expect_eq "$d hctx$i type" "$t" "$(cat "/sys/kernel/debug/block/$d/hctx$i/type")"
	done
}

# Counting calls with kprobes (where the kernel has kprobe events; else the counts are "-"):
#   probe_add NAME FUNC calls|returned: count FUNC's calls, or add up its return values (the
#     number of requests a poll function ended; polls that found nothing are filtered out);
#     returns 1, saying why, when the kernel cannot probe FUNC (no kprobe events, no such function)
#   probe_result NAME: the count since probe_add ("-" when it could not be added)
#   probe_clear: remove every probe added
PROBE_TRACE=
PROBE_NAMES=()
probe_add() {
	local name=$1 func=$2 what=$3 t=/sys/kernel/tracing
	[ -d "$t"/events ] || mount -t tracefs nodev "$t" 2> /dev/null || true
	[ -d "$t"/events ] || t=/sys/kernel/debug/tracing
	if [ ! -w "$t"/kprobe_events ]; then
		echo "note: kernel $(uname -r) has no kprobe_events: calls of $func are not counted"
		return 1
	fi
	if [ "$what" = returned ]; then
		echo "r:ramlld_$name $func ret=\$retval:s32" >> "$t"/kprobe_events 2> /dev/null || {
			echo "note: cannot probe $func on $(uname -r)"
			return 1
		}
		echo 'ret > 0' > "$t/events/kprobes/ramlld_$name/filter"
	else
		echo "p:ramlld_$name $func" >> "$t"/kprobe_events 2> /dev/null || {
			echo "note: cannot probe $func on $(uname -r) (no such function)"
			return 1
		}
	fi
	[ ${#PROBE_NAMES[@]} -gt 0 ] || { echo 0 > "$t"/tracing_on; echo > "$t"/trace; }
	echo 1 > "$t/events/kprobes/ramlld_$name/enable"
	echo 1 > "$t"/tracing_on
	PROBE_TRACE=$t
	PROBE_NAMES+=("$name")
}

probe_result() {
	local name=$1 t=$PROBE_TRACE
	if [ -z "$t" ] || [[ " ${PROBE_NAMES[*]} " != *" $name "* ]]; then
		echo -
		return 0
	fi
	awk -v e="ramlld_$name:" '$0 ~ e { n++; if (match($0, /ret=[0-9]+/)) s += substr($0, RSTART + 4, RLENGTH - 4) }
		END { print (s > 0 ? s : n + 0) }' "$t"/trace
}

probe_clear() {
	local t=$PROBE_TRACE name
	[ -n "$t" ] || return 0
	echo 0 > "$t"/tracing_on
	for name in "${PROBE_NAMES[@]}"; do
		echo 0 > "$t/events/kprobes/ramlld_$name/enable"
		echo "-:ramlld_$name" >> "$t"/kprobe_events
	done
	echo > "$t"/trace
	echo 1 > "$t"/tracing_on
	PROBE_TRACE=
	PROBE_NAMES=()
}

# poll_fio_verify DEV WHAT FIO_ARGS...: a write-then-verify fio run (crc32c, fatal) of
# POLL_FIO_BLOCKS 4k blocks with the given engine options; fails the test on any error or when
# it did not write and read back every block.
POLL_FIO_BLOCKS=512
poll_fio_verify() {
	local dev=$1 what=$2 out
	shift 2
	out=$RESULTS/fio-$$.json
	fio --name=v --filename="$dev" --direct=1 --bs=4k --size=$((POLL_FIO_BLOCKS * 4))k --rw=randwrite \
		--verify=crc32c --verify_fatal=1 --do_verify=1 --output-format=json --output="$out" "$@" ||
		fail "$what: fio failed: $(tail -n 5 "$out" 2> /dev/null)"
	python3 - "$out" "$what" $((POLL_FIO_BLOCKS * 4096)) <<'EOF' || fail "$what: fio saw errors or did not move every block"
import json, sys
t = open(sys.argv[1]).read()
j = json.loads(t[t.index("{"):])["jobs"][0]
r, w, want = j["read"]["io_bytes"], j["write"]["io_bytes"], int(sys.argv[3])
print(f"ok: {sys.argv[2]}: error {j['error']}, wrote {w >> 10} KiB, verified {r >> 10} KiB")
sys.exit(j["error"] != 0 or w != want or r != want)
EOF
}

# poll_verify_all DEV: polled writes and reads that verify, through every polled engine setting:
# io_uring with hipri (IOPOLL), with registered buffers and files, with an SQ thread too, and
# pvsync2 with hipri (RWF_HIPRI). POLL_SYNC_RUNS: how many of those runs poll, with
# POLL_VERIFY_RUNS in all: the synchronous direct-I/O path polls on 5.10 (no io_comp_batch there)
# and no more since the bio-based polling of 5.16 (6.1's block/fops.c polls async I/O only):
# there RWF_HIPRI I/O takes the submission queue and completes inline.
# shellcheck disable=SC2034 # read by the tests that source this file
POLL_VERIFY_RUNS=4 POLL_SYNC_RUNS=$(kernel_at_least 5 16 && echo 0 || echo 1)
poll_verify_all() {
	local dev=$1
	poll_fio_verify "$dev" "$dev io_uring hipri" --ioengine=io_uring --hipri=1 --iodepth=16 \
		--iodepth_batch_submit=8
	poll_fio_verify "$dev" "$dev io_uring hipri fixedbufs registerfiles" --ioengine=io_uring \
		--hipri=1 --fixedbufs=1 --registerfiles=1 --iodepth=16 --iodepth_batch_submit=8
	poll_fio_verify "$dev" "$dev io_uring hipri sqthread_poll" --ioengine=io_uring --hipri=1 \
		--sqthread_poll=1 --iodepth=8
	poll_fio_verify "$dev" "$dev pvsync2 hipri" --ioengine=pvsync2 --hipri=1
}

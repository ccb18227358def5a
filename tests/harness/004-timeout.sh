#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tools/vm/run --timeout 10 kills a guest still running (booting or in its hung command) after 10 s and reports it (exit 124); on --clock icount after 10 s of QEMU's host CPU time, reported as such
# where: host
# requires: qemu-system-x86_64
# timeout: 240
. "$TOP/tests/lib.sh"

rc=0
start=$(date +%s)
"$TOP/tools/vm/run" --timeout 10 -- sleep 1000 > "$RESULTS/stdout" 2> "$RESULTS/stderr" <&- || rc=$?
secs=$(($(date +%s) - start))
cat "$RESULTS/stdout" "$RESULTS/stderr"
expect_eq "exit status" 124 "$rc"
grep -q 'guest timed out after 10 s' "$RESULTS/stderr" || fail "the timeout was not reported"
echo "ok: timeout reported"
# Never sooner than the timeout; how much later depends on the host's load (the set-up before
# the guest starts), and a guest not killed would run past this test's own timeout.
[ "$secs" -ge 10 ] || fail "the run took $secs s, less than its --timeout of 10 s"
echo "ok: the run took $secs s (host clock), at least its --timeout"

# On the exact clock the timeout is QEMU's CPU time: a guest spinning in a busy loop uses a CPU,
# so it ends after about 10 s of CPU (the watchdog looks every 5 s), the message saying so.
rc=0
"$TOP/tools/vm/run" --clock icount --cpus 1 --qemu system --timeout 10 -- sh -c 'while :; do :; done' \
	> "$RESULTS/stdout2" 2> "$RESULTS/stderr2" <&- || rc=$?
cat "$RESULTS/stdout2" "$RESULTS/stderr2"
expect_eq "exit status on the exact clock" 124 "$rc"
line=$(grep -o 'guest timed out after [0-9]* s of host CPU' "$RESULTS/stderr2") ||
	fail "the exact clock's timeout was not reported as host CPU time"
cpu=$(grep -o '[0-9]*' <<< "$line")
{ [ "$cpu" -ge 10 ] && [ "$cpu" -le 20 ]; } || fail "killed after $cpu s of host CPU, not 10-20 s"
echo "ok: on the exact clock: $line"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tools/vm/run --timeout 10 kills a guest still running (booting or in its hung command) after 10 s and reports it (exit 124)
# where: host
# requires: qemu-system-x86_64
# timeout: 120
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

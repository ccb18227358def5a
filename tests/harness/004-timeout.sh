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
{ [ "$secs" -ge 10 ] && [ "$secs" -lt 40 ]; } || fail "the run took $secs s, expected 10 to 40"
echo "ok: the run took $secs s"

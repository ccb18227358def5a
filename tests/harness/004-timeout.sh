#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tools/vm/run --timeout 30 kills a guest whose command hangs and reports it (exit 124)
# where: host
# requires: qemu-system-x86_64
# timeout: 120
. "$TOP/tests/lib.sh"

rc=0
start=$(date +%s)
"$TOP/tools/vm/run" --timeout 30 -- sleep 1000 > "$RESULTS/stdout" 2> "$RESULTS/stderr" <&- || rc=$?
secs=$(($(date +%s) - start))
cat "$RESULTS/stdout" "$RESULTS/stderr"
expect_eq "exit status" 124 "$rc"
grep -q 'guest timed out after 30 s' "$RESULTS/stderr" || fail "the timeout was not reported"
echo "ok: timeout reported"
{ [ "$secs" -ge 30 ] && [ "$secs" -lt 60 ]; } || fail "the run took $secs s, expected 30 to 60"
echo "ok: the run took $secs s"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: a guest kernel panic (sysrq crash) fails tools/vm/run (125) promptly, with the panic printed
# where: host
# requires: qemu-system-x86_64
# timeout: 120
. "$TOP/tests/lib.sh"

rc=0
start=$(date +%s)
"$TOP/tools/vm/run" --timeout 100 -- sh -c 'echo c > /proc/sysrq-trigger; sleep 60; echo not-reached' \
	> "$RESULTS/stdout" 2> "$RESULTS/stderr" <&- || rc=$?
secs=$(($(date +%s) - start))
cat "$RESULTS/stdout" "$RESULTS/stderr"
expect_eq "exit status" 125 "$rc"
grep -q 'Kernel panic - not syncing: sysrq triggered crash' "$RESULTS/stderr" || fail "the panic was not printed"
echo "ok: panic printed"
! grep -q not-reached "$RESULTS/stdout" || fail "the command went on after the panic"
# A guest that went on after the panic would have printed not-reached (60 s later) or been
# killed by --timeout (exit 124): the exit status and output show it ended at the panic.
echo "ok: the guest ended at the panic, $secs s after the start (host clock)"

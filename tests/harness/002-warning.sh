#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: a kernel WARNING in the guest (a test module's WARN_ON) fails tools/vm/run (125) with the report printed, though the command exits 0
# where: host
# requires: qemu-system-x86_64 make cc
# timeout: 180
. "$TOP/tests/lib.sh"
. "$TOP/tests/harness/harness-lib.bash"

build_warn_module
echo "ok: built $mod/ramlld_harness_warn.ko"
rc=0
"$TOP/tools/vm/run" -- sh -c "insmod $mod/ramlld_harness_warn.ko && rmmod ramlld_harness_warn; echo command-done; exit 0" \
	> "$RESULTS/stdout" 2> "$RESULTS/stderr" <&- || rc=$?
cat "$RESULTS/stdout" "$RESULTS/stderr"
grep -q command-done "$RESULTS/stdout" || fail "the command did not run to its end"
expect_eq "exit status" 125 "$rc"
grep -q 'WARNING: CPU: .*ramlld_harness_warn' "$RESULTS/stderr" || fail "the WARNING report was not printed"
grep -q 'Call Trace' "$RESULTS/stderr" || fail "the report's call trace was not printed"
echo "ok: WARNING reported with its call trace"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tests/run stretches every timeout by the host's load (the 1-minute load plus one over the CPUs, rounded up, 1 to 8), says so when the factor changes, passes the factor on as TEST_TIMEOUT, and refuses a bad RAMLLD_HOST_LOAD (exit 2, naming it, no results folder)
# where: host
# timeout: 120
# shellcheck disable=SC2016 # the made-up tests expand their own variables
. "$TOP/tests/lib.sh"

suite=$RESULTS/suite
rm -rf "$suite"
mkdir -p "$suite/h"
mk() { # mk FILE TIMEOUT BODY
	printf '#!/bin/bash\n# what: made-up\n# where: host\n# timeout: %s\n%s\n' "$2" "$3" > "$suite/h/$1"
}
mk 001-timeout.sh 1 'sleep 60'
mk 002-budget.sh 5 'echo "budget $TEST_TIMEOUT"'
cpus=$(nproc)

# results_dir: the folder of the last run (its "results in DIR" line)
results_dir() { sed -n 's/^tests\/run: .* results in //p' "$RESULTS/out"; }

# run LOAD: the made-up suite under that load; its output in $RESULTS/out
run() {
	local rc=0
	RAMLLD_HOST_LOAD=$1 RAMLLD_TESTS_DIR=$suite "$TOP/tests/run" > "$RESULTS/out" 2>&1 <&- || rc=$?
	cat "$RESULTS/out"
	expect_eq "exit status at load $1" 1 "$rc"
}

# an idle host: the timeouts as written, and no line about them
run 0
grep -q '^---- h/001-timeout: timed out after 1 s' "$RESULTS/out" || fail "load 0: the 1 s timeout is not 1 s"
expect_eq "TEST_TIMEOUT at load 0" "budget 5" "$(cat "$(results_dir)/h/002-budget.log")"
! grep -q 'timeouts x' "$RESULTS/out" || fail "load 0: a stretch was announced"
echo "ok: at load 0 the timeouts are as written"

# a host running twice its CPUs' worth (load 2 x CPUs - 1): every timeout x2, said once
run $((2 * cpus - 1))
grep -q "^tests/run: host load $((2 * cpus - 1)) on $cpus CPUs: timeouts x2$" "$RESULTS/out" ||
	fail "the stretch x2 is not announced"
grep -q '^---- h/001-timeout: timed out after 2 s' "$RESULTS/out" || fail "load x2: the timeout is not 2 s"
expect_eq "TEST_TIMEOUT at x2" "budget 10" "$(cat "$(results_dir)/h/002-budget.log")"
echo "ok: at twice the CPUs' load every timeout doubles, and the test sees it"

# an overloaded host: the factor stops at 8
run 1000
grep -q '^---- h/001-timeout: timed out after 8 s' "$RESULTS/out" || fail "load 1000: the stretch is not capped at 8"
echo "ok: the stretch stops at 8"

# a bad load: refused before anything starts
before=$(find "$TOP/results/check" -mindepth 1 -maxdepth 1 | wc -l)
rc=0
err=$(RAMLLD_HOST_LOAD=lots RAMLLD_TESTS_DIR=$suite "$TOP/tests/run" 2>&1 > /dev/null <&-) || rc=$?
expect_eq "exit status of RAMLLD_HOST_LOAD=lots" 2 "$rc"
expect_eq "its message" "tests/run: RAMLLD_HOST_LOAD: bad value 'lots' (allowed: a load average, e.g. 2.5)" "$err"
expect_eq "results folders made" "$before" "$(find "$TOP/results/check" -mindepth 1 -maxdepth 1 | wc -l)"
echo "ok: a bad RAMLLD_HOST_LOAD is refused, nothing made"

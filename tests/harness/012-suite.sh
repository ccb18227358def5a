#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tests/run leaves a test with a "suite:" header out by default, runs it with --suite NAME or a pattern naming it, and refuses a suite that no test has (exit 2, no results folder)
# where: host
# timeout: 120
. "$TOP/tests/lib.sh"

dir=$RESULTS/suite-tests
rm -rf "$dir"
mkdir -p "$dir/a"
# t FILE [HEADER...]: a host test that passes
t() {
	local f=$dir/a/$1
	shift
	{
		echo '#!/bin/bash'
		echo '# SPDX-License-Identifier: GPL-2.0'
		echo "# what: made-up test ${f##*/}"
		echo '# where: host'
		for h in "$@"; do echo "# $h"; done
		echo 'echo ok'
	} > "$f"
}
t 001-plain.sh
t 002-pair.sh 'suite: two-node'
t 003-pair-too.sh 'suite: two-node'

# ids LIST-OUTPUT: the test ids of tests/run --list, space-separated
ids() { awk '{ printf "%s%s", sep, $1; sep = " " }'; }
run() { RAMLLD_TESTS_DIR=$dir "$TOP/tests/run" "$@"; }

expect_eq "default selection" "a/001-plain" "$(run --list | ids)"
expect_eq "--suite two-node" "a/002-pair a/003-pair-too" "$(run --list --suite two-node | ids)"
expect_eq "--suite two-node narrowed by a pattern" "a/003-pair-too" "$(run --list --suite two-node 003 | ids)"
expect_eq "a pattern naming a suite's test" "a/002-pair" "$(run --list 002 | ids)"
expect_eq "a group's pattern" "a/001-plain a/002-pair a/003-pair-too" "$(run --list a | ids)"
expect_eq "--suite two-node, a plain test's pattern" "" "$(run --list --suite two-node 001 2> /dev/null | ids)"

before=$(find "$TOP/results/check" -mindepth 1 -maxdepth 1 2> /dev/null | wc -l)
run_rc 2 run --suite nosuch
expect_in "--suite nosuch" "no test matches: (all) in suite 'nosuch'"
expect_eq "results folders after --suite nosuch" "$before" "$(find "$TOP/results/check" -mindepth 1 -maxdepth 1 2> /dev/null | wc -l)"
run_rc 2 run --suite
expect_in "--suite without a name" "--suite needs a name"

# the suite's tests run, and only they count in the summary line
run_rc 0 run --suite two-node
expect_in "the summary of --suite two-node" "2 passed, 0 failed"

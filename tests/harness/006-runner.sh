#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tests/run -j 2 on a made-up suite (two guests at once, each test run once): pass, fail, skip, per-test timeout, a kernel WARNING, a module or a /dev file left behind fail their test, a guest panic fails its test and the rest go on in a fresh guest; ramlld left loaded with a process holding its disk, and a configfs item left, fail the test that left them, listed, and are undone: the next test loads ramlld and passes; what cannot be undone (brd held by swap) ends that guest and the next test passes in a fresh one; summary line and exit status
# where: host
# requires: qemu-system-x86_64 make cc
# timeout: 600
# shellcheck disable=SC2016 # the made-up tests expand their own variables
. "$TOP/tests/lib.sh"
. "$TOP/tests/harness/harness-lib.bash"

build_warn_module

suite=$RESULTS/suite
rm -rf "$suite"
mkdir -p "$suite/h" "$suite/g"
t() { # t FILE WHERE BODY [HEADER...]: write one test
	local f=$suite/$1 where=$2 body=$3
	shift 3
	{
		echo '#!/bin/bash'
		echo '# SPDX-License-Identifier: GPL-2.0'
		echo "# what: made-up test ${f##*/}"
		echo "# where: $where"
		for h in "$@"; do echo "# $h"; done
		echo '. "$TOP/tests/lib.sh"'
		echo "$body"
	} > "$f"
}
t h/001-pass.sh host 'expect_eq one 1 1'
t h/002-fail.sh host 'expect_eq one 1 2'
t h/003-missing.sh host 'true' 'requires: no-such-command-here'
t h/004-skip.sh host 'skip "not today"'
t h/005-timeout.sh host 'sleep 60' 'timeout: 3'
t g/001-pass.sh guest '[ -d /sys/module ] && echo "ok: in the guest, $RESULTS"; [ -w "$RESULTS" ]'
t g/002-warning.sh guest "insmod $mod/ramlld_harness_warn.ko; rmmod ramlld_harness_warn"
t g/003-leftover.sh guest 'modprobe brd rd_size=1024 rd_nr=1'
t g/004-panic.sh guest 'echo c > /proc/sysrq-trigger; sleep 30'
t g/005-after-panic.sh guest '[ ! -d /sys/module/brd ] && echo "ok: fresh guest"'
t g/006-dev-file.sh guest 'echo stray > /dev/ramlld-stray'
# leaks: ramlld loaded with its disk held open by a process, a configfs item (which holds
# ramlld too); the test after them loads ramlld itself
t g/007-leak-held.sh guest 'ramlld_load mode=bio capacity_mb=4; sleep 1000 < /dev/ramlld0 & echo "ok: /dev/ramlld0 held by $!"'
t g/008-leak-configfs.sh guest 'ramlld_load mode=bio capacity_mb=4; mkdir /sys/kernel/config/ramlld/leak'
t g/009-after-leak.sh guest 'ramlld_load mode=bio capacity_mb=4; [ -b /dev/ramlld0 ] || fail "no /dev/ramlld0"; ramlld_unload'
# what the runner cannot undo: brd held by swap (it neither swapoffs nor knows swap), so that
# guest ends and the test after it runs in a fresh one
t g/010-undoable.sh guest 'modprobe brd rd_size=8192 rd_nr=1 && mkswap /dev/ram0 > /dev/null && swapon /dev/ram0'
t g/011-after-undoable.sh guest '[ ! -d /sys/module/brd ] && ! grep -q "^/dev/ram0 " /proc/swaps && echo "ok: fresh guest"'

rc=0
# two guests at once, the host tests beside them, whatever this host's CPU count
RAMLLD_TESTS_DIR=$suite "$TOP/tests/run" -j 2 > "$RESULTS/out" 2>&1 <&- || rc=$?
cat "$RESULTS/out"
[ "$rc" -ne 0 ] || fail "tests/run exited 0 on a suite with failures"
echo "ok: tests/run exited $rc"
check() { # check REGEX WHY
	grep -qE "$1" "$RESULTS/out" || fail "$2: no line matching '$1'"
	echo "ok: $2"
}
check '^PASS h/001-pass \([0-9]+ s\)$' "a passing host test passes"
check '^FAIL h/002-fail ' "a failing host test fails"
check '^SKIP h/003-missing .*no-such-command-here' "a missing requirement skips"
check '^SKIP h/004-skip .*not today' "exit 77 skips, with the reason"
check '^FAIL h/005-timeout ' "a test past its timeout fails"
check 'timed out after (3|6|9|12|15|18|21|24) s' "the timeout (3 s, times the host-load stretch) is reported"
check '^PASS g/001-pass ' "a passing guest test passes"
check '^FAIL g/002-warning ' "a kernel WARNING fails the guest test"
check 'kernel report: WARNING' "the WARNING is named"
check '^FAIL g/003-leftover ' "a module left loaded fails the test"
check 'left module\(s\) loaded: brd' "the module left is named"
check '^FAIL g/004-panic ' "a guest panic fails the test it ran"
check '^PASS g/005-after-panic ' "the tests after a panic run in a fresh guest"
check '^FAIL g/006-dev-file ' "a regular file left in /dev fails the test"
check 'left regular file\(s\) in /dev.*/dev/ramlld-stray' "the file is named"
check '^FAIL g/007-leak-held ' "a test that leaves ramlld loaded, its disk held open, fails"
check 'g/007-leak-held: left module\(s\) loaded: ramlld; left behind: 1 item' "the leak is reported against it"
check '^ +process [0-9]+ \(sleep 1000\)$' "the process holding the disk is listed"
check '^FAIL g/008-leak-configfs ' "a test that leaves a configfs item fails"
check '^ +configfs /sys/kernel/config/ramlld/leak$' "the configfs item is listed"
check '^ +rmdir /sys/kernel/config/ramlld/leak$' "the configfs item is removed"
[ "$(grep -cE '^ +---- undone: the guest is as before g/00[78]' "$RESULTS/out")" -eq 2 ] ||
	fail "the guest was not made clean after g/007 and g/008"
echo "ok: the guest was made clean after each"
check '^PASS g/009-after-leak ' "the test after them loads ramlld itself and passes"
check '^FAIL g/010-undoable ' "a test that leaves what cannot be undone fails"
check '^ +rmmod brd failed' "the failed undo is listed"
check 'the guest could not be made clean again \(after g/010-undoable: +module brd\); the rest go on in a fresh guest' \
	"the runner says it ends that guest"
check '^PASS g/011-after-undoable ' "the test after it runs in a fresh guest and passes"
[ "$(grep -c '^FAIL g/01[01]' "$RESULTS/out")" -eq 1 ] || fail "a test other than g/010 was blamed"
echo "ok: only g/010 is blamed for the guest it left"
check '^5 passed, 9 failed, 2 skipped$' "the summary line"
check '^tests/run: 16 tests, up to 2 guests at once and the host tests beside them' "-j 2 runs two guests"
inner=$(sed -n 's/^tests\/run: 16 tests, .*; results in //p' "$RESULTS/out")
expect_eq "results recorded, one per test" 16 "$(wc -l < "$inner/results.txt")"
expect_eq "tests recorded twice" "" "$(awk '{ print $2 }' "$inner/results.txt" | sort | uniq -d)"
expect_eq "guest tests taken" 11 "$(find "$inner/.claims" -mindepth 1 -maxdepth 1 -type d | wc -l)"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tools/vm/run, tools/vm/pair and tests/run refuse a bad command line with exit 2 and one line naming the problem, before anything starts (no guest booted, no results folder made)
# where: host
# timeout: 120
. "$TOP/tests/lib.sh"

# usage_error WHAT NEEDLE CMD...: CMD exits 2, printing one line (on standard error) that says NEEDLE
usage_error() {
	local what=$1 needle=$2 rc=0 err
	shift 2
	err=$("$@" 2>&1 > /dev/null < /dev/null) || rc=$?
	[ "$rc" -eq 2 ] || fail "$what: exit $rc (expected 2): $err"
	[ "$(wc -l <<< "$err")" -eq 1 ] || fail "$what: $(wc -l <<< "$err") lines, expected one: $err"
	[[ $err == *"$needle"* ]] || fail "$what: '$err' does not say '$needle'"
	echo "ok: $what: exit 2, $err"
}

run=$TOP/tools/vm/run
usage_error "tools/vm/run --no-such" "unknown argument '--no-such'" "$run" --no-such -- true
usage_error "tools/vm/run with no command" "no command given" "$run"
usage_error "tools/vm/run --kernel with no value" "--kernel needs a value" "$run" --kernel
usage_error "tools/vm/run --accel bad" "--accel: bad value 'bad'" "$run" --accel bad -- true
usage_error "tools/vm/run --cpus 0" "--cpus: bad value '0'" "$run" --cpus 0 -- true
usage_error "tools/vm/run --topology" "--topology: bad part 'sockets=0'" "$run" --topology sockets=0 -- true
usage_error "tools/vm/run --clock bad" "--clock: bad value 'bad'" "$run" --clock bad -- true
usage_error "tools/vm/run --icount-shift 11" "--icount-shift: bad value '11'" "$run" --icount-shift 11 -- true
usage_error "tools/vm/run --qemu bad" "--qemu: bad value 'bad'" "$run" --qemu bad -- true
usage_error "tools/vm/run --clock icount --accel kvm" "--clock icount needs TCG" "$run" --clock icount --accel kvm -- true
usage_error "tools/vm/run --mem 2T" "--mem: bad value '2T'" "$run" --mem 2T -- true
usage_error "tools/vm/run --timeout x" "--timeout: bad value 'x'" "$run" --timeout x -- true
usage_error "tools/vm/run --share with a space" "--share: '/tmp/a b'" "$run" --share "/tmp/a b" -- true
[ ! -e "/tmp/a b" ] || fail "tools/vm/run made '/tmp/a b' on a refused --share"
usage_error "tools/vm/run --icount-sleep bad" "--icount-sleep: bad value 'bad'" "$run" --icount-sleep bad -- true
usage_error "tools/vm/run --link bad" "--link: bad value 'bad'" "$run" --link bad -- true
usage_error "tools/vm/run --link connect:0" "--link: bad port in 'connect:0'" "$run" --link connect:0 -- true
usage_error "tools/vm/run --link listen alone" "--link listen needs --link-port-file" "$run" --link listen -- true
usage_error "tools/vm/run --link-port-file alone" "--link-port-file is allowed with --link listen only" "$run" --link-port-file /x -- true

pair=$TOP/tools/vm/pair
usage_error "tools/vm/pair without --initiator" "--initiator CMD is missing" "$pair" --target true
usage_error "tools/vm/pair --link in run options" "'--link' in run options" "$pair" --target true --initiator true --run-args "--cpus 1 --link listen"
mkdir -p "$RESULTS/full"
touch "$RESULTS/full/x"
usage_error "tools/vm/pair --share not empty" "is not empty" "$pair" --target true --initiator true --share "$RESULTS/full"

results=$TOP/results/check
mkdir -p "$results"
touch "$RESULTS/start"
usage_error "tests/run --no-such" "unknown option '--no-such'" "$TOP/tests/run" --no-such
usage_error "tests/run --kernel with no value" "--kernel needs a value" "$TOP/tests/run" --kernel
usage_error "tests/run -j 0" "-j: bad value '0' (allowed: a whole number of guests >= 1)" "$TOP/tests/run" -j 0 harness/001
usage_error "tests/run -j with no value" "-j needs a value" "$TOP/tests/run" -j
usage_error "tests/run with no test matching" "no test matches: no-such-test-xyz" "$TOP/tests/run" no-such-test-xyz
usage_error "tests/run RAMLLD_TIMEOUT_SCALE=x" "RAMLLD_TIMEOUT_SCALE: bad value 'x'" env RAMLLD_TIMEOUT_SCALE=x "$TOP/tests/run" harness/001
expect_eq "results folders made by the refused tests/run" "" "$(find "$results" -mindepth 1 -maxdepth 1 -newer "$RESULTS/start")"

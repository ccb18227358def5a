# SPDX-License-Identifier: GPL-2.0
# tests/profile-lib.bash: helpers of the profiled guest tests (tests/profile/001, 002, 005),
# sourced after tests/lib.sh (not a test: no .sh).
# shellcheck shell=bash disable=SC2034 # plugin_so: the sourcing test's

# plugin_or_skip QEMU: build the plugin for QEMU (system or trixie) into plugin_so (its .so); skip
# the test where its header cannot be fetched (no network, not root), fail where it does not build
plugin_or_skip() {
	if ! plugin_so=$("$TOP/tools/iprofile/build" "$1" 2> "$RESULTS/build.err"); then
		cat "$RESULTS/build.err"
		grep -q "cannot fetch\|needs root" "$RESULTS/build.err" &&
			skip "no qemu-plugin.h for QEMU '$1': $(tail -n 1 "$RESULTS/build.err")"
		fail "the plugin does not build for QEMU '$1'"
	fi
}

# checks_py: python3 that defines check(what, ok, value), printing "ok:" or "FAIL:" with the
# value seen, and done(), exit 1 when a check failed: the first lines of a test's python
checks_py() {
	cat << 'PY'
import json
import sys

bad = 0


def check(what, ok, value):
    global bad
    print(("ok: " if ok else "FAIL: ") + f"{what}: {value}")
    bad += not ok


def done():
    sys.exit(1 if bad else 0)
PY
}

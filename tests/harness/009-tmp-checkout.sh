#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: a checkout under /tmp (which the guest covers with a tmpfs of its own) works: a copy of this tree there runs tests/run harness/001 (tools/vm/run's share and current directory under /tmp) and block/001 (ramlld loaded from there in a guest), both pass
# where: host
# requires: qemu-system-x86_64 git
# timeout: 900
. "$TOP/tests/lib.sh"

[ -f "$RAMLLD_KO" ] || fail "$RAMLLD_KO is not built (run make)"
copy=$(mktemp -d /tmp/ramlld-checkout.XXXXXX)
trap 'rm -rf "$copy"' EXIT
# the tracked files as they are in this tree (uncommitted changes too), and the built modules
git -C "$TOP" ls-files -z | tar -C "$TOP" --null -T - --ignore-failed-read -cf - 2> /dev/null | tar -C "$copy" -xf -
cp "$(dirname "$RAMLLD_KO")"/*.ko "$copy/drivers/"
echo "copy of $TOP (tracked files, built modules) in $copy"

rc=0
# the copy's own modules and folders, not this run's
(cd "$copy" && env -u RAMLLD_KO -u RAMLLD_TESTS_DIR tests/run harness/001 block/001) \
	> "$RESULTS/out" 2>&1 < /dev/null || rc=$?
cat "$RESULTS/out"
cp -r "$copy/results" "$RESULTS/copy-results" 2> /dev/null || true
expect_eq "tests/run harness/001 block/001 in $copy: exit status" 0 "$rc"
for l in "^tests/run: 2 tests, .*; results in $copy/results/check/" '^PASS harness/001-exit-status ' \
	'^PASS block/001-verify ' '^2 passed, 0 failed, 0 skipped$'; do
	grep -qE "$l" "$RESULTS/out" || fail "no line matching '$l'"
	echo "ok: a line matching '$l'"
done
! grep -q 'not visible in the guest' "$RESULTS/out" || fail "a path under /tmp was not visible in the guest"
echo "ok: every path under $copy was visible in the guests"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tools/lint --kernel: drivers/ is checkpatch --strict clean but for the accepted compat.h/Scsi_Host findings, and a new finding fails the gate
# where: host
# requires: perl git
# timeout: 300
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

rc=0
out=$("$TOP/tools/lint" --kernel --no-fetch 2>&1) || rc=$?
[ "$rc" != 3 ] || skip "no checkpatch.pl here (tools/lint --kernel fetches it from linux-source-6.1)"
expect_eq "tools/lint --kernel exit ($out)" 0 "$rc"
grep -q '^checkpatch --strict: [0-9]* files clean' <<< "$out" || fail "no clean line: $out"
echo "ok: $(head -n 1 <<< "$out")"

# The gate can fail: the same tree's drivers/ plus a file with a space-indented line.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tools" "$tmp/drivers"
cp "$TOP/tools/lint" "$tmp/tools/"
cp "$TOP"/drivers/*.[ch] "$tmp/drivers/"
rm -f "$tmp"/drivers/*.mod.c
printf '// SPDX-License-Identifier: GPL-2.0\nstatic int ramlld_lint_probe(void)\n{\n        return 0;\n}\n' > "$tmp/drivers/bad.c"
git -C "$tmp" init -q && git -C "$tmp" add tools drivers
rc=0
bad=$("$tmp/tools/lint" --kernel --no-fetch 2>&1) || rc=$?
expect_eq "tools/lint --kernel exit on a finding" 1 "$rc"
grep -q "^drivers/bad.c:4: ERROR:CODE_INDENT:" <<< "$bad" || fail "the finding is not named: $bad"
grep -q "^checkpatch --strict: [0-9]* findings" <<< "$bad" || fail "no findings count: $bad"
if grep -v '^drivers/bad.c:' <<< "$bad" | grep -q '^drivers/'; then
	fail "findings outside bad.c: $bad"
fi
echo "ok: drivers/bad.c's space indent fails the gate, the accepted findings stay accepted"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tools/lint --shell: every bash script of the tree is shellcheck clean, and a script with a finding fails the gate by name
# where: host
# requires: shellcheck git
# timeout: 300
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

out=$("$TOP/tools/lint" --shell 2>&1) || fail "tools/lint --shell: exit $?: $out"
n=$(sed -n 's/^shellcheck: \([0-9]*\) scripts clean$/\1/p' <<< "$out")
[ -n "$n" ] || fail "tools/lint --shell printed no count: $out"
# tests/run, tests/lib.sh, the tests themselves, tools/vm/*, compare/*: far more than 50
[ "$n" -ge 50 ] || fail "only $n scripts found by tools/lint --shell"
echo "ok: $n scripts clean"

# The gate can fail: a copy of the tool in a scratch repository with an unquoted expansion.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tools"
cp "$TOP/tools/lint" "$tmp/tools/"
# shellcheck disable=SC2016 # the $f is for the scratch script, unexpanded
printf '#!/bin/bash\nset -euo pipefail\nf=$1\ncat $f\n' > "$tmp/unquoted"
git -C "$tmp" init -q && git -C "$tmp" add tools/lint unquoted
rc=0
bad=$("$tmp/tools/lint" --shell 2>&1) || rc=$?
expect_eq "tools/lint --shell exit on a finding" 1 "$rc"
grep -q "In unquoted line 4" <<< "$bad" || fail "the finding does not name the script: $bad"
grep -q "SC2086" <<< "$bad" || fail "the finding does not name SC2086: $bad"
echo "ok: an unquoted \$f fails the gate (SC2086, unquoted line 4)"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: README.md and docs/*.md say what is: no line narrates the project's own history (work sessions, issue numbers, "until", "this row", "now", "no longer", "used to", a commit as a before/after mark), each such line failing by file:line, and the check fails on a scratch doc holding each form; docs/*.md together stay within 3,500 lines
# where: host
# requires: grep
# timeout: 60
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

# The words the history narration uses (grep -E, case-insensitive); history goes in commit messages.
patterns=(
	'\bsessions? [0-9]+'
	'\bissues? [0-9]+'
	'\b(work )?periods? [0-9]+'
	'\bthis (row|change|commit|fix|session)\b'
	'\b(now|no longer|used to|formerly|previously|as before|any more)\b'
	'\buntil (session|issue|commit|this|now|the fix|[0-9a-f]{7})'
	'\b(since|before|after|until|from|at) (commit |tree )?[0-9a-f]{7,12}\b'
	'\bgit show\b'
	'\b(earlier|previous|last|old) (session|version|run|report|figure|rule)s?\b'
	'\b(was|were) (fixed|added|removed|changed|renamed|dropped|rewritten|measured before)\b'
)
# hits FILE...: file:line: text of each line matching a pattern
hits() {
	local p
	for p in "${patterns[@]}"; do
		grep -HniE -- "$p" "$@" || true
	done | sort -t: -k1,1 -k2,2n -u
}

cd "$TOP"
found=$(hits README.md docs/*.md)
if [ -n "$found" ]; then
	echo "$found" | cut -c1-200
	fail "$(wc -l <<< "$found") doc line(s) narrate the project's history (above, file:line): say what is; history goes in commit messages"
fi
echo "ok: README.md and $(find docs -maxdepth 1 -name '*.md' | wc -l) docs narrate no history"
# docs for users, not a notebook: the whole of docs/*.md within 3,500 lines
total=$(cat docs/*.md | wc -l)
[ "$total" -le 3500 ] || fail "docs/*.md hold $total lines, over 3,500: $(wc -l docs/*.md | sort -rn | sed -n 2,4p | tr -s ' ' | tr '\n' ';')"
echo "ok: docs/*.md hold $total lines (at most 3,500)"

# The check can fail: each form in a scratch doc is named by its line.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/scratch.md" << 'EOF'
The bound is the spread of the runs.
Session 12 measured it.
Until issue 41 this row said 2x.
The report now gives the interval.
The floor was 0.05 % before 3df7b3a.
An earlier version of the rule said "changed since".
EOF
found=$(hits "$tmp/scratch.md")
expect_eq "the scratch doc's narrating lines" "2 3 4 5 6" "$(cut -d: -f2 <<< "$found" | tr '\n' ' ' | sed 's/ $//')"
echo "ok: the check names each narrating line of a scratch doc"

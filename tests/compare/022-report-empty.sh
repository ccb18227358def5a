#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/run --report on a folder without cells (empty, or only a meta.env) exits 2 with one line naming the runs it lacks, and writes no report into it
# where: host
# requires: python3
. "$TOP/tests/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/empty" "$dir/meta-only"
echo "clock=icount" > "$dir/meta-only/meta.env"
for d in "$dir/empty" "$dir/meta-only"; do
	rc=0
	msg=$("$TOP/compare/run" --report "$d" 2>&1) || rc=$?
	expect_eq "compare/run --report ${d##*/}'s exit status" 2 "$rc"
	expect_eq "its message" "report.py: '$d' has no cells: no raw/TARGET/PROFILE/WORKLOAD/SECTION/rN.json nor two-node/, iprofile/ or percpu/ in it (give a folder a compare/run run wrote)" "$msg"
	[ ! -e "$d/report.md" ] || fail "a report.md written into ${d##*/}"
done

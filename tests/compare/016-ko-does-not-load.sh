#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/guest-run stops at once (status 3, the reason in notes.tsv, no fio run) when ramlld.ko does not load and a selected target needs it, and does not check ramlld when no target needs it
# where: guest
# requires: fio python3
# timeout: 300
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

dir=$RESULTS/ko-does-not-load
rm -rf "$dir"
mkdir -p "$dir/ko"
# a file named like the module that is not one: insmod refuses it
echo "not a module" > "$dir/ko/ramlld.ko"
rc=0
"$TOP/compare/guest-run" --out "$dir/out" --level quick --targets ramlld-bio,brd --only qd32/randread-4k-qd32 \
	--profiles default --repeats 1 --runtime 1 --nluns 1 --capacity-mb 16 --no-breakdown --no-knobs \
	--ko "$dir/ko/ramlld.ko" > "$dir/run.log" 2>&1 || rc=$?
cat "$dir/run.log"
expect_eq "guest-run's status when ramlld does not load" 3 "$rc"
reason=$(awk -F'\t' '$1 == "fail" && $2 == "ramlld" { print $3 }' "$dir/out/notes.tsv")
case $reason in
"$dir/ko/ramlld.ko does not load in $(uname -r): "*"insmod: ERROR: could not insert module"*) ;;
*) fail "notes.tsv does not give insmod's reason: '$reason'" ;;
esac
echo "ok: the reason: $reason"
grep -q "stopping: ramlld does not load here" "$dir/run.log" || fail "guest-run does not say that it stops"
[ -z "$(find "$dir/out/raw" -name 'r*.json' 2> /dev/null)" ] || fail "fio ran after ramlld did not load"
[ ! -e /sys/module/ramlld ] || fail "ramlld is loaded"
echo "ok: stopped before the first target, nothing measured"

# brd alone needs no ramlld: the same bad module is no matter
"$TOP/compare/guest-run" --out "$dir/out2" --level quick --targets brd --only qd32/randread-4k-qd32 \
	--profiles default --repeats 1 --runtime 1 --nluns 1 --capacity-mb 16 --no-breakdown --no-knobs \
	--ko "$dir/ko/ramlld.ko" > "$dir/run2.log" 2>&1 || { cat "$dir/run2.log"; fail "guest-run --targets brd failed"; }
[ -s "$dir/out2/raw/brd/default/qd32/randread-4k-qd32/r1.json" ] || fail "brd's run did not happen"
echo "ok: a run that loads no ramlld does not check it"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/ab --ab-patch on a fake build and a fake measurement: the patched copy, the per-path table and verdicts, the bound, ab.csv, the function table, the work copy back at base, and the refusals
# where: host
# requires: python3 patch
. "$TOP/tests/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export RAMLLD_CACHE=$dir/cache
# The fake build (tests/compare/ab-fake-build) keeps the tree's cost file; the fake measurement
# (tests/compare/ab-fake-measure) reads it from the kernel, not the tree. run2 of a kernel reads 2
# instructions more a cell: the spread.
export RAMLLD_AB_BUILD=$TOP/tests/compare/ab-fake-build RAMLLD_AB_MEASURE=$TOP/tests/compare/ab-fake-measure
mkdir -p "$dir/src"
echo 'all:' > "$dir/src/Makefile"
# scsi_queue_rq: 10 % of 10,000 on sd; the patch adds 1,000 instructions there (1,000 + 1,000
# of 11,000 = 18.18 %)
printf 'ramlld-sd io_uring 10000 10.00\nramlld-mq io_uring 7000 0\nbrd io_uring 6000 0\n' > "$dir/src/cost"
cp -a "$dir/src" "$dir/src.new"
sed -i 's/^ramlld-sd io_uring 10000 10.00$/ramlld-sd io_uring 11000 18.18/' "$dir/src.new/cost"
(cd "$dir" && diff -ruN src src.new > cost.patch) && fail "the test's patch is empty"

out=$dir/out
"$TOP/compare/ab" --ab-patch "$dir/cost.patch" --source "$dir/src" --out "$out" > "$dir/log" 2>&1 ||
	fail "compare/ab failed: $(tail -n 5 "$dir/log")"
[ "$(wc -l < "$RAMLLD_CACHE/builds")" = 2 ] || fail "two builds expected: $(cat "$RAMLLD_CACHE/builds")"
# ab.csv: the mean of the two runs, the bound = both spreads (2 + 2), at least 0.2 % of base
# (sd 20.0, mq 14.0, brd 12.0: the floor, above the spreads' 4)
expect="target,workload,base,changed,bound
ramlld-sd,io_uring,10001.0,11001.0,20.0
ramlld-mq,io_uring,7001.0,7001.0,14.0
brd,io_uring,6001.0,6001.0,12.0"
[ "$(cat "$out/ab.csv")" = "$expect" ] || fail "ab.csv: $(cat "$out/ab.csv")"
grep -qF '| ramlld-sd | io_uring | 10,001 | 11,001 | +1,000 | +10.00 % | 2 (2) | 2 (2) | 20 | **changed** |' "$out/ab.md" ||
	fail "the sd row of ab.md: $(grep ramlld-sd "$out/ab.md" | head -n 1)"
grep -qF '| ramlld-mq | io_uring | 7,001 | 7,001 | +0 | +0.00 % | 2 (2) | 2 (2) | 14 | **unchanged** |' "$out/ab.md" ||
	fail "the mq row of ab.md: $(grep ramlld-mq "$out/ab.md" | head -n 1)"
# the function table: scsi_queue_rq 1,000 -> 2,000 on sd (run1: 10,000 x 10 % and 11,000 x 18.18 %);
# fio's own code moved by less than its sampling error, and mq shows no function at all
grep -qF '| scsi_queue_rq | 1,000 | 2,000 | +1,000 |' "$out/ab.md" || fail "no scsi_queue_rq row: $(sed -n '/Functions/,$p' "$out/ab.md")"
grep -q 'td_io_queue' "$out/ab.md" && fail "td_io_queue moved within its error but is listed"
sed -n '/### ramlld-mq/,/###/p' "$out/ab.md" | grep -q 'No function moved' || fail "mq's function table is not empty"
grep -q "^source=.*cost.patch (patch -p1, sha256 " "$out/changed/kernel.env" || fail "changed/kernel.env names no patch: $(cat "$out/changed/kernel.env")"
# the work copy is back at base; the source itself was never touched
w=$(find "$RAMLLD_CACHE/ab/src" -mindepth 1 -maxdepth 1 -type d)
grep -q '^ramlld-sd io_uring 10000 ' "$w/cost" || fail "the work copy was left patched: $(cat "$w/cost")"
[ ! -e "$w/.ramlld-ab.patch" ] || fail "the work copy still records a patch"
grep -q '^ramlld-sd io_uring 10000 ' "$dir/src/cost" || fail "the source tree was changed"
# --build-only: both kernels (cached by the fake's key), nothing measured, the copy back at base
: > "$RAMLLD_CACHE/builds"
"$TOP/compare/ab" --ab-patch "$dir/cost.patch" --source "$dir/src" --build-only --out "$dir/bo" > "$dir/log" 2>&1 ||
	fail "--build-only failed: $(tail -n 3 "$dir/log")"
[ "$(wc -l < "$RAMLLD_CACHE/builds")" = 2 ] || fail "--build-only: two builds expected: $(cat "$RAMLLD_CACHE/builds")"
[ ! -e "$dir/bo/base/run1" ] || fail "--build-only measured"
grep -q "both kernels built" "$dir/log" || fail "--build-only: $(cat "$dir/log")"
# --report rewrites the same report from the recorded runs
cp "$out/ab.md" "$dir/ab.md.1"
"$TOP/compare/ab" --report "$out" > /dev/null || fail "--report failed"
cmp -s "$out/ab.md" "$dir/ab.md.1" || fail "--report gave another ab.md"

# the floor: brd's changed runs 10 more (0.17 % of base, less than a cell moves between guest
# boots) stay within the bound of 0.2 % (12.0; both spreads alone: 4), 13 more do not
sed -i 's/^brd\tio_uring\t6000\t/brd\tio_uring\t6010\t/' "$out/changed/run1/cells.tsv"
sed -i 's/^brd\tio_uring\t6002\t/brd\tio_uring\t6012\t/' "$out/changed/run2/cells.tsv"
python3 "$TOP/compare/ab-report.py" --quiet "$out" || fail "ab-report.py failed on brd +10"
grep -qF '| brd | io_uring | 6,001 | 6,011 | +10 | +0.17 % | 2 (2) | 2 (2) | 12 | **unchanged** |' "$out/ab.md" ||
	fail "brd +10 within the floor: $(grep brd "$out/ab.md" | head -n 1)"
sed -i 's/^brd\tio_uring\t6010\t/brd\tio_uring\t6013\t/' "$out/changed/run1/cells.tsv"
sed -i 's/^brd\tio_uring\t6012\t/brd\tio_uring\t6015\t/' "$out/changed/run2/cells.tsv"
python3 "$TOP/compare/ab-report.py" --quiet "$out" || fail "ab-report.py failed on brd +13"
grep -qF '| brd | io_uring | 6,001 | 6,014 | +13 | +0.22 % | 2 (2) | 2 (2) | 12 | **changed** |' "$out/ab.md" ||
	fail "brd +13 beyond the floor: $(grep brd "$out/ab.md" | head -n 1)"
# a kernel whose runs disagree by more than 0.5 % decides nothing
sed -i 's/^ramlld-mq\tio_uring\t7002\t/ramlld-mq\tio_uring\t7100\t/' "$out/base/run2/cells.tsv"
python3 "$TOP/compare/ab-report.py" --quiet "$out" || fail "ab-report.py failed on disagreeing runs"
grep -qF '| ramlld-mq | io_uring | 7,050 | 7,001 | -49 | -0.70 % | 100 (2) | 2 (2) | 102 | **runs disagree** |' "$out/ab.md" ||
	fail "disagreeing runs: $(grep ramlld-mq "$out/ab.md" | head -n 1)"
# a cell that one kernel lacks is named, not dropped
rm "$out/changed/run2/cells.tsv"
sed -i '/^brd/d' "$out/changed/run1/cells.tsv"
python3 "$TOP/compare/ab-report.py" --quiet "$out" || fail "ab-report.py failed on a missing cell"
grep -qF '| brd | io_uring | | | | | | | | no changed figure |' "$out/ab.md" || fail "the missing brd cell: $(grep brd "$out/ab.md")"

# refusals: exit 2, one line naming the problem, nothing built
: > "$RAMLLD_CACHE/builds"
expect_fail() { # STATUS TEXT ARGS...: compare/ab ARGS exits STATUS and says TEXT
	local want=$1 text=$2 rc=0
	shift 2
	"$TOP/compare/ab" "$@" > "$dir/err" 2>&1 || rc=$?
	[ "$rc" = "$want" ] || fail "compare/ab $*: exit $rc, not $want: $(cat "$dir/err")"
	grep -qF -- "$text" "$dir/err" || fail "compare/ab $*: no '$text' in: $(cat "$dir/err")"
}
expect_fail 2 "nothing to compare" --out "$dir/x"
expect_fail 2 "--ab-patch: no file '$dir/none.patch'" --ab-patch "$dir/none.patch" --source "$dir/src"
expect_fail 2 "unknown argument '--frobnicate'" --frobnicate
expect_fail 2 "--runs: bad value '0'" --ab-patch "$dir/cost.patch" --source "$dir/src" --runs 0
expect_fail 2 "--cpus: bad value '0' (allowed: 1-8)" --ab-patch "$dir/cost.patch" --source "$dir/src" --cpus 0
expect_fail 2 "--cpus: bad value '9' (allowed: 1-8)" --ab-patch "$dir/cost.patch" --source "$dir/src" --cpus 9
expect_fail 2 "--source: '$dir' is not a kernel source tree" --ab-patch "$dir/cost.patch" --source "$dir"
expect_fail 2 "--ab-patch does not go with --git" --ab-patch "$dir/cost.patch" --git "$dir/src"
expect_fail 2 "--rows: bad regular expression" --ab-patch "$dir/cost.patch" --source "$dir/src" --rows '(('
expect_fail 2 "--trees: BASE and CHANGED are the same folder" --trees "$dir/src" "$dir/src/"
expect_fail 2 "--source: '$dir/src' has no kernel version" --ab-patch "$dir/cost.patch" --source "$dir/src" --kernel bookworm
expect_fail 2 "--build-only goes with --ab-patch" --trees "$dir/src" "$dir/src.new" --build-only
expect_fail 2 "--kernel: unknown kernel 'nosuch'" --ab-patch "$dir/cost.patch" --kernel nosuch
expect_fail 2 "--base/--changed/--bisect need --git REPO" --bisect a b --path ramlld-sd/io_uring --threshold 10
# compare/run hands --ab, --ab-patch and --bisect to compare/ab (--ab itself dropped)
rc=0
"$TOP/compare/run" --ab > "$dir/err" 2>&1 || rc=$?
expect_eq "compare/run --ab alone: exit status" 2 "$rc"
grep -qF "compare/ab: nothing to compare" "$dir/err" || fail "compare/run --ab: $(cat "$dir/err")"
"$TOP/compare/run" --ab --ab-patch "$dir/cost.patch" --source "$dir/src" --plan > "$dir/plan" 2>&1 ||
	fail "compare/run --ab --plan: $(cat "$dir/plan")"
grep -qF "changed: $dir/src + $dir/cost.patch (patch -p1)" "$dir/plan" || fail "compare/run --ab --plan: $(cat "$dir/plan")"
grep -qF "exact clock, 1 vCPU" "$dir/plan" || fail "the plan names no vCPU count: $(cat "$dir/plan")"
"$TOP/compare/ab" --ab-patch "$dir/cost.patch" --source "$dir/src" --cpus 2 --plan > "$dir/plan" 2>&1 ||
	fail "compare/ab --cpus 2 --plan: $(cat "$dir/plan")"
grep -qF "exact clock, 2 vCPUs" "$dir/plan" || fail "--cpus 2: the plan says $(cat "$dir/plan")"
[ ! -s "$RAMLLD_CACHE/builds" ] || fail "a refused run built: $(cat "$RAMLLD_CACHE/builds")"
# a patch that does not apply: exit 1 after base, and the work copy is left at base
sed 's/^-ramlld-sd io_uring 10000 10.00$/-ramlld-sd io_uring 12345 10.00/' "$dir/cost.patch" > "$dir/bad.patch"
expect_fail 1 "does not apply" --ab-patch "$dir/bad.patch" --source "$dir/src" --out "$dir/bad"
grep -q '^ramlld-sd io_uring 10000 ' "$w/cost" || fail "a failed patch changed the work copy"
[ ! -e "$w/.ramlld-ab.patch" ] || fail "a failed patch is recorded in the work copy"
# --cpus 2 reaches ab.env and the report's clock line
"$TOP/compare/ab" --ab-patch "$dir/cost.patch" --source "$dir/src" --cpus 2 --out "$dir/c2" > "$dir/log" 2>&1 ||
	fail "compare/ab --cpus 2 failed: $(tail -n 5 "$dir/log")"
grep -qx 'cpus=2' "$dir/c2/ab.env" || fail "--cpus 2: ab.env says $(grep cpus "$dir/c2/ab.env")"
grep -qF '2 vCPUs (a fio job pinned to each, IOPS summed)' "$dir/c2/ab.md" || fail "--cpus 2: ab.md's clock line: $(grep clock: "$dir/c2/ab.md")"
# and no perf profile: a vCPU's cpu-clock samples guest time there, not its instructions
grep -qF 'no perf profile' "$dir/log" || fail "--cpus 2 does not say it drops perf: $(cat "$dir/log")"
[ -z "$(find "$dir/c2" -path '*/perf/*' -type f)" ] || fail "--cpus 2 profiled: $(find "$dir/c2" -path '*/perf/*' -type f)"
grep -qF 'its samples are not its instructions' "$dir/c2/ab.md" || fail "--cpus 2: ab.md does not say why it has no function table"
# --targets: those targets' rows only (mq's left out), and through compare/run as the issue's
# command line has it; refusals name the bad value
"$TOP/compare/run" --ab-patch "$dir/cost.patch" --source "$dir/src" --targets ramlld-sd,brd --out "$dir/tg" > "$dir/log" 2>&1 ||
	fail "compare/run --ab-patch --targets failed: $(tail -n 5 "$dir/log")"
expect_eq "--targets ramlld-sd,brd: ab.csv's targets" "ramlld-sd brd" "$(awk -F, 'NR > 1 { printf "%s%s", s, $1; s = " " }' "$dir/tg/ab.csv")"
# the name compare/run took before the targets had one each: mapped, said once
"$TOP/compare/ab" --ab-patch "$dir/cost.patch" --source "$dir/src" --targets ramlld-scsi,brd --plan > "$dir/plan" 2> "$dir/err" ||
	fail "--targets ramlld-scsi,brd --plan failed: $(cat "$dir/err")"
expect_eq "--targets ramlld-scsi: stderr" "compare/ab: --targets: 'ramlld-scsi' is target 'ramlld-sd'" "$(cat "$dir/err")"
grep -qF 'cells: the ledger rows matching ^(ramlld-sd|brd)/(io_uring|hipri-all|io_uring-qd1)$;' "$dir/plan" ||
	fail "--targets ramlld-scsi,brd: the plan's cells: $(grep cells: "$dir/plan")"
expect_fail 2 "--targets: bad target 'ramlld'" --ab-patch "$dir/cost.patch" --source "$dir/src" --targets ramlld-sd,ramlld
expect_fail 2 "--targets and --rows exclude each other" --ab-patch "$dir/cost.patch" --source "$dir/src" --targets brd --rows brd
echo "ok: compare/ab --ab-patch: table, bound, verdicts, ab.csv, function table, work copy at base, refusals"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: the storage stacks as ledger and A/B rows, on a fake build and measurement: bad --stacks refused by compare/ab, compare/run --ledger and compare/ledger-guest in the same words with exit 2 and nothing run; the plan's stack rows; stack rows (dashed names, an absent stack) through ab.csv, the per-path and function tables; a stack's --path brings its stack to the bisect
# where: host
# requires: python3 patch git
. "$TOP/tests/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/src" "$dir/cache"
echo 'all:' > "$dir/src/Makefile"
export RAMLLD_CACHE=$dir/cache
# The fake build and measurement (tests/compare/ab-fake-*): the cost file's cells that the rows
# select, a stack's when the stacks name it; nvme-loop's rows absent (as on Debian's 6.1); run2
# reads 2 instructions more a cell.
export RAMLLD_AB_BUILD=$TOP/tests/compare/ab-fake-build RAMLLD_AB_MEASURE=$TOP/tests/compare/ab-fake-measure
# the patch adds 1,000 instructions to scsi_queue_rq: sd and lio-iblock (SCSI) move, nvme-tcp not
cat > "$dir/src/cost" << 'END'
ramlld-sd io_uring 10000 10.00
lio-iblock io_uring 20000 5.00
lio-iblock io_uring-qd1 30000 4.00
nvme-tcp io_uring 40000 0
nvme-tcp io_uring-qd1 50000 0
nvme-loop io_uring absent 0
nvme-loop io_uring-qd1 absent 0
iscsi io_uring 60000 2.00
END
cp -a "$dir/src" "$dir/src.new"
sed -i -e 's/^ramlld-sd io_uring 10000 10.00$/ramlld-sd io_uring 11000 18.18/' \
	-e 's/^lio-iblock io_uring 20000 5.00$/lio-iblock io_uring 21000 9.524/' "$dir/src.new/cost"
(cd "$dir" && diff -ruN src src.new > cost.patch) && fail "the test's patch is empty"

# refusals: exit 2 naming the bad stack and the allowed ones, nothing built, booted or written
expect_fail() { # TEXT CMD ARGS...: CMD ARGS exits 2 and says TEXT
	local text=$1 rc=0
	shift
	"$@" > "$dir/err" 2>&1 || rc=$?
	[ "$rc" = 2 ] || fail "$*: exit $rc, not 2: $(cat "$dir/err")"
	grep -qF -- "$text" "$dir/err" || fail "$*: no '$text' in: $(cat "$dir/err")"
}
allowed="allowed: a comma list of lio-iblock iscsi srp nvme-tcp nvme-rdma nvme-loop, or all"
expect_fail "--stacks: bad stack 'nvme-foo' ($allowed)" \
	"$TOP/compare/ab" --ab-patch "$dir/cost.patch" --source "$dir/src" --stacks iscsi,nvme-foo --out "$dir/bad"
expect_fail "--stacks: no stack named" "$TOP/compare/ab" --ab-patch "$dir/cost.patch" --source "$dir/src" --stacks , --out "$dir/bad"
expect_fail "--stacks: bad stack 'lio-rd'" "$TOP/compare/ab" --ab-patch "$dir/cost.patch" --source "$dir/src" --stacks lio-rd --plan
[ ! -e "$RAMLLD_CACHE/builds" ] || [ ! -s "$RAMLLD_CACHE/builds" ] || fail "a refused compare/ab built: $(cat "$RAMLLD_CACHE/builds")"
[ ! -e "$dir/bad" ] || fail "a refused compare/ab wrote $dir/bad"
expect_fail "--ledger-stacks: bad stack 'iscsi-target' ($allowed)" \
	"$TOP/compare/run" --ledger --no-build --ledger-stacks nvme-tcp,iscsi-target --out "$dir/bad"
expect_fail "--ledger-stacks: no stack named ($allowed)" \
	"$TOP/compare/run" --ledger --no-build --ledger-stacks , --out "$dir/bad"
expect_fail "--ledger-stacks LIST goes with --ledger" "$TOP/compare/run" --no-build --ledger-stacks iscsi --out "$dir/bad"
[ ! -e "$dir/bad" ] || fail "a refused compare/run wrote $dir/bad"
expect_fail "--stacks: bad stack 'ublk' ($allowed)" \
	"$TOP/compare/ledger-guest" --out "$dir/bad" --ko none --stacks ublk --top "$TOP"
expect_fail "--stacks: no stack named ($allowed)" \
	"$TOP/compare/ledger-guest" --out "$dir/bad" --ko none --stacks , --top "$TOP"
expect_fail "--top: '$dir' has no tools/devices and tools/stack" \
	"$TOP/compare/ledger-guest" --out "$dir/bad" --ko none --stacks iscsi --top "$dir"
[ ! -e "$dir/bad" ] || fail "a refused compare/ledger-guest wrote $dir/bad"
expect_eq "ledger-guest --list-stacks" "lio-iblock iscsi srp nvme-tcp nvme-rdma nvme-loop" \
	"$("$TOP/compare/ledger-guest" --list-stacks)"

# the plan: the stack rows, added to the rows --rows selects
"$TOP/compare/ab" --ab-patch "$dir/cost.patch" --source "$dir/src" --rows '^ramlld-sd/io_uring$' \
	--stacks all --plan > "$dir/plan" 2>&1 || fail "--plan with --stacks: $(cat "$dir/plan")"
grep -qF 'cells: the ledger rows matching ^ramlld-sd/io_uring$|^(lio-iblock|iscsi|srp|nvme-tcp|nvme-rdma|nvme-loop)/(io_uring|io_uring-qd1)$;' "$dir/plan" ||
	fail "the plan's cells: $(cat "$dir/plan")"
for s in lio-iblock iscsi srp nvme-tcp nvme-rdma nvme-loop; do
	grep -qxF "stack rows: $s/io_uring $s/io_uring-qd1" "$dir/plan" || fail "the plan has no $s rows: $(cat "$dir/plan")"
done
[ ! -s "$RAMLLD_CACHE/builds" ] || fail "--plan built"

# an A/B with three stacks: the measurement gets the list, the report the stack rows
out=$dir/out
"$TOP/compare/ab" --ab-patch "$dir/cost.patch" --source "$dir/src" --rows '^ramlld-sd/io_uring$' \
	--stacks nvme-tcp,lio-iblock,nvme-loop --out "$out" > "$dir/log" 2>&1 || fail "compare/ab --stacks: $(tail -n 5 "$dir/log")"
expect_eq "the measurements' stacks" 4 "$(grep -c ' stacks=nvme-tcp,lio-iblock,nvme-loop$' "$RAMLLD_CACHE/measures")"
grep -q '^stacks=nvme-tcp,lio-iblock,nvme-loop ' "$out/ab.env" || fail "ab.env names no stacks: $(cat "$out/ab.env")"
# the report's command is the one given, --rows and --stacks as typed
grep -qF "Command: \`compare/ab --ab-patch $dir/cost.patch --source $dir/src --rows '^ramlld-sd/io_uring\$' --stacks nvme-tcp,lio-iblock,nvme-loop --out $out\`" "$out/ab.md" ||
	fail "the report's command: $(grep Command "$out/ab.md")"
# iscsi's cell is in the cost file but not asked for: not measured
expect="target,workload,base,changed,bound
ramlld-sd,io_uring,10001.0,11001.0,20.0
lio-iblock,io_uring,20001.0,21001.0,40.0
lio-iblock,io_uring-qd1,30001.0,30001.0,60.0
nvme-tcp,io_uring,40001.0,40001.0,80.0
nvme-tcp,io_uring-qd1,50001.0,50001.0,100.0"
[ "$(cat "$out/ab.csv")" = "$expect" ] || fail "ab.csv: $(cat "$out/ab.csv")"
for line in '| lio-iblock | io_uring | 20,001 | 21,001 | +1,000 | +5.00 % | 2 (2) | 2 (2) | 40 | **changed** |' \
	'| nvme-tcp | io_uring-qd1 | 50,001 | 50,001 | +0 | +0.00 % | 2 (2) | 2 (2) | 100 | **unchanged** |' \
	'| nvme-loop | io_uring | | | | | | | | no figure: absent on both |' \
	'| nvme-loop | io_uring-qd1 | | | | | | | | no figure: absent on both |'; do
	grep -qF "$line" "$out/ab.md" || fail "no '$line' in ab.md: $(grep -E 'lio|nvme' "$out/ab.md")"
done
# the function table of a dashed target: scsi_queue_rq 1,000 -> 2,000 (run1: 5 % of 20,001, 9.524 % of 21,001)
sed -n '/^### lio-iblock io_uring /,/^###/p' "$out/ab.md" | grep -qF '| scsi_queue_rq | 1,000 | 2,000 | +1,000 |' ||
	fail "lio-iblock's function table: $(sed -n '/^### lio-iblock/,$p' "$out/ab.md")"
grep -q '^### nvme-tcp io_uring (Δ +0, unchanged)' "$out/ab.md" || fail "no nvme-tcp function section"

# a bisect over a stack's row brings that stack up (the plan says it)
repo=$dir/repo
mkdir -p "$repo"
git -C "$repo" init -q
git -C "$repo" config user.email test@example.org
git -C "$repo" config user.name test
for c in c1 c2; do
	echo "$c" >> "$repo/log"
	git -C "$repo" add -A
	git -C "$repo" commit -q -m "$c"
done
"$TOP/compare/ab" --bisect HEAD~1 HEAD --git "$repo" --path iscsi/io_uring --threshold 100 --plan > "$dir/plan" 2>&1 ||
	fail "--bisect --plan: $(cat "$dir/plan")"
grep -qxF "stack rows: iscsi/io_uring iscsi/io_uring-qd1" "$dir/plan" || fail "the bisect of iscsi/io_uring has no iscsi: $(cat "$dir/plan")"
echo "ok: --stacks refused with exit 2 on three tools; the plan's stack rows; stack rows through ab.csv, ab.md and its function table; a stack bisect path"

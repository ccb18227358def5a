#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/diff on made-up results folders: two folders of the same cells on the exact clock within their bounds print no cell beyond them (exit 0); a folder with one cell moved by 3 % names that cell and only it (exit 1), and the cells only one folder has; a missing folder and a folder without cells exit 2 with one line naming what is missing
# where: host
# requires: python3
. "$TOP/tests/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# FOLDER CELL=IOPS1,IOPS2 ...: a results folder on the exact clock, each cell's runs as fio JSON
mkfolder() {
	python3 - "$@" << 'EOF'
import json, os, sys
root = sys.argv[1]
os.makedirs(root, exist_ok=True)
open(os.path.join(root, "meta.env"), "w").write("clock=icount\nicount_shift=0\ncpus=1\n")
for arg in sys.argv[2:]:
    cell, runs = arg.split("=")
    d = os.path.join(root, "raw", cell)
    os.makedirs(d, exist_ok=True)
    for i, iops in enumerate(runs.split(","), 1):
        iops = float(iops)
        rw = {"total_ios": int(iops), "iops": iops, "bw_bytes": iops * 4096,
              "lat_ns": {"N": int(iops), "mean": 1e9 / iops}}
        zero = {"total_ios": 0, "iops": 0.0, "bw_bytes": 0, "lat_ns": {}}
        job = {"read": rw, "write": zero, "usr_cpu": 10.0, "sys_cpu": 80.0, "job_runtime": 1000}
        json.dump({"jobs": [job]}, open(os.path.join(d, f"r{i}.json"), "w"))
EOF
}
bio=ramlld-bio/default/qd32/randread-4k-qd32
scsi=ramlld-sd/default/qd32/randread-4k-qd32
brd=brd/default/qd32/randread-4k-qd32
# A: runs 0.02-0.05 % apart; B: the same cells, each figure within 0.1 % of A's (under the
# 0.2 % floor); C: ramlld-sd 3 % faster, brd not run, null_blk only there
mkfolder "$dir/a" "$bio=120000,120060" "$scsi=52000,52010" "$brd=150000,150030"
mkfolder "$dir/b" "$bio=120100,120080" "$scsi=52030,52020" "$brd=149900,149950"
mkfolder "$dir/c" "$bio=120010,120050" "$scsi=53560,53570" "nullb/default/qd32/randread-4k-qd32=200000,200020"

rc=0
out=$("$TOP/compare/diff" "$dir/a" "$dir/b") || rc=$?
echo "$out"
expect_eq "compare/diff A B's exit status" 0 "$rc"
grep -qF "3 common cells, 0 moved beyond both bounds" <<< "$out" || fail "A B: not 3 cells within bounds"
grep -qF "figure: instr_per_io" <<< "$out" || fail "A B: the exact clock's figure is not instructions per I/O"
! grep -q "only in" <<< "$out" || fail "A B: a cell listed as only in one folder"
# ramlld-bio's instructions per I/O: 10^9 / 120,030 = 8,331 in A
grep -qF "| ramlld-bio [default] qd32/randread-4k-qd32 | 8,331 | 8,327 | −4 | -0.05 % | 17 | 17 | within |" <<< "$out" || fail "A B: ramlld-bio's figure in A is not 8,331"

rc=0
out=$("$TOP/compare/diff" "$dir/a" "$dir/c") || rc=$?
echo "$out"
expect_eq "compare/diff A C's exit status" 1 "$rc"
grep -qF "2 common cells, 1 moved beyond both bounds: ramlld-sd [default] qd32/randread-4k-qd32" <<< "$out" ||
	fail "A C: ramlld-sd is not the one cell named as moved"
grep -qF "only in A (1): brd [default] qd32/randread-4k-qd32" <<< "$out" || fail "A C: brd not listed as only in A"
grep -qF "only in B (1): nullb [default] qd32/randread-4k-qd32" <<< "$out" || fail "A C: nullb not listed as only in B"
# ramlld-sd: 19,229 -> 18,669 instructions per I/O (-2.91 %)
grep -qF "| ramlld-sd [default] qd32/randread-4k-qd32 | 19,229 | 18,669 | −560 | -2.91 % |" <<< "$out" ||
	fail "A C: ramlld-sd's row is not 19,229 -> 18,669"

check_refused() { # WANT CMD...: CMD must exit 2 and print one line holding WANT
	local want=$1 msg rc=0
	shift
	msg=$("$@" 2>&1) || rc=$?
	expect_eq "$*'s exit status" 2 "$rc"
	grep -qF -- "$want" <<< "$msg" || fail "$*: message lacks '$want': $msg"
	expect_eq "$*'s message lines" 1 "$(wc -l <<< "$msg")"
	echo "ok: $* -> $msg"
}
mkdir "$dir/empty"
check_refused "no results folder '$dir/nosuch'" "$TOP/compare/diff" "$dir/a" "$dir/nosuch"
check_refused "'$dir/empty' has no cells: no raw/TARGET/PROFILE/WORKLOAD/SECTION/rN.json" \
	"$TOP/compare/diff" "$dir/empty" "$dir/a"
check_refused "--metric: bad value 'speed' (allowed: iops" "$TOP/compare/diff" --metric speed "$dir/a" "$dir/b"
"$TOP/compare/diff" --help | grep -q "^usage: compare/diff" || fail "compare/diff --help"
echo "ok: compare/diff"

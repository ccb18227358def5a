#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: the cost ladder's two-node column, seed 003's two-node answer and seed 002's grid over two nodes are a pure function of a recorded compare/two-node folder: each side's instructions per I/O (busy time over its own I/Os, checked against awk's sums over the same timer_list copies), their spread over the runs, each side's split by layer from the perf pass; a side with two CPUs reads each CPU from the copy made on it; compare/run --two-node refuses a stack without halves
# where: host
# requires: python3
. "$TOP/tests/lib.sh"

fixture=$TOP/tests/compare/fixtures/two-node
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp -r "$fixture" "$dir/run"
tn=$dir/run/two-node/iscsi

# busy_ipio RUN SIDE: the side's instructions per I/O from its two copies, by awk: the window
# (now at) less every CPU's idle and iowait time, over the "ios:" difference (one CPU a side)
busy_ipio() {
	awk '/^now at/ { now[FILENAME] = $3 } /^  \.(idle|iowait)_sleeptime/ { v = $0; sub(/^[^:]*: */, "", v); idle[FILENAME] += v + 0 }
		/^ios:/ { ios[FILENAME] = $2 }
		END { a = ARGV[1]; b = ARGV[2]
			printf "%.0f\n", ((now[b] - now[a]) - (idle[b] - idle[a])) / (ios[b] - ios[a]) }' \
		"$1/$2.pre" "$1/$2.post"
}
declare -A want
for s in target initiator; do
	for r in 1 2; do
		want[$s$r]=$(busy_ipio "$tn/run-$r" "$s")
	done
	want[${s}mean]=$(awk -v a="${want[${s}1]}" -v b="${want[${s}2]}" 'BEGIN { printf "%.0f\n", (a + b) / 2 }')
done
echo "ok: awk's figures: target ${want[target1]} ${want[target2]}, initiator ${want[initiator1]} ${want[initiator2]}"

out=$(python3 "$TOP/compare/two-node-report.py" "$tn") || fail "two-node-report.py failed: $out"
for s in target initiator; do
	for r in 1 2; do
		grep -q "^run-$r .* ${want[$s$r]}\( \|$\)" <<< "$out" || fail "two-node-report.py lacks run-$r's $s ${want[$s$r]}: $out"
	done
	# the mean may round one off from the mean of the rounded runs
	grep -qE "^$s: mean [0-9]+ instructions per I/O, min [0-9]+, max [0-9]+, spread .*% \(2 runs\)" <<< "$out" ||
		fail "two-node-report.py has no $s mean over 2 runs: $out"
	grep -q "^$s by layer (perf, [0-9]* busy samples" <<< "$out" || fail "two-node-report.py has no $s split: $out"
done
echo "ok: two-node-report.py prints each run's sides and their means, spreads and splits"

py=python3
! /usr/bin/python3 -c 'import matplotlib' 2> /dev/null || py=/usr/bin/python3
"$py" "$TOP/compare/report.py" "$dir/run" > "$dir/out.txt" 2>&1 || { cat "$dir/out.txt"; fail "report.py failed"; }
"$py" - "$dir/run" "${want[targetmean]}" "${want[initiatormean]}" << 'EOF' || fail "the two-node column"
import re, sys
root, tmean, imean = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
md = open(root + "/report.md", encoding="utf-8").read()
lad = md.split("## Cost ladder", 1)[1].split("\n## ", 1)[0]
tn = lad.split("### Two nodes: each side's instructions per I/O", 1)
assert len(tn) == 2, "the ladder has no two-node column"
tn = tn[1]
assert "Clock: the exact clock (QEMU icount, 1 instruction = 1 ns, sleep=on), 1 vCPU a side" in tn, tn
row = [l for l in tn.splitlines() if l.startswith("| iSCSI | iscsi | 2 |")]
assert len(row) == 1, f"no iSCSI row of 2 runs: {tn}"
w = [x.strip() for x in row[0].strip("|").split("|")]
num = lambda t: int(t.replace(",", ""))
for col, want, side in ((3, tmean, "target"), (5, imean, "initiator")):
    assert abs(num(w[col]) - want) <= 1, f"{side} mean {w[col]}, awk's {want}"
    assert re.fullmatch(r"[\d,]+ - [\d,]+ \(\d+\.\d %\)", w[col + 1]), f"{side} spread: {w[col + 1]}"
assert abs(num(w[7]) - tmean - imean) <= 2, f"both sides {w[7]}"
print(f"ok: ladder row: target {w[3]} ({w[4]}), initiator {w[5]} ({w[6]}), both {w[7]}")
for side, mean in (("target", tmean), ("initiator", imean)):
    r = [l for l in tn.splitlines() if l.startswith(f"| iSCSI | {side} |")]
    assert len(r) == 1, f"no split row for the {side}: {tn}"
    c = [x.strip() for x in r[0].strip("|").split("|")]
    # the split scales the perf pass's busy samples to the counted runs' mean
    assert abs(num(c[2]) - mean) <= 1, f"{side} split total {c[2]}, mean {mean}"
    parts = dict((m.group(1), num(m.group(2))) for m in re.finditer(r"([A-Za-z/+ ]+?) ([\d,]+)(?:, |$)", c[3]))
    assert parts and sum(parts.values()) <= mean + len(parts), f"{side} layers exceed the total: {c[3]}"
    assert "`" in c[4], f"{side}: no functions named: {c[4]}"
    print(f"ok: {side} split: {c[2]} = {c[3]}; {c[4][:80]}")
seed = md.split("## Seed 003", 1)[1].split("\n## ", 1)[0]
m = re.search(r"the target side costs \*\*([\d,]+) instructions per SCSI command\*\*", seed)
assert m and abs(num(m.group(1)) - tmean) <= 1, f"seed 003's two-node figure: {m and m.group(1)}"
assert "not the post's SRP" in seed and "SCST is not in Debian" in seed, "seed 003 names neither the transport nor SCST"
m = re.search(r"LIO's target core executes ([\d,]+) of the ([\d,]+) instructions", seed)
assert m and num(m.group(1)) < num(m.group(2)), "seed 003: no target-core share"
assert "whether SCST's core is cheaper than LIO's is not measured" in seed, "seed 003 claims more than it measured"
print(f"ok: seed 003 answers from the target side: {m.group(0)}")
summ = md.split("## Summary", 1)[1].split("\n## ", 1)[0]
assert re.search(r"\| 003: .*two nodes \(iscsi\): LIO's target side [\d,]+ instructions per command", summ), \
    "the summary's seed 003 row lacks the two-node figure"
print("ok: the summary's seed 003 row gives the two-node figure")
row = [l for l in summ.splitlines() if l.startswith("| iSCSI | ")]
assert len(row) == 1, f"the summary has no two-node iSCSI row: {summ}"
c = [x.strip() for x in row[0].strip("|").split("|")]
for col, want, side in ((1, tmean, "target"), (2, imean, "initiator")):
    m = re.fullmatch(r"([\d,]+) \((\d+\.\d) % over 2 runs\)", c[col])
    assert m and abs(num(m.group(1)) - want) <= 1, f"the summary's {side} side: {c[col]}, awk's {want}"
print(f"ok: the summary's two-node row: target {c[1]}, initiator {c[2]}")
EOF
"$TOP/compare/run" --report "$dir/run" > /dev/null 2>&1 || fail "compare/run --report of the two-node folder failed"
cp "$dir/run/report.md" "$dir/first.md"
"$TOP/compare/run" --report "$dir/run" > /dev/null 2>&1 || fail "the second --report failed"
cmp -s "$dir/first.md" "$dir/run/report.md" || fail "report.md of the same folder differs between two runs"
echo "ok: report.md of the same folder twice: the same bytes"

# Seed 002's grid over two nodes (2 vCPUs a side): a cell's instructions per MiB on each side, by
# awk from the per-CPU copies (each CPU's window and idle time from the copy made on it) over the
# initiator's sectors read, as seed 002's section gives them (its run 1 and run 2 averaged)
g=$dir/run/two-node/seed-002
cell=seed-002-ra2m-ms64k.bs-1m
# ipmib RUN SIDE: busy ns over MiB read
ipmib() {
	local mib
	mib=$(awk '/^sectors:/ { s[FILENAME] = $2 } END { printf "%.6f\n", (s[ARGV[2]] - s[ARGV[1]]) * 512 / 1048576 }' \
		"$g/$1/initiator.pre.$cell" "$g/$1/initiator.post.$cell")
	awk -v mib="$mib" '/^copy-on-cpu:/ { cc = $2; sect = -1 } /^now at/ { now[FILENAME, cc] = $3 } /^cpu: / { sect = $2 }
		/^  \.(idle|iowait)_sleeptime/ && sect == cc { v = $0; sub(/^[^:]*: */, "", v); idle[FILENAME, cc] += v + 0 }
		END { a = ARGV[1]; b = ARGV[2]
			for (c = 0; c < 2; c++) busy += (now[b, c] - now[a, c]) - (idle[b, c] - idle[a, c])
			printf "%.0f\n", busy / mib }' "$g/$1/$2.pre.$cell" "$g/$1/$2.post.$cell"
}
for s in target initiator; do
	want[g$s]=$(awk -v a="$(ipmib run-1 "$s")" -v b="$(ipmib run-2 "$s")" 'BEGIN { printf "%.0f\n", (a + b) / 2 }')
done
"$py" - "$dir/run" "${want[gtarget]}" "${want[ginitiator]}" << 'EOF' || fail "seed 002's two-node grid"
import re, sys
root, t, i = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
md = open(root + "/report.md", encoding="utf-8").read()
seed = md.split("## Seed 002", 1)[1].split("\n## ", 1)[0]
row = [l for l in seed.splitlines() if l.startswith("| 1M | RA 2M / 64 |")]
assert len(row) == 1, f"no RA 2M / 64 row at 1M: {seed}"
w = [x.strip() for x in row[0].strip("|").split("|")]
num = lambda x: int(x.split(" (")[0].replace(",", ""))
assert abs(num(w[2]) - t) <= 1 and abs(num(w[3]) - i) <= 1, f"{w}: awk's {t}, {i}"
assert w[4] == "16.0" and w[5] == "16.0" and w[6] == "2", f"64 KiB requests, 2 runs: {w}"
assert "2 vCPUs each" in seed and "neither exact clock measures the pair's MB/s" in seed, seed
assert "**Verdict: not decidable**" in seed, "seed 002's verdict"
print(f"ok: seed 002 over two nodes, RA 2M / 64 at 1M: target {w[2]}, initiator {w[3]} per MiB; 16 requests a MiB")
EOF

# Two CPUs a side: each CPU's figures come from the copy made on it. In the copy made on CPU 0,
# CPU 1 is idle and its idle time stale (its ongoing idle period not yet added); the copy made
# on CPU 1 has it current. Busy: CPU 0 10 s - 8 s, CPU 1 10 s - 9 s: 3 s over 1,000 I/Os.
two=$dir/two-cpu
mkdir -p "$two"
# copy NOW0 IDLE0 IDLE1_STALE NOW1 IDLE1 IOS
copy() {
	printf 'copy-on-cpu: 0\nnow at %s nsecs\n\ncpu: 0\n  .idle_sleeptime : %s nsecs\n  .iowait_sleeptime: 0 nsecs\ncpu: 1\n  .idle_sleeptime : %s nsecs\n  .iowait_sleeptime: 0 nsecs\n' "$1" "$2" "$3"
	printf 'copy-on-cpu: 1\nnow at %s nsecs\n\ncpu: 0\n  .idle_sleeptime : %s nsecs\n  .iowait_sleeptime: 0 nsecs\ncpu: 1\n  .idle_sleeptime : %s nsecs\n  .iowait_sleeptime: 0 nsecs\nios: %s\n' "$4" "$2" "$5" "$6"
}
copy 1000000000 500000000 100000000 1000050000 600000000 5000 > "$two/target.pre"
copy 11000000000 8500000000 100000000 11000050000 9600000000 6000 > "$two/target.post"
got=$(cd "$TOP/compare" && python3 -c 'import sys; from lib.twonode import side; print(side(sys.argv[1], "target"))' "$two") ||
	fail "lib/twonode.py side() failed on two CPUs"
grep -q "'busy_ns': 3000000000, 'ios': 1000, 'window_ns': 10000000000, 'cpus': 2, 'ipio': 3000000.0" <<< "$got" ||
	fail "two CPUs: $got, expected 3 s busy over 1,000 I/Os (each CPU from its own copy)"
echo "ok: two CPUs a side: each CPU read from its own copy ($got)"

# a stack without two halves is refused before anything is built or booted
rc=0
msg=$("$TOP/compare/run" --two-node nvme-loop 2>&1) || rc=$?
[ "$rc" = 2 ] || fail "compare/run --two-node nvme-loop: exit $rc, expected 2: $msg"
grep -q "^compare/run: --two-node: bad value 'nvme-loop' (allowed: a comma list of " <<< "$msg" || fail "--two-node nvme-loop: $msg"
rc=0
msg=$("$TOP/compare/run" --two-node-args '--runs 3' 2>&1) || rc=$?
{ [ "$rc" = 2 ] && grep -q "goes with --two-node" <<< "$msg"; } || fail "--two-node-args alone: exit $rc: $msg"
echo "ok: --two-node refuses a stack without halves and --two-node-args alone"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: the knob table (compare/knobs.py measures, compare/lib/knobtable.py writes) from a results folder: instructions per I/O, ratios, the per-I/O context switch / ksoftirqd / softirq / IPI counts (and "-" for runs recorded before them) over the disk's own read count, hw queues read back, per-submitter loaded with a vector per CPU, the knob guest named, the run count --plan shows; --configs picks configurations and refuses a bad name, naming the allowed ones; a knobs.jsonl left empty, meta-only or cut by a killed knob step gives a report whose knob section says the step produced no rows; a run length per workload (--runtime 500ms,dd=1), a bad one refused
# where: host
# requires: python3
. "$TOP/tests/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
in_compare python3 - "$TOP/compare" "$dir" << 'EOF' || fail "knobs.py's table"
import json, sys
import knobs
from lib import knobtable

root = sys.argv[2]
meta = {"load": knobtable.LOAD_ARGS, "kernel": "6.1.0-57-amd64", "cpus": 2, "runtime": 1,
        "repeats": 1, "procs_per_cpu": 4, "topology": "", "clock": "icount", "qemu": "10.0.13",
        "llc_groups": ["0-1"], "load_per_cpu": knobtable.load_args(knobtable.PER_CPU, 2)}
per_cpu = {"0": {"irq": 10, "done": 6}, "1": {"irq": 0, "done": 4}}
settings = {"rq_affinity": "2", "scheduler": "none", "add_random": "0", "nr_requests": "64",
            "iostats": "1"}
rows = [{"workload": "dd", "path": "bio", "config": "baseline", "iops": 200000.0, "ios": 200000,
         "cpu_us_per_io": 1.0, "per_cpu": {}}]
# seed-001: 100,000 IOPS on mq, 80,000 on sd; per-submitter 50,000 and 40,000, each with a
# ksoftirqd run per I/O; the sd seed-001 run has no per_io (an older run)
for cfg, mq, sd, ks in (("seed-001", 100000.0, 80000.0, 0.0),
                        ("seed-001 per-submitter", 50000.0, 40000.0, 1.0)):
    for path, iops in (("mq", mq), ("scsi", sd)):
        hwq = {"hw_queues": "2" if ks else "1"}
        r = {"workload": "dd", "path": path, "config": cfg, "base": "seed-001", "iops": iops,
             "ios": int(iops), "cpu_us_per_io": 2.0, "per_cpu": per_cpu,
             "settings": dict(settings, **hwq),
             "per_io": {"ctxt": 2.0 + ks, "ksoftirqd": ks, "block_softirq": 1.0,
                        "ipi_cal": 0.25, "ipi_iwi": 0.5}}
        if cfg == "seed-001" and path == "scsi":
            del r["per_io"]
        rows.append(r)
with open(root + "/knobs.jsonl", "w") as f:
    f.write(json.dumps({"meta": meta}) + "\n")
    for r in rows:
        f.write(json.dumps(r) + "\n")
text = "\n".join(knobtable.markdown(root))
for want in ("| seed-001 | 100,000 (-) | 80,000 (-) | 2.500 | 1.250 | 10,000 | 12,500 |",
             "| seed-001 per-submitter | 50,000 (-) | 40,000 (-) | 5.000 | 1.250 | 20,000 | 25,000 |",
             "2.00/0.00/1.00/0.25/0.50; -",
             "3.00/1.00/1.00/0.25/0.50; 3.00/1.00/1.00/0.25/0.50",
             "context switches / ksoftirqd runs / BLOCK softirqs / call IPIs / irq_work IPIs",
             "| 2 none 0 64 1; 2 none 0 64 1 |", "| 2 none 0 64 2; 2 none 0 64 2 |",
             "ramlld loaded again `mode=all capacity_mb=256 prealloc=1 irqmode=1 irq_cpus=0,1 "
             "rotational=1`"):
    if want not in text:
        sys.exit(f"the table lacks {want!r}:\n{text}")
    print(f"ok: {want}")
# --configs: picked in table order, a bad name refused with the allowed ones
got = [c[0] for c in knobtable.pick(["seed-001 per-submitter", "default"])]
if got != ["default", "seed-001 per-submitter"]:
    sys.exit(f"pick gave {got}")
if len(knobtable.pick([])) != 12:
    sys.exit("pick([]) is not all 12 configurations")
try:
    knobtable.pick(["seed-002"])
    sys.exit("pick accepted seed-002")
except ValueError as e:
    if "'seed-002'" not in str(e) or "seed-001 per-submitter" not in str(e):
        sys.exit(f"pick's error names neither the bad nor the allowed: {e}")
print("ok: pick")
# per-submitter: a second load with a vector (and a hw queue) per CPU, not irq_cpus emptied
subs = {c[0]: c[3] for c in knobtable.configs()}
if subs["seed-001 per-submitter"] != knobtable.PER_CPU or subs["seed-001"] != "0":
    sys.exit(f"per-submitter's irq_cpus: {subs}")
if "irq_cpus=0,1,2,3" not in knobtable.load_args(knobtable.PER_CPU, 4) or \
        "irq_cpus=0" not in knobtable.load_args("0"):
    sys.exit(f"load_args: {knobtable.load_args(knobtable.PER_CPU, 4)}")
# the per-I/O counts divide by the disk's reads completed (dd's byte count misses none of
# them but counts only the I/O window), and by the workload's count when the stat is off
seq = iter([100, 1100, 5, 5])
knobs.counters = lambda: {}
knobs.busy_jiffies = lambda: 0
knobs.sched_counters = lambda: dict.fromkeys(knobtable.PER_IO, next(ctx))
knobs.disk_reads = lambda disk: next(seq)
knobs.run_workload = lambda *a: (800, 800.0)
ctx = iter([0, 500, 0, 400])
r = knobs.measure_one("/", "ramlldmq0", None, "dd", 1, 1)
if r["per_io"]["ctxt"] != 0.5 or r["ios_stat"] != 1000:
    sys.exit(f"per-I/O over the stat's 1000 reads: {r}")
r = knobs.measure_one("/", "ramlldmq0", None, "dd", 1, 1)
if r["per_io"]["ctxt"] != 0.5:
    sys.exit(f"per-I/O over the workload's 800 I/Os when the stat stays: {r}")
print("ok: per-submitter's load, the per-I/O denominator")
# a run told not to measure the table says so (meta.env knobs=0); one that did not say, nothing;
# a knob guest that ended before writing a run says that, whatever the matrix's guest had
if "`--no-knobs`" not in "\n".join(knobtable.not_measured({"knobs": "0"})) \
        or knobtable.not_measured({"knobs": "1"}) or knobtable.not_measured({}):
    sys.exit("not_measured")
kg = "2 vCPUs in QEMU's default topology for -smp 2, clock icount"
if f"the knob guest ({kg}) ended before it wrote" not in "\n".join(
        knobtable.not_measured({"knobs": "0", "knob_guest": kg})):
    sys.exit(f"not_measured with a knob guest: {knobtable.not_measured({'knobs': '0', 'knob_guest': kg})}")
print("ok: the section of a run without the table")
# measured in the knob guest: the section names that guest's shape; without one, no such line
if f"the knob guest ({kg}), booted after the matrix's guest" not in "\n".join(
        knobtable.markdown(root, guest=kg)) or "knob guest" in text:
    sys.exit("the section does not name the knob guest")
print("ok: the knob guest named")
# the runs a knob step makes (compare/run --plan's knob-runs): per repeat and workload bio and
# 12 configurations x 2 disks, and with one repeat 3 more (the defaults and bio again)
for args, want in (((["dd"], 1), 28), ((["dd", "qd32"], 2), 100),
                   ((["dd"], 1, ["seed-001 per-submitter"]), 6), ((["dd"], 2, ["default"]), 6)):
    if knobtable.run_count(*args) != want:
        sys.exit(f"run_count{args} = {knobtable.run_count(*args)}, not {want}")
print("ok: run_count")
EOF

run_rc 2 "$TOP/tools/knob-table" --configs "default,seed-002" --report "$dir"
expect_in "knob-table refuses a bad configuration" "--configs: bad configuration 'seed-002' (allowed: default, default rq_affinity=0"
run_rc 2 python3 "$TOP/compare/knobs.py" --out "$dir/x" --top "$TOP" --ko /nonexistent --configs "seed 001"
expect_in "knobs.py refuses a bad configuration" "--configs: bad configuration 'seed 001' (allowed:"
[ ! -e "$dir/x" ] || fail "a refused knobs.py made its results folder"
# a run's length per workload (--runtime LEN[,WORKLOAD=LEN]): dd's own 1 s beside QD32's 500 ms,
# in the section's words too; a bad length or workload refused, naming it
got=$(cd "$TOP/compare" && python3 -c 'import knobs; print(knobs.lengths("500ms,dd=1", ["dd", "qd32"]), knobs.seconds("500ms"), knobs.seconds("2"))')
expect_eq "knobs.py's lengths" "{'dd': '1', 'qd32': '500ms'} 0.5 2.0" "$got"
expect_eq "knobs.py --count with dd's own length" 56 "$(python3 "$TOP/compare/knobs.py" --count --runtime 500ms,dd=1 --repeats 1)"
run_rc 2 python3 "$TOP/compare/knobs.py" --count --runtime 500ms,dd=1s
expect_in "knobs.py refuses a bad length" "--runtime: bad value '1s' (allowed: whole seconds >= 1, or NNNms)"
run_rc 2 python3 "$TOP/compare/knobs.py" --count --runtime 1,fio=2
expect_in "knobs.py refuses another workload's length" "--runtime: bad part 'fio=2' (allowed: dd=LEN or qd32=LEN after the length)"
mkdir -p "$dir/len" && cp "$TOP/tests/compare/fixtures/exact-small/knobs/knobs.jsonl" "$dir/len/"
sed -i '1s/"runtime": [^,]*/"runtime": "500ms,dd=1"/' "$dir/len/knobs.jsonl"
"$TOP/tools/knob-table" --report "$dir/len" | grep -q ' repeat(s) of 0.5 s (dd 1 s) per cell' ||
	fail "the section does not give dd's own length: $("$TOP/tools/knob-table" --report "$dir/len" | grep -o 'repeat(s) of [^;]*')"
echo "ok: the section gives dd's own length"
# a knob step killed before its first run: knobs.jsonl empty, or its meta alone, or its last
# line cut; the report is still written and its knob section says the step produced no rows
fixture=$TOP/tests/compare/fixtures/exact-small
for cut in empty meta-only cut-line; do
	rm -rf "$dir/run"
	cp -r "$fixture" "$dir/run"
	k=$dir/run/knobs/knobs.jsonl
	case $cut in
	empty) : > "$k" ;;
	meta-only) head -n 1 "$fixture/knobs/knobs.jsonl" > "$k" ;;
	cut-line) { head -n 1 "$fixture/knobs/knobs.jsonl"; printf '{"workload": "dd", "pa'; } > "$k" ;;
	esac
	"$TOP/compare/run" --report "$dir/run" > "$dir/out.txt" 2>&1 ||
		{ cat "$dir/out.txt"; fail "--report of a folder whose knobs.jsonl is $cut"; }
	grep -qF "Not measured: the knob step produced no rows" "$dir/run/report.md" ||
		fail "$cut knobs.jsonl: the knob section does not say the step produced no rows"
	echo "ok: $cut knobs.jsonl: the report says the knob step produced no rows"
done
echo "ok: the knob table's arithmetic and --configs"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/ runs a tiny matrix (ramlld-bio, 4k randread QD32, 1 s) and its report's structure and numbers match the raw fio JSON
# where: guest
# requires: fio python3
# timeout: 300
. "$TOP/tests/lib.sh"

out=$RESULTS/compare-tiny
rm -rf "$out"
# Newer kernels (6.12 and 7.2 here, not 5.10 or 6.1) hide the blk-mq attributes (scheduler,
# nr_requests, rq_affinity) of a bio-based queue: whether this kernel shows queue/scheduler for
# ramlld0 decides what the read-back must hold ("none", or "-" for a file that is not there).
ramlld_load mode=bio capacity_mb=16
wait_for_path /sys/block/ramlld0/queue
if [ -e /sys/block/ramlld0/queue/scheduler ]; then
	bio_sched=none
else
	bio_sched=-
	echo "note: kernel $(uname -r) has no queue/scheduler for a bio-based disk: expecting '-' in the read-back"
fi
ramlld_unload
"$TOP/compare/guest-run" --out "$out" --level quick --targets ramlld-bio --only qd32/randread-4k-qd32 \
	--profiles default --repeats 1 --runtime 1 --nluns 1 --capacity-mb 16 --no-breakdown \
	--ko "$RAMLLD_KO" || fail "compare/guest-run failed"
[ ! -e /sys/module/ramlld ] || fail "compare/guest-run left ramlld loaded"
python3 "$TOP/compare/report.py" --quiet "$out" || fail "compare/report.py failed"
python3 - "$out" "$bio_sched" "$TOP" <<'PY' || fail "the report does not match the raw results"
import csv, json, os, sys
out, bio_sched = sys.argv[1], sys.argv[2]
raw = os.path.join(out, "raw/ramlld-bio/default/qd32/randread-4k-qd32/r1.json")
j = json.load(open(raw))["jobs"][0]
res = json.load(open(os.path.join(out, "results.json")))
cells = [c for c in res["cells"] if c["target"] == "ramlld-bio"]
assert len(cells) == 1, f"expected 1 cell, got {len(cells)}"
c = cells[0]
# latency: fio's lat (submission + completion); percentiles where fio recorded them for lat
pct = j["read"]["lat_ns"].get("percentile") or {}
expect = {
    "iops": j["read"]["iops"] + j["write"]["iops"],
    "mbps": (j["read"]["bw_bytes"] + j["write"]["bw_bytes"]) / 1e6,
    "lat_mean_us": j["read"]["lat_ns"]["mean"] / 1e3,
    "lat_p50_us": pct["50.000000"] / 1e3 if pct else None,
    "lat_p99_us": pct["99.000000"] / 1e3 if pct else None,
    "lat_p999_us": pct["99.900000"] / 1e3 if pct else None,
    "cpu_us_per_io_fio": (j["usr_cpu"] + j["sys_cpu"]) / 100 * j["job_runtime"] * 1e3
                         / (j["read"]["total_ios"] + j["write"]["total_ios"]),
}
for k, v in expect.items():
    if v is None:
        assert c[k] is None, f"{k}: results.json {c[k]}, fio recorded none"
        print(f"ok: {k}: none recorded, none reported")
        continue
    assert abs(c[k] - v) <= 1e-9 * max(1, abs(v)), f"{k}: results.json {c[k]} != raw {v}"
    print(f"ok: {k} = {v:.6g} (raw fio JSON) = results.json")
assert c["n"] == 1 and c["iops_std"] == 0, "n/std"
assert c["queue"].get("scheduler") == bio_sched, f"queue read-back (scheduler {bio_sched} expected): {c['queue']}"
print(f"ok: queue read back: {c['queue']}")
# one measure per quantity: instructions per I/O on the exact clock, /proc/stat's CPU on host time
if res["exact"]:
    assert abs(c["instr_per_io"] - 1e9 / expect["iops"]) < 1e-6 * c["instr_per_io"], "instr/IO"
    assert c["cpu_us_per_io_stat"] is None, "a /proc/stat figure beside the exact one"
else:
    assert c["cpu_us_per_io_stat"] and c["cpu_us_per_io_stat"] > 0, "no /proc/stat CPU per I/O"
rows = list(csv.DictReader(open(os.path.join(out, "results.csv"))))
assert len(rows) == 1 and abs(float(rows[0]["iops"]) - expect["iops"]) <= 1e-5 * expect["iops"], "csv iops"
print(f"ok: results.csv iops {rows[0]['iops']}")
md = open(os.path.join(out, "report.md")).read()
for h in ("## Environment", "## Summary", "## Targets", "## Results per workload", "### qd32",
          "## Block vs SCSI", "## Reference drivers", "## Where the time goes"):
    assert h in md, f"report.md lacks '{h}'"
assert f"{expect['iops']:,.0f}" in md, "report.md lacks the IOPS figure"
assert "accelerator" in md and "kernel" in md
# the Targets table from the target file's header; every section names the clock
desc = [l[len("# desc: "):].strip() for l in open(os.path.join(sys.argv[3], "compare/targets/ramlld-bio.sh"))
        if l.startswith("# desc: ")][0]
assert f"| ramlld-bio | ramlld | {desc} |" in md, f"report.md's Targets row lacks group ramlld and '{desc}'"
lines = md.splitlines()
heads = [i for i, l in enumerate(lines) if l.startswith("## ")]
clock = res["meta"].get("clock")
assert clock in ("host", "icount"), f"meta.env clock={clock!r}"
for i in heads:
    assert lines[i + 1].startswith("*clock: "), f"section '{lines[i]}' does not name its clock: {lines[i + 1]!r}"
print(f"ok: Targets row from the file ({desc}); {len(heads)} sections each name the clock ({clock})")
print("ok: report.md has every section and the IOPS figure", f"{expect['iops']:,.0f}")
PY
echo "ok: tiny matrix report consistent with the raw fio JSON"

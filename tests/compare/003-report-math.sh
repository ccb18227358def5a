#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: the report's numbers (compare/lib, compare/sections): the driver's own share and Amdahl ceiling from perf files, paired bench ratios, 95 % bounds and verdicts; the exact clock's agreement of runs
# where: host
# requires: python3
. "$TOP/tests/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
bd=$dir/breakdown/sdebug-norwlock
mkdir -p "$bd"
# perf.txt as `perf report --no-children --sort symbol -g none` prints it: 10 % idle
cat > "$bd/perf.txt" << 'EOF'
# Overhead  Symbol
    40.00%  [k] _raw_spin_unlock_irqrestore
    25.00%  [k] scsi_queue_rq
    15.00%  [.] fio_io_loop
    10.00%  [k] default_idle
    10.00%  [k] memcpy
EOF
# perf-driver.txt as `perf report --sort parent -p ...` prints it: 18 % in scsi_debug's own
# functions (another driver's name does not count for it)
cat > "$bd/perf-driver.txt" << 'EOF'
# Overhead  Parent symbol
# ........  .............
#
    58.00%  [other]
     4.00%  ramlld_scsi_queuecommand
    12.00%  schedule_resp
     6.00%  do_device_access
    14.00%  scsi_done
     6.00%  handle_softirqs
EOF
# perf-driver-symbols.txt (--sort parent,symbol): 7.5 % are copies under scsi_debug's own
# functions; a copy under [other] or under another driver's function is not its own
cat > "$bd/perf-driver-symbols.txt" << 'EOF'
# Overhead  Parent symbol  Symbol
    50.00%  [other]                   [k] _raw_spin_unlock_irqrestore
     8.00%  [other]                   [k] memcpy
     9.00%  schedule_resp             [k] schedule_resp
     3.00%  schedule_resp             [k] memset_erms
     4.50%  do_device_access          [k] memcpy
     1.50%  do_device_access          [k] do_device_access
     2.00%  ramlld_scsi_queuecommand  [k] copy_page
    14.00%  scsi_done                 [k] scsi_done
EOF
echo "profile=seed-001" > "$bd/profile.env"

# Debian's python3 (python3-scipy, for Student's t), whichever comes first in PATH otherwise
py=python3
command -v /usr/bin/python3 > /dev/null && py=/usr/bin/python3
"$py" -c 'import scipy' || fail "$py has no SciPy (tools/deps installs python3-scipy)"
in_compare "$py" - "$TOP/compare" "$dir" << 'EOF' || fail "report.py's arithmetic"
import math, sys
from lib import fio, perf, results, stats
from sections import bench, breakdown, environment, seed002

def near(a, b, what):
    if a is None or abs(a - b) > 1e-9:
        sys.exit(f"{what}: {a}, expected {b}")
    print(f"ok: {what} = {a:.4f}")

bd = perf.load_breakdown(sys.argv[2], results.load_targets(sys.argv[2]))["sdebug-norwlock"]
d = bd["driver"]
near(d["own_pct"], 18.0, "own share of all samples")
near(d["own_of_busy_pct"], 20.0, "own share of busy samples (18 of 90)")
near(d["ceiling"], 1.25, "Amdahl ceiling 90 / (90 - 18)")
near(d["own_copy_of_busy_pct"], 7.5 * 100 / 90, "copies under the driver's own functions, of busy (7.5 of 90)")
if bd["profile"] != "seed-001":
    sys.exit(f"breakdown profile {bd['profile']!r}, expected 'seed-001'")
txt = bench.ceiling_text(bd, 1.3)
if "1.25x" not in txt or "goal above it" not in txt:
    sys.exit(f"ceiling text {txt!r} does not flag a 1.3x goal above a 1.25x ceiling")
if "goal above" in bench.ceiling_text(bd, 1.2):
    sys.exit("a 1.2x goal under a 1.25x ceiling is flagged")
# no driver file, or a target with no driver functions (--host): no ceiling, not a crash
targets = results.load_targets()
if perf.parse_perf_driver("/nonexistent", bd["perf"], targets["sdebug"]["own-functions"]) is not None:
    sys.exit("a missing perf-driver.txt gave a ceiling")
if perf.parse_perf_driver(sys.argv[2] + "/breakdown/sdebug-norwlock/perf-driver.txt",
                            bd["perf"], targets["host"]["own-functions"]) is not None:
    sys.exit("the host target got a driver share")
# the regex perf gets covers every driver's names, the hand-backs and interrupt entries
import re
rx = perf.perf_parents(targets)
for name, want in (("schedule_resp", True), ("ramlld_store_copy_bvec", True), ("scsi_done", True),
                   ("handle_softirqs", True), ("scsi_queue_rq", False), ("memcpy_erms", False)):
    if bool(re.fullmatch(rx, name)) != want:
        sys.exit(f"--perf-parents regex {'misses' if want else 'matches'} {name}")

# paired ratios take the rounds both cells ran, a over b, round by round
ca = {"runs": [{"rep": 1, "iops": 30.0}, {"rep": 2, "iops": 24.0}, {"rep": 3, "iops": 40.0}]}
cb = {"runs": [{"rep": 1, "iops": 20.0}, {"rep": 2, "iops": 20.0}, {"rep": 4, "iops": 10.0}]}
pr = bench.paired_ratios(ca, cb)
if pr != [1.5, 1.2]:
    sys.exit(f"paired ratios {pr}, expected [1.5, 1.2]")
print(f"ok: paired ratios {pr}")
# one-sided 95 % bounds: mean 1.35, sd 0.2121, t(0.95, 1 df) = 6.3137515 (tables: 6.314)
lo, hi = stats.mean_bounds95(pr)
half = 6.313751514675 * math.sqrt(0.045) / math.sqrt(2)
near(lo, 1.35 - half, "lower 95 % bound")
near(hi, 1.35 + half, "upper 95 % bound")
# 4 df: 2.131847 (tables: 2.132)
lo, hi = stats.mean_bounds95([1.0, 1.1, 1.2, 1.3, 1.4])
near(hi - 1.2, 2.131846786 * math.sqrt(0.025) / math.sqrt(5), "95 % half width, 4 df")
for lo, hi, goal, want in ((1.26, 1.6, 1.25, "met"), (0.9, 1.2, 1.25, "NOT met"),
                           (1.1, 1.4, 1.25, "inconclusive")):
    got = bench.verdict({"paired": 5, "lo95": lo, "hi95": hi, "goal": goal,
                                "ratio": (lo + hi) / 2, "ratio_std": 0.1})
    if got.split(":")[0] != want:
        sys.exit(f"verdict for bounds {lo}-{hi}, goal {goal}: {got!r}, expected {want!r}")
    print(f"ok: bounds {lo}-{hi} against {goal}: {got}")

# The exact clock (icount): guest ns per instruction from the shift, none on the host's time
for meta, want in (({"clock": "icount", "icount_shift": "0"}, 1), ({"clock": "icount", "icount_shift": "3"}, 8),
                   ({"clock": "host"}, None), ({}, None)):
    if results.icount_ns(meta) != want:
        sys.exit(f"icount_ns({meta}) = {results.icount_ns(meta)}, expected {want}")
if "1 instruction = 8 ns" not in results.clock_text({"clock": "icount", "icount_shift": "3", "qemu": "10.0.13"}):
    sys.exit("clock_text does not say 8 ns per instruction at shift 3")
# the run's span: the host's stamps first when compare/run wrote them, the guest's named as its
span = environment.run_span({"host_started": "H0", "host_ended": "H1", "started": "G0", "ended": "G1",
                        "wall_s": "1110"})
if span != "H0 → H1 (host), 1110 s wall in total; the matrix guest's clock G0 → G1":
    sys.exit(f"run_span with host stamps: {span!r}")
span = environment.run_span({"started": "G0", "ended": "G1", "wall_s": "7"})
if span != "G0 → G1, 7 s wall in total":
    sys.exit(f"run_span of an older folder (guest stamps only): {span!r}")
# determinism: 0.5 % of the mean IOPS; what differed is said
d = stats.determinism([{"iops": 100000.0}, {"iops": 100400.0}])
near(d["pct"], 400 * 100 / 100200, "runs apart, %")
if not d["ok"] or "100,000 vs 100,400" not in d["what"]:
    sys.exit(f"determinism of runs 0.40 % apart: {d}")
d = stats.determinism([{"iops": 100000.0}, {"iops": 100600.0}])
if d["ok"] is not False:
    sys.exit(f"runs 0.60 % apart passed the determinism check: {d}")
if stats.determinism([{"iops": 1.0}])["ok"] is not None:
    sys.exit("one run was checked for determinism")
print(f"ok: determinism: 0.40 % passes, 0.60 % is flagged ({d['what']})")
# an exact bench decides from the ratio itself, unless a cell's runs differ
ok, bad = {"ok": True, "what": "-"}, {"ok": False, "what": "IOPS 1 vs 2"}
for r, da, want in ((1.2001, ok, "met"), (1.1999, ok, "NOT met"), (1.3, bad, "inconclusive")):
    got = bench.verdict({"exact": True, "paired": 0, "ratio": r, "goal": 1.2, "a": "x",
                                "b": "y", "a_det": da, "b_det": ok})
    if got.split(":")[0] != want:
        sys.exit(f"exact verdict for {r} against 1.2: {got!r}, expected {want!r}")
    print(f"ok: exact ratio {r} against 1.2: {got}")
# a function's instructions per I/O: its share of the busy samples times the cell's count
bd = {"t": {"profile": "default", "driver": {"own_of_busy_pct": 20.0, "own_copy_of_busy_pct": 15.0},
            "perf": {"share_pct": {"idle": 10.0}, "share_of_busy_pct": {"copy": 50.0},
                     "top_kernel": [{"symbol": "f", "pct": 45.0}], "scsi_functions": []}}}
perf.instr_per_function(bd, {("t", "default", "qd32", "randread-4k-qd32"): {"instr_per_io": 10000.0}})
near(bd["t"]["perf"]["top_kernel"][0]["instr_per_io"], 5000.0, "instr/IO of a function at 45 % of 90 % busy")
near(bd["t"]["driver"]["own_instr_per_io"], 2000.0, "the driver's own instr/IO at 20 % of busy")
near(bd["t"]["perf"]["class_instr_per_io"]["copy"], 5000.0, "copy's instr/IO at 50 % of busy")
near(bd["t"]["driver"]["own_copy_instr_per_io"], 1500.0, "the copy inside the driver at 15 % of busy")
# the report's per-function row: path 10,000, own 2,000, copy 5,000 of which 1,500 under the
# driver: own less copy 500 (the copies outside the driver are not taken from its share)
rows = breakdown.instr_rows(bd, {})
if rows != [["t", "10,000", "2,000", "5,000", "1,500", "500", "`f` 5,000"]]:
    sys.exit(f"per-function rows {rows}")
# results without perf-driver-symbols.txt: the copy inside the driver is unknown, said as '-'
del bd["t"]["driver"]["own_copy_instr_per_io"]
rows = breakdown.instr_rows(bd, {})
if rows != [["t", "10,000", "2,000", "5,000", "-", "-", "`f` 5,000"]]:
    sys.exit(f"per-function rows without the copy by parent {rows}")
print(f"ok: per-function row {rows[0]}")
# The exact clock's rule: each figure's runs within 0.5 % (a determinism check), then the ratio
# itself against the post's band; n = 2 decides there where Student's t (12.7) could not.
ag = stats.agreement([("a", [100000.0, 100400.0]), ("b", [50000.0, 50010.0])])
near(ag["pct"], 400 * 100 / 100200, "exact agreement: the worst figure's runs apart, %")
if ag["ok"] is not True:
    sys.exit(f"runs 0.40 % and 0.02 % apart failed the exact check: {ag}")
bad = stats.agreement([("a", [100000.0, 100400.0]), ("b", [50000.0, 50300.0])])
if bad["ok"] is not False or "b: 50,000 vs 50,300 (0.60 % apart)" not in bad["what"]:
    sys.exit(f"runs 0.60 % apart passed the exact check, or were not named: {bad}")
one = stats.agreement([("a", [100000.0]), ("b", [50000.0, 50010.0])])
if one["ok"] is not None or "a: 1 run(s), not checked" not in one["what"]:
    sys.exit(f"a single run was taken as exact: {one}")
# seed 002 on the exact clock: MB/s over the time inside read() (fio's lat_ns mean x N, ns),
# not over its whole-ms runtime (64 MiB in 195 ms: 344.1 MB/s; 195.5 ms inside read(): 343.3)
import json, os
root = sys.argv[2]
os.makedirs(os.path.join(root, "raw2"))
with open(os.path.join(root, "raw2", "r1.json"), "w") as fh:
    json.dump({"jobs": [{"read": {"io_bytes": 64 << 20, "total_ios": 64, "runtime": 195,
                                  "lat_ns": {"mean": 195.5e6 / 64, "N": 64}}}]}, fh)
data = fio.read(os.path.join(root, "raw2", "r1.json"))
rt = seed002.read_time({"data": data})
near(rt["mbps"], (64 << 20) / 195.5e-3 / 1e6, "seed 002: MB/s over the time inside read()")
near(rt["iops"], 64 / 195.5e-3, "seed 002: IOPS over the time inside read()")
c = seed002.read_time_cell({"runs": [{"data": data, "mbps": 344.1}], "mbps": 344.1})
near(c["mbps"], rt["mbps"], "seed 002: a cell's MB/s from its runs' time inside read()")
if seed002.read_time({"data": {"jobs": [{"read": {}}]}}) is not None:
    sys.exit("seed 002: read_time() of a run without fio's latencies is not None")
print(f"ok: seed 002: 64 MiB in 195.5 ms inside read(): {rt['mbps']:.1f} MB/s (fio's 195 ms: 344.1)")
# seed 002's --perf-cell profiles: 64 MiB read at max_sectors_kb 512 in 128 requests, at 64 in
# 1,024 (14 more per MiB); a sample every 10,000 instructions. sd_setup_read_write_cmnd: 64
# samples (10,000 / MiB) at 512, 512 (80,000 / MiB) at 64: 70,000 / 14 = 5,000 per added
# request; filemap_read the same at both: 0. Idle (native_safe_halt) grows but is no
# instruction count: out of the total.
for ms, reqs, sd_n in ((512, 128, 64), (64, 1024, 512)):
    d = os.path.join(root, "raw", "ramlld-sd", f"seed-002-ra2m-ms{ms}k", "seed-002", "bs-1m")
    os.makedirs(d)
    with open(os.path.join(d, "perf.stat"), "w") as fh:
        fh.write(f"passes 8\nsampling -c 10000\nclock icount\n"
                 f"disk_before 10 0 100 0 0 0 0 0 0 0 0\n"
                 f"disk_after {10 + reqs} 0 {100 + 131072} 0 0 0 0 0 0 0 0\n")
    with open(os.path.join(d, "perf.txt"), "w") as fh:
        fh.write(f"# Samples: 1K of event 'cpu-clock'\n"
                 f"    50.00%  {sd_n}  [k] sd_setup_read_write_cmnd\n"
                 f"    40.00%  640  [k] filemap_read\n"
                 f"     5.00%  {sd_n}  [k] native_safe_halt\n"
                 f"    10.00%  100  [.] fio_main\n")
sec = {"notes": [], "tables": []}
pf = seed002.seed002_perf(root, ["ramlld-sd"], sec)
near(pf["ramlld-sd"]["extra_requests_per_mib"], 14.0, "seed 002 perf: requests per MiB added")
near(pf["ramlld-sd"]["per_extra_request"]["scsi+sd"], 5000.0,
     "seed 002 perf: sd's instructions per added request")
near(pf["ramlld-sd"]["per_extra_request"]["page cache"], 0.0,
     "seed 002 perf: the page cache's, the same at both settings")
near(pf["ramlld-sd"]["total_per_extra_request"], 5000.0, "seed 002 perf: the profile's total")
top = sec["tables"][1][2][0]
# its sampling noise: √(64 + 512) samples x 10,000 / 64 MiB, over 14 added requests a MiB: 268
near(pf["ramlld-sd"]["per_extra_request_sd"]["scsi+sd"],
     (64 * (10000 / 64) ** 2 + 512 * (10000 / 64) ** 2) ** 0.5 / 14,
     "seed 002 perf: the sampling noise of sd's growth")
if top[1] != "sd_setup_read_write_cmnd" or not top[-1].startswith("5,000 ± "):
    sys.exit(f"seed 002 perf: the top function row {top}")
os.remove(os.path.join(root, "raw", "ramlld-sd", "seed-002-ra2m-ms64k", "seed-002", "bs-1m",
                       "perf.txt"))
if seed002.seed002_perf(root, ["ramlld-sd"], {"notes": [], "tables": []}) is not None:
    sys.exit("seed 002 perf: a profile missing at one setting still made a table")
print("ok: seed 002 perf: 5,000 instructions per added request in sd_setup_read_write_cmnd")
EOF
echo "report.py: driver share, ceiling, paired ratios, bounds, verdicts and exact-clock figures as computed by hand"

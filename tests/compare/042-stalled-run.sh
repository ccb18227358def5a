#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: a time-based fio run that ran over twice its set runtime (its I/Os stalled: 7 I/Os of 1 MiB in 10.5 s of a 1 s run) is left out of its cell with a note naming the cell, the run's length and its I/O count, while a time-based run within its bound (500ms as fio writes it) and a fixed-work run of one I/O stay
# where: host
# requires: python3
# timeout: 30
. "$TOP/tests/lib.sh"

d=$RESULTS/run
python3 - "$d" << 'EOF2' || fail "the fixture was not written"
import json, os, sys
d = sys.argv[1]
def run(path, gopts, jopts, ios, runtime_ms, iops):
    side = {"total_ios": ios, "iops": iops, "bw_bytes": iops * 4096, "runtime": runtime_ms,
            "lat_ns": {"N": ios, "mean": 1000.0}}
    none = {"total_ios": 0, "iops": 0, "bw_bytes": 0, "runtime": 0, "lat_ns": {}}
    job = {"jobname": "t", "job options": jopts, "read": side, "write": none,
           "usr_cpu": 10.0, "sys_cpu": 80.0, "job_runtime": runtime_ms}
    os.makedirs(os.path.dirname(os.path.join(d, path)), exist_ok=True)
    with open(os.path.join(d, path), "w") as f:
        f.write("fio: a warning first\n" + json.dumps({"global options": gopts, "jobs": [job]}))
tb = {"direct": "1", "time_based": "1", "runtime": "1"}
run("raw/srp/default/ladder/read-1m-qd4/r1.json", tb, {"bs": "1m", "iodepth": "4"}, 7, 10485, 0.67)
run("raw/brd/default/ladder/read-1m-qd4/r1.json", tb, {"bs": "1m", "iodepth": "4"}, 4100, 1001, 4096.0)
run("raw/brd/default/qd32/randread-4k-qd32/r1.json", dict(tb, runtime="500ms"), {"iodepth": "32"},
    60000, 1100, 54545.0)
run("raw/brd/default/seed-003/psync-64m-read/r1.json", {"direct": "1"}, {"bs": "64m"}, 1, 150, 6.7)
open(os.path.join(d, "meta.env"), "w").write("clock=icount\nicount_shift=0\nramp=0\n")
EOF2
out=$(cd "$TOP/compare" && python3 - "$d" << 'EOF2'
import sys
from lib.env import read_env
from lib.results import load_runs
d = sys.argv[1]
bad = []
runs = load_runs(d, read_env(d + "/meta.env"), bad)
for r in sorted(runs, key=lambda r: r["file"]):
    print("kept", r["file"], r["ios"])
for b in bad:
    print("note", b["target"], b["text"])
EOF2
) || fail "load_runs failed: $out"
printf '%s\n' "$out"
expect_eq "the runs kept and the note" "kept raw/brd/default/ladder/read-1m-qd4/r1.json 4100
kept raw/brd/default/qd32/randread-4k-qd32/r1.json 60000
kept raw/brd/default/seed-003/psync-64m-read/r1.json 1
note srp ladder/read-1m-qd4 r1 (default): fio ran 10.5 s of a 1 s time-based run, waiting on its I/Os to complete (7 I/Os): not a rate; the run is left out" "$out"

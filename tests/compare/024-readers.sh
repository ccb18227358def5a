#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/lib's one reader per format, with values: meta.env's repeated key keeps its first value (the report's clock line follows it), fio JSON after leading noise is read (the report's cell holds its IOPS), a truncated fio JSON fails with a message naming the file (lib/fio.py; the report leaves the run out and its notes name the file; as ledger-guest runs it: exit 1, nothing printed; as guest/cells.sh splits a run of several jobs)
# where: host
# requires: python3
. "$TOP/tests/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fixture=$TOP/tests/compare/fixtures/exact-small/raw/ramlld-bio/default/qd32/randread-4k-qd32/r1.json
in_compare python3 - "$dir" "$fixture" << 'EOF' || fail "compare/lib's readers"
import json, os, sys
from lib import env, fio, results

d, fixture = sys.argv[1], sys.argv[2]

# meta.env: the first line of a key wins, a value keeps its '=', a line without '=' is left out
with open(os.path.join(d, "meta.env"), "w") as f:
    f.write("clock=icount\nicount_shift=0\ncommand=compare/run --clock=icount\nno key here\n"
            "cpus=1\nclock=host\ncpus=4\n")
m = env.read_env(os.path.join(d, "meta.env"))
assert m == {"clock": "icount", "icount_shift": "0", "command": "compare/run --clock=icount",
             "cpus": "1"}, m
assert env.read_env(os.path.join(d, "nonexistent.env")) == {}
print("ok: meta.env: a repeated key keeps its first value (clock=icount, cpus=1)")

# fio JSON after fio's warnings: read whole; its figures as without them
with open(fixture) as f:
    text = f.read()
want = json.loads(text)["jobs"][0]["read"]["iops"]
run = os.path.join(d, "raw", "ramlld-bio", "default", "qd32", "randread-4k-qd32")
os.makedirs(run)
with open(os.path.join(run, "r1.json"), "w") as f:
    f.write("fio: note: both iodepth >= 1 and synchronous I/O engine are selected\n" + text +
            "\nfio: trailing line\n")
got = fio.run_metrics(fio.read(os.path.join(run, "r1.json")))
assert got["iops"] == want, (got["iops"], want)
r = results.load(d)
c = r.cell("ramlld-bio", "default", "qd32", "randread-4k-qd32")
assert c and c["n"] == 1 and c["iops"] == want, c
assert r.meta["clock"] == "icount" and r.exact and "1 vCPU(s)" in r.clock, r.clock
assert abs(c["instr_per_io"] - 1e9 / want) < 1e-6, c["instr_per_io"]
print(f"ok: fio JSON after noise: {want:.1f} IOPS, {c['instr_per_io']:.1f} instructions per I/O in the report's cell")

# a run cut short beside it: left out of its cell, and the report's notes name its file
with open(os.path.join(run, "r2.json"), "w") as f:
    f.write(text[:len(text) // 2])
r = results.load(d)
c = r.cell("ramlld-bio", "default", "qd32", "randread-4k-qd32")
assert c["n"] == 1 and c["iops"] == want, c
cut = "raw/ramlld-bio/default/qd32/randread-4k-qd32/r2.json"
notes = [n for n in r.notes if n["kind"] == "warn" and n["target"] == "ramlld-bio"]
assert len(notes) == 1 and notes[0]["text"].startswith(cut + ": not a whole JSON object") \
    and notes[0]["text"].endswith("; the run is left out"), r.notes
print(f"ok: a cut run left out, noted: {notes[0]['text']}")

# a cut-short file and one without JSON: BadJSON naming the file
for name, body in (("cut.json", text[:len(text) // 2]), ("none.json", "fio: no output\n")):
    p = os.path.join(d, name)
    with open(p, "w") as f:
        f.write(body)
    try:
        fio.read(p)
    except fio.BadJSON as e:
        assert str(e).startswith(p + ": "), str(e)
        print(f"ok: {name}: {e}")
    else:
        raise AssertionError(f"{name} was read")
try:
    fio.read(os.path.join(d, "missing.json"))
except OSError:
    pass
else:
    raise AssertionError("a missing file was read")
EOF

# as compare/ledger-guest runs it: the IOPS, or exit 1 and a message naming the file
head -c 400 "$fixture" > "$dir/cut.json"
run_rc 1 python3 "$TOP/compare/lib/fio.py" iops "$dir/cut.json" read
expect_in "fio.py's message" "fio.py: $dir/cut.json: not a whole JSON object"
[ -z "$(python3 "$TOP/compare/lib/fio.py" iops "$dir/cut.json" read 2> /dev/null)" ] || fail "fio.py printed an IOPS figure from a cut file"
python3 - "$fixture" "$dir/ok.json" << 'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["jobs"][0]["error"] = 0
d["jobs"][0]["read"]["runtime"] = 3000
d["timestamp_ms"] = 1700000010000
open(sys.argv[2], "w").write("fio: warning\n" + json.dumps(d))
EOF
want=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["jobs"][0]["read"]["iops"])' "$fixture")
expect_eq "fio.py iops" "$want" "$(python3 "$TOP/compare/lib/fio.py" iops "$dir/ok.json" read)"
expect_eq "fio.py window" "1700000007.500,1700000009.500" "$(python3 "$TOP/compare/lib/fio.py" window "$dir/ok.json" read)"
run_rc 2 python3 "$TOP/compare/lib/fio.py" iops "$dir/ok.json" sideways
expect_in "fio.py's usage" "usage: fio.py iops|window FILE read|write | split FILE DIR REP"
# as compare/guest/cells.sh runs it: a run of two jobs, one file a job, each the run with its job
python3 - "$fixture" "$dir/all.r2.json" << 'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
a, b = dict(d["jobs"][0], jobname="randread-4k-qd1"), dict(d["jobs"][0], jobname="randread-4k-qd32")
b["read"] = dict(b["read"], iops=1234.5)
open(sys.argv[2], "w").write("fio: note\n" + json.dumps(dict(d, jobs=[a, b])))
EOF
mkdir -p "$dir/split/randread-4k-qd1" "$dir/split/randread-4k-qd32"
python3 "$TOP/compare/lib/fio.py" split "$dir/all.r2.json" "$dir/split" 2 || fail "fio.py split failed"
[ ! -e "$dir/all.r2.json" ] || fail "fio.py split left the run's file"
job() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["jobs"][0]["jobname"], d["jobs"][0]["read"]["iops"], len(d["jobs"]))' "$1"; }
expect_eq "the qd32 job's file" "randread-4k-qd32 1234.5 1" "$(job "$dir/split/randread-4k-qd32/r2.json")"
expect_eq "the qd1 job's file" "randread-4k-qd1 $want 1" "$(job "$dir/split/randread-4k-qd1/r2.json")"
echo "ok: one reader per format"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/'s breakdown of ramlld-sd (blktrace+btt, perf, the driver's own share) is written and the report's share and Amdahl ceiling match perf's own output
# where: guest
# requires: fio python3 perf blktrace btt
# timeout: 420
. "$TOP/tests/lib.sh"
need_blktrace

out=$RESULTS/compare-breakdown
rm -rf "$out"
"$TOP/compare/guest-run" --out "$out" --level quick --targets ramlld-sd --only qd32/randread-4k-qd32 \
	--profiles default --repeats 1 --runtime 1 --nluns 1 --capacity-mb 16 \
	--ko "$RAMLLD_KO" || fail "compare/guest-run failed"
[ ! -e /sys/module/ramlld ] || fail "compare/guest-run left ramlld loaded"
bd=$out/breakdown/ramlld-sd
for f in btt.txt perf.txt perf-driver.txt profile.env fio-perf.json; do
	[ -s "$bd/$f" ] || fail "breakdown file $f is missing or empty"
done
grep -qx "profile=default" "$bd/profile.env" || fail "profile.env: $(cat "$bd/profile.env")"
if grep -P '^warn\tramlld-sd\t' "$out/notes.tsv"; then
	fail "guest-run noted a warning for the breakdown"
fi
python3 "$TOP/compare/report.py" --quiet "$out" || fail "compare/report.py failed"
python3 - "$out" <<'PY' || fail "the breakdown in results.json/report.md does not match perf's output"
import json, os, re, sys
out = sys.argv[1]
bd = os.path.join(out, "breakdown/ramlld-sd")
res = json.load(open(os.path.join(out, "results.json")))
b = res["breakdown"]["ramlld-sd"]

# btt: a request-based disk gets requests (Q2G) and completes them (D2C) within Q2C; with no
# scheduler blk-mq issues directly, so G2I/I2D may be absent
btt = {k: v["avg_us"] for k, v in b["btt"].items()}
for k in ("Q2G", "D2C", "Q2C"):
    assert btt.get(k) is not None and btt[k] > 0, f"btt {k}: {btt.get(k)}"
assert b["btt"]["Q2C"]["n"] > 100, f"btt saw {b['btt']['Q2C']['n']} I/Os"
assert btt["Q2C"] >= btt["D2C"], f"btt Q2C {btt['Q2C']} < D2C {btt['D2C']}"
print(f"ok: btt Q2C {btt['Q2C']:.1f} us >= D2C {btt['D2C']:.1f} us, {b['btt']['Q2C']['n']} I/Os")

# the driver's own share, recounted here from perf report --sort parent's lines
rows = [(float(m.group(1)), m.group(2)) for m in
        (re.match(r"\s*([\d.]+)%\s+(\S+)\s*$", line) for line in open(os.path.join(bd, "perf-driver.txt"))) if m]
assert rows, "perf-driver.txt has no percentage lines"
own = sum(p for p, name in rows if name.startswith("ramlld_"))
assert own > 0, f"no samples under a ramlld_ function: {rows[:10]}"
assert any(name == "[other]" for _, name in rows), "no [other] line: was --parent applied?"
total = sum(p for p, _ in rows)
assert 99.0 <= total <= 101.0, f"parent shares add up to {total}%"
busy = 100.0 - b["perf"]["share_pct"]["idle"]
d = b["driver"]
assert d is not None, "results.json has no driver share for ramlld-sd"
assert abs(d["own_pct"] - own) < 1e-6, f"own {d['own_pct']} != {own} recounted"
assert abs(d["ceiling"] - busy / (busy - own)) < 1e-9, f"ceiling {d['ceiling']}"
assert d["ceiling"] > 1.0
print(f"ok: driver own {own:.2f}% of samples, {d['own_of_busy_pct']:.1f}% of busy {busy:.1f}% -> ceiling {d['ceiling']:.3f}x")

# the report's breakdown row states the same, as ceiling_text formats it
md = open(os.path.join(out, "report.md")).read()
txt = f"{d['own_of_busy_pct']:,.1f}% → {d['ceiling']:,.2f}x"
row = [line for line in md.splitlines() if line.startswith("| ramlld-sd") and "→" in line]
assert row and txt in row[0], f"report.md breakdown row lacks '{txt}': {row}"
print(f"ok: report.md: {txt}")
PY
echo "ok: breakdown written and its driver share consistent with perf report"

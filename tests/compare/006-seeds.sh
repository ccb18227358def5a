#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: each seed section of the compare report (000-004) at a tiny scale: its table and verdict hold the figures recomputed from the raw runs, and the verdict follows the measured values when they are rewritten
# where: guest
# requires: fio python3 dd taskset
# timeout: 900
. "$TOP/tests/lib.sh"

# One results folder, filled by one guest-run per target, each with only the sections its seeds
# compare it on (a guest-run given --targets runs every section on every target named): LIO for
# seed 000's LUN sweep and seed 003; ramlld-scsi in every seed but 000; ramlld-bio for seed 001;
# scsi_debug for seed 004. One repeat of 1 s on small devices (one shape per target, so each
# target is set up once): a tiny run of each seed section; the verdicts' spread is tested by
# compare/003 on the report's math.
out=$RESULTS/seeds repeats=1
rm -rf "$out"
run_seed() { # TARGET NLUNS ONLY
	"$TOP/compare/guest-run" --out "$out" --level quick --targets "$1" --only "$3" --repeats "$repeats" \
		--runtime 1 --nluns "$2" --capacity-mb 8 --no-breakdown --ko "$RAMLLD_KO" \
		>> "$RESULTS/guest-run.log" 2>&1 ||
		{ tail -n 30 "$RESULTS/guest-run.log"; fail "compare/guest-run failed for $1"; }
	if grep -P '^(skip|fail)\t' "$out/notes.tsv"; then
		fail "$1: guest-run skipped or failed a cell"
	fi
	echo "ok: $1 ran ($(find "$out/raw/$1" -name 'r*.json' | wc -l) runs)"
}
run_seed lio 4 seed-000/randrw-25w-1lun,seed-000/randrw-25w-4lun,seed-003/libaio-4k-qd16x2
run_seed ramlld-scsi 1 seed-001/dd,seed-002/bs-1m,seed-002/bs-16k,seed-003/libaio-4k-qd16x2,seed-004/rand-read
run_seed ramlld-bio 1 seed-001/dd
run_seed sdebug 1 seed-004/rand-read
for m in ramlld scsi_debug tcm_loop target_core_mod; do
	[ ! -e "/sys/module/$m" ] || fail "compare/guest-run left $m loaded"
done

# the plots need matplotlib: Debian's python3 (a pyenv or venv python3 first in PATH may lack it)
py=python3
for p in python3 /usr/bin/python3; do
	if command -v "$p" > /dev/null && "$p" -c 'import matplotlib' 2> /dev/null; then
		py=$p
		break
	fi
done
"$py" - "$out" "$TOP/compare" "$repeats" <<'PY' || fail "a seed section is not what its raw runs say"
import glob, json, os, re, statistics, sys
out, compare = sys.argv[1], sys.argv[2]
sys.dont_write_bytecode = True
REPEATS = int(sys.argv[3])


def fmt(x):
    """report.py's figures: 0 decimals from 100, 1 from 10, else 2."""
    return f"{x:,.{0 if abs(x) >= 100 else 1 if abs(x) >= 10 else 2}f}"


sys.path.insert(0, compare)
import report as report_py  # noqa: E402 (compare/report.py, imported once: a TCG guest is slow to load SciPy)
import seeds  # noqa: E402


def report(full=False):
    """The seed sections of the run: the whole report (report.md and plots) when full, else
    only the seed sections rebuilt from the raw files (what the rewrites below change)."""
    if full:
        assert report_py.main(["--quiet", out]) == 0, "report.py failed"
        return open(os.path.join(out, "report.md")).read()
    meta = report_py.read_env(os.path.join(out, "meta.env"))
    cells, idx = report_py.aggregate(report_py.load_runs(out, meta), report_py.load_targets(out))
    return "\n".join(seeds.markdown(seeds.sections(out, cells, idx)))


def section(md, sid):
    mo = re.search(rf"### Seed {sid}:.*?(?=\n### |\n## |\Z)", md, re.S)
    assert mo, f"report.md has no section for seed {sid}"
    s = mo.group(0)
    for need in ("**The post:**", "**Measured here:**", "| "):
        assert need in s, f"seed {sid}: no {need!r}"
    return s


def table(s, caption):
    """The rows of the table under the caption line that starts with caption, each a dict
    {column head: cell}: a row is looked up by its table, never by its first cell alone (seed
    002 has one table per path, each with the same block sizes in its first column)."""
    lines = s.splitlines()
    i = next((k for k, line in enumerate(lines) if line.startswith(caption)), None)
    assert i is not None, f"no table captioned {caption!r}"
    i += 1
    while not lines[i].startswith("|"):
        i += 1
    head = [c.strip() for c in lines[i].strip("|").split("|")]
    rows = []
    for line in lines[i + 2:]:
        if not line.startswith("|"):
            break
        rows.append(dict(zip(head, (c.strip() for c in line.strip("|").split("|")))))
    return rows


def verdict(s, sid):
    mo = re.search(r"\*\*Verdict: (reproduced|not reproduced|changed since)\*\* — .*?"
                   r"\*\*([\d.,]+) ± ([\d.,]+)x\*\*", s)
    assert mo, f"seed {sid}: no verdict line with a measured figure:\n{s[-600:]}"
    return mo.group(1), float(mo.group(2).replace(",", "")), float(mo.group(3).replace(",", ""))


def runs(t, p, w, s, dd=False):
    """(path, json, value) of each repeat's raw file: IOPS of a fio run, or of the dd run less
    its start-up run (the processes' start-up left out; else over its I/O window)."""
    got = []
    for f in sorted(glob.glob(os.path.join(out, "raw", t, p, w, s, "r*.dd.json" if dd else "r*.json"))):
        if not dd and f.endswith(".dd.json"):
            continue
        j = json.load(open(f))
        v = (j["total"]["ios"] / (j.get("less_startup_s") or j["io_window_s"]) if dd
             else sum(x["read"]["iops"] + x["write"]["iops"] for x in j["jobs"]))
        got.append((f, j, v))
    assert len(got) == REPEATS, f"{t} {w}/{s}: {len(got)} raw runs, expected {REPEATS}"
    return got


def mean(rs):
    return statistics.mean(v for _, _, v in rs)


def check_ratio(sid, got, expect):
    assert abs(got - round(expect, 2)) < 0.006, f"seed {sid}: verdict figure {got}, raw runs say {expect:.4f}"
    print(f"ok: seed {sid}: the verdict's {got} = the raw runs' ratio {expect:.4f}")


def rewrite(rs, value, dd=False):
    """Set every repeat's IOPS (and bytes/s alike) to value: no spread, a known ratio."""
    for f, j, v in rs:
        k = value / v
        if dd:
            j["total"]["iops"] *= k
            j["total"]["mb_s"] *= k
            j["io_window_s"] /= k
            if j.get("less_startup_s"):
                j["less_startup_s"] /= k
        else:
            for x in j["jobs"]:
                for d in ("read", "write"):
                    x[d]["iops"] *= k
                    x[d]["bw_bytes"] *= k
        json.dump(j, open(f, "w"))


def read_mbps(rs):
    return statistics.mean(sum(x["read"]["bw_bytes"] for x in j["jobs"]) / 1e6 for _, j, _ in rs)


md = report(full=True)

# seed 000: the LUN sweep's rows from the raw runs, IOPS per LUN, the CPU split, the plot
s = section(md, "000")
rows = table(s, "IOPS over the LUN count")
for n in (1, 4):
    m = mean(runs("lio", "default", "seed-000", f"randrw-25w-{n}lun"))
    row = next((r for r in rows if (r["target"], r["writes"], r["LUNs"]) == ("lio", "25w", str(n))), None)
    assert row, f"seed 000: no row for lio at {n} LUNs"
    assert row["IOPS"].startswith(f"{m:,.0f}"), f"seed 000: IOPS {row['IOPS']} != raw mean {m:,.0f}"
    assert row["IOPS per LUN"] == f"{m / n:,.0f}", f"seed 000: per LUN {row['IOPS per LUN']} != {m / n:,.0f}"
    usr, sys_ = (float(x) for x in row["CPU usr / sys % (/proc/stat)"].split(" / "))
    assert 0 <= usr <= 100 and 0 < sys_ <= 100, f"seed 000: CPU split {usr} / {sys_}"
    print(f"ok: seed 000: lio at {n} LUNs {row['IOPS']} IOPS, {row['IOPS per LUN']} per LUN, CPU usr/sys {usr} / {sys_}")
check_ratio("000", verdict(s, "000")[1], mean(runs("lio", "default", "seed-000", "randrw-25w-4lun"))
            / mean(runs("lio", "default", "seed-000", "randrw-25w-1lun")))
assert os.path.getsize(os.path.join(out, "seed-000-luns.png")) > 1000, "seed 000: no plot"

# seed 002: the table in the post's shape (one per path: MB/s / IOPS per size and profile), the
# breakdown, the verdict from the blindless averages (checked before seed 001 and 004 rewrite
# runs: each seed reads its own cells, but a report is written from all of them)
s = section(md, "002")
for t in ("ramlld-scsi",):
    rows = table(s, f"{t}: MB/s")
    for bs, sec in ((1048576, "bs-1m"), (16384, "bs-16k")):
        row = next((r for r in rows if r["blocksize (bytes)"] == str(bs)), None)
        assert row, f"seed 002: {t} has no {bs} row"
        for ms in (512, 64):
            rs = runs(t, f"seed-002-ra2m-ms{ms}k", "seed-002", sec)
            mbps, iops = read_mbps(rs), mean(rs)
            cell = row.get(f"RA 2M / {ms}") or ""
            mb_txt, _, io_txt = cell.rpartition(" / ")
            assert mb_txt.split(" ± ")[0] == fmt(mbps) and io_txt == fmt(iops), \
                f"seed 002: {t} {bs} at RA 2M / {ms}: '{cell}', raw runs say {fmt(mbps)} / {fmt(iops)}"
            print(f"ok: seed 002: {t} {bs} at RA 2M / {ms}: {cell} (MB/s / IOPS) as the raw runs")
bd = table(s, "Breakdown at read-ahead 2M")
row = next((r for r in bd if (r["target"], r["block size"], r["max_sectors_kb"]) == ("ramlld-scsi", "1M", "64")), None)
assert row, "seed 002: no breakdown row for ramlld-scsi 1M at max_sectors_kb 64"
# 1 MiB buffered reads cut at 64 KiB: 16 requests per MiB read (read-ahead merges none bigger)
assert abs(float(row["requests / MiB"].split(" ± ")[0]) - 16) < 0.5 and row["KiB / request"] == "64", \
    f"seed 002: breakdown {row}"
print(f"ok: seed 002: breakdown at max_sectors_kb 64: {row['requests / MiB']} requests / MiB of {row['KiB / request']} KiB")


def avg_mb(ms):
    return statistics.mean(read_mbps(runs("ramlld-scsi", f"seed-002-ra2m-ms{ms}k", "seed-002", b))
                           for b in ("bs-1m", "bs-16k"))


check_ratio("002", verdict(s, "002")[1], avg_mb(64) / avg_mb(512))
assert os.path.getsize(os.path.join(out, "seed-002-grid.png")) > 1000, "seed 002: no plot"

# seed 003: SCST named as not in Debian, LIO against ramlld-scsi measured
s = section(md, "003")
assert "SCST is not in Debian" in s, "seed 003: SCST not named as missing"
check_ratio("003", verdict(s, "003")[1],
            mean(runs("ramlld-scsi", "default", "seed-003", "libaio-4k-qd16x2"))
            / mean(runs("lio", "default", "seed-003", "libaio-4k-qd16x2")))

# seed 001 and 004: the verdict follows the runs when they are rewritten to known ratios
for sid, a, b, p, w, sec, dd, claim in (
        ("001", "ramlld-bio", "ramlld-scsi", "seed-001", "seed-001", "dd", True, 2.0),
        ("004", "ramlld-scsi", "sdebug", "default", "seed-004", "rand-read", False, 1.09)):
    s = section(report(), sid)
    ra, rb = runs(a, p, w, sec, dd), runs(b, p, w, sec, dd)
    check_ratio(sid, verdict(s, sid)[1], mean(ra) / mean(rb))
    if sid == "004":
        util = re.findall(r"K \(([\d.]+) %\)", s)
        assert util and all(0 < float(u) <= 100 for u in util), f"seed 004: util % {util}"
        print(f"ok: seed 004: util % per cell {util}")
    x = rb[0][2]
    for k, expect in ((claim, "reproduced"), (0.5, "not reproduced"), (claim * 2, "changed since")):
        rewrite(runs(b, p, w, sec, dd), x, dd)
        rewrite(runs(a, p, w, sec, dd), x * k, dd)
        cat, r, sd = verdict(section(report(), sid), sid)
        assert (cat, sd) == (expect, 0) and abs(r - round(k, 2)) < 0.006, \
            f"seed {sid}: runs rewritten to {k}x gave '{cat}' {r} ± {sd}, expected '{expect}' {k:.2f} ± 0"
        print(f"ok: seed {sid}: runs rewritten to {k:.2f}x -> verdict '{cat}' {r}")
PY
echo "ok: every seed section is filled from its measured runs"

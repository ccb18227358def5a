#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: each seed section of the compare report (000-004) at a tiny scale: its claim line gives the post's figures, its table, plot data and verdict hold the figures recomputed from the raw runs (seed 001's text names what ran), its plot is a PNG, and the verdict follows the measured values when they are rewritten
# where: guest
# requires: fio python3 dd taskset
# timeout: 1800
. "$TOP/tests/lib.sh"
# LIO (seed 000, 003) and scsi_debug (004), loaded by guest-run's targets
need_module_files target_core_mod tcm_loop scsi_debug

# One results folder, filled by one guest-run per target, each with only the sections its seeds
# compare it on (a guest-run given --targets runs every section on every target named): LIO for
# seed 000's LUN sweep and seed 003; ramlld-sd in every seed but 000; ramlld-bio for seed 001;
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
run_seed ramlld-sd 1 seed-001/dd,seed-002/bs-1m,seed-002/bs-16k,seed-003/libaio-4k-qd16x2,seed-004/rand-read
run_seed ramlld-bio 1 seed-001/dd
run_seed sdebug 1 seed-004/rand-read
for m in ramlld scsi_debug tcm_loop target_core_mod; do
	[ ! -e "/sys/module/$m" ] || fail "compare/guest-run left $m loaded"
done

# shellcheck source=compare/lib/report-python.sh
. "$TOP/compare/lib/report-python.sh"
py=$(report_python)
in_compare "$py" - "$out" "$TOP/compare" "$repeats" << 'PY' || fail "a seed section is not what its raw runs say"
import glob, json, os, re, statistics, sys
out, compare = sys.argv[1], sys.argv[2]
REPEATS = int(sys.argv[3])


def fmt(x):
    """report.py's figures: 0 decimals from 100, 1 from 10, else 2."""
    return f"{x:,.{0 if abs(x) >= 100 else 1 if abs(x) >= 10 else 2}f}"


import report as report_py  # noqa: E402 (compare/report.py, imported once: a TCG guest is slow to load SciPy)
from lib import results, seed as seedlib  # noqa: E402
from sections import seed000, seed001, seed002, seed003, seed004  # noqa: E402
SEEDS = [seed000, seed001, seed002, seed003, seed004]


def secs_now():
    """The seed sections' data of the run as it is now (what the plots draw): {id: sec}."""
    run = results.load(out)
    return {x["id"]: x for x in (m.compute(run) for m in SEEDS) if x}


def first(cell):
    """A table cell's figure without its spread."""
    return cell.split(" ± ")[0]


def report(full=False):
    """The seed sections of the run: the whole report (report.md and plots) when full, else
    only the seed sections rebuilt from the raw files (what the rewrites below change)."""
    if full:
        assert report_py.main(["--quiet", out]) == 0, "report.py failed"
        return open(os.path.join(out, "report.md")).read()
    run = results.load(out)
    return "\n".join("\n".join(seedlib.markdown(x)) for x in (m.compute(run) for m in SEEDS) if x)


# The figures each post printed (read from the posts in the shared seeds folder, not from
# compare/sections/seed*.py): a section's claim line must give them all.
POST = {
    "000": ("~1185K", "~1175K", "~944K", "~928K", "~93.5K per LUN", "1.26x", "~95 % user"),
    "001": ("fake_rw=1 ~216K", "~190K", "~380K", "~2x", "~800K", "~651K"),
    "002": ("64 MiB down to 16 KiB", "3 runs", "~30 %", "122.96", "158.73", "120.71", "159.24"),
    "003": ("24.0K vs 22.0K", "184K vs 167K", "1584 vs 1262", "1409 vs 992", "iodepth 16 x 2"),
    "004": ("~9 %", "119040 vs 109110", "119579 vs 107988", "119632 vs 110474",
            "118094 vs 108037", "77.79 % vs 42.09 %"),
}


def section(md, sid):
    """Seed sid's section of md, checked for its three parts: the post's claim line with the
    post's own figures, a table under the measured-here text, and one verdict line."""
    mo = re.search(rf"## Seed {sid}:.*?(?=\n## |\Z)", md, re.S)
    assert mo, f"report.md has no section for seed {sid}"
    s = mo.group(0)
    for need in ("**Measured here:**", "\n| "):
        assert need in s, f"seed {sid}: no {need!r}"
    claim = re.search(r"^\*\*The post:\*\* (.*)$", s, re.M)
    assert claim, f"seed {sid}: no claim line"
    miss = [x for x in POST[sid] if x not in claim.group(1)]
    assert not miss, f"seed {sid}: the claim line lacks the post's {miss}: {claim.group(1)}"
    assert len(re.findall(r"^\*\*Verdict: ", s, re.M)) == 1, f"seed {sid}: not one verdict line"
    return s


def plot(sid, name, s):
    """The section links its plot, a PNG file of a real figure."""
    assert f"![{name}]({name})" in s, f"seed {sid}: the section does not show {name}"
    f = os.path.join(out, name)
    assert os.path.isfile(f) and os.path.getsize(f) > 1000, f"seed {sid}: no plot {name}"
    with open(f, "rb") as fh:
        assert fh.read(8) == b"\x89PNG\r\n\x1a\n", f"seed {sid}: {name} is not a PNG"
    print(f"ok: seed {sid}: plot {name}, {os.path.getsize(f)} bytes")


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
    mo = re.search(r"\*\*Verdict: (reproduced|not reproduced|inconclusive|not decidable)\*\* — "
                   r".*?\*\*([\d.,]+)(?: ± ([\d.,]+))?x\*\*", s)
    assert mo, f"seed {sid}: no verdict line with a measured figure:\n{s[-600:]}"
    return mo.group(1), float(mo.group(2).replace(",", "")), float((mo.group(3) or "0").replace(",", ""))


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
            for key in ("io_window_s", "elapsed_s", "startup_s", "less_startup_s"):
                if j.get(key):
                    j[key] /= k
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
    assert row["IOPS"].startswith(fmt(m)), f"seed 000: IOPS {row['IOPS']} != raw mean {fmt(m)}"
    assert row["IOPS per LUN"] == fmt(m / n), f"seed 000: per LUN {row['IOPS per LUN']} != {fmt(m / n)}"
    usr, sys_ = (float(x) for x in row["CPU usr / sys % (/proc/stat)"].split(" / "))
    assert 0 <= usr <= 100 and 0 < sys_ <= 100, f"seed 000: CPU split {usr} / {sys_}"
    x1 = m / mean(runs("lio", "default", "seed-000", "randrw-25w-1lun"))
    assert first(row["x 1 LUN"]) == f"{x1:,.2f}", f"seed 000: x 1 LUN {row['x 1 LUN']} != {x1:.2f}"
    print(f"ok: seed 000: lio at {n} LUNs {row['IOPS']} IOPS, {row['IOPS per LUN']} per LUN, x 1 LUN {row['x 1 LUN']}, CPU usr/sys {usr} / {sys_}")
check_ratio("000", verdict(s, "000")[1], mean(runs("lio", "default", "seed-000", "randrw-25w-4lun"))
            / mean(runs("lio", "default", "seed-000", "randrw-25w-1lun")))
plot("000", "seed-000-luns.png", s)
SECS = secs_now()
line = next(x for x in SECS["000"]["sweep"] if (x["target"], x["mix"]) == ("lio", "25w"))
want = [mean(runs("lio", "default", "seed-000", f"randrw-25w-{n}lun")) for n in (1, 4)]
assert line["luns"] == [1, 4] and all(abs(a / b - 1) < 1e-9 for a, b in zip(line["iops"], want)), \
    f"seed 000: the plot's lio line {line['luns']} {line['iops']}, raw runs say [1, 4] {want}"
print(f"ok: seed 000: the plot's lio 25w line is the raw runs' IOPS at 1 and 4 LUNs")

# seed 002: the table in the post's shape (one per path: MB/s / IOPS per size and profile), the
# breakdown, the verdict from the blindless averages (checked before seed 001 and 004 rewrite
# runs: each seed reads its own cells, but a report is written from all of them)
s = section(md, "002")
for t in ("ramlld-sd",):
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
row = next((r for r in bd if (r["target"], r["block size"], r["max_sectors_kb"]) == ("ramlld-sd", "1M", "64")), None)
assert row, "seed 002: no breakdown row for ramlld-sd 1M at max_sectors_kb 64"
# 1 MiB buffered reads cut at 64 KiB: 16 requests per MiB read (read-ahead merges none bigger);
# on the host clock a few read-ahead windows end short (16.4 a MiB, 63 KiB each, once), so the
# size is checked to be at most 64 and near it, never above
kib = int(row["KiB / request"].replace(",", ""))
assert abs(float(row["requests / MiB"].split(" ± ")[0]) - 16) < 0.5 and 60 <= kib <= 64, \
    f"seed 002: breakdown {row}"
print(f"ok: seed 002: breakdown at max_sectors_kb 64: {row['requests / MiB']} requests / MiB of {row['KiB / request']} KiB")


def avg_mb(ms):
    return statistics.mean(read_mbps(runs("ramlld-sd", f"seed-002-ra2m-ms{ms}k", "seed-002", b))
                           for b in ("bs-1m", "bs-16k"))


check_ratio("002", verdict(s, "002")[1], avg_mb(64) / avg_mb(512))
plot("002", "seed-002-grid.png", s)

# seed 003: SCST named as not in Debian, LIO against ramlld-sd measured
s = section(md, "003")
assert "SCST is not in Debian" in s, "seed 003: SCST not named as missing"
row = next(r for r in table(s, "The post's four tests") if r["test"].startswith("(2) "))
m_scsi, m_lio = (mean(runs(t, "default", "seed-003", "libaio-4k-qd16x2")) for t in ("ramlld-sd", "lio"))
got = (first(row["ramlld-sd"]), first(row["lio"]), first(row["ramlld-sd / lio"]))
assert got == (fmt(m_scsi), fmt(m_lio), f"{m_scsi / m_lio:,.2f}") and row["the post: SCST / TCM"] == "184,000 / 167,000 IOPS", \
    f"seed 003: test (2) row {row}, raw runs say {fmt(m_scsi)} / {fmt(m_lio)} / {fmt(m_scsi / m_lio)}"
print(f"ok: seed 003: test (2) ramlld-sd {got[0]}, lio {got[1]}, ratio {got[2]} as the raw runs")
plot("003", "seed-003-ratios.png", s)
bars = SECS["003"]["bars"]
assert bars["groups"] == ["(2) libaio-4k-qd16x2"] and abs(bars["series"][0][1][0] - 184000 / 167000) < 1e-9 \
    and [x[0] for x in bars["series"]] == ["the post: SCST / TCM", "ramlld-sd / lio"] \
    and abs(bars["series"][1][1][0] / (m_scsi / m_lio) - 1) < 1e-4, f"seed 003: the plot's bars {bars}"
print(f"ok: seed 003: the plot's bars are the post's {184 / 167:.3f} and the raw runs' {m_scsi / m_lio:.3f}")
assert verdict(s, "003")[0] == "not decidable" and "SCST is not in Debian" in s, \
    f"seed 003: verdict {verdict(s, '003')[0]!r} with SCST absent"
print("ok: seed 003: not decidable (SCST is not in Debian)")
check_ratio("003", verdict(s, "003")[1],
            mean(runs("ramlld-sd", "default", "seed-003", "libaio-4k-qd16x2"))
            / mean(runs("lio", "default", "seed-003", "libaio-4k-qd16x2")))

# seed 001: the table of the dd run from the raw runs (IOPS over the wall and less start-up),
# the "Measured here" text names what ran (targets, dd per CPU, device size), the plot's bars
s = section(md, "001")
rows = {r["target"]: r for r in table(s, "IOPS of the dd run")}
assert sorted(rows) == ["ramlld-bio", "ramlld-sd"], f"seed 001: table rows {sorted(rows)}"
less = {t: mean(runs(t, "seed-001", "seed-001", "dd", True)) for t in rows}
for t, r in rows.items():
    rs = runs(t, "seed-001", "seed-001", "dd", True)
    wall = statistics.mean(j["total"]["ios"] / j["elapsed_s"] for _, j, _ in rs)
    got = (first(r["IOPS, wall"]), first(r["IOPS, less start-up"]), first(r["x ramlld-sd (less start-up)"]))
    want = (fmt(wall), fmt(less[t]), f"{less[t] / less['ramlld-sd']:,.2f}")
    assert got == want and r["the post"] == {"ramlld-bio": "380K", "ramlld-sd": "190K"}[t], \
        f"seed 001: {t} row {r}, raw runs say {want}"
    print(f"ok: seed 001: {t} IOPS wall {got[0]}, less start-up {got[1]}, x ramlld-sd {got[2]} as the raw runs")
said = re.search(r"\*\*Measured here:\*\* (.*)", s).group(1)
ctx = json.load(open(runs("ramlld-bio", "seed-001", "seed-001", "dd", True)[0][0]))["context"]
for need in ("ramlld-bio, ", "ramlld-sd, ", f"{ctx['procs_per_cpu']} per CPU", f"guest's {ctx['online_cpus']} CPU",
             f"One {ctx['size_bytes'] >> 20} MiB device"):
    assert need in said, f"seed 001: the measured-here text lacks {need!r}: {said}"
for gone in ("ramlld-mq", "scsi_debug delay=0 fake_rw", "three paths"):
    assert gone not in said, f"seed 001: the measured-here text names {gone!r}, which did not run: {said}"
print(f"ok: seed 001: the measured-here text names ramlld-bio and ramlld-sd, {ctx['procs_per_cpu']} dd per CPU, {ctx['size_bytes'] >> 20} MiB")
plot("001", "seed-001-ratios.png", s)
bars = SECS["001"]["bars"]
assert bars["groups"] == ["ramlld-bio", "ramlld-sd"] and bars["series"][0][1] == [2.0, 1.0] and all(
    abs(a - less[t] / less["ramlld-sd"]) < 1e-9 for a, t in zip(bars["series"][1][1], bars["groups"])), \
    f"seed 001: the plot's bars {bars}"
print(f"ok: seed 001: the plot's bars are the post's 2.00 / 1.00 and the raw runs' {less['ramlld-bio'] / less['ramlld-sd']:.3f} / 1.000")

# seed 004: the rand-read row from the raw runs (KB/s as the post's KiB/s, fio's util %), the plot
s = section(md, "004")
row = next(r for r in table(s, "The post's four jobs") if r["job"] == "rand-read")
kbs = {}
for t in ("ramlld-sd", "sdebug"):
    rs = runs(t, "default", "seed-004", "rand-read")
    kbs[t] = statistics.mean(sum(x[d]["bw_bytes"] for x in j["jobs"] for d in ("read", "write")) / 1024 / 1e3
                             for _, j, _ in rs)
    util = statistics.mean(j["disk_util"][0]["util"] for _, j, _ in rs)
    want = f"{fmt(kbs[t])}K ({util:,.1f} %)"
    assert row[t] == want, f"seed 004: rand-read {t} '{row[t]}', raw runs say '{want}'"
    print(f"ok: seed 004: rand-read {t} {row[t]} as the raw runs")
r4 = mean(runs("ramlld-sd", "default", "seed-004", "rand-read")) / mean(runs("sdebug", "default", "seed-004", "rand-read"))
assert first(row["ramlld-sd / sdebug"]) == f"{r4:,.3f}" and row["ratio"] == "1.107", f"seed 004: rand-read row {row}"
plot("004", "seed-004-ratios.png", s)
bars = SECS["004"]["bars"]
assert bars["groups"] == ["rand-read"] and abs(bars["series"][0][1][0] - 119579 / 107988) < 1e-9 \
    and abs(bars["series"][1][1][0] - r4) < 1e-9, f"seed 004: the plot's bars {bars}"
print(f"ok: seed 004: the plot's bars are the post's 1.107 and the raw runs' {r4:.3f}")

# seed 001 and 004: the verdict follows the runs when they are rewritten to known ratios
for sid, a, b, p, w, sec, dd, claim in (
        ("001", "ramlld-bio", "ramlld-sd", "seed-001", "seed-001", "dd", True, 2.0),
        ("004", "ramlld-sd", "sdebug", "default", "seed-004", "rand-read", False, 1.09)):
    s = section(report(), sid)
    ra, rb = runs(a, p, w, sec, dd), runs(b, p, w, sec, dd)
    check_ratio(sid, verdict(s, sid)[1], mean(ra) / mean(rb))
    x = rb[0][2]
    # one run on the host's clock has no interval: not decidable, its figure said all the same
    for k, expect in ((claim, "reproduced"), (0.5, "not reproduced"), (claim * 2, "not reproduced")):
        expect = expect if REPEATS > 1 else "not decidable"
        rewrite(runs(b, p, w, sec, dd), x, dd)
        rewrite(runs(a, p, w, sec, dd), x * k, dd)
        cat, r, sd = verdict(section(report(), sid), sid)
        assert (cat, sd) == (expect, 0) and abs(r - round(k, 2)) < 0.006, \
            f"seed {sid}: runs rewritten to {k}x gave '{cat}' {r} ± {sd}, expected '{expect}' {k:.2f} ± 0"
        print(f"ok: seed {sid}: runs rewritten to {k:.2f}x -> verdict '{cat}' {r}")
PY
echo "ok: every seed section is filled from its measured runs"

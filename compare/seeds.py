#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# compare/seeds.py: the report's seed sections (imported by report.py): for each seed post, its
# claim in one line with its numbers, the same comparison measured in this run, a table in the
# post's shape, a plot for the sweeps (seed 000's LUNs, seed 002's block sizes) and a verdict.
"""The seed sections of the comparison report.

sections(root, cells, idx) -> list of section dicts (claim, tables, verdict, ...), all figures
computed from the run's cells and raw files (fio JSON, .cpu files with /proc/stat and the first
device's /sys/block/DEV/stat before and after each run). markdown(sections) -> report lines.
plots(root, sections, plt) -> PNG names. verdict() is the rule every section applies.
"""

import glob
import json
import math
import os
import re
import statistics

# Student's t, two-sided 95 %, by degrees of freedom (larger df: the nearest smaller entry)
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
        9: 2.262, 10: 2.228, 15: 2.131, 20: 2.086, 30: 2.042, 60: 2.000}
# "reproduced" also when the measured ratio is within this factor of the post's
TOLERANCE = 0.15
VERDICT_RULE = (
    "Verdict rule on the host's clock: the measured ratio's 95 % interval is mean ± t·sd/√n "
    "(Student's t, n the fewer repeats of the two cells, sd propagated from both cells' sample "
    "deviations). An interval holding 1.0 (no difference beyond the spread) or a ratio on the "
    f"other side of 1.0 is **not reproduced**; the same direction with the post's ratio inside "
    f"the interval or within ±{TOLERANCE:.0%} of it is **reproduced**; the same direction at "
    "another size is **changed since** (the effect is there, the kernel moved its size).")
# On the exact clock (QEMU -icount: a run's IOPS are an instruction count) every figure behind
# a ratio must have at least two runs within this % of their mean (docs/clock.md's check;
# report.py's DETERMINISM_PCT is this constant). Runs that agree make the spread meaningless
# for a t interval (it measures the clock's determinism, not a sampling error), so the ratio
# itself is compared with the post's band; runs that do not agree decide nothing.
EXACT_AGREE_PCT = 0.5
# A ratio of two figures each within EXACT_AGREE_PCT of its runs' mean is known to within
# about twice that: closer than this to 1.0 is no difference.
EXACT_NO_DIFFERENCE = 2 * EXACT_AGREE_PCT / 100
VERDICT_RULE_EXACT = (
    "Verdict rule on the exact clock (icount): a figure's runs are a determinism check, not a "
    f"sample: each figure behind a ratio needs two runs or more within {EXACT_AGREE_PCT} % of "
    "their mean, else the verdict is **not exact** (nothing decided; which runs differed is "
    "said). A ratio within "
    f"{EXACT_NO_DIFFERENCE:.0%} of 1.0 (the two figures' own agreement) or on the other side of "
    "1.0 from the post's is **not reproduced**; inside the post's band it is **reproduced**; the "
    "same direction outside it is **changed since**. The band is the post's own precision: its "
    "claim read to the last digit the post gave (\"2x\": 1.5-2.5; \"~30 %\": 1.25-1.35; \"about "
    "9 %\": 1.085-1.095), widened to every ratio of the post's own figures for that claim (its "
    "four jobs, its two read-aheads, its two mixes): the post measured on other hardware and "
    "kernels with a host clock, so no closer agreement than what it printed can be asked for.")


# The post's band per claim (the exact clock's rule above): (lo, hi, why).
BANDS = {
    "000": (1185 / 944, 1175 / 928, "its two mixes: 1185K / 944K and 1175K / 928K"),
    "001": (1.5, 2.5, "\"a factor of 2x\", read to the digit it gave (2x against its 3x)"),
    "001-fakerw-lld": (215.5 / 190.5, 216.5 / 189.5, "~216K / ~190K, each to 1K"),
    "001-fakerw-rw": (799.5 / 651.5, 800.5 / 650.5, "about 800K / 651K, each to 1K"),
    "002": (1.25, 1.35, "\"~30 %\" to the 10 %; its 1.29x and 1.32x inside"),
    "003": (24.014 / 22.028, 184 / 167, "its two 4k tests, 1.090x and 1.102x"),
    "004": (1.083, 1.107, "\"about 9 %\" (1.085-1.095), widened to its four jobs' 1.083-1.107"),
}


def band_of(key):
    return BANDS[key][:2]


def agreement(figures):
    """The exact clock's determinism check of the figures behind a ratio: figures is a list of
    (label, [value per run]). Worst spread (max - min, % of the mean) over the figures; ok when
    every figure has two runs or more within EXACT_AGREE_PCT, None when one has a single run
    (not checked), False when runs differ beyond it."""
    worst, what, ok = 0.0, [], True
    for label, xs in figures:
        xs = [x for x in xs if x]
        if len(xs) < 2:
            what.append(f"{label}: {len(xs)} run(s), not checked")
            ok = None if ok else ok
            continue
        pct = (max(xs) - min(xs)) * 100 / statistics.fmean(xs)
        worst = max(worst, pct)
        if pct > EXACT_AGREE_PCT:
            ok = False
            what.append(f"{label}: " + " vs ".join(fmt(x) for x in xs) + f" ({pct:.2f} % apart)")
    return {"pct": worst, "ok": ok, "what": "; ".join(what)}


def cell_agreement(cells, metric="iops"):
    """agreement() of cells' runs on metric (cells as report.py's aggregate() makes them)."""
    return agreement([(f"{c['target']} {c['section']}", [r.get(metric) for r in c["runs"]])
                      for c in cells if c])


# ---------------------------------------------------------------- numbers
def fmt(x, nd=None):
    if x is None:
        return "-"
    if nd is None:
        nd = 0 if abs(x) >= 100 else 1 if abs(x) >= 10 else 2
    return f"{x:,.{nd}f}"


def pm(m, s, nd=None):
    if m is None:
        return "-"
    return f"{fmt(m, nd)} ± {fmt(s, nd)}" if s else fmt(m, nd)


def mean_sd(xs):
    xs = [x for x in xs if x is not None]
    if not xs:
        return None, None
    return statistics.mean(xs), (statistics.stdev(xs) if len(xs) > 1 else 0.0)


def ratio(a, sa, b, sb):
    """a / b and its sd propagated from both (first order)."""
    if a is None or not b:
        return None, None
    r = a / b
    return r, r * math.sqrt(((sa or 0) / a) ** 2 + ((sb or 0) / b) ** 2) if a else 0.0


def interval95(r, sd, n):
    if r is None or n < 2:
        return None, None
    t = T975[max(k for k in T975 if k <= n - 1)]
    half = t * (sd or 0) / math.sqrt(n)
    return r - half, r + half


def verdict(r, sd, n, claim, band=None, agree=None):
    """reproduced / not reproduced / changed since (/ not exact), for a measured ratio r ± sd
    (n repeats) against the post's ratio claim (> 1 or < 1: the direction the post found).
    agree None: the host's clock, Student's t rule. agree an agreement() dict: the exact clock,
    r itself against band (lo, hi), the post's own precision."""
    v = {"category": "not measured", "r": r, "sd": sd, "lo": None, "hi": None, "n": n,
         "claim": claim, "exact": agree is not None, "band": band, "agree": agree}
    if r is None:
        return v
    up = claim > 1
    if agree is not None:
        blo, bhi = band if band else (claim, claim)
        if agree["ok"] is not True:
            v["category"] = "not exact"
        elif abs(r - 1.0) <= EXACT_NO_DIFFERENCE or (r > 1) != up:
            v["category"] = "not reproduced"
        else:
            v["category"] = "reproduced" if blo <= r <= bhi else "changed since"
        return v
    lo, hi = interval95(r, sd, n)
    if lo is None:
        lo = hi = r
    if lo <= 1.0 <= hi or (r > 1) != up:
        cat = "not reproduced"
    elif lo <= claim <= hi or abs(r / claim - 1) <= TOLERANCE:
        cat = "reproduced"
    else:
        cat = "changed since"
    v.update(category=cat, lo=lo, hi=hi)
    return v


def verdict_text(v, what, claim_text):
    if v["r"] is None:
        return f"**Verdict: not measured** — {what}: no cells in this run (see Notes)."
    if v["exact"]:
        a = v["agree"]
        blo, bhi = v["band"] or (v["claim"], v["claim"])
        head = f"**Verdict: {v['category']}** — {what}: **{fmt(v['r'], 3)}x**"
        if v["category"] == "not exact":
            why = (f"the runs differ beyond {EXACT_AGREE_PCT} %: {a['what']}" if a["ok"] is False
                   else a["what"] or "one run")
            return (f"{head} (exact clock, icount), not decided: {why}. The post: "
                    f"{fmt(v['claim'], 2)}x ({claim_text}).")
        return (f"{head} (exact clock, icount: every figure's runs within {a['pct']:.3f} %) "
                f"against the post's {fmt(v['claim'], 2)}x ({claim_text}; its band "
                f"{fmt(blo, 3)}-{fmt(bhi, 3)}).")
    return (f"**Verdict: {v['category']}** — {what}: **{fmt(v['r'], 2)} ± {fmt(v['sd'], 2)}x** "
            f"(host clock; 95 % interval {fmt(v['lo'], 2)}-{fmt(v['hi'], 2)}, n = {v['n']}) "
            f"against the post's {fmt(v['claim'], 2)}x ({claim_text}).")


def cell_ratio(idx, a, b, metric="iops"):
    """(r, sd, n) of cell a over cell b on metric (cells are idx keys)."""
    ca, cb = idx.get(a), idx.get(b)
    if not ca or not cb or not ca.get(metric) or not cb.get(metric):
        return None, None, 0
    r, sd = ratio(ca[metric], ca[metric + "_std"], cb[metric], cb[metric + "_std"])
    return r, sd, min(ca["n"], cb["n"])


# ---------------------------------------------------------------- raw files
def read_cpu_file(path):
    """/proc/stat's cpu line and the first device's stat before and after a run."""
    d = {}
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                w = line.split()
                if len(w) > 2 and w[0] in ("before", "after"):
                    d[w[0]] = [int(x) for x in w[2:]]
                elif len(w) > 1 and w[0] in ("disk_before", "disk_after"):
                    d[w[0]] = [int(x) for x in w[1:]]
                elif len(w) == 2 and w[0] == "clk_tck":
                    d["clk_tck"] = int(w[1])
    except (OSError, ValueError):
        return None
    return d


def queue_says(path, key, value):
    """Whether a run's queue read-back (KEY=VALUE lines) holds KEY=VALUE."""
    try:
        with open(path, encoding="utf-8") as fh:
            return f"{key}={value}" in (line.strip() for line in fh)
    except OSError:
        return False


def run_extras(root, run):
    """A run's CPU split (/proc/stat: user+nice and system+irq+softirq as % of all CPU time),
    busy CPU µs, the first device's request counters and fio's util %."""
    f = os.path.join(root, run["file"])
    base = f[: -len(".dd.json")] if f.endswith(".dd.json") else f[: -len(".json")]
    x = {}
    c = read_cpu_file(base + ".cpu")
    if c and "before" in c and "after" in c:
        dl = [a - b for a, b in zip(c["after"], c["before"])]
        total = sum(dl[:8])
        if total > 0:
            x["usr_pct"] = (dl[0] + dl[1]) * 100 / total
            x["sys_pct"] = (dl[2] + dl[5] + dl[6]) * 100 / total
            x["busy_us"] = (total - dl[3] - dl[4]) * 1e6 / c.get("clk_tck", 100)
    if c and "disk_before" in c and "disk_after" in c:
        dd = [a - b for a, b in zip(c["disk_after"], c["disk_before"])]
        if len(dd) >= 11:
            x["disk"] = {"reads": dd[0], "read_merges": dd[1], "read_sectors": dd[2],
                         "writes": dd[4], "write_sectors": dd[6], "io_ticks_ms": dd[9]}
    if not f.endswith(".dd.json"):
        try:
            with open(f, encoding="utf-8") as fh:
                j = json.load(fh)
            du = j.get("disk_util") or []
            # a queue with iostats=0 (a bio disk's default) counts no busy time: no util %
            if du and not queue_says(base + ".queue", "iostats", "0"):
                x["util_pct"] = du[0].get("util")
            jobs = j.get("jobs") or []
            if jobs:
                x["fio_usr_pct"] = statistics.mean(jb["usr_cpu"] for jb in jobs)
                x["fio_sys_pct"] = statistics.mean(jb["sys_cpu"] for jb in jobs)
        except (OSError, ValueError, KeyError):
            pass
    return x


def extras_mean(root, cell, key, sub=None):
    vals = []
    for r in cell["runs"]:
        x = run_extras(root, r)
        v = x.get(key) if sub is None else (x.get(key) or {}).get(sub)
        if v is not None:
            vals.append(v)
    return mean_sd(vals)


def targets_of(cells, w):
    order = ["ramlld-bio", "ramlld-mq", "ramlld-scsi", "ramlld-scsi-tar", "sdebug",
             "sdebug-norwlock", "sdebug-fakerw", "lio"]
    ts = {c["target"] for c in cells if c["workload"] == w}
    return sorted(ts, key=lambda t: (order.index(t) if t in order else len(order), t))


def run_shape(root):
    """The run's time a job and device size as its meta.env says (what the sections' texts
    must give, not the defaults)."""
    meta = {}
    try:
        with open(os.path.join(root, "meta.env"), encoding="utf-8") as f:
            meta = dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)
    except OSError:
        pass
    rt, cap = meta.get("runtime"), meta.get("capacity_mb")
    return {"runtime": f"{rt} s" if rt else "RUNTIME", "mib": f"{cap} MiB" if cap else "128 MiB"}


# ---------------------------------------------------------------- seed 000
SEED000_POST = {("25w", 32): 1185e3, ("75w", 32): 1175e3, ("25w", 10): 944e3, ("75w", 10): 928e3}


def seed000(root, cells, idx, exact=False):
    w = "seed-000"
    sec = {"id": "000", "workload": w,
           "title": "LIO rd_mcp behind tcm_loop: mixed random IOPS over 1-32 LUNs",
           "claim": "32 rd_mcp LUNs behind tcm_loop: ~1185K IOPS (randrw 25 % writes) and ~1175K "
                    "(75 %); 10 LUNs ~944K / ~928K (~93.5K per LUN), so 1.26x from 10 to 32 "
                    "LUNs; CPU ~95 % user, ~5 % sys (3.6-rc0, 2x Xeon E5-2687W = 32 threads, "
                    "500 MB LUNs, numjobs=32, iodepth 64, batch 4/32)",
           "compared": "`lio`: LIO rd_mcp with emulate_write_cache=1, one tcm_loop target (its own "
                       "SCSI host) per LUN, as the post; `ramlld-scsi`: ramlld's SCSI LLD, one "
                       "host with N LUNs (host-wide tags). The post's fio job on the first N "
                       "LUNs, one fio job per guest CPU instead of 32, LUNs of 16 MiB instead "
                       "of 500 MB (guest memory); CPU split from /proc/stat over each run "
                       "(% of all CPU time), and fio's own usr/sys per job.",
           "tables": [], "sweep": [], "notes": []}
    rows = []
    for t in targets_of(cells, w):
        for mix in ("25w", "75w"):
            for p in sorted({c["profile"] for c in cells if c["workload"] == w}):
                pts = []
                for c in cells:
                    mo = re.fullmatch(rf"randrw-{mix}-(\d+)lun", c["section"])
                    if c["workload"] != w or c["target"] != t or c["profile"] != p or not mo:
                        continue
                    pts.append((int(mo.group(1)), c))
                pts.sort(key=lambda x: x[0])
                if not pts:
                    continue
                one = pts[0][1]
                line = {"target": t, "mix": mix, "profile": p, "luns": [], "iops": [], "sd": []}
                for n, c in pts:
                    usr, _ = extras_mean(root, c, "usr_pct")
                    sys_, _ = extras_mean(root, c, "sys_pct")
                    fu, _ = extras_mean(root, c, "fio_usr_pct")
                    fs, _ = extras_mean(root, c, "fio_sys_pct")
                    post = SEED000_POST.get((mix, n)) if t == "lio" else None
                    rows.append([t, p, mix, n, pm(c["iops"], c["iops_std"]),
                                 fmt(c["iops"] / n), pm(*ratio(c["iops"], c["iops_std"],
                                                               one["iops"], one["iops_std"]), 2),
                                 f"{fmt(usr, 1)} / {fmt(sys_, 1)}", f"{fmt(fu, 1)} / {fmt(fs, 1)}",
                                 f"{fmt(post / 1e3)}K ({fmt(post / n / 1e3, 1)}K per LUN)"
                                 if post else "-", c["n"]])
                    line["luns"].append(n)
                    line["iops"].append(c["iops"])
                    line["sd"].append(c["iops_std"] or 0)
                sec["sweep"].append(line)
    sec["tables"].append(("IOPS over the LUN count (x of its own fewest-LUN cell); CPU "
                          "user / sys in % of all CPU time", [
                              "target", "profile", "writes", "LUNs", "IOPS", "IOPS per LUN",
                              f"x {min((x['luns'][0] for x in sec['sweep']), default='-')} LUN",
                              "CPU usr / sys % (/proc/stat)", "fio usr / sys % per job",
                              "the post", "n"], rows))
    # verdict: LIO's scaling 10 -> 32 LUNs (the post's pair), else the fewest -> most measured
    lio = [c for c in cells if c["workload"] == w and c["target"] == "lio"
           and re.fullmatch(r"randrw-25w-\d+lun", c["section"])]
    ns = sorted({int(re.search(r"(\d+)lun", c["section"]).group(1)) for c in lio})
    pair = (10, 32) if {10, 32} <= set(ns) else (ns[0], ns[-1]) if len(ns) >= 2 else None
    claim = 1185 / 944
    v = verdict(None, None, 0, claim)
    what = "LIO's randrw 25 % writes IOPS, 32 over 10 LUNs"
    if pair:
        prof = lio[0]["profile"]
        r, sd, n = cell_ratio(idx, ("lio", prof, w, f"randrw-25w-{pair[1]}lun"),
                              ("lio", prof, w, f"randrw-25w-{pair[0]}lun"))
        v = verdict(r, sd, n, claim, band_of("000"), cell_agreement(
            [idx.get(("lio", prof, w, f"randrw-25w-{x}lun")) for x in pair]) if exact else None)
        if pair != (10, 32):
            what = (f"LIO's randrw 25 % writes IOPS, {pair[1]} over {pair[0]} LUNs (the post's "
                    "10 and 32 were not both run at this scale)")
        cmax = idx.get(("lio", prof, w, f"randrw-25w-{pair[1]}lun"))
        usr, _ = extras_mean(root, cmax, "usr_pct")
        sys_, _ = extras_mean(root, cmax, "sys_pct")
        sec["notes"].append(f"CPU at {pair[1]} LUNs on LIO: {fmt(usr, 1)} % user, {fmt(sys_, 1)} "
                            "% sys of all CPU time (the post: ~95 % user, ~5 % sys).")
    if exact:
        sec["notes"].append(
            "On the exact clock the vCPUs take turns on one host thread, so IOPS are 10^9 over "
            "the whole guest's instructions per I/O: the ratio below is the instructions an I/O "
            "costs at the fewer LUNs over those at the more, not the parallel scaling over 32 hardware threads "
            "the post measured (that question needs the host clock on real cores).")
    sec["verdict"] = v
    sec["verdict_line"] = verdict_text(v, what, "1185K / 944K; " + BANDS["000"][2])
    return sec


# ---------------------------------------------------------------- seed 001
def dd_window(root, cell):
    """IOPS of a dd cell, mean ± sd, n: each run's ios over its elapsed time less its start-up
    run (tools/percpu-load --startup-run: exact on the exact clock), or, for runs made without
    one, over its I/O window (io_window_s: the first dd's own start to the last one's end)."""
    if not cell:
        return None, None, 0
    vals = dd_window_runs(root, cell)
    m, sd = mean_sd(vals)
    return m, sd, len(vals)


def dd_seconds(j):
    """(seconds, basis) of a percpu-load JSON: less its start-up run, else its I/O window."""
    if j.get("less_startup_s"):
        return j["less_startup_s"], "less start-up"
    return j["io_window_s"], "I/O window"


def dd_window_runs(root, cell, basis=None):
    """Each run's IOPS (dd_window()'s values); basis, a list, gets each run's basis."""
    vals = []
    if not cell:
        return vals
    for r in cell["runs"]:
        try:
            with open(os.path.join(root, r["file"]), encoding="utf-8") as f:
                j = json.load(f)
            secs, how = dd_seconds(j)
            vals.append(j["total"]["ios"] / secs)
            if basis is not None:
                basis.append(how)
        except (OSError, ValueError, KeyError, TypeError, ZeroDivisionError):
            continue
    return vals


SEED001_ROLES = {
    "ramlld-bio": "ramlld-bio, ramlld's bio-based disk: the block LLD (the post's was bio-based: "
                  "make_request)",
    "ramlld-mq": "ramlld-mq, ramlld's blk-mq disk (the post had none)",
    "ramlld-scsi": "ramlld-scsi, ramlld's SCSI LLD under sd: the SCSI LLD doing the I/O",
    "ramlld-scsi-tar": "ramlld-scsi-tar, ramlld's SCSI LLD with throw_away_reads/writes=1",
    "sdebug": "scsi_debug delay=0 fake_rw=0",
    "sdebug-fakerw": "scsi_debug delay=0 fake_rw=1 (the post's)",
}


def seed001_measured(root, cells, w):
    """The "Measured here" text of seed 001: the targets, dd processes per CPU, vCPUs and
    device sizes this run's dd cells hold (their percpu-load JSON), not the workload's
    defaults: a run narrowed by --targets or --capacity-mb says what it ran."""
    ts = [t for t in targets_of(cells, w)
          if any(c["target"] == t and c["section"] == "dd" for c in cells if c["workload"] == w)]
    profs = sorted({c["profile"] for c in cells if c["workload"] == w and c["section"] == "dd"})
    ctx = {}
    for c in cells:
        if c["workload"] != w or c["section"] != "dd":
            continue
        for r in c["runs"]:
            try:
                with open(os.path.join(root, r["file"]), encoding="utf-8") as f:
                    x = json.load(f).get("context") or {}
            except (OSError, ValueError):
                continue
            for k in ("procs_per_cpu", "online_cpus", "size_bytes"):
                if x.get(k) is not None:
                    ctx.setdefault(k, set()).add(x[k])

    def one(k, unit=lambda v: str(v)):
        vs = sorted(ctx.get(k, ()))
        return " / ".join(unit(v) for v in vs) if vs else "?"
    mib = one("size_bytes", lambda v: fmt(v / 2**20, 0) if v % 2**20 == 0 else fmt(v / 2**20, 1))
    return (f"The post's own run (tools/percpu-load: real dd processes pinned with taskset, "
            f"{one('procs_per_cpu')} per CPU on each of the guest's {one('online_cpus')} "
            f"CPU(s), each reading the whole device once) under queue profile "
            f"{', '.join(profs) or '?'} (seed-001: the post's tuning) on " + ("; ".join(SEED001_ROLES.get(t, t) for t in ts) or "no target")
            + f". One {mib} MiB device per target (the post's scsi_debug: 300 MB). Two "
            "IOPS: over the wall time with the processes' start-up (as the post's `time`), and "
            f"without it, which the verdict uses (a dd reads {mib} MiB here, 300 MB there): the "
            "elapsed time less a start-up run of the same processes with count=0 (exact on the "
            "exact clock), or, in runs without one, the I/O window (the first dd's own start to "
            "the last one's end, which moves with the order the processes start in).")


def seed001(root, cells, idx, exact=False):
    w = "seed-001"
    sec = {"id": "001", "workload": w,
           "title": "scsi_debug fake_rw vs a SCSI LLD vs a block LLD, 20 dd per CPU",
           "claim": "20 `taskset -c CPU dd bs=4k iflag=direct` per CPU over the whole device "
                    "(6 cores, rq_affinity=2, noop/none, add_random=0): scsi_debug delay=0 "
                    "fake_rw=1 ~216K IOPS, a SCSI LLD doing the I/O ~190K, a block LLD ~380K: "
                    "block ~2x SCSI (and on a quad i5: scsi_debug fake_rw=1 ~800K, fake_rw=0 "
                    "~651K)",
           "tables": [], "notes": []}
    sec["compared"] = seed001_measured(root, cells, w)
    post = {"sdebug-fakerw": (216e3, "scsi_debug fake_rw=1"),
            "sdebug": (None, "scsi_debug fake_rw=0 (Bart: 651K vs 800K fake_rw=1)"),
            "ramlld-scsi": (190e3, "the SCSI LLD"), "ramlld-mq": (None, "(blk-mq)"),
            "ramlld-bio": (380e3, "the block LLD")}
    rows = []
    profs = sorted({c["profile"] for c in cells if c["workload"] == w and c["section"] == "dd"})
    bases = []
    for c in cells:
        if c["workload"] == w and c["section"] == "dd":
            dd_window_runs(root, c, bases)
    basis = " / ".join(sorted(set(bases))) or "I/O window"
    bars = []
    for p in profs:
        scsi = dd_window(root, idx.get(("ramlld-scsi", p, w, "dd")))
        for t in targets_of(cells, w):
            c = idx.get((t, p, w, "dd"))
            if not c:
                continue
            pf, role = post.get(t, (None, ""))
            m, sd, n = dd_window(root, c)
            r = ratio(m, sd, scsi[0], scsi[1]) if scsi[0] else (None, None)
            rows.append([t, p, role, f"{fmt(pf / 1e3)}K" if pf else "-",
                         fmt(pf / 190e3, 2) if pf else "-", pm(c["iops"], c["iops_std"]),
                         pm(m, sd), pm(*r, 2), n])
            if p == "seed-001" and r[0] is not None:
                bars.append((t, pf / 190e3 if pf else None, r[0]))
    sec["tables"].append(("IOPS of the dd run (x the SCSI LLD: the post's and this run's)",
                          ["target", "profile", "the post's role", "the post", "x SCSI LLD (post)",
                           "IOPS, wall", f"IOPS, {basis}", f"x ramlld-scsi ({basis})", "n"],
                          rows))
    if bars:
        sec["bars"] = {"title": f"seed 001: dd IOPS ({basis}) over the SCSI LLD's",
                       "ylabel": "x the SCSI LLD (ramlld-scsi; the post's: ~190K)",
                       "groups": [b[0] for b in bars],
                       "series": [("the post", [b[1] for b in bars]),
                                  ("measured here", [b[2] for b in bars])],
                       "name": "seed-001-ratios.png"}
    p = "seed-001" if "seed-001" in profs else (profs[0] if profs else "seed-001")

    def window_ratio(a, b):
        ma, sa, na = dd_window(root, idx.get((a, p, w, "dd")))
        mb, sb, nb = dd_window(root, idx.get((b, p, w, "dd")))
        r, sd = ratio(ma, sa, mb, sb)
        return r, sd, min(na, nb)

    def window_agreement(a, b):
        if not exact:
            return None
        return agreement([(f"{t} dd ({basis})", dd_window_runs(root, idx.get((t, p, w, "dd"))))
                          for t in (a, b)])
    r, sd, n = window_ratio("ramlld-bio", "ramlld-scsi")
    v = verdict(r, sd, n, 2.0, band_of("001"), window_agreement("ramlld-bio", "ramlld-scsi"))
    sec["verdict"] = v
    sec["verdict_line"] = verdict_text(
        v, f"ramlld-bio / ramlld-scsi on the dd run [{p}], IOPS ({basis})",
        "380K / 190K; " + BANDS["001"][2])
    r2, sd2, n2 = window_ratio("sdebug-fakerw", "ramlld-scsi")
    if r2 is not None:
        v2 = verdict(r2, sd2, n2, 216 / 190, band_of("001-fakerw-lld"),
                     window_agreement("sdebug-fakerw", "ramlld-scsi"))
        sec["notes"].append(f"scsi_debug fake_rw=1 over the SCSI LLD doing the I/O: "
                            f"{fmt(r2, 2)} ± {fmt(sd2, 2)}x here, 1.14x in the post (216K / "
                            f"190K): {v2['category']} by the same rule.")
    r3, sd3, n3 = window_ratio("sdebug-fakerw", "sdebug")
    if r3 is not None:
        v3 = verdict(r3, sd3, n3, 800 / 651, band_of("001-fakerw-rw"),
                     window_agreement("sdebug-fakerw", "sdebug"))
        sec["notes"].append(f"scsi_debug fake_rw=1 over fake_rw=0: {fmt(r3, 2)} ± {fmt(sd3, 2)}x "
                            f"here, 1.23x in Bart's run (800K / 651K): {v3['category']}.")
    return sec


# ---------------------------------------------------------------- seed 002
GRID_RX = re.compile(r"seed-002-ra(\d+[km])-ms(\d+)k$")


def kib(text):
    mo = re.fullmatch(r"(\d+)([km])", text)
    return int(mo.group(1)) * (1024 if mo.group(2) == "m" else 1)


def bs_label(k):
    return f"{k // 1024}M" if k >= 1024 and k % 1024 == 0 else f"{k}K"


def read_time(root, run):
    """A buffered run's MB/s and IOPS over its time inside read() (fio's lat_ns mean x N: the
    sum of every read's latency, in ns), and that time: fio's own MB/s divides by its runtime in
    whole ms, a 0.5 % step at a 64 MiB device's 195 ms, as large as the exact clock's check.
    None when the JSON lacks it."""
    try:
        with open(os.path.join(root, run["file"]), encoding="utf-8") as f:
            rd = json.load(f)["jobs"][0]["read"]
        ns = rd["lat_ns"]["mean"] * rd["lat_ns"]["N"]
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return None
    if not ns or not rd.get("io_bytes"):
        return None
    return {"mbps": rd["io_bytes"] * 1e3 / ns, "iops": rd["total_ios"] * 1e9 / ns,
            "read_ns": ns, "read_bytes": rd["io_bytes"]}


def read_time_cell(root, c):
    """Cell c with its runs' and its own MB/s and IOPS from read_time() (the exact clock's
    seed-002 figures); runs without the figures keep fio's."""
    runs = []
    for r in c["runs"]:
        t = read_time(root, r)
        runs.append(dict(r, **t) if t else dict(r))
    out = dict(c, runs=runs)
    for m in ("mbps", "iops"):
        out[m], out[m + "_std"] = mean_sd([r.get(m) for r in runs])
    return out


def seed002(root, cells, idx, exact=False):
    w = "seed-002"
    sec = {"id": "002", "workload": w,
           "title": "read-ahead x max_sectors_kb, blockdev-perftest's block-size sweep",
           "claim": "blockdev-perftest -a (buffered sequential reads, 64 MiB down to 16 KiB, 3 "
                    "runs each), averaged over all sizes: max_sectors_kb 64 ~30 % better than "
                    "512 (read-ahead 512K: 122.96 -> 158.73 MB/s, 1.29x; 2M: 120.71 -> 159.24 "
                    "MB/s, 1.32x); read-ahead 2M over 128K +5 % (2.6.29, a RAID behind SCST "
                    "iSCSI)",
           "compared": "The same sweep (fio, psync, buffered, the page cache dropped before "
                       "each run, each run the whole {dev} device) on ramlld's three paths "
                       "over one store, under each cell of the grid read-ahead 128K/512K/2M x "
                       "max_sectors_kb 512/64 (profiles seed-002-ra*-ms*, one knob between "
                       "neighbours); SCST over iSCSI is not in Debian and a RAM store has no "
                       "disk to overlap, so this measures what the knobs cost the stack itself.",
           "tables": [], "notes": [], "sweep": []}
    sw = [c for c in cells if c["workload"] == w and GRID_RX.match(c["profile"])]
    dflt = [c for c in cells if c["workload"] == w and c["profile"] == "default"]
    if exact:
        sw = [read_time_cell(root, c) for c in sw]
        dflt = [read_time_cell(root, c) for c in dflt]
        idx = dict(idx)
        idx.update({(c["target"], c["profile"], w, c["section"]): c for c in sw + dflt})
        sec["notes"].append(
            "MB/s and IOPS on the exact clock are over each run's time inside read() (the sum "
            "of fio's per-read latencies, in guest ns), not over fio's runtime in whole ms: at "
            "a 64 MiB device's ~195 ms a run that step is 0.5 %, as large as the exact clock's "
            "check. The repeats are a determinism check of that clock, not a sample (the post's "
            "3 runs a size measured a disk's spread).")
    paths = targets_of(sw, w)
    # the device's size: what one run (one pass, size=100%) read
    dev = "64 MiB"
    for c in sw[:1]:
        try:
            with open(os.path.join(root, c["runs"][0]["file"]), encoding="utf-8") as f:
                dev = f"{json.load(f)['jobs'][0]['read']['io_kbytes'] // 1024} MiB"
        except (OSError, ValueError, KeyError, IndexError):
            pass
    sec["compared"] = sec["compared"].format(dev=dev)
    if "iscsi" in paths:
        sec["compared"] += (" `iscsi` runs the same sweep over the post's transport: ramlld's "
                            "mq disk behind LIO iblock, exported over iSCSI on 127.0.0.1 to "
                            "open-iscsi, the knobs set on the initiator's sd disk (issue 19's "
                            "rung; SCST's target is not in Debian, LIO's is).")

    def pkey(p):
        mo = GRID_RX.match(p)
        return (-int(mo.group(2)), kib(mo.group(1)))
    profs = sorted({c["profile"] for c in sw}, key=pkey)
    short = {p: "RA {} / {}".format(*(lambda m: (m.group(1).upper(), m.group(2)))(GRID_RX.match(p)))
             for p in profs}
    sizes = sorted({kib(c["section"][3:]) for c in sw}, reverse=True)
    for t in paths:
        # the path's own sizes and profiles: a narrowed run may give it fewer
        tsizes = [k for k in sizes if any(
            c["target"] == t and c["section"] == f"bs-{bs_label(k).lower()}" for c in sw)]
        tprofs = [p for p in profs if any(c["target"] == t and c["profile"] == p for c in sw)]
        rows = []
        for k in tsizes:
            row = [k * 1024]
            for p in tprofs:
                c = idx.get((t, p, w, f"bs-{bs_label(k).lower()}"))
                row.append(f"{pm(c['mbps'], c['mbps_std'])} / {fmt(c['iops'])}" if c else "-")
            rows.append(row)
        sec["tables"].append((f"{t}: MB/s (avg ± std of the runs) / IOPS per block size, as "
                              "blockdev-perftest prints them", ["blocksize (bytes)"]
                             + [short[p] for p in tprofs], rows))
        for p in profs:
            pts = [(k, idx.get((t, p, w, f"bs-{bs_label(k).lower()}"))) for k in sizes]
            pts = [(k, c) for k, c in pts if c]
            if pts:
                sec["sweep"].append({"target": t, "profile": p, "label": short[p],
                                     "kib": [k for k, _ in pts], "mbps": [c["mbps"] for _, c in pts],
                                     "sd": [c["mbps_std"] or 0 for _, c in pts]})

    def path_sizes(t):
        """The sizes path t ran under every one of its grid profiles (a narrowed run may give
        a path fewer sizes than another: its averages are over its own)."""
        got = [{c["section"] for c in sw if c["target"] == t and c["profile"] == p} for p in profs]
        return set.intersection(*[g for g in got if g]) if any(got) else set()

    def avg_runs(t, p):
        """MB/s over the path's sizes of each run (rep): the post's blindless average, one a
        run."""
        per_rep, want = {}, path_sizes(t)
        for c in sw:
            if c["target"] == t and c["profile"] == p and c["section"] in want:
                for r in c["runs"]:
                    if r.get("mbps") is not None:
                        per_rep.setdefault(r["rep"], []).append(r["mbps"])
        return [statistics.mean(v) for v in per_rep.values() if len(v) == len(want)]

    def avg(t, p):
        """avg_runs()' mean ± sd over the runs, n."""
        full = avg_runs(t, p)
        m, s = mean_sd(full)
        return m, s, len(full)

    def avg_agreement(t, a, b):
        """The exact clock's check of the figures the ratio is made of, both averages' runs
        (the post's claim is on the average over all sizes); the worst single size's spread is
        kept beside it (sizes_pct, sizes_what) and said, not judged: a 64 MiB run of ~195 ms
        moves by up to ~0.6 % from run to run (a timer's or a kworker's work falling inside
        a read or not), 13 sizes averaged by a quarter of that."""
        if not exact:
            return None
        cs = [c for c in sw if c["target"] == t and c["profile"] in (a, b)]
        ag = agreement([(f"{t} {p} average", avg_runs(t, p)) for p in (a, b)])
        per_cell = agreement([(f"{t} {short[c['profile']]} {c['section']}",
                               [r.get("mbps") for r in c["runs"]]) for c in cs])
        return dict(ag, sizes_pct=per_cell["pct"], sizes_what=per_cell["what"])

    rows = []
    ratios = {}
    for t in paths:
        for p in profs:
            m, s, n = avg(t, p)
            if n:
                rows.append([t, short[p], pm(m, s), n, len(path_sizes(t))])
        for ra in ("128K", "512K", "2M"):
            a = f"seed-002-ra{ra.lower()}-ms64k"
            b = f"seed-002-ra{ra.lower()}-ms512k"
            if a in profs and b in profs:
                ma, sa, na = avg(t, a)
                mb, sb, nb = avg(t, b)
                r, sd = ratio(ma, sa, mb, sb)
                ratios[(t, ra)] = (r, sd, min(na, nb), avg_agreement(t, a, b))
    sec["tables"].append(("The blindless average (MB/s over the path's block sizes, mean ± sd "
                          "over the runs)", ["target", "read-ahead / max_sectors_kb", "MB/s",
                                             "runs", "sizes"], rows))
    rrows = [[t, ra, fmt(r, 3) if exact else pm(r, sd, 2),
              verdict(r, sd, n, 1.30, band_of("002"), ag)["category"]]
             for (t, ra), (r, sd, n, ag) in ratios.items()]
    sec["tables"].append(("max_sectors_kb 64 over 512, per read-ahead (the post: 1.29x at 512K, "
                          "1.32x at 2M)", ["target", "read-ahead", "ms64 / ms512", "verdict"],
                          rrows))
    key = ("ramlld-scsi", "2M") if ("ramlld-scsi", "2M") in ratios else next(iter(ratios), None)
    if key:
        r, sd, n, ag = ratios[key]
        v = verdict(r, sd, n, 1.30, band_of("002"), ag)
        what = f"{key[0]}, max_sectors_kb 64 over 512 at read-ahead {key[1]}, all sizes averaged"
        if ag and ag.get("sizes_pct") is not None:
            what += f"; single sizes' runs up to {ag['sizes_pct']:.2f} % apart"
        worst = dict.fromkeys(w for x in ratios.values() if x[3] and x[3].get("sizes_what")
                              for w in x[3]["sizes_what"].split("; "))
        if worst:
            sec["notes"].append(
                "Single sizes whose two runs differ by more than the exact clock's "
                f"{EXACT_AGREE_PCT} % (said, not judged: the verdict is on the averages over all "
                "sizes, as the post's claim): " + "; ".join(worst) + ".")
        rest = [(k, x[0]) for k, x in ratios.items() if k != key and x[0] is not None]
        if rest:
            lo, hi = min(rest, key=lambda kx: kx[1]), max(rest, key=lambda kx: kx[1])
            what += (f"; every other path and read-ahead: {fmt(lo[1], 3)}x ({lo[0][0]} at "
                     f"{lo[0][1]}) to {fmt(hi[1], 3)}x ({hi[0][0]} at {hi[0][1]})")
    else:
        v, what = verdict(None, None, 0, 1.30), "max_sectors_kb 64 over 512"
    sec["verdict"] = v
    sec["verdict_line"] = verdict_text(v, what, "~30 %: 159.24 / 120.71 MB/s; "
                                       + BANDS["002"][2])
    sec["breakdown"] = seed002_breakdown(root, idx, paths, profs, sizes, sec, exact)
    sec["perf"] = seed002_perf(root, paths, sec)
    seed002_steps(idx, paths, sizes, sec)
    return sec


def seed002_breakdown(root, idx, paths, profs, sizes, sec, exact=False):
    """Why a path moves the other way under max_sectors_kb 64: the requests each MiB becomes
    (the first device's /sys/block stat deltas), what each MiB costs (on the exact clock the
    guest µs inside read(), an instruction count while the one vCPU is busy; else /proc/stat's
    busy ticks), and so what each extra request costs on each path."""
    ra = next((r for r in ("2m", "512k", "128k") if f"seed-002-ra{r}-ms64k" in profs
               and f"seed-002-ra{r}-ms512k" in profs), None)
    if not ra:
        return None
    bss = [k for k in (1024, 256) if k in sizes] or sizes[:1]
    rows, per_req = [], {}
    for t in paths:
        for k in bss:
            got = {}
            for ms in (512, 64):
                c = idx.get((t, f"seed-002-ra{ra}-ms{ms}k", "seed-002", f"bs-{bs_label(k).lower()}"))
                if not c:
                    continue
                req, cpu, size = [], [], []
                for r in c["runs"]:
                    x = run_extras(root, r)
                    dk = x.get("disk")
                    cost = (r["read_ns"] / 1e3 if exact and r.get("read_ns")
                            else x.get("busy_us"))
                    if not dk or not dk["read_sectors"] or cost is None:
                        continue
                    mib = (r["read_bytes"] if exact and r.get("read_bytes")
                           else dk["read_sectors"] * 512) / 2 ** 20
                    req.append(dk["reads"] * 2 ** 20 / (dk["read_sectors"] * 512))
                    cpu.append(cost / mib)
                    size.append(dk["read_sectors"] / 2 / dk["reads"] if dk["reads"] else 0)
                if req:
                    got[ms] = (mean_sd(req), mean_sd(cpu), mean_sd(size), c)
            for ms, ((rq, rqs), (cp, cps), (sz, _), c) in sorted(got.items(), reverse=True):
                rows.append([t, bs_label(k), ms, pm(c["mbps"], c["mbps_std"]), pm(rq, rqs, 1),
                             fmt(sz, 0), pm(cp, cps)])
            if 512 in got and 64 in got and got[64][0][0] > got[512][0][0]:
                d_req = got[64][0][0] - got[512][0][0]
                d_cpu = got[64][1][0] - got[512][1][0]
                per_req.setdefault(t, []).append(d_cpu / d_req)
    cost_head = ("guest µs in read() / MiB" if exact else "CPU µs / MiB")
    sec["tables"].append((f"Breakdown at read-ahead {ra.upper()}: requests per MiB read and "
                          "their size (the device's /sys/block stat), "
                          + ("guest time in read() per MiB (exact clock, 1 vCPU, busy "
                             "throughout: instructions / 1,000)" if exact else
                             "busy CPU per MiB (/proc/stat, all CPUs)"),
                          ["target", "block size", "max_sectors_kb", "MB/s", "requests / MiB",
                           "KiB / request", cost_head], rows))
    if per_req:
        parts = [f"{t} {fmt(statistics.mean(v), 1)} µs" for t, v in per_req.items()]
        sec["notes"].append(
            "Each request max_sectors_kb 64 adds costs, in "
            + ("guest time (exact clock: instructions / 1,000)" if exact else "busy CPU")
            + " per extra request ((cost per MiB at 64 − at 512) / (requests per MiB at 64 − "
            "at 512), the block sizes above): " + ", ".join(parts) + ". A path whose requests "
            "cost more (sd: a SCSI command built, queued and completed each) loses more when "
            "each read-ahead window is cut into 64 KiB requests; the post's gain came from the "
            "iSCSI target, which overlapped its disk reads with the network on smaller "
            "commands, and a RAM store has nothing to overlap.")
    return {"read_ahead": ra, "per_request_us": {t: statistics.mean(v) for t, v in per_req.items()}}


# seed002_perf's groups of kernel functions, first match wins (a trailing .isra.0 and the like
# is taken off first): where a buffered read's instructions go on each path.
PERF_GROUPS_002 = [
    ("idle", r"(native_safe_halt|default_idle.*|arch_cpu_idle.*|cpu_idle.*|do_idle|acpi_idle.*|"
             r"intel_idle.*|mwait_idle.*|poll_idle|cpuidle_.*|default_enter_idle)"),
    ("ramlld", r"ramlld_.*"),
    ("sd, SCSI midlayer", r"(scsi_.*|__scsi_.*|sd_.*|scmd_.*|sdev_.*|starget_.*)"),
    ("block layer (bio, blk-mq, tags)",
     r"(blk_.*|__blk_.*|bio_.*|__bio_.*|submit_bio.*|__submit_bio.*|sbitmap_.*|__sbitmap_.*|"
     r"sbq_.*|__sbq_.*|bvec_.*|sg_.*|__sg_.*|dd_.*|__dd_.*|rq_qos_.*|wbt_.*|bdev_.*|"
     r"disk_.*|part_.*|update_io_ticks|mpage_end_io|should_fail_bio|bio_associate.*)"),
    ("page cache, read-ahead",
     r"(filemap_.*|__filemap_.*|page_cache_.*|.*readahead.*|read_pages|.*folio.*|xa_.*|xas_.*|"
     r"__xa_.*|lru_.*|__lru_.*|.*mpage.*|workingset_.*|mark_page_accessed|copy_page_to_iter|"
     r".*copy_user.*|clear_page.*|.*mem_cgroup.*|__mod_.*|mod_.*_state|.*alloc_pages.*|"
     r"get_page_from_freelist|rmqueue.*|__rmqueue.*|free_unref_.*|free_pcp.*|__free_pages.*|"
     r"release_pages|blkdev_read_iter|blkdev_get_block|invalidate_mapping_pages|"
     r"mapping_.*|__remove_mapping|truncate_.*|node_dirty_ok|prep_new_page|post_alloc_hook)"),
]


def perf_group(kind, sym):
    if kind != "k":
        return "user (fio)"
    base = re.sub(r"\.(isra|part|constprop|cold|llvm)\.?\d*.*$", "", sym)
    for name, rx in PERF_GROUPS_002:
        if re.fullmatch(rx, base):
            return name
    return "other kernel"


def read_perf_cell(d):
    """A --perf-cell profile (compare/guest-run): {"passes", "period" (instructions a sample on
    the exact clock, else None), "mib", "reads", "samples": {(kind, symbol): n}} or None."""
    st, samples = {}, {}
    try:
        with open(os.path.join(d, "perf.stat"), encoding="utf-8") as f:
            for line in f:
                w = line.split()
                if len(w) > 1 and w[0] in ("disk_before", "disk_after"):
                    st[w[0]] = [int(x) for x in w[1:]]
                elif len(w) == 2 and w[0] == "passes":
                    st["passes"] = int(w[1])
                elif len(w) == 3 and w[0] == "sampling" and w[1] == "-c":
                    st["period"] = int(w[2])
                elif len(w) == 2 and w[0] == "clock":
                    st["clock"] = w[1]
        with open(os.path.join(d, "perf.txt"), encoding="utf-8", errors="replace") as f:
            for line in f:
                mo = re.match(r"\s*[\d.]+%\s+(\d+)\s+\[(.)\]\s+(\S+)", line)
                if mo:
                    key = (mo.group(2), mo.group(3))
                    samples[key] = samples.get(key, 0) + int(mo.group(1))
    except (OSError, ValueError):
        return None
    if "disk_before" not in st or "disk_after" not in st or not samples:
        return None
    dd = [a - b for a, b in zip(st["disk_after"], st["disk_before"])]
    if len(dd) < 3 or not dd[2]:
        return None
    period = st.get("period") if st.get("clock") == "icount" else None
    return {"passes": st.get("passes"), "period": period, "mib": dd[2] * 512 / 2 ** 20,
            "reads": dd[0], "samples": samples}


def seed002_perf(root, paths, sec):
    """Where each request max_sectors_kb 64 adds goes, function by function: for each path
    profiled at both settings (compare/run --perf-cell, the same read-ahead and section), on the
    exact clock each function's instructions per MiB read (self samples x the sampling period)
    at 512 and at 64, and their difference over the requests per MiB it added (the device's
    stat over the profiled passes), ± the sampling noise (√samples of both profiles: where a
    sample falls moves from run to run). Idle is no instruction count (the clock jumps to the
    next timer while the vCPU halts) and stays out of the total. A path whose disk counts no
    I/O (bio: iostats off) is left out: neither its requests nor its MiB are known."""
    found = {}
    for d in sorted(glob.glob(os.path.join(root, "raw", "*", "*", "seed-002", "*", "perf.txt"))):
        parts = d.split(os.sep)
        t, p, s = parts[-5], parts[-4], parts[-2]
        mo = GRID_RX.match(p)
        if mo:
            found[(t, mo.group(1), s, int(mo.group(2)))] = d
    pairs = sorted({(t, ra, s) for (t, ra, s, ms) in found
                    if (t, ra, s, 512) in found and (t, ra, s, 64) in found},
                   key=lambda k: (paths.index(k[0]) if k[0] in paths else 99, -kib(k[1])))
    out = {}
    frows, grows = [], []
    for t, ra, s in pairs:
        a = read_perf_cell(os.path.dirname(found[(t, ra, s, 512)]))
        b = read_perf_cell(os.path.dirname(found[(t, ra, s, 64)]))
        if not a or not b or not a["period"] or not b["period"]:
            if a and b:
                sec["notes"].append(f"{t}: the --perf-cell profiles are not on the exact clock: "
                                    "samples are not instruction counts, no split per request.")
            continue
        rpm = [x["reads"] / x["mib"] for x in (a, b)]
        extra = rpm[1] - rpm[0] if a["reads"] and b["reads"] else None
        unit = extra if extra and extra > 0 else 1.0

        def growth(keys):
            """The keys' instructions per MiB at 512 and 64, their growth per added request
            and its sampling noise (sd)."""
            n = [sum(x["samples"].get(k, 0) for k in keys) for x in (a, b)]
            ipm = [c * x["period"] / x["mib"] for c, x in zip(n, (a, b))]
            noise = math.sqrt(sum(c * (x["period"] / x["mib"]) ** 2 for c, x in zip(n, (a, b))))
            return ipm[0], ipm[1], (ipm[1] - ipm[0]) / unit, noise / unit

        keys = set(a["samples"]) | set(b["samples"])
        groups = {}
        for k in keys:
            groups.setdefault(perf_group(*k), []).append(k)
        label = f"{t} ({bs_label(kib(s[3:]))}, RA {ra.upper()})"
        gro = {g: growth(ks) for g, ks in groups.items()}
        for g, (x0, x1, dv, dn) in sorted(gro.items(), key=lambda kv: -kv[1][2]):
            grows.append([label, g + (" (not instructions)" if g == "idle" else ""), fmt(x0),
                          fmt(x1), pm(dv, dn)])
        busy = growth([k for k in keys if perf_group(*k) != "idle"])
        grows.append([label, "all but idle", fmt(busy[0]), fmt(busy[1]), pm(busy[2], busy[3])])
        # the functions that grow by more than twice their sampling noise, the most first
        fun = {k: growth([k]) for k in keys if perf_group(*k) != "idle"}
        sig = sorted((k for k, v in fun.items() if v[2] > 2 * v[3]), key=lambda k: -fun[k][2])
        for k in sig[:10]:
            x0, x1, dv, dn = fun[k]
            frows.append([label, k[1], perf_group(*k), fmt(x0), fmt(x1), pm(dv, dn)])
        out[t] = {"section": s, "read_ahead": ra, "requests_per_mib": rpm,
                  "extra_requests_per_mib": extra, "passes": (a["passes"], b["passes"]),
                  "period": a["period"], "samples": (sum(a["samples"].values()),
                                                     sum(b["samples"].values())),
                  "per_extra_request": {g: v[2] for g, v in gro.items()},
                  "per_extra_request_sd": {g: v[3] for g, v in gro.items()},
                  "total_per_extra_request": busy[2] if extra and extra > 0 else None,
                  "total_sd": busy[3], "functions": [k[1] for k in sig]}
        sec["notes"].append(
            f"{label}: perf over {a['passes']} and {b['passes']} passes (a sample every "
            f"{a['period']:,} instructions, {sum(a['samples'].values()):,} and "
            f"{sum(b['samples'].values()):,} samples)"
            + (f": {fmt(rpm[0], 1)} requests per MiB at max_sectors_kb 512, {fmt(rpm[1], 1)} at "
               f"64; the profile's instructions but idle grow by {pm(busy[2], busy[3])} per added "
               "request (the timed runs' guest time above is the closer total: most of a "
               "profile is fio's start-up, whose samples move from run to run)."
               if extra and extra > 0 else ": no requests added; the growth is per MiB."))
    if not out:
        return None
    head_unit = ("instructions per added request ± sampling noise (64 − 512, over the requests "
                 "per MiB 64 added)")
    sec["tables"].append((
        "Why: each added request's instructions by function group (perf self samples x the "
        "sampling period on the exact clock, per MiB read at max_sectors_kb 512 and 64, "
        "compare/run --perf-cell)",
        ["target (block size, read-ahead)", "group", "instructions / MiB at 512",
         "at 64", head_unit], grows))
    sec["tables"].append((
        "The functions whose instructions grow the most under max_sectors_kb 64 (by more than "
        "twice their sampling noise; ten at most)",
        ["target (block size, read-ahead)", "function", "group", "instructions / MiB at 512",
         "at 64", head_unit], frows))
    return out


def seed002_steps(idx, paths, sizes, sec):
    """From each path's own defaults to seed 002's tuning (read-ahead 2M, max_sectors_kb 64) one
    knob at a time, at the sizes where an earlier run saw sd move the other way (1M, 256K): the
    defaults' max_sectors_kb down to 512, read-ahead 128K up to 2M, max_sectors_kb 512 down to 64
    (the queue read-back names each path's defaults)."""
    steps = ["default", "seed-002-ra128k-ms512k", "seed-002-ra2m-ms512k", "seed-002-ra2m-ms64k"]
    rows = []
    for t in paths:
        for k in [k for k in (1024, 256) if k in sizes]:
            cs = [idx.get((t, p, "seed-002", f"bs-{bs_label(k).lower()}")) for p in steps]
            if not all(cs):
                continue
            q = cs[0].get("queue") or {}
            dname = f"default (RA {q.get('read_ahead_kb', '?')}K / {q.get('max_sectors_kb', '?')})"
            rows.append([t, bs_label(k), dname, fmt(cs[0]["mbps"])]
                        + [fmt(c["mbps"] / p["mbps"], 3) for p, c in zip(cs, cs[1:])]
                        + [fmt(cs[3]["mbps"]), fmt(cs[3]["mbps"] / cs[0]["mbps"], 3)])
    if rows:
        sec["tables"].append((
            "From each path's defaults to seed 002's tuning, one knob at a time (MB/s and the "
            "ratio each step makes)",
            ["target", "block size", "defaults", "MB/s", "max_sectors_kb → 512",
             "RA 128K → 2M", "max_sectors_kb 512 → 64", "MB/s at RA 2M / 64",
             "seed-002 / default"], rows))


# ---------------------------------------------------------------- seed 003
SEED003_POST = [("psync-4k-read", "(1) 4k psync read", 24.014e3, 22.028e3, "iops"),
                ("libaio-4k-qd16x2", "(2) 4k libaio iodepth 16 x 2 threads, loops=10", 184e3,
                 167e3, "iops"),
                ("psync-64m-read", "(3) 64 MiB psync read", 1584, 1262, "mbps"),
                ("psync-64m-write", "(4) 64 MiB psync write", 1409, 992, "mbps")]


# The targets seed 003 can run, as its section names them: LIO's target core without a fabric,
# LIO over the post's own fabric (SRP, on soft-RoCE), and the same sd with no target core.
SEED003_ROLES = {
    "ramlld-scsi": "`ramlld-scsi`: the same sd and midlayer with no target core behind it",
    "lio": "`lio`: LIO's target core alone (rd_mcp behind tcm_loop, no fabric)",
    "srp": "`srp`: LIO over the post's fabric (iblock on ramlld's mq disk, ib_srpt, ib_srp over "
           "soft-RoCE, rdma_rxe, instead of QDR InfiniBand: the TCM side of the post's setup)",
}


def seed003(root, cells, idx, exact=False):
    w = "seed-003"
    ts = targets_of(cells, w)
    sec = {"id": "003", "workload": w, "title": "SCST vs LIO (TCM): per-command cost of a target core",
           "claim": "ib_srpt over SRP on a RAM disk, SCST over TCM (LIO): 4k psync read 24.0K vs "
                    "22.0K IOPS (+9 %), 4k libaio iodepth 16 x 2: 184K vs 167K (+10 %), 64 MiB "
                    "read 1584 vs 1262 MB/s (+25 %), 64 MiB write 1409 vs 992 MB/s (+42 %) "
                    "(2.6.38-rc4, QDR InfiniBand, Core 2 Duo)",
           "compared": "SCST is not in Debian (out of tree, no package): the post's pair cannot "
                       "run here. What can, in this run: "
                       + "; ".join(SEED003_ROLES.get(t, f"`{t}`") for t in ts)
                       + ". The post's four fio commands as given (gtod_reduce=1, loops=10, "
                       "thread, group_reporting on (2)): (3) and (4) over the whole device, (1) "
                       "and (2) over its first 8 MiB (TCG: loops=10 over 64 MiB takes minutes).",
           "tables": [], "notes": []}
    prof = "default"
    refs = [t for t in ts if t != "ramlld-scsi"]
    rows = []
    bars = []  # per test: its label, the post's SCST / TCM, ramlld-scsi / each reference
    for s, label, scst, tcm, metric in SEED003_POST:
        unit = "IOPS" if metric == "iops" else "MB/s"
        row = [label, f"{fmt(scst)} / {fmt(tcm)} {unit}", fmt(scst / tcm, 2)]
        for t in ts:
            c = idx.get((t, prof, w, s))
            row.append(pm(c[metric], c[metric + "_std"]) if c else "-")
        ratios = []
        for t in refs:
            r, sd, _ = cell_ratio(idx, ("ramlld-scsi", prof, w, s), (t, prof, w, s), metric)
            row.append(pm(r, sd, 2))
            ratios.append(r)
        rows.append(row)
        if any(r is not None for r in ratios):
            bars.append((f"{label.split()[0]} {s}", scst / tcm, ratios))
    sec["tables"].append(("The post's four tests (IOPS for 4k, MB/s for 64 MiB)",
                          ["test", "the post: SCST / TCM", "SCST / TCM"] + ts
                          + [f"ramlld-scsi / {t}" for t in refs], rows))
    if bars:
        # the post's table as bars: SCST over TCM beside ramlld-scsi over each target here
        sec["bars"] = {"title": "seed 003: the post's tests, SCST / TCM there, ramlld-scsi / X here",
                       "ylabel": "ratio (the post: SCST / TCM)",
                       "groups": [b[0] for b in bars],
                       "series": [("the post: SCST / TCM", [b[1] for b in bars])]
                       + [(f"ramlld-scsi / {t}", [b[2][i] for b in bars])
                          for i, t in enumerate(refs)],
                       "name": "seed-003-ratios.png"}
    if "srp" in ts and "lio" in ts:
        r2, _, _ = cell_ratio(idx, ("lio", prof, w, "libaio-4k-qd16x2"),
                              ("srp", prof, w, "libaio-4k-qd16x2"))
        c = idx.get(("srp", prof, w, "libaio-4k-qd16x2"))
        if r2 is not None:
            sec["notes"].append(
                f"LIO over SRP (`srp`, the TCM side of the post's setup) on test (2): "
                f"{fmt(c['iops'])} IOPS against the post's TCM 167,000; LIO without a fabric "
                f"(`lio`) over it: {fmt(r2, 2)}x, what SRP on soft-RoCE adds to each command "
                "beyond the target core.")
    r, sd, n = cell_ratio(idx, ("ramlld-scsi", prof, w, "libaio-4k-qd16x2"),
                          ("lio", prof, w, "libaio-4k-qd16x2"))
    v = verdict(r, sd, n, 184 / 167, band_of("003"), cell_agreement(
        [idx.get((t, prof, w, "libaio-4k-qd16x2")) for t in ("ramlld-scsi", "lio")])
        if exact else None)
    measured = v["category"]
    v["category"] = "not reproduced"
    sec["verdict"] = v
    rs, _, _ = cell_ratio(idx, ("ramlld-scsi", prof, w, "libaio-4k-qd16x2"),
                          ("srp", prof, w, "libaio-4k-qd16x2"))
    over_srp = (f" Over the post's own fabric (`srp`, LIO over SRP on soft-RoCE): ramlld-scsi / "
                f"srp on test (2) {fmt(rs, 3)}x." if rs is not None else "")
    if r is None:
        sec["verdict_line"] = ("**Verdict: not reproduced** — SCST is not in Debian, and no LIO "
                               "cell of the nearest comparison ran (see Notes).")
    elif exact:
        a = v["agree"]
        agree = (f"every figure's runs within {a['pct']:.3f} %" if a["ok"] else
                 "not exact: " + (a["what"] or "one run"))
        sec["verdict_line"] = (
            "**Verdict: not reproduced** (exact clock, icount) — SCST is not in Debian, so SCST "
            "against TCM cannot run here. The nearest measurable question, what LIO's target "
            f"core costs per command: ramlld-scsi / lio on test (2) **{fmt(r, 3)}x** ({agree}; "
            f"by the exact rule against the post's band {fmt(v['band'][0], 3)}-"
            f"{fmt(v['band'][1], 3)}: {measured}), against the post's SCST / TCM "
            f"{fmt(184 / 167, 2)}x." + over_srp)
    else:
        lo, hi = v["lo"], v["hi"]
        sec["verdict_line"] = (
            "**Verdict: not reproduced** — SCST is not in Debian, so SCST against TCM cannot run "
            "here. The nearest measurable question, what LIO's target core costs per command: "
            f"ramlld-scsi / lio on test (2) **{fmt(r, 2)} ± {fmt(sd, 2)}x** (host clock; 95 % "
            f"interval {fmt(lo, 2)}-{fmt(hi, 2)}, n = {n}), against the post's SCST / TCM "
            f"{fmt(184 / 167, 2)}x." + over_srp)
    return sec


# ---------------------------------------------------------------- seed 004
SEED004_POST = [("seq-read", 119040, 109110), ("rand-read", 119579, 107988),
                ("seq-write", 119632, 110474), ("rand-write", 118094, 108037)]


def seed004(root, cells, idx, exact=False):
    w = "seed-004"
    sec = {"id": "004", "workload": w, "title": "scsi_ram vs scsi_debug delay=0, ssd-test",
           "claim": "scsi_ram ~9 % faster than scsi_debug delay=0 without throw-away (4k libaio "
                    "iodepth 4 direct, 60 s a job: seq-read 119040 vs 109110 KB/s, rand-read "
                    "119579 vs 107988, seq-write 119632 vs 110474, rand-write 118094 vs 108037; "
                    "util 77.79 % vs 42.09 %)",
           "compared": "ramlld-scsi plays scsi_ram (a RAM SCSI LLD with capacity and sector size "
                       "parameters; throw_away_reads/writes off, and on: ramlld-scsi-tar) beside "
                       "scsi_debug delay=0 (fake_rw=0, as the post), the post's four jobs as "
                       "separate fio runs (stonewalled), {runtime} a job instead of 60 s, {mib} "
                       "devices instead of 10-20 GiB; KB/s is fio's KiB/s as the post's; util % "
                       "is fio's disk util of each run (the post's: of its whole four-job run), "
                       "'-' for a disk with iostats=0 (the bio disk's default), which counts none.",
           "tables": [], "notes": []}
    run = run_shape(root)
    sec["compared"] = sec["compared"].format(runtime=run["runtime"], mib=run["mib"])
    ts = targets_of(cells, w)
    prof = "default"
    rows, rs, used, bars = [], [], [], []
    for s, ram, dbg in SEED004_POST:
        row = [s, f"{ram} / {dbg}", fmt(ram / dbg, 3)]
        for t in ts:
            c = idx.get((t, prof, w, s))
            u, _ = extras_mean(root, c, "util_pct") if c else (None, None)
            row.append(f"{pm(c['mbps'] * 1e6 / 1024 / 1e3, (c['mbps_std'] or 0) * 1e6 / 1024 / 1e3)}"
                       f"K ({fmt(u, 1)} %)" if c else "-")
        r, sd, n = cell_ratio(idx, ("ramlld-scsi", prof, w, s), ("sdebug", prof, w, s))
        row.append(pm(r, sd, 3))
        if "ramlld-scsi-tar" in ts:     # scsi_ram's throw-away knobs on, as its post offered
            row.append(pm(*cell_ratio(idx, ("ramlld-scsi-tar", prof, w, s),
                                      ("sdebug", prof, w, s))[:2], 3))
        if r is not None:
            rs.append((r, sd, n))
            used += [idx.get((t, prof, w, s)) for t in ("ramlld-scsi", "sdebug")]
            bars.append((s, ram / dbg, r, cell_ratio(idx, ("ramlld-scsi-tar", prof, w, s),
                                                     ("sdebug", prof, w, s))[0]))
        rows.append(row)
    sec["tables"].append(("The post's four jobs: KB/s (util %)", [
        "job", "the post: scsi_ram / scsi_debug KB/s", "ratio"] + ts
        + ["ramlld-scsi / sdebug"]
        + (["ramlld-scsi-tar / sdebug"] if "ramlld-scsi-tar" in ts else []), rows))
    if bars:
        series = [("the post: scsi_ram / scsi_debug", [b[1] for b in bars]),
                  ("ramlld-scsi / scsi_debug", [b[2] for b in bars])]
        if any(b[3] for b in bars):
            series.append(("ramlld-scsi-tar / scsi_debug", [b[3] for b in bars]))
        sec["bars"] = {"title": "seed 004: the post's four jobs, over scsi_debug delay=0",
                       "ylabel": "x scsi_debug delay=0", "groups": [b[0] for b in bars],
                       "series": series, "name": "seed-004-ratios.png"}
    claim = statistics.mean(ram / dbg for _, ram, dbg in SEED004_POST)
    if rs:
        r = statistics.mean(x[0] for x in rs)
        sd = math.sqrt(sum((x[1] or 0) ** 2 for x in rs)) / len(rs)
        v = verdict(r, sd, min(x[2] for x in rs), claim, band_of("004"),
                    cell_agreement(used) if exact else None)
        what = f"ramlld-scsi / scsi_debug delay=0, mean over {len(rs)} job(s)"
    else:
        v, what = verdict(None, None, 0, claim), "ramlld-scsi / scsi_debug"
    sec["verdict"] = v
    sec["verdict_line"] = verdict_text(v, what, "the mean of its four jobs' ratios; "
                                       + BANDS["004"][2])
    return sec


SEEDS = [seed000, seed001, seed002, seed003, seed004]


def sections(root, cells, idx, exact=False, clock="host clock"):
    """The seed sections for the seed workloads this run has. exact: the run was on the exact
    clock (icount), whose verdict rule differs; clock: the clock's name for each section."""
    have = {c["workload"] for c in cells}
    out = []
    for fn in SEEDS:
        w = f"seed-{fn.__name__[4:]}"
        if w in have:
            sec = fn(root, cells, idx, exact)
            sec["clock"], sec["exact"] = clock, exact
            out.append(sec)
    return out


def md_table(head, rows):
    out = ["| " + " | ".join(str(h) for h in head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(str(x) for x in r) + " |" for r in rows]
    return "\n".join(out)


def markdown(secs):
    """The report's "Seed experiments" part."""
    if not secs:
        return []
    exact = any(s.get("exact") for s in secs)
    L = ["## Seed experiments", "",
         "Each seed post's claim, the same comparison measured in this run (or the nearest one "
         "Debian has, named as such), and a verdict. Absolute figures are this guest's, on the "
         "clock each section names; the verdicts rest on ratios measured side by side. "
         + (VERDICT_RULE_EXACT if exact else VERDICT_RULE), ""]
    for s in secs:
        L += [f"### Seed {s['id']}: {s['title']}", "",
              f"**The post:** {s['claim']}.", "", f"**Measured here:** {s['compared']}", "",
              f"**Clock:** every figure of this section: {s.get('clock', 'host clock')}.", ""]
        for cap, head, rows in s["tables"]:
            if rows:
                L += [cap + ":", "", md_table(head, rows), ""]
        for n in s["notes"]:
            L += [n, ""]
        for p in s.get("plots", []):
            L += [f"![{p}]({p})", ""]
        L += [s["verdict_line"], ""]
    return L


def plots(root, secs, plt):
    """One plot per sweep: seed 000's IOPS over LUNs, seed 002's MB/s over block sizes (one line
    per path and setting); one per table of ratios (seeds 001, 003 and 004: the post's beside
    this run's). plt: matplotlib.pyplot, or None (no plots)."""
    made = []
    if plt is None:
        return made
    from matplotlib.ticker import NullFormatter, ScalarFormatter
    for s in secs:
        if s["id"] == "000" and s.get("sweep"):
            fig, ax = plt.subplots(figsize=(7, 4))
            for ln in s["sweep"]:
                ax.errorbar(ln["luns"], [y / 1e3 for y in ln["iops"]],
                            yerr=[e / 1e3 for e in ln["sd"]], marker="o", capsize=2,
                            label=f"{ln['target']} randrw {ln['mix']} [{ln['profile']}]")
            ax.set_xscale("log")
            ax.set_xticks(sorted({n for ln in s["sweep"] for n in ln["luns"]}))
            ax.get_xaxis().set_major_formatter(ScalarFormatter())
            ax.get_xaxis().set_minor_formatter(NullFormatter())
            ax.set_xlabel("LUNs")
            ax.set_ylabel("kIOPS")
            ax.set_title("seed 000: 4k randrw over the LUN count")
            ax.legend(fontsize=7)
            name = "seed-000-luns.png"
        elif s["id"] == "002" and s.get("sweep"):
            paths = list(dict.fromkeys(ln["target"] for ln in s["sweep"]))
            fig, axs = plt.subplots(1, len(paths), figsize=(5 * len(paths), 4), squeeze=False,
                                    sharey=True)
            for ax, t in zip(axs[0], paths):
                for ln in s["sweep"]:
                    if ln["target"] == t:
                        ax.errorbar(ln["kib"], ln["mbps"], yerr=ln["sd"], marker="o",
                                    markersize=3, capsize=2, label=ln["label"])
                ax.set_xscale("log", base=2)
                ax.set_xlabel("block size (KiB)")
                ax.set_title(t)
                ax.legend(fontsize=7)
            axs[0][0].set_ylabel("MB/s")
            fig.suptitle("seed 002: buffered sequential read over the block size")
            name = "seed-002-grid.png"
        elif s.get("bars"):
            b = s["bars"]
            fig, ax = plt.subplots(figsize=(7, 4))
            width = 0.8 / len(b["series"])
            for i, (label, vals) in enumerate(b["series"]):
                xs = [g + (i - (len(b["series"]) - 1) / 2) * width for g in range(len(b["groups"]))]
                have = [(x, v) for x, v in zip(xs, vals) if v is not None]
                ax.bar([x for x, _ in have], [v for _, v in have], width, label=label)
            ax.axhline(1.0, color="grey", linewidth=0.8)
            ax.set_xticks(range(len(b["groups"])))
            ax.set_xticklabels(b["groups"], fontsize=8)
            ax.set_ylabel(b["ylabel"], fontsize=8)
            ax.set_title(b["title"], fontsize=9)
            ax.legend(fontsize=7, loc="lower right")
            name = b["name"]
        else:
            continue
        fig.tight_layout()
        fig.savefig(os.path.join(root, name), dpi=90)
        plt.close(fig)
        s.setdefault("plots", []).append(name)
        made.append(name)
    return made

# SPDX-License-Identifier: GPL-2.0
"""Seed 002: read-ahead x max_sectors_kb, blockdev-perftest's block-size sweep."""

import glob
import math
import os
import re
import statistics

from lib import fio
from lib.fmt import fmt, pm
from lib.perf import layer_of, symbols
from lib.results import run_extras
from lib.seed import BANDS, band_of, markdown, targets_of
from lib.verdict import line as verdict_line, not_decidable, setup_text, spot_check, verdict
from lib.seed import render_section
from lib.stats import EXACT_AGREE_PCT, agreement, mean_sd, ratio
from lib.twonode import SIDES, load as load_two_node

TITLE = "Seed 002"
WORKLOAD = "seed-002"

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
        rd = fio.read(os.path.join(root, run["file"]))["jobs"][0]["read"]
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
            d = fio.read(os.path.join(root, c["runs"][0]["file"]))
            dev = f"{d['jobs'][0]['read']['io_kbytes'] // 1024} MiB"
        except (OSError, ValueError, KeyError, IndexError):
            pass
    sec["compared"] = sec["compared"].format(dev=dev)
    if "iscsi" in paths:
        sec["compared"] += (" `iscsi` runs the same sweep over the post's transport: ramlld's "
                            "mq disk behind LIO iblock, exported over iSCSI on 127.0.0.1 to "
                            "open-iscsi, the knobs set on the initiator's sd disk (the cost "
                            "ladder's rung; SCST's target is not in Debian, LIO's is).")

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
    spot = spot_check(cells)
    rrows = [[t, ra, fmt(r, 3) if exact else pm(r, sd, 2),
              verdict(r, sd, n, 1.30, band_of("002"), ag, spot=spot)["category"]]
             for (t, ra), (r, sd, n, ag) in ratios.items()]
    sec["tables"].append(("max_sectors_kb 64 over 512, per read-ahead (the post: 1.29x at 512K, "
                          "1.32x at 2M)", ["target", "read-ahead", "ms64 / ms512", "verdict"],
                          rrows))
    setup = setup_text(root, "over iSCSI between two machines, reading a disk")
    key = ("ramlld-sd", "2M") if ("ramlld-sd", "2M") in ratios else next(iter(ratios), None)
    if key:
        r, sd, n, ag = ratios[key]
        v = verdict(r, sd, n, 1.30, band_of("002"), ag, setup, spot=spot)
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
        v = verdict(None, None, 0, 1.30, setup=setup, decides="compare/run --only seed-002")
        what = "max_sectors_kb 64 over 512"
    sec["verdict"] = v
    sec["verdict_what"] = (what, "~30 %: 159.24 / 120.71 MB/s; " + BANDS["002"][2])
    sec["verdict_line"] = verdict_line(v, *sec["verdict_what"])
    sec["breakdown"] = seed002_breakdown(root, idx, paths, profs, sizes, sec, exact)
    sec["perf"] = seed002_perf(root, paths, sec)
    seed002_steps(idx, paths, sizes, sec)
    two_node_grid(root, sec)
    return sec


def two_node_grid(root, sec):
    """Seed 002's grid over two nodes (compare/two-node --job seed-002, ROOT/two-node/seed-002):
    each side's instructions per MiB read under each read-ahead and max_sectors_kb, on its own
    exact clock, and what max_sectors_kb 64 does to each side's cost."""
    res = load_two_node(os.path.join(root, "two-node", "seed-002"))
    if not res or not res.get("grid"):
        return
    g, e = res["grid"], res["env"]

    def label(p):
        mo = GRID_RX.match(p)
        return f"RA {mo.group(1).upper()} / {mo.group(2)}" if mo else p

    def key(c):
        p, z = c.split(".bs-", 1)
        mo = GRID_RX.match(p)
        return (-kib(z), -int(mo.group(2)) if mo else 0, kib(mo.group(1)) if mo else 0)
    rows = []
    for c in sorted(g, key=key):
        p, z = c.split(".bs-", 1)
        x = g[c]
        rows.append([z.upper(), label(p)]
                    + [f"{fmt(x[k]['mean'])} ({x[k]['spread_pct']:.1f} %)" for k in SIDES]
                    + [fmt(x["reads"]["mean"], 1), fmt(x["cmds"]["mean"], 1), x["target"]["n"]])
    sec["tables"].append((
        f"Two nodes: seed 002's grid over iSCSI, the target (LIO) and the initiator in two "
        f"guests with {e.get('cpus', '?')} vCPUs each, each on its own exact clock (icount "
        f"sleep={e.get('icount_sleep', '?')}): instructions per MiB read on each side (the "
        "runs' spread in brackets), the initiator's disk reads and the target's SCSI commands "
        "per MiB (compare/two-node --job seed-002)",
        ["block size", "read-ahead / max_sectors_kb", "target instr/MiB",
         "initiator instr/MiB", "initiator reads/MiB", "target commands/MiB", "runs"], rows))
    ratios = []
    for c in sorted(g, key=key):
        p, z = c.split(".bs-", 1)
        if not p.endswith("-ms64k"):
            continue
        b = g.get(p[:-len("ms64k")] + "ms512k.bs-" + z)
        if b:
            # a ratio is decided when it is further from 1 than both cells' spreads together
            # (two runs or more each); else it is within what the runs move
            r = {k: (g[c][k]["mean"] / b[k]["mean"],
                     min(g[c][k]["n"], b[k]["n"]) >= 2 and abs(g[c][k]["mean"] / b[k]["mean"] - 1)
                     * 100 > (g[c][k]["spread_pct"] or 0) + (b[k]["spread_pct"] or 0))
                 for k in SIDES}
            ratios.append((z.upper(), label(p).split(" / ")[0], r))
    if ratios:
        parts = [f"{ra} at {z}: target {fmt(r['target'][0], 3)}x"
                 f"{'' if r['target'][1] else ' (within the runs)'}, initiator "
                 f"{fmt(r['initiator'][0], 3)}x{'' if r['initiator'][1] else ' (within the runs)'}"
                 for z, ra, r in ratios]
        decided = [(k, v[0]) for _, _, r in ratios for k, v in r.items() if v[1]]
        more = decided and all(v > 1 for _, v in decided)
        worst = max(x[k]["spread_pct"] or 0 for x in g.values() for k in SIDES)
        n = min(x[k]["n"] for x in g.values() for k in SIDES)
        sec["notes"].append(
            "Two nodes: max_sectors_kb 64 over 512, each side's instructions per MiB read: "
            + "; ".join(parts) + f" ({n} run{'s' if n > 1 else ''} a cell, up to {worst:.1f} % "
            "apart; a ratio 'within the runs' is nearer 1 than the two cells' spreads together, "
            "or has one run: not decided). "
            + (f"Where it is decided ({len(decided)} of {2 * len(ratios)}), the side spends more "
               "per MiB at 64: the smaller commands (8 times as many per MiB) cost each machine "
               "more work, so whatever the post gained from 64 came from the two machines "
               "overlapping their work, not from less of it. " if more else
               "Where it is decided, the sides do not all move the same way. " if decided else
               "None of them is decided by these runs. ")
            + "MB/s are not measured here: with icount sleep=on a side's idle time passes at "
              "the host's speed (the other side's work, the host's load), so the pair's "
              "throughput is on neither exact clock, and the post's claim stays undecided. "
              f"The {e.get('cpus', '?')} vCPUs a side are counted CPU by CPU (each CPU's idle "
              "time from a copy of /proc/timer_list made on it: a CPU idle at the copy would "
              "otherwise lag by its ongoing idle period).")
    sec["two_node"] = {"cells": len(g), "ratios": ratios, "decided": len(decided),
                       "more": bool(more)}


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
    except (OSError, ValueError):
        return None
    for _, kind, sym, n in symbols(os.path.join(d, "perf.txt")):
        if n is not None:
            samples[(kind, sym)] = samples.get((kind, sym), 0) + n
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
            groups.setdefault(layer_of(*k), []).append(k)
        label = f"{t} ({bs_label(kib(s[3:]))}, RA {ra.upper()})"
        gro = {g: growth(ks) for g, ks in groups.items()}
        for g, (x0, x1, dv, dn) in sorted(gro.items(), key=lambda kv: -kv[1][2]):
            grows.append([label, g + (" (not instructions)" if g == "idle" else ""), fmt(x0),
                          fmt(x1), pm(dv, dn)])
        busy = growth([k for k in keys if layer_of(*k) != "idle"])
        grows.append([label, "all but idle", fmt(busy[0]), fmt(busy[1]), pm(busy[2], busy[3])])
        # the functions that grow by more than twice their sampling noise, the most first
        fun = {k: growth([k]) for k in keys if layer_of(*k) != "idle"}
        sig = sorted((k for k, v in fun.items() if v[2] > 2 * v[3]), key=lambda k: -fun[k][2])
        for k in sig[:10]:
            x0, x1, dv, dn = fun[k]
            frows.append([label, k[1], layer_of(*k), fmt(x0), fmt(x1), pm(dv, dn)])
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


def grid_plot(sec, plots):
    """MB/s over the block size, a panel per path, a line per read-ahead and max_sectors_kb."""
    if not sec.get("sweep") or plots.plt is None:
        return
    paths = list(dict.fromkeys(ln["target"] for ln in sec["sweep"]))
    fig, axs = plots.plt.subplots(1, len(paths), figsize=(5 * len(paths), 4), squeeze=False,
                                  sharey=True)
    for ax, t in zip(axs[0], paths):
        for ln in sec["sweep"]:
            if ln["target"] == t:
                ax.errorbar(ln["kib"], ln["mbps"], yerr=ln["sd"], marker="o",
                            markersize=3, capsize=2, label=ln["label"])
        ax.set_xscale("log", base=2)
        ax.set_xlabel("block size (KiB)")
        ax.set_title(t)
        ax.legend(fontsize=7, title="read-ahead / max_sectors_kb", title_fontsize=7)
    axs[0][0].set_ylabel("MB/s")
    fig.suptitle("seed 002: buffered sequential read over the block size")
    sec["plots"].append(plots.save(fig, "seed-002-grid.png"))


def undecided_here(run):
    """The claims this run's clock cannot decide (claim None: the section's own), whether or
    not the run measured them: a target and an initiator on two machines, whatever this
    guest's CPUs."""
    return [{
        "claim": None,
        "why": "the post's max_sectors_kb 64 gain came from pipelining between an iSCSI target "
               "and its initiator on two machines (the target reading its disk while the "
               "network carried the previous command); one guest, one RAM store and vCPUs "
               "taking turns overlap nothing.",
        "command": "compare/run --host DEV --only seed-002 --clock host",
        "where": "DEV an iSCSI disk exported from a second machine"}]


def _finish(sec, run):
    for u in undecided_here(run):
        why = u["why"]
        if sec.get("two_node"):
            why += (" Two guests (below) do overlap in the host's time, but with icount sleep=on "
                    "a side's idle time passes at the host's speed, so neither exact clock "
                    "measures the pair's MB/s.")
        not_decidable(sec["verdict"], why.rstrip("."), u["command"], u["where"])
        sec["verdict_line"] = verdict_line(sec["verdict"], *sec["verdict_what"])
    tn = sec.get("two_node")
    if tn and tn["ratios"]:
        z, ra, r = tn["ratios"][-1]
        sec["verdict_line"] += (
            f" On two nodes: max_sectors_kb 64 over 512 costs the target {fmt(r['target'][0], 3)}x "
            f"and the initiator {fmt(r['initiator'][0], 3)}x the instructions per MiB ({ra}, {z}; "
            f"{tn['decided']} of {2 * len(tn['ratios'])} ratios beyond the runs' spread).")


def compute(run):
    """The section's figures (None when the run has neither seed-002 cells nor the grid over two
    nodes)."""
    def make():
        if not any(c["workload"] == WORKLOAD for c in run.cells) and \
                not load_two_node(os.path.join(run.root, "two-node", "seed-002")):
            return None
        sec = seed002(run.root, run.cells, run.idx, run.exact)
        sec["clock"], sec["exact"] = run.clock, run.exact
        _finish(sec, run)
        return sec
    return run.once(WORKLOAD, make)


def render(run, plots):
    return render_section(compute(run), grid_plot, plots, markdown)

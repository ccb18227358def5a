# SPDX-License-Identifier: GPL-2.0
"""Seed 002's analyses beyond its own cells (compare/sections/seed002.py shows them): its grid
over two nodes (compare/two-node --job seed-002) and, from the --perf-cell profiles, where
each request max_sectors_kb 64 adds goes, function by function."""

import math
import os
import re

from .fmt import fmt, pm
from .perf import layer_of, perf_cells
from .twonode import SIDES, load as load_two_node

WORKLOAD = "seed-002"
GRID_RX = re.compile(r"seed-002-ra(\d+[km])-ms(\d+)k$")


def bs_label(k):
    return f"{k // 1024}M" if k >= 1024 and k % 1024 == 0 else f"{k}K"


def kib(text):
    mo = re.fullmatch(r"(\d+)([km])", text)
    return int(mo.group(1)) * (1024 if mo.group(2) == "m" else 1)


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
    for (t, p, s), cell in perf_cells(root, WORKLOAD).items():
        mo = GRID_RX.match(p)
        if mo:
            found[(t, mo.group(1), s, int(mo.group(2)))] = cell
    pairs = sorted({(t, ra, s) for (t, ra, s, ms) in found
                    if (t, ra, s, 512) in found and (t, ra, s, 64) in found},
                   key=lambda k: (paths.index(k[0]) if k[0] in paths else 99, -kib(k[1])))
    out = {}
    frows, grows = [], []
    for t, ra, s in pairs:
        a, b = found[(t, ra, s, 512)], found[(t, ra, s, 64)]
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

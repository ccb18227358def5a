# SPDX-License-Identifier: GPL-2.0
"""Where the time goes: the breakdown's btt averages; per layer and per function, the plugin's
exact counts (ROOT/iprofile/TARGET, compare/run --exact-profile) where a target has a profiled
cell, else perf's sampled split by layer, the driver's own share and the Amdahl ceiling it sets,
and instructions per I/O by function from the samples on the exact clock."""

import math

from lib.fmt import fmt, pm, table
from lib.iprofile import functions, qemu_text, run_cells
from lib.perf import breakdown
from lib.results import torder
from sections.bench import ceiling_text

TITLE = "Where the time goes"
ORDER = 150
SHOWN = ("scsi+sd", "block", "ramlld", "other driver", "copy", "sched+workqueue",
         "other kernel", "user")
TOP_FNS = 10


def exact_cells(run):
    """{target: (table.json, meta.env, wall.env)} of the profiled cells with functions, in the
    report's order."""
    return {t: (j, m, w) for t, j, m, w in run_cells(run) if j.get("functions")}


def one_of(cells, what):
    """The cells' values of what (a function of a cell), joined when they differ."""
    return " / ".join(dict.fromkeys(what(*c) for c in cells.values()))


def exact_lines(ex):
    """The plugin's exact counts: the layer table (a column per target, summing to the window's
    total beside the clock's) and the function table (the largest, the rest summed)."""
    tg = list(ex)
    L = [f"**Exact counts** for {', '.join(tg)}: tools/iprofile's plugin, every instruction of "
         "the window counted at its address and named by its function, no sampling ("
         + one_of(ex, lambda j, m, w: qemu_text(m, w)) + ", exact clock: -icount shift=0, "
         + one_of(ex, lambda j, m, w: m.get("cpus", "?")) + " vCPU, guest kernel "
         + one_of(ex, lambda j, m, w: m.get("kernel", "?")) + "; `compare/run --exact-profile`). "
         "Each path's own profiled cell, not the traced runs: 4k randread QD32 "
         + one_of(ex, lambda j, m, w: m.get("engine") or "libaio") + " with one-core-peak's "
         "queue settings (none, nomerges 2, iostats 0), a window of "
         + one_of(ex, lambda j, m, w: m.get("runtime", "?")) + " s inside fio's steady I/O, per "
         "I/O completed in it. Layers: tools/iprofile/table's (perf.py's LAYERS, finer); the "
         "layers and the functions each sum to the window's total, which is the clock's "
         "instructions per I/O over the same window (docs/profile.md):", ""]
    # the largest first (all targets summed); a layer under 0.005 everywhere left out
    lay = {}
    for j, _, _ in ex.values():
        for n, v in (j.get("layers") or {}).items():
            lay.setdefault(n, []).append(v)
    names = sorted((n for n, v in lay.items() if max(abs(x) for x in v) >= 0.005),
                   key=lambda n: (-sum(lay[n]), n))
    rows = [[n] + [fmt((ex[t][0].get("layers") or {}).get(n), 2) for t in tg] for n in names]
    rows.append(["**all** (the plugin's total)"] + [fmt(ex[t][0]["total"], 2) for t in tg])
    rows.append(["clock over the window"] + [fmt(ex[t][0].get("window_clock"), 2) for t in tg])
    L += [table(["layer, instructions per I/O"] + tg, rows, "l" + "r" * len(tg)), ""]
    rows = []
    for t in tg:
        j = ex[t][0]
        fns = functions(j)
        big = sorted(fns, key=lambda f: (-abs(fns[f]), f))[:TOP_FNS]
        rest = [f for f in fns if f not in big]
        rows.append([t, fmt(j["n"], 0), fmt(j["total"], 2),
                     ", ".join(f"`{f}` {fmt(fns[f], 2)}" for f in big),
                     f"{fmt(sum(fns[f] for f in rest), 2)} ({len(rest)} functions)"])
    L += [f"By function, exact (`[user]`: fio in user space; the {TOP_FNS} largest, then the "
          "rest summed):", "",
          table(["target", "I/Os in the window", "instr/IO (all)",
                 f"the {TOP_FNS} largest functions, instr/IO", "the rest"], rows, "lrrll"), ""]
    return L


def midlayer(run, profile):
    """What the SCSI midlayer adds per I/O: ramlld-sd − ramlld-mq, 4k randread QD32; the
    exact count where it exists (instructions), else /proc/stat's busy µs."""
    key = "instr_per_io" if run.exact else "cpu_us_per_io_stat"
    s = run.cell("ramlld-sd", profile, "qd32", "randread-4k-qd32")
    m = run.cell("ramlld-mq", profile, "qd32", "randread-4k-qd32")
    if not s or not m or s[key] is None or m[key] is None:
        return None
    d = s[key] - m[key]
    sd = 0 if run.exact else math.sqrt((s[key + "_std"] or 0) ** 2 + (m[key + "_std"] or 0) ** 2)
    return {"profile": profile, "scsi": s[key], "mq": m[key], "added": d, "added_std": sd,
            "added_pct": d * 100 / m[key] if m[key] else None}


def instr_rows(bd, target_meta):
    """The exact clock's per-function table: per breakdown with a perf profile, the path's
    instructions per I/O, the driver's own, the copy functions', own less copy, and the top
    kernel functions'."""
    rows = []
    for t in sorted(bd, key=torder(target_meta)):
        b = bd[t]
        pf = b["perf"]
        if not pf or not b.get("instr_per_io"):
            continue
        own = (b.get("driver") or {}).get("own_instr_per_io")
        own_copy = (b.get("driver") or {}).get("own_copy_instr_per_io")
        copy = pf.get("class_instr_per_io", {}).get("copy")
        rows.append([t, fmt(b["instr_per_io"]), fmt(own), fmt(copy), fmt(own_copy),
                     fmt(own - own_copy) if own is not None and own_copy is not None else "-",
                     ", ".join(f"`{x['symbol']}` {fmt(x['instr_per_io'])}"
                               for x in pf["top_kernel"][:10] if "instr_per_io" in x)])
    return rows


def render(run, plots):
    bd = breakdown(run)
    ex = run.exact
    exc = exact_cells(run)
    # perf's sampled split only where no plugin ran
    sampled = {t: b for t, b in bd.items() if t not in exc}
    only = (f"only for the targets without exact counts ({', '.join(exc)}: above)" if exc else
            "no target has exact counts here: `compare/run --exact-profile` gives them for "
            "ramlld's paths")
    order = sorted(bd, key=torder(run.target_meta))
    profs = sorted({b["profile"] for b in bd.values()})
    L = ["## Where the time goes (4k randread, iodepth 32, profile "
         f"{', '.join(profs) or 'default'}; traced runs, not counted above)", ""]
    mids = [x for x in (midlayer(run, p) for p in run.profiles) if x]
    if mids:
        unit = "instructions per I/O" if ex else "busy CPU µs per I/O (/proc/stat)"
        L += [f"What the SCSI midlayer adds per I/O ({unit}): ramlld-sd − ramlld-mq, same "
              "store, same workload:", "",
              table(["profile", "sd", "mq", "added", "added %"],
                    [[m["profile"], fmt(m["scsi"]), fmt(m["mq"]), pm(m["added"], m["added_std"]),
                      fmt(m["added_pct"], 0)] for m in mids]), ""]
    rows = []
    for t in order:
        b = bd[t]["btt"] or {}
        rows.append([t] + [fmt(b[k]["avg_us"]) if k in b else "-"
                           for k in ("Q2G", "G2I", "I2D", "D2C", "Q2C")]
                    + [b.get("Q2C", {}).get("n", "-")])
    if rows:
        L += ["btt averages (µs" + (" of guest time: thousands of instructions" if ex else "")
              + "; bio-based disks only have Q and C events, so only Q2C):", "",
              table(["target", "Q2G", "G2I", "I2D", "D2C", "Q2C", "N"], rows), ""]
    if exc:
        L += exact_lines(exc)
    rows = []
    for t in order:
        pf = bd[t]["perf"] if t in sampled else None
        if not pf:
            continue
        s = pf["share_of_busy_pct"]
        rows.append([t, fmt(pf["share_pct"]["idle"], 1)] + [fmt(s.get(k), 1) for k in SHOWN]
                    + [ceiling_text(bd[t])]
                    + [", ".join(f"`{x['symbol']}` {fmt(x['pct'], 1)}" for x in pf["top_kernel"][:5])])
    if rows:
        L += [f"Sampled, perf ({only}; cpu-clock, all CPUs, self time): share of busy samples "
              "per layer (compare/lib/perf.py LAYERS), %; idle as % of all samples. Samples land where "
              "interrupts are re-enabled, so 'other kernel' holds time of the code around "
              "them: the layers are lower bounds. 'driver own → ceiling' is counted on the "
              "callchains: every sample whose nearest caller of note is the driver's own code "
              "(not the completion it hands back to, nor an interrupt), as % of busy samples, "
              "and the Amdahl ceiling busy / (busy − own):", "",
              table(["target", "idle %"] + list(SHOWN)
                    + ["driver own → ceiling", "top kernel functions (% of all samples)"], rows), ""]
    rows = instr_rows(sampled, run.target_meta) if ex else []
    if rows:
        L += ["Instructions per I/O by function, sampled (perf on the exact clock): cpu-clock samples every "
              f"{run.meta.get('perf_period_ns', '(period not recorded)')} guest ns = "
              "instructions, so a function's share of the busy samples times the path's "
              "instructions per I/O is its instructions per I/O, ±1/√n of its n samples "
              "(the totals are exact):", "",
              table(["target", "instr/IO (path)", "driver own", "copy", "copy in own",
                     "own less copy", "top kernel functions, instr/IO"], rows), ""]
    if not bd and not exc:
        L += ["No breakdown in this run (--no-breakdown, or no target ran).", ""]
    elif bd and not any(b["perf"] for b in bd.values()):
        L += ["No perf profile in this run (`--no-perf`, or perf failed: see the notes).", ""]
    return L

# SPDX-License-Identifier: GPL-2.0
"""Where the time goes: the breakdown's btt averages, perf's split by layer, the driver's own
share and the Amdahl ceiling it sets, instructions per I/O by function on the exact clock."""

import math

from lib.fmt import fmt, pm, table
from lib.perf import breakdown
from lib.results import torder
from sections.bench import ceiling_text

TITLE = "Where the time goes"
ORDER = 150
SHOWN = ("scsi+sd", "block", "ramlld", "other driver", "copy", "sched+workqueue",
         "other kernel", "user")


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
    rows = []
    for t in order:
        pf = bd[t]["perf"]
        if not pf:
            continue
        s = pf["share_of_busy_pct"]
        rows.append([t, fmt(pf["share_pct"]["idle"], 1)] + [fmt(s.get(k), 1) for k in SHOWN]
                    + [ceiling_text(bd[t])]
                    + [", ".join(f"`{x['symbol']}` {fmt(x['pct'], 1)}" for x in pf["top_kernel"][:5])])
    if rows:
        L += ["perf (cpu-clock, all CPUs, self time): share of busy samples per layer "
              "(compare/lib/perf.py LAYERS), %; idle as % of all samples. Samples land where "
              "interrupts are re-enabled, so 'other kernel' holds time of the code around "
              "them: the layers are lower bounds. 'driver own → ceiling' is counted on the "
              "callchains: every sample whose nearest caller of note is the driver's own code "
              "(not the completion it hands back to, nor an interrupt), as % of busy samples, "
              "and the Amdahl ceiling busy / (busy − own):", "",
              table(["target", "idle %"] + list(SHOWN)
                    + ["driver own → ceiling", "top kernel functions (% of all samples)"], rows), ""]
    rows = instr_rows(bd, run.target_meta) if ex else []
    if rows:
        L += ["Instructions per I/O by function (exact clock): perf's cpu-clock samples every "
              f"{run.meta.get('perf_period_ns', '(period not recorded)')} guest ns = "
              "instructions, so a function's share of the busy samples times the path's "
              "instructions per I/O is its instructions per I/O, ±1/√n of its n samples "
              "(the totals are exact):", "",
              table(["target", "instr/IO (path)", "driver own", "copy", "copy in own",
                     "own less copy", "top kernel functions, instr/IO"], rows), ""]
    if not bd:
        L += ["No breakdown in this run (--no-breakdown, or no target ran).", ""]
    elif not any(b["perf"] for b in bd.values()):
        L += ["No perf profile in this run (`--no-perf`, or perf failed: see the notes).", ""]
    return L

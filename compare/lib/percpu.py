# SPDX-License-Identifier: GPL-2.0
"""The per-CPU knob table (tools/iprofile/percpu writes percpu.json): where each knob setting
runs the I/O's instructions, per CPU, on ramlld's mq and sd disks with completions raised on
one CPU and fio on another; the parallel model's bound; the check against the driver's own
per-CPU completion counters; seed 001's interrupt-CPU claim by the model.

table(data) -> the figures; markdown(tab) -> the report's lines; load(root) reads
ROOT/percpu/percpu.json (None when the run has none)."""

import json
import math
import os

from .fmt import table as md_table
from .stats import EXACT_NO_DIFFERENCE
from .verdict import judge

# The functions of a request's completion, by disk: where they run is where rq_affinity sent
# the completion (the interrupt CPU, or the submitter through an IPI). Absent ones (inlined
# on a kernel) are left out.
COMPLETION = {
    "mq": ["ramlld_mq_complete [ramlld]", "__blk_mq_end_request", "blk_update_request",
           "blkdev_bio_end_io", "aio_complete"],
    "sd": ["scsi_complete", "scsi_finish_command", "sd_done", "scsi_io_completion",
           "scsi_end_request", "blk_update_request", "blkdev_bio_end_io", "aio_complete"],
}
# ramlld's interrupt handler (irq.c): counted in the irq_* column of the CPU it runs on
HANDLER = ["ramlld_irq_ipi_fn [ramlld]", "ramlld_irq_work_fn [ramlld]",
           "ramlld_irq_handle [ramlld]"]
# the counters' columns of each disk: (column, the functions that run once per count)
CHECKS = {"mq": [("irq_mq", HANDLER), ("done_mq", ["ramlld_mq_complete [ramlld]"])],
          "sd": [("irq_scsi", HANDLER)]}
# the model's machine for seed 001: the post's six cores, each submitting
POST_CPUS = 6
# a CPU's share of a function and of a counter may differ by this much (block-grain counting)
SHARE_TOL = 0.01
# the counters count once per I/O within this (completions in flight at a window's edge)
PER_IO_TOL = 0.01
LAYERS_SHOWN = ("IPI", "irq+softirq")


def load(root):
    path = os.path.join(root, "percpu", "percpu.json")
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        return json.load(f)


def cpus_of(s):
    return sorted({c for per in s["functions"].values() for c in per}, key=str)


def share(per_cpu, cpus):
    tot = sum(per_cpu.get(c, 0) for c in cpus)
    return {c: (per_cpu.get(c, 0) / tot if tot else 0.0) for c in cpus}


def check(s, cpus):
    """Does the profile agree with the driver's counters? Per column: the counter counts one
    per I/O, and each CPU's share of it equals that CPU's share of the instructions of the
    functions that run once per count."""
    bad, said = [], []
    for col, fns in CHECKS[s["disk"]]:
        cnt = {c: s["counters"].get(c, {}).get(col, 0) for c in cpus}
        per_io = sum(cnt.values())
        ins = {}
        for f in fns:
            for c, v in s["functions"].get(f, {}).items():
                ins[c] = ins.get(c, 0) + v
        if not ins:
            bad.append(f"no instructions of {', '.join(fns)}")
            continue
        a, b = share(cnt, cpus), share(ins, cpus)
        if abs(per_io - 1) > PER_IO_TOL:
            bad.append(f"{col} counts {per_io:.3f} per I/O, not 1")
        worst = max(abs(a[c] - b[c]) for c in cpus)
        if worst > SHARE_TOL:
            bad.append(f"{col}'s CPU shares {fmt_share(a)} but the functions' {fmt_share(b)}")
        said.append(f"{col} {fmt_share(a)} = functions {fmt_share(b)}")
    return {"ok": not bad, "what": "; ".join(bad or said)}


def fmt_share(sh):
    return "/".join(f"CPU {c} {100 * v:.1f} %" for c, v in sh.items())


def where(per_cpu, cpus):
    """The CPU that runs (nearly) all of a set of functions' instructions, or the split."""
    sh = share(per_cpu, cpus)
    top = max(cpus, key=lambda c: sh[c])
    return f"CPU {top}" if sh[top] >= 0.99 else fmt_share(sh)


def one(s, base):
    """One setting's figures; base: the same disk's rq_affinity=0 setting (what the others
    add IPI and interrupt work to), or None."""
    cpus = cpus_of(s)
    by_cpu = {c: sum(per.get(c, 0) for per in s["functions"].values()) for c in cpus}
    total = sum(by_cpu.values())
    busiest = max(cpus, key=lambda c: by_cpu[c])
    comp = {}
    for f in COMPLETION[s["disk"]]:
        for c, v in s["functions"].get(f, {}).items():
            comp[c] = comp.get(c, 0) + v
    lay = {name: {c: sum(s["functions"][f].get(c, 0) for f in s["functions"]
                         if s["layers"][f] == name) for c in cpus} for name in LAYERS_SHOWN}
    funcs = {f: s["functions"][f] for f in s["functions"] if s["layers"][f] in LAYERS_SHOWN}
    added = {}
    if base is not None:
        bf = {f: base["functions"][f] for f in base["functions"]
              if base["layers"][f] in LAYERS_SHOWN}
        for f in set(funcs) | set(bf):
            d = {c: funcs.get(f, {}).get(c, 0) - bf.get(f, {}).get(c, 0) for c in cpus}
            if any(abs(v) >= 1 for v in d.values()):
                added[f] = d
    irq_cpu = s.get("irq_cpu")
    out = dict(s, cpus=cpus, by_cpu=by_cpu, total=total, busiest=busiest,
               completion_on=where(comp, cpus) if comp else "?",
               completion=comp, lay=lay, ipi_funcs=funcs, added=added,
               model_iops=1e9 / by_cpu[busiest], serial_iops=1e9 / total,
               check=check(s, cpus), irq_cpu=irq_cpu)
    return out


def seed001_model(s, irq_cpu, fio_cpu, n=POST_CPUS):
    """Seed 001's machine in the model: n CPUs, each submitting its share, and every
    completion's interrupt on one of them (S: the submitter's instructions per I/O, I: the
    interrupt CPU's). Busiest CPU per I/O of the machine: S/n + I; interrupts spread so each
    CPU takes its own: (S + I)/n at most (the IPI work stays counted). The ratio of the two
    bounds: (S + n I) / (S + I)."""
    S, I = s["by_cpu"].get(str(fio_cpu), 0), s["by_cpu"].get(str(irq_cpu), 0)
    return {"S": S, "I": I, "n": n, "one": S / n + I, "spread": (S + I) / n,
            "r": (S + n * I) / (S + I)}


def table(data):
    meta = data["meta"]
    irq_cpu, fio_cpu = meta.get("irq_cpu", "0"), meta.get("fio_cpu", "1")
    base = {s["disk"]: s for s in data["settings"]
            if s["rq_affinity"] == "0" and s["scheduler"] == "none" and s["add_random"] == "0"}
    rows = []
    for s in data["settings"]:
        b = base.get(s["disk"])
        rows.append(one(dict(s, irq_cpu=irq_cpu), None if b is s else b))
    return {"meta": meta, "settings": rows, "irq_cpu": irq_cpu, "fio_cpu": fio_cpu,
            "wall": data.get("wall", {}), "unfinished": data.get("unfinished", [])}


def knob_text(s):
    return f"rq_affinity={s['rq_affinity']}, {s['scheduler']}, add_random={s['add_random']}"


def fmt(x, d=0):
    return f"{x:,.{d}f}"


def seed001_verdict(tab):
    """Seed 001's interrupt-CPU claim by the per-CPU model: under the post's tuning
    (rq_affinity=2, none, add_random=0) on the sd disk (the post's SCSI LLD), the bound with
    every interrupt on one CPU over the bound with them spread, for the post's six cores.
    The interval: the ratio ± the larger of the exact clock's no-difference and the plugin's
    distance from the clock. The post gave no size: its band is any gain above 1.0."""
    for s in tab["settings"]:
        if (s["disk"], s["rq_affinity"], s["scheduler"], s["add_random"]) == ("sd", "2", "none", "0"):
            m = seed001_model(s, tab["irq_cpu"], tab["fio_cpu"])
            err = max(EXACT_NO_DIFFERENCE, abs(s["total"] / s["clock"] - 1))
            lo, hi = m["r"] * (1 - err), m["r"] * (1 + err)
            cat, why = judge(lo, hi, m["r"], 2.0, (1.0, math.inf))
            return {"category": cat, "why": why, "model": m, "lo": lo, "hi": hi, "err": err,
                    "setting": s}
    return None


def verdict_line(v):
    m = v["model"]
    return (f"**Verdict by the per-CPU model: {v['category']}** — {v['why']} (the post gives "
            f"no size: any gain above 1.0 is its band). Modelled: {m['n']} CPUs each "
            f"submitting, every interrupt on one of them: its {fmt(m['one'])} instructions per "
            f"I/O of the machine (S/n + I, S = {fmt(m['S'])} the submitter's, I = "
            f"{fmt(m['I'])} the interrupt CPU's, measured on ramlld's sd disk under the post's "
            f"tuning) bound the machine; spread, each CPU's {fmt(m['spread'])} ((S + I)/n): "
            f"**{m['r']:.3f}x** the bound (± {100 * v['err']:.2f} %). A model (docs/profile.md), "
            "not a parallel run: it assumes CPUs that run at once and never wait on each other.")


def verdict_measured(v):
    """The summary's "measured here" of the claim, by the model."""
    m = v["model"]
    return (f"per-CPU model, {m['n']} CPUs, ramlld sd under the post's tuning: one interrupt "
            f"CPU's bound over spread's {m['r']:.3f}x (S = {fmt(m['S'])}, I = {fmt(m['I'])} "
            "instructions per I/O, exact clock)")


def verdict_cell(v):
    """The summary's verdict cell: the category first, as every seed row's."""
    return (f"**{v['category']}** by the per-CPU model: {v['why']} (the post gives no size: "
            "any gain above 1.0 is its band); a model of CPUs running at once, from one "
            "profiled boot (docs/profile.md), not a parallel run.")


def cache_markdown(tab, top=4):
    """The cache model's lines, when the boot ran it (tools/iprofile/percpu --cache)."""
    rows = [s for s in tab["settings"] if s.get("cache")]
    if not rows:
        return []
    cpus = tab["settings"][0]["cpus"]
    L = ["", f"**Cache, modelled** (a model, not a measurement: the plugin's cache model, "
         f"{rows[0]['cache']['model']}; the same windows): L1d and L2 misses per I/O on each "
         "CPU, and the loads and stores behind them.", ""]
    head = (["disk", "setting"] + [f"CPU {c} L1d / L2 misses" for c in cpus] +
            ["all CPUs L1d / L2", "loads+stores per I/O"])
    body = []
    for s in rows:
        c = s["cache"]["cpus"]
        tot = [sum(v[k] for v in c.values()) for k in range(3)]
        body.append([s["disk"], knob_text(s)] +
                    [f"{fmt(c.get(x, [0, 0, 0])[1], 1)} / {fmt(c.get(x, [0, 0, 0])[2], 1)}"
                     for x in cpus] + [f"{fmt(tot[1], 1)} / {fmt(tot[2], 1)}", fmt(tot[0])])
    L += [md_table(head, body), "", "The functions with the most L1d misses per I/O (L1d / L2, "
          + " and ".join(f"CPU {c}" for c in cpus) + f"; the {top} largest):", ""]
    for s in rows:
        fn = s["cache"]["functions"]
        big = sorted(fn, key=lambda f: -sum(v[0] for v in fn[f].values()))[:top]
        L.append(f"- {s['disk']}, {knob_text(s)}: " + "; ".join(
            f"{f} " + " and ".join(f"{fmt(fn[f].get(c, [0, 0])[0], 1)} / "
                                   f"{fmt(fn[f].get(c, [0, 0])[1], 1)}" for c in cpus)
            for f in big))
    return L


def markdown(tab, top=8):
    """The per-CPU table's lines (markdown)."""
    if not tab or not tab["settings"]:
        return []
    meta = tab["meta"]
    cpus = tab["settings"][0]["cpus"]
    L = [f"**Per CPU, exactly** (the plugin's counts on the exact clock, QEMU "
         f"{meta.get('qemu') or '10'}, {meta.get('cpus', '?')} vCPUs, guest kernel "
         f"{meta.get('kernel', '?')}, one boot; completions raised on CPU {tab['irq_cpu']}, fio "
         f"on CPU {tab['fio_cpu']}; 4k randread QD32 libaio; each setting is seed 001's tuning "
         "with one knob changed): instructions per I/O on each CPU; the model column is "
         "10^9 / the busiest CPU's instructions per I/O (a model: CPUs running in parallel at "
         "one instruction per ns, docs/profile.md); the clock column is the exact clock's "
         "10^9 / IOPS, vCPUs taking turns.", ""]
    head = (["disk", "setting"] + [f"CPU {c}" for c in cpus] +
            ["completion functions on", "IPI per CPU", "irq+softirq per CPU",
             "plugin / clock - 1", "busiest", "model IOPS (parallel)", "clock IOPS (turns)",
             "driver's counters"])
    body = []
    for s in tab["settings"]:
        body.append([s["disk"], knob_text(s)] + [fmt(s["by_cpu"][c]) for c in cpus] +
                    [s["completion_on"],
                     " / ".join(fmt(s["lay"]["IPI"][c]) for c in cpus),
                     " / ".join(fmt(s["lay"]["irq+softirq"][c]) for c in cpus),
                     f"{100 * (s['total'] / s['clock'] - 1):+.2f} %", f"CPU {s['busiest']}",
                     fmt(s["model_iops"]), fmt(1e9 / s["clock"]),
                     "agree" if s["check"]["ok"] else "**disagree**: " + s["check"]["what"]])
    L += [md_table(head, body), ""]
    L.append("What each setting adds over rq_affinity=0 on the same disk, as IPI and interrupt/"
             "softirq functions (instructions per I/O, " + " / ".join(f"CPU {c}" for c in cpus)
             + f"; the {top} largest):")
    L.append("")
    for s in tab["settings"]:
        if not s["added"]:
            continue
        big = sorted(s["added"].items(), key=lambda kv: -sum(abs(v) for v in kv[1].values()))[:top]
        L.append(f"- {s['disk']}, {knob_text(s)}: " + "; ".join(
            f"{f} {' / '.join(f'{v:+,.1f}' for v in d.values())}" for f, d in big))
    L.append("")
    L.append("The driver's counters (debugfs ramlld/completions, per I/O over the same windows): "
             + "; ".join(f"{s['disk']} rq_affinity={s['rq_affinity']}"
                         f"{'' if s['scheduler'] == 'none' else ' ' + s['scheduler']}"
                         f"{'' if s['add_random'] == '0' else ' add_random=1'}: {s['check']['what']}"
                         for s in tab["settings"]) + ".")
    v = seed001_verdict(tab)
    if v:
        L += ["", "Seed 001, interrupts spread by hand keep one interrupt CPU from saturating: "
              + verdict_line(v)]
    if tab.get("unfinished"):
        L += ["", "Not measured (the run stopped before their windows closed): "
              + ", ".join(tab["unfinished"]) + "."]
    L += cache_markdown(tab)
    if tab["wall"].get("cpu_s"):
        L += ["", f"Cost: the profiled boot took {tab['wall'].get('wall_s')} s wall and "
              f"{tab['wall']['cpu_s']} s of host CPU."]
    return L

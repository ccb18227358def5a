# SPDX-License-Identifier: GPL-2.0
"""The knob table (compare/knobs.py measures it, lib/knobtable.py writes it): what
rq_affinity, the scheduler and add_random each change on ramlld's mq and sd paths, as a table
and a plot; with ROOT/percpu (tools/iprofile/percpu), where each setting runs its instructions,
per CPU."""

import os

from lib import knobtable, percpu

TITLE = "The knob table"
ORDER = 80
# which kind of step the per-CPU profile is (compare/run --help)
STEP = ("The per-CPU profile is made by `compare/run --exact-profile`, an option of its own, "
        "not part of any level: its profiled boots cost minutes of host CPU each (docs/profile.md).")


def noise(floor, b, v, w_noise):
    """The band within which an IOPS change is no effect (knobtable.effect's rule), in %."""
    return max(floor, 2 * max(b["spread"] or 0, v["spread"] or 0, w_noise or 0))


def effects(run):
    """[(workload, knob, change, {"mq": (pct, words), "sd": (pct, words)})]: each knob changed
    alone from the kernel's defaults to seed 001's value, its IOPS change on mq and on sd."""
    def make():
        meta, runs = knobtable.load(os.path.join(run.root, "knobs"))
        if not meta or not runs:
            return None
        floor = knobtable.FLOOR_PCT["icount" if meta.get("clock") == "icount" else "host"]
        out = []
        for workload, a in knobtable.analyse(meta, runs).items():
            cells = a["cells"]
            for knob in knobtable.KNOBS:
                for base, to in (("default", knobtable.SEED001[knob]),):
                    name = f"{base} {knob}={to}"
                    got = {}
                    for fe, label in (("mq", "mq"), ("scsi", "sd")):
                        b, v = cells.get((base, fe)), cells.get((name, fe))
                        if b and v:
                            got[label] = knobtable.effect((b["iops"], b["spread"]),
                                                          (v["iops"], v["spread"]), floor,
                                                          a["noise"]) \
                                + (noise(floor, b, v, a["noise"]),)
                    if got:
                        out.append((workload, knob, f"{knobtable.DEFAULT[knob]} → {to}", got))
            for name, label in (("seed-001", "all three (seed 001's tuning)"),):
                got = {}
                for fe, fl in (("mq", "mq"), ("scsi", "sd")):
                    b, v = cells.get(("default", fe)), cells.get((name, fe))
                    if b and v:
                        got[fl] = knobtable.effect((b["iops"], b["spread"]),
                                                   (v["iops"], v["spread"]), floor,
                                                   a["noise"]) + (noise(floor, b, v, a["noise"]),)
                if got:
                    out.append((workload, label, "defaults → seed 001's", got))
        return out
    return run.once("knob-effects", make)


def plot(run, plots):
    eff = effects(run)
    if not eff or plots.plt is None:
        return None
    works = sorted({e[0] for e in eff})
    n = max(sum(1 for e in eff if e[0] == w) for w in works)
    fig, axs = plots.plt.subplots(len(works), 1, figsize=(9, (0.8 * n + 1.2) * len(works)),
                                  squeeze=False)
    axs = [[a[0] for a in axs]]  # one panel a workload, stacked
    for ax, w in zip(axs[0], works):
        rows = [e for e in eff if e[0] == w]
        labels = [f"{e[1]} {e[2]}" if not e[1].startswith("all") else e[1] for e in rows]
        ys = range(len(rows))
        for y, e in zip(ys, rows):
            band = max(x[2] for x in e[3].values())
            ax.barh(y, 2 * band, 0.9, left=-band, color="0.9",
                    label="no effect: within the noise" if y == 0 else None)
        for k, (fe, col, off) in enumerate((("mq", "tab:blue", -0.2), ("sd", "tab:orange", 0.2))):
            vals = [e[3].get(fe, (0, ""))[0] for e in rows]
            ax.barh([y + off for y in ys], vals, 0.4, color=col,
                    label="ramlld-mq (blk-mq disk)" if fe == "mq" else "ramlld-sd (sd disk)")
            # each bar's value beside it: a change of 0.3 % next to one of 100 % has no width
            for y, v in zip(ys, vals):
                ax.text(max(v, 0), y + off, f" {v:+.1f} %", va="center", fontsize=7)
        hi = max([abs(e[3].get(fe, (0,))[0]) for e in rows for fe in ("mq", "sd")] + [1])
        ax.set_xlim(min(-5, -0.1 * hi), hi * 1.35)
        ax.axvline(0, color="grey", linewidth=0.8)
        ax.set_yticks(list(ys))
        ax.set_yticklabels(labels, fontsize=7)
        ax.invert_yaxis()
        ax.set_xlabel("IOPS change over the kernel's defaults (%)", fontsize=8)
        ax.set_title(f"knobs one at a time, workload {w}", fontsize=9)
    axs[0][0].legend(fontsize=7, loc="upper right")
    return plots.save(fig, "knobs.png")


def render(run, plots):
    L = (knobtable.markdown(os.path.join(run.root, "knobs"), guest=run.meta.get("knob_guest"))
         or knobtable.not_measured(run.meta))
    data = percpu.load(run.root)
    per_cpu = (["### Where each knob acts, per CPU (the exact profile)", "", STEP, ""]
               + percpu.markdown(percpu.table(data)) + [""]) if data else []
    if L and not data:
        per_cpu = ["Where each knob acts per CPU, and the cache model's misses per rq_affinity "
                   "setting: not in this run. " + STEP, ""]
    if not L and not per_cpu:
        return []
    if not L:
        L = ["## The knob table (seed 001)", ""]
    clock = (f"*clock: the knob guest's, {run.meta['knob_guest']}*" if run.meta.get("knob_guest")
             else None)
    if clock:
        L = L[:1] + [clock] + L[1:]
    img = run.once("knobs.png", lambda: plot(run, plots))
    return L + ([img, ""] if img else []) + per_cpu

# SPDX-License-Identifier: GPL-2.0
"""The seed sections' common part: a seed section's markdown and its ratio bars (each section
holds its post's band, BAND, for the verdict: lib/verdict.py)."""

from .fmt import table
from .stats import ratio
from .verdict import RULES


def cell_ratio(idx, a, b, metric="iops"):
    """(r, sd, n) of cell a over cell b on metric (cells are idx keys)."""
    ca, cb = idx.get(a), idx.get(b)
    if not ca or not cb or not ca.get(metric) or not cb.get(metric):
        return None, None, 0
    r, sd = ratio(ca[metric], ca[metric + "_std"], cb[metric], cb[metric + "_std"])
    return r, sd, min(ca["n"], cb["n"])



def targets_of(cells, w):
    order = ["ramlld-bio", "ramlld-mq", "ramlld-sd", "ramlld-sd-tar", "sdebug",
             "sdebug-norwlock", "sdebug-fakerw", "lio"]
    ts = {c["target"] for c in cells if c["workload"] == w}
    return sorted(ts, key=lambda t: (order.index(t) if t in order else len(order), t))


def markdown(s):
    """A seed section's lines."""
    L = [f"## Seed {s['id']}: {s['title']}", "",
         f"**The post:** {s['claim']}.", "", f"**Measured here:** {s['compared']}", "",
         f"**Clock:** every figure of this section: {s.get('clock', 'host clock')}.", "",
         "**Verdict rule** (compare/lib/verdict.py; docs/seeds.md): " + RULES[0], ""]
    for cap, head, rows in s["tables"]:
        if rows:
            L += [cap + ":", "", table(head, rows), ""]
    for n in s["notes"]:
        L += [n, ""]
    for p in s.get("plots", []):
        L += [p, ""]
    L += [s["verdict_line"], ""]
    return L


def bars(s, plots):
    """A seed's table of ratios as bars (the post's beside this run's)."""
    b = s.get("bars")
    if not b or plots.plt is None:
        return
    fig, ax = plots.plt.subplots(figsize=(8, 4.5))
    width = 0.8 / len(b["series"])
    vals = [v for _, vs in b["series"] for v in vs if v]
    # ratios an order of magnitude apart: a log axis, each bar from 1.0, keeps those near 1
    # readable beside a 50x
    log = bool(vals) and max(vals) / min(vals) > 10
    for i, (label, vs) in enumerate(b["series"]):
        xs = [g + (i - (len(b["series"]) - 1) / 2) * width for g in range(len(b["groups"]))]
        have = [(x, v) for x, v in zip(xs, vs) if v is not None]
        ax.bar([x for x, _ in have], [v - 1 if log else v for _, v in have], width,
               bottom=1 if log else 0, label=label)
    ax.axhline(1.0, color="grey", linewidth=0.8)
    if log:
        ax.set_yscale("log")
        ax.set_ylim(min(vals + [1.0]) / 1.5, max(vals) * 1.5)
        ax.set_ylabel(b["ylabel"] + ", log scale", fontsize=8)
    else:
        ax.set_ylim(0, max(vals + [1.0]) * 1.1)
        ax.set_ylabel(b["ylabel"], fontsize=8)
    ax.set_xticks(range(len(b["groups"])))
    ax.set_xticklabels(b["groups"], fontsize=8)
    ax.set_title(b["title"], fontsize=9)
    ax.legend(fontsize=7, loc="upper left")
    s.setdefault("plots", []).append(plots.save(fig, b["name"]))


def compute_section(run, workload, analyse, finish=None):
    """A seed section's figures, once per run (None when the run has no cells of workload):
    analyse(root, cells, idx, exact) makes them; finish(sec, run) adds what this run's clock
    cannot decide."""
    def make():
        if not any(c["workload"] == workload for c in run.cells):
            return None
        sec = analyse(run.root, run.cells, run.idx, run.exact)
        sec["clock"], sec["exact"] = run.clock, run.exact
        if finish:
            finish(sec, run)
        return sec
    return run.once(workload, make)


def render_section(sec, plot, plots, to_markdown):
    """A seed section's markdown, its plot drawn first ([] without figures)."""
    if not sec:
        return []
    sec["plots"] = []
    plot(sec, plots)
    return to_markdown(sec)

# SPDX-License-Identifier: GPL-2.0
"""The seed sections' common part: the verdict rule (host clock and exact clock), the posts'
bands, the verdict that the clock cannot decide, a seed section's markdown and its ratio bars."""

from .fmt import fmt, table
from .stats import EXACT_AGREE_PCT, EXACT_NO_DIFFERENCE, interval95, ratio

# "reproduced" also when the measured ratio is within this factor of the post's
TOLERANCE = 0.15
VERDICT_RULE = (
    "Verdict rule on the host's clock: the measured ratio's 95 % interval is mean ± t·sd/√n "
    "(Student's t, n the fewer repeats of the two cells, sd propagated from both cells' sample "
    "deviations). An interval holding 1.0 (no difference beyond the spread) or a ratio on the "
    f"other side of 1.0 is **not reproduced**; the same direction with the post's ratio inside "
    f"the interval or within ±{TOLERANCE:.0%} of it is **reproduced**; the same direction at "
    "another size is **changed since** (the effect is there, the kernel moved its size).")
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


UNDECIDABLE = "not decidable on this clock"
# a claim whose other side cannot run on this machine's distribution (no package of it)
UNAVAILABLE = "not decidable here"
UNDECIDABLE_RULE = (
    "A claim about work done in parallel (several CPUs at once, or a target and an initiator "
    f"on two machines) is **{UNDECIDABLE}** on a guest whose vCPUs take turns: its figures "
    "are then said, and the command that decides the claim on a machine with parallel CPUs "
    "is given.")


def undecidable(sec, why, command, where=None):
    """Mark a seed section's verdict as one this clock cannot decide: why, and the command that
    decides it on a machine with parallel CPUs (where: what that machine must have)."""
    v = sec["verdict"]
    v["measured_category"] = v["category"]
    v["category"] = UNDECIDABLE
    v["why"], v["command"], v["where"] = why, command, where
    sec["verdict_line"] = (f"**Verdict: {UNDECIDABLE}** — {why} Decided on a machine with "
                           f"parallel CPUs by `{command}`" + (f", {where}" if where else "")
                           + ". What this run measured: "
                           + sec["verdict_line"].split("—", 1)[-1].strip())


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
         rule(s.get("exact")), ""]
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
    fig, ax = plots.plt.subplots(figsize=(7, 4))
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
    s.setdefault("plots", []).append(plots.save(fig, b["name"]))


def rule(exact):
    return VERDICT_RULE_EXACT if exact else VERDICT_RULE



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

# SPDX-License-Identifier: GPL-2.0
"""The one verdict on a post's ratio claim: reproduced, not reproduced, inconclusive, not
decidable. Every seed section and docs/seeds.md use it; RULES is the rule, word for word as
docs/seeds.md gives it (a style test compares them)."""

import os

from .fmt import fmt, runtime
from .stats import EXACT_AGREE_PCT, EXACT_NO_DIFFERENCE, interval95

REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
INCONCLUSIVE = "inconclusive"
NOT_DECIDABLE = "not decidable"
VOCABULARY = (REPRODUCED, NOT_REPRODUCED, INCONCLUSIVE, NOT_DECIDABLE)

RULES = [
    "**The interval.** On the host's clock: the measured ratio's 95 % interval, mean ± "
    "t·sd/√n (Student's t, n the fewer repeats of the two figures, sd propagated from both). "
    "On the exact clock (icount, docs/clock.md) a figure's runs check determinism, they are "
    f"no sample: each figure's runs must agree within {EXACT_AGREE_PCT} % of their mean (a "
    "figure of one run, at a level that runs each cell once, stands on the run's spot check: "
    "the cells it ran twice, whose agreement the line gives), and the interval is the ratio "
    f"± {EXACT_NO_DIFFERENCE * 100:g} % (both figures' agreement).",
    "**The post's band.** The post's ratio read to the last digit it gave, widened to every "
    "ratio of its own figures for that claim (BAND in its section, compare/sections/seedNNN.py): "
    "the post measured once, on other hardware, and printed no spread.",
    f"**{REPRODUCED}**: the interval excludes 1.0, on the post's side of it, and meets the "
    "post's band.",
    f"**{NOT_REPRODUCED}**: the interval excludes the post's band and either holds 1.0 (no "
    "effect of the post's size) or excludes it (an effect in the other direction, or of "
    "another size: the line says which).",
    f"**{INCONCLUSIVE}**: the interval holds both 1.0 and a part of the post's band.",
    f"**{NOT_DECIDABLE}**: nothing this run measured can decide the claim: the figures are "
    "missing, one run or runs that disagree on the exact clock, a parallel effect on a guest "
    "whose vCPUs take turns, or a system Debian does not ship. The line gives the reason and "
    "what would decide it.",
    "**The setup.** Every verdict line says how the run's setup differs from the post's "
    "(CPUs, clock, runs, job length, the post's hardware or transport): a verdict holds for "
    "the run's setup.",
]


def spot_check(cells):
    """How the run's cells that ran twice agree: the check a one-run exact figure stands on
    (n cells with two runs or more, how many of them within EXACT_AGREE_PCT)."""
    rep = [c["determinism"] for c in cells
           if c.get("determinism") and c["determinism"].get("pct") is not None]
    return {"n": len(rep), "within": sum(1 for d in rep if d["ok"])}


def setup_of(root):
    """This run's setup in a few words, from its meta.env (what a verdict holds for)."""
    from .results import read_env
    m = read_env(os.path.join(root, "meta.env"))
    clock = "exact clock" if m.get("clock") == "icount" else "host clock"
    where = ("this host's devices" if m.get("accel", "").startswith("none")
             else f"{m.get('cpus', '?')} vCPU(s), TCG, {clock}")
    return f"{where}, {m.get('repeats', '?')} runs of {runtime(m.get('runtime'), '? s')} a cell"


def setup_text(root, post):
    """How this run's setup differs from the post's: both said."""
    return f"here {setup_of(root)}; the post {post}"


def judge(lo, hi, r, claim, band=None):
    """(category, why) of a ratio r with interval lo-hi against the post's ratio claim (> 1 or
    < 1: the direction the post found) and its band (lo, hi)."""
    blo, bhi = band or (claim, claim)
    holds_one = lo <= 1.0 <= hi
    meets_band = lo <= bhi and hi >= blo
    span = f"{fmt(lo, 3)}-{fmt(hi, 3)}"
    if holds_one and meets_band:
        return INCONCLUSIVE, f"the interval {span} holds both 1.0 and the post's band"
    if holds_one:
        return NOT_REPRODUCED, f"no effect of the post's size: the interval {span} holds 1.0"
    if (r > 1) != (claim > 1):
        return NOT_REPRODUCED, f"the other direction: the interval {span} is on the other side of 1.0"
    if meets_band:
        return REPRODUCED, f"the interval {span} meets the post's band"
    size = "smaller" if abs(r - 1) < abs(blo - 1) else "larger"
    return NOT_REPRODUCED, (f"an effect {size} than the post's: the interval {span} is outside "
                            f"its band {fmt(blo, 3)}-{fmt(bhi, 3)}")


def verdict(r, sd, n, claim, band=None, agree=None, setup=None, decides=None, spot=None):
    """The verdict dict of a measured ratio r ± sd (n repeats) against the post's claim and
    band. agree None: the host's clock; else the exact clock's agreement() of the figures, and
    spot the run's spot_check() that a figure of one run stands on. setup: how this run's setup
    differs from the post's (said with the verdict); decides: the command that would decide it
    when nothing here can."""
    v = {"category": NOT_DECIDABLE, "r": r, "sd": sd, "lo": None, "hi": None, "n": n,
         "claim": claim, "exact": agree is not None, "band": band, "agree": agree,
         "setup": setup, "why": None, "decides": decides, "where": None, "spot": spot}
    if r is None:
        v["why"] = "this run has no figures of it"
        return v
    if agree is not None:
        if agree["ok"] is False or (agree["ok"] is None and not (spot and spot["n"])):
            v["why"] = (f"the runs differ beyond {EXACT_AGREE_PCT} %: {agree['what']}"
                        if agree["ok"] is False else
                        "one run, and no cell of the run ran twice: nothing checks that it is "
                        f"exact ({agree['what']})")
            v["decides"] = decides or "the same command with runs that agree (--repeats 2 or more)"
            return v
        lo, hi = r * (1 - EXACT_NO_DIFFERENCE), r * (1 + EXACT_NO_DIFFERENCE)
    else:
        lo, hi = interval95(r, sd, n)
        if lo is None:
            v["why"] = "one run: no interval"
            v["decides"] = f"{decides} --repeats 3" if decides else "the same command with --repeats 3"
            return v
    v["lo"], v["hi"] = lo, hi
    v["category"], v["why"] = judge(lo, hi, r, claim, band)
    return v


def not_decidable(v, why, decides, where=None):
    """v made not decidable here (a parallel effect, a system not in Debian): why, and what
    decides it (where: what that needs). What the run measured stays in v."""
    v.update(measured_category=v["category"], measured_why=v["why"], category=NOT_DECIDABLE,
             why=why, decides=decides, where=where)
    return v


def figure(v):
    """The measured ratio with the precision its method has."""
    if v["r"] is None:
        return "not measured"
    if v["exact"]:
        a = v["agree"] or {}
        spot = v.get("spot") or {}
        runs = (f"exact, every figure's runs within {a['pct']:.2f} %" if a.get("ok")
                else f"exact, one run; the spot check: {spot['within']} of {spot['n']} cells run "
                f"twice within {EXACT_AGREE_PCT} %" if a.get("ok") is None and spot.get("n")
                else "exact clock, one run: not checked" if a.get("ok") is None
                else f"exact clock, runs more than {EXACT_AGREE_PCT} % apart")
        return f"**{fmt(v['r'], 3)}x** ({runs})"
    if v["n"] < 2:
        return f"**{fmt(v['r'], 2)}x** (host clock, one run)"
    lo = f"; 95 % interval {fmt(v['lo'], 2)}-{fmt(v['hi'], 2)}" if v["lo"] is not None else ""
    return f"**{fmt(v['r'], 2)} ± {fmt(v['sd'], 2)}x** (host clock, n = {v['n']}{lo})"


def decided_by(v):
    if v["category"] != NOT_DECIDABLE or not v["decides"]:
        return ""
    cmd = v["decides"]
    cmd = f"`{cmd}`" if cmd.startswith(("compare/", "tools/")) else cmd  # a command, or words
    return f" Decides it: {cmd}" + (f", {v['where']}" if v.get("where") else "") + "."


def line(v, what, claim_text):
    """A seed section's verdict line."""
    band = v["band"] or (v["claim"], v["claim"])
    s = f"**Verdict: {v['category']}** — {v['why']}.{decided_by(v)}"
    if v["r"] is not None:
        s += (f" Measured: {what}: {figure(v)} against the post's {fmt(v['claim'], 2)}x "
              f"({claim_text}; its band {fmt(band[0], 3)}-{fmt(band[1], 3)}).")
    if v.get("measured_category"):
        s += f" By the ratio alone: {v['measured_category']} ({v['measured_why']})."
    if v["setup"]:
        s += f" Setup: {v['setup']}."
    return s


def cell(v):
    """The verdict in a table cell (the report's summary)."""
    return (f"**{v['category']}**: {v['why']}.{decided_by(v)}"
            + (f" Setup: {v['setup']}." if v["setup"] else ""))

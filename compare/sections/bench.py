# SPDX-License-Identifier: GPL-2.0
"""Bench (compare/run --bench bio|mq|scsi): ramlld against its in-kernel references, a goal
per ratio, met or not."""

from lib.fmt import fmt, pm, table
from lib.perf import breakdown
from lib.stats import EXACT_AGREE_PCT, mean_bounds95, mean_sd, ratio
from lib.targets import benches

TITLE = "Bench"
ORDER = 60
RR, RW = "randread-4k-qd32", "randwrite-4k-qd32"


def paired_ratios(ca, cb):
    """a/b of each repeat both cells have (with --interleave repeat r of every target runs in
    round r: the ratio within a round leaves out the host's drift between rounds)."""
    rb = {r["rep"]: r["iops"] for r in cb["runs"] if r.get("iops")}
    return [r["iops"] / rb[r["rep"]] for r in ca["runs"] if r.get("iops") and r["rep"] in rb]


def compute(run):
    def make():
        bench = []
        # (a, b, label, {section: goal for a/b}): each a's "# bench-ratio:" (lib/targets.py)
        ratios = benches(run.headers).get(run.meta.get("bench", ""), {}).get("ratios", [])
        for a, b, label, goals in ratios:
            for p in run.profiles:
                for s in (RR, RW):
                    ca, cb = run.cell(a, p, "qd32", s), run.cell(b, p, "qd32", s)
                    if not ca or not cb:
                        continue
                    r, rs = ratio(ca["iops"], ca["iops_std"], cb["iops"], cb["iops_std"])
                    if run.exact:
                        rs = None   # one exact run decides; the second checks that it is exact
                    paired = (paired_ratios(ca, cb)
                              if run.meta.get("interleave") == "1" and not run.exact else [])
                    lo = hi = None
                    if len(paired) >= 2:
                        r, rs = mean_sd(paired)
                        lo, hi = mean_bounds95(paired)
                    bench.append({"paired": len(paired) if len(paired) >= 2 else 0, "lo95": lo,
                                  "hi95": hi, "label": label, "profile": p, "section": s,
                                  "a": a, "b": b, "a_iops": ca["iops"], "a_std": ca["iops_std"],
                                  "b_iops": cb["iops"], "b_std": cb["iops_std"], "ratio": r,
                                  "ratio_std": rs, "goal": goals.get(s), "exact": run.exact,
                                  "a_det": ca["determinism"], "b_det": cb["determinism"],
                                  "a_instr": ca["instr_per_io"], "b_instr": cb["instr_per_io"]})
        return bench
    return run.once("bench", make)


def ceiling_text(bd, goal=None):
    """'own% → ceiling x' of a breakdown's driver share; flags a goal above the ceiling."""
    d = (bd or {}).get("driver")
    if not d:
        return "-"
    txt = f"{fmt(d['own_of_busy_pct'], 1)}% → {fmt(d['ceiling'], 2)}x"
    if d.get("own_instr_per_io") is not None:
        txt += f" ({fmt(d['own_instr_per_io'])} instr/IO own)"
    return txt + (" (goal above it)" if goal and goal > d["ceiling"] else "")


def verdict(b):
    """met / NOT met / inconclusive for a bench ratio against its goal."""
    if b.get("exact"):
        bad = [f"{t}: {d['what']}" for t, d in ((b["a"], b["a_det"]), (b["b"], b["b_det"]))
               if d and d["ok"] is False]
        if bad:
            return "inconclusive: the runs differ (" + "; ".join(bad) + ")"
        return "met" if b["ratio"] >= b["goal"] else "NOT met"
    if b["paired"]:
        lo, hi = b["lo95"], b["hi95"]
        within = "inconclusive: the goal is within the 95% bounds of the mean"
    else:
        sp = b["ratio_std"] or 0
        lo, hi = b["ratio"] - sp, b["ratio"] + sp
        within = "inconclusive: the goal is within the spread"
    return "met" if lo >= b["goal"] else "NOT met" if hi < b["goal"] else within


def render(run, plots):
    bench = compute(run)
    if not bench:
        return []
    bd = breakdown(run)

    def pv(m, sd, nd=None):
        return pm(m, None if run.exact else sd, nd)
    L = ["## Bench", ""]
    if any(b["paired"] for b in bench):
        L += ["The repeats ran interleaved (round r runs repeat r of every target): a / b is "
              "the mean ± standard deviation of the per-round ratios. A goal is met when the "
              "one-sided 95% lower bound of the mean ratio (Student's t over the rounds) is at "
              "or above it, missed when the upper bound is below it.", ""]
    if run.exact:
        L += ["On the exact clock one run per target decides: a / b is the ratio of the two "
              "targets' IOPS (= b's instructions per I/O over a's); the second run of each only "
              f"checks that the figure is exact (within {EXACT_AGREE_PCT} %). A goal is met "
              "when a / b is at or above it.", ""]
    L.append(table(["comparison", "profile", "workload", "IOPS a", "IOPS b", "instr/IO a",
                    "instr/IO b", "a / b", "95% bounds", "goal", "b's ceiling"],
                   [[b["label"], b["profile"], b["section"], pv(b["a_iops"], b["a_std"]),
                     pv(b["b_iops"], b["b_std"]), fmt(b["a_instr"]), fmt(b["b_instr"]),
                     pv(b["ratio"], b["ratio_std"], 3 if run.exact else 2),
                     f"{fmt(b['lo95'], 2)}-{fmt(b['hi95'], 2)}" if b["paired"] else "-",
                     f"≥ {b['goal']}: {verdict(b)}" if b["goal"] else "-",
                     ceiling_text(bd.get(b["b"]), b["goal"])] for b in bench]))
    L.append("")
    if any((bd.get(b["b"]) or {}).get("driver") for b in bench):
        L += ["b's ceiling: the most any driver could gain over b on b's path, by Amdahl's "
              "law: b's own share of the busy CPU samples of its 4k randread profile (section "
              "'Where the time goes'), and busy / (busy − own).", ""]
    return L

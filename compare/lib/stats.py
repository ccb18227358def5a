# SPDX-License-Identifier: GPL-2.0
"""The report's statistics: means, spreads, ratios and Student's t bounds (SciPy)."""

import math
import statistics
import sys

# On the exact clock (QEMU -icount) every figure's runs must agree within this (%): a figure is
# an instruction count, its repeats check the clock's determinism (docs/clock.md).
EXACT_AGREE_PCT = 0.5
# A ratio of two figures each within EXACT_AGREE_PCT of its runs' mean is known to within
# about twice that: closer than this to 1.0 is no difference.
EXACT_NO_DIFFERENCE = 2 * EXACT_AGREE_PCT / 100


def t_ppf(q, df):
    """Student's t quantile (SciPy's special function: scipy.stats is slow to load under TCG)."""
    try:
        from scipy.special import stdtrit
    except ImportError:
        sys.exit("report.py: Student's t needs SciPy: apt-get install python3-scipy "
                 "(tools/deps), and run Debian's python3")
    return float(stdtrit(df, q))


def mean_sd(xs):
    """Mean and sample standard deviation (0 for one value; None, None for none)."""
    xs = [x for x in xs if x is not None]
    if not xs:
        return None, None
    return statistics.fmean(xs), statistics.stdev(xs) if len(xs) > 1 else 0.0


mean_std = mean_sd


def ratio(a, sa, b, sb):
    """a / b with its sd propagated from both (first order)."""
    if a is None or not b:
        return None, None
    r = a / b
    rel = math.sqrt(((sa or 0) / a) ** 2 + ((sb or 0) / b) ** 2) if a else 0.0
    return r, r * rel


def interval95(r, sd, n):
    """Two-sided 95 % interval r ± t·sd/√n, Student's t with n - 1 degrees of freedom."""
    if r is None or n < 2:
        return None, None
    half = t_ppf(0.975, n - 1) * (sd or 0) / math.sqrt(n)
    return r - half, r + half


def mean_bounds95(xs):
    """One-sided 95 % confidence bounds (lower, upper) on the mean of xs (n >= 2)."""
    m, sd = mean_sd(xs)
    half = t_ppf(0.95, len(xs) - 1) * sd / math.sqrt(len(xs))
    return m - half, m + half


def spread_pct(xs):
    """(max - min) as % of the mean, None for fewer than two values."""
    xs = [x for x in xs if x]
    if len(xs) < 2:
        return None
    return (max(xs) - min(xs)) * 100 / statistics.fmean(xs)


def agreement(figures):
    """The exact clock's check of the figures behind a ratio: figures is a list of (label,
    [value per run]). Worst spread over the figures; ok True when every figure has two runs or
    more within EXACT_AGREE_PCT, None when one has a single run, False when runs differ."""
    from .fmt import fmt
    worst, what, ok = 0.0, [], True
    for label, xs in figures:
        xs = [x for x in xs if x]
        if len(xs) < 2:
            what.append(f"{label}: {len(xs)} run(s), not checked")
            ok = None if ok else ok
            continue
        pct = spread_pct(xs)
        worst = max(worst, pct)
        if pct > EXACT_AGREE_PCT:
            ok = False
            what.append(f"{label}: " + " vs ".join(fmt(x) for x in xs) + f" ({pct:.2f} % apart)")
    return {"pct": worst, "ok": ok, "what": "; ".join(what)}


def cell_agreement(cells, metric="iops"):
    """agreement() of cells' runs on metric."""
    return agreement([(f"{c['target']} {c['section']}", [r.get(metric) for r in c["runs"]])
                      for c in cells if c])


def determinism(rs):
    """How far a cell's runs are apart (% of their mean IOPS), whether within EXACT_AGREE_PCT,
    and what differed."""
    xs = [r["iops"] for r in rs if r.get("iops")]
    if len(xs) < 2:
        return {"pct": None, "ok": None, "what": "one run: not checked"}
    pct = spread_pct(xs)
    what = "IOPS " + " vs ".join(f"{x:,.0f}" for x in xs) + f" ({pct:.3f} % apart)"
    return {"pct": pct, "ok": pct <= EXACT_AGREE_PCT, "what": what}

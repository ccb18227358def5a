# SPDX-License-Identifier: GPL-2.0
"""The headline: the one definition of the report's main figure, the cost of one I/O on each of
ramlld's three paths over one store. It heads the report and, through compare/publish, README.

Figure: instructions per I/O (exact clock) or busy CPU µs per I/O (host clock) of a 4k random
read, fio libaio QD32, one job; per path under the kernel's defaults and under seed 001's
tuning (scheduler none, rq_affinity=2, add_random=0); the tuning's saving apart (under the
defaults mq and sd go through mq-deadline, bio through no scheduler); each path over the one
below it, tuned: what blk-mq adds to a bio driver, what sd and the SCSI midlayer add to blk-mq.
"""

from lib.fmt import fmt, signed, table
from lib.stats import EXACT_AGREE_PCT, spread_pct

CELL = ("qd32", "randread-4k-qd32")
PATHS = [("bio", "ramlld-bio"), ("mq", "ramlld-mq"), ("sd", "ramlld-sd")]
DEFAULTS, TUNED = "default", "seed-001"
BEGIN = "<!-- headline: compare/publish writes this table from the published run -->"
END = "<!-- headline end -->"


def compute(run):
    """{key, paths: {path: {defaults, tuned: cell or None}}}, or None when bio has neither
    (a run cut short shows the paths it measured)."""
    key = "instr_per_io" if run.exact else "cpu_us_per_io_stat"
    got = {}
    for path, t in PATHS:
        got[path] = {}
        for col, prof in (("defaults", DEFAULTS), ("tuned", TUNED)):
            c = run.cell(t, prof, *CELL)
            got[path][col] = c if c and c.get(key) is not None else None
    if not any(got["bio"].values()) or not any(any(got[p].values()) for p, _ in PATHS[1:]):
        return None
    return {"key": key, "paths": got}


def _sub(a, b):
    return None if a is None or b is None else a - b


def _div(a, b):
    return None if a is None or not b else a / b


def figures(run):
    """The headline's figures as numbers (results.json's "headline"); None where a cell is
    not in the run."""
    h = compute(run)
    if not h:
        return None
    k = h["key"]
    val = {p: {col: (c[k] if c else None) for col, c in cs.items()} for p, cs in h["paths"].items()}
    spread = {p: {col: (spread_pct([r['iops'] for r in c['runs']]) if c else None) for col, c in cs.items()}
              for p, cs in h["paths"].items()}
    out = {"unit": "instructions per I/O" if run.exact else "busy CPU µs per I/O",
           "cell": "/".join(CELL), "paths": {}}
    for i, (path, t) in enumerate(PATHS):
        d, s = val[path]["defaults"], val[path]["tuned"]
        below = PATHS[i - 1][0] if i else None
        out["paths"][path] = {
            "target": t, "defaults": d, "tuned": s, "tuning_saves": _sub(d, s),
            "spread_pct_defaults": spread[path]["defaults"],
            "spread_pct_tuned": spread[path]["tuned"],
            "over_below_tuned": _sub(s, val[below]["tuned"]) if below else None,
            "over_below_defaults": _sub(d, val[below]["defaults"]) if below else None,
            "x_bio_tuned": _div(s, val["bio"]["tuned"]),
            "x_bio_defaults": _div(d, val["bio"]["defaults"])}
    return out


def lines(run):
    """The headline's markdown: its definition, its table, where its figures come from."""
    f = figures(run)
    if not f:
        return ["**Headline**: not in this run (it needs ramlld-bio, -mq and -sd on "
                f"{'/'.join(CELL)} under profile {DEFAULTS} or {TUNED}: the default level "
                "has them; `compare/run --plan` lists a level's cells).", ""]
    nd = 0 if run.exact else 2  # an instruction count to the instruction, µs to 1/100
    P = f["paths"]
    unit = f["unit"]
    spreads = [P[p][k] for p, _ in PATHS for k in ("spread_pct_defaults", "spread_pct_tuned")
               if P[p][k] is not None]
    agree = (f"their runs at most {max(spreads):.2f} % apart" if spreads else
             "one run each (section Determinism: the run's spot check)")
    if run.exact and spreads and max(spreads) > EXACT_AGREE_PCT:
        agree += f", over the exact clock's {EXACT_AGREE_PCT} %: not exact"
    prec = (f"exact clock: each figure an instruction count, {agree}" if run.exact
            else f"host clock: /proc/stat's busy time, {agree}")

    def x(v):
        return "-" if v is None else f"{v:.2f}x"

    rows = []
    for path, _ in PATHS:
        p = P[path]
        rows.append([f"ramlld {path}", fmt(p["defaults"], nd), fmt(p["tuned"], nd),
                     "-" if p["tuning_saves"] is None else signed(-p["tuning_saves"], nd),
                     "-" if p["over_below_tuned"] is None else signed(p["over_below_tuned"], nd),
                     f"{x(p['x_bio_tuned'])} ({x(p['x_bio_defaults'])})"])
    top = next(p for p, _ in reversed(PATHS) if P[p]["defaults"] or P[p]["tuned"])
    sd = P[top]
    return [
        "**Headline: what one 4k random read costs on each of ramlld's paths over one store**, "
        f"in {unit} (fio libaio QD32, one job; {prec}). {top} over bio: "
        f"**{x(sd['x_bio_tuned'])}** with no I/O scheduler in the path (seed 001's tuning: "
        f"scheduler none, rq_affinity=2, add_random=0), {x(sd['x_bio_defaults'])} under the "
        "kernel's defaults, where mq and sd go through mq-deadline and bio through no "
        "scheduler; the tuned − defaults column is that difference (the knob table gives each "
        "knob's share of it).", "",
        table(["path", "kernel's defaults", "seed 001's tuning", "tuned − defaults", "over the path below "
               "(tuned)", "x bio tuned (defaults)"], rows, "lrrrrr"), "",
        f"*Measured by `{run.meta.get('command', 'compare/run').strip()}`, tree "
        f"{run.meta.get('git', '-')}, {run.meta.get('code', 'code not recorded')}; clock: "
        f"{run.clock}.*", ""]


def readme_block(run):
    """README's headline: the same lines between the markers compare/publish replaces."""
    return [BEGIN] + lines(run) + [END]

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/lib/verdict.py, the one seed verdict: reproduced, not reproduced, inconclusive and not decidable on the host's clock (Student's t interval) and on the exact clock (runs within 0.5 %, ratio ± 1 %), each case's reason; a one-run exact figure stands on the run's spot check; a line names its clock, its figure's precision (no ± on an exact figure), the setup and, when not decidable, what decides it; a seed section gives the rule
# where: host
# requires: python3
. "$TOP/tests/lib.sh"

# shellcheck source=compare/lib/report-python.sh
. "$TOP/compare/lib/report-python.sh"
in_compare "$(report_python)" - "$TOP/compare" << 'EOF' || fail "the verdict rule"
import sys
from lib import seed, stats, verdict as V
from sections import seed000, seed001, seed002, seed004

T975 = {1: 12.706204736174698, 2: 4.302652729749464}  # scipy.stats.t.ppf(0.975, df)
ok = stats.agreement([("a", [100000.0, 100400.0]), ("b", [50000.0, 50010.0])])
bad = stats.agreement([("a", [100000.0, 100400.0]), ("b", [50000.0, 50300.0])])
one = stats.agreement([("a", [100000.0]), ("b", [50000.0, 50010.0])])
band001 = seed001.BAND[:2]  # 1.5-2.5
cases = [
    # host clock: r, sd, n, claim, band, agreement, category, a word of the reason
    (2.0, 0.1, 3, 2.0, band001, None, V.REPRODUCED, "meets the post's band"),
    (1.7, 0.83, 3, 1.30, seed002.BAND[:2], None, V.INCONCLUSIVE, "holds both 1.0"),  # -0.36-3.76
    (1.05, 0.01, 3, 2.0, band001, None, V.NOT_REPRODUCED, "an effect smaller than the post's"),
    (1.0, 0.01, 3, 2.0, band001, None, V.NOT_REPRODUCED, "holds 1.0"),
    (0.9, 0.01, 3, 2.0, band001, None, V.NOT_REPRODUCED, "the other direction"),
    (3.0, 0.01, 3, 2.0, band001, None, V.NOT_REPRODUCED, "an effect larger than the post's"),
    (0.55, 0.01, 3, 0.5, (0.4, 0.6), None, V.REPRODUCED, "meets"),  # a claim below 1.0
    (2.0, 0.1, 1, 2.0, band001, None, V.NOT_DECIDABLE, "one run: no interval"),
    # exact clock: the interval is the ratio ± 1 %
    (1.762, 0.0, 2, 2.0, band001, ok, V.REPRODUCED, "1.744-1.780"),
    (1.232, 0.0, 2, 1.09, seed004.BAND[:2], ok, V.NOT_REPRODUCED, "larger than the post's"),
    (0.995, 0.0, 2, 1185 / 944, seed000.BAND[:2], ok, V.NOT_REPRODUCED, "holds 1.0"),
    (0.990, 0.0, 2, 1185 / 944, seed000.BAND[:2], ok, V.NOT_REPRODUCED, "other side of 1.0"),
    (1.008, 0.0, 2, 1.015, (1.01, 1.02), ok, V.INCONCLUSIVE, "holds both"),
    (1.762, 0.0, 2, 2.0, band001, bad, V.NOT_DECIDABLE, "b: 50,000 vs 50,300 (0.60 % apart)"),
    (1.762, 0.0, 2, 2.0, band001, one, V.NOT_DECIDABLE, "one run, and no cell of the run ran twice"),
    (None, None, 0, 2.0, band001, None, V.NOT_DECIDABLE, "no figures"),
]
for r, sd, n, claim, band, agr, want, why in cases:
    v = V.verdict(r, sd, n, claim, band, agr, setup="here X; the post Y", decides="compare/run --only seed-001")
    if v["category"] != want or why not in v["why"]:
        sys.exit(f"{r} ± {sd} (n = {n}, {'exact' if agr else 'host'}) against {claim} in {band}: "
                 f"{v['category']!r} ({v['why']}), expected {want!r} ({why})")
    if agr is None and r is not None and n > 1:
        half = T975[n - 1] * sd / n ** 0.5
        if abs(v["lo"] - (r - half)) > 1e-9:
            sys.exit(f"host interval of {r} ± {sd}, n = {n}: {v['lo']}, expected {r - half}")
    if v["category"] not in V.VOCABULARY:
        sys.exit(f"a category out of the vocabulary: {v['category']}")
    txt = V.line(v, "bio / sd", "380K / 190K")
    if not txt.startswith(f"**Verdict: {want}** — ") or "Setup: here X; the post Y." not in txt \
            or (r is not None) != (" Measured: bio / sd: " in txt):
        sys.exit(f"the line does not give the verdict and the setup: {txt}")
    if (want == V.NOT_DECIDABLE) != ("Decides it: `" in txt):
        sys.exit(f"'Decides it' said or missing: {txt}")
    if r is not None and agr is not None and ("±" in txt or "(exact" not in txt):
        sys.exit(f"an exact figure shown with ± or without its clock: {txt}")
    if r is not None and agr is None and n > 1 and "(host clock, n = " not in txt:
        sys.exit(f"a host-clock figure without its clock: {txt}")
    print(f"ok: {r} ({'exact' if agr else 'host'}, claim {claim:.3f}): {want}: {v['why']}")
# a figure of one run at a level that runs each cell once stands on the run's spot check
spot = {"n": 10, "within": 9}
v = V.verdict(1.762, 0, 1, 2.0, band001, one, setup="s", spot=spot)
txt = V.line(v, "bio / sd", "y")
if v["category"] != V.REPRODUCED or "exact, one run; the spot check: 9 of 10 cells run twice within 0.5 %" not in txt:
    sys.exit(f"one exact run with a spot check: {v['category']}: {txt}")
v = V.verdict(1.762, 0, 1, 2.0, band001, one, spot={"n": 0, "within": 0})
if v["category"] != V.NOT_DECIDABLE or "no cell of the run ran twice" not in v["why"]:
    sys.exit(f"one exact run without a spot check: {v['category']}: {v['why']}")
cells = [{"determinism": {"pct": 0.1, "ok": True}}, {"determinism": {"pct": 3.1, "ok": False}},
         {"determinism": {"pct": None, "ok": None}}, {"determinism": None}]
if V.spot_check(cells) != {"n": 2, "within": 1}:
    sys.exit(f"spot_check: {V.spot_check(cells)}")
print("ok: one exact run stands on the spot check: " + txt)
# a claim this run cannot decide keeps what the ratio alone says
v = V.not_decidable(V.verdict(1.762, 0, 2, 2.0, band001, ok), "SCST is not in Debian",
                    "compare/run --only seed-003", "with SCST built")
txt = V.line(v, "x", "y")
want = "**Verdict: not decidable** — SCST is not in Debian. Decides it: `compare/run --only seed-003`, with SCST built."
if not txt.startswith(want) or "By the ratio alone: reproduced (the interval 1.744-1.780 meets the post's band)." not in txt:
    sys.exit(f"not decidable's line: {txt}")
if V.cell(v) != "**not decidable**: SCST is not in Debian. Decides it: `compare/run --only seed-003`, with SCST built.":
    sys.exit(f"the summary's cell: {V.cell(v)}")
print("ok: not decidable: " + txt)
sec = {"id": "004", "title": "t", "claim": "c", "compared": "m", "tables": [], "notes": [],
       "clock": "icount, exact: 1 instruction = 1 ns", "exact": True, "verdict_line": "v"}
md = "\n".join(seed.markdown(sec))
if "**Clock:** every figure of this section: icount, exact" not in md or V.RULES[0] not in md:
    sys.exit("a seed section does not name its clock and the verdict rule")
print("ok: a seed section names its clock and the rule")
EOF

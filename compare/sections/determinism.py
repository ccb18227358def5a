# SPDX-License-Identifier: GPL-2.0
"""Determinism (the exact clock): whether every cell's runs agree."""

from lib.stats import EXACT_AGREE_PCT

TITLE = "Determinism"
ORDER = 30


def bad_cells(run):
    return [c for c in run.cells if (c.get("determinism") or {}).get("ok") is False]


def render(run, plots):
    if not run.exact:
        return []
    bad = bad_cells(run)
    L = ["## Determinism", ""]
    if bad:
        L.append(f"{len(bad)} of {len(run.cells)} cells' runs differ by more than "
                 f"{EXACT_AGREE_PCT} %: their figures are not exact (a timer, a background "
                 "job or a difference in what ran; see guest-run.log):")
        L.append("")
        L += [f"- ⚠ {c['target']} [{c['profile']}] {c['workload']}/{c['section']}: "
              f"{c['determinism']['what']}" for c in bad]
    else:
        n = sum(1 for c in run.cells if (c.get("determinism") or {}).get("ok"))
        L.append(f"Every cell's runs agree within {EXACT_AGREE_PCT} % ({n} cells checked; "
                 "cells with one run are not checked).")
    return L + [""]

# SPDX-License-Identifier: GPL-2.0
"""Seed 004: scsi_ram vs scsi_debug delay=0, ssd-test."""

import math
import statistics

from lib.fmt import fmt, pm
from lib.results import extras_mean, run_shape
from lib.seed import bars, cell_ratio, markdown, targets_of
from lib.verdict import line, setup_text, spot_check, verdict
from lib.seed import compute_section, render_section
from lib.stats import cell_agreement

TITLE = "Seed 004"
ORDER = 70
# the summary's row: the post's claim in a line, what this run's ratio is of
CLAIM = ("scsi_ram ~9 % faster than scsi_debug delay=0",
         "ramlld-sd / scsi_debug, four jobs")
# docs/seeds.md's reproduce line: what it selects of the default level (tests/style/006
# compares its --plan with the level's cells)
REPRODUCE = "--only seed-004 --targets ramlld-sd,ramlld-sd-tar,sdebug --nluns 1 --capacity-mb 64"
WORKLOAD = "seed-004"
# the post's band for the claim (lib/verdict.py's rule): low, high, and why
BAND = (1.083, 1.107, "\"about 9 %\" (1.085-1.095), widened to its four jobs' 1.083-1.107")

# ---------------------------------------------------------------- seed 004
SEED004_POST = [("seq-read", 119040, 109110), ("rand-read", 119579, 107988),
                ("seq-write", 119632, 110474), ("rand-write", 118094, 108037)]


def seed004(root, cells, idx, exact=False):
    w = "seed-004"
    sec = {"id": "004", "workload": w, "title": "scsi_ram vs scsi_debug delay=0, ssd-test",
           "claim": "scsi_ram ~9 % faster than scsi_debug delay=0 without throw-away (4k libaio "
                    "iodepth 4 direct, 60 s a job: seq-read 119040 vs 109110 KB/s, rand-read "
                    "119579 vs 107988, seq-write 119632 vs 110474, rand-write 118094 vs 108037; "
                    "util 77.79 % vs 42.09 %)",
           "compared": "ramlld-sd plays scsi_ram (a RAM SCSI LLD with capacity and sector size "
                       "parameters; throw_away_reads/writes off, and on: ramlld-sd-tar) beside "
                       "scsi_debug delay=0 (fake_rw=0, as the post), the post's four jobs as "
                       "separate fio runs (stonewalled), {runtime} a job instead of 60 s, {mib} "
                       "devices instead of 10-20 GiB; KB/s is fio's KiB/s as the post's; util % "
                       "is fio's disk util of each run (the post's: of its whole four-job run), "
                       "'-' for a disk with iostats=0 (the bio disk's default), which counts none.",
           "tables": [], "notes": []}
    run = run_shape(root)
    sec["compared"] = sec["compared"].format(runtime=run["runtime"], mib=run["mib"])
    ts = targets_of(cells, w)
    prof = "default"
    rows, rs, used, bars = [], [], [], []
    for s, ram, dbg in SEED004_POST:
        row = [s, f"{ram} / {dbg}", fmt(ram / dbg, 3)]
        for t in ts:
            c = idx.get((t, prof, w, s))
            u, _ = extras_mean(c, "util_pct") if c else (None, None)
            row.append(f"{pm(c['mbps'] * 1e6 / 1024 / 1e3, (c['mbps_std'] or 0) * 1e6 / 1024 / 1e3)}"
                       f"K ({fmt(u, 1)} %)" if c else "-")
        r, sd, n = cell_ratio(idx, ("ramlld-sd", prof, w, s), ("sdebug", prof, w, s))
        row.append(pm(r, sd, 3))
        if "ramlld-sd-tar" in ts:     # scsi_ram's throw-away knobs on, as its post offered
            row.append(pm(*cell_ratio(idx, ("ramlld-sd-tar", prof, w, s),
                                      ("sdebug", prof, w, s))[:2], 3))
        if r is not None:
            rs.append((r, sd, n))
            used += [idx.get((t, prof, w, s)) for t in ("ramlld-sd", "sdebug")]
            bars.append((s, ram / dbg, r, cell_ratio(idx, ("ramlld-sd-tar", prof, w, s),
                                                     ("sdebug", prof, w, s))[0]))
        rows.append(row)
    sec["tables"].append(("The post's four jobs: KB/s (util %)", [
        "job", "the post: scsi_ram / scsi_debug KB/s", "ratio"] + ts
        + ["ramlld-sd / sdebug"]
        + (["ramlld-sd-tar / sdebug"] if "ramlld-sd-tar" in ts else []), rows))
    if bars:
        series = [("the post: scsi_ram / scsi_debug", [b[1] for b in bars]),
                  ("ramlld-sd / scsi_debug", [b[2] for b in bars])]
        if any(b[3] for b in bars):
            series.append(("ramlld-sd-tar / scsi_debug", [b[3] for b in bars]))
        sec["bars"] = {"title": "seed 004: the post's four jobs, over scsi_debug delay=0",
                       "ylabel": "x scsi_debug delay=0", "groups": [b[0] for b in bars],
                       "series": series, "name": "seed-004-ratios.png"}
    claim = statistics.mean(ram / dbg for _, ram, dbg in SEED004_POST)
    setup = setup_text(root, "on hardware, 60 s a job, devices of 10-20 GiB")
    if rs:
        r = statistics.mean(x[0] for x in rs)
        sd = math.sqrt(sum((x[1] or 0) ** 2 for x in rs)) / len(rs)
        v = verdict(r, sd, min(x[2] for x in rs), claim, BAND[:2],
                    cell_agreement(used) if exact else None, setup, spot=spot_check(cells))
        what = f"ramlld-sd / scsi_debug delay=0, mean over {len(rs)} job(s)"
    else:
        v = verdict(None, None, 0, claim, setup=setup, decides="compare/run --only seed-004")
        what = "ramlld-sd / scsi_debug"
    sec["verdict"] = v
    sec["verdict_line"] = line(v, what, "the mean of its four jobs' ratios; "
                                       + BAND[2])
    return sec


def compute(run):
    """The section's figures (None when the run has no seed-004 cells)."""
    return compute_section(run, WORKLOAD, seed004)


def render(run, plots):
    return render_section(compute(run), bars, plots, markdown)

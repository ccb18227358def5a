# SPDX-License-Identifier: GPL-2.0
"""What compare/publish writes beside docs/results.md from the same run: results.json and
results.csv (a row per cell and figure: cell, target, profile, workload, figure, value, unit,
clock, runs, spread_pct), and README's headline between its markers."""

import csv
import json
import os

from .fmt import runtime
from .stats import spread_pct

# the figures published per cell, with their unit (None: not in the cell)
FIGURES = [("instr_per_io", "instructions per I/O"), ("cpu_us_per_io_stat", "busy CPU µs per I/O"),
           ("iops", "I/O per s"), ("mbps", "MB/s"), ("lat_mean_us", "µs"),
           ("lat_p99_us", "µs")]
COLUMNS = ["cell", "target", "profile", "workload", "figure", "value", "unit", "clock", "runs",
           "spread_pct"]


def rows(run):
    """A row per cell and figure, in COLUMNS' order. On the exact clock IOPS and MB/s are
    10^9 over the instruction count (guest time), not rates on the host: their unit says so."""
    clock = "icount" if run.exact else "host"
    out = []
    for c in run.cells:
        for key, unit in FIGURES:
            v = c.get(key)
            if v is None:
                continue
            if run.exact and key in ("iops", "mbps", "lat_mean_us", "lat_p99_us"):
                unit += " of guest time (1 instruction = 1 ns)"
            sp = spread_pct([r.get(key) for r in c["runs"]])
            out.append([f"{c['target']}/{c['profile']}/{c['workload']}/{c['section']}",
                        c["target"], c["profile"], f"{c['workload']}/{c['section']}", key,
                        float(f"{v:.6g}"), unit, clock, c["n"],
                        None if sp is None else float(f"{sp:.3g}")])
    return out


def rounded(x):
    """x with its floats to 6 significant digits (what the method's precision allows and more)."""
    if isinstance(x, dict):
        return {k: rounded(v) for k, v in x.items()}
    return float(f"{x:.6g}") if isinstance(x, float) else x


def write(run, out, headline):
    """out/results.json and out/results.csv of run; headline: sections/headline.figures(run)."""
    rs = rows(run)
    meta = run.meta
    doc = {"run": os.path.basename(os.path.realpath(run.root)),
           "command": meta.get("command"), "tree": meta.get("git"), "code": meta.get("code"),
           "kernel": meta.get("kernel"), "qemu": meta.get("qemu"), "cpus": meta.get("cpus"),
           "clock": run.clock, "level": meta.get("level_name") or meta.get("level"),
           "started": meta.get("host_started"), "ended": meta.get("host_ended"),
           "headline": rounded(headline), "columns": COLUMNS, "rows": []}
    head = json.dumps(doc, indent=1, ensure_ascii=False)
    head = head[:head.rindex('"rows"')]  # the rows one a line, for diffs
    with open(os.path.join(out, "results.json"), "w", encoding="utf-8") as f:
        f.write(head + '"rows": [\n' + ",\n".join(json.dumps(r, ensure_ascii=False) for r in rs)
                + "\n ]\n}\n")
    with open(os.path.join(out, "results.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(COLUMNS)
        w.writerows(["" if x is None else x for x in r] for r in rs)
    return len(rs)


def readme(path, block, begin, end):
    """Replace the lines between begin and end (markers included) in path by block; the
    markers must be there once each, in order."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines.count(begin) != 1 or lines.count(end) != 1 or lines.index(begin) > lines.index(end):
        raise ValueError(f"{path}: needs the lines '{begin}' and '{end}', once each, in order")
    i, j = lines.index(begin), lines.index(end)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines[:i] + block + lines[j + 1:]))


SEEDS_BEGIN = "<!-- verdicts: compare/publish writes this section from the published run -->"
SEEDS_END = "<!-- verdicts end -->"


def seeds_block(run, seed_rows, table, selections):
    """docs/seeds.md's section on the published run: its setup, every seed claim's verdict
    (the summary's rows: the same words as docs/results.md) and the command that plans each
    verdict's setup: selections, (seed id, what compare/run selects of the default level) each
    (the setup, clock, CPUs and runs, is the published run's)."""
    m = run.meta
    clock = "icount" if run.exact else "host"
    setup = (f"--clock {clock} --cpus {m.get('cpus', '1')} --repeats {m.get('repeats', '1')} "
             f"--runtime {m.get('runtime', '1')} --ramp {m.get('ramp', '0')} --no-knobs "
             "--no-breakdown")
    level = (m.get("level_name") or m.get("level") or "-").split(" (")[0]
    return ([SEEDS_BEGIN,
            f"The figures of docs/results.md: one run (`make compare`, level: {level}) with "
            f"{m.get('repeats', '-')} run(s) of {runtime(m.get('runtime'))} a cell, "
            f"{'exact clock' if run.exact else 'host clock'}, {m.get('cpus', '-')} vCPU(s) under "
            f"{m.get('accel', '-')}, guest kernel {m.get('kernel', '-')}. Each verdict holds for "
            "that setup; each line below the table plans that setup for one seed (`compare/run "
            "--plan` with the same arguments prints its cells; tests/style/006 checks them "
            "against the default level's and the setup against results.md's Environment).", "",
            table(["the post's claim", "measured here", "verdict"], seed_rows), "",
            "Reproduce the setup of each verdict:", ""]
            + [f"- seed {sid}: `compare/run {setup} {sel}`" for sid, sel in selections]
            + [SEEDS_END])

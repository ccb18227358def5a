#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""compare/ab-report.py: the A/B report of compare/ab from its measured runs.

DIR holds base/ and changed/ (one kernel each), each with run1/, run2/...: cells.tsv (target,
workload, instr: instructions per I/O on the exact clock, status) and perf/<target>_<workload>.txt
(perf report --sort symbol of that cell, in the runs that profiled). Writes DIR/ab.md and
DIR/ab.csv (target, workload, base, changed, bound) and prints the per-path table.

The bound of a cell is what two runs of the same kernel may differ by: the spread of base's runs
plus the spread of changed's (the difference's own uncertainty), at least FLOOR of base (the
exact clock's repeatability). A path whose difference exceeds its bound is "changed".
"""
import argparse
import csv
import math
import os
import re
import sys

FLOOR = 0.002  # 0.2 % of base: a cell's runs in different guest boots differ by up to 0.198 % (docs/ab.md)
DISAGREE = 0.005  # 0.5 %: compare/run's check of an exact cell's two runs
TOP_FUNCS = 8

from lib import abexact, doc
from lib.env import read_env
from lib.fmt import table
from lib.perf import symbols, total_samples  # (the one perf parser)


def die(msg, code=1):
    print(f"compare/ab-report.py: {msg}", file=sys.stderr)
    sys.exit(code)


def read_runs(side_dir):
    """[(run name, {(target, workload): instr}, {(target, workload): status not ok})] of one
    kernel, in run order."""
    runs = []
    if not os.path.isdir(side_dir):
        die(f"no folder {side_dir}")
    names = sorted((n for n in os.listdir(side_dir) if re.fullmatch(r"run\d+", n)),
                   key=lambda n: int(n[3:]))
    for name in names:
        path = os.path.join(side_dir, name, "cells.tsv")
        if not os.path.isfile(path):
            continue
        cells, other = {}, {}
        with open(path, newline="") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                if row.get("status", "ok") != "ok" or not row.get("instr"):
                    other[(row["target"], row["workload"])] = row.get("status") or "no figure"
                    continue
                try:
                    cells[(row["target"], row["workload"])] = float(row["instr"])
                except ValueError:
                    die(f"{path}: bad instr '{row['instr']}' for {row['target']}/{row['workload']}")
        runs.append((name, cells, other))
    if not runs:
        die(f"no run with a cells.tsv in {side_dir}")
    return runs


def read_perf(path):
    """(samples, {function: share of all samples}) of a perf report, or None (lib/perf.py's
    parser; user-space functions marked [user])."""
    shares = {}
    for pct, kind, sym, _ in symbols(path):
        if kind in "k.":
            name = sym + (" [user]" if kind == "." else "")
            shares[name] = shares.get(name, 0.0) + pct / 100
    return (total_samples(path), shares) if shares else None


def perf_of(side_dir, key):
    """The first run of a side whose perf report of this cell exists."""
    fname = f"{key[0]}_{key[1]}".replace("/", "_") + ".txt"
    for name in sorted(os.listdir(side_dir)):
        p = read_perf(os.path.join(side_dir, name, "perf", fname))
        if p:
            return p
    return None


def func_diff(base, changed, b_instr, c_instr):
    """[(function, base instr/IO, changed instr/IO, delta, +-)] sorted by |delta|."""
    (bn, bs), (cn, cs) = base, changed
    rows = []
    for fn in set(bs) | set(cs):
        b, c = bs.get(fn, 0.0) * b_instr, cs.get(fn, 0.0) * c_instr
        # 3 sigma of the two sample counts (Poisson), in instructions per I/O: a profile of some
        # hundred functions shows a few past 2 sigma by chance
        err = 3 * math.sqrt((bs.get(fn, 0.0) * b_instr ** 2 / bn if bn else 0) +
                            (cs.get(fn, 0.0) * c_instr ** 2 / cn if cn else 0))
        rows.append((fn, b, c, c - b, err))
    rows.sort(key=lambda r: -abs(r[3]))
    return rows


def mean(v):
    return sum(v) / len(v)


def fmt(x):
    return f"{x:,.0f}"


def signed(x):
    return f"{x:+,.0f}"


def vcpus(n):
    """The guests' vCPUs in words: one ran fio alone; N ran N jobs, one pinned to each."""
    return "1 vCPU" if str(n) == "1" else f"{n} vCPUs (a fio job pinned to each, IOPS summed)"


def analyse(out):
    base_runs = read_runs(os.path.join(out, "base"))
    ch_runs = read_runs(os.path.join(out, "changed"))
    keys = []
    for _, cells, other in base_runs + ch_runs:
        for k in list(cells) + list(other):
            if k not in keys:
                keys.append(k)
    result = []
    for k in keys:
        b = [c[k] for _, c, _ in base_runs if k in c]
        c = [c[k] for _, c, _ in ch_runs if k in c]
        if not b and not c:
            # a row neither kernel measured (absent: the kernel lacks it; failed), with its status
            st = sorted({o[k] for _, _, o in base_runs + ch_runs if k in o})
            result.append({"key": k, "missing": "both", "status": ", ".join(st)})
            continue
        if not b or not c:
            result.append({"key": k, "missing": "base" if not b else "changed"})
            continue
        bm, cm = mean(b), mean(c)
        bspread, cspread = max(b) - min(b), max(c) - min(c)
        bound = max(bspread + cspread, FLOOR * bm)
        delta = cm - bm
        result.append({
            "key": k, "base": bm, "changed": cm, "delta": delta, "pct": 100 * delta / bm,
            "bspread": bspread, "cspread": cspread, "bruns": len(b), "cruns": len(c),
            "bound": bound,
            # a kernel whose two exact runs disagree by more than the clock's 0.5 % check
            # decides nothing: its spread swallows the change
            "verdict": ("runs disagree" if max(bspread, cspread) > DISAGREE * bm
                        else "changed" if abs(delta) > bound else "unchanged"),
        })
    return result


def meta(out, side):
    return read_env(os.path.join(out, side, "kernel.env"))


def perf_section(out, result, run_env):
    """The functions that moved by perf's samples, where no plugin profiled the rows."""
    lines = ["", "## Functions that moved (perf on the exact clock, instructions per I/O)", "",
             "Each function's share of the cell's cpu-clock samples times the cell's "
             "instructions per I/O; ± is three standard deviations of the two sample counts.",
             ""]
    any_perf = False
    for r in result:
        if "missing" in r:
            continue
        bp = perf_of(os.path.join(out, "base"), r["key"])
        cp = perf_of(os.path.join(out, "changed"), r["key"])
        if not bp or not cp:
            continue
        any_perf = True
        rows = [x for x in func_diff(bp, cp, r["base"], r["changed"]) if abs(x[3]) > x[4]]
        lines.append(f"### {r['key'][0]} {r['key'][1]} (Δ {signed(r['delta'])}, {r['verdict']})")
        lines.append("")
        if not rows:
            lines += ["No function moved by more than its sampling error.", ""]
            continue
        lines += [table(["function", "base", "changed", "Δ", "±"],
                        [[fn, fmt(b), fmt(c), signed(d), fmt(e)]
                         for fn, b, c, d, e in rows[:TOP_FUNCS]], "lrrrr"), ""]
    if not any_perf and str(run_env.get("cpus", "1")) != "1":
        lines += ["No perf profile in these runs: with several vCPUs a vCPU's cpu-clock runs on "
                  "guest time, which passes while the other vCPUs execute, so its samples are not "
                  "its instructions.", ""]
    elif not any_perf:
        lines += ["No perf profile in these runs.", ""]
    return lines


def write(out, result):
    with open(os.path.join(out, "ab.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["target", "workload", "base", "changed", "bound"])
        for r in result:
            if "missing" in r:
                continue
            w.writerow([r["key"][0], r["key"][1], f"{r['base']:.1f}", f"{r['changed']:.1f}",
                        f"{r['bound']:.1f}"])
    lines = ["# A/B: instructions per I/O, base -> changed", ""]
    run_env = read_env(os.path.join(out, "ab.env"))
    if run_env.get("command"):
        lines += [f"Command: `{run_env['command']}`", ""]
    for side in ("base", "changed"):
        m = meta(out, side)
        if m:
            lines.append(f"- {side}: {m.get('source', '?')}; kernel {m.get('version', '?')}, "
                         f"key {m.get('key', '?')}, build {m.get('build', '?')}")
    lines += [
        f"- clock: {run_env.get('clock', 'icount (exact: 1 instruction = 1 ns of guest time)')}, "
        f"{vcpus(run_env.get('cpus', '1'))}; cells: {run_env.get('cells', 'the ledger rows')}",
        "- bound: the spread of base's runs + the spread of changed's, at least 0.2 % of base; "
        "changed when |Δ| exceeds it; runs disagree when a kernel's runs differ by more than 0.5 %",
        "",
    ]
    rows = []
    for r in result:
        t, wl = r["key"]
        if "missing" in r:
            why = (f"no figure: {r['status']} on both" if r["missing"] == "both"
                   else f"no {r['missing']} figure")
            rows.append([t, wl] + [None] * 7 + [why])
            continue
        rows.append([t, wl, fmt(r["base"]), fmt(r["changed"]), signed(r["delta"]),
                     f"{r['pct']:+.2f} %", f"{fmt(r['bspread'])} ({r['bruns']})",
                     f"{fmt(r['cspread'])} ({r['cruns']})", fmt(r["bound"]),
                     f"**{r['verdict']}**"])
    lines += [table(["target", "workload", "base", "changed", "Δ", "Δ %", "base spread (runs)",
                     "changed spread (runs)", "bound", "verdict"], rows, "llrrrrrrrl")]
    exact = abexact.section(out, result)
    if exact:
        lines += [""] + exact
    else:
        lines += perf_section(out, result, run_env)
    while lines and lines[-1] == "":
        lines.pop()
    doc.write(os.path.join(out, "ab.md"), lines)
    return lines


def main():
    ap = argparse.ArgumentParser(description="the A/B report of compare/ab (DIR/ab.md, DIR/ab.csv)")
    ap.add_argument("dir", help="the A/B folder: base/run*/cells.tsv, changed/run*/cells.tsv")
    ap.add_argument("--quiet", action="store_true", help="print nothing, only write the files")
    a = ap.parse_args()
    if not os.path.isdir(a.dir):
        die(f"no folder '{a.dir}'", 2)
    result = analyse(a.dir)
    lines = write(a.dir, result)
    if not a.quiet:
        # the table of paths, and of the exact section its summary (its first table)
        end = next(i for i, x in enumerate(lines) if x.startswith("## Functions that moved"))
        if lines[end] == abexact.HEADER:
            end = next(i for i, x in enumerate(lines) if i > end and x.startswith("### "))
        print("\n".join(lines[:end]).rstrip())
        print(f"\n(report: {os.path.join(a.dir, 'ab.md')}, {os.path.join(a.dir, 'ab.csv')})")


if __name__ == "__main__":
    main()

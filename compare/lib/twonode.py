# SPDX-License-Identifier: GPL-2.0
"""Each side's cost in compare/two-node's results (a target's and an initiator's guest, each on
its own exact clock), read from the files the runs left and nothing else:

  DIR/two-node.env       the job and the clock (stack, rw, bs, iodepth, runtime, clock, cpus...)
  DIR/run-N/             a counted run: SIDE.pre and SIDE.post, the /proc/timer_list copies a
                         side took as the job's I/O started and ended (each CPU's from a copy
                         made on that CPU, "copy-on-cpu: N" above it; a run of one copy holds
                         every CPU), with "ios: N", the side's I/O count; fio.json (fio --client)
  DIR/profile/           the same job once more under perf record on both sides:
                         SIDE.perf.txt, perf report by symbol over that side's window
  (job=seed-002)         instead of one job, a cell PROFILE.bs-SIZE of seed 002's grid each:
                         SIDE.pre.CELL and SIDE.post.CELL in each run, the initiator's with
                         "sectors: N" (its disk's sectors read): each side's instructions per
                         MiB read, the initiator's reads and the target's commands per MiB

A side's instructions per I/O: its busy time in the window (each CPU's window less its idle and
iowait time) over its I/Os, 1 ns = 1 instruction on the exact clock. The per-function split: a
function's share of the side's busy perf samples in the profiled run times the side's mean over
the counted runs (perf's interrupts add to the profiled run's own count, which is said beside).

As a program (compare/two-node-report.py): --window RUN SIDE prints the side's window as perf report's --time
wants it (start,stop in s); DIR prints the text table of compare/two-node."""

import os
import re
import statistics
import sys

from .perf import LAYER_NAMES, layer_of, symbols
from . import fio
from .env import read_env

SIDES = ("target", "initiator")
# The measuring harness's own tasks in a side's guest (compare/two-node-side's waits on the
# shared folder, the copies it makes, perf): their share of the busy samples is said beside the
# split, since the counted busy time holds them too.
HARNESS = {"two-node-side", "sh", "bash", "cat", "taskset", "nproc", "sleep", "perf"}
IDLE_RX = re.compile(r"^\s+\.(?:idle|iowait)_sleeptime\s*:\s*(\d+) nsecs", re.M)


def _cpus(text):
    """{cpu: idle+iowait ns} of one /proc/timer_list copy."""
    parts = re.split(r"^cpu: (\d+)$", text, flags=re.M)
    return {int(parts[i]): sum(int(v) for v in IDLE_RX.findall(parts[i + 1]))
            for i in range(1, len(parts) - 1, 2)}


def snapshot(path):
    """({cpu: (now ns, idle+iowait ns)}, I/Os) of a side's copy: each CPU's figures from the copy
    made on it, or from the one copy of an older run."""
    return _snapshot(path)[:2]


def _snapshot(path):
    """snapshot()'s figures and the copy's "sectors: N" (None without one)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    ios = int(re.search(r"^ios: (\d+)$", text, re.M).group(1))
    sec = re.search(r"^sectors: (\d+)$", text, re.M)
    copies = re.split(r"^copy-on-cpu: (\d+)$", text, flags=re.M)
    per = {}
    if len(copies) == 1:
        now = int(re.search(r"^now at (\d+) nsecs", text, re.M).group(1))
        per = {c: (now, idle) for c, idle in _cpus(text).items()}
    for i in range(1, len(copies) - 1, 2):
        c, chunk = int(copies[i]), copies[i + 1]
        now = int(re.search(r"^now at (\d+) nsecs", chunk, re.M).group(1))
        per[c] = (now, _cpus(chunk)[c])
    return per, ios, int(sec.group(1)) if sec else None


def side(run, name, cell=""):
    """{busy ns, ios, window ns, cpus, ipio, sectors} of one side between its two copies (of a
    seed-002 cell: SIDE.pre.CELL, SIDE.post.CELL)."""
    p0, d0, s0 = _snapshot(os.path.join(run, f"{name}.pre{cell and '.' + cell}"))
    p1, d1, s1 = _snapshot(os.path.join(run, f"{name}.post{cell and '.' + cell}"))
    busy = sum((p1[c][0] - p0[c][0]) - (p1[c][1] - p0[c][1]) for c in p0)
    ios = d1 - d0
    return {"busy_ns": busy, "ios": ios, "window_ns": p1[0][0] - p0[0][0], "cpus": len(p0),
            "ipio": busy / ios if ios > 0 else None,
            "sectors": s1 - s0 if s0 is not None and s1 is not None else None}


def grid(d, runs):
    """seed 002's cells over the runs: {cell: {target/initiator instructions per MiB, the
    initiator's reads and the target's commands per MiB, each spread()}}."""
    acc = {}
    for n in runs:
        run = os.path.join(d, n)
        cells = sorted(f[len("initiator.pre."):] for f in os.listdir(run)
                       if f.startswith("initiator.pre."))
        for c in cells:
            try:
                t, i = side(run, "target", c), side(run, "initiator", c)
            except (OSError, AttributeError, KeyError, ValueError):
                continue
            if not i["sectors"]:
                continue
            mib = i["sectors"] * 512 / 2 ** 20
            a = acc.setdefault(c, {k: [] for k in ("target", "initiator", "reads", "cmds", "mib")})
            a["target"].append(t["busy_ns"] / mib)
            a["initiator"].append(i["busy_ns"] / mib)
            a["reads"].append(i["ios"] / mib)
            a["cmds"].append(t["ios"] / mib)
            a["mib"].append(mib)
    return {c: {k: spread(v) for k, v in a.items()} for c, a in acc.items()}


def window(run, name):
    """(start, stop) ns of a side's window on its monotonic clock (CPU 0's copies)."""
    return snapshot(os.path.join(run, name + ".pre"))[0][0][0], \
        snapshot(os.path.join(run, name + ".post"))[0][0][0]


def fio_figures(run):
    """(server's hostname, I/Os, IOPS) from fio --client's JSON."""
    path = os.path.join(run, "fio.json")
    return fio.client(fio.read(path), path)


def run_figures(run):
    host, fio_ios, iops = fio_figures(run)
    return {"name": os.path.basename(run.rstrip("/")), "host": host, "fio_ios": fio_ios,
            "iops": iops, **{s: side(run, s) for s in SIDES}}


def spread(vals):
    """{mean, min, max, spread_pct ((max-min)/mean), n} of a side's figures."""
    vals = [v for v in vals if v is not None]
    if not vals:
        return None
    m = statistics.mean(vals)
    return {"mean": m, "min": min(vals), "max": max(vals), "n": len(vals),
            "spread_pct": 100 * (max(vals) - min(vals)) / m if m else None}


def comms(path):
    """{task name: samples} of a side's perf report by task (SIDE.perf-comm.txt), {} without."""
    out = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                mo = re.match(r"\s*[\d.]+%\s+(\d+)\s+(\S.*?)\s*$", line)
                if mo:
                    out[mo.group(2)] = out.get(mo.group(2), 0) + int(mo.group(1))
    except OSError:
        pass
    return out


def split(path, total):
    """A side's perf report (SIDE.perf.txt) as instructions per I/O: {layers, top functions,
    busy samples} with each symbol's share of the busy samples times total; None without
    samples."""
    syms = symbols(path)
    if not syms or not total:
        return None
    layer = {n: 0.0 for n in LAYER_NAMES}
    busy = []
    for pct, kind, sym, n in syms:
        lay = layer_of(kind, sym)
        if lay != "idle":
            layer[lay] += pct
            busy.append((pct, kind, sym, n, lay))
    bsum = sum(layer.values())
    if bsum <= 0:
        return None
    samples = sum(n for _, _, _, n, _ in busy if n) or None
    top = sorted(busy, key=lambda x: -x[0])[:10]
    return {"layers": {n: v / bsum * total for n, v in layer.items()},
            "busy_pct": bsum, "busy_samples": samples,
            "top": [{"symbol": s, "layer": lay, "ipio": p / bsum * total}
                    for p, _, s, _, lay in top]}


def load(d):
    """A compare/two-node folder's figures; None when it holds no run."""
    if not os.path.isdir(d):
        return None
    env = read_env(os.path.join(d, "two-node.env"))
    runs, errors = [], []
    names = sorted((n for n in os.listdir(d) if re.fullmatch(r"run-\d+", n)),
                   key=lambda n: int(n[4:]))
    if env.get("job") == "seed-002":
        g = grid(d, names)
        return {"env": env, "runs": [], "errors": [], "profile": None, "grid": g,
                "summary": {s: None for s in SIDES}} if g else None
    for n in names:
        try:
            runs.append(run_figures(os.path.join(d, n)))
        except (OSError, ValueError, AttributeError, KeyError) as e:
            errors.append(f"{n}: {e}")
    prof = None
    pd = os.path.join(d, "profile")
    if os.path.isdir(pd):
        try:
            own = run_figures(pd)
        except (OSError, ValueError, AttributeError, KeyError) as e:
            own = None
            errors.append(f"profile: {e}")
        prof = {}
        for s in SIDES:
            counted = spread([r[s]["ipio"] for r in runs])
            total = counted["mean"] if counted else (own[s]["ipio"] if own else None)
            sp = split(os.path.join(pd, s + ".perf.txt"), total)
            if sp:
                sp["profiled_ipio"] = own[s]["ipio"] if own else None
                # the harness's tasks, and (on the target) fio's controller, as shares of the
                # busy samples (perf's own task is left out of SIDE.perf.txt)
                c = comms(os.path.join(pd, s + ".perf-comm.txt"))
                busy = sp["busy_samples"]
                if c and busy:
                    h = sum(v for k, v in c.items() if k in HARNESS and k != "perf")
                    sp["harness_ipio"] = h / busy * total
                    sp["fio_ipio"] = c.get("fio", 0) / busy * total
                prof[s] = sp
    if not runs and not prof:
        return None
    return {"env": env, "runs": runs, "errors": errors, "profile": prof or None, "grid": None,
            "summary": {s: spread([r[s]["ipio"] for r in runs]) for s in SIDES}}


def text(res):
    """compare/two-node's table: a line a run, each side's mean and spread, each side's split
    (seed 002's job: a line a cell)."""
    if res.get("grid"):
        out = [f"{'cell':<34} {'target instr/MiB':>24} {'initiator instr/MiB':>24} "
               f"{'reads/MiB':>9} {'commands/MiB':>12}"]
        for c, g in sorted(res["grid"].items()):
            out.append(f"{c:<34} " + " ".join(
                f"{g[k]['mean']:>15.0f} ({g[k]['spread_pct']:.1f} %)" for k in SIDES)
                + f" {g['reads']['mean']:>9.1f} {g['cmds']['mean']:>12.1f}")
        return out
    out = [f"{'run':<8} {'fio server':<12} {'fio I/Os':>9} {'IOPS':>8} {'target I/Os':>11} "
           f"{'target instr/I/O':>16} {'initiator I/Os':>14} {'initiator instr/I/O':>19}"]
    for r in res["runs"]:
        t, i = r["target"], r["initiator"]
        out.append(f"{r['name']:<8} {r['host']:<12} {r['fio_ios']:>9} {r['iops']:>8.0f} "
                   f"{t['ios']:>11} {t['ipio'] or 0:>16.0f} {i['ios']:>14} {i['ipio'] or 0:>19.0f}")
    for s in SIDES:
        m = res["summary"][s]
        if m and m["n"] > 1:
            out.append(f"{s}: mean {m['mean']:.0f} instructions per I/O, min {m['min']:.0f}, "
                       f"max {m['max']:.0f}, spread (max-min)/mean {m['spread_pct']:.2f}% "
                       f"({m['n']} runs)")
    for s, p in (res["profile"] or {}).items():
        lay = sorted(((n, v) for n, v in p["layers"].items() if v >= 0.5), key=lambda x: -x[1])
        out.append(f"{s} by layer (perf, {p['busy_samples'] or '?'} busy samples; the profiled "
                   f"run itself {p['profiled_ipio'] or 0:.0f}/I/O): "
                   + ", ".join(f"{n} {v:.0f}" for n, v in lay))
        if p.get("harness_ipio") is not None:
            out.append(f"{s}: the harness's own tasks {p['harness_ipio']:.0f}/I/O; fio "
                       f"{p['fio_ipio']:.0f}/I/O")
        out.append(f"{s} largest functions: "
                   + ", ".join(f"{f['symbol']} {f['ipio']:.0f}" for f in p["top"][:6]))
    out += [f"error: {e}" for e in res["errors"]]
    return out


def main(argv):
    if len(argv) == 3 and argv[0] == "--window":
        a, b = window(argv[1], argv[2])
        print(f"{a / 1e9:.6f},{b / 1e9:.6f}")
        return 0
    if len(argv) != 1 or argv[0].startswith("-"):
        print("usage: two-node-report.py DIR | --window RUN SIDE", file=sys.stderr)
        return 2
    res = load(argv[0])
    if not res:
        print(f"two-node-report.py: no compare/two-node run in '{argv[0]}'", file=sys.stderr)
        return 1
    print("\n".join(text(res)))
    return 0


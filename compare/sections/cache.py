# SPDX-License-Identifier: GPL-2.0
"""Cache misses per I/O per path, modelled: ROOT/iprofile/TARGET (compare/run --exact-profile:
tools/iprofile/run --cache, then tools/iprofile/table --json TARGET/table.json), one profiled
cell per ramlld path with the plugin's cache model. The per-rq_affinity misses are in the knob
section (ROOT/percpu, the same step)."""

import os

from lib.env import read_env
from lib.fmt import fmt, table
from lib.iprofile import DIR, qemu_text, run_cells

TITLE = "Cache misses per path (modelled)"
ORDER = 85
COPY = "copy_page"
TOP = 5


def load(run):
    """The profiled cells with the cache model's figures: lib.iprofile.cells()'s tuples."""
    return [c for c in run_cells(run) if c[1].get("cache")]


def step_cpu(root):
    """The step's host CPU seconds (its boots' wall.env cpu_s), or None."""
    paths = [os.path.join(root, DIR, t, "wall.env") for t in
             (os.listdir(os.path.join(root, DIR)) if os.path.isdir(os.path.join(root, DIR)) else [])]
    paths.append(os.path.join(root, "percpu", "wall.env"))
    got = [float(read_env(p)["cpu_s"]) for p in paths if read_env(p).get("cpu_s")]
    return sum(got) if got else None


def sums(j):
    """(loads+stores, L1d misses, L2 misses) per I/O, all CPUs."""
    return [sum(v[k] for v in j["cache"]["cpus"].values()) for k in range(3)]


def fn_misses(j, name):
    """(L1d, L2) misses per I/O of one function, all CPUs."""
    per = j["cache"]["functions"].get(name, {})
    return [sum(v[k] for v in per.values()) for k in range(2)]


def render(run, plots):
    cells = load(run)
    if not cells:
        return []
    model = cells[0][1]["cache"]["model"]
    meta, wall = cells[0][2], cells[0][3]
    qemu = qemu_text(meta, wall)
    cpu = step_cpu(run.root)
    L = ["## Cache misses per path (modelled)", "",
         f"**A model, not a measurement**: the profiling plugin's cache model "
         f"(tools/iprofile/cachemodel.h), {model}; no instruction fetch, prefetch, shared level "
         "or latency. Each path's 4k randread QD32 libaio cell, profiled on the exact clock "
         f"({qemu}, {meta.get('cpus', '?')} vCPU, guest kernel {meta.get('kernel', '?')}), in a "
         f"{meta.get('runtime', '?')} s window inside fio's steady I/O; per I/O: the window's "
         "loads and stores to RAM, and the misses they make (docs/profile.md, \"Cache, "
         "modelled\"). Made by `compare/run --exact-profile`, an option of its own, not part of "
         "any level" + (f" ({fmt(cpu, 0)} s of host CPU in this run, with the per-CPU "
                        "profile of the knob section)" if cpu else "") + ".", ""]
    rows = []
    for t, j, _, _ in cells:
        acc, m1, m2 = sums(j)
        c1, c2 = fn_misses(j, COPY)
        rows.append([t, fmt(j["n"], 0), f"{fmt(j['total'], 2)} / {fmt(j['window_clock'], 2)}",
                     fmt(acc, 2), fmt(m1, 2), fmt(m2, 2), f"{fmt(c1, 2)} / {fmt(c2, 2)}",
                     fmt(m1 - c1, 2), fmt(m2 - c2, 2)])
    L += [table(["path", "I/Os in the window", "instructions per I/O: plugin / clock",
                 "loads+stores per I/O", "L1d misses", "L2 misses", f"{COPY} L1d / L2",
                 "L1d besides the copy", "L2 besides the copy"], rows, "lrrrrrrrr"), ""]
    L.append(f"The functions with the most L1d misses per I/O besides {COPY} (L1d / L2; the "
             f"{TOP} largest):")
    L.append("")
    for t, j, _, _ in cells:
        fns = j["cache"]["functions"]
        big = sorted((f for f in fns if f != COPY), key=lambda f: (-fn_misses(j, f)[0], f))[:TOP]
        L.append(f"- {t}: " + "; ".join(
            f"{f} {fmt(fn_misses(j, f)[0], 2)} / {fmt(fn_misses(j, f)[1], 2)}" for f in big))
    L += ["", "Per rq_affinity setting, per CPU (completions on one CPU, fio on another): the "
          "knob section's \"Cache, modelled\" table.", ""]
    return L

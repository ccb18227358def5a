# SPDX-License-Identifier: GPL-2.0
"""The one reader of tools/iprofile/table's table.json (the plugin's exact counts of one profiled
cell: its window's I/Os, instructions per I/O in all and per layer, per function and CPU, the
cache model's misses) and of a results folder's profiled cells, ROOT/iprofile/TARGET
(compare/run --exact-profile), with each cell's meta.env and wall.env."""

import json
import os

from .env import read_env

DIR = "iprofile"
# the exact profile's paths, in the report's order (others found in the folder follow, by name)
PATHS = ("ramlld-bio", "ramlld-mq", "ramlld-sd")
# wall.env's qemu= (tools/iprofile/run --qemu)
QEMU_OF = {"system": "Debian 12's QEMU", "trixie": "Debian 13's QEMU"}
# the paths' cells as the ladder's rows run them (the default profile: the kernel's queue
# settings; qd32.fio's job), ROOT/iprofile/DEFAULT/TARGET; ROOT/iprofile/TARGET run one-core-peak's
# and percore.fio's
DEFAULT = "default"
# a cell's queue settings when its meta.env does not name them (tools/iprofile/guest-cell's
# --profile default: one-core-peak)
SETTINGS = {"one-core-peak": "scheduler none, iostats 0, nomerges 2"}


def read_table(d):
    """table.json of the folder d as a dict, None without one."""
    path = os.path.join(d, "table.json")
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def cells(root, profile=None):
    """[(target, table.json's dict, the cell's meta.env, its wall.env)] of every ROOT/iprofile/T
    with a table.json (profile DEFAULT: ROOT/iprofile/default/T), in the report's order."""
    d = os.path.join(root, DIR, *([profile] if profile else []))
    if not os.path.isdir(d):
        return []
    found = sorted((t for t in os.listdir(d) if os.path.isfile(os.path.join(d, t, "table.json"))),
                   key=lambda t: (PATHS.index(t) if t in PATHS else len(PATHS), t))
    return [(t, read_table(os.path.join(d, t)), read_env(os.path.join(d, t, "meta.env")),
             read_env(os.path.join(d, t, "wall.env"))) for t in found]


def run_cells(run):
    """cells() of a lib.results.Run's folder, read once per folder."""
    return run.once("iprofile", lambda: cells(run.root))


def qemu_text(meta, wall):
    """The QEMU a cell ran on, e.g. "Debian 12's QEMU 7.2.22"."""
    return " ".join(x for x in (QEMU_OF.get(wall.get("qemu"), "QEMU"), meta.get("qemu")) if x)


def functions(j):
    """{function: instructions per I/O, CPUs summed} of a table.json ({} without functions)."""
    return {f: sum(per.values()) for f, per in (j.get("functions") or {}).items()}


def difference(a, b, top=10):
    """b over a, two table.json's: {"total": b's total minus a's, "layers": [(layer, a's, b's,
    Δ)] every layer of either, largest |Δ| first (their Δ sum to "total": each table's layers
    sum to its total), "functions": [(function, its layer or None, a's, b's, Δ)] the top
    largest |Δ|, CPUs summed}."""
    la, lb = a.get("layers") or {}, b.get("layers") or {}
    layers = [(n, la.get(n, 0.0), lb.get(n, 0.0), lb.get(n, 0.0) - la.get(n, 0.0))
              for n in set(la) | set(lb)]
    layers.sort(key=lambda x: (-abs(x[3]), x[0]))
    fa, fb = functions(a), functions(b)
    kind = dict(a.get("function_layers") or {}, **(b.get("function_layers") or {}))
    fns = [(f, kind.get(f), fa.get(f, 0.0), fb.get(f, 0.0), fb.get(f, 0.0) - fa.get(f, 0.0))
           for f in set(fa) | set(fb)]
    fns.sort(key=lambda x: (-abs(x[4]), x[0]))
    return {"total": b["total"] - a["total"], "layers": layers, "functions": fns[:top]}


def settings(meta):
    """The queue settings and job a cell ran with, from its meta.env, e.g. "one-core-peak:
    scheduler none, iostats 0, nomerges 2; percore.fio"."""
    p = meta.get("profile") or "one-core-peak"
    q = (f"scheduler {meta['scheduler']}, iostats {meta.get('iostats', '?')}, "
         f"nomerges {meta.get('nomerges', '?')}" if meta.get("scheduler")
         else SETTINGS.get(p, "?"))
    return f"{p}: {q}; {meta.get('workload') or 'percore'}.fio"


def ladder_cells(root):
    """({target: (table.json, meta.env, wall.env)} of the DEFAULT cells, the same of the
    one-core-peak ones), those with functions, layers and I/Os."""
    def usable(cs):
        return {t: c for t, *c in cs if c[0].get("functions") and c[0].get("layers")
                and c[0].get("n")}
    return usable(cells(root, DEFAULT)), usable(cells(root))

# SPDX-License-Identifier: GPL-2.0
"""Where a difference of the ladder around the block layer comes from: the exact profile of a
pair of ledger rows (compare/run --ledger --ledger-profile). The pairs are the ladder's rungs
whose path tools/iprofile/guest-cell can run (ramlld's mq and sd disks, sg on ramlld's LUN, an
NVMe stack's generic character device) beside their twin's row (bio, mq, sd, the stack's block
device) at the same depth;
each row is profiled in a boot of its own into DIR/iprofile/ID (ID: the row's id with '/' as
'_'; tools/iprofile/table --json ID/table.json). Per pair: the difference per I/O in the
window, per layer, and the functions it comes from; per profiled row, the ledger's stages
from the plugin's counts (stages)."""

import os

from .fmt import fmt, table
from .iprofile import difference, functions, qemu_text, read_table
from .env import read_env
from .perf import stage_of

DIR = "iprofile"
# the ladder's paths whose rows (and their twins') the profile step runs: guest-cell's targets
PROFILED = ("ramlld-mq", "ramlld-sd", "ramlld-sg", "nvme-tcp-ng", "nvme-loop-ng")
USER = "[user]"  # tools/iprofile/table's name of fio's user-space instructions
TOP = 10         # the functions listed per pair, the largest |Δ| first
SHOWN = 0.5      # a layer shown from this many instructions per I/O on either side


def folder(root, row_id):
    """The profile's folder of a ledger row."""
    return os.path.join(root, DIR, row_id.replace("/", "_"))


def pairs(ladder):
    """[(rung with its depth, path row id, twin row id)]: the ladder's rungs of a PROFILED path without a
    feature (guest-cell runs the path's plain engine) whose row and twin's row both measured."""
    out = []
    for d in ladder["depths"]:
        for g in d["rungs"]:
            tid, _, rest = g["id"].partition("/")
            if (tid in PROFILED and "/" not in rest and g["instr_per_io"] is not None
                    and g["twin_instr_per_io"] is not None):
                out.append((dict(g, depth=d["depth"]), g["id"], g["twin"]))
    return out


def rows_to_profile(ladder):
    """The rows the step profiles, each once, a twin before its path."""
    ids = []
    for _, p, t in pairs(ladder):
        for i in (t, p):
            if i not in ids:
                ids.append(i)
    return ids


def why_missing(root, row_id, j):
    """Why a row has no usable table.json: its cell's log (the step keeps it) says it ran and
    failed."""
    log = os.path.relpath(folder(root, row_id), root) + ".log"
    if j is not None:
        return f"its {os.path.relpath(folder(root, row_id), root)}/table.json has no n or total"
    if os.path.isfile(os.path.join(root, log)):
        return f"its profiled cell failed ({log})"
    return "not profiled"


def compare(root, rung, path_id, twin_id):
    """One pair: its layers and functions side by side with the difference per I/O, or its
    status and why when a profile is missing."""
    p = {"path": rung["path"], "depth": rung["depth"], "id": path_id, "twin": twin_id, "ledger_delta": rung["delta"]}
    a, b = read_table(folder(root, twin_id)), read_table(folder(root, path_id))
    missing = [(i, why_missing(root, i, j)) for i, j in ((twin_id, a), (path_id, b))
               if j is None or "n" not in j or "total" not in j]
    if missing:
        return dict(p, status="no profile", missing=missing)
    diff = difference(a, b, TOP)
    layers = [x for x in diff["layers"] if max(abs(x[1]), abs(x[2])) >= SHOWN]
    meta, wall = read_env(os.path.join(folder(root, path_id), "meta.env")), \
        read_env(os.path.join(folder(root, path_id), "wall.env"))
    return dict(p, status="ok", n=[a["n"], b["n"]], total=[a["total"], b["total"]],
                window_clock=[a.get("window_clock"), b.get("window_clock")],
                delta=diff["total"], layers=layers, functions=diff["functions"],
                qemu=qemu_text(meta, wall), kernel=meta.get("kernel", "?"),
                cpus=meta.get("cpus", "?"), runtime=meta.get("runtime", "?"))


def load(root, ladder):
    """Every pair of the ladder, compared; None when the run profiled none (no DIR/iprofile)."""
    if not os.path.isdir(os.path.join(root, DIR)):
        return None
    return [compare(root, g, p, t) for g, p, t in pairs(ladder)]


def stages(root, row_id):
    """A profiled row's stages (compare/lib/perf.py STAGES, as the perf split's) from the
    plugin's counts: {"stages": {stage: instructions per I/O in the window}, "n", "total"}, the
    stages summing to the window's total (idle-loop code, none in a steady window, counted as
    other kernel); None without a table.json with functions."""
    j = read_table(folder(root, row_id))
    if not j or not j.get("functions") or "n" not in j or "total" not in j:
        return None
    st = {}
    for f, v in functions(j).items():
        s = stage_of("u" if f == USER else "k", f.split(" [")[0])
        s = "other kernel" if s == "idle" else s
        st[s] = st.get(s, 0.0) + v
    return {"stages": st, "n": j["n"], "total": j["total"]}


def plus(x):
    """x signed, whole; one that rounds to 0 as 0 (no "-0")."""
    return f"{x:+,.0f}" if round(x) else "0"


def markdown(profiles, unit):
    """The pairs' tables, under the ladder."""
    if profiles is None:
        return []
    L = ["### Where the difference comes from: the exact profile", ""]
    if not profiles:
        return L + ["No pair to profile in this run: the profile takes ramlld's mq and sd "
                    "disks, sg and an NVMe stack's generic device (" + ", ".join(f"`{t}/ENGINE`" for t in PROFILED)
                    + ") with their twins' rows, both measured.", ""]
    ok = [p for p in profiles if p["status"] == "ok"]
    if ok:
        first = ok[0]
        L += [f"Each row of a pair profiled in a boot of its own by tools/iprofile's plugin "
              f"(every instruction counted at its address, no sampling; {first['qemu']}, exact "
              f"clock, {first['cpus']} vCPU, guest kernel {first['kernel']}): "
              "tools/iprofile/guest-cell's set-up of the row's target and engine, a "
              f"{first['runtime']} s window inside fio's steady I/O, per I/O completed in it "
              "(docs/profile.md). `Δ` = the path's minus its twin's; the layers and the "
              "functions each sum to the window's total, the clock's "
              f"{unit} over the window; the ladder's figure counts fio's whole run, start-up "
              "and exit in it.", ""]
    for p in profiles:
        head = f"**{p['path']}, QD{p['depth']}**: `{p['id']}` over `{p['twin']}`"
        if p["status"] != "ok":
            L += [head + ": **no profile**: " + "; ".join(f"`{i}` {why}" for i, why in
                                                           p["missing"]) + ".", ""]
            continue
        lad = f" (the ladder's, fio's whole run: {plus(p['ledger_delta'])})" \
            if p["ledger_delta"] is not None else ""
        L += [head + f": {plus(p['delta'])} per I/O in the window{lad}.", ""]
        body = [[n, fmt(x, 0), fmt(y, 0), plus(d)] for n, x, y, d in p["layers"]]
        body.append(["**total** (I/Os in the window)",
                     f"**{fmt(p['total'][0], 0)}** ({p['n'][0]:,})",
                     f"**{fmt(p['total'][1], 0)}** ({p['n'][1]:,})", f"**{plus(p['delta'])}**"])
        L += [table(["layer", p["twin"], p["id"], "Δ per I/O"], body, "lrrr"), ""]
        body = [[f"`{f}`", k or "-", fmt(x, 0), fmt(y, 0), plus(d)]
                for f, k, x, y, d in p["functions"]]
        L += [f"The {len(body)} functions that moved most:", "",
              table(["function", "layer", p["twin"], p["id"], "Δ per I/O"], body, "llrrr"), ""]
    return L

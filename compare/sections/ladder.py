# SPDX-License-Identifier: GPL-2.0
"""The cost ladder (docs/stacks.md): the same ramlld store read through bio, mq, sd and each
kernel storage stack built over ramlld's mq disk, each rung's figures, its increment over the
rung it is built on, and that increment split by layer: from the plugin's exact counts where
both rungs have a profiled cell (ROOT/iprofile/TARGET, compare/run --exact-profile), else from
the rungs' perf profiles."""

import os
import re

from lib.fmt import fmt, md_table
from lib import iprofile
from lib.perf import LAYER_NAMES, layer_of, symbols
from lib.results import read_stack_ladder
from lib import doc
from lib.env import read_env
from lib.targets import STACK_LADDER, ladder, read_all
from lib.twonode import SIDES, load as load_two_node

TITLE = "Cost ladder"
ORDER = 90

# (title, workload, section) of the ladder's columns, under the default profile
CELLS = [("4k randread QD1", "lat-qd1", "randread-4k-qd1"),
         ("4k randread QD32", "qd32", "randread-4k-qd32"),
         ("1 MiB seq read QD4", "ladder", "read-1m-qd4")]
PROFILE = "default"
# The breakdown's cell (compare/guest-run profiles 4k randread QD32 of each target).
BD_CELL = ("qd32", "randread-4k-qd32")
TOP_FNS = 6      # an exact increment's functions that moved most
SHOWN = 1.0      # an exact increment's layer shown from this |Δ| (instructions per I/O)


def profile(root, target, total, own_rx):
    """A rung's perf profile (breakdown/<target>/perf.txt) as cost per I/O: per layer, and its
    own functions' (own_rx, the target file's own-functions) largest. total: the rung's cost per
    I/O in the breakdown's cell; a symbol's cost is its share of the busy samples times that."""
    bd = os.path.join(root, "breakdown", target)
    # a breakdown under another profile than the ladder's (the exact quick level's of ramlld's
    # paths: seed-001) would split the wrong cell's cost
    prof = read_env(os.path.join(bd, "profile.env"))
    if prof.get("profile", PROFILE) != PROFILE:
        return None
    syms = symbols(os.path.join(bd, "perf.txt"))
    if not syms or not total:
        return None
    layer = {n: 0.0 for n in LAYER_NAMES}
    idle = 0.0
    for pct, kind, sym, _ in syms:
        n = layer_of(kind, sym)
        if n == "idle":
            idle += pct
        else:
            layer[n] += pct
    busy = sum(layer.values())
    if busy <= 0:
        return None
    own = []
    if own_rx:
        own = [(sym, pct / busy * total) for pct, kind, sym, _ in syms
               if kind == "k" and re.fullmatch(own_rx, sym)]
        own.sort(key=lambda x: -x[1])
    return {"layers": {n: v / busy * total for n, v in layer.items()},
            "idle_pct": idle, "own_total": sum(c for _, c in own), "own_top": own[:6]}


def section(root, idx, targets, exact, headers):
    """The ladder of a results folder: None when it measured no rung of it. Its rungs: the
    target headers' "# ladder:" (lib/targets.py): bio, mq and sd are ramlld's own front ends
    over the one store; every stack exports ramlld's mq disk (compare/targets/common/stack.sh),
    and iSCSI and SRP put another transport where lio-iblock has tcm_loop."""
    key = "instr_per_io" if exact else "cpu_us_per_io_stat"
    rungs = [r[:3] for r in ladder(headers)]
    rows, bd = [], {}
    by_target = {t: r for r, t, _ in rungs}
    for rung, t, below in rungs:
        cells = {}
        for title, w, s in CELLS:
            c = idx.get((t, PROFILE, w, s))
            if not c or not c.get("iops"):
                continue
            b = idx.get((below, PROFILE, w, s)) if below else None
            v = {"iops": c["iops"], "lat_mean_us": c["lat_mean_us"],
                 "lat_p50_us": c["lat_p50_us"], "lat_p99_us": c["lat_p99_us"],
                 "lat_p999_us": c["lat_p999_us"], "cost": c.get(key), "n": c["n"],
                 "det": (c.get("determinism") or {}).get("ok")}
            if b and b.get("iops"):
                v["d_cost"] = (c[key] - b[key]
                               if c.get(key) is not None and b.get(key) is not None else None)
                v["d_lat_us"] = (c["lat_mean_us"] - b["lat_mean_us"]
                                 if c["lat_mean_us"] is not None and b["lat_mean_us"] is not None
                                 else None)
                v["iops_ratio"] = c["iops"] / b["iops"]
            cells[title] = v
        if cells:
            rows.append({"rung": rung, "target": t, "below": by_target.get(below),
                         "below_target": below, "cells": cells})
            bc = idx.get((t, PROFILE) + BD_CELL)
            prof = profile(root, t, bc.get(key) if bc else None,
                           (targets.get(t) or {}).get("own-functions"))
            if prof:
                bd[t] = prof
    two = two_node(root, rungs)
    if not rows and not two:
        return None
    # the rows run the default profile and qd32.fio: those cells' increments where both rungs
    # have one, else one-core-peak's (scheduler none, percore.fio), said so
    xd, xp = iprofile.ladder_cells(root)
    inc, xinc = [], []
    for r in rows:
        t, b = r["target"], r["below_target"]
        if t in xd and b in xd:
            x = exact_increment(r, xd[b], xd[t], iprofile.DEFAULT)
            if t in xp and b in xp:
                x["peak_delta"] = xp[t][0]["total"] - xp[b][0]["total"]
            xinc.append(x)
            continue
        if t in xp and b in xp:
            xinc.append(exact_increment(r, xp[b], xp[t], "one-core-peak"))
            continue
        p, q = bd.get(t), bd.get(b)
        if not p or not q:
            continue
        d = {n: p["layers"][n] - q["layers"][n] for n in LAYER_NAMES}
        inc.append({"rung": r["rung"], "below": r["below"],
                    "total": sum(p["layers"].values()) - sum(q["layers"].values()),
                    "layers": d, "own_top": p["own_top"], "own_total": p["own_total"],
                    "no_cell": [x for x in (b, t) if x not in xp]})
    return {"rows": rows, "breakdown": bd, "increments": inc, "exact_increments": xinc,
            "exact_cells": sorted(set(xp) | set(xd)), "exact": exact, "two_node": two,
            "unit": "instr/IO" if exact else "CPU µs/IO",
            "missing": [(rung, t) for rung, t, _ in rungs
                        if t not in {r["target"] for r in rows}
                        and t not in {x["target"] for x in two}]}


def exact_increment(r, below, cell, profile):
    """A rung's increment from the plugin's exact counts: its profiled cell's table.json over
    the rung below's (each (table.json, meta.env, wall.env)), both under profile, per layer and
    per function, with the ladder's own Δ of the same cell beside it."""
    (ja, ma, wa), (jb, mb, wb) = below, cell
    d = iprofile.difference(ja, jb, TOP_FNS)
    v = r["cells"].get("4k randread QD32") or {}
    return {"rung": r["rung"], "below": r["below"], "target": r["target"], "profile": profile,
            "settings": {t: iprofile.settings(m) for t, m in ((r["below_target"], ma),
                                                               (r["target"], mb))},
            "below_target": r["below_target"], "totals": [ja["total"], jb["total"]],
            "n": [ja["n"], jb["n"]], "total": d["total"], "layers": d["layers"],
            "functions": d["functions"], "ladder_delta": v.get("d_cost"),
            "clock": [j.get("window_clock") for j in (ja, jb)],
            "env": {k: " / ".join(dict.fromkeys(x for x in vals if x)) or "?" for k, vals in {
                "qemu": (iprofile.qemu_text(ma, wa), iprofile.qemu_text(mb, wb)),
                "cpus": (ma.get("cpus"), mb.get("cpus")), "kernel": (ma.get("kernel"), mb.get("kernel")),
                "engine": (ma.get("engine") or "libaio", mb.get("engine") or "libaio"),
                "runtime": (ma.get("runtime"), mb.get("runtime"))}.items()}}


def two_node(root, rungs):
    """The ladder's two-node column: each stack's compare/two-node folder, ROOT/two-node/<the
    stack's target>/ (compare/run --two-node), read by lib/twonode.py: each side's instructions
    per I/O on its own exact clock, their spread over the runs, each side's split by layer."""
    out = []
    for rung, t, _ in rungs:
        res = load_two_node(os.path.join(root, "two-node", t))
        if res:
            out.append({"rung": rung, "target": t, **res})
    return out


def _two_node_md(two):
    """The two-node column's lines: a row a stack, then a row a side with its split."""
    if not two:
        return []
    envs = [x["env"] for x in two]
    e = envs[0]
    same = all(v == e for v in envs)
    L = ["### Two nodes: each side's instructions per I/O", "",
         "The stack's target and its initiator in two guests joined by a link over the host's "
         "127.0.0.1 (compare/two-node, docs/stacks.md \"Two nodes\"), each on its own clock: "
         "a side's cost is its busy time (each CPU's window less its idle time) over its own "
         "I/Os (target: the commands its target core received; initiator: its disk's reads and "
         "writes), fio's client on the target, its server on the initiator. The split: each "
         "side's perf profile (cpu-clock, a pass of its own) by layer (compare/lib/perf.py), "
         "scaled to the counted runs' mean."]
    if same and e:
        clock = ("the exact clock (QEMU icount, 1 instruction = 1 ns, sleep="
                 f"{e.get('icount_sleep', '?')})" if e.get("clock") == "icount"
                 else f"the host's clock ({e.get('clock', '?')}): not instructions")
        L.append("")
        L.append(f"Clock: {clock}, {e.get('cpus', '?')} vCPU a side; job: fio {e.get('rw', '?')} "
                 f"bs={e.get('bs', '?')} iodepth={e.get('iodepth', '?')}, "
                 f"{e.get('runtime', '?')} s; {e.get('guest', 'guest kernel not recorded')}.")
    L.append("")
    rows = []
    for x in two:
        row = [x["rung"], x["target"], len(x["runs"])]
        for s in SIDES:
            m = x["summary"][s]
            row += ["-", "-"] if not m else [
                fmt(m["mean"]), (f"{fmt(m['min'])} - {fmt(m['max'])} ({m['spread_pct']:.1f} %)"
                                 if m["n"] > 1 else "one run: not known")]
        t, i = x["summary"]["target"], x["summary"]["initiator"]
        row.append(fmt(t["mean"] + i["mean"]) if t and i else "-")
        rows.append(row)
    L.append(md_table(["rung", "target", "runs", "target instr/IO", "target min - max (spread)",
                       "initiator instr/IO", "initiator min - max (spread)", "both sides"], rows))
    L.append("")
    L.append("Spread: (max − min) / mean over the counted runs. Each guest's count is exact for "
             "what it executes, but what it executes depends on when the other side's packets "
             "arrive (how many PDUs one interrupt or poll takes, a delayed ACK or not): the host's "
             "scheduling of two QEMU processes, so a side repeats to the spread shown, not to "
             "the instruction as a one-guest cell does.")
    L.append("")
    rows = []
    for x in two:
        for s in SIDES:
            p = (x["profile"] or {}).get(s)
            if not p:
                continue
            tot = sum(p["layers"].values())
            parts = sorted(((n, v) for n, v in p["layers"].items() if v >= tot * 0.03),
                           key=lambda nv: -nv[1])
            rows.append([x["rung"], s, fmt(tot),
                         ", ".join(f"{n} {fmt(v)}" for n, v in parts),
                         ", ".join(f"`{f['symbol']}` {fmt(f['ipio'])}" for f in p["top"][:5]),
                         f"{fmt(p.get('harness_ipio'))}; {fmt(p.get('fio_ipio'))}",
                         f"{p['busy_samples'] or '?'}; {fmt(p['profiled_ipio'])}"])
    if rows:
        L.append("Each side by layer and its largest functions (instructions per I/O, self "
                 "time; 'harness; fio': what of it the measuring harness's own tasks (its "
                 "waits on the shared folder, its copies of the clock) and fio take, fio on the "
                 "target being the controller, on the initiator the load; 'busy samples; "
                 "profiled run': the perf pass's busy samples in the window and that run's own "
                 "count, perf's interrupts in it):")
        L.append("")
        L.append(md_table(["rung", "side", "instr/IO", "by layer (>= 3 %)", "largest functions",
                           "harness; fio", "busy samples; profiled run"], rows))
        L.append("")
    errs = [f"{x['target']} {e}" for x in two for e in x["errors"]]
    if errs:
        L.append("Runs left out (unreadable): " + "; ".join(errs) + ".")
        L.append("")
    return L


def two_node_side(sec, target):
    """{side: {mean, spread...}, profile, env} of a stack's two-node column, None without it."""
    for x in (sec or {}).get("two_node") or []:
        if x["target"] == target:
            return x
    return None


def _cost(x, exact):
    return fmt(x) if exact else fmt(x, 2)


def _signed(x, exact):
    if x is None:
        return "-"
    return ("+" if x >= 0 else "−") + _cost(abs(x), exact)


def markdown(sec, notes):
    """The section's lines (none without a ladder). notes: the run's notes (why a rung is
    missing: a kernel without the stack is skipped by name)."""
    if not sec:
        return []
    ex, unit = sec["exact"], sec["unit"]
    L = ["## Cost ladder (the same store through each layer and stack)", "",
         "Every rung reads ramlld's one store: bio, mq and sd are ramlld's "
         "own front ends; each stack exports ramlld's mq disk (docs/stacks.md). 'over' is the "
         "rung it is built on; Δ is this rung minus that one. "
         + ("Cost = instructions per I/O (10^9 / IOPS on the exact clock: the whole path, fio "
            "included)." if ex else
            "Cost = busy CPU µs per I/O (/proc/stat, all CPUs, the ramp counted in)."), ""]
    for title, _, _ in CELLS:
        rows = []
        for r in sec["rows"]:
            v = r["cells"].get(title)
            if not v:
                continue
            rows.append([r["rung"], r["target"], fmt(v["iops"]), fmt(v["lat_mean_us"]),
                         fmt(v["lat_p50_us"]), fmt(v["lat_p99_us"]), fmt(v["lat_p999_us"]),
                         _cost(v["cost"], ex) + ("" if v["det"] is not False else " ⚠"),
                         r["below"] or "-", _signed(v.get("d_cost"), ex),
                         _signed(v.get("d_lat_us"), False) if "d_lat_us" in v else "-",
                         fmt(v.get("iops_ratio"), 2)])
        if rows:
            L += [f"### {title}", ""]
            L.append(md_table(["rung", "target", "IOPS", "mean lat µs", "p50 µs", "p99 µs",
                               "p99.9 µs", unit, "over", f"Δ {unit}", "Δ mean lat µs",
                               "IOPS / over"], rows))
            L.append("")
    L += _two_node_md(sec["two_node"])
    L += _exact_md(sec.get("exact_increments") or [])
    if sec["increments"]:
        L.append(f"### Where each increment goes (4k randread QD32, {unit} by layer, sampled)")
        xc = sec.get("exact_cells") or []
        L.append("Sampled by perf, only for the rungs without the plugin's exact counts ("
                 + ("; ".join(f"{i['rung']} over {i['below']}: no "
                              + ", ".join(f"iprofile/{t}/table.json" for t in i["no_cell"])
                              for i in sec["increments"])
                    if xc else "no rung has a profiled cell here: `compare/run --exact-profile` "
                    "counts bio's, mq's and sd's")
                 + "). Each rung's perf profile (breakdown/<target>/perf.txt: cpu-clock, self time, "
                 "its traced 4k randread QD32 run) splits its cost by layer (symbol prefixes: compare/lib/perf.py LAYERS); "
                 "the increment of each layer is this rung's minus the rung's below. Samples "
                 "land where interrupts are re-enabled, so 'other kernel' and "
                 "'sched+workqueue' (finish_task_switch) hold some of every layer. 'own "
                 "functions': the largest of the rung's own (its target file's "
                 "own-functions), self time.")
        L.append("")
        rows = []
        for i in sec["increments"]:
            parts = sorted(((n, d) for n, d in i["layers"].items()
                            if abs(d) >= max(abs(i["total"]) * 0.03, 1e-9)),
                           key=lambda x: -abs(x[1]))
            rows.append([i["rung"], i["below"], _signed(i["total"], ex),
                         ", ".join(f"{n} {_signed(d, ex)}" for n, d in parts) or "-",
                         _cost(i["own_total"], ex),
                         ", ".join(f"`{s}` {_cost(c, ex)}" for s, c in i["own_top"][:4]) or "-"])
        L.append(md_table(["rung", "over", f"Δ {unit}", "Δ by layer", "own functions",
                           "largest own functions"], rows))
        L.append("")
    if sec["missing"]:
        why = {n["target"]: n["text"] for n in notes if n["kind"] == "skip"}
        cut = any(n["kind"] == "fail" and n["target"] == "guest" for n in notes)
        L.append("Not in this run: " + "; ".join(
            f"{rung} (`{t}`: {why[t]})" if t in why else
            f"{rung} (`{t}`: not selected, or not reached before the guest ended: Notes)" if cut
            else f"{rung} (`{t}`: not selected)"
            for rung, t in sec["missing"]) + ".")
        L.append("")
    return L


def _exact_md(xinc):
    """The increments from the plugin's exact counts: a table a profile, a row a rung whose
    cell and the rung below's were profiled under it."""
    L = []
    for prof in (iprofile.DEFAULT, "one-core-peak"):
        xs = [i for i in xinc if i["profile"] == prof]
        if xs:
            L += _exact_table(prof, xs)
    return L


def _exact_table(prof, xinc):
    env = {k: " / ".join(dict.fromkeys(i["env"][k] for i in xinc)) for k in xinc[0]["env"]}
    sets = dict(kv for i in xinc for kv in i["settings"].items())
    where = "iprofile/default/<target>" if prof == iprofile.DEFAULT else "iprofile/<target>"
    L = [f"### Where each increment goes (4k randread QD32, instr/IO by layer: exact counts, "
         f"profile {prof})",
         f"The plugin's exact counts, no sampling: each rung's profiled cell "
         f"({where}/table.json of `compare/run --exact-profile`; {env['qemu']}, exact "
         f"clock: -icount shift=0, {env['cpus']} vCPU, guest kernel {env['kernel']}), 4k "
         f"randread QD32 {env['engine']}, a {env['runtime']} s window inside fio's steady I/O, per "
         "I/O completed in it (docs/profile.md). Δ = the rung's window total minus the rung's "
         "below; the layers' Δ (tools/iprofile/table's layers) sum to it, those under "
         f"{fmt(SHOWN, 0)} summed in 'rest'. Queue settings each cell ran with: "
         + "; ".join(f"{t} {v}" for t, v in sets.items()) + ". "
         + ("The ladder's rows run the same profile and job: the Δ compares with the "
            "ladder's; 'Δ, one-core-peak' is the same pair's under scheduler none and "
            "percore.fio's plugged batches of 8."
            if prof == iprofile.DEFAULT else
            "Not the default profile and job of the tables above: the Δ here leaves out the "
            "scheduler, its kblockd runs and the accounting the defaults add to mq and sd "
            "(the ladder's Δ beside it)."), ""]
    rows = []
    for i in xinc:
        big = [(n, d) for n, _, _, d in i["layers"] if abs(d) >= SHOWN]
        rest = sum(d for n, _, _, d in i["layers"] if abs(d) < SHOWN)
        rows.append([i["rung"], i["below"],
                     f"{fmt(i['totals'][0], 0)} → {fmt(i['totals'][1], 0)}",
                     _signed(i["total"], True), _signed(i["ladder_delta"], True)]
                    + ([_signed(i.get("peak_delta"), True)] if prof == iprofile.DEFAULT else [])
                    + [", ".join(f"{n} {_signed(d, True)}" for n, d in big)
                       + (f", rest {_signed(rest, True)}" if round(rest) else ""),
                       ", ".join(f"`{f}` {_signed(d, True)}" for f, _, _, _, d in i["functions"]
                                 if abs(d) >= 0.5) or "-"])
    L.append(md_table(["rung", "over", "window instr/IO (over → rung)", "Δ instr/IO",
                       "the ladder's Δ (default profile)"]
                      + (["Δ, one-core-peak"] if prof == iprofile.DEFAULT else [])
                      + ["Δ by layer", "functions that moved most, Δ instr/IO"], rows))
    L.append("")
    return L


def text(sec):
    """Short lines for the terminal: one per rung, the three cells' cost and increment."""
    if not sec:
        return []
    ex, unit = sec["exact"], sec["unit"]
    out = [f"cost ladder ({unit}, Δ over the rung below; 4k QD1 | 4k QD32 | 1 MiB QD4):"]
    for r in sec["rows"]:
        parts = []
        for title, _, _ in CELLS:
            v = r["cells"].get(title)
            parts.append(f"{fmt(v['iops'])} IOPS {_cost(v['cost'], ex)} "
                         f"({_signed(v.get('d_cost'), ex)})" if v else "-")
        out.append(f"  {r['rung']:16} over {r['below'] or '-':16} " + " | ".join(parts))
    if sec["two_node"]:
        out.append("two nodes (instr/IO a side on its own exact clock, mean over the runs "
                   "(spread); target | initiator):")
    for x in sec["two_node"]:
        parts = []
        for s in SIDES:
            m = x["summary"][s]
            parts.append(f"{fmt(m['mean'])} ({m['spread_pct']:.1f} %, {m['n']} runs)" if m else "-")
        out.append(f"  {x['rung']:16} " + " | ".join(parts))
    return out


def plot(sec, plots):
    """ladder.png: each rung's instructions (or CPU µs) per I/O, a panel per cell: a 4k I/O
    and a 1 MiB one are not on one axis."""
    if not sec or plots.plt is None:
        return None
    cols = [(title, [(r["rung"], r["cells"][title]["cost"]) for r in sec["rows"]
                     if title in r["cells"] and r["cells"][title]["cost"] is not None])
            for title, _, _ in CELLS]
    cols = [(t, v) for t, v in cols if v]
    if not cols:
        return None
    from matplotlib.ticker import FuncFormatter, MaxNLocator
    fig, axs = plots.plt.subplots(1, len(cols), figsize=(4.2 * len(cols), 4), squeeze=False)
    for ax, (title, vals) in zip(axs[0], cols):
        ax.barh([r for r, _ in vals][::-1], [v for _, v in vals][::-1], color="tab:blue")
        for i, (_, v) in enumerate(vals[::-1]):
            ax.text(v, i, " " + _cost(v, sec["exact"]), va="center", fontsize=7)
        ax.set_xlim(0, max(v for _, v in vals) * 1.3)
        ax.xaxis.set_major_locator(MaxNLocator(4))
        if sec["exact"]:
            ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x / 1e3:,.0f}k"))
        ax.set_title(title, fontsize=9)
        ax.set_xlabel(sec["unit"].replace("instr/IO", "instructions per I/O"), fontsize=8)
        ax.tick_params(labelsize=8)
    fig.suptitle("The cost ladder: ramlld's store through each layer and stack (profile default)",
                 fontsize=9)
    return plots.save(fig, "ladder.png")


def from_stack_ladder(d):
    """The ladder of a tools/stack-ladder folder (meta.json, RUNG-SECTION.json fio runs,
    RUNG-SECTION.cpu busy CPU seconds) and its notes: the same section as the report's."""
    meta, runs = read_stack_ladder(d, [s for _, _, s in CELLS])
    exact = "icount" in meta.get("clock", "")
    idx = {}
    for rung in meta["rungs"]:
        t = STACK_LADDER.get(rung, rung)
        for _, w, s in CELLS:
            if (rung, s) not in runs:
                continue
            m = dict(runs[(rung, s)])
            busy = m.pop("busy_s")
            m.update(n=1, determinism=None,
                     instr_per_io=1e9 / m["iops"] if exact and m["iops"] else None,
                     cpu_us_per_io_stat=busy * 1e6 / m["ios"] if m["ios"] else None)
            idx[(t, PROFILE, w, s)] = m
    notes = [{"kind": "skip", "target": STACK_LADDER.get(r, r), "text": why}
             for r, why in meta.get("skipped", {}).items()]
    return section(d, idx, {}, exact, read_all()), meta, notes


def stack_ladder_main(d):
    """tools/stack-ladder --report DIR: DIR/ladder.md and DIR/ladder.json, the table printed."""
    sec, meta, notes = from_stack_ladder(d)
    L = [f"# The cost ladder ({meta['kernel']}, {meta['cpus']} CPUs, {meta['clock']}; "
         f"{meta['runtime']} s runs after {meta['ramp']} s ramp)", ""] + markdown(sec, notes)
    doc.write(os.path.join(d, "ladder.md"), L, data=sec)
    print("\n".join(L))


def compute(run):
    return run.once("ladder", lambda: section(run.root, run.idx, run.target_meta, run.exact,
                                               run.headers))


def render(run, plots):
    sec = compute(run)
    if not sec:
        return []
    img = run.once("ladder.png", lambda: plot(sec, plots))
    return markdown(sec, run.notes) + ([img, ""] if img else [])

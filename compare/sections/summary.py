# SPDX-License-Identifier: GPL-2.0
"""The summary, the report's first screen (and what compare/run prints at its end): what one
I/O costs on each path, what each knob changes, each seed's verdict, the path ladder."""

from lib.fmt import fmt, signed, table
from lib.verdict import NOT_DECIDABLE, cell
from lib.twonode import SIDES
from lib.targets import summary_paths
from sections import headline, knobs, ladder, seeds

TITLE = "Summary"
ORDER = 10
CELL = ("qd32", "randread-4k-qd32")
# (configuration, profile) of the path table's ramlld rows; profile None: the polled targets
CONFIGS = [("kernel's defaults", "default"),
           ("seed 001's tuning: none, rq_affinity=2, add_random=0", "seed-001"),
           ("polled: io_uring hipri on poll_queues=1, the cheapest section", None)]
SEEDS = seeds()


def cost_key(run):
    return "instr_per_io" if run.exact else "cpu_us_per_io_stat"


def path_rows(run):
    """[path, configuration, cost, IOPS, x bio (cost over bio's), over the rung below] of the
    path table (the polled paths and the other stacks; the headline has the three paths): its
    paths and their polled targets are the target headers' "# summary:" (lib/targets.py)."""
    key = cost_key(run)
    paths = summary_paths(run.headers)
    rows = []
    for conf, prof in CONFIGS:
        if prof:
            continue  # the headline (sections/headline.py) gives these, defined once
        got = {}
        for path, t, polled in paths:
            if prof:
                c = run.cell(t, prof, *CELL)
            else:
                # polled: the percore workload's io_uring hipri sections on the polled targets
                cs = [c for c in run.cells if c["target"] == polled and c["workload"] == "percore"
                      and ("hipri" in c["section"] or c["section"] == "peak")
                      and c.get(key) is not None]
                c = min(cs, key=lambda c: c[key]) if cs else None
            if c and c.get(key) is not None:
                got[path] = c
        # the ratio column's base: the first path (bio)
        bio = (got.get(paths[0][0]) or run.cell(paths[0][1], prof or "default", *CELL)
               if paths else None)
        for i, (path, _, _) in enumerate(paths):
            c = got.get(path)
            if not c:
                continue
            below = paths[i - 1][0] if i else None
            lower = got.get(below) if below else None
            if below and lower is None and not prof:
                # bio has no polled queue: polled mq is over bio under the defaults
                lower = run.cell(paths[i - 1][1], "default", *CELL)
            rows.append([f"ramlld {path}" + (f" ({c['target']}, {c['section']})" if not prof else ""),
                         conf, fmt(c[key], None if run.exact else 2), fmt(c["iops"]),
                         fmt(c[key] / bio[key], 2) if bio and bio.get(key) else "-",
                         signed(c[key] - lower[key], None if run.exact else 2) + f" over {below}"
                         if lower and lower.get(key) is not None else "-"])
        if not prof and not got:
            poll = ",".join(p for _, _, p in paths if p)
            rows.append(["ramlld " + ", ".join(p for p, _, q in paths if q), conf,
                         f"not in this run: `compare/run --targets {poll} --only percore`",
                         "-", "-", "-"])
    lad = ladder.compute(run)
    bio0 = run.cell(paths[0][1], "default", *CELL) if paths else None
    for r in (lad or {}).get("rows", []):
        if r["target"] in [t for _, t, _ in paths]:
            continue
        c = run.cell(r["target"], "default", *CELL)
        b = run.cell(r["below_target"], "default", *CELL) if r["below_target"] else None
        if not c or c.get(key) is None:
            continue
        rows.append([f"{r['rung']} ({r['target']})", "kernel's defaults",
                     fmt(c[key], None if run.exact else 2), fmt(c["iops"]),
                     fmt(c[key] / bio0[key], 2) if bio0 and bio0.get(key) else "-",
                     signed(c[key] - b[key], None if run.exact else 2) + f" over {r['below']}"
                     if b and b.get(key) is not None else "-"])
    return rows


def knob_rows(run):
    eff = knobs.effects(run)
    if not eff:
        return [], []
    works = sorted({e[0] for e in eff})
    names = list(dict.fromkeys((e[1], e[2]) for e in eff))
    rows = []
    for knob, change in names:
        row = [knob, change]
        for w in works:
            got = next((e[3] for e in eff if e[0] == w and e[1] == knob), {})
            for fe in ("mq", "sd"):
                row.append(got[fe][1] if fe in got else "-")
        rows.append(row)
    head = ["knob", "change"] + [f"{w}: {fe}" for w in works for fe in ("mq", "sd")]
    return head, rows


def undecided_cell(why, command, where=None):
    return (f"**{NOT_DECIDABLE}**: {why.rstrip('.')}. Decides it: `{command}`"
            + (f", {where}" if where else "") + ".")


def absent_rows(run, mod, sid):
    """A seed whose cells are not in this run: its verdict on this clock all the same (a claim
    this clock cannot decide stays so), else the command that measures it."""
    claim = mod.CLAIM[0]
    undecided = getattr(mod, "undecided_here", lambda run: [])(run)
    main = next((u for u in undecided if u["claim"] is None), None)
    if main:
        verdict = undecided_cell(main["why"], main["command"], main.get("where"))
    elif sid == "003":
        verdict = undecided_cell(mod.UNAVAILABLE_WHY, mod.UNAVAILABLE_DECIDES,
                                 mod.UNAVAILABLE_WHERE)
    else:
        verdict = undecided_cell("this run has no figures of it", f"compare/run --only seed-{sid}")
    rows = [[f"{sid}: {claim}", "not in this run", verdict]]
    for u in undecided:
        if u["claim"] is not None:
            rows.append([f"{sid}: {u['claim']}", u["measured"] if u.get("cell") else
                         "not in this run",
                         u.get("cell") or undecided_cell(u["why"], u["command"], u.get("where"))])
    return rows


def seed_rows(run):
    """A row per seed claim, measured in this run or not."""
    rows = []
    for mod in SEEDS:
        sid = mod.__name__[-3:]
        sec = mod.compute(run)
        if not sec:
            rows += absent_rows(run, mod, sid)
            continue
        v = sec["verdict"]
        claim, what = mod.CLAIM
        got = f"{what}: {fmt(v['r'], 3)}x" if v.get("r") is not None else "not measured"
        verdict = cell(v)
        tn2 = sec.get("two_node") if sid == "002" else None
        if tn2 and tn2["ratios"]:
            z, ra, r = tn2["ratios"][-1]
            got = ("" if v.get("r") is None else got + "; ") + (
                f"two nodes, instructions per MiB at 64 over 512 ({ra}, {z}): target "
                f"{fmt(r['target'][0], 3)}x, initiator {fmt(r['initiator'][0], 3)}x")
        tn = sec.get("two_node") if sid == "003" else None
        if tn:
            got = ("" if v.get("r") is None else got + "; ") + (
                f"two nodes ({tn['target']}): LIO's target side {fmt(tn['target_ipio'])} "
                "instructions per command" + (
                    f", its target core {fmt(tn['core_ipio'])} ({100 * tn['core_share']:.1f} %)"
                    if tn.get("core_ipio") is not None else ""))
            if tn.get("ceiling"):
                verdict += (f" A target core costing nothing would gain at most "
                            f"{fmt(tn['ceiling'], 3)}x on the target side.")
        rows.append([f"{sid}: {claim}", got, verdict])
        for u in sec.get("undecided", []):
            rows.append([f"{sid}: {u['claim']}", u["measured"],
                         u.get("cell") or undecided_cell(u["why"], u["command"], u.get("where"))])
    return rows


def two_node_lines(run):
    """Each side's cost per two-node stack, when the run has them (compare/run --two-node):
    the ladder's two-node column in short, its spread with it (a side repeats to a few
    percent, not to the instruction)."""
    two = (ladder.compute(run) or {}).get("two_node") or []
    rows = []
    for x in two:
        cells = []
        for s in SIDES:
            m = x["summary"][s]
            cells.append("-" if not m else fmt(m["mean"]) + (
                f" ({m['spread_pct']:.1f} % over {m['n']} runs)" if m["n"] > 1 else " (one run)"))
        rows.append([x["rung"]] + cells)
    if not rows:
        return []
    clocks = {(x["env"] or {}).get("clock") for x in two}
    clock = ("each on its own exact clock; instructions per I/O" if clocks == {"icount"} else
             "clock " + ", ".join(sorted(str(c) for c in clocks)) + ": not instructions where "
             "it is not icount (section Cost ladder says each)")
    return ["**What each side of a stack costs on two nodes** (target and initiator in two "
            f"guests, {clock}; the spread over the runs; section Cost ladder splits each side "
            "by layer):", "",
            table(["stack", "target side", "initiator side"], rows), ""]


def render(run, plots):
    unit = "instructions per I/O" if run.exact else "busy CPU µs per I/O (/proc/stat)"
    L = ["## Summary",
         f"*clock: {run.clock}; {run.meta.get('level_name', run.meta.get('level', '-'))}; "
         f"kernel {run.meta.get('kernel', '-')}*", ""]
    failed = [n["text"].split("): ")[0] + ")" if "): " in n["text"] else n["text"]
              for n in run.notes if n["kind"] == "fail"]
    if failed:
        # a reader of the first screen must know the tables below miss what these guests had left
        L += [f"**An incomplete run**: {'; '.join(failed)}. Each table holds what was measured; "
              "a figure that is not there shows as -, and section Notes names the parts.", ""]
    L += headline.lines(run)
    head, rows = knob_rows(run)
    L += ["**What each knob changes** (IOPS change against the kernel's defaults, rq_affinity=1, "
          "mq-deadline, add_random=1; the knob guest, completions on one CPU):", ""]
    L += [table(head, rows) if rows else "The knob table is not in this run (section The knob "
          "table says why).", ""]
    if rows and not run.parallel:
        L += ["rq_affinity steers completions towards the submitting CPU: what it changes is work on "
              "CPUs running at once, which vCPUs taking turns (TCG) do not do. Its \"no effect\" "
              "holds for this guest, not for hardware (`compare/run --host DEV --clock host`).", ""]
    rows = path_rows(run)
    if rows:
        # on the exact clock IOPS is only 10^9 over the count: the count alone is shown
        cols = ["path", "configuration", unit.split(" (")[0]] + ([] if run.exact else ["IOPS"])
        L += [f"**What the other stacks cost** (the same 4k random read, {unit}):", "",
              table(cols + ["x bio", "over the rung below"],
                    [r[:3] + ([] if run.exact else r[3:4]) + r[4:] for r in rows]), ""]
    L += two_node_lines(run)
    rows = seed_rows(run)
    if rows:
        L += ["**The seed posts' claims**:", "", table(["the post's claim", "measured here",
                                                          "verdict"], rows), ""]
    img = run.once("ladder.png", lambda: ladder.plot(ladder.compute(run), plots))
    if img:
        L += [img, ""]
    return L


def text(run):
    """The summary for the terminal: its markdown without the image."""
    from lib.fmt import Plots
    return [x for x in render(run, Plots(run.root)) if not x.startswith("![")]

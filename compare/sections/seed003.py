# SPDX-License-Identifier: GPL-2.0
"""Seed 003: SCST vs LIO (TCM), the per-command cost of a target core."""

import math
import os

from lib.fmt import fmt, pm
from lib.seed import bars, cell_ratio, markdown, targets_of
from lib.verdict import line, not_decidable, setup_text, spot_check, verdict
from lib.seed import render_section
from lib.stats import cell_agreement
from lib.twonode import load as load_two_node

TITLE = "Seed 003"
ORDER = 70
# the summary's row: the post's claim in a line, what this run's ratio is of
CLAIM = ("SCST ~10 % faster than LIO per command (4k libaio, SRP)",
         "ramlld-sd / lio (SCST is not in Debian)")
# docs/seeds.md's reproduce line: what it selects of the default level (tests/style/006
# compares its --plan with the level's cells)
REPRODUCE = "--only seed-003"
# the post's pair cannot run here: why, and what would decide it
UNAVAILABLE_WHY = ("SCST is not in Debian (no package; out of tree), so SCST against TCM cannot "
                   "run here")
UNAVAILABLE_DECIDES = "compare/run --only seed-003"
UNAVAILABLE_WHERE = "with SCST built for the guest's kernel and a compare/targets file for it"
WORKLOAD = "seed-003"
# the post's band for the claim (lib/verdict.py's rule): low, high, and why
BAND = (24.014 / 22.028, 184 / 167, "its two 4k tests, 1.090x and 1.102x")

# ---------------------------------------------------------------- seed 003
SEED003_POST = [("psync-4k-read", "(1) 4k psync read", 24.014e3, 22.028e3, "iops"),
                ("libaio-4k-qd16x2", "(2) 4k libaio iodepth 16 x 2 threads, loops=10", 184e3,
                 167e3, "iops"),
                ("psync-64m-read", "(3) 64 MiB psync read", 1584, 1262, "mbps"),
                ("psync-64m-write", "(4) 64 MiB psync write", 1409, 992, "mbps")]


# The targets seed 003 can run, as its section names them: LIO's target core without a fabric,
# LIO over the post's own fabric (SRP, on soft-RoCE), and the same sd with no target core.
SEED003_ROLES = {
    "ramlld-sd": "`ramlld-sd`: the same sd and midlayer with no target core behind it",
    "lio": "`lio`: LIO's target core alone (rd_mcp behind tcm_loop, no fabric)",
    "srp": "`srp`: LIO over the post's fabric (iblock on ramlld's mq disk, ib_srpt, ib_srp over "
           "soft-RoCE, rdma_rxe, instead of QDR InfiniBand: the TCM side of the post's setup)",
}


def seed003(root, cells, idx, exact=False):
    w = "seed-003"
    ts = targets_of(cells, w)
    sec = {"id": "003", "workload": w, "title": "SCST vs LIO (TCM): per-command cost of a target core",
           "claim": "ib_srpt over SRP on a RAM disk, SCST over TCM (LIO): 4k psync read 24.0K vs "
                    "22.0K IOPS (+9 %), 4k libaio iodepth 16 x 2: 184K vs 167K (+10 %), 64 MiB "
                    "read 1584 vs 1262 MB/s (+25 %), 64 MiB write 1409 vs 992 MB/s (+42 %) "
                    "(2.6.38-rc4, QDR InfiniBand, Core 2 Duo)",
           "compared": "SCST is not in Debian (out of tree, no package): the post's pair cannot "
                       "run here. What can, in this run: "
                       + ("; ".join(SEED003_ROLES.get(t, f"`{t}`") for t in ts) if ts else
                          "no one-guest cell (`compare/run --only seed-003` runs them), the "
                          "two-node stack below")
                       + ". The post's four fio commands as given (gtod_reduce=1, loops=10, "
                       "thread, group_reporting on (2)): (3) and (4) over the whole device, (1) "
                       "and (2) over its first 8 MiB (TCG: loops=10 over 64 MiB takes minutes).",
           "tables": [], "notes": []}
    prof = "default"
    refs = [t for t in ts if t != "ramlld-sd"]
    rows = []
    bars = []  # per test: its label, the post's SCST / TCM, ramlld-sd / each reference
    for s, label, scst, tcm, metric in SEED003_POST:
        unit = "IOPS" if metric == "iops" else "MB/s"
        row = [label, f"{fmt(scst)} / {fmt(tcm)} {unit}", fmt(scst / tcm, 2)]
        for t in ts:
            c = idx.get((t, prof, w, s))
            row.append(pm(c[metric], c[metric + "_std"]) if c else "-")
        ratios = []
        for t in refs:
            r, sd, _ = cell_ratio(idx, ("ramlld-sd", prof, w, s), (t, prof, w, s), metric)
            row.append(pm(r, sd, 2))
            ratios.append(r)
        rows.append(row)
        if any(r is not None for r in ratios):
            bars.append((f"{label.split()[0]} {s}", scst / tcm, ratios))
    sec["tables"].append(("The post's four tests (IOPS for 4k, MB/s for 64 MiB)",
                          ["test", "the post: SCST / TCM", "SCST / TCM"] + ts
                          + [f"ramlld-sd / {t}" for t in refs], rows))
    if bars:
        # the post's table as bars: SCST over TCM beside ramlld-sd over each target here
        sec["bars"] = {"title": "seed 003: the post's tests, SCST / TCM there, ramlld-sd / X here",
                       "ylabel": "ratio of IOPS or MB/s, each series its own pair",
                       "groups": [b[0] for b in bars],
                       "series": [("the post: SCST / TCM", [b[1] for b in bars])]
                       + [(f"ramlld-sd / {t}", [b[2][i] for b in bars])
                          for i, t in enumerate(refs)],
                       "name": "seed-003-ratios.png"}
    if "srp" in ts and "lio" in ts:
        r2, _, _ = cell_ratio(idx, ("lio", prof, w, "libaio-4k-qd16x2"),
                              ("srp", prof, w, "libaio-4k-qd16x2"))
        c = idx.get(("srp", prof, w, "libaio-4k-qd16x2"))
        if r2 is not None:
            sec["notes"].append(
                f"LIO over SRP (`srp`, the TCM side of the post's setup) on test (2): "
                f"{fmt(c['iops'])} IOPS against the post's TCM 167,000; LIO without a fabric "
                f"(`lio`) over it: {fmt(r2, 2)}x, what SRP on soft-RoCE adds to each command "
                "beyond the target core.")
    r, sd, n = cell_ratio(idx, ("ramlld-sd", prof, w, "libaio-4k-qd16x2"),
                          ("lio", prof, w, "libaio-4k-qd16x2"))
    v = verdict(r, sd, n, 184 / 167, BAND[:2], cell_agreement(
        [idx.get((t, prof, w, "libaio-4k-qd16x2")) for t in ("ramlld-sd", "lio")])
        if exact else None, setup_text(root, "SCST and LIO over SRP on InfiniBand hardware"),
        spot=spot_check(cells))
    not_decidable(v, UNAVAILABLE_WHY, UNAVAILABLE_DECIDES, UNAVAILABLE_WHERE)
    sec["verdict"] = v
    rs, _, _ = cell_ratio(idx, ("ramlld-sd", prof, w, "libaio-4k-qd16x2"),
                          ("srp", prof, w, "libaio-4k-qd16x2"))
    sec["verdict_line"] = line(v, "the nearest measurable question, what LIO's target core "
                               "costs per command: ramlld-sd / lio on test (2)",
                               "SCST / TCM 184K / 167K") + (
        f" Over the post's own fabric (`srp`, LIO over SRP on soft-RoCE): ramlld-sd / srp on "
        f"test (2) {fmt(rs, 3)}x." if rs is not None else "")
    two_node(root, sec)
    return sec


# The two-node stacks that put LIO on the target's side, the post's own fabric first.
TWO_NODE = [("srp", "SRP (ib_srpt over soft-RoCE)"), ("iscsi", "iSCSI (LIO's iscsi_target_mod)")]
# The target side's layers (compare/lib/perf.py) named in the answer: the target core and the
# fabric module beside it.
CORE, FABRICS = "LIO", ("SRP", "iSCSI")


def two_node_lio(root):
    """(target, label, compare/two-node figures) of the first two-node stack of TWO_NODE in the
    run (ROOT/two-node/<target>), None without one."""
    for t, label in TWO_NODE:
        res = load_two_node(os.path.join(root, "two-node", t))
        if res and res["summary"]["target"]:
            return t, label, res
    return None


def two_node(root, sec):
    """Seed 003's question answered on two nodes: what LIO's target side costs per command on
    its own exact clock, how much of it is LIO's target core, and the initiator's cost beside
    it (the post: the initiator was the bottleneck)."""
    got = two_node_lio(root)
    if not got:
        return
    t, label, res = got
    tm, im = res["summary"]["target"], res["summary"]["initiator"]
    e = res["env"]
    fabric_said = ("the post's fabric" if t == "srp" else
                   "not the post's SRP, whose halves are not in this run")
    head = (f"**Two nodes, LIO on the target's own clock** (compare/two-node over {label}, "
            f"{fabric_said}; "
            f"exact clock, icount sleep={e.get('icount_sleep', '?')}, {e.get('cpus', '?')} vCPU a "
            f"side, fio {e.get('rw', '?')} bs={e.get('bs', '?')} iodepth={e.get('iodepth', '?')}, "
            f"{tm['n']} runs): the target side costs **{fmt(tm['mean'])} instructions per SCSI "
            f"command** (runs {fmt(tm['min'])}-{fmt(tm['max'])}, {tm['spread_pct']:.1f} % apart)")
    head += (f", the initiator side {fmt(im['mean'])} per I/O ({im['spread_pct']:.1f} % apart); "
             f"initiator / target {fmt(im['mean'] / tm['mean'], 2)}." if im else ".")
    sec["notes"].append(head)
    p = (res["profile"] or {}).get("target")
    if not p:
        sec["notes"].append("No perf pass on the target's side in this run: its cost is not "
                            "split, so LIO's target core's own share is not known here.")
        sec["two_node"] = {"target": t, "target_ipio": tm["mean"], "core_ipio": None}
        return
    tot = sum(p["layers"].values())
    # the target's own path: less the measuring harness's tasks and fio's controller (a third
    # machine's work on real hosts)
    aside = (p.get("harness_ipio") or 0) + (p.get("fio_ipio") or 0)
    path = tot - aside
    core = p["layers"].get(CORE, 0.0)
    fabric = sum(p["layers"].get(f, 0.0) for f in FABRICS)
    share = core / tot if tot else None
    rest = sorted(((n, v) for n, v in p["layers"].items() if n not in (CORE,) + FABRICS
                   and v >= tot * 0.05), key=lambda nv: -nv[1])
    sec["tables"].append((
        f"LIO's target side per SCSI command on two nodes ({label}, perf pass of "
        f"{p['busy_samples'] or '?'} busy samples scaled to the counted runs' mean)",
        ["layer (compare/lib/perf.py)", "instructions per command", "share of the target side"],
        [[CORE + " (the target core: target_*, transport_*, sbc_*, iblock_*...)", fmt(core),
          f"{100 * share:.1f} %"],
         ["the fabric's target module (" + "/".join(FABRICS) + ")", fmt(fabric),
          f"{100 * fabric / tot:.1f} %"]]
        + [[n, fmt(v), f"{100 * v / tot:.1f} %"] for n, v in rest]
        + [["the target side in all", fmt(tot), "100 %"]]))
    # The most any target core could gain on the target's CPU: all of LIO's core instructions
    # gone (Amdahl), against the post's SCST / TCM; decided on the core's share two standard
    # deviations of its sample count high (a few hundred busy samples: a small layer's count is
    # a Poisson one)
    n = p["busy_samples"]
    k = share * n if n else None
    core_hi = min(path, (k + 2 * math.sqrt(max(k, 1))) / n * tot) if n else core
    ceil = path / (path - core_hi) if path > core_hi else None
    sec["notes"].append(
        f"What this decides: LIO's target core executes {fmt(core)} of the {fmt(tot)} "
        f"instructions the target side spends per command ({100 * share:.1f} %"
        + (f", {k:.0f} of {n} busy samples: at most {fmt(core_hi)} two standard deviations "
           "high" if n else "") + f"); without the measuring harness's tasks and fio's "
        f"controller ({fmt(aside)}), the target's own path costs {fmt(path)}. A target core "
        f"that cost nothing would make that path at most {fmt(ceil, 3)}x cheaper per "
        f"command; the post's SCST / TCM was {fmt(24.014 / 22.028, 3)}x (test 1) and "
        f"{fmt(184 / 167, 3)}x (test 2) in IOPS. "
        + ("So on this stack, counted on this clock, no target core, SCST's included, could "
           "win the post's margin from its own per-command instructions alone, even where the "
           "target's CPU bounds IOPS; " if ceil is not None and ceil < 24.014 / 22.028 else
           "So the target core's own instructions are large enough to hold the post's margin "
           "where the target's CPU bounds IOPS; ")
        + "this clock counts each byte a rep movs or stos moves as an instruction "
          "(docs/clock.md), so copies weigh more than on a real CPU, where the core's share is "
          "larger; "
        + "whether SCST's core is cheaper than LIO's is not measured (SCST is not in Debian), "
        "and IOPS on the exact clock of two guests are not the post's (latency, threads and "
        "the fabric's hardware are not modelled)."
        + (f" The post found its initiator the bottleneck; here the initiator side costs "
           f"{fmt(im['mean'] / tm['mean'], 2)}x the target side per I/O." if im else ""))
    sec["two_node"] = {"target": t, "target_ipio": tot, "core_ipio": core, "core_share": share,
                       "ceiling": ceil}
    sec["verdict_line"] += (
        f" On two nodes ({label}): LIO's target side {fmt(tot)} instructions per command, its "
        f"target core {fmt(core)} of them ({100 * share:.1f} %): a free target core would gain "
        f"at most {fmt(ceil, 3)}x there.")


def compute(run):
    """The section's figures (None when the run has neither seed-003 cells nor a two-node
    stack with LIO on the target's side)."""
    def make():
        if not any(c["workload"] == WORKLOAD for c in run.cells) and not two_node_lio(run.root):
            return None
        sec = seed003(run.root, run.cells, run.idx, run.exact)
        sec["clock"], sec["exact"] = run.clock, run.exact
        return sec
    return run.once(WORKLOAD, make)


def render(run, plots):
    return render_section(compute(run), bars, plots, markdown)

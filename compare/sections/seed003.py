# SPDX-License-Identifier: GPL-2.0
"""Seed 003: SCST vs LIO (TCM), the per-command cost of a target core."""


from lib.fmt import fmt, pm
from lib.seed import UNAVAILABLE, band_of, bars, cell_ratio, markdown, targets_of, verdict
from lib.seed import compute_section, render_section
from lib.stats import cell_agreement

TITLE = "Seed 003"
WORKLOAD = "seed-003"

# ---------------------------------------------------------------- seed 003
SEED003_POST = [("psync-4k-read", "(1) 4k psync read", 24.014e3, 22.028e3, "iops"),
                ("libaio-4k-qd16x2", "(2) 4k libaio iodepth 16 x 2 threads, loops=10", 184e3,
                 167e3, "iops"),
                ("psync-64m-read", "(3) 64 MiB psync read", 1584, 1262, "mbps"),
                ("psync-64m-write", "(4) 64 MiB psync write", 1409, 992, "mbps")]


# The targets seed 003 can run, as its section names them: LIO's target core without a fabric,
# LIO over the post's own fabric (SRP, on soft-RoCE), and the same sd with no target core.
SEED003_ROLES = {
    "ramlld-scsi": "`ramlld-scsi`: the same sd and midlayer with no target core behind it",
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
                       + "; ".join(SEED003_ROLES.get(t, f"`{t}`") for t in ts)
                       + ". The post's four fio commands as given (gtod_reduce=1, loops=10, "
                       "thread, group_reporting on (2)): (3) and (4) over the whole device, (1) "
                       "and (2) over its first 8 MiB (TCG: loops=10 over 64 MiB takes minutes).",
           "tables": [], "notes": []}
    prof = "default"
    refs = [t for t in ts if t != "ramlld-scsi"]
    rows = []
    bars = []  # per test: its label, the post's SCST / TCM, ramlld-scsi / each reference
    for s, label, scst, tcm, metric in SEED003_POST:
        unit = "IOPS" if metric == "iops" else "MB/s"
        row = [label, f"{fmt(scst)} / {fmt(tcm)} {unit}", fmt(scst / tcm, 2)]
        for t in ts:
            c = idx.get((t, prof, w, s))
            row.append(pm(c[metric], c[metric + "_std"]) if c else "-")
        ratios = []
        for t in refs:
            r, sd, _ = cell_ratio(idx, ("ramlld-scsi", prof, w, s), (t, prof, w, s), metric)
            row.append(pm(r, sd, 2))
            ratios.append(r)
        rows.append(row)
        if any(r is not None for r in ratios):
            bars.append((f"{label.split()[0]} {s}", scst / tcm, ratios))
    sec["tables"].append(("The post's four tests (IOPS for 4k, MB/s for 64 MiB)",
                          ["test", "the post: SCST / TCM", "SCST / TCM"] + ts
                          + [f"ramlld-scsi / {t}" for t in refs], rows))
    if bars:
        # the post's table as bars: SCST over TCM beside ramlld-scsi over each target here
        sec["bars"] = {"title": "seed 003: the post's tests, SCST / TCM there, ramlld-scsi / X here",
                       "ylabel": "ratio (the post: SCST / TCM)",
                       "groups": [b[0] for b in bars],
                       "series": [("the post: SCST / TCM", [b[1] for b in bars])]
                       + [(f"ramlld-scsi / {t}", [b[2][i] for b in bars])
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
    r, sd, n = cell_ratio(idx, ("ramlld-scsi", prof, w, "libaio-4k-qd16x2"),
                          ("lio", prof, w, "libaio-4k-qd16x2"))
    v = verdict(r, sd, n, 184 / 167, band_of("003"), cell_agreement(
        [idx.get((t, prof, w, "libaio-4k-qd16x2")) for t in ("ramlld-scsi", "lio")])
        if exact else None)
    measured = v["category"]
    v["category"] = UNAVAILABLE
    sec["verdict"] = v
    rs, _, _ = cell_ratio(idx, ("ramlld-scsi", prof, w, "libaio-4k-qd16x2"),
                          ("srp", prof, w, "libaio-4k-qd16x2"))
    over_srp = (f" Over the post's own fabric (`srp`, LIO over SRP on soft-RoCE): ramlld-scsi / "
                f"srp on test (2) {fmt(rs, 3)}x." if rs is not None else "")
    if r is None:
        sec["verdict_line"] = (f"**Verdict: {UNAVAILABLE}** — SCST is not in Debian, and no LIO "
                               "cell of the nearest comparison ran (see Notes).")
    elif exact:
        a = v["agree"]
        agree = (f"every figure's runs within {a['pct']:.3f} %" if a["ok"] else
                 "not exact: " + (a["what"] or "one run"))
        sec["verdict_line"] = (
            f"**Verdict: {UNAVAILABLE}** (exact clock, icount) — SCST is not in Debian, so SCST "
            "against TCM cannot run here. The nearest measurable question, what LIO's target "
            f"core costs per command: ramlld-scsi / lio on test (2) **{fmt(r, 3)}x** ({agree}; "
            f"by the exact rule against the post's band {fmt(v['band'][0], 3)}-"
            f"{fmt(v['band'][1], 3)}: {measured}), against the post's SCST / TCM "
            f"{fmt(184 / 167, 2)}x." + over_srp)
    else:
        lo, hi = v["lo"], v["hi"]
        sec["verdict_line"] = (
            f"**Verdict: {UNAVAILABLE}** — SCST is not in Debian, so SCST against TCM cannot run "
            "here. The nearest measurable question, what LIO's target core costs per command: "
            f"ramlld-scsi / lio on test (2) **{fmt(r, 2)} ± {fmt(sd, 2)}x** (host clock; 95 % "
            f"interval {fmt(lo, 2)}-{fmt(hi, 2)}, n = {n}), against the post's SCST / TCM "
            f"{fmt(184 / 167, 2)}x." + over_srp)
    return sec


def compute(run):
    """The section's figures (None when the run has no seed-003 cells)."""
    return compute_section(run, WORKLOAD, seed003)


def render(run, plots):
    return render_section(compute(run), bars, plots, markdown)

# SPDX-License-Identifier: GPL-2.0
"""Seed 000: LIO rd_mcp behind tcm_loop, mixed random IOPS over 1-32 LUNs."""

import re

from lib.fmt import fmt, pm
from lib.results import extras_mean
from lib.seed import cell_ratio, markdown, targets_of
from lib.verdict import line as verdict_line, not_decidable, setup_text, spot_check, verdict
from lib.seed import compute_section, render_section
from lib.stats import cell_agreement, ratio

TITLE = "Seed 000"
ORDER = 70
# the summary's row: the post's claim in a line, what this run's ratio is of
CLAIM = ("LIO rd_mcp behind tcm_loop: 1.26x the IOPS at 32 LUNs over 10",
         "LIO, 32 over 10 LUNs")
# docs/seeds.md's reproduce line: what it selects of the default level (tests/style/006
# compares its --plan with the level's cells)
REPRODUCE = "--only " + ",".join(
    f"seed-000/randrw-{m}-{n}lun"
    for m, n in (("25w", 1), ("25w", 4), ("25w", 10), ("25w", 32), ("75w", 10), ("75w", 32)))
WORKLOAD = "seed-000"
# the post's band for the claim (lib/verdict.py's rule): low, high, and why
BAND = (1185 / 944, 1175 / 928, "its two mixes: 1185K / 944K and 1175K / 928K")

SEED000_POST = {("25w", 32): 1185e3, ("75w", 32): 1175e3, ("25w", 10): 944e3, ("75w", 10): 928e3}


def seed000(root, cells, idx, exact=False):
    w = "seed-000"
    sec = {"id": "000", "workload": w,
           "title": "LIO rd_mcp behind tcm_loop: mixed random IOPS over 1-32 LUNs",
           "claim": "32 rd_mcp LUNs behind tcm_loop: ~1185K IOPS (randrw 25 % writes) and ~1175K "
                    "(75 %); 10 LUNs ~944K / ~928K (~93.5K per LUN), so 1.26x from 10 to 32 "
                    "LUNs; CPU ~95 % user, ~5 % sys (3.6-rc0, 2x Xeon E5-2687W = 32 threads, "
                    "500 MB LUNs, numjobs=32, iodepth 64, batch 4/32)",
           "compared": "`lio`: LIO rd_mcp with emulate_write_cache=1, one tcm_loop target (its own "
                       "SCSI host) per LUN, as the post; `ramlld-sd`: ramlld's SCSI LLD, one "
                       "host with N LUNs (host-wide tags). The post's fio job on the first N "
                       "LUNs, one fio job per guest CPU instead of 32, LUNs of 16 MiB instead "
                       "of 500 MB (guest memory); CPU split from /proc/stat over each run "
                       "(% of all CPU time), and fio's own usr/sys per job.",
           "tables": [], "sweep": [], "notes": []}
    rows = []
    for t in targets_of(cells, w):
        for mix in ("25w", "75w"):
            for p in sorted({c["profile"] for c in cells if c["workload"] == w}):
                pts = []
                for c in cells:
                    mo = re.fullmatch(rf"randrw-{mix}-(\d+)lun", c["section"])
                    if c["workload"] != w or c["target"] != t or c["profile"] != p or not mo:
                        continue
                    pts.append((int(mo.group(1)), c))
                pts.sort(key=lambda x: x[0])
                if not pts:
                    continue
                one = pts[0][1]
                line = {"target": t, "mix": mix, "profile": p, "luns": [], "iops": [], "sd": []}
                for n, c in pts:
                    usr, _ = extras_mean(c, "usr_pct")
                    sys_, _ = extras_mean(c, "sys_pct")
                    fu, _ = extras_mean(c, "fio_usr_pct")
                    fs, _ = extras_mean(c, "fio_sys_pct")
                    post = SEED000_POST.get((mix, n)) if t == "lio" else None
                    rows.append([t, p, mix, n, pm(c["iops"], c["iops_std"]),
                                 fmt(c["iops"] / n), pm(*ratio(c["iops"], c["iops_std"],
                                                               one["iops"], one["iops_std"]), 2),
                                 f"{fmt(usr, 1)} / {fmt(sys_, 1)}", f"{fmt(fu, 1)} / {fmt(fs, 1)}",
                                 f"{fmt(post / 1e3)}K ({fmt(post / n / 1e3, 1)}K per LUN)"
                                 if post else "-", c["n"]])
                    line["luns"].append(n)
                    line["iops"].append(c["iops"])
                    line["sd"].append(c["iops_std"] or 0)
                sec["sweep"].append(line)
    sec["tables"].append(("IOPS over the LUN count (x of its own fewest-LUN cell); CPU "
                          "user / sys in % of all CPU time", [
                              "target", "profile", "writes", "LUNs", "IOPS", "IOPS per LUN",
                              f"x {min((x['luns'][0] for x in sec['sweep']), default='-')} LUN",
                              "CPU usr / sys % (/proc/stat)", "fio usr / sys % per job",
                              "the post", "n"], rows))
    # verdict: LIO's scaling 10 -> 32 LUNs (the post's pair), else the fewest -> most measured
    lio = [c for c in cells if c["workload"] == w and c["target"] == "lio"
           and re.fullmatch(r"randrw-25w-\d+lun", c["section"])]
    ns = sorted({int(re.search(r"(\d+)lun", c["section"]).group(1)) for c in lio})
    pair = (10, 32) if {10, 32} <= set(ns) else (ns[0], ns[-1]) if len(ns) >= 2 else None
    claim = 1185 / 944
    setup = setup_text(root, "on a host of 32 hardware threads, LUNs served at once")
    v = verdict(None, None, 0, claim, setup=setup, decides="compare/run --only seed-000")
    what = "LIO's randrw 25 % writes IOPS, 32 over 10 LUNs"
    if pair:
        prof = lio[0]["profile"]
        r, sd, n = cell_ratio(idx, ("lio", prof, w, f"randrw-25w-{pair[1]}lun"),
                              ("lio", prof, w, f"randrw-25w-{pair[0]}lun"))
        v = verdict(r, sd, n, claim, BAND[:2], cell_agreement(
            [idx.get(("lio", prof, w, f"randrw-25w-{x}lun")) for x in pair]) if exact else None,
            setup=setup, spot=spot_check(cells))
        if pair != (10, 32):
            what = (f"LIO's randrw 25 % writes IOPS, {pair[1]} over {pair[0]} LUNs (the post's "
                    "10 and 32 were not both run at this scale)")
        cmax = idx.get(("lio", prof, w, f"randrw-25w-{pair[1]}lun"))
        usr, _ = extras_mean(cmax, "usr_pct")
        sys_, _ = extras_mean(cmax, "sys_pct")
        sec["notes"].append(f"CPU at {pair[1]} LUNs on LIO: {fmt(usr, 1)} % user, {fmt(sys_, 1)} "
                            "% sys of all CPU time (the post: ~95 % user, ~5 % sys).")
    if exact:
        sec["notes"].append(
            "On the exact clock the vCPUs take turns on one host thread, so IOPS are 10^9 over "
            "the whole guest's instructions per I/O: the ratio below is the instructions an I/O "
            "costs at the fewer LUNs over those at the more, not the parallel scaling over 32 hardware threads "
            "the post measured (that question needs the host clock on real cores).")
    sec["verdict"] = v
    sec["verdict_what"] = (what, "1185K / 944K; " + BAND[2])
    sec["verdict_line"] = verdict_line(v, *sec["verdict_what"])
    return sec


def luns_plot(sec, plots):
    """IOPS over the LUN count, a line per target and mix."""
    if not sec.get("sweep") or plots.plt is None:
        return
    from matplotlib.ticker import NullFormatter, ScalarFormatter
    fig, ax = plots.plt.subplots(figsize=(8, 4.5))
    for i, ln in enumerate(sec["sweep"]):
        ax.errorbar(ln["luns"], [y / 1e3 for y in ln["iops"]],
                    yerr=[e / 1e3 for e in ln["sd"]], marker="osD^vP"[i % 6], capsize=2,
                    linestyle="--" if ln["mix"].startswith("75") else "-",
                    label=f"{ln['target']}, randrw {ln['mix'][:-1]} % writes"
                    + ("" if ln["profile"] == "default" else f", profile {ln['profile']}"))
    ax.set_xscale("log")
    ax.set_xticks(sorted({n for ln in sec["sweep"] for n in ln["luns"]}))
    ax.get_xaxis().set_major_formatter(ScalarFormatter())
    ax.get_xaxis().set_minor_formatter(NullFormatter())
    ax.set_xlabel("LUNs")
    ax.set_ylim(bottom=0)
    ax.set_ylabel("kIOPS" + (" (exact clock: 10^6 / instructions per I/O)" if sec.get("exact")
                             else ""))
    ax.set_title("seed 000: 4k randrw over the LUN count")
    ax.legend(fontsize=7)
    sec["plots"].append(plots.save(fig, "seed-000-luns.png"))


def undecided_here(run):
    """The claims this run's clock cannot decide (claim None: the section's own), whether or
    not the run measured them."""
    return [] if run.parallel else [{
        "claim": None,
        "why": "the post's gain from 10 to 32 LUNs is a parallel effect (32 hardware threads "
               "serving LUNs at once); this guest's vCPUs take turns, so nothing can scale "
               "over LUNs here.",
        "command": "compare/run --host DEV,DEV,... --only seed-000 --clock host"}]


def _finish(sec, run):
    for u in undecided_here(run):
        not_decidable(sec["verdict"], u["why"].rstrip("."), u["command"])
        sec["verdict_line"] = verdict_line(sec["verdict"], *sec["verdict_what"])


def compute(run):
    """The section's figures (None when the run has no seed-000 cells)."""
    return compute_section(run, WORKLOAD, seed000, _finish)


def render(run, plots):
    return render_section(compute(run), luns_plot, plots, markdown)

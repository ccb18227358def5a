# SPDX-License-Identifier: GPL-2.0
"""Every cell: the targets, the results per workload, the reference drivers, block vs SCSI per
queue profile, the per-core ledger; the IOPS and QD1 latency plots."""

from lib.fmt import fmt, pm, qline, table
from lib.stats import EXACT_AGREE_PCT, ratio, spread_pct

TITLE = "Results per workload"


def _pv(run):
    def pv(m, sd, nd=None):
        """mean ± sd on the host's time; the figure alone on the exact clock"""
        return pm(m, None if run.exact else sd, nd)
    return pv


def _det(c):
    d = c.get("determinism")
    if not d or d["pct"] is None:
        return "-"
    return f"{d['pct']:.2f}" + ("" if d["ok"] else " ⚠")


def targets(run, plots):
    tm = run.target_meta
    return ["## Targets", "", table(
        ["target", "group", "what", "queue settings (default profile, read back)"],
        [[t, (tm.get(t) or {}).get("group", "-"), (tm.get(t) or {}).get("desc", ""),
          qline(next((c["queue"] for c in run.cells if c["target"] == t and c["profile"] == "default"),
                     next((c["queue"] for c in run.cells if c["target"] == t), None)))]
         for t in run.targets]), ""]


def lat(c, k):
    """A latency figure; 'not measured' where fio measured none (gtod_reduce=1)."""
    if c.get("lat_mean_us") is None and c["workload"] != "seed-001":
        return "not measured"
    return fmt(c.get(k))


def workloads(run, plots):
    pv = _pv(run)
    ex = run.exact
    L = ["## Results per workload", ""]
    if run.published:
        n = len({c["workload"] for c in run.cells})
        return L + [f"Every cell's figures ({len(run.cells)} cells over {n} workloads: "
                    + ("instructions per I/O, " if ex else "busy CPU per I/O, ")
                    + "IOPS, MB/s, mean and p99 latency, each with its runs' spread) are rows of "
                    "[results.csv](results.csv) and [results.json](results.json) beside this "
                    "page; the run's own report.md has them as a table per workload.", ""]
    for w in sorted({c["workload"] for c in run.cells}):
        L += [f"### {w}", ""]
        rows = []
        for c in run.cells:
            if c["workload"] != w:
                continue
            rows.append([c["section"], c["profile"], c["target"], pv(c["iops"], c["iops_std"]),
                         pv(c["mbps"], c["mbps_std"]), pv(c["ratio_to_bio"], c["ratio_to_bio_std"], 2),
                         lat(c, "lat_mean_us"), lat(c, "lat_p50_us"), lat(c, "lat_p99_us")]
                        + ([fmt(c.get("instr_per_io")), _det(c)] if ex else
                           [pv(c["cpu_us_per_io_fio"], c["cpu_us_per_io_fio_std"]),
                            pv(c["cpu_us_per_io_stat"], c["cpu_us_per_io_stat_std"])])
                        + [c["n"]])
        L += [table(["section", "profile", "target", "IOPS", "MB/s", "x bio", "lat mean µs",
                     "p50", "p99"]
                    + (["instr/IO (10^9/IOPS)", "runs apart %"] if ex else
                       ["CPU µs/IO (fio)", "CPU µs/IO (/proc/stat)"]) + ["n"], rows), ""]
    return L


def references(run, plots):
    pv = _pv(run)
    L = ["## Reference drivers (4k, iodepth 32, one job per CPU; QD1 latency)", ""]
    rows = []
    for p in run.profiles:
        for t in run.targets:
            rr = run.cell(t, p, "qd32", "randread-4k-qd32")
            rw = run.cell(t, p, "qd32", "randwrite-4k-qd32")
            l1 = run.cell(t, p, "lat-qd1", "randread-4k-qd1")
            if not (rr or rw or l1):
                continue
            cost = ((lambda c: fmt(c["instr_per_io"]) if c else "-") if run.exact else
                    (lambda c: fmt(c["cpu_us_per_io_stat"]) if c else "-"))
            rows.append([t, p, pv(rr["iops"], rr["iops_std"]) if rr else "-",
                         pv(rr["ratio_to_bio"], rr["ratio_to_bio_std"], 2) if rr else "-",
                         pv(rw["iops"], rw["iops_std"]) if rw else "-",
                         pv(rw["ratio_to_bio"], rw["ratio_to_bio_std"], 2) if rw else "-",
                         cost(rr), cost(rw), cost(l1),
                         fmt(l1["lat_mean_us"]) if l1 else "-",
                         qline(rr["queue"] if rr else (rw or l1)["queue"])])
    unit = "instr/IO" if run.exact else "CPU µs/IO"
    L += [table(["target", "profile", "randread IOPS", "x bio", "randwrite IOPS", "x bio",
                 f"randread {unit}", f"randwrite {unit}", f"QD1 {unit}", "QD1 lat mean µs",
                 "queue (read back)"], rows), ""]
    img = run.once("latency-qd1.png", lambda: latency_plot(run, plots))
    return L + ([img, ""] if img else [])


def block_vs_scsi(run, plots):
    pv = _pv(run)
    key = "instr_per_io" if run.exact else "cpu_us_per_io_stat"
    unit = "instr/IO" if run.exact else "CPU µs/IO"
    L = ["## Block vs SCSI, per queue profile (same store)", "",
         "The workloads run on sd and on bio or mq; those run on sd alone are in Results per "
         "workload.", ""]
    for p in run.profiles:
        rows = []
        for c in run.cells:
            if c["profile"] != p or c["target"] != "ramlld-sd":
                continue
            k = (c["workload"], c["section"])
            b = run.idx.get(("ramlld-bio", p) + k)
            m = run.idx.get(("ramlld-mq", p) + k)
            if not b and not m:
                continue  # nothing to compare: the row is in Results per workload
            rb = ratio(b["iops"], b["iops_std"], c["iops"], c["iops_std"]) if b else (None, None)
            rm = ratio(m["iops"], m["iops_std"], c["iops"], c["iops_std"]) if m else (None, None)
            rows.append(["/".join(k), pv(b["iops"], b["iops_std"]) if b else "-",
                         pv(m["iops"], m["iops_std"]) if m else "-", pv(c["iops"], c["iops_std"]),
                         pv(*rb, 2), pv(*rm, 2), fmt(b[key]) if b else "-",
                         fmt(m[key]) if m else "-", fmt(c[key])])
        if rows:
            L += [f"### profile {p}", "",
                  table(["workload", "bio IOPS", "mq IOPS", "scsi IOPS", "bio/scsi", "mq/scsi",
                         f"bio {unit}", f"mq {unit}", f"scsi {unit}"], rows), ""]
    if not any(c["target"] == "ramlld-sd" for c in run.cells):
        L += ["No ramlld-sd cells in this run (see Notes).", ""]
    img = run.once("iops.png", lambda: iops_plot(run, plots))
    return L + ([img, ""] if img else [])


def percore(run, plots):
    cells = [c for c in run.cells if c["workload"] == "percore"]
    if not cells:
        return []
    pv = _pv(run)
    rows = [[c["section"], c["target"], c["profile"], pv(c["iops"], c["iops_std"]),
             fmt(c.get("instr_per_io")) if run.exact else pv(c["cpu_us_per_io_stat"],
                                                              c["cpu_us_per_io_stat_std"]),
             c["n"]] for c in cells]
    return ["## Per-core ledger (workload percore)", "",
            f"{run.meta.get('cpus', '-')} vCPU(s); one job (run with --cpus 1 for one core's "
            "cost)", "",
            table(["section", "target", "profile", "IOPS",
                   "instructions/IO" if run.exact else "CPU µs/IO (/proc/stat)", "n"], rows), ""]


def latency_plot(run, plots):
    """Mean 4k randread QD1 latency per target, log axis."""
    lat = [(t, run.cell(t, "default", "lat-qd1", "randread-4k-qd1")) for t in run.targets]
    lat = [(t, c) for t, c in lat if c and c["lat_mean_us"]]
    if not lat or plots.plt is None:
        return None
    fig, ax = plots.plt.subplots(figsize=(8, max(3.5, 0.4 * len(lat) + 1.5)))
    ys = range(len(lat))
    # a cell whose runs disagree beyond the exact clock's bound is drawn apart and labelled
    spread = {t: spread_pct([r['iops'] for r in c['runs']]) for t, c in lat}
    bad = {t for t, s in spread.items() if run.exact and s is not None and s > EXACT_AGREE_PCT}
    ax.barh(list(ys), [c["lat_mean_us"] for _, c in lat],
            color=["tab:red" if t in bad else "tab:blue" for t, _ in lat],
            hatch=None, label="mean latency (fio lat: submission + completion)")
    if bad:
        ax.barh([y for y, (t, _) in zip(ys, lat) if t in bad],
                [c["lat_mean_us"] for t, c in lat if t in bad], color="tab:red", hatch="//",
                label=f"⚠ runs more than {EXACT_AGREE_PCT} % apart: not an exact figure")
    ax.set_yticks(list(ys))
    ax.set_yticklabels([t for t, _ in lat], fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    lo, hi = min(c["lat_mean_us"] for _, c in lat), max(c["lat_mean_us"] for _, c in lat)
    ax.set_xlim(lo / 2, hi * 3)
    for y, (t, c) in zip(ys, lat):
        ax.text(c["lat_mean_us"], y, f" {fmt(c['lat_mean_us'])}" + (
            f" ⚠ runs {spread[t]:.0f} % apart" if t in bad else ""), va="center", fontsize=7)
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    ax.xaxis.set_major_locator(LogLocator(subs=(1, 2, 5)))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("µs" + (" of guest time (exact clock: thousands of instructions)"
                          if run.exact else " (host time)") + ", log scale", fontsize=8)
    ax.set_title("4k randread at queue depth 1 (libaio, kernel defaults)", fontsize=9)
    ax.legend(fontsize=7)
    return plots.save(fig, "latency-qd1.png")


def iops_plot(run, plots):
    """4k randread and randwrite QD32 per target, a bar per queue profile, in words."""
    if plots.plt is None:
        return None
    words = {"default": "the kernel's defaults",
             "seed-001": "seed 001's tuning: none, rq_affinity=2, add_random=0",
             "mq-deadline": "mq-deadline", "one-core-peak": "one core's peak settings"}
    secs = [s for s in ("randread-4k-qd32", "randwrite-4k-qd32")
            if any(run.cell(t, p, "qd32", s) for t in run.targets for p in run.profiles)]
    if not secs:
        return None
    ts = [t for t in run.targets if any(run.cell(t, p, "qd32", s) for p in run.profiles
                                        for s in secs)]
    fig, axs = plots.plt.subplots(1, len(secs), figsize=(5 * len(secs) + 3, max(3, 0.3 * len(ts) + 1.5)),
                                  squeeze=False, sharey=True)
    for ax, s in zip(axs[0], secs):
        ps = [p for p in run.profiles if any(run.cell(t, p, "qd32", s) for t in ts)]
        h = 0.8 / max(1, len(ps))
        for i, p in enumerate(ps):
            vals = [(j, run.cell(t, p, "qd32", s)) for j, t in enumerate(ts)]
            vals = [(j, c) for j, c in vals if c]
            # the exact clock measures instructions per I/O: that is what is drawn
            ax.barh([j + i * h for j, _ in vals],
                    [c["instr_per_io"] if run.exact else c["iops"] / 1e3 for _, c in vals], h,
                    label=words.get(p, p))
        for j, t in enumerate(ts):  # an empty row is a cell not run, not a zero
            if not any(run.cell(t, p, "qd32", s) for p in ps):
                ax.text(0, j + h * (len(ps) - 1) / 2, " not run", va="center", fontsize=7,
                        color="gray")
        ax.set_yticks([j + h * (len(ps) - 1) / 2 for j in range(len(ts))])
        ax.set_yticklabels(ts, fontsize=8)
        ax.set_xlabel("instructions per I/O (exact clock; fewer is cheaper)" if run.exact
                      else "kIOPS (host time)", fontsize=8)
        ax.set_title(s.replace("-", " "), fontsize=9)
    axs[0][-1].legend(fontsize=7, bbox_to_anchor=(1.02, 1), loc="upper left")
    axs[0][0].invert_yaxis()  # shared: once for both
    return plots.save(fig, "iops.png")


SECTIONS = [(100, "targets", targets), (110, "references", references),
            (120, "block-vs-scsi", block_vs_scsi), (130, "workloads", workloads),
            (140, "percore", percore)]

# SPDX-License-Identifier: GPL-2.0
"""Seed 002: read-ahead x max_sectors_kb, blockdev-perftest's block-size sweep."""

import os
import statistics

from lib.fmt import fmt, pm
from lib.seed import markdown, targets_of
from lib.verdict import line as verdict_line, not_decidable, setup_text, spot_check, verdict
from lib.seed import render_section
from lib.seed002 import GRID_RX, WORKLOAD, bs_label, kib, seed002_perf, two_node_grid
from lib.stats import EXACT_AGREE_PCT, agreement, mean_sd, ratio
from lib.twonode import load as load_two_node

TITLE = "Seed 002"
ORDER = 70
# the summary's row: the post's claim in a line, what this run's ratio is of
CLAIM = ("max_sectors_kb 64 reads ~30 % faster than 512 (buffered, over iSCSI)",
         "ramlld-sd, 64 over 512, read-ahead 2M")
# docs/seeds.md's reproduce line: what it selects of the default level (tests/style/006
# compares its --plan with the level's cells)
REPRODUCE = "--only seed-002 --targets ramlld-sd"
# the post's band for the claim (lib/verdict.py's rule): low, high, and why
BAND = (1.25, 1.35, "\"~30 %\" to the 10 %; its 1.29x and 1.32x inside")


def read_time(run):
    """A buffered run's MB/s and IOPS over its time inside read() (fio's lat_ns mean x N: the
    sum of every read's latency, in ns), and that time: fio's own MB/s divides by its runtime in
    whole ms, a 0.5 % step at a 64 MiB device's 195 ms, as large as the exact clock's check.
    None when the JSON lacks it."""
    try:
        rd = run["data"]["jobs"][0]["read"]
        ns = rd["lat_ns"]["mean"] * rd["lat_ns"]["N"]
    except (KeyError, IndexError, TypeError):
        return None
    if not ns or not rd.get("io_bytes"):
        return None
    return {"mbps": rd["io_bytes"] * 1e3 / ns, "iops": rd["total_ios"] * 1e9 / ns,
            "read_ns": ns, "read_bytes": rd["io_bytes"]}


def read_time_cell(c):
    """Cell c with its runs' and its own MB/s and IOPS from read_time() (the exact clock's
    seed-002 figures); runs without the figures keep fio's."""
    runs = []
    for r in c["runs"]:
        t = read_time(r)
        runs.append(dict(r, **t) if t else dict(r))
    out = dict(c, runs=runs)
    for m in ("mbps", "iops"):
        out[m], out[m + "_std"] = mean_sd([r.get(m) for r in runs])
    return out


def seed002(root, cells, idx, exact=False):
    w = "seed-002"
    sec = {"id": "002", "workload": w,
           "title": "read-ahead x max_sectors_kb, blockdev-perftest's block-size sweep",
           "claim": "blockdev-perftest -a (buffered sequential reads, 64 MiB down to 16 KiB, 3 "
                    "runs each), averaged over all sizes: max_sectors_kb 64 ~30 % better than "
                    "512 (read-ahead 512K: 122.96 -> 158.73 MB/s, 1.29x; 2M: 120.71 -> 159.24 "
                    "MB/s, 1.32x); read-ahead 2M over 128K +5 % (2.6.29, a RAID behind SCST "
                    "iSCSI)",
           "compared": "The same sweep (fio, psync, buffered, the page cache dropped before "
                       "each run, each run the whole {dev} device) on ramlld's three paths "
                       "over one store, under each cell of the grid read-ahead 128K/512K/2M x "
                       "max_sectors_kb 512/64 (profiles seed-002-ra*-ms*, one knob between "
                       "neighbours); SCST over iSCSI is not in Debian and a RAM store has no "
                       "disk to overlap, so this measures what the knobs cost the stack itself.",
           "tables": [], "notes": [], "sweep": []}
    sw = [c for c in cells if c["workload"] == w and GRID_RX.match(c["profile"])]
    dflt = [c for c in cells if c["workload"] == w and c["profile"] == "default"]
    if exact:
        sw = [read_time_cell(c) for c in sw]
        dflt = [read_time_cell(c) for c in dflt]
        idx = dict(idx)
        idx.update({(c["target"], c["profile"], w, c["section"]): c for c in sw + dflt})
        sec["notes"].append(
            "MB/s and IOPS on the exact clock are over each run's time inside read() (the sum "
            "of fio's per-read latencies, in guest ns), not over fio's runtime in whole ms: at "
            "a 64 MiB device's ~195 ms a run that step is 0.5 %, as large as the exact clock's "
            "check. The repeats are a determinism check of that clock, not a sample (the post's "
            "3 runs a size measured a disk's spread).")
    paths = targets_of(sw, w)
    # the device's size: what one run (one pass, size=100%) read
    dev = "64 MiB"
    for c in sw[:1]:
        try:
            dev = f"{c['runs'][0]['data']['jobs'][0]['read']['io_kbytes'] // 1024} MiB"
        except (KeyError, IndexError, TypeError):
            pass
    sec["compared"] = sec["compared"].format(dev=dev)
    if "iscsi" in paths:
        sec["compared"] += (" `iscsi` runs the same sweep over the post's transport: ramlld's "
                            "mq disk behind LIO iblock, exported over iSCSI on 127.0.0.1 to "
                            "open-iscsi, the knobs set on the initiator's sd disk (the cost "
                            "ladder's rung; SCST's target is not in Debian, LIO's is).")

    def pkey(p):
        mo = GRID_RX.match(p)
        return (-int(mo.group(2)), kib(mo.group(1)))
    profs = sorted({c["profile"] for c in sw}, key=pkey)
    short = {p: "RA {} / {}".format(*(lambda m: (m.group(1).upper(), m.group(2)))(GRID_RX.match(p)))
             for p in profs}
    sizes = sorted({kib(c["section"][3:]) for c in sw}, reverse=True)
    for t in paths:
        # the path's own sizes and profiles: a narrowed run may give it fewer
        tsizes = [k for k in sizes if any(
            c["target"] == t and c["section"] == f"bs-{bs_label(k).lower()}" for c in sw)]
        tprofs = [p for p in profs if any(c["target"] == t and c["profile"] == p for c in sw)]
        rows = []
        for k in tsizes:
            row = [k * 1024]
            for p in tprofs:
                c = idx.get((t, p, w, f"bs-{bs_label(k).lower()}"))
                row.append(f"{pm(c['mbps'], c['mbps_std'])} / {fmt(c['iops'])}" if c else "-")
            rows.append(row)
        sec["tables"].append((f"{t}: MB/s (avg ± std of the runs) / IOPS per block size, as "
                              "blockdev-perftest prints them", ["blocksize (bytes)"]
                             + [short[p] for p in tprofs], rows))
        for p in profs:
            pts = [(k, idx.get((t, p, w, f"bs-{bs_label(k).lower()}"))) for k in sizes]
            pts = [(k, c) for k, c in pts if c]
            if pts:
                sec["sweep"].append({"target": t, "profile": p, "label": short[p],
                                     "kib": [k for k, _ in pts], "mbps": [c["mbps"] for _, c in pts],
                                     "sd": [c["mbps_std"] or 0 for _, c in pts]})

    def path_sizes(t):
        """The sizes path t ran under every one of its grid profiles (a narrowed run may give
        a path fewer sizes than another: its averages are over its own)."""
        got = [{c["section"] for c in sw if c["target"] == t and c["profile"] == p} for p in profs]
        return set.intersection(*[g for g in got if g]) if any(got) else set()

    def avg_runs(t, p):
        """MB/s over the path's sizes of each run (rep): the post's blindless average, one a
        run."""
        per_rep, want = {}, path_sizes(t)
        for c in sw:
            if c["target"] == t and c["profile"] == p and c["section"] in want:
                for r in c["runs"]:
                    if r.get("mbps") is not None:
                        per_rep.setdefault(r["rep"], []).append(r["mbps"])
        return [statistics.mean(v) for v in per_rep.values() if len(v) == len(want)]

    def avg(t, p):
        """avg_runs()' mean ± sd over the runs, n."""
        full = avg_runs(t, p)
        m, s = mean_sd(full)
        return m, s, len(full)

    def avg_agreement(t, a, b):
        """The exact clock's check of the figures the ratio is made of, both averages' runs
        (the post's claim is on the average over all sizes); the worst single size's spread is
        kept beside it (sizes_pct, sizes_what) and said, not judged: a 64 MiB run of ~195 ms
        moves by up to ~0.6 % from run to run (a timer's or a kworker's work falling inside
        a read or not), 13 sizes averaged by a quarter of that."""
        if not exact:
            return None
        cs = [c for c in sw if c["target"] == t and c["profile"] in (a, b)]
        ag = agreement([(f"{t} {p} average", avg_runs(t, p)) for p in (a, b)])
        per_cell = agreement([(f"{t} {short[c['profile']]} {c['section']}",
                               [r.get("mbps") for r in c["runs"]]) for c in cs])
        return dict(ag, sizes_pct=per_cell["pct"], sizes_what=per_cell["what"])

    rows = []
    ratios = {}
    for t in paths:
        for p in profs:
            m, s, n = avg(t, p)
            if n:
                rows.append([t, short[p], pm(m, s), n, len(path_sizes(t))])
        for ra in ("128K", "512K", "2M"):
            a = f"seed-002-ra{ra.lower()}-ms64k"
            b = f"seed-002-ra{ra.lower()}-ms512k"
            if a in profs and b in profs:
                ma, sa, na = avg(t, a)
                mb, sb, nb = avg(t, b)
                r, sd = ratio(ma, sa, mb, sb)
                ratios[(t, ra)] = (r, sd, min(na, nb), avg_agreement(t, a, b))
    sec["tables"].append(("The blindless average (MB/s over the path's block sizes, mean ± sd "
                          "over the runs)", ["target", "read-ahead / max_sectors_kb", "MB/s",
                                             "runs", "sizes"], rows))
    spot = spot_check(cells)
    rrows = [[t, ra, fmt(r, 3) if exact else pm(r, sd, 2),
              verdict(r, sd, n, 1.30, BAND[:2], ag, spot=spot)["category"]]
             for (t, ra), (r, sd, n, ag) in ratios.items()]
    sec["tables"].append(("max_sectors_kb 64 over 512, per read-ahead (the post: 1.29x at 512K, "
                          "1.32x at 2M)", ["target", "read-ahead", "ms64 / ms512", "verdict"],
                          rrows))
    setup = setup_text(root, "over iSCSI between two machines, reading a disk")
    key = ("ramlld-sd", "2M") if ("ramlld-sd", "2M") in ratios else next(iter(ratios), None)
    if key:
        r, sd, n, ag = ratios[key]
        v = verdict(r, sd, n, 1.30, BAND[:2], ag, setup, spot=spot)
        what = f"{key[0]}, max_sectors_kb 64 over 512 at read-ahead {key[1]}, all sizes averaged"
        if ag and ag.get("sizes_pct") is not None:
            what += f"; single sizes' runs up to {ag['sizes_pct']:.2f} % apart"
        worst = dict.fromkeys(w for x in ratios.values() if x[3] and x[3].get("sizes_what")
                              for w in x[3]["sizes_what"].split("; "))
        if worst:
            sec["notes"].append(
                "Single sizes whose two runs differ by more than the exact clock's "
                f"{EXACT_AGREE_PCT} % (said, not judged: the verdict is on the averages over all "
                "sizes, as the post's claim): " + "; ".join(worst) + ".")
        rest = [(k, x[0]) for k, x in ratios.items() if k != key and x[0] is not None]
        if rest:
            lo, hi = min(rest, key=lambda kx: kx[1]), max(rest, key=lambda kx: kx[1])
            what += (f"; every other path and read-ahead: {fmt(lo[1], 3)}x ({lo[0][0]} at "
                     f"{lo[0][1]}) to {fmt(hi[1], 3)}x ({hi[0][0]} at {hi[0][1]})")
    else:
        v = verdict(None, None, 0, 1.30, setup=setup, decides="compare/run --only seed-002")
        what = "max_sectors_kb 64 over 512"
    sec["verdict"] = v
    sec["verdict_what"] = (what, "~30 %: 159.24 / 120.71 MB/s; " + BAND[2])
    sec["verdict_line"] = verdict_line(v, *sec["verdict_what"])
    sec["breakdown"] = seed002_breakdown(root, idx, paths, profs, sizes, sec, exact)
    sec["perf"] = seed002_perf(root, paths, sec)
    seed002_steps(idx, paths, sizes, sec)
    two_node_grid(root, sec)
    return sec


def seed002_breakdown(root, idx, paths, profs, sizes, sec, exact=False):
    """Why a path moves the other way under max_sectors_kb 64: the requests each MiB becomes
    (the first device's /sys/block stat deltas), what each MiB costs (on the exact clock the
    guest µs inside read(), an instruction count while the one vCPU is busy; else /proc/stat's
    busy ticks), and so what each extra request costs on each path."""
    ra = next((r for r in ("2m", "512k", "128k") if f"seed-002-ra{r}-ms64k" in profs
               and f"seed-002-ra{r}-ms512k" in profs), None)
    if not ra:
        return None
    bss = [k for k in (1024, 256) if k in sizes] or sizes[:1]
    rows, per_req = [], {}
    for t in paths:
        for k in bss:
            got = {}
            for ms in (512, 64):
                c = idx.get((t, f"seed-002-ra{ra}-ms{ms}k", "seed-002", f"bs-{bs_label(k).lower()}"))
                if not c:
                    continue
                req, cpu, size = [], [], []
                for r in c["runs"]:
                    x = r["extras"]
                    dk = x.get("disk")
                    cost = (r["read_ns"] / 1e3 if exact and r.get("read_ns")
                            else x.get("busy_us"))
                    if not dk or not dk["read_sectors"] or cost is None:
                        continue
                    mib = (r["read_bytes"] if exact and r.get("read_bytes")
                           else dk["read_sectors"] * 512) / 2 ** 20
                    req.append(dk["reads"] * 2 ** 20 / (dk["read_sectors"] * 512))
                    cpu.append(cost / mib)
                    size.append(dk["read_sectors"] / 2 / dk["reads"] if dk["reads"] else 0)
                if req:
                    got[ms] = (mean_sd(req), mean_sd(cpu), mean_sd(size), c)
            for ms, ((rq, rqs), (cp, cps), (sz, _), c) in sorted(got.items(), reverse=True):
                rows.append([t, bs_label(k), ms, pm(c["mbps"], c["mbps_std"]), pm(rq, rqs, 1),
                             fmt(sz, 0), pm(cp, cps)])
            if 512 in got and 64 in got and got[64][0][0] > got[512][0][0]:
                d_req = got[64][0][0] - got[512][0][0]
                d_cpu = got[64][1][0] - got[512][1][0]
                per_req.setdefault(t, []).append(d_cpu / d_req)
    cost_head = ("guest µs in read() / MiB" if exact else "CPU µs / MiB")
    sec["tables"].append((f"Breakdown at read-ahead {ra.upper()}: requests per MiB read and "
                          "their size (the device's /sys/block stat), "
                          + ("guest time in read() per MiB (exact clock, 1 vCPU, busy "
                             "throughout: instructions / 1,000)" if exact else
                             "busy CPU per MiB (/proc/stat, all CPUs)"),
                          ["target", "block size", "max_sectors_kb", "MB/s", "requests / MiB",
                           "KiB / request", cost_head], rows))
    if per_req:
        parts = [f"{t} {fmt(statistics.mean(v), 1)} µs" for t, v in per_req.items()]
        sec["notes"].append(
            "Each request max_sectors_kb 64 adds costs, in "
            + ("guest time (exact clock: instructions / 1,000)" if exact else "busy CPU")
            + " per extra request ((cost per MiB at 64 − at 512) / (requests per MiB at 64 − "
            "at 512), the block sizes above): " + ", ".join(parts) + ". A path whose requests "
            "cost more (sd: a SCSI command built, queued and completed each) loses more when "
            "each read-ahead window is cut into 64 KiB requests; the post's gain came from the "
            "iSCSI target, which overlapped its disk reads with the network on smaller "
            "commands, and a RAM store has nothing to overlap.")
    return {"read_ahead": ra, "per_request_us": {t: statistics.mean(v) for t, v in per_req.items()}}


def seed002_steps(idx, paths, sizes, sec):
    """From each path's own defaults to seed 002's tuning (read-ahead 2M, max_sectors_kb 64) one
    knob at a time, at the sizes where an earlier run saw sd move the other way (1M, 256K): the
    defaults' max_sectors_kb down to 512, read-ahead 128K up to 2M, max_sectors_kb 512 down to 64
    (the queue read-back names each path's defaults)."""
    steps = ["default", "seed-002-ra128k-ms512k", "seed-002-ra2m-ms512k", "seed-002-ra2m-ms64k"]
    rows = []
    for t in paths:
        for k in [k for k in (1024, 256) if k in sizes]:
            cs = [idx.get((t, p, "seed-002", f"bs-{bs_label(k).lower()}")) for p in steps]
            if not all(cs):
                continue
            q = cs[0].get("queue") or {}
            dname = f"default (RA {q.get('read_ahead_kb', '?')}K / {q.get('max_sectors_kb', '?')})"
            rows.append([t, bs_label(k), dname, fmt(cs[0]["mbps"])]
                        + [fmt(c["mbps"] / p["mbps"], 3) for p, c in zip(cs, cs[1:])]
                        + [fmt(cs[3]["mbps"]), fmt(cs[3]["mbps"] / cs[0]["mbps"], 3)])
    if rows:
        sec["tables"].append((
            "From each path's defaults to seed 002's tuning, one knob at a time (MB/s and the "
            "ratio each step makes)",
            ["target", "block size", "defaults", "MB/s", "max_sectors_kb → 512",
             "RA 128K → 2M", "max_sectors_kb 512 → 64", "MB/s at RA 2M / 64",
             "seed-002 / default"], rows))


def grid_plot(sec, plots):
    """MB/s over the block size, a panel per path, a line per read-ahead and max_sectors_kb."""
    if not sec.get("sweep") or plots.plt is None:
        return
    paths = list(dict.fromkeys(ln["target"] for ln in sec["sweep"]))
    fig, axs = plots.plt.subplots(1, len(paths), figsize=(6 * len(paths), 5), squeeze=False,
                                  sharey=True)
    for ax, t in zip(axs[0], paths):
        lines = [ln for ln in sec["sweep"] if ln["target"] == t]
        for i, ln in enumerate(lines):
            # a marker and colour each, dashed for max_sectors_kb 64: six lines told apart
            ax.errorbar(ln["kib"], ln["mbps"], yerr=ln["sd"], marker="osD^vP"[i % 6],
                        markersize=5, capsize=2, label=ln["label"],
                        linestyle="--" if ln["label"].endswith("/ 64") else "-")
        ax.set_ylim(bottom=0)  # from zero: a 2 % gap looks like one
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_formatter(plots.plt.FuncFormatter(lambda x, _: f"{x:g}"))
        ax.set_xlabel("block size (KiB)")
        ax.set_title(t)
        ax.legend(fontsize=7, title="read-ahead / max_sectors_kb", title_fontsize=7,
                  loc="lower right")
    axs[0][0].set_ylabel("MB/s")
    fig.suptitle("seed 002: buffered sequential read over the block size")
    sec["plots"].append(plots.save(fig, "seed-002-grid.png"))


def undecided_here(run):
    """The claims this run's clock cannot decide (claim None: the section's own), whether or
    not the run measured them: a target and an initiator on two machines, whatever this
    guest's CPUs."""
    return [{
        "claim": None,
        "why": "the post's max_sectors_kb 64 gain came from pipelining between an iSCSI target "
               "and its initiator on two machines (the target reading its disk while the "
               "network carried the previous command); one guest, one RAM store and vCPUs "
               "taking turns overlap nothing.",
        "command": "compare/run --host DEV --only seed-002 --clock host",
        "where": "DEV an iSCSI disk exported from a second machine"}]


def _finish(sec, run):
    for u in undecided_here(run):
        why = u["why"]
        if sec.get("two_node"):
            why += (" Two guests (below) do overlap in the host's time, but with icount sleep=on "
                    "a side's idle time passes at the host's speed, so neither exact clock "
                    "measures the pair's MB/s.")
        not_decidable(sec["verdict"], why.rstrip("."), u["command"], u["where"])
        sec["verdict_line"] = verdict_line(sec["verdict"], *sec["verdict_what"])
    tn = sec.get("two_node")
    if tn and tn["ratios"]:
        z, ra, r = tn["ratios"][-1]
        sec["verdict_line"] += (
            f" On two nodes: max_sectors_kb 64 over 512 costs the target {fmt(r['target'][0], 3)}x "
            f"and the initiator {fmt(r['initiator'][0], 3)}x the instructions per MiB ({ra}, {z}; "
            f"{tn['decided']} of {2 * len(tn['ratios'])} ratios beyond the runs' spread).")


def compute(run):
    """The section's figures (None when the run has neither seed-002 cells nor the grid over two
    nodes)."""
    def make():
        if not any(c["workload"] == WORKLOAD for c in run.cells) and \
                not load_two_node(os.path.join(run.root, "two-node", "seed-002")):
            return None
        sec = seed002(run.root, run.cells, run.idx, run.exact)
        sec["clock"], sec["exact"] = run.clock, run.exact
        _finish(sec, run)
        return sec
    return run.once(WORKLOAD, make)


def render(run, plots):
    return render_section(compute(run), grid_plot, plots, markdown)

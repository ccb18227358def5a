# SPDX-License-Identifier: GPL-2.0
"""Seed 001: scsi_debug fake_rw vs a SCSI LLD vs a block LLD, 20 dd per CPU."""

from lib import percpu
from lib.fmt import fmt, pm
from lib.seed import bars, markdown, targets_of
from lib.verdict import figure, line, setup_text, spot_check, verdict
from lib.seed import compute_section, render_section
from lib.stats import agreement, mean_sd, ratio

TITLE = "Seed 001"
ORDER = 70
# the summary's row: the post's claim in a line, what this run's ratio is of
CLAIM = ("a block LLD does ~2x the IOPS of a SCSI LLD (380K vs 190K, 20 dd per CPU)",
         "ramlld-bio / ramlld-sd, the dd run")
# docs/seeds.md's reproduce line: what it selects of the default level (tests/style/006
# compares its --plan with the level's cells)
REPRODUCE = "--only seed-001"
WORKLOAD = "seed-001"
# the post's band for the claim (lib/verdict.py's rule): low, high, and why
BAND = (1.5, 2.5, "\"a factor of 2x\", read to the digit it gave (2x against its 3x)")
# and for the notes' side ratios: scsi_debug fake_rw=1 over the SCSI LLD, over fake_rw=0
FAKERW_BANDS = {"lld": (215.5 / 190.5, 216.5 / 189.5, "~216K / ~190K, each to 1K"),
                "rw": (799.5 / 651.5, 800.5 / 650.5, "about 800K / 651K, each to 1K")}

# ---------------------------------------------------------------- seed 001
def dd_window(cell):
    """IOPS of a dd cell, mean ± sd, n: each run's ios over its elapsed time less its start-up
    run (tools/percpu-load --startup-run: exact on the exact clock), or, for runs made without
    one, over its I/O window (io_window_s: the first dd's own start to the last one's end)."""
    if not cell:
        return None, None, 0
    vals = dd_window_runs(cell)
    m, sd = mean_sd(vals)
    return m, sd, len(vals)


def dd_seconds(j):
    """(seconds, basis) of a percpu-load JSON: less its start-up run, else its I/O window."""
    if j.get("less_startup_s"):
        return j["less_startup_s"], "less start-up"
    return j["io_window_s"], "I/O window"


def dd_window_runs(cell, basis=None):
    """Each run's IOPS (dd_window()'s values); basis, a list, gets each run's basis."""
    vals = []
    if not cell:
        return vals
    for r in cell["runs"]:
        try:
            j = r["data"]
            secs, how = dd_seconds(j)
            vals.append(j["total"]["ios"] / secs)
            if basis is not None:
                basis.append(how)
        except (KeyError, TypeError, ZeroDivisionError):
            continue
    return vals


SEED001_ROLES = {
    "ramlld-bio": "ramlld-bio, ramlld's bio-based disk: the block LLD (the post's was bio-based: "
                  "make_request)",
    "ramlld-mq": "ramlld-mq, ramlld's blk-mq disk (the post had none)",
    "ramlld-sd": "ramlld-sd, ramlld's SCSI LLD under sd: the SCSI LLD doing the I/O",
    "ramlld-sd-tar": "ramlld-sd-tar, ramlld's SCSI LLD with throw_away_reads/writes=1",
    "sdebug": "scsi_debug delay=0 fake_rw=0",
    "sdebug-fakerw": "scsi_debug delay=0 fake_rw=1 (the post's)",
}


def seed001_measured(cells, w):
    """The "Measured here" text of seed 001: the targets, dd processes per CPU, vCPUs and
    device sizes this run's dd cells hold (their percpu-load JSON), not the workload's
    defaults: a run narrowed by --targets or --capacity-mb says what it ran."""
    ts = [t for t in targets_of(cells, w)
          if any(c["target"] == t and c["section"] == "dd" for c in cells if c["workload"] == w)]
    profs = sorted({c["profile"] for c in cells if c["workload"] == w and c["section"] == "dd"})
    ctx = {}
    for c in cells:
        if c["workload"] != w or c["section"] != "dd":
            continue
        for r in c["runs"]:
            x = r["data"].get("context") or {}
            for k in ("procs_per_cpu", "online_cpus", "size_bytes"):
                if x.get(k) is not None:
                    ctx.setdefault(k, set()).add(x[k])

    def one(k, unit=lambda v: str(v)):
        vs = sorted(ctx.get(k, ()))
        return " / ".join(unit(v) for v in vs) if vs else "?"
    mib = one("size_bytes", lambda v: fmt(v / 2**20, 0) if v % 2**20 == 0 else fmt(v / 2**20, 1))
    return (f"The post's own run (tools/percpu-load: real dd processes pinned with taskset, "
            f"{one('procs_per_cpu')} per CPU on each of the guest's {one('online_cpus')} "
            f"CPU(s), each reading the whole device once) under queue profile "
            f"{', '.join(profs) or '?'} (seed-001: the post's tuning) on " + ("; ".join(SEED001_ROLES.get(t, t) for t in ts) or "no target")
            + f". One {mib} MiB device per target (the post's scsi_debug: 300 MB). Two "
            "IOPS: over the wall time with the processes' start-up (as the post's `time`), and "
            f"without it, which the verdict uses (a dd reads {mib} MiB here, 300 MB there): the "
            "elapsed time less a start-up run of the same processes with count=0 (exact on the "
            "exact clock), or, in runs without one, the I/O window (the first dd's own start to "
            "the last one's end, which moves with the order the processes start in).")


def seed001(root, cells, idx, exact=False):
    w = "seed-001"
    sec = {"id": "001", "workload": w,
           "title": "scsi_debug fake_rw vs a SCSI LLD vs a block LLD, 20 dd per CPU",
           "claim": "20 `taskset -c CPU dd bs=4k iflag=direct` per CPU over the whole device "
                    "(6 cores, rq_affinity=2, noop/none, add_random=0): scsi_debug delay=0 "
                    "fake_rw=1 ~216K IOPS, a SCSI LLD doing the I/O ~190K, a block LLD ~380K: "
                    "block ~2x SCSI (and on a quad i5: scsi_debug fake_rw=1 ~800K, fake_rw=0 "
                    "~651K)",
           "tables": [], "notes": []}
    sec["compared"] = seed001_measured(cells, w)
    post = {"sdebug-fakerw": (216e3, "scsi_debug fake_rw=1"),
            "sdebug": (None, "scsi_debug fake_rw=0 (Bart: 651K vs 800K fake_rw=1)"),
            "ramlld-sd": (190e3, "the SCSI LLD"), "ramlld-mq": (None, "(blk-mq)"),
            "ramlld-bio": (380e3, "the block LLD")}
    rows = []
    profs = sorted({c["profile"] for c in cells if c["workload"] == w and c["section"] == "dd"})
    bases = []
    for c in cells:
        if c["workload"] == w and c["section"] == "dd":
            dd_window_runs(c, bases)
    basis = " / ".join(sorted(set(bases))) or "I/O window"
    bars = []
    for p in profs:
        scsi = dd_window(idx.get(("ramlld-sd", p, w, "dd")))
        for t in targets_of(cells, w):
            c = idx.get((t, p, w, "dd"))
            if not c:
                continue
            pf, role = post.get(t, (None, ""))
            m, sd, n = dd_window(c)
            r = ratio(m, sd, scsi[0], scsi[1]) if scsi[0] else (None, None)
            rows.append([t, p, role, f"{fmt(pf / 1e3)}K" if pf else "-",
                         fmt(pf / 190e3, 2) if pf else "-", pm(c["iops"], c["iops_std"]),
                         pm(m, sd), pm(*r, 2), n])
            if p == "seed-001" and r[0] is not None:
                bars.append((t, pf / 190e3 if pf else None, r[0]))
    sec["tables"].append(("IOPS of the dd run (x the SCSI LLD: the post's and this run's)",
                          ["target", "profile", "the post's role", "the post", "x SCSI LLD (post)",
                           "IOPS, wall", f"IOPS, {basis}", f"x ramlld-sd ({basis})", "n"],
                          rows))
    if bars:
        sec["bars"] = {"title": f"seed 001: dd IOPS ({basis}) over the SCSI LLD's",
                       "ylabel": "x the SCSI LLD (ramlld-sd; the post's: ~190K)",
                       "groups": [b[0] for b in bars],
                       "series": [("the post", [b[1] for b in bars]),
                                  ("measured here", [b[2] for b in bars])],
                       "name": "seed-001-ratios.png"}
    p = "seed-001" if "seed-001" in profs else (profs[0] if profs else "seed-001")

    def window_ratio(a, b):
        ma, sa, na = dd_window(idx.get((a, p, w, "dd")))
        mb, sb, nb = dd_window(idx.get((b, p, w, "dd")))
        r, sd = ratio(ma, sa, mb, sb)
        return r, sd, min(na, nb)

    def window_agreement(a, b):
        if not exact:
            return None
        return agreement([(f"{t} dd ({basis})", dd_window_runs(idx.get((t, p, w, "dd"))))
                          for t in (a, b)])
    r, sd, n = window_ratio("ramlld-bio", "ramlld-sd")
    setup = setup_text(root, "on 6 cores, 20 dd per CPU reading 300 MB each")
    spot = spot_check(cells)
    v = verdict(r, sd, n, 2.0, BAND[:2], window_agreement("ramlld-bio", "ramlld-sd"),
                setup=setup, decides="compare/run --only seed-001", spot=spot)
    sec["verdict"] = v
    sec["verdict_line"] = line(
        v, f"ramlld-bio / ramlld-sd on the dd run [{p}], IOPS ({basis})",
        "380K / 190K; " + BAND[2])
    r2, sd2, n2 = window_ratio("sdebug-fakerw", "ramlld-sd")
    if r2 is not None:
        v2 = verdict(r2, sd2, n2, 216 / 190, FAKERW_BANDS["lld"][:2],
                     window_agreement("sdebug-fakerw", "ramlld-sd"), setup, spot=spot)
        sec["notes"].append(f"scsi_debug fake_rw=1 over the SCSI LLD doing the I/O: "
                            f"{figure(v2)} here, 1.14x in the post (216K / 190K): "
                            f"{v2['category']} by the same rule ({v2['why']}).")
    r3, sd3, n3 = window_ratio("sdebug-fakerw", "sdebug")
    if r3 is not None:
        v3 = verdict(r3, sd3, n3, 800 / 651, FAKERW_BANDS["rw"][:2],
                     window_agreement("sdebug-fakerw", "sdebug"), setup, spot=spot)
        sec["notes"].append(f"scsi_debug fake_rw=1 over fake_rw=0: {figure(v3)} here, 1.23x in "
                            f"Bart's run (800K / 651K): {v3['category']} ({v3['why']}).")
    return sec


def undecided_here(run):
    """The side claims this run's clock cannot decide, whether or not the run measured them:
    the post's hand-spread interrupts (an interrupt CPU saturating is a parallel effect). A run
    with the per-CPU profile (ROOT/percpu, tools/iprofile/percpu) decides it by the per-CPU
    model instead: the entry's "cell" is that verdict."""
    if run.parallel:
        return []
    u = {"claim": "interrupts spread over the CPUs by hand (the post's 6 cores) keep one "
                  "interrupt CPU from saturating",
         "measured": "one vCPU's turn at a time: no CPU saturates while another waits",
         "why": "an interrupt CPU saturating needs CPUs running at once",
         "command": "compare/run --host DEV --only seed-001 --clock host"}
    v = percpu_verdict(run)
    if v:
        u.update(measured=percpu.verdict_measured(v), cell=percpu.verdict_cell(v))
    return [u]


def percpu_verdict(run):
    """Seed 001's interrupt-CPU claim by the per-CPU model, when the run has the profile."""
    data = percpu.load(run.root)
    return percpu.seed001_verdict(percpu.table(data)) if data else None


def _finish(sec, run):
    sec["undecided"] = undecided_here(run)
    v = percpu_verdict(run)
    if v:
        sec["notes"].append("Interrupts spread by hand keep one interrupt CPU from saturating: "
                            + percpu.verdict_line(v))


def compute(run):
    """The section's figures (None when the run has no seed-001 cells)."""
    return compute_section(run, WORKLOAD, seed001, _finish)


def render(run, plots):
    return render_section(compute(run), bars, plots, markdown)

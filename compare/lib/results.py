# SPDX-License-Identifier: GPL-2.0
"""The one reader of a results folder (compare/guest-run writes it through compare/run).

load(root) -> Run: meta.env, notes.tsv, targets.tsv, every raw run (fio JSON, tools/percpu-load
JSON, .cpu, .queue) as cells of runs, read once; every section renders from it.
"""

import glob
import json
import os
import re
import statistics

from . import fio
from .env import read_env
from .fmt import runtime
from .stats import determinism, mean_sd, ratio
from .targets import TARGET_KEYS, read_all, read_header, read_run

REF = "ramlld-bio"          # the ratio column's reference target
METRICS = ["iops", "mbps", "lat_mean_us", "lat_p50_us", "lat_p99_us", "lat_p999_us",
           "cpu_us_per_io_fio", "cpu_us_per_io_stat", "instr_per_io"]
QUEUE_KEYS = ["scheduler", "nr_requests", "rq_affinity", "add_random", "nomerges",
              "hw_queues", "hw_depth", "scsi_queue_depth", "max_sectors_kb", "read_ahead_kb"]
# what each run of a cell carries besides its figures: its fio (or tools/percpu-load) JSON as
# read, and run_extras() of its files, so that no section reads a raw file
PARSED = ["data", "extras"]
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def icount_ns(meta):
    """Guest ns per instruction on the exact clock (2^shift), None on the host's time."""
    if meta.get("clock") != "icount":
        return None
    sh = meta.get("icount_shift") or "0"
    return 2 ** int(sh) if sh.isdigit() else 1


def clock_text(meta):
    """Which clock made the figures, with the QEMU and the vCPU count: every section says it."""
    ns = icount_ns(meta)
    cpus, qemu = meta.get("cpus", "-"), meta.get("qemu") or "-"
    why = f"; {meta['clock_reason']}" if meta.get("clock_reason") else ""  # compare/run's decision
    if ns:
        return (f"icount, exact: guest time counts instructions, 1 instruction = {ns} ns "
                f"(QEMU {qemu}, {cpus} vCPU(s), TCG{why})")
    accel = meta.get("accel", "-")
    where = "host" if accel.startswith("none") else f"QEMU {qemu}, {cpus} vCPU(s), {accel}"
    return f"host time ({where}{why})"


def parallel_cpus(meta):
    """Whether the run had CPUs that run at once: the host itself (--host) or KVM with more
    than one vCPU. TCG runs the vCPUs in turn on the exact clock, and on one host thread each
    under host load: neither decides a claim about parallel work."""
    accel = meta.get("accel", "")
    cpus = int(meta.get("cpus", "1") or 1) if str(meta.get("cpus", "1")).isdigit() else 1
    return (accel.startswith("none") or accel == "kvm") and cpus > 1


def read_target_file(path, keys=None):
    """The '# key: value' header lines of a target file (those of keys, TARGET_KEYS by default)."""
    keys = keys or TARGET_KEYS
    return {k: v for k, v in read_header(path).items() if k in keys}


def load_targets(root=None):
    """name -> header of every target: from root/targets.tsv (compare/guest-run writes it, so
    that the report is a function of the results folder), else from the target files beside
    this package (a folder without targets.tsv, or no folder)."""
    tsv = os.path.join(root, "targets.tsv") if root else None
    targets = {}
    if tsv and os.path.isfile(tsv):
        with open(tsv, encoding="utf-8") as f:
            for line in f:
                w = line.rstrip("\n").split("\t")
                if len(w) == len(TARGET_KEYS) + 1:
                    targets[w[0]] = dict(zip(TARGET_KEYS, w[1:]))
        return targets
    for name, h in read_all(os.path.join(HERE, "targets")).items():
        targets[name] = {k: v for k, v in h.items() if k in TARGET_KEYS}
    return targets


def torder(targets):
    """Sort key of target names: each file's order, unknown names last."""
    def key(t):
        o = (targets.get(t) or {}).get("order", "")
        return (int(o) if o.isdigit() else 10 ** 9, t)
    return key


def stat_cpu_us(path):
    """Busy CPU time (all CPUs: user+nice+system+irq+softirq+steal) between the two
    /proc/stat lines of a .cpu file, in µs."""
    c = read_cpu_file(path)
    if not c or "before" not in c or "after" not in c:
        return None
    dl = [a - b for a, b in zip(c["after"], c["before"])]
    busy = sum(dl[i] for i in (0, 1, 2, 5, 6, 7) if i < len(dl))
    return busy * 1e6 / c.get("clk_tck", 100)


def read_cpu_file(path):
    """/proc/stat's cpu line and the first device's stat before and after a run."""
    d = {}
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                w = line.split()
                if len(w) > 2 and w[0] in ("before", "after"):
                    d[w[0]] = [int(x) for x in w[2:]]
                elif len(w) > 1 and w[0] in ("disk_before", "disk_after"):
                    d[w[0]] = [int(x) for x in w[1:]]
                elif len(w) == 2 and w[0] == "clk_tck":
                    d["clk_tck"] = int(w[1])
    except (OSError, ValueError):
        return None
    return d


def read_queue(path):
    q = read_env(path)
    return {k: q.get(k) for k in ["dev"] + QUEUE_KEYS if k in q}


def queue_says(path, key, value):
    """Whether a run's queue read-back (KEY=VALUE lines) holds KEY=VALUE."""
    try:
        with open(path, encoding="utf-8") as fh:
            return f"{key}={value}" in (line.strip() for line in fh)
    except OSError:
        return False


def load_runs(root, meta, bad=None):
    """Every raw run of root; bad, a list, gets a note for each run file that holds no whole
    JSON (a run cut short), which is left out."""
    ramp = float(meta.get("ramp", 0) or 0)
    ns = icount_ns(meta)
    runs = []
    for f in sorted(glob.glob(os.path.join(root, "raw", "*", "*", "*", "*", "r*.json"))):
        rel = os.path.relpath(f, os.path.join(root, "raw")).split(os.sep)
        t, p, w, s, name = rel
        mo = re.match(r"r(\d+)(\.dd)?\.json$", name)
        if not mo:
            continue
        rep = int(mo.group(1))
        try:
            d = fio.read(f, os.path.relpath(f, root))
        except fio.BadJSON as e:
            if bad is not None:
                bad.append({"kind": "warn", "target": t, "text": f"{e}; the run is left out"})
            continue
        except OSError:
            continue
        if mo.group(2):
            tot = d["total"]
            m = {"ios": tot["ios"], "iops": tot["iops"], "mbps": tot["mb_s"],
                 "lat_mean_us": None, "lat_p50_us": None, "lat_p99_us": None,
                 "lat_p999_us": None, "cpu_us_per_io_fio": None,
                 "runtime_s": d.get("elapsed_s")}
            window_ios = tot["ios"]
        else:
            m = fio.run_metrics(d)
            why = fio.stalled(d, m["runtime_s"])
            if why:
                if bad is not None:
                    bad.append({"kind": "warn", "target": t,
                                "text": f"{w}/{s} r{rep} ({p}): {why} ({m['ios']} I/Os): "
                                        "not a rate; the run is left out"})
                continue
            rt = m["runtime_s"] or 1
            window_ios = m["ios"] * (rt + ramp) / rt     # ramp-time I/O is not in total_ios
        base = f[: -len(".dd.json")] if mo.group(2) else f[: -len(".json")]
        # host time: busy CPU per I/O from /proc/stat (1/CLK_TCK ticks); the exact clock has
        # the exact figure instead: QEMU runs the vCPUs in turn on one thread, so guest time
        # counts the instructions of all vCPUs together and 10^9 / IOPS is the whole path's
        # instructions per I/O while the guest is never idle
        busy = None if ns else stat_cpu_us(base + ".cpu")
        m["cpu_us_per_io_stat"] = busy / window_ios if busy is not None and window_ios else None
        m["instr_per_io"] = 1e9 / m["iops"] / ns if ns and m["iops"] else None
        m.update(target=t, profile=p, workload=w, section=s, rep=rep,
                 file=os.path.relpath(f, root), queue=read_queue(base + ".queue"), data=d,
                 extras=run_extras(base, None if mo.group(2) else d))
        runs.append(m)
    return runs


def aggregate(runs, targets, exact=False):
    cells = {}
    for r in runs:
        cells.setdefault((r["target"], r["profile"], r["workload"], r["section"]), []).append(r)
    out = []
    for key, rs in cells.items():
        rs.sort(key=lambda r: r["rep"])
        c = dict(zip(("target", "profile", "workload", "section"), key))
        c["n"] = len(rs)
        for m in METRICS:
            c[m], c[m + "_std"] = mean_sd([r.get(m) for r in rs])
        c["queue"] = rs[0]["queue"]
        c["runs"] = [{k: r.get(k) for k in ["rep", "file"] + METRICS + PARSED} for r in rs]
        c["determinism"] = determinism(rs) if exact else None
        out.append(c)
    idx = {(c["target"], c["profile"], c["workload"], c["section"]): c for c in out}
    for c in out:
        ref = idx.get((REF, c["profile"], c["workload"], c["section"]))
        c["ratio_to_bio"], c["ratio_to_bio_std"] = (
            ratio(c["iops"], c["iops_std"], ref["iops"], ref["iops_std"]) if ref else (None, None))
    tkey = torder(targets)
    out.sort(key=lambda c: (c["workload"], c["section"], c["profile"], tkey(c["target"])))
    return out, idx


def read_notes(root):
    notes = []
    try:
        with open(os.path.join(root, "notes.tsv"), encoding="utf-8") as f:
            for line in f:
                w = line.rstrip("\n").split("\t", 2)
                if len(w) == 3:
                    notes.append({"kind": w[0], "target": w[1], "text": w[2]})
    except OSError:
        pass
    return notes


def run_extras(base, data):
    """A run's CPU split (/proc/stat: user+nice and system+irq+softirq as % of all CPU time),
    busy CPU µs, the first device's request counters and fio's util %: base, the run's files
    less their extension; data, its fio JSON (None for a dd run's)."""
    x = {}
    c = read_cpu_file(base + ".cpu")
    if c and "before" in c and "after" in c:
        dl = [a - b for a, b in zip(c["after"], c["before"])]
        total = sum(dl[:8])
        if total > 0:
            x["usr_pct"] = (dl[0] + dl[1]) * 100 / total
            x["sys_pct"] = (dl[2] + dl[5] + dl[6]) * 100 / total
            x["busy_us"] = (total - dl[3] - dl[4]) * 1e6 / c.get("clk_tck", 100)
    if c and "disk_before" in c and "disk_after" in c:
        dd = [a - b for a, b in zip(c["disk_after"], c["disk_before"])]
        if len(dd) >= 11:
            x["disk"] = {"reads": dd[0], "read_merges": dd[1], "read_sectors": dd[2],
                         "writes": dd[4], "write_sectors": dd[6], "io_ticks_ms": dd[9]}
    if data is not None:
        try:
            du = data.get("disk_util") or []
            # a queue with iostats=0 (a bio disk's default) counts no busy time: no util %
            if du and not queue_says(base + ".queue", "iostats", "0"):
                x["util_pct"] = du[0].get("util")
            jobs = data.get("jobs") or []
            if jobs:
                x["fio_usr_pct"] = statistics.mean(jb["usr_cpu"] for jb in jobs)
                x["fio_sys_pct"] = statistics.mean(jb["sys_cpu"] for jb in jobs)
        except (KeyError, AttributeError, TypeError):
            pass
    return x


def extras_mean(cell, key, sub=None):
    """Mean and sd of a run_extras() figure over a cell's runs."""
    vals = []
    for r in cell["runs"]:
        x = r["extras"]
        v = x.get(key) if sub is None else (x.get(key) or {}).get(sub)
        if v is not None:
            vals.append(v)
    return mean_sd(vals)


def run_shape(root):
    """The run's time a job and device size as its meta.env says."""
    meta = read_env(os.path.join(root, "meta.env"))
    rt, cap = meta.get("runtime"), meta.get("capacity_mb")
    return {"runtime": runtime(rt, "RUNTIME"), "mib": f"{cap} MiB" if cap else "128 MiB"}


def public(cells):
    """The cells without each run's parsed files (data, extras): what results.json keeps."""
    return [dict(c, runs=[{k: v for k, v in r.items() if k not in PARSED} for r in c["runs"]])
            for c in cells]


def read_stack_ladder(d, sections):
    """(meta, runs) of a tools/stack-ladder folder: meta.json, and {(rung, section): fio's
    figures of RUNG-SECTION.json with "busy_s", RUNG-SECTION.cpu's busy CPU seconds} for each
    of its rungs and sections (one not run is left out)."""
    with open(os.path.join(d, "meta.json"), encoding="utf-8") as fh:
        meta = json.load(fh)
    runs = {}
    for rung in meta["rungs"]:
        for s in sections:
            f = os.path.join(d, f"{rung}-{s}.json")
            if not os.path.exists(f):
                continue
            m = fio.run_metrics(fio.read(f))
            with open(f[:-len(".json")] + ".cpu", encoding="utf-8") as fh:
                m["busy_s"] = float(fh.read().split()[0])
            runs[(rung, s)] = m
    return meta, runs


class Run:
    """A results folder, read once: meta, notes, targets (and their headers), cells (one per target, profile,
    workload and section, with their runs) and idx (those four -> cell). cache: what a
    section computed that another shows (the summary shows the ladder's, the knobs', the
    seeds')."""

    def __init__(self, root):
        self.root = root
        self.meta = read_env(os.path.join(root, "meta.env"))
        self.notes = read_notes(root)
        self.target_meta = load_targets(root)
        # which benches, ladder rungs and summary paths each target joins (lib/targets.py)
        self.headers = read_run(root)
        self.exact = icount_ns(self.meta) is not None
        self.clock = clock_text(self.meta)
        self.parallel = parallel_cpus(self.meta)
        bad = []
        self.cells, self.idx = aggregate(load_runs(root, self.meta, bad), self.target_meta,
                                         self.exact)
        self.notes += bad
        self.targets = sorted({c["target"] for c in self.cells}, key=torder(self.target_meta))
        self.profiles = sorted({c["profile"] for c in self.cells},
                               key=lambda p: (p != "default", p))
        self.cache = {}
        # the project's docs/results.md (report.py --publish): every cell's row stays in
        # results.csv and .json beside it, not as tables (sections/cells.py)
        self.published = False

    def cell(self, target, profile, workload, section):
        return self.idx.get((target, profile, workload, section))

    def once(self, key, fn):
        """fn() computed once per folder (a section's figures that another section shows)."""
        if key not in self.cache:
            self.cache[key] = fn()
        return self.cache[key]


def load(root):
    return Run(root)

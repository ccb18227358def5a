#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# compare/report.py: the comparison's report, a pure function of a results folder: reads the raw
# fio JSON, /proc/stat deltas, queue read-backs, btt and perf summaries, and writes results.csv,
# results.json, report.md and PNG plots; prints a short headline summary.
"""The comparison's report of a results folder.

DIR is a folder written by compare/guest-run (through compare/run). Nothing but DIR is read
(a folder without targets.tsv: the target files beside this script say what each target is);
DIR/results.csv, DIR/results.json, DIR/report.md and DIR/*.png are (re)written.
"""

import argparse
import csv
import glob
import json
import math
import os
import re
import statistics
import sys

from seeds import EXACT_AGREE_PCT, fmt, pm  # one number format for the whole report

REF = "ramlld-bio"          # the ratio column's reference target
METRICS = ["iops", "mbps", "lat_mean_us", "lat_p50_us", "lat_p99_us", "lat_p999_us",
           "cpu_us_per_io_fio", "cpu_us_per_io_stat", "instr_per_io", "instr_per_io_stat"]
# On the exact clock (tools/vm/run --clock icount) a cell's runs must agree within this (%):
# one constant with the seed verdicts' determinism check.
DETERMINISM_PCT = EXACT_AGREE_PCT
QUEUE_KEYS = ["scheduler", "nr_requests", "rq_affinity", "add_random", "nomerges",
              "hw_queues", "hw_depth", "scsi_queue_depth", "max_sectors_kb", "read_ahead_kb"]
HERE = os.path.dirname(os.path.abspath(__file__))
# The header keys of a target file (compare/targets/<name>.sh), as compare/guest-run writes them
# into a results folder's targets.tsv (one line a target: name, then these).
TARGET_KEYS = ["desc", "group", "order", "levels", "load", "precondition", "own-functions"]
# perf symbol classes: (name, regex); first match wins. Driver prefixes per reference.
CLASSES = [
    ("idle", r"^(native_safe_halt|default_idle|default_idle_call|cpu_idle|do_idle|acpi_idle|"
             r"intel_idle|mwait_idle|arch_cpu_idle|cpuidle_|poll_idle)"),
    ("copy", r"(memcpy|memmove|^copy_|_copy_|rep_movs|copy_user|copy_page|memset|clear_page)"),
    ("scsi+sd", r"^(scsi_|__scsi_|sd_|sd\b|scsi\b|scsi_mq_|scmd_)"),
    ("driver", r"^(ramlld_|brd_|null_|nullb_|sdebug_|resp_|schedule_resp|do_device_access|"
               r"tcm_loop|target_|transport_|core_|rd_|nvme_|virtio_)"),
    ("block", r"^(blk_|__blk_|bio_|__bio_|submit_bio|__submit_bio|bvec_|dd_|__dd_|"
              r"elv_|blkdev_|__blkdev_|bdev_)"),
]


def read_env(path):
    d = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if "=" in line:
                    k, v = line.rstrip("\n").split("=", 1)
                    d.setdefault(k, v)
    except OSError:
        pass
    return d


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


def read_target_file(path):
    """The '# key: value' header lines of a target file (those of TARGET_KEYS)."""
    h = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#"):
                break
            mo = re.match(r"# ([a-z-]+): *(.*?)\s*$", line)
            if mo and mo.group(1) in TARGET_KEYS:
                h[mo.group(1)] = mo.group(2)
    return h


def load_targets(root=None):
    """name -> header of every target: from root/targets.tsv (compare/guest-run writes it, so
    that the report is a function of the results folder), else from the target files beside
    this script (a folder from before targets.tsv, or no folder)."""
    tsv = os.path.join(root, "targets.tsv") if root else None
    targets = {}
    if tsv and os.path.isfile(tsv):
        with open(tsv, encoding="utf-8") as f:
            for line in f:
                w = line.rstrip("\n").split("\t")
                if len(w) == len(TARGET_KEYS) + 1:
                    targets[w[0]] = dict(zip(TARGET_KEYS, w[1:]))
        return targets
    for path in sorted(glob.glob(os.path.join(HERE, "targets", "*.sh"))):
        targets[os.path.basename(path)[:-3]] = read_target_file(path)
    return targets


def torder(targets):
    """Sort key of target names: each file's order, unknown names last."""
    def key(t):
        o = (targets.get(t) or {}).get("order", "")
        return (int(o) if o.isdigit() else 10 ** 9, t)
    return key


def mean_std(xs):
    """Mean and sample standard deviation (0 for one value; None, None for none)."""
    xs = [x for x in xs if x is not None]
    if not xs:
        return None, None
    return statistics.fmean(xs), statistics.stdev(xs) if len(xs) > 1 else 0.0


def ratio(a, sa, b, sb):
    """a/b with its spread propagated from the two standard deviations."""
    if a is None or b in (None, 0):
        return None, None
    r = a / b
    rel = math.sqrt(((sa or 0) / a) ** 2 + ((sb or 0) / b) ** 2) if a else 0.0
    return r, r * rel


def fio_run_metrics(d):
    """Metrics of one fio run (one section; group_reporting gives one job)."""
    jobs = d["jobs"]
    ios = sum(j["read"]["total_ios"] + j["write"]["total_ios"] for j in jobs)
    m = {
        "ios": ios,
        "iops": sum(j["read"]["iops"] + j["write"]["iops"] for j in jobs),
        "mbps": sum(j["read"]["bw_bytes"] + j["write"]["bw_bytes"] for j in jobs) / 1e6,
    }
    # latency: completion latency of the direction that did most I/O (a mix reports that one)
    best = max(((j[k]["total_ios"], j[k]) for j in jobs for k in ("read", "write")),
               key=lambda x: x[0])[1]
    clat = best.get("clat_ns", {})
    pct = clat.get("percentile", {}) or {}
    m["lat_mean_us"] = clat.get("mean", 0) / 1e3 if best["total_ios"] else None
    for key, p in (("lat_p50_us", "50.000000"), ("lat_p99_us", "99.000000"),
                   ("lat_p999_us", "99.900000")):
        m[key] = pct[p] / 1e3 if p in pct else None
    cpu_s = sum((j["usr_cpu"] + j["sys_cpu"]) / 100.0 * j["job_runtime"] / 1e3 for j in jobs)
    m["cpu_us_per_io_fio"] = cpu_s * 1e6 / ios if ios else None
    m["runtime_s"] = max(j["job_runtime"] for j in jobs) / 1e3
    return m


def stat_cpu_us(path):
    """Busy CPU time (all CPUs: user+nice+system+irq+softirq+steal) between the two
    /proc/stat lines of a .cpu file, in µs."""
    before = after = None
    tck = 100
    try:
        with open(path) as f:
            for line in f:
                w = line.split()
                if w[0] == "before":
                    before = [int(x) for x in w[2:]]
                elif w[0] == "after":
                    after = [int(x) for x in w[2:]]
                elif w[0] == "clk_tck":
                    tck = int(w[1])
    except (OSError, ValueError, IndexError):
        return None
    if not before or not after:
        return None
    dl = [a - b for a, b in zip(after, before)]
    busy = sum(dl[i] for i in (0, 1, 2, 5, 6, 7) if i < len(dl))
    return busy * 1e6 / tck


def read_queue(path):
    q = read_env(path)
    return {k: q.get(k) for k in ["dev"] + QUEUE_KEYS if k in q}


def load_runs(root, meta):
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
            with open(f) as fh:
                d = json.load(fh)
        except (OSError, ValueError):
            continue
        if mo.group(2):
            tot = d["total"]
            m = {"ios": tot["ios"], "iops": tot["iops"], "mbps": tot["mb_s"],
                 "lat_mean_us": None, "lat_p50_us": None, "lat_p99_us": None,
                 "lat_p999_us": None, "cpu_us_per_io_fio": None,
                 "runtime_s": d.get("elapsed_s")}
            window_ios = tot["ios"]
        else:
            m = fio_run_metrics(d)
            rt = m["runtime_s"] or 1
            window_ios = m["ios"] * (rt + ramp) / rt     # ramp-time I/O is not in total_ios
        base = f[: -len(".dd.json")] if mo.group(2) else f[: -len(".json")]
        busy = stat_cpu_us(base + ".cpu")
        m["cpu_us_per_io_stat"] = busy / window_ios if busy is not None and window_ios else None
        # the exact clock: guest ns are instructions, and QEMU runs the vCPUs in turn on one
        # thread, so guest time counts the instructions of all vCPUs together: 10^9 / IOPS is
        # the whole path's instructions per I/O while the guest is never idle. /proc/stat's busy
        # time counts a vCPU as busy while it waits for its turn: with k vCPUs busy at once it
        # is about k times that (in 1/CLK_TCK ticks, the ramp's I/O counted in).
        m["instr_per_io"] = 1e9 / m["iops"] / ns if ns and m["iops"] else None
        m["instr_per_io_stat"] = (m["cpu_us_per_io_stat"] * 1e3 / ns
                                  if ns and m["cpu_us_per_io_stat"] is not None else None)
        m.update(target=t, profile=p, workload=w, section=s, rep=rep,
                 file=os.path.relpath(f, root), queue=read_queue(base + ".queue"))
        runs.append(m)
    return runs


def determinism(rs):
    """On the exact clock: how far a cell's runs are apart (% of their mean IOPS), whether that
    is within DETERMINISM_PCT, and what differed."""
    xs = [r["iops"] for r in rs if r.get("iops")]
    if len(xs) < 2:
        return {"pct": None, "ok": None, "what": "one run: not checked"}
    pct = (max(xs) - min(xs)) * 100 / statistics.fmean(xs)
    what = "IOPS " + " vs ".join(f"{x:,.0f}" for x in xs) + f" ({pct:.3f} % apart)"
    ins = [r["instr_per_io_stat"] for r in rs if r.get("instr_per_io_stat")]
    if len(ins) == len(xs):
        what += ("; vCPU-busy ns/IO (/proc/stat) " + " vs ".join(f"{x:,.0f}" for x in ins))
    return {"pct": pct, "ok": pct <= DETERMINISM_PCT, "what": what}


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
            c[m], c[m + "_std"] = mean_std([r.get(m) for r in rs])
        c["queue"] = rs[0]["queue"]
        c["runs"] = [{k: r.get(k) for k in ["rep", "file"] + METRICS} for r in rs]
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


# ------------------------------------------------------------------ breakdown
def parse_btt(path):
    """Average Q2G, G2I, I2D, D2C, Q2C (µs) and N from btt's 'All Devices' table."""
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError:
        return None
    sec = text.split("==================== All Devices ====================", 1)
    if len(sec) < 2:
        return None
    res = {}
    for line in sec[1].splitlines():
        w = line.split()
        # bio-based disks show as "Q2Cdm" (btt's name for a device without requests)
        k = w[0][:3] if w and re.match(r"^[A-Z]2[A-Z](dm)?$", w[0]) else None
        if len(w) >= 5 and k in ("Q2Q", "Q2G", "G2I", "Q2M", "I2D", "M2D", "D2C", "Q2C"):
            if k not in res:
                try:
                    res[k] = {"avg_us": float(w[2]) * 1e6, "n": int(w[4])}
                except ValueError:
                    pass
        if line.startswith("==================== Device Overhead"):
            break
    return res


def parse_perf(path):
    """Self-time samples per symbol from `perf report --stdio --sort symbol -g none`."""
    syms = []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                mo = re.match(r"\s*([\d.]+)%\s+\[(.)\]\s+(\S+)", line)
                if mo:
                    syms.append((float(mo.group(1)), mo.group(2), mo.group(3)))
    except OSError:
        return None
    if not syms:
        return None
    classes = {n: 0.0 for n, _ in CLASSES}
    classes["other kernel"] = 0.0
    classes["user"] = 0.0
    fn_class = {}
    for pct, kind, sym in syms:
        cls = None
        if kind != "k":
            cls = "user"
        else:
            for n, rx in CLASSES:
                if re.search(rx, sym):
                    cls = n
                    break
            cls = cls or "other kernel"
        classes[cls] += pct
        fn_class[sym] = cls
    busy = 100.0 - classes["idle"]
    kernel = [(p, s) for p, k, s in syms if k == "k" and fn_class[s] != "idle"]
    return {"share_pct": classes,
            "share_of_busy_pct": {k: (v * 100 / busy if busy > 0 else None)
                                  for k, v in classes.items() if k != "idle"},
            "top_kernel": [{"symbol": s, "pct": p, "class": fn_class[s]} for p, s in kernel[:15]],
            "scsi_functions": [{"symbol": s, "pct": p} for p, s in kernel
                               if fn_class[s] == "scsi+sd"][:10]}


# The breakdown's second perf pass (compare/guest-run, `perf report --sort parent -p
# "$(report.py --perf-parents DIR)"`) gives each sample to the nearest function of its callchain,
# walking up from the sampled one, that is a driver's own code, a completion call of the block
# layer or midlayer that drivers hand back to, or an interrupt entry. Names, not modules: tail
# calls (scsi_debug_queuecommand -> schedule_resp) leave the entry point out of the chain.
# Each target's own functions: the "# own-functions:" line of its file (compare/targets/).
HANDBACKS = (r"scsi_done|scsi_done_direct|scsi_done_internal|scsi_complete|scsi_finish_command|"
             r"scsi_io_completion|scsi_end_request|blk_mq_complete_request|"
             r"blk_mq_complete_request_remote|blk_mq_end_request|__blk_mq_end_request|"
             r"blk_mq_end_request_batch|blk_update_request|bio_endio")
IRQ_ENTRIES = r"asm_sysvec_.*|asm_common_interrupt|irq_exit_rcu|__irq_exit_rcu|handle_softirqs|__do_softirq"


def perf_parents(targets):
    """The extended regex for perf report's --parent: every target's own functions, the
    hand-backs and the interrupt entries."""
    own = sorted({t.get("own-functions", "") for t in targets.values()} - {""})
    return "^(" + "|".join(own + [HANDBACKS, IRQ_ENTRIES]) + ")$"


def parse_perf_driver(path, perf, own_rx):
    """The driver's own share of the busy samples (own_rx: its functions, and what they call,
    less what it hands back to the block layer or midlayer) and the Amdahl ceiling it sets: the
    most any driver doing the same job at no cost could run faster on this path,
    busy / (busy - own)."""
    if not own_rx or not perf:
        return None
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            rows = [(float(mo.group(1)), mo.group(2)) for mo in
                    (re.match(r"\s*([\d.]+)%\s+(\S+)\s*$", line) for line in f) if mo]
    except OSError:
        return None
    if not rows:
        return None
    own = sum(pct for pct, name in rows if re.fullmatch(own_rx, name))
    busy = 100.0 - perf["share_pct"]["idle"]
    if busy <= own:
        return None
    # perf-driver-symbols.txt (--sort parent,symbol): the copy functions sampled under the
    # driver's own ones; absent (older results), the copy inside the driver is unknown
    own_copy = None
    copy_rx = dict(CLASSES)["copy"]
    try:
        with open(os.path.join(os.path.dirname(path), "perf-driver-symbols.txt"),
                  encoding="utf-8", errors="replace") as f:
            pairs = [(float(mo.group(1)), mo.group(2), mo.group(3)) for mo in
                     (re.match(r"\s*([\d.]+)%\s+(\S+)\s+\[[^]]+\]\s+(\S+)", line)
                      for line in f) if mo]
        if pairs:
            own_copy = sum(pct for pct, parent, sym in pairs
                           if re.fullmatch(own_rx, parent) and re.search(copy_rx, sym))
    except OSError:
        pass
    return {"own_pct": own, "own_of_busy_pct": own * 100 / busy, "ceiling": busy / (busy - own),
            "own_copy_of_busy_pct": None if own_copy is None else own_copy * 100 / busy}


def load_breakdown(root, targets=None):
    targets = load_targets(root) if targets is None else targets
    bd = {}
    for d in sorted(glob.glob(os.path.join(root, "breakdown", "*"))):
        t = os.path.basename(d)
        perf = parse_perf(os.path.join(d, "perf.txt"))
        prof = read_env(os.path.join(d, "profile.env")).get("profile", "default")
        bd[t] = {"btt": parse_btt(os.path.join(d, "btt.txt")), "perf": perf, "profile": prof,
                 "driver": parse_perf_driver(os.path.join(d, "perf-driver.txt"), perf,
                                             (targets.get(t) or {}).get("own-functions")),
                 "queue": read_queue(os.path.join(d, "queue.txt"))}
    return bd


# ------------------------------------------------------------------ formatting
def qline(q):
    if not q:
        return "-"
    return (f"{q.get('scheduler', '-')}, nr_req {q.get('nr_requests', '-')}, "
            f"rq_aff {q.get('rq_affinity', '-')}, add_rnd {q.get('add_random', '-')}, "
            f"nomerges {q.get('nomerges', '-')}, hwq {q.get('hw_queues', '-')}"
            f"×{q.get('hw_depth', '-')}"
            + (f", sdev depth {q['scsi_queue_depth']}"
               if q.get("scsi_queue_depth") not in (None, "-") else ""))


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(str(x) for x in r) + " |" for r in rows]
    return "\n".join(out)


def rel_cost(idx, profile, cell=("qd32", "randread-4k-qd32"), metric="cpu_us_per_io_stat"):
    """Per-I/O CPU the SCSI midlayer adds: ramlld-scsi - ramlld-mq (µs, %, spread)."""
    s = idx.get(("ramlld-scsi", profile) + cell)
    m = idx.get(("ramlld-mq", profile) + cell)
    if not s or not m or s[metric] is None or m[metric] is None:
        return None
    d = s[metric] - m[metric]
    sd = math.sqrt((s[metric + "_std"] or 0) ** 2 + (m[metric + "_std"] or 0) ** 2)
    return {"profile": profile, "workload": "/".join(cell), "metric": metric,
            "scsi_us": s[metric], "scsi_std": s[metric + "_std"],
            "mq_us": m[metric], "mq_std": m[metric + "_std"],
            "added_us": d, "added_std": sd,
            "added_pct": d * 100 / m[metric] if m[metric] else None,
            "added_pct_std": sd * 100 / m[metric] if m[metric] else None}


# (a, b, label, {section: goal for a/b}) per bench; the goals are issues 3, 4 and 5's.
RR, RW = "randread-4k-qd32", "randwrite-4k-qd32"
BENCH_TARGETS = {
    "bio": [("ramlld-bio", "brd", "ramlld-bio / brd", {RR: 1.15, RW: 1.0})],
    "mq": [("ramlld-mq", "nullb-mq", "ramlld-mq / null_blk memory_backed=1", {RR: 1.2, RW: 1.2}),
           ("ramlld-mq-tar", "nullb-mq-nodata",
            "ramlld-mq throw_away_reads+writes=1 / null_blk memory_backed=0", {RR: 0.95}),
           ("ramlld-bio", "ramlld-mq", "ramlld bio / mq (same store)", {})],
    "scsi": [("ramlld-scsi", "sdebug-norwlock", "ramlld-scsi / scsi_debug no_rwlock=1 fake_rw=0",
              {RR: 1.25, RW: 1.25}),
             ("ramlld-scsi-tar", "sdebug-fakerw",
              "ramlld-scsi throw_away_reads+writes=1 / scsi_debug fake_rw=1", {RR: 1.1}),
             ("ramlld-bio", "ramlld-scsi", "ramlld bio / scsi (same store): the seeds' ratio", {})],
}


def mean_bounds95(xs):
    """One-sided 95 % confidence bounds (lower, upper) on the mean of xs (n >= 2): Student's t
    with n - 1 degrees of freedom (SciPy)."""
    try:
        from scipy import stats
    except ImportError:
        sys.exit("report.py: the 95 % bounds need SciPy: apt-get install python3-scipy "
                 "(tools/deps), and run Debian's python3")
    m, sd = mean_std(xs)
    half = float(stats.t.ppf(0.95, len(xs) - 1)) * sd / math.sqrt(len(xs))
    return m - half, m + half


def paired_ratios(ca, cb):
    """a/b of each repeat both cells have. With --interleave, repeat r of every target runs in
    round r, minutes apart at most: the ratio within a round leaves out the host's drift between
    rounds, which the spread of each cell's own repeats keeps."""
    rb = {r["rep"]: r["iops"] for r in cb["runs"] if r.get("iops")}
    return [r["iops"] / rb[r["rep"]] for r in ca["runs"] if r.get("iops") and r["rep"] in rb]


def build(root):
    meta = read_env(os.path.join(root, "meta.env"))
    notes = []
    try:
        with open(os.path.join(root, "notes.tsv"), encoding="utf-8") as f:
            for line in f:
                w = line.rstrip("\n").split("\t", 2)
                if len(w) == 3:
                    notes.append({"kind": w[0], "target": w[1], "text": w[2]})
    except OSError:
        pass
    runs = load_runs(root, meta)
    tmeta = load_targets(root)
    exact = icount_ns(meta) is not None
    cells, idx = aggregate(runs, tmeta, exact)
    bd = load_breakdown(root, tmeta)
    instr_per_function(bd, idx)
    targets = sorted({c["target"] for c in cells}, key=torder(tmeta))
    profiles = sorted({c["profile"] for c in cells}, key=lambda p: (p != "default", p))
    midlayer = [x for x in (rel_cost(idx, p) for p in profiles) if x]
    midlayer_fio = [x for x in (rel_cost(idx, p, metric="cpu_us_per_io_fio") for p in profiles) if x]
    bench = []
    for a, b, label, goals in BENCH_TARGETS.get(meta.get("bench", ""), []):
        for p in profiles:
            for s in (RR, RW):
                ca, cb = idx.get((a, p, "qd32", s)), idx.get((b, p, "qd32", s))
                if not ca or not cb:
                    continue
                r, rs = ratio(ca["iops"], ca["iops_std"], cb["iops"], cb["iops_std"])
                if exact:
                    # one exact run decides; its second run only checks that it is exact
                    rs = None
                paired = (paired_ratios(ca, cb)
                          if meta.get("interleave") == "1" and not exact else [])
                lo = hi = None
                if len(paired) >= 2:
                    r, rs = mean_std(paired)
                    lo, hi = mean_bounds95(paired)
                bench.append({"paired": len(paired) if len(paired) >= 2 else 0, "lo95": lo, "hi95": hi,
                              "label": label, "profile": p, "section": s, "a": a, "b": b,
                              "a_iops": ca["iops"], "a_std": ca["iops_std"], "b_iops": cb["iops"],
                              "b_std": cb["iops_std"], "ratio": r, "ratio_std": rs,
                              "goal": goals.get(s), "exact": exact,
                              "a_det": ca["determinism"], "b_det": cb["determinism"],
                              "a_instr": ca["instr_per_io"], "b_instr": cb["instr_per_io"]})
    import knobs  # noqa: F401 (as seeds: report.py --perf-parents needs neither)
    import seeds  # compare/seeds.py: the seed sections (here: report.py --perf-parents needs none)
    import ladder  # compare/ladder.py: the cost ladder (issue 19)
    import metal  # compare/metal.py: a bare-metal run's clock facts and hardware counters
    return {"meta": meta, "notes": notes, "targets": targets, "target_meta": tmeta,
            "profiles": profiles, "exact": exact, "clock": clock_text(meta),
            "cells": cells, "breakdown": bd, "midlayer": midlayer,
            "midlayer_fio": midlayer_fio, "bench": bench,
            "seeds": seeds.sections(root, cells, idx, exact, clock_text(meta)),
            "ladder": ladder.section(root, idx, tmeta, exact),
            # compare/knobs.py: the knob table's section (issue 17), when guest-run measured it;
            # when it was told not to, why not
            "knobs": (knobs.markdown(os.path.join(root, "knobs"), guest=meta.get("knob_guest"))
                      or knobs.not_measured(meta)),
            "metal": metal.markdown(root)}, idx


def instr_per_function(bd, idx):
    """The exact clock: each breakdown's instructions per I/O by function. perf's cpu-clock
    samples every N guest ns = instructions, so a function's share of the busy samples times
    the cell's instructions per I/O (10^9 / IOPS of the matrix's 4k randread QD32 cell of the
    same target and profile) is its instructions per I/O."""
    for t, b in bd.items():
        c = idx.get((t, b["profile"], "qd32", "randread-4k-qd32"))
        pf = b.get("perf")
        total = c and c.get("instr_per_io")
        b["instr_per_io"] = total or None
        if not pf or not total:
            continue
        busy = 100.0 - pf["share_pct"]["idle"]
        if busy <= 0:
            continue
        for f in pf["top_kernel"] + pf["scsi_functions"]:
            f["instr_per_io"] = f["pct"] / busy * total
        pf["class_instr_per_io"] = {k: v / 100 * total for k, v in pf["share_of_busy_pct"].items()
                                    if v is not None}
        if b.get("driver"):
            d = b["driver"]
            d["own_instr_per_io"] = d["own_of_busy_pct"] / 100 * total
            if d.get("own_copy_of_busy_pct") is not None:
                d["own_copy_instr_per_io"] = d["own_copy_of_busy_pct"] / 100 * total


def instr_function_rows(res):
    """The exact clock's per-function table: per breakdown with a perf profile, the path's
    instructions per I/O, the driver's own, the copy functions', own less copy, and the top
    kernel functions' (instr_per_function() computed them)."""
    rows = []
    for t in sorted(res["breakdown"], key=torder(res["target_meta"])):
        b = res["breakdown"][t]
        pf = b["perf"]
        if not pf or not b.get("instr_per_io"):
            continue
        own = (b.get("driver") or {}).get("own_instr_per_io")
        own_copy = (b.get("driver") or {}).get("own_copy_instr_per_io")
        copy = pf.get("class_instr_per_io", {}).get("copy")
        rows.append([t, fmt(b["instr_per_io"]), fmt(own), fmt(copy), fmt(own_copy),
                     fmt(own - own_copy) if own is not None and own_copy is not None else "-",
                     ", ".join(f"`{x['symbol']}` {fmt(x['instr_per_io'])}"
                               for x in pf["top_kernel"][:10] if "instr_per_io" in x)])
    return rows


def ceiling_text(bd, goal=None):
    """'own% → ceiling x' of a breakdown's driver share; flags a goal above the ceiling."""
    d = (bd or {}).get("driver")
    if not d:
        return "-"
    txt = f"{fmt(d['own_of_busy_pct'], 1)}% → {fmt(d['ceiling'], 2)}x"
    if d.get("own_instr_per_io") is not None:
        txt += f" ({fmt(d['own_instr_per_io'])} instr/IO own)"
    return txt + (" (goal above it)" if goal and goal > d["ceiling"] else "")


def bench_verdict(b):
    """met / NOT met / inconclusive for a bench ratio against its goal. The exact clock: the
    ratio itself, when both cells passed the determinism check. Paired rounds: the one-sided
    95 % confidence bounds of the mean ratio; otherwise mean ± the propagated spread."""
    if b.get("exact"):
        bad = [f"{t}: {d['what']}" for t, d in ((b["a"], b["a_det"]), (b["b"], b["b_det"]))
               if d and d["ok"] is False]
        if bad:
            return "inconclusive: the runs differ (" + "; ".join(bad) + ")"
        return "met" if b["ratio"] >= b["goal"] else "NOT met"
    if b["paired"]:
        lo, hi = b["lo95"], b["hi95"]
        within = "inconclusive: the goal is within the 95% bounds of the mean"
    else:
        sp = b["ratio_std"] or 0
        lo, hi = b["ratio"] - sp, b["ratio"] + sp
        within = "inconclusive: the goal is within the spread"
    return "met" if lo >= b["goal"] else "NOT met" if hi < b["goal"] else within


def headline(res, idx):
    lines = [f"clock: {res['clock']}"]
    for p in res["profiles"]:
        for s in ("randread-4k-qd32", "randwrite-4k-qd32"):
            parts = []
            b = idx.get(("ramlld-bio", p, "qd32", s))
            for t in res["targets"]:
                c = idx.get((t, p, "qd32", s))
                if c and c["iops"]:
                    parts.append(f"{t} {fmt(c['iops'] / 1e3, 1)}k"
                                 + (f" {fmt(c['instr_per_io'])} instr/IO"
                                    if c.get("instr_per_io") else "")
                                 + (f" ({fmt(c['ratio_to_bio'], 2)}x)" if b and t != REF else ""))
            if parts:
                lines.append(f"{s} [{p}]: " + ", ".join(parts))
    for m in res["midlayer"]:
        lines.append(f"SCSI midlayer cost [{m['profile']}]: +{fmt(m['added_us'], 2)} ± "
                     f"{fmt(m['added_std'], 2)} µs CPU per I/O over ramlld-mq "
                     f"({fmt(m['added_pct'], 0)} ± {fmt(m['added_pct_std'], 0)}%)")
    for b in res["bench"]:
        goal = ""
        if b["goal"]:
            goal = f" (goal ≥ {b['goal']}x: {bench_verdict(b)})"
        how = (f", mean ± sd of {b['paired']} paired rounds, 95% bounds of the mean "
               f"{fmt(b['lo95'], 2)}-{fmt(b['hi95'], 2)}" if b["paired"] else "")
        lines.append(f"bench {b['section']} [{b['profile']}] {b['label']}: "
                     f"{fmt(b['ratio'], 2)} ± {fmt(b['ratio_std'], 2)}x{how}{goal}")
    skipped = [n for n in res["notes"] if n["kind"] == "skip"]
    if skipped:
        lines.append("skipped: " + "; ".join(f"{n['target']} ({n['text']})" for n in skipped))
    return lines


# ------------------------------------------------------------------ report.md
def percore_ledger(res):
    """The per-core ledger (workload percore, issue 20): what one I/O costs, per target and
    engine, as instructions per I/O on the exact clock (the cells' instr_per_io: 10^9 / IOPS);
    with one vCPU that is one core's whole path. On the host's clock only CPU µs per I/O."""
    cells = [c for c in res["cells"] if c["workload"] == "percore"]
    if not cells:
        return []
    L = ["## Per-core ledger (workload percore)", f"clock: {res['clock']}, "
         f"{res['meta'].get('cpus', '-')} vCPU(s); one job (run with --cpus 1 for one core's cost)"]
    rows = [[c["section"], c["target"], c["profile"], pm(c["iops"], c["iops_std"]),
             pm(c.get("instr_per_io"), c.get("instr_per_io_std"), 0),
             pm(c["cpu_us_per_io_stat"], c["cpu_us_per_io_stat_std"]), c["n"]] for c in cells]
    L.append(table(["section", "target", "profile", "IOPS", "instructions/IO",
                    "CPU µs/IO (/proc/stat)", "n"], rows))
    L.append("")
    return L


def run_span(meta):
    """The run's start and end on the host's clock (compare/run) and its wall time. The guest's
    own stamps (guest-run's started/ended) follow the guest's clock, which on the exact clock
    runs at the guest's instruction rate, not the host's: named as such, after the host's."""
    span = f"{meta.get('wall_s', '-')} s wall in total"
    guest = f"{meta.get('started', '-')} → {meta.get('ended', '-')}"
    if meta.get("host_started"):
        return (f"{meta['host_started']} → {meta.get('host_ended', '-')} (host), {span}; "
                f"the matrix guest's clock {guest}")
    return f"{guest}, {span}"


def report_md(res, idx, plots):
    meta = res["meta"]
    exact = res["exact"]

    def pv(m, sd, nd=None):
        """mean ± sd on the host's time; the figure alone on the exact clock (its runs' agreement
        is the determinism check, not a spread)"""
        return pm(m, None if exact else sd, nd)

    def ins(c, key="instr_per_io"):
        return fmt(c.get(key)) if c else "-"

    def det(c):
        d = c.get("determinism")
        if not d or d["pct"] is None:
            return "-"
        return f"{d['pct']:.2f}" + ("" if d["ok"] else " ⚠")
    L = []
    L.append("# ramlld comparison report")
    L.append("")
    L.append("## Environment")
    accel = meta.get("accel", "unknown")
    L.append(table(["", ""], [
        ["command", f"`{meta.get('command', '-')}`"],
        ["kernel", meta.get("kernel", "-")],
        ["tree", meta.get("git", "-")],
        ["CPUs", f"{meta.get('cpus', '-')} ({meta.get('cpu_model', '-')})"],
        ["memory", f"{int(meta.get('mem_kb', 0) or 0) // 1024} MiB"],
        ["accelerator", accel],
        ["clock", res["clock"]],
        ["fio", meta.get("fio", "-")],
        ["level", f"{meta.get('level_name', meta.get('level', '-'))}: {meta.get('repeats', '-')} repeats of "
                  f"{meta.get('runtime', '-')} s (+{meta.get('ramp', '-')} s ramp) per cell"],
        ["devices", f"{meta.get('nluns', '-')} per target of {meta.get('capacity_mb', '-')} MiB, "
                    f"queue depth {meta.get('depth', '-')} where settable, filled once before use"],
        ["host load (1/5 min)", f"start {meta.get('host_load_start', '-')}, "
                                f"end {meta.get('host_load_end', '-')}"],
        ["run", run_span(meta)],
    ] + ([["knob guest", f"{meta['knob_guest']}; {meta.get('knob_guest_wall_s', '-')} s wall"]]
         if meta.get("knob_guest") else [])))
    L.append("")
    if exact:
        L.append("**The guest ran on the exact clock** (`tools/vm/run --clock icount`: QEMU counts "
                 "the instructions the guest executes, 1 instruction = "
                 f"{icount_ns(meta)} ns of guest time, and an idle guest's clock jumps to its next "
                 "timer). Every rate measured in the guest is then an instruction count: "
                 "instructions per I/O (`instr/IO`) = guest CPU time per I/O, the same on every "
                 "run whatever the host does; IOPS are what that count implies at 1 instruction "
                 "per ns. QEMU runs the vCPUs in turn on one host thread, so guest time counts "
                 "the instructions of all vCPUs together: `instr/IO` = 10^9/IOPS is the whole "
                 "path's instructions per I/O, fio included, while the guest is never idle "
                 "(every job submitting). `vCPU-busy ns/IO` (/proc/stat, 1/100 s ticks, the ramp "
                 "counted in) counts a vCPU as busy while it waits for its turn: with k vCPUs "
                 "busy at once it is about k times instr/IO. TCG counts a `rep movs`/`rep "
                 "stos` one iteration per element (a 4 KiB `rep movsb` copy is 4,096 "
                 "instructions), so copies weigh more than on hardware (docs/clock.md). Each cell "
                 "ran twice; `runs apart %` is how far its two runs' IOPS are apart, and a cell "
                 f"above {DETERMINISM_PCT} % is flagged ⚠ (section Determinism).")
    elif accel == "tcg":
        L.append("**The guest ran under TCG (software CPU emulation, no KVM).** Absolute numbers "
                 "(IOPS, µs) mean little here: every instruction is emulated, so they are far from "
                 "hardware and vary between guests. Only ratios between targets measured side by "
                 "side in this one guest carry information.")
    elif accel in ("none (host)", "kvm"):
        L.append(f"Accelerator: {accel}. Ratios measured side by side are still what to compare.")
    L.append("")
    L.append("Metrics: IOPS and MB/s (10^6 B/s) from fio; latency = completion latency (clat) "
             "of the direction with most I/O; CPU µs/IO two ways: fio's usr+sys of its own "
             "threads, and busy time of all CPUs from /proc/stat deltas over the run (includes "
             "softirqs and kernel threads; I/O of the ramp is counted in). `x bio` = IOPS ratio "
             "to ramlld-bio on the same workload and profile. `a ± s` = mean ± sample standard "
             "deviation over the repeats.")
    L.append("")
    if exact:
        bad = [c for c in res["cells"] if (c.get("determinism") or {}).get("ok") is False]
        L.append("## Determinism")
        if bad:
            L.append(f"{len(bad)} of {len(res['cells'])} cells' runs differ by more than "
                     f"{DETERMINISM_PCT} %: their figures are not exact (a timer, a background "
                     "job or a difference in what ran; see guest-run.log):")
            L.append("")
            L += [f"- ⚠ {c['target']} [{c['profile']}] {c['workload']}/{c['section']}: "
                  f"{c['determinism']['what']}" for c in bad]
        else:
            n = sum(1 for c in res["cells"] if (c.get("determinism") or {}).get("ok"))
            L.append(f"Every cell's runs agree within {DETERMINISM_PCT} % ({n} cells checked; "
                     "cells with one run are not checked).")
        L.append("")
    hl = headline(res, idx)
    if hl:
        L.append("## Headline")
        L += [f"- {h}" for h in hl]
        L.append("")
    if res["notes"]:
        L.append("## Notes (skipped targets, warnings)")
        L += [f"- **{n['kind']}** {n['target']}: {n['text']}" for n in res["notes"]]
        L.append("")
    L += res.get("metal", [])
    L.append("## Targets")
    tm = res["target_meta"]
    L.append(table(["target", "group", "what", "queue settings (default profile, read back)"],
                   [[t, (tm.get(t) or {}).get("group", "-"), (tm.get(t) or {}).get("desc", ""),
                     qline(next((c["queue"] for c in res["cells"]
                                 if c["target"] == t and c["profile"] == "default"),
                                next((c["queue"] for c in res["cells"] if c["target"] == t), None)))]
                    for t in res["targets"]]))
    L.append("")
    if res["bench"]:
        L.append("## Bench")
        if any(b["paired"] for b in res["bench"]):
            L.append("The repeats ran interleaved (round r runs repeat r of every target): a / b is "
                     "the mean ± standard deviation of the per-round ratios, which leaves out the "
                     "host's drift from round to round; IOPS a and b are each cell's mean ± sd. "
                     "A goal is met when the one-sided 95% lower bound of the mean ratio "
                     "(Student's t over the rounds) is at or above it, missed when the upper "
                     "bound is below it.")
            L.append("")
        if exact:
            L.append("On the exact clock one run per target decides: a / b is the ratio of the "
                     "two targets' IOPS (= b's instructions per I/O over a's); the second run of "
                     "each only checks that the figure is exact (within "
                     f"{DETERMINISM_PCT} %). A goal is met when a / b is at or above it.")
            L.append("")
        L.append(table(["comparison", "profile", "workload", "IOPS a", "IOPS b",
                        "instr/IO a", "instr/IO b", "a / b",
                        "95% bounds", "goal", "b's ceiling"],
                       [[b["label"], b["profile"], b["section"], pv(b["a_iops"], b["a_std"]),
                         pv(b["b_iops"], b["b_std"]), fmt(b["a_instr"]), fmt(b["b_instr"]),
                         pv(b["ratio"], b["ratio_std"], 3 if exact else 2),
                         f"{fmt(b['lo95'], 2)}-{fmt(b['hi95'], 2)}" if b["paired"] else "-",
                         f"≥ {b['goal']}: {bench_verdict(b)}" if b["goal"] else "-",
                         ceiling_text(res["breakdown"].get(b["b"]), b["goal"])]
                        for b in res["bench"]]))
        L.append("")
        if any((res["breakdown"].get(b["b"]) or {}).get("driver") for b in res["bench"]):
            L.append("b's ceiling: the most any driver could gain over b on b's path, by Amdahl's "
                     "law: b's own share of the busy CPU samples of its 4k randread profile "
                     "(below, 'Where the time goes'), and busy / (busy − own). A goal above it "
                     "is out of any driver's reach on this path; only the rest of the path, "
                     "shared by both, could close it.")
            L.append("")
    import seeds
    L += seeds.markdown(res["seeds"])
    L += res["knobs"]
    import ladder
    L += ladder.markdown(res["ladder"], res["notes"])
    L.append("## Results per workload")
    workloads = sorted({c["workload"] for c in res["cells"]})
    for w in workloads:
        L.append(f"### {w}")
        rows = []
        for c in res["cells"]:
            if c["workload"] != w:
                continue
            rows.append([c["section"], c["profile"], c["target"], pv(c["iops"], c["iops_std"]),
                         pv(c["mbps"], c["mbps_std"]), pv(c["ratio_to_bio"], c["ratio_to_bio_std"], 2),
                         fmt(c["lat_mean_us"]), fmt(c["lat_p50_us"]), fmt(c["lat_p99_us"]),
                         fmt(c["lat_p999_us"]), pv(c["cpu_us_per_io_fio"], c["cpu_us_per_io_fio_std"]),
                         pv(c["cpu_us_per_io_stat"], c["cpu_us_per_io_stat_std"]), c["n"]]
                        + ([ins(c), ins(c, "instr_per_io_stat"), det(c)] if exact else []))
        L.append(table(["section", "profile", "target", "IOPS", "MB/s", "x bio", "lat mean µs",
                        "p50", "p99", "p99.9", "CPU µs/IO (fio)", "CPU µs/IO (/proc/stat)", "n"]
                       + (["instr/IO (10^9/IOPS)", "vCPU-busy ns/IO (/proc/stat)", "runs apart %"]
                          if exact else []),
                       rows))
        L.append("")
    L.extend(percore_ledger(res))
    # block vs SCSI per profile
    L.append("## Block vs SCSI, per queue profile (same store)")
    for p in res["profiles"]:
        rows = []
        for c in res["cells"]:
            if c["profile"] != p or c["target"] != "ramlld-scsi":
                continue
            key = (c["workload"], c["section"])
            b = idx.get(("ramlld-bio", p) + key)
            m = idx.get(("ramlld-mq", p) + key)
            rb = ratio(b["iops"], b["iops_std"], c["iops"], c["iops_std"]) if b else (None, None)
            rm = ratio(m["iops"], m["iops_std"], c["iops"], c["iops_std"]) if m else (None, None)
            rows.append(["/".join(key), pv(b["iops"], b["iops_std"]) if b else "-",
                         pv(m["iops"], m["iops_std"]) if m else "-", pv(c["iops"], c["iops_std"]),
                         pv(*rb, 2), pv(*rm, 2),
                         fmt(b["cpu_us_per_io_stat"]) if b else "-",
                         fmt(m["cpu_us_per_io_stat"]) if m else "-", fmt(c["cpu_us_per_io_stat"])])
        if rows:
            L.append(f"### profile {p}")
            L.append(table(["workload", "bio IOPS", "mq IOPS", "scsi IOPS", "bio/scsi", "mq/scsi",
                            "bio CPU µs/IO", "mq CPU µs/IO", "scsi CPU µs/IO"], rows))
            L.append("")
    if not any(c["target"] == "ramlld-scsi" for c in res["cells"]):
        L.append("No ramlld-scsi cells in this run (see Notes).")
        L.append("")
    # references
    L.append("## Reference drivers (4k, iodepth 32, one job per CPU; QD1 latency)")
    rows = []
    for p in res["profiles"]:
        for t in res["targets"]:
            rr = idx.get((t, p, "qd32", "randread-4k-qd32"))
            rw = idx.get((t, p, "qd32", "randwrite-4k-qd32"))
            l1 = idx.get((t, p, "lat-qd1", "randread-4k-qd1"))
            if not (rr or rw or l1):
                continue
            rows.append([t, p, pv(rr["iops"], rr["iops_std"]) if rr else "-",
                         pv(rr["ratio_to_bio"], rr["ratio_to_bio_std"], 2) if rr else "-",
                         pv(rw["iops"], rw["iops_std"]) if rw else "-",
                         pv(rw["ratio_to_bio"], rw["ratio_to_bio_std"], 2) if rw else "-",
                         fmt(rr["cpu_us_per_io_stat"]) if rr else "-",
                         fmt(l1["lat_p50_us"]) if l1 else "-", fmt(l1["lat_p99_us"]) if l1 else "-",
                         qline(rr["queue"] if rr else (rw or l1)["queue"])]
                        + ([ins(rr), ins(rw), ins(l1)] if exact else []))
    L.append(table(["target", "profile", "randread IOPS", "x bio", "randwrite IOPS", "x bio",
                    "CPU µs/IO (randread)", "QD1 p50 µs", "QD1 p99 µs", "queue (read back)"]
                   + (["randread instr/IO", "randwrite instr/IO", "QD1 instr/IO"]
                      if exact else []), rows))
    L.append("")
    # breakdown
    bd_profiles = sorted({b["profile"] for b in res["breakdown"].values()})
    L.append("## Where the time goes (4k randread, iodepth 32, profile "
             f"{', '.join(bd_profiles) or 'default'}; traced runs, not counted above)")
    if res["midlayer"]:
        L.append("Per-I/O CPU cost the SCSI midlayer adds = CPU µs/IO of ramlld-scsi − ramlld-mq "
                 "(same store, same workload):")
        L.append("")
        L.append(table(["profile", "CPU from", "scsi µs/IO", "mq µs/IO", "added µs/IO", "added %"],
                       [[m["profile"], "/proc/stat" if m["metric"].endswith("stat") else "fio",
                         pv(m["scsi_us"], m["scsi_std"]), pv(m["mq_us"], m["mq_std"]),
                         pv(m["added_us"], m["added_std"]), pv(m["added_pct"], m["added_pct_std"], 0)]
                        for m in res["midlayer"] + res["midlayer_fio"]]))
        sc = (res["breakdown"].get("ramlld-scsi") or {}).get("perf")
        if sc and sc["scsi_functions"]:
            L.append("")
            L.append("It goes to (ramlld-scsi profile, % of all samples): " + ", ".join(
                f"`{f['symbol']}` {fmt(f['pct'], 2)}%" for f in sc["scsi_functions"]) + ".")
        L.append("")
    rows = []
    for t in sorted(res["breakdown"], key=torder(res["target_meta"])):
        b = res["breakdown"][t]["btt"] or {}
        rows.append([t] + [fmt(b[k]["avg_us"]) if k in b else "-"
                           for k in ("Q2G", "G2I", "I2D", "D2C", "Q2C")]
                    + [b.get("Q2C", {}).get("n", "-")])
    if rows:
        L.append("btt averages (µs; bio-based disks only have Q and C events, so only Q2C):")
        L.append("")
        L.append(table(["target", "Q2G", "G2I", "I2D", "D2C", "Q2C", "N"], rows))
        L.append("")
    rows = []
    for t in sorted(res["breakdown"], key=torder(res["target_meta"])):
        pf = res["breakdown"][t]["perf"]
        if not pf:
            continue
        s = pf["share_of_busy_pct"]
        rows.append([t, fmt(pf["share_pct"]["idle"], 1)] +
                    [fmt(s.get(k), 1) for k in ("scsi+sd", "block", "driver", "copy",
                                                "other kernel", "user")] +
                    [ceiling_text(res["breakdown"][t])] +
                    [", ".join(f"`{x['symbol']}` {fmt(x['pct'], 1)}"
                               + (f" ({fmt(x['instr_per_io'])} instr/IO)" if "instr_per_io" in x else "")
                               for x in pf["top_kernel"][:5])])
    if rows:
        L.append("perf (cpu-clock, all CPUs, self time): share of busy samples per class, %; "
                 "idle as % of all samples. In a guest, cpu-clock samples land where interrupts "
                 "are re-enabled (`_raw_spin_unlock_irqrestore`, `handle_softirqs`), so "
                 "'other kernel' holds time that belongs to the code around them; the classes "
                 "are lower bounds. 'driver own → ceiling' is counted on the callchains "
                 "instead: every sample whose nearest caller of note is the driver's own code "
                 "(not the completion it hands back to: bio_endio, blk_mq_end_request, "
                 "scsi_done..., nor an interrupt), as % of busy samples, and the "
                 "Amdahl ceiling busy / (busy − own): the most a driver doing the same at no "
                 "cost could run faster than this one on the same path:")
        L.append("")
        L.append(table(["target", "idle %", "scsi+sd", "block", "driver", "copy", "other kernel",
                        "user", "driver own → ceiling", "top kernel functions (% of all samples)"],
                       rows))
        L.append("")
    rows = instr_function_rows(res) if exact else []
    if rows:
        L.append("Instructions per I/O by function (exact clock, 4k randread QD32 of the "
                 "breakdown): perf's cpu-clock samples every "
                 f"{meta.get('perf_period_ns', '(period not recorded)')} guest ns = "
                 "instructions, so a function's share of the busy samples times the path's "
                 "instructions per I/O (10^9 / IOPS of the matrix cell) is its instructions per "
                 "I/O; a function's figure carries the sampling error of its sample count "
                 "(about ±1/√n: compare totals, which are exact, for small differences). "
                 "'driver own' counts callchains as the table above; 'copy' is the copy "
                 "functions (`copy_page`, `memcpy`, `memset`...) wherever they are called; "
                 "'copy in own' the copy functions sampled under the driver's own functions "
                 "(perf-driver-symbols.txt; '-' for results without it); 'own less copy' is "
                 "the driver's code beside its data copy:")
        L.append("")
        L.append(table(["target", "instr/IO (path)", "driver own", "copy", "copy in own",
                        "own less copy",
                        "top kernel functions, instr/IO"], rows))
        L.append("")
    if not res["breakdown"]:
        L.append("No breakdown in this run (--no-breakdown, or no target ran).")
        L.append("")
    elif not any(b["perf"] for b in res["breakdown"].values()):
        L.append("No perf profile in this run (`--no-perf`, or perf failed: see the notes).")
        L.append("")
    if plots:
        L.append("## Plots")
        L += [f"![{p}]({p})" for p in plots]
        L.append("")
    L.append("## Files")
    L.append("raw/<target>/<profile>/<workload>/<section>/r<N>.json (fio), .cpu (/proc/stat "
             "before/after), .queue (sysfs read back after the run); breakdown/<target>/ "
             "(btt.txt, perf.txt, fio JSON of the traced runs); results.csv, results.json; "
             "guest-run.log.")
    # every section says which clock made its figures
    out = []
    for line in L:
        out.append(line)
        if line.startswith("## The knob table") and meta.get("knob_guest"):
            # measured in the knob guest (compare/run, the exact quick level), not the matrix's
            out.append(f"*clock: the knob guest's, {meta['knob_guest']}*")
            out.append("")
        elif line.startswith("## "):
            out.append(f"*clock: {res['clock']}*")
            out.append("")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ plots
def plots(root, res, idx):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("report.py: no matplotlib in this python3: no plots (apt-get install "
              "python3-matplotlib)", file=sys.stderr)
        return []
    made = []

    def save(fig, ax, name, legend_size):
        """Finish a plot: legend, layout, PNG in root, listed in made."""
        ax.legend(fontsize=legend_size)
        fig.tight_layout()
        fig.savefig(os.path.join(root, name), dpi=90)
        plt.close(fig)
        made.append(name)

    ts, ps = res["targets"], res["profiles"]
    # IOPS per target x profile (qd32)
    for s in ("randread-4k-qd32", "randwrite-4k-qd32"):
        ps = [p for p in res["profiles"] if any(idx.get((t, p, "qd32", s)) for t in ts)]
        if not ps:
            continue
        fig, ax = plt.subplots(figsize=(max(6, len(ts) * 1.1), 4))
        wdt = 0.8 / max(1, len(ps))
        for i, p in enumerate(ps):
            xs, ys, es = [], [], []
            for j, t in enumerate(ts):
                c = idx.get((t, p, "qd32", s))
                if c:
                    xs.append(j + i * wdt)
                    ys.append(c["iops"] / 1e3)
                    es.append((c["iops_std"] or 0) / 1e3)
            ax.bar(xs, ys, wdt, yerr=es, label=p, capsize=2)
        ax.set_xticks([j + wdt * (len(ps) - 1) / 2 for j in range(len(ts))])
        ax.set_xticklabels(ts, rotation=30, ha="right", fontsize=8)
        ax.set_ylabel("kIOPS")
        ax.set_title(f"{s}: IOPS per target and queue profile")
        save(fig, ax, f"iops-{s}.png", 8)
    # latency percentiles at QD1
    lat = [(t, idx.get((t, "default", "lat-qd1", "randread-4k-qd1"))) for t in ts]
    lat = [(t, c) for t, c in lat if c and c["lat_p50_us"]]
    if lat:
        fig, ax = plt.subplots(figsize=(max(6, len(lat) * 1.1), 4))
        keys = [("lat_p50_us", "p50"), ("lat_p99_us", "p99"), ("lat_p999_us", "p99.9")]
        wdt = 0.8 / len(keys)
        for i, (k, lab) in enumerate(keys):
            ax.bar([j + i * wdt for j in range(len(lat))], [c[k] or 0 for _, c in lat], wdt, label=lab)
        ax.set_xticks([j + wdt for j in range(len(lat))])
        ax.set_xticklabels([t for t, _ in lat], rotation=30, ha="right", fontsize=8)
        ax.set_ylabel("completion latency (µs)")
        ax.set_title("4k randread QD1 latency percentiles (default profile)")
        save(fig, ax, "latency-qd1.png", 8)
    import seeds
    import ladder
    return made + seeds.plots(root, res["seeds"], plt) + ladder.plot(root, res["ladder"], plt)


def write_csv(root, res):
    cols = ["target", "profile", "workload", "section", "n"]
    for m in METRICS:
        cols += [m, m + "_std"]
    cols += ["ratio_to_bio", "ratio_to_bio_std"] + ["q_" + k for k in QUEUE_KEYS]
    with open(os.path.join(root, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for c in res["cells"]:
            row = []
            for k in cols:
                v = c["queue"].get(k[2:]) if k.startswith("q_") else c.get(k)
                row.append("" if v is None else (f"{v:.6g}" if isinstance(v, float) else v))
            w.writerow(row)


def main(argv):
    ap = argparse.ArgumentParser(prog="report.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", metavar="DIR", nargs="?", help="the results folder")
    ap.add_argument("--quiet", action="store_true", help="print nothing but errors")
    ap.add_argument("--perf-parents", action="store_true",
                    help="print the regex compare/guest-run gives `perf report --parent` for the "
                         "drivers' own share (every target's own functions, from DIR's "
                         "targets.tsv or the target files), and nothing else")
    a = ap.parse_args(argv)
    if a.perf_parents:
        if a.dir and not os.path.isdir(a.dir):
            ap.error(f"no results folder '{a.dir}'")
        print(perf_parents(load_targets(a.dir)))
        return 0
    if not a.dir:
        ap.error("give one results folder (DIR)")
    root = a.dir
    if not os.path.isdir(root):
        ap.error(f"no results folder '{root}'")
    res, idx = build(root)
    made = plots(root, res, idx)
    write_csv(root, res)
    with open(os.path.join(root, "results.json"), "w") as f:
        json.dump(res, f, indent=1, default=str)
    with open(os.path.join(root, "report.md"), "w") as f:
        f.write(report_md(res, idx, made))
    if not a.quiet:
        print(f"report.py: {len(res['cells'])} cells, {len(res['targets'])} targets, "
              f"{len(res['profiles'])} profiles -> {os.path.join(root, 'report.md')}")
        for h in headline(res, idx):
            print("  " + h)
        import ladder
        for h in ladder.text(res["ladder"]):
            print("  " + h)
        if res["bench"]:
            print("  effective queue settings (read back from sysfs after each run):")
            seen = set()
            for c in res["cells"]:
                if (c["target"], c["profile"]) in seen:
                    continue
                seen.add((c["target"], c["profile"]))
                print(f"    {c['target']:16} [{c['profile']}] {c['queue'].get('dev', '-')}: "
                      f"{qline(c['queue'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

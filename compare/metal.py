# SPDX-License-Identifier: GPL-2.0
"""compare/metal.py: the report section of a bare-metal run (compare/bare-metal): the facts of
the host's clock (CPU frequency, turbo, SMT, idle states, interrupt vectors: facts.txt) and the
hardware counters' instructions and cycles per I/O, user and kernel apart, from the perf stat
counts around each cell (raw/.../rN.pmu) over fio's I/O count, with each cell's IOPS and its 95 %
bounds over the interleaved rounds."""
import glob
import os
import re
import statistics

from lib import fio
from lib.env import read_env
from lib.facts import lines_of, read as read_facts, value as kv
from lib.fmt import table

EVENTS = ("instructions:u", "instructions:k", "cycles:u", "cycles:k")
# the interrupt vectors worth naming: storage and virtual devices (the rest stay in facts.txt)
DEVICE_IRQ = re.compile(r"nvme|virtio|ahci|ata|scsi|sas|mpt|megasas|megaraid|mlx|ixgbe|i40e|ice|bnxt|xhci|ufs|mmc")


def parse_pmu(path):
    """{event: count} of a `perf stat -x,` file; None for an event perf could not count."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            w = line.rstrip("\n").split(",")
            if len(w) < 3:
                continue
            try:
                out[w[2]] = float(w[0])
            except ValueError:
                out[w[2]] = None  # <not supported>, <not counted>
    return out


def bounds95(xs):
    """(low, high) of the mean's two-sided 95 % interval (Student's t), None under 2 values."""
    if len(xs) < 2:
        return None
    m, s = statistics.mean(xs), statistics.stdev(xs)
    try:
        from scipy import stats
        t = stats.t.ppf(0.975, len(xs) - 1)
    except ImportError:
        t = {2: 12.71, 3: 4.30, 4: 3.18, 5: 2.78}.get(len(xs), 2.0)
    h = t * s / len(xs) ** 0.5
    return m - h, m + h


def cells(root):
    """Per cell (target, profile, workload, section): its runs' IOPS and per-I/O counts."""
    out = {}
    for pmu in sorted(glob.glob(os.path.join(root, "raw", "*", "*", "*", "*", "r*.pmu")) +
                      glob.glob(os.path.join(root, "raw", "*", "*", "*", "sections.r*.pmu"))):
        rel = os.path.relpath(pmu, os.path.join(root, "raw")).split(os.sep)
        rep = re.search(r"r(\d+)\.pmu$", rel[-1]).group(1)
        if rel[-1].startswith("sections."):
            # a one-run workload: its sections' I/Os together
            t, p, w = rel[:3]
            runs = glob.glob(os.path.join(root, "raw", t, p, w, "*", f"r{rep}.json"))
            key = (t, p, w, "+".join(sorted(os.path.basename(os.path.dirname(r)) for r in runs)))
        else:
            t, p, w, s = rel[:4]
            d = os.path.dirname(pmu)
            runs = [x for x in (os.path.join(d, f"r{rep}.json"), os.path.join(d, f"r{rep}.dd.json"))
                    if os.path.exists(x)]
            key = (t, p, w, s)
        counts = [fio.counts(fio.read(r)) for r in runs]
        ios, iops = sum(c[0] for c in counts), sum(c[1] for c in counts)
        counts = parse_pmu(pmu)
        c = out.setdefault(key, {"iops": [], "per_io": {e: [] for e in EVENTS}})
        c["iops"].append(iops)
        for e in EVENTS:
            v = counts.get(e)
            if v is not None and ios:
                c["per_io"][e].append(v / ios)
    return out


def facts(root):
    """The facts file's lines of the first record (before the run) and the vectors after it."""
    records = read_facts(os.path.join(root, "facts.txt"))
    if records is None:
        return None
    return lines_of(records, "before"), lines_of(records, "after")


def fmt(x, nd=0):
    return "-" if x is None else f"{x:,.{nd}f}"


def markdown(root):
    """The section (a list of lines); [] for a run that was not on bare metal."""
    meta = read_env(os.path.join(root, "meta.env"))
    if meta.get("bare_metal") != "1":
        return []
    fx = facts(root)
    L = ["## Bare metal: the host's clock and its hardware counters",
         "Ran on this machine's own kernel (`compare/bare-metal`: it loaded each target's module "
         "and unloaded it after). The clock is the host's: every rate moves with the CPU's "
         "frequency, its idle states and whatever else runs, so the repeats ran in interleaved "
         "rounds (round r ran repeat r of every target) and each cell's IOPS carry the 95 % "
         "bounds of their mean over the rounds.", ""]
    if fx:
        b, a = fx
        states = [x.split(" ", 3)[3] for x in b if x.startswith("cpuidle cpu0 state")]
        L.append("Facts of the clock (facts.txt, read before and after the run):")
        L.append("")
        L.append(f"- CPU frequency: driver {kv(b, 'cpufreq_driver')}, governors {kv(b, 'governors')}; "
                 f"turbo: intel_pstate no_turbo={kv(b, 'intel_pstate_no_turbo')}, "
                 f"cpufreq boost={kv(b, 'cpufreq_boost')}, amd_pstate {kv(b, 'amd_pstate_status')}")
        L.append(f"- SMT: control {kv(b, 'smt_control')}, active {kv(b, 'smt_active')} "
                 f"(CPU 0's siblings {kv(b, 'thread_siblings_cpu0')})")
        L.append(f"- idle: cpuidle driver {kv(b, 'cpuidle_driver')}, governor "
                 f"{kv(b, 'cpuidle_governor')}; CPU 0's states: "
                 + ("; ".join(s.split(" usage=")[0] for s in states) if states else "none"))
        L.append(f"- irqbalance {kv(b, 'irqbalance')}; NMI watchdog {kv(b, 'nmi_watchdog')} "
                 "(it holds a counter of the PMU while on)")
        irqs_b = {x.split()[1]: x for x in b if x.startswith("irq ")}
        irqs_a = {x.split()[1]: x for x in a if x.startswith("irq ")}
        dev = [x for x in irqs_b.values() if DEVICE_IRQ.search(x.split(" name=", 1)[-1])]
        moved = [n for n in irqs_b if n in irqs_a and irqs_a[n].split(" name=")[0] != irqs_b[n].split(" name=")[0]]
        L.append(f"- interrupt vectors: {len(irqs_b)} ({len(dev)} of storage or virtual devices"
                 + (": " + "; ".join(f"{x.split()[1]} {x.split(' name=', 1)[1].split()[-1]} on "
                                     f"{x.split()[2].split('=')[1]}" for x in dev[:16])
                    + (" …" if len(dev) > 16 else "") if dev else "")
                 + "); " + (f"moved during the run: {', '.join(moved)}" if moved else
                            "none moved during the run")
                 + ". The targets measured here complete in software (no vector of their own).")
        L.append("")
    if meta.get("pmu") != "yes":
        L.append(f"**No PMU here** ({meta.get('pmu_why', 'perf stat counted nothing')}): no "
                 "instructions or cycles per I/O from the hardware counters in this run; the "
                 "rest ran as on any machine.")
        L.append("")
        return L
    cs = cells(root)
    L.append(f"Hardware counters: `perf stat -a -e {meta.get('pmu_events', ','.join(EVENTS))}` "
             "around each cell's fio (or dd) run, every CPU, divided by the I/Os fio reports: "
             "instructions per I/O in the exact clock's unit (the whole path, fio's own "
             "user-space work and every kernel thread included). The count spans fio's whole "
             "run (its start-up and ramp too), the I/Os only its measured time: a little above "
             "the path's own cost, more so for short runs. `u`/`k`: user and kernel; IPC = "
             "instructions / cycles. Figures: the mean over the rounds.")
    L.append("")
    head = ["target", "profile", "workload/section", "runs", "IOPS", "IOPS 95 % bounds",
            "instr/IO u", "instr/IO k", "cycles/IO u", "cycles/IO k", "IPC"]
    rows = []
    for (t, p, w, s), c in sorted(cs.items()):
        m = {e: statistics.mean(v) if v else None for e, v in c["per_io"].items()}
        # IPC over the whole path: only with all four counted
        ipc = (None if None in m.values() or not m["cycles:u"] + m["cycles:k"] else
               (m["instructions:u"] + m["instructions:k"]) / (m["cycles:u"] + m["cycles:k"]))
        b = bounds95(c["iops"])
        rows.append([t, p, f"{w}/{s}", str(len(c["iops"])), fmt(statistics.mean(c["iops"])),
                     f"{fmt(b[0])}..{fmt(b[1])}" if b else "-",
                     fmt(m["instructions:u"]), fmt(m["instructions:k"]), fmt(m["cycles:u"]),
                     fmt(m["cycles:k"]), fmt(ipc, 2)])
    if rows:
        L += table(head, rows).split("\n")
    else:
        L.append("No cell has counts (raw/.../rN.pmu): see the notes.")
    L.append("")
    return L

# SPDX-License-Identifier: GPL-2.0
"""The knob table's configurations and its report section (compare/knobs.py measures it in
the guest into OUT/knobs.jsonl): what rq_affinity, the scheduler and add_random each do to
ramlld's mq and SCSI paths when completions arrive on one CPU (seed 001's question).

configs() / pick(names): the configurations in table order; load(out) reads OUT/knobs.jsonl;
markdown(out) -> the report section's lines (the table per workload, the gap per knob, a
verdict per knob); run_count(): the runs compare/knobs.py makes.
"""
import json
import os
import statistics

from .fmt import runtime, table

KNOBS = ("rq_affinity", "scheduler", "add_random")
DEFAULT = {"rq_affinity": "1", "scheduler": "mq-deadline", "add_random": "1"}
SEED001 = {"rq_affinity": "2", "scheduler": "none", "add_random": "0"}
ALTERNATIVES = {"rq_affinity": ["0", "1", "2"], "scheduler": ["none", "mq-deadline"],
                "add_random": ["0", "1"]}
LOAD_ARGS = ["mode=all", "capacity_mb=256", "prealloc=1", "irqmode=1", "irq_cpus=0",
             "rotational=1"]
# The per-submitter configurations' irq_cpus: a vector per CPU, so a hw queue per CPU (irq_cpus
# sets the number of hw queues at load). Emptying irq_cpus at run time instead keeps the one hw
# queue, and blk-mq then completes through ksoftirqd (docs/knobs.md): not what such a device does.
PER_CPU = "per-cpu"


def load_args(irq_cpus, ncpu=None):
    """LOAD_ARGS with irq_cpus "0", or PER_CPU: 0,1,..,ncpu-1."""
    if irq_cpus != PER_CPU:
        return list(LOAD_ARGS)
    cpus = ",".join(str(c) for c in range(ncpu or os.cpu_count()))
    return [a if not a.startswith("irq_cpus=") else f"irq_cpus={cpus}" for a in LOAD_ARGS]
# An IOPS change counts as the knob's effect when it is larger than this floor and than twice
# the larger spread of the two cells' repeats: on the exact clock SMP runs agree within 0.8 %
# (docs/clock.md), on the host's clock a TCG guest swings by tens of percent (docs/benches.md).
FLOOR_PCT = {"icount": 1.0, "host": 10.0}


def config_names():
    return [c[0] for c in configs()]


def pick(names):
    """The configurations named (a list of names; None or [] for all), in table order; a
    ValueError names a bad one and the allowed names."""
    if not names:
        return configs()
    bad = [n for n in names if n not in config_names()]
    if bad:
        raise ValueError(f"bad configuration '{bad[0]}' (allowed: " + ", ".join(config_names())
                         + ")")
    return [c for c in configs() if c[0] in names]


def configs():
    """(name, base, knob settings, irq_cpus: "0" or PER_CPU) in table order."""
    out = []
    for base_name, base in (("default", DEFAULT), ("seed-001", SEED001)):
        out.append((base_name, base_name, dict(base), "0"))
        for knob in KNOBS:
            for val in ALTERNATIVES[knob]:
                if val != base[knob]:
                    s = dict(base)
                    s[knob] = val
                    out.append((f"{base_name} {knob}={val}", base_name, s, "0"))
        out.append((f"{base_name} per-submitter", base_name, dict(base), PER_CPU))
    return out


def spread(xs):
    """Mean and spread ((max − min) / mean, %) of a cell's repeats."""
    m = statistics.mean(xs)
    return m, (max(xs) - min(xs)) / m * 100 if m and len(xs) > 1 else None


def fmt_counters(per_cpu):
    irq = "/".join(str(per_cpu[c]["irq"]) for c in sorted(per_cpu, key=int))
    done = "/".join(str(per_cpu[c]["done"]) for c in sorted(per_cpu, key=int))
    return f"{irq} \\| {done}"


PER_IO = ("ctxt", "ksoftirqd", "block_softirq", "ipi_cal", "ipi_iwi")


def fmt_per_io(run):
    """A run's per-I/O counts in PER_IO order ("-" for a run recorded before they were)."""
    p = run.get("per_io")
    if not p:
        return "-"
    return "/".join("-" if p.get(k) is None else f"{p[k]:.2f}" for k in PER_IO)


def pct(s):
    return "-" if s is None else f"{s:.2f} %"


def load(out_dir):
    """(meta, runs) of OUT/knobs.jsonl, or (None, []) when there is none. A knob step killed
    while writing leaves the file empty, or its last line cut: that line is left out (meta
    None, or no runs)."""
    path = os.path.join(out_dir, "knobs.jsonl")
    if not os.path.exists(path):
        return None, []
    with open(path, encoding="utf-8") as f:
        lines = [line for line in f if line.strip()]
    rows = []
    for i, line in enumerate(lines):
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            if i != len(lines) - 1:
                raise
    if not rows or "meta" not in rows[0]:
        return None, []
    return rows[0]["meta"], rows[1:]


def no_rows(out_dir, level="##"):
    """The section's lines when OUT/knobs.jsonl exists but holds no run (the knob step was
    killed or failed before its first one), so the report says so; [] otherwise."""
    path = os.path.join(out_dir, "knobs.jsonl")
    if not os.path.exists(path) or load(out_dir)[1]:
        return []
    return [f"{level} The knob table (seed 001)", "",
            "Not measured: the knob step produced no rows (knobs/knobs.jsonl holds no run; "
            "see run-knobs.log or the guest's log for why it stopped).", ""]


def effect(b, v, floor, w_noise=None):
    """The verdict words for an IOPS change from cell b to cell v (each (mean, spread)); w_noise:
    the largest spread of the workload's cells run twice, standing for a cell run once."""
    change = 100 * (v[0] - b[0]) / b[0]
    noise = max(floor, 2 * max(b[1] or 0, v[1] or 0, w_noise or 0))
    if abs(change) <= noise:
        return change, f"{change:+.1f} % (no effect beyond ±{noise:.1f} %)"
    return change, f"**{change:+.1f} %**"


def analyse(meta, runs):
    """Per workload: the bio baseline, each configuration's mq and sd cells, the gaps."""
    out = {}
    for workload in sorted({r["workload"] for r in runs}):
        w = [r for r in runs if r["workload"] == workload]
        bio = spread([r["iops"] for r in w if r["path"] == "bio"])
        cells = {}
        for name, _, _, _ in configs():
            for fe in ("mq", "scsi"):
                rs = [r for r in w if r["path"] == fe and r["config"] == name]
                if rs:
                    m, s = spread([r["iops"] for r in rs])
                    cells[(name, fe)] = {"iops": m, "spread": s, "runs": rs,
                                         "cpu_us_per_io": statistics.mean(
                                             r["cpu_us_per_io"] for r in rs)}
        spreads = [c["spread"] for c in cells.values() if c["spread"] is not None]
        spreads += [bio[1]] if bio[1] is not None else []
        out[workload] = {"bio": bio, "cells": cells, "noise": max(spreads, default=None)}
    return out


def markdown(out_dir, level="##", guest=None):
    """The report section (a list of lines; [] when the run has no knob table). guest: how
    compare/run's knob guest was shaped (meta.env's knob_guest), when the table was measured
    in a guest of its own rather than the matrix's."""
    meta, runs = load(out_dir)
    if not meta or not runs:
        return no_rows(out_dir, level)
    clock = meta.get("clock", "host")
    exact = clock == "icount"
    floor = FLOOR_PCT["icount" if exact else "host"]
    topo = meta.get("topology") or "QEMU's default"
    llc = ", ".join(meta.get("llc_groups") or []) or "not read"
    L = [f"{level} The knob table: rq_affinity, scheduler, add_random with completions on one "
         "CPU (seed 001)", "",
         f"Kernel {meta['kernel']}, clock **{clock}**"
         + (f" (QEMU {meta['qemu']}; 1 instruction = 1 ns, all vCPUs' instructions on one "
            "clock: 10^9 / IOPS is the instructions per I/O of the whole path, summed over the "
            "CPUs)" if exact else " (host time under TCG: figures swing with the host's load)")
         + f", {meta['cpus']} vCPUs ({topo}; last-level cache shared by CPUs {llc}), "
         + (f"ramlld loaded `{' '.join(meta['load'])}` (bio, mq and sd on one store; every mq "
            "and sd completion raised as a hard interrupt on CPU 0, one hw queue), "
            if any(r.get("irq_cpus", "0") == "0" for r in runs if r["path"] != "bio") else
            "bio, mq and sd on one store, ")
         + f"{meta['repeats']} repeat(s) of {runtime(meta['runtime'])} per cell; workloads: "
         + ", ".join(w for k, w in (
             ("dd", f"`dd`, tools/percpu-load's real dd processes, {meta['procs_per_cpu']} "
              "pinned to each CPU (seed 001's load; IOPS over the I/O window)"),
             ("qd32", "`qd32`, fio 4k randread libaio iodepth 32, one job pinned to each CPU"))
             if k in {r["workload"] for r in runs})
         + ". Configurations: the kernel's defaults for such a disk "
         "(rq_affinity=1, mq-deadline, add_random=1) and seed 001's tuning (2, none, 0), each "
         "with one knob changed; per-submitter, the NVMe-like reference: ramlld loaded again "
         + (f"`{' '.join(meta['load_per_cpu'])}`" if meta.get("load_per_cpu") else
            "(this run: irq_cpus emptied at run time, the one hw queue kept, so the block layer "
            "completed in ksoftirqd, docs/knobs.md)")
         + ", a hw queue and a vector per CPU: each completion a hard interrupt on its "
         "submitter. Per-I/O counts: whole-guest counts over the run divided by the reads the "
         "disk was given (/sys/block/X/stat: completed + merged). Spread: "
         "(max − min) / mean of a cell's "
         "runs; with one repeat the defaults and the bio baseline run a second time at the end "
         "of each workload, and the larger of their spreads stands for every cell of that "
         f"workload. An IOPS change is a knob's effect when it exceeds ±{floor:.0f} % "
         + ("(SMP runs on this clock agree within 0.8 % in docs/clock.md's fio runs)" if exact
            else "(host-clock noise under TCG)") + " and twice that spread.",
         ""]
    if guest:
        L[-1:-1] = ["", f"Measured in a guest of its own, the knob guest ({guest}), booted after the "
                    "matrix's guest into the same results folder: every figure of this section "
                    "comes from that guest, every other section's from the matrix's (see "
                    "Environment)."]
    res = analyse(meta, runs)
    verdicts = []
    for workload, a in res.items():
        bio, cells = a["bio"], a["cells"]
        names = [n for n, _, _, _ in configs() if (n, "mq") in cells and (n, "scsi") in cells]
        if not names:
            L += [f"**{workload}**: bio baseline {bio[0]:,.0f} IOPS; no configuration has both its "
                  "mq and its sd cell (the run ended first).", ""]
            continue
        L += [f"**{workload}**: bio baseline {bio[0]:,.0f} IOPS (spread {pct(bio[1])})"
              + (f", {1e9 / bio[0]:,.0f} instructions per I/O" if exact else "") + ":", ""]
        head = ["configuration", "mq IOPS (spread)", "sd IOPS (spread)", "bio / sd",
                "mq / sd"]
        head += (["instr./I/O mq", "instr./I/O sd"] if exact else ["CPU µs/IO mq", "CPU µs/IO sd"])
        head += ["read back mq; sd (rq_affinity scheduler add_random nr_requests hw queues)",
                 "mq interrupts \\| completions per CPU", "sd interrupts \\| completions per CPU",
                 "per I/O mq; sd: context switches / ksoftirqd runs / BLOCK softirqs / "
                 "call IPIs / irq_work IPIs"]
        rows = []
        for name, _, _, _ in configs():
            mq, sd = cells.get((name, "mq")), cells.get((name, "scsi"))
            if not mq or not sd:
                continue
            rb = "; ".join(" ".join(c["runs"][-1]["settings"].get(k, "-") for k in
                                    ("rq_affinity", "scheduler", "add_random", "nr_requests",
                                     "hw_queues"))
                           for c in (mq, sd))
            cost = ([f"{1e9 / mq['iops']:,.0f}", f"{1e9 / sd['iops']:,.0f}"] if exact else
                    [f"{mq['cpu_us_per_io']:.1f}", f"{sd['cpu_us_per_io']:.1f}"])
            rows.append(
                [name, f"{mq['iops']:,.0f} ({pct(mq['spread'])})",
                 f"{sd['iops']:,.0f} ({pct(sd['spread'])})", f"{bio[0] / sd['iops']:.3f}",
                 f"{mq['iops'] / sd['iops']:.3f}"] + cost
                + [rb, fmt_counters(mq["runs"][-1]["per_cpu"]),
                   fmt_counters(sd["runs"][-1]["per_cpu"]),
                   f"{fmt_per_io(mq['runs'][-1])}; {fmt_per_io(sd['runs'][-1])}"])
        L += table(head, rows).split("\n") + [""]
        # seed 001's question: the block-vs-SCSI gap (bio / sd) knob by knob
        d, s1 = cells.get(("default", "scsi")), cells.get(("seed-001", "scsi"))
        if d and s1:
            L.append(f"Seed 001's gap on `{workload}` (bio / sd): {bio[0] / d['iops']:.3f} under "
                     f"the defaults, {bio[0] / s1['iops']:.3f} under rq_affinity=2 + none + "
                     f"add_random=0, {bio[0] / cells[('seed-001 per-submitter', 'scsi')]['iops']:.3f}"
                     " with completions on the submitter (a hw queue and a vector per CPU)."
                     if ("seed-001 per-submitter", "scsi") in cells else
                     f"Seed 001's gap on `{workload}` (bio / sd): {bio[0] / d['iops']:.3f} under "
                     f"the defaults, {bio[0] / s1['iops']:.3f} under seed 001's tuning.")
            L.append("")
        for knob in KNOBS:
            for base, to in (("default", SEED001[knob]), ("seed-001", DEFAULT[knob])):
                name = f"{base} {knob}={to}"
                if (name, "mq") not in cells or (base, "mq") not in cells:
                    continue
                if (name, "scsi") not in cells or (base, "scsi") not in cells:
                    # a knob guest that ended between the mq and the sd run of a setting
                    verdicts.append(f"- **{knob}** ({workload}), {base} → {to}: sd not "
                                    "measured (the knob guest ended first), no verdict")
                    continue
                parts, gap = [], ""
                for fe, label in (("mq", "mq"), ("scsi", "sd")):
                    b, v = cells[(base, fe)], cells[(name, fe)]
                    _, words = effect((b["iops"], b["spread"]), (v["iops"], v["spread"]), floor,
                                      a["noise"])
                    parts.append(f"{label} {words}")
                    if fe == "scsi":
                        gap = (f"; bio / sd {bio[0] / b['iops']:.3f} → "
                               f"{bio[0] / v['iops']:.3f}")
                verb = "setting" if base == "default" else "reverting"
                verdicts.append(f"- **{knob}** ({workload}), {verb} it to {to} from {base}: "
                                + ", ".join(parts) + gap)
        L.append("")
    L += [f"{level}# A verdict per knob", "",
          "Each knob changed alone, from the defaults to seed 001's value and back from seed "
          "001's tuning (IOPS change of mq and sd against the base configuration; bold: beyond "
          "the noise rule above):", ""] + verdicts + [""]
    return L


def not_measured(meta):
    """The section's lines when the run has no table: the knob guest ended first (meta.env's
    knob_guest), or guest-run was told not to measure it (knobs=0), so a report without it says
    why and how to get it; [] otherwise."""
    if meta.get("knob_guest"):
        return ["## The knob table (seed 001)", "",
                f"Not measured: the knob guest ({meta['knob_guest']}) ended before it wrote a "
                "run of the table (see the notes and run-knobs.log).", ""]
    if meta.get("knobs") != "0":
        return []
    return ["## The knob table (seed 001)", "",
            "Not measured in this run: `--no-knobs`, or a selection (`--only`, `--targets`, "
            "`--profiles`) without `--knobs`. A whole level measures it (at the exact quick "
            "level in a knob guest of 2 vCPUs after the matrix's guest, docs/knobs.md).", ""]


def run_count(workloads, repeats, only=None):
    """The runs measure() makes: per repeat and workload the bio baseline and each chosen
    configuration on mq and sd; with one repeat, per workload the first configuration and bio
    once more (measure_group's again)."""
    n = len(workloads) * repeats * (1 + 2 * len(pick(only)))
    return n + (len(workloads) * 3 if repeats == 1 else 0)

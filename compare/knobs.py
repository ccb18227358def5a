#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# compare/knobs.py: the knob table (rq_affinity, scheduler, add_random with the
# completions on one CPU) measured in the guest (tools/knob-table, compare/guest-run);
# compare/lib/knobtable.py holds its configurations and writes its report section.
"""The knob table's measurement: what rq_affinity, the scheduler and add_random each do to
ramlld's mq and SCSI paths when completions arrive on one CPU (seed 001's question).

measure(out, runtime, repeats, procs_per_cpu, workloads, ko, ...) runs in the guest: it loads
ramlld (mode=all: bio, mq and sd on one store; irqmode=1 irq_cpus=0: one interrupt vector on
CPU 0, one hw queue; rotational=1: sd keeps add_random=1; prealloc=1) and, for each repeat,
each workload and each configuration, sets the queue knobs of the mq and sd disks, reads them
back and measures IOPS, CPU per I/O, per-I/O scheduler counts and the per-CPU
interrupt/completion counters of /sys/kernel/debug/ramlld/completions (sd's: ends_start()).
The per-submitter configurations (the NVMe-like reference) run after a second load with
irq_cpus=0,1,..,N-1: a hw queue and a vector per CPU. The bio disk, which no knob touches, is measured once per repeat
and workload as the baseline. Results: OUT/knobs.jsonl, one line per run.
"""
import json
import os
import re
import subprocess
import sys
import time

from lib import fio
from lib.knobtable import KNOBS, LOAD_ARGS, PER_CPU, config_names, load_args, pick, run_count

COUNTERS = "/sys/kernel/debug/ramlld/completions"
PARAMS = "/sys/module/ramlld/parameters"


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def write(path, val):
    with open(path, "w", encoding="utf-8") as f:
        f.write(val + "\n")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read().strip()


def counters():
    """{(column, cpu): value} of the debugfs counters."""
    lines = read(COUNTERS).splitlines()
    cols = lines[0].split()
    out = {}
    for line in lines[1:]:
        v = line.split()
        for i, c in enumerate(cols[1:], 1):
            out[(c, int(v[0]))] = int(v[i])
    return out


def busy_jiffies():
    f = read("/proc/stat").splitlines()[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in f[:8])
    return user + nice + system + irq + softirq + steal


def sched_counters():
    """System-wide counts that say how a completion reached its waiter: context switches
    (/proc/stat ctxt), runs of the ksoftirqd threads (their context switches), BLOCK softirqs
    (/proc/softirqs) and the function-call and irq_work IPIs (/proc/interrupts CAL, IWI)."""
    out = {"ctxt": 0, "ksoftirqd": 0, "block_softirq": 0, "ipi_cal": 0, "ipi_iwi": 0}
    for line in read("/proc/stat").splitlines():
        if line.startswith("ctxt "):
            out["ctxt"] = int(line.split()[1])
    for line in read("/proc/softirqs").splitlines():
        if line.split()[:1] == ["BLOCK:"]:
            out["block_softirq"] = sum(int(x) for x in line.split()[1:])
    for line in read("/proc/interrupts").splitlines():
        f = line.split()
        key = {"CAL:": "ipi_cal", "IWI:": "ipi_iwi"}.get(f[0] if f else "")
        if key:
            out[key] = sum(int(x) for x in f[1:1 + os.cpu_count()] if x.isdigit())
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            status = read(f"/proc/{pid}/status")
        except OSError:
            continue
        if not re.search(r"^Name:\s+ksoftirqd/", status, re.M):
            continue
        out["ksoftirqd"] += sum(int(x) for x in re.findall(r"ctxt_switches:\s+(\d+)", status))
    return out


def apply(disk, settings):
    q = f"/sys/block/{disk}/queue"
    for knob in KNOBS:
        if knob in settings:
            write(f"{q}/{knob}", settings[knob])


def read_back(disk):
    q = f"/sys/block/{disk}/queue"
    out = {k: read(f"{q}/{k}") for k in ("rq_affinity", "add_random", "nr_requests", "iostats")}
    out["hw_queues"] = str(len(os.listdir(f"/sys/block/{disk}/mq")))
    m = re.search(r"\[(\S+)\]", read(f"{q}/scheduler"))
    out["scheduler"] = m.group(1) if m else read(f"{q}/scheduler")
    return out


def seconds(runtime):
    """A run's length, "2" (seconds) or "500ms", in seconds; a ValueError names a bad one."""
    m = re.fullmatch(r"([1-9][0-9]*)(ms)?", str(runtime))
    if not m:
        raise ValueError(f"bad value '{runtime}' (allowed: whole seconds >= 1, or NNNms)")
    return int(m.group(1)) / (1000 if m.group(2) else 1)


def lengths(spec, workloads):
    """{workload: its runs' length} of --runtime's "LEN[,WORKLOAD=LEN...]" ("500ms,dd=1": dd's
    runs 1 s, the others' 500 ms); a ValueError names a bad part."""
    first, *rest = str(spec).split(",")
    seconds(first)
    out = {w: first for w in workloads}
    for part in rest:
        w, eq, length = part.partition("=")
        if not eq or w not in ("dd", "qd32"):
            raise ValueError(f"bad part '{part}' (allowed: dd=LEN or qd32=LEN after the length)")
        seconds(length)
        if w in out:
            out[w] = length
    return out


def run_workload(top, workload, dev, runtime, procs_per_cpu):
    """(I/Os, IOPS): dd's over its I/O window (the first dd's own start to the last one's
    end: process start-up left out, as the report's seed 001 does), fio's over its run
    (runtime: "2" or "500ms")."""
    if workload == "dd":
        out = sh([os.path.join(top, "tools/percpu-load"), dev, "--procs-per-cpu",
                  str(procs_per_cpu), "--runtime", f"{seconds(runtime):g}", "--json"])
        j = fio.parse(out, "tools/percpu-load --json")
        t = j["total"]
        return t["ios"], t["ios"] / j["io_window_s"] if j["io_window_s"] else t["iops"]
    # one job pinned to each CPU (cpus_allowed_policy=split), so every CPU submits
    out = sh(["fio", "--name=qd32", f"--filename={dev}", "--rw=randread", "--bs=4k",
              "--ioengine=libaio", "--iodepth=32", "--direct=1", f"--numjobs={os.cpu_count()}",
              f"--cpus_allowed=0-{os.cpu_count() - 1}", "--cpus_allowed_policy=split",
              "--group_reporting", "--time_based", f"--runtime={runtime}", "--norandommap",
              "--randrepeat=0", "--output-format=json"])
    r = fio.parse(out, "fio")["jobs"][0]["read"]
    return r["total_ios"], r["iops"]


def cache_groups():
    """The CPU lists sharing each CPU's last-level cache (sysfs), e.g. ["0-1", "2-3"]."""
    groups = []
    for cpu in range(os.cpu_count()):
        d = f"/sys/devices/system/cpu/cpu{cpu}/cache"
        try:
            idx = sorted(x for x in os.listdir(d) if x.startswith("index"))
            g = read(f"{d}/{idx[-1]}/shared_cpu_list")
        except (OSError, IndexError):
            continue
        if g not in groups:
            groups.append(g)
    return groups


def disk_reads(disk):
    """Reads the disk was given: completed and merged into another (/sys/block/X/stat's first
    two fields; mq-deadline merges some of dd's adjacent 4 KiB reads); 0 with iostats off."""
    f = read(f"/sys/block/{disk}/stat").split()
    return int(f[0]) + int(f[1])


# Where a SCSI request ends: the midlayer ends it without calling ramlld, so the block layer's
# block_rq_complete events of the disk are counted per CPU, in a trace instance of its own, in a
# second run of the workload (the mq path's done_mq is ramlld's own ->complete, in the same run).
TRACE_TOP = "/sys/kernel/tracing"
TRACE = TRACE_TOP + "/instances/ramlld-knobs"
END_EVENT = TRACE + "/events/block/block_rq_complete"


def ends_start(disk):
    major, minor = (int(x) for x in read(f"/sys/block/{disk}/dev").split(":"))
    # an instance copies record-cmd at creation: off, enabling the event registers no probe on
    # the scheduler's tracepoints (patching __schedule's code under a running CPU hung a TCG
    # guest); the top level's value is put back at once
    record_cmd = read(TRACE_TOP + "/options/record-cmd")
    write(TRACE_TOP + "/options/record-cmd", "0")
    try:
        os.makedirs(TRACE, exist_ok=True)
    finally:
        write(TRACE_TOP + "/options/record-cmd", record_cmd)
    write(END_EVENT + "/filter", f"dev == {major << 20 | minor}")  # the kernel's dev_t
    write(TRACE + "/trace", "")
    write(END_EVENT + "/enable", "1")


def ends_stop():
    """{cpu: events since ends_start} (those in the buffer and those overwritten); the
    instance is removed."""
    out = {}
    try:
        for cpu in range(os.cpu_count()):
            st = dict(line.split(":", 1)
                      for line in read(f"{TRACE}/per_cpu/cpu{cpu}/stats").splitlines())
            out[cpu] = int(st["entries"]) + int(st["overrun"])
    finally:
        write(END_EVENT + "/enable", "0")
        os.rmdir(TRACE)
    return out


def per_cpu_counts(top, disk, fe, workload, runtime, procs_per_cpu):
    """{cpu: {"irq": n, "done": n}} of a run of its own with disk's block_rq_complete events
    counted (tracing costs each I/O: kept out of the measured run)."""
    ends_start(disk)
    try:
        c0 = counters()
        run_workload(top, workload, "/dev/" + disk, runtime, procs_per_cpu)
        c1 = counters()
    finally:
        ends = ends_stop()
    return {cpu: {"irq": c1[(f"irq_{fe}", cpu)] - c0[(f"irq_{fe}", cpu)], "done": ends[cpu]}
            for cpu in range(os.cpu_count())}


def measure_one(top, disk, fe, workload, runtime, procs_per_cpu):
    c0, j0, s0, d0 = counters(), busy_jiffies(), sched_counters(), disk_reads(disk)
    ios, iops = run_workload(top, workload, "/dev/" + disk, runtime, procs_per_cpu)
    c1, j1, s1, d1 = counters(), busy_jiffies(), sched_counters(), disk_reads(disk)
    n = d1 - d0 if d1 > d0 else ios
    hz = os.sysconf("SC_CLK_TCK")
    per_cpu = {}
    if fe == "scsi":
        per_cpu = per_cpu_counts(top, disk, fe, workload, runtime, procs_per_cpu)
    elif fe:
        for cpu in range(os.cpu_count()):
            per_cpu[cpu] = {k: c1[(f"{k}_{fe}", cpu)] - c0[(f"{k}_{fe}", cpu)]
                            for k in ("irq", "done")}
    return {"ios": ios, "iops": iops,
            "cpu_us_per_io": (j1 - j0) * 1e6 / hz / ios if ios else None,
            "per_cpu": per_cpu, "ios_stat": d1 - d0,
            # whole-system counts over the run (the workload's own processes included)
            "per_io": {k: (s1[k] - s0[k]) / n if n else None for k in s0}}


# ramlld is loaded and unloaded by the device library (tools/devices/ramlld.sh), in bash
DEVICES = '. "$0/tools/devices/ramlld.sh"; RAMLLD_KO=$1; shift; '


def load_ramlld(top, ko, args):
    """ramlld loaded with args, its SCSI front end too: {"mq": disk, "scsi": disk}."""
    r = subprocess.run(["bash", "-c", DEVICES + 'dev_ramlld_load "$@" && dev_ramlld_sd_disks 1 && '
                        'echo "${RAMLLD_SD_DISKS[0]}" || { echo "knobs: $DEV_ERR" >&2; exit 1; }',
                        top, ko] + args, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(r.stderr.strip())
    return {"mq": "ramlldmq0", "scsi": os.path.basename(r.stdout.strip())}


def unload(top, ko):
    subprocess.run(["bash", "-c", DEVICES + 'dev_ramlld_unload || echo "knobs: $DEV_ERR" >&2', top, ko],
                   check=False)


def measure(out_dir, top, ko, runtime, repeats, procs_per_cpu, workloads, topology="",
            log=sys.stdout, only=None):
    """The whole table (or the configurations named in only) in this (guest's) kernel, into
    OUT/knobs.jsonl: the configurations with one interrupt CPU under one load, the
    per-submitter ones under a second (a hw queue and a vector per CPU)."""
    chosen = pick(only)
    length = lengths(runtime, workloads)
    groups = [(irq, [c for c in chosen if c[3] == irq]) for irq in ("0", PER_CPU)]
    groups = [g for g in groups if g[1]]
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "knobs.jsonl"), "w", encoding="utf-8") as out:
        meta = {"meta": {"load": LOAD_ARGS, "load_per_cpu": load_args(PER_CPU),
                         "kernel": os.uname().release,
                         "cpus": os.cpu_count(), "runtime": runtime, "repeats": repeats,
                         "procs_per_cpu": procs_per_cpu, "topology": topology,
                         "clock": os.environ.get("RAMLLD_CLOCK", "host"),
                         "qemu": os.environ.get("RAMLLD_QEMU", ""),
                         "llc_groups": cache_groups(),
                         "configs": [c[0] for c in chosen],
                         "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}}
        out.write(json.dumps(meta) + "\n")
        for gi, (irq, group) in enumerate(groups):
            try:
                disks = load_ramlld(top, ko, load_args(irq))
                for rep in range(repeats):
                    for workload in workloads:
                        measure_group(out, top, disks, group, rep, workload, length[workload],
                                      procs_per_cpu, baseline=gi == 0,
                                      again=repeats == 1 and gi == 0, log=log)
            finally:
                unload(top, ko)


def measure_group(out, top, disks, group, rep, workload, runtime, procs_per_cpu, baseline,
                  again, log):
    """One repeat of one workload over the configurations of one load; with baseline the bio
    disk first, with again the first configuration and the bio disk once more at the end
    (with one repeat: how far two runs of one cell are apart; SMP on the exact clock is not
    exact)."""
    def bio():
        r = measure_one(top, "ramlld0", None, workload, runtime, procs_per_cpu)
        r.update(rep=rep, workload=workload, path="bio", config="baseline")
        out.write(json.dumps(r) + "\n")
    if baseline:
        bio()
    for name, base, settings, _ in group + (group[:1] if again else []):
        for fe, disk in disks.items():
            apply(disk, settings)
            r = measure_one(top, disk, fe, workload, runtime, procs_per_cpu)
            r.update(rep=rep, workload=workload, path=fe, config=name, base=base,
                     irq_cpus=read(f"{PARAMS}/irq_cpus"), settings=read_back(disk))
            out.write(json.dumps(r) + "\n")
            out.flush()
            print(f"knobs: rep {rep} {workload} {fe} {name}: {r['iops']:.0f} IOPS",
                  file=log, flush=True)
    if baseline and again:
        bio()


def main(argv):
    """compare/guest-run's step: the table measured in this guest into OUT/knobs.jsonl."""
    import argparse
    ap = argparse.ArgumentParser(prog="compare/knobs.py", description=main.__doc__)
    ap.add_argument("--out", help="results folder (OUT/knobs.jsonl; required unless --count)")
    ap.add_argument("--top", help="the repository (tools/percpu-load; required unless --count)")
    ap.add_argument("--ko", help="ramlld.ko (required unless --count)")
    ap.add_argument("--count", action="store_true",
                    help="print how many runs the other options make, measure nothing")
    ap.add_argument("--runtime", default="2", metavar="LEN[,WORKLOAD=LEN]",
                    help="a run's length, seconds or NNNms (default 2); WORKLOAD=LEN: that "
                    "workload's own, e.g. 500ms,dd=1")
    ap.add_argument("--repeats", type=int, default=2, help="default 2")
    ap.add_argument("--procs-per-cpu", type=int, default=20, help="dd per CPU (default 20)")
    ap.add_argument("--workloads", default="dd,qd32", help="comma list of dd, qd32")
    ap.add_argument("--topology", default="", help="the guest's topology, for the report")
    ap.add_argument("--configs", default="",
                    help="comma list of configurations (default all: " + ", ".join(config_names())
                    + ")")
    a = ap.parse_args(argv)
    only = [c for c in a.configs.split(",") if c]
    try:
        pick(only)
    except ValueError as e:
        ap.error(f"--configs: {e}")
    wl = a.workloads.split(",")
    for w in wl:
        if w not in ("dd", "qd32"):
            ap.error(f"--workloads: bad value '{w}' (allowed: dd, qd32)")
    try:
        lengths(a.runtime, wl)
    except ValueError as e:
        ap.error(f"--runtime: {e}")
    for n in ("repeats", "procs_per_cpu"):
        if getattr(a, n) < 1:
            ap.error(f"--{n.replace('_', '-')}: bad value {getattr(a, n)} (allowed: >= 1)")
    if a.count:
        print(run_count(wl, a.repeats, only))
        return 0
    for n in ("out", "top", "ko"):
        if not getattr(a, n):
            ap.error(f"--{n} is required (unless --count)")
    measure(a.out, a.top, a.ko, a.runtime, a.repeats, a.procs_per_cpu, wl, a.topology,
            only=only)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

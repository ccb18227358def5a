#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# compare/knob-table.py: tools/knob-table's code, beside the compare/ modules it imports.
"""knob-table: what rq_affinity, the scheduler and add_random each do to ramlld's mq and SCSI
paths when completions arrive on one CPU (seed 001's question; docs/knobs.md).

On the host it boots one guest (tools/vm/run) and runs itself there with --in-guest (the code
is compare/knobs.py, which compare/guest-run runs too, for the report of make compare). In the
guest it loads ramlld (mode=all: bio, mq and sd on one store; irqmode=1 irq_cpus=0: one
interrupt vector on CPU 0; rotational=1: sd keeps add_random=1; prealloc=1) and, for each
repeat, each configuration and each workload, sets the queue knobs of the mq and sd disks,
reads them back and measures IOPS, CPU per I/O (non-idle /proc/stat time over all CPUs) and
the per-CPU interrupt/completion counters of /sys/kernel/debug/ramlld/completions (sd: where
requests ended from block_rq_complete events, in a second run traced apart). The bio
disk, which no knob touches, is measured once per repeat and workload as the baseline.

Configurations: the kernel's defaults for such a disk (rq_affinity=1, mq-deadline, add_random=1)
and seed 001's full tuning (rq_affinity=2, none, add_random=0), each with one knob changed at a
time, plus "per-submitter", the NVMe-like reference, under each of the two: ramlld loaded
again with irq_cpus=0,1,..,N-1 (a hw queue and a vector per CPU, each completion a hard
interrupt on its submitter; docs/knobs.md); --configs picks some of them. Workloads: dd
(tools/percpu-load: real dd processes pinned to each CPU, seed 001's load) and qd32 (fio 4k
randread, libaio, iodepth 32, one job pinned to each CPU).
Results: OUT/knobs.jsonl (one line per run) and OUT/knobs.md (the table and a verdict per knob).
"""
import argparse
import os
import subprocess
import sys
import time

import knobs  # (compare/knobs.py: the measurement)
from lib import cli, doc, knobtable  # (the one report writer; the configurations and the section)

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def report(out_dir):
    return doc.write(os.path.join(out_dir, "knobs.md"), knobtable.markdown(out_dir, level="#"))


def main():
    ap = cli.parser("tools/knob-table", __doc__)
    ap.add_argument("--runtime", type=int, default=3, help="seconds per run (default 3)")
    ap.add_argument("--repeats", type=int, default=2, help="default 2")
    ap.add_argument("--procs-per-cpu", type=int, default=4,
                    help="dd processes per CPU (seed 001: 20; default 4)")
    ap.add_argument("--workloads", default="dd,qd32", help="comma list of dd, qd32")
    ap.add_argument("--topology", default="sockets=2,cores=2",
                    help="tools/vm/run --topology (default sockets=2,cores=2: CPU 1 shares "
                         "CPU 0's cache, 2 and 3 do not)")
    ap.add_argument("--clock", default="auto", choices=["auto", "host", "icount"],
                    help="tools/vm/run --clock: icount makes the guest's rates exact and "
                         "repeatable whatever the host does; auto (the default): icount where "
                         "the guest runs under TCG, host under KVM (tools/vm/run --print-accel)")
    ap.add_argument("--configs", default="",
                    help="comma list of configurations to run (default all: "
                    + ", ".join(knobtable.config_names()) + ")")
    ap.add_argument("--kernel", help="tools/vm/run --kernel")
    ap.add_argument("--vm-arg", action="append", default=[], help="one more tools/vm/run option")
    ap.add_argument("--out", help="results folder (default results/knobs-<time>)")
    ap.add_argument("--report", metavar="DIR", help="only rewrite DIR/knobs.md")
    ap.add_argument("--in-guest", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    args.workloads = args.workloads.split(",")
    for w in args.workloads:
        if w not in ("dd", "qd32"):
            ap.error(f"--workloads: bad value '{w}' (allowed: dd, qd32)")
    for n in ("runtime", "repeats", "procs_per_cpu"):
        if getattr(args, n) < 1:
            ap.error(f"--{n.replace('_', '-')}: bad value {getattr(args, n)} (allowed: >= 1)")
    only = [c for c in args.configs.split(",") if c]
    try:
        knobtable.pick(only)
    except ValueError as e:
        ap.error(f"--configs: {e}")
    if args.report:
        if not os.path.isfile(os.path.join(args.report, "knobs.jsonl")):
            ap.error(f"--report: no knob table in '{args.report}' (allowed: the folder of an "
                     "earlier run, holding knobs.jsonl)")
        sys.stdout.write(report(args.report))
        return
    if args.in_guest:
        knobs.measure(args.out, TOP, os.environ.get("RAMLLD_KO", os.path.join(TOP, "drivers/ramlld.ko")),
                      args.runtime, args.repeats, args.procs_per_cpu, args.workloads,
                      args.topology, only=only)
        return
    if args.clock == "auto":
        # the clock from what the guest gets: the instruction clock under TCG, host time under KVM
        line = subprocess.run([os.path.join(TOP, "tools/vm/run"), "--print-accel"]
                              + (["--kernel", args.kernel] if args.kernel else []),
                              stdout=subprocess.PIPE, text=True).stdout.strip() or "tcg"
        accel, _, why = line.partition(" ")
        args.clock = "host" if accel == "kvm" else "icount"
        print(f"knob-table: clock {args.clock} ({why or accel})", file=sys.stderr)
    out = os.path.abspath(args.out or os.path.join(TOP, "results",
                                                   "knobs-" + time.strftime("%Y%m%d-%H%M%S")))
    rc = subprocess.run(["make", "-C", TOP, "-s", "module"]
                        + ([f"KERNEL={args.kernel}"] if args.kernel else [])).returncode
    if rc:
        sys.exit(f"knob-table: make module failed (status {rc}): nothing run")
    os.makedirs(out, exist_ok=True)
    vm = [os.path.join(TOP, "tools/vm/run"), "--topology", args.topology, "--clock", args.clock,
          "--share", out,
          "--timeout", "0"] + (["--kernel", args.kernel] if args.kernel else []) + args.vm_arg
    inner = [sys.executable, os.path.abspath(__file__), "--in-guest", "--out", out,
             "--runtime", str(args.runtime), "--repeats", str(args.repeats),
             "--procs-per-cpu", str(args.procs_per_cpu), "--workloads", ",".join(args.workloads),
             "--topology", args.topology, "--clock", args.clock, "--configs", args.configs]
    rc = subprocess.run(vm + ["--"] + inner).returncode
    if rc:
        sys.exit(f"knob-table: the guest ended with status {rc} (tools/vm/run --help); results so far in {out}")
    sys.stdout.write(report(out))


if __name__ == "__main__":
    main()

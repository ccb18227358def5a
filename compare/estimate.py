#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""estimate.py: the wall time a comparison plan takes, from measured per-cell costs.

Reads a plan as `compare/run --plan` prints it (guest-run --print-plan's lines, the knob
guest's prefixed "knob-guest ") on standard input, and the targets' header table
(guest-run --list-targets) from --targets-tsv, and prints:

  estimate S          seconds for the whole run with a host CPU to itself
  estimate-matrix S   the matrix's guest (boot, set-ups, runs, breakdowns)
  estimate-knobs S    the knob guest (0 when there is none)
  host-stretch X      how much the host's load at the start stretches a guest's wall time
  timeout-matrix S, timeout-knobs S, timeout-factor N: each guest's timeout (N x its
                      estimate x the stretch)

The costs are host seconds measured on this project's machine (docs/benches.md, "Measured
slice and estimate" and "The exact quick level"): on the exact clock (icount) QEMU runs the
guest on one host thread, so its CPU time is the wall time on a quiet host; on the host's
clock (TCG) a run takes its own runtime, ramp and fio's start-up. A loaded host stretches
the wall time (QEMU got 20-30 % of a CPU at host load 8-11): a guest's thread gets about
CPUS / (LOAD + 1) of a CPU once the load (--host-load, the 1-minute load average when the run
starts) and the guest itself outnumber the CPUS (--host-cpus), so each guest's timeout is
TIMEOUT_FACTOR times its estimate times max(1, (LOAD + 1) / CPUS). The factor covers the load
growing during the run; the stretch, a host already busy when it starts.
"""
import argparse
import math
import sys

TIMEOUT_FACTOR = 4
TIMEOUT_MIN = 1800

# host seconds of QEMU, exact clock (docs/benches.md, the measured slice's table)
ICOUNT = {
    "boot": 30,
    "setup": 7,            # a driver's load with 1 device, filled (ramlld 6.6, brd below 7)
    "setup_per_lun": 1.9,  # LIO 32 x 16 MiB: 65
    "setup_stack": 36,     # a tools/stack stack over ramlld (iSCSI)
    "breakdown": 60,       # blktrace + perf + perf report of one path (85 with its set-up)
    # a time-based fio run: fixed + per_s x (runtime + ramp)
    "run": (2, 5),         # a driver's 4k run of 1 s: 6.3-7.6
    "run_lio": (2, 12),    # LIO tcm_loop: ~14
    "run_stack": (3, 20),  # a stack's 4k run of 1 s: 19-27
    "run_1m": (2, 10),     # the 1 MiB ladder run, a driver: 11-12
    "run_1m_stack": (3, 12),  # on a stack: 14-15
    "run_seed000": (3, 18),   # seed 000, 1 to 32 LUNs: 14-28
    # fixed work, whatever the runtime
    "dd": 27,              # seed 001's dd run, 20 dd a CPU (scaled by the dd count)
    "sweep_section": 4,    # one size of seed 002's sweep (13 sizes: 48-52)
    "seed003": 8,
    "knob_run": (4, 5),    # a knob-table run, 4 dd a CPU: 56 runs of 1 s in 494 s (scaled
                           # by the square root of the dd count: 20 dd took 2-3 min at load 7)
    "host_side": 90,       # the module build and the report
}
# the host's clock: guest time is wall time; fio's start-up and a set-up under TCG
HOST = {
    "boot": 20, "setup": 5, "setup_per_lun": 1, "setup_stack": 25, "breakdown": 25,
    "run_fixed": 3, "dd": 15, "sweep_section": 3, "seed003": 5, "knob_run_fixed": 3,
    "host_side": 90,
}


def parse(lines):
    """The plan's fields: cells (target, profile, workload, section, shape) and the rest,
    the knob guest's under "knob-guest"."""
    plan = {"cells": [], "knob-guest": {}}
    for line in lines:
        line = line.rstrip("\n")
        if not line:
            continue
        key, _, rest = line.partition(" ")
        if key == "knob-guest":
            k, _, v = rest.partition(" ")
            plan["knob-guest"][k] = v
        elif key == "cell":
            t, p, w, s, shape = rest.split()
            plan["cells"].append((t, p, w, s, shape))
        else:
            plan.setdefault(key, rest)
    return plan


def read_targets(path):
    """name -> (group, load) from guest-run --list-targets."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = line.rstrip("\n").split("\t")
            if len(r) >= 6:
                out[r[0]] = (r[2], r[5])
    return out


def kind(targets, t):
    group, load = targets.get(t, ("block", t))
    if load.startswith("stack-"):
        return "stack"
    return "lio" if group == "stack" else "driver"


def procs_per_cpu(level):
    return 4 if level == "quick" else 20


def run_cost(clock, targets, t, w, s, seconds, level):
    """One fio (or dd) run of cell (t, w, s), seconds = runtime + ramp."""
    k = kind(targets, t)
    sections = s.split(",")
    c = ICOUNT if clock == "icount" else HOST
    # fixed work, whatever the runtime
    if s == "dd":
        return c["dd"] * procs_per_cpu(level) / 20
    if len(sections) > 1 or w == "seed-002":
        return c["sweep_section"] * len(sections)
    if w == "seed-003":
        return c["seed003"]
    if clock != "icount":
        return c["run_fixed"] + (2 if k == "stack" else 0) + seconds
    if w == "seed-000":
        f, p = c["run_seed000"]
    elif w == "ladder":
        f, p = c["run_1m_stack" if k == "stack" else "run_1m"]
    else:
        f, p = c["run_stack" if k == "stack" else "run_lio" if k == "lio" else "run"]
    return f + p * seconds


def setup_cost(clock, targets, t, shape):
    c = ICOUNT if clock == "icount" else HOST
    luns = int(shape.split("x")[0])
    if kind(targets, t) == "stack":
        return c["setup_stack"]
    return c["setup"] + c["setup_per_lun"] * (luns - 1)


def matrix_seconds(plan, targets, clock):
    """The matrix's guest: boot, each target's set-ups in guest-run's order, its runs, its
    breakdown."""
    c = ICOUNT if clock == "icount" else HOST
    if not plan["cells"]:
        return 0
    repeats = int(plan.get("repeats", "1"))
    seconds = int(plan.get("runtime", "1")) + int(plan.get("ramp", "0"))
    level = plan.get("level", "default")
    bd = set(plan.get("breakdown", "").split())
    total = c["boot"]
    loaded = None
    order = []
    for cell in plan["cells"]:
        if cell[0] not in order:
            order.append(cell[0])
    for t in order:
        cur_shape = None
        load = targets.get(t, ("", t))[1]
        for ct, _, w, s, shape in plan["cells"]:
            if ct != t:
                continue
            if shape != cur_shape:
                if (load, shape) != loaded:
                    total += setup_cost(clock, targets, t, shape)
                    loaded = (load, shape)
                cur_shape = shape
            total += repeats * run_cost(clock, targets, t, w, s, seconds, level)
        if t in bd:
            total += c["breakdown"]
    return total


def knob_seconds(fields, clock, level):
    """A knob table of fields' knob-runs at its knob-step."""
    if fields.get("knobs") != "1" or not fields.get("knob-runs"):
        return 0
    step = fields.get("knob-step", "").split()
    opts = dict(zip(step[::2], step[1::2]))
    runtime = int(opts.get("--runtime", "1"))
    procs = int(opts.get("--procs-per-cpu", procs_per_cpu(level)))
    runs = int(fields["knob-runs"])
    if clock == "icount":
        f, p = ICOUNT["knob_run"]
        per = (f + p * runtime) * math.sqrt(procs / 4)
    else:
        per = HOST["knob_run_fixed"] + runtime * math.sqrt(procs / 4)
    return runs * per


def estimate(plan, targets, clock):
    """(whole, matrix guest, knob guest) seconds."""
    c = ICOUNT if clock == "icount" else HOST
    level = plan.get("level", "default")
    matrix = matrix_seconds(plan, targets, clock)
    matrix += knob_seconds(plan, clock, level)   # the table in the matrix's own guest
    knobs = 0
    kg = plan["knob-guest"]
    if kg:
        knobs = c["boot"] + knob_seconds(kg, clock, level)
    return matrix + knobs + c["host_side"], matrix, knobs


def stretch(load, cpus):
    """How much a host's load stretches a one-thread guest's wall time: 1 while a CPU is free."""
    return max(1.0, (load + 1) / cpus)


def timeout(seconds, stretched=1.0):
    """A guest's timeout for an estimate: TIMEOUT_FACTOR times it, times the host's stretch, at
    least TIMEOUT_MIN, in whole minutes."""
    return max(TIMEOUT_MIN, int(math.ceil(seconds * TIMEOUT_FACTOR * stretched / 60)) * 60)


def human(seconds):
    m = int(round(seconds / 60))
    if m < 120:
        return f"~{m} min"
    return f"~{m / 60:.1f} h"


class OneLineParser(argparse.ArgumentParser):
    """A usage error as one line naming the problem (exit 2), not the usage block."""
    def error(self, message):
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def main():
    ap = OneLineParser(prog="compare/estimate.py", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--clock", required=True, choices=["icount", "host"])
    ap.add_argument("--targets-tsv", required=True, help="guest-run --list-targets's output")
    ap.add_argument("--host-load", type=float, default=0.0, metavar="LOAD",
                    help="the host's 1-minute load average at the start (default 0)")
    ap.add_argument("--host-cpus", type=int, default=1, metavar="N",
                    help="the host's CPUs (default 1)")
    args = ap.parse_args()
    if args.host_load < 0:
        ap.error(f"--host-load: '{args.host_load:g}' is negative (allowed: a load average >= 0)")
    if args.host_cpus < 1:
        ap.error(f"--host-cpus: '{args.host_cpus}' is invalid (allowed: a whole number >= 1)")
    try:
        targets = read_targets(args.targets_tsv)
    except OSError as e:
        ap.error(f"--targets-tsv: {e.strerror}: '{args.targets_tsv}'")
    plan = parse(sys.stdin)
    whole, matrix, knobs = estimate(plan, targets, args.clock)
    print(f"estimate {whole:.0f} ({human(whole)} with a host CPU to itself)")
    print(f"estimate-matrix {matrix:.0f}")
    print(f"estimate-knobs {knobs:.0f}")
    st = stretch(args.host_load, args.host_cpus)
    print(f"host-stretch {st:.2f} (load {args.host_load:.2f} on {args.host_cpus} CPUs)")
    print(f"timeout-matrix {timeout(matrix, st)}")
    print(f"timeout-knobs {timeout(knobs, st) if knobs else 0}")
    print(f"timeout-factor {TIMEOUT_FACTOR}")


if __name__ == "__main__":
    main()

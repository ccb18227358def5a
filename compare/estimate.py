#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""estimate.py: the wall time a comparison plan takes, from measured per-cell costs.

Reads a plan as `compare/run --plan` prints it (guest-run --print-plan's lines, the knob
guest's prefixed "knob-guest ") on standard input, and the targets' header table
(guest-run --list-targets) from --targets-tsv, and prints:

  estimate S          seconds of host CPU for the whole run (its wall time with a host CPU
                      to itself)
  estimate-matrix S   the matrix's guest (boot, set-ups, runs, breakdowns)
  estimate-knobs S    the knob guest (0 when there is none)
  estimate-profile S  compare/run --exact-profile's profiled guests' host CPU, after the
                      others (0 without it): each path's cell with the cache model, and the
                      per-CPU boot of its settings (beside the cells when --jobs > 1)
  host-stretch X      how much the host's load at the start stretches a guest's wall time
  timeout-matrix S, timeout-knobs S, timeout-factor N: each guest's timeout (N x its
                      estimate x the stretch)

With --jobs J (compare/run's fan-out of the exact clock, where a cell's figure does not
depend on what else the host runs), the matrix is cut into shards of whole targets, each a
guest of its own, and also:

  shard K S T TARGETS    shard K: S seconds, its guest's timeout T s, its targets (comma list)
  spot S T N             the spot check's guest (a second run of every Nth cell, in another
                         guest): S seconds, timeout T (absent with --spot-every 0 or no cells)
  spot-cell CELL         its cells (TARGET PROFILE WORKLOAD SECTION SHAPE)
  wall S s (...)         the wall time: the guests (shards, spot check, knob guest), longest
                         first, J at a time as GNU parallel runs them, each stretched by
                         max(1, (LOAD + J) / CPUS), plus the host's side

Shards: targets packed longest first into the shard with the least work so far; --shards N,
or by default the count of J to 2 x J whose guests, with the spot check and the knob guest,
take the least wall time (the fewest on a tie): more shards let a short guest fill the time a
long one leaves, each costs a boot.

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
import math
import sys

from lib import cli

TIMEOUT_FACTOR = 4
TIMEOUT_MIN = 1800

# host seconds of QEMU, exact clock (docs/benches.md, the measured slice's table)
ICOUNT = {
    "boot": 30,
    "setup": 7,            # a driver's load with 1 device, filled (ramlld 6.6, brd below 7)
    "setup_per_lun": 1.9,  # LIO 32 x 16 MiB: 65
    "setup_stack": 36,     # a tools/stack stack over ramlld (iSCSI)
    "breakdown": 70,       # blktrace + perf + perf report of one path (QEMU 10: ~70)
    # a time-based fio run: fixed + per_s x (runtime + ramp)
    "run": (0.3, 6.4),     # a driver's 4k run (QEMU 10): 500 ms ~3.5, 1 s 6.5-6.9
    "run_lio": (2, 12),    # LIO tcm_loop: ~14
    "run_stack": (3, 20),  # a stack's 4k run of 1 s: 19-27
    "run_1m": (2, 10),     # the 1 MiB ladder run, a driver: 11-12
    "run_1m_stack": (3, 12),  # on a stack: 14-15
    "run_seed000": (3, 18),   # seed 000, 1 to 32 LUNs: 14-28
    # fixed work, whatever the runtime
    "dd": 27,              # seed 001's dd run, 20 dd a CPU (scaled by the dd count)
    "sweep_section": 3.2,  # one size of seed 002's sweep (QEMU 10: 6 x 13 sizes ~250)
    "seed003": 8,
    # a knob-table run of each workload, 4 dd a CPU, the knob guest's 2 vCPUs (scaled by the
    # square root of the dd count: 20 dd took 2-3 min at load 7); QEMU 10, the 56 runs with the
    # boot: 705 s at 1 s, 496 at 500 ms, QD32's 28 alone 351 at 1 s
    "knob_run": {"dd": (5.2, 7.5), "qd32": (4, 7.5)},
    "host_side": 90,       # the module build and the report
    # compare/run --exact-profile (docs/profile.md, "Cost"): QEMU 7.2 with the plugin and its
    # cache model, one path's cell: fixed + per_s x its window R (fio runs R + 2 s); R = 1:
    # 125-156
    "xp_cell": (80, 60),
    # QEMU 10, 2 vCPUs, the plugin and its cache model: the boot, then per setting fixed +
    # per_s x 3R (its two windows: fio for R and for 2R); 6 settings of R = 0.2: 451
    "xp_percpu_boot": 60,
    "xp_percpu_setting": (35, 50),
}
# the host's clock: guest time is wall time; fio's start-up and a set-up under TCG
HOST = {
    "boot": 20, "setup": 5, "setup_per_lun": 1, "setup_stack": 25, "breakdown": 25,
    "run_fixed": 3, "dd": 15, "sweep_section": 3, "seed003": 5, "knob_run_fixed": 3,
    "host_side": 90,
}


def seconds_of(runtime):
    """A run's length, "1" or "250ms", in seconds."""
    if runtime.endswith("ms"):
        return int(runtime[:-2]) / 1000
    return int(runtime)


def runtimes(spec):
    """The plan's "runtime" value, "500ms,ladder=1": (its length in seconds, {workload or
    target: seconds} for the cells of another; a target's wins over its workload's)."""
    first, *rest = spec.split(",")
    return seconds_of(first), {w: seconds_of(s) for w, s in (x.split("=", 1) for x in rest)}


def parse(lines):
    """The plan's fields: cells (target, profile, workload, section, shape) and the rest,
    the knob guest's under "knob-guest"."""
    plan = {"cells": [], "knob-guest": {}, "exact-profile": {}}
    for line in lines:
        line = line.rstrip("\n")
        if not line:
            continue
        key, _, rest = line.partition(" ")
        if key in ("knob-guest", "exact-profile"):
            k, _, v = rest.partition(" ")
            plan[key][k] = v
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
    return c["boot"] + sum(target_seconds(plan, targets, clock, repeats).values())


def target_seconds(plan, targets, clock, repeats, cells=None, breakdown=True):
    """Each target's work in plan order (its set-ups, runs, breakdown): {target: seconds}. A
    set-up is counted when the driver's load or the shape changes (as guest-run does)."""
    c = ICOUNT if clock == "icount" else HOST
    cells = plan["cells"] if cells is None else cells
    runtime, runtime_of = runtimes(plan.get("runtime", "1"))
    ramp = int(plan.get("ramp", "0"))
    level = plan.get("level", "default")
    bd = set(plan.get("breakdown", "").split()) if breakdown else set()
    loaded = None
    work = {}
    for t in dict.fromkeys(cell[0] for cell in cells):
        cur_shape = None
        total = 0
        load = targets.get(t, ("", t))[1]
        for ct, _, w, s, shape in cells:
            if ct != t:
                continue
            if shape != cur_shape:
                if (load, shape) != loaded:
                    total += setup_cost(clock, targets, t, shape)
                    loaded = (load, shape)
                cur_shape = shape
            rt = runtime_of.get(t, runtime_of.get(w, runtime))
            total += repeats * run_cost(clock, targets, t, w, s, rt + ramp, level)
        if t in bd:
            total += c["breakdown"]
        work[t] = total
    return work


def shards(plan, targets, clock, n):
    """The matrix cut into at most n guests of whole targets: [(seconds, [targets])], longest
    first; each target goes to the shard with the least work so far, the longest first."""
    c = ICOUNT if clock == "icount" else HOST
    work = target_seconds(plan, targets, clock, int(plan.get("repeats", "1")))
    bins = [[c["boot"], []] for _ in range(min(n, len(work)))]
    for t, s in sorted(work.items(), key=lambda kv: -kv[1]):
        b = min(bins, key=lambda b: b[0])
        b[0] += s
        b[1].append(t)
    # each shard's targets in the plan's order (guest-run's), the shards longest first
    order = list(work)
    return sorted(((s, sorted(ts, key=order.index)) for s, ts in bins), key=lambda b: -b[0])


def spot_cells(plan, every):
    """The spot check's sample: every Nth cell of the plan, the first included."""
    return plan["cells"][::every] if every > 0 else []


def wall(guests, jobs, stretched):
    """Wall seconds of guests (seconds each) run longest first, jobs at a time."""
    slots = [0.0] * max(1, jobs)
    for s in sorted(guests, reverse=True):
        i = slots.index(min(slots))
        slots[i] += s * stretched
    return max(slots)


def knob_seconds(fields, clock, level):
    """A knob table of fields' knob-runs at its knob-step: the runs shared equally by its
    workloads (compare/lib/knobtable.py's run_count), each workload's at its own length
    (--runtime LEN[,WORKLOAD=LEN])."""
    if fields.get("knobs") != "1" or not fields.get("knob-runs"):
        return 0
    step = fields.get("knob-step", "").split()
    opts = dict(zip(step[::2], step[1::2]))
    first, own = runtimes(opts.get("--runtime", "1"))
    procs = int(opts.get("--procs-per-cpu", procs_per_cpu(level)))
    workloads = opts.get("--workloads", "dd,qd32").split(",")
    runs = int(fields["knob-runs"]) / len(workloads)
    total = 0
    for w in workloads:
        runtime = own.get(w, first)
        if clock == "icount":
            f, p = ICOUNT["knob_run"][w]
            per = (f + p * runtime) * math.sqrt(procs / 4)
        else:
            per = HOST["knob_run_fixed"] + runtime * math.sqrt(procs / 4)
        total += runs * per
    return total


def profile_parts(xp):
    """compare/run --exact-profile's guests (the plan's "exact-profile" lines), always on the
    exact clock: (the paths' cells, one after the other; the per-CPU boot)."""
    if not xp:
        return 0, 0
    f, p = ICOUNT["xp_cell"]
    paths = [t for k in ("paths", "default-paths") for t in xp.get(k, "").split(",") if t]
    cells = len(paths) * (f + p * float(xp.get("paths-runtime", "1")))
    settings = [s for s in xp.get("percpu-settings", "").split(",") if s]
    f, p = ICOUNT["xp_percpu_setting"]
    per = len(settings) * (f + p * 3 * float(xp.get("percpu-runtime", "1")))
    return cells, (ICOUNT["xp_percpu_boot"] + per if settings else 0)


def profile_seconds(xp):
    """The exact profile's host CPU."""
    return sum(profile_parts(xp))


def estimate(plan, targets, clock):
    """(whole, matrix guest, knob guest, exact profile) seconds."""
    c = ICOUNT if clock == "icount" else HOST
    level = plan.get("level", "default")
    matrix = matrix_seconds(plan, targets, clock)
    matrix += knob_seconds(plan, clock, level)   # the table in the matrix's own guest
    knobs = 0
    kg = plan["knob-guest"]
    if kg:
        knobs = c["boot"] + knob_seconds(kg, clock, level)
    xp = profile_seconds(plan["exact-profile"])
    return matrix + knobs + xp + c["host_side"], matrix, knobs, xp


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


def main():
    ap = cli.parser("compare/estimate.py", __doc__)
    ap.add_argument("--clock", required=True, choices=["icount", "host"])
    ap.add_argument("--targets-tsv", required=True, help="guest-run --list-targets's output")
    ap.add_argument("--host-load", type=float, default=0.0, metavar="LOAD",
                    help="the host's 1-minute load average at the start (default 0)")
    ap.add_argument("--host-cpus", type=int, default=1, metavar="N",
                    help="the host's CPUs (default 1)")
    ap.add_argument("--jobs", type=int, default=0, metavar="J",
                    help="guests at once (compare/run -j): cut the matrix into shards")
    ap.add_argument("--shards", type=int, default=0, metavar="N",
                    help="with --jobs: matrix shards (default: the count of J to 2 x J "
                         "with the least wall time)")
    ap.add_argument("--spot-every", type=int, default=10, metavar="N",
                    help="with --jobs: the spot check runs every Nth cell again (0: none; "
                         "default 10)")
    args = ap.parse_args()
    for opt in ("jobs", "shards", "spot_every"):
        if getattr(args, opt) < 0:
            ap.error(f"--{opt.replace('_', '-')}: '{getattr(args, opt)}' is negative "
                     "(allowed: a whole number >= 0)")
    if args.host_load < 0:
        ap.error(f"--host-load: '{args.host_load:g}' is negative (allowed: a load average >= 0)")
    if args.host_cpus < 1:
        ap.error(f"--host-cpus: '{args.host_cpus}' is invalid (allowed: a whole number >= 1)")
    try:
        targets = read_targets(args.targets_tsv)
    except OSError as e:
        ap.error(f"--targets-tsv: {e.strerror}: '{args.targets_tsv}'")
    plan = parse(sys.stdin)
    whole, matrix, knobs, xp = estimate(plan, targets, args.clock)
    print(f"estimate {whole:.0f} s of host CPU ({human(whole)} with a host CPU to itself)")
    print(f"estimate-matrix {matrix:.0f}")
    print(f"estimate-knobs {knobs:.0f}")
    print(f"estimate-profile {xp:.0f}")
    st = stretch(args.host_load, args.host_cpus)
    print(f"host-stretch {st:.2f} (load {args.host_load:.2f} on {args.host_cpus} CPUs)")
    print(f"timeout-matrix {timeout(matrix, st)}")
    print(f"timeout-knobs {timeout(knobs, st) if knobs else 0}")
    print(f"timeout-factor {TIMEOUT_FACTOR}")
    if args.jobs:
        fan_out(args, plan, targets, knobs, xp)
    else:
        print(f"wall {whole * st:.0f} s ({minutes(whole * st)} of wall time: one guest at a time, "
              f"host load {args.host_load:.2f} on {args.host_cpus} CPUs)")


def shard_count(plan, targets, clock, jobs, others):
    """The shard count of jobs to 2 x jobs whose guests, beside the others (seconds each),
    take the least wall time run jobs at a time; the fewest on a tie."""
    best = None
    for n in range(jobs, 2 * jobs + 1):
        w = wall([s for s, _ in shards(plan, targets, clock, n)] + others, jobs, 1.0)
        if best is None or w < best[0]:
            best = (w, n)
    return best[1]


def fan_out(args, plan, targets, knobs, xp=0):
    """The shards, the spot check and the wall time of --jobs (the exact profile's guests
    after them: two side by side when --jobs allows)."""
    c = ICOUNT if args.clock == "icount" else HOST
    st = stretch(args.host_load + args.jobs - 1, args.host_cpus)
    spot = spot_cells(plan, args.spot_every)
    spot_s = c["boot"] + sum(target_seconds(plan, targets, args.clock, 1, spot, False).values())
    others = ([spot_s] if spot else []) + ([knobs] if knobs else [])
    n = args.shards or shard_count(plan, targets, args.clock, args.jobs, others)
    guests = []
    for k, (secs, ts) in enumerate(shards(plan, targets, args.clock, n), 1):
        print(f"shard {k} {secs:.0f} {timeout(secs, st)} {','.join(ts)}")
        guests.append(secs)
    if spot:
        print(f"spot {spot_s:.0f} {timeout(spot_s, st)} {args.spot_every}")
        for cell in spot:
            print("spot-cell " + " ".join(cell))
    guests += others
    # the paths' cells beside the per-CPU boot with two jobs or more (compare/host/run-profile.sh)
    parts = profile_parts(plan["exact-profile"])
    xw = max(parts) if args.jobs > 1 else sum(parts)
    w = wall(guests, args.jobs, st) + xw * stretch(args.host_load, args.host_cpus) + c["host_side"]
    then = ""
    if xp:
        then = (" then the exact profile's two guests side by side," if args.jobs > 1 else
                " then the exact profile's guests one at a time,")
    print(f"wall {w:.0f} s ({minutes(w)} of wall time: {len(guests)} guests, {args.jobs} at a time "
          f"on {args.host_cpus} CPUs,{then} host load {args.host_load:.2f})")


def minutes(seconds):
    return f"{seconds / 60:.0f} min"


if __name__ == "__main__":
    main()

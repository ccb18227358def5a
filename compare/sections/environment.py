# SPDX-License-Identifier: GPL-2.0
"""Environment: what ran, where, on which clock; the metrics' definitions."""

from lib.fmt import runtime, table
from lib.results import icount_ns
from lib.stats import EXACT_AGREE_PCT

TITLE = "Environment"
ORDER = 20


def run_span(meta):
    """The run's start and end on the host's clock (compare/run) and its wall time; the guest's
    own stamps follow the guest's clock (on the exact clock its instruction rate)."""
    span = f"{meta.get('wall_s', '-')} s wall in total"
    guest = f"{meta.get('started', '-')} → {meta.get('ended', '-')}"
    if meta.get("host_started"):
        return (f"{meta['host_started']} → {meta.get('host_ended', '-')} (host), {span}; "
                f"the matrix guest's clock {guest}")
    return f"{guest}, {span}"


def render(run, plots):
    meta = run.meta
    accel = meta.get("accel", "unknown")
    L = ["## Environment", "", table(["", ""], [
        ["command", f"`{meta.get('command', '-')}`"],
        ["kernel", meta.get("kernel", "-")],
        ["tree", meta.get("git", "-")],
        ["code", meta.get("code", "not recorded") + " (compare/fingerprint: the module's code "
                 "sections, targets, workloads)"],
        ["CPUs", f"{meta.get('cpus', '-')} ({meta.get('cpu_model', '-')})"],
        ["memory", f"{int(meta.get('mem_kb', 0) or 0) // 1024} MiB"],
        ["accelerator", accel],
        ["clock", run.clock],
        ["fio", meta.get("fio", "-")],
        ["level", f"{meta.get('level_name', meta.get('level', '-'))}: {meta.get('repeats', '-')} "
                  f"repeats of {runtime(meta.get('runtime'))} (+{meta.get('ramp', '-')} s ramp) "
                  "per cell"],
        ["devices", f"{meta.get('nluns', '-')} per target of {meta.get('capacity_mb', '-')} MiB, "
                    f"queue depth {meta.get('depth', '-')} where settable, filled once before use"],
        ["host load (1/5 min)", f"start {meta.get('host_load_start', '-')}, "
                                f"end {meta.get('host_load_end', '-')}"],
        ["run", run_span(meta)],
    ] + ([["knob guest", f"{meta['knob_guest']}; {meta.get('knob_guest_wall_s', '-')} s wall"]]
         if meta.get("knob_guest") else [])), ""]
    if run.exact:
        L.append("**The guest ran on the exact clock** (`tools/vm/run --clock icount`: QEMU counts "
                 "the instructions the guest executes, 1 instruction = "
                 f"{icount_ns(meta)} ns of guest time, and an idle guest's clock jumps to its next "
                 "timer). Every rate measured in the guest is then an instruction count: "
                 "instructions per I/O (`instr/IO`) = 10^9 / IOPS, independent of the host's load "
                 "where the runs agree (section Determinism lists the cells whose runs do not). QEMU runs the vCPUs in turn on one host thread, so guest time "
                 "counts the instructions of all vCPUs together: `instr/IO` is the whole path's, "
                 "fio included, while the guest is never idle. No figure here comes from "
                 "/proc/stat's 1/100 s ticks: where the exact count exists it is the one "
                 "shown. TCG counts a `rep movs`/`rep stos` one iteration per element (a 4 KiB "
                 "`rep movsb` copy is 4,096 instructions), so copies weigh more than on hardware "
                 f"(docs/clock.md). Each cell ran {meta.get('repeats', '-')} time(s); a cell whose runs are "
                 f"more than {EXACT_AGREE_PCT} % apart is flagged ⚠ (section Determinism). Latency: fio's "
                 "`lat` (submission + completion) in guest µs = thousands of instructions; fio's "
                 "`clat` alone is only the reap of an I/O the RAM disk completed inside "
                 "`io_submit`, the same ~1.5k instructions on every path, and is not shown.")
    elif accel == "tcg":
        L.append("**The guest ran under TCG (software CPU emulation, no KVM) on the host's "
                 "time.** Absolute numbers (IOPS, µs) mean little here: every instruction is "
                 "emulated and the host's load moves them. Only ratios between targets measured "
                 "side by side in this one guest carry information.")
    else:
        L.append(f"Accelerator: {accel}. Ratios measured side by side are still what to compare.")
    L += ["", "Metrics: IOPS and MB/s (10^6 B/s) from fio; latency = fio's total latency (lat: "
          "submission + completion) of the direction with most I/O; `x bio` = IOPS ratio to "
          "ramlld-bio on the same workload and profile"
          + (". " if run.exact else
             "; CPU µs/IO two ways: fio's usr+sys of its own threads, and busy time of all CPUs "
             "from /proc/stat deltas over the run (softirqs and kernel threads included). "
             "`a ± s` = mean ± sample standard deviation over the repeats. "), ""]
    return L

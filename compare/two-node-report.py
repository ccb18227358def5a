#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""compare/two-node-report.py RUN_DIR...: each side's instructions per I/O of compare/two-node's
runs, from the /proc/timer_list copies each side took when the job's I/O started and ended
(SIDE.pre, SIDE.post: the side's clock, every CPU's idle and iowait time in ns, and its I/O
count: LIO's SCSI commands on the target, the iSCSI disk's reads and writes on the initiator), and fio's JSON (fio.json, written by fio --client)."""

import json
import os
import re
import statistics
import sys


def snapshot(path):
    """(now ns, idle+iowait ns summed over the CPUs, CPUs, I/Os completed) of one copy."""
    text = open(path).read()
    now = int(re.search(r"^now at (\d+) nsecs", text, re.M).group(1))
    idle = sum(int(v) for v in re.findall(r"^\s+\.(?:idle|iowait)_sleeptime\s*:\s*(\d+) nsecs", text, re.M))
    cpus = len(re.findall(r"^cpu: \d+", text, re.M))
    ios = int(re.search(r"^ios: (\d+)$", text, re.M).group(1))
    return now, idle, cpus, ios


def side(run, name):
    """(busy ns, I/Os, window ns) of one side between its two copies."""
    n0, i0, cpus, d0 = snapshot(os.path.join(run, name + ".pre"))
    n1, i1, _, d1 = snapshot(os.path.join(run, name + ".post"))
    window = n1 - n0
    return window * cpus - (i1 - i0), d1 - d0, window


def fio_figures(run):
    """(server's hostname, I/Os, IOPS) from fio --client's JSON."""
    with open(os.path.join(run, "fio.json")) as f:
        text = f.read()
    # fio --client prints its progress lines before the JSON object
    data = json.loads(text[text.index("{"):])
    for st in data.get("client_stats", []):
        if st.get("jobname") == "All clients":
            continue
        ios = st["read"]["total_ios"] + st["write"]["total_ios"]
        return st.get("hostname", "?"), ios, st["read"]["iops"] + st["write"]["iops"]
    raise SystemExit(f"{run}/fio.json: no client_stats entry (not fio --client's JSON?)")


def main():
    rows = []
    print(f"{'run':<8} {'fio server':<12} {'fio I/Os':>9} {'IOPS':>8} "
          f"{'target I/Os':>11} {'target instr/I/O':>16} {'initiator I/Os':>14} {'initiator instr/I/O':>19}")
    for run in sys.argv[1:]:
        host, fio_ios, iops = fio_figures(run)
        t_busy, t_ios, _ = side(run, "target")
        i_busy, i_ios, _ = side(run, "initiator")
        t, i = t_busy / t_ios, i_busy / i_ios
        rows.append((t, i))
        print(f"{os.path.basename(run.rstrip('/')):<8} {host:<12} {fio_ios:>9} {iops:>8.0f} "
              f"{t_ios:>11} {t:>16.0f} {i_ios:>14} {i:>19.0f}")
    if len(rows) > 1:
        for k, label in ((0, "target"), (1, "initiator")):
            vals = [r[k] for r in rows]
            mean = statistics.mean(vals)
            print(f"{label}: mean {mean:.0f} instructions per I/O, min {min(vals):.0f}, max {max(vals):.0f}, "
                  f"spread (max-min)/mean {100 * (max(vals) - min(vals)) / mean:.2f}%")


if __name__ == "__main__":
    main()

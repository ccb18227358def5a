#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""compare/two-host-report.py OUT: the report of a compare/two-host run: OUT/report.md from
meta.env, fio --client's JSON (fio.json) and each host's role, facts.txt and measure.txt (its
I/Os and perf stat counts over its window); the tables also go to stdout."""

import os
import sys

from lib import fio
from lib.env import read_env
from lib.facts import lines_of, read as read_facts, value


def measure(path):
    """{ios, window_ns, pmu, pmu_why, counts: {event: n}} of a host's measure.txt."""
    m = {"counts": {}}
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                w = line.split(None, 2)
                if not w:
                    continue
                if w[0] == "count" and len(w) == 3:
                    m["counts"][w[1]] = float(w[2])
                elif len(w) >= 2:
                    m[w[0]] = line.split(None, 1)[1].strip()
    except OSError:
        pass
    return m


def num(x):
    return f"{x:,.0f}"


def main():
    out = sys.argv[1]
    meta = read_env(os.path.join(out, "meta.env"))
    lines = [f"# Two hosts: ramlld's bio disk on {meta.get('target', '?')} exported by LIO iSCSI, "
             f"fio --client from {meta.get('controller', '?')}", ""]
    lines += [f"Command: `{meta.get('command', '?')}`", "",
              f"Job: {meta.get('job', '?')}; portal {meta.get('portal', '?')}:3260; each host counts "
              f"over {meta.get('window_s', '?')} s from the ramp's end after its own I/O started "
              f"(perf stat -a, its own I/O count); tree {meta.get('git', '?')}, started {meta.get('started', '?')}.", ""]
    hosts = []
    hroot = os.path.join(out, "hosts")
    for name in sorted(os.listdir(hroot)):
        d = os.path.join(hroot, name)
        role = read_env(os.path.join(d, "role")).get("role", "?")
        facts = lines_of(read_facts(os.path.join(d, "facts.txt")) or [], "")
        hosts.append((0 if role == "target" else 1, name, role, facts, measure(os.path.join(d, "measure.txt"))))
    hosts.sort()

    lines += ["## Hosts", "", "| host | role | kernel | CPU | online CPUs | frequency governors | PMU |", "|---|---|---|---|---|---|---|"]
    for _, name, role, facts, _m in hosts:
        pmu = "yes" if value(facts, "pmu", None) == "yes" else f"no PMU here ({value(facts, 'pmu_why', '?')})"
        lines.append(f"| {name} | {role} | {value(facts, 'kernel', '?')} | {value(facts, 'cpu_model', '?')} | "
                     f"{value(facts, 'cpus_online', '?')} | {value(facts, 'governors', '?')} | {pmu} |")
    lines.append("")

    lines += ["## fio (fio --client; fio.json's client_stats, one entry a server)", "",
              "| server | I/Os | IOPS | error | verify |", "|---|---:|---:|---:|---|"]
    verify = "verify=crc32c" in meta.get("job", "")
    for st in fio.clients(fio.read(os.path.join(out, "fio.json"))):
        (ios, iops), host, err = fio.job_counts(st), st.get("hostname", "?"), st.get("error", 0)
        v = "-"
        if verify:
            v = (f"crc32c: {num(st['read']['total_ios'])} blocks read back and checked, "
                 + ("none bad" if err == 0 else f"error {err}"))
        lines.append(f"| {host} | {num(ios)} | {num(iops)} | {err} | {v} |")
    lines.append("")

    lines += ["## Each side's cost per I/O (its hardware counters over its own I/Os)", "",
              "| host | role | I/Os in the window | window s | I/Os per s | instructions per I/O (user + kernel) | cycles per I/O |",
              "|---|---|---:|---:|---:|---|---:|"]
    notes = []
    for _, name, role, _f, m in hosts:
        ios = int(m.get("ios", "0") or 0)
        win = int(m.get("window_ns", "0") or 0) / 1e9
        c = m["counts"]
        if m.get("pmu") == "yes" and ios > 0:
            iu, ik = c.get("instructions:u", 0) / ios, c.get("instructions:k", 0) / ios
            cyc = (c.get("cycles:u", 0) + c.get("cycles:k", 0)) / ios
            ins, cy = f"{num(iu + ik)} ({num(iu)} + {num(ik)})", num(cyc)
        else:
            ins = cy = "-"
            notes.append(f"- {name}: no PMU here (perf stat says {m.get('pmu_why', '?')}): its I/Os are counted, "
                         "its instructions and cycles are not.")
        rate = num(ios / win) if win > 0 else "-"
        lines.append(f"| {name} | {role} | {num(ios)} | {win:.1f} | {rate} | {ins} | {cy} |")
    lines += [""] + notes + ["", "I/Os: LIO's SCSI commands on the target (scsi_lu num_cmds), the iSCSI disk's reads "
                             "and writes completed on an initiator. Each host's window starts RAMP s after it saw its own "
                             "first I/O and lasts RUNTIME-1 s: inside the job unless that host saw its first I/O over 1 s "
                             "late (its I/Os per s would then fall below the others')."]
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "report.md"), "w", encoding="utf-8") as f:
        f.write(text)
    print(text, end="")


if __name__ == "__main__":
    try:
        main()
    except (OSError, fio.BadJSON) as e:
        sys.exit(f"compare/two-host-report.py: {e}")

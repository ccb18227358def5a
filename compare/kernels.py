#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# compare/kernels.py: the per-kernel table of `compare/run --kernels`: reads each kernel's
# results.json (written by compare/report.py) and puts the block-vs-SCSI ratios side by side.
"""Usage: kernels.py DIR

DIR is a folder written by `compare/run --kernels LIST`: DIR/meta.env and one results folder
per kernel, DIR/<kernel>/ (each with the results.json that compare/report.py writes). Writes
DIR/kernels.md and DIR/kernels.json and prints the tables. Nothing but DIR is read.
"""

import json
import os
import sys

from lib.fmt import fmt, pm, table  # (the same as every report)
from lib import cli, doc
from lib.env import kernels_folder
from lib.results import clock_text
from lib.stats import ratio

SCSI = "ramlld-sd"


def load(root):
    meta, kernels = kernels_folder(root, "results.json")
    runs = []
    for k in kernels:
        path = os.path.join(root, k, "results.json")
        try:
            with open(path) as f:
                res = json.load(f)
        except (OSError, ValueError):
            runs.append({"kernel": k, "missing": True})
            continue
        idx = {(c["target"], c["profile"], c["workload"], c["section"]): c for c in res["cells"]}
        runs.append({"kernel": k, "missing": False, "meta": res["meta"], "idx": idx,
                     "cells": res["cells"], "notes": res.get("notes", [])})
    return meta, runs


def cell_keys(runs):
    """(profile, workload, section) measured on ramlld-sd in any run, in report order."""
    keys = []
    for r in runs:
        for c in r.get("cells", []):
            k = (c["profile"], c["workload"], c["section"])
            if c["target"] == SCSI and k not in keys:
                keys.append(k)
    return keys


def build(root):
    meta, runs = load(root)
    keys = cell_keys(runs)
    rows = []
    for r in runs:
        row = {"kernel": r["kernel"], "release": None, "accel": None, "wall_s": None, "cells": []}
        if r["missing"]:
            rows.append(row)
            continue
        m = r["meta"]
        row.update(release=m.get("kernel"), accel=m.get("accel"), clock=clock_text(m),
                   wall_s=m.get("wall_s"),
                   load=(m.get("host_load_start"), m.get("host_load_end")))
        for p, w, s in keys:
            b, q, c = (r["idx"].get((t, p, w, s)) for t in ("ramlld-bio", "ramlld-mq", SCSI))
            ent = {"profile": p, "workload": w, "section": s}
            for name, x in (("bio", b), ("mq", q), ("scsi", c)):
                ent[name + "_iops"] = x["iops"] if x else None
                ent[name + "_std"] = x["iops_std"] if x else None
            for name, x in (("bio", b), ("mq", q)):
                ent[name + "_scsi"], ent[name + "_scsi_std"] = (
                    ratio(x["iops"], x["iops_std"], c["iops"], c["iops_std"])
                    if x and c else (None, None))
            row["cells"].append(ent)
        mid = rel_cost(r["idx"], "default")
        row["scsi_added_us"] = mid["added_us"] if mid else None
        row["scsi_added_std"] = mid["added_std"] if mid else None
        row["scsi_added_pct"] = mid["added_pct"] if mid else None
        rows.append(row)
    return {"meta": meta, "keys": keys, "rows": rows}


def rel_cost(idx, profile):
    """What the SCSI midlayer adds per I/O, ramlld-sd − ramlld-mq on 4k randread QD32: in
    instructions on the exact clock, else /proc/stat's busy µs (None without both cells)."""
    cell = (profile, "qd32", "randread-4k-qd32")
    s, m = idx.get(("ramlld-sd",) + cell), idx.get(("ramlld-mq",) + cell)
    if not s or not m:
        return None
    key = "instr_per_io" if s.get("instr_per_io") else "cpu_us_per_io_stat"
    if s.get(key) is None or m.get(key) is None:
        return None
    d = s[key] - m[key]
    sd = ((s.get(key + "_std") or 0) ** 2 + (m.get(key + "_std") or 0) ** 2) ** 0.5
    return {"added_us": d, "added_std": sd, "added_pct": d * 100 / m[key] if m[key] else None,
            "unit": "instr/IO" if key == "instr_per_io" else "µs"}


def short(p, w, s):
    return f"{w}/{s}" + ("" if p == "default" else f" [{p}]")


def report_md(res):
    meta, keys, rows = res["meta"], res["keys"], res["rows"]
    L = ["# Block vs SCSI per kernel (ramlld, one store behind three front ends)", ""]
    L.append(f"Command: `{meta.get('command', '?')}`, {meta.get('date', '?')}, git "
             f"{meta.get('git', '?')}, {int(meta.get('wall_s', 0) or 0) // 60} min wall. "
             f"Per kernel: `compare/run {meta.get('per_kernel_args', '')} --kernel K` "
             "(one guest per kernel; each folder has its own report.md).")
    L.append("")
    L.append("Ratios of IOPS measured side by side in one guest per kernel (mean ± spread over "
             "the repeats). Under TCG (no KVM) the guest CPU is emulated: the ratios show how "
             "the kernels' paths compare on that emulated CPU, not what a real host gets, and "
             "absolute IOPS mean nothing across kernels.")
    L.append("")
    head = ["kernel", "release", "accel", "clock"]
    for k in keys:
        head += [f"{short(*k)} bio/scsi", "mq/scsi"]
    head.append("SCSI over mq per I/O (qd32: instructions on the exact clock, else CPU µs)")
    body = []
    for r in rows:
        if r["release"] is None:
            body.append([r["kernel"], "no results"] + ["-"] * (len(head) - 2))
            continue
        line = [r["kernel"], r["release"] or "-", r["accel"] or "-", r.get("clock") or "-"]
        by = {(e["profile"], e["workload"], e["section"]): e for e in r["cells"]}
        for k in keys:
            e = by.get(k)
            line += [pm(e["bio_scsi"], e["bio_scsi_std"], 2) if e else "-",
                     pm(e["mq_scsi"], e["mq_scsi_std"], 2) if e else "-"]
        line.append(
            f"{pm(r['scsi_added_us'], r['scsi_added_std'])} "
            f"({fmt(r['scsi_added_pct'], 0)} %)" if r["scsi_added_us"] is not None else "-")
        body.append(line)
    L.append(table(head, body))
    L.append("")
    L.append("IOPS behind the ratios (bio / mq / scsi):")
    L.append("")
    head = ["kernel"] + [short(*k) for k in keys] + ["wall (s)", "host load start/end"]
    body = []
    for r in rows:
        if r["release"] is None:
            continue
        by = {(e["profile"], e["workload"], e["section"]): e for e in r["cells"]}
        line = [r["kernel"]]
        for k in keys:
            e = by.get(k)
            line.append(" / ".join(fmt(e[t + "_iops"], 0) for t in ("bio", "mq", "scsi"))
                        if e else "-")
        line += [r["wall_s"] or "-", " / ".join(x or "-" for x in r["load"])]
        body.append(line)
    L.append(table(head, body))
    return L


def main(argv):
    root = cli.one_folder(argv, "kernels.py", __doc__, "meta.env",
                          "is not a folder of compare/run --kernels")
    res = build(root)
    md = doc.write(os.path.join(root, "kernels.md"), report_md(res), data=res)
    print(md, end="")
    print(f"kernels.py: {os.path.join(root, 'kernels.md')}")
    return 0 if all(r["release"] is not None for r in res["rows"]) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

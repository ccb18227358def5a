#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# compare/ledger.py: the per-core ledger of `compare/run --ledger`: instructions per
# I/O per row (one target, one engine setting, one module setting), what each feature toggled
# alone changed, and where the instructions went, stage by stage: from the row's exact profile
# where --ledger-profile ran for it, else from its perf profile.
"""Usage: ledger.py DIR            write DIR/ledger.md and DIR/ledger.json, print the tables
       ledger.py --kernels DIR  the rows of every DIR/<kernel>/ side by side (compare/run
                                --kernels ... --ledger): DIR/ledger-kernels.md
       ledger.py --profile-rows DIR  the ids of the rows compare/run --ledger-profile profiles,
                                one a line: each ladder pair of a profiled path (mq, sd, sg,
                                an NVMe generic device; compare/lib/ledgerprofile.py), a twin
                                before its path

DIR holds what compare/ledger-guest wrote: ledger.tsv, meta.env, perf/<id>.txt, and with
--ledger-profile iprofile/<id, / as _>/table.json (the ladder's pairs' exact profiles: their
rows' stages come from them, not from perf). On the exact
clock (meta.env clock=icount) 10^9 / IOPS is the whole guest's instructions per I/O: with one
vCPU the whole path's; with N vCPUs (N fio jobs, one a CPU) every CPU's, the vCPUs taking turns
on the one instruction-counted clock.
"""

import os
import sys

from lib.fmt import fmt, table  # (the same as every report)
from lib.perf import STAGE_ORDER as ORDER, stage_of, symbols
from lib import cli, doc, ledgerprofile
from lib.env import kernels_folder, read_env

def parse_perf(path):
    """{stage: share of the busy samples (%)}, the top symbols, or None."""
    st = {}
    syms = []
    for pct, kind, sym, _ in symbols(path):
        s = stage_of(kind, sym)
        st[s] = st.get(s, 0.0) + pct
        if s != "idle":
            syms.append((pct, sym, s))
    busy = sum(v for k, v in st.items() if k != "idle")
    if busy <= 0:
        return None
    return {"busy_pct": busy, "share": {k: v * 100 / busy for k, v in st.items() if k != "idle"},
            "top": [{"symbol": s, "pct_of_busy": p * 100 / busy, "stage": c} for p, s, c in syms[:12]]}


def read_rows(root):
    """ledger.tsv's rows; a row without an id or with an IOPS that is not a positive number
    stops the program (exit 2), naming the line: a figure from it would be wrong."""
    rows = []
    path = os.path.join(root, "ledger.tsv")
    with open(path, encoding="utf-8") as f:
        head = f.readline().rstrip("\n").split("\t")
        for n, line in enumerate(f, 2):
            r = dict(zip(head, line.rstrip("\n").split("\t")))
            try:
                r["iops"] = float(r["iops"]) if r.get("iops") else None
            except ValueError:
                r["iops"] = -1.0
            if not r.get("id") or (r["iops"] is not None and not r["iops"] > 0):
                print(f"ledger.py: {path} line {n}: bad row (allowed: an id, and an IOPS "
                      f"that is a number > 0 or empty): {line.strip()!r}", file=sys.stderr)
                sys.exit(2)
            rows.append(r)
    return rows


def base_of(r, by_id):
    """The row this one toggles one thing from: module toggles and throw-away from the same
    target's base row of that engine (throw-away: from the path's own target), engine features
    from the same target's io_uring row, io_uring from libaio."""
    tid, path = r["id"].split("/", 1)
    parts = path.split("/")
    if len(parts) > 1:                      # ramlld-mq/hipri-all/queue_rqs=0
        return by_id.get(f"{tid}/{parts[0]}")
    # around the block layer (compare/ledger-paths.sh): beside the block device's row of the
    # same store at the same depth, sg beside sd, an NVMe generic device beside its namespace
    if tid == "ramlld-sg":
        return by_id.get("ramlld-sd/" + parts[0].replace("sg", "io_uring", 1))
    if tid.startswith("ublk-"):             # a user-space block device beside ramlld's bio
        return by_id.get("ramlld-bio/" + parts[0])
    if tid.endswith("-ng"):
        return by_id.get(f"{tid[:-3]}/" + parts[0].replace("io_uring_cmd", "io_uring", 1))
    if tid.endswith("-tar"):
        return by_id.get(f"{tid[:-4]}/{parts[0]}")
    if parts[0] == "io_uring":
        return by_id.get(f"{tid}/libaio")
    if parts[0] != "libaio":
        return by_id.get(f"{tid}/io_uring")
    return None


# The ladder around the block layer: every path at one depth on ramlld's one store, each beside
# its block-path twin (the path it goes around or is built on): (label, target, twin target);
# the twin's row is the one of the same depth (its engine by TWIN_ENGINE). The NVMe stacks
# export ramlld's mq disk; a ublk loop target reads ramlld's bio disk.
LADDER = [("bio", "ramlld-bio", None),
          ("blk-mq", "ramlld-mq", "ramlld-bio"),
          ("sd (SCSI disk)", "ramlld-sd", "ramlld-mq"),
          ("sg (SCSI generic, /dev/sgN)", "ramlld-sg", "ramlld-sd"),
          ("nvme-tcp block (/dev/nvmeXnY)", "nvme-tcp", "ramlld-mq"),
          ("nvme-tcp passthrough (/dev/ngXnY)", "nvme-tcp-ng", "nvme-tcp"),
          ("nvme-loop block (/dev/nvmeXnY)", "nvme-loop", "ramlld-mq"),
          ("nvme-loop passthrough (/dev/ngXnY)", "nvme-loop-ng", "nvme-loop"),
          ("ublk null target", "ublk-null", "ramlld-bio"),
          ("ublk loop target over bio", "ublk-loop", "ramlld-bio")]
# the ladder's depths: each engine of its rows (compare/ledger-guest, compare/ledger-paths.sh)
# and the queue depth it keeps
DEPTH = {"io_uring-qd1": 1, "sg-qd1": 1, "io_uring_cmd-qd1": 1,
         "io_uring-qd16": 16, "sg-qd16": 16,
         "io_uring": 32, "io_uring_cmd": 32}
# a path's engine at a depth -> its twin's (the block device's io_uring at that depth)
TWIN_ENGINE = {"sg-qd1": "io_uring-qd1", "sg-qd16": "io_uring-qd16",
               "io_uring_cmd": "io_uring", "io_uring_cmd-qd1": "io_uring-qd1"}
# paths the ledger has no row for, with why (the ladder says it rather than leave them out)
LADDER_NO_ROW = [("bsg (/dev/bsg/*)", "fio's sg engine sends sg v3 headers (sg_io_hdr) and "
                  "/dev/bsg/* takes only v4 (sg_io_v4): no fio engine drives it")]
# the block devices of the ladder: the rest go around them or are built on them
BLOCK_PATHS = {"ramlld-bio", "ramlld-mq", "ramlld-sd", "nvme-tcp", "nvme-loop"}
# the ladder's stacks are the NVMe ones (their generic character device beside the block one)
LADDER_OPTIONAL = {"nvme-tcp", "nvme-tcp-ng", "nvme-loop", "nvme-loop-ng"}


def ladder(rows):
    """The ladder around the block layer from the ledger's rows: {"depths": [{"depth": N,
    "rungs": [...]}], "not_run": [(label, target, why)]}. A rung: its path, row id, status and
    note (an absent or failed row keeps its reason, never a figure), instructions per I/O, its
    twin's row and figure, the difference per I/O and in %, and the ratio to ramlld-bio's row
    of the same depth. A path's rows with a feature (ID/ENGINE/FEATURE: zero copy, sg's
    scatter_elem_sz) stand beside the same twin as the path's row without it."""
    by_id = {r["id"]: r for r in rows}
    depths = {}
    seen = set()
    for label, t, twin_t in LADDER:
        for r in rows:
            tid, _, rest = r["id"].partition("/")
            eng, _, feat = rest.partition("/")
            if tid != t or eng not in DEPTH:
                continue
            # a block path's own feature rows (toggles) are the ledger table's, not the ladder's
            if feat and t in BLOCK_PATHS:
                continue
            seen.add(t)
            d = DEPTH[eng]
            tw = by_id.get(f"{twin_t}/{TWIN_ENGINE.get(eng, eng)}") if twin_t else None
            # a block path's twin is context, shown where the ledger measured it (sd's QD16
            # row has none: it is there for sg's); a path around the block layer's is the point
            if not tw and t in BLOCK_PATHS:
                twin_t = None
            bio = by_id.get(f"ramlld-bio/{TWIN_ENGINE.get(eng, eng)}")
            v = r["instr_per_io"] if r["status"] == "ok" else None
            tv = tw["instr_per_io"] if tw and tw["status"] == "ok" else None
            bv = bio["instr_per_io"] if bio and bio["status"] == "ok" else None
            depths.setdefault(d, []).append({
                "path": label + (f", {feat}" if feat else ""), "id": r["id"],
                "status": r["status"], "note": r.get("note", ""), "instr_per_io": v,
                "twin": f"{twin_t}/{TWIN_ENGINE.get(eng, eng)}" if twin_t else None,
                "twin_status": tw["status"] if tw else ("not in this run" if twin_t else None),
                "twin_instr_per_io": tv,
                "delta": v - tv if v and tv else None,
                "delta_pct": (v - tv) * 100 / tv if v and tv else None,
                "x_bio": v / bv if v and bv else None})
    not_run = [(label, t, "not selected (--ledger-stacks, --ledger-rows)" if t in LADDER_OPTIONAL
                else "not selected (--ledger-rows)")
               for label, t, _ in LADDER if t not in seen]
    not_run += [(label, None, why) for label, why in LADDER_NO_ROW]
    return {"depths": [{"depth": d, "rungs": depths[d]} for d in sorted(depths)],
            "not_run": not_run}


def ladder_markdown(lad, unit):
    """The ladder's tables, one a depth, and what is not in it, with why."""
    if not lad["depths"]:
        return []
    L = ["## Around the block layer: the ladder", "",
         "Every path at one queue depth on ramlld's one store (4k random reads), beside its "
         "block-path twin: blk-mq over bio, sd over blk-mq, sg over sd on the same LUN, an NVMe "
         "stack's block device over ramlld's mq disk it exports, its passthrough character "
         "device over that block device, ublk over ramlld's bio disk. `Δ` = the path's "
         f"{unit} minus its twin's: what it adds (+) or saves (−) per I/O; `× bio` = over "
         "ramlld-bio at the same depth. A row the kernel or a tool cannot run is absent with "
         "why, never a figure.", ""]
    for d in lad["depths"]:
        L.append(f"### QD{d['depth']}")
        L.append("")
        body = []
        for g in d["rungs"]:
            if g["status"] != "ok":
                body.append([g["path"], g["id"], f"**{g['status']}**: {g['note']}",
                             g["twin"] or "-", "-", "-", "-", "-"])
                continue
            tw = (fmt(g["twin_instr_per_io"], 0) if g["twin_instr_per_io"] is not None
                  else g["twin_status"] or "-")
            body.append([g["path"], g["id"], fmt(g["instr_per_io"], 0), g["twin"] or "-", tw,
                         f"{g['delta']:+,.0f}" if g["delta"] is not None else "-",
                         f"{g['delta_pct']:+.1f}" if g["delta_pct"] is not None
                         else "-", f"{g['x_bio']:.2f}" if g["x_bio"] is not None else "-"])
        L.append(table(["path", "row", unit, "twin", f"twin's {unit}", "Δ per I/O", "Δ %",
                        "× bio"], body, "llrlrrrr"))
        L.append("")
    if lad["not_run"]:
        L.append("Not in this ladder: " + "; ".join(
            f"{label} (`{t}`: {why})" if t else f"{label} ({why})"
            for label, t, why in lad["not_run"]) + ".")
        L.append("")
    L += ledgerprofile.markdown(lad.get("profiles"), unit)
    return L


def build(root, profiles=True):
    meta = read_env(os.path.join(root, "meta.env"))
    exact = meta.get("clock") == "icount"
    rows = read_rows(root)
    by_id = {r["id"]: r for r in rows}
    for r in rows:
        r["instr_per_io"] = 1e9 / r["iops"] if exact and r["iops"] else None
        pf = parse_perf(os.path.join(root, "perf", r["id"].replace("/", "_") + ".txt"))
        r["perf_busy_pct"] = pf["busy_pct"] if pf else None
        r["stages"] = ({k: v / 100 * r["instr_per_io"] for k, v in pf["share"].items()}
                       if pf and r["instr_per_io"] else None)
        r["stage_share"] = pf["share"] if pf else None
        r["top"] = pf["top"] if pf else []
        r["split"] = "perf" if r["stages"] else None
        # the plugin's exact counts where the row was profiled: perf's sampled split left
        xs = ledgerprofile.stages(root, r["id"]) if profiles and r["status"] == "ok" else None
        if xs:
            r.update(stages=xs["stages"], split="exact", split_total=xs["total"],
                     split_n=xs["n"])
    for r in rows:
        b = base_of(r, by_id)
        r["base"] = b["id"] if b else None
        r["delta"] = (r["instr_per_io"] - b["instr_per_io"]
                      if b and r["instr_per_io"] and b["instr_per_io"] else None)
        r["delta_pct"] = r["delta"] * 100 / b["instr_per_io"] if r["delta"] is not None else None
        if r["delta"] is not None and r["stages"] and b["stages"] and r["split"] == b["split"]:
            r["stage_delta"] = {k: r["stages"].get(k, 0) - b["stages"].get(k, 0) for k in ORDER}
        else:
            r["stage_delta"] = None
    cheapest = {}
    for r in rows:
        if r["status"] == "ok" and r["iops"]:
            c = cheapest.get(r["target"])
            if not c or r["iops"] > c["iops"]:
                cheapest[r["target"]] = r
    lad = ladder(rows) if exact else None
    if lad and profiles:
        lad["profiles"] = ledgerprofile.load(root, lad)
    return {"meta": meta, "exact": exact, "rows": rows, "ladder": lad,
            "cheapest": {t: {"id": c["id"], "iops": c["iops"], "instr_per_io": c["instr_per_io"]}
                         for t, c in cheapest.items()}}


def fmt_stage(r, k):
    v = (r["stages"] or {}).get(k)
    return fmt(v, 0) if v is not None else "-"


def biggest_moves(r, n=2):
    d = r.get("stage_delta")
    if not d:
        return "-"
    big = sorted(d.items(), key=lambda kv: -abs(kv[1]))[:n]
    return ", ".join(f"{k} {v:+,.0f}" for k, v in big if abs(v) >= 50) or "no stage moved 50"


def markdown(res, title="Per-core ledger"):
    m = res["meta"]
    unit = "instructions/IO" if res["exact"] else "IOPS"
    L = [f"# {title}", ""]
    L.append(f"Kernel {m.get('kernel', '?')}, {m.get('cpus', '?')} vCPU, clock "
             f"{m.get('clock', '?')}, QEMU {m.get('qemu') or '?'}, {m.get('fio', '?')}; "
             f"{m.get('runtime', '?')} s counted per row, perf over {m.get('perf_runtime', '?')} s "
             f"of I/O per row (perf={m.get('perf', '?')}); command: "
             f"`{m.get('command', 'compare/run --ledger')}`.")
    L.append("")
    rw = "writes" if m.get("rw") == "randwrite" else "reads"
    ncpu = int(m.get("cpus") or 1)
    jobs = "one job" if ncpu == 1 else f"{ncpu} jobs, one pinned to each vCPU, IOPS summed"
    L.append(f"Workload: compare/workloads/percore.fio's [global] (4k random {rw}, {jobs}, depth "
             "32 submitted and reaped 8 at a time), queue settings of profile one-core-peak "
             "(scheduler none, iostats 0, nomerges 2; on an NVMe multipath head's path disks "
             "too). ramlld's base: `mode=all nr_hw_queues=1 "
             "submit_queues=1 poll_queues=1 can_queue=64 queue_rqs=1 complete_batch=1 irqmode=0`; "
             "each row changes one thing from its base row (column `vs`). Engines: `hipri-all` = "
             "io_uring hipri + fixedbufs + registerfiles; `io_uring-qd1` = io_uring at depth 1 "
             "(one I/O in flight); the others add one option to io_uring. Around the block layer "
             "(compare/ledger-paths.sh): `sg-qd1` = fio's sg engine on the LUN's /dev/sgN, one "
             "write() and read() an I/O; `sg-qd16` = sg queued, 16 in flight (the sg driver's "
             "limit per open file), beside `ramlld-sd/io_uring-qd16`; `io_uring_cmd` = NVMe "
             "passthrough on /dev/ngXnY, beside the stack's io_uring row on /dev/nvmeXnY.")
    L.append("")
    if res["exact"]:
        who = ("the whole path" if ncpu == 1 else
               f"the whole path on all {ncpu} vCPUs, which take turns on the one counted clock, "
               "with what they cost each other")
        L.append("On the exact clock, instructions per I/O = 10^9 / IOPS (fio, "
                 f"syscalls, block layer, driver, completion: {who}). Stages: each "
                 "function split by name into stages (compare/lib/perf.py STAGES). `split` "
                 "exact: the plugin's count of every function (`--ledger-profile`: the row's "
                 "iprofile/ID/table.json, tools/iprofile/guest-cell's set-up of its target and "
                 "engine, a window inside fio's steady I/O, QEMU 7.2, 1 vCPU), the stages "
                 "summing to the window's instructions per I/O (in brackets), not to the "
                 "row's; perf: the row's perf self samples (cpu-clock, which fires every N "
                 "guest ns = N instructions) as shares of the busy samples times the row's "
                 "instructions per I/O, sampled. `Δ` = instructions per I/O over its base row; "
                 "`moved most` = the stages whose instructions changed most, where the row and "
                 "its base have the same split.")
        L.append("")
    head = ["row", "module", unit, "vs", "Δ", "Δ %", "split"] + ORDER + ["moved most"]
    body = []
    for r in res["rows"]:
        if r["status"] != "ok":
            body.append([r["id"], r["module"], f"**{r['status']}**: {r['note']}"] + ["-"] * (len(head) - 3))
            continue
        body.append([r["id"], r["module"],
                     fmt(r["instr_per_io"], 0) if res["exact"] else fmt(r["iops"], 0),
                     r["base"] or "-", f"{r['delta']:+,.0f}" if r["delta"] is not None else "-",
                     f"{r['delta_pct']:+.1f}" if r["delta_pct"] is not None else "-",
                     f"exact ({fmt(r['split_total'], 0)})" if r["split"] == "exact"
                     else r["split"] or "-"]
                    + [fmt_stage(r, k) for k in ORDER] + [biggest_moves(r)])
    L.append(table(head, body))
    L.append("")
    L.append("Cheapest row per target:")
    L.append("")
    L.append(table(["target", "row", unit], [
        [t, c["id"], fmt(c["instr_per_io"], 0) if res["exact"] else fmt(c["iops"], 0)]
        for t, c in sorted(res["cheapest"].items(), key=lambda kv: -(kv[1]["iops"] or 0))]))
    if res["ladder"]:
        L.append("")
        L += ladder_markdown(res["ladder"], unit)
    return L


def kernels_markdown(root):
    """Every kernel's rows side by side: DIR/<kernel>/ledger.tsv of compare/run --kernels."""
    meta, ks = kernels_folder(root, "ledger.tsv")
    runs = []
    for k in ks:
        try:
            runs.append((k, build(os.path.join(root, k))))
        except OSError:
            runs.append((k, None))
    ids = []
    for _, res in runs:
        for r in (res or {}).get("rows", []):
            if r["id"] not in ids:
                ids.append(r["id"])
    cpus = next((r["meta"].get("cpus") for _, r in runs if r and r["meta"].get("cpus")), "?")
    L = ["# Per-core ledger per kernel", ""]
    L.append(f"Command: `{meta.get('command', '?')}`, {meta.get('date', '?')}, git "
             f"{meta.get('git', '?')}. Per kernel: compare/ledger-guest in one "
             f"{cpus}-vCPU guest; each "
             "folder has its own ledger.md with the stage split.")
    L.append("")
    head = ["row"]
    for k, res in runs:
        rel = (res or {}).get("meta", {}).get("kernel", "no results")
        clk = (res or {}).get("meta", {}).get("clock", "?")
        head.append(f"{k} ({rel}, {clk})")
    head += ["change (first → last kernel)"]
    body = []
    for i in ids:
        line = [i]
        vals = []
        for _, res in runs:
            r = next((x for x in (res or {}).get("rows", []) if x["id"] == i), None)
            if not r:
                line.append("-")
                vals.append(None)
            elif r["status"] != "ok":
                line.append(f"{r['status']}: {r['note']}")
                vals.append(None)
            else:
                v = r["instr_per_io"] if res["exact"] else r["iops"]
                line.append(fmt(v, 0))
                vals.append(v)
        have = [v for v in vals if v]
        line.append(f"{(have[-1] - have[0]) * 100 / have[0]:+.1f} %" if len(have) >= 2 else "-")
        body.append(line)
    L.append(table(head, body))
    L.append("")
    L.append("Cheapest row per target and kernel:")
    L.append("")
    targets = []
    for _, res in runs:
        for t in (res or {}).get("cheapest", {}):
            if t not in targets:
                targets.append(t)
    body = []
    for t in targets:
        line = [t]
        for _, res in runs:
            c = (res or {}).get("cheapest", {}).get(t)
            line.append(f"{fmt(c['instr_per_io'] or c['iops'], 0)} ({c['id'].split('/', 1)[1]})"
                        if c else "-")
        body.append(line)
    L.append(table(["target"] + head[1:-1], body))
    return L, runs


def main(argv):
    if len(argv) == 2 and argv[0] == "--kernels" and argv[1] not in ("-h", "--help"):
        lines, runs = kernels_markdown(argv[1])
        md = doc.write(os.path.join(argv[1], "ledger-kernels.md"), lines)
        print(md, end="")
        return 0 if all(res for _, res in runs) else 1
    if len(argv) == 2 and argv[0] == "--profile-rows" and argv[1] not in ("-h", "--help"):
        res = build(cli.one_folder(argv[1:], "ledger.py", __doc__, "ledger.tsv",
                                   "has no ledger.tsv (compare/run --ledger writes it)"), False)
        print("".join(i + "\n" for i in ledgerprofile.rows_to_profile(res["ladder"] or
                                                                   {"depths": []})), end="")
        return 0
    root = cli.one_folder(argv, "ledger.py", __doc__, "ledger.tsv",
                          "has no ledger.tsv (compare/run --ledger writes it)")
    res = build(root)
    print(doc.write(os.path.join(root, "ledger.md"), markdown(res), data=res), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

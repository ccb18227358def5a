# SPDX-License-Identifier: GPL-2.0
# compare/ladder.py: the cost ladder's report section (issue 19, docs/stacks.md): the same ramlld
# store read through bio, mq, sd and each kernel storage stack built over ramlld's mq disk, each
# rung's figures, its increment over the rung it is built on, and that increment attributed to
# the functions of each layer from the rung's perf profile. Imported by compare/report.py.
"""The cost ladder of a results folder (compare/report.py's section "Cost ladder")."""

import os
import re

from seeds import fmt, md_table  # the report's one number and table format

# (rung, target, the target of the rung it is built on): bio, mq and sd are ramlld's own front
# ends over the one store; every stack exports ramlld's mq disk (compare/targets/common/stack.sh),
# and iSCSI and SRP put another transport where lio-iblock has tcm_loop.
RUNGS = [
    ("bio", "ramlld-bio", None),
    ("mq", "ramlld-mq", "ramlld-bio"),
    ("sd", "ramlld-scsi", "ramlld-mq"),
    ("tcm_loop/iblock", "lio-iblock", "ramlld-mq"),
    ("iSCSI", "iscsi", "lio-iblock"),
    ("SRP", "srp", "lio-iblock"),
    ("NVMe/TCP", "nvme-tcp", "ramlld-mq"),
    ("NVMe/RDMA", "nvme-rdma", "ramlld-mq"),
    ("nvme-loop", "nvme-loop", "ramlld-mq"),
]
# (title, workload, section) of the ladder's columns, under the default profile
CELLS = [("4k randread QD1", "lat-qd1", "randread-4k-qd1"),
         ("4k randread QD32", "qd32", "randread-4k-qd32"),
         ("1 MiB seq read QD4", "ladder", "read-1m-qd4")]
PROFILE = "default"
# The breakdown's cell (compare/guest-run profiles 4k randread QD32 of each target).
BD_CELL = ("qd32", "randread-4k-qd32")
# Layers a kernel symbol belongs to (first match wins), so that an increment splits into what
# each layer added. Self time: cpu-clock samples land where interrupts are re-enabled, so a
# layer's figure is a lower bound and 'other kernel' holds some of every layer's time.
LAYERS = [
    ("idle", r"^(native_safe_halt|default_idle|default_idle_call|cpu_idle|do_idle|acpi_idle|"
             r"intel_idle|mwait_idle|arch_cpu_idle|cpuidle_|poll_idle)"),
    ("copy", r"(memcpy|memmove|^copy_|_copy_|rep_movs|copy_user|copy_page|memset|clear_page|"
             r"csum_partial)"),
    ("ramlld", r"^ramlld_"),
    ("LIO", r"^(tcm_loop|target_|__target_|transport_|sbc_|spc_|iblock_|core_alua|core_tmr|"
            r"core_scsi3|core_tpg|core_dev)"),
    ("iSCSI", r"^(iscsit_|__iscsit_|iscsi_|__iscsi_|lio_)"),
    ("SRP", r"^(srp_|__srp_|srpt_|__srpt_)"),
    ("NVMe", r"^(nvme_|__nvme_|nvmet_|__nvmet_)"),
    # soft-RoCE computes each packet's ICRC with the kernel's crc32
    ("RDMA", r"^(rxe_|__rxe_|ib_|__ib_|rdma_|__rdma_|cma_|cm_|crc32_|__crc32)"),
    ("network", r"^(tcp_|__tcp_|ip_|__ip_|inet_|__inet_|sk_|__sk_|sock_|__sock_|skb_|__skb_|"
                r"kfree_skb|consume_skb|alloc_skb|__alloc_skb|dev_|__dev_|netif_|__netif_|"
                r"net_|__net_|napi_|__napi_|loopback_|process_backlog|dst_|__dst_|udp_|"
                r"neigh_|eth_|qdisc_|__qdisc_|sch_|validate_xmit|kernel_sendmsg|kernel_recvmsg|"
                r"sendmsg|recvmsg|__sys_sendmsg|___sys_sendmsg|release_sock|lock_sock)"),
    # handing work to kernel threads and workqueues, and switching to them (the stacks' targets
    # and transports run there; finish_task_switch also takes the samples deferred while a
    # switch had interrupts off)
    ("sched+workqueue", r"^(finish_task_switch|__schedule|schedule$|schedule_|try_to_wake_up|"
                        r"ttwu_|wake_up_|__wake_up|queue_work_on|__queue_work|"
                        r"mod_delayed_work_on|process_one_work|worker_thread|kthread|"
                        r"enqueue_task|dequeue_task|pick_next_task|put_prev_task|"
                        r"set_next_entity|update_curr|select_task_rq|__switch_to|switch_mm|"
                        r"update_rq_clock|psi_|sched_)"),
    ("scsi+sd", r"^(scsi_|__scsi_|sd_|sd\b|scsi\b|scsi_mq_|scmd_)"),
    ("block", r"^(blk_|__blk_|bio_|__bio_|submit_bio|__submit_bio|bvec_|dd_|__dd_|"
              r"elv_|blkdev_|__blkdev_|bdev_)"),
]
LAYER_NAMES = [n for n, _ in LAYERS if n != "idle"] + ["other kernel", "user"]


def perf_symbols(path):
    """(pct, kind, symbol) of every line of `perf report --stdio --sort symbol -g none`."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return [(float(mo.group(1)), mo.group(2), mo.group(3)) for mo in
                    (re.match(r"\s*([\d.]+)%\s+\[(.)\]\s+(\S+)", line) for line in f) if mo]
    except OSError:
        return []


def layer_of(kind, sym):
    if kind != "k":
        return "user"
    for name, rx in LAYERS:
        if re.search(rx, sym):
            return name
    return "other kernel"


def profile(root, target, total, own_rx):
    """A rung's perf profile (breakdown/<target>/perf.txt) as cost per I/O: per layer, and its
    own functions' (own_rx, the target file's own-functions) largest. total: the rung's cost per
    I/O in the breakdown's cell; a symbol's cost is its share of the busy samples times that."""
    bd = os.path.join(root, "breakdown", target)
    # a breakdown under another profile than the ladder's (the exact quick level's of ramlld's
    # paths: seed-001) would split the wrong cell's cost
    try:
        with open(os.path.join(bd, "profile.env"), encoding="utf-8") as f:
            prof = dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)
    except OSError:
        prof = {}
    if prof.get("profile", PROFILE) != PROFILE:
        return None
    syms = perf_symbols(os.path.join(bd, "perf.txt"))
    if not syms or not total:
        return None
    layer = {n: 0.0 for n in LAYER_NAMES}
    idle = 0.0
    for pct, kind, sym in syms:
        n = layer_of(kind, sym)
        if n == "idle":
            idle += pct
        else:
            layer[n] += pct
    busy = sum(layer.values())
    if busy <= 0:
        return None
    own = []
    if own_rx:
        own = [(sym, pct / busy * total) for pct, kind, sym in syms
               if kind == "k" and re.fullmatch(own_rx, sym)]
        own.sort(key=lambda x: -x[1])
    return {"layers": {n: v / busy * total for n, v in layer.items()},
            "idle_pct": idle, "own_total": sum(c for _, c in own), "own_top": own[:6]}


def section(root, idx, targets, exact):
    """The ladder of a results folder: None when it measured no rung of it."""
    key = "instr_per_io" if exact else "cpu_us_per_io_stat"
    rows, bd = [], {}
    by_target = {t: r for r, t, _ in RUNGS}
    for rung, t, below in RUNGS:
        cells = {}
        for title, w, s in CELLS:
            c = idx.get((t, PROFILE, w, s))
            if not c or not c.get("iops"):
                continue
            b = idx.get((below, PROFILE, w, s)) if below else None
            v = {"iops": c["iops"], "lat_mean_us": c["lat_mean_us"],
                 "lat_p50_us": c["lat_p50_us"], "lat_p99_us": c["lat_p99_us"],
                 "lat_p999_us": c["lat_p999_us"], "cost": c.get(key), "n": c["n"],
                 "det": (c.get("determinism") or {}).get("ok")}
            if b and b.get("iops"):
                v["d_cost"] = (c[key] - b[key]
                               if c.get(key) is not None and b.get(key) is not None else None)
                v["d_lat_us"] = (c["lat_mean_us"] - b["lat_mean_us"]
                                 if c["lat_mean_us"] is not None and b["lat_mean_us"] is not None
                                 else None)
                v["iops_ratio"] = c["iops"] / b["iops"]
            cells[title] = v
        if cells:
            rows.append({"rung": rung, "target": t, "below": by_target.get(below),
                         "below_target": below, "cells": cells})
            bc = idx.get((t, PROFILE) + BD_CELL)
            prof = profile(root, t, bc.get(key) if bc else None,
                           (targets.get(t) or {}).get("own-functions"))
            if prof:
                bd[t] = prof
    if not rows:
        return None
    inc = []
    for r in rows:
        p, q = bd.get(r["target"]), bd.get(r["below_target"])
        if not p or not q:
            continue
        d = {n: p["layers"][n] - q["layers"][n] for n in LAYER_NAMES}
        inc.append({"rung": r["rung"], "below": r["below"],
                    "total": sum(p["layers"].values()) - sum(q["layers"].values()),
                    "layers": d, "own_top": p["own_top"], "own_total": p["own_total"]})
    return {"rows": rows, "breakdown": bd, "increments": inc, "exact": exact,
            "unit": "instr/IO" if exact else "CPU µs/IO",
            "missing": [(rung, t) for rung, t, _ in RUNGS
                        if t not in {r["target"] for r in rows}]}


def _cost(x, exact):
    return fmt(x) if exact else fmt(x, 2)


def _signed(x, exact):
    if x is None:
        return "-"
    return ("+" if x >= 0 else "−") + _cost(abs(x), exact)


def markdown(sec, notes):
    """The section's lines (none without a ladder). notes: the run's notes (why a rung is
    missing: a kernel without the stack is skipped by name)."""
    if not sec:
        return []
    ex, unit = sec["exact"], sec["unit"]
    L = ["## Cost ladder (the same store through each layer and stack)",
         "Every rung reads ramlld's one store: bio, mq and sd are ramlld's "
         "own front ends; each stack exports ramlld's mq disk (docs/stacks.md). 'over' is the "
         "rung it is built on; Δ is this rung minus that one. "
         + ("Cost = instructions per I/O (10^9 / IOPS on the exact clock: the whole path, fio "
            "included)." if ex else
            "Cost = busy CPU µs per I/O (/proc/stat, all CPUs, the ramp counted in)."), ""]
    for title, _, _ in CELLS:
        rows = []
        for r in sec["rows"]:
            v = r["cells"].get(title)
            if not v:
                continue
            rows.append([r["rung"], r["target"], fmt(v["iops"]), fmt(v["lat_mean_us"]),
                         fmt(v["lat_p50_us"]), fmt(v["lat_p99_us"]), fmt(v["lat_p999_us"]),
                         _cost(v["cost"], ex) + ("" if v["det"] is not False else " ⚠"),
                         r["below"] or "-", _signed(v.get("d_cost"), ex),
                         _signed(v.get("d_lat_us"), False) if "d_lat_us" in v else "-",
                         fmt(v.get("iops_ratio"), 2)])
        if rows:
            L.append(f"### {title}")
            L.append(md_table(["rung", "target", "IOPS", "mean lat µs", "p50 µs", "p99 µs",
                               "p99.9 µs", unit, "over", f"Δ {unit}", "Δ mean lat µs",
                               "IOPS / over"], rows))
            L.append("")
    if sec["increments"]:
        L.append(f"### Where each increment goes (4k randread QD32, {unit} by layer)")
        L.append("Each rung's perf profile (breakdown/<target>/perf.txt: cpu-clock, self time, "
                 "its traced 4k randread QD32 run) splits its cost by layer (symbol prefixes: compare/ladder.py LAYERS); "
                 "the increment of each layer is this rung's minus the rung's below. Samples "
                 "land where interrupts are re-enabled, so 'other kernel' and "
                 "'sched+workqueue' (finish_task_switch) hold some of every layer. 'own "
                 "functions': the largest of the rung's own (its target file's "
                 "own-functions), self time.")
        L.append("")
        rows = []
        for i in sec["increments"]:
            parts = sorted(((n, d) for n, d in i["layers"].items()
                            if abs(d) >= max(abs(i["total"]) * 0.03, 1e-9)),
                           key=lambda x: -abs(x[1]))
            rows.append([i["rung"], i["below"], _signed(i["total"], ex),
                         ", ".join(f"{n} {_signed(d, ex)}" for n, d in parts) or "-",
                         _cost(i["own_total"], ex),
                         ", ".join(f"`{s}` {_cost(c, ex)}" for s, c in i["own_top"][:4]) or "-"])
        L.append(md_table(["rung", "over", f"Δ {unit}", "Δ by layer", "own functions",
                           "largest own functions"], rows))
        L.append("")
    if sec["missing"]:
        why = {n["target"]: n["text"] for n in notes if n["kind"] == "skip"}
        cut = any(n["kind"] == "fail" and n["target"] == "guest" for n in notes)
        L.append("Not in this run: " + "; ".join(
            f"{rung} (`{t}`: {why[t]})" if t in why else
            f"{rung} (`{t}`: not selected, or not reached before the guest ended: Notes)" if cut
            else f"{rung} (`{t}`: not selected)"
            for rung, t in sec["missing"]) + ".")
        L.append("")
    return L


def text(sec):
    """Short lines for the terminal: one per rung, the three cells' cost and increment."""
    if not sec:
        return []
    ex, unit = sec["exact"], sec["unit"]
    out = [f"cost ladder ({unit}, Δ over the rung below; 4k QD1 | 4k QD32 | 1 MiB QD4):"]
    for r in sec["rows"]:
        parts = []
        for title, _, _ in CELLS:
            v = r["cells"].get(title)
            parts.append(f"{fmt(v['iops'])} IOPS {_cost(v['cost'], ex)} "
                         f"({_signed(v.get('d_cost'), ex)})" if v else "-")
        out.append(f"  {r['rung']:16} over {r['below'] or '-':16} " + " | ".join(parts))
    return out


def plot(root, sec, plt):
    """ladder.png: each rung's cost per I/O in the three cells."""
    if not sec:
        return []
    fig, ax = plt.subplots(figsize=(max(6, len(sec["rows"]) * 1.1), 4))
    wdt = 0.8 / len(CELLS)
    for i, (title, _, _) in enumerate(CELLS):
        xs, ys = [], []
        for j, r in enumerate(sec["rows"]):
            v = r["cells"].get(title)
            if v and v["cost"] is not None:
                xs.append(j + i * wdt)
                ys.append(v["cost"])
        ax.bar(xs, ys, wdt, label=title)
    ax.set_xticks([j + wdt for j in range(len(sec["rows"]))])
    ax.set_xticklabels([r["rung"] for r in sec["rows"]], rotation=30, ha="right", fontsize=8)
    ax.set_ylabel(sec["unit"])
    ax.set_yscale("log")
    ax.set_title("Cost ladder: the same store through each layer and stack")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(root, "ladder.png"), dpi=90)
    plt.close(fig)
    return ["ladder.png"]

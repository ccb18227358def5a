# SPDX-License-Identifier: GPL-2.0
"""The one perf-report parser and the one symbol-to-layer table of the report, and the
breakdown (breakdown/<target>/: btt.txt, perf.txt, perf-driver.txt) read with them."""

import glob
import os
import re

from .env import read_env
from .results import read_queue

# The layer a kernel symbol belongs to, first match wins (a trailing .isra.0 and the like is
# taken off first). Self time: cpu-clock samples land where interrupts are re-enabled
# (_raw_spin_unlock_irqrestore, handle_softirqs), so a layer's figure is a lower bound and
# 'other kernel' holds some of every layer's time.
LAYERS = [
    ("idle", r"^(native_safe_halt|default_idle|default_idle_call|cpu_idle|do_idle|acpi_idle|"
             r"intel_idle|mwait_idle|arch_cpu_idle|cpuidle_|poll_idle|default_enter_idle)"),
    ("copy", r"(memcpy|memmove|^copy_|_copy_|rep_movs|copy_user|copy_page|memset|clear_page|"
             r"csum_partial)"),
    ("ramlld", r"^ramlld_"),
    ("other driver", r"^(brd_|null_|nullb_|sdebug_|sdeb_|scsi_debug_|resp_|schedule_resp|"
                     r"do_device_access|fill_from_dev_buffer|fetch_to_dev_buffer|"
                     r"check_device_access_params|lba2fake_store|devip2sip|virtio_)"),
    ("LIO", r"^(tcm_loop|target_|__target_|transport_|sbc_|spc_|iblock_|rd_|core_alua|core_tmr|"
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
    ("scsi+sd", r"^(scsi_|__scsi_|sd_|sd\b|scsi\b|scsi_mq_|scmd_|sdev_|starget_)"),
    ("block", r"^(blk_|__blk_|bio_|__bio_|submit_bio|__submit_bio|bvec_|dd_|__dd_|"
              r"elv_|blkdev_|__blkdev_|bdev_|sbitmap_|__sbitmap_|sbq_|__sbq_|sg_|__sg_|rq_qos_|"
              r"wbt_|disk_|part_|update_io_ticks|should_fail_bio)"),
    ("page cache", r"(^filemap_|^__filemap_|^page_cache_|readahead|^read_pages|folio|^xa_|^xas_|"
                   r"^__xa_|^lru_|^__lru_|mpage|^workingset_|^mark_page_accessed|mem_cgroup|"
                   r"alloc_pages|^get_page_from_freelist|^rmqueue|^__rmqueue|^free_unref_|"
                   r"^free_pcp|^__free_pages|^release_pages|^invalidate_mapping_pages|"
                   r"^mapping_|^__remove_mapping|^truncate_|^prep_new_page|^post_alloc_hook)"),
]
LAYER_RX = [(n, re.compile(rx)) for n, rx in LAYERS]
LAYER_NAMES = [n for n, _ in LAYERS if n != "idle"] + ["other kernel", "user"]
LINE_RX = re.compile(r"\s*([\d.]+)%\s+(?:(\d+)\s+)?\[(.)\]\s+(\S+)")


def symbols(path):
    """(pct, kind, symbol, samples) of every line of `perf report --stdio --sort symbol -g
    none` (samples: the count -n printed, else None); [] without the file."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return [(float(mo.group(1)), mo.group(3), mo.group(4),
                     int(mo.group(2)) if mo.group(2) else None)
                    for mo in (LINE_RX.match(line) for line in f) if mo]
    except OSError:
        return []


def total_samples(path):
    """The sample count of a perf report's '# Samples: N[KM]' line (the last), 0 without one."""
    n = 0
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                mo = re.match(r"# Samples:\s*([0-9.]+)([KM]?)", line)
                if mo:
                    n = float(mo.group(1)) * {"": 1, "K": 1e3, "M": 1e6}[mo.group(2)]
    except OSError:
        pass
    return n


def base_name(sym):
    return re.sub(r"\.(isra|part|constprop|cold|llvm)\.?\d*.*$", "", sym)


def layer_of(kind, sym):
    if kind != "k":
        return "user"
    b = base_name(sym)
    for name, rx in LAYER_RX:
        if rx.search(b):
            return name
    return "other kernel"


# The ledger's stages of an I/O (compare/ledger.py): a symbol of the layers ramlld and other
# driver is the driver's, idle and user are the layer table's; any other goes to the first of
# these whose pattern matches its name (completion is looked for before submission and
# dispatch: bio_endio and scsi_done are bio_/scsi_ names too), else to "other kernel". "driver"
# here: the copies and the library calls drivers make for their data.
STAGES = [
    ("driver", r"^(memcpy.*|__memcpy.*|memmove.*|memset.*|copy_page.*|rep_movs.*|"
               r"copy_(to|from)_nullb|sg_copy_.*|sg_miter_.*|sg_next|xa_load|xas_.*|"
               r"radix_tree_.*|kmap.*|__kmap.*|kunmap.*)$"),
    ("completion", r"^(bio_endio|blkdev_bio_end_io.*|bio_put|bio_free|.*bio_release_pages.*|"
                   r"bio_uninit|bio_poll|blk_poll|blk_mq_poll.*|blk_hctx_poll|"
                   r"blk_mq_end_request.*|__blk_mq_end_request.*|blk_update_request|"
                   r"blk_mq_free_request|__blk_mq_free_request|blk_mq_complete_request.*|"
                   r"blk_complete_reqs|blk_done_softirq|blk_mq_complete_need_ipi|"
                   r"blk_account_io_done.*|blk_account_io_completion.*|blk_stat_add|"
                   r"scsi_done.*|scsi_complete|scsi_finish_command|scsi_io_completion|"
                   r"scsi_end_request|scsi_decide_disposition|scsi_mq_done|sd_done|scsi_mq_poll|"
                   r"scsi_device_unbusy|scsi_dec_host_busy|scsi_mq_uninit_cmd|scsi_free_sgtables|"
                   r"scsi_run_queue.*|sg_free_table_chained|__sg_free_table|put_page|folio_put|"
                   r"unpin_user_page.*|blk_mq_sched_restart|blk_rq_unmap_user|"
                   r"blk_mq_put_budget.*|blk_mq_tag_busy|blk_mq_free_plug_rqs)(\.isra.*|\.part.*|\.constprop.*)?$"),
    ("tag/budget", r"^(blk_mq_get_tag|__blk_mq_get_tag|blk_mq_put_tag.*|blk_mq_get_driver_tag|"
                   r"__blk_mq_get_driver_tag|__blk_mq_alloc_requests.*|blk_mq_get_new_requests|"
                   r"blk_mq_rq_ctx_init|blk_mq_alloc_.*|sbitmap_.*|__sbitmap_.*|__sbq_.*|sbq_.*|"
                   r"scsi_mq_get_budget|scsi_mq_put_budget|scsi_dev_queue_ready|"
                   r"scsi_host_queue_ready|scsi_target_queue_ready|blk_mq_get_budget.*|"
                   r"blk_mq_tag_.*|__blk_mq_tag_.*|bt_.*|blk_mq_get_budget_and_tag)"
                   r"(\.isra.*|\.part.*|\.constprop.*)?$"),
    ("dispatch", r"^(blk_mq_dispatch_.*|__blk_mq_sched_dispatch_requests|"
                 r"blk_mq_sched_dispatch_requests|blk_mq_run_hw_queue.*|__blk_mq_run_hw_queue|"
                 r"blk_mq_try_issue_.*|__blk_mq_try_issue_.*|__blk_mq_issue_directly|"
                 r"blk_mq_request_issue_directly|blk_mq_issue_direct|blk_mq_start_request|"
                 r"blk_mq_plug_issue_direct|blk_mq_insert_.*|blk_mq_sched_insert_.*|"
                 r"blk_mq_flush_plug_list|blk_mq_dispatch_plug_list|blk_add_timer|"
                 r"blk_rq_map_sg|__blk_rq_map_sg|sg_alloc_table_chained|__sg_alloc_table|"
                 r"blk_mq_hctx_.*|scsi_.*|__scsi_.*|sd_.*|scmd_.*)$"),
    ("submission", r"^(blkdev_read_iter|blkdev_write_iter|blkdev_direct_IO.*|__blkdev_direct_IO.*|"
                   r"blkdev_dio_.*|bio_.*|__bio_.*|submit_bio.*|__submit_bio.*|blk_mq_submit_bio|"
                   r"blk_start_plug|blk_finish_plug|blk_flush_plug.*|__blk_flush_plug|"
                   r"blk_add_rq_to_plug|blk_attempt_plug_merge|blk_mq_attempt_bio_merge|"
                   r"iov_iter_.*|__iov_iter.*|get_user_pages.*|gup_.*|.*get_user_pages_fast|"
                   r"try_grab_.*|pin_user_pages.*|blk_queue_enter|blk_cgroup_.*|blkcg_.*|"
                   r"should_fail_bio|submit_bio_checks|blk_mq_bio_to_request|blk_rq_bio_prep|"
                   r"bvec_.*|blk_account_io_start|update_io_ticks|blk_crypto.*|_*rq_qos_.*|wbt_.*|"
                   r"__get_task_ioprio|get_current_ioprio|blk_.*|__blk_.*|dd_.*|__dd_.*|"
                   r"folio_.*|page_.*|__page_.*)$"),
    ("io_uring/aio+syscall", r"^(io_.*|__io_.*|aio_.*|__aio_.*|kiocb_.*|lookup_ioctx|ioctx_.*|"
                             r"read_events|do_io_getevents|tctx_.*|task_work_run|"
                             r"entry_SYSCALL.*|do_syscall_64|syscall_.*|__x64_sys_.*|"
                             r"__do_sys_.*|__se_sys_.*|exit_to_user_mode.*|"
                             r"syscall_exit_to_user_mode.*|fdget.*|__fdget.*|__fget.*|fget.*|"
                             r"fput.*|.*copy_from_user|.*copy_to_user|copy_user_.*|"
                             r"rw_verify_area|security_file_permission|aa_file_perm|"
                             r"apparmor_file_permission|__fsnotify_parent|fsnotify.*|"
                             r"rcu_read_unlock_strict|__rcu_read_(un)?lock|"
                             r"__cond_resched|__check_object_size|__virt_addr_valid|"
                             r"__x86_indirect_thunk.*|__x86_return_thunk|srso_.*|"
                             r"entry_SYSRETQ.*|import_single_range|import_iovec|"
                             r"llist_add_batch)$"),
]
STAGE_ORDER = ["io_uring/aio+syscall", "submission", "tag/budget", "dispatch", "driver",
               "completion", "other kernel", "fio (user)"]
STAGE_RX = [(n, re.compile(rx)) for n, rx in STAGES]


def stage_of(kind, sym):
    """The ledger's stage of a perf symbol (kind: perf's [k] or user)."""
    layer = layer_of(kind, sym)
    if layer in ("idle", "user", "ramlld", "other driver"):
        return {"user": "fio (user)", "idle": "idle"}.get(layer, "driver")
    b = base_name(sym)
    for n, rx in STAGE_RX:
        if rx.match(sym) or rx.match(b):
            return n
    return "other kernel"


def layers(path):
    """{layer: % of all samples} and the symbols of a perf.txt, None without samples."""
    syms = symbols(path)
    if not syms:
        return None
    share = {n: 0.0 for n in ["idle"] + LAYER_NAMES}
    for pct, kind, sym, _ in syms:
        share[layer_of(kind, sym)] += pct
    return {"share_pct": share, "symbols": syms}


# The breakdown's second perf pass (compare/guest-run, `perf report --sort parent -p
# "$(report.py --perf-parents DIR)"`) gives each sample to the nearest function of its callchain,
# walking up from the sampled one, that is a driver's own code, a completion call of the block
# layer or midlayer that drivers hand back to, or an interrupt entry. Names, not modules: tail
# calls (scsi_debug_queuecommand -> schedule_resp) leave the entry point out of the chain.
# Each target's own functions: the "# own-functions:" line of its file (compare/targets/).
HANDBACKS = (r"scsi_done|scsi_done_direct|scsi_done_internal|scsi_complete|scsi_finish_command|"
             r"scsi_io_completion|scsi_end_request|blk_mq_complete_request|"
             r"blk_mq_complete_request_remote|blk_mq_end_request|__blk_mq_end_request|"
             r"blk_mq_end_request_batch|blk_update_request|bio_endio")
IRQ_ENTRIES = r"asm_sysvec_.*|asm_common_interrupt|irq_exit_rcu|__irq_exit_rcu|handle_softirqs|__do_softirq"


def perf_parents(targets):
    """The extended regex for perf report's --parent: every target's own functions, the
    hand-backs and the interrupt entries."""
    own = sorted({t.get("own-functions", "") for t in targets.values()} - {""})
    return "^(" + "|".join(own + [HANDBACKS, IRQ_ENTRIES]) + ")$"


def parse_btt(path):
    """Average Q2G, G2I, I2D, D2C, Q2C (µs) and N from btt's 'All Devices' table."""
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError:
        return None
    sec = text.split("==================== All Devices ====================", 1)
    if len(sec) < 2:
        return None
    res = {}
    for line in sec[1].splitlines():
        w = line.split()
        # bio-based disks show as "Q2Cdm" (btt's name for a device without requests)
        k = w[0][:3] if w and re.match(r"^[A-Z]2[A-Z](dm)?$", w[0]) else None
        if len(w) >= 5 and k in ("Q2Q", "Q2G", "G2I", "Q2M", "I2D", "M2D", "D2C", "Q2C"):
            if k not in res:
                try:
                    res[k] = {"avg_us": float(w[2]) * 1e6, "n": int(w[4])}
                except ValueError:
                    pass
        if line.startswith("==================== Device Overhead"):
            break
    return res


def parse_perf(path):
    """The breakdown's perf.txt: share of all samples and of the busy ones per layer, the top
    kernel functions, the midlayer's functions."""
    lay = layers(path)
    if not lay:
        return None
    classes = lay["share_pct"]
    busy = 100.0 - classes["idle"]
    kernel = [(p, s, layer_of(k, s)) for p, k, s, _ in lay["symbols"] if k == "k"]
    kernel = [x for x in kernel if x[2] != "idle"]
    return {"share_pct": classes,
            "share_of_busy_pct": {k: (v * 100 / busy if busy > 0 else None)
                                  for k, v in classes.items() if k != "idle"},
            "top_kernel": [{"symbol": s, "pct": p, "class": c} for p, s, c in kernel[:15]],
            "scsi_functions": [{"symbol": s, "pct": p} for p, s, c in kernel
                               if c == "scsi+sd"][:10]}


def parse_perf_driver(path, perf, own_rx):
    """The driver's own share of the busy samples (own_rx: its functions, and what they call,
    less what it hands back to the block layer or midlayer) and the Amdahl ceiling it sets: the
    most any driver doing the same job at no cost could run faster on this path,
    busy / (busy - own)."""
    if not own_rx or not perf:
        return None
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            rows = [(float(mo.group(1)), mo.group(2)) for mo in
                    (re.match(r"\s*([\d.]+)%\s+(\S+)\s*$", line) for line in f) if mo]
    except OSError:
        return None
    if not rows:
        return None
    own = sum(pct for pct, name in rows if re.fullmatch(own_rx, name))
    busy = 100.0 - perf["share_pct"]["idle"]
    if busy <= own:
        return None
    # perf-driver-symbols.txt (--sort parent,symbol): the copy functions sampled under the
    # driver's own ones; absent, the copy inside the driver is unknown
    own_copy = None
    try:
        with open(os.path.join(os.path.dirname(path), "perf-driver-symbols.txt"),
                  encoding="utf-8", errors="replace") as f:
            pairs = [(float(mo.group(1)), mo.group(2), mo.group(3)) for mo in
                     (re.match(r"\s*([\d.]+)%\s+(\S+)\s+\[[^]]+\]\s+(\S+)", line)
                      for line in f) if mo]
        if pairs:
            own_copy = sum(pct for pct, parent, sym in pairs
                           if re.fullmatch(own_rx, parent) and layer_of("k", sym) == "copy")
    except OSError:
        pass
    return {"own_pct": own, "own_of_busy_pct": own * 100 / busy, "ceiling": busy / (busy - own),
            "own_copy_of_busy_pct": None if own_copy is None else own_copy * 100 / busy}


def load_breakdown(root, targets):
    """target -> its breakdown (btt, perf, the driver's own share, the profile it ran under)."""
    bd = {}
    for d in sorted(glob.glob(os.path.join(root, "breakdown", "*"))):
        t = os.path.basename(d)
        perf = parse_perf(os.path.join(d, "perf.txt"))
        prof = read_env(os.path.join(d, "profile.env")).get("profile", "default")
        bd[t] = {"btt": parse_btt(os.path.join(d, "btt.txt")), "perf": perf, "profile": prof,
                 "driver": parse_perf_driver(os.path.join(d, "perf-driver.txt"), perf,
                                             (targets.get(t) or {}).get("own-functions")),
                 "queue": read_queue(os.path.join(d, "queue.txt"))}
    return bd


def instr_per_function(bd, idx):
    """The exact clock: each breakdown's instructions per I/O by function. perf's cpu-clock
    samples every N guest ns = instructions, so a function's share of the busy samples times
    the cell's instructions per I/O (10^9 / IOPS of the matrix's 4k randread QD32 cell of the
    same target and profile) is its instructions per I/O."""
    for t, b in bd.items():
        c = idx.get((t, b["profile"], "qd32", "randread-4k-qd32"))
        pf = b.get("perf")
        total = c and c.get("instr_per_io")
        b["instr_per_io"] = total or None
        if not pf or not total:
            continue
        busy = 100.0 - pf["share_pct"]["idle"]
        if busy <= 0:
            continue
        for f in pf["top_kernel"] + pf["scsi_functions"]:
            f["instr_per_io"] = f["pct"] / busy * total
        pf["class_instr_per_io"] = {k: v / 100 * total for k, v in pf["share_of_busy_pct"].items()
                                    if v is not None}
        if b.get("driver"):
            d = b["driver"]
            d["own_instr_per_io"] = d["own_of_busy_pct"] / 100 * total
            if d.get("own_copy_of_busy_pct") is not None:
                d["own_copy_instr_per_io"] = d["own_copy_of_busy_pct"] / 100 * total
    return bd


def breakdown(run):
    """The run's breakdown, with instructions per I/O by function on the exact clock."""
    return run.once("breakdown", lambda: instr_per_function(
        load_breakdown(run.root, run.target_meta), run.idx))


def read_perf_cell(d):
    """A --perf-cell profile (compare/guest-run's folder d: perf.stat, perf.txt): {"passes",
    "period" (instructions a sample on the exact clock, else None), "mib", "reads", "samples":
    {(kind, symbol): n}} or None."""
    st, samples = {}, {}
    try:
        with open(os.path.join(d, "perf.stat"), encoding="utf-8") as f:
            for line in f:
                w = line.split()
                if len(w) > 1 and w[0] in ("disk_before", "disk_after"):
                    st[w[0]] = [int(x) for x in w[1:]]
                elif len(w) == 2 and w[0] == "passes":
                    st["passes"] = int(w[1])
                elif len(w) == 3 and w[0] == "sampling" and w[1] == "-c":
                    st["period"] = int(w[2])
                elif len(w) == 2 and w[0] == "clock":
                    st["clock"] = w[1]
    except (OSError, ValueError):
        return None
    for _, kind, sym, n in symbols(os.path.join(d, "perf.txt")):
        if n is not None:
            samples[(kind, sym)] = samples.get((kind, sym), 0) + n
    if "disk_before" not in st or "disk_after" not in st or not samples:
        return None
    dd = [a - b for a, b in zip(st["disk_after"], st["disk_before"])]
    if len(dd) < 3 or not dd[2]:
        return None
    period = st.get("period") if st.get("clock") == "icount" else None
    return {"passes": st.get("passes"), "period": period, "mib": dd[2] * 512 / 2 ** 20,
            "reads": dd[0], "samples": samples}


def perf_cells(root, workload):
    """{(target, profile, section): read_perf_cell()} of the --perf-cell profiles of a
    workload's runs in root (raw/TARGET/PROFILE/WORKLOAD/SECTION/perf.txt)."""
    out = {}
    for f in sorted(glob.glob(os.path.join(root, "raw", "*", "*", workload, "*", "perf.txt"))):
        parts = f.split(os.sep)
        out[(parts[-5], parts[-4], parts[-2])] = read_perf_cell(os.path.dirname(f))
    return out

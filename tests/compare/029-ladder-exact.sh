#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: the cost ladder's "Where each increment goes" takes a rung's increment from the plugin's exact counts where the rung and the rung below have iprofile/TARGET/table.json (one-core-peak's) or, preferred as the ladder's rows run it, iprofile/default/TARGET/table.json (both rungs' cells there, else one-core-peak's; each cell's queue settings and job said, the one-core-peak pair's Δ beside it, mq's one-core-peak row gone) (the window totals, their difference, each layer's difference of the two tables' layers, the rest under 1 summed, the functions that moved most, the ladder's own Δ beside it, the QEMU, vCPUs, kernel and queue settings named), perf's sampled split keeps only the rungs without one and says which table.json is missing, and with no table.json at all says that no rung has a profiled cell
# where: host
# requires: python3
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

d=$RESULTS/folder
rm -rf "$d"
mkdir -p "$d"
# the exact clock; 4k QD32 IOPS per rung: bio 200,000 (5,000 instr/IO), mq 160,000 (6,250),
# sd 125,000 (8,000), lio-iblock 40,000 (25,000); perf profiles of mq and lio-iblock
printf '%s\n' clock=icount icount_shift=0 cpus=1 qemu=10.0.13 > "$d/meta.env"
python3 - "$d" << 'EOF' || fail "the synthetic results folder was not written"
import json
import os
import sys

root = sys.argv[1]
for t, v in {"ramlld-bio": 200000, "ramlld-mq": 160000, "ramlld-sd": 125000,
             "lio-iblock": 40000}.items():
    c = os.path.join(root, "raw", t, "default", "qd32", "randread-4k-qd32")
    os.makedirs(c)
    lat = 1e9 / v
    rd = {"total_ios": v, "iops": v, "bw_bytes": v * 4096,
          "lat_ns": {"mean": lat, "N": v, "percentile": {"50.000000": lat, "99.000000": lat,
                                                          "99.900000": lat}}}
    wr = {"total_ios": 0, "iops": 0, "bw_bytes": 0, "lat_ns": {}}
    json.dump({"jobs": [{"read": rd, "write": wr, "usr_cpu": 10, "sys_cpu": 90,
                         "job_runtime": 1000}]}, open(os.path.join(c, "r1.json"), "w"))
EOF
mkdir -p "$d/breakdown/ramlld-mq" "$d/breakdown/lio-iblock"
printf '%s\n' "40.00%  [k] copy_page" "20.00%  [k] ramlld_queue_rq" "20.00%  [k] blk_mq_submit_bio" \
	"20.00%  [.] fio_io_loop" > "$d/breakdown/ramlld-mq/perf.txt"
printf '%s\n' "30.00%  [k] target_submit_cmd" "20.00%  [k] copy_page" "20.00%  [k] scsi_queue_rq" \
	"10.00%  [k] tcm_loop_queuecommand" "10.00%  [k] ramlld_queue_rq" "10.00%  [.] fio_io_loop" \
	> "$d/breakdown/lio-iblock/perf.txt"
# shellcheck source=compare/lib/report-python.sh
. "$TOP/compare/lib/report-python.sh"
py=$(report_python)
report() {
	"$py" "$TOP/compare/report.py" "$d" > "$d/out.txt" 2>&1 || { cat "$d/out.txt"; fail "report.py failed"; }
	sec=$(sed -n '/^## Cost ladder/,/^## [^C]/p' "$d/report.md")
}

# no profiled cell: perf's split for both rungs with a profile, saying no rung has one
report
grep -qF "Sampled by perf, only for the rungs without the plugin's exact counts (no rung has a profiled cell here: \`compare/run --exact-profile\` counts bio's, mq's and sd's)" <<< "$sec" ||
	fail "without a table.json the perf split does not say that no rung has exact counts: $sec"
grep -q "^| tcm_loop/iblock | mq | +18,750 | " <<< "$sec" || fail "lio-iblock's perf increment is gone: $sec"
! grep -qF "exact counts)" <<< "$sec" || fail "an exact increment without a table.json"
echo "ok: no table.json: perf's split, saying so"

# the profiled cells of bio, mq and sd (their layers sum to their totals); sd's table.json has
# no functions (the cache model's alone): not an exact rung
python3 - "$d" << 'EOF' || fail "the profiled cells were not written"
import json
import os
import sys

d = os.path.join(sys.argv[1], "iprofile")
cells = {
    "ramlld-bio": (150960, {"block": 920.9, "copy": 830.0, "driver": 121.0, "user (fio)": 2201.1,
                            "irq+softirq": 47.5, "IPI": 0.0},
                   {"bio_alloc_bioset": 300.0, "ramlld_bio_submit_bio [ramlld]": 121.0,
                    "copy_page": 830.0, "submit_bio_noacct": 620.9, "[user]": 2201.1,
                    "irq_exit_rcu": 47.5}),
    "ramlld-mq": (130160, {"block": 1777.2, "copy": 830.5, "driver": 160.4, "user (fio)": 2204.3,
                           "irq+softirq": 47.9, "IPI": 0.4},
                  {"bio_alloc_bioset": 300.0, "blk_mq_submit_bio": 140.0, "sbitmap_get": 91.6,
                   "ramlld_mq_queue_rq [ramlld]": 160.4, "copy_page": 830.5,
                   "submit_bio_noacct": 1245.6, "[user]": 2204.3, "irq_exit_rcu": 47.9,
                   "native_send_call_func_single_ipi": 0.4})}
for t, (n, layers, fns) in cells.items():
    total = sum(layers.values())
    assert abs(total - sum(fns.values())) < 1e-6, (t, total, sum(fns.values()))
    os.makedirs(os.path.join(d, t))
    json.dump({"n": n, "total": total, "window_clock": total + 0.07, "layers": layers,
               "functions": {f: {"0": v} for f, v in fns.items()},
               "function_layers": {}, "cache": None},
              open(os.path.join(d, t, "table.json"), "w"))
    open(os.path.join(d, t, "meta.env"), "w").write(
        f"target={t}\nengine=libaio\nruntime=1\nkernel=6.1.0-57-amd64\ncpus=1\nqemu=7.2.22\n")
    open(os.path.join(d, t, "wall.env"), "w").write("cpu_s=40.0\nqemu=system\n")
os.makedirs(os.path.join(d, "ramlld-sd"))
json.dump({"n": 104384, "total": 9581.3, "window_clock": 9581.4,
           "cache": {"model": "L1d", "cpus": {"0": [5442.55, 205.97, 62.36]},
                     "functions": {}}},
          open(os.path.join(d, "ramlld-sd", "table.json"), "w"))
EOF
report
printf '%s\n' "$sec"
has() { grep -qF -- "$1" <<< "$sec" || fail "$2"; }
has "### Where each increment goes (4k randread QD32, instr/IO by layer: exact counts, profile one-core-peak)" "no exact increments"
has "The plugin's exact counts, no sampling: each rung's profiled cell (iprofile/<target>/table.json of \`compare/run --exact-profile\`; Debian 12's QEMU 7.2.22, exact clock: -icount shift=0, 1 vCPU, guest kernel 6.1.0-57-amd64), 4k randread QD32 libaio, a 1 s window inside fio's steady I/O" \
	"the exact increments do not name the plugin, QEMU, clock, vCPUs, kernel, cell and window"
has "Queue settings each cell ran with: ramlld-bio one-core-peak: scheduler none, iostats 0, nomerges 2; percore.fio; ramlld-mq one-core-peak: scheduler none, iostats 0, nomerges 2; percore.fio. Not the default profile and job of the tables above" \
	"the profiled cells' queue settings are not said"
# mq over bio: totals 4,120.5 and 5,020.7 (Δ +900.2; the ladder's 6,250 − 5,000 = +1,250);
# block 1,777.2 − 920.9 = +856.3, driver +39.4, user +3.2, copy +0.5, irq+softirq +0.4 and IPI
# +0.4 under 1: rest +1.3
row=$(grep "^| mq | bio |" <<< "$sec") || fail "no exact row for mq over bio"
expect_eq "mq over bio's exact row" "| mq | bio | 4,120 → 5,021 | +900 | +1,250 | block +856, driver +39.4, user (fio) +3.20, rest +1.30 | \`submit_bio_noacct\` +625, \`ramlld_mq_queue_rq [ramlld]\` +160, \`blk_mq_submit_bio\` +140, \`ramlld_bio_submit_bio [ramlld]\` −121, \`sbitmap_get\` +91.6, \`[user]\` +3.20 |" "$row"
"$py" - "$TOP/compare" "$d" << 'EOF' || fail "the exact increment's figures"
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
from lib.results import load  # noqa: E402
from sections import ladder  # noqa: E402

inc = ladder.compute(load(sys.argv[2]))["exact_increments"]
t = {c: json.load(open(os.path.join(sys.argv[2], "iprofile", c, "table.json")))
     for c in ("ramlld-bio", "ramlld-mq")}
assert [i["target"] for i in inc] == ["ramlld-mq"], \
    f"exact increments: {[i['target'] for i in inc]} (sd's table.json has no functions)"
mq = inc[0]
want = t["ramlld-mq"]["total"] - t["ramlld-bio"]["total"]
assert abs(mq["total"] - want) < 1e-9, (mq["total"], want)
print(f"ok: Δ = mq's total − bio's = {mq['total']:.2f}")
for n, a, b, dl in mq["layers"]:
    w = t["ramlld-mq"]["layers"].get(n, 0) - t["ramlld-bio"]["layers"].get(n, 0)
    assert abs(dl - w) < 1e-9 and a == t["ramlld-bio"]["layers"].get(n, 0), (n, a, b, dl, w)
s = sum(dl for *_, dl in mq["layers"])
assert abs(s - mq["total"]) < 1e-9, (s, mq["total"])
print(f"ok: each layer's Δ is the two tables' difference ({len(mq['layers'])} layers); they sum to Δ ({s:.2f})")
assert abs(mq["ladder_delta"] - 1250) < 1e-6, mq["ladder_delta"]
print("ok: the ladder's own Δ beside it: +1,250")
EOF
! grep -q "^| mq | bio | +" <<< "$sec" || fail "mq over bio still has a perf row"
has "Sampled by perf, only for the rungs without the plugin's exact counts (tcm_loop/iblock over mq: no iprofile/lio-iblock/table.json)" \
	"the perf split does not say which rung lacks a table.json"
grep -q "^| tcm_loop/iblock | mq | +18,750 | " <<< "$sec" || fail "lio-iblock's perf fallback is gone"
! grep -q "^| sd | mq |" <<< "$sec" || fail "sd over mq has an increment (sd: no functions, mq: no perf)"
echo "ok: the perf split keeps lio-iblock over mq, naming its missing table.json"

# mq as the ladder's rows run (iprofile/default/ramlld-mq: the kernel's mq-deadline, qd32.fio);
# bio's default cell (below) a copy of its one-core-peak one's figures
python3 - "$d" << 'EOF' || fail "the default-profile cells were not written"
import json
import os
import shutil
import sys

d = os.path.join(sys.argv[1], "iprofile", "default", "ramlld-mq")
layers = {"block": 2977.2, "scheduler": 400.0, "copy": 830.5, "driver": 160.4,
          "user (fio)": 2204.3, "irq+softirq": 47.9}
fns = {"dd_dispatch_request": 700.0, "blk_mq_run_hw_queue": 500.0, "submit_bio_noacct": 1777.2,
       "schedule": 400.0, "ramlld_mq_queue_rq [ramlld]": 160.4, "copy_page": 830.5,
       "[user]": 2204.3, "irq_exit_rcu": 47.9}
os.makedirs(d)
total = sum(layers.values())
json.dump({"n": 110000, "total": total, "window_clock": total, "layers": layers,
           "functions": {f: {"0": v} for f, v in fns.items()}, "function_layers": {}},
          open(os.path.join(d, "table.json"), "w"))
open(os.path.join(d, "meta.env"), "w").write(
    "target=ramlld-mq\nengine=libaio\nruntime=1\nkernel=6.1.0-57-amd64\ncpus=1\nqemu=7.2.22\n"
    "profile=default\nscheduler=mq-deadline\niostats=1\nnomerges=0\nworkload=qd32\n")
open(os.path.join(d, "wall.env"), "w").write("cpu_s=40.0\nqemu=system\n")
b = os.path.join(sys.argv[1], "iprofile", "default", "ramlld-bio.later")
shutil.copytree(os.path.join(sys.argv[1], "iprofile", "ramlld-bio"), b)
open(os.path.join(b, "meta.env"), "w").write(
    "target=ramlld-bio\nengine=libaio\nruntime=1\nkernel=6.1.0-57-amd64\ncpus=1\nqemu=7.2.22\n"
    "profile=default\nscheduler=none\niostats=0\nnomerges=0\nworkload=qd32\n")
EOF
# without bio's default cell: mq over bio stays one-core-peak's
report
grep -qF "exact counts, profile one-core-peak)" <<< "$sec" || fail "no one-core-peak table without bio's default cell: $sec"
! grep -qF "exact counts, profile default)" <<< "$sec" || fail "a default-profile table without bio's default cell"
echo "ok: one rung's default cell alone: the one-core-peak split"
mv "$d/iprofile/default/ramlld-bio.later" "$d/iprofile/default/ramlld-bio"
report
printf '%s\n' "$sec"
has "### Where each increment goes (4k randread QD32, instr/IO by layer: exact counts, profile default)" \
	"no default-profile exact increments"
has "(iprofile/default/<target>/table.json of \`compare/run --exact-profile\`;" "the default-profile tables' folder is not named"
has "Queue settings each cell ran with: ramlld-bio default: scheduler none, iostats 0, nomerges 0; qd32.fio; ramlld-mq default: scheduler mq-deadline, iostats 1, nomerges 0; qd32.fio. The ladder's rows run the same profile and job" \
	"the default-profile cells' queue settings are not said"
row=$(grep "^| mq | bio |" <<< "$sec") || fail "no exact row for mq over bio"
# default mq 6,620.3 over bio 4,120.5: +2,500; block 2,977.2 − 920.9 = +2,056, scheduler +400,
# driver +39.4, user +3.20, rest (copy +0.5, irq+softirq +0.4) +0.90; one-core-peak's pair +900
expect_eq "mq over bio's default-profile row" "| mq | bio | 4,120 → 6,620 | +2,500 | +1,250 | +900 | block +2,056, scheduler +400, driver +39.4, user (fio) +3.20, rest +0.90 | \`submit_bio_noacct\` +1,156, \`dd_dispatch_request\` +700, \`blk_mq_run_hw_queue\` +500, \`schedule\` +400, \`bio_alloc_bioset\` −300, \`ramlld_mq_queue_rq [ramlld]\` +160 |" "$row"
expect_eq "mq over bio: one exact row (the default profile's, not one-core-peak's too)" 1 "$(grep -c "^| mq | bio |" <<< "$sec")"
! grep -qF "profile one-core-peak)" <<< "$sec" || fail "a one-core-peak table beside the default one with no other rung"
echo "ok: the ladder's mq over bio from the default-profile tables, settings said"

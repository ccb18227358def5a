#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: the report's "Where the time goes" takes a target's layers and functions from the plugin's exact counts where the folder has its iprofile/TARGET/table.json (a layer table summing to the window's total beside the clock's, the largest functions with two decimals, CPUs summed, the rest summed, the QEMU, vCPUs, kernel and window named), and perf's sampled tables keep only the targets without one, saying so; a table.json of the cache model alone adds no exact column; without any, the perf tables say no target has exact counts
# where: host
# requires: python3
. "$TOP/tests/lib.sh"

d=$RESULTS/folder
rm -rf "$d"
# the fixture's exact run (breakdown/ramlld-bio: a perf profile), ramlld-mq traced too, then
# ramlld-mq's profiled cell and a cache-only table.json of ramlld-sd
cp -r "$TOP/tests/compare/fixtures/exact-small" "$d"
run_rc 0 "$TOP/compare/run" --report "$d"
r=$d/report.md
grep -qF "Sampled, perf (no target has exact counts here: \`compare/run --exact-profile\` gives them for ramlld's paths; cpu-clock" "$r" ||
	fail "without a profiled cell the perf table does not say that no target has exact counts"
! grep -qF "**Exact counts**" "$r" || fail "exact counts in a folder without iprofile/"
echo "ok: no profiled cell: perf's tables, saying so"

cp -r "$d/breakdown/ramlld-bio" "$d/breakdown/ramlld-mq"
python3 - "$d" << 'EOF' || fail "the fixture was not written"
import json
import os
import sys

d = sys.argv[1]
# ramlld-mq's cell: instructions per I/O per function and CPU; the layers sum to the total
fns = {"[user]": {"0": 1800.0}, "copy_page": {"0": 516.0}, "internal_get_user_pages_fast": {"0": 413.0},
       "memset_erms": {"0": 224.81}, "kmem_cache_alloc": {"0": 195.12},
       "blk_mq_submit_bio": {"0": 165.0}, "io_submit_one": {"0": 114.0},
       "ramlld_mq_queue_rq [ramlld]": {"0": 97.0}, "aio_complete": {"0": 60.0, "1": 34.0},
       "sbitmap_get": {"0": 91.62}, "__blk_mq_end_request": {"0": 38.0},
       "foo_a": {"0": 3.25}, "foo_b": {"1": 1.0}, "net_tiny": {"0": 0.001}}
layers = {"user (fio)": 1800.0, "copy": 740.81, "memory (slab, gup)": 608.12, "block": 294.62,
          "syscall+aio/io_uring": 208.0, "driver": 97.0, "other kernel": 4.25, "network": 0.001,
          "IPI": 0.0}
total = sum(v for per in fns.values() for v in per.values())
assert abs(total - sum(layers.values())) < 1e-9, (total, sum(layers.values()))
for t, j in (("ramlld-mq", {"n": 130144, "total": total, "plugin_total": total,
                            "window_clock": 3752.84, "layers": layers, "functions": fns,
                            "cache": None}),
             ("ramlld-sd", {"n": 104384, "total": 9569.65, "window_clock": 9569.70,
                            "cache": {"model": "L1d", "cpus": {"0": [5445.96, 200.81, 62.34]},
                                      "functions": {}}})):
    os.makedirs(os.path.join(d, "iprofile", t))
    json.dump(j, open(os.path.join(d, "iprofile", t, "table.json"), "w"))
    open(os.path.join(d, "iprofile", t, "meta.env"), "w").write(
        f"target={t}\nengine=libaio\nruntime=1\nkernel=6.1.0-57-amd64\ncpus=1\nqemu=7.2.22\n")
    open(os.path.join(d, "iprofile", t, "wall.env"), "w").write("cpu_s=40.0\nqemu=system\n")
EOF
run_rc 0 "$TOP/compare/run" --report "$d"
sec=$(sed -n '/^## Where the time goes/,/^## Files/p' "$r")
printf '%s\n' "$sec"
has() { grep -qF -- "$1" <<< "$sec" || fail "$2"; }
has "**Exact counts** for ramlld-mq: tools/iprofile's plugin, every instruction of the window counted at its address and named by its function, no sampling (Debian 12's QEMU 7.2.22, exact clock: -icount shift=0, 1 vCPU, guest kernel 6.1.0-57-amd64; \`compare/run --exact-profile\`)" \
	"the exact counts are not labelled with the plugin, QEMU, clock, vCPUs and kernel (or ramlld-sd's cache-only table.json was taken)"
has "4k randread QD32 libaio with one-core-peak's queue settings (none, nomerges 2, iostats 0), a window of 1 s inside fio's steady I/O" \
	"the cell and its window are not named"
expect_eq "the layer table, largest first, network's 0.001 left out" "| user (fio) | 1,800.00 |
| copy | 740.81 |
| memory (slab, gup) | 608.12 |
| block | 294.62 |
| syscall+aio/io_uring | 208.00 |
| driver | 97.00 |
| other kernel | 4.25 |
| **all** (the plugin's total) | 3,752.80 |
| clock over the window | 3,752.84 |" "$(sed -n '/^| layer, instructions per I\/O | ramlld-mq |$/,/^$/p' <<< "$sec" | sed -n '3,11p')"
has "| ramlld-mq | 130,144 | 3,752.80 | \`[user]\` 1,800.00, \`copy_page\` 516.00, \`internal_get_user_pages_fast\` 413.00, \`memset_erms\` 224.81, \`kmem_cache_alloc\` 195.12, \`blk_mq_submit_bio\` 165.00, \`io_submit_one\` 114.00, \`ramlld_mq_queue_rq [ramlld]\` 97.00, \`aio_complete\` 94.00, \`sbitmap_get\` 91.62 | 42.25 (4 functions) |" \
	"mq's function row is not the 10 largest with two decimals (aio_complete's two CPUs summed: 94.00) and the rest (38 + 3.25 + 1 + 0.001 = 42.25, 4 functions)"
echo "ok: ramlld-mq's layers and functions are the plugin's, summing to 3,752.80"
sampled=$(sed -n '/^Sampled, perf/,$p' <<< "$sec")
grep -qF "Sampled, perf (only for the targets without exact counts (ramlld-mq: above); cpu-clock, all CPUs, self time)" <<< "$sampled" ||
	fail "the perf table does not say it is only for the targets without exact counts"
grep -qF "| ramlld-bio | 0.0 | 0.0 | 15.8 | 1.2 | 0.0 | 11.7 | 0.0 | 22.1 | 13.9 | 14.1% → 1.16x (1,181 instr/IO own) |" <<< "$sampled" ||
	fail "ramlld-bio's perf row is gone"
grep -qF "| ramlld-bio | 8,399 | 1,181 | 982 | - | - | \`copy_page\` 886," <<< "$sampled" ||
	fail "ramlld-bio's sampled function row is gone"
grep -qF "Instructions per I/O by function, sampled (perf on the exact clock)" <<< "$sampled" ||
	fail "the sampled function table is not labelled as sampled"
! grep -q "^| ramlld-mq |" <<< "$sampled" || fail "ramlld-mq, profiled, still has perf rows: $(grep "^| ramlld-mq |" <<< "$sampled")"
expect_eq "targets in the exact counts" 1 "$(grep -c "^| ramlld-.* | [0-9,]* | [0-9,.]* | \`" <<< "$sec")"
grep -qF "| ramlld-sd | 104,384 | 9,569.65 / 9,569.70 |" "$r" || fail "ramlld-sd's cache row is gone"
echo "ok: the perf tables keep ramlld-bio, not ramlld-mq; ramlld-sd's cache-only table.json stays in the cache section"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: the report's cost ladder (compare/sections/ladder.py) is filled from the measured cells: instructions per I/O, increments over the rung below, the increment split by layer from perf, a skipped stack named with its reason, a run cut short said so
# where: host
# requires: python3
. "$TOP/tests/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# A results folder on the exact clock (1 instruction = 1 ns): two runs per cell, alike.
printf '%s\n' clock=icount icount_shift=0 cpus=1 qemu=10.0.13 > "$dir/meta.env"
printf 'skip\tsrp\tkernel 6.1.0-57-amd64 has no module ib_srpt\n' > "$dir/notes.tsv"
python3 - "$dir" << 'EOF' || fail "writing the synthetic results folder"
import json, os, sys
root = sys.argv[1]
# IOPS per target: 4k QD1, 4k QD32, 1 MiB QD4
iops = {"ramlld-bio": (150000, 200000, 2000), "ramlld-mq": (125000, 160000, 1900),
        "lio-iblock": (32000, 40000, 1000), "iscsi": (8000, 10000, 400)}
cells = [("lat-qd1", "randread-4k-qd1"), ("qd32", "randread-4k-qd32"), ("ladder", "read-1m-qd4")]
for t, vals in iops.items():
    for (w, s), v in zip(cells, vals):
        d = os.path.join(root, "raw", t, "default", w, s)
        os.makedirs(d)
        lat = 1e9 / v
        rd = {"total_ios": int(v * 5), "iops": v, "bw_bytes": v * 4096,
              "lat_ns": {"mean": lat, "N": int(v * 5),
                         "percentile": {"50.000000": lat, "99.000000": 2 * lat,
                                        "99.900000": 3 * lat}}}
        wr = {"total_ios": 0, "iops": 0, "bw_bytes": 0, "lat_ns": {}}
        for r in (1, 2):
            json.dump({"jobs": [{"read": rd, "write": wr, "usr_cpu": 10, "sys_cpu": 90,
                                 "job_runtime": 5000}]}, open(os.path.join(d, f"r{r}.json"), "w"))
perf = {"ramlld-mq": "40.00%  [k] copy_page\n20.00%  [k] ramlld_queue_rq\n"
                     "20.00%  [k] blk_mq_submit_bio\n20.00%  [.] fio_io_loop\n",
        "lio-iblock": "27.00%  [k] target_submit_cmd\n18.00%  [k] copy_page\n"
                      "18.00%  [k] scsi_queue_rq\n10.00%  [k] default_idle\n"
                      "9.00%  [k] ramlld_queue_rq\n9.00%  [k] tcm_loop_queuecommand\n"
                      "9.00%  [.] fio_io_loop\n"}
for t, text in perf.items():
    os.makedirs(os.path.join(root, "breakdown", t))
    open(os.path.join(root, "breakdown", t, "perf.txt"), "w").write(text)
EOF
# shellcheck source=compare/lib/report-python.sh
. "$TOP/compare/lib/report-python.sh"
py=$(report_python)
"$py" "$TOP/compare/report.py" "$dir" > "$dir/out.txt" 2>&1 || { cat "$dir/out.txt"; fail "report.py failed"; }
if "$py" -c 'import matplotlib' 2> /dev/null; then
	[ -s "$dir/ladder.png" ] || fail "no ladder.png although $py has matplotlib"
	grep -qF '![ladder.png](ladder.png)' "$dir/report.md" || fail "report.md does not show ladder.png"
	echo "ok: ladder.png drawn and shown"
fi
python3 - "$dir" << 'EOF' || fail "the ladder section"
import sys
root = sys.argv[1]
md = open(root + "/report.md").read()
sec = md.split("## Cost ladder", 1)
assert len(sec) == 2, "report.md has no Cost ladder section"
sec = sec[1].split("\n## ", 1)[0]
rows = {}
for part in sec.split("### ")[1:]:
    title = part.split("\n", 1)[0]
    for line in part.splitlines():
        w = [x.strip() for x in line.strip("|").split("|")]
        if len(w) >= 12 and w[1] in ("ramlld-bio", "ramlld-mq", "lio-iblock", "iscsi"):
            rows[(title, w[1])] = w

def want(title, t, col, text):
    got = rows[(title, t)][col]
    assert got == text, f"{title} {t} column {col}: {got!r}, expected {text!r}"
    print(f"ok: {title}: {t}: {text}")

# instructions per I/O = 10^9 / IOPS; the increment is over the rung it is built on
want("4k randread QD32", "ramlld-bio", 7, "5,000")
want("4k randread QD32", "ramlld-mq", 8, "bio")
want("4k randread QD32", "ramlld-mq", 9, "+1,250")
want("4k randread QD32", "lio-iblock", 7, "25,000")
want("4k randread QD32", "lio-iblock", 9, "+18,750")
want("4k randread QD32", "lio-iblock", 11, "0.25")
want("4k randread QD32", "iscsi", 8, "tcm_loop/iblock")
want("4k randread QD32", "iscsi", 9, "+75,000")
want("4k randread QD1", "lio-iblock", 9, "+23,250")
want("4k randread QD1", "lio-iblock", 3, "31.2")    # mean latency, µs
want("4k randread QD1", "lio-iblock", 5, "62.5")    # p99
want("1 MiB seq read QD4", "iscsi", 7, "2,500,000")
want("1 MiB seq read QD4", "iscsi", 11, "0.40")
# lio-iblock's increment by layer: 25,000 over 90 % busy samples against mq's 6,250 over 100 %
inc = [l for l in sec.splitlines() if l.startswith("| tcm_loop/iblock | mq |")]
assert len(inc) == 1, f"no increment row for tcm_loop/iblock: {sec}"
for part in ("LIO +10,000", "scsi+sd +5,000", "copy +2,500", "block −1,250",
             "`target_submit_cmd` 7,500", "`tcm_loop_queuecommand` 2,500"):
    assert part in inc[0], f"increment row lacks {part!r}: {inc[0]}"
print(f"ok: increment by layer: {inc[0]}")
assert not any(l.startswith("| iSCSI | tcm_loop/iblock |") for l in sec.splitlines()), \
    "iSCSI, with no perf profile, got a layer split"
assert "SRP (`srp`: kernel 6.1.0-57-amd64 has no module ib_srpt)" in sec, "srp's skip reason"
assert "NVMe/TCP (`nvme-tcp`: not selected)" in sec, "nvme-tcp not said to be missing"
print("ok: skipped and unselected rungs are named, the first with its reason")
out = open(root + "/out.txt").read()
assert "| tcm_loop/iblock (lio-iblock) | kernel's defaults | 25,000 | 5.00 | +18,750 over mq |" \
    in out, f"report.py's summary lacks the ladder's rung: {out}"
print("ok: report.py prints the summary with the ladder's rungs")
EOF
# a guest that ended early (compare/run's note): a missing rung may have been cut, not unselected
printf 'fail\tguest\tthe guest ended before guest-run did (timed out after 3600 s of host time)\n' >> "$dir/notes.tsv"
"$py" "$TOP/compare/report.py" "$dir" > "$dir/out.txt" 2>&1 || { cat "$dir/out.txt"; fail "report.py failed"; }
# shellcheck disable=SC2016 # the backquotes are markdown, not a command
grep -qF 'NVMe/TCP (`nvme-tcp`: not selected, or not reached before the guest ended: Notes)' "$dir/report.md" ||
	fail "a run cut short still calls its missing rungs unselected"
grep -qF '**fail** guest: the guest ended before guest-run did' "$dir/report.md" || fail "the cut is not in the Notes"
echo "ok: a run cut short says so"
echo "ok: the ladder section is filled from the measured cells"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/run --ledger --ledger-profile: --help says it, pairs of options that cannot go together refused with exit 2; compare/ledger.py --profile-rows names the ladder's pairs' rows (sg and nvme-tcp's and nvme-loop's generic devices with their twins, both measured; no feature rows, no failed ones); the step (compare/host/run-profile.sh, tools/iprofile faked) profiles each into OUT/iprofile/ID with the ledger's kernel and module, keeps a failed cell's log and returns its status; the ladder of a synthetic ledger folder holding two profiles shows the pair's difference per I/O per layer and the functions it comes from, with the values checked, and a pair without profiles says why; without OUT/iprofile no such section
# where: host
# requires: python3
# timeout: 60
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

run_rc 0 "$TOP/compare/run" --help
expect_in "--help" "--ledger-profile   after the ledger's guest"
for bad in "--ledger-profile|--ledger-profile goes with --ledger" \
	"--ledger --ledger-profile --cpus 2|--ledger-profile and --cpus 2 exclude each other" \
	"--ledger --ledger-profile --clock host|--ledger-profile and --clock host exclude each other" \
	"--ledger --ledger-profile --clock icount --icount-shift 3|--ledger-profile and --icount-shift 3 exclude each other"; do
	# shellcheck disable=SC2086 # the options' words
	run_rc 2 "$TOP/compare/run" ${bad%%|*}
	expect_in "${bad%%|*}" "${bad#*|}"
done

ld=$RESULTS/ledger
mkdir -p "$ld"
cp "$TOP/tests/compare/fixtures/ledger-paths/"{meta.env,ledger.tsv} "$ld/"
# nvme-loop's rows (6.12 on), as Debian's 6.12.118 measured them
printf '%s\t%s\t%s\tmode=mq\t%s\t%s\t%s\tok\t\n' nvme-loop/io_uring nvme-loop nvme0n1 io_uring io_uring 63838.16 \
	nvme-loop-ng/io_uring_cmd nvme-loop-ng ng0n1 io_uring_cmd nvme-loop 79617.38 >> "$ld/ledger.tsv"

# the rows to profile, a twin before its path, each once: QD1 mq over bio, sd over mq, sg over
# sd; QD16 sg over sd (sd's QD16 row has no mq twin); QD32 mq, sd, nvme-tcp-ng's and
# nvme-loop-ng's rows with their block devices'; not sg's scatter_elem_sz row (a feature), not
# mq's hipri-all row (a module toggle), not nvme-tcp-ng's failed QD1 row
run_rc 0 python3 "$TOP/compare/ledger.py" --profile-rows "$ld"
rows="ramlld-bio/io_uring-qd1
ramlld-mq/io_uring-qd1
ramlld-sd/io_uring-qd1
ramlld-sg/sg-qd1
ramlld-sd/io_uring-qd16
ramlld-sg/sg-qd16
ramlld-bio/io_uring
ramlld-mq/io_uring
ramlld-sd/io_uring
nvme-tcp/io_uring
nvme-tcp-ng/io_uring_cmd"
expect_eq "--profile-rows" "$rows
nvme-loop/io_uring
nvme-loop-ng/io_uring_cmd" "$out"
run_rc 2 python3 "$TOP/compare/ledger.py" --profile-rows "$RESULTS"
expect_in "--profile-rows on a folder without a ledger" "has no ledger.tsv"

# no profile step: no profile section
run_rc 0 python3 "$TOP/compare/ledger.py" "$ld"
! grep -qF "the exact profile" "$ld/ledger.md" || fail "a ledger without OUT/iprofile has a profile section"
echo "ok: no profile section without the step"

# the step, tools/iprofile faked: each row in turn, the kernel and module passed; a failing cell
fake=$RESULTS/fake
mkdir -p "$fake/tools/iprofile"
cat > "$fake/tools/iprofile/run" << EOF
#!/bin/bash
echo "run \$*" >> "$RESULTS/calls"
mkdir -p "\$2"
[[ " \$* " != *" --target nvme-tcp-ng "* ]] || { echo "no ng"; exit 3; }
EOF
cat > "$fake/tools/iprofile/table" << EOF
#!/bin/bash
echo "table \$*" >> "$RESULTS/calls"
echo '{}' > "\$5"
EOF
chmod +x "$fake/tools/iprofile/"*
step() {
	(
		top=$fake out=$1 ko=/k/ramlld.ko prog=compare/run here=$TOP/compare py=python3 kernel=$2
		# shellcheck source=compare/host/run-profile.sh
		. "$TOP/compare/host/run-profile.sh"
		r=0
		ledger_profile 2> "$1/step.err" || r=$?
		echo "rc=$r"
	)
}
s=$RESULTS/step
mkdir -p "$s"
cp "$TOP/tests/compare/fixtures/ledger-paths/"{meta.env,ledger.tsv} "$s/"
expect_eq "the step's status (ng's cell failing)" "rc=3" "$(step "$s" trixie)"
i=$s/iprofile
calls=''
for id in $rows; do
	c=$i/${id//\//_}
	calls+="run --out $c --kernel trixie -- --target ${id%%/*} --engine ${id#*/} --runtime 1 --ko /k/ramlld.ko"$'\n'
	[ "$id" = nvme-tcp-ng/io_uring_cmd ] || calls+="table $c --top 40 --json $c/table.json"$'\n'
done
expect_eq "the step's calls (a table after each cell but the failed one)" "${calls%$'\n'}" "$(cat "$RESULTS/calls")"
[ ! -e "$i/nvme-tcp-ng_io_uring_cmd/table.json" ] || fail "a failed cell has a table.json"
expect_eq "the failed cell's log" "no ng" "$(cat "$i/nvme-tcp-ng_io_uring_cmd.log")"
grep -qF "ledger profile: nvme-tcp-ng/io_uring_cmd failed (status 3): $i/nvme-tcp-ng_io_uring_cmd.log" "$s/step.err" ||
	fail "the failure is not said: $(cat "$s/step.err")"
grep -q "^ledger_profile_wall_s=[0-9]" "$s/meta.env" || fail "no ledger_profile_wall_s in meta.env"
rm -f "$RESULTS/calls"
expect_eq "the step again, the default kernel" "rc=3" "$(step "$s" '')"
expect_eq "the calls again" 21 "$(wc -l < "$RESULTS/calls")"
! grep -qF -- "--kernel" "$RESULTS/calls" || fail "--kernel passed without one: $(head -1 "$RESULTS/calls")"
echo "ok: the step's calls, a failed cell's log and status"

# four profiles (bio's and mq's QD32 rows, their functions summing to their layers; sd's QD16
# row and sg's), synthetic; nvme-tcp's cell failed (its log), ng's none; sd's QD1 row a
# table.json without figures; a perf profile of sg's scatter_elem_sz row (its base: exact)
python3 - "$ld" << 'EOF' || fail "the fixture was not written"
import json
import os
import sys

d = os.path.join(sys.argv[1], "iprofile")
cells = {
    "ramlld-sd_io_uring-qd16": (112304, {
        "copy": 560.0, "block": 2087.0, "sd": 217.0, "SCSI midlayer": 668.0,
        "user (fio)": 2238.0, "other kernel": 3136.0, "SCSI generic (sg)": 0, "IPI": 0.04},
        {"copy_page": 516.0, "sd_init_command": 158.0, "scsi_queue_rq": 197.0,
         "[user]": 2238.0}, False),
    "ramlld-sg_sg-qd16": (15761, {
        "copy": 51610.0, "block": 2232.0, "sd": 0, "SCSI midlayer": 670.0,
        "user (fio)": 2542.0, "other kernel": 5324.0, "SCSI generic (sg)": 1079.0, "IPI": 0.2},
        {"clear_page_erms": 46125.0, "copy_user_enhanced_fast_string": 4302.0,
         "sg_common_write [sg]": 204.0, "scsi_queue_rq": 191.0, "[user]": 2542.0}, True),
    "ramlld-bio_io_uring": (160000, {
        "syscall+aio/io_uring": 900.0, "block": 700.0, "driver": 120.0, "copy": 516.0,
        "user (fio)": 2000.0, "memory (slab, gup)": 400.0},
        {"io_submit_sqes": 500.0, "io_read": 400.0, "submit_bio_noacct": 400.0, "bio_endio": 300.0,
         "ramlld_bio_submit_bio [ramlld]": 120.0, "copy_page": 516.0, "[user]": 2000.0,
         "kmem_cache_alloc": 400.0}, False),
    "ramlld-mq_io_uring": (142000, {
        "syscall+aio/io_uring": 900.0, "block": 1400.0, "driver": 160.0, "copy": 516.0,
        "user (fio)": 2000.0, "memory (slab, gup)": 400.0, "irq+softirq": 50.0},
        {"io_submit_sqes": 500.0, "io_read": 400.0, "blk_mq_submit_bio": 500.0,
         "submit_bio_noacct": 400.0, "sbitmap_get": 90.0, "blk_mq_start_request": 110.0,
         "blk_mq_end_request": 300.0, "ramlld_mq_queue_rq [ramlld]": 160.0, "copy_page": 516.0,
         "[user]": 2000.0, "kmem_cache_alloc": 400.0, "irq_exit_rcu": 50.0}, False)}
kind = {"clear_page_erms": "copy", "copy_user_enhanced_fast_string": "copy",
        "sg_common_write [sg]": "SCSI generic (sg)", "scsi_queue_rq": "SCSI midlayer",
        "[user]": "user (fio)"}
for c, (n, layers, fns, named) in cells.items():
    os.makedirs(os.path.join(d, c))
    j = {"n": n, "total": sum(layers.values()), "window_clock": sum(layers.values()) + 0.04,
         "layers": layers, "functions": {f: {"0": v} for f, v in fns.items()}, "cache": None}
    if named:  # the twin's is a table.json of before function_layers
        j["function_layers"] = {f: kind[f] for f in fns}
    json.dump(j, open(os.path.join(d, c, "table.json"), "w"))
    open(os.path.join(d, c, "meta.env"), "w").write(
        f"target={c.split('_')[0]}\nruntime=1\nkernel=6.1.0-57-amd64\ncpus=1\nqemu=7.2.22\n")
    open(os.path.join(d, c, "wall.env"), "w").write("wall_s=80.0\ncpu_s=60.1\nqemu=system\n")
open(os.path.join(d, "nvme-tcp_io_uring.log"), "w").write("tools/stack up nvme-tcp failed\n")
os.makedirs(os.path.join(d, "ramlld-sd_io_uring-qd1"))
open(os.path.join(d, "ramlld-sd_io_uring-qd1", "table.json"), "w").write("{}")
EOF
mkdir -p "$ld/perf"
printf '%s\n' "50.00%  [k] clear_page_erms" "25.00%  [k] sg_common_write" "25.00%  [.] fio_io_loop" \
	> "$ld/perf/ramlld-sg_sg-qd16_scatter_elem_sz=4096.txt"
run_rc 0 python3 "$TOP/compare/ledger.py" "$ld"
python3 - "$ld/ledger.json" << 'END' || fail "the profiles' figures are wrong"
import json
import sys

pr = json.load(open(sys.argv[1]))["ladder"]["profiles"]
bad = []


def want(what, got, exp):
    ok = got == exp if not isinstance(exp, float) else got is not None and abs(got - exp) < 0.005
    print(("ok: " if ok else "WRONG: ") + f"{what} = {got!r} (expected {exp!r})")
    bad.append(not ok)


want("pairs", [(p["id"], p["twin"], p["status"]) for p in pr],
     [("ramlld-mq/io_uring-qd1", "ramlld-bio/io_uring-qd1", "no profile"),
      ("ramlld-sd/io_uring-qd1", "ramlld-mq/io_uring-qd1", "no profile"),
      ("ramlld-sg/sg-qd1", "ramlld-sd/io_uring-qd1", "no profile"),
      ("ramlld-sg/sg-qd16", "ramlld-sd/io_uring-qd16", "ok"),
      ("ramlld-mq/io_uring", "ramlld-bio/io_uring", "ok"),
      ("ramlld-sd/io_uring", "ramlld-mq/io_uring", "no profile"),
      ("nvme-tcp-ng/io_uring_cmd", "nvme-tcp/io_uring", "no profile"),
      ("nvme-loop-ng/io_uring_cmd", "nvme-loop/io_uring", "no profile")])
by = {p["id"]: p for p in pr}
mq = by["ramlld-mq/io_uring"]
want("mq over bio in the window", mq["delta"], 790.0)
want("its layers' Δ", [(n, d) for n, _, _, d in mq["layers"]],
     [("block", 700.0), ("irq+softirq", 50.0), ("driver", 40.0), ("copy", 0.0),
      ("memory (slab, gup)", 0.0), ("syscall+aio/io_uring", 0.0), ("user (fio)", 0.0)])
sg = by["ramlld-sg/sg-qd16"]
want("sg over sd in the window", sg["delta"], 54551.16)
want("the ladder's (fio's whole run)", sg["ledger_delta"], 54647.0)
want("I/Os in the windows", sg["n"], [112304, 15761])
want("layers, largest |Δ| first, under half an instruction left out", [l[0] for l in sg["layers"]],
     ["copy", "other kernel", "SCSI generic (sg)", "user (fio)", "sd", "block", "SCSI midlayer"])
want("copy's Δ", sg["layers"][0][3], 51050.0)
want("sd's (the twin only)", sg["layers"][4][1:], [217.0, 0, -217.0])
want("functions, largest |Δ| first", [(f[0], f[1], f[4]) for f in sg["functions"]],
     [("clear_page_erms", "copy", 46125.0), ("copy_user_enhanced_fast_string", "copy", 4302.0),
      ("copy_page", None, -516.0), ("[user]", "user (fio)", 304.0),
      ("sg_common_write [sg]", "SCSI generic (sg)", 204.0), ("sd_init_command", None, -158.0),
      ("scsi_queue_rq", "SCSI midlayer", -6.0)])
want("sg QD1: sd's table.json not tools/iprofile/table's, sg's not profiled", by["ramlld-sg/sg-qd1"]["missing"],
     [["ramlld-sd/io_uring-qd1", "its iprofile/ramlld-sd_io_uring-qd1/table.json has no n or total"],
      ["ramlld-sg/sg-qd1", "not profiled"]])
want("ng: nvme-tcp's cell failed, ng's not profiled", by["nvme-tcp-ng/io_uring_cmd"]["missing"],
     [["nvme-tcp/io_uring", "its profiled cell failed (iprofile/nvme-tcp_io_uring.log)"],
      ["nvme-tcp-ng/io_uring_cmd", "not profiled"]])
# the ledger's rows: a profiled row's stages are the plugin's, each the sum of its functions'
# counts by stage (compare/lib/perf.py STAGES), summing to the window's total
rows = {r["id"]: r for r in json.load(open(sys.argv[1]))["rows"]}
want("splits", {i: r["split"] for i, r in rows.items() if r.get("split")},
     {"ramlld-bio/io_uring": "exact", "ramlld-mq/io_uring": "exact",
      "ramlld-sd/io_uring-qd16": "exact", "ramlld-sg/sg-qd16": "exact",
      "ramlld-sg/sg-qd16/scatter_elem_sz=4096": "perf"})
m = rows["ramlld-mq/io_uring"]
want("mq's stages, exact", {k: round(v, 6) for k, v in m["stages"].items()},
     {"io_uring/aio+syscall": 900.0, "submission": 900.0, "tag/budget": 90.0, "dispatch": 110.0,
      "completion": 300.0, "driver": 676.0, "fio (user)": 2000.0, "other kernel": 450.0})
want("they sum to mq's window total", sum(m["stages"].values()), m["split_total"])
want("mq's window total", m["split_total"], 5426.0)
want("sd QD16's stages (a module's [mod] left off; scsi_ and sd_ are dispatch)",
     rows["ramlld-sd/io_uring-qd16"]["stages"],
     {"driver": 516.0, "dispatch": 355.0, "fio (user)": 2238.0})
g, b = rows["ramlld-sg/sg-qd16"], rows["ramlld-sd/io_uring-qd16"]
want("sg over sd's stage Δ: both exact", g["stage_delta"],
     {k: g["stages"].get(k, 0) - b["stages"].get(k, 0) for k in g["stage_delta"]})
want("scatter_elem_sz's (perf) over sg's (exact): no stage Δ",
     rows["ramlld-sg/sg-qd16/scatter_elem_sz=4096"]["stage_delta"], None)
sys.exit(any(bad))
END
md=$ld/ledger.md
# shellcheck disable=SC2016 # the markdown's backquotes
for line in \
	'### Where the difference comes from: the exact profile' \
	'**sg (SCSI generic, /dev/sgN), QD16**: `ramlld-sg/sg-qd16` over `ramlld-sd/io_uring-qd16`: +54,551 per I/O in the window (the ladder'"'"'s, fio'"'"'s whole run: +54,647).' \
	'| layer | ramlld-sd/io_uring-qd16 | ramlld-sg/sg-qd16 | Δ per I/O |' \
	'| copy | 560 | 51,610 | +51,050 |' \
	'| SCSI generic (sg) | 0 | 1,079 | +1,079 |' \
	'| sd | 217 | 0 | -217 |' \
	'| **total** (I/Os in the window) | **8,906** (112,304) | **63,457** (15,761) | **+54,551** |' \
	'| `clear_page_erms` | copy | 0 | 46,125 | +46,125 |' \
	'| `sd_init_command` | - | 158 | 0 | -158 |' \
	'**nvme-tcp passthrough (/dev/ngXnY), QD32**: `nvme-tcp-ng/io_uring_cmd` over `nvme-tcp/io_uring`: **no profile**: `nvme-tcp/io_uring` its profiled cell failed (iprofile/nvme-tcp_io_uring.log); `nvme-tcp-ng/io_uring_cmd` not profiled.'; do
	grep -qxF -- "$line" "$md" || fail "ledger.md lacks the line: $line"
done
grep -qF "Debian 12's QEMU 7.2.22, exact clock, 1 vCPU, guest kernel 6.1.0-57-amd64" "$md" ||
	fail "ledger.md does not say the profile's QEMU, vCPUs and kernel"
! grep -qF '| IPI |' "$md" || fail "a layer under half an instruction per I/O on both sides is shown"
echo "ok: ledger.md's profile tables"
for line in \
	'| ramlld-mq/io_uring | base | 7,035 | - | - | - | exact (5,426) | 900 | 900 | 90 | 110 | 676 | 300 | 450 | 2,000 | - |' \
	'| ramlld-sd/io_uring-qd1 | base | 10,240 | ramlld-sd/io_uring | +1,318 | +14.8 | - | - | - | - | - | - | - | - | - | - |'; do
	grep -qxF -- "$line" "$md" || fail "ledger.md lacks the row: $line; has: $(grep -F "${line:0:25}" "$md")"
done
grep -q '^| ramlld-sg/sg-qd16/scatter_elem_sz=4096 | .* | perf | .* | - |$' "$md" ||
	fail "the perf row beside an exact base shows a stage move: $(grep scatter_elem_sz "$md")"
grep -qF "\`split\` exact: the plugin's count of every function (\`--ledger-profile\`" "$md" ||
	fail "ledger.md does not say where the exact split comes from"
echo "ok: ledger.md's rows: the exact split where a row was profiled, perf's else, no move across them"

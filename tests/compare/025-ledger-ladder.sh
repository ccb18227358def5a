#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/ledger.py's ladder around the block layer from a ledger folder (tests/compare/fixtures/ledger-paths): each path at its depth beside its block-path twin (blk-mq over bio, sd over blk-mq, sg over sd, an NVMe stack's passthrough over its block device, ublk over bio) with the difference per I/O and the ratio to bio, absent and failed rows with their reason and no figure, the paths not run and bsg named with why; a bad ledger.tsv row refused naming its line
# where: host
# requires: python3
. "$TOP/tests/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp "$TOP/tests/compare/fixtures/ledger-paths/"{meta.env,ledger.tsv} "$dir/"
python3 "$TOP/compare/ledger.py" "$dir" > "$dir/out.md" || fail "ledger.py failed: $(cat "$dir/out.md")"
python3 - "$dir/ledger.json" << 'END' || fail "the ladder's figures are wrong"
import json
import sys

lad = json.load(open(sys.argv[1]))["ladder"]
bad = []


def want(what, got, exp):
    ok = got == exp if not isinstance(exp, float) else got is not None and abs(got - exp) < 0.05
    print(("ok: " if ok else "WRONG: ") + f"{what} = {got!r} (expected {exp!r})")
    bad.append(not ok)


want("depths", [d["depth"] for d in lad["depths"]], [1, 16, 32])
g = {(d["depth"], r["id"]): r for d in lad["depths"] for r in d["rungs"]}
want("QD32 rows in order", [r["id"] for r in lad["depths"][2]["rungs"]],
     ["ramlld-bio/io_uring", "ramlld-mq/io_uring", "ramlld-sd/io_uring", "nvme-tcp/io_uring",
      "nvme-tcp-ng/io_uring_cmd", "ublk-null/io_uring", "ublk-loop/io_uring"])
want("bio has no twin", g[(32, "ramlld-bio/io_uring")]["twin"], None)
want("blk-mq QD32 over bio", g[(32, "ramlld-mq/io_uring")]["delta"], 810.0)
want("sd QD32 over blk-mq", g[(32, "ramlld-sd/io_uring")]["delta"], 1887.0)
want("sd QD1 over blk-mq", g[(1, "ramlld-sd/io_uring-qd1")]["delta"], 1622.0)
sg1 = g[(1, "ramlld-sg/sg-qd1")]
want("sg QD1's twin", sg1["twin"], "ramlld-sd/io_uring-qd1")
want("sg QD1 over sd", sg1["delta"], 4531.0)
want("sg QD1 over sd, %", round(sg1["delta_pct"], 2), 44.25)
want("sg QD1 x bio", round(sg1["x_bio"], 3), 2.012)
sg16 = g[(16, "ramlld-sg/sg-qd16")]
want("sg QD16's twin", sg16["twin"], "ramlld-sd/io_uring-qd16")
want("sg QD16 over sd", sg16["delta"], 54647.0)
want("sg QD16 x bio (no bio row at QD16)", sg16["x_bio"], None)
sz = g[(16, "ramlld-sg/sg-qd16/scatter_elem_sz=4096")]
want("sg scatter_elem_sz=4096's twin (its path's)", sz["twin"], "ramlld-sd/io_uring-qd16")
want("sg scatter_elem_sz=4096 over sd", sz["delta"], 27280.0)
want("sd QD16 has no twin (no blk-mq QD16 row)", g[(16, "ramlld-sd/io_uring-qd16")]["twin"], None)
ng = g[(32, "nvme-tcp-ng/io_uring_cmd")]
want("ng's twin", ng["twin"], "nvme-tcp/io_uring")
want("ng saves over nvme block", ng["delta"], -1374.0)
want("nvme-tcp block over blk-mq", g[(32, "nvme-tcp/io_uring")]["delta"], 33380.0)
f = g[(1, "nvme-tcp-ng/io_uring_cmd-qd1")]
want("failed ng QD1: status", f["status"], "failed")
want("failed ng QD1: no figure", (f["instr_per_io"], f["delta"]), (None, None))
u = g[(32, "ublk-loop/io_uring")]
want("ublk loop: absent", u["status"], "absent")
want("ublk loop: its reason", u["note"], "kernel 6.1.0-57-amd64 has no module ublk_drv (CONFIG_BLK_DEV_UBLK)")
want("ublk loop: no figure", (u["instr_per_io"], u["delta"], u["x_bio"]), (None, None, None))
want("ublk loop's twin", u["twin"], "ramlld-bio/io_uring")
want("a blk-mq toggle is not a rung", any("queue_rqs" in i for _, i in g), False)
nr = {label: why for label, _, why in lad["not_run"]}
want("not run", sorted(nr), ["bsg (/dev/bsg/*)", "nvme-loop block (/dev/nvmeXnY)",
                             "nvme-loop passthrough (/dev/ngXnY)"])
want("bsg's reason names v4", "takes only v4" in nr["bsg (/dev/bsg/*)"], True)
sys.exit(any(bad))
END
md=$dir/ledger.md
for line in \
	'| sg (SCSI generic, /dev/sgN) | ramlld-sg/sg-qd1 | 14,771 | ramlld-sd/io_uring-qd1 | 10,240 | +4,531 | +44.2 | 2.01 |' \
	'| nvme-tcp passthrough (/dev/ngXnY) | nvme-tcp-ng/io_uring_cmd | 39,041 | nvme-tcp/io_uring | 40,415 | -1,374 | -3.4 | 6.27 |' \
	'| ublk loop target over bio | ublk-loop/io_uring | **absent**: kernel 6.1.0-57-amd64 has no module ublk_drv (CONFIG_BLK_DEV_UBLK) | ramlld-bio/io_uring | - | - | - | - |' \
	'| nvme-tcp passthrough (/dev/ngXnY) | nvme-tcp-ng/io_uring_cmd-qd1 | **failed**: no character device /dev/ng0n1 beside /dev/nvme0n1 | nvme-tcp/io_uring-qd1 | - | - | - | - |'; do
	grep -qxF -- "$line" "$md" || fail "ledger.md lacks the line: $line"
done
grep -qF "bsg (/dev/bsg/*) (fio's sg engine sends sg v3 headers" "$md" || fail "ledger.md does not say why bsg has no row"
echo "ok: ledger.md's ladder: figures, absent and failed rows with their reason, bsg's why"

# the host's clock: IOPS, no instructions, so no ladder
sed -i 's/^clock=icount$/clock=host/' "$dir/meta.env"
python3 "$TOP/compare/ledger.py" "$dir" > /dev/null || fail "ledger.py failed on the host's clock"
! grep -qF "the ladder" "$dir/ledger.md" || fail "a ledger on the host's clock has a ladder of instructions"
echo "ok: no ladder without the exact clock"

# a bad row is refused, naming its line, and nothing is written
rm -f "$dir/ledger.md" "$dir/ledger.json"
printf 'ramlld-bio/libaio\tramlld-bio\tramlld0\tbase\tlibaio\tlibaio\tfast\tok\t\n' >> "$dir/ledger.tsv"
n=$(wc -l < "$dir/ledger.tsv")
run_rc 2 python3 "$TOP/compare/ledger.py" "$dir"
grep -qF "ledger.tsv line $n: bad row (allowed: an id, and an IOPS that is a number > 0 or empty)" <<< "$out" ||
	fail "the refusal does not name the line and what is allowed: $out"
[ ! -e "$dir/ledger.md" ] || fail "a refused ledger wrote ledger.md"
echo "ok: refused: $out"

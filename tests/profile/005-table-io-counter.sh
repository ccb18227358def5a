#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tools/iprofile/table counts a cell's I/Os by the function its meta.env names (io_done, io_submit: guest-cell's sg_rq_end_io of module sg for the SCSI generic node), by name whatever module holds it, the sg module's functions in a layer of their own, and by blkdev_bio_end_io_async where the cell names none; a window of fio's whole run (run-open, run-close markers) as the steady one, none refused; a cell whose function never ran in the window is refused with its name (exit 1); guest-cell refuses an engine that does not go with its target, naming what goes with what, before it makes anything (exit 2)
# where: host
# requires: python3
. "$TOP/tests/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
c=$dir/cell
mkdir -p "$c"
# the window (marker 4): 101,050 instructions over 101,050 ns of guest time
printf '1\t0\tcpu\t1000\t0.00\n2\t0\tboot\t2000\t0.00\n3\t0\tsteady-open\t1000000000\t0.00\n4\t0\tsteady-close\t1000101050\t0.00\n' > "$c/marks.tsv"
printf '%s\n' 'ffffffff81000000 T blkdev_bio_end_io_async' 'ffffffff81000100 T other_fn' \
	'ffffffffc0001000 t sg_rq_end_io	[sg]' 'ffffffffc0001100 t sg_common_write.constprop.0	[sg]' \
	'ffffffffc0002000 t nvme_uring_cmd_end_io	[nvme_core]' > "$c/kallsyms"
# sg_rq_end_io's first instruction 1,000 times (10 a call in all), sg_common_write's (a
# specialised copy, .constprop.0) 1,000,
# blkdev_bio_end_io_async's 50 (a block device's I/O beside the sg node's), user space 50,000
cat > "$c/profile.txt" << 'END'
# iprofile plugin-api 1 qemu-plugin-version 1 smp 1 mark 0xffffffff81999999
window 3 gs 0x0
end 3 total 0 nocpu 0
window 4 gs 0x0
ffffffffc0001000 0 1000
ffffffffc0001004 0 9000
ffffffffc0001100 0 1000
ffffffff81000000 0 50
ffffffff81000100 0 40000
401000 0 50000
end 4 total 101050 nocpu 0
END
echo '{"jobs": [{"read": {"total_ios": 2000, "iops": 9000.0, "runtime": 1000}}]}' > "$c/fio.json"
printf 'target=ramlld-sg\nio_done=sg_rq_end_io\nio_submit=sg_common_write\n' > "$c/meta.env"

"$TOP/tools/iprofile/table" "$c" --json "$dir/sg.json" > "$dir/sg.txt" || fail "table failed: $(cat "$dir/sg.txt")"
cat "$dir/sg.txt"
python3 - "$dir/sg.json" << 'END' || fail "the sg cell's figures are wrong"
import json
import sys

j = json.load(open(sys.argv[1]))
bad = 0
for what, got, want in [("I/Os (sg_rq_end_io's entries)", j["n"], 1000),
                        ("submitted (sg_common_write's)", j["submitted"], 1000),
                        ("total per I/O", j["total"], 101.05),
                        ("window clock per I/O", j["window_clock"], 101.05),
                        ("sg_rq_end_io per I/O", j["functions"]["sg_rq_end_io [sg]"]["0"], 10.0),
                        ("sg_common_write.constprop.0 per I/O", j["functions"]["sg_common_write.constprop.0 [sg]"]["0"], 1.0),
                        ("layer SCSI generic (sg) per I/O", j["layers"]["SCSI generic (sg)"], 11.0),
                        ("user per I/O", j["functions"]["[user]"]["0"], 50.0)]:
    ok = abs(got - want) < 1e-9
    print(("ok: " if ok else "WRONG: ") + f"{what} = {got} (expected {want})")
    bad += not ok
sys.exit(bad)
END
grep -qF "1,000 I/Os completed (sg_rq_end_io), 1,000 submitted (sg_common_write)" "$dir/sg.txt" ||
	fail "the table does not name the functions that counted the I/Os"
echo "ok: the table names the functions that counted the I/Os"

# a cell that names no function: a block device's direct I/O
printf 'target=ramlld-sd\n' > "$c/meta.env"
"$TOP/tools/iprofile/table" "$c" --json "$dir/blk.json" > /dev/null || fail "table failed on a block cell"
n=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["n"])' "$dir/blk.json")
expect_eq "I/Os by blkdev_bio_end_io_async when meta.env names none" 50 "$n"

# a window of fio's whole run (guest-cell --window run): its markers in place of the steady ones
sed -i 's/steady-open/run-open/; s/steady-close/run-close/' "$c/marks.tsv"
"$TOP/tools/iprofile/table" "$c" --json "$dir/run.json" > /dev/null || fail "table failed on a run window"
n=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["n"])' "$dir/run.json")
expect_eq "I/Os in a run window" 50 "$n"
sed -i '/run-close/d' "$c/marks.tsv"
run_rc 1 "$TOP/tools/iprofile/table" "$c"
grep -qF "marker: the cell did not finish" <<< "$out" || fail "a cell without a closed window is not refused: $out"
echo "ok: refused: $out"

# a function that never ran in the window
printf '4\t0\trun-close\t1000101050\t0.00\n' >> "$c/marks.tsv"
printf 'target=nvme-tcp-ng\nio_done=nvme_uring_cmd_end_io\nio_submit=nvme_uring_cmd_io\n' > "$c/meta.env"
run_rc 1 "$TOP/tools/iprofile/table" "$c"
grep -qF "no nvme_uring_cmd_end_io in the window" <<< "$out" || fail "the refusal does not name the function: $out"
echo "ok: refused: $out"

# guest-cell: an engine that does not go with the target, refused before anything is made
for args in "--target ramlld-sd --engine sg-qd16" "--target ramlld-sg --engine io_uring" \
	"--target nvme-tcp --engine io_uring_cmd" "--target nvme-tcp-ng --engine libaio" \
	"--target ramlld-sd --window whole"; do
	# shellcheck disable=SC2086 # one argument a word
	run_rc 2 "$TOP/tools/iprofile/guest-cell" --out "$dir/gc" $args
	grep -qE "go with (ramlld-sg|nvme-tcp-ng)|--window: bad value 'whole' \(allowed: steady run\)" <<< "$out" || fail "guest-cell $args: the refusal does not say what goes with what: $out"
	echo "ok: refused: $out"
done
run_rc 2 "$TOP/tools/iprofile/guest-cell" --out "$dir/gc" --target ramlld-sd --engine sg
grep -qF "allowed: libaio io_uring io_uring-qd1 io_uring-qd16 sg-qd1 sg-qd16 io_uring_cmd io_uring_cmd-qd1" <<< "$out" ||
	fail "an unknown engine's refusal does not list the engines: $out"
[ ! -e "$dir/gc" ] || fail "a refused guest-cell made $dir/gc"
echo "ok: nothing made by the refusals"

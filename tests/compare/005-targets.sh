#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/targets/*.sh: each file declares its header and functions, guest-run and report.py list the targets from the files alone, a new file is a new target, a bogus file is refused naming it and what is wrong; a target's "# needs:" (kernel version, modules, module parameters, commands) skips it with the reason on a kernel that lacks them, decided on the host from the kernel's version and module tree
# where: host
# timeout: 600
# requires: python3
. "$TOP/tests/lib.sh"

gr=$TOP/compare/guest-run
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# 1. The files, as listed by guest-run, as parsed by report.py (each its own parser).
mapfile -t files < <(cd "$TOP/compare/targets" && ls -- *.sh)
[ ${#files[@]} -ge 15 ] || fail "only ${#files[@]} target files in compare/targets"
"$gr" --list-targets > "$dir/list.tsv" || fail "guest-run --list-targets failed"
in_compare python3 - "$TOP/compare" "$dir/list.tsv" "${files[@]}" << 'EOF' || fail "the target files' headers"
import os, sys
from lib import results as report  # the one reader of a results folder and the target files
listed = [line.rstrip("\n").split("\t") for line in open(sys.argv[2])]
names = sorted(f[:-3] for f in sys.argv[3:])
if sorted(r[0] for r in listed) != names:
    sys.exit(f"guest-run lists {sorted(r[0] for r in listed)}, the files are {names}")
groups = {"ramlld", "block", "scsi", "stack", "device", "host"}
targets = report.load_targets()
if sorted(targets) != names:
    sys.exit(f"report.load_targets() gives {sorted(targets)}, the files are {names}")
for row in listed:
    name, fields = row[0], dict(zip(report.TARGET_KEYS, row[1:]))
    h = report.read_target_file(os.path.join(sys.argv[1], "targets", name + ".sh"))
    for k in report.TARGET_KEYS:
        if k != "own-functions" and not h.get(k):
            sys.exit(f"{name}.sh declares no '# {k}:'")
    if fields != h or targets[name] != h:
        sys.exit(f"{name}: guest-run {fields} / report.py {targets[name]} / file {h} differ")
    if h["group"] not in groups or not h["order"].isdigit() or h["precondition"] not in ("yes", "no"):
        sys.exit(f"{name}: bad group, order or precondition: {h}")
    if h["levels"] != "-" and not set(h["levels"].split()) <= {"quick", "default", "full"}:
        sys.exit(f"{name}: bad levels {h['levels']!r}")
orders = [int(r[3]) for r in listed]
if orders != sorted(orders):
    sys.exit(f"guest-run lists the targets out of order: {orders}")
print(f"ok: {len(listed)} targets, the same in the files, guest-run and report.py: "
      + " ".join(r[0] for r in listed))
EOF

# 2. Which benches, ladder rungs and summary rows a target joins: its header's lines, read by
# compare/lib/targets.py; a results folder's copy of the files (harness/targets/) is what its
# report reads, the tree's for a folder without one; a bad line is refused naming the file.
mkdir -p "$dir/run/harness/targets" "$dir/old/harness/targets" "$dir/bad"
printf '# desc: x\n# order: 5\n# ladder: only, its own store\n# summary: only\n' > "$dir/run/harness/targets/x.sh"
printf '# desc: x\n# order: 5\n' > "$dir/old/harness/targets/x.sh"
in_compare python3 - "$TOP/compare" "$dir" << 'EOF' || fail "the targets' bench, ladder and summary lines"
import os, sys
from lib import targets as T
d = sys.argv[2]
h = T.read_all()
rungs = T.ladder(h)
assert [r[1] for r in rungs][:3] == ["ramlld-bio", "ramlld-mq", "ramlld-sd"], rungs
assert rungs[-1][1:] == ("lio", None, True), f"the rung on a store of its own is not last: {rungs}"
b = T.benches(h)
assert sorted(b) == ["bio", "mq", "scsi"], sorted(b)
for name, v in b.items():
    assert v["ratios"] and all(x in v["targets"] for a, o, _, _ in v["ratios"] for x in (a, o)), (name, v)
assert b["bio"]["ratios"] == [("ramlld-bio", "brd", "ramlld-bio / brd",
                               {"randread-4k-qd32": 1.15, "randwrite-4k-qd32": 1.0})], b["bio"]
assert [r[0] for r in b["mq"]["ratios"]] == ["ramlld-mq", "ramlld-mq-tar", "ramlld-bio"], b["mq"]
assert T.summary_paths(h) == [("bio", "ramlld-bio", None), ("mq", "ramlld-mq", "ramlld-mq-poll"),
                              ("sd", "ramlld-sd", "ramlld-sd-poll")], T.summary_paths(h)
assert list(T.read_run(os.path.join(d, "run"))) == ["x"], "a folder's own copy of the files is not read"
assert T.read_run(os.path.join(d, "old")) == h, "a copy without these lines does not give the tree's"
assert T.read_run(os.path.join(d, "nosuch")) == h, "a folder without a copy does not give the tree's"
for key, line, why in [("ladder", "mq, over nosuch", "nosuch is no rung of the ladder"),
                       ("summary", "two words", "allowed: PATH or PATH, polled"),
                       ("bench-ratio", "mq, over brd; -; x", "brd's '# bench:' does not name mq"),
                       ("bench-ratio", "mq, over ramlld-mq; fast; x", "bad goal 'fast'")]:
    bad = dict(h, y={"order": "1", "bench": "mq", key: [line] if key in T.REPEATED else line})
    try:
        {"ladder": T.ladder, "summary": T.summary_paths, "bench-ratio": T.benches}[key](bad)
    except T.BadHeader as e:
        assert f"compare/targets/y.sh: '# {key}: {line}': " in str(e) and why in str(e), str(e)
    else:
        sys.exit(f"'# {key}: {line}' was not refused")
print("ok: benches, ladder and summary paths from the headers; a folder's copy read; bad lines refused")
EOF
for w in "bench-names:bio mq scsi" "bench mq:ramlld-bio,ramlld-mq,ramlld-mq-tar,nullb-mq,nullb-mq-nodata" \
	"ladder quick:ramlld-bio,ramlld-mq,ramlld-sd,lio-iblock,iscsi,srp,nvme-tcp,nvme-loop"; do
	# shellcheck disable=SC2086 # the words are the program's arguments
	expect_eq "compare/lib/targets.py ${w%%:*}" "${w#*:}" "$(python3 "$TOP/compare/lib/targets.py" ${w%%:*})"
done
# tools/stack-ladder's rungs (its own names) and the rung below each: the same ladder
expect_eq "compare/lib/targets.py stack-ladder" "bio - mq bio sd mq lio-iblock mq iscsi lio-iblock srp lio-iblock nvme-tcp mq nvme-rdma mq nvme-loop mq lio-rd -" \
	"$(python3 "$TOP/compare/lib/targets.py" stack-ladder | tr '\n' ' ' | sed 's/ $//')"
"$TOP/tools/stack-ladder" --help | grep -qx "    iscsi      lio-iblock" ||
	fail "tools/stack-ladder --help does not show iscsi over lio-iblock: $("$TOP/tools/stack-ladder" --help)"
run_rc 2 python3 "$TOP/compare/lib/targets.py" bench
expect_in "targets.py without a bench name" "usage: targets.py bench-names | bench NAME | ladder LEVEL | stack-ladder"

# Each file defines the functions guest-run calls (sourced alone, as guest-run sources it).
for f in "${files[@]}"; do
	missing=$(TARGETS_DIR=$TOP/compare/targets top=$TOP bash -c 'source "$1" > /dev/null || exit 1
		for fn in target_setup target_teardown target_devices; do declare -F "$fn" > /dev/null || echo "$fn"; done' \
		_ "$TOP/compare/targets/$f") || fail "sourcing $f failed"
	[ -z "$missing" ] || fail "$f defines no $missing"
done
echo "ok: every file defines target_setup, target_teardown and target_devices"

# Each level's targets are those whose file lists the level, in the files' order.
for level in quick default full; do
	want=$(awk -F'\t' -v l="$level" '$3 != "host" && (" " $5 " ") ~ (" " l " ") { printf "%s ", $1 }' "$dir/list.tsv")
	got=$("$gr" --out "$dir" --level "$level" --print-targets)
	expect_eq "level $level's targets" "$want" "$got "
done

# 2. A new target is one new file: it is listed, selectable, and reaches the report's table.
cp -r "$TOP/compare/targets" "$dir/t"
sed -e 's/^# desc: .*/# desc: a second brd, for the test/' -e 's/^# order: .*/# order: 101/' \
	"$TOP/compare/targets/brd.sh" > "$dir/t/brd-copy.sh"
export COMPARE_TARGETS_DIR=$dir/t
list=$("$gr" --list) || fail "guest-run --list failed with brd-copy.sh"
grep -q "^targets: .* brd brd-copy nullb-bio " <<< "$list" || fail "guest-run --list: $list"
"$gr" --out "$dir" --level quick --targets brd-copy --only qd32 --check-only ||
	fail "--targets brd-copy refused"
mkdir "$dir/res"
"$gr" --list-targets > "$dir/res/targets.tsv"
in_compare python3 - "$TOP/compare" "$dir/res" << 'EOF' || fail "report.py does not see the new target"
import sys
from lib import results as report  # the one reader of a results folder and the target files
t = report.load_targets(sys.argv[2])["brd-copy"]
assert t["desc"] == "a second brd, for the test" and t["group"] == "block", t
order = sorted(report.load_targets(sys.argv[2]), key=report.torder(report.load_targets(sys.argv[2])))
assert order.index("brd-copy") == order.index("brd") + 1, order
print(f"ok: report.py reads brd-copy from the results folder: {t['desc']}, group {t['group']}")
EOF
rm "$dir/t/brd-copy.sh"

# 3. Bogus files are refused (exit 2) by --list (the first also by --check-only and compare/run),
# naming the file and what is wrong.
cmds=("$gr --list" "$gr --out $dir --level quick --check-only" "$TOP/compare/run --list")
refused() { # WANT SED-ARGS...: a bogus.sh made from brd.sh by sed SED-ARGS
	local want=$1 msg rc=0 cmd
	shift
	sed "$@" "$TOP/compare/targets/brd.sh" > "$dir/t/bogus.sh"
	for cmd in "${cmds[@]}"; do
		rc=0
		msg=$($cmd 2>&1) || rc=$?
		[ "$rc" = 2 ] || fail "$cmd with a bogus target file ($want) exited $rc, expected 2: $msg"
		grep -qF "bogus.sh" <<< "$msg" || fail "$cmd: message does not name bogus.sh: $msg"
		grep -qF -- "$want" <<< "$msg" || fail "$cmd: message lacks '$want': $msg"
	done
	echo "ok: refused: $msg"
	rm "$dir/t/bogus.sh"
}
refused "no '# KEY: value' header line for: group" -e '/^# group:/d'
cmds=("$gr --list")
refused "bad group 'blok' (allowed: ramlld block scsi stack device host)" -e 's/^# group: .*/# group: blok/'
refused "unknown header key 'grup'" -e 's/^# group:/# grup:/'
refused "bad order 'first'" -e 's/^# order: .*/# order: first/'
refused "bad level 'quik'" -e 's/^# levels: .*/# levels: quik default/'
refused "bad precondition 'maybe' (allowed: yes no)" -e 's/^# precondition: .*/# precondition: maybe/'
refused "bad need 'kernel~6.9' in '# needs:'" -e 's/^# needs: .*/# needs: kernel~6.9/'
refused "bad need 'module' in '# needs:'" -e 's/^# needs: .*/# needs: module brd, module/'
refused "bad alias 'brd' in '# alias:'" -e 's/^# desc: .*/&\n# alias: brd/'
refused "bad alias 'Old_Brd' in '# alias:'" -e 's/^# desc: .*/&\n# alias: ram Old_Brd/'
refused "no function target_teardown" -e 's/^target_teardown()/teardown()/'
refused "no function target_devices" -e '/^target_devices() {$/,/^}$/d'
refused "sourcing it failed" -e 's/^target_devices() {$/target_devices() { (/'
sed 's/^# order: .*/# order: 999/' "$TOP/compare/targets/brd.sh" > "$dir/t/Bad_Name.sh"
msg=$("$gr" --list 2>&1) && fail "a file named Bad_Name.sh was accepted"
grep -qF "bad target name 'Bad_Name'" <<< "$msg" || fail "Bad_Name.sh: $msg"
echo "ok: refused: $msg"
rm "$dir/t/Bad_Name.sh"
"$gr" --list > /dev/null || fail "the copied targets folder is refused after the bogus files went"
echo "ok: every target file declares what it must; bogus ones are refused with the reason"

# One name per target: compare/run --targets takes a name a target's "# alias:" lists, as
# compare/ab does (tests/compare/030-ab.sh), says which target it is once, and plans that target
plan=$("$TOP/compare/run" --plan --no-build --targets ramlld-scsi,brd --only qd32/randread-4k-qd32 \
	--profiles default 2> "$dir/err") || fail "compare/run --plan --targets ramlld-scsi,brd: $(cat "$dir/err")"
expect_eq "--targets ramlld-scsi: stderr" "compare/run: --targets: 'ramlld-scsi' is target 'ramlld-sd'" "$(cat "$dir/err")"
expect_eq "--targets ramlld-scsi,brd: the cells' targets" "ramlld-sd brd" "$(awk '$1 == "cell" { printf "%s%s", s, $2; s = " " }' <<< "$plan")"

# 4. "# needs:": decided for a kernel named by its release and module tree (a fake one here)
unset COMPARE_TARGETS_DIR
fake_root() { # RELEASE MODULE...: a module tree holding these modules
	local d=$dir/root-$1/lib/modules/$1 m
	mkdir -p "$d"
	for m in "${@:2}"; do echo "kernel/drivers/$m.ko:" >> "$d/modules.dep"; done
	: > "$d/modules.builtin"
}
fake_root 6.12.0-fake null_blk brd
fake_root 6.1.0-fake null_blk brd nvmet nvme-loop
needs_plan() { # RELEASE: the plan of four targets for that kernel
	"$gr" --out "$dir" --level quick --targets nullb-bio,nullb-mq,brd,nvme-loop --only qd32/randread-4k-qd32 \
		--profiles default --kernel-release "$1" --modules-root "$dir/root-$1" --print-plan
}
plan=$(needs_plan 6.12.0-fake) || fail "guest-run --print-plan for 6.12.0-fake failed"
expect_eq "skips on 6.12 without nvme-loop" "skip nullb-bio needs kernel < 6.9, this one is 6.12.0-fake; null_blk's bio path is gone from 6.9, upstream 8b631f9cf0b8: queue_mode=0 runs blk-mq
skip nvme-loop needs module nvmet, which kernel 6.12.0-fake lacks" "$(grep '^skip ' <<< "$plan")"
expect_eq "cells on 6.12 without nvme-loop" "cell nullb-mq default qd32 randread-4k-qd32 2x64
cell brd default qd32 randread-4k-qd32 2x64" "$(grep '^cell ' <<< "$plan")"
expect_eq "runs on 6.12 without nvme-loop" 4 "$(sed -n 's/^runs //p' <<< "$plan")"
plan=$(needs_plan 6.1.0-fake) || fail "guest-run --print-plan for 6.1.0-fake failed"
expect_eq "skips on 6.1 with nvme-loop" "" "$(grep '^skip ' <<< "$plan")"
expect_eq "targets on 6.1 with nvme-loop" "nullb-bio nullb-mq brd nvme-loop" "$(sed -n 's/^cell \([^ ]*\) .*/\1/p' <<< "$plan" | paste -sd ' ')"
# a plan without a kernel named decides nothing (it is not the guest's kernel)
plan=$("$gr" --out "$dir" --level quick --targets nullb-bio --only qd32/randread-4k-qd32 --print-plan) ||
	fail "guest-run --print-plan without a kernel failed"
expect_eq "skips without a kernel named" "" "$(grep '^skip ' <<< "$plan")"
# every target of a level declares the modules it loads (a module need), but ramlld's own
while IFS=$'\t' read -r n _; do
	case $n in ramlld-* | host) continue ;; esac
	grep -q '^# needs: .*module ' "$TOP/compare/targets/$n.sh" || fail "$n.sh declares no module it needs"
done < "$dir/list.tsv"
echo "ok: every reference and stack declares the modules it needs"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/run --quick on the exact clock selects the trimmed level docs/benches.md and --help describe (6 core targets x 4k randread/randwrite QD32, seed-001, and the cost ladder's 4k randread QD32 on ramlld's 3 paths and 4 stacks under the ladder's profile, io_uring hipri on the polled mq and sd disks, 1 vCPU, 1 device, 1 run of 1 s (a sample again in the spot check), breakdown on ramlld's 3 paths, no knob table in its guest but the knob table's 56 runs (dd and QD32) in a knob guest of 2 vCPUs); guest-run --also-cells adds cells and refuses a bad one; a selection, --wide or the host clock keep the whole quick level; bad combinations are refused
# where: host
# timeout: 900
. "$TOP/tests/lib.sh"

run=$TOP/compare/run
# plan_field OUT KEY: the rest of the line "KEY ..." of a --plan output
plan_field() {
	sed -n "s/^$2 //p" <<< "$1" | head -n 1
}

# The exact quick level: what docs/benches.md ("The exact quick level") says it runs.
plan=$("$run" --quick --clock icount --plan 2> /dev/null) || fail "compare/run --quick --clock icount --plan failed"
expect_eq "name" quick-exact "$(plan_field "$plan" name)"
expect_eq "clock" "icount (asked: --clock icount)" "$(plan_field "$plan" clock)"
expect_eq "vCPUs" 1 "$(plan_field "$plan" cpus)"
# the cost ladder (docs/stacks.md): its rungs but nvme-rdma (not at quick) and nvme-loop (its
# runs disagree on 6.12), each target's ladder cell after its own cells
core="ramlld-bio ramlld-mq ramlld-sd brd nullb-mq sdebug-norwlock"
ladder="ramlld-bio ramlld-mq ramlld-sd lio-iblock iscsi srp nvme-tcp"
want_cells=''
for t in $core lio-iblock iscsi srp nvme-tcp; do
	if [[ " $core " == *" $t "* ]]; then
		for s in randread-4k-qd32 randwrite-4k-qd32; do
			want_cells+="cell $t seed-001 qd32 $s 1x64"$'\n'
		done
	fi
	[[ " $ladder " != *" $t "* ]] || want_cells+="cell $t default qd32 randread-4k-qd32 1x64"$'\n'
done
# and the summary's polled row: io_uring hipri on the targets whose file says "# summary: PATH, polled"
for t in ramlld-mq-poll ramlld-sd-poll; do
	want_cells+="cell $t default percore io_uring-hipri 1x64"$'\n'
done
expect_eq "cells (target profile workload section LUNSxMiB)" "${want_cells%$'\n'}" "$(grep '^cell ' <<< "$plan")"
expect_eq "fio runs (one a cell: the spot check runs a sample again)" 21 "$(plan_field "$plan" runs)"
# those are cells the ladder section (compare/sections/ladder.py) reads: its rungs' targets (the
# target files' "# ladder:"), its profile, its QD32 column
in_compare python3 - "$TOP/compare" "$ladder" << 'EOF' || fail "the exact quick level's ladder cells are not the ladder section's"
import sys
from lib.targets import ladder as rungs_of, read_all
from sections import ladder
rungs = [t for _, t, _, _ in rungs_of(read_all())]
for t in sys.argv[2].split():
    assert t in rungs, f"{t} is not a rung of the ladder section ({rungs})"
assert ladder.PROFILE == "default", f"the ladder section's profile is {ladder.PROFILE}"
assert ("qd32", "randread-4k-qd32") in [(w, s) for _, w, s in ladder.CELLS], ladder.CELLS
print("ok: the ladder cells are the ladder section's rungs, profile and QD32 column")
EOF
expect_eq "repeats" 1 "$(plan_field "$plan" repeats)"
expect_eq "seconds a run" 1 "$(plan_field "$plan" runtime)"
expect_eq "ramp" 0 "$(plan_field "$plan" ramp)"
expect_eq "breakdown targets" "ramlld-bio ramlld-mq ramlld-sd" "$(plan_field "$plan" breakdown)"
expect_eq "knob table in the matrix's guest" 0 "$(plan_field "$plan" knobs)"
# the knob table in a guest of its own, 2 vCPUs on the same clock: the quick step, dd and QD32, 56 runs
expect_eq "knob guest's vCPUs" 2 "$(plan_field "$plan" "knob-guest cpus")"
expect_eq "knob guest's table" 1 "$(plan_field "$plan" "knob-guest knobs")"
expect_eq "knob guest's step" "--runtime 1 --repeats 1 --procs-per-cpu 4 --workloads dd,qd32" \
	"$(plan_field "$plan" "knob-guest knob-step")"
expect_eq "knob guest's runs" 56 "$(plan_field "$plan" "knob-guest knob-runs")"
grep -q -- "^knob-guest guest-run --level quick --knobs-only " <<< "$plan" ||
	fail "the knob guest does not run guest-run --knobs-only: $(grep '^knob-guest' <<< "$plan")"
"$run" --help | grep -q -- "--plan prints a level's cells, run count, estimated time" ||
	fail "compare/run --help does not send the reader to --plan for the run counts"
"$run" --help | grep -q "knob guest" || fail "compare/run --help does not describe the knob guest"
grep -q "compare/run --quick --clock icount" "$TOP/docs/benches.md" ||
	fail "docs/benches.md does not describe the exact quick level"

# Options still apply on top of it.
plan=$("$run" --quick --clock icount --cpus 2 --repeats 3 --no-breakdown --plan 2> /dev/null) ||
	fail "--quick --clock icount --cpus 2 --repeats 3 --plan failed"
expect_eq "vCPUs with --cpus 2" 2 "$(plan_field "$plan" cpus)"
expect_eq "fio runs with --repeats 3" 63 "$(plan_field "$plan" runs)"
expect_eq "breakdown targets with --no-breakdown" "" "$(plan_field "$plan" breakdown)"
expect_eq "knob guest's vCPUs with --cpus 2" 2 "$(plan_field "$plan" "knob-guest cpus")"
# --no-knobs: no knob guest; --knobs: the knob guest, never the table in the matrix's guest
plan=$("$run" --quick --clock icount --no-knobs --plan 2> /dev/null) || fail "--quick --clock icount --no-knobs --plan failed"
expect_eq "knob guest lines with --no-knobs" "" "$(grep '^knob-guest' <<< "$plan")"
expect_eq "knob table in the matrix's guest with --no-knobs" 0 "$(plan_field "$plan" knobs)"
plan=$("$run" --quick --clock icount --knobs --plan 2> /dev/null) || fail "--quick --clock icount --knobs --plan failed"
expect_eq "knob table in the matrix's guest with --knobs" 0 "$(plan_field "$plan" knobs)"
expect_eq "knob guest's runs with --knobs" 56 "$(plan_field "$plan" "knob-guest knob-runs")"

# Not trimmed: --wide, a selection of one's own, the host clock.
whole=$("$run" --quick --clock host --plan 2> /dev/null) || fail "--quick --clock host --plan failed"
expect_eq "name on the host clock" quick "$(plan_field "$whole" name)"
expect_eq "vCPUs on the host clock" 2 "$(plan_field "$whole" cpus)"
[ "$(plan_field "$whole" runs)" -gt 24 ] || fail "the whole quick level plans only $(plan_field "$whole" runs) runs"
expect_eq "knob table on the host clock" 1 "$(plan_field "$whole" knobs)"
expect_eq "knob guest on the host clock (the table in the one guest)" "" "$(grep '^knob-guest' <<< "$whole")"
expect_eq "knob runs on the host clock" 56 "$(plan_field "$whole" knob-runs)"
# the default level's knob step (narrowed to one cell: the whole default plan takes minutes)
dflt=$("$TOP/compare/guest-run" --out /tmp --level default --targets brd --only qd32/randread-4k-qd32 \
	--knobs --print-plan 2> /dev/null) || fail "guest-run --level default --knobs --print-plan failed"
expect_eq "the default level's knob step" "--runtime 2 --repeats 2 --procs-per-cpu 20 --workloads dd,qd32" \
	"$(plan_field "$dflt" knob-step)"
expect_eq "the default level's knob runs" 100 "$(plan_field "$dflt" knob-runs)"
plan=$("$run" --quick --clock icount --wide --plan 2> /dev/null) || fail "--quick --clock icount --wide --plan failed"
expect_eq "name with --wide" quick "$(plan_field "$plan" name)"
expect_eq "cells with --wide: the whole quick level's" "$(grep '^cell ' <<< "$whole")" "$(grep '^cell ' <<< "$plan")"
plan=$("$run" --quick --clock icount --targets brd --plan 2> /dev/null) || fail "--quick --clock icount --targets brd --plan failed"
expect_eq "cells with --targets brd" "cell brd default qd32 randread-4k-qd32 2x64
cell brd default qd32 randwrite-4k-qd32 2x64" "$(grep '^cell brd default qd32' <<< "$plan")"
expect_eq "targets with --targets brd" brd "$(grep '^cell ' <<< "$plan" | cut -d' ' -f2 | sort -u)"

# make compare QUICK=1 is compare/run --quick: the exact level where the clock defaults to
# icount; --plan boots no KVM probe, so it plans TCG's exact level (--clock host plans KVM's)
want=quick-exact
plan=$(make -s -C "$TOP" compare QUICK=1 ARGS=--plan 2> /dev/null) || fail "make compare QUICK=1 ARGS=--plan failed"
expect_eq "make compare QUICK=1: name" $want "$(plan_field "$plan" name)"

# Refused, naming what is wrong, and nothing run.
run_rc 2 "$run" --full --wide --plan
expect_in "--wide with --full" "--wide widens the exact quick or default level (--quick, or no level): not --full"
run_rc 2 "$run" --ledger --plan
expect_in "--plan with --ledger" "--plan prints the matrix a run would make: it does not go with --kernels, --ledger or --report"
# --also-cells: its cells after the target's own, its targets after the selection's; a bad one refused
plan=$("$TOP/compare/guest-run" --out /tmp --level quick --targets brd --profiles seed-001 --only qd32/randread-4k-qd32 \
	--also-cells ramlld-bio,brd:default:lat-qd1 --print-plan 2> /dev/null) || fail "guest-run --also-cells --print-plan failed"
expect_eq "cells with --also-cells" "cell brd seed-001 qd32 randread-4k-qd32 2x64
cell brd default lat-qd1 randread-4k-qd1 2x64
cell ramlld-bio default lat-qd1 randread-4k-qd1 2x64" "$(grep '^cell ' <<< "$plan")"
run_rc 2 "$TOP/compare/guest-run" --out /tmp --level quick --targets brd --also-cells brd:default --print-plan
expect_in "--also-cells with two parts" "--also-cells: bad value 'brd:default' (allowed: TARGETS:PROFILES:ONLY, each a comma list as --targets, --profiles and --only take)"
run_rc 2 "$TOP/compare/guest-run" --out /tmp --level quick --targets brd --also-cells brd:default:qd32/randread-4k-qd1 --print-plan
expect_in "--also-cells with a bad section" "--also-cells: bad section 'randread-4k-qd1' of qd32"
run_rc 2 "$TOP/compare/guest-run" --out /tmp --level quick --targets brd --also-cells nosuch:default:qd32 --print-plan
expect_in "--also-cells with a bad target" "--also-cells: bad value 'nosuch' (allowed: "
run_rc 2 "$TOP/compare/guest-run" --out /tmp --level quick --targets brd --breakdown-targets nullb-mq --print-plan
expect_in "--breakdown-targets outside the selection" "--breakdown-targets: bad value 'nullb-mq' (allowed: the selected targets: brd)"
run_rc 2 "$run" --clock host --icount-shift 2 --plan
expect_in "--icount-shift on the host clock" "--icount-shift goes with the exact clock (--clock icount), not with 'host'"
run_rc 2 "$run" --clock icount --icount-shift 11 --plan
expect_in "--icount-shift 11" "--icount-shift: bad value '11' (allowed: 0-10)"
plan=$("$run" --quick --clock icount --icount-shift 2 --plan 2> /dev/null) || fail "--icount-shift 2 --plan failed"
expect_eq "clock with --icount-shift 2" "icount shift 2 (asked: --clock icount)" "$(plan_field "$plan" clock)"

# The exact default level (compare/run --help, docs/benches.md "The exact default level"): every
# seed on the systems its post compared (each workload's "; targets:" header, its profiles and
# "; shape:"; seed 004 also on ramlld-sd-tar; seed 000's 75 % mix at the post's 10 and 32 LUNs;
# seed 002's grid on the SCSI path), every reference (the default level's targets but the stacks
# over ramlld) on 4k randread and randwrite QD32 and randread QD1 under default, ramlld's paths
# under seed-001 too, the ladder's three columns on its rungs, one 64 MiB device; 1 vCPU, 1 run
# of 500 ms (a sample again in the spot check), no ramp, the breakdown of ramlld's 3 paths, the knob table in the 2-vCPU knob guest.
plan=$("$run" --clock icount --plan 2> /dev/null) || fail "compare/run --clock icount --plan failed"
expect_eq "default level on the exact clock: name" default-exact "$(plan_field "$plan" name)"
expect_eq "default level on the exact clock: vCPUs" 1 "$(plan_field "$plan" cpus)"
expect_eq "default level on the exact clock: repeats" 1 "$(plan_field "$plan" repeats)"
expect_eq "default level on the exact clock: a run's length (the ladder's and LIO iblock's 1 s)" 500ms,ladder=1,lio-iblock=1 "$(plan_field "$plan" runtime)"
expect_eq "default level on the exact clock: ramp" 0 "$(plan_field "$plan" ramp)"
expect_eq "default level on the exact clock: the spot check's every Nth cell" 20 "$(plan_field "$plan" spot | cut -d' ' -f3)"
plan10=$("$run" --clock icount --spot-every 10 --plan 2> /dev/null) || fail "compare/run --spot-every 10 --plan failed"
expect_eq "--spot-every given wins over the level's" 10 "$(plan_field "$plan10" spot | cut -d' ' -f3)"
expect_eq "default level on the exact clock: the level's devices" "1 64" "$(plan_field "$plan" shape)"
expect_eq "default level on the exact clock: breakdown targets" "ramlld-bio ramlld-mq ramlld-sd" \
	"$(plan_field "$plan" breakdown)"
expect_eq "default level on the exact clock: knob table in the matrix's guest" 0 "$(plan_field "$plan" knobs)"
expect_eq "default level on the exact clock: knob guest's vCPUs" 2 "$(plan_field "$plan" "knob-guest cpus")"
expect_eq "default level on the exact clock: knob guest's runs" 56 "$(plan_field "$plan" "knob-guest knob-runs")"
# the default level's targets, from their files
dtargets=$("$TOP/compare/guest-run" --list-targets | awk -F'\t' '$3 != "host" && (" " $5 " ") ~ / default / { print $1 }')
expect_eq "the default level's targets" 18 "$(wc -l <<< "$dtargets")"
# a target the guest's kernel cannot run (its "# needs:", e.g. nvme-loop without its module in
# 6.1) is skipped in the plan, saying why, and has no cells
skipped=$(sed -n 's/^skip \([^ ]*\) .*/\1/p' <<< "$plan")
for t in $skipped; do
	grep -q "^skip $t needs " <<< "$plan" || fail "the skip of $t gives no reason"
	dtargets=$(grep -vx "$t" <<< "$dtargets")
done
echo "ok: skipped on this kernel: ${skipped:-none}"
stacks="lio-iblock iscsi srp nvme-tcp nvme-rdma nvme-loop"
rungs="ramlld-bio ramlld-mq ramlld-sd $stacks"
grid="seed-002-ra128k-ms512k seed-002-ra512k-ms512k seed-002-ra2m-ms512k seed-002-ra128k-ms64k seed-002-ra512k-ms64k seed-002-ra2m-ms64k"
sizes=bs-64m,bs-32m,bs-16m,bs-8m,bs-4m,bs-2m,bs-1m,bs-512k,bs-256k,bs-128k,bs-64k,bs-32k,bs-16k
want=''
for t in $dtargets; do
	case $t in lio | ramlld-sd)
		for c in 25w-1 25w-4 25w-10 25w-32 75w-10 75w-32; do want+="$t default seed-000 randrw-${c}lun 32x16"$'\n'; done ;;
	esac
	case $t in ramlld-bio | ramlld-mq | ramlld-sd | sdebug | sdebug-fakerw) want+="$t seed-001 seed-001 dd 1x64"$'\n' ;; esac
	[ "$t" != ramlld-sd ] || for p in $grid; do want+="$t $p seed-002 $sizes 1x64"$'\n'; done
	case $t in lio | ramlld-sd | srp)
		for s in psync-4k-read libaio-4k-qd16x2 psync-64m-read psync-64m-write; do want+="$t default seed-003 $s 1x64"$'\n'; done ;;
	esac
	case $t in ramlld-sd | sdebug)
		for s in seq-read rand-read seq-write rand-write; do want+="$t default seed-004 $s 1x64"$'\n'; done ;;
	esac
	want+="$t default qd32 randread-4k-qd32 1x64"$'\n'"$t default lat-qd1 randread-4k-qd1 1x64"$'\n'
	[[ " $stacks " == *" $t "* ]] || want+="$t default qd32 randwrite-4k-qd32 1x64"$'\n'
	case $t in ramlld-*) want+="$t seed-001 qd32 randread-4k-qd32 1x64"$'\n'"$t seed-001 qd32 randwrite-4k-qd32 1x64"$'\n' ;; esac
	[[ " $rungs " != *" $t "* ]] || want+="$t default ladder read-1m-qd4 1x64"$'\n'
done
for s in seq-read rand-read seq-write rand-write; do want+="ramlld-sd-tar default seed-004 $s 1x64"$'\n'; done
for t in ramlld-mq-poll ramlld-sd-poll; do want+="$t default percore io_uring-hipri 1x64"$'\n'; done
expect_eq "default level on the exact clock: its cells (sorted)" "$(sort <<< "${want%$'\n'}")" \
	"$(sed -n 's/^cell //p' <<< "$plan" | sort)"
# a fio run per job section of each cell (seed-002's cells sweep 13 block sizes): 184 runs
# with every target
want_runs=$(awk '{ n += split($4, a, ",") } END { print n }' <<< "$want")
expect_eq "default level on the exact clock: fio runs" "$want_runs" "$(plan_field "$plan" runs)"
[ -n "$skipped" ] || expect_eq "default level on the exact clock with every target: fio runs" 184 "$(plan_field "$plan" runs)"
# each seed's targets are the systems the seed sections compare (its sections' figures)
for pair in seed-000:lio seed-001:sdebug-fakerw seed-003:lio seed-003:srp seed-004:sdebug seed-004:ramlld-sd-tar; do
	grep -q "^cell ${pair#*:} [^ ]* ${pair%%:*} " <<< "$plan" ||
		fail "the exact default level runs ${pair%%:*} without its reference ${pair#*:}"
done
! "$run" --help | grep -E "[0-9]{2,} runs|[0-9]+ min|issue [0-9]|session [0-9]" ||
	fail "compare/run --help gives counts, times or history of its own (--plan and docs/ are their source)"
grep -q "## The exact default level" "$TOP/docs/benches.md" ||
	fail "docs/benches.md does not describe the exact default level"
# options still apply on top; --wide, a selection or the host clock keep the whole default level
plan=$("$run" --clock icount --cpus 2 --repeats 3 --plan 2> /dev/null) || fail "--clock icount --cpus 2 --repeats 3 --plan failed"
expect_eq "default level on the exact clock with --cpus 2" 2 "$(plan_field "$plan" cpus)"
expect_eq "default level on the exact clock with --repeats 3: fio runs" $((3 * want_runs)) "$(plan_field "$plan" runs)"
whole=$("$run" --clock host --plan 2> /dev/null) || fail "--clock host --plan failed"
expect_eq "the default level on the host clock: name" default "$(plan_field "$whole" name)"
expect_eq "the default level on the host clock: vCPUs" 2 "$(plan_field "$whole" cpus)"
expect_eq "the default level on the host clock: repeats" 3 "$(plan_field "$whole" repeats)"
expect_eq "the default level on the host clock: devices" "4 128" "$(plan_field "$whole" shape)"
expect_eq "the default level on the host clock: knob table" 1 "$(plan_field "$whole" knobs)"
plan=$("$run" --clock icount --wide --plan 2> /dev/null) || fail "--clock icount --wide --plan failed"
expect_eq "the default level with --wide: name" default "$(plan_field "$plan" name)"
expect_eq "the default level with --wide: cells, the host clock's" "$(grep '^cell ' <<< "$whole")" "$(grep '^cell ' <<< "$plan")"
plan=$("$run" --clock icount --only lat-qd1 --targets brd --plan 2> /dev/null) || fail "--clock icount --only lat-qd1 --targets brd --plan failed"
expect_eq "the default level on the exact clock with a selection: name" default "$(plan_field "$plan" name)"
expect_eq "the default level on the exact clock with a selection: cells" "cell brd default lat-qd1 randread-4k-qd1 4x128
cell brd seed-001 lat-qd1 randread-4k-qd1 4x128" "$(grep '^cell ' <<< "$plan")"
# --level-shape: the level's devices, the seeds keep theirs; refused with --nluns or a bad value
plan=$("$TOP/compare/guest-run" --out /tmp --level default --targets ramlld-sd --only seed-001/dd,lat-qd1/randread-4k-qd1 \
	--profiles seed-001 --level-shape 2x32 --print-plan 2> /dev/null) || fail "guest-run --level-shape 2x32 --print-plan failed"
expect_eq "cells with --level-shape 2x32" "cell ramlld-sd seed-001 seed-001 dd 1x64
cell ramlld-sd seed-001 lat-qd1 randread-4k-qd1 2x32" "$(grep '^cell ' <<< "$plan")"
run_rc 2 "$TOP/compare/guest-run" --out /tmp --level default --targets brd --level-shape 2x --print-plan
expect_in "--level-shape 2x" "--level-shape: bad value '2x' (allowed: NLUNSxMIB, e.g. 1x64)"
run_rc 2 "$TOP/compare/guest-run" --out /tmp --level default --targets brd --level-shape 1x64 --nluns 2 --print-plan
expect_in "--level-shape with --nluns" "--level-shape and --nluns/--capacity-mb exclude each other"
# --also-cells given twice: two groups, each its own profiles and sections
plan=$("$TOP/compare/guest-run" --out /tmp --level quick --targets brd --profiles seed-001 --only qd32/randread-4k-qd32 \
	--also-cells brd:default:lat-qd1 --also-cells nullb-mq:seed-001:qd32/randwrite-4k-qd32 --print-plan 2> /dev/null) ||
	fail "guest-run --also-cells twice --print-plan failed"
expect_eq "cells with --also-cells twice" "cell brd seed-001 qd32 randread-4k-qd32 2x64
cell brd default lat-qd1 randread-4k-qd1 2x64
cell nullb-mq seed-001 qd32 randwrite-4k-qd32 2x64" "$(grep '^cell ' <<< "$plan")"

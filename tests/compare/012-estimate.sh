#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/estimate.py's wall-time estimate of a plan from the measured per-cell costs (set-ups once per load and shape, runs x repeats, breakdowns, the knob guest, the host's side), each guest's timeout 4 x its estimate (more on a host already loaded at the start), --plan printing both, a plan over 48 h (--full on the exact clock) refused before anything starts, --full on the host clock given a timeout past its estimate; the exact default level's knob guest and shard count from its plan
# where: host
# requires: python3
# timeout: 300
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$TOP/compare/guest-run" --list-targets > "$dir/targets.tsv" || fail "guest-run --list-targets failed"

# A hand-made plan: brd's two cells (one load, one shape: one set-up), iSCSI's one, 2 repeats of
# 1 s, no ramp, brd's breakdown; a knob guest of 56 runs of 1 s at 4 dd a CPU.
cat > "$dir/plan" << 'EOF'
name x
clock icount (asked: --clock icount)
cpus 1
knob-guest cpus 2
knob-guest knobs 1
knob-guest knob-step --runtime 1 --repeats 1 --procs-per-cpu 4 --workloads dd,qd32
knob-guest knob-runs 56
cell brd default qd32 randread-4k-qd32 1x64
cell brd default qd32 randwrite-4k-qd32 1x64
cell iscsi default qd32 randread-4k-qd32 1x64
level quick
runs 6
repeats 2
runtime 1
ramp 0
shape 1 64
breakdown brd
knobs 0
EOF
est=$(python3 "$TOP/compare/estimate.py" --clock icount --targets-tsv "$dir/targets.tsv" < "$dir/plan") ||
	fail "estimate.py failed"
echo "$est"
field() { sed -n "s/^$1 \\([0-9]*\\).*/\\1/p" <<< "$est"; }
# matrix: boot 30 + brd's set-up 7 + 4 runs x (0.3 + 6.4 x 1) + its breakdown 70 + iSCSI's set-up
# 36 + 2 runs x (3 + 20 x 1) = 215.8; knob guest: boot 30 + 28 dd runs x (5.2 + 7.5 x 1) + 28 QD32
# runs x (4 + 7.5 x 1) = 707.6 (measured: 705 s of host CPU); host side 90
expect_eq "the matrix's estimate" 216 "$(field estimate-matrix)"
expect_eq "the knob guest's estimate" 708 "$(field estimate-knobs)"
expect_eq "the whole estimate" 1013 "$(field estimate)"
expect_eq "the matrix's timeout (at least 1800 s)" 1800 "$(field timeout-matrix)"
expect_eq "the knob guest's timeout (4 x 707.6 s in whole minutes)" 2880 "$(field timeout-knobs)"
# a workload's own length in the knob step (500ms,dd=1): QD32's 28 runs x (4 + 7.5 x 0.5): 30 +
# 355.6 + 217 = 602.6 (measured: 601 s); all at 500 ms 497.6 (measured: 496 s)
for r in 500ms,dd=1:603 500ms:498; do
	sed "s/^knob-guest knob-step --runtime 1 /knob-guest knob-step --runtime ${r%:*} /" "$dir/plan" > "$dir/plan-knob"
	est=$(python3 "$TOP/compare/estimate.py" --clock icount --targets-tsv "$dir/targets.tsv" < "$dir/plan-knob") ||
		fail "estimate.py with the knob step's --runtime ${r%:*} failed"
	expect_eq "the knob guest's estimate with the knob step's --runtime ${r%:*}" "${r#*:}" "$(field estimate-knobs)"
done
est=$(python3 "$TOP/compare/estimate.py" --clock icount --targets-tsv "$dir/targets.tsv" < "$dir/plan")
expect_eq "no stretch without a load given" "1.00" "$(sed -n 's/^host-stretch \([0-9.]*\).*/\1/p' <<< "$est")"
# a host busy at the start (load 7 on 2 CPUs: the guest gets 2/8 of a CPU) stretches the
# timeouts 4 x: 215.8 x 4 x 4 = 3,453 -> 3,480; 707.6 x 16 = 11,322 -> 11,340; a free CPU, none
est=$(python3 "$TOP/compare/estimate.py" --clock icount --host-load 7 --host-cpus 2 --targets-tsv "$dir/targets.tsv" < "$dir/plan") ||
	fail "estimate.py --host-load 7 failed"
expect_eq "the stretch at load 7 on 2 CPUs" "4.00" "$(sed -n 's/^host-stretch \([0-9.]*\).*/\1/p' <<< "$est")"
expect_eq "the matrix's timeout at load 7" 3480 "$(field timeout-matrix)"
expect_eq "the knob guest's timeout at load 7" 11340 "$(field timeout-knobs)"
expect_eq "the estimate itself does not move" 1013 "$(field estimate)"
# a workload's own length (--runtime 500ms,qd32=2): brd's 4 runs x (0.3 + 6.4 x 2) and iSCSI's 2 x
# (3 + 20 x 2) put 215.8 - 26.8 - 46 + 52.4 + 86 = 281.4; 500 ms for all but another workload:
# 215.8 - 12.8 - 20 = 183
sed 's/^runtime 1$/runtime 500ms,qd32=2/' "$dir/plan" > "$dir/plan-own"
est=$(python3 "$TOP/compare/estimate.py" --clock icount --targets-tsv "$dir/targets.tsv" < "$dir/plan-own") ||
	fail "estimate.py with a workload's own length failed"
expect_eq "the matrix's estimate with qd32's own 2 s" 281 "$(field estimate-matrix)"
sed 's/^runtime 1$/runtime 500ms,ladder=1/' "$dir/plan" > "$dir/plan-own"
est=$(python3 "$TOP/compare/estimate.py" --clock icount --targets-tsv "$dir/targets.tsv" < "$dir/plan-own")
expect_eq "the matrix's estimate at 500 ms (the ladder's own length unused)" 183 "$(field estimate-matrix)"
# a target's own length wins over its workload's (500ms,qd32=2,iscsi=1): brd's 4 runs of 2 s
# (52.4) and iSCSI's 2 of 1 s (46): 215.8 - 26.8 + 52.4 = 241.4
sed 's/^runtime 1$/runtime 500ms,qd32=2,iscsi=1/' "$dir/plan" > "$dir/plan-own"
est=$(python3 "$TOP/compare/estimate.py" --clock icount --targets-tsv "$dir/targets.tsv" < "$dir/plan-own")
expect_eq "the matrix's estimate with iSCSI's own 1 s over qd32's 2 s" 241 "$(field estimate-matrix)"
est=$(python3 "$TOP/compare/estimate.py" --clock icount --host-load 0.9 --host-cpus 2 --targets-tsv "$dir/targets.tsv" < "$dir/plan")
expect_eq "the knob guest's timeout with a CPU free" 2880 "$(field timeout-knobs)"
run_rc 2 python3 "$TOP/compare/estimate.py" --clock icount --host-load -1 --targets-tsv "$dir/targets.tsv" < "$dir/plan"
expect_in "a negative load refused" "--host-load"
# the same plan on the host's clock: runs of their own length plus fio's start-up
est=$(python3 "$TOP/compare/estimate.py" --clock host --targets-tsv "$dir/targets.tsv" < "$dir/plan") ||
	fail "estimate.py --clock host failed"
# boot 20 + brd 5 + 4 x (3 + 1) + bd 25 + iSCSI 25 + 2 x (5 + 1) = 103; knobs 20 + 56 x 4 = 244
expect_eq "the matrix's estimate on the host clock" 103 "$(field estimate-matrix)"
expect_eq "the knob guest's estimate on the host clock" 244 "$(field estimate-knobs)"
# more repeats cost more, a second shape costs a set-up
sed 's/^repeats 2/repeats 4/' "$dir/plan" > "$dir/plan4"
est=$(python3 "$TOP/compare/estimate.py" --clock icount --targets-tsv "$dir/targets.tsv" < "$dir/plan4")
# 215.8 + 4 x 6.7 + 2 x 23 = 288.6
expect_eq "the matrix's estimate with 4 repeats" 289 "$(field estimate-matrix)"
sed 's/^cell brd default qd32 randwrite-4k-qd32 1x64/cell brd default qd32 randwrite-4k-qd32 4x128/' "$dir/plan" > "$dir/plan-shape"
est=$(python3 "$TOP/compare/estimate.py" --clock icount --targets-tsv "$dir/targets.tsv" < "$dir/plan-shape")
# 4 LUNs: 7 + 3 x 1.9 = 12.7 more: 228.5, printed 228
expect_eq "the matrix's estimate with a second shape" 228 "$(field estimate-matrix)"
run_rc 2 python3 "$TOP/compare/estimate.py" --clock icount --targets-tsv /nonexistent < "$dir/plan"
expect_in "estimate.py without its targets table" "--targets-tsv"

# compare/run --plan prints the estimate and the timeouts of the plan it prints
plan=$(RAMLLD_HOST_LOAD=0 "$TOP/compare/run" --quick --clock icount --plan 2> /dev/null) || fail "compare/run --quick --clock icount --plan failed"
for k in estimate estimate-matrix estimate-knobs timeout-matrix timeout-knobs; do
	grep -qE "^$k [0-9]+" <<< "$plan" || fail "--plan lacks '$k N': $(grep -v '^cell' <<< "$plan")"
done
est=$plan
m=$(field estimate-matrix) t=$(field timeout-matrix)
[ "$t" -ge $((4 * m)) ] && [ "$t" -lt $((4 * m + 60)) ] || [ "$t" = 1800 ] ||
	fail "the matrix guest's timeout $t s is not 4 x its estimate $m s"
echo "ok: --quick --plan: $(sed -n 's/^estimate //p' <<< "$plan"), matrix guest timeout $t s"
# at a given load compare/run stretches the timeouts it plans
plan=$(RAMLLD_HOST_LOAD=$((2 * $(nproc) - 1)) "$TOP/compare/run" --quick --clock icount --plan 2> /dev/null) ||
	fail "compare/run --plan at a load of 2 x the CPUs failed"
out=$plan
expect_in "the stretch compare/run applies" "host-stretch 2.00"
est=$plan
t2=$(field timeout-matrix)
[ "$t2" -ge $((8 * m)) ] && [ "$t2" -lt $((8 * m + 60)) ] || [ "$t2" = 1800 ] ||
	fail "at load 2 x the CPUs the matrix guest's timeout $t2 s is not 8 x its estimate $m s"
echo "ok: at load $((2 * $(nproc) - 1)): matrix guest timeout $t2 s"
run_rc 2 env RAMLLD_HOST_LOAD=high "$TOP/compare/run" --quick --plan
expect_in "a bad RAMLLD_HOST_LOAD refused" "RAMLLD_HOST_LOAD"
# --full on the exact clock is refused (over 48 h), naming the estimate; on the host clock it
# gets a timeout past its estimate (an 8 h one cut it short)
rc=0
msg=$("$TOP/compare/run" --full --clock icount --plan 2>&1 > /dev/null) || rc=$?
expect_eq "--full --clock icount --plan's status" 2 "$rc"
grep -q "the plan is estimated at [0-9]* s (~[0-9.]* h with a host CPU to itself): over the 48 h" <<< "$msg" ||
	fail "--full on the exact clock: $msg"
echo "ok: refused: $msg"
plan=$("$TOP/compare/run" --full --clock host --plan 2> /dev/null) || fail "--full --clock host --plan failed"
est=$plan
# 3,600 runs with every target (fewer where the kernel lacks one: its "# needs:")
[ "$(sed -n 's/^runs //p' <<< "$plan")" -gt 3000 ] || fail "--full plans $(sed -n 's/^runs //p' <<< "$plan") runs"
if [ "$(field timeout-matrix)" -le "$(field estimate-matrix)" ] || [ "$(field timeout-matrix)" -le 28800 ]; then
	fail "--full on the host clock: timeout $(field timeout-matrix) s for an estimate of $(field estimate-matrix) s"
fi
echo "ok: --full --clock host: $(sed -n 's/^estimate //p' <<< "$plan"), timeout $(field timeout-matrix) s"

# --jobs J on 2 CPUs, no load: the matrix cut into shards of whole targets (here one a target:
# no count of J to 2 x J does better), the spot check (every 10th cell: brd's first) and the knob
# guest, J at a time, longest first: brd 30 + 7 + 4 x 6.7 + 70 = 133.8, iSCSI 30 + 36 + 2 x 23 =
# 112, the spot check 30 + 7 + 6.7 = 43.7; -j 2: 707.6 | 133.8 + 112 + 43.7 -> 707.6, + 90 = 797.6;
# -j 1: one shard of both targets (a boot less: 215.8), + 43.7 + 707.6 + 90 = 1,057.1
est=$(python3 "$TOP/compare/estimate.py" --clock icount --jobs 2 --host-cpus 2 --targets-tsv "$dir/targets.tsv" < "$dir/plan") ||
	fail "estimate.py --jobs 2 failed"
expect_eq "the shards (seconds, timeout, targets)" "shard 1 134 1800 brd
shard 2 112 1800 iscsi" "$(grep '^shard ' <<< "$est")"
expect_eq "the spot check" "spot 44 1800 10" "$(grep '^spot ' <<< "$est")"
expect_eq "its cells" "spot-cell brd default qd32 randread-4k-qd32 1x64" "$(grep '^spot-cell ' <<< "$est")"
expect_eq "the wall time with -j 2" 798 "$(field wall)"
grep -q '^wall 798 s (13 min of wall time: 4 guests, 2 at a time on 2 CPUs' <<< "$est" ||
	fail "the wall line: $(grep '^wall' <<< "$est")"
est=$(python3 "$TOP/compare/estimate.py" --clock icount --jobs 1 --host-cpus 2 --targets-tsv "$dir/targets.tsv" < "$dir/plan")
expect_eq "-j 1: one shard" "shard 1 216 1800 brd,iscsi" "$(grep '^shard ' <<< "$est")"
expect_eq "the wall time with -j 1" 1057 "$(field wall)"
est=$(python3 "$TOP/compare/estimate.py" --clock icount --jobs 1 --shards 2 --host-cpus 2 --targets-tsv "$dir/targets.tsv" < "$dir/plan")
expect_eq "-j 1 --shards 2: the count given" 2 "$(grep -c '^shard ' <<< "$est")"
# the exact default level (compare/run's plan, -j 2): its knob guest (dd at 1 s, QD32 at 500 ms)
# 602.6 s, its shards the count of 2 to 4 with the least wall time, none of the others less (on
# this host's CPUs, as compare/run plans it)
dplan=$(RAMLLD_HOST_LOAD=0 "$TOP/compare/run" --clock icount -j 2 --plan 2> /dev/null) ||
	fail "compare/run --clock icount -j 2 --plan failed"
est=$dplan
expect_eq "the exact default level's knob guest" 603 "$(field estimate-knobs)"
expect_eq "the exact default level's shards" 3 "$(grep -c '^shard ' <<< "$dplan")"
w=$(field wall)
for n in 2 3 4; do
	est=$(grep -v '^\(shard\|spot\|wall\|estimate\|host-stretch\|timeout\)' <<< "$dplan" |
		python3 "$TOP/compare/estimate.py" --clock icount --jobs 2 --shards "$n" --spot-every 20 --host-cpus "$(nproc)" \
			--targets-tsv "$dir/targets.tsv") || fail "estimate.py --shards $n failed"
	[ "$n" = 3 ] && expect_eq "--shards 3: the default's wall time" "$w" "$(field wall)"
	[ "$(field wall)" -ge "$w" ] || fail "--shards $n: wall $(field wall) s, less than the default's $w s"
	echo "ok: the exact default level with --shards $n: wall $(field wall) s"
done
est=$(python3 "$TOP/compare/estimate.py" --clock icount --jobs 2 --spot-every 0 --targets-tsv "$dir/targets.tsv" < "$dir/plan")
expect_eq "no spot check with --spot-every 0" "" "$(grep '^spot' <<< "$est")"

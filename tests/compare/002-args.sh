#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/run and compare/guest-run refuse bad arguments and contradictory options (exit 2, one line naming the problem, nothing built, booted or left behind), with a message naming the bad value and the allowed ones; their --help give no counts or history of their own
# where: host
# requires: python3
# timeout: 300
. "$TOP/tests/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
results_list() { find "$TOP/results" -mindepth 1 -maxdepth 1 ! -name check -printf '%f\n' 2> /dev/null | sort; }
results_before=$(results_list)
check_refused() { # WANT CMD...: CMD must exit 2, print one line holding WANT, and nothing else
	local want=$1 msg rc=0
	shift
	msg=$("$@" 2>&1) || rc=$?
	[ "$rc" = 2 ] || fail "$* exited $rc, expected 2: $msg"
	grep -qF -- "$want" <<< "$msg" || fail "$*: message lacks '$want': $msg"
	[ "$(wc -l <<< "$msg")" = 1 ] || fail "$*: more than one line: $msg"
	echo "ok: $* -> $msg"
}
check_refused "'nosuch'" "$TOP/compare/run" --targets nosuch
check_refused "allowed: bio mq scsi" "$TOP/compare/run" --bench nvme
check_refused "'seed-999'" "$TOP/compare/run" --only seed-999
check_refused "'bs-3k'" "$TOP/compare/run" --only seed-002/bs-3k
check_refused "'slow'" "$TOP/compare/run" --profiles slow
check_refused "'0'" "$TOP/compare/guest-run" --out /tmp --repeats 0
# --runtime LENGTH,WORKLOAD=LENGTH: a workload's own length; an unknown workload or length refused
check_refused "--runtime: bad value '500ms,nosuch=1' (allowed: seconds >= 1, or milliseconds as NNNms, e.g. 250ms, then NAME=LENGTH,... for a workload's or a target's cells of another length, e.g. 500ms,ladder=1): 'nosuch=1' is not NAME=LENGTH of a workload in compare/workloads or a target" \
	"$TOP/compare/guest-run" --out /tmp --runtime 500ms,nosuch=1 --print-plan
check_refused "'ladder=0'" "$TOP/compare/guest-run" --out /tmp --runtime 500ms,ladder=0 --print-plan
check_refused "--runtime: bad value 'ladder=1,500ms'" "$TOP/compare/guest-run" --out /tmp --runtime ladder=1,500ms --print-plan
rt_plan=$("$TOP/compare/guest-run" --out /tmp --level quick --targets brd --only qd32/randread-4k-qd32,ladder \
	--runtime 500ms,ladder=2 --print-plan) || fail "guest-run --runtime 500ms,ladder=2 --print-plan failed"
expect_eq "a workload's own length in the plan" "500ms,ladder=2" "$(sed -n 's/^runtime //p' <<< "$rt_plan")"
rt_plan=$("$TOP/compare/guest-run" --out /tmp --level quick --targets brd --only qd32/randread-4k-qd32 \
	--runtime 500ms,brd=1 --print-plan) || fail "guest-run --runtime 500ms,brd=1 --print-plan failed"
expect_eq "a target's own length in the plan" "500ms,brd=1" "$(sed -n 's/^runtime //p' <<< "$rt_plan")"
check_refused "unknown argument '--frobnicate'" "$TOP/compare/run" --frobnicate
check_refused "--perf-cell: bad value 'qd32/randread-4k-qd32' (allowed: WORKLOAD/SECTION of a one-run workload: seed-002)" \
	"$TOP/compare/run" --perf-cell qd32/randread-4k-qd32
check_refused "--perf-cell: bad section 'bs-3k' of seed-002" "$TOP/compare/run" --perf-cell seed-002/bs-3k
check_refused "--perf-passes: bad value '0'" "$TOP/compare/guest-run" --out /tmp --perf-passes 0
check_refused "unknown kernel 'nosuch'" "$TOP/compare/run" --kernels "bookworm nosuch"
check_refused "does not go with --host" "$TOP/compare/run" --kernels sid --host /dev/null
check_refused "--clock: bad value 'tsc' (allowed: icount host)" "$TOP/compare/run" --clock tsc
check_refused "--clock icount needs a guest" "$TOP/compare/run" --clock icount --host /dev/null
check_refused "not a folder of compare/run --kernels" python3 "$TOP/compare/kernels.py" /nonexistent
# contradictions, refused before anything is probed, built or written
check_refused "--quick and --full exclude each other" "$TOP/compare/run" --quick --full --out "$dir/o"
check_refused "--full and --quick exclude each other" "$TOP/compare/run" --full --quick --plan
check_refused "--quick and --default exclude each other" "$TOP/compare/run" --quick --default --plan
# make's own line besides compare/run's one
msg=$(make -s -C "$TOP" compare QUICK=1 FULL=1 ARGS="--out $dir/o" 2>&1) && fail "make compare QUICK=1 FULL=1 ran"
expect_eq "make compare QUICK=1 FULL=1's refusal" "compare/run: --quick and --full exclude each other (one level: --quick, --default or --full)" \
	"$(grep -v '^make' <<< "$msg")"
check_refused "--perf and --no-perf exclude each other" "$TOP/compare/run" --perf --no-perf --plan
check_refused "--knobs and --no-knobs exclude each other" "$TOP/compare/run" --knobs --no-knobs --plan
check_refused "--no-breakdown and --breakdown-targets exclude each other" "$TOP/compare/run" --no-breakdown --breakdown-targets brd --plan
check_refused "--perf-passes N goes with --perf-cell" "$TOP/compare/run" --perf-passes 3 --plan
check_refused "--destroy-data goes with --host" "$TOP/compare/run" --destroy-data --out "$dir/o"
check_refused "--ledger-rows REGEX goes with --ledger" "$TOP/compare/run" --ledger-rows x --plan
check_refused "--report DIR only writes the report of an earlier run" "$TOP/compare/run" --report "$dir" --quick
check_refused "--host and --kernel exclude each other" "$TOP/compare/run" --host "$dir/x" --kernel trixie
check_refused "--host and --cpus exclude each other" "$TOP/compare/run" --host "$dir/x" --cpus 2
check_refused "--wide widens the exact level: a selection" "$TOP/compare/run" --quick --wide --targets brd --plan
check_refused "--wide and --bench exclude each other" "$TOP/compare/run" --wide --bench bio --plan
check_refused "--ledger and --quick exclude each other" "$TOP/compare/run" --ledger --quick --out "$dir/o"
# a refused --host prints no plan and leaves no results folder
check_refused "--host: '/nonexistent' is not a block device" "$TOP/compare/run" --host /nonexistent
check_refused "--host: '/nonexistent' is not a block device" "$TOP/compare/run" --host /nonexistent --out "$dir/o"
check_refused "--report: no folder '/nonexistent'" "$TOP/compare/run" --report /nonexistent
[ ! -e "$dir/o" ] || fail "a refused run left $dir/o behind"
results_after=$(results_list)
expect_eq "results/ after the refused runs" "$results_before" "$results_after"

# --help: what an option does; counts come from --plan, history and measured times from docs/
for h in "$TOP/compare/run" "$TOP/compare/guest-run"; do
	bad=$("$h" --help | grep -nE "[0-9]{2,} runs|[0-9]+ min\b|issue [0-9]|issues [0-9]|session [0-9]|never ran|has not run" || true)
	[ -z "$bad" ] || fail "${h#"$TOP"/} --help gives counts or history of its own: $bad"
done
"$TOP/compare/run" --help | grep -q -- "--plan prints a level's cells, run count, estimated time" ||
	fail "compare/run --help does not send the reader to --plan for the counts"
echo "ok: --help texts give no counts or history"
"$TOP/compare/run" --help | grep -q -- "--quick" || fail "compare/run --help lacks --quick"
"$TOP/compare/guest-run" --list | grep -q "^workload seed-004" || fail "guest-run --list lacks seed-004"
python3 "$TOP/compare/report.py" --help > /dev/null || fail "report.py --help"
python3 "$TOP/compare/kernels.py" --help > /dev/null || fail "kernels.py --help"
echo "ok: arguments checked"

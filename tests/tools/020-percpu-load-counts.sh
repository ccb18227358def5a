#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: percpu-load's totals equal the sum of per-process counts, every process ran on its CPU, and /sys/block/DEV/stat deltas match (or the mismatch is explained: iostats=0, bio without accounting)
# where: guest
# requires: python3 dd
# timeout: 1800
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/tools/tools-lib.bash
. "$TOP/tests/tools/tools-lib.bash"

stand_in_disks
ramlld_disks
res=/tmp/pl.json
ncpu=$(nproc)
per=3
count=200

# check_run DEV EXPECT_MATCH(1|0) [percpu-load options]: run, then check the JSON report
check_run() {
	local dev=$1 match=$2
	shift 2
	run_rc 0 "$PL" "$dev" --json --procs-per-cpu $per "$@"
	printf '%s\n' "$out" > $res
	python3 - $res "$match" "$ncpu" "$per" "$@" <<'PY' || fail "$dev $*: report check failed"
import json, sys
r = json.load(open(sys.argv[1]))
want_match, ncpu, per = sys.argv[2] == "1", int(sys.argv[3]), int(sys.argv[4])
procs, tot, ds = r["processes"], r["total"], r["diskstats"]
name = r["context"]["name"]
assert len(procs) == ncpu * per, f"{len(procs)} processes, expected {ncpu * per}"
assert tot["ios"] == sum(p["ios"] for p in procs) == tot["sum_of_processes"], "total != sum"
assert tot["bytes"] == sum(p["bytes"] for p in procs), "bytes != sum"
assert sum(c["ios"] for c in r["per_cpu"]) == tot["ios"], "per-CPU sum != total"
for p in procs:
    assert p["affinity"] == [p["cpu"]], f"process {p} not pinned to its CPU"
    if r["context"]["count"]:
        assert p["ios"] == r["context"]["count"], f"process {p}: ios != --count"
if "--startup-run" in sys.argv[5:]:
    # the start-up run (count=0) was timed and its time taken off the elapsed time
    su, less = r["startup_s"], r["less_startup_s"]
    assert su and su > 0, f"--startup-run: startup_s {su}"
    runs = r["startup_runs_s"]
    assert len(runs) == 3 and su == min(runs), f"--startup-run: startup_s {su}, timed runs {runs}"
    assert less is None or abs(r["elapsed_s"] - su - less) < 1e-9, f"less_startup_s {less}"
    assert less is not None or r["elapsed_s"] <= su, "less_startup_s missing"
assert ds["available"], "no stat file"
assert ds["match"] == want_match, f"diskstats match={ds['match']}, expected {want_match}: {ds}"
print(f"ok: {name} {r['context']['rw']} engine {r['context']['engine']}: total {tot['ios']} ios = "
      f"sum of {len(procs)} processes; stat delta {ds['ios_plus_merges']} ios "
      f"({ds['ios_completed']} + {ds['merges']} merged), {ds['bytes']} bytes: {ds['verdict']}")
PY
}

# blk-mq and sd disks count their I/O: the stat deltas must match exactly
for dev in $NULLB $SD; do
	check_run "$dev" 1 --count $count
	check_run "$dev" 1 --count $count --offset-spread --bs 8k
done
# ramlld's disks when built: the bio disk starts with iostats=0 as the kernel starts bio
# queues (an explained mismatch), and counts exactly once accounting is turned on
for dev in $RAMLLD_DISKS; do
	if [ "$(cat /sys/block/"$dev"/queue/iostats)" = 0 ]; then
		check_run "$dev" 0 --count $count
		run_rc 0 "$QT" "$dev" --iostats 1
	fi
	check_run "$dev" 1 --count $count
done
# iostats=0: the kernel stops counting; percpu-load says so
run_rc 0 "$QT" "$NULLB" --iostats 0
check_run "$NULLB" 0 --count $count
grep -q '"verdict": "MISMATCH: iostats is 0' $res || fail "mismatch not explained by iostats=0"
echo "ok: $NULLB iostats=0: the mismatch is reported and explained"
run_rc 0 "$QT" "$NULLB" --iostats 1
# brd does no I/O accounting in 6.1 (bio-based, iostats 0): explained mismatch
if [ "$(cat /sys/block/$RAM/queue/iostats)" = 0 ]; then
	check_run "$RAM" 0 --count $count
fi
# --startup-run: the start-up (count=0) run first; the diskstats check still sees only the
# measured run's I/O (the start-up run reads nothing)
check_run "$NULLB" 1 --count $count --startup-run
# --runtime: dd is stopped with SIGINT and its counts still add up
check_run "$NULLB" 1 --runtime 2
# fio engine, one job per process, cpus_allowed per job
if command -v fio > /dev/null; then
	check_run "$NULLB" 1 --engine fio --count $count
	check_run "$SD" 1 --engine fio --rw randread --count $count
else
	echo "note: no fio: --engine fio not tested"
fi
# the text report
run_rc 0 "$PL" "$NULLB" --procs-per-cpu 2 --count 100
echo "$out"
expect_in "text report" "total ios $((ncpu * 2 * 100)) = sum of $((ncpu * 2)) per-process counts"
expect_in "text report context" "queue $NULLB: scheduler="
unload_all

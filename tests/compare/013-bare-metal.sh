#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/bare-metal in a guest playing the bare-metal host: without --yes it loads nothing and exits 2 naming what it would load; with ramlld loaded it refuses (exit 2, nothing loaded, no folder); with --yes a tiny plan (ramlld-bio and brd, 1 s, 1 round, a 6-run knob step) loads the modules itself and unloads them after, puts back the sysctls it changes and a loop device's queue setting changed under it, and writes facts.txt and a report with its "no PMU here" line
# where: guest
# requires: fio python3 perf losetup
# timeout: 1200
. "$TOP/tests/lib.sh"

bm=$TOP/compare/bare-metal
dir=$RESULTS/bare-metal
rm -rf "$dir" "$RESULTS/refused"
devmods='ramlld brd null_blk scsi_debug'
loaded_devmods() { for m in $devmods; do [ ! -d "/sys/module/$m" ] || echo "$m"; done; }
[ -z "$(loaded_devmods)" ] || fail "a device module is loaded before the test: $(loaded_devmods)"
plan=(--quick --ko "$RAMLLD_KO" --targets "ramlld-bio,brd" --only qd32/randread-4k-qd32 --profiles default
	--repeats 1 --runtime 1 --nluns 1 --capacity-mb 16 --no-breakdown --knobs
	--knob-args "--runtime 1 --repeats 1 --procs-per-cpu 1 --workloads qd32 --configs default")

# 1. without --yes: what it would load, nothing loaded, exit 2
run_rc 2 "$bm" "${plan[@]}" --out "$dir"
expect_in "without --yes" "nothing loaded: run again with --yes (or RAMLLD_YES=1) to do it"
expect_in "what it would load" "brd: modules brd; creates /dev/ram*"
expect_in "what it would load" "ramlld: modules ramlld; creates"
[ -z "$(loaded_devmods)" ] || fail "without --yes it loaded $(loaded_devmods)"
[ ! -e "$dir" ] || fail "without --yes it made $dir"

# 2. ramlld already loaded: refused, nothing else loaded, no results folder (RAMLLD_YES=1 as --yes)
ramlld_load mode=bio capacity_mb=16
run_rc 2 env RAMLLD_YES=1 "$bm" "${plan[@]}" --out "$RESULTS/refused"
expect_in "refusal" "refused, nothing loaded: /dev/ramlld0 exists; module ramlld is loaded"
[ ! -d /sys/module/brd ] || fail "the refused run loaded brd"
[ ! -e "$RESULTS/refused" ] || fail "the refused run made its results folder"
ramlld_unload

# 3. the run. Before it: sysctls it changes set to values of their own, a loop device of the
# test's (a device the run did not create) whose read_ahead_kb is changed while the run goes on
need_modules loop
img=$(mktemp /tmp/bm-loop.XXXXXX)
truncate -s 8M "$img"
loopdev=$(losetup -f --show "$img")
lb=${loopdev##*/}
cleanup() {
	local rc=$?
	losetup -d "$loopdev" 2> /dev/null || true
	rm -f "$img"
	rmmod loop 2> /dev/null || true
	(exit "$rc")
	_ramlld_on_exit
}
trap cleanup EXIT
echo 2 > /proc/sys/kernel/perf_event_paranoid
echo 1 > /proc/sys/kernel/kptr_restrict
echo 256 > "/sys/block/$lb/queue/read_ahead_kb"
queues() { for b in /sys/block/*/queue; do grep -H . "$b"/{scheduler,rq_affinity,add_random,nomerges,read_ahead_kb,max_sectors_kb,nr_requests} 2> /dev/null; done; }
q0=$(queues)
mods0=$(awk '{ print $1 }' /proc/modules | sort)
mnt0=$(grep -E ' /sys/kernel/(debug|config) ' /proc/mounts | awk '{ print $2 }' | sort)
# the change under the run: once its first cell has run
(
	while [ ! -e "$dir/raw/ramlld-bio/default/qd32/randread-4k-qd32/r1.json" ]; do sleep 0.2; done
	echo 1024 > "/sys/block/$lb/queue/read_ahead_kb"
) &
changer=$!
rc=0
"$bm" --yes "${plan[@]}" --out "$dir" > "$RESULTS/bare-metal.out" 2>&1 || rc=$?
kill "$changer" 2> /dev/null || true
wait "$changer" 2> /dev/null || true
tail -n 12 "$RESULTS/bare-metal.out"
expect_eq "compare/bare-metal --yes's exit status" 0 "$rc"
out=$(cat "$RESULTS/bare-metal.out")
expect_in "the PMU probe" "no PMU here: perf stat -e instructions:u,instructions:k,cycles:u,cycles:k says <not supported>"
expect_in "the unload" "unloaded: every module the run loaded"

# loaded by it: its runs read ramlld0 and ram0; unloaded after; the modules as before
python3 - "$dir" << 'EOF' || fail "the runs on the modules it loaded"
import json, sys
out = sys.argv[1]
for t, dev in (("ramlld-bio", "/dev/ramlld0"), ("brd", "/dev/ram0")):
    j = json.load(open(f"{out}/raw/{t}/default/qd32/randread-4k-qd32/r1.json"))
    job = j["jobs"][0]
    assert job["read"]["iops"] > 0, f"{t}: no I/O"
    fn = j["global options"].get("filename", "") + job["job options"].get("filename", "")
    assert dev in fn, f"{t}: ran on {fn!r}, not {dev}"
    print(f"ok: {t} ran on {dev}: {job['read']['iops']:.0f} IOPS")
runs = [json.loads(l) for l in open(f"{out}/knobs/knobs.jsonl")][1:]
assert len(runs) == 6, f"knob step: {len(runs)} runs, not 6"
print(f"ok: the knob step's {len(runs)} runs (ramlld loaded by knobs.py)")
EOF
[ -z "$(loaded_devmods)" ] || fail "left loaded: $(loaded_devmods)"
expect_eq "the modules after the run" "$mods0" "$(awk '{ print $1 }' /proc/modules | sort)"
expect_eq "debugfs and configfs mounts after the run" "$mnt0" "$(grep -E ' /sys/kernel/(debug|config) ' /proc/mounts | awk '{ print $2 }' | sort)"
# put back: the sysctls guest-run changes, the loop device's queue changed under the run
expect_eq "perf_event_paranoid after the run" 2 "$(cat /proc/sys/kernel/perf_event_paranoid)"
expect_eq "kptr_restrict after the run" 1 "$(cat /proc/sys/kernel/kptr_restrict)"
expect_eq "$lb's read_ahead_kb after the run (1024 under it)" 256 "$(cat "/sys/block/$lb/queue/read_ahead_kb")"
[ "$q0" = "$(queues)" ] || { diff <(echo "$q0") <(queues) >&2; fail "queue settings differ from before the run"; }
echo "ok: every queue setting of $(echo "$q0" | cut -d/ -f4 | sort -u | paste -sd ' ') as before"
grep -q "^warn	bare-metal	queue settings of a device it did not create changed during the run (restored): $lb read_ahead_kb 1024" \
	"$dir/notes.tsv" || { cat "$dir/notes.tsv" >&2; fail "notes.tsv lacks the restored change of $lb"; }
echo "ok: notes.tsv names the change it restored"
# the facts and the report
for k in "governors " "cpufreq_boost " "smt_control " "cpuidle_driver " "irqbalance " "irq [0-9]* affinity=" "pmu no"; do
	grep -q "^$k" "$dir/facts.txt" || fail "facts.txt lacks '$k'"
done
[ "$(grep -c '^# ' "$dir/facts.txt")" = 2 ] || fail "facts.txt is not read before and after the run"
echo "ok: facts.txt: $(grep -c '^irq ' "$dir/facts.txt") vector lines, $(grep '^governors' "$dir/facts.txt" | head -n 1), $(grep '^smt_control' "$dir/facts.txt" | head -n 1), $(grep '^cpuidle_driver' "$dir/facts.txt" | head -n 1)"
for want in "## Bare metal: the host's clock and its hardware counters" "*clock: host time (host)*" \
	"**No PMU here** (perf stat -e instructions:u,instructions:k,cycles:u,cycles:k: <not supported>)" \
	"- SMT: control" "- idle: cpuidle driver"; do
	grep -qF -- "$want" "$dir/report.md" || fail "report.md lacks '$want'"
	echo "ok: report.md: $want"
done

echo "ok: the bare-metal mode end to end"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/run on the exact clock shards its cells over guests run by GNU parallel (-j) and merges them into the folder one guest writes: every planned cell once, in the shard its target went to, the spot check's cells as their r2 (and a spot run that disagrees flagged by the report's Determinism section), notes once each, meta.env's guest keys over every shard; --plan boots nothing (tools/vm/run and tools/vm/kernel's fetching made unreachable) and prints the wall time in minutes for -j; bad -j and --spot-every refused
# where: host
# requires: python3 parallel
# timeout: 600
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
# a tree of compare/ whose tools/vm/run and tools/vm/kernel are fakes: run answers --help (for
# compare/run's check of --clock) and otherwise stands in for a guest, writing what guest-run
# writes for the cells it is given from the exact-small fixture's runs; each call is logged
cp -r "$TOP/compare" "$tree/compare"
mkdir -p "$tree/tools/vm"
fixture=$TOP/tests/compare/fixtures/exact-small
cat > "$tree/tools/vm/run" << EOF
#!/bin/bash
set -euo pipefail
echo "\$*" >> "$tree/vm-calls"
if [ "\${1:-}" = --help ]; then echo "  --clock C  icount | host"; exit 0; fi
[ -z "\${FAKE_NO_BOOT:-}" ] || { echo "tools/vm/run: booted by a test that forbids it" >&2; exit 99; }
while [ "\$1" != -- ]; do shift; done
out='' cells='' knobs_only=0
for ((i = 1; i <= \$#; i++)); do
	case \${!i} in
	--out) j=\$((i + 1)); out=\${!j} ;;
	--cells) j=\$((i + 1)); cells=\${!j} ;;
	--knobs-only) knobs_only=1 ;;
	esac
done
echo "tools/vm/run: kernel 6.1.0-57-amd64, QEMU 10.0.13 (trixie), accel tcg (--clock icount), fake"
if [ "\$knobs_only" = 1 ]; then mkdir -p "\$out/knobs"; cp "$fixture/knobs/knobs.jsonl" "\$out/knobs/"; exit 0; fi
mkdir -p "\$out/raw" "\$out/breakdown"
cp "$fixture/targets.tsv" "\$out/targets.tsv"
grep -v '^\(command\|level_name\|git\|ko\|clock_asked\|bench\|host_\|started\)' "$fixture/meta.env" | sed 's/^repeats=.*/repeats=1/' > "\$out/meta.env"
printf 'skip\tnvme-loop\tneeds module nvme-loop\n' > "\$out/notes.tsv"
ts=''
while read -r t p w s _; do
	d=\$out/raw/\$t/\$p/\$w/\$s
	mkdir -p "\$d"
	for f in "$fixture/raw/ramlld-bio/default/\$w/\$s"/r1.*; do cp "\$f" "\$d/"; done
	# FAKE_DISAGREE=TARGET: the spot check's run of that target's cells counts 2 % fewer I/Os
	if [ "\${out##*/}" = spot ] && [ "\$t" = "\${FAKE_DISAGREE:-}" ]; then
		python3 -c 'import json, sys; f = sys.argv[1]; j = json.load(open(f)); j["jobs"][0]["read"]["iops"] *= 0.98; json.dump(j, open(f, "w"))' "\$d/r1.json"
	fi
	[[ " \$ts " == *" \$t "* ]] || ts+=" \$t"
done < "\$cells"
# each guest's start and end hour from its targets' names, apart in each shard
h=\$(printf '%02d' \$((\${#ts} % 24)))
printf 'targets=%s\nstarted=2026-12-07T%s:00:00Z\nended=2026-12-07T%s:30:00Z\nskipped_targets=\n' "\${ts# }" "\$h" "\$h" >> "\$out/meta.env"
echo "guest-run: done" > "\$out/guest-run.log"
EOF
cat > "$tree/tools/vm/kernel" << EOF
#!/bin/bash
echo "\$*" >> "$tree/kernel-calls"
case \$1 in
--print-version) echo 6.1.0-57-amd64 ;;
--print-fetched | --print-modules) [ -z "\${FAKE_NOT_FETCHED:-}" ] || exit 1; echo "$tree/mods" ;;
*) echo "tools/vm/kernel: \$1: not in this test" >&2; exit 1 ;;
esac
EOF
chmod +x "$tree/tools/vm/run" "$tree/tools/vm/kernel"
# the modules the targets' "# needs:" ask for, in the fake kernel's tree
mkdir -p "$tree/mods/lib/modules/6.1.0-57-amd64"
printf '%s:\n' kernel/drivers/block/brd.ko kernel/drivers/block/null_blk/null_blk.ko \
	> "$tree/mods/lib/modules/6.1.0-57-amd64/modules.dep"
run=$tree/compare/run
# the references' cells only: no ramlld module needed (the fixture's runs stand in for them)
targets=brd,nullb-mq,nullb-mq-nodata,nullb-bio only=qd32/randread-4k-qd32,lat-qd1/randread-4k-qd1
sel=(--clock icount --no-build --targets "$targets"
	--only "$only" --profiles default --repeats 1 --runtime 1 --ramp 0
	--level-shape 1x64 --no-breakdown --cpus 1)

# --plan boots nothing and fetches no kernel, and gives the wall time in minutes for -j
: > "$tree/vm-calls"
plan=$(FAKE_NO_BOOT=1 FAKE_NOT_FETCHED=1 RAMLLD_HOST_LOAD=0 "$run" "${sel[@]}" -j 2 --spot-every 3 --plan) ||
	fail "compare/run --plan failed"
expect_eq "tools/vm/run calls of --plan (its --help only)" "--help" "$(sort -u "$tree/vm-calls")"
grep -qE '^(--print-modules|--print-image|--print-vmlinux|fetch)' "$tree/kernel-calls" && fail "--plan fetched a kernel: $(cat "$tree/kernel-calls")"
grep -q '^note kernel 6.1.0-57-amd64 is not fetched' <<< "$plan" || fail "--plan does not say the kernel is not fetched"
wall=$(sed -n 's/^wall //p' <<< "$plan")
[[ $wall =~ ^[0-9]+\ s\ \(([0-9]+)\ min\ of\ wall\ time:\ ([0-9]+)\ guests,\ 2\ at\ a\ time\ on\ [0-9]+\ CPUs ]] ||
	fail "--plan's wall time: '$wall'"
echo "ok: --plan booted nothing: wall $wall"
# 4 targets in 2 to 4 shards of whole targets with -j 2 (the count with the least wall time: 3
# here, compare/estimate.py), each cell in one shard
expect_eq "the plan's cells" 8 "$(grep -c '^cell ' <<< "$plan")"
shard_t=$(sed -n 's/^shard [0-9]* [0-9]* [0-9]* //p' <<< "$plan" | tr ',' '\n' | sort | paste -sd ' ')
expect_eq "every target in one shard" "brd nullb-bio nullb-mq nullb-mq-nodata" "$shard_t"
# every 3rd cell in the spot check, the first included
expect_eq "the spot check's cells" "$(grep '^cell ' <<< "$plan" | sed -n '1~3s/^cell //p')" \
	"$(sed -n 's/^spot-cell //p' <<< "$plan" | head -n 3)"
plan1=$(FAKE_NO_BOOT=1 RAMLLD_HOST_LOAD=0 "$run" "${sel[@]}" -j 1 --plan) || fail "-j 1 --plan failed"
w1=$(sed -n 's/^wall \([0-9]*\) .*/\1/p' <<< "$plan1") w2=${wall%% *}
[ "$w1" -gt "$w2" ] || fail "-j 1's wall time $w1 s is not above -j 2's $w2 s"
echo "ok: wall time -j 1 $w1 s, -j 2 $w2 s"
run_rc 2 "$run" "${sel[@]}" -j 0 --plan
expect_in "-j 0 refused" "-j: bad value '0'"
run_rc 2 "$run" "${sel[@]}" --spot-every x --plan
expect_in "--spot-every x refused" "--spot-every: bad value 'x'"

# a run: the shards and the spot check through GNU parallel, merged
out=$tree/res
: > "$tree/vm-calls"
FAKE_DISAGREE=nullb-mq "$run" "${sel[@]}" -j 2 --spot-every 3 --out "$out" > "$tree/run.log" 2>&1 ||
	fail "the sharded run failed: $(tail -n 20 "$tree/run.log")"
boots=$(grep -c -- ' -- ' "$tree/vm-calls")
nshards=$(grep -c '^shard ' <<< "$plan")
expect_eq "the plan's shards" 3 "$nshards"
expect_eq "guests booted (the plan's shards, the spot check)" $((nshards + 1)) "$boots"
# GNU parallel starts them in the jobs file's order: the longest estimate first, as --plan's
# wall time assumes, so that the longest guest is not the last one left running
order=$(sed -n 's|.*> \(.*\)/run.log 2>&1; } 2> .*|\1|p' "$out/shards/jobs" | sed 's|.*/||' | paste -sd ' ')
want=$({
	sed -n 's/^shard \([0-9]*\) \([0-9]*\) .*/\2 \1/p' <<< "$plan"
	sed -n 's/^spot \([0-9]*\) .*/\1 spot/p' <<< "$plan"
} | sort -k1,1nr -s | cut -d ' ' -f 2 | paste -sd ' ')
expect_eq "the guests' order, longest estimate first" "$want" "$order"
want=$(grep '^cell ' <<< "$plan" | awk '{ print "raw/" $2 "/" $3 "/" $4 "/" $5 "/r1.json" }' | sort)
expect_eq "each planned cell's r1 in the merged folder" "$want" "$(cd "$out" && find raw -name 'r1.json' | sort)"
want=$(sed -n 's/^spot-cell //p' <<< "$plan" | awk '{ print "raw/" $1 "/" $2 "/" $3 "/" $4 "/r2.json" }' | sort)
expect_eq "the spot check's runs as r2" "$want" "$(cd "$out" && find raw -name 'r2.json' | sort)"
expect_eq "a skip noted once (every shard noted it)" 1 "$(grep -c 'nvme-loop' "$out/notes.tsv")"
expect_eq "meta.env: the targets in the plan's order" "targets=brd nullb-mq nullb-mq-nodata nullb-bio" \
	"$(grep '^targets=' "$out/meta.env")"
# the earliest shard's start: the fake guest's hour, the length of " TARGET..." modulo 24
h=$(sed -n 's/^shard [0-9]* [0-9]* [0-9]* //p' <<< "$plan" | awk '{ gsub(",", " "); h = length(" " $0) % 24; if (NR == 1 || h < m) m = h } END { printf "%02d", m }')
grep -q "^started=2026-12-07T$h:00:00Z\$" "$out/meta.env" || fail "meta.env's start is not the earliest shard's ($h:00): $(grep ^started= "$out/meta.env")"
grep -q '^spot_check=every 3th cell' "$out/meta.env" || fail "meta.env does not name the spot check"
expect_eq "guest keys once each" 1 "$(grep -c '^level=' "$out/meta.env")"
grep -q '^guest_spot=wall [0-9]* s, host CPU [0-9]* s$' "$out/meta.env" || fail "meta.env lacks the spot guest's times: $(grep ^guest_ "$out/meta.env")"
[ -f "$out/report.md" ] || fail "no report"
grep -q '^## Determinism' "$out/report.md" || fail "the report has no Determinism section"
grep -q '⚠ nullb-mq \[default\]' "$out/report.md" || fail "the spot run that disagrees is not flagged: $(sed -n '/^## Determinism/,/^## /p' "$out/report.md")"
grep -q '⚠ brd' "$out/report.md" && fail "a spot run that agrees is flagged"
grep -q 'compare/run: \[[0-9]*/[0-9]* runs' "$tree/run.log" || echo "note: the run ended before the first progress line"
echo "ok: sharded into $boots guests, merged; the report: $(grep -A3 '^## Determinism' "$out/report.md" | tail -n 2)"

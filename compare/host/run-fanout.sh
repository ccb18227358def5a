# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/host/run-fanout.sh: compare/run on the exact clock with its cells sharded over guests
# run side by side by GNU parallel (-j N at a time): an instruction count does not depend on what
# else the host runs, so N guests give the figures one guest gives, in about 1/N of the wall
# time. Each shard is a guest running guest-run --cells on whole targets (compare/estimate.py
# packs them) into OUT/shards/K; the spot check is one more guest running a sample of the cells
# again; the knob guest is one more job. merge_shards then makes OUT the folder one guest would
# have written (raw/, breakdown/, notes.tsv, meta.env, targets.tsv, logs), the spot check's runs
# as each cell's r2, which the report's determinism section checks against r1. Sourced by
# compare/run; variables: compare/run's.

# fanout_wanted: whether this run is sharded: the exact clock in guests, no bench (its two runs a
# target decide together), no --interleave (rounds in one guest), no --perf-cell
fanout_wanted() {
	[ "$clock" = icount ] && [ -z "$host_devs" ] && [ -z "$bench" ] || return 1
	local a
	for a in "${gargs[@]}"; do
		case $a in --interleave | --perf-cell) return 1 ;; esac
	done
}

# guest_cmd DIR TIMEOUT CPUS GUEST-RUN-ARGS...: the shell command of one guest (one line, quoted
# for parallel), its output into DIR/run.log and its host CPU time (bash's time: wall, user,
# system s) into DIR/time; the targets' QEMU arguments for this guest's cells
guest_cmd() {
	local d=$1 t=$2 c=$3 qtxt a
	shift 3
	local -a g=("$top/tools/vm/run" --cpus "$c" --mem "$mem" --timeout "$t" --share "$out" --clock "$clock")
	[ -z "$icount_shift" ] || g+=(--icount-shift "$icount_shift")
	[ -z "$kernel" ] || g+=(--kernel "$kernel")
	mkdir -p "$vm_files/${d##*/}"
	qtxt=$("$here/guest-run" --out "${TMPDIR:-/tmp}" --level "$level" "${kargs_plan[@]}" "$@" \
		--print-vm-args "$vm_files/${d##*/}") || die "the targets' QEMU arguments (guest-run --print-vm-args) failed"
	while IFS= read -r a; do [ -z "$a" ] || g+=(--qemu-arg "$a"); done <<< "$qtxt"
	g+=(-- env COMPARE_TOP="$top" "$out/harness/guest-run" --level "$level" --ko "$ko" "$@")
	printf '{ time '
	printf '%q ' "${g[@]}"
	printf '> %q 2>&1; } 2> %q\n' "$d/run.log" "$d/time"
}

# fanout_progress TOTAL: every 30 s of the host's clock, the runs done (rN.json in the shards),
# the guests done (parallel's job log) and the ETA from the rate so far, until killed
fanout_progress() {
	local total=$1 t0 done_n g el eta
	t0=$(date +%s)
	while sleep 30; do
		done_n=$(find "$out/shards" -path '*/raw/*' \( -name 'r[0-9]*.json' -o -name 'r[0-9]*.dd.json' \) 2> /dev/null | wc -l)
		g=$(($(wc -l < "$out/shards/joblog") - 1))
		el=$(($(date +%s) - t0))
		eta='?'
		[ "$done_n" = 0 ] || eta=$(fmt_min $((el * (total - done_n) / done_n)))
		echo "$prog: [$done_n/$total runs, $g/$n_jobs guests done] $(fmt_min "$el") elapsed, ETA $eta (host clock; load $(cut -d' ' -f1 /proc/loadavg))" >&2
	done
}
fmt_min() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

# run_fanout: the shards, the spot check and the knob guest, -j at a time; then merge_shards.
# Sets guest_rc (a shard's status, 3 when ramlld does not load) and knob_rc.
run_fanout() {
	local k s tmo ts line spot_runs=0 total wall_s cpu_s
	mkdir -p "$out/shards"
	: > "$out/shards/jobs.est"
	n_jobs=0
	while read -r k s tmo ts; do
		mkdir -p "$out/shards/$k"
		grep '^cell ' <<< "$plan_text" | awk -v ts=",$ts," 'index(ts, "," $2 ",") { sub(/^cell /, ""); print }' \
			> "$out/shards/$k/cells"
		printf '%s\t' "$s" >> "$out/shards/jobs.est"
		guest_cmd "$out/shards/$k" "$tmo" "$cpus" --out "$out/shards/$k" "${gargs[@]}" --cells "$out/shards/$k/cells" \
			>> "$out/shards/jobs.est"
		n_jobs=$((n_jobs + 1))
	done < <(sed -n 's/^shard //p' <<< "$est_text")
	if [ "$spot_every" != 0 ] && grep -q '^spot ' <<< "$est_text"; then
		mkdir -p "$out/shards/spot"
		sed -n 's/^spot-cell //p' <<< "$est_text" > "$out/shards/spot/cells"
		spot_runs=$(awk '{ n += split($4, a, ",") } END { print n + 0 }' "$out/shards/spot/cells")
		read -r s tmo _ < <(sed -n 's/^spot //p' <<< "$est_text")
		printf '%s\t' "$s" >> "$out/shards/jobs.est"
		guest_cmd "$out/shards/spot" "$tmo" "$cpus" --out "$out/shards/spot" "${gargs[@]}" --repeats 1 --no-breakdown \
			--cells "$out/shards/spot/cells" >> "$out/shards/jobs.est"
		n_jobs=$((n_jobs + 1))
	fi
	if [ "$knob_guest" = 1 ]; then
		mkdir -p "$out/shards/knobs"
		printf '%s\t' "$(sed -n 's/^estimate-knobs \([0-9]*\).*/\1/p' <<< "$est_text")" >> "$out/shards/jobs.est"
		guest_cmd "$out/shards/knobs" "$knob_tmo" "$knob_cpus" --out "$out" --level "$knob_level" --knobs-only \
			"${knob_gargs[@]}" >> "$out/shards/jobs.est"
		n_jobs=$((n_jobs + 1))
		echo "knob_guest=$knob_cpus vCPUs in QEMU's default topology for -smp $knob_cpus, clock $clock${icount_shift:+ shift $icount_shift}" >> "$out/meta.env"
	fi
	# longest first, as the plan's wall time assumes: the longest guest must not be the tail
	sort -t "$(printf '\t')" -k1,1nr -s "$out/shards/jobs.est" | cut -f 2- > "$out/shards/jobs"
	total=$((runs + spot_runs))
	echo "$prog: $n_jobs guests, $jobs at a time (GNU parallel${sshloginfile:+ over $sshloginfile}): $(sed -n 's/^wall //p' <<< "$est_text")" >&2
	echo "$prog: each guest's output in $out/shards/*/run.log; the jobs in $out/shards/jobs" >&2
	fanout_progress "$total" &
	local mon=$!
	local -a par=(env PARALLEL_SHELL=/bin/bash TIMEFORMAT='%R %U %S' parallel --will-cite --jobs "$jobs" --joblog "$out/shards/joblog")
	[ -z "$sshloginfile" ] || par+=(--sshloginfile "$sshloginfile")
	"${par[@]}" < "$out/shards/jobs" || true
	kill "$mon" 2> /dev/null || true
	wait "$mon" 2> /dev/null || true
	# each guest's status, from the job log (column 7: Exitval), in the jobs' order
	guest_rc=0 knob_rc=0
	while IFS=$'\t' read -r -a line; do
		[[ ${line[0]} =~ ^[0-9]+$ ]] || continue
		k=$(sed -n "${line[0]}p" "$out/shards/jobs" | sed -n 's|.*> \(.*\)/run.log 2>&1; } 2> .*|\1|p')
		k=${k##*/}
		wall_s=$(printf '%.0f' "${line[3]}")
		cpu_s=$(awk 'NF == 3 { printf "%.0f", $2 + $3 }' "$out/shards/$k/time" 2> /dev/null)
		echo "$prog: guest ${k:-?}: status ${line[6]}, $wall_s s of wall time, ${cpu_s:-?} s of host CPU" >&2
		echo "guest_${k//-/_}=wall ${wall_s} s, host CPU ${cpu_s:-?} s" >> "$out/meta.env"
		[ "${line[6]}" = 0 ] && continue
		if [ "$k" = knobs ]; then
			knob_rc=${line[6]}
			fanout_fail knobs "$knob_rc" "the knob guest ($knob_cpus vCPUs) ended before its knob table was complete" \
				"the knob table holds what it wrote, or is missing"
		else
			[ "$guest_rc" = 3 ] || guest_rc=${line[6]}
			fanout_fail guest "$guest_rc" "guest $k (cells: shards/$k/cells) ended before guest-run did" \
				"the report holds what it wrote; its targets' cells after that point are missing"
		fi
	done < "$out/shards/joblog"
	merge_shards
	if [ "$guest_rc" = 3 ]; then
		stop "stopping: ramlld does not load in the guest: $(awk -F'\t' '$1 == "fail" && $2 == "ramlld" { r = $3 } END { print r }' "$out/notes.tsv" 2> /dev/null)"
	fi
}

# fanout_fail WHAT RC TEXT CONSEQUENCE: a guest that failed, in notes.tsv (the report says so)
fanout_fail() {
	local why="status $2"
	[ "$2" != 124 ] || why="timed out"
	[ "$1" != knobs ] || [ "$2" != 1 ] || why="status 1: compare/knobs.py failed"
	echo "$prog: $3 ($why)" >&2
	printf 'fail\t%s\t%s (%s): %s\n' "$1" "$3" "$why" "$4" >> "$out/notes.tsv"
}

# merge_shards: OUT/shards/* into OUT as one guest would have written it: each shard's raw/ and
# breakdown/ (whole targets: no two shards write one cell), the spot check's r1 files as the
# cells' r2, the notes (each once), the guest's meta.env keys (targets, start and end over every
# shard), targets.tsv, kallsyms and the logs
merge_shards() {
	local d f first='' started='' ended='' all_t='' skipped=''
	mkdir -p "$out/raw" "$out/breakdown"
	for d in "$out"/shards/*/; do
		d=${d%/}
		[ -f "$d/meta.env" ] || [ -d "$d/raw" ] || continue
		if [ "${d##*/}" = spot ]; then
			(cd "$d/raw" && find . -type f -name '*r1.*') | while read -r f; do
				mkdir -p "$out/raw/$(dirname "$f")"
				mv "$d/raw/$f" "$out/raw/$(dirname "$f")/$(basename "$f" | sed 's/\(^\|\.\)r1\./\1r2./')"
			done
		else
			cp -a "$d/raw/." "$out/raw/" 2> /dev/null || true
			cp -a "$d/breakdown/." "$out/breakdown/" 2> /dev/null || true
			[ -n "$first" ] || first=$d
		fi
		[ -s "$out/kallsyms" ] || [ ! -s "$d/kallsyms" ] || cp "$d/kallsyms" "$out/kallsyms"
		[ -f "$out/targets.tsv" ] || [ ! -f "$d/targets.tsv" ] || cp "$d/targets.tsv" "$out/targets.tsv"
		cat "$d/notes.tsv" >> "$out/notes.tsv" 2> /dev/null || true
		for f in guest-run.log run.log dmesg.txt; do
			[ ! -f "$d/$f" ] || { echo "=== guest ${d##*/}"; cat "$d/$f"; } >> "$out/$f"
		done
		[ "${d##*/}" != spot ] || continue
		f=$(sed -n 's/^started=//p' "$d/meta.env" 2> /dev/null)
		if [ -n "$f" ] && { [ -z "$started" ] || [[ $f < $started ]]; }; then started=$f; fi
		f=$(sed -n 's/^ended=//p' "$d/meta.env" 2> /dev/null)
		if [[ $f > $ended ]]; then ended=$f; fi
		all_t+=" $(sed -n 's/^targets=//p' "$d/meta.env" 2> /dev/null)"
		skipped+=" $(sed -n 's/^skipped_targets=//p' "$d/meta.env" 2> /dev/null)"
	done
	cp "$out/shards/knobs/run.log" "$out/run-knobs.log" 2> /dev/null || true
	# the notes once each, in the order first written (every shard notes every skipped target)
	[ ! -f "$out/notes.tsv" ] || awk '!seen[$0]++' "$out/notes.tsv" > "$out/notes.tsv.tmp" && mv "$out/notes.tsv.tmp" "$out/notes.tsv"
	[ -n "$first" ] || return 0
	# the guest's keys as one guest writes them: the targets in the plan's order
	all_t=$(grep '^cell ' <<< "$plan_text" | awk -v have="$all_t " '!seen[$2]++ && index(have, " " $2 " ") { printf "%s%s", n++ ? " " : "", $2 }')
	{
		grep -v '^\(targets\|started\|ended\|skipped_targets\)=' "$first/meta.env"
		echo "targets=$all_t"
		echo "started=$started"
		echo "ended=$ended"
		echo "skipped_targets=$(xargs <<< "$skipped")"
		echo "shards=$(find "$out/shards" -mindepth 1 -maxdepth 1 -name '[0-9]*' | wc -l) guests of whole targets, $jobs at a time (compare/run -j)"
		[ ! -f "$out/shards/spot/cells" ] ||
			echo "spot_check=every ${spot_every}th cell of the plan run again in a guest of its own ($(wc -l < "$out/shards/spot/cells") cells: shards/spot/cells), as the cell's r2"
	} >> "$out/meta.env"
}

# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/host/ab-measure.sh: compare/ab's measurements: the ledger's rows on one kernel, one run
# (compare/run --ledger on the exact clock), as cells.tsv; sourced by compare/ab. Variables:
# compare/ab's.

# --- one measurement: the ledger's rows on a kernel, one run ---------------------------------
# measure SIDE TREE RUN PERF(0|1) ROWS: $out/SIDE/runRUN/cells.tsv (+ perf/)
measure() {
	local side=$1 tree=$2 run=$3 p=$4 rx=$5 d t0=$EPOCHSECONDS
	d=$out/$side/run$run
	rm -rf "$d"
	mkdir -p "$d"
	if [ -n "${RAMLLD_AB_MEASURE:-}" ]; then
		$RAMLLD_AB_MEASURE "$kernel_dir" "$tree" "$d" "$p" "$rx" "$stacks" >&2 || fail "$side run $run: the measurement failed ($RAMLLD_AB_MEASURE)"
	else
		local kv lopt=() rc=0
		kv=$("$top/tools/vm/kernel" --print-version "$kernel_dir") || fail "no kernel in $kernel_dir"
		# compare/run --ledger --no-build loads build/kernels/<version>/ramlld.ko: this kernel's
		mkdir -p "$top/build/kernels/$kv"
		[ "$ko_dir" -ef "$top/build/kernels/$kv" ] || cp "$ko_dir/ramlld.ko" "$top/build/kernels/$kv/"
		[ "$p" = 1 ] || lopt+=(--no-perf)
		[ -z "$stacks" ] || lopt+=(--ledger-stacks "$stacks")
		log "$side run $run: the ledger rows on the exact clock, $vcpus$([ "$p" = 1 ] && echo ", with perf")"
		COMPARE_COMMAND="$prog (ledger of $side, run $run)" "$top/compare/run" --ledger --clock icount \
			--cpus "$cpus" --kernel "$kernel_dir" --no-build --ledger-rows "$rx" "${lopt[@]}" --out "$d/ledger" > "$d/run.log" 2>&1 || rc=$?
		[ "$rc" -eq 0 ] || { tail -n 15 "$d/run.log" >&2; fail "$side run $run: compare/run --ledger failed ($rc): $d/run.log"; }
		ledger_cells "$d/ledger" "$d"
	fi
	[ -f "$d/cells.tsv" ] || fail "$side run $run: no $d/cells.tsv"
	log "$side run $run: $(($(wc -l < "$d/cells.tsv") - 1)) cells in $((EPOCHSECONDS - t0)) s"
}

# ledger_cells LEDGER RUNDIR: the ledger's rows as cells (10^9 / IOPS instructions per I/O, all vCPUs')
ledger_cells() {
	local l=$1 d=$2 f
	awk -F'\t' 'BEGIN { OFS = "\t"; print "target", "workload", "instr", "status" }
		NR > 1 { i = index($1, "/"); t = substr($1, 1, i - 1); w = substr($1, i + 1)
			if ($8 == "ok" && $7 > 0) print t, w, sprintf("%.1f", 1e9 / $7), "ok"
			else print t, w, "", $8 }' "$l/ledger.tsv" > "$d/cells.tsv"
	mkdir -p "$d/perf"
	for f in "$l"/perf/*.txt; do
		[ -e "$f" ] || continue
		cp "$f" "$d/perf/"
	done
}

# --- the A/B of two prepared kernels -----------------------------------------------------------
# run_side SIDE TREE: RUNS runs (the first with perf)
run_side() {
	local side=$1 tree=$2 r
	for ((r = 1; r <= runs; r++)); do
		measure "$side" "$tree" "$r" "$([ "$r" = 1 ] && echo "$perf" || echo 0)" "$rows"
	done
	[ "$profile" = 0 ] || profile_side "$side"
}

# --- the exact function table: tools/iprofile's plugin, where it runs (QEMU 7.2, one vCPU) ------
# iprofile_target TARGET: tools/iprofile/guest-cell's target of a registry target, or nothing
iprofile_target() {
	case $1 in
	ramlld-bio | ramlld-mq | ramlld-sd | brd) echo "$1" ;;
	nullb-mq*) echo nullb ;;
	sdebug*) echo sdebug ;;
	esac
}

# profile_side SIDE: each target with a selected row that guest-cell can set up (one cell per
# guest-cell target), its 4k randread QD32 io_uring cell profiled in a boot of its own:
# $out/SIDE/profile/TARGET/ (tools/iprofile/run's folder, with functions.tsv)
profile_side() {
	local side=$1 t it d w seen=' ' sel
	for t in $targets_all; do
		it=$(iprofile_target "$t") sel=0
		for w in io_uring hipri-all io_uring-qd1 libaio; do
			! grep -Eq -- "$rows" <<< "$t/$w" || sel=1
		done
		if [ -z "$it" ] || [ "$sel" = 0 ] || [[ $seen == *" $it "* ]]; then
			continue
		fi
		seen+="$it "
		d=$out/$side/profile/$t
		mkdir -p "$d"
		log "$side: $t profiled (tools/iprofile: guest-cell's $it, io_uring, exact counts)"
		"$top/tools/iprofile/run" --kernel "$kernel_dir" --out "$d" -- --target "$it" --engine io_uring \
			--ko "$ko_dir/ramlld.ko" > "$d.log" 2>&1 || fail "$side: tools/iprofile/run of $t failed: $d.log"
		"$top/tools/iprofile/table" "$d" --top 0 --tsv "$d/functions.tsv" --json "$d/table.json" > "$d/table.txt" ||
			fail "$side: tools/iprofile/table of $t failed"
	done
}

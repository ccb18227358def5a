# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/host/run-lib.sh: what compare/run's modes share (the report's python3, a guest's
# perf data reported on the host, the module's build), and its --kernels and --ledger modes;
# sourced by compare/run. Variables: compare/run's.

# py: the report's python3 (compare/lib/report-python.sh), looked for only when a report is
# written.
find_python() {
	py=$(report_python)
}

# perf_report_guest DATA [PERF-REPORT-ARGS...]: a guest's perf.data reported here by symbol into
# DATA's .txt, with the guest's symbols: its kallsyms plus the module symbols saved beside DATA,
# not a vmlinux, so that ramlld's resolve too. DATA and its module symbols are removed after.
perf_report_guest() {
	local d=$1 syms="$out/kallsyms.report"
	shift
	cat "$out/kallsyms" "${d%.data}.modsyms" > "$syms" 2> /dev/null || cp "$out/kallsyms" "$syms"
	perf report -i "$d" --ignore-vmlinux --kallsyms "$syms" --stdio --no-children --sort symbol -g none "$@" \
		> "${d%.data}.txt" 2> /dev/null || echo "# perf report failed" > "${d%.data}.txt"
	rm -f "$d" "${d%.data}.modsyms" "$syms"
}

# stop MSG: the run cannot go on (a failed build, a module that does not fit): exit 1, saying so
stop() {
	echo "$prog: $*" >&2
	exit 1
}
# build_module: make module for the guest's kernel into $ko. A failed build stops the run at
# once (it never goes on with an older module), and so does a module built for a kernel other
# than the guest's; with needs_ramlld=0 (no target loads it) a missing module is no matter.
needs_ramlld=1
build_module() {
	local rc=0 vm_kv mod_kv
	if [ "$build" = 1 ]; then
		echo "$prog: make module${kernel:+ KERNEL=$kernel} (its log: $out/build.log)" >&2
		make -C "$top" module ${kernel:+KERNEL="$kernel"} > "$out/build.log" 2>&1 || rc=$?
		if [ "$rc" != 0 ]; then
			tail -n 15 "$out/build.log" | sed 's/^/  build: /' >&2
			echo "build=failed (status $rc)" >> "$out/meta.env"
			stop "make module failed (status $rc, $out/build.log): stopping; a run never goes on with an older ${ko#"$top"/}"
		fi
	fi
	if [ ! -f "$ko" ]; then
		[ "$needs_ramlld" = 0 ] || stop "no ${ko#"$top"/}: make module${kernel:+ KERNEL=$kernel} (or leave out --no-build)"
		return 0
	fi
	vm_kv=$("$top/tools/vm/kernel" --print-version ${kernel:+"$kernel"})
	mod_kv=$(modinfo -F vermagic "$ko" 2> /dev/null | cut -d' ' -f1) || mod_kv=''
	[ "$mod_kv" = "$vm_kv" ] || [ "$needs_ramlld" = 0 ] ||
		stop "${ko#"$top"/} is built for ${mod_kv:-an unknown kernel}, the guest runs $vm_kv: make module${kernel:+ KERNEL=$kernel}"
}

# --kernels: this script once per kernel (one guest each, results in OUT/<kernel>/), then the
# per-kernel table of the block-vs-SCSI ratios, from each run's results.json (compare/kernels.py).
run_kernels() {
	[ -z "$host_devs" ] || die "--kernels runs guests: it does not go with --host"
	[ -z "$kernel" ] || die "--kernels LIST names the kernels: it does not go with --kernel"
	for k in $kernels; do
		"$top/tools/vm/kernel" --print-version "$k" > /dev/null 2>&1 ||
			die "--kernels: unknown kernel '$k' (allowed: bullseye bookworm trixie sid, or a version: tools/vm/kernel --help)"
	done
	if [ "$sel" = 0 ] && [ -z "$bench" ] && [ "$ledger" = 0 ]; then
		pass=(--quick --targets "ramlld-bio,ramlld-mq,ramlld-sd" --profiles default
			--only "qd32/randread-4k-qd32,lat-qd1/randread-4k-qd1,seed-004/seq-read"
			--repeats 3 --runtime 2 --no-breakdown "${pass[@]}")
	fi
	[ -n "$out" ] || out=$top/results/$(date +%Y%m%d-%H%M%S)-kernels
	mkdir -p "$out"
	out=$(cd "$out" && pwd)
	start=$(date +%s)
	{
		echo "command=${COMPARE_COMMAND:-$prog $args_line}"
		echo "per_kernel_args=${pass[*]}"
		echo "kernels=$kernels"
		echo "date=$(date -u +%FT%TZ)"
		echo "git=$(git -C "$top" rev-parse --short HEAD 2> /dev/null || echo none)"
	} > "$out/meta.env"
	rc=0
	for k in $kernels; do
		echo "$prog: --- kernel $k: $prog ${pass[*]} --kernel $k --out $out/$k"
		COMPARE_COMMAND="$prog ${pass[*]} --kernel $k" "$0" "${pass[@]}" --kernel "$k" --out "$out/$k" ||
			{
				rc=$?
				echo "$prog: the run on $k ended with status $rc (see $out/$k)" >&2
			}
	done
	echo "wall_s=$(($(date +%s) - start))" >> "$out/meta.env"
	find_python
	if [ "$ledger" = 1 ]; then
		"$py" "$here/ledger.py" --kernels "$out" || rc=$?
	else
		"$py" "$here/kernels.py" "$out" || rc=$?
	fi
	exit "$rc"
}

# --ledger: compare/ledger-guest in one guest (1 vCPU unless --cpus), then compare/ledger.py
run_ledger() {
	[ -z "$host_devs" ] || die "--ledger runs a guest: it does not go with --host"
	[ -z "$bench" ] || die "--ledger does not go with --bench"
	[ "$clock" = icount ] || [ "$ledger_profile" = 0 ] ||
		die "--ledger-profile needs the exact clock (--clock icount; this run's: $clock): the ladder it explains is the exact clock's"
	[ "$clock" = icount ] || echo "$prog: --ledger on the host's clock: IOPS only, no instruction counts" >&2
	lopt=()
	for ((i = 0; i < ${#gargs[@]}; i++)); do
		case ${gargs[$i]} in
		--runtime) lopt+=(--runtime "${gargs[$((i + 1))]}"); i=$((i + 1)) ;;
		--no-perf) lopt+=(--no-perf) ;;
		--perf) ;;
		*) die "--ledger: '${gargs[$i]}' does not apply (allowed with it: --ledger-rows --ledger-rw --ledger-stacks --ledger-profile --runtime --no-perf --kernel --kernels --cpus --out --no-build --mem)" ;;
		esac
	done
	local lcpus=1
	if [ "$cpus_given" = 1 ]; then
		[[ $cpus =~ ^[1-9][0-9]*$ ]] || die "--cpus: bad value '$cpus' (allowed: a number >= 1)"
		lcpus=$cpus
	fi
	[ -z "$ledger_rows" ] || lopt+=(--rows "$ledger_rows")
	[ -z "$ledger_rw" ] || lopt+=(--rw "$ledger_rw")
	# the guest runs the device library (tools/devices) and tools/stack from this tree (it sees
	# the host's root)
	lopt+=(--top "$top")
	[ -z "$ledger_stacks" ] || lopt+=(--stacks "$ledger_stacks")
	ko=$top/drivers/ramlld.ko
	if [ -n "$kernel" ]; then
		kv=$("$top/tools/vm/kernel" --print-version "$kernel") || die "--kernel: unknown kernel '$kernel'"
		ko=$top/build/kernels/$kv/ramlld.ko
	fi
	[ -n "$out" ] || out=$top/results/$(date +%Y%m%d-%H%M%S)-ledger
	mkdir -p "$out"
	out=$(cd "$out" && pwd)
	start=$(date +%s)
	build_module
	mkdir -p "$out/harness"
	cp -r "$here/ledger-guest" "$here"/ledger-*.sh "$here/workloads" "$here/lib" "$out/harness/"
	vm=("$top/tools/vm/run" --cpus "$lcpus" --mem "$mem" --timeout 7200 --share "$out")
	[ "$vm_clock" = 0 ] || vm+=(--clock "$clock")
	[ -z "$icount_shift" ] || vm+=(--icount-shift "$icount_shift")
	[ -z "$kernel" ] || vm+=(--kernel "$kernel")
	rc=0
	"${vm[@]}" -- "$out/harness/ledger-guest" --out "$out" --ko "$ko" "${lopt[@]}" 2>&1 |
		tee "$out/run.log" || rc=$?
	# each row's perf profile (compare/ledger-guest), over the row's I/O window
	for d in "$out"/perf/*.data; do
		[ -e "$d" ] || continue
		w=$(cat "${d%.data}.window" 2> /dev/null || true)
		perf_report_guest "$d" ${w:+--time "$w"} --percent-limit 0.05
		echo "# I/O window (CLOCK_REALTIME, s): ${w:-whole run}" >> "${d%.data}.txt"
	done
	{
		echo "command=${COMPARE_COMMAND:-$prog $args_line}"
		echo "git=$(git -C "$top" rev-parse --short HEAD 2> /dev/null || echo none)"
		echo "wall_s=$(($(date +%s) - start))"
	} >> "$out/meta.env"
	find_python
	[ "$ledger_profile" = 0 ] || ledger_profile || rc=$?
	"$py" "$here/ledger.py" "$out" > /dev/null || rc=$?
	echo "$prog: ledger: $out/ledger.md ($(($(date +%s) - start)) s)"
	exit "$rc"
}

# ------------------------------------------------------------------ --two-node
# run_two_node OUT: compare/two-node for each stack of --two-node, one after the other, into
# OUT/two-node/STACK (the report's cost ladder reads them: its two-node column); 2 runs each
# unless --two-node-args says otherwise; seed-002: seed 002's grid over the two-node iSCSI with
# 2 vCPUs a side (seed 002's section reads it). A failed stack is noted (notes.tsv) and the
# others still run; returns the last failure's status.
run_two_node() {
	local o=$1 s rc=0 r
	local -a extra
	read -r -a extra <<< "$two_node_args"
	for s in $two_node; do
		mkdir -p "$o/two-node"
		r=0
		echo "$prog: two nodes: $s into $o/two-node/$s" >&2
		if [ "$s" = seed-002 ]; then
			set -- --stack iscsi --job seed-002 --cpus 2
		else
			set -- --stack "$s"
		fi
		"$here/two-node" "$@" --runs 2 "${extra[@]}" --out "$o/two-node/$s" 2>&1 |
			tee "$o/two-node-$s.log" || r=${PIPESTATUS[0]}
		if [ "$r" != 0 ]; then
			printf 'fail\t%s\tthe two-node cell failed (compare/two-node status %s): two-node-%s.log\n' \
				"$s" "$r" "$s" >> "$o/notes.tsv"
			rc=$r
		fi
	done
	return "$rc"
}

# alone_start NAME: a run of its own without a level (--two-node, --exact-profile): the folder
# (results/<date>-NAME unless --out), the default kernel's module built, meta.env begun
alone_start() {
	[ -n "$out" ] || out=$top/results/$(date +%Y%m%d-%H%M%S)-$1
	mkdir -p "$out"
	out=$(cd "$out" && pwd)
	ko=$top/drivers/ramlld.ko
	build_module
	{
		echo "command=${COMPARE_COMMAND:-$prog $args_line}"
		echo "clock=icount"
		echo "git=$(git -C "$top" rev-parse --short HEAD 2> /dev/null || echo none)"
		echo "host_started=$(date -u +%FT%TZ)"
	} > "$out/meta.env"
}

# alone_end STATUS: its end in meta.env, the report of the folder, exit STATUS
alone_end() {
	echo "host_ended=$(date -u +%FT%TZ)" >> "$out/meta.env"
	find_python
	"$py" "$here/report.py" "$out"
	echo "$prog: report: $out/report.md"
	exit "$1"
}

# run_two_node_only: --two-node without a level: the module built, the two-node cells, the
# report of the folder (its cost ladder's two-node column)
run_two_node_only() {
	local rc=0
	alone_start two-node
	run_two_node "$out" || rc=$?
	alone_end "$rc"
}

# run_one_guest: the matrix in one guest (the host's clock, a bench, --interleave, --perf-cell:
# what the exact clock's fan-out does not shard), then the knob guest when there is one, each
# output into OUT/run.log and OUT/run-knobs.log. Sets guest_rc and knob_rc.
run_one_guest() {
	local a qtxt k0
	local -a vm=("$top/tools/vm/run" --cpus "$cpus" --mem "$mem" --timeout "$tmo" --share "$out") qargs
	[ "$vm_clock" = 0 ] || vm+=(--clock "$clock")
	[ -z "$icount_shift" ] || vm+=(--icount-shift "$icount_shift")
	# What the selected targets need of QEMU (target_vm_args in their files: the emulated NVMe
	# controllers, backed by files in host RAM, /dev/shm, removed after the run)
	qtxt=$("$here/guest-run" --out "${TMPDIR:-/tmp}" --level "$level" "${kargs_plan[@]}" "${gargs[@]}" --print-vm-args "$vm_files") ||
		die "the targets' QEMU arguments (guest-run --print-vm-args) failed"
	mapfile -t qargs <<< "$qtxt"
	[ -n "$qtxt" ] || qargs=()
	for a in "${qargs[@]}"; do vm+=(--qemu-arg "$a"); done
	[ -z "$kernel" ] || vm+=(--kernel "$kernel")
	guest_rc=0
	"${vm[@]}" -- env COMPARE_TOP="$top" "$out/harness/guest-run" --out "$out" --level "$level" --ko "$ko" "${gargs[@]}" 2>&1 |
		tee "$out/run.log" || guest_rc=$?
	if [ "$guest_rc" = 3 ]; then
		stop "stopping: ramlld does not load in the guest: $(awk -F'\t' '$1 == "fail" && $2 == "ramlld" { r = $3 } END { print r }' "$out/notes.tsv" 2> /dev/null)"
	fi
	# the report says so: the targets after the cut are missing, not skipped
	[ "$guest_rc" = 0 ] || fanout_fail guest "$guest_rc" "the guest ended before guest-run did" \
		"the report holds what it wrote; targets and breakdowns after that point are missing"
	knob_rc=0
	[ "$knob_guest" = 1 ] || return 0
	vm=("$top/tools/vm/run" --cpus "$knob_cpus" --mem "$mem" --timeout "$knob_tmo" --share "$out" --clock "$clock")
	[ -z "$icount_shift" ] || vm+=(--icount-shift "$icount_shift")
	[ -z "$kernel" ] || vm+=(--kernel "$kernel")
	echo "knob_guest=$knob_cpus vCPUs in QEMU's default topology for -smp $knob_cpus, clock $clock${icount_shift:+ shift $icount_shift}" >> "$out/meta.env"
	k0=$(date +%s)
	"${vm[@]}" -- env COMPARE_TOP="$top" "$out/harness/guest-run" --out "$out" --level "$knob_level" --ko "$ko" \
		--knobs-only "${knob_gargs[@]}" 2>&1 | tee "$out/run-knobs.log" || knob_rc=$?
	echo "knob_guest_wall_s=$(($(date +%s) - k0))" >> "$out/meta.env"
	[ "$knob_rc" = 0 ] || fanout_fail knobs "$knob_rc" "the knob guest ($knob_cpus vCPUs) ended before its knob table was complete" \
		"the knob table holds what it wrote, or is missing"
}

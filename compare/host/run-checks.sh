# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/host/run-checks.sh: compare/run's options checked as a whole, --host's devices
# checked and the clock decided, before anything is built, booted or written; sourced by
# compare/run. Variables: compare/run's.

# The options as a whole, before anything is probed, built, booted or written: a pair that
# cannot mean anything together is refused, naming both.
# given_g OPT: OPT is among the options passed on to guest-run
given_g() {
	local a
	for a in "${gargs[@]}"; do [ "$a" != "$1" ] || return 0; done
	return 1
}
# conflict A B [WHY]: A and B were both given
conflict() { die "$1 and $2 exclude each other${3:+ ($3)}"; }
check_options() {
	# shellcheck disable=SC2086 # the level options given, one word each
	set -- $levels_given
	[ $# -le 1 ] || conflict "$1" "$2" "one level: --quick, --default or --full"
	! given_g --perf || ! given_g --no-perf || conflict --perf --no-perf
	! given_g --knobs || ! given_g --no-knobs || conflict --knobs --no-knobs
	! given_g --no-breakdown || ! given_g --breakdown-targets || conflict --no-breakdown --breakdown-targets
	! given_g --perf-passes || given_g --perf-cell || die "--perf-passes N goes with --perf-cell W/S (the runs of its section under perf)"
	[ "$destroy" = 0 ] || [ -n "$host_devs" ] || die "--destroy-data goes with --host DEV (the devices it may overwrite)"
	[ -z "$ledger_rows" ] || [ "$ledger" = 1 ] || die "--ledger-rows REGEX goes with --ledger"
	case $ledger_rw in
	'' | randread | randwrite) ;;
	*) die "--ledger-rw: bad value '$ledger_rw' (allowed: randread, randwrite)" ;;
	esac
	[ -z "$ledger_rw" ] || [ "$ledger" = 1 ] || die "--ledger-rw RW goes with --ledger"
	if [ -n "$ledger_stacks" ]; then
		[ "$ledger" = 1 ] || die "--ledger-stacks LIST goes with --ledger"
		stack_list --ledger-stacks "$ledger_stacks" "$("$here/ledger-guest" --list-stacks)" > /dev/null || exit 2
	fi
	if [ -n "$report_only" ]; then
		[ "$args_n" = $((${publish:+2} + 2)) ] ||
			die "--report DIR only writes the report of an earlier run: it takes no other option but --publish DOCS"
	fi
	if [ "$plan_only" = 1 ] && { [ -n "$kernels" ] || [ "$ledger" = 1 ]; }; then
		die "--plan prints the matrix a run would make: it does not go with --kernels, --ledger or --report"
	fi
	if [ -n "$host_devs" ]; then
		[ -z "$kernel" ] || conflict --host --kernel "--host runs on this machine's kernel"
		[ "$cpus_given" = 0 ] || conflict --host --cpus "--cpus shapes a guest"
		[ "$mem_given" = 0 ] || conflict --host --mem "--mem shapes a guest"
		[ "$no_build_given" = 0 ] || conflict --host --no-build "--host loads and builds nothing"
		[ "$wide" = 0 ] || conflict --host --wide "--wide widens a level of the exact clock, a guest's"
		[ "$ledger" = 0 ] || conflict --host --ledger "--ledger runs a guest"
	fi
	if [ "$wide" = 1 ]; then
		[ "$level" != full ] || die "--wide widens the exact quick or default level (--quick, or no level): not --full"
		[ "$sel" = 0 ] || die "--wide widens the exact level: a selection (--only, --targets, --profiles, --also-cells) already runs whole"
		[ -z "$bench" ] || conflict --wide --bench "a bench is its own selection"
		[ "$clock" != host ] || conflict --wide "--clock host" "the exact levels are the exact clock's"
	fi
	if [ "$ledger" = 1 ]; then
		[ -z "$levels_given" ] || conflict --ledger "${levels_given# }" "the ledger has its own rows"
		[ "$wide" = 0 ] || conflict --ledger --wide
	fi
	if [ "$ledger_profile" = 1 ]; then
		[ "$ledger" = 1 ] || die "--ledger-profile goes with --ledger"
		[ "$cpus_given" = 0 ] || [ "$cpus" = 1 ] ||
			conflict --ledger-profile "--cpus $cpus" "the profile counts per instruction on QEMU 7.2, one vCPU: the ledger's rows then need one too"
		[ "$clock" != host ] || conflict --ledger-profile "--clock host" "the ladder it explains is the exact clock's"
		[ -z "$icount_shift" ] || [ "$icount_shift" = 0 ] ||
			conflict --ledger-profile "--icount-shift $icount_shift" "the profile runs at 1 ns an instruction"
	fi
	[ -z "$bench" ] || [ -z "$kernels" ] || conflict --bench --kernels
	if [ "$exact_profile" = 1 ]; then
		[ -z "$host_devs" ] || conflict --host --exact-profile "the profile is guests of its own"
		[ -z "$kernel" ] || conflict --kernel --exact-profile "the profiled guests run the default kernel"
		[ -z "$kernels" ] || conflict --kernels --exact-profile
		[ "$ledger" = 0 ] || conflict --ledger --exact-profile
		[ -z "$two_node" ] || [ -n "$levels_given" ] || [ "$sel" = 1 ] || [ -n "$bench" ] ||
			die "--two-node and --exact-profile without a level each run alone: run them one after the other, or with a level"
	fi
	[ -z "$two_node_args" ] || [ -n "$two_node" ] || die "--two-node-args ARGS goes with --two-node STACKS"
	if [ -n "$two_node" ]; then
		local s have
		have="$("$here/two-node" --list-stacks) seed-002"
		for s in $two_node; do
			[[ " $have " == *" $s "* ]] || die "--two-node: bad value '$s' (allowed: a comma list of $have)"
		done
		[ -z "$host_devs" ] || conflict --host --two-node "the two nodes are two guests"
		[ -z "$kernel" ] || conflict --kernel --two-node "the two-node guests run the default kernel"
		[ -z "$kernels" ] || conflict --kernels --two-node
		[ "$ledger" = 0 ] || conflict --ledger --two-node
		[ "$clock" != host ] || conflict "--clock host" --two-node "per-side instructions need the exact clock"
		[ "$plan_only" = 0 ] || conflict --plan --two-node "--plan prints the matrix's guest"
	fi
}

# check_host_devs: --host's devices, before anything is planned or written. Safety first: named
# devices only, nothing with a signature unless --destroy-data.
check_host_devs() {
	local d b
	IFS=, read -r -a devs <<< "$host_devs"
	for d in "${devs[@]}"; do
		[ -b "$d" ] || [ -f "$d" ] || die "--host: '$d' is not a block device (nor a file)"
		if [ -b "$d" ]; then
			b=$(basename "$(readlink -f "$d")")
			if grep -q "^$(readlink -f "$d") \|^/dev/$b " /proc/mounts ||
				[ -n "$(ls -A "/sys/class/block/$b/holders" 2> /dev/null)" ]; then
				die "--host: '$d' is mounted or held by another device: refused"
			fi
			if [ -n "$(ls -d "/sys/class/block/$b/$b"[0-9p]* 2> /dev/null)" ] && [ "$destroy" = 0 ]; then
				die "--host: '$d' has partitions: refused (--destroy-data to overwrite)"
			fi
		fi
		if blkid -p "$d" > /dev/null 2>&1 && [ "$destroy" = 0 ]; then
			die "--host: '$d' holds a signature ($(blkid -p -o export "$d" | grep -E '^(TYPE|PTTYPE)=' | tr '\n' ' ')): refused (--destroy-data to overwrite)"
		fi
	done
}

# The clock, decided once from what the guest gets (tools/vm/run --print-accel: its cached probe
# guest): the instruction clock under TCG, the host's time under KVM (no instruction counting
# there) and on --host. clock_why says why, on every log line and report that names the clock.
decide_clock() {
	vm_clock=0
	"$top/tools/vm/run" --help | grep -q -- '--clock C' && vm_clock=1
	accel_line=''
	if [ -z "$host_devs" ] && [ "$plan_only" = 1 ]; then
		# --plan boots nothing, not even tools/vm/run's KVM probe (which fetches a kernel and
		# builds an initramfs first): its answer when this boot of the host has one (the file
		# tools/vm/run's probe_kvm keeps), else TCG's clock, saying so
		local probed kv
		kv=$("$top/tools/vm/kernel" --print-version ${kernel:+"$kernel"} 2> /dev/null) || kv=unknown
		probed=${TMPDIR:-/tmp}/ramlld-accel.$(cat /proc/sys/kernel/random/boot_id 2> /dev/null).$kv
		if [ ! -w /dev/kvm ]; then
			accel_line="tcg KVM unusable here: no writable /dev/kvm"
		elif [ "$(cat "$probed" 2> /dev/null)" = kvm ]; then
			accel_line="kvm KVM boots here"
		elif [ -f "$probed" ]; then
			accel_line="tcg KVM unusable here: a probe guest did not boot"
		else
			accel_line="tcg --plan boots no KVM probe: planned for TCG (--clock host plans KVM's)"
		fi
	elif [ -z "$host_devs" ]; then
		accel_line=$("$top/tools/vm/run" --print-accel ${kernel:+--kernel "$kernel"} 2> /dev/null) ||
			accel_line="tcg tools/vm/run --print-accel failed"
	fi
	case $clock in
	'')
		if [ -n "$host_devs" ]; then
			clock=host clock_why="--host: this machine's devices, its own time"
		elif [ "${accel_line%% *}" = kvm ]; then
			clock=host clock_why="${accel_line#* }: KVM counts no instructions"
		elif [ "$vm_clock" = 1 ]; then
			clock=icount clock_why=${accel_line#* }
		else
			clock=host clock_why="tools/vm/run has no --clock"
		fi
		;;
	icount)
		[ -z "$host_devs" ] || die "--clock icount needs a guest: it does not go with --host"
		[ "$vm_clock" = 1 ] || die "--clock icount: tools/vm/run has no --clock option (allowed here: host)"
		clock_why="asked: --clock icount"
		;;
	host) clock_why="asked: --clock host${accel_line:+; the guest gets ${accel_line%% *}}" ;;
	*) die "--clock: bad value '$clock' (allowed: icount host)" ;;
	esac
	if [ -n "$icount_shift" ]; then
		[ "$clock" = icount ] || die "--icount-shift goes with the exact clock (--clock icount), not with '$clock'"
		[[ $icount_shift =~ ^([0-9]|10)$ ]] || die "--icount-shift: bad value '$icount_shift' (allowed: 0-10)"
	fi
}

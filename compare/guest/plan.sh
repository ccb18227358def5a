# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/guest/plan.sh: the plan, sourced by compare/guest-run after its options: the
# selection checked against the targets, profiles and workloads, the cells each target runs
# (plan), the breakdown targets and the knob step; --print-plan, --print-targets,
# --print-vm-args and --check-only print it and exit. Runs nothing in a guest: compare/run
# plans on the host with it (guest-run --print-plan). Variables: compare/guest-run's.

# --nluns / --capacity-mb given: every workload runs at that shape (its "; shape:" is ignored)
shape_given=${nluns:+$nluns}${capacity_mb:+ $capacity_mb}
# --level-shape NxMIB: the level's devices, for the workloads without a "; shape:" of their own
# (theirs stay: compare/run's exact default level gives the cells that read one device one of 64
# MiB, and leaves the seeds their sizes)
if [ -n "$level_shape" ]; then
	[ -z "$shape_given" ] || die "--level-shape and --nluns/--capacity-mb exclude each other (--nluns and --capacity-mb set every workload's devices, --level-shape those without a shape of their own)"
	[[ $level_shape =~ ^([1-9][0-9]*)x([1-9][0-9]*)$ ]] ||
		die "--level-shape: bad value '$level_shape' (allowed: NLUNSxMIB, e.g. 1x64)"
	nluns=${BASH_REMATCH[1]} capacity_mb=${BASH_REMATCH[2]}
fi
case $level in
quick) : "${perf:=1}" "${repeats:=2}" "${runtime:=1}" "${ramp:=0}" "${nluns:=2}" "${capacity_mb:=64}" ;;
default) : "${perf:=1}" "${repeats:=3}" "${nluns:=4}" "${capacity_mb:=128}" "${runtime:=5}" "${ramp:=1}" ;;
full) : "${perf:=1}" "${repeats:=5}" "${nluns:=4}" "${capacity_mb:=128}" "${runtime:=20}" "${ramp:=2}" ;;
*) die "--level: bad value '$level' (allowed: quick default full)" ;;
esac
# a run's length: whole seconds or milliseconds ("250ms": fio's own unit), then NAME=LENGTH for a
# workload's or a target's cells of another (runtime_of); runtime_spec, the whole value; runtime the
# first, runtime_s it in whole seconds rounded up (the breakdown's run, the ETA)
runtime_spec=$runtime
declare -A runtime_of=()
IFS=, read -r runtime rt_rest <<< "$runtime_spec"
rt_bad="--runtime: bad value '$runtime_spec' (allowed: seconds >= 1, or milliseconds as NNNms, e.g. 250ms, then NAME=LENGTH,... for a workload's or a target's cells of another length, e.g. 500ms,ladder=1)"
[[ $runtime =~ ^[1-9][0-9]*(ms)?$ ]] || die "$rt_bad"
IFS=, read -r -a rt_parts <<< "$rt_rest"
for v in "${rt_parts[@]}"; do
	if ! [[ $v =~ ^([a-z0-9-]+)=([1-9][0-9]*(ms)?)$ ]] ||
		{ [ ! -f "$here/workloads/${BASH_REMATCH[1]}.fio" ] && [ -z "${T_LOAD[${BASH_REMATCH[1]}]:-}" ]; }; then
		die "$rt_bad: '$v' is not NAME=LENGTH of a workload in compare/workloads or a target"
	fi
	runtime_of[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
done
runtime_s=$runtime
[[ $runtime != *ms ]] || runtime_s=$(((${runtime%ms} + 999) / 1000))
for v in repeats nluns capacity_mb depth perf_passes; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "--${v//_/-}: bad value '${!v}' (allowed: a whole number >= 1)"
done
[[ $ramp =~ ^[0-9]+$ ]] || die "--ramp: bad value '$ramp' (allowed: seconds >= 0)"

# Targets, profiles and workloads, checked against what exists.
check_targets() { # OPTION TARGET...
	local opt=$1 t
	shift
	for t in "$@"; do
		[ "${T_GROUP[$t]:-}" != host ] || die "$opt: '$t' is the devices of --host-devs (compare/run --host), not a target to name"
		[[ " ${SELECTABLE[*]} " == *" $t "* ]] || die "$opt: bad value '$t' (allowed: ${SELECTABLE[*]})"
	done
}
check_profiles() { # OPTION PROFILE...
	local opt=$1 p
	shift
	for p in "$@"; do
		[ -f "$here/profiles/$p" ] || die "$opt: bad value '$p' (allowed: $(cd "$here/profiles" && echo *))"
	done
}
if [ -n "$host_devs" ]; then
	[ -z "$targets" ] || die "--targets and --host-devs exclude each other"
	[ ${#also_specs[@]} -eq 0 ] || die "--also-cells and --host-devs exclude each other"
	tlist=(host)
else
	[ -z "$targets" ] || targets=$(target_names "$prog" --targets "$targets")
	IFS=', ' read -r -a tlist <<< "${targets:-$(level_targets "$level" | tr '\n' ' ')}"
	check_targets --targets "${tlist[@]}"
fi
plist=()
if [ -n "$profiles" ]; then
	IFS=', ' read -r -a plist <<< "$profiles"
	check_profiles --profiles "${plist[@]}"
fi
# --also-cells (each given, a group): its targets, profiles and --only items (checked with the
# workloads below); its targets join the selection (tlist) after the selection's own
also_t=() also_p=() also_o=() also_groups=()
sel_targets=("${tlist[@]}")
for also_spec in "${also_specs[@]}"; do
	IFS=: read -r a_t a_p a_o a_x <<< "$also_spec"
	[[ -n $a_t && -n $a_p && -n $a_o && -z $a_x ]] ||
		die "--also-cells: bad value '$also_spec' (allowed: TARGETS:PROFILES:ONLY, each a comma list as --targets, --profiles and --only take)"
	IFS=', ' read -r -a g_t <<< "$a_t"
	IFS=', ' read -r -a g_p <<< "$a_p"
	IFS=', ' read -r -a g_o <<< "$a_o"
	check_targets --also-cells "${g_t[@]}"
	check_profiles --also-cells "${g_p[@]}"
	also_t+=("${g_t[@]}") also_p+=("${g_p[@]}") also_o+=("${g_o[@]}")
	also_groups+=("$a_t:$a_p:$a_o")
	for t in "${g_t[@]}"; do [[ " ${tlist[*]} " == *" $t "* ]] || tlist+=("$t"); done
done
# Each selected target's "# needs:" against the kernel: decided for --kernel-release and
# --modules-root (compare/run's plan on the host, which prints the skips before booting), else
# when running, for the running kernel (a plan alone, without them, names no kernel: it skips
# nothing). A target whose needs are not met leaves the selection; SKIP_NEED[T] says why.
decide_needs=1
[ -n "$needs_kver" ] || [ -z "$print_what$check_only" ] || decide_needs=0
: "${needs_kver:=$(uname -r)}" "${needs_root:=/}"
declare -A SKIP_NEED=()
kept=()
for t in "${tlist[@]}"; do
	[ "$decide_needs" = 1 ] || { kept+=("$t"); continue; }
	r=$(unmet_need "$t")
	if [ -n "$r" ]; then SKIP_NEED[$t]=$r; else kept+=("$t"); fi
done
tlist=("${kept[@]}")

# The targets that get the breakdown (in the matrix's last round): --breakdown-targets, else
# every selected one, but at quick without --targets only ramlld's paths and the stacks over
# them (the cost ladder's breakdown, compare/sections/ladder.py)
bd_targets=()
if [ -n "$bd_targets_arg" ]; then
	IFS=', ' read -r -a bd_targets <<< "$bd_targets_arg"
	for t in "${bd_targets[@]}"; do
		[ -z "${SKIP_NEED[$t]:-}" ] || continue
		if [[ " ${tlist[*]} " != *" $t "* ]] || [ "${T_GROUP[$t]}" = host ]; then
			die "--breakdown-targets: bad value '$t' (allowed: the selected targets: ${tlist[*]})"
		fi
	done
else
	for t in "${tlist[@]}"; do
		[ "${T_GROUP[$t]}" != host ] || continue
		if [ "$level" != quick ] || [ -n "$targets" ] || [ "${T_GROUP[$t]}" = ramlld ] ||
			[ "${T_GROUP[$t]}" = stack ]; then
			bd_targets+=("$t")
		fi
	done
fi
kept=()
for t in "${bd_targets[@]}"; do [ -n "${SKIP_NEED[$t]:-}" ] || kept+=("$t"); done
bd_targets=("${kept[@]}")
# the breakdown's profile: default, unless --profiles leaves it out
bd_profile=default
[ ${#plist[@]} -eq 0 ] || [[ " ${plist[*]} " == *" default "* ]] || bd_profile=${plist[0]}
wlist=()
for w in "$here"/workloads/*.fio; do wlist+=("$(basename "$w" .fio)"); done
check_only() { # OPTION ITEM...
	local opt=$1 o w
	shift
	for o in "$@"; do
		w=${o%%/*}
		[ -f "$here/workloads/$w.fio" ] || die "$opt: bad value '$o' (allowed workloads: ${wlist[*]}, or WORKLOAD/SECTION; see --list)"
		if [ "$w" != "$o" ] && [ "$o" != seed-001/dd ]; then # dd: tools/percpu-load, not fio
			workload_sections "$here/workloads/$w.fio" | grep -qx "${o#*/}" ||
				die "$opt: bad section '${o#*/}' of $w (allowed: $(workload_sections "$here/workloads/$w.fio" | tr '\n' ' '))"
		fi
	done
}
only_items=()
if [ -n "$only" ]; then
	IFS=', ' read -r -a only_items <<< "$only"
	check_only --only "${only_items[@]}"
fi
[ ${#also_o[@]} -eq 0 ] || check_only --also-cells "${also_o[@]}"

# Each workload's header and sections, read once with builtins (every exec costs in a TCG guest).
# "; one-run: yes": the selected sections run as one fio invocation (stonewalled sections, each
# with the hooks that write its .cpu file), split into each section's rN.json after: a TCG guest
# spends seconds starting fio, longer than a short section runs. "; shape: NLUNS CAPACITY_MB":
# the devices the workload runs on (the seeds' own sizes; "; quick-shape:" at the quick level);
# without one, or with --nluns/--capacity-mb given, the level's. "; targets: GLOBS" (every
# profile) and "; targets PROFILE: GLOBS" (that one): see target_skips.
declare -A W_SECTIONS W_PROFILES W_QPROFILES W_QUICK W_DEFAULT W_TARGETS W_SHAPE W_ONERUN
for w in "${wlist[@]}"; do
	f=$here/workloads/$w.fio
	declare -A hdr=()
	W_SECTIONS[$w]=
	while IFS= read -r line; do
		if [[ $line =~ ^\[([^]]*)\] ]]; then
			[ "${BASH_REMATCH[1]}" = global ] || W_SECTIONS[$w]+="${BASH_REMATCH[1]} "
		elif [[ $line =~ ^\;\ targets(\ ([^:]+))?:\ *(.*)$ ]]; then
			W_TARGETS["$w@${BASH_REMATCH[2]}"]=${BASH_REMATCH[3]}
		elif [[ $line =~ ^\;\ ([a-z-]+):\ *(.*)$ ]]; then
			[ -n "${hdr[${BASH_REMATCH[1]}]+set}" ] || hdr[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
		fi
	done < "$f"
	W_PROFILES[$w]=${hdr[profiles]:-}
	W_QPROFILES[$w]=${hdr[quick-profiles]:-}
	W_QUICK[$w]=${hdr[quick]:-}
	W_DEFAULT[$w]=${hdr[default]:-}
	W_ONERUN[$w]=${hdr[one-run]:-}
	W_SHAPE[$w]="$nluns $capacity_mb"
	if [ -z "$shape_given" ]; then
		sh=${hdr[shape]:-}
		[ "$level" != quick ] || sh=${hdr[quick-shape]:-}
		[ -z "$sh" ] || W_SHAPE[$w]=$sh
	fi
	[[ ${W_SHAPE[$w]} =~ ^[1-9][0-9]*\ [1-9][0-9]*$ ]] ||
		die "workloads/$w.fio: bad shape '${W_SHAPE[$w]}' (allowed: '; shape: NLUNS CAPACITY_MB')"
	unset hdr
done
# --perf-cell WORKLOAD/SECTION: a section of a one-run workload (its sections are whole passes
# over the device, so a pass under perf is the run it profiles)
if [ -n "$perf_cell" ]; then
	pw=${perf_cell%%/*} ps=${perf_cell#*/}
	{ [ "$pw" != "$perf_cell" ] && [ -n "${W_ONERUN[$pw]:-}" ]; } ||
		die "--perf-cell: bad value '$perf_cell' (allowed: WORKLOAD/SECTION of a one-run workload: $(for w in "${wlist[@]}"; do [ -z "${W_ONERUN[$w]}" ] || echo "$w"; done | paste -sd ' '))"
	[[ " ${W_SECTIONS[$pw]} " == *" $ps "* ]] ||
		die "--perf-cell: bad section '$ps' of $pw (allowed: ${W_SECTIONS[$pw]% })"
fi

# target_skips TARGET WORKLOAD PROFILE: below --full (and unless --targets or --all-sections
# widen the run) a workload runs only on the targets its "; targets" headers allow (globs): the
# seed workloads on ramlld's paths, the references on the cells the report compares them on.
target_skips() {
	local pat globs
	[ "$level" != full ] && [ -z "$targets" ] && [ -z "$all_sections" ] || return 1
	for globs in "${W_TARGETS[$2@]:-}" "${W_TARGETS[$2@$3]:-}"; do
		[ -n "$globs" ] || continue
		for pat in $globs; do
			# shellcheck disable=SC2053 # a glob on purpose
			[[ $1 == $pat ]] && continue 2
		done
		return 0
	done
	return 1
}

# selected_sections WORKLOAD: the sections selected for it, into SEL_SECTIONS (space separated;
# a variable, not a subshell's output: plan_cells asks it for every target, shape and profile)
selected_sections() {
	local w=$1 s o quick keep
	quick=${W_QUICK[$w]}
	SEL_SECTIONS=
	for s in ${W_SECTIONS[$w]}; do
		if [ ${#only_items[@]} -gt 0 ]; then
			keep=
			for o in "${only_items[@]}"; do
				[ "$o" = "$w" ] || [ "$o" = "$w/$s" ] && keep=1
			done
			[ -n "$keep" ] || continue
			# named explicitly: runs even when quick would drop it
			[[ " ${only_items[*]} " == *" $w/$s "* ]] && { SEL_SECTIONS+="$s "; continue; }
		fi
		if [ "$level" = quick ] && [ -z "$all_sections" ] && [ -n "$quick" ]; then
			[[ " $quick " == *" $s "* ]] || continue
		fi
		# "; default: SECTIONS": the default level's selection (the rest runs at --full)
		if [ "$level" = default ] && [ -z "$all_sections" ] && [ -n "${W_DEFAULT[$w]}" ]; then
			[[ " ${W_DEFAULT[$w]} " == *" $s "* ]] || continue
		fi
		SEL_SECTIONS+="$s "
	done
}
# selected_profiles WORKLOAD: its profiles, into SEL_PROFILES
selected_profiles() {
	local qp=${W_QPROFILES[$1]}
	if [ ${#plist[@]} -gt 0 ]; then
		SEL_PROFILES=${plist[*]}
	elif [ "$level" = quick ] && [ -n "$qp" ]; then
		SEL_PROFILES=$qp
	else
		SEL_PROFILES=${W_PROFILES[$1]}
	fi
}

# Profiles in a fixed order (default first), so that each target changes profile few times.
porder=()
if [ ${#plist[@]} -gt 0 ]; then
	porder=("${plist[@]}")
else
	for w in "${wlist[@]}"; do
		for p in ${W_PROFILES[$w]}; do
			[[ " ${porder[*]} " == *" $p "* ]] || porder+=("$p")
		done
	done
fi
# Shapes in run order: the seeds' own first, the level's last (the breakdown runs on it), so
# that each target is set up once per shape.
shapes=()
for w in "${wlist[@]}"; do
	[ "${W_SHAPE[$w]}" = "$nluns $capacity_mb" ] || [[ " ${shapes[*]/ /x} " == *" ${W_SHAPE[$w]/ /x} "* ]] ||
		shapes+=("${W_SHAPE[$w]}")
done
shapes+=("$nluns $capacity_mb")
# plan_cells TARGET...: append to plan the selection's cells on these targets (the selection:
# the globals targets, plist, porder and only_items)
plan_cells() {
	local t shape p w o sel secs one s
	for t in "$@"; do
	[ -z "${SKIP_NEED[$t]:-}" ] || continue
	for shape in "${shapes[@]}"; do
		for p in "${porder[@]}"; do
			for w in "${wlist[@]}"; do
				[ "${W_SHAPE[$w]}" = "$shape" ] || continue
				if [ ${#only_items[@]} -gt 0 ]; then
					sel=
					for o in "${only_items[@]}"; do [ "${o%%/*}" = "$w" ] && sel=1; done
					[ -n "$sel" ] || continue
				fi
				selected_profiles "$w"
				[[ " $SEL_PROFILES " == *" $p "* ]] || continue
				target_skips "$t" "$w" "$p" && continue
				selected_sections "$w"
				secs=${SEL_SECTIONS% }
				if [ -x "$top/tools/percpu-load" ] && [ "$w" = seed-001 ] && [ "${T_GROUP[$t]}" != host ] &&
					{ [ ${#only_items[@]} -eq 0 ] || [[ " ${only_items[*]} " == *" seed-001 "* ]] ||
						[[ " ${only_items[*]} " == *" seed-001/dd "* ]]; }; then
					secs="$secs dd"
				fi
				if [ -n "${W_ONERUN[$w]}" ] && [ -n "$secs" ]; then
					read -r -d '' -a one <<< "$secs" || true
					secs=$(IFS=,; echo "${one[*]}") # one plan entry: the sections, comma separated
				fi
				for s in $secs; do plan+=("$t $p $w $s ${shape/ /x}"); done
			done
		done
	done
	done
}
plan=()
plan_cells "${sel_targets[@]}"
if [ ${#also_groups[@]} -gt 0 ]; then
	# each --also-cells group's cells, then every target's cells together: its own first, then
	# the groups' in the order given
	own=("${plan[@]}")
	also=()
	s_targets=$targets s_plist=("${plist[@]}") s_porder=("${porder[@]}") s_only=("${only_items[@]}")
	for g in "${also_groups[@]}"; do
		IFS=: read -r a_t a_p a_o <<< "$g"
		IFS=', ' read -r -a g_t <<< "$a_t"
		IFS=', ' read -r -a plist <<< "$a_p"
		IFS=', ' read -r -a only_items <<< "$a_o"
		targets=${g_t[*]} porder=("${plist[@]}")
		plan=()
		plan_cells "${g_t[@]}"
		also+=("${plan[@]}")
	done
	targets=$s_targets plist=("${s_plist[@]}") porder=("${s_porder[@]}") only_items=("${s_only[@]}")
	plan=()
	declare -A in_plan=()
	for t in "${tlist[@]}"; do
		for c in "${own[@]}" "${also[@]}"; do
			[[ ${c%% *} == "$t" && -z ${in_plan[$c]:-} ]] || continue
			plan+=("$c")
			in_plan[$c]=1
		done
	done
fi
# --cells FILE (compare/run's shards): only the plan's cells that FILE lists ("TARGET PROFILE
# WORKLOAD SECTION SHAPE" a line, as --print-plan's "cell" lines), the plan decided whole first so
# that a shard runs each cell exactly as the whole run would; the selection narrows to their
# targets, the breakdown to those among them
if [ -n "$cells_file" ]; then
	[ -r "$cells_file" ] || die "--cells: no file '$cells_file'"
	declare -A in_shard=()
	while read -r line; do [ -z "$line" ] || in_shard[$line]=1; done < "$cells_file"
	kept=()
	for c in "${plan[@]}"; do [ -z "${in_shard[$c]:-}" ] || kept+=("$c"); done
	[ ${#kept[@]} = ${#in_shard[@]} ] ||
		die "--cells: $((${#in_shard[@]} - ${#kept[@]})) of the cells in '$cells_file' are not in the plan (allowed: --print-plan's cell lines)"
	plan=("${kept[@]}")
	kept=()
	for t in "${tlist[@]}"; do [[ " ${plan[*]%% *} " != *" $t "* ]] || kept+=("$t"); done
	tlist=("${kept[@]}")
	kept=()
	for t in "${bd_targets[@]}"; do [[ " ${tlist[*]} " != *" $t "* ]] || kept+=("$t"); done
	bd_targets=("${kept[@]}")
fi
# a cell's 4th field lists its fio job sections (a block-size sweep has 13), each a result of
# its own (one-run workloads run theirs in one fio invocation)
total=0
for c in "${plan[@]}"; do
	read -r _ _ _ s _ <<< "$c"
	IFS=, read -ra cell_sections <<< "$s"
	total=$((total + ${#cell_sections[@]} * repeats))
done
[ "$total" -gt 0 ] || [ ${#SKIP_NEED[@]} -gt 0 ] || die "nothing to run: the selection (--only/--targets/--profiles) is empty"
# skip_lines: one "skip TARGET REASON" line a target whose needs this kernel does not meet
skip_lines() {
	local t
	for t in "${ALL_TARGETS[@]}"; do [ -z "${SKIP_NEED[$t]:-}" ] || echo "skip $t ${SKIP_NEED[$t]}"; done
}
# the knob table: a whole level runs it unless --no-knobs; a selection only with --knobs
if [ -z "$knobs" ]; then
	knobs=0
	[ -n "$only$targets$profiles$host_devs" ] || knobs=1
fi
if [ "$knobs_only" = 1 ]; then
	[ -z "$host_devs" ] || die "--knobs-only loads ramlld: it does not go with --host-devs"
	knobs=1
fi
# the knob step's settings (compare/knobs.py): quick, 4 dd per CPU and QD32 once; else 20 dd
# per CPU and QD32 twice (2 h 40 min of exact-clock guest here: docs/knobs.md)
if [ "$level" = quick ]; then kargs=(--runtime 1 --repeats 1 --procs-per-cpu 4 --workloads "dd,qd32"); else
	kargs=(--runtime 2 --repeats 2 --procs-per-cpu 20 --workloads "dd,qd32"); fi
[ -z "$knob_args" ] || read -r -a kargs <<< "$knob_args"
# needs_ramlld: the run loads ramlld (a target of its group, a stack over it, the knob table)
needs_ramlld=0
[ "$knobs" = 0 ] || needs_ramlld=1
for t in "${tlist[@]}"; do
	[ "${T_GROUP[$t]}" != ramlld ] && [[ ${T_LOAD[$t]} != stack-* ]] || needs_ramlld=1
done
# shellcheck source=compare/guest/plan-print.sh
source "$here/guest/plan-print.sh"

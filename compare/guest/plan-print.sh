# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/guest/plan-print.sh: what --print-plan, --print-targets, --print-vm-args and --check-only
# print of the plan compare/guest/plan.sh made, each then exiting; sourced at its end.

case $print_what in
targets) echo "${tlist[*]}"; exit 0 ;;
plan)
	if [ "$knobs_only" = 1 ]; then
		echo "knobs 1"
		echo "knob-step ${kargs[*]}"
		echo "knob-runs $(python3 "$here/knobs.py" --count "${kargs[@]}")"
		echo "needs-ramlld 1"
		exit 0
	fi
	skip_lines
	for e in "${plan[@]}"; do echo "cell $e"; done
	echo "level $level"
	echo "runs $total"
	echo "repeats $repeats"
	echo "runtime $runtime_spec"
	echo "ramp $ramp"
	echo "shape ${shapes[-1]}"
	if [ "$breakdown" = 1 ]; then echo "breakdown ${bd_targets[*]}"; else echo "breakdown"; fi
	echo "knobs $knobs"
	if [ "$knobs" = 1 ]; then
		echo "knob-step ${kargs[*]}"
		echo "knob-runs $(python3 "$here/knobs.py" --count "${kargs[@]}")"
	fi
	echo "needs-ramlld $needs_ramlld"
	exit 0
	;;
vm-args)
	[ -d "$vm_args_dir" ] || die "--print-vm-args: no folder '$vm_args_dir'"
	for t in "${tlist[@]}"; do
		(
			use_target "$t"
			if declare -F target_vm_args > /dev/null; then
				target_vm_args "$vm_args_dir" || die "$t: target_vm_args failed"
			fi
		) || exit 2
	done
	exit 0
	;;
esac
if [ -n "$check_only" ] && [ "$knobs_only" = 1 ]; then
	echo "$prog: the knob table only (compare/knobs.py ${kargs[*]})"
	exit 0
elif [ -n "$check_only" ]; then
	skip_lines | sed "s|^|$prog: |"
	echo "$prog: $total fio runs planned (${#tlist[@]} targets, repeats $repeats, ${runtime%s}s each)"
	exit 0
fi

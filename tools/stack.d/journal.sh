# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154 # the tables and state are tools/stack's
# tools/stack.d/journal.sh: sourced by tools/stack: up's steps, each counted and journalled
# with its undo; down (or a failed up) runs the journal backwards and unloads what up loaded.

step_no=0
sdir=

# step DESC CMD...: one change made by up; counted, so that RAMLLD_STACK_FAIL_AT=N fails step N.
step() {
	local desc=$1 out='' r=0
	shift
	step_no=$((step_no + 1))
	if [ "${RAMLLD_STACK_FAIL_AT:-}" = "$step_no" ]; then
		die "step $step_no ($desc): failure injected (RAMLLD_STACK_FAIL_AT=$step_no)"
	fi
	# no command substitution: in a TCG guest every fork counts
	"$@" > "$sdir/step.out" 2>&1 || r=$?
	IFS= read -r -d '' out < "$sdir/step.out" || true
	out=${out%$'\n'}
	[ "$r" -eq 0 ] || die "step $step_no ($desc) failed (exit $r)${out:+: $out}"
	[ -z "$out" ] || printf '%s\n' "$out" >&2
}

# undo CMD...: record CMD to be run (last recorded first) by down, or when up fails.
undo() {
	printf '%q ' "$@" >> "$sdir/undo"
	echo >> "$sdir/undo"
}

# mkd DIR: mkdir one configfs directory, undone by rmdir.
mkd() {
	step "mkdir $1" mkdir "$1"
	undo rmdir "$1"
}

# put FILE VALUE: write VALUE into a configfs or sysfs attribute (no undo: its directory goes).
put() {
	step "echo $2 > $1" write_attr "$1" "$2"
}

write_attr() {
	printf '%s\n' "$2" > "$1"
}

# load MOD [PARAM...]: modprobe MOD unless loaded. Which modules up loaded (with whatever they
# pulled in) is worked out from /proc/modules; down unloads exactly those.
load() {
	[ -d "/sys/module/${1//-/_}" ] && return 0
	step "modprobe $*" modprobe "$@"
}

loaded_modules() {
	awk '{ print $1 }' /proc/modules | sort
}

# wait_for GLOB WHAT: wait until a path matching GLOB exists; prints the first one.
wait_for() {
	local g=$1 i p
	for ((i = 0; i < wait_s * 10; i++)); do
		for p in $g; do
			[ -e "$p" ] && { echo "$p"; return 0; }
		done
		sleep 0.1
	done
	die "$2 did not appear within $wait_s s ($g)"
}

# run_undo DIR: run DIR's undo journal backwards, then unload the modules up loaded.
run_undo() {
	local d=$1 line errs=0 left m progress i failed=()
	if [ -f "$d/undo" ]; then
		while IFS= read -r line; do
			eval "$line" > /dev/null 2>&1 && continue
			# configfs and sessions release asynchronously: try once more after a pause
			sleep 1
			eval "$line" > "$d/undo.err" 2>&1 && continue
			msg "undo failed: $line: $(cat "$d/undo.err")"
			failed=("$line" "${failed[@]}")
		done < <(tac "$d/undo")
		# keep only what failed, so that down can retry it
		printf '%s\n' "${failed[@]}" > "$d/undo"
		errs=${#failed[@]}
	fi
	if [ -f "$d/modules.before" ]; then
		loaded_modules > "$d/modules.after"
		mapfile -t left < <(comm -13 "$d/modules.before" "$d/modules.after")
		for ((i = 0; i < 40 && ${#left[@]} > 0; i++)); do
			progress=()
			for m in "${left[@]}"; do
				[ -d "/sys/module/$m" ] || continue
				rmmod "$m" 2> /dev/null || progress+=("$m")
			done
			[ ${#progress[@]} -eq ${#left[@]} ] && sleep 0.25
			left=("${progress[@]}")
		done
		if [ ${#left[@]} -gt 0 ]; then
			msg "could not unload module(s) ${left[*]} (still in use)"
			errs=$((errs + 1))
		fi
	fi
	if [ "$errs" -eq 0 ]; then
		rm -rf "$d"
	else
		msg "$errs undo step(s) failed; what is left is listed in $d (down again retries)"
		return 1
	fi
}

# ------------------------------------------------------------------ common building blocks

need_configfs() {
	if ! mountpoint -q "$cfs"; then
		load configfs
		step "mount configfs" mount -t configfs configfs "$cfs"
		undo umount "$cfs"
	fi
}

need_lo() {
	# bringing lo up is not undone: other users may rely on it once it is up
	local flags
	read -r flags < /sys/class/net/lo/flags
	if [ $((flags & 1)) -eq 0 ]; then # IFF_UP
		step "ip link set lo up" ip link set lo up
	fi
}

# fabric_dir DIR: make a LIO or nvmet fabric's top directory when it is not there yet.
fabric_dir() {
	[ -d "$1" ] && return 0
	mkd "$1"
}

# SPDX-License-Identifier: GPL-2.0
# tests/runner/guest-state.bash: what a guest test may leave behind, and undoing it.
# Sourced by tests/run (its globals: TOP, prog, out, in_vm, stretch, timeout_scale...).
# shellcheck shell=bash disable=SC2154,SC2034 # the globals are tests/run's

# Modules that a test loads and must unload (the runner checks after each guest test).
device_modules='^(ramlld|brd|null_blk|scsi_debug|tcm_loop|target_core_[a-z]+|nvmet|nvmet_tcp|nvme_tcp|nvme_fabrics|loop)$'

# loaded_modules: the names in /proc/modules, one a line.
loaded_modules() {
	local name rest
	[ -r /proc/modules ] || return 0
	while read -r name rest; do
		echo "$name"
	done < /proc/modules
}

# guest_state: what a guest test may leave behind, one "KIND ITEM" a line: configfs items that
# mkdir makes (not the kernel's default groups), iSCSI sessions, attached loop devices, dm
# devices, tools/stack stacks, mounts (by mount ID) and, in a guest, processes other than
# kernel threads and this runner. Bash built-ins only: it runs twice per test, and in a TCG
# guest every program started costs a good fraction of a second.
guest_state() {
	local f p stat id mp
	for f in /sys/kernel/config/{ramlld,nullb,target}/*/ /sys/kernel/config/{target,nvmet}/*/*/; do
		[ -d "$f" ] || continue
		f=${f%/}
		case $f in /sys/kernel/config/target/core | /sys/kernel/config/target/core/alua) continue ;; esac
		echo "configfs $f"
	done
	for f in /sys/class/iscsi_session/*; do
		[ -e "$f" ] && echo "iscsi-session ${f##*/}"
	done
	for f in /sys/block/loop*/loop/backing_file; do
		[ -e "$f" ] || continue
		f=${f#/sys/block/}
		echo "loop /dev/${f%%/*}"
	done
	for f in /sys/block/dm-*; do
		[ -e "$f" ] && echo "dm ${f##*/}"
	done
	for f in /run/ramlld-stack/*; do
		[ -d "$f" ] && echo "stack ${f##*/}"
	done
	while read -r id _ _ _ mp _; do
		echo "mount $id $mp"
	done < /proc/self/mountinfo
	[ -n "$in_vm" ] || return 0
	for p in /proc/[0-9]*; do
		p=${p#/proc/}
		case $p in "$$" | "$BASHPID" | 1 | 2) continue ;; esac
		read -r stat < "/proc/$p/stat" 2> /dev/null || continue
		# after "PID (comm) ": the state, then the parent; kernel threads are kthreadd's (2)
		stat=${stat##*) }
		[[ $stat == Z* || $stat == ?' 2 '* ]] && continue
		echo "process $p"
	done
}

# left_behind BEFORE AFTER: the lines of AFTER (guest_state) not in BEFORE, for a log.
left_behind() {
	local line p cmd
	declare -A had=()
	while IFS= read -r line; do
		had[$line]=1
	done <<< "$1"
	while IFS= read -r line; do
		if [ -z "$line" ] || [ -n "${had[$line]:-}" ]; then
			continue
		fi
		case $line in
		process\ *)
			p=${line#process }
			cmd=$(tr '\0' ' ' < "/proc/$p/cmdline" 2> /dev/null || true)
			echo "$line (${cmd% })"
			;;
		mount\ *) echo "mount ${line#mount * }" ;;
		*) echo "$line" ;;
		esac
	done <<< "$2"
}

# restore_guest LOG LEFT MODULES: undo what a test left (LEFT: left_behind's lines, MODULES:
# the device modules it left loaded), logging each step in LOG: its stacks down, iSCSI logged
# out, processes killed, mounts unmounted, loop and dm devices removed, configfs items removed
# (links, then folders deepest first), modules unloaded in dependency order.
restore_guest() {
	local log=$1 left=$2 mods=$3 line kind item pids=() mounts=() i m progress
	echo "---- undoing it" >> "$log"
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		kind=${line%% *} item=${line#* }
		case $kind in
		stack) timeout 120 "$TOP/tools/stack" down "$item" >> "$log" 2>&1 || echo "tools/stack down $item failed" >> "$log" ;;
		process) pids+=("${item%% *}") ;;
		mount) mounts=("${item}" "${mounts[@]+"${mounts[@]}"}") ;;
		esac
	done <<< "$left"
	if [[ $left == *iscsi-session* ]]; then
		timeout 60 iscsiadm -m node -U all >> "$log" 2>&1 || echo "iscsiadm logout failed" >> "$log"
	fi
	if [ ${#pids[@]} -gt 0 ]; then
		echo "kill ${pids[*]}" >> "$log"
		kill -TERM "${pids[@]}" 2> /dev/null || true
		for ((i = 0; i < 50; i++)); do
			kill -0 "${pids[@]}" 2> /dev/null || break
			read -r -t 0.2 -u "$never_fd" || true
		done
		kill -KILL "${pids[@]}" 2> /dev/null || true
		for ((i = 0; i < 50; i++)); do
			kill -0 "${pids[@]}" 2> /dev/null || break
			read -r -t 0.2 -u "$never_fd" || true
		done
	fi
	for m in "${mounts[@]+"${mounts[@]}"}"; do
		# mountinfo escapes a space as \040 and so on
		printf -v m '%b' "$m"
		timeout 60 umount "$m" >> "$log" 2>&1 && echo "umount $m" >> "$log" || echo "umount $m failed" >> "$log"
	done
	while IFS= read -r line; do
		kind=${line%% *} item=${line#* }
		case $kind in
		loop) timeout 60 losetup -d "$item" >> "$log" 2>&1 && echo "losetup -d $item" >> "$log" || echo "losetup -d $item failed" >> "$log" ;;
		dm)
			m=$(cat "/sys/block/$item/dm/name" 2> /dev/null || echo "$item")
			timeout 60 dmsetup remove "$m" >> "$log" 2>&1 && echo "dmsetup remove $m" >> "$log" || echo "dmsetup remove $m failed" >> "$log"
			;;
		esac
	done <<< "$left"
	while IFS= read -r line; do
		[ "${line%% *}" = configfs ] || continue
		item=${line#* }
		[ -e "$item" ] || continue
		find "$item" -type l -delete 2>> "$log" || true
		# a default group cannot be removed (EPERM): it goes with the folder made above it
		for i in 1 2 3; do
			find "$item" -depth -type d -exec rmdir {} + 2> /dev/null || true
			[ -e "$item" ] || break
		done
		if [ -e "$item" ]; then echo "rmdir $item failed" >> "$log"; else echo "rmdir $item" >> "$log"; fi
	done <<< "$left"
	# modules: those no other module holds first, again until none goes
	read -r -a mods <<< "$mods"
	for ((i = 0; i < 10 && ${#mods[@]} > 0; i++)); do
		progress=()
		for m in "${mods[@]}"; do
			[ -d "/sys/module/$m" ] || continue
			if rmmod "$m" 2> /dev/null; then echo "rmmod $m" >> "$log"; else progress+=("$m"); fi
		done
		[ ${#progress[@]} -lt ${#mods[@]} ] || read -r -t 0.5 -u "$never_fd" || true
		mods=("${progress[@]+"${progress[@]}"}")
	done
	for m in "${mods[@]+"${mods[@]}"}"; do
		rmmod "$m" >> "$log" 2>&1 || echo "rmmod $m failed" >> "$log"
	done
}

# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154
# compare/guest/targets.sh: the target registry, sourced by compare/guest-run: each
# compare/targets/<name>.sh read and checked (its header, its functions), and its "# needs:"
# decided for a kernel. Variables: compare/guest-run's.

# check_needs TARGET VALUE: a "# needs:" header's syntax: comma-separated items, each one of
#   kernel<V kernel<=V kernel>=V kernel>V   the kernel's version (V: MAJOR.MINOR)
#   module M                                module M, loadable or built in
#   param M P                               module M has parameter P
#   command C                               program C (the guest sees the host's root)
# and, last, an optional "(WHY)" the skip line repeats
NEED_RE='^(kernel(<|<=|>=|>)[0-9]+\.[0-9]+|module [A-Za-z0-9_-]+|param [A-Za-z0-9_-]+ [A-Za-z0-9_]+|command [A-Za-z0-9._-]+)$'
check_needs() {
	local v=${2%%(*} item
	[ -n "$2" ] || return 0
	IFS=, read -r -a items <<< "$v"
	for item in "${items[@]}"; do
		item=${item#"${item%%[! ]*}"} item=${item%"${item##*[! ]}"}
		[[ $item =~ $NEED_RE ]] ||
			bad_target "$1.sh" "bad need '$item' in '# needs:' (allowed: kernel<V, kernel<=V, kernel>=V, kernel>V with V as 6.9; module M; param M P; command C; comma separated, then an optional (WHY))"
	done
}

# read_targets: every compare/targets/*.sh, checked, into ALL_TARGETS (by order) and T_<KEY>
# (bash builtins and one sort: a TCG guest pays for every program started)
declare -A T_DESC T_GROUP T_ORDER T_LEVELS T_LOAD T_PRECONDITION T_OWN T_NEEDS ALIAS_OF
ALL_TARGETS=()
bad_target() { die "$TARGETS_DIR/$1: $2 (see docs/usage.md, \"Adding a target\")"; }
read_targets() {
	local f n line k v missing w
	local -A h
	for f in "$TARGETS_DIR"/*.sh; do
		[ -f "$f" ] || continue
		n=${f##*/}
		n=${n%.sh}
		[[ $n =~ ^[a-z0-9][a-z0-9-]*$ ]] ||
			bad_target "$n.sh" "bad target name '$n' (allowed: lower-case letters, digits and '-')"
		h=()
		while IFS= read -r line; do
			[[ $line == '#'* ]] || break
			[[ $line =~ ^#\ ([a-z-]+):\ *(.*[^[:space:]])?[[:space:]]*$ ]] || continue
			k=${BASH_REMATCH[1]} v=${BASH_REMATCH[2]}
			[[ " $TARGET_KEYS $TARGET_OPTIONAL_KEYS " == *" $k "* ]] ||
				bad_target "$n.sh" "unknown header key '$k' (allowed: $TARGET_KEYS $TARGET_OPTIONAL_KEYS)"
			[[ $v != *$'\t'* ]] || bad_target "$n.sh" "a tab in '# $k:'"
			h[$k]=$v
		done < "$f"
		missing=
		for k in $TARGET_KEYS; do
			[ "$k" = own-functions ] || [ -n "${h[$k]:-}" ] || missing+=" $k"
		done
		[ -z "$missing" ] || bad_target "$n.sh" "no '# KEY: value' header line for:$missing (each target declares: $TARGET_KEYS; own-functions may be empty)"
		[[ " $TARGET_GROUPS " == *" ${h[group]} "* ]] ||
			bad_target "$n.sh" "bad group '${h[group]}' (allowed: $TARGET_GROUPS)"
		[[ ${h[order]} =~ ^[0-9]+$ ]] || bad_target "$n.sh" "bad order '${h[order]}' (allowed: a whole number)"
		[[ ${h[load]} =~ ^[a-z0-9][a-z0-9-]*$ ]] ||
			bad_target "$n.sh" "bad load '${h[load]}' (allowed: lower-case letters, digits and '-')"
		case ${h[precondition]} in yes | no) ;; *) bad_target "$n.sh" "bad precondition '${h[precondition]}' (allowed: yes no)" ;; esac
		if [ "${h[levels]}" != - ]; then
			for w in ${h[levels]}; do
				case $w in quick | default | full) ;; *) bad_target "$n.sh" "bad level '$w' in '# levels:' (allowed: quick default full, or - for none)" ;; esac
			done
		fi
		check_needs "$n" "${h[needs]:-}"
		for w in ${h[alias]:-}; do
			[[ $w =~ ^[a-z0-9][a-z0-9-]*$ && ! -f $TARGETS_DIR/$w.sh ]] ||
				bad_target "$n.sh" "bad alias '$w' in '# alias:' (allowed: a name no target file has, of lower-case letters, digits and '-')"
			[ -z "${ALIAS_OF[$w]:-}" ] || bad_target "$n.sh" "alias '$w' is also ${ALIAS_OF[$w]}.sh's"
			ALIAS_OF[$w]=$n
		done
		T_NEEDS[$n]=${h[needs]:-}
		T_DESC[$n]=${h[desc]} T_GROUP[$n]=${h[group]} T_ORDER[$n]=${h[order]} T_LEVELS[$n]=${h[levels]}
		T_LOAD[$n]=${h[load]} T_PRECONDITION[$n]=${h[precondition]} T_OWN[$n]=${h[own-functions]:-}
	done
	[ ${#T_DESC[@]} -gt 0 ] || die "no target files in $TARGETS_DIR"
	mapfile -t ALL_TARGETS < <(for n in "${!T_DESC[@]}"; do echo "${T_ORDER[$n]} $n"; done | sort -k1,1n -k2 | cut -d' ' -f2)
}

# target_names PROG OPTION LIST: LIST (comma-separated) with each name that a target's
# "# alias:" header lists replaced by that target's name, which stderr says; other names are
# left for the caller to check. Needs only TARGETS_DIR: compare/run and compare/ab use it.
target_names() {
	local t f mapped=() names
	IFS=', ' read -r -a names <<< "$3"
	for t in "${names[@]}"; do
		if [[ $t =~ ^[a-z0-9][a-z0-9-]*$ && ! -f $TARGETS_DIR/$t.sh ]] &&
			f=$(grep -lE "^# alias:(.* )?$t( .*)?\$" "$TARGETS_DIR"/*.sh | head -n 1); then
			f=${f##*/}
			echo "$1: $2: '$t' is target '${f%.sh}'" >&2
			t=${f%.sh}
		fi
		mapped+=("$t")
	done
	(IFS=,; echo "${mapped[*]}")
}

# check_target_functions: each target file must source cleanly and define $TARGET_FUNCS
# (sourced here, one after the other: a file's top level only defines things)
check_target_functions() {
	local n fn missing
	for n in "${ALL_TARGETS[@]}"; do
		use_target "$n" > /dev/null 2>&1 || bad_target "$n.sh" "sourcing it failed (bash -n shows why)"
		missing=
		for fn in $TARGET_FUNCS; do declare -F "$fn" > /dev/null || missing+=" $fn"; done
		missing=${missing# }
		[ -z "$missing" ] || bad_target "$n.sh" "no function ${missing// /, } (each target defines: $TARGET_FUNCS)"
	done
	forget_target
}

forget_target() {
	unset -f target_setup target_teardown target_devices target_vm_args
	TARGET=
}
# use_target T: source T's file, after forgetting the functions of the one sourced before
use_target() {
	forget_target
	TARGET=$1
	# shellcheck source=/dev/null
	source "$TARGETS_DIR/$1.sh"
}

list_targets_tsv() {
	local n
	for n in "${ALL_TARGETS[@]}"; do
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "${T_DESC[$n]}" "${T_GROUP[$n]}" "${T_ORDER[$n]}" \
			"${T_LEVELS[$n]}" "${T_LOAD[$n]}" "${T_PRECONDITION[$n]}" "${T_OWN[$n]}"
	done
}

declare -A KMODS=()
# module_present M: M is in the kernel's modules.dep or modules.builtin (read once, one awk)
module_present() {
	local n d=$needs_root/lib/modules/$needs_kver
	if [ ${#KMODS[@]} -eq 0 ]; then
		while read -r n; do KMODS[$n]=1; done < <(awk '{ n = $1; sub(/:$/, "", n); sub(/.*\//, "", n);
			sub(/\.ko.*$/, "", n); gsub(/-/, "_", n); print n }' "$d/modules.dep" "$d/modules.builtin" 2> /dev/null)
		KMODS[.]=1
	fi
	n=${1//-/_}
	[ -n "${KMODS[$n]:-}" ]
}
kernel_num() { # RELEASE: MAJOR * 1000 + MINOR
	[[ $1 =~ ^([0-9]+)\.([0-9]+) ]] || { echo 0; return; }
	echo $((BASH_REMATCH[1] * 1000 + BASH_REMATCH[2]))
}
# unmet_need TARGET: the first of its needs this kernel does not meet, as the skip's reason
unmet_need() {
	local v=${T_NEEDS[$1]:-} why item op want have m p ok
	[ -n "$v" ] || return 0
	why=''
	[[ $v != *\(* ]] || { why=${v#*(} why="; ${why%)*}"; }
	IFS=, read -r -a items <<< "${v%%(*}"
	for item in "${items[@]}"; do
		item=${item#"${item%%[! ]*}"} item=${item%"${item##*[! ]}"}
		case $item in
		kernel*)
			[[ $item =~ ^kernel(<|<=|>=|>)(.*)$ ]]
			op=${BASH_REMATCH[1]} want=$(kernel_num "${BASH_REMATCH[2]}") have=$(kernel_num "$needs_kver")
			case $op in
			'<') ok=$((have < want)) ;; '<=') ok=$((have <= want)) ;;
			'>') ok=$((have > want)) ;; *) ok=$((have >= want)) ;;
			esac
			[ "$ok" = 1 ] || { echo "needs kernel $op ${BASH_REMATCH[2]}, this one is $needs_kver$why"; return; }
			;;
		module\ *)
			module_present "${item#module }" || { echo "needs module ${item#module }, which kernel $needs_kver lacks$why"; return; }
			;;
		param\ *)
			read -r _ m p <<< "$item"
			modinfo -b "$needs_root" -k "$needs_kver" -F parm "$m" 2> /dev/null | grep -q "^$p:" ||
				{ echo "needs parameter $p of $m, which kernel $needs_kver's $m lacks$why"; return; }
			;;
		command\ *)
			command -v "${item#command }" > /dev/null ||
				{ echo "needs command ${item#command } (tools/deps installs it)$why"; return; }
			;;
		esac
	done
}

# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154 # the tables and state are tools/stack's
# tools/stack.d/checks.sh: sourced by tools/stack: whether the running kernel has what a
# stack needs (list), and the checks of up's arguments (the device, an address, a size).

read -r kver < /proc/sys/kernel/osrelease
declare -A kmods=()

# kmods_read: kmods filled from modules.dep and modules.builtin, once, with builtins: in a TCG
# guest each modinfo costs a good part of a second, and one reading of modules.dep about one.
# A caller that asks in command substitutions (list) reads them first, in its own shell.
kmods_read() {
	local f line n
	[ ${#kmods[@]} -eq 0 ] || return 0
	for f in /lib/modules/"$kver"/modules.dep /lib/modules/"$kver"/modules.builtin; do
		[ -r "$f" ] || continue
		while IFS= read -r line; do
			n=${line%%:*}
			n=${n##*/}
			n=${n%%.ko*}
			kmods[${n//-/_}]=1
		done < "$f"
	done
	kmods[.]=1 # read once, even when empty
}

# module_exists M: the running kernel has module M (loadable or built in).
module_exists() {
	[ -d "/sys/module/${1//-/_}" ] && return 0
	kmods_read
	[ -n "${kmods[${1//-/_}]:-}" ]
}

# unavailable_reason STACK: prints why STACK cannot be set up here (nothing when it can).
unavailable_reason() {
	local s=$1 m c missing=() nocmd=()
	for m in configfs ${mods[$s]}; do
		module_exists "$m" || missing+=("$m")
	done
	for c in ${cmds[$s]}; do
		command -v "$c" > /dev/null 2>&1 || nocmd+=("$c")
	done
	if [ "$s" = ublk ]; then
		# Debian packages no ublk server (ubdsrv's ublk, rublk) to drive ublk_drv with, so
		# up is not implemented for it.
		if module_exists ublk_drv; then
			echo "kernel $kver has ublk_drv, but Debian packages no ublk server (ubdsrv, rublk)"
		else
			echo "kernel $kver has no module ublk_drv, and Debian packages no ublk server"
		fi
		return
	fi
	if [ ${#missing[@]} -gt 0 ]; then
		echo "kernel $kver has no module ${missing[*]}"
	elif [ ${#nocmd[@]} -gt 0 ]; then
		echo "command ${nocmd[*]} missing (tools/deps installs it)"
	fi
}

cmd_list() {
	local s r st
	kmods_read
	for s in "${stacks[@]}"; do
		r=$(unavailable_reason "$s")
		st=
		if [ -d "$state_root/$s" ]; then
			st="  [up: $({ cat "$state_root/$s/exports" || tr '\n' ' ' < "$state_root/$s/devices"; } 2> /dev/null)]"
		fi
		if [ -z "$r" ]; then
			printf '%-*s available    %s%s\n' "$namew" "$s" "${what[$s]}" "$st"
		else
			printf '%-*s unavailable  %s%s\n' "$namew" "$s" "$r" "$st"
		fi
	done
}

# ------------------------------------------------------------------ the device

# dev_name DEV: the kernel name (sysfs) of block device DEV, or a usage error.
dev_name() {
	local d=$1 mm node maj min
	[ -e "$d" ] || die_usage "$d does not exist (allowed: a block device such as /dev/ramlldmq0)"
	[ -b "$d" ] || die_usage "$d is not a block device"
	mm=$(stat -L -c '%t %T' "$d")
	read -r maj min <<< "$mm"
	node=$(readlink -f "/sys/dev/block/$((16#$maj)):$((16#$min))")
	[ -d "$node" ] || die_usage "$d has no entry in /sys/dev/block"
	echo "${node##*/}"
}

# project_made NAME: the device is one this project (or the kernel's RAM test drivers) makes.
project_made() {
	case $1 in
	ramlld* | ram[0-9]* | nullb[0-9]*) return 0 ;;
	sd*)
		[ -e "/sys/block/$1/device/vendor" ] || return 1
		[ "$(tr -d ' ' < "/sys/block/$1/device/vendor")" = RAMLLD ]
		;;
	*) return 1 ;;
	esac
}

# check_device DEV FORCE DESTROY: refuse a device that is not ours, in use, or holds data.
check_device() {
	local d=$1 force=$2 destroy=$3 name mp parts=() p r out
	name=$(dev_name "$d")
	[ -e "/sys/block/$name" ] || die_usage "$d ($name) is a partition; allowed: a whole disk"
	if ! project_made "$name" && [ "$force" != 1 ]; then
		die_usage "refusing $d ($name): not a device this project makes (allowed: /dev/ramlld*, /dev/ramlldmq*, an sd disk of vendor RAMLLD, /dev/ram*, /dev/nullb*); --force overrides"
	fi
	mp=$(awk -v mm="$(cat "/sys/block/$name/dev")" '$3 == mm { print $5 }' /proc/self/mountinfo)
	[ -z "$mp" ] || die_usage "refusing $d: mounted on $mp (nothing overrides this)"
	if [ -n "$(ls -A "/sys/block/$name/holders")" ]; then
		die_usage "refusing $d: held by $(find "/sys/block/$name/holders" -mindepth 1 -printf '%f ')(nothing overrides this)"
	fi
	for p in "/sys/block/$name/$name"*; do
		[ -e "$p/partition" ] && parts+=("${p##*/}")
	done
	local found=
	[ ${#parts[@]} -eq 0 ] || found="partitions ${parts[*]}"
	if command -v blkid > /dev/null; then
		r=0
		out=$(LC_ALL=C blkid -p -o export "$d" 2>&1) || r=$?
		case $r in
		0) found="${found:+$found; }blkid -p: $(grep -E '^(TYPE|PTTYPE|LABEL)=' <<< "$out" | tr '\n' ' ')" ;;
		2) ;;
		*) [ "$destroy" = 1 ] || die_usage "refusing $d: blkid -p failed (exit $r: $out), cannot tell whether it holds data; --destroy-data overrides" ;;
		esac
	elif [ "$destroy" != 1 ]; then
		die_usage "refusing $d: blkid is missing, cannot tell whether it holds data; --destroy-data overrides"
	fi
	if [ -n "$found" ]; then
		[ "$destroy" = 1 ] || die_usage "refusing $d: it holds $found; --destroy-data overrides"
		msg "$d holds $found: going on (--destroy-data)"
	fi
}

# ipv4 TEXT: TEXT is a dotted IPv4 address.
ipv4() {
	local IFS=. o
	[[ $1 =~ ^[0-9]{1,3}(\.[0-9]{1,3}){3}$ ]] || return 1
	for o in $1; do
		[ "$((10#$o))" -le 255 ] || return 1
	done
}

# parse_size TEXT: bytes, or a usage error.
parse_size() {
	local t=${1,,} n mult
	[[ $t =~ ^([0-9]+)([kmg]?)i?b?$ ]] || die_usage "SIZE '$1': not a size (allowed: N, Nk, Nm, Ng, e.g. 64m)"
	n=${BASH_REMATCH[1]}
	case ${BASH_REMATCH[2]} in
	k) mult=1024 ;;
	m) mult=$((1024 * 1024)) ;;
	g) mult=$((1024 * 1024 * 1024)) ;;
	*) mult=1 ;;
	esac
	n=$((10#$n * mult))
	if [ "$n" -eq 0 ] || [ $((n % 4096)) -ne 0 ]; then
		die_usage "SIZE '$1': must be a positive multiple of 4k"
	fi
	echo "$n"
}

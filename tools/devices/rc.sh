# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # DEV_ERR and the device lists are what callers read
# tools/devices/rc.sh: what the device library's files share (tools/devices/README.md). A
# function of the library returns 0 when done; else it sets DEV_ERR to what went wrong and
# returns 1, or 2 for a bad argument (having changed nothing). It never exits or prints: the
# caller decides (a test fails or skips, compare/ notes a skip).

DEV_ERR=''
# DEV_WAIT: the seconds a wait for a device (a disk to appear, a module to let go) may take
: "${DEV_WAIT:=15}"

dev_bad() { # MSG: a bad argument: DEV_ERR = MSG, status 2
	DEV_ERR=$1
	return 2
}

# dev_wait CMD...: run CMD every 0.1 s until it succeeds or DEV_WAIT seconds have passed (a
# bash read on a pipe that gets no data naps: starting sleep costs more in a TCG guest)
dev_wait() {
	local end=$((SECONDS + DEV_WAIT))
	[ -n "${_dev_nap_fd:-}" ] || exec {_dev_nap_fd}<> <(:)
	until "$@"; do
		[ "$SECONDS" -lt "$end" ] || return 1
		read -r -t 0.1 -u "$_dev_nap_fd" || true
	done
}

# dev_modprobe_deps KO: load the modules KO depends on (modinfo's depends, which no udev or
# depmod loads in a guest), but the project's own
dev_modprobe_deps() {
	local d deps
	deps=$(modinfo -F depends "$1" 2> /dev/null) || deps=''
	for d in ${deps//,/ }; do
		[[ $d != ramlld* ]] || continue
		[ -d "/sys/module/${d//-/_}" ] || modprobe "$d" 2> /dev/null ||
			{ DEV_ERR="modprobe $d (needed by ${1##*/}) failed"; return 1; }
	done
}

# dev_loaded_modules: the names of the loaded modules (not the built-in ones), each followed by a
# space
dev_loaded_modules() {
	local m out=''
	for m in /sys/module/*/initstate; do
		[ -e "$m" ] || continue
		m=${m%/initstate}
		out+="${m##*/} "
	done
	echo "$out"
}

# dev_unload_unused MODULE...: unload each of these that nothing uses any more, dependents
# before what they depend on; one still in use (by what someone else loaded) stays
dev_unload_unused() {
	local m progress=1 left=("$@") next
	while [ "$progress" = 1 ] && [ ${#left[@]} -gt 0 ]; do
		progress=0 next=()
		for m in "${left[@]}"; do
			[ -d "/sys/module/$m" ] || continue
			if [ "$(cat "/sys/module/$m/refcnt" 2> /dev/null)" = 0 ] && rmmod "$m" 2> /dev/null; then
				progress=1
			else
				next+=("$m")
			fi
		done
		left=("${next[@]}")
	done
}

# dev_check_params WHO ALLOWED PARAM=VALUE...: each argument PARAM=VALUE with PARAM one of the
# words of ALLOWED (a module's parameters, a configfs folder's attributes)
dev_check_params() {
	local who=$1 allowed=" $2 " a
	shift 2
	for a in "$@"; do
		[[ $a =~ ^([a-z_][a-z0-9_]*)=[^[:space:]]*$ ]] ||
			{ dev_bad "$who: bad argument '$a' (allowed: PARAM=VALUE without spaces)"; return 2; }
		[[ $allowed == *" ${BASH_REMATCH[1]} "* ]] ||
			{ dev_bad "$who: unknown parameter '${BASH_REMATCH[1]}' (allowed:${allowed% })"; return 2; }
	done
}

# dev_params KO|MODULE: the module's parameter names, space-separated
dev_params() {
	modinfo -F parm "$1" 2> /dev/null | sed -n 's/^\([a-z_][a-z0-9_]*\):.*/\1/p' | tr '\n' ' '
}

# dev_rmmod MODULE: unload MODULE if loaded, retrying for DEV_WAIT seconds while it is busy (a
# disk closed by a process that just ended is held a moment)
dev_rmmod() {
	[ -d "/sys/module/$1" ] || return 0
	dev_wait _dev_rmmod_once "$1" ||
		{ DEV_ERR="rmmod $1 failed for $DEV_WAIT s: ${_dev_rmmod_err:-} (refcnt $(cat "/sys/module/$1/refcnt" 2> /dev/null))"; return 1; }
}
_dev_rmmod_once() {
	[ -d "/sys/module/$1" ] || return 0
	_dev_rmmod_err=$(rmmod "$1" 2>&1)
}

# dev_scsi_disks VENDOR [MODEL]: /dev/sdX of the SCSI disks of that vendor (and model), one a line
# in H:C:T:L order (builtins but for sort and awk: seed 000 polls 32 disks in a TCG guest)
dev_scsi_disks() {
	local v=$1 m=${2:-} b x hctl
	for b in /sys/block/sd*; do
		[ -e "$b/device/vendor" ] || continue
		read -r x < "$b/device/vendor"
		[ "${x// /}" = "$v" ] || continue
		if [ -n "$m" ]; then
			read -r x < "$b/device/model"
			[ "${x// /}" = "$m" ] || continue
		fi
		for hctl in "$b"/device/scsi_device/*; do
			echo "${hctl##*/} /dev/${b##*/}"
		done
	done | sort -t: -k1,1n -k2,2n -k3,3n -k4,4n | awk '{ print $2 }'
}
# dev_have_n_scsi N VENDOR [MODEL]: N such disks at least, the last of them a block device
dev_have_n_scsi() {
	local n=$1 disks
	shift
	mapfile -t disks < <(dev_scsi_disks "$@")
	[ "${#disks[@]}" -ge "$n" ] && [ -b "${disks[-1]}" ]
}
# dev_wait_scsi_disks N VENDOR [MODEL]: wait until N such disks are there (sd probes
# asynchronously), then SCSI_DISKS = all of them
dev_wait_scsi_disks() {
	local n=$1
	[[ $n =~ ^[1-9][0-9]*$ ]] || { dev_bad "dev_wait_scsi_disks: bad count '$n' (allowed: a whole number >= 1)"; return 2; }
	if ! dev_wait dev_have_n_scsi "$@"; then
		DEV_ERR="$n SCSI disk(s) of vendor $2${3:+, model $3} did not appear in $DEV_WAIT s (seen: $(dev_scsi_disks "${@:2}" | wc -l))"
		return 1
	fi
	mapfile -t SCSI_DISKS < <(dev_scsi_disks "${@:2}")
}

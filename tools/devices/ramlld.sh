# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # DEV_ERR and the device lists are what callers read
# tools/devices/ramlld.sh: loading and unloading ramlld (tools/devices/README.md). RAMLLD_KO:
# the module (default: drivers/ramlld.ko of this tree).

# shellcheck source=tools/devices/rc.sh
. "${BASH_SOURCE[0]%/*}/rc.sh"
: "${RAMLLD_KO:=$(cd "${BASH_SOURCE[0]%/*}/../.." && pwd)/drivers/ramlld.ko}"

# dev_ramlld_load PARAM=VALUE...: insmod RAMLLD_KO with these parameters (its dependencies first,
# sd_mod too when mode= names scsi or all; a parameter the module lacks is refused). The hosts
# are there when insmod returns, sd probes their disks asynchronously: dev_ramlld_sd_disks waits.
# One module: the SCSI front end is part of ramlld.ko, which depends on scsi_mod.
# DEV_RAMLLD_DEPS: the modules this load brought in (scsi_mod, scsi_common, sd_mod, ...), for
# dev_unload_unused once ramlld is gone; a failed insmod unloads them itself.
dev_ramlld_load() {
	local a m scsi=0 err params before
	DEV_ERR='' DEV_RAMLLD_DEPS=''
	[ -f "$RAMLLD_KO" ] || { DEV_ERR="no $RAMLLD_KO (run make module)"; return 1; }
	[ ! -d /sys/module/ramlld ] || { DEV_ERR="ramlld is loaded already"; return 1; }
	# a file modinfo cannot read has no parameters to check: insmod says what is wrong with it
	params=$(dev_params "$RAMLLD_KO")
	[ -z "$params" ] || dev_check_params dev_ramlld_load "$params" "$@" || return
	for a in "$@"; do
		case $a in mode=*scsi* | mode=*all*) scsi=1 ;; mode=*) scsi=0 ;; esac
	done
	before=" $(dev_loaded_modules)"
	dev_modprobe_deps "$RAMLLD_KO" || return
	[ "$scsi" = 0 ] || modprobe sd_mod 2> /dev/null || true # built in, or loaded by the caller's guest
	for m in $(dev_loaded_modules); do
		[[ $before == *" $m "* ]] || DEV_RAMLLD_DEPS+="$m "
	done
	# a write to a missing /dev node leaves a regular file that would be taken for the disk
	for a in /dev/ramlld*; do
		[ ! -e "$a" ] || [ -b "$a" ] || rm -f "$a"
	done
	if ! err=$(insmod "$RAMLLD_KO" "$@" 2>&1); then
		DEV_ERR="insmod ${RAMLLD_KO##*/} $* failed: ${err//$'\n'/ }; $(dmesg | grep ramlld | tail -n 1)"
		# shellcheck disable=SC2086 # a list of module names
		dev_unload_unused $DEV_RAMLLD_DEPS
		return 1
	fi
}

# dev_ramlld_unload: ramlld unloaded when loaded (retried while a disk is still closing);
# configfs devices are the caller's to remove first
dev_ramlld_unload() {
	DEV_ERR=''
	dev_rmmod ramlld
}

# dev_ramlld_has_param P: the module RAMLLD_KO has parameter P
dev_ramlld_has_param() {
	[[ " $(dev_params "$RAMLLD_KO") " == *" $1 "* ]]
}

# dev_ramlld_sd_disks [N]: wait until N (default 1) sd disks of SCSI vendor RAMLLD are there;
# RAMLLD_SD_DISKS = all of them (/dev/sdX), in H:C:T:L order
dev_ramlld_sd_disks() {
	DEV_ERR=''
	[ -d /sys/module/ramlld ] || { DEV_ERR="ramlld is not loaded"; return 1; }
	dev_wait_scsi_disks "${1:-1}" RAMLLD || return
	RAMLLD_SD_DISKS=("${SCSI_DISKS[@]}")
}

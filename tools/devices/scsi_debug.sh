# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # DEV_ERR and the device lists are what callers read
# tools/devices/scsi_debug.sh: scsi_debug (tools/devices/README.md).

# shellcheck source=tools/devices/rc.sh
. "${BASH_SOURCE[0]%/*}/rc.sh"

# dev_scsi_debug_load PARAM=VALUE...: scsi_debug with these parameters (one it lacks is refused),
# then SCSI_DEBUG_DISKS = its disks (/dev/sdX, H:C:T:L order) once max_luns x num_tgts (1 each
# by default) have appeared
dev_scsi_debug_load() {
	local a n=1 t=1 err
	DEV_ERR=''
	[ ! -d /sys/module/scsi_debug ] || { DEV_ERR="scsi_debug is loaded already"; return 1; }
	dev_check_params dev_scsi_debug_load "$(dev_params scsi_debug)" "$@" || return
	for a in "$@"; do
		case $a in max_luns=*) n=${a#*=} ;; num_tgts=*) t=${a#*=} ;; esac
	done
	modprobe sd_mod 2> /dev/null || true
	err=$(modprobe scsi_debug "$@" 2>&1) || { DEV_ERR="modprobe scsi_debug $* failed: ${err//$'\n'/ }"; return 1; }
	if ! dev_wait_scsi_disks $((n * t)) Linux scsi_debug; then
		dev_scsi_debug_unload > /dev/null 2>&1 || true
		return 1
	fi
	SCSI_DEBUG_DISKS=("${SCSI_DISKS[@]}")
}

dev_scsi_debug_unload() {
	DEV_ERR=''
	dev_rmmod scsi_debug
}

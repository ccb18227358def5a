# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154 # the tables and state are tools/stack's
# tools/stack.d/lio.sh: sourced by tools/stack: LIO's backstores and LUNs and its fabrics
# (tcm_loop, iSCSI, SRP), with the initiators that log in to them.

# lio_backstore STACK DEV|BYTES WRITE_CACHE: the backstore; sets backstore to its configfs path.
# lio-rd's is rd_mcp, LIO's own RAM store inside target_core_mod: a configfs item journalled like
# the rest of the stack, not a block device, so none of tools/devices' set-ups (block devices:
# ramlld, brd, null_blk, scsi_debug) serves it; the iblock stacks export DEV, a block device
# tools/devices or the user made.
lio_backstore() {
	local s=$1 arg=$2 wc=$3 dir
	if [ "$s" = lio-rd ]; then
		dir=$tgt/core/rd_mcp_${hba_index[$s]}
		mkd "$dir"
		mkd "$dir/ramlld_$s"
		put "$dir/ramlld_$s/control" "rd_pages=$((arg / 4096))"
	else
		load target_core_iblock
		dir=$tgt/core/iblock_${hba_index[$s]}
		mkd "$dir"
		mkd "$dir/ramlld_$s"
		put "$dir/ramlld_$s/control" "udev_path=$arg"
	fi
	put "$dir/ramlld_$s/wwn/vpd_unit_serial" "ramlld-$s"
	put "$dir/ramlld_$s/enable" 1
	# the device must be unconfigured (disabled) before rmdir: rmdir does that itself
	[ "$wc" != 1 ] || put "$dir/ramlld_$s/attrib/emulate_write_cache" 1
	backstore=$dir/ramlld_$s
}

# lio_lun TPG: LUN 0 of TPG on the backstore; undone by unlinking (which removes the SCSI device
# from tcm_loop's host) and rmdir.
lio_lun() {
	mkd "$1/lun/lun_0"
	step "link lun_0 to $backstore" ln -s "$backstore" "$1/lun/lun_0/ramlld"
	undo rm "$1/lun/lun_0/ramlld"
}

# scsi_disks_of_host H: the block devices of SCSI host H's devices.
scsi_disks_of_host() {
	local h=$1 d
	for d in /sys/class/scsi_device/"$h":*/device/block/*; do
		[ -e "$d" ] && echo "/dev/${d##*/}"
	done
	return 0
}

# wait_scsi_disk H: wait for SCSI host H's disk; record and print it.
wait_scsi_disk() {
	wait_for "/sys/class/scsi_device/$1:*/device/block/*" "a disk on SCSI host $1" > /dev/null
	scsi_disks_of_host "$1" > "$sdir/devices"
}

up_tcm_loop() {
	local s=$1 wwn nexus tpg h
	load tcm_loop
	load sd_mod
	fabric_dir "$tgt/loopback"
	wwn=naa.50014050000${hba_index[$s]}0
	nexus=naa.50014050000${hba_index[$s]}1
	tpg=$tgt/loopback/$wwn/tpgt_1
	mkd "$tgt/loopback/$wwn"
	mkd "$tpg"
	put "$tpg/nexus" "$nexus"
	undo write_attr "$tpg/nexus" NULL
	lio_lun "$tpg"
	h=$(cut -d: -f1 "$tpg/address")
	wait_scsi_disk "$h"
}

up_iscsi() {
	local s=$1
	load iscsi_tcp
	need_lo
	iscsi_target_side "$s" 127.0.0.1
	iscsi_login "$s" 127.0.0.1 ""
}

# iscsi_target_side STACK ADDR: LUN 0 on the backstore, exported by an iSCSI target on ADDR:3260
# to any initiator.
iscsi_target_side() {
	local s=$1 addr=$2 t tpg
	t=$iqn.$s
	tpg=$tgt/iscsi/$t/tpgt_1
	load iscsi_target_mod
	fabric_dir "$tgt/iscsi"
	mkd "$tgt/iscsi/$t"
	mkd "$tpg"
	lio_lun "$tpg"
	mkd "$tpg/np/$addr:3260"
	put "$tpg/attrib/authentication" 0
	put "$tpg/attrib/generate_node_acls" 1
	put "$tpg/attrib/cache_dynamic_acls" 1
	put "$tpg/attrib/demo_mode_write_protect" 0
	put "$tpg/enable" 1
	undo write_attr "$tpg/enable" 0
}

# iscsi_login STACK ADDR REPLACEMENT_TIMEOUT: open-iscsi logs in to STACK's target name on
# ADDR:3260 (iscsi_target_side's); records and prints the disk.
iscsi_login() {
	local s=$1 addr=$2 rt=$3 t sess h p
	t=$iqn.${s/%-initiator/-target}
	load iscsi_tcp
	load sd_mod
	if [ ! -d /run/lock/iscsi ]; then
		# iscsiadm's lock folder, made by the systemd unit where there is one
		step "mkdir /run/lock/iscsi" mkdir -p /run/lock/iscsi
		undo rm -rf /run/lock/iscsi
	fi
	if ! pidof iscsid > /dev/null; then
		step "start iscsid" start_iscsid
		# shellcheck disable=SC2046 # one argument per pid
		undo stop_pids $(pidof iscsid)
	fi
	step "iscsiadm new node $t" iscsiadm -m node -o new -T "$t" -p "$addr:3260"
	undo iscsiadm -m node -o delete -T "$t" -p "$addr:3260"
	if [ -n "$rt" ]; then
		step "replacement_timeout $rt" iscsiadm -m node -T "$t" -p "$addr:3260" -o update \
			-n node.session.timeo.replacement_timeout -v "$rt"
	fi
	step "iscsiadm login $t" iscsiadm -m node -T "$t" -p "$addr:3260" --login
	undo iscsiadm -m node -T "$t" -p "$addr:3260" --logout
	sess=
	for p in /sys/class/iscsi_session/session*; do
		[ "$(cat "$p/targetname" 2> /dev/null)" = "$t" ] && sess=$(readlink -f "$p/device")
	done
	[ -n "$sess" ] || die "no iSCSI session to $t after login"
	h=$(basename "$(dirname "$sess")")
	wait_scsi_disk "${h#host}"
}

# start_iscsid: iscsid daemonizes; its output must not hold step's pipe open.
start_iscsid() {
	local i
	iscsid < /dev/null > /dev/null 2>&1 || return 1
	for ((i = 0; i < wait_s * 10; i++)); do
		pidof iscsid > /dev/null && return 0
		sleep 0.1
	done
	echo "iscsid did not start"
	return 1
}

# stop_pids PID...: end the processes of a daemon up started, waiting for them to go.
stop_pids() {
	local i p
	kill "$@" 2> /dev/null || true
	for ((i = 0; i < 100; i++)); do
		for p in "$@"; do
			kill -0 "$p" 2> /dev/null && continue 2
		done
		return 0
	done
	echo "process(es) $* still running after kill"
	return 1
}

up_srp() {
	local s=$1
	load ib_srpt
	load scsi_transport_srp
	load ib_srp
	load sd_mod
	rxe_up "$s"
	srp_target_side "$s" "${rxe_addr[$s]}"
	srp_login "$s" "${rxe_addr[$s]}" "${rxe_addr[$s]}" "0x$(srp_service_guid)"
}

# srp_service_guid: ib_srpt's service GUID, the target port's id_ext and ioc_guid (16 hex digits)
srp_service_guid() {
	local g
	read -r g < /sys/module/ib_srpt/parameters/srpt_service_guid
	echo "${g#0x}"
}

# srp_target_side STACK ADDR: ib_srpt's port on soft-RoCE device rxe_dev, LUN 0 on the backstore,
# for RDMA/CM logins to ADDR:srp_cm_port (an IB/CM login too).
srp_target_side() {
	local s=$1 addr=$2 gid port tpg ini
	load ib_srpt
	gid=$(cat "/sys/class/infiniband/$rxe_dev/ports/1/gids/0")
	# ib_srpt names a port by its GUID (the interface half of a link-local GID 0) or its GID
	if [ "${gid#fe80:0000:0000:0000:}" != "$gid" ]; then
		port=${gid#fe80:0000:0000:0000:}
	else
		port=0x${gid//:/}
	fi
	fabric_dir "$tgt/srpt"
	if [ -e "$tgt/srpt/discovery_auth/rdma_cm_port" ]; then
		put "$tgt/srpt/discovery_auth/rdma_cm_port" "$srp_cm_port"
	elif [ "$(cat /sys/module/ib_srpt/parameters/rdma_cm_port 2> /dev/null || echo 0)" != "$srp_cm_port" ]; then
		put /sys/module/ib_srpt/parameters/rdma_cm_port "$srp_cm_port"
	fi
	mkd "$tgt/srpt/$port"
	tpg=$tgt/srpt/$port/$port
	mkd "$tpg"
	lio_lun "$tpg"
	# ib_srpt names an RDMA/CM session by the address it was reached on (the target's own), an
	# IB/CM one by the initiator's port GUID
	for ini in "$addr" "$port"; do
		mkd "$tpg/acls/$ini"
		mkd "$tpg/acls/$ini/lun_0"
		step "map lun_0 for $ini" ln -s "$tpg/lun/lun_0" "$tpg/acls/$ini/lun_0/lun_0"
		undo rm "$tpg/acls/$ini/lun_0/lun_0"
	done
	put "$tpg/enable" 1
	undo write_attr "$tpg/enable" 0
	# run before the port is disabled at down: the initiator's logout first (bounded)
	undo srp_target_quiesce "$rxe_dev"
}

# srp_target_quiesce RXE: wait (RAMLLD_STACK_WAIT at most) until no RC queue pair is left on RXE,
# so that an initiator logging out is not cut off mid-logout; then go on either way: disabling
# the port closes whatever channel is left.
srp_target_quiesce() {
	local i
	for ((i = 0; i < wait_s * 10; i++)); do
		rxe_qp_idle "$1" && return 0
		sleep 0.1
	done
	msg "an SRP channel on $1 is still open after $wait_s s: closing it"
}

# srp_login STACK DEST SRC GUID: ib_srp on rxe_dev logs in over RDMA/CM from SRC to the target
# port GUID (ib_srpt's service GUID, 0x and 16 hex digits) on DEST:srp_cm_port; records and
# prints the disk.
srp_login() {
	local s=$1 dest=$2 src=$3 guid=$4 gid add h hb
	load scsi_transport_srp
	load ib_srp
	load sd_mod
	gid=$(cat "/sys/class/infiniband/$rxe_dev/ports/1/gids/0")
	gid=${gid//:/}
	add=$(wait_for "/sys/class/infiniband_srp/srp-$rxe_dev-1/add_target" "ib_srp's port on $rxe_dev")
	step "srp login to $dest:$srp_cm_port" write_attr "$add" \
		"id_ext=$guid,ioc_guid=$guid,initiator_ext=${gid:0:16},src=$src,dest=$dest:$srp_cm_port"
	h=
	for hb in /sys/class/scsi_host/host*; do
		[ "$(cat "$hb/local_ib_device" 2> /dev/null)" = "$rxe_dev" ] && h=${hb##*/host}
	done
	[ -n "$h" ] || die "no SRP SCSI host on $rxe_dev after the login"
	undo srp_logout "$h" "$rxe_dev"
	wait_scsi_disk "$h"
}

# peer_guid ADDR NETDEV: the EUI-64 of ADDR's MAC (0x and 16 hex digits), which rdma_rxe takes as
# its node GUID and ib_srpt as its service GUID. A datagram to the discard port makes the kernel
# resolve ADDR's MAC when it has no neighbour entry yet.
peer_guid() {
	local addr=$1 nd=$2 i line m
	for ((i = 0; i < wait_s * 10; i++)); do
		line=$(ip neigh show "$addr" dev "$nd")
		if [[ $line =~ lladdr\ ([0-9a-f]{2}):([0-9a-f]{2}):([0-9a-f]{2}):([0-9a-f]{2}):([0-9a-f]{2}):([0-9a-f]{2}) ]]; then
			m=("${BASH_REMATCH[@]:1}")
			printf '0x%02x%s%sfffe%s%s%s\n' $((16#${m[0]} ^ 2)) "${m[@]:1:2}" "${m[@]:3:3}"
			return 0
		fi
		((i % 10)) || echo ramlld 2> /dev/null > "/dev/udp/$addr/9" || true
		sleep 0.1
	done
	die "no MAC address for $addr on $nd within $wait_s s (ip neigh: ${line:-none}): is the target up?"
}

up_srp_target() {
	local s=$1 addr=$2 nd=$3 g
	load ib_srpt
	rxe_on "$nd" "rl_${s//-/_}"
	srp_target_side "$s" "$addr"
	g=$(srp_service_guid)
	# an initiator takes the GUID from this host's MAC (peer_guid): refuse a mismatch here
	[ "$g" = "$(tr -d : < "/sys/class/infiniband/$rxe_dev/node_guid")" ] ||
		die "ib_srpt's service GUID 0x$g is not $rxe_dev's node GUID (ib_srpt had another RDMA device first): rmmod ib_srpt, then up again"
	: > "$sdir/devices"
	echo "exports $arg on $addr:$srp_cm_port (SRP over RDMA/CM, target port GUID 0x$g)" > "$sdir/exports"
}

up_srp_initiator() {
	local s=$1 addr=$2 nd src guid
	read -r nd src <<< "$(route_to "$addr")"
	rxe_on "$nd" "rl_${s//-/_}"
	guid=$(peer_guid "$addr" "$nd")
	srp_login "$s" "$addr" "$src" "$guid"
}

# srp_logout H [RXE]: delete the SRP remote port of SCSI host H (removes the host and its disks)
# and wait until the logout is over. The delete only queues ib_srp's removal work, which removes
# the host first and disconnects after; ib_srpt releases its channel when the disconnect reaches
# it. Taking the target down before then makes the initiator see its target vanish mid-logout
# and try to reconnect. Over when host H and its port are gone and no RC queue pair (the
# initiator's or the target's) is left on soft-RoCE device RXE.
srp_logout() {
	local h=$1 rxe=${2:-} p i
	for p in /sys/class/srp_remote_ports/port-"$h":*; do
		[ -e "$p/delete" ] && write_attr "$p/delete" 1
	done
	for ((i = 0; i < wait_s * 10; i++)); do
		if [ ! -e "/sys/class/scsi_host/host$h" ] && ! compgen -G "/sys/class/srp_remote_ports/port-$h:*" > /dev/null; then
			[ -n "$rxe" ] || return 0
			rxe_qp_idle "$rxe" && return 0
		fi
		sleep 0.1
	done
	echo "the SRP logout of SCSI host $h is not over after $wait_s s:" \
		"$(compgen -G "/sys/class/scsi_host/host$h"; compgen -G "/sys/class/srp_remote_ports/port-$h:*")" \
		"$(rdma resource show qp link "$rxe/1" 2> /dev/null)"
	return 1
}

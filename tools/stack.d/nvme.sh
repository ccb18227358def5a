# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154 # the tables and state are tools/stack's
# tools/stack.d/nvme.sh: sourced by tools/stack: the NVMe-oF stacks over nvmet (TCP, RDMA,
# loop) and the initiator's nvme connect.

up_nvme() {
	local s=$1 dev=$2
	load nvmet
	case $s in
	nvme-tcp)
		load nvmet-tcp
		load nvme-tcp
		need_lo
		;;
	nvme-rdma)
		load rdma_cm
		load nvmet-rdma
		load nvme-rdma
		rxe_up "$s"
		;;
	nvme-loop) load nvme-loop ;;
	esac
	nvmet_export "$s" "$dev" "${s#nvme-}" "$(nvme_addr "$s")"
	nvme_attach "$nqn_prefix.$s" "${s#nvme-}" "$(nvme_addr "$s")"
}

up_nvme_rdma_target() {
	local s=$1 dev=$2 addr=$3 nd=$4
	load nvmet
	load rdma_cm
	load nvmet-rdma
	rxe_on "$nd" "rl_${s//-/_}"
	nvmet_export "$s" "$dev" rdma "$addr"
	: > "$sdir/devices"
	echo "exports $dev on $addr:4420 (NVMe/RDMA, $nqn_prefix.$s)" > "$sdir/exports"
}

up_nvme_rdma_initiator() {
	local s=$1 addr=$2 nd src
	read -r nd src <<< "$(route_to "$addr")"
	load rdma_cm
	load nvme-rdma
	rxe_on "$nd" "rl_${s//-/_}"
	nvme_attach "$nqn_prefix.nvme-rdma-target" rdma "$addr"
}

# nvmet_export STACK DEV TRTYPE ADDR: STACK's nvmet subsystem, any host allowed, namespace 1 on
# DEV, on STACK's port: TRTYPE tcp or rdma on ADDR:4420, or loop.
nvmet_export() {
	local s=$1 dev=$2 tr=$3 addr=$4 nqn=$nqn_prefix.$1 sub port
	sub=$nvmet/subsystems/$nqn
	port=$nvmet/ports/${nvme_port[$s]}
	[ ! -e "$port" ] || die "nvmet port ${nvme_port[$s]} exists already (another set-up?)"
	mkd "$sub"
	put "$sub/attr_allow_any_host" 1
	mkd "$sub/namespaces/1"
	put "$sub/namespaces/1/device_path" "$dev"
	put "$sub/namespaces/1/enable" 1
	undo write_attr "$sub/namespaces/1/enable" 0
	mkd "$port"
	if [ "$tr" = loop ]; then
		put "$port/addr_trtype" loop
	else
		put "$port/addr_trtype" "$tr"
		put "$port/addr_adrfam" ipv4
		put "$port/addr_traddr" "$addr"
		put "$port/addr_trsvcid" 4420
	fi
	step "link $nqn to port ${nvme_port[$s]}" ln -s "$sub" "$port/subsystems/$nqn"
	undo rm "$port/subsystems/$nqn"
}

# nvme_attach NQN TRTYPE ADDR [OPTION...]: nvme connect to NQN over TRTYPE (tcp, rdma: on
# ADDR:4420; loop) with nvme connect's OPTIONs; records its block device.
nvme_attach() {
	local nqn=$1 tr=$2 addr=$3 ctrl d i
	shift 3
	if [ "$tr" = loop ]; then
		step "nvme connect loop $nqn" nvme connect -t loop -n "$nqn" -q "$hostnqn" "$@"
	else
		step "nvme connect $tr $nqn${*:+ $*}" nvme connect -t "$tr" -a "$addr" -s 4420 -n "$nqn" -q "$hostnqn" "$@"
	fi
	undo nvme_detach "$nqn"
	# the namespace's block device sits under the controller, or (native multipath) under the
	# subsystem
	ctrl=
	for d in /sys/class/nvme/nvme*; do
		[ "$(cat "$d/subsysnqn" 2> /dev/null)" = "$nqn" ] && ctrl=$(readlink -f "$d")
	done
	[ -n "$ctrl" ] || die "no NVMe controller for $nqn after nvme connect"
	for ((i = 0; i < wait_s * 10; i++)); do
		nvme_block "$nqn" "$ctrl" > "$sdir/devices"
		[ -s "$sdir/devices" ] && return 0
		sleep 0.1
	done
	die "no block device for namespace 1 of $nqn within $wait_s s"
}

# nvme_detach NQN: nvme disconnect from NQN, unless the kernel has removed its controllers
# already (its ctrl_loss_tmo ran out with the target gone)
nvme_detach() {
	local d
	for d in /sys/class/nvme/nvme*; do
		[ "$(cat "$d/subsysnqn" 2> /dev/null)" = "$1" ] || continue
		nvme disconnect -n "$1"
		return
	done
}

nvme_addr() {
	case $1 in
	nvme-tcp) echo 127.0.0.1 ;;
	nvme-rdma) echo "${rxe_addr[$1]}" ;;
	esac
}

# nvme_block NQN CTRL: the block devices of NQN's namespaces: the multipath heads under the
# subsystem (native multipath), else the namespaces under controller CTRL.
nvme_block() {
	local sub b dirs=()
	for sub in /sys/class/nvme-subsystem/*; do
		[ "$(cat "$sub/subsysnqn" 2> /dev/null)" = "$1" ] && dirs+=("$sub")
	done
	dirs+=("$2")
	for sub in "${dirs[@]}"; do
		for b in "$sub"/nvme*n*; do
			[[ ${b##*/} =~ ^nvme[0-9]+n[0-9]+$ ]] && [ -b "/dev/${b##*/}" ] && echo "/dev/${b##*/}"
		done
		[ -z "$b" ] || true
	done | sort -u
}

# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154 # the tables and state are tools/stack's
# tools/stack.d/rdma.sh: sourced by tools/stack: soft-RoCE (rdma_rxe) devices and the
# netdevs and routes they bind to, for SRP and NVMe/RDMA.

# rxe_up STACK: a dummy netdev with an address and a soft-RoCE device on it (lo has no MAC,
# rxe will not bind to it). Sets rxe_dev.
rxe_up() {
	local s=$1 nd=${rxe_net[$1]}
	load dummy
	load rdma_rxe
	[ ! -e "/sys/class/net/$nd" ] || die "netdev $nd exists already: another $s set-up? (tools/stack down $s)"
	step "ip link add $nd type dummy" ip link add "$nd" type dummy
	undo ip link del "$nd"
	step "ip addr add ${rxe_addr[$s]}/24 dev $nd" ip addr add "${rxe_addr[$s]}/24" dev "$nd"
	step "ip link set $nd up" ip link set "$nd" up
	rxe_on "$nd" "${nd//-/_}"
}

# rxe_on NETDEV NAME: a soft-RoCE device NAME on NETDEV, undone by rdma link del; rdma_rxe takes
# one device a netdev, so one already there is used and left in place. Sets rxe_dev.
rxe_on() {
	local nd=$1 name=$2
	load rdma_rxe
	rxe_dev=$(rdma link show 2> /dev/null |
		awk -v nd="$nd" '{ for (i = 1; i < NF; i++) if ($i == "netdev" && $(i + 1) == nd) { sub("/.*", "", $2); print $2 } }')
	if [ -n "$rxe_dev" ]; then
		msg "using soft-RoCE device $rxe_dev already on $nd (down leaves it)"
	else
		rxe_dev=$name
		step "rdma link add $rxe_dev type rxe netdev $nd" rdma link add "$rxe_dev" type rxe netdev "$nd"
		undo rdma link del "$rxe_dev"
	fi
	wait_for "/sys/class/infiniband/$rxe_dev/ports/1/gids/0" "rxe device $rxe_dev" > /dev/null
}

# addr_netdev ADDR: the netdev holding IPv4 address ADDR on this host (nothing when none does).
addr_netdev() {
	ip -o -4 addr show | awk -v a="$1" '{ split($4, p, "/") } p[1] == a { print $2; exit }'
}

# route_to ADDR: "NETDEV SRC", the netdev and source address this host reaches ADDR by (nothing
# when it has no route to ADDR).
route_to() {
	local r
	r=$(ip -o -4 route get "$1" 2> /dev/null) || return 0
	awk '{ for (i = 1; i < NF; i++) { if ($i == "dev") d = $(i + 1); if ($i == "src") a = $(i + 1) } } d != "" && a != "" { print d, a; exit }' <<< "$r"
}

# rxe_qp_idle RXE: no RC queue pair is left on soft-RoCE device RXE (nor RXE itself).
rxe_qp_idle() {
	local qps
	qps=$(rdma resource show qp link "$1/1" 2> /dev/null) || return 0
	[[ $qps != *"type RC"* ]]
}

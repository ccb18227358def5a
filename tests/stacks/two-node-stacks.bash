# SPDX-License-Identifier: GPL-2.0
# tests/stacks/two-node-stacks.bash: what the two-node harnesses (tests/stacks/two-node-sides.bash,
# compare/two-node-side, compare/two-node) know of each stack, sourced in a guest of a pair after
# tests/lib.sh, or on the host for the names and descriptions (not a test: no .sh). Adding a stack
# to them is adding a case to two_node_stack.
# shellcheck shell=bash

two_node_stacks="iscsi nvme-tcp srp nvme-rdma"

# two_node_stack STACK: set for STACK
#   TN_TARGET, TN_INITIATOR  its tools/stack halves: `up TN_TARGET DEV "${TN_TARGET_ARGS[@]}"`
#                            on the target, `up TN_INITIATOR PEER_ADDR [recovery options]` on the
#                            initiator, which prints the disk it made
#   TN_TARGET_ARGS           the target half's options: where it listens on the link
#   TN_TARGET_IOS            a shell command printing the I/Os the target has served so far
#   TN_TARGET_IOS_WHAT       what that counts, for reports
#   TN_TARGET_COUNT_ON       a shell command that makes the target count (after its half is up;
#                            empty when it always does)
#   TN_LIVE, TN_LOST         the initiator's transport state (tn_state) in use, and once it has
#                            noticed the link is gone
# or fail naming the stacks allowed.
# shellcheck disable=SC2034,SC2016 # read by the files that source this one; expanded when run
two_node_stack() {
	local hba
	case $1 in
	iscsi | srp) hba=$([ "$1" = iscsi ] && echo 194 || echo 195) ;;
	nvme-tcp | nvme-rdma) ;;
	*) fail "two-node stack '$1' unknown (allowed: $two_node_stacks)" ;;
	esac
	TN_TARGET=$1-target TN_INITIATOR=$1-initiator
	TN_TARGET_ARGS=(--addr "${RAMLLD_LINK_ADDR:-}")
	# The RDMA stacks have no link-fault values (TN_LIVE, TN_LOST, recovery options): the
	# link-fault test has not run over them.
	TN_LIVE='' TN_LOST=''
	case $1 in
	iscsi | srp)
		# LIO's SCSI commands on the LUN (tools/stack's HBA iblock_194, 195): ramlld's bio disk
		# keeps no I/O counters by default
		TN_TARGET_IOS="cat /sys/kernel/config/target/core/iblock_$hba/ramlld_$1-target/statistics/scsi_lu/num_cmds"
		TN_TARGET_IOS_WHAT="LIO's SCSI commands"
		TN_TARGET_COUNT_ON=
		;;
	nvme-tcp | nvme-rdma)
		# nvmet keeps no per-namespace count: the exported bio disk's own, which it keeps with
		# iostats on (a bio disk starts with it off; it adds the kernel's accounting per bio)
		TN_TARGET_IOS='read -r r _ _ _ w _ < /sys/block/ramlld0/stat; echo $((r + w))'
		TN_TARGET_IOS_WHAT="ramlld0's reads and writes (queue/iostats on)"
		TN_TARGET_COUNT_ON='echo 1 > /sys/block/ramlld0/queue/iostats'
		;;
	esac
	case $1 in
	iscsi)
		TN_TARGET_ARGS=(--portal "${RAMLLD_LINK_ADDR:-}")
		TN_LIVE=LOGGED_IN TN_LOST=FAILED
		;;
	nvme-tcp) TN_LIVE=live TN_LOST=connecting ;;
	esac
	TN_STACK=$1
}

# tn_disk_stat DEV: the stat file that counts the I/Os of the initiator's disk DEV: its own, or,
# for an NVMe multipath head nvmeXnZ (bio-based: it keeps no counts unless its queue/iostats is
# turned on), its path's nvmeXcYnZ under controller Y, a request-based disk that does.
tn_disk_stat() {
	local d=${1#/dev/} p
	if [[ $d =~ ^nvme([0-9]+)n([0-9]+)$ ]]; then
		for p in /sys/class/nvme/nvme*/"nvme${BASH_REMATCH[1]}c"*"n${BASH_REMATCH[2]}"/stat; do
			[ -e "$p" ] && { echo "$p"; return; }
		done
	fi
	echo "/sys/block/$d/stat"
}

# tn_recovery_args S: the initiator half's options that hold I/O for S s while the link is down
# (then fail it), one a line.
tn_recovery_args() {
	case $TN_STACK in
	iscsi) printf '%s\n' --replacement-timeout "$1" ;;
	nvme-tcp) printf '%s\n' --ctrl-loss-tmo "$1" --reconnect-delay 2 ;;
	esac
}

# tn_state STATE: the initiator's transport state (the iSCSI session's: LOGGED_IN, FAILED, FREE;
# the NVMe controller's: live, resetting, connecting, deleting; "gone" when there is none) into
# wait_seen; true when it is STATE.
tn_state() {
	local f
	wait_seen=gone
	case $TN_STACK in
	iscsi)
		for f in /sys/class/iscsi_session/session*/state; do
			[ -e "$f" ] && read -r wait_seen < "$f"
		done
		;;
	nvme-tcp)
		for f in /sys/class/nvme/nvme*; do
			[ "$(cat "$f/subsysnqn" 2> /dev/null)" = nqn.2026-12.org.ramlld:stack.nvme-tcp-target ] &&
				read -r wait_seen < "$f/state"
		done
		;;
	esac
	[ "$wait_seen" = "$1" ]
}

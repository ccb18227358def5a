#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tools/stack's usage errors, which it refuses before it looks at a device or the kernel: --help, bad commands, stacks, sizes, addresses, options and option values, a character device, a missing device, down of a stack that is not up, exit 2 naming what is allowed and making nothing (the refusals that need a device or a guest's network: stacks/001)
# where: host
# requires: bash
# timeout: 120
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

STACK=$TOP/tools/stack
# where up would record a stack: a refusal leaves it empty
state=$(mktemp -d)
trap 'rm -rf "$state"' EXIT
export RAMLLD_STACK_STATE=$state/stacks
out=

# refused WHAT WANT ARG...: tools/stack ARG... exits 2 saying WANT, and records no stack
refused() {
	local what=$1 want=$2
	shift 2
	run_rc 2 "$STACK" "$@"
	expect_in "$what" "$want"
	[ ! -e "$RAMLLD_STACK_STATE" ] || fail "$what: tools/stack $* made $(find "$RAMLLD_STACK_STATE")"
}

run_rc 0 "$STACK" --help
expect_in "--help" "usage: tools/stack up STACK DEV"
refused "no command" "usage:"
refused "unknown command" "unknown command 'start' (allowed: up down list --help)" start
refused "up without a stack" "up needs STACK (allowed: lio-rd lio-iblock iscsi srp nvme-tcp" up
refused "unknown stack" "unknown stack 'lio-xyz' (allowed: lio-rd lio-iblock" up lio-xyz /dev/ramlldmq0
refused "up without DEV" "up lio-iblock needs DEV" up lio-iblock
refused "lio-rd without SIZE" "up lio-rd needs SIZE" up lio-rd
refused "a size not a multiple of 4k" "SIZE '12345': must be a positive multiple of 4k" up lio-rd 12345
refused "a size with a bad suffix" "SIZE '16x': not a size (allowed: N, Nk, Nm, Ng" up lio-rd 16x
refused "--write-cache on iblock" "--write-cache is allowed with lio-rd only" up lio-iblock /dev/ramlldmq0 --write-cache
refused "an unknown option" \
	"unknown option '--bogus' (allowed: --force --destroy-data --write-cache --portal --replacement-timeout --addr --ctrl-loss-tmo --reconnect-delay)" \
	up lio-iblock /dev/ramlldmq0 --bogus
refused "iscsi-target without --portal" "up iscsi-target needs --portal ADDR" up iscsi-target /dev/ramlldmq0
refused "a bad --portal" "--portal '10.0.0.256': not an IPv4 address" up iscsi-target /dev/ramlldmq0 --portal 10.0.0.256
refused "--portal on lio-iblock" "--portal is allowed with iscsi-target only" up lio-iblock /dev/ramlldmq0 --portal 10.0.0.1
refused "iscsi-initiator without ADDR" "up iscsi-initiator needs ADDR" up iscsi-initiator
refused "a bad initiator ADDR" "ADDR '10.0.0': not an IPv4 address" up iscsi-initiator 10.0.0
refused "a bad --replacement-timeout" "--replacement-timeout '0': not a number of seconds" \
	up iscsi-initiator 10.0.0.1 --replacement-timeout 0
refused "--ctrl-loss-tmo on iscsi-initiator" "--ctrl-loss-tmo is allowed with nvme-tcp-initiator only" \
	up iscsi-initiator 10.0.0.1 --ctrl-loss-tmo 5
refused "nvme-tcp-target without --addr" "up nvme-tcp-target needs --addr ADDR" up nvme-tcp-target /dev/ramlldmq0
refused "a bad --addr" "--addr '10.0.0.1.2': not an IPv4 address" up nvme-tcp-target /dev/ramlldmq0 --addr 10.0.0.1.2
refused "--addr without a value" "--addr needs a value" up nvme-tcp-target /dev/ramlldmq0 --addr
refused "--portal on nvme-tcp-target" "--portal is allowed with iscsi-target only" \
	up nvme-tcp-target /dev/ramlldmq0 --portal 10.0.0.1
refused "--addr on nvme-tcp" "--addr is allowed with nvme-tcp-target, srp-target, nvme-rdma-target only" \
	up nvme-tcp /dev/ramlldmq0 --addr 10.0.0.1
refused "nvme-tcp-initiator without ADDR" "up nvme-tcp-initiator needs ADDR" up nvme-tcp-initiator
refused "a device as nvme-tcp-initiator's ADDR" "ADDR '/dev/ramlldmq0': not an IPv4 address" \
	up nvme-tcp-initiator /dev/ramlldmq0
refused "a negative --ctrl-loss-tmo" "--ctrl-loss-tmo '-1': not a number of seconds (allowed: 0 to 999999)" \
	up nvme-tcp-initiator 10.0.0.1 --ctrl-loss-tmo -1
refused "a zero --reconnect-delay" "--reconnect-delay '0': not a number of seconds (allowed: 1 to 999999)" \
	up nvme-tcp-initiator 10.0.0.1 --reconnect-delay 0
refused "--replacement-timeout on nvme-tcp-initiator" "--replacement-timeout is allowed with iscsi-initiator only" \
	up nvme-tcp-initiator 10.0.0.1 --replacement-timeout 5
refused "down of a half that is not up" "stack nvme-tcp-target is not up" down nvme-tcp-target
refused "srp-target without --addr" "up srp-target needs --addr ADDR" up srp-target /dev/ramlldmq0 --destroy-data
refused "a bad nvme-rdma-target --addr" "--addr '10.0.0.256': not an IPv4 address" \
	up nvme-rdma-target /dev/ramlldmq0 --addr 10.0.0.256 --destroy-data
refused "srp-initiator without ADDR" "up srp-initiator needs ADDR" up srp-initiator
refused "a bad nvme-rdma-initiator ADDR" "ADDR '10.0.0': not an IPv4 address" up nvme-rdma-initiator 10.0.0
refused "--replacement-timeout on srp-initiator" "--replacement-timeout is allowed with iscsi-initiator only" \
	up srp-initiator 10.0.0.1 --replacement-timeout 5
refused "two devices" "one DEV (or SIZE) only" up lio-iblock /dev/ramlldmq0 /dev/ramlld0
refused "down without a stack" "down needs one STACK" down
refused "down of a stack that is not up" "stack lio-iblock is not up" down lio-iblock
refused "list with an argument" "list takes no argument" list extra
refused "a character device" "/dev/null is not a block device" up lio-iblock /dev/null
refused "a missing device" "/dev/no-such-disk does not exist" up lio-iblock /dev/no-such-disk

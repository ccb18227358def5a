#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tools/stack: bad commands, stacks, sizes and options, and refused devices (not the project's, a file system signature, mounted) exit 2 naming what is allowed and change nothing; --force and --destroy-data override
# where: guest
# timeout: 900
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stacks/stacks-lib.bash
. "$TOP/tests/stacks/stacks-lib.bash"

need_commands losetup mkswap mkfs.ext2 wipefs
ramlld_load mode=bio,mq capacity_mb=16
stack_need lio-iblock
loop_was_loaded=
[ ! -d /sys/module/loop ] || loop_was_loaded=1
need_modules loop
img=$RESULTS/loop.img
truncate -s 16M "$img"
loopdev=$(losetup -f --show "$img")

# mounted: refused whatever the options
mkfs.ext2 -q /dev/ramlldmq0
mkdir -p "$RESULTS/mnt"
mount /dev/ramlldmq0 "$RESULTS/mnt"
state_snapshot
run_rc 2 "$STACK" up lio-iblock /dev/ramlldmq0 --destroy-data --force
expect_in "a mounted device" "refusing /dev/ramlldmq0: mounted on $RESULTS/mnt (nothing overrides this)"
state_check "a mounted device"
umount "$RESULTS/mnt"

# data on the device: a swap signature
mkswap /dev/ramlldmq0 > /dev/null
state_snapshot
run_rc 2 "$STACK" up lio-iblock /dev/ramlldmq0
expect_in "a swap signature" "it holds blkid -p: TYPE=swap"
expect_in "a swap signature" "--destroy-data overrides"
# a device the project did not make
run_rc 2 "$STACK" up lio-iblock "$loopdev"
expect_in "a loop device" "refusing $loopdev (${loopdev#/dev/}): not a device this project makes"

run_rc 0 "$STACK" --help
expect_in "--help" "usage: tools/stack up STACK DEV"
run_rc 2 "$STACK"
expect_in "no command" "usage:"
run_rc 2 "$STACK" start
expect_in "unknown command" "unknown command 'start' (allowed: up down list --help)"
run_rc 2 "$STACK" up
expect_in "up without a stack" "up needs STACK (allowed: lio-rd lio-iblock iscsi srp nvme-tcp"
run_rc 2 "$STACK" up lio-xyz /dev/ramlldmq0
expect_in "unknown stack" "unknown stack 'lio-xyz' (allowed: lio-rd lio-iblock"
run_rc 2 "$STACK" up lio-iblock
expect_in "up without DEV" "up lio-iblock needs DEV"
run_rc 2 "$STACK" up lio-rd
expect_in "lio-rd without SIZE" "up lio-rd needs SIZE"
run_rc 2 "$STACK" up lio-rd 12345
expect_in "a size not a multiple of 4k" "SIZE '12345': must be a positive multiple of 4k"
run_rc 2 "$STACK" up lio-rd 16x
expect_in "a size with a bad suffix" "SIZE '16x': not a size (allowed: N, Nk, Nm, Ng"
run_rc 2 "$STACK" up lio-iblock /dev/ramlldmq0 --write-cache
expect_in "--write-cache on iblock" "--write-cache is allowed with lio-rd only"
run_rc 2 "$STACK" up lio-iblock /dev/ramlldmq0 --bogus
expect_in "an unknown option" "unknown option '--bogus' (allowed: --force --destroy-data --write-cache --portal --replacement-timeout --addr --ctrl-loss-tmo --reconnect-delay)"
run_rc 2 "$STACK" up iscsi-target /dev/ramlldmq0
expect_in "iscsi-target without --portal" "up iscsi-target needs --portal ADDR"
run_rc 2 "$STACK" up iscsi-target /dev/ramlldmq0 --portal 10.0.0.256
expect_in "a bad --portal" "--portal '10.0.0.256': not an IPv4 address"
run_rc 2 "$STACK" up lio-iblock /dev/ramlldmq0 --portal 10.0.0.1
expect_in "--portal on lio-iblock" "--portal is allowed with iscsi-target only"
run_rc 2 "$STACK" up iscsi-initiator
expect_in "iscsi-initiator without ADDR" "up iscsi-initiator needs ADDR"
run_rc 2 "$STACK" up iscsi-initiator 10.0.0
expect_in "a bad initiator ADDR" "ADDR '10.0.0': not an IPv4 address"
run_rc 2 "$STACK" up iscsi-initiator 10.0.0.1 --replacement-timeout 0
expect_in "a bad --replacement-timeout" "--replacement-timeout '0': not a number of seconds"
run_rc 2 "$STACK" up iscsi-initiator 10.0.0.1 --ctrl-loss-tmo 5
expect_in "--ctrl-loss-tmo on iscsi-initiator" "--ctrl-loss-tmo is allowed with nvme-tcp-initiator only"
run_rc 2 "$STACK" up nvme-tcp-target /dev/ramlldmq0
expect_in "nvme-tcp-target without --addr" "up nvme-tcp-target needs --addr ADDR"
run_rc 2 "$STACK" up nvme-tcp-target /dev/ramlldmq0 --addr 10.0.0.1.2
expect_in "a bad --addr" "--addr '10.0.0.1.2': not an IPv4 address"
run_rc 2 "$STACK" up nvme-tcp-target /dev/ramlldmq0 --addr
expect_in "--addr without a value" "--addr needs a value"
run_rc 2 "$STACK" up nvme-tcp-target /dev/ramlldmq0 --portal 10.0.0.1
expect_in "--portal on nvme-tcp-target" "--portal is allowed with iscsi-target only"
run_rc 2 "$STACK" up nvme-tcp /dev/ramlldmq0 --addr 10.0.0.1
expect_in "--addr on nvme-tcp" "--addr is allowed with nvme-tcp-target, srp-target, nvme-rdma-target only"
run_rc 2 "$STACK" up nvme-tcp-initiator
expect_in "nvme-tcp-initiator without ADDR" "up nvme-tcp-initiator needs ADDR"
run_rc 2 "$STACK" up nvme-tcp-initiator /dev/ramlldmq0
expect_in "a device as nvme-tcp-initiator's ADDR" "ADDR '/dev/ramlldmq0': not an IPv4 address"
run_rc 2 "$STACK" up nvme-tcp-initiator 10.0.0.1 --ctrl-loss-tmo -1
expect_in "a negative --ctrl-loss-tmo" "--ctrl-loss-tmo '-1': not a number of seconds (allowed: 0 to 999999)"
run_rc 2 "$STACK" up nvme-tcp-initiator 10.0.0.1 --reconnect-delay 0
expect_in "a zero --reconnect-delay" "--reconnect-delay '0': not a number of seconds (allowed: 1 to 999999)"
run_rc 2 "$STACK" up nvme-tcp-initiator 10.0.0.1 --replacement-timeout 5
expect_in "--replacement-timeout on nvme-tcp-initiator" "--replacement-timeout is allowed with iscsi-initiator only"
run_rc 2 "$STACK" down nvme-tcp-target
expect_in "down of a half that is not up" "stack nvme-tcp-target is not up"
run_rc 2 "$STACK" up srp-target /dev/ramlldmq0 --destroy-data
expect_in "srp-target without --addr" "up srp-target needs --addr ADDR"
run_rc 2 "$STACK" up nvme-rdma-target /dev/ramlldmq0 --addr 10.0.0.256 --destroy-data
expect_in "a bad nvme-rdma-target --addr" "--addr '10.0.0.256': not an IPv4 address"
run_rc 2 "$STACK" up srp-initiator
expect_in "srp-initiator without ADDR" "up srp-initiator needs ADDR"
run_rc 2 "$STACK" up nvme-rdma-initiator 10.0.0
expect_in "a bad nvme-rdma-initiator ADDR" "ADDR '10.0.0': not an IPv4 address"
run_rc 2 "$STACK" up srp-initiator 10.0.0.1 --replacement-timeout 5
expect_in "--replacement-timeout on srp-initiator" "--replacement-timeout is allowed with iscsi-initiator only"
# an address of no netdev here, a target with no route to it (this guest has no link)
if stack_available nvme-rdma-target; then
	run_rc 2 "$STACK" up nvme-rdma-target /dev/ramlldmq0 --addr 10.9.9.9 --destroy-data
	expect_in "--addr not on this host" "--addr 10.9.9.9: no netdev of this host has that address"
fi
if stack_available srp-initiator; then
	run_rc 2 "$STACK" up srp-initiator 10.9.9.9
	expect_in "an ADDR with no route" "ADDR 10.9.9.9: this host has no route to it"
fi
run_rc 2 "$STACK" up lio-iblock /dev/ramlldmq0 /dev/ramlld0
expect_in "two devices" "one DEV (or SIZE) only"
run_rc 2 "$STACK" down
expect_in "down without a stack" "down needs one STACK"
run_rc 2 "$STACK" down lio-iblock
expect_in "down of a stack that is not up" "stack lio-iblock is not up"
run_rc 2 "$STACK" list extra
expect_in "list with an argument" "list takes no argument"
run_rc 2 "$STACK" up lio-iblock /dev/null
expect_in "a character device" "/dev/null is not a block device"
run_rc 2 "$STACK" up lio-iblock /dev/no-such-disk
expect_in "a missing device" "/dev/no-such-disk does not exist"
run_rc 0 "$STACK" list
expect_in "list" "nvme-tcp-target"
expect_in "list" "nvme-tcp-initiator"
expect_in "list" "nvme-rdma-initiator"
# the first column is as wide as the longest stack name: the second starts at one column
cols=$(awk '{ print index($0, " " $2 " ") }' <<< "$out" | sort -u)
[ "$(wc -l <<< "$cols")" -eq 1 ] || fail "list's second column starts at columns ${cols//$'\n'/ }: $out"
echo "ok: list's columns line up (the second at $cols)"
state_check "refused commands"


# the overrides work
run_rc 0 "$STACK" up lio-iblock /dev/ramlldmq0 --destroy-data
expect_in "--destroy-data" "/dev/ramlldmq0 holds blkid -p: TYPE=swap"
"$STACK" down lio-iblock
wipefs -q -a /dev/ramlldmq0
run_rc 0 "$STACK" up lio-iblock "$loopdev" --force
dev=$(tail -n 1 <<< "$out")
[ -b "$dev" ] || fail "up on $loopdev --force printed '$dev', not a block device"
same_size "$dev" "$loopdev"
write_read "$dev" "$loopdev" 64
"$STACK" down lio-iblock
state_check "the overrides"
losetup -d "$loopdev"
rm -f "$img"
[ -n "$loop_was_loaded" ] || rmmod loop
ramlld_unload

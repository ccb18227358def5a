#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tools/stack's refusals that need a device or the guest's network: a device not the project's, holding a file system signature, or mounted, an --addr of no netdev here, an ADDR with no route, exit 2 naming what is allowed and change nothing; list's columns; --force and --destroy-data override (the usage errors: stacks/024)
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

# an address of no netdev here, a target with no route to it (this guest has no link)
if stack_available nvme-rdma-target; then
	run_rc 2 "$STACK" up nvme-rdma-target /dev/ramlldmq0 --addr 10.9.9.9 --destroy-data
	expect_in "--addr not on this host" "--addr 10.9.9.9: no netdev of this host has that address"
fi
if stack_available srp-initiator; then
	run_rc 2 "$STACK" up srp-initiator 10.9.9.9
	expect_in "an ADDR with no route" "ADDR 10.9.9.9: this host has no route to it"
fi
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

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: a value invalid on the second of three disks, a bad device name, or a write the kernel rejects mid-way changes nothing on any disk
# where: guest
# requires: python3
# timeout: 1800
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/tools/tools-lib.bash
. "$TOP/tests/tools/tools-lib.bash"

stand_in_disks
ramlld_disks
# three disks; the second one is bio-based (brd, or ramlld's bio disk when it is built)
second=$RAM
[ -z "$RAMLLD_DISKS" ] || second=${RAMLLD_DISKS%% *}
three="$NULLB $second $SD"

snapshot() {
	# shellcheck disable=SC2086
	"$QT" $three --show --json | tr -d ' \n'
}
before=$(snapshot)

# shellcheck disable=SC2086 # three is a list
{
	# valid on nullb0 and sd, invalid on the bio disk in the middle
	run_rc 2 "$QT" $three --nomerges 2 --scheduler mq-deadline
	expect_in "scheduler on the bio disk" "$second: scheduler=mq-deadline"
	expect_in "nothing changed" "nothing changed on any device"
	expect_eq "--show --json after a value invalid on the second disk" "$before" "$(snapshot)"

	run_rc 2 "$QT" $three --rq-affinity 2 --nr-requests 32
	expect_in "nr_requests on the bio disk" "$second: nr_requests"
	expect_eq "--show --json after nr_requests on a bio disk" "$before" "$(snapshot)"

	run_rc 2 "$QT" $NULLB no-such-disk $SD --add-random 1
	expect_in "a bad device name" "no block device named 'no-such-disk'"
	expect_eq "--show --json after a bad device name" "$before" "$(snapshot)"

	run_rc 2 "$QT" $NULLB /dev/null $SD --add-random 1
	expect_in "a character device" "'/dev/null' is not a block device"

	# the kernel rejects a write on the second disk after the first disk and part of the
	# second were written (QUEUE_TUNE_FAIL injects the EINVAL): everything is rolled back
	run_rc 1 env QUEUE_TUNE_FAIL="$second:read_ahead_kb" "$QT" $three --nomerges 1 --iostats 0 --read-ahead-kb 512
	echo "$out"
	expect_in "the rejected value is named" "$second: the kernel rejected read_ahead_kb=512"
	expect_in "the first disk was written" "$NULLB: nomerges 0 -> 1"
	expect_in "rolled back" "rolled back"
	expect_eq "--show --json after a rejected write and its rollback" "$before" "$(snapshot)"
}
unload_all

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: rmmod is refused while a disk is open or under I/O, and works once it is closed
# where: guest
# requires: fio
. "$TOP/tests/lib.sh"

ramlld_load mode=bio,mq capacity_mb=16
for dev in /dev/ramlld0 /dev/ramlldmq0; do
	exec 3<"$dev"
	if rmmod ramlld 2>/tmp/err; then fail "rmmod succeeded while $dev is open"; fi
	grep -q "in use" /tmp/err || fail "unexpected rmmod error: $(cat /tmp/err)"
	exec 3<&-
	echo "ok: rmmod refused while $dev open: $(cat /tmp/err)"
done
fio --name=busy --filename=/dev/ramlldmq0 --direct=1 --ioengine=libaio --iodepth=4 \
	--rw=randrw --bs=4k --size=16M --time_based --runtime=3 --output=/dev/null &
pid=$!
sleep 1
refused=0
for i in 1 2 3; do rmmod ramlld 2>/dev/null || refused=$((refused + 1)); sleep 0.3; done
wait $pid || fail "fio failed while rmmod was tried"
expect_eq "rmmod attempts refused under I/O" 3 $refused
ramlld_unload

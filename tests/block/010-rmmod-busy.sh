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
	--rw=randrw --bs=4k --size=16M --time_based --runtime="$TEST_TIMEOUT" --output-format=json --output=/tmp/fio.json &
pid=$!
# rmmod is only refused once fio holds the disk open
fio_opened() {
	kill -0 $pid 2> /dev/null || fail "fio ended before it opened the disk: $(tail -n 5 /tmp/fio.json)"
	wait_seen="ramlld refcnt $(cat /sys/module/ramlld/refcnt)"
	[ "$(cat /sys/module/ramlld/refcnt)" -gt 0 ]
}
wait_for "fio to open /dev/ramlldmq0 (/sys/module/ramlld/refcnt above 0)" fio_opened
echo "ok: fio holds the disk (ramlld refcnt $(cat /sys/module/ramlld/refcnt) after $SECONDS s)"
refused=0
for i in 1 2 3; do
	# fio runs until killed below (it would outlive the test): each attempt is made under I/O
	kill -0 $pid 2> /dev/null || fail "fio ended before rmmod attempt $i"
	rmmod ramlld 2>/dev/null || refused=$((refused + 1))
	nap
done
kill -TERM $pid  # background jobs of a script ignore SIGINT
wait $pid || true
python3 -c 'import json,sys; t=open("/tmp/fio.json").read(); j=json.loads(t[t.index("{"):])["jobs"][0]; print("fio: error", j["error"], "ios", j["read"]["total_ios"] + j["write"]["total_ios"]); sys.exit(j["error"] != 0 or j["read"]["total_ios"] == 0)' ||
	fail "fio saw errors while rmmod was tried"
expect_eq "rmmod attempts refused under I/O" 3 $refused
ramlld_unload

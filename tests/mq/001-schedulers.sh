#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: switch none, mq-deadline, kyber and bfq on the mq disk during a verifying fio run
# where: guest
# requires: fio
# timeout: 200
. "$TOP/tests/lib.sh"

for m in mq-deadline kyber-iosched bfq; do modprobe $m 2>/dev/null || true; done
ramlld_load mode=mq capacity_mb=32 nr_hw_queues=1
q=/sys/block/ramlldmq0/queue
echo "schedulers offered: $(cat $q/scheduler)"
fio --name=v --filename=/dev/ramlldmq0 --direct=1 --ioengine=libaio --iodepth=16 \
	--rw=randwrite --bs=4k --size=32M --verify=crc32c --verify_fatal=1 --numjobs=2 \
	--offset_increment=16M --size=16M --output=/tmp/fio.out &
pid=$!
switches=0
while kill -0 $pid 2>/dev/null; do
	for s in none mq-deadline kyber bfq; do
		grep -qw "$s" $q/scheduler || continue
		echo $s > $q/scheduler || fail "cannot switch to $s"
		grep -q "\[$s\]" $q/scheduler || fail "scheduler is not $s: $(cat $q/scheduler)"
		switches=$((switches + 1))
		sleep 0.2
	done
done
wait $pid || fail "verify failed while switching: $(tail -5 /tmp/fio.out)"
[ $switches -ge 4 ] || fail "only $switches switches happened during the run"
echo "ok: $switches scheduler switches under a verifying run, no error"
ramlld_unload

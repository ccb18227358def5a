#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: each irqmode completes and verifies; irqmode=2 completion_nsec shows in fio's completion latency
# where: guest
# requires: fio python3
# timeout: 200
. "$TOP/tests/lib.sh"

clat_us() {
	fio --name=lat --filename="$1" --direct=1 --ioengine=psync --rw=randread --bs=4k \
		--size=4M --time_based --runtime=2 --output-format=json |
		python3 -c 'import json,sys; print(int(json.load(sys.stdin)["jobs"][0]["read"]["clat_ns"]["mean"] / 1000))'
}
# The figures are host-clock latencies of a TCG guest, which a loaded host stretches: only
# what load cannot cause is checked. irqmode=2 is never sooner than the 20000 us asked for, and
# not 20 times later (a unit mistake is 1000 times); irqmode 0 and 1, measured in the same run,
# are 10000 us or more below it: they add no delay.
declare -A lat=()
for mode in 0 1 2; do
	ramlld_load mode=mq capacity_mb=8 irqmode=$mode completion_nsec=20000000
	fio --name=v --filename=/dev/ramlldmq0 --direct=1 --ioengine=libaio --iodepth=8 --rw=randwrite \
		--bs=4k --size=2M --verify=crc32c --verify_fatal=1 --output=/dev/null ||
		fail "irqmode=$mode: verify failed"
	lat[$mode]=$(clat_us /dev/ramlldmq0)
	echo "irqmode=$mode: mean completion latency ${lat[$mode]} us (host clock)"
	ramlld_unload
done
if [ "${lat[2]}" -lt 19000 ] || [ "${lat[2]}" -gt 400000 ]; then
	fail "irqmode=2: ${lat[2]} us, want 20000 us or more (and less than 20 times that)"
fi
for mode in 0 1; do
	[ "${lat[$mode]}" -le $((lat[2] - 10000)) ] ||
		fail "irqmode=$mode: ${lat[$mode]} us, not 10000 us below irqmode=2's ${lat[2]} us: no delay was asked for"
done
echo "ok: irqmode 0, 1, 2"

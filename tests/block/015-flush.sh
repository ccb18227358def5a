#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: flushes (fsync, an empty write bio) reach the bio disk exactly when write_cache=1, complete, and data written around them reads back
# where: guest
# requires: fio dd
. "$TOP/tests/lib.sh"

# writes: field 5 of the stat file (write I/Os): an empty flush bio counts as one.
writes() {
	awk '{ print $5 }' /sys/block/ramlld0/stat
}
# one_write_fsync: write I/Os counted for one 4 KiB O_DIRECT write followed by fsync.
one_write_fsync() {
	local before
	before=$(writes)
	dd if=/dev/zero of=/dev/ramlld0 bs=4k count=1 oflag=direct conv=fsync status=none ||
		fail "dd conv=fsync on /dev/ramlld0 failed"
	echo $(($(writes) - before))
}

for wc in 1 0; do
	ramlld_load mode=bio,mq capacity_mb=8 write_cache=$wc
	want=$([ "$wc" = 1 ] && echo "write back" || echo "write through")
	for dev in ramlld0 ramlldmq0; do
		expect_eq "$dev queue/write_cache (write_cache=$wc)" "$want" \
			"$(cat /sys/block/$dev/queue/write_cache)"
	done
	echo 1 > /sys/block/ramlld0/queue/iostats
	# The block layer drops a flush to a disk without a volatile cache.
	expect_eq "write I/Os of a write + fsync on the bio disk (write_cache=$wc)" \
		$((1 + wc)) "$(one_write_fsync)"
	for dev in /dev/ramlld0 /dev/ramlldmq0; do
		fio --name=f --filename="$dev" --direct=1 --ioengine=psync --rw=randwrite --bs=4k \
			--size=100% --fsync=3 --verify=crc32c --verify_fatal=1 --do_verify=1 \
			--output-format=terse --minimal > /dev/null ||
			fail "fio randwrite with fsync every 3 writes: verify failed on $dev (write_cache=$wc)"
		echo "ok: $dev write_cache=$wc: writes with an fsync every 3 verified"
	done
	ramlld_unload
done

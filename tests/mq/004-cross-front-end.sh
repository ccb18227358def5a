#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: write through bio, read-verify through mq, and the reverse (O_DIRECT, same store)
# where: guest
# requires: fio
. "$TOP/tests/lib.sh"

ramlld_load mode=bio,mq capacity_mb=16 nr_devices=2
for pair in "ramlld0 ramlldmq0" "ramlldmq1 ramlld1"; do
	set -- $pair
	fio --name=w --filename=/dev/$1 --direct=1 --ioengine=libaio --iodepth=8 --rw=write --bs=64k \
		--size=100% --verify=crc32c --do_verify=0 --verify_state_save=0 --output=/dev/null || fail "write $1"
	fio --name=w --filename=/dev/$2 --direct=1 --ioengine=libaio --iodepth=8 --rw=read --bs=64k \
		--size=100% --verify=crc32c --verify_only --verify_fatal=1 --verify_state_load=0 --output=/dev/null ||
		fail "data written through $1 does not verify through $2"
	echo "ok: written through /dev/$1, verified through /dev/$2"
done
ramlld_unload

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: write through bio, read-verify through mq, and the reverse (O_DIRECT, same store)
# where: guest
# requires: fio
. "$TOP/tests/lib.sh"

ramlld_load mode=bio,mq capacity_mb=16 nr_devices=2
for pair in "ramlld0 ramlldmq0" "ramlldmq1 ramlld1"; do
	read -r from to <<< "$pair"
	fio --name=w --filename=/dev/"$from" --direct=1 --ioengine=libaio --iodepth=8 --rw=write --bs=64k \
		--size=100% --verify=crc32c --do_verify=0 --verify_state_save=0 --output=/dev/null || fail "write $from"
	fio --name=w --filename=/dev/"$to" --direct=1 --ioengine=libaio --iodepth=8 --rw=read --bs=64k \
		--size=100% --verify=crc32c --verify_only --verify_fatal=1 --verify_state_load=0 --output=/dev/null ||
		fail "data written through $from does not verify through $to"
	echo "ok: written through /dev/$from, verified through /dev/$to"
done
ramlld_unload

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: fio verify=crc32c over the whole bio and mq disk, seq and random, bs 512/4k/128k, 512- and 4096-byte sectors
# where: guest
# requires: fio
# timeout: 300
. "$TOP/tests/lib.sh"

for ss in 512 4096; do
	ramlld_load mode=bio,mq capacity_mb=4 sector_size=$ss
	for dev in /dev/ramlld0 /dev/ramlldmq0; do
		expect_eq "$dev logical block size" "$ss" "$(blockdev --getss "$dev")"
		for bs in 512 4k 128k; do
			[ "$bs" = 512 ] && [ "$ss" = 4096 ] && continue
			for rw in write randwrite; do
				fio --name=v --filename="$dev" --direct=1 --ioengine=libaio --iodepth=8 \
					--rw=$rw --bs=$bs --size=100% --verify=crc32c --verify_fatal=1 \
					--do_verify=1 --output-format=terse --minimal >/dev/null ||
					fail "fio $rw bs=$bs verify failed on $dev (sector_size=$ss)"
				echo "ok: $dev sector_size=$ss $rw bs=$bs crc32c verified"
			done
		done
	done
	ramlld_unload
done

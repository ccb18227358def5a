#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: mode=all: data written through any of bio, mq, sd reads back identically through the other two (6 directions); UNMAP/discard zeros elsewhere
# where: guest
# requires: cmp blkdiscard
# timeout: 300
. "$TOP/tests/lib.sh"
. "$TOP/tests/scsi/scsi-lib.bash"

scsi_load mode=all nr_devices=2 capacity_mb=8
wait_for_path /dev/ramlld1
wait_for_path /dev/ramlldmq1
declare -A dev=([bio]=/dev/ramlld1 [mq]=/dev/ramlldmq1 [scsi]=/dev/${SD[1]})
pat=/tmp/pattern.$$ back=/tmp/back.$$
for from in bio mq scsi; do
	for to in bio mq scsi; do
		[ "$from" != "$to" ] || continue
		head -c $((1024 * 1024)) /dev/urandom > $pat
		# at an odd 4 KiB offset, 2 MiB long
		dd if=$pat of="${dev[$from]}" bs=64k seek=12288 oflag=direct,seek_bytes status=none ||
			fail "write through $from"
		dd if="${dev[$to]}" of=$back bs=64k skip=12288 count=$((1024 * 1024)) iflag=direct,skip_bytes,count_bytes status=none ||
			fail "read through $to"
		cmp $pat $back || fail "written through $from (${dev[$from]}), read back different through $to (${dev[$to]})"
		echo "ok: $from -> $to: 1 MiB at offset 12288 identical"
	done
done
# store 0 was never written: nothing leaked across stores
expect_eq "non-zero bytes of store 0 through sd" 0 "$(dd if=/dev/"${SD[0]}" bs=1M iflag=direct status=none | tr -d '\0' | wc -c)"

# discard through one front end reads zeros through the others
head -c $((1024 * 1024)) /dev/urandom > $pat
for from in scsi bio mq; do
	dd if=$pat of="${dev[$from]}" bs=64k oflag=direct status=none
	blkdiscard -o 65536 -l 131072 "${dev[$from]}" || fail "blkdiscard through $from"
	for to in bio mq scsi; do
		n=$(dd if="${dev[$to]}" bs=64k skip=1 count=2 iflag=direct status=none | tr -d '\0' | wc -c)
		expect_eq "non-zero bytes of a range discarded through $from, read through $to" 0 "$n"
		dd if="${dev[$to]}" of=$back bs=64k count=1 iflag=direct status=none
		cmp -n 65536 $pat $back || fail "data before the discarded range changed ($from -> $to)"
	done
done
rm -f $pat $back
ramlld_unload

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: discard and write-zeroes (whole and partial pages) read back zeros there and leave the rest intact
# where: guest
# requires: blkdiscard cmp
. "$TOP/tests/lib.sh"

ramlld_load mode=bio,mq capacity_mb=8 nr_devices=1
pat=/tmp/pattern.$$
head -c $((1024 * 1024)) /dev/urandom > $pat
for dev in /dev/ramlld0 /dev/ramlldmq0; do
	for how in "" "-z"; do
		dd if=$pat of=$dev bs=64k oflag=direct status=none || fail "write pattern to $dev"
		# 512 bytes into the second page up to 3 pages and 512 bytes further: partial, whole, partial
		blkdiscard $how -o $((4096 + 512)) -l $((3 * 4096)) $dev || fail "blkdiscard $how on $dev"
		dd if=$dev of=/tmp/back bs=64k count=16 iflag=direct status=none
		cmp -n $((4096 + 512)) $pat /tmp/back || fail "$dev: data before the range changed"
		cmp -n $((3 * 4096)) -i $((4096 + 512)):0 /tmp/back /dev/zero ||
			fail "$dev: blkdiscard $how range does not read back as zeros"
		cmp -i $((4 * 4096 + 512)) $pat /tmp/back || fail "$dev: data after the range changed"
		echo "ok: $dev blkdiscard $how zeroed exactly [4608, 16896)"
	done
done
# whole device discard: every page freed, reads zeros through the other front end
dd if=$pat of=/dev/ramlld0 bs=64k oflag=direct status=none
blkdiscard /dev/ramlld0
n=$(dd if=/dev/ramlldmq0 bs=64k count=16 iflag=direct status=none | tr -d '\0' | wc -c)
expect_eq "non-zero bytes after whole-device discard (read through mq)" 0 "$n"
rm -f $pat /tmp/back
ramlld_unload

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: I/O at the last sector works, I/O past the end fails with an error, not a crash
# where: guest
# requires: xfs_io
. "$TOP/tests/lib.sh"

ramlld_load mode=bio,mq capacity_mb=4
size=$((4 * 1024 * 1024))
for dev in /dev/ramlld0 /dev/ramlldmq0; do
	expect_eq "$dev size" $size "$(blockdev --getsize64 $dev)"
	dd if=/dev/zero of=$dev bs=4096 seek=$((size / 4096 - 1)) count=1 oflag=direct status=none ||
		fail "$dev: write of the last block failed"
	if dd if=/dev/zero of=$dev bs=4096 seek=$((size / 4096)) count=1 oflag=direct status=none 2>/dev/null; then
		fail "$dev: write past the end succeeded"
	fi
	# a direct write straddling the end: pwrite must not succeed for the whole length
	out=$(xfs_io -d -c "pwrite -q $((size - 4096)) 8192" $dev 2>&1 || true)
	echo "$out" | grep -qiE "error|No space|Invalid" || fail "$dev: straddling write not rejected: $out"
	got=$(dd if=$dev bs=4096 skip=$((size / 4096)) count=1 iflag=direct status=none | wc -c)
	expect_eq "$dev bytes read past the end" 0 "$got"
	echo "ok: $dev last block ok, past-the-end rejected"
done
ramlld_unload

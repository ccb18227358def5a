#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: badblocks= fails reads and writes touching the range (EIO on bio and mq; MEDIUM ERROR 03/11/00 or 03/0C/00 with the first bad LBA on SCSI), I/O beside it and after clearing it succeeds
# where: guest
# requires: sg_raw cmp
# timeout: 180
# shellcheck disable=SC2046 # hex32 and hex16 expand to several CDB bytes
. "$TOP/tests/lib.sh"
. "$TOP/tests/scsi/scsi-lib.bash"
. "$TOP/tests/faults/faults-lib.bash"

# sectors 2048-2055: the 4 KiB block 256
scsi_load mode=all capacity_mb=8 badblocks=2048-2055
expect_eq "badblocks as set at load" 2048-2055 "$(cat $PARAMS/badblocks)"
dev_sd=/dev/${SD[0]} dev_sg=/dev/${SG[0]}
head -c 1M /dev/urandom > /tmp/pat.$$

# bio and mq: EIO. sd: an UNRECOVERED READ ERROR is BLK_STS_MEDIUM, ENODATA to the reader;
# a WRITE ERROR is retried by the midlayer, then EIO
for dev in /dev/ramlld0 /dev/ramlldmq0 $dev_sd; do
	rerr="Input/output error"
	[ "$dev" != "$dev_sd" ] || rerr="No data available"
	dd_ok "$dev: write of blocks 0-255, before the bad range" if=/tmp/pat.$$ of="$dev" bs=4k count=256 oflag=direct
	dd_err "$dev: read of block 256 (in the range)" "$rerr" if="$dev" of=/dev/null bs=4k skip=256 count=1 iflag=direct
	dd_eio "$dev: write of block 256" if=/dev/zero of="$dev" bs=4k seek=256 count=1 oflag=direct
	dd_err "$dev: 8 KiB read of blocks 255-256, into the range" "$rerr" if="$dev" of=/dev/null bs=8k skip=$((255 * 4096)) count=1 iflag=direct,skip_bytes
	dd_ok "$dev: read of block 257, just after the range" if="$dev" of=/dev/null bs=4k skip=257 count=1 iflag=direct
	dd_ok "$dev: read of blocks 0-255" if="$dev" of=/tmp/back.$$ bs=4k count=256 iflag=direct
	cmp /tmp/pat.$$ /tmp/back.$$ || fail "$dev: data before the bad range changed"
done

# SCSI: the sense says which LBA failed first (READ(10)/WRITE(10): 28/2a, LBA, length)
sg_medium_error "READ(10) LBA 2040 x16" 3/11/00 2048 -r 8192 "$dev_sg" 28 00 $(hex32 2040) 00 $(hex16 16) 00
sg_medium_error "READ(10) LBA 2053 x8" 3/11/00 2053 -r 4096 "$dev_sg" 28 00 $(hex32 2053) 00 $(hex16 8) 00
sg_medium_error "WRITE(10) LBA 2052 x8" 3/0c/00 2052 -s 4096 -i /dev/zero "$dev_sg" 2a 00 $(hex32 2052) 00 $(hex16 8) 00
sg_medium_error "WRITE(16) LBA 2044 x8" 3/0c/00 2048 -s 4096 -i /dev/zero "$dev_sg" 8a 00 00 00 00 00 $(hex32 2044) 00 00 00 08 00 00
expect_sense "READ(10) LBA 2056 x8 (after the range)" none -r 4096 "$dev_sg" 28 00 $(hex32 2056) 00 $(hex16 8) 00

# clearing the range: every block reads and writes again
set_param badblocks ""
expect_eq "badblocks after clearing" "" "$(cat $PARAMS/badblocks)"
for dev in /dev/ramlld0 /dev/ramlldmq0 $dev_sd; do
	dd_ok "$dev: write of block 256 after clearing" if=/dev/zero of="$dev" bs=4k seek=256 count=1 oflag=direct
	dd_ok "$dev: read of block 256 after clearing" if="$dev" of=/dev/null bs=4k skip=256 count=1 iflag=direct
done
expect_sense "READ(10) LBA 2040 x16 after clearing" none -r 8192 "$dev_sg" 28 00 $(hex32 2040) 00 $(hex16 16) 00

# set at run time: one sector only
set_param badblocks 100-100
expect_eq "badblocks set at run time" 100-100 "$(cat $PARAMS/badblocks)"
dd_eio "/dev/ramlldmq0: read of block 12 (sectors 96-103)" if=/dev/ramlldmq0 of=/dev/null bs=4k skip=12 count=1 iflag=direct
sg_medium_error "READ(10) LBA 96 x8" 3/11/00 100 -r 4096 "$dev_sg" 28 00 $(hex32 96) 00 $(hex16 8) 00
set_param badblocks ""
rm -f /tmp/pat.$$ /tmp/back.$$ /tmp/dd.err.$$
ramlld_unload

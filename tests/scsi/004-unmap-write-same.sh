#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: UNMAP, WRITE SAME(10/16) with and without UNMAP, NDOB, blkdiscard/-z through sd: exact ranges, rest intact
# where: guest
# requires: sg_unmap sg_write_same sg_raw blkdiscard cmp od
# timeout: 400
. "$TOP/tests/lib.sh"
. "$TOP/tests/scsi/scsi-lib.bash"

scsi_load mode=scsi nr_devices=1 capacity_mb=8
sg=/dev/${SG[0]} sd=/dev/${SD[0]}
pat=/tmp/pattern.$$ back=/tmp/back.$$
head -c $((1024 * 1024)) /dev/urandom > $pat

# nonzero BLOCKS of the 1 MiB at the start of the disk, as "first-last" 512-byte block ranges
nonzero_ranges() {
	dd if="$sd" bs=64k count=16 iflag=direct status=none > $back
	od -An -v -tx8 -w512 $back | awk '{ z = 1; for (i = 1; i <= NF; i++) if ($i != "0000000000000000") { z = 0; break } }
		!z && s < 0 { s = NR - 1 } z && s >= 0 { printf "%d-%d ", s, NR - 2; s = -1 }
		BEGIN { s = -1 } END { if (s >= 0) printf "%d-%d ", s, NR - 1 }' | sed 's/ $//'
}
rewrite() { dd if=$pat of="$sd" bs=64k oflag=direct status=none || fail "write the pattern"; }

rewrite
sg_unmap --force --lba=9 --num=30 "$sg" || fail "sg_unmap"
expect_eq "nonzero blocks after UNMAP of 9..38" "0-8 39-2047" "$(nonzero_ranges)"
cmp -n $((9 * 512)) $pat $back || fail "data before the UNMAP range changed"
cmp -i $((39 * 512)) $pat $back || fail "data after the UNMAP range changed"

rewrite
sg_write_same --16 --unmap --lba=100 --num=200 "$sg" || fail "WRITE SAME(16) UNMAP"
expect_eq "nonzero blocks after WRITE SAME(16) UNMAP of 100..299" "0-99 300-2047" "$(nonzero_ranges)"
rewrite
sg_write_same --10 --lba=5 --num=3 "$sg" || fail "WRITE SAME(10) zeros"
expect_eq "nonzero blocks after WRITE SAME(10) zeros of 5..7" "0-4 8-2047" "$(nonzero_ranges)"
rewrite
sg_write_same --16 --ndob --lba=2000 --num=48 "$sg" || fail "WRITE SAME(16) NDOB"
expect_eq "nonzero blocks after WRITE SAME(16) NDOB of 2000..2047" "0-1999" "$(nonzero_ranges)"

# WRITE SAME with data: the block repeated
head -c 512 /dev/urandom > /tmp/blk.$$
sg_write_same --10 --in=/tmp/blk.$$ --lba=10 --num=4 "$sg" || fail "WRITE SAME(10) with data"
dd if="$sd" bs=512 skip=10 count=4 iflag=direct status=none > $back
for i in 0 1 2 3; do
	cmp -n 512 /tmp/blk.$$ <(dd if=$back bs=512 skip=$i count=1 status=none) || fail "WRITE SAME block $((10 + i)) differs"
done
echo "ok: WRITE SAME(10) repeated the block over 10..13"

# UNMAP errors: past the end, more descriptors than allowed (sense checked)
printf '\x00\x16\x00\x10\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x3f\xff\x00\x00\x00\x02\x00\x00\x00\x00' > /tmp/um.$$
expect_sense "UNMAP past the end" "5/21/00" "$sg" -s 24 -i /tmp/um.$$ 42 00 00 00 00 00 00 00 18 00
expect_sense "UNMAP parameter list of 4 bytes" "5/1a/00" "$sg" -s 4 -i /tmp/um.$$ 42 00 00 00 00 00 00 00 04 00
expect_sense "UNMAP ANCHOR" "5/24/00 sks=c80001" "$sg" -s 24 -i /tmp/um.$$ 42 01 00 00 00 00 00 00 18 00

# the block layer's way: discard and write zeroes through sd
rewrite
blkdiscard -o $((4096 + 512)) -l $((3 * 4096)) "$sd" || fail "blkdiscard"
expect_eq "nonzero blocks after blkdiscard [4608, 16896)" "0-8 33-2047" "$(nonzero_ranges)"
rewrite
blkdiscard -z -o 4096 -l 8192 "$sd" || fail "blkdiscard -z"
expect_eq "nonzero blocks after blkdiscard -z [4096, 12288)" "0-7 24-2047" "$(nonzero_ranges)"
blkdiscard "$sd" || fail "whole-disk blkdiscard"
expect_eq "nonzero blocks after whole-disk discard" "" "$(nonzero_ranges)"
ramlld_unload

# MAXIMUM UNMAP LBA COUNT (VPD B0: 64 MiB = 131072 blocks) bounds the whole command, not each
# descriptor: two descriptors of 65536 blocks pass, 65536 + 65537 fail on the second one's count
scsi_load mode=scsi nr_devices=1 capacity_mb=80
sg=/dev/${SG[0]}
expect_eq "VPD B0 max unmap LBA count" "00 02 00 00" "$(bytes "$(scsi_din "$sg" 64 12 01 b0 00 40 00)" 20 4)"
# desc LBA NR: one 16-byte UNMAP block descriptor (big-endian LBA and count, 4 reserved bytes)
desc() {
	printf '%b' "$(printf '%016x%08x00000000' "$1" "$2" | sed 's/../\\x&/g')"
}
# unmap_list NR2: a parameter list of two descriptors, (0, 65536) and (65536, NR2)
unmap_list() {
	{
		printf '\x00\x26\x00\x20\x00\x00\x00\x00'
		desc 0 65536
		desc 65536 "$1"
	} > /tmp/um.$$
}
unmap_list 65536
expect_eq "UNMAP list size" 40 "$(stat -c %s /tmp/um.$$)"
expect_sense "UNMAP of 65536 + 65536 blocks" none "$sg" -s 40 -i /tmp/um.$$ 42 00 00 00 00 00 00 00 28 00
unmap_list 65537
expect_sense "UNMAP of 65536 + 65537 blocks" "5/26/00 sks=800020" "$sg" -s 40 -i /tmp/um.$$ 42 00 00 00 00 00 00 00 28 00
rm -f $pat $back /tmp/blk.$$ /tmp/um.$$
ramlld_unload

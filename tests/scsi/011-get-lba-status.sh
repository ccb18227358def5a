#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: GET LBA STATUS (sg_get_lba_status) against store pages written, discarded and never written through bio, mq and sd; WRITE SAME UNMAP/NDOB provisioning; prealloc all mapped
# where: guest
# requires: sg_get_lba_status sg_write_same sg_unmap sg_raw blkdiscard
# timeout: 300
. "$TOP/tests/lib.sh"
. "$TOP/tests/scsi/scsi-lib.bash"

# lba_status SG [LBA [MAXLEN]]: the descriptors as "lba+blocks:status" (decimal; status 0 mapped,
# 1 deallocated), space-separated
lba_status() {
	local l n s a out
	out=$(sg_get_lba_status --brief --maxlen="${3:-4096}" --lba="${2:-0}" "$1") ||
		fail "sg_get_lba_status --lba=${2:-0} $1 failed"
	# descriptor lines only (after header lines such as "Completion condition=0")
	while read -r l n s a; do
		[[ $l == 0x* ]] || continue
		: "$a"
		printf '%d+%d:%d ' "$l" "$n" "$s"
	done <<< "$out" | sed 's/ $//'
}

# 8 MiB of 512-byte blocks: 16384 blocks, 8 to a 4 KiB store page
scsi_load mode=all nr_devices=1 capacity_mb=8
wait_for_path /dev/ramlld0
wait_for_path /dev/ramlldmq0
bio=/dev/ramlld0 mq=/dev/ramlldmq0 sd=/dev/${SD[0]} sg=/dev/${SG[0]}
expect_eq "never written: all deallocated" "0+16384:1" "$(lba_status "$sg")"

head -c 65536 /dev/urandom > /tmp/pat.$$
dd if=/tmp/pat.$$ of=$bio bs=4096 count=1 oflag=direct status=none || fail "write through bio"
dd if=/tmp/pat.$$ of=$mq bs=8192 count=1 seek=8 oflag=direct status=none || fail "write through mq"
dd if=/tmp/pat.$$ of="$sd" bs=512 count=1 seek=1003 oflag=direct status=none || fail "write through sd"
want="0+8:0 8+120:1 128+16:0 144+856:1 1000+8:0 1008+15376:1"
expect_eq "after writes through bio (page 0), mq (pages 16-17), sd (one block of page 125)" "$want" "$(lba_status "$sg")"
expect_eq "from LBA 130, inside a run" "130+14:0 144+856:1 1000+8:0 1008+15376:1" "$(lba_status "$sg" 130)"
expect_eq "allocation length 24: one descriptor" "0+8:0" "$(lba_status "$sg" 0 24)"
expect_eq "the last block" "16383+1:1" "$(lba_status "$sg" 16383)"
expect_sense "GET LBA STATUS at the capacity" "5/21/00" "$sg" -r 24 9e 12 00 00 00 00 00 00 40 00 00 00 00 18 00 00

# discards: whole pages are freed, through each front end; a part of a page stays mapped
blkdiscard -o 65536 -l 4096 $bio || fail "blkdiscard through bio"
blkdiscard -o 0 -l 4096 $mq || fail "blkdiscard through mq"
blkdiscard -o $((1000 * 512)) -l 4096 "$sd" || fail "blkdiscard through sd"
expect_eq "after discards of pages 16 (bio), 0 (mq), 125 (sd)" "0+136:1 136+8:0 144+16240:1" "$(lba_status "$sg")"
sg_unmap --force --lba=137 --num=1 "$sg" || fail "UNMAP of one block"
expect_eq "UNMAP of one block of page 17: still mapped (zeroed in place)" "0+136:1 136+8:0 144+16240:1" "$(lba_status "$sg")"
expect_eq "block 137 reads zeros" 0 "$(dd if="$sd" bs=512 skip=137 count=1 iflag=direct status=none | tr -d '\0' | wc -c)"
sg_unmap --force --lba=136 --num=8 "$sg" || fail "UNMAP of page 17"
expect_eq "UNMAP of page 17" "0+16384:1" "$(lba_status "$sg")"
echo "ok: GET LBA STATUS follows writes and discards through bio, mq and sd exactly"

# WRITE SAME: only UNMAP=1 deallocates; NDOB writes zeros
sg_write_same --16 --ndob --lba=2000 --num=16 "$sg" || fail "WRITE SAME(16) NDOB"
expect_eq "WRITE SAME(16) NDOB without UNMAP: mapped" "0+2000:1 2000+16:0 2016+14368:1" "$(lba_status "$sg")"
expect_eq "blocks 2000..2015 read zeros" 0 "$(dd if="$sd" bs=512 skip=2000 count=16 iflag=direct status=none | tr -d '\0' | wc -c)"
sg_write_same --16 --ndob --unmap --lba=2000 --num=16 "$sg" || fail "WRITE SAME(16) NDOB UNMAP"
expect_eq "WRITE SAME(16) NDOB UNMAP: deallocated" "0+16384:1" "$(lba_status "$sg")"
head -c 512 /dev/zero > /tmp/zero.$$
sg_write_same --10 --in=/tmp/zero.$$ --lba=3000 --num=8 "$sg" || fail "WRITE SAME(10) of zeros"
expect_eq "WRITE SAME(10) of zeros without UNMAP: mapped" "0+3000:1 3000+8:0 3008+13376:1" "$(lba_status "$sg")"
sg_write_same --10 --unmap --in=/tmp/zero.$$ --lba=3000 --num=8 "$sg" || fail "WRITE SAME(10) UNMAP of zeros"
expect_eq "WRITE SAME(10) UNMAP of zeros: deallocated" "0+16384:1" "$(lba_status "$sg")"
dd if=/tmp/pat.$$ of="$sd" bs=512 count=8 seek=3000 oflag=direct status=none
sg_write_same --10 --unmap --in=/tmp/pat.$$ --lba=3000 --num=8 "$sg" || fail "WRITE SAME(10) UNMAP of data"
expect_eq "WRITE SAME(10) UNMAP of non-zero data: written, mapped" "0+3000:1 3000+8:0 3008+13376:1" "$(lba_status "$sg")"
expect_sense "WRITE SAME(16) ANCHOR" "5/24/00 sks=cc0001" "$sg" 93 19 00 00 00 00 00 00 00 00 00 00 00 01 00 00
echo "ok: WRITE SAME: NDOB and zeros stay mapped without UNMAP, deallocate with it"
rm -f /tmp/pat.$$ /tmp/zero.$$
ramlld_unload

# prealloc: every page is there from the start, and stays
scsi_load mode=scsi nr_devices=1 capacity_mb=8 prealloc=1
sg=/dev/${SG[0]}
expect_eq "prealloc: all mapped" "0+16384:0" "$(lba_status "$sg")"
sg_unmap --force --lba=0 --num=64 "$sg" || fail "UNMAP on prealloc"
expect_eq "prealloc after UNMAP: still mapped" "0+16384:0" "$(lba_status "$sg")"
ramlld_unload

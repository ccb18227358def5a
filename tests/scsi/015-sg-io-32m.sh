#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: one SG_IO WRITE(16) and READ(16) of 65,536 blocks (32 MiB) each succeed on the sd disk's sg node and the bytes read back; max_hw_sectors_kb is 32768 on every front end while max_sectors_kb stays 1024; a smaller max_hw_sectors_kb refuses the same READ(16)
# where: guest
# requires: sg_dd cmp head
# timeout: 300
. "$TOP/tests/lib.sh"
. "$TOP/tests/scsi/scsi-lib.bash"

src=/tmp/sgio-src.$$ back=/tmp/sgio-back.$$
trap 'rm -f "$src" "$back" /tmp/sgio-err.$$' EXIT
head -c $((32 << 20)) /dev/urandom > "$src"

scsi_load mode=all capacity_mb=64
sg=/dev/${SG[0]} sd=${SD[0]}
for d in ramlld0 ramlldmq0 "$sd"; do
	expect_eq "$d max_hw_sectors_kb" 32768 "$(cat /sys/block/"$d"/queue/max_hw_sectors_kb)"
	expect_eq "$d max_sectors_kb" 1024 "$(cat /sys/block/"$d"/queue/max_sectors_kb)"
done
# WRITE(16) / READ(16) at LBA 4096, 65536 blocks: bpt=count, one command each (sg_raw takes
# at most 16 MiB)
sg_dd if="$src" of="$sg" bs=512 bpt=65536 count=65536 seek=4096 cdbsz=16 2> /tmp/sgio-err.$$ ||
	fail "SG_IO WRITE(16) of 65536 blocks failed: $(cat /tmp/sgio-err.$$)"
sg_dd if="$sg" of="$back" bs=512 bpt=65536 count=65536 skip=4096 cdbsz=16 2> /tmp/sgio-err.$$ ||
	fail "SG_IO READ(16) of 65536 blocks failed: $(cat /tmp/sgio-err.$$)"
cmp "$src" "$back" || fail "the 32 MiB READ(16) differs from the WRITE(16)"
echo "ok: SG_IO WRITE(16) and READ(16) of 65536 blocks on $sg, 32 MiB read back equal"
# the same data through the block front ends (one store), past their 1 MiB max_sectors_kb
dd if=/dev/ramlldmq0 of="$back" bs=1M skip=2 count=32 iflag=direct status=none
cmp "$src" "$back" || fail "ramlldmq0 reads other bytes than the READ(16)"
echo "ok: ramlldmq0 reads the same 32 MiB"
ramlld_unload

# max_hw_sectors_kb=1024: the sd disk's limit is 1 MiB, the 32 MiB READ(16) is refused
scsi_load mode=scsi capacity_mb=64 max_hw_sectors_kb=1024
sg=/dev/${SG[0]}
expect_eq "${SD[0]} max_hw_sectors_kb (max_hw_sectors_kb=1024)" 1024 "$(cat /sys/block/"${SD[0]}"/queue/max_hw_sectors_kb)"
if sg_dd if="$sg" of="$back" bs=512 bpt=65536 count=65536 skip=4096 cdbsz=16 2> /dev/null; then
	fail "a 32 MiB READ(16) succeeded with max_hw_sectors_kb=1024"
fi
echo "ok: max_hw_sectors_kb=1024 refuses the 32 MiB READ(16)"
ramlld_unload

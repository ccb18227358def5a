#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: VERIFY BYTCHK 01b/11b and COMPARE AND WRITE through sg3-utils: data compared, MISCOMPARE 0e/1d/00 with the offset, data kept or written, VPD B0 limit, concurrent C&W increments
# where: guest
# requires: sg_verify sg_compare_and_write sg_write_same sg_raw cmp od
# timeout: 600
. "$TOP/tests/lib.sh"
. "$TOP/tests/scsi/scsi-lib.bash"

scsi_load mode=scsi nr_devices=1 capacity_mb=8
sg=/dev/${SG[0]} sd=/dev/${SD[0]}
t=/tmp/i22t.$$
mkdir -p $t

# blocks LBA N: N blocks of the disk from LBA, to stdout
blocks() { dd if="$sd" bs=512 skip="$1" count="$2" iflag=direct status=none; }

head -c $((64 * 512)) /dev/urandom > $t/pat
dd if=$t/pat of="$sd" bs=512 seek=100 oflag=direct status=none || fail "write the pattern"

# VERIFY BYTCHK=01b: the data-out against the medium
sg_verify --lba=100 --count=64 --ndo=$((64 * 512)) --in=$t/pat "$sg" || fail "VERIFY(10) BYTCHK=1 of equal data"
sg_verify --16 --lba=100 --count=64 --ndo=$((64 * 512)) --in=$t/pat "$sg" || fail "VERIFY(16) BYTCHK=1 of equal data"
echo "ok: VERIFY(10/16) BYTCHK=01b of 64 equal blocks: GOOD"
cp $t/pat $t/bad
printf '\x5a' | dd of=$t/bad bs=1 seek=$((37 * 512 + 123)) conv=notrunc status=none
cmp -s $t/pat $t/bad && printf '\xa5' | dd of=$t/bad bs=1 seek=$((37 * 512 + 123)) conv=notrunc status=none
rc=0
sg_verify --quiet --lba=100 --count=64 --ndo=$((64 * 512)) --in=$t/bad "$sg" || rc=$?
expect_eq "sg_verify exit status on a miscompare (14: MISCOMPARE)" 14 "$rc"
out=$(sg_raw --cmdset=1 -v -s $((64 * 512)) -i $t/bad "$sg" 2f 02 00 00 00 64 00 00 40 00 2>&1 || true)
expect_eq "VERIFY(10) BYTCHK=1 miscompare sense" "14/1d/00" "$(scsi_sense <<< "$out")"
expect_eq "VERIFY(10) BYTCHK=1 miscompare offset (INFORMATION)" $((37 * 512 + 123)) "$(scsi_sense_info <<< "$out")"
out=$(sg_raw --cmdset=1 -v -s $((64 * 512)) -i $t/bad "$sg" 8f 02 00 00 00 00 00 00 00 64 00 00 00 40 00 00 2>&1 || true)
expect_eq "VERIFY(16) BYTCHK=1 miscompare offset" $((37 * 512 + 123)) "$(scsi_sense_info <<< "$out")"
# only the blocks before the difference: equal
sg_verify --lba=100 --count=37 --ndo=$((37 * 512)) --in=$t/bad "$sg" || fail "VERIFY of the 37 equal blocks"
echo "ok: VERIFY BYTCHK=01b finds the first differing byte, offset 19067"

# VERIFY BYTCHK=11b: one block against every block of the range
head -c 512 /dev/urandom > $t/blk
sg_write_same --10 --in=$t/blk --lba=300 --num=20 "$sg" || fail "WRITE SAME of the block"
sg_verify --ebytchk=3 --lba=300 --count=20 --ndo=512 --in=$t/blk "$sg" || fail "VERIFY BYTCHK=3 of 20 equal blocks"
rc=0
sg_verify --quiet --ebytchk=3 --lba=300 --count=21 --ndo=512 --in=$t/blk "$sg" || rc=$?
expect_eq "VERIFY BYTCHK=3 over one more block: exit status" 14 "$rc"
# the 21st block (LBA 320) is still the pattern: the first byte that differs from the block
off=$({ cmp "$t/blk" <(blocks 320 1) || true; } | awk '{ sub(",", "", $5); print $5 - 1 }')
out=$(sg_raw --cmdset=1 -v -s 512 -i $t/blk "$sg" 2f 06 00 00 01 2c 00 00 15 00 2>&1 || true)
expect_eq "VERIFY BYTCHK=3 miscompare sense" "14/1d/00" "$(scsi_sense <<< "$out")"
expect_eq "VERIFY BYTCHK=3 offset: block 20 of the range" $((20 * 512 + off)) "$(scsi_sense_info <<< "$out")"
expect_sense "VERIFY BYTCHK=10b (reserved)" "5/24/00 sks=ca0001" "$sg" -s 512 -i $t/blk 2f 04 00 00 01 2c 00 00 01 00
expect_sense "VERIFY(16) BYTCHK=3 past the end" "5/21/00" "$sg" -s 512 -i $t/blk 8f 06 00 00 00 00 00 00 3f ff 00 00 00 02 00 00
echo "ok: VERIFY BYTCHK=11b: equal range GOOD, block 20 differs at its byte $off"

# COMPARE AND WRITE: VPD B0 says 8 blocks (a 4 KiB page of 512-byte blocks)
expect_eq "VPD B0 MAXIMUM COMPARE AND WRITE LENGTH" 08 "$(bytes "$(scsi_din "$sg" 64 12 01 b0 00 40 00)" 5 1)"
blocks 100 8 > $t/cmp
head -c 4096 /dev/urandom > $t/new
sg_compare_and_write --in=$t/cmp --inw=$t/new --lba=100 --num=8 --xferlen=8192 "$sg" || fail "COMPARE AND WRITE of equal data"
cmp $t/new <(blocks 100 8) || fail "COMPARE AND WRITE did not write its data"
cmp <(tail -c +$((8 * 512 + 1)) $t/pat | head -c 512) <(blocks 108 1) || fail "the block after the C&W range changed"
echo "ok: COMPARE AND WRITE of 8 blocks: compared equal, written, the next block intact"
# the same compare data again: the medium holds the new data now
rc=0
sg_compare_and_write --quiet --in=$t/cmp --inw=$t/pat --lba=100 --num=8 --xferlen=8192 "$sg" || rc=$?
expect_eq "COMPARE AND WRITE miscompare: exit status" 14 "$rc"
cmp $t/new <(blocks 100 8) || fail "a miscompared COMPARE AND WRITE wrote"
cat $t/new $t/pat > $t/cw
printf '\x00' | dd of=$t/cw bs=1 seek=3000 conv=notrunc status=none
cmp -s <(head -c 4096 $t/new) <(head -c 4096 $t/cw) && printf '\x01' | dd of=$t/cw bs=1 seek=3000 conv=notrunc status=none
out=$(sg_raw --cmdset=1 -v -s 8192 -i $t/cw "$sg" 89 00 00 00 00 00 00 00 00 64 00 00 00 08 00 00 2>&1 || true)
expect_eq "COMPARE AND WRITE miscompare sense" "14/1d/00" "$(scsi_sense <<< "$out")"
expect_eq "COMPARE AND WRITE miscompare offset" 3000 "$(scsi_sense_info <<< "$out")"
cmp $t/new <(blocks 100 8) || fail "a miscompared COMPARE AND WRITE wrote"
echo "ok: COMPARE AND WRITE miscompare: 14/1d/00 at offset 3000, nothing written"
# a block never written compares as zeros; unaligned, across two store pages
head -c 512 /dev/zero > $t/z
head -c 512 /dev/urandom > $t/one
sg_compare_and_write --in=$t/z --inw=$t/one --lba=5000 --num=1 "$sg" || fail "C&W of a never-written block"
cmp $t/one <(blocks 5000 1) || fail "C&W of a never-written block did not write"
blocks 1004 8 > $t/cmp
sg_compare_and_write --in=$t/cmp --inw=$t/new --lba=1004 --num=8 --xferlen=8192 "$sg" || fail "C&W across two pages"
cmp $t/new <(blocks 1004 8) || fail "C&W across two pages did not write"
echo "ok: C&W of a hole (zeros) and across two store pages"
expect_sense "C&W of 9 blocks (> VPD B0)" "5/24/00 sks=c0000d" "$sg" -s 9216 -i /dev/zero 89 00 00 00 00 00 00 00 00 00 00 00 00 09 00 00
expect_sense "C&W past the end" "5/21/00" "$sg" -s 2048 -i /dev/zero 89 00 00 00 00 00 00 00 3f ff 00 00 00 02 00 00
expect_sense "C&W WRPROTECT" "5/24/00 sks=cd0001" "$sg" -s 1024 -i /dev/zero 89 20 00 00 00 00 00 00 00 00 00 00 00 01 00 00
expect_sense "C&W of 0 blocks" "none" "$sg" 89 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00

# atomicity: two writers increment one counter block with C&W, retrying on a miscompare
head -c 512 /dev/zero > $t/c0
head -c 508 /dev/zero > $t/z508
dd if=$t/c0 of="$sd" bs=512 seek=6000 oflag=direct status=none
incr() {
	local i n=0 cur esc
	for ((i = 0; i < 20; )); do
		blocks 6000 1 > "$t/cur$1"
		cur=$(od -An -tu4 -N4 "$t/cur$1")
		# the counter + 1, little-endian, in the first 4 bytes
		printf -v esc '\\x%02x\\x%02x\\x00\\x00' $(((cur + 1) & 255)) $(((cur + 1) >> 8 & 255))
		{ printf '%b' "$esc"; cat $t/z508; } > "$t/next$1"
		if sg_compare_and_write --quiet --in="$t/cur$1" --inw="$t/next$1" --lba=6000 "$sg" 2> /dev/null; then
			i=$((i + 1))
		else
			n=$((n + 1))
		fi
	done
	echo "$n" > "$t/retries$1"
}
incr a &
incr b &
wait
expect_eq "counter after 2 x 20 C&W increments" 40 "$(blocks 6000 1 | od -An -tu4 -N4 | tr -d ' ')"
echo "ok: 40 increments by two racing C&W loops, none lost (retries: $(cat $t/retriesa) + $(cat $t/retriesb))"
ramlld_unload

# 4096-byte blocks: one block at most
scsi_load mode=scsi nr_devices=1 capacity_mb=8 sector_size=4096
sg=/dev/${SG[0]}
expect_eq "VPD B0 MAXIMUM COMPARE AND WRITE LENGTH, 4096-byte blocks" 01 "$(bytes "$(scsi_din "$sg" 64 12 01 b0 00 40 00)" 5 1)"
head -c 4096 /dev/zero > $t/z4
head -c 4096 /dev/urandom > $t/one4
sg_compare_and_write --in=$t/z4 --inw=$t/one4 --lba=7 --num=1 --xferlen=8192 "$sg" || fail "C&W of one 4096-byte block"
cmp $t/one4 <(dd if="/dev/${SD[0]}" bs=4096 skip=7 count=1 iflag=direct status=none) || fail "4096-byte C&W did not write"
expect_sense "C&W of 2 4096-byte blocks" "5/24/00 sks=c0000d" "$sg" -s 16384 -i /dev/zero 89 00 00 00 00 00 00 00 00 00 00 00 00 02 00 00
echo "ok: 4096-byte blocks: C&W of one block, two refused"
rm -rf $t
ramlld_unload

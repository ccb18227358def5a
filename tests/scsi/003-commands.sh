#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: TUR, SYNC CACHE, VERIFY, opcodes, REQUEST SENSE, START STOP, resets; sense of unsupported opcodes, bad fields, LBA ranges
# where: guest
# requires: sg_raw sg_turs sg_sync sg_verify sg_opcodes sg_requests sg_start sg_reset od
# timeout: 240
. "$TOP/tests/lib.sh"
. "$TOP/tests/scsi/scsi-lib.bash"

# max_hw_sectors_kb=1024: a maximum transfer length of 2048 blocks, below the capacity
scsi_load mode=scsi nr_devices=2 capacity_mb=16 max_hw_sectors_kb=1024
sg=/dev/${SG[0]}	# 32768 blocks: last LBA 0x7fff

sg_turs "$sg" || fail "TEST UNIT READY failed"
sg_sync "$sg" || fail "SYNCHRONIZE CACHE(10) failed"
sg_sync --16 "$sg" || fail "SYNCHRONIZE CACHE(16) failed"
sg_verify --lba=32760 --count=8 "$sg" || fail "VERIFY(10) of the last 8 blocks failed"
sg_verify --16 --lba=0 --count=32768 "$sg" || fail "VERIFY(16) of the whole disk failed"
echo "ok: TUR, SYNC CACHE(10/16), VERIFY(10/16) inside the capacity"
expect_sense "VERIFY past the end" "5/21/00" "$sg" 2f 00 00 00 7f f9 00 00 08 00
expect_sense "VERIFY BYTCHK=10b (reserved)" "5/24/00 sks=ca0001" "$sg" 2f 04 00 00 00 00 00 00 01 00
expect_sense "SYNC CACHE past the end" "5/21/00" "$sg" 35 00 00 00 80 00 00 00 00 00

# unsupported operation codes
for op in 04 3b 3c 5e 83 a4 c0; do
	expect_sense "opcode $op" "5/20/00" "$sg" $op 00 00 00 00 00 00 00 00 00
done
# shellcheck disable=SC2046 # 24 separate CDB bytes
expect_sense "32-byte variable-length CDB (0x7f)" "5/20/00" "$sg" 7f 00 00 00 00 00 00 18 $(printf ' 00%.0s' $(seq 24))
expect_sense "SERVICE ACTION IN, service action 13h (not supported)" "5/24/00 sks=cc0001" \
	"$sg" 9e 13 00 00 00 00 00 00 00 00 00 00 00 20 00 00
# bad fields, with their field pointer
expect_sense "READ(10) RDPROTECT" "5/24/00 sks=cd0001" "$sg" 28 20 00 00 00 00 00 00 01 00
expect_sense "READ(10) NACA" "5/24/00 sks=ca0009" "$sg" 28 00 00 00 00 00 00 00 01 04
expect_sense "INQUIRY page code without EVPD" "5/24/00 sks=c00002" "$sg" 12 00 80 00 ff 00
expect_sense "REPORT LUNS select 5" "5/24/00 sks=c00002" "$sg" a0 00 05 00 00 00 00 00 01 00 00 00
expect_sense "WRITE SAME(16) of 0 blocks (WSNZ)" "5/24/00 sks=c0000a" "$sg" 93 09 00 00 00 00 00 00 00 00 00 00 00 00 00 00
expect_sense "READ(16) 2049 blocks (> max transfer)" "5/24/00 sks=c0000a" "$sg" 88 00 00 00 00 00 00 00 00 00 00 00 08 01 00 00
# LBA range boundaries: the last block reads, one past does not, lba + length overflow
sg_raw --cmdset=1 -r 512 "$sg" 88 00 00 00 00 00 00 00 7f ff 00 00 00 01 00 00 > /dev/null 2>&1 || fail "READ(16) of the last block"
echo "ok: READ(16) of the last block"
expect_sense "READ(16) last block + 1" "5/21/00" "$sg" -r 1024 88 00 00 00 00 00 00 00 7f ff 00 00 00 02 00 00
expect_sense "READ(16) at the capacity" "5/21/00" "$sg" -r 512 88 00 00 00 00 00 00 00 80 00 00 00 00 01 00 00
expect_sense "READ(16) lba + length overflows" "5/21/00" "$sg" -r 1024 88 00 ff ff ff ff ff ff ff ff 00 00 00 02 00 00
expect_sense "WRITE(10) at the capacity" "5/21/00" "$sg" -s 512 -i /dev/zero 2a 00 00 00 80 00 00 00 01 00
# a READ whose buffer is shorter than its transfer length: only the buffer is filled
out=$(sg_raw --cmdset=1 -v -r 100 "$sg" 28 00 00 00 00 00 00 00 01 00 2>&1) || fail "short-buffer READ: $out"
echo "ok: READ(10) of 512 bytes into a 100-byte buffer: GOOD"

# REPORT SUPPORTED OPERATION CODES
out=$(sg_opcodes "$sg")
expect_eq "sg_opcodes: commands listed" 36 "$(grep -cE '^ [0-9a-f]{2} ' <<< "$out")"
out=$(sg_opcodes -o 0x88 "$sg")
expect_eq "READ(16) usage data" "88 18 ff ff ff ff ff ff ff ff ff ff ff ff 00 00" "$(tool_field "Usage data" <<< "$out")"
out=$(sg_opcodes -o 0x9e -s 0x10 "$sg")
expect_eq "READ CAPACITY(16) usage data" "9e 10 00 00 00 00 00 00 00 00 ff ff ff ff 00 00" "$(tool_field "Usage data" <<< "$out")"
out=$(sg_opcodes -o 0x04 "$sg" 2>&1 || true)
grep -qi "not supported" <<< "$out" || fail "opcode 0x04 not reported unsupported: $out"
echo "ok: opcode 0x04 reported as not supported"

# START STOP UNIT: stopped, media commands are NOT READY; REQUEST SENSE says why
sg_start --stop "$sg" || fail "START STOP UNIT (stop)"
expect_sense "TUR while stopped" "2/04/02" "$sg" 00 00 00 00 00 00
out=$(sg_requests "$sg" 2>&1 || true)
grep -q "Not Ready" <<< "$out" || fail "REQUEST SENSE while stopped: $out"
sg_start --start "$sg" || fail "START STOP UNIT (start)"
sg_turs "$sg" || fail "TUR after start"
echo "ok: stop -> NOT READY 04/02 -> start -> ready"
sg_raw --cmdset=1 "$sg" 1e 00 00 00 01 00 > /dev/null 2>&1 || fail "PREVENT ALLOW MEDIUM REMOVAL"
out=$(sg_requests "$sg" 2>&1 || true)
grep -q "No Sense" <<< "$out" || fail "REQUEST SENSE: $out"
echo "ok: PREVENT ALLOW MEDIUM REMOVAL, REQUEST SENSE: no sense"

# resets: a unit attention for the LUNs reached, once
sg_reset -d "$sg" || fail "sg_reset -d"
expect_sense "TUR after device reset" "6/29/03" "$sg" 00 00 00 00 00 00
sg_turs "$sg" || fail "TUR after the unit attention"
sg_reset -H "$sg" || fail "sg_reset -H"
expect_sense "TUR on the other LUN after host reset" "6/29/02" "/dev/${SG[1]}" 00 00 00 00 00 00
expect_sense "TUR after it" "none" "/dev/${SG[1]}" 00 00 00 00 00 00
sg_turs "$sg" > /dev/null 2>&1 || true
dd if=/dev/"${SD[0]}" of=/dev/null bs=64k count=16 iflag=direct status=none || fail "read after host reset"
echo "ok: I/O works after the resets"
ramlld_unload

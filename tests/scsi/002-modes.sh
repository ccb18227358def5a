#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: MODE SENSE caching/control pages and page controls, MODE SELECT of WCE (sd cache_type) and D_SENSE, write_cache=0
# where: guest
# requires: sg_raw sg_modes od
# timeout: 240
. "$TOP/tests/lib.sh"
. "$TOP/tests/scsi/scsi-lib.bash"

scsi_load mode=scsi nr_devices=1 capacity_mb=8
sg=/dev/${SG[0]} sd=${SD[0]}
cache_type=$(echo /sys/block/"$sd"/device/scsi_disk/*/cache_type)

# MODE SENSE(6), caching page, DBD: header (DPOFUA), page 08 with WCE
d=$(scsi_din "$sg" 255 1a 08 08 00 ff 00)
expect_eq "MODE SENSE(6) caching, current" "17 00 10 00 08 12 04 00" "$(bytes "$d" 0 8)"
d=$(scsi_din "$sg" 255 1a 08 48 00 ff 00)
expect_eq "caching, changeable" "17 00 00 00 08 12 04 00" "$(bytes "$d" 0 8)"
d=$(scsi_din "$sg" 255 1a 08 0a 00 ff 00)
expect_eq "control, current (D_SENSE 0)" "0f 00 10 00 0a 0a 02 10" "$(bytes "$d" 0 8)"
d=$(scsi_din "$sg" 255 1a 08 4a 00 ff 00)
expect_eq "control, changeable (D_SENSE)" "0f 00 00 00 0a 0a 04 00" "$(bytes "$d" 0 8)"
# all pages with an 8-byte block descriptor: 16384 blocks of 512 bytes
d=$(scsi_din "$sg" 255 1a 00 3f 00 ff 00)
expect_eq "all pages: length, descriptor" "2b 00 10 08 00 00 40 00 00 00 02 00" "$(bytes "$d" 0 12)"
expect_eq "all pages: page codes" "08 0a" "$(bytes "$d" 12 1) $(bytes "$d" 32 1)"
# MODE SENSE(10) with LLBAA: a 16-byte descriptor
d=$(scsi_din "$sg" 255 5a 10 08 00 00 00 00 00 ff 00)
expect_eq "MODE SENSE(10) LLBAA header" "00 2a 00 10 01 00 00 10" "$(bytes "$d" 0 8)"
expect_sense "MODE SENSE saved values" "5/39/00 sks=cf0002" "$sg" 1a 00 c8 00 ff 00
expect_sense "MODE SENSE page 0x1c" "5/24/00 sks=cd0002" "$sg" 1a 00 1c 00 ff 00
out=$(sg_modes -p ca "$sg")
grep -q "08 12 04 00" <<< "$out" || fail "sg_modes -p ca: WCE not set: $out"
echo "ok: sg_modes shows the caching page with WCE=1"

# sd's MODE SELECT path: cache_type write through / write back
expect_eq "sd cache_type at load" "write back" "$(cat "$cache_type")"
echo "write through" > "$cache_type"
expect_eq "sd cache_type after MODE SELECT" "write through" "$(cat "$cache_type")"
expect_eq "WCE read back" "08 12 00" "$(bytes "$(scsi_din "$sg" 255 1a 08 08 00 ff 00)" 4 3)"
expect_eq "$sd queue/write_cache" "write through" "$(cat /sys/block/"$sd"/queue/write_cache)"
echo "write back" > "$cache_type"
expect_eq "WCE read back" "08 12 04" "$(bytes "$(scsi_din "$sg" 255 1a 08 08 00 ff 00)" 4 3)"

# MODE SELECT(6) by hand: a non-changeable bit (RCD) is refused with a field pointer
p=/tmp/ms.$$
printf '\x00\x00\x00\x00\x08\x12\x05\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00' > $p
expect_sense "MODE SELECT RCD=1" "5/26/00 sks=880006" "$sg" -s 24 -i $p 15 10 00 00 18 00
expect_sense "MODE SELECT parameter list too short" "5/1a/00" "$sg" -s 3 -i $p 15 10 00 00 03 00
expect_sense "MODE SELECT SP=1" "5/24/00 sks=c80001" "$sg" -s 24 -i $p 15 11 00 00 18 00
# D_SENSE=1 through MODE SELECT(10): errors come in descriptor format
printf '\x00\x00\x00\x00\x00\x00\x00\x00\x0a\x0a\x06\x10\x00\x00\x00\x00\x00\x00\x00\x00' > $p
out=$(sg_raw --cmdset=1 -v -s 20 -i $p "$sg" 55 10 00 00 00 00 00 00 14 00 2>&1) || fail "MODE SELECT(10) D_SENSE=1: $out"
expect_sense "descriptor sense, invalid opcode" "5/20/00" "$sg" 04 00 00 00 00 00
out=$(sg_raw --cmdset=1 -v "$sg" 28 20 00 00 00 00 00 00 01 00 2>&1 || true)
grep -q "Descriptor format" <<< "$out" || fail "not descriptor sense: $out"
expect_eq "descriptor sense with field pointer" "5/24/00 sks=cd0001" "$(scsi_sense <<< "$out")"
printf '\x00\x00\x00\x00\x00\x00\x00\x00\x0a\x0a\x02\x10\x00\x00\x00\x00\x00\x00\x00\x00' > $p
sg_raw --cmdset=1 -s 20 -i $p "$sg" 55 10 00 00 00 00 00 00 14 00 > /dev/null 2>&1 || fail "MODE SELECT(10) D_SENSE=0"
out=$(sg_raw --cmdset=1 -v "$sg" 04 00 00 00 00 00 2>&1 || true)
grep -q "Fixed format" <<< "$out" || fail "not fixed sense after D_SENSE=0: $out"
echo "ok: D_SENSE=0 gives fixed sense again"
rm -f $p
ramlld_unload

# write_cache=0: WCE off at load, and sd sees write through
scsi_load mode=scsi nr_devices=1 capacity_mb=8 write_cache=0
expect_eq "write_cache=0: WCE" "08 12 00" "$(bytes "$(scsi_din /dev/"${SG[0]}" 255 1a 08 08 00 ff 00)" 4 3)"
expect_eq "write_cache=0: sd cache_type" "write through" "$(cat /sys/block/"${SD[0]}"/device/scsi_disk/*/cache_type)"
ramlld_unload

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: PRE-FETCH(10/16) CONDITION MET, SEND DIAGNOSTIC self-tests and pages, RECEIVE DIAGNOSTIC RESULTS, LOG SENSE pages through sg_seek, sg_senddiag, sg_logs, sg_raw: data and sense
# where: guest
# requires: sg_seek sg_senddiag sg_logs sg_raw od
# timeout: 240
. "$TOP/tests/lib.sh"
. "$TOP/tests/scsi/scsi-lib.bash"

scsi_load mode=scsi nr_devices=1 capacity_mb=16
sg=/dev/${SG[0]}	# 32768 blocks: last LBA 0x7fff

# sg_status ARGS...: the SCSI status sg_raw -v reports for the command (e.g. "Condition Met")
sg_status() {
	sg_raw --cmdset=1 -v "$@" 2>&1 | sed -n 's/.*SCSI Status: \(.*\)$/\1/p' | head -1 | sed 's/ *$//'
}

# PRE-FETCH: the whole range is in the cache (RAM): CONDITION MET, with or without IMMED;
# sg3-utils exits 25 (SG_LIB_CAT_CONDITION_MET) for it
rc=0
out=$(sg_seek --pre-fetch --lba=32700 --num-blocks=68 "$sg" 2>&1) || rc=$?
expect_eq "sg_seek --pre-fetch (16): exit status" 25 "$rc"
grep -qi "condition met" <<< "$out" || fail "PRE-FETCH(16) did not report CONDITION MET: $out"
rc=0
out=$(sg_seek --pre-fetch --10 --immed --lba=0 --num-blocks=32768 "$sg" 2>&1) || rc=$?
expect_eq "sg_seek --pre-fetch --10 --immed: exit status" 25 "$rc"
grep -qi "condition met" <<< "$out" || fail "PRE-FETCH(10) IMMED did not report CONDITION MET: $out"
echo "ok: sg_seek --pre-fetch (16 and 10, IMMED): condition met"
expect_eq "PRE-FETCH(10) status" "Condition Met" "$(sg_status "$sg" 34 00 00 00 00 00 00 00 10 00)"
expect_eq "PRE-FETCH(16) of 0 blocks (to the end)" "Condition Met" "$(sg_status "$sg" 90 02 00 00 00 00 00 00 7f 00 00 00 00 00 00 00)"
expect_sense "PRE-FETCH(10) past the end" "5/21/00" "$sg" 34 00 00 00 7f f9 00 00 08 00
expect_sense "PRE-FETCH(16) at the capacity, 0 blocks" "5/21/00" "$sg" 90 00 00 00 00 00 00 00 80 00 00 00 00 00 00 00
expect_sense "PRE-FETCH(10) group number" "5/24/00 sks=c80006" "$sg" 34 00 00 00 00 00 01 00 01 00
expect_sense "PRE-FETCH(16) byte 1 bit 0" "5/24/00 sks=c80001" "$sg" 90 01 00 00 00 00 00 00 00 00 00 00 00 01 00 00

# SEND DIAGNOSTIC: the default self-test and every self-test code
sg_senddiag --test "$sg" || fail "sg_senddiag --test (default self-test)"
sg_senddiag --test --doff --uoff "$sg" || fail "sg_senddiag --test --doff --uoff"
for st in 1 2 4 5 6; do
	sg_senddiag --selftest=$st "$sg" || fail "sg_senddiag --selftest=$st"
done
echo "ok: default self-test, self-test codes 1 2 4 5 6: GOOD"
expect_sense "SEND DIAGNOSTIC self-test code 011b (reserved)" "5/24/00 sks=cf0001" "$sg" 1d 60 00 00 00 00
expect_sense "SEND DIAGNOSTIC SELFTEST=1 with a code" "5/24/00 sks=cf0001" "$sg" 1d 24 00 00 00 00
expect_sense "SEND DIAGNOSTIC SELFTEST=1 with a list" "5/24/00 sks=c00003" "$sg" -s 4 -i /dev/zero 1d 14 00 00 04 00
expect_sense "SEND DIAGNOSTIC PF=0 with a list" "5/24/00 sks=cc0001" "$sg" -s 4 -i /dev/zero 1d 00 00 00 04 00
printf '\x80\x00\x00\x00' > /tmp/diag.$$
expect_sense "SEND DIAGNOSTIC page 80h" "5/26/00 sks=800000" "$sg" -s 4 -i /tmp/diag.$$ 1d 10 00 00 04 00
printf '\x00\x00\x00\x04' > /tmp/diag.$$
expect_sense "SEND DIAGNOSTIC page length beyond the list" "5/1a/00" "$sg" -s 4 -i /tmp/diag.$$ 1d 10 00 00 04 00
rm -f /tmp/diag.$$
# the supported diagnostic pages: SEND DIAGNOSTIC (page 00h) + RECEIVE DIAGNOSTIC RESULTS
out=$(sg_senddiag --list "$sg" 2>&1) || fail "sg_senddiag --list: $out"
grep -qiE "0x0+ +Supported diagnostic pages" <<< "$out" || fail "sg_senddiag --list: $out"
expect_eq "RECEIVE DIAGNOSTIC RESULTS PCV=1 page 00h" "00 00 00 01 00" "$(scsi_din "$sg" 64 1c 01 00 00 40 00)"
expect_sense "RECEIVE DIAGNOSTIC RESULTS page 01h" "5/24/00 sks=c00002" "$sg" -r 64 1c 01 01 00 40 00
echo "ok: supported diagnostic pages: 00h"

# LOG SENSE
out=$(sg_logs "$sg")
for p in "Supported log pages" "Temperature" "Solid state media" "Informational exceptions"; do
	grep -qi "$p" <<< "$out" || fail "sg_logs: no \"$p\" in: $out"
done
expect_eq "supported log pages (raw)" "00 00 00 04 00 0d 11 2f" "$(scsi_din "$sg" 64 4d 00 40 00 00 00 00 00 40 00)"
expect_eq "supported log pages and subpages (raw)" \
	"40 ff 00 10 00 00 00 ff 0d 00 0d ff 11 00 11 ff 2f 00 2f ff" \
	"$(scsi_din "$sg" 64 4d 00 40 ff 00 00 00 00 40 00)"
out=$(sg_logs --page=0xd "$sg")
grep -qi "Current temperature *= *<not available>" <<< "$out" || fail "sg_logs -p 0xd: $out"
expect_eq "temperature page (raw)" "0d 00 00 0c 00 00 03 02 00 ff 00 01 03 02 00 ff" "$(scsi_din "$sg" 64 4d 00 4d 00 00 00 00 00 40 00)"
expect_eq "temperature page from parameter 0001h" "0d 00 00 06 00 01 03 02 00 ff" "$(scsi_din "$sg" 64 4d 00 4d 00 00 00 01 00 40 00)"
out=$(sg_logs --page=0x11 "$sg")
grep -qi "Percentage used endurance indicator: *0 *%" <<< "$out" || fail "sg_logs -p 0x11: $out"
out=$(sg_logs --page=0x2f "$sg")
grep -qi "IE asc = 0x0, ascq = 0x0" <<< "$out" || fail "sg_logs -p 0x2f: $out"
out=$(sg_logs --All "$sg" 2>&1) || fail "sg_logs --All: $out"
expect_eq "allocation length 6: 6 bytes, page length intact" "0d 00 00 0c 00 00" "$(scsi_din "$sg" 6 4d 00 4d 00 00 00 00 00 06 00)"
echo "ok: sg_logs: supported pages, temperature not available, 0 % endurance used, no failure predicted"
expect_sense "LOG SENSE threshold values" "5/24/00 sks=cf0002" "$sg" -r 64 4d 00 0d 00 00 00 00 00 40 00
expect_sense "LOG SENSE page 10h" "5/24/00 sks=cd0002" "$sg" -r 64 4d 00 50 00 00 00 00 00 40 00
expect_sense "LOG SENSE subpage 01h" "5/24/00 sks=c00003" "$sg" -r 64 4d 00 4d 01 00 00 00 00 40 00
expect_sense "LOG SENSE SP" "5/24/00 sks=c80001" "$sg" -r 64 4d 01 4d 00 00 00 00 00 40 00
expect_sense "LOG SENSE PPC" "5/24/00 sks=c90001" "$sg" -r 64 4d 02 4d 00 00 00 00 00 40 00
expect_sense "LOG SENSE parameter pointer past the last" "5/24/00 sks=c00005" "$sg" -r 64 4d 00 4d 00 00 00 02 00 40 00
ramlld_unload

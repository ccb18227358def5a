#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: INQUIRY, VPD 00/80/83/B0/B1/B2, READ CAPACITY(10/16), REPORT LUNS by value, and sd's queue from them
# where: guest
# requires: sg_raw sg_inq sg_vpd sg_readcap sg_luns od
# timeout: 240
. "$TOP/tests/lib.sh"
. "$TOP/tests/scsi/scsi-lib.bash"

scsi_load mode=scsi nr_devices=3 capacity_mb=16 sector_size=512 physical_block_size=4096
sg=/dev/${SG[1]} sd=${SD[1]}

# standard INQUIRY, raw: PDT 0, SPC-4, HISUP + format 2, length 61, CMDQUE, vendor
d=$(scsi_din "$sg" 96 12 00 00 00 60 00)
expect_eq "INQUIRY bytes 0-7" "00 00 06 12 3d 00 00 02" "$(bytes "$d" 0 8)"
expect_eq "INQUIRY length" 66 "$(wc -w <<< "$d")"
out=$(sg_inq "$sg")
expect_eq "vendor" "RAMLLD" "$(tool_field "Vendor identification" <<< "$out")"
expect_eq "product" "ramlld" "$(tool_field "Product identification" <<< "$out")"
expect_eq "sysfs scsi_level (SPC-4 + 1)" 7 "$(cat /sys/block/"$sd"/device/scsi_level)"
# allocation length truncates and the residual is what is not sent
expect_eq "INQUIRY with allocation length 5" "00 00 06 12 3d" "$(scsi_din "$sg" 5 12 00 00 00 05 00)"

# VPD pages
expect_eq "VPD 00" "00 00 00 06 00 80 83 b0 b1 b2" "$(scsi_din "$sg" 64 12 01 00 00 40 00)"
expect_eq "VPD 80 serial" "RAMLLD-L0001" "$(sg_vpd -p sn "$sg" | tool_field "Unit serial number:")"
out=$(sg_vpd -p di "$sg")
expect_eq "VPD 83 NAA" "0x352414d4c4c44001" "$(grep -A1 'designator type: NAA' <<< "$out" | tail -n 1 | tr -d ' ')"
expect_eq "VPD 83 T10 vendor" "RAMLLD" "$(tool_field "vendor id:" <<< "$out")"
out=$(sg_vpd -p bl "$sg")
expect_eq "B0 WSNZ" 1 "$(tool_field "Write same non-zero (WSNZ)" <<< "$out")"
expect_eq "B0 optimal transfer length granularity" "8 blocks" "$(tool_field "Optimal transfer length granularity" <<< "$out")"
expect_eq "B0 maximum transfer length (max_hw_sectors_kb=32768)" "65536 blocks" "$(tool_field "Maximum transfer length" <<< "$out")"
expect_eq "B0 maximum unmap LBA count" 131072 "$(tool_field "Maximum unmap LBA count" <<< "$out")"
expect_eq "B0 maximum unmap descriptors" 128 "$(tool_field "Maximum unmap block descriptor count" <<< "$out")"
expect_eq "B0 optimal unmap granularity" "8 blocks" "$(tool_field "Optimal unmap granularity" <<< "$out")"
expect_eq "B0 maximum write same" "0x20000 blocks" "$(tool_field "Maximum write same length" <<< "$out")"
expect_eq "B0 page length (raw)" "00 b0 00 3c" "$(bytes "$(scsi_din "$sg" 64 12 01 b0 00 40 00)" 0 4)"
out=$(sg_vpd -p bdc "$sg")
grep -q "Non-rotating medium" <<< "$out" || fail "B1 does not say non-rotating: $out"
echo "ok: B1 non-rotating medium"
out=$(sg_vpd -p lbpv "$sg")
for f in "(LBPU)" "(LBPWS)" "(LBPWS10)" "(LBPRZ)"; do
	expect_eq "B2 $f" 1 "$(tool_field "$f" <<< "$out")"
done
expect_eq "B2 provisioning type" "2 (thin provisioned)" "$(tool_field "Provisioning type" <<< "$out")"
expect_sense "VPD 0x89 (not supported)" "5/24/00 sks=c00002" "$sg" 12 01 89 00 40 00

# capacity: 16 MiB of 512-byte blocks, 8 per 4096-byte physical block
out=$(sg_readcap -l "$sg")
expect_eq "READ CAPACITY(16) last LBA" "32767 (0x7fff), Number of logical blocks=32768" "$(tool_field "Last LBA" <<< "$out")"
expect_eq "READ CAPACITY(16) block length" "512 bytes" "$(tool_field "Logical block length" <<< "$out")"
expect_eq "READ CAPACITY(16) lbpme, lbprz" "lbpme=1, lbprz=1" "$(tool_field "Logical block provisioning" <<< "$out")"
expect_eq "READ CAPACITY(16) exponent" "3 [so physical block length=4096 bytes]" "$(tool_field "Logical blocks per physical block exponent" <<< "$out")"
expect_eq "READ CAPACITY(10)" "00 00 7f ff 00 00 02 00" "$(scsi_din "$sg" 8 25 00 00 00 00 00 00 00 00 00)"

# REPORT LUNS: three LUNs on target 0
out=$(sg_luns "$sg")
expect_eq "REPORT LUNS entries" "0000000000000000 0001000000000000 0002000000000000" \
	"$(grep -E '^ +[0-9a-f]{16}$' <<< "$out" | tr -d ' ' | tr '\n' ' ' | sed 's/ $//')"

# what sd made of it
q=/sys/block/$sd/queue
expect_eq "$sd rotational" 0 "$(cat "$q"/rotational)"
expect_eq "$sd add_random" 0 "$(cat "$q"/add_random)"
expect_eq "$sd physical_block_size" 4096 "$(cat "$q"/physical_block_size)"
expect_eq "$sd discard_max_bytes" 67108864 "$(cat "$q"/discard_max_bytes)"
expect_eq "$sd discard_granularity" 4096 "$(cat "$q"/discard_granularity)"
expect_eq "$sd write_zeroes_max_bytes" 67108864 "$(cat "$q"/write_zeroes_max_bytes)"
expect_eq "$sd max_sectors_kb" 1024 "$(cat "$q"/max_sectors_kb)"
expect_eq "$sd max_hw_sectors_kb" 32768 "$(cat "$q"/max_hw_sectors_kb)"
expect_eq "$sd provisioning_mode" unmap "$(cat /sys/block/"$sd"/device/scsi_disk/*/provisioning_mode)"
expect_eq "$sd size (512-byte sectors)" 32768 "$(cat /sys/block/"$sd"/size)"
ramlld_unload

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: nr_devices=32 gives 32 LUNs with distinct serials and NAAs; num_tgts/luns_per_tgt map stores onto targets
# where: guest
# requires: sg_vpd sg_luns
# timeout: 600
. "$TOP/tests/lib.sh"
. "$TOP/tests/scsi/scsi-lib.bash"

scsi_load mode=scsi nr_devices=32 capacity_mb=4
serials=() naas=()
for i in "${!SG[@]}"; do
	serials+=("$(sg_vpd -p sn "/dev/${SG[$i]}" | tool_field "Unit serial number:")")
	naas+=("$(sg_vpd -p di "/dev/${SG[$i]}" | grep -A1 'designator type: NAA' | tail -n 1 | tr -d ' ')")
done
expect_eq "distinct serials" 32 "$(printf '%s\n' "${serials[@]}" | sort -u | wc -l)"
expect_eq "distinct NAAs" 32 "$(printf '%s\n' "${naas[@]}" | sort -u | wc -l)"
expect_eq "serial of store 31" "RAMLLD-L001F" "${serials[31]}"
expect_eq "HCTL of store 31" "0:0:31" "${HCTL[31]#*:}"
expect_eq "REPORT LUNS entries" 32 "$(sg_luns "/dev/${SG[0]}" | grep -cE '^ +[0-9a-f]{16}$')"
# the same data on the same store, and nothing of it elsewhere
echo "store31" | dd of=/dev/"${SD[31]}" bs=512 conv=sync oflag=direct status=none
expect_eq "store 31 block 0" store31 "$(dd if=/dev/"${SD[31]}" bs=512 count=1 iflag=direct status=none | tr -d '\0\n')"
expect_eq "store 30 block 0" "" "$(dd if=/dev/"${SD[30]}" bs=512 count=1 iflag=direct status=none | tr -d '\0')"
ramlld_unload
# 10 stores on 3 targets of 4 LUNs: 4 + 4 + 2
scsi_load mode=scsi nr_devices=10 capacity_mb=4 num_tgts=3 luns_per_tgt=4
expect_eq "target:lun of the 10 stores" "0:0 0:1 0:2 0:3 1:0 1:1 1:2 1:3 2:0 2:1" \
	"$(for h in "${HCTL[@]}"; do echo "$h" | cut -d: -f3,4; done | tr '\n' ' ' | sed 's/ $//')"
expect_eq "REPORT LUNS of target 2" 2 "$(sg_luns "/dev/${SG[8]}" | grep -cE '^ +[0-9a-f]{16}$')"
expect_eq "serial of store 9 (target 2, LUN 1)" "RAMLLD-L0009" "$(sg_vpd -p sn "/dev/${SG[9]}" | tool_field "Unit serial number:")"
# identifiers follow the store index, not the load or the target/LUN layout
expect_eq "NAA of store 7 (target 1, LUN 3) = its NAA in the first load" "${naas[7]}" \
	"$(sg_vpd -p di "/dev/${SG[7]}" | grep -A1 'designator type: NAA' | tail -n 1 | tr -d ' ')"
ramlld_unload
if insmod "$RAMLLD_KO" mode=scsi nr_devices=10 num_tgts=2 luns_per_tgt=4 2> /dev/null; then
	ramlld_unload
	fail "num_tgts=2 luns_per_tgt=4 accepted for 10 stores"
fi
echo "ok: num_tgts * luns_per_tgt < nr_devices is refused: $(dmesg | grep -o 'luns_per_tgt=4 is invalid.*' | tail -n 1)"

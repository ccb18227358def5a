#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: the largest capacity allowed (capacity_mb=1048576, 1 TiB, lazy) loads: its 2 GiB page table is past kvmalloc's INT_MAX limit; the last sector reads back through bio and sd
# where: guest
# vm: --mem 5G
# timeout: 300
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/scsi/scsi-lib.bash
. "$TOP/tests/scsi/scsi-lib.bash"

scsi_load mode=bio,scsi capacity_mb=1048576 nr_devices=1
last=$((2 ** 31 - 1)) # 512-byte sectors of 1 TiB, minus one
expect_eq "ramlld0 size (512-byte sectors)" $((2 ** 31)) "$(cat /sys/block/ramlld0/size)"
expect_eq "${SD[0]} size (512-byte sectors)" $((2 ** 31)) "$(cat "/sys/block/${SD[0]}/size")"
echo "last sector" | dd of=/dev/ramlld0 bs=512 seek=$last conv=sync oflag=direct status=none ||
	fail "write of the last sector through bio"
expect_eq "last sector through sd" "last sector" \
	"$(dd if="/dev/${SD[0]}" bs=512 skip=$last iflag=direct status=none | tr -d '\0\n')"
ramlld_unload
echo "ok: a 1 TiB store loads, and its last sector reads back"

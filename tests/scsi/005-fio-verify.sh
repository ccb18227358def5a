#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: fio crc32c verify on sd disks, 512 and 4096-byte sectors, irqmode 0/1/2, 4 LUNs at once
# where: guest
# requires: fio
# timeout: 600
. "$TOP/tests/lib.sh"
. "$TOP/tests/scsi/scsi-lib.bash"

for cfg in "sector_size=512 irqmode=0" "sector_size=4096 irqmode=1" \
	"sector_size=4096 irqmode=2 completion_nsec=20000" "sector_size=512 irqmode=2 completion_nsec=0 submit_queues=1 can_queue=8"; do
	# shellcheck disable=SC2086
	scsi_load mode=scsi nr_devices=4 capacity_mb=8 $cfg
	bs=${cfg#sector_size=}
	bs=${bs%% *}
	expect_eq "${SD[0]} logical_block_size" "$bs" "$(cat /sys/block/"${SD[0]}"/queue/logical_block_size)"
	args=()
	for d in "${SD[@]}"; do args+=(--name="$d" --filename="/dev/$d"); done
	fio --direct=1 --ioengine=libaio --iodepth=16 --rw=randwrite --bsrange="$bs"-64k --blockalign="$bs" \
		--size=100% --verify=crc32c --verify_fatal=1 --do_verify=1 --randrepeat=0 \
		--output=/tmp/fio.$$ "${args[@]}" || { cat /tmp/fio.$$; fail "fio verify with $cfg"; }
	echo "ok: fio randwrite + crc32c verify on ${SD[*]} with $cfg"
	ramlld_unload
done
rm -f /tmp/fio.$$

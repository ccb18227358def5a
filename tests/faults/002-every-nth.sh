#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: every_nth=N fails every Nth read or write of each front end (EIO on bio and mq, MEDIUM ERROR with the command's LBA on SCSI); the I/O after it succeeds; 0 turns it off
# where: guest
# requires: sg_raw
# timeout: 180
# shellcheck disable=SC2046 # hex32 and hex16 expand to several CDB bytes
. "$TOP/tests/lib.sh"
. "$TOP/tests/scsi/scsi-lib.bash"
. "$TOP/tests/faults/faults-lib.bash"

scsi_load mode=all capacity_mb=8
dev_sd=/dev/${SD[0]} dev_sg=/dev/${SG[0]}

# each front end counts its own commands from the moment the knob is written
set_param every_nth 3
expect_eq every_nth 3 "$(cat $PARAMS/every_nth)"
# (sd: a failed read is BLK_STS_MEDIUM, ENODATA to the reader)
for dev in /dev/ramlld0 /dev/ramlldmq0 $dev_sd; do
	rerr="Input/output error"
	[ "$dev" != "$dev_sd" ] || rerr="No data available"
	dd_ok "$dev: read 1 of 3" if="$dev" of=/dev/null bs=4k count=1 iflag=direct
	dd_ok "$dev: write 2 of 3" if=/dev/zero of="$dev" bs=4k count=1 oflag=direct
	dd_err "$dev: read 3 of 3" "$rerr" if="$dev" of=/dev/null bs=4k skip=5 count=1 iflag=direct
	dd_ok "$dev: read 4, after the failure" if="$dev" of=/dev/null bs=4k count=1 iflag=direct
	dd_ok "$dev: read 5" if="$dev" of=/dev/null bs=4k count=1 iflag=direct
	dd_err "$dev: read 6" "$rerr" if="$dev" of=/dev/null bs=4k count=1 iflag=direct
done

# SCSI: the sense names the command's first LBA; passthrough commands have no retries
set_param every_nth 2
expect_sense "READ(10) 1 of 2" none -r 4096 "$dev_sg" 28 00 $(hex32 64) 00 $(hex16 8) 00
sg_medium_error "READ(10) LBA 72, 2 of 2" 3/11/00 72 -r 4096 "$dev_sg" 28 00 $(hex32 72) 00 $(hex16 8) 00
expect_sense "WRITE(10) 3 of 2" none -s 4096 -i /dev/zero "$dev_sg" 2a 00 $(hex32 80) 00 $(hex16 8) 00
sg_medium_error "WRITE(10) LBA 88, 4 of 2" 3/0c/00 88 -s 4096 -i /dev/zero "$dev_sg" 2a 00 $(hex32 88) 00 $(hex16 8) 00
# non-media commands are not counted
for i in 1 2 3; do expect_sense "TEST UNIT READY $i" none "$dev_sg" 00 00 00 00 00 00; done
expect_sense "READ(10) after TURs, 5 of 2" none -r 4096 "$dev_sg" 28 00 $(hex32 64) 00 $(hex16 8) 00

# sd retries a WRITE ERROR (03/0C/00 is retryable to the midlayer): with every_nth=1 the
# retries fail too and the write ends in EIO
set_param every_nth 1
for dev in /dev/ramlld0 /dev/ramlldmq0 $dev_sd; do
	dd_eio "$dev: write with every_nth=1" if=/dev/zero of="$dev" bs=4k count=1 oflag=direct
done

set_param every_nth 0
for dev in /dev/ramlld0 /dev/ramlldmq0 $dev_sd; do
	for i in 1 2 3; do
		dd_ok "$dev: write $i with every_nth=0" if=/dev/zero of="$dev" bs=4k count=1 oflag=direct
	done
done
echo "ioerr_cnt of ${HCTL[0]}: $(cat /sys/class/scsi_device/"${HCTL[0]}"/device/ioerr_cnt)"
rm -f /tmp/dd.err.$$
ramlld_unload

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: one LUN through its sg node and its sd disk: 4 MiB written with fio's crc32c verify headers through sg (fio's sg engine, one write()/read() an I/O) read back and verified through sd (libaio, O_DIRECT), and written through sd read back through sg (queued: 16 commands in flight); a block changed through the writing path is found by the reading path's verify (EILSEQ at its offset)
# where: guest
# requires: fio python3
# timeout: 600
. "$TOP/tests/lib.sh"
# shellcheck source=tests/scsi/scsi-lib.bash
. "$TOP/tests/scsi/scsi-lib.bash"
# shellcheck source=tests/verify-lib.bash
. "$TOP/tests/verify-lib.bash"

fio --enghelp=sg > /dev/null 2>&1 || skip "fio $(fio --version) has no sg engine"
scsi_load mode=scsi capacity_mb=8
# shellcheck disable=SC2034 # cross_verify takes them by name
{
	sg_sync=(--ioengine=sg --direct=0 --sync=1)
	sg_queued=(--ioengine=sg --direct=0 --iodepth=16)
	sd_aio=(--ioengine=libaio --direct=1 --iodepth=8)
}
cross_verify sg "/dev/${SG[0]}" sg_sync sd "/dev/${SD[0]}" sd_aio
cross_verify sd "/dev/${SD[0]}" sd_aio sg-queued "/dev/${SG[0]}" sg_queued
ramlld_unload

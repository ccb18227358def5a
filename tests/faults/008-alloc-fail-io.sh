#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: failslab and fail_page_alloc fail the Nth allocation of a write, read and discard on the bio, mq and SCSI front ends (lazy store), then fail allocations at random (task-filter, make-it-fail): each failure is an I/O error, the same I/O then succeeds, data reads back, kmemleak finds no leak (needs the debug kernel: make check-debug; skipped elsewhere)
# where: guest
# requires: python3
# timeout: 400
. "$TOP/tests/lib.sh"
. "$TOP/tests/scsi/scsi-lib.bash"

need_fault_injection
kmemleak_start
scsi_load mode=all capacity_mb=32
budget=${FAILNTH_SECONDS:-15}
for dev in /dev/ramlld0 /dev/ramlldmq0 "/dev/${SD[0]}"; do
	for kind in slab page; do
		echo "== $dev, $kind"
		python3 "$TOP/tests/faults/failnth.py" io "$dev" $kind "$budget" || fail "$dev: I/O under $kind faults"
	done
	echo "== $dev, random"
	python3 "$TOP/tests/faults/failnth.py" random "$dev" 10 100 || fail "$dev: I/O under random faults"
done
ramlld_unload
kmemleak_check "I/O with allocation failures"

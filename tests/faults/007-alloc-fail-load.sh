#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: failslab and fail_page_alloc fail the Nth allocation of insmod (ramlld.ko mode bio, mq, scsi, all) and of rmmod, N spread over every allocation they make: insmod fails with ENOMEM (or EINVAL when the fault was the kernel's own dev_set_name() in device_add_disk(), whose failure it ignores: checked from the fault's stack) or loads whole, rmmod always ends it, nothing stays registered, the module loads again, kmemleak finds no leak (needs the debug kernel: make check-debug; skipped elsewhere)
# where: guest
# requires: python3
# timeout: 600
. "$TOP/tests/lib.sh"

need_fault_injection
need_modules sd_mod sg
[ -f "$RAMLLD_KO" ] || fail "$RAMLLD_KO is not built"
[ ! -d /sys/module/ramlld ] || fail "ramlld is loaded already"
modules_of "$RAMLLD_KO"
trap _ramlld_on_exit EXIT
kmemleak_start

# Each sweep has a time budget: under TCG and KASAN a load takes about a second, 3 s with SCSI
# (sd probes its disks), where the budget is larger.
budget=${FAILNTH_SECONDS:-25}
for mode in bio mq scsi all; do
	b=$budget
	[ "$mode" = bio ] || [ "$mode" = mq ] || b=$((budget * 2))
	for kind in slab page; do
		echo "== insmod mode=$mode, $kind"
		python3 "$TOP/tests/faults/failnth.py" load "$RAMLLD_KO" \
			"mode=$mode nr_devices=2 capacity_mb=16" $kind "$b" || fail "insmod mode=$mode under $kind faults"
	done
done
for kind in slab page; do
	echo "== rmmod mode=all, $kind"
	python3 "$TOP/tests/faults/failnth.py" unload "$RAMLLD_KO" "mode=all nr_devices=2 capacity_mb=16" $kind $((budget * 2)) ||
		fail "rmmod mode=all under $kind faults"
done
[ ! -d /sys/module/ramlld ] || fail "ramlld left loaded"
kmemleak_check "insmod and rmmod with allocation failures"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: every bad module parameter fails insmod with EINVAL and a line naming it; nothing stays registered
# where: guest
. "$TOP/tests/lib.sh"

# insmod (not ramlld_load: the load must fail) needs ramlld's dependencies present
for d in $(modinfo -F depends "$RAMLLD_KO" | tr , ' '); do modprobe "$d"; done

check_bad() {
	local name=$1; shift
	dmesg -C
	if out=$(insmod "$RAMLLD_KO" "$@" 2>&1); then
		rmmod ramlld
		fail "insmod $* succeeded"
	fi
	# kmod reports EINVAL from init_module as "Invalid parameters"
	echo "$out" | grep -qE "Invalid (argument|parameters)" || fail "insmod $*: expected EINVAL, got: $out"
	dmesg | grep -q "ramlld: $name=.* is invalid: allowed" ||
		fail "insmod $*: no log line naming $name: $(dmesg | tail -3)"
	[ ! -e /sys/module/ramlld ] || fail "insmod $*: /sys/module/ramlld left behind"
	ls /dev/ramlld* >/dev/null 2>&1 && fail "insmod $*: device nodes left behind"
	grep -q ramlld /proc/devices && fail "insmod $*: major left registered"
	echo "ok: $* -> EINVAL, $(dmesg | grep -o "$name=.*" | head -1)"
}

check_bad mode mode=nvme
check_bad mode mode=bio,,floppy
check_bad mode "mode="
check_bad sector_size sector_size=520
check_bad sector_size sector_size=8192
check_bad capacity_mb capacity_mb=0
check_bad capacity_mb capacity_mb=2097152
check_bad nr_devices nr_devices=0
check_bad nr_devices nr_devices=100000
check_bad physical_block_size sector_size=4096 physical_block_size=512
check_bad physical_block_size physical_block_size=3000
check_bad irqmode irqmode=3
check_bad hw_queue_depth hw_queue_depth=0
check_bad nr_hw_queues nr_hw_queues=99999
check_bad completion_nsec completion_nsec=5000000000
# a prealloc that cannot be met: -ENOMEM with a one-line message, nothing left
dmesg -C
if out=$(insmod "$RAMLLD_KO" prealloc=1 capacity_mb=1000000 2>&1); then
	rmmod ramlld; fail "prealloc of ~1 TB succeeded"
fi
echo "$out" | grep -qi "Cannot allocate memory" || fail "prealloc: expected ENOMEM, got: $out"
dmesg | grep -q "ramlld: store 0: cannot allocate" || fail "prealloc: no log line"
[ ! -e /sys/module/ramlld ] || fail "prealloc: module left"
echo "ok: impossible prealloc -> ENOMEM"

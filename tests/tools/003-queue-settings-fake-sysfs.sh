#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tools/devices/queue.sh on a fake sysfs tree (DEV_SYSFS): an NVMe multipath head's settings go on its path disks too, a head without paths, a refused or not-holding write and a blk-mq disk without a scheduler are errors naming disk and attribute, bad arguments exit 2
# where: host
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tools/devices/queue.sh
. "$TOP/tools/devices/queue.sh"

fake=$(mktemp -d /tmp/queue-sh-fake.XXXXXX)
trap 'rm -rf "$fake"' EXIT
export DEV_SYSFS=$fake

# fake_disk NAME mq|bio61|bio612: a blk-mq disk (mq-deadline active), a bio-based disk as 6.1
# shows it (a scheduler file reading "none") or as 6.11 on does (no scheduler, no rq_affinity)
fake_disk() {
	local q=$fake/block/$1/queue
	mkdir -p "$q"
	case $2 in
	mq)
		mkdir -p "$fake/block/$1/mq/0"
		echo "[mq-deadline] none" > "$q/scheduler"
		echo 1 > "$q/rq_affinity"
		;;
	bio61) echo none > "$q/scheduler" ;;
	esac
	echo 1 > "$q/iostats"
	echo 0 > "$q/nomerges"
}
# qset DISK ATTR=VALUE...: dev_queue_set, printing QUEUE_DISKS, or DEV_ERR and its status
qset() {
	local rc=0
	dev_queue_set "$@" || rc=$?
	if [ "$rc" = 0 ]; then echo "queues: ${QUEUE_DISKS[*]}"; else echo "error: $DEV_ERR"; fi
	return "$rc"
}
attr() { cat "$fake/block/$1/queue/$2"; }

fake_disk ram0 bio61
fake_disk nullb0 mq
# a 6.12 multipath head over two controllers' paths, and disks that are not its paths: another
# namespace of the subsystem, the same namespace number in another subsystem
fake_disk nvme0n1 bio612
fake_disk nvme0c0n1 mq
fake_disk nvme0c1n1 mq
fake_disk nvme0c0n11 mq
fake_disk nvme1c0n1 mq
fake_disk nvme2n1 bio612 # a head whose path is missing
fake_disk nvme3n1 mq     # multipath off: the namespace's own blk-mq disk
fake_disk noschedmq mq
rm "$fake/block/noschedmq/queue/scheduler"

run_rc 0 qset nvme0n1 scheduler=none iostats=0 nomerges=2 rq_affinity=2
expect_in "a head and its two paths" "queues: nvme0n1 nvme0c0n1 nvme0c1n1"
for d in nvme0c0n1 nvme0c1n1; do
	expect_eq "$d scheduler" none "$(attr "$d" scheduler)"
	expect_eq "$d nomerges" 2 "$(attr "$d" nomerges)"
	expect_eq "$d rq_affinity" 2 "$(attr "$d" rq_affinity)"
done
expect_eq "the head's iostats" 0 "$(attr nvme0n1 iostats)"
[ ! -e "$fake/block/nvme0n1/queue/scheduler" ] || fail "a scheduler file was made on the head"
for d in nvme0c0n11 nvme1c0n1; do
	expect_eq "$d (not a path of nvme0n1) untouched" "[mq-deadline] none" "$(attr "$d" scheduler)"
done

run_rc 0 qset ram0 scheduler=none iostats=0 nomerges=2
expect_in "a bio-based disk alone" "queues: ram0"
run_rc 0 qset nvme3n1 scheduler=none
expect_in "an NVMe blk-mq disk without a head" "queues: nvme3n1"
expect_eq "nvme3n1 scheduler" none "$(attr nvme3n1 scheduler)"
run_rc 0 qset nullb0 scheduler=none iostats=0
expect_eq "nullb0 iostats" 0 "$(attr nullb0 iostats)"

run_rc 1 qset nvme2n1 scheduler=none
expect_in "a head without paths" "error: nvme2n1: an NVMe multipath head (bio-based) with no path disk nvme2cCn1 in $fake/block"
run_rc 1 qset noschedmq scheduler=none
expect_in "a blk-mq disk without a scheduler" "error: noschedmq: no queue attribute scheduler ($fake/block/noschedmq/queue/scheduler) on a blk-mq disk"
run_rc 1 qset sdz scheduler=none
expect_in "no such disk" "error: no disk 'sdz' ($fake/block/sdz/queue)"

# a write the kernel refuses (a directory stands in) and one that does not hold (/dev/null)
rm "$fake/block/nvme0c1n1/queue/scheduler"
mkdir "$fake/block/nvme0c1n1/queue/scheduler"
run_rc 1 qset nvme0n1 scheduler=none
expect_in "a refused write, on the second path" "error: nvme0c1n1: scheduler=none refused: Is a directory"
rmdir "$fake/block/nvme0c1n1/queue/scheduler"
ln -s /dev/null "$fake/block/nvme0c1n1/queue/scheduler"
run_rc 1 qset nvme0n1 scheduler=none
expect_in "a write that does not hold" "error: nvme0c1n1: scheduler reads '' after writing 'none'"

before=$(attr nullb0 nomerges)
run_rc 2 qset nullb0 nomerges=2 scheduler
expect_in "a setting without a value" "error: dev_queue_set: bad setting 'scheduler' (allowed: ATTR=VALUE, e.g. scheduler=none)"
expect_eq "nothing written after a bad setting" "$before" "$(attr nullb0 nomerges)"
run_rc 2 qset ../x scheduler=none
expect_in "a bad disk name" "error: dev_queue_disks: bad disk name '../x'"
echo "ok"

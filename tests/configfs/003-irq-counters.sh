#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: the completion counters follow each device's own irqmode: absent with the load-time group at irqmode=0, there while a configfs device has irqmode=1 (its mq reads counted in irq_mq and done_mq), gone when it is removed
# where: guest
# requires: dd
# timeout: 180
. "$TOP/tests/lib.sh"
. "$TOP/tests/configfs/configfs-lib.bash"

counters=/sys/kernel/debug/ramlld/completions
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug || skip "no debugfs"
# column COL: the sum over CPUs of a column of the counters (irq_mq, done_mq, irq_scsi)
column() {
	awk -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) n = i; next } { s += $n } END { print s + 0 }' "$counters"
}

ramlld_load mode=bio irqmode=0 capacity_mb=4
configfs_mount
[ -d /sys/kernel/debug/ramlld ] || skip "no ramlld directory in debugfs"
[ ! -e "$counters" ] || fail "$counters is there with only an irqmode=0 device"
echo "ok: no counters with the load-time group at irqmode=0"
mkdir "$CFS/c"
set_attr c mode mq
set_attr c capacity_mb 4
set_attr c irqmode 1
set_attr c power 1
idx=$(cat "$CFS/c/index")
[ -e "$counters" ] || fail "no $counters while configfs device c has irqmode=1"
irq0=$(column irq_mq) done0=$(column done_mq)
dd if="/dev/ramlldmq$idx" of=/dev/null bs=4k count=64 iflag=direct status=none || fail "read ramlldmq$idx"
irq1=$(column irq_mq) done1=$(column done_mq)
[ $((irq1 - irq0)) -ge 64 ] || fail "irq_mq grew by $((irq1 - irq0)) over 64 reads of ramlldmq$idx, expected 64 or more"
[ $((done1 - done0)) -ge 64 ] || fail "done_mq grew by $((done1 - done0)) over 64 reads of ramlldmq$idx, expected 64 or more"
echo "ok: 64 reads of ramlldmq$idx (irqmode=1): irq_mq +$((irq1 - irq0)), done_mq +$((done1 - done0))"
set_attr c power 0
rmdir "$CFS/c"
[ ! -e "$counters" ] || fail "$counters still there after the irqmode=1 device was removed"
echo "ok: the counters went with the last irqmode=1 device"
ramlld_unload

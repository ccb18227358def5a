#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: the features attribute lists every setting (a device attribute and a module parameter each); configfs attributes beyond the basic ones: nr_devices, num_tgts, luns_per_tgt, shared_tags, rotational, poll_queues, eh_fail, every_nth, timeout_nth, badblocks; bad values refused with a line naming what is allowed and nothing changed or created; a group of two with shared tags and rotational disks; the fault knobs act on that device alone; power=0 refused while its mq disk is open
# where: guest
# timeout: 240
. "$TOP/tests/lib.sh"
. "$TOP/tests/configfs/configfs-lib.bash"

ramlld_load mode=bio capacity_mb=4
configfs_mount

# features: the settings this build has, each an attribute of a device and a module parameter
features=$(cat "$CFS/features")
for want in capacity_mb irq_cpus eh_fail badblocks nr_devices mode; do
	grep -qE "(^|,)$want(,|$)" <<< "$features" || fail "features lacks $want: $features"
done
if (echo x > "$CFS/features") 2> /dev/null; then fail "features was writable"; fi
mkdir "$CFS/d"
for f in ${features//,/ }; do
	[ -f "$CFS/d/$f" ] || fail "features names $f, which d/ does not have"
	[ -e "/sys/module/ramlld/parameters/$f" ] || fail "features names $f, which is no module parameter"
done
echo "ok: features lists $(tr ',' '\n' <<< "$features" | wc -l) settings, each an attribute and a parameter"
disks_before=$(ls /sys/block)
inval="Invalid argument"
refused d nr_devices 0 "$inval" "d/nr_devices=0 is invalid: allowed 1-256"
refused d nr_devices 257 "$inval" "d/nr_devices=257 is invalid: allowed 1-256"
refused d num_tgts 2 "$inval" "d/num_tgts=2 is invalid: allowed 1-nr_devices (1)"
refused d num_tgts 0 "$inval" "d/num_tgts=0 is invalid: allowed 1-nr_devices"
refused d luns_per_tgt 257 "$inval" "d/luns_per_tgt=257 is invalid: allowed 0 or 1-256"
refused d shared_tags maybe "$inval" "d/shared_tags=maybe is invalid: allowed 0 or 1"
refused d rotational 2 "$inval" "d/rotational=2 is invalid: allowed 0 or 1"
refused d poll_queues 99999 "$inval" "d/poll_queues=99999 is invalid: allowed 0 (no polling) to"
refused d eh_fail bogus "$inval" "d/eh_fail=bogus is invalid: allowed a comma list of abort"
refused d every_nth -1 "$inval" "d/every_nth=-1 is invalid: allowed 0-4294967295"
refused d timeout_nth x "$inval" "d/timeout_nth=x is invalid: allowed 0-4294967295"
refused d badblocks 5-1 "$inval" "d/badblocks=5-1 is invalid: allowed START-END"
refused d badblocks 0-262144 "$inval" "d/badblocks=0-262144 is invalid: allowed START-END.*at most 262144 sectors"
expect_eq "block devices after the refused values" "$disks_before" "$(ls /sys/block)"
expect_eq "d/index (off)" -1 "$(cat "$CFS/d/index")"
echo "ok: every bad value refused with a line naming what is allowed; nothing created"

# a group of two mq devices, one tag set, rotational disks
set_attr d mode mq
set_attr d capacity_mb 8
set_attr d nr_devices 2
set_attr d num_tgts 2
set_attr d shared_tags 1
set_attr d rotational 1
set_attr d eh_fail abort,host_reset
expect_eq "d/eh_fail" "abort,host_reset" "$(cat "$CFS/d/eh_fail")"
set_attr d power 1
read -r i0 i1 rest <<< "$(cat "$CFS/d/index")"
{ [ -n "$i1" ] && [ -z "$rest" ]; } || fail "d/index: expected two indexes, got '$(cat "$CFS/d/index")'"
echo "ok: d/index = $i0 $i1"
refused d nr_devices 1 "Device or resource busy" "d/nr_devices cannot change while the device is powered"
for i in "$i0" "$i1"; do
	expect_eq "ramlldmq$i rotational" 1 "$(cat "/sys/block/ramlldmq$i/queue/rotational")"
	expect_eq "ramlldmq$i add_random" 1 "$(cat "/sys/block/ramlldmq$i/queue/add_random")"
	f=/sys/kernel/debug/block/ramlldmq$i/hctx0/flags
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug 2> /dev/null || true
	if [ -r "$f" ]; then
		# one tag set for both queues: the block layer marks them as sharing it
		grep -qE 'TAG_(QUEUE_)?SHARED' "$f" || fail "ramlldmq$i: hctx0 flags lack TAG_QUEUE_SHARED: $(cat "$f")"
		echo "ok: ramlldmq$i: its tags are shared ($(grep -oE 'TAG_(QUEUE_)?SHARED' "$f"))"
	else
		echo "note: no $f: the shared tag set is not checked"
	fi
done
expect_eq "ramlld0 (load-time) rotational" 0 "$(cat /sys/block/ramlld0/queue/rotational)"

# the fault knobs of d act on d alone: every second read fails there, the load-time disk is spared
set_attr d every_nth 2
expect_eq "d/every_nth" 2 "$(cat "$CFS/d/every_nth")"
dd if="/dev/ramlldmq$i0" of=/dev/null bs=4k count=1 iflag=direct status=none || fail "ramlldmq$i0 read 1 of 2 failed"
if dd if="/dev/ramlldmq$i0" of=/dev/null bs=4k count=1 iflag=direct status=none 2> /dev/null; then
	fail "ramlldmq$i0 read 2 of 2 succeeded with d/every_nth=2"
fi
for n in 1 2; do
	dd if=/dev/ramlld0 of=/dev/null bs=4k count=1 iflag=direct status=none || fail "ramlld0 read $n failed: d's every_nth reached it"
done
set_attr d every_nth 0
echo "ok: d/every_nth=2 failed the second read of ramlldmq$i0, not the load-time ramlld0's"
set_attr d badblocks 8-15
expect_eq "d/badblocks" 8-15 "$(cat "$CFS/d/badblocks")"
for i in "$i0" "$i1"; do
	if dd if="/dev/ramlldmq$i" of=/dev/null bs=4k skip=1 count=1 iflag=direct status=none 2> /dev/null; then
		fail "ramlldmq$i block 1 (sectors 8-15) read with d/badblocks=8-15"
	fi
	dd if="/dev/ramlldmq$i" of=/dev/null bs=4k skip=2 count=1 iflag=direct status=none || fail "ramlldmq$i block 2 failed"
done
dd if=/dev/ramlld0 of=/dev/null bs=4k skip=1 count=1 iflag=direct status=none || fail "ramlld0 block 1 failed: d's badblocks reached it"
set_attr d badblocks ""
dd if="/dev/ramlldmq$i0" of=/dev/null bs=4k skip=1 count=1 iflag=direct status=none || fail "ramlldmq$i0 block 1 after clearing"
echo "ok: d/badblocks=8-15 failed block 1 of both of d's disks only, and clearing it ended that"

# power=0 is refused while the mq disk of either device is open
for i in "$i0" "$i1"; do
	exec 3< "/dev/ramlldmq$i"
	refused d power 0 "Device or resource busy" "d: power=0 refused: a disk of the device is open"
	exec 3<&-
done
set_attr d power 0
for i in "$i0" "$i1"; do
	[ ! -e "/sys/block/ramlldmq$i" ] || fail "ramlldmq$i still there after power=0"
done
echo "ok: power=0 refused while ramlldmq$i0 or ramlldmq$i1 was open, removed both once closed"
rmdir "$CFS/d"
ramlld_unload

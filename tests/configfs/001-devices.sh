#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: configfs makes a 512-byte bio+sd device (its host there when power=1 returns) and a 4096-byte mq device beside a load-time one (distinct indexes), verified I/O on each, one removed while the other is under I/O; power=0 refused while open; bad values and changes while powered refused with a line naming the attribute, nothing created
# where: guest
# requires: fio cmp
# timeout: 400
. "$TOP/tests/lib.sh"
. "$TOP/tests/configfs/configfs-lib.bash"

need_modules sd_mod
ramlld_load mode=bio capacity_mb=4
configfs_mount
expect_eq "load-time device" "ramlld: device 0: 4 MiB, 512-byte sectors, disks: ramlld0" \
	"$(dmesg | grep -o 'ramlld: device 0: .*' | tail -n 1)"

# bad values on a device that is not powered: refused, nothing created
mkdir "$CFS/c"
disks_before=$(ls /sys/block)
refused c sector_size 520 "Invalid argument" "c/sector_size=520 is invalid: allowed 512, 1024, 2048, 4096"
refused c capacity_mb 0 "Invalid argument" "c/capacity_mb=0 is invalid: allowed 1-"
refused c irqmode 3 "Invalid argument" "c/irqmode=3 is invalid: allowed 0 (inline)"
refused c physical_block_size 3000 "Invalid argument" "c/physical_block_size=3000 is invalid"
refused c can_queue 0 "Invalid argument" "c/can_queue=0 is invalid: allowed 1-4096"
refused c hw_queue_depth abc "Invalid argument" "c/hw_queue_depth=abc is invalid: allowed 1-4096"
refused c prealloc maybe "Invalid argument" "c/prealloc=maybe is invalid: allowed 0 or 1"
refused c mode nvme "Invalid argument" "c/mode=nvme is invalid: allowed bio (alias block), mq, scsi, all"
refused c power 2 "Invalid argument" "c/power=2 is invalid: allowed 1"
expect_eq "c/power" 0 "$(cat "$CFS/c/power")"
expect_eq "c/index" -1 "$(cat "$CFS/c/index")"
expect_eq "block devices after the refused values" "$disks_before" "$(ls /sys/block)"
rmdir "$CFS/c"

# a: 512-byte sectors, bio and SCSI; b: 4096-byte sectors, mq
mkdir "$CFS/a" "$CFS/b"
set_attr a capacity_mb 16
set_attr a mode bio,scsi
set_attr b capacity_mb 16
set_attr b sector_size 4096
set_attr b mode mq
expect_eq "a/mode" "bio,scsi" "$(cat "$CFS/a/mode")"
expect_eq "b/sector_size" 4096 "$(cat "$CFS/b/sector_size")"
set_attr a power 1
set_attr b power 1
ia=$(cat "$CFS/a/index") ib=$(cat "$CFS/b/index")
if [ "$ia" = 0 ] || [ "$ib" = 0 ] || [ "$ia" = "$ib" ]; then
	fail "indexes collide: load-time 0, a $ia, b $ib"
fi
echo "ok: indexes: load-time 0, a $ia, b $ib"
host=$(cat "$CFS/a/scsi_host")
[ "$host" -ge 0 ] || fail "a has no SCSI host"
expect_eq "b/scsi_host (mode=mq)" -1 "$(cat "$CFS/b/scsi_host")"
sd=
host_sd() {
	sd=$(ls /sys/class/scsi_host/host"$host"/device/target"$host":0:0/"$host":0:0:0/block 2> /dev/null || true)
	[ -n "$sd" ] && [ -b "/dev/$sd" ]
}
wait_for "an sd disk with its /dev node on host$host" host_sd
[ ! -e "/sys/block/ramlldmq$ia" ] || fail "a (bio,scsi) has an mq disk"
[ ! -e "/sys/block/ramlld$ib" ] || fail "b (mq) has a bio disk"
expect_eq "ramlld$ia logical block size" 512 "$(cat "/sys/block/ramlld$ia/queue/logical_block_size")"
expect_eq "$sd logical block size" 512 "$(cat "/sys/block/$sd/queue/logical_block_size")"
expect_eq "ramlldmq$ib logical block size" 4096 "$(cat "/sys/block/ramlldmq$ib/queue/logical_block_size")"
expect_eq "ramlldmq$ib size (512-byte sectors)" 32768 "$(cat "/sys/block/ramlldmq$ib/size")"
expect_eq "$sd size (512-byte sectors)" 32768 "$(cat "/sys/block/$sd/size")"

# verified I/O: a written through bio, read back through sd; b written and read through mq
head -c 16M /dev/urandom > /tmp/cfs-data.$$
dd if=/tmp/cfs-data.$$ of="/dev/ramlld$ia" bs=1M oflag=direct status=none || fail "write ramlld$ia"
cmp <(dd if="/dev/$sd" bs=1M iflag=direct status=none) /tmp/cfs-data.$$ ||
	fail "data written through ramlld$ia differs read through $sd"
echo "ok: 16 MiB written through ramlld$ia read back identical through $sd"
dd if=/tmp/cfs-data.$$ of="/dev/ramlldmq$ib" bs=1M oflag=direct status=none || fail "write ramlldmq$ib"
cmp <(dd if="/dev/ramlldmq$ib" bs=1M iflag=direct status=none) /tmp/cfs-data.$$ ||
	fail "data written through ramlldmq$ib differs read back"
echo "ok: 16 MiB written and read back identical through ramlldmq$ib"
rm -f /tmp/cfs-data.$$

# settings are fixed while powered; power=0 is refused while a disk is open (bio, then sd)
refused a sector_size 4096 "Device or resource busy" "a/sector_size cannot change while the device is powered"
refused a mode mq "Device or resource busy" "a/mode cannot change while the device is powered"
for d in "ramlld$ia" "$sd"; do
	exec 3< "/dev/$d"
	refused a power 0 "Device or resource busy" "a: power=0 refused: a disk of the device is open"
	exec 3<&-
done
expect_eq "a/power while open" 1 "$(cat "$CFS/a/power")"

# remove a while b is under verifying I/O
# fio runs until stopped below (it would outlive the test): a is removed under its I/O
b_before=$(awk '{ print $5 }' "/sys/block/ramlldmq$ib/stat")
fio --name=b --filename="/dev/ramlldmq$ib" --direct=1 --ioengine=libaio --iodepth=8 --rw=randwrite \
	--bs=4k --size=100% --time_based --runtime="$TEST_TIMEOUT" --verify=crc32c --verify_fatal=1 \
	--verify_backlog=64 --output=/tmp/cfs-fio.$$ &
pid=$!
b_writes() {
	kill -0 "$pid" 2> /dev/null || { cat /tmp/cfs-fio.$$; fail "fio on ramlldmq$ib ended early"; }
	[ "$(awk '{ print $5 }' "/sys/block/ramlldmq$ib/stat")" -gt "$b_before" ]
}
wait_for "fio's writes to complete on ramlldmq$ib (/sys/block/ramlldmq$ib/stat writes above $b_before)" b_writes
set_attr a power 0
[ ! -e "/sys/block/ramlld$ia" ] || fail "ramlld$ia still there after power=0"
[ ! -e "/sys/class/scsi_host/host$host" ] || fail "host$host still there after power=0"
rmdir "$CFS/a"
echo "ok: a removed while ramlldmq$ib was under I/O"
kill -0 "$pid" 2> /dev/null || { cat /tmp/cfs-fio.$$; fail "fio on ramlldmq$ib failed while a was removed"; }
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
# fio stopped by SIGTERM exits 128 after its report
{ [ "$rc" -eq 0 ] || [ "$rc" -eq 128 ]; } || { cat /tmp/cfs-fio.$$; fail "fio on ramlldmq$ib exited $rc"; }
grep -q "err= 0" /tmp/cfs-fio.$$ || { cat /tmp/cfs-fio.$$; fail "fio on ramlldmq$ib reported errors"; }
rm -f /tmp/cfs-fio.$$
echo "ok: ramlldmq$ib verified through the removal"

# rmmod is refused while a configfs device exists; rmdir removes a powered device
if rmmod ramlld 2> /dev/null; then
	fail "rmmod succeeded with $CFS/b present"
fi
rmdir "$CFS/b"
[ ! -e "/sys/block/ramlldmq$ib" ] || fail "ramlldmq$ib still there after rmdir"
ramlld_unload
echo "ok: rmdir removed the powered device, then ramlld unloaded"

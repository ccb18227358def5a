#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: rmmod ramlld refused while an sd disk is open; resets and rmmod right after I/O with irqmode=2 (hrtimers in flight) complete every command
# where: guest
# requires: fio sg_reset
# timeout: 240
. "$TOP/tests/lib.sh"
. "$TOP/tests/scsi/scsi-lib.bash"

scsi_load mode=scsi nr_devices=2 capacity_mb=16
exec 3< /dev/"${SD[0]}"
if rmmod ramlld 2> /tmp/err.$$; then fail "rmmod succeeded while /dev/${SD[0]} is open"; fi
grep -q "in use" /tmp/err.$$ || fail "unexpected rmmod error: $(cat /tmp/err.$$)"
echo "ok: rmmod refused while /dev/${SD[0]} is open: $(cat /tmp/err.$$)"
exec 3<&-
ramlld_unload

# irqmode=2, 2 ms per command: commands sit on their timers while we reset and unload
scsi_load mode=scsi nr_devices=2 capacity_mb=16 irqmode=2 completion_nsec=2000000
sd0_before=$(awk '{ print $5 }' "/sys/block/${SD[0]}/stat")
fio --name=busy --filename=/dev/"${SD[0]}" --direct=1 --ioengine=libaio --iodepth=32 --rw=randwrite --bs=4k \
	--size=100% --verify=crc32c --verify_fatal=1 --do_verify=1 --output=/tmp/fio.$$ &
pid=$!
sd0_writes() {
	kill -0 "$pid" 2> /dev/null || { cat /tmp/fio.$$; fail "fio on ${SD[0]} ended before the resets"; }
	[ "$(awk '{ print $5 }' "/sys/block/${SD[0]}/stat")" -gt "$sd0_before" ]
}
wait_for "fio's writes to complete on ${SD[0]} (/sys/block/${SD[0]}/stat writes above $sd0_before)" sd0_writes
sg_reset -d /dev/"${SG[0]}" || fail "device reset under I/O"
sleep 0.5
sg_reset -H /dev/"${SG[1]}" || fail "host reset under I/O"
wait $pid || { cat /tmp/fio.$$; fail "fio failed across resets"; }
echo "ok: fio randwrite + verify completed across a device and a host reset (irqmode=2)"
refused=0
# fio runs until stopped below (it would outlive the test): every rmmod attempt is made under I/O
fio --name=busy --filename=/dev/"${SD[1]}" --direct=1 --ioengine=libaio --iodepth=32 --rw=randread --bs=4k \
	--time_based --runtime="$TEST_TIMEOUT" --output=/tmp/fio.$$ &
pid=$!
# rmmod is only to be refused once fio holds the disk (sd takes a module reference on open).
fio_opened() {
	kill -0 "$pid" 2> /dev/null || { cat /tmp/fio.$$; fail "fio on ${SD[1]} ended before it opened the disk"; }
	wait_seen="ramlld refcnt $(cat /sys/module/ramlld/refcnt)"
	[ "$(cat /sys/module/ramlld/refcnt)" -gt 0 ]
}
wait_for "fio to open /dev/${SD[1]} (/sys/module/ramlld/refcnt above 0)" fio_opened
for i in 1 2 3; do
	kill -0 $pid 2> /dev/null || fail "fio ended before rmmod attempt $i"
	rmmod ramlld 2> /dev/null || refused=$((refused + 1))
	nap
done
kill -0 $pid 2> /dev/null || fail "fio ended while rmmod was tried"
kill -TERM $pid
rc=0
wait $pid || rc=$?
# fio stopped by SIGTERM exits 128 after its report
if { [ "$rc" -ne 0 ] && [ "$rc" -ne 128 ]; } || ! grep -q "err= 0" /tmp/fio.$$; then
	cat /tmp/fio.$$
	ls -l /dev/sd* || true
	ls /sys/class/scsi_device/*/device/block || true
	dmesg | tail -n 40
	fail "fio failed (exit $rc) while rmmod was tried"
fi
expect_eq "rmmod attempts refused under I/O" 3 $refused
# unload as soon as the last I/O returns: every command's timer must be done by then
dd if=/dev/"${SD[1]}" of=/dev/null bs=4k count=256 iflag=direct status=none &
wait
ramlld_unload
rm -f /tmp/err.$$ /tmp/fio.$$

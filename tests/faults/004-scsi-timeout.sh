#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: timeout_nth on SCSI: a dropped command times out (device timeout 3 s), the midlayer's abort ends it, sd retries and the I/O succeeds; a passthrough command fails with a timeout; the disk stays usable and keeps its data; irqmode 0 and 2
# where: guest
# requires: sg_raw cmp
# timeout: 300
. "$TOP/tests/lib.sh"
. "$TOP/tests/scsi/scsi-lib.bash"
. "$TOP/tests/faults/faults-lib.bash"

ms() { echo $(($(date +%s%N) / 1000000)); }

head -c 256k /dev/urandom > /tmp/pat.$$
for args in "irqmode=0" "irqmode=2 completion_nsec=200000"; do
	# shellcheck disable=SC2086
	scsi_load mode=scsi capacity_mb=8 $args
	dev=/dev/${SD[0]} sg=/dev/${SG[0]} sdev=/sys/class/scsi_device/${HCTL[0]}/device
	echo 3 > "$sdev"/timeout
	expect_eq "$dev timeout (s)" 3 "$(cat "$sdev"/timeout)"
	dd_ok "$dev ($args): write of the pattern" if=/tmp/pat.$$ of="$dev" bs=64k oflag=direct
	# the midlayer's timeout counter (5.10 has none: the 3 s wait and the retry are checked alone)
	tmo0=''
	if [ -e "$sdev/iotmo_cnt" ]; then
		tmo0=$(cat "$sdev/iotmo_cnt")
	else
		echo "note: kernel $(uname -r) has no $sdev/iotmo_cnt: the timeout count is not checked"
	fi

	# sd: the dropped READ times out, is aborted and retried, and the read succeeds
	set_param timeout_nth 2
	dd_ok "$dev ($args): read 1 of 2" if="$dev" of=/dev/null bs=4k count=1 iflag=direct
	t0=$(ms)
	dd_ok "$dev ($args): read 2 of 2 (dropped, aborted, retried)" if="$dev" of=/tmp/back.$$ bs=4k skip=1 count=1 iflag=direct
	t=$(($(ms) - t0))
	echo "    it took $t ms"
	[ "$t" -ge 2500 ] || fail "$dev ($args): read 2 did not wait for the 3 s timeout ($t ms)"
	cmp <(tail -c +4097 /tmp/pat.$$ | head -c 4096) /tmp/back.$$ || fail "$dev ($args): retried read returned other data"
	[ -z "$tmo0" ] || expect_eq "$dev ($args): iotmo_cnt increase" 1 $(($(cat "$sdev/iotmo_cnt") - tmo0))

	# passthrough has no retries: sg_raw sees the timeout itself
	set_param timeout_nth 1
	rc=0
	t0=$(ms)
	out=$(sg_raw --cmdset=1 -t 3 -r 4096 "$sg" 28 00 00 00 00 00 00 00 08 00 2>&1) || rc=$?
	echo "    sg_raw exit $rc after $(($(ms) - t0)) ms: $(echo "$out" | tr '\n' ' ' | cut -c1-160)"
	[ "$rc" -ne 0 ] || fail "$sg ($args): READ(10) with timeout_nth=1 succeeded"
	echo "ok: $sg ($args): passthrough READ(10) failed with its timeout"

	set_param timeout_nth 0
	expect_eq "$dev ($args): device state after the aborts" running "$(cat "$sdev"/state)"
	dd_ok "$dev ($args): read back with timeout_nth=0" if="$dev" of=/tmp/back.$$ bs=64k count=4 iflag=direct
	cmp /tmp/pat.$$ /tmp/back.$$ || fail "$dev ($args): data changed across the timeouts"
	echo "ok: $dev ($args): data written before the timeouts reads back intact"
	dd_ok "$dev ($args): write after the timeouts" if=/tmp/pat.$$ of="$dev" bs=64k seek=4 count=1 oflag=direct
	ramlld_unload
done
rm -f /tmp/pat.$$ /tmp/back.$$ /tmp/dd.err.$$

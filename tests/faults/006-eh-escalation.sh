#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: eh_fail makes SCSI error handlers fail: a timed-out READ escalates from abort to device, target, bus and host reset as configured, the disk recovers each time and keeps its data; with every handler failing the disk goes offline and comes back; bad eh_fail values are refused
# where: guest
# requires: cmp
# timeout: 300
. "$TOP/tests/lib.sh"
. "$TOP/tests/scsi/scsi-lib.bash"
. "$TOP/tests/faults/faults-lib.bash"

head -c 256k /dev/urandom > /tmp/pat.$$
scsi_load mode=scsi capacity_mb=8
dev=/dev/${SD[0]} sdev=/sys/class/scsi_device/${HCTL[0]}/device
echo 3 > "$sdev/timeout"
dd_ok "$dev: write of the pattern" if=/tmp/pat.$$ of="$dev" bs=64k oflag=direct

# refused values change nothing
set_param eh_fail abort
for bad in bogus "abort,," "abort,reset" " ,abort"; do
	if echo "$bad" > $PARAMS/eh_fail 2> /dev/null; then
		fail "eh_fail='$bad' was accepted"
	fi
	expect_eq "eh_fail after refusing '$bad'" abort "$(cat $PARAMS/eh_fail)"
done
dmesg | grep -q "eh_fail=bogus is invalid: allowed" || fail "no log line naming the bad eh_fail value"
echo "ok: bad eh_fail values refused with a log line"

# eh_lines: the error handler verdicts logged since the mark, as "name:verdict" words
eh_lines() {
	kernel_log_since_mark | sed -n 's/.*ramlld: eh \([a-z_]*\): \(FAILED\|done\).*/\1:\2/p' | tr '\n' ' ' | sed 's/ $//'
}

# escalate FAILING EXPECTED_VERDICTS: a dropped READ with the handlers FAILING made to fail
escalate() {
	local failing=$1 want=$2 t0 t
	set_param eh_fail "$failing"
	expect_eq "eh_fail" "$failing" "$(cat $PARAMS/eh_fail)"
	kernel_log_mark
	set_param timeout_nth 2
	dd_ok "$dev [$failing]: read 1 of 2" if="$dev" of=/dev/null bs=4k count=1 iflag=direct
	t0=$(date +%s)
	dd_ok "$dev [$failing]: read 2 of 2 (dropped, recovered by the error handler, retried)" \
		if="$dev" of=/tmp/back.$$ bs=4k skip=1 count=1 iflag=direct
	t=$(($(date +%s) - t0))
	set_param timeout_nth 0
	echo "    it took $t s"
	[ "$t" -ge 2 ] || fail "[$failing]: the read did not wait for the 3 s timeout"
	cmp <(tail -c +4097 /tmp/pat.$$ | head -c 4096) /tmp/back.$$ || fail "[$failing]: the retried read returned other data"
	expect_eq "[$failing]: error handlers called, in order" "$want" "$(eh_lines)"
	expect_eq "[$failing]: device state" running "$(cat "$sdev/state")"
	dd_ok "$dev [$failing]: read of the whole pattern" if="$dev" of=/tmp/back.$$ bs=64k count=4 iflag=direct
	cmp /tmp/pat.$$ /tmp/back.$$ || fail "[$failing]: data changed across the recovery"
	echo "ok: [$failing]: the disk recovered and keeps its data"
}

escalate "" "abort:done"
escalate abort "abort:FAILED device_reset:done"
escalate abort,device_reset "abort:FAILED device_reset:FAILED target_reset:done"
escalate abort,device_reset,target_reset,bus_reset \
	"abort:FAILED device_reset:FAILED target_reset:FAILED bus_reset:FAILED host_reset:done"

# every handler fails: the midlayer gives up, the disk goes offline and the read fails
all=abort,device_reset,target_reset,bus_reset,host_reset
set_param eh_fail $all
kernel_log_mark
set_param timeout_nth 1
dd_eio "$dev [$all]: read with nothing to recover it" if="$dev" of=/dev/null bs=4k count=1 iflag=direct
set_param timeout_nth 0
expect_eq "[$all]: error handlers called, in order" \
	"abort:FAILED device_reset:FAILED target_reset:FAILED bus_reset:FAILED host_reset:FAILED" "$(eh_lines)"
expect_eq "[$all]: device state" offline "$(cat "$sdev/state")"
# sd refuses to open an offline disk
dd_err "$dev: open while offline" "No such device or address" if="$dev" of=/dev/null bs=4k count=1 iflag=direct
set_param eh_fail ""
expect_eq "eh_fail cleared" "" "$(cat $PARAMS/eh_fail)"
echo running > "$sdev/state"
expect_eq "device state after 'running'" running "$(cat "$sdev/state")"
dd_ok "$dev: read of the whole pattern after going offline" if="$dev" of=/tmp/back.$$ bs=64k count=4 iflag=direct
cmp /tmp/pat.$$ /tmp/back.$$ || fail "data changed across the offline period"
dd_ok "$dev: write after the recovery" if=/tmp/pat.$$ of="$dev" bs=64k seek=4 count=1 oflag=direct
echo "ok: offline and back, data intact"
ramlld_unload
rm -f /tmp/pat.$$ /tmp/back.$$ /tmp/dd.err.$$

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: bad badblocks (a range longer than the kernel's table holds too), every_nth and timeout_nth values are refused with EINVAL and a line naming the parameter, at load and at run time, and change nothing
# where: guest
# timeout: 300
. "$TOP/tests/lib.sh"
. "$TOP/tests/faults/faults-lib.bash"

# at load: insmod fails, nothing stays
for arg in badblocks=5-1 badblocks=abc badblocks=7 every_nth=-1 timeout_nth=x; do
	ramlld_load_refused "ramlld: ${arg%%=*}=.* is invalid: allowed" "$arg"
done

ramlld_load mode=bio capacity_mb=4 badblocks=8-15 every_nth=7 timeout_nth=9
# bad_write NAME VALUE: the write fails with EINVAL, the log names NAME, the value is unchanged
bad_write() {
	local name=$1 val=$2 before out
	before=$(cat $PARAMS/"$name")
	dmesg -C
	if out=$( (printf '%s\n' "$val" > $PARAMS/"$name") 2>&1); then
		fail "writing '$val' to $name succeeded"
	fi
	echo "$out" | grep -q "Invalid argument" || fail "writing '$val' to $name: expected EINVAL, got: $out"
	dmesg | grep -q "ramlld: $name=.* is invalid: allowed" || fail "writing '$val' to $name: no log line: $(dmesg | tail -n 3)"
	expect_eq "$name after the refused '$val'" "$before" "$(cat $PARAMS/"$name")"
}
for v in 5-1 abc 7 1- -3 1-2-3 " 1-2" 36028797018963968-36028797018963968 99999999999999999999-1 0-262144; do
	bad_write badblocks "$v"
done
for v in -1 x 4294967296 1.5 ""; do
	bad_write every_nth "$v"
	bad_write timeout_nth "$v"
done
# the knobs still work as set at load: sectors 8-15 are bad
dd_eio "/dev/ramlld0 block 1 (sectors 8-15)" if=/dev/ramlld0 of=/dev/null bs=4k skip=1 count=1 iflag=direct
set_param badblocks ""
set_param every_nth 0
set_param timeout_nth 0
dd_ok "/dev/ramlld0 block 1 after clearing" if=/dev/ramlld0 of=/dev/null bs=4k skip=1 count=1 iflag=direct
rm -f /tmp/dd.err.$$
ramlld_unload

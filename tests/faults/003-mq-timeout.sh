#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: timeout_nth on mq: the dropped request times out (io_timeout 2 s) and fails with ETIMEDOUT, the disk stays usable and keeps its data; irqmode 0 and 2; bio ignores timeout_nth
# where: guest
# timeout: 240
. "$TOP/tests/lib.sh"
. "$TOP/tests/faults/faults-lib.bash"

# timed_out WHAT MIN_S DD_ARGS...: a direct dd that must fail with ETIMEDOUT (BLK_STS_TIMEOUT)
# after at least MIN_S seconds
timed_out() {
	local what=$1 min=$2 t0 t1
	shift 2
	t0=$(date +%s%N)
	dd_err "$what" "Connection timed out" "$@"
	t1=$(date +%s%N)
	echo "    it took $(((t1 - t0) / 1000000)) ms"
	[ $(((t1 - t0) / 1000000)) -ge $((min * 1000)) ] || fail "$what: failed before the timeout"
}

head -c 256k /dev/urandom > /tmp/pat.$$
for args in "irqmode=0" "irqmode=2 completion_nsec=200000"; do
	# shellcheck disable=SC2086
	ramlld_load mode=bio,mq capacity_mb=8 $args
	dev=/dev/ramlldmq0
	echo 2000 > /sys/block/ramlldmq0/queue/io_timeout
	expect_eq "$dev io_timeout (ms)" 2000 "$(cat /sys/block/ramlldmq0/queue/io_timeout)"
	dd_ok "$dev ($args): write of the pattern" if=/tmp/pat.$$ of=$dev bs=64k oflag=direct

	set_param timeout_nth 2
	dd_ok "$dev ($args): read 1 of 2" if=$dev of=/dev/null bs=4k count=1 iflag=direct
	timed_out "$dev ($args): read 2 of 2 (dropped, timed out)" 1 if=$dev of=/dev/null bs=4k count=1 iflag=direct
	dd_ok "$dev ($args): read 3, after the timeout" if=$dev of=/dev/null bs=4k count=1 iflag=direct
	timed_out "$dev ($args): write 4 of 2 (dropped, timed out)" 1 if=/dev/zero of=$dev bs=4k seek=100 count=1 oflag=direct
	# several timeouts in flight at once
	for i in 1 2 3 4; do
		dd if=$dev of=/dev/null bs=4k skip=$i count=1 iflag=direct status=none 2> /dev/null &
	done
	wait || true
	set_param timeout_nth 0
	dd_ok "$dev ($args): read back with timeout_nth=0" if=$dev of=/tmp/back.$$ bs=64k count=4 iflag=direct
	cmp /tmp/pat.$$ /tmp/back.$$ || fail "$dev ($args): data changed across the timeouts"
	echo "ok: $dev ($args): data written before the timeouts reads back intact"

	# bio-based: no timeout exists, timeout_nth does not apply
	set_param timeout_nth 1
	dd_ok "/dev/ramlld0 ($args): read with timeout_nth=1 (bio: not applied)" if=/dev/ramlld0 of=/dev/null bs=4k count=1 iflag=direct
	set_param timeout_nth 0
	ramlld_unload
done

# irqmode=2 with completions (1 s) slower than io_timeout (1 ms; blk-mq's timeout timer fires
# on a whole second): the timeout handler may meet requests whose completion timer is pending or
# running; each request must end exactly once, with or without an error
ramlld_load mode=mq capacity_mb=8 irqmode=2 completion_nsec=1000000000
echo 1 > /sys/block/ramlldmq0/queue/io_timeout
for i in 1 2 3 4 5 6 7 8; do
	dd if=/dev/ramlldmq0 of=/dev/null bs=4k skip=$i count=1 iflag=direct status=none 2> /dev/null &
done
rc=0
for i in 1 2 3 4 5 6 7 8; do wait -n || rc=$((rc + 1)); done
echo "ok: 8 reads with 1 s completions and a 1 ms timeout ended, each once ($rc timed out)"
echo 30000 > /sys/block/ramlldmq0/queue/io_timeout
dd_ok "/dev/ramlldmq0: read with io_timeout back at 30 s" if=/dev/ramlldmq0 of=/dev/null bs=4k count=1 iflag=direct
ramlld_unload
rm -f /tmp/pat.$$ /tmp/back.$$ /tmp/dd.err.$$

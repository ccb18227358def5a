#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: 50 load/unload cycles of mode=all (bio, mq and sd on two stores, prealloc and irqmode varied) with a write, its read back through the other front ends and a discard in each; nothing left registered, memory given back, no kmemleak report (50 on every kernel, the stock one included)
# where: guest
# requires: python3
# timeout: 400
. "$TOP/tests/lib.sh"

cycles=50
need_modules sd_mod sg
[ -f "$RAMLLD_KO" ] || fail "$RAMLLD_KO is not built"
for d in $(modinfo -F depends "$RAMLLD_KO" | tr , ' '); do
	modprobe "$d" || fail "modprobe $d (needed by ramlld) failed"
done
trap _ramlld_on_exit EXIT
free_kb() { awk '/MemAvailable/ {print $2}' /proc/meminfo; }
kmemleak_start
sync
echo 3 > /proc/sys/vm/drop_caches
before=$(free_kb)
python3 "$TOP/tests/faults/failnth.py" cycles "$RAMLLD_KO" $cycles || fail "the load/unload cycles"
sync
echo 3 > /proc/sys/vm/drop_caches
after=$(free_kb)
echo "MemAvailable before $before kB, after $after kB"
# a cycle holds 2 x 16 MiB at most (prealloc): a store leaked per cycle shows as far more than 16 MiB
[ $((before - after)) -lt 16384 ] || fail "memory not given back: $((before - after)) kB lost"
kmemleak_check "$cycles load/unload cycles"

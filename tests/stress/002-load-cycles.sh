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
# two cycles first: the first load's one-time costs (module text, caches, sd's workqueues) are not a leak
python3 "$TOP/tests/faults/failnth.py" cycles "$RAMLLD_KO" 2 || fail "the warm-up cycles"
kmemleak_start
before=$(mem_held_kb)
python3 "$TOP/tests/faults/failnth.py" cycles "$RAMLLD_KO" $cycles || fail "the load/unload cycles"
# half the cycles preallocate 2 x 16 MiB: one store leaked once shows as 16 MiB, all as 800 MiB
mem_check_given_back "$before" 16384 "$cycles load/unload cycles"
kmemleak_check "$cycles load/unload cycles"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tools/vm/kmemleak-known names the kernel's own CVE-2024-25740 leak (a kmem_cache name lost when sysfs_slab_add fails: a saved faults/007 report) and passes it; an object ramlld allocated, near misses of the backtrace (no kstrdup, a kset's name, slab_sysfs_init) or the same leak under ramlld's frames fail, printed in full; --log drops kmemleak's "new suspected" line only before the all-known marker
# where: host
# timeout: 30
. "$TOP/tests/lib.sh"

tool=$TOP/tools/vm/kmemleak-known
data=$TOP/tests/harness/kmemleak

# The report of last session's faults/007 on the debug kernel (6.1.192): three "bio-96" names.
run_rc 0 "$tool" --kmsg "$RESULTS/kmsg" < "$data/cve-2024-25740.txt"
echo "$out"
expect_eq "known kernel leak lines" 3 "$(grep -c '^known kernel leak: CVE-2024-25740 .*"bio-96" from python3 pid 10[0-9]*, cache made by bioset_init$' <<< "$out")"
expect_in "summary" "kmemleak: 3 object(s): 3 known kernel leak(s), 0 not known"
! grep -q '^unreferenced object' <<< "$out" || fail "a known leak was printed as not known"
expect_eq "--kmsg line" "ramlld-test: the kmemleak report holds known kernel leaks only" "$(cat "$RESULTS/kmsg")"

# An object ramlld allocated (its frames named: the module was loaded at the scan).
rm -f "$RESULTS/kmsg"
run_rc 1 "$tool" --kmsg "$RESULTS/kmsg" < "$data/ramlld-object.txt"
echo "$out"
expect_in "ramlld's object printed in full" "    [<00000000c1f0a8d2>] ramlld_store_create+0x5e/0x2a0 [ramlld]"
expect_in "summary" "kmemleak: 1 object(s): 0 known kernel leak(s), 1 not known"
[ ! -e "$RESULTS/kmsg" ] || fail "--kmsg written although an object is not known"
echo "ok: no --kmsg line"

# The known leak beside five that are not: a kobject name ramlld's code kstrdup'd, an object
# sysfs_slab_add() itself allocated (not a kstrdup), the known backtrace under ramlld frames, a
# kset's name (kset_create_and_add between the kstrdup and sysfs_slab_add), and a cache name
# from slab_sysfs_init() at boot (not from kmem_cache_create()).
run_rc 1 "$tool" < "$data/mixed.txt"
echo "$out"
expect_in "summary" "kmemleak: 6 object(s): 1 known kernel leak(s), 5 not known"
expect_eq "the known one" 1 "$(grep -c '^known kernel leak: CVE-2024-25740 .* object 0xffff8880069c2730 ' <<< "$out")"
for obj in 0xffff8880069d1a28 0xffff888006a41e00 0xffff888006a36e10 0xffff888006a37f20 0xffff888003c10e58; do
	grep -q "^unreferenced object $obj " <<< "$out" || fail "object $obj not printed as not known"
done
echo "ok: objects 0xffff8880069d1a28 (ramlld's kobject), 0xffff888006a41e00 (no kstrdup), 0xffff888006a36e10 (ramlld frames), 0xffff888006a37f20 (a kset), 0xffff888003c10e58 (boot) not known"
expect_in "ramlld frames of the last one printed" "ramlld_bio_add+0x2f5/0x4a0 [ramlld]"

# No object at all passes; text that is not a kmemleak report fails.
run_rc 0 "$tool" < /dev/null
expect_eq "output for an empty report" "" "$out"
run_rc 1 "$tool" <<< "kmemleak: something else"
expect_in "not a report" "not a kmemleak report"

# --log: the scan's line before the marker goes; one after it (a later scan), or with no
# marker, stays.
log='[  10.1] ramlld-test: start faults/007 1.2
[  90.2] kmemleak: 3 new suspected memory leaks (see /sys/kernel/debug/kmemleak)
[  90.3] ramlld-test: the kmemleak report holds known kernel leaks only
[  95.0] kmemleak: 1 new suspected memory leaks (see /sys/kernel/debug/kmemleak)'
run_rc 0 "$tool" --log <<< "$log"
echo "$out"
expect_eq "lines left" 3 "$(wc -l <<< "$out")"
! grep -q '90.2.*new suspected' <<< "$out" || fail "the explained line stayed"
expect_in "the later line stays" "[  95.0] kmemleak: 1 new suspected memory leaks"
run_rc 0 "$tool" --log <<< "$(head -n 2 <<< "$log")"
expect_in "with no marker the line stays" "[  90.2] kmemleak: 3 new suspected memory leaks"

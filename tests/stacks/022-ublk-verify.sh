#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: ublk: kublk's loop target (tools/ublk/build) over ramlld's bio disk; 4 MiB written with fio's crc32c verify headers through /dev/ublkbN (io_uring, O_DIRECT: the ublk server's O_DIRECT writes to /dev/ramlld0) read back and verified through /dev/ramlld0 itself, and the reverse; a block changed through the writing path is found by the reading path's verify (EILSEQ at its offset); kublk del leaves no ublk device
# where: guest
# requires: fio python3
# timeout: 900
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/verify-lib.bash
. "$TOP/tests/verify-lib.bash"

kublk=${RAMLLD_KUBLK:-$HOME/.cache/ramlld/ublk/$(uname -r)/kublk}
modinfo ublk_drv > /dev/null 2>&1 || [ -d /sys/module/ublk_drv ] ||
	skip "kernel $(uname -r) has no module ublk_drv (CONFIG_BLK_DEV_UBLK)"
[ -x "$kublk" ] || skip "no kublk at $kublk for kernel $(uname -r) (tools/ublk/build: Debian's linux-source of 6.15 or later)"
# shellcheck disable=SC2034 # cross_verify takes them by name
blk=(--ioengine=io_uring --direct=1 --iodepth=8)
ramlld_load mode=bio capacity_mb=16
loaded=0
if [ ! -d /sys/module/ublk_drv ]; then
	modprobe ublk_drv || fail "modprobe ublk_drv failed"
	loaded=1
fi
# Without zero copy: kublk -z passes the same checks, but Debian's 7.2.13 logs a UBSAN
# array-index-out-of-bounds in io_buffer_register_bvec (io_uring/rsrc.c) as ublk registers the
# request's pages, which fails any test (tests/run)
"$kublk" add -t loop -q 1 -n 7 /dev/ramlld0 > "$RESULTS/kublk-add.out" 2>&1 ||
	fail "kublk add -t loop /dev/ramlld0 failed: $(tail -n 3 "$RESULTS/kublk-add.out" | tr '\n' ' ')"
dev_wait test -b /dev/ublkb7 || { "$kublk" del -n 7; fail "no /dev/ublkb7 after kublk add"; }
cross_verify ublk-loop /dev/ublkb7 blk ramlld-bio /dev/ramlld0 blk
cross_verify ramlld-bio /dev/ramlld0 blk ublk-loop /dev/ublkb7 blk
"$kublk" del -n 7 > "$RESULTS/kublk-del.out" 2>&1 || fail "kublk del -n 7 failed: $(tr '\n' ' ' < "$RESULTS/kublk-del.out")"
dev_wait test ! -e /dev/ublkb7 || fail "/dev/ublkb7 still there after kublk del"
echo "ok: both ways verified, /dev/ublkb7 gone after kublk del"
[ "$loaded" = 0 ] || rmmod ublk_drv || fail "rmmod ublk_drv failed (a ublk device or server left?)"
ramlld_unload

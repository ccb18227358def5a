#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: a lazy store larger than the guest's RAM gives write errors when memory runs out; the guest stays up
# where: guest
# vm: --mem 384M
# timeout: 300
. "$TOP/tests/lib.sh"

ramlld_load mode=bio,mq capacity_mb=1024
# writing 1 GiB into 384 MiB of RAM must end in an I/O error, not an OOM kill or a crash
if dd if=/dev/zero of=/dev/ramlld0 bs=1M oflag=direct status=none 2>/tmp/err; then
	fail "1 GiB written into a 384 MiB guest"
fi
grep -q "Input/output error" /tmp/err || fail "expected EIO, got: $(cat /tmp/err)"
echo "ok: bio write failed with: $(tail -1 /tmp/err)"
if dd if=/dev/zero of=/dev/ramlldmq0 bs=1M oflag=direct status=none 2>/tmp/err; then
	fail "1 GiB written through mq into a 384 MiB guest"
fi
grep -q "Input/output error" /tmp/err || fail "mq: expected EIO, got: $(cat /tmp/err)"
echo "ok: mq write failed with: $(tail -1 /tmp/err)"
dmesg | grep -qiE "oom-kill|Out of memory|page allocation failure" && fail "OOM killer or allocation warning in the log"
# freeing the store gives the memory back
blkdiscard /dev/ramlld0 || fail "discard after memory exhaustion"
dd if=/dev/zero of=/dev/ramlldmq0 bs=1M count=16 oflag=direct status=none || fail "write after discard failed"
echo "ok: after discard, writes succeed again"
ramlld_unload

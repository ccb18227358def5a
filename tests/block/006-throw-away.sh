#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: throw_away_writes stores nothing, throw_away_reads copies nothing; both switch at run time
# where: guest
# requires: cmp
. "$TOP/tests/lib.sh"

ramlld_load mode=bio,mq capacity_mb=4
p=/sys/module/ramlld/parameters
head -c 65536 /dev/urandom > /tmp/a
head -c 65536 /dev/urandom > /tmp/b
dd if=/tmp/a of=/dev/ramlld0 bs=64k oflag=direct status=none
echo 1 > $p/throw_away_writes
expect_eq throw_away_writes Y "$(cat $p/throw_away_writes)"
dd if=/tmp/b of=/dev/ramlldmq0 bs=64k oflag=direct status=none || fail "thrown-away write failed"
echo 0 > $p/throw_away_writes
dd if=/dev/ramlld0 of=/tmp/back bs=64k count=1 iflag=direct status=none
cmp /tmp/a /tmp/back || fail "throw_away_writes=1 changed the stored data"
echo "ok: thrown-away write left the store as it was"
echo 1 > $p/throw_away_reads
# an O_DIRECT read that copies nothing leaves the user buffer as it was: the
# data read cannot be the stored pattern (the buffer is fresh, zeroed memory)
dd if=/dev/ramlldmq0 of=/tmp/back bs=64k count=1 iflag=direct status=none || fail "thrown-away read failed"
cmp -s /tmp/a /tmp/back && fail "throw_away_reads=1 still returned the stored data"
echo 0 > $p/throw_away_reads
dd if=/dev/ramlldmq0 of=/tmp/back bs=64k count=1 iflag=direct status=none
cmp /tmp/a /tmp/back || fail "data lost after throw_away_reads=0"
echo "ok: thrown-away read returned no stored data; reads copy again once switched off"
ramlld_unload

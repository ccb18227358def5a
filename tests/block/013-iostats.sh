#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: the bio disk accounts I/O in /sys/block/ramlld0/stat exactly when queue/iostats is 1 (off by default)
# where: guest
# requires: dd
. "$TOP/tests/lib.sh"

n=100
# read_ios SECTORS: fields 1 and 3 of the stat file (read I/Os, read sectors)
stat_reads() {
	awk '{ print $1, $3 }' /sys/block/ramlld0/stat
}
reads() {
	local before after
	before=$(stat_reads)
	dd if=/dev/ramlld0 of=/dev/null bs=4k count=$n iflag=direct status=none || fail "dd failed"
	after=$(stat_reads)
	echo "$before $after" | awk '{ print $3 - $1, $4 - $2 }'
}
ramlld_load mode=bio capacity_mb=8
q=/sys/block/ramlld0/queue
expect_eq "iostats (default)" 0 "$(cat $q/iostats)"
expect_eq "read I/Os and sectors counted with iostats=0" "0 0" "$(reads)"
echo 1 > $q/iostats
expect_eq "iostats" 1 "$(cat $q/iostats)"
expect_eq "read I/Os and sectors counted with iostats=1" "$n $((n * 8))" "$(reads)"
echo 0 > $q/iostats
expect_eq "read I/Os and sectors counted after iostats=0 again" "0 0" "$(reads)"
ramlld_unload

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: rotational=1 makes sd keep add_random=1 (VPD B1 7200 rpm) and each sd completion feeds the entropy pool; add_random=0 and the mq disk feed none
# where: guest
# requires: dd sg_vpd
# timeout: 300
. "$TOP/tests/lib.sh"
. "$TOP/tests/scsi/scsi-lib.bash"

tr=/sys/kernel/tracing
[ -w $tr/kprobe_events ] || skip "no tracefs kprobe_events in this guest"
n=200

# a kprobe on add_disk_randomness(), the entropy input of a disk completion (scsi_end_request()
# calls it when the queue's add_random is 1): its hits are the cost add_random adds
probe_hits() {
	grep -c ' ramlld_adr: ' $tr/trace || true
}
reads() {
	: > $tr/trace
	dd if="$1" of=/dev/null bs=4k count=$n iflag=direct status=none || fail "dd from $1 failed"
	probe_hits
}
cleanup_probe() {
	echo 0 > $tr/events/kprobes/ramlld_adr/enable 2> /dev/null || true
	echo '-:kprobes/ramlld_adr' >> $tr/kprobe_events 2> /dev/null || true
}
trap 'cleanup_probe; _ramlld_on_exit' EXIT
echo 'p:kprobes/ramlld_adr add_disk_randomness' >> $tr/kprobe_events ||
	skip "cannot put a kprobe on add_disk_randomness"
echo 1 > $tr/events/kprobes/ramlld_adr/enable

scsi_load mode=scsi,mq capacity_mb=8 rotational=1
trap 'cleanup_probe; _ramlld_on_exit' EXIT
sd=${SD[0]}
expect_eq "VPD B1 medium rotation rate" 7200 \
	"$(sg_vpd --page=0xb1 "/dev/$sd" | awk -F: '/[Rr]otation rate/ { gsub(/[^0-9]/, "", $2); print $2 }')"
for d in "$sd" ramlldmq0; do
	expect_eq "$d rotational" 1 "$(cat /sys/block/"$d"/queue/rotational)"
	expect_eq "$d add_random" 1 "$(cat /sys/block/"$d"/queue/add_random)"
done
echo "entropy_avail before: $(cat /proc/sys/kernel/random/entropy_avail) (6.1 caps it at 256: not a measure here)"

hits=$(reads "/dev/$sd")
echo "$sd, add_random=1: $hits add_disk_randomness calls for $n reads"
[ "$hits" -ge "$n" ] || fail "$sd with add_random=1: $hits entropy inputs for $n reads, want >= $n"
echo 0 > /sys/block/"$sd"/queue/add_random
expect_eq "$sd add_random=0: entropy inputs" 0 "$(reads "/dev/$sd")"
# blk-mq never calls add_disk_randomness(): add_random has no cost on the mq disk
expect_eq "ramlldmq0 add_random=1: entropy inputs" 0 "$(reads /dev/ramlldmq0)"
ramlld_unload

# the default stays non-rotating: sd turns add_random off
scsi_load mode=scsi capacity_mb=8
expect_eq "${SD[0]} add_random (default)" 0 "$(cat /sys/block/"${SD[0]}"/queue/add_random)"
expect_eq "${SD[0]} default: entropy inputs" 0 "$(reads "/dev/${SD[0]}")"
ramlld_unload
echo "ok: add_random acts on the sd disk only, and only with rotational=1"

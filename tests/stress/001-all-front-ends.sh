#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: bio, mq and sd front ends of one store (mode=all, irqmode=1) under concurrent fio verify jobs on disjoint regions with trims mixed in, while the schedulers of mq and sd switch, rq_affinity changes and CPU 1 goes offline and online; then rmmod under no load: zero verify errors, zero kernel reports
# where: guest
# requires: fio
# vm: --cpus 2
# timeout: 300
. "$TOP/tests/lib.sh"
. "$TOP/tests/scsi/scsi-lib.bash"

cpu1=/sys/devices/system/cpu/cpu1/online
[ -w $cpu1 ] || skip "CPU 1 cannot go offline here (no $cpu1: one CPU, or no CPU hotplug)"
runtime=${STRESS_SECONDS:-45}
scsi_load mode=all capacity_mb=96 irqmode=1
sd=${SD[0]}
kmemleak_start

# Three regions of 32 MiB, one per front end. In each, a job overwrites the first 24 MiB at
# random (fixed 16 KiB blocks, so that fio's verify log never holds overlapping pieces) and
# verifies what it wrote in a backlog of 64 blocks, while another trims the last 8 MiB at random.
cat > /tmp/stress.fio <<EOT
[global]
ioengine=libaio
direct=1
iodepth=8
bs=16k
time_based=1
runtime=$TEST_TIMEOUT
randrepeat=0

EOT
i=0
for dev in ramlld0 ramlldmq0 "$sd"; do
	cat >> /tmp/stress.fio <<EOT
[$dev-verify]
filename=/dev/$dev
offset=$((i * 32))M
size=24M
rw=randwrite
verify=crc32c
verify_fatal=1
verify_backlog=64

[$dev-trim]
filename=/dev/$dev
offset=$((i * 32 + 24))M
size=8M
rw=randtrim
iodepth=2

EOT
	i=$((i + 1))
done

fio --output-format=json --output=/tmp/stress.json /tmp/stress.fio > /tmp/stress.out 2>&1 &
fio_pid=$!

# The disturbances for $runtime s and at least 4 rounds (8 scheduler switches, 2 CPU 1 offline
# cycles, however slow the host), under fio all along: it runs until stopped (it would outlive
# the test).
scheds_mq=$(tr -d '[]' < /sys/block/ramlldmq0/queue/scheduler)
scheds_sd=$(tr -d '[]' < "/sys/block/$sd/queue/scheduler")
echo "schedulers: ramlldmq0: $scheds_mq; $sd: $scheds_sd"
switches=0 affinity=0 offlines=0 i=0 end=$((SECONDS + runtime))
while [ "$SECONDS" -lt "$end" ] || [ "$i" -lt 4 ]; do
	kill -0 $fio_pid 2> /dev/null || { cat /tmp/stress.out; fail "fio ended during the disturbances"; }
	i=$((i + 1))
	for q in ramlldmq0:"$scheds_mq" "$sd":"$scheds_sd"; do
		dev=${q%%:*}
		read -r -a list <<< "${q#*:}"
		s=${list[$((i % ${#list[@]}))]}
		echo "$s" > "/sys/block/$dev/queue/scheduler" || fail "$dev: cannot switch to $s under I/O"
		switches=$((switches + 1))
		echo $((i % 3)) > "/sys/block/$dev/queue/rq_affinity" || fail "$dev: cannot set rq_affinity $((i % 3))"
		affinity=$((affinity + 1))
	done
	if [ $((i % 2)) = 0 ]; then
		echo 0 > $cpu1 || fail "CPU 1 did not go offline under I/O"
		sleep 0.5
		echo 1 > $cpu1 || fail "CPU 1 did not come back online"
		offlines=$((offlines + 1))
	fi
	sleep 0.5
done
kill -0 $fio_pid 2> /dev/null || { cat /tmp/stress.out; fail "fio ended during the disturbances"; }
kill -TERM $fio_pid
rc=0
wait $fio_pid || rc=$?
expect_eq "CPU 1 online at the end" 1 "$(cat $cpu1)"
echo "disturbances: $switches scheduler switches, $affinity rq_affinity changes, $offlines CPU 1 offline/online cycles"
# fio stopped by SIGTERM exits 128 after its report
[ "$rc" -eq 0 ] || [ "$rc" -eq 128 ] || { cat /tmp/stress.out; fail "fio exited $rc"; }
{ [ $switches -ge 8 ] && [ $offlines -ge 2 ]; } || fail "too few disturbances during the run"
python3 - /tmp/stress.json <<'EOT' || fail "fio reported errors"
import json, sys
text = open(sys.argv[1]).read()
d = json.loads(text[text.index("{"):])
bad = 0
for j in d["jobs"]:
    w, r, t = j["write"], j["read"], j["trim"]
    print(f"{j['jobname']}: error {j['error']}, written {w['io_bytes'] >> 20} MiB, verified "
          f"{r['io_bytes'] >> 20} MiB, trimmed {t['io_bytes'] >> 20} MiB ({t['total_ios']} trims)")
    if j["jobname"].endswith("-trim"):
        ok = t["total_ios"] > 0
    else:
        ok = w["io_bytes"] > 0 and r["io_bytes"] > 0
    if j["error"] or not ok:
        bad += 1
if len(d["jobs"]) != 6:
    print(f"{len(d['jobs'])} jobs reported, expected 6")
    bad += 1
sys.exit(1 if bad else 0)
EOT
echo "ok: every verify job wrote and verified, every trim job trimmed, with no error"
ramlld_unload
kmemleak_check "the stress run"

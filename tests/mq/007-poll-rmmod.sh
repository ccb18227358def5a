#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: rmmod while polled io_uring I/O flows on the mq and sd disks is refused, the I/O goes on unharmed, the data verifies, no kernel report
# where: guest
# requires: fio python3
# timeout: 300
. "$TOP/tests/lib.sh"
. "$TOP/tests/scsi/scsi-lib.bash"
. "$TOP/tests/poll-lib.bash"

# The mq disk always polls; the sd disk only from 5.13 (SCSI ->mq_poll): before, the host
# refuses poll_queues (tests/scsi/012-poll.sh) and only the mq disk is tried.
disks=(ramlldmq0)
if kernel_at_least 5 13; then
	scsi_load mode=mq,scsi capacity_mb=16 nr_hw_queues=1 submit_queues=1 poll_queues=1
	disks+=("${SD[0]}")
else
	echo "note: kernel $(uname -r) has no SCSI ->mq_poll (5.13): the sd disk is not tried"
	ramlld_load mode=mq capacity_mb=16 nr_hw_queues=1 poll_queues=1
fi
kernel_log_mark

# ios DISK: reads completed on DISK so far (/sys/block/DISK/stat field 1; the fill only writes)
ios() {
	awk '{ print $1 }' "/sys/block/$1/stat"
}

# flowing WHAT: every disk completes more reads (two stat samples apart), while fio runs
flowing() {
	local d
	for d in "${disks[@]}"; do
		ios_before=$(ios "$d")
		wait_for "$1: a read to complete on $d (/sys/block/$d/stat reads above $ios_before)" more_ios "$1" "$d"
	done
	echo "ok: $1: I/O flowing on ${disks[*]}"
}

# more_ios WHAT DISK: DISK completed reads since ios_before; fails the test once fio has ended
more_ios() {
	kill -0 "$pid" 2> /dev/null || fail "$1: fio ended: $(tail -n 5 "$RESULTS/fio.json")"
	wait_seen="$(ios "$2") reads"
	[ "$(ios "$2")" -gt "$ios_before" ]
}

# One fio: per disk, its first 8 MiB written with a checksummed pattern (polled), then (a
# stonewall: once every fill has ended), while rmmod is tried, polled random reads of that half and polled random writes of the other half that fio
# verifies as it goes (verify_backlog); afterwards the first half is verified again.
fill=() jobs=()
for d in "${disks[@]}"; do
	echo none > "/sys/block/$d/queue/scheduler"
	poll_fio_args=(--filename="/dev/$d" --direct=1 --bs=4k --ioengine=io_uring --hipri=1 --iodepth=16)
	fill+=(--name="fill-$d" --rw=write --size=8M --verify=crc32c --do_verify=0 "${poll_fio_args[@]}")
	jobs+=(--name="r-$d" --rw=randread --size=8M --time_based --runtime="$TEST_TIMEOUT" "${poll_fio_args[@]}"
		--name="w-$d" --rw=randwrite --offset=8M --size=8M --verify=crc32c --verify_backlog=64
		--verify_fatal=1 --time_based --runtime="$TEST_TIMEOUT" "${poll_fio_args[@]}")
done
# the poll functions' ended requests, counted while I/O first flows (kprobes, where the kernel has them)
probe_add polled_mq ramlld_mq_poll returned || true
[ ${#disks[@]} -lt 2 ] || probe_add polled_sd ramlld_scsi_mq_poll returned || true
# fio on the first CPU only (polling spins): the rmmod attempts get a CPU of their own where
# there is one. The load runs until killed below (it would outlive the test): every rmmod attempt is made under I/O
fio --cpus_allowed=0 --output-format=json --output="$RESULTS/fio.json" "${fill[@]}" "${jobs[0]}" --stonewall \
	"${jobs[@]:1}" &
pid=$!
flowing "before rmmod"
for p in polled_mq:ramlldmq0 polled_sd:${disks[1]:-}; do
	[ -n "${p#*:}" ] || continue
	n=$(probe_result "${p%:*}")
	[ "$n" != - ] || continue
	[ "$n" -gt 0 ] || fail "${p#*:}: its poll function ended no request: its I/O was not polled"
	echo "ok: ${p#*:}: $n requests ended by its poll function"
done
probe_clear
echo "(I/O flowing after $SECONDS s)"

refused=0
for i in 1 2 3; do
	if rmmod ramlld 2> "$RESULTS/rmmod.err"; then
		fail "rmmod ramlld succeeded (attempt $i) while polled I/O was in flight on ${disks[*]}"
	fi
	grep -q "in use" "$RESULTS/rmmod.err" || fail "rmmod attempt $i: unexpected error: $(cat "$RESULTS/rmmod.err")"
	refused=$((refused + 1))
	flowing "after rmmod attempt $i"
done
expect_eq "rmmod attempts refused under polled I/O" 3 $refused
kill -0 $pid 2> /dev/null || fail "fio ended before it was stopped"
kill -TERM $pid # background jobs of a script ignore SIGINT
wait $pid || true
python3 - "$RESULTS/fio.json" <<'EOF' || fail "fio saw errors, or a job moved no I/O, while rmmod was tried"
import json, sys
t = open(sys.argv[1]).read()
bad = 0
for j in json.loads(t[t.index("{"):])["jobs"]:
    n = j["read"]["total_ios"] + j["write"]["total_ios"]
    print(f"fio {j['jobname']}: error {j['error']}, {j['read']['total_ios']} reads, {j['write']['total_ios']} writes")
    bad += j["error"] != 0 or n == 0 or (j["jobname"].startswith("w-") and j["write"]["total_ios"] == 0)
sys.exit(bad)
EOF
fio --verify_only=1 --verify_fatal=1 --output="$RESULTS/verify.out" "${fill[@]}" ||
	fail "the first halves no longer verify: $(tail -n 5 "$RESULTS/verify.out")"
echo "ok: ${disks[*]}: the pattern written before the rmmod attempts verifies"
reports=$(kernel_log_since_mark | kernel_log_reports)
[ -z "$reports" ] || fail "kernel reports while rmmod was tried: $reports"
echo "ok: no kernel report"
rmmod ramlld || fail "rmmod after the I/O ended failed"
[ ! -e /sys/module/ramlld ] || fail "/sys/module/ramlld left after rmmod"
echo "ok: rmmod after the I/O ended ($SECONDS s)"

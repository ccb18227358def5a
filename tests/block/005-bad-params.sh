#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: every bad module parameter (the SCSI ones too) fails insmod with EINVAL and a line naming it; no disk was ever added (kernel log), nothing stays registered
# where: guest
# timeout: 400
. "$TOP/tests/lib.sh"

# check_bad NAME ARGS...: the load with ARGS is refused, the log naming NAME, and no disk was
# ever added: the parameters are checked before anything is made
check_bad() {
	local name=$1; shift
	ramlld_load_refused "ramlld: $name=.* is invalid: allowed" "$@"
	kernel_log_since_mark | grep -E "ramlld: device [0-9]+:|ramlld: scsi: host|Attached SCSI disk" &&
		fail "insmod $*: a disk was added before the parameter was refused"
	return 0
}

check_bad mode mode=nvme
check_bad mode mode=bio,,floppy
check_bad mode "mode="
check_bad sector_size sector_size=520
check_bad sector_size sector_size=8192
check_bad capacity_mb capacity_mb=0
check_bad capacity_mb capacity_mb=2097152
check_bad nr_devices nr_devices=0
check_bad nr_devices nr_devices=100000
check_bad physical_block_size sector_size=4096 physical_block_size=512
check_bad physical_block_size physical_block_size=3000
check_bad irqmode irqmode=3
# every bool parameter names what it allows (param_set_bool's own line does not)
for b in prealloc shared_tags blocking rotational write_cache queue_rqs complete_batch \
	throw_away_reads throw_away_writes; do
	check_bad "$b" "$b=2"
done
check_bad write_cache write_cache=maybe
# a number parameter given no number, before its range is checked
check_bad irqmode irqmode=one
check_bad capacity_mb capacity_mb=64M
check_bad can_queue mode=all can_queue=-1
check_bad hw_queue_depth hw_queue_depth=0
check_bad nr_hw_queues nr_hw_queues=99999
check_bad completion_nsec completion_nsec=5000000000
# the SCSI front end's parameters are checked with the others, before the bio and mq disks
check_bad num_tgts mode=all nr_devices=2 num_tgts=3
check_bad num_tgts mode=bio,scsi num_tgts=0
check_bad luns_per_tgt mode=all nr_devices=10 num_tgts=2 luns_per_tgt=4
check_bad luns_per_tgt mode=all luns_per_tgt=257
check_bad can_queue mode=all can_queue=0
check_bad can_queue mode=all can_queue=4097
check_bad cmd_per_lun mode=all can_queue=8 cmd_per_lun=9
check_bad submit_queues mode=all submit_queues=99999
# the control: a good load logs a line per device, which the checks above look for
dmesg -C
need_modules sd_mod
insmod "$RAMLLD_KO" mode=all nr_devices=2 capacity_mb=4 || fail "insmod mode=all nr_devices=2 failed"
log=$(dmesg)
# a run-time bool write that is refused names the allowed values and changes nothing
p=/sys/module/ramlld/parameters/throw_away_reads
dmesg -C
echo 2 > "$p" 2>/dev/null && fail "throw_away_reads=2 written at run time was accepted"
[ "$(cat "$p")" = N ] || fail "a refused throw_away_reads write changed it to $(cat "$p")"
dmesg | grep -q "ramlld: throw_away_reads=2 is invalid: allowed 0 or 1" ||
	fail "a refused throw_away_reads write logged no line naming it: $(dmesg | tail -3)"
echo "ok: throw_away_reads=2 at run time -> EINVAL, still N"
ramlld_unload
for want in "ramlld: device 0: 4 MiB, 512-byte sectors, disks: ramlld0 ramlldmq0" \
	"ramlld: device 1: 4 MiB, 512-byte sectors, disks: ramlld1 ramlldmq1" "ramlld: scsi: host"; do
	grep -qF "$want" <<< "$log" || fail "a good load did not log '$want': $log"
done
echo "ok: a good load logs each device and the SCSI host"
# a prealloc that cannot be met: -ENOMEM with a one-line message, nothing left
dmesg -C
if out=$(insmod "$RAMLLD_KO" prealloc=1 capacity_mb=1000000 2>&1); then
	rmmod ramlld; fail "prealloc of ~1 TB succeeded"
fi
echo "$out" | grep -qi "Cannot allocate memory" || fail "prealloc: expected ENOMEM, got: $out"
dmesg | grep -q "ramlld: store 0: cannot allocate" || fail "prealloc: no log line"
[ ! -e /sys/module/ramlld ] || fail "prealloc: module left"
echo "ok: impossible prealloc -> ENOMEM"

# SPDX-License-Identifier: GPL-2.0
# tests/tools/tools-lib.bash: helpers of the tools/queue-tune and tools/percpu-load tests.
# shellcheck shell=bash
# shellcheck disable=SC2034 # QT, PL, out, RAM, NULLB, SD, RAMLLD_DISKS are for the tests

out=

# the device library (tools/devices/README.md)
# shellcheck source=tools/devices/brd.sh
. "$TOP/tools/devices/brd.sh"
# shellcheck source=tools/devices/null_blk.sh
. "$TOP/tools/devices/null_blk.sh"
# shellcheck source=tools/devices/scsi_debug.sh
. "$TOP/tools/devices/scsi_debug.sh"

QT=$TOP/tools/queue-tune
PL=$TOP/tools/percpu-load
QUEUE_TUNE_STATE_DIR=$(mktemp -d /tmp/queue-tune-state.XXXXXX)
export QUEUE_TUNE_STATE_DIR

# fake_disk NAME mq|bio|bio612 MAJ:MIN [SCHEDULER]: a disk in the fake sysfs tree $fake with the
# queue attributes queue-tune knows: blk-mq (scheduler file SCHEDULER, default "[none]
# mq-deadline"), bio-based as 6.1 shows it (a scheduler file reading none, nr_requests) or as
# 6.11 on does (no scheduler, rq_affinity, nr_requests)
# shellcheck disable=SC2154 # fake is the calling test's
fake_disk() {
	local d=$fake/block/$1 q=$fake/block/$1/queue
	mkdir -p "$q" "$fake/class/block"
	ln -s "../../block/$1" "$fake/class/block/$1"
	echo "$3" > "$d/dev"
	echo 1 > "$d/diskseq"
	case $2 in
	mq)
		mkdir -p "$d/mq/0"
		echo 64 > "$d/mq/0/nr_tags"
		echo 0 > "$d/mq/0/nr_reserved_tags"
		echo "${4:-[none] mq-deadline}" > "$q/scheduler"
		echo 64 > "$q/nr_requests"
		;;
	bio)
		echo none > "$q/scheduler"
		echo 128 > "$q/nr_requests"
		;;
	esac
	[ "$2" = bio612 ] || echo 1 > "$q/rq_affinity"
	echo 1 > "$q/add_random"
	echo 0 > "$q/nomerges"
	echo 1 > "$q/iostats"
	echo 512 > "$q/max_sectors_kb"
	echo 1024 > "$q/max_hw_sectors_kb"
	chmod 444 "$q/max_hw_sectors_kb"
	echo 128 > "$q/read_ahead_kb"
}

# json_get FILE EXPR: print a value from a JSON file (EXPR is Python on 'd').
json_get() {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

# stand_in_disks: load brd, null_blk and scsi_debug (+ sd) as the test disks; sets RAM=ram0,
# NULLB=nullb0, SD=the scsi_debug sd disk. Everything loaded is unloaded by unload_all.
stand_in_disks() {
	local m
	for m in brd null_blk scsi_debug sd_mod; do
		modinfo "$m" > /dev/null 2>&1 || skip "kernel $(uname -r) has no module $m"
	done
	trap unload_all EXIT
	DEV_WAIT=$(wait_seconds)
	dev_brd_load 1 64 4 || fail "$DEV_ERR"
	dev_null_blk_add nullb0 size=64 || fail "$DEV_ERR"
	dev_scsi_debug_load delay=0 dev_size_mb=64 || fail "$DEV_ERR"
	RAM=ram0
	NULLB=${NULL_BLK_DEV#/dev/}
	SD=${SCSI_DEBUG_DISKS[0]#/dev/}
	echo "stand-ins: $RAM (brd, bio) $NULLB (null_blk, blk-mq) $SD (scsi_debug)"
}

# ramlld_disks: when drivers/ramlld.ko is built, load it (mode=bio,scsi) and set RAMLLD_DISKS
# to its bio disk and its sd disk; else leave RAMLLD_DISKS empty.
ramlld_disks() {
	RAMLLD_DISKS=
	[ -f "$RAMLLD_KO" ] || { echo "note: $RAMLLD_KO not built: ramlld disks not tested"; return 0; }
	ramlld_load mode=bio,scsi capacity_mb=64
	trap unload_all EXIT # after ramlld_load, which sets a trap of its own
	wait_for_path /dev/ramlld0
	local sd
	sd=$(ramlld_sd_disks | head -n 1)
	[ -n "$sd" ] || fail "ramlld mode=scsi: no sd disk with vendor RAMLLD"
	wait_for_path /dev/"$sd"
	RAMLLD_DISKS="ramlld0 $sd"
	echo "ramlld: ramlld0 (bio) $sd (scsi)"
}

# unload_all: unload what stand_in_disks and ramlld_disks loaded (each test calls it at its end;
# it is also the EXIT trap, for a test that fails half-way).
unload_all() {
	local rc=$? m
	if [ "$rc" -ne 0 ]; then
		# a failed test: no waiting, what stays loaded the runner reports and unloads
		(exit "$rc") || _ramlld_on_exit || true
		for m in scsi_debug null_blk brd; do
			DEV_WAIT=1 "dev_${m}_unload" || echo "warning: $DEV_ERR" >&2
		done
		rm -rf "$QUEUE_TUNE_STATE_DIR"
		return "$rc"
	fi
	[ ! -d /sys/module/ramlld ] || ramlld_unload
	for m in scsi_debug null_blk brd; do
		DEV_WAIT=$(wait_seconds) "dev_${m}_unload" || fail "$DEV_ERR"
	done
	rm -rf "$QUEUE_TUNE_STATE_DIR"
	return 0
}

# write_mbr DEV: write a DOS partition table with one 16 MiB partition at sector 2048 (no
# sfdisk needed), then have the kernel read it.
write_mbr() {
	python3 - "$1" <<'PY'
import os, struct, sys
mbr = bytearray(512)
mbr[440:444] = b"\x78\x56\x34\x12"
mbr[446:462] = struct.pack("<B3sB3sII", 0, b"\x00\x02\x00", 0x83, b"\x00\x00\x00", 2048, 32768)
mbr[510:512] = b"\x55\xaa"
with open(sys.argv[1], "r+b") as f:
    f.write(mbr)
    os.fsync(f.fileno())
PY
	blockdev --rereadpt "$1" || fail "blockdev --rereadpt $1"
}

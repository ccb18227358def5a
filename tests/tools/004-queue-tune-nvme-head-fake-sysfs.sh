#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: queue-tune on an NVMe multipath head in a fake sysfs tree (QUEUE_TUNE_SYSFS): its path disks are shown, set, saved and restored with it, the scheduler, rq_affinity and nr_requests on them alone; a refused or not-holding write on the second path rolls back the first; a head without paths and another disk's file are refused
# where: host
# requires: python3
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/tools/tools-lib.bash
. "$TOP/tests/tools/tools-lib.bash"

fake=$(mktemp -d /tmp/qt-head-fake.XXXXXX)
trap 'rm -rf "$fake" "$QUEUE_TUNE_STATE_DIR"' EXIT
export QUEUE_TUNE_SYSFS=$fake

attr() { cat "$fake/block/$1/queue/$2"; }
# scheds: a written scheduler file holds the name alone: list the others again, as the kernel does
scheds() {
	local f cur
	for f in "$fake"/block/*/mq; do
		f=${f%/mq}/queue/scheduler
		read -r cur < "$f" || true # a write leaves no newline
		case $cur in
		none) echo "[none] mq-deadline" > "$f" ;;
		mq-deadline) echo "[mq-deadline] none" > "$f" ;;
		esac
	done
}
# a 6.12 head over two controllers' paths (listed out of order: c10 after c2), and disks
# that are not its paths: another namespace of the subsystem, the namespace in another one
mqd="[mq-deadline] none"
fake_disk nvme0n1 bio612 259:0
fake_disk nvme0c10n1 mq 259:1 "$mqd"
fake_disk nvme0c2n1 mq 259:2 "$mqd"
fake_disk nvme0c2n11 mq 259:3 "$mqd"
fake_disk nvme1c2n1 mq 259:4 "$mqd"
fake_disk nvme2n1 bio612 259:5 # a head whose paths are gone
fake_disk nvme4n1 bio 259:6    # a 6.1 head
fake_disk nvme4c0n1 mq 259:7 "$mqd"
paths="nvme0c2n1 nvme0c10n1"
json() {
	scheds
	"$QT" "$@" --json | tr -d ' \n'
}
before=$(json nvme0n1)
others=$(json nvme0c2n11 nvme1c2n1)

run_rc 0 "$QT" nvme0n1 --show
expect_in "--show: the head names its paths" "nvme0n1 (259:0, bio, diskseq 1, NVMe multipath head of nvme0c2n1 nvme0c10n1)"
expect_in "--show: a path" "nvme0c10n1 (259:1, blk-mq, diskseq 1, a path of nvme0n1)"
out=$before expect_in "--json: the head's paths" '"paths":["nvme0c2n1","nvme0c10n1"]'

run_rc 0 "$QT" nvme0n1 --save "$fake/saved.json" --profile seed-001
expect_in "the head's paths named" "nvme0n1: an NVMe multipath head: its path disks nvme0c2n1 nvme0c10n1 get these settings too (scheduler, rq_affinity, nr_requests on them only)"
expect_in "saved with its paths" "saved nvme0n1, nvme0c2n1, nvme0c10n1 to"
for d in $paths; do
	expect_in "$d: the change printed" "$d: scheduler mq-deadline -> none"
	expect_eq "$d scheduler" none "$(attr "$d" scheduler)"
	expect_eq "$d rq_affinity" 2 "$(attr "$d" rq_affinity)"
	expect_eq "$d add_random" 0 "$(attr "$d" add_random)"
done
expect_eq "the head's add_random" 0 "$(attr nvme0n1 add_random)"
for f in scheduler rq_affinity nr_requests; do
	[ ! -e "$fake/block/nvme0n1/queue/$f" ] || fail "$f was made on the 6.12 head"
done
expect_eq "the disks that are not its paths untouched" "$others" "$(json nvme0c2n11 nvme1c2n1)"
scheds
run_rc 0 "$QT" nvme0n1 --profile seed-001
expect_in "applied again" "nvme0n1, nvme0c2n1, nvme0c10n1: no change"

run_rc 0 "$QT" --restore "$fake/saved.json"
expect_in "restore: a path" "nvme0c10n1: scheduler none -> mq-deadline"
expect_eq "--json after --restore" "$before" "$(json nvme0n1)"
scheds
run_rc 0 "$QT" nvme0n1 --nomerges 2 --nr-requests 32 --scheduler none
expect_eq "nvme0c10n1 nr_requests" 32 "$(attr nvme0c10n1 nr_requests)"
scheds
run_rc 0 "$QT" nvme0n1 --profile default
expect_eq "--json after --profile default" "$before" "$(json nvme0n1)"

# all or nothing: a value a path does not take, a write refused on the second path (the
# hook makes it fail as the kernel's EINVAL), a write that does not hold there (/dev/null)
run_rc 2 "$QT" nvme0n1 --nomerges 2 --scheduler kyber
expect_in "a scheduler the paths lack" "nvme0c2n1: scheduler=kyber: not offered by this device; allowed: mq-deadline none"
expect_in "both paths named" "nvme0c10n1: scheduler=kyber"
expect_eq "--json after a validation error" "$before" "$(json nvme0n1)"
run_rc 1 env QUEUE_TUNE_FAIL=nvme0c10n1:scheduler "$QT" nvme0n1 --nomerges 2 --scheduler none
expect_in "the refused write named" "nvme0c10n1: the kernel rejected scheduler=none: Invalid argument"
expect_in "the first path rolled back" "nvme0c2n1: scheduler none -> mq-deadline (rollback)"
expect_in "the head rolled back" "nvme0n1: nomerges 2 -> 0 (rollback)"
expect_eq "--json after a refused write" "$before" "$(json nvme0n1)"
mv "$fake/block/nvme0c10n1/queue/nomerges" "$fake/nomerges"
ln -s /dev/null "$fake/block/nvme0c10n1/queue/nomerges"
run_rc 1 "$QT" nvme0n1 --scheduler none --nomerges 2
expect_in "a write that does not hold" "nvme0c10n1: nomerges=2 did not hold: it reads '' after the write"
expect_in "rolled back" "rolled back: nvme0c10n1, nvme0c2n1, nvme0n1 restored"
rm "$fake/block/nvme0c10n1/queue/nomerges"
mv "$fake/nomerges" "$fake/block/nvme0c10n1/queue/nomerges"
expect_eq "--json after a write that did not hold" "$before" "$(json nvme0n1)"

# a 6.1 head: its scheduler reads none and its nr_requests is not for writing: the path takes them
run_rc 0 "$QT" nvme4n1 --scheduler none --nr-requests 32 --rq-affinity 2 --iostats 0
expect_eq "6.1 path scheduler" none "$(attr nvme4c0n1 scheduler)"
expect_eq "6.1 path nr_requests" 32 "$(attr nvme4c0n1 nr_requests)"
expect_eq "6.1 head nr_requests untouched" 128 "$(attr nvme4n1 nr_requests)"
expect_eq "6.1 head rq_affinity untouched" 1 "$(attr nvme4n1 rq_affinity)"
expect_eq "6.1 head iostats" 0 "$(attr nvme4n1 iostats)"

run_rc 2 "$QT" nvme2n1 --scheduler none
expect_in "a head without paths" "nvme2n1: an NVMe multipath head (bio-based) with no path disk nvme2cCn1 in $fake/block"
expect_in "nothing changed" "nothing changed on any device"
run_rc 0 "$QT" nvme2n1 --show
expect_in "--show of a head without paths" "NVMe multipath head of no path disk"

# a file that holds the head alone is not restored onto its paths
python3 - "$fake/saved.json" "$fake/head.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["devices"] = d["devices"][:1]
json.dump(d, open(sys.argv[2], "w"))
PY
run_rc 2 "$QT" --restore "$fake/head.json"
expect_in "a file without the paths" "holds nvme0n1; not nvme0c2n1 (a path of nvme0n1): refusing to restore another device's values"
echo "ok"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: queue-tune's logic on a fake sysfs tree (QUEUE_TUNE_SYSFS): validate all then apply, rollback on a rejected write, save/restore, profiles, partitions
# where: host
# requires: python3
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/tools/tools-lib.bash
. "$TOP/tests/tools/tools-lib.bash"

fake=$(mktemp -d /tmp/qt-fake.XXXXXX)
trap 'rm -rf "$fake" "$QUEUE_TUNE_STATE_DIR"' EXIT
export QUEUE_TUNE_SYSFS=$fake

fake_disk fa mq 1:0
fake_disk fb bio 1:1
fake_disk fc mq 1:2
# a partition of fc
mkdir -p "$fake/block/fc/fc1"
touch "$fake/block/fc/fc1/partition"
ln -s ../../block/fc/fc1 "$fake/class/block/fc1"

show() { "$QT" fa fb fc --json | tr -d " \n"; }
before=$(show)

run_rc 2 "$QT" fa fb fc --nomerges 2 --max-sectors-kb 2048
expect_in "max_sectors_kb above max_hw_sectors_kb on all three" "fb: max_sectors_kb=2048: allowed 4..1024"
expect_eq "--json after a validation error" "$before" "$(show)"
run_rc 2 "$QT" fa fb fc --nomerges 2 --nr-requests 32
expect_in "nr_requests on the bio disk in the middle" "fb: nr_requests: bio-based disk"
expect_eq "--json after a value invalid on the second disk" "$before" "$(show)"
run_rc 2 "$QT" fa fb fc --read-ahead-kb 6
expect_in "read_ahead_kb not a page multiple" "read_ahead_kb=6: allowed multiples of"

run_rc 1 env QUEUE_TUNE_FAIL=fb:read_ahead_kb "$QT" fa fb fc --nomerges 2 --read-ahead-kb 1024
expect_in "rejected write" "fb: the kernel rejected read_ahead_kb=1024: Invalid argument"
expect_in "rollback of the first disk" "fa: read_ahead_kb 1024 -> 128 (rollback)"
expect_eq "--json after a rejected write" "$before" "$(show)"

run_rc 0 "$QT" fa fb fc --save "$fake/saved.json" --nomerges 2 --max-sectors-kb 64 --read-ahead-kb 4096 --iostats 0 --add-random 0 --rq-affinity 2
expect_in "changes printed" "fc: read_ahead_kb 128 -> 4096"
expect_eq "fa nomerges in sysfs" 2 "$(cat "$fake/block/fa/queue/nomerges")"
run_rc 0 "$QT" --restore "$fake/saved.json"
expect_eq "--json after --restore" "$before" "$(show)"

printf '# a profile\nmax-sectors-kb = 128  # dashes work too\nnomerges=1\n' > "$fake/prof"
run_rc 0 "$QT" fc1 --profile "$fake/prof"
expect_in "a partition name means its disk" "fc1 is a partition of fc: using fc"
expect_eq "fc max_sectors_kb from a profile file" 128 "$(cat "$fake/block/fc/queue/max_sectors_kb")"
run_rc 0 "$QT" fa fb fc --profile seed-002
expect_eq "fb read_ahead_kb from seed-002" 2048 "$(cat "$fake/block/fb/queue/read_ahead_kb")"
run_rc 0 "$QT" fa fb fc --profile default
expect_eq "--json after --profile default" "$before" "$(show)"
run_rc 0 "$QT" fa fb fc --profile default
expect_in "nothing to do" "no change"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: an NVMe multipath head of tools/stack nvme-loop (nvme-tcp where the kernel lacks it): queue-tune --profile one-core-peak sets its path disks' scheduler (none), iostats and nomerges, read back from sysfs, and --restore gives them back; the comparison's cells (compare/guest/cells.sh) apply the profile to the paths and put them back to the driver's settings after it
# where: guest
# timeout: 900
# requires: python3
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stacks/stacks-lib.bash
. "$TOP/tests/stacks/stacks-lib.bash"

s=nvme-loop
stack_available "$s" || s=nvme-tcp
ramlld_load mode=mq capacity_mb=16
stack_need "$s"
state_snapshot
stack_up "$s" /dev/ramlldmq0
head=${DEV#/dev/}
[[ $head =~ ^nvme([0-9]+)n([0-9]+)$ ]] || fail "$s: $DEV is not an NVMe namespace disk"
[ ! -d "/sys/block/$head/mq" ] || skip "$DEV is blk-mq: no multipath head (nvme_core multipath off)"
paths=()
for p in "/sys/block/nvme${BASH_REMATCH[1]}c"*"n${BASH_REMATCH[2]}"; do
	[ -d "$p/queue" ] && paths+=("${p##*/}")
done
[ ${#paths[@]} -ge 1 ] || fail "$DEV: a multipath head without a path disk in /sys/block"
echo "head $head, paths ${paths[*]}"

sched() {
	local v
	read -r v < "/sys/block/$1/queue/scheduler"
	[[ $v =~ \[([^]]*)\] ]] && v=${BASH_REMATCH[1]}
	echo "$v"
}
# qvals DISK: its scheduler, iostats and nomerges
qvals() {
	echo "$(sched "$1") $(cat "/sys/block/$1/queue/iostats") $(cat "/sys/block/$1/queue/nomerges")"
}
# the driver's settings, with mq-deadline on the paths so that none is a change
declare -A was=()
for p in "${paths[@]}"; do
	echo mq-deadline > "/sys/block/$p/queue/scheduler"
	was[$p]=$(qvals "$p")
done
was[$head]=$(cat "/sys/block/$head/queue/nomerges")
QT=$TOP/tools/queue-tune
export QUEUE_TUNE_STATE_DIR=$RESULTS/queue-tune
profile=$TOP/compare/profiles/one-core-peak
run_rc 0 "$QT" "$DEV" --save "$RESULTS/saved.json" --profile "$profile"
echo "$out"
expect_in "the paths named" "$head: an NVMe multipath head: its path disks ${paths[*]} get these settings too"
for p in "${paths[@]}"; do
	expect_in "$p: the change" "$p: scheduler mq-deadline -> none"
	expect_eq "$p scheduler" none "$(sched "$p")"
	expect_eq "$p iostats" 0 "$(cat "/sys/block/$p/queue/iostats")"
	expect_eq "$p nomerges" 2 "$(cat "/sys/block/$p/queue/nomerges")"
done
expect_eq "$head nomerges" 2 "$(cat "/sys/block/$head/queue/nomerges")"
write_read "$DEV" /dev/ramlldmq0 0
run_rc 0 "$QT" --restore "$RESULTS/saved.json"
echo "$out"
for p in "${paths[@]}"; do
	expect_eq "$p scheduler, iostats, nomerges after --restore" "${was[$p]}" "$(qvals "$p")"
done
expect_eq "$head nomerges after --restore" "${was[$head]}" "$(cat "/sys/block/$head/queue/nomerges")"

# as compare/guest-run runs a cell under a profile, and after it
top=$TOP here=$TOP/compare LOG=$RESULTS/cells.log
note() { echo "note: $*"; }
# shellcheck source=compare/guest/cells.sh
. "$TOP/compare/guest/cells.sh"
trap 'rm -f /tmp/compare-q.*; _stacks_on_exit' EXIT
save_queue "$s" "$DEV"
apply_profile "$s" one-core-peak "$DEV" || fail "apply_profile one-core-peak: $(cat "$LOG")"
cat "$LOG"
for p in "${paths[@]}"; do
	expect_eq "$p scheduler in a one-core-peak cell" none "$(sched "$p")"
done
apply_profile "$s" default "$DEV" || fail "apply_profile default"
for p in "${paths[@]}"; do
	expect_eq "$p scheduler, iostats, nomerges after the cell" "${was[$p]}" "$(qvals "$p")"
done
expect_eq "$head nomerges after the cell" "${was[$head]}" "$(cat "/sys/block/$head/queue/nomerges")"
rm -f /tmp/compare-q.*

"$STACK" down "$s" || fail "tools/stack down $s failed"
state_check "down $s"
ramlld_unload

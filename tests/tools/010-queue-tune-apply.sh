#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: queue-tune sets every writable queue attribute on bio, blk-mq and sd disks (brd, null_blk, scsi_debug, ramlld) and sysfs reads the value back
# where: guest
# requires: python3
# timeout: 1800
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/tools/tools-lib.bash
. "$TOP/tests/tools/tools-lib.bash"

stand_in_disks
ramlld_disks

# new_values DEV: one "attr value" line per writable attribute, each different from the current one
new_values() {
	python3 -c "$pick" "$1"
}
pick='
import json, sys
d = json.load(open(sys.argv[1]))["devices"][0]
a, w = d["attrs"], d["writable"]
new = {}
if "scheduler" in w and d["type"] == "blk-mq":
    other = [s for s in d["schedulers"] if s != a["scheduler"]]
    if other:
        new["scheduler"] = "none" if "none" in other else other[0]
for k, n in (("rq_affinity", 3), ("nomerges", 3), ("add_random", 2), ("iostats", 2)):
    if k in w:
        new[k] = (a[k] + 1) % n
if "max_sectors_kb" in w:
    new["max_sectors_kb"] = 64 if a["max_sectors_kb"] != 64 else 32
if "read_ahead_kb" in w:
    new["read_ahead_kb"] = 2048 if a["read_ahead_kb"] != 2048 else 1024
if "nr_requests" in w:
    sched = new.get("scheduler", a["scheduler"])
    new["nr_requests"] = 32 if sched == "none" else 100
for k, v in new.items():
    print(k, v)
'


sysfs_value() {
	local v
	read -r v < "/sys/block/$1/queue/$2"
	if [ "$2" = scheduler ]; then
		case $v in *'['*) v=${v#*[}; v=${v%%]*} ;; esac
	fi
	echo "$v"
}

for dev in $RAM $NULLB $SD $RAMLLD_DISKS; do
	declare -A want=()
	args=()
	while read -r attr val; do
		want[$attr]=$val
		args+=("--${attr//_/-}" "$val")
	done < <("$QT" "$dev" --json | tee /tmp/qt-before.json | new_values /dev/stdin)
	[ ${#args[@]} -gt 0 ] || fail "$dev: no writable attribute found"
	run_rc 0 "$QT" "$dev" "${args[@]}"
	echo "$out"
	for attr in "${!want[@]}"; do
		expect_eq "$dev $attr read back from sysfs" "${want[$attr]}" "$(sysfs_value "$dev" "$attr")"
		grep -q "^$dev: $attr .* -> ${want[$attr]}" <<< "$out" || fail "$dev: no '$dev: $attr old -> ${want[$attr]}' line"
	done
	unset want
	# and back to the values the device came up with
	run_rc 0 "$QT" "$dev" --profile default
	expect_eq "$dev --json after --profile default" "$(tr -d ' \n' < /tmp/qt-before.json)" \
		"$("$QT" "$dev" --json | tr -d ' \n')"
done

# bio-based disks: no scheduler to choose, nr_requests not writable: exit 2, nothing changed
for dev in $RAM ${RAMLLD_DISKS%% *}; do
	run_rc 2 "$QT" "$dev" --scheduler mq-deadline
	expect_in "$dev --scheduler mq-deadline" "allowed: none"
	run_rc 2 "$QT" "$dev" --nr-requests 64
	expect_in "$dev --nr-requests 64" "nr_requests"
	run_rc 0 "$QT" "$dev" --scheduler none
done

# noop means none on blk-mq
run_rc 0 "$QT" "$SD" --scheduler mq-deadline
run_rc 0 "$QT" "$SD" --scheduler noop
expect_in "$SD --scheduler noop" "'noop' is called 'none'"
expect_eq "$SD scheduler after noop" none "$(sysfs_value "$SD" scheduler)"

# out-of-range values name the value and what is allowed
run_rc 2 "$QT" "$NULLB" --max-sectors-kb 999999
expect_in "max_sectors_kb above max_hw_sectors_kb" "allowed 4..$(cat /sys/block/"$NULLB"/queue/max_hw_sectors_kb)"
run_rc 2 "$QT" "$NULLB" --scheduler none --nr-requests 100000
expect_in "nr_requests above the queue depth" "nr_requests=100000: allowed"
run_rc 2 "$QT" "$NULLB" --scheduler bfq-nonexistent
expect_in "unknown scheduler" "allowed: "

# a partition means its disk
write_mbr "/dev/$RAM"
wait_for_path "/dev/${RAM}p1"
run_rc 0 "$QT" "/dev/${RAM}p1" --read-ahead-kb 512
expect_in "partition" "${RAM}p1 is a partition of $RAM: using $RAM"
expect_eq "$RAM read_ahead_kb via its partition" 512 "$(sysfs_value "$RAM" read_ahead_kb)"
run_rc 0 "$QT" "${RAM}p1" --show
expect_in "partition by name" "using $RAM"
dd if=/dev/zero of="/dev/$RAM" bs=512 count=1 conv=fsync status=none
blockdev --rereadpt "/dev/$RAM"
echo "ok: queue-tune applied every writable attribute on: $RAM $NULLB $SD $RAMLLD_DISKS"
unload_all

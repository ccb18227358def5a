# SPDX-License-Identifier: GPL-2.0
# tests/configfs/configfs-lib.bash: helpers of the configfs tests, sourced after tests/lib.sh
# (not a test: no .sh).
# shellcheck shell=bash

CFS=/sys/kernel/config/ramlld

# configfs_mount: mount configfs where it is not mounted yet; fail without ramlld's directory.
configfs_mount() {
	if ! mountpoint -q /sys/kernel/config; then
		mount -t configfs none /sys/kernel/config || fail "cannot mount configfs"
	fi
	[ -d "$CFS" ] || fail "$CFS missing after loading ramlld"
}

# set_attr DIR ATTR VALUE: write one attribute, failing the test if it is refused
set_attr() {
	echo "$3" > "$CFS/$1/$2" || fail "writing $3 to $1/$2 was refused: $(dmesg | tail -n 2)"
}

# refused DIR ATTR VALUE ERRNO-TEXT LOG-PATTERN: the write fails, the log names the attribute,
# the value reads back unchanged
refused() {
	local dir=$1 attr=$2 val=$3 err=$4 pat=$5 before out
	before=$(cat "$CFS/$dir/$attr")
	dmesg -C
	if out=$( (echo "$val" > "$CFS/$dir/$attr") 2>&1); then
		fail "$dir/$attr=$val was accepted"
	fi
	grep -q "$err" <<< "$out" || fail "$dir/$attr=$val: expected '$err', got: $out"
	dmesg | grep -q "ramlld: $pat" || fail "$dir/$attr=$val: no log line matching '$pat': $(dmesg | tail -n 2)"
	expect_eq "$dir/$attr after the refused $val" "$before" "$(cat "$CFS/$dir/$attr")"
	echo "ok: $dir/$attr=$val refused: $(dmesg | grep -o "ramlld: $pat.*" | head -n 1)"
}

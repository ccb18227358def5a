#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: ramlld is one module that depends on scsi_mod (as scsi_debug does): in a fresh guest with no SCSI module, scsi_mod loaded as its dependency adds no host and no disk (its size printed), mode=bio gives /dev/ramlld0 only (no SCSI host, no sd disk), verified I/O; one insmod of mode=all gives /dev/ramlld0, /dev/ramlldmq0 and a RAMLLD sd disk holding the same data, and one rmmod removes all three with nothing left registered
# where: guest
# requires: cmp
# vm: --cpus 2
# timeout: 180
# (the vm: line gives this test a guest of its own: earlier tests load sd_mod and scsi_mod)
. "$TOP/tests/lib.sh"

# ramlld_hosts: the SCSI hosts of ramlld, one name a line
ramlld_hosts() {
	local p
	for p in /sys/class/scsi_host/host*/proc_name; do
		[ -e "$p" ] && [ "$(cat "$p")" = ramlld ] && echo "${p%/proc_name}"
	done
	return 0
}

# registered: what ramlld has registered (disks, hosts, devices, majors, module), sorted
registered() {
	{
		ls -d /sys/block/ramlld* /sys/devices/ramlld* /sys/module/ramlld 2> /dev/null || true
		ramlld_hosts
		_ramlld_sd_list || true
		grep -w 'ramlld\(mq\)\?' /proc/devices || true
	} | sort
}

if grep -q '/scsi_mod\.ko' "/lib/modules/$(uname -r)/modules.builtin" 2> /dev/null; then
	skip "scsi_mod is built into kernel $(uname -r): its load cannot be looked at"
fi
[ ! -d /sys/module/scsi_mod ] || fail "scsi_mod is loaded before the test: $(grep '^scsi_mod ' /proc/modules)"
deps=$(modinfo -F depends "$RAMLLD_KO")
case ",$deps," in *,scsi_mod,*) ;; *) fail "ramlld.ko does not depend on scsi_mod: '$deps'" ;; esac
echo "ok: ramlld.ko depends on '$deps'"
disks_before=$(ls /sys/block)
modprobe scsi_mod || fail "modprobe scsi_mod"
expect_eq "SCSI hosts after loading scsi_mod alone" 0 "$(find /sys/class/scsi_host -mindepth 1 | wc -l)"
expect_eq "disks after loading scsi_mod alone" "$disks_before" "$(ls /sys/block)"
echo "ok: scsi_mod, a dependency and no disk: $(awk '$1 == "scsi_mod" { print $2 }' /proc/modules) bytes of module memory"

ramlld_load mode=bio capacity_mb=8
expect_eq "ramlld disks with mode=bio" "ramlld0" "$(cd /sys/block && echo ramlld*)"
expect_eq "SCSI hosts of ramlld with mode=bio" "" "$(ramlld_hosts)"
expect_eq "SCSI devices with mode=bio" 0 "$(find /sys/bus/scsi/devices -mindepth 1 | wc -l)"
head -c 8M /dev/urandom > /tmp/pat.$$
dd if=/tmp/pat.$$ of=/dev/ramlld0 bs=1M oflag=direct status=none || fail "write /dev/ramlld0"
cmp <(dd if=/dev/ramlld0 bs=1M iflag=direct status=none) /tmp/pat.$$ || fail "/dev/ramlld0 read back differs"
echo "ok: 8 MiB written to /dev/ramlld0 and read back identical"
ramlld_unload
expect_eq "registered after rmmod (mode=bio)" "" "$(registered)"

# one insmod, every front end: the sd disk is there without a second module
need_modules sd_mod
modules_of "$RAMLLD_KO"
insmod "$RAMLLD_KO" mode=all capacity_mb=8 || fail "insmod ramlld.ko mode=all"
[ -b /dev/ramlld0 ] || fail "no /dev/ramlld0 after one insmod mode=all"
[ -b /dev/ramlldmq0 ] || fail "no /dev/ramlldmq0 after one insmod mode=all"
expect_eq "SCSI hosts of ramlld with mode=all" 1 "$(ramlld_hosts | wc -l)"
sd=$(ramlld_sd_disks)
expect_eq "RAMLLD sd disks with mode=all" 1 "$(echo "$sd" | wc -w)"
wait_for "/dev/$sd" test -b "/dev/$sd"
expect_eq "modules named ramlld loaded" "ramlld" "$(awk '$1 ~ /^ramlld/ { print $1 }' /proc/modules)"
dd if=/tmp/pat.$$ of=/dev/ramlld0 bs=1M oflag=direct status=none || fail "write /dev/ramlld0"
cmp <(dd if=/dev/ramlldmq0 bs=1M iflag=direct status=none) /tmp/pat.$$ || fail "/dev/ramlldmq0 differs from what /dev/ramlld0 got"
cmp <(dd if="/dev/$sd" bs=1M iflag=direct status=none) /tmp/pat.$$ || fail "/dev/$sd differs from what /dev/ramlld0 got"
echo "ok: 8 MiB written through ramlld0, read back identical through ramlldmq0 and $sd"
rm -f /tmp/pat.$$
rmmod ramlld || fail "rmmod ramlld"
expect_eq "registered after one rmmod (mode=all)" "" "$(registered)"
for d in ramlld0 ramlldmq0 "$sd"; do
	[ ! -e "/dev/$d" ] || fail "/dev/$d still there after rmmod"
done
echo "ok: rmmod ramlld removed ramlld0, ramlldmq0 and $sd"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: in a fresh guest with no SCSI module loaded, ramlld.ko mode=bio loads without the SCSI midlayer (it does not depend on scsi_mod; scsi_mod stays absent), verified I/O on it; mode=scsi says to load ramlld_scsi.ko; ramlld_scsi.ko itself needs scsi_mod
# where: guest
# requires: cmp
# vm: --cpus 2
# timeout: 120
# (the vm: line gives this test a guest of its own: earlier tests load sd_mod and scsi_mod)
. "$TOP/tests/lib.sh"

# scsi_mod_absent: scsi_mod is neither loaded nor built in
scsi_mod_absent() {
	! grep -q '^scsi_mod ' /proc/modules && [ ! -d /sys/module/scsi_mod ]
}

if grep -q '/scsi_mod\.ko' "/lib/modules/$(uname -r)/modules.builtin" 2> /dev/null; then
	skip "scsi_mod is built into kernel $(uname -r): it cannot be absent"
fi
scsi_mod_absent || fail "scsi_mod is loaded before the test: $(grep '^scsi_mod ' /proc/modules)"
echo "ok: no scsi_mod before the load"
deps=$(modinfo -F depends "$RAMLLD_KO")
case ",$deps," in *,scsi_mod,*) fail "ramlld.ko depends on scsi_mod: $deps" ;; esac
echo "ok: ramlld.ko depends on '$deps' only"

ramlld_load mode=bio capacity_mb=8
scsi_mod_absent || fail "loading ramlld.ko mode=bio loaded scsi_mod"
echo "ok: ramlld loaded, scsi_mod still absent"
head -c 8M /dev/urandom > /tmp/pat.$$
dd if=/tmp/pat.$$ of=/dev/ramlld0 bs=1M oflag=direct status=none || fail "write /dev/ramlld0"
cmp <(dd if=/dev/ramlld0 bs=1M iflag=direct status=none) /tmp/pat.$$ || fail "/dev/ramlld0 read back differs"
echo "ok: 8 MiB written to /dev/ramlld0 and read back identical"
rm -f /tmp/pat.$$
# the SCSI front end is the module that needs the midlayer
if insmod "$RAMLLD_SCSI_KO" 2> /tmp/err.$$; then
	fail "ramlld_scsi.ko loaded without scsi_mod"
fi
dmesg | grep -q "ramlld_scsi: Unknown symbol" || fail "insmod ramlld_scsi.ko without scsi_mod: $(cat /tmp/err.$$)"
scsi_mod_absent || fail "scsi_mod appeared"
echo "ok: ramlld_scsi.ko refused without scsi_mod ($(dmesg | grep -m1 -o 'ramlld_scsi: Unknown symbol [a-z_]*'))"
rm -f /tmp/err.$$
ramlld_unload

# mode=scsi without the SCSI front end: the devices come up, the log names the module to load
dmesg -C
ramlld_load mode=scsi capacity_mb=8
dmesg | grep -q "ramlld: device 0: its SCSI host comes when ramlld_scsi.ko is loaded" ||
	fail "mode=scsi without ramlld_scsi.ko: no line naming it: $(dmesg | tail -n 3)"
echo "ok: $(dmesg | grep -o 'ramlld: device 0: its SCSI.*')"
# ramlld_load loaded ramlld_scsi.ko (mode=scsi), scsi_mod with it: the front end is there
[ -d /sys/module/ramlld_scsi ] || fail "ramlld_scsi not loaded by ramlld_load mode=scsi"
[ -n "$(ramlld_sd_disks)" ] || fail "no RAMLLD sd disk once ramlld_scsi.ko loaded"
echo "ok: ramlld_scsi.ko loaded after ramlld gave the device its sd disk"
ramlld_unload

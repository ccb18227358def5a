#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: ramlld.ko loads and unloads cleanly in the guest (default parameters), leaving nothing registered
# where: guest
# timeout: 60
. "$TOP/tests/lib.sh"

kernel_log_mark
# shellcheck disable=SC2119 # default parameters
ramlld_load
[ -d /sys/module/ramlld ] || fail "/sys/module/ramlld missing after insmod"
expect_eq "ramlld module state" live "$(cat /sys/module/ramlld/initstate)"
ramlld_unload
[ ! -d /sys/module/ramlld ] || fail "/sys/module/ramlld still there after rmmod"
echo "ok: /sys/module/ramlld gone"
left=$(ls -d /sys/block/ramlld* 2>/dev/null || true)
[ -z "$left" ] || fail "block devices left after rmmod: $left"
echo "kernel log while loaded:"
kernel_log_since_mark | sed 's/^/  /'

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: tools/vm/run returns the command's exit status (3), streams its output, runs it in the caller's directory, shares a writable folder, passes RAMLLD_* on, works with stdin closed
# where: host
# requires: qemu-system-x86_64
# timeout: 120
. "$TOP/tests/lib.sh"

share=$RESULTS/share
mkdir -p "$share"
rc=0
# shellcheck disable=SC2016 # expanded in the guest
out=$(cd "$TOP/tests" && RAMLLD_HARNESS_PROBE=probe-value "$TOP/tools/vm/run" --share "$share" -- \
	bash -c 'echo "cwd=$PWD"; echo "env=$RAMLLD_HARNESS_PROBE"; echo "uid=$(id -u)"; echo from-guest > "$RAMLLD_VM_SHARE/file"; exit 3' \
	2>"$RESULTS/stderr" <&-) || rc=$?
cat "$RESULTS/stderr"
echo "$out"
expect_eq "exit status" 3 "$rc"
grep -qx "cwd=$TOP/tests" <<<"$out" || fail "the command did not run in $TOP/tests"
echo "ok: ran in $TOP/tests"
grep -qx "env=probe-value" <<<"$out" || fail "RAMLLD_HARNESS_PROBE was not passed on"
echo "ok: RAMLLD_* variables passed on"
grep -qx "uid=0" <<<"$out" || fail "the command did not run as root"
expect_eq "file written by the guest in the shared folder" from-guest "$(cat "$share/file" 2>/dev/null)"
grep -qE 'accel (kvm|tcg)' "$RESULTS/stderr" || fail "tools/vm/run did not say which accelerator it used"
echo "ok: $(grep -oE 'accel (kvm|tcg) \([^)]*\)' "$RESULTS/stderr")"

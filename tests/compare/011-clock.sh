#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: the clock is decided once, from tools/vm/run's KVM probe (--print-accel), not from /dev/kvm: a probe that did not boot gives the exact clock, one that booted gives host time, --clock host stays a choice, and each says why
# where: host
# requires: python3
# timeout: 300
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

run=$TOP/compare/run
vm=$TOP/tools/vm/run
# a TMPDIR of the test's own: tools/vm/run keeps its probe's answer there, so the answer can be
# set without booting
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export TMPDIR=$dir
boot_id=$(cat /proc/sys/kernel/random/boot_id)
version=$("$TOP/tools/vm/kernel" --print-version)
probe=$dir/ramlld-accel.$boot_id.$version
plan_field() { sed -n "s/^$2 //p" <<< "$1" | head -n 1; }

# tools/vm/run --print-accel: one line, the accelerator and why
run_rc 0 "$vm" --print-accel
line=$out
[[ $line =~ ^(kvm|tcg)\ .+$ ]] || fail "tools/vm/run --print-accel: '$line' (expected 'kvm|tcg REASON')"
echo "ok: tools/vm/run --print-accel: $line"
run_rc 0 "$vm" --accel tcg --print-accel
expect_eq "--print-accel with --accel tcg" "tcg asked" "$out"

if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	# /dev/kvm writable, no KVM guest boots (this project's machine, nested virtualisation off)
	echo tcg > "$probe"
	run_rc 0 "$vm" --print-accel
	expect_eq "a probe guest that did not boot" "tcg KVM unusable here: a probe guest did not boot" "$out"
	plan=$("$run" --quick --plan 2> /dev/null) || fail "compare/run --quick --plan failed"
	expect_eq "compare/run --quick's clock where KVM does not boot" \
		"icount (KVM unusable here: a probe guest did not boot)" "$(plan_field "$plan" clock)"
	expect_eq "compare/run --quick's level there" quick-exact "$(plan_field "$plan" name)"
	plan=$(make -s -C "$TOP" compare QUICK=1 ARGS=--plan 2> /dev/null) || fail "make compare QUICK=1 ARGS=--plan failed"
	expect_eq "make compare QUICK=1's clock there" \
		"icount (KVM unusable here: a probe guest did not boot)" "$(plan_field "$plan" clock)"
	"$TOP/tools/knob-table" --clock nosuch > /dev/null 2>&1 && fail "knob-table --clock nosuch accepted"
	# KVM that boots: host time, and why
	echo kvm > "$probe"
	plan=$("$run" --quick --plan 2> /dev/null) || fail "compare/run --quick --plan failed"
	expect_eq "compare/run --quick's clock where KVM boots" \
		"host (KVM boots here: KVM counts no instructions)" "$(plan_field "$plan" clock)"
	expect_eq "compare/run --quick's level under KVM" quick "$(plan_field "$plan" name)"
	plan=$("$run" --quick --clock icount --plan 2> /dev/null) || fail "--quick --clock icount --plan failed"
	expect_eq "--clock icount under KVM, asked" "icount (asked: --clock icount)" "$(plan_field "$plan" clock)"
else
	run_rc 0 "$vm" --print-accel
	expect_eq "no writable /dev/kvm" "tcg KVM unusable here: no writable /dev/kvm" "$out"
	plan=$("$run" --quick --plan 2> /dev/null) || fail "compare/run --quick --plan failed"
	expect_eq "compare/run --quick's clock without /dev/kvm" \
		"icount (KVM unusable here: no writable /dev/kvm)" "$(plan_field "$plan" clock)"
fi
# the host clock by choice, and on --host
plan=$("$run" --quick --clock host --plan 2> /dev/null) || fail "--quick --clock host --plan failed"
case $(plan_field "$plan" clock) in "host (asked: --clock host; the guest gets "*) ;;
*) fail "--clock host: clock '$(plan_field "$plan" clock)'" ;; esac
expect_eq "--clock host's level" quick "$(plan_field "$plan" name)"
: > "$dir/dev.img"
plan=$("$run" --quick --host "$dir/dev.img" --plan 2> /dev/null) || fail "--quick --host FILE --plan failed"
expect_eq "--host's clock" "host (--host: this machine's devices, its own time)" "$(plan_field "$plan" clock)"

# the report names the clock and why (compare/run writes clock_reason into meta.env)
in_compare python3 - "$TOP/compare" << 'EOF' || fail "the report's clock line (compare/lib/results.py clock_text) lacks the reason"
from lib.results import clock_text
t = clock_text({"clock": "icount", "icount_shift": "0", "qemu": "10.0.6", "cpus": "1",
                "clock_reason": "KVM unusable here: a probe guest did not boot"})
assert t.startswith("icount, exact") and t.endswith("TCG; KVM unusable here: a probe guest did not boot)"), t
print("ok: report clock line: " + t)
EOF
# nothing is measured on a clock chosen from /dev/kvm alone
if grep -n -- '-w /dev/kvm' "$run" "$TOP/compare/knob-table.py" "$TOP/tools/stack-ladder"; then
	fail "a clock is still chosen from /dev/kvm"
fi
echo "ok: one clock decision, tools/vm/run's"

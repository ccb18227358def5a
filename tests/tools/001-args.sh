#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: queue-tune and percpu-load --help, and bad options, values and device names fail with exit 2 and a message naming the value and what is allowed (no device is touched); every tool in tools/ refuses a bad argument with exit 2 and one line naming it, creating nothing
# where: host
# requires: python3
# timeout: 300
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/tools/tools-lib.bash
. "$TOP/tests/tools/tools-lib.bash"

for tool in "$QT" "$PL"; do
	run_rc 0 "$tool" --help
	expect_in "${tool##*/} --help" "exit: 0 ok, 2 usage"
	head -n 3 "$tool" | grep -q '^# SPDX-License-Identifier: GPL-2.0$' || fail "${tool##*/}: no SPDX line"
	python3 -c "import ast,sys; ast.parse(open(sys.argv[1]).read())" "$tool" ||
		fail "${tool##*/} does not parse"
	run_rc 2 "$tool" --no-such-option x
	expect_in "${tool##*/} unknown option" "unrecognized arguments"
	run_rc 2 "$tool" no-such-disk-xyz
	expect_in "${tool##*/} nonexistent device" "no-such-disk-xyz"
	run_rc 2 "$tool" /etc/hostname
	expect_in "${tool##*/} a regular file" "'/etc/hostname' is not a block device"
	run_rc 2 "$tool" /dev/null
	expect_in "${tool##*/} a character device" "'/dev/null' is not a block device"
done

run_rc 2 "$QT"
expect_in "queue-tune without a device" "no device given"
run_rc 2 "$QT" no-such-disk-xyz --show
expect_in "queue-tune names the disks there are" "disks here:"
for bad in "--rq-affinity 3" "--add-random 2" "--nomerges 7" "--iostats yes"; do
	# shellcheck disable=SC2086 # an option and its value
	run_rc 2 "$QT" x $bad
	expect_in "queue-tune $bad" "${bad#* }: allowed values: "
done
run_rc 2 "$QT" x --max-sectors-kb -5
expect_in "queue-tune --max-sectors-kb -5" "not a non-negative integer"
run_rc 2 "$QT" x --nr-requests lots
expect_in "queue-tune --nr-requests lots" "'lots': not a non-negative integer"
run_rc 2 "$QT" x --profile no-such-profile
expect_in "queue-tune unknown profile" "allowed: default, seed-001, seed-002"
printf 'rq_affinity=2\nqueue_depth=7\n' > /tmp/qt-profile.$$
run_rc 2 "$QT" x --profile /tmp/qt-profile.$$
expect_in "queue-tune profile with an unknown key" "/tmp/qt-profile.$$:2: unknown key 'queue_depth'; allowed: scheduler"
rm -f /tmp/qt-profile.$$
run_rc 2 "$QT" --restore /nonexistent/file.json
expect_in "queue-tune --restore of a missing file" "cannot read /nonexistent/file.json"

run_rc 2 "$PL" x --engine aio
expect_in "percpu-load --engine aio" "'aio': allowed: dd, fio"
run_rc 2 "$PL" x --rw trim
expect_in "percpu-load --rw trim" "'trim': allowed: read, write, randread"
run_rc 2 "$PL" x --rw randread
expect_in "percpu-load randread with dd" "use --engine fio"
run_rc 2 "$PL" x --cpus 0-1,zz
expect_in "percpu-load --cpus 0-1,zz" "bad item zz"
run_rc 2 "$PL" x --cpus 100000
expect_in "percpu-load --cpus 100000" "CPU 100000 not online"
run_rc 2 "$PL" x --bs 4q
expect_in "percpu-load --bs 4q" "'4q': not a size"
run_rc 2 "$PL" x --procs-per-cpu 0
expect_in "percpu-load --procs-per-cpu 0" "'0': allowed: a positive integer"
run_rc 2 "$PL" x --count 5 --runtime 3
expect_in "percpu-load --count with --runtime" "not allowed with argument"
run_rc 2 "$PL" x --runtime -1
expect_in "percpu-load --runtime -1" "allowed: seconds > 0"
run_rc 2 "$PL" x --startup-run --runtime 1
expect_in "percpu-load --startup-run with --runtime" "only with --engine dd and without --runtime"
run_rc 2 "$PL" x --startup-run --engine fio
expect_in "percpu-load --startup-run with fio" "only with --engine dd and without --runtime"

# the seed profiles shipped as files match the ones built into queue-tune (for a lone copy)
for p in seed-001 seed-002; do
	want=$(grep -v '^#' "$TOP/tools/profiles/$p" | sort)
	got=$(python3 -B -c "
import importlib.machinery, importlib.util, sys
loader = importlib.machinery.SourceFileLoader('qt', sys.argv[1])
spec = importlib.util.spec_from_loader('qt', loader)
m = importlib.util.module_from_spec(spec); loader.exec_module(m)
print(m.BUILTIN_PROFILES[sys.argv[2]], end='')" "$QT" "$p" | sort)
	expect_eq "tools/profiles/$p = built-in $p" "$want" "$got"
done

# Every tool: a bad argument is exit 2 and one line naming it, nothing made.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
one_line_refusal() { # WANT CMD...: exit 2, one line holding WANT
	local want=$1
	shift
	run_rc 2 "$@"
	expect_in "${*#"$TOP"/}" "$want"
	[ "$(wc -l <<< "$out")" = 1 ] || fail "${*#"$TOP"/}: more than one line: $out"
}
for tool in deps lint stack stack-ladder knob-table queue-tune vm/build-in-chroot vm/check-debug \
	vm/check-kernels vm/debug-kernel vm/initramfs vm/kernel vm/qemu vm/run; do
	one_line_refusal "--no-such-option-xyz" "$TOP/tools/$tool" --no-such-option-xyz
done
one_line_refusal "--no-such-option-xyz" "$TOP/tools/percpu-load" x --no-such-option-xyz
one_line_refusal "usage: tools/vm/kernel-smoke KO" "$TOP/tools/vm/kernel-smoke"
one_line_refusal "unknown kernel 'nosuch'" "$TOP/tools/vm/kernel" --print-version nosuch
one_line_refusal "--clock: bad value 'wallclock' (allowed: host icount)" "$TOP/tools/vm/run" --clock wallclock -- true
one_line_refusal "--mem: bad value '3X'" "$TOP/tools/vm/run" --mem 3X --share "$dir/share" -- true
one_line_refusal "--share: '$dir/a b' has characters other than" "$TOP/tools/vm/run" --share "$dir/a b" -- true
one_line_refusal "no command given" "$TOP/tools/vm/run" --share "$dir/share"
one_line_refusal "--report: no knob table in '/nonexistent'" "$TOP/tools/knob-table" --report /nonexistent
one_line_refusal "--workloads: bad value 'nosuch'" "$TOP/tools/knob-table" --workloads nosuch --out "$dir/knobs"
one_line_refusal "--configs: " "$TOP/tools/knob-table" --configs nosuch --out "$dir/knobs"
one_line_refusal "--clock: invalid choice: 'tsc'" "$TOP/tools/knob-table" --clock tsc
one_line_refusal "--report: '$dir' is not the folder of an earlier run" "$TOP/tools/stack-ladder" --report "$dir"
one_line_refusal "--rungs: unknown rung 'nosuch'" "$TOP/tools/stack-ladder" --rungs nosuch --out "$dir/ladder"
one_line_refusal "--runtime: bad value '0' (allowed: a whole number >= 1)" "$TOP/tools/stack-ladder" --runtime 0
expect_eq "what the refused tools left in $dir" "" "$(ls -A "$dir")"
# --help texts speak of what a tool does, not of the project's history
for tool in deps lint stack stack-ladder knob-table queue-tune percpu-load vm/run vm/kernel vm/qemu; do
	if "$TOP/tools/$tool" --help 2>&1 | grep -E "issues? [0-9]|session [0-9]"; then
		fail "tools/$tool --help tells the project's history"
	fi
done
echo "ok: no tool's --help tells the project's history"

# SPDX-License-Identifier: GPL-2.0
# tests/lib.sh: helpers sourced by every test (tests/<group>/<NNN>-<name>.sh); see docs/design.md.
#
# The runner (tests/run) sets TOP (the repository), RAMLLD_KO (drivers/ramlld.ko), RESULTS (a
# writable folder of this test's own), TEST_NAME (group/name), TEST_TIMEOUT (its timeout, s) and
# TEST_DEADLINE (the time, in epoch seconds, at which the runner kills it). A test exits 0 to
# pass, 77 to skip, anything else to fail, and prints what it checked and the values it saw.
# shellcheck shell=bash

set -euo pipefail

: "${TOP:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${RAMLLD_KO:=$TOP/drivers/ramlld.ko}"
: "${RESULTS:=${TMPDIR:-/tmp}}"
: "${TEST_NAME:=$(basename "$0" .sh)}"
: "${TEST_TIMEOUT:=120}"
: "${TEST_DEADLINE:=$((EPOCHSECONDS + TEST_TIMEOUT))}"
export TOP RAMLLD_KO RESULTS TEST_NAME TEST_TIMEOUT TEST_DEADLINE
# the device library (tools/devices/README.md): ramlld's loading, below, wraps it
# shellcheck source=tools/devices/ramlld.sh
. "$TOP/tools/devices/ramlld.sh"

# fail MSG: end the test as failed.
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# skip MSG: end the test as skipped (the machine lacks something), saying why.
skip() {
	echo "SKIP: $*"
	exit 77
}

# expect_eq WHAT EXPECTED ACTUAL: print the value seen; fail when it is not the one expected.
expect_eq() {
	[ $# -eq 3 ] || fail "expect_eq needs WHAT EXPECTED ACTUAL, got $# arguments: $*"
	if [ "$2" != "$3" ]; then
		fail "$1: got '$3', expected '$2'"
	fi
	echo "ok: $1 = $3"
}

# run_rc EXPECTED_RC CMD...: run CMD, keep its output (standard output and error) in $out, fail unless it exits EXPECTED_RC.
run_rc() {
	local want=$1 rc=0
	shift
	out=$("$@" 2>&1) || rc=$?
	if [ "$rc" != "$want" ]; then
		printf '%s\n' "$out" >&2
		fail "exit $rc (expected $want): $*"
	fi
}

# expect_in WHAT NEEDLE: fail unless $out contains NEEDLE.
expect_in() {
	case $out in
	*"$2"*) echo "ok: $1: says '$2'" ;;
	*) printf '%s\n' "$out" >&2; fail "$1: output lacks '$2'" ;;
	esac
}

# need_commands CMD...: skip unless every command exists.
need_commands() {
	local c
	for c in "$@"; do
		command -v "$c" > /dev/null 2>&1 || skip "command $c is missing"
	done
}

# need_module_files MOD...: skip unless the kernel has each module; loads none (for a test whose
# tools load them themselves).
need_module_files() {
	local m
	for m in "$@"; do
		[ -d "/sys/module/${m//-/_}" ] || modinfo "$m" > /dev/null 2>&1 ||
			skip "kernel $(uname -r) has no module $m"
	done
}

# need_blktrace: skip unless the kernel traces block I/O (CONFIG_BLK_DEV_IO_TRACE).
need_blktrace() {
	grep -q ' blk_trace_setup$' /proc/kallsyms ||
		skip "kernel $(uname -r) has no block I/O tracing (CONFIG_BLK_DEV_IO_TRACE)"
}

# need_modules MOD...: load kernel modules (there is no udev to do it); skip when the kernel
# has no such module, fail when it cannot be loaded.
need_modules() {
	local m
	for m in "$@"; do
		[ -d "/sys/module/${m//-/_}" ] && continue
		modinfo "$m" > /dev/null 2>&1 || skip "kernel $(uname -r) has no module $m"
		modprobe "$m" || fail "modprobe $m failed"
	done
}

# On a failed or skipped test, stop the test's own background jobs (a fio still holding a disk),
# then unload ramlld, so that the failure is reported once and the next test starts clean; a test
# that passes must have unloaded it itself (the runner checks).
_ramlld_on_exit() {
	local rc=$? jobs
	if [ "$rc" -ne 0 ] && [ -d /sys/module/ramlld ]; then
		jobs=$(jobs -p)
		if [ -n "$jobs" ]; then
			# shellcheck disable=SC2086 # one PID a word
			kill -KILL $jobs 2> /dev/null || true
			# shellcheck disable=SC2086
			wait $jobs 2> /dev/null || true
		fi
		# configfs devices hold the module: remove them first
		local d
		for d in /sys/kernel/config/ramlld/*/; do
			rmdir "$d" 2> /dev/null || true
		done
		# a disk closed by a process that just ended may still be held for a moment
		DEV_WAIT=5 dev_ramlld_unload 2> /dev/null || true
		[ ! -d /sys/module/ramlld ] || echo "(ramlld still loaded after the failure: rmmod failed)" >&2
	fi
	return "$rc"
}

# modules_of KO: load the modules KO depends on (no udev or depmod in the guest to do it).
modules_of() {
	dev_modprobe_deps "$1" || fail "$DEV_ERR"
}

# ramlld_load ARGS...: ramlld loaded with module parameters ARGS (tools/devices/ramlld.sh: its
# dependencies first).
ramlld_load() {
	trap _ramlld_on_exit EXIT
	if ! DEV_WAIT=$(wait_seconds) dev_ramlld_load "$@"; then
		dmesg | tail -n 5 >&2
		fail "$DEV_ERR"
	fi
	echo "loaded: ramlld $*"
}

# ramlld_unload: ramlld unloaded if loaded (retrying while a disk is still closing).
ramlld_unload() {
	[ -d /sys/module/ramlld ] || return 0
	DEV_WAIT=$(wait_seconds) dev_ramlld_unload || fail "$DEV_ERR"
	echo "unloaded: ramlld"
}

# wait_seconds: how long a wait may last: until the runner's deadline for the test
# (TEST_DEADLINE) less a tenth of its timeout (10 s at least) left for the test to fail and clean
# up; 5 s at least. Never a fixed figure: a TCG guest on a loaded host is many times slower.
wait_seconds() {
	local margin=$((TEST_TIMEOUT / 10)) left
	[ "$margin" -ge 10 ] || margin=10
	left=$((TEST_DEADLINE - EPOCHSECONDS - margin))
	[ "$left" -ge 5 ] || left=5
	echo "$left"
}

# nap: a tenth of a second with a bash built-in (read on a pipe that gets no data): in a TCG
# guest starting sleep costs more than the nap itself.
nap() {
	if [ -z "${_nap_fd:-}" ]; then
		exec {_nap_fd}<> <(:) || _nap_fd=none
	fi
	if [ "$_nap_fd" = none ]; then
		sleep 0.1
	else
		read -r -t 0.1 -u "$_nap_fd" || true
	fi
}

# wait_for WHAT CMD...: run CMD every 0.1 s until it succeeds; fail saying WHAT did not happen
# once wait_seconds have passed. WHAT names the awaited event ("fio to open /dev/ramlldmq0").
# CMD may set wait_seen to what it last saw (printed on failure), or end the test itself (fail)
# when waiting has become pointless.
wait_for() {
	local what=$1 limit end
	shift
	limit=$(wait_seconds)
	end=$((SECONDS + limit))
	wait_seen=
	until "$@"; do
		[ "$SECONDS" -lt "$end" ] ||
			fail "waited $limit s (test timeout $TEST_TIMEOUT s) for $what: it did not happen${wait_seen:+ (last seen: $wait_seen)}"
		nap
	done
}

# peer_signal NAME: in one guest of a pair (tools/vm/pair), tell the other that NAME happened.
peer_signal() {
	: > "$RAMLLD_VM_SHARE/$1"
}

# peer_wait NAME: in one guest of a pair, wait until the other has signalled NAME; fail at once
# when the other guest ended first (tools/vm/pair writes its SIDE.exit).
peer_wait() {
	wait_for "the $RAMLLD_PAIR_PEER's guest to signal $1" _peer_seen "$1"
}

_peer_seen() {
	local rc
	[ -e "$RAMLLD_VM_SHARE/$1" ] && return 0
	[ -e "$RAMLLD_VM_SHARE/$RAMLLD_PAIR_PEER.exit" ] || return 1
	read -r rc < "$RAMLLD_VM_SHARE/$RAMLLD_PAIR_PEER.exit" || rc='?'
	fail "the $RAMLLD_PAIR_PEER's guest ended (exit $rc) without signalling $1: its log is $RAMLLD_VM_SHARE/$RAMLLD_PAIR_PEER.log"
}

# wait_for_path P: wait until path P exists.
wait_for_path() {
	wait_for "$1 to appear" test -e "$1"
}

# ramlld_sd_disks: the sd disks (sda ...) whose SCSI vendor is RAMLLD, one a line, once there is
# one (sd probes asynchronously). Loads sd_mod; prints nothing when ramlld is not loaded.
ramlld_sd_disks() {
	need_modules sd_mod
	[ -d /sys/module/ramlld ] || return 0
	DEV_WAIT=$(wait_seconds) dev_ramlld_sd_disks 1 || fail "$DEV_ERR"
	printf '%s\n' "${RAMLLD_SD_DISKS[@]#/dev/}"
}

# in_compare CMD...: CMD run in compare/ (a python3 reading its script from stdin imports
# compare/'s lib and sections as the reports do), writing no bytecode into the tree.
in_compare() {
	(cd "$TOP/compare" && PYTHONDONTWRITEBYTECODE=1 exec "$@")
}

# kernel_log_mark: write a marker into the kernel log; kernel_log_since_mark prints what the
# kernel logged after the last marker.
kernel_log_mark() {
	KERNEL_LOG_MARK="ramlld-mark: $TEST_NAME $$ $RANDOM$RANDOM"
	echo "$KERNEL_LOG_MARK" > /dev/kmsg
}

kernel_log_since_mark() {
	[ -n "${KERNEL_LOG_MARK:-}" ] || fail "kernel_log_since_mark without kernel_log_mark"
	dmesg | awk -v m="$KERNEL_LOG_MARK" 'found { print } index($0, m) { found = 1 }'
}

# ramlld_load_refused [-F] PATTERN ARGS...: insmod of ramlld.ko with ARGS fails with EINVAL, the
# kernel logs a line matching PATTERN (an extended regex; -F: a fixed string), printed, and
# nothing is left: no module, device node or major. The kernel log mark is left at the insmod.
ramlld_load_refused() {
	local how=-E pat out line
	[ "$1" != -F ] || { how=-F; shift; }
	pat=$1
	shift
	modules_of "$RAMLLD_KO"
	kernel_log_mark
	if out=$(insmod "$RAMLLD_KO" "$@" 2>&1); then
		rmmod ramlld
		fail "insmod $* succeeded"
	fi
	# kmod reports EINVAL from init_module as "Invalid parameters"
	grep -qE "Invalid (argument|parameters)" <<< "$out" || fail "insmod $*: expected EINVAL, got: $out"
	line=$(kernel_log_since_mark | grep "$how" -- "$pat") ||
		fail "insmod $*: no kernel log line '$pat': $(kernel_log_since_mark | tail -n 3)"
	[ ! -e /sys/module/ramlld ] || fail "insmod $*: /sys/module/ramlld left behind"
	! ls /dev/ramlld* > /dev/null 2>&1 || fail "insmod $*: device nodes left behind"
	! grep -q ramlld /proc/devices || fail "insmod $*: major left registered"
	line=${line%%$'\n'*}
	echo "ok: insmod $* refused (EINVAL): ${line#*] }"
}

# kernel_log_reports: the lines of stdin that are kernel reports (oops, BUG, WARNING...).
kernel_log_reports() {
	grep -E -f <(grep -v '^#' "$TOP/tools/vm/report-patterns") || true
}

# need_fault_injection: skip unless the kernel has failslab, fail_page_alloc and fail-nth (the
# debug kernel of tools/vm/debug-kernel has them; Debian's kernels do not).
need_fault_injection() {
	local d=/sys/kernel/debug
	if [ ! -d $d/failslab ] || [ ! -d $d/fail_page_alloc ] || [ ! -e /proc/self/fail-nth ]; then
		skip "kernel $(uname -r) has no fault injection (CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC, CONFIG_FAULT_INJECTION_DEBUG_FS): run it with make check-debug"
	fi
}

# mem_held_kb: kB of RAM the kernel holds outside free memory, the per-CPU free page lists
# (tens of MiB that come and go with no leak: /proc/zoneinfo's "count:"), the page cache (tmpfs
# included), buffers and reclaimable slab, after dropping caches: a page a driver leaks
# (alloc_page never freed) stays in it, while the guest's cache and free-list churn does not.
mem_held_kb() {
	local page_kb=$(($(getconf PAGESIZE) / 1024)) pcp_kb
	sync
	echo 3 > /proc/sys/vm/drop_caches
	sleep 1
	pcp_kb=$(awk -v p="$page_kb" '$1 == "count:" { n += $2 } END { print n * p }' /proc/zoneinfo)
	awk -v pcp="$pcp_kb" '{ v[$1] = $2 } END { print v["MemTotal:"] - v["MemFree:"] - pcp - v["Buffers:"] - v["Cached:"] - v["SReclaimable:"] }' /proc/meminfo
}

# mem_check_given_back BEFORE LIMIT_KB WHAT: fail when mem_held_kb grew by LIMIT_KB or more
# since BEFORE, printing /proc/meminfo to show where it went.
mem_check_given_back() {
	local after
	after=$(mem_held_kb)
	echo "kernel-held memory (mem_held_kb) before $1 kB, after $after kB"
	if [ $((after - $1)) -ge "$2" ]; then
		cat /proc/meminfo >&2
		fail "$3: memory not given back: $((after - $1)) kB more held (limit $2 kB)"
	fi
}

# kmemleak_start: when the kernel has kmemleak, forget what it found so far, so that
# kmemleak_check reports only what leaked after this point: it fails on what earlier tests of this
# guest leaked, unless tools/vm/kmemleak-known knows it as the kernel's own. No-op without kmemleak.
kmemleak_start() {
	local k=/sys/kernel/debug/kmemleak report
	[ -w $k ] || return 0
	echo scan > $k
	report=$(cat $k)
	if [ -n "$report" ] && ! "$TOP/tools/vm/kmemleak-known" --kmsg /dev/kmsg <<< "$report"; then
		echo clear > $k
		fail "kmemleak: objects leaked before this test started (by earlier tests of this guest?)"
	fi
	echo clear > $k
}

# kmemleak_check WHAT: with kmemleak, scan (objects must be 5 s old, and seen unreferenced in
# two scans) and fail printing the report if there is an unreferenced object, unless
# tools/vm/kmemleak-known names each one a known leak of the kernel itself (printed, passes).
kmemleak_check() {
	local k=/sys/kernel/debug/kmemleak report rc=0 verdict
	if [ ! -w $k ]; then
		echo "note: no kmemleak in kernel $(uname -r): $1 not checked for leaks"
		return 0
	fi
	sleep 5
	echo scan > $k
	echo scan > $k
	report=$(cat $k)
	if [ -n "$report" ]; then
		verdict=$("$TOP/tools/vm/kmemleak-known" --kmsg /dev/kmsg <<< "$report") || rc=$?
		echo clear > $k
		if [ "$rc" -ne 0 ]; then
			echo "$verdict" | head -n 120 >&2
			fail "$1: kmemleak reports $(grep -c '^unreferenced object' <<< "$verdict") unreferenced object(s) not known as the kernel's own"
		fi
		echo "$verdict"
		echo "ok: $1: kmemleak finds no unreferenced object but known kernel leaks (above)"
		return 0
	fi
	echo "ok: $1: kmemleak finds no unreferenced object"
}

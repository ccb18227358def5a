#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/run and compare/guest-run refuse bad arguments with a message naming the bad value and the allowed ones
# where: host
# requires: python3
# timeout: 300
. "$TOP/tests/lib.sh"

check_refused() { # WANT CMD...: CMD must exit 2 and print WANT
	local want=$1 msg rc=0
	shift
	msg=$("$@" 2>&1) || rc=$?
	[ "$rc" = 2 ] || fail "$* exited $rc, expected 2"
	grep -qF -- "$want" <<< "$msg" || fail "$*: message lacks '$want': $msg"
	echo "ok: $* -> $msg"
}
check_refused "'nosuch'" "$TOP/compare/run" --targets nosuch
check_refused "allowed: bio mq scsi" "$TOP/compare/run" --bench nvme
check_refused "'seed-999'" "$TOP/compare/run" --only seed-999
check_refused "'bs-3k'" "$TOP/compare/run" --only seed-002/bs-3k
check_refused "'slow'" "$TOP/compare/run" --profiles slow
check_refused "'0'" "$TOP/compare/guest-run" --out /tmp --repeats 0
check_refused "unknown argument '--frobnicate'" "$TOP/compare/run" --frobnicate
check_refused "--perf-cell: bad value 'qd32/randread-4k-qd32' (allowed: WORKLOAD/SECTION of a one-run workload: seed-002)" \
	"$TOP/compare/run" --perf-cell qd32/randread-4k-qd32
check_refused "--perf-cell: bad section 'bs-3k' of seed-002" "$TOP/compare/run" --perf-cell seed-002/bs-3k
check_refused "--perf-passes: bad value '0'" "$TOP/compare/guest-run" --out /tmp --perf-passes 0
check_refused "unknown kernel 'nosuch'" "$TOP/compare/run" --kernels "bookworm nosuch"
check_refused "does not go with --host" "$TOP/compare/run" --kernels sid --host /dev/null
check_refused "--clock: bad value 'tsc' (allowed: icount host)" "$TOP/compare/run" --clock tsc
check_refused "--clock icount needs a guest" "$TOP/compare/run" --clock icount --host /dev/null
check_refused "not a folder of compare/run --kernels" python3 "$TOP/compare/kernels.py" /nonexistent
"$TOP/compare/run" --help | grep -q -- "--quick" || fail "compare/run --help lacks --quick"
"$TOP/compare/guest-run" --list | grep -q "^workload seed-004" || fail "guest-run --list lacks seed-004"
python3 "$TOP/compare/report.py" --help > /dev/null || fail "report.py --help"
python3 "$TOP/compare/kernels.py" --help > /dev/null || fail "kernels.py --help"
echo "ok: arguments checked"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: two guests joined by a link over the host's 127.0.0.1 (tools/vm/pair): ramlld's bio disk exported by tools/stack iscsi-target in one, logged in to by iscsi-initiator in the other; random bytes written through the iSCSI disk read back identical through /dev/ramlld0 on the target and the other way round; each side torn down (logout, LIO configfs, modules) to nothing left
# where: host
# requires: python3 qemu-system-x86_64
# timeout: 1800
. "$TOP/tests/lib.sh"

[ -f "$RAMLLD_KO" ] || fail "$RAMLLD_KO is not built (run make)"
share=$RESULTS/pair
rm -rf "$share"
# One vCPU a side: two TCG guests at once take two host CPUs already. Both guests must be done
# before this test's deadline: each gets what is left of it, and the guests' waits
# (tests/lib.sh) end 30 s before that.
limit=$(wait_seconds)
side_cmd() {
	printf 'TEST_NAME=%q TEST_TIMEOUT=%q TEST_DEADLINE=%q RESULTS=%q bash %q %q' "$TEST_NAME.$1" \
		"$limit" $((EPOCHSECONDS + limit - 30)) "$share/$1" "$TOP/tests/stacks/two-node-iscsi.bash" "$1"
}
rc=0
"$TOP/tools/vm/pair" --share "$share" --run-args "--cpus 1 --timeout $limit" \
	--target "$(side_cmd target)" --initiator "$(side_cmd initiator)" || rc=$?
case $rc in
0) ;;
77) skip "the target's guest skipped: $(grep SKIP "$share/target.log" || true)" ;;
*) fail "tools/vm/pair exited $rc: $(grep -h -E 'FAIL|MISMATCH' "$share/target.log" "$share/initiator.log" || echo 'see the logs above')" ;;
esac
for side in target initiator; do
	grep -q "^ok: the $side side passed" "$share/$side.log" || fail "the $side's log lacks its last line 'ok: the $side side passed'"
	echo "ok: the $side side passed ($(grep -c '^ok:' "$share/$side.log") checks)"
done

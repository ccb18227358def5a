# SPDX-License-Identifier: GPL-2.0
# tests/stacks/two-node-host.bash: the host's half of the two-guest tests (010 on), sourced
# after tests/lib.sh (not a test: no .sh). TWO_NODE_SIDE: the script each guest runs (default
# two-node-sides.bash, beside this file).
# shellcheck shell=bash

# two_node_run STACK TARGET_MODE INITIATOR_MODE [VAR=VALUE...]: boot the pair (tools/vm/pair), one
# vCPU a side (two TCG guests at once take two host CPUs already), each running
# tests/stacks/$TWO_NODE_SIDE STACK in its mode with the VARs set; pass when both sides ended
# with "ok: the MODE side passed", skip when the target's side skipped.
two_node_run() {
	local stack=$1 tmode=$2 imode=$3 share=$RESULTS/pair limit rc=0 side mode
	shift 3
	[ -f "$RAMLLD_KO" ] || fail "$RAMLLD_KO is not built (run make)"
	rm -rf "$share"
	# Both guests must be done before this test's deadline: each gets what is left of it, and the
	# guests' waits (tests/lib.sh) end 30 s before that.
	limit=$(wait_seconds)
	"$TOP/tools/vm/pair" --share "$share" --run-args "--cpus 1 --timeout $limit" \
		--target "$(_two_node_cmd "$tmode" target "$@")" \
		--initiator "$(_two_node_cmd "$imode" initiator "$@")" || rc=$?
	case $rc in
	0) ;;
	77) skip "the target's guest skipped: $(grep SKIP "$share/target.log" || true)" ;;
	*) fail "tools/vm/pair exited $rc: $(grep -h -E 'FAIL|MISMATCH' "$share/target.log" "$share/initiator.log" || echo 'see the logs above')" ;;
	esac
	for side in target initiator; do
		mode=$tmode
		[ "$side" = target ] || mode=$imode
		grep -q "^ok: the $mode side passed" "$share/$side.log" ||
			fail "the $side's log lacks its last line 'ok: the $mode side passed'"
		echo "ok: the $side side passed ($(grep -c '^ok:' "$share/$side.log") checks)"
	done
}

# _two_node_cmd MODE SIDE [VAR=VALUE...]: the command line of one side's guest (two_node_run's stack
# and limit)
_two_node_cmd() {
	local mode=$1 side=$2
	shift 2
	[ $# -eq 0 ] || printf '%q ' "$@"
	printf 'TEST_NAME=%q TEST_TIMEOUT=%q TEST_DEADLINE=%q RESULTS=%q bash %q %q %q' "$TEST_NAME.$side" \
		"$limit" $((EPOCHSECONDS + limit - 30)) "$RESULTS/pair/$side" "$TOP/tests/stacks/${TWO_NODE_SIDE:-two-node-sides.bash}" "$stack" "$mode"
}

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/stacks/two-node-remote.bash iscsi SIDE: one side (target | initiator) of
# tests/stacks/020-two-node-remote.sh, run in its own guest by tools/vm/pair (not a test itself:
# no .sh). Each guest runs sshd on its link address with the test's keys (TWO_NODE_KEYS); the
# target's guest is also the controller: it runs compare/run --target-host (itself, over ssh)
# --initiator-hosts (the other guest) and checks what the run wrote; each side checks that its
# kernel state after every run is what it was before.
set -euo pipefail
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stacks/stacks-lib.bash
. "$TOP/tests/stacks/stacks-lib.bash"

keys=$TWO_NODE_KEYS
mkdir -p "$RESULTS"
sshd_dir=$RESULTS/sshd
ssh_opts=(-i "$keys/id_ed25519" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR)
ssh_cmd="ssh ${ssh_opts[*]}"

# sshd_listening: this guest's sshd listens on port 22 of the link (/proc/net/tcp, in hex)
sshd_listening() {
	grep -q -E '^ *[0-9]+: [0-9A-F]+:0016 [0-9A-F]+:0000 0A ' /proc/net/tcp
}

# start_sshd: sshd on the link address only, the test's host key, the test's key for root
start_sshd() {
	need_commands /usr/sbin/sshd ssh
	mkdir -p "$sshd_dir" /run/sshd
	cat > "$sshd_dir/sshd_config" << EOC
ListenAddress $RAMLLD_LINK_ADDR
HostKey $keys/host_ed25519
AuthorizedKeysFile $keys/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile $sshd_dir/sshd.pid
EOC
	/usr/sbin/sshd -f "$sshd_dir/sshd_config" -E "$sshd_dir/sshd.log" || fail "sshd did not start: $(cat "$sshd_dir/sshd.log")"
	wait_for "sshd to listen on $RAMLLD_LINK_ADDR:22" sshd_listening
	echo "ok: sshd listens on $RAMLLD_LINK_ADDR:22"
}

stop_sshd() {
	local p
	read -r p < "$sshd_dir/sshd.pid"
	kill "$p"
	echo "ok: sshd stopped"
}

target_side() {
	local me=$RAMLLD_LINK_ADDR peer=$RAMLLD_LINK_PEER r=$RESULTS/run
	local common=(--yes --ssh "$ssh_cmd" --no-build --capacity-mb 64)
	start_sshd
	peer_signal target-sshd
	peer_wait initiator-sshd
	run_rc 0 ssh "${ssh_opts[@]}" -o BatchMode=yes "$me" true
	echo "ok: ssh to this guest itself ($me) logs in with the test's key"
	state_snapshot

	# an initiator that does not answer: refused before anything is touched
	run_rc 2 "$TOP/compare/run" --target-host "$me" --initiator-hosts 10.131.0.3 "${common[@]}" --ssh-timeout 5 --out "$RESULTS/unreachable"
	expect_in "an unreachable initiator" "10.131.0.3: cannot reach it over ssh"
	expect_in "an unreachable initiator" "refused, nothing changed on any host"
	[ ! -e "$RESULTS/unreachable" ] || fail "a refused run made its results folder $RESULTS/unreachable"
	state_check "a run refused for an unreachable initiator"

	# the run: writes with a checksum in every block, read back and checked while it runs
	run_rc 0 "$TOP/compare/run" --target-host "$me" --initiator-hosts "$peer" "${common[@]}" \
		--rw randwrite --verify crc32c --iodepth 4 --runtime 4 --ramp 1 --out "$r"
	printf '%s\n' "$out"
	expect_in "the run" "torn down: $peer (initiators), $me (target)"
	python3 - "$r/fio.json" "$peer" << 'EOP' || fail "fio.json: see above"
import json, sys
text = open(sys.argv[1]).read()
d = json.loads(text[text.index("{"):])
st = [s for s in d["client_stats"] if s.get("jobname") != "All clients"]
assert len(st) == 1, f"{len(st)} client_stats entries, expected 1"
s = st[0]
assert s["hostname"] == sys.argv[2], f"hostname {s['hostname']}, expected {sys.argv[2]}"
assert s["error"] == 0, f"error {s['error']}"
w, r = s["write"]["total_ios"], s["read"]["total_ios"]
assert w > 0 and r > 0, f"writes {w}, verify reads {r}"
print(f"ok: fio.json: server {s['hostname']}, error 0, {w} writes, {r} verify reads")
EOP
	out=$(cat "$r/report.md")
	expect_in "report.md" "| $me | target |"
	expect_in "report.md" "| $peer | initiator |"
	expect_in "report.md" "- $me: no PMU here"
	expect_in "report.md" "- $peer: no PMU here"
	expect_in "report.md" "none bad"
	local t_ios i_ios
	t_ios=$(awk -F' *\\| *' -v h="$me" '$2 == h && $3 == "target" && $4 ~ /^[0-9,]+$/ { gsub(",", "", $4); print $4 }' "$r/report.md")
	i_ios=$(awk -F' *\\| *' -v h="$peer" '$2 == h && $3 == "initiator" && $4 ~ /^[0-9,]+$/ { gsub(",", "", $4); print $4 }' "$r/report.md")
	{ [ "${t_ios:-0}" -gt 0 ] && [ "${i_ios:-0}" -gt 0 ]; } || fail "report.md: I/Os in the window: target '$t_ios', initiator '$i_ios' (expected > 0 each)"
	echo "ok: report.md: I/Os in each host's window: target $t_ios, initiator $i_ios"
	for f in facts.txt measure.txt check.txt; do
		{ [ -s "$r/hosts/$me/$f" ] && [ -s "$r/hosts/$peer/$f" ]; } || fail "hosts/HOST/$f missing for a host"
	done
	grep -q "^kernel $(uname -r)$" "$r/hosts/$peer/facts.txt" || fail "the initiator's facts.txt names no kernel"
	echo "ok: both hosts' facts.txt, measure.txt, check.txt written"
	state_check "the run (target)"
	peer_signal run-done
	peer_wait initiator-checked

	# a failure after both set-ups: every host torn down, the target last
	run_rc 1 env RAMLLD_REMOTE_FAIL_AFTER=initiator-up "$TOP/compare/run" --target-host "$me" --initiator-hosts "$peer" \
		"${common[@]}" --out "$RESULTS/failed"
	expect_in "a failed run" "after initiator-up: failure injected"
	expect_in "a failed run" "torn down: $peer (initiators), $me (target)"
	state_check "a run failed after the set-up (target)"

	# a signal while the load runs (Ctrl-C's trap; TERM, as a background job ignores INT): every
	# host torn down at once, not after the job's 120 s
	local pid rc=0
	"$TOP/compare/run" --target-host "$me" --initiator-hosts "$peer" "${common[@]}" --runtime 120 --ramp 0 \
		--out "$RESULTS/signal" > "$RESULTS/signal.out" 2>&1 &
	pid=$!
	wait_for "compare/run's load to start" grep -qs 'fio --client on' "$RESULTS/signal/remote.log"
	kill -TERM "$pid"
	wait "$pid" || rc=$?
	out=$(cat "$RESULTS/signal.out")
	expect_eq "compare/run's exit status after SIGTERM" 130 "$rc"
	expect_in "a signalled run" "interrupted: tearing every host down"
	expect_in "a signalled run" "torn down: $peer (initiators), $me (target)"
	state_check "a run signalled under load (target)"
	peer_signal fail-done
	peer_wait initiator-done
	stop_sshd
}

initiator_side() {
	start_sshd
	state_snapshot
	peer_signal initiator-sshd
	peer_wait run-done
	state_check "the run (initiator)"
	peer_signal initiator-checked
	peer_wait fail-done
	state_check "a failed and a signalled run (initiator)"
	stop_sshd
	peer_signal initiator-done
}

# tests/stacks/two-node-host.bash passes the stack first: iSCSI is the one compare/run
# --target-host sets up
[ "${1:-}" = iscsi ] || fail "usage: $0 iscsi target|initiator (got '$*')"
case ${2:-} in
target) target_side ;;
initiator) initiator_side ;;
*) fail "usage: $0 iscsi target|initiator (got '$*')" ;;
esac
echo "ok: the $2 side passed"

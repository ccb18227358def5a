#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: compare/run --target-host --initiator-hosts refuses bad arguments (exit 2, one line naming the bad value and the allowed ones) before any ssh, prints what it would do without --yes (exit 2, no ssh), and refuses a host that ssh cannot reach or whose check refuses (exit 2, every problem listed, no results folder, no set-up attempted), through a fake ssh that records its calls
# where: host
# requires: python3 fio
# timeout: 120
. "$TOP/tests/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run=$TOP/compare/two-host
# compare/run hands --target-host to compare/two-host, saying so in one line
msg=$("$TOP/compare/run" --target-host x --help 2>&1 | head -n 2) || true
grep -q '^compare/run: --target-host is the two-host run.s: running compare/two-host' <<< "$msg" ||
	fail "compare/run --target-host does not hand over to compare/two-host: $msg"
grep -q "^usage: compare/two-host --target-host" <<< "$msg" || fail "compare/two-host --help: $msg"
calls=$dir/ssh.calls
# the fake ssh: records each call; FAKE_SSH says how it answers (unreachable: ssh's own failure,
# 255; refuse: remote-side check's refusal, 1; ok: the check passes)
cat > "$dir/fake-ssh" << 'EOF2'
#!/bin/bash
echo "$*" >> "$FAKE_SSH_CALLS"
for a in "$@"; do host=$a; [[ $a == *remote-side* ]] && break; prev=$host; done
case $FAKE_SSH in
unreachable) echo "ssh: connect to host ${prev:-?} port 22: No route to host" >&2; exit 255 ;;
refuse) echo "kernel 6.1.0-test"; echo "fio $(fio --version)"; echo "refuse: module ramlld is loaded (the run loads it: unload it first)"; exit 1 ;;
*) echo "kernel 6.1.0-test"; echo "fio fio-0.0"; exit 0 ;;
esac
EOF2
chmod +x "$dir/fake-ssh"
export FAKE_SSH_CALLS=$calls
results_list() { find "$TOP/results" -mindepth 1 -maxdepth 1 ! -name check -printf '%f\n' 2> /dev/null | sort; }
results_before=$(results_list)

check_refused() { # WANT ARG...: compare/run ARG... exits 2 with one line holding WANT, no ssh
	local want=$1 msg rc=0
	shift
	: > "$calls"
	msg=$("$run" --ssh "$dir/fake-ssh" "$@" 2>&1) || rc=$?
	[ "$rc" = 2 ] || fail "compare/run $* exited $rc, expected 2: $msg"
	grep -qF -- "$want" <<< "$msg" || fail "compare/run $*: message lacks '$want': $msg"
	[ "$(wc -l <<< "$msg")" = 1 ] || fail "compare/run $*: more than one line: $msg"
	[ ! -s "$calls" ] || fail "compare/run $*: ssh was called: $(cat "$calls")"
	echo "ok: $* -> $msg"
}
check_refused "--initiator-hosts H1[,H2...] is missing" --target-host 10.0.0.1
check_refused "--target-host H is missing" --initiator-hosts 10.0.0.2
check_refused "--initiator-hosts: 'root@10.0.0.1' is the target host" --target-host 10.0.0.1 --initiator-hosts 10.0.0.2,root@10.0.0.1
check_refused "--initiator-hosts: '10.0.0.2' twice in '10.0.0.2,10.0.0.2'" --target-host 10.0.0.1 --initiator-hosts 10.0.0.2,10.0.0.2
check_refused "--initiator-hosts: bad host 'a b'" --target-host 10.0.0.1 --initiator-hosts "a b"
check_refused "--target-host 'tgt' is not an IPv4 address: give --portal ADDR" --target-host tgt --initiator-hosts ini
check_refused "--portal: bad value '10.0.0.300' (allowed: an IPv4 address" --target-host tgt --initiator-hosts ini --portal 10.0.0.300
check_refused "--rw: bad value 'scramble' (allowed: read write randread randwrite rw randrw)" --target-host 10.0.0.1 --initiator-hosts 10.0.0.2 --rw scramble
check_refused "--verify crc32c needs a --rw that writes" --target-host 10.0.0.1 --initiator-hosts 10.0.0.2 --verify crc32c
check_refused "--verify: bad value 'md5x' (allowed: crc32c none)" --target-host 10.0.0.1 --initiator-hosts 10.0.0.2 --rw write --verify md5x
check_refused "--runtime: bad value '1' (allowed: whole seconds >= 2" --target-host 10.0.0.1 --initiator-hosts 10.0.0.2 --runtime 1
check_refused "--fio-port: bad value '70000' (allowed: 1 to 65535)" --target-host 10.0.0.1 --initiator-hosts 10.0.0.2 --fio-port 70000
check_refused "--iodepth: bad value '0' (allowed: a whole number >= 1)" --target-host 10.0.0.1 --initiator-hosts 10.0.0.2 --iodepth 0
check_refused "--remote-top: bad value 'work' (allowed: an absolute path)" --target-host 10.0.0.1 --initiator-hosts 10.0.0.2 --remote-top work
check_refused "'--quick' does not go with --target-host" --target-host 10.0.0.1 --initiator-hosts 10.0.0.2 --quick
: > "$calls"
run_rc 2 env RAMLLD_REMOTE_FAIL_AFTER=x "$run" --ssh "$dir/fake-ssh" --target-host 10.0.0.1 --initiator-hosts 10.0.0.2 --yes
expect_in "a bad RAMLLD_REMOTE_FAIL_AFTER" "RAMLLD_REMOTE_FAIL_AFTER: bad value 'x' (allowed: target-up initiator-up fio)"
run_rc 2 "$run" --ssh "nosuch-ssh -p 22" --target-host 10.0.0.1 --initiator-hosts 10.0.0.2 --yes
expect_in "a missing ssh" "--ssh: no command 'nosuch-ssh' here"

# without --yes: what it would do on each host, no ssh
: > "$calls"
run_rc 2 "$run" --ssh "$dir/fake-ssh" --target-host 10.0.0.1 --initiator-hosts 10.0.0.2,10.0.0.3 --no-build
expect_in "without --yes" "10.0.0.1 (target): insmod drivers/ramlld.ko mode=bio capacity_mb=1024; tools/stack up iscsi-target /dev/ramlld0 --portal 10.0.0.1"
expect_in "without --yes" "10.0.0.3 (initiator): tools/stack up iscsi-initiator 10.0.0.1; fio --server=ip:10.0.0.3,8765"
expect_in "without --yes" "nothing done: run again with --yes"
[ ! -s "$calls" ] || fail "without --yes, ssh was called: $(cat "$calls")"

# hosts ssh cannot reach, or whose check refuses: every problem listed, only checks run
for mode in unreachable refuse; do
	: > "$calls"
	run_rc 2 env FAKE_SSH=$mode "$run" --ssh "$dir/fake-ssh" --target-host 10.0.0.1 --initiator-hosts 10.0.0.2 --yes --out "$dir/o"
	expect_in "$mode" "refused, nothing changed on any host:"
	if [ "$mode" = unreachable ]; then
		expect_in "$mode" "10.0.0.1: cannot reach it over ssh ($dir/fake-ssh -o BatchMode=yes): ssh: connect to host 10.0.0.1 port 22: No route to host"
		expect_in "$mode" "10.0.0.2: cannot reach it over ssh"
	else
		expect_in "$mode" "10.0.0.1: module ramlld is loaded (the run loads it: unload it first)"
	fi
	expect_eq "$mode: ssh calls (one check a host)" 2 "$(wc -l < "$calls")"
	grep -q 'BatchMode=yes' "$calls" || fail "$mode: ssh ran without -o BatchMode=yes: $(cat "$calls")"
	n=$(grep -c 'remote-side check' "$calls")
	expect_eq "$mode: every ssh call a check" 2 "$n"
	[ ! -e "$dir/o" ] || fail "$mode: a refused run made its results folder"
done
# fio's client and server must be one version
: > "$calls"
run_rc 2 env FAKE_SSH=ok "$run" --ssh "$dir/fake-ssh" --target-host 10.0.0.1 --initiator-hosts 10.0.0.2 --yes --out "$dir/o"
expect_in "another fio" "10.0.0.2: fio is fio-0.0, here $(fio --version) (fio's client and server must be the same version)"
[ ! -e "$dir/o" ] || fail "a refused run made its results folder"
expect_eq "results/ after the refused runs" "$results_before" "$(results_list)"
echo "ok: two-host arguments checked"

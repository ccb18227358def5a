# SPDX-License-Identifier: GPL-2.0
# tools/vm/accel.bash: which QEMU runs the guest and how (KVM or TCG, the clock), for tools/vm/run.
# shellcheck shell=bash disable=SC2154,SC2034 # the variables are tools/vm/run's

# pick_qemu: qemu_cmd and qemu_version, this machine's QEMU or Debian 13's from the cache (run
# through its own loader).
pick_qemu() {
	if [ "$qemu_choice" = auto ]; then
		qemu_choice=system
		if [ "$clock" = icount ]; then
			if "$here/qemu" --print-dir > /dev/null; then
				qemu_choice=trixie
			elif [ "$cpus" -gt 1 ]; then
				echo "$prog: --clock icount with $cpus vCPUs needs QEMU 10: fetching it (tools/vm/qemu fetch)" >&2
				qemu_choice=trixie
			fi
		fi
	fi
	if [ "$qemu_choice" = trixie ]; then
		"$here/qemu" fetch > /dev/null ||
			die "cannot fetch Debian 13's QEMU 10 (tools/vm/qemu fetch; allowed without it: --qemu system, and on --clock icount only --cpus 1)"
		mapfile -t qemu_cmd < <("$here/qemu" --print-cmd)
		qemu_version=$("$here/qemu" --print-version) || die "Debian 13's QEMU does not run: tools/vm/qemu --help"
	else
		command -v qemu-system-x86_64 > /dev/null || die "qemu-system-x86_64 is missing: run tools/deps"
		qemu_cmd=(qemu-system-x86_64)
		qemu_version=$(qemu-system-x86_64 --version | sed -n 's/^QEMU emulator version \([0-9][0-9.]*\).*/\1/p')
	fi
	# QEMU 7.2 stops at "x86: Booting SMP configuration" under -icount (docs/clock.md); 10.0 boots.
	if [ "$clock" = icount ] && [ "$cpus" -gt 1 ] && [ "${qemu_version%%.*}" -lt 8 ] 2> /dev/null; then
		die "--clock icount with --cpus $cpus: QEMU $qemu_version hangs booting SMP under -icount (allowed: --cpus 1, or QEMU 10 with --qemu trixie: tools/vm/qemu fetch)"
	fi
}

# KVM counts only if a guest really boots with it (on many cloud machines /dev/kvm is there and
# writable, but nested virtualisation is off). The answer is kept for this boot of the host;
# kvm_why says why KVM is not used.
probe_kvm() {
	kvm_why="KVM unusable here: no writable /dev/kvm"
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
	local boot_id f out
	boot_id=$(cat /proc/sys/kernel/random/boot_id 2> /dev/null || echo unknown)
	f=${TMPDIR:-/tmp}/ramlld-accel.$boot_id.$version
	kvm_why="KVM unusable here: a probe guest did not boot"
	if [ -f "$f" ]; then
		[ "$(cat "$f")" = kvm ]
		return
	fi
	out=$ctl/probe.out
	# in a subshell: a QEMU that aborts is the answer, not a message of this shell's
	(timeout -k 2 15 "${qemu_base[@]}" -accel kvm -cpu host -smp 1 -m 256M \
		-append "console=ttyS0 quiet panic=-1 rdinit=/init ramlld.probe=1" \
		-serial "file:$out" < /dev/null > /dev/null 2>&1 || true) 2> /dev/null
	if grep -q RAMLLD-PROBE-OK "$out" 2> /dev/null; then
		echo kvm > "$f"
		return 0
	fi
	echo tcg > "$f"
	return 1
}

# pick_accel: accel (and why) from --accel, --clock and --plugin, and accel_opts, QEMU's options
# for it.
pick_accel() {
	case $accel in
	auto)
		if [ "$clock" = icount ]; then
			accel=tcg
			why="--clock icount"
		elif [ -n "$plugin" ]; then
			accel=tcg
			why="--plugin"
		elif probe_kvm; then
			accel=kvm
			why="KVM boots here"
		else
			accel=tcg
			why=$kvm_why
		fi
		;;
	kvm) why="asked" ;;
	tcg) why="asked" ;;
	esac
	if [ "$accel" = kvm ]; then
		accel_opts=(-accel kvm -cpu host)
	elif [ "$clock" = icount ]; then
		# One host thread runs the vCPUs in turn (MTTCG cannot count instructions); sleep=off: an
		# idle guest's clock jumps to its next timer instead of waiting for the host's time.
		# The CPU is pinned to Debian 12 QEMU 7.2's "max" (QEMU 10's differs: family 6, so no
		# rep_good, and fsrm), so that the kernel picks the same copy routines, and a figure the
		# same instruction count, on either QEMU (docs/clock.md).
		accel_opts=(-accel "tcg,thread=single" -icount "shift=$icount_shift,align=off,sleep=$icount_sleep"
			-cpu "max,family=15,model=107,stepping=1,-fsrm,-rdpid,-rdseed,-sha-ni,-wbnoinvd,-x2apic,-xsaveerptr")
	else
		accel_opts=(-accel "tcg,thread=multi" -cpu max)
	fi
}

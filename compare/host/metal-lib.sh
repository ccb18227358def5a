# SPDX-License-Identifier: GPL-2.0
# compare/host/metal-lib.sh: what a run on real hardware records about its host, shared by
# compare/bare-metal (one host) and compare/host/remote-side (each host of a two-host run):
# the facts of the host's clock (facts) and whether perf can count the PMU's events here
# (pmu_check). Sourced (not run).
# shellcheck shell=bash disable=SC2034 # pmu, pmu_why, pmu_probe: the sourcing script reads them

PMU_EVENTS=instructions:u,instructions:k,cycles:u,cycles:k

rd() { # FILE [DEFAULT]: its first line, or DEFAULT (-) (a builtin read: facts reads hundreds)
	local v
	if [ -r "$1" ] && read -r v < "$1"; then echo "$v"; else echo "${2:--}"; fi
}
facts() { # WHEN
	local c n i a f ncol g
	local -A gov=()
	echo "# $1 ($(date -u +%FT%TZ))"
	echo "kernel $(uname -r)"
	echo "cmdline $(rd /proc/cmdline)"
	echo "cpu_model $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	echo "cpus_online $(rd /sys/devices/system/cpu/online)"
	echo "cpufreq_driver $(rd /sys/devices/system/cpu/cpu0/cpufreq/scaling_driver none)"
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		f=$c/cpufreq
		[ -r "$f/scaling_governor" ] || continue
		g=$(rd "$f/scaling_governor")
		gov[$g]=$((${gov[$g]:-0} + 1))
		echo "cpufreq ${c##*/} governor=$g cur_khz=$(rd "$f/scaling_cur_freq") min_khz=$(rd "$f/scaling_min_freq") max_khz=$(rd "$f/scaling_max_freq") epp=$(rd "$f/energy_performance_preference")"
	done
	a=''
	for g in "${!gov[@]}"; do a+="${a:+, }$g x${gov[$g]}"; done
	echo "governors ${a:-none (no cpufreq)}"
	echo "intel_pstate_no_turbo $(rd /sys/devices/system/cpu/intel_pstate/no_turbo)"
	echo "intel_pstate_status $(rd /sys/devices/system/cpu/intel_pstate/status)"
	echo "amd_pstate_status $(rd /sys/devices/system/cpu/amd_pstate/status)"
	echo "cpufreq_boost $(rd /sys/devices/system/cpu/cpufreq/boost)"
	echo "smt_control $(rd /sys/devices/system/cpu/smt/control)"
	echo "smt_active $(rd /sys/devices/system/cpu/smt/active)"
	echo "thread_siblings_cpu0 $(rd /sys/devices/system/cpu/cpu0/topology/thread_siblings_list)"
	echo "cpuidle_driver $(rd /sys/devices/system/cpu/cpuidle/current_driver none)"
	echo "cpuidle_governor $(rd /sys/devices/system/cpu/cpuidle/current_governor "$(rd /sys/devices/system/cpu/cpuidle/current_governor_ro)")"
	for i in /sys/devices/system/cpu/cpu0/cpuidle/state*; do
		[ -d "$i" ] || continue
		echo "cpuidle cpu0 ${i##*/} name=$(rd "$i/name") latency_us=$(rd "$i/latency") residency_us=$(rd "$i/residency") disable=$(rd "$i/disable") usage=$(rd "$i/usage")"
	done
	[ -d /sys/devices/system/cpu/cpu0/cpuidle/state0 ] || echo "cpuidle cpu0 none (no idle states: the idle loop halts)"
	echo "nmi_watchdog $(rd /proc/sys/kernel/nmi_watchdog)"
	echo "perf_event_paranoid $(rd /proc/sys/kernel/perf_event_paranoid)"
	if pidof irqbalance > /dev/null; then
		echo "irqbalance running (it may move the vectors during the run)"
	else
		echo "irqbalance not running"
	fi
	# each interrupt vector: its number, its CPUs, what it serves (/proc/interrupts' columns
	# after the per-CPU counts: chip, hardware IRQ, trigger, the handlers' names)
	{
		read -r -a f
		ncol=${#f[@]}
		while read -r n a; do
			n=${n%:}
			[[ $n =~ ^[0-9]+$ ]] || continue
			read -r -a f <<< "$a"
			i=/proc/irq/$n
			echo "irq $n affinity=$(rd "$i/smp_affinity_list") effective=$(rd "$i/effective_affinity_list") name=${f[*]:ncol}"
		done
	} < /proc/interrupts
}

# pmu_check: the PMU answers perf stat for PMU_EVENTS (pmu=yes) or not (pmu=no, pmu_why says
# what perf said: "<not supported>" in a TCG guest or a VM without a vPMU); pmu_probe keeps
# perf's whole answer
pmu_check() {
	pmu_probe=$(perf stat -a -x, -e "$PMU_EVENTS" -- true 2>&1 || true)
	pmu_why=''
	if grep -q '^[0-9]' <<< "$pmu_probe" && ! grep -q '<not' <<< "$pmu_probe"; then
		pmu=yes
	else
		pmu=no
		pmu_why=$(grep -o '<not [a-z]*>' <<< "$pmu_probe" | head -n 1 || true)
		[ -n "$pmu_why" ] || pmu_why=$(head -n 1 <<< "$pmu_probe")
		pmu_why=${pmu_why:-nothing}
	fi
}

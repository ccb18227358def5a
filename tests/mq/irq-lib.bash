# SPDX-License-Identifier: GPL-2.0
# tests/mq/irq-lib.bash: helpers of the interrupt-model tests (irq_cpus=, rq_affinity), sourced
# after tests/lib.sh by tests/mq/006 and tests/scsi/013 (not a test: no .sh).
# shellcheck shell=bash

IRQ_COUNTERS=/sys/kernel/debug/ramlld/completions
IRQ_READS=200

# irq_counter SNAPSHOT COLUMN CPU: one counter of a snapshot of $IRQ_COUNTERS.
irq_counter() {
	awk -v col="$2" -v cpu="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
		$1 == cpu { print $c; found = 1 }
		END { if (!c || !found) exit 1 }' <<< "$1" || fail "no counter $2 of CPU $3 in $IRQ_COUNTERS"
}

# llc_shared A B: whether CPUs A and B share their last-level cache (sysfs cacheinfo), which is
# what rq_affinity=1 asks (cpus_share_cache()).
llc_shared() {
	local d last='' list
	for d in /sys/devices/system/cpu/cpu"$1"/cache/index*; do
		[ -r "$d/level" ] || continue
		if [ -z "$last" ] || [ "$(cat "$d/level")" -ge "$(cat "$last/level")" ]; then
			last=$d
		fi
	done
	[ -n "$last" ] || return 1
	list=$(cat "$last/shared_cpu_list")
	python3 -c 'import sys
cpus = set()
for r in sys.argv[1].split(","):
    a, _, b = r.partition("-")
    cpus.update(range(int(a), int(b or a) + 1))
sys.exit(0 if int(sys.argv[2]) in cpus else 1)' "$list" "$2"
}

# irq_expect DEV FE RQ_AFFINITY IRQ_CPU DONE_CPU: set DEV's rq_affinity, read it back, let a
# reader pinned to CPU 1 do $IRQ_READS direct 4 KiB reads, and check from the counters that
# every "interrupt" of front end FE (mq or scsi) ran on IRQ_CPU and every completion on
# DONE_CPU, none on the other CPU.
irq_expect() {
	local dev=$1 fe=$2 aff=$3 want_irq=$4 want_done=$5 q before after cpu n want
	q=/sys/block/${dev##*/}/queue
	echo "$aff" > "$q/rq_affinity"
	expect_eq "$dev rq_affinity" "$aff" "$(cat "$q/rq_affinity")"
	before=$(cat "$IRQ_COUNTERS")
	taskset -c 1 dd if="$dev" of=/dev/null bs=4k count="$IRQ_READS" iflag=direct status=none ||
		fail "dd from $dev failed"
	after=$(cat "$IRQ_COUNTERS")
	for cpu in 0 1; do
		n=$(($(irq_counter "$after" "irq_$fe" "$cpu") - $(irq_counter "$before" "irq_$fe" "$cpu")))
		want=0
		[ "$cpu" != "$want_irq" ] || want=$IRQ_READS
		expect_eq "rq_affinity=$aff: $fe interrupts on CPU $cpu" "$want" "$n"
		n=$(($(irq_counter "$after" "done_$fe" "$cpu") - $(irq_counter "$before" "done_$fe" "$cpu")))
		want=0
		[ "$cpu" != "$want_done" ] || want=$IRQ_READS
		expect_eq "rq_affinity=$aff: $fe completions on CPU $cpu" "$want" "$n"
	done
}

# irq_expect_all DEV FE: the interrupt on CPU 0, the reader on CPU 1: rq_affinity=0 completes
# where the interrupt ran, 2 on the submitting CPU, 1 on the submitting CPU unless it shares
# the interrupt CPU's cache (then where the interrupt ran).
irq_expect_all() {
	local dev=$1 fe=$2 shared=1
	[ "$(nproc)" -ge 2 ] || fail "the guest has $(nproc) CPU(s); the test needs 2 (its vm: line)"
	[ -r "$IRQ_COUNTERS" ] || fail "$IRQ_COUNTERS is missing (irqmode=1 loads it)"
	irq_expect "$dev" "$fe" 0 0 0
	irq_expect "$dev" "$fe" 2 0 1
	llc_shared 0 1 || shared=0
	echo "CPUs 0 and 1 share the last-level cache: $shared"
	if [ "$shared" = 1 ]; then
		irq_expect "$dev" "$fe" 1 0 0
	else
		irq_expect "$dev" "$fe" 1 0 1
	fi
}

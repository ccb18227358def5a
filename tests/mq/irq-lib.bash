# SPDX-License-Identifier: GPL-2.0
# tests/mq/irq-lib.bash: helpers of the interrupt-model tests (irq_cpus=, rq_affinity), sourced
# after tests/lib.sh by tests/mq/006 and tests/scsi/013 (not a test: no .sh).
# shellcheck shell=bash

IRQ_COUNTERS=/sys/kernel/debug/ramlld/completions
IRQ_READS=200
# where a request ended: the block layer's block_rq_complete events of one disk, counted per
# CPU in a trace instance of its own (ramlld counts only its own steps: for SCSI the midlayer
# ends a request without calling the LLD)
IRQ_TRACE_TOP=/sys/kernel/tracing
IRQ_TRACE=$IRQ_TRACE_TOP/instances/ramlld-irq

# irq_trace_start DEV: from now on count DEV's block_rq_complete events per CPU.
irq_trace_start() {
	local devt ev rc made=''
	devt=$(cat "/sys/block/${1##*/}/dev") || fail "no dev number for $1"
	# an instance copies record-cmd at creation: off, enabling the event registers no probe on
	# the scheduler's tracepoints (patching __schedule's code while the other CPU runs it
	# hung a TCG guest); the top level's value is put back at once
	if [ ! -d "$IRQ_TRACE" ]; then
		rc=$(cat "$IRQ_TRACE_TOP/options/record-cmd")
		echo 0 > "$IRQ_TRACE_TOP/options/record-cmd"
		mkdir "$IRQ_TRACE" 2> /dev/null || made=no
		echo "$rc" > "$IRQ_TRACE_TOP/options/record-cmd"
		[ -z "$made" ] || fail "cannot make the trace instance $IRQ_TRACE (no tracefs instances?)"
	fi
	ev=$IRQ_TRACE/events/block/block_rq_complete
	[ -d "$ev" ] || fail "no block_rq_complete event in $IRQ_TRACE"
	# the event's dev is the kernel's dev_t: major << 20 | minor
	echo "dev == $(((${devt%%:*} << 20) | ${devt##*:}))" > "$ev/filter"
	: > "$IRQ_TRACE/trace"
	echo 1 > "$ev/enable"
}

# irq_trace_count CPU: the events counted on CPU so far (in the buffer or overwritten).
irq_trace_count() {
	awk '/^entries:/ { e = $2 } /^overrun:/ { o = $2 } END { print e + o }' \
		"$IRQ_TRACE/per_cpu/cpu$1/stats"
}

irq_trace_stop() {
	[ -d "$IRQ_TRACE" ] || return 0
	echo 0 > "$IRQ_TRACE/events/block/block_rq_complete/enable"
	rmdir "$IRQ_TRACE"
}

# the exit trap while an instance counts: remove it, then tests/lib.sh's with the test's status
_irq_on_exit() {
	local rc=$?
	irq_trace_stop 2> /dev/null || true
	(exit "$rc") || _ramlld_on_exit
}

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
# reader pinned to CPU 1 do $IRQ_READS direct 4 KiB reads, and check that every "interrupt" of
# front end FE (mq or scsi) ran on IRQ_CPU (ramlld's counters) and every request ended on
# DONE_CPU (the block layer's tracepoint; for mq also ramlld's done_mq), none on the other CPU.
irq_expect() {
	local dev=$1 fe=$2 aff=$3 want_irq=$4 want_done=$5 q before after cpu n want
	q=/sys/block/${dev##*/}/queue
	echo "$aff" > "$q/rq_affinity"
	expect_eq "$dev rq_affinity" "$aff" "$(cat "$q/rq_affinity")"
	irq_trace_start "$dev"
	trap _irq_on_exit EXIT
	before=$(cat "$IRQ_COUNTERS")
	taskset -c 1 dd if="$dev" of=/dev/null bs=4k count="$IRQ_READS" iflag=direct status=none ||
		fail "dd from $dev failed"
	after=$(cat "$IRQ_COUNTERS")
	for cpu in 0 1; do
		n=$(($(irq_counter "$after" "irq_$fe" "$cpu") - $(irq_counter "$before" "irq_$fe" "$cpu")))
		want=0
		[ "$cpu" != "$want_irq" ] || want=$IRQ_READS
		expect_eq "rq_affinity=$aff: $fe interrupts on CPU $cpu" "$want" "$n"
		want=0
		[ "$cpu" != "$want_done" ] || want=$IRQ_READS
		expect_eq "rq_affinity=$aff: $fe requests ended on CPU $cpu (block_rq_complete)" "$want" \
			"$(irq_trace_count "$cpu")"
		[ "$fe" = mq ] || continue
		n=$(($(irq_counter "$after" done_mq "$cpu") - $(irq_counter "$before" done_mq "$cpu")))
		expect_eq "rq_affinity=$aff: mq ->complete on CPU $cpu (done_mq)" "$want" "$n"
	done
	irq_trace_stop
	trap _ramlld_on_exit EXIT
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

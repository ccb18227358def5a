#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: irq_cpus=0 raises mq completions on CPU 0; rq_affinity 0/1/2 move them (counters); bad values refused
# where: guest
# requires: taskset dd python3
# vm: --topology sockets=2,cores=1 --append no_timer_check
# timeout: 600
. "$TOP/tests/lib.sh"
. "$TOP/tests/mq/irq-lib.bash"

p=/sys/module/ramlld/parameters
# insmod (not ramlld_load: these loads must fail) needs ramlld's dependencies present
for d in $(modinfo -F depends "$RAMLLD_KO" | tr , ' '); do modprobe "$d"; done

# irq_cpus needs an interrupt to move: refused with irqmode=0, naming what is allowed
kernel_log_mark
if insmod "$RAMLLD_KO" mode=mq irq_cpus=0 2> /dev/null; then
	rmmod ramlld
	fail "irq_cpus=0 with irqmode=0 was accepted"
fi
kernel_log_since_mark | grep -q "irq_cpus=0 is invalid: allowed only an empty string with irqmode=0.*a CPU list with irqmode=1 or 2" ||
	fail "no message naming irq_cpus and what is allowed"
echo "ok: irq_cpus=0 with irqmode=0 refused"
for bad in 7 x 0-9 ","; do
	kernel_log_mark
	if insmod "$RAMLLD_KO" mode=mq irqmode=1 "irq_cpus=$bad" 2> /dev/null; then
		rmmod ramlld
		fail "irq_cpus=$bad was accepted"
	fi
	kernel_log_since_mark | grep -q "irq_cpus=.* is invalid: allowed a list of online CPUs (0-1)" ||
		fail "irq_cpus=$bad: no message naming the allowed CPUs"
	echo "ok: irq_cpus=$bad refused at load"
done

# one vector on CPU 0: one hardware queue, as a single-vector HBA
ramlld_load mode=mq capacity_mb=8 irqmode=1 irq_cpus=0
expect_eq "irq_cpus" 0 "$(cat $p/irq_cpus)"
expect_eq "hardware queues" 1 "$(find /sys/block/ramlldmq0/mq -mindepth 1 -maxdepth 1 | wc -l)"
irq_expect_all /dev/ramlldmq0 mq

# writable at run time; a bad value changes nothing
if echo 5 > $p/irq_cpus 2> /dev/null; then
	fail "irq_cpus=5 was accepted on a 2-CPU guest"
fi
expect_eq "irq_cpus after a refused write" 0 "$(cat $p/irq_cpus)"
echo 1 > $p/irq_cpus
expect_eq "irq_cpus" 1 "$(cat $p/irq_cpus)"
echo 0 > /sys/block/ramlldmq0/queue/rq_affinity
irq_expect /dev/ramlldmq0 mq 0 1 1
# empty: signalled on the submitting CPU
echo > $p/irq_cpus
expect_eq "irq_cpus" "" "$(cat $p/irq_cpus)"
irq_expect /dev/ramlldmq0 mq 0 1 1
ramlld_unload

# irqmode=2: the timer fires on the submitting CPU, the interrupt on the vector's
ramlld_load mode=mq capacity_mb=8 irqmode=2 completion_nsec=1000 irq_cpus=0
irq_expect /dev/ramlldmq0 mq 0 0 0
irq_expect /dev/ramlldmq0 mq 2 0 1
ramlld_unload
echo "ok: irq_cpus and rq_affinity on the mq disk"

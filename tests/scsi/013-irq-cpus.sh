#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# what: irq_cpus=0 raises SCSI completions on CPU 0 (one submit queue); rq_affinity 0/1/2 move them (counters)
# where: guest
# requires: taskset dd python3
# vm: --topology sockets=1,cores=2 --append no_timer_check
# timeout: 600
. "$TOP/tests/lib.sh"
. "$TOP/tests/scsi/scsi-lib.bash"
. "$TOP/tests/mq/irq-lib.bash"

scsi_load mode=scsi capacity_mb=8 irqmode=1 irq_cpus=0
sd=${SD[0]}
expect_eq "$sd hardware queues (submit_queues follows irq_cpus)" 1 \
	"$(find /sys/block/"$sd"/mq -mindepth 1 -maxdepth 1 | wc -l)"
irq_expect_all "/dev/$sd" scsi
ramlld_unload

# irqmode=2 with the timer: the same routing
scsi_load mode=scsi capacity_mb=8 irqmode=2 completion_nsec=1000 irq_cpus=0
irq_expect "/dev/${SD[0]}" scsi 0 0 0
irq_expect "/dev/${SD[0]}" scsi 2 0 1
ramlld_unload
echo "ok: irq_cpus and rq_affinity on the sd disk"

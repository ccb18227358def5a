/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irq.h - the interrupt model of the mq and SCSI front ends (irq.c) and
 * their one completion switch.
 */
#ifndef RAMLLD_IRQ_H
#define RAMLLD_IRQ_H

#include <linux/types.h>
#include <linux/hrtimer.h>
#include <linux/llist.h>
#include <linux/smp.h>

#include "ramlld.h"

/*
 * The interrupt model: where the mq and SCSI front ends signal a
 * completion. Each command embeds a struct ramlld_irq_cmd, set up once with
 * the front end's completion, which goes through blk_mq_complete_request()
 * (rq_affinity, IPI, BLOCK_SOFTIRQ).
 */
struct ramlld_irq_cmd {
	struct __call_single_data csd;	/* the IPI to another CPU */
	struct llist_node node;		/* on the submitting CPU's self-IPI list */
	void (*complete)(struct ramlld_irq_cmd *icmd);
	u8 fe;				/* enum ramlld_fe, for the counters */
};

void ramlld_irq_cmd_init(struct ramlld_irq_cmd *icmd, enum ramlld_fe fe,
			 void (*complete)(struct ramlld_irq_cmd *icmd));
/*
 * Signal the completion of a command of dev's hardware queue hwq, as its
 * interrupt vector would (dev's irq_cpus): ->complete runs in hard interrupt
 * context on the vector's CPU; inline when irq_cpus is empty. from_irq: the
 * caller is the irqmode=2 timer (hard interrupt context already). Does not
 * sleep. hwq RAMLLD_IRQ_NO_VECTOR (a poll queue's): inline, whatever
 * irq_cpus says.
 */
#define RAMLLD_IRQ_NO_VECTOR	UINT_MAX
void ramlld_irq_raise(const struct ramlld_device *dev,
		      struct ramlld_irq_cmd *icmd, unsigned int hwq,
		      bool from_irq);
/* The apply of irq_cpus (settings.h): dev's vector map from dev->cfg. */
int ramlld_irq_apply_cpus(struct ramlld_device *dev);
/*
 * A new device, before anything can fail: the completion counters are in
 * debugfs while a device has irqmode 1 or 2 and an mq or SCSI front end
 * (its own config says). ramlld_lock held; does not fail.
 */
void ramlld_irq_dev_init(struct ramlld_device *dev);
/* Free dev's map and its counters' share: no command of dev is left. */
void ramlld_irq_dev_exit(struct ramlld_device *dev);
/* The self-IPIs; debugfs: ramlld's directory (NULL or an ERR_PTR: none). */
void ramlld_irq_init(struct dentry *debugfs);
void ramlld_irq_exit(void);
/* Count an mq request's ->complete on this CPU (done_mq). */
void ramlld_irq_mq_done(void);

/*
 * Complete a command the way dev's irqmode says: done_inline(cmd) now, in
 * the submitting context; the "interrupt" of icmd (hw queue hwq), whose
 * handler goes through blk_mq_complete_request() (rq_affinity, IPI,
 * BLOCK_SOFTIRQ); or start timer, whose callback raises that interrupt
 * after completion_nsec. The one completion switch of the mq and SCSI
 * front ends: inline, so that the callbacks are direct calls.
 */
static __always_inline void ramlld_complete_rq(const struct ramlld_device *dev,
					       void *cmd, struct hrtimer *timer,
					       struct ramlld_irq_cmd *icmd,
					       unsigned int hwq,
					       void (*done_inline)(void *cmd))
{
	switch (dev->cfg.irqmode) {
	case RAMLLD_IRQ_SOFTIRQ:
		ramlld_irq_raise(dev, icmd, hwq, false);
		break;
	case RAMLLD_IRQ_TIMER:
		hrtimer_start(timer, ns_to_ktime(dev->cfg.completion_nsec),
			      HRTIMER_MODE_REL);
		break;
	default:
		done_inline(cmd);
		break;
	}
}

#endif /* RAMLLD_IRQ_H */

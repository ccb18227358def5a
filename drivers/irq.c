// SPDX-License-Identifier: GPL-2.0
/*
 * irq.c - the interrupt model of the mq and SCSI front ends: where a
 * completion "arrives", as a device's interrupt would, so that the block
 * layer's own rq_affinity logic decides where the completion then runs.
 *
 * A device's irq_cpus lists the CPUs of its vectors; hardware queue i raises
 * its completions on the (i mod n)-th CPU of the list, as managed-IRQ
 * spreading binds one vector per queue. The "interrupt" is a real hard
 * interrupt on that CPU: an IPI (smp_call_function_single_async()) to
 * another CPU, a self-IPI (irq_work_queue()) to the submitting one, or the
 * irqmode=2 completion timer itself when it fires on the vector's CPU. The
 * handler calls the front end's completion (blk_mq_complete_request(),
 * scsi_done()). With irq_cpus empty (the default) a completion is signalled
 * in the submitting context.
 *
 * Per-CPU counters in debugfs (ramlld/completions), there while a device
 * has irqmode 1 or 2 (its own setting), of what ramlld itself does: "irq",
 * where a front end signalled a completion (the handler below); "done_mq",
 * where the block layer then ran the mq front end's ->complete. SCSI has
 * no such column: the midlayer's scsi_complete() calls nothing of the LLD,
 * so where a SCSI request ends is the block layer's block_rq_complete
 * tracepoint's to tell.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/irq_work.h>
#include <linux/llist.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "irq.h"
#include "compat.h"

/* A device's vectors' CPUs, in irq_cpus order; replaced whole, under RCU. */
struct ramlld_irq_map {
	struct rcu_head rcu;
	unsigned int nr;
	unsigned int cpu[];
};

struct ramlld_irq_stats {
	unsigned long irq[RAMLLD_FE_COUNT];
	unsigned long done_mq;
};

static DEFINE_PER_CPU(struct ramlld_irq_stats, ramlld_irq_stats);
/* ramlld's debugfs directory, and the counters' file in it while counted */
static struct dentry *ramlld_irq_debugfs_dir;
static struct dentry *ramlld_irq_debugfs;
/* devices whose completions the counters count; under ramlld_lock */
static unsigned int ramlld_irq_counted;

int ramlld_irq_apply_cpus(struct ramlld_device *dev)
{
	struct ramlld_irq_map *map = NULL, *old;
	unsigned int cpu, n = ramlld_config_nr_vectors(&dev->cfg);

	lockdep_assert_held(&ramlld_lock);
	if (n) {
		map = kzalloc(struct_size(map, cpu, n), GFP_KERNEL);
		if (!map)
			return -ENOMEM;
		for_each_set_bit(cpu, dev->cfg.irq_cpus.bits, RAMLLD_IRQ_MAX_CPUS)
			map->cpu[map->nr++] = cpu;
	}
	old = rcu_replace_pointer(dev->irq_map, map,
				  lockdep_is_held(&ramlld_lock));
	if (old)
		kfree_rcu(old, rcu);
	return 0;
}

/* The interrupt handler: count where it ran, then complete. */
static void ramlld_irq_handle(struct ramlld_irq_cmd *icmd)
{
	this_cpu_inc(ramlld_irq_stats.irq[icmd->fe]);
	icmd->complete(icmd);
}

/*
 * The self-IPI of each CPU and the commands it completes. Per CPU, not per
 * command: irq_work touches its work item after the handler returns, and a
 * command's memory may be gone by then (the last completion lets the tag
 * set be freed); these live as long as the module and are synced at exit.
 */
struct ramlld_irq_local {
	struct irq_work work;
	struct llist_head cmds;
};

static DEFINE_PER_CPU(struct ramlld_irq_local, ramlld_irq_local);

static void ramlld_irq_work_fn(struct irq_work *work)
{
	struct ramlld_irq_local *l = container_of(work, struct ramlld_irq_local,
						  work);
	struct ramlld_irq_cmd *icmd, *next;
	struct llist_node *cmds;

	cmds = llist_reverse_order(llist_del_all(&l->cmds));
	llist_for_each_entry_safe(icmd, next, cmds, node)
		ramlld_irq_handle(icmd);
}

/* An IPI: the core unlocks the csd before calling this, never touches it after. */
static void ramlld_irq_ipi_fn(void *info)
{
	ramlld_irq_handle(info);
}

void ramlld_irq_cmd_init(struct ramlld_irq_cmd *icmd, enum ramlld_fe fe,
			 void (*complete)(struct ramlld_irq_cmd *icmd))
{
	icmd->csd = (struct __call_single_data) {
		.func = ramlld_irq_ipi_fn,
		.info = icmd,
	};
	icmd->complete = complete;
	icmd->fe = fe;
}

void ramlld_irq_raise(const struct ramlld_device *dev,
		      struct ramlld_irq_cmd *icmd, unsigned int hwq,
		      bool from_irq)
{
	const struct ramlld_irq_map *map;
	struct ramlld_irq_local *l;
	int this_cpu, cpu = -1;

	rcu_read_lock();
	map = rcu_dereference(dev->irq_map);
	if (map && hwq != RAMLLD_IRQ_NO_VECTOR)
		cpu = map->cpu[hwq % map->nr];
	rcu_read_unlock();
	if (cpu < 0) {
		/* no vector: signalled where the command was */
		ramlld_irq_handle(icmd);
		return;
	}

	this_cpu = get_cpu();
	/* a vector on an offline CPU moves, as the kernel moves an IRQ: here */
	if (cpu != this_cpu && cpu_online(cpu) &&
	    !smp_call_function_single_async(cpu, &icmd->csd)) {
		put_cpu();
		return;
	}
	if (!from_irq) {
		/* a self-IPI: the handler runs in hard interrupt context */
		l = this_cpu_ptr(&ramlld_irq_local);
		llist_add(&icmd->node, &l->cmds);
		irq_work_queue(&l->work);	/* false: already raised, it takes this one too */
		put_cpu();
		return;
	}
	put_cpu();
	ramlld_irq_handle(icmd);
}

void ramlld_irq_mq_done(void)
{
	this_cpu_inc(ramlld_irq_stats.done_mq);
}

static int ramlld_irq_show(struct seq_file *m, void *v)
{
	unsigned int cpu;

	seq_puts(m, "cpu irq_mq done_mq irq_scsi\n");
	for_each_possible_cpu(cpu) {
		const struct ramlld_irq_stats *s = per_cpu_ptr(&ramlld_irq_stats, cpu);

		seq_printf(m, "%u %lu %lu %lu\n", cpu,
			   READ_ONCE(s->irq[RAMLLD_FE_MQ]),
			   READ_ONCE(s->done_mq),
			   READ_ONCE(s->irq[RAMLLD_FE_SCSI]));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ramlld_irq);

static bool ramlld_irq_counts(const struct ramlld_device *dev)
{
	return dev->cfg.irqmode != RAMLLD_IRQ_NONE &&
	       (dev->cfg.mode & (RAMLLD_MODE_MQ | RAMLLD_MODE_SCSI));
}

void ramlld_irq_dev_init(struct ramlld_device *dev)
{
	struct dentry *f;

	lockdep_assert_held(&ramlld_lock);
	if (!ramlld_irq_counts(dev) || ramlld_irq_counted++)
		return;
	/* debugfs is optional: the counters are for tests and reports */
	if (IS_ERR_OR_NULL(ramlld_irq_debugfs_dir))
		return;
	f = debugfs_create_file("completions", 0444, ramlld_irq_debugfs_dir,
				NULL, &ramlld_irq_fops);
	ramlld_irq_debugfs = IS_ERR(f) ? NULL : f;
}

void ramlld_irq_dev_exit(struct ramlld_device *dev)
{
	kfree(rcu_replace_pointer(dev->irq_map, NULL, true));
	if (!ramlld_irq_counts(dev) || --ramlld_irq_counted)
		return;
	debugfs_remove(ramlld_irq_debugfs);
	ramlld_irq_debugfs = NULL;
}

void ramlld_irq_init(struct dentry *debugfs)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct ramlld_irq_local *l = per_cpu_ptr(&ramlld_irq_local, cpu);

		ramlld_compat_init_irq_work_hard(&l->work, ramlld_irq_work_fn);
		init_llist_head(&l->cmds);
	}

	ramlld_irq_debugfs_dir = debugfs;
}

/* After the front ends: no command of ours is left to complete. */
void ramlld_irq_exit(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		irq_work_sync(&per_cpu_ptr(&ramlld_irq_local, cpu)->work);
}

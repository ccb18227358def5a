// SPDX-License-Identifier: GPL-2.0
/*
 * device.c - devices and groups: their configuration check, their creation
 * and removal with every front end, and the one disk set-up of the bio and
 * blk-mq front ends.
 *
 * Nothing here is on the I/O path: ramlld_lock serialises creation,
 * removal and the SCSI front end's (un)registration.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kmod.h>
#include <linux/rcupdate.h>
#include <linux/blkdev.h>
#include <linux/idr.h>
#include <linux/log2.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ramlld.h"
#include "compat.h"

/* The largest store: 1 TiB (its page table alone is 2 GiB). */
#define RAMLLD_MAX_CAPACITY_MB		(1024UL * 1024)
#define RAMLLD_MAX_QUEUE_DEPTH		4096
#define RAMLLD_MAX_COMPLETION_NSEC	NSEC_PER_SEC
#define RAMLLD_SCSI_MAX_LUNS_PER_TGT	256
#define RAMLLD_SCSI_MAX_CAN_QUEUE	4096
#define RAMLLD_DISK_MINORS		16	/* partitions per disk */

/* See ramlld.h: creation, removal, SCSI (un)registration; never on the I/O path. */
DEFINE_MUTEX(ramlld_lock);
static LIST_HEAD(ramlld_groups);
static DEFINE_IDA(ramlld_index_ida);
/* Set and cleared under ramlld_lock; read under RCU by the irq counters. */
static const struct ramlld_scsi_ops __rcu *ramlld_scsi_ops;
static int ramlld_majors[RAMLLD_FE_COUNT];
static const char * const ramlld_disk_prefix[RAMLLD_FE_COUNT] = {
	[RAMLLD_FE_BIO]	= RAMLLD_NAME,
	[RAMLLD_FE_MQ]	= RAMLLD_NAME "mq",
};

static const struct ramlld_scsi_ops *ramlld_scsi_ops_locked(void)
{
	return rcu_dereference_protected(ramlld_scsi_ops,
					 lockdep_is_held(&ramlld_lock));
}

unsigned int ramlld_config_pbs(const struct ramlld_config *cfg)
{
	return cfg->physical_block_size ? cfg->physical_block_size :
					  cfg->sector_size;
}
EXPORT_SYMBOL_GPL(ramlld_config_pbs);

/* luns_per_tgt as used: 0 is nr / num_tgts rounded up. */
static unsigned int ramlld_config_lpt(const struct ramlld_config *cfg,
				      unsigned int nr)
{
	return cfg->luns_per_tgt ? cfg->luns_per_tgt :
				   DIV_ROUND_UP(nr, cfg->num_tgts);
}

#define ramlld_cfg_err(prefix, name, fmt, ...)				\
	pr_err("%s" name "=" fmt, prefix, ##__VA_ARGS__)

int ramlld_config_check(const struct ramlld_config *cfg, unsigned int nr,
			const char *p)
{
	unsigned int pbs = ramlld_config_pbs(cfg);

	if (!cfg->modes || cfg->modes & ~RAMLLD_MODE_ALL) {
		ramlld_cfg_err(p, "mode",
			       "%#x is invalid: allowed are bio (alias block), mq, scsi, all, or a comma list of them\n",
			       cfg->modes);
		return -EINVAL;
	}
	if (cfg->capacity_mb < 1 || cfg->capacity_mb > RAMLLD_MAX_CAPACITY_MB) {
		ramlld_cfg_err(p, "capacity_mb",
			       "%lu is invalid: allowed 1-%lu\n",
			       cfg->capacity_mb, RAMLLD_MAX_CAPACITY_MB);
		return -EINVAL;
	}
	if (cfg->sector_size != 512 && cfg->sector_size != 1024 &&
	    cfg->sector_size != 2048 && cfg->sector_size != 4096) {
		ramlld_cfg_err(p, "sector_size",
			       "%u is invalid: allowed 512, 1024, 2048, 4096\n",
			       cfg->sector_size);
		return -EINVAL;
	}
	if (!is_power_of_2(pbs) || pbs < cfg->sector_size || pbs > 65536) {
		ramlld_cfg_err(p, "physical_block_size",
			       "%u is invalid: allowed 0 or a power of two from sector_size (%u) to 65536\n",
			       cfg->physical_block_size, cfg->sector_size);
		return -EINVAL;
	}
	if (cfg->irqmode > RAMLLD_IRQ_TIMER) {
		ramlld_cfg_err(p, "irqmode",
			       "%u is invalid: allowed 0 (inline), 1 (softirq), 2 (timer)\n",
			       cfg->irqmode);
		return -EINVAL;
	}
	if (cfg->completion_nsec > RAMLLD_MAX_COMPLETION_NSEC) {
		ramlld_cfg_err(p, "completion_nsec",
			       "%lu is invalid: allowed 0-%lu\n",
			       cfg->completion_nsec, RAMLLD_MAX_COMPLETION_NSEC);
		return -EINVAL;
	}
	if (cfg->hw_queue_depth < 1 || cfg->hw_queue_depth > RAMLLD_MAX_QUEUE_DEPTH) {
		ramlld_cfg_err(p, "hw_queue_depth",
			       "%u is invalid: allowed 1-%u\n",
			       cfg->hw_queue_depth, RAMLLD_MAX_QUEUE_DEPTH);
		return -EINVAL;
	}
	if (cfg->nr_hw_queues > nr_cpu_ids) {
		ramlld_cfg_err(p, "nr_hw_queues",
			       "%u is invalid: allowed 0 (one per CPU) to %u\n",
			       cfg->nr_hw_queues, nr_cpu_ids);
		return -EINVAL;
	}
	if (cfg->num_tgts < 1 || cfg->num_tgts > nr) {
		ramlld_cfg_err(p, "num_tgts",
			       "%u is invalid: allowed 1-nr_devices (%u)\n",
			       cfg->num_tgts, nr);
		return -EINVAL;
	}
	if (ramlld_config_lpt(cfg, nr) > RAMLLD_SCSI_MAX_LUNS_PER_TGT ||
	    ramlld_config_lpt(cfg, nr) * cfg->num_tgts < nr) {
		ramlld_cfg_err(p, "luns_per_tgt",
			       "%u is invalid: allowed 0 or 1-%u with num_tgts * luns_per_tgt >= nr_devices (%u)\n",
			       cfg->luns_per_tgt, RAMLLD_SCSI_MAX_LUNS_PER_TGT, nr);
		return -EINVAL;
	}
	if (cfg->can_queue < 1 || cfg->can_queue > RAMLLD_SCSI_MAX_CAN_QUEUE) {
		ramlld_cfg_err(p, "can_queue",
			       "%u is invalid: allowed 1-%u\n",
			       cfg->can_queue, RAMLLD_SCSI_MAX_CAN_QUEUE);
		return -EINVAL;
	}
	if (cfg->cmd_per_lun > cfg->can_queue) {
		ramlld_cfg_err(p, "cmd_per_lun",
			       "%u is invalid: allowed 0-can_queue (%u)\n",
			       cfg->cmd_per_lun, cfg->can_queue);
		return -EINVAL;
	}
	if (cfg->submit_queues > nr_cpu_ids) {
		ramlld_cfg_err(p, "submit_queues",
			       "%u is invalid: allowed 0 (one per CPU) to %u\n",
			       cfg->submit_queues, nr_cpu_ids);
		return -EINVAL;
	}
	if (cfg->poll_queues > nr_cpu_ids) {
		ramlld_cfg_err(p, "poll_queues",
			       "%u is invalid: allowed 0 (no polling) to %u\n",
			       cfg->poll_queues, nr_cpu_ids);
		return -EINVAL;
	}
	if (cfg->poll_queues && (cfg->modes & RAMLLD_MODE_SCSI) &&
	    !RAMLLD_HAVE_SCSI_MQ_POLL) {
		ramlld_cfg_err(p, "poll_queues",
			       "%u is invalid with mode=scsi on this kernel: SCSI hosts poll from 5.13 (->mq_poll); allowed 0\n",
			       cfg->poll_queues);
		return -EINVAL;
	}
	return 0;
}

/*
 * A comma list of names (blanks around each ignored, a newline ends the
 * list) into the OR of their bits (BIT(i) without bits); "" gives 0. The
 * one parser of mode= and eh_fail=: -EINVAL for an unknown or empty name.
 */
static int ramlld_parse_list(const char *val, const char * const *names,
			     const unsigned long *bits, unsigned int n,
			     unsigned long *out)
{
	size_t len = val ? strcspn(val, "\n") : 0;
	unsigned long m = 0;
	char buf[96], *s, *tok;
	int i;

	if (!val || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, val, len);
	buf[len] = '\0';
	s = buf;
	while ((tok = strsep(&s, ",")) != NULL) {
		tok = strim(tok);
		if (!*tok && !s && !m)
			break;		/* "": none */
		i = match_string(names, n, tok);
		if (i < 0)
			return -EINVAL;
		m |= bits ? bits[i] : BIT(i);
	}
	*out = m;
	return 0;
}

static const char * const ramlld_mode_names[] = {
	"bio", "block", "mq", "scsi", "all",
};

static const unsigned long ramlld_mode_bits[ARRAY_SIZE(ramlld_mode_names)] = {
	RAMLLD_MODE_BIO, RAMLLD_MODE_BIO, RAMLLD_MODE_MQ, RAMLLD_MODE_SCSI,
	RAMLLD_MODE_ALL,
};

int ramlld_parse_modes(const char *arg, unsigned int *modes, const char *name)
{
	unsigned long m;

	if (!ramlld_parse_list(arg, ramlld_mode_names, ramlld_mode_bits,
			       ARRAY_SIZE(ramlld_mode_names), &m) && m) {
		*modes = m;
		return 0;
	}
	pr_err("%s=%.*s is invalid: allowed are bio (alias block), mq, scsi, all, or a comma list of them\n",
	       name, arg ? (int)min_t(size_t, strcspn(arg, "\n"), 96) : 6,
	       arg ? arg : "(null)");
	return -EINVAL;
}

int ramlld_parse_eh_fail(const char *val, unsigned long *eh_fail,
			 const char *name)
{
	if (!ramlld_parse_list(val, ramlld_scsi_eh_names, NULL, RAMLLD_EH_COUNT,
			       eh_fail))
		return 0;
	pr_err("%s=%.*s is invalid: allowed a comma list of abort, device_reset, target_reset, bus_reset, host_reset, or an empty string\n",
	       name, val ? (int)min_t(size_t, strcspn(val, "\n"), 96) : 6,
	       val ? val : "(null)");
	return -EINVAL;
}

int ramlld_eh_fail_format(char *buf, size_t size, unsigned long eh_fail)
{
	int i, n = 0;

	for (i = 0; i < RAMLLD_EH_COUNT; i++)
		if (eh_fail & BIT(i))
			n += scnprintf(buf + n, size - n, "%s%s", n ? "," : "",
				       ramlld_scsi_eh_names[i]);
	return n + scnprintf(buf + n, size - n, "\n");
}

int ramlld_modes_format(char *buf, size_t size, unsigned int modes)
{
	return scnprintf(buf, size, "%s%s%s%s%s\n",
			 modes & RAMLLD_MODE_BIO ? "bio" : "",
			 (modes & RAMLLD_MODE_BIO) && (modes & ~RAMLLD_MODE_BIO) ? "," : "",
			 modes & RAMLLD_MODE_MQ ? "mq" : "",
			 (modes & RAMLLD_MODE_MQ) && (modes & RAMLLD_MODE_SCSI) ? "," : "",
			 modes & RAMLLD_MODE_SCSI ? "scsi" : "");
}

struct gendisk *ramlld_disk_add(struct ramlld_device *dev, enum ramlld_fe fe,
				const struct block_device_operations *fops,
				struct blk_mq_tag_set *set)
{
	unsigned int pbs = ramlld_config_pbs(&dev->cfg);
	struct ramlld_disk_limits lim = {
		.logical_block_size = dev->cfg.sector_size,
		.physical_block_size = pbs,
		.max_hw_sectors = RAMLLD_MAX_HW_SECTORS,
		/* discard frees whole pages and zeroes partial ones */
		.max_discard_sectors = RAMLLD_MAX_DISCARD_BYTES >> SECTOR_SHIFT,
		/* newer kernels raise it to the physical block size anyway */
		.discard_granularity = max_t(unsigned int, PAGE_SIZE, pbs),
		.max_write_zeroes_sectors = RAMLLD_MAX_DISCARD_BYTES >> SECTOR_SHIFT,
		.write_cache = dev->cfg.write_cache,
		/*
		 * A bio-based queue starts with iostats off, as the kernel
		 * starts every one (and as brd runs): its io_ticks update is a
		 * shared cacheline per bio. Writing 1 to queue/iostats turns
		 * accounting on.
		 */
		.io_stat = fe != RAMLLD_FE_BIO,
		.nowait = true,
		.rotational = dev->cfg.rotational,
	};
	struct gendisk *disk;
	int ret;

	if (set)
		disk = ramlld_compat_alloc_mq_disk(set, &lim, dev);
	else
		disk = ramlld_compat_alloc_disk(&lim);
	if (IS_ERR(disk))
		return disk;
	disk->major = ramlld_majors[fe];
	disk->first_minor = dev->index * RAMLLD_DISK_MINORS;
	disk->minors = RAMLLD_DISK_MINORS;
	disk->fops = fops;
	disk->private_data = dev;
	snprintf(disk->disk_name, DISK_NAME_LEN, "%s%u", ramlld_disk_prefix[fe],
		 dev->index);
	set_capacity(disk, ramlld_store_capacity(dev->store) >> SECTOR_SHIFT);

	ret = ramlld_compat_add_disk(disk);
	if (ret) {
		ramlld_compat_put_disk(disk);
		return ERR_PTR(ret);
	}
	return disk;
}

void ramlld_disk_del(struct gendisk *disk)
{
	del_gendisk(disk);
	ramlld_compat_put_disk(disk);
}

/* Remove the block front ends of dev and free its store and index. */
static void ramlld_device_destroy(struct ramlld_device *dev)
{
	if (dev->mq)
		ramlld_mq_remove(dev);
	if (dev->bio_disk)
		ramlld_bio_remove(dev);
	ramlld_store_destroy(dev->store);
	ramlld_faults_exit(dev);
	ida_free(&ramlld_index_ida, dev->index);
	kfree(dev);
}

static struct ramlld_device *ramlld_device_create(struct ramlld_group *group,
						  const struct ramlld_config *cfg,
						  unsigned int pos)
{
	struct ramlld_device *dev;
	int ret;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return ERR_PTR(-ENOMEM);
	ret = ida_alloc_max(&ramlld_index_ida, RAMLLD_MAX_DEVICES - 1, GFP_KERNEL);
	if (ret < 0) {
		kfree(dev);
		if (ret == -ENOSPC)
			pr_err("no device index left: at most %u devices at once\n",
			       RAMLLD_MAX_DEVICES);
		return ERR_PTR(ret);
	}
	dev->index = ret;
	dev->cfg = *cfg;
	dev->group = group;
	dev->group_pos = pos;
	dev->eh_fail = cfg->eh_fail;
	ret = ramlld_faults_init(dev);
	if (ret)
		goto err;

	dev->store = ramlld_store_create((u64)cfg->capacity_mb << 20,
					 cfg->prealloc);
	if (IS_ERR(dev->store)) {
		ret = PTR_ERR(dev->store);
		pr_err("store %u: cannot allocate %lu MiB%s: out of memory\n",
		       dev->index, cfg->capacity_mb,
		       cfg->prealloc ? " (prealloc=1)" : " of page table");
		dev->store = NULL;
		goto err;
	}
	ramlld_store_set_throw_away(dev->store, cfg->throw_away_reads,
				    cfg->throw_away_writes);
	if (cfg->modes & RAMLLD_MODE_BIO) {
		ret = ramlld_bio_add(dev);
		if (ret) {
			pr_err("bio: cannot add disk %u: error %d\n", dev->index, ret);
			goto err;
		}
	}
	if (cfg->modes & RAMLLD_MODE_MQ) {
		ret = ramlld_mq_add(dev);
		if (ret) {
			pr_err("mq: cannot add disk %u: error %d\n", dev->index, ret);
			goto err;
		}
	}
	/* one line per device: tests tell from the log that no disk was added */
	pr_info("device %u: %lu MiB, %u-byte sectors, disks:%s%s%s%s\n",
		dev->index, cfg->capacity_mb, cfg->sector_size,
		dev->bio_disk ? " " : "",
		dev->bio_disk ? dev->bio_disk->disk_name : "",
		dev->mq ? " " : "", dev->mq ? ramlld_mq_disk(dev)->disk_name : "");
	return dev;

err:
	ramlld_device_destroy(dev);
	return ERR_PTR(ret);
}

static void ramlld_group_free(struct ramlld_group *group)
{
	unsigned int i;

	for (i = group->nr_devices; i-- > 0;)
		ramlld_device_destroy(group->devices[i]);
	kfree(group);
}

struct ramlld_group *ramlld_group_create(const struct ramlld_config *cfg,
					 unsigned int nr)
{
	struct ramlld_group *group;
	int ret;

	lockdep_assert_held(&ramlld_lock);
	group = kzalloc(struct_size(group, devices, nr), GFP_KERNEL);
	if (!group)
		return ERR_PTR(-ENOMEM);
	group->luns_per_tgt = ramlld_config_lpt(cfg, nr);
	while (group->nr_devices < nr) {
		struct ramlld_device *dev;

		dev = ramlld_device_create(group, cfg, group->nr_devices);
		if (IS_ERR(dev)) {
			ret = PTR_ERR(dev);
			goto err;
		}
		group->devices[group->nr_devices++] = dev;
	}
	if ((cfg->modes & RAMLLD_MODE_SCSI) && ramlld_scsi_ops_locked()) {
		ret = ramlld_scsi_ops_locked()->attach(group);
		if (ret)
			goto err;
	} else if (cfg->modes & RAMLLD_MODE_SCSI) {
		pr_info("device %u: its SCSI host comes when %s.ko is loaded (modprobe %s)\n",
			group->devices[0]->index, RAMLLD_SCSI_MODULE,
			RAMLLD_SCSI_MODULE);
	}
	list_add_tail(&group->node, &ramlld_groups);
	return group;

err:
	ramlld_group_free(group);
	return ERR_PTR(ret);
}

void ramlld_group_destroy(struct ramlld_group *group)
{
	lockdep_assert_held(&ramlld_lock);
	list_del(&group->node);
	if (group->scsi_host)
		ramlld_scsi_ops_locked()->detach(group);
	ramlld_group_free(group);
}

bool ramlld_group_busy(struct ramlld_group *group)
{
	unsigned int i;

	lockdep_assert_held(&ramlld_lock);
	for (i = 0; i < group->nr_devices; i++) {
		struct ramlld_device *dev = group->devices[i];

		if (dev->bio_disk && ramlld_compat_disk_openers(dev->bio_disk))
			return true;
		if (dev->mq && ramlld_compat_disk_openers(ramlld_mq_disk(dev)))
			return true;
	}
	return group->scsi_host && ramlld_scsi_ops_locked()->busy(group);
}

int ramlld_scsi_host_no(struct ramlld_group *group)
{
	lockdep_assert_held(&ramlld_lock);
	return group->scsi_host ? ramlld_scsi_ops_locked()->host_no(group) : -1;
}

bool ramlld_scsi_queue_is_ours(const struct request_queue *q)
{
	const struct ramlld_scsi_ops *ops;
	bool ours;

	rcu_read_lock();
	ops = rcu_dereference(ramlld_scsi_ops);
	ours = ops && ops->queue_is_ours(q);
	rcu_read_unlock();
	return ours;
}

void ramlld_scsi_request(void)
{
	if (!rcu_access_pointer(ramlld_scsi_ops))
		request_module(RAMLLD_SCSI_MODULE);
}

void ramlld_devices_apply(ramlld_device_fn fn, void *data)
{
	struct ramlld_group *group;
	unsigned int i;

	lockdep_assert_held(&ramlld_lock);
	list_for_each_entry(group, &ramlld_groups, node)
		for (i = 0; i < group->nr_devices; i++)
			fn(group->devices[i], data);
}

int ramlld_scsi_register(const struct ramlld_scsi_ops *ops)
{
	struct ramlld_group *group;
	int ret = 0;

	mutex_lock(&ramlld_lock);
	list_for_each_entry(group, &ramlld_groups, node) {
		if (!(group->devices[0]->cfg.modes & RAMLLD_MODE_SCSI))
			continue;
		ret = ops->attach(group);
		if (ret)
			break;
	}
	if (ret) {
		list_for_each_entry_continue_reverse(group, &ramlld_groups, node)
			if (group->scsi_host)
				ops->detach(group);
	} else {
		rcu_assign_pointer(ramlld_scsi_ops, ops);
	}
	mutex_unlock(&ramlld_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(ramlld_scsi_register);

void ramlld_scsi_unregister(void)
{
	struct ramlld_group *group;

	mutex_lock(&ramlld_lock);
	list_for_each_entry_reverse(group, &ramlld_groups, node)
		if (group->scsi_host)
			ramlld_scsi_ops_locked()->detach(group);
	RCU_INIT_POINTER(ramlld_scsi_ops, NULL);
	mutex_unlock(&ramlld_lock);
	/* the irq counters' probe no longer calls into the front end */
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(ramlld_scsi_unregister);

int ramlld_devices_init(void)
{
	int ret;

	ret = register_blkdev(0, ramlld_disk_prefix[RAMLLD_FE_BIO]);
	if (ret < 0)
		return ret;
	ramlld_majors[RAMLLD_FE_BIO] = ret;
	ret = register_blkdev(0, ramlld_disk_prefix[RAMLLD_FE_MQ]);
	if (ret < 0) {
		unregister_blkdev(ramlld_majors[RAMLLD_FE_BIO],
				  ramlld_disk_prefix[RAMLLD_FE_BIO]);
		return ret;
	}
	ramlld_majors[RAMLLD_FE_MQ] = ret;
	return 0;
}

/* Every group is gone by now. */
void ramlld_devices_exit(void)
{
	unregister_blkdev(ramlld_majors[RAMLLD_FE_MQ],
			  ramlld_disk_prefix[RAMLLD_FE_MQ]);
	unregister_blkdev(ramlld_majors[RAMLLD_FE_BIO],
			  ramlld_disk_prefix[RAMLLD_FE_BIO]);
	ida_destroy(&ramlld_index_ida);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * device.c - devices and groups: their creation and removal with every
 * front end, and the one disk set-up of the bio and blk-mq front ends.
 *
 * Nothing here is on the I/O path: ramlld_lock serialises creation and
 * removal.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/idr.h>
#include <linux/log2.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ramlld.h"
#include "compat.h"

#define RAMLLD_DISK_MINORS		16	/* partitions per disk */

/* See ramlld.h: creation and removal; never on the I/O path. */
DEFINE_MUTEX(ramlld_lock);
static LIST_HEAD(ramlld_groups);
static DEFINE_IDA(ramlld_index_ida);
static int ramlld_majors[RAMLLD_FE_COUNT];
/* ramlld's debugfs directory, from ramlld_devices_init() */
static struct dentry *ramlld_devices_debugfs;
static const char * const ramlld_disk_prefix[RAMLLD_FE_COUNT] = {
	[RAMLLD_FE_BIO]	= RAMLLD_NAME,
	[RAMLLD_FE_MQ]	= RAMLLD_NAME "mq",
};

struct gendisk *ramlld_disk_add(struct ramlld_device *dev, enum ramlld_fe fe,
				const struct block_device_operations *fops,
				struct blk_mq_tag_set *set)
{
	unsigned int pbs = ramlld_config_pbs(&dev->cfg);
	unsigned int max_hw = dev->cfg.max_hw_sectors_kb << (10 - SECTOR_SHIFT);
	struct ramlld_disk_limits lim = {
		.logical_block_size = dev->cfg.sector_size,
		.physical_block_size = pbs,
		.max_hw_sectors = max_hw,
		.max_sectors = min_t(unsigned int, max_hw, RAMLLD_DEF_MAX_SECTORS),
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
	ramlld_irq_dev_exit(dev);
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
	ret = ramlld_faults_init(dev, ramlld_devices_debugfs);
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
	ret = ramlld_settings_apply_all(dev);
	if (ret)
		goto err;
	if (cfg->mode & RAMLLD_MODE_BIO) {
		ret = ramlld_bio_add(dev);
		if (ret) {
			pr_err("bio: cannot add disk %u: error %d\n", dev->index, ret);
			goto err;
		}
	}
	if (cfg->mode & RAMLLD_MODE_MQ) {
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

struct ramlld_group *ramlld_group_create(const struct ramlld_config *cfg)
{
	unsigned int nr = cfg->nr_devices;
	struct ramlld_group *group;
	int ret;

	lockdep_assert_held(&ramlld_lock);
	group = kzalloc(struct_size(group, devices, nr), GFP_KERNEL);
	if (!group)
		return ERR_PTR(-ENOMEM);
	group->luns_per_tgt = ramlld_config_lpt(cfg);
	while (group->nr_devices < nr) {
		struct ramlld_device *dev;

		dev = ramlld_device_create(group, cfg, group->nr_devices);
		if (IS_ERR(dev)) {
			ret = PTR_ERR(dev);
			goto err;
		}
		group->devices[group->nr_devices++] = dev;
	}
	if (cfg->mode & RAMLLD_MODE_SCSI) {
		ret = ramlld_scsi_add(group);
		if (ret)
			goto err;
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
		ramlld_scsi_remove(group);
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
	return ramlld_scsi_busy(group);
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

int ramlld_devices_init(struct dentry *debugfs)
{
	int ret;

	ramlld_devices_debugfs = debugfs;
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

// SPDX-License-Identifier: GPL-2.0
/*
 * device.c - devices and groups: their creation and removal with every
 * front end.
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
#include "disk.h"
#include "faults.h"
#include "frontends.h"
#include "irq.h"
#include "store.h"
#include "compat.h"

/* See ramlld.h: creation and removal; never on the I/O path. */
DEFINE_MUTEX(ramlld_lock);
static LIST_HEAD(ramlld_groups);
static DEFINE_IDA(ramlld_index_ida);
/* ramlld's debugfs directory, from ramlld_devices_init() */
static struct dentry *ramlld_devices_debugfs;

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
	ramlld_irq_dev_init(dev);
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
	ramlld_devices_debugfs = debugfs;
	return ramlld_disk_init();
}

/* Every group is gone by now. */
void ramlld_devices_exit(void)
{
	ramlld_disk_exit();
	ida_destroy(&ramlld_index_ida);
}

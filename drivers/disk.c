// SPDX-License-Identifier: GPL-2.0
/*
 * disk.c - the one disk set-up of the bio and blk-mq front ends: queue
 * limits from the device's config, name, minors and capacity. Below both
 * front ends; it calls none of them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>

#include "disk.h"
#include "store.h"
#include "compat.h"

#define RAMLLD_DISK_MINORS		16	/* partitions per disk */

static int ramlld_majors[RAMLLD_FE_COUNT];
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

int ramlld_disk_init(void)
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

void ramlld_disk_exit(void)
{
	unregister_blkdev(ramlld_majors[RAMLLD_FE_MQ],
			  ramlld_disk_prefix[RAMLLD_FE_MQ]);
	unregister_blkdev(ramlld_majors[RAMLLD_FE_BIO],
			  ramlld_disk_prefix[RAMLLD_FE_BIO]);
}

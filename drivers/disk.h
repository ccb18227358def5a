/* SPDX-License-Identifier: GPL-2.0 */
/*
 * disk.h - the one disk set-up of the bio and blk-mq front ends (disk.c),
 * below both.
 */
#ifndef RAMLLD_DISK_H
#define RAMLLD_DISK_H

#include <linux/blk_types.h>
#include <linux/blkdev.h>

#include "ramlld.h"

struct blk_mq_tag_set;

/* The block majors of the bio and mq disks: module init and exit. */
int ramlld_disk_init(void);
void ramlld_disk_exit(void);

/*
 * One disk set-up and teardown for the bio (set NULL) and mq front ends:
 * queue limits from dev's config, name and minors from dev->index, the
 * store's capacity. Returns the added disk or an ERR_PTR.
 */
struct gendisk *ramlld_disk_add(struct ramlld_device *dev, enum ramlld_fe fe,
				const struct block_device_operations *fops,
				struct blk_mq_tag_set *set);
void ramlld_disk_del(struct gendisk *disk);

/*
 * A store error as a block status: a page that cannot be had fails the
 * write as a medium would (EIO), not as a retryable resource shortage.
 */
static inline blk_status_t ramlld_store_errno_to_blk_status(int err)
{
	if (likely(!err))
		return BLK_STS_OK;
	return err == -EOPNOTSUPP ? BLK_STS_NOTSUPP : BLK_STS_IOERR;
}

#endif /* RAMLLD_DISK_H */

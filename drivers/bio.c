// SPDX-License-Identifier: GPL-2.0
/*
 * bio.c - the bio-based front end (mode=bio): /dev/ramlld<N>.
 *
 * The old make_request path: submit_bio in block_device_operations, no
 * request queue, no tags, no scheduler; each bio is served and ended in the
 * submitter's context, as brd does.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/slab.h>

#include "ramlld.h"
#include "compat.h"

#define RAMLLD_BIO_MINORS	16	/* partitions per disk */

struct ramlld_bio_dev {
	struct ramlld_store *store;
	struct gendisk *disk;
};

static int ramlld_bio_major;
static struct ramlld_bio_dev *ramlld_bio_devs;
static unsigned int ramlld_bio_nr_added;

/*
 * Whether an injected fault fails this read or write: badblocks= or
 * every_nth. timeout_nth does not apply: a bio-based driver has no timeout.
 */
static bool ramlld_bio_fault(struct ramlld_bio_dev *dev, struct bio *bio, u64 pos)
{
	u32 size = bio->bi_iter.bi_size;

	if (!size)
		return false;
	if (ramlld_fault_nth(RAMLLD_FE_BIO, false) == RAMLLD_FAULT_ERROR)
		return true;
	return ramlld_store_first_bad(dev->store, pos, size) != RAMLLD_STORE_NO_BAD;
}

/* Serve one bio in its submitter's context; may sleep unless REQ_NOWAIT. */
static void ramlld_bio_submit_bio(struct bio *bio)
{
	struct gendisk *disk = ramlld_compat_bio_disk(bio);
	struct ramlld_bio_dev *dev = disk->private_data;
	bool may_sleep = !(bio->bi_opf & REQ_NOWAIT);
	unsigned long start = 0;
	bool acct;
	u64 pos;
	int err;

	bio = ramlld_compat_split_bio(bio);
	if (!bio)
		return;
	pos = (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT;
	acct = blk_queue_io_stat(disk->queue);
	if (acct)
		start = bio_start_io_acct(bio);

	switch (bio_op(bio)) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:	/* a flush is an empty write: nothing to copy */
		if (ramlld_faults_armed() && ramlld_bio_fault(dev, bio, pos)) {
			err = -EIO;
			break;
		}
		err = ramlld_store_rw_bio(dev->store, bio, pos, may_sleep);
		break;
	case REQ_OP_DISCARD:
	case REQ_OP_WRITE_ZEROES:
		err = ramlld_store_discard(dev->store, pos, bio->bi_iter.bi_size);
		break;
	default:
		err = -EOPNOTSUPP;
		break;
	}
	if (unlikely(err == -ENOMEM && !may_sleep))
		bio->bi_status = BLK_STS_AGAIN;
	else
		bio->bi_status = ramlld_store_errno_to_blk_status(err);
	if (acct)
		bio_end_io_acct(bio, start);
	bio_endio(bio);
}

RAMLLD_COMPAT_DEFINE_SUBMIT_BIO(ramlld_bio_submit_bio)

static const struct block_device_operations ramlld_bio_fops = {
	.owner		= THIS_MODULE,
	.submit_bio	= RAMLLD_COMPAT_SUBMIT_BIO(ramlld_bio_submit_bio),
};

static int ramlld_bio_add_one(struct ramlld_bio_dev *dev, unsigned int index)
{
	struct ramlld_disk_limits lim;
	struct gendisk *disk;
	int ret;

	ramlld_disk_limits_init(&lim);
	/*
	 * iostats starts off, as the kernel starts every bio-based queue (and
	 * as brd runs): its io_ticks update is a shared cacheline per bio.
	 * Writing 1 to queue/iostats turns accounting on.
	 */
	lim.io_stat = false;
	disk = ramlld_compat_alloc_disk(&lim);
	if (IS_ERR(disk))
		return PTR_ERR(disk);
	disk->major = ramlld_bio_major;
	disk->first_minor = index * RAMLLD_BIO_MINORS;
	disk->minors = RAMLLD_BIO_MINORS;
	disk->fops = &ramlld_bio_fops;
	disk->private_data = dev;
	snprintf(disk->disk_name, DISK_NAME_LEN, RAMLLD_NAME "%u", index);
	set_capacity(disk, ramlld_store_capacity(dev->store) >> SECTOR_SHIFT);

	ret = ramlld_compat_add_disk(disk);
	if (ret) {
		ramlld_compat_put_disk(disk);
		return ret;
	}
	dev->disk = disk;
	return 0;
}

int ramlld_bio_init(void)
{
	unsigned int i;
	int ret;

	ramlld_bio_devs = kcalloc(ramlld_nr_devices, sizeof(*ramlld_bio_devs),
				  GFP_KERNEL);
	if (!ramlld_bio_devs)
		return -ENOMEM;
	ret = register_blkdev(0, RAMLLD_NAME);
	if (ret < 0)
		goto err_free;
	ramlld_bio_major = ret;

	for (i = 0; i < ramlld_nr_devices; i++) {
		ramlld_bio_devs[i].store = ramlld_stores[i];
		ret = ramlld_bio_add_one(&ramlld_bio_devs[i], i);
		if (ret) {
			pr_err("bio: cannot add disk %u: error %d\n", i, ret);
			goto err_remove;
		}
		ramlld_bio_nr_added++;
	}
	return 0;

err_remove:
	ramlld_bio_exit();
	return ret;
err_free:
	kfree(ramlld_bio_devs);
	ramlld_bio_devs = NULL;
	return ret;
}

void ramlld_bio_exit(void)
{
	unsigned int i;

	for (i = 0; i < ramlld_bio_nr_added; i++) {
		del_gendisk(ramlld_bio_devs[i].disk);
		ramlld_compat_put_disk(ramlld_bio_devs[i].disk);
	}
	ramlld_bio_nr_added = 0;
	unregister_blkdev(ramlld_bio_major, RAMLLD_NAME);
	kfree(ramlld_bio_devs);
	ramlld_bio_devs = NULL;
}

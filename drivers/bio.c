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

#include "disk.h"
#include "faults.h"
#include "frontends.h"
#include "store.h"
#include "compat.h"

/*
 * A read or write of one bio_vec inside one page exceeds no queue limit (a
 * driver must accept such a bio whatever its limits: the block layer's own
 * bio_may_exceed_limits() test, less chunk_sectors, which ramlld never sets),
 * so it skips bio_split_to_limits(), a call into the block layer per bio.
 */
static inline bool ramlld_bio_in_one_page(const struct bio *bio)
{
	return (bio_op(bio) == REQ_OP_READ || bio_op(bio) == REQ_OP_WRITE) &&
	       bio->bi_vcnt == 1 &&
	       bio->bi_io_vec->bv_offset + bio->bi_io_vec->bv_len <= PAGE_SIZE;
}

/* Serve one bio in its submitter's context; may sleep unless REQ_NOWAIT. */
static void ramlld_bio_submit_bio(struct bio *bio)
{
	struct gendisk *disk = ramlld_compat_bio_disk(bio);
	struct ramlld_device *dev = disk->private_data;
	bool may_sleep = !(bio->bi_opf & REQ_NOWAIT);
	unsigned long start = 0;
	bool acct;
	u64 pos;
	int err;

	if (!ramlld_bio_in_one_page(bio)) {
		bio = ramlld_compat_split_bio(bio);
		if (!bio)
			return;
	}
	pos = (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT;
	acct = blk_queue_io_stat(disk->queue);
	if (acct)
		start = bio_start_io_acct(bio);

	switch (bio_op(bio)) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:	/* a flush is an empty write: nothing to copy */
		/* timeout_nth does not apply: a bio-based driver has no timeout */
		if (ramlld_faults_armed(dev) &&
		    ramlld_fault_decide(dev, RAMLLD_FE_BIO, pos, bio->bi_iter.bi_size,
					NULL) != RAMLLD_FAULT_NONE) {
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

int ramlld_bio_add(struct ramlld_device *dev)
{
	struct gendisk *disk;

	disk = ramlld_disk_add(dev, RAMLLD_FE_BIO, &ramlld_bio_fops, NULL);
	if (IS_ERR(disk))
		return PTR_ERR(disk);
	dev->bio_disk = disk;
	return 0;
}

void ramlld_bio_remove(struct ramlld_device *dev)
{
	ramlld_disk_del(dev->bio_disk);
	dev->bio_disk = NULL;
}

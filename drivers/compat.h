/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every kernel API difference ramlld meets between 5.10 and 7.x.
 *
 * Each block is named after the API that changed; the driver calls the
 * ramlld_compat_* helpers and never tests LINUX_VERSION_CODE itself.
 */
#ifndef RAMLLD_COMPAT_H
#define RAMLLD_COMPAT_H

#include <linux/version.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/hrtimer.h>
#include <linux/uio.h>

/*
 * One version test, so the rest reads as API names. Where a distribution
 * backports an API (Debian's 6.1 carries some), a feature test beats the
 * version: such cases test the symbol itself (ITER_SOURCE below).
 */
#define RAMLLD_KERNEL_AT_LEAST(a, b, c)	(LINUX_VERSION_CODE >= KERNEL_VERSION(a, b, c))

#define RAMLLD_HAVE_BIO_SPLIT_TO_LIMITS		RAMLLD_KERNEL_AT_LEAST(6, 0, 0)
#define RAMLLD_HAVE_QUEUE_LIMITS_AT_ALLOC	RAMLLD_KERNEL_AT_LEAST(6, 9, 0)
#define RAMLLD_HAVE_BLK_FEATURES		RAMLLD_KERNEL_AT_LEAST(6, 11, 0)
#define RAMLLD_HAVE_HRTIMER_SETUP		RAMLLD_KERNEL_AT_LEAST(6, 15, 0)
#define RAMLLD_HAVE_DISCARD_QUEUE_FLAG		(!RAMLLD_KERNEL_AT_LEAST(5, 19, 0))

/* iov_iter directions: ITER_SOURCE/ITER_DEST (6.2, backported to some 6.1) */
#ifndef ITER_SOURCE
#define ITER_SOURCE	WRITE
#define ITER_DEST	READ
#endif

/* hrtimer_setup() replaced hrtimer_init() + ->function (6.15) */
static inline void
ramlld_compat_hrtimer_setup(struct hrtimer *timer,
			    enum hrtimer_restart (*fn)(struct hrtimer *))
{
#if RAMLLD_HAVE_HRTIMER_SETUP
	hrtimer_setup(timer, fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
#else
	hrtimer_init(timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	timer->function = fn;
#endif
}

/*
 * Queue limits and features. One description of what a ramlld disk
 * advertises; before 6.9 it is applied with the blk_queue_* setters after
 * allocation, from 6.9 it is passed to the allocator as struct queue_limits,
 * and from 6.11 the queue flags are lim.features.
 */
struct ramlld_disk_limits {
	unsigned int logical_block_size;
	unsigned int physical_block_size;
	unsigned int max_hw_sectors;
	unsigned int max_discard_sectors;
	unsigned int discard_granularity;
	unsigned int max_write_zeroes_sectors;
	bool write_cache;	/* volatile cache: flush and FUA are sent */
	bool io_stat;		/* iostats starts on */
	bool nowait;		/* REQ_NOWAIT supported */
};

#if RAMLLD_HAVE_QUEUE_LIMITS_AT_ALLOC
static inline void ramlld_compat_fill_limits(struct queue_limits *lim,
					     const struct ramlld_disk_limits *l)
{
	lim->logical_block_size = l->logical_block_size;
	lim->physical_block_size = l->physical_block_size;
	lim->max_hw_sectors = l->max_hw_sectors;
	lim->max_hw_discard_sectors = l->max_discard_sectors;
	lim->discard_granularity = l->discard_granularity;
	lim->max_write_zeroes_sectors = l->max_write_zeroes_sectors;
#if RAMLLD_HAVE_BLK_FEATURES
	/* lim.features: non-rotational and no add_random are the defaults */
	if (l->write_cache)
		lim->features |= BLK_FEAT_WRITE_CACHE | BLK_FEAT_FUA;
	if (l->io_stat)
		lim->features |= BLK_FEAT_IO_STAT;
	if (l->nowait)
		lim->features |= BLK_FEAT_NOWAIT;
#endif
}
#endif

/* Queue flags and write cache that 6.11 moved into lim.features. */
static inline void ramlld_compat_apply_flags(struct request_queue *q,
					     const struct ramlld_disk_limits *l)
{
#if !RAMLLD_HAVE_BLK_FEATURES
	blk_queue_flag_set(QUEUE_FLAG_NONROT, q);
	blk_queue_flag_clear(QUEUE_FLAG_ADD_RANDOM, q);
	if (l->io_stat)
		blk_queue_flag_set(QUEUE_FLAG_IO_STAT, q);
	else
		blk_queue_flag_clear(QUEUE_FLAG_IO_STAT, q);
	if (l->nowait)
		blk_queue_flag_set(QUEUE_FLAG_NOWAIT, q);
	blk_queue_write_cache(q, l->write_cache, l->write_cache);
#endif
}

#if !RAMLLD_HAVE_QUEUE_LIMITS_AT_ALLOC
static inline void ramlld_compat_apply_limits(struct request_queue *q,
					      const struct ramlld_disk_limits *l)
{
	blk_queue_logical_block_size(q, l->logical_block_size);
	blk_queue_physical_block_size(q, l->physical_block_size);
	blk_queue_max_hw_sectors(q, l->max_hw_sectors);
	blk_queue_max_discard_sectors(q, l->max_discard_sectors);
	q->limits.discard_granularity = l->discard_granularity;
	blk_queue_max_write_zeroes_sectors(q, l->max_write_zeroes_sectors);
#if RAMLLD_HAVE_DISCARD_QUEUE_FLAG
	blk_queue_flag_set(QUEUE_FLAG_DISCARD, q);
#endif
}
#endif

/* bio-based disk allocation: blk_alloc_disk(node) (5.14), (&lim, node) + ERR_PTR (6.9) */
static inline struct gendisk *ramlld_compat_alloc_disk(const struct ramlld_disk_limits *l)
{
	struct gendisk *disk;
#if RAMLLD_HAVE_QUEUE_LIMITS_AT_ALLOC
	struct queue_limits lim = { };

	ramlld_compat_fill_limits(&lim, l);
	disk = blk_alloc_disk(&lim, NUMA_NO_NODE);
	if (IS_ERR(disk))
		return disk;
#else
	disk = blk_alloc_disk(NUMA_NO_NODE);
	if (!disk)
		return ERR_PTR(-ENOMEM);
	ramlld_compat_apply_limits(disk->queue, l);
#endif
	ramlld_compat_apply_flags(disk->queue, l);
	return disk;
}

/* blk-mq disk allocation: blk_mq_alloc_disk(set, data) (5.14), (set, &lim, data) (6.9) */
static inline struct gendisk *
ramlld_compat_alloc_mq_disk(struct blk_mq_tag_set *set,
			    const struct ramlld_disk_limits *l, void *queuedata)
{
	struct gendisk *disk;
#if RAMLLD_HAVE_QUEUE_LIMITS_AT_ALLOC
	struct queue_limits lim = { };

	ramlld_compat_fill_limits(&lim, l);
	disk = blk_mq_alloc_disk(set, &lim, queuedata);
#else
	disk = blk_mq_alloc_disk(set, queuedata);
	if (!IS_ERR(disk))
		ramlld_compat_apply_limits(disk->queue, l);
#endif
	if (!IS_ERR(disk))
		ramlld_compat_apply_flags(disk->queue, l);
	return disk;
}

/* bio_split_to_limits() (6.0, returns NULL on error) replaced blk_queue_split(&bio) */
static inline struct bio *ramlld_compat_split_bio(struct bio *bio)
{
#if RAMLLD_HAVE_BIO_SPLIT_TO_LIMITS
	return bio_split_to_limits(bio);
#else
	blk_queue_split(&bio);
	return bio;
#endif
}

/* BLK_MQ_F_SHOULD_MERGE went away in 6.14: merging is the default there */
#ifdef BLK_MQ_F_SHOULD_MERGE
#define RAMLLD_BLK_MQ_F_SHOULD_MERGE	BLK_MQ_F_SHOULD_MERGE
#else
#define RAMLLD_BLK_MQ_F_SHOULD_MERGE	0
#endif

/* ---- SCSI (scsi.c): begin ---- */
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

/*
 * scsi_done(cmd) replaced cmd->scsi_done(cmd) in 5.16; stable 5.15.135+
 * carries it too. scsi_done_direct() (5.18) completes in the caller's
 * context, without blk_mq_complete_request()'s softirq or IPI.
 */
#define RAMLLD_HAVE_SCSI_DONE		(RAMLLD_KERNEL_AT_LEAST(5, 16, 0) || \
					 (RAMLLD_KERNEL_AT_LEAST(5, 15, 135) && \
					  !RAMLLD_KERNEL_AT_LEAST(5, 16, 0)))
#define RAMLLD_HAVE_SCSI_DONE_DIRECT	RAMLLD_KERNEL_AT_LEAST(5, 18, 0)
/* scsi_cmd_to_rq() (5.15) replaced cmd->request */
#define RAMLLD_HAVE_SCSI_CMD_TO_RQ	RAMLLD_KERNEL_AT_LEAST(5, 15, 0)
/* slave_alloc() became sdev_init() (6.14) */
#define RAMLLD_HAVE_SDEV_INIT		RAMLLD_KERNEL_AT_LEAST(6, 14, 0)

static inline void ramlld_compat_scsi_done(struct scsi_cmnd *cmd)
{
#if RAMLLD_HAVE_SCSI_DONE
	scsi_done(cmd);
#else
	cmd->scsi_done(cmd);
#endif
}

static inline void ramlld_compat_scsi_done_direct(struct scsi_cmnd *cmd)
{
#if RAMLLD_HAVE_SCSI_DONE_DIRECT
	scsi_done_direct(cmd);
#else
	ramlld_compat_scsi_done(cmd);
#endif
}

static inline struct request *ramlld_compat_scsi_cmd_to_rq(struct scsi_cmnd *cmd)
{
#if RAMLLD_HAVE_SCSI_CMD_TO_RQ
	return scsi_cmd_to_rq(cmd);
#else
	return cmd->request;
#endif
}

/* host template member for the hook that attaches a LUN (sdev) */
#if RAMLLD_HAVE_SDEV_INIT
#define RAMLLD_SHT_SDEV_INIT	sdev_init
#else
#define RAMLLD_SHT_SDEV_INIT	slave_alloc
#endif
/* ---- SCSI (scsi.c): end ---- */

#endif /* RAMLLD_COMPAT_H */

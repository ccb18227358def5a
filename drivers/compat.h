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

/*
 * One version test, so the rest reads as API names. Where a distribution
 * backports an API (Debian's 6.1 carries some), a feature test beats the
 * version: such cases test the symbol itself (ITER_SOURCE below).
 */
#define RAMLLD_KERNEL_AT_LEAST(a, b, c)	(LINUX_VERSION_CODE >= KERNEL_VERSION(a, b, c))

/* kmap_local_page()/kunmap_local() (5.11) */
#define RAMLLD_HAVE_KMAP_LOCAL			RAMLLD_KERNEL_AT_LEAST(5, 11, 0)
/* bio->bi_bdev (5.12) replaced bio->bi_disk */
#define RAMLLD_HAVE_BIO_BI_BDEV			RAMLLD_KERNEL_AT_LEAST(5, 12, 0)
/* blk_alloc_disk()/blk_mq_alloc_disk() (5.14) replaced queue + alloc_disk_node() */
#define RAMLLD_HAVE_BLK_ALLOC_DISK		RAMLLD_KERNEL_AT_LEAST(5, 14, 0)
/* put_disk() releases the queue too (6.0); blk_cleanup_disk() before */
#define RAMLLD_HAVE_PUT_DISK_RELEASES_QUEUE	RAMLLD_KERNEL_AT_LEAST(6, 0, 0)
/* add_disk() returns int, __must_check (5.15) */
#define RAMLLD_HAVE_ADD_DISK_RETURNS_INT	RAMLLD_KERNEL_AT_LEAST(5, 15, 0)
/* block_device_operations.submit_bio returns void (5.16), blk_qc_t before */
#define RAMLLD_HAVE_SUBMIT_BIO_VOID		RAMLLD_KERNEL_AT_LEAST(5, 16, 0)
#define RAMLLD_HAVE_BIO_SPLIT_TO_LIMITS		RAMLLD_KERNEL_AT_LEAST(6, 0, 0)
#define RAMLLD_HAVE_QUEUE_LIMITS_AT_ALLOC	RAMLLD_KERNEL_AT_LEAST(6, 9, 0)
#define RAMLLD_HAVE_BLK_FEATURES		RAMLLD_KERNEL_AT_LEAST(6, 11, 0)
#define RAMLLD_HAVE_HRTIMER_SETUP		RAMLLD_KERNEL_AT_LEAST(6, 15, 0)
#define RAMLLD_HAVE_DISCARD_QUEUE_FLAG		(!RAMLLD_KERNEL_AT_LEAST(5, 19, 0))

/*
 * An irq_work that runs in hard interrupt context even on PREEMPT_RT:
 * IRQ_WORK_INIT_HARD() (5.9); plain init_irq_work() before.
 */
#include <linux/irq_work.h>
static inline void ramlld_compat_init_irq_work_hard(struct irq_work *work,
						    void (*fn)(struct irq_work *))
{
#ifdef IRQ_WORK_INIT_HARD
	*work = IRQ_WORK_INIT_HARD(fn);
#else
	init_irq_work(work, fn);
#endif
}

/*
 * The block layer's bad-block table (linux/badblocks.h, block/badblocks.c):
 * badblocks_set() and badblocks_clear() return true on success from 6.13,
 * 0 before; badblocks_check() counts in sector_t from 6.13, int before.
 */
#include <linux/badblocks.h>
#define RAMLLD_HAVE_BADBLOCKS_BOOL	RAMLLD_KERNEL_AT_LEAST(6, 13, 0)

/* Mark [s, s + n) bad (acknowledged); false when the table is full. */
static inline bool ramlld_compat_badblocks_set(struct badblocks *bb,
					       sector_t s, sector_t n)
{
#if RAMLLD_HAVE_BADBLOCKS_BOOL
	return badblocks_set(bb, s, n, 1);
#else
	return !badblocks_set(bb, s, (int)n, 1);
#endif
}

/* Clear [s, s + n); false when a split range found the table full. */
static inline bool ramlld_compat_badblocks_clear(struct badblocks *bb,
						 sector_t s, sector_t n)
{
#if RAMLLD_HAVE_BADBLOCKS_BOOL
	return badblocks_clear(bb, s, n);
#else
	return !badblocks_clear(bb, s, (int)n);
#endif
}

/*
 * Whether [s, s + n) (n at most INT_MAX) holds a bad sector; *first is
 * then the first one. badblocks_check() gives the start of the first bad
 * range that overlaps, which may lie before s. Does not sleep (seqlock).
 */
static inline bool ramlld_compat_badblocks_first(struct badblocks *bb,
						 sector_t s, sector_t n,
						 sector_t *first)
{
#if RAMLLD_HAVE_BADBLOCKS_BOOL
	sector_t len;
#else
	int len;
#endif
	sector_t bad;

	if (!badblocks_check(bb, s, n, &bad, &len))
		return false;
	*first = max(bad, s);
	return true;
}

/*
 * The fault-injection framework (linux/fault-inject.h): should_fail() on a
 * struct fault_attr, its knobs in debugfs (fault_create_debugfs_attr()),
 * where the kernel has CONFIG_FAULT_INJECTION; Debian's stock kernels have
 * not. There a counter stands in for the one rule every_nth and timeout_nth
 * need: fail every interval-th call. Either way the knobs (module
 * parameters, configfs) set the interval alone.
 */
#ifdef CONFIG_FAULT_INJECTION
#include <linux/fault-inject.h>
#define RAMLLD_HAVE_FAULT_INJECTION	1

struct ramlld_fault_attr {
	struct fault_attr attr;
};

static inline void ramlld_compat_fault_attr_init(struct ramlld_fault_attr *fa)
{
	fa->attr = (struct fault_attr)FAULT_ATTR_INITIALIZER;
	/* a test knob fails often: no log line and stack per failure */
	fa->attr.verbose = 0;
	fa->attr.probability = 0;
	atomic_set(&fa->attr.times, -1);
}

/* Fail every n-th call from the next one on, 0 never (debugfs may refine it). */
static inline void ramlld_compat_fault_attr_set_every(struct ramlld_fault_attr *fa,
						      unsigned int n)
{
	WRITE_ONCE(fa->attr.probability, 0);
	fa->attr.count = 0;
	fa->attr.interval = n;
	atomic_set(&fa->attr.times, -1);
	WRITE_ONCE(fa->attr.probability, n ? 100 : 0);
}

/*
 * Whether this call fails. Only an armed attribute asks should_fail(),
 * which also counts down the caller's /proc/self/fail-nth. Its count is
 * not atomic: concurrent callers may share one number, as in null_blk.
 */
static inline bool ramlld_compat_should_fail(struct ramlld_fault_attr *fa)
{
	return READ_ONCE(fa->attr.probability) && should_fail(&fa->attr, 1);
}

/* probability, interval, times, verbose... as <parent>/<name>/ in debugfs. */
static inline void ramlld_compat_fault_attr_debugfs(struct ramlld_fault_attr *fa,
						    const char *name,
						    struct dentry *parent)
{
	/* optional: ERR_PTR without CONFIG_FAULT_INJECTION_DEBUG_FS */
	fault_create_debugfs_attr(name, parent, &fa->attr);
}

/* After debugfs_remove_recursive(parent): the reference the directory kept. */
static inline void ramlld_compat_fault_attr_exit(struct ramlld_fault_attr *fa)
{
	dput(fa->attr.dname);
	fa->attr.dname = NULL;
}
#else
#define RAMLLD_HAVE_FAULT_INJECTION	0

struct ramlld_fault_attr {
	unsigned int interval;
	atomic_t count;
};

static inline void ramlld_compat_fault_attr_init(struct ramlld_fault_attr *fa)
{
	fa->interval = 0;
	atomic_set(&fa->count, 0);
}

static inline void ramlld_compat_fault_attr_set_every(struct ramlld_fault_attr *fa,
						      unsigned int n)
{
	WRITE_ONCE(fa->interval, 0);
	atomic_set(&fa->count, 0);
	WRITE_ONCE(fa->interval, n);
}

static inline bool ramlld_compat_should_fail(struct ramlld_fault_attr *fa)
{
	unsigned int n = READ_ONCE(fa->interval);

	return n && !((unsigned int)atomic_inc_return(&fa->count) % n);
}

static inline void ramlld_compat_fault_attr_debugfs(struct ramlld_fault_attr *fa,
						    const char *name,
						    struct dentry *parent)
{
}

static inline void ramlld_compat_fault_attr_exit(struct ramlld_fault_attr *fa)
{
}
#endif

/* blk_mq_ops->timeout lost its 'reserved' argument (6.0) */
#if RAMLLD_KERNEL_AT_LEAST(6, 0, 0)
#define RAMLLD_MQ_TIMEOUT_ARGS	struct request *rq
#else
#define RAMLLD_MQ_TIMEOUT_ARGS	struct request *rq, bool reserved
#endif

/*
 * kmap_local_page() (5.11): before it, kmap_atomic(), which disables
 * preemption: the store maps a page only around a copy, after any allocation
 * that may sleep.
 */
#if !RAMLLD_HAVE_KMAP_LOCAL
#include <linux/highmem.h>
#define kmap_local_page(page)	kmap_atomic(page)
#define kunmap_local(addr)	kunmap_atomic(addr)
#endif

/*
 * A page of a bio_vec mapped for one copy: page_address() where every page
 * is in the direct map (no CONFIG_HIGHMEM: every 64-bit kernel), so the copy
 * pays no mapping (nor, before 5.11, kmap_atomic()'s preemption and page
 * fault switches); kmap_local_page() where the page may be highmem.
 */
static inline void *ramlld_kmap(struct page *page)
{
#ifdef CONFIG_HIGHMEM
	return kmap_local_page(page);
#else
	return page_address(page);
#endif
}

static inline void ramlld_kunmap(void *addr)
{
#ifdef CONFIG_HIGHMEM
	kunmap_local(addr);
#endif
}

/*
 * nth_page() is gone after 6.12 (a macro in 6.12's headers, absent from 7.2's):
 * the pages of a bio_vec are then contiguous in the memory map, so that the
 * n-th page is page + n. Feature test: it was a macro.
 */
#ifndef nth_page
#define nth_page(page, n)	((page) + (n))
#endif

/* The disk a bio is for: bio->bi_bdev->bd_disk (5.12), bio->bi_disk before */
static inline struct gendisk *ramlld_compat_bio_disk(struct bio *bio)
{
#if RAMLLD_HAVE_BIO_BI_BDEV
	return bio->bi_bdev->bd_disk;
#else
	return bio->bi_disk;
#endif
}

/*
 * submit_bio returns void (5.16); before, blk_qc_t. The driver writes a void
 * function FN and names RAMLLD_COMPAT_SUBMIT_BIO(FN) in its fops, after
 * RAMLLD_COMPAT_DEFINE_SUBMIT_BIO(FN), which defines the wrapper where needed.
 */
#if RAMLLD_HAVE_SUBMIT_BIO_VOID
#define RAMLLD_COMPAT_DEFINE_SUBMIT_BIO(fn)
#define RAMLLD_COMPAT_SUBMIT_BIO(fn)	fn
#else
#define RAMLLD_COMPAT_DEFINE_SUBMIT_BIO(fn)				\
	static blk_qc_t fn##_qc(struct bio *bio)			\
	{								\
		fn(bio);						\
		return BLK_QC_T_NONE;					\
	}
#define RAMLLD_COMPAT_SUBMIT_BIO(fn)	fn##_qc
#endif

/* add_disk() can fail (5.15); before, it returned void */
static inline int __must_check ramlld_compat_add_disk(struct gendisk *disk)
{
#if RAMLLD_HAVE_ADD_DISK_RETURNS_INT
	return add_disk(disk);
#else
	add_disk(disk);
	return 0;
#endif
}

/*
 * Drop a disk from ramlld_compat_alloc_disk()/_alloc_mq_disk(), after
 * del_gendisk() or when add_disk() failed: put_disk() (6.0),
 * blk_cleanup_disk() (5.14), blk_cleanup_queue() + put_disk() before.
 */
static inline void ramlld_compat_put_disk(struct gendisk *disk)
{
#if RAMLLD_HAVE_PUT_DISK_RELEASES_QUEUE
	put_disk(disk);
#elif RAMLLD_HAVE_BLK_ALLOC_DISK
	blk_cleanup_disk(disk);
#else
	blk_cleanup_queue(disk->queue);
	put_disk(disk);
#endif
}

/*
 * blk_mq_ops.init_request's NUMA node is an int in 7.x (unsigned int through
 * 6.12, as Debian's trixie headers show; 7.2 has int). No symbol marks the
 * change, so a version decides; only 6.12 and 7.2 were checked, 7.0 is
 * assumed: if a 6.13-7.1 kernel disagrees, mq.c fails to build, fix it here.
 */
#define RAMLLD_HAVE_INIT_REQUEST_INT_NODE	RAMLLD_KERNEL_AT_LEAST(7, 0, 0)
#if RAMLLD_HAVE_INIT_REQUEST_INT_NODE
#define RAMLLD_NUMA_NODE_T	int
#else
#define RAMLLD_NUMA_NODE_T	unsigned int
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
	unsigned int max_sectors;	/* max_sectors_kb's default */
	unsigned int max_discard_sectors;
	unsigned int discard_granularity;
	unsigned int max_write_zeroes_sectors;
	bool write_cache;	/* volatile cache: flush and FUA are sent */
	bool io_stat;		/* iostats starts on */
	bool nowait;		/* REQ_NOWAIT supported */
	bool rotational;	/* rotational, add_random on (else neither) */
};

#if RAMLLD_HAVE_QUEUE_LIMITS_AT_ALLOC
static inline void ramlld_compat_fill_limits(struct queue_limits *lim,
					     const struct ramlld_disk_limits *l)
{
	lim->logical_block_size = l->logical_block_size;
	lim->physical_block_size = l->physical_block_size;
	lim->max_hw_sectors = l->max_hw_sectors;
	lim->max_user_sectors = l->max_sectors;
	lim->max_hw_discard_sectors = l->max_discard_sectors;
	lim->discard_granularity = l->discard_granularity;
	lim->max_write_zeroes_sectors = l->max_write_zeroes_sectors;
#if RAMLLD_HAVE_BLK_FEATURES
	/* lim.features: non-rotational and no add_random are the defaults */
	if (l->rotational)
		lim->features |= BLK_FEAT_ROTATIONAL | BLK_FEAT_ADD_RANDOM;
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
	if (l->rotational) {
		blk_queue_flag_clear(QUEUE_FLAG_NONROT, q);
		blk_queue_flag_set(QUEUE_FLAG_ADD_RANDOM, q);
	} else {
		blk_queue_flag_set(QUEUE_FLAG_NONROT, q);
		blk_queue_flag_clear(QUEUE_FLAG_ADD_RANDOM, q);
	}
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
	/* the setter made it min(max_hw_sectors, BLK_DEF_MAX_SECTORS) */
	q->limits.max_sectors = l->max_sectors;
	blk_queue_max_discard_sectors(q, l->max_discard_sectors);
	q->limits.discard_granularity = l->discard_granularity;
	blk_queue_max_write_zeroes_sectors(q, l->max_write_zeroes_sectors);
#if RAMLLD_HAVE_DISCARD_QUEUE_FLAG
	blk_queue_flag_set(QUEUE_FLAG_DISCARD, q);
#endif
}
#endif

#if !RAMLLD_HAVE_BLK_ALLOC_DISK
/*
 * Before 5.14: a queue, then a disk pointing at it. Minors 0 here: the
 * driver sets disk->minors before add_disk(), as with blk_alloc_disk().
 */
static inline struct gendisk *ramlld_compat_disk_on_queue(struct request_queue *q)
{
	struct gendisk *disk = alloc_disk_node(0, NUMA_NO_NODE);

	if (!disk) {
		blk_cleanup_queue(q);
		return ERR_PTR(-ENOMEM);
	}
	disk->queue = q;
	return disk;
}
#endif

/*
 * bio-based disk allocation: blk_alloc_queue(node) + alloc_disk_node() (5.9),
 * blk_alloc_disk(node) (5.14), blk_alloc_disk(&lim, node) + ERR_PTR (6.9).
 * Returns an ERR_PTR on failure, never NULL.
 */
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
#if RAMLLD_HAVE_BLK_ALLOC_DISK
	disk = blk_alloc_disk(NUMA_NO_NODE);
	if (!disk)
		return ERR_PTR(-ENOMEM);
#else
	struct request_queue *q = blk_alloc_queue(NUMA_NO_NODE);

	if (!q)
		return ERR_PTR(-ENOMEM);
	disk = ramlld_compat_disk_on_queue(q);
	if (IS_ERR(disk))
		return disk;
#endif
	ramlld_compat_apply_limits(disk->queue, l);
#endif
	ramlld_compat_apply_flags(disk->queue, l);
	return disk;
}

/*
 * blk-mq disk allocation: blk_mq_init_queue_data() + alloc_disk_node() (5.7),
 * blk_mq_alloc_disk(set, data) (5.14), (set, &lim, data) (6.9). ERR_PTR on failure.
 */
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
#if RAMLLD_HAVE_BLK_ALLOC_DISK
	disk = blk_mq_alloc_disk(set, queuedata);
#else
	struct request_queue *q = blk_mq_init_queue_data(set, queuedata);

	disk = IS_ERR(q) ? ERR_CAST(q) : ramlld_compat_disk_on_queue(q);
#endif
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

/*
 * How many opened the whole disk (any partition counts): disk_openers()
 * (5.19); before it, the bd_openers of the whole disk's block_device.
 */
#define RAMLLD_HAVE_DISK_OPENERS	RAMLLD_KERNEL_AT_LEAST(5, 19, 0)
static inline unsigned int ramlld_compat_disk_openers(struct gendisk *disk)
{
#if RAMLLD_HAVE_DISK_OPENERS
	return disk_openers(disk);
#else
	struct block_device *bdev = bdget_disk(disk, 0);
	unsigned int n;

	if (!bdev)
		return 0;
	n = bdev->bd_openers;
	bdput(bdev);
	return n;
#endif
}

/* BLK_MQ_F_SHOULD_MERGE went away in 6.14: merging is the default there */
#ifdef BLK_MQ_F_SHOULD_MERGE
#define RAMLLD_BLK_MQ_F_SHOULD_MERGE	BLK_MQ_F_SHOULD_MERGE
#else
#define RAMLLD_BLK_MQ_F_SHOULD_MERGE	0
#endif

/*
 * Polled I/O and batching (docs/design.md, "Polled I/O and batching").
 * HCTX_TYPE_POLL, ->poll and nr_maps exist on every kernel ramlld builds
 * for (5.0). ->poll gained the caller's io_comp_batch and
 * blk_mq_add_to_batch()/blk_mq_end_request_batch() in 5.16; before, each
 * polled request ends alone with blk_mq_end_request(). ->queue_rqs (5.17)
 * takes a struct request ** list, a struct rq_list * from 6.13.
 * ->map_queues returns void from 6.0, int before.
 */
#define RAMLLD_HAVE_IO_COMP_BATCH		RAMLLD_KERNEL_AT_LEAST(5, 16, 0)
#define RAMLLD_HAVE_QUEUE_RQS			RAMLLD_KERNEL_AT_LEAST(5, 17, 0)
#define RAMLLD_HAVE_MAP_QUEUES_VOID		RAMLLD_KERNEL_AT_LEAST(6, 0, 0)
/*
 * struct rq_list (6.13; Debian's 6.12.118 has it too): a feature test, the
 * list helpers were macros before it (rq_list_empty among them).
 */
#ifdef rq_list_empty
#define RAMLLD_HAVE_RQ_LIST_TYPE		0
#else
#define RAMLLD_HAVE_RQ_LIST_TYPE		1
#endif

#if RAMLLD_HAVE_MAP_QUEUES_VOID
#define RAMLLD_MAP_QUEUES_T	void
#else
#define RAMLLD_MAP_QUEUES_T	int
#endif

/*
 * ->poll(hctx, iob) (5.16), ->poll(hctx) before: the driver names its
 * batch RAMLLD_POLL_IOB, which is NULL where there is none.
 */
#if RAMLLD_HAVE_IO_COMP_BATCH
#define RAMLLD_MQ_POLL_ARGS	struct blk_mq_hw_ctx *hctx, struct io_comp_batch *iob
#define RAMLLD_POLL_IOB		iob
#else
struct io_comp_batch;
#define RAMLLD_MQ_POLL_ARGS	struct blk_mq_hw_ctx *hctx
#define RAMLLD_POLL_IOB		((struct io_comp_batch *)NULL)
#endif

/*
 * Hand a finished request to the caller's batch of completions, ended
 * later in one blk_mq_end_request_batch(); false when it must end alone:
 * no batch (5.10, a synchronous poller, no batching asked), an error, a
 * scheduler's or an end_io request (blk_mq_add_to_batch() refuses those).
 */
static inline bool ramlld_compat_add_to_batch(struct request *rq,
					      struct io_comp_batch *iob,
					      blk_status_t status)
{
#if RAMLLD_HAVE_IO_COMP_BATCH
	/* the third argument: an int, a bool from 6.14 (and Debian 6.12.118) */
	return blk_mq_add_to_batch(rq, iob, status != BLK_STS_OK,
				   blk_mq_end_request_batch);
#else
	return false;
#endif
}

#if RAMLLD_HAVE_QUEUE_RQS
#if RAMLLD_HAVE_RQ_LIST_TYPE
#define RAMLLD_QUEUE_RQS_ARGS		struct rq_list *rqlist
#else
#define RAMLLD_QUEUE_RQS_ARGS		struct request **rqlist
#endif

/*
 * ->queue_rqs bypasses blk_mq_get_driver_tag(), which is what records a
 * request in its tag map (tags->rqs[]): the timeout scan and the in-flight
 * count find requests there, so the driver records it, as nvme and
 * virtio_blk do in their ->queue_rqs.
 */
static inline void ramlld_compat_queue_rqs_prep(struct request *rq)
{
	rq->mq_hctx->tags->rqs[rq->tag] = rq;
}
#endif

/* ---- SCSI (scsi.c): begin ---- */
#include <scsi/scsi.h>
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
/*
 * queuecommand returns enum scsi_qc_status (7.x), int before; the same change
 * turned SCSI_MLQUEUE_* from macros into that enum's constants: a feature test.
 */
#ifdef SCSI_MLQUEUE_HOST_BUSY
#define RAMLLD_QC_STATUS_T	int
#else
#define RAMLLD_QC_STATUS_T	enum scsi_qc_status
#endif
/*
 * shost->opt_sectors (6.0) caps the max_sectors sd gives a disk; before,
 * sd makes it min(max transfer, BLK_DEF_MAX_SECTORS): 1280 KiB.
 */
#define RAMLLD_HAVE_SHOST_OPT_SECTORS	RAMLLD_KERNEL_AT_LEAST(6, 0, 0)

/* slave_alloc() became sdev_init() (6.14) */
#define RAMLLD_HAVE_SDEV_INIT		RAMLLD_KERNEL_AT_LEAST(6, 14, 0)

/*
 * Polled SCSI: shost->nr_maps and the template's ->mq_poll (5.13); before,
 * a host has one queue map and cannot poll.
 */
#define RAMLLD_HAVE_SCSI_MQ_POLL	RAMLLD_KERNEL_AT_LEAST(5, 13, 0)
/*
 * ->eh_timed_out returns enum scsi_timeout_action (6.2): SCSI_EH_NOT_HANDLED
 * goes on to error handling, SCSI_EH_RESET_TIMER waits another timeout.
 * Before, BLK_EH_DONE and BLK_EH_RESET_TIMER said the same.
 */
#if RAMLLD_KERNEL_AT_LEAST(6, 2, 0)
#define RAMLLD_SCSI_TIMEOUT_T		enum scsi_timeout_action
#define RAMLLD_SCSI_EH_NOT_HANDLED	SCSI_EH_NOT_HANDLED
#define RAMLLD_SCSI_EH_RESET_TIMER	SCSI_EH_RESET_TIMER
#else
#define RAMLLD_SCSI_TIMEOUT_T		enum blk_eh_timer_return
#define RAMLLD_SCSI_EH_NOT_HANDLED	BLK_EH_DONE
#define RAMLLD_SCSI_EH_RESET_TIMER	BLK_EH_RESET_TIMER
#endif

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

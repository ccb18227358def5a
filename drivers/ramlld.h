/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ramlld.h - the shared RAM store, its parameters and the front-end entry points.
 *
 * One store per device index is shared by every front end (bio, blk-mq, SCSI):
 * the front ends translate their command into byte ranges of the store and call
 * the ramlld_store_* verbs below; none of them copies data itself.
 */
#ifndef RAMLLD_H
#define RAMLLD_H

#include <linux/types.h>
#include <linux/bio.h>
#include <linux/blk_types.h>
#include <linux/hrtimer.h>
#include <linux/spinlock.h>

#define RAMLLD_NAME		"ramlld"
#define RAMLLD_MAX_DEVICES	256

/* Front ends, as bits of the mode= parameter. */
#define RAMLLD_MODE_BIO		0x1
#define RAMLLD_MODE_MQ		0x2
#define RAMLLD_MODE_SCSI	0x4

/* Where and how a command completes; shared by the mq and SCSI front ends. */
enum ramlld_irqmode {
	RAMLLD_IRQ_NONE = 0,	/* inline, in the submitting context */
	RAMLLD_IRQ_SOFTIRQ = 1,	/* blk_mq_complete_request(): rq_affinity decides the CPU */
	RAMLLD_IRQ_TIMER = 2,	/* hrtimer after completion_nsec, then as SOFTIRQ */
};

/* Module parameters (main.c). Read-only after load unless noted. */
extern unsigned int ramlld_nr_devices;
extern unsigned long ramlld_capacity_mb;
extern unsigned int ramlld_sector_size;		/* logical block size */
extern unsigned int ramlld_physical_block_size;
extern bool ramlld_prealloc;
extern unsigned int ramlld_modes;		/* RAMLLD_MODE_* bits */
extern unsigned int ramlld_irqmode;
extern unsigned long ramlld_completion_nsec;
extern unsigned int ramlld_hw_queue_depth;
extern unsigned int ramlld_nr_hw_queues;	/* 0: one per CPU */
extern bool ramlld_write_cache;
extern bool ramlld_shared_tags;		/* mq: one tag set for every device */
extern bool ramlld_blocking;		/* mq: BLK_MQ_F_BLOCKING */
/* Writable at run time through /sys/module/ramlld/parameters/. */
extern bool ramlld_throw_away_reads;
extern bool ramlld_throw_away_writes;

/*
 * Fault injection (main.c; docs/design.md, "Fault injection"), writable at
 * run time. ramlld_faults holds a RAMLLD_FAULT_* bit per armed knob and is 0
 * when none is: an I/O path reads it once (ramlld_faults_armed()) and does
 * nothing more while it is 0.
 */
#define RAMLLD_FAULT_BADBLOCKS		0x1
#define RAMLLD_FAULT_EVERY_NTH		0x2
#define RAMLLD_FAULT_TIMEOUT_NTH	0x4
extern unsigned int ramlld_faults;

static inline bool ramlld_faults_armed(void)
{
	return unlikely(READ_ONCE(ramlld_faults));
}

/* The badblocks= range, in bytes: [start, end). Replaced whole, under RCU. */
struct ramlld_badrange {
	u64 start;
	u64 end;
	struct rcu_head rcu;
};

extern struct ramlld_badrange __rcu *ramlld_badrange;

/* Front ends, each with its own every_nth / timeout_nth command count. */
enum ramlld_fe {
	RAMLLD_FE_BIO,
	RAMLLD_FE_MQ,
	RAMLLD_FE_SCSI,
	RAMLLD_FE_COUNT,
};

/* What every_nth / timeout_nth make of one command. */
enum ramlld_fault {
	RAMLLD_FAULT_NONE = 0,
	RAMLLD_FAULT_ERROR,	/* fail it: EIO, or MEDIUM ERROR on SCSI */
	RAMLLD_FAULT_TIMEOUT,	/* never complete it: the timeout handler does */
};

/*
 * Count one read or write command of front end fe and say which fault it
 * gets. can_time_out: the front end has a timeout handler (not bio).
 * Call only when ramlld_faults_armed(). Does not sleep.
 */
enum ramlld_fault ramlld_fault_nth(enum ramlld_fe fe, bool can_time_out);

/*
 * The store: a flat table of page pointers, one per PAGE_SIZE of capacity.
 * Pages are allocated at load (prealloc) or on first write, never on read
 * (a hole reads as zeros). Writers serialise per store page on a striped
 * spinlock so that concurrent writes to one logical block never mix; readers
 * take no lock. Discarded pages are freed after an RCU grace period.
 */
struct ramlld_store;

struct ramlld_store *ramlld_store_create(unsigned int index, u64 capacity_bytes,
					 bool prealloc);
void ramlld_store_destroy(struct ramlld_store *store);
u64 ramlld_store_capacity(const struct ramlld_store *store);

/*
 * Copy the data of one bio (from its current bi_iter; a flush has none), or
 * of one bio_vec, between the store at byte offset pos and its pages; write
 * picks the direction for a bio_vec. Return 0, -EINVAL for a range outside
 * the store, -ENOMEM when a lazily allocated page cannot be had (the caller
 * fails the I/O). may_sleep: the caller may sleep (GFP_NOIO), else
 * GFP_ATOMIC; neither sleeps when may_sleep is false.
 */
int ramlld_store_rw_bio(struct ramlld_store *store, struct bio *bio, u64 pos,
			bool may_sleep);
int ramlld_store_rw_bvec(struct ramlld_store *store, u64 pos,
			 const struct bio_vec *bv, bool write, bool may_sleep);
/*
 * The first byte of [pos, pos + len) inside the badblocks= range, or
 * RAMLLD_STORE_NO_BAD. Call only when ramlld_faults_armed(). Does not sleep.
 */
#define RAMLLD_STORE_NO_BAD	U64_MAX
u64 ramlld_store_first_bad(const struct ramlld_store *store, u64 pos, u64 len);
/* Zero a byte range: whole pages are freed (lazy) or cleared (prealloc). */
int ramlld_store_discard(struct ramlld_store *store, u64 pos, u64 len);
/* Fill a byte range with copies of one logical block (WRITE SAME). */
int ramlld_store_fill(struct ramlld_store *store, u64 pos, u64 len,
		      const void *block, unsigned int block_len, bool may_sleep);

extern struct ramlld_store *ramlld_stores[RAMLLD_MAX_DEVICES];

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

/* Largest request either block front end accepts, in 512-byte sectors (1 MiB). */
#define RAMLLD_MAX_HW_SECTORS	2048
/*
 * Largest discard, write-zeroes, UNMAP command or WRITE SAME: bounds the
 * pages one request frees or zeroes where the CPU cannot be given up
 * (queue_rq, queuecommand). 64 MiB, as the SCSI front end's VPD B0 says.
 */
#define RAMLLD_MAX_DISCARD_BYTES	(64u << 20)

struct ramlld_disk_limits;
/* The queue limits every block front end advertises (main.c). */
void ramlld_disk_limits_init(struct ramlld_disk_limits *lim);

/* Front ends: init registers every device of that front end, exit removes them. */
int ramlld_bio_init(void);
void ramlld_bio_exit(void);
int ramlld_mq_init(void);
void ramlld_mq_exit(void);
int ramlld_scsi_init(void);
void ramlld_scsi_exit(void);

#endif /* RAMLLD_H */

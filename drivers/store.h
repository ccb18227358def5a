/* SPDX-License-Identifier: GPL-2.0 */
/*
 * store.h - the RAM store's verbs (store.c, store_bio.c), included by
 * ramlld.h. It needs no block layer type beyond the names below, so that
 * store.c compiles on the host against tests/unit/store_shim.h.
 *
 * The store: a flat table of pages, one per PAGE_SIZE of capacity, allocated
 * at creation (prealloc) or on first write, never on read (a hole reads as
 * zeros). Writers serialise per store page on a bit lock in its slot so
 * that concurrent writes to one logical block never mix; readers take no
 * lock.
 * Discarded pages are freed after an RCU grace period.
 */
#ifndef RAMLLD_STORE_H
#define RAMLLD_STORE_H

#include <linux/types.h>

struct ramlld_store;
struct bio;
struct bio_vec;
struct request;

struct ramlld_store *ramlld_store_create(u64 capacity_bytes, bool prealloc);
void ramlld_store_destroy(struct ramlld_store *store);
u64 ramlld_store_capacity(const struct ramlld_store *store);
/* throw_away_reads/writes: transfers in that direction copy no data. */
void ramlld_store_set_throw_away(struct ramlld_store *store, bool reads,
				 bool writes);

/*
 * Copy the data of one bio (from its current bi_iter; a flush has none), of
 * every bio of a request, or of one bio_vec, between the store at byte
 * offset pos and its pages; write picks the direction for a bio_vec.
 * Return 0, -EINVAL for a range outside the store, -ENOMEM when a lazily
 * allocated page cannot be had (the caller fails the I/O). may_sleep: the
 * caller may sleep (GFP_NOIO), else GFP_NOWAIT; neither sleeps when
 * may_sleep is false.
 */
int ramlld_store_rw_bio(struct ramlld_store *store, struct bio *bio, u64 pos,
			bool may_sleep);
int ramlld_store_rw_rq(struct ramlld_store *store, struct request *rq, u64 pos,
		       bool may_sleep);
int ramlld_store_rw_bvec(struct ramlld_store *store, u64 pos,
			 const struct bio_vec *bv, bool write, bool may_sleep);
/*
 * Zero a byte range: whole pages are freed (lazy) or cleared (prealloc),
 * parts of pages cleared. 0 or -EINVAL. Does not sleep.
 */
int ramlld_store_discard(struct ramlld_store *store, u64 pos, u64 len);
/*
 * Fill a byte range with copies of one logical block (WRITE SAME): pos and
 * len multiples of block_len, which divides PAGE_SIZE. 0, -EINVAL, -ENOMEM
 * as above (the pages before the failing one are written).
 */
int ramlld_store_fill(struct ramlld_store *store, u64 pos, u64 len,
		      const void *block, unsigned int block_len, bool may_sleep);

/*
 * The bytes from pos (at most len; whole store pages but for the first) that
 * share pos's page state, *mapped set to it: a page is there (written since
 * it was last discarded, or prealloc) or a hole. 0 for a range outside the
 * store. Does not sleep.
 */
u64 ramlld_store_mapped_run(struct ramlld_store *store, u64 pos, u64 len,
			    bool *mapped);
/*
 * Compare len bytes of buf (or of a bio_vec) with the store at pos: 0 when
 * equal, 1 with *mismatch set to the offset of the first byte that differs,
 * -EINVAL for a range outside the store. A hole compares as zeros. Does not
 * sleep.
 */
int ramlld_store_compare(struct ramlld_store *store, u64 pos, const void *buf,
			 u32 len, u32 *mismatch);
int ramlld_store_compare_bvec(struct ramlld_store *store, u64 pos,
			      const struct bio_vec *bv, u32 *mismatch);
/*
 * COMPARE AND WRITE: compare len (<= PAGE_SIZE) bytes of cmp with the store
 * at pos and, if equal, write len bytes of data there, with no other writer
 * of those pages in between. 0 written, 1 miscompare (*mismatch as above,
 * nothing written), -ENOMEM (a hole's page could not be had, GFP_NOWAIT),
 * -EINVAL. Does not sleep.
 */
int ramlld_store_compare_and_write(struct ramlld_store *store, u64 pos,
				   const void *cmp, const void *data, u32 len,
				   u32 *mismatch);

#endif /* RAMLLD_STORE_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * store_bio.c - the store's walks of a bio and of a request: the part of
 * the store that iterates block layer structures, apart from store.c so
 * that store.c compiles on the host for its unit tests.
 *
 * A bio of one segment that lies inside one page on both sides (every
 * aligned I/O of at most a page) is copied inline: no iterator, no chunk
 * loop; anything else (and a write to a hole) goes through
 * bio_for_each_segment() and ramlld_store_rw_pages().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/bio.h>
#include <linux/blk-mq.h>

#include "store_impl.h"

/* Every segment of bio from its bi_iter, each split where a store page ends. */
static noinline int ramlld_store_rw_segments(struct ramlld_store *store,
					     struct bio *bio, u64 pos,
					     bool write, bool may_sleep)
{
	struct bvec_iter iter;
	struct bio_vec bv;
	int err;

	bio_for_each_segment(bv, bio, iter) {
		err = ramlld_store_rw_pages(store, pos, bv.bv_page, bv.bv_offset,
					    bv.bv_len, write, may_sleep);
		if (unlikely(err))
			return err;
		pos += bv.bv_len;
	}
	return 0;
}

/*
 * Whether the data of bio from its bi_iter is one segment inside one page on
 * both sides (from bi_iter: a split or cloned bio starts inside a shared
 * bi_io_vec). Both ends inside one page: a | b is at least a and b, and a
 * bv_offset past the first page fails it; one test where two cost one
 * instruction more (the object for 6.1).
 */
static __always_inline bool ramlld_store_bio_in_page(const struct bio *bio,
						     const struct bio_vec *bv,
						     u64 pos)
{
	unsigned int len = bio->bi_iter.bi_size;

	return !bio->bi_iter.bi_bvec_done && bv->bv_len == len &&
	       (bv->bv_offset | offset_in_page(pos)) + len <= PAGE_SIZE;
}

/* The data of one bio with data, its range checked by the caller. */
static __always_inline int ramlld_store_bio_data(struct ramlld_store *store,
						 struct bio *bio, u64 pos,
						 bool write, bool may_sleep)
{
	const struct bio_vec *bv = &bio->bi_io_vec[bio->bi_iter.bi_idx];

	if (likely(ramlld_store_bio_in_page(bio, bv, pos)))
		return ramlld_store_rw_page(store, pos, bv->bv_page,
					    bv->bv_offset, bv->bv_len, write,
					    may_sleep);
	return ramlld_store_rw_segments(store, bio, pos, write, may_sleep);
}

/*
 * One direction each, called last (a jump): the checks before them save no
 * register and each copy is inlined without a test of the direction. A
 * 4 KiB read through ramlld_store_rw_bio() runs 62 instructions besides
 * copy_page() this way, 71 with one function for both directions (three
 * registers saved and restored, the direction tested twice): counted in the
 * object built for 6.1 (gcc 12, x86-64).
 */
static noinline int ramlld_store_read_bio(struct ramlld_store *store,
					  struct bio *bio, u64 pos)
{
	return ramlld_store_bio_data(store, bio, pos, false, false);
}

/*
 * A write to a page that is there, copied under its slot's lock; anything
 * else (a hole's page may need a sleeping allocation) through the walk of
 * segments. The fast path then keeps nothing alive for a hole: a 4 KiB
 * write through ramlld_store_rw_bio() runs 67 instructions besides
 * copy_page(), 74 with the hole's call made from here (the object for 6.1).
 */
static noinline int ramlld_store_write_bio(struct ramlld_store *store,
					   struct bio *bio, u64 pos,
					   bool may_sleep)
{
	const struct bio_vec *bv = &bio->bi_io_vec[bio->bi_iter.bi_idx];
	unsigned long *slot;
	void *addr;

	if (likely(ramlld_store_bio_in_page(bio, bv, pos))) {
		slot = ramlld_store_slot(store, pos >> PAGE_SHIFT);
		addr = ramlld_store_lock_present(store, slot);
		if (likely(addr)) {
			ramlld_store_write_locked(store, slot,
						  addr + offset_in_page(pos),
						  bv->bv_page, bv->bv_offset,
						  bv->bv_len);
			return 0;
		}
	}
	return ramlld_store_rw_segments(store, bio, pos, true, may_sleep);
}

int ramlld_store_rw_bio(struct ramlld_store *store, struct bio *bio, u64 pos,
			bool may_sleep)
{
	bool write = op_is_write(bio_op(bio));

	if (unlikely(!ramlld_store_range_ok(store, pos, bio->bi_iter.bi_size)))
		return -EINVAL;
	/* A flush is an empty write: no bi_io_vec to look at. */
	if (unlikely(!bio->bi_iter.bi_size) ||
	    ramlld_store_throw_away(store, write))
		return 0;
	if (write)
		return ramlld_store_write_bio(store, bio, pos, may_sleep);
	return ramlld_store_read_bio(store, bio, pos);
}

/* A request of several bios, one after the other from pos. */
static noinline int ramlld_store_rw_bios(struct ramlld_store *store,
					 struct request *rq, u64 pos,
					 bool write, bool may_sleep)
{
	struct bio *bio;
	int err;

	__rq_for_each_bio(bio, rq) {
		if (!bio->bi_iter.bi_size)
			continue;
		err = ramlld_store_bio_data(store, bio, pos, write, may_sleep);
		if (unlikely(err))
			return err;
		pos += bio->bi_iter.bi_size;
	}
	return 0;
}

/* Every bio of a request, in order, from pos on: the mq and SCSI request walk. */
int ramlld_store_rw_rq(struct ramlld_store *store, struct request *rq, u64 pos,
		       bool may_sleep)
{
	bool write = op_is_write(req_op(rq));
	unsigned int bytes = blk_rq_bytes(rq);

	if (unlikely(!ramlld_store_range_ok(store, pos, bytes)))
		return -EINVAL;
	if (unlikely(!bytes) || ramlld_store_throw_away(store, write))
		return 0;
	if (unlikely(rq->bio->bi_next))
		return ramlld_store_rw_bios(store, rq, pos, write, may_sleep);
	if (write)
		return ramlld_store_write_bio(store, rq->bio, pos, may_sleep);
	return ramlld_store_read_bio(store, rq->bio, pos);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * store.c - the RAM store every front end reads and writes.
 *
 * A store is a flat table of page pointers, one per PAGE_SIZE of capacity,
 * so a lookup is one load (brd walks an xarray). Pages come at load
 * (prealloc) or on first write; a hole reads as zeros. Writers take the
 * striped lock of the store page they copy into, so two writers of one
 * logical block (never larger than a page) cannot interleave. Readers take
 * no lock: they run under rcu_read_lock(), and a discarded page is freed by
 * call_rcu() only after every reader that could see it is gone.
 *
 * All data moves through ramlld_store_copy_bvec(): every front end hands it
 * bio_vecs (of a bio, or of a passthrough buffer), so no front end has a
 * copy loop of its own.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/mm.h>
#include <linux/highmem.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/blk-mq.h>

#include "ramlld.h"
#include "compat.h"

#define RAMLLD_LOCK_STRIPES	256	/* power of two */
#define RAMLLD_RESERVE_DIVISOR	16	/* lazy stores leave 1/16 of RAM to the system */

struct ramlld_lock_stripe {
	spinlock_t lock;	/* serialises writers of the store pages hashed here */
} ____cacheline_aligned_in_smp;

struct ramlld_store {
	bool prealloc;
	bool throw_away_reads;		/* reads copy nothing (run time) */
	bool throw_away_writes;		/* writes store nothing (run time) */
	u64 capacity;			/* bytes */
	unsigned long nr_pages;
	struct page **pages;		/* nr_pages slots; NULL is a hole */
	struct ramlld_lock_stripe locks[RAMLLD_LOCK_STRIPES];
};

u64 ramlld_store_capacity(const struct ramlld_store *store)
{
	return store->capacity;
}
EXPORT_SYMBOL_GPL(ramlld_store_capacity);

static inline spinlock_t *ramlld_store_lock(struct ramlld_store *store,
					    unsigned long idx)
{
	return &store->locks[idx & (RAMLLD_LOCK_STRIPES - 1)].lock;
}

static inline bool ramlld_store_range_ok(const struct ramlld_store *store,
					 u64 pos, u64 len)
{
	return pos <= store->capacity && len <= store->capacity - pos;
}

static void ramlld_store_free_page_rcu(struct rcu_head *head)
{
	__free_page(container_of(head, struct page, rcu_head));
}

/*
 * The page table, zeroed. kvmalloc() refuses more than INT_MAX bytes (5.15+),
 * which the largest store's table (1 TiB: 2 GiB of pointers) exceeds: that one
 * comes from vmalloc directly.
 */
static struct page **ramlld_store_alloc_table(unsigned long nr_pages)
{
	const gfp_t gfp = GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN;
	size_t bytes = array_size(nr_pages, sizeof(struct page *));

	if (bytes <= INT_MAX)
		return kvzalloc(bytes, gfp);
	return __vmalloc(bytes, gfp | __GFP_ZERO);
}

struct ramlld_store *ramlld_store_create(u64 capacity_bytes, bool prealloc)
{
	struct ramlld_store *store;
	unsigned long i, needed;

	store = kzalloc(sizeof(*store), GFP_KERNEL);
	if (!store)
		return ERR_PTR(-ENOMEM);
	store->prealloc = prealloc;
	store->capacity = capacity_bytes;
	store->nr_pages = DIV_ROUND_UP_ULL(capacity_bytes, PAGE_SIZE);
	for (i = 0; i < RAMLLD_LOCK_STRIPES; i++)
		spin_lock_init(&store->locks[i].lock);

	/*
	 * Refuse what cannot fit before taking it: grabbing all memory page by
	 * page and failing at the end would starve everything else meanwhile.
	 */
	needed = DIV_ROUND_UP(store->nr_pages * sizeof(*store->pages), PAGE_SIZE);
	if (prealloc)
		needed += store->nr_pages;
	if ((long)needed > si_mem_available())
		goto fail;
	store->pages = ramlld_store_alloc_table(store->nr_pages);
	if (!store->pages)
		goto fail;
	if (!prealloc)
		return store;

	for (i = 0; i < store->nr_pages; i++) {
		store->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO |
					     __GFP_NORETRY | __GFP_NOWARN);
		if (!store->pages[i] || fatal_signal_pending(current))
			goto fail;
		cond_resched();
	}
	return store;

fail:
	ramlld_store_destroy(store);
	return ERR_PTR(-ENOMEM);
}

/* Called once no front end can reach the store any more. */
void ramlld_store_destroy(struct ramlld_store *store)
{
	unsigned long i;

	if (!store)
		return;
	/* discards may still have pages waiting for their grace period */
	rcu_barrier();
	if (store->pages) {
		for (i = 0; i < store->nr_pages; i++) {
			if (store->pages[i])
				__free_page(store->pages[i]);
			if (!(i & 0xfff))
				cond_resched();
		}
		kvfree(store->pages);
	}
	kfree(store);
}

/*
 * The page at idx for a write, allocated if it is a hole. may_sleep picks
 * GFP_NOIO (never recursing into I/O, never the OOM killer thanks to
 * __GFP_NORETRY) or, for callers that cannot sleep, GFP_NOWAIT: no direct
 * reclaim and no dip into the reserves the kernel keeps for its own atomic
 * work (one WRITE SAME may want thousands of pages).
 */
static struct page *ramlld_store_page_for_write(struct ramlld_store *store,
						unsigned long idx, bool may_sleep)
{
	struct page *page = READ_ONCE(store->pages[idx]);
	struct page *old;
	gfp_t gfp;

	if (likely(page))
		return page;
	/*
	 * Leave the rest of the system a reserve: a store that takes the last
	 * pages gets a swapless machine OOM-killed or panicked, where it
	 * should fail its own writes. Only asked on a hole's first write.
	 */
	if (si_mem_available() < (long)(totalram_pages() / RAMLLD_RESERVE_DIVISOR))
		return NULL;
	gfp = may_sleep ? GFP_NOIO | __GFP_NORETRY : GFP_NOWAIT;
	page = alloc_page(gfp | __GFP_ZERO | __GFP_NOWARN);
	if (!page)
		return NULL;
	old = cmpxchg(&store->pages[idx], NULL, page);
	if (old) {
		__free_page(page);
		return old;
	}
	return page;
}

/*
 * Lock the stripe of idx with the page for writing in place. Returns the
 * page with the stripe held, or NULL (no memory) with nothing held. A
 * discard may empty the slot between lookup and lock: look again.
 */
static struct page *ramlld_store_lock_page(struct ramlld_store *store,
					   unsigned long idx, bool may_sleep)
{
	spinlock_t *lock = ramlld_store_lock(store, idx);
	struct page *page;

	for (;;) {
		page = ramlld_store_page_for_write(store, idx, may_sleep);
		if (!page)
			return NULL;
		spin_lock(lock);
		if (likely(READ_ONCE(store->pages[idx]) == page))
			return page;
		spin_unlock(lock);
	}
}

/*
 * The one copy primitive. Both ends lie inside one page, so a whole-page
 * chunk is page-aligned at both ends and goes through copy_page(), the
 * kernel's page copy; the rest through memcpy().
 */
static inline void ramlld_store_copy(void *dst, const void *src, unsigned int len)
{
	if (len == PAGE_SIZE)
		copy_page(dst, (void *)src);	/* x86 copy_page() lacks const */
	else
		memcpy(dst, src, len);
}

/*
 * Read n bytes at off of store page idx into bpage at boff; a hole reads as
 * zeros.
 */
static void ramlld_store_read_chunk(struct ramlld_store *store, unsigned long idx,
				    unsigned int off, struct page *bpage,
				    unsigned int boff, unsigned int n)
{
	void *buf = kmap_local_page(bpage);
	struct page *page;
	void *addr;

	rcu_read_lock();
	page = READ_ONCE(store->pages[idx]);
	if (page) {
		addr = kmap_local_page(page);
		ramlld_store_copy(buf + boff, addr + off, n);
		kunmap_local(addr);
	} else {
		memset(buf + boff, 0, n);
	}
	rcu_read_unlock();
	kunmap_local(buf);
}

/*
 * Write n bytes of bpage at boff to off of store page idx, allocating a hole.
 * bpage is mapped only once the store page is there: the allocation may sleep,
 * and before 5.11 the mapping is kmap_atomic(), which must not.
 */
static int ramlld_store_write_chunk(struct ramlld_store *store, unsigned long idx,
				    unsigned int off, struct page *bpage,
				    unsigned int boff, unsigned int n,
				    bool may_sleep)
{
	struct page *page;
	void *addr, *buf;

	page = ramlld_store_lock_page(store, idx, may_sleep);
	if (unlikely(!page))
		return -ENOMEM;
	buf = kmap_local_page(bpage);
	addr = kmap_local_page(page);
	ramlld_store_copy(addr + off, buf + boff, n);
	kunmap_local(addr);
	kunmap_local(buf);
	spin_unlock(ramlld_store_lock(store, idx));
	return 0;
}

/*
 * Move len bytes at offset of page (a bio_vec, which may span several
 * contiguous pages) between those pages and the store at pos, in chunks that
 * cross neither a store page nor a page of the bio_vec. The bio_vec comes by
 * value: a pointer to the caller's copy would make it an address-taken local,
 * which costs its caller a stack canary on every bio (stack protector).
 */
static int ramlld_store_copy_bvec(struct ramlld_store *store, u64 pos,
				  struct page *page, unsigned int offset,
				  unsigned int len, bool write, bool may_sleep)
{
	unsigned int done = 0;
	int err = 0;

	while (done < len) {
		unsigned int boff = offset + done;
		struct page *bpage = nth_page(page, boff >> PAGE_SHIFT);
		unsigned int soff = offset_in_page(pos);
		unsigned int n;

		boff = offset_in_page(boff);
		n = min3(len - done, (unsigned int)PAGE_SIZE - soff,
			 (unsigned int)PAGE_SIZE - boff);
		if (write)
			err = ramlld_store_write_chunk(store, pos >> PAGE_SHIFT, soff,
						       bpage, boff, n, may_sleep);
		else
			ramlld_store_read_chunk(store, pos >> PAGE_SHIFT, soff,
						bpage, boff, n);
		if (unlikely(err))
			return err;
		pos += n;
		done += n;
	}
	return 0;
}

void ramlld_store_set_throw_away(struct ramlld_store *store, bool reads,
				 bool writes)
{
	WRITE_ONCE(store->throw_away_reads, reads);
	WRITE_ONCE(store->throw_away_writes, writes);
}

/* Whether transfers in this direction skip the data (throw_away_reads/writes). */
static inline bool ramlld_store_throw_away(const struct ramlld_store *store,
					   bool write)
{
	return write ? READ_ONCE(store->throw_away_writes) :
		       READ_ONCE(store->throw_away_reads);
}

int ramlld_store_rw_bvec(struct ramlld_store *store, u64 pos,
			 const struct bio_vec *bv, bool write, bool may_sleep)
{
	if (unlikely(!ramlld_store_range_ok(store, pos, bv->bv_len)))
		return -EINVAL;
	if (ramlld_store_throw_away(store, write))
		return 0;
	return ramlld_store_copy_bvec(store, pos, bv->bv_page, bv->bv_offset,
				      bv->bv_len, write, may_sleep);
}
EXPORT_SYMBOL_GPL(ramlld_store_rw_bvec);

int ramlld_store_rw_bio(struct ramlld_store *store, struct bio *bio, u64 pos,
			bool may_sleep)
{
	bool write = op_is_write(bio_op(bio));
	struct bvec_iter iter;
	struct bio_vec bv;
	int err;

	if (unlikely(!ramlld_store_range_ok(store, pos, bio->bi_iter.bi_size)))
		return -EINVAL;
	/* A flush is an empty write: no bi_io_vec to look at. */
	if (unlikely(!bio->bi_iter.bi_size) ||
	    ramlld_store_throw_away(store, write))
		return 0;
	/*
	 * From bi_iter: a split or cloned bio starts inside a shared
	 * bi_io_vec. A bio of one segment (every page-aligned 4 KiB I/O) needs
	 * no iterator to advance after its copy.
	 */
	bv = bio_iter_iovec(bio, bio->bi_iter);
	if (likely(bv.bv_len == bio->bi_iter.bi_size))
		return ramlld_store_copy_bvec(store, pos, bv.bv_page, bv.bv_offset,
					      bv.bv_len, write, may_sleep);
	bio_for_each_segment(bv, bio, iter) {
		err = ramlld_store_copy_bvec(store, pos, bv.bv_page, bv.bv_offset,
					     bv.bv_len, write, may_sleep);
		if (unlikely(err))
			return err;
		pos += bv.bv_len;
	}
	return 0;
}

/* Every bio of a request, in order, from pos on: the mq and SCSI request walk. */
int ramlld_store_rw_rq(struct ramlld_store *store, struct request *rq, u64 pos,
		       bool may_sleep)
{
	struct bio *bio;
	int err;

	__rq_for_each_bio(bio, rq) {
		err = ramlld_store_rw_bio(store, bio, pos, may_sleep);
		if (err)
			return err;
		pos += bio->bi_iter.bi_size;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(ramlld_store_rw_rq);

/* Zero [off, off + len) of a page the caller has locked. */
static void ramlld_store_zero_locked(struct page *page, unsigned int off,
				     unsigned int len)
{
	void *addr = kmap_local_page(page);

	memset(addr + off, 0, len);
	kunmap_local(addr);
}

int ramlld_store_discard(struct ramlld_store *store, u64 pos, u64 len)
{
	if (unlikely(!ramlld_store_range_ok(store, pos, len)))
		return -EINVAL;

	while (len) {
		unsigned long idx = pos >> PAGE_SHIFT;
		unsigned int off = offset_in_page(pos);
		unsigned int chunk = min_t(u64, len, PAGE_SIZE - off);
		spinlock_t *lock = ramlld_store_lock(store, idx);
		struct page *page;

		spin_lock(lock);
		page = READ_ONCE(store->pages[idx]);
		if (page && (chunk < PAGE_SIZE || store->prealloc)) {
			ramlld_store_zero_locked(page, off, chunk);
			page = NULL;
		} else if (page) {
			WRITE_ONCE(store->pages[idx], NULL);
		}
		spin_unlock(lock);
		if (page)
			call_rcu(&page->rcu_head, ramlld_store_free_page_rcu);
		pos += chunk;
		len -= chunk;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(ramlld_store_discard);

int ramlld_store_fill(struct ramlld_store *store, u64 pos, u64 len,
		      const void *block, unsigned int block_len, bool may_sleep)
{
	if (unlikely(!ramlld_store_range_ok(store, pos, len) || !block_len ||
		     PAGE_SIZE % block_len || pos % block_len || len % block_len))
		return -EINVAL;
	if (ramlld_store_throw_away(store, true))
		return 0;

	while (len) {
		unsigned long idx = pos >> PAGE_SHIFT;
		unsigned int off = offset_in_page(pos);
		unsigned int chunk = min_t(u64, len, PAGE_SIZE - off);
		struct page *page;
		unsigned int o;
		void *addr;

		page = ramlld_store_lock_page(store, idx, may_sleep);
		if (unlikely(!page))
			return -ENOMEM;
		addr = kmap_local_page(page);
		for (o = off; o < off + chunk; o += block_len)
			memcpy(addr + o, block, block_len);
		kunmap_local(addr);
		spin_unlock(ramlld_store_lock(store, idx));
		pos += chunk;
		len -= chunk;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(ramlld_store_fill);

u64 ramlld_store_mapped_run(struct ramlld_store *store, u64 pos, u64 len,
			    bool *mapped)
{
	unsigned long idx = pos >> PAGE_SHIFT;
	u64 run;
	bool m;

	if (unlikely(!ramlld_store_range_ok(store, pos, len) || !len))
		return 0;
	/* a snapshot: slots change under concurrent writes and discards */
	m = READ_ONCE(store->pages[idx]);
	run = PAGE_SIZE - offset_in_page(pos);
	while (run < len && !READ_ONCE(store->pages[++idx]) == !m)
		run += PAGE_SIZE;
	*mapped = m;
	return min(run, len);
}
EXPORT_SYMBOL_GPL(ramlld_store_mapped_run);

/*
 * Compare n bytes at off of store page idx with buf: the offset of the first
 * byte that differs, or n. A hole compares as zeros.
 */
static unsigned int ramlld_store_compare_chunk(struct ramlld_store *store,
					       unsigned long idx, unsigned int off,
					       const u8 *buf, unsigned int n)
{
	const u8 *diff;
	u8 *addr;	/* kunmap_atomic() before 5.11 takes no const */
	struct page *page;
	unsigned int i = n;

	rcu_read_lock();
	page = READ_ONCE(store->pages[idx]);
	if (page) {
		addr = kmap_local_page(page);
		if (memcmp(addr + off, buf, n))
			for (i = 0; i < n && addr[off + i] == buf[i]; i++)
				;
		kunmap_local(addr);
	} else {
		diff = memchr_inv(buf, 0, n);
		if (diff)
			i = diff - buf;
	}
	rcu_read_unlock();
	return i;
}

int ramlld_store_compare(struct ramlld_store *store, u64 pos, const void *buf,
			 u32 len, u32 *mismatch)
{
	u32 done = 0;

	if (unlikely(!ramlld_store_range_ok(store, pos, len)))
		return -EINVAL;
	while (done < len) {
		unsigned int off = offset_in_page(pos + done);
		unsigned int n = min_t(u32, len - done, PAGE_SIZE - off);
		unsigned int i;

		i = ramlld_store_compare_chunk(store, (pos + done) >> PAGE_SHIFT,
					       off, buf + done, n);
		if (i < n) {
			*mismatch = done + i;
			return 1;
		}
		done += n;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(ramlld_store_compare);

int ramlld_store_compare_bvec(struct ramlld_store *store, u64 pos,
			      const struct bio_vec *bv, u32 *mismatch)
{
	unsigned int done = 0;
	int ret;

	while (done < bv->bv_len) {
		unsigned int boff = bv->bv_offset + done;
		struct page *bpage = nth_page(bv->bv_page, boff >> PAGE_SHIFT);
		unsigned int n;
		void *buf;

		boff = offset_in_page(boff);
		n = min_t(unsigned int, bv->bv_len - done, PAGE_SIZE - boff);
		buf = kmap_local_page(bpage);
		ret = ramlld_store_compare(store, pos + done, buf + boff, n,
					   mismatch);
		kunmap_local(buf);
		if (ret) {
			if (ret > 0)
				*mismatch += done;
			return ret;
		}
		done += n;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(ramlld_store_compare_bvec);

/*
 * Lock the stripes of store pages first..last (at most two: consecutive
 * pages never share a stripe), the lower stripe first.
 */
static void ramlld_store_lock_two(struct ramlld_store *store,
				  unsigned long first, unsigned long last)
{
	spinlock_t *a = ramlld_store_lock(store, first);
	spinlock_t *b = ramlld_store_lock(store, last);

	if (a == b) {
		spin_lock(a);
		return;
	}
	if (a > b)
		swap(a, b);
	spin_lock(a);
	spin_lock_nested(b, SINGLE_DEPTH_NESTING);
}

static void ramlld_store_unlock_two(struct ramlld_store *store,
				    unsigned long first, unsigned long last)
{
	spinlock_t *a = ramlld_store_lock(store, first);
	spinlock_t *b = ramlld_store_lock(store, last);

	if (a != b)
		spin_unlock(b);
	spin_unlock(a);
}

int ramlld_store_compare_and_write(struct ramlld_store *store, u64 pos,
				   const void *cmp, const void *data, u32 len,
				   u32 *mismatch)
{
	unsigned long first = pos >> PAGE_SHIFT, last, idx;
	u32 done;
	int ret;

	if (unlikely(!ramlld_store_range_ok(store, pos, len) || !len ||
		     len > PAGE_SIZE))
		return -EINVAL;
	last = (pos + len - 1) >> PAGE_SHIFT;
	/*
	 * Every writer of these pages takes their stripe, so nothing writes
	 * them between the compare and the write. Readers take no lock: one
	 * may see the write half done, as with any write.
	 */
	ramlld_store_lock_two(store, first, last);
	ret = ramlld_store_compare(store, pos, cmp, len, mismatch);
	if (ret || ramlld_store_throw_away(store, true))
		goto out;
	/* a hole gets its page now, under the stripe: no discard can race */
	for (idx = first; idx <= last; idx++) {
		if (!ramlld_store_page_for_write(store, idx, false)) {
			ret = -ENOMEM;
			goto out;
		}
	}
	for (done = 0; done < len;) {
		unsigned int off = offset_in_page(pos + done);
		unsigned int n = min_t(u32, len - done, PAGE_SIZE - off);
		struct page *page = READ_ONCE(store->pages[(pos + done) >> PAGE_SHIFT]);
		void *addr = kmap_local_page(page);

		memcpy(addr + off, data + done, n);
		kunmap_local(addr);
		done += n;
	}
out:
	ramlld_store_unlock_two(store, first, last);
	return ret;
}
EXPORT_SYMBOL_GPL(ramlld_store_compare_and_write);

// SPDX-License-Identifier: GPL-2.0
/*
 * store.c - the RAM store every front end reads and writes.
 *
 * A store is a flat table of page addresses, one per PAGE_SIZE of capacity,
 * so a lookup is one load (brd walks an xarray). Pages come at load
 * (prealloc) or on first write; a hole reads as zeros. Writers take the
 * bit lock in the slot of the store page they write, so two writers of one
 * logical block (never larger than a page) cannot interleave. Readers take
 * no lock: a discarded page is freed by call_rcu() only after every reader
 * that could see it is gone.
 *
 * The front ends' pages (bio_vecs of a bio, a request or a passthrough
 * buffer) move through ramlld_store_rw_page() (store_impl.h); fill, compare
 * and compare-and-write take kernel buffers and copy them here. This file
 * uses no block layer iteration (store_bio.c has it), so that it compiles on
 * the host for its unit tests (tests/unit/store_test.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/bvec.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "store_impl.h"

#define RAMLLD_RESERVE_DIVISOR	16	/* lazy stores leave 1/16 of RAM to the system */

u64 ramlld_store_capacity(const struct ramlld_store *store)
{
	return store->capacity;
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
static void **ramlld_store_alloc_table(unsigned long nr_pages)
{
	const gfp_t gfp = GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN;
	size_t bytes = array_size(nr_pages, sizeof(void *));

	if (bytes <= INT_MAX)
		return kvzalloc(bytes, gfp);
	return __vmalloc(bytes, gfp | __GFP_ZERO);
}

struct ramlld_store *ramlld_store_create(u64 capacity_bytes, bool prealloc)
{
	static struct lock_class_key slots_key;
	struct ramlld_store *store;
	unsigned long i, needed;

	store = kzalloc(sizeof(*store), GFP_KERNEL);
	if (!store)
		return ERR_PTR(-ENOMEM);
	store->prealloc = prealloc;
	store->capacity = capacity_bytes;
	store->nr_pages = DIV_ROUND_UP_ULL(capacity_bytes, PAGE_SIZE);
	lockdep_init_map(&store->slots_map, "ramlld_store_slot", &slots_key, 0);

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
		store->pages[i] = (void *)get_zeroed_page(GFP_KERNEL | __GFP_NORETRY |
							  __GFP_NOWARN);
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
				free_page((unsigned long)store->pages[i]);
			if (!(i & 0xfff))
				cond_resched();
		}
		kvfree(store->pages);
	}
	kfree(store);
}

/*
 * Give the hole at idx a zeroed page (or find the one a concurrent writer
 * gave it): its address, or NULL. The page is had with the slot unlocked
 * and put in under its lock. may_sleep picks GFP_NOIO (never recursing into I/O, never the
 * OOM killer thanks to __GFP_NORETRY) or, for callers that cannot sleep,
 * GFP_NOWAIT: no direct reclaim and no dip into the reserves the kernel
 * keeps for its own atomic work (one WRITE SAME may want thousands of pages).
 */
void *ramlld_store_alloc_page(struct ramlld_store *store, unsigned long idx,
			      bool may_sleep)
{
	unsigned long *slot = ramlld_store_slot(store, idx);
	unsigned long page;
	void *addr;
	gfp_t gfp;

	/*
	 * Leave the rest of the system a reserve: a store that takes the last
	 * pages gets a swapless machine OOM-killed or panicked, where it
	 * should fail its own writes. Only asked on a hole's first write.
	 */
	if (si_mem_available() < (long)(totalram_pages() / RAMLLD_RESERVE_DIVISOR))
		return NULL;
	gfp = may_sleep ? GFP_NOIO | __GFP_NORETRY : GFP_NOWAIT;
	page = get_zeroed_page(gfp | __GFP_NOWARN);
	if (!page)
		return NULL;
	ramlld_store_lock(store, slot, 0);
	addr = ramlld_slot_page(slot);
	if (!addr) {
		addr = (void *)page;
		page = 0;
		WRITE_ONCE(*slot, (unsigned long)addr | RAMLLD_SLOT_LOCKED);
	}
	ramlld_store_unlock(store, slot);
	if (page)
		free_page(page);
	return addr;
}

/*
 * The store page at idx locked for writing in place, given a page if it is a
 * hole: its address with the slot locked, or NULL (no memory) with nothing
 * held. The allocation comes outside the lock: it may sleep.
 */
static void *ramlld_store_lock_page(struct ramlld_store *store,
				    unsigned long idx, bool may_sleep)
{
	void *addr;

	/* a discard may empty the slot again before the lock is ours */
	while (!(addr = ramlld_store_lock_present(store,
						  ramlld_store_slot(store, idx)))) {
		if (!ramlld_store_alloc_page(store, idx, may_sleep))
			return NULL;
	}
	return addr;
}

int ramlld_store_write_hole(struct ramlld_store *store, u64 pos,
			    struct page *bpage, unsigned int boff,
			    unsigned int len, bool may_sleep)
{
	unsigned long idx = pos >> PAGE_SHIFT;
	void *addr = ramlld_store_lock_page(store, idx, may_sleep);

	if (unlikely(!addr))
		return -ENOMEM;
	ramlld_store_write_locked(store, ramlld_store_slot(store, idx),
				  addr + offset_in_page(pos), bpage, boff, len);
	return 0;
}

int ramlld_store_rw_pages(struct ramlld_store *store, u64 pos,
			  struct page *page, unsigned int offset,
			  unsigned int len, bool write, bool may_sleep)
{
	unsigned int done = 0;
	int err;

	while (done < len) {
		unsigned int boff = offset + done;
		struct page *bpage = nth_page(page, boff >> PAGE_SHIFT);
		unsigned int soff = offset_in_page(pos);
		unsigned int n;

		boff = offset_in_page(boff);
		n = min3(len - done, (unsigned int)PAGE_SIZE - soff,
			 (unsigned int)PAGE_SIZE - boff);
		err = ramlld_store_rw_page(store, pos, bpage, boff, n, write,
					   may_sleep);
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

int ramlld_store_rw_bvec(struct ramlld_store *store, u64 pos,
			 const struct bio_vec *bv, bool write, bool may_sleep)
{
	if (unlikely(!ramlld_store_range_ok(store, pos, bv->bv_len)))
		return -EINVAL;
	if (ramlld_store_throw_away(store, write))
		return 0;
	return ramlld_store_rw_pages(store, pos, bv->bv_page, bv->bv_offset,
				     bv->bv_len, write, may_sleep);
}

int ramlld_store_discard(struct ramlld_store *store, u64 pos, u64 len)
{
	if (unlikely(!ramlld_store_range_ok(store, pos, len)))
		return -EINVAL;

	while (len) {
		unsigned long idx = pos >> PAGE_SHIFT;
		unsigned int off = offset_in_page(pos);
		unsigned int chunk = min_t(u64, len, PAGE_SIZE - off);
		unsigned long *slot = ramlld_store_slot(store, idx);
		void *addr;

		ramlld_store_lock(store, slot, 0);
		addr = ramlld_slot_page(slot);
		if (addr && (chunk < PAGE_SIZE || store->prealloc)) {
			memset(addr + off, 0, chunk);
			addr = NULL;
		} else if (addr) {
			/* a hole, still locked */
			WRITE_ONCE(*slot, RAMLLD_SLOT_LOCKED);
		}
		ramlld_store_unlock(store, slot);
		if (addr)
			call_rcu(&virt_to_page(addr)->rcu_head,
				 ramlld_store_free_page_rcu);
		pos += chunk;
		len -= chunk;
	}
	return 0;
}

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
		unsigned int o;
		void *addr;

		addr = ramlld_store_lock_page(store, idx, may_sleep);
		if (unlikely(!addr))
			return -ENOMEM;
		for (o = off; o < off + chunk; o += block_len)
			memcpy(addr + o, block, block_len);
		ramlld_store_unlock(store, ramlld_store_slot(store, idx));
		pos += chunk;
		len -= chunk;
	}
	return 0;
}

u64 ramlld_store_mapped_run(struct ramlld_store *store, u64 pos, u64 len,
			    bool *mapped)
{
	unsigned long idx = pos >> PAGE_SHIFT;
	u64 run;
	bool m;

	if (unlikely(!ramlld_store_range_ok(store, pos, len) || !len))
		return 0;
	/* a snapshot: slots change under concurrent writes and discards */
	m = ramlld_store_page(store, idx);
	run = PAGE_SIZE - offset_in_page(pos);
	while (run < len && !ramlld_store_page(store, ++idx) == !m)
		run += PAGE_SIZE;
	*mapped = m;
	return min(run, len);
}

/*
 * Compare n bytes at off of store page idx with buf: the offset of the first
 * byte that differs, or n. A hole compares as zeros.
 */
static unsigned int ramlld_store_compare_chunk(struct ramlld_store *store,
					       unsigned long idx, unsigned int off,
					       const u8 *buf, unsigned int n)
{
	const u8 *addr, *diff;
	unsigned int i = n;

	rcu_read_lock_sched();
	addr = ramlld_store_page(store, idx);
	if (addr) {
		if (memcmp(addr + off, buf, n))
			for (i = 0; i < n && addr[off + i] == buf[i]; i++)
				;
	} else {
		diff = memchr_inv(buf, 0, n);
		if (diff)
			i = diff - buf;
	}
	rcu_read_unlock_sched();
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

int ramlld_store_compare_bvec(struct ramlld_store *store, u64 pos,
			      const struct bio_vec *bv, u32 *mismatch)
{
	unsigned int done = 0;
	int ret;

	/* the whole range first: a miscompare before the end must not hide it */
	if (unlikely(!ramlld_store_range_ok(store, pos, bv->bv_len)))
		return -EINVAL;
	while (done < bv->bv_len) {
		unsigned int boff = bv->bv_offset + done;
		struct page *bpage = nth_page(bv->bv_page, boff >> PAGE_SHIFT);
		unsigned int n;
		void *buf;

		boff = offset_in_page(boff);
		n = min_t(unsigned int, bv->bv_len - done, PAGE_SIZE - boff);
		buf = ramlld_kmap(bpage);
		ret = ramlld_store_compare(store, pos + done, buf + boff, n,
					   mismatch);
		ramlld_kunmap(buf);
		if (ret) {
			if (ret > 0)
				*mismatch += done;
			return ret;
		}
		done += n;
	}
	return 0;
}

/* Lock the slots of store pages first..last (at most two), the lower first. */
static void ramlld_store_lock_two(struct ramlld_store *store,
				  unsigned long first, unsigned long last)
{
	ramlld_store_lock(store, ramlld_store_slot(store, first), 0);
	if (last != first)
		ramlld_store_lock(store, ramlld_store_slot(store, last),
				  SINGLE_DEPTH_NESTING);
}

static void ramlld_store_unlock_two(struct ramlld_store *store,
				    unsigned long first, unsigned long last)
{
	if (last != first)
		ramlld_store_unlock(store, ramlld_store_slot(store, last));
	ramlld_store_unlock(store, ramlld_store_slot(store, first));
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
	 * Every writer of these pages takes their lock, so nothing writes
	 * them between the compare and the write. Readers take no lock: one
	 * may see the write half done, as with any write.
	 */
again:
	ramlld_store_lock_two(store, first, last);
	ret = ramlld_store_compare(store, pos, cmp, len, mismatch);
	if (ret || ramlld_store_throw_away(store, true))
		goto out;
	for (idx = first; idx <= last; idx++) {
		if (ramlld_store_page(store, idx))
			continue;
		/*
		 * A hole that matched gets its page with the locks let go
		 * (the allocator must not run with preemption off on
		 * PREEMPT_RT), then the compare runs again: another writer
		 * may have come in between.
		 */
		ramlld_store_unlock_two(store, first, last);
		if (!ramlld_store_alloc_page(store, idx, false))
			return -ENOMEM;
		goto again;
	}
	for (done = 0; done < len;) {
		unsigned int off = offset_in_page(pos + done);
		unsigned int n = min_t(u32, len - done, PAGE_SIZE - off);
		void *addr = ramlld_store_page(store, (pos + done) >> PAGE_SHIFT);

		memcpy(addr + off, data + done, n);
		done += n;
	}
out:
	ramlld_store_unlock_two(store, first, last);
	return ret;
}

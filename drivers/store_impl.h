/* SPDX-License-Identifier: GPL-2.0 */
/*
 * store_impl.h - the store's layout and its one-page copy, for store.c and
 * store_bio.c only (no front end includes it): the bio and request walks
 * inline the copy of a segment that lies inside one page.
 */
#ifndef RAMLLD_STORE_IMPL_H
#define RAMLLD_STORE_IMPL_H

#include <linux/mm.h>
#include <linux/highmem.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>

#include "store.h"
#ifdef __KERNEL__
#include "compat.h"		/* ramlld_kmap(), nth_page(): the host shim has its own */
#endif

#define RAMLLD_LOCK_STRIPES	256	/* power of two */

struct ramlld_lock_stripe {
	spinlock_t lock;	/* serialises writers of the store pages hashed here */
} ____cacheline_aligned_in_smp;

/*
 * pages[] holds each page's kernel address, not its struct page: store
 * pages are never highmem (no __GFP_HIGHMEM), so the address is the one a
 * copy needs and a lookup is one load.
 */
struct ramlld_store {
	void **pages;			/* nr_pages slots; NULL is a hole */
	bool prealloc;
	bool throw_away_reads;		/* reads copy nothing (run time) */
	bool throw_away_writes;		/* writes store nothing (run time) */
	u64 capacity;			/* bytes */
	unsigned long nr_pages;
	struct ramlld_lock_stripe locks[RAMLLD_LOCK_STRIPES];
};

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

/* Whether transfers in this direction skip the data (throw_away_reads/writes). */
static inline bool ramlld_store_throw_away(const struct ramlld_store *store,
					   bool write)
{
	return write ? READ_ONCE(store->throw_away_writes) :
		       READ_ONCE(store->throw_away_reads);
}

/* A hole's page (store.c): its address, or NULL when there is no memory. */
void *ramlld_store_alloc_page(struct ramlld_store *store, unsigned long idx,
			      bool may_sleep);

/*
 * The store page at idx locked for writing in place: its address with the
 * stripe held, or NULL (no memory) with nothing held. A discard may empty
 * the slot between the lookup and the lock: look again.
 */
static inline void *ramlld_store_lock_page(struct ramlld_store *store,
					   unsigned long idx, bool may_sleep)
{
	spinlock_t *lock = ramlld_store_lock(store, idx);
	void *addr;

	for (;;) {
		addr = READ_ONCE(store->pages[idx]);
		if (unlikely(!addr)) {
			addr = ramlld_store_alloc_page(store, idx, may_sleep);
			if (!addr)
				return NULL;
		}
		spin_lock(lock);
		if (likely(READ_ONCE(store->pages[idx]) == addr))
			return addr;
		spin_unlock(lock);
	}
}

/*
 * The one copy primitive. Both ends lie inside one page, so a whole-page
 * copy is page-aligned at both ends and goes through copy_page(), the
 * kernel's page copy; the rest through memcpy().
 */
static __always_inline void ramlld_store_copy(void *dst, const void *src,
					      unsigned int len)
{
	if (len == PAGE_SIZE)
		copy_page(dst, (void *)src);	/* x86 copy_page() lacks const */
	else
		memcpy(dst, src, len);
}

/*
 * Move len bytes between the store at pos and bpage at boff; neither range
 * crosses a page. A hole reads as zeros. A reader runs with preemption off
 * (rcu_read_lock_sched()): call_rcu(), which frees a discarded page, waits
 * for such readers as well (one RCU since 4.20), and it costs two
 * instructions where rcu_read_lock() under PREEMPT_RCU is two calls. A
 * writer maps bpage only once the store page is there: the allocation may
 * sleep, and before 5.11 a highmem mapping is kmap_atomic(), which must not.
 */
static __always_inline int ramlld_store_rw_page(struct ramlld_store *store,
						u64 pos, struct page *bpage,
						unsigned int boff,
						unsigned int len, bool write,
						bool may_sleep)
{
	unsigned long idx = pos >> PAGE_SHIFT;
	unsigned int soff = offset_in_page(pos);
	void *addr, *buf;

	if (write) {
		addr = ramlld_store_lock_page(store, idx, may_sleep);
		if (unlikely(!addr))
			return -ENOMEM;
		buf = ramlld_kmap(bpage);
		ramlld_store_copy(addr + soff, buf + boff, len);
		ramlld_kunmap(buf);
		spin_unlock(ramlld_store_lock(store, idx));
		return 0;
	}
	buf = ramlld_kmap(bpage);
	rcu_read_lock_sched();
	addr = READ_ONCE(store->pages[idx]);
	if (likely(addr))
		ramlld_store_copy(buf + boff, addr + soff, len);
	else
		memset(buf + boff, 0, len);
	rcu_read_unlock_sched();
	ramlld_kunmap(buf);
	return 0;
}

/*
 * Move len bytes between offset of page (a run of contiguous pages: a
 * bio_vec) and the store at pos, in chunks that cross neither a store page nor a page
 * of the run; the range is checked by the caller.
 */
int ramlld_store_rw_pages(struct ramlld_store *store, u64 pos,
			  struct page *page, unsigned int offset,
			  unsigned int len, bool write, bool may_sleep);

#endif /* RAMLLD_STORE_IMPL_H */

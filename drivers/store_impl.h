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
#include <linux/bit_spinlock.h>
#include <linux/lockdep.h>

#include "store.h"
#ifdef __KERNEL__
#include "compat.h"		/* ramlld_kmap(), nth_page(): the host shim has its own */
#endif

#define RAMLLD_LOCK_STRIPES	256	/* power of two */

/*
 * Bit 0 of lock is a bit spinlock over the writers of the store pages hashed
 * here: inlined, where spin_lock() and spin_unlock() are two out-of-line
 * calls on a preemptible kernel. The word holds nothing else, so the holder
 * clears the bit without an atomic operation. Held with preemption off, as
 * spin_lock() would have it, over at most one page's copy (compare-and-write:
 * a compare and a copy of at most a page).
 */
struct ramlld_lock_stripe {
	unsigned long lock;
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
	struct lockdep_map stripes_map;	/* the stripes, one lock class for lockdep */
	struct ramlld_lock_stripe locks[RAMLLD_LOCK_STRIPES];
};

static inline unsigned long *ramlld_store_stripe(struct ramlld_store *store,
						 unsigned long idx)
{
	return &store->locks[idx & (RAMLLD_LOCK_STRIPES - 1)].lock;
}

/* Take the stripe of store page idx; subclass 1 for a second one held. */
static __always_inline void ramlld_store_lock(struct ramlld_store *store,
					      unsigned long idx, int subclass)
{
	bit_spin_lock(0, ramlld_store_stripe(store, idx));
	lock_acquire_exclusive(&store->stripes_map, subclass, 0, NULL, _THIS_IP_);
}

static __always_inline void ramlld_store_unlock(struct ramlld_store *store,
						unsigned long idx)
{
	lock_release(&store->stripes_map, _THIS_IP_);
	__bit_spin_unlock(0, ramlld_store_stripe(store, idx));
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
 * stripe held, or NULL with nothing held when it is a hole. The slot is read
 * under the stripe, which a discard takes to empty it.
 */
static __always_inline void *ramlld_store_lock_present(struct ramlld_store *store,
						       unsigned long idx)
{
	void *addr;

	ramlld_store_lock(store, idx, 0);
	addr = READ_ONCE(store->pages[idx]);
	if (unlikely(!addr))
		ramlld_store_unlock(store, idx);
	return addr;
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

/* Copy len bytes at boff of bpage to dst in locked store page idx; unlock. */
static __always_inline void ramlld_store_write_locked(struct ramlld_store *store,
						      unsigned long idx, void *dst,
						      struct page *bpage,
						      unsigned int boff,
						      unsigned int len)
{
	void *buf = ramlld_kmap(bpage);

	ramlld_store_copy(dst, buf + boff, len);
	ramlld_kunmap(buf);
	ramlld_store_unlock(store, idx);
}

/* ramlld_store_rw_page()'s write to a hole (store.c): 0 or -ENOMEM. */
int ramlld_store_write_hole(struct ramlld_store *store, u64 pos,
			    struct page *bpage, unsigned int boff,
			    unsigned int len, bool may_sleep);

/*
 * Move len bytes between the store at pos and bpage at boff; neither range
 * crosses a page. A hole reads as zeros. A reader runs with preemption off
 * (rcu_read_lock_sched()): call_rcu(), which frees a discarded page, waits
 * for such readers as well (one RCU since 4.20), and it costs two
 * instructions where rcu_read_lock() under PREEMPT_RCU is two calls. A
 * writer maps bpage only once the store page is there: the allocation may
 * sleep, and before 5.11 a highmem mapping is kmap_atomic(), which must not.
 * A writer holds the page's stripe, with which a discard empties its slot:
 * no RCU section.
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
		addr = ramlld_store_lock_present(store, idx);
		/* a call last: nothing lives across it, nothing to save here */
		if (unlikely(!addr))
			return ramlld_store_write_hole(store, pos, bpage, boff,
						       len, may_sleep);
		ramlld_store_write_locked(store, idx, addr + soff, bpage, boff,
					  len);
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

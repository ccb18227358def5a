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

/*
 * pages[] holds each page's kernel address, not its struct page: store
 * pages are never highmem (no __GFP_HIGHMEM), so the address is the one a
 * copy needs and a lookup is one load. Bit 0 of a slot (page addresses are
 * page aligned) is a bit spinlock over that page's writers, as hlist_bl
 * keeps one in its heads: the lock is the word the writer loads anyway, so
 * taking it costs one atomic and no lock address of its own. Whoever holds
 * it is the only one to change the slot, so the holder clears the bit
 * without an atomic operation. Held with preemption off, as spin_lock()
 * would have it, over at most one page's copy (compare-and-write: a compare
 * and a copy of at most a page).
 */
#define RAMLLD_SLOT_LOCKED	1UL

struct ramlld_store {
	void **pages;			/* nr_pages slots; NULL is a hole */
	bool prealloc;
	bool throw_away_reads;		/* reads copy nothing (run time) */
	bool throw_away_writes;		/* writes store nothing (run time) */
	u64 capacity;			/* bytes */
	unsigned long nr_pages;
	struct lockdep_map slots_map;	/* the slots' locks, one lock class for lockdep */
};

static inline unsigned long *ramlld_store_slot(struct ramlld_store *store,
					       unsigned long idx)
{
	return (unsigned long *)&store->pages[idx];
}

/* A slot's page, lock bit cleared: its address, or NULL for a hole. */
static __always_inline void *ramlld_slot_page(const unsigned long *slot)
{
	return (void *)(READ_ONCE(*slot) & ~RAMLLD_SLOT_LOCKED);
}

static inline void *ramlld_store_page(struct ramlld_store *store,
				      unsigned long idx)
{
	return ramlld_slot_page(ramlld_store_slot(store, idx));
}

/* Lock a slot of store; subclass 1 for a second one held. */
static __always_inline void ramlld_store_lock(struct ramlld_store *store,
					      unsigned long *slot, int subclass)
{
	bit_spin_lock(0, slot);
	lock_acquire_exclusive(&store->slots_map, subclass, 0, NULL, _THIS_IP_);
}

static __always_inline void ramlld_store_unlock(struct ramlld_store *store,
						unsigned long *slot)
{
	lock_release(&store->slots_map, _THIS_IP_);
	__bit_spin_unlock(0, slot);
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
 * The page of a slot locked for writing in place: its address with the slot
 * locked, or NULL with nothing held when it is a hole. The address is read
 * under the lock, which a discard takes to empty the slot.
 */
static __always_inline void *ramlld_store_lock_present(struct ramlld_store *store,
						       unsigned long *slot)
{
	unsigned long held;

	ramlld_store_lock(store, slot, 0);
	held = READ_ONCE(*slot);	/* the page's address + the lock bit */
	if (unlikely(held == RAMLLD_SLOT_LOCKED)) {
		ramlld_store_unlock(store, slot);
		return NULL;
	}
	return (void *)(held - RAMLLD_SLOT_LOCKED);
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

/* Copy len bytes at boff of bpage to dst in the page of a locked slot; unlock. */
static __always_inline void ramlld_store_write_locked(struct ramlld_store *store,
						      unsigned long *slot, void *dst,
						      struct page *bpage,
						      unsigned int boff,
						      unsigned int len)
{
	void *buf = ramlld_kmap(bpage);

	ramlld_store_copy(dst, buf + boff, len);
	ramlld_kunmap(buf);
	ramlld_store_unlock(store, slot);
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
 * A writer holds the slot's lock, with which a discard empties it: no RCU
 * section.
 */
static __always_inline int ramlld_store_rw_page(struct ramlld_store *store,
						u64 pos, struct page *bpage,
						unsigned int boff,
						unsigned int len, bool write,
						bool may_sleep)
{
	unsigned long *slot = ramlld_store_slot(store, pos >> PAGE_SHIFT);
	unsigned int soff = offset_in_page(pos);
	void *addr, *buf;

	if (write) {
		addr = ramlld_store_lock_present(store, slot);
		/* a call last: nothing lives across it, nothing to save here */
		if (unlikely(!addr))
			return ramlld_store_write_hole(store, pos, bpage, boff,
						       len, may_sleep);
		ramlld_store_write_locked(store, slot, addr + soff, bpage, boff,
					  len);
		return 0;
	}
	buf = ramlld_kmap(bpage);
	rcu_read_lock_sched();
	addr = ramlld_slot_page(slot);
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

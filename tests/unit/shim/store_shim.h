/* SPDX-License-Identifier: GPL-2.0 */
/*
 * store_shim.h - the kernel API drivers/store.c uses, on the host, for
 * tests/unit/store_test.c. Each header under linux/ here includes this file.
 *
 * Pages are host allocations registered in a table (virt_to_page() looks an
 * address up there); the page allocator fails on demand (shim_fail_allocs)
 * and records the gfp of its last call. Locks, RCU readers and kmaps count
 * how many each thread holds, so a test can check that every verb returns
 * with none. call_rcu() runs its callback at once: the tests never read a
 * page that another thread may discard.
 */
#ifndef RAMLLD_STORE_SHIM_H
#define RAMLLD_STORE_SHIM_H

#include <assert.h>
#include <sched.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef unsigned long long u64;
typedef unsigned int gfp_t;

#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define offset_in_page(p)	((unsigned long)(p) & (PAGE_SIZE - 1))

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#ifndef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#endif
#define noinline		__attribute__((__noinline__))
#define ____cacheline_aligned_in_smp	__attribute__((__aligned__(64)))
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))
#define cmpxchg(p, o, n)	__sync_val_compare_and_swap(p, o, n)
#define container_of(p, type, member) \
	((type *)((char *)(p) - offsetof(type, member)))
#define min(a, b)		((a) < (b) ? (a) : (b))
#define min_t(t, a, b)		((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define min3(a, b, c)		min(min(a, b), c)
#define swap(a, b) do { __typeof__(a) _t = (a); (a) = (b); (b) = _t; } while (0)
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define DIV_ROUND_UP_ULL(n, d)	DIV_ROUND_UP((unsigned long long)(n), (d))
#define EXPORT_SYMBOL_GPL(sym)	_Static_assert(1, #sym)
#define KBUILD_MODNAME		"ramlld"

static inline size_t array_size(size_t a, size_t b)
{
	size_t r;

	return __builtin_mul_overflow(a, b, &r) ? SIZE_MAX : r;
}

#define MAX_ERRNO		4095
static inline void *ERR_PTR(long err) { return (void *)err; }
static inline long PTR_ERR(const void *p) { return (long)p; }
static inline bool IS_ERR(const void *p)
{
	return (unsigned long)p >= (unsigned long)-MAX_ERRNO;
}

/* gfp: the bits the store's choices differ in */
#define __GFP_IO		0x01u
#define __GFP_FS		0x02u
#define __GFP_DIRECT_RECLAIM	0x04u
#define __GFP_KSWAPD_RECLAIM	0x08u
#define __GFP_NORETRY		0x10u
#define __GFP_NOWARN		0x20u
#define __GFP_ZERO		0x40u
#define __GFP_HIGHMEM		0x80u
#define GFP_NOWAIT		__GFP_KSWAPD_RECLAIM
#define GFP_NOIO		(__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL		(GFP_NOIO | __GFP_IO | __GFP_FS)

struct rcu_head {
	void (*func)(struct rcu_head *head);
};

struct page {
	void *addr;
	struct rcu_head rcu_head;
};

struct bio_vec {
	struct page *bv_page;
	unsigned int bv_len;
	unsigned int bv_offset;
};

/* the state tests read and set (store_test.c defines them) */
extern long shim_mem_available;		/* si_mem_available(), pages */
extern unsigned long shim_totalram;	/* totalram_pages() */
extern long shim_fail_allocs;		/* page allocations that fail next, -1 none */
extern long shim_alloc_calls;		/* page allocations asked for */
extern gfp_t shim_last_gfp;		/* the gfp of the last one */
extern long shim_pages_live;		/* store pages allocated, not yet freed */
/* per thread: the concurrency test checks each thread's own */
extern __thread int shim_locks_held, shim_rcu_readers, shim_kmaps, shim_rcu_calls;
/* the concurrency test's threads: give up the CPU inside copies and readers */
extern __thread bool shim_yield;

static inline void shim_maybe_yield(void)
{
	if (shim_yield)
		sched_yield();
}

void *shim_page_alloc(gfp_t gfp);		/* NULL when told to fail */
struct page *shim_virt_to_page(const void *addr);
void shim_page_free(struct page *page);

static inline unsigned long get_zeroed_page(gfp_t gfp)
{
	return (unsigned long)shim_page_alloc(gfp | __GFP_ZERO);
}

static inline void free_page(unsigned long addr)
{
	shim_page_free(shim_virt_to_page((void *)addr));
}

#define __free_page(page)	shim_page_free(page)
#define virt_to_page(addr)	shim_virt_to_page(addr)
#define page_address(page)	((page)->addr)
#define nth_page(page, n)	((page) + (n))

static inline void *ramlld_kmap(struct page *page)
{
	shim_kmaps++;
	return page->addr;
}

static inline void ramlld_kunmap(void *addr)
{
	assert(addr);
	shim_kmaps--;
}

/* a whole-page copy must be page-aligned at both ends (x86's rep movsq) */
static inline void copy_page(void *to, void *from)
{
	assert(!offset_in_page(to) && !offset_in_page(from));
	shim_maybe_yield();
	memcpy(to, from, PAGE_SIZE);
}

static inline void *memchr_inv(const void *p, int c, size_t n)
{
	const u8 *s = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != (u8)c)
			return (void *)(s + i);
	return NULL;
}

#define kzalloc(n, gfp)		((void)(gfp), calloc(1, n))
#define kfree(p)		free(p)
#define kvzalloc(n, gfp)	((void)(gfp), calloc(1, n))
#define kvfree(p)		free(p)
#define __vmalloc(n, gfp)	((void)(gfp), calloc(1, n))

static inline long si_mem_available(void) { return shim_mem_available; }
static inline unsigned long totalram_pages(void) { return shim_totalram; }
#define current			NULL
#define fatal_signal_pending(t)	((void)(t), 0)
#define cond_resched()		do { } while (0)

/*
 * Bit spinlocks with real atomics (the concurrency test runs threads); the
 * lockdep calls count the locks a thread holds. No preemption on the host.
 */
static inline void bit_spin_lock(int nr, unsigned long *addr)
{
	shim_maybe_yield();
	while (__atomic_fetch_or(addr, 1UL << nr, __ATOMIC_ACQUIRE) & (1UL << nr))
		while (__atomic_load_n(addr, __ATOMIC_RELAXED) & (1UL << nr))
			sched_yield();	/* the holder may be waiting for a CPU */
}

static inline void __bit_spin_unlock(int nr, unsigned long *addr)
{
	assert(*addr & (1UL << nr));
	__atomic_store_n(addr, *addr & ~(1UL << nr), __ATOMIC_RELEASE);
}

struct lockdep_map {
	const char *name;
};

struct lock_class_key {
	int unused;
};

#define SINGLE_DEPTH_NESTING	1
#define _THIS_IP_		0UL
static inline void lockdep_init_map(struct lockdep_map *map, const char *name,
				    struct lock_class_key *key, int subclass)
{
	(void)key;
	(void)subclass;
	map->name = name;
}

static inline void lock_acquire_exclusive(struct lockdep_map *map, int subclass,
					  int trylock, void *nest,
					  unsigned long ip)
{
	(void)map;
	(void)trylock;
	(void)nest;
	(void)ip;
	/* a second slot held must say so, as lockdep wants */
	assert(subclass == (shim_locks_held ? SINGLE_DEPTH_NESTING : 0));
	shim_locks_held++;
}

static inline void lock_release(struct lockdep_map *map, unsigned long ip)
{
	(void)map;
	(void)ip;
	assert(shim_locks_held > 0);
	shim_locks_held--;
}

static inline void rcu_read_lock_sched(void) { shim_rcu_readers++; }
static inline void rcu_read_unlock_sched(void)
{
	assert(shim_rcu_readers > 0);
	shim_rcu_readers--;
	shim_maybe_yield();
}

static inline void call_rcu(struct rcu_head *head,
			    void (*func)(struct rcu_head *head))
{
	assert(!shim_rcu_readers);
	shim_rcu_calls++;
	func(head);
}

static inline void rcu_barrier(void) { }

#endif /* RAMLLD_STORE_SHIM_H */

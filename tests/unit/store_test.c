// SPDX-License-Identifier: GPL-2.0
/*
 * store_test.c - host unit tests of drivers/store.c against
 * tests/unit/shim/store_shim.h: every verb's ranges (inside, up to the end,
 * past the end), the bytes each moves, a hole's page failing to come (the
 * shim's allocator fails on demand) and the gfp each context asks with,
 * discard freeing or zeroing, throw-away, and compare-and-write's match,
 * miscompare offset and atomicity contract (nothing written on a mismatch or
 * a failure). After every call no lock, RCU reader or kmap may be left held.
 * Threads race writes, discards, fills and compare-and-write on the slots'
 * real atomics (test_concurrent).
 *
 *   cc -pthread -Wall -Wextra -Werror -fsanitize=address,undefined \
 *      -Itests/unit/shim -Idrivers tests/unit/store_test.c drivers/store.c
 *
 * The bio and request walks (store_bio.c) iterate block layer structures and
 * run in the guest tests (block/, scsi/).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_impl.h"
#include "unit_check.h"

long shim_mem_available = 1L << 20;
unsigned long shim_totalram = 1UL << 20;
long shim_fail_allocs = -1;
long shim_alloc_calls;
gfp_t shim_last_gfp;
long shim_pages_live;
__thread int shim_locks_held, shim_rcu_readers, shim_kmaps, shim_rcu_calls;
__thread bool shim_yield;
/* page allocations asked for with a slot locked (PREEMPT_RT forbids them) */
static long shim_allocs_locked;
/* the allocator's state, for the concurrency test's threads */
static pthread_mutex_t shim_alloc_lock = PTHREAD_MUTEX_INITIALIZER;

#define SHIM_MAX_PAGES	4096
static struct page *shim_pages[SHIM_MAX_PAGES];

void *shim_page_alloc(gfp_t gfp)
{
	struct page *page;
	int i;

	pthread_mutex_lock(&shim_alloc_lock);
	shim_alloc_calls++;
	shim_allocs_locked += shim_locks_held != 0;
	shim_last_gfp = gfp;
	if (shim_fail_allocs == 0) {
		pthread_mutex_unlock(&shim_alloc_lock);
		return NULL;
	}
	if (shim_fail_allocs > 0)
		shim_fail_allocs--;
	for (i = 0; i < SHIM_MAX_PAGES && shim_pages[i]; i++)
		;
	assert(i < SHIM_MAX_PAGES);
	page = calloc(1, sizeof(*page));
	page->addr = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	assert(page && page->addr);
	/* not zeroed unless asked: the store must ask */
	memset(page->addr, gfp & __GFP_ZERO ? 0 : 0x5a, PAGE_SIZE);
	shim_pages[i] = page;
	shim_pages_live++;
	pthread_mutex_unlock(&shim_alloc_lock);
	return page->addr;
}

struct page *shim_virt_to_page(const void *addr)
{
	struct page *page = NULL;
	int i;

	pthread_mutex_lock(&shim_alloc_lock);
	for (i = 0; i < SHIM_MAX_PAGES && !page; i++)
		if (shim_pages[i] && shim_pages[i]->addr == addr)
			page = shim_pages[i];
	pthread_mutex_unlock(&shim_alloc_lock);
	if (page)
		return page;
	fprintf(stderr, "virt_to_page(%p): not a page of the allocator\n", addr);
	abort();
}

void shim_page_free(struct page *page)
{
	int i;

	pthread_mutex_lock(&shim_alloc_lock);
	for (i = 0; i < SHIM_MAX_PAGES && shim_pages[i] != page; i++)
		;
	assert(i < SHIM_MAX_PAGES);
	shim_pages[i] = NULL;
	shim_pages_live--;
	pthread_mutex_unlock(&shim_alloc_lock);
	free(page->addr);
	free(page);
}

/* nothing held after a verb returns, whatever it returned */
#define CHECK_RELEASED() do {						\
	CHECK_EQ(shim_locks_held, 0);					\
	CHECK_EQ(shim_rcu_readers, 0);					\
	CHECK_EQ(shim_kmaps, 0);					\
} while (0)

#define NPAGES	8
#define CAP	((u64)NPAGES * PAGE_SIZE)

/* A run of n contiguous struct pages, as a bio_vec's, each with its bytes. */
struct buf {
	struct page pages[3];
	unsigned int n;
};

static void buf_init(struct buf *b, unsigned int n, u8 fill)
{
	unsigned int i;

	assert(n <= 3);
	b->n = n;
	for (i = 0; i < n; i++) {
		b->pages[i].addr = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
		assert(b->pages[i].addr);
		memset(b->pages[i].addr, fill, PAGE_SIZE);
	}
}

static void buf_free(struct buf *b)
{
	unsigned int i;

	for (i = 0; i < b->n; i++)
		free(b->pages[i].addr);
}

/* byte off of the run */
static u8 *buf_at(struct buf *b, unsigned int off)
{
	return (u8 *)b->pages[off / PAGE_SIZE].addr + off % PAGE_SIZE;
}

static void buf_pattern(struct buf *b, unsigned int seed)
{
	unsigned int i;

	for (i = 0; i < b->n * PAGE_SIZE; i++)
		*buf_at(b, i) = (u8)(i * 7 + seed);
}

static int rw(struct ramlld_store *s, u64 pos, struct buf *b, unsigned int off,
	      unsigned int len, bool write, bool may_sleep)
{
	struct bio_vec bv = { .bv_page = b->pages, .bv_len = len, .bv_offset = off };
	int ret = ramlld_store_rw_bvec(s, pos, &bv, write, may_sleep);

	CHECK_RELEASED();
	return ret;
}

/* the store's byte at pos, a hole as 0 */
static u8 byte_at(struct ramlld_store *s, u64 pos)
{
	const u8 *page = s->pages[pos / PAGE_SIZE];

	return page ? page[pos % PAGE_SIZE] : 0;
}

static struct ramlld_store *make(u64 cap, bool prealloc)
{
	struct ramlld_store *s = ramlld_store_create(cap, prealloc);

	assert(!IS_ERR(s));
	return s;
}

static void done(struct ramlld_store *s)
{
	ramlld_store_destroy(s);
	CHECK_EQ(shim_pages_live, 0);
}

static void test_create(void)
{
	struct ramlld_store *s;

	s = make(CAP, false);
	CHECK_EQ(ramlld_store_capacity(s), CAP);
	CHECK_EQ(s->nr_pages, NPAGES);
	CHECK_EQ(shim_pages_live, 0);			/* lazy: no page yet */
	done(s);

	s = make(CAP, true);
	CHECK_EQ(shim_pages_live, NPAGES);
	CHECK(!(shim_last_gfp & __GFP_HIGHMEM));	/* addresses are kept */
	CHECK(shim_last_gfp & __GFP_ZERO);
	done(s);

	/* a capacity that ends inside a page: the last page is partly used */
	s = make(CAP + 512, false);
	CHECK_EQ(s->nr_pages, NPAGES + 1);
	done(s);

	/* more than memory: refused before taking any page */
	shim_mem_available = NPAGES - 1;
	s = ramlld_store_create(CAP, true);
	CHECK(IS_ERR(s) && PTR_ERR(s) == -ENOMEM);
	CHECK_EQ(shim_pages_live, 0);
	shim_mem_available = 1L << 20;

	/* prealloc whose pages run out half way: nothing left behind */
	shim_fail_allocs = 3;
	s = ramlld_store_create(CAP, true);
	CHECK(IS_ERR(s) && PTR_ERR(s) == -ENOMEM);
	CHECK_EQ(shim_pages_live, 0);
	shim_fail_allocs = -1;
}

static void test_rw_ranges(void)
{
	struct ramlld_store *s = make(CAP, false);
	struct buf in, out;
	unsigned int i;
	bool ok;

	buf_init(&in, 1, 0);
	buf_init(&out, 1, 0xee);
	buf_pattern(&in, 1);

	/* a hole reads as zeros and gets no page */
	CHECK_EQ(rw(s, 0, &out, 0, PAGE_SIZE, false, true), 0);
	CHECK(!memchr_inv(out.pages[0].addr, 0, PAGE_SIZE));
	CHECK_EQ(shim_pages_live, 0);

	/* inside: the first page, read back */
	CHECK_EQ(rw(s, 0, &in, 0, PAGE_SIZE, true, true), 0);
	CHECK_EQ(shim_pages_live, 1);
	memset(out.pages[0].addr, 0xee, PAGE_SIZE);
	CHECK_EQ(rw(s, 0, &out, 0, PAGE_SIZE, false, true), 0);
	CHECK(!memcmp(in.pages[0].addr, out.pages[0].addr, PAGE_SIZE));

	/* up to the end: the last page, then its last 512 bytes */
	CHECK_EQ(rw(s, CAP - PAGE_SIZE, &in, 0, PAGE_SIZE, true, true), 0);
	CHECK_EQ(rw(s, CAP - 512, &out, 100, 512, false, true), 0);
	CHECK(!memcmp(buf_at(&out, 100), buf_at(&in, PAGE_SIZE - 512), 512));
	CHECK_EQ(rw(s, CAP, &out, 0, 0, false, true), 0);	/* empty at the end */

	/* past the end: refused whole, nothing written or read */
	memset(out.pages[0].addr, 0xee, PAGE_SIZE);
	CHECK_EQ(rw(s, CAP - 512, &in, 0, 1024, true, true), -EINVAL);
	CHECK_EQ(rw(s, CAP - 512, &out, 0, 1024, false, true), -EINVAL);
	CHECK_EQ(rw(s, CAP, &out, 0, 512, false, true), -EINVAL);
	CHECK_EQ(rw(s, CAP + PAGE_SIZE, &in, 0, 512, true, true), -EINVAL);
	CHECK_EQ(rw(s, ~0ULL - 100, &in, 0, 512, true, true), -EINVAL);	/* wraps */
	CHECK(!memchr_inv(out.pages[0].addr, 0xee, PAGE_SIZE));
	for (ok = true, i = 0; i < 512; i++)
		ok &= byte_at(s, CAP - 512 + i) == *buf_at(&in, PAGE_SIZE - 512 + i);
	CHECK(ok);
	CHECK_EQ(shim_pages_live, 2);

	/* a partial write leaves the rest of its page as it was */
	memset(in.pages[0].addr, 0x11, PAGE_SIZE);
	CHECK_EQ(rw(s, 2 * PAGE_SIZE + 1000, &in, 0, 24, true, true), 0);
	CHECK_EQ(byte_at(s, 2 * PAGE_SIZE + 999), 0);
	CHECK_EQ(byte_at(s, 2 * PAGE_SIZE + 1000), 0x11);
	CHECK_EQ(byte_at(s, 2 * PAGE_SIZE + 1023), 0x11);
	CHECK_EQ(byte_at(s, 2 * PAGE_SIZE + 1024), 0);

	buf_free(&in);
	buf_free(&out);
	done(s);
}

/* Chunks: a bio_vec crossing its own pages and the store's, at odd offsets. */
static void test_rw_crossing(void)
{
	struct ramlld_store *s = make(CAP, false);
	struct buf in, out;
	unsigned int len = 2 * PAGE_SIZE + 300, i;
	u64 pos = PAGE_SIZE - 700;
	bool ok;

	buf_init(&in, 3, 0);
	buf_init(&out, 3, 0xee);
	buf_pattern(&in, 3);
	CHECK_EQ(rw(s, pos, &in, 123, len, true, true), 0);
	CHECK_EQ(shim_pages_live, 3);			/* store pages 0..2 */
	for (ok = true, i = 0; i < len; i++)
		ok &= byte_at(s, pos + i) == *buf_at(&in, 123 + i);
	CHECK(ok);
	CHECK_EQ(byte_at(s, pos - 1), 0);
	CHECK_EQ(byte_at(s, pos + len), 0);
	CHECK_EQ(rw(s, pos, &out, 3700, len, false, true), 0);
	for (ok = true, i = 0; i < len; i++)
		ok &= *buf_at(&out, 3700 + i) == *buf_at(&in, 123 + i);
	CHECK(ok);
	CHECK_EQ(*buf_at(&out, 3699), 0xee);
	CHECK_EQ(*buf_at(&out, 3700 + len), 0xee);

	/* a read over a hole between pages: zeros in the middle */
	ramlld_store_discard(s, PAGE_SIZE, PAGE_SIZE);
	CHECK_EQ(rw(s, 0, &out, 0, 3 * PAGE_SIZE, false, true), 0);
	CHECK(!memchr_inv(buf_at(&out, PAGE_SIZE), 0, PAGE_SIZE));
	CHECK_EQ(*buf_at(&out, PAGE_SIZE - 1), *buf_at(&in, 123 + 699));
	buf_free(&in);
	buf_free(&out);
	done(s);
}

static void test_alloc_failure(void)
{
	struct ramlld_store *s = make(CAP, false);
	struct buf in;
	long calls;

	buf_init(&in, 2, 0x77);
	/* sleeping writer: GFP_NOIO, never the OOM killer */
	CHECK_EQ(rw(s, 0, &in, 0, PAGE_SIZE, true, true), 0);
	CHECK_EQ(shim_last_gfp & (GFP_KERNEL | __GFP_NORETRY | __GFP_ZERO),
		 GFP_NOIO | __GFP_NORETRY | __GFP_ZERO);
	/* non-sleeping writer: GFP_NOWAIT, no direct reclaim */
	CHECK_EQ(rw(s, PAGE_SIZE, &in, 0, PAGE_SIZE, true, false), 0);
	CHECK_EQ(shim_last_gfp & (GFP_KERNEL | __GFP_ZERO), GFP_NOWAIT | __GFP_ZERO);

	/* the page of a hole cannot be had: -ENOMEM, nothing held or kept */
	shim_fail_allocs = 0;
	CHECK_EQ(rw(s, 2 * PAGE_SIZE, &in, 0, 512, true, false), -ENOMEM);
	CHECK_EQ(rw(s, 2 * PAGE_SIZE, &in, 0, 512, true, true), -ENOMEM);
	CHECK(!s->pages[2]);
	CHECK_EQ(shim_pages_live, 2);
	/* a page that is there takes the write without an allocation */
	calls = shim_alloc_calls;
	CHECK_EQ(rw(s, 100, &in, 0, 512, true, false), 0);
	CHECK_EQ(shim_alloc_calls, calls);
	/* a write over two pages, the second a hole: the first is written */
	memset(in.pages[0].addr, 0x99, PAGE_SIZE);
	CHECK_EQ(rw(s, 2 * PAGE_SIZE - 512, &in, 0, 1024, true, false), -ENOMEM);
	CHECK_EQ(byte_at(s, 2 * PAGE_SIZE - 1), 0x99);
	CHECK(!s->pages[2]);
	shim_fail_allocs = -1;

	/* below the system's reserve: refused without asking the allocator */
	calls = shim_alloc_calls;
	shim_mem_available = shim_totalram / 16 - 1;
	CHECK_EQ(rw(s, 3 * PAGE_SIZE, &in, 0, 512, true, true), -ENOMEM);
	CHECK_EQ(shim_alloc_calls, calls);
	shim_mem_available = 1L << 20;
	CHECK_EQ(rw(s, 3 * PAGE_SIZE, &in, 0, 512, true, true), 0);
	buf_free(&in);
	done(s);
}

static void test_throw_away(void)
{
	struct ramlld_store *s = make(CAP, false);
	struct buf b;

	buf_init(&b, 1, 0x33);
	CHECK_EQ(rw(s, 0, &b, 0, PAGE_SIZE, true, true), 0);
	ramlld_store_set_throw_away(s, true, false);
	memset(b.pages[0].addr, 0x44, PAGE_SIZE);
	CHECK_EQ(rw(s, 0, &b, 0, PAGE_SIZE, false, true), 0);
	CHECK(!memchr_inv(b.pages[0].addr, 0x44, PAGE_SIZE));	/* not copied */
	CHECK_EQ(rw(s, CAP, &b, 0, 1, false, true), -EINVAL);	/* still checked */
	ramlld_store_set_throw_away(s, false, true);
	CHECK_EQ(rw(s, PAGE_SIZE, &b, 0, PAGE_SIZE, true, true), 0);
	CHECK(!s->pages[1]);					/* nothing stored */
	CHECK_EQ(rw(s, CAP - 1, &b, 0, 2, true, true), -EINVAL);
	CHECK_EQ(ramlld_store_fill(s, PAGE_SIZE, 512, b.pages[0].addr, 512, true), 0);
	CHECK(!s->pages[1]);
	CHECK_EQ(rw(s, 0, &b, 0, PAGE_SIZE, false, true), 0);
	CHECK(!memchr_inv(b.pages[0].addr, 0x33, PAGE_SIZE));	/* reads do copy */
	buf_free(&b);
	done(s);
}

static void test_discard(void)
{
	struct ramlld_store *s = make(CAP, false);
	struct buf b;
	bool mapped;

	buf_init(&b, 1, 0x66);
	for (u64 p = 0; p < CAP; p += PAGE_SIZE)
		rw(s, p, &b, 0, PAGE_SIZE, true, true);
	CHECK_EQ(shim_pages_live, NPAGES);

	/* whole pages of a lazy store are freed after their grace period */
	shim_rcu_calls = 0;
	CHECK_EQ(ramlld_store_discard(s, PAGE_SIZE, 2 * PAGE_SIZE), 0);
	CHECK_RELEASED();
	CHECK_EQ(shim_rcu_calls, 2);
	CHECK_EQ(shim_pages_live, NPAGES - 2);
	CHECK(!s->pages[1] && !s->pages[2]);
	CHECK_EQ(ramlld_store_mapped_run(s, PAGE_SIZE, CAP - PAGE_SIZE, &mapped),
		 2 * PAGE_SIZE);
	CHECK(!mapped);
	/* parts of pages are zeroed in place, the rest kept */
	CHECK_EQ(ramlld_store_discard(s, 3 * PAGE_SIZE + 512, PAGE_SIZE), 0);
	CHECK_EQ(shim_pages_live, NPAGES - 2);
	CHECK_EQ(byte_at(s, 3 * PAGE_SIZE + 511), 0x66);
	CHECK_EQ(byte_at(s, 3 * PAGE_SIZE + 512), 0);
	CHECK_EQ(byte_at(s, 4 * PAGE_SIZE + 511), 0);
	CHECK_EQ(byte_at(s, 4 * PAGE_SIZE + 512), 0x66);
	/* up to the end; a hole again is no work; past the end refused */
	CHECK_EQ(ramlld_store_discard(s, CAP - PAGE_SIZE, PAGE_SIZE), 0);
	CHECK(!s->pages[NPAGES - 1]);
	CHECK_EQ(ramlld_store_discard(s, CAP - PAGE_SIZE, PAGE_SIZE), 0);
	CHECK_EQ(ramlld_store_discard(s, CAP, 0), 0);
	CHECK_EQ(ramlld_store_discard(s, CAP - 2 * PAGE_SIZE, 3 * PAGE_SIZE), -EINVAL);
	CHECK(s->pages[NPAGES - 2]);				/* untouched */
	CHECK_EQ(byte_at(s, CAP - 2 * PAGE_SIZE), 0x66);
	CHECK_EQ(ramlld_store_discard(s, CAP + 1, 0), -EINVAL);
	CHECK_RELEASED();
	done(s);

	/* prealloc: whole pages are zeroed, never freed */
	s = make(CAP, true);
	rw(s, 0, &b, 0, PAGE_SIZE, true, true);
	CHECK_EQ(ramlld_store_discard(s, 0, CAP), 0);
	CHECK_EQ(shim_pages_live, NPAGES);
	CHECK(s->pages[0] && !memchr_inv(s->pages[0], 0, PAGE_SIZE));
	buf_free(&b);
	done(s);
}

static void test_fill(void)
{
	struct ramlld_store *s = make(CAP, false);
	u8 block[512];
	unsigned int i;
	bool ok;

	for (i = 0; i < sizeof(block); i++)
		block[i] = (u8)(i ^ 0xa5);
	/* inside and across a page */
	CHECK_EQ(ramlld_store_fill(s, PAGE_SIZE - 1024, 3072, block, 512, true), 0);
	CHECK_RELEASED();
	for (ok = true, i = 0; i < 3072; i++)
		ok &= byte_at(s, PAGE_SIZE - 1024 + i) == block[i % 512];
	CHECK(ok);
	CHECK_EQ(byte_at(s, PAGE_SIZE - 1025), 0);
	CHECK_EQ(byte_at(s, PAGE_SIZE + 2048), 0);
	/* up to the end; past it refused with nothing written */
	CHECK_EQ(ramlld_store_fill(s, CAP - 512, 512, block, 512, false), 0);
	CHECK_EQ(byte_at(s, CAP - 1), block[511]);
	CHECK_EQ(ramlld_store_fill(s, CAP - 3 * 512, 4 * 512, block, 512, true), -EINVAL);
	CHECK_EQ(byte_at(s, CAP - 3 * 512), 0);
	CHECK_EQ(ramlld_store_fill(s, CAP, 512, block, 512, true), -EINVAL);
	/* the block must divide the page and align both ends */
	CHECK_EQ(ramlld_store_fill(s, 0, 512, block, 0, true), -EINVAL);
	CHECK_EQ(ramlld_store_fill(s, 0, 384, block, 384, true), -EINVAL);
	CHECK_EQ(ramlld_store_fill(s, 256, 512, block, 512, true), -EINVAL);
	CHECK_EQ(ramlld_store_fill(s, 0, 768, block, 512, true), -EINVAL);
	/* a hole's page fails to come: the pages before it are written */
	shim_fail_allocs = 1;
	CHECK_EQ(ramlld_store_fill(s, 4 * PAGE_SIZE, 2 * PAGE_SIZE, block, 512,
				   false), -ENOMEM);
	CHECK_RELEASED();
	CHECK_EQ(shim_last_gfp & (GFP_KERNEL | __GFP_ZERO), GFP_NOWAIT | __GFP_ZERO);
	CHECK_EQ(byte_at(s, 4 * PAGE_SIZE + 5), block[5]);
	CHECK(!s->pages[5]);
	shim_fail_allocs = -1;
	done(s);
}

static void test_mapped_run(void)
{
	struct ramlld_store *s = make(CAP, false);
	struct buf b;
	bool mapped = true;

	buf_init(&b, 1, 1);
	rw(s, 2 * PAGE_SIZE, &b, 0, PAGE_SIZE, true, true);
	rw(s, 3 * PAGE_SIZE, &b, 0, 1, true, true);
	CHECK_EQ(ramlld_store_mapped_run(s, 100, CAP - 100, &mapped),
		 2 * PAGE_SIZE - 100);
	CHECK(!mapped);
	CHECK_EQ(ramlld_store_mapped_run(s, 2 * PAGE_SIZE, CAP - 2 * PAGE_SIZE,
					 &mapped), 2 * PAGE_SIZE);
	CHECK(mapped);
	CHECK_EQ(ramlld_store_mapped_run(s, 2 * PAGE_SIZE, 1000, &mapped), 1000);
	/* up to the end: the rest, a hole */
	CHECK_EQ(ramlld_store_mapped_run(s, CAP - 512, 512, &mapped), 512);
	CHECK(!mapped);
	/* past the end, or nothing asked: 0 */
	CHECK_EQ(ramlld_store_mapped_run(s, CAP - 512, 513, &mapped), 0);
	CHECK_EQ(ramlld_store_mapped_run(s, CAP, 0, &mapped), 0);
	CHECK_EQ(ramlld_store_mapped_run(s, 0, 0, &mapped), 0);
	buf_free(&b);
	done(s);
}

static void test_compare(void)
{
	struct ramlld_store *s = make(CAP, false);
	struct buf b;
	u8 cmp[PAGE_SIZE * 2];
	u32 mm = 12345;

	buf_init(&b, 2, 0);
	buf_pattern(&b, 9);
	rw(s, PAGE_SIZE, &b, 0, 2 * PAGE_SIZE, true, true);
	memcpy(cmp, b.pages[0].addr, PAGE_SIZE);
	memcpy(cmp + PAGE_SIZE, b.pages[1].addr, PAGE_SIZE);

	/* equal, across a page boundary */
	CHECK_EQ(ramlld_store_compare(s, PAGE_SIZE + 1000, cmp + 1000, 5000, &mm), 0);
	CHECK_EQ(mm, 12345);
	CHECK_RELEASED();
	/* the first byte that differs, in the second page */
	cmp[PAGE_SIZE + 10] ^= 1;
	CHECK_EQ(ramlld_store_compare(s, PAGE_SIZE + 1000, cmp + 1000, 5000, &mm), 1);
	CHECK_EQ(mm, PAGE_SIZE + 10 - 1000);
	CHECK_RELEASED();
	/* a hole compares as zeros */
	memset(cmp, 0, 600);
	CHECK_EQ(ramlld_store_compare(s, 0, cmp, 600, &mm), 0);
	cmp[599] = 1;
	CHECK_EQ(ramlld_store_compare(s, 0, cmp, 600, &mm), 1);
	CHECK_EQ(mm, 599);
	/* up to the end (a hole), past it refused */
	memset(cmp, 0, 512);
	CHECK_EQ(ramlld_store_compare(s, CAP - 512, cmp, 512, &mm), 0);
	CHECK_EQ(ramlld_store_compare(s, CAP - 512, cmp, 513, &mm), -EINVAL);
	CHECK_EQ(ramlld_store_compare(s, CAP + 1, cmp, 0, &mm), -EINVAL);

	/* through a bio_vec crossing its pages: the offset counts from its start */
	{
		struct bio_vec bv = { .bv_page = b.pages, .bv_offset = 3000,
				      .bv_len = 2000 };

		CHECK_EQ(ramlld_store_compare_bvec(s, PAGE_SIZE + 3000, &bv, &mm), 0);
		*buf_at(&b, 3000 + 1500) ^= 0x80;
		CHECK_EQ(ramlld_store_compare_bvec(s, PAGE_SIZE + 3000, &bv, &mm), 1);
		CHECK_EQ(mm, 1500);
		CHECK_RELEASED();
		bv.bv_len = 4000;
		CHECK_EQ(ramlld_store_compare_bvec(s, CAP - 2000, &bv, &mm), -EINVAL);
	}
	buf_free(&b);
	done(s);
}

static void test_compare_and_write(void)
{
	struct ramlld_store *s = make(CAP, false);
	u8 cmp[PAGE_SIZE], data[PAGE_SIZE], old[PAGE_SIZE];
	u32 mm = 777;
	unsigned int i;
	bool ok;

	for (i = 0; i < PAGE_SIZE; i++)
		data[i] = (u8)(i * 13 + 1);
	memset(cmp, 0, sizeof(cmp));

	/* a hole matches zeros: its page comes, GFP_NOWAIT (no sleeping here) */
	CHECK_EQ(ramlld_store_compare_and_write(s, 512, cmp, data, 1024, &mm), 0);
	CHECK_RELEASED();
	CHECK_EQ(shim_last_gfp & (GFP_KERNEL | __GFP_ZERO), GFP_NOWAIT | __GFP_ZERO);
	CHECK_EQ(byte_at(s, 511), 0);
	CHECK_EQ(byte_at(s, 512), data[0]);
	CHECK_EQ(byte_at(s, 1535), data[1023]);
	CHECK_EQ(byte_at(s, 1536), 0);
	CHECK_EQ(mm, 777);

	/* a mismatch: 1, the offset of the first byte that differs, nothing written */
	memcpy(old, data, 1024);
	old[700] ^= 0xff;
	old[900] ^= 0xff;
	CHECK_EQ(ramlld_store_compare_and_write(s, 512, old, cmp, 1024, &mm), 1);
	CHECK_EQ(mm, 700);
	CHECK_RELEASED();
	for (ok = true, i = 0; i < 1024; i++)
		ok &= byte_at(s, 512 + i) == data[i];
	CHECK(ok);
	/* the match writes: the new data replaces the old */
	CHECK_EQ(ramlld_store_compare_and_write(s, 512, data, old, 1024, &mm), 0);
	CHECK_EQ(byte_at(s, 512 + 700), old[700]);

	/* over two pages (slots locked in order), the second a hole */
	CHECK_EQ(ramlld_store_compare_and_write(s, 2 * PAGE_SIZE - 256, cmp, data,
						512, &mm), 0);
	CHECK_RELEASED();
	CHECK_EQ(byte_at(s, 2 * PAGE_SIZE - 256), data[0]);
	CHECK_EQ(byte_at(s, 2 * PAGE_SIZE + 255), data[511]);
	/* a mismatch in the second page counts from the start */
	memcpy(old, data, 512);
	old[300] ^= 1;
	CHECK_EQ(ramlld_store_compare_and_write(s, 2 * PAGE_SIZE - 256, old, cmp,
						512, &mm), 1);
	CHECK_EQ(mm, 300);
	CHECK_EQ(byte_at(s, 2 * PAGE_SIZE + 44), data[300]);

	/* a hole's page cannot be had: -ENOMEM, nothing written, nothing held */
	shim_fail_allocs = 0;
	CHECK_EQ(ramlld_store_compare_and_write(s, 4 * PAGE_SIZE, cmp, data, 512,
						&mm), -ENOMEM);
	CHECK_RELEASED();
	CHECK(!s->pages[4]);
	shim_fail_allocs = -1;

	/* ranges: up to the end, past it, empty, more than a page */
	CHECK_EQ(ramlld_store_compare_and_write(s, CAP - 512, cmp, data, 512, &mm), 0);
	CHECK_EQ(byte_at(s, CAP - 1), data[511]);
	CHECK_EQ(ramlld_store_compare_and_write(s, CAP - 512, cmp, data, 1024, &mm),
		 -EINVAL);
	CHECK_EQ(ramlld_store_compare_and_write(s, CAP, cmp, data, 1, &mm), -EINVAL);
	CHECK_EQ(ramlld_store_compare_and_write(s, 0, cmp, data, 0, &mm), -EINVAL);
	CHECK_EQ(ramlld_store_compare_and_write(s, 0, cmp, data, PAGE_SIZE + 1, &mm),
		 -EINVAL);
	CHECK_RELEASED();

	/* throw-away writes: compared, not written */
	ramlld_store_set_throw_away(s, false, true);
	CHECK_EQ(ramlld_store_compare_and_write(s, 6 * PAGE_SIZE, cmp, data, 512,
						&mm), 0);
	CHECK(!s->pages[6]);
	memset(old, 1, 512);
	CHECK_EQ(ramlld_store_compare_and_write(s, 6 * PAGE_SIZE, old, data, 512,
						&mm), 1);
	CHECK_EQ(mm, 0);
	done(s);
}

/*
 * Threads at once on one store, through the slots' real atomics (the
 * shim's bit locks): whole-page writes to one page, 512-byte writes into
 * another, fills of a third, discards of a fourth that others write (ASan
 * catches a write into a page already freed), and compare-and-write
 * increments of a counter that lose none only if nothing writes between a
 * compare and its write. Each thread checks its own held locks, readers and
 * maps; the main thread the rest.
 */
#define THREADS		4
#define ROUNDS		2000
#define INCREMENTS	400
#define COUNTER_POS	(7 * PAGE_SIZE + 1024)

struct racer {
	pthread_t thread;
	struct ramlld_store *store;
	unsigned int id;
	long errors;		/* verbs that failed, locks left held */
	long increments;
	long miscompares;
};

static long racer_rw(struct racer *r, u64 pos, struct buf *b, unsigned int len,
		     bool write)
{
	struct bio_vec bv = { .bv_page = b->pages, .bv_len = len, .bv_offset = 0 };

	return ramlld_store_rw_bvec(r->store, pos, &bv, write, true) != 0 ||
	       shim_locks_held || shim_rcu_readers || shim_kmaps;
}

static void *racer_run(void *arg)
{
	struct racer *r = arg;
	u8 byte = (u8)(0x11 * (r->id + 1)), block[512];
	u8 cmp[512], data[512];
	struct buf b, c;
	unsigned int i;
	u32 mm;
	u64 n;

	shim_yield = true;
	buf_init(&b, 1, byte);
	buf_init(&c, 1, 0);
	memset(block, byte, sizeof(block));
	for (i = 0; i < ROUNDS; i++) {
		r->errors += racer_rw(r, 0, &b, PAGE_SIZE, true);
		r->errors += racer_rw(r, 2 * PAGE_SIZE + (i % 8) * 512, &b, 512, true);
		if ((i + r->id) % 4)
			r->errors += racer_rw(r, PAGE_SIZE, &b, PAGE_SIZE, true);
		else
			r->errors += ramlld_store_discard(r->store, PAGE_SIZE,
							  PAGE_SIZE) != 0;
		if (i % 4 == 0)
			r->errors += ramlld_store_fill(r->store, 3 * PAGE_SIZE,
						       PAGE_SIZE, block, 512,
						       i & 1) != 0;
		r->errors += shim_locks_held != 0;
	}
	while (r->increments < INCREMENTS) {
		/* a lockless read of the counter: torn, it just miscompares */
		r->errors += racer_rw(r, COUNTER_POS, &c, 512, false);
		memcpy(cmp, c.pages[0].addr, 512);
		memcpy(&n, cmp, sizeof(n));
		n++;
		memcpy(data, cmp, 512);
		memcpy(data, &n, sizeof(n));
		switch (ramlld_store_compare_and_write(r->store, COUNTER_POS, cmp,
						       data, 512, &mm)) {
		case 0:
			r->increments++;
			break;
		case 1:
			r->miscompares++;
			break;
		default:
			r->errors++;
		}
		r->errors += shim_locks_held || shim_rcu_readers || shim_kmaps;
	}
	buf_free(&b);
	buf_free(&c);
	return NULL;
}

/* every block of len bytes at pos holds one byte value */
static bool uniform(struct ramlld_store *s, u64 pos, u64 len, unsigned int block)
{
	u64 i;

	for (i = 0; i < len; i++)
		if (byte_at(s, pos + i) != byte_at(s, pos + i / block * block))
			return false;
	return true;
}

static void test_concurrent(void)
{
	struct ramlld_store *s = make(CAP, false);
	struct racer r[THREADS];
	unsigned int i, held;
	long increments = 0;
	u64 n;

	for (i = 0; i < THREADS; i++) {
		r[i] = (struct racer){ .store = s, .id = i };
		CHECK_EQ(pthread_create(&r[i].thread, NULL, racer_run, &r[i]), 0);
	}
	for (i = 0; i < THREADS; i++) {
		CHECK_EQ(pthread_join(r[i].thread, NULL), 0);
		CHECK_EQ(r[i].errors, 0);
		CHECK_EQ(r[i].increments, INCREMENTS);
		increments += r[i].increments;
	}
	memcpy(&n, (u8 *)s->pages[COUNTER_POS / PAGE_SIZE] + COUNTER_POS % PAGE_SIZE,
	       sizeof(n));
	CHECK_EQ(n, increments);
	CHECK(byte_at(s, 0) && uniform(s, 0, PAGE_SIZE, PAGE_SIZE));
	CHECK(byte_at(s, 2 * PAGE_SIZE) && uniform(s, 2 * PAGE_SIZE, PAGE_SIZE, 512));
	CHECK(byte_at(s, 3 * PAGE_SIZE) && uniform(s, 3 * PAGE_SIZE, PAGE_SIZE, PAGE_SIZE));
	for (i = 0, held = 0; i < NPAGES; i++)
		held += (unsigned long)s->pages[i] & RAMLLD_SLOT_LOCKED;
	CHECK_EQ(held, 0);
	CHECK_RELEASED();
	done(s);
}

int main(void)
{
	test_create();
	test_rw_ranges();
	test_rw_crossing();
	test_alloc_failure();
	test_throw_away();
	test_discard();
	test_fill();
	test_mapped_run();
	test_compare();
	test_compare_and_write();
	test_concurrent();
	CHECK_EQ(shim_allocs_locked, 0);
	printf("store_test: %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}

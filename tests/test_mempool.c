// SPDX-License-Identifier: GPL-2.0
/*
 * Memory pools (mm/mempool.c):
 *
 *  - the reserve: min_nr allocations succeed with every free page taken
 *    (hog_memory) and with failslab at 100%, the next one fails; the
 *    backend is asked first every time, with __GFP_NOMEMALLOC |
 *    __GFP_NORETRY | __GFP_NOWARN and without direct reclaim, and once
 *    more with the caller's flags when it may sleep;
 *  - frees go back to the reserve first: curr_nr rises to min_nr before
 *    the backend sees a free;
 *  - resize up and down, with elements outstanding too; a resize up that
 *    fails under failslab or fail_page_alloc, at each allocation it
 *    makes, changes nothing and leaks nothing;
 *  - each backend (slab cache, kmalloc, pages), create and init forms;
 *  - bad input: mempool_free(NULL), min_nr 0 or negative, missing
 *    functions, destroy and exit with elements outstanding (a warning
 *    and a refusal, then a clean destroy once they are back);
 *  - two CPUs (host) allocating and freeing through one pool whose
 *    backend fails 3 times in 4: no element is handed out twice, and
 *    all of them come back.
 *
 * A test backend (struct counting) wraps kmalloc, counts calls and
 * records the flags it was given, and can be told to fail.
 */
#include "arch/arch.h"
#include "kernel/cpumask.h"
#include "kernel/errno.h"
#include "kernel/report.h"
#include "lib/ktest/ktest.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/fault_inject.h"
#include "mm/gfp.h"
#include "mm/mempool.h"
#include "mm/slab.h"
#include "tests/mm_util.h"

#define ELEM_SIZE	200

struct counting {
	unsigned int allocs;	/* calls of the alloc function */
	unsigned int frees;	/* calls of the free function */
	unsigned int failed;	/* allocs that returned NULL */
	bool fail;		/* make allocs fail */
	gfp_t gfp[8];		/* the flags of the first 8 allocs */
};

static void *counting_alloc(gfp_t gfp, void *data)
{
	struct counting *c = data;
	void *p = NULL;

	if (c->allocs < ARRAY_SIZE(c->gfp))
		c->gfp[c->allocs] = gfp;
	c->allocs++;
	if (!c->fail)
		p = kmalloc(ELEM_SIZE, gfp);
	c->failed += !p;
	return p;
}

static void counting_free(void *element, void *data)
{
	struct counting *c = data;

	c->frees++;
	kfree(element);
}

static mempool_t *counting_pool(struct ktest *t, struct counting *c, int min_nr)
{
	mempool_t *pool;

	memset(c, 0, sizeof(*c));
	pool = mempool_create(min_nr, counting_alloc, counting_free, c);
	KTEST_ASSERT_NOT_NULL(t, pool);
	KTEST_EXPECT_EQ(t, c->allocs, (unsigned int)min_nr);
	KTEST_EXPECT_EQ(t, pool->curr_nr, min_nr);
	KTEST_EXPECT_EQ(t, pool->min_nr, min_nr);
	c->allocs = 0;
	return pool;
}

struct in_use_query {
	struct kmem_cache *cachep;
	long in_use;
};

static void in_use_fn(struct kmem_cache *cachep, long in_use, void *data)
{
	struct in_use_query *q = data;

	if (cachep == q->cachep)
		q->in_use = in_use;
}

/* Objects of cachep in use (-1: no such cache). */
static long slab_objects_in_use_of(struct kmem_cache *cachep)
{
	struct in_use_query q = { cachep, -1 };

	kmem_cache_walk(in_use_fn, &q);
	return q.in_use;
}

/* Is p one of the reserve's elements as saved in saved[0..n)? */
static bool in_saved(void *p, void *const *saved, int n)
{
	for (int i = 0; i < n; i++) {
		if (saved[i] == p)
			return true;
	}
	return false;
}

/* --- the backend first, then the reserve ------------------------------------ */

static void test_backend_flags(struct ktest *t)
{
	struct counting c;
	mempool_t *pool = counting_pool(t, &c, 2);
	void *a, *b, *x;

	/* Backend works: it gives the element, the reserve is untouched. */
	a = mempool_alloc(pool, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, a);
	KTEST_EXPECT_EQ(t, c.allocs, 1U);
	KTEST_EXPECT_EQ(t, pool->curr_nr, 2);
	/* Fail fast, never the page allocator's reserve, no report, no sleep. */
	KTEST_EXPECT_EQ(t, c.gfp[0] & __GFP_NOMEMALLOC, __GFP_NOMEMALLOC);
	KTEST_EXPECT_EQ(t, c.gfp[0] & __GFP_NORETRY, __GFP_NORETRY);
	KTEST_EXPECT_EQ(t, c.gfp[0] & __GFP_NOWARN, __GFP_NOWARN);
	KTEST_EXPECT_EQ(t, c.gfp[0] & (__GFP_DIRECT_RECLAIM | __GFP_IO), 0U);
	KTEST_EXPECT_EQ(t, c.gfp[0] & __GFP_FS, __GFP_FS);

	/* Backend fails: the reserve gives, after one try of the backend. */
	c.fail = true;
	b = mempool_alloc(pool, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, b);
	KTEST_EXPECT_EQ(t, c.allocs, 2U);
	KTEST_EXPECT_EQ(t, pool->curr_nr, 1);
	x = mempool_alloc(pool, GFP_ATOMIC);
	KTEST_ASSERT_NOT_NULL(t, x);
	KTEST_EXPECT_EQ(t, c.allocs, 3U);
	KTEST_EXPECT_EQ(t, pool->curr_nr, 0);
	KTEST_EXPECT_EQ(t, c.gfp[2] & __GFP_HIGH, __GFP_HIGH);

	/* Reserve empty, caller may not sleep: NULL after one try. */
	KTEST_EXPECT_NULL(t, mempool_alloc(pool, GFP_ATOMIC));
	KTEST_EXPECT_EQ(t, c.allocs, 4U);
	/* May sleep: a second try with its own flags, then NULL (no sleep). */
	KTEST_EXPECT_NULL(t, mempool_alloc(pool, GFP_KERNEL));
	KTEST_EXPECT_EQ(t, c.allocs, 6U);
	KTEST_EXPECT_EQ(t, c.gfp[5] & (__GFP_DIRECT_RECLAIM | __GFP_IO),
			__GFP_DIRECT_RECLAIM | __GFP_IO);
	KTEST_EXPECT_EQ(t, c.gfp[5] & __GFP_NOWARN, __GFP_NOWARN);
	/* That second try is what a sleeping caller gets meanwhile. */
	c.fail = false;
	KTEST_EXPECT_EQ(t, pool->curr_nr, 0);
	KTEST_EXPECT_NULL(t, mempool_alloc_preallocated(pool));

	mempool_free(a, pool);
	mempool_free(b, pool);
	mempool_free(x, pool);
	KTEST_EXPECT_EQ(t, pool->curr_nr, 2);
	KTEST_EXPECT_EQ(t, c.frees, 1U);
	mempool_destroy(pool);
	KTEST_EXPECT_EQ(t, c.frees, 3U);
}

/* __GFP_ZERO makes no sense for reserved elements: warned, dropped. */
static void test_gfp_zero_dropped(struct ktest *t)
{
	struct counting c;
	mempool_t *pool = counting_pool(t, &c, 1);
	void *p;

	ktest_capture_start(t, "WARNING:");
	p = mempool_alloc(pool, GFP_KERNEL | __GFP_ZERO);
	/* Warned once per boot (WARN_ON_ONCE, as Linux). */
	KTEST_EXPECT_LE(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_NOT_NULL(t, p);
	KTEST_EXPECT_EQ(t, c.gfp[0] & __GFP_ZERO, 0U);
	mempool_free(p, pool);
	mempool_destroy(pool);
}

/* Frees refill the reserve before the backend sees any. */
static void test_free_refills_reserve_first(struct ktest *t)
{
	struct counting c;
	mempool_t *pool = counting_pool(t, &c, 4);
	void *p[7];

	c.fail = true;
	for (int i = 0; i < 4; i++) {
		p[i] = mempool_alloc(pool, GFP_NOWAIT);
		KTEST_ASSERT_NOT_NULL(t, p[i]);
	}
	KTEST_EXPECT_EQ(t, pool->curr_nr, 0);
	KTEST_EXPECT_FALSE(t, mempool_is_saturated(pool));
	c.fail = false;
	for (int i = 4; i < 7; i++) {
		p[i] = mempool_alloc(pool, GFP_NOWAIT);
		KTEST_ASSERT_NOT_NULL(t, p[i]);
	}
	KTEST_EXPECT_EQ(t, pool->curr_nr, 0);
	/* Free the backend's elements first: they refill the reserve too. */
	for (int i = 6; i >= 0; i--) {
		mempool_free(p[i], pool);
		if (i >= 3) {
			KTEST_EXPECT_EQ(t, pool->curr_nr, 7 - i);
			KTEST_EXPECT_EQ(t, c.frees, 0U);
		} else {
			KTEST_EXPECT_EQ(t, pool->curr_nr, 4);
			KTEST_EXPECT_EQ(t, c.frees, 3U - (unsigned int)i);
		}
	}
	KTEST_EXPECT_TRUE(t, mempool_is_saturated(pool));
	mempool_destroy(pool);
	KTEST_EXPECT_EQ(t, c.frees, 7U);
}

/* --- min_nr guaranteed whatever memory says -------------------------------- */

/*
 * Take every element: min_nr must come from the reserve, the next must
 * fail (GFP_NOWAIT: with no direct reclaim, nothing can help it), then
 * give them back to the reserve.
 */
static void drain_reserve(struct ktest *t, mempool_t *pool, int min_nr,
			  size_t bytes)
{
	void *saved[16], *got[16];
	int n = 0;

	KTEST_ASSERT_LE(t, min_nr, 16);
	memcpy(saved, pool->elements, (size_t)min_nr * sizeof(void *));
	for (int i = 0; i < min_nr; i++) {
		got[n] = mempool_alloc(pool, i & 1 ? GFP_KERNEL : GFP_NOWAIT);
		KTEST_EXPECT_NOT_NULL(t, got[n]);
		if (!got[n])
			break;
		KTEST_EXPECT_TRUE(t, in_saved(got[n], saved, min_nr));
		n++;
	}
	KTEST_EXPECT_EQ(t, pool->curr_nr, 0);
	KTEST_EXPECT_NULL(t, mempool_alloc(pool, GFP_NOWAIT));
	/* The elements are real memory: write them whole. */
	for (int i = 0; bytes && i < n; i++)
		memset(pool->alloc == mempool_alloc_pages ?
		       page_address(got[i]) : got[i], 0x6d, bytes);
	while (n)
		mempool_free(got[--n], pool);
	KTEST_EXPECT_EQ(t, pool->curr_nr, min_nr);
}

static void test_reserve_with_memory_exhausted(struct ktest *t)
{
	mempool_t *pages = mempool_create_page_pool(6, 1);
	mempool_t *large = mempool_create_kmalloc_pool(4, 3 * PAGE_SIZE);
	struct hog *hog;

	KTEST_ASSERT_NOT_NULL(t, pages);
	KTEST_ASSERT_NOT_NULL(t, large);
	hog = hog_memory();
	KTEST_EXPECT_NULL(t, alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0));
	drain_reserve(t, pages, 6, 2 * PAGE_SIZE);
	drain_reserve(t, large, 4, 3 * PAGE_SIZE);
	release_memory(hog);
	mempool_destroy(pages);
	mempool_destroy(large);
}

static void test_reserve_with_failslab(struct ktest *t)
{
	struct kmem_cache *kc = kmem_cache_create("t-mempool", 72, 0, 0, NULL);
	mempool_t *slab, *small;
	unsigned long candidates;

	KTEST_ASSERT_NOT_NULL(t, kc);
	slab = mempool_create_slab_pool(5, kc);
	small = mempool_create_kmalloc_pool(3, 40);
	KTEST_ASSERT_NOT_NULL(t, slab);
	KTEST_ASSERT_NOT_NULL(t, small);
	KTEST_EXPECT_EQ(t, slab_objects_in_use_of(kc), 5L);

	KTEST_ASSERT_EQ(t, fault_attr_set(&failslab, "1,100,0,-1", 41), 0);
	drain_reserve(t, slab, 5, 72);
	/*
	 * The backend was asked first each time, once (the reserve was not
	 * empty yet), and once for the GFP_NOWAIT call that failed.
	 */
	KTEST_EXPECT_EQ(t, failslab.candidates, 6UL);
	KTEST_EXPECT_EQ(t, failslab.failures, 6UL);
	candidates = failslab.candidates;
	drain_reserve(t, small, 3, 40);
	KTEST_EXPECT_EQ(t, failslab.candidates - candidates, 4UL);
	fault_attr_disable(&failslab);

	mempool_destroy(slab);
	mempool_destroy(small);
	KTEST_EXPECT_EQ(t, slab_objects_in_use_of(kc), 0L);
	kmem_cache_destroy(kc);
}

/* --- resize ---------------------------------------------------------------- */

static void test_resize(struct ktest *t)
{
	struct counting c;
	mempool_t *pool = counting_pool(t, &c, 2);
	void *p[3], *e[6];
	unsigned int allocs;

	KTEST_EXPECT_EQ(t, mempool_resize(pool, 6), 0);
	KTEST_EXPECT_EQ(t, pool->min_nr, 6);
	KTEST_EXPECT_EQ(t, pool->curr_nr, 6);
	KTEST_EXPECT_EQ(t, c.allocs, 4U);
	KTEST_EXPECT_EQ(t, c.gfp[0], GFP_KERNEL);
	/* The new elements are real: the reserve hands them all out. */
	c.fail = true;
	for (int i = 0; i < 6; i++) {
		e[i] = mempool_alloc(pool, GFP_NOWAIT);
		KTEST_ASSERT_NOT_NULL(t, e[i]);
		memset(e[i], 0x2a, ELEM_SIZE);
	}
	for (int i = 0; i < 6; i++)
		mempool_free(e[i], pool);
	KTEST_EXPECT_EQ(t, c.frees, 0U);
	c.fail = false;
	allocs = c.allocs;

	KTEST_EXPECT_EQ(t, mempool_resize(pool, 3), 0);
	KTEST_EXPECT_EQ(t, pool->min_nr, 3);
	KTEST_EXPECT_EQ(t, pool->curr_nr, 3);
	KTEST_EXPECT_EQ(t, c.frees, 3U);
	KTEST_EXPECT_EQ(t, mempool_resize(pool, 3), 0);
	KTEST_EXPECT_EQ(t, c.frees, 3U);
	KTEST_EXPECT_EQ(t, c.allocs, allocs);

	/* Elements out: down to 1 frees what the reserve holds beyond 1. */
	c.fail = true;
	for (int i = 0; i < 3; i++)
		p[i] = mempool_alloc(pool, GFP_NOWAIT);
	KTEST_EXPECT_EQ(t, pool->curr_nr, 0);
	mempool_free(p[2], pool);
	mempool_free(p[1], pool);
	KTEST_EXPECT_EQ(t, pool->curr_nr, 2);
	KTEST_EXPECT_EQ(t, mempool_resize(pool, 1), 0);
	KTEST_EXPECT_EQ(t, pool->curr_nr, 1);
	KTEST_EXPECT_EQ(t, pool->min_nr, 1);
	KTEST_EXPECT_EQ(t, c.frees, 4U);
	/* Up again fills the reserve to the new size. */
	c.fail = false;
	KTEST_EXPECT_EQ(t, mempool_resize(pool, 4), 0);
	KTEST_EXPECT_EQ(t, pool->curr_nr, 4);
	mempool_free(p[0], pool);		/* reserve full: backend */
	KTEST_EXPECT_EQ(t, c.frees, 5U);
	mempool_destroy(pool);
}

/*
 * A resize up fails at each allocation it makes in turn (the array, the
 * elements): -ENOMEM, the pool exactly as it was, nothing leaked.
 */
static void test_resize_failure_changes_nothing(struct ktest *t)
{
	mempool_t *km = mempool_create_kmalloc_pool(3, 100);
	mempool_t *pg = mempool_create_page_pool(2, 0);
	unsigned int failed = 0;
	void **elements;
	void *e;

	KTEST_ASSERT_NOT_NULL(t, km);
	KTEST_ASSERT_NOT_NULL(t, pg);
	e = mempool_alloc_preallocated(km);	/* one element out */
	KTEST_ASSERT_NOT_NULL(t, e);
	for (unsigned int nth = 1; nth <= 8; nth++) {
		char spec[32];
		long objects;
		int ret;

		elements = km->elements;
		objects = slab_objects_in_use();
		snprintf(spec, sizeof(spec), "%u,100,0,1", nth);
		KTEST_ASSERT_EQ(t, fault_attr_set(&failslab, spec, nth), 0);
		ret = mempool_resize(km, 9);
		fault_attr_disable(&failslab);
		if (ret == 0)
			break;
		failed++;
		KTEST_EXPECT_EQ(t, ret, -ENOMEM);
		KTEST_EXPECT_EQ(t, km->min_nr, 3);
		KTEST_EXPECT_EQ(t, km->curr_nr, 2);
		KTEST_EXPECT_PTR_EQ(t, km->elements, elements);
		KTEST_EXPECT_EQ(t, slab_objects_in_use(), objects);
	}
	/* Two arrays, then 7 elements: failures 1..8 all fail the resize. */
	KTEST_EXPECT_EQ(t, failed, 8U);
	KTEST_EXPECT_EQ(t, mempool_resize(km, 9), 0);
	KTEST_EXPECT_EQ(t, km->curr_nr, 9);
	mempool_free(e, km);
	KTEST_EXPECT_EQ(t, km->curr_nr, 9);

	/* Pages: the backend fails under fail_page_alloc. */
	elements = pg->elements;
	KTEST_ASSERT_EQ(t, fail_page_alloc_set_order(0), 0);
	KTEST_ASSERT_EQ(t, fault_attr_set(&fail_page_alloc, "1,100,0,-1", 9), 0);
	KTEST_EXPECT_EQ(t, mempool_resize(pg, 5), -ENOMEM);
	fault_attr_disable(&fail_page_alloc);
	KTEST_EXPECT_EQ(t, pg->min_nr, 2);
	KTEST_EXPECT_EQ(t, pg->curr_nr, 2);
	KTEST_EXPECT_PTR_EQ(t, pg->elements, elements);
	KTEST_EXPECT_EQ(t, mempool_resize(pg, 5), 0);
	KTEST_EXPECT_EQ(t, pg->curr_nr, 5);
	mempool_destroy(km);
	mempool_destroy(pg);
}

/* --- backends and forms ---------------------------------------------------- */

static void test_backends(struct ktest *t)
{
	struct kmem_cache *kc = kmem_cache_create("t-mempool-be", 300, 0, 0, NULL);
	long pages = nr_allocated_pages();
	mempool_t *pg, *sl, *km;
	struct page *page;
	void *obj, *k;

	KTEST_ASSERT_NOT_NULL(t, kc);
	/* Pages: 3 blocks of order 2 in the reserve. */
	pg = mempool_create_page_pool(3, 2);
	KTEST_ASSERT_NOT_NULL(t, pg);
	KTEST_EXPECT_GE(t, nr_allocated_pages() - pages, 12L);
	page = mempool_alloc(pg, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, page);
	memset(page_address(page), 0x55, 4 * PAGE_SIZE);
	mempool_free(page, pg);
	page = mempool_alloc_preallocated(pg);
	KTEST_ASSERT_NOT_NULL(t, page);
	KTEST_EXPECT_EQ(t, pg->curr_nr, 2);
	memset(page_address(page), 0x66, 4 * PAGE_SIZE);
	mempool_free(page, pg);
	KTEST_EXPECT_EQ(t, pg->curr_nr, 3);
	mempool_destroy(pg);

	/* A slab cache: the reserve is objects of it. */
	sl = mempool_create_slab_pool(4, kc);
	KTEST_ASSERT_NOT_NULL(t, sl);
	KTEST_EXPECT_EQ(t, slab_objects_in_use_of(kc), 4L);
	obj = mempool_alloc(sl, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, obj);
	KTEST_EXPECT_EQ(t, slab_objects_in_use_of(kc), 5L);
	KTEST_EXPECT_EQ(t, ksize(obj), (size_t)kmem_cache_size(kc));
	mempool_free(obj, sl);
	KTEST_EXPECT_EQ(t, slab_objects_in_use_of(kc), 4L);
	mempool_destroy(sl);
	KTEST_EXPECT_EQ(t, slab_objects_in_use_of(kc), 0L);

	/* kmalloc of a size, created for a node. */
	km = mempool_create_node(2, mempool_kmalloc, mempool_kfree,
				 (void *)(size_t)5000, GFP_KERNEL, 0);
	KTEST_ASSERT_NOT_NULL(t, km);
	k = mempool_alloc(km, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, k);
	KTEST_EXPECT_EQ(t, ksize(k), (size_t)5120);	/* kmalloc-5120 */
	mempool_free(k, km);
	mempool_destroy(km);
	kmem_cache_destroy(kc);
}

/* mempool_init/mempool_exit: a pool inside another structure. */
static void test_init_exit(struct ktest *t)
{
	struct { int a; mempool_t pool; int b; } s = { .a = 1, .b = 2 };
	mempool_t zeroed;
	void *e;

	memset(&zeroed, 0, sizeof(zeroed));
	KTEST_EXPECT_FALSE(t, mempool_initialized(&zeroed));
	mempool_exit(&zeroed);			/* nothing to do */

	KTEST_ASSERT_EQ(t, mempool_init_kmalloc_pool(&s.pool, 3, 64), 0);
	KTEST_EXPECT_TRUE(t, mempool_initialized(&s.pool));
	KTEST_EXPECT_EQ(t, s.pool.curr_nr, 3);
	e = mempool_alloc(&s.pool, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, e);
	mempool_free(e, &s.pool);
	mempool_exit(&s.pool);
	KTEST_EXPECT_FALSE(t, mempool_initialized(&s.pool));
	mempool_exit(&s.pool);			/* twice is fine */
	KTEST_EXPECT_EQ(t, s.a, 1);
	KTEST_EXPECT_EQ(t, s.b, 2);

	KTEST_ASSERT_EQ(t, mempool_init_page_pool(&s.pool, 2, 0), 0);
	mempool_exit(&s.pool);

	/* Filling the reserve fails half way: -ENOMEM, nothing kept. */
	KTEST_ASSERT_EQ(t, fault_attr_set(&failslab, "3,100,0,1", 51), 0);
	KTEST_EXPECT_EQ(t, mempool_init_kmalloc_pool(&s.pool, 4, 64), -ENOMEM);
	fault_attr_disable(&failslab);
	KTEST_EXPECT_FALSE(t, mempool_initialized(&s.pool));
}

/* --- bad input ------------------------------------------------------------- */

static void test_bad_input(struct ktest *t)
{
	struct counting c;
	mempool_t *pool = counting_pool(t, &c, 2);
	mempool_t bad;

	/* NULL elements are ignored, with or without a pool. */
	mempool_free(NULL, pool);
	mempool_free(NULL, NULL);
	KTEST_EXPECT_EQ(t, pool->curr_nr, 2);
	KTEST_EXPECT_EQ(t, c.frees, 0U);
	mempool_destroy(NULL);

	/* min_nr below 1, missing functions: a warning each, no pool. */
	ktest_capture_start(t, "WARNING:");
	KTEST_EXPECT_NULL(t, mempool_create(0, counting_alloc, counting_free, &c));
	KTEST_EXPECT_NULL(t, mempool_create(-3, counting_alloc, counting_free, &c));
	KTEST_EXPECT_NULL(t, mempool_create_kmalloc_pool(0, 32));
	KTEST_EXPECT_EQ(t, mempool_init(&bad, 2, NULL, counting_free, &c), -EINVAL);
	KTEST_EXPECT_EQ(t, mempool_init(&bad, 2, counting_alloc, NULL, &c), -EINVAL);
	KTEST_EXPECT_EQ(t, mempool_resize(pool, 0), -EINVAL);
	KTEST_EXPECT_EQ(t, mempool_resize(pool, -1), -EINVAL);
	ktest_capture_stop(t);
	KTEST_EXPECT_REPORTS(t, REPORT_WARN, 7);
	KTEST_EXPECT_CAPTURED(t, "mempool: bad arguments (min_nr 0)");
	KTEST_EXPECT_CAPTURED(t, "mempool_resize: bad min_nr -1");
	KTEST_EXPECT_FALSE(t, mempool_initialized(&bad));
	KTEST_EXPECT_EQ(t, c.allocs, 0U);
	KTEST_EXPECT_EQ(t, pool->min_nr, 2);
	KTEST_EXPECT_EQ(t, pool->curr_nr, 2);
	mempool_destroy(pool);
}

/* Destroy with elements out: warned and refused; fine once they are back. */
static void test_destroy_busy(struct ktest *t)
{
	struct counting c;
	mempool_t *pool = counting_pool(t, &c, 3);
	mempool_t embedded;
	void *e[2], *r;

	c.fail = true;
	e[0] = mempool_alloc(pool, GFP_NOWAIT);
	e[1] = mempool_alloc(pool, GFP_NOWAIT);
	KTEST_ASSERT_NOT_NULL(t, e[0]);
	KTEST_ASSERT_NOT_NULL(t, e[1]);
	c.fail = false;

	ktest_capture_start(t, "WARNING:");
	mempool_destroy(pool);
	ktest_capture_stop(t);
	KTEST_EXPECT_REPORTS(t, REPORT_WARN, 1);
	KTEST_EXPECT_CAPTURED(t, "mempool_destroy: 2 of the 3 reserved elements are still outstanding");
	/* Refused: the pool is intact and works. */
	KTEST_EXPECT_EQ(t, c.frees, 0U);
	KTEST_EXPECT_EQ(t, pool->curr_nr, 1);
	KTEST_EXPECT_EQ(t, pool->min_nr, 3);
	r = pool->elements[0];
	KTEST_EXPECT_PTR_EQ(t, mempool_alloc_preallocated(pool), r);
	mempool_free(r, pool);
	mempool_free(e[0], pool);
	mempool_free(e[1], pool);
	KTEST_EXPECT_EQ(t, pool->curr_nr, 3);
	mempool_destroy(pool);
	KTEST_EXPECT_EQ(t, c.frees, 3U);

	/* mempool_exit refuses the same way. */
	KTEST_ASSERT_EQ(t, mempool_init_kmalloc_pool(&embedded, 1, 16), 0);
	e[0] = mempool_alloc_preallocated(&embedded);
	KTEST_ASSERT_NOT_NULL(t, e[0]);
	ktest_capture_start(t, "WARNING:");
	mempool_exit(&embedded);
	ktest_capture_stop(t);
	KTEST_EXPECT_REPORTS(t, REPORT_WARN, 1);
	KTEST_EXPECT_CAPTURED(t, "mempool_exit: 1 of the 1 reserved elements");
	KTEST_EXPECT_TRUE(t, mempool_initialized(&embedded));
	mempool_free(e[0], &embedded);
	mempool_exit(&embedded);
	KTEST_EXPECT_FALSE(t, mempool_initialized(&embedded));
}

/* --- two CPUs ------------------------------------------------------------- */

#define SMP_ROUNDS	100000
#define SMP_HELD	6

/* An element: who holds it now (0: nobody), set on alloc, cleared on free. */
struct smp_elem {
	unsigned long owner;
	unsigned long pad[7];
};

struct smp_pool {
	mempool_t *pool;
	unsigned long calls;	/* backend allocs; 3 of every 4 fail */
	unsigned long backend_live;
	unsigned long twice;	/* an element handed out while held */
	unsigned long nulls;
	unsigned long ready;	/* CPUs at the start line */
	bool flaky;		/* make the backend fail */
};

static void *smp_backend_alloc(gfp_t gfp, void *data)
{
	struct smp_pool *sp = data;
	void *p;

	if ((__atomic_fetch_add(&sp->calls, 1, __ATOMIC_RELAXED) & 3) &&
	    sp->flaky)
		return NULL;
	p = kzalloc(sizeof(struct smp_elem), gfp);
	if (p)
		__atomic_fetch_add(&sp->backend_live, 1, __ATOMIC_RELAXED);
	return p;
}

static void smp_backend_free(void *element, void *data)
{
	struct smp_pool *sp = data;

	__atomic_fetch_sub(&sp->backend_live, 1, __ATOMIC_RELAXED);
	kfree(element);
}

static void smp_pool_worker(struct smp_pool *sp, unsigned long me)
{
	struct smp_elem *held[SMP_HELD] = { NULL };

	/* Start together, or one CPU may be done before the other begins. */
	__atomic_fetch_add(&sp->ready, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&sp->ready, __ATOMIC_ACQUIRE) < 2)
		arch_cpu_relax();
	for (unsigned long n = 0; n < SMP_ROUNDS; n++) {
		unsigned int slot = n % SMP_HELD;
		struct smp_elem *e = held[slot];
		unsigned long none = 0;

		if (e) {
			__atomic_store_n(&e->owner, 0, __ATOMIC_RELEASE);
			mempool_free(e, sp->pool);
		}
		e = mempool_alloc(sp->pool, GFP_NOWAIT);
		held[slot] = e;
		if (!e) {
			__atomic_fetch_add(&sp->nulls, 1, __ATOMIC_RELAXED);
			continue;
		}
		if (!__atomic_compare_exchange_n(&e->owner, &none, me, false,
						 __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			__atomic_fetch_add(&sp->twice, 1, __ATOMIC_RELAXED);
	}
	for (unsigned int i = 0; i < SMP_HELD; i++) {
		if (held[i]) {
			__atomic_store_n(&held[i]->owner, 0, __ATOMIC_RELEASE);
			mempool_free(held[i], sp->pool);
		}
	}
}

static void smp_pool_cpu1(void *arg)
{
	smp_pool_worker(arg, 2);
}

/* Two CPUs share a pool whose backend fails 3 times in 4. */
static void test_two_cpus(struct ktest *t)
{
	static struct smp_pool sp;
	int err;

	memset(&sp, 0, sizeof(sp));
	sp.pool = mempool_create(4, smp_backend_alloc, smp_backend_free, &sp);
	KTEST_ASSERT_NOT_NULL(t, sp.pool);
	sp.flaky = true;

	err = arch_cpu_run(1, smp_pool_cpu1, &sp);
	if (err == -ENOSYS || (err == -EINVAL && nr_cpu_ids < 2)) {
		mempool_destroy(sp.pool);
		ktest_skip(t, "no second CPU to run work on (arch_cpu_run)");
	}
	KTEST_ASSERT_EQ(t, err, 0);
	smp_pool_worker(&sp, 1);
	arch_cpu_join(1);
	ktest_info(t, "%lu backend calls, %lu NULLs", sp.calls, sp.nulls);
	KTEST_EXPECT_EQ(t, sp.twice, 0UL);
	KTEST_EXPECT_EQ(t, sp.pool->curr_nr, 4);
	/* Everything is back: only the reserve is left. */
	KTEST_EXPECT_EQ(t, sp.backend_live, 4UL);
	mempool_destroy(sp.pool);
	KTEST_EXPECT_EQ(t, sp.backend_live, 0UL);
}

static void mempool_test_exit(struct ktest *t)
{
	(void)t;
	fault_attr_disable(&failslab);
	fault_attr_disable(&fail_page_alloc);
}

static const struct ktest_case mempool_cases[] = {
	KTEST_CASE(test_backend_flags),
	KTEST_CASE(test_gfp_zero_dropped),
	KTEST_CASE(test_free_refills_reserve_first),
	KTEST_CASE(test_reserve_with_memory_exhausted),
	KTEST_CASE(test_reserve_with_failslab),
	KTEST_CASE(test_resize),
	KTEST_CASE(test_resize_failure_changes_nothing),
	KTEST_CASE(test_backends),
	KTEST_CASE(test_init_exit),
	KTEST_CASE(test_bad_input),
	KTEST_CASE(test_destroy_busy),
	KTEST_CASE(test_two_cpus),
	{}
};

KTEST_SUITE(mempool, mempool_cases, .exit = mempool_test_exit);

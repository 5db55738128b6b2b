// SPDX-License-Identifier: GPL-2.0
/*
 * The slab allocator's promises, checked through its public API the way
 * a caller meets them (mm/slab.h, mm/gfp.h); the internal header is read
 * only to see whether reserve mode is on:
 *
 *  - a gfp mask of 0 is a mask like any other: it never gets an object
 *    of the emergency reserve, and failslab fails it;
 *  - objects of reserve slabs never reach ordinary callers, whatever
 *    path they take (per-CPU arrays, bulk calls, kmalloc);
 *  - reserve mode ends on its own, with no shrink: when the last object
 *    of a reserve slab comes back, and once memory is back while reserve
 *    objects are still held;
 *  - a zone modifier a cache cannot honour (GFP_DMA32 to kmalloc, GFP_DMA
 *    to a cache made without SLAB_CACHE_DMA) gets a WARNING every time,
 *    also when the per-CPU array could have served it at once, and the
 *    object comes from the cache's own zone;
 *  - SLAB_TYPESAFE_BY_RCU frees a cache's pages after a grace period, as
 *    mm/slab.h says (tests/test_rcu.c holds a reader across it).
 */
#include "kernel/rcupdate.h"
#include "kernel/report.h"
#include "lib/ktest/ktest.h"
#include "mm/fault_inject.h"
#include "mm/gfp.h"
#include "mm/internal.h"	/* page_zone(), for the zone checks */
#include "mm/mm.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"	/* slab_pfmemalloc_active() */
#include "tests/mm_util.h"

#define NR_RESERVE	3

static bool odd(const void *p)
{
	return (unsigned long)p & 1;
}

static bool from_reserve(const void *p)
{
	return p && slab_test_pfmemalloc(virt_to_slab(p));
}

/*
 * With memory exhausted, NR_RESERVE objects of c from one reserve slab
 * (a fresh cache: they all come from the first slab made). False, with
 * memory released, if the reserve gave nothing.
 */
static bool take_reserve(struct ktest *t, struct kmem_cache *c,
			 struct hog **hogs, void **obj)
{
	*hogs = hog_memory();
	KTEST_EXPECT_NOT_NULL(t, *hogs);
	for (int i = 0; i < NR_RESERVE; i++) {
		obj[i] = kmem_cache_alloc(c, GFP_KERNEL | __GFP_MEMALLOC);
		KTEST_EXPECT_NOT_NULL(t, obj[i]);
		KTEST_EXPECT_TRUE(t, from_reserve(obj[i]));
		KTEST_EXPECT_FALSE(t, odd(obj[i]));
		if (!obj[i]) {
			while (i--)
				kmem_cache_free(c, obj[i]);
			release_memory(*hogs);
			return false;
		}
	}
	KTEST_EXPECT_TRUE(t, slab_pfmemalloc_active());
	return true;
}

/*
 * A new cache of size-byte objects holding NR_RESERVE reserve objects,
 * memory exhausted (*hogs); NULL if that could not be set up (the
 * failure is recorded, nothing is left behind).
 */
static struct kmem_cache *reserve_cache(struct ktest *t, const char *name,
					unsigned int size, struct hog **hogs,
					void **obj)
{
	struct kmem_cache *c = kmem_cache_create(name, size, 0, 0, NULL);

	KTEST_ASSERT_NOT_NULL(t, c);
	skip_debugged_cache(t, c);
	if (!take_reserve(t, c, hogs, obj)) {
		kmem_cache_destroy(c);
		return NULL;
	}
	return c;
}

static void free_reserve(struct kmem_cache *c, void **obj, int from)
{
	for (int i = from; i < NR_RESERVE; i++)
		kmem_cache_free(c, obj[i]);
}

/*
 * The bug: a reserve user's refill put a batch of reserve objects, each
 * marked in bit 0, into the per-CPU array, and a gfp of 0 missed the
 * fast path's test and popped one, mark and all.
 */
static void test_gfp0_gets_no_reserve_object(struct ktest *t)
{
	struct kmem_cache *c;
	void *obj[NR_RESERVE], *p, *bulk[4];
	struct hog *hogs;

	c = reserve_cache(t, "t-gfp0", 64, &hogs, obj);
	if (!c)
		return;
	kmem_cache_free(c, obj[0]);

	/* Memory is still exhausted: an ordinary caller gets nothing. */
	p = kmem_cache_alloc(c, 0);
	KTEST_EXPECT_FALSE(t, odd(p));
	KTEST_EXPECT_FALSE(t, from_reserve(p));
	KTEST_EXPECT_NULL(t, p);
	kmem_cache_free(c, p);
	KTEST_EXPECT_EQ(t, kmem_cache_alloc_bulk(c, 0, 4, bulk), 0);
	p = kmem_cache_alloc(c, GFP_KERNEL | __GFP_NOWARN);
	KTEST_EXPECT_NULL(t, p);
	kmem_cache_free(c, p);

	/* A reserve user still gets the freed one back. */
	obj[0] = kmem_cache_alloc(c, __GFP_MEMALLOC);
	KTEST_EXPECT_TRUE(t, from_reserve(obj[0]));
	KTEST_EXPECT_FALSE(t, odd(obj[0]));

	free_reserve(c, obj, 0);
	release_memory(hogs);
	kmem_cache_destroy(c);
}

/* The same through kmalloc, whose caches are shared with everybody. */
static void test_kmalloc_gfp0_gets_no_reserve_object(struct ktest *t)
{
	struct kmem_cache *c = kmalloc_slab(192, GFP_KERNEL);
	void *obj, *p;
	struct hog *hogs;

	KTEST_ASSERT_NOT_NULL(t, c);
	skip_if_kmalloc_debugged(t);
	skip_if_kasan_quarantine(t);
	/* Nothing cached: the next kmalloc-192 object needs a new slab. */
	kmem_cache_shrink(c);
	hogs = hog_memory();
	KTEST_ASSERT_NOT_NULL(t, hogs);
	obj = kmalloc(192, GFP_KERNEL | __GFP_MEMALLOC);
	if (!obj || !from_reserve(obj)) {
		/* Some partial slab of kmalloc-192 served it: nothing to test. */
		kfree(obj);
		release_memory(hogs);
		ktest_skip(t, "kmalloc-192 had free objects left");
		return;
	}
	kfree(obj);	/* its slab is empty again and goes back at once */
	KTEST_EXPECT_FALSE(t, slab_pfmemalloc_active());
	obj = kmalloc(192, GFP_KERNEL | __GFP_MEMALLOC);
	KTEST_EXPECT_TRUE(t, from_reserve(obj));
	for (int i = 0; i < 8; i++) {
		p = kmalloc(192, 0);
		KTEST_EXPECT_FALSE(t, odd(p));
		KTEST_EXPECT_FALSE(t, from_reserve(p));
		kfree(p);
	}
	kfree(obj);
	release_memory(hogs);
}

/* failslab used to skip a gfp of 0: the fast path served it. */
static void test_failslab_fails_gfp0(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("t-gfp0-fail", 64, 0, 0, NULL);
	void *warm, *p, *bulk[4];

	KTEST_ASSERT_NOT_NULL(t, c);
	/* Objects in the per-CPU arrays, so a fast path could serve. */
	warm = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, warm);
	kmem_cache_free(c, warm);
	warm = kmalloc(64, GFP_KERNEL);
	kfree(warm);

	KTEST_ASSERT_EQ(t, fault_attr_set(&failslab, "1,100,0,-1", 1), 0);
	p = kmem_cache_alloc(c, 0);
	KTEST_EXPECT_NULL(t, p);
	kmem_cache_free(c, p);
	p = kmalloc(64, 0);
	KTEST_EXPECT_NULL(t, p);
	kfree(p);
	KTEST_EXPECT_EQ(t, kmem_cache_alloc_bulk(c, 0, 4, bulk), 0);
	KTEST_EXPECT_GE(t, failslab.failures, 3UL);
	fault_attr_disable(&failslab);

	p = kmem_cache_alloc(c, 0);
	KTEST_EXPECT_NOT_NULL(t, p);
	kmem_cache_free(c, p);
	kmem_cache_destroy(c);
}

/* The last reserve object back: the slab goes, and reserve mode ends. */
static void test_reserve_mode_ends_when_freed(struct ktest *t)
{
	struct kmem_cache *c;
	void *obj[NR_RESERVE];
	unsigned long before;
	struct hog *hogs;

	skip_if_kasan_quarantine(t);
	c = reserve_cache(t, "t-reserve-end", 256, &hogs, obj);
	if (!c)
		return;
	before = pages_free();
	for (int i = 0; i < NR_RESERVE; i++) {
		kmem_cache_free(c, obj[i]);
		/* Still exhausted: the slab stays a reserve one till empty. */
		KTEST_EXPECT_EQ(t, slab_pfmemalloc_active(),
				i < NR_RESERVE - 1);
	}
	/* No shrink: the empty reserve slab went back by itself. */
	KTEST_EXPECT_GT(t, pages_free(), before);
	KTEST_EXPECT_EQ(t, get_node(c, 0)->total_slabs, 0UL);
	release_memory(hogs);
	kmem_cache_destroy(c);
}

/*
 * Memory comes back while reserve objects are held: the next free of one
 * turns the slab ordinary, and reserve mode ends though the objects are
 * still in use.
 */
static void test_reserve_mode_ends_when_memory_back(struct ktest *t)
{
	struct kmem_cache *c;
	void *obj[NR_RESERVE], *p;
	struct hog *hogs;

	skip_if_kasan_quarantine(t);
	c = reserve_cache(t, "t-reserve-back", 128, &hogs, obj);
	if (!c)
		return;
	release_memory(hogs);
	KTEST_EXPECT_TRUE(t, slab_pfmemalloc_active());
	kmem_cache_free(c, obj[0]);
	KTEST_EXPECT_FALSE(t, slab_pfmemalloc_active());
	KTEST_EXPECT_FALSE(t, from_reserve(obj[1]));
	/* Its objects are ordinary ones now, for anybody. */
	p = kmem_cache_alloc(c, 0);
	KTEST_EXPECT_NOT_NULL(t, p);
	KTEST_EXPECT_FALSE(t, odd(p));
	kmem_cache_free(c, p);
	free_reserve(c, obj, 1);
	kmem_cache_destroy(c);
}

/*
 * The same when an ordinary allocation meets the reserve slab first: it
 * takes its free objects once memory allows.
 */
static void test_reserve_slab_turns_ordinary_on_alloc(struct ktest *t)
{
	struct kmem_cache *c;
	void *obj[NR_RESERVE], *p;
	struct hog *hogs;

	c = reserve_cache(t, "t-reserve-alloc", 128, &hogs, obj);
	if (!c)
		return;
	release_memory(hogs);
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_EXPECT_NOT_NULL(t, p);
	if (p)
		KTEST_EXPECT_PTR_EQ(t, virt_to_slab(p), virt_to_slab(obj[0]));
	KTEST_EXPECT_FALSE(t, slab_pfmemalloc_active());
	kmem_cache_free(c, p);
	free_reserve(c, obj, 0);
	kmem_cache_destroy(c);
}

/* No reserve object is ever left in an array, per-CPU or shared. */
static void test_reserve_objects_stay_out_of_arrays(struct ktest *t)
{
	struct kmem_cache *c;
	struct array_cache *acs[2];
	void *obj[NR_RESERVE];
	unsigned int bad = 0;
	struct hog *hogs;

	c = reserve_cache(t, "t-reserve-arrays", 64, &hogs, obj);
	if (!c)
		return;
	kmem_cache_free(c, obj[1]);
	kmem_cache_free_bulk(c, 1, &obj[2]);
	acs[0] = c->cpu_cache[arch_cpu_id()];
	acs[1] = get_node(c, 0)->shared;
	for (int a = 0; a < 2; a++) {
		for (unsigned int i = 0; acs[a] && i < acs[a]->avail; i++) {
			void *entry = acs[a]->entry[i];

			bad += odd(entry) || from_reserve(entry);
		}
	}
	KTEST_EXPECT_EQ(t, bad, 0U);
	kmem_cache_free(c, obj[0]);
	release_memory(hogs);
	kmem_cache_destroy(c);
}

static bool in_zone(const void *p, enum zone_type zone)
{
	return page_zonenum(virt_to_page(p)) <= zone;
}

/* kmalloc has no DMA32 caches: GFP_DMA32 is refused loudly, every time. */
static void test_kmalloc_dma32_refused(struct ktest *t)
{
	void *warm, *p[2];

	skip_if_kmalloc_debugged(t);
	/* An object in the per-CPU array: the fast path could serve. */
	warm = kmalloc(512, GFP_KERNEL);
	kfree(warm);
	ktest_capture_start(t, "WARNING:");
	for (int i = 0; i < 2; i++)
		p[i] = kmalloc(512, GFP_KERNEL | GFP_DMA32);
	ktest_capture_stop(t);
	KTEST_EXPECT_REPORTS(t, REPORT_WARN, 2);
	KTEST_EXPECT_CAPTURED(t, "kmalloc-512: unexpected gfp 0xcc4");
	for (int i = 0; i < 2; i++) {
		KTEST_EXPECT_NOT_NULL(t, p[i]);
		if (p[i])
			KTEST_EXPECT_PTR_EQ(t, virt_to_slab(p[i])->slab_cache,
					    kmalloc_slab(512, GFP_KERNEL));
		kfree(p[i]);
	}
}

/* Large kmalloc comes from the page allocator, which honours DMA32. */
static void test_large_kmalloc_dma32_honoured(struct ktest *t)
{
	void *p = kmalloc(3 * PAGE_SIZE, GFP_KERNEL | GFP_DMA32);

	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_TRUE(t, in_zone(p, ZONE_DMA32));
	kfree(p);
}

/* GFP_DMA on a cache made without SLAB_CACHE_DMA: refused loudly. */
static void test_cache_dma_flagcheck(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("t-flagcheck", 96, 0, 0, NULL);
	struct kmem_cache *d = kmem_cache_create("t-flagcheck-dma", 96, 0,
						 SLAB_CACHE_DMA, NULL);
	void *p, *q;

	KTEST_ASSERT_NOT_NULL(t, c);
	KTEST_ASSERT_NOT_NULL(t, d);
	p = kmem_cache_alloc(c, GFP_KERNEL);
	kmem_cache_free(c, p);
	ktest_capture_start(t, "WARNING:");
	p = kmem_cache_alloc(c, GFP_KERNEL | GFP_DMA);
	ktest_capture_stop(t);
	KTEST_EXPECT_REPORTS(t, REPORT_WARN, 1);
	KTEST_EXPECT_CAPTURED(t, "t-flagcheck: unexpected gfp 0xcc1");
	KTEST_EXPECT_NOT_NULL(t, p);
	kmem_cache_free(c, p);

	/* What a cache can honour is no warning: DMA, and DMA32 on DMA. */
	ktest_capture_start(t, "WARNING:");
	p = kmem_cache_alloc(d, GFP_KERNEL | GFP_DMA);
	q = kmem_cache_alloc(d, GFP_KERNEL | GFP_DMA32);
	ktest_capture_stop(t);
	KTEST_EXPECT_REPORTS(t, REPORT_WARN, 0);
	KTEST_EXPECT_TRUE(t, p && in_zone(p, ZONE_DMA));
	KTEST_EXPECT_TRUE(t, q && in_zone(q, ZONE_DMA));
	kmem_cache_free(d, p);
	kmem_cache_free(d, q);
	p = kmalloc(64, GFP_KERNEL | GFP_DMA);
	KTEST_EXPECT_TRUE(t, p && in_zone(p, ZONE_DMA));
	kfree(p);
	kmem_cache_destroy(c);
	kmem_cache_destroy(d);
}

/* SLAB_TYPESAFE_BY_RCU pages go back once a grace period has passed. */
static void test_typesafe_by_rcu_frees_after_gp(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("t-rcu-gp", 512, 0,
						 SLAB_TYPESAFE_BY_RCU, NULL);
	unsigned long before;
	struct page *page;
	void *p;

	KTEST_ASSERT_NOT_NULL(t, c);
	before = pages_baseline();
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	page = compound_head(virt_to_page(p));
	kmem_cache_free(c, p);
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
	rcu_barrier();
	KTEST_EXPECT_FALSE(t, PageSlab(page));
	KTEST_EXPECT_EQ(t, pages_baseline(), before);
	kmem_cache_destroy(c);
}

static const struct ktest_case slab_contract_cases[] = {
	KTEST_CASE(test_gfp0_gets_no_reserve_object),
	KTEST_CASE(test_kmalloc_gfp0_gets_no_reserve_object),
	KTEST_CASE(test_failslab_fails_gfp0),
	KTEST_CASE(test_reserve_mode_ends_when_freed),
	KTEST_CASE(test_reserve_mode_ends_when_memory_back),
	KTEST_CASE(test_reserve_slab_turns_ordinary_on_alloc),
	KTEST_CASE(test_reserve_objects_stay_out_of_arrays),
	KTEST_CASE(test_kmalloc_dma32_refused),
	KTEST_CASE(test_large_kmalloc_dma32_honoured),
	KTEST_CASE(test_cache_dma_flagcheck),
	KTEST_CASE(test_typesafe_by_rcu_frees_after_gp),
	{}
};
KTEST_SUITE(slab_contract, slab_contract_cases);

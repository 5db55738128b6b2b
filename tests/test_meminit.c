// SPDX-License-Identifier: GPL-2.0
/*
 * init_on_alloc=1 and init_on_free=1 (mm/gfp.h; mm/page_alloc.c section
 * 7, mm/slab.c section 7), on the ground of Linux's lib/test_meminit.c:
 * memory filled with garbage and freed comes back zeroed, at every page
 * order 0-3, every kmalloc size class and large kmalloc, both kvmalloc
 * branches, a plain cache; and Linux's exceptions hold: a constructor's
 * contents and a SLAB_TYPESAFE_BY_RCU object's survive, slab_debug's
 * poison wins over both, and with init_on_free no cache keeps its index
 * array in an object (it would be handed out with the array in it).
 *
 * The parameters are set at boot only, so the zeroing cases are skipped
 * when neither is on (make check runs the suite with each, make test
 * boots it with both): the first case then checks that nothing is on
 * and the page fast paths are not diverted.
 */
#include "kernel/rcupdate.h"
#include "lib/ktest/ktest.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/kasan.h"
#include "mm/mm.h"
#include "mm/page_debug.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"	/* white-box: freelist placement */
#include "mm/util.h"
#include "mm/vmalloc.h"
#include "tests/mm_util.h"

#define GARBAGE		0xa5
#define NR_BLOCKS	8
#define CTOR_BYTE	0x3c

static void skip_unless_init(struct ktest *t)
{
	if (!want_init_on_free() && !init_on_alloc)
		ktest_skip(t, "init_on_alloc and init_on_free are off");
}

static bool all_zero(const void *p, size_t size)
{
	return !memchr_inv(p, 0, size);
}

/*
 * Which switches are on, as the boot set them: page_poison overrides
 * both; either sends the page allocator to its slow paths (the bit the
 * fast paths test); neither leaves those paths as they are.
 */
static void test_params(struct ktest *t)
{
	bool init = init_on_alloc || init_on_free;

	ktest_info(t, "init_on_alloc=%d init_on_free=%d", init_on_alloc,
		   init_on_free);
	if (page_poisoning_enabled())
		KTEST_EXPECT_FALSE(t, init);
	KTEST_EXPECT_EQ(t, !!(page_debug_flags & PAGE_DEBUG_INIT), init);
	KTEST_EXPECT_EQ(t, want_init_on_free(), init_on_free);
	KTEST_EXPECT_TRUE(t, want_init_on_alloc(__GFP_ZERO));
	KTEST_EXPECT_EQ(t, want_init_on_alloc(GFP_KERNEL), init_on_alloc);
}

/* --- pages --------------------------------------------------------------- */

/*
 * A freed block's bytes, read on purpose: valid to KASAN (which calls
 * any other read of them a use after free) for the read alone.
 */
static bool freed_block_zero(struct page *page, unsigned int order)
{
	size_t size = PAGE_SIZE << order;
	bool zero;

	kasan_unpoison_range(page_address(page), size);
	zero = all_zero(page_address(page), size);
	kasan_free_pages(page, order);
	return zero;
}

static const unsigned int orders[] = { 0, 1, 2, 3 };

static void order_desc(const unsigned int *order, char *desc)
{
	snprintf(desc, KTEST_DESC_SIZE, "order %u", *order);
}

KTEST_ARRAY_PARAM(order_gen, orders, order_desc);

/*
 * Blocks filled with garbage and freed come back zeroed (the per-CPU
 * lists hand the same ones out again). With init_on_free they are zero
 * as soon as they are freed, before anyone allocates them.
 */
static void test_pages(struct ktest *t)
{
	unsigned int order = *(const unsigned int *)t->param_value;
	size_t size = PAGE_SIZE << order;
	struct page *pages[NR_BLOCKS];
	unsigned int dirty = 0;

	skip_unless_init(t);
	for (unsigned int i = 0; i < NR_BLOCKS; i++) {
		pages[i] = alloc_pages(GFP_KERNEL, order);
		KTEST_ASSERT_NOT_NULL(t, pages[i]);
		memset(page_address(pages[i]), GARBAGE, size);
	}
	for (unsigned int i = 0; i < NR_BLOCKS; i++) {
		__free_pages(pages[i], order);
		if (init_on_free && !debug_pagealloc_enabled())
			dirty += !freed_block_zero(pages[i], order);
	}
	KTEST_EXPECT_EQ(t, dirty, 0U);
	for (unsigned int i = 0; i < NR_BLOCKS; i++) {
		pages[i] = alloc_pages(GFP_KERNEL, order);
		KTEST_ASSERT_NOT_NULL(t, pages[i]);
		dirty += !all_zero(page_address(pages[i]), size);
	}
	KTEST_EXPECT_EQ(t, dirty, 0U);
	for (unsigned int i = 0; i < NR_BLOCKS; i++)
		__free_pages(pages[i], order);
}

/* __GFP_ZERO still zeroes, whoever else does (init_on_free skips it). */
static void test_pages_gfp_zero(struct ktest *t)
{
	struct page *page = alloc_pages(GFP_KERNEL, 2);

	KTEST_ASSERT_NOT_NULL(t, page);
	memset(page_address(page), GARBAGE, PAGE_SIZE << 2);
	__free_pages(page, 2);
	page = alloc_pages(GFP_KERNEL | __GFP_ZERO, 2);
	KTEST_ASSERT_NOT_NULL(t, page);
	KTEST_EXPECT_TRUE(t, all_zero(page_address(page), PAGE_SIZE << 2));
	__free_pages(page, 2);
}

/* --- kmalloc, kvmalloc ----------------------------------------------------- */

/* Allocate size, fill it with garbage, free it, allocate again: zero? */
static bool kmalloc_reused_zero(struct ktest *t, size_t size)
{
	void *p = kmalloc(size, GFP_KERNEL);
	bool zero;

	KTEST_ASSERT_NOT_NULL(t, p);
	memset(p, GARBAGE, size);
	kfree(p);
	p = kmalloc(size, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	zero = all_zero(p, size);
	kfree(p);
	return zero;
}

/* Every kmalloc size class, each at its full size, then large kmallocs. */
static void test_kmalloc(struct ktest *t)
{
	unsigned int classes = 0, dirty = 0;
	size_t size = 1;

	skip_unless_init(t);
	while (size <= KMALLOC_MAX_CACHE_SIZE) {
		void *p = kmalloc(size, GFP_KERNEL);

		KTEST_ASSERT_NOT_NULL(t, p);
		size = ksize(p);
		kfree(p);
		classes++;
		if (!kmalloc_reused_zero(t, size)) {
			ktest_info(t, "kmalloc(%zu) not zeroed", size);
			dirty++;
		}
		size++;
	}
	KTEST_EXPECT_GE(t, classes, 14U);
	for (size = KMALLOC_MAX_CACHE_SIZE * 2; size <= KMALLOC_MAX_SIZE;
	     size *= 8)
		dirty += !kmalloc_reused_zero(t, size);
	KTEST_EXPECT_EQ(t, dirty, 0U);
}

static void test_kvmalloc(struct ktest *t)
{
	const size_t sizes[] = { 100, PAGE_SIZE * 3, KMALLOC_MAX_SIZE + PAGE_SIZE };

	skip_unless_init(t);
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		void *p = kvmalloc(sizes[i], GFP_KERNEL);

		KTEST_ASSERT_NOT_NULL(t, p);
		KTEST_EXPECT_EQ(t, is_vmalloc_addr(p), i == 2);
		memset(p, GARBAGE, sizes[i]);
		kvfree(p);
		p = kvmalloc(sizes[i], GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, p);
		KTEST_EXPECT_TRUE(t, all_zero(p, sizes[i]));
		kvfree(p);
	}
}

/* --- caches ---------------------------------------------------------------- */

static void destroy_cache(void *cachep)
{
	kmem_cache_destroy(cachep);
}

static struct kmem_cache *make_cache(struct ktest *t, const char *name,
				     unsigned int size, slab_flags_t flags,
				     void (*ctor)(void *))
{
	struct kmem_cache *cachep = kmem_cache_create(name, size, 0, flags,
						      ctor);

	KTEST_ASSERT_NOT_NULL(t, cachep);
	KTEST_ASSERT_EQ(t, ktest_add_action_or_reset(t, destroy_cache, cachep),
			0);
	return cachep;
}

/*
 * A plain cache: many objects (several new slabs) filled with garbage,
 * freed and allocated again, all zero. Its new slabs' objects are zero
 * too, which they would not be if the index array lived in one of them
 * (Linux's reason to keep it out with init_on_free).
 */
static void test_cache(struct ktest *t)
{
	enum { N = 256, SIZE = 72 };
	struct kmem_cache *cachep;
	void **objs = ktest_kzalloc(t, N * sizeof(void *), GFP_KERNEL);
	unsigned int dirty = 0;

	skip_unless_init(t);
	KTEST_ASSERT_NOT_NULL(t, objs);
	cachep = make_cache(t, "meminit-plain", SIZE, 0, NULL);
	if (init_on_free)
		KTEST_EXPECT_NE(t, cachep->freelist_place, FREELIST_IN_OBJECT);
	for (unsigned int i = 0; i < N; i++) {
		objs[i] = kmem_cache_alloc(cachep, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, objs[i]);
		dirty += !all_zero(objs[i], SIZE);
		memset(objs[i], GARBAGE, SIZE);
	}
	KTEST_EXPECT_EQ(t, dirty, 0U);
	for (unsigned int i = 0; i < N; i++)
		kmem_cache_free(cachep, objs[i]);
	for (unsigned int i = 0; i < N; i++) {
		objs[i] = kmem_cache_alloc(cachep, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, objs[i]);
		dirty += !all_zero(objs[i], SIZE);
	}
	KTEST_EXPECT_EQ(t, dirty, 0U);
	kmem_cache_free_bulk(cachep, N, objs);
	KTEST_EXPECT_EQ(t, kmem_cache_alloc_bulk(cachep, GFP_KERNEL, N, objs),
			N);
	for (unsigned int i = 0; i < N; i++)
		dirty += !all_zero(objs[i], SIZE);
	KTEST_EXPECT_EQ(t, dirty, 0U);
	kmem_cache_free_bulk(cachep, N, objs);
}

static void ctor_fill(void *obj)
{
	memset(obj, CTOR_BYTE, 64);
}

/*
 * A constructor's contents are the object's while free: never zeroed,
 * neither when freed nor when allocated again (Linux's exception).
 */
static void test_ctor_cache(struct ktest *t)
{
	struct kmem_cache *cachep = make_cache(t, "meminit-ctor", 64, 0,
					       ctor_fill);
	void *objs[NR_BLOCKS];

	for (unsigned int round = 0; round < 2; round++) {
		for (unsigned int i = 0; i < NR_BLOCKS; i++) {
			objs[i] = kmem_cache_alloc(cachep, GFP_KERNEL);
			KTEST_ASSERT_NOT_NULL(t, objs[i]);
			KTEST_EXPECT_FALSE(t, memchr_inv(objs[i], CTOR_BYTE, 64));
		}
		for (unsigned int i = 0; i < NR_BLOCKS; i++)
			kmem_cache_free(cachep, objs[i]);
	}
}

/*
 * SLAB_TYPESAFE_BY_RCU: a reader inside rcu_read_lock() may still look
 * at an object freed meanwhile, and must find it as it was: not zeroed
 * by its free; nor by its next allocation (it may be the same object,
 * the per-CPU array's last in).
 */
static void test_typesafe_by_rcu(struct ktest *t)
{
	struct kmem_cache *cachep = make_cache(t, "meminit-rcu", 96,
					       SLAB_TYPESAFE_BY_RCU, NULL);
	unsigned char *obj, *again;

	obj = kmem_cache_alloc(cachep, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, obj);
	memset(obj, GARBAGE, 96);
	rcu_read_lock();
	kmem_cache_free(cachep, obj);
	KTEST_EXPECT_FALSE(t, memchr_inv(obj, GARBAGE, 96));
	again = kmem_cache_alloc(cachep, GFP_KERNEL);
	rcu_read_unlock();
	KTEST_ASSERT_NOT_NULL(t, again);
	if (again == obj)
		KTEST_EXPECT_FALSE(t, memchr_inv(again, GARBAGE, 96));
	else
		ktest_info(t, "another object came back: not compared");
	kmem_cache_free(cachep, again);
}

/*
 * slab_debug's poison wins (Linux's rule): a poisoned cache's free
 * objects keep the poison, checked when they are handed out again
 * (zeroing them would be reported as a write after free), and a new
 * object holds the in-use poison unless __GFP_ZERO asks.
 */
static void test_poison_wins(struct ktest *t)
{
	struct kmem_cache *cachep = make_cache(t, "meminit-poison", 64,
					       SLAB_POISON, NULL);
	unsigned char *obj;

	obj = kmem_cache_alloc(cachep, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, obj);
	memset(obj, GARBAGE, 64);
	ktest_capture_start(t, "BUG:");
	kmem_cache_free(cachep, obj);
	obj = kmem_cache_alloc(cachep, GFP_KERNEL);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
	KTEST_ASSERT_NOT_NULL(t, obj);
	KTEST_EXPECT_FALSE(t, all_zero(obj, 64));
	kmem_cache_free(cachep, obj);
	obj = kmem_cache_zalloc(cachep, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, obj);
	KTEST_EXPECT_TRUE(t, all_zero(obj, 64));
	kmem_cache_free(cachep, obj);
}

static const struct ktest_case meminit_cases[] = {
	KTEST_CASE(test_params),
	KTEST_CASE_PARAM(test_pages, order_gen),
	KTEST_CASE(test_pages_gfp_zero),
	KTEST_CASE(test_kmalloc),
	KTEST_CASE(test_kvmalloc),
	KTEST_CASE(test_cache),
	KTEST_CASE(test_ctor_cache),
	KTEST_CASE(test_typesafe_by_rcu),
	KTEST_CASE(test_poison_wins),
	{}
};
KTEST_SUITE(meminit, meminit_cases);

// SPDX-License-Identifier: GPL-2.0
/*
 * kmalloc and friends (mm/slab.c), from the caller's side:
 *
 *  - size classes: every size 1..8192 lands in the class an explicit
 *    table gives (8, 16, 32, 64, 96, 128, 192, 256, ... 8192), ksize is
 *    that class, the object comes from that kmalloc cache, with at
 *    least 8-byte and, for power-of-two classes, natural alignment;
 *  - large sizes: compound pages of the order worked out by hand, not
 *    slab pages; above 4 MiB, NULL; a bad kfree of large memory is
 *    reported and ignored;
 *  - krealloc, kcalloc, kmalloc_array, kzalloc, kfree_sensitive, zero
 *    sizes and NULL, GFP_DMA;
 *  - exhausted memory: NULL, no panic, and everything works after;
 *  - a random stress of a million kmalloc/kfree/kmem_cache_alloc/
 *    kmem_cache_free operations with pattern checks, after which every
 *    page is back.
 *
 * The suite's exit shrinks the kmalloc caches, so slabs they grew
 * during a case do not count as leaked pages.
 */
#include "lib/ktest/ktest.h"
#include "lib/prandom.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/kasan.h"
#include "mm/mm.h"
#include "mm/kfence.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"	/* white-box: inside caches and slabs */
#include "tests/mm_util.h"

/*
 * The classes, their kmalloc_caches index and names, by hand: Linux's,
 * and above 256 three steps of a quarter per doubling (mm/slab.h).
 */
static const unsigned int class_size[] = {
	8, 16, 32, 64, 96, 128, 192, 256,
	320, 384, 448, 512, 640, 768, 896, 1024,
	1280, 1536, 1792, 2048, 2560, 3072, 3584, 4096,
	5120, 6144, 7168, 8192,
};
static const unsigned int class_index[] = {
	3, 4, 5, 6, 1, 7, 2, 8,
	14, 15, 16, 9, 17, 18, 19, 10,
	20, 21, 22, 11, 23, 24, 25, 12,
	26, 27, 28, 13,
};
static const char *const class_name[] = {
	"kmalloc-8", "kmalloc-16", "kmalloc-32", "kmalloc-64", "kmalloc-96",
	"kmalloc-128", "kmalloc-192", "kmalloc-256",
	"kmalloc-320", "kmalloc-384", "kmalloc-448", "kmalloc-512",
	"kmalloc-640", "kmalloc-768", "kmalloc-896", "kmalloc-1k",
	"kmalloc-1280", "kmalloc-1536", "kmalloc-1792", "kmalloc-2k",
	"kmalloc-2560", "kmalloc-3072", "kmalloc-3584", "kmalloc-4k",
	"kmalloc-5120", "kmalloc-6144", "kmalloc-7168", "kmalloc-8k",
};
#define NR_CLASSES	ARRAY_SIZE(class_size)

/* The smallest class that holds size (1..8192). */
static unsigned int class_of(size_t size)
{
	for (unsigned int i = 0; i < NR_CLASSES; i++) {
		if (size <= class_size[i])
			return i;
	}
	return NR_CLASSES;
}

/* --- size classes ---------------------------------------------------------- */

/*
 * The stride: the class's size, or with KASAN's tracks behind each
 * object (kasan.md) the size and the tracks, to the class's alignment.
 */
static unsigned int class_stride(const struct kmem_cache *c, unsigned int size)
{
	if (!(c->flags & SLAB_KASAN))
		return size;
	return ALIGN(size + (unsigned int)sizeof(struct kasan_alloc_meta),
		     c->align);
}

static void test_class_table(struct ktest *t)
{
	skip_if_kmalloc_debugged(t);
	/* Every index but 0 is a class of the table above. */
	KTEST_EXPECT_EQ(t, NR_CLASSES, (size_t)KMALLOC_NR_CACHES - 1);
	KTEST_EXPECT_NULL(t, kmalloc_caches[0][0]);
	KTEST_EXPECT_NULL(t, kmalloc_caches[1][0]);
	for (unsigned int i = 0; i < NR_CLASSES; i++) {
		struct kmem_cache *c = kmalloc_caches[0][class_index[i]];
		struct kmem_cache *d = kmalloc_caches[1][class_index[i]];
		char dma_name[32];

		KTEST_ASSERT_NOT_NULL(t, c);
		KTEST_ASSERT_NOT_NULL(t, d);
		KTEST_EXPECT_STREQ(t, c->name, class_name[i]);
		snprintf(dma_name, sizeof(dma_name), "dma-%s", class_name[i]);
		KTEST_EXPECT_STREQ(t, d->name, dma_name);
		KTEST_EXPECT_EQ(t, c->object_size, class_size[i]);
		KTEST_EXPECT_EQ(t, d->object_size, class_size[i]);
		KTEST_EXPECT_EQ(t, c->size, class_stride(c, class_size[i]));
		KTEST_EXPECT_FALSE(t, c->allocflags & GFP_DMA);
		KTEST_EXPECT_TRUE(t, d->allocflags & GFP_DMA);
		/* Power-of-two classes are aligned to their size. */
		KTEST_EXPECT_EQ(t, c->align,
				is_power_of_2(class_size[i]) ? class_size[i] : 8U);
	}
}

/*
 * slabinfo NAME finds every class, plain and DMA: the header and one
 * line, which starts with the name and shows the class's size and slab
 * geometry ("<objsize> <objperslab> <pagesperslab> : tunables").
 */
static void test_slabinfo_classes(struct ktest *t)
{
	char want[48];

	skip_if_kmalloc_debugged(t);
	for (unsigned int i = 0; i < 2 * NR_CLASSES; i++) {
		struct kmem_cache *c = kmalloc_caches[i / NR_CLASSES]
						     [class_index[i % NR_CLASSES]];
		const char *name = kmem_cache_name(c);

		ktest_capture_start(t, NULL);
		KTEST_EXPECT_EQ(t, slabinfo_show(name), 0);
		ktest_capture_stop(t);
		snprintf(want, sizeof(want), "\n%s%s ", i < NR_CLASSES ? "" : "dma-",
			 class_name[i % NR_CLASSES]);
		KTEST_EXPECT_CAPTURED(t, want);
		snprintf(want, sizeof(want), " %6u %4u %4u : tunables ",
			 class_stride(c, class_size[i % NR_CLASSES]), c->num,
			 1U << c->gfporder);
		KTEST_EXPECT_CAPTURED(t, want);
	}
}

/*
 * kmalloc of a constant size picks its cache at compile time through
 * __kmalloc_index() (mm/slab.h); it must agree with the run-time table
 * for every size, and a constant-size call must land there.
 */
static void test_constant_size_index(struct ktest *t)
{
	unsigned int bad = 0;
	void *p;

	for (size_t size = 1; size <= KMALLOC_MAX_CACHE_SIZE; size++) {
		if (kmalloc_caches[0][__kmalloc_index(size)] !=
		    kmalloc_slab(size, GFP_KERNEL) && !bad++)
			KTEST_FAIL(t, "size %zu: compile-time index %u, run time %s",
				   size, __kmalloc_index(size),
				   kmalloc_slab(size, GFP_KERNEL)->name);
	}
	KTEST_EXPECT_EQ(t, bad, 0U);
	p = kmalloc(192, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_PTR_EQ(t, virt_to_slab(p)->slab_cache, kmalloc_slab(192, 0));
	kfree(p);
	p = kmalloc(4000, GFP_KERNEL | GFP_DMA);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_PTR_EQ(t, virt_to_slab(p)->slab_cache,
			    kmalloc_slab(4000, GFP_DMA));
	kfree(p);
}

/* Every size 1..8192: class, cache, ksize and __ksize, alignment. */
static void test_every_size(struct ktest *t)
{
	unsigned int bad = 0;

	for (size_t size = 1; size <= KMALLOC_MAX_CACHE_SIZE; size++) {
		unsigned int i = class_of(size);
		struct kmem_cache *want = kmalloc_caches[0][class_index[i]];
		unsigned long align = is_power_of_2(class_size[i]) ?
				      class_size[i] : 8;
		unsigned char *p = kmalloc(size, GFP_KERNEL);
		struct slab *slab;

		if (!p) {
			KTEST_FAIL(t, "kmalloc(%zu) failed", size);
			break;
		}
		slab = virt_to_slab(p);
		if (kmalloc_slab(size, GFP_KERNEL) != want || !slab ||
		    slab->slab_cache != want || ksize(p) != class_size[i] ||
		    __ksize(p) != class_size[i] ||
		    ksize(p) < size || (unsigned long)p % align ||
		    (is_power_of_2(size) && (unsigned long)p % size)) {
			if (!bad++)
				KTEST_FAIL(t, "kmalloc(%zu) = %px: cache %s, ksize %zu; want %s, ksize %u, align %lu",
					   size, p, slab ? slab->slab_cache->name : "none",
					   ksize(p), want->name, class_size[i], align);
		}
		p[0] = 0x11;
		p[ksize(p) - 1] = 0x22;
		kfree(p);
	}
	KTEST_EXPECT_EQ(t, bad, 0U);
	KTEST_EXPECT_EQ(t, __ksize(NULL), 0UL);
	KTEST_EXPECT_EQ(t, __ksize(ZERO_SIZE_PTR), 0UL);
	KTEST_EXPECT_NULL(t, kmalloc_slab(0, GFP_KERNEL));
	KTEST_EXPECT_NULL(t, kmalloc_slab(KMALLOC_MAX_CACHE_SIZE + 1, GFP_KERNEL));
}

/* Many objects of each power-of-two size: all naturally aligned. */
static void test_natural_alignment(struct ktest *t)
{
	static void *p[64];
	unsigned int bad = 0;

	for (size_t size = 8; size <= KMALLOC_MAX_CACHE_SIZE; size <<= 1) {
		for (int i = 0; i < 64; i++) {
			p[i] = kmalloc(size, GFP_KERNEL);
			KTEST_ASSERT_NOT_NULL(t, p[i]);
			bad += (unsigned long)p[i] % size != 0;
		}
		for (int i = 0; i < 64; i++)
			kfree(p[i]);
	}
	/* 96, 192 and the steps above 256 are only 8-byte aligned, always. */
	for (unsigned int k = 0; k < NR_CLASSES; k++) {
		if (is_power_of_2(class_size[k]))
			continue;
		for (int i = 0; i < 64; i++) {
			p[i] = kmalloc(class_size[k], GFP_KERNEL);
			KTEST_ASSERT_NOT_NULL(t, p[i]);
			bad += (unsigned long)p[i] % 8 != 0;
		}
		for (int i = 0; i < 64; i++)
			kfree(p[i]);
	}
	/* Constant sizes (the cache picked at compile time) alike. */
	for (int i = 0; i < 64; i++) {
		p[i] = kmalloc(512, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, p[i]);
		bad += (unsigned long)p[i] % 512 != 0;
	}
	for (int i = 0; i < 64; i++) {
		kfree(p[i]);
		p[i] = kmalloc(4096, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, p[i]);
		bad += (unsigned long)p[i] % 4096 != 0;
	}
	for (int i = 0; i < 64; i++)
		kfree(p[i]);
	KTEST_EXPECT_EQ(t, bad, 0U);
}

/* --- large sizes ------------------------------------------------------------ */

struct large_case {
	size_t size;
	unsigned int order;	/* by hand: smallest 2^order pages >= size */
};

static const struct large_case large_cases[] = {
	{ 8193, 2 },		/* 3 pages -> 4 */
	{ 12288, 2 },		/* 3 pages -> 4 */
	{ 16384, 2 },		/* exactly 4 */
	{ 16385, 3 },		/* 5 pages -> 8 */
	{ 1UL << 20, 8 },	/* 256 pages */
	{ (1UL << 20) + 1, 9 },	/* 257 pages -> 512 */
	{ 4UL << 20, 10 },	/* KMALLOC_MAX_SIZE: 1024 pages */
};

static void large_desc(const struct large_case *l, char *desc)
{
	snprintf(desc, KTEST_DESC_SIZE, "%zu bytes", l->size);
}

KTEST_ARRAY_PARAM(large_gen, large_cases, large_desc);

static void test_large(struct ktest *t)
{
	const struct large_case *l = t->param_value;
	unsigned long before = pages_free(), pages = 1UL << l->order;
	unsigned char *p = kmalloc(l->size, GFP_KERNEL);
	struct page *page;

	KTEST_ASSERT_NOT_NULL(t, p);
	page = virt_to_page(p);
	KTEST_EXPECT_EQ(t, (unsigned long)p % PAGE_SIZE, 0UL);
	KTEST_EXPECT_TRUE(t, PageHead(page));
	KTEST_EXPECT_FALSE(t, PageSlab(page));
	KTEST_EXPECT_NULL(t, virt_to_slab(p));
	KTEST_EXPECT_EQ(t, compound_order(page), l->order);
	KTEST_EXPECT_EQ(t, ksize(p), PAGE_SIZE << l->order);
	KTEST_EXPECT_EQ(t, __ksize(p), PAGE_SIZE << l->order);
	KTEST_EXPECT_GE(t, ksize(p), l->size);
	KTEST_EXPECT_TRUE(t, PageTail(page + 1));
	KTEST_EXPECT_TRUE(t, PageTail(page + pages - 1));
	KTEST_EXPECT_PTR_EQ(t, compound_head(page + pages - 1), page);
	KTEST_EXPECT_EQ(t, before - pages_free(), pages);
	p[0] = 1;
	p[l->size - 1] = 2;
	kfree(p);
	KTEST_EXPECT_EQ(t, pages_free(), before);
}

static void test_too_large(struct ktest *t)
{
	unsigned long before = pages_free();
	size_t huge = SIZE_MAX;

	OPTIMIZER_HIDE_VAR(huge);	/* the compiler refuses it (alloc_size) */
	KTEST_EXPECT_NULL(t, kmalloc(KMALLOC_MAX_SIZE + 1, GFP_KERNEL | __GFP_NOWARN));
	KTEST_EXPECT_NULL(t, kmalloc(8UL << 20, GFP_KERNEL | __GFP_NOWARN));
	KTEST_EXPECT_NULL(t, kmalloc(huge, GFP_KERNEL | __GFP_NOWARN));
	KTEST_EXPECT_NULL(t, kzalloc(KMALLOC_MAX_SIZE + 1, GFP_KERNEL | __GFP_NOWARN));
	KTEST_EXPECT_EQ(t, pages_free(), before);
}

/* kfree of memory that is not a kmalloc object: reported, nothing freed. */
static void test_bad_kfree(struct ktest *t)
{
	unsigned char *big = kmalloc(3 * PAGE_SIZE, GFP_KERNEL);
	struct page *plain = alloc_pages(GFP_KERNEL, 0);
	unsigned long before;

	KTEST_ASSERT_NOT_NULL(t, big);
	KTEST_ASSERT_NOT_NULL(t, plain);
	before = pages_free();
	ktest_capture_start(t, "BUG:");
	kfree(big + PAGE_SIZE);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_REPORTS(t, REPORT_SLAB_INSIDE_LARGE, 1);
	ktest_capture_start(t, "BUG:");
	kfree(page_address(plain));
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_REPORTS(t, REPORT_SLAB_NOT_KMALLOC, 1);
	KTEST_EXPECT_EQ(t, pages_free(), before);
	kfree(big);
	__free_pages(plain, 0);
}

/*
 * Where the arch's NULL test also covers addresses below KFENCE's pool
 * (the host: mm/kfence.h), a pointer there is reported, not ignored.
 */
static void test_kfree_below_kfence_pool(struct ktest *t)
{
	unsigned long before = pages_free();

	if (KFENCE_POOL_WRAPS)
		ktest_skip(t, "the pool ends the address space: nothing below it is tested with NULL");
	ktest_capture_start(t, "BUG:");
	kfree((void *)(KFENCE_POOL_START - PAGE_SIZE));
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_REPORTS(t, REPORT_SLAB_NOT_KMALLOC, 1);
	kfree(ZERO_SIZE_PTR);	/* still ignored: no report more */
	kfree(NULL);
	KTEST_EXPECT_REPORTS(t, REPORT_SLAB_NOT_KMALLOC, 1);
	KTEST_EXPECT_EQ(t, pages_free(), before);
}

/* --- krealloc and friends ------------------------------------------------- */

static void fill(unsigned char *p, size_t n, unsigned char seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(seed + i * 7);
}

static bool filled(const unsigned char *p, size_t n, unsigned char seed)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i] != (unsigned char)(seed + i * 7))
			return false;
	}
	return true;
}

static void test_krealloc(struct ktest *t)
{
	unsigned char *p, *q;

	skip_if_kmalloc_debugged(t);
	/* krealloc(NULL) is kmalloc. */
	p = krealloc(NULL, 20, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_EQ(t, ksize(p), 32UL);
	fill(p, 20, 3);

	/* Within ksize (32): same pointer, whether growing or shrinking
	 * (64 bytes and under never move). */
	KTEST_EXPECT_PTR_EQ(t, krealloc(p, 32, GFP_KERNEL), p);
	KTEST_EXPECT_PTR_EQ(t, krealloc(p, 5, GFP_KERNEL), p);
	/* Bytes past 5 are KASAN's red zone until ksize() gives them all. */
	KTEST_EXPECT_EQ(t, ksize(p), 32UL);
	KTEST_EXPECT_TRUE(t, filled(p, 20, 3));
	fill(p, 32, 3);

	/* Growing past it: a new object, contents kept. */
	q = krealloc(p, 100, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, q);
	KTEST_EXPECT_PTR_NE(t, q, p);
	KTEST_EXPECT_EQ(t, ksize(q), 128UL);
	KTEST_EXPECT_TRUE(t, filled(q, 32, 3));
	fill(q, 128, 5);
	p = krealloc(q, 5000, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_EQ(t, ksize(p), 5120UL);
	KTEST_EXPECT_TRUE(t, filled(p, 128, 5));
	fill(p, 5120, 9);
	/* Into a large allocation; shrinking by less than half stays put. */
	q = krealloc(p, 20000, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, q);
	KTEST_EXPECT_EQ(t, ksize(q), 32768UL);
	KTEST_EXPECT_TRUE(t, filled(q, 5120, 9));
	KTEST_EXPECT_PTR_EQ(t, krealloc(q, 16385, GFP_KERNEL), q);
	KTEST_EXPECT_TRUE(t, filled(q, 5120, 9));
	/* By half or more it moves to a class its size, keeping the prefix. */
	p = krealloc(q, 100, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_PTR_NE(t, p, q);
	KTEST_EXPECT_EQ(t, ksize(p), 128UL);
	KTEST_EXPECT_TRUE(t, filled(p, 100, 9));
	q = krealloc(p, 40, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, q);
	KTEST_EXPECT_EQ(t, ksize(q), 64UL);
	KTEST_EXPECT_TRUE(t, filled(q, 40, 9));

	/* Size 0 frees and gives ZERO_SIZE_PTR. */
	KTEST_EXPECT_PTR_EQ(t, krealloc(q, 0, GFP_KERNEL), ZERO_SIZE_PTR);
	p = krealloc(ZERO_SIZE_PTR, 50, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_EQ(t, ksize(p), 64UL);
	KTEST_EXPECT_PTR_EQ(t, krealloc(p, 0, GFP_KERNEL), ZERO_SIZE_PTR);
	/* It was freed: the per-CPU array hands it out next (no quarantine). */
	q = kmalloc(64, GFP_KERNEL);
	if (!kasan_quarantine_enabled())
		KTEST_EXPECT_PTR_EQ(t, q, p);
	kfree(q);

	/* Failure leaves the old object alone. */
	p = kmalloc(64, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	fill(p, 64, 1);
	KTEST_EXPECT_NULL(t, krealloc(p, KMALLOC_MAX_SIZE + 1,
				      GFP_KERNEL | __GFP_NOWARN));
	KTEST_EXPECT_TRUE(t, filled(p, 64, 1));
	KTEST_EXPECT_EQ(t, ksize(p), 64UL);
	kfree(p);
}

/*
 * krealloc through every class: growing one byte past a class moves the
 * object to the next class up; shrinking to half a class or less moves
 * it down to the class that fits, and to more than half keeps it (above
 * 64 bytes). The contents travel every time.
 */
static void test_krealloc_classes(struct ktest *t)
{
	unsigned char *p = kmalloc(1, GFP_KERNEL), *q;
	unsigned int bad = 0;

	KTEST_ASSERT_NOT_NULL(t, p);
	fill(p, ksize(p), 7);
	for (unsigned int i = 0; i + 1 < NR_CLASSES; i++) {
		size_t was = ksize(p);

		q = krealloc(p, class_size[i] + 1, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, q);
		if (q == p || ksize(q) != class_size[i + 1] ||
		    !filled(q, was, 7)) {
			if (!bad++)
				KTEST_FAIL(t, "krealloc(%u bytes) from %zu: ksize %zu, want %u",
					   class_size[i] + 1, was, ksize(q),
					   class_size[i + 1]);
		}
		fill(q, ksize(q), 7);
		p = q;
	}
	KTEST_EXPECT_EQ(t, ksize(p), (size_t)KMALLOC_MAX_CACHE_SIZE);
	for (unsigned int i = NR_CLASSES - 1; class_size[i] > 64; i--) {
		size_t half = class_size[i] / 2;

		/* p is in class i: more than half stays, half moves. */
		if (krealloc(p, half + 1, GFP_KERNEL) != p && !bad++)
			KTEST_FAIL(t, "krealloc(%zu) moved out of kmalloc-%u",
				   half + 1, class_size[i]);
		q = krealloc(p, half, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, q);
		if (q == p || ksize(q) != class_size[class_of(half)] ||
		    !filled(q, half, 7)) {
			if (!bad++)
				KTEST_FAIL(t, "krealloc(%zu) from kmalloc-%u: ksize %zu, want %u",
					   half, class_size[i], ksize(q),
					   class_size[class_of(half)]);
		}
		/* Grow back to a whole class i - 1 for the next round. */
		p = krealloc(q, class_size[i - 1], GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, p);
		bad += ksize(p) != class_size[i - 1] || !filled(p, half, 7);
		fill(p, ksize(p), 7);
	}
	KTEST_EXPECT_EQ(t, bad, 0U);
	kfree(p);
}

static void test_kcalloc_kmalloc_array(struct ktest *t)
{
	unsigned char *p, *q;

	KTEST_EXPECT_NULL(t, kmalloc_array(SIZE_MAX / 2 + 1, 2, GFP_KERNEL));
	KTEST_EXPECT_NULL(t, kcalloc(SIZE_MAX / 2 + 1, 2, GFP_KERNEL));
	KTEST_EXPECT_NULL(t, kmalloc_array(2, SIZE_MAX / 2 + 1, GFP_KERNEL));
	KTEST_EXPECT_NULL(t, kcalloc(SIZE_MAX, SIZE_MAX, GFP_KERNEL));

	p = kmalloc_array(3, 5, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_EQ(t, ksize(p), 16UL);
	kfree(p);

	/* Dirty an object, free it, and kcalloc gets it back zeroed. */
	p = kmalloc(120, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	memset(p, 0xaa, ksize(p));	/* all 128 bytes, legally */
	kfree(p);
	q = kcalloc(10, 12, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, q);
	if (!kasan_quarantine_enabled())	/* else p waits there */
		KTEST_EXPECT_PTR_EQ(t, q, p);
	KTEST_EXPECT_EQ(t, ksize(q), 128UL);
	KTEST_EXPECT_NULL(t, memchr_inv(q, 0, 120));
	kfree(q);
}

static void test_zero_size_and_null(struct ktest *t)
{
	KTEST_EXPECT_PTR_EQ(t, kmalloc(0, GFP_KERNEL), ZERO_SIZE_PTR);
	KTEST_EXPECT_PTR_EQ(t, kzalloc(0, GFP_KERNEL), ZERO_SIZE_PTR);
	KTEST_EXPECT_PTR_EQ(t, kmalloc_array(0, 8, GFP_KERNEL), ZERO_SIZE_PTR);
	KTEST_EXPECT_EQ(t, ksize(NULL), 0UL);
	KTEST_EXPECT_EQ(t, ksize(ZERO_SIZE_PTR), 0UL);
	ktest_capture_start(t, "BUG");
	kfree(NULL);
	kfree(ZERO_SIZE_PTR);
	kfree_sensitive(NULL);
	kfree_sensitive(ZERO_SIZE_PTR);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
}

static void test_kzalloc(struct ktest *t)
{
	static const size_t sizes[] = { 1, 8, 40, 96, 100, 200, 1000, 4096, 8192,
					8193, 20000 };

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		unsigned char *p = kmalloc(sizes[i], GFP_KERNEL), *q;

		KTEST_ASSERT_NOT_NULL(t, p);
		memset(p, 0x5a, ksize(p));
		kfree(p);
		q = kzalloc(sizes[i], GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, q);
		/* LIFO: the dirty one (unless KASAN's quarantine holds it). */
		if (sizes[i] <= KMALLOC_MAX_CACHE_SIZE &&
		    !kasan_quarantine_enabled())
			KTEST_EXPECT_PTR_EQ(t, q, p);
		KTEST_EXPECT_NULL(t, memchr_inv(q, 0, ksize(q)));
		kfree(q);
	}
}

static void test_kfree_sensitive(struct ktest *t)
{
	unsigned char *p, *q;

	skip_if_kmalloc_debugged(t);
	skip_if_kasan_quarantine(t);
	p = kmalloc(200, GFP_KERNEL);

	KTEST_ASSERT_NOT_NULL(t, p);
	memset(p, 0x77, 200);
	kfree_sensitive(p);
	/* kmalloc-192 is too small: 256. The freed object comes back first. */
	q = kmalloc(200, GFP_KERNEL);
	KTEST_EXPECT_PTR_EQ(t, q, p);
	KTEST_ASSERT_NOT_NULL(t, q);
	/* All 256 bytes are the caller's (and KASAN's valid) after ksize(). */
	KTEST_EXPECT_EQ(t, ksize(q), 256UL);
	KTEST_EXPECT_NULL(t, memchr_inv(q, 0, 256));
	kfree(q);
}

static void test_kmalloc_node(struct ktest *t)
{
	void *p = kmalloc_node(100, GFP_KERNEL, 0);

	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_PTR_EQ(t, virt_to_slab(p)->slab_cache, kmalloc_caches[0][7]);
	kfree(p);
}

/*
 * The compiler knows how big each allocation is (__alloc_size in
 * mm/slab.h and mm/gfp.h): __builtin_object_size gives the bytes asked
 * for, through the inline kmalloc with a constant size, and
 * __builtin_dynamic_object_size a size known only at run time (the
 * out-of-line __kmalloc). This is what lets -Warray-bounds and UBSan's
 * object-size check see an access past the end.
 */
static void test_alloc_size(struct ktest *t)
{
	size_t n = 100;
	char *a, *b, *c, *d, *e, *f, *g, *h, *r;

	OPTIMIZER_HIDE_VAR(n);	/* a size the compiler cannot fold */
	a = kmalloc(16, GFP_KERNEL);
	b = kzalloc(40, GFP_KERNEL);
	c = kmalloc_array(3, 24, GFP_KERNEL);
	d = kcalloc(5, 8, GFP_KERNEL);
	e = kmalloc_node(70, GFP_KERNEL, 0);
	f = kmalloc(n, GFP_KERNEL);
	g = kmalloc(n, GFP_KERNEL);
	h = alloc_pages_exact(5000, GFP_KERNEL);
	KTEST_EXPECT_EQ(t, __builtin_object_size(a, 0), 16UL);
	KTEST_EXPECT_EQ(t, __builtin_object_size(b, 0), 40UL);
	KTEST_EXPECT_EQ(t, __builtin_object_size(c, 0), 72UL);
	KTEST_EXPECT_EQ(t, __builtin_object_size(d, 0), 40UL);
	KTEST_EXPECT_EQ(t, __builtin_object_size(e, 0), 70UL);
	KTEST_EXPECT_EQ(t, __builtin_object_size(h, 0), 5000UL);
	KTEST_EXPECT_EQ(t, __builtin_dynamic_object_size(f, 0), n);
	r = krealloc(g, 2 * n, GFP_KERNEL);
	KTEST_EXPECT_EQ(t, __builtin_dynamic_object_size(r, 0), 2 * n);
	kfree(r ? r : g);
	kfree(f);
	kfree(e);
	kfree(d);
	kfree(c);
	kfree(b);
	kfree(a);
	free_pages_exact(h, 5000);
}

static void test_gfp_dma(struct ktest *t)
{
	unsigned int bad = 0;
	void *p;

	for (unsigned int i = 0; i < NR_CLASSES; i++) {
		struct kmem_cache *want = kmalloc_caches[1][class_index[i]];

		for (size_t size = class_size[i] - 3; size <= class_size[i]; size++) {
			p = kmalloc(size, GFP_KERNEL | GFP_DMA);
			KTEST_ASSERT_NOT_NULL(t, p);
			bad += kmalloc_slab(size, GFP_DMA) != want;
			bad += virt_to_slab(p)->slab_cache != want;
			bad += page_zonenum(virt_to_page(p)) != ZONE_DMA;
			bad += ksize(p) != class_size[i];
			kfree(p);
		}
	}
	KTEST_EXPECT_EQ(t, bad, 0U);

	/* Large ones come from the DMA zone too. */
	p = kmalloc(16384, GFP_KERNEL | GFP_DMA);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_EQ(t, page_zonenum(virt_to_page(p)), ZONE_DMA);
	KTEST_EXPECT_LT(t, __pa(p) + 16384, (phys_addr_t)SZ_16M + 1);
	kfree(p);
}

/* --- memory exhaustion ------------------------------------------------------ */

static void test_exhaustion(struct ktest *t)
{
	static const size_t sizes[] = { 8, 64, 100, 1000, 8192, 16384, 1UL << 20 };
	void *chains[ARRAY_SIZE(sizes)] = { NULL };
	unsigned int bad = 0;
	struct hog *hogs = hog_memory();

	KTEST_ASSERT_NOT_NULL(t, hogs);
	/*
	 * What the caches still hold can be handed out; then NULL, quietly.
	 * Objects are chained through their first word.
	 */
	ktest_capture_start(t, "page allocation failure");
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		unsigned long n = 0;
		void *p;

		while (n < 100000 &&
		       (p = kmalloc(sizes[i], GFP_KERNEL | __GFP_NOWARN))) {
			*(void **)p = chains[i];
			chains[i] = p;
			n++;
		}
		if (n == 100000) {
			bad++;
			KTEST_FAIL(t, "kmalloc(%zu) never failed", sizes[i]);
		}
	}
	KTEST_EXPECT_NULL(t, kzalloc(100, GFP_KERNEL | __GFP_NOWARN));
	KTEST_EXPECT_NULL(t, kmalloc(100, GFP_KERNEL | GFP_DMA | __GFP_NOWARN));
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
	KTEST_EXPECT_EQ(t, bad, 0U);

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		while (chains[i]) {
			void *next = *(void **)chains[i];

			kfree(chains[i]);
			chains[i] = next;
		}
	}
	release_memory(hogs);

	/* Everything works again. */
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		void *p = kmalloc(sizes[i], GFP_KERNEL);

		KTEST_EXPECT_NOT_NULL(t, p);
		kfree(p);
	}
}

/* --- stress ------------------------------------------------------------------ */

#define STRESS_SLOTS	4096
#define STRESS_OPS	1000000UL
#define STRESS_CACHES	4

enum stress_kind {
	STRESS_KMALLOC,
	STRESS_KMALLOC_DMA,
	STRESS_LARGE,
	STRESS_CACHE,		/* + cache number */
};

struct stress_slot {
	unsigned char *p;
	unsigned int size;
	unsigned char kind;
};

static struct stress_slot stress_slots[STRESS_SLOTS];
static struct kmem_cache *stress_caches[STRESS_CACHES];
static u64 stress_rng;

static u64 stress_rand(void)
{
	return prandom_u64(&stress_rng);
}

static void stress_ctor(void *obj)
{
	*(unsigned char *)obj = 0xc7;
}

/* The pattern byte of an object: from its address and size. */
static unsigned char stress_byte(const void *p, unsigned int size)
{
	unsigned long a = (unsigned long)p;

	return (unsigned char)((a >> 3) ^ (a >> 11) ^ size ^ (size >> 8) ^ 0x5a);
}

/*
 * Write (or check) three windows of up to 16 bytes: start, middle and
 * end. Returns the number of wrong bytes; with zero, checks for zeroes.
 */
static unsigned int stress_probe(unsigned char *p, unsigned int size,
				 bool write, bool zero)
{
	unsigned int win = min(size, 16U);
	unsigned int starts[3] = { 0, (size - win) / 2, size - win };
	unsigned char b = stress_byte(p, size);
	unsigned int bad = 0;

	for (int k = 0; k < 3; k++) {
		for (unsigned int i = 0; i < win; i++) {
			unsigned char *q = p + starts[k] + i;
			unsigned char want = zero ? 0 : (unsigned char)(b + starts[k] + i);

			if (write)
				*q = want;
			else
				bad += *q != want;
		}
	}
	return bad;
}

/* A size from 1 to 8192, about evenly spread over the powers of two. */
static unsigned int stress_small_size(u64 r)
{
	unsigned int bits = (unsigned int)((r >> 40) % 14);

	return 1 + (unsigned int)((r >> 8) % (1UL << bits));
}

static unsigned int stress_check(struct ktest *t, struct stress_slot *s)
{
	unsigned int bad = stress_probe(s->p, s->size, false, false);
	size_t ks = ksize(s->p);

	switch (s->kind) {
	case STRESS_KMALLOC:
	case STRESS_KMALLOC_DMA:
		bad += ks != class_size[class_of(s->size)];
		bad += (s->kind == STRESS_KMALLOC_DMA) !=
		       (page_zonenum(virt_to_page(s->p)) == ZONE_DMA &&
			virt_to_slab(s->p)->slab_cache->allocflags & GFP_DMA);
		break;
	case STRESS_LARGE:
		bad += ks < s->size || virt_to_slab(s->p) != NULL;
		break;
	default:
		bad += virt_to_slab(s->p)->slab_cache !=
		       stress_caches[s->kind - STRESS_CACHE];
		break;
	}
	return bad;
}

static void stress_free(struct stress_slot *s)
{
	if (s->kind >= STRESS_CACHE)
		kmem_cache_free(stress_caches[s->kind - STRESS_CACHE], s->p);
	else
		kfree(s->p);
	s->p = NULL;
}

static void test_stress(struct ktest *t)
{
	static const unsigned int cache_size[STRESS_CACHES] = { 24, 200, 1024, 3000 };
	unsigned long base_pages = pages_baseline();
	unsigned long ops = 0, allocs = 0, large = 0, zeroed = 0, failed = 0;
	unsigned int bad = 0;

	stress_rng = 0x9e3779b97f4a7c15ULL;
	memset(stress_slots, 0, sizeof(stress_slots));
	for (int i = 0; i < STRESS_CACHES; i++) {
		stress_caches[i] = kmem_cache_create("t-stress", cache_size[i], 0,
						     i == 3 ? SLAB_HWCACHE_ALIGN : 0,
						     i & 1 ? stress_ctor : NULL);
		KTEST_ASSERT_NOT_NULL(t, stress_caches[i]);
	}

	while (ops < STRESS_OPS) {
		u64 r = stress_rand();
		struct stress_slot *s = &stress_slots[r % STRESS_SLOTS];
		unsigned int sel = (unsigned int)(r >> 16) & 63;
		gfp_t gfp = GFP_KERNEL;
		unsigned int size;
		unsigned char kind;
		void *p;

		ops++;
		if (s->p) {
			unsigned int wrong = stress_check(t, s);

			if (wrong && !bad)
				KTEST_FAIL(t, "op %lu: object %px size %u kind %u: %u wrong",
					   ops, s->p, s->size, s->kind, wrong);
			bad += wrong;
			stress_free(s);
			continue;
		}
		if (((r >> 24) & 15) == 0) {
			gfp |= __GFP_ZERO;
			zeroed++;
		}
		if (sel == 0) {
			kind = STRESS_LARGE;
			size = KMALLOC_MAX_CACHE_SIZE + 1 +
			       (unsigned int)((r >> 32) % (120 * 1024));
			p = kmalloc(size, gfp);
			large++;
		} else if (sel < 4) {
			kind = STRESS_KMALLOC_DMA;
			size = stress_small_size(stress_rand());
			p = kmalloc(size, gfp | GFP_DMA);
		} else if (sel < 16) {
			unsigned int c = sel % STRESS_CACHES;

			kind = (unsigned char)(STRESS_CACHE + c);
			size = cache_size[c];
			p = kmem_cache_alloc(stress_caches[c], gfp);
		} else {
			kind = STRESS_KMALLOC;
			size = stress_small_size(stress_rand());
			p = kmalloc(size, gfp);
		}
		if (!p) {
			failed++;
			continue;
		}
		if ((gfp & __GFP_ZERO) && stress_probe(p, size, false, true)) {
			if (!bad)
				KTEST_FAIL(t, "op %lu: __GFP_ZERO object %px size %u not zeroed",
					   ops, p, size);
			bad++;
		}
		s->p = p;
		s->size = size;
		s->kind = kind;
		stress_probe(p, size, true, false);
		allocs++;
	}
	ktest_info(t, "%lu operations: %lu allocations (%lu large, %lu zeroed), %lu failed",
		   ops, allocs, large, zeroed, failed);
	KTEST_EXPECT_EQ(t, bad, 0U);
	KTEST_EXPECT_EQ(t, failed, 0UL);

	for (unsigned int i = 0; i < STRESS_SLOTS; i++) {
		if (stress_slots[i].p) {
			bad += stress_check(t, &stress_slots[i]);
			stress_free(&stress_slots[i]);
		}
	}
	KTEST_EXPECT_EQ(t, bad, 0U);
	for (int i = 0; i < STRESS_CACHES; i++) {
		KTEST_EXPECT_EQ(t, kmem_cache_shrink(stress_caches[i]), 0);
		kmem_cache_destroy(stress_caches[i]);
	}
	/* Every page is back once the caches let go of their free slabs. */
	KTEST_EXPECT_EQ(t, pages_baseline(), base_pages);
}

static const struct ktest_case kmalloc_cases[] = {
	KTEST_CASE(test_class_table),
	KTEST_CASE(test_slabinfo_classes),
	KTEST_CASE(test_every_size),
	KTEST_CASE(test_constant_size_index),
	KTEST_CASE(test_natural_alignment),
	KTEST_CASE_PARAM(test_large, large_gen),
	KTEST_CASE(test_too_large),
	KTEST_CASE(test_bad_kfree),
	KTEST_CASE(test_kfree_below_kfence_pool),
	KTEST_CASE(test_krealloc),
	KTEST_CASE(test_krealloc_classes),
	KTEST_CASE(test_kcalloc_kmalloc_array),
	KTEST_CASE(test_zero_size_and_null),
	KTEST_CASE(test_kzalloc),
	KTEST_CASE(test_kfree_sensitive),
	KTEST_CASE(test_kmalloc_node),
	KTEST_CASE(test_alloc_size),
	KTEST_CASE(test_gfp_dma),
	KTEST_CASE(test_exhaustion),
	KTEST_CASE(test_stress),
	{}
};
KTEST_SUITE(kmalloc, kmalloc_cases);

// SPDX-License-Identifier: GPL-2.0
/*
 * KASAN (mm/kasan.h): every bad access or free below is reported once,
 * as its kind (kernel/report.h), where it happens.
 *
 *  - out of bounds: right and left of a slab object, past a large
 *    kmalloc, in a vmalloc area's last page, after krealloc() to more
 *    and to less, by memset(), memcpy() and memmove();
 *  - use after free: kmalloc, kmem_cache, pages, vmalloc, kfree_rcu()
 *    after the grace period (before it the object is valid);
 *  - double and invalid frees (ignored, the allocator keeps going);
 *  - mempool elements in the reserve are invalid;
 *  - what stays valid: ksize()'s bytes, SLAB_TYPESAFE_BY_RCU objects
 *    after free, a constructor's object while it runs;
 *  - the quarantine: a freed object is not handed out again at once,
 *    its cache's shrink and destroy take it back, it stays within its
 *    bounds, and reclaim empties it when memory runs out;
 *  - which reports are printed (the first only, unless kasan_multi_shot)
 *    and panic_on_warn;
 *  - the tracks: a use after free names the allocating and the freeing
 *    function ("Allocated by task", "Freed by task"), an out-of-bounds
 *    access on a live object only the allocating one; kfree_rcu(),
 *    mempool and double frees too; every object of a bulk call names
 *    that call's caller; allocations and frees from two callers in turn
 *    each name their own; room for them after each object.
 *
 * It needs a backend: the host build with AddressSanitizer, or the
 * x86_64 kernel built with KASAN=1 (gcc's -fsanitize=kernel-address).
 * Without one (the plain kernel, the host builds without ASan) every
 * case is skipped. On the host this file alone is built with
 * -fsanitize-recover=address, so the bad accesses below come back after
 * their report (x86_64's checks always do); while the suite runs
 * kasan_kunit_test_suite_start() tells the backend they are expected.
 */
#include "kernel/params.h"
#include "kernel/rcupdate.h"
#include "kernel/report.h"
#include "lib/ktest/ktest.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/kasan.h"
#include "mm/mempool.h"
#include "mm/mm.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"	/* the tracks' room in the layout */
#include "mm/vmalloc.h"
#include "tests/mm_util.h"

/* The accesses, out of line so the compiler neither drops nor warns. */
static __noinline void poke(volatile u8 *p, long i)
{
	p[i] = 0x5a;
}

static __noinline u8 peek(const volatile u8 *p, long i)
{
	return p[i];
}

/*
 * Named in the reports' "Allocated by" and "Freed by" stacks: out of
 * line, and no tail calls (the barrier), so their frames are there.
 */
static __noinline void *kasan_alloc_helper(size_t size)
{
	void *p = kmalloc(size, GFP_KERNEL);

	barrier();
	return p;
}

static __noinline void kasan_free_helper(void *p)
{
	kfree(p);
	barrier();
}

static void require_kasan(struct ktest *t)
{
	if (!kasan_enabled())
		ktest_skip(t, "no KASAN backend in this build (x86_64: make KASAN=1; host: built without ASan)");
}

/* Open a capture for one KASAN report. */
static void expect_begin(struct ktest *t)
{
	ktest_capture_start(t, "BUG: KASAN:");
}

/* Exactly one report since expect_begin(), and of this kind. */
#define EXPECT_ONE_REPORT(t, kind)					\
	do {								\
		KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);		\
		KTEST_EXPECT_EQ(t, ktest_reports(t, kind), 1U);		\
	} while (0)

static void test_kmalloc_oob_right(struct ktest *t)
{
	u8 *p;

	require_kasan(t);
	p = kmalloc(13, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	poke(p, 12);	/* the last byte asked for: fine */
	expect_begin(t);
	poke(p, 13);
	EXPECT_ONE_REPORT(t, REPORT_KASAN_SLAB_OUT_OF_BOUNDS);
	KTEST_EXPECT_CAPTURED(t, "BUG: KASAN: slab-out-of-bounds in poke+0x");
	KTEST_EXPECT_CAPTURED(t, "Write of size 1 at addr");
	KTEST_EXPECT_CAPTURED(t, "which belongs to the cache kmalloc-16 of size 16");
	KTEST_EXPECT_CAPTURED(t, "located 0 bytes to the right of\n allocated 13-byte region");
	/* x86_64 prints its shadow: 8 valid bytes, then 5 (the host: ASan's). */
	if (!strcmp(arch_name, "x86_64")) {
		KTEST_EXPECT_CAPTURED(t, "Memory state around the buggy address:");
		KTEST_EXPECT_CAPTURED(t, " 00 05");
	}
	/* The rest of the granule and the object's tail too. */
	expect_begin(t);
	(void)peek(p, 15);
	EXPECT_ONE_REPORT(t, REPORT_KASAN_SLAB_OUT_OF_BOUNDS);
	KTEST_EXPECT_CAPTURED(t, "Read of size 1 at addr");
	kfree(p);
}

static void test_kmalloc_oob_left(struct ktest *t)
{
	struct kmem_cache *c;
	u8 *a, *b, *hi;

	require_kasan(t);
	/* 13-byte objects 64 apart: the bytes before one are a neighbour's tail. */
	c = kmem_cache_create("kasan_left", 13, 64, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	a = kmem_cache_alloc(c, GFP_KERNEL);
	b = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, a);
	KTEST_ASSERT_NOT_NULL(t, b);
	hi = a > b ? a : b;
	expect_begin(t);
	(void)peek(hi, -1);
	EXPECT_ONE_REPORT(t, REPORT_KASAN_SLAB_OUT_OF_BOUNDS);
	kmem_cache_free(c, a);
	kmem_cache_free(c, b);
	kmem_cache_destroy(c);
}

static void test_kmalloc_large_oob_right(struct ktest *t)
{
	size_t size = KMALLOC_MAX_CACHE_SIZE + 10;
	u8 *p;

	require_kasan(t);
	p = kmalloc(size, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_ASSERT_FALSE(t, PageSlab(virt_to_page(p)));
	poke(p, (long)size - 1);
	expect_begin(t);
	poke(p, (long)size);
	EXPECT_ONE_REPORT(t, REPORT_KASAN_PAGE_OUT_OF_BOUNDS);
	KTEST_EXPECT_CAPTURED(t, "BUG: KASAN: page-out-of-bounds");
	kfree(p);
}

static void test_krealloc_more(struct ktest *t)
{
	u8 *p, *q;

	require_kasan(t);
	p = kmalloc(40, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	q = krealloc(p, 50, GFP_KERNEL);	/* kmalloc-64 keeps it */
	KTEST_ASSERT_PTR_EQ(t, q, p);
	poke(q, 49);
	expect_begin(t);
	poke(q, 50);
	EXPECT_ONE_REPORT(t, REPORT_KASAN_SLAB_OUT_OF_BOUNDS);
	kfree(q);
}

static void test_krealloc_less(struct ktest *t)
{
	u8 *p, *q;

	require_kasan(t);
	p = kmalloc(60, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	poke(p, 59);
	q = krealloc(p, 40, GFP_KERNEL);	/* stays: more than half */
	KTEST_ASSERT_PTR_EQ(t, q, p);
	poke(q, 39);
	expect_begin(t);
	poke(q, 40);	/* the old tail is poisoned now */
	EXPECT_ONE_REPORT(t, REPORT_KASAN_SLAB_OUT_OF_BOUNDS);
	kfree(q);
}

static void test_ksize_unpoisons(struct ktest *t)
{
	u8 *p;

	require_kasan(t);
	p = kmalloc(13, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	expect_begin(t);
	poke(p, 15);
	EXPECT_ONE_REPORT(t, REPORT_KASAN_SLAB_OUT_OF_BOUNDS);
	KTEST_EXPECT_EQ(t, ksize(p), 16UL);
	expect_begin(t);
	poke(p, 15);	/* Linux's rule: ksize()'s bytes are the caller's */
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
	kfree(p);
}

static void test_string_functions(struct ktest *t)
{
	u8 src[32] = { 0 };
	u8 *p;

	require_kasan(t);
	p = kmalloc(13, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_PTR_EQ(t, memset(p, 0, 13), p);
	expect_begin(t);
	KTEST_EXPECT_NULL(t, memset(p, 0, 14));	/* reported, not done */
	EXPECT_ONE_REPORT(t, REPORT_KASAN_SLAB_OUT_OF_BOUNDS);
	KTEST_EXPECT_CAPTURED(t, "Write of size 1 at addr");
	expect_begin(t);
	KTEST_EXPECT_NULL(t, memcpy(src, p, 16));
	EXPECT_ONE_REPORT(t, REPORT_KASAN_SLAB_OUT_OF_BOUNDS);
	KTEST_EXPECT_CAPTURED(t, "Read of size 3 at addr");
	expect_begin(t);
	KTEST_EXPECT_NULL(t, memmove(p + 1, p, 13));
	EXPECT_ONE_REPORT(t, REPORT_KASAN_SLAB_OUT_OF_BOUNDS);
	kfree(p);
}

/*
 * The report's tracks, from the last capture: where "Allocated by" and
 * "Freed by" begin (NULL if absent).
 */
static void find_tracks(struct ktest *t, const char **alloc,
			const char **freed)
{
	const char *text = ktest_captured(t);

	*alloc = strstr(text, "\nAllocated by task swapper/");
	*freed = strstr(text, "\nFreed by task swapper/");
}

/* Does needle occur in the text from start, before end (NULL: its end)? */
static bool section_has(const char *start, const char *end, const char *needle)
{
	const char *at = start ? strstr(start, needle) : NULL;

	return at && (!end || at < end);
}

static void test_uaf_report_has_tracks(struct ktest *t)
{
	const char *alloc, *freed;
	u8 *p;

	require_kasan(t);
	p = kasan_alloc_helper(48);
	KTEST_ASSERT_NOT_NULL(t, p);
	kasan_free_helper(p);
	expect_begin(t);
	(void)peek(p, 1);
	EXPECT_ONE_REPORT(t, REPORT_KASAN_SLAB_USE_AFTER_FREE);
	find_tracks(t, &alloc, &freed);
	KTEST_ASSERT_NOT_NULL(t, alloc);
	KTEST_ASSERT_NOT_NULL(t, freed);
	KTEST_EXPECT_TRUE(t, alloc < freed);
	/* Each stack names its helper, in its own section, then the object. */
	KTEST_EXPECT_TRUE(t, section_has(alloc, freed, "\n kasan_alloc_helper+0x"));
	KTEST_EXPECT_FALSE(t, section_has(alloc, freed, "kasan_free_helper"));
	KTEST_EXPECT_TRUE(t, section_has(freed, NULL, "\n kasan_free_helper+0x"));
	KTEST_EXPECT_FALSE(t, section_has(freed, NULL, "kasan_alloc_helper"));
	KTEST_EXPECT_TRUE(t, section_has(freed, NULL,
					 "\nThe buggy address belongs to the object"));
}

static void test_oob_report_has_alloc_track_only(struct ktest *t)
{
	const char *alloc, *freed;
	u8 *p;

	require_kasan(t);
	p = kasan_alloc_helper(40);
	KTEST_ASSERT_NOT_NULL(t, p);
	expect_begin(t);
	poke(p, 40);
	EXPECT_ONE_REPORT(t, REPORT_KASAN_SLAB_OUT_OF_BOUNDS);
	find_tracks(t, &alloc, &freed);
	KTEST_EXPECT_NOT_NULL(t, alloc);
	KTEST_EXPECT_NULL(t, freed);
	KTEST_EXPECT_CAPTURED(t, "\n kasan_alloc_helper+0x");
	kasan_free_helper(p);
}

static void test_tracks_follow_reuse(struct ktest *t)
{
	struct kmem_cache *c;
	const char *alloc, *freed;
	u8 *p, *q;

	require_kasan(t);
	c = kmem_cache_create("kasan_reuse", 24, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	kasan_quarantine_set(false);	/* the freed object comes back at once */
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	kmem_cache_free(c, p);
	q = kmem_cache_alloc(c, GFP_KERNEL);
	kasan_quarantine_set(true);
	KTEST_ASSERT_PTR_EQ(t, q, p);
	expect_begin(t);
	poke(q, 24);
	EXPECT_ONE_REPORT(t, REPORT_KASAN_SLAB_OUT_OF_BOUNDS);
	find_tracks(t, &alloc, &freed);
	KTEST_EXPECT_NOT_NULL(t, alloc);
	KTEST_EXPECT_NULL(t, freed);	/* the free before is forgotten */
	KTEST_EXPECT_CAPTURED(t, "test_tracks_follow_reuse+0x");
	kmem_cache_free(c, q);
	kmem_cache_destroy(c);
}

/*
 * Two callers of the helpers, one frame deep each, taken in turn from
 * one loop: the frames below them are the same every time, the return
 * address into them not. The b ones count their calls, so that gcc
 * does not fold the twins into one function.
 */
static unsigned int turns_b;

static __noinline void *kasan_alloc_via_a(size_t size)
{
	void *p = kasan_alloc_helper(size);

	barrier();
	return p;
}

static __noinline void *kasan_alloc_via_b(size_t size)
{
	void *p = kasan_alloc_helper(size);

	WRITE_ONCE(turns_b, turns_b + 1);
	return p;
}

static __noinline void kasan_free_via_a(void *p)
{
	kasan_free_helper(p);
	barrier();
}

static __noinline void kasan_free_via_b(void *p)
{
	kasan_free_helper(p);
	WRITE_ONCE(turns_b, turns_b + 1);
}

#define TURNS	4

/* Each object's tracks name the caller it was allocated and freed by. */
static void expect_turn_tracks(struct ktest *t, int i, bool freed)
{
	const char *alloc, *free;
	const char *mine = i & 1 ? "kasan_alloc_via_b" : "kasan_alloc_via_a";
	const char *other = i & 1 ? "kasan_alloc_via_a" : "kasan_alloc_via_b";

	find_tracks(t, &alloc, &free);
	KTEST_ASSERT_NOT_NULL(t, alloc);
	KTEST_EXPECT_TRUE(t, section_has(alloc, free, mine));
	KTEST_EXPECT_FALSE(t, section_has(alloc, free, other));
	if (!freed)
		return;
	mine = i & 1 ? "kasan_free_via_a" : "kasan_free_via_b";
	other = i & 1 ? "kasan_free_via_b" : "kasan_free_via_a";
	KTEST_ASSERT_NOT_NULL(t, free);
	KTEST_EXPECT_TRUE(t, section_has(free, NULL, mine));
	KTEST_EXPECT_FALSE(t, section_has(free, NULL, other));
}

/*
 * A save that finds its CPU's last stack of its kind takes its handle
 * only if its walk would read the same: allocations and frees from two
 * callers in turn each keep their own caller.
 */
static void test_tracks_callers_in_turn(struct ktest *t)
{
	u8 *p[TURNS];
	int i;

	require_kasan(t);
	for (i = 0; i < TURNS; i++) {
		p[i] = i & 1 ? kasan_alloc_via_b(48) : kasan_alloc_via_a(48);
		KTEST_ASSERT_NOT_NULL(t, p[i]);
	}
	for (i = 0; i < TURNS; i++) {
		expect_begin(t);
		(void)peek(p[i], 48);
		EXPECT_ONE_REPORT(t, REPORT_KASAN_SLAB_OUT_OF_BOUNDS);
		expect_turn_tracks(t, i, false);
	}
	for (i = 0; i < TURNS; i++) {
		if (i & 1)
			kasan_free_via_a(p[i]);
		else
			kasan_free_via_b(p[i]);
	}
	for (i = 0; i < TURNS; i++) {
		expect_begin(t);
		(void)peek(p[i], 0);
		EXPECT_ONE_REPORT(t, REPORT_KASAN_SLAB_USE_AFTER_FREE);
		expect_turn_tracks(t, i, true);
	}
}

/*
 * The bulk calls' callers, named in their objects' tracks (gcc may name
 * a clone of them: "kasan_bulk_alloc_helper.constprop.0").
 */
static __noinline int kasan_bulk_alloc_helper(struct kmem_cache *c, size_t nr,
					      void **p)
{
	int got = kmem_cache_alloc_bulk(c, GFP_KERNEL, nr, p);

	barrier();
	return got;
}

static __noinline void kasan_bulk_free_helper(struct kmem_cache *c, size_t nr,
					      void **p)
{
	kmem_cache_free_bulk(c, nr, p);
	barrier();
}

#define BULK_OBJECTS	8

/* A bad access to any object of a bulk call names its caller. */
static void expect_bulk_tracks(struct ktest *t, bool freed)
{
	const char *alloc, *free;

	find_tracks(t, &alloc, &free);
	KTEST_ASSERT_NOT_NULL(t, alloc);
	KTEST_EXPECT_TRUE(t, section_has(alloc, free,
					 "\n kasan_bulk_alloc_helper"));
	if (!freed) {
		KTEST_EXPECT_NULL(t, free);
		return;
	}
	KTEST_ASSERT_NOT_NULL(t, free);
	KTEST_EXPECT_TRUE(t, section_has(free, NULL,
					 "\n kasan_bulk_free_helper"));
}

/*
 * A bulk call's objects share one saved stack: each one's track names
 * the bulk call's caller, the first's and the last's, and after a bad
 * free in the middle of the array too.
 */
static void test_bulk_tracks(struct ktest *t)
{
	void *p[BULK_OBJECTS];
	struct kmem_cache *c;

	require_kasan(t);
	c = kmem_cache_create("kasan_bulk", 40, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	KTEST_ASSERT_EQ(t, kasan_bulk_alloc_helper(c, BULK_OBJECTS, p),
			BULK_OBJECTS);
	for (int i = 0; i < BULK_OBJECTS; i += BULK_OBJECTS - 1) {
		expect_begin(t);
		(void)peek(p[i], 40);	/* a write would hit the tracks */
		EXPECT_ONE_REPORT(t, REPORT_KASAN_SLAB_OUT_OF_BOUNDS);
		expect_bulk_tracks(t, false);
	}
	/* The first object is freed already: reported, the rest freed. */
	kmem_cache_free(c, p[0]);
	expect_begin(t);
	kasan_bulk_free_helper(c, BULK_OBJECTS, p);
	EXPECT_ONE_REPORT(t, REPORT_KASAN_DOUBLE_FREE);
	for (int i = 1; i < BULK_OBJECTS; i += BULK_OBJECTS - 2) {
		expect_begin(t);
		(void)peek(p[i], 0);
		EXPECT_ONE_REPORT(t, REPORT_KASAN_SLAB_USE_AFTER_FREE);
		expect_bulk_tracks(t, true);
	}
	kmem_cache_destroy(c);
}

/* Every cache but slab_debug's has room for the tracks after its objects. */
static void test_tracks_layout(struct ktest *t)
{
	struct kmem_cache *c, *d;

	require_kasan(t);
	c = kmem_cache_create("kasan_layout", 13, 32, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	KTEST_EXPECT_TRUE(t, c->flags & SLAB_KASAN);
	KTEST_EXPECT_EQ(t, c->size,
			(unsigned int)ALIGN(16 + sizeof(struct kasan_alloc_meta), 32));
	KTEST_EXPECT_EQ(t, c->object_size, 13U);
	kmem_cache_destroy(c);
	d = kmem_cache_create("kasan_layout_dbg", 13, 0, SLAB_RED_ZONE, NULL);
	KTEST_ASSERT_NOT_NULL(t, d);
	KTEST_EXPECT_FALSE(t, d->flags & SLAB_KASAN);
	kmem_cache_destroy(d);
}

static void test_kmalloc_uaf(struct ktest *t)
{
	u8 *p;

	require_kasan(t);
	p = kmalloc(64, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	kfree(p);
	expect_begin(t);
	(void)peek(p, 8);
	EXPECT_ONE_REPORT(t, REPORT_KASAN_SLAB_USE_AFTER_FREE);
	KTEST_EXPECT_CAPTURED(t, "BUG: KASAN: slab-use-after-free in peek+0x");
	KTEST_EXPECT_CAPTURED(t, "located 8 bytes inside of\n freed 64-byte region");
}

static void test_kmem_cache_uaf(struct ktest *t)
{
	struct kmem_cache *c;
	u8 *p;

	require_kasan(t);
	c = kmem_cache_create("kasan_uaf", 200, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	poke(p, 199);
	kmem_cache_free(c, p);
	expect_begin(t);
	poke(p, 100);
	EXPECT_ONE_REPORT(t, REPORT_KASAN_SLAB_USE_AFTER_FREE);
	KTEST_EXPECT_CAPTURED(t, "which belongs to the cache kasan_uaf of size 200");
	/* Destroy takes the quarantined object back: no live object report. */
	kmem_cache_destroy(c);
}

static void test_page_uaf(struct ktest *t)
{
	struct page *page;
	u8 *p;

	require_kasan(t);
	page = alloc_pages(GFP_KERNEL, 1);
	KTEST_ASSERT_NOT_NULL(t, page);
	p = page_address(page);
	poke(p, 2 * PAGE_SIZE - 1);
	__free_pages(page, 1);
	expect_begin(t);
	(void)peek(p, PAGE_SIZE + 3);
	EXPECT_ONE_REPORT(t, REPORT_KASAN_USE_AFTER_FREE);
	KTEST_EXPECT_CAPTURED(t, "BUG: KASAN: use-after-free in peek+0x");
}

static void test_vmalloc_oob(struct ktest *t)
{
	u8 *v;

	require_kasan(t);
	v = vmalloc(3000);
	KTEST_ASSERT_NOT_NULL(t, v);
	poke(v, 2999);
	expect_begin(t);
	poke(v, 3000);	/* the same page, past the size asked for */
	EXPECT_ONE_REPORT(t, REPORT_KASAN_VMALLOC_OUT_OF_BOUNDS);
	KTEST_EXPECT_CAPTURED(t, "BUG: KASAN: vmalloc-out-of-bounds");
	/* The guard page is invalid too (an access there would also fault). */
	expect_begin(t);
	KTEST_EXPECT_FALSE(t, kasan_check_byte(v + PAGE_SIZE));
	EXPECT_ONE_REPORT(t, REPORT_KASAN_VMALLOC_OUT_OF_BOUNDS);
	vfree(v);
}

static void test_vmalloc_uaf(struct ktest *t)
{
	u8 *v;

	require_kasan(t);
	v = vmalloc(2 * PAGE_SIZE);
	KTEST_ASSERT_NOT_NULL(t, v);
	KTEST_EXPECT_TRUE(t, kasan_check_byte(v + PAGE_SIZE));
	vfree(v);
	/* A load would also fault (unmapped): the shadow is checked alone. */
	expect_begin(t);
	KTEST_EXPECT_FALSE(t, kasan_check_byte(v + PAGE_SIZE));
	EXPECT_ONE_REPORT(t, REPORT_KASAN_VMALLOC_OUT_OF_BOUNDS);
}

static void test_double_free(struct ktest *t)
{
	u8 *p;

	require_kasan(t);
	p = kmalloc(64, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	kfree(p);
	expect_begin(t);
	kfree(p);	/* reported and ignored */
	EXPECT_ONE_REPORT(t, REPORT_KASAN_DOUBLE_FREE);
	KTEST_EXPECT_CAPTURED(t, "BUG: KASAN: double-free in");
	KTEST_EXPECT_CAPTURED(t, "\nAllocated by task swapper/");
	KTEST_EXPECT_CAPTURED(t, "\nFreed by task swapper/");
}

/*
 * Inside a slab of a stride that is no power of two (40 bytes and the
 * tracks: 56): a granule into an object, and where an object after the
 * last one would start.
 */
static void test_invalid_free_in_slab(struct ktest *t)
{
	struct kmem_cache *c;
	struct slab *slab;
	u8 *p, *end;

	c = kmem_cache_create("kasan_stride", 40, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	expect_begin(t);
	kmem_cache_free(c, p + 8);
	EXPECT_ONE_REPORT(t, REPORT_KASAN_INVALID_FREE);
	slab = virt_to_slab(p);
	end = index_to_obj(c, slab, c->num);
	KTEST_ASSERT_LT(t, (unsigned long)end, (unsigned long)slab_address(slab) +
			(PAGE_SIZE << c->gfporder));
	KTEST_ASSERT_TRUE(t, c->size & (c->size - 1));
	expect_begin(t);
	kmem_cache_free(c, end);
	EXPECT_ONE_REPORT(t, REPORT_KASAN_INVALID_FREE);
	poke(p, 39);	/* still allocated */
	kmem_cache_free(c, p);
	kmem_cache_destroy(c);
}

static void test_invalid_free(struct ktest *t)
{
	struct kmem_cache *c;
	u8 *p, *q;

	require_kasan(t);
	p = kmalloc(64, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	expect_begin(t);
	kfree(p + 1);	/* not the object's start: reported and ignored */
	EXPECT_ONE_REPORT(t, REPORT_KASAN_INVALID_FREE);
	KTEST_EXPECT_CAPTURED(t, "BUG: KASAN: invalid-free in");
	poke(p, 63);	/* still allocated */
	kfree(p);
	/* An object freed to a cache it is not from. */
	c = kmem_cache_create("kasan_wrong", 64, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	q = kmalloc(64, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, q);
	expect_begin(t);
	kmem_cache_free(c, q);
	EXPECT_ONE_REPORT(t, REPORT_KASAN_INVALID_FREE);
	kfree(q);
	kmem_cache_destroy(c);
	test_invalid_free_in_slab(t);
}

struct rcu_obj {
	struct rcu_head rcu;
	u8 data[48];
};

static void test_kfree_rcu(struct ktest *t)
{
	struct rcu_obj *o;

	require_kasan(t);
	o = kmalloc(sizeof(*o), GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, o);
	/*
	 * Before the grace period the object is still valid. A reader holds
	 * it off: on SMP a tick here could otherwise end it at once.
	 */
	rcu_read_lock();
	kfree_rcu(o, rcu);
	expect_begin(t);
	(void)peek(o->data, 0);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
	rcu_read_unlock();
	rcu_barrier();	/* the grace period, and the kfree() after it */
	expect_begin(t);
	(void)peek(o->data, 0);
	EXPECT_ONE_REPORT(t, REPORT_KASAN_SLAB_USE_AFTER_FREE);
	/* Freed by RCU's callback, wherever it ran. */
	KTEST_EXPECT_CAPTURED(t, "\nFreed by task swapper/");
	KTEST_EXPECT_CAPTURED(t, "\n kfree+0x");
}

static void test_typesafe_by_rcu_stays_valid(struct ktest *t)
{
	struct kmem_cache *c;
	u8 *p;

	require_kasan(t);
	c = kmem_cache_create("kasan_rcu", 64, 0, SLAB_TYPESAFE_BY_RCU, NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	kmem_cache_free(c, p);
	/* A reader under rcu_read_lock() may still look: no report. */
	expect_begin(t);
	rcu_read_lock();
	(void)peek(p, 0);
	rcu_read_unlock();
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
	kmem_cache_destroy(c);
}

static void test_mempool_elements(struct ktest *t)
{
	const char *alloc, *freed;
	mempool_t *pool;
	u8 *e;

	require_kasan(t);
	pool = mempool_create_kmalloc_pool(2, 64);
	KTEST_ASSERT_NOT_NULL(t, pool);
	e = mempool_alloc_preallocated(pool);	/* from the reserve */
	KTEST_ASSERT_NOT_NULL(t, e);
	poke(e, 63);	/* handed out: valid */
	mempool_free(e, pool);	/* back into the reserve */
	expect_begin(t);
	(void)peek(e, 0);
	EXPECT_ONE_REPORT(t, REPORT_KASAN_SLAB_USE_AFTER_FREE);
	/* Handed out of, and put back into, the reserve, from here. */
	find_tracks(t, &alloc, &freed);
	KTEST_ASSERT_NOT_NULL(t, alloc);
	KTEST_ASSERT_NOT_NULL(t, freed);
	KTEST_EXPECT_TRUE(t, section_has(alloc, freed,
					 "\n test_mempool_elements+0x"));
	KTEST_EXPECT_TRUE(t, section_has(freed, NULL, "\n mempool_free+0x"));
	mempool_destroy(pool);
}

static int counting_ctor_calls;

static void ctor_writes(void *obj)
{
	counting_ctor_calls++;
	memset(obj, 0x11, 40);	/* valid while the constructor runs */
}

static void test_ctor_object_valid_while_constructed(struct ktest *t)
{
	struct kmem_cache *c;
	u8 *p;

	require_kasan(t);
	counting_ctor_calls = 0;
	c = kmem_cache_create("kasan_ctor", 40, 0, 0, ctor_writes);
	KTEST_ASSERT_NOT_NULL(t, c);
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_GT(t, counting_ctor_calls, 0);
	KTEST_EXPECT_EQ(t, peek(p, 39), 0x11);
	kmem_cache_free(c, p);
	kmem_cache_destroy(c);
}

static void test_quarantine_delays_reuse(struct ktest *t)
{
	struct kasan_quarantine_stats before, after;
	u8 *p, *q[64];
	unsigned int reused = 0;

	require_kasan(t);
	p = kmalloc(96, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	kasan_quarantine_get_stats(&before);
	kfree(p);
	kasan_quarantine_get_stats(&after);
	KTEST_EXPECT_EQ(t, after.objects, before.objects + 1);
	KTEST_EXPECT_LE(t, after.bytes, after.max_bytes + 8192);
	/* Without a quarantine the next kmalloc(96) would be p (LIFO). */
	for (unsigned int i = 0; i < ARRAY_SIZE(q); i++) {
		q[i] = kmalloc(96, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, q[i]);
		reused += q[i] == p;
	}
	KTEST_EXPECT_EQ(t, reused, 0U);
	expect_begin(t);
	(void)peek(p, 0);	/* still caught */
	EXPECT_ONE_REPORT(t, REPORT_KASAN_SLAB_USE_AFTER_FREE);
	for (unsigned int i = 0; i < ARRAY_SIZE(q); i++)
		kfree(q[i]);
	/* Reclaim's shrinker empties it: this CPU's batch, p there. */
	KTEST_EXPECT_GE(t, kasan_quarantine_reduce(ULONG_MAX), 1UL);
}

static void test_quarantine_bounded(struct ktest *t)
{
	unsigned long max_bytes = 0, max_objects = 0;
	struct kasan_quarantine_stats st;
	void *p;

	require_kasan(t);
	kasan_quarantine_get_stats(&st);
	KTEST_ASSERT_GT(t, st.max_objects, 0UL);
	KTEST_ASSERT_GT(t, st.max_bytes, 0UL);
	/* Twice its slots of frees: it never holds more than its bounds. */
	for (unsigned long i = 0; i < 2 * st.max_objects; i++) {
		p = kmalloc(32, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, p);
		kfree(p);
		kasan_quarantine_get_stats(&st);
		max_bytes = max(max_bytes, st.bytes);
		max_objects = max(max_objects, st.objects);
	}
	KTEST_EXPECT_LE(t, max_objects, st.max_objects);
	KTEST_EXPECT_LE(t, max_bytes, st.max_bytes);
	KTEST_EXPECT_GT(t, st.objects, 0UL);
	/* Big objects: the byte bound, at 1/32 of RAM, is the one reached. */
	for (unsigned long i = 0; i < 2 * st.max_bytes / 4096; i++) {
		p = kmalloc(4096, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, p);
		kfree(p);
		kasan_quarantine_get_stats(&st);
		max_bytes = max(max_bytes, st.bytes);
	}
	KTEST_EXPECT_LE(t, max_bytes, st.max_bytes);
	KTEST_EXPECT_GT(t, st.bytes, st.max_bytes / 2);
}

/*
 * Memory runs out while freed objects wait in the quarantine: reclaim's
 * shrinker gives them back, their slabs go, and the allocation that
 * needed the memory succeeds.
 */
static void test_quarantine_drained_under_pressure(struct ktest *t)
{
	struct kmem_cache *c;
	struct page *page;
	struct hog *hog;
	void *p[64];

	require_kasan(t);
	c = kmem_cache_create("kasan_pressure", 4096, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	for (unsigned int i = 0; i < ARRAY_SIZE(p); i++) {
		p[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, p[i]);
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(p); i++)
		kmem_cache_free(c, p[i]);
	KTEST_EXPECT_EQ(t, kasan_quarantine_cache_objects(c),
			(unsigned long)ARRAY_SIZE(p));
	/* Every page, without reclaim: the quarantine is still full. */
	hog = hog_memory_gfp(GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY);
	KTEST_EXPECT_NULL(t, alloc_page(GFP_KERNEL | __GFP_NOWARN |
					__GFP_NORETRY));
	KTEST_EXPECT_EQ(t, kasan_quarantine_cache_objects(c),
			(unsigned long)ARRAY_SIZE(p));
	/* With reclaim: the quarantine first, then the cache's free slabs. */
	page = alloc_page(GFP_KERNEL | __GFP_NOWARN);
	KTEST_EXPECT_NOT_NULL(t, page);
	KTEST_EXPECT_EQ(t, kasan_quarantine_cache_objects(c), 0UL);
	if (page)
		__free_page(page);
	release_memory(hog);
	kmem_cache_destroy(c);
}

/* Set a boot parameter through the command line's own parser. */
static int set_param(const char *word)
{
	char buf[64];

	strscpy(buf, word, sizeof(buf));
	return parse_args(buf, __start_kernel_params,
			  (size_t)(__stop_kernel_params - __start_kernel_params));
}

/*
 * Only the first report that nobody expected is printed, unless
 * kasan_multi_shot; the kasan suite's are all (Linux's report_enabled()).
 * The decision itself: on x86_64 the run goes on after a report and
 * x86_kasan_report() asks it; the host's ASan ends the run anyway.
 */
static void test_report_once_unless_multi_shot(struct ktest *t)
{
	bool multi, reported;

	require_kasan(t);
	multi = kasan_save_enable_multi_shot();
	kasan_restore_multi_shot(false);
	reported = kasan_set_reported(false);
	KTEST_EXPECT_TRUE(t, kasan_report_enabled(false));	/* the first */
	KTEST_EXPECT_FALSE(t, kasan_report_enabled(false));
	KTEST_EXPECT_FALSE(t, kasan_report_enabled(false));
	KTEST_EXPECT_TRUE(t, kasan_report_enabled(true));	/* expected */
	KTEST_EXPECT_TRUE(t, kasan_reports_expected());	/* this suite's */
	/* kasan_multi_shot: every one. */
	KTEST_EXPECT_FALSE(t, kasan_save_enable_multi_shot());
	KTEST_EXPECT_TRUE(t, kasan_report_enabled(false));
	KTEST_EXPECT_TRUE(t, kasan_report_enabled(false));
	kasan_restore_multi_shot(false);
	KTEST_EXPECT_FALSE(t, kasan_report_enabled(false));
	/* The same from the command line; it takes no value. */
	ktest_capture_start(t, "Malformed kernel command line parameter");
	KTEST_EXPECT_EQ(t, set_param("kasan_multi_shot=1"), 1);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_FALSE(t, kasan_report_enabled(false));
	KTEST_EXPECT_EQ(t, set_param("kasan_multi_shot"), 0);
	KTEST_EXPECT_TRUE(t, kasan_report_enabled(false));
	kasan_restore_multi_shot(multi);
	kasan_set_reported(reported);
}

/*
 * The same end to end where the run goes on after a report (x86_64):
 * with the suite's reports not expected for a moment, only the first
 * bad access is reported, every one under kasan_multi_shot.
 */
static void test_single_shot_reports(struct ktest *t)
{
	bool multi, reported;
	u8 *p;

	require_kasan(t);
	if (strcmp(arch_name, "x86_64"))
		ktest_skip(t, "the host's AddressSanitizer ends the run at a report nobody expects");
	if (kasan_report_panics(false))
		ktest_skip(t, "booted with panic_on_warn: a report would panic");
	p = kmalloc(13, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	multi = kasan_save_enable_multi_shot();
	kasan_restore_multi_shot(false);
	reported = kasan_set_reported(false);
	kasan_kunit_test_suite_end();		/* nobody expects these */
	expect_begin(t);
	poke(p, 13);
	poke(p, 14);
	(void)peek(p, 15);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);	/* the first only */
	kasan_save_enable_multi_shot();
	expect_begin(t);
	poke(p, 13);
	poke(p, 14);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 2U);
	kasan_restore_multi_shot(false);
	expect_begin(t);
	poke(p, 13);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
	kasan_kunit_test_suite_start();
	kasan_restore_multi_shot(multi);
	kasan_set_reported(reported);
	kfree(p);
}

/* panic_on_warn: a report nobody expected panics, the suite's never. */
static void test_panic_on_warn(struct ktest *t)
{
	bool was;

	require_kasan(t);
	was = kasan_report_panics(false);
	KTEST_ASSERT_EQ(t, set_param("panic_on_warn=0"), 0);
	KTEST_EXPECT_FALSE(t, kasan_report_panics(false));
	KTEST_EXPECT_FALSE(t, kasan_report_panics(true));
	KTEST_EXPECT_EQ(t, set_param("panic_on_warn"), 0);
	KTEST_EXPECT_TRUE(t, kasan_report_panics(false));
	KTEST_EXPECT_FALSE(t, kasan_report_panics(true));
	KTEST_EXPECT_EQ(t, set_param("panic_on_warn=0"), 0);
	KTEST_EXPECT_FALSE(t, kasan_report_panics(false));
	KTEST_EXPECT_EQ(t, set_param("panic_on_warn=1"), 0);
	KTEST_EXPECT_TRUE(t, kasan_report_panics(false));
	/* A bad value changes nothing. */
	ktest_capture_start(t, "Malformed kernel command line parameter");
	KTEST_EXPECT_EQ(t, set_param("panic_on_warn=yes"), 1);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_TRUE(t, kasan_report_panics(false));
	KTEST_EXPECT_EQ(t, set_param(was ? "panic_on_warn=1" :
				     "panic_on_warn=0"), 0);
}

/* Reports expected; the quarantine on even if booted with it off. */
static bool quarantine_was_on;

static int kasan_suite_init(struct ktest *t)
{
	kasan_kunit_test_suite_start();
	quarantine_was_on = kasan_quarantine_set(true);
	return 0;
}

static void kasan_suite_exit(struct ktest *t)
{
	kasan_quarantine_set(quarantine_was_on);
	kasan_kunit_test_suite_end();
}

static struct ktest_case kasan_cases[] = {
	KTEST_CASE(test_kmalloc_oob_right),
	KTEST_CASE(test_kmalloc_oob_left),
	KTEST_CASE(test_kmalloc_large_oob_right),
	KTEST_CASE(test_krealloc_more),
	KTEST_CASE(test_krealloc_less),
	KTEST_CASE(test_ksize_unpoisons),
	KTEST_CASE(test_string_functions),
	KTEST_CASE(test_uaf_report_has_tracks),
	KTEST_CASE(test_oob_report_has_alloc_track_only),
	KTEST_CASE(test_tracks_follow_reuse),
	KTEST_CASE(test_bulk_tracks),
	KTEST_CASE(test_tracks_callers_in_turn),
	KTEST_CASE(test_tracks_layout),
	KTEST_CASE(test_kmalloc_uaf),
	KTEST_CASE(test_kmem_cache_uaf),
	KTEST_CASE(test_page_uaf),
	KTEST_CASE(test_vmalloc_oob),
	KTEST_CASE(test_vmalloc_uaf),
	KTEST_CASE(test_double_free),
	KTEST_CASE(test_invalid_free),
	KTEST_CASE(test_kfree_rcu),
	KTEST_CASE(test_typesafe_by_rcu_stays_valid),
	KTEST_CASE(test_mempool_elements),
	KTEST_CASE(test_ctor_object_valid_while_constructed),
	KTEST_CASE(test_quarantine_delays_reuse),
	KTEST_CASE(test_quarantine_bounded),
	KTEST_CASE(test_quarantine_drained_under_pressure),
	KTEST_CASE(test_report_once_unless_multi_shot),
	KTEST_CASE(test_single_shot_reports),
	KTEST_CASE(test_panic_on_warn),
	{}
};

KTEST_SUITE(kasan, kasan_cases, .init = kasan_suite_init,
	    .exit = kasan_suite_exit);

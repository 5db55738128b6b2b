// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of slab_debug (mm/slab_debug.c) and freelist randomization.
 *
 *  - the slab_debug= syntax, the debug object layout, the byte values of
 *    red zones and poison, caller tracking with symbol names;
 *  - bad input: each case provokes one misuse of a slab or kmalloc and
 *    asserts (a) exactly one report, with the problem, the offset of the
 *    first bad byte and the fix it names, and (b) that afterwards the
 *    cache and every other cache pass kmem_cache_validate() and a short
 *    stress (whose own reports would fail the case);
 *  - quarantine, validation on demand of caches without debugging
 *    (double frees found in the array caches), the fast path of a cache
 *    without debugging running no debug check at all;
 *  - SLAB_FREELIST_RANDOM: a new slab hands out a permutation, the same
 *    for the same seed.
 *
 * The suite creates its own debugged caches, so it runs the same with
 * and without the slab_debug boot parameter; the cases on the kmalloc
 * caches themselves run only when that parameter debugs them.
 */
#include "kernel/errno.h"
#include "lib/ktest/ktest.h"
#include "lib/prandom.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/kasan.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"
#include "tests/mm_util.h"

#define ALL_DEBUG	SLAB_DEBUG_FLAGS
#define STRESS_OPS	3000

static struct kmem_cache *make_cache(struct ktest *t, const char *name,
				     unsigned int size, slab_flags_t flags)
{
	struct kmem_cache *c = kmem_cache_create(name, size, 0, flags, NULL);

	KTEST_ASSERT_NOT_NULL(t, c);
	return c;
}

/* --- after every bad input: the allocator is whole ------------------------ */

static void expect_whole(struct ktest *t, struct kmem_cache *c)
{
	struct slab_stress st;

	KTEST_EXPECT_EQ(t, kmem_cache_validate(c), 0);
	KTEST_EXPECT_EQ(t, slab_validate_all(), 0);
	slab_stress(c, STRESS_OPS, 600, 7, &st);
	KTEST_EXPECT_EQ(t, st.failed, 0UL);
	KTEST_EXPECT_EQ(t, st.corrupt, 0UL);
	KTEST_EXPECT_EQ(t, kmem_cache_validate(c), 0);
}

/* --- slab_debug= ---------------------------------------------------------- */

struct parse_case {
	const char *spec;
	const char *cache;
	int ret;
	slab_flags_t flags;
};

#define F SLAB_CONSISTENCY_CHECKS
#define Z SLAB_RED_ZONE
#define P SLAB_POISON
#define U SLAB_STORE_USER

static const struct parse_case parse_cases[] = {
	{ "", "kmalloc-64", 0, F | Z | P | U },		/* bare slab_debug */
	{ "FZPU", "any", 0, F | Z | P | U },
	{ "fz", "any", 0, F | Z },			/* lower case too */
	{ "P", "any", 0, P },
	{ "-", "any", 0, 0 },
	{ "U,kmalloc-64", "kmalloc-64", 0, U },
	{ "U,kmalloc-64", "kmalloc-128", 0, 0 },
	{ ",dentry", "dentry", 0, F | Z | P | U },	/* all, for one cache */
	{ ",dentry", "inode", 0, 0 },
	{ "Z,kmalloc-*", "kmalloc-8k", 0, Z },		/* globs */
	{ "Z,kmalloc-*", "dma-kmalloc-8", 0, 0 },
	{ "F;Z,a,b", "b", 0, Z },			/* a named block wins */
	{ "F;Z,a,b", "c", 0, F },			/* the global block */
	{ "Z,a;P,a", "a", 0, Z },			/* first match wins */
	{ "-;P,a", "a", 0, P },
	{ "Q", "any", -EINVAL, 0 },			/* unknown letter */
	{ "FZx,a", "a", -EINVAL, 0 },
	{ "F;Y,a", "a", -EINVAL, 0 },
};

static void parse_desc(const struct parse_case *c, char *desc)
{
	snprintf(desc, KTEST_DESC_SIZE, "\"%s\" for %s", c->spec, c->cache);
}

KTEST_ARRAY_PARAM(parse_gen, parse_cases, parse_desc);

static void test_parse(struct ktest *t)
{
	const struct parse_case *c = t->param_value;
	slab_flags_t flags = 0xdead;

	ktest_capture_start(t, "slab_debug: unknown flag");
	KTEST_EXPECT_EQ(t, slab_debug_parse(c->spec, c->cache, &flags), c->ret);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), c->ret ? 1U : 0U);
	if (!c->ret)
		KTEST_EXPECT_EQ(t, flags, c->flags);
}

#undef F
#undef Z
#undef P
#undef U

/* --- layout and byte values --------------------------------------------- */

static bool all_bytes(const void *p, size_t n, u8 v)
{
	return !memchr_inv(p, v, n);
}

static void test_layout_red_zones(struct ktest *t)
{
	struct kmem_cache *c = make_cache(t, "t-rz", 13, SLAB_RED_ZONE);
	u8 *p;

	/* 8 bytes before, 13 + 3 + 8 after, the info, stride aligned. */
	KTEST_EXPECT_EQ(t, c->obj_offset, 8U);
	KTEST_EXPECT_EQ(t, c->debug_offset, 24U);
	KTEST_EXPECT_EQ(t, c->size % c->align, 0U);
	KTEST_EXPECT_NE(t, c->freelist_place, FREELIST_IN_OBJECT);
	KTEST_EXPECT_EQ(t, c->limit, 0U);	/* no per-CPU array */
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_EQ(t, (unsigned long)p % 8, 0UL);
	KTEST_EXPECT_TRUE(t, all_bytes(p - 8, 8, 0xcc));
	KTEST_EXPECT_TRUE(t, all_bytes(p + 13, 11, 0xcc));
	kmem_cache_free(c, p);
	KTEST_EXPECT_TRUE(t, all_bytes(p - 8, 8, 0xbb));
	KTEST_EXPECT_TRUE(t, all_bytes(p + 13, 11, 0xbb));
	kmem_cache_destroy(c);

	/* A 64-byte aligned object keeps its alignment: 64 bytes before. */
	c = kmem_cache_create("t-rz-aligned", 64, 64, SLAB_RED_ZONE, NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	KTEST_EXPECT_EQ(t, c->obj_offset, 64U);
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_EQ(t, (unsigned long)p % 64, 0UL);
	kmem_cache_free(c, p);
	kmem_cache_destroy(c);
}

static void test_layout_poison(struct ktest *t)
{
	struct kmem_cache *c = make_cache(t, "t-poison", 100, SLAB_POISON);
	u8 *p = kmem_cache_alloc(c, GFP_KERNEL), *q;

	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_TRUE(t, all_bytes(p, 100, 0x5a));	/* POISON_INUSE */
	memset(p, 0, 100);
	kmem_cache_free(c, p);
	KTEST_EXPECT_TRUE(t, all_bytes(p, 99, 0x6b));	/* POISON_FREE */
	KTEST_EXPECT_EQ(t, p[99], 0xa5);		/* POISON_END */
	q = kmem_cache_zalloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, q);
	KTEST_EXPECT_TRUE(t, all_bytes(q, 100, 0));
	kmem_cache_free(c, q);
	kmem_cache_destroy(c);
}

static unsigned int ctor_runs;

static void poison_ctor(void *obj)
{
	memset(obj, 0x11, 32);
	ctor_runs++;
}

/* A constructed object must stay constructed: no poison (as SLUB). */
static void test_poison_skips_ctor_caches(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("t-poison-ctor", 32, 0,
						 SLAB_POISON | SLAB_RED_ZONE,
						 poison_ctor);
	u8 *p;

	KTEST_ASSERT_NOT_NULL(t, c);
	KTEST_EXPECT_FALSE(t, c->flags & SLAB_POISON);
	KTEST_EXPECT_TRUE(t, c->flags & SLAB_RED_ZONE);
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_TRUE(t, all_bytes(p, 32, 0x11));
	kmem_cache_free(c, p);
	KTEST_EXPECT_TRUE(t, all_bytes(p, 32, 0x11));
	kmem_cache_destroy(c);
}

/* barrier(): no tail call, so the caller recorded is this function. */
static __noinline void *track_alloc_site(struct kmem_cache *c)
{
	void *p = kmem_cache_alloc(c, GFP_KERNEL);

	barrier();
	return p;
}

static __noinline void track_free_site(struct kmem_cache *c, void *p)
{
	kmem_cache_free(c, p);
	barrier();
}

/* The report names the last allocation and free by symbol. */
static void test_store_user(struct ktest *t)
{
	struct kmem_cache *c = make_cache(t, "t-track", 64,
					  SLAB_STORE_USER | SLAB_POISON);
	u8 *p = track_alloc_site(c);

	KTEST_ASSERT_NOT_NULL(t, p);
	track_free_site(c, p);
	p[10] = 0;			/* write after free */
	ktest_capture_start(t, "BUG:");
	KTEST_EXPECT_EQ(t, kmem_cache_validate(c), 1);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "last allocated by track_alloc_site+");
	KTEST_EXPECT_CAPTURED(t, "last freed by track_free_site+");
	KTEST_EXPECT_CAPTURED(t, "first bad byte at offset 10 (poison): 0x00 instead of 0x6b");
	KTEST_EXPECT_CAPTURED(t, "FIX t-track: restored (found by kmem_cache_validate)");
	/* Restored: handed out again without a report. */
	expect_whole(t, c);
	kmem_cache_destroy(c);
}

/* --- bad input ------------------------------------------------------------ */

struct bad_ctx {
	struct kmem_cache *c;
	struct kmem_cache *other;	/* a second debugged cache */
	void *keep[4];			/* objects of c to free afterwards */
	void *kmalloc_keep;		/* a kmalloc object to free afterwards */
	struct page *page;		/* pages to free afterwards */
	unsigned int order;
};

struct bad_input {
	const char *desc;
	slab_flags_t flags;
	unsigned int size;
	void (*provoke)(struct bad_ctx *x);
	const char *report[4];		/* substrings of the report */
	unsigned int reports;		/* BUG: lines; 0 means 1 */
	unsigned long quarantined;	/* objects c ends with in quarantine */
	enum report_kind kind;		/* of the (last) report */
	enum report_kind also;		/* of the first, when there are two */
};

static void *alloc_c(struct bad_ctx *x)
{
	return kmem_cache_alloc(x->c, GFP_KERNEL);
}

static void double_free(struct bad_ctx *x)
{
	void *p = alloc_c(x);

	x->keep[0] = alloc_c(x);	/* the slab stays */
	kmem_cache_free(x->c, p);
	kmem_cache_free(x->c, p);
}

static void double_kfree(struct bad_ctx *x)
{
	void *p = alloc_c(x);

	kfree(p);
	kfree(p);
	barrier();	/* the report names this function */
}

/* Freed, reused by someone else, freed, and then freed again. */
static void double_free_later(struct bad_ctx *x)
{
	void *p = alloc_c(x), *q;

	kmem_cache_free(x->c, p);
	q = alloc_c(x);			/* p again: LIFO */
	x->keep[0] = alloc_c(x);
	kmem_cache_free(x->c, q);
	kmem_cache_free(x->c, p);
}

static void free_inside(struct bad_ctx *x)
{
	u8 *p = alloc_c(x);

	x->keep[0] = p;
	kmem_cache_free(x->c, p + 1);
}

static void free_last_byte(struct bad_ctx *x)
{
	u8 *p = alloc_c(x);

	x->keep[0] = p;
	kfree(p + kmem_cache_size(x->c) - 1);
}

static void free_slab_start(struct bad_ctx *x)
{
	void *p = alloc_c(x);

	x->keep[0] = p;
	/* Before the first object's red zone: colour or index array. */
	kmem_cache_free(x->c, slab_address(virt_to_slab(p)));
}

static void free_stack_ptr(struct bad_ctx *x)
{
	char local[16];

	memset(local, 0, sizeof(local));
	kmem_cache_free(x->c, local);
}

static char not_heap[64];

static void kfree_static(struct bad_ctx *x)
{
	(void)x;
	kfree(not_heap + 8);
}

static void free_page_ptr(struct bad_ctx *x)
{
	x->page = alloc_page(GFP_KERNEL);
	x->order = 0;
	kmem_cache_free(x->c, page_address(x->page));
}

static void kfree_page_ptr(struct bad_ctx *x)
{
	x->page = alloc_page(GFP_KERNEL);
	x->order = 0;
	kfree(page_address(x->page));
}

static void kfree_large_tail(struct bad_ctx *x)
{
	u8 *p = kmalloc(3 * PAGE_SIZE, GFP_KERNEL);

	x->kmalloc_keep = p;
	kfree(p + PAGE_SIZE);
}

static void kfree_large_inside(struct bad_ctx *x)
{
	u8 *p = kmalloc(20000, GFP_KERNEL);

	x->kmalloc_keep = p;
	kfree(p + 8);
}

static void wrong_cache(struct bad_ctx *x)
{
	void *p = kmem_cache_alloc(x->other, GFP_KERNEL);

	kmem_cache_free(x->c, p);
	kmem_cache_free(x->other, p);
}

static void wrong_cache_kmalloc(struct bad_ctx *x)
{
	void *p = kmalloc(64, GFP_KERNEL);

	x->kmalloc_keep = p;
	kmem_cache_free(x->c, p);
}

static void red_zone_before(struct bad_ctx *x)
{
	u8 *p = alloc_c(x);

	p[-1] = 0x41;
	kmem_cache_free(x->c, p);
}

static void red_zone_before_far(struct bad_ctx *x)
{
	u8 *p = alloc_c(x);

	p[-(int)x->c->obj_offset] = 0x41;
	kfree(p);
}

static void red_zone_after(struct bad_ctx *x)
{
	u8 *p = alloc_c(x);

	p[kmem_cache_size(x->c)] = 0x41;
	kmem_cache_free(x->c, p);
}

static void red_zone_after_end(struct bad_ctx *x)
{
	u8 *p = alloc_c(x);

	p[x->c->debug_offset - 1] = 0x41;
	kmem_cache_free(x->c, p);
}

/* kmalloc(60) from a 64-byte class, then a write at byte 60. */
static void kmalloc_red_zone(struct bad_ctx *x)
{
	u8 *p = alloc_c(x);

	slab_debug_set_orig_size(x->c, p, 60);
	memset(p, 1, 61);
	kfree(p);
}

/* An overflow across the whole red zone into the next object's. */
static void overflow_to_next(struct bad_ctx *x)
{
	u8 *p = alloc_c(x);

	memset(p, 0x41, x->c->debug_offset);
	kmem_cache_free(x->c, p);
}

static void write_after_free(struct bad_ctx *x)
{
	u8 *p = alloc_c(x);

	kmem_cache_free(x->c, p);
	p[0] = 0x00;
	x->keep[0] = alloc_c(x);	/* not p: quarantined */
	x->keep[1] = p;			/* checked below */
}

static void write_after_free_end(struct bad_ctx *x)
{
	u8 *p = alloc_c(x);

	kmem_cache_free(x->c, p);
	p[kmem_cache_size(x->c) - 1] = 0x6b;
	x->keep[0] = alloc_c(x);
	x->keep[1] = p;
}

static void write_after_free_middle(struct bad_ctx *x)
{
	u8 *p = alloc_c(x);

	kmem_cache_free(x->c, p);
	p[2000] = 0x99;
	x->keep[0] = alloc_c(x);
	x->keep[1] = p;
}

static void red_zone_while_free(struct bad_ctx *x)
{
	u8 *p = alloc_c(x);

	kmem_cache_free(x->c, p);
	p[kmem_cache_size(x->c)] = 0x41;
	x->keep[0] = alloc_c(x);
	x->keep[1] = p;
}

/* The write-after-free victim is freed once more by its old owner. */
static void free_quarantined(struct bad_ctx *x)
{
	u8 *p = alloc_c(x);

	kmem_cache_free(x->c, p);
	p[5] = 0x00;
	x->keep[0] = alloc_c(x);
	kmem_cache_free(x->c, p);
}

static void bulk_with_bad_pointer(struct bad_ctx *x)
{
	u8 *a = alloc_c(x), *b = alloc_c(x);
	void *v[3] = { a, b + 4, b };

	kmem_cache_free_bulk(x->c, 3, v);
}

static void bulk_with_double(struct bad_ctx *x)
{
	void *a = alloc_c(x);
	void *v[2] = { a, a };

	x->keep[0] = alloc_c(x);
	kmem_cache_free_bulk(x->c, 2, v);
}

static void ksize_bad(struct bad_ctx *x)
{
	(void)x;
	if (ksize(not_heap) != 0)
		not_heap[0] = 1;	/* seen by the check below */
}

static void krealloc_bad(struct bad_ctx *x)
{
	(void)x;
	if (krealloc(not_heap, 100, GFP_KERNEL))
		not_heap[0] = 1;
}

static void kfree_sensitive_bad(struct bad_ctx *x)
{
	(void)x;
	kfree_sensitive(not_heap + 16);
}

/* Double frees into a cache without debugging: found on demand. */
static void nodebug_double_free(struct bad_ctx *x)
{
	void *p = alloc_c(x);

	kmem_cache_free(x->c, p);
	kmem_cache_free(x->c, p);	/* twice in the per-CPU array */
	kmem_cache_validate(x->c);
}

static void nodebug_double_free_drained(struct bad_ctx *x)
{
	void *p = alloc_c(x);

	x->keep[0] = alloc_c(x);
	kmem_cache_free(x->c, p);
	kmem_cache_shrink(x->c);	/* p back in its slab */
	kmem_cache_free(x->c, p);	/* and in the array */
	kmem_cache_validate(x->c);
}

static void nodebug_foreign_in_array(struct bad_ctx *x)
{
	void *p = kmem_cache_alloc(x->other, GFP_KERNEL);

	kmem_cache_free(x->c, p);	/* not detected: no debugging */
	kmem_cache_validate(x->c);	/* found and dropped */
	kmem_cache_free(x->other, p);
}

/* A corrupted index array, found by F on the next free. */
static void corrupt_freelist(struct bad_ctx *x)
{
	void *p = alloc_c(x), *q = alloc_c(x);
	struct slab *slab = virt_to_slab(p);
	unsigned int saved = get_free_obj(x->c, slab, slab->active);

	set_free_obj(x->c, slab, slab->active,
		     get_free_obj(x->c, slab, slab->active + 1));
	kmem_cache_free(x->c, p);
	/* p's index now sits at active; the corrupted entry is above it. */
	set_free_obj(x->c, slab, slab->active + 1, saved);
	kmem_cache_free(x->c, q);
}

#define ALL	SLAB_DEBUG_FLAGS
#define RZ	SLAB_RED_ZONE
#define POI	SLAB_POISON

/*
 * Each bad input's report: its kind, and what it must say beyond that
 * (offsets, callers, the fix). The first input of each kind also checks
 * the sentence a person reads; the others only the kind.
 */
static const struct bad_input bad_inputs[] = {
	{ "double free (red zones)", RZ, 64, double_free,
	  { "BUG: slab_debug: t-bad: double free\n", "FIX t-bad: free ignored" },
	  .kind = REPORT_SLAB_DOUBLE_FREE },
	{ "double free (index array scan, no red zone)", SLAB_STORE_USER, 64,
	  double_free, { "last freed by double_free+" },
	  .kind = REPORT_SLAB_DOUBLE_FREE },
	{ "double free (consistency checks)", SLAB_CONSISTENCY_CHECKS, 200,
	  double_free, { "free ignored" }, .kind = REPORT_SLAB_DOUBLE_FREE },
	{ "double kfree", ALL, 96, double_kfree, { "passed by double_kfree+" },
	  .kind = REPORT_SLAB_DOUBLE_FREE },
	{ "double free after reuse", ALL, 128, double_free_later, { NULL },
	  .kind = REPORT_SLAB_DOUBLE_FREE },
	{ "free of a pointer inside an object", ALL, 64, free_inside,
	  { "BUG: slab_debug: t-bad: free of a pointer inside an object\n",
	    "free ignored" }, .kind = REPORT_SLAB_INSIDE_OBJECT },
	{ "kfree of an object's last byte", SLAB_POISON, 512, free_last_byte,
	  { NULL }, .kind = REPORT_SLAB_INSIDE_OBJECT },
	{ "free of the slab's first byte", RZ, 32, free_slab_start,
	  { "BUG: slab_debug: t-bad: free of a pointer outside the slab's objects\n" },
	  .kind = REPORT_SLAB_OUTSIDE_OBJECTS },
	{ "free of a stack address", ALL, 64, free_stack_ptr,
	  { "BUG: slab_debug: t-bad: free of a pointer not from any slab\n",
	    "FIX t-bad: free ignored" }, .kind = REPORT_SLAB_NOT_SLAB },
	{ "kfree of a static address", ALL, 64, kfree_static,
	  { "BUG: slab_debug: kmalloc: kfree of a pointer not from any slab (not in the direct map)\n",
	    "FIX kmalloc: call ignored" }, .kind = REPORT_SLAB_WILD_POINTER },
	{ "free of a page from the page allocator", ALL, 64, free_page_ptr,
	  { NULL }, .kind = REPORT_SLAB_NOT_SLAB },
	{ "kfree of a page from the page allocator", ALL, 64, kfree_page_ptr,
	  { "BUG: slab_debug: kmalloc: kfree of a pointer not from kmalloc (not a slab, not a large allocation)\n" },
	  .kind = REPORT_SLAB_NOT_KMALLOC },
	{ "kfree of a large allocation's tail page", ALL, 64, kfree_large_tail,
	  { "BUG: slab_debug: kmalloc: kfree of a pointer inside a large allocation\n" },
	  .kind = REPORT_SLAB_INSIDE_LARGE },
	{ "kfree inside a large allocation's first page", ALL, 64,
	  kfree_large_inside, { NULL }, .kind = REPORT_SLAB_INSIDE_LARGE },
	{ "free to the wrong cache", ALL, 64, wrong_cache,
	  { "BUG: slab_debug: t-bad: free to the wrong cache: the object belongs to t-other\n",
	    "free ignored" }, .kind = REPORT_SLAB_WRONG_CACHE },
	{ "free of a kmalloc object to a cache", RZ, 64, wrong_cache_kmalloc,
	  { "kmalloc-64\n" }, .kind = REPORT_SLAB_WRONG_CACHE },
	{ "red zone before the object", ALL, 64, red_zone_before,
	  { "BUG: slab_debug: t-bad: red zone before the object overwritten\n",
	    "first bad byte at offset -1 (red zone before the object): 0x41 instead of 0xcc",
	    "FIX t-bad: red zone restored, object freed" },
	  .kind = REPORT_SLAB_RED_ZONE },
	{ "red zone before, its first byte", RZ, 64, red_zone_before_far,
	  { "first bad byte at offset -8 (red zone before the object)" },
	  .kind = REPORT_SLAB_RED_ZONE },
	{ "red zone after the object", ALL, 64, red_zone_after,
	  { "first bad byte at offset 64 (red zone after the object): 0x41 instead of 0xcc" },
	  .kind = REPORT_SLAB_RED_ZONE },
	{ "red zone after an odd-sized object", RZ, 13, red_zone_after,
	  { "first bad byte at offset 13 (red zone after the object)" },
	  .kind = REPORT_SLAB_RED_ZONE },
	{ "red zone after, its last byte", RZ, 64, red_zone_after_end,
	  { "first bad byte at offset 71 (red zone after the object)" },
	  .kind = REPORT_SLAB_RED_ZONE },
	{ "kmalloc red zone: past the bytes asked for", ALL, 64,
	  kmalloc_red_zone,
	  { "BUG: slab_debug: t-bad: kmalloc red zone past the size asked for overwritten\n",
	    "first bad byte at offset 60", "60 bytes asked for" },
	  .kind = REPORT_SLAB_KMALLOC_RED_ZONE },
	{ "overflow through the red zone", RZ, 24, overflow_to_next,
	  { "first bad byte at offset 24 (red zone after the object)" },
	  .kind = REPORT_SLAB_RED_ZONE },
	{ "write after free", ALL, 64, write_after_free,
	  { "BUG: slab_debug: t-bad: poison overwritten while the object was free (write after free)\n",
	    "first bad byte at offset 0 (poison): 0x00 instead of 0x6b",
	    "FIX t-bad: object quarantined, another one handed out" },
	  .quarantined = 1, .kind = REPORT_SLAB_POISON },
	{ "write after free, poison end", POI, 64, write_after_free_end,
	  { "first bad byte at offset 63 (poison end): 0x6b instead of 0xa5" },
	  .quarantined = 1, .kind = REPORT_SLAB_POISON },
	{ "write after free, middle of 4 KiB", POI, 4096,
	  write_after_free_middle,
	  { "first bad byte at offset 2000 (poison): 0x99 instead of 0x6b" },
	  .quarantined = 1, .kind = REPORT_SLAB_POISON },
	{ "red zone written while free", RZ, 64, red_zone_while_free,
	  { "(red zone after the object): 0x41 instead of 0xbb", "object quarantined" },
	  .quarantined = 1, .kind = REPORT_SLAB_RED_ZONE },
	{ "free of a quarantined object", ALL, 64, free_quarantined,
	  { "BUG: slab_debug: t-bad: free of an object in quarantine (freed before, then written to)\n" },
	  .reports = 2, .quarantined = 1, .kind = REPORT_SLAB_QUARANTINED,
	  .also = REPORT_SLAB_POISON },
	{ "bulk free with a bad pointer", ALL, 64, bulk_with_bad_pointer,
	  { NULL }, .kind = REPORT_SLAB_INSIDE_OBJECT },
	{ "bulk free with a pointer twice", ALL, 64, bulk_with_double,
	  { NULL }, .kind = REPORT_SLAB_DOUBLE_FREE },
	{ "ksize of a static address", ALL, 64, ksize_bad,
	  { "ksize of a pointer" }, .kind = REPORT_SLAB_WILD_POINTER },
	{ "krealloc of a static address", ALL, 64, krealloc_bad,
	  { NULL }, .kind = REPORT_SLAB_WILD_POINTER },
	{ "kfree_sensitive of a static address", ALL, 64, kfree_sensitive_bad,
	  { NULL }, .kind = REPORT_SLAB_WILD_POINTER },
	{ "double free, no debugging: found by validation", 0, 64,
	  nodebug_double_free,
	  { "t-bad: array cache entry", "twice in the array caches (double free)",
	    "FIX t-bad: dropped from the array cache" },
	  .kind = REPORT_SLAB_ARRAY_TWICE },
	{ "double free after a drain, no debugging", 0, 64,
	  nodebug_double_free_drained,
	  { "also free in its slab (double free)", "dropped from the array cache" },
	  .kind = REPORT_SLAB_ARRAY_FREE },
	{ "another cache's object in the array, no debugging", 0, 64,
	  nodebug_foreign_in_array,
	  { "not an object of this cache", "dropped from the array cache" },
	  .kind = REPORT_SLAB_ARRAY_FOREIGN },
	{ "corrupted index array (consistency checks)",
	  SLAB_CONSISTENCY_CHECKS, 64, corrupt_freelist,
	  { "t-bad: slab", "object free twice in the index array" },
	  .kind = REPORT_SLAB_BAD_INDEX },
};

#undef ALL
#undef RZ
#undef POI

static void bad_desc(const struct bad_input *b, char *desc)
{
	strscpy(desc, b->desc, KTEST_DESC_SIZE);
}

KTEST_ARRAY_PARAM(bad_gen, bad_inputs, bad_desc);

static void release_ctx(struct bad_ctx *x)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(x->keep); i++)
		if (x->keep[i] && !slab_debug_quarantined(x->c, x->keep[i]))
			kmem_cache_free(x->c, x->keep[i]);
	kfree(x->kmalloc_keep);
	if (x->page)
		__free_pages(x->page, x->order);
	kmem_cache_destroy(x->c);
	kmem_cache_destroy(x->other);
}

static void test_bad_input(struct ktest *t)
{
	const struct bad_input *b = t->param_value;
	struct bad_ctx x = { 0 };
	unsigned int reports = b->reports ? b->reports : 1;

	not_heap[0] = 0;
	x.c = make_cache(t, "t-bad", b->size, b->flags);
	x.other = kmem_cache_create("t-other", 64, 0, SLAB_RED_ZONE, NULL);
	if (!x.other || (!b->flags && cache_debug(x.c))) {
		kmem_cache_destroy(x.c);
		kmem_cache_destroy(x.other);
		KTEST_ASSERT_NOT_NULL(t, x.other);
		ktest_skip(t, "slab_debug debugs every cache: the double free is caught at once");
	}
	if (!b->flags && kasan_enabled()) {
		kmem_cache_destroy(x.c);
		kmem_cache_destroy(x.other);
		ktest_skip(t, "KASAN reports the bad free at once (the kasan suite)");
	}
	ktest_capture_start(t, "BUG:");
	b->provoke(&x);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), reports);
	KTEST_EXPECT_REPORTS(t, b->kind, b->also ? reports - 1 : reports);
	if (b->also)
		KTEST_EXPECT_REPORTS(t, b->also, 1);
	for (unsigned int i = 0; i < ARRAY_SIZE(b->report) && b->report[i]; i++)
		KTEST_EXPECT_CAPTURED(t, b->report[i]);
	KTEST_EXPECT_EQ(t, x.c->nr_quarantined, b->quarantined);
	/* A quarantined object is never handed out again. */
	if (b->quarantined)
		KTEST_EXPECT_PTR_NE(t, x.keep[0], x.keep[1]);
	KTEST_EXPECT_EQ(t, not_heap[0], 0);
	expect_whole(t, x.c);
	release_ctx(&x);
}

/* --- quarantine, validation, the fast path ----------------------------- */

static void test_quarantine_released_on_destroy(struct ktest *t)
{
	struct kmem_cache *c = make_cache(t, "t-quarantine", 64, SLAB_POISON);
	long before = slab_objects_in_use();
	u8 *p = kmem_cache_alloc(c, GFP_KERNEL), *q;

	KTEST_ASSERT_NOT_NULL(t, p);
	kmem_cache_free(c, p);
	p[1] = 0;
	ktest_capture_start(t, "BUG:");
	q = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_PTR_NE(t, q, p);
	KTEST_EXPECT_EQ(t, c->nr_quarantined, 1UL);
	/* Quarantined objects are not in use: no leak is reported. */
	KTEST_EXPECT_EQ(t, slab_objects_in_use(), before + 1);
	kmem_cache_free(c, q);
	kmem_cache_release_quarantine(c);
	KTEST_EXPECT_EQ(t, c->nr_quarantined, 0UL);
	KTEST_EXPECT_EQ(t, kmem_cache_validate(c), 0);
	/* Poisoned again on release: handed out without a report. */
	q = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_EXPECT_NOT_NULL(t, q);
	kmem_cache_free(c, q);
	p = kmem_cache_alloc(c, GFP_KERNEL);
	kmem_cache_free(c, p);
	p[2] = 0;
	ktest_capture_start(t, "BUG:");
	q = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	kmem_cache_free(c, q);
	/* Destroy gives the quarantine back: no "still has objects". */
	ktest_capture_start(t, "still has objects");
	kmem_cache_destroy(c);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
}

static void test_validate_clean(struct ktest *t)
{
	struct kmem_cache *c = make_cache(t, "t-validate", 72, SLAB_DEBUG_FLAGS);
	void *p[100];

	for (int i = 0; i < 100; i++) {
		p[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, p[i]);
	}
	for (int i = 0; i < 100; i += 3)
		kmem_cache_free(c, p[i]);
	KTEST_EXPECT_EQ(t, kmem_cache_validate(c), 0);
	KTEST_EXPECT_EQ(t, slab_validate_all(), 0);
	for (int i = 0; i < 100; i++)
		if (i % 3)
			kmem_cache_free(c, p[i]);
	kmem_cache_destroy(c);
}

/*
 * A cache without debugging runs no debug check at all: its objects go
 * through the per-CPU array, and slab_debug_checks does not move. A
 * debugged cache runs exactly one check per allocation and per free.
 */
static void test_fast_path_unchanged(struct ktest *t)
{
	struct kmem_cache *c = make_cache(t, "t-fast", 64, 0), *d;
	long checks;
	void *p;

	skip_debugged_cache(t, c);	/* boot's slab_debug debugs both */
	d = make_cache(t, "t-slow", 64, SLAB_RED_ZONE);
	KTEST_EXPECT_GT(t, c->limit, 0U);
	checks = atomic_long_read(&slab_debug_checks);
	for (int i = 0; i < 1000; i++) {
		p = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, p);
		kmem_cache_free(c, p);
	}
	KTEST_EXPECT_EQ(t, atomic_long_read(&slab_debug_checks), checks);
	KTEST_EXPECT_GT(t, c->cpu_cache[arch_cpu_id()]->avail, 0U);
	checks = atomic_long_read(&slab_debug_checks);
	for (int i = 0; i < 1000; i++) {
		p = kmem_cache_alloc(d, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, p);
		kmem_cache_free(d, p);
	}
	KTEST_EXPECT_EQ(t, atomic_long_read(&slab_debug_checks), checks + 2000);
	KTEST_EXPECT_EQ(t, d->cpu_cache[arch_cpu_id()]->avail, 0U);
	kmem_cache_destroy(c);
	kmem_cache_destroy(d);
}

/* An object too big for red zones: created, but not debugged. */
static void test_too_big_to_debug(struct ktest *t)
{
	struct kmem_cache *c;

	ktest_capture_start(t, "not debugged");
	c = kmem_cache_create("t-huge-debug", 4U << 20, 0, SLAB_RED_ZONE, NULL);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_ASSERT_NOT_NULL(t, c);
	KTEST_EXPECT_FALSE(t, c->flags & SLAB_DEBUG_FLAGS);
	kmem_cache_destroy(c);
}

/* --- the kmalloc caches, when the boot parameter debugs them ------------- */

static void require_kmalloc_debug(struct ktest *t)
{
	if (!(kmalloc_caches[0][6]->flags & SLAB_RED_ZONE))
		ktest_skip(t, "boot without slab_debug: kmalloc-64 not red-zoned");
}

static void test_kmalloc_overflow(struct ktest *t)
{
	u8 *p;

	require_kmalloc_debug(t);
	p = kmalloc(60, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	OPTIMIZER_HIDE_VAR(p);		/* or the compiler sees the bug too */
	p[60] = 0;			/* one past the end */
	ktest_capture_start(t, "BUG:");
	kfree(p);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_REPORTS(t, REPORT_SLAB_KMALLOC_RED_ZONE, 1);
	KTEST_EXPECT_CAPTURED(t, "BUG: slab_debug: kmalloc-64: ");
	KTEST_EXPECT_CAPTURED(t, "first bad byte at offset 60");
	KTEST_EXPECT_CAPTURED(t, "passed by test_kmalloc_overflow+");
	KTEST_EXPECT_EQ(t, slab_validate_all(), 0);
}

static void test_kmalloc_double_free(struct ktest *t)
{
	void *p;

	require_kmalloc_debug(t);
	p = kmalloc(100, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	kfree(p);
	ktest_capture_start(t, "BUG:");
	kfree(p);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_REPORTS(t, REPORT_SLAB_DOUBLE_FREE, 1);
	KTEST_EXPECT_CAPTURED(t, "BUG: slab_debug: kmalloc-128: ");
	KTEST_EXPECT_EQ(t, slab_validate_all(), 0);
}

/* ksize() hands the caller the whole object: no report for using it. */
static void test_kmalloc_ksize_unguards(struct ktest *t)
{
	u8 *p;

	require_kmalloc_debug(t);
	p = kmalloc(50, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_EQ(t, ksize(p), 64UL);
	memset(p, 3, 64);
	kfree(p);
	p = kzalloc(33, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_EQ(t, ksize(p), 64UL);
	KTEST_EXPECT_TRUE(t, all_bytes(p, 64, 0));
	kfree(p);
}

/* --- SLAB_FREELIST_RANDOM ------------------------------------------------ */

/*
 * The order a new slab hands out its objects, read from its index array
 * (entries below active keep their values). The cache must be empty.
 */
static unsigned int new_slab_order(struct ktest *t, struct kmem_cache *c,
				   unsigned int *idx)
{
	void *p = kmem_cache_alloc(c, GFP_KERNEL);
	struct slab *slab;

	KTEST_ASSERT_NOT_NULL(t, p);
	slab = virt_to_slab(p);
	for (unsigned int i = 0; i < c->num; i++)
		idx[i] = get_free_obj(c, slab, i);
	kmem_cache_free(c, p);
	return c->num;
}

static void test_freelist_random(struct ktest *t)
{
	struct kmem_cache *c = make_cache(t, "t-random", 64,
					  SLAB_FREELIST_RANDOM);
	unsigned int idx[2][64], n, in_order = 0;
	u64 seen = 0;

	KTEST_ASSERT_LE(t, c->num, 64U);
	KTEST_ASSERT_NOT_NULL(t, c->random_seq);
	n = new_slab_order(t, c, idx[0]);
	for (unsigned int i = 0; i < n; i++) {
		seen |= 1ULL << idx[0][i];
		in_order += i && idx[0][i] == idx[0][i - 1] + 1;
	}
	/* Every object once; hardly any two in a row. */
	KTEST_EXPECT_EQ(t, seen, n == 64 ? ~0ULL : (1ULL << n) - 1);
	KTEST_EXPECT_LT(t, in_order, n / 2);
	kmem_cache_destroy(c);

	/* The same name and seed: the same permutation. */
	c = make_cache(t, "t-random", 64, SLAB_FREELIST_RANDOM);
	KTEST_EXPECT_EQ(t, new_slab_order(t, c, idx[1]), n);
	KTEST_EXPECT_MEMEQ(t, idx[0], idx[1], n * sizeof(unsigned int));
	kmem_cache_destroy(c);

	/* Without it (unless slab_freelist_random is on): 0, 1, 2, ... */
	c = make_cache(t, "t-ordered", 64, 0);
	n = new_slab_order(t, c, idx[1]);
	for (unsigned int i = 0; i < n && !c->random_seq; i++)
		KTEST_EXPECT_EQ(t, idx[1][i], i);
	kmem_cache_destroy(c);
}

/* The in-object index array lives in the object handed out last. */
static void test_freelist_random_in_object(struct ktest *t)
{
	struct kmem_cache *c = make_cache(t, "t-random-inobj", 64,
					  SLAB_FREELIST_RANDOM);
	void *objs[64];
	unsigned int n;

	skip_debugged_cache(t, c);
	KTEST_ASSERT_EQ(t, c->freelist_place, FREELIST_IN_OBJECT);
	n = c->num;
	KTEST_ASSERT_LE(t, n, 64U);
	for (unsigned int i = 0; i < n; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, objs[i]);
		KTEST_EXPECT_PTR_EQ(t, virt_to_slab(objs[i]), virt_to_slab(objs[0]));
	}
	for (unsigned int i = 0; i < n; i++)
		memset(objs[i], 0x5c, 64);	/* the array's object too */
	for (unsigned int i = 0; i < n; i++)
		kmem_cache_free(c, objs[i]);
	KTEST_EXPECT_EQ(t, kmem_cache_validate(c), 0);
	kmem_cache_destroy(c);
}

static const struct ktest_case slab_debug_cases[] = {
	KTEST_CASE_PARAM(test_parse, parse_gen),
	KTEST_CASE(test_layout_red_zones),
	KTEST_CASE(test_layout_poison),
	KTEST_CASE(test_poison_skips_ctor_caches),
	KTEST_CASE(test_store_user),
	KTEST_CASE_PARAM(test_bad_input, bad_gen),
	KTEST_CASE(test_quarantine_released_on_destroy),
	KTEST_CASE(test_validate_clean),
	KTEST_CASE(test_fast_path_unchanged),
	KTEST_CASE(test_too_big_to_debug),
	KTEST_CASE(test_kmalloc_overflow),
	KTEST_CASE(test_kmalloc_double_free),
	KTEST_CASE(test_kmalloc_ksize_unguards),
	KTEST_CASE(test_freelist_random),
	KTEST_CASE(test_freelist_random_in_object),
	{}
};

KTEST_SUITE(slab_debug, slab_debug_cases);

// SPDX-License-Identifier: GPL-2.0
/*
 * The SLAB allocator (mm/slab.c) seen from its data structures:
 *
 *  - struct slab overlaid on struct page: field offsets, and the same
 *    words read back through struct page on a live slab;
 *  - cache geometry: freelist placement (in an object, on the slab, off
 *    the slab in a kmalloc object), objects per slab, order, index size,
 *    colours, for caches chosen to force each kind; every expected value
 *    is worked out by hand in the table's comments. For each: s_mem and
 *    the freelist of successive slabs as the colour cycles, virt_to_slab
 *    of every object (and of tail pages), PageSlab/PageHead/PageTail;
 *  - the index stack: hand-out order from a fresh slab, active after
 *    every step through the per-CPU batching, LIFO return of indices,
 *    full/partial lists, one- and two-byte indices; one flush of
 *    interleaved runs of three slabs' objects; an object's index from
 *    its offset (the reciprocal multiply) for every object of every
 *    kmalloc cache and of odd sizes;
 *  - object caching: the constructor runs once per object per slab;
 *  - the per-CPU and shared arrays: refill, flush, refill from shared,
 *    free_limit sending free slabs back to the page allocator, and the
 *    page count returning to its baseline;
 *  - pfmemalloc slabs kept from ordinary callers;
 *  - kmem_cache_destroy with live objects, bad kmem_cache_create input,
 *    bulk calls, zalloc, kmem_cache_size, HWCACHE_ALIGN, CACHE_DMA and
 *    TYPESAFE_BY_RCU.
 *
 * Every case frees what it allocates and destroys what it creates; the
 * suite's exit shrinks the kmalloc caches (and the cache of caches) so
 * that slabs they grew on the way do not count as leaked pages.
 */
#include "kernel/bug.h"
#include "kernel/cpumask.h"
#include "lib/ktest/ktest.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/kasan.h"
#include "mm/mm.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"	/* white-box: inside caches and slabs */
#include "tests/mm_util.h"

/* The converters keep const (checked at compile time). */
#define is_type(expr, type) __builtin_types_compatible_p(__typeof__(expr), type)
_Static_assert(is_type(page_slab((const struct page *)0), const struct slab *),
	       "page_slab() of a const page must be const");
_Static_assert(is_type(page_slab((struct page *)0), struct slab *),
	       "page_slab() of a page must be writable");
_Static_assert(is_type(slab_page((const struct slab *)0), const struct page *),
	       "slab_page() of a const slab must be const");
_Static_assert(is_type(slab_page((struct slab *)0), struct page *),
	       "slab_page() of a slab must be writable");
#undef is_type

/* Linux's refill limit for an array that was never used (mm/slab.c). */
#define REFILL_LIMIT_UNTOUCHED	16

/* Objects handed out by the tests of one case. */
#define MAX_OBJS		2048
static void *objs[MAX_OBJS];
static unsigned char seen[MAX_OBJS];

/* --- helpers ---------------------------------------------------------- */

static struct array_cache *this_ac(struct kmem_cache *c)
{
	return c->cpu_cache[arch_cpu_id()];
}

static bool on_list(struct list_head *head, struct slab *slab)
{
	struct slab *s;

	list_for_each_entry(s, head, slab_list) {
		if (s == slab)
			return true;
	}
	return false;
}

static unsigned long list_count(struct list_head *head)
{
	unsigned long n = 0;
	struct list_head *pos;

	list_for_each(pos, head)
		n++;
	return n;
}

/* Objects of c handed out and not freed (not in slabs, not in arrays). */
static long cache_in_use(struct kmem_cache *c)
{
	unsigned int cpu;
	struct kmem_cache_node *n = c->node[0];
	long in_use = (long)(n->total_slabs * c->num - n->free_objects -
			     kasan_quarantine_cache_objects(c));

	if (n->shared)
		in_use -= n->shared->avail;
	for_each_possible_cpu(cpu)
		in_use -= c->cpu_cache[cpu]->avail;
	return in_use;
}

/*
 * Entry i of a slab's index array, idx_size bytes per entry. The array
 * may live in a free object, invalid to KASAN: not checked, as SLAB's.
 */
static __no_sanitize_address
unsigned int freelist_entry(const struct slab *slab, unsigned int idx_size,
			    unsigned int i)
{
	if (idx_size == 1)
		return ((const u8 *)slab->freelist)[i];
	return ((const u16 *)slab->freelist)[i];
}

static void *obj_at(const struct slab *slab, unsigned int size,
		    unsigned int idx)
{
	return (char *)slab->s_mem + (unsigned long)size * idx;
}

/* A constructor that counts its calls and marks the object. */
#define CTOR_MAGIC	0xc0ffee0ddba11UL
static unsigned long ctor_calls;

static void counting_ctor(void *obj)
{
	ctor_calls++;
	*(unsigned long *)obj = CTOR_MAGIC ^ (unsigned long)obj;
}

/* Reads free objects on purpose (their state): not KASAN-checked. */
static __no_sanitize_address bool constructed(const void *obj)
{
	return *(const unsigned long *)obj == (CTOR_MAGIC ^ (unsigned long)obj);
}

/*
 * With 32 MiB of RAM or less, slab_max_order is 0 and a slab is never
 * made larger than one object needs, to waste less or to hold 8
 * objects: the cases whose expected order came from those rules assume
 * more.
 */
static void skip_if_small_memory(struct ktest *t, unsigned int order,
				 unsigned int size)
{
	if (order > get_order(size) &&
	    totalram_pages <= (SZ_32M >> PAGE_SHIFT))
		ktest_skip(t, "expected order assumes more than 32 MiB of RAM");
}

/* --- struct slab over struct page ---------------------------------------- */

/* Also the drawing in Documentation/mm/slab.md, "word by word". */
static void test_overlay_offsets(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, offsetof(struct slab, __page_flags), 0UL);
	KTEST_EXPECT_EQ(t, offsetof(struct slab, slab_list), 8UL);
	KTEST_EXPECT_EQ(t, offsetof(struct slab, rcu_head), 8UL);
	KTEST_EXPECT_EQ(t, offsetof(struct slab, slab_cache), 24UL);
	KTEST_EXPECT_EQ(t, offsetof(struct slab, freelist), 32UL);
	KTEST_EXPECT_EQ(t, offsetof(struct slab, s_mem), 40UL);
	KTEST_EXPECT_EQ(t, offsetof(struct slab, active), 48UL);
	KTEST_EXPECT_EQ(t, offsetof(struct slab, __page_refcount), 52UL);
	KTEST_EXPECT_LE(t, sizeof(struct slab), sizeof(struct page));
	/* The struct page words they share: docs.test_struct_page_words. */
}

/*
 * A live slab read through struct page: the same words, and the page
 * allocator's own fields (refcount, alloc_order) left intact under it.
 */
static void test_overlay_live_slab(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("t-overlay", 3000, 0, 0, NULL);
	struct slab *slab;
	struct page *page;
	void *obj;

	KTEST_ASSERT_NOT_NULL(t, c);
	obj = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, obj);
	slab = virt_to_slab(obj);
	KTEST_ASSERT_NOT_NULL(t, slab);
	page = slab_page(slab);
	KTEST_EXPECT_PTR_EQ(t, (void *)page, (void *)slab);
	KTEST_EXPECT_PTR_EQ(t, page, compound_head(virt_to_page(obj)));
	KTEST_EXPECT_PTR_EQ(t, page->mapping, (void *)c);
	KTEST_EXPECT_EQ(t, page->index, (unsigned long)slab->freelist);
	KTEST_EXPECT_EQ(t, page->private, (unsigned long)slab->s_mem);
	KTEST_EXPECT_EQ(t, page->page_type, slab->active);
	KTEST_EXPECT_EQ(t, page_ref_count(page), 1);
	KTEST_EXPECT_EQ(t, page->alloc_order, c->gfporder);
	KTEST_EXPECT_TRUE(t, PageSlab(page));
	KTEST_EXPECT_FALSE(t, PageTail(page));
	/* slab_list is a real list pointer: bit 0 clear, not a tail. */
	KTEST_EXPECT_EQ(t, page->compound_head & 1, 0UL);
	KTEST_EXPECT_PTR_EQ(t, slab_address(slab), page_address(page));
	kmem_cache_free(c, obj);
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
	kmem_cache_destroy(c);
}

/* --- geometry ------------------------------------------------------------ */

struct geom_case {
	const char *name;
	unsigned int object_size;
	unsigned int align;
	slab_flags_t flags;
	bool ctor;
	/*
	 * expected, worked out by hand (PAGE_SIZE 4096, slab_max_order 3,
	 * at least 16 objects per slab within it; objects of 512 bytes and
	 * more try off-slab first)
	 */
	enum slab_freelist_place place;
	unsigned int size;		/* stride */
	unsigned int obj_align;
	unsigned int num;
	unsigned int order;
	unsigned int idx_size;
	unsigned int colour;
	unsigned int colour_off;
	unsigned int fc_size;		/* off-slab: kmalloc class of the array */
};

static const struct geom_case geom_cases[] = {
	/*
	 * No ctor: the array can live in an object. 4096 / 64 = 64 objects,
	 * nothing left; 64 one-byte indices fit in a 64-byte object.
	 */
	{ "64", 64, 0, 0, false, FREELIST_IN_OBJECT, 64, 8, 64, 0, 1, 0, 64, 0 },
	/*
	 * ctor: not in an object. Off-slab: 64 indices -> kmalloc-64, not
	 * <= 64 / 2, and every larger order needs a larger array: no.
	 * On-slab: 4096 / 65 = 63; ALIGN(63, 8) = 64; 64 + 63 * 64 = 4096.
	 */
	{ "64-ctor", 64, 0, 0, true, FREELIST_ON_SLAB, 64, 8, 63, 0, 1, 0, 64, 0 },
	/* TYPESAFE_BY_RCU forbids the in-object array: same as with a ctor. */
	{ "64-rcu", 64, 0, SLAB_TYPESAFE_BY_RCU, false, FREELIST_ON_SLAB,
	  64, 8, 63, 0, 1, 0, 64, 0 },
	/*
	 * 4096 / 9 = 455 > 256: two-byte indices. 4096 / 10 = 409;
	 * ALIGN(818, 8) = 824; 824 + 409 * 8 = 4096. Off-slab would need a
	 * kmalloc class <= 4 bytes: none.
	 */
	{ "8-ctor", 8, 0, 0, true, FREELIST_ON_SLAB, 8, 8, 409, 0, 2, 0, 64, 0 },
	/*
	 * Orders 0 and 1 hold 4 and 8, fewer than 16: order 2, 16384 / 1024
	 * = 16, nothing left over, so on-slab would cost a whole object; the
	 * 16-byte array goes to kmalloc-16 (16 <= 1024 / 2).
	 */
	{ "1024-ctor", 1024, 0, 0, true, FREELIST_OFF_SLAB, 1024, 8, 16, 2, 1, 0, 64, 16 },
	/* Order 1: 8192 / 512 = 16, left 0 < 16: off-slab in kmalloc-16. */
	{ "512-ctor", 512, 0, 0, true, FREELIST_OFF_SLAB, 512, 8, 16, 1, 1, 0, 64, 16 },
	/* 4096 / 128 = 32, left 0 < 32: off-slab in kmalloc-32 (32 <= 64). */
	{ "128-ctor", 128, 0, 0, true, FREELIST_OFF_SLAB, 128, 8, 32, 0, 1, 0, 64, 32 },
	/*
	 * 4096 / 240 = 17, 17 * 240 = 4080, left 16: too small for 17
	 * indices, so off-slab in kmalloc-32 (32 <= 120); colour 16/64 = 0.
	 */
	{ "240-ctor", 240, 0, 0, true, FREELIST_OFF_SLAB, 240, 8, 17, 0, 1, 0, 64, 32 },
	/*
	 * 4096 / 232 = 17, 17 * 232 = 3944, left 152 >= 17: on-slab is as
	 * good. On-slab: 4096 / 233 = 17; ALIGN(17, 8) = 24; 24 + 3944 =
	 * 3968; left 128 -> 2 colours of 64.
	 */
	{ "232-ctor", 232, 0, 0, true, FREELIST_ON_SLAB, 232, 8, 17, 0, 1, 2, 64, 0 },
	/*
	 * Orders 0 and 1 hold 7 and 15 objects, fewer than 16. Off-slab at
	 * order 2: 16384 / 520 = 31, left 264 >= 31: no. On-slab: 16384 /
	 * 521 = 31; ALIGN(31, 8) = 32; 32 + 31 * 520 = 16152; left 232
	 * (<= 16384 / 8) -> 3 colours.
	 */
	{ "520-ctor", 520, 0, 0, true, FREELIST_ON_SLAB, 520, 8, 31, 2, 1, 3, 64, 0 },
	/* In-object, order 2: 31 objects, left 16384 - 16120 = 264 -> 4 colours. */
	{ "520", 520, 0, 0, false, FREELIST_IN_OBJECT, 520, 8, 31, 2, 1, 4, 64, 0 },
	/*
	 * Orders 0, 1, 2 hold 1, 2, 5 objects; order 3 is the maximum:
	 * 32768 / 3000 = 10, left 2768 -> 2768 / 64 = 43 colours.
	 */
	{ "3000", 3000, 0, 0, false, FREELIST_IN_OBJECT, 3000, 8, 10, 3, 1, 43, 64, 0 },
	/*
	 * Orders 0 and 1 hold 5 and 11, fewer than 16. Off-slab at order 2:
	 * 16384 / 688 = 23, left 560 >= 23: no. On-slab: 16384 / 689 = 23;
	 * ALIGN(23, 8) = 24; 24 + 23 * 688 = 15848; left 536 -> 8 colours.
	 */
	{ "688-ctor", 688, 0, 0, true, FREELIST_ON_SLAB, 688, 8, 23, 2, 1, 8, 64, 0 },
	/*
	 * Orders 1 and 2 hold 1 and 2 objects; order 3, the maximum, 4,
	 * nothing left; the array off-slab in kmalloc-8.
	 */
	{ "8192-ctor", 8192, 0, 0, true, FREELIST_OFF_SLAB, 8192, 8, 4, 3, 1, 0, 64, 8 },
	/*
	 * HWCACHE_ALIGN: 40 > 64 / 2, so 64-byte lines, stride 64. 64
	 * indices do not fit in a 40-byte object; off-slab needs kmalloc-64
	 * <= 32: no. On-slab: 4096 / 65 = 63; ALIGN(63, 64) = 64; 64 +
	 * 63 * 64 = 4096.
	 */
	{ "40-hwcache", 40, 0, SLAB_HWCACHE_ALIGN, false, FREELIST_ON_SLAB,
	  64, 64, 63, 0, 1, 0, 64, 0 },
	/* align 128: stride 128, 32 per page; colour steps of 128. */
	{ "100-align128", 100, 128, 0, false, FREELIST_IN_OBJECT,
	  128, 128, 32, 0, 1, 0, 128, 0 },
};

static void geom_desc(const struct geom_case *g, char *desc)
{
	snprintf(desc, KTEST_DESC_SIZE, "%s", g->name);
}

KTEST_ARRAY_PARAM(geom_gen, geom_cases, geom_desc);

/* The kmalloc cache of class size (an explicit table, not kmalloc_slab). */
static struct kmem_cache *kmalloc_class_cache(unsigned int size)
{
	static const unsigned int sizes[] = { 8, 16, 32, 64, 96, 128, 192, 256,
					      512, 1024, 2048, 4096, 8192 };
	static const unsigned int index[] = { 3, 4, 5, 6, 1, 7, 2, 8, 9, 10,
					      11, 12, 13 };

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		if (sizes[i] == size)
			return kmalloc_caches[0][index[i]];
	}
	return NULL;
}

/* Check one slab of a geometry case: k-th made, so colour k % colour. */
static void check_geom_slab(struct ktest *t, const struct geom_case *g,
			    struct kmem_cache *c, struct slab *slab,
			    unsigned int k)
{
	char *base = slab_address(slab);
	struct page *page = slab_page(slab);
	unsigned int colour = g->colour ? k % g->colour : 0;
	char *at = base + colour * g->colour_off;
	unsigned long slab_bytes = PAGE_SIZE << g->order;
	unsigned int bad = 0;

	KTEST_EXPECT_TRUE(t, PageSlab(page));
	KTEST_EXPECT_PTR_EQ(t, slab->slab_cache, c);
	KTEST_EXPECT_EQ(t, slab->active, g->num);
	KTEST_EXPECT_TRUE(t, on_list(&c->node[0]->slabs_full, slab));
	switch (g->place) {
	case FREELIST_ON_SLAB:
		KTEST_EXPECT_PTR_EQ(t, slab->freelist, (void *)at);
		KTEST_EXPECT_PTR_EQ(t, slab->s_mem,
				    (void *)(at + ALIGN(g->num * g->idx_size,
							g->obj_align)));
		break;
	case FREELIST_OFF_SLAB:
		KTEST_EXPECT_PTR_EQ(t, slab->s_mem, (void *)at);
		KTEST_ASSERT_NOT_NULL(t, slab->freelist);
		KTEST_EXPECT_PTR_EQ(t, virt_to_slab(slab->freelist)->slab_cache,
				    kmalloc_class_cache(g->fc_size));
		break;
	case FREELIST_IN_OBJECT:
		KTEST_EXPECT_PTR_EQ(t, slab->s_mem, (void *)at);
		/* Full: the object that held the array is handed out. */
		KTEST_EXPECT_NULL(t, slab->freelist);
		break;
	}
	KTEST_EXPECT_LE(t, (unsigned long)((char *)slab->s_mem - base) +
			   (unsigned long)g->num * g->size, slab_bytes);
	KTEST_EXPECT_EQ(t, (unsigned long)slab->s_mem % g->obj_align, 0UL);

	/* Every byte range of every object maps back to this slab. */
	for (unsigned int i = 0; i < g->num; i++) {
		char *obj = obj_at(slab, g->size, i);

		bad += virt_to_slab(obj) != slab;
		bad += virt_to_slab(obj + g->object_size - 1) != slab;
		if (g->ctor)
			bad += !constructed(obj);
	}
	KTEST_EXPECT_EQ(t, bad, 0U);

	if (g->order) {
		KTEST_EXPECT_TRUE(t, PageHead(page));
		KTEST_EXPECT_EQ(t, compound_order(page), g->order);
		for (unsigned long p = 1; p < (1UL << g->order); p++) {
			KTEST_EXPECT_TRUE(t, PageTail(page + p));
			KTEST_EXPECT_FALSE(t, PageSlab(page + p));
			KTEST_EXPECT_PTR_EQ(t, compound_head(page + p), page);
			KTEST_EXPECT_PTR_EQ(t, virt_to_slab(base + p * PAGE_SIZE + 100),
					    slab);
		}
		KTEST_EXPECT_PTR_EQ(t, virt_to_slab(base + slab_bytes - 1), slab);
	} else {
		KTEST_EXPECT_FALSE(t, PageHead(page));
		KTEST_EXPECT_FALSE(t, PageTail(page));
	}
}

static void test_geometry(struct ktest *t)
{
	const struct geom_case *g = t->param_value;
	unsigned int nslabs = g->colour > 1 ? g->colour + 2 : 2;
	unsigned int total = nslabs * g->num, bad = 0;
	struct slab *slabs[48];
	struct kmem_cache *c;

	skip_if_small_memory(t, g->order, g->size);
	KTEST_ASSERT_LE(t, total, (unsigned int)MAX_OBJS);
	KTEST_ASSERT_LE(t, nslabs, (unsigned int)ARRAY_SIZE(slabs));
	ctor_calls = 0;
	c = kmem_cache_create(g->name, g->object_size, g->align, g->flags,
			      g->ctor ? counting_ctor : NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	skip_debugged_cache(t, c);
	skip_kasan_layout_cache(t, c);
	KTEST_EXPECT_EQ(t, c->freelist_place, g->place);
	KTEST_EXPECT_EQ(t, c->size, g->size);
	KTEST_EXPECT_EQ(t, c->align, g->obj_align);
	KTEST_EXPECT_EQ(t, c->num, g->num);
	KTEST_EXPECT_EQ(t, c->gfporder, g->order);
	KTEST_EXPECT_EQ(t, c->freelist_idx_size, g->idx_size);
	KTEST_EXPECT_EQ(t, c->freelist_size, g->num * g->idx_size);
	KTEST_EXPECT_EQ(t, c->colour, g->colour);
	KTEST_EXPECT_EQ(t, c->colour_off, g->colour_off);
	KTEST_EXPECT_EQ(t, c->object_size, g->object_size);
	KTEST_EXPECT_EQ(t, ctor_calls, 0UL);
	if (g->place == FREELIST_OFF_SLAB) {
		unsigned long left = (PAGE_SIZE << g->order) -
				     (unsigned long)g->num * g->size;

		KTEST_EXPECT_PTR_EQ(t, c->freelist_cache,
				    kmalloc_class_cache(g->fc_size));
		/* Why off-slab: a small enough class, and no room on the slab. */
		KTEST_EXPECT_LE(t, g->fc_size, g->size / 2);
		KTEST_EXPECT_LT(t, left, (unsigned long)g->num * g->idx_size);
	}
	/* The parameters must describe a slab that is really used this way. */
	KTEST_ASSERT_EQ(t, c->num, g->num);

	/*
	 * Slabs fill one after the other and a refill never spans two, so
	 * the j-th object allocated comes from the (j / num)-th slab made.
	 */
	for (unsigned int j = 0; j < total; j++) {
		objs[j] = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, objs[j]);
		if (j % g->num == 0) {
			slabs[j / g->num] = virt_to_slab(objs[j]);
			KTEST_ASSERT_NOT_NULL(t, slabs[j / g->num]);
		}
		if (j == 0 && g->place == FREELIST_IN_OBJECT &&
		    slabs[0]->active < g->num) {
			/* The array starts in the slab's last object. */
			KTEST_EXPECT_PTR_EQ(t, slabs[0]->freelist,
					    obj_at(slabs[0], g->size, g->num - 1));
		}
		bad += virt_to_slab(objs[j]) != slabs[j / g->num];
		bad += (unsigned long)objs[j] % g->obj_align != 0;
	}
	KTEST_EXPECT_EQ(t, bad, 0U);
	KTEST_EXPECT_EQ(t, c->node[0]->total_slabs, (unsigned long)nslabs);
	KTEST_EXPECT_EQ(t, this_ac(c)->avail, 0U);
	if (g->ctor)
		KTEST_EXPECT_EQ(t, ctor_calls, (unsigned long)total);

	/* Each slab handed out each of its objects exactly once. */
	for (unsigned int k = 0; k < nslabs; k++) {
		memset(seen, 0, g->num);
		for (unsigned int j = k * g->num; j < (k + 1) * g->num; j++) {
			unsigned long off = (unsigned long)((char *)objs[j] -
						(char *)slabs[k]->s_mem);

			if (off % g->size || off / g->size >= g->num)
				bad++;
			else
				seen[off / g->size]++;
		}
		for (unsigned int i = 0; i < g->num; i++)
			bad += seen[i] != 1;
		check_geom_slab(t, g, c, slabs[k], k);
	}
	KTEST_EXPECT_EQ(t, bad, 0U);

	for (unsigned int j = 0; j < total; j++)
		kmem_cache_free(c, objs[j]);
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
	KTEST_EXPECT_EQ(t, c->node[0]->total_slabs, 0UL);
	kmem_cache_destroy(c);
}

/* --- the index stack ---------------------------------------------------- */

struct stack_case {
	const char *name;
	unsigned int size;
	bool ctor;
	enum slab_freelist_place place;
	unsigned int num, idx_size, batch;	/* by hand, see geom_cases */
	unsigned int order;
};

/* batch: size <= 256: limit 120, batch 60; <= 1024: limit 54, batch 27. */
static const struct stack_case stack_cases[] = {
	{ "in-object 64", 64, false, FREELIST_IN_OBJECT, 64, 1, 60, 0 },
	{ "on-slab 64 ctor", 64, true, FREELIST_ON_SLAB, 63, 1, 60, 0 },
	{ "on-slab 8 ctor, 2-byte", 8, true, FREELIST_ON_SLAB, 409, 2, 60, 0 },
	{ "off-slab 128 ctor", 128, true, FREELIST_OFF_SLAB, 32, 1, 60, 0 },
	{ "in-object 520, 4 pages", 520, false, FREELIST_IN_OBJECT, 31, 1, 27, 2 },
};

static void stack_desc(const struct stack_case *s, char *desc)
{
	snprintf(desc, KTEST_DESC_SIZE, "%s", s->name);
}

KTEST_ARRAY_PARAM(stack_gen, stack_cases, stack_desc);

/*
 * The cache of a stack_case, or the case skipped where its layout or
 * its reuse order cannot be seen (small memory, debugging, KASAN).
 */
static struct kmem_cache *stack_case_cache(struct ktest *t,
					   const struct stack_case *s)
{
	struct kmem_cache *c;

	skip_if_small_memory(t, s->order, s->size);
	c = kmem_cache_create(s->name, s->size, 0, 0,
			      s->ctor ? counting_ctor : NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	skip_debugged_cache(t, c);
	skip_kasan_layout_cache(t, c);
	skip_kasan_quarantine_cache(t, c);
	return c;
}

static void test_index_stack(struct ktest *t)
{
	const struct stack_case *s = t->param_value;
	unsigned int drawn = 0, avail = 0, base = 0, m, bad = 0;
	unsigned int freed[10];
	struct kmem_cache_node *n;
	struct array_cache *ac;
	struct kmem_cache *c;
	struct slab *slab = NULL;
	bool touched = false;

	c = stack_case_cache(t, s);
	KTEST_ASSERT_EQ(t, c->freelist_place, s->place);
	KTEST_ASSERT_EQ(t, c->num, s->num);
	KTEST_ASSERT_EQ(t, c->freelist_idx_size, s->idx_size);
	KTEST_ASSERT_EQ(t, c->batchcount, s->batch);
	n = c->node[0];
	ac = this_ac(c);
	KTEST_EXPECT_EQ(t, ac->avail, 0U);
	KTEST_EXPECT_EQ(t, n->total_slabs, 0UL);

	/*
	 * Take the whole first slab. Each refill draws the next indices
	 * 0, 1, 2... into the per-CPU array (the first one, into a never
	 * used array, at most 16; later ones a batch, but never more than
	 * the slab has left); the array then hands them out from its top.
	 */
	for (unsigned int k = 0; k < s->num; k++) {
		void *obj;

		if (!avail) {
			unsigned int take = touched ? s->batch :
				min(s->batch, (unsigned int)REFILL_LIMIT_UNTOUCHED);

			take = min(take, s->num - drawn);
			base = drawn;
			drawn += take;
			avail = take;
			touched = true;
		}
		avail--;
		obj = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, obj);
		objs[k] = obj;
		if (!slab)
			slab = virt_to_slab(obj);
		KTEST_ASSERT_PTR_EQ(t, virt_to_slab(obj), slab);
		if (obj != obj_at(slab, c->size, base + avail) ||
		    slab->active != drawn || ac->avail != avail ||
		    n->free_objects != s->num - drawn ||
		    !on_list(drawn == s->num ? &n->slabs_full : &n->slabs_partial,
			     slab)) {
			if (!bad++)
				KTEST_FAIL(t, "step %u: obj %px (want index %u), active %u (want %u), avail %u (want %u), free_objects %lu",
					   k, obj, base + avail, slab->active,
					   drawn, ac->avail, avail, n->free_objects);
		}
	}
	KTEST_EXPECT_EQ(t, bad, 0U);
	KTEST_EXPECT_EQ(t, n->total_slabs, 1UL);
	KTEST_EXPECT_EQ(t, ac->avail, 0U);
	KTEST_EXPECT_TRUE(t, on_list(&n->slabs_full, slab));
	if (s->place == FREELIST_IN_OBJECT)
		KTEST_EXPECT_NULL(t, slab->freelist);

	/*
	 * Free m objects in a scattered order (stride 37, coprime to every
	 * num here; for 409 it reaches indices above 255). They stay in the
	 * per-CPU array: the slab still looks full.
	 */
	m = min(10U, s->num - 1);
	for (unsigned int j = 0; j < m; j++) {
		freed[j] = (s->num - 1 + s->num * 37 - j * 37) % s->num;
		kmem_cache_free(c, obj_at(slab, c->size, freed[j]));
		KTEST_EXPECT_EQ(t, ac->avail, j + 1);
		KTEST_EXPECT_EQ(t, slab->active, s->num);
	}
	KTEST_EXPECT_TRUE(t, on_list(&n->slabs_full, slab));

	/*
	 * Drain them to the slab: pushed in free order, so the index array
	 * ends ... freed[1] freed[0] and freed[m-1] sits at [active].
	 */
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 1);
	KTEST_EXPECT_EQ(t, ac->avail, 0U);
	KTEST_EXPECT_EQ(t, n->shared->avail, 0U);
	KTEST_EXPECT_EQ(t, n->total_slabs, 1UL);
	KTEST_EXPECT_EQ(t, slab->active, s->num - m);
	KTEST_EXPECT_EQ(t, n->free_objects, (unsigned long)m);
	KTEST_EXPECT_TRUE(t, on_list(&n->slabs_partial, slab));
	if (s->place == FREELIST_IN_OBJECT)	/* the first object freed */
		KTEST_EXPECT_PTR_EQ(t, slab->freelist,
				    obj_at(slab, c->size, freed[0]));
	for (unsigned int j = 0; j < m; j++)
		KTEST_EXPECT_EQ(t, freelist_entry(slab, s->idx_size,
						  s->num - 1 - j), freed[j]);
	KTEST_EXPECT_EQ(t, freelist_entry(slab, s->idx_size, slab->active),
			freed[m - 1]);

	/*
	 * Take them back: one refill pops freed[m-1], ..., freed[0] off the
	 * slab's stack into the array, whose top is then freed[0].
	 */
	for (unsigned int j = 0; j < m; j++) {
		void *obj = kmem_cache_alloc(c, GFP_KERNEL);

		KTEST_EXPECT_PTR_EQ(t, obj, obj_at(slab, c->size, freed[j]));
		KTEST_EXPECT_EQ(t, slab->active, s->num);
		KTEST_EXPECT_EQ(t, ac->avail, m - 1 - j);
	}
	KTEST_EXPECT_TRUE(t, on_list(&n->slabs_full, slab));
	if (s->place == FREELIST_IN_OBJECT)
		KTEST_EXPECT_NULL(t, slab->freelist);

	for (unsigned int k = 0; k < s->num; k++)
		kmem_cache_free(c, objs[k]);
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
	KTEST_EXPECT_EQ(t, n->total_slabs, 0UL);
	KTEST_EXPECT_EQ(t, n->free_objects, 0UL);
	KTEST_EXPECT_TRUE(t, list_empty(&n->slabs_full));
	KTEST_EXPECT_TRUE(t, list_empty(&n->slabs_partial));
	KTEST_EXPECT_TRUE(t, list_empty(&n->slabs_free));
	kmem_cache_destroy(c);
}

/*
 * One flush of objects of three full slabs A, B and C (free_block()),
 * in runs of one slab's objects that alternate: A and B come back in
 * several runs each, C (when all its objects fit in the per-CPU array)
 * in two runs that free it all. Each slab's index stack gets its
 * objects in flush order across the runs, each changes lists for the
 * state it ends in (full to partial, full to free), and the node counts
 * them.
 */
struct flush_run {
	unsigned int slab, nr;		/* nr 0: the rest of C's share */
};

static const struct flush_run flush_runs[] = {
	{ 0, 3 }, { 1, 2 }, { 0, 2 }, { 2, 5 }, { 1, 1 }, { 2, 0 }, { 0, 1 },
};

static unsigned int obj_index(const struct kmem_cache *c,
			      const struct slab *slab, const void *obj)
{
	return (unsigned int)(((const char *)obj - (const char *)slab->s_mem) /
			      c->size);
}

static void test_free_block_runs(struct ktest *t)
{
	const struct stack_case *s = t->param_value;
	unsigned int freed[3] = { 0 }, share_c, nr = 0, bad = 0;
	static unsigned int pushed[3][MAX_OBJS / 3];
	struct slab *slabs[3];
	struct kmem_cache_node *n;
	struct array_cache *ac;
	struct kmem_cache *c;

	c = stack_case_cache(t, s);
	KTEST_ASSERT_EQ(t, c->num, s->num);
	KTEST_ASSERT_TRUE(t, 3 * s->num <= MAX_OBJS);
	n = c->node[0];
	ac = this_ac(c);

	/* Three full slabs: the k-th num objects are slab k's (test_geometry). */
	for (unsigned int j = 0; j < 3 * s->num; j++) {
		objs[j] = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, objs[j]);
		if (j % s->num == 0)
			slabs[j / s->num] = virt_to_slab(objs[j]);
		KTEST_ASSERT_PTR_EQ(t, virt_to_slab(objs[j]),
				    slabs[j / s->num]);
	}
	KTEST_ASSERT_EQ(t, ac->avail, 0U);
	KTEST_EXPECT_EQ(t, n->free_objects, 0UL);

	/* Into the array, no flush: C whole if it fits with the others. */
	share_c = s->num + 6 + 3 <= ac->limit ? s->num : 10;
	for (unsigned int r = 0; r < ARRAY_SIZE(flush_runs); r++) {
		unsigned int k = flush_runs[r].slab;
		unsigned int cnt = flush_runs[r].nr ? flush_runs[r].nr :
				   share_c - freed[2];

		for (unsigned int q = 0; q < cnt; q++, freed[k]++, nr++) {
			void *obj = objs[k * s->num + freed[k]];

			pushed[k][freed[k]] = obj_index(c, slabs[k], obj);
			kmem_cache_free(c, obj);
		}
	}
	KTEST_ASSERT_EQ(t, ac->avail, nr);
	KTEST_ASSERT_EQ(t, freed[0], 6U);
	KTEST_ASSERT_EQ(t, freed[1], 3U);
	KTEST_ASSERT_EQ(t, freed[2], share_c);
	KTEST_EXPECT_EQ(t, list_count(&n->slabs_full), 3UL);

	/* One free_block() of the whole array. */
	drain_array(c, ac, 0);
	KTEST_EXPECT_EQ(t, ac->avail, 0U);
	KTEST_EXPECT_EQ(t, n->free_objects, (unsigned long)nr);
	KTEST_EXPECT_EQ(t, n->total_slabs, 3UL);
	KTEST_EXPECT_EQ(t, n->free_slabs, share_c == s->num ? 1UL : 0UL);
	for (unsigned int k = 0; k < 3; k++) {
		struct list_head *want = &n->slabs_partial;

		if (share_c == s->num && k == 2)
			want = &n->slabs_free;
		KTEST_EXPECT_EQ(t, slabs[k]->active, s->num - freed[k]);
		KTEST_EXPECT_TRUE(t, on_list(want, slabs[k]));
		/* A full slab's in-object array: the first object freed. */
		if (s->place == FREELIST_IN_OBJECT)
			KTEST_EXPECT_PTR_EQ(t, slabs[k]->freelist,
					    objs[k * s->num]);
		/* The stack top down: the slab's last flushed first. */
		for (unsigned int q = 0; q < freed[k]; q++)
			bad += freelist_entry(slabs[k], s->idx_size,
					      s->num - 1 - q) != pushed[k][q];
	}
	KTEST_EXPECT_EQ(t, bad, 0U);
	KTEST_EXPECT_EQ(t, list_count(&n->slabs_full), 0UL);

	/* What stayed out goes back too; then the slabs go. */
	for (unsigned int k = 0; k < 3; k++) {
		for (unsigned int q = freed[k]; q < s->num; q++)
			kmem_cache_free(c, objs[k * s->num + q]);
	}
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
	KTEST_EXPECT_EQ(t, n->total_slabs, 0UL);
	KTEST_EXPECT_EQ(t, n->free_objects, 0UL);
	kmem_cache_destroy(c);
}

/*
 * The index of an object is its offset over the object size, with a
 * multiply and a shift (SLAB_RECIPROCAL_SHIFT): exact at both ends of
 * every object of a slab, so (the product grows with the offset) at
 * every byte, for every kmalloc cache and caches of odd sizes up to one
 * 4 MiB object.
 */
static unsigned int index_errors(const struct kmem_cache *c)
{
	unsigned int bad = 0;

	for (unsigned long i = 0; i < c->num; i++) {
		unsigned long first = i * c->size, last = first + c->size - 1;

		bad += (first * c->reciprocal_buffer_size >>
			SLAB_RECIPROCAL_SHIFT) != i;
		bad += (last * c->reciprocal_buffer_size >>
			SLAB_RECIPROCAL_SHIFT) != i;
	}
	return bad;
}

static void test_index_reciprocal(struct ktest *t)
{
	static const unsigned int sizes[] = {
		8, 24, 40, 56, 72, 104, 200, 424, 1000, 1304, 3000, 5000,
		20000, 100000, 1U << 20, 4U << 20,
	};
	struct kmem_cache *prev[2] = { NULL, NULL };
	unsigned int caches = 0;

	for (size_t size = 8; size <= KMALLOC_MAX_CACHE_SIZE; size += 8) {
		for (int dma = 0; dma < 2; dma++) {
			struct kmem_cache *c = kmalloc_slab(size,
						dma ? GFP_DMA : 0);

			KTEST_ASSERT_NOT_NULL(t, c);
			if (c == prev[dma])
				continue;
			prev[dma] = c;
			caches++;
			if (index_errors(c))
				KTEST_FAIL(t, "%s: an object's index is wrong",
					   c->name);
		}
	}
	KTEST_EXPECT_EQ(t, caches, 2U * 28);
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		struct kmem_cache *c = kmem_cache_create("t-index", sizes[i],
							 0, 0, NULL);

		KTEST_ASSERT_NOT_NULL(t, c);
		if (index_errors(c))
			KTEST_FAIL(t, "size %u (stride %u, %u per slab): an object's index is wrong",
				   sizes[i], c->size, c->num);
		kmem_cache_destroy(c);
	}
}

/* --- object caching ------------------------------------------------------ */

struct ctor_case {
	const char *name;
	unsigned int size, num;		/* num by hand, see geom_cases */
};

static const struct ctor_case ctor_cases[] = {
	{ "on-slab 64", 64, 63 },
	{ "on-slab 8, 2-byte", 8, 409 },
	{ "off-slab 128", 128, 32 },
};

static void ctor_desc(const struct ctor_case *cc, char *desc)
{
	snprintf(desc, KTEST_DESC_SIZE, "%s", cc->name);
}

KTEST_ARRAY_PARAM(ctor_gen, ctor_cases, ctor_desc);

static void test_ctor_once_per_object(struct ktest *t)
{
	const struct ctor_case *cc = t->param_value;
	struct kmem_cache *c;
	struct slab *slab;
	unsigned int bad = 0;
	void *obj;

	ctor_calls = 0;
	c = kmem_cache_create(cc->name, cc->size, 0, 0, counting_ctor);
	KTEST_ASSERT_NOT_NULL(t, c);
	skip_debugged_cache(t, c);
	skip_kasan_layout_cache(t, c);
	skip_kasan_quarantine_cache(t, c);
	KTEST_ASSERT_EQ(t, c->num, cc->num);
	KTEST_EXPECT_EQ(t, ctor_calls, 0UL);

	/* One allocation makes one slab: num constructor calls, one each. */
	obj = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, obj);
	slab = virt_to_slab(obj);
	KTEST_EXPECT_EQ(t, ctor_calls, (unsigned long)cc->num);
	for (unsigned int i = 0; i < cc->num; i++)
		bad += !constructed(obj_at(slab, c->size, i));
	KTEST_EXPECT_EQ(t, bad, 0U);
	kmem_cache_free(c, obj);

	/* Reuse never constructs again, and the allocator leaves objects be. */
	for (int i = 0; i < 1000; i++) {
		obj = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, obj);
		bad += !constructed(obj);
		kmem_cache_free(c, obj);
	}
	KTEST_EXPECT_EQ(t, bad, 0U);
	KTEST_EXPECT_EQ(t, ctor_calls, (unsigned long)cc->num);
	/* Drained back to the slab and out again: still constructed. */
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
	KTEST_EXPECT_EQ(t, c->node[0]->total_slabs, 0UL);
	KTEST_EXPECT_EQ(t, ctor_calls, (unsigned long)cc->num);

	/* The slab went back: a new one constructs num objects again. */
	for (unsigned int i = 0; i <= cc->num; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, objs[i]);
		bad += !constructed(objs[i]);
	}
	KTEST_EXPECT_EQ(t, bad, 0U);
	/* num + 1 objects: two new slabs. */
	KTEST_EXPECT_EQ(t, c->node[0]->total_slabs, 2UL);
	KTEST_EXPECT_EQ(t, ctor_calls, 3UL * cc->num);
	for (unsigned int i = 0; i <= cc->num; i++)
		kmem_cache_free(c, objs[i]);
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
	KTEST_EXPECT_EQ(t, ctor_calls, 3UL * cc->num);
	kmem_cache_destroy(c);
}

/* --- per-CPU and shared arrays -------------------------------------------- */

/*
 * A cache of 64-byte objects: limit 120, batch 60, a shared array of
 * 8 * 60 = 480. First refill, flushes into the shared array with the
 * exact objects moved, and a refill taken back from it.
 */
static void test_array_refill_flush_shared(struct ktest *t)
{
	const unsigned int nobj = 200, limit = 120, batch = 60;
	unsigned long base_pages = pages_baseline();
	unsigned int avail, shared, bad = 0;
	unsigned long free_objects;
	struct kmem_cache_node *n;
	struct array_cache *ac;
	struct kmem_cache *c;
	struct slab *slab;
	void *obj;

	c = kmem_cache_create("t-arrays", 64, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	skip_debugged_cache(t, c);
	skip_kasan_layout_cache(t, c);
	skip_kasan_quarantine_cache(t, c);
	n = c->node[0];
	ac = this_ac(c);
	KTEST_ASSERT_EQ(t, c->limit, limit);
	KTEST_ASSERT_EQ(t, c->batchcount, batch);
	KTEST_ASSERT_EQ(t, ac->limit, limit);
	KTEST_ASSERT_EQ(t, ac->batchcount, batch);
	KTEST_ASSERT_NOT_NULL(t, n->shared);
	KTEST_ASSERT_EQ(t, n->shared->limit, 8 * batch);
	KTEST_EXPECT_EQ(t, c->shared, 8U);
	/* Linux's rule: (1 + CPUs) batches plus one slab. */
	KTEST_EXPECT_EQ(t, n->free_limit, (1 + nr_cpu_ids) * batch + 64);

	/* First refill of an untouched array: 16 objects, indices 0..15. */
	objs[0] = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, objs[0]);
	slab = virt_to_slab(objs[0]);
	KTEST_EXPECT_EQ(t, ac->avail, (unsigned int)REFILL_LIMIT_UNTOUCHED - 1);
	KTEST_EXPECT_EQ(t, slab->active, (unsigned int)REFILL_LIMIT_UNTOUCHED);
	KTEST_EXPECT_EQ(t, ac->touched, 1U);
	for (unsigned int i = 0; i < ac->avail; i++)
		bad += ac->entry[i] != obj_at(slab, 64, i);
	KTEST_EXPECT_EQ(t, bad, 0U);
	KTEST_EXPECT_PTR_EQ(t, objs[0], obj_at(slab, 64, 15));

	for (unsigned int i = 1; i < nobj; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, objs[i]);
	}
	/* Empty every array: the state below depends only on the frees. */
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 1);
	KTEST_EXPECT_EQ(t, ac->avail, 0U);
	KTEST_EXPECT_EQ(t, n->shared->avail, 0U);
	free_objects = n->free_objects;

	/*
	 * Free one by one: the array fills to its limit, then each free
	 * first moves its oldest batch to the shared array.
	 */
	avail = shared = 0;
	for (unsigned int i = 0; i < nobj; i++) {
		if (avail == limit) {
			unsigned int moved = min(batch, 8 * batch - shared);

			shared += moved;
			avail -= moved;
		}
		avail++;
		kmem_cache_free(c, objs[i]);
		if (ac->avail != avail || n->shared->avail != shared) {
			if (!bad++)
				KTEST_FAIL(t, "free %u: avail %u (want %u), shared %u (want %u)",
					   i, ac->avail, avail, n->shared->avail,
					   shared);
		}
	}
	KTEST_EXPECT_EQ(t, bad, 0U);
	KTEST_ASSERT_EQ(t, ac->avail, 80U);
	KTEST_ASSERT_EQ(t, n->shared->avail, 120U);
	/* Nothing reached the slabs. */
	KTEST_EXPECT_EQ(t, n->free_objects, free_objects);
	/* Flushed in free order: objs[0..59], then objs[60..119]. */
	for (unsigned int i = 0; i < 120; i++)
		bad += n->shared->entry[i] != objs[i];
	for (unsigned int i = 0; i < 80; i++)
		bad += ac->entry[i] != objs[120 + i];
	KTEST_EXPECT_EQ(t, bad, 0U);

	/* The array hands back the last freed first. */
	for (unsigned int i = 0; i < 80; i++) {
		obj = kmem_cache_alloc(c, GFP_KERNEL);
		bad += obj != objs[199 - i];
	}
	KTEST_EXPECT_EQ(t, bad, 0U);
	KTEST_EXPECT_EQ(t, ac->avail, 0U);
	/* Refill from the shared array: its top batch, objs[60..119]. */
	obj = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_EXPECT_PTR_EQ(t, obj, objs[119]);
	KTEST_EXPECT_EQ(t, n->shared->avail, 60U);
	KTEST_EXPECT_EQ(t, ac->avail, 59U);
	for (unsigned int i = 0; i < 59; i++)
		bad += ac->entry[i] != objs[60 + i];
	KTEST_EXPECT_EQ(t, bad, 0U);
	KTEST_EXPECT_EQ(t, n->free_objects, free_objects);

	/* Give back the 81 taken again, then everything goes. */
	for (unsigned int i = 0; i < 80; i++)
		kmem_cache_free(c, objs[199 - i]);
	kmem_cache_free(c, obj);
	KTEST_EXPECT_EQ(t, cache_in_use(c), 0L);
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
	KTEST_EXPECT_EQ(t, n->total_slabs, 0UL);
	kmem_cache_destroy(c);
	KTEST_EXPECT_EQ(t, pages_baseline(), base_pages);
}

/*
 * Objects of 20000 bytes: a slab is one object on an order-3 page (the
 * smallest that fits one, and the largest slab_max_order allows), the
 * array limit 8, batch 4, and no shared array (objects above a page).
 * Every flush sends 4 objects, so 4 slabs, to the free list; free slabs
 * beyond free_limit objects go straight back to the page allocator.
 */
static void test_free_limit(struct ktest *t)
{
	const unsigned int limit = 8, batch = 4;
	unsigned long base_pages = pages_baseline();
	unsigned int free_limit = (1 + nr_cpu_ids) * batch + 1;
	unsigned int nobj = free_limit + 12, avail = 0, bad = 0;
	unsigned long free_objs = 0, free_slabs = 0, released = 0, total;
	unsigned long pages_before;
	struct kmem_cache_node *n;
	struct array_cache *ac;
	struct kmem_cache *c;

	c = kmem_cache_create("t-free-limit", 20000, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	skip_debugged_cache(t, c);
	skip_kasan_quarantine_cache(t, c);
	n = c->node[0];
	ac = this_ac(c);
	KTEST_ASSERT_EQ(t, c->num, 1U);
	KTEST_ASSERT_EQ(t, c->gfporder, 3U);
	KTEST_ASSERT_EQ(t, c->limit, limit);
	KTEST_ASSERT_EQ(t, c->batchcount, batch);
	KTEST_EXPECT_NULL(t, n->shared);
	KTEST_EXPECT_EQ(t, c->shared, 0U);
	KTEST_ASSERT_EQ(t, n->free_limit, free_limit);
	KTEST_ASSERT_LE(t, nobj, (unsigned int)MAX_OBJS);

	/* One object per slab: every allocation makes a slab. */
	for (unsigned int i = 0; i < nobj; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, objs[i]);
		bad += virt_to_slab(objs[i])->active != 1;
	}
	KTEST_EXPECT_EQ(t, bad, 0U);
	total = nobj;
	KTEST_EXPECT_EQ(t, n->total_slabs, total);
	KTEST_EXPECT_EQ(t, ac->avail, 0U);

	pages_before = pages_free();
	for (unsigned int i = 0; i < nobj; i++) {
		struct slab *s;
		unsigned long listed = 0;

		if (avail == limit) {
			free_objs += batch;
			free_slabs += batch;
			while (free_objs > free_limit && free_slabs) {
				free_objs--;
				free_slabs--;
				total--;
				released++;
			}
			avail -= batch;
		}
		avail++;
		kmem_cache_free(c, objs[i]);
		list_for_each_entry(s, &n->slabs_free, slab_list) {
			bad += s->active != 0;
			listed++;
		}
		if (ac->avail != avail || n->free_objects != free_objs ||
		    n->free_slabs != free_slabs || listed != free_slabs ||
		    n->total_slabs != total ||
		    pages_free() - pages_before != released * 8) {
			if (!bad++)
				KTEST_FAIL(t, "free %u: avail %u/%u free_objects %lu/%lu free_slabs %lu/%lu listed %lu total %lu/%lu pages back %lu/%lu",
					   i, ac->avail, avail, n->free_objects,
					   free_objs, n->free_slabs, free_slabs,
					   listed, n->total_slabs, total,
					   pages_free() - pages_before,
					   released * 8);
		}
	}
	KTEST_EXPECT_EQ(t, bad, 0U);
	/* The case must really have crossed the limit. */
	KTEST_EXPECT_GT(t, released, 0UL);
	KTEST_EXPECT_EQ(t, list_count(&n->slabs_free), free_slabs);

	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
	KTEST_EXPECT_EQ(t, n->total_slabs, 0UL);
	KTEST_EXPECT_EQ(t, pages_free() - pages_before, 8UL * nobj);
	kmem_cache_destroy(c);
	KTEST_EXPECT_EQ(t, pages_baseline(), base_pages);
}

/* --- pfmemalloc ------------------------------------------------------------ */

static void test_pfmemalloc(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("t-pfmemalloc", 64, 0, 0, NULL);
	void *obj, *held, *ordinary, *reserve, *later;
	unsigned int bad = 0;
	unsigned long warns;
	struct page *extra;
	struct slab *slab;
	struct hog *hogs;

	KTEST_ASSERT_NOT_NULL(t, c);
	hogs = hog_memory();
	KTEST_ASSERT_NOT_NULL(t, hogs);
	/* Nothing left above the watermarks. */
	extra = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0);
	KTEST_EXPECT_NULL(t, extra);
	if (extra)
		__free_pages(extra, 0);

	/* A reserve user gets an object from a slab of reserve pages. */
	obj = kmem_cache_alloc(c, GFP_KERNEL | __GFP_MEMALLOC);
	if (!obj)
		release_memory(hogs);
	KTEST_ASSERT_NOT_NULL(t, obj);
	slab = virt_to_slab(obj);
	KTEST_EXPECT_TRUE(t, PagePfmemalloc(slab_page(slab)));
	KTEST_EXPECT_TRUE(t, PageActive(slab_page(slab)));
	KTEST_EXPECT_TRUE(t, slab_test_pfmemalloc(slab));
	KTEST_EXPECT_TRUE(t, slab_pfmemalloc_active());
	/* A second one keeps the slab from going back when obj is freed. */
	held = kmem_cache_alloc(c, GFP_KERNEL | __GFP_MEMALLOC);
	KTEST_EXPECT_NOT_NULL(t, held);
	if (held)
		KTEST_EXPECT_PTR_EQ(t, virt_to_slab(held), slab);
	kmem_cache_free(c, obj);

	/* An ordinary caller must not get one of its objects. */
	warns = warn_count;
	ordinary = kmem_cache_alloc(c, GFP_KERNEL | __GFP_NOWARN);
	KTEST_EXPECT_EQ(t, warn_count, warns);
	if (ordinary) {
		KTEST_EXPECT_PTR_NE(t, virt_to_slab(ordinary), slab);
		KTEST_EXPECT_FALSE(t, slab_test_pfmemalloc(virt_to_slab(ordinary)));
	}
	/* The per-CPU array holds none of them (nor a stray bit 0). */
	for (unsigned int i = 0; i < this_ac(c)->avail; i++) {
		unsigned long entry = (unsigned long)this_ac(c)->entry[i];

		bad += virt_to_slab((void *)(entry & ~1UL)) == slab;
	}
	KTEST_EXPECT_EQ(t, bad, 0U);

	/* A reserve user still may. */
	reserve = kmem_cache_alloc(c, GFP_KERNEL | __GFP_MEMALLOC);
	KTEST_EXPECT_NOT_NULL(t, reserve);
	if (reserve)
		KTEST_EXPECT_PTR_EQ(t, virt_to_slab(reserve), slab);

	release_memory(hogs);

	/*
	 * With memory back, the first ordinary caller to meet the reserve
	 * slab turns it into an ordinary one and takes its free objects:
	 * reserve mode ends (tests/test_slab_contract.c has the details).
	 */
	later = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_EXPECT_NOT_NULL(t, later);
	if (later)
		KTEST_EXPECT_PTR_EQ(t, virt_to_slab(later), slab);
	KTEST_EXPECT_FALSE(t, slab_test_pfmemalloc(slab));
	KTEST_EXPECT_FALSE(t, slab_pfmemalloc_active());
	kmem_cache_free(c, later);
	kmem_cache_free(c, ordinary);
	kmem_cache_free(c, reserve);
	kmem_cache_free(c, held);
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
	kmem_cache_destroy(c);
}

/* Exhausted memory: allocation fails cleanly, and works once it is back. */
static void test_exhaustion(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("t-exhaust", 512, 0, 0, NULL);
	void *bulk[64], *obj;
	struct hog *hogs;

	KTEST_ASSERT_NOT_NULL(t, c);
	hogs = hog_memory();
	KTEST_ASSERT_NOT_NULL(t, hogs);
	/* A fresh cache has no slab to take from, and none can be made. */
	KTEST_EXPECT_NULL(t, kmem_cache_alloc(c, GFP_KERNEL | __GFP_NOWARN));
	KTEST_EXPECT_EQ(t, kmem_cache_alloc_bulk(c, GFP_KERNEL | __GFP_NOWARN,
						 64, bulk), 0);
	KTEST_EXPECT_EQ(t, cache_in_use(c), 0L);
	KTEST_EXPECT_EQ(t, c->node[0]->total_slabs, 0UL);
	release_memory(hogs);

	obj = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_EXPECT_NOT_NULL(t, obj);
	KTEST_EXPECT_EQ(t, kmem_cache_alloc_bulk(c, GFP_KERNEL, 64, bulk), 64);
	kmem_cache_free_bulk(c, 64, bulk);
	kmem_cache_free(c, obj);
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
	kmem_cache_destroy(c);
}

/* --- destroy, bad input ---------------------------------------------------- */

static void test_destroy_with_live_objects(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("t-live", 128, 0, 0, NULL);
	unsigned long warns;
	unsigned int hits;
	void *live[3], *obj;

	KTEST_ASSERT_NOT_NULL(t, c);
	for (int i = 0; i < 3; i++) {
		live[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, live[i]);
	}

	warns = warn_count;
	ktest_capture_start(t, "Slab cache still has objects");
	kmem_cache_destroy(c);
	hits = ktest_capture_stop(t);
	KTEST_EXPECT_EQ(t, hits, 1U);
	KTEST_EXPECT_REPORTS(t, REPORT_SLAB_CACHE_BUSY, 1);
	KTEST_EXPECT_EQ(t, warn_count, warns + 1);

	/* Kept, and still working. */
	obj = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, obj);
	KTEST_EXPECT_PTR_EQ(t, virt_to_slab(obj)->slab_cache, c);
	kmem_cache_free(c, obj);
	KTEST_EXPECT_EQ(t, cache_in_use(c), 3L);

	/* The report names each live object. */
	ktest_capture_start(t, "live object");
	kmem_cache_destroy(c);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 3U);

	for (int i = 0; i < 3; i++)
		kmem_cache_free(c, live[i]);
	warns = warn_count;
	ktest_capture_start(t, NULL);
	kmem_cache_destroy(c);
	ktest_capture_stop(t);
	KTEST_EXPECT_REPORTS(t, REPORT_SLAB_CACHE_BUSY, 0);
	KTEST_EXPECT_EQ(t, warn_count, warns);
}

struct bad_create {
	const char *desc;
	const char *name;
	unsigned int size, align;
	slab_flags_t flags;
};

static const struct bad_create bad_creates[] = {
	{ "size 0", "t-bad", 0, 0, 0 },
	{ "size 4 MiB + 1", "t-bad", (4U << 20) + 1, 0, 0 },
	{ "align 3", "t-bad", 64, 3, 0 },
	{ "align 24", "t-bad", 64, 24, 0 },
	{ "align 8192", "t-bad", 64, 8192, 0 },
	{ "unknown flag 0x1", "t-bad", 64, 0, 0x1 },
	{ "unknown flag 0x80000000", "t-bad", 64, 0, 0x80000000u },
	{ "NULL name", NULL, 64, 0, 0 },
	{ "empty name", "", 64, 0, 0 },
};

static void bad_create_desc(const struct bad_create *b, char *desc)
{
	snprintf(desc, KTEST_DESC_SIZE, "%s", b->desc);
}

KTEST_ARRAY_PARAM(bad_create_gen, bad_creates, bad_create_desc);

static void test_create_bad_input(struct ktest *t)
{
	const struct bad_create *b = t->param_value;
	struct kmem_cache *c;

	ktest_capture_start(t, "kmem_cache_create");
	c = kmem_cache_create(b->name, b->size, b->align, b->flags, NULL);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_NULL(t, c);
	if (c)
		kmem_cache_destroy(c);
}

/* The largest valid sizes and alignment are accepted. */
static void test_create_limits(struct ktest *t)
{
	struct kmem_cache *c;

	ktest_capture_start(t, "kmem_cache_create");
	c = kmem_cache_create("t-4mib", 4U << 20, 0, 0, NULL);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
	KTEST_ASSERT_NOT_NULL(t, c);
	/*
	 * 4 MiB: one object on an order-10 slab; the one-byte array
	 * off-slab (tried first for objects of 512 bytes and more).
	 */
	KTEST_EXPECT_EQ(t, c->num, 1U);
	KTEST_EXPECT_EQ(t, c->gfporder, 10U);
	KTEST_EXPECT_EQ(t, c->freelist_place, FREELIST_OFF_SLAB);
	kmem_cache_destroy(c);

	c = kmem_cache_create("t-align-page", 64, PAGE_SIZE, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	skip_debugged_cache(t, c);
	KTEST_EXPECT_EQ(t, c->size, (unsigned int)PAGE_SIZE);
	kmem_cache_destroy(c);
}

/*
 * A slab of several pages: every page leads kfree() to the cache
 * (page_slab_cache()), and none keeps its mark once the slab is gone.
 */
static struct kmem_cache *multi_page_cache(struct ktest *t)
{
	/* The slab order depends on the RAM: the first size with 2 pages. */
	static const unsigned int sizes[] = { 3000, 1500, 6000 };

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		struct kmem_cache *c = kmem_cache_create("t-tail", sizes[i],
							 0, 0, NULL);

		KTEST_ASSERT_NOT_NULL(t, c);
		if (c->gfporder && c->num > 1)
			return c;
		kmem_cache_destroy(c);
	}
	ktest_skip(t, "no size tried gets slabs of several pages here");
	return NULL;
}

static void test_slab_tail_pages(struct ktest *t)
{
	struct kmem_cache *c = multi_page_cache(t);
	struct page *pages[8] = { NULL };
	void *obj[8];
	unsigned int n, tails = 0;

	n = min_t(unsigned int, c->num, ARRAY_SIZE(obj));
	for (unsigned int i = 0; i < n; i++) {
		obj[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, obj[i]);
		pages[i] = virt_to_page(obj[i]);
		if (PageTail(pages[i])) {
			tails++;
			KTEST_EXPECT_TRUE(t, PageSlabTail(pages[i]));
			KTEST_EXPECT_FALSE(t, PageSlab(pages[i]));
			KTEST_EXPECT_PTR_EQ(t, page_slab_cache(pages[i]), c);
		}
	}
	KTEST_EXPECT_GT(t, tails, 0U);
	for (unsigned int i = 0; i < n; i++)
		kfree(obj[i]);		/* through each object's own page */
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
	KTEST_EXPECT_EQ(t, cache_in_use(c), 0L);
	for (unsigned int i = 0; i < n; i++)
		KTEST_EXPECT_FALSE(t, page_in_slab(pages[i]));
	kmem_cache_destroy(c);
}

/* --- the rest of the API --------------------------------------------------- */

static void test_bulk(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("t-bulk", 96, 0, 0, NULL);
	static const unsigned int counts[] = { 16, 64 };
	void *p[64];

	KTEST_ASSERT_NOT_NULL(t, c);
	for (unsigned int k = 0; k < ARRAY_SIZE(counts); k++) {
		unsigned int nr = counts[k], bad = 0;

		KTEST_ASSERT_EQ(t, kmem_cache_alloc_bulk(c, GFP_KERNEL, nr, p),
				(int)nr);
		KTEST_EXPECT_EQ(t, cache_in_use(c), (long)nr);
		for (unsigned int i = 0; i < nr; i++) {
			bad += !p[i] || virt_to_slab(p[i])->slab_cache != c;
			bad += (unsigned long)p[i] % 8 != 0;
			for (unsigned int j = 0; j < i; j++)
				bad += p[i] == p[j];
			memset(p[i], 0xa5, 96);	/* dirty for the zeroing below */
		}
		KTEST_EXPECT_EQ(t, bad, 0U);
		kmem_cache_free_bulk(c, nr, p);
		KTEST_EXPECT_EQ(t, cache_in_use(c), 0L);

		/* __GFP_ZERO: the same dirty objects come back zeroed. */
		KTEST_ASSERT_EQ(t, kmem_cache_alloc_bulk(c, GFP_KERNEL | __GFP_ZERO,
							 nr, p), (int)nr);
		for (unsigned int i = 0; i < nr; i++)
			bad += memchr_inv(p[i], 0, 96) != NULL;
		KTEST_EXPECT_EQ(t, bad, 0U);
		kmem_cache_free_bulk(c, nr, p);
	}
	/* A NULL among the objects is skipped, the others all freed. */
	KTEST_ASSERT_EQ(t, kmem_cache_alloc_bulk(c, GFP_KERNEL, 8, p), 8);
	kmem_cache_free(c, p[3]);
	p[3] = NULL;
	kmem_cache_free_bulk(c, 8, p);
	KTEST_EXPECT_EQ(t, cache_in_use(c), 0L);
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
	kmem_cache_destroy(c);
}

static void test_zalloc_and_size(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("t-zalloc", 40,
						 0, SLAB_HWCACHE_ALIGN, NULL);
	void *p, *q;

	KTEST_ASSERT_NOT_NULL(t, c);
	skip_debugged_cache(t, c);
	KTEST_EXPECT_EQ(t, kmem_cache_size(c), 40U);
	KTEST_EXPECT_EQ(t, c->size, 64U);
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	memset(p, 0xff, 40);
	kmem_cache_free(c, p);
	q = kmem_cache_zalloc(c, GFP_KERNEL);
	/* The per-CPU array is LIFO: the dirty object comes back. */
	if (!kasan_quarantine_enabled())	/* else it waits there */
		KTEST_EXPECT_PTR_EQ(t, q, p);
	KTEST_ASSERT_NOT_NULL(t, q);
	KTEST_EXPECT_NULL(t, memchr_inv(q, 0, 40));
	kmem_cache_free(c, q);
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
	kmem_cache_destroy(c);
}

static void test_hwcache_align(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("t-hwcache", 40, 0,
						 SLAB_HWCACHE_ALIGN, NULL);
	unsigned int bad = 0;

	KTEST_ASSERT_NOT_NULL(t, c);
	skip_debugged_cache(t, c);
	skip_kasan_layout_cache(t, c);
	KTEST_EXPECT_EQ(t, c->align, 64U);
	for (int i = 0; i < 200; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, objs[i]);
		bad += (unsigned long)objs[i] % 64 != 0;
	}
	KTEST_EXPECT_EQ(t, bad, 0U);
	for (int i = 0; i < 200; i++)
		kmem_cache_free(c, objs[i]);
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
	kmem_cache_destroy(c);

	/* Small objects get smaller lines: 20 bytes -> 32 (20 <= 64 / 2). */
	c = kmem_cache_create("t-hwcache-20", 20, 0, SLAB_HWCACHE_ALIGN, NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	KTEST_EXPECT_EQ(t, c->align, 32U);
	KTEST_EXPECT_EQ(t, c->size, 32U);
	kmem_cache_destroy(c);
}

static void test_cache_dma(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("t-dma", 64, 0,
						 SLAB_CACHE_DMA, NULL);
	unsigned int bad = 0;

	KTEST_ASSERT_NOT_NULL(t, c);
	KTEST_EXPECT_TRUE(t, c->allocflags & GFP_DMA);
	for (int i = 0; i < 200; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, objs[i]);
		bad += page_zonenum(virt_to_page(objs[i])) != ZONE_DMA;
		bad += __pa(objs[i]) >= SZ_16M;
	}
	KTEST_EXPECT_EQ(t, bad, 0U);
	for (int i = 0; i < 200; i++)
		kmem_cache_free(c, objs[i]);
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
	kmem_cache_destroy(c);
}

static void test_typesafe_by_rcu(struct ktest *t)
{
	unsigned long base_pages = pages_baseline();
	struct kmem_cache *c = kmem_cache_create("t-rcu", 64, 0,
						 SLAB_TYPESAFE_BY_RCU, NULL);

	KTEST_ASSERT_NOT_NULL(t, c);
	KTEST_EXPECT_TRUE(t, c->flags & SLAB_TYPESAFE_BY_RCU);
	/* A freed object may still be read: it cannot hold the index array. */
	KTEST_EXPECT_NE(t, c->freelist_place, FREELIST_IN_OBJECT);
	for (int i = 0; i < 300; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, objs[i]);
	}
	for (int i = 0; i < 300; i++)
		kmem_cache_free(c, objs[i]);
	/* The slabs go back through the RCU callback path. */
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
	KTEST_EXPECT_EQ(t, c->node[0]->total_slabs, 0UL);
	kmem_cache_destroy(c);
	KTEST_EXPECT_EQ(t, pages_baseline(), base_pages);
}

static const struct ktest_case slab_cases[] = {
	KTEST_CASE(test_overlay_offsets),
	KTEST_CASE(test_overlay_live_slab),
	KTEST_CASE_PARAM(test_geometry, geom_gen),
	KTEST_CASE_PARAM(test_index_stack, stack_gen),
	KTEST_CASE_PARAM(test_free_block_runs, stack_gen),
	KTEST_CASE(test_index_reciprocal),
	KTEST_CASE_PARAM(test_ctor_once_per_object, ctor_gen),
	KTEST_CASE(test_array_refill_flush_shared),
	KTEST_CASE(test_free_limit),
	KTEST_CASE(test_pfmemalloc),
	KTEST_CASE(test_exhaustion),
	KTEST_CASE(test_destroy_with_live_objects),
	KTEST_CASE_PARAM(test_create_bad_input, bad_create_gen),
	KTEST_CASE(test_create_limits),
	KTEST_CASE(test_slab_tail_pages),
	KTEST_CASE(test_bulk),
	KTEST_CASE(test_zalloc_and_size),
	KTEST_CASE(test_hwcache_align),
	KTEST_CASE(test_cache_dma),
	KTEST_CASE(test_typesafe_by_rcu),
	{}
};
KTEST_SUITE(slab, slab_cases);

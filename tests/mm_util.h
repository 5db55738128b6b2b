/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the memory test suites. */
#ifndef TESTS_MM_UTIL_H
#define TESTS_MM_UTIL_H

#include "lib/ktest/ktest.h"
#include "mm/gfp.h"

struct kmem_cache;

/* Pages held to exhaust memory, chained through their own first bytes. */
struct hog {
	struct hog *next;
	unsigned int order;
};

/*
 * Take every page a GFP_KERNEL allocation may get (down to the min
 * watermark), largest blocks first; release_memory() gives them back.
 */
struct hog *hog_memory(void);
/* The same with the allocations' gfp given (e.g. with __GFP_NORETRY). */
struct hog *hog_memory_gfp(gfp_t gfp);
/*
 * Every block alloc_pages_node(nid, gfp) gives, largest first, onto
 * head (no deferred init first: the caller's choice).
 */
struct hog *hog_pages(struct hog *head, gfp_t gfp, int nid);
void release_memory(struct hog *head);

/* Free pages, wherever the page allocator keeps them. */
unsigned long pages_free(void);
/* Free pages with every cache shrunk and the per-CPU lists drained. */
unsigned long pages_baseline(void);
/*
 * A RAM pfn whose struct page deferred init has not reached yet (all
 * zero: no zone, no flags, no reference).
 */
bool deferred_page(unsigned long pfn);
/* The node memblock gives a RAM pfn (NUMA_NO_NODE: not RAM). */
int memblock_pfn_to_nid(unsigned long pfn);
/* RAM pages of every online node (their node_present_pages). */
unsigned long all_nodes_present_pages(void);
/* The zone a pfn belongs to, from the zone limits alone. */
enum zone_type expected_zone(unsigned long pfn);

/*
 * Skip a test of the allocator's normal layout, LIFO reuse or per-CPU
 * arrays when slab_debug (the boot parameter) debugs cachep: a debugged
 * cache has neither (mm/slab_debug.c).
 */
void skip_if_debugged(struct ktest *t, const struct kmem_cache *cachep);
/* The same for any kmalloc cache. */
void skip_if_kmalloc_debugged(struct ktest *t);
/*
 * Skip the case if cachep's objects carry KASAN's tracks (SLAB_KASAN):
 * a case about the plain stride and slab geometry. The second destroys
 * the case's own cache first.
 */
void skip_if_kasan_layout(struct ktest *t, const struct kmem_cache *cachep);
void skip_kasan_layout_cache(struct ktest *t, struct kmem_cache *cachep);
/* The same for a test's own cache, which is destroyed first. */
void skip_debugged_cache(struct ktest *t, struct kmem_cache *cachep);
/*
 * Skip a test of SLAB's own reuse order (a freed object is the next one
 * handed out, counts of objects in the arrays after frees) under KASAN's
 * quarantine, which delays every free on purpose (Linux's KUnit tests
 * skip such cases under KASAN too).
 */
void skip_if_kasan_quarantine(struct ktest *t);
/* The same for a test's own cache, which is destroyed first. */
void skip_kasan_quarantine_cache(struct ktest *t, struct kmem_cache *cachep);

/*
 * A short random stress of the page allocator: ops allocations and frees
 * of orders 0..3 (GFP_KERNEL, GFP_DMA32, now and then GFP_DMA, some
 * __GFP_COMP or __GFP_ZERO), up to 64 blocks held. Every page held
 * carries pfn-derived words at its start, middle and end, checked before
 * it is freed; a new page must be zeroed if asked, and otherwise hold the
 * poison while page_poison is on. Everything is freed at the end.
 */
struct page_stress {
	unsigned long allocs, failed, frees;
	unsigned long corrupt;		/* a held page lost its words */
	unsigned long not_zeroed;	/* __GFP_ZERO page that was not */
	unsigned long not_poisoned;	/* new page without the poison */
	unsigned long misaligned;	/* block not aligned to its order */
};
void page_stress(unsigned long ops, u64 seed, struct page_stress *s);

/*
 * After bad input: page_alloc_check() finds nothing, and a page_stress()
 * of ops operations gets every block it asks for with its contents
 * intact (each problem fails the case t).
 */
void expect_page_alloc_sane(struct ktest *t, unsigned long ops);

/*
 * A short random stress of the slab allocator: ops allocations and frees,
 * odd slots from cachep, even ones kmalloc of 1..kmalloc_max bytes, up to
 * 64 objects held, each filled with a pattern checked before it is
 * freed. A NULL is counted, not an error (fault injection). Everything
 * is freed at the end.
 */
struct slab_stress {
	unsigned long allocs, failed;
	unsigned long corrupt;		/* an object lost its pattern */
};
void slab_stress(struct kmem_cache *cachep, unsigned long ops,
		 size_t kmalloc_max, u64 seed, struct slab_stress *s);

/*
 * A cache's per-CPU arrays as alloc_cpu_arrays() lays them out: each
 * CPU's in its memory node's block (in that node's memory when
 * on_node), a whole stride into it, the node's CPUs in a turn of the
 * block's slots, each array of the cache's limit; no block for a node
 * without CPUs; and an array at its cpu_cache[] pointer's page offset
 * (4K aliasing) only if every turn of the node's slots has one.
 */
void expect_cpu_arrays_laid_out(struct ktest *t, struct kmem_cache *cachep,
				bool on_node);

/*
 * For a case that counts what a cache keeps: cache_reap's passes (which
 * trim idle caches in the background) wait a minute, until the case
 * ends. Nothing if the reaper does not run.
 */
void hold_off_cache_reap(struct ktest *t);

/*
 * Bounded waits for work on other CPUs, by the monotonic clock: until
 * *v >= want, or *flag is set, at most seconds; false on timeout.
 * spin_ns() busy-waits ns nanoseconds with interrupts as they are.
 */
bool wait_until(const volatile unsigned long *v, unsigned long want,
		unsigned int seconds);
bool wait_flag(const volatile bool *flag, unsigned int seconds);
void spin_ns(u64 ns);

#endif /* TESTS_MM_UTIL_H */

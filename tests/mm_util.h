/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the memory test suites. */
#ifndef TESTS_MM_UTIL_H
#define TESTS_MM_UTIL_H

#include "kernel/ktest.h"
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
void release_memory(struct hog *head);

/* Free pages, wherever the page allocator keeps them. */
unsigned long pages_free(void);
/* Free pages with every cache shrunk and the per-CPU lists drained. */
unsigned long pages_baseline(void);
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
/* The same for a test's own cache, which is destroyed first. */
void skip_debugged_cache(struct ktest *t, struct kmem_cache *cachep);

#endif /* TESTS_MM_UTIL_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The slab allocator's API: kmalloc and object caches (Linux's
 * <linux/slab.h>). This is the header a caller includes.
 *
 * It declares what a caller may use and nothing else: struct kmem_cache
 * is an incomplete type here, so a caller cannot reach into a cache. The
 * allocator's own data (struct kmem_cache with its per-CPU and per-node
 * parts, struct slab over struct page) is in mm/slab_internal.h, which
 * only mm/ and white-box tests include.
 */
#ifndef MM_SLAB_H
#define MM_SLAB_H

#include "kernel/compiler.h"
#include "lib/bitops.h"
#include "mm/gfp.h"
#include "mm/mm.h"

typedef unsigned int slab_flags_t;

#define SLAB_CONSISTENCY_CHECKS	0x00000100u	/* slab_debug F: check every free */
#define SLAB_RED_ZONE		0x00000400u	/* slab_debug Z: guard bytes around objects */
#define SLAB_POISON		0x00000800u	/* slab_debug P: fill free objects, check on reuse */
#define SLAB_HWCACHE_ALIGN	0x00002000u	/* align objects to cache lines */
#define SLAB_CACHE_DMA		0x00004000u	/* slab pages from ZONE_DMA */
#define SLAB_STORE_USER		0x00010000u	/* slab_debug U: remember who allocated and freed */
#define SLAB_RECLAIM_ACCOUNT	0x00020000u	/* counted as SReclaimable */
#define SLAB_PANIC		0x00040000u	/* panic if creation fails */
/*
 * SLAB_TYPESAFE_BY_RCU: as in Linux, such a cache's slab pages go back to
 * the page allocator only after an RCU grace period (kernel/rcupdate.h),
 * so a reader inside rcu_read_lock() that still holds a freed object
 * reads memory of the same type (maybe reused at once for another object
 * of the cache: the reader must recheck what it found). Objects are
 * never kept from reuse; only the pages wait. No freelist lives inside
 * an object of such a cache, and kmem_cache_destroy() waits for the
 * pending pages (rcu_barrier()).
 */
#define SLAB_TYPESAFE_BY_RCU	0x00080000u
#define SLAB_FREELIST_RANDOM	0x01000000u	/* objects of a new slab in random order */

#define SLAB_DEBUG_FLAGS	(SLAB_CONSISTENCY_CHECKS | SLAB_RED_ZONE | \
				 SLAB_POISON | SLAB_STORE_USER)

#define ZERO_SIZE_PTR		((void *)16)
#define ZERO_OR_NULL_PTR(x)	((unsigned long)(x) <= (unsigned long)ZERO_SIZE_PTR)

#define KMALLOC_MIN_SIZE	8
#define KMALLOC_SHIFT_HIGH	13
#define KMALLOC_MAX_CACHE_SIZE	(1UL << KMALLOC_SHIFT_HIGH)	/* 8 KiB */
#define KMALLOC_MAX_SIZE	(PAGE_SIZE << (MAX_ORDER - 1))	/* 4 MiB */
#define ARCH_KMALLOC_MINALIGN	8
#define L1_CACHE_BYTES		64

struct kmem_cache;

/*
 * kmem_cache_create: a cache of objects of size bytes, aligned to align
 * (0: 8; SLAB_HWCACHE_ALIGN: a cache line for objects that big). ctor,
 * if given, runs once for every object when its slab is made, not on
 * each allocation: a freed object must be left in its constructed state.
 * Returns NULL on failure (panics instead with SLAB_PANIC).
 */
struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, slab_flags_t flags,
				     void (*ctor)(void *));
/*
 * Destroy an empty cache. If objects are still allocated, it reports them
 * and keeps the cache (so nothing dangles).
 */
void kmem_cache_destroy(struct kmem_cache *cachep);
/* Return every free slab to the page allocator; 0 if the cache is empty. */
int kmem_cache_shrink(struct kmem_cache *cachep);
/* The same for every cache (memory pressure, tests). */
void kmem_cache_shrink_all(void);
/* This CPU's arrays and page lists back, before it stops allocating. */
void kmem_cache_cpu_release(void);
/*
 * Objects allocated and not yet freed, over all caches (the allocator's
 * own off-slab index arrays are not counted).
 */
long slab_objects_in_use(void);
/*
 * Call fn for every cache, oldest first, with its objects in use as
 * slab_objects_in_use() counts them, under the cache list's lock: fn
 * must not create, destroy or shrink caches.
 */
void kmem_cache_walk(void (*fn)(struct kmem_cache *cachep, long in_use,
				void *data), void *data);
const char *kmem_cache_name(const struct kmem_cache *cachep);

void *kmem_cache_alloc(struct kmem_cache *cachep, gfp_t flags) __malloc;
void *kmem_cache_alloc_node(struct kmem_cache *cachep, gfp_t flags, int node)
	__malloc;
void *kmem_cache_zalloc(struct kmem_cache *cachep, gfp_t flags) __malloc;
void kmem_cache_free(struct kmem_cache *cachep, void *objp);
/* Allocate nr objects into p; returns nr, or 0 (and nothing allocated). */
int kmem_cache_alloc_bulk(struct kmem_cache *cachep, gfp_t flags, size_t nr,
			  void **p);
void kmem_cache_free_bulk(struct kmem_cache *cachep, size_t nr, void **p);
unsigned int kmem_cache_size(struct kmem_cache *cachep);

/*
 * kmalloc: size bytes, at least 8-byte aligned, power-of-two sizes
 * naturally aligned. Up to 8 KiB from the kmalloc caches, above that
 * compound pages straight from the page allocator. kmalloc(0) returns
 * ZERO_SIZE_PTR; failure returns NULL. kfree accepts NULL and
 * ZERO_SIZE_PTR. While any cache is debugged (slab_debug, mm/slab_debug.c)
 * kfree also checks that the pointer lies in the direct map at all and
 * reports it if not; otherwise a wild pointer is the caller's bug, as in
 * Linux.
 *
 * As in Linux, kmalloc is inline so that a size known at compile time
 * picks its cache at compile time (kmalloc_trace); other sizes take
 * __kmalloc, which finds the cache from a table.
 */
void *__kmalloc(size_t size, gfp_t flags) __alloc_size(1);
void *kmalloc_trace(struct kmem_cache *cachep, gfp_t flags, size_t size)
	__alloc_size(3);
void *kmalloc_node(size_t size, gfp_t flags, int node) __alloc_size(1);

/*
 * kmalloc size classes. Linux's are kept: 8, 16, ... 8192 (index i holds
 * 2^i bytes), 96 (index 1) and 192 (index 2). Above 256 bytes each
 * doubling also has three steps of a quarter, 5/4, 6/4 and 7/4 of its
 * lower power of two (320, 384, 448, 640, ... 7168), at the indices
 * after KMALLOC_SHIFT_HIGH in size order. Sizes spread evenly over
 * 8..4096 then get 8% more than they ask on average, not 33%.
 */
#define KMALLOC_SHIFT_STEPS	9	/* first doubling with steps: 257..512 */
#define KMALLOC_STEPS		3	/* per doubling */
#define KMALLOC_NR_CACHES	(KMALLOC_SHIFT_HIGH + 1 + KMALLOC_STEPS * \
				 (KMALLOC_SHIFT_HIGH - KMALLOC_SHIFT_STEPS + 1))

/* The index of step (0..2) of the doubling up to 2^shift. */
#define KMALLOC_STEP_INDEX(shift, step) \
	(KMALLOC_SHIFT_HIGH + 1 + KMALLOC_STEPS * ((shift) - KMALLOC_SHIFT_STEPS) + \
	 (step))

/*
 * kmalloc_caches[dma][index]; index 0 is unused. A row is padded to a
 * power of two, so that the lookup finds the DMA row by a shift.
 */
#define KMALLOC_ROW_SIZE	32
extern struct kmem_cache *kmalloc_caches[2][KMALLOC_ROW_SIZE];

/*
 * The kmalloc_caches index for 1..8192 bytes (KMALLOC_SHIFT_HIGH above),
 * folded for a constant size. Above 256: size lies in (2^(shift - 1),
 * 2^shift], and its quarter q of 2^(shift - 1), 4..7, picks the step
 * (4..6) or the power of two (7).
 */
static __always_inline unsigned int __kmalloc_index(size_t size)
{
	unsigned int shift, q;

	if (size <= 8)
		return 3;
	if (size <= 16)
		return 4;
	if (size <= 32)
		return 5;
	if (size <= 64)
		return 6;
	if (size <= 96)
		return 1;
	if (size <= 128)
		return 7;
	if (size <= 192)
		return 2;
	if (size <= 256)
		return 8;
	if (size > KMALLOC_MAX_CACHE_SIZE)
		return KMALLOC_SHIFT_HIGH;
	shift = fls((u32)(size - 1));
	q = (unsigned int)((size - 1) >> (shift - 3));
	return q == 7 ? shift : KMALLOC_STEP_INDEX(shift, q - 4);
}

static __always_inline __alloc_size(1) void *kmalloc(size_t size, gfp_t flags)
{
	if (__builtin_constant_p(size) && __builtin_constant_p(flags & GFP_DMA) &&
	    size && size <= KMALLOC_MAX_CACHE_SIZE)
		return kmalloc_trace(kmalloc_caches[!!(flags & GFP_DMA)]
						   [__kmalloc_index(size)],
				     flags, size);
	return __kmalloc(size, flags);
}

void kfree(const void *objp);
/* Zero the object before freeing it (keys, passwords). */
void kfree_sensitive(const void *objp);
/*
 * Bytes usable at objp: at least what was asked for. The caller may use
 * all of them: on a red-zoned cache the object's tail stops being
 * guarded. The compiler knows only the size asked for (__alloc_size), so
 * use the rest through the pointer krealloc(objp, ksize(objp), gfp)
 * returns: the same object, resized in place.
 */
size_t ksize(const void *objp);
/*
 * Could kfree(obj) free it: the start or inside of a slab object's page
 * that is a slab's, or the start of a large (page-allocator) allocation.
 * False for NULL, ZERO_SIZE_PTR and addresses outside the direct map.
 * kfree_rcu() checks its pointer with it.
 */
bool kmem_valid_obj(const void *obj);
/*
 * Resize: in place when ksize() allows, else copy to a new object and
 * free the old. new_size 0 frees and returns ZERO_SIZE_PTR; on failure
 * returns NULL and leaves p untouched.
 */
void *krealloc(const void *p, size_t new_size, gfp_t flags) __realloc_size(2);

static inline __alloc_size(1) void *kzalloc(size_t size, gfp_t flags)
{
	return kmalloc(size, flags | __GFP_ZERO);
}

/* n * size bytes; NULL if the product overflows. */
static inline __alloc_size(1, 2) void *kmalloc_array(size_t n, size_t size,
						    gfp_t flags)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return kmalloc(bytes, flags);
}

static inline __alloc_size(1, 2) void *kcalloc(size_t n, size_t size,
						      gfp_t flags)
{
	return kmalloc_array(n, size, flags | __GFP_ZERO);
}

/*
 * slab_debug on demand (mm/slab_debug.c). kmem_cache_validate() checks a
 * cache's slabs, lists, counters, array caches and, where the cache has
 * them, every object's red zones and poison; it reports each problem and
 * returns how many it found. slab_validate_all() does every cache.
 * Objects found corrupted when about to be handed out are quarantined:
 * kept allocated and never handed out; kmem_cache_release_quarantine()
 * gives them back (kmem_cache_destroy does it too).
 */
int kmem_cache_validate(struct kmem_cache *cachep);
int slab_validate_all(void);
void kmem_cache_release_quarantine(struct kmem_cache *cachep);

/* kmemdup, kstrdup, krealloc_array, KMEM_CACHE... (mm/util.c) */
#include "mm/util.h"

#endif /* MM_SLAB_H */

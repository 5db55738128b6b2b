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
#include "kernel/overflow.h"
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
/**
 * ZERO_OR_NULL_PTR() - is a pointer NULL or ZERO_SIZE_PTR
 * @x: a pointer kmalloc() may have returned
 *
 * Context: any context.
 * Return: true for NULL, ZERO_SIZE_PTR and the addresses below it.
 */
#define ZERO_OR_NULL_PTR(x)	((unsigned long)(x) <= (unsigned long)ZERO_SIZE_PTR)

#define KMALLOC_MIN_SIZE	8
#define KMALLOC_SHIFT_HIGH	13
#define KMALLOC_MAX_CACHE_SIZE	(1UL << KMALLOC_SHIFT_HIGH)	/* 8 KiB */
#define KMALLOC_MAX_SIZE	(PAGE_SIZE << (MAX_ORDER - 1))	/* 4 MiB */
#define ARCH_KMALLOC_MINALIGN	8
#define L1_CACHE_BYTES		64

struct kmem_cache;

/**
 * kmem_cache_create() - create a cache of objects of one size
 * @name: the cache's name (copied), as slabinfo shows it
 * @size: the object size in bytes
 * @align: the alignment, a power of two up to PAGE_SIZE (0: 8); with
 *	SLAB_HWCACHE_ALIGN objects big enough get a cache line
 * @flags: SLAB_* flags; an unknown one fails
 * @ctor: if given, runs once for every object when its slab is made, not
 *	on each allocation: a freed object must be left in its constructed
 *	state
 *
 * A failure is reported; with SLAB_PANIC it panics instead.
 *
 * Context: process context with interrupts on, after the slab allocator
 * is up; allocates with GFP_KERNEL and takes the cache list's lock.
 * Return: the new cache, or NULL on failure.
 */
struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, slab_flags_t flags,
				     void (*ctor)(void *));
/**
 * kmem_cache_destroy() - destroy an empty cache
 * @cachep: the cache; NULL is ignored
 *
 * Quarantined objects are released first and every array is drained.
 * If objects are still allocated it reports them, warns and keeps the
 * cache, so that nothing dangles. A SLAB_TYPESAFE_BY_RCU cache waits for
 * its pending slabs (rcu_barrier()).
 *
 * Context: process context with interrupts on, outside an RCU reader;
 * waits for the other CPUs (IPIs) and, for SLAB_TYPESAFE_BY_RCU, for
 * RCU callbacks.
 */
void kmem_cache_destroy(struct kmem_cache *cachep);
/**
 * kmem_cache_shrink() - give a cache's free slabs back to the page allocator
 * @cachep: the cache
 *
 * Every CPU's array of the cache, then on every node the alien arrays
 * (their objects go home) and the shared array, are drained first, each
 * CPU its own array in an IPI.
 *
 * Context: interrupts on, not an interrupt handler; waits for the other
 * CPUs. With interrupts off it warns and drains only this CPU's array.
 * Return: 0 if the cache now has no slabs, 1 if some remain.
 */
int kmem_cache_shrink(struct kmem_cache *cachep);
/**
 * kmem_cache_shrink_all() - kmem_cache_shrink() every cache
 *
 * Context: as kmem_cache_shrink(); takes the cache list's lock.
 */
void kmem_cache_shrink_all(void);
/**
 * kmem_cache_cpu_release() - give this CPU's cached objects and pages back
 *
 * Description: every cache's array of this CPU goes back to its slabs,
 * and this CPU's page lists to the buddy lists: for a CPU (a malloc shim
 * thread) that stops allocating.
 *
 * Context: interrupts on, not an interrupt handler; else it warns and
 * releases nothing.
 */
void kmem_cache_cpu_release(void);
/**
 * slab_objects_in_use() - objects allocated and not yet freed
 *
 * Description: over all caches; the allocator's own off-slab index
 * arrays are not counted, nor objects freed into a quarantine (KASAN's,
 * slab_debug's). For leak checks.
 *
 * Context: interrupts on, not an interrupt handler: takes the cache
 * list's lock.
 * Return: the number of objects in use.
 */
long slab_objects_in_use(void);
/**
 * kmem_cache_walk() - call a function for every cache
 * @fn: called with each cache, oldest first, its objects in use (as
 *	slab_objects_in_use() counts them) and @data; it runs under the
 *	cache list's lock, so it must not create, destroy or shrink caches
 * @data: passed to @fn
 *
 * Context: interrupts on, not an interrupt handler: takes the cache
 * list's lock.
 */
void kmem_cache_walk(void (*fn)(struct kmem_cache *cachep, long in_use,
				void *data), void *data);
/**
 * kmem_cache_name() - a cache's name
 * @cachep: the cache
 *
 * Context: any context.
 * Return: the name, valid while the cache lives.
 */
const char *kmem_cache_name(const struct kmem_cache *cachep);

/**
 * kmem_cache_alloc() - allocate an object from a cache
 * @cachep: the cache
 * @flags: GFP flags for the slab pages if the cache must grow, as for
 *	alloc_pages(); __GFP_ZERO zeroes the object; a zone modifier the
 *	cache's pages do not satisfy is warned about and dropped
 *
 * Context: any context with GFP_ATOMIC or GFP_NOWAIT, as alloc_pages().
 * Return: the object, or NULL on failure.
 */
void *kmem_cache_alloc(struct kmem_cache *cachep, gfp_t flags) __malloc;
/**
 * kmem_cache_alloc_node() - allocate an object from a cache on a node
 * @cachep: the cache
 * @flags: GFP flags, as for kmem_cache_alloc(), and __GFP_THISNODE
 * @node: the node whose memory the object is in, or NUMA_NO_NODE
 *
 * NUMA_NO_NODE, and this CPU's memory node (numa_mem_id()), is
 * kmem_cache_alloc(). Another node's object comes from that node's
 * slabs, grown with that node's pages; when it has none, from the
 * nearest node that has (by node_distance()), unless __GFP_THISNODE,
 * which makes it NULL. An offline node's allocations come from the
 * nearest node (NULL with __GFP_THISNODE), as in Linux; a node id
 * below NUMA_NO_NODE or from MAX_NUMNODES up is warned about and
 * taken as NUMA_NO_NODE.
 *
 * Context: as kmem_cache_alloc().
 * Return: the object, or NULL on failure.
 */
void *kmem_cache_alloc_node(struct kmem_cache *cachep, gfp_t flags, int node)
	__malloc;
/**
 * kmem_cache_zalloc() - allocate a zeroed object from a cache
 * @cachep: the cache
 * @flags: GFP flags, as for kmem_cache_alloc(); __GFP_ZERO is added
 *
 * Context: as kmem_cache_alloc().
 * Return: the object, or NULL on failure.
 */
void *kmem_cache_zalloc(struct kmem_cache *cachep, gfp_t flags) __malloc;
/**
 * kmem_cache_free() - free an object to its cache
 * @cachep: the cache it was allocated from
 * @objp: the object; NULL is ignored
 *
 * On a debugged cache (slab_debug) a bad free is reported.
 *
 * Context: any context, interrupt handlers and interrupts off included;
 * never waits.
 */
void kmem_cache_free(struct kmem_cache *cachep, void *objp);
/**
 * kmem_cache_alloc_bulk() - allocate several objects from a cache
 * @cachep: the cache
 * @flags: GFP flags, as for kmem_cache_alloc()
 * @nr: how many objects
 * @p: an array of @nr pointers, filled in
 *
 * All or nothing: if one allocation fails, those made are freed.
 *
 * Context: as kmem_cache_alloc().
 * Return: @nr, or 0 on failure.
 */
int kmem_cache_alloc_bulk(struct kmem_cache *cachep, gfp_t flags, size_t nr,
			  void **p);
/**
 * kmem_cache_free_bulk() - free several objects to their cache
 * @cachep: the cache they were allocated from
 * @nr: how many objects
 * @p: the objects; a NULL among them is ignored
 *
 * Context: as kmem_cache_free().
 */
void kmem_cache_free_bulk(struct kmem_cache *cachep, size_t nr, void **p);
/**
 * kmem_cache_size() - the object size of a cache
 * @cachep: the cache
 *
 * Context: any context.
 * Return: the size given to kmem_cache_create().
 */
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
/**
 * __kmalloc() - kmalloc() of a size not known at compile time
 * @size: bytes wanted
 * @flags: GFP flags, as for kmalloc()
 *
 * Context: as kmalloc().
 * Return: as kmalloc().
 */
void *__kmalloc(size_t size, gfp_t flags) __alloc_size(1);
/**
 * kmalloc_trace() - kmalloc() from a cache chosen at compile time
 * @cachep: the kmalloc cache for @size
 * @flags: GFP flags, as for kmalloc()
 * @size: bytes wanted (what slab_debug remembers as asked for)
 *
 * Context: as kmalloc().
 * Return: the object, or NULL on failure.
 */
void *kmalloc_trace(struct kmem_cache *cachep, gfp_t flags, size_t size)
	__alloc_size(3);
/**
 * kmalloc_node() - kmalloc() on a node
 * @size: bytes wanted
 * @flags: GFP flags, as for kmalloc(), and __GFP_THISNODE
 * @node: the node whose memory the object is in, or NUMA_NO_NODE
 *
 * As kmem_cache_alloc_node() on the size's kmalloc cache; above 8 KiB
 * the pages come from alloc_pages_node() on @node.
 *
 * Context: as kmalloc().
 * Return: as kmalloc().
 */
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

/**
 * KMALLOC_STEP_INDEX() - the kmalloc_caches index of a step size class
 * @shift: the doubling's upper power of two, KMALLOC_SHIFT_STEPS up to
 *	KMALLOC_SHIFT_HIGH
 * @step: 0, 1 or 2: 5/4, 6/4 or 7/4 of 2^(@shift - 1)
 *
 * Context: any context (a constant expression).
 */
#define KMALLOC_STEP_INDEX(shift, step) \
	(KMALLOC_SHIFT_HIGH + 1 + KMALLOC_STEPS * ((shift) - KMALLOC_SHIFT_STEPS) + \
	 (step))

/*
 * kmalloc_caches[dma][index]; index 0 is unused. A row is padded to a
 * power of two, so that the lookup finds the DMA row by a shift.
 */
#define KMALLOC_ROW_SIZE	32
extern struct kmem_cache *kmalloc_caches[2][KMALLOC_ROW_SIZE];

/**
 * __kmalloc_index() - the kmalloc_caches index for a size
 * @size: 1 to KMALLOC_MAX_CACHE_SIZE bytes (larger sizes give
 *	KMALLOC_SHIFT_HIGH)
 *
 * Folded at compile time for a constant size. Above 256 bytes @size
 * lies in (2^(shift - 1), 2^shift], and which quarter of 2^(shift - 1)
 * it reaches, 4 to 7, picks a step (4 to 6) or the power of two (7).
 *
 * Context: any context.
 * Return: the index of the smallest class that holds @size.
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

/**
 * kmalloc() - allocate memory
 * @size: bytes wanted
 * @flags: GFP flags for the pages if a cache must grow or @size is large,
 *	as for alloc_pages(); __GFP_ZERO zeroes the memory, GFP_DMA takes
 *	the DMA caches
 *
 * The memory is at least 8-byte aligned, and a power-of-two size is
 * aligned to itself. Up to KMALLOC_MAX_CACHE_SIZE (8 KiB) it comes from
 * the kmalloc caches, above that as compound pages straight from the
 * page allocator. A size known at compile time picks its cache at
 * compile time. Free it with kfree().
 *
 * Context: any context with GFP_ATOMIC or GFP_NOWAIT, as alloc_pages().
 * Return: the memory; ZERO_SIZE_PTR for @size 0; NULL on failure.
 */
static __always_inline __alloc_size(1) void *kmalloc(size_t size, gfp_t flags)
{
	if (__builtin_constant_p(size) && __builtin_constant_p(flags & GFP_DMA) &&
	    size && size <= KMALLOC_MAX_CACHE_SIZE)
		return kmalloc_trace(kmalloc_caches[!!(flags & GFP_DMA)]
						   [__kmalloc_index(size)],
				     flags, size);
	return __kmalloc(size, flags);
}

/**
 * kfree() - free memory from kmalloc()
 * @objp: the pointer kmalloc() returned; NULL and ZERO_SIZE_PTR are
 *	ignored
 *
 * A pointer neither a slab object nor the start of a large allocation
 * is reported and not freed. While any cache is debugged (slab_debug)
 * it is also checked to lie in the direct map at all; otherwise a wild
 * pointer is the caller's bug.
 *
 * Context: any context, interrupt handlers and interrupts off included;
 * never waits.
 */
void kfree(const void *objp);
/**
 * kfree_sensitive() - zero memory from kmalloc(), then free it
 * @objp: the pointer; NULL and ZERO_SIZE_PTR are ignored
 *
 * For keys and passwords: the whole object is zeroed (on a debugged
 * cache, the bytes asked for).
 *
 * Context: as kfree().
 */
void kfree_sensitive(const void *objp);
/**
 * ksize() - the bytes usable in an allocation
 * @objp: a pointer from kmalloc()
 *
 * At least what was asked for, and the caller may use all of them: on
 * a red-zoned cache the object's tail stops being guarded, and under
 * KASAN the whole object becomes valid (Linux's rule). The compiler
 * knows only the size asked for (__alloc_size), so use the rest through
 * the pointer krealloc(objp, ksize(objp), gfp) returns: the same object.
 *
 * Context: any context.
 * Return: the object's capacity; 0 for NULL, ZERO_SIZE_PTR, (while a
 * cache is debugged) a pointer outside the direct map, or (under KASAN)
 * a freed object, which is reported.
 */
size_t ksize(const void *objp);
/**
 * __ksize() - the bytes an allocation holds, nothing more
 * @objp: a pointer from kmalloc() (not checked)
 *
 * ksize()'s capacity without its checks and side effects (Linux's
 * __ksize()): nothing is unpoisoned or unguarded, so on a debugged cache
 * or under KASAN only the bytes asked for may be used.
 *
 * Context: any context.
 * Return: the object's capacity; 0 for NULL and ZERO_SIZE_PTR.
 */
size_t __ksize(const void *objp);
/**
 * kmem_valid_obj() - could kfree() free this pointer
 * @obj: the pointer
 *
 * kfree_rcu() checks its pointer with it.
 *
 * Context: any context.
 * Return: true if @obj lies in a slab's pages or is the start of a large
 * kmalloc allocation; false for NULL, ZERO_SIZE_PTR and addresses
 * outside the direct map.
 */
bool kmem_valid_obj(const void *obj);
/**
 * krealloc() - resize memory from kmalloc()
 * @p: the memory; NULL or ZERO_SIZE_PTR allocates anew
 * @new_size: the new size; 0 frees @p and returns ZERO_SIZE_PTR
 * @flags: GFP flags, as for kmalloc()
 *
 * The object stays where it is if it holds @new_size and moving would
 * save less than half of it (or it has at most 64 bytes); else the
 * contents move to a new object and @p is freed. A shrink that cannot
 * move keeps @p.
 *
 * Context: as kmalloc().
 * Return: the resized memory, or NULL on failure (@p then untouched).
 */
void *krealloc(const void *p, size_t new_size, gfp_t flags) __realloc_size(2);

/**
 * kzalloc() - allocate zeroed memory
 * @size: bytes wanted
 * @flags: GFP flags, as for kmalloc(); __GFP_ZERO is added
 *
 * Context: as kmalloc().
 * Return: as kmalloc().
 */
static inline __alloc_size(1) void *kzalloc(size_t size, gfp_t flags)
{
	return kmalloc(size, flags | __GFP_ZERO);
}

/**
 * kmalloc_array() - allocate memory for an array
 * @n: the number of elements
 * @size: the size of one element
 * @flags: GFP flags, as for kmalloc()
 *
 * Context: as kmalloc().
 * Return: @n * @size bytes as from kmalloc(), or NULL if the product
 * overflows or on failure.
 */
static inline __alloc_size(1, 2) void *kmalloc_array(size_t n, size_t size,
						    gfp_t flags)
{
	size_t bytes;

	if (unlikely(check_mul_overflow(n, size, &bytes)))
		return NULL;
	return kmalloc(bytes, flags);
}

/**
 * kcalloc() - allocate a zeroed array
 * @n: the number of elements
 * @size: the size of one element
 * @flags: GFP flags, as for kmalloc(); __GFP_ZERO is added
 *
 * Context: as kmalloc().
 * Return: as kmalloc_array().
 */
static inline __alloc_size(1, 2) void *kcalloc(size_t n, size_t size,
						      gfp_t flags)
{
	return kmalloc_array(n, size, flags | __GFP_ZERO);
}

/**
 * kmem_cache_validate() - check a cache's slabs (slab_debug on demand)
 * @cachep: the cache
 *
 * Checks the slabs, their lists, the counters, the array caches and,
 * where the cache has them, every object's red zones and poison. Each
 * problem is reported.
 *
 * Context: any context; spins on the cache's locks with interrupts off.
 * Return: the number of problems found; 0 if none.
 */
int kmem_cache_validate(struct kmem_cache *cachep);
/**
 * slab_validate_all() - kmem_cache_validate() every cache
 *
 * Context: interrupts on, not an interrupt handler: takes the cache
 * list's lock.
 * Return: the number of problems found over all caches.
 */
int slab_validate_all(void);
/**
 * kmem_cache_release_quarantine() - free a cache's quarantined objects
 * @cachep: the cache
 *
 * Objects slab_debug found corrupted when about to hand them out are
 * quarantined: kept allocated and never handed out. This gives them
 * back to the cache; kmem_cache_destroy() does it too.
 *
 * Context: any context; spins on the cache's node lock with interrupts
 * off.
 */
void kmem_cache_release_quarantine(struct kmem_cache *cachep);

/* kmemdup, kstrdup, krealloc_array, KMEM_CACHE... (mm/util.c) */
#include "mm/util.h"

#endif /* MM_SLAB_H */

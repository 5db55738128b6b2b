/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The slab allocator: kmalloc and object caches (Linux's SLAB).
 *
 * The first half of this header is the API, Linux's <linux/slab.h>. The
 * second half is the allocator's own data: struct kmem_cache with its
 * per-CPU and per-node parts, and struct slab, which is not a structure
 * of its own but a typed view of the first struct page of each slab.
 */
#ifndef MM_SLAB_H
#define MM_SLAB_H

#include "lib/list.h"
#include "kernel/spinlock.h"
#include "mm/gfp.h"
#include "mm/mm.h"

/* --- API -------------------------------------------------------------- */

typedef unsigned int slab_flags_t;

#define SLAB_CONSISTENCY_CHECKS	0x00000100u	/* slab_debug F: check every free */
#define SLAB_RED_ZONE		0x00000400u	/* slab_debug Z: guard bytes around objects */
#define SLAB_POISON		0x00000800u	/* slab_debug P: fill free objects, check on reuse */
#define SLAB_HWCACHE_ALIGN	0x00002000u	/* align objects to cache lines */
#define SLAB_CACHE_DMA		0x00004000u	/* slab pages from ZONE_DMA */
#define SLAB_STORE_USER		0x00010000u	/* slab_debug U: remember who allocated and freed */
#define SLAB_PANIC		0x00040000u	/* panic if creation fails */
#define SLAB_TYPESAFE_BY_RCU	0x00080000u	/* pages freed after a grace period */
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

void *kmem_cache_alloc(struct kmem_cache *cachep, gfp_t flags);
void *kmem_cache_alloc_node(struct kmem_cache *cachep, gfp_t flags, int node);
void *kmem_cache_zalloc(struct kmem_cache *cachep, gfp_t flags);
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
void *__kmalloc(size_t size, gfp_t flags);
void *kmalloc_trace(struct kmem_cache *cachep, gfp_t flags, size_t size);
void *kmalloc_node(size_t size, gfp_t flags, int node);

/* kmalloc_caches[dma][i] holds objects of 2^i bytes, i = 1: 96, 2: 192. */
extern struct kmem_cache *kmalloc_caches[2][KMALLOC_SHIFT_HIGH + 1];

/* The kmalloc_caches index for 1..8192 bytes, folded for a constant size. */
static __always_inline unsigned int __kmalloc_index(size_t size)
{
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
	for (unsigned int i = 8; i < KMALLOC_SHIFT_HIGH; i++) {
		if (size <= 1UL << i)
			return i;
	}
	return KMALLOC_SHIFT_HIGH;
}

static __always_inline void *kmalloc(size_t size, gfp_t flags)
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
 * guarded.
 */
size_t ksize(const void *objp);
/*
 * Resize: in place when ksize() allows, else copy to a new object and
 * free the old. new_size 0 frees and returns ZERO_SIZE_PTR; on failure
 * returns NULL and leaves p untouched.
 */
void *krealloc(const void *p, size_t new_size, gfp_t flags);

static inline void *kzalloc(size_t size, gfp_t flags)
{
	return kmalloc(size, flags | __GFP_ZERO);
}

/* n * size bytes; NULL if the product overflows. */
static inline void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return kmalloc(bytes, flags);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	return kmalloc_array(n, size, flags | __GFP_ZERO);
}

/* Boot: create the kmem_cache cache and the kmalloc caches. */
void kmem_cache_init(void);

/*
 * slab_debug on demand (mm/slab_debug.c). kmem_cache_validate() checks a
 * cache's slabs, lists, counters, array caches and, where the cache has
 * them, every object's red zones and poison; it reports each problem and
 * returns how many it found. slab_validate_all() does every cache.
 * Objects found corrupted when about to be handed out are quarantined:
 * kept allocated and never handed out; kmem_cache_release_quarantine()
 * gives them back (kmem_cache_destroy does it too).
 * slab_debug_checks counts the debug checks run, so tests can see that
 * a cache without debugging runs none.
 */
int kmem_cache_validate(struct kmem_cache *cachep);
int slab_validate_all(void);
void kmem_cache_release_quarantine(struct kmem_cache *cachep);
extern atomic_long_t slab_debug_checks;

/*
 * failslab was switched on or off (mm/fault_inject.c): while it is on,
 * every allocation takes the slow path, where the decision is made.
 */
void slab_failslab_changed(void);

/* Pages in slabs, for meminfo; /proc/slabinfo on the console. */
unsigned long slab_pages(void);
void slabinfo_show(void);

/* The kmalloc cache for size (NULL above 8 KiB). */
struct kmem_cache *kmalloc_slab(size_t size, gfp_t flags);

/* --- the allocator's data ------------------------------------------- */

/*
 * Per-CPU (and per-node shared) stack of free objects: the fast path
 * pops and pushes entry[avail]. limit is its size, batchcount how many
 * objects move at a time between it and the slabs.
 */
/*
 * touched: the array has been refilled, so its next refill may take a
 * whole batch. Linux also sets it on every allocation from the array,
 * for cache_reap, which clears it every two seconds to find idle arrays
 * to drain. There is no cache_reap here (nothing drains idle arrays), so
 * the allocation fast path leaves it alone: a store on every allocation
 * that nothing would read (it measured 9% of a kmalloc+kfree pair).
 */
struct array_cache {
	unsigned int avail;
	unsigned int limit;
	unsigned int batchcount;
	unsigned int touched;
	void *entry[];
};

struct kmem_cache_node {
	spinlock_t list_lock;
	struct list_head slabs_partial;	/* some objects in use */
	struct list_head slabs_full;	/* all objects in use */
	struct list_head slabs_free;	/* no object in use */
	unsigned long total_slabs;
	unsigned long free_slabs;
	unsigned long free_objects;	/* in slabs, not in array caches */
	unsigned int free_limit;	/* above this, free slabs go back */
	unsigned int colour_next;
	struct array_cache *shared;
};

/* Where a slab keeps its array of free object indices. */
enum slab_freelist_place {
	FREELIST_ON_SLAB,	/* at the colour offset, before s_mem */
	FREELIST_OFF_SLAB,	/* in an object of freelist_cache */
	FREELIST_IN_OBJECT,	/* inside the slab's last free object */
};

struct reciprocal_value {
	u32 m;
	u8 sh1, sh2;
};

struct kmem_cache {
	struct array_cache *cpu_cache[NR_CPUS];
	unsigned int batchcount;
	unsigned int limit;
	unsigned int shared;

	unsigned int size;		/* object stride in the slab */
	struct reciprocal_value reciprocal_buffer_size;
	slab_flags_t flags;
	unsigned int num;		/* objects per slab */
	unsigned int gfporder;		/* slab = 2^gfporder pages */
	gfp_t allocflags;		/* GFP_DMA for SLAB_CACHE_DMA */

	unsigned int colour;		/* number of colours */
	unsigned int colour_off;	/* bytes per colour step */
	enum slab_freelist_place freelist_place;
	unsigned int freelist_idx_size;	/* 1 or 2 bytes per index */
	unsigned int freelist_size;	/* num * freelist_idx_size */
	struct kmem_cache *freelist_cache;	/* FREELIST_OFF_SLAB */

	void (*ctor)(void *obj);
	const char *name;
	struct list_head list;		/* on slab_caches */
	unsigned int object_size;	/* as asked for */
	unsigned int align;

	struct kmem_cache_node *node[MAX_NUMNODES];

	/* SLAB_FREELIST_RANDOM: a permutation of 0..num-1, and its PRNG. */
	u16 *random_seq;
	u64 random_state;

	/* slab_debug (mm/slab_debug.c); all 0 for a cache without it. */
	unsigned int obj_offset;	/* red zone before each object */
	unsigned int debug_offset;	/* object to its slab_debug_info */
	void *quarantine;		/* corrupted objects kept out of use */
	unsigned long nr_quarantined;
};

/*
 * struct slab: the slab's bookkeeping, overlaid on its first struct page
 * (the seed patch set "slab: overload struct slab over struct page"):
 *
 *   slab_list  on the node's full, partial or free list (page->lru)
 *   rcu_head   the same words, once the slab is off every list and
 *              waits for its grace period (SLAB_TYPESAFE_BY_RCU)
 *   slab_cache the cache it belongs to
 *   freelist   array of free object indices: freelist[active..num) are
 *              the free objects, the next to hand out at [active]
 *   s_mem      the first object
 *   active     objects in use
 *
 * PG_slab marks the first page only (slab pages are compound: the others
 * are tails pointing to it); PG_active on it says the pages came from the
 * emergency reserve (pfmemalloc), as in Linux.
 */
struct slab {
	unsigned long __page_flags;
	union {
		struct list_head slab_list;
		struct rcu_head rcu_head;
	};
	struct kmem_cache *slab_cache;
	void *freelist;
	void *s_mem;
	unsigned int active;
	atomic_t __page_refcount;
	unsigned long __page_alloc_info;
};

#define SLAB_MATCH(pg, sl)						\
	_Static_assert(offsetof(struct page, pg) == offsetof(struct slab, sl), \
		       "struct slab: " #sl " must overlay struct page's " #pg)
SLAB_MATCH(flags, __page_flags);
SLAB_MATCH(lru, slab_list);
SLAB_MATCH(compound_head, slab_list);	/* bit 0 clear: not a tail */
SLAB_MATCH(_refcount, __page_refcount);
SLAB_MATCH(alloc_order, __page_alloc_info);
#undef SLAB_MATCH
_Static_assert(sizeof(struct slab) <= sizeof(struct page),
	       "struct slab must fit in struct page");
_Static_assert(sizeof(struct rcu_head) <= sizeof(struct list_head),
	       "rcu_head must fit over slab_list");

static inline struct slab *page_slab(const struct page *page)
{
	return (struct slab *)page;
}

static inline struct page *slab_page(const struct slab *slab)
{
	return (struct page *)slab;
}

static inline void *slab_address(const struct slab *slab)
{
	return page_address(slab_page(slab));
}

/* The slab holding the object at addr, or NULL if it is not a slab's. */
static inline struct slab *virt_to_slab(const void *addr)
{
	struct page *page = compound_head(virt_to_page(addr));

	return PageSlab(page) ? page_slab(page) : NULL;
}

static inline bool slab_test_pfmemalloc(const struct slab *slab)
{
	return PageActive(slab_page(slab));
}

/* Does any slab of reserve pages exist (the fast paths then step aside)? */
bool slab_pfmemalloc_active(void);

#endif /* MM_SLAB_H */

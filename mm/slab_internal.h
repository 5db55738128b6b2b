/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The slab allocator's internals (Linux keeps them in mm/slab.h, apart
 * from the API in <linux/slab.h>): struct kmem_cache with its per-CPU
 * array caches and per-node lists, struct slab (the view of a slab's
 * first struct page, with its converters), and what mm/slab.c,
 * mm/slab_common.c and mm/slab_debug.c share.
 *
 * Only mm/ and white-box tests, benchmarks and the fuzzer include this
 * header; a caller of kmalloc includes mm/slab.h alone.
 */
#ifndef MM_SLAB_INTERNAL_H
#define MM_SLAB_INTERNAL_H

#include "kernel/report.h"
#include "kernel/spinlock.h"
#include "lib/list.h"
#include "mm/slab.h"
#include "mm/slab_stats.h"

/*
 * Per-CPU (and per-node shared) stack of free objects: the fast path
 * pops and pushes entry[avail]. limit is its size, batchcount how many
 * objects move at a time between it and the slabs.
 */
/*
 * touched: the array has been refilled, so its next refill may take a
 * whole batch; cache_reap clears it when it drains an idle array.
 *
 * used, armed_limit: cache_reap's signal that the array is in use.
 * Linux sets touched on every allocation for it: one more instruction
 * in the allocation fast path (64 to 65 per kmalloc+kfree iteration
 * under cachegrind). Here the fast paths store nothing more: a pass that
 * finds the array used clears used and arms it, the real limit going to
 * armed_limit and limit to 0, so the next free leaves the fast path and
 * the slow path (or a refill) puts the limit back and sets used. An
 * array still armed at the next pass saw no free and no refill for a
 * whole period: it is idle (mm/slab_reap.c). idle says the last pass
 * found it idle too: this one empties it.
 */
struct array_cache {
	unsigned int avail;
	unsigned int limit;
	unsigned int batchcount;
	unsigned char touched;
	unsigned char used;
	unsigned short idle;		/* idle at cache_reap's last pass */
	unsigned int armed_limit;	/* nonzero: armed, the real limit */
	void *entry[];
};

/*
 * Whether two addresses share their offset in a 4 KiB page, to the
 * 8-byte word: a load that follows a store so placed is held back by
 * the CPU as if it read what was stored (4K aliasing).
 */
static inline bool aliases_4k(const void *a, const void *b)
{
	return !((((unsigned long)a ^ (unsigned long)b) & (PAGE_SIZE - 1)) >> 3);
}

/*
 * The bytes between two CPUs' arrays of limit entries in their node's
 * block (mm/slab_common.c, alloc_cpu_arrays()): whole cache lines, so
 * that no two CPUs write one line.
 */
static inline unsigned int cpu_array_stride(unsigned int limit)
{
	return ALIGN(sizeof(struct array_cache) + limit * sizeof(void *),
		     L1_CACHE_BYTES);
}

struct alien_cache;

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
	unsigned int free_touched;	/* a free slab was taken (cache_reap) */
	unsigned int free_idle;		/* none taken before the last pass */
	unsigned long next_reap;	/* jiffies: cache_reap's next node pass */
	struct array_cache *shared;
	/*
	 * Objects of node i freed by this node's CPUs, on their way home
	 * in batches (alien[this node] stays NULL; all NULL on one node).
	 */
	struct alien_cache *alien[MAX_NUMNODES];
	struct slab_node_stats stats;	/* slab_stats (mm/slab_stats.h) */
};

/*
 * An alien array: shared by the CPUs of one node, so it has a lock of
 * its own (taken before the home node's list_lock, never after).
 */
struct alien_cache {
	spinlock_t lock;
	struct array_cache ac;
};

/* Where a slab keeps its array of free object indices. */
enum slab_freelist_place {
	FREELIST_ON_SLAB,	/* at the colour offset, before s_mem */
	FREELIST_OFF_SLAB,	/* in an object of freelist_cache */
	FREELIST_IN_OBJECT,	/* inside the slab's last free object */
};

/*
 * offset_to_index() multiplies an object's offset in its
 * slab by reciprocal_buffer_size, 2^SLAB_RECIPROCAL_SHIFT / size
 * rounded up, and shifts: exact for every offset inside a slab of at
 * most 4 MiB (mm/slab_common.c checks it per cache).
 */
#define SLAB_RECIPROCAL_SHIFT	44

/*
 * The index of the object at offset bytes into a slab's objects, given
 * the cache's reciprocal_buffer_size (a multiply and a shift, no divide).
 */
static inline unsigned int offset_to_index(unsigned long offset, u64 recip)
{
	return (offset * recip) >> SLAB_RECIPROCAL_SHIFT;
}

struct kmem_cache {
	unsigned int batchcount;
	unsigned int limit;
	unsigned int shared;

	unsigned int size;		/* object stride in the slab */
	u64 reciprocal_buffer_size;	/* see SLAB_RECIPROCAL_SHIFT */
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

	/* Where cpu_cache[] point, by node (none: boot arrays). */
	void *cpu_blocks[MAX_NUMNODES];
	/* Last: nr_cpu_ids of them (mm/slab_common.c). */
	struct array_cache *cpu_cache[];
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
 * emergency reserve (pfmemalloc), as in Linux. Unlike Linux, the other
 * pages carry PG_slab_tail and the cache too, in the word slab_cache
 * takes (mapping, unused in a tail page): kfree() finds an object's
 * cache from the object's own page, without compound_head()
 * (page_slab_cache()). The page allocator clears both when the pages
 * are freed (destroy_compound_page()).
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

/*
 * The compiler checks the overlay: one assertion per word struct slab
 * shares with struct page (the table in mm/mm_types.h). The words the
 * page allocator and compound pages read (flags, compound_head,
 * _refcount, alloc_order) keep their places; each slab field sits on
 * the page word it replaces.
 */
#define SLAB_MATCH(pg, sl)						\
	_Static_assert(offsetof(struct page, pg) == offsetof(struct slab, sl), \
		       "struct slab: " #sl " must overlay struct page's " #pg)
SLAB_MATCH(flags, __page_flags);
SLAB_MATCH(lru, slab_list);
SLAB_MATCH(compound_head, slab_list);	/* bit 0 clear: not a tail */
SLAB_MATCH(rcu_head, rcu_head);
SLAB_MATCH(mapping, slab_cache);
SLAB_MATCH(index, freelist);
SLAB_MATCH(private, s_mem);
SLAB_MATCH(page_type, active);
SLAB_MATCH(_refcount, __page_refcount);
SLAB_MATCH(alloc_order, __page_alloc_info);
#undef SLAB_MATCH
_Static_assert(sizeof(struct slab) <= sizeof(struct page),
	       "struct slab must fit in struct page");
_Static_assert(sizeof(struct rcu_head) <= sizeof(struct list_head),
	       "rcu_head must fit over slab_list");

/*
 * The two views of a slab's first page. Like Linux's, the converters
 * keep const: a const struct page * gives a const struct slab *, and
 * the other way round.
 */
#define page_slab(p)	(_Generic((p),					\
	const struct page *:	(const struct slab *)(p),		\
	struct page *:		(struct slab *)(p)))

#define slab_page(s)	(_Generic((s),					\
	const struct slab *:	(const struct page *)(s),		\
	struct slab *:		(struct page *)(s)))

static inline void *slab_address(const struct slab *slab)
{
	return page_address(slab_page(slab));
}

#define SLAB_PAGE_FLAGS	((1UL << PG_slab) | (1UL << PG_slab_tail))

/* Is page one of a slab's pages, the first or another? */
static inline bool page_in_slab(const struct page *page)
{
	return page->flags & SLAB_PAGE_FLAGS;
}

/* The cache of the slab page belongs to (page_in_slab(): any of its pages). */
static inline struct kmem_cache *page_slab_cache(const struct page *page)
{
	return page_slab(page)->slab_cache;
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

/*
 * Boot: with several nodes online, frees go by the node checks
 * (mm/slab.c, section 8).
 */
void slab_nodes_init(void);

/* Does any slab of reserve pages exist (the fast paths then step aside)? */
bool slab_pfmemalloc_active(void);

/*
 * cache_reap (mm/slab_reap.c): one pass over cachep on this CPU, run from
 * its delayed work with interrupts on; adds what it gave back to *r.
 */
struct cache_reap_result {
	unsigned long objects;		/* from idle arrays to their slabs */
	unsigned long slabs;		/* free slabs to the page allocator */
	unsigned long unreserved;	/* reserve slabs made ordinary */
};
void cache_reap_one(struct kmem_cache *cachep, struct cache_reap_result *r,
		    unsigned long node_period);

/* Boot: create the kmem_cache cache and the kmalloc caches. */
void kmem_cache_reserve_boot(void);
void kmem_cache_init(void);

/* The kmalloc cache for size (NULL above 8 KiB). */
struct kmem_cache *kmalloc_slab(size_t size, gfp_t flags);

/*
 * failslab was switched on or off (mm/fault_inject.c): while it is on,
 * every allocation takes the slow path, where the decision is made.
 */
void slab_failslab_changed(void);

/*
 * Pages in slabs, for meminfo; /proc/slabinfo on the console, every
 * cache or (name not NULL) the header and that cache's line; -ENOENT if
 * there is no cache of that name.
 */
unsigned long slab_pages(void);
/* Of those, in SLAB_RECLAIM_ACCOUNT caches (SReclaimable). */
unsigned long slab_reclaimable_pages(void);
int slabinfo_show(const char *name);

/*
 * Debug checks run by slab_debug (mm/slab_debug.c), so tests can see
 * that a cache without debugging runs none.
 */
extern atomic_long_t slab_debug_checks;

#define SLAB_MAX_NUM_1BYTE	256	/* objects a 1-byte index can name */
#define SLAB_MAX_NUM_2BYTE	65535

static inline struct array_cache *cpu_cache_get(struct kmem_cache *cachep)
{
	return cachep->cpu_cache[arch_cpu_id()];
}

/* The cache's lists on node nid (NULL for an offline node). */
static inline struct kmem_cache_node *get_node(struct kmem_cache *cachep,
					       int nid)
{
	return cachep->node[nid];
}

/* Every node the cache has lists on (every online node). */
/* The first node from *nid on with lists (*nid = MAX_NUMNODES: none). */
static inline struct kmem_cache_node *
next_kmem_cache_node(struct kmem_cache *cachep, int *nid)
{
	for (; *nid < MAX_NUMNODES; (*nid)++)
		if (get_node(cachep, *nid))
			return get_node(cachep, *nid);
	return NULL;
}

#define for_each_kmem_cache_node(cachep, nid, n)			\
	for ((nid) = 0; ((n) = next_kmem_cache_node(cachep, &(nid)));	\
	     (nid)++)

/* The cache's lists on its lowest online node (locks per-cache state). */
static inline struct kmem_cache_node *
first_kmem_cache_node(struct kmem_cache *cachep)
{
	struct kmem_cache_node *n;
	int nid;

	for_each_kmem_cache_node(cachep, nid, n)
		return n;
	return NULL;
}

/* A slab's node is its pages' (the seed's "remove nodeid in struct slab"). */
static inline int slab_nid(const struct slab *slab)
{
	return page_to_nid(slab_page(slab));
}

/* Entry i of a slab's index array (1- or 2-byte indices). */
/*
 * The index array may live in a free object (FREELIST_IN_OBJECT), which
 * KASAN keeps poisoned: SLAB's own accesses to it are not checked.
 */
static inline __no_sanitize_address
unsigned int get_free_obj(const struct kmem_cache *cachep,
			  const struct slab *slab, unsigned int i)
{
	if (cachep->freelist_idx_size == 1)
		return ((const u8 *)slab->freelist)[i];
	return ((const u16 *)slab->freelist)[i];
}

static inline __no_sanitize_address
void set_free_obj(const struct kmem_cache *cachep, struct slab *slab,
		  unsigned int i, unsigned int idx)
{
	if (cachep->freelist_idx_size == 1)
		((u8 *)slab->freelist)[i] = (u8)idx;
	else
		((u16 *)slab->freelist)[i] = (u16)idx;
}

static inline void *index_to_obj(const struct kmem_cache *cachep,
				 const struct slab *slab, unsigned int idx)
{
	return (char *)slab->s_mem + cachep->size * idx;
}

static inline bool cache_debug(const struct kmem_cache *cachep)
{
	return cachep->flags & SLAB_DEBUG_FLAGS;
}

/*
 * init_on_alloc and init_on_free for an object, Linux's rules: a cache
 * with a constructor or SLAB_TYPESAFE_BY_RCU keeps its objects' contents
 * (they are valid while free), and slab_debug's poison wins; such caches
 * are zeroed on allocation only for __GFP_ZERO (and a constructor's not
 * at all while init_on_alloc is on, as in Linux).
 */
static inline bool slab_want_init_on_alloc(gfp_t flags,
					   const struct kmem_cache *cachep)
{
	if (READ_ONCE(init_on_alloc)) {
		if (cachep->ctor)
			return false;
		if (cachep->flags & (SLAB_TYPESAFE_BY_RCU | SLAB_POISON))
			return flags & __GFP_ZERO;
		return true;
	}
	return flags & __GFP_ZERO;
}

static inline bool slab_want_init_on_free(const struct kmem_cache *cachep)
{
	return READ_ONCE(init_on_free) && !cachep->ctor &&
	       !(cachep->flags & (SLAB_TYPESAFE_BY_RCU | SLAB_POISON));
}

/*
 * Parse a slab_debug= value (Linux's slub_debug syntax) and give the
 * flags it sets for the cache name (NULL: check the syntax only).
 */
int slab_debug_parse(const char *spec, const char *name, slab_flags_t *flags);
/* The slab_debug flags for a new cache of that name (slab_debug=...). */
slab_flags_t slab_debug_boot_flags(const char *name);
/* Object stride and offsets for a debugged cache (before slab sizing). */
void slab_debug_layout(struct kmem_cache *cachep);
/* A new slab's object: put it in the state of a free object. */
void slab_debug_init_obj(struct kmem_cache *cachep, void *objp);
/*
 * Free objp past KASAN's hook: for objects KASAN has taken already (its
 * quarantine gives them back through here). Interrupts on or off.
 */
void ___cache_free(struct kmem_cache *cachep, void *objp,
		   unsigned long caller);
/* The allocation and free paths of a debugged cache. */
void *slab_debug_alloc(struct kmem_cache *cachep, gfp_t flags, int nid,
		       size_t orig_size, unsigned long caller);
void slab_debug_free(struct kmem_cache *cachep, void *objp,
		     unsigned long caller);
/*
 * While some cache is debugged, kfree, ksize, krealloc and kfree_sensitive
 * first check that the pointer is in the direct map at all; what names
 * the call in the report.
 */
bool slab_debug_ptr_ok(const void *objp, const char *what,
		       unsigned long caller);
/* A kfree or ksize of a pointer that is not an object start. */
void slab_report_bad_ptr(const void *ptr, unsigned long caller,
			 enum report_kind kind, const char *problem);
/* Bytes the caller asked for (kmalloc red zone), and resizing it. */
size_t slab_debug_orig_size(struct kmem_cache *cachep, const void *objp);
void slab_debug_set_orig_size(struct kmem_cache *cachep, void *objp,
			      size_t size);
/* Is objp in the cache's quarantine? */
bool slab_debug_quarantined(struct kmem_cache *cachep, const void *objp);
/*
 * Debugged caches that exist. Changed only under slab_lock (creating and
 * destroying a cache, mm/slab_common.c); read without it.
 */
extern unsigned int slab_nr_debug_caches;
/* slab_nr_debug_caches changed: kfree's fast path test follows it. */
void slab_fastpath_update(void);

/*
 * One object straight from the slabs of node nid (NUMA_NO_NODE: this
 * CPU's memory node) / back to its slab (no per-CPU arrays).
 */
void *cache_alloc_one(struct kmem_cache *cachep, gfp_t flags, int nid);
void cache_free_one(struct kmem_cache *cachep, void *objp);

/*
 * Give every object in ac back to its slab; they are all of node nid
 * (an array holds only its CPU's or node's own objects).
 */
void drain_array(struct kmem_cache *cachep, struct array_cache *ac, int nid);
/* Send every object in the node's alien arrays home. */
void drain_alien_caches(struct kmem_cache *cachep, struct kmem_cache_node *n);
void __release_slab_list(struct kmem_cache *cachep, struct list_head *list);

/*
 * Give every slab on list back to the page allocator (taken off the
 * node's lists under its lock; called after dropping it). Most calls
 * find the list empty: that is a test, no call.
 */
static inline void release_slab_list(struct kmem_cache *cachep,
				     struct list_head *list)
{
	if (!list_empty(list))
		__release_slab_list(cachep, list);
}
/* Give the cache's free slabs back to the page allocator. */
void drain_free_slabs(struct kmem_cache *cachep);
/*
 * fn on every cache, if slab_lock is free (trylock): 0, or -EBUSY when
 * it is held, by this CPU's caller or another CPU (mm/vmscan.c).
 */
int kmem_cache_reclaim_walk(void (*fn)(struct kmem_cache *cachep, void *data),
			    void *data);

#endif /* MM_SLAB_INTERNAL_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * SLAB: Bonwick's object caches as Linux ships them, with the slab's
 * bookkeeping inside its first struct page (the 2013 patch set "slab:
 * overload struct slab over struct page to reduce memory usage").
 *
 * 1. Data. A cache (struct kmem_cache) hands out objects of one size.
 *    Its objects live in slabs: 2^gfporder contiguous pages (a compound
 *    page) cut into num objects of size bytes each, starting at s_mem
 *    after a colour offset. A slab's state is struct slab, a view of the
 *    first struct page (mm/slab_internal.h): no separate descriptor. Free
 *    objects of a slab are a stack of indices, freelist[active..num):
 *
 *        allocate: obj = s_mem + size * freelist[active++]
 *        free:     freelist[--active] = (obj - s_mem) / size
 *
 *    The division is a multiply by a precomputed reciprocal and a shift
 *    (offset_to_index()). An index is one byte when num <= 256, two
 *    otherwise. Refills and flushes move objects between an array and
 *    a slab in tight loops (slab_get_objs(), put_objs()), reading the
 *    slab's fields once for the run of objects that are its; a new
 *    slab's first batch is s_mem, s_mem + size... without reading its
 *    index stack (alloc_block()), and arrays copy their batches inline
 *    (copy_entries()).
 *
 * 2. Where the freelist lives, chosen per cache by waste (set_slab_cache):
 *    inside the slab's last free object (zero bytes: that object is
 *    handed out last, and the array moves into the first object freed
 *    into the then-full slab; impossible with a constructor or RCU);
 *    off-slab, in an object of a kmalloc cache (freelist_cache), when
 *    that gains objects and the index array is small against an object,
 *    tried first for objects of 512 bytes and more (size_slab);
 *    else on-slab at the colour offset, objects after it.
 *
 * 3. Layers. Allocation pops from the per-CPU array_cache (a LIFO of
 *    hot objects); an empty one is refilled with batchcount objects from
 *    its node's shared array (section 8), then from partial slabs, then free slabs,
 *    then a new slab. Free pushes onto the per-CPU array; a full one
 *    moves batchcount objects to the shared array, or back to their
 *    slabs. Slabs move between the node's full, partial and free lists;
 *    free slabs beyond free_limit objects go back to the page allocator.
 *    cache_reap (the end of this file, driven by mm/slab_reap.c) trims
 *    idle arrays and free slabs over time.
 *
 * 4. pfmemalloc. A slab made of pages from the page allocator's reserve
 *    (PG_pfmemalloc) is marked on its first page (PG_active), and only
 *    callers allowed to use the reserve (__GFP_MEMALLOC) may get its
 *    objects. They never enter an array cache, so no array hands one to
 *    anybody else: a reserve user takes one object at a time straight
 *    from the slab, and a free puts it straight back (as Linux has done
 *    since it dropped the seed's bit-0 marks in the arrays). Only frees
 *    pay: while such a slab exists, kfree leaves its fast path to look
 *    at the slab. Reserve mode ends on its own: an empty reserve slab
 *    goes back to the page allocator at once, and once memory is back
 *    above the low watermark a reserve slab met by an allocation or a
 *    free becomes an ordinary one, and so does every reserve slab at
 *    cache_reap's next pass over its node (mm/slab_reap.c), so the
 *    reserve state ends even if nobody meets them.
 *
 * 5. Bootstrap (Linux's staged one). The cache of struct kmem_cache is a
 *    static structure; it and the kmalloc caches start with one-entry
 *    array caches and nodes from static pools (slab_state PARTIAL), and
 *    once kmalloc works (UP) every cache gets arrays sized for it. The
 *    boot caches keep their static nodes.
 *
 *    Cache geometry, creation, destruction, bootstrap and statistics are
 *    in mm/slab_common.c; this file is the allocator at work.
 *
 *    kmalloc is 28 caches (and their DMA twins): Linux's classes and,
 *    above 256 bytes, three between each two powers of two (mm/slab.h),
 *    found from the size by one table load (kmalloc_index).
 *
 * 6. Locking. Per-CPU arrays are touched only by their CPU: the fast
 *    paths' pop and push are restartable sequences (kernel/rseq.h,
 *    <asm/rseq.h>) that leave the interrupt flag alone: the CPU number
 *    is read first (code never changes CPU), then cpu_cache[cpu], the
 *    count, the entry, and the one store that matters, the count's, is
 *    the last instruction; an interrupt inside rewinds to the start
 *    before its handler runs, so the handler may pop and push, drain or
 *    swap the array, and the sequence reads it all again. Everything
 *    else (slow paths, bulk, drains, cache_reap, tuning) touches the
 *    array with interrupts off. Node lists, counters and the shared
 *    array under that node's n->list_lock; an alien array under its own
 *    lock, then its home node's list_lock; the cache list under
 *    slab_lock. Shrink, destroy and do_tune_cpucache reach other CPUs'
 *    arrays through on_each_cpu() (kernel/smp.h): each CPU drains or
 *    swaps its own array in its call-function interrupt, which restarts
 *    a fast path it lands in. So they must run with interrupts on,
 *    outside interrupt handlers (WARNING otherwise, and only this CPU's
 *    array is drained), and their callers may hold only locks that no
 *    CPU ever spins on with interrupts off, or the IPI would wait on
 *    that CPU for ever: of the lock order, only slab_lock (always taken
 *    with interrupts on; reclaim only trylocks it). Reclaim drains only
 *    this CPU's arrays. A CPU that takes no IPIs (the malloc shim's
 *    CPUs are the application's threads) still has its array drained
 *    directly, assuming it is not using the cache meanwhile.
 *
 *    Lock order: Documentation/locking/locking.md (kernel/lockdep.c
 *    checks it at run time).
 *
 * 7. Debugging stays off the fast paths. A debugged cache (mm/slab_debug.c)
 *    has per-CPU arrays of limit 0, so its allocations and frees always
 *    miss the fast path and the slow paths hand them to slab_debug;
 *    while failslab is on, slab_slowpath_gfp sends every allocation to
 *    the slow path, where the decision is made; while statistics are on
 *    (mm/slab_stats.c) both mode words send every allocation and free
 *    there, and the slow paths count; so do init_on_alloc (allocations)
 *    and init_on_free (frees), whose slow paths zero the object unless
 *    the cache has a constructor, SLAB_TYPESAFE_BY_RCU or SLAB_POISON
 *    (slab_want_init_on_alloc/free(), Linux's rules; a debugged cache
 *    zeroes in slab_debug, after its checks). Otherwise the fast paths
 *    run exactly as without them: one load and test of a mode word each
 *    (slab_slowpath_gfp, kfree_checks).
 *
 * 8. Nodes. A cache has lists on every online node (node[nid]: slabs,
 *    shared array, free_limit, list_lock); a slab's node is its pages'
 *    (slab_nid(), page_to_nid(): no node id in the slab, the seed's
 *    "remove nodeid in struct slab"). A CPU's per-CPU array, and a
 *    node's shared array, hold objects of that CPU's memory node
 *    (numa_mem_id()) only: refills take from its lists, grow there with
 *    __GFP_THISNODE (gfp_exact_node), and an object that comes from
 *    elsewhere goes to the caller without entering the array
 *    (free_block() checks the node of each slab it puts objects back
 *    into). kmem_cache_alloc_node()
 *    and kmalloc_node() for another node take from its lists, grow on
 *    it, then fall back to the nearest node (fallback_alloc) unless
 *    __GFP_THISNODE. A free of another node's object goes into this
 *    node's alien array for its home node (Linux's alien caches; 12
 *    objects), sent home in one batch when full (alienoverflow) and by
 *    cache_reap, shrink, destroy and reclaim. With one node online none
 *    of this is on the fast paths: kfree_checks gets KFREE_CHECK_NODE
 *    only with several, and kfree() then compares the nodes inline
 *    (kfree_local(), Linux's cache_free_alien early-out) and pushes a
 *    local object as on one node; kmem_cache_free compares them out of
 *    line (slab_free_checked()). Another node's object goes straight to
 *    the alien array (slab_free_remote()).
 */
#include "lib/bitops.h"
#include "kernel/rcupdate.h"
#include "kernel/rseq.h"
#include "kernel/bug.h"
#include "lib/prandom.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "kernel/time.h"
#include "mm/fault_inject.h"
#include "mm/internal.h"
#include "mm/kasan.h"
#include "mm/kfence.h"
#include "mm/numa.h"
#include "mm/shrinker.h"
#include "mm/slab_internal.h"

#define BATCHREFILL_LIMIT	16

/*
 * Not a GFP bit: or-ed into the mask the fast path tests, so that a gfp
 * of 0 still meets slab_slowpath_gfp's "every bit" (failslab on).
 */
#define SLAB_GFP_ANY		0x80000000u

/*
 * What always takes the slow path: zone modifiers (checked against the
 * cache's zone there, see slab_fix_zone()). __GFP_ZERO does not: the
 * fast path zeroes after its pop, as Linux does.
 */
#define SLAB_SLOWPATH_ALWAYS	GFP_ZONEMASK

/*
 * Slabs made of reserve pages. While one exists, kfree steps aside for
 * its slow path, which gives their objects straight back to their slab;
 * when the last is freed or turns ordinary it comes back. fastpath_lock
 * keeps the count and the mode words below in step.
 */
static DEFINE_SPINLOCK(fastpath_lock);
static unsigned long nr_pfmemalloc_slabs;

static inline bool pfmemalloc_active(void)
{
	return READ_ONCE(nr_pfmemalloc_slabs) != 0;
}

/*
 * The two words the fast paths test, one load each, kept in step with
 * the state they summarise by slab_fastpath_update():
 *
 * kfree_checks: nonzero while kfree must leave its fast path before it
 * looks at the pointer. KFREE_CHECK_SLOW: some cache is debugged (the
 * pointer is checked first), pfmemalloc slabs exist (their objects go
 * back to their slab, not into an array), or statistics are on (frees
 * are counted in the slow path). KFREE_CHECK_NODE: there are several
 * nodes, and an object of another node goes home through an alien
 * array, never into this CPU's (kfree() compares the nodes inline,
 * kfree_local(), and pushes a local object as the fast path does).
 * kmem_cache_free's fast path tests it too, and compares the nodes out
 * of line (slab_free_checked()).
 *
 * slab_slowpath_gfp: the GFP bits that send an allocation to the slow
 * path. Zone modifiers always; every bit, SLAB_GFP_ANY
 * included, while failslab is on (its decision is made there),
 * statistics are on (counted in the slow path) or a KFENCE sample is
 * due (mm/kfence.h: the next allocation may come from its pool). Reserve slabs need no
 * slow allocations: the arrays never hold their objects.
 *
 * Both are read without READ_ONCE, so the compiler may fold the load
 * into the test: they change only when the configuration does.
 * kfree_checks is a byte: GCC tests a byte in memory with one compare,
 * a word with a load and a test.
 */
#define KFREE_CHECK_SLOW	1u
#define KFREE_CHECK_NODE	2u
static u8 kfree_checks;
static gfp_t slab_slowpath_gfp = SLAB_SLOWPATH_ALWAYS;

/* Online nodes (set once at boot): one means no alien or node checks. */
static unsigned int slab_nr_nodes = 1;

/* fastpath_lock held. */
static void __slab_fastpath_update(void)
{
	bool all_slow = READ_ONCE(failslab.enabled) || slab_stats_on() ||
			kfence_sample_due() || READ_ONCE(init_on_alloc);
	bool slow = READ_ONCE(slab_nr_debug_caches) || pfmemalloc_active() ||
		    slab_stats_on() || READ_ONCE(init_on_free);

	lockdep_assert_held(&fastpath_lock);
	WRITE_ONCE(kfree_checks, (slow ? KFREE_CHECK_SLOW : 0) |
				 (slab_nr_nodes > 1 ? KFREE_CHECK_NODE : 0));
	WRITE_ONCE(slab_slowpath_gfp, all_slow ? ~0u : SLAB_SLOWPATH_ALWAYS);
}

void slab_fastpath_update(void)
{
	unsigned long flags;

	spin_lock_irqsave(&fastpath_lock, flags);
	__slab_fastpath_update();
	spin_unlock_irqrestore(&fastpath_lock, flags);
}

/* A slab of reserve pages was made (+1) or freed (-1). */
static void pfmemalloc_slabs_add(long delta)
{
	unsigned long flags;

	spin_lock_irqsave(&fastpath_lock, flags);
	WRITE_ONCE(nr_pfmemalloc_slabs, nr_pfmemalloc_slabs + delta);
	BUG_ON((long)nr_pfmemalloc_slabs < 0);
	__slab_fastpath_update();
	spin_unlock_irqrestore(&fastpath_lock, flags);
}

bool slab_pfmemalloc_active(void)
{
	return pfmemalloc_active();
}

void slab_nodes_init(void)
{
	slab_nr_nodes = num_online_nodes();
	slab_fastpath_update();
}

struct kmem_cache *kmalloc_caches[2][KMALLOC_ROW_SIZE];
BUILD_BUG_ON(KMALLOC_NR_CACHES > KMALLOC_ROW_SIZE ||
	     (KMALLOC_ROW_SIZE & (KMALLOC_ROW_SIZE - 1)));

/* --- statistics (mm/slab_stats.c): only while on, only in slow paths ---- */

/* This CPU's counters live with its memory node's lists. */
static inline struct slab_cpu_stats *cpu_stats(struct kmem_cache *cachep)
{
	return &get_node(cachep, numa_mem_id())->stats.cpu[arch_cpu_id()];
}

/* An allocation is about to pop the per-CPU array. Interrupts off. */
static void stats_alloc(struct kmem_cache *cachep)
{
	if (cpu_cache_get(cachep)->avail)
		cpu_stats(cachep)->allochit++;
	else
		cpu_stats(cachep)->allocmiss++;
}

/* A free is about to push onto the per-CPU array. Interrupts off. */
static void stats_free(struct kmem_cache *cachep)
{
	struct array_cache *ac = cpu_cache_get(cachep);

	if (ac->avail < ac->limit)
		cpu_stats(cachep)->freehit++;
	else
		cpu_stats(cachep)->freemiss++;
}

/*
 * nr objects left the node's slabs, its counts already updated: they
 * count, and so may the most objects out at once. n->list_lock held.
 */
static inline void stats_taken(struct kmem_cache *cachep,
			       struct kmem_cache_node *n, unsigned int nr)
{
	unsigned long out;

	if (likely(!slab_stats_on()))
		return;
	lockdep_assert_held(&n->list_lock);
	lockdep_assert_irqs_disabled();
	out = n->total_slabs * cachep->num - n->free_objects;
	n->stats.allocs += nr;
	if (out > n->stats.high_mark)
		n->stats.high_mark = out;
}

/*
 * objp (or NULL) goes to the caller straight from a slab, no array in
 * between; returns it. Interrupts off.
 */
static inline void *stats_node_alloc(struct kmem_cache *cachep, void *objp)
{
	if (unlikely(slab_stats_on()) && objp)
		cpu_stats(cachep)->node_allocs++;
	return objp;
}

/* A flush ended: the most free slabs the node kept. n->list_lock held. */
static inline void stats_freeable(struct kmem_cache_node *n)
{
	if (likely(!slab_stats_on()))
		return;
	lockdep_assert_held(&n->list_lock);
	lockdep_assert_irqs_disabled();
	if (n->free_slabs > n->stats.max_freeable)
		n->stats.max_freeable = n->free_slabs;
}

/* A new slab could not be made on node nid. */
static void stats_grow_failed(struct kmem_cache *cachep, int nid)
{
	struct kmem_cache_node *n = get_node(cachep, nid);

	if (likely(!slab_stats_on()))
		return;
	lockdep_assert_irqs_disabled();
	spin_lock(&n->list_lock);
	n->stats.errors++;
	spin_unlock(&n->list_lock);
}

/*
 * The caller that slab_debug reports name: the one passed down, or for 0
 * the return address of the API function the fast path is inlined into.
 * Read only on the way to a slow path: taken eagerly, it is one more
 * load on every fast path.
 */
#define slab_caller(caller)	((caller) ? (caller) : _RET_IP_)

/* --- the index stack of one slab --------------------------------------- */

static __always_inline void *slab_get_obj(struct kmem_cache *cachep,
					  struct slab *slab)
{
	void *objp;

	BUG_ON(slab->active >= cachep->num);
	objp = index_to_obj(cachep, slab, get_free_obj(cachep, slab, slab->active));
	slab->active++;
	return objp;
}

/* Index i of a slab's index array of idx_size-byte entries. */
static __always_inline unsigned long idx_at(const void *freelist,
					    unsigned long i,
					    unsigned int idx_size)
{
	if (idx_size == 1)
		return ((const u8 *)freelist)[i];
	return ((const u16 *)freelist)[i];
}

/*
 * slab_get_objs()'s loop for indices of idx_size bytes, four objects a
 * turn: a load of each index, a multiply-add, a store and a prefetch.
 */
static __always_inline __no_sanitize_address void
get_objs(void **entry, char *s_mem, unsigned long size, const void *idx,
	 unsigned int nr, unsigned int idx_size)
{
	void **end = entry + nr;

	for (; end - entry >= 4; entry += 4, idx = (const char *)idx + 4 * idx_size) {
		void *a = s_mem + size * idx_at(idx, 0, idx_size);
		void *b = s_mem + size * idx_at(idx, 1, idx_size);
		void *c = s_mem + size * idx_at(idx, 2, idx_size);
		void *d = s_mem + size * idx_at(idx, 3, idx_size);

		entry[0] = a;
		entry[1] = b;
		entry[2] = c;
		entry[3] = d;
		prefetchw(a);
		prefetchw(b);
		prefetchw(c);
		prefetchw(d);
	}
	for (; entry != end; entry++, idx = (const char *)idx + idx_size) {
		*entry = s_mem + size * idx_at(idx, 0, idx_size);
		prefetchw(*entry);
	}
}

/*
 * Hand out the next nr free objects of slab into entry (nr at most what
 * it has free), each prefetched for writing (see alloc_block()). The
 * cache's and the slab's fields are read once (get_objs()). The index
 * array may lie in a free object (get_free_obj()).
 */
static __no_sanitize_address void
slab_get_objs(const struct kmem_cache *cachep, struct slab *slab, void **entry,
	      unsigned int nr)
{
	unsigned int active = slab->active, size = cachep->size;
	char *s_mem = slab->s_mem;

	BUG_ON(nr > cachep->num - active || active > cachep->num);
	if (cachep->freelist_idx_size == 1)
		get_objs(entry, s_mem, size, (const u8 *)slab->freelist + active,
			 nr, 1);
	else
		get_objs(entry, s_mem, size, (const u16 *)slab->freelist + active,
			 nr, 2);
	slab->active = active + nr;
}

/* --- making and destroying slabs ----------------------------------------- */

/*
 * The order a new slab hands out its objects: 0, 1, 2... or, with
 * SLAB_FREELIST_RANDOM, the cache's random permutation read from a
 * random start (Linux's shuffle_freelist), so neighbours in memory are
 * not neighbours in time.
 */
static unsigned int first_obj_pos(struct kmem_cache *cachep)
{
	struct kmem_cache_node *n = first_kmem_cache_node(cachep);
	unsigned int pos;

	if (!cachep->random_seq)
		return 0;
	lockdep_assert_irqs_disabled();
	spin_lock(&n->list_lock);
	pos = (unsigned int)prandom_below(&cachep->random_state, cachep->num);
	spin_unlock(&n->list_lock);
	return pos;
}

static unsigned int nth_obj(const struct kmem_cache *cachep, unsigned int pos,
			    unsigned int i)
{
	if (!cachep->random_seq)
		return i;
	return cachep->random_seq[(pos + i) % cachep->num];
}

/* Writes the index array, maybe into a free object: not KASAN-checked. */
static __no_sanitize_address void cache_init_objs(struct kmem_cache *cachep,
						  struct slab *slab)
{
	unsigned int pos = first_obj_pos(cachep);

	/* The in-object array lives in the object handed out last. */
	if (cachep->freelist_place == FREELIST_IN_OBJECT)
		slab->freelist = index_to_obj(cachep, slab,
					      nth_obj(cachep, pos, cachep->num - 1));
	if (cache_debug(cachep) || cachep->ctor) {
		for (unsigned int i = 0; i < cachep->num; i++) {
			void *objp = index_to_obj(cachep, slab, i);

			if (cache_debug(cachep))
				slab_debug_init_obj(cachep, objp);
			if (cachep->ctor) {
				kasan_unpoison_object_data(cachep, objp);
				cachep->ctor(objp);
				kasan_poison_object_data(cachep, objp);
			}
		}
	}
	/*
	 * The common case: one-byte indices, in order, eight a store (the
	 * array is 8-byte aligned wherever it lives) as each grown slab
	 * writes them all.
	 */
	if (cachep->freelist_idx_size == 1 && !cachep->random_seq) {
		u64 eight = 0x0706050403020100ULL;	/* bytes 0, 1, ..., 7 */
		u8 *freelist = slab->freelist;
		unsigned int i = 0;

		if (IS_ALIGNED((unsigned long)freelist, sizeof(u64))) {
			for (; i + 8 <= cachep->num; i += 8) {
				*(u64 *)(freelist + i) = eight;
				eight += 0x0808080808080808ULL;
			}
		}
		for (; i < cachep->num; i++)
			freelist[i] = (u8)i;
		return;
	}
	for (unsigned int i = 0; i < cachep->num; i++)
		set_free_obj(cachep, slab, i, nth_obj(cachep, pos, i));
}

/*
 * Mark a slab's pages after the first as its own: PG_slab_tail and the
 * cache, which kfree() reads (struct slab). The page allocator clears
 * both when the slab's compound page is freed (destroy_compound_page()).
 */
static void set_slab_tails(struct page *page, unsigned int order,
			   struct kmem_cache *cachep)
{
	struct page *end = page + (1UL << order);

	for (struct page *p = page + 1; p < end; p++) {
		__SetPageSlabTail(p);
		page_slab(p)->slab_cache = cachep;
	}
}

/*
 * The slab's pages, from node nid (Linux's kmem_getpages()). __GFP_COMP
 * only for more than one page: it means nothing for one (Linux passes
 * it anyway), and without it one page comes from alloc_pages()'s inline
 * fast path, which hands a __GFP_COMP request out of line.
 */
static struct page *kmem_getpages(struct kmem_cache *cachep, gfp_t flags,
				  int nid)
{
	gfp_t gfp = (flags & ~(__GFP_ZERO | GFP_ZONEMASK)) | cachep->allocflags |
		    (cachep->gfporder ? __GFP_COMP : 0);
	struct page *page = alloc_pages_node(nid, gfp, cachep->gfporder);

	if (!page)
		return NULL;
	__SetPageSlab(page);
	set_slab_tails(page, cachep->gfporder, cachep);
	if (PagePfmemalloc(page)) {
		__SetPageActive(page);
		pfmemalloc_slabs_add(1);
	}
	return page;
}

static void kmem_freepages(struct kmem_cache *cachep, struct page *page)
{
	struct slab *slab = page_slab(page);

	/* Every object is back in this slab: none is marked anywhere. */
	if (slab_test_pfmemalloc(slab))
		pfmemalloc_slabs_add(-1);
	__ClearPageActive(page);
	__ClearPageSlab(page);
	/* The other pages' marks go with their compound state. */
	/* The page words the slab used go back clean. */
	slab->slab_cache = NULL;
	slab->freelist = NULL;
	slab->s_mem = NULL;
	slab->active = 0;
	__free_pages(page, cachep->gfporder);
}

/* Where the freelist goes and where the objects start, for one slab. */
static bool alloc_slabmgmt(struct kmem_cache *cachep, struct slab *slab,
			   unsigned int colour_off, gfp_t flags)
{
	char *addr = (char *)slab_address(slab) + colour_off;

	/* s_mem is the first object; a red zone may come before it. */
	slab->freelist = NULL;
	slab->s_mem = addr + cachep->obj_offset;
	switch (cachep->freelist_place) {
	case FREELIST_ON_SLAB:
		slab->freelist = addr;
		kasan_unpoison_range(addr, cachep->freelist_size);
		slab->s_mem = addr + ALIGN(cachep->freelist_size, cachep->align) +
			      cachep->obj_offset;
		return true;
	case FREELIST_OFF_SLAB:
		/* The index array is the CPU's alone: any zone will do. */
		slab->freelist = kmem_cache_alloc(cachep->freelist_cache,
						  flags & ~(__GFP_ZERO |
							    GFP_ZONEMASK));
		return slab->freelist != NULL;
	default:
		return true;	/* set by cache_init_objs */
	}
}

/*
 * The colour of the next slab. Without the node's lock, as in Linux: two
 * CPUs growing at once may give their slabs the same colour, which costs
 * nothing, while a lock is a locked instruction per slab made.
 */
static unsigned int next_colour(struct kmem_cache_node *n,
				const struct kmem_cache *cachep)
{
	unsigned int colour;

	if (cachep->colour < 2)
		return 0;
	colour = READ_ONCE(n->colour_next);
	WRITE_ONCE(n->colour_next, colour + 1 < cachep->colour ? colour + 1 : 0);
	return colour;
}

/*
 * A new slab of pages asked for on node nid, not yet on any list; NULL
 * if memory ran out. Its node is its pages' (slab_nid()): with
 * __GFP_THISNODE that is nid, without it the page allocator may have
 * gone to another node.
 */
static struct slab *cache_grow_begin(struct kmem_cache *cachep, gfp_t flags,
				     int nid)
{
	struct page *page = kmem_getpages(cachep, flags, nid);
	struct kmem_cache_node *n;
	struct slab *slab;

	if (!page) {
		stats_grow_failed(cachep, nid);
		return NULL;
	}
	slab = page_slab(page);
	n = get_node(cachep, slab_nid(slab));
	BUG_ON(!n);	/* pages of a node that is not online */
	slab->slab_cache = cachep;
	slab->active = 0;
	kasan_poison_slab(slab);
	if (!alloc_slabmgmt(cachep, slab,
			    next_colour(n, cachep) * cachep->colour_off, flags)) {
		kmem_freepages(cachep, page);
		stats_grow_failed(cachep, nid);
		return NULL;
	}
	cache_init_objs(cachep, slab);
	return slab;
}

/*
 * Put the full, partial or free slab on the list that says so.
 * n->list_lock held.
 */
static void fixup_slab_list(struct kmem_cache *cachep,
			    struct kmem_cache_node *n, struct slab *slab)
{
	lockdep_assert_held(&n->list_lock);
	lockdep_assert_irqs_disabled();
	list_del(&slab->slab_list);
	if (slab->active == cachep->num) {
		list_add(&slab->slab_list, &n->slabs_full);
		if (cachep->freelist_place == FREELIST_IN_OBJECT)
			slab->freelist = NULL;	/* its object is handed out */
	} else if (slab->active == 0) {
		list_add(&slab->slab_list, &n->slabs_free);
		n->free_slabs++;
	} else {
		list_add(&slab->slab_list, &n->slabs_partial);
	}
}

/* The new slab goes on its own node's lists. */
static void cache_grow_end(struct kmem_cache *cachep, struct slab *slab)
{
	struct kmem_cache_node *n = get_node(cachep, slab_nid(slab));

	lockdep_assert_irqs_disabled();
	spin_lock(&n->list_lock);
	INIT_LIST_HEAD(&slab->slab_list);
	n->total_slabs++;
	n->free_objects += cachep->num - slab->active;
	if (unlikely(slab_stats_on()))
		n->stats.grown++;
	stats_taken(cachep, n, slab->active);
	fixup_slab_list(cachep, n, slab);
	spin_unlock(&n->list_lock);
}

static void kmem_rcu_free(struct rcu_head *head)
{
	struct slab *slab = container_of(head, struct slab, rcu_head);

	kmem_freepages(slab->slab_cache, slab_page(slab));
}

/*
 * Give one slab back to the page allocator. The off-slab freelist is freed
 * right away even when the pages wait for RCU (seed patch "put forward
 * freeing slab management object"). A SLAB_TYPESAFE_BY_RCU slab is off
 * every list by now: its rcu_head (over slab_list) waits for a grace
 * period, and until kmem_rcu_free() runs the pages stay PageSlab with
 * slab_cache set, so a reader that still holds one of its objects reads
 * memory of this cache's type. kmem_cache_destroy() waits for these
 * callbacks (rcu_barrier) before the cache goes.
 */
static void release_slab(struct kmem_cache *cachep, struct slab *slab)
{
	void *freelist = slab->freelist;

	if (unlikely(cachep->flags & SLAB_TYPESAFE_BY_RCU))
		call_rcu(&slab->rcu_head, kmem_rcu_free);
	else
		kmem_freepages(cachep, slab_page(slab));
	/*
	 * Straight back, past KASAN: its quarantine may give objects back
	 * to any cache when it takes one, and we may be in the middle of
	 * flushing an array (cache_flusharray()).
	 */
	if (cachep->freelist_place == FREELIST_OFF_SLAB)
		___cache_free(cachep->freelist_cache, freelist, _RET_IP_);
}

/* release_slab_list() of a list that is not empty. */
void __release_slab_list(struct kmem_cache *cachep, struct list_head *list)
{
	struct slab *slab, *next;

	list_for_each_entry_safe(slab, next, list, slab_list) {
		list_del(&slab->slab_list);
		release_slab(cachep, slab);
	}
}

/* --- moving objects between arrays and slabs ---------------------------- */

/* Move the coldest free slab of n onto list, to be released. */
static void take_free_slab(struct kmem_cache *cachep, struct kmem_cache_node *n,
			   struct list_head *list)
{
	struct slab *slab = list_last_entry(&n->slabs_free, struct slab,
					    slab_list);

	lockdep_assert_held(&n->list_lock);
	list_move(&slab->slab_list, list);
	n->free_slabs--;
	n->total_slabs--;
	n->free_objects -= cachep->num;
}

/*
 * Objects went back to slab, which was full or is free now: it changes
 * lists, a full one becoming partial (to the tail, as Linux puts it), a
 * free one going onto the free list, or (reserve pages, which the
 * reserve wants back now) onto list, to be released. n->list_lock held.
 */
static __always_inline void
slab_objs_back(struct kmem_cache *cachep, struct kmem_cache_node *n,
	       struct slab *slab, struct list_head *list)
{
	if (slab->active) {
		list_move_tail(&slab->slab_list, &n->slabs_partial);
	} else if (unlikely(slab_test_pfmemalloc(slab))) {
		list_move(&slab->slab_list, list);
		n->total_slabs--;
		n->free_objects -= cachep->num;
	} else {
		list_move(&slab->slab_list, &n->slabs_free);
		n->free_slabs++;
	}
}

/*
 * The slab of an object of a cache whose slabs are 2^order pages, with
 * head_mask ~(2^order - 1): a slab is a buddy block, so its first page
 * is at the object's page frame number rounded down to a multiple of
 * 2^order, found without reading compound_head. NULL if that page does
 * not start a slab (not an object of the cache).
 */
static inline struct slab *obj_slab(const void *objp, unsigned long head_mask)
{
	struct page *page = pfn_to_page(PHYS_PFN(__pa(objp)) & head_mask);

	return PageSlab(page) ? page_slab(page) : NULL;
}

/*
 * Push the run of objects from *pp on that lie in one slab (s_mem, span
 * bytes of objects; the first at offset) onto its index stack, whose
 * count is active; returns the new count and leaves *pp past the run.
 * Each object is a subtraction, a bounds compare, a multiply and a
 * push; more objects back than the slab has out (a double free) is a
 * BUG: the stack's top is compared with its bottom.
 */
static __always_inline __no_sanitize_address unsigned long
put_run(void *freelist, unsigned long active, const char *s_mem,
	unsigned long offset, void *const **pp, void *const *end,
	unsigned long span, u64 recip, unsigned int idx_size)
{
	char *top = (char *)freelist + active * idx_size;
	void *const *p = *pp;

	for (;;) {
		unsigned int idx = offset_to_index(offset, recip);

		BUG_ON(top == freelist);
		top -= idx_size;
		if (idx_size == 1)
			*(u8 *)top = (u8)idx;
		else
			*(u16 *)top = (u16)idx;
		if (++p == end)
			break;
		offset = (const char *)*p - s_mem;
		if (offset >= span)
			break;
	}
	*pp = p;
	return (unsigned long)(top - (char *)freelist) / idx_size;
}

/*
 * free_block()'s loop, for indices of idx_size bytes. The objects of one
 * slab often follow each other in objpp (freed in the order a refill
 * took them from it): while they do, the slab is not looked up again
 * and its fields stay in registers (put_run()). A slab changes lists
 * only when it changes state, once per such run: a partial one only
 * when it becomes free, a full one always. An object outside every
 * object of its slab (a bad pointer) is a BUG, and so, unless nid is
 * NUMA_NO_NODE (one node), is a slab of another node than nid: checked
 * once a run, every object of a run being the slab's. A full slab whose
 * index array lives in an object has none: the first object freed into
 * it takes it. That array may lie in a free object (get_free_obj()).
 */
static __always_inline __no_sanitize_address void
put_objs(struct kmem_cache *cachep, struct kmem_cache_node *n,
	 void *const *objpp, unsigned int nr, struct list_head *list,
	 int nid, unsigned int idx_size)
{
	const unsigned long span = (unsigned long)cachep->num * cachep->size;
	const unsigned long head_mask = ~((1UL << cachep->gfporder) - 1);
	const u64 recip = cachep->reciprocal_buffer_size;
	const unsigned int num = cachep->num;
	void *const *end = objpp + nr;
	void *const *p = objpp;

	while (p != end) {
		struct slab *slab = obj_slab(*p, head_mask);
		unsigned long offset, active;
		char *s_mem;

		BUG_ON(!slab);
		BUG_ON(nid != NUMA_NO_NODE && slab_nid(slab) != nid);
		s_mem = slab->s_mem;
		active = slab->active;
		offset = (char *)*p - s_mem;
		BUG_ON(offset >= span);
		if (likely(active != num)) {
			active = put_run(slab->freelist, active, s_mem, offset,
					 &p, end, span, recip, idx_size);
			slab->active = active;
			if (unlikely(!active))
				slab_objs_back(cachep, n, slab, list);
		} else {
			if (!slab->freelist)
				slab->freelist = *p;
			slab->active = put_run(slab->freelist, active, s_mem,
					       offset, &p, end, span, recip,
					       idx_size);
			slab_objs_back(cachep, n, slab, list);
		}
	}
}

/* put_objs() for the cache's index size: a copy of the loop for each. */
static __always_inline void
put_objs_sized(struct kmem_cache *cachep, struct kmem_cache_node *n,
	       void *const *objpp, unsigned int nr, struct list_head *list,
	       int nid)
{
	if (cachep->freelist_idx_size == 1)
		put_objs(cachep, n, objpp, nr, list, nid, 1);
	else
		put_objs(cachep, n, objpp, nr, list, nid, 2);
}

/*
 * Return nr objects to their slabs, all of node nid; free slabs beyond
 * the node's limit move to list, for release_slab_list() once the lock
 * is dropped. n->list_lock held (nid's).
 *
 * A slab changes lists only when it changes state (put_objs()). Linux
 * moves the slab to the partial tail on every object freed; with
 * objects freed in random order that is two writes into the struct
 * pages of other slabs (its list neighbours) per object, cache misses
 * for nothing once the slab is partial already.
 */
static __no_sanitize_address void free_block(struct kmem_cache *cachep,
					     void **objpp, unsigned int nr,
					     int nid, struct list_head *list)
{
	struct kmem_cache_node *n = get_node(cachep, nid);

	lockdep_assert_held(&n->list_lock);
	lockdep_assert_irqs_disabled();

	n->free_objects += nr;
	if (likely(slab_nr_nodes == 1))
		put_objs_sized(cachep, n, objpp, nr, list, NUMA_NO_NODE);
	else
		put_objs_sized(cachep, n, objpp, nr, list, nid);
	while (n->free_objects > n->free_limit && !list_empty(&n->slabs_free))
		take_free_slab(cachep, n, list);
}

/*
 * A reserve slab becomes an ordinary one once memory is back: an
 * ordinary allocation of its size would leave every zone it may use
 * above the low watermark. True if it did. n->list_lock held.
 */
static bool slab_unreserve(struct kmem_cache *cachep, struct slab *slab)
{
	lockdep_assert_held(&get_node(cachep, slab_nid(slab))->list_lock);
	lockdep_assert_irqs_disabled();
	BUG_ON(!slab_test_pfmemalloc(slab));

	if (pfmemalloc_needed(cachep->allocflags, cachep->gfporder))
		return false;
	__ClearPageActive(slab_page(slab));
	pfmemalloc_slabs_add(-1);
	return true;
}

/*
 * First slab with free objects that this caller may use, or NULL: a
 * reserve slab only for a reserve user, or once it turned ordinary.
 * n->list_lock held.
 */
static struct slab *get_first_slab(struct kmem_cache *cachep,
				   struct kmem_cache_node *n, bool pfmemalloc)
{
	struct list_head *lists[] = { &n->slabs_partial, &n->slabs_free };

	lockdep_assert_held(&n->list_lock);
	lockdep_assert_irqs_disabled();

	for (int i = 0; i < 2; i++) {
		struct slab *slab;

		list_for_each_entry(slab, lists[i], slab_list) {
			if (pfmemalloc || !slab_test_pfmemalloc(slab) ||
			    slab_unreserve(cachep, slab)) {
				if (i == 1) {
					n->free_slabs--;
					n->free_touched = 1;
				}
				return slab;
			}
		}
	}
	return NULL;
}

/*
 * The slab a refill takes from next: the first partial one, unless it
 * is a reserve slab (then get_first_slab() looks further). n->list_lock
 * held.
 */
static __always_inline struct slab *refill_first_slab(struct kmem_cache *cachep,
						      struct kmem_cache_node *n)
{
	struct slab *slab = list_first_entry_or_null(&n->slabs_partial,
						     struct slab, slab_list);

	if (likely(slab && !slab_test_pfmemalloc(slab)))
		return slab;
	return get_first_slab(cachep, n, false);
}

/*
 * Move up to batchcount objects of a new slab (cache_grow_begin()) into
 * ac. Unless SLAB_FREELIST_RANDOM shuffled it (cache_init_objs()), its
 * index stack is 0, 1, 2...: each object is the one before plus size,
 * no index read.
 *
 * Each object's first line is prefetched for writing (slab_get_objs()
 * too): they are handed out next, and are usually cold (a new slab's
 * are in pages just taken from the page allocator). Without it the
 * caller's first write to each is a miss, and the next locked
 * instruction on the refill path (a spinlock) waits for all of them.
 * Linux's SLAB prefetches each object as it hands it out; a batch
 * ahead hides more of the miss.
 */
static void alloc_block(struct kmem_cache *cachep, struct array_cache *ac,
			struct slab *slab, unsigned int batchcount)
{
	unsigned int nr = min(batchcount, cachep->num);
	void **entry = &ac->entry[ac->avail], **end = entry + nr;
	unsigned long size = cachep->size;
	char *objp = slab->s_mem;

	BUG_ON(slab_test_pfmemalloc(slab) || slab->active);
	ac->avail += nr;
	if (cachep->random_seq) {
		slab_get_objs(cachep, slab, entry, nr);
		return;
	}
	slab->active = nr;
	for (; end - entry >= 4; entry += 4, objp += 4 * size) {
		entry[0] = objp;
		entry[1] = objp + size;
		entry[2] = objp + 2 * size;
		entry[3] = objp + 3 * size;
		prefetchw(objp);
		prefetchw(objp + size);
		prefetchw(objp + 2 * size);
		prefetchw(objp + 3 * size);
	}
	for (; entry != end; entry++, objp += size) {
		*entry = objp;
		prefetchw(objp);
	}
}

/*
 * Copy nr array entries to another array, or down within one (a
 * flush's shift: the destination below the source). The batches are tens of pointers: a loop the compiler sees
 * whole, eight entries a turn, costs about a quarter less than a call
 * into memcpy() or memmove() and their checks of alignment, size and
 * (KASAN) range.
 */
static __always_inline void copy_entries(void **to, void *const *from,
					 unsigned int nr)
{
	void *const *end = from + nr;

	/* Eight loads, then eight stores: right for to below from too. */
	for (; end - from >= 8; from += 8, to += 8) {
		void *e0 = from[0], *e1 = from[1], *e2 = from[2], *e3 = from[3];
		void *e4 = from[4], *e5 = from[5], *e6 = from[6], *e7 = from[7];

		to[0] = e0;
		to[1] = e1;
		to[2] = e2;
		to[3] = e3;
		to[4] = e4;
		to[5] = e5;
		to[6] = e6;
		to[7] = e7;
	}
	for (; from != end; from++, to++)
		*to = *from;
}

/* Move up to max objects from one array to another. */
static unsigned int transfer_objects(struct array_cache *to,
				     struct array_cache *from, unsigned int max)
{
	unsigned int nr = min(min(from->avail, max), to->limit - to->avail);

	if (!nr)
		return 0;
	copy_entries(&to->entry[to->avail], &from->entry[from->avail - nr], nr);
	from->avail -= nr;
	to->avail += nr;
	return nr;
}

/*
 * This CPU's array is in use (a refill, a free that left the fast
 * path): tell cache_reap, and put back the limit it took to see the
 * next free (see struct array_cache). Interrupts off.
 */
static inline void ac_in_use(struct array_cache *ac)
{
	ac->used = 1;
	if (unlikely(ac->armed_limit)) {
		ac->limit = ac->armed_limit;
		ac->armed_limit = 0;
	}
}

/* How many objects a refill moves: fewer while the array is idle. */
static unsigned int refill_batch(const struct array_cache *ac)
{
	if (!ac->touched && ac->batchcount > BATCHREFILL_LIMIT)
		return BATCHREFILL_LIMIT;
	return ac->batchcount;
}

/*
 * Fill the empty per-CPU array from the shared array and from ordinary
 * slabs (never reserve ones: see section 4). True if it got any.
 */
static bool cache_refill(struct kmem_cache *cachep, struct array_cache *ac,
			 struct kmem_cache_node *n)
{
	unsigned int batchcount = refill_batch(ac);
	struct slab *slab;

	/*
	 * Nothing free on the node: grow without taking its lock first, as
	 * Linux does. Each lock taken is a locked instruction, which waits
	 * for every store before it, and the caller's stores to the objects
	 * just handed out are cache misses.
	 */
	if (!READ_ONCE(n->free_objects) &&
	    (!n->shared || !READ_ONCE(n->shared->avail)))
		return false;
	lockdep_assert_irqs_disabled();
	spin_lock(&n->list_lock);
	ac_in_use(ac);
	if (n->shared && transfer_objects(ac, n->shared, batchcount)) {
		n->shared->touched = 1;
		n->shared->used = 1;
		batchcount = 0;	/* the shared array served it */
	}
	while (batchcount && (slab = refill_first_slab(cachep, n))) {
		unsigned int before = slab->active;
		unsigned int nr = min(batchcount, cachep->num - before);

		BUG_ON(slab_test_pfmemalloc(slab));
		slab_get_objs(cachep, slab, &ac->entry[ac->avail], nr);
		ac->avail += nr;
		batchcount -= nr;
		n->free_objects -= nr;
		stats_taken(cachep, n, nr);
		/* A partial slab that stays partial stays where it is. */
		if (!before || slab->active == cachep->num)
			fixup_slab_list(cachep, n, slab);
	}
	spin_unlock(&n->list_lock);
	return ac->avail;
}

/*
 * One object from a slab on node nid's lists that this caller may use
 * (reserve slabs too if pfmemalloc), bypassing the arrays; NULL if none
 * has a free object.
 */
static void *take_one_obj(struct kmem_cache *cachep, int nid, bool pfmemalloc)
{
	struct kmem_cache_node *n = get_node(cachep, nid);
	struct slab *slab;
	void *objp = NULL;

	lockdep_assert_irqs_disabled();
	if (!READ_ONCE(n->free_objects))
		return NULL;
	spin_lock(&n->list_lock);
	slab = get_first_slab(cachep, n, pfmemalloc);
	if (slab) {
		objp = slab_get_obj(cachep, slab);
		n->free_objects--;
		stats_taken(cachep, n, 1);
		fixup_slab_list(cachep, n, slab);
	}
	spin_unlock(&n->list_lock);
	return objp;
}

/* --- nodes ------------------------------------------------------------ */

/*
 * The flags for pages of one node only (Linux's gfp_exact_node()): no
 * reclaim, no warning, since another node may still have memory; with
 * one node there is no other, and the flags stay as they are.
 */
static gfp_t gfp_exact_node(gfp_t flags)
{
	if (slab_nr_nodes == 1)
		return flags;
	return (flags | __GFP_THISNODE | __GFP_NOWARN) & ~__GFP_RECLAIM;
}

/*
 * An object from any node, nearest to node nid first (Linux's
 * fallback_alloc() over a zonelist; Linux's starts from this CPU's
 * node, this one from the node asked for, as alloc_pages_node() falls
 * back): a free object on some node's lists, else a new slab wherever
 * the page allocator finds the pages. nid: an online node, or
 * NUMA_NO_NODE for this CPU's memory node. NULL with __GFP_THISNODE.
 * Interrupts off.
 */
static void *fallback_alloc(struct kmem_cache *cachep, gfp_t flags, int nid)
{
	bool pfmemalloc = gfp_pfmemalloc_allowed(flags);
	int order[MAX_NUMNODES], nr;
	struct slab *slab;
	void *objp;

	if (flags & __GFP_THISNODE)
		return NULL;
	if (nid == NUMA_NO_NODE || !get_node(cachep, nid))
		nid = numa_mem_id();
	nr = numa_nodes_by_distance(nid, order);
	for (int i = 0; i < nr; i++) {
		if (!get_node(cachep, order[i]))
			continue;
		objp = take_one_obj(cachep, order[i], pfmemalloc);
		if (objp)
			return objp;
	}
	slab = cache_grow_begin(cachep, flags, nid);
	if (!slab)
		return NULL;
	WARN_ON_ONCE(slab_test_pfmemalloc(slab) && !pfmemalloc);
	objp = slab_get_obj(cachep, slab);
	cache_grow_end(cachep, slab);
	return objp;
}

/*
 * A slab could not be grown on this CPU's or the asked node: another
 * node's object, if there is another node (with one, the grow just
 * failed with the same flags, and there is nowhere else to go).
 */
static void *fallback_after_grow(struct kmem_cache *cachep, gfp_t flags,
				 int nid)
{
	if (slab_nr_nodes == 1)
		return NULL;
	return fallback_alloc(cachep, flags, nid);
}

/*
 * One object of node nid straight from its lists, no per-CPU array in
 * between (Linux's ____cache_alloc_node()): a free object there, else a
 * new slab of that node's pages, else (unless __GFP_THISNODE) the
 * nearest other node's. Interrupts off.
 */
static void *cache_alloc_node(struct kmem_cache *cachep, gfp_t flags, int nid)
{
	struct slab *slab;
	void *objp;

	objp = take_one_obj(cachep, nid, gfp_pfmemalloc_allowed(flags));
	if (objp)
		return stats_node_alloc(cachep, objp);
	slab = cache_grow_begin(cachep, gfp_exact_node(flags), nid);
	if (slab) {
		WARN_ON_ONCE(slab_test_pfmemalloc(slab) &&
			     !gfp_pfmemalloc_allowed(flags));
		objp = slab_get_obj(cachep, slab);
		cache_grow_end(cachep, slab);
		return stats_node_alloc(cachep, objp);
	}
	return stats_node_alloc(cachep, fallback_after_grow(cachep, flags, nid));
}

/*
 * The per-CPU array is empty: refill it from this CPU's memory node and
 * pop, or failing that serve a reserve user from a reserve slab, or
 * grow on that node; if it has no memory left, an object from the
 * nearest other node (never into the array: it holds its node's objects
 * only). A new slab of reserve pages (only a reserve user gets those)
 * hands out one object and keeps the rest. NULL if memory ran out.
 */
static void *cache_alloc_refill(struct kmem_cache *cachep, gfp_t flags)
{
	struct array_cache *ac = cpu_cache_get(cachep);
	int nid = numa_mem_id();
	struct slab *slab;
	void *objp;

	if (cache_refill(cachep, ac, get_node(cachep, nid)))
		goto pop;
	/* Asked only now: the memalloc flag is a load refills need not pay. */
	if (unlikely(pfmemalloc_active()) && gfp_pfmemalloc_allowed(flags)) {
		objp = take_one_obj(cachep, nid, true);
		if (objp)
			return stats_node_alloc(cachep, objp);
	}
	/*
	 * The page allocation may reclaim (mm/vmscan.c), which drains this
	 * CPU's array of this very cache, and KASAN's quarantine, which
	 * frees objects into it: the new slab is on no list yet, and fills
	 * the array below only if it is still empty (Linux's re-check).
	 */
	slab = cache_grow_begin(cachep, gfp_exact_node(flags), nid);
	if (!slab)
		return stats_node_alloc(cachep,
					fallback_after_grow(cachep, flags, nid));
	if (unlikely(slab_test_pfmemalloc(slab) || slab_nid(slab) != nid)) {
		WARN_ON_ONCE(slab_test_pfmemalloc(slab) &&
			     !gfp_pfmemalloc_allowed(flags));
		objp = slab_get_obj(cachep, slab);
		cache_grow_end(cachep, slab);
		return stats_node_alloc(cachep, objp);
	}
	ac = cpu_cache_get(cachep);
	if (likely(!ac->avail))
		alloc_block(cachep, ac, slab, refill_batch(ac));
	ac_in_use(ac);
	cache_grow_end(cachep, slab);
pop:
	ac->touched = 1;
	return ac->entry[--ac->avail];
}

/*
 * Pop the per-CPU array, refilling it when empty (the slow paths and
 * bulk allocation). Interrupts off.
 */
static __always_inline void *cpu_cache_alloc(struct kmem_cache *cachep,
					     gfp_t flags)
{
	struct array_cache *ac = cpu_cache_get(cachep);

	if (unlikely(!ac->avail))
		return cache_alloc_refill(cachep, flags);
	ac->touched = 1;
	return ac->entry[--ac->avail];
}

/* The per-CPU array is full: move a batch to the shared array or slabs. */
static void cache_flusharray(struct kmem_cache *cachep, struct array_cache *ac)
{
	int nid = numa_mem_id();
	struct kmem_cache_node *n = get_node(cachep, nid);
	unsigned int batchcount = ac->batchcount;
	LIST_HEAD(list);

	lockdep_assert_irqs_disabled();
	ac_in_use(ac);
	spin_lock(&n->list_lock);
	if (n->shared && n->shared->avail < n->shared->limit) {
		struct array_cache *shared = n->shared;

		shared->used = 1;
		batchcount = min(batchcount, shared->limit - shared->avail);
		copy_entries(&shared->entry[shared->avail], ac->entry,
			     batchcount);
		shared->avail += batchcount;
	} else {
		free_block(cachep, ac->entry, batchcount, nid, &list);
	}
	stats_freeable(n);
	spin_unlock(&n->list_lock);
	release_slab_list(cachep, &list);
	ac->avail -= batchcount;
	copy_entries(ac->entry, &ac->entry[batchcount], ac->avail);
}

/*
 * objp is from a reserve slab: it goes straight back there, never into
 * an array (true), unless memory is back and the slab turns ordinary
 * (false: the caller frees it as any other).
 */
static __noinline bool cache_free_pfmemalloc(struct kmem_cache *cachep,
					     void *objp)
{
	struct slab *slab = virt_to_slab(objp);
	struct kmem_cache_node *n = get_node(cachep, slab_nid(slab));
	bool kept = true;
	LIST_HEAD(list);

	lockdep_assert_irqs_disabled();
	spin_lock(&n->list_lock);
	/* Another CPU may have turned it ordinary since we looked. */
	if (!slab_test_pfmemalloc(slab) || slab_unreserve(cachep, slab))
		kept = false;
	else
		free_block(cachep, &objp, 1, slab_nid(slab), &list);
	spin_unlock(&n->list_lock);
	release_slab_list(cachep, &list);
	return kept;
}

/* --- alien caches: other nodes' objects on their way home --------------- */

/*
 * Send the objects of node nid in ac home: topping up nid's shared
 * array first, the rest to their slabs (Linux's __drain_alien_cache()).
 * The alien array's lock held; takes nid's list_lock.
 */
static void __drain_alien_cache(struct kmem_cache *cachep,
				struct array_cache *ac, int nid,
				struct list_head *list)
{
	struct kmem_cache_node *n = get_node(cachep, nid);

	lockdep_assert_irqs_disabled();
	if (!ac->avail)
		return;
	spin_lock(&n->list_lock);
	if (n->shared)
		transfer_objects(n->shared, ac, ac->limit);
	free_block(cachep, ac->entry, ac->avail, nid, list);
	ac->avail = 0;
	spin_unlock(&n->list_lock);
}

void drain_alien_caches(struct kmem_cache *cachep, struct kmem_cache_node *n)
{
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		struct alien_cache *alien = n->alien[nid];
		unsigned long flags;
		LIST_HEAD(list);

		if (!alien)
			continue;
		spin_lock_irqsave(&alien->lock, flags);
		__drain_alien_cache(cachep, &alien->ac, nid, &list);
		spin_unlock_irqrestore(&alien->lock, flags);
		release_slab_list(cachep, &list);
	}
}

/*
 * objp, of node home, is freed on a CPU of node nid: into nid's alien
 * array for home, which goes home in one batch when full (counted in
 * alienoverflow); straight to home's lists while there is no such array
 * (boot caches, before their arrays are made). Interrupts off.
 */
static __noinline void __cache_free_alien(struct kmem_cache *cachep,
					  void *objp, int nid, int home)
{
	struct alien_cache *alien = get_node(cachep, nid)->alien[home];
	struct kmem_cache_node *n;
	LIST_HEAD(list);

	if (unlikely(slab_stats_on()))
		cpu_stats(cachep)->remote_frees++;
	if (alien) {
		struct array_cache *ac = &alien->ac;

		spin_lock(&alien->lock);
		if (unlikely(ac->avail >= ac->limit)) {
			if (unlikely(slab_stats_on()))
				cpu_stats(cachep)->alien_overflow++;
			__drain_alien_cache(cachep, ac, home, &list);
		}
		ac->entry[ac->avail++] = objp;
		spin_unlock(&alien->lock);
	} else {
		n = get_node(cachep, home);
		spin_lock(&n->list_lock);
		free_block(cachep, &objp, 1, home, &list);
		spin_unlock(&n->list_lock);
	}
	release_slab_list(cachep, &list);
}

/*
 * Is objp another node's (Linux's cache_free_alien())? Then it is on its
 * way home and true; false for an object of this CPU's memory node,
 * which the caller frees as on one node. Interrupts off.
 */
static inline bool cache_free_alien(struct kmem_cache *cachep, void *objp)
{
	int home = page_to_nid(virt_to_page(objp));
	int nid = numa_mem_id();

	if (likely(home == nid))
		return false;
	__cache_free_alien(cachep, objp, nid, home);
	return true;
}

/*
 * Push onto the per-CPU array, flushing a batch when it is full, minding
 * other nodes' objects (if several_nodes) and reserve objects (the slow
 * path and bulk free, which have marked the array in use: ac_in_use()).
 * Interrupts off.
 */
static __always_inline void __cpu_cache_free(struct kmem_cache *cachep,
					     void *objp, bool several_nodes)
{
	struct array_cache *ac;

	if (several_nodes && cache_free_alien(cachep, objp))
		return;
	ac = cpu_cache_get(cachep);
	if (unlikely(pfmemalloc_active()) &&
	    slab_test_pfmemalloc(virt_to_slab(objp)) &&
	    cache_free_pfmemalloc(cachep, objp))
		return;
	if (unlikely(ac->avail >= ac->limit))
		cache_flusharray(cachep, ac);
	ac->entry[ac->avail++] = objp;
}

static __always_inline void cpu_cache_free(struct kmem_cache *cachep,
					   void *objp)
{
	__cpu_cache_free(cachep, objp, slab_nr_nodes > 1);
}

/*
 * What zero_or_null_or_kfence() sends here: NULL and ZERO_SIZE_PTR are
 * ignored, a KFENCE object goes to KFENCE, anything else in the range
 * (on the host, a low address below the pool) is a bad pointer.
 */
static __noinline void slab_free_special(const void *objp)
{
	if (is_kfence_address(objp))
		kfence_free(objp);
	else if (!ZERO_OR_NULL_PTR(objp))
		slab_report_bad_ptr(objp, _RET_IP_, REPORT_SLAB_NOT_KMALLOC,
				    "free of a pointer not from a slab (below KFENCE's pool)");
}

/* kmem_cache_free_bulk()'s loop, with the node test out of it. */
static __always_inline void cpu_cache_free_bulk(struct kmem_cache *cachep,
						size_t nr, void **p,
						bool several_nodes)
{
	for (size_t i = 0; i < nr; i++) {
		if (zero_or_null_or_kfence(p[i]))
			slab_free_special(p[i]);
		else
			__cpu_cache_free(cachep, p[i], several_nodes);
	}
}

/*
 * One object straight from the slabs of node nid (NUMA_NO_NODE: this
 * CPU's memory node), for caches that keep no per-CPU arrays
 * (slab_debug). NULL if memory ran out.
 */
void *cache_alloc_one(struct kmem_cache *cachep, gfp_t flags, int nid)
{
	unsigned long irqflags = arch_irq_save();
	void *objp;

	if (nid == NUMA_NO_NODE)
		nid = numa_mem_id();
	if (get_node(cachep, nid))
		objp = cache_alloc_node(cachep, flags, nid);
	else
		objp = stats_node_alloc(cachep, fallback_alloc(cachep, flags, nid));
	arch_irq_restore(irqflags);
	return objp;
}

/* Straight back to its slab, on its own node's lists. */
void cache_free_one(struct kmem_cache *cachep, void *objp)
{
	int nid = slab_nid(virt_to_slab(objp));
	struct kmem_cache_node *n = get_node(cachep, nid);
	unsigned long irqflags = arch_irq_save();
	LIST_HEAD(list);

	spin_lock(&n->list_lock);
	free_block(cachep, &objp, 1, nid, &list);
	spin_unlock(&n->list_lock);
	release_slab_list(cachep, &list);
	arch_irq_restore(irqflags);
}

/*
 * A zone modifier the cache cannot honour: GFP_DMA32 (there are no
 * kmalloc-dma32 caches, as in Linux) or GFP_DMA on a cache made without
 * SLAB_CACHE_DMA. Refused loudly as Linux does (kmalloc_fix_flags(),
 * kmem_flagcheck()), never in silence: a WARNING, and the modifier is
 * dropped, so the object comes from the cache's own zone.
 */
static __noinline gfp_t slab_fix_zone(struct kmem_cache *cachep, gfp_t flags)
{
	WARN(1, "%s: unexpected gfp %#x: the cache's objects are not in zone %s, modifier dropped; fix the caller\n",
	     cachep->name, flags,
	     NODE_DATA(0)->node_zones[gfp_zone(flags)].name);
	return flags & ~GFP_ZONEMASK;
}

static inline bool slab_zone_ok(const struct kmem_cache *cachep, gfp_t flags)
{
	return !(flags & GFP_ZONEMASK) ||
	       gfp_zone(flags) >= gfp_zone(cachep->allocflags);
}

/*
 * The object for a node-less allocation, or one asked for on node nid:
 * this CPU's array when nid is its memory node (as NUMA_NO_NODE), an
 * offline node's objects from the nearest node (Linux's fallback_alloc
 * for a node not bootstrapped), else the node's lists. Interrupts off.
 */
static void *cache_alloc_nid(struct kmem_cache *cachep, gfp_t flags, int nid)
{
	if (nid == NUMA_NO_NODE || nid == numa_mem_id()) {
		if (unlikely(slab_stats_on()))
			stats_alloc(cachep);
		return cpu_cache_alloc(cachep, flags);
	}
	if (!get_node(cachep, nid))
		return stats_node_alloc(cachep, fallback_alloc(cachep, flags, nid));
	return cache_alloc_node(cachep, flags, nid);
}

/*
 * KASAN (mm/kasan.h): the object valid to the object size (zeroed there
 * if asked), then a kmalloc object only to the size asked for.
 */
static __noinline void *slab_alloc_kasan(struct kmem_cache *cachep,
					 void *objp, gfp_t flags,
					 size_t orig_size)
{
	objp = kasan_slab_alloc(cachep, objp, flags, flags & __GFP_ZERO);
	if (orig_size)
		objp = kasan_kmalloc(cachep, objp, orig_size, flags);
	return objp;
}

/*
 * Everything but the plain pop: refills, allocations on a node, reserve
 * objects, zone modifiers, failslab, debugged caches, statistics (and
 * the zeroing of what comes this way). orig_size is what kmalloc was
 * asked for (0: the object size); nid a node or NUMA_NO_NODE.
 */
static __noinline void *slab_alloc_slow(struct kmem_cache *cachep, gfp_t flags,
					int nid, size_t orig_size,
					unsigned long caller)
{
	unsigned long irqflags;
	void *objp;

	if (unlikely(!slab_zone_ok(cachep, flags)))
		flags = slab_fix_zone(cachep, flags);
	if (unlikely(failslab.enabled) && should_failslab(cachep, flags))
		return NULL;
	if (slab_want_init_on_alloc(flags, cachep))
		flags |= __GFP_ZERO;
	if (unlikely(kfence_sample_due()) && nid == NUMA_NO_NODE) {
		objp = kfence_alloc(cachep, orig_size, flags);
		if (objp)
			return objp;
	}
	if (unlikely(cache_debug(cachep)))
		return slab_debug_alloc(cachep, flags, nid, orig_size, caller);
	irqflags = arch_irq_save();
	objp = cache_alloc_nid(cachep, flags, nid);
	arch_irq_restore(irqflags);
	if (kasan_enabled())
		return slab_alloc_kasan(cachep, objp, flags, orig_size);
	if (unlikely(flags & __GFP_ZERO) && objp)
		memset(objp, 0, cachep->object_size);
	return objp;
}

/* The stack <asm/rseq.h>'s sequences work on: count, then limit. */
BUILD_BUG_ON(offsetof(struct array_cache, avail) != 0 ||
	     offsetof(struct array_cache, limit) != 4);

/*
 * The fast path, kept free of calls so it needs no stack frame: pop the
 * top of the per-CPU array if there is one and nothing else (failslab,
 * statistics, a zone modifier) is in play, then zero it if asked (a
 * tail call to memset); anything else takes the slow path. The pop is a
 * restartable sequence (kernel/rseq.h), interrupts left as they are:
 * an interrupt inside it restarts it. Never a reserve object: the
 * arrays hold none. No ac->touched here: see struct array_cache.
 */
static __always_inline void *slab_alloc(struct kmem_cache *cachep, gfp_t flags,
					size_t orig_size, unsigned long caller)
{
	void *objp;

	if (unlikely((flags | SLAB_GFP_ANY) & slab_slowpath_gfp))
		goto slow;
	objp = arch_rseq_stack_pop((void *const *)cachep->cpu_cache,
				   arch_cpu_id(),
				   offsetof(struct array_cache, entry));
	if (unlikely(!objp))
		goto slow;
	if (kasan_enabled())
		return slab_alloc_kasan(cachep, objp, flags, orig_size);
	if (unlikely(flags & __GFP_ZERO))	/* a tail call */
		return memset(objp, 0, cachep->object_size);
	return objp;
slow:
	return slab_alloc_slow(cachep, flags, NUMA_NO_NODE, orig_size,
			       slab_caller(caller));
}

/*
 * Free past KASAN: the slow path's work for an object KASAN has seen
 * already (the quarantine hands its objects back through here).
 */
void ___cache_free(struct kmem_cache *cachep, void *objp, unsigned long caller)
{
	unsigned long irqflags;

	if (unlikely(cache_debug(cachep))) {
		slab_debug_free(cachep, objp, caller);
		return;
	}
	/* Under KASAN, kasan_slab_free() zeroed it before poisoning it. */
	if (!kasan_enabled() && slab_want_init_on_free(cachep))
		memset(objp, 0, cachep->object_size);
	irqflags = arch_irq_save();
	ac_in_use(cpu_cache_get(cachep));	/* before stats read its limit */
	if (unlikely(slab_stats_on()))
		stats_free(cachep);
	cpu_cache_free(cachep, objp);
	arch_irq_restore(irqflags);
}

static __noinline void slab_free_slow(struct kmem_cache *cachep, void *objp,
				      unsigned long caller)
{
	___cache_free(cachep, objp, caller);
}

/*
 * Free another node's object, past KASAN, with nothing but
 * KFREE_CHECK_NODE in kfree_checks (no debugging, statistics or reserve
 * slabs to mind): straight to this node's alien array for its home, as
 * Linux's __cache_free() goes to cache_free_alien() first. An object of
 * this node after all (kfree_checks changed on the way) takes the slow
 * path.
 */
static __noinline void slab_free_remote(struct kmem_cache *cachep, void *objp,
					unsigned long caller)
{
	unsigned long irqflags = arch_irq_save();
	bool sent = cache_free_alien(cachep, objp);

	arch_irq_restore(irqflags);
	if (!sent)
		___cache_free(cachep, objp, caller);
}

/* The push of the fast paths: false if the array is full. */
static __always_inline bool slab_free_push(struct kmem_cache *cachep,
					   void *objp)
{
	return arch_rseq_stack_push((void *const *)cachep->cpu_cache,
				    arch_cpu_id(),
				    offsetof(struct array_cache, entry), objp);
}

/*
 * kmem_cache_free() with kfree_checks set. With KFREE_CHECK_NODE alone,
 * an object of this CPU's memory node is pushed as the fast path does,
 * as kfree() does; another node's goes home (slab_free_remote()), and
 * anything else takes the slow path.
 */
static __noinline void slab_free_checked(struct kmem_cache *cachep,
					 void *objp, unsigned long caller)
{
	if (kfree_checks == KFREE_CHECK_NODE) {
		if (page_to_nid(virt_to_page(objp)) != numa_mem_id()) {
			slab_free_remote(cachep, objp, caller);
			return;
		}
		if (slab_free_push(cachep, objp))
			return;
	}
	slab_free_slow(cachep, objp, caller);
}

/*
 * The fast path: push onto a per-CPU array with room, nothing in
 * kfree_checks (kfree has tested it when it gets here: check_pfmemalloc
 * false; kmem_cache_free() takes slab_free_checked() for it). A debugged
 * cache's array has no room (limit 0). The push is a restartable
 * sequence, as slab_alloc()'s pop.
 */
static __always_inline void slab_free(struct kmem_cache *cachep, void *objp,
				      unsigned long caller,
				      bool check_pfmemalloc)
{
	if (kasan_slab_free(cachep, objp, slab_caller(caller)))
		return;	/* quarantined, or a bad free reported */
	if (unlikely(check_pfmemalloc && kfree_checks)) {
		slab_free_checked(cachep, objp, slab_caller(caller));
		return;
	}
	if (likely(slab_free_push(cachep, objp)))
		return;
	slab_free_slow(cachep, objp, slab_caller(caller));
}

void *kmem_cache_alloc(struct kmem_cache *cachep, gfp_t flags)
{
	return slab_alloc(cachep, flags, 0, 0);
}

/*
 * A node id the allocation may use: NUMA_NO_NODE or below MAX_NUMNODES.
 * Linux indexes its node array with anything; here anything else is a
 * WARNING and the allocation goes to the local node (an offline node's
 * id is valid: its allocations come from the nearest node).
 */
static int slab_node_checked(int nid)
{
	if (WARN(nid < NUMA_NO_NODE || nid >= MAX_NUMNODES,
		      "slab: allocation on node %d, there are %d node ids; local node used\n",
		      nid, MAX_NUMNODES))
		return NUMA_NO_NODE;
	return nid;
}

/*
 * Linux's slab_alloc_node(): NUMA_NO_NODE, and this CPU's memory node
 * unless __GFP_THISNODE, take the plain fast path (the per-CPU array
 * holds that node's objects only, section 8); another node, its lists.
 */
static __always_inline void *slab_alloc_node(struct kmem_cache *cachep,
					     gfp_t flags, int nid,
					     size_t orig_size,
					     unsigned long caller)
{
	if (nid == NUMA_NO_NODE ||
	    (nid == numa_mem_id() && !(flags & __GFP_THISNODE)))
		return slab_alloc(cachep, flags, orig_size, caller);
	return slab_alloc_slow(cachep, flags, slab_node_checked(nid),
			       orig_size, slab_caller(caller));
}

void *kmem_cache_alloc_node(struct kmem_cache *cachep, gfp_t flags, int node)
{
	return slab_alloc_node(cachep, flags, node, 0, 0);
}

void *kmem_cache_zalloc(struct kmem_cache *cachep, gfp_t flags)
{
	return slab_alloc(cachep, flags | __GFP_ZERO, 0, 0);
}

void kmem_cache_free(struct kmem_cache *cachep, void *objp)
{
	if (zero_or_null_or_kfence(objp)) {
		slab_free_special(objp);
		return;
	}
	slab_free(cachep, objp, 0, true);
}

/*
 * Bulk allocation, one at a time through the slow path: failslab,
 * debugging, zone modifiers, the reserve.
 */
static size_t alloc_bulk_checked(struct kmem_cache *cachep, gfp_t flags,
				 size_t nr, void **p, unsigned long caller)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		p[i] = slab_alloc_slow(cachep, flags, NUMA_NO_NODE, 0, caller);
		if (!p[i])
			break;
	}
	return i;
}

static size_t alloc_bulk(struct kmem_cache *cachep, gfp_t flags, size_t nr,
			 void **p)
{
	unsigned long irqflags = arch_irq_save();
	size_t i;

	for (i = 0; i < nr; i++) {
		p[i] = cpu_cache_alloc(cachep, flags);
		if (unlikely(!p[i]))
			break;
	}
	arch_irq_restore(irqflags);
	if (kasan_enabled()) {
		struct kasan_bulk bulk = { 0 };

		for (size_t j = 0; j < i; j++)
			p[j] = kasan_slab_alloc_bulk(cachep, p[j], flags,
						     flags & __GFP_ZERO, &bulk);
		return i;
	}
	if (unlikely(flags & __GFP_ZERO))
		for (size_t j = 0; j < i; j++)
			memset(p[j], 0, cachep->object_size);
	return i;
}

int kmem_cache_alloc_bulk(struct kmem_cache *cachep, gfp_t flags, size_t nr,
			  void **p)
{
	size_t i;

	/* What sends one allocation to the slow path sends the bulk. */
	if (unlikely(cache_debug(cachep) ||
		     ((flags | SLAB_GFP_ANY) & slab_slowpath_gfp)))
		i = alloc_bulk_checked(cachep, flags, nr, p, _RET_IP_);
	else
		i = alloc_bulk(cachep, flags, nr, p);
	if (i < nr) {
		kmem_cache_free_bulk(cachep, i, p);
		return 0;
	}
	return (int)nr;
}

void kmem_cache_free_bulk(struct kmem_cache *cachep, size_t nr, void **p)
{
	unsigned long irqflags;

	/* What sends one free to the slow path sends the bulk. */
	if (unlikely(cache_debug(cachep) || slab_stats_on() ||
		     slab_want_init_on_free(cachep) || kasan_enabled())) {
		struct kasan_bulk bulk = { 0 };

		for (size_t i = 0; i < nr; i++) {
			if (zero_or_null_or_kfence(p[i]))
				slab_free_special(p[i]);
			else if (!kasan_slab_free_bulk(cachep, p[i], _RET_IP_,
						       &bulk))
				slab_free_slow(cachep, p[i], _RET_IP_);
		}
		return;
	}
	irqflags = arch_irq_save();
	ac_in_use(cpu_cache_get(cachep));
	if (unlikely(slab_nr_nodes > 1))
		cpu_cache_free_bulk(cachep, nr, p, true);
	else
		cpu_cache_free_bulk(cachep, nr, p, false);
	arch_irq_restore(irqflags);
}

unsigned int kmem_cache_size(struct kmem_cache *cachep)
{
	return cachep->object_size;
}

/* --- kmalloc ----------------------------------------------------------- */

/*
 * kmalloc size classes (mm/slab.h): one table load for any size. Sizes
 * up to 192 index size_index by (size - 1) / 8, larger ones
 * size_index_64 by (size - 1) / 64: every class above 192 is a multiple
 * of 64, so a 64-byte slot never straddles two classes.
 */
static const u8 size_index[24] = {
	3, 4, 5, 5, 6, 6, 6, 6,		/* 8, 16, 32, 32, 64 x 4 */
	1, 1, 1, 1, 7, 7, 7, 7,		/* 96 x 4, 128 x 4 */
	2, 2, 2, 2, 2, 2, 2, 2,		/* 192 x 8 */
};

/*
 * The slots of sizes ((q - 1) / 4, q / 4] of 2^(shift - 1), q = 5..8, in
 * 64-byte slots: a quarter is 2^(shift - 9) of them.
 */
#define SLOTS(shift, q) \
	[((q) - 1) << ((shift) - 9) ... ((q) << ((shift) - 9)) - 1]
#define DOUBLING(shift) \
	SLOTS(shift, 5) = KMALLOC_STEP_INDEX(shift, 0), \
	SLOTS(shift, 6) = KMALLOC_STEP_INDEX(shift, 1), \
	SLOTS(shift, 7) = KMALLOC_STEP_INDEX(shift, 2), \
	SLOTS(shift, 8) = shift

/* Slots 0..2 (sizes up to 192) are never read. */
static const u8 size_index_64[KMALLOC_MAX_CACHE_SIZE / 64] = {
	[3] = 8,			/* 193..256 */
	DOUBLING(9), DOUBLING(10), DOUBLING(11), DOUBLING(12), DOUBLING(13),
};

_Static_assert(KMALLOC_SHIFT_STEPS == 9 && KMALLOC_SHIFT_HIGH == 13,
	       "size_index_64 lists the doublings 9..13");
#undef DOUBLING
#undef SLOTS

static inline unsigned int kmalloc_index(size_t size)
{
	if (size <= 192)
		return size_index[(size - 1) / 8];
	return size_index_64[(size - 1) / 64];
}

/* The cache for 1..KMALLOC_MAX_CACHE_SIZE bytes. */
static inline struct kmem_cache *kmalloc_cache(size_t size, gfp_t flags)
{
	return kmalloc_caches[!!(flags & GFP_DMA)][kmalloc_index(size)];
}

struct kmem_cache *kmalloc_slab(size_t size, gfp_t flags)
{
	if (!size || size > KMALLOC_MAX_CACHE_SIZE)
		return NULL;
	return kmalloc_cache(size, flags);
}

static void *kmalloc_large(size_t size, gfp_t flags, int nid)
{
	struct page *page;

	if (size > KMALLOC_MAX_SIZE) {
		WARN_ON_ONCE(!(flags & __GFP_NOWARN));
		return NULL;
	}
	if (nid == NUMA_NO_NODE)
		page = alloc_pages(flags | __GFP_COMP, get_order(size));
	else
		page = alloc_pages_node(nid, flags | __GFP_COMP, get_order(size));
	if (!page)
		return NULL;
	return kasan_kmalloc_large(page_address(page), size, flags);
}

static __noinline void *kmalloc_odd_size(size_t size, gfp_t flags, int nid)
{
	return size ? kmalloc_large(size, flags, nid) : ZERO_SIZE_PTR;
}

void *__kmalloc(size_t size, gfp_t flags)
{
	/* One test for both 0 and above 8 KiB: size - 1 wraps for 0. */
	if (unlikely(size - 1 >= KMALLOC_MAX_CACHE_SIZE))
		return kmalloc_odd_size(size, flags, NUMA_NO_NODE);
	return slab_alloc(kmalloc_cache(size, flags), flags, size, 0);
}

/* kmalloc of a size known at compile time: the cache is chosen. */
void *kmalloc_trace(struct kmem_cache *cachep, gfp_t flags, size_t size)
{
	return slab_alloc(cachep, flags, size, 0);
}

void *kmalloc_node(size_t size, gfp_t flags, int node)
{
	if (node != NUMA_NO_NODE)
		node = slab_node_checked(node);
	if (unlikely(size - 1 >= KMALLOC_MAX_CACHE_SIZE))
		return kmalloc_odd_size(size, flags, node);
	return slab_alloc_node(kmalloc_cache(size, flags), flags, node, size,
			       _RET_IP_);
}

static __noinline void free_large_kmalloc(struct page *page,
					  const void *objp, unsigned long caller)
{
	if (!PageHead(page)) {
		slab_report_bad_ptr(objp, caller, REPORT_SLAB_NOT_KMALLOC,
				    "kfree of a pointer not from kmalloc (not a slab, not a large allocation)");
		return;
	}
	if (objp != page_address(page)) {
		slab_report_bad_ptr(objp, caller, REPORT_SLAB_INSIDE_LARGE,
				    "kfree of a pointer inside a large allocation");
		return;
	}
	__free_pages(page, compound_order(page));
}

/* Is objp worth looking at? Only checked while some cache is debugged. */
static bool ptr_checked_ok(const void *objp, const char *what,
			   unsigned long caller)
{
	return !slab_nr_debug_caches || is_kfence_address(objp) ||
	       slab_debug_ptr_ok(objp, what, caller);
}

/*
 * kfree by what owns the pointer's page: a slab's object goes back to its
 * cache, anything else to free_large_kmalloc(), which frees a large
 * kmalloc's pages or reports a bad pointer.
 */
static __always_inline void kfree_slab_or_large(const void *objp,
						unsigned long caller,
						bool check_pfmemalloc)
{
	/* Every page of a slab knows its cache: no compound_head() here. */
	struct page *page = virt_to_page(objp);

	if (unlikely(!page_in_slab(page))) {
		free_large_kmalloc(compound_head(page), objp,
				   slab_caller(caller));
		return;
	}
	slab_free(page_slab_cache(page), (void *)objp, caller,
		  check_pfmemalloc);
}

/*
 * kfree_checks is set, and the object is not one kfree_local() lets
 * through. With KFREE_CHECK_NODE alone, a slab's object is another
 * node's: slab_free_remote(). Otherwise, while some cache is debugged,
 * first check the pointer is RAM at all; then free it minding pfmemalloc
 * slabs and nodes (another node's object goes home, in the slow path).
 */
static __noinline void kfree_checked(const void *objp, unsigned long caller)
{
	const struct page *page = virt_to_page(objp);

	if (kfree_checks == KFREE_CHECK_NODE && page_in_slab(page)) {
		struct kmem_cache *cachep = page_slab_cache(page);

		if (!kasan_slab_free(cachep, (void *)objp, caller))
			slab_free_remote(cachep, (void *)objp, caller);
		return;
	}
	if (ptr_checked_ok(objp, "kfree", caller))
		kfree_slab_or_large(objp, caller, true);
}

/*
 * With several nodes and nothing else in kfree_checks, may objp take
 * the fast path? Yes for an object of a slab on this CPU's memory node,
 * as Linux's cache_free_alien() lets it: a test of the struct page the
 * fast path reads anyway.
 */
static __always_inline bool kfree_local(const void *objp)
{
	const struct page *page = virt_to_page(objp);

	/* A load of its own: kfree()'s test of kfree_checks stays one cmpb. */
	return READ_ONCE(kfree_checks) == KFREE_CHECK_NODE &&
	       page_in_slab(page) && page_to_nid(page) == numa_mem_id();
}

static __always_inline void __kfree(const void *objp, unsigned long caller)
{
	if (zero_or_null_or_kfence(objp)) {
		slab_free_special(objp);
		return;
	}
	if (unlikely(kfree_checks) && !kfree_local(objp)) {
		kfree_checked(objp, slab_caller(caller));
		return;
	}
	kfree_slab_or_large(objp, caller, false);
}

void kfree(const void *objp)
{
	__kfree(objp, 0);
}

/*
 * The bytes of an allocation: capacity (what it could hold) and, on a
 * red-zoned cache, what the caller asked for (the rest is guarded).
 */
static size_t alloc_capacity(const void *objp, struct kmem_cache **cachep)
{
	struct page *page;

	*cachep = NULL;
	if (is_kfence_address(objp))	/* not in the direct map */
		return kfence_ksize(objp);
	page = compound_head(virt_to_page(objp));
	if (!PageSlab(page))
		return PAGE_SIZE << compound_order(page);
	*cachep = page_slab(page)->slab_cache;
	return (*cachep)->object_size;
}

static size_t alloc_in_use(const void *objp, size_t capacity,
			   struct kmem_cache *cachep)
{
	if (cachep && cache_debug(cachep))
		return slab_debug_orig_size(cachep, objp);
	return capacity;
}

size_t __ksize(const void *objp)
{
	struct kmem_cache *cachep;

	if (ZERO_OR_NULL_PTR(objp))
		return 0;
	return alloc_capacity(objp, &cachep);
}

size_t ksize(const void *objp)
{
	struct kmem_cache *cachep;
	size_t size;

	if (ZERO_OR_NULL_PTR(objp))
		return 0;
	if (!ptr_checked_ok(objp, "ksize", _RET_IP_) || !kasan_check_byte(objp))
		return 0;
	size = alloc_capacity(objp, &cachep);
	/* As Linux: every byte ksize() gives is valid from now on. */
	kasan_unpoison_range(objp, size);
	/* The caller may now use every byte: stop guarding the tail. */
	if (cachep && cache_debug(cachep))
		slab_debug_set_orig_size(cachep, (void *)objp, size);
	return size;
}

void kfree_sensitive(const void *objp)
{
	struct kmem_cache *cachep;
	size_t capacity;

	if (ZERO_OR_NULL_PTR(objp))
		return;
	if (!ptr_checked_ok(objp, "kfree", _RET_IP_))
		return;
	capacity = alloc_capacity(objp, &cachep);
	kasan_unpoison_range(objp, capacity);	/* as Linux's ksize() */
	memset((void *)objp, 0, alloc_in_use(objp, capacity, cachep));
	__kfree(objp, _RET_IP_);
}

/*
 * Whether krealloc() keeps an object of this capacity for new_size:
 * when it fits and moving would save less than half of it (or at most
 * KREALLOC_KEEP bytes). Linux's krealloc() never shrinks; here a large
 * buffer cut down to a small one moves to a class its size.
 */
#define KREALLOC_KEEP	64

static bool krealloc_keeps(size_t capacity, size_t new_size)
{
	return capacity >= new_size &&
	       (new_size > capacity / 2 || capacity <= KREALLOC_KEEP);
}

void *krealloc(const void *p, size_t new_size, gfp_t flags)
{
	struct kmem_cache *cachep = NULL;
	size_t capacity = 0;
	void *ret;

	if (unlikely(!new_size)) {
		__kfree(p, _RET_IP_);
		return ZERO_SIZE_PTR;
	}
	if (!ZERO_OR_NULL_PTR(p)) {
		if (!ptr_checked_ok(p, "kfree", _RET_IP_) || !kasan_check_byte(p))
			return NULL;
		capacity = alloc_capacity(p, &cachep);
	}
	if (krealloc_keeps(capacity, new_size))
		goto keep;
	/* Shrinking may fail to move: then the object stays as it is. */
	ret = kmalloc(new_size, capacity >= new_size ? flags | __GFP_NOWARN :
						       flags);
	if (!ret) {
		if (capacity >= new_size)
			goto keep;
		return NULL;
	}
	if (capacity) {
		kasan_unpoison_range(p, capacity);	/* as Linux's ksize() */
		memcpy(ret, p, min(alloc_in_use(p, capacity, cachep), new_size));
	}
	__kfree(p, _RET_IP_);
	return ret;
keep:
	if (cachep && cache_debug(cachep))
		slab_debug_set_orig_size(cachep, (void *)p, new_size);
	return kasan_krealloc(p, new_size, flags);
}

static __noinline void __drain_array(struct kmem_cache *cachep,
				     struct array_cache *ac, int nid)
{
	struct kmem_cache_node *n = get_node(cachep, nid);
	unsigned long flags;
	LIST_HEAD(list);

	spin_lock_irqsave(&n->list_lock, flags);
	free_block(cachep, ac->entry, ac->avail, nid, &list);
	ac->avail = 0;
	spin_unlock_irqrestore(&n->list_lock, flags);
	release_slab_list(cachep, &list);
}

/*
 * Give everything in ac (objects of node nid) back to the slabs. An
 * empty array costs only the test: a tune drains every CPU's old one.
 */
void drain_array(struct kmem_cache *cachep, struct array_cache *ac, int nid)
{
	if (ac && ac->avail)
		__drain_array(cachep, ac, nid);
}

void slab_failslab_changed(void)
{
	slab_fastpath_update();
}

/* --- cache_reap: idle caches give back what they keep ------------------- */

/*
 * Part of an array not used since the last pass goes back to its slabs
 * (Linux's drain_array_locked(), not forced): a fifth of its limit, the
 * bottom of the stack, the oldest objects; the top, which the next
 * allocation pops, stays. An array idle for a second pass in a row, or
 * holding less than a fifth, gives back all it holds: Linux halves the
 * remainder instead, which takes an idle cache a dozen passes (24 s) to
 * empty; this takes three. A used array is only marked unused, and
 * this CPU's own array armed (struct array_cache) so that its next free
 * says it is in use. A per-CPU array only on its own CPU. n->list_lock
 * held.
 */
static unsigned int reap_array(struct kmem_cache *cachep, int nid,
			       struct array_cache *ac, bool arm,
			       struct list_head *list)
{
	unsigned int limit, tofree;

	lockdep_assert_held(&get_node(cachep, nid)->list_lock);
	lockdep_assert_irqs_disabled();
	if (!ac || !ac->avail)
		return 0;
	if (ac->used) {
		ac->used = 0;
		ac->idle = 0;
		if (arm && ac->limit) {
			ac->armed_limit = ac->limit;
			ac->limit = 0;
		}
		return 0;
	}
	limit = ac->armed_limit ? ac->armed_limit : ac->limit;
	tofree = (limit + 4) / 5;
	if (tofree > ac->avail || ac->idle)
		tofree = ac->avail;
	ac->idle = 1;
	free_block(cachep, ac->entry, tofree, nid, list);
	ac->avail -= tofree;
	copy_entries(ac->entry, &ac->entry[tofree], ac->avail);
	ac->touched = 0;	/* idle: its next refill is a small one */
	return tofree;
}

/*
 * Free slabs the node has not needed since the last pass: up to a fifth
 * of free_limit's worth go back to the page allocator, the coldest (the
 * tail) first (Linux's drain_freelist() from cache_reap); all of them
 * at the second such pass in a row (as reap_array()). n->list_lock
 * held; the slabs move to list.
 */
static unsigned int reap_free_slabs(struct kmem_cache *cachep,
				    struct kmem_cache_node *n,
				    struct list_head *list)
{
	unsigned int max = (n->free_limit + 5 * cachep->num - 1) /
			   (5 * cachep->num);
	unsigned int nr = 0;

	lockdep_assert_held(&n->list_lock);
	if (n->free_touched) {
		n->free_touched = 0;
		n->free_idle = 0;
		return 0;
	}
	if (n->free_idle)
		max = UINT_MAX;
	n->free_idle = 1;
	while (nr < max && !list_empty(&n->slabs_free)) {
		take_free_slab(cachep, n, list);
		if (unlikely(slab_stats_on()))
			n->stats.reaped++;
		nr++;
	}
	return nr;
}

/*
 * Reserve slabs of this node that nobody met since memory came back
 * become ordinary, so the reserve state ends even when no allocation or
 * free meets them (section 4). Stops at the first one that must stay
 * (memory still short: the others must too). n->list_lock held.
 */
static unsigned int reap_pfmemalloc(struct kmem_cache *cachep,
				    struct kmem_cache_node *n)
{
	struct list_head *lists[] = { &n->slabs_partial, &n->slabs_full,
				      &n->slabs_free };
	unsigned int nr = 0;

	lockdep_assert_held(&n->list_lock);
	if (likely(!pfmemalloc_active()))
		return 0;
	for (int i = 0; i < 3; i++) {
		struct slab *slab;

		list_for_each_entry(slab, lists[i], slab_list) {
			if (!slab_test_pfmemalloc(slab))
				continue;
			if (!slab_unreserve(cachep, slab))
				return nr;
			nr++;
		}
	}
	return nr;
}

/*
 * Node nid's pass, if due (once per node_period, whichever CPU comes
 * first): its alien arrays go home, then its shared array, free slabs
 * and reserve slabs as above. Interrupts on.
 */
static void cache_reap_node(struct kmem_cache *cachep, int nid,
			    struct cache_reap_result *r,
			    unsigned long node_period)
{
	struct kmem_cache_node *n = get_node(cachep, nid);
	unsigned long flags;
	LIST_HEAD(list);

	if (!time_after_eq(jiffies, READ_ONCE(n->next_reap)))
		return;
	drain_alien_caches(cachep, n);
	spin_lock_irqsave(&n->list_lock, flags);
	if (time_after_eq(jiffies, n->next_reap)) {
		n->next_reap = jiffies + node_period;
		r->objects += reap_array(cachep, nid, n->shared, false, &list);
		r->slabs += reap_free_slabs(cachep, n, &list);
		r->unreserved += reap_pfmemalloc(cachep, n);
	}
	stats_freeable(n);
	spin_unlock_irqrestore(&n->list_lock, flags);
	release_slab_list(cachep, &list);
}

/*
 * One pass over cachep on this CPU (Linux's cache_reap() body for one
 * cache): this CPU's array, on its memory node's lists; then every
 * node's pass that is due, nodes without CPUs included. Interrupts on;
 * the caller holds slab_lock (by trylock).
 */
void cache_reap_one(struct kmem_cache *cachep, struct cache_reap_result *r,
		    unsigned long node_period)
{
	unsigned long flags;
	int nid;
	struct kmem_cache_node *n;
	LIST_HEAD(list);

	flags = arch_irq_save();
	nid = numa_mem_id();
	n = get_node(cachep, nid);
	spin_lock(&n->list_lock);
	r->objects += reap_array(cachep, nid, cpu_cache_get(cachep), true,
				 &list);
	spin_unlock(&n->list_lock);
	arch_irq_restore(flags);
	release_slab_list(cachep, &list);
	for_each_kmem_cache_node(cachep, nid, n)
		cache_reap_node(cachep, nid, r, node_period);
}

/* --- lock assertions, proven by tests/test_lockdep.c ------------------- */

/*
 * A cache never used: one empty node, no slabs, no arrays. Its node's
 * lock is a class of its own, named as the real ones.
 */
static __maybe_unused struct kmem_cache *empty_test_cache(void)
{
	static struct kmem_cache_node test_node;
	static struct kmem_cache test_cache;
	struct kmem_cache_node *n = &test_node;

	memset(n, 0, sizeof(*n));
	spin_lock_init(&n->list_lock);
	INIT_LIST_HEAD(&n->slabs_partial);
	INIT_LIST_HEAD(&n->slabs_full);
	INIT_LIST_HEAD(&n->slabs_free);
	memset(&test_cache, 0, sizeof(test_cache));
	test_cache.name = "lockdep-test";
	test_cache.node[0] = n;
	return &test_cache;
}

/* Nothing to free, and the node has no free slabs to release. */
static __maybe_unused void free_block_unlocked(void)
{
	LIST_HEAD(list);

	free_block(empty_test_cache(), NULL, 0, 0, &list);
}
LOCKDEP_ASSERT_TEST(free_block, "&n->list_lock", free_block_unlocked);

static __maybe_unused void get_first_slab_unlocked(void)
{
	struct kmem_cache *cachep = empty_test_cache();

	get_first_slab(cachep, get_node(cachep, 0), false);
}
LOCKDEP_ASSERT_TEST(get_first_slab, "&n->list_lock", get_first_slab_unlocked);

/* A slab of the test cache, in use, on no list: it goes to partial. */
static __maybe_unused void fixup_slab_list_unlocked(void)
{
	struct kmem_cache *cachep = empty_test_cache();
	static struct slab slab;

	INIT_LIST_HEAD(&slab.slab_list);
	slab.active = 1;
	cachep->num = 2;
	fixup_slab_list(cachep, get_node(cachep, 0), &slab);
}
LOCKDEP_ASSERT_TEST(fixup_slab_list, "&n->list_lock", fixup_slab_list_unlocked);

/* Recomputes the mode words from the state they summarise: no change. */
static __maybe_unused void slab_fastpath_update_unlocked(void)
{
	__slab_fastpath_update();
}
LOCKDEP_ASSERT_TEST(__slab_fastpath_update, "fastpath_lock",
		    slab_fastpath_update_unlocked);

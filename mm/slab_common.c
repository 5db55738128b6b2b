// SPDX-License-Identifier: GPL-2.0
/*
 * SLAB, the cold half: what a cache looks like and how caches come and
 * go (mm/slab.c is the allocator at work; its top comment is the design).
 *
 * 1. Geometry. For a new cache: the alignment, the object stride, then
 *    the freelist placement and slab order by waste, trying in turn the
 *    index array inside an object (off-slab first for objects of 512
 *    bytes and more), off-slab, and on-slab
 *    (set_slab_cache, Linux's calculate_slab_order rule: the smallest
 *    order whose leftover is at most 1/8 of the slab, here also holding
 *    at least 16 objects, up to slab_max_order), and the colours the
 *    leftover allows.
 * 2. Per-CPU parts. Array caches sized by object size (enable_cpucache),
 *    those of one node's CPUs in one block of its memory
 *    (alloc_cpu_arrays), a shared array per node, free_limit; during
 *    bootstrap one-entry arrays and nodes from static pools.
 *    do_tune_cpucache replaces them
 *    all, at creation and when slabinfo tunes a cache at run time.
 * 3. Life of a cache: kmem_cache_create validates its arguments and
 *    fails with a warning (or panics under SLAB_PANIC); shrink drains
 *    every array and frees the free slabs; destroy refuses, with a
 *    report naming live objects, while any remain.
 * 4. Bootstrap, statistics (slabinfo, objects in use per cache).
 *
 * Locking: slab_lock (a spinlock; Linux's slab_mutex, renamed for what
 * it is) guards the cache list and slab_nr_debug_caches, and is held
 * while a cache is worked out and inserted (kmem_cache_create), taken
 * out (kmem_cache_destroy), and by every walk over the caches. It is the
 * outermost lock of the allocators: see Documentation/locking/locking.md.
 */
#include "lib/bitops.h"
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/overflow.h"
#include "kernel/smp.h"
#include "kernel/params.h"
#include "kernel/rcupdate.h"
#include "lib/prandom.h"
#include "kernel/printk.h"
#include "kernel/report.h"
#include "lib/string.h"
#include "mm/internal.h"
#include "mm/kasan.h"
#include "mm/kfence.h"
#include "mm/memblock.h"
#include "mm/numa.h"
#include "mm/slab_internal.h"
#include "mm/util.h"

#define BOOT_CPUCACHE_ENTRIES	1
#define SLAB_MIN_OBJECTS	16	/* per slab, within slab_max_order */
#define SLAB_MAX_ORDER_HI	3	/* PAGE_ALLOC_COSTLY_ORDER */
#define NR_BOOT_CACHES		64	/* kmem_cache and 2 x 29 kmalloc */
#define SLAB_CREATE_FLAGS	(SLAB_HWCACHE_ALIGN | SLAB_CACHE_DMA | \
				 SLAB_PANIC | SLAB_TYPESAFE_BY_RCU | \
				 SLAB_DEBUG_FLAGS | SLAB_FREELIST_RANDOM | \
				 SLAB_RECLAIM_ACCOUNT)

enum slab_state { DOWN, PARTIAL, UP, FULL };

static enum slab_state slab_state;
static LIST_HEAD(slab_caches);
static DEFINE_SPINLOCK(slab_lock);	/* outermost: Documentation/locking/locking.md */
static unsigned int slab_max_order;

static bool freelist_random_all;	/* slab_freelist_random */
static u64 freelist_random_seed;

/*
 * Per-CPU parts are sized by nr_cpu_ids, not NR_CPUS: struct kmem_cache
 * ends in its cpu_cache[] pointers (kmem_cache_struct_size()), a node
 * carries its CPUs' statistics after it (kmem_cache_node_size()). The
 * cache of struct kmem_cache itself lives in static storage with room
 * for NR_CPUS.
 */
static union {
	struct kmem_cache cache;
	char room[sizeof(struct kmem_cache) +
		  NR_CPUS * sizeof(struct array_cache *)];
} kmem_cache_boot;
static struct kmem_cache *kmem_cache;	/* the cache of struct kmem_cache */

/*
 * Boot-time arrays, nodes and node statistics, until kmalloc can provide
 * them: NR_BOOT_CACHES x nr_cpu_ids arrays, NR_BOOT_CACHES x
 * nr_node_ids nodes with nr_cpu_ids statistics each, from memblock
 * (kmem_cache_reserve_boot(), before memblock hands its memory over).
 */
#define BOOT_ARRAY_WORDS \
	((sizeof(struct array_cache) + sizeof(void *) - 1) / sizeof(void *) + \
	 BOOT_CPUCACHE_ENTRIES)
#define BOOT_ARRAY_SIZE		(BOOT_ARRAY_WORDS * sizeof(void *))
static void *boot_arrays;	/* [NR_BOOT_CACHES][nr_cpu_ids] arrays */
static struct slab_cpu_stats *boot_cpu_stats;
static struct kmem_cache_node *boot_nodes;
static unsigned int nr_boot_caches;
static unsigned int nr_node_ids = 1;	/* the highest online node + 1 */

static size_t kmem_cache_struct_size(void)
{
	return struct_size((struct kmem_cache *)NULL, cpu_cache, nr_cpu_ids);
}

static size_t kmem_cache_node_size(void)
{
	return sizeof(struct kmem_cache_node) +
	       nr_cpu_ids * sizeof(struct slab_cpu_stats);
}

static void *boot_alloc(size_t size)
{
	phys_addr_t phys = memblock_alloc_pages_named(DIV_ROUND_UP(size, PAGE_SIZE),
						      "slab boot");

	if (!phys)
		panic("slab: no memory for the boot caches' per-CPU data");
	memset(__va(phys), 0, size);
	percpu_account(size);
	return __va(phys);
}

/* mm_core_init(), first: before the boot reservations are counted. */
void kmem_cache_reserve_boot(void)
{
	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		if (node_online(nid))
			nr_node_ids = nid + 1;
	boot_arrays = boot_alloc((size_t)NR_BOOT_CACHES * nr_cpu_ids *
				 BOOT_ARRAY_SIZE);
	boot_nodes = boot_alloc((size_t)NR_BOOT_CACHES * nr_node_ids *
				sizeof(*boot_nodes));
	boot_cpu_stats = boot_alloc((size_t)NR_BOOT_CACHES * nr_node_ids *
				    nr_cpu_ids * sizeof(*boot_cpu_stats));
}

/*
 * offset_to_index()'s multiplier for a cache of num objects of size bytes:
 * m = 2^S / size rounded up (S = SLAB_RECIPROCAL_SHIFT), so that
 * (offset * m) >> S is offset / size, one multiply and one shift. With
 * offset = q * size + r and m * size = 2^S + e (0 <= e < size),
 * offset * m / 2^S = q + (r + offset * e / 2^S) / size, which stays
 * below q + 1 while offset * e < 2^S: for every offset in the slab, when
 * its last one does. Slabs of at most 4 MiB (2^22) always pass, and
 * with objects of 8 bytes or more the product of an offset below 2^22
 * and m <= 2^41 fits in 64 bits. Both are checked.
 */
static u64 reciprocal_size(unsigned int size, unsigned int num)
{
	u64 m = ((1ULL << SLAB_RECIPROCAL_SHIFT) + size - 1) / size;
	u64 last = (u64)num * size - 1;

	BUG_ON(last * (m * size - (1ULL << SLAB_RECIPROCAL_SHIFT)) >=
	       1ULL << SLAB_RECIPROCAL_SHIFT);
	BUG_ON(last > U64_MAX / m);
	return m;
}

/* --- sizing a cache ------------------------------------------------------ */

/*
 * Objects per slab of 2^order pages, and the bytes left over, for a
 * freelist placement. On-slab, the index array (rounded up to align)
 * comes first, so fewer objects fit; indices are one byte when at most
 * 256 objects fit, else two.
 */
static unsigned int cache_estimate(unsigned int order, unsigned int size,
				   unsigned int align,
				   enum slab_freelist_place place,
				   unsigned int *left_over,
				   unsigned int *idx_size)
{
	unsigned long slab_size = PAGE_SIZE << order;
	unsigned long num = 0;

	for (unsigned int idx = 1; idx <= 2; idx++) {
		unsigned long max = idx == 1 ? SLAB_MAX_NUM_1BYTE :
					      SLAB_MAX_NUM_2BYTE;
		unsigned long mgmt;

		num = place == FREELIST_ON_SLAB ? slab_size / (size + idx) :
						  slab_size / size;
		while (num && place == FREELIST_ON_SLAB &&
		       ALIGN(num * idx, align) + num * size > slab_size)
			num--;
		if (idx == 1 && num > max)
			continue;	/* needs two-byte indices */
		num = min(num, max);
		mgmt = place == FREELIST_ON_SLAB ? ALIGN(num * idx, align) : 0;
		*left_over = (unsigned int)(slab_size - mgmt - num * size);
		*idx_size = idx;
		break;
	}
	return (unsigned int)num;
}

/* Is an off-slab index array of freelist_size worth it for this cache? */
static bool off_slab_freelist_ok(const struct kmem_cache *cachep,
				 unsigned int freelist_size)
{
	struct kmem_cache *fc = kmalloc_slab(freelist_size, 0);

	/* No recursion through off-slab caches; not for tiny objects. */
	return fc && fc->freelist_place != FREELIST_OFF_SLAB &&
	       fc->size <= cachep->size / 2;
}

/*
 * Linux's calculate_slab_order: the smallest order whose waste is at
 * most 1/8 of the slab, within slab_max_order (larger only if no object
 * fits). Returns the leftover bytes, or -1 if nothing works.
 *
 * One rule more, SLUB's slub_min_objects: an order must also hold
 * SLAB_MIN_OBJECTS objects (SLUB asks 4 * (fls(CPUs) + 1): 16 with 4
 * CPUs). Linux's SLAB stops at order 0 for a 4 KiB object (no waste),
 * one object per slab, so each allocation grows a slab and each free
 * destroys one: a page allocator round trip and the node's lists per
 * object. 100,000 kmallocs of 8..4096 bytes (make bench, batch_*) run
 * 2.3 times fewer instructions with 8 objects, 6% fewer again with 16.
 */
static long calculate_slab_order(struct kmem_cache *cachep,
				 enum slab_freelist_place place)
{
	long left_over = -1;

	for (unsigned int order = 0; order < MAX_ORDER; order++) {
		unsigned int rem, idx;
		unsigned int num = cache_estimate(order, cachep->size,
						  cachep->align, place, &rem,
						  &idx);

		if (!num)
			continue;
		if (place == FREELIST_OFF_SLAB &&
		    !off_slab_freelist_ok(cachep, num * idx))
			continue;
		cachep->num = num;
		cachep->gfporder = order;
		cachep->freelist_idx_size = idx;
		left_over = rem;
		if (order >= slab_max_order)
			break;
		if (num >= SLAB_MIN_OBJECTS &&
		    (unsigned long)rem * 8 <= (PAGE_SIZE << order))
			break;
	}
	return left_over;
}

/*
 * Can the index array live inside an object at all? Not if free objects
 * keep contents (constructor, RCU), are checked (slab_debug) or are
 * zeroed when freed (init_on_free, as Linux: the array would end up in
 * an object handed out).
 */
static bool in_object_possible(const struct kmem_cache *cachep)
{
	return !cachep->ctor && !(cachep->flags & SLAB_TYPESAFE_BY_RCU) &&
	       !cache_debug(cachep) && !slab_want_init_on_free(cachep);
}

/*
 * Try one freelist placement: size the slab for it and keep it if it
 * suits. In an object: the array must fit in one object. Off-slab: only
 * when the leftover could not hold the array (else on-slab is as good
 * and simpler). On-slab always suits once an object fits.
 */
static bool set_slab_cache(struct kmem_cache *cachep,
			   enum slab_freelist_place place)
{
	unsigned long array_size;
	long left_over;

	if (place == FREELIST_IN_OBJECT && !in_object_possible(cachep))
		return false;
	left_over = calculate_slab_order(cachep, place);
	if (left_over < 0)
		return false;
	array_size = cachep->num * cachep->freelist_idx_size;
	if (place == FREELIST_IN_OBJECT && array_size > cachep->object_size)
		return false;
	if (place == FREELIST_OFF_SLAB && (unsigned long)left_over >= array_size)
		return false;
	cachep->freelist_place = place;
	cachep->colour = (unsigned int)left_over / cachep->colour_off;
	return true;
}

/*
 * Choose the freelist place and slab order; false if none fits.
 *
 * Objects of PAGE_SIZE / 8 and more try off-slab first (Linux's rule
 * before the in-object array existed): their in-object array sits in an
 * object of its own, likely in a page nothing else touches then, written
 * when the slab is made and on every free into it; arrays off-slab pack
 * hundreds to a page of a small kmalloc cache. 100,000 kmallocs of
 * 8..4096 bytes (make bench, batch_*) run 10-20% faster.
 */
static bool size_slab(struct kmem_cache *cachep)
{
	if (cachep->size >= PAGE_SIZE / 8 &&
	    set_slab_cache(cachep, FREELIST_OFF_SLAB))
		return true;
	return set_slab_cache(cachep, FREELIST_IN_OBJECT) ||
	       set_slab_cache(cachep, FREELIST_OFF_SLAB) ||
	       set_slab_cache(cachep, FREELIST_ON_SLAB);
}

static unsigned int calculate_alignment(slab_flags_t flags, unsigned int align,
					unsigned int size)
{
	if (flags & SLAB_HWCACHE_ALIGN) {
		unsigned int ralign = L1_CACHE_BYTES;

		while (size <= ralign / 2)
			ralign /= 2;
		align = max(align, ralign);
	}
	return ALIGN(max(align, (unsigned int)ARCH_KMALLOC_MINALIGN), 8);
}

/* --- per-CPU and node structures ----------------------------------------- */

static void init_array_cache(struct array_cache *ac, unsigned int limit,
			     unsigned int batch)
{
	ac->avail = 0;
	ac->limit = limit;
	ac->batchcount = batch;
	ac->touched = 0;
	ac->used = 0;
	ac->idle = 0;
	ac->armed_limit = 0;
}

static void init_kmem_cache_node(struct kmem_cache_node *n)
{
	spin_lock_init(&n->list_lock);
	INIT_LIST_HEAD(&n->slabs_partial);
	INIT_LIST_HEAD(&n->slabs_full);
	INIT_LIST_HEAD(&n->slabs_free);
	n->total_slabs = n->free_slabs = n->free_objects = 0;
	n->colour_next = 0;
	n->free_touched = 0;
	n->free_idle = 0;
	n->next_reap = 0;
	n->shared = NULL;
	memset(n->alien, 0, sizeof(n->alien));
	memset(&n->stats, 0, sizeof(n->stats));
}

/* Node nid's lists, in its memory, its CPUs' statistics right after. */
static struct kmem_cache_node *alloc_kmem_cache_node(int nid)
{
	struct kmem_cache_node *n = kmalloc_node(kmem_cache_node_size(),
						 GFP_KERNEL | __GFP_ZERO, nid);

	if (n) {
		init_kmem_cache_node(n);
		n->stats.cpu = (struct slab_cpu_stats *)(n + 1);
	}
	return n;
}

static bool is_boot_node(const struct kmem_cache_node *n);

/* Free the cache's nodes and what hangs off them (not the boot ones). */
static void free_kmem_cache_nodes(struct kmem_cache *cachep)
{
	struct kmem_cache_node *n;
	int nid;

	for_each_kmem_cache_node(cachep, nid, n) {
		for (int home = 0; home < MAX_NUMNODES; home++)
			kfree(n->alien[home]);
		cachep->node[nid] = NULL;
		if (!is_boot_node(n))
			kfree(n);
	}
}

/* Lists on every online node; -ENOMEM leaves none. */
static int alloc_kmem_cache_nodes(struct kmem_cache *cachep)
{
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		if (!node_online(nid))
			continue;
		cachep->node[nid] = alloc_kmem_cache_node(nid);
		if (!cachep->node[nid]) {
			free_kmem_cache_nodes(cachep);
			return -ENOMEM;
		}
	}
	return 0;
}

/*
 * The alien arrays of each node, one per other node, made once (at the
 * first tune) and never resized: Linux's alloc_alien_cache(), 12
 * entries (fewer only for a cache whose arrays hold fewer). None with
 * one node or no arrays: a free of another node's object then goes
 * straight home.
 */
#define ALIEN_LIMIT	12

static int alloc_alien_caches(struct kmem_cache *cachep, unsigned int limit)
{
	struct kmem_cache_node *n;
	int nid;

	if (num_online_nodes() < 2 || !limit)
		return 0;
	limit = min_t(unsigned int, limit, ALIEN_LIMIT);
	for_each_kmem_cache_node(cachep, nid, n) {
		for (int home = 0; home < MAX_NUMNODES; home++) {
			struct alien_cache *alien;

			if (home == nid || !node_online(home) || n->alien[home])
				continue;
			alien = kmalloc_node(sizeof(*alien) +
					     limit * sizeof(void *),
					     GFP_KERNEL, nid);
			if (!alien)
				return -ENOMEM;
			spin_lock_init(&alien->lock);
			init_array_cache(&alien->ac, limit, 0xbaadf00d);
			n->alien[home] = alien;
		}
	}
	return 0;
}

/*
 * A debugged cache keeps no objects in arrays (limit 0): every alloc and
 * free goes through slab_debug's checks, and every free object sits in
 * its slab where the checks can find it.
 */
static unsigned int cache_array_limit(const struct kmem_cache *cachep,
				      unsigned int limit)
{
	return cache_debug(cachep) ? 0 : limit;
}

/* During bootstrap: one-entry arrays and a node from the static pools. */
static void setup_boot_cpu_cache(struct kmem_cache *cachep)
{
	unsigned int cpu;
	unsigned int i = nr_boot_caches++;

	BUG_ON(i >= NR_BOOT_CACHES || !boot_arrays);
	for_each_possible_cpu(cpu) {
		struct array_cache *ac = boot_arrays + (i * nr_cpu_ids + cpu) *
					 BOOT_ARRAY_SIZE;

		init_array_cache(ac, cache_array_limit(cachep,
						       BOOT_CPUCACHE_ENTRIES), 1);
		cachep->cpu_cache[cpu] = ac;
	}
	cachep->limit = cache_array_limit(cachep, BOOT_CPUCACHE_ENTRIES);
	cachep->batchcount = 1;
	for (int nid = 0; nid < (int)nr_node_ids; nid++) {
		unsigned int j = i * nr_node_ids + nid;
		struct kmem_cache_node *n = &boot_nodes[j];

		if (!node_online(nid))
			continue;
		init_kmem_cache_node(n);
		n->stats.cpu = &boot_cpu_stats[j * nr_cpu_ids];
		n->free_limit = 2 * cachep->num;
		cachep->node[nid] = n;
	}
}

/* An array in node nid's memory (NUMA_NO_NODE: this CPU's). */
static struct array_cache *alloc_arraycache(int nid, unsigned int limit,
					    unsigned int batch)
{
	struct array_cache *ac = kmalloc_node(sizeof(*ac) +
					      limit * sizeof(void *),
					      GFP_KERNEL, nid);

	if (ac)
		init_array_cache(ac, limit, batch);
	return ac;
}

/*
 * Give node nid's nr CPUs their arrays in block, in CPU order, the
 * slots turned by rot; returns how many of them are at the page offset
 * of their cachep->cpu_cache[] slot. The fast paths store ac->avail
 * and, on the next call, load that slot: should the two share a page
 * offset (aliases_4k()), every allocate/free pair pays a false
 * store-to-load dependency (kmalloc(4096)+kfree ran 17% slower on one
 * layout with the same instructions).
 */
static unsigned int place_cpu_arrays(struct kmem_cache *cachep,
				     struct array_cache **new, void *block,
				     int nid, unsigned int nr, unsigned int rot,
				     unsigned int limit, unsigned int batch)
{
	unsigned int stride = cpu_array_stride(limit);
	unsigned int cpu, slot = rot, aliases = 0;

	for_each_possible_cpu(cpu) {
		if (cpu_to_mem(cpu) != nid)
			continue;
		new[cpu] = block + (size_t)slot * stride;
		init_array_cache(new[cpu], limit, batch);
		aliases += aliases_4k(&new[cpu]->avail, &cachep->cpu_cache[cpu]);
		if (++slot == nr)
			slot = 0;
	}
	return aliases;
}

/* Free the blocks of a cache's per-CPU arrays (none: boot arrays). */
static void free_cpu_arrays(void **blocks)
{
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		kvfree(blocks[nid]);
		blocks[nid] = NULL;
	}
}

/*
 * New arrays of limit entries for every possible CPU of cachep in
 * new[], made together: those of the CPUs whose memory node is nid lie
 * in one block of nid's memory, blocks[nid] (all NULL on entry), each
 * in its own cache lines (cpu_array_stride()). Linux's
 * alloc_kmem_cache_cpus() makes them with one alloc_percpu(). A boot
 * makes some sixty caches' arrays for every possible CPU: one kmalloc
 * a CPU was half of the malloc shim's start. The blocks go when the
 * arrays do (a tune, a destroy: cachep->cpu_blocks). -ENOMEM leaves
 * blocks[] for free_cpu_arrays().
 */
static int alloc_cpu_arrays(struct kmem_cache *cachep,
			    struct array_cache **new, void **blocks,
			    unsigned int limit, unsigned int batch)
{
	unsigned int nr[MAX_NUMNODES] = { 0 };
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		nr[cpu_to_mem(cpu)]++;
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		if (!nr[nid])
			continue;
		size_t size = (size_t)nr[nid] * cpu_array_stride(limit);

		/* vmalloc() wants interrupts on: at boot, kmalloc alone. */
		blocks[nid] = irqs_disabled() ?
			      kmalloc_node(size, GFP_KERNEL, nid) :
			      kvmalloc_node(size, GFP_KERNEL, nid);
		if (!blocks[nid])
			return -ENOMEM;
		/* The first turn with no array aliased, or the last. */
		for (unsigned int rot = 0;
		     place_cpu_arrays(cachep, new, blocks[nid], nid, nr[nid],
				      rot, limit, batch) && rot + 1 < nr[nid];
		     rot++)
			;
	}
	return 0;
}

static bool is_boot_node(const struct kmem_cache_node *n)
{
	return n >= boot_nodes && n < boot_nodes + NR_BOOT_CACHES * nr_node_ids;
}

/* The arrays do_tune_cpucache() puts in; each CPU takes back its old one. */
struct ccupdate_struct {
	struct kmem_cache *cachep;
	struct array_cache *new[NR_CPUS];
};

/* Swap cpu's array for its new one; on cpu itself or while it takes none. */
static void ccupdate_cpu(struct ccupdate_struct *update, unsigned int cpu)
{
	unsigned long flags = arch_irq_save();
	struct array_cache *old = update->cachep->cpu_cache[cpu];

	update->cachep->cpu_cache[cpu] = update->new[cpu];
	update->new[cpu] = old;
	arch_irq_restore(flags);
}

/* Linux's do_ccupdate_local, in each CPU's IPI. */
static void do_ccupdate_local(void *arg)
{
	ccupdate_cpu(arg, arch_cpu_id());
}

/*
 * May cpu be using its array of the cache? Not if it has none: a cache
 * being created (no CPU can allocate from it before it is returned).
 */
static bool cpu_has_array(unsigned int cpu, void *arg)
{
	struct ccupdate_struct *update = arg;

	return update->cachep->cpu_cache[cpu] != NULL;
}

/*
 * Put the new arrays in, each by the CPU that owns it (an IPI) when
 * interrupts are on; with them off (boot, before arch_irq_init(): no
 * other CPU has run kernel code yet), for CPUs that take no IPIs and
 * for CPUs that had no array (as Linux's do_tune_cpucache sends no IPI
 * without a previous cpu_cache), from here.
 */
static void swap_cpu_arrays(struct ccupdate_struct *update)
{
	unsigned int cpu;
	bool ipi = !irqs_disabled();

	WARN_ON_ONCE(in_interrupt());
	if (ipi)
		WARN_ON_ONCE(on_each_cpu_cond(cpu_has_array, do_ccupdate_local,
					      update, true));
	for_each_possible_cpu(cpu)
		if (!ipi || !on_each_cpu_reaches(cpu) ||
		    !update->cachep->cpu_cache[cpu])
			ccupdate_cpu(update, cpu);
}

/*
 * Each node's new shared array goes in under its lock, with the node's
 * new free_limit; the old one comes back in old[nid].
 */
static void swap_shared_arrays(struct kmem_cache *cachep,
			       struct array_cache **new_shared,
			       struct array_cache **old, unsigned int batch)
{
	struct kmem_cache_node *n;
	unsigned long irqflags;
	int nid;

	for_each_kmem_cache_node(cachep, nid, n) {
		irqflags = arch_irq_save();
		spin_lock(&n->list_lock);
		old[nid] = n->shared;
		n->shared = new_shared[nid];
		n->free_limit = (1 + nr_cpu_ids) * batch + cachep->num;
		spin_unlock(&n->list_lock);
		arch_irq_restore(irqflags);
	}
}

/*
 * Linux's do_tune_cpucache: new per-CPU arrays of limit entries moving
 * batch objects at a time, and on each node a shared array of shared
 * batches (none for 0 or a cache without arrays), all allocated before
 * anything changes: -ENOMEM leaves the cache as it was (the alien
 * arrays, made once, may stay). Each CPU swaps its own array for the
 * new one in an IPI (swap_cpu_arrays); the old ones, which no CPU uses
 * any more, are then drained and freed; boot arrays stay. The old
 * shared arrays are freed a grace period after they left n->shared.
 */
static int do_tune_cpucache(struct kmem_cache *cachep, unsigned int limit,
			    unsigned int batch, unsigned int shared)
{
	struct ccupdate_struct update = { .cachep = cachep };
	struct array_cache **new = update.new;
	struct array_cache *new_shared[MAX_NUMNODES] = { NULL };
	struct array_cache *old[MAX_NUMNODES] = { NULL };
	void *new_blocks[MAX_NUMNODES] = { NULL };
	struct kmem_cache_node *n;
	unsigned int cpu;
	int nid;

	if (alloc_cpu_arrays(cachep, new, new_blocks, limit, batch))
		goto fail;
	for_each_kmem_cache_node(cachep, nid, n) {
		if (!shared || !limit)
			break;
		new_shared[nid] = alloc_arraycache(nid, shared * batch,
						   0xbaadf00d);
		if (!new_shared[nid])
			goto fail;
	}
	if (alloc_alien_caches(cachep, limit))
		goto fail;
	swap_cpu_arrays(&update);
	for_each_possible_cpu(cpu) {
		/* Each CPU swapped once: it has an array of the new size. */
		BUG_ON(cachep->cpu_cache[cpu]->limit != limit);
		/* The old array now, of its CPU's node's objects. */
		drain_array(cachep, new[cpu], cpu_to_mem(cpu));
	}
	free_cpu_arrays(cachep->cpu_blocks);
	memcpy(cachep->cpu_blocks, new_blocks, sizeof(new_blocks));
	swap_shared_arrays(cachep, new_shared, old, batch);
	for_each_kmem_cache_node(cachep, nid, n)
		drain_array(cachep, old[nid], nid);
	/*
	 * cache_refill() reads n->shared->avail without the lock, with
	 * interrupts off: a CPU may still look at an old array until its
	 * interrupts are on again, which a grace period waits for (Linux's
	 * setup_kmem_cache_node()). With interrupts off here (boot) no
	 * other CPU runs kernel code yet.
	 */
	if (!irqs_disabled()) {
		for_each_kmem_cache_node(cachep, nid, n) {
			if (old[nid]) {
				synchronize_rcu();
				break;
			}
		}
	}
	for_each_kmem_cache_node(cachep, nid, n)
		kfree(old[nid]);
	cachep->limit = limit;
	cachep->batchcount = batch;
	cachep->shared = shared && limit ? shared : 0;
	return 0;
fail:
	free_cpu_arrays(new_blocks);
	for (nid = 0; nid < MAX_NUMNODES; nid++)
		kfree(new_shared[nid]);
	return -ENOMEM;
}

/*
 * Linux's enable_cpucache sizes: smaller objects get deeper per-CPU
 * stacks; batches are half a stack; the shared array holds 8 batches.
 */
static int enable_cpucache(struct kmem_cache *cachep)
{
	unsigned int limit, batch;

	if (cachep->size > 131072)
		limit = 1;
	else if (cachep->size > PAGE_SIZE)
		limit = 8;
	else if (cachep->size > 1024)
		limit = 24;
	else if (cachep->size > 256)
		limit = 54;
	else
		limit = 120;
	batch = (limit + 1) / 2;
	return do_tune_cpucache(cachep, cache_array_limit(cachep, limit), batch,
				cachep->size <= PAGE_SIZE ? 8 : 0);
}

static int setup_cpu_cache(struct kmem_cache *cachep)
{
	if (slab_state < UP) {
		setup_boot_cpu_cache(cachep);
		return 0;
	}
	if (alloc_kmem_cache_nodes(cachep))
		return -ENOMEM;
	if (enable_cpucache(cachep)) {
		free_kmem_cache_nodes(cachep);
		return -ENOMEM;
	}
	return 0;
}

/*
 * SLAB_FREELIST_RANDOM: a random permutation of the cache's objects
 * (Fisher-Yates), seeded by slab_freelist_random= and the cache's name so
 * a seed repeats a run exactly. New slabs read it from a random start.
 */
static int init_random_seq(struct kmem_cache *cachep)
{
	u64 seed = freelist_random_seed;

	if (!(cachep->flags & SLAB_FREELIST_RANDOM) || cachep->num < 2)
		return 0;
	cachep->random_seq = kmalloc_array(cachep->num, sizeof(u16), GFP_KERNEL);
	if (!cachep->random_seq)
		return -ENOMEM;
	for (const char *c = cachep->name; *c; c++)
		seed = seed * 31 + (u8)*c;
	prandom_seed(&cachep->random_state, seed);
	for (unsigned int i = 0; i < cachep->num; i++)
		cachep->random_seq[i] = (u16)i;
	for (unsigned int i = cachep->num - 1; i > 0; i--) {
		unsigned int j = (unsigned int)prandom_below(&cachep->random_state,
							     i + 1);
		u16 tmp = cachep->random_seq[i];

		cachep->random_seq[i] = cachep->random_seq[j];
		cachep->random_seq[j] = tmp;
	}
	return 0;
}

/* "slab_freelist_random[=SEED]": every cache; no seed: one from the clock. */
static int set_freelist_random(char *val)
{
	unsigned long long seed = arch_cycles() ^ arch_clock_ns();

	if (val && kstrtoull(val, 0, &seed))
		return -EINVAL;
	freelist_random_all = true;
	freelist_random_seed = seed;
	return 0;
}
kernel_param("slab_freelist_random", set_freelist_random);

/*
 * A debugged cache comes (+1) or goes (-1): kfree's fast path test
 * follows slab_nr_debug_caches. slab_lock held, so two caches created
 * or destroyed at once cannot lose an update.
 */
static void account_debug_cache(struct kmem_cache *cachep, int delta)
{
	lockdep_assert_held(&slab_lock);
	if (!cache_debug(cachep))
		return;
	WRITE_ONCE(slab_nr_debug_caches, slab_nr_debug_caches + delta);
	slab_fastpath_update();
}

/* Fill in a cache's geometry and per-CPU parts; 0 or -errno. slab_lock held. */
static int __kmem_cache_create(struct kmem_cache *cachep)
{
	cachep->flags |= slab_debug_boot_flags(cachep->name);
	if (freelist_random_all)
		cachep->flags |= SLAB_FREELIST_RANDOM;
	cachep->align = calculate_alignment(cachep->flags, cachep->align,
					    cachep->object_size);
	cachep->size = ALIGN(cachep->object_size, cachep->align);
	if (cache_debug(cachep))
		slab_debug_layout(cachep);
	else
		kasan_cache_create(cachep);
	cachep->colour_off = max_t(unsigned int, L1_CACHE_BYTES, cachep->align);
	if (cachep->flags & SLAB_CACHE_DMA)
		cachep->allocflags |= GFP_DMA;
	if (!size_slab(cachep)) {
		if (!cache_debug(cachep))
			return -E2BIG;
		pr_warn("slab_debug: %s: objects too large for red zones and tracking; not debugged\n",
			cachep->name);
		cachep->flags &= ~SLAB_DEBUG_FLAGS;
		cachep->obj_offset = cachep->debug_offset = 0;
		cachep->size = ALIGN(cachep->object_size, cachep->align);
		kasan_cache_create(cachep);
		if (!size_slab(cachep))
			return -E2BIG;
	}
	cachep->freelist_size = cachep->num * cachep->freelist_idx_size;
	if (cachep->freelist_place == FREELIST_OFF_SLAB)
		cachep->freelist_cache = kmalloc_slab(cachep->freelist_size, 0);
	cachep->reciprocal_buffer_size = reciprocal_size(cachep->size,
						       cachep->num);
	if (slab_state >= UP && init_random_seq(cachep))
		return -ENOMEM;
	if (setup_cpu_cache(cachep)) {
		kfree(cachep->random_seq);
		return -ENOMEM;
	}
	account_debug_cache(cachep, 1);
	return 0;
}

/* --- creating, shrinking, destroying ------------------------------------- */

static const char *create_error(const char *name, unsigned int size,
				unsigned int align, slab_flags_t flags)
{
	if (!name || !*name)
		return "no name";
	if (!size || size > KMALLOC_MAX_SIZE)
		return "object size 0 or larger than 4 MiB";
	if (align & (align - 1))
		return "alignment not a power of two";
	if (align > PAGE_SIZE)
		return "alignment above PAGE_SIZE";
	if (flags & ~SLAB_CREATE_FLAGS)
		return "unknown flags";
	return NULL;
}

/*
 * Work the cache out and put it on the list under slab_lock, as one
 * step: the debug cache count and the boot options it reads stay
 * consistent with the list, and walks over the caches never see a
 * cache half made. Allocating under slab_lock is fine (it is above
 * every allocator lock in the order).
 */
static int insert_cache(struct kmem_cache *cachep)
{
	int err;

	spin_lock(&slab_lock);
	err = __kmem_cache_create(cachep);
	if (!err)
		list_add_tail(&cachep->list, &slab_caches);
	spin_unlock(&slab_lock);
	return err;
}

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, slab_flags_t flags,
				     void (*ctor)(void *))
{
	const char *err = create_error(name, size, align, flags);
	struct kmem_cache *cachep = NULL;

	if (!err && slab_state < FULL)
		err = "slab allocator not up yet";
	if (!err) {
		cachep = kmem_cache_zalloc(kmem_cache, GFP_KERNEL);
		err = cachep ? NULL : "out of memory";
	}
	if (!err) {
		cachep->object_size = size;
		cachep->align = align;
		cachep->flags = flags;
		cachep->ctor = ctor;
		cachep->name = kstrdup(name, GFP_KERNEL);
		if (!cachep->name || insert_cache(cachep))
			err = "out of memory, or no slab order fits the object";
	}
	if (err) {
		if (cachep) {
			kfree(cachep->name);
			kmem_cache_free(kmem_cache, cachep);
		}
		if (flags & SLAB_PANIC)
			panic("kmem_cache_create: failed to create slab '%s': %s",
			      name ? name : "(null)", err);
		pr_warn("kmem_cache_create(%s) failed: %s\n",
			name ? name : "(null)", err);
		return NULL;
	}
	return cachep;
}

/* Give one node's free slabs back to the page allocator. */
static void drain_node_free_slabs(struct kmem_cache *cachep,
				  struct kmem_cache_node *n)
{
	unsigned long flags;
	LIST_HEAD(list);

	spin_lock_irqsave(&n->list_lock, flags);
	while (!list_empty(&n->slabs_free)) {
		struct slab *slab = list_first_entry(&n->slabs_free, struct slab,
						     slab_list);

		list_move(&slab->slab_list, &list);
		n->free_slabs--;
		n->total_slabs--;
		n->free_objects -= cachep->num;
		if (unlikely(slab_stats_on()))
			n->stats.reaped++;
	}
	spin_unlock_irqrestore(&n->list_lock, flags);
	release_slab_list(cachep, &list);
}

/* Give the cache's free slabs, on every node, back to the page allocator. */
void drain_free_slabs(struct kmem_cache *cachep)
{
	struct kmem_cache_node *n;
	int nid;

	for_each_kmem_cache_node(cachep, nid, n)
		drain_node_free_slabs(cachep, n);
}

/* Linux's do_drain: this CPU's own array, in its IPI (interrupts off). */
static void do_drain(void *arg)
{
	struct kmem_cache *cachep = arg;

	drain_array(cachep, cachep->cpu_cache[arch_cpu_id()], numa_mem_id());
}

/*
 * Does cpu's array of the cache hold objects? Read from another CPU,
 * without its owner's interrupts off: an array its owner fills at this
 * moment may be missed, as it may be refilled right after any drain.
 * Objects freed before the drain was called (a destroy's) are seen.
 */
static bool cpu_array_has_objects(unsigned int cpu, void *arg)
{
	struct kmem_cache *cachep = arg;
	struct array_cache *ac = READ_ONCE(cachep->cpu_cache[cpu]);

	return ac && READ_ONCE(ac->avail);
}

/*
 * Every CPU drains its own array of the cache in its call-function
 * interrupt, so no array is touched while its CPU uses it; only the CPUs
 * whose array holds objects are interrupted (on_each_cpu_cond(), as
 * Linux's SLUB flush_all with has_cpu_slab). A CPU that takes no IPIs
 * (not online: the malloc shim's) has its array drained from here,
 * which assumes it is not using this cache meanwhile. Interrupts must be
 * on (Documentation/locking/locking.md): with them off only this CPU's array is
 * drained, after a WARNING.
 */
static void drain_cpu_arrays(struct kmem_cache *cachep)
{
	unsigned int cpu;

	if (WARN(irqs_disabled() || in_interrupt(),
		 "slab: %s drained with interrupts off: this CPU's array only\n",
		 cachep->name)) {
		unsigned long flags = arch_irq_save();

		do_drain(cachep);
		arch_irq_restore(flags);
		return;
	}
	WARN_ON_ONCE(on_each_cpu_cond(cpu_array_has_objects, do_drain, cachep,
				      true));
	for_each_possible_cpu(cpu)
		if (!on_each_cpu_reaches(cpu))
			drain_array(cachep, cachep->cpu_cache[cpu],
				    cpu_to_mem(cpu));
}

/*
 * Drain every array of the cache (per-CPU, then each node's alien
 * arrays, which send their objects home, and shared arrays) and free
 * its free slabs, on every node.
 */
static void drain_cache(struct kmem_cache *cachep)
{
	struct kmem_cache_node *n;
	int nid;

	kasan_cache_shrink(cachep);	/* its quarantined objects first */
	drain_cpu_arrays(cachep);
	for_each_kmem_cache_node(cachep, nid, n)
		drain_alien_caches(cachep, n);
	for_each_kmem_cache_node(cachep, nid, n)
		drain_array(cachep, n->shared, nid);
	drain_free_slabs(cachep);
}

/* Slabs on all the cache's nodes. */
static unsigned long cache_total_slabs(struct kmem_cache *cachep)
{
	struct kmem_cache_node *n;
	unsigned long slabs = 0;
	int nid;

	for_each_kmem_cache_node(cachep, nid, n)
		slabs += READ_ONCE(n->total_slabs);
	return slabs;
}

int kmem_cache_shrink(struct kmem_cache *cachep)
{
	drain_cache(cachep);
	return cache_total_slabs(cachep) ? 1 : 0;
}

/*
 * Newest cache first: a slab freed here may free its off-slab index
 * array into a kmalloc cache, which was always created earlier and so
 * is drained after it.
 */
void kmem_cache_shrink_all(void)
{
	struct kmem_cache *cachep;

	spin_lock(&slab_lock);
	list_for_each_entry_reverse(cachep, &slab_caches, list)
		drain_cache(cachep);
	spin_unlock(&slab_lock);
}

/*
 * This CPU stops using the allocators (a malloc shim thread that exits,
 * as a CPU going offline in Linux: slab_dead_cpu, page_alloc_cpu_dead):
 * every cache's array of this CPU goes back to its slabs, and its page
 * lists to the buddy lists, so nothing stays stranded on a CPU that may
 * not run again. Process context, interrupts on (else a WARNING, and
 * nothing is released).
 */
void kmem_cache_cpu_release(void)
{
	struct kmem_cache *cachep;
	unsigned long flags;

	if (WARN(irqs_disabled() || in_interrupt(),
		 "slab: CPU caches released with interrupts off: kept\n"))
		return;
	spin_lock(&slab_lock);
	list_for_each_entry_reverse(cachep, &slab_caches, list) {
		flags = arch_irq_save();
		do_drain(cachep);
		arch_irq_restore(flags);
	}
	spin_unlock(&slab_lock);
	drain_local_pages();
}

/*
 * Reclaim's walk (mm/vmscan.c): fn on every cache, newest first as in
 * kmem_cache_shrink_all, if the cache list can be had without waiting.
 * An allocation may run short while its caller holds slab_lock
 * (kmem_cache_create allocates under it), so waiting could be waiting
 * for this CPU itself: -EBUSY then, and when another CPU holds it.
 */
int kmem_cache_reclaim_walk(void (*fn)(struct kmem_cache *cachep, void *data),
			    void *data)
{
	struct kmem_cache *cachep;

	if (!spin_trylock(&slab_lock))
		return -EBUSY;
	list_for_each_entry_reverse(cachep, &slab_caches, list)
		fn(cachep, data);
	spin_unlock(&slab_lock);
	return 0;
}

/* Objects of a node's slabs not free in them (arrays count as in use). */
static unsigned long node_objects_out(struct kmem_cache *cachep,
				      struct kmem_cache_node *n)
{
	return n->total_slabs * cachep->num - n->free_objects;
}

/* Name up to *shown < 8 live objects of node n's full and partial slabs. */
static void report_node_live_objects(struct kmem_cache *cachep,
				     struct kmem_cache_node *n,
				     unsigned int *shown)
{
	struct list_head *lists[] = { &n->slabs_full, &n->slabs_partial };

	for (int l = 0; l < 2; l++) {
		struct slab *slab;

		list_for_each_entry(slab, lists[l], slab_list) {
			for (unsigned int i = 0; i < cachep->num && *shown < 8; i++) {
				void *obj = index_to_obj(cachep, slab, i);
				bool free = false;

				for (unsigned int j = slab->active; j < cachep->num; j++)
					free |= get_free_obj(cachep, slab, j) == i;
				if (!free) {
					pr_err("  live object %px (node %d)\n",
					       obj, slab_nid(slab));
					(*shown)++;
				}
			}
		}
	}
}

/* Name the first objects still allocated in a cache that is going away. */
static void report_live_objects(struct kmem_cache *cachep)
{
	struct kmem_cache_node *n;
	unsigned long live = 0;
	unsigned int shown = 0;
	int nid;

	for_each_kmem_cache_node(cachep, nid, n)
		live += node_objects_out(cachep, n);
	report_kind(REPORT_SLAB_CACHE_BUSY);
	pr_err("BUG: kmem_cache_destroy %s: Slab cache still has objects: %lu in %lu slabs; cache kept\n",
	       cachep->name, live, cache_total_slabs(cachep));
	for_each_kmem_cache_node(cachep, nid, n)
		report_node_live_objects(cachep, n, &shown);
}

/*
 * The last objects are checked for and the cache taken off the list under
 * slab_lock, as one step: no walk over the caches (shrink_all,
 * validate_all) works on it meanwhile or after. Its arrays are freed
 * once it is off the list.
 */
void kmem_cache_destroy(struct kmem_cache *cachep)
{
	struct kmem_cache_node *n;
	int nid;

	if (!cachep)
		return;
	kmem_cache_release_quarantine(cachep);
	spin_lock(&slab_lock);
	if (kmem_cache_shrink(cachep)) {
		report_live_objects(cachep);
		spin_unlock(&slab_lock);
		WARN_ON(1);
		return;
	}
	list_del(&cachep->list);
	account_debug_cache(cachep, -1);
	spin_unlock(&slab_lock);
	if (cachep->flags & SLAB_TYPESAFE_BY_RCU)
		rcu_barrier();	/* slabs waiting for a GP still name it */
	free_cpu_arrays(cachep->cpu_blocks);
	for_each_kmem_cache_node(cachep, nid, n)
		kfree(n->shared);
	free_kmem_cache_nodes(cachep);
	kfree(cachep->random_seq);
	kfree(cachep->name);
	kmem_cache_free(kmem_cache, cachep);
}

/* --- bootstrap --------------------------------------------------------- */

/* Linux's kmalloc_info: each class's size and names, plain and DMA. */
struct kmalloc_info_struct {
	const char *name[2];
	unsigned int size;
};

#define INIT_KMALLOC_INFO(sz, short_sz) \
	{ .name = { "kmalloc-" #short_sz, "dma-kmalloc-" #short_sz }, .size = sz }
#define INIT_KMALLOC_STEPS(shift, s0, s1, s2) \
	[KMALLOC_STEP_INDEX(shift, 0)] = INIT_KMALLOC_INFO(s0, s0), \
	[KMALLOC_STEP_INDEX(shift, 1)] = INIT_KMALLOC_INFO(s1, s1), \
	[KMALLOC_STEP_INDEX(shift, 2)] = INIT_KMALLOC_INFO(s2, s2)

static const struct kmalloc_info_struct kmalloc_info[KMALLOC_NR_CACHES] = {
	[1] = INIT_KMALLOC_INFO(96, 96),
	[2] = INIT_KMALLOC_INFO(192, 192),
	[3] = INIT_KMALLOC_INFO(8, 8),
	[4] = INIT_KMALLOC_INFO(16, 16),
	[5] = INIT_KMALLOC_INFO(32, 32),
	[6] = INIT_KMALLOC_INFO(64, 64),
	[7] = INIT_KMALLOC_INFO(128, 128),
	[8] = INIT_KMALLOC_INFO(256, 256),
	[9] = INIT_KMALLOC_INFO(512, 512),
	[10] = INIT_KMALLOC_INFO(1024, 1k),
	[11] = INIT_KMALLOC_INFO(2048, 2k),
	[12] = INIT_KMALLOC_INFO(4096, 4k),
	[13] = INIT_KMALLOC_INFO(8192, 8k),
	INIT_KMALLOC_STEPS(9, 320, 384, 448),
	INIT_KMALLOC_STEPS(10, 640, 768, 896),
	INIT_KMALLOC_STEPS(11, 1280, 1536, 1792),
	INIT_KMALLOC_STEPS(12, 2560, 3072, 3584),
	INIT_KMALLOC_STEPS(13, 5120, 6144, 7168),
};

/* A cache made before kmalloc works: static name, boot arrays. */
static void create_boot_cache(struct kmem_cache *cachep, const char *name,
			      unsigned int size, unsigned int align,
			      slab_flags_t flags)
{
	cachep->name = name;
	cachep->object_size = size;
	cachep->align = align;
	cachep->flags = flags;
	if (insert_cache(cachep))
		panic("slab: cannot create boot cache %s", name);
}

/*
 * Smallest first, so later ones may keep freelists off-slab: the walk
 * goes from each class to the one that holds a byte more.
 */
static void create_kmalloc_caches(void)
{
	for (int dma = 0; dma < 2; dma++) {
		unsigned int size = KMALLOC_MIN_SIZE;

		while (size <= KMALLOC_MAX_CACHE_SIZE) {
			unsigned int idx = __kmalloc_index(size);
			const struct kmalloc_info_struct *info = &kmalloc_info[idx];
			struct kmem_cache *c;

			BUG_ON(info->size < size || kmalloc_caches[dma][idx]);
			c = kmem_cache_zalloc(kmem_cache, GFP_KERNEL);
			if (!c)
				panic("slab: out of memory for kmalloc caches");
			/* Power-of-two sizes are naturally aligned (Linux). */
			create_boot_cache(c, info->name[dma], info->size,
					  is_power_of_2(info->size) ? info->size : 0,
					  dma ? SLAB_CACHE_DMA : 0);
			kmalloc_caches[dma][idx] = c;
			size = info->size + 1;
		}
	}
}

void kmem_cache_init(void)
{
	struct kmem_cache *cachep;

	slab_max_order = totalram_pages > (SZ_32M >> PAGE_SHIFT) ?
			 SLAB_MAX_ORDER_HI : 0;
	slab_nodes_init();
	kmem_cache = &kmem_cache_boot.cache;
	create_boot_cache(kmem_cache, "kmem_cache", kmem_cache_struct_size(),
			  0, SLAB_HWCACHE_ALIGN);
	slab_state = PARTIAL;
	create_kmalloc_caches();
	slab_state = UP;
	list_for_each_entry(cachep, &slab_caches, list) {
		if (enable_cpucache(cachep) || init_random_seq(cachep))
			panic("slab: out of memory for the array caches of %s",
			      cachep->name);
	}
	slab_state = FULL;
	slab_fastpath_update();		/* slab_stats from the command line */
}

/* --- counters ------------------------------------------------------------ */

struct slab_counts {
	unsigned long total_objs;	/* in all slabs */
	unsigned long free_objs;	/* free in slabs */
	unsigned long cached_objs;	/* free in array caches */
	unsigned long slabs;
	unsigned long free_slabs;
	unsigned long quarantined;	/* slab_debug's and KASAN's: freed */
};

/* Objects in node n's shared and alien arrays. */
static unsigned long node_cached_objs(struct kmem_cache_node *n)
{
	unsigned long nr = n->shared ? READ_ONCE(n->shared->avail) : 0;

	for (int home = 0; home < MAX_NUMNODES; home++)
		if (n->alien[home])
			nr += READ_ONCE(n->alien[home]->ac.avail);
	return nr;
}

/* Summed over the nodes, as Linux's slabinfo does. */
static void cache_counts(struct kmem_cache *cachep, struct slab_counts *c)
{
	struct kmem_cache_node *n;
	unsigned int cpu;
	int nid;

	memset(c, 0, sizeof(*c));
	for_each_kmem_cache_node(cachep, nid, n) {
		c->slabs += n->total_slabs;
		c->free_slabs += n->free_slabs;
		c->total_objs += n->total_slabs * cachep->num;
		c->free_objs += n->free_objects;
		c->cached_objs += node_cached_objs(n);
	}
	c->quarantined = cachep->nr_quarantined +
			 kasan_quarantine_cache_objects(cachep);
	for_each_possible_cpu(cpu)
		c->cached_objs += cachep->cpu_cache[cpu]->avail;
}

/* fn summed over every cache, under slab_lock. */
static long sum_over_caches(long (*fn)(struct kmem_cache *cachep))
{
	struct kmem_cache *cachep;
	long sum = 0;

	spin_lock(&slab_lock);
	list_for_each_entry(cachep, &slab_caches, list)
		sum += fn(cachep);
	spin_unlock(&slab_lock);
	return sum;
}

static long cache_pages(struct kmem_cache *cachep)
{
	return (long)(cache_total_slabs(cachep) << cachep->gfporder);
}

unsigned long slab_pages(void)
{
	return (unsigned long)sum_over_caches(cache_pages);
}

static long cache_reclaimable_pages(struct kmem_cache *cachep)
{
	return cachep->flags & SLAB_RECLAIM_ACCOUNT ? cache_pages(cachep) : 0;
}

unsigned long slab_reclaimable_pages(void)
{
	return (unsigned long)sum_over_caches(cache_reclaimable_pages);
}

/*
 * Objects of cachep holding the off-slab index arrays of other caches'
 * slabs: the allocator's own, one per slab of each such cache.
 */
static long cache_freelist_objects(const struct kmem_cache *cachep)
{
	struct kmem_cache *c;
	long sum = 0;

	list_for_each_entry(c, &slab_caches, list) {
		if (c->freelist_place == FREELIST_OFF_SLAB &&
		    c->freelist_cache == cachep)
			sum += (long)cache_total_slabs(c);
	}
	return sum;
}

/*
 * Objects handed out and not freed: in neither a slab nor an array, and
 * not an index array of another cache's slab. Under slab_lock.
 */
static long cache_objects_in_use(struct kmem_cache *cachep)
{
	struct slab_counts c;

	cache_counts(cachep, &c);
	return (long)(c.total_objs - c.free_objs - c.cached_objs -
		      c.quarantined) - cache_freelist_objects(cachep);
}

/* Over all caches (leak checks). */
long slab_objects_in_use(void)
{
	return sum_over_caches(cache_objects_in_use);
}

void kmem_cache_walk(void (*fn)(struct kmem_cache *cachep, long in_use,
				void *data), void *data)
{
	struct kmem_cache *cachep;

	spin_lock(&slab_lock);
	list_for_each_entry(cachep, &slab_caches, list)
		fn(cachep, cache_objects_in_use(cachep), data);
	spin_unlock(&slab_lock);
}

const char *kmem_cache_name(const struct kmem_cache *cachep)
{
	return cachep->name;
}

/* The cache called name, or NULL. slab_lock held. */
static struct kmem_cache *find_cache(const char *name)
{
	struct kmem_cache *cachep;

	lockdep_assert_held(&slab_lock);
	list_for_each_entry(cachep, &slab_caches, list) {
		if (!strcmp(cachep->name, name))
			return cachep;
	}
	return NULL;
}

/*
 * Linux's slabinfo write rules: limit >= 1, 1 <= batchcount <= limit,
 * sharedfactor >= 0; here also arrays that kmalloc can hold (at most
 * SLAB_TUNE_MAX_ENTRIES entries, per-CPU or shared).
 */
static bool tunables_ok(int limit, int batch, int shared)
{
	return limit >= 1 && batch >= 1 && batch <= limit && shared >= 0 &&
	       limit <= SLAB_TUNE_MAX_ENTRIES &&
	       (u64)shared * (u64)batch <= SLAB_TUNE_MAX_ENTRIES;
}

int slab_tune_cpucache(const char *name, int limit, int batch, int shared)
{
	struct kmem_cache *cachep;
	int err;

	if (!name)
		return -ENOENT;
	spin_lock(&slab_lock);
	cachep = find_cache(name);
	if (!cachep)
		err = -ENOENT;
	else if (!tunables_ok(limit, batch, shared))
		err = -EINVAL;
	else if (cache_debug(cachep))
		err = -EPERM;
	else
		err = do_tune_cpucache(cachep, (unsigned int)limit,
				       (unsigned int)batch,
				       (unsigned int)shared);
	spin_unlock(&slab_lock);
	return err;
}

/*
 * /proc/slabinfo, version 2.1. active_objs counts objects not free in
 * their slabs (those in array caches included), as Linux's SLAB does.
 */
static void slabinfo_show_cache(struct kmem_cache *cachep, bool stats)
{
	unsigned long shared_avail = 0;
	struct kmem_cache_node *n;
	struct slab_counts c;
	int nid;

	cache_counts(cachep, &c);
	for_each_kmem_cache_node(cachep, nid, n)
		shared_avail += n->shared ? n->shared->avail : 0;
	console_printf("%-17s %6lu %6lu %6u %4u %4u : tunables %4u %4u %4u : slabdata %6lu %6lu %6lu",
		       cachep->name, c.total_objs - c.free_objs,
		       c.total_objs, cachep->size, cachep->num,
		       1U << cachep->gfporder, cachep->limit,
		       cachep->batchcount, cachep->shared,
		       c.slabs - c.free_slabs, c.slabs, shared_avail);
	if (stats)
		slabinfo_show_stats(cachep);
	console_printf("\n");
}

/* With statistics on, Linux's CONFIG_DEBUG_SLAB header and columns. */
int slabinfo_show(const char *name)
{
	struct kmem_cache *cachep;
	bool stats = slab_stats_on();
	int err = 0;

	console_printf("slabinfo - version: 2.1%s\n", stats ? " (statistics)" : "");
	console_printf("# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>%s\n",
		       stats ? " : globalstat <listallocs> <maxobjs> <grown> <reaped> <error> <maxfreeable> <nodeallocs> <remotefrees> <alienoverflow> : cpustat <allochit> <allocmiss> <freehit> <freemiss>" : "");
	spin_lock(&slab_lock);
	if (name) {
		cachep = find_cache(name);
		if (cachep)
			slabinfo_show_cache(cachep, stats);
		else
			err = -ENOENT;
	} else {
		list_for_each_entry(cachep, &slab_caches, list)
			slabinfo_show_cache(cachep, stats);
	}
	spin_unlock(&slab_lock);
	return err;
}

static long cache_problems(struct kmem_cache *cachep)
{
	return kmem_cache_validate(cachep);
}

int slab_validate_all(void)
{
	return (int)sum_over_caches(cache_problems);
}

/* --- lock assertions, proven by tests/test_lockdep.c ------------------- */

/* A cache without debugging changes no count. */
static __maybe_unused void account_debug_cache_unlocked(void)
{
	static struct kmem_cache cache = { .name = "lockdep-test" };

	account_debug_cache(&cache, 0);
}
LOCKDEP_ASSERT_TEST(account_debug_cache, "slab_lock",
		    account_debug_cache_unlocked);

/* Looks the cache list up; no cache has this name. */
static __maybe_unused void find_cache_unlocked(void)
{
	find_cache("lockdep-test");
}
LOCKDEP_ASSERT_TEST(find_cache, "slab_lock", find_cache_unlocked);

bool kmem_valid_obj(const void *obj)
{
	struct page *page;

	if (is_kfence_address(obj))
		return true;
	if (ZERO_OR_NULL_PTR(obj) || !virt_addr_valid(obj))
		return false;
	page = compound_head(virt_to_page(obj));
	if (PageSlab(page))
		return true;
	return PageHead(page) && obj == page_address(page);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Direct reclaim: before an allocation fails, take back the memory the
 * allocators and the shrinkers keep for reuse (Linux's vmscan.c,
 * without the LRU lists: there is no page cache and no swap).
 *
 * 1. When. alloc_pages() calls try_to_free_pages() once the free lists
 *    cannot serve it (injected failures excepted: those fail at once),
 *    then retries; slab growth allocates through alloc_pages() and so
 *    inherits it. A caller that may reclaim (__GFP_DIRECT_RECLAIM) gets
 *    up to RECLAIM_PRIORITY + 1 passes, priority 2, 1, 0, with a retry
 *    after each. Exceptions:
 *      __GFP_NORETRY        no reclaim at all: fail fast;
 *      no __GFP_DIRECT_RECLAIM (GFP_ATOMIC, GFP_NOWAIT)
 *                           one pass that only drains this CPU's own
 *                           per-CPU page lists: no other CPU's lists, no
 *                           slab cache, no shrinker (those take locks
 *                           other CPUs hold, or run callers' code);
 *      in reclaim already   nothing (rule 3).
 *
 * 2. One pass, in this order (each step frees into the next one's
 *    reach):
 *      a. shrinkers (shrink_slab): count_objects, then scan_objects in
 *         batches; what they free lands in slab arrays or per-CPU lists;
 *      b. every slab cache: this CPU's per-CPU array, the shared array,
 *         the free slabs (kmem_cache_reclaim_walk, under a trylock of
 *         slab_lock: if it is held, by this CPU's caller as in
 *         kmem_cache_create or by another CPU, the caches are skipped);
 *         other CPUs' arrays are not touched (they are those CPUs' own
 *         without a lock; Linux drains them by IPI);
 *      c. every CPU's per-CPU page lists (drain_all_pages), where the
 *         freed slab pages of order 0 went: each CPU drains its own in
 *         an IPI when interrupts are on here; a pass inside SLAB's
 *         cache growth runs with them off, and then the lists are
 *         asked to drain at their next use (drain_pending). An atomic
 *         allocation's reclaim drains only this CPU's lists.
 *    The pass returns the growth of the buddy free lists (pgsteal_direct).
 *
 * 3. No recursion. A pass runs with this CPU's memalloc flag set
 *    (memalloc_noreclaim_save, Linux's PF_MEMALLOC per CPU: there are no
 *    tasks): an allocation inside it, by the allocators or by a
 *    shrinker, never reclaims again, and may take the reserve below the
 *    min watermark unless it says __GFP_NOMEMALLOC (as PF_MEMALLOC
 *    tasks may in Linux: reclaim that frees memory may need a little).
 *    reclaim_depth counts passes per CPU and warns above 1.
 *
 * 4. Re-entrancy. A pass may start inside a slab refill with interrupts
 *    off: cache_refill() grows a cache only once this CPU's array of it
 *    is empty and fills it after the new slab is made, so draining that
 *    array meanwhile finds nothing and breaks nothing; the new slab is
 *    on no list yet. n->list_lock is never held across a page
 *    allocation, and no allocator lock of the page allocator is held
 *    when it calls here. Only slab_lock may be held by the caller: hence
 *    the trylock.
 *
 * 5. How much a shrinker is asked (do_shrink_slab, Linux's idea kept
 *    simple, no deferred work): with freeable = count_objects(),
 *    (freeable >> priority) * 4 / seeks objects, at most freeable
 *    (seeks 0: half of freeable), in calls of batch objects (128 if
 *    0). Less than one batch is asked only if it covers all of freeable,
 *    so a small pool is left alone until the pressure is high.
 *    SHRINK_STOP ends the shrinker's share at once.
 *
 * 6. Locking. shrinker_lock guards the shrinker list and each
 *    shrinker's nr_running; it is dropped while a callback runs, so
 *    callbacks run with no reclaim or allocator lock held (a caller's
 *    slab_lock aside, see above). A shrinker being called has nr_running
 *    raised: it stays on the list, so the walk can go on from it, and
 *    unregister_shrinker() waits for it. Lock order: Documentation/locking/locking.md.
 */
#include "kernel/atomic.h"
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/internal.h"
#include "mm/shrinker.h"
#include "mm/numa.h"
#include "mm/slab_internal.h"

/* drop_slab: rounds of shrinkers at most (Linux stops when they free little). */
#define DROP_SLAB_MAX_ROUNDS	32
/* unregister_shrinker: spins before it says a callback seems stuck. */
#define UNREGISTER_SPIN_WARN	10000000UL

#define SHRINKER_REGISTERED	(1U << 0)
#define SHRINKER_DYING		(1U << 31)	/* being unregistered */
#define SHRINKER_USER_FLAGS	(SHRINKER_NUMA_AWARE | SHRINKER_MEMCG_AWARE)

static LIST_HEAD(shrinker_list);
static DEFINE_SPINLOCK(shrinker_lock);	/* Documentation/locking/locking.md */

/* Per CPU: the memalloc flag, reclaim passes running, shrinker called. */
unsigned int memalloc_noreclaim_cpu[NR_CPUS];
static unsigned int reclaim_depth[NR_CPUS];
static struct shrinker *cpu_shrinker[NR_CPUS];

static atomic_long_t vm_events[NR_VM_EVENT_ITEMS];

/* allocstall_<zone> is ALLOCSTALL_DMA + gfp_zone(gfp). */
_Static_assert(ALLOCSTALL_DMA32 - ALLOCSTALL_DMA == ZONE_DMA32 - ZONE_DMA &&
	       ALLOCSTALL_NORMAL - ALLOCSTALL_DMA == ZONE_NORMAL - ZONE_DMA,
	       "allocstall events in zone order");

const char *const vm_event_names[NR_VM_EVENT_ITEMS] = {
	[ALLOCSTALL_DMA]	= "allocstall_dma",
	[ALLOCSTALL_DMA32]	= "allocstall_dma32",
	[ALLOCSTALL_NORMAL]	= "allocstall_normal",
	[ALLOCSTALL_MOVABLE]	= "allocstall_movable",
	[PGSTEAL_DIRECT]	= "pgsteal_direct",
	[SLABS_SCANNED]		= "slabs_scanned",
	[DROP_PAGECACHE]	= "drop_pagecache",
	[DROP_SLAB]		= "drop_slab",
};

void count_vm_events(enum vm_event_item item, unsigned long delta)
{
	atomic_long_add((long)delta, &vm_events[item]);
}

unsigned long global_vm_event(enum vm_event_item item)
{
	return (unsigned long)atomic_long_read(&vm_events[item]);
}

/* --- the memalloc flag (rule 3) ------------------------------------------ */

unsigned int memalloc_noreclaim_save(void)
{
	unsigned int cpu = arch_cpu_id();
	unsigned int old = memalloc_noreclaim_cpu[cpu];

	memalloc_noreclaim_cpu[cpu] = 1;
	return old;
}

void memalloc_noreclaim_restore(unsigned int old)
{
	memalloc_noreclaim_cpu[arch_cpu_id()] = old;
}

unsigned int current_reclaim_depth(void)
{
	return READ_ONCE(reclaim_depth[arch_cpu_id()]);
}

bool gfp_may_reclaim(gfp_t gfp)
{
	return !(gfp & __GFP_NORETRY) && !memalloc_noreclaim_active();
}

/* --- shrinkers ------------------------------------------------------------ */

int register_shrinker(struct shrinker *s, const char *fmt, ...)
{
	va_list args;

	if (!s || !fmt || !s->count_objects || !s->scan_objects ||
	    s->batch < 0 || s->seeks < 0 || (s->flags & ~SHRINKER_USER_FLAGS &
					     ~SHRINKER_REGISTERED))
		return -EINVAL;
	spin_lock(&shrinker_lock);
	if (s->flags & SHRINKER_REGISTERED) {
		spin_unlock(&shrinker_lock);
		return -EBUSY;
	}
	va_start(args, fmt);
	vsnprintf(s->name, sizeof(s->name), fmt, args);
	va_end(args);
	s->nr_running = 0;
	s->flags |= SHRINKER_REGISTERED;
	list_add_tail(&s->list, &shrinker_list);
	spin_unlock(&shrinker_lock);
	return 0;
}

void unregister_shrinker(struct shrinker *s)
{
	if (!s)
		return;
	/* From its own callback it would wait for itself forever. */
	BUG_ON(cpu_shrinker[arch_cpu_id()] == s);
	spin_lock(&shrinker_lock);
	if (!(s->flags & SHRINKER_REGISTERED)) {
		spin_unlock(&shrinker_lock);
		return;
	}
	s->flags |= SHRINKER_DYING;
	for (unsigned long spins = 0; s->nr_running; spins++) {
		/* A callback stuck on a lock our caller holds: say so. */
		WARN_ONCE(spins == UNREGISTER_SPIN_WARN,
			  "unregister_shrinker: %pS still running on another CPU\n",
			  s->scan_objects);
		spin_unlock(&shrinker_lock);
		arch_cpu_relax();
		spin_lock(&shrinker_lock);
	}
	list_del(&s->list);
	s->flags &= ~(SHRINKER_REGISTERED | SHRINKER_DYING);
	spin_unlock(&shrinker_lock);
}

/* How many objects to ask of a shrinker that counts freeable (rule 5). */
static unsigned long shrinker_share(const struct shrinker *s,
				    unsigned long freeable, int priority)
{
	unsigned long share;

	if (!s->seeks)
		return freeable / 2;
	share = (freeable >> priority) * 4 / (unsigned long)s->seeks;
	return min(share, freeable);
}

/* Ask one shrinker for its share; the objects it freed. */
static unsigned long do_shrink_slab(struct shrinker *s, gfp_t gfp,
				    int priority)
{
	struct shrink_control sc = { .gfp_mask = gfp, .nid = 0 };
	unsigned long batch = s->batch ? (unsigned long)s->batch : SHRINK_BATCH;
	unsigned long freeable, total_scan, freed = 0;

	freeable = s->count_objects(s, &sc);
	if (!freeable || freeable == SHRINK_EMPTY)
		return 0;
	total_scan = shrinker_share(s, freeable, priority);
	while (total_scan && (total_scan >= batch || total_scan >= freeable)) {
		unsigned long ret;

		sc.nr_to_scan = min(batch, total_scan);
		sc.nr_scanned = sc.nr_to_scan;
		ret = s->scan_objects(s, &sc);
		if (ret == SHRINK_STOP)
			break;
		freed += ret;
		/* A shrinker that claims to have scanned nothing is done. */
		if (!sc.nr_scanned)
			break;
		sc.nr_scanned = min(sc.nr_scanned, total_scan);
		count_vm_events(SLABS_SCANNED, sc.nr_scanned);
		total_scan -= sc.nr_scanned;
	}
	return freed;
}

/* Every shrinker once (rule 6 for the walk); the objects they freed. */
static unsigned long shrink_slab(gfp_t gfp, int priority)
{
	unsigned int cpu = arch_cpu_id();
	unsigned long freed = 0;
	struct shrinker *s;

	spin_lock(&shrinker_lock);
	list_for_each_entry(s, &shrinker_list, list) {
		if (s->flags & SHRINKER_DYING)
			continue;
		s->nr_running++;
		spin_unlock(&shrinker_lock);
		cpu_shrinker[cpu] = s;
		freed += do_shrink_slab(s, gfp, priority);
		cpu_shrinker[cpu] = NULL;
		spin_lock(&shrinker_lock);
		s->nr_running--;
	}
	spin_unlock(&shrinker_lock);
	return freed;
}

/* --- the allocators' own caches ------------------------------------------ */

/*
 * This CPU's array, and on every node the alien and shared arrays and
 * the free slabs, of one cache.
 */
static void shrink_cache(struct kmem_cache *cachep, void *data)
{
	unsigned long flags = arch_irq_save();
	struct kmem_cache_node *n;
	int nid;

	(void)data;
	drain_array(cachep, cpu_cache_get(cachep), numa_mem_id());
	arch_irq_restore(flags);
	for_each_kmem_cache_node(cachep, nid, n) {
		drain_alien_caches(cachep, n);
		drain_array(cachep, n->shared, nid);
	}
	drain_free_slabs(cachep);
}

/* --- a pass --------------------------------------------------------------- */

/* Rule 2, with this CPU's memalloc flag set and the depth counted. */
static void reclaim_pass(gfp_t gfp, int priority)
{
	unsigned int cpu = arch_cpu_id();
	unsigned int old = memalloc_noreclaim_save();

	WARN_ON_ONCE(++reclaim_depth[cpu] > 1);
	shrink_slab(gfp, priority);
	kmem_cache_reclaim_walk(shrink_cache, NULL);
	drain_all_pages();
	reclaim_depth[cpu]--;
	memalloc_noreclaim_restore(old);
}

static unsigned long buddy_growth(unsigned long before)
{
	unsigned long now = nr_free_pages();

	return now > before ? now - before : 0;
}

unsigned long try_to_free_pages(gfp_t gfp, unsigned int order, int priority)
{
	unsigned long before = nr_free_pages(), freed;

	(void)order;	/* everything is taken back, whatever the order */
	if (!gfp_may_reclaim(gfp))
		return 0;
	if (!(gfp & __GFP_DIRECT_RECLAIM))
		return drain_local_pages();
	count_vm_events(ALLOCSTALL_DMA + gfp_zone(gfp), 1);
	reclaim_pass(gfp, priority);
	freed = buddy_growth(before);
	count_vm_events(PGSTEAL_DIRECT, freed);
	return freed;
}

/* Linux's drop_slab: shrinkers until they free little, then the caches. */
unsigned long drop_slab(void)
{
	unsigned long before = nr_free_pages();
	unsigned int old = memalloc_noreclaim_save();
	unsigned int cpu = arch_cpu_id();
	unsigned long freed;
	int shift = 0;

	count_vm_events(DROP_SLAB, 1);
	WARN_ON_ONCE(++reclaim_depth[cpu] > 1);
	/* Linux's rule, with a bound: a shrinker that always frees ends too. */
	do {
		freed = shrink_slab(GFP_KERNEL, 0);
	} while ((freed >> shift++) > 1 && shift < DROP_SLAB_MAX_ROUNDS);
	kmem_cache_shrink_all();
	drain_all_pages();
	reclaim_depth[cpu]--;
	memalloc_noreclaim_restore(old);
	return buddy_growth(before);
}

/* --- shell ---------------------------------------------------------------- */

/* drop_caches 1|2|3, as echo N > /proc/sys/vm/drop_caches. */
static int cmd_drop_caches(int argc, char **argv)
{
	const char *arg = argc == 2 ? argv[1] : "";
	int mode = (arg[0] >= '1' && arg[0] <= '3' && !arg[1]) ? arg[0] - '0' : 0;

	if (!mode) {
		console_printf("usage: drop_caches 1|2|3 (1: page cache, 2: slab, 3: both)\n");
		return -EINVAL;
	}
	if (mode & 1)
		count_vm_events(DROP_PAGECACHE, 1);	/* there is none */
	if (mode & 2)
		console_printf("drop_caches: %lu pages freed\n", drop_slab());
	return 0;
}
SHELL_CMD("drop_caches", cmd_drop_caches,
	  "free what caches keep: drop_caches 1|2|3 (/proc/sys/vm/drop_caches)");

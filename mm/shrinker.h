/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shrinkers and the reclaim rules a caller sees (Linux's
 * <linux/shrinker.h> and the PF_MEMALLOC part of <linux/sched/mm.h>).
 *
 * A shrinker is a cache outside the allocators (a pool of objects kept
 * for reuse) that gives memory back when an allocation would otherwise
 * fail. Reclaim (mm/vmscan.c) first asks count_objects how much could be
 * freed, then calls scan_objects with nr_to_scan set, batch objects at a
 * time, until it has asked for its share or scan_objects says
 * SHRINK_STOP. Both run with no allocator lock held, on the CPU whose
 * allocation ran short, with sc->gfp_mask the flags of that allocation.
 *
 * Rules for the callbacks: they may allocate (the allocation never
 * reclaims again, see below) and free; they must not register or
 * unregister shrinkers, nor create or destroy slab caches.
 */
#ifndef MM_SHRINKER_H
#define MM_SHRINKER_H

#include "arch/arch.h"
#include "kernel/compiler.h"
#include "kernel/types.h"
#include "lib/list.h"
#include "mm/gfp.h"

struct shrink_control {
	gfp_t gfp_mask;			/* of the allocation that ran short */
	int nid;			/* always 0: one node */
	unsigned long nr_to_scan;	/* objects to look at in this call */
	unsigned long nr_scanned;	/* scan_objects may lower it */
};

/* scan_objects: nothing can be freed now (a lock is busy); stop asking. */
#define SHRINK_STOP	(~0UL)
/* count_objects: the cache is empty. */
#define SHRINK_EMPTY	(~0UL - 1)

#define DEFAULT_SEEKS	2	/* cost of re-creating an object */
#define SHRINK_BATCH	128	/* nr_to_scan when batch is 0 */

/* Accepted and ignored (one node, no memory cgroups). */
#define SHRINKER_NUMA_AWARE	(1U << 2)
#define SHRINKER_MEMCG_AWARE	(1U << 3)

#define SHRINKER_NAME_LEN	32

struct shrinker {
	/* Objects that could be freed; 0 or SHRINK_EMPTY: none. */
	unsigned long (*count_objects)(struct shrinker *s,
				       struct shrink_control *sc);
	/* Free up to sc->nr_to_scan objects; the number freed or SHRINK_STOP. */
	unsigned long (*scan_objects)(struct shrinker *s,
				      struct shrink_control *sc);
	long batch;		/* objects per scan_objects call; 0: 128 */
	int seeks;		/* higher: asked for less; 0: asked for half */
	unsigned int flags;

	/* Reclaim's own, set by register_shrinker(). */
	struct list_head list;
	unsigned int nr_running;	/* callbacks running now (shrinker_lock) */
	char name[SHRINKER_NAME_LEN];
};

/*
 * Add s to the shrinkers reclaim calls, named by the printf-style fmt
 * (the name is cut to SHRINKER_NAME_LEN - 1 characters). 0, or -EINVAL
 * (NULL s or fmt, a callback missing, negative batch or seeks, unknown
 * flags), -EBUSY (s is registered already).
 */
int register_shrinker(struct shrinker *s, const char *fmt, ...)
	__printf(2, 3);
/*
 * Take s off the list; once it returns its callbacks are not running and
 * will not be called again. A shrinker never registered is ignored.
 */
void unregister_shrinker(struct shrinker *s);

/*
 * PF_MEMALLOC for a CPU (there are no tasks): between save and restore,
 * allocations on this CPU never enter reclaim, and may take the page
 * allocator's reserve below the min watermark (unless __GFP_NOMEMALLOC),
 * as Linux lets PF_MEMALLOC tasks do. Reclaim itself runs so. An
 * interrupt handler that runs meanwhile is outside the scope.
 */
unsigned int memalloc_noreclaim_save(void);
void memalloc_noreclaim_restore(unsigned int old);

/* Reclaim's own (mm/vmscan.c); read it through the function below. */
extern unsigned int memalloc_noreclaim_cpu[NR_CPUS];

/*
 * Is this CPU in a memalloc scope? Inline: the slab refill path asks.
 * Not inside an interrupt handler, as Linux's !in_interrupt() &&
 * PF_MEMALLOC: a handler that interrupts reclaim is not reclaim, and its
 * GFP_ATOMIC allocations must not take the reserve kept for it.
 */
static inline bool memalloc_noreclaim_active(void)
{
	return READ_ONCE(memalloc_noreclaim_cpu[arch_cpu_id()]) != 0 &&
	       !arch_hardirq_count();
}

/*
 * echo 2 > /proc/sys/vm/drop_caches: give back every slab cache's free
 * memory and call the shrinkers until they free little; counts
 * drop_slab. Returns the pages it freed. May not be called with an
 * allocator lock held.
 */
unsigned long drop_slab(void);

#endif /* MM_SHRINKER_H */

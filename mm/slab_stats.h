/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SLAB's own statistics (Linux's CONFIG_DEBUG_SLAB "STATS" counters) and
 * run-time tuning of a cache's arrays (/proc/slabinfo writes). Internal:
 * for mm/ and white-box tests; mm/slab_internal.h includes it for the
 * counters that live in struct kmem_cache_node.
 *
 * The counters move only while statistics are on (slab_stats on the
 * command line, or slab_stats_set()); then every allocation and free
 * takes the allocator's slow path, where they are counted: the fast
 * paths stay as they are, and cost nothing more while statistics are off.
 *
 * Where they live: struct kmem_cache_node, never struct kmem_cache or
 * struct array_cache (the fast paths' structures). The node's counters
 * change under n->list_lock; the cpustat ones per CPU, by their CPU with
 * interrupts off, so neither needs an atomic. Readers (slabinfo, tests)
 * read them without a lock: a snapshot.
 */
#ifndef MM_SLAB_STATS_H
#define MM_SLAB_STATS_H

#include "arch/arch.h"
#include "kernel/compiler.h"
#include "kernel/types.h"

/* One CPU's array hits and misses ("cpustat" in slabinfo). */
struct slab_cpu_stats {
	unsigned long allochit;		/* allocation from the per-CPU array */
	unsigned long allocmiss;	/* array empty: refilled first */
	unsigned long freehit;		/* free into an array with room */
	unsigned long freemiss;		/* array full: a batch flushed first */
	unsigned long node_allocs;	/* straight from the node's slabs */
	unsigned long remote_frees;	/* frees of another node's objects */
	unsigned long alien_overflow;	/* full alien arrays sent home */
};

/* A node's counters ("globalstat" in slabinfo). */
struct slab_node_stats {
	unsigned long allocs;		/* objects taken out of slabs */
	unsigned long high_mark;	/* most objects out of slabs at once */
	unsigned long grown;		/* slabs made */
	unsigned long reaped;		/* free slabs given back by shrinking */
	unsigned long errors;		/* slabs that could not be made */
	unsigned long max_freeable;	/* most free slabs kept after a flush */
	struct slab_cpu_stats *cpu;	/* nr_cpu_ids of them, with the node */
};

/* The counters of a cache summed over its nodes and CPUs. */
struct slab_stats {
	unsigned long allocs, high_mark, grown, reaped, errors, max_freeable;
	unsigned long node_allocs, remote_frees, alien_overflow;
	unsigned long allochit, allocmiss, freehit, freemiss;
};

/* Are statistics on? Read by the slow paths before they count. */
extern bool slab_stats_enabled;

static inline bool slab_stats_on(void)
{
	return READ_ONCE(slab_stats_enabled);
}

struct kmem_cache;

/*
 * Turn statistics on or off and move the fast paths' mode words with
 * them; returns the previous state. Counters keep their values.
 */
bool slab_stats_set(bool on);

/* The cache's counters, summed (zero while they never moved). */
void kmem_cache_get_stats(struct kmem_cache *cachep, struct slab_stats *st);

/* The " : globalstat ... : cpustat ..." columns of slabinfo, no newline. */
void slabinfo_show_stats(struct kmem_cache *cachep);

/*
 * Linux's slabinfo write: set the cache's per-CPU array limit and
 * batchcount and its shared array size (sharedfactor batches). Returns
 * 0, -ENOENT (no such cache), -EINVAL (values out of range: limit >= 1,
 * 1 <= batchcount <= limit, sharedfactor >= 0, arrays at most
 * SLAB_TUNE_MAX_ENTRIES entries), -EPERM (a debugged cache keeps no
 * arrays) or -ENOMEM; on error nothing changed. Takes slab_lock.
 */
int slab_tune_cpucache(const char *name, int limit, int batchcount,
		       int shared);
#define SLAB_TUNE_MAX_ENTRIES	65536

/*
 * The shell's "slabinfo NAME LIMIT BATCHCOUNT SHAREDFACTOR": parse and
 * tune, printing what went wrong; 0 or -errno.
 */
int slabinfo_write(const char *name, const char *limit, const char *batch,
		   const char *shared);

#endif /* MM_SLAB_STATS_H */

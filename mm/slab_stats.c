// SPDX-License-Identifier: GPL-2.0
/*
 * SLAB statistics and tuning from the console: Linux's CONFIG_DEBUG_SLAB
 * counters as /proc/slabinfo prints them, and its slabinfo write.
 *
 * 1. Switch. slab_stats (command line) or slab_stats_set() turns the
 *    counters on. While they are on, the fast paths' mode words
 *    (mm/slab.c, __slab_fastpath_update) send every allocation and free
 *    to the slow paths, which count; the fast paths never look at the
 *    counters, so statistics cost nothing while off and make every
 *    allocation and free slower while on.
 *
 * 2. What each counter means (Linux's names in slabinfo's header):
 *      listallocs   objects taken out of slabs (into arrays, or straight
 *                   to a caller for a cache without arrays)
 *      maxobjs      most objects out of slabs at once (arrays included)
 *      grown        slabs made
 *      reaped       free slabs given back by shrinking (kmem_cache_shrink
 *                   and the leak checks' shrink_all) and by cache_reap
 *      error        slabs that could not be made (no memory)
 *      maxfreeable  most free slabs the node kept after a flush
 *      nodeallocs   objects taken straight from a node's slabs, with no
 *                   per-CPU array in between (debugged caches, reserve
 *                   objects, allocations on another node)
 *      remotefrees  frees of another node's objects (into an alien
 *                   array, or straight home while there is none)
 *      alienoverflow  full alien arrays sent home in a batch
 *      allochit/allocmiss  allocations that found the per-CPU array
 *                   non-empty / empty (refilled first)
 *      freehit/freemiss    frees that found the per-CPU array with room /
 *                   full (a batch flushed first)
 *    Counted in mm/slab.c's slow paths and in mm/slab_common.c's shrink;
 *    kept in each struct kmem_cache_node (mm/slab_stats.h; a CPU's in
 *    its memory node's), never in the fast paths' structures, and
 *    summed over the nodes for slabinfo, as Linux does.
 *
 * 3. Tuning. "slabinfo NAME LIMIT BATCHCOUNT SHAREDFACTOR" on the shell
 *    is Linux's "echo 'NAME LIMIT BATCHCOUNT SHAREDFACTOR' >
 *    /proc/slabinfo": parsed here, done by slab_tune_cpucache()
 *    (mm/slab_common.c), which checks the values as Linux's
 *    do_tune_cpucache callers do and replaces the arrays.
 */
#include "kernel/cpumask.h"
#include "kernel/errno.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "mm/slab_internal.h"

bool slab_stats_enabled;

bool slab_stats_set(bool on)
{
	bool was = slab_stats_enabled;

	WRITE_ONCE(slab_stats_enabled, on);
	slab_fastpath_update();
	return was;
}

/*
 * "slab_stats": on from boot. The mode words follow once the allocator
 * is up (kmem_cache_init), as this runs before per-CPU data exists.
 */
kernel_param_flag("slab_stats", slab_stats_enabled);

/* Add one node's counters and its CPUs' to *st. */
static void add_node_stats(const struct kmem_cache_node *n,
			   struct slab_stats *st)
{
	const struct slab_node_stats *ns = &n->stats;
	unsigned int cpu;

	st->allocs += READ_ONCE(ns->allocs);
	st->high_mark += READ_ONCE(ns->high_mark);
	st->grown += READ_ONCE(ns->grown);
	st->reaped += READ_ONCE(ns->reaped);
	st->errors += READ_ONCE(ns->errors);
	st->max_freeable += READ_ONCE(ns->max_freeable);
	for_each_possible_cpu(cpu) {
		const struct slab_cpu_stats *cs = &ns->cpu[cpu];

		st->allochit += READ_ONCE(cs->allochit);
		st->allocmiss += READ_ONCE(cs->allocmiss);
		st->freehit += READ_ONCE(cs->freehit);
		st->freemiss += READ_ONCE(cs->freemiss);
		st->node_allocs += READ_ONCE(cs->node_allocs);
		st->remote_frees += READ_ONCE(cs->remote_frees);
		st->alien_overflow += READ_ONCE(cs->alien_overflow);
	}
}

/* Summed over the nodes, as Linux's slabinfo does (maxobjs too). */
void kmem_cache_get_stats(struct kmem_cache *cachep, struct slab_stats *st)
{
	struct kmem_cache_node *n;
	int nid;

	*st = (struct slab_stats){ 0 };
	for_each_kmem_cache_node(cachep, nid, n)
		add_node_stats(n, st);
}

/* Linux's column widths (slabinfo_show_stats). */
void slabinfo_show_stats(struct kmem_cache *cachep)
{
	struct slab_stats st;

	kmem_cache_get_stats(cachep, &st);
	console_printf(" : globalstat %7lu %6lu %5lu %4lu %4lu %4lu %4lu %4lu %4lu",
		       st.allocs, st.high_mark, st.grown, st.reaped, st.errors,
		       st.max_freeable, st.node_allocs, st.remote_frees,
		       st.alien_overflow);
	console_printf(" : cpustat %6lu %6lu %6lu %6lu", st.allochit,
		       st.allocmiss, st.freehit, st.freemiss);
}

/* One tunable: a decimal int; says what is wrong with it. */
static int parse_tunable(const char *what, const char *s, int *val)
{
	int err = kstrtoint(s, 10, val);

	if (err == -ERANGE)
		console_printf("slabinfo: %s '%s' out of range\n", what, s);
	else if (err)
		console_printf("slabinfo: %s '%s' is not a number\n", what, s);
	return err ? -EINVAL : 0;
}

int slabinfo_write(const char *name, const char *limit_s, const char *batch_s,
		   const char *shared_s)
{
	int limit, batch, shared, err;

	if (parse_tunable("limit", limit_s, &limit) ||
	    parse_tunable("batchcount", batch_s, &batch) ||
	    parse_tunable("sharedfactor", shared_s, &shared))
		return -EINVAL;
	err = slab_tune_cpucache(name, limit, batch, shared);
	switch (err) {
	case 0:
		break;
	case -ENOENT:
		console_printf("slabinfo: no cache named '%s'\n", name);
		break;
	case -EPERM:
		console_printf("slabinfo: %s is debugged (slab_debug): it keeps no per-CPU arrays\n",
			       name);
		break;
	case -ENOMEM:
		console_printf("slabinfo: %s: out of memory for the arrays; nothing changed\n",
			       name);
		break;
	default:
		console_printf("slabinfo: %s: need limit >= 1, 1 <= batchcount <= limit, sharedfactor >= 0, and arrays of at most %u entries\n",
			       name, SLAB_TUNE_MAX_ENTRIES);
		break;
	}
	return err;
}

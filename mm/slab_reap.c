// SPDX-License-Identifier: GPL-2.0
/*
 * cache_reap: caches that trim themselves, as Linux's SLAB does.
 *
 * Every CPU runs a delayed work (kernel/workqueue.h) every
 * REAPTIMEOUT_AC (2 s); the CPUs are staggered (CPU n starts HZ + 3n
 * jiffies after boot, Linux's __round_jiffies_relative(HZ, cpu) offset)
 * so they do not all reap at once. A pass, on its CPU, interrupts on:
 *
 *   - every cache (cache_reap_one(), mm/slab.c): this CPU's array, if it
 *     exchanged nothing with the node since the last pass, gives a fifth
 *     of its limit back to the slabs, oldest objects first, and all it
 *     holds if it was idle at the last pass too; once per
 *     REAPTIMEOUT_NODE (4 s) per node, whichever CPU comes first, the
 *     shared array likewise, free slabs the node did not need since its
 *     last pass go back to the page allocator (a fifth of free_limit's
 *     worth, all of them the second time in a row), and reserve slabs
 *     become ordinary once memory is back, which ends the reserve state
 *     (the fast paths return) with no allocation or free meeting them;
 *   - the page allocator: this CPU's per-CPU page lists, if unused since
 *     the last pass, go back to the buddy lists (Linux's vmstat work).
 *
 * An idle cache thus drains in three passes or so (Linux's SLAB, which
 * halves what is left instead, takes a dozen); a busy one keeps its hot
 * objects: an array that refills or flushes is left alone, and one that
 * does neither loses only its bottom, never the top the next allocation
 * pops.
 *
 * Locks: the walk over the caches needs slab_lock. The work never runs
 * where its CPU holds a lock (kernel/preempt.h), but another CPU may
 * hold it for long (a destroy, a tune), so the pass only tries it and,
 * when it is busy, skips the caches this time (Linux's cache_reap gives
 * up on a busy slab_mutex the same way). Under it: n->list_lock, then
 * the page allocator's, as everywhere (Documentation/locking/locking.md).
 */
#include "kernel/bug.h"
#include "kernel/irq.h"
#include "kernel/kernel.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/time.h"
#include "kernel/workqueue.h"
#include "mm/internal.h"
#include "mm/slab_internal.h"
#include "mm/slab_reap.h"

#define REAPTIMEOUT_AC		(2 * HZ)	/* each CPU's pass */
#define REAPTIMEOUT_NODE	(4 * HZ)	/* a node's lists */

static struct delayed_work reap_work[NR_CPUS];
static struct cache_reap_stats reap_stats[NR_CPUS];
static unsigned long reap_period = REAPTIMEOUT_AC;
static bool reap_started;

/* The node's period is twice the CPU's, as Linux's 4 s to 2 s. */
static unsigned long node_period(unsigned long period)
{
	return 2 * period;
}

struct reap_walk {
	struct cache_reap_result r;
	unsigned long node_period;
};

static void reap_cache(struct kmem_cache *cachep, void *data)
{
	struct reap_walk *w = data;

	cache_reap_one(cachep, &w->r, w->node_period);
}

/* One pass on this CPU; interrupts on, outside interrupt context. */
static void cache_reap_pass(unsigned long period)
{
	struct cache_reap_stats *st = &reap_stats[arch_cpu_id()];
	struct reap_walk w = { .node_period = node_period(period) };
	unsigned long pages;

	WARN_ON_ONCE(irqs_disabled() || in_interrupt());
	if (kmem_cache_reclaim_walk(reap_cache, &w))
		WRITE_ONCE(st->skipped, st->skipped + 1);
	pages = drain_local_pages_idle();
	WRITE_ONCE(st->objects, st->objects + w.r.objects);
	WRITE_ONCE(st->slabs, st->slabs + w.r.slabs);
	WRITE_ONCE(st->unreserved, st->unreserved + w.r.unreserved);
	WRITE_ONCE(st->pages, st->pages + pages);
	/* Last: a test that sees the count sees the pass's results. */
	__atomic_store_n(&st->passes, st->passes + 1, __ATOMIC_RELEASE);
}

static void cache_reap(struct work_struct *work)
{
	struct delayed_work *dwork = to_delayed_work(work);
	unsigned long period = READ_ONCE(reap_period);

	WARN_ON_ONCE(dwork != &reap_work[arch_cpu_id()]);
	cache_reap_pass(period);
	/* Fails only while cache_reap_set_period() cancels it. */
	schedule_delayed_work_on(arch_cpu_id(), dwork, period);
}

/* CPU n's first pass: staggered by 3 jiffies a CPU. */
static unsigned long first_delay(unsigned int cpu, unsigned long period)
{
	return min_t(unsigned long, period, HZ) + 3 * cpu;
}

static void start_cpu_reap(unsigned int cpu, unsigned long delay)
{
	schedule_delayed_work_on(cpu, &reap_work[cpu], delay);
}

/* Every CPU that ticks: this one and the online ones. */
static bool reap_cpu(unsigned int cpu)
{
	return cpu == arch_cpu_id() || cpu_online(cpu);
}

void cache_reap_init(void)
{
	unsigned int cpu;
	unsigned int started = 0;

	for_each_possible_cpu(cpu)
		INIT_DELAYED_WORK(&reap_work[cpu], cache_reap);
	for_each_possible_cpu(cpu) {
		if (!reap_cpu(cpu))
			continue;
		start_cpu_reap(cpu, first_delay(cpu, reap_period));
		started++;
	}
	WRITE_ONCE(reap_started, true);
	pr_info("slab: cache_reap every %u ms on %u CPUs\n",
		jiffies_to_msecs(reap_period), started);
}

unsigned long cache_reap_set_period(unsigned long period)
{
	unsigned int cpu;
	unsigned long old = READ_ONCE(reap_period);

	if (WARN(!period || period > 60 * HZ,
		 "cache_reap: period of %lu jiffies refused\n", period))
		return old;
	if (WARN_ON(irqs_disabled() || in_interrupt()))
		return old;
	WRITE_ONCE(reap_period, period);
	if (!READ_ONCE(reap_started))
		return old;
	for_each_possible_cpu(cpu) {
		if (!reap_cpu(cpu))
			continue;
		cancel_delayed_work_sync(&reap_work[cpu]);
		/* A whole new period: a long one holds the reaper off. */
		start_cpu_reap(cpu, period + 3 * cpu);
	}
	return old;
}

bool cache_reap_running(void)
{
	return READ_ONCE(reap_started);
}

void cache_reap_get_stats(unsigned int cpu, struct cache_reap_stats *st)
{
	const struct cache_reap_stats *s = &reap_stats[cpu];

	BUG_ON(cpu >= NR_CPUS);
	st->passes = __atomic_load_n(&s->passes, __ATOMIC_ACQUIRE);
	st->objects = READ_ONCE(s->objects);
	st->slabs = READ_ONCE(s->slabs);
	st->unreserved = READ_ONCE(s->unreserved);
	st->pages = READ_ONCE(s->pages);
	st->skipped = READ_ONCE(s->skipped);
}

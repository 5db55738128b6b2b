// SPDX-License-Identifier: GPL-2.0
/*
 * Drains on the CPU that owns the cache: kmem_cache_shrink() and
 * drain_all_pages() have every CPU empty its own slab arrays and page
 * lists in its call-function interrupt (kernel/smp.h), so they are safe
 * while the other CPUs allocate, and nothing is left behind after.
 * White-box: reads the per-CPU arrays and lists.
 *
 * The remote arrays are filled by the other CPUs themselves, from a
 * cross-CPU call (x86_64 too) or from a loop arch_cpu_run() gives them
 * (the host; skipped where that returns -ENOSYS). An interrupt handler
 * that allocates with GFP_ATOMIC runs on a CPU that is inside the
 * allocators' slow paths: the lock validator must stay quiet.
 */
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/smp.h"
#include "lib/ktest/ktest.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/page_debug.h"
#include "mm/internal.h"	/* white-box: the per-CPU page lists */
#include "mm/kasan.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"	/* white-box: the per-CPU arrays */
#include "tests/mm_util.h"

#define OBJS		32
#define PAGES		8
#define MAX_WORKERS	3
#define ATOMIC_CALLS	1000

static unsigned int other_cpus(struct ktest *t)
{
	if (num_online_cpus() < 2)
		ktest_skip(t, "one CPU online: no other CPU's caches");
	return num_online_cpus() - 1;
}

static unsigned int pcp_count(unsigned int cpu)
{
	struct zone *zone;
	unsigned int n = 0;

	for_each_zone(zone)
		n += pcp_pages(&zone->pcp[cpu]);
	return n;
}

static unsigned int array_avail(struct kmem_cache *cachep, unsigned int cpu)
{
	return READ_ONCE(cachep->cpu_cache[cpu]->avail);
}

/* A cache with per-CPU arrays: slab_debug gives every cache limit 0. */
static bool has_arrays(struct kmem_cache *cachep)
{
	return cachep->cpu_cache[smp_processor_id()]->limit != 0;
}

/* Allocate and free OBJS objects and PAGES pages: leaves them cached. */
static unsigned long fill_caches(struct kmem_cache *cachep, gfp_t gfp)
{
	void *objs[OBJS];
	struct page *pages[PAGES];
	unsigned long failed = 0;

	for (unsigned int i = 0; i < OBJS; i++)
		failed += !(objs[i] = kmem_cache_alloc(cachep, gfp));
	for (unsigned int i = 0; i < PAGES; i++)
		failed += !(pages[i] = alloc_pages(gfp, 0));
	for (unsigned int i = 0; i < OBJS; i++)
		kmem_cache_free(cachep, objs[i]);
	for (unsigned int i = 0; i < PAGES; i++)
		if (pages[i])
			__free_pages(pages[i], 0);
	return failed;
}

static struct kmem_cache *fill_cache;
static unsigned long fill_failed;

static void fill_on_cpu(void *info)
{
	(void)info;
	__atomic_fetch_add(&fill_failed, fill_caches(fill_cache, GFP_ATOMIC),
			   __ATOMIC_RELAXED);
}

/* Each CPU fills its own caches (in its IPI); a shrink here empties all. */
static void test_shrink_empties_every_cpu(struct ktest *t)
{
	unsigned int cpu;
	unsigned long calls = irq_vector_count(CALL_FUNCTION_VECTOR);
	unsigned int others = other_cpus(t), filled = 0;
	struct kmem_cache_node *n;

	fill_cache = kmem_cache_create("smp-drain-64", 64, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, fill_cache);
	fill_failed = 0;
	KTEST_ASSERT_EQ(t, on_each_cpu(fill_on_cpu, NULL, true), 0);
	KTEST_EXPECT_EQ(t, fill_failed, 0UL);
	for_each_possible_cpu(cpu)
		filled += cpu_online(cpu) && pcp_count(cpu) &&
			  (array_avail(fill_cache, cpu) || !has_arrays(fill_cache));
	KTEST_EXPECT_EQ(t, filled, others + 1);	/* or the test proves nothing */

	KTEST_EXPECT_EQ(t, kmem_cache_shrink(fill_cache), 0);
	drain_all_pages();
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		if (cpu < nr_cpu_ids)
			KTEST_EXPECT_EQ(t, array_avail(fill_cache, cpu), 0U);
		KTEST_EXPECT_EQ(t, pcp_count(cpu), 0U);
	}
	n = get_node(fill_cache, 0);
	KTEST_EXPECT_EQ(t, n->total_slabs, 0UL);
	KTEST_EXPECT_EQ(t, n->free_objects, 0UL);
	/*
	 * The fill, the shrink (where arrays hold objects: not with
	 * slab_debug) and the drain: one IPI per other CPU each.
	 */
	KTEST_EXPECT_GE(t, irq_vector_count(CALL_FUNCTION_VECTOR) - calls,
			(2UL + has_arrays(fill_cache)) * others);
	kmem_cache_destroy(fill_cache);
}

/*
 * An idle CPU does not stay idle for sure: its cache_reap pass or an RCU
 * callback may free pages onto its lists, which the next drain must
 * then interrupt it for. A measurement that counted such an IPI is
 * made again, up to DRAIN_TRIES times.
 */
#define DRAIN_TRIES	5

/*
 * Only the CPUs that hold something are interrupted (on_each_cpu_cond):
 * a new cache gets its arrays without an IPI (no CPU can use them yet);
 * a cache used on this CPU alone is shrunk, and this CPU's page lists
 * drained, without one; a destroy too. Then each other CPU fills its
 * caches in turn, and an IPI to it for each (a shrink, a page drain)
 * empties them.
 */
static void test_drain_interrupts_only_holders(struct ktest *t)
{
	unsigned int cpu;
	unsigned int others = other_cpus(t), this = smp_processor_id();
	unsigned long filled = 0, drained = 0, ipis;
	unsigned int idle = 0;
	struct kmem_cache *c;

	if (kasan_quarantine_enabled())
		ktest_skip(t, "KASAN's quarantine: a drain interrupts the CPUs whose batch of it holds objects too (kasan.quarantine=off runs it)");
	ipis = irq_vector_count(CALL_FUNCTION_VECTOR);
	c = kmem_cache_create("smp-drain-here", 64, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	KTEST_EXPECT_EQ(t, irq_vector_count(CALL_FUNCTION_VECTOR), ipis);
	drain_all_pages();	/* every other CPU's lists empty */
	for_each_possible_cpu(cpu)
		idle += cpu != this && cpu_online(cpu) && !pcp_count(cpu);
	KTEST_ASSERT_EQ(t, idle, others);	/* or the test proves nothing */
	fill_cache = c;
	fill_failed = 0;
	for (int try = 0; try < DRAIN_TRIES; try++) {
		fill_on_cpu(NULL);
		KTEST_EXPECT_TRUE(t, pcp_count(this) &&
				  (array_avail(c, this) || !has_arrays(c)));
		ipis = irq_vector_count(CALL_FUNCTION_VECTOR);
		KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
		drain_all_pages();
		if (irq_vector_count(CALL_FUNCTION_VECTOR) == ipis)
			break;
	}
	KTEST_EXPECT_EQ(t, fill_failed, 0UL);
	KTEST_EXPECT_EQ(t, irq_vector_count(CALL_FUNCTION_VECTOR), ipis);
	KTEST_EXPECT_EQ(t, array_avail(c, this), 0U);
	KTEST_EXPECT_EQ(t, pcp_count(this), 0U);

	for_each_possible_cpu(cpu) {
		bool ok = false;

		if (cpu == this || !cpu_online(cpu))
			continue;
		for (int try = 0; try < DRAIN_TRIES && !ok; try++) {
			KTEST_ASSERT_EQ(t, smp_call_function_single(
					cpu, fill_on_cpu, NULL, true), 0);
			filled += !try && pcp_count(cpu) &&
				  (array_avail(c, cpu) || !has_arrays(c));
			ipis = irq_vector_count(CALL_FUNCTION_VECTOR);
			kmem_cache_shrink(c);
			drain_all_pages();
			/*
			 * Its page drain, and its shrink where arrays hold
			 * objects (not with slab_debug); no other CPU had
			 * anything to drain.
			 */
			ok = irq_vector_count(CALL_FUNCTION_VECTOR) - ipis ==
			     1UL + has_arrays(c) &&
			     !array_avail(c, cpu) && !pcp_count(cpu);
		}
		drained += ok;
	}
	KTEST_EXPECT_EQ(t, fill_failed, 0UL);
	KTEST_EXPECT_EQ(t, filled, (unsigned long)others);
	KTEST_EXPECT_EQ(t, drained, (unsigned long)others);

	/* A cache nobody holds objects of is destroyed without an IPI. */
	ipis = irq_vector_count(CALL_FUNCTION_VECTOR);
	kmem_cache_destroy(c);
	KTEST_EXPECT_EQ(t, irq_vector_count(CALL_FUNCTION_VECTOR), ipis);
}

/* --- with the other CPUs allocating (arch_cpu_run) ---------------------- */

static struct drain_worker {
	struct kmem_cache *cachep;
	unsigned long hold;	/* finish the round, then spin */
	unsigned long stop;
	unsigned long held[NR_CPUS];
	unsigned long rounds[NR_CPUS];
	unsigned long failed;
} dw;

static void drain_worker(void *arg)
{
	unsigned int cpu = smp_processor_id();

	(void)arg;
	while (!__atomic_load_n(&dw.hold, __ATOMIC_ACQUIRE)) {
		__atomic_fetch_add(&dw.failed, fill_caches(dw.cachep, GFP_KERNEL),
				   __ATOMIC_RELAXED);
		dw.rounds[cpu]++;
	}
	__atomic_store_n(&dw.held[cpu], 1, __ATOMIC_RELEASE);
	/* Interrupts on, caches full: only an IPI can drain them. */
	while (!__atomic_load_n(&dw.stop, __ATOMIC_ACQUIRE))
		arch_cpu_relax();
}

static bool wait_held(unsigned long *flag)
{
	u64 deadline = arch_clock_ns() + SMP_CALL_TIMEOUT_NS;

	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE)) {
		if (arch_clock_ns() > deadline)
			return false;
		arch_cpu_relax();
	}
	return true;
}

/*
 * Bounded wait for every worker's first round: the drains that follow
 * must race running workers, not ones still starting (a drain of idle
 * CPUs sends no IPI and is over in microseconds).
 */
static bool wait_first_rounds(const unsigned int *cpus, unsigned int nr)
{
	u64 deadline = arch_clock_ns() + SMP_CALL_TIMEOUT_NS;

	for (unsigned int i = 0; i < nr; i++) {
		while (!__atomic_load_n(&dw.rounds[cpus[i]], __ATOMIC_RELAXED)) {
			if (arch_clock_ns() > deadline)
				return false;
			arch_cpu_relax();
		}
	}
	return true;
}

static void stop_workers(const unsigned int *cpus, unsigned int nr)
{
	__atomic_store_n(&dw.hold, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&dw.stop, 1, __ATOMIC_RELEASE);
	for (unsigned int i = 0; i < nr; i++)
		arch_cpu_join(cpus[i]);
}

static void test_shrink_while_others_allocate(struct ktest *t)
{
	unsigned int cpus[MAX_WORKERS], nr;
	struct kmem_cache_node *n;

	other_cpus(t);
	hold_off_cache_reap(t);	/* what the caches keep is checked */
	memset(&dw, 0, sizeof(dw));
	dw.cachep = kmem_cache_create("smp-drain-busy", 64, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, dw.cachep);
	nr = ktest_run_on_other_cpus(t, drain_worker, NULL, cpus, MAX_WORKERS);
	if (!nr) {
		kmem_cache_destroy(dw.cachep);
		ktest_skip(t, "this arch cannot run work on another CPU yet (arch_cpu_run)");
	}
	/* Drains racing the owners' fast paths. */
	KTEST_EXPECT_TRUE(t, wait_first_rounds(cpus, nr));
	for (unsigned int i = 0; i < 30; i++) {
		kmem_cache_shrink(dw.cachep);
		drain_all_pages();
	}
	__atomic_store_n(&dw.hold, 1, __ATOMIC_RELEASE);
	for (unsigned int i = 0; i < nr; i++) {
		KTEST_EXPECT_TRUE(t, wait_held(&dw.held[cpus[i]]));
		KTEST_EXPECT_GT(t, dw.rounds[cpus[i]], 0UL);
		if (has_arrays(dw.cachep))
			KTEST_EXPECT_GT(t, array_avail(dw.cachep, cpus[i]), 0U);
	}
	/* The workers spin with full caches; shrink and drain empty them. */
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(dw.cachep), 0);
	drain_all_pages();
	for (unsigned int i = 0; i < nr; i++) {
		KTEST_EXPECT_EQ(t, array_avail(dw.cachep, cpus[i]), 0U);
		KTEST_EXPECT_EQ(t, pcp_count(cpus[i]), 0U);
	}
	n = get_node(dw.cachep, 0);
	KTEST_EXPECT_EQ(t, n->total_slabs, 0UL);
	KTEST_EXPECT_EQ(t, n->free_objects, 0UL);
	KTEST_EXPECT_EQ(t, dw.failed, 0UL);
	stop_workers(cpus, nr);
	kmem_cache_destroy(dw.cachep);
}

/*
 * IPIs that allocate with GFP_ATOMIC land on CPUs inside the allocators'
 * slow paths (refills, flushes, cache growth, shrinks of their own that
 * send IPIs back): every call runs, no deadlock, no lockdep report.
 */
static unsigned long atomic_runs, atomic_failed;

static void atomic_alloc_free(void *info)
{
	void *p = kmalloc(96, GFP_ATOMIC);
	void *q = kmem_cache_alloc(dw.cachep, GFP_ATOMIC);
	struct page *page = alloc_pages(GFP_ATOMIC, 0);

	(void)info;
	__atomic_fetch_add(&atomic_failed, !p + !q + !page, __ATOMIC_RELAXED);
	kfree(p);
	if (q)
		kmem_cache_free(dw.cachep, q);
	if (page)
		__free_pages(page, 0);
	__atomic_fetch_add(&atomic_runs, 1, __ATOMIC_RELAXED);
}

static void slowpath_worker(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&dw.stop, __ATOMIC_ACQUIRE)) {
		void *objs[200];

		for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++)
			objs[i] = kmem_cache_alloc(dw.cachep, GFP_KERNEL);
		for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++)
			kmem_cache_free(dw.cachep, objs[i]);
		kmem_cache_shrink(dw.cachep);
		__atomic_fetch_add(&dw.rounds[smp_processor_id()], 1,
				   __ATOMIC_RELAXED);
	}
}

static void test_atomic_ipi_inside_slow_paths(struct ktest *t)
{
	unsigned int cpu, calls = 0;
	u64 deadline;
	int err;

	other_cpus(t);
	memset(&dw, 0, sizeof(dw));
	atomic_runs = atomic_failed = 0;
	dw.cachep = kmem_cache_create("smp-drain-slow", 192, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, dw.cachep);
	for (cpu = 0; cpu == smp_processor_id() || !cpu_online(cpu); cpu++)
		;
	err = arch_cpu_run(cpu, slowpath_worker, NULL);
	if (err == -ENOSYS) {
		kmem_cache_destroy(dw.cachep);
		ktest_skip(t, "this arch cannot run work on another CPU yet (arch_cpu_run)");
	}
	KTEST_ASSERT_EQ(t, err, 0);
	for (unsigned int i = 0; i < ATOMIC_CALLS; i++)
		calls += !smp_call_function_single(cpu, atomic_alloc_free,
						   NULL, true);
	/*
	 * The worker may be slow to get going (TCG's CPU 1, a loaded host):
	 * let it finish one round, at most 20 s, before it stops.
	 */
	deadline = arch_clock_ns() + 20000000000ULL;
	while (!__atomic_load_n(&dw.rounds[cpu], __ATOMIC_RELAXED) &&
	       arch_clock_ns() < deadline)
		arch_cpu_relax();
	__atomic_store_n(&dw.stop, 1, __ATOMIC_RELEASE);
	arch_cpu_join(cpu);
	KTEST_EXPECT_EQ(t, calls, (unsigned int)ATOMIC_CALLS);
	KTEST_EXPECT_EQ(t, atomic_runs, (unsigned long)ATOMIC_CALLS);
	KTEST_EXPECT_EQ(t, atomic_failed, 0UL);
	KTEST_EXPECT_GT(t, dw.rounds[cpu], 0UL);
	kmem_cache_destroy(dw.cachep);
}

/* --- page lists: drained by their owners -------------------------------- */

#define PCP_ORDERS_ROUND	4	/* orders 0..3 in turn */

/* Allocate and free PAGES blocks of order: they stay on the order's list. */
static unsigned long fill_pcp(unsigned int order, gfp_t gfp)
{
	struct page *pages[PAGES];
	unsigned long failed = 0;

	for (unsigned int i = 0; i < PAGES; i++)
		failed += !(pages[i] = alloc_pages(gfp, order));
	for (unsigned int i = 0; i < PAGES; i++)
		if (pages[i])
			__free_pages(pages[i], order);
	return failed;
}

static void page_worker(void *arg)
{
	unsigned int cpu = smp_processor_id();

	(void)arg;
	while (!__atomic_load_n(&dw.hold, __ATOMIC_ACQUIRE)) {
		unsigned int order = dw.rounds[cpu] % PCP_ORDERS_ROUND;

		__atomic_fetch_add(&dw.failed, fill_pcp(order, GFP_KERNEL),
				   __ATOMIC_RELAXED);
		dw.rounds[cpu]++;
	}
	for (unsigned int order = 0; order < PCP_ORDERS_ROUND; order++)
		__atomic_fetch_add(&dw.failed, fill_pcp(order, GFP_KERNEL),
				   __ATOMIC_RELAXED);
	__atomic_store_n(&dw.held[cpu], 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&dw.stop, __ATOMIC_ACQUIRE))
		arch_cpu_relax();
}

/*
 * Other CPUs allocate and free blocks of orders 0-3 while this one
 * drains them all by IPI, again and again. Nothing is lost or counted
 * twice: once every list is drained the buddy lists hold exactly the
 * pages they held before, and the page allocator's check is clean.
 */
static void test_page_drain_while_others_allocate(struct ktest *t)
{
	unsigned int cpus[MAX_WORKERS], nr;
	unsigned long before;

	other_cpus(t);
	hold_off_cache_reap(t);	/* what the caches keep is checked */
	memset(&dw, 0, sizeof(dw));
	drain_all_pages();
	before = nr_free_pages();
	KTEST_EXPECT_EQ(t, nr_pcp_pages(), 0UL);
	for (unsigned int i = 0; i < MAX_WORKERS; i++)
		cpus[i] = 0;
	nr = ktest_run_on_other_cpus(t, page_worker, NULL, cpus, MAX_WORKERS);
	if (!nr)
		ktest_skip(t, "this arch cannot run work on another CPU yet (arch_cpu_run)");
	KTEST_EXPECT_TRUE(t, wait_first_rounds(cpus, nr));
	for (unsigned int i = 0; i < 50; i++)
		drain_all_pages();
	__atomic_store_n(&dw.hold, 1, __ATOMIC_RELEASE);
	for (unsigned int i = 0; i < nr; i++) {
		KTEST_EXPECT_TRUE(t, wait_held(&dw.held[cpus[i]]));
		KTEST_EXPECT_GT(t, dw.rounds[cpus[i]], 0UL);
		KTEST_EXPECT_GT(t, pcp_count(cpus[i]), 0U);
	}
	drain_all_pages();
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		KTEST_EXPECT_EQ(t, pcp_count(cpu), 0U);
	KTEST_EXPECT_EQ(t, nr_free_pages(), before);
	KTEST_EXPECT_EQ(t, page_alloc_check(), 0);
	KTEST_EXPECT_EQ(t, dw.failed, 0UL);
	stop_workers(cpus, nr);
}

/* This CPU's order-0 list of the zone GFP_KERNEL uses first. */
static struct pcp_list *my_list(struct page *page)
{
	return page_zone(page)->pcp[smp_processor_id()].lists[0];
}

static bool any_drain_pending(unsigned int cpu)
{
	struct zone *zone;
	bool pending = false;

	for_each_zone(zone)
		pending |= pcp_drain_pending(&zone->pcp[cpu]);
	return pending;
}

static unsigned int irq_drain_left;
static bool irq_drain_in_irq;

/* drain_all_pages() from an interrupt handler: no IPI may be sent. */
static void drain_from_irq(void *info)
{
	(void)info;
	irq_drain_in_irq = in_interrupt();
	drain_all_pages();
	irq_drain_left = pcp_count(smp_processor_id());
}

static void fill_pcp_ipi(void *info)
{
	(void)info;
	__atomic_fetch_add(&fill_failed, fill_pcp(0, GFP_ATOMIC) +
			   fill_pcp(3, GFP_ATOMIC), __ATOMIC_RELAXED);
}

/*
 * A drain asked from another CPU's interrupt handler: that CPU drains
 * its own lists at once and asks this one (drain_pending), which keeps
 * its pages until its next pcp operation, and then gives back all of
 * them. cache_reap's pass honours a request too, even for a list in use.
 */
static void test_page_drain_from_irq(struct ktest *t)
{
	unsigned int me = smp_processor_id(), other;
	struct page *page, *held;
	struct pcp_list *l;

	other_cpus(t);
	hold_off_cache_reap(t);	/* what the caches keep is checked */
	for (other = 0; other == me || !cpu_online(other); other++)
		;
	fill_failed = 0;
	KTEST_ASSERT_EQ(t, smp_call_function_single(other, fill_pcp_ipi,
						    NULL, true), 0);
	KTEST_EXPECT_EQ(t, fill_failed, 0UL);
	KTEST_EXPECT_GT(t, pcp_count(other), 0U);
	held = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, held);
	KTEST_EXPECT_EQ(t, fill_pcp(0, GFP_KERNEL), 0UL);
	KTEST_EXPECT_GT(t, pcp_count(me), 0U);

	/* 1. Honoured at this CPU's next free. */
	KTEST_ASSERT_EQ(t, smp_call_function_single(other, drain_from_irq,
						    NULL, true), 0);
	KTEST_EXPECT_TRUE(t, irq_drain_in_irq);
	KTEST_EXPECT_EQ(t, irq_drain_left, 0U);
	KTEST_EXPECT_EQ(t, pcp_count(other), 0U);
	KTEST_EXPECT_TRUE(t, any_drain_pending(me));
	KTEST_EXPECT_GT(t, pcp_count(me), 0U);	/* not touched from there */
	__free_page(held);
	KTEST_EXPECT_FALSE(t, any_drain_pending(me));
	KTEST_EXPECT_EQ(t, pcp_count(me), 1U);	/* only the page just freed */

	/* 2. Honoured at the next allocation: then only its refill is left. */
	KTEST_EXPECT_EQ(t, fill_pcp(0, GFP_KERNEL), 0UL);
	KTEST_ASSERT_EQ(t, smp_call_function_single(other, drain_from_irq,
						    NULL, true), 0);
	KTEST_EXPECT_TRUE(t, any_drain_pending(me));
	page = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, page);
	l = my_list(page);
	KTEST_EXPECT_FALSE(t, any_drain_pending(me));
	KTEST_EXPECT_EQ(t, pcp_count(me), (unsigned int)l->count);
	KTEST_EXPECT_EQ(t, l->count, l->batch - 1);
	__free_page(page);

	/* 3. Honoured by cache_reap's pass, though the list is in use. */
	KTEST_ASSERT_EQ(t, smp_call_function_single(other, drain_from_irq,
						    NULL, true), 0);
	KTEST_EXPECT_TRUE(t, any_drain_pending(me));
	KTEST_EXPECT_GT(t, drain_local_pages_idle(), 0UL);
	KTEST_EXPECT_FALSE(t, any_drain_pending(me));
	KTEST_EXPECT_EQ(t, pcp_count(me), 0U);
	KTEST_EXPECT_EQ(t, page_alloc_check(), 0);
}

/* A new cache of 64-byte objects with per-CPU arrays, or a skip. */
static struct kmem_cache *array_cache_create(struct ktest *t, const char *name)
{
	struct kmem_cache *cachep = kmem_cache_create(name, 64, 0, 0, NULL);

	KTEST_ASSERT_NOT_NULL(t, cachep);
	if (!has_arrays(cachep)) {
		kmem_cache_destroy(cachep);
		ktest_skip(t, "slab_debug: the cache keeps no per-CPU arrays");
	}
	return cachep;
}

/* A drain with interrupts off is a caller's bug: WARNING, this CPU only. */
static void test_shrink_irqs_off_warns(struct ktest *t)
{
	struct kmem_cache *cachep = array_cache_create(t, "smp-drain-irqoff");
	unsigned long flags;

	kmem_cache_free(cachep, kmem_cache_alloc(cachep, GFP_KERNEL));
	KTEST_EXPECT_GT(t, array_avail(cachep, smp_processor_id()), 0U);
	ktest_capture_start(t, "WARNING:");
	local_irq_save(flags);
	kmem_cache_shrink(cachep);
	local_irq_restore(flags);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_EQ(t, array_avail(cachep, smp_processor_id()), 0U);
	kmem_cache_destroy(cachep);
}

/*
 * kmem_cache_cpu_release() (a malloc shim thread's exit) empties this
 * CPU's arrays and page lists and leaves every other CPU's alone; with
 * interrupts off it is a WARNING and releases nothing.
 */
static void test_cpu_release_empties_own_caches(struct ktest *t)
{
	unsigned int cpu;
	unsigned int me, kept = 0;
	unsigned long flags;

	fill_cache = array_cache_create(t, "smp-drain-release");
	fill_failed = 0;
	KTEST_ASSERT_EQ(t, on_each_cpu(fill_on_cpu, NULL, true), 0);
	KTEST_EXPECT_EQ(t, fill_failed, 0UL);

	ktest_capture_start(t, "WARNING:");
	local_irq_save(flags);
	me = smp_processor_id();
	kmem_cache_cpu_release();
	KTEST_EXPECT_GT(t, array_avail(fill_cache, me), 0U);
	local_irq_restore(flags);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);

	kmem_cache_cpu_release();
	KTEST_EXPECT_EQ(t, array_avail(fill_cache, me), 0U);
	KTEST_EXPECT_EQ(t, pcp_count(me), 0U);
	for_each_possible_cpu(cpu)
		kept += cpu != me && cpu_online(cpu) &&
			array_avail(fill_cache, cpu) > 0;
	KTEST_EXPECT_EQ(t, kept, num_online_cpus() - 1);
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(fill_cache), 0);
	kmem_cache_destroy(fill_cache);
}

static const struct ktest_case smp_drain_cases[] = {
	KTEST_CASE(test_cpu_release_empties_own_caches),
	KTEST_CASE(test_shrink_empties_every_cpu),
	KTEST_CASE(test_drain_interrupts_only_holders),
	KTEST_CASE(test_shrink_while_others_allocate),
	KTEST_CASE(test_atomic_ipi_inside_slow_paths),
	KTEST_CASE(test_shrink_irqs_off_warns),
	KTEST_CASE(test_page_drain_while_others_allocate),
	KTEST_CASE(test_page_drain_from_irq),
	{}
};
KTEST_SUITE(smp_drain, smp_drain_cases);

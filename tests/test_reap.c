// SPDX-License-Identifier: GPL-2.0
/*
 * Delayed work (kernel/workqueue.h) and cache_reap (mm/slab_reap.c).
 *
 * Delayed work runs once, after its delay, outside interrupt context
 * with interrupts on, on the CPU it was scheduled on (every CPU that
 * ticks); cancel_delayed_work_sync() stops a pending one, waits for a
 * running one and stops one that re-arms itself; misuses warn.
 *
 * cache_reap, with its period cut to a few jiffies for the tests (the
 * suite's exit puts 2 s back), and no shrink anywhere: an idle cache's
 * arrays and free slabs go back by themselves, one pass drains what
 * Linux's rule says from the bottom of an idle array and only arms a
 * used one, a busy cache keeps its hot objects, another CPU's array is
 * reaped by that CPU, idle per-CPU page lists are drained, and the
 * reserve state ends once memory is back with nobody meeting the
 * reserve slab. Waits are counted in this CPU's passes, bounded in time.
 */
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/smp.h"
#include "kernel/time.h"
#include "kernel/workqueue.h"
#include "lib/ktest/ktest.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/mm.h"
#include "mm/internal.h"
#include "mm/slab_internal.h"
#include "mm/slab_reap.h"
#include "tests/mm_util.h"
#include "arch/arch.h"

#define WAIT_S		20	/* bound of every wait: TCG is slow */
#define FAST_PERIOD	5	/* jiffies: 20 ms */

/* --- delayed work ------------------------------------------------------- */

struct probe {
	struct delayed_work dwork;
	unsigned long runs;
	unsigned int cpu;
	bool irq_ctx, irqs_off, in_wq;
	unsigned long at;		/* jiffies when it ran */
};

static void probe_fn(struct work_struct *work)
{
	struct probe *p = container_of(to_delayed_work(work), struct probe,
				       dwork);

	p->cpu = arch_cpu_id();
	p->irq_ctx = in_interrupt();
	p->irqs_off = irqs_disabled();
	p->in_wq = in_workqueue();
	p->at = jiffies;
	__atomic_store_n(&p->runs, p->runs + 1, __ATOMIC_RELEASE);
}

static void test_work_runs_once(struct ktest *t)
{
	unsigned int cpu = arch_cpu_id();
	struct probe p = {};
	unsigned long start;

	INIT_DELAYED_WORK(&p.dwork, probe_fn);
	KTEST_EXPECT_FALSE(t, delayed_work_pending(&p.dwork));
	start = jiffies;
	KTEST_ASSERT_TRUE(t, schedule_delayed_work_on(cpu, &p.dwork, 3));
	KTEST_EXPECT_TRUE(t, delayed_work_pending(&p.dwork));
	/* Pending: a second schedule is refused. */
	KTEST_EXPECT_FALSE(t, schedule_delayed_work_on(cpu, &p.dwork, 1));
	/* This CPU spins with interrupts on: it runs the work meanwhile. */
	KTEST_ASSERT_TRUE(t, wait_until(&p.runs, 1, WAIT_S));
	KTEST_EXPECT_FALSE(t, delayed_work_pending(&p.dwork));
	KTEST_EXPECT_TRUE(t, time_after_eq(p.at, start + 3));
	KTEST_EXPECT_EQ(t, p.cpu, cpu);
	KTEST_EXPECT_FALSE(t, p.irq_ctx);
	KTEST_EXPECT_FALSE(t, p.irqs_off);
	KTEST_EXPECT_TRUE(t, p.in_wq);
	KTEST_EXPECT_FALSE(t, in_workqueue());
	spin_ns(5 * TICK_NSEC);
	KTEST_EXPECT_EQ(t, p.runs, 1UL);
	/* No delay: it runs at this CPU's next interrupt. */
	KTEST_ASSERT_TRUE(t, schedule_delayed_work_on(cpu, &p.dwork, 0));
	KTEST_ASSERT_TRUE(t, wait_until(&p.runs, 2, WAIT_S));
	KTEST_EXPECT_EQ(t, p.cpu, cpu);
	KTEST_EXPECT_FALSE(t, cancel_delayed_work_sync(&p.dwork));
}

/* Every CPU that ticks runs its own work; the timer ran here. */
static void test_work_on_each_cpu(struct ktest *t)
{
	unsigned int cpu;
	static struct probe p[NR_CPUS];
	unsigned int nr = 0;

	memset(p, 0, sizeof(p));
	for_each_possible_cpu(cpu) {
		if (cpu != arch_cpu_id() && !cpu_online(cpu))
			continue;
		INIT_DELAYED_WORK(&p[cpu].dwork, probe_fn);
		KTEST_ASSERT_TRUE(t, schedule_delayed_work_on(cpu, &p[cpu].dwork,
							      1 + cpu % 3));
		nr++;
	}
	for_each_possible_cpu(cpu) {
		if (!p[cpu].dwork.work.func)
			continue;
		KTEST_ASSERT_TRUE(t, wait_until(&p[cpu].runs, 1, WAIT_S));
		KTEST_EXPECT_EQ(t, p[cpu].cpu, cpu);
		KTEST_EXPECT_FALSE(t, p[cpu].irq_ctx);
		KTEST_EXPECT_FALSE(t, p[cpu].irqs_off);
	}
	spin_ns(5 * TICK_NSEC);
	for_each_possible_cpu(cpu)
		if (p[cpu].dwork.work.func)
			KTEST_EXPECT_EQ(t, p[cpu].runs, 1UL);
	ktest_info(t, "work ran on %u CPUs", nr);
}

/* A work function that runs ~100 ms, and one that re-arms itself. */
struct slow {
	struct delayed_work dwork;
	unsigned long started, done, runs;
	bool rearm;
};

static void slow_fn(struct work_struct *work)
{
	struct slow *s = container_of(to_delayed_work(work), struct slow,
				      dwork);

	WRITE_ONCE(s->started, 1);
	spin_ns(100 * NSEC_PER_MSEC);
	WRITE_ONCE(s->done, 1);
}

static void rearm_fn(struct work_struct *work)
{
	struct slow *s = container_of(to_delayed_work(work), struct slow,
				      dwork);

	__atomic_store_n(&s->runs, s->runs + 1, __ATOMIC_RELEASE);
	schedule_delayed_work_on(arch_cpu_id(), &s->dwork, 1);
}

static unsigned int other_cpu(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (cpu != arch_cpu_id() && cpu_online(cpu))
			return cpu;
	return NR_CPUS;
}

#define CANCEL_DELAY	25	/* ticks: 100 ms */

static void test_cancel_sync(struct ktest *t)
{
	unsigned int cpu = other_cpu();
	struct slow s = {}, r = {};
	struct probe p = {};
	unsigned long runs;

	/*
	 * Pending on its timer: cancelled, never runs. Due in
	 * CANCEL_DELAY ticks, not 2: a busy host can hold this CPU off for
	 * a few ticks between the schedule and the cancel.
	 */
	INIT_DELAYED_WORK(&p.dwork, probe_fn);
	KTEST_ASSERT_TRUE(t, schedule_delayed_work_on(arch_cpu_id(), &p.dwork,
						      CANCEL_DELAY));
	KTEST_EXPECT_TRUE(t, cancel_delayed_work_sync(&p.dwork));
	KTEST_EXPECT_FALSE(t, delayed_work_pending(&p.dwork));
	KTEST_EXPECT_FALSE(t, cancel_delayed_work_sync(&p.dwork));
	spin_ns((CANCEL_DELAY + 6) * TICK_NSEC);
	KTEST_EXPECT_EQ(t, p.runs, 0UL);

	/* Re-arming itself on this CPU: stopped for good. */
	INIT_DELAYED_WORK(&r.dwork, rearm_fn);
	KTEST_ASSERT_TRUE(t, schedule_delayed_work_on(arch_cpu_id(), &r.dwork, 1));
	KTEST_ASSERT_TRUE(t, wait_until(&r.runs, 3, WAIT_S));
	cancel_delayed_work_sync(&r.dwork);
	KTEST_EXPECT_FALSE(t, delayed_work_pending(&r.dwork));
	runs = r.runs;
	spin_ns(6 * TICK_NSEC);
	KTEST_EXPECT_EQ(t, r.runs, runs);
	/* It can be scheduled again after the cancel. */
	KTEST_EXPECT_TRUE(t, schedule_delayed_work_on(arch_cpu_id(), &r.dwork, 1));
	KTEST_EXPECT_TRUE(t, wait_until(&r.runs, runs + 1, WAIT_S));
	cancel_delayed_work_sync(&r.dwork);

	/* Running on another CPU: the cancel waits for it. */
	if (cpu == NR_CPUS)
		ktest_skip(t, "one CPU online: no work running elsewhere to wait for");
	INIT_DELAYED_WORK(&s.dwork, slow_fn);
	KTEST_ASSERT_TRUE(t, schedule_delayed_work_on(cpu, &s.dwork, 1));
	KTEST_ASSERT_TRUE(t, wait_until(&s.started, 1, WAIT_S));
	KTEST_EXPECT_FALSE(t, cancel_delayed_work_sync(&s.dwork));
	KTEST_EXPECT_EQ(t, READ_ONCE(s.done), 1UL);
}

/* Misuses: a CPU that runs no work, waiting in a handler or on oneself. */
static struct delayed_work irq_dwork;
static bool irq_cancel_ret = true;

static void cancel_in_irq(unsigned int vector)
{
	(void)vector;
	irq_cancel_ret = cancel_delayed_work_sync(&irq_dwork);
}

static struct slow self;
static bool self_ret = true;

static void self_cancel_fn(struct work_struct *work)
{
	self_ret = cancel_delayed_work_sync(to_delayed_work(work));
	__atomic_store_n(&self.runs, 1, __ATOMIC_RELEASE);
}

static void test_work_misuse(struct ktest *t)
{
	struct probe p = {};

	INIT_DELAYED_WORK(&p.dwork, probe_fn);
	INIT_DELAYED_WORK(&irq_dwork, probe_fn);
	memset(&self, 0, sizeof(self));
	INIT_DELAYED_WORK(&self.dwork, self_cancel_fn);
	ktest_capture_start(t, "WARNING:");
	KTEST_EXPECT_FALSE(t, schedule_delayed_work_on(NR_CPUS, &p.dwork, 1));
	KTEST_EXPECT_FALSE(t, schedule_delayed_work_on(nr_cpu_ids, &p.dwork, 0));
	KTEST_EXPECT_FALSE(t, delayed_work_pending(&p.dwork));
	/* From a handler: no wait, but the pending timer is stopped. */
	KTEST_ASSERT_TRUE(t, schedule_delayed_work_on(arch_cpu_id(), &irq_dwork,
						      10 * HZ));
	KTEST_ASSERT_EQ(t, set_irq_handler(0x43, cancel_in_irq), 0);
	apic_send_IPI_self(0x43);
	set_irq_handler(0x43, NULL);
	KTEST_EXPECT_TRUE(t, irq_cancel_ret);
	KTEST_EXPECT_FALSE(t, delayed_work_pending(&irq_dwork));
	/* From the work itself: no wait for itself. */
	KTEST_ASSERT_TRUE(t, schedule_delayed_work_on(arch_cpu_id(), &self.dwork, 1));
	KTEST_ASSERT_TRUE(t, wait_until(&self.runs, 1, WAIT_S));
	KTEST_EXPECT_FALSE(t, self_ret);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 4U);
	KTEST_EXPECT_EQ(t, p.runs, 0UL);
}

/* --- cache_reap ---------------------------------------------------------- */

#define MAX_REAP_OBJS	512
static void *reap_objs[MAX_REAP_OBJS];

static unsigned long passes(unsigned int cpu)
{
	struct cache_reap_stats st;

	cache_reap_get_stats(cpu, &st);
	return st.passes;
}

/*
 * Passes of cpu that walked the caches: one that found slab_lock busy
 * (another CPU's pass walking them, a destroy) skips them.
 */
static unsigned long walks(unsigned int cpu)
{
	struct cache_reap_stats st;

	cache_reap_get_stats(cpu, &st);
	return st.passes - st.skipped;
}

/*
 * Wait for n more passes of cpu's reaper that walked the caches (not
 * skipped on a busy slab_lock); false past the time bound.
 */
static bool wait_passes(unsigned int cpu, unsigned long n)
{
	u64 deadline = ktime_get_ns() + WAIT_S * NSEC_PER_SEC;
	unsigned long want = walks(cpu) + n;

	while (walks(cpu) < want)
		if (ktime_get_ns() > deadline)
			return false;
		else
			arch_cpu_relax();
	return true;
}

/* Fast passes for this case; the suite's exit puts 2 s back. */
static void reap_fast(struct ktest *t, unsigned long period)
{
	if (!cache_reap_running())
		ktest_skip(t, "cache_reap is not running");
	cache_reap_set_period(period);
}

static struct array_cache *ac_of(struct kmem_cache *c, unsigned int cpu)
{
	return c->cpu_cache[cpu];
}

/* Everything c keeps, on every CPU's array, the shared one and slabs. */
static bool cache_empty(struct kmem_cache *c)
{
	unsigned int cpu;
	struct kmem_cache_node *n = c->node[0];

	for_each_possible_cpu(cpu)
		if (READ_ONCE(ac_of(c, cpu)->avail))
			return false;
	return (!n->shared || !READ_ONCE(n->shared->avail)) &&
	       !READ_ONCE(n->total_slabs);
}

static void reap_total(struct cache_reap_stats *sum)
{
	unsigned int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		struct cache_reap_stats st;

		cache_reap_get_stats(cpu, &st);
		sum->objects += st.objects;
		sum->slabs += st.slabs;
	}
}

/* An idle cache gives back its arrays and free slabs, with no shrink. */
static void test_reap_idle_cache(struct ktest *t)
{
	unsigned int cpu = arch_cpu_id(), took = 0, array_took;
	struct kmem_cache *c;
	struct cache_reap_stats before, after;
	unsigned long n, skipped;

	reap_fast(t, FAST_PERIOD);
	c = kmem_cache_create("t-reap-idle", 256, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	skip_debugged_cache(t, c);
	skip_kasan_quarantine_cache(t, c);
	/* More than the array holds: the rest goes to the shared array or slabs. */
	n = min((unsigned long)c->limit + 2 * c->num,
		(unsigned long)MAX_REAP_OBJS);
	for (unsigned long i = 0; i < n; i++) {
		reap_objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, reap_objs[i]);
	}
	for (unsigned long i = 0; i < n; i++)
		kmem_cache_free(c, reap_objs[i]);
	KTEST_EXPECT_GT(t, ac_of(c, cpu)->avail, 0U);
	KTEST_EXPECT_GT(t, c->node[0]->total_slabs, 0UL);
	reap_total(&before);
	skipped = passes(cpu) - walks(cpu);
	while (ac_of(c, cpu)->avail && took < 20) {
		KTEST_ASSERT_TRUE(t, wait_passes(cpu, 1));
		took++;
	}
	array_took = took;
	while (!cache_empty(c) && took < 20) {
		KTEST_ASSERT_TRUE(t, wait_passes(cpu, 1));
		took++;
	}
	skipped = passes(cpu) - walks(cpu) - skipped;
	ktest_info(t, "array empty after %u passes of this CPU, all after %u, %lu more skipped (limit %u, %lu objects freed)",
		   array_took, took, skipped, c->limit, n);
	KTEST_EXPECT_TRUE(t, cache_empty(c));
	/* This CPU's array: the arm, a fifth, the rest. */
	KTEST_EXPECT_LE(t, array_took, 3U);
	/*
	 * The node's shared array and free slabs likewise, at node passes:
	 * one every 2 periods, so three of them within 7 of this CPU's.
	 */
	KTEST_EXPECT_LE(t, took, 7U);
	KTEST_EXPECT_EQ(t, c->node[0]->free_slabs, 0UL);
	/* Node passes may be any CPU's: the sums over all of them. */
	reap_total(&after);
	KTEST_EXPECT_GT(t, after.objects, before.objects);
	KTEST_EXPECT_GT(t, after.slabs, before.slabs);
	kmem_cache_destroy(c);
}

/*
 * One pass by the rule: a used array is only armed (its limit taken
 * until the next free), an armed one that saw nothing loses
 * (limit + 4) / 5 objects from its bottom, the top staying in order,
 * and one idle a second pass in a row loses the rest.
 */
static void test_reap_pass_rule(struct ktest *t)
{
	unsigned int cpu = arch_cpu_id(), limit, avail, tofree, bad = 0;
	struct array_cache *ac;
	struct kmem_cache *c;
	void *top[8];

	reap_fast(t, 25);	/* 100 ms: time to look between passes */
	c = kmem_cache_create("t-reap-rule", 128, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	skip_debugged_cache(t, c);
	skip_kasan_layout_cache(t, c);
	skip_kasan_quarantine_cache(t, c);
	ac = ac_of(c, cpu);
	limit = ac->limit;
	/* Fill the array to its limit: used (refills, no flush yet). */
	for (unsigned int i = 0; i < limit + 8; i++) {
		reap_objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, reap_objs[i]);
	}
	for (unsigned int i = 0; i < limit; i++)
		kmem_cache_free(c, reap_objs[i]);
	KTEST_ASSERT_EQ(t, ac->avail, limit);
	memcpy(top, &ac->entry[limit - 8], sizeof(top));

	/* The pass after its use arms it and drains nothing. */
	KTEST_ASSERT_TRUE(t, wait_passes(cpu, 1));
	if (ac->used) {		/* the pass came before our last free */
		KTEST_ASSERT_TRUE(t, wait_passes(cpu, 1));
	}
	KTEST_EXPECT_EQ(t, ac->avail, limit);
	KTEST_EXPECT_EQ(t, ac->limit, 0U);
	KTEST_EXPECT_EQ(t, ac->armed_limit, limit);
	KTEST_EXPECT_EQ(t, ac->used, 0U);

	/* Idle for a period: the next one drains a fifth of it, bottom first. */
	avail = ac->avail;
	tofree = (limit + 4) / 5;
	KTEST_ASSERT_TRUE(t, wait_passes(cpu, 1));
	KTEST_EXPECT_EQ(t, ac->avail, avail - tofree);
	for (unsigned int i = 0; i < 8; i++)
		bad += ac->entry[ac->avail - 8 + i] != top[i];
	KTEST_EXPECT_EQ(t, bad, 0U);
	KTEST_EXPECT_EQ(t, ac->limit, 0U);	/* still armed */

	/* A free puts the limit back and marks it used: not drained next. */
	kmem_cache_free(c, reap_objs[limit]);
	KTEST_EXPECT_EQ(t, ac->limit, limit);
	KTEST_EXPECT_EQ(t, ac->armed_limit, 0U);
	KTEST_EXPECT_EQ(t, ac->used, 1U);
	avail = ac->avail;
	KTEST_ASSERT_TRUE(t, wait_passes(cpu, 1));
	KTEST_EXPECT_EQ(t, ac->avail, avail);
	KTEST_EXPECT_EQ(t, ac->idle, 0U);

	/* Idle again: a fifth, then, idle a second pass in a row, all. */
	KTEST_ASSERT_TRUE(t, wait_passes(cpu, 1));
	KTEST_EXPECT_EQ(t, ac->avail, avail - tofree);
	KTEST_EXPECT_EQ(t, ac->idle, 1U);
	KTEST_ASSERT_TRUE(t, wait_passes(cpu, 1));
	KTEST_EXPECT_EQ(t, ac->avail, 0U);
	for (unsigned int i = limit + 1; i < limit + 8; i++)
		kmem_cache_free(c, reap_objs[i]);
	kmem_cache_destroy(c);
}

/*
 * Rounds of 8 allocations and frees over 8 passes: the misses (an
 * object other than hot[i] back), and in *stalled whether two passes
 * ran with no round between them. That is what a busy host does when it
 * holds this CPU off for more than a period, then delivers the ticks at
 * once; the second pass rightly drains an array nobody used.
 */
static unsigned int busy_rounds(struct kmem_cache *c, unsigned int cpu,
				void *hot[8], unsigned int *rounds,
				bool *stalled)
{
	unsigned long want = passes(cpu) + 8, last = passes(cpu);
	unsigned int misses = 0;
	void *got[8];

	*rounds = 0;
	*stalled = false;
	while (passes(cpu) < want && *rounds < 100000000) {
		*stalled |= passes(cpu) - last >= 2;
		last = passes(cpu);
		for (int i = 0; i < 8; i++)
			got[i] = kmem_cache_alloc(c, GFP_KERNEL);
		for (int i = 0; i < 8; i++)
			misses += got[i] != hot[i];
		for (int i = 7; i >= 0; i--)
			kmem_cache_free(c, got[i]);
		(*rounds)++;
	}
	return misses;
}

#define BUSY_TRIES	5

/*
 * A busy cache keeps its hot objects: a CPU that allocates and frees
 * the same few objects for many passes gets the same objects back each
 * time, and its array is never drained. Tried again (from new hot
 * objects) when the host stalled this CPU across two passes.
 */
static void test_reap_busy_keeps_hot(struct ktest *t)
{
	unsigned int cpu = arch_cpu_id(), misses = 0, rounds = 0, avail = 0;
	bool stalled = true;
	struct kmem_cache *c;
	void *hot[8];

	reap_fast(t, FAST_PERIOD);
	c = kmem_cache_create("t-reap-busy", 192, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	skip_debugged_cache(t, c);
	skip_kasan_quarantine_cache(t, c);
	for (int try = 0; try < BUSY_TRIES && stalled; try++) {
		for (int i = 0; i < 8; i++) {
			hot[i] = kmem_cache_alloc(c, GFP_KERNEL);
			KTEST_ASSERT_NOT_NULL(t, hot[i]);
		}
		for (int i = 7; i >= 0; i--)
			kmem_cache_free(c, hot[i]);
		avail = ac_of(c, cpu)->avail;
		misses = busy_rounds(c, cpu, hot, &rounds, &stalled);
		ktest_info(t, "%u rounds over 8 passes%s", rounds,
			   stalled ? ", two passes with no round between: again" : "");
	}
	KTEST_EXPECT_FALSE(t, stalled);
	KTEST_EXPECT_LT(t, rounds, 100000000U);
	KTEST_EXPECT_EQ(t, misses, 0U);
	KTEST_EXPECT_EQ(t, ac_of(c, cpu)->avail, avail);
	kmem_cache_destroy(c);
}

/* Another CPU's array, filled in its call-function interrupt. */
static void fill_here(void *arg)
{
	struct kmem_cache *c = arg;
	void *p[4];

	for (int i = 0; i < 4; i++)
		p[i] = kmem_cache_alloc(c, GFP_ATOMIC);
	for (int i = 0; i < 4; i++)
		kmem_cache_free(c, p[i]);
}

static void test_reap_other_cpu(struct ktest *t)
{
	unsigned int cpu = other_cpu(), took = 0;
	struct kmem_cache *c;

	if (cpu == NR_CPUS)
		ktest_skip(t, "one CPU online");
	reap_fast(t, FAST_PERIOD);
	c = kmem_cache_create("t-reap-other", 64, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	skip_debugged_cache(t, c);
	KTEST_ASSERT_EQ(t, smp_call_function_single(cpu, fill_here, c, true), 0);
	KTEST_ASSERT_GT(t, READ_ONCE(ac_of(c, cpu)->avail), 0U);
	while (READ_ONCE(ac_of(c, cpu)->avail) && took < 40) {
		KTEST_ASSERT_TRUE(t, wait_passes(cpu, 1));
		took++;
	}
	ktest_info(t, "CPU %u drained it in %u of its passes", cpu, took);
	KTEST_EXPECT_EQ(t, READ_ONCE(ac_of(c, cpu)->avail), 0U);
	kmem_cache_destroy(c);
}

/* This CPU's per-CPU page list, unused for a pass, goes back. */
static void test_reap_pcp(struct ktest *t)
{
	unsigned int cpu = arch_cpu_id(), took = 0;
	struct per_cpu_pages *pcp;
	struct page *page;

	reap_fast(t, FAST_PERIOD);
	page = alloc_pages(GFP_KERNEL, 0);
	KTEST_ASSERT_NOT_NULL(t, page);
	pcp = &page_zone(page)->pcp[cpu];
	__free_pages(page, 0);
	KTEST_ASSERT_GT(t, pcp_pages(pcp), 0UL);
	while (pcp_pages(pcp) && took < 10) {
		KTEST_ASSERT_TRUE(t, wait_passes(cpu, 1));
		took++;
	}
	KTEST_EXPECT_EQ(t, pcp_pages(pcp), 0UL);
	KTEST_EXPECT_LE(t, took, 3U);
}

/*
 * The reserve state: a reserve slab whose objects are freed but one,
 * memory back, nobody allocating from or freeing to it: the reaper turns
 * it ordinary and the fast paths come back, with no shrink.
 */
static void test_reap_ends_reserve(struct ktest *t)
{
	unsigned int cpu = arch_cpu_id(), took = 0;
	struct kmem_cache *c;
	struct hog *hogs;
	struct slab *slab;
	void *obj, *held;

	reap_fast(t, FAST_PERIOD);
	c = kmem_cache_create("t-reap-reserve", 64, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	skip_debugged_cache(t, c);
	hogs = hog_memory();
	KTEST_ASSERT_NOT_NULL(t, hogs);
	obj = kmem_cache_alloc(c, GFP_KERNEL | __GFP_MEMALLOC);
	held = obj ? kmem_cache_alloc(c, GFP_KERNEL | __GFP_MEMALLOC) : NULL;
	if (!obj || !held) {
		release_memory(hogs);
		kmem_cache_free(c, obj);
		KTEST_ASSERT_NOT_NULL(t, held);
	}
	slab = virt_to_slab(obj);
	KTEST_EXPECT_TRUE(t, slab_test_pfmemalloc(slab));
	KTEST_EXPECT_PTR_EQ(t, virt_to_slab(held), slab);
	/* Freed while memory is short: straight back to the reserve slab. */
	kmem_cache_free(c, obj);
	KTEST_EXPECT_TRUE(t, slab_test_pfmemalloc(slab));
	KTEST_EXPECT_TRUE(t, slab_pfmemalloc_active());
	release_memory(hogs);
	/* Memory is back; nobody meets the slab; the reaper ends it. */
	while (slab_pfmemalloc_active() && took < 20) {
		KTEST_ASSERT_TRUE(t, wait_passes(cpu, 1));
		took++;
	}
	ktest_info(t, "reserve state over after %u passes", took);
	KTEST_EXPECT_FALSE(t, slab_pfmemalloc_active());
	KTEST_EXPECT_FALSE(t, slab_test_pfmemalloc(slab));
	kmem_cache_free(c, held);
	kmem_cache_destroy(c);
}

static void reap_exit(struct ktest *t)
{
	(void)t;
	if (cache_reap_running())
		cache_reap_set_period(2 * HZ);
}

static const struct ktest_case reap_cases[] = {
	KTEST_CASE(test_work_runs_once),
	KTEST_CASE(test_work_on_each_cpu),
	KTEST_CASE(test_cancel_sync),
	KTEST_CASE(test_work_misuse),
	KTEST_CASE(test_reap_idle_cache),
	KTEST_CASE(test_reap_pass_rule),
	KTEST_CASE(test_reap_busy_keeps_hot),
	KTEST_CASE(test_reap_other_cpu),
	KTEST_CASE(test_reap_pcp),
	KTEST_CASE(test_reap_ends_reserve),
	{}
};
KTEST_SUITE(reap, reap_cases, .exit = reap_exit);

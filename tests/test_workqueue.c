// SPDX-License-Identifier: GPL-2.0
/*
 * Where work functions run (kernel/workqueue.h, kernel/preempt.h).
 *
 * Work runs only at a safe point: never inside an RCU reader, a held
 * spinlock or a preempt_disable() section, but at its end, at once;
 * work queued with interrupts off runs as soon as they are back on, on
 * every CPU. A work function may then wait as process context may: for
 * a grace period, for rcu_barrier(), for synchronous cross-CPU calls,
 * on every CPU, with no WARNING. And a work function that makes
 * asynchronous cross-CPU calls, started by a storm of interrupts that
 * land inside the caller's own calls to the same CPU, neither hangs nor
 * runs a call twice (for torture_ms=). Every wait is bounded.
 */
#include "kernel/irq.h"
#include "kernel/preempt.h"
#include "kernel/rcupdate.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "kernel/workqueue.h"
#include "lib/ktest/ktest.h"
#include "lib/string.h"
#include "tests/mm_util.h"
#include "tests/torture.h"
#include "arch/arch.h"

#define WAIT_S	20	/* bound of every wait: TCG is slow */

struct wq_probe {
	struct work_struct work;
	unsigned long runs;
	unsigned long runs_at_restore;	/* queue_irqs_off() */
	bool in_reader, in_hardirq, irqs_off;
	int preempt;
	unsigned int locks;
};

static void wq_probe_fn(struct work_struct *work)
{
	struct wq_probe *p = container_of(work, struct wq_probe, work);

	p->in_reader = rcu_read_lock_held();
	p->in_hardirq = in_hardirq();
	p->irqs_off = irqs_disabled();
	p->preempt = preempt_count();
	p->locks = IS_ENABLED(CONFIG_PROVE_LOCKING) ? lockdep_depth() : 0;
	__atomic_store_n(&p->runs, p->runs + 1, __ATOMIC_RELEASE);
}

static void expect_clean_context(struct ktest *t, const struct wq_probe *p)
{
	KTEST_EXPECT_FALSE(t, p->in_reader);
	KTEST_EXPECT_FALSE(t, p->in_hardirq);
	KTEST_EXPECT_FALSE(t, p->irqs_off);
	KTEST_EXPECT_EQ(t, p->preempt, 0);
	KTEST_EXPECT_EQ(t, p->locks, 0U);
}

/* Ticks come (interrupts on) while this CPU spins for 3 of them. */
static void spin_ticks(void)
{
	spin_ns(3 * TICK_NSEC);
}

enum blocker { BLOCK_RCU, BLOCK_SPINLOCK, BLOCK_PREEMPT, NR_BLOCKERS };

static const char *const blocker_names[] = {
	[BLOCK_RCU] = "an RCU reader",
	[BLOCK_SPINLOCK] = "a spinlock",
	[BLOCK_PREEMPT] = "preempt_disable()",
};

static DEFINE_SPINLOCK(wq_test_lock);

static void block(enum blocker b)
{
	if (b == BLOCK_RCU)
		rcu_read_lock();
	else if (b == BLOCK_SPINLOCK)
		spin_lock(&wq_test_lock);
	else
		preempt_disable();
}

static void unblock(enum blocker b)
{
	if (b == BLOCK_RCU)
		rcu_read_unlock();
	else if (b == BLOCK_SPINLOCK)
		spin_unlock(&wq_test_lock);
	else
		preempt_enable();
}

/*
 * Work queued inside each kind of section, on this CPU, with ticks
 * arriving meanwhile, waits for its end and runs right there.
 */
static void test_work_waits_for_section(struct ktest *t)
{
	for (enum blocker b = 0; b < NR_BLOCKERS; b++) {
		struct wq_probe p = {};

		INIT_WORK(&p.work, wq_probe_fn);
		block(b);
		KTEST_ASSERT_TRUE(t, schedule_work_on(arch_cpu_id(), &p.work));
		spin_ticks();
		if (READ_ONCE(p.runs))
			ktest_info(t, "work ran inside %s", blocker_names[b]);
		KTEST_EXPECT_EQ(t, READ_ONCE(p.runs), 0UL);
		unblock(b);
		/* No wait: the end of the section ran it. */
		KTEST_EXPECT_EQ(t, READ_ONCE(p.runs), 1UL);
		expect_clean_context(t, &p);
	}
}

/* Nested sections: only the end of the outermost one runs it. */
static void test_work_waits_for_outermost(struct ktest *t)
{
	struct wq_probe p = {};

	INIT_WORK(&p.work, wq_probe_fn);
	rcu_read_lock();
	spin_lock(&wq_test_lock);
	KTEST_ASSERT_TRUE(t, schedule_work_on(arch_cpu_id(), &p.work));
	spin_ticks();
	rcu_read_unlock();	/* the lock still holds it back */
	spin_ticks();
	KTEST_EXPECT_EQ(t, READ_ONCE(p.runs), 0UL);
	spin_unlock(&wq_test_lock);
	KTEST_EXPECT_EQ(t, READ_ONCE(p.runs), 1UL);
	expect_clean_context(t, &p);
}

/*
 * Queued with interrupts off: it runs as they come back on, not at some
 * later interrupt (the idle loop would halt first, its tick stopped).
 */
static void queue_irqs_off(void *arg)
{
	struct wq_probe *p = arg;
	unsigned long flags;

	local_irq_save(flags);
	schedule_work_on(arch_cpu_id(), &p->work);
	spin_ns(TICK_NSEC);	/* a tick falls here and must wait */
	local_irq_restore(flags);
	p->runs_at_restore = READ_ONCE(p->runs);
}

static void test_work_queued_irqs_off(struct ktest *t)
{
	unsigned int cpu;
	static struct wq_probe p[NR_CPUS];
	unsigned int nr = 0;

	memset(p, 0, sizeof(p));
	for_each_possible_cpu(cpu) {
		INIT_WORK(&p[cpu].work, wq_probe_fn);
		if (cpu == arch_cpu_id())
			queue_irqs_off(&p[cpu]);
		else if (!arch_cpu_run(cpu, queue_irqs_off, &p[cpu]))
			arch_cpu_join(cpu);
		else
			continue;
		KTEST_EXPECT_EQ(t, p[cpu].runs_at_restore, 1UL);
		KTEST_EXPECT_EQ(t, READ_ONCE(p[cpu].runs), 1UL);
		expect_clean_context(t, &p[cpu]);
		nr++;
	}
	ktest_info(t, "checked on %u CPUs", nr);
}

/* --- what a work function may wait for -------------------------------- */

struct waiter {
	struct work_struct work;
	unsigned long done;
	unsigned long gp_before, gp_after;
	int call_err, each_err;
	unsigned long called;		/* the cross-CPU functions that ran */
	unsigned long reached;		/* CPUs the calls were for */
	unsigned int cpu, target;
};

static void count_call(void *info)
{
	__atomic_fetch_add((unsigned long *)info, 1, __ATOMIC_RELAXED);
}

static unsigned long gp_completed(void)
{
	struct rcu_stats st;

	rcu_get_stats(&st);
	return st.completed;
}

static void waiter_fn(struct work_struct *work)
{
	unsigned int cpu;
	struct waiter *w = container_of(work, struct waiter, work);

	w->cpu = arch_cpu_id();
	w->reached = 1;		/* smp_call_function_single() */
	for_each_possible_cpu(cpu)
		w->reached += on_each_cpu_reaches(cpu);
	w->gp_before = gp_completed();
	synchronize_rcu();
	w->gp_after = gp_completed();
	rcu_barrier();
	w->call_err = smp_call_function_single(w->target, count_call,
					       &w->called, true);
	w->each_err = on_each_cpu(count_call, &w->called, true);
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
}

static unsigned int next_online(unsigned int cpu)
{
	for (unsigned int i = 1; i <= nr_cpu_ids; i++) {
		unsigned int c = (cpu + i) % nr_cpu_ids;

		if (on_each_cpu_reaches(c))
			return c;
	}
	return cpu;
}

static void test_work_may_wait(struct ktest *t)
{
	unsigned int cpu;
	static struct waiter w[NR_CPUS];
	unsigned int nr = 0;

	memset(w, 0, sizeof(w));
	ktest_capture_start(t, "WARNING:");
	for_each_possible_cpu(cpu) {
		if (!on_each_cpu_reaches(cpu))
			continue;
		INIT_WORK(&w[cpu].work, waiter_fn);
		w[cpu].target = next_online(cpu);
		KTEST_ASSERT_TRUE(t, schedule_work_on(cpu, &w[cpu].work));
		nr++;
	}
	for_each_possible_cpu(cpu) {
		if (!w[cpu].work.func)
			continue;
		KTEST_ASSERT_TRUE(t, wait_until(&w[cpu].done, 1, WAIT_S));
		KTEST_EXPECT_EQ(t, w[cpu].cpu, cpu);
		KTEST_EXPECT_GT(t, w[cpu].gp_after, w[cpu].gp_before);
		KTEST_EXPECT_EQ(t, w[cpu].call_err, 0);
		KTEST_EXPECT_EQ(t, w[cpu].each_err, 0);
		KTEST_EXPECT_EQ(t, READ_ONCE(w[cpu].called), w[cpu].reached);
	}
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
	ktest_info(t, "%u CPUs waited for a grace period, rcu_barrier() and cross-CPU calls from a work function",
		   nr);
}

/* --- cross-CPU calls from work that interrupts the same calls ----------- */

/*
 * CPU A (this one) makes asynchronous calls to CPU B in a loop. B, at the
 * same time, interrupts A as fast as it can with calls whose handler
 * queues work on A; the work makes asynchronous calls to B too. A work
 * function that ran inside A's claim-fill-queue of the same csd would
 * wait for a csd never queued, or queue it twice (a loop in B's list).
 * Every call must run exactly once.
 */
struct storm {
	struct work_struct work;
	unsigned long a_calls, work_calls, b_kicks, ran;
	unsigned long stop;
	unsigned int a, b;
};

static struct storm storm;

static void storm_count(void *info)
{
	__atomic_fetch_add(&storm.ran, 1, __ATOMIC_RELAXED);
}

static void storm_work_fn(struct work_struct *work)
{
	if (!smp_call_function_single(storm.b, storm_count, NULL, false))
		__atomic_fetch_add(&storm.work_calls, 1, __ATOMIC_RELAXED);
}

/* On A, in its CALL_FUNCTION_VECTOR handler. */
static void storm_kick(void *info)
{
	schedule_work_on(arch_cpu_id(), &storm.work);
}

/*
 * On B: interrupt A until told to stop, each time once the work the last
 * interrupt started has made its call, a little later each time, so
 * that the interrupts fall all over A's loop.
 */
static void storm_kicker(void *arg)
{
	unsigned long seen = 0;

	while (!__atomic_load_n(&storm.stop, __ATOMIC_ACQUIRE)) {
		if (!smp_call_function_single(storm.a, storm_kick, NULL, false))
			storm.b_kicks++;
		while (__atomic_load_n(&storm.work_calls, __ATOMIC_ACQUIRE) == seen &&
		       !__atomic_load_n(&storm.stop, __ATOMIC_ACQUIRE))
			arch_cpu_relax();
		seen = __atomic_load_n(&storm.work_calls, __ATOMIC_ACQUIRE);
		spin_ns(storm.b_kicks % 64 * 250);
	}
}

static void test_async_calls_from_work(struct ktest *t)
{
	u64 end = ktime_get_ns() + torture_ms() * NSEC_PER_MSEC;
	u64 limit = end + WAIT_S * NSEC_PER_SEC;
	unsigned long want;

	memset(&storm, 0, sizeof(storm));
	storm.a = arch_cpu_id();
	storm.b = next_online(storm.a);
	if (storm.b == storm.a)
		ktest_skip(t, "needs a second CPU that runs work (arch_cpu_run)");
	INIT_WORK(&storm.work, storm_work_fn);
	if (arch_cpu_run(storm.b, storm_kicker, NULL))
		ktest_skip(t, "CPU %u cannot run work (arch_cpu_run)", storm.b);
	/*
	 * torture_ms() of calls, then on (at most WAIT_S more) until B's
	 * interrupts have had work make a call: on a busy host B's vCPU or
	 * thread may not have run at all by the end.
	 */
	while (ktime_get_ns() < end ||
	       (!__atomic_load_n(&storm.work_calls, __ATOMIC_ACQUIRE) &&
		ktime_get_ns() < limit))
		if (!smp_call_function_single(storm.b, storm_count, NULL, false))
			storm.a_calls++;
	__atomic_store_n(&storm.stop, 1, __ATOMIC_RELEASE);
	arch_cpu_join(storm.b);
	/* A last synchronous call to B: every earlier one has run by then. */
	KTEST_ASSERT_EQ(t, smp_call_function_single(storm.b, storm_count, NULL,
						    true), 0);
	want = storm.a_calls + READ_ONCE(storm.work_calls) + 1;
	KTEST_EXPECT_EQ(t, READ_ONCE(storm.ran), want);
	KTEST_EXPECT_GT(t, storm.b_kicks, 0UL);
	KTEST_EXPECT_GT(t, storm.work_calls, 0UL);
	ktest_info(t, "%lu calls from the loop, %lu from work started by %lu interrupts, %lu ran",
		   storm.a_calls, storm.work_calls, storm.b_kicks, storm.ran);
}

static const struct ktest_case workqueue_cases[] = {
	KTEST_CASE(test_work_waits_for_section),
	KTEST_CASE(test_work_waits_for_outermost),
	KTEST_CASE(test_work_queued_irqs_off),
	KTEST_CASE(test_work_may_wait),
	KTEST_CASE(test_async_calls_from_work),
	{}
};

KTEST_SUITE(workqueue, workqueue_cases);

// SPDX-License-Identifier: GPL-2.0
/*
 * The tick and timers (kernel/time.h): the tick rate against the clock,
 * jiffies, timers that fire once, in order, in interrupt context on the
 * CPU that armed them (every online CPU), del_timer_sync() waiting for a
 * function that runs on another CPU, the misuses that must warn, and
 * tickless idle: an idle CPU stops ticking, an interrupt or its next
 * timer wakes it, and RCU's grace periods do not wait for it.
 */
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/rcupdate.h"
#include "kernel/smp.h"
#include "kernel/time.h"
#include "lib/ktest/ktest.h"
#include "lib/string.h"
#include "tests/mm_util.h"
#include "arch/arch.h"

#define WAIT_S		20	/* bound of every wait: TCG is slow */
#define NR_ORDERED	6

/*
 * The tick's timer runs at HZ, within 5%, measured against the
 * calibration reference (x86_64: the PIT) and against the TSC
 * (arch_tick_rate_mhz()). Under TCG on a loaded host a vCPU is held up
 * between the reads of one measurement often enough to spoil several in
 * a row, so each is taken up to RATE_TRIES times and one must land
 * within 5%: a timer programmed wrong (divider, period) never does. Over
 * one second jiffies moves by HZ within 5%, and ticks arrive (at least a
 * quarter of them: a vCPU that does not run for several ticks sees them
 * merge).
 */
#define RATE_TRIES	8

static unsigned long clock_jiffies(void)
{
	return (unsigned long)(ktime_get_ns() / TICK_NSEC);
}

static bool rate_ok(unsigned long mhz)
{
	return mhz >= (unsigned long)HZ * 950 && mhz <= (unsigned long)HZ * 1050;
}

static unsigned long measure_rate(struct ktest *t, enum tick_ref ref)
{
	unsigned int tries = 0;
	unsigned long rate;

	do {
		rate = arch_tick_rate_mhz(ref);
		ktest_info(t, "timer at %lu.%03lu Hz against the %s", rate / 1000,
			   rate % 1000, ref == TICK_REF_TSC ? "TSC" : "calibration reference");
	} while (!rate_ok(rate) && ++tries < RATE_TRIES);
	return rate;
}

static void test_tick_rate(struct ktest *t)
{
	unsigned int cpu = arch_cpu_id();
	unsigned long ticks = tick_count(cpu), got;
	unsigned long j0 = jiffies, c0 = clock_jiffies(), lag0 = c0 - j0;
	unsigned long j1, c1, lag1;

	KTEST_ASSERT_FALSE(t, irqs_disabled());
	spin_ns(NSEC_PER_SEC);
	got = tick_count(cpu) - ticks;
	j1 = jiffies;
	c1 = clock_jiffies();
	lag1 = c1 - j1;
	KTEST_EXPECT_TRUE(t, rate_ok(measure_rate(t, TICK_REF_CALIBRATION)));
	KTEST_EXPECT_TRUE(t, rate_ok(measure_rate(t, TICK_REF_TSC)));
	ktest_info(t, "%lu ticks and %lu jiffies in 1 s (HZ %u), jiffies %lu behind the clock",
		   got, j1 - j0, HZ, lag1);
	/* jiffies follows the clock: never ahead, at most 50 ms behind */
	KTEST_EXPECT_LE(t, lag1, (unsigned long)HZ / 20);
	/*
	 * As fast as the clock, which ran at least the 1 s spun (more when
	 * the host held this CPU's thread off between the reads).
	 */
	KTEST_EXPECT_GE(t, c1 - c0, (unsigned long)HZ);
	KTEST_EXPECT_GE(t, (j1 - j0) * 100, (unsigned long)HZ * 95);
	KTEST_EXPECT_LE(t, (j1 - j0) * 100, (c1 - c0) * 105 + lag0 * 100);
	/*
	 * The ticks of a vCPU the host held off merge: on a busy host a
	 * second can get fewer than a quarter. Count again, as the rates
	 * are measured again; a timer that does not tick never gets there.
	 */
	for (unsigned int tries = 1; got * 4 < HZ && tries < RATE_TRIES;
	     tries++) {
		ticks = tick_count(cpu);
		spin_ns(NSEC_PER_SEC);
		ticks = tick_count(cpu) - ticks;
		ktest_info(t, "%lu ticks in 1 s, again", ticks);
		got = max(got, ticks);
	}
	KTEST_EXPECT_GE(t, got * 4, (unsigned long)HZ);
}

struct probe {
	struct timer_list timer;
	unsigned int id;
	unsigned int cpu;		/* where it ran */
	bool hardirq;			/* in interrupt context, interrupts off */
	unsigned long runs;
	unsigned long *order;		/* shared sequence counter */
	unsigned long seq;		/* its place in that sequence */
	unsigned long ran_at;		/* jiffies when it ran */
};

static void probe_fn(struct timer_list *timer)
{
	struct probe *p = from_timer(p, timer, timer);

	p->cpu = arch_cpu_id();
	p->ran_at = jiffies;
	p->hardirq = in_hardirq() && irqs_disabled();
	p->seq = __atomic_fetch_add(p->order, 1, __ATOMIC_SEQ_CST);
	__atomic_fetch_add(&p->runs, 1, __ATOMIC_SEQ_CST);
}

/* Armed out of order, they run once each, by expiry, on this CPU. */
static void test_timers_in_order(struct ktest *t)
{
	static const unsigned int delay_ms[NR_ORDERED] = { 60, 20, 100, 8, 40, 80 };
	struct probe p[NR_ORDERED] = {};
	unsigned long order = 0, base = jiffies;

	for (unsigned int i = 0; i < NR_ORDERED; i++) {
		p[i].id = i;
		p[i].order = &order;
		timer_setup(&p[i].timer, probe_fn, 0);
		KTEST_EXPECT_EQ(t, mod_timer(&p[i].timer, base +
				msecs_to_jiffies(delay_ms[i])), 0);
		KTEST_EXPECT_TRUE(t, timer_pending(&p[i].timer));
	}
	KTEST_ASSERT_TRUE(t, wait_until(&order, NR_ORDERED, WAIT_S));
	spin_ns(50 * NSEC_PER_MSEC);	/* a second run would show now */
	for (unsigned int i = 0; i < NR_ORDERED; i++) {
		unsigned int earlier = 0;

		for (unsigned int k = 0; k < NR_ORDERED; k++)
			earlier += delay_ms[k] < delay_ms[i];
		KTEST_EXPECT_EQ(t, p[i].runs, 1UL);
		KTEST_EXPECT_EQ(t, p[i].seq, (unsigned long)earlier);
		KTEST_EXPECT_EQ(t, p[i].cpu, arch_cpu_id());
		KTEST_EXPECT_TRUE(t, p[i].hardirq);
		KTEST_EXPECT_FALSE(t, timer_pending(&p[i].timer));
	}
}

/*
 * mod_timer/del_timer return values; a deleted timer never runs. A timer
 * armed a few jiffies ahead is deleted with interrupts off from before
 * it was armed: on a busy host this vCPU or thread can be held off for
 * longer than that, and the timer would run first.
 */
static void test_mod_del(struct ktest *t)
{
	unsigned long order = 0, flags;
	struct probe p = { .order = &order };
	int mod, del;

	timer_setup(&p.timer, probe_fn, 0);
	KTEST_EXPECT_EQ(t, del_timer(&p.timer), 0);
	KTEST_EXPECT_EQ(t, mod_timer(&p.timer, jiffies + HZ), 0);
	KTEST_EXPECT_EQ(t, mod_timer(&p.timer, jiffies + 2), 1);	/* earlier */
	KTEST_ASSERT_TRUE(t, wait_until(&p.runs, 1, WAIT_S));
	local_irq_save(flags);
	mod = mod_timer(&p.timer, jiffies + 2);
	del = del_timer(&p.timer);
	local_irq_restore(flags);
	KTEST_EXPECT_EQ(t, mod, 0);
	KTEST_EXPECT_EQ(t, del, 1);
	KTEST_EXPECT_EQ(t, del_timer_sync(&p.timer), 0);
	spin_ns(40 * NSEC_PER_MSEC);
	KTEST_EXPECT_EQ(t, p.runs, 1UL);
}

/*
 * add_timer() arms for the timer's own expires; a second add_timer() of
 * the pending timer WARNs and leaves it armed as it was, to run once.
 * Both with interrupts off, so that the timer is still pending at the
 * second (see test_mod_del()).
 */
static void test_add_timer(struct ktest *t)
{
	unsigned long order = 0, expires, flags;
	struct probe p = { .order = &order };
	unsigned int warned;
	bool pending;

	timer_setup(&p.timer, probe_fn, 0);
	local_irq_save(flags);
	p.timer.expires = expires = jiffies + 3;
	add_timer(&p.timer);
	pending = timer_pending(&p.timer);
	ktest_capture_start(t, "WARNING:");
	add_timer(&p.timer);			/* a caller's bug */
	warned = ktest_capture_stop(t);
	local_irq_restore(flags);
	KTEST_EXPECT_TRUE(t, pending);
	KTEST_EXPECT_EQ(t, warned, 1U);
	KTEST_EXPECT_NOT_NULL(t, strstr(ktest_captured(t), "add_timer() of pending timer"));
	KTEST_ASSERT_TRUE(t, wait_until(&p.runs, 1, WAIT_S));
	KTEST_EXPECT_FALSE(t, time_before(p.ran_at, expires));
	KTEST_EXPECT_LT(t, p.ran_at - expires, (unsigned long)HZ / 2);
	spin_ns(40 * NSEC_PER_MSEC);
	KTEST_EXPECT_EQ(t, p.runs, 1UL);
}

/* A timer that re-arms itself from its function, five times. */
struct periodic {
	struct timer_list timer;
	unsigned long runs;
};

static void periodic_fn(struct timer_list *timer)
{
	struct periodic *p = from_timer(p, timer, timer);

	if (++p->runs < 5)
		mod_timer(&p->timer, jiffies + 1);
}

static void test_rearm_from_function(struct ktest *t)
{
	struct periodic p = {};

	timer_setup(&p.timer, periodic_fn, 0);
	mod_timer(&p.timer, jiffies + 1);
	KTEST_ASSERT_TRUE(t, wait_until(&p.runs, 5, WAIT_S));
	spin_ns(40 * NSEC_PER_MSEC);
	KTEST_EXPECT_EQ(t, p.runs, 5UL);
	KTEST_EXPECT_FALSE(t, timer_pending(&p.timer));
}

/* Arm a probe on another CPU (run there through arch_cpu_run()). */
static void arm_here(void *arg)
{
	struct probe *p = arg;

	timer_setup(&p->timer, probe_fn, 0);
	mod_timer(&p->timer, jiffies + 2);
}

static void test_timer_on_each_cpu(struct ktest *t)
{
	unsigned int nr = nr_cpu_ids, ran = 0;
	struct probe p[NR_CPUS] = {};
	unsigned long order = 0;

	for (unsigned int cpu = 1; cpu < nr; cpu++) {
		int err;

		p[cpu].order = &order;
		err = arch_cpu_run(cpu, arm_here, &p[cpu]);
		if (err == -ENOSYS)
			ktest_skip(t, "this arch cannot run work on another CPU (arch_cpu_run)");
		KTEST_ASSERT_EQ(t, err, 0);
		arch_cpu_join(cpu);
		ran++;
	}
	if (!ran)
		ktest_skip(t, "one CPU online");
	KTEST_ASSERT_TRUE(t, wait_until(&order, ran, WAIT_S));
	for (unsigned int cpu = 1; cpu < nr; cpu++) {
		KTEST_EXPECT_EQ(t, p[cpu].runs, 1UL);
		KTEST_EXPECT_EQ(t, p[cpu].cpu, cpu);
		KTEST_EXPECT_TRUE(t, p[cpu].hardirq);
	}
}

/* A function that runs ~100 ms on CPU 1 while CPU 0 deletes it. */
struct slow {
	struct timer_list timer;
	unsigned long started, done;
};

static void slow_fn(struct timer_list *timer)
{
	struct slow *s = from_timer(s, timer, timer);

	WRITE_ONCE(s->started, 1);
	spin_ns(100 * NSEC_PER_MSEC);
	WRITE_ONCE(s->done, 1);
}

static void arm_slow(void *arg)
{
	struct slow *s = arg;

	timer_setup(&s->timer, slow_fn, 0);
	mod_timer(&s->timer, jiffies + 1);
}

static void test_del_timer_sync_waits(struct ktest *t)
{
	struct slow s = {};
	int err;

	if (nr_cpu_ids < 2)
		ktest_skip(t, "one CPU online");
	err = arch_cpu_run(1, arm_slow, &s);
	if (err == -ENOSYS)
		ktest_skip(t, "this arch cannot run work on another CPU (arch_cpu_run)");
	KTEST_ASSERT_EQ(t, err, 0);
	arch_cpu_join(1);
	KTEST_ASSERT_TRUE(t, wait_until(&s.started, 1, WAIT_S));
	KTEST_EXPECT_EQ(t, del_timer_sync(&s.timer), 0);
	KTEST_EXPECT_EQ(t, READ_ONCE(s.done), 1UL);
}

/* del_timer_sync() from an interrupt handler, a timer with no function. */
static bool sync_done;

static void sync_in_irq(unsigned int vector)
{
	struct timer_list timer;

	timer_setup(&timer, NULL, 0);
	del_timer_sync(&timer);
	sync_done = true;
}

/* A timer whose function deletes itself synchronously (a misuse). */
struct self_sync {
	struct timer_list timer;
	unsigned long runs;
	int ret;
};

static void self_sync_fn(struct timer_list *timer)
{
	struct self_sync *s = from_timer(s, timer, timer);

	s->ret = del_timer_sync(timer);
	__atomic_store_n(&s->runs, 1, __ATOMIC_RELEASE);
}

static void test_misuse_warns(struct ktest *t)
{
	struct self_sync self = { .ret = -1 };
	struct timer_list timer;

	timer_setup(&timer, NULL, 0);
	ktest_capture_start(t, "WARNING:");
	KTEST_EXPECT_EQ(t, mod_timer(&timer, jiffies + 1), 0);
	KTEST_EXPECT_FALSE(t, timer_pending(&timer));
	KTEST_ASSERT_EQ(t, set_irq_handler(0x42, sync_in_irq), 0);
	apic_send_IPI_self(0x42);
	set_irq_handler(0x42, NULL);
	timer_setup(&self.timer, self_sync_fn, 0);
	mod_timer(&self.timer, jiffies + 1);
	KTEST_EXPECT_TRUE(t, wait_until(&self.runs, 1, WAIT_S));
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 3U);
	KTEST_EXPECT_TRUE(t, sync_done);
	KTEST_EXPECT_EQ(t, self.ret, 0);
	KTEST_EXPECT_FALSE(t, timer_pending(&self.timer));
}

/*
 * Tickless idle. An online CPU other than this one, idle (no test gives
 * it work here), whose tick stops within WAIT_S; else the case skips.
 */
#define IDLE_MS		300
#define IDLE_TRIES	5	/* a cache_reap pass (every 2 s) may wake it */

static bool wait_tick_stopped(unsigned int cpu)
{
	u64 end = ktime_get_ns() + WAIT_S * NSEC_PER_SEC;

	while (!tick_stopped(cpu)) {
		if (ktime_get_ns() > end)
			return false;
		arch_cpu_relax();
	}
	return true;
}

static unsigned int idle_cpu(struct ktest *t)
{
	unsigned int cpu;

	if (!tick_nohz_enabled())
		ktest_skip(t, "booted with nohz=off");
	for_each_possible_cpu(cpu)
		if (cpu != arch_cpu_id() && cpu_online(cpu))
			return cpu;
	ktest_skip(t, "one CPU online");
}

/* In a call-function interrupt on the idle CPU: is its tick back? */
static void note_tick(void *arg)
{
	bool *stopped = arg;

	*stopped = tick_stopped(arch_cpu_id());
}

/*
 * An idle CPU takes a few ticks at most in IDLE_MS (HZ would give 75);
 * an interrupt restarts its tick before the handler runs, and it stops
 * again once the CPU is idle again.
 */
static void test_idle_cpu_stops_tick(struct ktest *t)
{
	unsigned int cpu = idle_cpu(t);
	unsigned long ticks, stops;
	bool stopped = true;

	KTEST_ASSERT_TRUE(t, wait_tick_stopped(cpu));
	ticks = tick_count(cpu);
	spin_ns(IDLE_MS * NSEC_PER_MSEC);
	ticks = tick_count(cpu) - ticks;
	ktest_info(t, "CPU %u idle: %lu ticks in %u ms (%u at HZ)", cpu, ticks,
		   IDLE_MS, IDLE_MS * HZ / 1000);
	KTEST_EXPECT_LE(t, ticks, 4UL);
	stops = tick_idle_stops(cpu);
	KTEST_ASSERT_EQ(t, smp_call_function_single(cpu, note_tick, &stopped,
						    true), 0);
	KTEST_EXPECT_FALSE(t, stopped);
	KTEST_EXPECT_TRUE(t, wait_tick_stopped(cpu));
	KTEST_EXPECT_GT(t, tick_idle_stops(cpu), stops);
}

/* Armed in an interrupt on the idle CPU: it must wake it on time. */
static void arm_in_ipi(void *arg)
{
	struct probe *p = arg;

	timer_setup(&p->timer, probe_fn, 0);
	mod_timer(&p->timer, jiffies + HZ);
}

static void test_timer_wakes_idle_cpu(struct ktest *t)
{
	unsigned int cpu = idle_cpu(t);
	unsigned long order = 0, late;
	struct probe p = { .order = &order };

	KTEST_ASSERT_EQ(t, smp_call_function_single(cpu, arm_in_ipi, &p, true),
			0);
	/* It idles with the timer pending, its tick stopped... */
	KTEST_ASSERT_TRUE(t, wait_tick_stopped(cpu));
	KTEST_EXPECT_EQ(t, READ_ONCE(p.runs), 0UL);
	/* ... and wakes for it: never early, once, there, in hardirq. */
	KTEST_ASSERT_TRUE(t, wait_until(&p.runs, 1, WAIT_S));
	late = p.ran_at - p.timer.expires;
	ktest_info(t, "ran %lu jiffies after its expiry", late);
	KTEST_EXPECT_TRUE(t, time_after_eq(p.ran_at, p.timer.expires));
	KTEST_EXPECT_LE(t, late, (unsigned long)HZ);
	KTEST_EXPECT_EQ(t, p.cpu, cpu);
	KTEST_EXPECT_TRUE(t, p.hardirq);
	spin_ns(50 * NSEC_PER_MSEC);
	KTEST_EXPECT_EQ(t, p.runs, 1UL);
}

/*
 * A CPU whose tick stayed stopped through a whole synchronize_rcu()
 * (the same count of stops before and after, stopped at both ends) is
 * out of RCU's online mask and the grace period ended without it.
 */
static void test_rcu_ignores_idle_cpu(struct ktest *t)
{
	unsigned int cpu = idle_cpu(t);

	for (unsigned int i = 0; i < IDLE_TRIES; i++) {
		struct rcu_stats before, after;
		unsigned long stops;

		KTEST_ASSERT_TRUE(t, wait_tick_stopped(cpu));
		stops = tick_idle_stops(cpu);
		rcu_get_stats(&before);
		synchronize_rcu();
		rcu_get_stats(&after);
		if (!tick_stopped(cpu) || tick_idle_stops(cpu) != stops)
			continue;	/* it woke meanwhile: again */
		ktest_info(t, "grace periods %lu..%lu with CPU %u asleep",
			   before.completed, after.completed, cpu);
		KTEST_EXPECT_FALSE(t, cpumask_test_cpu(cpu, &before.online));
		KTEST_EXPECT_FALSE(t, cpumask_test_cpu(cpu, &after.online));
		KTEST_EXPECT_GT(t, after.completed, before.completed);
		return;
	}
	KTEST_FAIL(t, "CPU %u woke during each of %u grace periods", cpu,
		   IDLE_TRIES);
}

static const struct ktest_case time_cases[] = {
	KTEST_CASE(test_tick_rate),
	KTEST_CASE(test_timers_in_order),
	KTEST_CASE(test_mod_del),
	KTEST_CASE(test_add_timer),
	KTEST_CASE(test_rearm_from_function),
	KTEST_CASE(test_timer_on_each_cpu),
	KTEST_CASE(test_del_timer_sync_waits),
	KTEST_CASE(test_misuse_warns),
	KTEST_CASE(test_idle_cpu_stops_tick),
	KTEST_CASE(test_timer_wakes_idle_cpu),
	KTEST_CASE(test_rcu_ignores_idle_cpu),
	{}
};
KTEST_SUITE(time, time_cases);

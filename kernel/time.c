// SPDX-License-Identifier: GPL-2.0
/*
 * The tick, jiffies and timers (kernel/time.h), after Linux's
 * kernel/time/tick-common.c and kernel/time/timer.c, simplified.
 *
 * The tick. The arch calls tick_handle_periodic() HZ times a second on
 * every online CPU, in hardirq context. It counts the tick for its CPU,
 * moves jiffies forward to what the monotonic clock says (a compare-and-
 * swap, so any CPU may do it and a swallowed tick loses nothing), then
 * runs this CPU's expired timers.
 *
 * Timers. Each CPU has a timer base: a list of pending timers sorted by
 * expiry and a lock taken with interrupts off. A timer belongs to the
 * base named by timer->cpu; mod_timer() moves it to the arming CPU's
 * base, as a timer runs where it was armed (unless its function runs on
 * the old base at that moment: then it stays, so that del_timer_sync()
 * watches the right base). Linux keeps a hashed timer
 * wheel so that arming is O(1) with thousands of timers; a sorted list
 * is O(n) to arm and O(1) to expire, which is what a handful of kernel
 * timers need. The function runs with the base unlocked, interrupts off
 * (hardirq; Linux runs it from the timer softirq, interrupts on), and
 * base->running_timer set, which del_timer_sync() waits on.
 *
 * Tickless idle (Linux's NO_HZ_IDLE, kernel/time/tick-sched.c, reduced
 * to what an idle loop needs). Just before an idle loop halts,
 * tick_nohz_idle_enter() stops the periodic tick unless something needs
 * it: RCU callbacks queued on this CPU (rcu_needs_cpu()), or a timer due
 * within a tick. It arms one interrupt for the earliest pending timer
 * of the CPU's base (none if the base is empty), and the CPU leaves
 * RCU's grace periods (rcu_idle_enter(): an idle loop holds no reader).
 * Nothing runs on the CPU until its next interrupt, and that
 * interrupt's first step, before any handler (tick_nohz_irq_enter(),
 * from handle_irq_vector()), undoes it all: jiffies caught up with the
 * clock, RCU rejoined, the periodic tick restarted. So every handler,
 * timer function and queued work runs on a ticking CPU that RCU waits
 * for, and whatever timer they arm is seen by the idle loop's next
 * tick_nohz_idle_enter(). A CPU that is not in an idle loop never stops
 * its tick (Linux's NO_HZ_FULL is not done). jiffies moves on while
 * some CPU ticks; one coming back catches it up. "nohz=off" turns this
 * off.
 *
 * Lock order: a timer base's lock is taken alone; a timer function may
 * take any lock a hardirq handler may (irq-safe ones) and may re-arm its
 * own timer.
 */
#include "kernel/time.h"
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/kernel.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/rcupdate.h"
#include "kernel/shell.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "lib/string.h"
#include "arch/arch.h"

#define TIMER_SYNC_TIMEOUT_S	20	/* TCG with 4 vCPUs on 2 host cores */
#define TIMER_MIGRATING		NR_CPUS	/* timer->cpu while it moves */

struct timer_base {
	spinlock_t lock;
	struct list_head pending;	/* sorted by expires, earliest first */
	struct timer_list *running_timer;
	unsigned long ticks;		/* tick interrupts taken */
	unsigned long idle_stops;	/* times the tick stopped in idle */
	bool tick_stopped;		/* tickless idle now */
	bool ready;
} __aligned(64);

unsigned long jiffies_counter;
static struct timer_base timer_bases[NR_CPUS];
static bool nohz_enabled = true;

static int nohz_setup(char *val)
{
	if (val && !strcmp(val, "on"))
		nohz_enabled = true;
	else if (val && !strcmp(val, "off"))
		nohz_enabled = false;
	else
		return -EINVAL;
	return 0;
}
kernel_param("nohz", nohz_setup);

u64 ktime_get_ns(void)
{
	return arch_clock_ns();
}

unsigned long tick_count(unsigned int cpu)
{
	BUG_ON(cpu >= NR_CPUS);
	return READ_ONCE(timer_bases[cpu].ticks);
}

static struct timer_base *get_base(unsigned int cpu)
{
	struct timer_base *base = &timer_bases[cpu];

	BUG_ON(cpu >= NR_CPUS || !base->ready);
	return base;
}

/* Before interrupts are on (start_kernel()): every CPU's timer base. */
void init_timers(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct timer_base *base = &timer_bases[cpu];

		spin_lock_init(&base->lock);
		INIT_LIST_HEAD(&base->pending);
		base->ready = true;
	}
}

/* Lock the base timer is on now (it may move while we look). */
static struct timer_base *lock_timer_base(struct timer_list *timer,
					  unsigned long *flags)
{
	for (;;) {
		unsigned int cpu = READ_ONCE(timer->cpu);
		struct timer_base *base;

		if (cpu == TIMER_MIGRATING) {
			arch_cpu_relax();
			continue;
		}
		base = get_base(cpu);
		spin_lock_irqsave(&base->lock, *flags);
		if (READ_ONCE(timer->cpu) == cpu)
			return base;
		spin_unlock_irqrestore(&base->lock, *flags);
	}
}

static void detach_timer(struct timer_base *base, struct timer_list *timer)
{
	lockdep_assert_held(&base->lock);
	BUG_ON(!timer->pending);
	list_del_init(&timer->entry);
	WRITE_ONCE(timer->pending, false);
}

static void enqueue_timer(struct timer_base *base, struct timer_list *timer)
{
	struct list_head *pos = &base->pending;
	struct timer_list *t;

	lockdep_assert_held(&base->lock);
	list_for_each_entry(t, &base->pending, entry) {
		if (time_after(t->expires, timer->expires)) {
			pos = &t->entry;
			break;
		}
	}
	list_add_tail(&timer->entry, pos);	/* before the later one */
	WRITE_ONCE(timer->pending, true);
}

void timer_setup(struct timer_list *timer,
		 void (*function)(struct timer_list *), unsigned int flags)
{
	WARN_ON(flags);
	INIT_LIST_HEAD(&timer->entry);
	timer->function = function;
	timer->expires = 0;
	timer->cpu = arch_cpu_id();
	timer->pending = false;
}

int mod_timer(struct timer_list *timer, unsigned long expires)
{
	unsigned int this_cpu = arch_cpu_id();
	struct timer_base *base;
	unsigned long flags;
	int was_pending;

	if (WARN_ON(!timer->function))
		return 0;
	base = lock_timer_base(timer, &flags);
	was_pending = timer->pending;
	if (was_pending)
		detach_timer(base, timer);
	/*
	 * Move it to this CPU, unless its function runs on its base right
	 * now (del_timer_sync() watches that base). In transit it belongs
	 * to no base: lock_timer_base() waits.
	 */
	if (timer->cpu != this_cpu && base->running_timer != timer) {
		WRITE_ONCE(timer->cpu, TIMER_MIGRATING);
		spin_unlock(&base->lock);
		base = get_base(this_cpu);	/* interrupts off: still here */
		spin_lock(&base->lock);
		WRITE_ONCE(timer->cpu, this_cpu);
	}
	timer->expires = expires;
	enqueue_timer(base, timer);
	spin_unlock_irqrestore(&base->lock, flags);
	return was_pending;
}

void add_timer(struct timer_list *timer)
{
	if (WARN(timer_pending(timer),
		 "add_timer() of pending timer %pS: left armed as it was\n",
		 timer->function))
		return;
	mod_timer(timer, timer->expires);
}

int del_timer(struct timer_list *timer)
{
	struct timer_base *base;
	unsigned long flags;
	int was_pending;

	base = lock_timer_base(timer, &flags);
	was_pending = timer->pending;
	if (was_pending)
		detach_timer(base, timer);
	spin_unlock_irqrestore(&base->lock, flags);
	return was_pending;
}

int del_timer_sync(struct timer_list *timer)
{
	u64 deadline = ktime_get_ns() + TIMER_SYNC_TIMEOUT_S * NSEC_PER_SEC;
	int was_pending = 0;

	/*
	 * From an interrupt handler (the timer's own function, say) it
	 * could wait for itself: say so, and only delete.
	 */
	if (WARN(in_hardirq(), "del_timer_sync() of %pS from interrupt context\n",
		 timer->function))
		return del_timer(timer);
	for (;;) {
		struct timer_base *base;
		unsigned long flags;
		bool running;

		base = lock_timer_base(timer, &flags);
		if (timer->pending) {
			detach_timer(base, timer);
			was_pending = 1;
		}
		running = base->running_timer == timer;
		spin_unlock_irqrestore(&base->lock, flags);
		if (!running)
			return was_pending;
		if (ktime_get_ns() > deadline)
			panic("timer: %pS still running on CPU %u after %u s (del_timer_sync)",
			      timer->function, READ_ONCE(timer->cpu),
			      TIMER_SYNC_TIMEOUT_S);
		arch_cpu_relax();
	}
}

/* jiffies up to the clock; any CPU may, the largest value wins. */
static void update_jiffies(void)
{
	unsigned long now = (unsigned long)(ktime_get_ns() / TICK_NSEC);
	unsigned long old = jiffies;

	while (time_after(now, old) &&
	       !__atomic_compare_exchange_n(&jiffies_counter, &old, now, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static void run_timers(struct timer_base *base)
{
	spin_lock(&base->lock);
	while (!list_empty(&base->pending)) {
		struct timer_list *timer = list_first_entry(&base->pending,
						struct timer_list, entry);
		void (*fn)(struct timer_list *) = timer->function;

		if (time_before(jiffies, timer->expires))
			break;
		detach_timer(base, timer);
		base->running_timer = timer;
		spin_unlock(&base->lock);
		fn(timer);
		spin_lock(&base->lock);
		base->running_timer = NULL;
	}
	spin_unlock(&base->lock);
}

void tick_handle_periodic(void)
{
	struct timer_base *base = get_base(arch_cpu_id());

	lockdep_assert_irqs_disabled();
	WRITE_ONCE(base->ticks, base->ticks + 1);
	update_jiffies();
	run_timers(base);
	rcu_sched_clock_irq();
}

/* --- tickless idle -------------------------------------------------------- */

bool tick_nohz_enabled(void)
{
	return READ_ONCE(nohz_enabled);
}

bool tick_stopped(unsigned int cpu)
{
	BUG_ON(cpu >= NR_CPUS);
	return __atomic_load_n(&timer_bases[cpu].tick_stopped, __ATOMIC_ACQUIRE);
}

unsigned long tick_idle_stops(unsigned int cpu)
{
	BUG_ON(cpu >= NR_CPUS);
	return READ_ONCE(timer_bases[cpu].idle_stops);
}

/*
 * When the earliest timer of base is due, in nanoseconds from now in
 * *delta (at least 1); false if the base has none.
 */
static bool next_timer_delta(struct timer_base *base, u64 *delta)
{
	unsigned long expires;
	u64 now, at;

	spin_lock(&base->lock);
	if (list_empty(&base->pending)) {
		spin_unlock(&base->lock);
		return false;
	}
	expires = list_first_entry(&base->pending, struct timer_list,
				   entry)->expires;
	spin_unlock(&base->lock);
	now = ktime_get_ns();
	at = (u64)expires * TICK_NSEC;
	*delta = at > now ? at - now : 1;
	return true;
}

void tick_nohz_idle_enter(void)
{
	struct timer_base *base = &timer_bases[arch_cpu_id()];
	u64 delta = 0;

	lockdep_assert_irqs_disabled();
	if (!base->ready || base->tick_stopped || !tick_nohz_enabled() ||
	    rcu_needs_cpu())
		return;
	if (next_timer_delta(base, &delta) && delta <= TICK_NSEC)
		return;		/* the tick serves it as well */
	if (!arch_tick_stop(delta))
		return;
	rcu_idle_enter();
	/* Counted first: whoever sees it stopped sees this stop counted. */
	WRITE_ONCE(base->idle_stops, base->idle_stops + 1);
	__atomic_store_n(&base->tick_stopped, true, __ATOMIC_RELEASE);
}

void tick_nohz_idle_exit(void)
{
	unsigned int cpu = arch_cpu_id();
	struct timer_base *base = &timer_bases[cpu];

	lockdep_assert_irqs_disabled();
	if (likely(!base->tick_stopped))
		return;
	WRITE_ONCE(base->tick_stopped, false);
	update_jiffies();
	rcu_idle_exit();
	arch_tick_resume();
}

void tick_nohz_irq_enter(void)
{
	tick_nohz_idle_exit();
}

static void tick_start_ipi(void *info)
{
	arch_tick_start();
}

/* After cross-CPU calls work: every other online CPU starts its tick. */
void time_init(void)
{
	int err = smp_call_function(tick_start_ipi, NULL, true);

	if (err)
		pr_err("time: the other CPUs' ticks not started (%d)\n", err);
}

/* Shell: "uptime", the clock, jiffies and each CPU's ticks. */
static int cmd_uptime(int argc, char **argv)
{
	unsigned int cpu;
	u64 ns = ktime_get_ns();

	console_printf("up %llu.%02llu s, jiffies %lu (HZ %u)\n",
	       (unsigned long long)(ns / NSEC_PER_SEC),
	       (unsigned long long)(ns % NSEC_PER_SEC / 10000000), jiffies, HZ);
	for_each_possible_cpu(cpu)
		console_printf("CPU%u: %lu ticks, %lu idle stops%s\n", cpu,
			       tick_count(cpu), tick_idle_stops(cpu),
			       tick_stopped(cpu) ? " (tick stopped)" : "");
	return 0;
}
SHELL_CMD("uptime", cmd_uptime, "time since boot, jiffies, ticks per CPU");

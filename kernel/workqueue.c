// SPDX-License-Identifier: GPL-2.0
/*
 * Delayed per-CPU work (kernel/workqueue.h): a list of queued work per
 * CPU, run by that CPU on its way out of an interrupt.
 *
 * State of a work item, in work->state:
 *   PENDING    queued on a CPU's list, or its delay timer is armed (or
 *              between the two). Set by whoever schedules it (a
 *              compare-and-swap, so one of two racing callers wins);
 *              cleared by the CPU that runs it, just before the
 *              function, so the function may schedule it again.
 *   CANCELING  cancel_delayed_work_sync() runs: scheduling fails.
 *
 * Each CPU's pool has a lock taken with interrupts off (innermost but
 * for logbuf_lock: nothing is taken under it) guarding its list and
 * current_work, the item whose function runs there now. An item leaves
 * the list and becomes current_work under the lock in one step, so a
 * cancel that finds it neither queued nor current, its timer off and
 * PENDING clear, knows the function is not running and cannot start.
 *
 * Running: only at a safe point (kernel/preempt.h): interrupts on in
 * the interrupted context, no handler below (hardirq count 0), no
 * spinlock held nor any other preempt_disable() section, no RCU reader,
 * and no work function already running on this CPU (pool->running).
 * Two ways in: an interrupt's exit (workqueue_irq_exit), and, for work
 * that exit found blocked, the end of the blocking section
 * (preempt_schedule, from preempt_enable() or rcu_read_unlock()).
 * Queueing on this CPU raises RESCHEDULE_VECTOR here too, so work queued
 * with interrupts off (or from the idle loop) runs as soon as they are
 * on again. Interrupts are on while a function runs; the lock validator
 * checks that this CPU holds no lock then.
 */
#include "kernel/workqueue.h"
#include "kernel/bug.h"
#include "kernel/irq.h"
#include "kernel/kernel.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "kernel/rcupdate.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "arch/arch.h"

#define WORK_STRUCT_PENDING	1UL
#define WORK_STRUCT_CANCELING	2UL
#define WORK_CANCEL_TIMEOUT_S	20	/* TCG, 4 vCPUs on 2 host cores */

struct worker_pool {
	spinlock_t lock;
	struct list_head worklist;
	struct work_struct *current_work;
	u64 blocked_since;	/* ns: first found blocked; 0: not blocked */
	unsigned long blocked_site;	/* the section's end that ran it */
	u64 max_blocked_ns;	/* the longest wait, and where it ended */
	unsigned long max_blocked_site;
	bool running;		/* in the run loop (no nesting) */
	bool ready;
} __aligned(64);

static struct worker_pool pools[NR_CPUS];
struct preempt_cpu preempt_cpus[NR_CPUS];
static bool self_ipi_ready;	/* arch_irq_init() ran: RESCHEDULE_VECTOR works */

static struct worker_pool *get_pool(unsigned int cpu)
{
	struct worker_pool *pool = &pools[cpu];

	BUG_ON(cpu >= NR_CPUS);
	if (unlikely(!__atomic_load_n(&pool->ready, __ATOMIC_ACQUIRE))) {
		static DEFINE_SPINLOCK(init_lock);
		unsigned long flags;

		spin_lock_irqsave(&init_lock, flags);
		if (!pool->ready) {
			spin_lock_init(&pool->lock);
			INIT_LIST_HEAD(&pool->worklist);
			__atomic_store_n(&pool->ready, true, __ATOMIC_RELEASE);
		}
		spin_unlock_irqrestore(&init_lock, flags);
	}
	return pool;
}

void __init_work(struct work_struct *work, work_func_t func)
{
	INIT_LIST_HEAD(&work->entry);
	work->func = func;
	work->state = 0;
	work->cpu = arch_cpu_id();
}

static void delayed_work_timer_fn(struct timer_list *timer);

void __init_delayed_work(struct delayed_work *dwork, work_func_t func)
{
	__init_work(&dwork->work, func);
	timer_setup(&dwork->timer, delayed_work_timer_fn, 0);
	dwork->cpu = arch_cpu_id();
}

/* PENDING from 0, unless a cancel runs or it is pending already. */
static bool claim_pending(struct work_struct *work)
{
	unsigned long old = 0;

	return __atomic_compare_exchange_n(&work->state, &old,
					   WORK_STRUCT_PENDING, false,
					   __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

static void clear_pending(struct work_struct *work)
{
	__atomic_fetch_and(&work->state, ~WORK_STRUCT_PENDING,
			   __ATOMIC_RELEASE);
}

/* A CPU that can run work: this one, or an online one (it ticks). */
static bool cpu_takes_work(unsigned int cpu)
{
	return cpu < nr_cpu_ids &&
	       (cpu == arch_cpu_id() || cpu_online(cpu));
}

/*
 * Put the (PENDING) work on cpu's list and interrupt that CPU: the work
 * runs on the interrupt's way out, or at the end of what blocks it
 * there. Another CPU may be idle with its tick stopped (kernel/time.c):
 * the interrupt wakes it. This CPU raises the interrupt on itself unless
 * it is in a handler already, whose exit looks at the list anyway.
 */
static void insert_work(unsigned int cpu, struct work_struct *work)
{
	struct worker_pool *pool = get_pool(cpu);
	unsigned long flags;

	spin_lock_irqsave(&pool->lock, flags);
	WRITE_ONCE(work->cpu, cpu);
	list_add_tail(&work->entry, &pool->worklist);
	spin_unlock_irqrestore(&pool->lock, flags);
	if (cpu != arch_cpu_id())
		arch_send_reschedule_ipi(cpu);
	else if (!in_hardirq() && READ_ONCE(self_ipi_ready))
		apic_send_IPI_self(RESCHEDULE_VECTOR);
}

bool schedule_work_on(unsigned int cpu, struct work_struct *work)
{
	if (WARN(!cpu_takes_work(cpu), "workqueue: %pS queued on CPU %u, which runs no work\n",
		 work->func, cpu))
		return false;
	if (!claim_pending(work))
		return false;
	insert_work(cpu, work);
	return true;
}

/* The delay is over (hardirq, the CPU that scheduled it): queue it. */
static void delayed_work_timer_fn(struct timer_list *timer)
{
	struct delayed_work *dwork = from_timer(dwork, timer, timer);

	insert_work(dwork->cpu, &dwork->work);
}

bool schedule_delayed_work_on(unsigned int cpu, struct delayed_work *dwork,
			      unsigned long delay)
{
	struct work_struct *work = &dwork->work;
	unsigned long flags;

	if (WARN(!cpu_takes_work(cpu), "workqueue: %pS queued on CPU %u, which runs no work\n",
		 work->func, cpu))
		return false;
	/* Claim and arm with interrupts off: a short window for a cancel. */
	local_irq_save(flags);
	if (!claim_pending(work)) {
		local_irq_restore(flags);
		return false;
	}
	dwork->cpu = cpu;
	if (!delay)
		insert_work(cpu, work);
	else
		mod_timer(&dwork->timer, jiffies + delay);
	local_irq_restore(flags);
	return true;
}

bool delayed_work_pending(const struct delayed_work *dwork)
{
	return __atomic_load_n(&dwork->work.state, __ATOMIC_ACQUIRE) &
	       WORK_STRUCT_PENDING;
}

/* Take work off its CPU's list if it is there; is it running there? */
static bool dequeue_work(struct work_struct *work, bool *running)
{
	struct worker_pool *pool = get_pool(READ_ONCE(work->cpu));
	bool queued = false;
	unsigned long flags;

	spin_lock_irqsave(&pool->lock, flags);
	if (pool == &pools[work->cpu] && !list_empty(&work->entry)) {
		list_del_init(&work->entry);
		queued = true;
	}
	*running = pool->current_work == work;
	spin_unlock_irqrestore(&pool->lock, flags);
	return queued;
}

bool cancel_delayed_work_sync(struct delayed_work *dwork)
{
	u64 deadline = ktime_get_ns() + WORK_CANCEL_TIMEOUT_S * NSEC_PER_SEC;
	struct work_struct *work = &dwork->work;
	bool was_pending = false, self;

	self = in_workqueue() &&
	       READ_ONCE(pools[arch_cpu_id()].current_work) == work;
	if (WARN(in_interrupt() || self,
		 "cancel_delayed_work_sync() of %pS from %s: not waiting\n",
		 work->func, self ? "the work itself" : "interrupt context")) {
		bool running;

		if (del_timer(&dwork->timer) | dequeue_work(work, &running)) {
			clear_pending(work);
			return true;
		}
		return false;
	}
	__atomic_fetch_or(&work->state, WORK_STRUCT_CANCELING, __ATOMIC_ACQ_REL);
	for (;;) {
		bool running;

		/* After del_timer_sync() its function has queued it, if at all. */
		if (del_timer_sync(&dwork->timer) | dequeue_work(work, &running)) {
			clear_pending(work);
			was_pending = true;
		}
		/* Not running, and not between claim and arm on some CPU. */
		if (!running && !delayed_work_pending(dwork))
			break;
		if (ktime_get_ns() > deadline)
			panic("workqueue: %pS still %s on CPU %u after %u s (cancel_delayed_work_sync)",
			      work->func, running ? "running" : "pending",
			      READ_ONCE(work->cpu), WORK_CANCEL_TIMEOUT_S);
		arch_cpu_relax();
	}
	__atomic_fetch_and(&work->state, ~WORK_STRUCT_CANCELING,
			   __ATOMIC_RELEASE);
	return was_pending;
}

/* Run the queued work; interrupts off on entry and on return. */
static void run_worklist(struct worker_pool *pool)
{
	spin_lock(&pool->lock);
	while (!list_empty(&pool->worklist)) {
		struct work_struct *work = list_first_entry(&pool->worklist,
						struct work_struct, entry);
		work_func_t fn = work->func;

		list_del_init(&work->entry);
		pool->current_work = work;
		clear_pending(work);
		spin_unlock(&pool->lock);

		WARN_ONCE(IS_ENABLED(CONFIG_PROVE_LOCKING) && lockdep_depth(),
			  "workqueue: %pS would run with %u lock(s) held\n",
			  fn, lockdep_depth());
		local_irq_enable();
		fn(work);
		local_irq_disable();
		WARN_ONCE(in_hardirq() || preempt_count() || rcu_read_lock_held(),
			  "workqueue: %pS returned in hardirq context, with preemption off or in an RCU reader\n",
			  fn);

		spin_lock(&pool->lock);
		pool->current_work = NULL;
	}
	spin_unlock(&pool->lock);
}

/*
 * Nothing blocks work on this CPU any more (interrupts off); ran: the
 * work that waited runs now (not: it was cancelled meanwhile).
 */
static void clear_blocked(struct worker_pool *pool, unsigned int cpu,
			  bool ran)
{
	u64 waited;

	WRITE_ONCE(preempt_cpus[cpu].need_resched, false);
	WRITE_ONCE(rcu_readers[cpu].need_work, false);
	if (!pool->blocked_since)
		return;
	waited = ktime_get_ns() - pool->blocked_since;
	if (ran && waited > pool->max_blocked_ns) {
		WRITE_ONCE(pool->max_blocked_ns, waited);
		WRITE_ONCE(pool->max_blocked_site, pool->blocked_site);
	}
	pool->blocked_since = 0;
	pool->blocked_site = 0;
}

/*
 * Run this CPU's queued work if this is a safe point (kernel/preempt.h),
 * else mark it blocked, for the end of the section to run it. Interrupts
 * off, and on in the context the caller returns to.
 */
static void run_pending(struct worker_pool *pool, unsigned int cpu)
{
	if (in_hardirq() || pool->running ||
	    !__atomic_load_n(&pool->ready, __ATOMIC_ACQUIRE))
		return;
	if (list_empty(&pool->worklist)) {
		clear_blocked(pool, cpu, false);
		return;
	}
	if (preempt_count() || rcu_read_lock_held()) {
		/* The end of each section that holds it back looks. */
		if (!pool->blocked_since)
			pool->blocked_since = ktime_get_ns();
		if (preempt_count())
			WRITE_ONCE(preempt_cpus[cpu].need_resched, true);
		if (rcu_read_lock_held())
			WRITE_ONCE(rcu_readers[cpu].need_work, true);
		return;
	}
	clear_blocked(pool, cpu, true);
	pool->running = true;
	run_worklist(pool);
	pool->running = false;
	clear_blocked(pool, cpu, true);	/* blocked inside a function: ran since */
}

void workqueue_irq_exit(void)
{
	unsigned int cpu = arch_cpu_id();
	struct worker_pool *pool = &pools[cpu];
	unsigned long flags;

	/* Cheap way out first: this runs after every interrupt. */
	if (!__atomic_load_n(&pool->ready, __ATOMIC_ACQUIRE) ||
	    list_empty(&pool->worklist) || in_hardirq())
		return;
	local_irq_save(flags);
	run_pending(pool, cpu);
	local_irq_restore(flags);
}

void preempt_schedule(unsigned long site)
{
	unsigned int cpu = arch_cpu_id();
	unsigned long flags;

	if (in_hardirq())
		return;		/* the handler's exit looks at the list */
	pools[cpu].blocked_site = site;
	if (irqs_disabled()) {
		/* Run it on the way out of an interrupt once they are on. */
		WRITE_ONCE(preempt_cpus[cpu].need_resched, false);
		WRITE_ONCE(rcu_readers[cpu].need_work, false);
		if (READ_ONCE(self_ipi_ready))
			apic_send_IPI_self(RESCHEDULE_VECTOR);
		return;
	}
	local_irq_save(flags);
	run_pending(&pools[cpu], cpu);
	local_irq_restore(flags);
}

void __preempt_count_underflow(unsigned long caller)
{
	__warn(__FILE__, __LINE__, caller,
	       "preempt_enable() without preempt_disable() on CPU %u\n",
	       arch_cpu_id());
}

void workqueue_init(void)
{
	WRITE_ONCE(self_ipi_ready, true);
}

u64 workqueue_max_blocked_ns(unsigned long *site)
{
	unsigned int cpu;
	u64 max = 0;

	*site = 0;
	for_each_possible_cpu(cpu) {
		u64 ns = READ_ONCE(pools[cpu].max_blocked_ns);

		if (ns > max) {
			max = ns;
			*site = READ_ONCE(pools[cpu].max_blocked_site);
		}
	}
	return max;
}

bool in_workqueue(void)
{
	return READ_ONCE(pools[arch_cpu_id()].running);
}

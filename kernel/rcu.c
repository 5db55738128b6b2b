// SPDX-License-Identifier: GPL-2.0
/*
 * Classic RCU (kernel/rcupdate.h): non-preemptible, one global state,
 * after the design of Linux's old rcuclassic.c; written afresh.
 *
 * Theory statement.
 *
 * A reader is a CPU between rcu_read_lock() and the matching
 * rcu_read_unlock(): rcu_readers[cpu].nesting > 0. Nothing here can
 * preempt or migrate a reader, so a CPU with nesting 0 is outside every
 * reader it ever started: that is a quiescent state (QS). A CPU with
 * interrupts off, outside its idle loop, is a reader too (Linux's
 * RCU-sched, folded into RCU since 4.20): none of the QS sources below
 * reports for it meanwhile, so a lockless walk done with interrupts off
 * (cache_refill()'s look at a cache's shared array) needs no
 * rcu_read_lock(). A grace period
 * (GP) is over once every CPU that takes part has passed a QS after the
 * GP began; then no reader that was running when it began still runs,
 * and whatever was unpublished before the GP began may be freed.
 *
 * States. rcu_state holds gp_seq (the number of the last GP started),
 * completed (the last one ended: a GP runs while gp_seq != completed),
 * qsmask (the CPUs the running GP still waits for), online (the CPUs
 * that take part) and gp_wanted (the highest GP number anyone needs).
 * All change under rcu_state.lock, taken with interrupts off; gp_seq and
 * completed are also read without it. A GP starts (start_gp) with
 * qsmask = online; each CPU clears its own bit when it passes a QS
 * (rcu_qs); the CPU that clears the last bit ends the GP (completed =
 * gp_seq) and starts the next one if gp_wanted asks for it.
 *
 * Where QSs come from, all on the CPU itself (no CPU samples another's
 * nesting: without a full barrier in rcu_read_lock() a remote read could
 * see 0 while the reader already loads the pointer):
 *   - the tick (rcu_sched_clock_irq, hardirq): nesting 0 means the code
 *     the tick interrupted is in no reader (an interrupt handler's
 *     readers are balanced before it returns);
 *   - the idle loop (rcu_idle), before the CPU halts: x86's AP idle
 *     loop, the host's idle CPU threads, no reader there;
 *   - a CPU waiting in synchronize_rcu()/rcu_barrier(), never inside a
 *     reader (checked);
 *   - the outermost rcu_read_unlock(), with interrupts on, of a reader
 *     the tick found while the GP waited for its CPU (the tick sets
 *     rcu_readers[].need_qs):
 *     without it a CPU that is nearly always in some reader, as a
 *     lookup loop is, would pass a QS only when a tick hit the gap
 *     between two readers (Linux's classic RCU relied on a context
 *     switch there; no scheduler here). The fast path pays one load.
 * An idle CPU that stops its tick (tickless idle, kernel/time.c) leaves
 * the GPs first (rcu_idle_enter(), Linux's dyntick-idle extended QS):
 * its bit goes from online, and from qsmask, which may end the GP.
 * Nothing runs on it until its next interrupt, whose first step
 * (rcu_idle_exit()) joins it again as a newcomer: the running GP does
 * not wait for it, the next one does. That is safe for the same reason
 * as joining at the first tick: the GP running then started before the
 * CPU came back, so anything the GP's updater unpublished was gone
 * before the CPU's readers could start (the lock orders the two). An
 * idle CPU with callbacks queued keeps its tick (rcu_needs_cpu()).
 *
 * A CPU takes part from rcu_cpu_starting(), which the arch calls as the
 * CPU comes up, before it takes an interrupt or runs work (the boot CPU
 * from rcu_init()): a CPU can run a reader as soon as it is given work,
 * which may be before its first tick. A CPU that never called it (the
 * malloc shim's threads, which are the application's) joins at its
 * first tick. A GP that starts while online is empty (the malloc shim)
 * ends at once: no CPU can hold a reader it waits for.
 *
 * Why it is correct. The updater unpublishes, then call_rcu() or
 * synchronize_rcu() asks for a GP that starts after that (gp_seq + 1
 * under the lock, a full barrier). A reader that saw the old pointer
 * began before the GP started, on some CPU in online; that CPU cannot
 * report a QS for this GP before its nesting returns to 0, and its
 * accesses are ordered before the report (program order on the CPU,
 * then the lock). The CPU that observes completed >= the GP number
 * (under the lock or with an acquire load) runs the callback or returns
 * from synchronize_rcu() after every reader's accesses.
 *
 * Callbacks. Each CPU keeps three FIFO segments, touched only by that
 * CPU with interrupts off: next (queued, no GP asked yet), wait
 * (waiting for GP wait_gp) and done (ready). rcu_advance() moves wait to
 * done once completed >= wait_gp, and next to wait (asking for GP
 * gp_seq + 1, which starts after the callbacks were queued) once wait is
 * empty. Done callbacks run on their CPU with interrupts off, from its
 * tick (hardirq), its idle loop or its wait in synchronize_rcu() or
 * rcu_barrier() (Linux runs them from softirq, interrupts on): at most
 * RCU_BLIMIT per pass, RCU_BLIMIT_HI while more than RCU_QHIMARK wait on
 * the CPU. Order is kept per CPU, which rcu_barrier() uses: it queues a
 * callback on every CPU that has callbacks queued (on_each_cpu_cond(),
 * as Linux's rcu_barrier skips a CPU with none) and waits for all of
 * them.
 *
 * call_rcu() never reads the caller's head, only writes it: the bytes
 * it held before say nothing (kfree_rcu(ptr) takes its head fresh from
 * kmalloc). A second call_rcu() of a head before its callback ran is
 * caught only with debug objects on (kernel/debugobjects.h, the boot
 * parameter debug_objects; Linux's CONFIG_DEBUG_OBJECTS_RCU_HEAD): the
 * head's address is active there from call_rcu() until the callback is
 * taken to run, and a head already active is reported and refused.
 *
 * Stalls. Any CPU's tick checks the running GP's age; past
 * rcu_cpu_stall_timeout= seconds (Linux's 21 by default; a CPU the GP
 * does not wait for looks half a timeout later, so that a late CPU that
 * still ticks reports itself first) it prints one
 * report per GP naming the CPUs still in qsmask, as Linux words it
 * ("rcu: INFO: rcu_sched detected stalls on CPUs/tasks:", or
 * "self-detected stall on CPU" when the reporting CPU is itself the one
 * late, with its stack), and the kernel goes on. Waits in
 * synchronize_rcu()/rcu_barrier() are bounded by RCU_WAIT_TIMEOUT_S,
 * then panic.
 *
 * Lock order: rcu_state.lock is taken with interrupts off, under no
 * other lock of RCU's, in the tick, call_rcu() (any context, any lock
 * held) and the waits; under it only the log lock (printk). Callbacks
 * run with it dropped. The debug objects' lock is taken by call_rcu()
 * and before a callback runs, never under rcu_state.lock.
 *
 * What is missing against Linux's Tree RCU: expedited GPs (a GP always
 * waits for a tick or an idle pass on every CPU, a few ms), callback
 * offloading to kthreads (callbacks run in the tick, interrupts off),
 * a combining tree for the QS reports (one lock and one qsmask cpumask:
 * every CPU's report takes the one lock, a contended line past a few
 * dozen CPUs; the bench suite's rcu_gp case shows the cost), dyntick
 * counters (an idle CPU leaves and rejoins under the global lock),
 * preemptible readers, CPU hotplug, and
 * kfree_rcu() batching into page-sized arrays.
 */
#include "kernel/rcupdate.h"
#include "kernel/bug.h"
#include "kernel/debugobjects.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/kernel.h"
#include "kernel/params.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "mm/slab.h"
#include "mm/vmalloc.h"

#define RCU_BLIMIT		64	/* callbacks per pass, normally */
#define RCU_BLIMIT_HI		4096	/* ... while more than QHIMARK wait */
#define RCU_QHIMARK		10000

struct rcu_segment {
	struct rcu_head *head, *tail;
};

struct rcu_data {
	struct rcu_segment next, wait, done;
	unsigned long wait_gp;		/* GP the wait segment needs */
	unsigned long qs_gp;		/* last GP this CPU reported for */
	unsigned long qlen;		/* callbacks queued here, not run */
	unsigned long invoked;
	struct rcu_head barrier_head;
	bool joined;
	bool idle;			/* out of the GPs: tick stopped */
} __aligned(64);

static struct {
	spinlock_t lock;
	unsigned long gp_seq;
	unsigned long completed;
	unsigned long gp_wanted;
	struct cpumask qsmask;
	struct cpumask online;
	u64 gp_start_ns;
	bool stall_reported;
	unsigned long stalls;
} rcu_state = {
	.lock = __SPIN_LOCK_UNLOCKED(rcu_state.lock),
};

struct rcu_reader rcu_readers[NR_CPUS];
static struct rcu_data rcu_data[NR_CPUS];
static unsigned int rcu_stall_timeout_s = RCU_STALL_TIMEOUT_DEFAULT;
static unsigned long barrier_busy;
static unsigned long barrier_count;

static int rcu_stall_timeout_setup(char *val)
{
	unsigned long s;

	if (!val || kstrtoul(val, 0, &s) || !s || s > 300)
		return -EINVAL;
	rcu_stall_timeout_s = (unsigned int)s;
	return 0;
}
kernel_param("rcu_cpu_stall_timeout", rcu_stall_timeout_setup);

unsigned int rcu_set_stall_timeout(unsigned int seconds)
{
	unsigned int old = READ_ONCE(rcu_stall_timeout_s);

	if (!WARN_ON(!seconds))
		WRITE_ONCE(rcu_stall_timeout_s, seconds);
	return old;
}

static struct rcu_data *this_rdp(void)
{
	return &rcu_data[arch_cpu_id()];
}

static int this_nesting(void)
{
	return READ_ONCE(rcu_readers[arch_cpu_id()].nesting);
}

/* --- the grace-period machine (rcu_state.lock held) ---------------------- */

static bool gp_in_progress(void)
{
	return rcu_state.gp_seq != rcu_state.completed;
}

static void start_gp(void);

static void end_gp(void)
{
	lockdep_assert_held(&rcu_state.lock);
	WARN_ON(!cpumask_empty(&rcu_state.qsmask));
	__atomic_store_n(&rcu_state.completed, rcu_state.gp_seq,
			 __ATOMIC_RELEASE);
	if ((long)(rcu_state.gp_wanted - rcu_state.completed) > 0)
		start_gp();
}

static void start_gp(void)
{
	lockdep_assert_held(&rcu_state.lock);
	BUG_ON(gp_in_progress());
	WRITE_ONCE(rcu_state.gp_seq, rcu_state.gp_seq + 1);
	cpumask_copy(&rcu_state.qsmask, &rcu_state.online);
	rcu_state.gp_start_ns = ktime_get_ns();
	rcu_state.stall_reported = false;
	if (cpumask_empty(&rcu_state.qsmask))
		end_gp();
}

/*
 * Ask for a GP that starts after now; returns its number. Any context;
 * the lock is a full barrier, so the GP starts after every store the
 * caller made before.
 */
static unsigned long rcu_request_gp(void)
{
	unsigned long flags, want;

	spin_lock_irqsave(&rcu_state.lock, flags);
	want = rcu_state.gp_seq + 1;
	if ((long)(want - rcu_state.gp_wanted) > 0)
		rcu_state.gp_wanted = want;
	if (!gp_in_progress())
		start_gp();
	spin_unlock_irqrestore(&rcu_state.lock, flags);
	return want;
}

static bool gp_done(unsigned long gp)
{
	return (long)(__atomic_load_n(&rcu_state.completed, __ATOMIC_ACQUIRE) -
		      gp) >= 0;
}

/*
 * cpu passed the running GP's QS: its bit leaves qsmask (if the GP
 * still waited for it), and the last bit ends the GP. Under the lock.
 */
static void report_qs(unsigned int cpu)
{
	lockdep_assert_held(&rcu_state.lock);
	if (cpumask_test_and_clear_cpu(cpu, &rcu_state.qsmask) &&
	    cpumask_empty(&rcu_state.qsmask))
		end_gp();
}

/* This CPU is in a QS now (interrupts off, nesting 0). */
static void rcu_qs(struct rcu_data *rdp, unsigned int cpu)
{
	unsigned long gp = READ_ONCE(rcu_state.gp_seq);

	WRITE_ONCE(rcu_readers[cpu].need_qs, false);
	if (rdp->qs_gp == gp)
		return;
	spin_lock(&rcu_state.lock);
	if (rcu_state.gp_seq == gp)
		report_qs(cpu);
	spin_unlock(&rcu_state.lock);
	rdp->qs_gp = gp;
}

static void rcu_join(struct rcu_data *rdp, unsigned int cpu)
{
	spin_lock(&rcu_state.lock);
	cpumask_set_cpu(cpu, &rcu_state.online);
	/*
	 * The running GP (if any) does not wait for it: nothing to report
	 * for gp_seq. Read under the lock: the next GP, which does wait for
	 * it, has a higher number.
	 */
	rdp->qs_gp = rcu_state.gp_seq;
	spin_unlock(&rcu_state.lock);
	WRITE_ONCE(rdp->joined, true);
}

void rcu_cpu_starting(void)
{
	unsigned int cpu = arch_cpu_id();

	lockdep_assert_irqs_disabled();
	if (!READ_ONCE(rcu_data[cpu].joined))
		rcu_join(&rcu_data[cpu], cpu);
}

void rcu_init(void)
{
	unsigned long flags = arch_irq_save();

	rcu_cpu_starting();
	arch_irq_restore(flags);
}

/* --- callbacks (this CPU, interrupts off) -------------------------------- */

static void seg_append(struct rcu_segment *to, struct rcu_segment *from)
{
	if (!from->head)
		return;
	if (to->head)
		to->tail->next = from->head;
	else
		to->head = from->head;
	to->tail = from->tail;
	from->head = from->tail = NULL;
}

static void rcu_advance(struct rcu_data *rdp)
{
	if (rdp->wait.head && gp_done(rdp->wait_gp))
		seg_append(&rdp->done, &rdp->wait);
	if (!rdp->wait.head && rdp->next.head) {
		seg_append(&rdp->wait, &rdp->next);
		rdp->wait_gp = rcu_request_gp();
	}
}

static void rcu_invoke(struct rcu_head *head)
{
	rcu_callback_t func = head->func;
	unsigned long offset = (unsigned long)func;

	debug_object_deactivate(head);	/* not queued: it may queue again */
	if (offset < RCU_KFREE_OFFSET_MAX)
		kvfree((char *)head - offset);	/* vfree defers from here */
	else
		func(head);
}

static void rcu_do_batch(struct rcu_data *rdp)
{
	unsigned long limit = rdp->qlen > RCU_QHIMARK ? RCU_BLIMIT_HI :
						       RCU_BLIMIT;

	lockdep_assert_irqs_disabled();
	while (rdp->done.head && limit--) {
		struct rcu_head *head = rdp->done.head;

		rdp->done.head = head->next;
		if (!rdp->done.head)
			rdp->done.tail = NULL;
		head->next = NULL;
		WRITE_ONCE(rdp->qlen, rdp->qlen - 1);
		rdp->invoked++;
		rcu_invoke(head);
	}
}

/* --- stalls --------------------------------------------------------------- */

static void print_cpus(const struct cpumask *mask)
{
	unsigned int cpu;

	for_each_cpu(cpu, mask)
		pr_err("rcu: \t%u-...!: (%lu ticks this GP) nesting %d\n",
			       cpu, tick_count(cpu),
			       READ_ONCE(rcu_readers[cpu].nesting));
}

static void rcu_check_stall(unsigned int cpu)
{
	u64 timeout = (u64)READ_ONCE(rcu_stall_timeout_s) * NSEC_PER_SEC;
	struct cpumask mask;
	unsigned long gp;
	u64 age;

	if (READ_ONCE(rcu_state.gp_seq) == READ_ONCE(rcu_state.completed) ||
	    READ_ONCE(rcu_state.stall_reported))
		return;
	/* The late CPU first (its own stack says most), the others later. */
	if (!cpumask_test_cpu(cpu, &rcu_state.qsmask))
		timeout += timeout / 2;
	spin_lock(&rcu_state.lock);
	age = ktime_get_ns() - rcu_state.gp_start_ns;
	if (!gp_in_progress() || rcu_state.stall_reported || age < timeout) {
		spin_unlock(&rcu_state.lock);
		return;
	}
	rcu_state.stall_reported = true;
	gp = rcu_state.gp_seq;
	cpumask_copy(&mask, &rcu_state.qsmask);
	spin_unlock(&rcu_state.lock);

	if (cpumask_weight(&mask) == 1 && cpumask_test_cpu(cpu, &mask)) {
		pr_err("rcu: INFO: rcu_sched self-detected stall on CPU\n");
		print_cpus(&mask);
		pr_err("rcu: \t(t=%lu jiffies g=%lu q=%lu)\n",
		       (unsigned long)(age / TICK_NSEC), gp,
		       READ_ONCE(rcu_data[cpu].qlen));
		dump_stack();
	} else {
		pr_err("rcu: INFO: rcu_sched detected stalls on CPUs/tasks:\n");
		print_cpus(&mask);
		pr_err("rcu: \t(detected by %u, t=%lu jiffies, g=%lu, q=%lu)\n",
		       cpu, (unsigned long)(age / TICK_NSEC), gp,
		       READ_ONCE(rcu_data[cpu].qlen));
	}
	/* Counted once printed: a test waits for the count. */
	__atomic_fetch_add(&rcu_state.stalls, 1, __ATOMIC_RELEASE);
}

/* --- entry points from the tick and the idle loops ----------------------- */

/* The tick: hardirq, interrupts off, on every CPU at HZ. */
void rcu_sched_clock_irq(void)
{
	unsigned int cpu = arch_cpu_id();
	struct rcu_data *rdp = &rcu_data[cpu];

	lockdep_assert_irqs_disabled();
	if (unlikely(!rdp->joined))
		rcu_join(rdp, cpu);
	if (!this_nesting())
		rcu_qs(rdp, cpu);
	else if (rdp->qs_gp != READ_ONCE(rcu_state.gp_seq))
		WRITE_ONCE(rcu_readers[cpu].need_qs, true);
	rcu_check_stall(cpu);
	if (rdp->qlen) {
		rcu_advance(rdp);
		rcu_do_batch(rdp);
	}
}

/* An idle loop about to halt: interrupts off, no reader. */
void rcu_idle(void)
{
	unsigned int cpu = arch_cpu_id();
	struct rcu_data *rdp = &rcu_data[cpu];

	lockdep_assert_irqs_disabled();
	if (WARN_ON_ONCE(this_nesting()) || !READ_ONCE(rdp->joined))
		return;
	rcu_qs(rdp, cpu);
	if (rdp->qlen) {
		rcu_advance(rdp);
		rcu_do_batch(rdp);
	}
}

/* --- tickless idle (kernel/time.c) ---------------------------------------- */

/* Callbacks wait on this CPU: it must keep ticking to run them. */
bool rcu_needs_cpu(void)
{
	return READ_ONCE(this_rdp()->qlen) != 0;
}

/*
 * This CPU's tick stops in its idle loop: it leaves the GPs, passing
 * the QS the running one waits for. Interrupts off, no reader.
 */
void rcu_idle_enter(void)
{
	unsigned int cpu = arch_cpu_id();
	struct rcu_data *rdp = &rcu_data[cpu];

	lockdep_assert_irqs_disabled();
	if (WARN_ON_ONCE(this_nesting()) || !READ_ONCE(rdp->joined) ||
	    rdp->idle)
		return;
	spin_lock(&rcu_state.lock);
	cpumask_clear_cpu(cpu, &rcu_state.online);
	if (gp_in_progress())
		report_qs(cpu);
	spin_unlock(&rcu_state.lock);
	WRITE_ONCE(rcu_readers[cpu].need_qs, false);
	rdp->idle = true;
}

/* Its first interrupt after that: it takes part again. Interrupts off. */
void rcu_idle_exit(void)
{
	unsigned int cpu = arch_cpu_id();
	struct rcu_data *rdp = &rcu_data[cpu];

	lockdep_assert_irqs_disabled();
	if (!rdp->idle)
		return;
	rdp->idle = false;
	rcu_join(rdp, cpu);
}

/* --- the API -------------------------------------------------------------- */

void __rcu_read_unlock_bad(unsigned long caller)
{
	__warn(__FILE__, __LINE__, caller,
	       "rcu_read_unlock() without rcu_read_lock() on CPU %u (nesting %d)\n",
	       arch_cpu_id(), this_nesting());
}

/*
 * The outermost rcu_read_unlock() of a reader the tick found (need_qs),
 * or that work waits for (need_work: preempt_schedule() runs it). With
 * interrupts off the CPU is still in a reader (see the top): its tick
 * or a later unlock reports the QS.
 */
void __rcu_read_unlock_special(void)
{
	unsigned int cpu = arch_cpu_id();
	unsigned long flags;

	if (!irqs_disabled()) {
		local_irq_save(flags);
		if (READ_ONCE(rcu_readers[cpu].need_qs) && !this_nesting() &&
		    READ_ONCE(rcu_data[cpu].joined))
			rcu_qs(&rcu_data[cpu], cpu);
		local_irq_restore(flags);
	}
	if (READ_ONCE(rcu_readers[cpu].need_work))
		preempt_schedule(_RET_IP_);
}

static void queue_callback(struct rcu_head *head, rcu_callback_t func,
			   unsigned long caller)
{
	struct rcu_data *rdp;
	unsigned long flags;

	if (debug_object_activate(head) == -EEXIST) {
		__warn(__FILE__, __LINE__, caller,
		       "call_rcu() of rcu_head %px already queued (callback %pS), ignored\n",
		       head, READ_ONCE(head->func));
		return;
	}
	head->next = NULL;
	head->func = func;
	local_irq_save(flags);
	rdp = this_rdp();
	if (rdp->next.head)
		rdp->next.tail->next = head;
	else
		rdp->next.head = head;
	rdp->next.tail = head;
	WRITE_ONCE(rdp->qlen, rdp->qlen + 1);
	rcu_advance(rdp);	/* ask for its GP now if nothing waits */
	local_irq_restore(flags);
}

void call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	if (WARN(!head || !func, "call_rcu(%px, %pS)\n", head, func))
		return;
	queue_callback(head, func, _RET_IP_);
}

/*
 * What kvfree() takes: a slab object or large kmalloc, or the start of a
 * vmalloc area. Any context, so no vmap lock: an address in the window
 * is only checked to be a page start, vfree() checks the rest.
 */
static bool kvfree_rcu_valid(const void *obj, unsigned long caller)
{
	if (is_vmalloc_addr(obj) ? IS_ALIGNED((unsigned long)obj, PAGE_SIZE) :
				   kmem_valid_obj(obj))
		return true;
	__warn(__FILE__, __LINE__, caller,
	       "kfree_rcu() of %px, which neither a slab nor vmalloc holds: not freed\n",
	       obj);
	return false;
}

void __kvfree_rcu(struct rcu_head *head, unsigned long offset)
{
	if (kvfree_rcu_valid((const char *)head - offset, _RET_IP_))
		queue_callback(head, (rcu_callback_t)offset, _RET_IP_);
}

/* A wait is allowed: interrupts on, no handler, no reader. */
static bool rcu_may_wait(const char *what, unsigned long caller)
{
	if (in_hardirq() || irqs_disabled() || this_nesting()) {
		__warn(__FILE__, __LINE__, caller,
		       "%s() %s on CPU %u: it would wait for itself\n", what,
		       in_hardirq() ? "in an interrupt handler" :
		       this_nesting() ? "inside an RCU read-side critical section" :
		       "with interrupts off", arch_cpu_id());
		return false;
	}
	return true;
}

/*
 * Spin until done(arg), bounded. Meanwhile this CPU is in a QS, as in
 * its idle loop, and does what that loop does (rcu_idle()): reports the
 * QS and runs its ready callbacks, which are most often what the wait is
 * for (rcu_barrier() after call_rcu() here), at once rather than at its
 * next tick. The tick could run them at the same point of this loop.
 */
static void rcu_wait(bool (*done)(unsigned long arg), unsigned long arg,
		     const char *what)
{
	u64 deadline = ktime_get_ns() + RCU_WAIT_TIMEOUT_S * NSEC_PER_SEC;

	while (!done(arg)) {
		unsigned int cpu;
		unsigned long flags;

		local_irq_save(flags);
		cpu = arch_cpu_id();
		if (READ_ONCE(rcu_data[cpu].joined))
			rcu_idle();	/* the QS, and this CPU's callbacks */
		local_irq_restore(flags);
		if (ktime_get_ns() > deadline) {
			struct cpumask mask;

			cpumask_copy(&mask, &rcu_state.qsmask);
			pr_err("rcu: %s() waited %u s on CPU %u: GP %lu, completed %lu, waiting for %u CPUs\n",
			       what, RCU_WAIT_TIMEOUT_S, arch_cpu_id(),
			       READ_ONCE(rcu_state.gp_seq),
			       READ_ONCE(rcu_state.completed),
			       cpumask_weight(&mask));
			print_cpus(&mask);
			panic("rcu: %s() did not complete", what);
		}
		arch_cpu_relax();
	}
}

void synchronize_rcu(void)
{
	if (!rcu_may_wait("synchronize_rcu", _RET_IP_))
		return;
	rcu_wait(gp_done, rcu_request_gp(), "synchronize_rcu");
}

static void rcu_barrier_callback(struct rcu_head *head)
{
	__atomic_fetch_sub(&barrier_count, 1, __ATOMIC_RELEASE);
}

/* Has cpu callbacks queued? Read from another CPU, as Linux's rcu_barrier. */
static bool rcu_cpu_has_callbacks(unsigned int cpu, void *info)
{
	(void)info;
	return READ_ONCE(rcu_data[cpu].qlen) != 0;
}

static void rcu_barrier_func(void *info)
{
	struct rcu_data *rdp = this_rdp();

	(void)info;
	__atomic_fetch_add(&barrier_count, 1, __ATOMIC_RELAXED);
	queue_callback(&rdp->barrier_head, rcu_barrier_callback, _RET_IP_);
}

static bool barrier_done(unsigned long arg)
{
	(void)arg;
	return !__atomic_load_n(&barrier_count, __ATOMIC_ACQUIRE);
}

static bool barrier_free(unsigned long arg)
{
	unsigned long idle = 0;

	(void)arg;
	return __atomic_compare_exchange_n(&barrier_busy, &idle, 1, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

void rcu_barrier(void)
{
	int err;

	if (!rcu_may_wait("rcu_barrier", _RET_IP_))
		return;
	rcu_wait(barrier_free, 0, "rcu_barrier");	/* one at a time */
	__atomic_store_n(&barrier_count, 1, __ATOMIC_RELAXED);
	err = on_each_cpu_cond(rcu_cpu_has_callbacks, rcu_barrier_func, NULL,
			       true);
	WARN_ON(err);
	__atomic_fetch_sub(&barrier_count, 1, __ATOMIC_RELEASE);
	rcu_wait(barrier_done, 0, "rcu_barrier");
	__atomic_store_n(&barrier_busy, 0, __ATOMIC_RELEASE);
}

/* kvfree_rcu() without an rcu_head: one is allocated beside the object. */
struct rcu_ptr {
	struct rcu_head rh;
	const void *ptr;
};

static void kvfree_rcu_ptr(struct rcu_head *head)
{
	struct rcu_ptr *rp = container_of(head, struct rcu_ptr, rh);

	kvfree(rp->ptr);
	kfree(rp);
}

void kvfree_rcu_mightsleep(const void *ptr)
{
	bool may_wait = rcu_may_wait("kfree_rcu_mightsleep", _RET_IP_);
	struct rcu_ptr *rp;

	if (!ptr || !kvfree_rcu_valid(ptr, _RET_IP_))
		return;
	rp = kmalloc(sizeof(*rp), GFP_ATOMIC | __GFP_NOWARN);
	if (rp) {
		rp->ptr = ptr;
		queue_callback(&rp->rh, kvfree_rcu_ptr, _RET_IP_);
		return;
	}
	if (!may_wait)
		return;		/* reported: it leaks rather than waits */
	synchronize_rcu();
	kvfree(ptr);
}

/* --- statistics ----------------------------------------------------------- */

unsigned long rcu_pending_callbacks(void)
{
	unsigned int cpu;
	unsigned long n = 0;

	for_each_possible_cpu(cpu)
		n += READ_ONCE(rcu_data[cpu].qlen);
	return n;
}

void rcu_get_stats(struct rcu_stats *st)
{
	unsigned int cpu;
	unsigned long flags;

	spin_lock_irqsave(&rcu_state.lock, flags);
	st->gp_seq = rcu_state.gp_seq;
	st->completed = rcu_state.completed;
	cpumask_copy(&st->qsmask, &rcu_state.qsmask);
	cpumask_copy(&st->online, &rcu_state.online);
	st->stalls = rcu_state.stalls;
	spin_unlock_irqrestore(&rcu_state.lock, flags);
	st->queued = rcu_pending_callbacks();
	st->invoked = 0;
	for_each_possible_cpu(cpu)
		st->invoked += READ_ONCE(rcu_data[cpu].invoked);
}

/* Shell: "rcu", the grace periods and callbacks. */
static int cmd_rcu(int argc, char **argv)
{
	struct rcu_stats st;

	(void)argc;
	(void)argv;
	rcu_get_stats(&st);
	console_printf("rcu: gp %lu completed %lu waiting-for %u CPUs, online %u\n",
		       st.gp_seq, st.completed, cpumask_weight(&st.qsmask),
		       cpumask_weight(&st.online));
	console_printf("rcu: callbacks queued %lu invoked %lu, stalls %lu (timeout %u s)\n",
		       st.queued, st.invoked, st.stalls, rcu_stall_timeout_s);
	return 0;
}
SHELL_CMD("rcu", cmd_rcu, "RCU grace periods and callbacks");

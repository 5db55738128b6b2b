/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Delayed per-CPU work (Linux's <linux/workqueue.h>, the part the kernel
 * needs: one system workqueue, bound to CPUs).
 *
 *	INIT_DELAYED_WORK(dwork, fn)
 *	schedule_delayed_work_on(cpu, dwork, delay)
 *		run fn(&dwork->work) on cpu, delay jiffies from now (0: as
 *		soon as that CPU gets to it); false if it was pending already
 *	cancel_delayed_work_sync(dwork)
 *		it is neither pending nor running anywhere when this returns;
 *		true if it was pending
 *
 * Where the work runs. There is no scheduler, so no worker thread: a CPU
 * runs its queued work on the way out of an interrupt (x86_64: do_IRQ();
 * the host: the end of host_irq_replay()), the place Linux runs
 * softirqs, but only at a safe point (kernel/preempt.h): the interrupted
 * code had interrupts on, was no handler, held no spinlock, was in no
 * RCU reader, no cross-CPU call's setup and no other work function. An
 * interrupt that lands elsewhere leaves the work for the end of what
 * blocks it: the outermost spin_unlock(), preempt_enable() or
 * rcu_read_unlock() runs it, as Linux's preempt_enable() enters the
 * scheduler. Work queued for another CPU comes with a RESCHEDULE_VECTOR
 * interrupt, which wakes it if it idles (x86_64: sti; hlt; the host:
 * host_safe_halt(), its tick maybe stopped); work queued on this CPU
 * raises the same vector here, so work queued with interrupts off (an
 * RCU callback, a vfree() from the idle loop) runs once they are on.
 *
 * What a work function may do: what a Linux work item in process
 * context may do, except sleep. It runs with interrupts on, outside
 * interrupt context (in_interrupt() false), on the CPU it was queued
 * for, and the code below it on the stack holds nothing: so it may take
 * any lock, wait for a grace period (synchronize_rcu(), rcu_barrier()),
 * and make synchronous cross-CPU calls. What it must not do is wait for
 * something only this CPU's other work can do: work functions never
 * nest, so that work would run only after it returns. Cancelling itself
 * with cancel_delayed_work_sync() is such a wait, refused with a
 * WARNING. Each wait is bounded, so a forbidden one ends in a report.
 *
 * The delay timer runs on the CPU that called schedule_delayed_work_on()
 * (timers run where they are armed, kernel/time.h) and queues the work
 * on the CPU named, which runs it on the way out of that interrupt.
 * Linux arms the timer on the target CPU (add_timer_on()); the work runs
 * on the same CPU either way.
 */
#ifndef KERNEL_WORKQUEUE_H
#define KERNEL_WORKQUEUE_H

#include "kernel/time.h"
#include "kernel/types.h"
#include "lib/list.h"

struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);

struct work_struct {
	struct list_head entry;		/* on its CPU's list while queued */
	work_func_t func;
	unsigned long state;		/* WORK_STRUCT_* (kernel/workqueue.c) */
	unsigned int cpu;		/* the CPU it is or was last queued on */
};

struct delayed_work {
	struct work_struct work;
	struct timer_list timer;
	unsigned int cpu;		/* where the work goes when it expires */
};

void __init_work(struct work_struct *work, work_func_t func);
void __init_delayed_work(struct delayed_work *dwork, work_func_t func);

#define INIT_WORK(work, fn)		__init_work(work, fn)
#define INIT_DELAYED_WORK(dwork, fn)	__init_delayed_work(dwork, fn)

static inline struct delayed_work *to_delayed_work(struct work_struct *work)
{
	return container_of(work, struct delayed_work, work);
}

/*
 * Queue work on cpu (an online CPU, or this one). false if it was queued
 * or pending already, or cpu cannot run it (WARNING).
 */
bool schedule_work_on(unsigned int cpu, struct work_struct *work);
bool schedule_delayed_work_on(unsigned int cpu, struct delayed_work *dwork,
			      unsigned long delay);

/* Queued, or waiting for its timer. */
bool delayed_work_pending(const struct delayed_work *dwork);

/*
 * Stop it: when this returns, the timer is off, the work is on no list
 * and its function runs on no CPU, and it was not re-armed meanwhile
 * (scheduling it while the cancel runs fails). true if it was pending.
 * Not from interrupt context nor from the work itself: a WARNING, and
 * only what needs no waiting is done. The wait is bounded: past
 * WORK_CANCEL_TIMEOUT_S it reports and panics.
 */
bool cancel_delayed_work_sync(struct delayed_work *dwork);

/*
 * The arch's hook on the way out of an interrupt (see above): run this
 * CPU's queued work if the interrupted context had interrupts on and
 * was not an interrupt handler. Interrupts may be on or off on entry;
 * they are as they were on return.
 */
void workqueue_irq_exit(void);

/* Work functions run on cpu since boot (tests). */
unsigned long workqueue_nr_run(unsigned int cpu);

/* RESCHEDULE_VECTOR can be raised from now on: start_kernel(), once. */
void workqueue_init(void);

/*
 * The longest any work waited for a safe point since boot, in ns, and
 * the end of the section that made it wait (*site, 0 if not known).
 */
u64 workqueue_max_blocked_ns(unsigned long *site);

/* Is this CPU inside a work function now? */
bool in_workqueue(void);

#endif /* KERNEL_WORKQUEUE_H */

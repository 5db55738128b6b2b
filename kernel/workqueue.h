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

/**
 * struct work_struct - a function to run on a CPU, at a safe point
 * @entry: on its CPU's list while queued
 * @func: the function
 * @state: WORK_STRUCT_* bits (kernel/workqueue.c)
 * @cpu: the CPU it is, or was last, queued on
 *
 * Set up with INIT_WORK(); no field is the caller's to write.
 */
struct work_struct {
	struct list_head entry;
	work_func_t func;
	unsigned long state;
	unsigned int cpu;
};

/**
 * struct delayed_work - work queued when a timer expires
 * @work: the work
 * @timer: the delay's timer
 * @cpu: the CPU the work is queued on when the timer expires
 *
 * Set up with INIT_DELAYED_WORK(); no field is the caller's to write.
 */
struct delayed_work {
	struct work_struct work;
	struct timer_list timer;
	unsigned int cpu;
};

/**
 * __init_work() - set a work item up
 * @work: the work item
 * @func: the function it runs
 *
 * Called through INIT_WORK().
 *
 * Context: any context; @work must not be queued.
 */
void __init_work(struct work_struct *work, work_func_t func);
/**
 * __init_delayed_work() - set a delayed work item up
 * @dwork: the delayed work item
 * @func: the function it runs
 *
 * Called through INIT_DELAYED_WORK().
 *
 * Context: any context; @dwork must be neither queued nor armed.
 */
void __init_delayed_work(struct delayed_work *dwork, work_func_t func);

/**
 * INIT_WORK() - set a work item up
 * @work: the work item
 * @fn: the function it runs, called with @work
 *
 * Context: as __init_work().
 */
#define INIT_WORK(work, fn)		__init_work(work, fn)
/**
 * INIT_DELAYED_WORK() - set a delayed work item up
 * @dwork: the delayed work item
 * @fn: the function it runs, called with &@dwork->work
 *
 * Context: as __init_delayed_work().
 */
#define INIT_DELAYED_WORK(dwork, fn)	__init_delayed_work(dwork, fn)

/**
 * to_delayed_work() - the delayed work item a work item is part of
 * @work: the work member of a struct delayed_work, as a work function
 *	gets it
 *
 * Context: any context.
 * Return: the struct delayed_work.
 */
static inline struct delayed_work *to_delayed_work(struct work_struct *work)
{
	return container_of(work, struct delayed_work, work);
}

/**
 * schedule_work_on() - queue work on a CPU
 * @cpu: this CPU or an online one; any other is warned about
 * @work: the work item, set up with INIT_WORK()
 *
 * The CPU gets a RESCHEDULE_VECTOR interrupt and runs the work at its
 * next safe point (see above).
 *
 * Context: any context, interrupt handlers, interrupts off and RCU
 * readers included; never waits.
 * Return: true if queued; false if it was pending already, is being
 * cancelled, or @cpu cannot run work.
 */
bool schedule_work_on(unsigned int cpu, struct work_struct *work);
/**
 * schedule_delayed_work_on() - queue work on a CPU after a delay
 * @cpu: this CPU or an online one; any other is warned about
 * @dwork: the delayed work item, set up with INIT_DELAYED_WORK()
 * @delay: jiffies from now; 0 queues it at once
 *
 * The timer runs on the calling CPU and queues the work on @cpu.
 *
 * Context: as schedule_work_on().
 * Return: true if armed or queued; false if it was pending already, is
 * being cancelled, or @cpu cannot run work.
 */
bool schedule_delayed_work_on(unsigned int cpu, struct delayed_work *dwork,
			      unsigned long delay);

/**
 * delayed_work_pending() - is a delayed work item queued or armed
 * @dwork: the delayed work item
 *
 * Context: any context; a snapshot.
 * Return: true from a successful schedule until its function starts or
 * a cancel takes it off.
 */
bool delayed_work_pending(const struct delayed_work *dwork);

/**
 * cancel_delayed_work_sync() - stop a delayed work item and wait for it
 * @dwork: the delayed work item
 *
 * On return the timer is off, the work is on no list and its function
 * runs on no CPU, and it was not scheduled again meanwhile (scheduling
 * it while the cancel runs fails). The wait spins; past
 * WORK_CANCEL_TIMEOUT_S it reports and panics.
 *
 * Context: not in interrupt context and not from @dwork's own function:
 * there it warns and only takes the work off where no wait is needed.
 * Return: true if the work was pending.
 */
bool cancel_delayed_work_sync(struct delayed_work *dwork);

/**
 * workqueue_irq_exit() - the arch's hook on the way out of an interrupt
 *
 * Description: runs this CPU's queued work if the interrupted context
 * was at a safe point (see above); else the work waits for the end of
 * what blocks it.
 *
 * Context: the end of an interrupt, outside the handler proper;
 * interrupts on or off on entry, as they were on return.
 */
void workqueue_irq_exit(void);

/**
 * workqueue_init() - let queued work raise RESCHEDULE_VECTOR on this CPU
 *
 * Context: boot, once, from start_kernel(), after arch_irq_init().
 */
void workqueue_init(void);

/**
 * workqueue_max_blocked_ns() - the longest wait of any work for a safe point
 * @site: set to the end of the section that made it wait, or 0 if not
 *	known
 *
 * Context: any context; a snapshot.
 * Return: the longest wait since boot over every CPU, in nanoseconds.
 */
u64 workqueue_max_blocked_ns(unsigned long *site);

/**
 * in_workqueue() - is this CPU running a work function
 *
 * Context: any context.
 * Return: true inside a work function (and in interrupts taken there).
 */
bool in_workqueue(void);

#endif /* KERNEL_WORKQUEUE_H */

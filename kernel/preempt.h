/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Preemption points (Linux's <linux/preempt.h>, for a kernel whose only
 * preempting task is deferred work).
 *
 * There is no scheduler: what runs "later" on a CPU is its queued work
 * (kernel/workqueue.h), which an interrupt starts on its way out, on the
 * stack of the code it interrupted. That code must then hold nothing the
 * work function could need or wait for. So, as in Linux, a per-CPU count
 * says when it may be preempted:
 *
 *	preempt_disable() / preempt_enable()
 *		a section no work function may interrupt; they nest. Every
 *		spinlock holds one (kernel/spinlock.h), and so does the
 *		setup of a cross-CPU call (kernel/smp.c). An RCU reader is
 *		one too, counted apart (kernel/rcupdate.h).
 *	preempt_count()
 *		this CPU's depth of such sections.
 *
 * Work that an interrupt found waiting for such a section is marked
 * (need_resched, and the RCU reader's need_work): the outermost
 * preempt_enable() or rcu_read_unlock() then calls preempt_schedule(),
 * which runs it if this is a safe point, as Linux's preempt_enable()
 * enters the scheduler. Safe point: interrupts on, no interrupt handler,
 * count 0, no RCU reader, no work function already running here. With
 * interrupts off it raises RESCHEDULE_VECTOR on this CPU instead, whose
 * exit runs the work once they are back on.
 *
 * The count is this CPU's own: interrupt handlers on it change it too,
 * but always leave it as they found it, so plain increments suffice.
 */
#ifndef KERNEL_PREEMPT_H
#define KERNEL_PREEMPT_H

#include "kernel/compiler.h"
#include "kernel/types.h"
#include "arch/arch.h"

struct preempt_cpu {
	int count;
	bool need_resched;	/* work waits for count to reach 0 */
} __aligned(64);

extern struct preempt_cpu preempt_cpus[NR_CPUS];

/*
 * Run the work that waits for this CPU, if this is a safe point; site:
 * where the section that held it back ended (for the statistics).
 */
void preempt_schedule(unsigned long site);
/* A preempt_enable() below zero (a WARNING; the count stays at 0). */
void __preempt_count_underflow(unsigned long caller);

static __always_inline int preempt_count(void)
{
	return READ_ONCE(preempt_cpus[arch_cpu_id()].count);
}

static __always_inline void preempt_disable(void)
{
	preempt_cpus[arch_cpu_id()].count++;
	barrier();
}

static __always_inline void preempt_enable(void)
{
	struct preempt_cpu *p;

	barrier();
	p = &preempt_cpus[arch_cpu_id()];
	if (unlikely(p->count <= 0))
		__preempt_count_underflow(_THIS_IP_);
	else if (--p->count == 0 && unlikely(READ_ONCE(p->need_resched)))
		preempt_schedule(_THIS_IP_);
}

#endif /* KERNEL_PREEMPT_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Cross-CPU function calls (kernel/smp.h), after Linux's kernel/smp.c.
 *
 * A request is a call_single_data (csd): the function, its argument and
 * a lock flag. Each CPU has a queue of requests, a lock-free singly
 * linked list (Linux's llist): a sender pushes with a compare-exchange
 * and sends CALL_FUNCTION_VECTOR to the CPU (arch_send_call_function_ipi);
 * the handler, in hardirq context with interrupts off, takes the whole
 * list with one exchange and runs it oldest first. Nothing here takes a
 * lock, so the handler may run anywhere the CPU has interrupts on.
 *
 * Synchronous requests (wait) live on the sender's stack; the handler
 * clears their lock flag after the function returned, and the sender
 * waits for that. Asynchronous ones use csd_data[sender][target]: the
 * handler clears the flag before it calls the function (the csd may
 * then be reused), and a sender that finds its csd still locked from
 * the previous call waits first. A request queued on a CPU is taken at
 * its next interrupt-on window; every wait for it is bounded by
 * SMP_CALL_TIMEOUT_NS, then the CPU and the function are reported and
 * the kernel panics. Claiming a csd, filling it and queueing it is one
 * preempt_disable() section: a work function that interrupted it and
 * called the same CPU would find the csd claimed but never queued (and
 * wait for it for ever) or queue it twice (a loop in the list).
 *
 * Why the rules (kernel/smp.h): a sender waits with interrupts on, so
 * requests sent to it meanwhile still run; with interrupts off, or in
 * a handler, it could wait for a CPU that waits for it.
 */
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "kernel/smp.h"

#define CSD_FLAG_LOCK	0x01	/* queued, not yet taken (async) or run (sync) */
#define CSD_FLAG_SYNC	0x02	/* unlock after the function returned */

struct call_single_data {
	struct call_single_data *next;
	smp_call_func_t func;
	void *info;
	unsigned int flags;
	unsigned int src;	/* for the timeout report */
};

struct call_queue {
	struct call_single_data *first;
} __aligned(64);

static struct call_queue call_queues[NR_CPUS];
static struct call_single_data csd_data[NR_CPUS][NR_CPUS];

unsigned int smp_processor_id(void)
{
	return arch_cpu_id();
}

bool cpu_online(unsigned int cpu)
{
	return cpu < arch_nr_cpus() && arch_cpu_online(cpu);
}

unsigned int num_online_cpus(void)
{
	unsigned int n = 0;

	for (unsigned int cpu = 0; cpu < arch_nr_cpus(); cpu++)
		n += cpu_online(cpu);
	return n;
}

static unsigned int csd_flags(struct call_single_data *csd)
{
	return __atomic_load_n(&csd->flags, __ATOMIC_ACQUIRE);
}

static void csd_unlock(struct call_single_data *csd)
{
	WARN_ON_ONCE(!(csd_flags(csd) & CSD_FLAG_LOCK));
	__atomic_store_n(&csd->flags, 0, __ATOMIC_RELEASE);
}

/* Wait (bounded) until cpu has taken csd: run it if it was synchronous. */
static void csd_lock_wait(struct call_single_data *csd, unsigned int cpu)
{
	u64 deadline = 0;
	unsigned int spins = 0;

	while (csd_flags(csd) & CSD_FLAG_LOCK) {
		arch_cpu_relax();
		if (++spins & 1023)
			continue;
		if (!deadline) {
			deadline = arch_clock_ns() + SMP_CALL_TIMEOUT_NS;
		} else if (arch_clock_ns() > deadline) {
			pr_emerg("smp: CPU %u did not run %pS (info %p) from CPU %u within %llu s\n",
				 cpu, csd->func, csd->info, csd->src,
				 SMP_CALL_TIMEOUT_NS / 1000000000ULL);
			panic("smp_call_function: CPU %u is not taking interrupts",
			      cpu);
		}
	}
}

/* Queue csd on cpu and interrupt it; the queue was empty: send the IPI. */
static void queue_and_send(struct call_single_data *csd, unsigned int cpu)
{
	struct call_queue *q = &call_queues[cpu];
	struct call_single_data *first = __atomic_load_n(&q->first,
							  __ATOMIC_RELAXED);
	int err;

	do {
		csd->next = first;
	} while (!__atomic_compare_exchange_n(&q->first, &first, csd, true,
					      __ATOMIC_RELEASE,
					      __ATOMIC_RELAXED));
	/*
	 * Always send: a queue found non-empty may be one the target has
	 * just emptied. The interrupt is one bit, so extra ones coalesce.
	 */
	err = arch_send_call_function_ipi(cpu);
	WARN(err, "smp: call-function IPI to CPU %u not sent (%d)\n", cpu, err);
}

static void csd_prepare(struct call_single_data *csd, smp_call_func_t func,
			void *info, bool wait)
{
	csd->func = func;
	csd->info = info;
	csd->src = arch_cpu_id();
	__atomic_store_n(&csd->flags,
			 CSD_FLAG_LOCK | (wait ? CSD_FLAG_SYNC : 0),
			 __ATOMIC_RELAXED);
}

/* The async csd this CPU uses for cpu, once its previous use is done. */
static struct call_single_data *csd_get_async(unsigned int cpu)
{
	struct call_single_data *csd = &csd_data[arch_cpu_id()][cpu];

	csd_lock_wait(csd, cpu);
	return csd;
}

/*
 * Queue func(info) on cpu: in sync_csd, the caller's (it then waits for
 * it), or NULL for this CPU's async csd for cpu. Claiming the csd,
 * filling it and queueing it is one preempt_disable() section (see the
 * top). Returns the csd queued.
 */
static struct call_single_data *send_csd(struct call_single_data *sync_csd,
					 unsigned int cpu,
					 smp_call_func_t func, void *info)
{
	struct call_single_data *csd;

	preempt_disable();
	csd = sync_csd ? sync_csd : csd_get_async(cpu);
	csd_prepare(csd, func, info, sync_csd != NULL);
	queue_and_send(csd, cpu);
	preempt_enable();
	return csd;
}

static void run_local(smp_call_func_t func, void *info)
{
	unsigned long flags = arch_irq_save();

	func(info);
	arch_irq_restore(flags);
}

/*
 * May this CPU target other CPUs now? A WARNING (named by what) if not:
 * interrupts off or inside an interrupt handler.
 */
static bool may_send(const char *what)
{
	return !WARN(irqs_disabled() || in_interrupt(),
		     "smp: %s to another CPU with interrupts off or from an interrupt handler; not sent\n",
		     what);
}

int smp_call_function_single(unsigned int cpu, smp_call_func_t func,
			     void *info, bool wait)
{
	struct call_single_data stack_csd, *csd;

	if (WARN(!func, "smp: call of a NULL function\n"))
		return -EINVAL;
	if (cpu == arch_cpu_id()) {
		run_local(func, info);
		return 0;
	}
	if (!may_send("smp_call_function_single"))
		return -EDEADLK;
	if (!cpu_online(cpu))
		return -ENXIO;
	csd = send_csd(wait ? &stack_csd : NULL, cpu, func, info);
	if (wait)
		csd_lock_wait(csd, cpu);
	return 0;
}

/*
 * Queue func on every online CPU but this one; with wait, on the
 * caller's csds[], which the caller then waits for (wait_all()).
 */
static void send_to_others(struct call_single_data *csds,
			   smp_call_func_t func, void *info, bool wait)
{
	unsigned int this = arch_cpu_id();

	for (unsigned int cpu = 0; cpu < arch_nr_cpus(); cpu++) {
		if (cpu == this || !cpu_online(cpu))
			continue;
		send_csd(wait ? &csds[cpu] : NULL, cpu, func, info);
	}
}

static void wait_all(struct call_single_data *csds)
{
	unsigned int this = arch_cpu_id();

	for (unsigned int cpu = 0; cpu < arch_nr_cpus(); cpu++)
		if (cpu != this && cpu_online(cpu))
			csd_lock_wait(&csds[cpu], cpu);
}

static bool others_online(void)
{
	unsigned int this = arch_cpu_id();

	for (unsigned int cpu = 0; cpu < arch_nr_cpus(); cpu++)
		if (cpu != this && cpu_online(cpu))
			return true;
	return false;
}

int smp_call_function(smp_call_func_t func, void *info, bool wait)
{
	struct call_single_data csds[NR_CPUS];

	if (WARN(!func, "smp: call of a NULL function\n"))
		return -EINVAL;
	if (!may_send("smp_call_function"))
		return -EDEADLK;
	send_to_others(csds, func, info, wait);
	if (wait)
		wait_all(csds);
	return 0;
}

int on_each_cpu(smp_call_func_t func, void *info, bool wait)
{
	struct call_single_data csds[NR_CPUS];
	bool others = others_online();

	if (WARN(!func, "smp: call of a NULL function\n"))
		return -EINVAL;
	if (others && !may_send("on_each_cpu"))
		return -EDEADLK;
	if (others)
		send_to_others(csds, func, info, wait);
	run_local(func, info);
	if (others && wait)
		wait_all(csds);
	return 0;
}

/*
 * Linux's on_each_cpu_cond_mask: the CPUs are chosen first (mask, this
 * CPU's bit included), cond_func then plays no further part; a CPU
 * cond_func leaves out is neither sent nor waited for.
 */
static unsigned long cond_mask(smp_cond_func_t cond_func, void *info)
{
	unsigned long mask = 0;

	BUILD_BUG_ON(NR_CPUS > BITS_PER_LONG);
	for (unsigned int cpu = 0; cpu < arch_nr_cpus(); cpu++)
		if ((cpu == arch_cpu_id() || cpu_online(cpu)) &&
		    cond_func(cpu, info))
			mask |= 1UL << cpu;
	return mask;
}

int on_each_cpu_cond(smp_cond_func_t cond_func, smp_call_func_t func,
		     void *info, bool wait)
{
	struct call_single_data csds[NR_CPUS];
	unsigned int this = arch_cpu_id();
	unsigned long mask, others;

	if (WARN(!func || !cond_func, "smp: call of a NULL function\n"))
		return -EINVAL;
	mask = cond_mask(cond_func, info);
	others = mask & ~(1UL << this);
	if (others && !may_send("on_each_cpu_cond"))
		return -EDEADLK;
	for (unsigned int cpu = 0; cpu < arch_nr_cpus(); cpu++)
		if (others & (1UL << cpu))
			send_csd(wait ? &csds[cpu] : NULL, cpu, func, info);
	if (mask & (1UL << this))
		run_local(func, info);
	for (unsigned int cpu = 0; wait && cpu < arch_nr_cpus(); cpu++)
		if (others & (1UL << cpu))
			csd_lock_wait(&csds[cpu], cpu);
	return 0;
}

/* The CALL_FUNCTION_VECTOR handler: run this CPU's queue, oldest first. */
static void call_function_interrupt(unsigned int vector)
{
	struct call_single_data *csd, *next, *list = NULL;

	(void)vector;
	csd = __atomic_exchange_n(&call_queues[arch_cpu_id()].first, NULL,
				  __ATOMIC_ACQUIRE);
	for (; csd; csd = next) {	/* reverse: the list is newest first */
		next = csd->next;
		csd->next = list;
		list = csd;
	}
	for (csd = list; csd; csd = next) {
		smp_call_func_t func = csd->func;
		void *info = csd->info;

		next = csd->next;
		if (csd_flags(csd) & CSD_FLAG_SYNC) {
			func(info);
			csd_unlock(csd);
		} else {
			csd_unlock(csd);	/* the sender may reuse it */
			func(info);
		}
	}
}

void call_function_init(void)
{
	BUG_ON(arch_set_irq_handler(CALL_FUNCTION_VECTOR,
				    call_function_interrupt));
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Cross-CPU function calls (kernel/smp.h), after Linux's smp.c.
 *
 * A request is a call_single_data (csd): the function, its argument and
 * a lock flag. Each CPU has a queue of requests, a lock-free singly
 * linked list (Linux's llist): a sender pushes with a compare-exchange
 * and sends CALL_FUNCTION_VECTOR to the CPU (arch_send_call_function_ipi);
 * the handler, in hardirq context with interrupts off, takes the whole
 * list with one exchange and runs it oldest first. Nothing here takes a
 * lock, so the handler may run anywhere the CPU has interrupts on.
 *
 * Synchronous requests (wait) live on the sender's stack for one target,
 * in the sender's cfd_csds row for many (Linux's cfd_data; the whole
 * call is one preempt_disable() section, so no work function on this
 * CPU reuses the row meanwhile); the handler clears their lock flag
 * after the function returned, and the sender waits for that.
 * Asynchronous ones use the sender's csd_data row, one per target: the
 * handler clears the flag before it calls the function (the csd may
 * then be reused), and a sender that finds its csd still locked from
 * the previous call waits first. A request queued on a CPU is taken at
 * its next interrupt-on window; every wait for it is bounded by
 * SMP_CALL_TIMEOUT_NS, then the CPU and the function are reported and
 * the kernel panics. The rows are nr_cpu_ids csds each, allocated for
 * every possible sender by call_function_init(): 2 * nr_cpu_ids^2
 * csds, not NR_CPUS^2. Claiming a csd, filling it and queueing it is one
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
#include "mm/slab.h"

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
/* Row sender * nr_cpu_ids: the async csds, the waited-for many-CPU csds. */
static struct call_single_data *csd_data, *cfd_csds;

unsigned int smp_processor_id(void)
{
	return arch_cpu_id();
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
	struct call_single_data *csd = &csd_data[arch_cpu_id() * nr_cpu_ids +
						 cpu];

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

static struct call_single_data *cfd_csd(unsigned int this, unsigned int cpu)
{
	return &cfd_csds[this * nr_cpu_ids + cpu];
}

/*
 * Run func on the CPUs of mask (this one's bit included or not), as
 * Linux's smp_call_function_many_cond(): queue it on the others (with
 * wait, in this CPU's cfd_csds row), run it here, then wait for them.
 * The caller checked that it may send.
 */
static void call_function_many(const struct cpumask *mask,
			       smp_call_func_t func, void *info, bool wait)
{
	unsigned int cpu, this;

	preempt_disable();
	this = arch_cpu_id();
	for_each_cpu(cpu, mask)
		if (cpu != this)
			send_csd(wait ? cfd_csd(this, cpu) : NULL, cpu, func,
				 info);
	if (cpumask_test_cpu(this, mask))
		run_local(func, info);
	if (wait)
		for_each_cpu(cpu, mask)
			if (cpu != this)
				csd_lock_wait(cfd_csd(this, cpu), cpu);
	preempt_enable();
}

/* The online CPUs but this one into *mask: false if there are none. */
static bool others_online(struct cpumask *mask)
{
	cpumask_copy(mask, cpu_online_mask);
	cpumask_clear_cpu(arch_cpu_id(), mask);
	return !cpumask_empty(mask);
}

int smp_call_function(smp_call_func_t func, void *info, bool wait)
{
	struct cpumask mask;

	if (WARN(!func, "smp: call of a NULL function\n"))
		return -EINVAL;
	if (!may_send("smp_call_function"))
		return -EDEADLK;
	if (others_online(&mask))
		call_function_many(&mask, func, info, wait);
	return 0;
}

int on_each_cpu(smp_call_func_t func, void *info, bool wait)
{
	struct cpumask mask;

	if (WARN(!func, "smp: call of a NULL function\n"))
		return -EINVAL;
	if (others_online(&mask) && !may_send("on_each_cpu"))
		return -EDEADLK;
	cpumask_set_cpu(arch_cpu_id(), &mask);
	call_function_many(&mask, func, info, wait);
	return 0;
}

/*
 * Linux's on_each_cpu_cond_mask: the CPUs are chosen first (mask, this
 * CPU's bit included), cond_func then plays no further part; a CPU
 * cond_func leaves out is neither sent nor waited for.
 */
static void cond_mask(struct cpumask *mask, smp_cond_func_t cond_func,
		      void *info)
{
	unsigned int cpu, this = arch_cpu_id();

	cpumask_clear(mask);
	for_each_online_cpu(cpu)
		if (cond_func(cpu, info))
			__cpumask_set_cpu(cpu, mask);
	/* This CPU is asked even where nothing has it online (the shim). */
	if (!cpu_online(this) && cond_func(this, info))
		__cpumask_set_cpu(this, mask);
}

int on_each_cpu_cond(smp_cond_func_t cond_func, smp_call_func_t func,
		     void *info, bool wait)
{
	struct cpumask mask, others;

	if (WARN(!func || !cond_func, "smp: call of a NULL function\n"))
		return -EINVAL;
	cond_mask(&mask, cond_func, info);
	cpumask_copy(&others, &mask);
	cpumask_clear_cpu(arch_cpu_id(), &others);
	if (!cpumask_empty(&others) && !may_send("on_each_cpu_cond"))
		return -EDEADLK;
	call_function_many(&mask, func, info, wait);
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

/* Every possible sender's csd rows (see the top); start_kernel(), once. */
void call_function_init(void)
{
	size_t n = (size_t)nr_cpu_ids * nr_cpu_ids;

	csd_data = kcalloc(n, sizeof(*csd_data), GFP_KERNEL);
	cfd_csds = kcalloc(n, sizeof(*cfd_csds), GFP_KERNEL);
	BUG_ON(!csd_data || !cfd_csds);
	percpu_account(2 * n * sizeof(*csd_data));
	BUG_ON(arch_set_irq_handler(CALL_FUNCTION_VECTOR,
				    call_function_interrupt));
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cross-CPU function calls (Linux's <linux/smp.h>).
 *
 *	smp_call_function_single(cpu, func, info, wait)
 *		run func(info) on cpu, in its CALL_FUNCTION_VECTOR handler
 *		(hardirq context, interrupts off); on this CPU: at once,
 *		with interrupts off.
 *	smp_call_function(func, info, wait)
 *		the same on every online CPU but this one.
 *	on_each_cpu(func, info, wait)
 *		on every online CPU, this one included (here with
 *		interrupts off, as the others run it).
 *	on_each_cpu_cond(cond_func, func, info, wait)
 *		as on_each_cpu(), on the CPUs for which cond_func(cpu, info)
 *		is true only; cond_func runs here, once per online CPU,
 *		before anything is sent (a drain asks "has this CPU
 *		anything cached?", so an idle CPU is not interrupted).
 *
 * wait: return only once func has returned everywhere. Without it the
 * call returns once the requests are queued and sent; a later call from
 * this CPU to the same CPU waits for the earlier request to be taken.
 *
 * Rules, as Linux's: func must be quick and must not sleep or wait for
 * another CPU. Whoever targets another CPU must have interrupts on and
 * must not be in an interrupt handler: two CPUs that call each other
 * with interrupts off would wait for each other for ever. Such a call is
 * a WARNING and returns -EDEADLK with nothing sent (nor run here, for
 * on_each_cpu() and on_each_cpu_cond()); a call that only targets this
 * CPU is allowed in any context (for on_each_cpu_cond(): one whose
 * cond_func is false for every other CPU). A CPU number that is not
 * online: -ENXIO. func or cond_func NULL: -EINVAL.
 * Every wait is bounded (SMP_CALL_TIMEOUT_NS): a CPU that has not run
 * the function by then is reported with the function's name, and the
 * kernel panics, so a lost interrupt is a clear failure, never a hang.
 */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include "kernel/cpumask.h"
#include "kernel/types.h"

typedef void (*smp_call_func_t)(void *info);
typedef bool (*smp_cond_func_t)(unsigned int cpu, void *info);

/* How long a call may wait for another CPU: generous, TCG is slow. */
#define SMP_CALL_TIMEOUT_NS	(20ULL * 1000 * 1000 * 1000)

int smp_call_function_single(unsigned int cpu, smp_call_func_t func,
			     void *info, bool wait);
int smp_call_function(smp_call_func_t func, void *info, bool wait);
int on_each_cpu(smp_call_func_t func, void *info, bool wait);
int on_each_cpu_cond(smp_cond_func_t cond_func, smp_call_func_t func,
		     void *info, bool wait);

/* This CPU's number (cpu_online(): kernel/cpumask.h). */
unsigned int smp_processor_id(void);

/*
 * Does on_each_cpu() run on cpu: this CPU, or another online one? A
 * drain does the others (the malloc shim's CPUs) from the caller.
 */
static inline bool on_each_cpu_reaches(unsigned int cpu)
{
	return cpu == smp_processor_id() || cpu_online(cpu);
}

/* Installs the CALL_FUNCTION_VECTOR handler; start_kernel(), once. */
void call_function_init(void);

#endif /* KERNEL_SMP_H */

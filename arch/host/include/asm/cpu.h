/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arch interface's hot functions for the host build, inline (see
 * arch/arch.h). A CPU is a thread: its number lives in a thread-local
 * variable set when the thread starts. There are no interrupts to mask.
 */
#ifndef ASM_HOST_CPU_H
#define ASM_HOST_CPU_H

extern __thread unsigned int host_cpu_id;

static inline unsigned long arch_irq_save(void)
{
	__asm__ __volatile__("" ::: "memory");
	return 0;
}

static inline void arch_irq_restore(unsigned long flags)
{
	(void)flags;
	__asm__ __volatile__("" ::: "memory");
}

static inline void arch_cpu_relax(void)
{
	__asm__ __volatile__("pause");
}

static inline unsigned int arch_cpu_id(void)
{
	return host_cpu_id;
}

#endif /* ASM_HOST_CPU_H */

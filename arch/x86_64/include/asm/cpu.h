/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arch interface's hot functions for x86_64, inline (see arch/arch.h):
 * interrupt flags, the CPU number, the spin-wait hint, the hardirq count. The build puts
 * this directory on the include path as <asm/...>, like Linux.
 */
#ifndef ASM_X86_64_CPU_H
#define ASM_X86_64_CPU_H

static inline unsigned long arch_irq_save(void)
{
	unsigned long flags;

	__asm__ __volatile__("pushfq; popq %0; cli" : "=r"(flags) : : "memory");
	return flags;
}

static inline void arch_irq_restore(unsigned long flags)
{
	__asm__ __volatile__("pushq %0; popfq" : : "r"(flags) : "memory", "cc");
}

#define X86_EFLAGS_TF	(1UL << 8)
#define X86_EFLAGS_IF	(1UL << 9)

static inline void arch_irq_enable(void)
{
	__asm__ __volatile__("sti" : : : "memory");
}

/* Would arch_irq_restore(flags) leave interrupts off? */
static inline bool arch_irqs_disabled_flags(unsigned long flags)
{
	return !(flags & X86_EFLAGS_IF);
}

static inline bool arch_irqs_disabled(void)
{
	unsigned long flags;

	__asm__ __volatile__("pushfq; popq %0" : "=r"(flags) : : "memory");
	return !(flags & X86_EFLAGS_IF);
}

static inline void arch_cpu_relax(void)
{
	__asm__ __volatile__("pause");
}

/*
 * This CPU's number, from its per-CPU area (struct x86_percpu,
 * arch/x86_64/x86.h), which the GS base points at: one %gs-relative load,
 * as Linux's this_cpu_read(). The number sits at offset 0. Not volatile:
 * code never changes CPU, so the compiler may reuse the value. The boot
 * CPU's GS base is set in boot/entry.S before any C code runs, an AP's
 * by the trampoline before start_secondary().
 */
#define X86_PERCPU_CPU_NUMBER	0

static inline unsigned int arch_cpu_id(void)
{
	unsigned int cpu;

	__asm__("movl %%gs:%c1, %0" : "=r"(cpu) : "i"(X86_PERCPU_CPU_NUMBER));
	return cpu;
}

/* Interrupt handlers each CPU is inside (arch/x86_64/irq.c). */
extern unsigned int x86_hardirq_count[];

static inline unsigned int arch_hardirq_count(void)
{
	return __atomic_load_n(&x86_hardirq_count[arch_cpu_id()],
			       __ATOMIC_RELAXED);
}

#endif /* ASM_X86_64_CPU_H */

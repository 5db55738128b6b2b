/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arch interface's hot functions for the host build, inline (see
 * arch/arch.h). A CPU is a thread: its number lives in a thread-local
 * variable set when the thread starts. There are no interrupts to mask.
 */
#ifndef ASM_HOST_CPU_H
#define ASM_HOST_CPU_H

/*
 * local-exec: the program is one executable, so the variable sits at a
 * fixed offset from %fs and arch_cpu_id() is one load, as this_cpu_read()
 * is on Linux's %gs, instead of loading that offset first.
 */
#ifndef HOST_TLS_MODEL
#define HOST_TLS_MODEL "local-exec"
#endif
/*
 * The malloc shim (bench/shim/) links this code into a shared object,
 * where local-exec is impossible: it builds with HOST_TLS_MODEL
 * "initial-exec" (static TLS, fine for a preloaded library).
 */
extern __thread unsigned int host_cpu_id __attribute__((tls_model(HOST_TLS_MODEL)));

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

/* No interrupts on the host: every context is as if they were off. */
static inline bool arch_irqs_disabled(void)
{
	return true;
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

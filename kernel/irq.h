/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interrupts as kernel code sees them (Linux's <linux/irqflags.h>,
 * <linux/preempt.h> and a vector table).
 *
 * An interrupt is a vector 0x20-0xff. On x86_64 it comes through the
 * local APIC (arch/x86_64/apic.c); on the host it is a signal held back
 * by a soft interrupt flag (arch/host/irq.c). Either way the arch's entry
 * code counts itself in hardirq context, calls handle_irq_vector() with
 * interrupts off, and acknowledges the interrupt when it returns.
 *
 * A driver or a test claims a vector with set_irq_handler() (vectors
 * FIRST_EXTERNAL_VECTOR .. FIRST_SYSTEM_VECTOR - 1; the top ones are the
 * arch's own: the APIC's error and spurious vectors). A vector that
 * arrives with no handler is counted and reported once per vector; the
 * spurious vector is only counted (irq_vector_count()).
 */
#ifndef KERNEL_IRQ_H
#define KERNEL_IRQ_H

#include "kernel/types.h"
#include "kernel/lockdep.h"
#include "arch/arch.h"

#define NR_VECTORS		256
#define FIRST_EXTERNAL_VECTOR	0x20	/* below: CPU exceptions */
#define FIRST_SYSTEM_VECTOR	0xec	/* from here: the arch's own */
#define LOCAL_TIMER_VECTOR	0xec	/* the tick (kernel/time.c) */
#define CALL_FUNCTION_VECTOR	0xfb	/* smp_call_function() */
#define RESCHEDULE_VECTOR	0xfc	/* wake an idle CPU for new work */
#define ERROR_APIC_VECTOR	0xfe
#define SPURIOUS_APIC_VECTOR	0xff

typedef void (*irq_handler_t)(unsigned int vector);

/*
 * Install handler for vector (NULL removes it). 0; -EINVAL for a vector
 * outside [FIRST_EXTERNAL_VECTOR, FIRST_SYSTEM_VECTOR); -EBUSY if the
 * vector already has a handler.
 */
int set_irq_handler(unsigned int vector, irq_handler_t handler);
/* The same for the arch's system vectors, at boot. */
int arch_set_irq_handler(unsigned int vector, irq_handler_t handler);

/* Called by the arch's entry code, in hardirq context, interrupts off. */
void handle_irq_vector(unsigned int vector);

/* How often vector arrived (handled or not), and how many had no handler. */
unsigned long irq_vector_count(unsigned int vector);
unsigned long irq_unhandled_count(void);

/* Context and interrupt state of this CPU. */
static inline bool in_hardirq(void)
{
	return arch_hardirq_count() != 0;
}

/* No softirqs or NMI handlers that call into the kernel exist yet. */
static inline bool in_interrupt(void)
{
	return in_hardirq();
}

static inline bool irqs_disabled(void)
{
	return arch_irqs_disabled();
}

/*
 * Interrupts on again: the lock validator marks the locks still held
 * (kernel/lockdep.h); the hooks take their call site from their return
 * address, so these are always inline.
 */
#define local_irq_save(flags)	((flags) = arch_irq_save())

static __always_inline void local_irq_restore(unsigned long flags)
{
	if (IS_ENABLED(CONFIG_PROVE_LOCKING) && !arch_irqs_disabled_flags(flags))
		lockdep_hardirqs_on();
	arch_irq_restore(flags);
}

static inline void local_irq_disable(void)
{
	arch_irq_save();
}

static __always_inline void local_irq_enable(void)
{
	if (IS_ENABLED(CONFIG_PROVE_LOCKING))
		lockdep_hardirqs_on();
	arch_irq_enable();
}

#endif /* KERNEL_IRQ_H */

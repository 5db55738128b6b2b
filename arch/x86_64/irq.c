// SPDX-License-Identifier: GPL-2.0
/*
 * External interrupts on x86_64: the C side of the stubs for vectors
 * 0x20-0xff (entry_64.S) and arch_irq_init().
 *
 * do_IRQ() runs on the interrupted stack with interrupts off (interrupt
 * gates), first rewinds an interrupted restartable sequence to its
 * restart (kernel/rseq.h: every external interrupt, the tick and IPIs
 * come through here; exceptions and NMIs do not), counts itself in this
 * CPU's hardirq count, calls the vector's handler through
 * handle_irq_vector() (kernel/irq.c) and sends the local APIC an EOI,
 * except for the APIC's spurious vector, which is never in service (its
 * handler in apic.c decides). Interrupts come back on with the iretq.
 * Before that, an interrupt that came in with interrupts on (so not
 * nested in another handler) runs this CPU's queued work, interrupts on
 * (kernel/workqueue.h).
 */
#include "arch/x86_64/x86.h"
#include "kernel/bug.h"
#include "kernel/irq.h"
#include "kernel/printk.h"
#include "kernel/rseq.h"
#include "kernel/workqueue.h"

unsigned int x86_hardirq_count[NR_CPUS];

void do_IRQ(struct pt_regs *regs)
{
	unsigned int cpu = arch_cpu_id(), vector = (unsigned int)regs->vector;

	rseq_fixup_ip(&regs->rip);	/* before any handler runs */
	__atomic_store_n(&x86_hardirq_count[cpu], x86_hardirq_count[cpu] + 1,
			 __ATOMIC_RELAXED);
	handle_irq_vector(vector);
	__atomic_store_n(&x86_hardirq_count[cpu], x86_hardirq_count[cpu] - 1,
			 __ATOMIC_RELAXED);
	if (vector != SPURIOUS_APIC_VECTOR)
		apic_eoi();
	/* Back to a context with interrupts on, no handler below: work. */
	if (regs->rflags & X86_EFLAGS_IF)
		workqueue_irq_exit();
}

/* After mm_core_init(): the 8259A masked, the local APIC on, sti. */
void arch_irq_init(void)
{
	int err;

	BUG_ON(!arch_irqs_disabled());
	init_8259A();
	pic_register_spurious();
	err = apic_init();	/* mapped by setup_arch() */
	if (err)
		panic("APIC: no usable local APIC (%d): interrupts cannot be enabled",
		      err);
	setup_boot_APIC_clock();
	arch_irq_enable();
	pr_info("APIC: local APIC enabled, 8259A masked, interrupts on\n");
}

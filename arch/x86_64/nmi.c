// SPDX-License-Identifier: GPL-2.0
/*
 * NMIs, and stopping the other CPUs for a panic.
 *
 * The only NMI this kernel sends is the panic's: arch_stop_other_cpus()
 * sets stop_cpus_requested, sends an NMI to every other online CPU
 * through its local APIC and waits, bounded, until each has counted
 * itself in cpus_stopped. An NMI is taken even with interrupts off, so a
 * CPU spinning on a lock with interrupts off stops as well; each stops
 * inside its NMI handler (cli; hlt, and no iret, so no further NMI is
 * taken). Any other NMI (a hardware error, LINT1) is a fatal exception,
 * reported by do_exception() as before.
 */
#include "arch/x86_64/x86.h"
#include "kernel/cpumask.h"
#include "kernel/compiler.h"
#include "arch/arch.h"

static bool stop_cpus_requested;
static unsigned int cpus_stopped;

/* From do_exception() on an NMI: true if it was the panic's stop. */
bool x86_nmi_stop(void)
{
	if (!READ_ONCE(stop_cpus_requested))
		return false;
	__atomic_fetch_add(&cpus_stopped, 1, __ATOMIC_SEQ_CST);
	arch_halt();
}

unsigned int arch_stop_other_cpus(unsigned long timeout_us)
{
	unsigned int this = arch_cpu_id(), want = num_online_cpus() - 1, cpu;
	u64 end = arch_cycles() + tsc_us_to_cycles(timeout_us);

	if (!want)
		return 0;
	WRITE_ONCE(stop_cpus_requested, true);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for_each_online_cpu(cpu)
		if (cpu != this)
			apic_send_nmi(x86_percpu[cpu].apic_id);
	while (__atomic_load_n(&cpus_stopped, __ATOMIC_SEQ_CST) < want &&
	       arch_cycles() < end)
		arch_cpu_relax();
	return want - min(want, __atomic_load_n(&cpus_stopped,
						 __ATOMIC_SEQ_CST));
}

__noreturn void arch_stop_this_cpu(void)
{
	arch_halt();
}

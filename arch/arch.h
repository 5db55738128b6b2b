/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arch interface: everything kernel/ and mm/ may ask of the machine.
 *
 * Two implementations exist. arch/x86_64/ runs on the (virtual) machine:
 * a 16550 UART for the console, the TSC for time, QEMU's isa-debug-exit
 * device to end a run. arch/host/ runs the same kernel code as an ordinary
 * Linux process (as Linux's arch/um does): stdio for the console,
 * clock_gettime for time, exit() to end the run. Nothing outside arch/
 * knows which one it is linked with.
 */
#ifndef ARCH_ARCH_H
#define ARCH_ARCH_H

#include "kernel/types.h"

/* How a run ends; the harness reads this as the run's verdict. */
enum arch_exit_status {
	ARCH_EXIT_SUCCESS = 0,
	ARCH_EXIT_FAILURE = 1,
};

/* Name of the platform, printed in the boot banner. */
extern const char arch_name[];

/* Console: write bytes (never fails), read one byte (blocks; -1 at EOF). */
void arch_console_write(const char *s, size_t len);
int arch_console_getc(void);

/* Nanoseconds since boot, and a raw cycle counter. */
u64 arch_clock_ns(void);
u64 arch_cycles(void);

/* The kernel command line handed over by the boot loader (never NULL). */
const char *arch_cmdline(void);

/* End the run (QEMU exits, or the process exits) with a status. */
__noreturn void arch_exit(enum arch_exit_status status);

/* Stop this CPU for good, interrupts off. */
__noreturn void arch_halt(void);

/*
 * Reset at once, without a report or a clean shutdown: a triple fault on
 * x86_64 (QEMU with -no-reboot then exits with status 0), abort() on the
 * host. The test harness uses it to prove it notices a silent reset.
 */
__noreturn void arch_emergency_restart(void);

/*
 * True if [addr, addr + size) lies on the current kernel stack, so a
 * frame-pointer walk can follow it without faulting.
 */
bool arch_on_stack(unsigned long addr, size_t size);

/* Interrupt state, for the rare section that must not be interrupted. */
unsigned long arch_irq_save(void);
void arch_irq_restore(unsigned long flags);

/* Spin-wait hint (pause). */
void arch_cpu_relax(void);

#endif /* ARCH_ARCH_H */

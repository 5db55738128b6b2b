// SPDX-License-Identifier: GPL-2.0
/*
 * panic, BUG, WARN and stack dumps.
 *
 * panic() prints its message and the call chain, then ends the run with a
 * failure status (QEMU exits; the host process exits): a dead kernel that
 * kept QEMU running would only look like a hang to the test harness.
 *
 * With several CPUs, the first CPU to panic owns the end of the log
 * (panic_cpu, claimed by compare-and-swap, as Linux's). Before it prints
 * anything it stops every other CPU where it stands (arch_stop_other_cpus():
 * an NMI on x86_64, so a CPU spinning with interrupts off stops too), and
 * only then takes printk's lock away from whoever held it: no line of
 * another CPU can follow the panic's. A CPU that panics, or takes a fatal
 * exception, while another CPU's panic runs stops itself silently
 * (panic_smp_self_stop()); a panic while panicking on the same CPU prints
 * one line and ends the run at once.
 */
#include "kernel/bug.h"
#include "kernel/compiler.h"
#include "kernel/lockdep.h"
#include "kernel/printk.h"
#include "kernel/report.h"
#include "kernel/stacktrace.h"
#include "lib/sprintf.h"
#include "arch/arch.h"

#define MAX_STACK_DEPTH	32
#define PANIC_CPU_INVALID	(-1)
#define STOP_CPUS_TIMEOUT_US	1000000	/* TCG with 4 vCPUs is slow */

unsigned long warn_count;

void show_stack(unsigned long ip, unsigned long bp)
{
	unsigned long entries[MAX_STACK_DEPTH];
	unsigned int nr = stack_trace_save_bp(bp, entries, MAX_STACK_DEPTH, 0);

	pr_err("Call Trace:\n");
	if (ip)
		pr_err(" [<%016lx>] %pS\n", ip, (void *)ip);
	/* Return addresses point after the call: show the call. */
	for (unsigned int i = 0; i < nr; i++)
		pr_err(" [<%016lx>] %pS\n", entries[i],
		       (void *)(entries[i] - 1));
}

/*
 * Linux's first line names the task; there are no tasks yet, so it names
 * what Linux calls the kernel's own context, the idle task (PID 0).
 */
__noinline void dump_stack(void)
{
	pr_err("CPU: %u PID: 0 Comm: swapper/%u\n", arch_cpu_id(),
	       arch_cpu_id());
	show_stack(0, (unsigned long)__builtin_frame_address(0));
}

static int panic_cpu = PANIC_CPU_INVALID;

/* Another CPU's panic owns the log: stop here, interrupts off, for good. */
static __noreturn void panic_smp_self_stop(void)
{
	arch_stop_this_cpu();
}

/*
 * Make this CPU the one that ends the run: stop the others, then free
 * printk's lock. Returns false if this CPU already owned the panic (a
 * panic inside the panic). Does not return if another CPU owns it.
 */
bool panic_begin(void)
{
	int this = (int)arch_cpu_id(), old = PANIC_CPU_INVALID;
	unsigned int left;

	arch_irq_save();
	if (!__atomic_compare_exchange_n(&panic_cpu, &old, this, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		if (old != this)
			panic_smp_self_stop();
		printk_bust_lock();
		return false;
	}
	debug_locks_off();	/* the locks held now are never released */
	left = arch_stop_other_cpus(STOP_CPUS_TIMEOUT_US);
	printk_bust_lock();	/* its holder, if any, is stopped */
	if (left)
		pr_emerg("smp: %u CPU%s did not stop\n", left,
			 left == 1 ? "" : "s");
	return true;
}

__noreturn void panic(const char *fmt, ...)
{
	char msg[256];
	va_list args;

	if (!panic_begin()) {
		pr_emerg("Kernel panic - not syncing: recursive panic\n");
		arch_exit(ARCH_EXIT_FAILURE);
	}
	va_start(args, fmt);
	vscnprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	pr_emerg("Kernel panic - not syncing: %s\n", msg);
	dump_stack();
	pr_emerg("---[ end Kernel panic - not syncing: %s ]---\n", msg);
	arch_exit(ARCH_EXIT_FAILURE);
}

__noreturn void __bug(const char *file, int line)
{
	pr_emerg("------------[ cut here ]------------\n");
	pr_emerg("kernel BUG at %s:%d!\n", file, line);
	panic("BUG at %s:%d", file, line);
}

void __warn(const char *file, int line, unsigned long caller,
	    const char *fmt, ...)
{
	va_list args;

	__atomic_fetch_add(&warn_count, 1, __ATOMIC_RELAXED);
	report_kind(REPORT_WARN);
	pr_warn("------------[ cut here ]------------\n");
	if (fmt) {
		char msg[256];

		va_start(args, fmt);
		vscnprintf(msg, sizeof(msg), fmt, args);
		va_end(args);
		pr_warn("%s", msg);
	}
	pr_warn("WARNING: CPU: %u PID: 0 at %s:%d %pS\n",
		arch_cpu_id(), file, line, (void *)caller);
	dump_stack();
	pr_warn("---[ end trace ]---\n");
}

// SPDX-License-Identifier: GPL-2.0
/*
 * panic, BUG, WARN and stack dumps.
 *
 * panic() prints its message and the call chain, then ends the run with a
 * failure status (QEMU exits; the host process exits): a dead kernel that
 * kept QEMU running would only look like a hang to the test harness. A
 * panic while panicking stops the CPU at once.
 */
#include "kernel/bug.h"
#include "kernel/lockdep.h"
#include "kernel/printk.h"
#include "kernel/report.h"
#include "lib/sprintf.h"
#include "arch/arch.h"

#define MAX_STACK_DEPTH	32

unsigned long warn_count;

/* Layout of a frame on x86_64 with frame pointers: saved rbp, then rip. */
struct stack_frame {
	struct stack_frame *next;
	unsigned long ret;
};

void show_stack(unsigned long ip, unsigned long bp)
{
	const struct stack_frame *frame = (const struct stack_frame *)bp;

	printk(KERN_ERR "Call Trace:\n");
	if (ip)
		printk(KERN_ERR " [<%016lx>] %pS\n", ip, (void *)ip);
	for (int depth = 0; depth < MAX_STACK_DEPTH; depth++) {
		if (!frame || !IS_ALIGNED((unsigned long)frame, sizeof(long)) ||
		    !arch_on_stack((unsigned long)frame, sizeof(*frame)))
			break;
		if (!frame->ret)
			break;
		/* Return addresses point after the call: show the call. */
		printk(KERN_ERR " [<%016lx>] %pS\n", frame->ret,
		       (void *)(frame->ret - 1));
		if (frame->next <= frame)
			break;
		frame = frame->next;
	}
}

/*
 * Linux's first line names the task; there are no tasks yet, so it names
 * what Linux calls the kernel's own context, the idle task (PID 0).
 */
__noinline void dump_stack(void)
{
	printk(KERN_ERR "CPU: %u PID: 0 Comm: swapper/%u\n", arch_cpu_id(),
	       arch_cpu_id());
	show_stack(0, (unsigned long)__builtin_frame_address(0));
}

__noreturn void panic(const char *fmt, ...)
{
	static bool in_panic;
	char msg[256];
	va_list args;

	arch_irq_save();
	debug_locks_off();	/* the locks held now are never released */
	printk_bust_lock();
	if (in_panic) {
		printk(KERN_EMERG "Kernel panic - not syncing: recursive panic\n");
		arch_exit(ARCH_EXIT_FAILURE);
	}
	in_panic = true;
	va_start(args, fmt);
	vscnprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	printk(KERN_EMERG "Kernel panic - not syncing: %s\n", msg);
	dump_stack();
	printk(KERN_EMERG "---[ end Kernel panic - not syncing: %s ]---\n", msg);
	arch_exit(ARCH_EXIT_FAILURE);
}

__noreturn void __bug(const char *file, int line)
{
	printk(KERN_EMERG "------------[ cut here ]------------\n");
	printk(KERN_EMERG "kernel BUG at %s:%d!\n", file, line);
	panic("BUG at %s:%d", file, line);
}

void __warn(const char *file, int line, unsigned long caller,
	    const char *fmt, ...)
{
	va_list args;

	warn_count++;
	report_kind(REPORT_WARN);
	printk(KERN_WARNING "------------[ cut here ]------------\n");
	if (fmt) {
		char msg[256];

		va_start(args, fmt);
		vscnprintf(msg, sizeof(msg), fmt, args);
		va_end(args);
		printk(KERN_WARNING "%s", msg);
	}
	printk(KERN_WARNING "WARNING: CPU: %u PID: 0 at %s:%d %pS\n",
	       arch_cpu_id(), file, line, (void *)caller);
	dump_stack();
	printk(KERN_WARNING "---[ end trace ]---\n");
}

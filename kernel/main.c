// SPDX-License-Identifier: GPL-2.0
/*
 * start_kernel: the generic half of boot. The arch has set up the console,
 * traps and the clock; from here the kernel reads the memory map, parses
 * its command line (mem= and memmap= edit the map), brings up memory
 * (mm/mm_init.c), turns interrupts on, then either runs what the command
 * line asks for instead of the shell (the tests, the fuzzer or the
 * benchmarks: boot_run() in kernel/params.h), which ends the run with its
 * verdict, or starts the shell.
 */
#include "kernel/kernel.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/rcupdate.h"
#include "kernel/rseq.h"
#include "kernel/smp.h"
#include "kernel/shell.h"
#include "kernel/time.h"
#include "kernel/workqueue.h"
#include "mm/kfence.h"
#include "mm/mm.h"
#include "mm/percpu.h"
#include "mm/slab_reap.h"
#include "arch/arch.h"

__noreturn void start_kernel(void)
{
	boot_cpu_init();	/* possible, present and online */
	pr_notice("%s version %s (%s) on %s\n", KERNEL_NAME, KERNEL_VERSION,
		  __VERSION__, arch_name);
	pr_notice("Command line: %s\n", arch_cmdline());
	arch_memory_setup();
	parse_early_params(arch_cmdline());
	arch_memblock_setup();
	setup_arch();
	rcu_init();		/* this CPU in the grace periods (the APs are) */
	mm_core_init();
	percpu_init();		/* alloc_percpu() from here */
	init_timers();
	rseq_table_init();	/* before the first interrupt */
	arch_irq_init();	/* interrupts on from here */
	workqueue_init();
	call_function_init();
	percpu_print();		/* what per-CPU data took, sized at boot */
	time_init();		/* every CPU ticks from here */
	cache_reap_init();	/* caches trim themselves from here */
	kfence_init();		/* sampled allocations from here */

	for (size_t i = 0; __start_boot_runs + i < __stop_boot_runs; i++)
		__start_boot_runs[i]();	/* returns only if not asked for */
	shell_run();
	arch_exit(ARCH_EXIT_SUCCESS);
}

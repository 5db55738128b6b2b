// SPDX-License-Identifier: GPL-2.0
/*
 * start_kernel: the generic half of boot. The arch has set up the console,
 * traps and the clock; from here the kernel reads the memory map, parses
 * its command line (mem= and memmap= edit the map), brings up memory
 * (mm/mm_init.c), turns interrupts on, then either runs the tests ("ktest") and ends the run
 * with their verdict, or starts the shell.
 */
#include "bench/bench.h"
#include "fuzz/fuzz.h"
#include "kernel/kernel.h"
#include "lib/ktest/ktest.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/rcupdate.h"
#include "kernel/smp.h"
#include "kernel/shell.h"
#include "kernel/time.h"
#include "kernel/workqueue.h"
#include "mm/mm.h"
#include "mm/slab_reap.h"
#include "arch/arch.h"

static bool ktest_requested, bench_requested;
static const char *ktest_glob, *bench_glob;

static int ktest_setup(char *val)
{
	ktest_requested = true;
	ktest_glob = val;
	return 0;
}
kernel_param("ktest", ktest_setup);

static int bench_setup(char *val)
{
	bench_requested = true;
	bench_glob = val;
	return 0;
}
kernel_param("bench", bench_setup);

static __noreturn void run_tests(void)
{
	int failed = ktest_run(ktest_glob);
	unsigned long site;
	u64 blocked = workqueue_max_blocked_ns(&site);

	pr_info("workqueue: the longest wait of work for a safe point: %llu us, ended at %pS\n",
		(unsigned long long)(blocked / 1000), (void *)site);
	if (failed)
		pr_err("ktest: %d tests failed\n", failed);
	else
		pr_info("ktest: all tests passed\n");
	arch_exit(failed ? ARCH_EXIT_FAILURE : ARCH_EXIT_SUCCESS);
}

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
	init_timers();
	arch_irq_init();	/* interrupts on from here */
	workqueue_init();
	call_function_init();
	percpu_print();		/* what per-CPU data took, sized at boot */
	time_init();		/* every CPU ticks from here */
	cache_reap_init();	/* caches trim themselves from here */

	if (ktest_requested)
		run_tests();
	if (bench_requested) {
		bench_run(bench_glob);
		arch_exit(ARCH_EXIT_SUCCESS);
	}
	fuzz_boot();		/* fuzz= or fuzzfile=: runs, then exits */
	shell_run();
	arch_exit(ARCH_EXIT_SUCCESS);
}

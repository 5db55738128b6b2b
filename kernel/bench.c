// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark runner (see kernel/bench.h): warm-up run, timed run,
 * one BENCH line each. Registered under the "bench" parameter and shell
 * command.
 */
#include "kernel/bench.h"
#include "kernel/errno.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
#include "kernel/string.h"
#include "arch/arch.h"

extern const struct bench_case *const __start_benches[] __weak;
extern const struct bench_case *const __stop_benches[] __weak;

static void run_one(const struct bench_case *b)
{
	u64 ns, cycles;
	unsigned long ops;

	b->run();				/* warm-up, untimed */
	ns = arch_clock_ns();
	cycles = arch_cycles();
	ops = b->run();
	cycles = arch_cycles() - cycles;
	ns = arch_clock_ns() - ns;
	if (!ops)
		ops = 1;
	console_printf("BENCH %-28s %8llu.%03llu %8llu\n", b->name,
		       (unsigned long long)(ns / ops),
		       (unsigned long long)(ns * 1000 / ops % 1000),
		       (unsigned long long)(cycles / ops));
}

void bench_run(const char *glob)
{
	console_printf("# bench on %s: name, ns/op, cycles/op (under QEMU's TCG both are emulated: compare only like with like)\n",
		       arch_name);
	for (const struct bench_case *const *b = __start_benches;
	     b < __stop_benches; b++) {
		if (!glob || glob_match(glob, (*b)->name))
			run_one(*b);
	}
	console_printf("# bench done\n");
}

static int cmd_bench(int argc, char **argv)
{
	if (argc > 2) {
		console_printf("usage: bench [GLOB]\n");
		return -EINVAL;
	}
	bench_run(argc == 2 ? argv[1] : NULL);
	return 0;
}
SHELL_CMD("bench", cmd_bench, "run the allocator benchmarks: bench [glob]");

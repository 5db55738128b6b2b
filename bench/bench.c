// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark runner (see bench/bench.h): in name order, a warm-up
 * run, bench_reps timed runs, one BENCH line each with the fastest.
 * Registered under the "bench" parameter and shell command; bench_reps=
 * sets the repetitions (1 by default).
 */
#include "bench/bench.h"
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "arch/arch.h"

extern const struct bench_case *const __start_benches[] __weak;
extern const struct bench_case *const __stop_benches[] __weak;

long bench_peak_kb, bench_base_kb;
static unsigned long bench_reps = 1;

int bench_set_reps(char *val)
{
	unsigned long reps;

	if (!val || kstrtoul(val, 10, &reps) || !reps || reps > BENCH_MAX_REPS)
		return -EINVAL;
	bench_reps = reps;
	return 0;
}
kernel_param("bench_reps", bench_set_reps);

unsigned long bench_get_reps(void)
{
	return bench_reps;
}

long bench_mem_kb(void)
{
	return nr_allocated_pages() * (long)(PAGE_SIZE >> 10);
}

static const struct bench_case *next_bench(const struct bench_case *prev)
{
	return next_by_name((const void *const *)__start_benches,
			    (const void *const *)__stop_benches, prev);
}

/*
 * The fastest of reps timed runs after an untimed one: interference from
 * the rest of a shared machine only ever adds time. The peak is the
 * largest any timed run recorded.
 */
void bench_measure(const struct bench_case *b, unsigned long reps,
		   struct bench_result *res)
{
	BUG_ON(!reps);
	res->ns = U64_MAX;
	res->cycles = 0;
	res->ops = 1;
	res->peak_kb = 0;
	b->run();				/* warm-up, untimed */
	for (unsigned long rep = 0; rep < reps; rep++) {
		unsigned long ops;
		u64 ns, cycles;

		bench_peak_kb = 0;
		ns = arch_clock_ns();
		cycles = arch_cycles();
		ops = b->run();
		cycles = arch_cycles() - cycles;
		ns = arch_clock_ns() - ns;
		res->peak_kb = max(res->peak_kb, bench_peak_kb);
		if (ns < res->ns) {
			res->ns = ns;
			res->cycles = cycles;
			res->ops = ops ? ops : 1;
		}
	}
}

static void run_one(const struct bench_case *b)
{
	struct bench_result res;

	bench_measure(b, bench_reps, &res);
	console_printf("BENCH %-28s %8llu.%03llu %8llu %8ld\n", b->name,
		       (unsigned long long)(res.ns / res.ops),
		       (unsigned long long)(res.ns * 1000 / res.ops % 1000),
		       (unsigned long long)(res.cycles / res.ops), res.peak_kb);
}

void bench_run(const char *glob)
{
	console_printf("# bench on %s: name, ns/op, cycles/op, peak KiB (under QEMU's TCG time and cycles are emulated: compare only like with like)\n",
		       arch_name);
	bench_base_kb = bench_mem_kb();
	for (const struct bench_case *b = next_bench(NULL); b; b = next_bench(b)) {
		if (!glob || glob_match(glob, b->name))
			run_one(b);
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

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Benchmarks: named workloads registered at link time with
 * BENCH(name, fn). fn runs its workload and returns how many operations
 * it did; the runner runs each once untimed (warm-up), then bench_reps
 * times timed (bench_reps=, 1 by default), and prints one line per
 * benchmark with the fastest run:
 *
 *	BENCH <name> <ns per op> <cycles per op> <peak KiB>
 *
 * On the host the nanoseconds are real; under QEMU's TCG both numbers
 * are emulated and only compare runs of the same build on one machine.
 * Booted with "bench" (or the shell command) the kernel runs them all.
 */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

#include "kernel/types.h"

struct bench_case {
	const char *name;
	unsigned long (*run)(void);
};

_Static_assert(offsetof(struct bench_case, name) == 0,
	       "next_by_name() needs the name first");

#define BENCH(bname, fn)						\
	static const struct bench_case __bench_##fn = {		\
		.name = bname, .run = fn,				\
	};								\
	static const struct bench_case *const __bench_ptr_##fn		\
	__used __section("benches") = &__bench_##fn

/*
 * Set by a workload: KiB held at its peak above bench_base_kb, what was
 * held when the runner started (0: not measured).
 */
extern long bench_peak_kb, bench_base_kb;

/* Memory the allocators hold now, in KiB (pages in use). */
long bench_mem_kb(void);

/* Run the benchmarks whose name matches glob (NULL: all). */
void bench_run(const char *glob);

#define BENCH_MAX_REPS	100

/* What bench_measure() found: the fastest timed run, the largest peak. */
struct bench_result {
	u64 ns, cycles;		/* of the fastest run */
	unsigned long ops;	/* it did (at least 1) */
	long peak_kb;		/* the largest bench_peak_kb of any run */
};

/* Run b once untimed, then reps times timed. */
void bench_measure(const struct bench_case *b, unsigned long reps,
		   struct bench_result *res);

/* The bench_reps= parameter: "1".."100", else -EINVAL and no change. */
int bench_set_reps(char *val);
unsigned long bench_get_reps(void);

#endif /* BENCH_BENCH_H */

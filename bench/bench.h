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
 *
 * Then, with more than one CPU (and bench_smp=0 not given), the ones
 * registered with BENCH_ALL_CPUS() run once more on every CPU at once,
 * one line per CPU and one for all of them:
 *
 *	BENCH_CPU <name> <cpu> <ops/s of that CPU, in its own time>
 *	BENCH_ALL <name> <cpus> <ops/s of all, over the wall time>
 *
 * A case that needs NUMA nodes (BENCH_NODES(), BENCH_SCALE_NODES())
 * prints instead, where there are fewer online nodes:
 *
 *	# <name>: needs <N> NUMA nodes (numa=fake=<N>), skipped
 *
 * Scaling cases (BENCH_SCALE()) run on 1, 2 and all CPUs at once
 * (bench_cpus= lowers "all"), every CPU doing the same work, and print
 * per CPU count K the usual line (ns/op over the wall time, all CPUs'
 * operations), each CPU's throughput, and the total with the scaling
 * efficiency, ops/s(K) / (K * ops/s(1)); then the same per second of
 * CPU time (arch_cpu_time_ns(): on a shared host, without the time other
 * work held the CPUs), whose efficiency is ops/cpu-s(K) / ops/cpu-s(1):
 *
 *	BENCH <name>_t<K> <ns per op> <cycles per op> 0
 *	BENCH_SCALE_CPU <name>_t<K> <cpu> <ops/s in its own time> <ops/cpu-s>
 *	BENCH_SCALE <name>_t<K> <K> <ops/s of all, over the wall time> <eff>%
 *		<ops/cpu-s of all> <eff>%
 */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

#include "kernel/types.h"
#include "arch/arch.h"

struct bench_all_result;

struct bench_case {
	const char *name;
	unsigned long (*run)(void);
	bool all_cpus;		/* may run on every CPU at once */
	/* A scaling case instead of run: work on each of nr CPUs at once. */
	void (*scale)(unsigned int nr, unsigned long work,
		      struct bench_all_result *res);
	unsigned long work;	/* the full run's work per CPU */
	unsigned int min_nodes;	/* online NUMA nodes it needs (0: any) */
};

_Static_assert(offsetof(struct bench_case, name) == 0,
	       "next_by_name() needs the name first");

#define __BENCH(fn, ...)						\
	static const struct bench_case __bench_##fn = { __VA_ARGS__ };	\
	static const struct bench_case *const __bench_ptr_##fn		\
	__used __section("benches") = &__bench_##fn
#define BENCH(bname, fn)	__BENCH(fn, .name = bname, .run = fn)
/*
 * A workload that only touches the allocators and this CPU's own data
 * once it has run once (lazily made caches): it also runs on every CPU
 * at once (bench_measure_all()).
 */
#define BENCH_ALL_CPUS(bname, fn)					\
	__BENCH(fn, .name = bname, .run = fn, .all_cpus = true)
/* A scaling case: fn(nr, work, res) runs work on CPUs 0..nr-1 at once. */
#define BENCH_SCALE(bname, fn, fn_work)					\
	__BENCH(fn, .name = bname, .scale = fn, .work = fn_work)
/*
 * The same, for a case that needs nodes online NUMA nodes (numa=fake=2):
 * with fewer, the runner prints a comment that it skipped it.
 */
#define BENCH_NODES(bname, fn, nodes)					\
	__BENCH(fn, .name = bname, .run = fn, .min_nodes = nodes)
#define BENCH_SCALE_NODES(bname, fn, fn_work, nodes)			\
	__BENCH(fn, .name = bname, .scale = fn, .work = fn_work,	\
		.min_nodes = nodes)

/*
 * The CPUs of the cross-node producer/consumer's nr threads (the xnode_
 * cases): thread 2p on node 0's p-th online CPU, thread 2p+1 on node 1's,
 * into cpus[0 .. nr - 1]. False if the nodes have too few CPUs, or this
 * CPU (thread 0's) is not node 0's first.
 */
bool bench_xnode_cpus(unsigned int nr, unsigned int *cpus);

/* Whether b can run here (enough NUMA nodes); if not, a comment says so. */
bool bench_can_run(const struct bench_case *b);

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
	unsigned long ops;	/* it did; 0 if a run did none (it could not) */
	long peak_kb;		/* the largest bench_peak_kb of any run */
};

/*
 * Run b once untimed, then reps times timed; a run that returns 0
 * operations (an allocation failed) ends it with res->ops 0.
 */
void bench_measure(const struct bench_case *b, unsigned long reps,
		   struct bench_result *res);

/*
 * One run of b on every CPU the arch runs work on (arch_cpu_run()), all
 * started together after a warm-up run on this CPU: what each CPU did in
 * its own time, and the wall time from the start until the last ended.
 */
struct bench_cpu_result {
	unsigned long ops;	/* 0: the CPU did not run it */
	u64 ns;
	u64 cpu_ns;		/* arch_cpu_time_ns() it took (scaling cases) */
};

struct bench_all_result {
	unsigned int nr_cpus;	/* CPUs that ran it (1: this one alone) */
	unsigned long ops;	/* all of them */
	u64 wall_ns;
	u64 cycles;		/* of this CPU over the run (scaling cases) */
	u64 cpu_ns;		/* all CPUs' arch_cpu_time_ns() (scaling cases) */
	struct bench_cpu_result cpu[NR_CPUS];
};

void bench_measure_all(const struct bench_case *b,
		       struct bench_all_result *res);

/*
 * A scaling case on nr CPUs at once, work per CPU: once untimed, then the
 * fastest (by wall time) of reps runs. nr_cpus is 0 if it could not run
 * on nr CPUs (more than are online, or no scaling case).
 */
void bench_measure_scale(const struct bench_case *b, unsigned int nr,
			 unsigned long work, unsigned long reps,
			 struct bench_all_result *res);

/*
 * The scaling cases whose name matches glob (NULL: all) on 1, 2 and
 * bench_scale_cpus() CPUs, each CPU doing 1/work_div of the full work.
 */
void bench_run_scale(const char *glob, unsigned long work_div);

/* How many CPUs the scaling cases' widest run takes. */
unsigned int bench_scale_cpus(void);

/* The bench_cpus= parameter: "1".."NR_CPUS", else -EINVAL and no change. */
int bench_set_cpus(char *val);

/* ops per second (0 for no time: a clock that did not move). */
u64 bench_ops_per_sec(unsigned long ops, u64 ns);

/* The bench_smp= parameter: "1" runs the all-CPU pass (default), "0" not. */
int bench_set_smp(char *val);

/* The bench_reps= parameter: "1".."100", else -EINVAL and no change. */
int bench_set_reps(char *val);
unsigned long bench_get_reps(void);

#endif /* BENCH_BENCH_H */

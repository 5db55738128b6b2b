// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark runner (see bench/bench.h): in name order, a warm-up
 * run, bench_reps timed runs, one BENCH line each with the fastest.
 * Registered under the "bench" parameter and shell command; bench_reps=
 * sets the repetitions (1 by default). Then the scaling cases on 1, 2
 * and all CPUs (bench_cpus= caps "all"), and with bench_smp=1 the
 * all-CPU pass of the BENCH_ALL_CPUS() cases. A case that needs more
 * NUMA nodes than are online is skipped with a comment line.
 */
#include "bench/bench.h"
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/kfence.h"
#include "mm/slab_reap.h"
#include "kernel/time.h"
#include "mm/numa.h"
#include "arch/arch.h"
#include "kernel/cpumask.h"

extern const struct bench_case *const __start_benches[] __weak;
extern const struct bench_case *const __stop_benches[] __weak;

long bench_peak_kb, bench_base_kb;
static unsigned long bench_reps = 1;

/* A parameter's count, 1 to max; *count changes only if it is one. */
static int parse_count(const char *val, unsigned long max,
		       unsigned long *count)
{
	unsigned long n;

	if (!val || kstrtoul(val, 10, &n) || !n || n > max)
		return -EINVAL;
	*count = n;
	return 0;
}

int bench_set_reps(char *val)
{
	return parse_count(val, BENCH_MAX_REPS, &bench_reps);
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

static bool bench_smp = true;

int bench_set_smp(char *val)
{
	if (!val || (strcmp(val, "0") && strcmp(val, "1")))
		return -EINVAL;
	bench_smp = val[0] == '1';
	return 0;
}
kernel_param("bench_smp", bench_set_smp);

static unsigned long bench_cpus;	/* 0: every online CPU */

int bench_set_cpus(char *val)
{
	return parse_count(val, NR_CPUS, &bench_cpus);
}
kernel_param("bench_cpus", bench_set_cpus);

unsigned int bench_scale_cpus(void)
{
	unsigned int online = nr_cpu_ids;

	return bench_cpus && bench_cpus < online ? bench_cpus : online;
}

bool bench_can_run(const struct bench_case *b)
{
	if (num_online_nodes() >= b->min_nodes)
		return true;
	console_printf("# %s: needs %u NUMA nodes (numa=fake=%u), skipped\n",
		       b->name, b->min_nodes, b->min_nodes);
	return false;
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
	res->ops = 0;
	res->peak_kb = 0;
	if (!b->run())				/* warm-up, untimed */
		return;
	for (unsigned long rep = 0; rep < reps; rep++) {
		unsigned long ops;
		u64 ns, cycles;

		bench_peak_kb = 0;
		ns = arch_clock_ns();
		cycles = arch_cycles();
		ops = b->run();
		cycles = arch_cycles() - cycles;
		ns = arch_clock_ns() - ns;
		if (!ops) {
			res->ops = 0;
			return;
		}
		res->peak_kb = max(res->peak_kb, bench_peak_kb);
		if (ns < res->ns) {
			res->ns = ns;
			res->cycles = cycles;
			res->ops = ops;
		}
	}
}

u64 bench_ops_per_sec(unsigned long ops, u64 ns)
{
	return ns ? (u64)ops * 1000000000ULL / ns : 0;
}

/* What each CPU runs: wait for the start, then one timed run. */
struct bench_cpu_work {
	const struct bench_case *b;
	struct bench_cpu_result *res;
};

static unsigned long bench_all_go;

static void bench_cpu_fn(void *arg)
{
	struct bench_cpu_work *w = arg;
	u64 ns;

	while (!__atomic_load_n(&bench_all_go, __ATOMIC_ACQUIRE))
		arch_cpu_relax();
	ns = arch_clock_ns();
	w->res->ops = w->b->run();
	w->res->ns = arch_clock_ns() - ns;
}

void bench_measure_all(const struct bench_case *b,
		       struct bench_all_result *res)
{
	unsigned int cpu;
	static struct bench_cpu_work work[NR_CPUS];
	unsigned int nr = 1;
	u64 start;

	memset(res, 0, sizeof(*res));
	b->run();			/* warm-up: lazily made caches */
	__atomic_store_n(&bench_all_go, 0, __ATOMIC_RELEASE);
	for_each_possible_cpu(cpu) {
		work[cpu].b = b;
		work[cpu].res = &res->cpu[cpu];
		if (cpu && arch_cpu_run(cpu, bench_cpu_fn, &work[cpu]))
			break;
		nr = cpu + 1;
	}
	start = arch_clock_ns();
	__atomic_store_n(&bench_all_go, 1, __ATOMIC_RELEASE);
	bench_cpu_fn(&work[0]);
	for (unsigned int cpu = 1; cpu < nr; cpu++)
		arch_cpu_join(cpu);
	res->wall_ns = arch_clock_ns() - start;
	res->nr_cpus = nr;
	for (unsigned int cpu = 0; cpu < nr; cpu++)
		res->ops += res->cpu[cpu].ops;
}

void bench_measure_scale(const struct bench_case *b, unsigned int nr,
			 unsigned long work, unsigned long reps,
			 struct bench_all_result *res)
{
	struct bench_all_result run;

	BUG_ON(!reps);
	memset(res, 0, sizeof(*res));
	if (!b->scale || !nr || nr > nr_cpu_ids)
		return;
	b->scale(nr, work, &run);		/* warm-up, untimed */
	for (unsigned long rep = 0; rep < reps; rep++) {
		u64 cycles = arch_cycles();

		b->scale(nr, work, &run);
		run.cycles = arch_cycles() - cycles;
		if (run.nr_cpus != nr) {
			memset(res, 0, sizeof(*res));
			return;
		}
		if (!res->nr_cpus || run.wall_ns < res->wall_ns)
			*res = run;
	}
}

static void run_all_cpus(const struct bench_case *b)
{
	struct bench_all_result res;

	bench_measure_all(b, &res);
	for (unsigned int cpu = 0; cpu < res.nr_cpus; cpu++)
		console_printf("BENCH_CPU %-28s %2u %12llu\n", b->name, cpu,
			       (unsigned long long)bench_ops_per_sec(
				       res.cpu[cpu].ops, res.cpu[cpu].ns));
	console_printf("BENCH_ALL %-28s %2u %12llu\n", b->name, res.nr_cpus,
		       (unsigned long long)bench_ops_per_sec(res.ops,
							     res.wall_ns));
}

static void print_bench_line(const char *name, u64 ns, u64 cycles,
			     unsigned long ops, long peak_kb)
{
	console_printf("BENCH %-28s %8llu.%03llu %8llu %8ld %10lu\n", name,
		       (unsigned long long)(ns / ops),
		       (unsigned long long)(ns * 1000 / ops % 1000),
		       (unsigned long long)(cycles / ops), peak_kb, ops);
}

static void run_one(const struct bench_case *b)
{
	struct bench_result res;

	bench_measure(b, bench_reps, &res);
	if (!res.ops) {
		console_printf("# %s: could not run (an allocation failed)\n",
			       b->name);
		return;
	}
	print_bench_line(b->name, res.ns, res.cycles, res.ops, res.peak_kb);
}

/* A ratio in percent with one decimal and its sign ("-" without a base). */
struct percent {
	char s[16];
};

static struct percent percent_of(u64 part, u64 whole)
{
	struct percent p;
	u64 tenths = whole ? part * 1000 / whole : 0;

	if (whole)
		snprintf(p.s, sizeof(p.s), "%llu.%llu%%",
			 (unsigned long long)(tenths / 10),
			 (unsigned long long)(tenths % 10));
	else
		strscpy(p.s, "-", sizeof(p.s));
	return p;
}

/* A scaling case's throughput on one CPU: what efficiency is against. */
struct scale_base {
	u64 total;		/* ops/s over the wall time */
	u64 per_cpu_s;		/* ops per second of CPU time */
};

/*
 * One CPU count of a scaling case: its lines; the base is set by the
 * one-CPU run (0 if it could not run: no efficiency then).
 */
static void run_scale_cpus(const struct bench_case *b, unsigned int nr,
			  unsigned long work, struct scale_base *base)
{
	struct bench_all_result res;
	char name[48];
	u64 total, per_cpu_s;

	snprintf(name, sizeof(name), "%s_t%u", b->name, nr);
	bench_measure_scale(b, nr, work, bench_reps, &res);
	if (!res.nr_cpus || !res.ops) {
		console_printf("# %s: could not run on %u CPUs at once\n",
			       name, nr);
		return;
	}
	print_bench_line(name, res.wall_ns, res.cycles, res.ops, 0);
	for (unsigned int cpu = 0; cpu < nr; cpu++) {
		const struct bench_cpu_result *c = &res.cpu[cpu];

		console_printf("BENCH_SCALE_CPU %-28s %2u %12llu %12llu\n",
			       name, cpu,
			       (unsigned long long)bench_ops_per_sec(c->ops, c->ns),
			       (unsigned long long)bench_ops_per_sec(c->ops,
								     c->cpu_ns));
	}
	total = bench_ops_per_sec(res.ops, res.wall_ns);
	per_cpu_s = bench_ops_per_sec(res.ops, res.cpu_ns);
	if (nr == 1) {
		base->total = total;
		base->per_cpu_s = per_cpu_s;
	}
	console_printf("BENCH_SCALE %-28s %2u %12llu %6s %12llu %6s\n",
		       name, nr, (unsigned long long)total,
		       percent_of(total, nr * base->total).s,
		       (unsigned long long)per_cpu_s,
		       percent_of(per_cpu_s, base->per_cpu_s).s);
}

/* 1, 2 and all CPUs; fewer where there are fewer, each count once. */
static void run_scale(const struct bench_case *b, unsigned long work_div)
{
	const unsigned int all = bench_scale_cpus();
	const unsigned int counts[] = { 1, 2, all };
	unsigned long work = max(b->work / work_div, 1UL);
	struct scale_base base = { 0, 0 };
	unsigned int last = 0;

	for (unsigned int i = 0; i < ARRAY_SIZE(counts); i++) {
		if (counts[i] <= last || counts[i] > all)
			continue;
		last = counts[i];
		run_scale_cpus(b, last, work, &base);
	}
	if (all <= 2)
		console_printf("# %s: %u CPU%s, so the all-CPU row is _t%u\n",
			       b->name, all, all == 1 ? "" : "s", all);
}

static void print_scale_header(void)
{
	console_printf("# bench scaling on 1, 2 and all (here %u) CPUs at once, each doing the same work: BENCH_SCALE_CPU name, CPU, ops/s in its own time, ops per second of its CPU time; BENCH_SCALE name, CPUs, ops/s of all over the wall time, efficiency = ops/s / (CPUs x ops/s on 1 CPU), ops per CPU-second of all, efficiency = that / the same on 1 CPU\n",
		       bench_scale_cpus());
	if (strcmp(arch_name, "host"))
		console_printf("# these figures are emulated under TCG: the vCPUs are host threads sharing the host's cores, so they are not comparable to host numbers\n");
}

void bench_run_scale(const char *glob, unsigned long work_div)
{
	bool header = false;

	BUG_ON(!work_div);
	for (const struct bench_case *b = next_bench(NULL); b; b = next_bench(b)) {
		if (!b->scale || (glob && !glob_match(glob, b->name)))
			continue;
		if (!header)
			print_scale_header();
		header = true;
		if (bench_can_run(b))
			run_scale(b, work_div);
	}
}

/*
 * Work that runs by wall time is held off while the benchmarks run, as
 * the tests hold it off: it would land in a different place each run,
 * and instruction counts would move with the machine's load.
 * - KFENCE's sampling: besides, a row whose allocations KFENCE cannot
 *   take (more than a page) would run its slow path until the next one
 *   it can, which a one-row run never makes. Its fast paths cost
 *   nothing either way (Documentation/dev-tools/kfence.md).
 * - cache_reap's pass (every 2 s): its trimming of the arrays and the
 *   node lists moved a batch row by up to 16 instructions per operation
 *   between runs under valgrind. The longest period it takes holds it
 *   off for a minute.
 */
void bench_run(const char *glob)
{
	unsigned long kfence_ms = kfence_sample_interval_get();
	unsigned long reap = cache_reap_set_period(60 * HZ);

	kfence_sample_interval_set(0);
	console_printf("# bench on %s: name, ns/op, cycles/op, peak KiB, operations a run (under QEMU's TCG time and cycles are emulated: compare only like with like)\n",
		       arch_name);
	bench_base_kb = bench_mem_kb();
	for (const struct bench_case *b = next_bench(NULL); b; b = next_bench(b)) {
		if (!b->scale && (!glob || glob_match(glob, b->name)) &&
		    bench_can_run(b))
			run_one(b);
	}
	bench_run_scale(glob, 1);
	if (bench_smp && nr_cpu_ids > 1) {
		console_printf("# bench on all %u CPUs at once: name, CPU, ops/s in its own time; then name, CPUs, ops/s of all over the wall time\n",
			       nr_cpu_ids);
		for (const struct bench_case *b = next_bench(NULL); b;
		     b = next_bench(b)) {
			if (b->all_cpus && (!glob || glob_match(glob, b->name)))
				run_all_cpus(b);
		}
	}
	console_printf("# bench done\n");
	kfence_sample_interval_set(kfence_ms);
	cache_reap_set_period(reap);
}

static bool bench_requested;
static const char *bench_glob;

/* "bench" or "bench=GLOB": run the benchmarks instead of the shell. */
static int bench_setup(char *val)
{
	bench_requested = true;
	bench_glob = val;
	return 0;
}
kernel_param("bench", bench_setup);

static void bench_boot(void)
{
	if (!bench_requested)
		return;
	bench_run(bench_glob);
	arch_exit(ARCH_EXIT_SUCCESS);
}
boot_run(bench_boot);

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

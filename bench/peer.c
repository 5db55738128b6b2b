// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark workloads against malloc/free, to compare the kernel's
 * allocators with the ones people know: bench/run.py runs this program
 * under glibc and, through LD_PRELOAD, jemalloc, mimalloc and tcmalloc.
 * Same workloads (bench/workloads.h), same names, same output lines as
 * the kernel's bench runner: "BENCH <name> <ns/op> <cycles/op> <peak KiB>
 * <operations a run>". The
 * kmem_cache rows map to malloc(256), the page rows to aligned_alloc of
 * 4 KiB and 32 KiB and, labelled _mmap, to mmap/munmap. The scaling rows
 * run on 1, 2 and THREADS pthreads and add the kernel's BENCH_SCALE line
 * (CPU time from CLOCK_THREAD_CPUTIME_ID), without its per-CPU lines.
 */
#include <fnmatch.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define BENCH_ALLOC(size)	malloc(size)
#define BENCH_ZALLOC(size)	calloc(1, size)
#define BENCH_FREE(ptr, size)	free(ptr)
#define BENCH_SCRATCH(bytes)	malloc(bytes)
#define BENCH_MEM_KB()		rss_kb()
#define BENCH_SPAWN(cpu, fn, arg)	spawn(cpu, fn, arg)
#define BENCH_JOIN(cpu)		join(cpu)
#define BENCH_NOW_NS()		now_ns()
#define BENCH_CPU_NS()		thread_cpu_ns()
#define BENCH_RELAX()		__builtin_ia32_pause()

static long bench_peak_kb, bench_base_kb;

static long rss_kb(void);
static uint64_t now_ns(void);
static uint64_t thread_cpu_ns(void);
static int spawn(unsigned int cpu, void (*fn)(void *), void *arg);
static void join(unsigned int cpu);
#include "bench/workloads.h"

static pthread_t workers[SCALE_MAX_THREADS];

/* Resident set size from /proc/self/statm (second field, in pages). */
static long rss_kb(void)
{
	long size = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%ld %ld", &size, &resident) != 2)
			resident = 0;
		fclose(f);
	}
	return resident * 4;
}

struct thread_start {
	void (*fn)(void *);
	void *arg;
};

static struct thread_start starts[SCALE_MAX_THREADS];

static void *thread_main(void *data)
{
	struct thread_start *start = data;

	start->fn(start->arg);
	return NULL;
}

static int spawn(unsigned int cpu, void (*fn)(void *), void *arg)
{
	if (!cpu || cpu >= SCALE_MAX_THREADS)
		return -1;
	starts[cpu].fn = fn;
	starts[cpu].arg = arg;
	return pthread_create(&workers[cpu], NULL, thread_main, &starts[cpu]);
}

static void join(unsigned int cpu)
{
	pthread_join(workers[cpu], NULL);
}

#define HOT_ITERS	1000000UL
#define BULK_ITERS	20000UL
#define PAGE_ITERS	200000UL

struct peer_bench {
	const char *name;
	unsigned long (*run)(void);
	/* or a scaling case: work on each of nr threads at once */
	void (*scale)(unsigned int nr, unsigned long work, struct scale_result *res);
	unsigned long work;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t cycles(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

static unsigned long hot(unsigned long size)
{
	wl_hot_pair(HOT_ITERS, size);
	return HOT_ITERS;
}

static unsigned long hot_8(void) { return hot(8); }
static unsigned long hot_16(void) { return hot(16); }
static unsigned long hot_64(void) { return hot(64); }
static unsigned long hot_96(void) { return hot(96); }
static unsigned long hot_256(void) { return hot(256); }
static unsigned long hot_1024(void) { return hot(1024); }
static unsigned long hot_4096(void) { return hot(4096); }
static unsigned long hot_8192(void) { return hot(8192); }
static unsigned long zero_256(void)
{
	wl_zero_pair(HOT_ITERS, 256);
	return HOT_ITERS;
}

static unsigned long batch_random(void) { return wl_batch(true); }
static unsigned long batch_fifo(void) { return wl_batch(false); }

static unsigned long producer_consumer(void) { return wl_producer_consumer(); }
static unsigned long larson_2cpu(void) { return wl_larson(); }

static unsigned long lifo(void)
{
	wl_lifo(HOT_ITERS * 10);
	return HOT_ITERS * 10;
}

static unsigned long single_256(void) { return hot(256); }

static unsigned long burst_256(unsigned int n)
{
	wl_burst(BULK_ITERS, 256, n);
	return BULK_ITERS * n;
}

static unsigned long burst_16(void) { return burst_256(16); }
static unsigned long burst_64(void) { return burst_256(64); }

static unsigned long aligned_pages(size_t bytes)
{
	for (unsigned long i = 0; i < PAGE_ITERS; i++) {
		void *p = aligned_alloc(4096, bytes);

		bench_touch(p);
		free(p);
	}
	return PAGE_ITERS;
}

static unsigned long pages_0(void) { return aligned_pages(4096); }
static unsigned long pages_3(void) { return aligned_pages(32768); }

static unsigned long mmap_pages(size_t bytes)
{
	for (unsigned long i = 0; i < PAGE_ITERS / 10; i++) {
		void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return 0;
		bench_touch(p);
		munmap(p, bytes);
	}
	return PAGE_ITERS / 10;
}

static unsigned long mmap_0(void) { return mmap_pages(4096); }
static unsigned long mmap_3(void) { return mmap_pages(32768); }

static const struct peer_bench benches[] = {
	{ .name = "hot_pair_8", .run = hot_8 }, { .name = "hot_pair_16", .run = hot_16 },
	{ .name = "hot_pair_64", .run = hot_64 }, { .name = "hot_pair_96", .run = hot_96 },
	{ .name = "hot_pair_256", .run = hot_256 }, { .name = "hot_pair_1024", .run = hot_1024 },
	{ .name = "zero_pair_256", .run = zero_256 },
	{ .name = "hot_pair_4096", .run = hot_4096 }, { .name = "hot_pair_8192", .run = hot_8192 },
	{ .name = "batch_random_free", .run = batch_random }, { .name = "batch_fifo_free", .run = batch_fifo },
	{ .name = "producer_consumer_2cpu", .run = producer_consumer },
	/* No nodes here: the cross-node rows are the same work on 2 threads. */
	{ .name = "xnode_producer_consumer", .run = producer_consumer },
	{ .name = "larson_2cpu", .run = larson_2cpu },
	{ .name = "lifo_stack", .run = lifo },
	{ .name = "cache_256_single", .run = single_256 }, { .name = "cache_256_bulk_16", .run = burst_16 },
	{ .name = "cache_256_bulk_64", .run = burst_64 },
	{ .name = "pages_order_0", .run = pages_0 }, { .name = "pages_order_3", .run = pages_3 },
	{ .name = "pages_order_0_mmap", .run = mmap_0 }, { .name = "pages_order_3_mmap", .run = mmap_3 },
	{ .name = "scale_hot_pair_256", .scale = wl_scale_hot_pair, .work = HOT_ITERS },
	{ .name = "scale_producer_consumer", .scale = wl_scale_producer_consumer,
	  .work = SCALE_PC_OBJECTS },
	{ .name = "scale_larson", .scale = wl_scale_larson, .work = SCALE_LARSON_STEPS },
	{ .name = "scale_xnode_producer_consumer", .scale = wl_scale_producer_consumer,
	  .work = SCALE_PC_OBJECTS },
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct peer_bench *)a)->name,
		      ((const struct peer_bench *)b)->name);
}

static void print_line(const char *name, uint64_t ns, uint64_t cyc,
		       unsigned long ops, long peak)
{
	if (!ops)
		ops = 1;
	printf("BENCH %-28s %8llu.%03llu %8llu %8ld %10lu\n", name,
	       (unsigned long long)(ns / ops),
	       (unsigned long long)(ns * 1000 / ops % 1000),
	       (unsigned long long)(cyc / ops), peak, ops);
}

/* Once untimed, then the fastest of reps runs, as the kernel's runner. */
static void run_one(const struct peer_bench *b, long reps)
{
	uint64_t best_ns = UINT64_MAX, best_cyc = 0;
	unsigned long ops = 1;
	long peak = 0;

	b->run();		/* warm-up, untimed */
	for (long rep = 0; rep < reps; rep++) {
		uint64_t ns, cyc;

		bench_peak_kb = 0;
		ns = now_ns();
		cyc = cycles();
		ops = b->run();
		cyc = cycles() - cyc;
		ns = now_ns() - ns;
		if (bench_peak_kb > peak)
			peak = bench_peak_kb;
		if (ns < best_ns) {
			best_ns = ns;
			best_cyc = cyc;
		}
	}
	print_line(b->name, best_ns, best_cyc, ops, peak);
}

/* A ratio in percent with one decimal and its sign, or "-" without a base. */
struct percent {
	char s[16];
};

static struct percent percent_of(double part, double whole)
{
	struct percent p;

	if (whole > 0)
		snprintf(p.s, sizeof(p.s), "%5.1f%%", part * 100 / whole);
	else
		snprintf(p.s, sizeof(p.s), "%6s", "-");
	return p;
}

/* A scaling case's throughput on one thread: what efficiency is against. */
struct scale_base {
	double total;		/* ops/s over the wall time */
	double per_cpu_s;	/* ops per second of CPU time */
};

static double ops_per_sec(unsigned long ops, uint64_t ns)
{
	return ns ? ops * 1e9 / ns : 0;
}

/*
 * The same on nr threads at once: ns/op over the wall time of all, then
 * the kernel runner's BENCH_SCALE line (its per-thread lines left out).
 */
static void run_scale_threads(const struct peer_bench *b, unsigned int nr,
			      long reps, struct scale_base *base)
{
	double total, per_cpu_s;
	struct scale_result res, best = { 0 };
	uint64_t best_cyc = 0;
	char name[64];

	snprintf(name, sizeof(name), "%s_t%u", b->name, nr);
	b->scale(nr, b->work, &res);	/* warm-up, untimed */
	for (long rep = 0; rep < reps; rep++) {
		uint64_t cyc = cycles();

		b->scale(nr, b->work, &res);
		cyc = cycles() - cyc;
		if (res.nr != nr) {
			printf("# %s: could not run %u threads at once\n", name, nr);
			return;
		}
		if (!best.nr || res.wall_ns < best.wall_ns) {
			best = res;
			best_cyc = cyc;
		}
	}
	print_line(name, best.wall_ns, best_cyc, best.ops, 0);
	total = ops_per_sec(best.ops, best.wall_ns);
	per_cpu_s = ops_per_sec(best.ops, best.cpu_ns);
	if (nr == 1) {
		base->total = total;
		base->per_cpu_s = per_cpu_s;
	}
	printf("BENCH_SCALE %-28s %2u %12.0f %s %12.0f %s\n", name, nr, total,
	       percent_of(total, nr * base->total).s, per_cpu_s,
	       percent_of(per_cpu_s, base->per_cpu_s).s);
}

/* 1, 2 and all threads; fewer where there are fewer, each count once. */
static void run_scale(const struct peer_bench *b, unsigned int all, long reps)
{
	const unsigned int counts[] = { 1, 2, all };
	struct scale_base base = { 0, 0 };
	unsigned int last = 0;

	for (unsigned int i = 0; i < 3; i++) {
		if (counts[i] <= last || counts[i] > all)
			continue;
		last = counts[i];
		run_scale_threads(b, last, reps, &base);
	}
}

/*
 * peer [GLOB [REPS [THREADS]]]: the workloads whose names match (all by
 * default), each run once untimed, then REPS times (1 by default); the
 * line shows the fastest, as the kernel's runner does with bench_reps=.
 * The scaling cases run on 1, 2 and THREADS threads (the online CPUs by
 * default), each count once.
 */
int main(int argc, char **argv)
{
	static struct peer_bench sorted[sizeof(benches) / sizeof(benches[0])];
	const size_t n = sizeof(benches) / sizeof(benches[0]);
	const char *glob = argc > 1 ? argv[1] : "*";
	long reps = argc > 2 ? atol(argv[2]) : 1;
	long threads = argc > 3 ? atol(argv[3]) : sysconf(_SC_NPROCESSORS_ONLN);

	if (reps < 1 || reps > 100) {
		fprintf(stderr, "peer: REPS must be 1..100\n");
		return 2;
	}
	if (threads < 1 || threads > SCALE_MAX_THREADS) {
		fprintf(stderr, "peer: THREADS must be 1..%d\n", SCALE_MAX_THREADS);
		return 2;
	}
	/* The kernel's runner goes in name order: so do we. */
	memcpy(sorted, benches, sizeof(benches));
	qsort(sorted, n, sizeof(sorted[0]), by_name);
	bench_base_kb = rss_kb();
	for (size_t i = 0; i < n; i++) {
		if (fnmatch(glob, sorted[i].name, 0))
			continue;
		if (sorted[i].scale)
			run_scale(&sorted[i], (unsigned int)threads, reps);
		else
			run_one(&sorted[i], reps);
	}
	return (int)(bench_sink & 0);
}

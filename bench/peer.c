// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark workloads against malloc/free, to compare the kernel's
 * allocators with the ones people know: bench/run.py runs this program
 * under glibc and, through LD_PRELOAD, jemalloc, mimalloc and tcmalloc.
 * Same workloads (bench/workloads.h), same names, same output lines as
 * the kernel's bench runner: "BENCH <name> <ns/op> <cycles/op>". The
 * kmem_cache rows map to malloc(256), the page rows to aligned_alloc of
 * 4 KiB and 32 KiB and, labelled _mmap, to mmap/munmap.
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

#define BENCH_ALLOC(size)	malloc(size)
#define BENCH_ZALLOC(size)	calloc(1, size)
#define BENCH_FREE(ptr, size)	free(ptr)
#define BENCH_SCRATCH(bytes)	malloc(bytes)
#define BENCH_MEM_KB()		rss_kb()
#define BENCH_SPAWN(fn, arg)	spawn(fn, arg)
#define BENCH_JOIN()		pthread_join(worker, NULL)

static pthread_t worker;
static long bench_peak_kb, bench_base_kb;

static long rss_kb(void);

static void *thread_main(void *arg);
static int spawn(void (*fn)(void *), void *arg);
#include "bench/workloads.h"

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

static struct thread_start start;

static void *thread_main(void *arg)
{
	start.fn(arg);
	return NULL;
}

static int spawn(void (*fn)(void *), void *arg)
{
	start.fn = fn;
	return pthread_create(&worker, NULL, thread_main, arg);
}

#define HOT_ITERS	1000000UL
#define BULK_ITERS	20000UL
#define PAGE_ITERS	200000UL

struct peer_bench {
	const char *name;
	unsigned long (*run)(void);
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
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
	{ "hot_pair_8", hot_8 }, { "hot_pair_16", hot_16 },
	{ "hot_pair_64", hot_64 }, { "hot_pair_96", hot_96 },
	{ "hot_pair_256", hot_256 }, { "hot_pair_1024", hot_1024 },
	{ "zero_pair_256", zero_256 },
	{ "hot_pair_4096", hot_4096 }, { "hot_pair_8192", hot_8192 },
	{ "batch_random_free", batch_random }, { "batch_fifo_free", batch_fifo },
	{ "producer_consumer_2cpu", producer_consumer },
	{ "larson_2cpu", larson_2cpu },
	{ "lifo_stack", lifo },
	{ "cache_256_single", single_256 }, { "cache_256_bulk_16", burst_16 },
	{ "cache_256_bulk_64", burst_64 },
	{ "pages_order_0", pages_0 }, { "pages_order_3", pages_3 },
	{ "pages_order_0_mmap", mmap_0 }, { "pages_order_3_mmap", mmap_3 },
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct peer_bench *)a)->name,
		      ((const struct peer_bench *)b)->name);
}

/*
 * peer [GLOB [REPS]]: the workloads whose names match (all by default),
 * each run once untimed, then REPS times (1 by default); the line shows
 * the fastest, as the kernel's runner does with bench_reps=.
 */
int main(int argc, char **argv)
{
	static struct peer_bench sorted[sizeof(benches) / sizeof(benches[0])];
	const size_t n = sizeof(benches) / sizeof(benches[0]);
	const char *glob = argc > 1 ? argv[1] : "*";
	long reps = argc > 2 ? atol(argv[2]) : 1;

	if (reps < 1 || reps > 100) {
		fprintf(stderr, "peer: REPS must be 1..100\n");
		return 2;
	}
	/* The kernel's runner goes in name order: so do we. */
	memcpy(sorted, benches, sizeof(benches));
	qsort(sorted, n, sizeof(sorted[0]), by_name);
	bench_base_kb = rss_kb();
	for (size_t i = 0; i < n; i++) {
		uint64_t best_ns = UINT64_MAX, best_cyc = 0;
		unsigned long ops = 1;
		long peak = 0;

		if (fnmatch(glob, sorted[i].name, 0))
			continue;
		sorted[i].run();		/* warm-up, untimed */
		for (long rep = 0; rep < reps; rep++) {
			uint64_t ns, cyc;

			bench_peak_kb = 0;
			ns = now_ns();
			cyc = cycles();
			ops = sorted[i].run();
			cyc = cycles() - cyc;
			ns = now_ns() - ns;
			if (bench_peak_kb > peak)
				peak = bench_peak_kb;
			if (ns < best_ns) {
				best_ns = ns;
				best_cyc = cyc;
			}
		}
		if (!ops)
			ops = 1;
		printf("BENCH %-28s %8llu.%03llu %8llu %8ld\n", sorted[i].name,
		       (unsigned long long)(best_ns / ops),
		       (unsigned long long)(best_ns * 1000 / ops % 1000),
		       (unsigned long long)(best_cyc / ops), peak);
	}
	return (int)(bench_sink & 0);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Allocator benchmarks in the kernel: the shared workloads of
 * bench/workloads.h run against kmalloc/kfree, plus kmem_cache (single
 * and bulk) and the page allocator (order 0 through the per-CPU lists,
 * order 3 through the buddy lists). `make bench` runs them natively
 * (arch/host at -O2, no sanitizers) beside the same workloads on other
 * allocators; the "bench" parameter or shell command runs them here.
 * The xnode_ cases need two NUMA nodes (numa=fake=2): producer/consumer
 * with the objects freed on the other node (the alien-cache path).
 */
#include "bench/bench.h"
#include "arch/arch.h"
#include "lib/string.h"
#include "kernel/cpumask.h"
#include "kernel/smp.h"
#include "mm/gfp.h"
#include "mm/kasan.h"
#include "mm/numa.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"	/* white-box: inside caches and slabs */

#define BENCH_ALLOC(size)	kmalloc(size, GFP_KERNEL)
#define BENCH_ZALLOC(size)	kzalloc(size, GFP_KERNEL)
#define BENCH_FREE(ptr, size)	kfree(ptr)
#define BENCH_SCRATCH(bytes)	alloc_pages_exact(bytes, GFP_KERNEL)
#define BENCH_MEM_KB()		bench_mem_kb()
#define BENCH_SPAWN(cpu, fn, arg)	arch_cpu_run(cpu, fn, arg)
#define BENCH_JOIN(cpu)		arch_cpu_join(cpu)
#define BENCH_NOW_NS()		arch_clock_ns()
#define BENCH_CPU_NS()		arch_cpu_time_ns()
#define BENCH_RELAX()		arch_cpu_relax()
#define SCALE_MAX_THREADS	NR_CPUS
#include "bench/workloads.h"

#define HOT_ITERS	1000000UL
#define BULK_ITERS	20000UL
#define PAGE_ITERS	200000UL

static unsigned long hot_pair(unsigned long size)
{
	wl_hot_pair(HOT_ITERS, size);
	return HOT_ITERS;
}

static unsigned long hot_8(void) { return hot_pair(8); }
static unsigned long hot_16(void) { return hot_pair(16); }
static unsigned long hot_64(void) { return hot_pair(64); }
static unsigned long hot_96(void) { return hot_pair(96); }
static unsigned long hot_256(void) { return hot_pair(256); }
static unsigned long hot_1024(void) { return hot_pair(1024); }
static unsigned long hot_4096(void) { return hot_pair(4096); }
static unsigned long hot_8192(void) { return hot_pair(8192); }
BENCH_ALL_CPUS("hot_pair_8", hot_8);
BENCH_ALL_CPUS("hot_pair_16", hot_16);
BENCH_ALL_CPUS("hot_pair_64", hot_64);
BENCH_ALL_CPUS("hot_pair_96", hot_96);
BENCH_ALL_CPUS("hot_pair_256", hot_256);
BENCH_ALL_CPUS("hot_pair_1024", hot_1024);
BENCH_ALL_CPUS("hot_pair_4096", hot_4096);
BENCH_ALL_CPUS("hot_pair_8192", hot_8192);

static unsigned long zero_256(void)
{
	wl_zero_pair(HOT_ITERS, 256);
	return HOT_ITERS;
}
BENCH_ALL_CPUS("zero_pair_256", zero_256);

static unsigned long batch_random(void) { return wl_batch(true); }
static unsigned long batch_fifo(void) { return wl_batch(false); }
BENCH("batch_random_free", batch_random);
BENCH("batch_fifo_free", batch_fifo);

static unsigned long producer_consumer(void) { return wl_producer_consumer(); }
static unsigned long larson_2cpu(void) { return wl_larson(); }
BENCH("producer_consumer_2cpu", producer_consumer);
BENCH("larson_2cpu", larson_2cpu);

/*
 * Cross-node producer/consumer (numa=fake=2 or more nodes): producers on
 * CPUs of node 0, consumers on CPUs of node 1, so every object is freed
 * on the other node, through the consumer's alien cache for node 0.
 * Thread 2p runs on node 0's p-th online CPU, thread 2p+1 on node 1's;
 * thread 0 is the caller, which must be node 0's first CPU.
 */
static unsigned int node_cpu(int nid, unsigned int n)
{
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		if (cpu_to_node(cpu) == nid && !n--)
			return cpu;
	}
	return NR_CPUS;
}

bool bench_xnode_cpus(unsigned int nr, unsigned int *cpus)
{
	for (unsigned int i = 0; i < nr; i++) {
		cpus[i] = node_cpu(i % 2, i / 2);
		if (cpus[i] >= NR_CPUS)
			return false;
	}
	return cpus[0] == smp_processor_id();
}

static unsigned long xnode_producer_consumer(void)
{
	unsigned int cpus[2];

	if (!bench_xnode_cpus(2, cpus))
		return 0;
	return wl_producer_consumer_on(cpus[1]);
}
BENCH_NODES("xnode_producer_consumer", xnode_producer_consumer, 2);

static unsigned long lifo(void)
{
	wl_lifo(HOT_ITERS * 10);
	return HOT_ITERS * 10;
}
BENCH("lifo_stack", lifo);

/*
 * The floor of the SLAB design's fast path: the per-CPU array's pop and
 * push alone, in functions of their own as kmalloc and kfree are, with
 * the cache known and no test but the array's bounds. kmalloc(64)+kfree
 * cost this plus the rest of their fast paths (the GFP and mode tests,
 * finding the cache from the page).
 */
static __noinline void *array_pop(struct kmem_cache *c)
{
	struct array_cache *ac = c->cpu_cache[arch_cpu_id()];
	unsigned int avail = ac->avail;

	if (unlikely(!avail))
		return NULL;
	ac->avail = avail - 1;
	return ac->entry[avail - 1];
}

static __noinline bool array_push(struct kmem_cache *c, void *objp)
{
	struct array_cache *ac = c->cpu_cache[arch_cpu_id()];
	unsigned int avail = ac->avail;

	if (unlikely(avail >= ac->limit))
		return false;
	ac->avail = avail + 1;
	ac->entry[avail] = objp;
	return true;
}

static unsigned long array_floor(void)
{
	static struct kmem_cache *cache;
	void *p;

	if (!cache)
		cache = kmem_cache_create("bench-floor-64", 64, 0, 0, NULL);
	/* One object in this CPU's array to cycle (none if it has no array). */
	p = cache ? kmem_cache_alloc(cache, GFP_KERNEL) : NULL;
	if (!p)
		return 0;
	kmem_cache_free(cache, p);
	for (unsigned long i = 0; i < HOT_ITERS; i++) {
		p = array_pop(cache);
		if (!p)
			return 0;
		/* Under KASAN an object in the array is invalid: valid in use. */
		kasan_unpoison_object_data(cache, p);
		bench_touch(p);
		kasan_poison_object_data(cache, p);
		if (!array_push(cache, p))
			return 0;
	}
	return HOT_ITERS;
}
BENCH_ALL_CPUS("slab_array_floor", array_floor);

static struct kmem_cache *bench_cache(void)
{
	static struct kmem_cache *cache;

	if (!cache)
		cache = kmem_cache_create("bench-256", 256, 0, 0, NULL);
	return cache;
}

static unsigned long cache_single(void)
{
	struct kmem_cache *c = bench_cache();

	for (unsigned long i = 0; i < HOT_ITERS; i++) {
		void *p = kmem_cache_alloc(c, GFP_KERNEL);

		bench_touch(p);
		kmem_cache_free(c, p);
	}
	return HOT_ITERS;
}
BENCH_ALL_CPUS("cache_256_single", cache_single);

static unsigned long cache_bulk(unsigned int n)
{
	struct kmem_cache *c = bench_cache();
	void *objs[64];

	for (unsigned long i = 0; i < BULK_ITERS; i++) {
		if (!kmem_cache_alloc_bulk(c, GFP_KERNEL, n, objs))
			return 0;
		for (unsigned int j = 0; j < n; j++)
			bench_touch(objs[j]);
		kmem_cache_free_bulk(c, n, objs);
	}
	return BULK_ITERS * n;
}

static unsigned long cache_bulk_16(void) { return cache_bulk(16); }
static unsigned long cache_bulk_64(void) { return cache_bulk(64); }
BENCH_ALL_CPUS("cache_256_bulk_16", cache_bulk_16);
BENCH_ALL_CPUS("cache_256_bulk_64", cache_bulk_64);

static unsigned long pages(unsigned int order)
{
	for (unsigned long i = 0; i < PAGE_ITERS; i++) {
		struct page *page = alloc_pages(GFP_KERNEL, order);

		bench_touch(page_address(page));
		__free_pages(page, order);
	}
	return PAGE_ITERS;
}

static unsigned long pages_0(void) { return pages(0); }
static unsigned long pages_3(void) { return pages(3); }
BENCH_ALL_CPUS("pages_order_0", pages_0);
BENCH_ALL_CPUS("pages_order_3", pages_3);

/* What the scaling workloads' threads did, as the runner reports it. */
static void scale_report(const struct scale_result *sr,
			 struct bench_all_result *res)
{
	memset(res, 0, sizeof(*res));
	res->nr_cpus = sr->nr;
	res->ops = sr->ops;
	res->wall_ns = sr->wall_ns;
	res->cpu_ns = sr->cpu_ns;
	for (unsigned int cpu = 0; cpu < sr->nr; cpu++) {
		res->cpu[cpu].ops = scale_threads[cpu].ops;
		res->cpu[cpu].ns = scale_threads[cpu].ns;
		res->cpu[cpu].cpu_ns = scale_threads[cpu].cpu_ns;
	}
}

#define SCALE_CASE(fn)							\
static void fn##_case(unsigned int nr, unsigned long work,		\
		      struct bench_all_result *res)			\
{									\
	struct scale_result sr;						\
									\
	fn(nr, work, &sr);						\
	scale_report(&sr, res);						\
}

SCALE_CASE(wl_scale_hot_pair)
SCALE_CASE(wl_scale_producer_consumer)
SCALE_CASE(wl_scale_larson)
BENCH_SCALE("scale_hot_pair_256", wl_scale_hot_pair_case, HOT_ITERS);
BENCH_SCALE("scale_producer_consumer", wl_scale_producer_consumer_case,
	    SCALE_PC_OBJECTS);
BENCH_SCALE("scale_larson", wl_scale_larson_case, SCALE_LARSON_STEPS);

static void xnode_producer_consumer_case(unsigned int nr, unsigned long work,
					 struct bench_all_result *res)
{
	static unsigned int cpus[NR_CPUS];
	struct scale_result sr = { 0 };

	if (nr <= NR_CPUS && bench_xnode_cpus(nr, cpus))
		wl_scale_producer_consumer_on(nr, work, cpus, &sr);
	scale_report(&sr, res);
}
BENCH_SCALE_NODES("scale_xnode_producer_consumer",
		  xnode_producer_consumer_case, SCALE_PC_OBJECTS, 2);

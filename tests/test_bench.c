// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the benchmark runner (bench/bench.c): bench_reps= takes 1 to
 * 100 and nothing else; bench_measure() runs a case once untimed, then
 * reps times, and keeps the fastest run and the largest peak of the timed
 * runs; bench_measure_all() runs a case once on every online CPU at once
 * (after a warm-up on this one) and reports each CPU's operations and
 * time; bench_smp= takes 0 or 1. The scaling runner: bench_cpus= takes 1
 * to NR_CPUS and nothing else; bench_measure_scale() runs a case once
 * untimed, then reps times, keeps the fastest and refuses CPU counts it
 * cannot run; a short run of the real scaling cases prints, for 1, 2
 * and all CPUs, every line in its format, and every CPU did work.
 * What cross-CPU work costs against the CPU count: a waited-for call
 * and a page-list drain on the first 1, 2, 4, ... online CPUs (every
 * one of them runs it once per call), then on all of them
 * drain_all_pages(), a kmalloc cache's shrink and synchronize_rcu()
 * (a grace period waits for every online CPU), printed per run.
 * With NUMA nodes: on each node's first CPU, kmalloc_node() throughput
 * on its own node and on the farthest node with memory, and the ratio
 * (printed; every object is checked to come from the node asked for).
 */
#include "bench/bench.h"
#include "kernel/errno.h"
#include "kernel/params.h"
#include "lib/ktest/ktest.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "arch/arch.h"
#include "kernel/cpumask.h"
#include "kernel/irq.h"
#include "kernel/rcupdate.h"
#include "kernel/smp.h"
#include "mm/gfp.h"
#include "mm/internal.h"
#include "mm/mm.h"
#include "mm/numa.h"
#include "mm/slab.h"

#define SLOW_NS		1000000ULL	/* a slow run: 1 ms */

static unsigned long fake_calls, fake_ops;

/*
 * Calls 2 and 5 are slow: with four timed runs, the first and the last
 * (so neither "first" nor "last" nor the mean passes for the fastest).
 * Every call records a peak that falls with each call, so the largest is
 * the first timed run's, and the warm-up's (larger still) must not count.
 */
static unsigned long fake_run(void)
{
	fake_calls++;
	if (fake_calls == 2 || fake_calls == 5) {
		u64 end = arch_clock_ns() + SLOW_NS;

		while (arch_clock_ns() < end)
			arch_cpu_relax();
	}
	bench_peak_kb = 100 - (long)fake_calls * 10;
	return fake_ops;
}

static const struct bench_case fake_case = { .name = "fake", .run = fake_run };

static void test_measure_keeps_fastest(struct ktest *t)
{
	struct bench_result res;

	fake_calls = 0;
	fake_ops = 1000;
	bench_measure(&fake_case, 4, &res);
	KTEST_EXPECT_EQ(t, fake_calls, 5UL);		/* warm-up + 4 */
	KTEST_EXPECT_EQ(t, res.ops, 1000UL);
	KTEST_EXPECT_LT(t, res.ns, SLOW_NS / 4);	/* run 3 or 4 */
	KTEST_EXPECT_EQ(t, res.peak_kb, 80L);		/* run 2's, not the warm-up's */
}

static void test_measure_one_rep(struct ktest *t)
{
	struct bench_result res;

	fake_calls = 0;
	fake_ops = 7;
	bench_measure(&fake_case, 1, &res);
	KTEST_EXPECT_EQ(t, fake_calls, 2UL);
	KTEST_EXPECT_EQ(t, res.ops, 7UL);
	KTEST_EXPECT_GE(t, res.ns, SLOW_NS);		/* the only timed run */
	KTEST_EXPECT_EQ(t, res.peak_kb, 80L);
}

/*
 * A case that does nothing could not run (an allocation failed, a CPU
 * was missing): the warm-up says so, nothing is timed, and ops is 0
 * (run_one() prints a comment, not a BENCH line).
 */
static void test_measure_could_not_run(struct ktest *t)
{
	struct bench_result res;

	fake_calls = 0;
	fake_ops = 0;
	bench_measure(&fake_case, 4, &res);
	KTEST_EXPECT_EQ(t, fake_calls, 1UL);
	KTEST_EXPECT_EQ(t, res.ops, 0UL);
}

static int set_reps(const char *val)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%s", val);
	return bench_set_reps(buf);
}

static int set_reps_like(int (*set)(char *), const char *val, char *buf,
			 size_t size)
{
	snprintf(buf, size, "%s", val);
	return set(buf);
}

static void test_reps_param(struct ktest *t)
{
	static const char *const bad[] = { "0", "101", "3x", "-1", "", " 2" };
	unsigned long old = bench_get_reps();
	char buf[24];

	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		KTEST_EXPECT_EQ(t, set_reps(bad[i]), -EINVAL);
		KTEST_EXPECT_EQ(t, bench_get_reps(), old);
	}
	KTEST_EXPECT_EQ(t, bench_set_reps(NULL), -EINVAL);
	KTEST_EXPECT_EQ(t, set_reps("1"), 0);
	KTEST_EXPECT_EQ(t, bench_get_reps(), 1UL);
	KTEST_EXPECT_EQ(t, set_reps("100"), 0);
	KTEST_EXPECT_EQ(t, bench_get_reps(), 100UL);
	snprintf(buf, sizeof(buf), "%lu", old);
	KTEST_EXPECT_EQ(t, bench_set_reps(buf), 0);
}

static unsigned long fake_all_calls[NR_CPUS];

/* Each CPU counts its calls; this one spins 1 ms so time passes. */
static unsigned long fake_all_run(void)
{
	u64 end = arch_clock_ns() + SLOW_NS;

	__atomic_fetch_add(&fake_all_calls[arch_cpu_id()], 1, __ATOMIC_RELAXED);
	while (arch_clock_ns() < end)
		arch_cpu_relax();
	return 1000;
}

static const struct bench_case fake_all_case = {
	.name = "fake_all", .run = fake_all_run, .all_cpus = true,
};

static void test_measure_all_cpus(struct ktest *t)
{
	static struct bench_all_result res;
	unsigned int nr;

	memset(fake_all_calls, 0, sizeof(fake_all_calls));
	bench_measure_all(&fake_all_case, &res);
	nr = res.nr_cpus;
	/* Every online CPU (CPU 0 alone where it is the only one). */
	KTEST_EXPECT_EQ(t, nr, nr_cpu_ids);
	KTEST_EXPECT_EQ(t, fake_all_calls[0], 2UL);	/* warm-up + timed */
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		if (cpu >= nr) {
			KTEST_EXPECT_EQ(t, res.cpu[cpu].ops, 0UL);
			continue;
		}
		if (cpu)
			KTEST_EXPECT_EQ(t, fake_all_calls[cpu], 1UL);
		KTEST_EXPECT_EQ(t, res.cpu[cpu].ops, 1000UL);
		KTEST_EXPECT_GE(t, res.cpu[cpu].ns, SLOW_NS);
		KTEST_EXPECT_LE(t, res.cpu[cpu].ns, res.wall_ns);
	}
	KTEST_EXPECT_EQ(t, res.ops, 1000UL * nr);
}

static void test_ops_per_sec(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, bench_ops_per_sec(1000, 1000000000ULL), 1000ULL);
	KTEST_EXPECT_EQ(t, bench_ops_per_sec(3, 1000), 3000000ULL);
	KTEST_EXPECT_EQ(t, bench_ops_per_sec(5, 0), 0ULL);
}

static void test_smp_param(struct ktest *t)
{
	static const char *const bad[] = { "2", "on", "", "00", "-1" };
	char buf[8];

	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++)
		KTEST_EXPECT_EQ(t, set_reps_like(bench_set_smp, bad[i], buf,
						 sizeof(buf)), -EINVAL);
	KTEST_EXPECT_EQ(t, bench_set_smp(NULL), -EINVAL);
	KTEST_EXPECT_EQ(t, set_reps_like(bench_set_smp, "0", buf, sizeof(buf)), 0);
	KTEST_EXPECT_EQ(t, set_reps_like(bench_set_smp, "1", buf, sizeof(buf)), 0);
}

static unsigned int fake_scale_calls;

/* Each CPU "does" work ops; the second timed run (call 3) is the fastest. */
static void fake_scale(unsigned int nr, unsigned long work,
		       struct bench_all_result *res)
{
	fake_scale_calls++;
	memset(res, 0, sizeof(*res));
	res->nr_cpus = nr;
	res->ops = work * nr;
	res->wall_ns = fake_scale_calls == 3 ? 500 : 1000 + fake_scale_calls;
	for (unsigned int cpu = 0; cpu < nr; cpu++) {
		res->cpu[cpu].ops = work;
		res->cpu[cpu].ns = res->wall_ns;
		res->cpu[cpu].cpu_ns = res->wall_ns;
	}
}

static const struct bench_case fake_scale_case = {
	.name = "fake_scale", .scale = fake_scale, .work = 10,
};

static void test_measure_scale(struct ktest *t)
{
	struct bench_all_result res;
	const unsigned int nr = min(2U, nr_cpu_ids);

	fake_scale_calls = 0;
	bench_measure_scale(&fake_scale_case, nr, 7, 4, &res);
	KTEST_EXPECT_EQ(t, fake_scale_calls, 5U);	/* warm-up + 4 */
	KTEST_EXPECT_EQ(t, res.nr_cpus, nr);
	KTEST_EXPECT_EQ(t, res.wall_ns, 500ULL);
	KTEST_EXPECT_EQ(t, res.ops, 7UL * nr);
	KTEST_EXPECT_EQ(t, res.cpu[nr - 1].ops, 7UL);

	/* No CPUs, more than are online, or no scaling case: not run. */
	fake_scale_calls = 0;
	bench_measure_scale(&fake_scale_case, 0, 7, 1, &res);
	KTEST_EXPECT_EQ(t, res.nr_cpus, 0U);
	bench_measure_scale(&fake_scale_case, nr_cpu_ids + 1, 7, 1, &res);
	KTEST_EXPECT_EQ(t, res.nr_cpus, 0U);
	KTEST_EXPECT_EQ(t, fake_scale_calls, 0U);
	bench_measure_scale(&fake_case, 1, 7, 1, &res);
	KTEST_EXPECT_EQ(t, res.nr_cpus, 0U);
	KTEST_EXPECT_EQ(t, res.ops, 0UL);
}

static void test_cpus_param(struct ktest *t)
{
	static const char *const bad[] = { "0", "", "-1", "2x", "100" };
	const unsigned int old = bench_scale_cpus();
	char buf[8], over[8];

	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		KTEST_EXPECT_EQ(t, set_reps_like(bench_set_cpus, bad[i], buf,
						 sizeof(buf)), -EINVAL);
		KTEST_EXPECT_EQ(t, bench_scale_cpus(), old);
	}
	snprintf(over, sizeof(over), "%u", NR_CPUS + 1);	/* no such CPU */
	KTEST_EXPECT_EQ(t, set_reps_like(bench_set_cpus, over, buf, sizeof(buf)),
			-EINVAL);
	KTEST_EXPECT_EQ(t, bench_scale_cpus(), old);
	KTEST_EXPECT_EQ(t, bench_set_cpus(NULL), -EINVAL);
	KTEST_EXPECT_EQ(t, set_reps_like(bench_set_cpus, "1", buf, sizeof(buf)), 0);
	KTEST_EXPECT_EQ(t, bench_scale_cpus(), 1U);
	/* More than are online: all of them. */
	snprintf(buf, sizeof(buf), "%u", NR_CPUS);
	KTEST_EXPECT_EQ(t, bench_set_cpus(buf), 0);
	KTEST_EXPECT_EQ(t, bench_scale_cpus(), nr_cpu_ids);
}

/* The next whitespace-separated word of *s (NUL-terminated in place). */
static char *next_word(char **s)
{
	char *w;

	*s = skip_spaces(*s);
	if (!**s)
		return NULL;
	w = *s;
	*s += strcspn(*s, " ");
	if (**s)
		*(*s)++ = '\0';
	return w;
}

struct scale_seen {
	unsigned int bench, scale, cpus;	/* lines seen */
	unsigned long cpu_mask;			/* CPUs that did work */
	bool bad;				/* a line out of shape */
};

/* Check one captured line of the run of name_t<nr>. */
static void scale_line(char *line, const char *row, unsigned int nr,
		       struct scale_seen *seen)
{
	char *kind = next_word(&line), *name = next_word(&line);
	char *w[4] = { next_word(&line), next_word(&line), next_word(&line),
		       next_word(&line) };
	unsigned long a, b, c;

	if (!kind || !name || strcmp(name, row))
		return;
	if (!strcmp(kind, "BENCH")) {
		seen->bench++;
		seen->bad |= !w[2] || kstrtoul(w[2], 10, &a);	/* peak KiB */
	} else if (!strcmp(kind, "BENCH_SCALE_CPU")) {
		seen->cpus++;
		if (!w[2] || kstrtoul(w[0], 10, &a) || a >= nr ||
		    kstrtoul(w[1], 10, &b) || kstrtoul(w[2], 10, &c)) {
			seen->bad = true;
			return;
		}
		/* Both its ops/s in its own time and per CPU-second. */
		if (b && c)
			seen->cpu_mask |= 1UL << a;
	} else if (!strcmp(kind, "BENCH_SCALE")) {
		seen->scale++;
		seen->bad |= !w[3] || kstrtoul(w[0], 10, &a) || a != nr ||
			     kstrtoul(w[1], 10, &b) || !b ||
			     w[2][strlen(w[2]) - 1] != '%';
	}
}

/* One scaling case, shortened 1000 times, on 1, 2 and all CPUs. */
static void check_scale_case(struct ktest *t, const char *family)
{
	const unsigned int all = bench_scale_cpus();
	const unsigned int counts[] = { 1, 2, all };
	static char text[KTEST_CAPTURE_SIZE];
	unsigned int last = 0;

	ktest_capture_start(t, NULL);
	bench_run_scale(family, 1000);
	ktest_capture_stop(t);
	strscpy(text, ktest_captured(t), sizeof(text));
	KTEST_EXPECT_TRUE(t, strstr(text, "# bench scaling on 1, 2 and all") != NULL);
	/* Under QEMU the figures say what they are. */
	KTEST_EXPECT_EQ(t, strstr(text, "emulated under TCG") != NULL,
			strcmp(arch_name, "host") != 0);
	for (unsigned int i = 0; i < ARRAY_SIZE(counts); i++) {
		struct scale_seen seen = { 0 };
		char row[48];

		if (counts[i] <= last || counts[i] > all)
			continue;
		last = counts[i];
		snprintf(row, sizeof(row), "%s_t%u", family, last);
		strscpy(text, ktest_captured(t), sizeof(text));
		for (char *rest = text, *line; (line = strsep(&rest, "\n"));)
			scale_line(line, row, last, &seen);
		KTEST_EXPECT_EQ(t, seen.bench, 1U);
		KTEST_EXPECT_EQ(t, seen.scale, 1U);
		KTEST_EXPECT_EQ(t, seen.cpus, last);
		KTEST_EXPECT_FALSE(t, seen.bad);
		/* Every CPU of the run did work. */
		KTEST_EXPECT_EQ(t, seen.cpu_mask, (1UL << last) - 1);
	}
	/* No row for a CPU count twice: with 2 CPUs or fewer, a note says so. */
	KTEST_EXPECT_EQ(t, strstr(ktest_captured(t), "so the all-CPU row is") != NULL,
			all <= 2);
}

static void test_scale_run(struct ktest *t)
{
	check_scale_case(t, "scale_hot_pair_256");
	check_scale_case(t, "scale_producer_consumer");
	check_scale_case(t, "scale_larson");
}

/*
 * The cross-node producer/consumer's threads: producers (even) on node
 * 0's CPUs, consumers (odd) on node 1's, each CPU once; none where the
 * nodes run out of CPUs, or with one node.
 */
static void test_xnode_cpus(struct ktest *t)
{
	static unsigned int cpus[NR_CPUS];
	unsigned int nr, seen = 0, cpu;
	struct cpumask used;

	if (smp_processor_id() != 0)
		ktest_skip(t, "runs on CPU %u, not 0", smp_processor_id());
	for_each_online_cpu(cpu)
		seen |= 1U << min(cpu_to_node(cpu), 1);
	if (num_online_nodes() < 2 || seen != 3U) {
		KTEST_EXPECT_FALSE(t, bench_xnode_cpus(2, cpus));
		return;
	}
	for (nr = 1; nr <= nr_cpu_ids && bench_xnode_cpus(nr, cpus); nr++)
		;
	nr--;
	KTEST_EXPECT_GE(t, nr, 2U);
	cpumask_clear(&used);
	KTEST_ASSERT_TRUE(t, bench_xnode_cpus(nr, cpus));
	KTEST_EXPECT_EQ(t, cpus[0], 0U);
	for (unsigned int i = 0; i < nr; i++) {
		KTEST_EXPECT_EQ(t, cpu_to_node(cpus[i]), (int)(i % 2));
		KTEST_EXPECT_FALSE(t, cpumask_test_cpu(cpus[i], &used));
		cpumask_set_cpu(cpus[i], &used);
	}
}

/*
 * The cross-node scaling case: with two nodes as the other scaling
 * cases, at every CPU count the nodes' CPUs allow (a comment for the
 * others); with one node, skipped with a comment and no row.
 */
static void test_xnode_scale_run(struct ktest *t)
{
	static unsigned int cpus[NR_CPUS];
	const unsigned int all = bench_scale_cpus();
	const char *skipped = "# scale_xnode_producer_consumer: needs 2 NUMA nodes (numa=fake=2), skipped";
	const char *out;
	char line[96];

	if (num_online_nodes() >= 2 && bench_xnode_cpus(all, cpus)) {
		check_scale_case(t, "scale_xnode_producer_consumer");
		return;
	}
	ktest_capture_start(t, NULL);
	bench_run_scale("scale_xnode_producer_consumer", 1000);
	ktest_capture_stop(t);
	out = ktest_captured(t);
	if (num_online_nodes() < 2) {
		KTEST_EXPECT_TRUE(t, strstr(out, skipped) != NULL);
		KTEST_EXPECT_TRUE(t, strstr(out, "BENCH ") == NULL);
		return;
	}
	snprintf(line, sizeof(line),
		 "# scale_xnode_producer_consumer_t%u: could not run on %u CPUs at once",
		 all, all);
	KTEST_EXPECT_TRUE(t, strstr(out, line) != NULL);
	KTEST_EXPECT_TRUE(t, strstr(out, "BENCH_SCALE scale_xnode_producer_consumer_t1 ") != NULL);
}

/* --- cross-CPU costs against the CPU count -------------------------------- */

#define COST_REPS	20

static struct {
	unsigned int first_n;		/* the calls go to CPUs below it */
	unsigned long runs;
	unsigned long outside;		/* ran on a CPU it was not sent to */
} cost;

static bool cost_cond(unsigned int cpu, void *info)
{
	(void)info;
	return cpu < cost.first_n;
}

static void cost_count(void)
{
	__atomic_fetch_add(&cost.runs, 1, __ATOMIC_RELAXED);
	if (smp_processor_id() >= cost.first_n)
		__atomic_fetch_add(&cost.outside, 1, __ATOMIC_RELAXED);
}

static void cost_noop(void *info)
{
	(void)info;
	cost_count();
}

static void cost_drain(void *info)
{
	(void)info;
	drain_local_pages();
	cost_count();
}

/* Mean ns of COST_REPS waited-for calls of fn on the CPUs below n. */
static u64 cost_of(struct ktest *t, unsigned int n, smp_call_func_t fn)
{
	u64 start;

	cost.first_n = n;
	cost.runs = cost.outside = 0;
	start = arch_clock_ns();
	for (unsigned int i = 0; i < COST_REPS; i++)
		KTEST_EXPECT_EQ(t, on_each_cpu_cond(cost_cond, fn, NULL, true), 0);
	start = arch_clock_ns() - start;
	KTEST_EXPECT_EQ(t, cost.runs, (unsigned long)n * COST_REPS);
	KTEST_EXPECT_EQ(t, cost.outside, 0UL);
	return start / COST_REPS;
}

static u64 time_ns(void (*fn)(void *), void *arg)
{
	u64 start = arch_clock_ns();

	fn(arg);
	return arch_clock_ns() - start;
}

static void do_drain_all(void *arg)
{
	(void)arg;
	drain_all_pages();
}

static void do_shrink(void *arg)
{
	kmem_cache_shrink(arg);
}

static void do_gp(void *arg)
{
	(void)arg;
	synchronize_rcu();
}

static void test_cross_cpu_costs(struct ktest *t)
{
	unsigned int online = num_online_cpus(), n, cpu;
	struct kmem_cache *cache;
	struct rcu_stats before, after;
	void *objs[64];
	u64 drain, shrink, gp;

	/* The calls go to CPUs 0 .. n - 1: the online ones must be dense. */
	for_each_online_cpu(cpu)
		if (cpu >= online)
			ktest_skip(t, "online CPUs are not 0..%u", online - 1);
	if (smp_processor_id() != 0)
		ktest_skip(t, "runs on CPU %u, not 0", smp_processor_id());
	cache = kmem_cache_create("bench-shrink", 256, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, cache);
	for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++)
		objs[i] = kmem_cache_alloc(cache, GFP_KERNEL);
	for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++)
		kmem_cache_free(cache, objs[i]);
	for (n = 1; n <= online; n = n < online && 2 * n > online ? online : 2 * n)
		ktest_info(t, "bench: cross-CPU on %u of %u CPUs: call %llu ns, pcp drain %llu ns",
			   n, online,
			   (unsigned long long)cost_of(t, n, cost_noop),
			   (unsigned long long)cost_of(t, n, cost_drain));
	rcu_get_stats(&before);
	drain = time_ns(do_drain_all, NULL);
	shrink = time_ns(do_shrink, cache);
	gp = time_ns(do_gp, NULL);
	rcu_get_stats(&after);
	kmem_cache_destroy(cache);
	KTEST_EXPECT_GT(t, after.completed, before.completed);
	ktest_info(t, "bench: on all %u CPUs: drain_all_pages %llu us, kmem_cache_shrink %llu us, synchronize_rcu %llu us (idle CPUs sit out GPs and drains)",
		   online, (unsigned long long)(drain / 1000),
		   (unsigned long long)(shrink / 1000),
		   (unsigned long long)(gp / 1000));
}

/* --- per-node throughput (NUMA boots) ------------------------------------ */

#define NODE_ITERS	5000UL

/* kmalloc_node(64) and kfree() pairs for one node, on one CPU. */
struct node_run {
	int node;		/* asked for */
	int expect;		/* where the objects must be */
	unsigned long ops;	/* allocations and frees */
	unsigned long failed;	/* NULL from kmalloc_node() */
	unsigned long wrong;	/* objects not on expect */
	u64 ns;
};

static void node_run_fn(void *arg)
{
	struct node_run *r = arg;
	u64 start = arch_clock_ns();

	for (unsigned long i = 0; i < NODE_ITERS; i++) {
		char *p = kmalloc_node(64, GFP_KERNEL, r->node);

		if (!p) {
			r->failed++;
			continue;
		}
		WRITE_ONCE(*p, 1);
		if (page_to_nid(virt_to_page(p)) != r->expect)
			r->wrong++;
		kfree(p);
		r->ops += 2;
	}
	r->ns = arch_clock_ns() - start;
}

/* Run r on cpu (this one, or another through arch_cpu_run()). */
static void node_run_on(struct ktest *t, unsigned int cpu, struct node_run *r)
{
	if (cpu == smp_processor_id()) {
		node_run_fn(r);
		return;
	}
	KTEST_ASSERT_EQ(t, arch_cpu_run(cpu, node_run_fn, r), 0);
	arch_cpu_join(cpu);
}

static bool node_has_memory(int nid)
{
	return NODE_DATA(nid) && NODE_DATA(nid)->node_present_pages;
}

static unsigned int first_cpu_of(int nid)
{
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		if (cpu_to_node(cpu) == nid)
			return cpu;
	}
	return NR_CPUS;
}

/*
 * The farthest online node from nid with memory, other than nid and
 * local (its memory, if it has none); -1 if none.
 */
static int far_node(int nid, int local)
{
	int order[MAX_NUMNODES];
	int n = numa_nodes_by_distance(nid, order);

	while (--n >= 0) {
		if (order[n] != nid && order[n] != local &&
		    node_has_memory(order[n]))
			return order[n];
	}
	return -1;
}

/* ops/s of a over those of b, in hundredths. */
static u64 ratio_x100(const struct node_run *a, const struct node_run *b)
{
	u64 ra = bench_ops_per_sec(a->ops, a->ns);
	u64 rb = bench_ops_per_sec(b->ops, b->ns);

	return rb ? ra * 100 / rb : 0;
}

static void check_node_run(struct ktest *t, const struct node_run *r)
{
	KTEST_EXPECT_EQ(t, r->failed, 0UL);
	KTEST_EXPECT_EQ(t, r->ops, 2 * NODE_ITERS);
	KTEST_EXPECT_EQ(t, r->wrong, 0UL);
	KTEST_EXPECT_GT(t, bench_ops_per_sec(r->ops, r->ns), 0ULL);
}

/*
 * On each node's first CPU, kmalloc_node(64) + kfree() on its own node
 * (a memoryless node's CPU: the nearest with memory, cpu_to_mem(), as
 * numa_mem_id() is for kmalloc()) and on the
 * farthest other node with memory: ops/s of both and their ratio, a
 * measurement; the test asserts that every object came from the node
 * asked for and was freed, and that at least two nodes ran.
 */
static void test_node_throughput(struct ktest *t)
{
	unsigned int nodes_run = 0;

	if (num_online_nodes() < 2)
		ktest_skip(t, "one NUMA node (boot with numa=fake=2 or make test NUMA=)");
	if (smp_processor_id() != 0)
		ktest_skip(t, "runs on CPU %u, not 0", smp_processor_id());
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		unsigned int cpu = first_cpu_of(nid);
		struct node_run local = { 0 }, remote = { 0 };
		u64 x100;

		if (!node_online(nid))
			continue;
		if (cpu >= NR_CPUS) {
			ktest_info(t, "bench: node %d has no CPU", nid);
			continue;
		}
		local.node = node_has_memory(nid) ? nid : cpu_to_mem(cpu);
		local.expect = local.node;
		remote.node = remote.expect = far_node(nid, local.expect);
		KTEST_ASSERT_GE(t, remote.node, 0);
		node_run_on(t, cpu, &local);
		node_run_on(t, cpu, &remote);
		check_node_run(t, &local);
		check_node_run(t, &remote);
		x100 = ratio_x100(&local, &remote);
		ktest_info(t, "bench: node %d CPU %u: own node %d%s %llu ops/s, node %d (distance %d) %llu ops/s, local/remote %llu.%02llu",
			   nid, cpu, local.node,
			   node_has_memory(nid) ? "" : " (nearest with memory)",
			   (unsigned long long)bench_ops_per_sec(local.ops, local.ns),
			   remote.node, node_distance(nid, remote.node),
			   (unsigned long long)bench_ops_per_sec(remote.ops, remote.ns),
			   (unsigned long long)(x100 / 100),
			   (unsigned long long)(x100 % 100));
		nodes_run++;
	}
	KTEST_EXPECT_GE(t, nodes_run, 2U);
}

static const struct ktest_case bench_cases[] = {
	KTEST_CASE(test_node_throughput),
	KTEST_CASE(test_xnode_cpus),
	KTEST_CASE(test_xnode_scale_run),
	KTEST_CASE(test_cross_cpu_costs),
	KTEST_CASE(test_measure_scale),
	KTEST_CASE(test_cpus_param),
	KTEST_CASE(test_scale_run),
	KTEST_CASE(test_measure_all_cpus),
	KTEST_CASE(test_ops_per_sec),
	KTEST_CASE(test_smp_param),
	KTEST_CASE(test_measure_keeps_fastest),
	KTEST_CASE(test_measure_one_rep),
	KTEST_CASE(test_measure_could_not_run),
	KTEST_CASE(test_reps_param),
	{}
};
KTEST_SUITE(bench, bench_cases);

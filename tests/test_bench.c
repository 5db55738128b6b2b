// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the benchmark runner (bench/bench.c): bench_reps= takes 1 to
 * 100 and nothing else; bench_measure() runs a case once untimed, then
 * reps times, and keeps the fastest run and the largest peak of the timed
 * runs; bench_measure_all() runs a case once on every online CPU at once
 * (after a warm-up on this one) and reports each CPU's operations and
 * time; bench_smp= takes 0 or 1.
 */
#include "bench/bench.h"
#include "kernel/errno.h"
#include "lib/ktest/ktest.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "arch/arch.h"

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
	fake_ops = 0;		/* a case that did nothing counts as one op */
	bench_measure(&fake_case, 1, &res);
	KTEST_EXPECT_EQ(t, fake_calls, 2UL);
	KTEST_EXPECT_EQ(t, res.ops, 1UL);
	KTEST_EXPECT_GE(t, res.ns, SLOW_NS);		/* the only timed run */
	KTEST_EXPECT_EQ(t, res.peak_kb, 80L);
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
	KTEST_EXPECT_EQ(t, nr, arch_nr_cpus());
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

static const struct ktest_case bench_cases[] = {
	KTEST_CASE(test_measure_all_cpus),
	KTEST_CASE(test_ops_per_sec),
	KTEST_CASE(test_smp_param),
	KTEST_CASE(test_measure_keeps_fastest),
	KTEST_CASE(test_measure_one_rep),
	KTEST_CASE(test_reps_param),
	{}
};
KTEST_SUITE(bench, bench_cases);

// SPDX-License-Identifier: GPL-2.0
/*
 * Bitmaps (lib/bitmap.h) and CPU masks (kernel/cpumask.h). Every
 * operation is checked at bits that sit on word boundaries (0, 63, 64,
 * 127, 128, 254, 255) against a plain bool array: the bitmaps at 256
 * bits whatever NR_CPUS is, the cpumask at those of its CPUs below
 * NR_CPUS; numbers at and past NR_CPUS are never in a mask. The
 * kernel's masks must nest (online in present in possible), nr_cpu_ids
 * must be one past the last possible CPU, and cpumask_set_cpu() and
 * cpumask_clear_cpu() must not lose updates while every online CPU
 * changes bits of the same words at once.
 */
#include "arch/arch.h"
#include "kernel/cpumask.h"
#include "kernel/smp.h"
#include "lib/bitmap.h"
#include "lib/ktest/ktest.h"
#include "lib/string.h"

#define NBITS		256
#define ATOMIC_ROUNDS	20000

static const unsigned int edge_bits[] = { 0, 1, 63, 64, 65, 127, 128, 200,
					  254, 255 };

/* The reference: bits as bools; the same bits into a bitmap. */
static void fill(unsigned long *map, bool *ref, const unsigned int *bits,
		 unsigned int n, unsigned int nbits)
{
	bitmap_zero(map, nbits);
	memset(ref, 0, nbits);
	for (unsigned int i = 0; i < n; i++) {
		if (bits[i] >= nbits)
			continue;
		__set_bit(bits[i], map);
		ref[bits[i]] = true;
	}
}

static void test_bitmap_bits(struct ktest *t)
{
	DECLARE_BITMAP(map, NBITS);
	bool ref[NBITS];
	unsigned int weight = 0, found = 0, bit;

	fill(map, ref, edge_bits, ARRAY_SIZE(edge_bits), NBITS);
	for (unsigned int i = 0; i < NBITS; i++) {
		KTEST_EXPECT_EQ(t, test_bit(i, map), ref[i]);
		weight += ref[i];
	}
	KTEST_EXPECT_EQ(t, bitmap_weight(map, NBITS), weight);
	KTEST_EXPECT_EQ(t, weight, (unsigned int)ARRAY_SIZE(edge_bits));
	/* find_next_bit walks exactly the set bits, in order. */
	for (bit = find_first_bit(map, NBITS); bit < NBITS;
	     bit = find_next_bit(map, NBITS, bit + 1)) {
		KTEST_ASSERT_LT(t, found, (unsigned int)ARRAY_SIZE(edge_bits));
		KTEST_EXPECT_EQ(t, bit, edge_bits[found]);
		found++;
	}
	KTEST_EXPECT_EQ(t, found, (unsigned int)ARRAY_SIZE(edge_bits));
	KTEST_EXPECT_EQ(t, find_next_bit(map, NBITS, 256), 256UL);
	KTEST_EXPECT_EQ(t, find_next_bit(map, NBITS, 1000), 256UL);
	KTEST_EXPECT_EQ(t, find_next_bit(map, NBITS, 129), 200UL);
	/* A shorter length hides what lies past it. */
	KTEST_EXPECT_EQ(t, find_next_bit(map, 254, 201), 254UL);
	KTEST_EXPECT_EQ(t, bitmap_weight(map, 64), 3U);	/* 0, 1, 63 */
	KTEST_EXPECT_EQ(t, bitmap_weight(map, 65), 4U);
	KTEST_EXPECT_EQ(t, bitmap_weight(map, 255), 9U);

	clear_bit(64, map);
	clear_bit(255, map);
	set_bit(100, map);
	KTEST_EXPECT_FALSE(t, test_bit(64, map));
	KTEST_EXPECT_FALSE(t, test_bit(255, map));
	KTEST_EXPECT_TRUE(t, test_bit(100, map));
	KTEST_EXPECT_TRUE(t, test_bit(65, map));
	KTEST_EXPECT_TRUE(t, test_and_set_bit(100, map));
	KTEST_EXPECT_FALSE(t, test_and_set_bit(101, map));
	KTEST_EXPECT_TRUE(t, test_and_clear_bit(101, map));
	KTEST_EXPECT_FALSE(t, test_and_clear_bit(101, map));
	KTEST_EXPECT_EQ(t, bitmap_weight(map, NBITS), weight - 1);
}

/* and, or, andnot, copy, equal, empty against the bool reference. */
static void test_bitmap_ops(struct ktest *t)
{
	static const unsigned int a_bits[] = { 0, 63, 64, 127, 254 };
	static const unsigned int b_bits[] = { 1, 63, 128, 254, 255 };
	DECLARE_BITMAP(a, NBITS);
	DECLARE_BITMAP(b, NBITS);
	DECLARE_BITMAP(d, NBITS);
	bool ra[NBITS], rb[NBITS];
	unsigned int bad_and = 0, bad_or = 0, bad_andnot = 0;

	fill(a, ra, a_bits, ARRAY_SIZE(a_bits), NBITS);
	fill(b, rb, b_bits, ARRAY_SIZE(b_bits), NBITS);
	KTEST_EXPECT_TRUE(t, bitmap_and(d, a, b, NBITS));
	for (unsigned int i = 0; i < NBITS; i++)
		bad_and += test_bit(i, d) != (ra[i] && rb[i]);
	KTEST_EXPECT_EQ(t, bitmap_weight(d, NBITS), 2U);	/* 63, 254 */
	bitmap_or(d, a, b, NBITS);
	for (unsigned int i = 0; i < NBITS; i++)
		bad_or += test_bit(i, d) != (ra[i] || rb[i]);
	KTEST_EXPECT_EQ(t, bitmap_weight(d, NBITS), 8U);
	KTEST_EXPECT_TRUE(t, bitmap_andnot(d, a, b, NBITS));
	for (unsigned int i = 0; i < NBITS; i++)
		bad_andnot += test_bit(i, d) != (ra[i] && !rb[i]);
	KTEST_EXPECT_EQ(t, bitmap_weight(d, NBITS), 3U);	/* 0, 64, 127 */
	KTEST_EXPECT_EQ(t, bad_and, 0U);
	KTEST_EXPECT_EQ(t, bad_or, 0U);
	KTEST_EXPECT_EQ(t, bad_andnot, 0U);

	/* Empty results say so; a mask minus itself is empty. */
	KTEST_EXPECT_FALSE(t, bitmap_andnot(d, a, a, NBITS));
	KTEST_EXPECT_TRUE(t, bitmap_empty(d, NBITS));
	bitmap_zero(b, NBITS);
	KTEST_EXPECT_FALSE(t, bitmap_and(d, a, b, NBITS));
	KTEST_EXPECT_TRUE(t, bitmap_empty(d, NBITS));
	KTEST_EXPECT_FALSE(t, bitmap_empty(a, NBITS));

	bitmap_copy(d, a, NBITS);
	KTEST_EXPECT_TRUE(t, bitmap_equal(d, a, NBITS));
	__clear_bit(254, d);
	KTEST_EXPECT_FALSE(t, bitmap_equal(d, a, NBITS));
	/* ... but equal over the first 254 bits: the rest is ignored. */
	KTEST_EXPECT_TRUE(t, bitmap_equal(d, a, 254));
	/* Bits past nbits in the last word do not count. */
	bitmap_zero(d, NBITS);
	__set_bit(130, d);
	KTEST_EXPECT_TRUE(t, bitmap_empty(d, 130));
	KTEST_EXPECT_FALSE(t, bitmap_empty(d, 131));
	KTEST_EXPECT_EQ(t, bitmap_weight(d, 130), 0U);
	bitmap_or(a, d, d, 130);
	KTEST_EXPECT_FALSE(t, test_bit(130, a));
}

/* The cpumask API on the edge CPUs this build has. */
static void test_cpumask_ops(struct ktest *t)
{
	struct cpumask a, b, d;
	unsigned int cpu, n = 0, visited = 0, last = 0;
	bool ref[NR_CPUS];

	cpumask_clear(&a);
	KTEST_EXPECT_TRUE(t, cpumask_empty(&a));
	KTEST_EXPECT_EQ(t, cpumask_first(&a), nr_cpumask_bits);
	for_each_cpu(cpu, &a)
		visited++;
	KTEST_EXPECT_EQ(t, visited, 0U);

	memset(ref, 0, sizeof(ref));
	for (unsigned int i = 0; i < ARRAY_SIZE(edge_bits); i++) {
		if (edge_bits[i] >= NR_CPUS)
			continue;
		cpumask_set_cpu(edge_bits[i], &a);
		ref[edge_bits[i]] = true;
		n++;
	}
	KTEST_EXPECT_EQ(t, cpumask_weight(&a), n);
	KTEST_EXPECT_EQ(t, cpumask_first(&a), 0U);
	for_each_cpu(cpu, &a) {
		KTEST_EXPECT_TRUE(t, ref[cpu]);
		KTEST_EXPECT_TRUE(t, cpumask_test_cpu(cpu, &a));
		if (visited)
			KTEST_EXPECT_GT(t, cpu, last);
		last = cpu;
		visited++;
	}
	KTEST_EXPECT_EQ(t, visited, n);
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpumask_test_cpu(cpu, &a) != ref[cpu])
			KTEST_FAIL(t, "CPU %u: bit %d, want %d", cpu,
				   cpumask_test_cpu(cpu, &a), ref[cpu]);
	KTEST_EXPECT_EQ(t, cpumask_next(-1, &a), 0U);
	KTEST_EXPECT_EQ(t, cpumask_next(1, &a), NR_CPUS > 63 ? 63U : nr_cpumask_bits);
	KTEST_EXPECT_EQ(t, cpumask_next((int)last, &a), nr_cpumask_bits);

	/* Numbers out of range: never in a mask, never online. */
	KTEST_EXPECT_FALSE(t, cpumask_test_cpu(NR_CPUS, &a));
	KTEST_EXPECT_FALSE(t, cpumask_test_cpu(~0U, &a));
	KTEST_EXPECT_FALSE(t, cpu_online(NR_CPUS));
	KTEST_EXPECT_FALSE(t, cpu_online(~0U));
	KTEST_EXPECT_FALSE(t, cpu_possible(NR_CPUS));

	/* b: CPU 1 and the last CPU; and/or/andnot/copy against ref. */
	cpumask_clear(&b);
	__cpumask_set_cpu(1, &b);
	__cpumask_set_cpu(NR_CPUS - 1, &b);
	KTEST_EXPECT_EQ(t, cpumask_and(&d, &a, &b), true);
	KTEST_EXPECT_TRUE(t, cpumask_test_cpu(1, &d));
	KTEST_EXPECT_EQ(t, cpumask_weight(&d), 1U + (NR_CPUS - 1 != 1 &&
					     ref[NR_CPUS - 1]));
	cpumask_or(&d, &a, &b);
	KTEST_EXPECT_EQ(t, cpumask_weight(&d), n + !ref[NR_CPUS - 1]);
	KTEST_EXPECT_TRUE(t, cpumask_test_cpu(NR_CPUS - 1, &d));
	KTEST_EXPECT_TRUE(t, cpumask_andnot(&d, &a, &b));
	KTEST_EXPECT_FALSE(t, cpumask_test_cpu(1, &d));
	KTEST_EXPECT_TRUE(t, cpumask_test_cpu(0, &d));
	KTEST_EXPECT_EQ(t, cpumask_weight(&d), n - cpumask_weight(&b) +
			!ref[NR_CPUS - 1]);
	KTEST_EXPECT_FALSE(t, cpumask_andnot(&d, &b, &a) &&
			   ref[NR_CPUS - 1]);
	cpumask_copy(&d, &a);
	KTEST_EXPECT_TRUE(t, cpumask_equal(&d, &a));
	__cpumask_clear_cpu(0, &d);
	KTEST_EXPECT_FALSE(t, cpumask_equal(&d, &a));
	KTEST_EXPECT_EQ(t, cpumask_first(&d), 1U);
	cpumask_clear_cpu(1, &d);
	KTEST_EXPECT_TRUE(t, cpumask_test_and_set_cpu(0, &a));
	KTEST_EXPECT_TRUE(t, cpumask_test_and_clear_cpu(0, &a));
	KTEST_EXPECT_FALSE(t, cpumask_test_and_clear_cpu(0, &a));
	KTEST_EXPECT_EQ(t, cpumask_weight(&a), n - 1);
}

/* The kernel's masks: nested, dense enough to index, this CPU online. */
static void test_cpu_masks(struct ktest *t)
{
	struct cpumask tmp;
	unsigned int cpu, last = 0, possible = 0, online = 0;

	KTEST_EXPECT_TRUE(t, cpu_online(smp_processor_id()));
	KTEST_EXPECT_TRUE(t, cpu_possible(smp_processor_id()));
	KTEST_EXPECT_FALSE(t, cpumask_andnot(&tmp, cpu_online_mask,
					     cpu_present_mask));
	KTEST_EXPECT_FALSE(t, cpumask_andnot(&tmp, cpu_present_mask,
					     cpu_possible_mask));
	for_each_possible_cpu(cpu) {
		last = cpu;
		possible++;
	}
	for_each_online_cpu(cpu)
		online++;
	KTEST_EXPECT_EQ(t, nr_cpu_ids, last + 1);
	KTEST_EXPECT_LE(t, nr_cpu_ids, (unsigned int)NR_CPUS);
	KTEST_EXPECT_EQ(t, possible, num_possible_cpus());
	KTEST_EXPECT_EQ(t, online, num_online_cpus());
	KTEST_EXPECT_GE(t, online, 1U);
	KTEST_EXPECT_LE(t, online, possible);
	for (cpu = nr_cpu_ids; cpu < NR_CPUS; cpu++)
		if (cpu_possible(cpu) || cpu_online(cpu))
			KTEST_FAIL(t, "CPU %u >= nr_cpu_ids %u is in a mask",
				   cpu, nr_cpu_ids);
	ktest_info(t, "%u possible, %u online, nr_cpu_ids %u, NR_CPUS %u",
		  possible, online, nr_cpu_ids, (unsigned int)NR_CPUS);
}

/*
 * Every online CPU sets and clears its own bits, which share words with
 * every other CPU's (bit b belongs to runner b % nr), and checks after
 * each step that its bits read as it left them: only their owner changes
 * them, so a bit that reads otherwise is an update another CPU lost. The
 * runners start together (a gate, waited for at most GATE_NS).
 */
#define GATE_NS		(10ULL * 1000 * 1000 * 1000)

static struct {
	struct cpumask mask;
	unsigned int nr;	/* runners */
	unsigned int arrived;
	unsigned long lost;
	unsigned long late;	/* a runner that gave up on the gate */
} atomic_test;

static void atomic_runner(void *arg)
{
	unsigned int me = (unsigned int)(unsigned long)arg;
	u64 end = arch_clock_ns() + GATE_NS;
	unsigned long lost = 0;

	__atomic_fetch_add(&atomic_test.arrived, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&atomic_test.arrived, __ATOMIC_ACQUIRE) <
	       atomic_test.nr) {
		if (arch_clock_ns() > end) {
			__atomic_fetch_add(&atomic_test.late, 1,
					   __ATOMIC_RELAXED);
			break;
		}
		arch_cpu_relax();
	}
	for (unsigned int round = 0; round < ATOMIC_ROUNDS; round++) {
		for (unsigned int b = me; b < NR_CPUS; b += atomic_test.nr) {
			cpumask_set_cpu(b, &atomic_test.mask);
			lost += !cpumask_test_cpu(b, &atomic_test.mask);
		}
		for (unsigned int b = me; b < NR_CPUS; b += atomic_test.nr) {
			if (round + 1 == ATOMIC_ROUNDS && !(b % 2))
				continue;
			cpumask_clear_cpu(b, &atomic_test.mask);
			lost += cpumask_test_cpu(b, &atomic_test.mask);
		}
	}
	__atomic_fetch_add(&atomic_test.lost, lost, __ATOMIC_RELAXED);
}

static void test_cpumask_atomic(struct ktest *t)
{
	unsigned int cpu, this = smp_processor_id(), idx = 1, wrong = 0;

	if (num_online_cpus() < 2)
		ktest_skip(t, "one CPU online");
	memset(&atomic_test, 0, sizeof(atomic_test));
	atomic_test.nr = num_online_cpus();
	for_each_online_cpu(cpu)
		if (cpu != this)
			KTEST_ASSERT_EQ(t, arch_cpu_run(cpu, atomic_runner,
						(void *)(unsigned long)idx++), 0);
	atomic_runner((void *)0UL);
	for_each_online_cpu(cpu)
		if (cpu != this)
			arch_cpu_join(cpu);
	KTEST_EXPECT_EQ(t, atomic_test.late, 0UL);
	KTEST_EXPECT_EQ(t, atomic_test.lost, 0UL);
	/* What stays: the even bits, set in the last round only. */
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		wrong += cpumask_test_cpu(cpu, &atomic_test.mask) != !(cpu % 2);
	KTEST_EXPECT_EQ(t, wrong, 0U);
	KTEST_EXPECT_EQ(t, cpumask_weight(&atomic_test.mask),
			(unsigned int)(NR_CPUS + 1) / 2);
}

static const struct ktest_case cpumask_cases[] = {
	KTEST_CASE(test_bitmap_bits),
	KTEST_CASE(test_bitmap_ops),
	KTEST_CASE(test_cpumask_ops),
	KTEST_CASE(test_cpu_masks),
	KTEST_CASE(test_cpumask_atomic),
	{}
};
KTEST_SUITE(cpumask, cpumask_cases);

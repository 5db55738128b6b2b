// SPDX-License-Identifier: GPL-2.0
/*
 * The dynamic per-CPU allocator (mm/percpu.h, mm/percpu.c): areas of
 * many sizes and alignments, as Linux's test_vmalloc pcpu_alloc_test
 * uses them, with every CPU's copy zeroed, in its own unit and apart
 * from every other area; each unit on its CPU's node where the page
 * allocator can tell nodes apart; the this_cpu operations on every
 * CPU, and racing an interrupt handler on the same counter; chunks
 * made on demand and given back; GFP_ATOMIC never growing; bad input
 * and exhausted memory failing cleanly.
 */
#include "arch/arch.h"
#include "kernel/cpumask.h"
#include "kernel/irq.h"
#include "kernel/smp.h"
#include "kernel/time.h"
#include "lib/ktest/ktest.h"
#include "lib/prandom.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/fault_inject.h"
#include "mm/numa.h"
#include "mm/percpu.h"
#include "mm/percpu_internal.h"
#include "mm/slab.h"
#include "mm/vmalloc.h"

#define NR_AREAS		400
#define RACE_TIMEOUT_NS		(10ULL * 1000 * 1000 * 1000)
#define RACE_MIN_HITS		20

struct area {
	u8 *ptr;
	size_t size;
};

/* Each byte of CPU cpu's copy of area i: a pattern no other pair has. */
static u8 area_byte(unsigned int i, unsigned int cpu, size_t off)
{
	return (u8)(i * 31 + cpu * 7 + off + 1);
}

static bool area_zeroed(const struct area *a)
{
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		const u8 *p = per_cpu_ptr(a->ptr, cpu);

		for (size_t off = 0; off < a->size; off++)
			if (p[off])
				return false;
	}
	return true;
}

static void area_fill(const struct area *a, unsigned int i)
{
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		u8 *p = per_cpu_ptr(a->ptr, cpu);

		for (size_t off = 0; off < a->size; off++)
			p[off] = area_byte(i, cpu, off);
	}
}

static bool area_intact(const struct area *a, unsigned int i)
{
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		const u8 *p = per_cpu_ptr(a->ptr, cpu);

		for (size_t off = 0; off < a->size; off++)
			if (p[off] != area_byte(i, cpu, off))
				return false;
	}
	return true;
}

/*
 * pcpu_alloc_test's use: NR_AREAS areas of 1..PAGE_SIZE / 4 bytes at
 * alignments 1..PAGE_SIZE, all live at once, then freed. Each must be
 * aligned, zeroed, and must keep its pattern while the others are
 * written (no two overlap, in any CPU's unit).
 */
static void test_alloc_sizes_and_alignments(struct ktest *t)
{
	struct area *areas = ktest_kzalloc(t, NR_AREAS * sizeof(*areas),
					   GFP_KERNEL);
	unsigned int bad_align = 0, not_zeroed = 0, damaged = 0;
	u64 rnd;

	KTEST_ASSERT_NOT_NULL(t, areas);
	prandom_seed(&rnd, 42);
	for (unsigned int i = 0; i < NR_AREAS; i++) {
		size_t align = 1UL << prandom_below(&rnd, PAGE_SHIFT + 1);
		size_t size = 1 + prandom_below(&rnd, PAGE_SIZE / 4);

		if (i < 4)	/* the edges: the smallest and largest */
			size = i < 2 ? 1 : PCPU_MAX_ALLOC_SIZE;
		areas[i].size = size;
		areas[i].ptr = __alloc_percpu(size, align);
		KTEST_ASSERT_NOT_NULL(t, areas[i].ptr);
		for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
			if (!IS_ALIGNED((unsigned long)per_cpu_ptr(areas[i].ptr,
								   cpu), align))
				bad_align++;
		if (!area_zeroed(&areas[i]))
			not_zeroed++;
		area_fill(&areas[i], i);
	}
	for (unsigned int i = 0; i < NR_AREAS; i++)
		if (!area_intact(&areas[i], i))
			damaged++;
	KTEST_EXPECT_EQ(t, bad_align, 0U);
	KTEST_EXPECT_EQ(t, not_zeroed, 0U);
	KTEST_EXPECT_EQ(t, damaged, 0U);
	for (unsigned int i = 0; i < NR_AREAS; i++)
		free_percpu(areas[i].ptr);

	/* What was freed comes back zeroed, written as it was. */
	areas[0].size = PAGE_SIZE / 4;
	areas[0].ptr = __alloc_percpu(areas[0].size, 8);
	KTEST_ASSERT_NOT_NULL(t, areas[0].ptr);
	KTEST_EXPECT_TRUE(t, area_zeroed(&areas[0]));
	free_percpu(areas[0].ptr);
}

/* The node whose memory alloc_pages_node(nid) gives: can nodes be told apart? */
static bool nodes_placeable(void)
{
	bool placed = true;

	if (num_online_nodes() < 2)
		return false;
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		int nid = cpu_to_node(cpu);
		struct page *page = alloc_pages_node(nid, GFP_KERNEL |
						     __GFP_NOWARN, 0);

		if (!page)
			return false;
		placed &= page_to_nid(page) == nid;
		__free_pages(page, 0);
	}
	return placed;
}

/*
 * per_cpu_ptr() of every possible CPU lies in that CPU's unit: the
 * cookie plus per_cpu_offset(cpu), mapped and writable.
 */
static void test_per_cpu_ptr_units(struct ktest *t)
{
	u64 *p = alloc_percpu(u64);
	unsigned int cpu;

	KTEST_ASSERT_NOT_NULL(t, p);
	for_each_possible_cpu(cpu) {
		u64 *mine = per_cpu_ptr(p, cpu);

		KTEST_EXPECT_EQ(t, (unsigned long)mine - (unsigned long)p,
				(unsigned long)cpu * PCPU_UNIT_SIZE);
		KTEST_EXPECT_TRUE(t, is_vmalloc_addr(mine));
		KTEST_EXPECT_NOT_NULL(t, vmalloc_to_page(mine));
		*mine = cpu;
	}
	for_each_possible_cpu(cpu)
		KTEST_EXPECT_EQ(t, *per_cpu_ptr(p, cpu), (u64)cpu);
	free_percpu(p);
}

/*
 * Each CPU's unit is backed by pages of its node (cpu_to_node()), where
 * the page allocator places pages by node at all.
 */
static void test_unit_placement(struct ktest *t)
{
	unsigned int cpu, wrong_node = 0;
	u64 *p;

	if (num_online_nodes() < 2)
		ktest_skip(t, "one node: placement cannot be seen");
	if (!nodes_placeable())
		ktest_skip(t, "alloc_pages_node() does not place pages by node yet");
	p = alloc_percpu(u64);
	KTEST_ASSERT_NOT_NULL(t, p);
	for_each_possible_cpu(cpu) {
		struct page *page = vmalloc_to_page(per_cpu_ptr(p, cpu));

		if (!page || page_to_nid(page) != cpu_to_node(cpu))
			wrong_node++;
	}
	KTEST_EXPECT_EQ(t, wrong_node, 0U);
	free_percpu(p);
}

struct ops_test {
	u64 *u64s;
	u32 *u32s;
	u16 *u16s;
	u8 *u8s;
	unsigned long *wrong_ptr;	/* CPUs whose this_cpu_ptr was wrong */
	unsigned long *ran;
};

static void ops_on_cpu(void *arg)
{
	struct ops_test *o = arg;
	unsigned int cpu = smp_processor_id();

	if (this_cpu_ptr(o->u64s) != per_cpu_ptr(o->u64s, cpu))
		__atomic_fetch_add(o->wrong_ptr, 1, __ATOMIC_RELAXED);
	this_cpu_add(o->u64s, 1000 + cpu);
	this_cpu_inc(o->u64s);
	this_cpu_inc(o->u64s);
	this_cpu_dec(o->u64s);
	this_cpu_write(o->u32s, 0xdead0000 + cpu);
	this_cpu_add(o->u32s, this_cpu_read(o->u32s) >> 16 == 0xdead ? 1 : 0);
	__this_cpu_write(o->u16s, cpu);
	__this_cpu_dec(o->u16s);
	if (__this_cpu_read(o->u16s) != (u16)(cpu - 1))
		__atomic_fetch_add(o->wrong_ptr, 1, __ATOMIC_RELAXED);
	__this_cpu_add(o->u8s, 200);
	__this_cpu_inc(o->u8s);
	if (raw_cpu_ptr(o->u8s) != this_cpu_ptr(o->u8s))
		__atomic_fetch_add(o->wrong_ptr, 1, __ATOMIC_RELAXED);
	this_cpu_add(o->u8s, 100);	/* wraps: 301 & 0xff */
	__atomic_fetch_add(o->ran, 1, __ATOMIC_RELAXED);
}

/*
 * The this_cpu operations of every size on every online CPU
 * (on_each_cpu): each works on its CPU's copy only, and this_cpu_ptr()
 * is per_cpu_ptr() of the CPU running.
 */
static void test_this_cpu_ops_each_cpu(struct ktest *t)
{
	unsigned long wrong = 0, ran = 0;
	struct ops_test o = {
		.u64s = alloc_percpu(u64), .u32s = alloc_percpu(u32),
		.u16s = alloc_percpu(u16), .u8s = alloc_percpu(u8),
		.wrong_ptr = &wrong, .ran = &ran,
	};
	unsigned int cpu;
	u64 sum = 0, want = 0;

	KTEST_ASSERT_TRUE(t, o.u64s && o.u32s && o.u16s && o.u8s);
	KTEST_ASSERT_EQ(t, on_each_cpu(ops_on_cpu, &o, true), 0);
	KTEST_EXPECT_EQ(t, ran, (unsigned long)num_online_cpus());
	KTEST_EXPECT_EQ(t, wrong, 0UL);
	for_each_possible_cpu(cpu) {
		bool online = cpu_online(cpu);

		sum += *per_cpu_ptr(o.u64s, cpu);
		if (online)
			want += 1000 + cpu + 1;
		KTEST_EXPECT_EQ(t, *per_cpu_ptr(o.u32s, cpu),
				online ? 0xdead0001U + cpu : 0U);
		KTEST_EXPECT_EQ(t, *per_cpu_ptr(o.u16s, cpu),
				online ? (u16)(cpu - 1) : (u16)0);
		KTEST_EXPECT_EQ(t, *per_cpu_ptr(o.u8s, cpu),
				online ? (u8)301 : (u8)0);
	}
	KTEST_EXPECT_EQ(t, sum, want);
	free_percpu(o.u64s);
	free_percpu(o.u32s);
	free_percpu(o.u16s);
	free_percpu(o.u8s);
}

static struct irq_race {
	struct timer_list timer;
	unsigned long *counter;
	unsigned long hits;		/* the handler's increments */
	bool stop;
	unsigned int cpu;
	unsigned long wrong_cpu;
} race;

static void race_timer_fn(struct timer_list *timer)
{
	if (smp_processor_id() != race.cpu)
		race.wrong_cpu++;
	this_cpu_inc(race.counter);
	race.hits++;
	if (!READ_ONCE(race.stop))
		mod_timer(&race.timer, jiffies + 1);
}

/*
 * this_cpu_inc() in task context, with interrupts on, against the same
 * counter bumped by a timer function (an interrupt handler) on the same
 * CPU every tick: a non-atomic read-modify-write would lose the
 * handler's increments that land inside it. Nothing may be lost.
 */
static void test_this_cpu_inc_vs_irq(struct ktest *t)
{
	unsigned long task_incs = 0;
	u64 end = ktime_get_ns() + RACE_TIMEOUT_NS;

	memset(&race, 0, sizeof(race));
	race.counter = alloc_percpu(unsigned long);
	KTEST_ASSERT_NOT_NULL(t, race.counter);
	race.cpu = smp_processor_id();
	timer_setup(&race.timer, race_timer_fn, 0);
	mod_timer(&race.timer, jiffies + 1);
	while (READ_ONCE(race.hits) < RACE_MIN_HITS && ktime_get_ns() < end) {
		for (unsigned int i = 0; i < 1000; i++)
			this_cpu_inc(race.counter);
		task_incs += 1000;
	}
	WRITE_ONCE(race.stop, true);
	del_timer_sync(&race.timer);
	KTEST_EXPECT_GE(t, race.hits, (unsigned long)RACE_MIN_HITS);
	KTEST_EXPECT_EQ(t, race.wrong_cpu, 0UL);
	KTEST_EXPECT_EQ(t, *per_cpu_ptr(race.counter, race.cpu),
			task_incs + race.hits);
	ktest_info(t, "%lu task increments, %lu from the timer", task_incs,
		   race.hits);
	free_percpu(race.counter);
}

/*
 * Many areas need more chunks; when they are freed the chunks go back
 * to the page allocator, all but one (the leak check counts the pages).
 */
static void test_chunk_growth_and_release(struct ktest *t)
{
	unsigned int per_chunk = PCPU_UNIT_SIZE / 1024;
	unsigned int n = 3 * per_chunk + 1;
	void **p = ktest_kzalloc(t, n * sizeof(*p), GFP_KERNEL);
	unsigned int before = pcpu_nr_chunks_now();

	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_GE(t, before, 1U);
	for (unsigned int i = 0; i < n; i++) {
		p[i] = __alloc_percpu(1024, 1024);
		KTEST_ASSERT_NOT_NULL(t, p[i]);
	}
	KTEST_EXPECT_GE(t, pcpu_nr_chunks_now(), before + 3);
	for (unsigned int i = 0; i < n; i++)
		free_percpu(p[i]);
	KTEST_EXPECT_EQ(t, pcpu_nr_chunks_now(), 1U);

	/* The largest area takes a whole chunk, more than once. */
	p[0] = __alloc_percpu(PCPU_MAX_ALLOC_SIZE, PAGE_SIZE);
	p[1] = __alloc_percpu(PCPU_MAX_ALLOC_SIZE, PAGE_SIZE);
	KTEST_ASSERT_TRUE(t, p[0] && p[1]);
	KTEST_EXPECT_EQ(t, pcpu_nr_chunks_now(), 2U);
	free_percpu(p[1]);
	free_percpu(p[0]);
	KTEST_EXPECT_EQ(t, pcpu_nr_chunks_now(), 1U);
}

/* Freeing with interrupts off leaves the release to a work item. */
static void test_release_deferred_in_atomic(struct ktest *t)
{
	void *a = __alloc_percpu(PCPU_MAX_ALLOC_SIZE, 8);
	void *b = __alloc_percpu(PCPU_MAX_ALLOC_SIZE, 8);
	unsigned long flags;
	u64 end;

	KTEST_ASSERT_TRUE(t, a && b);
	KTEST_EXPECT_EQ(t, pcpu_nr_chunks_now(), 2U);
	local_irq_save(flags);
	free_percpu(b);
	KTEST_EXPECT_EQ(t, pcpu_nr_chunks_now(), 2U);
	local_irq_restore(flags);
	end = ktime_get_ns() + RACE_TIMEOUT_NS;
	while (pcpu_nr_chunks_now() > 1 && ktime_get_ns() < end)
		arch_cpu_relax();
	KTEST_EXPECT_EQ(t, pcpu_nr_chunks_now(), 1U);
	free_percpu(a);
	pcpu_flush_release();
}

/* Bad sizes and alignments are warned about and fail. */
static void test_bad_requests(struct ktest *t)
{
	static const size_t bad[][2] = {
		{ 0, 8 }, { PCPU_MAX_ALLOC_SIZE + 1, 8 }, { ~0UL, 8 },
		{ 8, 0 }, { 8, 3 }, { 8, 24 }, { 8, 2 * PAGE_SIZE },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		ktest_capture_start(t, "percpu: bad allocation size");
		KTEST_EXPECT_NULL(t, __alloc_percpu(bad[i][0], bad[i][1]));
		KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
		KTEST_EXPECT_REPORT(t, REPORT_WARN);
	}
}

/*
 * free_percpu(NULL) does nothing; a pointer that is no area's start (a
 * kmalloc() object, the middle of an area, one freed already) is warned
 * about and nothing is freed: the live area beside it keeps its data
 * and its space.
 */
static void test_bad_frees(struct ktest *t)
{
	u64 *a = alloc_percpu(u64), *b = alloc_percpu(u64), *c;
	void *k = kmalloc(16, GFP_KERNEL);
	void *bad[] = { k, (u8 *)b + 4, (u8 *)b + 8 * PCPU_UNIT_SIZE, a };
	unsigned int cpu;

	KTEST_ASSERT_TRUE(t, a && b && k);
	free_percpu(NULL);
	for_each_possible_cpu(cpu)
		*per_cpu_ptr(b, cpu) = 0x5a5a0000 + cpu;
	free_percpu(a);
	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		ktest_capture_start(t, "not an allocated per-CPU area");
		free_percpu(bad[i]);
		KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
		KTEST_EXPECT_REPORT(t, REPORT_WARN);
	}
	for_each_possible_cpu(cpu)
		KTEST_EXPECT_EQ(t, *per_cpu_ptr(b, cpu), 0x5a5a0000ULL + cpu);
	/* b's space is still b's: a new area does not land on it. */
	c = alloc_percpu(u64);
	KTEST_ASSERT_NOT_NULL(t, c);
	KTEST_EXPECT_PTR_NE(t, c, b);
	free_percpu(c);
	free_percpu(b);
	kfree(k);
}

/*
 * GFP_ATOMIC takes only what the chunks have: filling them returns NULL
 * and maps nothing; GFP_KERNEL then grows. GFP_KERNEL with interrupts
 * off is warned about and served as GFP_ATOMIC.
 */
static void test_atomic_does_not_grow(struct ktest *t)
{
	unsigned int chunks = pcpu_nr_chunks_now();
	unsigned int max = chunks * PCPU_UNIT_SIZE / PAGE_SIZE + 1, n = 0;
	void **p = ktest_kzalloc(t, (max + 1) * sizeof(*p), GFP_KERNEL);
	unsigned long flags;
	void *q;

	KTEST_ASSERT_NOT_NULL(t, p);
	while (n < max && (p[n] = __alloc_percpu_gfp(PAGE_SIZE, PAGE_SIZE,
						     GFP_ATOMIC)))
		n++;
	KTEST_EXPECT_LT(t, n, max);
	KTEST_EXPECT_EQ(t, pcpu_nr_chunks_now(), chunks);

	local_irq_save(flags);
	ktest_capture_start(t, "sleeping allocation in atomic context");
	q = __alloc_percpu(PAGE_SIZE, PAGE_SIZE);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	local_irq_restore(flags);
	KTEST_EXPECT_NULL(t, q);
	KTEST_EXPECT_EQ(t, pcpu_nr_chunks_now(), chunks);

	p[n] = __alloc_percpu_gfp(PAGE_SIZE, PAGE_SIZE, GFP_KERNEL);
	KTEST_EXPECT_NOT_NULL(t, p[n]);
	KTEST_EXPECT_EQ(t, pcpu_nr_chunks_now(), chunks + 1);
	for (unsigned int i = 0; i <= n; i++)
		free_percpu(p[i]);
	KTEST_EXPECT_EQ(t, pcpu_nr_chunks_now(), 1U);
}

/* Take every chunk's space for 64-byte areas: the next one must grow. */
static void *fill_chunks(struct ktest *t, void ***out, unsigned int *nr)
{
	unsigned int max = pcpu_nr_chunks_now() * PCPU_UNIT_SIZE / 64 + 1;
	void **p = ktest_kzalloc(t, (max + 1) * sizeof(*p), GFP_KERNEL);
	unsigned int n = 0;

	while (p && n < max &&
	       (p[n] = __alloc_percpu_gfp(64, 8, GFP_ATOMIC)))
		n++;
	*out = p;
	*nr = n;
	return p;
}

/*
 * Exhausted memory (the page allocator's and the slab's fault injection)
 * while growing: NULL, no chunk made, nothing leaked.
 */
static void test_exhausted_memory(struct ktest *t)
{
	struct fault_attr *points[] = { &fail_page_alloc, &failslab };
	unsigned int chunks, nr;
	void **p;

	KTEST_ASSERT_NOT_NULL(t, fill_chunks(t, &p, &nr));
	chunks = pcpu_nr_chunks_now();
	for (unsigned int i = 0; i < ARRAY_SIZE(points); i++) {
		KTEST_ASSERT_EQ(t, fault_attr_set(points[i], "1,100,0,-1", i), 0);
		KTEST_EXPECT_NULL(t, __alloc_percpu(64, 8));
		fault_attr_disable(points[i]);
		KTEST_EXPECT_GT(t, points[i]->failures, 0UL);
		KTEST_EXPECT_EQ(t, pcpu_nr_chunks_now(), chunks);
	}
	/* Failures part way through a chunk's pages: each one undone. */
	for (unsigned int space = 1; space < 4; space++) {
		char spec[32];

		snprintf(spec, sizeof(spec), "1,100,%lu,1",
			 space * PCPU_UNIT_SIZE - 1);
		KTEST_ASSERT_EQ(t, fault_attr_set(&fail_page_alloc, spec, 7), 0);
		p[nr] = __alloc_percpu(64, 8);
		fault_attr_disable(&fail_page_alloc);
		if (space < nr_cpu_ids)
			KTEST_EXPECT_NULL(t, p[nr]);
		free_percpu(p[nr]);
	}
	for (unsigned int i = 0; i < nr; i++)
		free_percpu(p[i]);
	pcpu_flush_release();
	KTEST_EXPECT_EQ(t, pcpu_nr_chunks_now(), 1U);
}

static const struct ktest_case percpu_cases[] = {
	KTEST_CASE(test_alloc_sizes_and_alignments),
	KTEST_CASE(test_per_cpu_ptr_units),
	KTEST_CASE(test_unit_placement),
	KTEST_CASE(test_this_cpu_ops_each_cpu),
	KTEST_CASE(test_this_cpu_inc_vs_irq),
	KTEST_CASE(test_chunk_growth_and_release),
	KTEST_CASE(test_release_deferred_in_atomic),
	KTEST_CASE(test_bad_requests),
	KTEST_CASE(test_bad_frees),
	KTEST_CASE(test_atomic_does_not_grow),
	KTEST_CASE(test_exhausted_memory),
	{}
};

KTEST_SUITE(percpu, percpu_cases);

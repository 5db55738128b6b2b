// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of memblock on local instances (the kernel's `memblock` holds the
 * real machine's state and is only read here). Every case starts from an
 * empty instance on static arrays (the kernel stack is small) and checks
 * the whole table against a list written out by hand, plus the
 * invariants, after each step that changes it.
 */
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "lib/ktest/ktest.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "mm/memblock.h"

#define TEST_MAX_REGIONS	16

static struct memblock_region test_memory_regions[TEST_MAX_REGIONS];
static struct memblock_region test_reserved_regions[TEST_MAX_REGIONS];
static struct memblock test_mb;

/* [start, end) as a region without a node, on node nid, with flags too. */
#define RNF(start, end, n, f)	{ .base = (start), .size = (end) - (start), \
				  .flags = (f), .nid = (n) }
#define RN(start, end, n)	RNF(start, end, n, MEMBLOCK_NONE)
#define R(start, end)		RN(start, end, NUMA_NO_NODE)

/* Node ids the test instance takes, whatever MAX_NUMNODES is. */
#define TEST_NR_NODES	4

#define TOP		(~(phys_addr_t)0)

static int memblock_test_init(struct ktest *t)
{
	/* Poison the arrays: nothing may read past cnt. */
	memset(test_memory_regions, 0xa5, sizeof(test_memory_regions));
	memset(test_reserved_regions, 0xa5, sizeof(test_reserved_regions));
	memblock_instance_init(&test_mb, test_memory_regions, TEST_MAX_REGIONS,
			       test_reserved_regions, TEST_MAX_REGIONS);
	test_mb.nr_nodes = TEST_NR_NODES;
	t->priv = &test_mb;
	return 0;
}

static void check_regions(struct ktest *t, int line,
			  const struct memblock_type *type,
			  const struct memblock_region *exp, unsigned long n)
{
	phys_addr_t total = 0;
	unsigned long i;

	if (memblock_validate_type(type))
		ktest_fail(t, __FILE__, line, "%s: invariants broken", type->name);
	for (i = 0; i < n; i++)
		total += exp[i].size;
	if (type->total_size != total)
		ktest_fail(t, __FILE__, line, "%s.total_size %#lx, expected %#lx",
			   type->name, type->total_size, total);
	if (type->cnt != n) {
		ktest_fail(t, __FILE__, line, "%s.cnt %lu, expected %lu",
			   type->name, type->cnt, n);
		return;
	}
	for (i = 0; i < n; i++) {
		const struct memblock_region *r = &type->regions[i];

		if (r->base != exp[i].base || r->size != exp[i].size ||
		    r->nid != exp[i].nid || r->flags != exp[i].flags)
			ktest_fail(t, __FILE__, line,
				   "%s[%lu] = [%#lx, %#lx) node %d flags %#x, expected [%#lx, %#lx) node %d flags %#x",
				   type->name, i, r->base, r->base + r->size,
				   r->nid, r->flags, exp[i].base,
				   exp[i].base + exp[i].size, exp[i].nid,
				   exp[i].flags);
	}
}

/* The whole table must be exactly these regions, in this order. */
#define EXPECT_REGIONS(t, type, ...) do {				\
	static const struct memblock_region __exp[] = { __VA_ARGS__ };	\
	check_regions(t, __LINE__, type, __exp, ARRAY_SIZE(__exp));	\
} while (0)

#define EXPECT_EMPTY(t, type)	check_regions(t, __LINE__, type, NULL, 0)

/* Expect exactly one "WARNING:" report from memblock while running stmt. */
#define EXPECT_ONE_WARN(t, stmt) do {					\
	unsigned long __before = warn_count;				\
	ktest_capture_start(t, "WARNING: CPU:");			\
	stmt;								\
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);			\
	KTEST_EXPECT_CAPTURED(t, " at mm/memblock.c");			\
	KTEST_EXPECT_EQ(t, warn_count - __before, 1UL);		\
} while (0)

/* --- add -------------------------------------------------------------- */

static void test_add_into_empty(struct ktest *t)
{
	struct memblock *mb = t->priv;

	EXPECT_EMPTY(t, &mb->memory);
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x1000, 0x2000), 0);
	EXPECT_REGIONS(t, &mb->memory, R(0x1000, 0x3000));
	EXPECT_EMPTY(t, &mb->reserved);
}

static void test_add_disjoint_sorted(struct ktest *t)
{
	struct memblock *mb = t->priv;

	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x10000, 0x10000), 0);
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x1000, 0x1000), 0);
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x40000, 0x10000), 0);
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x30000, 0x800), 0);
	EXPECT_REGIONS(t, &mb->memory,
		       R(0x1000, 0x2000), R(0x10000, 0x20000),
		       R(0x30000, 0x30800), R(0x40000, 0x50000));
}

static void test_add_overlapping_merges(struct ktest *t)
{
	struct memblock *mb = t->priv;

	memblock_add_range(&mb->memory, 0x1000, 0x2000);
	/* Overlaps the top. */
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x2000, 0x3000), 0);
	EXPECT_REGIONS(t, &mb->memory, R(0x1000, 0x5000));
	/* Overlaps the bottom. */
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x800, 0x1000), 0);
	EXPECT_REGIONS(t, &mb->memory, R(0x800, 0x5000));
	/* A disjoint one, then one overlapping both. */
	memblock_add_range(&mb->memory, 0x8000, 0x1000);
	EXPECT_REGIONS(t, &mb->memory, R(0x800, 0x5000), R(0x8000, 0x9000));
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x4000, 0x4800), 0);
	EXPECT_REGIONS(t, &mb->memory, R(0x800, 0x9000));
}

static void test_add_adjacent_merges(struct ktest *t)
{
	struct memblock *mb = t->priv;

	memblock_add_range(&mb->memory, 0x2000, 0x1000);
	/* Touches the top end. */
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x3000, 0x1000), 0);
	EXPECT_REGIONS(t, &mb->memory, R(0x2000, 0x4000));
	/* Touches the bottom. */
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x1000, 0x1000), 0);
	EXPECT_REGIONS(t, &mb->memory, R(0x1000, 0x4000));
	/* Fills the exact gap between two regions: they become one. */
	memblock_add_range(&mb->memory, 0x6000, 0x1000);
	EXPECT_REGIONS(t, &mb->memory, R(0x1000, 0x4000), R(0x6000, 0x7000));
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x4000, 0x2000), 0);
	EXPECT_REGIONS(t, &mb->memory, R(0x1000, 0x7000));
}

static void test_add_contained(struct ktest *t)
{
	struct memblock *mb = t->priv;

	memblock_add_range(&mb->memory, 0x1000, 0x4000);
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x2000, 0x1000), 0);
	EXPECT_REGIONS(t, &mb->memory, R(0x1000, 0x5000));
	/* The same range again. */
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x1000, 0x4000), 0);
	EXPECT_REGIONS(t, &mb->memory, R(0x1000, 0x5000));
	/* Sharing the bottom, and sharing the top. */
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x1000, 0x800), 0);
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x4800, 0x800), 0);
	EXPECT_REGIONS(t, &mb->memory, R(0x1000, 0x5000));
}

static void test_add_covering_several(struct ktest *t)
{
	struct memblock *mb = t->priv;

	memblock_add_range(&mb->memory, 0x1000, 0x1000);
	memblock_add_range(&mb->memory, 0x3000, 0x1000);
	memblock_add_range(&mb->memory, 0x5000, 0x1000);
	memblock_add_range(&mb->memory, 0x8000, 0x1000);
	memblock_add_range(&mb->memory, 0xa000, 0x1000);
	EXPECT_REGIONS(t, &mb->memory,
		       R(0x1000, 0x2000), R(0x3000, 0x4000), R(0x5000, 0x6000),
		       R(0x8000, 0x9000), R(0xa000, 0xb000));
	/* From inside the first to inside the third. */
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x1800, 0x4000), 0);
	EXPECT_REGIONS(t, &mb->memory,
		       R(0x1000, 0x6000), R(0x8000, 0x9000), R(0xa000, 0xb000));
	/* Strictly around the last two. */
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x7000, 0x5000), 0);
	EXPECT_REGIONS(t, &mb->memory, R(0x1000, 0x6000), R(0x7000, 0xc000));
	/* Everything. */
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0, 0x100000), 0);
	EXPECT_REGIONS(t, &mb->memory, R(0, 0x100000));
}

static void test_add_full_table(struct ktest *t)
{
	struct memblock *mb = t->priv;
	int ret = 0;

	mb->memory.max = 4;
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x1000, 0x1000), 0);
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x7000, 0x1000), 0);
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x3000, 0x1000), 0);
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x5000, 0x1000), 0);
	EXPECT_REGIONS(t, &mb->memory,
		       R(0x1000, 0x2000), R(0x3000, 0x4000),
		       R(0x5000, 0x6000), R(0x7000, 0x8000));

	/* A fifth disjoint region, in the middle and at the end: no room. */
	EXPECT_ONE_WARN(t, ret = memblock_add_range(&mb->memory, 0x4800, 0x100));
	KTEST_EXPECT_EQ(t, ret, -ENOSPC);
	EXPECT_ONE_WARN(t, ret = memblock_add_range(&mb->memory, 0x10000, 0x1000));
	KTEST_EXPECT_EQ(t, ret, -ENOSPC);
	EXPECT_REGIONS(t, &mb->memory,
		       R(0x1000, 0x2000), R(0x3000, 0x4000),
		       R(0x5000, 0x6000), R(0x7000, 0x8000));
	/* Nothing was written past max either. */
	KTEST_EXPECT_EQ(t, test_memory_regions[4].base, 0xa5a5a5a5a5a5a5a5UL);

	/* Merging needs no new entry, so it still works when full. */
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x2000, 0x800), 0);
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x4000, 0x1000), 0);
	EXPECT_REGIONS(t, &mb->memory,
		       R(0x1000, 0x2800), R(0x3000, 0x6000), R(0x7000, 0x8000));
}

static void test_add_size_zero(struct ktest *t)
{
	struct memblock *mb = t->priv;

	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x1000, 0), 0);
	EXPECT_EMPTY(t, &mb->memory);
	memblock_add_range(&mb->memory, 0x1000, 0x1000);
	/* Zero-sized, touching and inside: no change at all. */
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x2000, 0), 0);
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x1800, 0), 0);
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x9000, 0), 0);
	EXPECT_REGIONS(t, &mb->memory, R(0x1000, 0x2000));
}

static void test_add_overflow_clipped(struct ktest *t)
{
	struct memblock *mb = t->priv;

	/* base + size wraps: clipped to end at the top, ~0. */
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0xfffffffffffff000UL,
					      0x2000), 0);
	EXPECT_REGIONS(t, &mb->memory,
		       { .base = 0xfffffffffffff000UL, .size = 0xfff, .nid = NUMA_NO_NODE });
	/* Starting at the very top: nothing left to add. */
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, TOP, 0x1000), 0);
	EXPECT_REGIONS(t, &mb->memory,
		       { .base = 0xfffffffffffff000UL, .size = 0xfff, .nid = NUMA_NO_NODE });
	/* The whole address space, size ~0: one region [0, ~0). */
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0, TOP), 0);
	EXPECT_REGIONS(t, &mb->memory,
		       { .base = 0, .size = TOP, .nid = NUMA_NO_NODE });
	/* And it can still be carved. */
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->memory, 0x1000, TOP), 0);
	EXPECT_REGIONS(t, &mb->memory, R(0, 0x1000));
}

/* --- remove ----------------------------------------------------------- */

/* Three regions most remove cases start from. */
static void add_three(struct memblock *mb)
{
	memblock_add_range(&mb->memory, 0x10000, 0x10000);
	memblock_add_range(&mb->memory, 0x30000, 0x10000);
	memblock_add_range(&mb->memory, 0x50000, 0x10000);
}

static void test_remove_whole_region(struct ktest *t)
{
	struct memblock *mb = t->priv;

	add_three(mb);
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->memory, 0x30000, 0x10000), 0);
	EXPECT_REGIONS(t, &mb->memory, R(0x10000, 0x20000), R(0x50000, 0x60000));
	/* A range strictly around a region removes just it. */
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->memory, 0x48000, 0x20000), 0);
	EXPECT_REGIONS(t, &mb->memory, R(0x10000, 0x20000));
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->memory, 0x10000, 0x10000), 0);
	EXPECT_EMPTY(t, &mb->memory);
}

static void test_remove_head(struct ktest *t)
{
	struct memblock *mb = t->priv;

	add_three(mb);
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->memory, 0x30000, 0x4000), 0);
	EXPECT_REGIONS(t, &mb->memory,
		       R(0x10000, 0x20000), R(0x34000, 0x40000), R(0x50000, 0x60000));
	/* Starting below the region. */
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->memory, 0x0, 0x11000), 0);
	EXPECT_REGIONS(t, &mb->memory,
		       R(0x11000, 0x20000), R(0x34000, 0x40000), R(0x50000, 0x60000));
}

static void test_remove_tail(struct ktest *t)
{
	struct memblock *mb = t->priv;

	add_three(mb);
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->memory, 0x3c000, 0x4000), 0);
	EXPECT_REGIONS(t, &mb->memory,
		       R(0x10000, 0x20000), R(0x30000, 0x3c000), R(0x50000, 0x60000));
	/* Running past the end of the region. */
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->memory, 0x5f000, 0x8000), 0);
	EXPECT_REGIONS(t, &mb->memory,
		       R(0x10000, 0x20000), R(0x30000, 0x3c000), R(0x50000, 0x5f000));
}

static void test_remove_middle_splits(struct ktest *t)
{
	struct memblock *mb = t->priv;

	add_three(mb);
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->memory, 0x34000, 0x2000), 0);
	EXPECT_REGIONS(t, &mb->memory,
		       R(0x10000, 0x20000), R(0x30000, 0x34000),
		       R(0x36000, 0x40000), R(0x50000, 0x60000));
	/* Adding it back merges the halves again. */
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 0x34000, 0x2000), 0);
	EXPECT_REGIONS(t, &mb->memory,
		       R(0x10000, 0x20000), R(0x30000, 0x40000), R(0x50000, 0x60000));
}

static void test_remove_spanning_several(struct ktest *t)
{
	struct memblock *mb = t->priv;

	add_three(mb);
	memblock_add_range(&mb->memory, 0x70000, 0x10000);
	/* From inside the first to inside the third: first and third trimmed. */
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->memory, 0x18000, 0x3c000), 0);
	EXPECT_REGIONS(t, &mb->memory,
		       R(0x10000, 0x18000), R(0x54000, 0x60000), R(0x70000, 0x80000));
	/* Exactly from the start of one to the end of the last. */
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->memory, 0x54000, 0x2c000), 0);
	EXPECT_REGIONS(t, &mb->memory, R(0x10000, 0x18000));
}

static void test_remove_nothing_there(struct ktest *t)
{
	struct memblock *mb = t->priv;

	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->memory, 0x1000, 0x1000), 0);
	EXPECT_EMPTY(t, &mb->memory);

	add_three(mb);
	/* Below all, in a hole, above all, touching only, size 0. */
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->memory, 0x0, 0x10000), 0);
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->memory, 0x20000, 0x10000), 0);
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->memory, 0x60000, 0x100000), 0);
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->memory, 0x40000, 0x10000), 0);
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->memory, 0x38000, 0), 0);
	EXPECT_REGIONS(t, &mb->memory,
		       R(0x10000, 0x20000), R(0x30000, 0x40000), R(0x50000, 0x60000));
}

static void test_remove_split_full(struct ktest *t)
{
	struct memblock *mb = t->priv;
	int ret = 0;

	mb->memory.max = 3;
	add_three(mb);
	EXPECT_ONE_WARN(t, ret = memblock_remove_range(&mb->memory, 0x34000, 0x2000));
	KTEST_EXPECT_EQ(t, ret, -ENOSPC);
	EXPECT_REGIONS(t, &mb->memory,
		       R(0x10000, 0x20000), R(0x30000, 0x40000), R(0x50000, 0x60000));
	KTEST_EXPECT_EQ(t, test_memory_regions[3].base, 0xa5a5a5a5a5a5a5a5UL);

	/* Trimming needs no new entry; spanning two frees one, then splits fit. */
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->memory, 0x10000, 0x1000), 0);
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->memory, 0x3f000, 0x21000), 0);
	EXPECT_REGIONS(t, &mb->memory, R(0x11000, 0x20000), R(0x30000, 0x3f000));
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->memory, 0x34000, 0x2000), 0);
	EXPECT_REGIONS(t, &mb->memory,
		       R(0x11000, 0x20000), R(0x30000, 0x34000), R(0x36000, 0x3f000));
}

/* --- find and alloc ----------------------------------------------------- */

static void test_alloc_top_down(struct ktest *t)
{
	struct memblock *mb = t->priv;

	memblock_add_range(&mb->memory, 0x100000, 0xf00000);	/* 1M..16M */
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x1000, 0x1000, 0, 0),
			0xfff000UL);
	/* find does not reserve. */
	EXPECT_EMPTY(t, &mb->reserved);
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x1000, 0x1000, 0, 0), 0xfff000UL);
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x1000, 0x1000, 0, 0), 0xffe000UL);
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x3000, 0x1000, 0, 0), 0xffb000UL);
	EXPECT_REGIONS(t, &mb->reserved, R(0xffb000, 0x1000000));
	EXPECT_REGIONS(t, &mb->memory, R(0x100000, 0x1000000));
}

static void test_alloc_alignment(struct ktest *t)
{
	struct memblock *mb = t->priv;
	phys_addr_t got = 1;

	memblock_add_range(&mb->memory, 0x123000, 0x864000);	/* ..0x987000 */
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x1000, SZ_2M, 0, 0), 0x800000UL);
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, SZ_2M, SZ_2M, 0, 0), 0x600000UL);
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, SZ_2M, SZ_2M, 0, 0), 0x400000UL);
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, SZ_2M, SZ_2M, 0, 0), 0x200000UL);
	/* Left: [0x123000, 0x200000) and [0x801000, 0x987000), no 2M boundary. */
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x1000, SZ_2M, 0, 0), 0UL);
	EXPECT_REGIONS(t, &mb->reserved, R(0x200000, 0x801000));

	/* align 0 means 8. */
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x13, 0, 0, 0), 0x986fe8UL);
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x13, 1, 0, 0), 0x986fedUL);
	/* Not a power of two: WARN, then page alignment. */
	EXPECT_ONE_WARN(t, got = memblock_find_in_range(mb, 0x13, 0x3000, 0, 0));
	KTEST_EXPECT_EQ(t, got, 0x986000UL);
}

static void test_find_respects_start_end_limit(struct ktest *t)
{
	struct memblock *mb = t->priv;

	memblock_add_range(&mb->memory, 0x1000, 0xff000);	/* ..1M */
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x1000, 0x1000, 0, 0x80000),
			0x7f000UL);
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x1000, 0x1000, 0x50000, 0x52000),
			0x51000UL);
	/* Unaligned end: the top page that fits below it. */
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x1000, 0x1000, 0x50000, 0x52fff),
			0x51000UL);
	/* Window too small, or the wrong way round. */
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x1000, 0x1000, 0x50000, 0x50800),
			0UL);
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x1000, 0x1000, 0x60000, 0x50000),
			0UL);
	/* Start above the memory. */
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x1000, 0x1000, 0x100000, 0),
			0UL);

	/* current_limit bounds MEMBLOCK_ALLOC_ACCESSIBLE... */
	mb->current_limit = 0x40000;
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x1000, 0x1000, 0,
						  MEMBLOCK_ALLOC_ACCESSIBLE), 0x3f000UL);
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x2000, 0x1000, 0x3000, 0), 0x3e000UL);
	/* ...not an explicit end. */
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x1000, 0x1000, 0, 0x90000),
			0x8f000UL);
	/* A limit below every free byte, and limit 0. */
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x1000, 0x1000, 0x40000, 0), 0UL);
	mb->current_limit = 0;
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x1000, 0x1000, 0, 0), 0UL);
	EXPECT_REGIONS(t, &mb->reserved, R(0x3e000, 0x40000));
}

static void test_find_skips_reserved(struct ktest *t)
{
	struct memblock *mb = t->priv;

	memblock_add_range(&mb->memory, 0x1000, 0x1f000);	/* ..0x20000 */
	memblock_add_range(&mb->reserved, 0x1e000, 0x4000);	/* past memory */
	memblock_add_range(&mb->reserved, 0x10000, 0xc000);
	/* Free: [0x1000, 0x10000) and [0x1c000, 0x1e000). */
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x1000, 0x1000, 0, 0), 0x1d000UL);
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x2000, 0x1000, 0, 0), 0x1c000UL);
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x3000, 0x1000, 0, 0), 0xd000UL);
	/* A window inside a reserved range finds nothing. */
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x1000, 0x1000, 0x10000, 0x1c000),
			0UL);
	/* One straddling the reserved range finds below it. */
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x1000, 0x1000, 0x8000, 0x1b000),
			0xf000UL);
}

static void test_find_nothing_fits(struct ktest *t)
{
	struct memblock *mb = t->priv;
	phys_addr_t got = 1;

	/* No memory at all. */
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x1000, 0x1000, 0, 0), 0UL);
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x1000, 0x1000, 0, 0), 0UL);
	/* All of it reserved. */
	memblock_add_range(&mb->memory, 0x1000, 0x9000);
	memblock_add_range(&mb->reserved, 0x0, 0x20000);
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x1000, 0x1000, 0, 0), 0UL);
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 8, 8, 0, 0), 0UL);
	/* Size 0 finds nothing even with free memory; allocating it WARNs. */
	memblock_remove_range(&mb->reserved, 0x4000, 0x1000);
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0, 0x1000, 0, 0), 0UL);
	EXPECT_ONE_WARN(t, got = memblock_alloc_range(mb, 0, 0x1000, 0, 0));
	KTEST_EXPECT_EQ(t, got, 0UL);
	EXPECT_REGIONS(t, &mb->reserved, R(0x0, 0x4000), R(0x5000, 0x20000));
	/* A size bigger than the address space window. */
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, TOP, 0x1000, 0, 0), 0UL);
}

static void test_find_never_page0(struct ktest *t)
{
	struct memblock *mb = t->priv;

	memblock_add_range(&mb->memory, 0x0, 0x3000);
	/* Needs page 0: refused. */
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x3000, 0x1000, 0, 0), 0UL);
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x1000, 0x1000, 0, 0x1000), 0UL);
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x1000, 0x1000, 0, 0), 0x2000UL);
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x800, 0x800, 0, 0), 0x1800UL);
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x800, 8, 0, 0), 0x1000UL);
	/* Only page 0 is left free. */
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 8, 8, 0, 0), 0UL);
	EXPECT_REGIONS(t, &mb->reserved, R(0x1000, 0x3000));
}

static void test_find_larger_than_any_free(struct ktest *t)
{
	struct memblock *mb = t->priv;

	memblock_add_range(&mb->memory, 0x1000, 0x4000);
	memblock_add_range(&mb->memory, 0x8000, 0x4000);
	/* 0x8000 bytes free in total, but no single range holds 0x5000. */
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x5000, 0x1000, 0, 0), 0UL);
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x4001, 8, 0, 0), 0UL);
	/* Exactly the size of the upper range. */
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x4000, 0x1000, 0, 0), 0x8000UL);
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x4000, 0x1000, 0, 0), 0x1000UL);
	EXPECT_REGIONS(t, &mb->reserved, R(0x1000, 0x5000), R(0x8000, 0xc000));
}

static void test_alloc_exact_fit(struct ktest *t)
{
	struct memblock *mb = t->priv;

	memblock_add_range(&mb->memory, 0x10000, 0x4000);
	memblock_add_range(&mb->reserved, 0x11000, 0x2000);
	/* Free: [0x10000, 0x11000) and [0x13000, 0x14000), one page each. */
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x1001, 8, 0, 0), 0UL);
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x1000, 0x1000, 0, 0), 0x13000UL);
	EXPECT_REGIONS(t, &mb->reserved, R(0x11000, 0x14000));
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x1000, 0x1000, 0, 0), 0x10000UL);
	/* The fills merged everything into one reserved region. */
	EXPECT_REGIONS(t, &mb->reserved, R(0x10000, 0x14000));
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 8, 8, 0, 0), 0UL);
}

static void test_alloc_reserved_table_full(struct ktest *t)
{
	struct memblock *mb = t->priv;
	phys_addr_t got = 1;

	mb->reserved.max = 2;
	memblock_add_range(&mb->memory, 0x1000, 0xf000);
	memblock_add_range(&mb->reserved, 0xd000, 0x1000);	/* not at the top */
	memblock_add_range(&mb->reserved, 0x4000, 0x1000);
	/* The top page [0xf000, 0x10000) touches nothing: a third entry. */
	EXPECT_ONE_WARN(t, got = memblock_alloc_range(mb, 0x1000, 0x1000, 0, 0));
	KTEST_EXPECT_EQ(t, got, 0UL);
	EXPECT_REGIONS(t, &mb->reserved, R(0x4000, 0x5000), R(0xd000, 0xe000));
	/* One touching a reserved range merges and succeeds. */
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x1000, 0x1000, 0, 0xd000), 0xc000UL);
	EXPECT_REGIONS(t, &mb->reserved, R(0x4000, 0x5000), R(0xc000, 0xe000));
}

/* --- free ranges ------------------------------------------------------- */

/* The free ranges of node nid (NUMA_NO_NODE: all), with their nodes. */
static void check_free_ranges(struct ktest *t, int line, const struct memblock *mb,
			      int nid, const struct memblock_region *exp,
			      unsigned long n)
{
	phys_addr_t start = 1, end = 1;
	unsigned long k = 0;
	int got_nid = -2;
	u64 i;

	for_each_free_mem_range(mb, i, nid, &start, &end, &got_nid) {
		if (k < n && (start != exp[k].base ||
			      end != exp[k].base + exp[k].size ||
			      got_nid != exp[k].nid))
			ktest_fail(t, __FILE__, line,
				   "free range %lu = [%#lx, %#lx) node %d, expected [%#lx, %#lx) node %d",
				   k, start, end, got_nid, exp[k].base,
				   exp[k].base + exp[k].size, exp[k].nid);
		k++;
		if (k > TEST_MAX_REGIONS * 2 + 1)
			break;		/* a runaway walk */
	}
	if (k != n)
		ktest_fail(t, __FILE__, line, "%lu free ranges, expected %lu", k, n);
	/* Once done, it stays done. */
	if (memblock_next_free_range(mb, &i, nid, &start, &end, NULL))
		ktest_fail(t, __FILE__, line, "walk restarted after its end");
}

#define EXPECT_NODE_FREE_RANGES(t, mb, nid, ...) do {			\
	static const struct memblock_region __exp[] = { __VA_ARGS__ };	\
	check_free_ranges(t, __LINE__, mb, nid, __exp, ARRAY_SIZE(__exp)); \
} while (0)

#define EXPECT_FREE_RANGES(t, mb, ...)					\
	EXPECT_NODE_FREE_RANGES(t, mb, NUMA_NO_NODE, __VA_ARGS__)

#define EXPECT_NO_FREE_RANGES(t, mb)					\
	check_free_ranges(t, __LINE__, mb, NUMA_NO_NODE, NULL, 0)

static void test_free_ranges_holes_and_reservations(struct ktest *t)
{
	struct memblock *mb = t->priv;

	memblock_add_range(&mb->memory, 0x1000, 0x9e000);	/* ..0x9f000 */
	memblock_add_range(&mb->memory, 0x100000, 0x700000);	/* ..0x800000 */
	memblock_add_range(&mb->memory, 0x900000, 0x100000);	/* ..0xa00000 */

	memblock_add_range(&mb->reserved, 0x0, 0x2000);		/* from below memory */
	memblock_add_range(&mb->reserved, 0x9e000, 0x2000);	/* past the first end */
	memblock_add_range(&mb->reserved, 0xc0000, 0x10000);	/* in a hole */
	memblock_add_range(&mb->reserved, 0x200000, 0x100000);
	memblock_add_range(&mb->reserved, 0x400000, 0x1000);
	memblock_add_range(&mb->reserved, 0x7ff000, 0x102000);	/* across a hole */

	EXPECT_FREE_RANGES(t, mb,
			   R(0x2000, 0x9e000),
			   R(0x100000, 0x200000),
			   R(0x300000, 0x400000),
			   R(0x401000, 0x7ff000),
			   R(0x901000, 0xa00000));
}

static void test_free_ranges_edges(struct ktest *t)
{
	struct memblock *mb = t->priv;

	/* No memory; reserved alone gives nothing. */
	EXPECT_NO_FREE_RANGES(t, mb);
	memblock_add_range(&mb->reserved, 0x5000, 0x1000);
	EXPECT_NO_FREE_RANGES(t, mb);

	/* Memory from 0 (the walk reports page 0; only find skips it). */
	memblock_add_range(&mb->memory, 0x0, 0x4000);
	memblock_add_range(&mb->memory, 0x8000, 0x4000);
	EXPECT_FREE_RANGES(t, mb, R(0x0, 0x4000), R(0x8000, 0xc000));

	/* Reservations at both ends of both regions. */
	memblock_add_range(&mb->reserved, 0x0, 0x1000);
	memblock_add_range(&mb->reserved, 0x3000, 0x1000);
	memblock_add_range(&mb->reserved, 0x8000, 0x1000);
	memblock_add_range(&mb->reserved, 0xb000, 0x10000);
	EXPECT_FREE_RANGES(t, mb, R(0x1000, 0x3000), R(0x9000, 0xb000));

	/* Everything reserved. */
	memblock_add_range(&mb->reserved, 0x0, 0x20000);
	EXPECT_NO_FREE_RANGES(t, mb);
}

static void test_free_ranges_after_allocs(struct ktest *t)
{
	struct memblock *mb = t->priv;

	memblock_add_range(&mb->memory, 0x1000, 0x1f000);	/* ..0x20000 */
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x1000, 0x1000, 0, 0), 0x1f000UL);
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x3000, 0x1000, 0, 0x10000),
			0xd000UL);
	EXPECT_FREE_RANGES(t, mb, R(0x1000, 0xd000), R(0x10000, 0x1f000));
}

static void test_find_falls_to_lower_region(struct ktest *t)
{
	struct memblock *mb = t->priv;

	/* One free gap spanning two regions; the upper one is too small. */
	memblock_add_range(&mb->memory, 0x1000, 0x4000);	/* ..0x5000 */
	memblock_add_range(&mb->memory, 0x8000, 0x1000);	/* ..0x9000 */
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x2000, 0x1000, 0, 0), 0x3000UL);
	/* Same with reservations below and above both regions. */
	memblock_add_range(&mb->reserved, 0x0, 0x1800);
	memblock_add_range(&mb->reserved, 0x20000, 0x1000);
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x2000, 0x1000, 0, 0), 0x3000UL);
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x3800, 0x800, 0, 0), 0x1800UL);
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x3801, 8, 0, 0), 0UL);
	EXPECT_FREE_RANGES(t, mb, R(0x1800, 0x5000), R(0x8000, 0x9000));
}

/* --- round trips, queries, the checker, the dump ---------------------- */

static void test_reserve_free_round_trip(struct ktest *t)
{
	struct memblock *mb = t->priv;
	phys_addr_t mem_before, res_before, a, b;

	memblock_add_range(&mb->memory, 0x1000, 0xff000);
	memblock_add_range(&mb->reserved, 0x1000, 0x1000);
	memblock_add_range(&mb->reserved, 0x80000, 0x8000);
	mem_before = mb->memory.total_size;
	res_before = mb->reserved.total_size;
	KTEST_EXPECT_EQ(t, res_before, 0x9000UL);

	/* Reserve ranges overlapping, touching and apart from the old ones. */
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->reserved, 0x2000, 0x3000), 0);
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->reserved, 0x40000, 0x1000), 0);
	a = memblock_alloc_range(mb, 0x10000, 0x1000, 0, 0);
	b = memblock_alloc_range(mb, 0x1234, 0x10, 0, 0);
	KTEST_EXPECT_EQ(t, a, 0xf0000UL);
	KTEST_EXPECT_EQ(t, b, 0xeedc0UL);
	EXPECT_REGIONS(t, &mb->reserved,
		       R(0x1000, 0x5000), R(0x40000, 0x41000), R(0x80000, 0x88000),
		       R(0xeedc0, 0xefff4), R(0xf0000, 0x100000));

	/* Free them all again, in another order. */
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->reserved, a, 0x10000), 0);
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->reserved, 0x40000, 0x1000), 0);
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->reserved, b, 0x1234), 0);
	KTEST_EXPECT_EQ(t, memblock_remove_range(&mb->reserved, 0x2000, 0x3000), 0);
	KTEST_EXPECT_EQ(t, mb->reserved.total_size, res_before);
	KTEST_EXPECT_EQ(t, mb->memory.total_size, mem_before);
	EXPECT_REGIONS(t, &mb->reserved, R(0x1000, 0x2000), R(0x80000, 0x88000));
	EXPECT_REGIONS(t, &mb->memory, R(0x1000, 0x100000));
}

static void test_overlaps_and_search(struct ktest *t)
{
	struct memblock *mb = t->priv;
	struct memblock_type *res = &mb->reserved;

	memblock_add_range(res, 0x2000, 0x1000);
	memblock_add_range(res, 0x5000, 0x2000);
	KTEST_EXPECT_FALSE(t, memblock_overlaps_region(res, 0x1000, 0x1000));
	KTEST_EXPECT_TRUE(t, memblock_overlaps_region(res, 0x1000, 0x1001));
	KTEST_EXPECT_TRUE(t, memblock_overlaps_region(res, 0x2fff, 1));
	KTEST_EXPECT_FALSE(t, memblock_overlaps_region(res, 0x3000, 0x2000));
	KTEST_EXPECT_TRUE(t, memblock_overlaps_region(res, 0x0, TOP));
	KTEST_EXPECT_FALSE(t, memblock_overlaps_region(res, 0x7000, TOP));
	KTEST_EXPECT_FALSE(t, memblock_overlaps_region(res, 0x5000, 0));

	KTEST_EXPECT_EQ(t, memblock_search(res, 0x1fff), -1L);
	KTEST_EXPECT_EQ(t, memblock_search(res, 0x2000), 0L);
	KTEST_EXPECT_EQ(t, memblock_search(res, 0x2fff), 0L);
	KTEST_EXPECT_EQ(t, memblock_search(res, 0x3000), -1L);
	KTEST_EXPECT_EQ(t, memblock_search(res, 0x6fff), 1L);
	KTEST_EXPECT_EQ(t, memblock_search(res, 0x7000), -1L);
	KTEST_EXPECT_EQ(t, memblock_search(&mb->memory, 0x2000), -1L);
}

static void test_validate_catches_breakage(struct ktest *t)
{
	static struct memblock_region bad[3];
	struct memblock_type type = {
		.cnt = 2, .max = 3, .regions = bad, .name = "bad",
	};
	unsigned int lines;

	ktest_capture_start(t, "memblock: bad");
	/* Valid first. */
	bad[0] = (struct memblock_region)R(0x1000, 0x2000);
	bad[1] = (struct memblock_region)R(0x3000, 0x4000);
	type.total_size = 0x2000;
	KTEST_EXPECT_EQ(t, memblock_validate_type(&type), 0);
	/* Adjacent, overlapping, unsorted, empty, wrapping, bad sum, cnt > max. */
	bad[1] = (struct memblock_region)R(0x2000, 0x3000);
	KTEST_EXPECT_EQ(t, memblock_validate_type(&type), -EINVAL);
	bad[1] = (struct memblock_region)R(0x1800, 0x2800);
	KTEST_EXPECT_EQ(t, memblock_validate_type(&type), -EINVAL);
	bad[1] = (struct memblock_region)R(0x0, 0x1000);
	KTEST_EXPECT_EQ(t, memblock_validate_type(&type), -EINVAL);
	bad[1] = (struct memblock_region){ .base = 0x3000, .size = 0 };
	KTEST_EXPECT_EQ(t, memblock_validate_type(&type), -EINVAL);
	bad[1] = (struct memblock_region){ .base = 0x3000, .size = TOP };
	KTEST_EXPECT_EQ(t, memblock_validate_type(&type), -EINVAL);
	bad[1] = (struct memblock_region)R(0x3000, 0x4000);
	type.total_size = 0x2001;
	KTEST_EXPECT_EQ(t, memblock_validate_type(&type), -EINVAL);
	type.total_size = 0x2000;
	type.cnt = 4;
	KTEST_EXPECT_EQ(t, memblock_validate_type(&type), -EINVAL);
	type.cnt = 2;
	/* Touching is fine between nodes; a node below -1 or a bad flag is not. */
	bad[1] = (struct memblock_region)RN(0x2000, 0x3000, 5);
	type.total_size = 0x2000;
	KTEST_EXPECT_EQ(t, memblock_validate_type(&type), 0);
	bad[1].nid = -2;
	KTEST_EXPECT_EQ(t, memblock_validate_type(&type), -EINVAL);
	bad[1] = (struct memblock_region)RNF(0x2000, 0x3000, 1, 0x40);
	KTEST_EXPECT_EQ(t, memblock_validate_type(&type), -EINVAL);
	/* With an owner, node ids stop at its nr_nodes. */
	bad[1] = (struct memblock_region)RN(0x2000, 0x3000, TEST_NR_NODES);
	KTEST_EXPECT_EQ(t, memblock_validate_type(&type), 0);
	type.owner = t->priv;
	KTEST_EXPECT_EQ(t, memblock_validate_type(&type), -EINVAL);
	lines = ktest_capture_stop(t);
	KTEST_EXPECT_EQ(t, lines, 10U);
}

static void test_dump_format(struct ktest *t)
{
	struct memblock *mb = t->priv;

	memblock_add_range(&mb->memory, 0x1000, 0x9e000);
	memblock_add_range(&mb->memory, 0x100000, 0x7ee0000);
	memblock_add_range(&mb->reserved, 0x1000, 0x1000);

	ktest_capture_start(t, " memory[0x0]\t[0x0000000000001000-0x000000000009efff], "
			    "0x000000000009e000 bytes");
	memblock_dump_instance(mb);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	ktest_capture_start(t, " memory[0x1]\t[0x0000000000100000-0x0000000007fdffff], "
			    "0x0000000007ee0000 bytes");
	memblock_dump_instance(mb);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	ktest_capture_start(t, " memory size = 0x0000000007f7e000 "
			    "reserved size = 0x0000000000001000");
	memblock_dump_instance(mb);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	ktest_capture_start(t, " reserved.cnt  = 0x1");
	memblock_dump_instance(mb);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	/* A node is named, flags always; no node, no "on node". */
	memblock_set_node(0x100000, 0x1000, &mb->memory, 2);
	ktest_capture_start(t, " memory[0x1]\t[0x0000000000100000-0x0000000000100fff], "
			    "0x0000000000001000 bytes on node 2 flags: 0x0");
	memblock_dump_instance(mb);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	ktest_capture_start(t, "bytes flags: 0x0");
	memblock_dump_instance(mb);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 3U);
}

/* Read-only: whatever boot put in the kernel's instance keeps the invariants. */
static void test_kernel_instance_consistent(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, memblock_validate_type(&memblock.memory), 0);
	KTEST_EXPECT_EQ(t, memblock_validate_type(&memblock.reserved), 0);
	KTEST_EXPECT_EQ(t, memblock.memory.max, (unsigned long)INIT_MEMBLOCK_REGIONS);
	KTEST_EXPECT_EQ(t, memblock.reserved.max, (unsigned long)INIT_MEMBLOCK_REGIONS);
	KTEST_EXPECT_EQ(t, memblock_phys_mem_size(), memblock.memory.total_size);
	KTEST_EXPECT_EQ(t, memblock_reserved_size(), memblock.reserved.total_size);
	KTEST_EXPECT_LE(t, memblock_start_of_DRAM(), memblock_end_of_DRAM());
	if (memblock.memory.cnt)
		KTEST_EXPECT_TRUE(t, memblock_is_memory(memblock_start_of_DRAM()));
	KTEST_EXPECT_FALSE(t, memblock_is_memory(memblock_end_of_DRAM()));
}

/* Read-only: by mm_core_init, all the kernel's RAM is on a node. */
static void test_kernel_memory_on_nodes(struct ktest *t)
{
	const struct memblock_region *r;
	unsigned long n = 0;

	for_each_mem_region(&memblock, r) {
		KTEST_EXPECT_GE(t, memblock_get_region_node(r), 0);
		KTEST_EXPECT_LT(t, memblock_get_region_node(r), MAX_NUMNODES);
		n++;
	}
	KTEST_EXPECT_EQ(t, n, memblock.memory.cnt);
	KTEST_EXPECT_GT(t, n, 0UL);
	KTEST_EXPECT_FALSE(t, memblock_bottom_up());
}

/* --- doubling ------------------------------------------------------------ */

/*
 * The instance may grow: "physical" [ARENA_BASE, ARENA_BASE + ARENA_SIZE)
 * is the static arena, so the doubled arrays are real memory the test can
 * look at. Everything else the tests add is far above and never touched.
 */
#define ARENA_BASE	0x100000UL
#define ARENA_SIZE	(64 * 1024UL)
#define FAR		0x40000000UL

static u8 arena[ARENA_SIZE] __aligned(4096);

static void *arena_va(phys_addr_t phys)
{
	if (phys < ARENA_BASE || phys >= ARENA_BASE + ARENA_SIZE)
		return NULL;
	return arena + (phys - ARENA_BASE);
}

static void grow_setup(struct memblock *mb)
{
	mb->current_limit = ARENA_BASE + ARENA_SIZE;	/* what arena_va maps */
	memblock_instance_allow_resize(mb, arena_va);
	memblock_add_range(&mb->memory, ARENA_BASE, ARENA_SIZE);
}

/* Is [base, base + size) one reserved region's part? */
static bool reserved_covers(const struct memblock *mb, phys_addr_t base,
			    phys_addr_t size)
{
	long i = memblock_search(&mb->reserved, base);
	const struct memblock_region *r = &mb->reserved.regions[i];

	return i >= 0 && r->base + r->size >= base + size;
}

/* 200 memory regions: the table doubles 16 -> 32 -> 64 -> 128 -> 256. */
static void test_memory_doubles(struct ktest *t)
{
	struct memblock *mb = t->priv;
	const unsigned long n = 200;
	unsigned long i;

	grow_setup(mb);
	for (i = 0; i < n; i++)
		KTEST_ASSERT_EQ(t, memblock_add_range(&mb->memory,
						      FAR + 0x2000 * i, 0x1000), 0);
	KTEST_EXPECT_EQ(t, memblock_validate_type(&mb->memory), 0);
	KTEST_EXPECT_EQ(t, memblock_validate_type(&mb->reserved), 0);
	KTEST_ASSERT_EQ(t, mb->memory.cnt, n + 1);
	KTEST_EXPECT_EQ(t, mb->memory.max, 256UL);
	KTEST_EXPECT_EQ(t, mb->memory.regions[0].base, ARENA_BASE);
	for (i = 0; i < n; i++)
		KTEST_EXPECT_EQ(t, mb->memory.regions[i + 1].base, FAR + 0x2000 * i);
	/* The array lives in the arena, is reserved, and the old ones freed. */
	KTEST_EXPECT_PTR_EQ(t, (void *)mb->memory.regions,
			    arena_va(mb->memory.regions_phys));
	KTEST_EXPECT_TRUE(t, reserved_covers(mb, mb->memory.regions_phys,
					     256 * sizeof(struct memblock_region)));
	KTEST_EXPECT_EQ(t, mb->reserved.total_size,
			256 * sizeof(struct memblock_region));
}

/*
 * A reservation past the table doubles it too, and the new array never
 * lands on the range being reserved: here the arena's top page, where it
 * would go otherwise (allocation is top-down).
 */
static void test_reserved_doubles(struct ktest *t)
{
	struct memblock *mb = t->priv;
	const phys_addr_t top = ARENA_BASE + ARENA_SIZE - 0x1000;
	const phys_addr_t bytes = 32 * sizeof(struct memblock_region);
	phys_addr_t array;
	unsigned long i;

	grow_setup(mb);
	for (i = 0; i < TEST_MAX_REGIONS; i++)
		KTEST_ASSERT_EQ(t, memblock_add_range(&mb->reserved,
						      FAR + 0x2000 * i, 0x1000), 0);
	KTEST_ASSERT_EQ(t, mb->reserved.max, (unsigned long)TEST_MAX_REGIONS);
	KTEST_ASSERT_EQ(t, memblock_add_range(&mb->reserved, top, 0x1000), 0);
	KTEST_EXPECT_EQ(t, memblock_validate_type(&mb->reserved), 0);
	KTEST_EXPECT_EQ(t, mb->reserved.max, 32UL);
	array = mb->reserved.regions_phys;
	KTEST_EXPECT_EQ(t, array, top - 0x1000);
	KTEST_EXPECT_TRUE(t, reserved_covers(mb, top, 0x1000));
	KTEST_EXPECT_TRUE(t, reserved_covers(mb, array, bytes));
	KTEST_EXPECT_EQ(t, mb->reserved.total_size,
			0x1000 * (TEST_MAX_REGIONS + 1) + bytes);
	/* The regions were copied: the array, the top page, then FAR... */
	KTEST_EXPECT_EQ(t, mb->reserved.regions[0].base, array);
	KTEST_EXPECT_EQ(t, mb->reserved.regions[1].base, top);
	KTEST_EXPECT_EQ(t, mb->reserved.regions[2].base, FAR);
	KTEST_EXPECT_EQ(t, mb->reserved.regions[TEST_MAX_REGIONS + 1].base,
			FAR + 0x2000 * (TEST_MAX_REGIONS - 1));
}

/* Without memory to put a larger array in, a full table still says so. */
static void test_double_without_room(struct ktest *t)
{
	struct memblock *mb = t->priv;
	unsigned long i;

	mb->current_limit = ARENA_BASE + ARENA_SIZE;
	memblock_instance_allow_resize(mb, arena_va);	/* but no memory there */
	for (i = 0; i < TEST_MAX_REGIONS; i++)
		memblock_add_range(&mb->memory, FAR + 0x2000 * i, 0x1000);
	ktest_capture_start(t, "memblock:");
	KTEST_EXPECT_EQ(t, memblock_add_range(&mb->memory, 2 * FAR, 0x1000),
			-ENOSPC);
	ktest_capture_stop(t);
	KTEST_EXPECT_CAPTURED(t, "no room to double the memory table to 32 regions");
	KTEST_EXPECT_CAPTURED(t, "memory table full (16 regions)");
	KTEST_EXPECT_EQ(t, mb->memory.cnt, (unsigned long)TEST_MAX_REGIONS);
}

/* --- nodes: add, set_node, iterators ------------------------------------ */

static void test_add_node_merges_same_node_only(struct ktest *t)
{
	struct memblock *mb = t->priv;
	struct memblock_type *mem = &mb->memory;

	KTEST_EXPECT_EQ(t, memblock_add_range_nid(mem, 0x1000, 0x1000, 1, 0), 0);
	EXPECT_REGIONS(t, mem, RN(0x1000, 0x2000, 1));
	/* Touching, same node: one region. */
	KTEST_EXPECT_EQ(t, memblock_add_range_nid(mem, 0x2000, 0x1000, 1, 0), 0);
	EXPECT_REGIONS(t, mem, RN(0x1000, 0x3000, 1));
	/* Touching, another node, no node, other flags: apart. */
	KTEST_EXPECT_EQ(t, memblock_add_range_nid(mem, 0x3000, 0x1000, 2, 0), 0);
	KTEST_EXPECT_EQ(t, memblock_add_range(mem, 0x0, 0x1000), 0);
	KTEST_EXPECT_EQ(t, memblock_add_range_nid(mem, 0x4000, 0x1000, 2,
						  MEMBLOCK_HOTPLUG), 0);
	EXPECT_REGIONS(t, mem, R(0x0, 0x1000), RN(0x1000, 0x3000, 1),
		       RN(0x3000, 0x4000, 2),
		       RNF(0x4000, 0x5000, 2, MEMBLOCK_HOTPLUG));
	KTEST_EXPECT_TRUE(t, memblock_is_hotpluggable(&mem->regions[3]));
	KTEST_EXPECT_FALSE(t, memblock_is_hotpluggable(&mem->regions[2]));
	KTEST_EXPECT_EQ(t, memblock_get_region_node(&mem->regions[1]), 1);
	KTEST_EXPECT_EQ(t, memblock_get_region_node(&mem->regions[0]), NUMA_NO_NODE);
	/* A node id at the instance's limit, above MAX_NUMNODES here. */
	KTEST_EXPECT_EQ(t, memblock_add_range_nid(mem, 0x10000, 0x1000,
						  TEST_NR_NODES - 1, 0), 0);
	KTEST_EXPECT_EQ(t, memblock_get_region_node(&mem->regions[4]),
			TEST_NR_NODES - 1);
}

/* What is there keeps its node; only the holes take the new one. */
static void test_add_node_fills_holes(struct ktest *t)
{
	struct memblock *mb = t->priv;
	struct memblock_type *mem = &mb->memory;

	memblock_add_range_nid(mem, 0x1000, 0x1000, 0, 0);
	memblock_add_range_nid(mem, 0x3000, 0x1000, 1, 0);
	KTEST_EXPECT_EQ(t, memblock_add_range_nid(mem, 0x0, 0x5000, 2, 0), 0);
	EXPECT_REGIONS(t, mem, RN(0x0, 0x1000, 2), RN(0x1000, 0x2000, 0),
		       RN(0x2000, 0x3000, 2), RN(0x3000, 0x4000, 1),
		       RN(0x4000, 0x5000, 2));
	/* Node 0 over all of it: nothing is a hole, nothing changes. */
	KTEST_EXPECT_EQ(t, memblock_add_range_nid(mem, 0x0, 0x5000, 0, 0), 0);
	EXPECT_REGIONS(t, mem, RN(0x0, 0x1000, 2), RN(0x1000, 0x2000, 0),
		       RN(0x2000, 0x3000, 2), RN(0x3000, 0x4000, 1),
		       RN(0x4000, 0x5000, 2));
	/* Past the end, touching node 2: merges. */
	KTEST_EXPECT_EQ(t, memblock_add_range_nid(mem, 0x4800, 0x1800, 2, 0), 0);
	EXPECT_REGIONS(t, mem, RN(0x0, 0x1000, 2), RN(0x1000, 0x2000, 0),
		       RN(0x2000, 0x3000, 2), RN(0x3000, 0x4000, 1),
		       RN(0x4000, 0x6000, 2));
}

/*
 * A full table takes an add whose holes merge, even when one of them
 * needs a new entry: another hole joins two regions first.
 */
static void test_add_node_full_table(struct ktest *t)
{
	struct memblock *mb = t->priv;
	struct memblock_type *mem = &mb->memory;
	int ret = 0;

	mem->max = 4;
	memblock_add_range_nid(mem, 0x1000, 0x1000, 1, 0);
	memblock_add_range_nid(mem, 0x3000, 0x1000, 1, 0);
	memblock_add_range_nid(mem, 0x5000, 0x1000, 2, 0);
	memblock_add_range_nid(mem, 0x8000, 0x1000, 3, 0);
	/* [0x2000,0x3000) joins two, [0x4000,0x5000) one, [0x6000,0x7000) none. */
	KTEST_EXPECT_EQ(t, memblock_add_range_nid(mem, 0x2000, 0x5000, 1, 0), 0);
	EXPECT_REGIONS(t, mem, RN(0x1000, 0x5000, 1), RN(0x5000, 0x6000, 2),
		       RN(0x6000, 0x7000, 1), RN(0x8000, 0x9000, 3));
	/* A hole that needs an entry more: refused, nothing changed. */
	EXPECT_ONE_WARN(t, ret = memblock_add_range_nid(mem, 0x7000, 0x800, 2, 0));
	KTEST_EXPECT_EQ(t, ret, -ENOSPC);
	KTEST_EXPECT_CAPTURED(t, "memory table full (4 regions)");
	EXPECT_REGIONS(t, mem, RN(0x1000, 0x5000, 1), RN(0x5000, 0x6000, 2),
		       RN(0x6000, 0x7000, 1), RN(0x8000, 0x9000, 3));
	KTEST_EXPECT_EQ(t, test_memory_regions[4].base, 0xa5a5a5a5a5a5a5a5UL);
}

static void test_add_node_bad_input(struct ktest *t)
{
	struct memblock *mb = t->priv;
	struct memblock_type *mem = &mb->memory;
	int ret = 0;

	memblock_add_range_nid(mem, 0x1000, 0x1000, 0, 0);
	EXPECT_ONE_WARN(t, ret = memblock_add_range_nid(mem, 0x2000, 0x1000,
							TEST_NR_NODES, 0));
	KTEST_EXPECT_EQ(t, ret, -EINVAL);
	KTEST_EXPECT_CAPTURED(t, "node 4 is not valid");
	EXPECT_ONE_WARN(t, ret = memblock_add_range_nid(mem, 0x2000, 0x1000, -2, 0));
	KTEST_EXPECT_EQ(t, ret, -EINVAL);
	EXPECT_ONE_WARN(t, ret = memblock_add_range_nid(mem, 0x2000, 0x1000, 0,
							(enum memblock_flags)0x80));
	KTEST_EXPECT_EQ(t, ret, -EINVAL);
	KTEST_EXPECT_CAPTURED(t, "unknown flags 0x80");
	EXPECT_REGIONS(t, mem, RN(0x1000, 0x2000, 0));
	/* The kernel's instance takes only MAX_NUMNODES nodes. */
	KTEST_EXPECT_EQ(t, memblock.nr_nodes, MAX_NUMNODES);
}

static void test_set_node_splits_and_merges(struct ktest *t)
{
	struct memblock *mb = t->priv;
	struct memblock_type *mem = &mb->memory;

	memblock_add_range(mem, 0x1000, 0x8000);		/* ..0x9000 */
	KTEST_EXPECT_EQ(t, memblock_set_node(0x3000, 0x2000, mem, 1), 0);
	EXPECT_REGIONS(t, mem, R(0x1000, 0x3000), RN(0x3000, 0x5000, 1),
		       R(0x5000, 0x9000));
	/* Next to it, same node: merges with it. */
	KTEST_EXPECT_EQ(t, memblock_set_node(0x5000, 0x2000, mem, 1), 0);
	EXPECT_REGIONS(t, mem, R(0x1000, 0x3000), RN(0x3000, 0x7000, 1),
		       R(0x7000, 0x9000));
	/* Across the boundary of two regions: split on both sides. */
	KTEST_EXPECT_EQ(t, memblock_set_node(0x6000, 0x2000, mem, 2), 0);
	EXPECT_REGIONS(t, mem, R(0x1000, 0x3000), RN(0x3000, 0x6000, 1),
		       RN(0x6000, 0x8000, 2), R(0x8000, 0x9000));
	/* Exactly one region's range: no split. */
	KTEST_EXPECT_EQ(t, memblock_set_node(0x1000, 0x2000, mem, 3), 0);
	EXPECT_REGIONS(t, mem, RN(0x1000, 0x3000, 3), RN(0x3000, 0x6000, 1),
		       RN(0x6000, 0x8000, 2), R(0x8000, 0x9000));
	/* All of it, and beyond: one region again. */
	KTEST_EXPECT_EQ(t, memblock_set_node(0x0, TOP, mem, 0), 0);
	EXPECT_REGIONS(t, mem, RN(0x1000, 0x9000, 0));
	/* Back to no node; size 0 changes nothing. */
	KTEST_EXPECT_EQ(t, memblock_set_node(0x2000, 0, mem, 1), 0);
	KTEST_EXPECT_EQ(t, memblock_set_node(0x1000, 0x8000, mem, NUMA_NO_NODE), 0);
	EXPECT_REGIONS(t, mem, R(0x1000, 0x9000));
}

/* Removing keeps the node and flags of what is left on both sides. */
static void test_remove_keeps_nodes(struct ktest *t)
{
	struct memblock *mb = t->priv;
	struct memblock_type *mem = &mb->memory;

	memblock_add_range_nid(mem, 0x1000, 0x4000, 1, MEMBLOCK_HOTPLUG);
	memblock_add_range_nid(mem, 0x5000, 0x4000, 2, 0);
	KTEST_EXPECT_EQ(t, memblock_remove_range(mem, 0x2000, 0x1000), 0);
	EXPECT_REGIONS(t, mem, RNF(0x1000, 0x2000, 1, MEMBLOCK_HOTPLUG),
		       RNF(0x3000, 0x5000, 1, MEMBLOCK_HOTPLUG),
		       RN(0x5000, 0x9000, 2));
	KTEST_EXPECT_EQ(t, memblock_remove_range(mem, 0x4000, 0x2000), 0);
	EXPECT_REGIONS(t, mem, RNF(0x1000, 0x2000, 1, MEMBLOCK_HOTPLUG),
		       RNF(0x3000, 0x4000, 1, MEMBLOCK_HOTPLUG),
		       RN(0x6000, 0x9000, 2));
}

static void test_set_node_keeps_holes(struct ktest *t)
{
	struct memblock *mb = t->priv;

	add_three(mb);
	memblock_add_range(&mb->reserved, 0x18000, 0x10000);	/* ..0x28000 */
	KTEST_EXPECT_EQ(t, memblock_set_node(0x18000, 0x20000, &mb->memory, 2), 0);
	EXPECT_REGIONS(t, &mb->memory, R(0x10000, 0x18000),
		       RN(0x18000, 0x20000, 2), RN(0x30000, 0x38000, 2),
		       R(0x38000, 0x40000), R(0x50000, 0x60000));
	/* The reserved table has nodes too. */
	KTEST_EXPECT_EQ(t, memblock_set_node(0x20000, 0x8000, &mb->reserved, 1), 0);
	EXPECT_REGIONS(t, &mb->reserved, R(0x18000, 0x20000),
		       RN(0x20000, 0x28000, 1));
}

static void test_set_node_full_and_bad_nid(struct ktest *t)
{
	struct memblock *mb = t->priv;
	struct memblock_type *mem = &mb->memory;
	int ret = 0;

	mem->max = 2;
	memblock_add_range(mem, 0x1000, 0x8000);
	/* Two splits into a table with room for one: refused whole. */
	EXPECT_ONE_WARN(t, ret = memblock_set_node(0x3000, 0x1000, mem, 1));
	KTEST_EXPECT_EQ(t, ret, -ENOSPC);
	KTEST_EXPECT_CAPTURED(t, "cannot split");
	EXPECT_REGIONS(t, mem, R(0x1000, 0x9000));
	/* One split fits. */
	KTEST_EXPECT_EQ(t, memblock_set_node(0x1000, 0x1000, mem, 1), 0);
	EXPECT_REGIONS(t, mem, RN(0x1000, 0x2000, 1), R(0x2000, 0x9000));
	EXPECT_ONE_WARN(t, ret = memblock_set_node(0x1000, 0x1000, mem,
						   TEST_NR_NODES));
	KTEST_EXPECT_EQ(t, ret, -EINVAL);
	EXPECT_ONE_WARN(t, ret = memblock_set_node(0x1000, 0x1000, mem, -5));
	KTEST_EXPECT_EQ(t, ret, -EINVAL);
	EXPECT_REGIONS(t, mem, RN(0x1000, 0x2000, 1), R(0x2000, 0x9000));
}

/* Three nodes of 1 MiB each from 1 MiB; most node cases start here. */
static void add_three_nodes(struct memblock *mb)
{
	memblock_add_range_nid(&mb->memory, SZ_1M, SZ_1M, 0, 0);
	memblock_add_range_nid(&mb->memory, 2 * SZ_1M, SZ_1M, 1, 0);
	memblock_add_range_nid(&mb->memory, 3 * SZ_1M, SZ_1M, 2, 0);
}

static void test_free_ranges_by_node(struct ktest *t)
{
	struct memblock *mb = t->priv;

	add_three_nodes(mb);
	memblock_add_range(&mb->reserved, 0x1f0000, 0x20000);	/* across 0|1 */
	memblock_add_range(&mb->reserved, 0x300000, 0x1000);
	EXPECT_FREE_RANGES(t, mb, RN(0x100000, 0x1f0000, 0),
			   RN(0x210000, 0x300000, 1), RN(0x301000, 0x400000, 2));
	EXPECT_NODE_FREE_RANGES(t, mb, 1, RN(0x210000, 0x300000, 1));
	EXPECT_NODE_FREE_RANGES(t, mb, 2, RN(0x301000, 0x400000, 2));
	check_free_ranges(t, __LINE__, mb, 3, NULL, 0);
}

static void test_mem_pfn_ranges_by_node(struct ktest *t)
{
	struct memblock *mb = t->priv;
	unsigned long s = 0, e = 0, k = 0;
	int i, nid = -2;
	static const struct { unsigned long s, e; int nid; } exp[] = {
		{ 0x1, 0x3, 0 }, { 0x4, 0x6, 1 }, { 0x6, 0x8, 0 },
	};

	memblock_add_range_nid(&mb->memory, 0x800, 0x2800, 0, 0);  /* pfns 1-2 */
	memblock_add_range_nid(&mb->memory, 0x3100, 0x800, 0, 0);  /* no page */
	memblock_add_range_nid(&mb->memory, 0x4000, 0x2000, 1, 0);
	memblock_add_range_nid(&mb->memory, 0x6000, 0x2fff, 0, 0);  /* pfns 6-7 */
	for_each_mem_pfn_range(mb, i, NUMA_NO_NODE, &s, &e, &nid) {
		KTEST_ASSERT_LT(t, k, ARRAY_SIZE(exp));
		KTEST_EXPECT_EQ(t, s, exp[k].s);
		KTEST_EXPECT_EQ(t, e, exp[k].e);
		KTEST_EXPECT_EQ(t, nid, exp[k].nid);
		k++;
	}
	KTEST_EXPECT_EQ(t, k, ARRAY_SIZE(exp));
	k = 0;
	for_each_mem_pfn_range(mb, i, 1, &s, &e, &nid) {
		KTEST_EXPECT_EQ(t, s, 0x4UL);
		KTEST_EXPECT_EQ(t, e, 0x6UL);
		k++;
	}
	KTEST_EXPECT_EQ(t, k, 1UL);
}

/* --- allocation on nodes ------------------------------------------------ */

static void test_alloc_nid_on_node(struct ktest *t)
{
	struct memblock *mb = t->priv;

	add_three_nodes(mb);
	KTEST_EXPECT_EQ(t, memblock_alloc_range_nid(mb, 0x1000, 0x1000, 0, 0, 1,
						    false), 0x2ff000UL);
	KTEST_EXPECT_EQ(t, memblock_alloc_range_nid(mb, 0x1000, 0x1000, 0, 0, 0,
						    true), 0x1ff000UL);
	KTEST_EXPECT_EQ(t, memblock_alloc_range_nid(mb, 0x1000, 0x1000, 0, 0,
						    NUMA_NO_NODE, false), 0x3ff000UL);
	/* Within [start, end) on the node. */
	KTEST_EXPECT_EQ(t, memblock_alloc_range_nid(mb, 0x1000, 0x1000, 0,
						    0x280000, 1, true), 0x27f000UL);
	KTEST_EXPECT_EQ(t, memblock_find_in_range_node(mb, 0x1000, 0x1000, 0, 0, 3),
			0UL);
	EXPECT_REGIONS(t, &mb->reserved, R(0x1ff000, 0x200000),
		       R(0x27f000, 0x280000), R(0x2ff000, 0x300000),
		       R(0x3ff000, 0x400000));
}

/* Node 1 full: try_nid goes to another node, exact_nid does not. */
static void test_alloc_nid_fallback(struct ktest *t)
{
	struct memblock *mb = t->priv;

	add_three_nodes(mb);
	memblock_add_range(&mb->reserved, 0x200000, 0xff000);	/* a page left */
	KTEST_EXPECT_EQ(t, memblock_alloc_range_nid(mb, 0x1000, 0x1000, 0, 0, 1,
						    true), 0x2ff000UL);
	/* Now node 1 is full. */
	KTEST_EXPECT_EQ(t, memblock_alloc_range_nid(mb, 0x1000, 0x1000, 0, 0, 1,
						    true), 0UL);
	EXPECT_REGIONS(t, &mb->reserved, R(0x200000, 0x300000));
	KTEST_EXPECT_EQ(t, memblock_alloc_range_nid(mb, 0x1000, 0x1000, 0, 0, 1,
						    false), 0x3ff000UL);
	/* Fallback stays inside [start, end): here only node 0 is. */
	KTEST_EXPECT_EQ(t, memblock_alloc_range_nid(mb, 0x1000, 0x1000, 0,
						    0x300000, 1, false), 0x1ff000UL);
	/* Nothing anywhere in the window: 0. */
	KTEST_EXPECT_EQ(t, memblock_alloc_range_nid(mb, 0x1000, 0x1000, 0x200000,
						    0x300000, 2, false), 0UL);
	EXPECT_REGIONS(t, &mb->reserved, R(0x1ff000, 0x300000),
		       R(0x3ff000, 0x400000));
}

static void test_alloc_nid_bottom_up(struct ktest *t)
{
	struct memblock *mb = t->priv;

	add_three_nodes(mb);
	mb->bottom_up = true;
	KTEST_EXPECT_EQ(t, memblock_alloc_range_nid(mb, 0x1000, 0x1000, 0, 0, 1,
						    false), 0x200000UL);
	KTEST_EXPECT_EQ(t, memblock_alloc_range_nid(mb, 0x1000, 0x1000, 0, 0,
						    NUMA_NO_NODE, false), 0x100000UL);
	/* From start upwards, aligned up. */
	KTEST_EXPECT_EQ(t, memblock_alloc_range_nid(mb, 0x1000, 0x10000, 0x280001,
						    0, 1, true), 0x290000UL);
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x3000, 0x1000, 0x101000, 0),
			0x101000UL);
	/* Not past end. */
	KTEST_EXPECT_EQ(t, memblock_find_in_range(mb, 0x2000, 0x1000, 0x104000,
						  0x105fff), 0UL);
	/* Node 1 full: the lowest of any node. */
	memblock_add_range(&mb->reserved, 0x200000, SZ_1M);
	KTEST_EXPECT_EQ(t, memblock_alloc_range_nid(mb, 0x1000, 0x1000, 0, 0, 1,
						    false), 0x104000UL);
	KTEST_EXPECT_EQ(t, memblock_alloc_range_nid(mb, 0x1000, 0x1000, 0, 0, 1,
						    true), 0UL);
	EXPECT_REGIONS(t, &mb->reserved, R(0x100000, 0x105000),
		       R(0x200000, 0x300000));
	/* Top-down again. */
	mb->bottom_up = false;
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x1000, 0x1000, 0, 0),
			0x3ff000UL);
}

static void test_alloc_bottom_up_skips_reserved_and_page0(struct ktest *t)
{
	struct memblock *mb = t->priv;

	mb->bottom_up = true;
	memblock_add_range(&mb->memory, 0x0, 0x20000);
	memblock_add_range(&mb->reserved, 0x1000, 0x3000);
	memblock_add_range(&mb->reserved, 0x6000, 0x1000);
	/* Page 0 never; [0x4000, 0x6000) too small for 0x3000. */
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x1000, 0x1000, 0, 0), 0x4000UL);
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x3000, 0x1000, 0, 0), 0x7000UL);
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x800, 0x800, 0, 0), 0x5000UL);
	EXPECT_REGIONS(t, &mb->reserved, R(0x1000, 0x5800), R(0x6000, 0xa000));
	/* Exact fit at the very top. */
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x16000, 8, 0, 0), 0xa000UL);
	KTEST_EXPECT_EQ(t, memblock_alloc_range(mb, 0x1000, 8, 0, 0), 0UL);
}

/* --- the pointer allocators -------------------------------------------- */

/*
 * The arena as two nodes: [ARENA_BASE, ARENA_MID) node 0, the rest node
 * 1, filled with 0x5a so that what is cleared and what is not shows.
 */
#define ARENA_MID	(ARENA_BASE + ARENA_SIZE / 2)

static void arena_nodes_setup(struct memblock *mb)
{
	memset(arena, 0x5a, sizeof(arena));
	mb->phys_to_virt = arena_va;
	memblock_add_range_nid(&mb->memory, ARENA_BASE, ARENA_SIZE / 2, 0, 0);
	memblock_add_range_nid(&mb->memory, ARENA_MID, ARENA_SIZE / 2, 1, 0);
}

static bool all_bytes(const void *p, int c, size_t n)
{
	const u8 *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i] != (u8)c)
			return false;
	return true;
}

static void test_alloc_try_nid_zeroed_raw_not(struct ktest *t)
{
	struct memblock *mb = t->priv;
	u8 *p, *q;

	arena_nodes_setup(mb);
	p = memblock_instance_alloc_try_nid(mb, 0x100, 0x100, 0,
					    MEMBLOCK_ALLOC_ACCESSIBLE, 0);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_PTR_EQ(t, p, arena_va(ARENA_MID - 0x100));
	KTEST_EXPECT_TRUE(t, all_bytes(p, 0, 0x100));
	KTEST_EXPECT_EQ(t, p[0x100], 0x5a);		/* not one byte more */
	q = memblock_alloc_internal(mb, 0x100, 0x100, 0,
				    MEMBLOCK_ALLOC_ACCESSIBLE, 0, false);
	KTEST_ASSERT_NOT_NULL(t, q);
	KTEST_EXPECT_PTR_EQ(t, q, p - 0x100);
	KTEST_EXPECT_TRUE(t, all_bytes(q, 0x5a, 0x100));
	EXPECT_REGIONS(t, &mb->reserved, R(ARENA_MID - 0x200, ARENA_MID));
}

/* Above min_addr first; if nothing is there, from 0, with a message. */
static void test_alloc_try_nid_min_addr_retry(struct ktest *t)
{
	struct memblock *mb = t->priv;
	void *p;

	arena_nodes_setup(mb);
	memblock_add_range(&mb->reserved, ARENA_MID - 0x1000, 0x1000);
	/* Node 0 has nothing free in [ARENA_MID - 0x1000, ARENA_MID). */
	ktest_capture_start(t, "memblock:");
	p = memblock_alloc_internal(mb, 0x1000, 0x1000, ARENA_MID - 0x1000,
				    ARENA_MID, 0, true);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "retrying from 0");
	KTEST_EXPECT_PTR_EQ(t, p, arena_va(ARENA_MID - 0x2000));
	/* min_addr met when it can be. */
	p = memblock_alloc_internal(mb, 0x1000, 0x1000, ARENA_BASE,
				    ARENA_BASE + 0x3000, 0, true);
	KTEST_EXPECT_PTR_EQ(t, p, arena_va(ARENA_BASE + 0x2000));
	/* Bottom-up: from min_addr upwards. */
	mb->bottom_up = true;
	p = memblock_alloc_internal(mb, 0x1000, 0x1000, ARENA_BASE + 0x4000,
				    MEMBLOCK_ALLOC_ACCESSIBLE, 1, false);
	KTEST_EXPECT_PTR_EQ(t, p, arena_va(ARENA_MID));
	p = memblock_alloc_internal(mb, 0x1000, 0x1000, ARENA_BASE + 0x4000,
				    MEMBLOCK_ALLOC_ACCESSIBLE, NUMA_NO_NODE, false);
	KTEST_EXPECT_PTR_EQ(t, p, arena_va(ARENA_BASE + 0x4000));
	EXPECT_REGIONS(t, &mb->reserved,
		       R(ARENA_BASE + 0x2000, ARENA_BASE + 0x3000),
		       R(ARENA_BASE + 0x4000, ARENA_BASE + 0x5000),
		       R(ARENA_MID - 0x2000, ARENA_MID + 0x1000));
}

/* Node 0 full: try_nid takes node 1, exact_nid gives NULL. */
static void test_alloc_exact_nid_no_fallback(struct ktest *t)
{
	struct memblock *mb = t->priv;
	void *p;

	arena_nodes_setup(mb);
	memblock_add_range(&mb->reserved, ARENA_BASE, ARENA_SIZE / 2);
	p = memblock_alloc_internal(mb, 0x1000, 0x1000, 0,
				    MEMBLOCK_ALLOC_ACCESSIBLE, 0, true);
	KTEST_EXPECT_NULL(t, p);
	EXPECT_REGIONS(t, &mb->reserved, R(ARENA_BASE, ARENA_MID));
	p = memblock_instance_alloc_try_nid(mb, 0x1000, 0x1000, 0,
					    MEMBLOCK_ALLOC_ACCESSIBLE, 0);
	KTEST_EXPECT_PTR_EQ(t, p, arena_va(ARENA_BASE + ARENA_SIZE - 0x1000));
	/* Node 1's bottom-up fallback too. */
	mb->bottom_up = true;
	p = memblock_instance_alloc_try_nid(mb, 0x1000, 0x1000, 0,
					    MEMBLOCK_ALLOC_ACCESSIBLE, 0);
	KTEST_EXPECT_PTR_EQ(t, p, arena_va(ARENA_MID));
}

/* max_addr is capped at current_limit. */
static void test_alloc_try_nid_current_limit(struct ktest *t)
{
	struct memblock *mb = t->priv;
	void *p;

	arena_nodes_setup(mb);
	mb->current_limit = ARENA_BASE + 0x3000;
	p = memblock_alloc_internal(mb, 0x1000, 0x1000, 0, ARENA_MID, 1, false);
	KTEST_EXPECT_PTR_EQ(t, p, arena_va(ARENA_BASE + 0x2000));
	p = memblock_alloc_internal(mb, 0x1000, 0x1000, 0,
				    MEMBLOCK_ALLOC_ACCESSIBLE, 1, true);
	KTEST_EXPECT_NULL(t, p);
	EXPECT_REGIONS(t, &mb->reserved,
		       R(ARENA_BASE + 0x2000, ARENA_BASE + 0x3000));
}

/* Memory the instance cannot point to is given back. */
static void test_alloc_without_phys_to_virt(struct ktest *t)
{
	struct memblock *mb = t->priv;
	void *p = (void *)1;

	memblock_add_range(&mb->memory, FAR, 0x10000);	/* not in the arena */
	mb->phys_to_virt = arena_va;
	ktest_capture_start(t, "memblock:");
	p = memblock_instance_alloc_try_nid(mb, 0x1000, 0x1000, 0,
					    MEMBLOCK_ALLOC_ACCESSIBLE, NUMA_NO_NODE);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "has no virtual address");
	KTEST_EXPECT_NULL(t, p);
	EXPECT_EMPTY(t, &mb->reserved);
	mb->phys_to_virt = NULL;
	ktest_capture_start(t, "memblock:");
	p = memblock_alloc_internal(mb, 0x1000, 0x1000, 0,
				    MEMBLOCK_ALLOC_ACCESSIBLE, NUMA_NO_NODE, false);
	ktest_capture_stop(t);
	KTEST_EXPECT_NULL(t, p);
	EXPECT_EMPTY(t, &mb->reserved);
}

/* Each bad argument: one WARN, NULL or 0, nothing reserved. */
static void test_alloc_bad_input(struct ktest *t)
{
	struct memblock *mb = t->priv;
	phys_addr_t got = 1;
	void *p = (void *)1;

	arena_nodes_setup(mb);
	EXPECT_ONE_WARN(t, p = memblock_instance_alloc_try_nid(mb, 0, 8, 0, 0, 0));
	KTEST_EXPECT_NULL(t, p);
	KTEST_EXPECT_CAPTURED(t, "allocation of 0 bytes");
	EXPECT_ONE_WARN(t, p = memblock_alloc_internal(mb, 0x100, 0x30, 0, 0, 0,
						       false));
	KTEST_EXPECT_NULL(t, p);
	KTEST_EXPECT_CAPTURED(t, "alignment 0x30 is not a power of two");
	EXPECT_ONE_WARN(t, p = memblock_instance_alloc_try_nid(mb, 0x100, 8,
							       ARENA_MID, ARENA_BASE, 0));
	KTEST_EXPECT_NULL(t, p);
	KTEST_EXPECT_CAPTURED(t, "empty range");
	EXPECT_ONE_WARN(t, p = memblock_instance_alloc_try_nid(mb, 0x100, 8,
							       ARENA_MID, ARENA_MID, 0));
	KTEST_EXPECT_NULL(t, p);
	EXPECT_ONE_WARN(t, p = memblock_instance_alloc_try_nid(mb, 0x100, 8, 0, 0,
							       TEST_NR_NODES));
	KTEST_EXPECT_NULL(t, p);
	KTEST_EXPECT_CAPTURED(t, "node 4 is not valid");
	EXPECT_ONE_WARN(t, p = memblock_alloc_internal(mb, 0x100, 8, 0, 0, -2, true));
	KTEST_EXPECT_NULL(t, p);
	EXPECT_ONE_WARN(t, got = memblock_alloc_range_nid(mb, 0x100, 8, 0x5000,
							  0x4000, 0, false));
	KTEST_EXPECT_EQ(t, got, 0UL);
	EXPECT_ONE_WARN(t, got = memblock_alloc_range_nid(mb, 0x100, 8, 0, 0, 7,
							  false));
	KTEST_EXPECT_EQ(t, got, 0UL);
	EXPECT_EMPTY(t, &mb->reserved);
	KTEST_EXPECT_TRUE(t, all_bytes(arena, 0x5a, sizeof(arena)));
	/* The same calls with good arguments work. */
	KTEST_EXPECT_NOT_NULL(t, memblock_instance_alloc_try_nid(mb, 0x100, 8, 0,
								 0, 0));
	KTEST_EXPECT_NE(t, memblock_alloc_range_nid(mb, 0x100, 8, 0x5000, 0, 0,
						    false), 0UL);
}

/* --- trim ----------------------------------------------------------------- */

static void test_trim_memory(struct ktest *t)
{
	struct memblock *mb = t->priv;
	struct memblock_type *mem = &mb->memory;
	int ret = 0;

	memblock_add_range_nid(mem, 0x800, 0x2000, 1, 0);	/* ..0x2800 */
	memblock_add_range_nid(mem, 0x3000, 0x1000, 1, 0);	/* aligned */
	memblock_add_range_nid(mem, 0x4400, 0x800, 2, 0);	/* no page */
	memblock_add_range_nid(mem, 0x6000, 0x1800, 2, 0);	/* ..0x7800 */
	memblock_add_range_nid(mem, 0x8001, 0x1fff, 3, 0);	/* ..0xa000 */
	memblock_add_range_nid(mem, TOP - 0x1800, 0x1800, 0, 0);	/* at the top */
	KTEST_EXPECT_EQ(t, memblock_instance_trim_memory(mb, 0x1000), 0);
	EXPECT_REGIONS(t, mem, RN(0x1000, 0x2000, 1), RN(0x3000, 0x4000, 1),
		       RN(0x6000, 0x7000, 2), RN(0x9000, 0xa000, 3));
	/* Bad alignments change nothing. */
	EXPECT_ONE_WARN(t, ret = memblock_instance_trim_memory(mb, 0x1800));
	KTEST_EXPECT_EQ(t, ret, -EINVAL);
	EXPECT_ONE_WARN(t, ret = memblock_instance_trim_memory(mb, 0));
	KTEST_EXPECT_EQ(t, ret, -EINVAL);
	EXPECT_REGIONS(t, mem, RN(0x1000, 0x2000, 1), RN(0x3000, 0x4000, 1),
		       RN(0x6000, 0x7000, 2), RN(0x9000, 0xa000, 3));
	/* A larger one drops what holds no aligned block. */
	memblock_add_range_nid(mem, 0x10000, 0x5000, 0, 0);
	KTEST_EXPECT_EQ(t, memblock_instance_trim_memory(mb, 0x2000), 0);
	EXPECT_REGIONS(t, mem, RN(0x10000, 0x14000, 0));
	EXPECT_EMPTY(t, &mb->reserved);
}

/* --- many regions ------------------------------------------------------- */

/*
 * 300 touching regions, node i % 4 each, so none merge: the memory table
 * doubles 16 -> 32 -> ... -> 512 and every region keeps its node. Then
 * one node over all of them merges them into one.
 */
static void test_many_regions_with_nodes(struct ktest *t)
{
	struct memblock *mb = t->priv;
	struct memblock_type *mem = &mb->memory;
	const unsigned long n = 300;
	unsigned long i;
	int nid = -2;
	u64 k;
	phys_addr_t s, e;

	grow_setup(mb);
	memblock_set_node(ARENA_BASE, ARENA_SIZE, mem, 3);
	for (i = 0; i < n; i++)
		KTEST_ASSERT_EQ(t, memblock_add_range_nid(mem, FAR + 0x1000 * i,
							  0x1000, i % 4, 0), 0);
	KTEST_EXPECT_EQ(t, memblock_validate_type(mem), 0);
	KTEST_EXPECT_EQ(t, memblock_validate_type(&mb->reserved), 0);
	KTEST_ASSERT_EQ(t, mem->cnt, n + 1);
	KTEST_EXPECT_EQ(t, mem->max, 512UL);
	for (i = 0; i < n; i++) {
		const struct memblock_region *r = &mem->regions[i + 1];

		KTEST_EXPECT_EQ(t, r->base, FAR + 0x1000 * i);
		KTEST_EXPECT_EQ(t, r->size, 0x1000UL);
		KTEST_EXPECT_EQ(t, memblock_get_region_node(r), (int)(i % 4));
	}
	/* The free ranges of node 2 are every fourth region. */
	i = 0;
	for_each_free_mem_range(mb, k, 2, &s, &e, &nid) {
		KTEST_EXPECT_EQ(t, s, FAR + 0x1000 * (4 * i + 2));
		KTEST_EXPECT_EQ(t, e, s + 0x1000);
		KTEST_EXPECT_EQ(t, nid, 2);
		i++;
	}
	KTEST_EXPECT_EQ(t, i, n / 4);
	/* Allocation on node 1, top-down: its highest region. */
	KTEST_EXPECT_EQ(t, memblock_alloc_range_nid(mb, 0x1000, 0x1000, FAR, TOP,
						    1, true),
			FAR + 0x1000 * (n - 3));
	KTEST_EXPECT_EQ(t, memblock_set_node(FAR, 0x1000 * n, mem, 1), 0);
	EXPECT_REGIONS(t, mem, RN(ARENA_BASE, ARENA_BASE + ARENA_SIZE, 3),
		       RN(FAR, FAR + 0x1000 * 300, 1));
}

static const struct ktest_case memblock_cases[] = {
	KTEST_CASE(test_add_into_empty),
	KTEST_CASE(test_add_disjoint_sorted),
	KTEST_CASE(test_add_overlapping_merges),
	KTEST_CASE(test_add_adjacent_merges),
	KTEST_CASE(test_add_contained),
	KTEST_CASE(test_add_covering_several),
	KTEST_CASE(test_add_full_table),
	KTEST_CASE(test_add_size_zero),
	KTEST_CASE(test_add_overflow_clipped),
	KTEST_CASE(test_remove_whole_region),
	KTEST_CASE(test_remove_head),
	KTEST_CASE(test_remove_tail),
	KTEST_CASE(test_remove_middle_splits),
	KTEST_CASE(test_remove_spanning_several),
	KTEST_CASE(test_remove_nothing_there),
	KTEST_CASE(test_remove_split_full),
	KTEST_CASE(test_alloc_top_down),
	KTEST_CASE(test_alloc_alignment),
	KTEST_CASE(test_find_respects_start_end_limit),
	KTEST_CASE(test_find_skips_reserved),
	KTEST_CASE(test_find_nothing_fits),
	KTEST_CASE(test_find_never_page0),
	KTEST_CASE(test_find_larger_than_any_free),
	KTEST_CASE(test_find_falls_to_lower_region),
	KTEST_CASE(test_alloc_exact_fit),
	KTEST_CASE(test_alloc_reserved_table_full),
	KTEST_CASE(test_free_ranges_holes_and_reservations),
	KTEST_CASE(test_free_ranges_edges),
	KTEST_CASE(test_free_ranges_after_allocs),
	KTEST_CASE(test_reserve_free_round_trip),
	KTEST_CASE(test_overlaps_and_search),
	KTEST_CASE(test_validate_catches_breakage),
	KTEST_CASE(test_dump_format),
	KTEST_CASE(test_kernel_instance_consistent),
	KTEST_CASE(test_kernel_memory_on_nodes),
	KTEST_CASE(test_memory_doubles),
	KTEST_CASE(test_reserved_doubles),
	KTEST_CASE(test_double_without_room),
	KTEST_CASE(test_add_node_merges_same_node_only),
	KTEST_CASE(test_add_node_fills_holes),
	KTEST_CASE(test_add_node_full_table),
	KTEST_CASE(test_add_node_bad_input),
	KTEST_CASE(test_set_node_splits_and_merges),
	KTEST_CASE(test_remove_keeps_nodes),
	KTEST_CASE(test_set_node_keeps_holes),
	KTEST_CASE(test_set_node_full_and_bad_nid),
	KTEST_CASE(test_free_ranges_by_node),
	KTEST_CASE(test_mem_pfn_ranges_by_node),
	KTEST_CASE(test_alloc_nid_on_node),
	KTEST_CASE(test_alloc_nid_fallback),
	KTEST_CASE(test_alloc_nid_bottom_up),
	KTEST_CASE(test_alloc_bottom_up_skips_reserved_and_page0),
	KTEST_CASE(test_alloc_try_nid_zeroed_raw_not),
	KTEST_CASE(test_alloc_try_nid_min_addr_retry),
	KTEST_CASE(test_alloc_exact_nid_no_fallback),
	KTEST_CASE(test_alloc_try_nid_current_limit),
	KTEST_CASE(test_alloc_without_phys_to_virt),
	KTEST_CASE(test_alloc_bad_input),
	KTEST_CASE(test_trim_memory),
	KTEST_CASE(test_many_regions_with_nodes),
	{}
};

KTEST_SUITE(memblock, memblock_cases, .init = memblock_test_init);

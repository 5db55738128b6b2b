// SPDX-License-Identifier: GPL-2.0
/*
 * The helpers over kmalloc (mm/util.c, mm/util.h) and the overflow
 * arithmetic they use (kernel/overflow.h):
 *
 *  - kmemdup, kmemdup_nul, kstrdup, kstrndup: contents, NULL sources,
 *    lengths whose +1 wraps (NULL, nothing allocated), failure under
 *    failslab;
 *  - kstrdup_const/kfree_const: a literal or const table comes back
 *    itself and is not freed, a heap, stack or writable string is
 *    copied and freed (the runner's leak check, and kfree's report of a
 *    pointer that is no allocation, catch either mistake);
 *  - krealloc_array, kmalloc_array_node, kcalloc_node, kzalloc_node:
 *    contents, zeroing, products that overflow (NULL, nothing allocated);
 *  - kfree_bulk with NULL, ZERO_SIZE_PTR and large allocations;
 *  - KMEM_CACHE's name, size and alignment;
 *  - kmalloc_size_roundup against ksize of a real allocation, and its
 *    edges (0, above KMALLOC_MAX_SIZE, SIZE_MAX);
 *  - check_*_overflow, size_*, array_size, array3_size, struct_size.
 */
#include "arch/arch.h"
#include "kernel/overflow.h"
#include "lib/ktest/ktest.h"
#include "lib/string.h"
#include "mm/fault_inject.h"
#include "mm/gfp.h"
#include "mm/slab.h"

/* Objects and pages in use: unchanged when a helper allocated nothing. */
struct usage {
	long objects;
	long pages;
};

static struct usage usage_now(void)
{
	return (struct usage){ slab_objects_in_use(), nr_allocated_pages() };
}

/* No object or page was allocated since before (or all were freed). */
#define EXPECT_NOTHING_ALLOCATED(t, before)				\
	do {								\
		struct usage __u = usage_now();				\
		KTEST_EXPECT_EQ(t, __u.objects, (before).objects);	\
		KTEST_EXPECT_EQ(t, __u.pages, (before).pages);		\
	} while (0)

static void fail_all_slab(struct ktest *t, u64 seed)
{
	KTEST_ASSERT_EQ(t, fault_attr_set(&failslab, "1,100,0,-1", seed), 0);
}

/* --- overflow.h ------------------------------------------------------------ */

struct flex {
	u32 n;
	u64 items[];
};

static void test_overflow_helpers(struct ktest *t)
{
	size_t d;
	u8 b;
	int i;
	struct flex *f = NULL;
	size_t count;

	KTEST_EXPECT_FALSE(t, check_add_overflow(SIZE_MAX - 1, (size_t)1, &d));
	KTEST_EXPECT_EQ(t, d, SIZE_MAX);
	KTEST_EXPECT_TRUE(t, check_add_overflow(SIZE_MAX, (size_t)1, &d));
	KTEST_EXPECT_EQ(t, d, (size_t)0);		/* wrapped */
	KTEST_EXPECT_TRUE(t, check_add_overflow(200, 56, &b));
	KTEST_EXPECT_EQ(t, b, 0);
	KTEST_EXPECT_FALSE(t, check_add_overflow(200, 55, &b));
	KTEST_EXPECT_EQ(t, b, 255);
	KTEST_EXPECT_TRUE(t, check_sub_overflow(0, 1, &b));
	KTEST_EXPECT_FALSE(t, check_sub_overflow(0, 1, &i));
	KTEST_EXPECT_EQ(t, i, -1);
	KTEST_EXPECT_TRUE(t, check_mul_overflow(SIZE_MAX / 2 + 1, (size_t)2, &d));
	KTEST_EXPECT_FALSE(t, check_mul_overflow(SIZE_MAX / 3, (size_t)3, &d));
	KTEST_EXPECT_EQ(t, d, SIZE_MAX / 3 * 3);
	KTEST_EXPECT_TRUE(t, check_mul_overflow(INT_MAX, 2, &i));

	KTEST_EXPECT_EQ(t, size_mul(1UL << 32, 1UL << 31), 1UL << 63);
	KTEST_EXPECT_EQ(t, size_mul(1UL << 32, 1UL << 32), SIZE_MAX);
	KTEST_EXPECT_EQ(t, size_add(SIZE_MAX - 5, 5), SIZE_MAX);
	KTEST_EXPECT_EQ(t, size_add(SIZE_MAX - 5, 6), SIZE_MAX);
	KTEST_EXPECT_EQ(t, size_add(3, 4), (size_t)7);
	KTEST_EXPECT_EQ(t, size_sub(10, 3), (size_t)7);
	KTEST_EXPECT_EQ(t, size_sub(3, 10), SIZE_MAX);
	/* A saturated size stays saturated. */
	KTEST_EXPECT_EQ(t, size_sub(SIZE_MAX, 10), SIZE_MAX);
	KTEST_EXPECT_EQ(t, array_size(100, 24), (size_t)2400);
	KTEST_EXPECT_EQ(t, array_size(SIZE_MAX / 24 + 1, 24), SIZE_MAX);
	KTEST_EXPECT_EQ(t, array3_size(10, 20, 30), (size_t)6000);
	KTEST_EXPECT_EQ(t, array3_size(1UL << 22, 1UL << 21, 1UL << 21),
			SIZE_MAX);
	KTEST_EXPECT_EQ(t, array3_size(SIZE_MAX, 0, 7), (size_t)0);
	KTEST_EXPECT_EQ(t, flex_array_size(f, items, 5), (size_t)40);
	KTEST_EXPECT_EQ(t, struct_size(f, items, 5), sizeof(*f) + 40);
	KTEST_EXPECT_EQ(t, struct_size(f, items, SIZE_MAX / 8), SIZE_MAX);
	/* One element fewer still fits, just. */
	KTEST_EXPECT_EQ(t, struct_size(f, items, SIZE_MAX / 8 - 1),
			SIZE_MAX - 15 + sizeof(*f));
	/* A saturated size is one kmalloc refuses. */
	count = SIZE_MAX / 8;
	OPTIMIZER_HIDE_VAR(count);
	KTEST_EXPECT_NULL(t, kmalloc(struct_size(f, items, count),
				     GFP_KERNEL | __GFP_NOWARN));
}

/* --- copies of memory and strings ------------------------------------------ */

static void test_kmemdup(struct ktest *t)
{
	static const u8 src[37] = { 1, 2, 3, [20] = 0x5a, [36] = 0xee };
	struct usage before;
	u8 *p = kmemdup(src, sizeof(src), GFP_KERNEL);

	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_PTR_NE(t, p, src);
	KTEST_EXPECT_MEMEQ(t, p, src, sizeof(src));
	KTEST_EXPECT_GE(t, ksize(p), sizeof(src));
	kfree(p);

	/* Nothing to copy: what kmalloc(0) gives. */
	p = kmemdup(src, 0, GFP_KERNEL);
	KTEST_EXPECT_PTR_EQ(t, p, ZERO_SIZE_PTR);
	kfree(p);

	before = usage_now();
	KTEST_EXPECT_NULL(t, kmemdup(NULL, 16, GFP_KERNEL));
	fail_all_slab(t, 21);
	KTEST_EXPECT_NULL(t, kmemdup(src, sizeof(src), GFP_KERNEL));
	fault_attr_disable(&failslab);
	EXPECT_NOTHING_ALLOCATED(t, before);
}

static void test_kmemdup_nul(struct ktest *t)
{
	static const char unterminated[6] = { 'a', 'b', 'c', 'X', 'Y', 'Z' };
	struct usage before;
	char *s = kmemdup_nul(unterminated, 3, GFP_KERNEL);

	KTEST_ASSERT_NOT_NULL(t, s);
	KTEST_EXPECT_STREQ(t, s, "abc");
	kfree(s);
	/* Embedded NULs are copied as they are: it is memory, not a string. */
	s = kmemdup_nul("a\0b", 3, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, s);
	KTEST_EXPECT_MEMEQ(t, s, "a\0b\0", 4);
	kfree(s);
	s = kmemdup_nul(unterminated, 0, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, s);
	KTEST_EXPECT_EQ(t, s[0], '\0');
	kfree(s);

	before = usage_now();
	KTEST_EXPECT_NULL(t, kmemdup_nul(NULL, 3, GFP_KERNEL));
	/* len + 1 wraps to 0: refused, never kmalloc(0) and a huge copy. */
	KTEST_EXPECT_NULL(t, kmemdup_nul(unterminated, SIZE_MAX, GFP_KERNEL));
	fail_all_slab(t, 22);
	KTEST_EXPECT_NULL(t, kmemdup_nul(unterminated, 3, GFP_KERNEL));
	fault_attr_disable(&failslab);
	EXPECT_NOTHING_ALLOCATED(t, before);
}

static void test_kstrdup_kstrndup(struct ktest *t)
{
	char buf[64];
	struct usage before;
	char *s;

	memset(buf, 'q', sizeof(buf) - 1);
	buf[sizeof(buf) - 1] = '\0';
	s = kstrdup(buf, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, s);
	KTEST_EXPECT_PTR_NE(t, s, buf);
	KTEST_EXPECT_STREQ(t, s, buf);
	KTEST_EXPECT_EQ(t, ksize(s), (size_t)64);	/* 63 + NUL */
	kfree(s);
	s = kstrdup("", GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, s);
	KTEST_EXPECT_STREQ(t, s, "");
	kfree(s);

	s = kstrndup("abcdef", 4, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, s);
	KTEST_EXPECT_STREQ(t, s, "abcd");
	kfree(s);
	s = kstrndup("abc", 100, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, s);
	KTEST_EXPECT_STREQ(t, s, "abc");
	kfree(s);
	s = kstrndup("abc", 0, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, s);
	KTEST_EXPECT_STREQ(t, s, "");
	kfree(s);
	/* max SIZE_MAX: "no limit", not an overflow. */
	s = kstrndup("xyz", SIZE_MAX, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, s);
	KTEST_EXPECT_STREQ(t, s, "xyz");
	kfree(s);

	before = usage_now();
	KTEST_EXPECT_NULL(t, kstrdup(NULL, GFP_KERNEL));
	KTEST_EXPECT_NULL(t, kstrndup(NULL, 5, GFP_KERNEL));
	fail_all_slab(t, 23);
	KTEST_EXPECT_NULL(t, kstrdup("abc", GFP_KERNEL));
	KTEST_EXPECT_NULL(t, kstrndup("abc", 2, GFP_KERNEL));
	fault_attr_disable(&failslab);
	EXPECT_NOTHING_ALLOCATED(t, before);
}

/* --- kstrdup_const --------------------------------------------------------- */

static const char const_table[] = "a const table";
static char writable[] = "a writable string";

static void test_arch_is_kernel_rodata(struct ktest *t)
{
	char stack[8] = "stack";
	char *heap = kstrdup("heap", GFP_KERNEL);

	KTEST_ASSERT_NOT_NULL(t, heap);
	KTEST_EXPECT_TRUE(t, arch_is_kernel_rodata((unsigned long)"a literal"));
	KTEST_EXPECT_TRUE(t, arch_is_kernel_rodata((unsigned long)const_table));
	KTEST_EXPECT_TRUE(t, arch_is_kernel_rodata(
				(unsigned long)&const_table[sizeof(const_table) - 1]));
	KTEST_EXPECT_FALSE(t, arch_is_kernel_rodata((unsigned long)writable));
	KTEST_EXPECT_FALSE(t, arch_is_kernel_rodata((unsigned long)stack));
	KTEST_EXPECT_FALSE(t, arch_is_kernel_rodata((unsigned long)heap));
	KTEST_EXPECT_FALSE(t, arch_is_kernel_rodata(0));
	KTEST_EXPECT_FALSE(t, arch_is_kernel_rodata(~0UL));
	kfree(heap);
}

static void test_kstrdup_const(struct ktest *t)
{
	const char *literal = "kstrdup_const literal";
	char stack[16] = "on the stack";
	char *heap = kstrdup("on the heap", GFP_KERNEL);
	const char *c[5];
	struct usage before;

	KTEST_ASSERT_NOT_NULL(t, heap);
	before = usage_now();
	c[0] = kstrdup_const(literal, GFP_KERNEL);
	c[1] = kstrdup_const(const_table, GFP_KERNEL);
	/* Read-only data is shared: no allocation at all. */
	KTEST_EXPECT_PTR_EQ(t, c[0], literal);
	KTEST_EXPECT_PTR_EQ(t, c[1], const_table);
	EXPECT_NOTHING_ALLOCATED(t, before);

	c[2] = kstrdup_const(heap, GFP_KERNEL);
	c[3] = kstrdup_const(stack, GFP_KERNEL);
	c[4] = kstrdup_const(writable, GFP_KERNEL);
	for (int i = 2; i < 5; i++)
		KTEST_ASSERT_NOT_NULL(t, c[i]);
	KTEST_EXPECT_PTR_NE(t, c[2], heap);
	KTEST_EXPECT_PTR_NE(t, c[3], stack);
	KTEST_EXPECT_PTR_NE(t, c[4], writable);
	KTEST_EXPECT_STREQ(t, c[2], "on the heap");
	KTEST_EXPECT_STREQ(t, c[3], "on the stack");
	KTEST_EXPECT_STREQ(t, c[4], "a writable string");
	/* The copies do not change with their source. */
	heap[0] = stack[0] = writable[0] = 'X';
	KTEST_EXPECT_STREQ(t, c[2], "on the heap");
	KTEST_EXPECT_STREQ(t, c[3], "on the stack");
	KTEST_EXPECT_STREQ(t, c[4], "a writable string");
	writable[0] = 'a';
	KTEST_EXPECT_EQ(t, slab_objects_in_use(), before.objects + 3);

	/*
	 * kfree_const frees the copies only: a kfree of the literal would
	 * be reported (no allocation) and fail the case; a copy kept would
	 * be a leak.
	 */
	for (int i = 0; i < 5; i++)
		kfree_const(c[i]);
	KTEST_EXPECT_EQ(t, slab_objects_in_use(), before.objects);
	kfree_const(NULL);
	kfree(heap);

	KTEST_EXPECT_NULL(t, kstrdup_const(NULL, GFP_KERNEL));
	fail_all_slab(t, 24);
	/* failslab cannot touch a shared string; a copy fails. */
	KTEST_EXPECT_PTR_EQ(t, kstrdup_const(literal, GFP_KERNEL), literal);
	KTEST_EXPECT_NULL(t, kstrdup_const(stack, GFP_KERNEL));
	fault_attr_disable(&failslab);
}

/* --- arrays and nodes ------------------------------------------------------ */

static void test_krealloc_array(struct ktest *t)
{
	u32 *a = kmalloc_array(10, sizeof(u32), GFP_KERNEL), *b;
	struct usage before;

	KTEST_ASSERT_NOT_NULL(t, a);
	for (u32 i = 0; i < 10; i++)
		a[i] = i * 7;
	b = krealloc_array(a, 1000, sizeof(u32), GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, b);
	KTEST_EXPECT_GE(t, ksize(b), 4000UL);
	for (u32 i = 0; i < 10; i++)
		KTEST_EXPECT_EQ(t, b[i], i * 7);
	a = b;

	/* An overflowing product: NULL, a untouched, nothing allocated. */
	before = usage_now();
	KTEST_EXPECT_NULL(t, krealloc_array(a, SIZE_MAX / 2 + 1, 2, GFP_KERNEL));
	KTEST_EXPECT_NULL(t, krealloc_array(a, SIZE_MAX / 4 + 2, 4, GFP_KERNEL));
	EXPECT_NOTHING_ALLOCATED(t, before);
	for (u32 i = 0; i < 10; i++)
		KTEST_EXPECT_EQ(t, a[i], i * 7);

	/* From NULL it allocates. */
	b = krealloc_array(NULL, 3, 8, GFP_KERNEL);
	KTEST_EXPECT_NOT_NULL(t, b);
	kfree(b);
	kfree(a);
}

static void test_node_variants(struct ktest *t)
{
	struct usage before;
	u8 *p;

	/* Leave a dirty object on top of kmalloc-256, then ask for zeros. */
	p = kmalloc(200, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	memset(p, 0xff, 200);
	kfree(p);
	p = kzalloc_node(200, GFP_KERNEL, 0);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_NULL(t, memchr_inv(p, 0, 200));
	KTEST_EXPECT_GE(t, ksize(p), 200UL);
	memset(p, 0xff, 200);
	kfree(p);

	p = kcalloc_node(25, 8, GFP_KERNEL, 0);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_NULL(t, memchr_inv(p, 0, 200));
	kfree(p);

	p = kmalloc_array_node(3, 5000, GFP_KERNEL, 0);	/* large: pages */
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_EQ(t, ksize(p), 16384UL);
	memset(p, 0x11, 15000);
	kfree(p);

	/* NUMA_NO_NODE-style -1 works on this one-node machine too. */
	p = kzalloc_node(64, GFP_KERNEL, -1);
	KTEST_EXPECT_NOT_NULL(t, p);
	kfree(p);

	before = usage_now();
	/* Wraps to 0 and to 8 bytes: both must be refused. */
	KTEST_EXPECT_NULL(t, kmalloc_array_node(SIZE_MAX / 2 + 1, 2, GFP_KERNEL, 0));
	KTEST_EXPECT_NULL(t, kmalloc_array_node(SIZE_MAX / 8 + 2, 8, GFP_KERNEL, 0));
	KTEST_EXPECT_NULL(t, kcalloc_node(SIZE_MAX / 8 + 2, 8, GFP_KERNEL, 0));
	KTEST_EXPECT_NULL(t, kcalloc(SIZE_MAX / 8 + 2, 8, GFP_KERNEL));
	fail_all_slab(t, 25);
	KTEST_EXPECT_NULL(t, kzalloc_node(64, GFP_KERNEL, 0));
	KTEST_EXPECT_NULL(t, kcalloc_node(2, 32, GFP_KERNEL, 0));
	fault_attr_disable(&failslab);
	EXPECT_NOTHING_ALLOCATED(t, before);
}

static void test_kfree_bulk(struct ktest *t)
{
	void *p[8];
	long objects = slab_objects_in_use(), pages;

	p[0] = kmalloc(8, GFP_KERNEL);
	p[1] = NULL;
	p[2] = kmalloc(700, GFP_KERNEL);
	p[3] = ZERO_SIZE_PTR;
	p[4] = kmalloc(20000, GFP_KERNEL);		/* large */
	p[5] = kmalloc(8, GFP_KERNEL);
	p[6] = kzalloc(3000, GFP_KERNEL);
	p[7] = kmalloc(0, GFP_KERNEL);
	for (int i = 0; i < 8; i++)
		KTEST_ASSERT_TRUE(t, p[i] || i == 1);
	KTEST_EXPECT_EQ(t, slab_objects_in_use(), objects + 4);
	pages = nr_allocated_pages();
	kfree_bulk(8, p);
	KTEST_EXPECT_EQ(t, slab_objects_in_use(), objects);
	/* The large one's 8 pages at least (slabs may go too). */
	KTEST_EXPECT_LE(t, nr_allocated_pages(), pages - 8);
	kfree_bulk(0, NULL);
}

struct kmem_test_obj {
	u64 a;
	char name[40];
} __aligned(64);

static void test_kmem_cache_macro(struct ktest *t)
{
	struct kmem_cache *c = KMEM_CACHE(kmem_test_obj, 0);
	struct kmem_test_obj *o[3];

	KTEST_ASSERT_NOT_NULL(t, c);
	KTEST_EXPECT_STREQ(t, kmem_cache_name(c), "kmem_test_obj");
	KTEST_EXPECT_EQ(t, kmem_cache_size(c), (unsigned int)sizeof(struct kmem_test_obj));
	for (int i = 0; i < 3; i++) {
		o[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, o[i]);
		KTEST_EXPECT_EQ(t, (unsigned long)o[i] % 64, 0UL);
	}
	for (int i = 0; i < 3; i++)
		kmem_cache_free(c, o[i]);
	kmem_cache_destroy(c);
}

/* --- kmalloc_size_roundup -------------------------------------------------- */

static void test_kmalloc_size_roundup(struct ktest *t)
{
	static const struct { size_t size, want; } table[] = {
		{ 1, 8 }, { 8, 8 }, { 9, 16 }, { 33, 64 }, { 65, 96 },
		{ 96, 96 }, { 97, 128 }, { 129, 192 }, { 193, 256 },
		{ 257, 320 }, { 1000, 1024 }, { 1025, 1280 }, { 4097, 5120 },
		{ 7169, 8192 }, { 8192, 8192 },
		{ 8193, 16384 }, { 16385, 32768 }, { 3 * PAGE_SIZE, 16384 },
		{ KMALLOC_MAX_SIZE - 1, KMALLOC_MAX_SIZE },
		{ KMALLOC_MAX_SIZE, KMALLOC_MAX_SIZE },
		/* kmalloc gives nothing for these: the size comes back. */
		{ 0, 0 }, { KMALLOC_MAX_SIZE + 1, KMALLOC_MAX_SIZE + 1 },
		{ SIZE_MAX, SIZE_MAX },
	};
	unsigned int wrong = 0;

	for (unsigned int i = 0; i < ARRAY_SIZE(table); i++)
		KTEST_EXPECT_EQ(t, kmalloc_size_roundup(table[i].size),
				table[i].want);

	/* Against what kmalloc really hands out. */
	for (size_t size = 1; size <= 70000; size += size < 300 ? 1 : 97) {
		void *p = kmalloc(size, GFP_KERNEL);

		KTEST_ASSERT_NOT_NULL(t, p);
		if (ksize(p) != kmalloc_size_roundup(size)) {
			if (!wrong++)
				ktest_info(t, "size %zu: ksize %zu, roundup %zu",
					   size, ksize(p), kmalloc_size_roundup(size));
		}
		kfree(p);
	}
	KTEST_EXPECT_EQ(t, wrong, 0U);
	/* And asking for the rounded-up size gives the same class. */
	for (size_t size = 1; size <= 9000; size += 37) {
		size_t r = kmalloc_size_roundup(size);

		KTEST_EXPECT_EQ(t, kmalloc_size_roundup(r), r);
	}
}

static void kmalloc_util_exit(struct ktest *t)
{
	(void)t;
	fault_attr_disable(&failslab);
}

static const struct ktest_case kmalloc_util_cases[] = {
	KTEST_CASE(test_overflow_helpers),
	KTEST_CASE(test_kmemdup),
	KTEST_CASE(test_kmemdup_nul),
	KTEST_CASE(test_kstrdup_kstrndup),
	KTEST_CASE(test_arch_is_kernel_rodata),
	KTEST_CASE(test_kstrdup_const),
	KTEST_CASE(test_krealloc_array),
	KTEST_CASE(test_node_variants),
	KTEST_CASE(test_kfree_bulk),
	KTEST_CASE(test_kmem_cache_macro),
	KTEST_CASE(test_kmalloc_size_roundup),
	{}
};

KTEST_SUITE(kmalloc_util, kmalloc_util_cases, .exit = kmalloc_util_exit);

// SPDX-License-Identifier: GPL-2.0
/*
 * The numbers the documentation's drawings show, checked against the
 * code: a change to a layout or a constant fails here until the drawing
 * that shows it (named in each case's comment) is redrawn.
 *
 * The values are written out, not taken from the code's own macros, so
 * that they are the drawings' numbers: when one of these fails, fix the
 * document first, then the expected value here.
 */
#include "arch/x86_64/x86.h"
#include "lib/ktest/ktest.h"
#include "mm/internal.h"
#include "mm/kasan.h"
#include "mm/mm.h"
#include "mm/mm_types.h"
#include "mm/mmzone.h"
#include "mm/percpu.h"
#include "mm/slab_internal.h"
#include "mm/util.h"

/*
 * Documentation/mm/slab.md, "struct page and struct slab, word by word"
 * (struct slab's words: slab.test_overlay_offsets);
 * Documentation/mm/memory-model.md, "mem_map" (64 bytes a page).
 */
static void test_struct_page_words(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, sizeof(struct page), 64UL);
	KTEST_EXPECT_EQ(t, offsetof(struct page, flags), 0UL);
	KTEST_EXPECT_EQ(t, offsetof(struct page, lru.next), 8UL);
	KTEST_EXPECT_EQ(t, offsetof(struct page, lru.prev), 16UL);
	KTEST_EXPECT_EQ(t, offsetof(struct page, mapping), 24UL);
	KTEST_EXPECT_EQ(t, offsetof(struct page, index), 32UL);
	KTEST_EXPECT_EQ(t, offsetof(struct page, private), 40UL);
	KTEST_EXPECT_EQ(t, offsetof(struct page, page_type), 48UL);
	KTEST_EXPECT_EQ(t, offsetof(struct page, _refcount), 52UL);
	KTEST_EXPECT_EQ(t, offsetof(struct page, alloc_order), 56UL);
	KTEST_EXPECT_EQ(t, offsetof(struct page, compound_head), 8UL);
	KTEST_EXPECT_EQ(t, offsetof(struct page, compound_order), 16UL);
	KTEST_EXPECT_EQ(t, offsetof(struct page, rcu_head), 8UL);
}

/*
 * Documentation/mm/memory-model.md, "The virtual address space" (x86_64;
 * the host build places its windows where mmap() puts them, so these are
 * the constants the x86_64 kernel uses).
 */
static void test_virtual_layout(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, X86_PAGE_OFFSET, 0xffff888000000000UL);
	KTEST_EXPECT_EQ(t, X86_VMALLOC_START, 0xffffc90000000000UL);
	KTEST_EXPECT_EQ(t, X86_VMALLOC_START + X86_VMALLOC_SIZE,
			0xffffe90000000000UL);
	KTEST_EXPECT_EQ(t, X86_VMEMMAP_START, 0xffffea0000000000UL);
	KTEST_EXPECT_EQ(t, KERNEL_VIRT_BASE, 0xffffffff80000000UL);
	KTEST_EXPECT_EQ(t, (unsigned long)EARLY_MAP_SIZE, 1UL << 30);
	KTEST_EXPECT_EQ(t, PAGE_SIZE, 4096UL);
}

/*
 * Documentation/mm/page_alloc.md, "Orders" and "Per-CPU lists": orders
 * 0..10, 4 MiB the largest block, per-CPU lists for orders 0..3.
 */
static void test_buddy_orders(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, MAX_ORDER, 11);
	KTEST_EXPECT_EQ(t, MAX_ORDER_NR_PAGES, 1024UL);
	KTEST_EXPECT_EQ(t, PAGE_SIZE << (MAX_ORDER - 1), 4UL << 20);
	KTEST_EXPECT_EQ(t, PAGE_ALLOC_COSTLY_ORDER, 3);
	KTEST_EXPECT_EQ(t, NR_PCP_ORDERS, 4);
}

/* Documentation/mm/slab.md, "kmalloc size classes": the table. */
static const struct {
	unsigned int size;
	unsigned int pages;	/* pages per slab */
} kmalloc_classes[] = {
	{ 8, 1 }, { 16, 1 }, { 32, 1 }, { 64, 1 }, { 96, 1 }, { 128, 1 },
	{ 192, 1 }, { 256, 1 }, { 320, 2 }, { 384, 2 }, { 448, 2 },
	{ 512, 2 }, { 640, 4 }, { 768, 4 }, { 896, 4 }, { 1024, 4 },
	{ 1280, 8 }, { 1536, 8 }, { 1792, 8 }, { 2048, 8 }, { 2560, 8 },
	{ 3072, 8 }, { 3584, 8 }, { 4096, 8 }, { 5120, 8 }, { 6144, 8 },
	{ 7168, 8 }, { 8192, 8 },
};

/* The table holds above 32 MiB of RAM; below, one object a slab. */
static unsigned int class_slab_pages(unsigned int size, size_t i)
{
	if (totalram_pages > (SZ_32M >> PAGE_SHIFT))
		return kmalloc_classes[i].pages;
	return size <= PAGE_SIZE ? 1 : 2;
}

static void test_kmalloc_classes(struct ktest *t)
{
	unsigned int prev = 0;

	KTEST_EXPECT_EQ(t, ARRAY_SIZE(kmalloc_classes), 28UL);
	KTEST_EXPECT_EQ(t, KMALLOC_MAX_CACHE_SIZE, 8192UL);
	KTEST_EXPECT_EQ(t, KMALLOC_MAX_SIZE, 4UL << 20);
	for (size_t i = 0; i < ARRAY_SIZE(kmalloc_classes); i++) {
		unsigned int size = kmalloc_classes[i].size;
		struct kmem_cache *c = kmalloc_slab(size, 0);

		/* Every size above the class below lands in this class. */
		KTEST_EXPECT_EQ(t, kmalloc_size_roundup(prev + 1), (size_t)size);
		KTEST_EXPECT_EQ(t, kmalloc_size_roundup(size), (size_t)size);
		KTEST_ASSERT_NOT_NULL(t, c);
		KTEST_EXPECT_EQ(t, c->object_size, size);
		/* The table is the plain layout's (KASAN's tracks: kasan.md). */
		if (!(c->flags & SLAB_KASAN))
			KTEST_EXPECT_EQ(t, 1U << c->gfporder,
					class_slab_pages(size, i));
		prev = size;
	}
}

/*
 * Documentation/mm/percpu.md, "Chunks and units": 32 KiB units of 8
 * pages one after the other, 4-byte granules (8192 a unit), areas of
 * at most 32 KiB, and the boot line's numbers.
 */
static void test_percpu_units(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, PCPU_UNIT_SIZE, 32768UL);
	KTEST_EXPECT_EQ(t, PCPU_UNIT_PAGES, 8UL);
	KTEST_EXPECT_EQ(t, per_cpu_offset(1), 32768UL);
	KTEST_EXPECT_EQ(t, per_cpu_offset(3), 3 * 32768UL);
	KTEST_EXPECT_EQ(t, PCPU_MIN_ALLOC_SIZE, 4);
	KTEST_EXPECT_EQ(t, PCPU_UNIT_SIZE / PCPU_MIN_ALLOC_SIZE, 8192UL);
	KTEST_EXPECT_EQ(t, PCPU_MAX_ALLOC_SIZE, 32768UL);
}

static struct ktest_case docs_cases[] = {
	KTEST_CASE(test_struct_page_words),
	KTEST_CASE(test_virtual_layout),
	KTEST_CASE(test_buddy_orders),
	KTEST_CASE(test_kmalloc_classes),
	KTEST_CASE(test_percpu_units),
	{}
};

KTEST_SUITE(docs, docs_cases);

// SPDX-License-Identifier: GPL-2.0
/*
 * Page allocator debugging and fault injection (mm/page_debug.c,
 * mm/fault_inject.c):
 *
 *  - page_poison: freed pages hold the poison, handed-out pages are
 *    checked (and zeroed after the check with __GFP_ZERO), switching it
 *    on poisons every free page, and while it is off nothing runs;
 *  - debug_pagealloc (when booted with it): free pages are not present in
 *    the direct map, allocated ones are, and the fault report's helper
 *    names the free pfn; while it is off every page stays mapped;
 *  - page_alloc_check() finds each kind of broken list state;
 *  - fault injection: the decision's steps (space, interval, probability,
 *    times) on a private attribute, the command line parameters, verbose
 *    reports, and a stress with 1% of page allocations failing;
 *  - bad input, one sub-case each: use after free and corruption of the
 *    last byte and inside a block found by the poison check, double frees
 *    with poisoning on, page_alloc_check finding a poisoned page written,
 *    free pages unmapped, fail_page_alloc every 4th, 1%, by order, times
 *    and space, failslab's cache filter and failslab failing a cache's
 *    allocations through SLAB, bad fault_attr specs. Each one
 *    checks its exact report and then that page_alloc_check() passes and
 *    a short stress with contents checked succeeds.
 *
 * The suite's exit switches every injection off and page poisoning back
 * to its boot state, whatever the case did.
 */
#include "arch/arch.h"
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "lib/ktest/ktest.h"
#include "kernel/params.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/fault_inject.h"
#include "mm/gfp.h"
#include "mm/kasan.h"
#include "mm/internal.h"	/* white-box: zones, free lists, per-CPU lists */
#include "mm/mm.h"
#include "mm/page_debug.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"	/* white-box: inside caches and slabs */
#include "tests/mm_util.h"

#define POISON_WORD	(PAGE_POISON * 0x0101010101010101ULL)
#define SANE_OPS	3000

static bool boot_poison;

/* --- helpers ------------------------------------------------------------- */

/* Run the command line words in line through the registered parameters. */
static int set_params(const char *line)
{
	char buf[256];

	strscpy(buf, line, sizeof(buf));
	return parse_args(buf, __start_kernel_params,
			  __stop_kernel_params - __start_kernel_params);
}

static void injection_off(void)
{
	fault_attr_disable(&fail_page_alloc);
	fault_attr_disable(&failslab);
	fail_page_alloc.verbose = false;
	failslab.verbose = false;
	failslab_set_cache(NULL);
	fail_page_alloc_set_order(0);
}

/*
 * The memory of a free page, mapped for the moment if debug_pagealloc
 * took it away (and valid to KASAN for the moment): write len bytes of c
 * at off, or test the poison.
 */
static void free_page_memset(struct page *page, unsigned long off, int c,
			     size_t len)
{
	bool unmapped = debug_pagealloc_enabled();

	if (unmapped)
		arch_kernel_map_pages(page, 1, true);
	kasan_alloc_pages(page, 0);	/* free: invalid to KASAN but here */
	memset((char *)page_address(page) + off, c, len);
	kasan_free_pages(page, 0);
	if (unmapped)
		arch_kernel_map_pages(page, 1, false);
}

static bool free_page_poisoned(struct page *page)
{
	bool unmapped = debug_pagealloc_enabled(), ok;

	if (unmapped)
		arch_kernel_map_pages(page, 1, true);
	kasan_alloc_pages(page, 0);	/* free: invalid to KASAN but here */
	ok = !memchr_inv(page_address(page), PAGE_POISON, PAGE_SIZE);
	kasan_free_pages(page, 0);
	if (unmapped)
		arch_kernel_map_pages(page, 1, false);
	return ok;
}

/* A needle for ktest_capture_start(), formatted. */
struct capture {
	char needle[160];
};

static void needle_fmt(struct capture *c, const char *fmt, ...) __printf(2, 3);

static void needle_fmt(struct capture *c, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vscnprintf(c->needle, sizeof(c->needle), fmt, args);
	va_end(args);
}

/*
 * Use after free caught by the poison check: a page is freed (to this
 * CPU's list, so it is the next one handed out), len bytes of c are
 * written at off, and the page is allocated again while the console is
 * captured: exactly one BUG line. The caller checks the captured text;
 * *pfn gets the page.
 */
static void provoke_uaf(struct ktest *t, unsigned long off, int c,
			size_t len, unsigned long *pfn)
{
	struct page *page = alloc_page(GFP_KERNEL), *again;
	unsigned long corrupted = page_debug_stats.corrupted;
	unsigned int hits;

	KTEST_ASSERT_NOT_NULL(t, page);
	*pfn = page_to_pfn(page);
	__free_page(page);
	free_page_memset(page, off, c, len);
	ktest_capture_start(t, "BUG:");
	again = alloc_page(GFP_KERNEL);
	hits = ktest_capture_stop(t);
	KTEST_EXPECT_EQ(t, hits, 1U);
	KTEST_EXPECT_REPORTS(t, REPORT_PAGE_POISON, 1);
	KTEST_ASSERT_NOT_NULL(t, again);
	KTEST_EXPECT_PTR_EQ(t, again, page);
	KTEST_EXPECT_EQ(t, page_debug_stats.corrupted, corrupted + 1);
	/* Repaired: the whole page holds the poison again. */
	KTEST_EXPECT_NULL(t, memchr_inv(page_address(again), PAGE_POISON,
					PAGE_SIZE));
	__free_page(again);
}

/* The exact report line of a corrupted page. */
static void poison_needle(struct capture *c, unsigned long pfn,
			  unsigned long off, unsigned int byte)
{
	needle_fmt(c, "BUG: page_poison: pfn 0x%lx corrupted at offset 0x%lx (byte 0x%02x, expected 0xaa)",
		   pfn, off, byte);
}

/* --- page_poison ------------------------------------------------------- */

/*
 * Freed pages (order 0 and 3) hold nothing but the poison; a page handed
 * out without __GFP_ZERO still does, with __GFP_ZERO it is zero; the
 * counters count every page filled and checked.
 */
static void test_poison_fill_and_check(struct ktest *t)
{
	struct page_debug_stats before;
	struct page *page, *again;
	unsigned long bad = 0;

	page_poisoning_set(true);
	KTEST_ASSERT_TRUE(t, page_poisoning_enabled());
	before = page_debug_stats;
	page = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, page);
	KTEST_EXPECT_EQ(t, page_debug_stats.checked, before.checked + 1);
	memset(page_address(page), 0x3c, PAGE_SIZE);
	__free_page(page);
	KTEST_EXPECT_EQ(t, page_debug_stats.poisoned, before.poisoned + 1);
	KTEST_EXPECT_TRUE(t, free_page_poisoned(page));

	again = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_PTR_EQ(t, again, page);
	KTEST_EXPECT_NULL(t, memchr_inv(page_address(again), PAGE_POISON, PAGE_SIZE));
	__free_page(again);
	again = alloc_page(GFP_KERNEL | __GFP_ZERO);
	KTEST_ASSERT_PTR_EQ(t, again, page);
	KTEST_EXPECT_NULL(t, memchr_inv(page_address(again), 0, PAGE_SIZE));
	__free_page(again);

	before = page_debug_stats;
	page = alloc_pages(GFP_KERNEL, 3);
	KTEST_ASSERT_NOT_NULL(t, page);
	KTEST_EXPECT_EQ(t, page_debug_stats.checked, before.checked + 8);
	memset(page_address(page), 0x11, 8 * PAGE_SIZE);
	__free_pages(page, 3);
	KTEST_EXPECT_EQ(t, page_debug_stats.poisoned, before.poisoned + 8);
	for (int i = 0; i < 8; i++)
		bad += !free_page_poisoned(page + i);
	KTEST_EXPECT_EQ(t, bad, 0UL);
	KTEST_EXPECT_EQ(t, page_debug_stats.corrupted, before.corrupted);
	KTEST_EXPECT_EQ(t, page_alloc_check(), 0);
}

/*
 * Switching poisoning on drains the per-CPU lists and poisons every free
 * page at once: a page freed while it was off holds the poison after,
 * and page_alloc_check() (which reads every free page) finds no gap.
 */
static void test_poison_switch_on(struct ktest *t)
{
	struct page *page;

	page_poisoning_set(false);
	page = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, page);
	memset(page_address(page), 0x77, PAGE_SIZE);
	__free_page(page);
	KTEST_EXPECT_FALSE(t, free_page_poisoned(page));
	page_poisoning_set(true);
	KTEST_EXPECT_EQ(t, nr_pcp_pages(), 0UL);
	KTEST_EXPECT_EQ(t, page_ref_count(page), 0);
	KTEST_EXPECT_TRUE(t, free_page_poisoned(page));
	KTEST_EXPECT_EQ(t, page_alloc_check(), 0);
}

/* This CPU's allocations by the page allocator's fast path, all zones. */
static unsigned long my_fast_hits(void)
{
	unsigned long hits = 0;
	struct zone *zone;

	for_each_zone(zone)
		hits += pcp_fast_hits(&zone->pcp[arch_cpu_id()]);
	return hits;
}

/*
 * Off, nothing runs: a thousand allocations and frees of mixed orders
 * leave the poison counters (and, without debug_pagealloc, the mapping
 * counters) as they were, the fast paths serve single pages again
 * (switched back on, pcp_fast_paths_update()), and a freed page keeps
 * what was written in it.
 */
static void test_poison_off_costs_nothing(struct ktest *t)
{
	struct page_debug_stats before;
	struct page *page, *again;
	unsigned long hits;

	page_poisoning_set(false);
	KTEST_ASSERT_FALSE(t, page_poisoning_enabled());
	before = page_debug_stats;
	for (int i = 0; i < 1000; i++) {
		page = alloc_pages(GFP_KERNEL, i % 4);
		KTEST_ASSERT_NOT_NULL(t, page);
		__free_pages(page, i % 4);
	}
	/*
	 * Order 0 alone for the fast paths: in a small zone (a fake node)
	 * the lists' high is 16 pages, and a block of each higher order
	 * parked on them leaves the mixed loop above no room to push.
	 */
	hits = my_fast_hits();
	for (int i = 0; i < 100; i++) {
		page = alloc_page(GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, page);
		__free_page(page);
	}
	KTEST_EXPECT_EQ(t, page_debug_stats.poisoned, before.poisoned);
	KTEST_EXPECT_EQ(t, page_debug_stats.checked, before.checked);
	KTEST_EXPECT_EQ(t, page_debug_stats.corrupted, before.corrupted);
	if (!debug_pagealloc_enabled()) {
		KTEST_EXPECT_EQ(t, page_debug_stats.mapped, before.mapped);
		KTEST_EXPECT_EQ(t, page_debug_stats.unmapped, before.unmapped);
		KTEST_EXPECT_FALSE(t, page_debug_active());
		KTEST_EXPECT_GT(t, my_fast_hits(), hits);
	}

	page = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, page);
	memset(page_address(page), 0x5a, PAGE_SIZE);
	__free_page(page);
	again = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_PTR_EQ(t, again, page);
	KTEST_EXPECT_NULL(t, memchr_inv(page_address(again), 0x5a, PAGE_SIZE));
	__free_page(again);
}

/* --- debug_pagealloc ------------------------------------------------------ */

/*
 * Off (the usual boot): free pages stay mapped, the fault helper never
 * claims an address, the mapping counters do not move.
 */
static void test_debug_pagealloc_off(struct ktest *t)
{
	unsigned long mapped = page_debug_stats.mapped, pfn = 0;
	struct page *page;

	if (debug_pagealloc_enabled())
		ktest_skip(t, "booted with debug_pagealloc=on");
	page = alloc_pages(GFP_KERNEL, 2);
	KTEST_ASSERT_NOT_NULL(t, page);
	__free_pages(page, 2);
	for (int i = 0; i < 4; i++) {
		unsigned long virt = (unsigned long)page_address(page + i);

		KTEST_EXPECT_TRUE(t, arch_kernel_page_present(virt));
		KTEST_EXPECT_FALSE(t, debug_pagealloc_fault(virt, &pfn));
	}
	KTEST_EXPECT_EQ(t, page_debug_stats.mapped, mapped);
}

/*
 * On: blocks of every kind are mapped while held and gone once freed,
 * down to each tail page alloc_pages_exact() gives back; the fault
 * helper names the pfn of a free page and nothing else.
 */
static void test_debug_pagealloc_unmaps(struct ktest *t)
{
	unsigned long pfn = 0, bad = 0;
	struct page *page;
	void *virt;

	if (!debug_pagealloc_enabled())
		ktest_skip(t, "needs debug_pagealloc=on at boot");
	for (unsigned int order = 0; order < 5; order++) {
		unsigned long n = 1UL << order;

		page = alloc_pages(GFP_KERNEL | (order & 1 ? __GFP_COMP : 0), order);
		KTEST_ASSERT_NOT_NULL(t, page);
		for (unsigned long i = 0; i < n; i++)
			bad += !arch_kernel_page_present((unsigned long)page_address(page + i));
		memset(page_address(page), 0x42, n * PAGE_SIZE);
		__free_pages(page, order);
		for (unsigned long i = 0; i < n; i++)
			bad += arch_kernel_page_present((unsigned long)page_address(page + i));
	}
	KTEST_EXPECT_EQ(t, bad, 0UL);

	page = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, page);
	virt = page_address(page);
	KTEST_EXPECT_FALSE(t, debug_pagealloc_fault((unsigned long)virt + 8, &pfn));
	__free_page(page);
	KTEST_EXPECT_TRUE(t, debug_pagealloc_fault((unsigned long)virt + 8, &pfn));
	KTEST_EXPECT_EQ(t, pfn, page_to_pfn(page));
	KTEST_EXPECT_FALSE(t, debug_pagealloc_fault(0x1000, &pfn));

	/* 5 pages out of an order-3 block: the 3 given back are unmapped. */
	virt = alloc_pages_exact(5 * PAGE_SIZE, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, virt);
	for (unsigned long i = 0; i < 8; i++)
		bad += arch_kernel_page_present((unsigned long)virt + i * PAGE_SIZE) !=
		       (i < 5);
	KTEST_EXPECT_EQ(t, bad, 0UL);
	memset(virt, 0x24, 5 * PAGE_SIZE);
	free_pages_exact(virt, 5 * PAGE_SIZE);
	KTEST_EXPECT_FALSE(t, arch_kernel_page_present((unsigned long)virt));
	KTEST_EXPECT_EQ(t, page_alloc_check(), 0);
}

/* --- page_alloc_check ------------------------------------------------------ */

/* page_alloc_check() with its report lines captured. */
static int captured_check(struct ktest *t, unsigned int *lines)
{
	int problems;

	ktest_capture_start(t, "page_alloc_check: ");
	problems = page_alloc_check();
	*lines = ktest_capture_stop(t);
	return problems;
}

/* A free block of order >= 1 at the head of a list of the top zone. */
static struct page *some_free_block(struct zone **zonep, unsigned int *order)
{
	struct zone *zone;

	for_each_zone(zone) {
		for (unsigned int o = 1; o < MAX_ORDER; o++) {
			struct page *page = list_first_entry_or_null(
				&zone->free_area[o].free_list, struct page, lru);

			if (page) {
				*zonep = zone;
				*order = o;
				return page;
			}
		}
	}
	return NULL;
}

/*
 * A per-CPU list of order 2 whose limit is past its room, then one whose
 * count is past its limit: each is reported once, and named.
 */
static void check_pcp_order2(struct ktest *t)
{
	struct page *block = alloc_pages(GFP_KERNEL, 2);
	struct pcp_list *l;
	unsigned int lines, limit;
	int problems;

	KTEST_ASSERT_NOT_NULL(t, block);
	__free_pages(block, 2);
	l = page_zone(block)->pcp[arch_cpu_id()].lists[2];
	KTEST_EXPECT_GT(t, l->count, 0U);
	limit = l->limit;
	l->limit = l->size + 1;
	problems = captured_check(t, &lines);
	l->limit = limit;
	KTEST_EXPECT_EQ(t, problems, 1);
	KTEST_EXPECT_EQ(t, lines, 1U);
	KTEST_EXPECT_REPORT(t, REPORT_PAGE_CHECK_COUNT);
	KTEST_EXPECT_CAPTURED(t, "order-2 list: count ");

	l->limit = l->count - 1;
	problems = captured_check(t, &lines);
	l->limit = limit;
	KTEST_EXPECT_EQ(t, problems, 1);
	KTEST_EXPECT_EQ(t, lines, 1U);
	KTEST_EXPECT_REPORT(t, REPORT_PAGE_CHECK_COUNT);
	KTEST_EXPECT_CAPTURED(t, "order-2 list: count ");
}

/*
 * Each kind of broken state, made by hand and undone: the check reports
 * it (one problem or more, each on a line of its own, of the kind that
 * names it), and passes again once it is undone. This is the test of
 * the sentences page_alloc_check() prints.
 */
static void test_page_alloc_check_detects(struct ktest *t)
{
	struct zone *zone = NULL;
	unsigned int order = 0, lines;
	struct page *block, *page, *saved;
	struct pcp_list *l;
	unsigned long flags;
	int problems;

	KTEST_ASSERT_EQ(t, page_alloc_check(), 0);
	drain_all_pages();
	block = some_free_block(&zone, &order);
	KTEST_ASSERT_NOT_NULL(t, block);

	/* 1. nr_free one too many. */
	spin_lock_irqsave(&zone->lock, flags);
	zone->free_area[order].nr_free++;
	spin_unlock_irqrestore(&zone->lock, flags);
	problems = captured_check(t, &lines);
	spin_lock_irqsave(&zone->lock, flags);
	zone->free_area[order].nr_free--;
	spin_unlock_irqrestore(&zone->lock, flags);
	KTEST_EXPECT_GE(t, problems, 1);
	KTEST_EXPECT_EQ(t, lines, (unsigned int)problems);
	KTEST_EXPECT_REPORT(t, REPORT_PAGE_CHECK_COUNT);
	KTEST_EXPECT_CAPTURED(t, "blocks listed, nr_free");

	/* 2. The block's order says one less than its list. */
	spin_lock_irqsave(&zone->lock, flags);
	block->private = order - 1;
	spin_unlock_irqrestore(&zone->lock, flags);
	problems = captured_check(t, &lines);
	spin_lock_irqsave(&zone->lock, flags);
	block->private = order;
	spin_unlock_irqrestore(&zone->lock, flags);
	KTEST_EXPECT_GE(t, problems, 1);
	KTEST_EXPECT_GE(t, lines, 1U);
	KTEST_EXPECT_REPORT(t, REPORT_PAGE_CHECK_BLOCK);
	KTEST_EXPECT_CAPTURED(t, "list: PG_buddy 1, order");

	/* 3. A page inside the block marked as a free block of its own. */
	spin_lock_irqsave(&zone->lock, flags);
	__SetPageBuddy(block + 1);
	spin_unlock_irqrestore(&zone->lock, flags);
	problems = captured_check(t, &lines);
	spin_lock_irqsave(&zone->lock, flags);
	__ClearPageBuddy(block + 1);
	spin_unlock_irqrestore(&zone->lock, flags);
	KTEST_EXPECT_GE(t, problems, 1);
	KTEST_EXPECT_GE(t, lines, 1U);
	KTEST_EXPECT_REPORT(t, REPORT_PAGE_CHECK_NOT_CLEAN);
	KTEST_EXPECT_CAPTURED(t, "is not clean");

	/* 4. A per-CPU list that counts one entry more than it holds. */
	page = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, page);
	__free_page(page);
	zone = page_zone(page);
	l = zone->pcp[arch_cpu_id()].lists[0];
	KTEST_ASSERT_LT(t, l->count, l->limit);
	local_irq_save(flags);	/* nobody here pops the bad entry */
	saved = l->pages[l->count];
	l->pages[l->count++] = (struct page *)0x10;
	problems = captured_check(t, &lines);
	l->pages[--l->count] = saved;
	local_irq_restore(flags);
	KTEST_EXPECT_EQ(t, problems, 1);
	KTEST_EXPECT_EQ(t, lines, 1U);
	KTEST_EXPECT_REPORT(t, REPORT_PAGE_CHECK_LIST);
	KTEST_EXPECT_CAPTURED(t, "order-0 list: entry ");

	/* 4b. The same on the order-2 list, and the lists' page total. */
	check_pcp_order2(t);

	/* 5. A per-CPU page that is also a free block (PG_buddy, order 0). */
	spin_lock_irqsave(&zone->lock, flags);
	__SetPageBuddy(page);
	spin_unlock_irqrestore(&zone->lock, flags);
	problems = captured_check(t, &lines);
	spin_lock_irqsave(&zone->lock, flags);
	__ClearPageBuddy(page);
	spin_unlock_irqrestore(&zone->lock, flags);
	KTEST_EXPECT_GE(t, problems, 2);	/* its flags, and the overlap */
	KTEST_EXPECT_GE(t, lines, 2U);
	KTEST_EXPECT_REPORT(t, REPORT_PAGE_CHECK_OVERLAP);
	KTEST_EXPECT_CAPTURED(t, "is inside the free order-0 block");

	/* 6. free_pages one more than the lists hold. */
	spin_lock_irqsave(&zone->lock, flags);
	zone->free_pages++;
	spin_unlock_irqrestore(&zone->lock, flags);
	problems = captured_check(t, &lines);
	spin_lock_irqsave(&zone->lock, flags);
	zone->free_pages--;
	spin_unlock_irqrestore(&zone->lock, flags);
	KTEST_EXPECT_GE(t, problems, 1);
	KTEST_EXPECT_GE(t, lines, 1U);
	KTEST_EXPECT_REPORT(t, REPORT_PAGE_CHECK_COUNT);
	KTEST_EXPECT_CAPTURED(t, "pages on the free lists, free_pages");

	KTEST_EXPECT_EQ(t, page_alloc_check(), 0);
}

/* --- fault injection: the decision ------------------------------------ */

/*
 * On a private attribute: interval 3 fails exactly every third call;
 * space lets calls through while more than their size is left; times
 * stops after that many failures and switches the point off; the same
 * seed repeats a 50% sequence exactly and another seed does not.
 */
static void test_should_fail_steps(struct ktest *t)
{
	struct fault_attr a = { .name = "test" }, b = { .name = "test" };
	unsigned long wrong = 0, same = 0, fails = 0;

	KTEST_ASSERT_EQ(t, fault_attr_set(&a, "3,100,0,-1", 1), 0);
	KTEST_EXPECT_TRUE(t, a.enabled);
	for (int i = 1; i <= 30; i++)
		wrong += should_fail(&a, 1) != (i % 3 == 0);
	KTEST_EXPECT_EQ(t, wrong, 0UL);
	KTEST_EXPECT_EQ(t, a.candidates, 30UL);
	KTEST_EXPECT_EQ(t, a.failures, 10UL);

	/* 10000 bytes of space, calls of 4096: 10000, 5904, 1808 -> fail. */
	KTEST_ASSERT_EQ(t, fault_attr_set(&a, "1,100,10000", 1), 0);
	KTEST_EXPECT_FALSE(t, should_fail(&a, 4096));
	KTEST_EXPECT_FALSE(t, should_fail(&a, 4096));
	KTEST_EXPECT_TRUE(t, should_fail(&a, 4096));
	KTEST_EXPECT_EQ(t, a.space, 1808L);
	KTEST_EXPECT_FALSE(t, should_fail(&a, 1000));	/* 1808 > 1000 */
	KTEST_EXPECT_EQ(t, a.space, 808L);

	KTEST_ASSERT_EQ(t, fault_attr_set(&a, "1,100,0,3", 1), 0);
	for (int i = 0; i < 10; i++)
		fails += should_fail(&a, 1);
	KTEST_EXPECT_EQ(t, fails, 3UL);
	KTEST_EXPECT_EQ(t, a.times, 0L);
	KTEST_EXPECT_FALSE(t, a.enabled);
	KTEST_EXPECT_EQ(t, a.candidates, 3UL);	/* off: no more candidates */

	KTEST_ASSERT_EQ(t, fault_attr_set(&a, "1,50", 42), 0);
	KTEST_ASSERT_EQ(t, fault_attr_set(&b, "1,50", 42), 0);
	fails = 0;
	for (int i = 0; i < 1000; i++) {
		bool x = should_fail(&a, 1);

		same += x == should_fail(&b, 1);
		fails += x;
	}
	KTEST_EXPECT_EQ(t, same, 1000UL);
	KTEST_EXPECT_GT(t, fails, 400UL);
	KTEST_EXPECT_LT(t, fails, 600UL);
	KTEST_ASSERT_EQ(t, fault_attr_set(&b, "1,50", 43), 0);
	same = 0;
	for (int i = 0; i < 1000; i++)
		same += should_fail(&a, 1) == should_fail(&b, 1);
	KTEST_EXPECT_LT(t, same, 1000UL);

	/* Probability 0 and times 0 leave the point off; "" switches it off. */
	KTEST_ASSERT_EQ(t, fault_attr_set(&a, "1,0", 1), 0);
	KTEST_EXPECT_FALSE(t, a.enabled);
	KTEST_EXPECT_FALSE(t, should_fail(&a, 1));
	KTEST_ASSERT_EQ(t, fault_attr_set(&a, "1,100,0,0", 1), 0);
	KTEST_EXPECT_FALSE(t, a.enabled);
	KTEST_ASSERT_EQ(t, fault_attr_set(&a, "1", 1), 0);
	KTEST_EXPECT_TRUE(t, a.enabled);
	KTEST_EXPECT_EQ(t, a.probability, 100U);
	KTEST_EXPECT_EQ(t, a.times, -1L);
	KTEST_ASSERT_EQ(t, fault_attr_set(&a, "", 1), 0);
	KTEST_EXPECT_FALSE(t, a.enabled);
	KTEST_EXPECT_EQ(t, a.probability, 100U);	/* settings kept */
}

/*
 * The kernel parameters, as the command line gives them: fail_page_alloc=
 * with its seed given after it (configured at once, armed only by
 * fault_inject_init() at the end of memory bring-up), fail_page_alloc_order=,
 * failslab_cache=, fault_inject_verbose; bad values are refused with the
 * usual warning.
 */
static void test_fault_params(struct ktest *t)
{
	struct fault_attr model = { .name = "model" };
	unsigned long same = 0;

	KTEST_EXPECT_EQ(t, set_params("fail_page_alloc=2,30,0,50 fault_inject_seed=77"), 0);
	KTEST_EXPECT_FALSE(t, fail_page_alloc.enabled);
	fault_inject_init();
	KTEST_EXPECT_TRUE(t, fail_page_alloc.enabled);
	KTEST_EXPECT_EQ(t, fail_page_alloc.interval, 2UL);
	KTEST_EXPECT_EQ(t, fail_page_alloc.probability, 30U);
	KTEST_EXPECT_EQ(t, fail_page_alloc.times, 50L);
	KTEST_ASSERT_EQ(t, fault_attr_set(&model, "2,30,0,50", 77), 0);
	for (int i = 0; i < 100; i++)
		same += should_fail(&model, 1) == should_fail(&fail_page_alloc, 1);
	KTEST_EXPECT_EQ(t, same, 100UL);
	fault_attr_disable(&fail_page_alloc);

	KTEST_EXPECT_EQ(t, set_params("fail_page_alloc_order=10 failslab_cache=pd-none fault_inject_verbose"), 0);
	KTEST_EXPECT_TRUE(t, fail_page_alloc.verbose);
	KTEST_EXPECT_TRUE(t, failslab.verbose);
	KTEST_EXPECT_EQ(t, set_params("fault_inject_verbose=off"), 0);
	KTEST_EXPECT_FALSE(t, fail_page_alloc.verbose);

	ktest_capture_start(t, "Malformed kernel command line parameter");
	KTEST_EXPECT_EQ(t, set_params("fail_page_alloc_order=11 failslab_cache= fault_inject_seed=x fault_inject_verbose=maybe"), 4);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 4U);
}

/* With fault_inject_verbose, one FAULT_INJECTION report per failure, none for __GFP_NOWARN. */
static void test_fault_verbose(struct ktest *t)
{
	unsigned int hits;

	KTEST_ASSERT_EQ(t, fault_attr_set(&fail_page_alloc, "1,100,0,3", 1), 0);
	fail_page_alloc.verbose = true;
	ktest_capture_start(t, "FAULT_INJECTION: forcing a failure: fail_page_alloc, caller alloc_pages");
	KTEST_EXPECT_NULL(t, alloc_page(GFP_KERNEL));
	KTEST_EXPECT_NULL(t, alloc_pages(GFP_KERNEL | __GFP_NOWARN, 2));
	KTEST_EXPECT_NULL(t, alloc_page(GFP_KERNEL));
	hits = ktest_capture_stop(t);
	KTEST_EXPECT_EQ(t, hits, 2U);
	KTEST_EXPECT_CAPTURED(t, "name fail_page_alloc, interval 1, probability 100, space 0, times 2\n");
	KTEST_EXPECT_CAPTURED(t, "name fail_page_alloc, interval 1, probability 100, space 0, times 0\n");
	KTEST_EXPECT_CAPTURED(t, "test_fault_verbose");	/* the stack */
	KTEST_EXPECT_EQ(t, fail_page_alloc.failures, 3UL);
	KTEST_EXPECT_FALSE(t, fail_page_alloc.enabled);
}

/*
 * A stress of 20000 page operations with 1% of allocations failing: the
 * failures are exactly the ones injected, none is reported as a real
 * shortage, contents survive, and the pages in use come back to where
 * they were.
 */
static void test_fault_inject_stress(struct ktest *t)
{
	long in_use = nr_allocated_pages();
	unsigned long warns = warn_count;
	struct page_stress s;
	unsigned int reports;

	KTEST_ASSERT_EQ(t, fault_attr_set(&fail_page_alloc, "1,1,0,-1", 2024), 0);
	ktest_capture_start(t, "page allocation failure");
	page_stress(20000, 99, &s);
	reports = ktest_capture_stop(t);
	fault_attr_disable(&fail_page_alloc);
	ktest_info(t, "%lu allocations, %lu failed", s.allocs + s.failed, s.failed);
	KTEST_EXPECT_EQ(t, reports, 0U);
	KTEST_EXPECT_EQ(t, warn_count, warns);
	KTEST_EXPECT_EQ(t, s.failed, fail_page_alloc.failures);
	KTEST_EXPECT_EQ(t, fail_page_alloc.candidates, s.allocs + s.failed);
	KTEST_EXPECT_GT(t, s.failed, 0UL);
	KTEST_EXPECT_LT(t, s.failed, (s.allocs + s.failed) / 25);
	KTEST_EXPECT_EQ(t, s.frees, s.allocs);
	KTEST_EXPECT_EQ(t, s.corrupt, 0UL);
	KTEST_EXPECT_EQ(t, s.not_zeroed, 0UL);
	KTEST_EXPECT_EQ(t, nr_allocated_pages(), in_use);
	KTEST_EXPECT_EQ(t, page_alloc_check(), 0);
}

/* --- bad input -------------------------------------------------------- */

/*
 * Write 8 zero bytes at 0x18 of a free page: one report, exact (the one
 * test of page_poison's wording).
 */
static void bad_use_after_free(struct ktest *t)
{
	struct capture c;
	unsigned long pfn;

	page_poisoning_set(true);
	provoke_uaf(t, 0x18, 0, 8, &pfn);
	poison_needle(&c, pfn, 0x18, 0x00);
	KTEST_EXPECT_CAPTURED(t, c.needle);
	KTEST_EXPECT_CAPTURED(t, "page_poison: 8 bad bytes in offsets 0x18-0x1f\n");
	/* 32 bytes around the first bad one. */
	KTEST_EXPECT_CAPTURED(t, "page_poison: 000: aa aa aa aa aa aa aa aa aa aa aa aa aa aa aa aa\n"
				 "page_poison: 010: aa aa aa aa aa aa aa aa 00 00 00 00 00 00 00 00\n");
	KTEST_EXPECT_CAPTURED(t, "poisoned again and handed out");
	KTEST_EXPECT_CAPTURED(t, "bad_use_after_free");	/* in the stack */
}

/* The last byte of a page, one bit flipped. */
static void bad_poison_last_byte(struct ktest *t)
{
	struct capture c;
	unsigned long pfn;

	page_poisoning_set(true);
	provoke_uaf(t, 0xfff, 0xab, 1, &pfn);
	needle_fmt(&c, "pfn 0x%lx corrupted at offset 0xfff (byte 0xab,", pfn);
	KTEST_EXPECT_CAPTURED(t, c.needle);
	KTEST_EXPECT_CAPTURED(t, "page_poison: 1 bad bytes in offsets 0xfff-0xfff (a single bit flip)\n");
	KTEST_EXPECT_CAPTURED(t, "page_poison: fe0: aa aa aa aa aa aa aa aa aa aa aa aa aa aa aa aa\n"
				 "page_poison: ff0: aa aa aa aa aa aa aa aa aa aa aa aa aa aa aa ab\n");
}

/*
 * Page 5 of a free order-3 block, written at 0x100: the block comes back
 * whole on the next order-3 allocation, with one report naming page 5.
 * (The block is the upper half of an order-4 block whose lower half is
 * held, so it cannot merge and heads its free list.)
 */
static void bad_poison_inside_block(struct ktest *t)
{
	struct page *big, *again;
	struct capture c;
	unsigned int hits;

	page_poisoning_set(true);
	big = alloc_pages(GFP_KERNEL, 4);
	KTEST_ASSERT_NOT_NULL(t, big);
	split_page(big, 4);
	for (int i = 8; i < 16; i++)
		__free_page(big + i);
	drain_all_pages();
	KTEST_EXPECT_TRUE(t, PageBuddy(big + 8));
	KTEST_EXPECT_EQ(t, big[8].private, 3UL);
	free_page_memset(big + 13, 0x100, 0x55, 1);
	ktest_capture_start(t, "BUG:");
	again = alloc_pages(GFP_KERNEL, 3);
	hits = ktest_capture_stop(t);
	KTEST_EXPECT_EQ(t, hits, 1U);
	KTEST_EXPECT_REPORTS(t, REPORT_PAGE_POISON, 1);
	needle_fmt(&c, "pfn 0x%lx corrupted at offset 0x100 ", page_to_pfn(big + 13));
	KTEST_EXPECT_CAPTURED(t, c.needle);
	KTEST_EXPECT_PTR_EQ(t, again, big + 8);
	if (again) {
		KTEST_EXPECT_NULL(t, memchr_inv(page_address(again), PAGE_POISON,
						8 * PAGE_SIZE));
		__free_pages(again, 3);
	}
	for (int i = 0; i < 8; i++)
		__free_page(big + i);
}

/* page_alloc_check() reads free pages too: it names the written one. */
static void bad_poison_found_by_check(struct ktest *t)
{
	struct page *page, *again;
	struct capture c;
	unsigned int hits;

	page_poisoning_set(true);
	page = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, page);
	__free_page(page);
	free_page_memset(page, 0x234, 0x00, 2);
	needle_fmt(&c, "free pfn 0x%lx: poison overwritten at offset 0x234",
		   page_to_pfn(page));
	ktest_capture_start(t, "page_alloc_check: ");
	KTEST_EXPECT_EQ(t, page_alloc_check(), 1);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_REPORTS(t, REPORT_PAGE_CHECK_POISON, 1);
	KTEST_EXPECT_CAPTURED(t, c.needle);
	/* Handed out, it is reported and repaired. */
	ktest_capture_start(t, "BUG:");
	again = alloc_page(GFP_KERNEL);
	hits = ktest_capture_stop(t);
	KTEST_EXPECT_EQ(t, hits, 1U);
	KTEST_EXPECT_REPORTS(t, REPORT_PAGE_POISON, 1);
	KTEST_EXPECT_PTR_EQ(t, again, page);
	if (again)
		__free_page(again);
}

/*
 * A double free while poisoning: the usual report, and the second free
 * changes nothing (the page's poison is intact; handing it out again
 * finds no corruption).
 */
static void bad_double_free_poisoned(struct ktest *t, unsigned int order)
{
	struct page *page, *again;
	enum report_kind kind;

	page_poisoning_set(true);
	page = alloc_pages(GFP_KERNEL, order);
	KTEST_ASSERT_NOT_NULL(t, page);
	__free_pages(page, order);
	if (order)
		drain_all_pages();
	/* Still the head of a free block, or merged into a larger one. */
	kind = PageBuddy(page) ? REPORT_BAD_PAGE_ALREADY_FREE :
				 REPORT_BAD_PAGE_REFCOUNT;
	ktest_capture_start(t, "BUG: Bad page state: ");
	__free_pages(page, order);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_REPORTS(t, kind, 1);
	KTEST_EXPECT_CAPTURED(t, "caller: bad_double_free_poisoned");
	for (unsigned long i = 0; i < (1UL << order); i++)
		KTEST_EXPECT_TRUE(t, free_page_poisoned(page + i));
	KTEST_EXPECT_EQ(t, page_alloc_check(), 0);
	ktest_capture_start(t, "BUG: page_poison");
	again = alloc_pages(GFP_KERNEL, order);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
	KTEST_ASSERT_NOT_NULL(t, again);
	__free_pages(again, order);
}

static void bad_double_free_poisoned_pcp(struct ktest *t)
{
	bad_double_free_poisoned(t, 0);
}

static void bad_double_free_poisoned_buddy(struct ktest *t)
{
	bad_double_free_poisoned(t, 3);
}

/* A freed page is not present; allocated again, it is. */
static void bad_access_free_page(struct ktest *t)
{
	struct page *page, *again;
	unsigned long virt, pfn = 0;

	if (!debug_pagealloc_enabled())
		ktest_skip(t, "needs debug_pagealloc=on at boot");
	page = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, page);
	virt = (unsigned long)page_address(page);
	KTEST_EXPECT_TRUE(t, arch_kernel_page_present(virt));
	__free_page(page);
	KTEST_EXPECT_FALSE(t, arch_kernel_page_present(virt));
	KTEST_EXPECT_TRUE(t, debug_pagealloc_fault(virt + 0x123, &pfn));
	KTEST_EXPECT_EQ(t, pfn, page_to_pfn(page));
	again = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_PTR_EQ(t, again, page);
	KTEST_EXPECT_TRUE(t, arch_kernel_page_present(virt));
	KTEST_EXPECT_FALSE(t, debug_pagealloc_fault(virt + 0x123, &pfn));
	*(volatile unsigned long *)virt = 1;
	__free_page(again);
}

/*
 * fail_page_alloc "4,100": exactly every 4th allocation fails, without a
 * "page allocation failure" report or a WARNING, with or without
 * __GFP_NOWARN; the counters say the same.
 */
static void bad_fail_every_4th(struct ktest *t)
{
	static struct page *pages[100];
	unsigned long warns = warn_count, wrong = 0, nulls = 0;
	unsigned int reports;

	KTEST_ASSERT_EQ(t, fault_attr_set(&fail_page_alloc, "4,100,0,-1", 1), 0);
	ktest_capture_start(t, "page allocation failure");
	for (int i = 0; i < 100; i++) {
		pages[i] = alloc_pages(GFP_KERNEL | (i & 1 ? __GFP_NOWARN : 0),
				       i % 3);
		wrong += !pages[i] != ((i + 1) % 4 == 0);
		nulls += !pages[i];
	}
	reports = ktest_capture_stop(t);
	fault_attr_disable(&fail_page_alloc);
	for (int i = 0; i < 100; i++) {
		if (pages[i])
			__free_pages(pages[i], i % 3);
	}
	KTEST_EXPECT_EQ(t, wrong, 0UL);
	KTEST_EXPECT_EQ(t, nulls, 25UL);
	KTEST_EXPECT_EQ(t, fail_page_alloc.candidates, 100UL);
	KTEST_EXPECT_EQ(t, fail_page_alloc.failures, 25UL);
	KTEST_EXPECT_EQ(t, reports, 0U);
	KTEST_EXPECT_EQ(t, warn_count, warns);
}

/*
 * fail_page_alloc "1,1": 1% of 5000 allocations fail, exactly those a
 * private attribute with the same seed picks.
 */
static void bad_fail_one_percent(struct ktest *t)
{
	struct fault_attr model = { .name = "model" };
	unsigned long wrong = 0, nulls = 0;
	unsigned int reports;

	KTEST_ASSERT_EQ(t, fault_attr_set(&fail_page_alloc, "1,1,0,-1", 7), 0);
	KTEST_ASSERT_EQ(t, fault_attr_set(&model, "1,1,0,-1", 7), 0);
	ktest_capture_start(t, "page allocation failure");
	for (int i = 0; i < 5000; i++) {
		struct page *page = alloc_page(GFP_KERNEL);

		wrong += !page != should_fail(&model, PAGE_SIZE);
		nulls += !page;
		if (page)
			__free_page(page);
	}
	reports = ktest_capture_stop(t);
	fault_attr_disable(&fail_page_alloc);
	ktest_info(t, "%lu of 5000 failed", nulls);
	KTEST_EXPECT_EQ(t, wrong, 0UL);
	KTEST_EXPECT_EQ(t, nulls, model.failures);
	KTEST_EXPECT_EQ(t, fail_page_alloc.failures, nulls);
	KTEST_EXPECT_GE(t, nulls, 20UL);
	KTEST_EXPECT_LE(t, nulls, 90UL);
	KTEST_EXPECT_EQ(t, reports, 0U);
}

/* fail_page_alloc_order=3: orders 0-2 are never candidates, 3-5 always fail. */
static void bad_fail_by_order(struct ktest *t)
{
	unsigned long wrong = 0;

	KTEST_ASSERT_EQ(t, fail_page_alloc_set_order(3), 0);
	KTEST_EXPECT_EQ(t, fail_page_alloc_set_order(MAX_ORDER), -EINVAL);
	KTEST_ASSERT_EQ(t, fault_attr_set(&fail_page_alloc, "1,100,0,-1", 1), 0);
	for (unsigned int i = 0; i < 60; i++) {
		unsigned int order = i % 6;
		struct page *page = alloc_pages(GFP_KERNEL, order);

		wrong += !page != (order >= 3);
		if (page)
			__free_pages(page, order);
	}
	fault_attr_disable(&fail_page_alloc);
	fail_page_alloc_set_order(0);
	KTEST_EXPECT_EQ(t, wrong, 0UL);
	KTEST_EXPECT_EQ(t, fail_page_alloc.candidates, 30UL);
	KTEST_EXPECT_EQ(t, fail_page_alloc.failures, 30UL);
}

/* times 5 then off; space 20000 lets four order-0 pages through first. */
static void bad_fail_times_space(struct ktest *t)
{
	unsigned long wrong = 0;

	KTEST_ASSERT_EQ(t, fault_attr_set(&fail_page_alloc, "1,100,0,5", 1), 0);
	for (int i = 0; i < 20; i++) {
		struct page *page = alloc_page(GFP_KERNEL);

		wrong += !page != (i < 5);
		if (page)
			__free_page(page);
	}
	KTEST_EXPECT_EQ(t, wrong, 0UL);
	KTEST_EXPECT_FALSE(t, fail_page_alloc.enabled);
	KTEST_EXPECT_EQ(t, fail_page_alloc.failures, 5UL);

	KTEST_ASSERT_EQ(t, fault_attr_set(&fail_page_alloc, "1,100,20000,-1", 1), 0);
	for (int i = 0; i < 10; i++) {
		struct page *page = alloc_page(GFP_KERNEL);

		wrong += !page != (i >= 4);
		if (page)
			__free_page(page);
	}
	fault_attr_disable(&fail_page_alloc);
	KTEST_EXPECT_EQ(t, wrong, 0UL);
	KTEST_EXPECT_EQ(t, fail_page_alloc.failures, 6UL);
}

/*
 * failslab's decision through should_failslab(): only the cache named by
 * failslab_cache= is a candidate (a kmalloc cache is not), and switching
 * the point off stops it.
 */
static void bad_failslab_cache_filter(struct ktest *t)
{
	struct kmem_cache fake = { .name = "pd-fake", .object_size = 64 };
	struct kmem_cache *real = kmalloc_slab(64, GFP_KERNEL);
	unsigned long fails = 0;

	KTEST_ASSERT_NOT_NULL(t, real);
	failslab_set_cache("pd-fake");
	KTEST_ASSERT_EQ(t, fault_attr_set(&failslab, "2,100,0,-1", 1), 0);
	for (int i = 0; i < 10; i++) {
		fails += should_failslab(&fake, GFP_KERNEL);
		KTEST_EXPECT_FALSE(t, should_failslab(real, GFP_KERNEL));
	}
	KTEST_EXPECT_EQ(t, fails, 5UL);
	KTEST_EXPECT_EQ(t, failslab.candidates, 10UL);
	fault_attr_disable(&failslab);
	KTEST_EXPECT_FALSE(t, should_failslab(&fake, GFP_KERNEL));
	KTEST_EXPECT_EQ(t, failslab.candidates, 10UL);
	failslab_set_cache(NULL);
}

/*
 * failslab through the slab allocator: with failslab_cache= naming a
 * cache of the test's own, every 3rd kmem_cache_alloc() of it returns
 * NULL (its fast path too: the objects are there), kmalloc is untouched,
 * and switched off the cache serves every call again.
 */
static void bad_failslab_kmem_cache(struct ktest *t)
{
	static void *objs[30];
	struct kmem_cache *c = kmem_cache_create("pd-failslab", 96, 0, 0, NULL);
	unsigned long wrong = 0, nulls = 0;
	void *p;

	KTEST_ASSERT_NOT_NULL(t, c);
	p = kmem_cache_alloc(c, GFP_KERNEL);	/* fill the per-CPU array */
	KTEST_ASSERT_NOT_NULL(t, p);
	kmem_cache_free(c, p);
	failslab_set_cache("pd-failslab");
	KTEST_ASSERT_EQ(t, fault_attr_set(&failslab, "3,100,0,-1", 1), 0);
	for (int i = 0; i < 30; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL | (i & 1 ? __GFP_ZERO : 0));
		wrong += !objs[i] != ((i + 1) % 3 == 0);
		nulls += !objs[i];
		p = kmalloc(96, GFP_KERNEL);
		wrong += !p;
		kfree(p);
	}
	KTEST_EXPECT_EQ(t, wrong, 0UL);
	KTEST_EXPECT_EQ(t, nulls, 10UL);
	KTEST_EXPECT_EQ(t, failslab.failures, 10UL);
	KTEST_EXPECT_EQ(t, failslab.candidates, 30UL);
	fault_attr_disable(&failslab);
	failslab_set_cache(NULL);
	for (int i = 0; i < 30; i++) {
		if (!objs[i])
			objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_EXPECT_NOT_NULL(t, objs[i]);
	}
	for (int i = 0; i < 30; i++)
		kmem_cache_free(c, objs[i]);
	kmem_cache_destroy(c);
}

/* Malformed specs: -EINVAL, and the attribute exactly as it was. */
static void bad_fault_attr_specs(struct ktest *t)
{
	static const char *const bad[] = {
		"x", "1,101", "1,50,0,-2", "0,50", "1,2,3,4,5", "1,,3", "-1,50",
		"1,50,-5", ",", "1,50,0,99999999999", "1 ,50", "1,50,0,1x",
		"18446744073709551616", "1,50,9223372036854775808", "1,50,0,",
		"00000000000000000000000000000000000000000000000000000000000000001",
	};
	struct fault_attr *const attrs[] = { &fail_page_alloc, &failslab };
	unsigned long changed = 0, accepted = 0;

	failslab_set_cache("pd-none");
	for (unsigned int a = 0; a < ARRAY_SIZE(attrs); a++) {
		struct fault_attr before;

		KTEST_ASSERT_EQ(t, fault_attr_set(attrs[a], "3,50,100,7", 9), 0);
		before = *attrs[a];
		for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
			int err = fault_attr_set(attrs[a], bad[i], 1);

			accepted += err != -EINVAL;
			changed += memcmp(attrs[a], &before, sizeof(before)) != 0;
			if (err != -EINVAL)
				ktest_info(t, "\"%s\" gave %d", bad[i], err);
		}
	}
	KTEST_EXPECT_EQ(t, accepted, 0UL);
	KTEST_EXPECT_EQ(t, changed, 0UL);
	/* Through the command line: one warning each, nothing changed. */
	ktest_capture_start(t, "Malformed kernel command line parameter \"fail_page_alloc=");
	KTEST_EXPECT_EQ(t, set_params("fail_page_alloc=1,200 fail_page_alloc=x fail_page_alloc=0"), 3);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 3U);
	KTEST_EXPECT_EQ(t, fail_page_alloc.interval, 3UL);
	KTEST_EXPECT_EQ(t, fail_page_alloc.times, 7L);
	injection_off();
}

struct bad_input {
	const char *name;
	void (*run)(struct ktest *t);
};

static const struct bad_input bad_inputs[] = {
	{ "use after free caught by page_poison", bad_use_after_free },
	{ "page_poison: last byte corrupted", bad_poison_last_byte },
	{ "page_poison: page inside a block corrupted", bad_poison_inside_block },
	{ "page_poison: corruption found by page_alloc_check", bad_poison_found_by_check },
	{ "double free with page_poison, per-CPU list", bad_double_free_poisoned_pcp },
	{ "double free with page_poison, buddy list", bad_double_free_poisoned_buddy },
	{ "debug_pagealloc: freed page not present", bad_access_free_page },
	{ "fail_page_alloc every 4th", bad_fail_every_4th },
	{ "fail_page_alloc 1%", bad_fail_one_percent },
	{ "fail_page_alloc_order filter", bad_fail_by_order },
	{ "fail_page_alloc times and space", bad_fail_times_space },
	{ "failslab_cache filter", bad_failslab_cache_filter },
	{ "failslab through kmem_cache_alloc", bad_failslab_kmem_cache },
	{ "bad fault_attr specs", bad_fault_attr_specs },
};

static void bad_input_desc(const struct bad_input *b, char *desc)
{
	strscpy(desc, b->name, KTEST_DESC_SIZE);
}

KTEST_ARRAY_PARAM(bad_input_gen, bad_inputs, bad_input_desc);

/*
 * Each bad input gets its one exact report (or its exact NULLs) and
 * leaves an allocator that passes page_alloc_check() and a stress.
 */
static void test_bad_input(struct ktest *t)
{
	const struct bad_input *b = t->param_value;

	b->run(t);
	injection_off();
	expect_page_alloc_sane(t, SANE_OPS);
}

/* --- suite ---------------------------------------------------------------- */

static int page_debug_init(struct ktest *t)
{
	boot_poison = page_poisoning_enabled();
	return 0;
}

static void page_debug_exit(struct ktest *t)
{
	injection_off();
	page_poisoning_set(boot_poison);
}

static const struct ktest_case page_debug_cases[] = {
	KTEST_CASE(test_poison_fill_and_check),
	KTEST_CASE(test_poison_switch_on),
	KTEST_CASE(test_poison_off_costs_nothing),
	KTEST_CASE(test_debug_pagealloc_off),
	KTEST_CASE(test_debug_pagealloc_unmaps),
	KTEST_CASE(test_page_alloc_check_detects),
	KTEST_CASE(test_should_fail_steps),
	KTEST_CASE(test_fault_params),
	KTEST_CASE(test_fault_verbose),
	KTEST_CASE(test_fault_inject_stress),
	KTEST_CASE_PARAM(test_bad_input, bad_input_gen),
	{}
};
KTEST_SUITE(page_debug, page_debug_cases, .init = page_debug_init,
	    .exit = page_debug_exit);

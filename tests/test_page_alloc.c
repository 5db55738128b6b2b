// SPDX-License-Identifier: GPL-2.0
/*
 * The buddy page allocator (mm/page_alloc.c), through its API (mm/gfp.h)
 * and the zone and page state it documents:
 *
 *  - the free lists as boot and every later case leave them: each entry a
 *    naturally aligned free block, fully merged, the counters agreeing
 *    (nr_free, free_pages, nr_free_pages, totalram_pages, watermarks);
 *  - splitting and merging exactly: all of a zone taken one page at a
 *    time and given back in a random order restores every free list;
 *  - every order 0..MAX_ORDER-1 (alignment, the split it causes), and
 *    MAX_ORDER and above refused;
 *  - exhaustion of one zone and of all memory, the failure report, and
 *    full recovery;
 *  - __GFP_ZERO, zone modifiers and the fallback order, watermarks with
 *    GFP_ATOMIC and __GFP_MEMALLOC (PG_pfmemalloc);
 *  - compound pages, alloc_pages_exact, the per-CPU lists;
 *  - a random stress of a million operations with pattern-filled blocks;
 *  - every kind of bad free: the exact report, the state left alone, and
 *    afterwards page_alloc_check() clean, a short stress with contents
 *    checked succeeding, and the free lists exactly as before.
 *
 * Cases that must compare free lists drain the per-CPU lists first: with
 * every possible merge done, the free lists are a function of the set of
 * free pages alone, so "everything given back" means "the same counts".
 */
#include "arch/arch.h"
#include "kernel/bug.h"
#include "kernel/irq.h"
#include "kernel/params.h"
#include "lib/ktest/ktest.h"
#include "kernel/spinlock.h"
#include "lib/bitops.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/internal.h"	/* white-box: zones, free lists, per-CPU lists */
#include "mm/mm.h"
#include "mm/page_debug.h"
#include "tests/mm_util.h"

#define SANE_OPS	2000

/* --- helpers ------------------------------------------------------------- */

static struct zone *zone_of(enum zone_type z)
{
	return &NODE_DATA(0)->node_zones[z];
}

static struct per_cpu_pages *my_pcp(struct zone *zone)
{
	return &zone->pcp[arch_cpu_id()];
}

/* The highest zone that has memory: where GFP_KERNEL goes first. */
static enum zone_type top_zone(void)
{
	int z = MAX_NR_ZONES - 1;

	while (z > 0 && !zone_of(z)->managed_pages)
		z--;
	return z;
}

/* xorshift64: a fixed seed makes every run the same. */
struct prng {
	u64 state;
};

static u64 prng_next(struct prng *r)
{
	u64 x = r->state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	r->state = x;
	return x;
}

static unsigned long prng_below(struct prng *r, unsigned long n)
{
	return (unsigned long)(prng_next(r) % n);
}

/* Free block counts of every zone and order, after a drain. */
struct free_counts {
	unsigned long nr_free[MAX_NR_ZONES][MAX_ORDER];
	unsigned long free_pages[MAX_NR_ZONES];
};

static void snapshot_free(struct free_counts *s)
{
	drain_all_pages();
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		const struct zone *zone = zone_of(z);

		for (int o = 0; o < MAX_ORDER; o++)
			s->nr_free[z][o] = zone->free_area[o].nr_free;
		s->free_pages[z] = zone->free_pages;
	}
}

/* Pages in the free blocks of zone z, from the block counts. */
static unsigned long counted_pages(const struct free_counts *s, int z)
{
	unsigned long pages = 0;

	for (int o = 0; o < MAX_ORDER; o++)
		pages += s->nr_free[z][o] << o;
	return pages;
}

/* Drain, then every free list must have exactly the length in want. */
static bool expect_counts(struct ktest *t, const struct free_counts *want)
{
	struct free_counts now;
	unsigned int wrong = 0;

	snapshot_free(&now);
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		for (int o = 0; o < MAX_ORDER; o++) {
			if (now.nr_free[z][o] == want->nr_free[z][o])
				continue;
			if (wrong++ < 6)
				KTEST_FAIL(t, "zone %s order %d: %lu free blocks, expected %lu",
					   zone_of(z)->name, o,
					   now.nr_free[z][o], want->nr_free[z][o]);
		}
		if (now.free_pages[z] != want->free_pages[z] && wrong++ < 6)
			KTEST_FAIL(t, "zone %s: %lu free pages, expected %lu",
				   zone_of(z)->name, now.free_pages[z],
				   want->free_pages[z]);
	}
	KTEST_EXPECT_EQ(t, nr_pcp_pages(), 0UL);
	return !wrong;
}

/*
 * Walk every free list of zone. Each entry must be the first page of a
 * free block of the list's order: PG_buddy, private == order, naturally
 * aligned, inside its zone and RAM, the other pages with refcount 0 and
 * no flags, and its buddy not a free block of the same order (all merges
 * done). Returns the problems; *pages gets the pages found, blocks[] the
 * entries per list.
 */
static unsigned long check_zone_free_lists(struct zone *zone,
					   unsigned long *pages,
					   unsigned long blocks[MAX_ORDER])
{
	enum zone_type z = zone_idx(zone);
	unsigned long problems = 0, flags;

	*pages = 0;
	spin_lock_irqsave(&zone->lock, flags);
	for (unsigned int o = 0; o < MAX_ORDER; o++) {
		struct page *page;

		blocks[o] = 0;
		list_for_each_entry(page, &zone->free_area[o].free_list, lru) {
			unsigned long pfn = page_to_pfn(page);
			unsigned long n = 1UL << o;
			unsigned long buddy = pfn ^ n;

			blocks[o]++;
			*pages += n;
			problems += !PageBuddy(page) || page->private != o ||
				    !IS_ALIGNED(pfn, n) ||
				    page_zonenum(page) != z ||
				    page_to_nid(page) != zone_to_nid(zone) ||
				    expected_zone(pfn + n - 1) != z ||
				    !zone_spans_pfn(zone, pfn + n - 1);
			for (unsigned long i = 1; i < n; i++) {
				const struct page *p = page + i;

				problems += !pfn_valid(pfn + i) ||
					    (p->flags & PAGE_FLAGS_MASK) ||
					    page_ref_count(p) != 0;
			}
			if (o < MAX_ORDER - 1 && zone_spans_pfn(zone, buddy) &&
			    pfn_valid(buddy) && PageBuddy(pfn_to_page(buddy)) &&
			    pfn_to_page(buddy)->private == o)
				problems++;	/* two free buddies unmerged */
		}
	}
	spin_unlock_irqrestore(&zone->lock, flags);
	return problems;
}

/* The same for every zone of every node. */
static unsigned long check_free_lists(void)
{
	unsigned long problems = 0, pages, blocks[MAX_ORDER];
	struct zone *zone;

	for_each_zone(zone)
		problems += check_zone_free_lists(zone, &pages, blocks);
	return problems;
}

/*
 * A list of allocated blocks threaded through the blocks themselves, so
 * that a case can hold all of memory without a table of its own.
 */
struct held {
	struct held *next;
	unsigned long pfn;	/* checked on free: the memory kept it */
	unsigned int order;
};

struct chain {
	struct held *first;
	unsigned long blocks, pages;
};

static void chain_add(struct chain *c, struct page *page, unsigned int order)
{
	struct held *h = page_address(page);

	h->next = c->first;
	h->pfn = page_to_pfn(page);
	h->order = order;
	c->first = h;
	c->blocks++;
	c->pages += 1UL << order;
}

static void chain_free(struct ktest *t, struct chain *c)
{
	unsigned long corrupt = 0;
	struct held *h;

	while ((h = c->first)) {
		c->first = h->next;
		corrupt += h->pfn != virt_to_pfn(h);
		__free_pages(virt_to_page(h), h->order);
	}
	c->blocks = c->pages = 0;
	KTEST_EXPECT_EQ(t, corrupt, 0UL);
}

#define ANY_ZONE	MAX_NR_ZONES

/*
 * Allocate with gfp until nothing comes, largest orders first so that
 * even all of memory takes few calls. With a zone z, a block from another
 * zone goes back at once and ends that order (*foreign counts them).
 * Returns the pages taken.
 */
static unsigned long fill(struct chain *c, gfp_t gfp, int z,
			  unsigned long *foreign)
{
	unsigned long pages = 0;

	for (int order = MAX_ORDER - 1; order >= 0; order--) {
		struct page *page;

		while ((page = alloc_pages(gfp | __GFP_NOWARN, order))) {
			if (z != ANY_ZONE && page_zonenum(page) != (enum zone_type)z) {
				__free_pages(page, order);
				if (foreign)
					(*foreign)++;
				break;
			}
			chain_add(c, page, order);
			pages += 1UL << order;
		}
	}
	return pages;
}

/* An order-2 block still comes and goes (after a bad free, a fill...). */
static void expect_allocator_works(struct ktest *t)
{
	struct page *page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 2);

	KTEST_EXPECT_NOT_NULL(t, page);
	if (!page)
		return;
	KTEST_EXPECT_EQ(t, page_ref_count(page), 1);
	KTEST_EXPECT_TRUE(t, IS_ALIGNED(page_to_pfn(page), 4));
	memset(page_address(page), 0x5a, 4 * PAGE_SIZE);
	__free_pages(page, 2);
}

/* --- counters ------------------------------------------------------------ */

/* Integer square root by bisection (not the allocator's algorithm). */
static unsigned long isqrt(unsigned long x)
{
	unsigned long lo = 0, hi = 1UL << 32;

	while (lo < hi) {
		unsigned long mid = (lo + hi + 1) / 2;

		if (mid * mid <= x)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/*
 * The counters agree with the lists: per zone of every node, the blocks
 * found walking the lists match nr_free, weighted by 2^order they make
 * free_pages, the sum over zones is nr_free_pages(); managed pages sum
 * to totalram_pages and are the zone's RAM pages that are not
 * PG_reserved.
 */
static void test_counters(struct ktest *t)
{
	unsigned long sum = 0, weighted = 0, managed = 0, problems = 0;
	struct zone *zone;

	for_each_zone(zone) {
		unsigned long blocks[MAX_ORDER], pages;
		unsigned long zone_weighted = 0, unreserved = 0;

		problems += check_zone_free_lists(zone, &pages, blocks);
		for (int o = 0; o < MAX_ORDER; o++) {
			KTEST_EXPECT_EQ(t, blocks[o], zone->free_area[o].nr_free);
			zone_weighted += zone->free_area[o].nr_free << o;
		}
		KTEST_EXPECT_EQ(t, zone_weighted, zone->free_pages);
		KTEST_EXPECT_EQ(t, pages, zone->free_pages);
		for (unsigned long pfn = zone->zone_start_pfn;
		     pfn < zone_end_pfn(zone); pfn++)
			unreserved += pfn_valid(pfn) &&
				      !PageReserved(pfn_to_page(pfn));
		/* a deferred page is all zero, not reserved either */
		KTEST_EXPECT_EQ(t, unreserved, zone->managed_pages +
					       zone_deferred_pages(zone));
		weighted += zone_weighted;
		sum += zone->free_pages;
		managed += zone->managed_pages;
	}
	KTEST_EXPECT_EQ(t, problems, 0UL);
	KTEST_EXPECT_EQ(t, page_alloc_check(), 0);
	KTEST_EXPECT_EQ(t, weighted, nr_free_pages());
	KTEST_EXPECT_EQ(t, sum, nr_free_pages());
	KTEST_EXPECT_EQ(t, managed, totalram_pages);
	KTEST_EXPECT_LE(t, nr_free_pages() + nr_pcp_pages(), totalram_pages);
	KTEST_EXPECT_GT(t, nr_free_pages(), totalram_pages / 2);
}

/*
 * Watermarks follow Linux's rule: min_free_kbytes = sqrt(16 * managed
 * KiB) clamped to [128, 65536], shared among zones by managed pages; low
 * and high are min plus a quarter and a half of it.
 */
static void test_watermark_values(struct ktest *t)
{
	unsigned long kbytes = clamp_val(isqrt(totalram_pages * 4 * 16),
					 128UL, 65536UL);
	unsigned long pages_min = kbytes / 4;
	struct zone *zone;

	for_each_zone(zone) {
		unsigned long min = pages_min * zone->managed_pages /
				    (totalram_pages ? totalram_pages : 1);

		KTEST_EXPECT_EQ(t, min_wmark_pages(zone), min);
		KTEST_EXPECT_EQ(t, low_wmark_pages(zone), min + min / 4);
		KTEST_EXPECT_EQ(t, high_wmark_pages(zone), min + min / 2);
	}
}

/* --- deferred struct page init -------------------------------------------- */

/* The zone that holds pfn, or NULL. */
static struct zone *zone_spanning(unsigned long pfn)
{
	struct zone *zone;

	for_each_zone(zone) {
		if (populated_zone(zone) && zone_spans_pfn(zone, pfn))
			return zone;
	}
	return NULL;
}

/*
 * Allocating past the initialised part of the node's last zone grows it
 * by one unit (a section, or what deferred_init= set): its struct pages
 * are initialised (right zone, node),
 * its free pages join the lists and the counters (managed, totalram) by
 * exactly what nr_deferred_pages() lost, the watermarks follow, and the
 * next block comes from the new unit. Given back, the lists check
 * clean.
 */
static void test_deferred_grow(struct ktest *t)
{
	const gfp_t gfp = GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY;
	struct pglist_data *pgdat = NODE_DATA(0);
	unsigned long first = READ_ONCE(pgdat->first_deferred_pfn);
	unsigned long deferred, total, managed, min, end, bad = 0;
	unsigned long bound = (totalram_pages >> (MAX_ORDER - 1)) + 2;
	struct chain c = { 0 };
	struct zone *zone;
	struct page *page;

	if (first == ULONG_MAX)
		ktest_skip(t, "nothing deferred (the last zone is under two units)");
	zone = zone_spanning(first);
	KTEST_ASSERT_NOT_NULL(t, zone);
	KTEST_EXPECT_TRUE(t, IS_ALIGNED(first, deferred_init_pages));
	KTEST_EXPECT_TRUE(t, !pfn_valid(first) || deferred_page(first) ||
			     PageReserved(pfn_to_page(first)));
	deferred = nr_deferred_pages();
	KTEST_ASSERT_GT(t, deferred, 0UL);
	total = totalram_pages;
	managed = zone->managed_pages;
	min = min_wmark_pages(zone);
	while (READ_ONCE(pgdat->first_deferred_pfn) == first && c.blocks < bound) {
		page = alloc_pages(gfp, MAX_ORDER - 1);
		if (!page)
			break;
		chain_add(&c, page, MAX_ORDER - 1);
	}
	end = READ_ONCE(pgdat->first_deferred_pfn);
	KTEST_EXPECT_TRUE(t, end == first + deferred_init_pages ||
			     (end == ULONG_MAX &&
			      zone_end_pfn(zone) <= first + deferred_init_pages));
	KTEST_EXPECT_EQ(t, totalram_pages - total, deferred - nr_deferred_pages());
	KTEST_EXPECT_EQ(t, zone->managed_pages - managed,
			deferred - nr_deferred_pages());
	KTEST_EXPECT_GE(t, min_wmark_pages(zone), min);
	/*
	 * The new unit's blocks are the newest on the lists: the block
	 * whose allocation grew the zone is one, or (if that one was an
	 * older block, the zone only short of its watermark) the next.
	 * A unit of one block (deferred_init=4M) has no next.
	 */
	KTEST_ASSERT_NOT_NULL(t, c.first);
	page = alloc_pages(gfp, MAX_ORDER - 1);
	KTEST_EXPECT_TRUE(t, c.first->pfn >= first ||
			     (page && page_to_pfn(page) >= first));
	if (page)
		chain_add(&c, page, MAX_ORDER - 1);
	for (unsigned long pfn = first; pfn < min(end, zone_end_pfn(zone)); pfn++) {
		if (!pfn_valid(pfn))
			continue;
		page = pfn_to_page(pfn);
		bad += page_zone(page) != zone || page_to_nid(page) != 0;
	}
	KTEST_EXPECT_EQ(t, bad, 0UL);
	chain_free(t, &c);
	KTEST_EXPECT_EQ(t, page_alloc_check(), 0);
	expect_allocator_works(t);
}

/* Run one command line word through every registered parameter. */
static int set_param(const char *word)
{
	char buf[64];

	strscpy(buf, word, sizeof(buf));
	return parse_args(buf, __start_kernel_params,
			  __stop_kernel_params - __start_kernel_params);
}

/*
 * deferred_init= takes a power of two from the largest buddy block to a
 * section; anything else is refused with a warning and changes nothing.
 * After boot only the unit in use can be given again (a new one would
 * break the alignment of first_deferred_pfn), so that is the one good
 * value tried.
 */
static void test_deferred_init_param(struct ktest *t)
{
	static const char *const bad[] = {
		"deferred_init", "deferred_init=", "deferred_init=0",
		"deferred_init=3M", "deferred_init=1M", "deferred_init=256M",
		"deferred_init=4Mx", "deferred_init=-4M", "deferred_init=abc",
	};
	unsigned long unit = deferred_init_pages;
	unsigned int taken = 0, changed = 0;
	char good[48];

	KTEST_EXPECT_TRUE(t, is_power_of_2(unit));
	KTEST_EXPECT_GE(t, unit, MAX_ORDER_NR_PAGES);
	KTEST_EXPECT_LE(t, unit, PAGES_PER_SECTION);

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		taken += set_param(bad[i]) != 1;	/* 1: one word refused */
		changed += deferred_init_pages != unit;
		deferred_init_pages = unit;
	}
	KTEST_EXPECT_EQ(t, taken, 0U);
	KTEST_EXPECT_EQ(t, changed, 0U);
	snprintf(good, sizeof(good), "deferred_init=%luK",
		 unit << (PAGE_SHIFT - 10));
	KTEST_EXPECT_EQ(t, set_param(good), 0);
	KTEST_EXPECT_EQ(t, deferred_init_pages, unit);
}

/*
 * Exhausting memory grows the zone to its end before it fails: then
 * nothing is deferred, every order fails cleanly, and everything given
 * back leaves the lists clean with the deferred pages added to the free.
 */
static void test_deferred_exhaust(struct ktest *t)
{
	unsigned long deferred = nr_deferred_pages(), before;
	struct chain c = { 0 };
	unsigned long pages;

	if (!deferred)
		ktest_skip(t, "nothing deferred");
	before = nr_free_pages() + nr_pcp_pages();
	pages = fill(&c, GFP_KERNEL | __GFP_MEMALLOC, ANY_ZONE, NULL);
	KTEST_EXPECT_EQ(t, READ_ONCE(NODE_DATA(0)->first_deferred_pfn), ULONG_MAX);
	KTEST_EXPECT_EQ(t, nr_deferred_pages(), 0UL);
	KTEST_EXPECT_EQ(t, nr_free_pages(), 0UL);
	KTEST_EXPECT_GE(t, pages, before + deferred - nr_pcp_pages());
	KTEST_EXPECT_NULL(t, alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0));
	KTEST_EXPECT_NULL(t, alloc_pages(GFP_KERNEL | __GFP_NOWARN, MAX_ORDER - 1));
	chain_free(t, &c);
	KTEST_EXPECT_EQ(t, page_alloc_check(), 0);
	KTEST_EXPECT_EQ(t, nr_free_pages() + nr_pcp_pages(), before + deferred);
	expect_allocator_works(t);
}

/* --- split and merge ----------------------------------------------------- */

static struct page *zone_pages[MAX_DMA_PFN];
static u64 zone_seen[MAX_DMA_PFN / BITS_PER_LONG];

/*
 * Every order-0 page of the DMA zone, with __GFP_MEMALLOC to get past the
 * min watermark: exactly the free pages the block counts promised, each
 * once and all in DMA. Given back in a pseudo-random order, the merges
 * rebuild every free list as it was.
 */
static void test_split_merge_exact(struct ktest *t)
{
	const gfp_t gfp = GFP_DMA | __GFP_NOWARN | __GFP_MEMALLOC;
	struct zone *dma = zone_of(ZONE_DMA);
	struct prng r = { 0x9e3779b97f4a7c15ULL };
	unsigned long n = 0, expected, wrong = 0, overflow = 0;
	struct free_counts before;
	struct page *page;
	u64 bit;

	snapshot_free(&before);
	expected = counted_pages(&before, ZONE_DMA);
	KTEST_ASSERT_GT(t, expected, 0UL);
	memset(zone_seen, 0, sizeof(zone_seen));
	while ((page = alloc_page(gfp))) {
		unsigned long pfn = page_to_pfn(page);

		if (n == ARRAY_SIZE(zone_pages)) {
			__free_page(page);
			overflow++;
			break;
		}
		zone_pages[n++] = page;
		if (pfn >= MAX_DMA_PFN || page_zonenum(page) != ZONE_DMA) {
			wrong++;
			continue;
		}
		bit = 1ULL << (pfn % BITS_PER_LONG);
		wrong += !!(zone_seen[pfn / BITS_PER_LONG] & bit);
		zone_seen[pfn / BITS_PER_LONG] |= bit;
	}
	KTEST_EXPECT_EQ(t, overflow, 0UL);
	KTEST_EXPECT_EQ(t, n, expected);
	KTEST_EXPECT_EQ(t, wrong, 0UL);
	KTEST_EXPECT_EQ(t, dma->free_pages, 0UL);
	KTEST_EXPECT_EQ(t, pcp_pages(my_pcp(dma)), 0UL);
	for (int o = 0; o < MAX_ORDER; o++)
		KTEST_EXPECT_EQ(t, dma->free_area[o].nr_free, 0UL);

	/* Fisher-Yates with the fixed seed, then give everything back. */
	for (unsigned long i = n - 1; n && i > 0; i--) {
		unsigned long j = prng_below(&r, i + 1);
		struct page *tmp = zone_pages[i];

		zone_pages[i] = zone_pages[j];
		zone_pages[j] = tmp;
	}
	for (unsigned long i = 0; i < n; i++)
		__free_page(zone_pages[i]);
	expect_counts(t, &before);
}

/* --- every order --------------------------------------------------------- */

/*
 * Orders 0..MAX_ORDER-1 from GFP_KERNEL: the block is naturally aligned in
 * pfn and in physical and (where the direct map base allows) virtual
 * address, comes from the highest zone, and was split from the smallest
 * free block large enough: that block's list loses one, each list from
 * order up to it gains the upper half left over. Freeing restores all.
 */
static void test_every_order(struct ktest *t)
{
	for (unsigned int order = 0; order < MAX_ORDER; order++) {
		struct free_counts before, after;
		unsigned long pfn, n = 1UL << order, bad = 0;
		unsigned int k;
		struct page *page;
		char *addr;
		int z;

		snapshot_free(&before);
		page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, order);
		KTEST_EXPECT_NOT_NULL(t, page);
		if (!page)
			continue;
		pfn = page_to_pfn(page);
		addr = page_address(page);
		z = page_zonenum(page);
		KTEST_EXPECT_TRUE(t, IS_ALIGNED(pfn, n));
		KTEST_EXPECT_EQ(t, __pa(addr), PFN_PHYS(pfn));
		KTEST_EXPECT_TRUE(t, IS_ALIGNED(__pa(addr), PAGE_SIZE << order));
		if (IS_ALIGNED(page_offset_base, PAGE_SIZE << order))
			KTEST_EXPECT_TRUE(t, IS_ALIGNED((unsigned long)addr,
							PAGE_SIZE << order));
		KTEST_EXPECT_EQ(t, z, (int)top_zone());
		KTEST_EXPECT_EQ(t, page_ref_count(page), 1);
		KTEST_EXPECT_FALSE(t, PageCompound(page));
		for (unsigned long i = 0; i < n; i++) {
			bad += !pfn_valid(pfn + i) ||
			       expected_zone(pfn + i) != (enum zone_type)z;
			*(unsigned long *)(addr + i * PAGE_SIZE) = pfn + i;
		}
		for (unsigned long i = 0; i < n; i++)
			bad += *(unsigned long *)(addr + i * PAGE_SIZE) != pfn + i;
		KTEST_EXPECT_EQ(t, bad, 0UL);

		/* The split, derived from the snapshot. */
		after = before;
		for (k = order; k < MAX_ORDER && !before.nr_free[z][k]; k++)
			;
		KTEST_EXPECT_LT(t, k, (unsigned int)MAX_ORDER);
		if (k < MAX_ORDER) {
			after.nr_free[z][k]--;
			for (unsigned int j = order; j < k; j++)
				after.nr_free[z][j]++;
			after.free_pages[z] -= n;
			expect_counts(t, &after);
		}
		__free_pages(page, order);
		expect_counts(t, &before);
	}
}

/*
 * MAX_ORDER and above: NULL, silently with __GFP_NOWARN (no failure
 * report, no WARNING), nothing taken.
 */
static void test_order_too_large(struct ktest *t)
{
	static const unsigned int orders[] = { MAX_ORDER, MAX_ORDER + 1, 20, 63 };
	unsigned long warns = warn_count, free = nr_free_pages();
	unsigned long pcp = nr_pcp_pages();
	unsigned int reports;

	ktest_capture_start(t, "page allocation failure");
	for (unsigned int i = 0; i < ARRAY_SIZE(orders); i++) {
		KTEST_EXPECT_NULL(t, alloc_pages(GFP_KERNEL | __GFP_NOWARN, orders[i]));
		KTEST_EXPECT_NULL(t, alloc_pages(GFP_DMA | __GFP_NOWARN |
						 __GFP_MEMALLOC, orders[i]));
		KTEST_EXPECT_EQ(t, __get_free_pages(GFP_KERNEL | __GFP_NOWARN,
						    orders[i]), 0UL);
	}
	reports = ktest_capture_stop(t);
	KTEST_EXPECT_EQ(t, reports, 0U);
	KTEST_EXPECT_EQ(t, warn_count, warns);

	/* Without it: still NULL, and at most one WARNING per boot. */
	ktest_capture_start(t, "WARNING: CPU:");
	KTEST_EXPECT_NULL(t, alloc_pages(GFP_KERNEL, MAX_ORDER));
	KTEST_EXPECT_NULL(t, alloc_pages(GFP_KERNEL, MAX_ORDER + 5));
	KTEST_EXPECT_LE(t, ktest_capture_stop(t), 1U);
	if (warn_count != warns)
		KTEST_EXPECT_CAPTURED(t, " at mm/page_alloc.c");
	KTEST_EXPECT_LE(t, warn_count - warns, 1UL);
	KTEST_EXPECT_EQ(t, nr_free_pages(), free);
	KTEST_EXPECT_EQ(t, nr_pcp_pages(), pcp);
}

/* --- exhaustion ---------------------------------------------------------- */

/*
 * All of DMA (with __GFP_MEMALLOC nothing is held back): the pages taken
 * are exactly the zone's free pages, then every order fails, for every
 * kind of request, without touching the other zones. Everything given
 * back, the lists are as before.
 */
static void test_exhaust_zone(struct ktest *t)
{
	struct zone *dma = zone_of(ZONE_DMA);
	struct chain c = { 0 };
	struct free_counts before, full;
	unsigned long pages, foreign = 0, got = 0;

	snapshot_free(&before);
	pages = fill(&c, GFP_DMA | __GFP_MEMALLOC, ZONE_DMA, &foreign);
	KTEST_EXPECT_EQ(t, pages, counted_pages(&before, ZONE_DMA));
	KTEST_EXPECT_EQ(t, foreign, 0UL);
	KTEST_EXPECT_EQ(t, dma->free_pages, 0UL);
	KTEST_EXPECT_EQ(t, pcp_pages(my_pcp(dma)), 0UL);
	for (unsigned int order = 0; order < MAX_ORDER; order++) {
		got += !!alloc_pages(GFP_DMA | __GFP_NOWARN, order);
		got += !!alloc_pages(GFP_DMA | GFP_ATOMIC | __GFP_NOWARN, order);
		got += !!alloc_pages(GFP_DMA | __GFP_MEMALLOC | __GFP_NOWARN, order);
	}
	KTEST_EXPECT_EQ(t, got, 0UL);	/* (a page got here leaks: the case fails) */
	/* The other zones did not give a page. */
	snapshot_free(&full);
	for (int z = ZONE_DMA32; z < MAX_NR_ZONES; z++)
		KTEST_EXPECT_EQ(t, full.free_pages[z], before.free_pages[z]);
	chain_free(t, &c);
	expect_counts(t, &before);
	expect_allocator_works(t);
	expect_counts(t, &before);
}

/*
 * All of memory: every free page of every zone is handed out exactly once
 * (the chain counts them), then every order fails without a panic; a
 * failure without __GFP_NOWARN prints one report with a line per zone
 * showing it empty. Everything given back, the lists are as before.
 */
static void test_exhaust_all_memory(struct ktest *t)
{
	struct chain c = { 0 };
	struct free_counts before;
	unsigned long pages, free, got = 0, zones = 0;
	unsigned int reports;
	struct page *page;
	struct zone *zone;

	deferred_init_all();	/* every page is on the lists to count */
	snapshot_free(&before);
	free = nr_free_pages();	/* every node's, as drained */
	pages = fill(&c, GFP_KERNEL | __GFP_MEMALLOC, ANY_ZONE, NULL);
	KTEST_EXPECT_EQ(t, pages, free);
	KTEST_EXPECT_EQ(t, c.pages, pages);
	KTEST_EXPECT_EQ(t, nr_free_pages(), 0UL);
	KTEST_EXPECT_EQ(t, nr_pcp_pages(), 0UL);
	for (unsigned int order = 0; order < MAX_ORDER; order++) {
		got += !!alloc_pages(GFP_KERNEL | __GFP_NOWARN | __GFP_MEMALLOC, order);
		got += !!alloc_pages(GFP_ATOMIC | __GFP_NOWARN, order);
		got += !!alloc_pages(GFP_DMA32 | __GFP_NOWARN, order);
	}
	got += !!get_zeroed_page(GFP_KERNEL | __GFP_NOWARN);
	got += !!alloc_pages_exact(3 * PAGE_SIZE, GFP_KERNEL | __GFP_NOWARN);
	KTEST_EXPECT_EQ(t, got, 0UL);

	/* Without __GFP_NOWARN: one report ... */
	ktest_capture_start(t, "page allocation failure");
	page = alloc_page(GFP_KERNEL);
	reports = ktest_capture_stop(t);
	KTEST_EXPECT_NULL(t, page);
	KTEST_EXPECT_EQ(t, reports, 1U);
	/* ... whose zone lines show every zone empty. */
	for_each_zone(zone)
		zones += !!zone->managed_pages;
	ktest_capture_start(t, " free:0kB min:");
	page = alloc_pages(GFP_DMA, 3);
	reports = ktest_capture_stop(t);
	KTEST_EXPECT_NULL(t, page);
	KTEST_EXPECT_EQ(t, (unsigned long)reports, zones);

	chain_free(t, &c);
	expect_counts(t, &before);
	expect_allocator_works(t);
	expect_counts(t, &before);
}

/* --- __GFP_ZERO ---------------------------------------------------------- */

/*
 * A page dirtied with 0xAA and freed comes straight back from the per-CPU
 * list (hot page) and __GFP_ZERO clears it; the same for an order-3 block
 * and get_zeroed_page().
 */
static void test_gfp_zero(struct ktest *t)
{
	struct free_counts before;
	struct page *page, *again;
	unsigned long addr, zaddr;

	snapshot_free(&before);
	page = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, page);
	memset(page_address(page), 0xaa, PAGE_SIZE);
	__free_page(page);
	again = alloc_page(GFP_KERNEL | __GFP_ZERO);
	KTEST_ASSERT_NOT_NULL(t, again);
	KTEST_EXPECT_PTR_EQ(t, again, page);
	KTEST_EXPECT_NULL(t, memchr_inv(page_address(again), 0, PAGE_SIZE));
	__free_page(again);

	page = alloc_pages(GFP_KERNEL, 3);
	KTEST_ASSERT_NOT_NULL(t, page);
	memset(page_address(page), 0xaa, 8 * PAGE_SIZE);
	__free_pages(page, 3);
	again = alloc_pages(GFP_KERNEL | __GFP_ZERO, 3);
	KTEST_ASSERT_NOT_NULL(t, again);
	if (again != page)
		ktest_info(t, "order 3: a different block came back");
	KTEST_EXPECT_NULL(t, memchr_inv(page_address(again), 0, 8 * PAGE_SIZE));
	__free_pages(again, 3);

	addr = __get_free_page(GFP_KERNEL);
	KTEST_ASSERT_NE(t, addr, 0UL);
	memset((void *)addr, 0xaa, PAGE_SIZE);
	free_page(addr);
	zaddr = get_zeroed_page(GFP_KERNEL);
	KTEST_ASSERT_NE(t, zaddr, 0UL);
	KTEST_EXPECT_EQ(t, zaddr, addr);
	KTEST_EXPECT_NULL(t, memchr_inv((void *)zaddr, 0, PAGE_SIZE));
	free_page(zaddr);

	page = alloc_page(GFP_DMA);
	KTEST_ASSERT_NOT_NULL(t, page);
	memset(page_address(page), 0xaa, PAGE_SIZE);
	__free_page(page);
	again = alloc_page(GFP_DMA | __GFP_ZERO);
	KTEST_ASSERT_NOT_NULL(t, again);
	KTEST_EXPECT_PTR_EQ(t, again, page);
	KTEST_EXPECT_NULL(t, memchr_inv(page_address(again), 0, PAGE_SIZE));
	__free_page(again);
	expect_counts(t, &before);
}

/* --- zones --------------------------------------------------------------- */

/*
 * GFP_DMA blocks lie wholly below 16 MiB in ZONE_DMA, GFP_DMA32 blocks
 * below 4 GiB, GFP_KERNEL blocks anywhere (with memory plentiful: the
 * highest zone); each page's zone is the one its pfn says.
 */
static void test_zone_modifiers(struct ktest *t)
{
	static const gfp_t gfps[] = { GFP_DMA, GFP_DMA32, GFP_KERNEL };
	unsigned long bad_dma = 0, bad_dma32 = 0, bad_kernel = 0, bad_zone = 0;
	struct free_counts before;
	struct chain c = { 0 };

	snapshot_free(&before);
	for (unsigned int i = 0; i < 3 * 64; i++) {
		gfp_t gfp = gfps[i % 3];
		unsigned int order = (i / 3) % 4;
		struct page *page = alloc_pages(gfp | __GFP_NOWARN, order);
		unsigned long pfn, end;

		KTEST_EXPECT_NOT_NULL(t, page);
		if (!page)
			break;
		pfn = page_to_pfn(page);
		end = pfn + (1UL << order);
		for (unsigned long p = pfn; p < end; p++)
			bad_zone += !pfn_valid(p) ||
				    page_zonenum(pfn_to_page(p)) != expected_zone(p);
		if (gfp == GFP_DMA)
			bad_dma += end > MAX_DMA_PFN ||
				   page_zonenum(page) != ZONE_DMA;
		else if (gfp == GFP_DMA32)
			bad_dma32 += end > MAX_DMA32_PFN ||
				     page_zonenum(page) > ZONE_DMA32 ||
				     (int)page_zonenum(page) !=
					min_t(int, top_zone(), ZONE_DMA32);
		else
			bad_kernel += page_zonenum(page) != top_zone();
		chain_add(&c, page, order);
	}
	KTEST_EXPECT_EQ(t, bad_dma, 0UL);
	KTEST_EXPECT_EQ(t, bad_dma32, 0UL);
	KTEST_EXPECT_EQ(t, bad_kernel, 0UL);
	KTEST_EXPECT_EQ(t, bad_zone, 0UL);
	chain_free(t, &c);
	expect_counts(t, &before);
}

/*
 * Fallback goes down, never up. With the highest zone driven to its
 * watermark, GFP_KERNEL (and GFP_DMA32) are served by the zone below;
 * with DMA empty, GFP_DMA fails however much DMA32 has.
 */
static void test_zone_fallback(struct ktest *t)
{
	enum zone_type top = top_zone(), lower;
	struct free_counts before;
	struct chain c = { 0 };
	unsigned long foreign = 0, pages;
	struct page *page;

	if (top == ZONE_DMA)
		ktest_skip(t, "only the DMA zone has memory");
	lower = top - 1;
	while (lower > ZONE_DMA && !zone_of(lower)->managed_pages)
		lower--;

	snapshot_free(&before);
	pages = fill(&c, top == ZONE_DMA32 ? GFP_DMA32 : GFP_KERNEL, top, &foreign);
	KTEST_EXPECT_GT(t, pages, 0UL);
	KTEST_EXPECT_GT(t, foreign, 0UL);	/* it did fall back, and we stopped */
	KTEST_EXPECT_LE(t, zone_of(top)->free_pages, min_wmark_pages(zone_of(top)));
	page = alloc_page(GFP_KERNEL | __GFP_NOWARN);
	KTEST_EXPECT_NOT_NULL(t, page);
	if (page) {
		KTEST_EXPECT_EQ(t, page_zonenum(page), lower);
		__free_page(page);
	}
	page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 3);
	KTEST_EXPECT_NOT_NULL(t, page);
	if (page) {
		KTEST_EXPECT_EQ(t, page_zonenum(page), lower);
		__free_pages(page, 3);
	}
	if (top == ZONE_DMA32) {
		page = alloc_page(GFP_DMA32 | __GFP_NOWARN);
		KTEST_EXPECT_NOT_NULL(t, page);
		if (page) {
			KTEST_EXPECT_EQ(t, page_zonenum(page), ZONE_DMA);
			__free_page(page);
		}
	}
	chain_free(t, &c);
	expect_counts(t, &before);

	/* DMA empty: GFP_DMA fails, DMA32 still serves its own. */
	foreign = 0;
	pages = fill(&c, GFP_DMA | __GFP_MEMALLOC, ZONE_DMA, &foreign);
	KTEST_EXPECT_EQ(t, pages, counted_pages(&before, ZONE_DMA));
	KTEST_EXPECT_EQ(t, foreign, 0UL);
	KTEST_EXPECT_GT(t, zone_of(ZONE_DMA32)->free_pages,
			min_wmark_pages(zone_of(ZONE_DMA32)));
	page = alloc_page(GFP_DMA | __GFP_NOWARN);
	KTEST_EXPECT_NULL(t, page);
	if (page)
		__free_page(page);
	page = alloc_pages(GFP_DMA | GFP_ATOMIC | __GFP_MEMALLOC | __GFP_NOWARN, 1);
	KTEST_EXPECT_NULL(t, page);
	if (page)
		__free_pages(page, 1);
	page = alloc_page(GFP_DMA32 | __GFP_NOWARN);
	KTEST_EXPECT_NOT_NULL(t, page);
	if (page) {
		KTEST_EXPECT_EQ(t, page_zonenum(page), ZONE_DMA32);
		__free_page(page);
	}
	chain_free(t, &c);
	expect_counts(t, &before);
}

/* --- watermarks ---------------------------------------------------------- */

/*
 * The rule mm/page_alloc.c documents, as a model: an order-0 allocation
 * succeeds while the zone's buddy lists hold more than mark pages; it is
 * served from this CPU's list, which, when empty, first takes up to batch
 * pages from the buddy lists. How many succeed from (free, pcp)?
 */
static unsigned long model_allocs(unsigned long free, unsigned long pcp,
				  unsigned long batch, unsigned long mark)
{
	unsigned long n = 0;

	while (free > mark) {
		if (!pcp) {
			unsigned long take = min(batch, free);

			free -= take;
			pcp += take;
		}
		pcp--;
		n++;
	}
	return n;
}

/*
 * DMA driven down in three steps: normal allocations stop at the min
 * watermark (so does __GFP_MEMALLOC|__GFP_NOMEMALLOC), GFP_ATOMIC then
 * gets half of min more, __GFP_MEMALLOC gets the rest, and only those
 * last pages are PG_pfmemalloc; freeing clears the flag, and
 * __GFP_MEMALLOC with memory above min takes no reserve page.
 */
static void test_watermarks_memalloc(struct ktest *t)
{
	struct zone *dma = zone_of(ZONE_DMA);
	struct per_cpu_pages *pcp = my_pcp(dma);
	unsigned long min = min_wmark_pages(dma), batch = pcp->lists[0]->batch;
	unsigned long n, expected, flagged;
	struct free_counts before;
	struct chain c = { 0 };
	struct page *page, *last = NULL;

	if (min < 2)
		ktest_skip(t, "DMA min watermark is %lu pages", min);
	snapshot_free(&before);
	KTEST_ASSERT_GT(t, dma->free_pages, min);

	/* Above min, __GFP_MEMALLOC is an ordinary allocation. */
	page = alloc_page(GFP_DMA | __GFP_MEMALLOC);
	KTEST_ASSERT_NOT_NULL(t, page);
	KTEST_EXPECT_FALSE(t, PagePfmemalloc(page));
	__free_page(page);
	drain_all_pages();

	/*
	 * 1. Normal allocations, order 3 then order 0, down to min: an
	 * order-3 block comes while 8 pages can go with more than min left.
	 */
	n = flagged = 0;
	while ((page = alloc_pages(GFP_DMA | __GFP_NOWARN, 3))) {
		n++;
		flagged += PagePfmemalloc(page);
		chain_add(&c, page, 3);
		if (dma->free_pages < min)
			break;
	}
	KTEST_EXPECT_GT(t, n, 0UL);
	KTEST_EXPECT_GE(t, dma->free_pages, min);
	if (dma->free_pages >= min + 8) {
		unsigned long blocks = 0;

		for (int o = 3; o < MAX_ORDER; o++)
			blocks += dma->free_area[o].nr_free;
		KTEST_EXPECT_EQ(t, blocks, 0UL);	/* failed for lack of one */
	}
	expected = model_allocs(dma->free_pages, 0, batch, min);
	n = 0;
	while ((page = alloc_page(GFP_DMA | __GFP_NOWARN))) {
		n++;
		flagged += PagePfmemalloc(page);
		chain_add(&c, page, 0);
	}
	KTEST_EXPECT_EQ(t, n, expected);
	KTEST_EXPECT_EQ(t, flagged, 0UL);
	KTEST_EXPECT_LE(t, dma->free_pages, min);
	if (batch == 1)
		KTEST_EXPECT_EQ(t, dma->free_pages, min);
	KTEST_EXPECT_NULL(t, alloc_page(GFP_DMA | __GFP_NOWARN));
	KTEST_EXPECT_NULL(t, alloc_page(GFP_DMA | __GFP_NOWARN |
					__GFP_MEMALLOC | __GFP_NOMEMALLOC));
	KTEST_EXPECT_NULL(t, alloc_pages(GFP_DMA | __GFP_NOWARN |
					 __GFP_MEMALLOC | __GFP_NOMEMALLOC, 2));

	/* 2. GFP_ATOMIC may go down to half of min. */
	expected = model_allocs(dma->free_pages, pcp->lists[0]->count, batch,
				 min - min / 2);
	n = flagged = 0;
	while ((page = alloc_page(GFP_DMA | GFP_ATOMIC | __GFP_NOWARN))) {
		n++;
		flagged += PagePfmemalloc(page);
		chain_add(&c, page, 0);
	}
	KTEST_EXPECT_EQ(t, n, expected);
	KTEST_EXPECT_GT(t, n, 0UL);
	if (batch == 1)
		KTEST_EXPECT_EQ(t, n, min / 2);
	KTEST_EXPECT_EQ(t, flagged, 0UL);
	KTEST_EXPECT_LE(t, dma->free_pages, min - min / 2);
	KTEST_EXPECT_NULL(t, alloc_page(GFP_DMA | GFP_ATOMIC | __GFP_NOWARN |
					__GFP_MEMALLOC | __GFP_NOMEMALLOC));

	/* 3. __GFP_MEMALLOC takes all that is left, every page flagged. */
	expected = dma->free_pages + pcp->lists[0]->count;
	KTEST_EXPECT_GT(t, expected, 0UL);
	n = flagged = 0;
	while ((page = alloc_page(GFP_DMA | __GFP_NOWARN | __GFP_MEMALLOC))) {
		n++;
		flagged += PagePfmemalloc(page);
		if (last)
			chain_add(&c, last, 0);
		last = page;
	}
	KTEST_EXPECT_EQ(t, n, expected);
	KTEST_EXPECT_EQ(t, flagged, n);
	KTEST_EXPECT_EQ(t, dma->free_pages, 0UL);
	KTEST_EXPECT_EQ(t, pcp->lists[0]->count, 0);
	if (last) {
		__free_page(last);
		KTEST_EXPECT_FALSE(t, PagePfmemalloc(last));
	}
	chain_free(t, &c);
	expect_counts(t, &before);

	/* Reallocated normally, no page carries the flag any more. */
	n = flagged = 0;
	while (n < 64 && (page = alloc_page(GFP_DMA | __GFP_NOWARN))) {
		n++;
		flagged += PagePfmemalloc(page);
		chain_add(&c, page, 0);
	}
	KTEST_EXPECT_EQ(t, flagged, 0UL);
	chain_free(t, &c);
	expect_counts(t, &before);
}

/* --- reports ------------------------------------------------------------- */

/* The reasons bad_page() gives, in full (mm/page_alloc.c). */
#define REFCOUNT_0	"refcount already 0: double free, or not the first page of its block"
#define ALREADY_FREE	"double free: page is already free"
#define WRONG_ORDER	"wrong order: not the order it was allocated with"
#define TAIL_PAGE	"freeing a tail page of a compound page"
#define NOT_A_PAGE	"not a struct page of RAM"
#define NOT_DIRECT_MAP	"free_pages() of an address that is not a page of the direct map"

/*
 * Expect exactly one "BUG: Bad page state: " report, of kind, between
 * begin and end, with the free page counts unchanged (a bad free is
 * ignored).
 */
struct report {
	enum report_kind kind;
	unsigned long free, pcp;
};

static void report_begin(struct ktest *t, struct report *r,
			 enum report_kind kind)
{
	r->kind = kind;
	r->free = nr_free_pages();
	r->pcp = nr_pcp_pages();
	ktest_capture_start(t, "BUG: Bad page state: ");
}

static void report_end(struct ktest *t, struct report *r)
{
	unsigned int hits = ktest_capture_stop(t);

	if (hits != 1)
		KTEST_FAIL(t, "%u \"BUG: Bad page state\" lines, expected 1", hits);
	KTEST_EXPECT_REPORTS(t, r->kind, 1);
	KTEST_EXPECT_EQ(t, nr_free_pages(), r->free);
	KTEST_EXPECT_EQ(t, nr_pcp_pages(), r->pcp);
}

/*
 * The sentence a person reads, after "BUG: Bad page state: ", in the
 * last report: one test per kind checks it, the others the kind.
 */
static void expect_sentence(struct ktest *t, const char *fmt, ...)
	__printf(2, 3);

static void expect_sentence(struct ktest *t, const char *fmt, ...)
{
	char sentence[192];
	va_list args;
	int len;

	len = scnprintf(sentence, sizeof(sentence), "BUG: Bad page state: ");
	va_start(args, fmt);
	vscnprintf(sentence + len, sizeof(sentence) - len, fmt, args);
	va_end(args);
	KTEST_EXPECT_CAPTURED(t, sentence);
}

/* --- compound pages ------------------------------------------------------ */

/*
 * An order-3 __GFP_COMP block: PG_head and compound_order 3 on the head,
 * every tail PageTail pointing to it. Freeing a tail, or the head with
 * the wrong order, is reported and changes nothing; the right free
 * clears the compound state of all eight pages.
 */
static void test_compound(struct ktest *t)
{
	struct free_counts before;
	struct page *head, copy[8];
	unsigned long pfn, bad = 0;
	struct report r;

	snapshot_free(&before);
	head = alloc_pages(GFP_KERNEL | __GFP_COMP, 3);
	KTEST_ASSERT_NOT_NULL(t, head);
	pfn = page_to_pfn(head);
	KTEST_EXPECT_TRUE(t, PageHead(head));
	KTEST_EXPECT_FALSE(t, PageTail(head));
	KTEST_EXPECT_TRUE(t, PageCompound(head));
	KTEST_EXPECT_EQ(t, compound_order(head), 3U);
	KTEST_EXPECT_PTR_EQ(t, compound_head(head), head);
	KTEST_EXPECT_EQ(t, page_ref_count(head), 1);
	for (int i = 1; i < 8; i++)
		bad += !PageTail(head + i) || PageHead(head + i) ||
		       !PageCompound(head + i) ||
		       compound_head(head + i) != head ||
		       compound_order(head + i) != 0;
	KTEST_EXPECT_EQ(t, bad, 0UL);
	memset(page_address(head), 0x3c, 8 * PAGE_SIZE);

	memcpy(copy, head, sizeof(copy));
	report_begin(t, &r, REPORT_BAD_PAGE_TAIL);
	__free_pages(head + 1, 0);
	report_end(t, &r);
	expect_sentence(t, "pfn:%#lx order:0: " TAIL_PAGE, pfn + 1);
	report_begin(t, &r, REPORT_BAD_PAGE_TAIL);
	__free_pages(head + 4, 3);
	report_end(t, &r);
	report_begin(t, &r, REPORT_BAD_PAGE_WRONG_ORDER);
	__free_pages(head, 2);
	report_end(t, &r);
	report_begin(t, &r, REPORT_BAD_PAGE_WRONG_ORDER);
	free_page((unsigned long)page_address(head));
	report_end(t, &r);
	KTEST_EXPECT_MEMEQ(t, head, copy, sizeof(copy));
	KTEST_EXPECT_NULL(t, memchr_inv(page_address(head), 0x3c, 8 * PAGE_SIZE));
	expect_allocator_works(t);
	expect_page_alloc_sane(t, SANE_OPS);

	__free_pages(head, 3);
	bad = PageHead(head);
	for (int i = 1; i < 8; i++)
		bad += PageTail(head + i) || compound_head(head + i) != head + i;
	KTEST_EXPECT_EQ(t, bad, 0UL);
	expect_counts(t, &before);

	/* Order 1 and order 10 too, and free_pages() of the head address. */
	for (unsigned int order = 1; order < MAX_ORDER; order += 9) {
		head = alloc_pages(GFP_KERNEL | __GFP_COMP | __GFP_NOWARN, order);
		KTEST_EXPECT_NOT_NULL(t, head);
		if (!head)
			continue;
		bad = !PageHead(head) || compound_order(head) != order;
		for (unsigned long i = 1; i < (1UL << order); i++)
			bad += compound_head(head + i) != head;
		KTEST_EXPECT_EQ(t, bad, 0UL);
		free_pages((unsigned long)page_address(head), order);
	}
	expect_counts(t, &before);
}

/* This CPU's fast-path allocations from the zone page belongs to. */
static unsigned long my_fast_hits(struct page *page)
{
	return pcp_fast_hits(&page_zone(page)->pcp[arch_cpu_id()]);
}

/*
 * __GFP_COMP of orders 1-3 comes from this CPU's lists on the fast path
 * (SLAB's multi-page slabs are such requests), compound as from the
 * slow one, and zeroed too with __GFP_ZERO. The first allocation of
 * each order may take the slow path (it fills the list); the block then
 * freed is on the list, and the second allocation pops it. Freeing the
 * compound block pushes it back (on the fast path where the block's
 * pages allow it), its tails clean.
 */
static void test_compound_fast_path(struct ktest *t)
{
	unsigned long irqflags;

	if (page_debug_active())
		ktest_skip(t, "page_poison or debug_pagealloc: no fast path");
	irqflags = arch_irq_save();	/* stay on this CPU's lists */
	for (unsigned int order = 1; order < NR_PCP_ORDERS; order++) {
		gfp_t gfp = GFP_KERNEL | __GFP_COMP | __GFP_ZERO;
		struct page *page = alloc_pages(GFP_KERNEL, order);
		unsigned long hits, bad = 0;
		struct pcp_list *l;
		unsigned int count;

		KTEST_ASSERT_NOT_NULL(t, page);
		memset(page_address(page), 0x5a, PAGE_SIZE << order);
		__free_pages(page, order);
		hits = my_fast_hits(page);
		page = alloc_pages(gfp, order);
		KTEST_ASSERT_NOT_NULL(t, page);
		KTEST_EXPECT_EQ(t, my_fast_hits(page), hits + 1);
		KTEST_EXPECT_TRUE(t, PageHead(page));
		KTEST_EXPECT_EQ(t, compound_order(page), order);
		for (unsigned long i = 1; i < (1UL << order); i++)
			bad += compound_head(page + i) != page;
		KTEST_EXPECT_EQ(t, bad, 0UL);
		KTEST_EXPECT_NULL(t, memchr_inv(page_address(page), 0,
						PAGE_SIZE << order));
		/*
		 * The free takes the fast path too: no slow path marks the
		 * list. Only in a 2 MiB chunk that is RAM through and
		 * through, the fast path's own condition (a boot with
		 * little memory may give a block in the last, partial one).
		 */
		l = my_pcp(page_zone(page))->lists[order];
		l->touched = false;
		count = l->count;
		__free_pages(page, order);
		if (pfn_in_ram_chunk(page_to_pfn(page)))
			KTEST_EXPECT_FALSE(t, l->touched);
		KTEST_EXPECT_EQ(t, l->count, count + 1);
		KTEST_EXPECT_PTR_EQ(t, l->pages[l->count - 1], page);
		KTEST_EXPECT_FALSE(t, PageHead(page));
		for (unsigned long i = 1; i < (1UL << order); i++)
			bad += PageTail(page + i) ||
			       (page[i].flags & PAGE_FLAGS_MASK) ||
			       page[i].mapping;
		KTEST_EXPECT_EQ(t, bad, 0UL);
	}
	arch_irq_restore(irqflags);
}

/* --- alloc_pages_exact --------------------------------------------------- */

/*
 * A size in whole pages, not a power of two: 5 pages + 1 byte takes 6
 * pages out of an aligned block of 8 and gives the last 2 back (they merge
 * into the free order-1 block at pfn + 6); 3 pages leave one free page at
 * pfn + 3. Each page is its own order-0 page; free_pages_exact gives back
 * all. Size 0 is NULL.
 */
static void test_alloc_pages_exact(struct ktest *t)
{
	static const struct {
		size_t size;
		unsigned long pages, block;
		unsigned long spare_pfn, spare_order;	/* free remainder */
	} cases[] = {
		{ 5 * PAGE_SIZE + 1, 6, 8, 6, 1 },
		{ 3 * PAGE_SIZE, 3, 4, 3, 0 },
		{ PAGE_SIZE, 1, 1, 0, 0 },
		{ 1, 1, 1, 0, 0 },
		{ 5 * PAGE_SIZE, 5, 8, 5, 0 },
	};
	struct free_counts before;
	unsigned long warns = warn_count;

	snapshot_free(&before);
	for (unsigned int c = 0; c < ARRAY_SIZE(cases); c++) {
		unsigned long free0 = nr_free_pages(), pfn, bad = 0;
		void *virt = alloc_pages_exact(cases[c].size,
					       GFP_KERNEL | __GFP_COMP | __GFP_ZERO);

		KTEST_EXPECT_NOT_NULL(t, virt);
		if (!virt)
			continue;
		drain_all_pages();
		KTEST_EXPECT_EQ(t, free0 - nr_free_pages(), cases[c].pages);
		pfn = virt_to_pfn(virt);
		KTEST_EXPECT_TRUE(t, IS_ALIGNED((unsigned long)__pa(virt), PAGE_SIZE));
		KTEST_EXPECT_TRUE(t, IS_ALIGNED(pfn, cases[c].block));
		for (unsigned long i = 0; i < cases[c].pages; i++) {
			struct page *p = pfn_to_page(pfn + i);

			bad += page_ref_count(p) != 1 || PageCompound(p) ||
			       memchr_inv(page_address(p), 0, PAGE_SIZE) != NULL;
			memset(page_address(p), (int)(0x11 * (i + 1)), PAGE_SIZE);
		}
		KTEST_EXPECT_EQ(t, bad, 0UL);
		if (cases[c].block > cases[c].pages) {
			struct page *spare = pfn_to_page(pfn + cases[c].spare_pfn);

			KTEST_EXPECT_TRUE(t, PageBuddy(spare));
			KTEST_EXPECT_EQ(t, spare->private, cases[c].spare_order);
		}
		for (unsigned long i = 0; i < cases[c].pages; i++)
			bad += memchr_inv(__va(PFN_PHYS(pfn + i)),
					  (int)(0x11 * (i + 1)), PAGE_SIZE) != NULL;
		KTEST_EXPECT_EQ(t, bad, 0UL);
		free_pages_exact(virt, cases[c].size);
		expect_counts(t, &before);
	}
	KTEST_EXPECT_EQ(t, warn_count, warns);	/* __GFP_COMP was dropped */
	KTEST_EXPECT_NULL(t, alloc_pages_exact(0, GFP_KERNEL));
	free_pages_exact(NULL, PAGE_SIZE);
	expect_counts(t, &before);
}

/* --- per-CPU lists ------------------------------------------------------- */

static struct page *pcp_blocks[1024];

/*
 * Is this CPU's list exactly blocks[last], blocks[last - 1], ... down to
 * blocks[last - count + 1], hottest first? Read with interrupts off:
 * only this CPU touches its lists.
 */
static bool pcp_list_is(struct pcp_list *l, unsigned long last, int count)
{
	unsigned long flags;
	bool same;

	local_irq_save(flags);
	same = l->count == (unsigned int)count;
	for (unsigned long j = 0; same && j < (unsigned long)count; j++)
		same = j <= last && l->pages[l->count - 1 - j] == pcp_blocks[last - j];
	local_irq_restore(flags);
	return same;
}

/*
 * The blocks on one list after a free, with the other lists empty: a
 * free that brings the pages to high moves at least batch pages, and
 * until fewer than high are left, coldest first.
 */
static int pcp_model_free(const struct per_cpu_pages *pcp, int count,
			  unsigned int order)
{
	int size = 1 << order, moved = 0;

	if (++count * size < pcp->high)
		return count;
	while (count && (moved < pcp->batch || count * size >= pcp->high)) {
		count--;
		moved += size;
	}
	return count;
}

/*
 * Freed blocks of each order up to PAGE_ALLOC_COSTLY_ORDER collect on
 * this CPU's list for their order, hottest first; the pages on all
 * lists never reach high: there the coldest blocks go to the buddy
 * lists (after every free the list is exactly the blocks freed last).
 * drain_all_pages() empties it.
 */
static void pcp_list_fill_drain(struct ktest *t, unsigned int order)
{
	struct zone *zone = zone_of(top_zone());
	struct per_cpu_pages *pcp = my_pcp(zone);
	struct pcp_list *l = pcp->lists[order];
	unsigned long n, free0, bad = 0, wrong = 0, size = 1UL << order;
	int count = 0, most = 0;

	KTEST_ASSERT_GT(t, pcp->high, pcp->batch);
	KTEST_ASSERT_GT(t, pcp->batch, 0);
	n = min(2UL * (pcp->high >> order) + 3,
		(unsigned long)ARRAY_SIZE(pcp_blocks));
	for (unsigned long i = 0; i < n; i++) {
		pcp_blocks[i] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, order);
		if (!pcp_blocks[i]) {
			n = i;
			break;
		}
		wrong += page_zone(pcp_blocks[i]) != zone ||
			 !IS_ALIGNED(page_to_pfn(pcp_blocks[i]), size);
	}
	KTEST_EXPECT_EQ(t, wrong, 0UL);
	KTEST_EXPECT_GT(t, n * size, (unsigned long)pcp->high);
	drain_all_pages();
	KTEST_EXPECT_EQ(t, nr_pcp_pages(), 0UL);
	free0 = zone->free_pages;
	for (unsigned long i = 0; i < n; i++) {
		__free_pages(pcp_blocks[i], order);
		count = pcp_model_free(pcp, count, order);
		bad += l->count != (unsigned int)count ||
		       zone->free_pages != free0 + (i + 1 - count) * size ||
		       pcp_pages(pcp) != count * size ||
		       !pcp_list_is(l, i, count);
		most = max_t(int, most, l->count);
	}
	KTEST_EXPECT_EQ(t, bad, 0UL);
	KTEST_EXPECT_EQ(t, most, (pcp->high - 1) >> order);
	KTEST_EXPECT_EQ(t, nr_pcp_pages(), count * size);
	drain_all_pages();
	KTEST_EXPECT_EQ(t, nr_pcp_pages(), 0UL);
	KTEST_EXPECT_EQ(t, zone->free_pages, free0 + n * size);
}

/* An allocation of an order with an empty list takes exactly batch. */
static void pcp_list_refill(struct ktest *t, unsigned int order)
{
	struct zone *zone = zone_of(top_zone());
	struct pcp_list *l = my_pcp(zone)->lists[order];
	unsigned long free0;
	struct page *page;

	drain_all_pages();
	free0 = zone->free_pages;
	page = alloc_pages(GFP_KERNEL, order);
	KTEST_ASSERT_NOT_NULL(t, page);
	KTEST_EXPECT_EQ(t, l->count, l->batch - 1);
	KTEST_EXPECT_EQ(t, zone->free_pages,
			free0 - ((unsigned long)l->batch << order));
	KTEST_EXPECT_EQ(t, nr_pcp_pages(),
			(unsigned long)(l->batch - 1) << order);
	__free_pages(page, order);
	KTEST_EXPECT_EQ(t, l->count, l->batch);
	drain_all_pages();
	KTEST_EXPECT_EQ(t, zone->free_pages, free0);
}

/*
 * One budget for all orders: with the order-0 list holding high - 1
 * pages, a freed order-3 block drains the order-0 list (the next order
 * round from 3), at least batch pages, and stays on its own list.
 */
static void pcp_lists_share_high(struct ktest *t)
{
	struct zone *zone = zone_of(top_zone());
	struct per_cpu_pages *pcp = my_pcp(zone);
	int small = pcp->high - 1, moved = max(pcp->batch, 8);
	unsigned long free0;
	struct page *big;
	int got = 0;

	KTEST_ASSERT_LE(t, small, (int)ARRAY_SIZE(pcp_blocks));
	for (int i = 0; i < small; i++)
		got += !!(pcp_blocks[i] = alloc_page(GFP_KERNEL | __GFP_NOWARN));
	big = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 3);
	KTEST_ASSERT_EQ(t, got, small);
	KTEST_ASSERT_NOT_NULL(t, big);
	drain_all_pages();
	free0 = zone->free_pages;
	for (int i = 0; i < small; i++)
		__free_page(pcp_blocks[i]);
	KTEST_EXPECT_EQ(t, pcp->lists[0]->count, (unsigned int)small);
	KTEST_EXPECT_EQ(t, pcp_pages(pcp), (unsigned long)small);
	__free_pages(big, 3);
	KTEST_EXPECT_EQ(t, pcp->lists[3]->count, 1U);
	KTEST_EXPECT_EQ(t, pcp->lists[0]->count, (unsigned int)(small - moved));
	KTEST_EXPECT_EQ(t, pcp_pages(pcp), (unsigned long)(small - moved + 8));
	KTEST_EXPECT_LT(t, pcp_pages(pcp), (unsigned long)pcp->high);
	KTEST_EXPECT_EQ(t, zone->free_pages, free0 + (unsigned long)moved);
	drain_all_pages();
	KTEST_EXPECT_EQ(t, zone->free_pages, free0 + (unsigned long)small + 8);
}

static void test_pcp_lists(struct ktest *t)
{
	struct free_counts before;
	struct page *a, *b, *x, *y;

	snapshot_free(&before);
	for (unsigned int order = 0; order < NR_PCP_ORDERS; order++) {
		pcp_list_fill_drain(t, order);
		pcp_list_refill(t, order);
	}
	pcp_lists_share_high(t);
	expect_counts(t, &before);

	/* LIFO: the hot page comes back first. */
	a = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, a);
	__free_page(a);
	b = alloc_page(GFP_KERNEL);
	KTEST_EXPECT_PTR_EQ(t, b, a);
	x = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, x);
	__free_page(x);
	__free_page(b);
	y = alloc_page(GFP_KERNEL);
	KTEST_EXPECT_PTR_EQ(t, y, b);
	b = alloc_page(GFP_KERNEL);
	KTEST_EXPECT_PTR_EQ(t, b, x);
	if (y)
		__free_page(y);
	if (b)
		__free_page(b);
	expect_counts(t, &before);
}

/*
 * cache_reap's pass over this CPU's lists (drain_local_pages_idle()): a
 * list used since the last pass by the fast paths alone (which mark
 * nothing: its count or fast_hits moved) stays; after a pass with no use
 * at all it goes back. Interrupts off: no real pass runs in between.
 */
static void test_pcp_idle_pass(struct ktest *t)
{
	struct per_cpu_pages *pcp;
	unsigned long flags, hits, pages;
	struct page *page;

	if (page_debug_active())
		ktest_skip(t, "page debugging on: no fast path");
	local_irq_save(flags);
	drain_local_pages();
	page = alloc_page(GFP_KERNEL);		/* a refill: the slow path */
	if (!page) {
		local_irq_restore(flags);
		KTEST_ASSERT_NOT_NULL(t, page);
	}
	pcp = my_pcp(page_zone(page));
	__free_page(page);
	drain_local_pages_idle();	/* used: kept, marked unused */
	pages = pcp_pages(pcp);
	hits = pcp_fast_hits(pcp);
	page = alloc_page(GFP_KERNEL);	/* the fast paths only */
	__free_page(page);
	KTEST_EXPECT_EQ(t, pcp_fast_hits(pcp), hits + 1);
	drain_local_pages_idle();
	KTEST_EXPECT_EQ(t, pcp_pages(pcp), pages);
	KTEST_EXPECT_GT(t, pages, 0UL);
	drain_local_pages_idle();	/* unused for a pass: back */
	KTEST_EXPECT_EQ(t, pcp_pages(pcp), 0UL);
	local_irq_restore(flags);
}

/* --- random stress ------------------------------------------------------- */

#define STRESS_OPS		1000000UL
#define STRESS_SLOTS		4096
#define STRESS_MAX_ORDER	4

struct stress_block {
	struct page *page;
	u8 order;
	u8 zone_limit;		/* the gfp's highest zone */
};

static struct stress_block stress_live[STRESS_SLOTS];

/* GFP_KERNEL half the time, GFP_DMA32 three eighths, GFP_DMA one eighth. */
static const gfp_t stress_gfp[8] = {
	GFP_KERNEL, GFP_KERNEL, GFP_KERNEL, GFP_KERNEL,
	GFP_DMA32, GFP_DMA32, GFP_DMA32, GFP_DMA,
};

static u64 stress_pattern(unsigned long pfn)
{
	return (pfn * 0x9e3779b97f4a7c15ULL) ^ 0xa5a5a5a55a5a5a5aULL;
}

/* The bitmap bits of a block: one word, as blocks are aligned and small. */
static u64 *bitmap_word(u64 *map, unsigned long pfn)
{
	return &map[pfn / BITS_PER_LONG];
}

static u64 bitmap_mask(unsigned long pfn, unsigned int order)
{
	BUILD_BUG_ON(STRESS_MAX_ORDER > 5);
	return ((1ULL << (1U << order)) - 1) << (pfn % BITS_PER_LONG);
}

struct stress_stats {
	unsigned long allocs, frees, failures;
	unsigned long misaligned, wrong_zone, twice, corrupt, not_zeroed;
	unsigned long needless_failures, below_min;
};

/*
 * May an allocation of order with gfp (no __GFP_HIGH, no __GFP_MEMALLOC)
 * fail now? Only if no zone it may use has a free block of that order or
 * more while keeping more than its min watermark free.
 */
static bool may_fail(gfp_t gfp, unsigned int order)
{
	for (int z = gfp_zone(gfp); z >= 0; z--) {
		const struct zone *zone = zone_of(z);
		long free = (long)zone->free_pages - (1L << order) + 1;
		bool block = false;

		for (unsigned int o = order; o < MAX_ORDER; o++)
			block |= zone->free_area[o].nr_free != 0;
		if (block && free > (long)min_wmark_pages(zone))
			return false;
	}
	return true;
}

/*
 * It left its zone at or above min; a block of a per-CPU order may have
 * come with a refill of up to batch blocks taken at min + 1 block.
 */
static unsigned long refill_slack(struct page *page, unsigned int order)
{
	if (order >= NR_PCP_ORDERS)
		return 0;
	return (unsigned long)(my_pcp(page_zone(page))->lists[order]->batch - 1)
	       << order;
}

static bool stress_alloc(struct stress_block *b, u64 *map, u64 r,
			 struct stress_stats *s)
{
	gfp_t gfp = stress_gfp[r & 7] | __GFP_NOWARN;
	unsigned int order = (unsigned int)((r >> 8) % (STRESS_MAX_ORDER + 1));
	unsigned long pfn, n = 1UL << order, limit;
	struct page *page;
	u64 *word, mask;

	if (!((r >> 16) & 7))
		gfp |= __GFP_COMP;
	if (!((r >> 20) & 1023))
		gfp |= __GFP_ZERO;
	page = alloc_pages(gfp, order);
	if (!page) {
		s->failures++;
		s->needless_failures += !may_fail(gfp, order);
		return false;
	}
	s->allocs++;
	pfn = page_to_pfn(page);
	s->below_min += page_zone(page)->free_pages +
			refill_slack(page, order) <
			min_wmark_pages(page_zone(page));
	limit = gfp_zone(gfp) == ZONE_DMA ? MAX_DMA_PFN :
		gfp_zone(gfp) == ZONE_DMA32 ? MAX_DMA32_PFN : max_pfn;
	s->misaligned += !IS_ALIGNED(pfn, n) || pfn + n > max_pfn;
	s->wrong_zone += pfn + n > limit ||
			 page_zonenum(page) > gfp_zone(gfp);
	if (pfn + n > max_pfn)
		return false;	/* counted; cannot be tracked */
	word = bitmap_word(map, pfn);
	mask = bitmap_mask(pfn, order);
	s->twice += !!(*word & mask);
	*word |= mask;
	for (unsigned long i = 0; i < n; i++) {
		u64 *p = __va(PFN_PHYS(pfn + i));

		if (gfp & __GFP_ZERO)
			s->not_zeroed += p[0] || p[PAGE_SIZE / 8 - 1];
		p[0] = stress_pattern(pfn + i);
		p[PAGE_SIZE / 8 - 1] = ~stress_pattern(pfn + i);
	}
	b->page = page;
	b->order = (u8)order;
	b->zone_limit = (u8)gfp_zone(gfp);
	return true;
}

static void stress_free(const struct stress_block *b, u64 *map,
			struct stress_stats *s)
{
	unsigned long pfn = page_to_pfn(b->page), n = 1UL << b->order;
	u64 *word = bitmap_word(map, pfn), mask = bitmap_mask(pfn, b->order);

	for (unsigned long i = 0; i < n; i++) {
		const u64 *p = __va(PFN_PHYS(pfn + i));

		s->corrupt += p[0] != stress_pattern(pfn + i) ||
			      p[PAGE_SIZE / 8 - 1] != ~stress_pattern(pfn + i);
	}
	s->corrupt += (*word & mask) != mask;
	*word &= ~mask;
	s->frees++;
	__free_pages(b->page, b->order);
}

/*
 * A million random operations: allocate (order 0..4, GFP_KERNEL, DMA32 or
 * DMA, sometimes __GFP_COMP or __GFP_ZERO) or free a random live block,
 * with up to STRESS_SLOTS blocks live, the mix leaning to allocation and
 * to freeing in turn so that the count of live blocks sweeps the whole
 * range; the per-CPU lists are drained now and then. Each page carries a
 * pfn-derived word at its start and end, checked on free; a bitmap over
 * all pfns catches a page handed out twice. An allocation may fail only when no
 * zone it may use could give the block (small memory). At the end all is
 * free, the lists are as before and fully merged.
 */
static void test_random_stress(struct ktest *t)
{
	struct prng r = { 0x2545f4914f6cdd1dULL };
	struct stress_stats s = { 0 };
	unsigned long map_bytes, live = 0, ops, most = 0, loop_frees;
	unsigned int map_order;
	struct free_counts before;
	struct page *map_page;
	u64 *map, start_ns;

	snapshot_free(&before);
	map_bytes = DIV_ROUND_UP(max_pfn, BITS_PER_LONG) * sizeof(u64);
	map_order = get_order(map_bytes);
	map_page = alloc_pages(GFP_KERNEL | __GFP_ZERO, map_order);
	KTEST_ASSERT_NOT_NULL(t, map_page);
	map = page_address(map_page);
	/* The bitmap's own pages are taken: a stress block there is a bug. */
	for (unsigned long i = 0; i < (1UL << map_order); i++) {
		unsigned long pfn = page_to_pfn(map_page) + i;

		*bitmap_word(map, pfn) |= 1ULL << (pfn % BITS_PER_LONG);
	}

	start_ns = arch_clock_ns();
	for (ops = 0; ops < STRESS_OPS; ops++) {
		u64 x = prng_next(&r);

		/* Phases of 16384 ops lean to allocating, then to freeing. */
		bool grow = ((x >> 40) & 7) < ((ops >> 14) & 1 ? 3U : 5U);

		if (!(ops & 4095))
			drain_all_pages();
		if (live < STRESS_SLOTS && (!live || grow)) {
			live += stress_alloc(&stress_live[live], map, x, &s);
		} else {
			unsigned long i = (unsigned long)((x >> 32) % live);

			stress_free(&stress_live[i], map, &s);
			stress_live[i] = stress_live[--live];
		}
		most = max(most, live);
	}
	loop_frees = s.frees;
	while (live)
		stress_free(&stress_live[--live], map, &s);
	ktest_info(t, "%lu ops in %llu ms: %lu allocs, %lu failed (memory short), %lu frees, up to %lu live",
		   ops,
		   (unsigned long long)(arch_clock_ns() - start_ns) / 1000000,
		   s.allocs, s.failures, loop_frees, most);

	KTEST_EXPECT_EQ(t, s.allocs + s.failures + loop_frees, STRESS_OPS);
	KTEST_EXPECT_EQ(t, s.frees, s.allocs);
	KTEST_EXPECT_GE(t, s.allocs, STRESS_OPS / 3);
	KTEST_EXPECT_EQ(t, s.needless_failures, 0UL);
	KTEST_EXPECT_EQ(t, s.below_min, 0UL);
	KTEST_EXPECT_EQ(t, s.misaligned, 0UL);
	KTEST_EXPECT_EQ(t, s.wrong_zone, 0UL);
	KTEST_EXPECT_EQ(t, s.twice, 0UL);
	KTEST_EXPECT_EQ(t, s.corrupt, 0UL);
	KTEST_EXPECT_EQ(t, s.not_zeroed, 0UL);
	/* Only the bitmap's own bits are left. */
	for (unsigned long i = 0; i < (1UL << map_order); i++) {
		unsigned long pfn = page_to_pfn(map_page) + i;

		*bitmap_word(map, pfn) &= ~(1ULL << (pfn % BITS_PER_LONG));
	}
	KTEST_EXPECT_NULL(t, memchr_inv(map, 0, map_bytes));
	__free_pages(map_page, map_order);
	expect_counts(t, &before);
	KTEST_EXPECT_EQ(t, check_free_lists(), 0UL);
	KTEST_EXPECT_EQ(t, page_alloc_check(), 0);
}

/* --- bad frees ----------------------------------------------------------- */

/* A reserved RAM page: the first (pfn 0 on a PC) or the last one. */
static unsigned long reserved_pfn(bool last)
{
	for (unsigned long i = 0; i < max_pfn; i++) {
		unsigned long pfn = last ? max_pfn - 1 - i : i;

		if (pfn_valid(pfn) && PageReserved(pfn_to_page(pfn)))
			return pfn;
	}
	return ~0UL;
}

/* The first pfn below max_pfn that is not RAM (a hole). */
static unsigned long hole_pfn(void)
{
	for (unsigned long pfn = 0; pfn < max_pfn; pfn++) {
		if (!pfn_valid(pfn))
			return pfn;
	}
	return max_pfn;
}

/*
 * Freed twice: the second time the block is on this CPU's list for its
 * order, with refcount 0. The list is left as it was.
 */
static void double_free_pcp(struct ktest *t, unsigned int order)
{
	struct page *page = alloc_pages(GFP_KERNEL, order), copy;
	struct pcp_list *l;
	struct report r;
	int count;

	KTEST_ASSERT_NOT_NULL(t, page);
	__free_pages(page, order);
	l = my_pcp(page_zone(page))->lists[order];
	count = l->count;
	KTEST_EXPECT_GT(t, count, 0);
	copy = *page;
	report_begin(t, &r, REPORT_BAD_PAGE_REFCOUNT);
	__free_pages(page, order);
	report_end(t, &r);
	expect_sentence(t, "pfn:%#lx order:%u: " REFCOUNT_0, page_to_pfn(page),
			order);
	KTEST_EXPECT_MEMEQ(t, page, &copy, sizeof(copy));
	KTEST_EXPECT_EQ(t, l->count, count);
}

static void bad_double_free_pcp(struct ktest *t)
{
	double_free_pcp(t, 0);
}

static void bad_double_free_pcp_order3(struct ktest *t)
{
	double_free_pcp(t, 3);
}

/*
 * A block on a per-CPU list that someone took a reference to after
 * freeing it (a use after free): the drain finds it in use, reports it
 * and keeps it off the buddy lists; its holder can then free it.
 */
static void bad_use_after_free_pcp(struct ktest *t)
{
	struct page *page = alloc_pages(GFP_KERNEL, 1);
	unsigned long free, pcp;

	KTEST_ASSERT_NOT_NULL(t, page);
	__free_pages(page, 1);
	set_page_count(page, 1);
	free = nr_free_pages();
	pcp = nr_pcp_pages();
	ktest_capture_start(t, "BUG: Bad page state: ");
	drain_all_pages();
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_REPORTS(t, REPORT_BAD_PAGE_NEW_IN_USE, 1);
	/* Every other page went back; the two in use did not. */
	KTEST_EXPECT_EQ(t, nr_pcp_pages(), 0UL);
	KTEST_EXPECT_EQ(t, nr_free_pages(), free + pcp - 2);
	expect_sentence(t, "pfn:%#lx order:1: free page in use or with flags set",
			page_to_pfn(page));
	KTEST_EXPECT_FALSE(t, PageBuddy(page));
	KTEST_EXPECT_EQ(t, page_ref_count(page), 1);
	page->alloc_order = 1;
	__free_pages(page, 1);
}

/*
 * The free block of zone that holds pfn, and its order; NULL if none
 * (pfn in use or on a per-CPU list). zone->lock held.
 */
static struct page *free_block_of(struct zone *zone, unsigned long pfn,
				  unsigned int *order)
{
	for (unsigned int o = 0; o < MAX_ORDER; o++) {
		unsigned long base = pfn & ~((1UL << o) - 1);
		struct page *p;

		if (!zone_spans_pfn(zone, base) || !pfn_valid(base))
			break;
		p = pfn_to_page(base);
		if (PageBuddy(p) && p->private == o) {
			*order = o;
			return p;
		}
	}
	return NULL;
}

/*
 * The same on the second page of the block: a drain looks at a block's
 * first page only, as Linux's free_pcppages_bulk() does, so the block
 * goes back to the buddy lists, and the page is caught when the free
 * block that holds it next leaves them: this CPU's next allocation of
 * that block (put first on its free list) reports it and hands out
 * another.
 */
static void bad_use_after_free_pcp_tail(struct ktest *t)
{
	struct page *page = alloc_pages(GFP_KERNEL, 1), *block = NULL, *got;
	unsigned int order = 0;
	struct zone *zone;
	unsigned long flags;

	KTEST_ASSERT_NOT_NULL(t, page);
	zone = page_zone(page);
	__free_pages(page, 1);
	set_page_count(page + 1, 1);
	ktest_capture_start(t, "BUG: Bad page state: ");
	drain_all_pages();
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
	KTEST_EXPECT_REPORTS(t, REPORT_BAD_PAGE_NEW_IN_USE, 0);

	local_irq_save(flags);
	drain_local_pages();
	spin_lock(&zone->lock);
	block = free_block_of(zone, page_to_pfn(page + 1), &order);
	if (block)
		list_move(&block->lru, &zone->free_area[order].free_list);
	spin_unlock(&zone->lock);
	ktest_capture_start(t, "BUG: Bad page state: ");
	got = block ? alloc_pages(GFP_ATOMIC | __GFP_NOWARN, order) : NULL;
	local_irq_restore(flags);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), block ? 1U : 0U);
	KTEST_ASSERT_NOT_NULL(t, block);
	KTEST_EXPECT_REPORTS(t, REPORT_BAD_PAGE_NEW_IN_USE, 1);
	expect_sentence(t, "pfn:%#lx order:%u: free page in use or with flags set",
			page_to_pfn(page + 1), order);
	KTEST_EXPECT_PTR_NE(t, got, block);
	KTEST_EXPECT_FALSE(t, PageBuddy(block));
	if (got)
		__free_pages(got, order);
	/* The block left out, given back whole. */
	set_page_count(page + 1, 0);
	set_page_count(block, 1);
	block->alloc_order = order;
	__free_pages(block, order);
}

/*
 * A free page on the buddy lists that someone took a reference to: the
 * refill of this CPU's list meets it first, reports it and leaves it
 * out; the caller gets another page and the refill the rest. Half of a
 * split pair, freed alone, makes sure the order-0 free list has a page.
 */
static void bad_use_after_free_buddy(struct ktest *t)
{
	struct zone *zone = zone_of(top_zone());
	struct pcp_list *l = my_pcp(zone)->lists[0];
	struct page *pair = alloc_pages(GFP_KERNEL, 1), *victim, *page;
	unsigned long flags;

	KTEST_ASSERT_NOT_NULL(t, pair);
	split_page(pair, 1);
	__free_page(pair + 1);
	local_irq_save(flags);
	drain_local_pages();
	spin_lock(&zone->lock);
	victim = list_first_entry_or_null(&zone->free_area[0].free_list,
					  struct page, lru);
	spin_unlock(&zone->lock);
	if (victim)
		set_page_count(victim, 1);
	ktest_capture_start(t, "BUG: Bad page state: ");
	page = victim ? alloc_pages(GFP_ATOMIC, 0) : NULL;
	local_irq_restore(flags);
	KTEST_ASSERT_NOT_NULL(t, victim);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_REPORTS(t, REPORT_BAD_PAGE_NEW_IN_USE, 1);
	expect_sentence(t, "pfn:%#lx order:0: free page in use or with flags set",
			page_to_pfn(victim));
	KTEST_EXPECT_NOT_NULL(t, page);
	KTEST_EXPECT_PTR_NE(t, page, victim);
	KTEST_EXPECT_FALSE(t, PageBuddy(victim));
	KTEST_EXPECT_EQ(t, page_ref_count(victim), 1);
	KTEST_EXPECT_EQ(t, l->count, max(l->batch - 2, 0));
	if (page)
		__free_page(page);
	victim->alloc_order = 0;
	__free_page(victim);
	__free_page(pair);
}

/* Freed twice: the second time the block is on the buddy lists. */
static void bad_double_free_buddy(struct ktest *t)
{
	struct page *page = alloc_pages(GFP_KERNEL, 3), copy;
	struct report r;

	KTEST_ASSERT_NOT_NULL(t, page);
	__free_pages(page, 3);
	drain_all_pages();
	KTEST_ASSERT_TRUE(t, PageBuddy(page));
	copy = *page;
	report_begin(t, &r, REPORT_BAD_PAGE_ALREADY_FREE);
	__free_pages(page, 3);
	report_end(t, &r);
	expect_sentence(t, "pfn:%#lx order:3: " ALREADY_FREE, page_to_pfn(page));
	KTEST_EXPECT_MEMEQ(t, page, &copy, sizeof(copy));
}

/* A page boot kept (pfn 0), by page and by direct-map address. */
static void bad_free_reserved(struct ktest *t)
{
	unsigned long first = reserved_pfn(false), last = reserved_pfn(true);
	struct page *page, copy;
	struct report r;

	KTEST_ASSERT_LT(t, first, max_pfn);
	if (pfn_valid(0))
		KTEST_EXPECT_EQ(t, first, 0UL);
	page = pfn_to_page(first);
	copy = *page;
	report_begin(t, &r, REPORT_BAD_PAGE_RESERVED);
	__free_pages(page, 0);
	report_end(t, &r);
	expect_sentence(t, "pfn:%#lx order:0: freeing a reserved page", first);
	KTEST_EXPECT_MEMEQ(t, page, &copy, sizeof(copy));

	page = pfn_to_page(last);
	copy = *page;
	report_begin(t, &r, REPORT_BAD_PAGE_RESERVED);
	free_page((unsigned long)page_address(page));
	report_end(t, &r);
	KTEST_EXPECT_MEMEQ(t, page, &copy, sizeof(copy));
}

/* Pointers that are no struct page at all. */
static void bad_free_not_a_page(struct ktest *t)
{
	struct page *const bogus[] = { (struct page *)0x1000, NULL };
	struct report r;

	for (unsigned int i = 0; i < ARRAY_SIZE(bogus); i++) {
		report_begin(t, &r, REPORT_BAD_PAGE_NOT_RAM);
		__free_pages(bogus[i], 0);
		report_end(t, &r);
		expect_sentence(t, "page:%px order:0: " NOT_A_PAGE, bogus[i]);
	}
}

/* A pointer into mem_map that is not at the start of a struct page. */
static void bad_free_misaligned_page(struct ktest *t)
{
	struct page *page = alloc_pages(GFP_KERNEL, 1), *inside, copy;
	struct report r;

	KTEST_ASSERT_NOT_NULL(t, page);
	copy = *page;
	inside = (struct page *)((char *)page + 8);
	report_begin(t, &r, REPORT_BAD_PAGE_NOT_RAM);
	__free_pages(inside, 1);
	report_end(t, &r);
	KTEST_EXPECT_MEMEQ(t, page, &copy, sizeof(copy));
	__free_pages(page, 1);
}

/* The struct page of a hole in RAM, and one past the last pfn. */
static void bad_free_hole(struct ktest *t)
{
	const unsigned long pfns[] = { hole_pfn(), max_pfn };
	struct report r;

	for (unsigned int i = 0; i < ARRAY_SIZE(pfns); i++) {
		KTEST_ASSERT_FALSE(t, pfn_valid(pfns[i]));
		report_begin(t, &r, REPORT_BAD_PAGE_NOT_RAM);
		__free_pages(pfn_to_page(pfns[i]), 0);
		report_end(t, &r);
	}
}

/* free_pages() of addresses outside the direct map of RAM. */
static void bad_free_not_direct_map(struct ktest *t)
{
	const unsigned long addrs[] = {
		0x1000,					/* user space */
		(unsigned long)__va(PFN_PHYS(hole_pfn())),	/* a hole */
		(unsigned long)__va(PFN_PHYS(max_pfn)),	/* past RAM */
	};
	struct report r;

	for (unsigned int i = 0; i < ARRAY_SIZE(addrs); i++) {
		report_begin(t, &r, REPORT_BAD_PAGE_NOT_DIRECT_MAP);
		free_pages(addrs[i], 0);
		report_end(t, &r);
		expect_sentence(t, "addr:%#lx order:0: " NOT_DIRECT_MAP, addrs[i]);
	}
}

/* free_pages() of an address inside a page, not at its start. */
static void bad_free_unaligned_address(struct ktest *t)
{
	unsigned long addr = __get_free_pages(GFP_KERNEL, 2);
	struct page *page, copy;
	struct report r;

	KTEST_ASSERT_NE(t, addr, 0UL);
	page = virt_to_page((void *)addr);
	copy = *page;
	report_begin(t, &r, REPORT_BAD_PAGE_NOT_DIRECT_MAP);
	free_pages(addr + 8, 2);
	report_end(t, &r);
	report_begin(t, &r, REPORT_BAD_PAGE_NOT_DIRECT_MAP);
	free_pages(addr + PAGE_SIZE / 2, 2);
	report_end(t, &r);
	KTEST_EXPECT_MEMEQ(t, page, &copy, sizeof(copy));
	free_pages(addr, 2);
}

/* Allocated with order 2, freed with order 1, 3 or 0. */
static void bad_free_wrong_order_gfp(struct ktest *t, gfp_t gfp)
{
	struct page *page = alloc_pages(gfp, 2), copy;
	struct report r;

	KTEST_ASSERT_NOT_NULL(t, page);
	copy = *page;
	report_begin(t, &r, REPORT_BAD_PAGE_WRONG_ORDER);
	__free_pages(page, 1);
	report_end(t, &r);
	expect_sentence(t, "pfn:%#lx order:1: " WRONG_ORDER, page_to_pfn(page));
	report_begin(t, &r, REPORT_BAD_PAGE_WRONG_ORDER);
	__free_pages(page, 3);
	report_end(t, &r);
	report_begin(t, &r, REPORT_BAD_PAGE_WRONG_ORDER);
	__free_pages(page, 0);
	report_end(t, &r);
	KTEST_EXPECT_MEMEQ(t, page, &copy, sizeof(copy));
	__free_pages(page, 2);
}

static void bad_free_wrong_order(struct ktest *t)
{
	bad_free_wrong_order_gfp(t, GFP_KERNEL);
}

/*
 * The same for a compound block: its order is in its second page. A
 * compound order that no longer matches the order the block was
 * allocated with is reported too (not taken by the fast path).
 */
static void bad_free_compound_wrong_order(struct ktest *t)
{
	struct page *page, copy[2];
	struct report r;

	bad_free_wrong_order_gfp(t, GFP_KERNEL | __GFP_COMP);
	page = alloc_pages(GFP_KERNEL | __GFP_COMP, 2);
	KTEST_ASSERT_NOT_NULL(t, page);
	page[1].compound_order = 1;
	memcpy(copy, page, sizeof(copy));
	report_begin(t, &r, REPORT_BAD_PAGE_WRONG_ORDER);
	__free_pages(page, 2);
	report_end(t, &r);
	expect_sentence(t, "pfn:%#lx order:2: " WRONG_ORDER, page_to_pfn(page));
	KTEST_EXPECT_MEMEQ(t, page, copy, sizeof(copy));
	page[1].compound_order = 2;
	__free_pages(page, 2);
}

/* The second (and last) page of a non-compound order-2 block. */
static void bad_free_inner_page(struct ktest *t)
{
	struct page *page = alloc_pages(GFP_KERNEL, 2), copy[4];
	struct report r;

	KTEST_ASSERT_NOT_NULL(t, page);
	memcpy(copy, page, sizeof(copy));
	report_begin(t, &r, REPORT_BAD_PAGE_REFCOUNT);
	__free_pages(page + 1, 0);
	report_end(t, &r);
	report_begin(t, &r, REPORT_BAD_PAGE_REFCOUNT);
	__free_pages(page + 2, 1);
	report_end(t, &r);
	report_begin(t, &r, REPORT_BAD_PAGE_REFCOUNT);
	free_page((unsigned long)page_address(page + 3));
	report_end(t, &r);
	KTEST_EXPECT_MEMEQ(t, page, copy, sizeof(copy));
	__free_pages(page, 2);
}

/* A page still flagged PG_slab. */
static void bad_free_slab_page(struct ktest *t)
{
	struct page *page = alloc_page(GFP_KERNEL), copy;
	struct report r;

	KTEST_ASSERT_NOT_NULL(t, page);
	__SetPageSlab(page);
	copy = *page;
	report_begin(t, &r, REPORT_BAD_PAGE_SLAB);
	__free_page(page);
	report_end(t, &r);
	expect_sentence(t, "pfn:%#lx order:0: freeing a page that still belongs to a slab",
			page_to_pfn(page));
	KTEST_EXPECT_MEMEQ(t, page, &copy, sizeof(copy));
	__ClearPageSlab(page);
	__free_page(page);
}

/* An order no block can have. */
static void bad_free_order_too_large(struct ktest *t)
{
	struct page *page = alloc_page(GFP_KERNEL), copy;
	struct report r;

	KTEST_ASSERT_NOT_NULL(t, page);
	copy = *page;
	report_begin(t, &r, REPORT_BAD_PAGE_ORDER);
	__free_pages(page, MAX_ORDER);
	report_end(t, &r);
	expect_sentence(t, "pfn:%#lx order:%u: order too large", page_to_pfn(page),
			MAX_ORDER);
	report_begin(t, &r, REPORT_BAD_PAGE_ORDER);
	__free_pages(page, 40);
	report_end(t, &r);
	KTEST_EXPECT_MEMEQ(t, page, &copy, sizeof(copy));
	__free_page(page);
}

struct bad_free {
	const char *name;
	void (*run)(struct ktest *t);
};

static const struct bad_free bad_frees[] = {
	{ "double free, on a per-CPU list", bad_double_free_pcp },
	{ "double free, on the order-3 list", bad_double_free_pcp_order3 },
	{ "reference taken on a per-CPU list", bad_use_after_free_pcp },
	{ "reference taken on a per-CPU list, second page",
	  bad_use_after_free_pcp_tail },
	{ "reference taken on the buddy lists", bad_use_after_free_buddy },
	{ "compound block, wrong order", bad_free_compound_wrong_order },
	{ "double free, on the buddy lists", bad_double_free_buddy },
	{ "reserved page", bad_free_reserved },
	{ "pointer outside mem_map", bad_free_not_a_page },
	{ "misaligned pointer into mem_map", bad_free_misaligned_page },
	{ "struct page of no RAM", bad_free_hole },
	{ "address outside the direct map", bad_free_not_direct_map },
	{ "address not page aligned", bad_free_unaligned_address },
	{ "wrong order", bad_free_wrong_order },
	{ "inner page of a block", bad_free_inner_page },
	{ "slab page", bad_free_slab_page },
	{ "order too large", bad_free_order_too_large },
};

static void bad_free_desc(const struct bad_free *b, char *desc)
{
	strscpy(desc, b->name, KTEST_DESC_SIZE);
}

KTEST_ARRAY_PARAM(bad_free_gen, bad_frees, bad_free_desc);

/*
 * Each bad free prints its one report and is otherwise ignored; after
 * it the lists are exactly as before, page_alloc_check() finds nothing
 * wrong, and a short stress gets every block it asks for with its
 * contents intact (and leaves the lists as before again).
 */
static void test_bad_free(struct ktest *t)
{
	const struct bad_free *b = t->param_value;
	struct free_counts before;

	snapshot_free(&before);
	b->run(t);
	expect_counts(t, &before);
	expect_allocator_works(t);
	expect_page_alloc_sane(t, SANE_OPS);
	expect_counts(t, &before);
}

static const struct ktest_case page_alloc_cases[] = {
	KTEST_CASE(test_counters),
	KTEST_CASE(test_watermark_values),
	KTEST_CASE(test_deferred_grow),
	KTEST_CASE(test_deferred_init_param),
	KTEST_CASE(test_deferred_exhaust),
	KTEST_CASE(test_split_merge_exact),
	KTEST_CASE(test_every_order),
	KTEST_CASE(test_order_too_large),
	KTEST_CASE(test_exhaust_zone),
	KTEST_CASE(test_exhaust_all_memory),
	KTEST_CASE(test_gfp_zero),
	KTEST_CASE(test_zone_modifiers),
	KTEST_CASE(test_zone_fallback),
	KTEST_CASE(test_watermarks_memalloc),
	KTEST_CASE(test_compound),
	KTEST_CASE(test_compound_fast_path),
	KTEST_CASE(test_alloc_pages_exact),
	KTEST_CASE(test_pcp_lists),
	KTEST_CASE(test_pcp_idle_pass),
	KTEST_CASE(test_random_stress),
	KTEST_CASE_PARAM(test_bad_free, bad_free_gen),
	{}
};
KTEST_SUITE(page_alloc, page_alloc_cases);

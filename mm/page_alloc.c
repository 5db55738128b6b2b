// SPDX-License-Identifier: GPL-2.0
/*
 * The buddy page allocator.
 *
 * 1. Data. Each zone keeps MAX_ORDER free lists; free_area[o] holds free
 *    blocks of 2^o pages, naturally aligned (the block's first pfn is a
 *    multiple of 2^o). A free block is described by its first struct
 *    page alone: PG_buddy set, the order in page->private, linked into the
 *    list through page->lru. No other metadata exists.
 *
 * 2. States of a page.
 *      reserved    PG_reserved: never given to the allocator (boot)
 *      free        first page of a free block: PG_buddy; other pages of
 *                  the block: refcount 0, no flags
 *      per-CPU     block of order 0-3 on a per-CPU list: refcount 0,
 *                  no flags, not compound
 *      allocated   first page: refcount >= 1, alloc_order = its order;
 *                  a compound block also has PG_head and its tails point
 *                  to the head (mm/page-flags.h)
 *
 * 3. Algorithms. Allocation takes the smallest free block of at least
 *    the order asked and splits it, returning the upper halves to the
 *    lower lists (expand). Freeing merges a block with its buddy, the
 *    block at pfn ^ (1 << order), for as long as that buddy is free with
 *    the same order (__free_one_page). Blocks of orders 0 to
 *    PAGE_ALLOC_COSTLY_ORDER go through per-CPU lists first, one list
 *    per order (section 6); a list that nobody used for a whole
 *    cache_reap period (mm/slab_reap.c) goes back to the buddy lists, as
 *    Linux's vmstat work drains idle CPUs' lists.
 *
 * 4. Watermarks. min, low and high per zone, from min_free_kbytes like
 *    Linux, computed again each time deferred init grows a zone (they
 *    follow totalram_pages: what has been handed over so far). An
 *    allocation must leave free pages above min (GFP_ATOMIC: above half
 *    of min). Only __GFP_MEMALLOC may go below, and the pages
 *    it gets that way are marked PG_pfmemalloc.
 *
 * 5. Bad frees (not a RAM page, reserved, already free, a tail page, the
 *    wrong order, refcount already 0, a slab page, a free_pages() address
 *    outside the direct map), bad references (section 10) and pages
 *    found in use on the free lists are reported by bad_page(), the one
 *    reporter, with the page, order, reason and caller, and then
 *    ignored: the allocator's state is not touched.
 *
 * 6. Per-CPU lists and locking. zone->lock guards the free lists and
 *    counters. Each CPU keeps, per zone, one list per order 0-3 under
 *    one high and batch in pages (mm/internal.h); a refill or drain of
 *    batch pages holds zone->lock once. The lists have no lock: only their
 *    CPU touches them. A list is an array used as a stack (SLAB's
 *    arrays' layout), so the fast paths, alloc_pages() and
 *    __free_pages() for an ordinary request that the list can serve,
 *    pop or push it in a restartable sequence (kernel/rseq.h): no lock,
 *    no locked instruction, no call, the interrupt flag left alone (an
 *    interrupt inside the pop or push restarts it); the last reference
 *    is dropped with a plain store (the only reference is ours, nobody
 *    can take another). Everything else on a list (refills, drains,
 *    the slow paths) runs with interrupts off (pushf/cli and popf on
 *    x86_64, a thread-local flag on the host). A fast-path push stops
 *    at the list's limit, its share of the pages left below high,
 *    which every slow-path operation sets again (pcp_set_limits()):
 *    only a slow path brings the pages to high, and drains.
 *
 *    Another CPU never touches a list. drain_all_pages() (reclaim,
 *    tests) has every CPU that holds pages drain its own in its
 *    call-function interrupt, which cannot land inside that CPU's fast
 *    path. Where no IPI may be sent (interrupts off, or an interrupt
 *    handler: kernel/smp.h), it drains this CPU's lists and sets the
 *    others' drain_pending, which the owner honours at its next pcp
 *    operation (the flag is the fast paths' gate: they step aside to
 *    the slow path) or cache_reap pass; so do CPUs that take no
 *    interrupts (the malloc shim's, application threads).
 *
 *    Why not a lock: Linux since 5.14 guards each CPU's lists with a
 *    spinlock that remote drainers take and the owner trylocks, so that
 *    drains need no IPI and PREEMPT_RT can keep interrupts on. Its
 *    locked instructions (the lock on both sides of an alloc+free pair,
 *    with the refcount's, three) were most of the pair's cost here. This
 *    kernel has no preemption and cheap, bounded IPIs, so the older
 *    design (Linux before 5.14, and SLAB's arrays in mm/slab.c) is both
 *    correct and fastest: restartable sequences or interrupts off for
 *    the owner, IPIs or a request flag for everyone else. The price: a
 *    drain from interrupt context or with interrupts off is deferred on
 *    the other CPUs.
 *
 *    Lock order: Documentation/locking/locking.md (kernel/lockdep.c
 *    checks it).
 *
 * 7. Checks and debugging (mm/page_debug.c, mm/fault_inject.c). Every
 *    free is checked for the bad frees of section 5; the fast path does
 *    it as one compare of the flags word (no flag, and the fast path's
 *    zone; a compound page of orders 1-3, out of line: PG_head alone,
 *    and its compound order), a test of the tail bit, the refcount
 *    (exactly 1: a block already on a per-CPU list has 0, so a double
 *    free is caught there) and the order, and leaves reporting to
 *    free_pages_prepare. Every page of a block is checked to look free
 *    (check_new_page) where the block leaves the buddy lists, not each
 *    time the fast path hands it out; where a per-CPU list gives a block
 *    back to them, its first page alone is (as Linux's
 *    free_pcppages_bulk()). So a reference taken on a freed block's
 *    first page is found at the latest by the drain, reported, and the
 *    block kept out of the free lists; one taken on another of its
 *    pages, when the free block that holds that page next leaves the
 *    buddy lists: reported there, and that block never handed out. While
 *    page_debug_flags or fail_page_alloc is on, every allocation and
 *    free takes the slow paths (pcp_fast_paths_update() turns the
 *    fast paths off, so that they test neither), and a block about to
 *    go to the free lists or a per-CPU list, and a block about to be
 *    handed out (before __GFP_ZERO), pass one test of page_debug_flags:
 *    page poisoning and debug_pagealloc hook in behind it.
 *    fail_page_alloc is one test of its ->enabled in the slow path of
 *    alloc_pages(); an injected failure
 *    returns NULL before the free lists are looked at, without the
 *    "page allocation failure" report (it is not a shortage of memory;
 *    fault_inject_verbose reports it instead).
 *
 *    init_on_alloc and init_on_free (boot parameters, Linux's) set
 *    PAGE_DEBUG_INIT in page_debug_flags, so they too cost the fast
 *    paths nothing while off. A block about to go to the free lists is
 *    zeroed (init_on_free) before page_debug_free() may unmap it, and so
 *    is all memory boot hands over; a block handed out is zeroed after
 *    page_debug_alloc() if init_on_alloc or __GFP_ZERO asks, unless
 *    init_on_free zeroed it already (Linux's rule: the free lists then
 *    hold only zeroed pages). page_poison wins over both: they are
 *    turned off when it is on (init_mem_debugging_and_hardening()).
 *
 * 8. Reclaim (mm/vmscan.c). When the free lists cannot serve an
 *    allocation, and it may reclaim (gfp_may_reclaim: not __GFP_NORETRY,
 *    not inside reclaim), try_to_free_pages() takes back what the
 *    allocators and shrinkers keep, and the allocation is retried, at
 *    most RECLAIM_PRIORITY + 1 times (once without
 *    __GFP_DIRECT_RECLAIM); only then does it fail and say so. Inside
 *    reclaim (memalloc_noreclaim_save) an allocation may use the reserve
 *    as __GFP_MEMALLOC does, unless __GFP_NOMEMALLOC. No lock of this
 *    file is held when reclaim runs.
 *
 * 9. Nodes. Each online node has its pg_data_t and zones (mm/mm_init.c
 *    lays them out); a page's node and zone are in its flags, so a free
 *    always goes to its own zone's lists. An allocation prefers a node
 *    (alloc_pages(): numa_mem_id(), this CPU's node or, if that has no
 *    memory, the nearest that has) and walks that node's zonelist
 *    (build_zonelists: its own zones, then the other nodes by
 *    node_distance(), each from Normal down), skipping zones above
 *    gfp_zone(); __GFP_THISNODE walks the node's own zones only. The
 *    alloc fast path serves the first zone of this CPU's memory node,
 *    found at boot (pcp_fast_zone[cpu]). Each allocation counts Linux's
 *    numa_hit/miss/foreign/local/other (zone_statistics) in the per-CPU
 *    lists of the zones involved; the fast path counts in one word of
 *    its list (fast_hits).
 *
 * 10. References (Linux's rules). An allocated block's first page holds
 *    its references; a compound page's tails count on the head.
 *    get_page() adds one, put_page() drops one, and the last frees: a
 *    compound page whole at its order, any other page at order 0. So
 *    __free_pages() of a plain block of order n whose first page someone
 *    still holds frees the other pages at once, in aligned pieces of
 *    orders n - 1 down to 0, and leaves the first page, now order 0, to
 *    the last put_page(); of a compound page it frees nothing until the
 *    last reference goes. put_page() drops a reference that is not the
 *    last with a compare-and-exchange (never below 1), and hands the
 *    last to the free slow path, whose checks refuse a slab's page (only
 *    SLAB frees it), a reserved page and a plain block above order 0.
 *    put_page() of a page with no reference, get_page() of one and
 *    split_page() of a compound page are reported and change nothing.
 *    None of this touches the fast paths: a page with more than one
 *    reference fails free_page_refs_ok().
 */
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/overflow.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/report.h"
#include "kernel/rseq.h"
#include "kernel/irq.h"
#include "kernel/smp.h"
#include "lib/string.h"
#include "mm/fault_inject.h"
#include "mm/gfp.h"
#include "mm/internal.h"
#include "mm/kasan.h"
#include "mm/memblock.h"
#include "mm/mm.h"
#include "mm/numa.h"
#include "mm/page_debug.h"
#include "mm/shrinker.h"

/* How an allocation may treat the watermarks. */
#define ALLOC_WMARK_MIN		0x0
#define ALLOC_NO_WATERMARKS	0x1	/* __GFP_MEMALLOC, second attempt */
#define ALLOC_HIGH		0x2	/* __GFP_HIGH: half of min is enough */

#define MAX_FAILURE_REPORTS	10

bool init_on_alloc;
bool init_on_free;

static unsigned long min_free_kbytes;
static unsigned int failure_reports;

/* --- free lists ------------------------------------------------------ */

static void set_buddy_order(struct page *page, unsigned int order)
{
	page->private = order;
	__SetPageBuddy(page);
}

static void add_to_free_list(struct page *page, struct zone *zone,
			     unsigned int order)
{
	list_add(&page->lru, &zone->free_area[order].free_list);
	zone->free_area[order].nr_free++;
	zone->free_pages += 1UL << order;
}

static void del_from_free_list(struct page *page, struct zone *zone,
			       unsigned int order)
{
	list_del(&page->lru);
	__ClearPageBuddy(page);
	page->private = 0;
	zone->free_area[order].nr_free--;
	zone->free_pages -= 1UL << order;
}

/*
 * Is the page at buddy_pfn the first page of a free block of order?
 * mem_map has no struct pages for holes (mm/mm_init.c), so the pfn must
 * be RAM before its page is read: the chunk map answers inline for
 * nearly every pfn, pfn_valid() for the rest.
 */
static __always_inline bool page_is_buddy(const struct zone *zone,
					  unsigned long buddy_pfn,
					  unsigned int order)
{
	const struct page *buddy;

	if (!zone_spans_pfn(zone, buddy_pfn) ||
	    (!pfn_in_ram_chunk(buddy_pfn) && !pfn_valid(buddy_pfn)))
		return false;
	buddy = pfn_to_page(buddy_pfn);
	return PageBuddy(buddy) && buddy->private == order &&
	       page_zone(buddy) == zone;
}

/*
 * Buddy merging. A block of order o at pfn has its buddy at
 * pfn ^ (1 << o): the other half of the block of order o + 1 that
 * contains both. If the buddy is free and of the same order, take it off
 * its list; the merged block starts at the lower of the two pfns
 * (pfn & buddy_pfn). Repeat one order up until the buddy is busy, is not
 * RAM, or the block has the largest order.
 *
 * Called with zone->lock held. Inlined, as __rmqueue_smallest() is: a
 * drain or a refill calls it once per block, and a call cost each block
 * a frame.
 */
static __always_inline void __free_one_page(struct page *page,
					    unsigned long pfn,
					    struct zone *zone,
					    unsigned int order)
{
	lockdep_assert_held(&zone->lock);
	lockdep_assert_irqs_disabled();
	while (order < MAX_ORDER - 1) {
		unsigned long buddy_pfn = pfn ^ (1UL << order);

		if (!page_is_buddy(zone, buddy_pfn, order))
			break;
		del_from_free_list(pfn_to_page(buddy_pfn), zone, order);
		pfn &= buddy_pfn;
		order++;
	}
	page = pfn_to_page(pfn);
	set_buddy_order(page, order);
	add_to_free_list(page, zone, order);
}

/*
 * Splitting. A block of order high serves a request of order low: its
 * upper half goes back as a free block of order high - 1, then the upper
 * half of the lower half, and so on down to low.
 */
static void expand(struct zone *zone, struct page *page, unsigned int low,
		   unsigned int high)
{
	unsigned long size = 1UL << high;

	while (high > low) {
		high--;
		size >>= 1;
		set_buddy_order(&page[size], high);
		add_to_free_list(&page[size], zone, high);
	}
}

/*
 * Take a block of order from the smallest list that has one. zone->lock
 * held.
 */
static __always_inline struct page *__rmqueue_smallest(struct zone *zone,
							unsigned int order)
{
	lockdep_assert_held(&zone->lock);
	lockdep_assert_irqs_disabled();
	for (unsigned int o = order; o < MAX_ORDER; o++) {
		struct page *page = list_first_entry_or_null(
			&zone->free_area[o].free_list, struct page, lru);

		if (!page)
			continue;
		del_from_free_list(page, zone, o);
		expand(zone, page, order, o);
		return page;
	}
	return NULL;
}

/* --- checks and reports ------------------------------------------------ */

/* The sentence a person reads for each kind of bad page state. */
static const char *bad_page_reason(enum report_kind kind)
{
	switch (kind) {
	case REPORT_BAD_PAGE_ORDER:
		return "order too large";
	case REPORT_BAD_PAGE_RESERVED:
		return "freeing a reserved page";
	case REPORT_BAD_PAGE_ALREADY_FREE:
		return "double free: page is already free";
	case REPORT_BAD_PAGE_TAIL:
		return "freeing a tail page of a compound page";
	case REPORT_BAD_PAGE_SLAB:
		return "freeing a page that still belongs to a slab";
	case REPORT_BAD_PAGE_REFCOUNT:
		return "refcount already 0: double free, or not the first page of its block";
	case REPORT_BAD_PAGE_WRONG_ORDER:
		return "wrong order: not the order it was allocated with";
	case REPORT_BAD_PAGE_NOT_RAM:
		return "not a struct page of RAM";
	case REPORT_BAD_PAGE_NOT_DIRECT_MAP:
		return "free_pages() of an address that is not a page of the direct map";
	case REPORT_BAD_PAGE_PUT_UNDERFLOW:
		return "put_page() of a page with refcount 0: page_ref underflow";
	case REPORT_BAD_PAGE_REF_ZERO:
		return "refcount 0: a reference to a free page, or not the first page of its block";
	case REPORT_BAD_PAGE_SPLIT_COMPOUND:
		return "split_page() of a compound page";
	default:
		return "free page in use or with flags set";
	}
}

/* Is page a real entry of mem_map for RAM? */
static bool page_in_mem_map(const struct page *page)
{
	unsigned long offset = (unsigned long)page - (unsigned long)vmemmap;

	return page && (unsigned long)page >= (unsigned long)vmemmap &&
	       offset % sizeof(struct page) == 0 &&
	       pfn_valid(offset / sizeof(struct page));
}

/*
 * The one reporter for page state errors (section 5): a BUG line a test
 * can expect, "BUG: Bad page state: <page> order:<n>: <reason>", then
 * the page's words if it has any, the caller and the stack. <page> is
 * "pfn:0x..." for an entry of mem_map; otherwise what the caller had:
 * "addr:0x..." for an address given to free_pages() (page NULL, addr
 * not 0), or "page:..." for a pointer that is no struct page of RAM.
 * The page is left alone.
 */
static void bad_page(const struct page *page, unsigned long addr,
		     unsigned int order, enum report_kind kind,
		     unsigned long caller)
{
	bool in_mem_map = page_in_mem_map(page);
	const char *reason = bad_page_reason(kind);

	report_kind(kind);
	if (in_mem_map)
		pr_err("BUG: Bad page state: pfn:%#lx order:%u: %s\n",
		       page_to_pfn(page), order, reason);
	else if (addr)
		pr_err("BUG: Bad page state: addr:%#lx order:%u: %s\n",
		       addr, order, reason);
	else
		pr_err("BUG: Bad page state: page:%px order:%u: %s\n",
		       page, order, reason);
	if (in_mem_map)
		pr_err("page:%px refcount:%d flags:%#lx alloc_order:%u private:%#lx\n",
		       page, page_ref_count(page), page->flags,
		       page->alloc_order, page->private);
	pr_err("caller: %pS\n", (void *)caller);
	dump_stack();
}

/* What is wrong with freeing page at order (REPORT_NONE: nothing). */
static enum report_kind free_page_problem(const struct page *page,
					  unsigned int order)
{
	if (!page_in_mem_map(page))
		return REPORT_BAD_PAGE_NOT_RAM;
	if (order >= MAX_ORDER)
		return REPORT_BAD_PAGE_ORDER;
	if (PageReserved(page))
		return REPORT_BAD_PAGE_RESERVED;
	if (PageBuddy(page))
		return REPORT_BAD_PAGE_ALREADY_FREE;
	if (PageTail(page))
		return REPORT_BAD_PAGE_TAIL;
	if (PageSlab(page))
		return REPORT_BAD_PAGE_SLAB;
	if (page_ref_count(page) <= 0)
		return REPORT_BAD_PAGE_REFCOUNT;
	if (PageHead(page) ? compound_order(page) != order :
			     page->alloc_order != order)
		return REPORT_BAD_PAGE_WRONG_ORDER;
	return REPORT_NONE;
}

/*
 * The tails go back clean, with whatever their user left there: SLAB's
 * mark and cache (mm/slab_internal.h, struct slab), mapping and the
 * tail word (as Linux's free_tail_pages_check() clears them). The rest
 * of a tail's lru is nobody's while the page is free: not touched.
 */
static void destroy_compound_page(struct page *page, unsigned int order)
{
	for (unsigned long i = 1; i < (1UL << order); i++) {
		__ClearPageSlabTail(&page[i]);
		page[i].mapping = NULL;
		page[i].compound_head = 0;
	}
	page[1].compound_order = 0;
	__ClearPageHead(page);
}

/* Zero a block (init_on_alloc, init_on_free, __GFP_ZERO). */
static void kernel_init_pages(struct page *page, unsigned int order)
{
	memset(page_address(page), 0, PAGE_SIZE << order);
}

/*
 * A block on its way to the free lists while page_debug_flags is set:
 * zeroed for init_on_free while still mapped, then poisoned or unmapped.
 */
static void free_pages_debug(struct page *page, unsigned int order)
{
	/* Its zeroes or poison go over every byte, KASAN's red zones too. */
	kasan_unpoison_range(page_address(page), PAGE_SIZE << order);
	if (want_init_on_free())
		kernel_init_pages(page, order);
	page_debug_free(page, order);
}

/*
 * A block whose last reference is gone, made ready for the free lists:
 * no compound state, no allocation state, the debug hooks run.
 */
static void free_pages_clean(struct page *page, unsigned int order)
{
	if (PageHead(page))
		destroy_compound_page(page, order);
	__ClearPagePfmemalloc(page);
	page->alloc_order = 0;
	page->mapping = NULL;
	if (page_debug_active())
		free_pages_debug(page, order);
	kasan_free_pages(page, order);	/* after the poison is written */
}

static void free_unref_page(struct page *page, struct zone *zone,
			    unsigned int order);

/* A clean block to this CPU's list for its order, or to the buddy lists. */
static void free_the_page(struct page *page, unsigned int order)
{
	struct zone *zone = page_zone(page);
	unsigned long flags;

	if (order < NR_PCP_ORDERS) {
		free_unref_page(page, zone, order);
		return;
	}
	spin_lock_irqsave(&zone->lock, flags);
	__free_one_page(page, page_to_pfn(page), zone, order);
	spin_unlock_irqrestore(&zone->lock, flags);
}

/*
 * __free_pages() of a plain block whose first page others still hold
 * (section 10): the rest goes back now, in the largest aligned pieces
 * (orders order - 1 down to 0, from the top), and the first page
 * becomes an order-0 page that the last put_page() frees. Its order is
 * changed before our reference is dropped, so a holder whose put_page()
 * finds itself last frees it at order 0.
 */
static void free_pages_keep_first(struct page *page, unsigned int order)
{
	WRITE_ONCE(page->alloc_order, 0);
	while (order-- > 0) {
		struct page *piece = page + (1UL << order);

		free_pages_clean(piece, order);
		free_the_page(piece, order);
	}
	if (page_ref_dec_and_test(page)) {
		free_pages_clean(page, 0);
		free_the_page(page, 0);
	}
}

/*
 * Checks before freeing; drops one reference. True if the block is to
 * go back to the free lists now, cleaned.
 */
static bool free_pages_prepare(struct page *page, unsigned int order,
			       unsigned long caller)
{
	enum report_kind problem = free_page_problem(page, order);

	if (problem != REPORT_NONE) {
		bad_page(page, 0, order, problem, caller);
		return false;
	}
	/*
	 * The only reference is ours: nobody else may take one now, so a
	 * plain store ends it, no locked decrement.
	 */
	if (page_ref_count(page) == 1) {
		set_page_count(page, 0);
	} else if (order && !PageHead(page)) {
		free_pages_keep_first(page, order);
		return false;
	} else if (!page_ref_dec_and_test(page)) {
		return false;	/* someone else still holds it */
	}
	free_pages_clean(page, order);
	return true;
}

/*
 * What a free page must not have: a reference, a flag, a compound head
 * (the tail bit). refs, flags and head may be several pages' words ORed
 * together. Zero: the page (every page) looks free.
 */
static __always_inline unsigned long in_use_bits(unsigned int refs,
						 unsigned long flags,
						 unsigned long head)
{
	return refs | (flags & PAGE_FLAGS_MASK) | (head & 1);
}

static __always_inline unsigned long page_in_use_bits(const struct page *p)
{
	return in_use_bits((unsigned int)page_ref_count(p), p->flags,
			   p->compound_head);
}

/* Report the first of the nr pages at page that does not look free. */
static __noinline void bad_new_page(const struct page *page, unsigned long nr,
				    unsigned int order, unsigned long caller)
{
	for (unsigned long i = 0; i < nr; i++) {
		if (page_in_use_bits(page + i)) {
			bad_page(page + i, 0, order, REPORT_BAD_PAGE_NEW_IN_USE,
				 caller);
			return;
		}
	}
}

/*
 * Do the nr pages at page, of a block of order, all look free? One pass
 * that ORs each word in_use_bits() reads over all the pages, then
 * masks once, one branch; the bad page is looked for and reported only
 * if the result is not zero.
 */
static __always_inline bool check_free_pages(const struct page *page,
					     unsigned long nr,
					     unsigned int order,
					     unsigned long caller)
{
	unsigned long flags = 0, head = 0;
	unsigned int refs = 0;

	for (unsigned long i = 0; i < nr; i++) {
		flags |= page[i].flags;
		head |= page[i].compound_head;
		refs |= (unsigned int)page_ref_count(&page[i]);
	}
	if (likely(!in_use_bits(refs, flags, head)))
		return true;
	bad_new_page(page, nr, order, caller);
	return false;
}

/*
 * A block about to be handed out, as it leaves the buddy lists: every
 * page must look free (Linux's check_new_pages()). Report if not.
 */
static __always_inline bool check_new_page(struct page *page,
					   unsigned int order)
{
	return check_free_pages(page, 1UL << order, order, _RET_IP_);
}

static void prep_compound_page(struct page *page, unsigned int order)
{
	__SetPageHead(page);
	for (unsigned long i = 1; i < (1UL << order); i++)
		page[i].compound_head = (unsigned long)page | 1;
	page[1].compound_order = (unsigned char)order;
}

static void prep_new_page(struct page *page, unsigned int order, gfp_t gfp,
			  unsigned int alloc_flags)
{
	set_page_count(page, 1);
	page->alloc_order = order;
	kasan_alloc_pages(page, order);	/* before the poison is read */
	if (page_debug_active())
		page_debug_alloc(page, order);
	/* Free pages are zero already with init_on_free (Linux's rule). */
	if (want_init_on_alloc(gfp) && !want_init_on_free())
		kernel_init_pages(page, order);
	if (order && (gfp & __GFP_COMP))
		prep_compound_page(page, order);
	if (alloc_flags & ALLOC_NO_WATERMARKS)
		__SetPagePfmemalloc(page);
}

/* --- per-CPU lists (section 6) ---------------------------------------- */

/*
 * The fast paths serve ordinary requests (no zone modifier, no
 * __GFP_HIGH) from the first zone GFP_KERNEL may use on
 * the CPU's memory node (numa_mem_id()): the first zone of its zonelist
 * with memory, set at boot for each CPU. Until then an empty zone, which
 * sends every request to the slow path.
 */
#define PCP_SLOW_GFP	(GFP_ZONEMASK | __GFP_HIGH)

static struct zone no_zone;

/* Each CPU's fast-path zone. */
static struct zone *pcp_fast_zone[NR_CPUS] = {
	[0 ... NR_CPUS - 1] = &no_zone,
};

/*
 * The fast-path zone of every CPU when they all have the same one (one
 * memory node), else no_zone (which no request passes) and each CPU
 * reads its own above: one load that does not wait for this CPU's
 * number, as the fast path was before it had nodes (a CPU's number is
 * not a per-CPU variable here, so a per-CPU zone costs a dependent
 * load, measurably). pcp_fast_zone_one is that zone as boot found it;
 * pcp_fast_zone_all is it while the fast paths are on (no page
 * debugging, no fail_page_alloc: pcp_fast_paths_update()), no_zone
 * otherwise, so that the alloc fast path need not test them.
 * pcp_fast_zone_bits is the same switch for the free fast path: the
 * zone's node and zone as the top bits of page->flags hold them, with
 * no page flag (~0 while off), so that one compare finds a page of that
 * zone without flags, without loading node_data[] for it. The free fast
 * path then uses pcp_fast_zone_one, which never changes once set.
 */
static struct zone *pcp_fast_zone_one = &no_zone;
static struct zone *pcp_fast_zone_all = &no_zone;
static unsigned long pcp_fast_zone_bits = ~0UL;

/* The bits of page->flags that say which node and zone, nothing else. */
#define PAGE_ZONEID_MASK	(~0UL << NODES_PGSHIFT)

/* What a page of zone, with no flag set, has in its flags word. */
static unsigned long zone_flags_bits(const struct zone *zone)
{
	BUILD_BUG_ON(ZONES_PGSHIFT + 2 > BITS_PER_LONG ||
		     NODES_PGSHIFT + 4 != ZONES_PGSHIFT ||
		     __NR_PAGEFLAGS > NODES_PGSHIFT);
	return ((unsigned long)zone_idx(zone) << ZONES_PGSHIFT) |
	       ((unsigned long)zone_to_nid(zone) << NODES_PGSHIFT);
}

/* Page debugging or fail_page_alloc on: every request takes the slow paths. */
static bool pcp_fast_paths_off(void)
{
	return READ_ONCE(page_debug_flags) || READ_ONCE(fail_page_alloc.enabled);
}

void pcp_fast_paths_update(void)
{
	struct zone *one = READ_ONCE(pcp_fast_zone_one);
	bool on = one != &no_zone && !pcp_fast_paths_off();

	WRITE_ONCE(pcp_fast_zone_all, on ? one : &no_zone);
	WRITE_ONCE(pcp_fast_zone_bits, on ? zone_flags_bits(one) : ~0UL);
}

/* Linux's _numa_mem_: each CPU's nearest node with memory. */
int cpu_mem_node[NR_CPUS];

static struct per_cpu_pages *this_cpu_pcp(struct zone *zone)
{
	return &zone->pcp[arch_cpu_id()];
}

/* The list every CPU has until setup_pcp_lists() gives it one: no room. */
static struct pcp_list pcp_list_none;

/* Every CPU's lists in zone: pcp_list_none, until setup_pcp_lists(). */
void zone_pcp_init(struct zone *zone)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		for (unsigned int o = 0; o < NR_PCP_ORDERS; o++)
			zone->pcp[cpu].lists[o] = &pcp_list_none;
	}
}

/*
 * Give each of pcp's lists its limit: its count and its share of the
 * pages left below high, half of them to order's list (the one in use)
 * and the rest in equal parts to the others, so that the fast path's
 * pushes, all together, stop short of high (mm/internal.h); pages: the
 * pages on the lists now. On the lists' CPU, interrupts off.
 */
static void __pcp_set_limits(struct per_cpu_pages *pcp, unsigned int order,
			     unsigned long pages)
{
	unsigned long half = 0, part = 0;
	bool over = false;

	if (pages < (unsigned long)pcp->high - 1) {
		unsigned long room = (unsigned long)pcp->high - 1 - pages;

		half = room / 2;
		part = room / (2 * (NR_PCP_ORDERS - 1));
	}
	for (unsigned int o = 0; o < NR_PCP_ORDERS; o++) {
		struct pcp_list *l = pcp->lists[o];

		l->limit = l->count + (unsigned int)((o == order ? half : part) >> o);
		over |= l->limit > l->size;
	}
	WARN_ON_ONCE(over);
}

/* The same, the pages on the lists counted here. */
static void pcp_set_limits(struct per_cpu_pages *pcp, unsigned int order)
{
	if (!pcp->high)
		return;		/* no lists of its own: pcp_list_none */
	__pcp_set_limits(pcp, order, pcp_pages(pcp));
}

/* The n coldest blocks of one list to the buddy lists; zone->lock held. */
static void free_pcp_blocks(struct zone *zone, struct pcp_list *l,
			    unsigned int order, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		struct page *page = l->pages[i];

		/*
		 * A block whose first page no longer looks free is reported
		 * and left out. Only the first page, as Linux's
		 * free_pcppages_bulk() (bulkfree_pcp_prepare()): the
		 * others are checked when the block next leaves the
		 * buddy lists (check_new_page()).
		 */
		if (check_free_pages(page, 1, order, _RET_IP_))
			__free_one_page(page, page_to_pfn(page), zone, order);
	}
	if (!n)
		return;		/* a list the drain takes nothing from */
	l->count -= n;
	memmove(l->pages, l->pages + n, l->count * sizeof(l->pages[0]));
}

/*
 * Move at least @pages pages, and until the lists hold fewer than high,
 * from the cold ends of the lists to the buddy lists, under one hold of
 * zone->lock: the lists in turn from the order after order, so that
 * order's own list, the one in use, goes last. Interrupts off, on the
 * lists' own CPU. Returns the pages moved.
 */
static unsigned long free_pcppages_bulk(struct zone *zone,
					struct per_cpu_pages *pcp,
					unsigned int order, int pages)
{
	long left = (long)pcp_pages(pcp);
	unsigned long moved = 0;

	lockdep_assert_irqs_disabled();
	spin_lock(&zone->lock);
	for (unsigned int i = 1; i <= NR_PCP_ORDERS; i++) {
		unsigned int o = (order + i) % NR_PCP_ORDERS, n = 0;
		struct pcp_list *l = pcp->lists[o];

		while (n < l->count && (pages > 0 || left >= pcp->high)) {
			n++;
			pages -= 1 << o;
			left -= 1L << o;
		}
		free_pcp_blocks(zone, l, o, n);
		moved += (unsigned long)n << o;
	}
	spin_unlock(&zone->lock);
	WARN_ON_ONCE(left < 0 || left >= pcp->high);
	return moved;
}

/* Every block on pcp's lists to the buddy lists; pages moved. */
static unsigned long free_pcppages_all(struct zone *zone,
				       struct per_cpu_pages *pcp)
{
	unsigned long moved = 0;

	lockdep_assert_irqs_disabled();
	spin_lock(&zone->lock);
	for (unsigned int o = 0; o < NR_PCP_ORDERS; o++) {
		moved += (unsigned long)pcp->lists[o]->count << o;
		free_pcp_blocks(zone, pcp->lists[o], o, pcp->lists[o]->count);
	}
	spin_unlock(&zone->lock);
	return moved;
}

/* Reverse pages[from, to): the first block taken ends on top. */
static void pcp_reverse(struct pcp_list *l, unsigned int from,
			unsigned int to)
{
	while (from + 1 < to) {
		struct page *page = l->pages[from];

		l->pages[from++] = l->pages[--to];
		l->pages[to] = page;
	}
}

/*
 * Refill one list with up to batch blocks, under one hold of
 * zone->lock, the first one taken on top (handed out first). The
 * blocks are checked here, as they leave the buddy lists, and not again
 * when the fast path hands them out.
 */
static void rmqueue_bulk(struct zone *zone, struct per_cpu_pages *pcp,
			 unsigned int order)
{
	struct pcp_list *l = pcp->lists[order];
	unsigned int first = l->count;

	lockdep_assert_irqs_disabled();
	spin_lock(&zone->lock);
	for (int i = 0; i < l->batch && l->count < l->size; i++) {
		struct page *page = __rmqueue_smallest(zone, order);

		if (!page)
			break;
		if (!check_new_page(page, order))
			continue;	/* reported; never handed out */
		arch_alloc_page(page, order);
		l->pages[l->count++] = page;
	}
	spin_unlock(&zone->lock);
	pcp_reverse(l, first, l->count);
}

/* Everything on pcp's lists to the buddy lists; pages moved. */
static unsigned long drain_pages_zone(struct zone *zone,
				      struct per_cpu_pages *pcp)
{
	unsigned long moved;

	/* Cleared before the drain: a request made during it stays. */
	for (unsigned int o = 0; o < NR_PCP_ORDERS; o++)
		WRITE_ONCE(pcp->lists[o]->drain_pending, false);
	barrier();
	moved = free_pcppages_all(zone, pcp);
	pcp_set_limits(pcp, 0);
	return moved;
}

/*
 * This CPU's lists, for a slow-path operation on order's: a pending
 * drain done first, the list marked used. Interrupts off. A drain
 * request sets every list's drain_pending (drain_pages_ask()) and a
 * drain clears them all, so the list in use is the one to ask.
 */
static struct per_cpu_pages *this_cpu_pcp_slow(struct zone *zone,
					       unsigned int order)
{
	struct per_cpu_pages *pcp = this_cpu_pcp(zone);
	struct pcp_list *l = pcp->lists[order];

	if (unlikely(READ_ONCE(l->drain_pending)))
		drain_pages_zone(zone, pcp);
	l->touched = true;
	return pcp;
}

/*
 * Was any of pcp's lists used since the last call (cache_reap's pass):
 * touched by a slow path, or its count or fast_hits moved? Marks them
 * unused. On the lists' CPU, interrupts off.
 */
static bool pcp_test_and_clear_touched(struct per_cpu_pages *pcp)
{
	bool used = false;

	if (!pcp->high)
		return false;	/* no lists of its own: pcp_list_none */
	for (unsigned int o = 0; o < NR_PCP_ORDERS; o++) {
		struct pcp_list *l = pcp->lists[o];

		used |= l->touched || l->count != l->reap_count ||
			l->fast_hits != l->reap_hits;
		l->touched = false;
		l->reap_count = l->count;
		l->reap_hits = l->fast_hits;
	}
	return used;
}
/* Has this CPU a list for order in zone (not before setup_pcp_lists())? */
static bool pcp_serves(struct zone *zone, unsigned int order)
{
	return order < NR_PCP_ORDERS && this_cpu_pcp(zone)->lists[order]->size;
}

static struct page *rmqueue_pcplist(struct zone *zone, unsigned int order)
{
	struct per_cpu_pages *pcp;
	struct pcp_list *l;
	struct page *page = NULL;
	unsigned long flags;

	local_irq_save(flags);
	pcp = this_cpu_pcp_slow(zone, order);
	l = pcp->lists[order];
	if (!l->count)
		rmqueue_bulk(zone, pcp, order);
	if (l->count)
		page = l->pages[--l->count];
	pcp_set_limits(pcp, order);
	local_irq_restore(flags);
	return page;
}

/*
 * A prepared block (refcount 0) onto this CPU's list; drain if the
 * pages reach high. Straight to the buddy lists where the CPU has no
 * list in zone (pcp_list_none). Out of line: inlined, its drain loop
 * would cost the free fast path a stack frame.
 */
static __noinline void free_unref_page(struct page *page, struct zone *zone,
				       unsigned int order)
{
	struct per_cpu_pages *pcp;
	struct pcp_list *l;
	unsigned long flags, pages;

	local_irq_save(flags);
	pcp = this_cpu_pcp_slow(zone, order);
	l = pcp->lists[order];
	if (unlikely(!l->size)) {
		spin_lock(&zone->lock);
		__free_one_page(page, page_to_pfn(page), zone, order);
		spin_unlock(&zone->lock);
	} else {
		/* Below high before this free: there is room (internal.h). */
		BUG_ON(l->count >= l->size);
		l->pages[l->count++] = page;
		pages = pcp_pages(pcp);
		if (pages >= (unsigned long)pcp->high)
			pages -= free_pcppages_bulk(zone, pcp, order, pcp->batch);
		__pcp_set_limits(pcp, order, pages);
	}
	local_irq_restore(flags);
}

unsigned long drain_local_pages(void)
{
	unsigned long moved = 0, flags;
	struct zone *zone;

	for_each_zone(zone) {
		local_irq_save(flags);
		moved += drain_pages_zone(zone, this_cpu_pcp(zone));
		local_irq_restore(flags);
	}
	return moved;
}

/*
 * cache_reap's pass (mm/slab_reap.c), as Linux's vmstat work: this CPU's
 * lists that nobody used since the last pass, or that another CPU asked
 * to drain, go back to the buddy lists; a used one is only marked
 * unused. Pages moved.
 */
unsigned long drain_local_pages_idle(void)
{
	unsigned long moved = 0, flags;
	struct zone *zone;

	for_each_zone(zone) {
		struct per_cpu_pages *pcp;

		local_irq_save(flags);
		pcp = this_cpu_pcp(zone);
		if (!pcp_test_and_clear_touched(pcp) ||
		    pcp_drain_pending(pcp)) {
			moved += drain_pages_zone(zone, pcp);
			pcp_test_and_clear_touched(pcp);	/* emptied */
		}
		local_irq_restore(flags);
	}
	return moved;
}

static void drain_local_pages_ipi(void *info)
{
	(void)info;
	drain_local_pages();
}

/* Ask cpu to drain its lists on its next pcp operation. */
static void drain_pages_ask(unsigned int cpu)
{
	struct zone *zone;

	for_each_zone(zone) {
		struct per_cpu_pages *pcp = &zone->pcp[cpu];

		if (!pcp_pages(pcp))
			continue;
		for (unsigned int o = 0; o < NR_PCP_ORDERS; o++)
			WRITE_ONCE(pcp->lists[o]->drain_pending, true);
	}
}

/* Has cpu pages on a list of any zone? Read without its owner's lock. */
static bool cpu_has_pcp_pages(unsigned int cpu, void *info)
{
	struct zone *zone;

	(void)info;
	for_each_zone(zone)
		if (pcp_pages(&zone->pcp[cpu]))
			return true;
	return false;
}

/*
 * Every CPU that has pages on its lists drains them, in its
 * call-function interrupt, as Linux's drain_all_pages() had each CPU do
 * it before 5.14 (for the CPUs of its cpus_with_pcps). Where no IPI
 * may be sent (interrupts off: direct reclaim inside SLAB's cache
 * growth; an interrupt handler), this CPU drains its own lists and asks
 * the others (drain_pending), which drain at their next pcp operation
 * or cache_reap pass. CPUs that take no interrupts (not online: the
 * malloc shim's, whose CPUs are the application's threads) are asked
 * the same way: nobody but the owner ever touches a list.
 */
void drain_all_pages(void)
{
	unsigned int cpu;
	bool ipi = !irqs_disabled() && !in_interrupt();

	if (ipi)
		WARN_ON_ONCE(on_each_cpu_cond(cpu_has_pcp_pages,
					      drain_local_pages_ipi, NULL,
					      true));
	else
		drain_local_pages();
	for_each_possible_cpu(cpu) {
		if (cpu != smp_processor_id() &&
		    (!ipi || !on_each_cpu_reaches(cpu)))
			drain_pages_ask(cpu);
	}
}

/* --- allocation ------------------------------------------------------- */

static bool zone_watermark_ok(const struct zone *zone, unsigned int order,
			      unsigned long mark, unsigned int alloc_flags)
{
	long min = (long)mark;
	long free = (long)zone->free_pages - (1L << order) + 1;

	if (alloc_flags & ALLOC_HIGH)
		min -= min / 2;
	if (free <= min)
		return false;
	for (unsigned int o = order; o < MAX_ORDER; o++) {
		if (zone->free_area[o].nr_free)
			return true;
	}
	return order == 0 && free > 0;
}

/*
 * Linux's zone_statistics(): an allocation that zone z gave, preferring
 * preferred's node, counted in each zone's numa_events[cpu] (interrupts off:
 * only the owner writes them).
 */
static void zone_statistics(struct zone *preferred, struct zone *z)
{
	unsigned int cpu = arch_cpu_id();
	unsigned long *events = z->numa_events[cpu];
	unsigned long flags = arch_irq_save();

	if (zone_to_nid(z) == zone_to_nid(preferred)) {
		events[NUMA_HIT]++;
	} else {
		events[NUMA_MISS]++;
		preferred->numa_events[cpu][NUMA_FOREIGN]++;
	}
	events[zone_to_nid(z) == cpu_to_node(cpu) ? NUMA_LOCAL : NUMA_OTHER]++;
	arch_irq_restore(flags);
}

unsigned long node_numa_event(int nid, enum numa_stat_item item)
{
	struct pglist_data *pgdat;
	unsigned long sum = 0;
	unsigned int cpu;

	if (nid < 0 || nid >= MAX_NUMNODES)
		return 0;
	pgdat = NODE_DATA(nid);
	if (!pgdat)
		return 0;
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		const struct zone *zone = &pgdat->node_zones[z];

		for_each_possible_cpu(cpu) {
			const struct per_cpu_pages *pcp = &zone->pcp[cpu];
			bool local = cpu_to_node(cpu) == nid;
			unsigned long fast = pcp_fast_hits(pcp);

			sum += READ_ONCE(zone->numa_events[cpu][item]);
			if (item == NUMA_HIT ||
			    item == (local ? NUMA_LOCAL : NUMA_OTHER))
				sum += fast;
		}
	}
	return sum;
}

/*
 * A block from this CPU's list for its order, or straight from the buddy
 * lists; checked as it leaves them (rmqueue_bulk for the lists).
 */
static struct page *rmqueue(struct zone *zone, unsigned int order)
{
	struct page *page;
	unsigned long flags;

	if (pcp_serves(zone, order))
		return rmqueue_pcplist(zone, order);
	spin_lock_irqsave(&zone->lock, flags);
	page = __rmqueue_smallest(zone, order);
	spin_unlock_irqrestore(&zone->lock, flags);
	if (!page || !check_new_page(page, order))
		return NULL;	/* none, or reported and never handed out */
	arch_alloc_page(page, order);
	return page;
}

/*
 * What one allocation works from (Linux's struct alloc_context): the
 * zonelist of the preferred node, the highest zone gfp allows, and the
 * first zone of the list at or below it (NULL: none), against which
 * numa_hit and numa_miss are counted.
 */
struct alloc_context {
	struct zonelist *zonelist;
	enum zone_type highest_zoneidx;
	struct zone *preferred_zone;
};

/* The first entry from z on whose zone ac may use (its end: NULL zone). */
static struct zoneref *next_zone_allowed(struct zoneref *z,
					 const struct alloc_context *ac)
{
	while (z->zone && z->zone_idx > (int)ac->highest_zoneidx)
		z++;
	return z;
}

#define for_each_zone_zonelist(zone, z, ac)				\
	for (z = next_zone_allowed((ac)->zonelist->_zonerefs, ac);	\
	     ((zone) = z->zone); z = next_zone_allowed(z + 1, ac))

static void prepare_alloc_context(gfp_t gfp, int nid, struct alloc_context *ac)
{
	struct zoneref *zp;
	struct zone *zone;

	ac->zonelist = node_zonelist(nid, gfp);
	ac->highest_zoneidx = gfp_zone(gfp);
	ac->preferred_zone = NULL;
	for_each_zone_zonelist(zone, zp, ac) {
		ac->preferred_zone = zone;
		break;
	}
}

/*
 * Try each zone of the zonelist the allocation may use, in order; NULL
 * if none can give. A zone that cannot, but has a deferred part, grows
 * and is tried again (Linux's get_page_from_freelist does the same): at
 * most once per unit it has left.
 */
static struct page *get_page_from_freelist(gfp_t gfp, unsigned int order,
					   unsigned int alloc_flags,
					   const struct alloc_context *ac)
{
	struct zoneref *zp;
	struct zone *zone;

	for_each_zone_zonelist(zone, zp, ac) {
		struct page *page;

		if (!zone->managed_pages)
			continue;
		do {
			if (!(alloc_flags & ALLOC_NO_WATERMARKS) &&
			    !zone_watermark_ok(zone, order,
					       min_wmark_pages(zone),
					       alloc_flags))
				continue;	/* to the growth */
			page = rmqueue(zone, order);
			if (page) {
				zone_statistics(ac->preferred_zone, zone);
				prep_new_page(page, order, gfp, alloc_flags);
				return page;
			}
		} while (deferred_grow_zone(zone, order));
	}
	return NULL;
}

/*
 * Would an ordinary allocation of this gfp and order have to dip into
 * the reserve: no zone it may use is above its low watermark, nor can
 * grow (deferred init)? SLAB asks
 * before it turns a reserve slab into an ordinary one (the low mark, not
 * the min one, so that it does not flip back at the next allocation).
 * Without the zones' locks: an answer that is stale by a page is fine.
 */
bool pfmemalloc_needed(gfp_t gfp, unsigned int order)
{
	struct alloc_context ac;
	struct zoneref *zp;
	struct zone *zone;

	prepare_alloc_context(gfp, numa_mem_id(), &ac);
	for_each_zone_zonelist(zone, zp, &ac) {
		if (zone->managed_pages &&
		    (zone_watermark_ok(zone, order, low_wmark_pages(zone), 0) ||
		     zone_has_deferred(zone)))
			return false;
	}
	return true;
}

static void warn_alloc(gfp_t gfp, unsigned int order, int nid)
{
	struct zone *zone;

	if ((gfp & __GFP_NOWARN) || failure_reports >= MAX_FAILURE_REPORTS)
		return;
	failure_reports++;
	pr_warn("page allocation failure: order:%u, mode:%#x(zone %s), nid=%d\n",
		order, gfp, NODE_DATA(nid)->node_zones[gfp_zone(gfp)].name, nid);
	for_each_zone(zone) {
		if (zone->managed_pages)
			pr_warn("Node %d %s free:%lukB min:%lukB managed:%lukB\n",
				zone_to_nid(zone), zone->name, zone->free_pages << 2,
				min_wmark_pages(zone) << 2,
				zone->managed_pages << 2);
	}
	if (failure_reports == MAX_FAILURE_REPORTS)
		pr_warn("page allocation failure: further reports suppressed\n");
}

/* Section 8: reclaim, retry, up to RECLAIM_PRIORITY + 1 times. */
static struct page *alloc_pages_direct_reclaim(gfp_t gfp, unsigned int order,
					       unsigned int alloc_flags,
					       const struct alloc_context *ac)
{
	struct page *page = NULL;

	if (!gfp_may_reclaim(gfp))
		return NULL;
	for (int priority = RECLAIM_PRIORITY; priority >= 0 && !page;
	     priority--) {
		try_to_free_pages(gfp, order, priority);
		page = get_page_from_freelist(gfp, order, alloc_flags, ac);
		if (!(gfp & __GFP_DIRECT_RECLAIM))
			break;	/* one look at this CPU's own lists */
	}
	return page;
}

static __noinline struct page *alloc_pages_slow(gfp_t gfp, unsigned int order,
						int nid)
{
	unsigned int alloc_flags = ALLOC_WMARK_MIN;
	struct alloc_context ac;
	struct page *page;

	if (order >= MAX_ORDER) {
		WARN_ON_ONCE(!(gfp & __GFP_NOWARN));
		return NULL;
	}
	if (unlikely(READ_ONCE(fail_page_alloc.enabled)) &&
	    should_fail_alloc_page(gfp, order))
		return NULL;	/* injected (section 7): no failure report */
	if (gfp & __GFP_HIGH)
		alloc_flags |= ALLOC_HIGH;
	prepare_alloc_context(gfp, nid, &ac);
	page = get_page_from_freelist(gfp, order, alloc_flags, &ac);
	if (!page && gfp_pfmemalloc_allowed(gfp))
		page = get_page_from_freelist(gfp, order, ALLOC_NO_WATERMARKS,
					      &ac);
	if (!page)
		page = alloc_pages_direct_reclaim(gfp, order, alloc_flags, &ac);
	if (!page)
		warn_alloc(gfp, order, nid);
	return page;
}

/* A block from the fast path, made compound or zeroed as gfp asks. */
static __noinline struct page *finish_new_page(struct page *page,
					       unsigned int order, gfp_t gfp)
{
	if (gfp & __GFP_ZERO)
		memset(page_address(page), 0, PAGE_SIZE << order);
	if (order && (gfp & __GFP_COMP))
		prep_compound_page(page, order);
	return page;
}

int numa_node_id(void)
{
	return cpu_to_node(arch_cpu_id());
}

int cpu_to_mem(unsigned int cpu)
{
	if (WARN_ON(cpu >= NR_CPUS))
		return 0;
	return READ_ONCE(cpu_mem_node[cpu]);
}

/*
 * May the fast path serve this request from zone: no zone modifier or
 * debugging, and the zone at least the largest per-CPU block above its
 * min watermark (a little stricter than the slow path's
 * zone_watermark_ok() for the smaller orders, so that the test needs no
 * shift: near min the slow path decides, by the same rule)?
 */
static __always_inline bool pcp_fast_ok(const struct zone *zone, gfp_t gfp,
					unsigned int order)
{
	return order < NR_PCP_ORDERS && !(gfp & PCP_SLOW_GFP) &&
	       READ_ONCE(zone->free_pages) >=
		       min_wmark_pages(zone) + (1UL << PAGE_ALLOC_COSTLY_ORDER);
}

/*
 * Pop this CPU's list for order in zone, a restartable sequence
 * (kernel/rseq.h) that leaves the interrupt flag alone; NULL if the list
 * is empty or a drain is asked for (its gate: the caller takes the slow
 * path). Counted in the list's fast_hits, in one instruction after the
 * commit.
 */
static __always_inline struct page *rmqueue_pcp_fast(struct zone *zone,
						     unsigned int order)
{
	struct pcp_list *l;
	struct page *page;

	page = arch_rseq_pop((void *const *)&this_cpu_pcp(zone)->lists[order],
			     offsetof(struct pcp_list, pages),
			     offsetof(struct pcp_list, drain_pending),
			     (void **)&l);
	if (unlikely(!page))
		return NULL;
	arch_local_inc(&l->fast_hits);
	set_page_count(page, 1);
	page->alloc_order = order;
	kasan_alloc_pages(page, order);
	return page;
}

/*
 * What alloc_pages() does not do inline: a block to zero or to make
 * compound (the fast path, then finish_new_page()), the fast path on
 * this CPU's own zone when the CPUs' zones differ (several memory
 * nodes), and everything else, or what the fast path cannot serve, in
 * the slow path.
 */
static __noinline struct page *alloc_pages_cpu_zone(gfp_t gfp,
						    unsigned int order)
{
	struct zone *zone = READ_ONCE(pcp_fast_zone_all);
	struct page *page = NULL;

	if (zone == &no_zone && READ_ONCE(pcp_fast_zone_one) == &no_zone &&
	    !pcp_fast_paths_off())		/* several memory nodes */
		zone = pcp_fast_zone[arch_cpu_id()];
	if (pcp_fast_ok(zone, gfp, order))
		page = rmqueue_pcp_fast(zone, order);
	if (!page)
		return alloc_pages_slow(gfp, order, numa_mem_id());
	if (gfp & (__GFP_ZERO | __GFP_COMP))
		return finish_new_page(page, order, gfp);
	return page;
}

/*
 * The fast path (section 6): pop this CPU's list for the order in the
 * first zone of its memory node, a restartable sequence, with no other
 * check than the GFP flags and the zone's min watermark; a block to
 * finish (__GFP_ZERO, __GFP_COMP) goes out of line, everything else,
 * and an empty list, takes the slow path on that node. No call but
 * tail calls, so no stack frame. With one memory node every CPU has the
 * same zone, read from one variable (pcp_fast_zone_all); with several
 * each CPU's is found out of line (alloc_pages_cpu_zone()), so that the
 * one-node path does not wait on the CPU's number to find its zone.
 */
struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	struct zone *zone = READ_ONCE(pcp_fast_zone_all);
	struct page *page;

	if (unlikely((gfp & (__GFP_ZERO | __GFP_COMP)) ||
		     !pcp_fast_ok(zone, gfp, order)))
		return alloc_pages_cpu_zone(gfp, order);
	page = rmqueue_pcp_fast(zone, order);
	if (unlikely(!page))
		return alloc_pages_slow(gfp, order, numa_mem_id());
	return page;
}

/* A node id __alloc_pages() takes: online, with a pg_data_t. */
static bool alloc_nid_ok(int nid)
{
	return nid >= 0 && nid < MAX_NUMNODES && node_online(nid) &&
	       NODE_DATA(nid);
}

/* __alloc_pages() of another node, or __GFP_THISNODE: the slow path. */
static __noinline struct page *alloc_pages_nid(gfp_t gfp, unsigned int order,
					       int nid)
{
	if (WARN_ON(!alloc_nid_ok(nid)))
		return NULL;
	return alloc_pages_slow(gfp, order, nid);
}

/*
 * This CPU's memory node (online: only another needs checking) is a
 * tail call to alloc_pages(), without a frame.
 */
struct page *__alloc_pages(gfp_t gfp, unsigned int order, int preferred_nid)
{
	if (preferred_nid == numa_mem_id() && !(gfp & __GFP_THISNODE))
		return alloc_pages(gfp, order);
	return alloc_pages_nid(gfp, order, preferred_nid);
}

struct page *alloc_pages_node(int nid, gfp_t gfp, unsigned int order)
{
	if (nid == NUMA_NO_NODE)
		nid = numa_mem_id();
	return __alloc_pages(gfp, order, nid);
}

static __noinline void free_pages_slow(struct page *page, unsigned int order,
				       unsigned long caller)
{
	if (free_pages_prepare(page, order, caller))
		free_the_page(page, order);
}

/*
 * Is page, by its address alone, a struct page of RAM (in a 2 MiB chunk
 * that is RAM through and through), and order one of the per-CPU lists'?
 */
static __always_inline bool free_page_ptr_ok(const struct page *page,
					     unsigned int order)
{
	unsigned long off = (unsigned long)page - (unsigned long)vmemmap;

	/* pfn_in_ram_chunk() bounds the pfn too. */
	return order < NR_PCP_ORDERS && !(off % sizeof(struct page)) &&
	       pfn_in_ram_chunk(off / sizeof(struct page));
}

/*
 * The rest of the fast path's checks but the flags: not a tail, exactly
 * our one reference (a page on a per-CPU list has none: a double free
 * fails here), the order it was allocated with.
 */
static __always_inline bool free_page_refs_ok(const struct page *page,
					      unsigned int order)
{
	return !(page->compound_head & 1) && page_ref_count(page) == 1 &&
	       page->alloc_order == order;
}

/*
 * The last reference dropped with plain stores (ours is the only one,
 * nobody can take another), then a push onto this CPU's list for order
 * in zone, a restartable sequence; a list at its limit or with a drain
 * asked for (its gate) takes the slow path.
 */
static __always_inline void free_page_to_pcp(struct page *page,
					     struct zone *zone,
					     unsigned int order)
{
	set_page_count(page, 0);
	page->alloc_order = 0;
	page->mapping = NULL;
	kasan_free_pages(page, order);
	if (unlikely(!arch_rseq_push((void *const *)&this_cpu_pcp(zone)->lists[order],
				     offsetof(struct pcp_list, pages),
				     offsetof(struct pcp_list, drain_pending),
				     page, NULL)))
		free_unref_page(page, zone, order);
}

/*
 * A compound page of orders 1-3 (SLAB's multi-page slabs), as the
 * fast path takes it: PG_head its only flag, its compound order the
 * one freed; free_page_refs_ok() does the rest.
 */
static __always_inline bool free_compound_fast_ok(const struct page *page,
						  unsigned long flags,
						  unsigned int order)
{
	return flags == (1UL << PG_head) && order &&
	       page[1].compound_order == order;
}

/*
 * __free_pages() of a page of another zone than pcp_fast_zone_one, or
 * with flags, or while the fast paths are off: the same checks with the
 * flags and the switch apart, the zone from the page. A compound page
 * with nothing else wrong takes the fast path too, its tails cleaned
 * first as free_pages_clean() would; anything wrong or any debugging
 * goes to free_pages_prepare(), which reports it.
 */
static __noinline void free_pages_other_zone(struct page *page,
					     unsigned int order,
					     unsigned long caller)
{
	unsigned long flags = page->flags & PAGE_FLAGS_MASK;

	if (unlikely((flags && !free_compound_fast_ok(page, flags, order)) ||
		     pcp_fast_paths_off() || !free_page_refs_ok(page, order))) {
		free_pages_slow(page, order, caller);
		return;
	}
	if (flags)
		destroy_compound_page(page, order);
	free_page_to_pcp(page, page_zone(page), order);
}

/*
 * The fast path (section 6): checks in free_page_ptr_ok(), one compare
 * of the flags word that finds at once no flags (reserved, buddy, slab,
 * head, pfmemalloc ...), the zone of pcp_fast_zone_one and the fast
 * paths on (pcp_fast_zone_bits), the rest in free_page_refs_ok(), then
 * free_page_to_pcp(). Everything else takes the slow paths.
 */
void __free_pages(struct page *page, unsigned int order)
{
	unsigned long flags;

	if (unlikely(!free_page_ptr_ok(page, order))) {
		free_pages_slow(page, order, _RET_IP_);
		return;
	}
	flags = READ_ONCE(page->flags) & (PAGE_FLAGS_MASK | PAGE_ZONEID_MASK);
	if (unlikely(flags != READ_ONCE(pcp_fast_zone_bits))) {
		free_pages_other_zone(page, order, _RET_IP_);
		return;
	}
	if (unlikely(!free_page_refs_ok(page, order))) {
		free_pages_slow(page, order, _RET_IP_);
		return;
	}
	free_page_to_pcp(page, READ_ONCE(pcp_fast_zone_one), order);
}

unsigned long __get_free_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp, order);

	return page ? (unsigned long)page_address(page) : 0;
}

unsigned long get_zeroed_page(gfp_t gfp)
{
	return __get_free_pages(gfp | __GFP_ZERO, 0);
}

void free_pages(unsigned long addr, unsigned int order)
{
	if (!addr)
		return;
	if (!IS_ALIGNED(addr, PAGE_SIZE) || !virt_addr_valid((void *)addr)) {
		bad_page(NULL, addr, order, REPORT_BAD_PAGE_NOT_DIRECT_MAP,
			 _RET_IP_);
		return;
	}
	__free_pages(virt_to_page((void *)addr), order);
}

/* --- page references (section 10) -------------------------------------- */

/* Drop a reference that is not the last; false if the count is 1 or less. */
static bool page_ref_put_not_last(struct page *page)
{
	int count = page_ref_count(page);

	do {
		if (count <= 1)
			return false;
	} while (!atomic_try_cmpxchg(&page->_refcount, &count, count - 1));
	return true;
}

void get_page(struct page *page)
{
	if (unlikely(!page_in_mem_map(page))) {
		bad_page(page, 0, 0, REPORT_BAD_PAGE_NOT_RAM, _RET_IP_);
		return;
	}
	page = compound_head(page);
	if (unlikely(page_ref_count(page) <= 0)) {
		bad_page(page, 0, compound_order(page),
			 REPORT_BAD_PAGE_REF_ZERO, _RET_IP_);
		return;
	}
	page_ref_inc(page);
}

void put_page(struct page *page)
{
	if (unlikely(!page_in_mem_map(page))) {
		bad_page(page, 0, 0, REPORT_BAD_PAGE_NOT_RAM, _RET_IP_);
		return;
	}
	page = compound_head(page);
	if (page_ref_put_not_last(page))
		return;
	if (unlikely(page_ref_count(page) <= 0)) {
		bad_page(page, 0, compound_order(page),
			 REPORT_BAD_PAGE_PUT_UNDERFLOW, _RET_IP_);
		return;
	}
	free_pages_slow(page, compound_order(page), _RET_IP_);
}

/* What is wrong with splitting page at order (REPORT_NONE: nothing). */
static enum report_kind split_page_problem(const struct page *page,
					   unsigned int order)
{
	if (!page_in_mem_map(page))
		return REPORT_BAD_PAGE_NOT_RAM;
	if (order >= MAX_ORDER)
		return REPORT_BAD_PAGE_ORDER;
	if (PageCompound(page))
		return REPORT_BAD_PAGE_SPLIT_COMPOUND;
	if (page_ref_count(page) <= 0)
		return REPORT_BAD_PAGE_REF_ZERO;
	if (page->alloc_order != order)
		return REPORT_BAD_PAGE_WRONG_ORDER;
	return REPORT_NONE;
}

void split_page(struct page *page, unsigned int order)
{
	enum report_kind problem = split_page_problem(page, order);

	if (problem != REPORT_NONE) {
		bad_page(page, 0, order, problem, _RET_IP_);
		return;
	}
	page->alloc_order = 0;
	for (unsigned long i = 1; i < (1UL << order); i++) {
		set_page_count(page + i, 1);
		page[i].alloc_order = 0;
	}
}

void *alloc_pages_exact(size_t size, gfp_t gfp)
{
	return alloc_pages_exact_nid(NUMA_NO_NODE, size, gfp);
}

void *alloc_pages_exact_nid(int nid, size_t size, gfp_t gfp)
{
	unsigned int order = get_order(size);
	unsigned long used = PFN_UP(size);
	struct page *page;

	if (!size)
		return NULL;
	page = alloc_pages_node(nid, gfp & ~__GFP_COMP, order);
	if (!page)
		return NULL;
	split_page(page, order);
	for (unsigned long i = used; i < (1UL << order); i++)
		__free_pages(page + i, 0);
	return page_address(page);
}

void free_pages_exact(void *virt, size_t size)
{
	struct page *page;

	if (!virt)
		return;
	page = virt_to_page(virt);
	for (unsigned long i = 0; i < PFN_UP(size); i++)
		__free_pages(page + i, 0);
}

/* --- init_on_alloc, init_on_free (section 7) ---------------------------- */

/* Linux's kstrtobool() values: 1/0, y/n, on/off; a bare name is on. */
static int init_on_setup(const char *val, bool *on)
{
	if (!val || !strcmp(val, "1") || !strcmp(val, "y") ||
	    !strcmp(val, "on"))
		*on = true;
	else if (!strcmp(val, "0") || !strcmp(val, "n") || !strcmp(val, "off"))
		*on = false;
	else
		return -EINVAL;
	return 0;
}

static int init_on_alloc_setup(char *val)
{
	return init_on_setup(val, &init_on_alloc);
}
kernel_param("init_on_alloc", init_on_alloc_setup);

static int init_on_free_setup(char *val)
{
	return init_on_setup(val, &init_on_free);
}
kernel_param("init_on_free", init_on_free_setup);

void init_mem_debugging_and_hardening(void)
{
	unsigned int init = 0;

	if (page_poisoning_enabled() &&
	    (READ_ONCE(init_on_alloc) || READ_ONCE(init_on_free))) {
		pr_info("mem auto-init: page_poison is on, will take precedence over init_on_alloc and init_on_free\n");
		WRITE_ONCE(init_on_alloc, false);
		WRITE_ONCE(init_on_free, false);
	}
	if (READ_ONCE(init_on_alloc) || READ_ONCE(init_on_free))
		init = PAGE_DEBUG_INIT;
	if (init)
		__atomic_fetch_or(&page_debug_flags, init, __ATOMIC_RELEASE);
	else
		__atomic_fetch_and(&page_debug_flags, ~PAGE_DEBUG_INIT,
				   __ATOMIC_RELEASE);
	pcp_fast_paths_update();
}

/* --- boot: handing memory over, watermarks ------------------------------ */

static void __free_pages_core(struct page *page, unsigned int order)
{
	struct zone *zone = page_zone(page);
	unsigned long n = 1UL << order;
	unsigned long flags;

	for (unsigned long i = 0; i < n; i++) {
		__ClearPageReserved(page + i);
		set_page_count(page + i, 0);
	}
	zone->managed_pages += n;
	totalram_pages += n;
	if (page_debug_active())
		free_pages_debug(page, order);
	spin_lock_irqsave(&zone->lock, flags);
	__free_one_page(page, page_to_pfn(page), zone, order);
	spin_unlock_irqrestore(&zone->lock, flags);
}

/* Free [start, end) in the largest aligned blocks that fit. */
void free_pfn_range(unsigned long start, unsigned long end)
{
	while (start < end) {
		unsigned int order = MAX_ORDER - 1;

		while (order && (!IS_ALIGNED(start, 1UL << order) ||
				 start + (1UL << order) > end))
			order--;
		__free_pages_core(pfn_to_page(start), order);
		start += 1UL << order;
	}
}

/* Integer square root, for min_free_kbytes. */
static unsigned long int_sqrt(unsigned long x)
{
	unsigned long r = 0;

	for (unsigned long bit = 1UL << 62; bit; bit >>= 2) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
	}
	return r;
}

/*
 * Linux's rule: min_free_kbytes = sqrt(16 * managed KiB), between 128 KiB
 * and 64 MiB, shared among zones by size; low and high are min plus a
 * quarter and a half of it.
 */
void setup_per_zone_wmarks(void)
{
	unsigned long pages_min;
	struct zone *zone;

	min_free_kbytes = clamp_val(int_sqrt((totalram_pages << 2) * 16),
				    128UL, 65536UL);
	pages_min = min_free_kbytes >> (PAGE_SHIFT - 10);
	for_each_zone(zone) {
		unsigned long min = totalram_pages ?
			pages_min * zone->managed_pages / totalram_pages : 0;

		zone->_watermark[WMARK_MIN] = min;
		zone->_watermark[WMARK_LOW] = min + min / 4;
		zone->_watermark[WMARK_HIGH] = min + min / 2;
	}
}

/* Room in blocks of order for a list under high (mm/internal.h). */
static unsigned int pcp_list_size(int high, unsigned int order)
{
	return ((unsigned int)(high - 1) >> order) + 1;
}

/*
 * One CPU's lists in a zone, in bytes, a whole number of cache lines
 * (struct per_cpu_pages is one).
 */
static size_t pcp_lists_bytes(int high)
{
	size_t bytes = 0;

	for (unsigned int o = 0; o < NR_PCP_ORDERS; o++)
		bytes += struct_size((struct pcp_list *)NULL, pages,
				     pcp_list_size(high, o));
	return ALIGN(bytes, sizeof(struct per_cpu_pages));
}

/*
 * Lay out one CPU's lists at mem and set them up; batch pages per
 * refill and drain, high in pages for all orders.
 */
static void pcp_lists_init(struct per_cpu_pages *pcp, void *mem, int batch,
			   int high)
{
	memset(pcp, 0, sizeof(*pcp));
	pcp->batch = batch;
	pcp->high = high;
	for (unsigned int o = 0; o < NR_PCP_ORDERS; o++) {
		struct pcp_list *l = mem;

		memset(l, 0, sizeof(*l));
		l->size = (u16)pcp_list_size(high, o);
		l->batch = (u8)max(batch >> o, 1);
		pcp->lists[o] = l;
		mem = &l->pages[l->size];
	}
	pcp_set_limits(pcp, 0);
}

/*
 * Linux's zone_batchsize, roughly: a quarter of managed/1024 pages, at
 * most 63, for order 0 (counting the pages deferred init has still to
 * give: Linux resizes the lists when its deferred init is done); high is
 * six batches, over all orders (Linux's pcp->high before it became
 * adaptive), and room for two blocks of the largest order however small
 * the zone. A list of order o is refilled with batch >> o blocks, at
 * least one. The lists of every possible CPU come from one allocation
 * on the zone's node, kept for good; a zone without pages, or whose
 * node cannot give them, keeps pcp_list_none, and its blocks go
 * straight to and from the buddy lists.
 */
static void setup_pcp_lists(struct zone *zone)
{
	unsigned long pages = zone->managed_pages + zone_deferred_pages(zone);
	int batch = (int)clamp_val(pages / 4096, 1UL, 63UL);
	int high = max(6 * batch, 2 << PAGE_ALLOC_COSTLY_ORDER);
	size_t bytes = pcp_lists_bytes(high);
	unsigned int cpu;
	char *mem;

	/* the fast paths' fields share a line (mm/internal.h) */
	BUILD_BUG_ON(sizeof(struct per_cpu_pages) != 64);
	if (!zone->managed_pages)
		return;
	mem = alloc_pages_exact_nid(zone_to_nid(zone),
				    bytes * num_possible_cpus(),
				    GFP_NOWAIT | __GFP_THISNODE | __GFP_NOWARN);
	if (!mem) {
		pr_warn("%s zone: no memory for per-CPU page lists\n",
			zone->name);
		return;
	}
	for_each_possible_cpu(cpu) {
		pcp_lists_init(&zone->pcp[cpu], mem, batch, high);
		mem += bytes;
	}
}

/* --- zonelists (Linux's build_all_zonelists) ---------------------------- */

/*
 * Linux's find_next_best_node(): node itself first, then the nearest
 * node not yet used (node_distance() from node), ties to the lower id;
 * NUMA_NO_NODE when all are used. (Linux also steers ties away from
 * nodes with CPUs and spreads them; not here.)
 */
static int find_next_best_node(int node, unsigned long *used)
{
	int best = NUMA_NO_NODE, best_dist = 0;

	if (!(*used & (1UL << node))) {
		*used |= 1UL << node;
		return node;
	}
	for (int n = 0; n < MAX_NUMNODES; n++) {
		int dist;

		if (!NODE_DATA(n) || (*used & (1UL << n)))
			continue;
		dist = node_distance(node, n);
		if (best == NUMA_NO_NODE || dist < best_dist) {
			best = n;
			best_dist = dist;
		}
	}
	if (best != NUMA_NO_NODE)
		*used |= 1UL << best;
	return best;
}

/* pgdat's populated zones, highest first, at *zp on; the next free slot. */
static struct zoneref *build_zonerefs_node(struct pglist_data *pgdat,
					   struct zoneref *zp)
{
	for (int z = MAX_NR_ZONES - 1; z >= 0; z--) {
		struct zone *zone = &pgdat->node_zones[z];

		if (!populated_zone(zone))
			continue;
		zp->zone = zone;
		zp->zone_idx = zone_idx(zone);
		zp++;
	}
	return zp;
}

static void build_zonelists(struct pglist_data *pgdat)
{
	struct zoneref *zp = pgdat->node_zonelists[ZONELIST_FALLBACK]._zonerefs;
	unsigned long used = 0;
	int n;

	while ((n = find_next_best_node(pgdat->node_id, &used)) != NUMA_NO_NODE)
		zp = build_zonerefs_node(NODE_DATA(n), zp);
	zp->zone = NULL;
	zp = build_zonerefs_node(pgdat,
			pgdat->node_zonelists[ZONELIST_NOFALLBACK]._zonerefs);
	zp->zone = NULL;
}

/* Linux's local_memory_node(): the node of nid's first zonelist zone. */
static int local_memory_node(int nid)
{
	struct zone *zone =
		NODE_DATA(nid)->node_zonelists[ZONELIST_FALLBACK]._zonerefs[0].zone;

	return zone ? zone_to_nid(zone) : nid;
}

void build_all_zonelists(void)
{
	struct pglist_data *pgdat;
	unsigned int cpu;

	for_each_online_pgdat(pgdat)
		build_zonelists(pgdat);
	for_each_possible_cpu(cpu) {
		int nid = cpu_to_node(cpu);

		WRITE_ONCE(cpu_mem_node[cpu],
			   NODE_DATA(nid) ? local_memory_node(nid) : 0);
	}
}

/*
 * Each CPU's fast-path zone: the first zone of its memory node's
 * zonelist that GFP_KERNEL may use and that has pages.
 */
static void setup_pcp_fast_zones(void)
{
	struct zone *all = &no_zone;
	bool first = true;
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct alloc_context ac;
		struct zoneref *zp;
		struct zone *zone;

		prepare_alloc_context(GFP_KERNEL, cpu_mem_node[cpu], &ac);
		for_each_zone_zonelist(zone, zp, &ac) {
			if (zone->managed_pages) {
				pcp_fast_zone[cpu] = zone;
				break;
			}
		}
		if (first)
			all = pcp_fast_zone[cpu];
		else if (pcp_fast_zone[cpu] != all)
			all = &no_zone;
		first = false;
	}
	/* Before the bits (x86 keeps stores in order): a free sees it. */
	WRITE_ONCE(pcp_fast_zone_one, all);
	barrier();
	pcp_fast_paths_update();
}

void memblock_free_all(void)
{
	phys_addr_t start, end;
	struct zone *zone;
	int nid;
	u64 i;

	for_each_zone(zone)
		spin_lock_init(&zone->lock);
	for_each_free_mem_range(&memblock, i, NUMA_NO_NODE, &start, &end, &nid) {
		BUG_ON(nid < 0 || nid >= MAX_NUMNODES || !NODE_DATA(nid));
		free_pfn_range(PFN_UP(start),
			       min(PFN_DOWN(end), NODE_DATA(nid)->first_deferred_pfn));
	}
	for_each_zone(zone)
		setup_pcp_lists(zone);
	setup_per_zone_wmarks();
	setup_pcp_fast_zones();
}

/* --- counters ---------------------------------------------------------- */

unsigned long nr_free_pages(void)
{
	unsigned long sum = 0;
	struct zone *zone;

	for_each_zone(zone)
		sum += READ_ONCE(zone->free_pages);
	return sum;
}

unsigned long nr_pcp_pages(void)
{
	unsigned int cpu;
	unsigned long sum = 0;
	struct zone *zone;

	for_each_zone(zone) {
		for_each_possible_cpu(cpu)
			sum += pcp_pages(&zone->pcp[cpu]);
	}
	return sum;
}

long nr_allocated_pages(void)
{
	return (long)(totalram_pages - nr_free_pages() - nr_pcp_pages());
}
/* --- lock assertions, proven by tests/test_lockdep.c ------------------- */

/*
 * A zone of no pages (spanning none): its lists stay empty. Its locks
 * are classes of their own, named as the real ones.
 */
static __maybe_unused struct zone *empty_test_zone(void)
{
	static struct zone test_zone;
	struct zone *zone = &test_zone;

	memset(zone, 0, sizeof(*zone));
	zone->name = "lockdep-test";
	spin_lock_init(&zone->lock);
	for (unsigned int o = 0; o < MAX_ORDER; o++)
		INIT_LIST_HEAD(&zone->free_area[o].free_list);
	return zone;
}

/* An allocated page goes on the empty zone's list and comes back. */
static __maybe_unused void free_one_page_unlocked(void)
{
	struct zone *zone = empty_test_zone();
	struct page *page = alloc_page(GFP_KERNEL);

	if (!page)
		return;
	__free_one_page(page, page_to_pfn(page), zone, 0);
	del_from_free_list(page, zone, 0);
	__free_pages(page, 0);
}
LOCKDEP_ASSERT_TEST(__free_one_page, "&zone->lock", free_one_page_unlocked);

static __maybe_unused void rmqueue_smallest_unlocked(void)
{
	__rmqueue_smallest(empty_test_zone(), 0);
}
LOCKDEP_ASSERT_TEST(__rmqueue_smallest, "&zone->lock",
		    rmqueue_smallest_unlocked);

// SPDX-License-Identifier: GPL-2.0
/*
 * Page allocator debugging: page poisoning, debug_pagealloc, and
 * page_alloc_check() (interface in mm/page_debug.h).
 *
 * 1. Switches. page_debug_flags holds PAGE_DEBUG_POISON and
 *    PAGE_DEBUG_UNMAP. mm/page_alloc.c tests the word once on free
 *    (free_pages_prepare, and when boot hands memory over) and once on
 *    allocation (prep_new_page, before __GFP_ZERO), and calls
 *    page_debug_free()/page_debug_alloc() only if it is not 0.
 *
 * 2. Poisoning. A freed block's pages are filled with PAGE_POISON before
 *    they reach a free list or a per-CPU list. Before a block is handed
 *    out, each page is scanned a word at a time. A page that differs is
 *    reported once by report_poison(): the first bad byte's pfn and
 *    offset, the extent of the damage, 32 bytes around the first one and
 *    the stack of the allocation that found it. Recovery: the page is
 *    poisoned again and handed out as usual (its content is undefined
 *    anyway), so nothing leaves circulation and no accounting changes.
 *
 * 3. debug_pagealloc. After poisoning, the freed pages are unmapped from
 *    the direct map (arch_kernel_map_pages); on allocation they are mapped
 *    first, then checked. The arch page fault handlers ask
 *    debug_pagealloc_fault() to name the free page behind a fault.
 *
 * 4. page_alloc_check() walks all lists with the per-CPU lock, then the
 *    zone lock, held (the allocator's own order) and reports what it
 *    finds; it changes nothing.
 */
#include "arch/arch.h"
#include "kernel/errno.h"
#include "kernel/bug.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/irq.h"
#include "kernel/report.h"
#include "kernel/smp.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/internal.h"
#include "mm/kasan.h"
#include "mm/page_debug.h"

#define POISON_WORD		(PAGE_POISON * 0x0101010101010101UL)
#define DUMP_BYTES		32
#define DUMP_ROW		16
#define CHECK_MAX_REPORTS	16

unsigned int page_debug_flags;
struct page_debug_stats page_debug_stats;

static void stat_add(unsigned long *counter, unsigned long n)
{
	__atomic_fetch_add(counter, n, __ATOMIC_RELAXED);
}

/* --- poison ----------------------------------------------------------- */

/* Offset of the first byte of the page at mem that is not poison, or PAGE_SIZE. */
static unsigned long first_bad_byte(const u8 *mem)
{
	const unsigned long *word = (const unsigned long *)mem;
	unsigned long i;

	for (i = 0; i < PAGE_SIZE / sizeof(long); i++) {
		if (word[i] != POISON_WORD)
			break;
	}
	if (i == PAGE_SIZE / sizeof(long))
		return PAGE_SIZE;
	for (i *= sizeof(long); mem[i] == PAGE_POISON; i++)
		;
	return i;
}

/* Offset of the last byte that is not poison (first is a bad one). */
static unsigned long last_bad_byte(const u8 *mem, unsigned long first)
{
	unsigned long i = PAGE_SIZE - 1;

	while (i > first && mem[i] == PAGE_POISON)
		i--;
	return i;
}

static void dump_bytes(const u8 *mem, unsigned long start)
{
	for (unsigned long row = start; row < start + DUMP_BYTES; row += DUMP_ROW) {
		char line[DUMP_ROW * 3 + 1];

		scnprint_hex(line, sizeof(line), mem + row, DUMP_ROW);
		pr_err("page_poison: %03lx:%s\n", row, line);
	}
}

/*
 * The one report for a corrupted free page: a BUG line a test can look
 * for, where the damage lies, the bytes around its start, the stack.
 */
static void report_poison(const struct page *page, const u8 *mem,
			  unsigned long first)
{
	unsigned long last = last_bad_byte(mem, first), bad = 0, start;
	u8 flip = mem[first] ^ PAGE_POISON;

	for (unsigned long i = first; i <= last; i++)
		bad += mem[i] != PAGE_POISON;
	report_kind(REPORT_PAGE_POISON);
	pr_err("BUG: page_poison: pfn 0x%lx corrupted at offset 0x%lx (byte 0x%02x, expected 0x%02x)\n",
	       page_to_pfn(page), first, mem[first], PAGE_POISON);
	pr_err("page_poison: %lu bad bytes in offsets 0x%lx-0x%lx%s\n", bad,
	       first, last,
	       bad == 1 && !(flip & (flip - 1)) ? " (a single bit flip)" : "");
	start = max_t(unsigned long, ALIGN_DOWN(first, DUMP_ROW), DUMP_ROW) - DUMP_ROW;
	dump_bytes(mem, min(start, PAGE_SIZE - DUMP_BYTES));
	pr_err("page_poison: written after it was freed; poisoned again and handed out\n");
	dump_stack();
}

static void poison_page(struct page *page)
{
	memset(page_address(page), PAGE_POISON, PAGE_SIZE);
}

static void check_poison_page(struct page *page)
{
	u8 *mem = page_address(page);
	unsigned long first = first_bad_byte(mem);

	if (likely(first == PAGE_SIZE))
		return;
	stat_add(&page_debug_stats.corrupted, 1);
	report_poison(page, mem, first);
	poison_page(page);
}

/* --- the allocator's hooks -------------------------------------------- */

static void map_pages(struct page *page, unsigned long n, bool map)
{
	arch_kernel_map_pages(page, (int)n, map);
	stat_add(map ? &page_debug_stats.mapped : &page_debug_stats.unmapped, n);
}

void page_debug_free(struct page *page, unsigned int order)
{
	unsigned int flags = READ_ONCE(page_debug_flags);
	unsigned long n = 1UL << order;

	if (flags & PAGE_DEBUG_POISON) {
		for (unsigned long i = 0; i < n; i++)
			poison_page(page + i);
		stat_add(&page_debug_stats.poisoned, n);
	}
	if (flags & PAGE_DEBUG_UNMAP)
		map_pages(page, n, false);
}

void page_debug_alloc(struct page *page, unsigned int order)
{
	unsigned int flags = READ_ONCE(page_debug_flags);
	unsigned long n = 1UL << order;

	if (flags & PAGE_DEBUG_UNMAP)
		map_pages(page, n, true);
	if (flags & PAGE_DEBUG_POISON) {
		for (unsigned long i = 0; i < n; i++)
			check_poison_page(page + i);
		stat_add(&page_debug_stats.checked, n);
	}
}

/* Poison every page of every free block (the per-CPU lists are empty). */
static void poison_free_pages(void)
{
	bool unmapped = debug_pagealloc_enabled();
	struct zone *zone;

	for_each_zone(zone) {
		unsigned long flags;

		spin_lock_irqsave(&zone->lock, flags);
		for (unsigned int o = 0; o < MAX_ORDER; o++) {
			struct page *page;

			list_for_each_entry(page, &zone->free_area[o].free_list, lru) {
				if (unmapped)
					arch_kernel_map_pages(page, 1 << o, true);
				/* Free pages are invalid to KASAN: not here. */
				kasan_alloc_pages(page, o);
				for (unsigned long i = 0; i < (1UL << o); i++)
					poison_page(page + i);
				kasan_free_pages(page, o);
				if (unmapped)
					arch_kernel_map_pages(page, 1 << o, false);
			}
		}
		spin_unlock_irqrestore(&zone->lock, flags);
	}
}

void page_poisoning_set(bool on)
{
	if (on == page_poisoning_enabled())
		return;
	if (on) {
		drain_all_pages();
		poison_free_pages();
		__atomic_fetch_or(&page_debug_flags, PAGE_DEBUG_POISON,
				  __ATOMIC_RELEASE);
		init_mem_debugging_and_hardening();	/* poison wins */
	} else {
		__atomic_fetch_and(&page_debug_flags, ~PAGE_DEBUG_POISON,
				   __ATOMIC_RELEASE);
	}
	pcp_fast_paths_update();
}

bool debug_pagealloc_fault(unsigned long addr, unsigned long *pfn)
{
	if (!debug_pagealloc_enabled() || !virt_addr_valid((void *)addr) ||
	    arch_kernel_page_present(addr & PAGE_MASK))
		return false;
	*pfn = virt_to_pfn((void *)addr);
	return true;
}

/* --- command line ------------------------------------------------------- */

/* "on" or "off" (a bare name means on) into a page_debug_flags bit. */
static int set_flag_param(const char *val, unsigned int bit)
{
	if (!val || !strcmp(val, "on") || !strcmp(val, "1"))
		page_debug_flags |= bit;
	else if (!strcmp(val, "off") || !strcmp(val, "0"))
		page_debug_flags &= ~bit;
	else
		return -EINVAL;
	return 0;
}

static int page_poison_setup(char *val)
{
	return set_flag_param(val, PAGE_DEBUG_POISON);
}
kernel_param("page_poison", page_poison_setup);

/* Read before setup_arch() builds the direct map: boot only. */
static int debug_pagealloc_setup(char *val)
{
	return set_flag_param(val, PAGE_DEBUG_UNMAP);
}
kernel_param("debug_pagealloc", debug_pagealloc_setup);

/* --- page_alloc_check ----------------------------------------------------- */

struct check {
	int problems;
};

static void problem(struct check *c, enum report_kind kind,
		    const char *fmt, ...) __printf(3, 4);

static void problem(struct check *c, enum report_kind kind,
		    const char *fmt, ...)
{
	char msg[160];
	va_list args;

	if (++c->problems > CHECK_MAX_REPORTS)
		return;
	report_kind(kind);
	va_start(args, fmt);
	vscnprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	pr_err("page_alloc_check: %s\n", msg);
}

/* Is p a struct page of mem_map for RAM, safe to read? */
static bool valid_page_ptr(const struct page *p)
{
	unsigned long off = (unsigned long)p - (unsigned long)vmemmap;

	return (unsigned long)p >= (unsigned long)vmemmap &&
	       off % sizeof(struct page) == 0 &&
	       off / sizeof(struct page) < max_pfn &&
	       pfn_valid(off / sizeof(struct page));
}

/* The free block of order >= min_order that contains pfn, if any. */
static struct page *free_block_covering(unsigned long pfn,
					unsigned int min_order)
{
	for (unsigned int k = min_order; k < MAX_ORDER; k++) {
		unsigned long head = ALIGN_DOWN(pfn, 1UL << k);
		struct page *p;

		if (!pfn_valid(head))
			continue;
		p = pfn_to_page(head);
		if (PageBuddy(p) && p->private >= k)
			return p;
	}
	return NULL;
}

/*
 * Poison and mapping of the n free pages from page, as the switches
 * require (mapped for the moment, all at once, to read the poison).
 */
static void check_free_pages_debug(struct check *c, struct page *page,
				   unsigned long n)
{
	unsigned int flags = READ_ONCE(page_debug_flags);
	unsigned long pfn = page_to_pfn(page);

	for (unsigned long i = 0; (flags & PAGE_DEBUG_UNMAP) && i < n; i++) {
		if (arch_kernel_page_present((unsigned long)page_address(page + i)))
			problem(c, REPORT_PAGE_CHECK_MAPPED,
			"free pfn 0x%lx is still mapped", pfn + i);
	}
	if (!(flags & PAGE_DEBUG_POISON))
		return;
	if (flags & PAGE_DEBUG_UNMAP)
		arch_kernel_map_pages(page, (int)n, true);
	for (unsigned long i = 0; i < n; i++) {
		unsigned long first;

		kasan_alloc_pages(page + i, 0);	/* free: invalid to KASAN */
		first = first_bad_byte(page_address(page + i));
		kasan_free_pages(page + i, 0);
		if (first != PAGE_SIZE)
			problem(c, REPORT_PAGE_CHECK_POISON,
			"free pfn 0x%lx: poison overwritten at offset 0x%lx",
				pfn + i, first);
	}
	if (flags & PAGE_DEBUG_UNMAP)
		arch_kernel_map_pages(page, (int)n, false);
}

/* The pages of a free block after its first one: no state of their own. */
static void check_block_pages(struct check *c, struct page *page,
			      unsigned int order)
{
	unsigned long pfn = page_to_pfn(page);

	for (unsigned long i = 1; i < (1UL << order); i++) {
		const struct page *p = page + i;

		if (!pfn_valid(pfn + i) || (p->flags & PAGE_FLAGS_MASK) ||
		    page_ref_count(p) || PageTail(p)) {
			problem(c, REPORT_PAGE_CHECK_NOT_CLEAN,
			"pfn 0x%lx inside the free order-%u block at 0x%lx is not clean (flags %#lx, refcount %d)",
				pfn + i, order, pfn, p->flags & PAGE_FLAGS_MASK,
				page_ref_count(p));
			return;
		}
	}
}

static void check_free_block(struct check *c, struct zone *zone,
			     struct page *page, unsigned int order)
{
	unsigned long pfn = page_to_pfn(page), n = 1UL << order;
	unsigned long buddy = pfn ^ n;
	struct page *outer;

	if (!PageBuddy(page) || page->private != order) {
		problem(c, REPORT_PAGE_CHECK_BLOCK,
			"pfn 0x%lx on the order-%u list: PG_buddy %d, order %lu",
			pfn, order, PageBuddy(page), page->private);
		return;
	}
	if (!IS_ALIGNED(pfn, n))
		problem(c, REPORT_PAGE_CHECK_BLOCK,
			"pfn 0x%lx: free block not aligned to its order %u",
			pfn, order);
	if (page_zone(page) != zone || !zone_spans_pfn(zone, pfn + n - 1))
		problem(c, REPORT_PAGE_CHECK_BLOCK,
			"pfn 0x%lx: order-%u block not inside zone %s",
			pfn, order, zone->name);
	if (page_ref_count(page))
		problem(c, REPORT_PAGE_CHECK_BLOCK,
			"pfn 0x%lx: free block with refcount %d", pfn,
			page_ref_count(page));
	check_block_pages(c, page, order);
	outer = order + 1 < MAX_ORDER ? free_block_covering(pfn, order + 1) : NULL;
	if (outer)
		problem(c, REPORT_PAGE_CHECK_OVERLAP,
			"pfn 0x%lx: order-%u block overlaps the free order-%lu block at 0x%lx",
			pfn, order, outer->private, page_to_pfn(outer));
	if (order < MAX_ORDER - 1 && zone_spans_pfn(zone, buddy) &&
	    pfn_valid(buddy) && PageBuddy(pfn_to_page(buddy)) &&
	    pfn_to_page(buddy)->private == order)
		problem(c, REPORT_PAGE_CHECK_BLOCK,
			"pfn 0x%lx: free buddies at order %u not merged",
			pfn, order);
	check_free_pages_debug(c, page, n);
}

/*
 * Walk a list of pages, at most limit entries, checking its links.
 * Returns the entries seen; fn checks each.
 */
static unsigned long walk_list(struct check *c, struct list_head *head,
			       unsigned long limit, const char *what,
			       void (*fn)(struct check *c, struct page *page,
					  void *arg),
			       void *arg)
{
	unsigned long n = 0;

	for (struct list_head *pos = head->next; pos != head; pos = pos->next) {
		struct page *page = list_entry(pos, struct page, lru);

		if (n++ >= limit) {
			problem(c, REPORT_PAGE_CHECK_LIST,
			"%s: more entries than counted", what);
			break;
		}
		if (!valid_page_ptr(page) || pos->next->prev != pos) {
			problem(c, REPORT_PAGE_CHECK_LIST,
			"%s: broken list entry %px", what, pos);
			break;
		}
		fn(c, page, arg);
	}
	return n;
}

struct free_list_arg {
	struct zone *zone;
	unsigned int order;
};

static void free_list_entry(struct check *c, struct page *page, void *arg)
{
	struct free_list_arg *a = arg;

	check_free_block(c, a->zone, page, a->order);
}

/* One free list; returns its pages. zone->lock held. */
static unsigned long check_free_list(struct check *c, struct zone *zone,
				     unsigned int order)
{
	struct free_area *area = &zone->free_area[order];
	struct free_list_arg arg = { zone, order };
	unsigned long limit = min(area->nr_free, zone->spanned_pages) + 1;
	unsigned long n;
	char what[48];

	lockdep_assert_held(&zone->lock);
	scnprintf(what, sizeof(what), "zone %s order %u", zone->name, order);
	n = walk_list(c, &area->free_list, limit, what, free_list_entry, &arg);
	if (n != area->nr_free)
		problem(c, REPORT_PAGE_CHECK_COUNT,
			"%s: %lu blocks listed, nr_free %lu", what, n,
			area->nr_free);
	return n << order;
}

struct pcp_arg {
	struct check *c;
	struct zone *zone;
	unsigned int order;
	int cpu;
};

static void pcp_entry(struct check *c, struct page *page, void *arg)
{
	struct pcp_arg *a = arg;
	unsigned long pfn = page_to_pfn(page);
	unsigned long n = 1UL << a->order;
	struct page *outer;

	for (unsigned long i = 0; i < n; i++) {
		struct page *p = page + i;

		if (page_zone(p) != a->zone || (p->flags & PAGE_FLAGS_MASK) ||
		    page_ref_count(p) || PageTail(p))
			problem(c, REPORT_PAGE_CHECK_PCP_PAGE,
				"pfn 0x%lx on a per-CPU list of %s: zone %s, flags %#lx, refcount %d",
				pfn + i, a->zone->name, page_zone(p)->name,
				p->flags & PAGE_FLAGS_MASK, page_ref_count(p));
	}
	if (pfn & (n - 1))
		problem(c, REPORT_PAGE_CHECK_BLOCK,
			"pfn 0x%lx on an order-%u per-CPU list is not aligned",
			pfn, a->order);
	outer = free_block_covering(pfn, a->order);
	if (outer)
		problem(c, REPORT_PAGE_CHECK_OVERLAP,
			"pfn 0x%lx on a per-CPU list is inside the free order-%lu block at 0x%lx",
			pfn, outer->private, page_to_pfn(outer));
	check_free_pages_debug(c, page, n);
}

/*
 * One list: its count within its limit and its limit within its size,
 * then every block it counts. zone->lock held.
 */
static void check_pcp_list(struct pcp_arg *a, const struct pcp_list *l)
{
	unsigned int n = min(l->count, l->size);
	char what[56];

	scnprintf(what, sizeof(what), "zone %s cpu %d order-%u list",
		  a->zone->name, a->cpu, a->order);
	if (l->count > l->limit || l->limit > l->size)
		problem(a->c, REPORT_PAGE_CHECK_COUNT,
			"%s: count %u, limit %u, size %u", what, l->count,
			l->limit, l->size);
	for (unsigned int i = 0; i < n; i++) {
		if (!valid_page_ptr(l->pages[i])) {
			problem(a->c, REPORT_PAGE_CHECK_LIST,
				"%s: entry %u is not a struct page: %px", what,
				i, l->pages[i]);
			continue;
		}
		pcp_entry(a->c, l->pages[i], a);
	}
}

/* One CPU's lists of one zone, on that CPU (or one that takes no IPIs). */
static void check_pcp_local(void *info)
{
	struct pcp_arg *a = info;
	struct per_cpu_pages *pcp = &a->zone->pcp[a->cpu];
	unsigned long flags;

	local_irq_save(flags);
	spin_lock(&a->zone->lock);
	for (a->order = 0; a->order < NR_PCP_ORDERS; a->order++)
		check_pcp_list(a, pcp->lists[a->order]);
	spin_unlock(&a->zone->lock);
	local_irq_restore(flags);
}

/*
 * A CPU's lists are its own (mm/page_alloc.c, section 6): each online
 * CPU walks its own in a call-function interrupt. Where no IPI may be
 * sent (interrupts off here), only this CPU's and those of CPUs that
 * take none are walked.
 */
static void check_pcp(struct check *c, struct zone *zone, int cpu)
{
	struct pcp_arg a = { .c = c, .zone = zone, .cpu = cpu };
	bool ipi = !irqs_disabled() && !in_interrupt();

	if ((unsigned int)cpu == smp_processor_id() || !cpu_online(cpu))
		check_pcp_local(&a);
	else if (ipi)
		smp_call_function_single(cpu, check_pcp_local, &a, true);
}

static void check_zone(struct check *c, struct zone *zone)
{
	unsigned int cpu;
	unsigned long pages = 0, on_pcp = 0, flags;

	if (!zone->managed_pages)
		return;
	for_each_possible_cpu(cpu) {
		check_pcp(c, zone, cpu);
		on_pcp += pcp_pages(&zone->pcp[cpu]);
	}
	spin_lock_irqsave(&zone->lock, flags);
	for (unsigned int o = 0; o < MAX_ORDER; o++)
		pages += check_free_list(c, zone, o);
	if (pages != zone->free_pages)
		problem(c, REPORT_PAGE_CHECK_COUNT,
			"zone %s: %lu pages on the free lists, free_pages %lu",
			zone->name, pages, zone->free_pages);
	if (zone->free_pages + on_pcp > zone->managed_pages)
		problem(c, REPORT_PAGE_CHECK_COUNT,
			"zone %s: %lu free + %lu per-CPU pages, only %lu managed",
			zone->name, zone->free_pages, on_pcp,
			zone->managed_pages);
	spin_unlock_irqrestore(&zone->lock, flags);
}

int page_alloc_check(void)
{
	struct check c = { 0 };
	struct zone *zone;

	for_each_zone(zone)
		check_zone(&c, zone);
	if (c.problems > CHECK_MAX_REPORTS)
		pr_err("page_alloc_check: %d more problems not shown\n",
		       c.problems - CHECK_MAX_REPORTS);
	return c.problems;
}

/* --- lock assertions, proven by tests/test_lockdep.c ------------------- */

/* The free lists of a zone of no pages: empty, so nothing to report. */
static __maybe_unused void check_free_list_unlocked(void)
{
	static struct zone test_zone;
	struct zone *zone = &test_zone;
	struct check c = { 0 };

	memset(zone, 0, sizeof(*zone));
	zone->name = "lockdep-test";
	spin_lock_init(&zone->lock);
	INIT_LIST_HEAD(&zone->free_area[0].free_list);
	check_free_list(&c, zone, 0);
}
LOCKDEP_ASSERT_TEST(check_free_list, "&zone->lock", check_free_list_unlocked);

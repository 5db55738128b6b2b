/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Page allocator debugging (mm/page_debug.c): Linux's page_poison= and
 * debug_pagealloc=, and a consistency check of the allocator's lists.
 *
 * page_poison=on      every page freed to the allocator is filled with
 *                     PAGE_POISON; every page handed out is checked first
 *                     (before __GFP_ZERO). A corrupted page is reported
 *                     once ("BUG: page_poison: ...") and poisoned again
 *                     before it goes out: nothing is lost or leaked.
 * debug_pagealloc=on  free pages are unmapped from the direct map (the
 *                     arch builds it with 4 KiB pages for this) and mapped
 *                     again when handed out, so touching a free page
 *                     faults; the fault report names the free pfn.
 *
 * Both cost the allocator one predictable branch each way while off
 * (page_debug_active()). page_poison can also be switched at run time
 * (page_poisoning_set); debug_pagealloc only at boot.
 *
 * What callers may use: the switches, the statistics, the check of the
 * lists, and the fault handlers' question. The allocator's hooks are in
 * mm/internal.h.
 */
#ifndef MM_PAGE_DEBUG_H
#define MM_PAGE_DEBUG_H

#include "mm/mm.h"

#define PAGE_POISON		0xaa

#define PAGE_DEBUG_POISON	0x1u	/* page_poison */
#define PAGE_DEBUG_UNMAP	0x2u	/* debug_pagealloc */
#define PAGE_DEBUG_INIT		0x4u	/* init_on_alloc or init_on_free */

/*
 * Which of the above is on; 0 keeps the allocator's paths clean. Not
 * debugging, but the same need: PAGE_DEBUG_INIT sends every allocation
 * and free to the slow paths, which zero (mm/page_alloc.c).
 */
extern unsigned int page_debug_flags;

static inline bool page_debug_active(void)
{
	return unlikely(READ_ONCE(page_debug_flags) != 0);
}

static inline bool page_poisoning_enabled(void)
{
	return READ_ONCE(page_debug_flags) & PAGE_DEBUG_POISON;
}

static inline bool debug_pagealloc_enabled(void)
{
	return READ_ONCE(page_debug_flags) & PAGE_DEBUG_UNMAP;
}

/*
 * Switch page poisoning at run time. On: the per-CPU lists are drained and
 * every free page is poisoned before the checks start. No other CPU may
 * allocate or free pages meanwhile (tests).
 */
void page_poisoning_set(bool on);

/* What the hooks did, in pages (tests prove nothing runs while off). */
struct page_debug_stats {
	unsigned long poisoned;		/* filled with PAGE_POISON when freed */
	unsigned long checked;		/* poison checked when handed out */
	unsigned long corrupted;	/* ... and found overwritten */
	unsigned long unmapped;		/* taken out of the direct map */
	unsigned long mapped;		/* put back */
};
extern struct page_debug_stats page_debug_stats;

/*
 * For the fault handlers: true if debug_pagealloc is on and addr lies in
 * the direct map on a page it unmapped (a free page); *pfn gets the page.
 */
bool debug_pagealloc_fault(unsigned long addr, unsigned long *pfn);

/*
 * Walk every zone's free lists and per-CPU lists and check them against
 * the invariants of mm/page_alloc.c: each free list entry is the first
 * page of a naturally aligned free block of the list's order (PG_buddy,
 * order in private, refcount 0, inside its zone), its other pages are
 * clean, no two free blocks overlap and buddies are merged; per-CPU pages
 * are clean aligned blocks of orders 0-3 inside no free block (each
 * CPU walks its own lists, by IPI); nr_free, free_pages and
 * the per-CPU counts match the lists. With page_poison on, every free
 * page must hold the poison; with debug_pagealloc on, none may be mapped.
 * Prints each problem ("page_alloc_check: ...") and returns how many.
 */
int page_alloc_check(void);

#endif /* MM_PAGE_DEBUG_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Page flags: the low bits of page->flags, with Linux's names and
 * accessors (PageReserved, SetPageReserved, __ClearPageBuddy ...). The
 * top bits of the same word hold the page's zone and node, set once when
 * mem_map is initialised (mm/mm.h).
 *
 * An API header, as Linux's <linux/page-flags.h>: anyone holding a page
 * may test its flags.
 *
 * The double-underscore setters are plain read-modify-write: callers hold
 * the page exclusively (free lists under the zone lock, a new slab).
 */
#ifndef MM_PAGE_FLAGS_H
#define MM_PAGE_FLAGS_H

#include "mm/mm_types.h"

enum pageflags {
	PG_locked,
	PG_reserved,	/* not managed by the page allocator */
	PG_buddy,	/* first page of a free block in the buddy allocator */
	PG_slab,	/* first page of a slab */
	PG_slab_tail,	/* another page of a slab (kfree's fast path) */
	PG_head,	/* first page of a compound page */
	PG_active,	/* slab: allocated from the emergency reserve */
	PG_pfmemalloc,	/* handed out from below the min watermark */
	PG_poisoned,	/* free page filled with a poison pattern (debug) */
	__NR_PAGEFLAGS,
};

#define PAGEFLAG(uname, lname)						\
static inline bool Page##uname(const struct page *page)		\
{									\
	return page->flags & (1UL << PG_##lname);			\
}									\
static inline void __SetPage##uname(struct page *page)			\
{									\
	page->flags |= 1UL << PG_##lname;				\
}									\
static inline void __ClearPage##uname(struct page *page)		\
{									\
	page->flags &= ~(1UL << PG_##lname);				\
}

PAGEFLAG(Locked, locked)
PAGEFLAG(Reserved, reserved)
PAGEFLAG(Buddy, buddy)
PAGEFLAG(Slab, slab)
PAGEFLAG(SlabTail, slab_tail)
PAGEFLAG(Head, head)
PAGEFLAG(Active, active)
PAGEFLAG(Pfmemalloc, pfmemalloc)
PAGEFLAG(Poisoned, poisoned)

#define SetPageReserved		__SetPageReserved
#define ClearPageReserved	__ClearPageReserved

/* Every flag bit, for "is this page clean" checks. */
#define PAGE_FLAGS_MASK		((1UL << __NR_PAGEFLAGS) - 1)

static inline bool PageTail(const struct page *page)
{
	return READ_ONCE(page->compound_head) & 1;
}

static inline bool PageCompound(const struct page *page)
{
	return PageHead(page) || PageTail(page);
}

static inline struct page *compound_head(const struct page *page)
{
	unsigned long head = READ_ONCE(page->compound_head);

	if (head & 1)
		return (struct page *)(head - 1);
	return (struct page *)page;
}

static inline unsigned int compound_order(const struct page *page)
{
	if (!PageHead(page))
		return 0;
	return page[1].compound_order;
}

#endif /* MM_PAGE_FLAGS_H */

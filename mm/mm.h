/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory model: how addresses, pfns and struct pages convert (part of
 * Linux's <linux/mm.h>). An API header: any caller may include it.
 *
 * All RAM is mapped at page_offset_base (the direct map; on x86_64
 * 0xffff888000000000), so a physical address p is reached at
 * page_offset_base + p. mem_map is a virtually contiguous array of
 * struct page indexed by pfn at vmemmap (0xffffea0000000000 on x86_64),
 * backed only where RAM exists: a hole costs no memory. These two bases
 * are variables set by the arch (the host build puts them wherever mmap
 * does), and the helpers below are the only way across.
 */
#ifndef MM_MM_H
#define MM_MM_H

#include "mm/mm_types.h"
#include "mm/mmzone.h"
#include "mm/page-flags.h"

#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define PAGE_MASK		(~(PAGE_SIZE - 1))

#define PFN_UP(x)		(((x) + PAGE_SIZE - 1) >> PAGE_SHIFT)
#define PFN_DOWN(x)		((x) >> PAGE_SHIFT)
#define PFN_PHYS(x)		((phys_addr_t)(x) << PAGE_SHIFT)
#define PHYS_PFN(x)		((unsigned long)((x) >> PAGE_SHIFT))
#define PAGE_ALIGN(x)		ALIGN(x, PAGE_SIZE)

/* Top bits of page->flags: which zone and node a page belongs to. */
#define ZONES_PGSHIFT		60
#define ZONES_MASK		0x3UL
#define NODES_PGSHIFT		56
#define NODES_MASK		0xfUL

extern unsigned long page_offset_base;
extern struct page *vmemmap;
extern unsigned long max_pfn;		/* one past the last RAM pfn */
extern unsigned long totalram_pages;	/* pages given to the page allocator */

static inline void *__va(phys_addr_t phys)
{
	return (void *)(phys + page_offset_base);
}

static inline phys_addr_t __pa(const void *virt)
{
	return (unsigned long)virt - page_offset_base;
}

static inline struct page *pfn_to_page(unsigned long pfn)
{
	return vmemmap + pfn;
}

static inline unsigned long page_to_pfn(const struct page *page)
{
	return (unsigned long)(page - vmemmap);
}

static inline struct page *virt_to_page(const void *virt)
{
	return pfn_to_page(PHYS_PFN(__pa(virt)));
}

static inline void *page_address(const struct page *page)
{
	return __va(PFN_PHYS(page_to_pfn(page)));
}

#define page_to_virt(page)	page_address(page)
#define virt_to_pfn(virt)	PHYS_PFN(__pa(virt))

static inline enum zone_type page_zonenum(const struct page *page)
{
	return (enum zone_type)((page->flags >> ZONES_PGSHIFT) & ZONES_MASK);
}

static inline int page_to_nid(const struct page *page)
{
	return (int)((page->flags >> NODES_PGSHIFT) & NODES_MASK);
}

static inline int page_ref_count(const struct page *page)
{
	return atomic_read(&page->_refcount);
}

/* True if pfn is RAM that has a struct page. */
bool pfn_valid(unsigned long pfn);

/* True if virt lies in the direct map of RAM (a valid __pa argument). */
bool virt_addr_valid(const void *virt);

/*
 * Boot steps, in the order start_kernel() runs them (see mm/mm_init.c):
 * the arch reads the firmware map and fills memblock (arch/arch.h), the
 * arch maps RAM, then mem_map and the zones.
 */
void mm_core_init(void);

/* Bytes of struct page backing populated by the arch (mem_map cost). */
extern unsigned long vmemmap_bytes;

/*
 * Boot reservations with a reason ("kernel image", "mem_map", ...): every
 * page boot keeps from the page allocator is booked under one, so the
 * reserved pages can be accounted for exactly (boot prints the ledger).
 */
struct reserve_reason {
	const char *name;
	unsigned long pages;
};
#define MAX_RESERVE_REASONS	12
extern struct reserve_reason reserve_ledger[MAX_RESERVE_REASONS];

void memblock_reserve_named(phys_addr_t base, phys_addr_t size,
			    const char *reason);
/*
 * memblock_phys_alloc of whole pages (aligned to align, a power of two
 * of at least PAGE_SIZE, in the _aligned form), booked under reason; 0
 * on failure.
 */
phys_addr_t memblock_alloc_pages_named(unsigned long pages, const char *reason);
phys_addr_t memblock_alloc_pages_aligned_named(unsigned long pages,
					       phys_addr_t align,
					       const char *reason);

#endif /* MM_MM_H */

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
 *
 * Also a page's references (Linux's page_ref.h, get_page(), put_page()):
 * an allocated block's first page counts them, a compound page's tails
 * count on the head; the last one frees (mm/page_alloc.c, section 10).
 */
#ifndef MM_MM_H
#define MM_MM_H

#include "mm/mm_types.h"
#include "mm/mmzone.h"
#include "mm/page-flags.h"

#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define PAGE_MASK		(~(PAGE_SIZE - 1))

/**
 * PFN_UP() - the pfn of the first page boundary at or above an address
 * @x: a physical address
 *
 * Context: any context.
 * Return: the page frame number, rounded up.
 */
#define PFN_UP(x)		(((x) + PAGE_SIZE - 1) >> PAGE_SHIFT)
/**
 * PFN_DOWN() - the pfn of the page holding an address
 * @x: a physical address
 *
 * Context: any context.
 * Return: the page frame number, rounded down.
 */
#define PFN_DOWN(x)		((x) >> PAGE_SHIFT)
/**
 * PFN_PHYS() - the physical address of a page frame
 * @x: a page frame number
 *
 * Context: any context.
 * Return: its first byte's address, a phys_addr_t.
 */
#define PFN_PHYS(x)		((phys_addr_t)(x) << PAGE_SHIFT)
/**
 * PHYS_PFN() - the pfn of the page holding an address
 * @x: a physical address
 *
 * Context: any context.
 * Return: the page frame number, an unsigned long.
 */
#define PHYS_PFN(x)		((unsigned long)((x) >> PAGE_SHIFT))
/**
 * PAGE_ALIGN() - round up to a page boundary
 * @x: an address or a size
 *
 * Context: any context.
 * Return: @x rounded up to a multiple of PAGE_SIZE.
 */
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

/**
 * __va() - the direct-map address of a physical address
 * @phys: a physical address of RAM
 *
 * Not checked: @phys must lie in RAM, which the direct map covers.
 *
 * Context: any context.
 * Return: page_offset_base + @phys.
 */
static inline void *__va(phys_addr_t phys)
{
	return (void *)(phys + page_offset_base);
}

/**
 * __pa() - the physical address of a direct-map address
 * @virt: an address in the direct map (virt_addr_valid())
 *
 * Not checked: any other address gives nonsense.
 *
 * Context: any context.
 * Return: @virt - page_offset_base.
 */
static inline phys_addr_t __pa(const void *virt)
{
	return (unsigned long)virt - page_offset_base;
}

/**
 * pfn_to_page() - the struct page of a page frame
 * @pfn: a page frame number that pfn_valid() accepts
 *
 * Context: any context.
 * Return: its entry in mem_map.
 */
static inline struct page *pfn_to_page(unsigned long pfn)
{
	return vmemmap + pfn;
}

/**
 * page_to_pfn() - the page frame of a struct page
 * @page: an entry of mem_map
 *
 * Context: any context.
 * Return: its page frame number.
 */
static inline unsigned long page_to_pfn(const struct page *page)
{
	return (unsigned long)(page - vmemmap);
}

/**
 * virt_to_page() - the struct page of a direct-map address
 * @virt: an address in the direct map
 *
 * Context: any context.
 * Return: the struct page of the page holding @virt.
 */
static inline struct page *virt_to_page(const void *virt)
{
	return pfn_to_page(PHYS_PFN(__pa(virt)));
}

/**
 * page_address() - the direct-map address of a page
 * @page: an entry of mem_map
 *
 * Context: any context.
 * Return: the address of the page's first byte.
 */
static inline void *page_address(const struct page *page)
{
	return __va(PFN_PHYS(page_to_pfn(page)));
}

/**
 * page_to_virt() - the direct-map address of a page
 * @page: an entry of mem_map
 *
 * Context: any context.
 * Return: as page_address().
 */
#define page_to_virt(page)	page_address(page)
/**
 * virt_to_pfn() - the page frame of a direct-map address
 * @virt: an address in the direct map
 *
 * Context: any context.
 * Return: the page frame number of the page holding @virt.
 */
#define virt_to_pfn(virt)	PHYS_PFN(__pa(virt))

/**
 * page_zonenum() - the zone a page belongs to
 * @page: an entry of mem_map
 *
 * Context: any context.
 * Return: the zone, from the top bits of page->flags.
 */
static inline enum zone_type page_zonenum(const struct page *page)
{
	return (enum zone_type)((page->flags >> ZONES_PGSHIFT) & ZONES_MASK);
}

/**
 * page_to_nid() - the node a page belongs to
 * @page: an entry of mem_map
 *
 * Context: any context.
 * Return: the node, from the top bits of page->flags (0: one node).
 */
static inline int page_to_nid(const struct page *page)
{
	return (int)((page->flags >> NODES_PGSHIFT) & NODES_MASK);
}

/**
 * page_ref_count() - a page's reference count
 * @page: an entry of mem_map
 *
 * Context: any context; an atomic read.
 * Return: the count: 0 for a free page.
 */
static inline int page_ref_count(const struct page *page)
{
	return atomic_read(&page->_refcount);
}

/**
 * page_ref_inc() - take a reference to a page, unchecked
 * @page: an entry of mem_map that holds a reference already
 *
 * The raw increment (Linux's page_ref.h): no check, and a tail page's
 * own count. Most callers want get_page().
 *
 * Context: any context; an atomic increment.
 */
static inline void page_ref_inc(struct page *page)
{
	atomic_inc(&page->_refcount);
}

/**
 * page_ref_dec_and_test() - drop a reference to a page, unchecked
 * @page: an entry of mem_map that holds a reference
 *
 * The raw decrement (Linux's page_ref.h): no check, nothing freed. A
 * page whose count this takes to 0 is lost to the allocator (only
 * put_page() and __free_pages() free), so callers that do not own the
 * last reference by construction want put_page().
 *
 * Context: any context; an atomic decrement.
 * Return: true if the count reached 0.
 */
static inline bool page_ref_dec_and_test(struct page *page)
{
	return atomic_dec_and_test(&page->_refcount);
}

/**
 * get_page_unless_zero() - take a reference unless the page is free
 * @page: an entry of mem_map
 *
 * For a caller that may meet a page whose last reference is going away:
 * the count is raised only if it is not 0, atomically. The free fast
 * path drops a sole reference with a plain store (mm/page_alloc.c,
 * section 6), so this must not race with the last __free_pages() of a
 * page: it is safe against put_page() and frees of shared pages, which
 * drop references atomically.
 *
 * Context: any context; an atomic compare-and-exchange loop.
 * Return: true if a reference was taken.
 */
static inline bool get_page_unless_zero(struct page *page)
{
	return atomic_add_unless(&page->_refcount, 1, 0);
}

/**
 * get_page() - take a reference to a page
 * @page: an entry of mem_map, allocated; a tail page counts on its head
 *
 * The page then stays allocated until the matching put_page(), even if
 * its owner frees it (__free_pages()). A page with no reference (free,
 * or not the first page of its block) gets a "BUG: Bad page state"
 * report, as Linux's VM_BUG_ON_FOLIO(folio_ref_zero_or_close_to_overflow),
 * and no reference.
 *
 * Context: any context; never waits.
 */
void get_page(struct page *page);

/**
 * put_page() - drop a reference to a page, freeing it with the last
 * @page: an entry of mem_map; a tail page counts on its head
 *
 * The last reference frees the page: a compound page whole, at its
 * order; any other page at order 0 (the first page of a plain block
 * that __free_pages() freed while it was held). Reported by bad_page()
 * and otherwise ignored: a page with no reference (Linux's
 * VM_BUG_ON_PAGE(page_ref_count(page) == 0): a free page, a double put),
 * and a last reference that put_page() may not drop: a slab's page,
 * which only SLAB frees, a reserved page, a plain block of order above 0
 * (free it with __free_pages()).
 *
 * Context: any context; as __free_pages() when it frees.
 */
void put_page(struct page *page);

/**
 * pfn_valid() - is a page frame RAM with a struct page
 * @pfn: a page frame number
 *
 * Context: any context; never waits.
 * Return: true if @pfn is below max_pfn and in RAM.
 */
bool pfn_valid(unsigned long pfn);

/**
 * virt_addr_valid() - does an address lie in the direct map of RAM
 * @virt: an address
 *
 * Context: any context; never waits.
 * Return: true if @virt is a valid __pa() argument: in the direct map, over a
 * page that pfn_valid() accepts.
 */
bool virt_addr_valid(const void *virt);

/**
 * mm_core_init() - set the memory allocators up at boot
 *
 * Description: after the arch has read the firmware map into memblock and
 * mapped RAM: mem_map, the zones, the hand-over of free memory to the
 * page allocator, the slab allocator and vmalloc. Prints the zones and
 * what boot reserved.
 *
 * Context: boot, once, from start_kernel(), on the boot CPU.
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

/**
 * memblock_reserve_named() - reserve boot memory under a reason
 * @base: the first physical address
 * @size: bytes
 * @reason: the name to book the pages under, kept as given (a string literal)
 *
 * Each page is booked once, under the first reason that reserved any of
 * it. More than MAX_RESERVE_REASONS reasons panics.
 *
 * Context: boot, before mm_core_init() hands memory to the page allocator.
 */
void memblock_reserve_named(phys_addr_t base, phys_addr_t size,
			    const char *reason);
/**
 * memblock_alloc_pages_named() - allocate boot memory under a reason
 * @pages: how many pages
 * @reason: the name to book them under, as for memblock_reserve_named()
 *
 * Context: as memblock_reserve_named().
 * Return: the physical address of the first page, page-aligned, or 0 on
 * failure.
 */
phys_addr_t memblock_alloc_pages_named(unsigned long pages, const char *reason);
/**
 * memblock_alloc_pages_nid_named() - allocate boot memory on a node under a reason
 * @pages: how many pages
 * @align: the alignment, a power of two of at least PAGE_SIZE
 * @nid: the node to take them from if it has them (then any node, as
 *	memblock_phys_alloc_try_nid()), or NUMA_NO_NODE for any
 * @reason: the name to book them under, as for memblock_reserve_named()
 *
 * Context: as memblock_reserve_named().
 * Return: the physical address of the first page, or 0 on failure.
 */
phys_addr_t memblock_alloc_pages_nid_named(unsigned long pages,
					   phys_addr_t align, int nid,
					   const char *reason);
/**
 * memblock_alloc_pages_aligned_named() - allocate aligned boot memory under a reason
 * @pages: how many pages
 * @align: the alignment, a power of two of at least PAGE_SIZE
 * @reason: the name to book them under, as for memblock_reserve_named()
 *
 * Context: as memblock_reserve_named().
 * Return: the physical address of the first page, or 0 on failure.
 */
phys_addr_t memblock_alloc_pages_aligned_named(unsigned long pages,
					       phys_addr_t align,
					       const char *reason);

#endif /* MM_MM_H */

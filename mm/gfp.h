/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GFP flags and the page allocator's API (Linux's <linux/gfp.h>, names
 * and semantics). This is the header a caller of the page allocator
 * includes, with mm/mm.h for struct page and the address conversions.
 * The allocator's internals (struct zone, free lists, per-CPU lists,
 * watermarks) are in mm/internal.h, for mm/ and white-box tests only.
 *
 * Zone modifiers pick the highest zone an allocation may use; it falls
 * back to lower zones, never higher: no modifier = NORMAL, DMA32, DMA;
 * GFP_DMA32 = DMA32, DMA; GFP_DMA = DMA only.
 *
 * Every allocation must leave the zone above its min watermark, except:
 * __GFP_HIGH (GFP_ATOMIC) may dip to half of min, and __GFP_MEMALLOC may
 * take the reserve below min entirely; pages that only the reserve could
 * give are marked PG_pfmemalloc so SLAB can keep them for such callers.
 */
#ifndef MM_GFP_H
#define MM_GFP_H

#include "mm/mm.h"

typedef unsigned int gfp_t;

#define __GFP_DMA		0x01u
#define __GFP_DMA32		0x04u
#define __GFP_HIGH		0x20u	/* may use part of the reserve */
#define __GFP_IO		0x40u
#define __GFP_FS		0x80u
#define __GFP_ZERO		0x100u	/* zero the pages */
#define __GFP_DIRECT_RECLAIM	0x400u	/* may sleep */
#define __GFP_KSWAPD_RECLAIM	0x800u
#define __GFP_NOWARN		0x2000u	/* no failure report */
#define __GFP_NORETRY		0x10000u	/* fail fast: no reclaim first */
#define __GFP_COMP		0x40000u	/* a compound page */
#define __GFP_MEMALLOC		0x20000u	/* may use all of the reserve */
#define __GFP_NOMEMALLOC	0x80000u	/* never the reserve */

#define GFP_ZONEMASK		(__GFP_DMA | __GFP_DMA32)
#define __GFP_RECLAIM		(__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)

#define GFP_ATOMIC		(__GFP_HIGH | __GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL		(__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_NOWAIT		(__GFP_KSWAPD_RECLAIM)
#define GFP_DMA			__GFP_DMA
#define GFP_DMA32		__GFP_DMA32

/* Order of the smallest block that holds size bytes. */
static inline unsigned int get_order(unsigned long size)
{
	unsigned int order = 0;

	size = (size - 1) >> PAGE_SHIFT;
	while (size) {
		order++;
		size >>= 1;
	}
	return order;
}

/* The highest zone gfp allows (see above). */
static inline enum zone_type gfp_zone(gfp_t gfp)
{
	if (gfp & __GFP_DMA)
		return ZONE_DMA;
	if (gfp & __GFP_DMA32)
		return ZONE_DMA32;
	return ZONE_NORMAL;
}

/*
 * alloc_pages: 2^order contiguous pages, NULL on failure (reported unless
 * __GFP_NOWARN; never a panic). Free with __free_pages(page, same order);
 * a __GFP_COMP block may also be freed through its head page only.
 */
struct page *alloc_pages(gfp_t gfp, unsigned int order);
struct page *alloc_pages_node(int nid, gfp_t gfp, unsigned int order);
void __free_pages(struct page *page, unsigned int order);
#define alloc_page(gfp)		alloc_pages(gfp, 0)
#define __free_page(page)	__free_pages(page, 0)

/* The same through direct-map addresses; 0 on failure. */
unsigned long __get_free_pages(gfp_t gfp, unsigned int order);
unsigned long get_zeroed_page(gfp_t gfp);
void free_pages(unsigned long addr, unsigned int order);
#define __get_free_page(gfp)	__get_free_pages(gfp, 0)
#define free_page(addr)		free_pages(addr, 0)

/* size bytes rounded up to pages, not to a power of two; NULL on failure. */
void *alloc_pages_exact(size_t size, gfp_t gfp) __alloc_size(1);
void free_pages_exact(void *virt, size_t size);

/* Make each page of a non-compound order-n block freeable on its own. */
void split_page(struct page *page, unsigned int order);

/* Free pages: in the buddy lists of all zones, and on per-CPU lists. */
unsigned long nr_free_pages(void);
unsigned long nr_pcp_pages(void);
/* Pages handed out and not yet freed (what a leaking test leaves). */
long nr_allocated_pages(void);
/* Give every per-CPU list back to the buddy lists. */
void drain_all_pages(void);

#endif /* MM_GFP_H */

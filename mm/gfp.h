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
 * Nodes: an allocation prefers a node (alloc_pages(): the local one,
 * numa_mem_id()) and tries its zones first, then the other nodes' in
 * order of distance; __GFP_THISNODE allows the preferred node only.
 *
 * Every allocation must leave the zone above its min watermark, except:
 * __GFP_HIGH (GFP_ATOMIC) may dip to half of min, and __GFP_MEMALLOC may
 * take the reserve below min entirely; pages that only the reserve could
 * give are marked PG_pfmemalloc so SLAB can keep them for such callers.
 */
#ifndef MM_GFP_H
#define MM_GFP_H

#include "arch/arch.h"
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
#define __GFP_THISNODE		0x200000u	/* the node asked for, or fail */

#define GFP_ZONEMASK		(__GFP_DMA | __GFP_DMA32)
#define __GFP_RECLAIM		(__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)

#define GFP_ATOMIC		(__GFP_HIGH | __GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL		(__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_NOWAIT		(__GFP_KSWAPD_RECLAIM)
#define GFP_DMA			__GFP_DMA
#define GFP_DMA32		__GFP_DMA32

/*
 * init_on_alloc=1, init_on_free=1 (boot parameters, Linux's): zero every
 * page and slab object when it is allocated, or when it is freed. Set at
 * boot only; page_poison=on overrides both (mm/page_alloc.c, section 7).
 */
extern bool init_on_alloc;
extern bool init_on_free;

/**
 * want_init_on_alloc() - is a new allocation to be zeroed
 * @gfp: its GFP flags
 *
 * Context: any context.
 * Return: true if init_on_alloc=1 or @gfp has __GFP_ZERO (the page
 * allocator then skips it if init_on_free=1 zeroed the pages already).
 */
static inline bool want_init_on_alloc(gfp_t gfp)
{
	return READ_ONCE(init_on_alloc) || (gfp & __GFP_ZERO);
}

/**
 * want_init_on_free() - is freed memory to be zeroed
 *
 * Context: any context.
 * Return: true if init_on_free=1: every free page and (with Linux's
 * exceptions, mm/slab.c) slab object is zeroed when it is freed.
 */
static inline bool want_init_on_free(void)
{
	return READ_ONCE(init_on_free);
}

/**
 * get_order() - the order of the smallest block that holds some bytes
 * @size: the number of bytes, at least 1
 *
 * Context: any context.
 * Return: the smallest order such that PAGE_SIZE << order >= @size.
 */
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

/**
 * gfp_zone() - the highest zone an allocation may use
 * @gfp: the allocation's GFP flags
 *
 * Context: any context.
 * Return: ZONE_DMA for __GFP_DMA, else ZONE_DMA32 for __GFP_DMA32, else
 * ZONE_NORMAL. The allocation falls back to the zones below it.
 */
static inline enum zone_type gfp_zone(gfp_t gfp)
{
	if (gfp & __GFP_DMA)
		return ZONE_DMA;
	if (gfp & __GFP_DMA32)
		return ZONE_DMA32;
	return ZONE_NORMAL;
}

/**
 * alloc_pages() - allocate a block of contiguous pages
 * @gfp: GFP flags: the zone modifiers, __GFP_ZERO, __GFP_COMP, __GFP_HIGH,
 *	__GFP_MEMALLOC, __GFP_NOMEMALLOC, __GFP_NORETRY, __GFP_NOWARN and
 *	__GFP_DIRECT_RECLAIM are honoured
 * @order: the block holds 2^@order pages; MAX_ORDER or more fails (with a
 *	warning unless __GFP_NOWARN)
 *
 * The block comes from this CPU's node (numa_mem_id()), or when that
 * cannot give it from the nearest other node: __alloc_pages() with the
 * local node.
 *
 * When the free lists cannot serve the request, direct reclaim runs
 * before it fails (mm/vmscan.c): up to three passes with
 * __GFP_DIRECT_RECLAIM, one pass over this CPU's own lists without it,
 * none with __GFP_NORETRY. A failure is reported unless __GFP_NOWARN;
 * it never panics. Free the block with __free_pages() and the same
 * order; a __GFP_COMP block may also be freed through its head page.
 *
 * Context: any context with GFP_ATOMIC or GFP_NOWAIT: interrupt
 * handlers, interrupts off, RCU readers. Nothing here sleeps, but
 * reclaim with __GFP_DIRECT_RECLAIM (GFP_KERNEL) runs shrinkers and
 * sends IPIs when interrupts are on: use GFP_KERNEL only where a
 * shrinker may run. Not checked: a GFP_KERNEL call from a handler is
 * not warned about.
 * Return: the first page of the block, or NULL on failure.
 */
struct page *alloc_pages(gfp_t gfp, unsigned int order);
/**
 * __alloc_pages() - allocate a block of pages preferring a node
 * @gfp: GFP flags, as for alloc_pages(), and __GFP_THISNODE
 * @order: the block holds 2^@order pages
 * @preferred_nid: an online node (0 to MAX_NUMNODES - 1)
 *
 * The zones of @preferred_nid's zonelist are tried in order: its own
 * zones from the highest gfp_zone() allows down, then the other nodes'
 * nearest first (node_distance()); with __GFP_THISNODE only its own, so
 * an exhausted node gives NULL, never another node's pages (reclaim may
 * still run: it gives every node back its own pages). A node without
 * memory has no zones of its own: its zonelist starts at its nearest
 * node with memory. An allocation counts numa_hit on the node that
 * gave it if that is the first node of the zonelist, else numa_miss
 * there and numa_foreign on the first; local_node or other_node as that
 * node is the calling CPU's or not. A node id that is not online or out
 * of range is warned about and gives NULL.
 *
 * Context: as alloc_pages().
 * Return: the first page of the block, or NULL on failure.
 */
struct page *__alloc_pages(gfp_t gfp, unsigned int order, int preferred_nid);
/**
 * alloc_pages_node() - allocate a block of pages on a node
 * @nid: the node wanted, or NUMA_NO_NODE for this CPU's (numa_mem_id())
 * @gfp: GFP flags, as for __alloc_pages()
 * @order: the block holds 2^@order pages
 *
 * As __alloc_pages(): other nodes are used when @nid cannot give the
 * block, unless __GFP_THISNODE. A bad @nid is warned about and gives NULL.
 *
 * Context: as alloc_pages().
 * Return: the first page of the block, or NULL on failure.
 */
struct page *alloc_pages_node(int nid, gfp_t gfp, unsigned int order);
/**
 * numa_node_id() - the node of this CPU
 *
 * Context: any context; the answer is only stable where the caller
 * cannot move to another CPU (there is no preemption here).
 * Return: cpu_to_node() of this CPU.
 */
int numa_node_id(void);
/* Each CPU's numa_mem_id() (Linux's _numa_mem_); mm/page_alloc.c sets it. */
extern int cpu_mem_node[NR_CPUS];
/**
 * numa_mem_id() - the nearest node with memory to this CPU
 *
 * Description: numa_node_id() unless that node has no memory; then the
 * first node with memory in its zonelist (Linux's local_memory_node()),
 * the node alloc_pages() prefers.
 *
 * Context: as numa_node_id().
 * Return: a node id with memory.
 */
static inline int numa_mem_id(void)
{
	return READ_ONCE(cpu_mem_node[arch_cpu_id()]);
}
/**
 * cpu_to_mem() - the nearest node with memory to a CPU
 * @cpu: a CPU number below NR_CPUS (warned about and 0 otherwise)
 *
 * Context: any context.
 * Return: numa_mem_id() as seen on @cpu.
 */
int cpu_to_mem(unsigned int cpu);
/**
 * __free_pages() - free a block of pages
 * @page: the first page of a block from alloc_pages()
 * @order: the order it was allocated with
 *
 * A page that is not such a block (a wrong order, a page already free,
 * a reserved or slab page) is reported and not freed.
 *
 * Context: any context, interrupt handlers and interrupts off included;
 * never waits.
 */
void __free_pages(struct page *page, unsigned int order);
/**
 * alloc_page() - allocate one page
 * @gfp: GFP flags, as for alloc_pages()
 *
 * Context: as alloc_pages().
 * Return: the page, or NULL on failure.
 */
#define alloc_page(gfp)		alloc_pages(gfp, 0)
/**
 * __free_page() - free one page from alloc_page()
 * @page: the page
 *
 * Context: as __free_pages().
 */
#define __free_page(page)	__free_pages(page, 0)

/**
 * __get_free_pages() - allocate a block of pages by its address
 * @gfp: GFP flags, as for alloc_pages()
 * @order: the block holds 2^@order pages
 *
 * Context: as alloc_pages().
 * Return: the block's direct-map address, or 0 on failure.
 */
unsigned long __get_free_pages(gfp_t gfp, unsigned int order);
/**
 * get_zeroed_page() - allocate one zeroed page by its address
 * @gfp: GFP flags, as for alloc_pages(); __GFP_ZERO is added
 *
 * Context: as alloc_pages().
 * Return: the page's direct-map address, or 0 on failure.
 */
unsigned long get_zeroed_page(gfp_t gfp);
/**
 * free_pages() - free a block of pages by its address
 * @addr: an address from __get_free_pages(); 0 is ignored
 * @order: the order it was allocated with
 *
 * An address that is not page-aligned or not in the direct map is
 * reported and nothing is freed.
 *
 * Context: as __free_pages().
 */
void free_pages(unsigned long addr, unsigned int order);
/**
 * __get_free_page() - allocate one page by its address
 * @gfp: GFP flags, as for alloc_pages()
 *
 * Context: as alloc_pages().
 * Return: the page's direct-map address, or 0 on failure.
 */
#define __get_free_page(gfp)	__get_free_pages(gfp, 0)
/**
 * free_page() - free one page by its address
 * @addr: an address from __get_free_page(); 0 is ignored
 *
 * Context: as __free_pages().
 */
#define free_page(addr)		free_pages(addr, 0)

/**
 * alloc_pages_exact() - allocate whole pages, not a power of two of them
 * @size: bytes wanted, rounded up to whole pages
 * @gfp: GFP flags, as for alloc_pages(); __GFP_COMP is dropped
 *
 * Allocates the power-of-two block that holds @size, splits it and
 * frees the pages past the end at once.
 *
 * Context: as alloc_pages().
 * Return: the direct-map address of the pages, or NULL if @size is 0 or
 * on failure.
 */
void *alloc_pages_exact(size_t size, gfp_t gfp) __alloc_size(1);
/**
 * alloc_pages_exact_nid() - alloc_pages_exact() preferring a node
 * @nid: the node to prefer, or NUMA_NO_NODE for this CPU's
 * @size: bytes wanted, rounded up to whole pages
 * @gfp: GFP flags, as for alloc_pages_node(); __GFP_COMP is dropped
 *
 * Context: as alloc_pages().
 * Return: as alloc_pages_exact().
 */
void *alloc_pages_exact_nid(int nid, size_t size, gfp_t gfp) __alloc_size(2);
/**
 * free_pages_exact() - free pages from alloc_pages_exact()
 * @virt: the address it returned; NULL is ignored
 * @size: the size given to it
 *
 * Context: as __free_pages().
 */
void free_pages_exact(void *virt, size_t size);

/**
 * split_page() - make each page of a block freeable on its own
 * @page: the first page of a block from alloc_pages(), not compound
 * @order: the order it was allocated with
 *
 * Afterwards the block is 2^@order order-0 pages with one reference
 * each (the first keeps its count), each freed with __free_page() or
 * put_page(). Refused with a "BUG: Bad page state" report, the block
 * left as it was: a compound page (Linux's
 * VM_BUG_ON_PAGE(PageCompound(page))), a page with no reference, an
 * @order that is not the block's.
 *
 * Context: any context.
 */
void split_page(struct page *page, unsigned int order);

/**
 * nr_free_pages() - the pages on the buddy free lists
 *
 * Description: Read without locks: a snapshot.
 *
 * Context: any context.
 * Return: the free pages of every zone, the per-CPU lists left out.
 */
unsigned long nr_free_pages(void);
/**
 * nr_pcp_pages() - the pages on the per-CPU page lists
 *
 * Description: Read without locks: a snapshot.
 *
 * Context: any context.
 * Return: the pages on every CPU's lists in every zone.
 */
unsigned long nr_pcp_pages(void);
/**
 * nr_allocated_pages() - the pages handed out and not yet freed
 *
 * Description: What a leaking test leaves behind. Read without locks: a snapshot.
 *
 * Context: any context.
 * Return: totalram_pages less the free pages and the per-CPU lists' pages.
 */
long nr_allocated_pages(void);
/**
 * drain_all_pages() - give the per-CPU page lists back to the buddy lists
 *
 * Description: With interrupts on and outside a handler every CPU with pages on its
 * lists drains them in an IPI, and this waits for them. Otherwise this
 * CPU drains its own lists and the other CPUs are asked to drain at
 * their next use of the lists.
 *
 * Context: any context; waits for the other CPUs only when interrupts
 * are on and not in an interrupt handler.
 */
void drain_all_pages(void);

#endif /* MM_GFP_H */

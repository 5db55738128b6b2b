/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The page allocator's internals (Linux's internal.h and the zone
 * structures of <linux/mmzone.h>): struct zone with its free lists
 * (free_area), per-CPU page lists and watermarks, the node, and what
 * mm/page_alloc.c shares with mm/mm_init.c, mm/page_debug.c and
 * mm/vmstat.c.
 *
 * Only mm/ and white-box tests and tools include this header. A caller
 * of the page allocator includes mm/gfp.h (and mm/mm.h for struct page
 * and the address conversions) and never sees a zone's insides.
 *
 * Page counts of a zone (Linux's meanings):
 *   spanned_pages  pfns from the zone's first to its last, holes included
 *   present_pages  pfns that are RAM
 *   managed_pages  pages given to the page allocator (present minus
 *                  what boot reserved: kernel image, mem_map, tables,
 *                  and minus what deferred init has not handed over)
 *
 * Deferred struct page init (Linux's CONFIG_DEFERRED_STRUCT_PAGE_INIT):
 * boot initialises the struct pages of every zone but the node's last
 * one in full, and of the last one the first deferred_init_pages
 * (PAGES_PER_SECTION unless deferred_init=SIZE says less) and up to the
 * next boundary of that unit; pgdat->first_deferred_pfn is
 * where that stopped (ULONG_MAX: nothing deferred). Beyond it only the
 * struct pages of memblock's reserved ranges are initialised at boot
 * (PageReserved, as everywhere); the rest stay zero, belong to no free
 * list and are not counted in managed_pages or totalram_pages, until an
 * allocation that the zone cannot serve grows it (deferred_grow_zone(),
 * a unit at a time, under pgdat->node_size_lock). Linux also
 * finishes the rest in kernel threads late in boot; this kernel grows
 * only on demand, so a boot or a program pays for the mem_map it uses.
 */
#ifndef MM_INTERNAL_H
#define MM_INTERNAL_H

#include "kernel/spinlock.h"
#include "lib/list.h"
#include "mm/gfp.h"
#include "mm/mm.h"
#include "mm/shrinker.h"

enum zone_watermarks {
	WMARK_MIN,
	WMARK_LOW,
	WMARK_HIGH,
	NR_WMARK,
};

struct free_area {
	struct list_head free_list;
	unsigned long nr_free;
};

/*
 * Per-CPU lists of free blocks, one list per order up to
 * PAGE_ALLOC_COSTLY_ORDER (Linux keeps them per order since 5.14). Freed
 * blocks collect here and allocations take from here without the zone
 * lock. As in Linux, one budget in pages covers all orders: a free that
 * brings the pages on all lists to high drains at least batch pages, the
 * other orders' lists first (round robin from the next order up), so the
 * order in use keeps its hot blocks and a CPU never holds high pages
 * after a free. An empty list is refilled with batch pages' worth of
 * blocks (batch >> order, at least one); each refill or drain holds
 * zone->lock once. Their pages are not counted in zone->free_pages.
 *
 * A list is an array used as a stack, as SLAB's struct array_cache is,
 * so that the fast paths' pop and push are restartable sequences
 * (kernel/rseq.h: count, then limit, then the entries): pages[count - 1]
 * is the hottest block, pages[0] the coldest, which a drain takes first.
 * A fast-path push stops at limit (how the limits keep the lists under
 * high: mm/page_alloc.c, section 6); size is the room, high's worth of
 * blocks plus one.
 *
 * Only the owning CPU touches a per_cpu_pages and its lists, with
 * interrupts off or inside a restartable sequence; another CPU only
 * reads the counts and sets drain_pending (see mm/page_alloc.c, section
 * 6).
 */
#define PAGE_ALLOC_COSTLY_ORDER	3
#define NR_PCP_ORDERS		(PAGE_ALLOC_COSTLY_ORDER + 1)

struct pcp_list {
	unsigned int count;	/* blocks on the list */
	unsigned int limit;	/* a fast-path free stops here */
	u16 size;		/* room for blocks */
	u8 batch;		/* blocks per refill: batch pages >> order */
	bool drain_pending;	/* another CPU asked for a drain: a gate */
	bool touched;		/* a slow path used it since reap_* */
	unsigned int reap_count;	/* count at cache_reap's last pass */
	unsigned long fast_hits;	/* alloc fast path's allocations */
	unsigned long reap_hits;	/* fast_hits at cache_reap's last pass */
	struct page *pages[];	/* coldest first */
};

/*
 * NUMA allocation events (Linux's numa_stat_item), counted per zone and
 * CPU by that CPU with interrupts off (zone->numa_events[cpu]), summed
 * per node when read:
 * numa_hit/numa_miss on the zone that gave the pages (the preferred node
 * or not), numa_foreign on the preferred zone when another node gave
 * them, local_node/other_node on the zone that gave them (the node of
 * the CPU that asked or not). Interleave: no mempolicy here, always 0.
 */
enum numa_stat_item {
	NUMA_HIT,
	NUMA_MISS,
	NUMA_FOREIGN,
	NUMA_INTERLEAVE_HIT,
	NUMA_LOCAL,
	NUMA_OTHER,
	NR_VM_NUMA_EVENT_ITEMS,
};

/*
 * One CPU's lists in one zone. The fast paths read only the list
 * pointer; what they write (the count, fast_hits) and what stops them
 * (drain_pending: the sequences' gate, kernel/rseq.h) are in the list
 * itself. A drain request sets every list's drain_pending. cache_reap
 * finds a list used since its last pass by its touched (the slow paths
 * set it), its count or its fast_hits, against the last pass's.
 *
 * The alloc fast path counts its allocations in fast_hits alone: each
 * is a numa_hit, and local_node or other_node as the zone's node is the
 * CPU's or not, which the readers work out (node_numa_event()).
 */
struct per_cpu_pages {
	int high;		/* a free that reaches it drains */
	int batch;		/* pages per drain */
	struct pcp_list *lists[NR_PCP_ORDERS];
} __aligned(64);

/* The fast path's allocations from pcp; any CPU may ask, without a lock. */
static inline unsigned long pcp_fast_hits(const struct per_cpu_pages *pcp)
{
	unsigned long hits = 0;

	for (unsigned int o = 0; o < NR_PCP_ORDERS; o++)
		hits += READ_ONCE(pcp->lists[o]->fast_hits);
	return hits;
}

/* Has another CPU asked pcp's owner to drain? Any CPU may ask. */
static inline bool pcp_drain_pending(const struct per_cpu_pages *pcp)
{
	bool pending = false;

	for (unsigned int o = 0; o < NR_PCP_ORDERS; o++)
		pending |= READ_ONCE(pcp->lists[o]->drain_pending);
	return pending;
}

struct zone;
void zone_pcp_init(struct zone *zone);
/*
 * Turn the page allocator's fast paths off or back on after a change of
 * page_debug_flags or of fail_page_alloc's enabled (mm/page_alloc.c).
 */
void pcp_fast_paths_update(void);

/* Pages (not blocks) on pcp's lists; any CPU may ask, without a lock. */
static inline unsigned long pcp_pages(const struct per_cpu_pages *pcp)
{
	unsigned long pages = 0;

	for (unsigned int o = 0; o < NR_PCP_ORDERS; o++)
		pages += (unsigned long)READ_ONCE(pcp->lists[o]->count) << o;
	return pages;
}

struct pglist_data;

struct zone {
	unsigned long _watermark[NR_WMARK];
	struct pglist_data *zone_pgdat;
	unsigned long zone_start_pfn;
	unsigned long spanned_pages;
	unsigned long present_pages;
	unsigned long managed_pages;
	const char *name;
	spinlock_t lock;		/* free_area and free_pages */
	struct free_area free_area[MAX_ORDER];
	unsigned long free_pages;	/* sum over free_area, in pages */
	struct per_cpu_pages pcp[NR_CPUS];
	/* The slow paths' NUMA events, by CPU (the fast path's: fast_hits). */
	unsigned long numa_events[NR_CPUS][NR_VM_NUMA_EVENT_ITEMS];
};

static inline unsigned long min_wmark_pages(const struct zone *z)
{
	return z->_watermark[WMARK_MIN];
}

static inline unsigned long low_wmark_pages(const struct zone *z)
{
	return z->_watermark[WMARK_LOW];
}

static inline unsigned long high_wmark_pages(const struct zone *z)
{
	return z->_watermark[WMARK_HIGH];
}

/*
 * A node's zonelists (Linux's ZONELIST_FALLBACK and ZONELIST_NOFALLBACK):
 * NULL-terminated arrays of the populated zones an allocation preferring
 * the node tries, in order. The fallback list has the node's own zones
 * first, then each other node's in order of node_distance() (nearest
 * first, ties to the lower node id), each node's zones from the highest
 * down; the other has the node's own zones only (__GFP_THISNODE). An
 * allocation skips the zones above gfp_zone().
 */
enum {
	ZONELIST_FALLBACK,
	ZONELIST_NOFALLBACK,
	MAX_ZONELISTS,
};

/*
 * A zonelist entry (Linux's struct zoneref): the zone and its index in
 * its node, so that a walk skipping zones above gfp's limit reads the
 * index beside the pointer instead of working it out of the zone's
 * address. The list ends at a NULL zone.
 */
struct zoneref {
	struct zone *zone;
	int zone_idx;
};

struct zonelist {
	struct zoneref _zonerefs[MAX_NUMNODES * MAX_NR_ZONES + 1];
};

/*
 * A node (Linux's pg_data_t): one for each online node, allocated at
 * boot on the node itself when it has memory (node_data[]). A node
 * without memory has one too, with empty zones, for its zonelists.
 */
typedef struct pglist_data {
	struct zone node_zones[MAX_NR_ZONES];
	struct zonelist node_zonelists[MAX_ZONELISTS];
	int node_id;
	unsigned long node_start_pfn;
	unsigned long node_present_pages;
	unsigned long node_spanned_pages;
	spinlock_t node_size_lock;	/* deferred init's growth */
	unsigned long first_deferred_pfn;	/* ULONG_MAX: none left */
} pg_data_t;

/* Deferred init's default unit: a memory section of x86_64 Linux, 128 MiB. */
#define SECTION_SIZE_BITS	27
#define PAGES_PER_SECTION	(1UL << (SECTION_SIZE_BITS - PAGE_SHIFT))
/* The unit in use: a power of two, MAX_ORDER_NR_PAGES to a section. */
extern unsigned long deferred_init_pages;

/* Each online node's pg_data_t (NULL: not online, or before boot set it). */
extern struct pglist_data *node_data[MAX_NUMNODES];
#define NODE_DATA(nid)		(node_data[nid])

/* The online pgdat after pgdat (NULL: first), NULL after the last. */
struct pglist_data *next_online_pgdat(struct pglist_data *pgdat);
/* The zone after zone over every online node's zones, NULL after the last. */
struct zone *next_zone(struct zone *zone);

#define for_each_online_pgdat(pgdat)					\
	for (pgdat = next_online_pgdat(NULL); pgdat;			\
	     pgdat = next_online_pgdat(pgdat))

/* Every zone of every online node, populated or not. */
#define for_each_zone(zone)						\
	for (zone = next_zone(NULL); zone; zone = next_zone(zone))

static inline int zone_to_nid(const struct zone *zone)
{
	return zone->zone_pgdat->node_id;
}

static inline enum zone_type zone_idx(const struct zone *zone)
{
	return (enum zone_type)(zone - zone->zone_pgdat->node_zones);
}

/* Node nid's zonelist for gfp: the fallback one unless __GFP_THISNODE. */
static inline struct zonelist *node_zonelist(int nid, gfp_t gfp)
{
	return &NODE_DATA(nid)->node_zonelists[(gfp & __GFP_THISNODE) ?
					       ZONELIST_NOFALLBACK :
					       ZONELIST_FALLBACK];
}

/*
 * Build every online node's zonelists and each CPU's local memory node
 * (numa_mem_id()) and fast-path zone (mm/page_alloc.c; boot, once the
 * zones are laid out).
 */
void build_all_zonelists(void);

/* Node nid's count of a NUMA event, over its zones and every CPU. */
unsigned long node_numa_event(int nid, enum numa_stat_item item);

static inline unsigned long zone_end_pfn(const struct zone *zone)
{
	return zone->zone_start_pfn + zone->spanned_pages;
}

static inline bool zone_spans_pfn(const struct zone *zone, unsigned long pfn)
{
	return pfn >= zone->zone_start_pfn && pfn < zone_end_pfn(zone);
}

static inline bool populated_zone(const struct zone *zone)
{
	return zone->present_pages != 0;
}

/* Has the zone a deferred part left (it is the node's last zone)? */
static inline bool zone_has_deferred(const struct zone *zone)
{
	return zone_spans_pfn(zone,
			      READ_ONCE(zone->zone_pgdat->first_deferred_pfn));
}

/* The zone a page belongs to (its flags say which). */
static inline struct zone *page_zone(const struct page *page)
{
	return &NODE_DATA(page_to_nid(page))->node_zones[page_zonenum(page)];
}

/* Only the allocator sets a page's references outright. */
static inline void set_page_count(struct page *page, int v)
{
	atomic_set(&page->_refcount, v);
}

/*
 * Apply page_poison's precedence over init_on_alloc and init_on_free
 * (Linux's rule: both off, with a message), then set PAGE_DEBUG_INIT if
 * either is still on. At boot before memory is handed over, and again
 * when page poisoning is switched on.
 */
void init_mem_debugging_and_hardening(void);

/*
 * The page debugging hooks (mm/page_debug.c), called only if
 * page_debug_active(): a block of 2^order pages goes to the free lists
 * (poison, then unmap), or comes off them to be handed out (map, then
 * check the poison).
 */
void page_debug_free(struct page *page, unsigned int order);
void page_debug_alloc(struct page *page, unsigned int order);

/*
 * pfn_valid()'s fast answer (mm/mm_init.c): a bitmap of the 2 MiB chunks
 * that are RAM through and through, for the pfns below ram_chunks_pfns
 * (max_pfn once the map is there, 0 before or without it). True: pfn
 * has a struct page of RAM; false: ask pfn_valid().
 */
#define PFN_CHUNK_SHIFT		(21 - PAGE_SHIFT)
extern unsigned long *ram_chunks;
extern unsigned long ram_chunks_pfns;

static inline bool pfn_in_ram_chunk(unsigned long pfn)
{
	unsigned long chunk = pfn >> PFN_CHUNK_SHIFT;

	return pfn < ram_chunks_pfns &&
	       (ram_chunks[chunk / BITS_PER_LONG] >>
		(chunk % BITS_PER_LONG)) & 1;
}

/*
 * Hand every free memblock range below the node's first_deferred_pfn to
 * the buddy allocator (boot, once).
 */
void memblock_free_all(void);
/* Free [start, end) of RAM, initialised and reserved, to the buddy lists. */
void free_pfn_range(unsigned long start, unsigned long end);

/*
 * Deferred init (mm/mm_init.c): initialise and free at least the
 * units that hold 2^order pages of zone's deferred part; true if
 * the zone has more pages than when the caller looked (its own growth
 * or another CPU's), false if it has nothing deferred left. The zone's
 * watermarks follow. Any context: interrupts are off while it works.
 */
bool deferred_grow_zone(struct zone *zone, unsigned int order);
/*
 * Grow every zone to its end: what Linux's page_alloc_init_late() has
 * its threads do at boot. For a caller that wants all of RAM in the
 * buddy lists now (tests that count every free page).
 */
void deferred_init_all(void);
/* RAM pages not yet initialised nor handed to the buddy allocator. */
unsigned long zone_deferred_pages(const struct zone *zone);
unsigned long nr_deferred_pages(void);
/* The watermarks from totalram_pages (mm/page_alloc.c). */
void setup_per_zone_wmarks(void);

/* No zone gfp may use has order-sized room above its low watermark. */
bool pfmemalloc_needed(gfp_t gfp, unsigned int order);

/*
 * May this allocation take the reserve below the min watermark (pages
 * marked PG_pfmemalloc, and SLAB's reserve slabs)? __GFP_MEMALLOC, or
 * any allocation inside reclaim (memalloc_noreclaim_save), unless
 * __GFP_NOMEMALLOC. The page allocator and SLAB ask the same question.
 */
static inline bool gfp_pfmemalloc_allowed(gfp_t gfp)
{
	if (gfp & __GFP_NOMEMALLOC)
		return false;
	return (gfp & __GFP_MEMALLOC) || memalloc_noreclaim_active();
}

/*
 * Direct reclaim (mm/vmscan.c), called by alloc_pages() when the free
 * lists cannot serve an allocation. gfp_may_reclaim(): false for
 * __GFP_NORETRY and on a CPU already in reclaim (memalloc_noreclaim).
 * try_to_free_pages(): one pass at priority (RECLAIM_PRIORITY down to 0:
 * shrinkers are asked for count >> priority, scaled by seeks); a caller
 * without __GFP_DIRECT_RECLAIM gets only this CPU's per-CPU page lists
 * drained. Returns the pages that reached the buddy lists.
 */
#define RECLAIM_PRIORITY	2
bool gfp_may_reclaim(gfp_t gfp);
unsigned long try_to_free_pages(gfp_t gfp, unsigned int order, int priority);
/* This CPU's per-CPU page lists to the buddy lists; pages moved. */
unsigned long drain_local_pages(void);
/* This CPU's lists unused since the last call (cache_reap); pages moved. */
unsigned long drain_local_pages_idle(void);

/* Events in Linux's /proc/vmstat names (the vmstat shell command). */
enum vm_event_item {		/* in the order Linux prints them */
	ALLOCSTALL_DMA,		/* direct reclaim runs, by the highest zone */
	ALLOCSTALL_DMA32,	/* the allocation may use (gfp_zone) */
	ALLOCSTALL_NORMAL,
	ALLOCSTALL_MOVABLE,	/* no ZONE_MOVABLE here: always 0 */
	PGSTEAL_DIRECT,		/* pages direct reclaim gave the buddy lists */
	SLABS_SCANNED,		/* objects shrinkers were asked to scan */
	DROP_PAGECACHE,		/* drop_caches 1 (there is no page cache) */
	DROP_SLAB,		/* drop_caches 2 */
	NR_VM_EVENT_ITEMS,
};
extern const char *const vm_event_names[NR_VM_EVENT_ITEMS];
void count_vm_events(enum vm_event_item item, unsigned long delta);
unsigned long global_vm_event(enum vm_event_item item);
/* Reclaim passes this CPU is inside now (0 or 1: reclaim never nests). */
unsigned int current_reclaim_depth(void);

#endif /* MM_INTERNAL_H */

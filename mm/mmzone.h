/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Zones and nodes. Physical memory is split by address into the zones
 * Linux has on x86_64: DMA (below 16 MiB, for ISA devices), DMA32 (below
 * 4 GiB, for 32-bit devices) and NORMAL (the rest). One node for now;
 * the per-node structure exists so that code is written for NUMA.
 *
 * Page counts of a zone (Linux's meanings):
 *   spanned_pages  pfns from the zone's first to its last, holes included
 *   present_pages  pfns that are RAM
 *   managed_pages  pages given to the page allocator (present minus
 *                  what boot reserved: kernel image, mem_map, tables)
 */
#ifndef MM_MMZONE_H
#define MM_MMZONE_H

#include "lib/list.h"
#include "kernel/spinlock.h"
#include "kernel/types.h"

#define MAX_ORDER		11	/* buddy orders 0..MAX_ORDER-1 */
#define MAX_ORDER_NR_PAGES	(1UL << (MAX_ORDER - 1))
#define MAX_NUMNODES		1

enum zone_type {
	ZONE_DMA,
	ZONE_DMA32,
	ZONE_NORMAL,
	MAX_NR_ZONES,
};

#define MAX_DMA_PFN	(SZ_16M >> 12)
#define MAX_DMA32_PFN	(SZ_4G >> 12)

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
 * Per-CPU list of free order-0 pages: freed pages collect here and
 * allocations take from here without the zone lock; it is refilled from
 * and drained to the buddy lists batch pages at a time, and never holds
 * more than high. Its pages are not counted in zone->free_pages.
 */
struct per_cpu_pages {
	spinlock_t lock;
	int count;
	int high;
	int batch;
	struct list_head list;
};

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

typedef struct pglist_data {
	struct zone node_zones[MAX_NR_ZONES];
	int node_id;
	unsigned long node_start_pfn;
	unsigned long node_present_pages;
	unsigned long node_spanned_pages;
} pg_data_t;

extern struct pglist_data contig_page_data;
#define NODE_DATA(nid)		(&contig_page_data)

#define for_each_zone(zone)						\
	for (zone = contig_page_data.node_zones;			\
	     zone < contig_page_data.node_zones + MAX_NR_ZONES; zone++)

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

#endif /* MM_MMZONE_H */

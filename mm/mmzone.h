/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Zones and nodes. Physical memory is split by address into the zones
 * Linux has on x86_64: DMA (below 16 MiB, for ISA devices), DMA32 (below
 * 4 GiB, for 32-bit devices) and NORMAL (the rest), in each NUMA node as
 * its range allows. Up to MAX_NUMNODES nodes are found at boot
 * (mm/numa.h); the page allocator has a pg_data_t for each.
 *
 * This header holds what a caller of the page allocator may name (the
 * zone types, MAX_ORDER); struct zone and the node are the allocator's
 * own, in mm/internal.h.
 */
#ifndef MM_MMZONE_H
#define MM_MMZONE_H

#include "kernel/types.h"

#define MAX_ORDER		11	/* buddy orders 0..MAX_ORDER-1 */
#define MAX_ORDER_NR_PAGES	(1UL << (MAX_ORDER - 1))
#define NODES_SHIFT		3
#define MAX_NUMNODES		(1 << NODES_SHIFT)
#define NUMA_NO_NODE		(-1)	/* any node */

enum zone_type {
	ZONE_DMA,
	ZONE_DMA32,
	ZONE_NORMAL,
	MAX_NR_ZONES,
};

#define MAX_DMA_PFN	(SZ_16M >> 12)
#define MAX_DMA32_PFN	(SZ_4G >> 12)

#endif /* MM_MMZONE_H */

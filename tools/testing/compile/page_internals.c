// SPDX-License-Identifier: GPL-2.0
/*
 * Must not compile: a caller that includes only the page allocator's API
 * (mm/gfp.h, mm/mm.h) and reaches into a zone's free lists or per-CPU
 * lists. Each line marked "internal" must be an error, and only those;
 * with mm/internal.h added (-include) the file must compile
 * (tools/testing/compile_checks.py).
 */
#include "mm/gfp.h"
#include "mm/mm.h"

struct per_cpu_pages;
struct zone;

unsigned long free_blocks(const struct zone *zone, unsigned int order);
int pcp_blocks(const struct per_cpu_pages *pcp);

unsigned long free_blocks(const struct zone *zone, unsigned int order)
{
	return zone->free_area[order].nr_free;	/* internal */
}

int pcp_blocks(const struct per_cpu_pages *pcp)
{
	return pcp->lists[0]->count;		/* internal */
}

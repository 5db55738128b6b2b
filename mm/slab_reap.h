/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cache_reap (mm/slab_reap.c): every CPU trims idle caches and its
 * per-CPU page lists every 2 s, from its delayed work.
 */
#ifndef MM_SLAB_REAP_H
#define MM_SLAB_REAP_H

#include "kernel/types.h"

/* Boot, once every CPU ticks: start every CPU's pass. */
void cache_reap_init(void);

/* Has cache_reap_init() run (the host's malloc shim never runs it)? */
bool cache_reap_running(void);

/*
 * Set the period of every CPU's pass (jiffies, 1 .. 60 * HZ; 2 * HZ at
 * boot) and restart the passes with it; returns the old one. For tests;
 * interrupts on, not from interrupt context.
 */
unsigned long cache_reap_set_period(unsigned long period);

/* What CPU cpu's passes did since boot. */
struct cache_reap_stats {
	unsigned long passes;		/* passes run */
	unsigned long objects;		/* objects from idle arrays to slabs */
	unsigned long slabs;		/* free slabs to the page allocator */
	unsigned long unreserved;	/* reserve slabs made ordinary */
	unsigned long pages;		/* pages from idle per-CPU page lists */
	unsigned long skipped;		/* passes that found slab_lock busy */
};
void cache_reap_get_stats(unsigned int cpu, struct cache_reap_stats *st);

#endif /* MM_SLAB_REAP_H */

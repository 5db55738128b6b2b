/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the memory test suites. */
#ifndef TESTS_MM_UTIL_H
#define TESTS_MM_UTIL_H

#include "mm/gfp.h"

/* Pages held to exhaust memory, chained through their own first bytes. */
struct hog {
	struct hog *next;
	unsigned int order;
};

/*
 * Take every page a GFP_KERNEL allocation may get (down to the min
 * watermark), largest blocks first; release_memory() gives them back.
 */
struct hog *hog_memory(void);
void release_memory(struct hog *head);

/* Free pages, wherever the page allocator keeps them. */
unsigned long pages_free(void);
/* Free pages with every cache shrunk and the per-CPU lists drained. */
unsigned long pages_baseline(void);
/* The zone a pfn belongs to, from the zone limits alone. */
enum zone_type expected_zone(unsigned long pfn);

#endif /* TESTS_MM_UTIL_H */

// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the memory test suites (see tests/mm_util.h). */
#include "mm/slab.h"
#include "tests/mm_util.h"

struct hog *hog_memory(void)
{
	struct hog *head = NULL;

	for (int order = MAX_ORDER - 1; order >= 0; order--) {
		struct page *page;

		while ((page = alloc_pages(GFP_KERNEL | __GFP_NOWARN,
					   (unsigned int)order))) {
			struct hog *h = page_address(page);

			h->next = head;
			h->order = (unsigned int)order;
			head = h;
		}
	}
	return head;
}

void release_memory(struct hog *head)
{
	while (head) {
		struct hog *next = head->next;

		__free_pages(virt_to_page(head), head->order);
		head = next;
	}
}

unsigned long pages_free(void)
{
	return nr_free_pages() + nr_pcp_pages();
}

unsigned long pages_baseline(void)
{
	kmem_cache_shrink_all();
	drain_all_pages();
	return pages_free();
}

enum zone_type expected_zone(unsigned long pfn)
{
	if (pfn < MAX_DMA_PFN)
		return ZONE_DMA;
	if (pfn < MAX_DMA32_PFN)
		return ZONE_DMA32;
	return ZONE_NORMAL;
}

void skip_if_debugged(struct ktest *t, const struct kmem_cache *cachep)
{
	if (cachep->flags & SLAB_DEBUG_FLAGS)
		ktest_skip(t, "%s is debugged (slab_debug): no per-CPU arrays, other layout",
			   cachep->name);
}

void skip_debugged_cache(struct ktest *t, struct kmem_cache *cachep)
{
	if (!(cachep->flags & SLAB_DEBUG_FLAGS))
		return;
	kmem_cache_destroy(cachep);
	ktest_skip(t, "the cache is debugged (slab_debug): no per-CPU arrays, other layout");
}

void skip_if_kmalloc_debugged(struct ktest *t)
{
	for (unsigned int i = 0; i <= KMALLOC_SHIFT_HIGH; i++)
		if (kmalloc_caches[0][i])
			skip_if_debugged(t, kmalloc_caches[0][i]);
}

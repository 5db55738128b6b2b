// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the memory test suites (see tests/mm_util.h). */
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

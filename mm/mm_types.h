/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct page: one per physical page frame, 64 bytes, in mem_map. An API
 * header (Linux's <linux/mm_types.h>): the page accessors of mm/mm.h and
 * mm/page-flags.h are inline, so callers see the structure.
 *
 * A page is one thing at a time and its five middle words mean different
 * things for each (Linux's layout): Documentation/mm/slab.md draws them
 * word by word, and tests/test_docs.c checks the drawing. struct slab,
 * the slab view, is in mm/slab_internal.h, where the compiler checks it
 * against this layout.
 *
 * Bit 0 of the word at offset 8 tells a tail page from everything else:
 * list pointers are aligned, so only compound_head has it set.
 */
#ifndef MM_MM_TYPES_H
#define MM_MM_TYPES_H

#include "kernel/atomic.h"
#include "lib/list.h"
#include "kernel/types.h"

struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
};

struct page {
	unsigned long flags;		/* PG_* bits; zone and node on top */
	union {
		struct {		/* buddy free lists, other lists */
			struct list_head lru;
			void *mapping;
			unsigned long index;
			unsigned long private;	/* buddy: order of the block */
		};
		struct {		/* tail pages of a compound page */
			unsigned long compound_head;	/* head address | 1 */
			unsigned char compound_order;	/* in the first tail */
		};
		struct rcu_head rcu_head;
	};
	unsigned int page_type;
	atomic_t _refcount;
	unsigned int alloc_order;	/* first page of an allocated block */
	unsigned int __pad;
};

_Static_assert(sizeof(struct page) == 64, "struct page must be 64 bytes");
_Static_assert(offsetof(struct page, compound_head) ==
	       offsetof(struct page, lru.next),
	       "compound_head must overlay lru.next");

#endif /* MM_MM_TYPES_H */

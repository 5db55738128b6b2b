/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kinds of report. Every report the kernel prints ("BUG: Bad page state:
 * ...", "BUG: slab_debug: ...", a WARN) also says what kind it is through
 * report_kind(), so that a test can expect a kind of report rather than
 * a sentence. The sentence is for people and may change; the kind is
 * what a test of a bad free or a damaged red zone is about.
 *
 * One hook may listen (the test framework installs it while a case
 * runs); without one, report_kind() does nothing.
 */
#ifndef KERNEL_REPORT_H
#define KERNEL_REPORT_H

enum report_kind {
	REPORT_NONE,
	REPORT_WARN,			/* WARN(), WARN_ON() */
	/* bad_page(): a free or reference the page allocator refuses */
	REPORT_BAD_PAGE_ORDER,		/* order >= MAX_ORDER */
	REPORT_BAD_PAGE_RESERVED,
	REPORT_BAD_PAGE_ALREADY_FREE,
	REPORT_BAD_PAGE_TAIL,		/* a compound page's tail */
	REPORT_BAD_PAGE_SLAB,		/* a page still in a slab */
	REPORT_BAD_PAGE_REFCOUNT,	/* refcount already 0 */
	REPORT_BAD_PAGE_WRONG_ORDER,
	REPORT_BAD_PAGE_NOT_RAM,	/* not a struct page of RAM */
	REPORT_BAD_PAGE_NOT_DIRECT_MAP,	/* free_pages() of a wild address */
	REPORT_BAD_PAGE_NEW_IN_USE,	/* allocating a "free" page in use */
	REPORT_BAD_PAGE_PUT_UNDERFLOW,	/* put_page() with refcount 0 */
	REPORT_BAD_PAGE_REF_ZERO,	/* get_page(), split_page(): no ref */
	REPORT_BAD_PAGE_SPLIT_COMPOUND,	/* split_page() of a compound page */
	REPORT_PAGE_POISON,		/* page_poison: written after free */
	/* page_alloc_check(): what it found wrong */
	REPORT_PAGE_CHECK_MAPPED,	/* a free page still mapped */
	REPORT_PAGE_CHECK_POISON,	/* a free page's poison written */
	REPORT_PAGE_CHECK_BLOCK,	/* a free block's head: order, zone... */
	REPORT_PAGE_CHECK_NOT_CLEAN,	/* a page inside a free block */
	REPORT_PAGE_CHECK_OVERLAP,	/* inside another free block */
	REPORT_PAGE_CHECK_LIST,		/* a list broken or longer than counted */
	REPORT_PAGE_CHECK_PCP_PAGE,	/* a per-CPU page's zone or state */
	REPORT_PAGE_CHECK_COUNT,	/* a counter against its list */
	/* slab_debug */
	REPORT_SLAB_DOUBLE_FREE,
	REPORT_SLAB_NOT_SLAB,		/* free of a pointer from no slab */
	REPORT_SLAB_WILD_POINTER,	/* not even in the direct map */
	REPORT_SLAB_NOT_KMALLOC,	/* kfree of a page not from kmalloc */
	REPORT_SLAB_WRONG_CACHE,
	REPORT_SLAB_QUARANTINED,	/* free of an object in quarantine */
	REPORT_SLAB_OUTSIDE_OBJECTS,	/* in a slab, but in no object */
	REPORT_SLAB_INSIDE_OBJECT,	/* not the start of the object */
	REPORT_SLAB_INSIDE_LARGE,	/* kfree inside a large kmalloc */
	REPORT_SLAB_RED_ZONE,		/* before or after an object */
	REPORT_SLAB_KMALLOC_RED_ZONE,	/* past the size asked of kmalloc */
	REPORT_SLAB_POISON,		/* a free object written to */
	/* kmem_cache_validate() and consistency checks: the structure */
	REPORT_SLAB_BAD_INDEX,		/* index array: out of range, twice */
	REPORT_SLAB_BAD_SLAB,		/* a slab on the wrong list or cache */
	REPORT_SLAB_BAD_COUNTERS,	/* node counters against the lists */
	REPORT_SLAB_ARRAY_FOREIGN,	/* array entry: no object of the cache */
	REPORT_SLAB_ARRAY_FREE,		/* array entry also free in its slab */
	REPORT_SLAB_ARRAY_TWICE,	/* an object twice in the arrays */
	REPORT_SLAB_CACHE_BUSY,		/* destroy with live objects */
	/* a page fault a probe expected (arch_probe_kernel_access()) */
	REPORT_PAGE_FAULT,
	/* vmalloc: a free or size it refuses */
	REPORT_VMALLOC_BAD_FREE,	/* not the start of a live area */
	REPORT_VMALLOC_DOUBLE_FREE,	/* an area already freed */
	REPORT_VMALLOC_WRONG_KIND,	/* vunmap of a vmalloc area, ... */
	REPORT_VMALLOC_BAD_SIZE,	/* 0, or more than RAM */
	/* KFENCE (mm/kfence.c): a sampled object's bug */
	REPORT_KFENCE_OOB,		/* a guard page touched */
	REPORT_KFENCE_UAF,		/* a freed object touched */
	REPORT_KFENCE_CORRUPTION,	/* the canary written, seen at free */
	REPORT_KFENCE_INVALID,		/* an access KFENCE cannot charge */
	REPORT_KFENCE_INVALID_FREE,	/* not a live object's start */
	/* KASAN (mm/kasan.c): a bad access or free, by Linux's bug type */
	REPORT_KASAN_SLAB_OUT_OF_BOUNDS,	/* past a slab object's size */
	REPORT_KASAN_SLAB_USE_AFTER_FREE,	/* a free or quarantined object */
	REPORT_KASAN_PAGE_OUT_OF_BOUNDS,	/* past a large kmalloc's size */
	REPORT_KASAN_USE_AFTER_FREE,		/* a free page */
	REPORT_KASAN_VMALLOC_OUT_OF_BOUNDS,	/* guard page, freed area */
	REPORT_KASAN_WILD_ACCESS,		/* no memory of an allocator */
	REPORT_KASAN_DOUBLE_FREE,
	REPORT_KASAN_INVALID_FREE,		/* not an object's start */
	NR_REPORT_KINDS
};

/* Say what kind of report is being printed (once per report). */
void report_kind(enum report_kind kind);
/* Install the listener (NULL: none); data is passed back to it. */
void report_set_hook(void (*hook)(enum report_kind kind, void *data),
		     void *data);
/* "bad_page_wrong_order": the kind's name, for messages. */
const char *report_kind_name(enum report_kind kind);

#endif /* KERNEL_REPORT_H */

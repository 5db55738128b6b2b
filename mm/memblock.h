/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memblock: the boot-time allocator of physical ranges (Linux's model).
 *
 * Two sorted arrays of regions: "memory" (RAM that exists) and "reserved"
 * (RAM in use). Free memory is memory minus reserved. Everything allocated
 * before the buddy allocator exists comes from here; the buddy allocator
 * then takes over the free ranges (for_each_free_mem_range).
 *
 * Every region carries a NUMA node id and flags. Ranges added without a
 * node (memblock_add, memblock_reserve) have NUMA_NO_NODE until
 * memblock_set_node() gives them one; the allocators can be asked for a
 * node (memblock_alloc_try_nid and friends) and fall back as Linux's do.
 *
 * Ranges are [base, base + size). The generic functions work on any
 * instance (tests use local ones); the others on the kernel's `memblock`.
 * See mm/memblock.c for the invariants and the allocation policy.
 */
#ifndef MM_MEMBLOCK_H
#define MM_MEMBLOCK_H

#include "kernel/types.h"
#include "mm/mmzone.h"		/* MAX_NUMNODES, NUMA_NO_NODE */

#define INIT_MEMBLOCK_REGIONS		128

/* As 'end' of a search or allocation: use the instance's current_limit. */
#define MEMBLOCK_ALLOC_ACCESSIBLE	0
/* As current_limit: no limit (the kernel's instance starts this way). */
#define MEMBLOCK_ALLOC_ANYWHERE		(~(phys_addr_t)0)
/* As min_addr of the pointer allocators: no lower limit. */
#define MEMBLOCK_LOW_LIMIT		0
/* memblock_alloc_low: below 4 GiB, for 32-bit DMA (Linux's default). */
#define ARCH_LOW_ADDRESS_LIMIT		0xffffffffUL

/* Region flags. Regions merge only if their flags (and nodes) are equal. */
enum memblock_flags {
	MEMBLOCK_NONE		= 0x0,
	MEMBLOCK_HOTPLUG	= 0x1,	/* hotpluggable (firmware says so) */
};
#define MEMBLOCK_FLAGS_ALL	MEMBLOCK_HOTPLUG

struct memblock_region {
	phys_addr_t base;
	phys_addr_t size;
	enum memblock_flags flags;
	int nid;			/* node id, or NUMA_NO_NODE */
};

struct memblock;

struct memblock_type {
	unsigned long cnt;		/* regions in use (0: empty) */
	unsigned long max;		/* capacity of regions[] */
	phys_addr_t total_size;		/* sum of the sizes */
	struct memblock_region *regions;
	const char *name;
	struct memblock *owner;		/* the instance it belongs to */
	phys_addr_t regions_phys;	/* regions[] if memblock allocated it, else 0 */
};

struct memblock {
	bool bottom_up;			/* allocate upwards from the bottom */
	int nr_nodes;			/* node ids 0 .. nr_nodes - 1 are valid */
	phys_addr_t current_limit;	/* top for MEMBLOCK_ALLOC_ACCESSIBLE */
	struct memblock_type memory;
	struct memblock_type reserved;
	/*
	 * NULL: the tables never grow. Else a full table doubles: the new
	 * array is allocated from the instance itself (below current_limit)
	 * and written through array_va(phys).
	 */
	void *(*array_va)(phys_addr_t phys);
	/*
	 * What the memblock_alloc* calls that return a pointer turn the
	 * physical address into; NULL (or a NULL result): they fail.
	 */
	void *(*phys_to_virt)(phys_addr_t phys);
};

/* The kernel's instance, backed by static arrays of INIT_MEMBLOCK_REGIONS. */
extern struct memblock memblock;

/* --- generic versions, on any instance ---------------------------------- */

/*
 * Set up an empty instance on caller-provided arrays (current_limit =
 * MEMBLOCK_ALLOC_ANYWHERE, top-down, nr_nodes = MAX_NUMNODES, no
 * phys_to_virt). Tests use it on static arrays.
 */
void memblock_instance_init(struct memblock *mb,
			    struct memblock_region *memory, unsigned long memory_max,
			    struct memblock_region *reserved, unsigned long reserved_max);

/*
 * Let the instance's tables double when they fill (Linux's
 * memblock_double_array): va turns a physical address below
 * current_limit into a pointer the new array can be written through.
 */
void memblock_instance_allow_resize(struct memblock *mb,
				    void *(*va)(phys_addr_t phys));

/*
 * Add [base, base + size) with node nid (NUMA_NO_NODE: none) and flags.
 * What is already in the table keeps its node and flags; the parts of
 * the range not yet covered are inserted, and regions that touch merge
 * if their nodes and flags are equal. 0 on success (size 0 included).
 * If the table has no room for the new entries it doubles if the
 * instance allows it; otherwise (or if no memory is found for the larger
 * array) -ENOSPC with a WARN, the table unchanged. A nid outside
 * NUMA_NO_NODE .. nr_nodes - 1 or an unknown flag: -EINVAL with a WARN.
 * A range running past the top of the address space is clipped to end
 * at ~0.
 */
int memblock_add_range_nid(struct memblock_type *type, phys_addr_t base,
			   phys_addr_t size, int nid, enum memblock_flags flags);
/* memblock_add_range_nid(type, base, size, NUMA_NO_NODE, MEMBLOCK_NONE). */
int memblock_add_range(struct memblock_type *type, phys_addr_t base, phys_addr_t size);
/*
 * Remove [base, base + size) from every region it touches, splitting a
 * region that contains it strictly (both halves keep its node and flags).
 * 0 on success (also if nothing was there); -ENOSPC (with a WARN) if a
 * split needs an entry and the table is full, the table unchanged.
 */
int memblock_remove_range(struct memblock_type *type, phys_addr_t base, phys_addr_t size);

/*
 * Give the parts of type's regions inside [base, base + size) node nid,
 * splitting regions at base and at the end as needed (Linux's
 * memblock_set_node); holes stay holes. Neighbours that end up with the
 * same node and flags merge. 0 on success; -EINVAL (WARN) for a bad nid;
 * -ENOSPC (WARN) if the splits need entries that cannot be had, the table
 * unchanged.
 */
int memblock_set_node(phys_addr_t base, phys_addr_t size,
		      struct memblock_type *type, int nid);

static inline int memblock_get_region_node(const struct memblock_region *r)
{
	return r->nid;
}

static inline bool memblock_is_hotpluggable(const struct memblock_region *r)
{
	return r->flags & MEMBLOCK_HOTPLUG;
}

/*
 * An aligned base of a free range of size bytes inside [start, end) on
 * node nid (NUMA_NO_NODE: any), or 0 if there is none: the highest one
 * (top-down, the default) or, if mb->bottom_up, the lowest. end
 * MEMBLOCK_ALLOC_ACCESSIBLE means mb->current_limit. Never below
 * PAGE_SIZE: page 0 is never handed out, so 0 means "none". align 0
 * means 8; an align that is not a power of two WARNs and uses 4096.
 * size 0 finds nothing.
 */
phys_addr_t memblock_find_in_range_node(const struct memblock *mb,
					phys_addr_t size, phys_addr_t align,
					phys_addr_t start, phys_addr_t end,
					int nid);
/* memblock_find_in_range_node(..., NUMA_NO_NODE). */
phys_addr_t memblock_find_in_range(const struct memblock *mb, phys_addr_t size,
				   phys_addr_t align, phys_addr_t start, phys_addr_t end);

/*
 * Find (as above) and reserve: on node nid first, then, unless exact_nid
 * or nid is NUMA_NO_NODE, on any node (Linux's memblock_alloc_range_nid).
 * The base, or 0 if nothing fits. Bad input WARNs and returns 0 with
 * nothing reserved: size 0, align not a power of two, an explicit end
 * not above start, nid outside NUMA_NO_NODE .. nr_nodes - 1.
 */
phys_addr_t memblock_alloc_range_nid(struct memblock *mb, phys_addr_t size,
				     phys_addr_t align, phys_addr_t start,
				     phys_addr_t end, int nid, bool exact_nid);
/* memblock_alloc_range_nid(mb, ..., NUMA_NO_NODE, false). */
phys_addr_t memblock_alloc_range(struct memblock *mb, phys_addr_t size,
				 phys_addr_t align, phys_addr_t start, phys_addr_t end);

/*
 * The pointer allocators' common part (Linux's memblock_alloc_internal):
 * max_addr is capped at current_limit (MEMBLOCK_ALLOC_ACCESSIBLE: just
 * current_limit); memblock_alloc_range_nid in [min_addr, max_addr), and
 * if that fails and min_addr is not 0, once more from 0, saying so. The
 * memory through mb->phys_to_virt, not cleared; NULL if nothing fits, on
 * bad input (as above, with min_addr >= an explicit max_addr) or if
 * phys_to_virt gives none (then nothing stays reserved).
 */
void *memblock_alloc_internal(struct memblock *mb, phys_addr_t size,
			      phys_addr_t align, phys_addr_t min_addr,
			      phys_addr_t max_addr, int nid, bool exact_nid);
/* The same, zeroed: the instance's memblock_alloc_try_nid. */
void *memblock_instance_alloc_try_nid(struct memblock *mb, phys_addr_t size,
				      phys_addr_t align, phys_addr_t min_addr,
				      phys_addr_t max_addr, int nid);

/*
 * Shrink each memory region to whole multiples of align (a power of two),
 * dropping the regions that vanish. 0, or -EINVAL with a WARN for a bad
 * align (nothing changed).
 */
int memblock_instance_trim_memory(struct memblock *mb, phys_addr_t align);

/* true if [base, base + size) overlaps any region of type. */
bool memblock_overlaps_region(const struct memblock_type *type,
			      phys_addr_t base, phys_addr_t size);
/* Index of the region containing addr, or -1. */
long memblock_search(const struct memblock_type *type, phys_addr_t addr);

/*
 * Check the invariants of type: cnt <= max, sizes nonzero, no wrap past
 * the top, sorted, no overlap, no adjacent pair with equal node and
 * flags, node ids valid (below owner->nr_nodes if there is an owner),
 * known flags, total_size the sum. 0 if they hold; -EINVAL after a
 * pr_err naming the first violation.
 */
int memblock_validate_type(const struct memblock_type *type);

/* Print an instance in Linux's memblock=debug format. */
void memblock_dump_instance(const struct memblock *mb);

/*
 * Free ranges (memory minus reserved) of node nid (NUMA_NO_NODE: all) in
 * ascending order. *idx starts at 0; each call stores the next range in
 * [*start, *end) and its node in *out_nid (each may be NULL) and returns
 * true, or returns false when there is none left. The instance must not
 * change during the walk.
 */
bool memblock_next_free_range(const struct memblock *mb, u64 *idx, int nid,
			      phys_addr_t *start, phys_addr_t *end, int *out_nid);

#define for_each_free_mem_range(mb, i, nid, p_start, p_end, p_nid)	\
	for (i = 0;							\
	     memblock_next_free_range(mb, &i, nid, p_start, p_end, p_nid);)

/*
 * The whole pages of each memory region of node nid (NUMA_NO_NODE: all)
 * in ascending order, regions holding no whole page skipped: *idx starts
 * at 0; false when there is none left.
 */
bool memblock_next_mem_pfn_range(const struct memblock *mb, int *idx, int nid,
				 unsigned long *start_pfn,
				 unsigned long *end_pfn, int *out_nid);

#define for_each_mem_pfn_range(mb, i, nid, p_start, p_end, p_nid)	\
	for (i = 0;							\
	     memblock_next_mem_pfn_range(mb, &i, nid, p_start, p_end, p_nid);)

#define for_each_mem_region(mb, r)					\
	for (r = (mb)->memory.regions;					\
	     r < (mb)->memory.regions + (mb)->memory.cnt; r++)

#define for_each_reserved_mem_region(mb, r)				\
	for (r = (mb)->reserved.regions;				\
	     r < (mb)->reserved.regions + (mb)->reserved.cnt; r++)

/* --- the kernel's instance ----------------------------------------------- */

/* Add RAM without a node (NUMA_NO_NODE), as Linux's memblock_add. */
int memblock_add(phys_addr_t base, phys_addr_t size);
int memblock_add_node(phys_addr_t base, phys_addr_t size, int nid,
		      enum memblock_flags flags);
int memblock_remove(phys_addr_t base, phys_addr_t size);
int memblock_reserve(phys_addr_t base, phys_addr_t size);
int memblock_phys_free(phys_addr_t base, phys_addr_t size);	/* un-reserve */
phys_addr_t memblock_phys_alloc_range(phys_addr_t size, phys_addr_t align,
				      phys_addr_t start, phys_addr_t end);
/* Below current_limit; 0 and a pr_err on failure. */
phys_addr_t memblock_phys_alloc(phys_addr_t size, phys_addr_t align);
/* Below current_limit, node nid first, then any node; 0 on failure. */
phys_addr_t memblock_phys_alloc_try_nid(phys_addr_t size, phys_addr_t align,
					int nid);

/*
 * The pointer allocators (through __va), as memblock_alloc_internal on
 * the kernel's instance. Zeroed unless _raw. NULL on failure.
 */
void *memblock_alloc_try_nid(phys_addr_t size, phys_addr_t align,
			     phys_addr_t min_addr, phys_addr_t max_addr, int nid);
void *memblock_alloc_try_nid_raw(phys_addr_t size, phys_addr_t align,
				 phys_addr_t min_addr, phys_addr_t max_addr,
				 int nid);
/* Node nid only: no fallback to other nodes. */
void *memblock_alloc_exact_nid_raw(phys_addr_t size, phys_addr_t align,
				   phys_addr_t min_addr, phys_addr_t max_addr,
				   int nid);

static inline void *memblock_alloc(phys_addr_t size, phys_addr_t align)
{
	return memblock_alloc_try_nid(size, align, MEMBLOCK_LOW_LIMIT,
				      MEMBLOCK_ALLOC_ACCESSIBLE, NUMA_NO_NODE);
}

static inline void *memblock_alloc_raw(phys_addr_t size, phys_addr_t align)
{
	return memblock_alloc_try_nid_raw(size, align, MEMBLOCK_LOW_LIMIT,
					  MEMBLOCK_ALLOC_ACCESSIBLE, NUMA_NO_NODE);
}

/* Preferably at or above min_addr (else anywhere below current_limit). */
static inline void *memblock_alloc_from(phys_addr_t size, phys_addr_t align,
					phys_addr_t min_addr)
{
	return memblock_alloc_try_nid(size, align, min_addr,
				      MEMBLOCK_ALLOC_ACCESSIBLE, NUMA_NO_NODE);
}

static inline void *memblock_alloc_low(phys_addr_t size, phys_addr_t align)
{
	return memblock_alloc_try_nid(size, align, MEMBLOCK_LOW_LIMIT,
				      ARCH_LOW_ADDRESS_LIMIT, NUMA_NO_NODE);
}

static inline void *memblock_alloc_node(phys_addr_t size, phys_addr_t align,
					int nid)
{
	return memblock_alloc_try_nid(size, align, MEMBLOCK_LOW_LIMIT,
				      MEMBLOCK_ALLOC_ACCESSIBLE, nid);
}

/* Allocate from the bottom up (from min_addr upwards), or top-down. */
void memblock_set_bottom_up(bool enable);
bool memblock_bottom_up(void);
int memblock_trim_memory(phys_addr_t align);

void memblock_set_current_limit(phys_addr_t limit);
/* From now on the kernel's tables double when full (through __va). */
void memblock_allow_resize(void);
phys_addr_t memblock_phys_mem_size(void);	/* memory.total_size */
phys_addr_t memblock_reserved_size(void);	/* reserved.total_size */
phys_addr_t memblock_start_of_DRAM(void);	/* 0 if no memory */
phys_addr_t memblock_end_of_DRAM(void);		/* end of the last region */
bool memblock_is_region_reserved(phys_addr_t base, phys_addr_t size);
bool memblock_is_memory(phys_addr_t addr);

#endif /* MM_MEMBLOCK_H */

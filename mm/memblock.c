// SPDX-License-Identifier: GPL-2.0
/*
 * memblock: the boot-time allocator of physical ranges.
 *
 * Theory of operation.
 *
 * Data. An instance (struct memblock) holds two region tables of the same
 * kind: "memory", the RAM that exists, and "reserved", the RAM in use
 * (kernel image, boot data, page tables, earlier allocations). Free
 * memory is memory minus reserved; nothing else is stored. A table is a
 * caller-provided array regions[0..max) of which the first cnt entries
 * are live; an empty table has cnt == 0 (no dummy entry). The kernel's
 * instance starts on static arrays of INIT_MEMBLOCK_REGIONS; once the
 * arch allows it (memblock_allow_resize(), when what memblock hands out
 * is mapped), a full table doubles as in Linux: the new array comes from
 * the instance's own free memory (never the range being added or
 * reserved), is reserved, and the old one, if memblock allocated it,
 * is freed. A UEFI map with hundreds of ranges needs that.
 *
 * Every region has a node id (nid; NUMA_NO_NODE until memblock_set_node
 * or memblock_add_node gives one) and flags. Node ids are plain ints in
 * the region; what is valid is the instance's nr_nodes (MAX_NUMNODES for
 * the kernel's), so tests can use several nodes whatever MAX_NUMNODES is.
 *
 * Invariants, per table, after every call (memblock_validate_type checks
 * them): cnt <= max; every region has size > 0 and ends at or below ~0
 * (base + size does not wrap); regions are sorted by base and disjoint;
 * two regions that touch differ in node or flags (touching regions of the
 * same kind are merged, so the table is the unique minimal description
 * of its addresses and their nodes); nids are NUMA_NO_NODE or below
 * nr_nodes; total_size is the sum of the sizes.
 *
 * Updates. Adding [base, end) with a node inserts the holes of the range
 * (its parts no region covers yet: what is there keeps its node, as in
 * Linux), each merging with the neighbours it touches if they have the
 * same node and flags. The change in entries is counted before anything
 * is written; the holes that merge go in first, so a full table still
 * takes an add that needs no more entries in the end. Removing [base,
 * end) replaces the run of regions that overlap it by what is left of its
 * first and last members (keeping their nodes): at most one new entry is
 * needed, and only when a single region strictly contains the range (a
 * split). memblock_set_node splits at both ends (at most two entries),
 * sets the node, then merges. When entries are not available the call
 * fails with -ENOSPC, WARNs, and leaves the table exactly as it was.
 * Ranges that run past the top of the address space are clipped to end
 * at ~0.
 *
 * Allocation. Top-down by default, like Linux: memblock_find_in_range_node
 * returns the highest aligned base such that [base, base + size) is free,
 * inside [start, end) and on the node asked for (NUMA_NO_NODE: any),
 * walking the free ranges from the top; bottom-up (mb->bottom_up) it
 * returns the lowest, walking up from start. end ==
 * MEMBLOCK_ALLOC_ACCESSIBLE stands for the instance's current_limit (an
 * explicit end is taken as given). Page 0 is never handed out (start is
 * raised to PAGE_SIZE), so 0 is unambiguous as "nothing found". Align 0
 * means 8; a non-power-of-two align WARNs and becomes PAGE_SIZE.
 * memblock_alloc_range_nid rejects bad input (WARN), then reserves what
 * it finds on the node, else on any node unless exact_nid;
 * memblock_alloc_internal (the pointer allocators) caps the range at
 * current_limit and, if that fails above a min_addr, retries from 0.
 * Cost: O(memory.cnt + reserved.cnt) per search; lookups and updates
 * binary-search, then shift.
 *
 * Caller contract. Single-threaded boot code only: no locking. The region
 * arrays belong to the instance; callers read them but change them only
 * through these functions. Ranges are [base, base + size) in bytes and
 * need not be page aligned (the buddy hand-over aligns inward). Reserved
 * ranges need not lie inside memory. The kernel's instance `memblock`
 * holds the real machine's state; tests use local instances set up by
 * memblock_instance_init. "memblock=debug" on the command line traces the
 * kernel instance's updates with their callers.
 */
#include "mm/memblock.h"

#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/mm.h"

#define MEMBLOCK_PAGE_SIZE	SZ_4K
#define MEMBLOCK_DEFAULT_ALIGN	8UL

static struct memblock_region memblock_memory_init_regions[INIT_MEMBLOCK_REGIONS];
static struct memblock_region memblock_reserved_init_regions[INIT_MEMBLOCK_REGIONS];

static void *memblock_va(phys_addr_t phys);

struct memblock memblock = {
	.nr_nodes = MAX_NUMNODES,
	.current_limit = MEMBLOCK_ALLOC_ANYWHERE,
	.phys_to_virt = memblock_va,
	.memory = {
		.max = INIT_MEMBLOCK_REGIONS,
		.regions = memblock_memory_init_regions,
		.name = "memory",
		.owner = &memblock,
	},
	.reserved = {
		.max = INIT_MEMBLOCK_REGIONS,
		.regions = memblock_reserved_init_regions,
		.name = "reserved",
		.owner = &memblock,
	},
};

static bool memblock_debug;

static int memblock_debug_setup(char *val)
{
	if (!val || strcmp(val, "debug"))
		return -EINVAL;
	memblock_debug = true;
	return 0;
}
kernel_param("memblock", memblock_debug_setup);

#define memblock_dbg(fmt, ...) do {					\
	if (memblock_debug)						\
		pr_info(fmt, ##__VA_ARGS__);				\
} while (0)

void memblock_instance_init(struct memblock *mb,
			    struct memblock_region *memory, unsigned long memory_max,
			    struct memblock_region *reserved, unsigned long reserved_max)
{
	memset(mb, 0, sizeof(*mb));
	mb->current_limit = MEMBLOCK_ALLOC_ANYWHERE;
	mb->nr_nodes = MAX_NUMNODES;
	mb->memory.max = memory_max;
	mb->memory.regions = memory;
	mb->memory.name = "memory";
	mb->reserved.max = reserved_max;
	mb->reserved.regions = reserved;
	mb->reserved.name = "reserved";
	mb->memory.owner = mb;
	mb->reserved.owner = mb;
}

void memblock_instance_allow_resize(struct memblock *mb,
				    void *(*va)(phys_addr_t phys))
{
	mb->array_va = va;
}

static inline phys_addr_t region_end(const struct memblock_region *r)
{
	return r->base + r->size;
}

/* Is nid a node id the instance knows (NUMA_NO_NODE included)? */
static bool memblock_nid_valid(const struct memblock *mb, int nid)
{
	return nid >= NUMA_NO_NODE && nid < (mb ? mb->nr_nodes : INT_MAX);
}

static inline bool same_kind(const struct memblock_region *r, int nid,
			     enum memblock_flags flags)
{
	return r->nid == nid && r->flags == flags;
}

/* Clip size so that base + size does not wrap (the end stays <= ~0). */
static inline phys_addr_t cap_size(phys_addr_t base, phys_addr_t size)
{
	return min(size, MEMBLOCK_ALLOC_ANYWHERE - base);
}

/*
 * Index of the first region ending after addr (touch: at or after addr),
 * or cnt. Ends are sorted like bases since regions are disjoint.
 */
static unsigned long first_reaching(const struct memblock_type *type,
				    phys_addr_t addr, bool touch)
{
	unsigned long lo = 0, hi = type->cnt;

	while (lo < hi) {
		unsigned long mid = lo + (hi - lo) / 2;
		phys_addr_t end = region_end(&type->regions[mid]);

		if (end > addr || (touch && end == addr))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Free room for a new array of size bytes, outside [avoid, avoid_end). */
static phys_addr_t memblock_find_array(const struct memblock *mb,
				       phys_addr_t size, phys_addr_t avoid,
				       phys_addr_t avoid_end)
{
	phys_addr_t addr;

	addr = memblock_find_in_range(mb, size, MEMBLOCK_PAGE_SIZE, 0,
				      MEMBLOCK_ALLOC_ACCESSIBLE);
	if (!addr || addr >= avoid_end || addr + size <= avoid)
		return addr;
	addr = memblock_find_in_range(mb, size, MEMBLOCK_PAGE_SIZE, 0, avoid);
	if (addr)
		return addr;
	return memblock_find_in_range(mb, size, MEMBLOCK_PAGE_SIZE, avoid_end,
				      MEMBLOCK_ALLOC_ACCESSIBLE);
}

/*
 * Double type's array (Linux's memblock_double_array); [base, end) is the
 * range about to go in, which the new array must not overlap. 0, or
 * -ENOSPC if the instance may not grow or has no room.
 */
static int memblock_double_array(struct memblock_type *type, phys_addr_t base,
				 phys_addr_t end)
{
	struct memblock *mb = type->owner;
	phys_addr_t old_phys = type->regions_phys, addr;
	phys_addr_t old_bytes = type->max * sizeof(struct memblock_region);
	phys_addr_t new_bytes = 2 * old_bytes;
	struct memblock_region *fresh;

	if (!mb || !mb->array_va)
		return -ENOSPC;
	addr = memblock_find_array(mb, new_bytes, base, end);
	fresh = addr ? mb->array_va(addr) : NULL;
	if (!fresh) {
		pr_err("memblock: no room to double the %s table to %lu regions\n",
		       type->name, 2 * type->max);
		return -ENOSPC;
	}
	memcpy(fresh, type->regions, type->cnt * sizeof(*fresh));
	type->regions = fresh;
	type->regions_phys = addr;
	type->max *= 2;
	memblock_dbg("memblock: %s is doubled to %lu at [%#lx-%#lx]\n",
		     type->name, type->max, addr, addr + new_bytes - 1);
	/* The reserved table just grew, or may grow itself: both fit. */
	if (memblock_add_range(&mb->reserved, addr, new_bytes))
		return -ENOSPC;
	if (old_phys)
		memblock_remove_range(&mb->reserved, old_phys, old_bytes);
	return 0;
}

/*
 * The next hole of [*pos, end): a range [*hb, *he) no region of type
 * covers, and the index *idx it would be inserted at. *pos moves past it.
 */
static bool next_hole(const struct memblock_type *type, phys_addr_t *pos,
		      phys_addr_t end, unsigned long *idx, phys_addr_t *hb,
		      phys_addr_t *he)
{
	const struct memblock_region *r = type->regions;
	unsigned long i = first_reaching(type, *pos, false);
	phys_addr_t p = *pos;

	for (; p < end; i++) {
		if (i >= type->cnt || r[i].base > p) {
			*hb = p;
			*he = i < type->cnt ? min(end, r[i].base) : end;
			*idx = i;
			*pos = *he;
			return true;
		}
		p = region_end(&r[i]);
	}
	*pos = end;
	return false;
}

/* Would a hole [hb, he) at index i merge with its left or right neighbour? */
static bool joins_left(const struct memblock_type *type, unsigned long i,
		       phys_addr_t hb, int nid, enum memblock_flags flags)
{
	const struct memblock_region *l;

	if (!i)
		return false;
	l = &type->regions[i - 1];
	return region_end(l) == hb && same_kind(l, nid, flags);
}

static bool joins_right(const struct memblock_type *type, unsigned long i,
			phys_addr_t he, int nid, enum memblock_flags flags)
{
	const struct memblock_region *r;

	if (i >= type->cnt)
		return false;
	r = &type->regions[i];
	return r->base == he && same_kind(r, nid, flags);
}

/* Entries the table gains (or loses, if negative) by filling the holes. */
static long count_new_entries(const struct memblock_type *type,
			      phys_addr_t base, phys_addr_t end, int nid,
			      enum memblock_flags flags)
{
	phys_addr_t pos = base, hb, he;
	unsigned long i;
	long delta = 0;

	while (next_hole(type, &pos, end, &i, &hb, &he)) {
		bool left = joins_left(type, i, hb, nid, flags);
		bool right = joins_right(type, i, he, nid, flags);

		delta += (long)(!left && !right) - (long)(left && right);
	}
	return delta;
}

/* Put the hole [hb, he) at index i, merging with like neighbours. */
static void place_hole(struct memblock_type *type, unsigned long i,
		       phys_addr_t hb, phys_addr_t he, int nid,
		       enum memblock_flags flags)
{
	struct memblock_region *r = type->regions;
	bool left = joins_left(type, i, hb, nid, flags);
	bool right = joins_right(type, i, he, nid, flags);

	if (left && right) {
		r[i - 1].size = region_end(&r[i]) - r[i - 1].base;
		memmove(&r[i], &r[i + 1], (type->cnt - i - 1) * sizeof(*r));
		type->cnt--;
	} else if (left) {
		r[i - 1].size += he - hb;
	} else if (right) {
		r[i].size += he - hb;
		r[i].base = hb;
	} else {
		BUG_ON(type->cnt >= type->max);
		memmove(&r[i + 1], &r[i], (type->cnt - i) * sizeof(*r));
		r[i] = (struct memblock_region){
			.base = hb, .size = he - hb, .flags = flags, .nid = nid,
		};
		type->cnt++;
	}
	type->total_size += he - hb;
}

/* Fill the holes of [base, end) that merge (merging) or those that don't. */
static void fill_holes(struct memblock_type *type, phys_addr_t base,
		       phys_addr_t end, int nid, enum memblock_flags flags,
		       bool merging)
{
	phys_addr_t pos = base, hb, he;
	unsigned long i;

	while (next_hole(type, &pos, end, &i, &hb, &he)) {
		bool joins = joins_left(type, i, hb, nid, flags) ||
			     joins_right(type, i, he, nid, flags);

		if (joins == merging)
			place_hole(type, i, hb, he, nid, flags);
	}
}

int memblock_add_range_nid(struct memblock_type *type, phys_addr_t base,
			   phys_addr_t size, int nid, enum memblock_flags flags)
{
	phys_addr_t end;
	long delta;

	if (WARN(!memblock_nid_valid(type->owner, nid),
		 "memblock: node %d is not valid, [%#lx-%#lx] not added to %s\n",
		 nid, base, base + cap_size(base, size) - 1, type->name))
		return -EINVAL;
	if (WARN(flags & ~MEMBLOCK_FLAGS_ALL,
		 "memblock: unknown flags %#x, [%#lx-%#lx] not added to %s\n",
		 flags, base, base + cap_size(base, size) - 1, type->name))
		return -EINVAL;
	size = cap_size(base, size);
	if (!size)
		return 0;
	end = base + size;

	delta = count_new_entries(type, base, end, nid, flags);
	if (delta > 0 && type->cnt + delta > type->max) {
		/* Doubling may change the table (reserved): count again. */
		if (!memblock_double_array(type, base, end))
			return memblock_add_range_nid(type, base, size, nid, flags);
		WARN(1, "memblock: %s table full (%lu regions), [%#lx-%#lx] not added\n",
		     type->name, type->max, base, end - 1);
		return -ENOSPC;
	}
	/* Merging holes first: the count never goes above its final value. */
	fill_holes(type, base, end, nid, flags, true);
	fill_holes(type, base, end, nid, flags, false);
	return 0;
}

int memblock_add_range(struct memblock_type *type, phys_addr_t base, phys_addr_t size)
{
	return memblock_add_range_nid(type, base, size, NUMA_NO_NODE, MEMBLOCK_NONE);
}

int memblock_remove_range(struct memblock_type *type, phys_addr_t base, phys_addr_t size)
{
	struct memblock_region *r = type->regions;
	struct memblock_region head, tail;
	unsigned long first, last, keep, i;
	phys_addr_t end, removed = 0, kept = 0;
	bool has_head, has_tail;

	size = cap_size(base, size);
	if (!size)
		return 0;
	end = base + size;

	/* The run [first, last) of regions overlapping the range. */
	first = first_reaching(type, base, false);
	for (last = first; last < type->cnt && r[last].base < end; last++)
		removed += r[last].size;
	if (first == last)
		return 0;

	head = r[first];
	tail = r[last - 1];
	has_head = head.base < base;
	has_tail = region_end(&tail) > end;
	keep = (unsigned long)has_head + (unsigned long)has_tail;

	if (keep > last - first && type->cnt >= type->max &&
	    !memblock_double_array(type, base, end))
		return memblock_remove_range(type, base, size);
	if (keep > last - first &&
	    WARN(type->cnt >= type->max,
		 "memblock: %s table full (%lu regions), cannot split for [%#lx-%#lx]\n",
		 type->name, type->max, base, end - 1))
		return -ENOSPC;

	memmove(&r[first + keep], &r[last], (type->cnt - last) * sizeof(*r));
	i = first;
	if (has_head) {
		head.size = base - head.base;
		r[i++] = head;
		kept += head.size;
	}
	if (has_tail) {
		tail.size = region_end(&tail) - end;
		tail.base = end;
		r[i] = tail;
		kept += tail.size;
	}
	type->cnt = type->cnt - (last - first) + keep;
	type->total_size = type->total_size - removed + kept;
	return 0;
}

/* Does a region of type strictly contain addr (so that it splits there)? */
static bool splits_at(const struct memblock_type *type, phys_addr_t addr)
{
	long i = memblock_search(type, addr);

	return i >= 0 && type->regions[i].base < addr;
}

/* Split the region strictly containing addr in two; there is room. */
static void split_at(struct memblock_type *type, phys_addr_t addr)
{
	struct memblock_region *r = type->regions;
	long i = memblock_search(type, addr);

	if (i < 0 || r[i].base == addr)
		return;
	BUG_ON(type->cnt >= type->max);
	memmove(&r[i + 1], &r[i], (type->cnt - i) * sizeof(*r));
	r[i + 1].base = addr;
	r[i + 1].size = region_end(&r[i]) - addr;
	r[i].size = addr - r[i].base;
	type->cnt++;
}

/* Merge every pair of touching regions with the same node and flags. */
static void memblock_merge_regions(struct memblock_type *type)
{
	struct memblock_region *r = type->regions;
	unsigned long i = 0;

	while (i + 1 < type->cnt) {
		if (region_end(&r[i]) != r[i + 1].base ||
		    !same_kind(&r[i + 1], r[i].nid, r[i].flags)) {
			i++;
			continue;
		}
		r[i].size += r[i + 1].size;
		memmove(&r[i + 1], &r[i + 2], (type->cnt - i - 2) * sizeof(*r));
		type->cnt--;
	}
}

/*
 * Split type's regions at base and end (Linux's memblock_isolate_range),
 * so that [base, end) is covered by whole regions: those from index
 * *first up to, not including, *last. -ENOSPC (WARN) if there is no room.
 */
static int memblock_isolate_range(struct memblock_type *type, phys_addr_t base,
				  phys_addr_t end, unsigned long *first,
				  unsigned long *last)
{
	unsigned long need = (unsigned long)splits_at(type, base) +
			     (unsigned long)splits_at(type, end);

	if (type->cnt + need > type->max) {
		if (!memblock_double_array(type, base, end))
			return memblock_isolate_range(type, base, end, first, last);
		WARN(1, "memblock: %s table full (%lu regions), cannot split for [%#lx-%#lx]\n",
		     type->name, type->max, base, end - 1);
		return -ENOSPC;
	}
	split_at(type, base);
	split_at(type, end);
	*first = first_reaching(type, base, false);
	for (*last = *first; *last < type->cnt && type->regions[*last].base < end;)
		(*last)++;
	return 0;
}

int memblock_set_node(phys_addr_t base, phys_addr_t size,
		      struct memblock_type *type, int nid)
{
	unsigned long first, last, i;
	int ret;

	size = cap_size(base, size);
	if (WARN(!memblock_nid_valid(type->owner, nid),
		 "memblock: node %d is not valid, %s [%#lx-%#lx] unchanged\n",
		 nid, type->name, base, base + size - 1))
		return -EINVAL;
	if (!size)
		return 0;
	ret = memblock_isolate_range(type, base, base + size, &first, &last);
	if (ret)
		return ret;
	for (i = first; i < last; i++)
		type->regions[i].nid = nid;
	memblock_merge_regions(type);
	return 0;
}

/* The highest fit, walking the free ranges of node nid from the top. */
static phys_addr_t find_top_down(const struct memblock *mb, phys_addr_t size,
				 phys_addr_t align, phys_addr_t start,
				 phys_addr_t end, int nid)
{
	const struct memblock_type *mem = &mb->memory;
	const struct memblock_type *res = &mb->reserved;
	long i, j, nres = (long)res->cnt;

	/*
	 * Walk the free ranges downwards: memory region i intersected with
	 * gap j between reserved regions j - 1 and j (gap 0 starts at 0, gap
	 * nres ends at the top). Both indices only go down.
	 */
	j = nres;
	for (i = (long)mem->cnt - 1; i >= 0; i--) {
		phys_addr_t m_base = mem->regions[i].base;
		phys_addr_t m_end = region_end(&mem->regions[i]);

		if (m_end <= start)
			break;
		if (nid != NUMA_NO_NODE && mem->regions[i].nid != nid)
			continue;
		for (; j >= 0; j--) {
			phys_addr_t g_base = j ? region_end(&res->regions[j - 1]) : 0;
			phys_addr_t g_end = j < nres ? res->regions[j].base
						     : MEMBLOCK_ALLOC_ANYWHERE;
			phys_addr_t lo, hi, cand;

			if (g_base >= m_end)
				continue;	/* gap above this region */
			if (g_end <= m_base)
				break;		/* gap below: next region */

			lo = max(max(g_base, m_base), start);
			hi = min(min(g_end, m_end), end);
			if (hi > lo && hi - lo >= size) {
				cand = ALIGN_DOWN(hi - size, align);
				if (cand >= lo)
					return cand;
			}
			if (g_base <= m_base)
				break;		/* gap goes on below the region */
		}
	}
	return 0;
}

/* The lowest fit, walking the free ranges of node nid from the bottom. */
static phys_addr_t find_bottom_up(const struct memblock *mb, phys_addr_t size,
				  phys_addr_t align, phys_addr_t start,
				  phys_addr_t end, int nid)
{
	phys_addr_t lo, hi, cand;
	u64 i;

	for_each_free_mem_range(mb, i, nid, &lo, &hi, NULL) {
		if (lo >= end)
			break;
		lo = max(lo, start);
		hi = min(hi, end);
		cand = ALIGN(lo, align);
		if (cand >= lo && cand < hi && hi - cand >= size)
			return cand;
	}
	return 0;
}

phys_addr_t memblock_find_in_range_node(const struct memblock *mb,
					phys_addr_t size, phys_addr_t align,
					phys_addr_t start, phys_addr_t end,
					int nid)
{
	if (!align)
		align = MEMBLOCK_DEFAULT_ALIGN;
	if (WARN(align & (align - 1),
		 "memblock: alignment %#lx is not a power of two\n", align))
		align = MEMBLOCK_PAGE_SIZE;
	if (end == MEMBLOCK_ALLOC_ACCESSIBLE)
		end = mb->current_limit;
	start = max(start, MEMBLOCK_PAGE_SIZE);
	if (!size || start >= end || size > end - start)
		return 0;
	if (mb->bottom_up)
		return find_bottom_up(mb, size, align, start, end, nid);
	return find_top_down(mb, size, align, start, end, nid);
}

phys_addr_t memblock_find_in_range(const struct memblock *mb, phys_addr_t size,
				   phys_addr_t align, phys_addr_t start, phys_addr_t end)
{
	return memblock_find_in_range_node(mb, size, align, start, end,
					   NUMA_NO_NODE);
}

/* Bad allocation arguments: WARN, naming the first, and true. */
static bool memblock_alloc_args_bad(const struct memblock *mb, phys_addr_t size,
				    phys_addr_t align, phys_addr_t start,
				    phys_addr_t end, int nid)
{
	if (WARN(!size, "memblock: allocation of 0 bytes refused\n"))
		return true;
	if (WARN(align & (align - 1),
		 "memblock: alignment %#lx is not a power of two, %#lx bytes not allocated\n",
		 align, size))
		return true;
	if (WARN(end != MEMBLOCK_ALLOC_ACCESSIBLE && start >= end,
		 "memblock: empty range [%#lx-%#lx), %#lx bytes not allocated\n",
		 start, end, size))
		return true;
	return WARN(!memblock_nid_valid(mb, nid),
		    "memblock: node %d is not valid (%d nodes), %#lx bytes not allocated\n",
		    nid, mb->nr_nodes, size);
}

/* Find and reserve on a node; 0 if nothing is found or it cannot be kept. */
static phys_addr_t alloc_on(struct memblock *mb, phys_addr_t size,
			    phys_addr_t align, phys_addr_t start, phys_addr_t end,
			    int nid)
{
	phys_addr_t found = memblock_find_in_range_node(mb, size, align, start,
							end, nid);

	if (!found || memblock_add_range(&mb->reserved, found, size))
		return 0;
	return found;
}

/* The node, then (unless exact_nid) any node. Arguments checked. */
static phys_addr_t alloc_nid(struct memblock *mb, phys_addr_t size,
			     phys_addr_t align, phys_addr_t start,
			     phys_addr_t end, int nid, bool exact_nid)
{
	phys_addr_t found = alloc_on(mb, size, align, start, end, nid);

	if (found || nid == NUMA_NO_NODE || exact_nid)
		return found;
	return alloc_on(mb, size, align, start, end, NUMA_NO_NODE);
}

phys_addr_t memblock_alloc_range_nid(struct memblock *mb, phys_addr_t size,
				     phys_addr_t align, phys_addr_t start,
				     phys_addr_t end, int nid, bool exact_nid)
{
	if (memblock_alloc_args_bad(mb, size, align, start, end, nid))
		return 0;
	return alloc_nid(mb, size, align, start, end, nid, exact_nid);
}

phys_addr_t memblock_alloc_range(struct memblock *mb, phys_addr_t size,
				 phys_addr_t align, phys_addr_t start, phys_addr_t end)
{
	return memblock_alloc_range_nid(mb, size, align, start, end,
					NUMA_NO_NODE, false);
}

void *memblock_alloc_internal(struct memblock *mb, phys_addr_t size,
			      phys_addr_t align, phys_addr_t min_addr,
			      phys_addr_t max_addr, int nid, bool exact_nid)
{
	phys_addr_t found;
	void *ptr;

	if (memblock_alloc_args_bad(mb, size, align, min_addr, max_addr, nid))
		return NULL;
	if (max_addr > mb->current_limit)
		max_addr = mb->current_limit;
	found = alloc_nid(mb, size, align, min_addr, max_addr, nid, exact_nid);
	if (!found && min_addr) {
		pr_info("memblock: no %#lx bytes from %#lx on node %d, retrying from 0\n",
			size, min_addr, nid);
		found = alloc_nid(mb, size, align, 0, max_addr, nid, exact_nid);
	}
	if (!found)
		return NULL;
	ptr = mb->phys_to_virt ? mb->phys_to_virt(found) : NULL;
	if (!ptr) {
		pr_err("memblock: %#lx has no virtual address, %#lx bytes not allocated\n",
		       found, size);
		memblock_remove_range(&mb->reserved, found, size);
	}
	return ptr;
}

void *memblock_instance_alloc_try_nid(struct memblock *mb, phys_addr_t size,
				      phys_addr_t align, phys_addr_t min_addr,
				      phys_addr_t max_addr, int nid)
{
	void *ptr = memblock_alloc_internal(mb, size, align, min_addr,
					    max_addr, nid, false);

	if (ptr)
		memset(ptr, 0, size);
	return ptr;
}

/* Drop memory region i. */
static void memblock_remove_region(struct memblock_type *type, unsigned long i)
{
	struct memblock_region *r = type->regions;

	type->total_size -= r[i].size;
	memmove(&r[i], &r[i + 1], (type->cnt - i - 1) * sizeof(*r));
	type->cnt--;
}

int memblock_instance_trim_memory(struct memblock *mb, phys_addr_t align)
{
	struct memblock_type *mem = &mb->memory;
	unsigned long i = 0;

	if (WARN(!align || (align & (align - 1)),
		 "memblock: trim alignment %#lx is not a power of two\n", align))
		return -EINVAL;
	while (i < mem->cnt) {
		struct memblock_region *r = &mem->regions[i];
		phys_addr_t up = (align - (r->base & (align - 1))) & (align - 1);
		phys_addr_t end = ALIGN_DOWN(region_end(r), align);

		/* up < size: the aligned start does not wrap past ~0. */
		if (up >= r->size || end <= r->base + up) {
			memblock_remove_region(mem, i);
			continue;
		}
		mem->total_size -= r->size - (end - r->base - up);
		r->base += up;
		r->size = end - r->base;
		i++;
	}
	return 0;
}

bool memblock_overlaps_region(const struct memblock_type *type,
			      phys_addr_t base, phys_addr_t size)
{
	unsigned long i;

	size = cap_size(base, size);
	if (!size)
		return false;
	i = first_reaching(type, base, false);
	return i < type->cnt && type->regions[i].base < base + size;
}

long memblock_search(const struct memblock_type *type, phys_addr_t addr)
{
	unsigned long i = first_reaching(type, addr, false);

	if (i < type->cnt && type->regions[i].base <= addr)
		return (long)i;
	return -1;
}

bool memblock_next_free_range(const struct memblock *mb, u64 *idx, int nid,
			      phys_addr_t *out_start, phys_addr_t *out_end,
			      int *out_nid)
{
	const struct memblock_type *mem = &mb->memory;
	const struct memblock_type *res = &mb->reserved;
	unsigned long i = (u32)*idx;		/* memory region */
	unsigned long j = (u32)(*idx >> 32);	/* gap before reserved[j] */

	/* The ascending mirror of the walk in memblock_find_in_range. */
	for (; i < mem->cnt; i++) {
		phys_addr_t m_base = mem->regions[i].base;
		phys_addr_t m_end = region_end(&mem->regions[i]);

		if (nid != NUMA_NO_NODE && mem->regions[i].nid != nid)
			continue;
		for (; j <= res->cnt; j++) {
			phys_addr_t g_base = j ? region_end(&res->regions[j - 1]) : 0;
			phys_addr_t g_end = j < res->cnt ? res->regions[j].base
							 : MEMBLOCK_ALLOC_ANYWHERE;

			if (g_end <= m_base)
				continue;	/* gap below this region */
			if (g_base >= m_end)
				break;		/* gap above: next region */

			if (out_start)
				*out_start = max(g_base, m_base);
			if (out_end)
				*out_end = min(g_end, m_end);
			if (out_nid)
				*out_nid = mem->regions[i].nid;
			if (m_end <= g_end)
				i++;		/* region done, gap goes on */
			else
				j++;
			*idx = (u64)i | ((u64)j << 32);
			return true;
		}
	}
	*idx = (u64)i | ((u64)j << 32);
	return false;
}

bool memblock_next_mem_pfn_range(const struct memblock *mb, int *idx, int nid,
				 unsigned long *start_pfn,
				 unsigned long *end_pfn, int *out_nid)
{
	const struct memblock_type *mem = &mb->memory;

	for (; *idx >= 0 && (unsigned long)*idx < mem->cnt; (*idx)++) {
		const struct memblock_region *r = &mem->regions[*idx];
		/* Rounded up without overflowing at the top. */
		unsigned long s = (r->base >> 12) + !!(r->base & 0xfff);
		unsigned long e = region_end(r) >> 12;

		if ((nid != NUMA_NO_NODE && r->nid != nid) || s >= e)
			continue;
		if (start_pfn)
			*start_pfn = s;
		if (end_pfn)
			*end_pfn = e;
		if (out_nid)
			*out_nid = r->nid;
		(*idx)++;
		return true;
	}
	return false;
}

int memblock_validate_type(const struct memblock_type *type)
{
	const char *name = type->name ? type->name : "?";
	phys_addr_t sum = 0;
	unsigned long i;

	if (type->cnt > type->max) {
		pr_err("memblock: %s: cnt %lu > max %lu\n", name, type->cnt, type->max);
		return -EINVAL;
	}
	if (type->cnt && !type->regions) {
		pr_err("memblock: %s: %lu regions but no array\n", name, type->cnt);
		return -EINVAL;
	}
	for (i = 0; i < type->cnt; i++) {
		const struct memblock_region *r = &type->regions[i];

		if (!r->size) {
			pr_err("memblock: %s[%#lx]: empty region at %#lx\n",
			       name, i, r->base);
			return -EINVAL;
		}
		if (r->size > MEMBLOCK_ALLOC_ANYWHERE - r->base) {
			pr_err("memblock: %s[%#lx]: base %#lx size %#lx wraps\n",
			       name, i, r->base, r->size);
			return -EINVAL;
		}
		if (!memblock_nid_valid(type->owner, r->nid) ||
		    (r->flags & ~MEMBLOCK_FLAGS_ALL)) {
			pr_err("memblock: %s[%#lx]: node %d flags %#x not valid\n",
			       name, i, r->nid, r->flags);
			return -EINVAL;
		}
		if (i) {
			const struct memblock_region *p = &type->regions[i - 1];
			const char *what = NULL;

			if (r->base < p->base)
				what = "is below";
			else if (r->base < region_end(p))
				what = "overlaps";
			else if (r->base == region_end(p) &&
				 same_kind(r, p->nid, p->flags))
				what = "touches (unmerged)";
			if (what) {
				pr_err("memblock: %s[%#lx] [%#lx-%#lx] %s [%#lx-%#lx]\n",
				       name, i, r->base, region_end(r) - 1, what,
				       p->base, region_end(p) - 1);
				return -EINVAL;
			}
		}
		sum += r->size;
	}
	if (sum != type->total_size) {
		pr_err("memblock: %s: total_size %#lx, regions sum to %#lx\n",
		       name, type->total_size, sum);
		return -EINVAL;
	}
	return 0;
}

static void memblock_dump_type(const struct memblock_type *type)
{
	unsigned long i;

	pr_info(" %s.cnt  = 0x%lx\n", type->name, type->cnt);
	for (i = 0; i < type->cnt; i++) {
		const struct memblock_region *r = &type->regions[i];
		char node[20] = "";

		if (r->nid != NUMA_NO_NODE)
			snprintf(node, sizeof(node), " on node %d", r->nid);
		pr_info(" %s[0x%lx]\t[0x%016lx-0x%016lx], 0x%016lx bytes%s flags: 0x%x\n",
			type->name, i, r->base, region_end(r) - 1, r->size,
			node, r->flags);
	}
}

void memblock_dump_instance(const struct memblock *mb)
{
	pr_info("MEMBLOCK configuration:\n");
	pr_info(" memory size = 0x%016lx reserved size = 0x%016lx\n",
		mb->memory.total_size, mb->reserved.total_size);
	memblock_dump_type(&mb->memory);
	memblock_dump_type(&mb->reserved);
}

/* --- the kernel's instance ----------------------------------------------- */

int memblock_add(phys_addr_t base, phys_addr_t size)
{
	memblock_dbg("memblock_add: [%#lx-%#lx] %pS\n", base,
		     base + cap_size(base, size) - 1, (void *)_RET_IP_);
	return memblock_add_range(&memblock.memory, base, size);
}

int memblock_add_node(phys_addr_t base, phys_addr_t size, int nid,
		      enum memblock_flags flags)
{
	memblock_dbg("memblock_add_node: [%#lx-%#lx] nid=%d flags=%#x %pS\n",
		     base, base + cap_size(base, size) - 1, nid, flags,
		     (void *)_RET_IP_);
	return memblock_add_range_nid(&memblock.memory, base, size, nid, flags);
}

int memblock_remove(phys_addr_t base, phys_addr_t size)
{
	memblock_dbg("memblock_remove: [%#lx-%#lx] %pS\n", base,
		     base + cap_size(base, size) - 1, (void *)_RET_IP_);
	return memblock_remove_range(&memblock.memory, base, size);
}

int memblock_reserve(phys_addr_t base, phys_addr_t size)
{
	memblock_dbg("memblock_reserve: [%#lx-%#lx] %pS\n", base,
		     base + cap_size(base, size) - 1, (void *)_RET_IP_);
	return memblock_add_range(&memblock.reserved, base, size);
}

int memblock_phys_free(phys_addr_t base, phys_addr_t size)
{
	memblock_dbg("memblock_phys_free: [%#lx-%#lx] %pS\n", base,
		     base + cap_size(base, size) - 1, (void *)_RET_IP_);
	return memblock_remove_range(&memblock.reserved, base, size);
}

phys_addr_t memblock_phys_alloc_range(phys_addr_t size, phys_addr_t align,
				      phys_addr_t start, phys_addr_t end)
{
	phys_addr_t found = memblock_alloc_range(&memblock, size, align, start, end);

	memblock_dbg("memblock_phys_alloc_range: %#lx bytes align=%#lx [%#lx-%#lx) -> %#lx %pS\n",
		     size, align, start, end, found, (void *)_RET_IP_);
	return found;
}

phys_addr_t memblock_phys_alloc(phys_addr_t size, phys_addr_t align)
{
	phys_addr_t found = memblock_alloc_range(&memblock, size, align, 0,
						 MEMBLOCK_ALLOC_ACCESSIBLE);

	if (!found)
		pr_err("memblock: failed to allocate %#lx bytes align=%#lx below %#lx (%pS)\n",
		       size, align, memblock.current_limit, (void *)_RET_IP_);
	else
		memblock_dbg("memblock_phys_alloc: %#lx bytes align=%#lx -> %#lx %pS\n",
			     size, align, found, (void *)_RET_IP_);
	return found;
}

phys_addr_t memblock_phys_alloc_try_nid(phys_addr_t size, phys_addr_t align,
					int nid)
{
	phys_addr_t found = memblock_alloc_range_nid(&memblock, size, align, 0,
						     MEMBLOCK_ALLOC_ACCESSIBLE,
						     nid, false);

	memblock_dbg("memblock_phys_alloc_try_nid: %#lx bytes align=%#lx nid=%d -> %#lx %pS\n",
		     size, align, nid, found, (void *)_RET_IP_);
	return found;
}

void *memblock_alloc_try_nid(phys_addr_t size, phys_addr_t align,
			     phys_addr_t min_addr, phys_addr_t max_addr, int nid)
{
	memblock_dbg("memblock_alloc_try_nid: %#lx bytes align=%#lx nid=%d from=%#lx max_addr=%#lx %pS\n",
		     size, align, nid, min_addr, max_addr, (void *)_RET_IP_);
	return memblock_instance_alloc_try_nid(&memblock, size, align, min_addr,
					       max_addr, nid);
}

void *memblock_alloc_try_nid_raw(phys_addr_t size, phys_addr_t align,
				 phys_addr_t min_addr, phys_addr_t max_addr,
				 int nid)
{
	memblock_dbg("memblock_alloc_try_nid_raw: %#lx bytes align=%#lx nid=%d from=%#lx max_addr=%#lx %pS\n",
		     size, align, nid, min_addr, max_addr, (void *)_RET_IP_);
	return memblock_alloc_internal(&memblock, size, align, min_addr,
				       max_addr, nid, false);
}

void *memblock_alloc_exact_nid_raw(phys_addr_t size, phys_addr_t align,
				   phys_addr_t min_addr, phys_addr_t max_addr,
				   int nid)
{
	memblock_dbg("memblock_alloc_exact_nid_raw: %#lx bytes align=%#lx nid=%d from=%#lx max_addr=%#lx %pS\n",
		     size, align, nid, min_addr, max_addr, (void *)_RET_IP_);
	return memblock_alloc_internal(&memblock, size, align, min_addr,
				       max_addr, nid, true);
}

void memblock_set_bottom_up(bool enable)
{
	memblock.bottom_up = enable;
}

bool memblock_bottom_up(void)
{
	return memblock.bottom_up;
}

int memblock_trim_memory(phys_addr_t align)
{
	return memblock_instance_trim_memory(&memblock, align);
}

static void *memblock_va(phys_addr_t phys)
{
	return __va(phys);
}

void memblock_allow_resize(void)
{
	memblock_instance_allow_resize(&memblock, memblock_va);
}

void memblock_set_current_limit(phys_addr_t limit)
{
	memblock.current_limit = limit;
}

phys_addr_t memblock_phys_mem_size(void)
{
	return memblock.memory.total_size;
}

phys_addr_t memblock_reserved_size(void)
{
	return memblock.reserved.total_size;
}

phys_addr_t memblock_start_of_DRAM(void)
{
	return memblock.memory.cnt ? memblock.memory.regions[0].base : 0;
}

phys_addr_t memblock_end_of_DRAM(void)
{
	unsigned long cnt = memblock.memory.cnt;

	return cnt ? region_end(&memblock.memory.regions[cnt - 1]) : 0;
}

bool memblock_is_region_reserved(phys_addr_t base, phys_addr_t size)
{
	return memblock_overlaps_region(&memblock.reserved, base, size);
}

bool memblock_is_memory(phys_addr_t addr)
{
	return memblock_search(&memblock.memory, addr) >= 0;
}

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
 * Invariants, per table, after every call (memblock_validate_type checks
 * them): cnt <= max; every region has size > 0 and ends at or below ~0
 * (base + size does not wrap); regions are sorted by base and disjoint;
 * no two regions touch (adjacent and overlapping ranges are merged, so
 * the table is the unique minimal description of its set of addresses);
 * total_size is the sum of the sizes.
 *
 * Updates. Adding [base, end) replaces the run of regions that overlap or
 * touch it by their union: at most one new entry is needed, and only when
 * the run is empty. Removing [base, end) replaces the run of regions that
 * overlap it by what is left of its first and last members: at most one
 * new entry is needed, and only when a single region strictly contains
 * the range (a split). When the entry is not available the call fails
 * with -ENOSPC, WARNs, and leaves the table exactly as it was. Ranges
 * that run past the top of the address space are clipped to end at ~0.
 *
 * Allocation. Top-down, like Linux: memblock_find_in_range returns the
 * highest aligned base such that [base, base + size) is free and inside
 * [start, end), walking the free ranges from the top. end ==
 * MEMBLOCK_ALLOC_ACCESSIBLE stands for the instance's current_limit (an
 * explicit end is taken as given). Page 0 is never handed out (start is
 * raised to PAGE_SIZE), so 0 is unambiguous as "nothing found". Align 0
 * means 8; a non-power-of-two align WARNs and becomes PAGE_SIZE.
 * memblock_alloc_range reserves what it found. Cost: O(memory.cnt +
 * reserved.cnt) per search; lookups and updates binary-search, then shift.
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
#include "lib/string.h"
#include "mm/mm.h"

#define MEMBLOCK_PAGE_SIZE	SZ_4K
#define MEMBLOCK_DEFAULT_ALIGN	8UL

static struct memblock_region memblock_memory_init_regions[INIT_MEMBLOCK_REGIONS];
static struct memblock_region memblock_reserved_init_regions[INIT_MEMBLOCK_REGIONS];

struct memblock memblock = {
	.current_limit = MEMBLOCK_ALLOC_ANYWHERE,
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

int memblock_add_range(struct memblock_type *type, phys_addr_t base, phys_addr_t size)
{
	struct memblock_region *r = type->regions;
	unsigned long first, last;
	phys_addr_t end, merged = 0;

	size = cap_size(base, size);
	if (!size)
		return 0;
	end = base + size;

	/* The run [first, last) of regions overlapping or touching the range. */
	first = first_reaching(type, base, true);
	for (last = first; last < type->cnt && r[last].base <= end; last++)
		merged += r[last].size;

	if (first == last) {
		if (type->cnt >= type->max &&
		    !memblock_double_array(type, base, end))
			return memblock_add_range(type, base, size);
		if (WARN(type->cnt >= type->max,
			 "memblock: %s table full (%lu regions), [%#lx-%#lx] not added\n",
			 type->name, type->max, base, end - 1))
			return -ENOSPC;
		memmove(&r[first + 1], &r[first],
			(type->cnt - first) * sizeof(*r));
		r[first].base = base;
		r[first].size = size;
		type->cnt++;
		type->total_size += size;
		return 0;
	}

	base = min(base, r[first].base);
	end = max(end, region_end(&r[last - 1]));
	r[first].base = base;
	r[first].size = end - base;
	memmove(&r[first + 1], &r[last], (type->cnt - last) * sizeof(*r));
	type->cnt -= last - first - 1;
	type->total_size = type->total_size - merged + (end - base);
	return 0;
}

int memblock_remove_range(struct memblock_type *type, phys_addr_t base, phys_addr_t size)
{
	struct memblock_region *r = type->regions;
	unsigned long first, last, keep, i;
	phys_addr_t end, head_base, tail_end, removed = 0, kept = 0;
	bool head, tail;

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

	head_base = r[first].base;
	tail_end = region_end(&r[last - 1]);
	head = head_base < base;
	tail = tail_end > end;
	keep = (unsigned long)head + (unsigned long)tail;

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
	if (head) {
		r[i].base = head_base;
		r[i].size = base - head_base;
		kept += r[i].size;
		i++;
	}
	if (tail) {
		r[i].base = end;
		r[i].size = tail_end - end;
		kept += r[i].size;
	}
	type->cnt = type->cnt - (last - first) + keep;
	type->total_size = type->total_size - removed + kept;
	return 0;
}

phys_addr_t memblock_find_in_range(const struct memblock *mb, phys_addr_t size,
				   phys_addr_t align, phys_addr_t start, phys_addr_t end)
{
	const struct memblock_type *mem = &mb->memory;
	const struct memblock_type *res = &mb->reserved;
	long i, j, nres = (long)res->cnt;

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

phys_addr_t memblock_alloc_range(struct memblock *mb, phys_addr_t size,
				 phys_addr_t align, phys_addr_t start, phys_addr_t end)
{
	phys_addr_t found = memblock_find_in_range(mb, size, align, start, end);

	if (!found || memblock_add_range(&mb->reserved, found, size))
		return 0;
	return found;
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

bool memblock_next_free_range(const struct memblock *mb, u64 *idx,
			      phys_addr_t *out_start, phys_addr_t *out_end)
{
	const struct memblock_type *mem = &mb->memory;
	const struct memblock_type *res = &mb->reserved;
	unsigned long i = (u32)*idx;		/* memory region */
	unsigned long j = (u32)(*idx >> 32);	/* gap before reserved[j] */

	/* The ascending mirror of the walk in memblock_find_in_range. */
	for (; i < mem->cnt; i++) {
		phys_addr_t m_base = mem->regions[i].base;
		phys_addr_t m_end = region_end(&mem->regions[i]);

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
		if (i) {
			const struct memblock_region *p = &type->regions[i - 1];
			const char *what = NULL;

			if (r->base < p->base)
				what = "is below";
			else if (r->base < region_end(p))
				what = "overlaps";
			else if (r->base == region_end(p))
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

		pr_info(" %s[0x%lx]\t[0x%016lx-0x%016lx], 0x%016lx bytes\n",
			type->name, i, r->base, region_end(r) - 1, r->size);
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

void memblock_dump_all(void)
{
	memblock_dump_instance(&memblock);
}

int memblock_add(phys_addr_t base, phys_addr_t size)
{
	memblock_dbg("memblock_add: [%#lx-%#lx] %pS\n", base,
		     base + cap_size(base, size) - 1, (void *)_RET_IP_);
	return memblock_add_range(&memblock.memory, base, size);
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

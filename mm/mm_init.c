// SPDX-License-Identifier: GPL-2.0
/*
 * Memory bring-up: from the firmware's map to an initialised mem_map.
 *
 * 1. arch_memory_setup(): the arch reads the firmware's memory map,
 *    sanitizes and prints it (on x86_64 the e820 table, BIOS-e820).
 * 2. The command line runs next: the arch's map parameters (mem=,
 *    memmap=) edit that map.
 * 3. arch_memblock_setup(): usable RAM goes to memblock.memory, what the
 *    firmware owns is reserved, and max_pfn is set. Every reservation
 *    is booked under a reason (memblock_reserve_named()), printed as
 *    "Reserved at boot".
 * 4. setup_arch() (arch) reserves its own ranges and maps all RAM.
 * 5. mm_core_init(): vmemmap is backed for every RAM range (holes get
 *    nothing); each online node gets a pg_data_t from memblock on the
 *    node (Linux's alloc_node_data; a memoryless node's lies elsewhere)
 *    and its zones are laid out over the node's pfns; the struct pages
 *    of RAM are initialised (reserved, refcount 1, its zone and node in
 *    flags, node from memblock); the zonelists are built; and the free
 *    memblock ranges are handed to the buddy allocator
 *    (mm/page_alloc.c); KFENCE's pool is set aside before that
 *    (mm/kfence.c). Last, SLAB bootstraps its caches, and
 *    the fault injection the command line asked for is armed.
 * 6. Deferred struct page init (mm/internal.h says what it defers), per
 *    node: in step 5 each node's last zone is initialised only up to
 *    first_deferred_pfn (and its reserved ranges); deferred_grow_zone()
 *    does the rest a unit (a section, or deferred_init=) at a time when
 *    an allocation needs it.
 *    Until then the deferred pages are in no counter but present_pages:
 *    MemTotal (totalram_pages) and managed grow with each unit, and
 *    present - managed = reserved + nr_deferred_pages().
 *
 * After this, memblock stays as the record of what RAM exists (pfn_valid
 * asks it) and of what is free in the deferred part, but allocates
 * nothing more.
 */
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
#include "lib/string.h"
#include "mm/fault_inject.h"
#include "mm/gfp.h"
#include "mm/internal.h"
#include "mm/kasan.h"
#include "mm/kfence.h"
#include "mm/memblock.h"
#include "mm/mm.h"
#include "mm/numa.h"
#include "mm/vmalloc.h"
#include "mm/slab_internal.h"
#include "arch/arch.h"

unsigned long page_offset_base;
struct page *vmemmap;
unsigned long max_pfn;
unsigned long totalram_pages;
unsigned long vmemmap_bytes;
struct pglist_data *node_data[MAX_NUMNODES];

struct reserve_reason reserve_ledger[MAX_RESERVE_REASONS];

static const char *const zone_names[MAX_NR_ZONES] = {
	[ZONE_DMA] = "DMA",
	[ZONE_DMA32] = "DMA32",
	[ZONE_NORMAL] = "Normal",
};

/* --- 3: what boot reserved, and why ----------------------------------- */

static void ledger_add(const char *reason, unsigned long pages)
{
	for (int i = 0; i < MAX_RESERVE_REASONS; i++) {
		struct reserve_reason *r = &reserve_ledger[i];

		if (!r->name || !strcmp(r->name, reason)) {
			r->name = reason;
			r->pages += pages;
			return;
		}
	}
	panic("boot: more than %d reservation reasons", MAX_RESERVE_REASONS);
}

/*
 * Reservations may overlap (GRUB can put the boot information in a gap
 * between the kernel's segments, inside the image's range): a page is
 * booked once, under the first reason that reserved any of it.
 */
void memblock_reserve_named(phys_addr_t base, phys_addr_t size,
			    const char *reason)
{
	unsigned long fresh = 0;

	for (unsigned long pfn = PFN_DOWN(base); pfn < PFN_UP(base + size); pfn++)
		fresh += !memblock_is_region_reserved(PFN_PHYS(pfn), PAGE_SIZE);
	memblock_reserve(base, size);
	ledger_add(reason, fresh);
}

phys_addr_t memblock_alloc_pages_nid_named(unsigned long pages,
					   phys_addr_t align, int nid,
					   const char *reason)
{
	phys_addr_t phys = nid == NUMA_NO_NODE ?
		memblock_phys_alloc(pages << PAGE_SHIFT, align) :
		memblock_phys_alloc_try_nid(pages << PAGE_SHIFT, align, nid);

	if (phys)
		ledger_add(reason, pages);
	return phys;
}

phys_addr_t memblock_alloc_pages_aligned_named(unsigned long pages,
					       phys_addr_t align,
					       const char *reason)
{
	return memblock_alloc_pages_nid_named(pages, align, NUMA_NO_NODE,
					      reason);
}

phys_addr_t memblock_alloc_pages_named(unsigned long pages, const char *reason)
{
	return memblock_alloc_pages_aligned_named(pages, PAGE_SIZE, reason);
}

/* --- 5: mem_map and zones ----------------------------------------------- */

/*
 * Whether a pfn is RAM is asked on every buddy merge and every free, so
 * the answer must not search memblock each time: a bitmap says which
 * 2 MiB chunks are RAM through and through (nearly all of them), which
 * those paths read inline (pfn_in_ram_chunk(), mm/internal.h), and only
 * pfns in the other chunks ask memblock (pfn_valid()).
 */

unsigned long *ram_chunks;
unsigned long ram_chunks_pfns;

bool pfn_valid(unsigned long pfn)
{
	if (pfn >= max_pfn)
		return false;
	return pfn_in_ram_chunk(pfn) || memblock_is_memory(PFN_PHYS(pfn));
}

static void init_ram_chunks(void)
{
	unsigned long chunks = DIV_ROUND_UP(max_pfn, 1UL << PFN_CHUNK_SHIFT);
	unsigned long words = DIV_ROUND_UP(chunks, BITS_PER_LONG);
	phys_addr_t phys = memblock_alloc_pages_named(
		PFN_UP(words * sizeof(long)), "pfn chunk map");
	unsigned long *map;

	if (!phys)
		return;		/* pfn_valid() just stays slow */
	map = __va(phys);
	memset(map, 0, words * sizeof(long));
	for (unsigned long c = 0; c < chunks; c++) {
		phys_addr_t base = PFN_PHYS(c << PFN_CHUNK_SHIFT);
		int r = memblock_search(&memblock.memory, base);

		if (r >= 0 && memblock.memory.regions[r].base +
			      memblock.memory.regions[r].size >= base + SZ_2M)
			map[c / BITS_PER_LONG] |= 1UL << (c % BITS_PER_LONG);
	}
	ram_chunks = map;
	barrier();	/* the map before the bound that lets it be read */
	WRITE_ONCE(ram_chunks_pfns, max_pfn);
}

bool virt_addr_valid(const void *virt)
{
	unsigned long addr = (unsigned long)virt;

	return addr >= page_offset_base && pfn_valid(PHYS_PFN(__pa(virt)));
}

static void sparse_init(void)
{
	const struct memblock_type *mem = &memblock.memory;

	for (unsigned long i = 0; i < mem->cnt; i++) {
		const struct memblock_region *r = &mem->regions[i];
		unsigned long start = PFN_UP(r->base);
		unsigned long end = PFN_DOWN(r->base + r->size);

		if (start < end)
			vmemmap_bytes += vmemmap_populate(
				(unsigned long)pfn_to_page(start),
				(unsigned long)pfn_to_page(end), r->nid);
	}
}

static void zone_pfn_limits(enum zone_type z, unsigned long *start,
			    unsigned long *end)
{
	static const unsigned long zone_max_pfn[MAX_NR_ZONES] = {
		[ZONE_DMA] = MAX_DMA_PFN,
		[ZONE_DMA32] = MAX_DMA32_PFN,
		[ZONE_NORMAL] = ~0UL,
	};

	*start = z == 0 ? 0 : zone_max_pfn[z - 1];
	*end = min(zone_max_pfn[z], max_pfn);
}

/*
 * The whole pages of the physical range [ps, pe) that lie in the pfns
 * [start, end): [*s, *e); false if none do.
 */
static bool pfns_within(phys_addr_t ps, phys_addr_t pe, unsigned long start,
			unsigned long end, unsigned long *s, unsigned long *e)
{
	*s = max(PFN_UP(ps), start);
	*e = min(PFN_DOWN(pe), end);
	return *s < *e;
}

/* The whole pages of memblock region i of mem in [start, end). */
static bool region_pfns_within(const struct memblock_type *mem,
			       unsigned long i, unsigned long start,
			       unsigned long end, unsigned long *s,
			       unsigned long *e)
{
	const struct memblock_region *r = &mem->regions[i];

	return pfns_within(r->base, r->base + r->size, start, end, s, e);
}

/* Is memblock region i of mem node nid's RAM? */
static bool region_on_node(const struct memblock_type *mem, unsigned long i,
			   int nid)
{
	return memblock_get_region_node(&mem->regions[i]) == nid;
}

/*
 * Count node nid's RAM pfns in [start, end), and the first and last of
 * them.
 */
static unsigned long memory_pfns_in(int nid, unsigned long start,
				    unsigned long end, unsigned long *first,
				    unsigned long *last)
{
	const struct memblock_type *mem = &memblock.memory;
	unsigned long count = 0, s, e;

	*first = ~0UL;
	*last = 0;
	for (unsigned long i = 0; i < mem->cnt; i++) {
		if (!region_on_node(mem, i, nid) ||
		    !region_pfns_within(mem, i, start, end, &s, &e))
			continue;
		count += e - s;
		*first = min(*first, s);
		*last = max(*last, e - 1);
	}
	return count;
}

/* One assignment of the whole page: stores, not a memset call per page. */
static void init_single_page(struct page *page, enum zone_type zone, int nid)
{
	*page = (struct page){
		.flags = ((unsigned long)zone << ZONES_PGSHIFT) |
			 ((unsigned long)nid << NODES_PGSHIFT),
	};
	INIT_LIST_HEAD(&page->lru);
	set_page_count(page, 1);
	SetPageReserved(page);
}

/* The zone's span and present pages; its struct pages come later. */
static void init_zone(struct pglist_data *pgdat, enum zone_type z)
{
	struct zone *zone = &pgdat->node_zones[z];
	unsigned long start, end, first, last;

	zone->name = zone_names[z];
	zone->zone_pgdat = pgdat;
	zone_pcp_init(zone);
	for (int order = 0; order < MAX_ORDER; order++)
		INIT_LIST_HEAD(&zone->free_area[order].free_list);
	zone_pfn_limits(z, &start, &end);
	zone->present_pages = start < end ?
			      memory_pfns_in(pgdat->node_id, start, end,
					     &first, &last) : 0;
	if (!zone->present_pages)
		return;
	zone->zone_start_pfn = first;
	zone->spanned_pages = last + 1 - first;
}

/*
 * The struct pages of the zone's node's RAM in [start, end), memblock
 * range by range: each gets its zone and node in its flags
 * (set_page_zone, set_page_node), so page_zone() finds the zone.
 */
static void init_pfn_range(struct zone *zone, unsigned long start,
			   unsigned long end)
{
	const struct memblock_type *mem = &memblock.memory;
	enum zone_type z = zone_idx(zone);
	int nid = zone_to_nid(zone);
	unsigned long s, e;

	for (unsigned long i = 0; i < mem->cnt; i++) {
		if (!region_on_node(mem, i, nid) ||
		    !region_pfns_within(mem, i, start, end, &s, &e))
			continue;
		for (unsigned long pfn = s; pfn < e; pfn++)
			init_single_page(pfn_to_page(pfn), z, nid);
	}
}

/*
 * Deferred init's unit, in pages: what boot initialises of the last zone
 * (one unit past its start, up to a unit boundary) and what each growth
 * adds. A section by default, as Linux; deferred_init=SIZE makes it
 * smaller, for a boot that must be cheap whatever the RAM (the malloc
 * shim starts in every process).
 */
unsigned long deferred_init_pages = PAGES_PER_SECTION;

static int deferred_init_setup(char *val)
{
	unsigned long long bytes;
	char *end;

	if (!val)
		return -EINVAL;
	bytes = memparse(val, &end);
	if (*end || !bytes || (bytes & (bytes - 1)) ||
	    bytes < PFN_PHYS(MAX_ORDER_NR_PAGES) ||
	    bytes > PFN_PHYS(PAGES_PER_SECTION)) {
		pr_warn("deferred_init=%s: not a power of two from %luM to %luM, kept %luM\n",
			val, PFN_PHYS(MAX_ORDER_NR_PAGES) >> 20,
			PFN_PHYS(PAGES_PER_SECTION) >> 20,
			deferred_init_pages >> (20 - PAGE_SHIFT));
		return -EINVAL;
	}
	deferred_init_pages = (unsigned long)PFN_DOWN(bytes);
	return 0;
}
kernel_param("deferred_init", deferred_init_setup);

/*
 * Linux's defer_init(): only the node's last zone defers, after its
 * first unit of pages, at a unit boundary; the lower zones are there in
 * full for allocations that need low addresses.
 */
static void set_first_deferred_pfn(struct pglist_data *pgdat)
{
	struct zone *zone = NULL;
	unsigned long pfn;

	pgdat->first_deferred_pfn = ULONG_MAX;
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		if (populated_zone(&pgdat->node_zones[z]))
			zone = &pgdat->node_zones[z];
	}
	if (!zone)
		return;
	pfn = ALIGN(zone->zone_start_pfn + deferred_init_pages + 1,
		    deferred_init_pages);
	if (pfn < zone_end_pfn(zone))
		pgdat->first_deferred_pfn = pfn;
}

/*
 * Every struct page below first_deferred_pfn, and beyond it those of
 * memblock's reserved ranges (Linux's memmap_init_reserved_pages):
 * boot's own pages are PageReserved wherever they lie.
 */
static void memmap_init(struct pglist_data *pgdat)
{
	const struct memblock_type *rsv = &memblock.reserved;
	unsigned long deferred = pgdat->first_deferred_pfn;
	struct zone *zone, *last = NULL;

	for (int z = 0; z < MAX_NR_ZONES; z++) {
		zone = &pgdat->node_zones[z];
		if (!populated_zone(zone))
			continue;
		init_pfn_range(zone, zone->zone_start_pfn,
			       min(zone_end_pfn(zone), deferred));
		last = zone;
	}
	if (deferred == ULONG_MAX)
		return;
	zone = last;
	for (unsigned long i = 0; i < rsv->cnt; i++) {
		unsigned long s = PFN_DOWN(rsv->regions[i].base);
		unsigned long e = PFN_UP(rsv->regions[i].base + rsv->regions[i].size);

		s = max(s, deferred);
		e = min(e, zone_end_pfn(zone));
		if (s < e)
			init_pfn_range(zone, s, e);
	}
}

/*
 * Node nid's pg_data_t, from memblock on the node itself (or, for a
 * node without memory, anywhere: Linux puts it on the nearest node),
 * booked as "node data"; Linux's alloc_node_data() and its boot line.
 */
static struct pglist_data *alloc_node_data(int nid)
{
	phys_addr_t size = PAGE_ALIGN(sizeof(struct pglist_data));
	struct pglist_data *pgdat;
	phys_addr_t pa;
	long r;

	pgdat = memblock_alloc_try_nid(size, PAGE_SIZE, 0,
				       MEMBLOCK_ALLOC_ACCESSIBLE, nid);
	if (!pgdat)
		panic("Cannot allocate %llu bytes for node %d data",
		      (unsigned long long)size, nid);
	pa = __pa(pgdat);
	ledger_add("node data", PFN_DOWN(size));
	pr_info("NODE_DATA(%d) allocated [mem %#010llx-%#010llx]\n", nid,
		(unsigned long long)pa, (unsigned long long)(pa + size - 1));
	r = memblock_search(&memblock.memory, pa);
	if (r >= 0 && memblock_get_region_node(&memblock.memory.regions[r]) != nid)
		pr_info("    NODE_DATA(%d) on node %d\n", nid,
			memblock_get_region_node(&memblock.memory.regions[r]));
	return pgdat;
}

/* The first and one past the last pfn of node nid's RAM (0, 0: none). */
static void node_pfn_span(int nid, unsigned long *start, unsigned long *end)
{
	unsigned long first, last;

	if (!memory_pfns_in(nid, 0, max_pfn, &first, &last)) {
		*start = *end = 0;
		return;
	}
	*start = first;
	*end = last + 1;
}

/* Linux's free_area_init_node(): the node's zones, span and mem_map. */
static void free_area_init_node(struct pglist_data *pgdat, int nid)
{
	unsigned long start, end;

	node_pfn_span(nid, &start, &end);
	pgdat->node_id = nid;
	pgdat->node_start_pfn = start;
	pgdat->node_spanned_pages = end - start;
	spin_lock_init(&pgdat->node_size_lock);
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &pgdat->node_zones[z];

		init_zone(pgdat, z);
		pgdat->node_present_pages += zone->present_pages;
	}
	set_first_deferred_pfn(pgdat);
	memmap_init(pgdat);
	WRITE_ONCE(node_data[nid], pgdat);
}

/*
 * A pg_data_t for every online node, memoryless ones included (their
 * zones are empty; their zonelists lead to the nearest node with
 * memory), then the zonelists.
 */
static void free_area_init(void)
{
	struct pglist_data *pgdat[MAX_NUMNODES] = { NULL };

	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		if (node_online(nid))
			pgdat[nid] = alloc_node_data(nid);
	}
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		if (pgdat[nid])
			free_area_init_node(pgdat[nid], nid);
	}
	BUG_ON(!node_data[0]);
	build_all_zonelists();
}

struct pglist_data *next_online_pgdat(struct pglist_data *pgdat)
{
	int nid = pgdat ? pgdat->node_id + 1 : 0;

	for (; nid < MAX_NUMNODES; nid++) {
		struct pglist_data *next = READ_ONCE(node_data[nid]);

		if (next)
			return next;
	}
	return NULL;
}

struct zone *next_zone(struct zone *zone)
{
	struct pglist_data *pgdat;

	if (!zone) {
		pgdat = next_online_pgdat(NULL);
		return pgdat ? pgdat->node_zones : NULL;
	}
	pgdat = zone->zone_pgdat;
	if (zone < pgdat->node_zones + MAX_NR_ZONES - 1)
		return zone + 1;
	pgdat = next_online_pgdat(pgdat);
	return pgdat ? pgdat->node_zones : NULL;
}

/* --- deferred struct page init ------------------------------------------- */

/*
 * The free memblock pages of node nid in [start, end) (memblock's RAM
 * not reserved).
 */
static unsigned long free_pfns_in(int nid, unsigned long start,
				  unsigned long end)
{
	unsigned long count = 0, s, e;
	phys_addr_t ps, pe;
	u64 i;

	for_each_free_mem_range(&memblock, i, nid, &ps, &pe, NULL) {
		if (pfns_within(ps, pe, start, end, &s, &e))
			count += e - s;
	}
	return count;
}

unsigned long zone_deferred_pages(const struct zone *zone)
{
	unsigned long first = READ_ONCE(zone->zone_pgdat->first_deferred_pfn);

	if (!zone_spans_pfn(zone, first))
		return 0;
	return free_pfns_in(zone_to_nid(zone), first, zone_end_pfn(zone));
}

unsigned long nr_deferred_pages(void)
{
	unsigned long sum = 0;
	struct zone *zone;

	for_each_zone(zone)
		sum += zone_deferred_pages(zone);
	return sum;
}

/* Initialise the free memblock ranges of [start, end) and free them. */
static void deferred_init_range(struct zone *zone, unsigned long start,
				unsigned long end)
{
	unsigned long s, e;
	phys_addr_t ps, pe;
	u64 i;

	for_each_free_mem_range(&memblock, i, zone_to_nid(zone), &ps, &pe,
				NULL) {
		if (!pfns_within(ps, pe, start, end, &s, &e))
			continue;
		init_pfn_range(zone, s, e);
		free_pfn_range(s, e);
	}
}

/*
 * Linux's deferred_grow_zone(): whole units (sections unless
 * deferred_init= says less), enough for 2^order pages, from
 * first_deferred_pfn on. Under node_size_lock with
 * interrupts off, so that two CPUs never grow the same unit and an
 * interrupt's allocation cannot find the zone half grown; the lock is
 * taken before zone->lock (free_pfn_range), never inside it.
 */
bool deferred_grow_zone(struct zone *zone, unsigned int order)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	unsigned long first = READ_ONCE(pgdat->first_deferred_pfn);
	unsigned long end, flags;

	if (!zone_spans_pfn(zone, first))
		return false;
	spin_lock_irqsave(&pgdat->node_size_lock, flags);
	if (pgdat->first_deferred_pfn != first) {
		/* another CPU grew it meanwhile: look again */
		spin_unlock_irqrestore(&pgdat->node_size_lock, flags);
		return true;
	}
	BUG_ON(!IS_ALIGNED(first, deferred_init_pages));
	end = min(first + ALIGN(1UL << order, deferred_init_pages),
		  zone_end_pfn(zone));
	deferred_init_range(zone, first, end);
	WRITE_ONCE(pgdat->first_deferred_pfn,
		   end < zone_end_pfn(zone) ? end : ULONG_MAX);
	setup_per_zone_wmarks();
	spin_unlock_irqrestore(&pgdat->node_size_lock, flags);
	return true;
}

void deferred_init_all(void)
{
	struct zone *zone;

	for_each_zone(zone) {
		while (deferred_grow_zone(zone, MAX_ORDER - 1))
			;
	}
}

/* The pfns zone type z spans over every node: [*start, *end); 0, 0 if none. */
static void zone_type_span(enum zone_type z, unsigned long *start,
			   unsigned long *end)
{
	struct pglist_data *pgdat;

	*start = ~0UL;
	*end = 0;
	for_each_online_pgdat(pgdat) {
		const struct zone *zone = &pgdat->node_zones[z];

		if (!populated_zone(zone))
			continue;
		*start = min(*start, zone->zone_start_pfn);
		*end = max(*end, zone_end_pfn(zone));
	}
	if (!*end)
		*start = 0;
}

static void print_zones(void)
{
	const struct memblock_type *mem = &memblock.memory;
	struct pglist_data *pgdat;
	unsigned long start, end;

	pr_info("Zone ranges:\n");
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		zone_type_span(z, &start, &end);
		if (!end) {
			pr_info("  %-8s empty\n", zone_names[z]);
			continue;
		}
		pr_info("  %-8s [mem 0x%016llx-0x%016llx]\n", zone_names[z],
			(unsigned long long)PFN_PHYS(start),
			(unsigned long long)PFN_PHYS(end) - 1);
	}
	pr_info("Early memory node ranges\n");
	for (unsigned long i = 0; i < mem->cnt; i++)
		pr_info("  node %3d: [mem 0x%016llx-0x%016llx]\n",
			memblock_get_region_node(&mem->regions[i]),
			(unsigned long long)mem->regions[i].base,
			(unsigned long long)(mem->regions[i].base +
					     mem->regions[i].size - 1));
	for_each_online_pgdat(pgdat) {
		unsigned long end = pgdat->node_start_pfn +
				    pgdat->node_spanned_pages;

		pr_info("Initmem setup node %d [mem 0x%016llx-0x%016llx]\n",
			pgdat->node_id,
			(unsigned long long)PFN_PHYS(pgdat->node_start_pfn),
			end ? (unsigned long long)PFN_PHYS(end) - 1 : 0ULL);
	}
}

/*
 * memblock's own region arrays, if they outgrew the static ones: booked
 * here, when they no longer move. They are page aligned, so no other
 * reason booked their pages first.
 */
static void ledger_memblock_tables(void)
{
	const struct memblock_type *types[] = {
		&memblock.memory, &memblock.reserved,
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(types); i++) {
		phys_addr_t base = types[i]->regions_phys;
		phys_addr_t size = types[i]->max * sizeof(struct memblock_region);

		if (base)
			ledger_add("memblock tables",
				   PFN_UP(base + size) - PFN_DOWN(base));
	}
}

/*
 * RAM that no NUMA information gave a node is node 0's: all of it when
 * there is none (Linux's dummy_numa_init), else what the firmware's
 * table missed, each range named.
 */
static void numa_default_node(void)
{
	const struct memblock_type *mem = &memblock.memory;
	unsigned long i, orphans = 0;

	for (i = 0; i < mem->cnt; i++)
		orphans += memblock_get_region_node(&mem->regions[i]) == NUMA_NO_NODE;
	if (!orphans)
		return;
	if (orphans == mem->cnt) {
		pr_info("No NUMA configuration found\n");
		pr_info("Faking a node at [mem 0x%016lx-0x%016lx]\n",
			memblock_start_of_DRAM(), memblock_end_of_DRAM() - 1);
		memblock_set_node(0, MEMBLOCK_ALLOC_ANYWHERE, &memblock.memory, 0);
		return;
	}
	for (i = 0; i < mem->cnt; i++) {
		const struct memblock_region *r = &mem->regions[i];

		if (memblock_get_region_node(r) != NUMA_NO_NODE)
			continue;
		pr_warn("NUMA: [mem 0x%016lx-0x%016lx] has no node, given to node 0\n",
			r->base, r->base + r->size - 1);
		/* A whole region: no split; a merge moves the next one down. */
		memblock_set_node(r->base, r->size, &memblock.memory, 0);
		i = i ? i - 1 : 0;
	}
}

static void print_reservations(void)
{
	pr_info("Reserved at boot:\n");
	for (int i = 0; i < MAX_RESERVE_REASONS && reserve_ledger[i].name; i++)
		pr_info("  %-18s %6luK\n", reserve_ledger[i].name,
			reserve_ledger[i].pages << (PAGE_SHIFT - 10));
}

static unsigned long present_pages(void)
{
	struct pglist_data *pgdat;
	unsigned long sum = 0;

	for_each_online_pgdat(pgdat)
		sum += pgdat->node_present_pages;
	return sum;
}

/* Linux prints the deferred pages per node; here a line for each. */
static void print_deferred(void)
{
	struct pglist_data *pgdat;
	struct zone *zone;

	for_each_online_pgdat(pgdat) {
		unsigned long pages = 0;

		for (zone = pgdat->node_zones;
		     zone < pgdat->node_zones + MAX_NR_ZONES; zone++)
			pages += zone_deferred_pages(zone);
		if (pages)
			pr_info("Memory: %luK deferred from pfn %#lx, initialised when needed\n",
				pages << (PAGE_SHIFT - 10),
				pgdat->first_deferred_pfn);
	}
}

void mm_core_init(void)
{
	unsigned long total_kb, deferred_kb;

	init_mem_debugging_and_hardening();
	kmem_cache_reserve_boot();	/* memblock, nr_cpu_ids: before the ledger */
	kfence_alloc_pool();
	numa_default_node();
	init_ram_chunks();
	sparse_init();
	free_area_init();
	print_zones();
	ledger_memblock_tables();
	print_reservations();
	memblock_free_all();
	kmem_cache_init();
	vmalloc_init();
	kasan_init();		/* the shadow's backend, the quarantine */
	total_kb = present_pages() << (PAGE_SHIFT - 10);
	deferred_kb = nr_deferred_pages() << (PAGE_SHIFT - 10);
	pr_info("Memory: %luK/%luK available (%luK reserved, %luK mem_map)\n",
		totalram_pages << (PAGE_SHIFT - 10), total_kb,
		total_kb - deferred_kb - (totalram_pages << (PAGE_SHIFT - 10)),
		vmemmap_bytes >> 10);
	if (deferred_kb)
		print_deferred();
	fault_inject_init();
}

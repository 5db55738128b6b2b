// SPDX-License-Identifier: GPL-2.0
/*
 * The memory model as boot left it: struct page's layout, mem_map
 * covering exactly the RAM of memblock (and nothing for holes), the pfn,
 * page and address conversions agreeing with each other, the zones
 * splitting RAM at 16 MiB and 4 GiB with consistent page counts, and the
 * cost of mem_map staying at 64 bytes per 4 KiB page plus rounding.
 */
#include "lib/ktest/ktest.h"
#include "kernel/params.h"
#include "lib/string.h"
#include "arch/x86_64/e820.h"
#include "mm/gfp.h"
#include "mm/internal.h"	/* white-box: zones and the node */
#include "mm/memblock.h"
#include "mm/mm.h"
#include "tests/mm_util.h"

static void test_struct_page_layout(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, sizeof(struct page), 64UL);
	KTEST_EXPECT_EQ(t, offsetof(struct page, flags), 0UL);
	KTEST_EXPECT_EQ(t, offsetof(struct page, lru), 8UL);
	KTEST_EXPECT_EQ(t, offsetof(struct page, compound_head), 8UL);
	KTEST_EXPECT_EQ(t, offsetof(struct page, private), 40UL);
	KTEST_EXPECT_EQ(t, offsetof(struct page, _refcount), 52UL);
}

/* Every RAM pfn: valid, in the right zone, and the conversions agree. */
static void test_every_ram_pfn(struct ktest *t)
{
	const struct memblock_type *mem = &memblock.memory;
	unsigned long checked = 0, bad = 0, deferred = 0;

	for (unsigned long i = 0; i < mem->cnt; i++) {
		unsigned long start = PFN_UP(mem->regions[i].base);
		unsigned long end = PFN_DOWN(mem->regions[i].base +
					     mem->regions[i].size);

		for (unsigned long pfn = start; pfn < end; pfn++) {
			struct page *page = pfn_to_page(pfn);

			checked++;
			if (deferred_page(pfn)) {
				deferred++;
				continue;
			}
			bad += !pfn_valid(pfn) || page_to_pfn(page) != pfn ||
			       page_zonenum(page) != expected_zone(pfn) ||
			       page_to_nid(page) != memblock_get_region_node(&mem->regions[i]) ||
			       page_address(page) != __va(PFN_PHYS(pfn)) ||
			       virt_to_page(page_address(page)) != page;
		}
	}
	KTEST_EXPECT_EQ(t, bad, 0UL);
	KTEST_EXPECT_EQ(t, checked, all_nodes_present_pages());
	KTEST_EXPECT_EQ(t, deferred, nr_deferred_pages());
}

/* Holes of the e820 map have no struct pages. */
static void test_holes_are_invalid(struct ktest *t)
{
	unsigned long holes = 0;

	for (u32 i = 0; i < e820_table.nr_entries; i++) {
		const struct e820_entry *e = &e820_table.entries[i];
		unsigned long pfn = PFN_UP(e->addr);

		if (e->type == E820_TYPE_RAM || PFN_DOWN(e->addr + e->size) <= pfn)
			continue;
		KTEST_EXPECT_FALSE(t, pfn_valid(pfn));
		holes++;
	}
	KTEST_EXPECT_GT(t, holes, 0UL);
	KTEST_EXPECT_FALSE(t, pfn_valid(max_pfn));
	KTEST_EXPECT_FALSE(t, pfn_valid(~0UL >> PAGE_SHIFT));
}

/* The fast pfn_valid (chunk bitmap) agrees with memblock for every pfn. */
static void test_pfn_valid_matches_memblock(struct ktest *t)
{
	unsigned long wrong = 0;

	for (unsigned long pfn = 0; pfn < max_pfn + 1024; pfn++)
		wrong += pfn_valid(pfn) !=
			 (pfn < max_pfn && memblock_is_memory(PFN_PHYS(pfn)));
	KTEST_EXPECT_EQ(t, wrong, 0UL);
}

static void test_zone_counts(struct ktest *t)
{
	unsigned long present = 0, managed = 0;
	struct zone *zone;
	int low_nid;

	for_each_zone(zone) {
		KTEST_EXPECT_GE(t, zone->spanned_pages, zone->present_pages);
		KTEST_EXPECT_GE(t, zone->present_pages, zone->managed_pages);
		if (!populated_zone(zone))
			continue;
		KTEST_EXPECT_EQ(t, expected_zone(zone->zone_start_pfn),
				zone_idx(zone));
		KTEST_EXPECT_EQ(t, expected_zone(zone_end_pfn(zone) - 1),
				zone_idx(zone));
		present += zone->present_pages;
		managed += zone->managed_pages;
	}
	KTEST_EXPECT_EQ(t, present, all_nodes_present_pages());
	KTEST_EXPECT_EQ(t, managed, totalram_pages);
	KTEST_EXPECT_EQ(t, present, PHYS_PFN(memblock_phys_mem_size()));
	/* the node of the lowest RAM has the DMA zone */
	low_nid = memblock_pfn_to_nid(PFN_UP(memblock_start_of_DRAM()));
	KTEST_EXPECT_TRUE(t, populated_zone(&NODE_DATA(low_nid)->node_zones[ZONE_DMA]));
}

/* mem_map costs 64 bytes per RAM page, plus at most a page per region. */
static void test_mem_map_cost(struct ktest *t)
{
	unsigned long present = all_nodes_present_pages();
	unsigned long bound = present * sizeof(struct page) +
			      memblock.memory.cnt * 2 * PAGE_SIZE;

	KTEST_EXPECT_GE(t, vmemmap_bytes, present * sizeof(struct page));
	KTEST_EXPECT_LE(t, vmemmap_bytes, bound);
}

/* Pages booked in the boot reservation ledger, every reason. */
static unsigned long ledger_pages(void)
{
	unsigned long pages = 0;

	for (int i = 0; i < MAX_RESERVE_REASONS; i++)
		pages += reserve_ledger[i].pages;
	return pages;
}

/* mem_map backing is booked under its own name, to the byte. */
static void test_ledger_names_mem_map(struct ktest *t)
{
	unsigned long mem_map_pages = 0;

	for (int i = 0; i < MAX_RESERVE_REASONS && reserve_ledger[i].name; i++) {
		if (!strcmp(reserve_ledger[i].name, "mem_map"))
			mem_map_pages = reserve_ledger[i].pages;
	}
	KTEST_EXPECT_EQ(t, mem_map_pages * PAGE_SIZE, vmemmap_bytes);
}

/*
 * Boot's own memory stays reserved (page 0, the low 64 KiB, mem_map
 * itself): every RAM page is either PageReserved or was given to the
 * buddy allocator, the reserved ones are exactly present - managed, and
 * each of them is booked in the ledger under a reason.
 */
static void test_reserved_pages(struct ktest *t)
{
	unsigned long reserved = 0;

	for (unsigned long pfn = 0; pfn < max_pfn; pfn++)
		reserved += pfn_valid(pfn) && PageReserved(pfn_to_page(pfn));
	KTEST_EXPECT_EQ(t, reserved, all_nodes_present_pages() -
				     totalram_pages - nr_deferred_pages());
	KTEST_EXPECT_GE(t, reserved * PAGE_SIZE, vmemmap_bytes + SZ_64K);
	KTEST_EXPECT_EQ(t, reserved, ledger_pages());
	KTEST_EXPECT_TRUE(t, memblock_is_region_reserved(0, PAGE_SIZE));
	if (pfn_valid(0))
		KTEST_EXPECT_TRUE(t, PageReserved(pfn_to_page(0)));
}

/* memblock's RAM is exactly the usable RAM of the e820 map. */
static void test_memblock_matches_e820(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, memblock_phys_mem_size(),
			e820__total(&e820_table, E820_TYPE_RAM));
	KTEST_EXPECT_EQ(t, max_pfn, PHYS_PFN(memblock_end_of_DRAM()));
}

/* The value of "name=" on the boot command line, or NULL. */
static const char *boot_param(const char *name)
{
	size_t len = strlen(name);

	for (const char *p = boot_command_line; (p = strstr(p, name)); p++) {
		if ((p == boot_command_line || p[-1] == ' ') && p[len] == '=')
			return p + len + 1;
	}
	return NULL;
}

/* Booted with mem=SIZE: no RAM at or above SIZE, none of it managed. */
static void test_mem_limit_applied(struct ktest *t)
{
	const char *arg = boot_param("mem");
	unsigned long long limit;

	if (!arg)
		ktest_skip(t, "booted without mem=");
	limit = memparse(arg, NULL);
	KTEST_EXPECT_LE(t, (unsigned long long)memblock_end_of_DRAM(), limit);
	KTEST_EXPECT_LE(t, (unsigned long long)totalram_pages * PAGE_SIZE, limit);
	KTEST_EXPECT_FALSE(t, pfn_valid(PHYS_PFN(limit)));
}

/* Booted with memmap=SIZE$ADDR: that range is reserved, no struct pages. */
static void test_memmap_reserve_applied(struct ktest *t)
{
	const char *arg = boot_param("memmap");
	unsigned long long size, addr;
	char *end;
	bool covered = false;

	if (!arg || !strchr(arg, '$'))
		ktest_skip(t, "booted without memmap=SIZE$ADDR");
	size = memparse(arg, &end);
	KTEST_ASSERT_EQ(t, *end, '$');
	addr = memparse(end + 1, NULL);
	for (u32 i = 0; i < e820_table.nr_entries; i++) {
		const struct e820_entry *e = &e820_table.entries[i];

		covered |= e->type == E820_TYPE_RESERVED && e->addr <= addr &&
			   e->addr + e->size >= addr + size;
	}
	KTEST_EXPECT_TRUE(t, covered);
	KTEST_EXPECT_FALSE(t, pfn_valid(PHYS_PFN(addr)));
	KTEST_EXPECT_FALSE(t, pfn_valid(PHYS_PFN(addr + size - 1)));
	KTEST_EXPECT_TRUE(t, pfn_valid(PHYS_PFN(addr + size)));
}

static const struct ktest_case memory_model_cases[] = {
	KTEST_CASE(test_struct_page_layout),
	KTEST_CASE(test_every_ram_pfn),
	KTEST_CASE(test_holes_are_invalid),
	KTEST_CASE(test_pfn_valid_matches_memblock),
	KTEST_CASE(test_zone_counts),
	KTEST_CASE(test_mem_map_cost),
	KTEST_CASE(test_reserved_pages),
	KTEST_CASE(test_ledger_names_mem_map),
	KTEST_CASE(test_memblock_matches_e820),
	KTEST_CASE(test_mem_limit_applied),
	KTEST_CASE(test_memmap_reserve_applied),
	{}
};
KTEST_SUITE(memory_model, memory_model_cases);

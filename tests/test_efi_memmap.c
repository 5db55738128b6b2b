// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the EFI memory map (arch/x86_64/efi.c): hand-written maps of
 * EFI descriptors converted to e820 and sanitized, checked against the
 * exact table expected; Linux's description of a descriptor; and the
 * choice between the EFI and the legacy multiboot2 maps.
 *
 * Maps and tables are static (a struct e820_table is 75 KiB).
 */
#include "arch/x86_64/e820.h"
#include "tests/e820_util.h"
#include "arch/x86_64/efi.h"
#include "arch/x86_64/multiboot2.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/ktest/ktest.h"
#include "lib/string.h"

#define WB		EFI_MEMORY_WB
#define CACHE		(EFI_MEMORY_UC | EFI_MEMORY_WC | EFI_MEMORY_WT | EFI_MEMORY_WB)
#define MAP_MAX		3100
#define DESC_MAX	64	/* bytes per descriptor in these tests */

static u8 map_buf[MAP_MAX * DESC_MAX];
static struct efi_memmap map;
static struct e820_table tbl;

/* Start an empty map of desc_size-byte descriptors (filler 0x5a). */
static void map_begin(u32 desc_size)
{
	memset(map_buf, 0x5a, sizeof(map_buf));
	map.map = map_buf;
	map.nr = 0;
	map.desc_size = desc_size;
}

/* Append a descriptor of pages 4 KiB pages at addr. */
static void map_add(u32 type, u64 addr, u64 pages, u64 attr)
{
	efi_memory_desc_t md = {
		.type = type,
		.phys_addr = addr,
		.virt_addr = 0,
		.num_pages = pages,
		.attribute = attr,
	};

	memcpy(map_buf + (size_t)map.nr * map.desc_size, &md, sizeof(md));
	map.nr++;
}

/* Convert the map into an empty table and sanitize it. */
static u32 convert(void)
{
	u32 added;

	memset(&tbl, 0, sizeof(tbl));
	added = efi_memmap_to_e820(&map, &tbl);
	e820__update_table(&tbl);
	return added;
}

static void expect_table(struct ktest *t, const struct e820_entry *want, u32 n)
{
	e820_expect_table(t, &tbl, want, n);
}

/* One page per type, a page apart, every type: each keeps its own entry. */
static void test_every_type(struct ktest *t)
{
	static const struct e820_entry want[] = {
		{ 0x00000, 0x1000, E820_TYPE_RESERVED },	/* EFI reserved */
		{ 0x02000, 0x1000, E820_TYPE_RAM },		/* loader code */
		{ 0x04000, 0x1000, E820_TYPE_RAM },		/* loader data */
		{ 0x06000, 0x1000, E820_TYPE_RAM },		/* boot code */
		{ 0x08000, 0x1000, E820_TYPE_RAM },		/* boot data */
		{ 0x0a000, 0x1000, E820_TYPE_RESERVED },	/* runtime code */
		{ 0x0c000, 0x1000, E820_TYPE_RESERVED },	/* runtime data */
		{ 0x0e000, 0x1000, E820_TYPE_RAM },		/* conventional */
		{ 0x10000, 0x1000, E820_TYPE_UNUSABLE },	/* unusable */
		{ 0x12000, 0x1000, E820_TYPE_ACPI },		/* ACPI reclaim */
		{ 0x14000, 0x1000, E820_TYPE_NVS },		/* ACPI NVS */
		{ 0x16000, 0x1000, E820_TYPE_RESERVED },	/* MMIO */
		{ 0x18000, 0x1000, E820_TYPE_RESERVED },	/* MMIO port */
		{ 0x1a000, 0x1000, E820_TYPE_RESERVED },	/* PAL code */
		{ 0x1c000, 0x1000, E820_TYPE_PMEM },		/* persistent */
		{ 0x1e000, 0x1000, E820_TYPE_RESERVED },	/* type 15 */
		{ 0x20000, 0x1000, E820_TYPE_RESERVED },	/* 0x70000000, OEM */
		{ 0x22000, 0x1000, E820_TYPE_RESERVED },	/* conventional, UC only */
		{ 0x24000, 0x1000, E820_TYPE_RESERVED },	/* conventional, SP */
	};
	u32 type;

	map_begin(sizeof(efi_memory_desc_t));
	for (type = 0; type <= EFI_MAX_MEMORY_TYPE; type++)
		map_add(type, 0x2000ULL * type, 1, CACHE);
	map_add(0x70000000, 0x20000, 1, CACHE);
	map_add(EFI_CONVENTIONAL_MEMORY, 0x22000, 1, EFI_MEMORY_UC);
	map_add(EFI_CONVENTIONAL_MEMORY, 0x24000, 1, WB | EFI_MEMORY_SP);
	KTEST_EXPECT_EQ(t, convert(), (u32)ARRAY_SIZE(want));
	expect_table(t, want, ARRAY_SIZE(want));
}

/* Touching descriptors that are all free RAM become one entry. */
static void test_adjacent_merged(struct ktest *t)
{
	static const struct e820_entry want[] = {
		{ 0x0, 0xa0000, E820_TYPE_RAM },
		{ 0x100000, 0x700000, E820_TYPE_RAM },
		{ 0x800000, 0x10000, E820_TYPE_NVS },
		{ 0x810000, 0x7f0000, E820_TYPE_RAM },
	};

	map_begin(sizeof(efi_memory_desc_t));
	map_add(EFI_BOOT_SERVICES_CODE, 0x0, 1, CACHE);
	map_add(EFI_CONVENTIONAL_MEMORY, 0x1000, 0x9f, CACHE);
	map_add(EFI_LOADER_DATA, 0x100000, 0x100, WB);
	map_add(EFI_LOADER_CODE, 0x200000, 0x100, WB);
	map_add(EFI_BOOT_SERVICES_DATA, 0x300000, 0x500, WB);
	map_add(EFI_ACPI_MEMORY_NVS, 0x800000, 0x8, CACHE);
	map_add(EFI_ACPI_MEMORY_NVS, 0x808000, 0x8, CACHE);
	map_add(EFI_CONVENTIONAL_MEMORY, 0x810000, 0x7f0, CACHE);
	/* Merged while converting already: 4 entries, not 8. */
	KTEST_EXPECT_EQ(t, convert(), 4U);
	expect_table(t, want, ARRAY_SIZE(want));
}

/* Same EFI type, only the attributes differ: two e820 types, not merged. */
static void test_attribute_only_difference(struct ktest *t)
{
	static const struct e820_entry want[] = {
		{ 0x100000, 0x100000, E820_TYPE_RAM },
		{ 0x200000, 0x100000, E820_TYPE_RESERVED },
		{ 0x300000, 0x100000, E820_TYPE_RAM },
	};

	map_begin(sizeof(efi_memory_desc_t));
	map_add(EFI_CONVENTIONAL_MEMORY, 0x100000, 0x100, CACHE);
	map_add(EFI_CONVENTIONAL_MEMORY, 0x200000, 0x100, EFI_MEMORY_UC);
	map_add(EFI_CONVENTIONAL_MEMORY, 0x300000, 0x100, CACHE);
	KTEST_EXPECT_EQ(t, convert(), 3U);
	expect_table(t, want, ARRAY_SIZE(want));
}

/* Overlapping descriptors: the more restrictive type wins where they meet. */
static void test_overlapping(struct ktest *t)
{
	static const struct e820_entry want[] = {
		{ 0x000000, 0x100000, E820_TYPE_RAM },
		{ 0x100000, 0x100000, E820_TYPE_ACPI },
		{ 0x200000, 0x080000, E820_TYPE_RAM },
		{ 0x280000, 0x100000, E820_TYPE_RESERVED },
		{ 0x380000, 0xc80000, E820_TYPE_RAM },
	};

	map_begin(sizeof(efi_memory_desc_t));
	map_add(EFI_CONVENTIONAL_MEMORY, 0x0, 0x1000, WB);
	map_add(EFI_ACPI_RECLAIM_MEMORY, 0x100000, 0x100, WB);
	map_add(EFI_RUNTIME_SERVICES_DATA, 0x280000, 0x100,
		WB | EFI_MEMORY_RUNTIME);
	convert();
	expect_table(t, want, ARRAY_SIZE(want));
}

/* RAM above 1 TiB is kept to the byte; above 2^52, dropped with a warning. */
static void test_above_1tib(struct ktest *t)
{
	static const struct e820_entry want[] = {
		{ 0x100000, 0x100000, E820_TYPE_RAM },
		{ 0xfd00000000ULL, 0x300000000ULL, E820_TYPE_RESERVED },
		{ 0x10000000000ULL, 0x40000000ULL, E820_TYPE_RAM },
		{ 0x800000000000ULL, 0x1000, E820_TYPE_PMEM },
	};

	map_begin(sizeof(efi_memory_desc_t));
	map_add(EFI_CONVENTIONAL_MEMORY, 0x100000, 0x100, WB);
	map_add(EFI_RESERVED_TYPE, 0xfd00000000ULL, 0x300000, 0);
	map_add(EFI_CONVENTIONAL_MEMORY, 0x10000000000ULL, 0x40000, WB);
	map_add(EFI_PERSISTENT_MEMORY, 0x800000000000ULL, 1, WB);
	map_add(EFI_CONVENTIONAL_MEMORY, 1ULL << 52, 0x100, WB);
	ktest_capture_start(t, "beyond 52-bit physical addresses");
	convert();
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	expect_table(t, want, ARRAY_SIZE(want));
}

/* 300 descriptors (a real OVMF map's order of size), nothing mergeable. */
static void test_300_entries(struct ktest *t)
{
	static const u32 types[] = {
		EFI_CONVENTIONAL_MEMORY, EFI_RUNTIME_SERVICES_DATA,
		EFI_BOOT_SERVICES_DATA, EFI_ACPI_MEMORY_NVS,
		EFI_LOADER_CODE, EFI_MEMORY_MAPPED_IO,
	};
	static const u32 e820[] = {
		E820_TYPE_RAM, E820_TYPE_RESERVED, E820_TYPE_RAM,
		E820_TYPE_NVS, E820_TYPE_RAM, E820_TYPE_RESERVED,
	};
	u32 i;

	map_begin(48);
	for (i = 0; i < 300; i++)
		map_add(types[i % 6], 0x100000 + 0x3000ULL * i, 2, WB);
	KTEST_EXPECT_EQ(t, convert(), 300U);
	KTEST_ASSERT_EQ(t, tbl.nr_entries, 300U);
	for (i = 0; i < 300; i++) {
		KTEST_EXPECT_EQ(t, tbl.entries[i].addr, 0x100000 + 0x3000ULL * i);
		KTEST_EXPECT_EQ(t, tbl.entries[i].size, 0x2000ULL);
		KTEST_EXPECT_EQ(t, tbl.entries[i].type, e820[i % 6]);
	}
}

/*
 * 3100 descriptors, alternately free and runtime data: 3100 entries,
 * beyond the old 128-entry table and close to the new limit.
 */
static void test_3100_entries(struct ktest *t)
{
	u32 i;

	map_begin(sizeof(efi_memory_desc_t));
	for (i = 0; i < MAP_MAX; i++)
		map_add(i % 2 ? EFI_RUNTIME_SERVICES_DATA : EFI_BOOT_SERVICES_DATA,
			0x1000ULL * i, 1, WB);
	KTEST_EXPECT_EQ(t, convert(), (u32)MAP_MAX);
	KTEST_ASSERT_EQ(t, tbl.nr_entries, (u32)MAP_MAX);
	KTEST_EXPECT_EQ(t, e820__total(&tbl, E820_TYPE_RAM), 0x1000ULL * MAP_MAX / 2);
	KTEST_EXPECT_EQ(t, tbl.entries[MAP_MAX - 1].addr, 0x1000ULL * (MAP_MAX - 1));
	KTEST_EXPECT_EQ(t, tbl.entries[MAP_MAX - 1].type, (u32)E820_TYPE_RESERVED);
}

/* A descriptor size larger than the struct: the extra bytes are skipped. */
static void test_large_descriptors(struct ktest *t)
{
	static const struct e820_entry want[] = {
		{ 0x0, 0x2000, E820_TYPE_RAM },
		{ 0x2000, 0x1000, E820_TYPE_NVS },
	};

	map_begin(DESC_MAX);
	map_add(EFI_CONVENTIONAL_MEMORY, 0x0, 2, WB);
	map_add(EFI_ACPI_MEMORY_NVS, 0x2000, 1, WB);
	KTEST_EXPECT_EQ(t, convert(), 2U);
	expect_table(t, want, ARRAY_SIZE(want));
}

static void test_typeattr_format(struct ktest *t)
{
	efi_memory_desc_t md = {
		.type = EFI_CONVENTIONAL_MEMORY,
		.attribute = CACHE,
	};
	char buf[64];

	KTEST_EXPECT_STREQ(t, efi_md_typeattr_format(buf, sizeof(buf), &md),
			   "[Conventional|   |  |  |  |  |  |  |  |  |   |WB|WT|WC|UC]");
	md.type = EFI_RUNTIME_SERVICES_CODE;
	md.attribute = EFI_MEMORY_RUNTIME | EFI_MEMORY_XP | EFI_MEMORY_WB;
	KTEST_EXPECT_STREQ(t, efi_md_typeattr_format(buf, sizeof(buf), &md),
			   "[Runtime Code|RUN|  |  |  |  |XP|  |  |  |   |WB|  |  |  ]");
	md.type = 99;
	md.attribute = EFI_MEMORY_UC;
	KTEST_EXPECT_STREQ(t, efi_md_typeattr_format(buf, sizeof(buf), &md),
			   "[type=99|   |  |  |  |  |  |  |  |  |   |  |  |  |UC]");
	md.attribute = 1ULL << 40;
	KTEST_EXPECT_STREQ(t, efi_md_typeattr_format(buf, sizeof(buf), &md),
			   "[type=99|attr=0x0000010000000000]");
}

static void test_print_memmap(struct ktest *t)
{
	map_begin(sizeof(efi_memory_desc_t));
	map_add(EFI_CONVENTIONAL_MEMORY, 0x100000, 0x7ee0, CACHE);
	map_add(EFI_BOOT_SERVICES_DATA, 0x0, 1, CACHE);
	ktest_capture_start(t, "efi: mem");
	efi_print_memmap(&map);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 2U);
	KTEST_EXPECT_CAPTURED(t, "efi: mem00: [Conventional|   |  |  |  |  |  |  |  |  |   |WB|WT|WC|UC] range=[0x0000000000100000-0x0000000007fdffff] (126MB)");
	KTEST_EXPECT_CAPTURED(t, "efi: mem01: [Boot Data   |   |  |  |  |  |  |  |  |  |   |WB|WT|WC|UC] range=[0x0000000000000000-0x0000000000000fff] (0MB)");
}

/* --- choosing between the EFI and the legacy map ---------------------------- */

static struct mb2_mmap_entry legacy[8];
static struct mb2_info mb;

/* A boot information with the map above and a legacy map of n entries. */
static void mb_setup(u32 n)
{
	memset(&mb, 0, sizeof(mb));
	mb.efi_mmap = map.map;
	mb.efi_desc_size = map.desc_size;
	mb.efi_mmap_size = map.nr * map.desc_size;
	mb.mmap = (const u8 *)legacy;
	mb.mmap_entry_size = sizeof(legacy[0]);
	mb.mmap_nr_entries = n;
}

/* OVMF-like: what GRUB's legacy map says about the same memory. */
static void ovmf_like(void)
{
	map_begin(sizeof(efi_memory_desc_t));
	map_add(EFI_BOOT_SERVICES_CODE, 0x0, 0xa0, CACHE);
	map_add(EFI_CONVENTIONAL_MEMORY, 0x100000, 0x700, CACHE);
	map_add(EFI_ACPI_MEMORY_NVS, 0x800000, 0x8, CACHE);
	map_add(EFI_RUNTIME_SERVICES_CODE, 0x808000, 0x8,
		CACHE | EFI_MEMORY_RUNTIME);
	map_add(EFI_LOADER_DATA, 0x810000, 0x7f0, CACHE);
	legacy[0] = (struct mb2_mmap_entry){ 0x0, 0xa0000, 1, 0 };
	legacy[1] = (struct mb2_mmap_entry){ 0x100000, 0x700000, 1, 0 };
	legacy[2] = (struct mb2_mmap_entry){ 0x800000, 0x8000, 4, 0 };
	legacy[3] = (struct mb2_mmap_entry){ 0x808000, 0x8000, 20, 0 };
	legacy[4] = (struct mb2_mmap_entry){ 0x810000, 0x7f0000, 1, 0 };
}

static void test_both_maps_agree(struct ktest *t)
{
	static const struct e820_entry want[] = {
		{ 0x0, 0xa0000, E820_TYPE_RAM },
		{ 0x100000, 0x700000, E820_TYPE_RAM },
		{ 0x800000, 0x8000, E820_TYPE_NVS },
		{ 0x808000, 0x8000, E820_TYPE_RESERVED },
		{ 0x810000, 0x7f0000, E820_TYPE_RAM },
	};

	ovmf_like();
	mb_setup(5);
	memset(&tbl, 0, sizeof(tbl));
	/* Type 20 in the legacy map is reserved to the kernel: no report. */
	ktest_capture_start(t, "disagree");
	KTEST_EXPECT_EQ(t, efi_mb2_memory_map(&mb, &tbl), 0);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
	e820__update_table(&tbl);
	expect_table(t, want, ARRAY_SIZE(want));
}

static void test_maps_disagree_efi_wins(struct ktest *t)
{
	ovmf_like();
	legacy[4].len = 0x100000;	/* the legacy map has less RAM */
	legacy[5] = (struct mb2_mmap_entry){ 0xa0000, 0x60000, 2, 0 };
	mb_setup(6);
	memset(&tbl, 0, sizeof(tbl));
	ktest_capture_start(t, "efi:");
	KTEST_EXPECT_EQ(t, efi_mb2_memory_map(&mb, &tbl), 0);
	ktest_capture_stop(t);
	KTEST_EXPECT_CAPTURED(t, "the EFI and the legacy memory maps disagree (5 and 6 entries), using the EFI map");
	KTEST_EXPECT_CAPTURED(t, "EFI map: [mem 0x0000000000100000-0x00000000007fffff] usable");
	KTEST_EXPECT_CAPTURED(t, "legacy map: [mem 0x00000000000a0000-0x00000000000fffff] reserved");
	/* One report, not one line per difference. */
	ktest_capture_start(t, "disagree");
	efi_mb2_memory_map(&mb, &tbl);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	e820__update_table(&tbl);
	KTEST_EXPECT_EQ(t, e820__total(&tbl, E820_TYPE_RAM), 0xa0000ULL + 0x700000 + 0x7f0000);
}

static void test_legacy_only_and_none(struct ktest *t)
{
	ovmf_like();
	mb_setup(5);
	mb.efi_mmap = NULL;	/* what mb2_parse() leaves for a bad EFI tag */
	memset(&tbl, 0, sizeof(tbl));
	KTEST_EXPECT_EQ(t, efi_mb2_memory_map(&mb, &tbl), 0);
	KTEST_ASSERT_EQ(t, tbl.nr_entries, 5U);
	KTEST_EXPECT_EQ(t, tbl.entries[3].type, 20U);

	memset(&mb, 0, sizeof(mb));
	memset(&tbl, 0, sizeof(tbl));
	KTEST_EXPECT_EQ(t, efi_mb2_memory_map(&mb, &tbl), -ENOENT);
	KTEST_EXPECT_EQ(t, tbl.nr_entries, 0U);
}

static const struct ktest_case efi_memmap_cases[] = {
	KTEST_CASE(test_every_type),
	KTEST_CASE(test_adjacent_merged),
	KTEST_CASE(test_attribute_only_difference),
	KTEST_CASE(test_overlapping),
	KTEST_CASE(test_above_1tib),
	KTEST_CASE(test_300_entries),
	KTEST_CASE(test_3100_entries),
	KTEST_CASE(test_large_descriptors),
	KTEST_CASE(test_typeattr_format),
	KTEST_CASE(test_print_memmap),
	KTEST_CASE(test_both_maps_agree),
	KTEST_CASE(test_maps_disagree_efi_wins),
	KTEST_CASE(test_legacy_only_and_none),
	{}
};

KTEST_SUITE(efi_memmap, efi_memmap_cases);

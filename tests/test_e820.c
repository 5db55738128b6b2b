// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the e820 map (arch/x86_64/e820.c). The core is a table of synthetic
 * maps, each a raw input and the sanitized output worked out by hand,
 * run as one parametrised case (sanitizing twice: the second pass must
 * change nothing). Separate cases cover the table limits, the editing
 * functions, the type names, printing and the mem=/memmap= parsers.
 *
 * Tables are static: a struct e820_table is 75 KiB and the kernel stack
 * is 16 KiB.
 */
#include "kernel/errno.h"
#include "lib/ktest/ktest.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "arch/x86_64/e820.h"
#include "tests/e820_util.h"

enum {
	RAM = E820_TYPE_RAM,
	RSV = E820_TYPE_RESERVED,
	ACPI = E820_TYPE_ACPI,
	NVS = E820_TYPE_NVS,
	BAD = E820_TYPE_UNUSABLE,
	PMEM = E820_TYPE_PMEM,
	PRAM = E820_TYPE_PRAM,
	T20 = 20,		/* unknown to the kernel (UEFI runtime code) */
};

#define LIMIT		E820_PHYS_LIMIT		/* 1 << 52 */

/* A raw entry, and a half-open range [s, e). */
#define E(a, sz, ty)	{ (a), (sz), (ty) }
#define R(s, e, ty)	{ (s), (e) - (s), (ty) }

/* Entry lists end at the first entry of type 0 (tests use no type 0). */
#define CASE_MAX	16

struct e820_case {
	const char *name;
	struct e820_entry in[CASE_MAX];
	struct e820_entry out[CASE_MAX];
};

/*
 * Every relation between a losing type lo and a winning type hi, in five
 * disjoint regions: hi nested in lo, lo nested in hi, partial overlaps
 * with either first, and the same range (in both orders).
 */
#define PAIR(lo, hi) {							\
	.name = "pair-" #lo "-loses-to-" #hi,				\
	.in = {								\
		R(0x10000, 0x14000, lo), R(0x11000, 0x12000, hi),	\
		R(0x20000, 0x24000, hi), R(0x21000, 0x22000, lo),	\
		R(0x30000, 0x32000, lo), R(0x31000, 0x33000, hi),	\
		R(0x40000, 0x42000, hi), R(0x41000, 0x43000, lo),	\
		R(0x50000, 0x51000, lo), R(0x50000, 0x51000, hi),	\
		R(0x60000, 0x61000, hi), R(0x60000, 0x61000, lo),	\
	},								\
	.out = {							\
		R(0x10000, 0x11000, lo), R(0x11000, 0x12000, hi),	\
		R(0x12000, 0x14000, lo),				\
		R(0x20000, 0x24000, hi),				\
		R(0x30000, 0x31000, lo), R(0x31000, 0x33000, hi),	\
		R(0x40000, 0x42000, hi), R(0x42000, 0x43000, lo),	\
		R(0x50000, 0x51000, hi),				\
		R(0x60000, 0x61000, hi),				\
	},								\
}

/* QEMU -M pc -m 128M (SeaBIOS), as GRUB passes it on. */
#define QEMU_MAP							\
	R(0x0, 0x9fc00, RAM),						\
	R(0x9fc00, 0xa0000, RSV),					\
	R(0xf0000, 0x100000, RSV),					\
	R(0x100000, 0x7fe0000, RAM),					\
	R(0x7fe0000, 0x8000000, RSV),					\
	R(0xfffc0000, 0x100000000, RSV),				\
	R(0xfd00000000, 0x10000000000, RSV)

#define QEMU_MAP_SANITIZED						\
	R(0x0, 0x9f000, RAM),						\
	R(0x9fc00, 0xa0000, RSV),					\
	R(0xf0000, 0x100000, RSV),					\
	R(0x100000, 0x7fe0000, RAM),					\
	R(0x7fe0000, 0x8000000, RSV),					\
	R(0xfffc0000, 0x100000000, RSV),				\
	R(0xfd00000000, 0x10000000000, RSV)

static const struct e820_case sanitize_cases[] = {
	{ .name = "empty" },
	{
		.name = "one-ram-entry",
		.in = { R(0x100000, 0x200000, RAM) },
		.out = { R(0x100000, 0x200000, RAM) },
	},
	{
		.name = "one-unknown-entry",
		.in = { R(0x1000, 0x1800, T20) },
		.out = { R(0x1000, 0x1800, T20) },
	},
	{
		.name = "unsorted",
		.in = {
			R(0x300000, 0x400000, RSV),
			R(0x100000, 0x200000, RAM),
			R(0x0, 0x1000, ACPI),
			R(0x200000, 0x280000, NVS),
		},
		.out = {
			R(0x0, 0x1000, ACPI),
			R(0x100000, 0x200000, RAM),
			R(0x200000, 0x280000, NVS),
			R(0x300000, 0x400000, RSV),
		},
	},
	{
		.name = "exact-duplicates",
		.in = {
			R(0x100000, 0x200000, RAM),
			R(0x300000, 0x301000, RSV),
			R(0x100000, 0x200000, RAM),
			R(0x300000, 0x301000, RSV),
			R(0x100000, 0x200000, RAM),
		},
		.out = {
			R(0x100000, 0x200000, RAM),
			R(0x300000, 0x301000, RSV),
		},
	},
	{
		.name = "zero-length-entries",
		.in = {
			E(0x0, 0, RSV),
			R(0x1000, 0x3000, RAM),
			E(0x2000, 0, BAD),		/* inside RAM: no hole */
			E(0x3000, 0, RAM),
			E(0x5000, 0, RAM),
			R(0x8000, 0x9000, RSV),
		},
		.out = {
			R(0x1000, 0x3000, RAM),
			R(0x8000, 0x9000, RSV),
		},
	},
	{
		.name = "unaligned-ram-clipped",
		.in = {
			R(0x1234, 0x5678, RAM),
			R(0x10100, 0x10f00, RAM),	/* no whole page */
			R(0x20fff, 0x23001, RAM),
		},
		.out = {
			R(0x2000, 0x5000, RAM),
			R(0x21000, 0x23000, RAM),
		},
	},
	{
		.name = "unaligned-reserved-kept",
		.in = {
			R(0x1234, 0x5678, RSV),
			R(0x9fc00, 0x9fc01, ACPI),
			R(0x10100, 0x10f00, NVS),
			R(0x20001, 0x20002, BAD),
			R(0x30003, 0x30007, T20),
		},
		.out = {
			R(0x1234, 0x5678, RSV),
			R(0x10100, 0x10f00, NVS),
			R(0x20001, 0x20002, BAD),
			R(0x30003, 0x30007, T20),
			R(0x9fc00, 0x9fc01, ACPI),
		},
	},
	{
		/* Alone each piece holds no whole page; merged they hold one. */
		.name = "adjacent-ram-merged-then-clipped",
		.in = {
			R(0x1800, 0x2800, RAM),
			R(0x800, 0x1800, RAM),
			R(0x10000, 0x11000, RAM),
			R(0x11000, 0x13000, RAM),
			R(0x13000, 0x13800, RAM),
		},
		.out = {
			R(0x1000, 0x2000, RAM),
			R(0x10000, 0x13000, RAM),
		},
	},
	{
		.name = "adjacent-same-type-merged",
		.in = {
			R(0x0, 0x2000, RSV),
			R(0x1000, 0x3000, RSV),
			R(0x3000, 0x4000, RSV),
			R(0x10000, 0x10800, ACPI),
			R(0x10800, 0x11000, ACPI),
			R(0x20000, 0x20001, BAD),
			R(0x20001, 0x20002, BAD),
		},
		.out = {
			R(0x0, 0x4000, RSV),
			R(0x10000, 0x11000, ACPI),
			R(0x20000, 0x20002, BAD),
		},
	},
	{
		.name = "adjacent-different-types-not-merged",
		.in = {
			R(0x0, 0x1000, RAM),
			R(0x1000, 0x2000, RSV),
			R(0x2000, 0x3000, ACPI),
			R(0x3000, 0x4000, NVS),
			R(0x4000, 0x5000, BAD),
			R(0x5000, 0x6000, T20),
			R(0x6000, 0x7000, PMEM),
			R(0x7000, 0x8000, PRAM),
			R(0x8000, 0x9000, RAM),
		},
		.out = {
			R(0x0, 0x1000, RAM),
			R(0x1000, 0x2000, RSV),
			R(0x2000, 0x3000, ACPI),
			R(0x3000, 0x4000, NVS),
			R(0x4000, 0x5000, BAD),
			R(0x5000, 0x6000, T20),
			R(0x6000, 0x7000, PMEM),
			R(0x7000, 0x8000, PRAM),
			R(0x8000, 0x9000, RAM),
		},
	},
	{
		/*
		 * A wrapping entry is taken to end at the last byte
		 * 0xffffffffffffffff, then the 52-bit rule applies.
		 */
		.name = "wrap-around-2^64",
		.in = {
			E(0xfffffffffffff000ULL, 0x2000, RAM),	/* dropped */
			E(0xffffffffffffffffULL, 2, RSV),	/* dropped */
			E(0x1000, U64_MAX, RSV),		/* clipped */
			R(0x0, 0x1000, RAM),
		},
		.out = {
			R(0x0, 0x1000, RAM),
			R(0x1000, LIMIT, RSV),
		},
	},
	{
		.name = "wrap-around-ram-clipped-to-limit",
		.in = {
			E(LIMIT - 0x2000, U64_MAX, RAM),
			E(0x100000, U64_MAX - 0x100000 + 1, RAM), /* ends at 2^64 exactly */
		},
		.out = { R(0x100000, LIMIT, RAM) },
	},
	{
		.name = "whole-space-entry",
		.in = { E(0x0, U64_MAX, RSV), R(0x100000, 0x200000, RAM) },
		.out = { R(0x0, LIMIT, RSV) },
	},
	{
		.name = "above-2^52-dropped",
		.in = {
			R(LIMIT, LIMIT + SZ_1G, RAM),
			E(1ULL << 60, SZ_4K, RSV),
			E(LIMIT + 0x123, 1, BAD),
			R(0x100000, 0x200000, RAM),
		},
		.out = { R(0x100000, 0x200000, RAM) },
	},
	{
		.name = "crossing-2^52-clipped",
		.in = {
			R(LIMIT - SZ_1G, LIMIT + SZ_1G, RAM),
			R(LIMIT - 0x10, LIMIT + 0x10, RSV),
		},
		.out = {
			R(LIMIT - SZ_1G, LIMIT - 0x1000, RAM),
			R(LIMIT - 0x10, LIMIT, RSV),
		},
	},
	{
		.name = "ending-at-2^52-kept",
		.in = { R(LIMIT - 0x4000, LIMIT, RAM) },
		.out = { R(LIMIT - 0x4000, LIMIT, RAM) },
	},
	{
		.name = "all-reserved",
		.in = {
			R(0xf0000, 0x100000, RSV),
			R(0x0, 0xa0000, RSV),
			R(0x9fc00, 0xf0000, RSV),
			R(0xfec00000, 0xfec01000, RSV),
		},
		.out = {
			R(0x0, 0x100000, RSV),
			R(0xfec00000, 0xfec01000, RSV),
		},
	},
	{
		.name = "bad-ram-punches-hole",
		.in = {
			R(0x0, 0x10000000, RAM),
			R(0x5000000, 0x5001000, BAD),
		},
		.out = {
			R(0x0, 0x5000000, RAM),
			R(0x5000000, 0x5001000, BAD),
			R(0x5001000, 0x10000000, RAM),
		},
	},
	{
		/* The RAM around an unaligned hole loses the partial pages. */
		.name = "bad-ram-unaligned-hole",
		.in = {
			R(0x5000100, 0x5000200, BAD),
			R(0x0, 0x10000000, RAM),
		},
		.out = {
			R(0x0, 0x5000000, RAM),
			R(0x5000100, 0x5000200, BAD),
			R(0x5001000, 0x10000000, RAM),
		},
	},
	{
		.name = "bad-ram-over-reserved-and-acpi",
		.in = {
			R(0x10000, 0x20000, RSV),
			R(0x20000, 0x30000, ACPI),
			R(0x18000, 0x28000, BAD),
		},
		.out = {
			R(0x10000, 0x18000, RSV),
			R(0x18000, 0x28000, BAD),
			R(0x28000, 0x30000, ACPI),
		},
	},
	{
		.name = "acpi-tables-inside-ram",
		.in = {
			R(0x0, 0x8000000, RAM),
			R(0x7fe0000, 0x7ff0000, ACPI),
			R(0x7ff0000, 0x8000000, NVS),
			R(0x100000, 0x100400, ACPI),
		},
		.out = {
			R(0x0, 0x100000, RAM),
			R(0x100000, 0x100400, ACPI),
			R(0x101000, 0x7fe0000, RAM),
			R(0x7fe0000, 0x7ff0000, ACPI),
			R(0x7ff0000, 0x8000000, NVS),
		},
	},
	{
		.name = "nested-chain-of-priorities",
		.in = {
			R(0x0, 0x10000, RAM),
			R(0x2000, 0x8000, ACPI),
			R(0x4000, 0x6000, NVS),
			R(0x5000, 0x5800, RSV),
			R(0x5400, 0x5500, BAD),
		},
		.out = {
			R(0x0, 0x2000, RAM),
			R(0x2000, 0x4000, ACPI),
			R(0x4000, 0x5000, NVS),
			R(0x5000, 0x5400, RSV),
			R(0x5400, 0x5500, BAD),
			R(0x5500, 0x5800, RSV),
			R(0x5800, 0x6000, NVS),
			R(0x6000, 0x8000, ACPI),
			R(0x8000, 0x10000, RAM),
		},
	},
	{
		/* The leftover RAM after the split holds no whole page. */
		.name = "split-ram-leftover-dropped",
		.in = {
			R(0x0, 0x3000, RAM),
			R(0x1800, 0x2800, RSV),
		},
		.out = {
			R(0x0, 0x1000, RAM),
			R(0x1800, 0x2800, RSV),
		},
	},
	{
		.name = "hole-between-entries-kept",
		.in = {
			R(0x0, 0x1000, RAM),
			R(0x3000, 0x4000, RAM),
			R(0x2000, 0x2800, RSV),
		},
		.out = {
			R(0x0, 0x1000, RAM),
			R(0x2000, 0x2800, RSV),
			R(0x3000, 0x4000, RAM),
		},
	},
	{
		.name = "unknown-type-20-in-ram",
		.in = {
			R(0x0, 0x200000, RAM),
			R(0x80000, 0x90000, T20),
			R(0x88000, 0x98000, RSV),	/* tie: 20 > 2 */
		},
		.out = {
			R(0x0, 0x80000, RAM),
			R(0x80000, 0x90000, T20),
			R(0x90000, 0x98000, RSV),
			R(0x98000, 0x200000, RAM),
		},
	},
	{
		.name = "qemu-pc-128M",
		.in = { QEMU_MAP },
		.out = { QEMU_MAP_SANITIZED },
	},
	{
		.name = "qemu-pc-128M-shuffled-with-duplicates",
		.in = {
			R(0xfd00000000, 0x10000000000, RSV),
			R(0x7fe0000, 0x8000000, RSV),
			R(0x100000, 0x7fe0000, RAM),
			R(0x0, 0x9fc00, RAM),
			R(0xfffc0000, 0x100000000, RSV),
			R(0xf0000, 0x100000, RSV),
			R(0x9fc00, 0xa0000, RSV),
			R(0x100000, 0x7fe0000, RAM),
			E(0x8000000, 0, RAM),
		},
		.out = { QEMU_MAP_SANITIZED },
	},
	/* Every pair among RAM, ACPI, NVS, RESERVED, unknown, bad RAM. */
	PAIR(RAM, ACPI),
	PAIR(RAM, NVS),
	PAIR(RAM, RSV),
	PAIR(RAM, T20),
	PAIR(RAM, BAD),
	PAIR(ACPI, NVS),
	PAIR(ACPI, RSV),
	PAIR(ACPI, T20),
	PAIR(ACPI, BAD),
	PAIR(NVS, RSV),
	PAIR(NVS, T20),
	PAIR(NVS, BAD),
	PAIR(RSV, T20),		/* equal priority: larger type wins */
	PAIR(RSV, BAD),
	PAIR(T20, BAD),
	/* The persistent types: reserved-class, ties by type number. */
	PAIR(RAM, PMEM),
	PAIR(RSV, PMEM),
	PAIR(PMEM, PRAM),
	PAIR(PRAM, T20),
	PAIR(PRAM, BAD),
};

static void case_desc(const struct e820_case *c, char *desc)
{
	strscpy(desc, c->name, KTEST_DESC_SIZE);
}
KTEST_ARRAY_PARAM(sanitize_gen, sanitize_cases, case_desc);

/* --- helpers ---------------------------------------------------------------- */

static u32 list_len(const struct e820_entry *list)
{
	u32 n = 0;

	while (n < CASE_MAX && list[n].type)
		n++;
	return n;
}

/* Load a raw list (zero-length entries too) into t, unsanitized. */
static void load(struct e820_table *t, const struct e820_entry *list, u32 n)
{
	memset(t, 0, sizeof(*t));
	memcpy(t->entries, list, n * sizeof(*list));
	t->nr_entries = n;
}


static struct e820_table tbl, saved;
static const struct e820_entry qemu_map[] = { QEMU_MAP };
static const struct e820_entry qemu_sanitized[] = { QEMU_MAP_SANITIZED };

static void load_qemu(struct ktest *t)
{
	load(&tbl, qemu_map, ARRAY_SIZE(qemu_map));
	KTEST_ASSERT_EQ(t, e820__update_table(&tbl), 0);
	saved = tbl;
}

static void expect_unchanged(struct ktest *t)
{
	e820_expect_table(t, &tbl, saved.entries, saved.nr_entries);
}

/* --- sanitizing --------------------------------------------------------------- */

static void test_sanitize_map(struct ktest *t)
{
	const struct e820_case *c = t->param_value;
	u32 n_out = list_len(c->out);

	load(&tbl, c->in, list_len(c->in));
	KTEST_EXPECT_EQ(t, e820__update_table(&tbl), 0);
	e820_expect_table(t, &tbl, c->out, n_out);
	/* A sanitized map is a fixed point. */
	KTEST_EXPECT_EQ(t, e820__update_table(&tbl), 0);
	e820_expect_table(t, &tbl, c->out, n_out);
}

static void test_sanitize_warns_per_clipped_entry(struct ktest *t)
{
	static const struct e820_entry in[] = {
		E(0xfffffffffffff000ULL, 0x2000, RAM),	/* wraps, dropped */
		E(0x1000, U64_MAX, RSV),		/* wraps, clipped */
		R(LIMIT, LIMIT + 1, RAM),		/* dropped */
		R(LIMIT - 1, LIMIT + 1, RAM),		/* clipped */
		R(0x0, LIMIT, RSV),			/* fits exactly */
	};

	load(&tbl, in, ARRAY_SIZE(in));
	ktest_capture_start(t, "52-bit");
	e820__update_table(&tbl);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 4U);
	load(&tbl, in, ARRAY_SIZE(in));
	ktest_capture_start(t, "wraps past 2^64");
	e820__update_table(&tbl);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 2U);
	/* The wrapped entry is reported as ending at the last byte. */
	load(&tbl, in, 1);
	ktest_capture_start(t, "[mem 0xfffffffffffff000-0xffffffffffffffff]");
	e820__update_table(&tbl);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_EQ(t, tbl.nr_entries, 0U);
}

/* --- table limits ------------------------------------------------------------- */

static void test_range_add_full(struct ktest *t)
{
	u32 i;

	memset(&tbl, 0, sizeof(tbl));
	for (i = 0; i < E820_MAX_ENTRIES; i++)
		KTEST_ASSERT_EQ(t, e820__range_add(&tbl, 0x2000ULL * i, 0x1000, RSV), 0);
	KTEST_EXPECT_EQ(t, e820__range_add(&tbl, 0x10000000, 0, RAM), 0);
	ktest_capture_start(t, "table full");
	KTEST_EXPECT_EQ(t, e820__range_add(&tbl, 0x10000000, 0x1000, RAM), -ENOSPC);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_EQ(t, tbl.nr_entries, (u32)E820_MAX_ENTRIES);
	KTEST_EXPECT_EQ(t, tbl.entries[E820_MAX_ENTRIES - 1].addr,
			0x2000ULL * (E820_MAX_ENTRIES - 1));
	/* A full table of disjoint entries sanitizes into itself. */
	KTEST_EXPECT_EQ(t, e820__update_table(&tbl), 0);
	KTEST_EXPECT_EQ(t, tbl.nr_entries, (u32)E820_MAX_ENTRIES);
}

/* One RAM range [0, ram_end) with holes reserved at page 2k + 1, k < holes. */
static void load_holes(u64 ram_end, u32 holes)
{
	u32 k;

	memset(&tbl, 0, sizeof(tbl));
	e820__range_add(&tbl, 0, ram_end, RAM);
	for (k = 0; k < holes; k++)
		e820__range_add(&tbl, 0x2000ULL * k + 0x1000, 0x1000, RSV);
}

static void test_sanitize_exactly_full(struct ktest *t)
{
	u32 i;

	/* Holes on every other page, the last at the very end: full. */
	load_holes(0x1000ULL * E820_MAX_ENTRIES, E820_MAX_ENTRIES / 2);
	KTEST_EXPECT_EQ(t, e820__update_table(&tbl), 0);
	KTEST_ASSERT_EQ(t, tbl.nr_entries, (u32)E820_MAX_ENTRIES);
	for (i = 0; i < E820_MAX_ENTRIES; i++) {
		KTEST_EXPECT_EQ(t, tbl.entries[i].addr, 0x1000ULL * i);
		KTEST_EXPECT_EQ(t, tbl.entries[i].size, 0x1000ULL);
		KTEST_EXPECT_EQ(t, tbl.entries[i].type, i % 2 ? (u32)RSV : (u32)RAM);
	}
}

/*
 * MAX - 1 holes in 32 MiB of RAM: MAX RAM pieces (all of one page but the
 * last, large one) and MAX - 1 reservations. The table keeps every
 * reservation and the large RAM range; the one-page RAM pieces go.
 */
static void test_sanitize_too_big(struct ktest *t)
{
	const u32 holes = E820_MAX_ENTRIES - 1;
	u32 i;

	load_holes(SZ_32M, holes);
	KTEST_EXPECT_EQ(t, tbl.nr_entries, (u32)E820_MAX_ENTRIES);
	ktest_capture_start(t, "no reservation dropped");
	KTEST_EXPECT_EQ(t, e820__update_table(&tbl), -E2BIG);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "needs 6399 entries, the table holds 3200");
	KTEST_ASSERT_EQ(t, tbl.nr_entries, (u32)E820_MAX_ENTRIES);
	for (i = 0; i < holes; i++) {
		KTEST_EXPECT_EQ(t, tbl.entries[i].addr, 0x2000ULL * i + 0x1000);
		KTEST_EXPECT_EQ(t, tbl.entries[i].size, 0x1000ULL);
		KTEST_EXPECT_EQ(t, tbl.entries[i].type, (u32)RSV);
	}
	KTEST_EXPECT_EQ(t, tbl.entries[holes].addr, 0x2000ULL * holes);
	KTEST_EXPECT_EQ(t, tbl.entries[holes].size, SZ_32M - 0x2000ULL * holes);
	KTEST_EXPECT_EQ(t, tbl.entries[holes].type, (u32)RAM);
	KTEST_EXPECT_EQ(t, e820__total(&tbl, RSV), 0x1000ULL * holes);
}

/* Among RAM ranges, the smallest go first, the equal ones from the top. */
static void test_sanitize_too_big_drops_smallest_ram(struct ktest *t)
{
	const u32 holes = E820_MAX_ENTRIES - 2;
	u32 i;

	/*
	 * Like test_sanitize_too_big with one hole less, but the third RAM
	 * piece is 2 pages: it stays, with the large one at the top.
	 */
	memset(&tbl, 0, sizeof(tbl));
	e820__range_add(&tbl, 0, SZ_32M, RAM);
	for (i = 0; i < holes; i++)
		e820__range_add(&tbl, 0x2000ULL * i + 0x1000 + (i >= 2 ? 0x1000 : 0),
				0x1000, RSV);
	ktest_capture_start(t, "no reservation dropped");
	KTEST_EXPECT_EQ(t, e820__update_table(&tbl), -E2BIG);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_ASSERT_EQ(t, tbl.nr_entries, (u32)E820_MAX_ENTRIES);
	KTEST_EXPECT_EQ(t, e820__total(&tbl, RSV), 0x1000ULL * holes);
	/* Kept: the 2-page piece at 0x4000 and the large one at the top. */
	KTEST_EXPECT_EQ(t, tbl.entries[2].addr, 0x4000ULL);
	KTEST_EXPECT_EQ(t, tbl.entries[2].size, 0x2000ULL);
	KTEST_EXPECT_EQ(t, tbl.entries[2].type, (u32)RAM);
	KTEST_EXPECT_EQ(t, tbl.entries[E820_MAX_ENTRIES - 1].type, (u32)RAM);
	KTEST_EXPECT_EQ(t, e820__total(&tbl, RAM),
			0x2000ULL + SZ_32M - (0x2000ULL * holes + 0x1000));
}

/*
 * Reservations alone beyond the table: 1700 reserved pages inside one
 * ACPI NVS range make 3401 entries, no RAM. The last ones are joined into
 * one reserved range; nothing that was reserved becomes a hole.
 */
static void test_sanitize_too_many_reservations(struct ktest *t)
{
	const u32 n = 1700;
	const u64 end = 0x2000ULL * n + 0x1000;
	u64 covered = 0;
	u32 i;

	memset(&tbl, 0, sizeof(tbl));
	e820__range_add(&tbl, 0, end, NVS);
	for (i = 0; i < n; i++)
		e820__range_add(&tbl, 0x2000ULL * i + 0x1000, 0x1000, RSV);
	ktest_capture_start(t, "reserved as one range");
	KTEST_EXPECT_EQ(t, e820__update_table(&tbl), -E2BIG);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_ASSERT_EQ(t, tbl.nr_entries, (u32)E820_MAX_ENTRIES);
	for (i = 0; i < tbl.nr_entries; i++) {
		const struct e820_entry *e = &tbl.entries[i];

		KTEST_EXPECT_EQ(t, e->addr, covered);	/* no hole */
		KTEST_EXPECT_NE(t, e->type, (u32)RAM);
		covered = e->addr + e->size;
	}
	KTEST_EXPECT_EQ(t, covered, end);
	KTEST_EXPECT_EQ(t, tbl.entries[E820_MAX_ENTRIES - 1].type, (u32)RSV);
}

/* A full table makes room for a reservation by dropping RAM, not vice versa. */
static void test_range_add_full_keeps_reservation(struct ktest *t)
{
	load_holes(0x1000ULL * E820_MAX_ENTRIES, E820_MAX_ENTRIES / 2);
	KTEST_ASSERT_EQ(t, e820__update_table(&tbl), 0);
	KTEST_ASSERT_EQ(t, tbl.nr_entries, (u32)E820_MAX_ENTRIES);

	ktest_capture_start(t, "table full");
	KTEST_EXPECT_EQ(t, e820__range_add(&tbl, SZ_1G, SZ_1M, RAM), -ENOSPC);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "dropping usable [mem 0x0000000040000000-0x00000000400fffff]");

	ktest_capture_start(t, "table full");
	KTEST_EXPECT_EQ(t, e820__range_add(&tbl, SZ_1G, SZ_1M, ACPI), 0);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	/* All RAM pieces are one page: the highest one made room. */
	KTEST_EXPECT_CAPTURED(t, "dropping usable [mem 0x0000000000c7e000-0x0000000000c7efff] to keep [mem 0x0000000040000000-0x00000000400fffff] ACPI data");
	KTEST_ASSERT_EQ(t, tbl.nr_entries, (u32)E820_MAX_ENTRIES);
	KTEST_EXPECT_EQ(t, tbl.entries[E820_MAX_ENTRIES - 1].addr, (u64)SZ_1G);
	KTEST_EXPECT_EQ(t, tbl.entries[E820_MAX_ENTRIES - 1].type, (u32)ACPI);
	KTEST_EXPECT_EQ(t, e820__total(&tbl, RSV),
			0x1000ULL * E820_MAX_ENTRIES / 2);
}

/* 3000 disjoint ranges in reverse order: sorted, nothing lost, quickly. */
static void test_sanitize_3000_entries(struct ktest *t)
{
	static const u32 types[] = { RAM, RSV, ACPI, NVS, T20 };
	const u32 n = 3000;
	u32 i;

	memset(&tbl, 0, sizeof(tbl));
	for (i = n; i-- > 0; )
		KTEST_ASSERT_EQ(t, e820__range_add(&tbl, 0x10000ULL * i,
						   0x8000, types[i % 5]), 0);
	KTEST_EXPECT_EQ(t, e820__update_table(&tbl), 0);
	KTEST_ASSERT_EQ(t, tbl.nr_entries, n);
	for (i = 0; i < n; i++) {
		KTEST_EXPECT_EQ(t, tbl.entries[i].addr, 0x10000ULL * i);
		KTEST_EXPECT_EQ(t, tbl.entries[i].size, 0x8000ULL);
		KTEST_EXPECT_EQ(t, tbl.entries[i].type, types[i % 5]);
	}
}

/* 3000 ranges all nested in one another: each layer resolved by priority. */
static void test_sanitize_3000_nested(struct ktest *t)
{
	const u32 n = 3000;
	u32 i;

	memset(&tbl, 0, sizeof(tbl));
	/* [i, 2n - i) pages, RAM outermost, reserved every 1000th layer. */
	for (i = 0; i < n; i++)
		e820__range_add(&tbl, 0x1000ULL * i, 0x1000ULL * 2 * (n - i),
				i % 1000 == 999 ? RSV : RAM);
	KTEST_EXPECT_EQ(t, e820__update_table(&tbl), 0);
	KTEST_ASSERT_EQ(t, tbl.nr_entries, 3U);
	KTEST_EXPECT_EQ(t, tbl.entries[0].addr, 0ULL);
	KTEST_EXPECT_EQ(t, tbl.entries[0].size, 0x1000ULL * 999);
	KTEST_EXPECT_EQ(t, tbl.entries[0].type, (u32)RAM);
	KTEST_EXPECT_EQ(t, tbl.entries[1].addr, 0x1000ULL * 999);
	KTEST_EXPECT_EQ(t, tbl.entries[1].size, 0x1000ULL * 2 * (n - 999));
	KTEST_EXPECT_EQ(t, tbl.entries[1].type, (u32)RSV);
	KTEST_EXPECT_EQ(t, tbl.entries[2].addr, 0x1000ULL * (2 * n - 999));
	KTEST_EXPECT_EQ(t, tbl.entries[2].type, (u32)RAM);
}

/* --- editing ------------------------------------------------------------------ */

static void test_range_update_splits(struct ktest *t)
{
	static const struct e820_entry want[] = {
		R(0x0, 0x9f000, RAM),
		R(0x9fc00, 0xa0000, RSV),
		R(0xf0000, 0x100000, RSV),
		R(0x100000, 0x7000000, RAM),
		R(0x7000000, 0x7800000, RSV),
		R(0x7800000, 0x7fe0000, RAM),
		R(0x7fe0000, 0x8000000, RSV),
		R(0xfffc0000, 0x100000000, RSV),
		R(0xfd00000000, 0x10000000000, RSV),
	};

	load_qemu(t);
	KTEST_EXPECT_EQ(t, e820__range_update(&tbl, 0x7000000, 0x800000, RAM, RSV),
			0x800000ULL);
	e820_expect_table(t, &tbl, want, ARRAY_SIZE(want));
}

static void test_range_update_across_entries(struct ktest *t)
{
	static const struct e820_entry want[] = {
		R(0x0, 0x9f000, RAM),
		R(0xf0000, 0x7fe0000, RAM),
		R(0x7fe0000, 0x8000000, RSV),
		R(0xfffc0000, 0x100000000, RSV),
		R(0xfd00000000, 0x10000000000, RSV),
	};

	/*
	 * Only the two reserved pieces below 2 MiB change: 0x400 + 0x10000.
	 * [0x9fc00, 0xa0000) becomes RAM but holds no whole page (the page
	 * at 0x9f000 was clipped away before): it goes; 0xf0000 merges.
	 */
	load_qemu(t);
	KTEST_EXPECT_EQ(t, e820__range_update(&tbl, 0, 0x200000, RSV, RAM), 0x10400ULL);
	e820_expect_table(t, &tbl, want, ARRAY_SIZE(want));
}

static void test_range_update_unaligned(struct ktest *t)
{
	static const struct e820_entry in[] = { R(0x0, 0x10000, RAM) };
	static const struct e820_entry want[] = {
		R(0x0, 0x1000, RAM),
		R(0x1800, 0x2800, ACPI),
		R(0x3000, 0x10000, RAM),
	};

	load(&tbl, in, ARRAY_SIZE(in));
	KTEST_EXPECT_EQ(t, e820__range_update(&tbl, 0x1800, 0x1000, RAM, ACPI), 0x1000ULL);
	e820_expect_table(t, &tbl, want, ARRAY_SIZE(want));
}

static void test_range_update_no_match(struct ktest *t)
{
	load_qemu(t);
	KTEST_EXPECT_EQ(t, e820__range_update(&tbl, 0, 0x100000, NVS, RAM), 0ULL);
	KTEST_EXPECT_EQ(t, e820__range_update(&tbl, 0x200000000, 0x1000, RAM, RSV), 0ULL);
	KTEST_EXPECT_EQ(t, e820__range_update(&tbl, 0x100000, 0, RAM, RSV), 0ULL);
	KTEST_EXPECT_EQ(t, e820__range_update(&tbl, 0x100000, 0x1000, RAM, RAM), 0ULL);
	expect_unchanged(t);
}

static void test_range_remove_middle_splits(struct ktest *t)
{
	static const struct e820_entry in[] = { R(0x100000, 0x1000000, RAM) };
	static const struct e820_entry want[] = {
		R(0x100000, 0x400000, RAM),
		R(0x500000, 0x1000000, RAM),
	};

	load(&tbl, in, ARRAY_SIZE(in));
	KTEST_EXPECT_EQ(t, e820__range_remove(&tbl, 0x400000, 0x100000, RAM, true),
			0x100000ULL);
	e820_expect_table(t, &tbl, want, ARRAY_SIZE(want));
}

static void test_range_remove_any_type(struct ktest *t)
{
	static const struct e820_entry want[] = {
		R(0x0, 0x9f000, RAM),
		R(0x100000, 0x7fe0000, RAM),
		R(0x7fe0000, 0x8000000, RSV),
		R(0xfffc0000, 0x100000000, RSV),
		R(0xfd00000000, 0x10000000000, RSV),
	};

	load_qemu(t);
	/* Wrong type: nothing. */
	KTEST_EXPECT_EQ(t, e820__range_remove(&tbl, 0x9f000, 0x61000, ACPI, true), 0ULL);
	expect_unchanged(t);
	KTEST_EXPECT_EQ(t, e820__range_remove(&tbl, 0x9f000, 0x61000, 0, false), 0x10400ULL);
	e820_expect_table(t, &tbl, want, ARRAY_SIZE(want));
}

static void test_range_remove_everything(struct ktest *t)
{
	load_qemu(t);
	KTEST_EXPECT_EQ(t, e820__range_remove(&tbl, 0, U64_MAX, 0, false),
			0x7f7f000ULL + 0x300070400ULL);
	KTEST_EXPECT_EQ(t, tbl.nr_entries, 0U);
}

static void test_range_remove_unaligned_ram(struct ktest *t)
{
	static const struct e820_entry in[] = { R(0x0, 0x10000, RAM) };
	static const struct e820_entry want[] = {
		R(0x0, 0x1000, RAM),
		R(0x3000, 0x10000, RAM),
	};

	/* The partial pages left on either side go too. */
	load(&tbl, in, ARRAY_SIZE(in));
	KTEST_EXPECT_EQ(t, e820__range_remove(&tbl, 0x1800, 0x1000, RAM, true), 0x1000ULL);
	e820_expect_table(t, &tbl, want, ARRAY_SIZE(want));
}

static void test_total(struct ktest *t)
{
	load_qemu(t);
	KTEST_EXPECT_EQ(t, e820__total(&tbl, RAM), 0x9f000ULL + 0x7ee0000ULL);
	KTEST_EXPECT_EQ(t, e820__total(&tbl, RSV),
			0x400ULL + 0x10000 + 0x20000 + 0x40000 + 0x300000000ULL);
	KTEST_EXPECT_EQ(t, e820__total(&tbl, ACPI), 0ULL);
	memset(&tbl, 0, sizeof(tbl));
	KTEST_EXPECT_EQ(t, e820__total(&tbl, RAM), 0ULL);
}

/* --- names and printing ------------------------------------------------------- */

static void test_type_to_string(struct ktest *t)
{
	KTEST_EXPECT_STREQ(t, e820_type_to_string(RAM), "usable");
	KTEST_EXPECT_STREQ(t, e820_type_to_string(RSV), "reserved");
	KTEST_EXPECT_STREQ(t, e820_type_to_string(ACPI), "ACPI data");
	KTEST_EXPECT_STREQ(t, e820_type_to_string(NVS), "ACPI NVS");
	KTEST_EXPECT_STREQ(t, e820_type_to_string(BAD), "unusable");
	KTEST_EXPECT_STREQ(t, e820_type_to_string(PMEM), "persistent (type 7)");
	KTEST_EXPECT_STREQ(t, e820_type_to_string(PRAM), "persistent RAM (type 12)");
	KTEST_EXPECT_STREQ(t, e820_type_to_string(20), "type 20");
	KTEST_EXPECT_STREQ(t, e820_type_to_string(0), "type 0");
	KTEST_EXPECT_STREQ(t, e820_type_to_string(0xffffffff), "type 4294967295");
}

static void test_print_table(struct ktest *t)
{
	static const struct e820_entry in[] = {
		R(0x0, 0x9fc00, RAM),
		R(0x9fc00, 0xa0000, RSV),
	};

	load(&tbl, in, ARRAY_SIZE(in));
	ktest_capture_start(t, "BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable");
	e820__print_table(&tbl, "BIOS-e820");
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	ktest_capture_start(t, "BIOS-e820: [mem 0x000000000009fc00-0x000000000009ffff] reserved");
	e820__print_table(&tbl, "BIOS-e820");
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	ktest_capture_start(t, "BIOS-e820: ");
	e820__print_table(&tbl, "BIOS-e820");
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 2U);
	tbl.entries[1] = (struct e820_entry)R(0xfd00000000, 0x10000000000, T20);
	ktest_capture_start(t, "user: [mem 0x000000fd00000000-0x000000ffffffffff] type 20");
	e820__print_table(&tbl, "user");
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
}

/* --- mem= --------------------------------------------------------------------- */

static void test_mem_limit(struct ktest *t)
{
	static const struct e820_entry want[] = {
		R(0x0, 0x9f000, RAM),
		R(0x9fc00, 0xa0000, RSV),
		R(0xf0000, 0x100000, RSV),
		R(0x100000, 0x4000000, RAM),
		R(0x7fe0000, 0x8000000, RSV),
		R(0xfffc0000, 0x100000000, RSV),
		R(0xfd00000000, 0x10000000000, RSV),
	};

	/* RAM ends at 64 MiB: 64 MiB less the holes below 1 MiB. */
	load_qemu(t);
	KTEST_EXPECT_EQ(t, e820__parse_mem(&tbl, "64M"), 0);
	e820_expect_table(t, &tbl, want, ARRAY_SIZE(want));
	KTEST_EXPECT_EQ(t, e820__total(&tbl, RAM), 0x4000000ULL - 0x61000);
}

static void test_mem_above_ram_and_hex(struct ktest *t)
{
	load_qemu(t);
	KTEST_EXPECT_EQ(t, e820__parse_mem(&tbl, "1G"), 0);
	expect_unchanged(t);
	KTEST_EXPECT_EQ(t, e820__parse_mem(&tbl, "0x3000000"), 0);
	KTEST_EXPECT_EQ(t, e820__total(&tbl, RAM), 0x3000000ULL - 0x61000);
	/* Not page-aligned: the last partial page goes. */
	KTEST_EXPECT_EQ(t, e820__parse_mem(&tbl, "0x2000800"), 0);
	KTEST_EXPECT_EQ(t, e820__total(&tbl, RAM), 0x2000000ULL - 0x61000);
}

static void test_mem_invalid(struct ktest *t)
{
	static const char *const bad[] = { "0", "abc", "", "64Mx", "-1", "0K" };
	u32 i;

	load_qemu(t);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ktest_capture_start(t, "mem=");
		KTEST_EXPECT_EQ(t, e820__parse_mem(&tbl, bad[i]), -EINVAL);
		KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
		expect_unchanged(t);
	}
	KTEST_EXPECT_EQ(t, e820__parse_mem(&tbl, NULL), -EINVAL);
	expect_unchanged(t);
}

/* --- memmap= ------------------------------------------------------------------ */

static void test_memmap_reserve(struct ktest *t)
{
	static const struct e820_entry want[] = {
		R(0x0, 0x9f000, RAM),
		R(0x9fc00, 0xa0000, RSV),
		R(0xf0000, 0x100000, RSV),
		R(0x100000, 0x1000000, RAM),
		R(0x1000000, 0x2000000, RSV),
		R(0x2000000, 0x7fe0000, RAM),
		R(0x7fe0000, 0x8000000, RSV),
		R(0xfffc0000, 0x100000000, RSV),
		R(0xfd00000000, 0x10000000000, RSV),
	};

	load_qemu(t);
	KTEST_EXPECT_EQ(t, e820__parse_memmap(&tbl, "16M$0x1000000"), 0);
	e820_expect_table(t, &tbl, want, ARRAY_SIZE(want));
}

static void test_memmap_add_ram(struct ktest *t)
{
	static const struct e820_entry want[] = {
		R(0x0, 0x9f000, RAM),
		R(0x9fc00, 0xa0000, RSV),
		R(0xf0000, 0x100000, RSV),
		R(0x100000, 0x7fe0000, RAM),
		R(0x7fe0000, 0x8000000, RSV),
		R(0x20000000, 0x20100000, RAM),
		R(0xfffc0000, 0x100000000, RSV),
		R(0xfd00000000, 0x10000000000, RSV),
	};

	load_qemu(t);
	KTEST_EXPECT_EQ(t, e820__parse_memmap(&tbl, "1M@0x20000000"), 0);
	e820_expect_table(t, &tbl, want, ARRAY_SIZE(want));
}

static void test_memmap_pram_and_acpi(struct ktest *t)
{
	static const struct e820_entry want[] = {
		R(0x0, 0x9f000, RAM),
		R(0x9fc00, 0xa0000, RSV),
		R(0xf0000, 0x100000, RSV),
		R(0x100000, 0x101000, PRAM),
		R(0x101000, 0x7000000, RAM),
		R(0x7000000, 0x7010000, ACPI),
		R(0x7010000, 0x7fe0000, RAM),
		R(0x7fe0000, 0x8000000, RSV),
		R(0xfffc0000, 0x100000000, RSV),
		R(0xfd00000000, 0x10000000000, RSV),
	};

	load_qemu(t);
	KTEST_EXPECT_EQ(t, e820__parse_memmap(&tbl, "4K!0x100000"), 0);
	KTEST_EXPECT_EQ(t, e820__parse_memmap(&tbl, "64K#0x7000000"), 0);
	e820_expect_table(t, &tbl, want, ARRAY_SIZE(want));
}

static void test_memmap_list(struct ktest *t)
{
	static const struct e820_entry want[] = {
		R(0x0, 0x9f000, RAM),
		R(0x9fc00, 0xa0000, RSV),
		R(0xf0000, 0x100000, RSV),
		R(0x100000, 0x1000000, RAM),
		R(0x1000000, 0x2000000, RSV),
		R(0x2000000, 0x4000000, RAM),
		R(0x7fe0000, 0x8000000, RSV),
		R(0x20000000, 0x20100000, RAM),
		R(0xfffc0000, 0x100000000, RSV),
		R(0xfd00000000, 0x10000000000, RSV),
	};

	/* A bare SIZE acts as mem=SIZE, in order with the others. */
	load_qemu(t);
	KTEST_EXPECT_EQ(t, e820__parse_memmap(&tbl, "16M$0x1000000,64M,1M@0x20000000"), 0);
	e820_expect_table(t, &tbl, want, ARRAY_SIZE(want));
}

static void test_memmap_invalid(struct ktest *t)
{
	static const char *const bad[] = {
		"bad", "1M$", "$0x1000", "1M^0x100000", "1M$0x100000x",
		"0x10@0xfffffffffffffff8", "0$0x100000", "exactmap",
		"1M%0x100000-1+2", "", "16M$0x1000000,bad",
		"16M$0x1000000,", ",16M$0x1000000", "16M$0x1000000,,1M@0x0",
	};
	u32 i;

	load_qemu(t);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ktest_capture_start(t, "memmap");
		KTEST_EXPECT_EQ(t, e820__parse_memmap(&tbl, bad[i]), -EINVAL);
		if (ktest_capture_stop(t) != 1)
			KTEST_FAIL(t, "\"%s\": expected one warning", bad[i]);
		expect_unchanged(t);
	}
	KTEST_EXPECT_EQ(t, e820__parse_memmap(&tbl, NULL), -EINVAL);
	expect_unchanged(t);
}

static void test_memmap_edge_of_address_space(struct ktest *t)
{
	/* Ends exactly at the last byte: valid, then dropped above 2^52. */
	load_qemu(t);
	ktest_capture_start(t, "52-bit");
	KTEST_EXPECT_EQ(t, e820__parse_memmap(&tbl, "0x8@0xfffffffffffffff8"), 0);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	expect_unchanged(t);
}

static void test_memmap_table_full(struct ktest *t)
{
	load_holes(0x1000ULL * E820_MAX_ENTRIES, E820_MAX_ENTRIES / 2);
	KTEST_ASSERT_EQ(t, e820__update_table(&tbl), 0);
	saved = tbl;
	ktest_capture_start(t, "table full");
	KTEST_EXPECT_EQ(t, e820__parse_memmap(&tbl, "1M@0x20000000"), -ENOSPC);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	expect_unchanged(t);
}

static void test_qemu_fixture(struct ktest *t)
{
	load_qemu(t);
	e820_expect_table(t, &tbl, qemu_sanitized, ARRAY_SIZE(qemu_sanitized));
}

static const struct ktest_case e820_cases[] = {
	KTEST_CASE_PARAM(test_sanitize_map, sanitize_gen),
	KTEST_CASE(test_sanitize_warns_per_clipped_entry),
	KTEST_CASE(test_range_add_full),
	KTEST_CASE(test_sanitize_exactly_full),
	KTEST_CASE(test_sanitize_too_big),
	KTEST_CASE(test_sanitize_too_big_drops_smallest_ram),
	KTEST_CASE(test_sanitize_too_many_reservations),
	KTEST_CASE(test_range_add_full_keeps_reservation),
	KTEST_CASE(test_sanitize_3000_entries),
	KTEST_CASE(test_sanitize_3000_nested),
	KTEST_CASE(test_range_update_splits),
	KTEST_CASE(test_range_update_across_entries),
	KTEST_CASE(test_range_update_unaligned),
	KTEST_CASE(test_range_update_no_match),
	KTEST_CASE(test_range_remove_middle_splits),
	KTEST_CASE(test_range_remove_any_type),
	KTEST_CASE(test_range_remove_everything),
	KTEST_CASE(test_range_remove_unaligned_ram),
	KTEST_CASE(test_total),
	KTEST_CASE(test_type_to_string),
	KTEST_CASE(test_print_table),
	KTEST_CASE(test_mem_limit),
	KTEST_CASE(test_mem_above_ram_and_hex),
	KTEST_CASE(test_mem_invalid),
	KTEST_CASE(test_memmap_reserve),
	KTEST_CASE(test_memmap_add_ram),
	KTEST_CASE(test_memmap_pram_and_acpi),
	KTEST_CASE(test_memmap_list),
	KTEST_CASE(test_memmap_invalid),
	KTEST_CASE(test_memmap_edge_of_address_space),
	KTEST_CASE(test_memmap_table_full),
	KTEST_CASE(test_qemu_fixture),
	{}
};
KTEST_SUITE(e820, e820_cases);

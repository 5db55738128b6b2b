/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The physical memory map (Linux's arch/x86 e820 interface): a fixed table
 * of [addr, addr + size) ranges, each with a firmware type, sanitized into
 * sorted, disjoint, merged entries. See arch/x86_64/e820.c for the rules.
 */
#ifndef ARCH_X86_64_E820_H
#define ARCH_X86_64_E820_H

#include "kernel/types.h"

/*
 * Room for a UEFI map of thousands of ranges, as Linux sizes its table
 * (128 for the BIOS's zero page, plus 3 per possible NUMA node of 1024).
 * A struct e820_table is 75 KiB: never put one on the stack.
 */
#define E820_MAX_ENTRIES	(128 + 3 * 1024)

enum e820_type {
	E820_TYPE_RAM		= 1,
	E820_TYPE_RESERVED	= 2,
	E820_TYPE_ACPI		= 3,
	E820_TYPE_NVS		= 4,
	E820_TYPE_UNUSABLE	= 5,
	E820_TYPE_PMEM		= 7,
	E820_TYPE_PRAM		= 12,
};

struct e820_entry {
	u64 addr;
	u64 size;
	u32 type;
};

struct e820_table {
	u32 nr_entries;
	struct e820_entry entries[E820_MAX_ENTRIES];
};

/* Ranges at or above 1 << 52 are dropped/clipped with a warning. */
#define E820_MAX_PHYS_BITS	52
#define E820_PHYS_LIMIT		(1ULL << E820_MAX_PHYS_BITS)

/* The kernel's map (defined in e820.c). */
extern struct e820_table e820_table;

/*
 * Append a range (no sanitizing); size 0 is ignored (returns 0). When the
 * table is full it is sanitized first (merging what it can); if it is
 * still full, a reservation (any type but RAM) takes the place of the
 * smallest RAM entry (or, with no RAM left, two neighbouring
 * reservations are joined across the hole between them), while a RAM
 * range is dropped with a warning and -ENOSPC: the table loses RAM,
 * never a reservation.
 */
int e820__range_add(struct e820_table *t, u64 start, u64 size, u32 type);

/*
 * Sanitize in place. Returns 0, or -E2BIG if the result did not fit: then
 * the smallest RAM entries were dropped until it did (with a warning);
 * reservations are never dropped (if they alone do not fit, the last
 * ones are joined into one reserved range). A sanitized table has every
 * entry inside [0, 1 << E820_MAX_PHYS_BITS), so addr + size never
 * overflows.
 */
int e820__update_table(struct e820_table *t);

/*
 * Change the type of every part of [start, start + size) that has type
 * old_type to new_type; returns the bytes changed (counted before the
 * table is re-sanitized, which may page-clip RAM further).
 */
u64 e820__range_update(struct e820_table *t, u64 start, u64 size,
		       u32 old_type, u32 new_type);

/*
 * Remove [start, start + size) from entries of type old_type (of any type
 * if !check_type); returns the bytes removed. The table is re-sanitized.
 */
u64 e820__range_remove(struct e820_table *t, u64 start, u64 size,
		       u32 old_type, bool check_type);

/* Is type one of the E820_TYPE_* above? */
bool e820_type_known(u32 type);

/* Total bytes of the given type (the sum of entry sizes). */
u64 e820__total(const struct e820_table *t, u32 type);

/*
 * "usable", "reserved", "ACPI data", "ACPI NVS", "unusable",
 * "persistent (type 7)", "persistent RAM (type 12)"; other types
 * "type N" (from a small ring of static buffers: valid for the next few
 * calls only).
 */
const char *e820_type_to_string(u32 type);

/*
 * One printk(KERN_INFO) line per entry, Linux's format (end inclusive):
 * "<who>: [mem 0x0000000000000000-0x000000000009fbff] usable"
 */
void e820__print_table(const struct e820_table *t, const char *who);

/*
 * mem=SIZE: remove usable RAM from SIZE up (Linux). 0, or -EINVAL for a
 * bad or zero value (a warning, table unchanged).
 */
int e820__parse_mem(struct e820_table *t, const char *arg);

/*
 * memmap=SPEC[,SPEC...] (Linux): SIZE@ADDR adds usable RAM, SIZE$ADDR
 * reserves, SIZE!ADDR marks protected persistent RAM (type 12), SIZE#ADDR
 * ACPI data, a bare SIZE acts as mem=SIZE. "exactmap" and SIZE%ADDR are
 * not supported. 0, or -EINVAL (also for ADDR + SIZE beyond 2^64) with a
 * warning; -ENOSPC/-E2BIG if the result does not fit. The table is changed
 * only if every spec applies (then it is re-sanitized).
 */
int e820__parse_memmap(struct e820_table *t, const char *arg);

/*
 * The firmware's raw map, appended to t unsanitized: from multiboot2 on
 * the machine (arch/x86_64/setup.c), a QEMU-like map on the host
 * (arch/host/mm.c). Called once, by arch_memory_setup().
 */
void e820__memory_setup_firmware(struct e820_table *t);

#endif /* ARCH_X86_64_E820_H */

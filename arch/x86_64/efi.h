/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The UEFI memory map as a boot loader hands it over (multiboot2 tag 17):
 * an array of EFI_MEMORY_DESCRIPTORs, each desc_size bytes (at least the
 * 40 of efi_memory_desc_t; later firmware may append fields). GRUB has
 * left boot services by the time the kernel runs, so boot services and
 * loader memory is free RAM. See arch/x86_64/efi.c for how the map becomes
 * an e820 table.
 */
#ifndef ARCH_X86_64_EFI_H
#define ARCH_X86_64_EFI_H

#include "kernel/types.h"

struct e820_table;
struct mb2_info;

/* Memory types (UEFI specification 2.10, table 7.10). */
#define EFI_RESERVED_TYPE		0
#define EFI_LOADER_CODE			1
#define EFI_LOADER_DATA			2
#define EFI_BOOT_SERVICES_CODE		3
#define EFI_BOOT_SERVICES_DATA		4
#define EFI_RUNTIME_SERVICES_CODE	5
#define EFI_RUNTIME_SERVICES_DATA	6
#define EFI_CONVENTIONAL_MEMORY		7
#define EFI_UNUSABLE_MEMORY		8
#define EFI_ACPI_RECLAIM_MEMORY		9
#define EFI_ACPI_MEMORY_NVS		10
#define EFI_MEMORY_MAPPED_IO		11
#define EFI_MEMORY_MAPPED_IO_PORT_SPACE	12
#define EFI_PAL_CODE			13
#define EFI_PERSISTENT_MEMORY		14
#define EFI_MAX_MEMORY_TYPE		15

/* Attributes. */
#define EFI_MEMORY_UC			0x0000000000000001ULL
#define EFI_MEMORY_WC			0x0000000000000002ULL
#define EFI_MEMORY_WT			0x0000000000000004ULL
#define EFI_MEMORY_WB			0x0000000000000008ULL
#define EFI_MEMORY_UCE			0x0000000000000010ULL
#define EFI_MEMORY_WP			0x0000000000001000ULL
#define EFI_MEMORY_RP			0x0000000000002000ULL
#define EFI_MEMORY_XP			0x0000000000004000ULL
#define EFI_MEMORY_NV			0x0000000000008000ULL
#define EFI_MEMORY_MORE_RELIABLE	0x0000000000010000ULL
#define EFI_MEMORY_RO			0x0000000000020000ULL
#define EFI_MEMORY_SP			0x0000000000040000ULL
#define EFI_MEMORY_CPU_CRYPTO		0x0000000000080000ULL
#define EFI_MEMORY_RUNTIME		0x8000000000000000ULL

#define EFI_PAGE_SHIFT			12

typedef struct {
	u32 type;
	u32 pad;
	u64 phys_addr;
	u64 virt_addr;
	u64 num_pages;		/* of 4 KiB, whatever the CPU's page size */
	u64 attribute;
} efi_memory_desc_t;

/* A map in memory: nr descriptors of desc_size bytes at map. */
struct efi_memmap {
	const u8 *map;
	u32 nr;
	u32 desc_size;		/* >= sizeof(efi_memory_desc_t) */
};

/* Copy descriptor i out of the map (it may be unaligned). */
void efi_memmap_desc(const struct efi_memmap *m, u32 i, efi_memory_desc_t *md);

/*
 * The e820 type Linux gives a descriptor: RAM for conventional, boot
 * services and loader memory that is write-back cacheable (reserved
 * otherwise), ACPI data, ACPI NVS, unusable, persistent (type 7), and
 * reserved for everything else (runtime services, MMIO, PAL code,
 * EFI reserved and unknown types).
 */
u32 efi_md_e820_type(const efi_memory_desc_t *md);

/*
 * Append the map to t as e820 entries, touching descriptors of the same
 * e820 type merged into one entry (the table is not sanitized). A range
 * that does not fit is handled by e820__range_add(). Returns the entries
 * appended.
 */
u32 efi_memmap_to_e820(const struct efi_memmap *m, struct e820_table *t);

/*
 * "[Conventional|   |  |  |  |  |  |  |  |  |   |WB|WT|WC|UC]", Linux's
 * description of a descriptor's type and attributes, into buf.
 */
char *efi_md_typeattr_format(char *buf, size_t size,
			     const efi_memory_desc_t *md);

/* One line per descriptor: "efi: mem00: [...] range=[0x...-0x...] (1MB)". */
void efi_print_memmap(const struct efi_memmap *m);

/*
 * The firmware's memory map from the boot information, appended raw to
 * t: the EFI memory map if there is a usable one (compared with the
 * legacy mmap tag: if both are there and disagree, one warning), else the
 * legacy mmap tag, else basic meminfo. Returns -ENOENT if there is none
 * of them (t unchanged).
 */
int efi_mb2_memory_map(const struct mb2_info *mb, struct e820_table *t);

/* The boot information's EFI map, for the efimap shell command. */
void efi_set_boot_memmap(const struct efi_memmap *m);

#endif /* ARCH_X86_64_EFI_H */

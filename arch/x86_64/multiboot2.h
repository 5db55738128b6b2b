/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The multiboot2 boot information block: the structure a multiboot2 boot
 * loader (GRUB) leaves in memory and passes in ebx. mb2_parse() checks the
 * whole block before it hands out a single pointer into it; see
 * arch/x86_64/multiboot2.c for what it accepts.
 */
#ifndef ARCH_X86_64_MULTIBOOT2_H
#define ARCH_X86_64_MULTIBOOT2_H

#include "kernel/types.h"

/* eax at the kernel's entry when a multiboot2 loader started it. */
#define MB2_BOOTLOADER_MAGIC		0x36d76289U

/* Tag types (multiboot2 specification, section 3.6). */
#define MB2_TAG_END			0
#define MB2_TAG_CMDLINE			1
#define MB2_TAG_BOOTLOADER		2
#define MB2_TAG_MODULE			3
#define MB2_TAG_BASIC_MEMINFO		4
#define MB2_TAG_BOOTDEV			5
#define MB2_TAG_MMAP			6
#define MB2_TAG_VBE			7
#define MB2_TAG_FRAMEBUFFER		8
#define MB2_TAG_ELF_SECTIONS		9
#define MB2_TAG_APM			10
#define MB2_TAG_EFI32			11
#define MB2_TAG_EFI64			12
#define MB2_TAG_SMBIOS			13
#define MB2_TAG_ACPI_OLD		14
#define MB2_TAG_ACPI_NEW		15
#define MB2_TAG_NETWORK			16
#define MB2_TAG_EFI_MMAP		17
#define MB2_TAG_EFI_BS			18
#define MB2_TAG_EFI32_IH		19
#define MB2_TAG_EFI64_IH		20
#define MB2_TAG_LOAD_BASE_ADDR		21

/* Memory map entry types. */
#define MB2_MMAP_AVAILABLE		1
#define MB2_MMAP_RESERVED		2
#define MB2_MMAP_ACPI_RECLAIMABLE	3
#define MB2_MMAP_NVS			4
#define MB2_MMAP_BADRAM			5

#define MB2_MAX_MODULES			16

/* ACPI Root System Description Pointer sizes (ACPI 1.0 and 2.0+). */
#define ACPI_RSDP_V1_SIZE		20
#define ACPI_RSDP_V2_SIZE		36

/* The fixed part of the block: total_size, then a reserved word. */
#define MB2_INFO_HEADER_SIZE		8
/* Every tag starts with this header, 8-byte aligned in the block. */
struct mb2_tag {
	u32 type;
	u32 size;	/* header included, padding to 8 bytes not */
};

/* One entry of the memory map tag (the spec's layout, 24 bytes). */
struct mb2_mmap_entry {
	u64 addr;
	u64 len;
	u32 type;	/* MB2_MMAP_* */
	u32 reserved;
};

struct mb2_module {
	u32 mod_start;	/* physical, first byte */
	u32 mod_end;	/* physical, one past the last byte */
	const char *cmdline;	/* within the block, never NULL */
};

/*
 * What mb2_parse() found. Every pointer points into the block that was
 * parsed, so the block must stay mapped (and unmodified) while they are
 * used.
 */
struct mb2_info {
	u32 total_size;
	const char *cmdline;		/* NULL if no tag */
	const char *bootloader_name;	/* NULL if no tag */
	bool has_meminfo;
	u32 mem_lower_kb, mem_upper_kb;
	const u8 *mmap;			/* first entry, NULL if no tag */
	u32 mmap_entry_size;		/* >= 24, multiple of 8 */
	u32 mmap_nr_entries;		/* may be 0 */
	/*
	 * The UEFI memory map, as the firmware gave it: efi_mmap_size bytes,
	 * a whole number of efi_desc_size descriptors (>= 40, a multiple of
	 * 8; larger ones carry fields of later versions, which are skipped).
	 * efi_mmap is NULL if there is no tag, or if the tag was malformed:
	 * then efi_mmap_bad is set, a message was printed, and the legacy
	 * mmap tag (if any) is the memory map.
	 */
	const u8 *efi_mmap;
	u32 efi_mmap_size, efi_desc_size, efi_desc_version;
	bool efi_mmap_bad;
	/*
	 * The ACPI RSDP copied by the loader: from the "new" tag (ACPI 2.0+,
	 * 36 or more bytes, both checksums good) if there is one, else from
	 * the "old" tag (ACPI 1.0, 20 bytes). NULL if neither was usable (a
	 * bad one only warns). acpi_rsdp_len is the bytes valid at it.
	 */
	const u8 *acpi_rsdp;
	u32 acpi_rsdp_len;
	u8 acpi_rsdp_revision;
	u32 nr_modules;			/* at most MB2_MAX_MODULES */
	struct mb2_module modules[MB2_MAX_MODULES];
};

/*
 * Parse the block at info, of which avail bytes may be read at all (the
 * caller's mapping). Returns 0 with *out filled in, or -EINVAL with a
 * "multiboot2: ..." error printed and *out zeroed; nothing outside
 * [info, info + min(avail, total_size)) is ever read.
 */
int mb2_parse(const void *info, size_t avail, struct mb2_info *out);

/* The i-th memory map entry (honouring mmap_entry_size), or NULL if i is out of range. */
const struct mb2_mmap_entry *mb2_mmap_entry(const struct mb2_info *mb, u32 i);

/* Human-readable name of a memory map entry type ("usable", "reserved"...). */
const char *mb2_mmap_type_name(u32 type);

/*
 * Print what was found: a summary line ("multiboot2: boot loader 'GRUB
 * 2.06', 6 mmap entries, 2 modules, cmdline '...'"), then the memory map
 * and the modules, one line each.
 */
void mb2_print(const struct mb2_info *mb);

#endif /* ARCH_X86_64_MULTIBOOT2_H */

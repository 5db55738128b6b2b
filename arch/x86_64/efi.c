// SPDX-License-Identifier: GPL-2.0
/*
 * The UEFI memory map: from the multiboot2 EFI memory map tag to the e820
 * table.
 *
 * Under UEFI, GRUB passes two maps: the firmware's own (tag 17, hundreds
 * of descriptors, every EFI memory type) and a legacy e820-style one
 * (tag 6) it converts from it with rules of its own (runtime services
 * code becomes type 20, for example). The kernel prefers the firmware's
 * map and converts it with Linux's rules (efi_md_e820_type()): GRUB left
 * boot services before jumping to the kernel, so boot services and
 * loader memory is free RAM like conventional memory, as long as it is
 * write-back cacheable. Touching descriptors that end up with the same
 * e820 type are merged while converting, so a map of hundreds of
 * descriptors becomes a table of tens of entries before sanitizing.
 *
 * When both tags are there, the two maps are sanitized and compared
 * (unknown legacy types counting as reserved, which is what the kernel
 * makes of them): a difference is reported once, with the first range
 * where they part, and the EFI map is used.
 *
 * Descriptors are copied out with memcpy: desc_size comes from the tag,
 * and only the first sizeof(efi_memory_desc_t) bytes of each are read.
 * "efi=debug" prints the map at boot the way Linux does, and the shell
 * command "efimap" prints it on demand. Boot time, one CPU: the static
 * comparison tables are not reentrant.
 */
#define pr_fmt(fmt) "efi: " fmt

#include "arch/x86_64/efi.h"
#include "arch/x86_64/e820.h"
#include "arch/x86_64/multiboot2.h"
#include "kernel/errno.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
#include "lib/sprintf.h"
#include "lib/string.h"

typedef unsigned long long ull;

void efi_memmap_desc(const struct efi_memmap *m, u32 i, efi_memory_desc_t *md)
{
	memcpy(md, m->map + (size_t)i * m->desc_size, sizeof(*md));
}

u32 efi_md_e820_type(const efi_memory_desc_t *md)
{
	switch (md->type) {
	case EFI_LOADER_CODE:
	case EFI_LOADER_DATA:
	case EFI_BOOT_SERVICES_CODE:
	case EFI_BOOT_SERVICES_DATA:
	case EFI_CONVENTIONAL_MEMORY:
		if (md->attribute & EFI_MEMORY_SP)
			return E820_TYPE_RESERVED;	/* specific-purpose */
		return md->attribute & EFI_MEMORY_WB ? E820_TYPE_RAM :
						       E820_TYPE_RESERVED;
	case EFI_ACPI_RECLAIM_MEMORY:
		return E820_TYPE_ACPI;
	case EFI_ACPI_MEMORY_NVS:
		return E820_TYPE_NVS;
	case EFI_UNUSABLE_MEMORY:
		return E820_TYPE_UNUSABLE;
	case EFI_PERSISTENT_MEMORY:
		return E820_TYPE_PMEM;
	default:
		return E820_TYPE_RESERVED;
	}
}

/* Bytes of a descriptor; a count past 2^64 bytes runs to the top. */
static u64 efi_md_size(const efi_memory_desc_t *md)
{
	if (md->num_pages > (U64_MAX >> EFI_PAGE_SHIFT))
		return U64_MAX;
	return md->num_pages << EFI_PAGE_SHIFT;
}

u32 efi_memmap_to_e820(const struct efi_memmap *m, struct e820_table *t)
{
	struct e820_entry *prev = NULL;
	u32 i, added = 0;

	for (i = 0; i < m->nr; i++) {
		efi_memory_desc_t md;
		u64 size;
		u32 type;

		efi_memmap_desc(m, i, &md);
		size = efi_md_size(&md);
		type = efi_md_e820_type(&md);
		if (!size)
			continue;
		if (prev && prev->type == type && size <= U64_MAX - md.phys_addr &&
		    prev->addr + prev->size == md.phys_addr) {
			prev->size += size;
			continue;
		}
		if (e820__range_add(t, md.phys_addr, size, type))
			continue;
		prev = &t->entries[t->nr_entries - 1];
		added++;
	}
	return added;
}

/* --- printing ------------------------------------------------------------- */

static const char *const efi_type_names[EFI_MAX_MEMORY_TYPE] = {
	[EFI_RESERVED_TYPE]		= "Reserved",
	[EFI_LOADER_CODE]		= "Loader Code",
	[EFI_LOADER_DATA]		= "Loader Data",
	[EFI_BOOT_SERVICES_CODE]	= "Boot Code",
	[EFI_BOOT_SERVICES_DATA]	= "Boot Data",
	[EFI_RUNTIME_SERVICES_CODE]	= "Runtime Code",
	[EFI_RUNTIME_SERVICES_DATA]	= "Runtime Data",
	[EFI_CONVENTIONAL_MEMORY]	= "Conventional",
	[EFI_UNUSABLE_MEMORY]		= "Unusable",
	[EFI_ACPI_RECLAIM_MEMORY]	= "ACPI Reclaim",
	[EFI_ACPI_MEMORY_NVS]		= "ACPI Mem NVS",
	[EFI_MEMORY_MAPPED_IO]		= "MMIO",
	[EFI_MEMORY_MAPPED_IO_PORT_SPACE] = "MMIO Port",
	[EFI_PAL_CODE]			= "PAL Code",
	[EFI_PERSISTENT_MEMORY]		= "Persistent",
};

#define EFI_KNOWN_ATTRS (EFI_MEMORY_UC | EFI_MEMORY_WC | EFI_MEMORY_WT |	\
			 EFI_MEMORY_WB | EFI_MEMORY_UCE | EFI_MEMORY_WP |	\
			 EFI_MEMORY_RP | EFI_MEMORY_XP | EFI_MEMORY_NV |	\
			 EFI_MEMORY_MORE_RELIABLE | EFI_MEMORY_RO |		\
			 EFI_MEMORY_SP | EFI_MEMORY_CPU_CRYPTO |		\
			 EFI_MEMORY_RUNTIME)

static const char *attr(u64 attrs, u64 bit, const char *name)
{
	return attrs & bit ? name : "";
}

char *efi_md_typeattr_format(char *buf, size_t size,
			     const efi_memory_desc_t *md)
{
	u64 a = md->attribute;
	int n;

	if (md->type < EFI_MAX_MEMORY_TYPE)
		n = snprintf(buf, size, "[%-12s", efi_type_names[md->type]);
	else
		n = snprintf(buf, size, "[type=%u", md->type);
	if (n < 0 || (size_t)n >= size)
		return buf;
	if (a & ~EFI_KNOWN_ATTRS) {
		snprintf(buf + n, size - n, "|attr=0x%016llx]", (ull)a);
		return buf;
	}
	snprintf(buf + n, size - n,
		 "|%3s|%2s|%2s|%2s|%2s|%2s|%2s|%2s|%2s|%3s|%2s|%2s|%2s|%2s]",
		 attr(a, EFI_MEMORY_RUNTIME, "RUN"),
		 attr(a, EFI_MEMORY_MORE_RELIABLE, "MR"),
		 attr(a, EFI_MEMORY_CPU_CRYPTO, "CC"),
		 attr(a, EFI_MEMORY_SP, "SP"), attr(a, EFI_MEMORY_NV, "NV"),
		 attr(a, EFI_MEMORY_XP, "XP"), attr(a, EFI_MEMORY_RP, "RP"),
		 attr(a, EFI_MEMORY_WP, "WP"), attr(a, EFI_MEMORY_RO, "RO"),
		 attr(a, EFI_MEMORY_UCE, "UCE"), attr(a, EFI_MEMORY_WB, "WB"),
		 attr(a, EFI_MEMORY_WT, "WT"), attr(a, EFI_MEMORY_WC, "WC"),
		 attr(a, EFI_MEMORY_UC, "UC"));
	return buf;
}

void efi_print_memmap(const struct efi_memmap *m)
{
	char buf[64];
	u32 i;

	for (i = 0; i < m->nr; i++) {
		efi_memory_desc_t md;
		u64 size;

		efi_memmap_desc(m, i, &md);
		size = efi_md_size(&md);
		pr_info("mem%02u: %s range=[0x%016llx-0x%016llx] (%lluMB)\n", i,
			efi_md_typeattr_format(buf, sizeof(buf), &md),
			(ull)md.phys_addr,
			(ull)(size ? md.phys_addr + size - 1 : md.phys_addr),
			(ull)(size >> 20));
	}
}

/* --- choosing the map ------------------------------------------------------ */

static struct e820_table efi_cmp_efi, efi_cmp_legacy;

static void legacy_to_e820(const struct mb2_info *mb, struct e820_table *t,
			   bool known_types_only)
{
	for (u32 i = 0; i < mb->mmap_nr_entries; i++) {
		const struct mb2_mmap_entry *e = mb2_mmap_entry(mb, i);
		u32 type = e->type;

		if (known_types_only && !e820_type_known(type))
			type = E820_TYPE_RESERVED;
		e820__range_add(t, e->addr, e->len, type);
	}
}

/* Index of the first entry where a and b differ, or -1 if they do not. */
static long e820_first_difference(const struct e820_table *a,
				  const struct e820_table *b)
{
	u32 i, n = min(a->nr_entries, b->nr_entries);

	for (i = 0; i < n; i++) {
		const struct e820_entry *x = &a->entries[i], *y = &b->entries[i];

		if (x->addr != y->addr || x->size != y->size ||
		    x->type != y->type)
			return i;
	}
	return a->nr_entries == b->nr_entries ? -1 : (long)n;
}

static void describe(const char *who, const struct e820_table *t, long i)
{
	const struct e820_entry *e = &t->entries[i];

	if ((u32)i >= t->nr_entries) {
		pr_warn("  %s map: nothing more\n", who);
		return;
	}
	pr_warn("  %s map: [mem 0x%016llx-0x%016llx] %s\n", who, (ull)e->addr,
		(ull)(e->addr + e->size - 1), e820_type_to_string(e->type));
}

/* Compare the two maps, sanitized; one report if they differ. */
static void efi_check_legacy(const struct mb2_info *mb,
			     const struct efi_memmap *m)
{
	long i;

	memset(&efi_cmp_efi, 0, sizeof(efi_cmp_efi));
	memset(&efi_cmp_legacy, 0, sizeof(efi_cmp_legacy));
	efi_memmap_to_e820(m, &efi_cmp_efi);
	legacy_to_e820(mb, &efi_cmp_legacy, true);
	e820__update_table(&efi_cmp_efi);
	e820__update_table(&efi_cmp_legacy);
	i = e820_first_difference(&efi_cmp_efi, &efi_cmp_legacy);
	if (i < 0)
		return;
	pr_warn("the EFI and the legacy memory maps disagree (%u and %u entries), using the EFI map; first difference:\n",
		efi_cmp_efi.nr_entries, efi_cmp_legacy.nr_entries);
	describe("EFI", &efi_cmp_efi, i);
	describe("legacy", &efi_cmp_legacy, i);
}

int efi_mb2_memory_map(const struct mb2_info *mb, struct e820_table *t)
{
	if (mb->efi_mmap) {
		struct efi_memmap m = {
			.map = mb->efi_mmap,
			.nr = mb->efi_mmap_size / mb->efi_desc_size,
			.desc_size = mb->efi_desc_size,
		};

		if (mb->mmap)
			efi_check_legacy(mb, &m);
		efi_memmap_to_e820(&m, t);
		efi_set_boot_memmap(&m);
		return 0;
	}
	if (mb->mmap) {
		legacy_to_e820(mb, t, false);
		return 0;
	}
	if (mb->has_meminfo) {
		printk(KERN_WARNING "multiboot2: no memory map, using basic meminfo\n");
		e820__range_add(t, 0, (u64)mb->mem_lower_kb << 10,
				E820_TYPE_RAM);
		e820__range_add(t, SZ_1M, (u64)mb->mem_upper_kb << 10,
				E820_TYPE_RAM);
		return 0;
	}
	return -ENOENT;
}

/* --- efi=debug and the shell ------------------------------------------------ */

static struct efi_memmap boot_memmap;
static bool efi_debug;

void efi_set_boot_memmap(const struct efi_memmap *m)
{
	boot_memmap = *m;
	if (efi_debug)
		efi_print_memmap(&boot_memmap);
}

/* efi=debug: print the EFI memory map (the map is read before params). */
static int efi_param(char *arg)
{
	if (!arg || strcmp(arg, "debug"))
		return -EINVAL;
	efi_debug = true;
	if (boot_memmap.map)
		efi_print_memmap(&boot_memmap);
	return 0;
}
kernel_param("efi", efi_param);

static int cmd_efimap(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (!boot_memmap.map) {
		printk(KERN_INFO "efimap: no EFI memory map (not booted through UEFI)\n");
		return 0;
	}
	efi_print_memmap(&boot_memmap);
	return 0;
}
SHELL_CMD("efimap", cmd_efimap, "the firmware's EFI memory map (UEFI boots)");

// SPDX-License-Identifier: GPL-2.0
/*
 * Parser of the multiboot2 boot information block.
 *
 * The block is a u32 total_size, a reserved u32, then 8-byte aligned tags
 * (u32 type, u32 size, payload) up to an end tag of type 0 and size 8. It
 * comes from outside the kernel, so mb2_parse() trusts none of it: it walks
 * every tag once, checks each size against the bytes left before it reads
 * the tag's fields, and checks each tag it understands completely (string
 * termination, mmap geometry and every entry, module bounds) before it
 * records a pointer. The first problem is reported as
 * "multiboot2: tag type T (name) at offset O: <what> <value>" and makes the
 * whole parse fail with -EINVAL and a zeroed result: a half-trusted block
 * is not used at all.
 *
 * The EFI memory map tag is the exception: a malformed one is reported
 * the same way but only dropped (efi_mmap_bad), because GRUB also passes
 * the legacy mmap tag it made from the same map, and the kernel boots
 * from that. Likewise an ACPI RSDP tag with a bad signature, checksum or
 * length is dropped with a warning: nothing at boot depends on it.
 *
 * Things that are odd but harmless only warn: a nonzero reserved word (the
 * spec says to ignore it), an mmap entry_version other than 0 (the spec
 * promises later versions stay compatible), duplicate tags (the first one
 * wins; the duplicate is still checked), modules beyond MB2_MAX_MODULES
 * (the first ones are kept) and bytes after the end tag (never read).
 * Unknown tag types, and known ones we do not use yet, are skipped.
 *
 * Alignment: the block must start 8-byte aligned (the spec guarantees it,
 * and we check), tags sit at multiples of 8 and mmap entry sizes must be
 * multiples of 8, so every u32 and u64 field is read naturally aligned.
 */
#define pr_fmt(fmt) "multiboot2: " fmt

#include "arch/x86_64/acpi.h"
#include "arch/x86_64/multiboot2.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define MB2_TAG_HDR		8	/* type, size */
#define MB2_MEMINFO_SIZE	16	/* + mem_lower, mem_upper */
#define MB2_MODULE_HDR		16	/* + mod_start, mod_end; then a string */
#define MB2_MMAP_HDR		16	/* + entry_size, entry_version */
#define MB2_EFI_MMAP_HDR	16	/* + descr_size, descr_vers */
#define MB2_MMAP_ENTRY_MIN	24	/* sizeof(struct mb2_mmap_entry) */
#define MB2_EFI_DESC_MIN	40	/* sizeof(EFI_MEMORY_DESCRIPTOR) */

/* A u32 at a 4-aligned offset from an 8-aligned block. */
static inline u32 get_u32(const u8 *p)
{
	return *(const u32 *)p;
}

static const char *const tag_names[] = {
	[MB2_TAG_END]		= "end",
	[MB2_TAG_CMDLINE]	= "cmdline",
	[MB2_TAG_BOOTLOADER]	= "boot loader name",
	[MB2_TAG_MODULE]	= "module",
	[MB2_TAG_BASIC_MEMINFO]	= "basic meminfo",
	[MB2_TAG_BOOTDEV]	= "boot device",
	[MB2_TAG_MMAP]		= "mmap",
	[MB2_TAG_VBE]		= "VBE",
	[MB2_TAG_FRAMEBUFFER]	= "framebuffer",
	[MB2_TAG_ELF_SECTIONS]	= "ELF sections",
	[MB2_TAG_APM]		= "APM",
	[MB2_TAG_EFI32]		= "EFI32 system table",
	[MB2_TAG_EFI64]		= "EFI64 system table",
	[MB2_TAG_SMBIOS]	= "SMBIOS",
	[MB2_TAG_ACPI_OLD]	= "ACPI old RSDP",
	[MB2_TAG_ACPI_NEW]	= "ACPI new RSDP",
	[MB2_TAG_NETWORK]	= "network",
	[MB2_TAG_EFI_MMAP]	= "EFI mmap",
	[MB2_TAG_EFI_BS]	= "EFI boot services",
	[MB2_TAG_EFI32_IH]	= "EFI32 image handle",
	[MB2_TAG_EFI64_IH]	= "EFI64 image handle",
	[MB2_TAG_LOAD_BASE_ADDR] = "load base address",
};

static const char *tag_name(u32 type)
{
	if (type < ARRAY_SIZE(tag_names) && tag_names[type])
		return tag_names[type];
	return "unknown";
}

#define tag_err(type, off, fmt, ...)					\
	pr_err("tag type %u (%s) at offset %u: " fmt, type, tag_name(type), \
	       off, ##__VA_ARGS__)
#define tag_warn(type, off, fmt, ...)					\
	pr_warn("tag type %u (%s) at offset %u: " fmt, type, tag_name(type), \
		off, ##__VA_ARGS__)

/* One tag, already known to lie inside the block. */
struct mb2_tag_ref {
	const u8 *p;		/* its header */
	u32 type;
	u32 size;
	u32 off;		/* from the start of the block */
};

struct mb2_parse_state {
	u32 seen;		/* bit per tag type < 32 already recorded */
	u32 modules_found;	/* including the ones not kept */
};

static int tag_too_small(const struct mb2_tag_ref *tag, u32 need)
{
	if (tag->size >= need)
		return 0;
	tag_err(tag->type, tag->off, "size %u too small, need at least %u\n",
		tag->size, need);
	return -EINVAL;
}

/* The string at payload offset from the tag must end inside the tag. */
static int check_string(const struct mb2_tag_ref *tag, u32 offset)
{
	if (memchr(tag->p + offset, '\0', tag->size - offset))
		return 0;
	tag_err(tag->type, tag->off,
		"string is not NUL-terminated within its %u bytes\n",
		tag->size - offset);
	return -EINVAL;
}

/* The first tag of a type wins; later ones are checked, then dropped. */
static bool first_of_type(struct mb2_parse_state *st,
			  const struct mb2_tag_ref *tag)
{
	u32 bit = 1U << tag->type;	/* only called for types < 32 */

	if (st->seen & bit) {
		tag_warn(tag->type, tag->off,
			 "duplicate tag ignored, the first one is used\n");
		return false;
	}
	st->seen |= bit;
	return true;
}

static int parse_string_tag(const struct mb2_tag_ref *tag,
			    struct mb2_parse_state *st, const char **dst)
{
	int ret = check_string(tag, MB2_TAG_HDR);

	if (ret)
		return ret;
	if (first_of_type(st, tag))
		*dst = (const char *)(tag->p + MB2_TAG_HDR);
	return 0;
}

static int parse_meminfo(const struct mb2_tag_ref *tag,
			 struct mb2_parse_state *st, struct mb2_info *out)
{
	int ret = tag_too_small(tag, MB2_MEMINFO_SIZE);

	if (ret)
		return ret;
	if (first_of_type(st, tag)) {
		out->has_meminfo = true;
		out->mem_lower_kb = get_u32(tag->p + 8);
		out->mem_upper_kb = get_u32(tag->p + 12);
	}
	return 0;
}

static int parse_module(const struct mb2_tag_ref *tag,
			struct mb2_parse_state *st, struct mb2_info *out)
{
	u32 start, end;
	int ret;

	/* Room for the header and at least the string's NUL. */
	ret = tag_too_small(tag, MB2_MODULE_HDR + 1);
	if (!ret)
		ret = check_string(tag, MB2_MODULE_HDR);
	if (ret)
		return ret;
	start = get_u32(tag->p + 8);
	end = get_u32(tag->p + 12);
	if (end < start) {
		tag_err(tag->type, tag->off,
			"mod_end %#x below mod_start %#x\n", end, start);
		return -EINVAL;
	}
	st->modules_found++;
	if (out->nr_modules < MB2_MAX_MODULES) {
		struct mb2_module *m = &out->modules[out->nr_modules++];

		m->mod_start = start;
		m->mod_end = end;
		m->cmdline = (const char *)(tag->p + MB2_MODULE_HDR);
	}
	return 0;
}

static int parse_mmap(const struct mb2_tag_ref *tag,
		      struct mb2_parse_state *st, struct mb2_info *out)
{
	u32 entry_size, version, bytes, nr, i;
	int ret = tag_too_small(tag, MB2_MMAP_HDR);

	if (ret)
		return ret;
	entry_size = get_u32(tag->p + 8);
	version = get_u32(tag->p + 12);
	if (entry_size < MB2_MMAP_ENTRY_MIN) {
		tag_err(tag->type, tag->off,
			"entry_size %u smaller than %u\n", entry_size,
			MB2_MMAP_ENTRY_MIN);
		return -EINVAL;
	}
	if (!IS_ALIGNED(entry_size, 8)) {
		tag_err(tag->type, tag->off,
			"entry_size %u not a multiple of 8\n", entry_size);
		return -EINVAL;
	}
	bytes = tag->size - MB2_MMAP_HDR;
	if (bytes % entry_size) {
		tag_err(tag->type, tag->off,
			"%u bytes of entries are not a whole number of %u-byte entries\n",
			bytes, entry_size);
		return -EINVAL;
	}
	nr = bytes / entry_size;
	if (version != 0)
		tag_warn(tag->type, tag->off,
			 "entry_version %u, reading it as version 0\n", version);
	for (i = 0; i < nr; i++) {
		const struct mb2_mmap_entry *e = (const void *)
			(tag->p + MB2_MMAP_HDR + (size_t)i * entry_size);

		if (e->len > U64_MAX - e->addr) {
			tag_err(tag->type, tag->off,
				"entry %u at %#llx length %#llx wraps around\n",
				i, (unsigned long long)e->addr,
				(unsigned long long)e->len);
			return -EINVAL;
		}
	}
	if (first_of_type(st, tag)) {
		out->mmap = tag->p + MB2_MMAP_HDR;
		out->mmap_entry_size = entry_size;
		out->mmap_nr_entries = nr;
	}
	return 0;
}

/*
 * The EFI memory map only warns when it is malformed: the legacy mmap tag
 * GRUB makes from the same map is still there to boot from. Returns false
 * (after a message) if the tag cannot be used.
 */
static bool efi_mmap_usable(const struct mb2_tag_ref *tag, u32 desc_size,
			    u32 bytes)
{
	if (desc_size < MB2_EFI_DESC_MIN) {
		tag_err(tag->type, tag->off,
			"descriptor size %u smaller than %u\n", desc_size,
			MB2_EFI_DESC_MIN);
		return false;
	}
	if (!IS_ALIGNED(desc_size, 8)) {
		tag_err(tag->type, tag->off,
			"descriptor size %u not a multiple of 8\n", desc_size);
		return false;
	}
	if (bytes % desc_size) {
		tag_err(tag->type, tag->off,
			"%u bytes of descriptors are not a whole number of %u-byte descriptors\n",
			bytes, desc_size);
		return false;
	}
	return true;
}

static int parse_efi_mmap(const struct mb2_tag_ref *tag,
			  struct mb2_parse_state *st, struct mb2_info *out)
{
	u32 desc_size, bytes;
	int ret = tag_too_small(tag, MB2_EFI_MMAP_HDR);

	if (ret)
		return ret;
	desc_size = get_u32(tag->p + 8);
	bytes = tag->size - MB2_EFI_MMAP_HDR;
	if (!first_of_type(st, tag))
		return 0;
	if (!efi_mmap_usable(tag, desc_size, bytes)) {
		out->efi_mmap_bad = true;
		return 0;
	}
	out->efi_mmap = tag->p + MB2_EFI_MMAP_HDR;
	out->efi_mmap_size = bytes;
	out->efi_desc_size = desc_size;
	out->efi_desc_version = get_u32(tag->p + 12);
	return 0;
}

/*
 * The RSDP in an ACPI tag: "RSD PTR " and a good checksum over the first
 * 20 bytes; from revision 2 on, also a length that fits the tag and a
 * good extended checksum. Returns the bytes valid, 0 (after a warning)
 * if the copy is not usable.
 */
static u32 check_rsdp(const struct mb2_tag_ref *tag)
{
	const u8 *p = tag->p + MB2_TAG_HDR;
	u32 have = tag->size - MB2_TAG_HDR, len;

	if (have < ACPI_RSDP_V1_SIZE || memcmp(p, "RSD PTR ", 8)) {
		tag_warn(tag->type, tag->off, "no RSDP signature, ignored\n");
		return 0;
	}
	if (acpi_checksum(p, ACPI_RSDP_V1_SIZE)) {
		tag_warn(tag->type, tag->off, "bad RSDP checksum, ignored\n");
		return 0;
	}
	if (p[15] < 2)
		return ACPI_RSDP_V1_SIZE;
	len = have >= ACPI_RSDP_V2_SIZE ? get_u32(tag->p + MB2_TAG_HDR + 20) : 0;
	if (len < ACPI_RSDP_V2_SIZE || len > have || acpi_checksum(p, len)) {
		tag_warn(tag->type, tag->off,
			 "RSDP revision %u: bad length %u or extended checksum, ignored\n",
			 p[15], len);
		return 0;
	}
	return len;
}

static int parse_acpi(const struct mb2_tag_ref *tag, struct mb2_parse_state *st,
		      struct mb2_info *out)
{
	u32 len;

	if (!first_of_type(st, tag))
		return 0;
	len = check_rsdp(tag);
	/* The new tag wins over the old one, whatever their order. */
	if (!len || (tag->type == MB2_TAG_ACPI_OLD && out->acpi_rsdp &&
		     out->acpi_rsdp_revision >= 2))
		return 0;
	out->acpi_rsdp = tag->p + MB2_TAG_HDR;
	out->acpi_rsdp_len = len;
	out->acpi_rsdp_revision = tag->p[MB2_TAG_HDR + 15];
	return 0;
}

static int parse_tag(const struct mb2_tag_ref *tag, struct mb2_parse_state *st,
		     struct mb2_info *out)
{
	switch (tag->type) {
	case MB2_TAG_CMDLINE:
		return parse_string_tag(tag, st, &out->cmdline);
	case MB2_TAG_BOOTLOADER:
		return parse_string_tag(tag, st, &out->bootloader_name);
	case MB2_TAG_MODULE:
		return parse_module(tag, st, out);
	case MB2_TAG_BASIC_MEMINFO:
		return parse_meminfo(tag, st, out);
	case MB2_TAG_MMAP:
		return parse_mmap(tag, st, out);
	case MB2_TAG_EFI_MMAP:
		return parse_efi_mmap(tag, st, out);
	case MB2_TAG_ACPI_OLD:
	case MB2_TAG_ACPI_NEW:
		return parse_acpi(tag, st, out);
	default:
		return 0;	/* not used (yet), or unknown: skipped */
	}
}

/* Check the fixed part; returns total_size, or 0 if the block is unusable. */
static u32 check_header(const u8 *base, size_t avail)
{
	u32 total, reserved;

	if (!base || !IS_ALIGNED((unsigned long)base, 8)) {
		pr_err("boot information at %p is not 8-byte aligned\n", base);
		return 0;
	}
	if (avail < MB2_INFO_HEADER_SIZE) {
		pr_err("only %zu bytes of boot information readable, need %u\n",
		       avail, MB2_INFO_HEADER_SIZE);
		return 0;
	}
	total = get_u32(base);
	reserved = get_u32(base + 4);
	if (total < MB2_INFO_HEADER_SIZE + MB2_TAG_HDR) {
		pr_err("total_size %u smaller than %u\n", total,
		       MB2_INFO_HEADER_SIZE + MB2_TAG_HDR);
		return 0;
	}
	if (total > avail) {
		pr_err("total_size %u larger than the %zu readable bytes\n",
		       total, avail);
		return 0;
	}
	if (!IS_ALIGNED(total, 8)) {
		pr_err("total_size %u not a multiple of 8\n", total);
		return 0;
	}
	if (reserved)
		pr_warn("reserved word is %#x, not 0; ignored\n", reserved);
	return total;
}

int mb2_parse(const void *info, size_t avail, struct mb2_info *out)
{
	const u8 *base = info;
	struct mb2_parse_state st = { 0 };
	bool found_end = false;
	u32 total, off, next;
	int ret = -EINVAL;

	memset(out, 0, sizeof(*out));
	total = check_header(base, avail);
	if (!total)
		goto fail;

	/* off and total are multiples of 8: a whole header fits at off. */
	for (off = MB2_INFO_HEADER_SIZE; off < total; off = next) {
		struct mb2_tag_ref tag = {
			.p = base + off,
			.type = get_u32(base + off),
			.size = get_u32(base + off + 4),
			.off = off,
		};

		if (tag.size < MB2_TAG_HDR) {
			tag_err(tag.type, off, "size %u smaller than %u\n",
				tag.size, MB2_TAG_HDR);
			goto fail;
		}
		if (tag.size > total - off) {
			tag_err(tag.type, off,
				"size %u runs past total_size %u\n",
				tag.size, total);
			goto fail;
		}
		if (tag.type == MB2_TAG_END) {
			if (tag.size != MB2_TAG_HDR) {
				tag_err(tag.type, off, "size %u, must be %u\n",
					tag.size, MB2_TAG_HDR);
				goto fail;
			}
			found_end = true;
			break;
		}
		ret = parse_tag(&tag, &st, out);
		if (ret)
			goto fail;
		ret = -EINVAL;
		/* size <= total - off and total - off is a multiple of 8. */
		next = off + ALIGN(tag.size, 8U);
	}
	if (!found_end) {
		pr_err("no end tag within total_size %u\n", total);
		goto fail;
	}
	if (off + MB2_TAG_HDR < total)
		pr_warn("%u bytes after the end tag ignored\n",
			total - off - MB2_TAG_HDR);
	if (out->efi_mmap_bad)
		pr_warn("EFI memory map ignored, %s\n", out->mmap ?
			"using the legacy memory map tag" :
			"and there is no legacy memory map tag");
	if (st.modules_found > MB2_MAX_MODULES)
		pr_warn("%u modules, only the first %u kept\n",
			st.modules_found, MB2_MAX_MODULES);
	out->total_size = total;
	return 0;

fail:
	memset(out, 0, sizeof(*out));
	return ret;
}

const struct mb2_mmap_entry *mb2_mmap_entry(const struct mb2_info *mb, u32 i)
{
	if (!mb->mmap || i >= mb->mmap_nr_entries)
		return NULL;
	return (const void *)(mb->mmap + (size_t)i * mb->mmap_entry_size);
}

const char *mb2_mmap_type_name(u32 type)
{
	switch (type) {
	case MB2_MMAP_AVAILABLE:	return "usable";
	case MB2_MMAP_RESERVED:		return "reserved";
	case MB2_MMAP_ACPI_RECLAIMABLE:	return "ACPI data";
	case MB2_MMAP_NVS:		return "ACPI NVS";
	case MB2_MMAP_BADRAM:		return "unusable";
	default:			return "unknown";
	}
}

void mb2_print(const struct mb2_info *mb)
{
	u32 i;

	pr_info("boot loader '%s', %u mmap entries, %u modules, cmdline '%s'\n",
		mb->bootloader_name ? mb->bootloader_name : "(unknown)",
		mb->mmap_nr_entries, mb->nr_modules,
		mb->cmdline ? mb->cmdline : "");
	if (mb->has_meminfo)
		pr_info("basic meminfo: lower %u KiB, upper %u KiB\n",
			mb->mem_lower_kb, mb->mem_upper_kb);
	for (i = 0; i < mb->mmap_nr_entries; i++) {
		const struct mb2_mmap_entry *e = mb2_mmap_entry(mb, i);

		if (!e->len) {
			pr_info("mmap: [mem 0x%016llx empty] %s\n",
				(unsigned long long)e->addr,
				mb2_mmap_type_name(e->type));
			continue;
		}
		pr_info("mmap: [mem 0x%016llx-0x%016llx] %s (%u)\n",
			(unsigned long long)e->addr,
			(unsigned long long)(e->addr + e->len - 1),
			mb2_mmap_type_name(e->type), e->type);
	}
	if (mb->efi_mmap)
		pr_info("EFI memory map: %u descriptors of %u bytes, version %u\n",
			mb->efi_mmap_size / mb->efi_desc_size,
			mb->efi_desc_size, mb->efi_desc_version);
	if (mb->acpi_rsdp)
		pr_info("ACPI RSDP revision %u, %u bytes\n",
			mb->acpi_rsdp_revision, mb->acpi_rsdp_len);
	for (i = 0; i < mb->nr_modules; i++)
		pr_info("module %u: [0x%08x-0x%08x) '%s'\n", i,
			mb->modules[i].mod_start, mb->modules[i].mod_end,
			mb->modules[i].cmdline);
}

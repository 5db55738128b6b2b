// SPDX-License-Identifier: GPL-2.0
/*
 * ACPI table parser: RSDP -> XSDT (or RSDT) -> MADT -> CPUs.
 *
 * Everything here comes from firmware, so nothing is trusted. A table is
 * read in two steps through the caller's map callback: its 36-byte header
 * first (signature, length), then, once the length is sane (>= 36 and <=
 * ACPI_MAX_TABLE_LEN), all of it; the byte sum must then be 0. A table
 * that fails is reported ("ACPI: [APIC] at 0x...: bad checksum ...") and
 * not used. As in Linux, the XSDT (RSDP revision >= 2) is preferred; if it
 * is unusable the RSDT is tried. Every table the root table lists is
 * checked and printed in Linux's format; the first valid "APIC" one is
 * the MADT.
 *
 * MADT entries (u8 type, u8 length) are walked within the table; an entry
 * shorter than its type needs or running past the table makes the whole
 * MADT untrusted (as Linux gives up on a MADT it cannot parse). CPUs are
 * Linux's: an entry with the enabled flag is a present CPU; with only the
 * online-capable flag (MADT revision >= 5), or without the enabled flag
 * in an older MADT, a possible (hotplug) one that is not present; a MADT
 * of revision >= 5 entry with neither flag is counted as unusable and
 * not kept. x2APIC entries
 * with IDs below 0xff are ignored when the MADT has local APIC entries
 * for CPUs (Linux does the same: such firmware lists every CPU twice).
 * An APIC ID seen twice is reported and the later entry dropped; CPUs
 * past NR_CPUS are reported and ignored. The boot CPU goes first; if it
 * is missing it is added.
 *
 * The result (struct x86_madt) is always usable: with no RSDP, no root
 * table, no MADT or no CPU in it, it holds the boot CPU alone and the
 * default local APIC address, and out->problems says what went wrong.
 */
#define pr_fmt(fmt) "ACPI: " fmt

#include "arch/x86_64/acpi.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define ACPI_SIG_RSDT	"RSDT"
#define ACPI_SIG_XSDT	"XSDT"
#define ACPI_SIG_MADT	"APIC"
#define ACPI_MADT_HDR_SIZE	44	/* header, lapic address, flags */

/* MADT entry types */
#define MADT_LAPIC		0
#define MADT_IOAPIC		1
#define MADT_INT_SRC_OVR	2
#define MADT_NMI_SRC		3
#define MADT_LAPIC_NMI		4
#define MADT_LAPIC_ADDR_OVR	5
#define MADT_X2APIC		9
#define MADT_X2APIC_NMI		10

#define LAPIC_ENABLED		(1U << 0)
#define LAPIC_ONLINE_CAPABLE	(1U << 1)

const struct x86_madt *x86_boot_madt;
int x86_fw_nr_cpus = -1;

/* n bytes of firmware text, non-printable ones as '?', NUL-terminated. */
static void acpi_text(char *dst, const u8 *src, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		dst[i] = src[i] >= 0x20 && src[i] < 0x7f ? src[i] : '?';
	dst[n] = '\0';
}

/* "ACPI: APIC 0x0000000007FE18F2 000078 (v01 BOCHS  BXPC     00000001 BXPC 00000001)" */
static void acpi_print_table(const u8 *t, u64 phys)
{
	char sig[5], oem[7], table_id[9], creator[5];

	acpi_text(sig, t, 4);
	acpi_text(oem, t + 10, 6);
	acpi_text(table_id, t + 16, 8);
	acpi_text(creator, t + 28, 4);
	pr_info("%-4s 0x%016llX %06X (v%02u %-6s %-8s %08X %-4s %08X)\n",
		sig, (unsigned long long)phys, acpi_get_u32(t + 4), t[8], oem,
		table_id, acpi_get_u32(t + 24), creator, acpi_get_u32(t + 32));
}

struct acpi_state {
	const struct acpi_parse_args *args;
	struct x86_madt *out;
	bool has_lapic_cpus;	/* the MADT has type 0 entries for CPUs */
	bool quiet;		/* acpi_find_table(): tables already printed */
};

static const void *acpi_map(struct acpi_state *st, u64 phys, u32 len)
{
	if (!phys || phys + len < phys)
		return NULL;
	return st->args->map(phys, len, st->args->ctx);
}

/* A message about a table, unless the lookup is a quiet one. */
#define acpi_table_err(st, fmt, ...)					\
	do {								\
		if (!(st)->quiet)					\
			pr_err(fmt, ##__VA_ARGS__);			\
	} while (0)

/*
 * The whole table at phys, checked; NULL after a message if unusable.
 * sig: the signature it must have (NULL: any).
 */
static const u8 *acpi_get_table(struct acpi_state *st, u64 phys,
				const char *sig, u32 *len_out)
{
	const char *what = sig ? sig : "table";
	const u8 *t = acpi_map(st, phys, ACPI_TABLE_HDR_SIZE);
	char found[5];
	u32 len;

	if (!t) {
		acpi_table_err(st, "[%s] at 0x%llx: not readable\n", what,
			       (unsigned long long)phys);
		st->out->problems |= ACPI_E_UNMAPPED;
		return NULL;
	}
	acpi_text(found, t, 4);
	if (sig && memcmp(t, sig, 4)) {
		acpi_table_err(st, "[%s] at 0x%llx: wrong signature [%s]\n", sig,
			       (unsigned long long)phys, found);
		st->out->problems |= ACPI_E_SIGNATURE;
		return NULL;
	}
	len = acpi_get_u32(t + 4);
	if (len < ACPI_TABLE_HDR_SIZE || len > ACPI_MAX_TABLE_LEN) {
		acpi_table_err(st, "[%s] at 0x%llx: bad length %u\n", found,
			       (unsigned long long)phys, len);
		st->out->problems |= ACPI_E_LENGTH;
		return NULL;
	}
	t = acpi_map(st, phys, len);
	if (!t) {
		acpi_table_err(st, "[%s] at 0x%llx: truncated, its %u bytes are not all readable\n",
			       found, (unsigned long long)phys, len);
		st->out->problems |= ACPI_E_UNMAPPED;
		return NULL;
	}
	if (acpi_checksum(t, len)) {
		acpi_table_err(st, "[%s] at 0x%llx: bad checksum (byte sum 0x%02x, must be 0)\n",
			       found, (unsigned long long)phys,
			       acpi_checksum(t, len));
		st->out->problems |= ACPI_E_CHECKSUM;
		return NULL;
	}
	if (!st->quiet)
		acpi_print_table(t, phys);
	*len_out = len;
	return t;
}

/* --- MADT entries ---------------------------------------------------- */

static const char *const mps_polarity[] = { "dfl", "high", "res", "low" };
static const char *const mps_trigger[] = { "dfl", "edge", "res", "level" };

static int find_cpu(const struct x86_madt *m, u32 apic_id)
{
	for (unsigned int i = 0; i < m->nr_cpus; i++)
		if (m->cpus[i].apic_id == apic_id)
			return i;
	return -1;
}

/*
 * Linux's rule: an enabled CPU is present; one that is not is a possible
 * (hotplug) CPU if the MADT predates the online-capable flag (revision
 * < 5) or has it set, and unusable otherwise.
 */
static bool cpu_usable(const struct x86_madt *m, u32 flags)
{
	return (flags & LAPIC_ENABLED) || m->madt_revision < 5 ||
	       (flags & LAPIC_ONLINE_CAPABLE);
}

static void add_cpu(struct acpi_state *st, u32 apic_id, u32 acpi_id,
		    u32 flags, bool x2apic)
{
	struct x86_madt *m = st->out;
	bool present = flags & LAPIC_ENABLED;
	bool boot_listed;

	if (!cpu_usable(m, flags)) {
		m->nr_unusable++;
		return;
	}
	if (find_cpu(m, apic_id) >= 0) {
		pr_warn("APIC ID 0x%x listed twice in the MADT, the later entry ignored\n",
			apic_id);
		m->problems |= ACPI_W_DUP_APIC_ID;
		return;
	}
	/* As in Linux, the last free slot is kept for the boot CPU. */
	boot_listed = find_cpu(m, st->args->boot_apic_id) >= 0;
	if (m->nr_cpus == NR_CPUS ||
	    (m->nr_cpus == NR_CPUS - 1 && !boot_listed &&
	     apic_id != st->args->boot_apic_id)) {
		pr_warn("NR_CPUS limit of %u reached, processor with APIC ID 0x%x ignored\n",
			NR_CPUS, apic_id);
		m->problems |= ACPI_W_TOO_MANY_CPUS;
		m->nr_ignored++;
		return;
	}
	m->cpus[m->nr_cpus++] = (struct acpi_cpu){
		.apic_id = apic_id, .acpi_id = acpi_id,
		.x2apic = x2apic, .present = present,
	};
	if (present)
		m->nr_present++;
}

static const char *cpu_state(const struct x86_madt *m, u32 flags)
{
	if (flags & LAPIC_ENABLED)
		return "enabled";
	if (m->madt_revision >= 5 && (flags & LAPIC_ONLINE_CAPABLE))
		return "online-capable";
	return "disabled";
}

static void madt_lapic(struct acpi_state *st, const u8 *e)
{
	u32 flags = acpi_get_u32(e + 4);

	pr_info("LAPIC (acpi_id[0x%02x] lapic_id[0x%02x] %s)\n", e[2], e[3],
		cpu_state(st->out, flags));
	if (e[3] == 0xff)	/* not a valid xAPIC ID */
		return;
	add_cpu(st, e[3], e[2], flags, false);
}

static void madt_x2apic(struct acpi_state *st, const u8 *e)
{
	u32 apic_id = acpi_get_u32(e + 4), flags = acpi_get_u32(e + 8);
	u32 uid = acpi_get_u32(e + 12);

	pr_info("X2APIC (apic_id[0x%02x] uid[0x%02x] %s)\n", apic_id, uid,
		cpu_state(st->out, flags));
	if (apic_id == 0xffffffff)
		return;
	/* Firmware that lists the same CPUs as LAPIC entries: Linux's rule. */
	if (st->has_lapic_cpus && apic_id < 0xff)
		return;
	add_cpu(st, apic_id, uid, flags, true);
}

static void madt_ioapic(struct acpi_state *st, const u8 *e)
{
	struct x86_madt *m = st->out;
	struct acpi_ioapic io = {
		.id = e[2], .address = acpi_get_u32(e + 4), .gsi_base = acpi_get_u32(e + 8),
	};

	pr_info("IOAPIC (id[0x%02x] address[0x%08x] gsi_base[%u])\n", io.id,
		io.address, io.gsi_base);
	if (m->nr_ioapics == ACPI_MAX_IOAPICS) {
		pr_warn("more than %u I/O APICs, IOAPIC id[0x%02x] ignored\n",
			ACPI_MAX_IOAPICS, io.id);
		m->problems |= ACPI_W_TABLE_FULL;
		return;
	}
	m->ioapics[m->nr_ioapics++] = io;
}

static void madt_int_src_ovr(struct acpi_state *st, const u8 *e)
{
	struct x86_madt *m = st->out;
	struct acpi_int_override o = {
		.bus = e[2], .source_irq = e[3], .gsi = acpi_get_u32(e + 4),
		.flags = acpi_get_u16(e + 8),
	};

	pr_info("INT_SRC_OVR (bus %u bus_irq %u global_irq %u %s %s)\n", o.bus,
		o.source_irq, o.gsi, mps_polarity[o.flags & 3],
		mps_trigger[(o.flags >> 2) & 3]);
	if (m->nr_overrides == ACPI_MAX_OVERRIDES) {
		pr_warn("more than %u interrupt source overrides, bus_irq %u ignored\n",
			ACPI_MAX_OVERRIDES, o.source_irq);
		m->problems |= ACPI_W_TABLE_FULL;
		return;
	}
	m->overrides[m->nr_overrides++] = o;
}

static void madt_lapic_nmi(struct acpi_state *st, const u8 *e)
{
	u16 flags = acpi_get_u16(e + 3);

	pr_info("LAPIC_NMI (acpi_id[0x%02x] %s %s lint[0x%x])\n", e[2],
		mps_polarity[flags & 3], mps_trigger[(flags >> 2) & 3], e[5]);
}

static void madt_lapic_addr_ovr(struct acpi_state *st, const u8 *e)
{
	u64 addr = acpi_get_u64(e + 4);

	pr_info("LAPIC_ADDR_OVR (address[0x%llx])\n", (unsigned long long)addr);
	st->out->lapic_phys = addr;
}

struct madt_entry_type {
	u8 min_len;
	void (*parse)(struct acpi_state *st, const u8 *e);
};

static const struct madt_entry_type madt_types[] = {
	[MADT_LAPIC]		= { 8, madt_lapic },
	[MADT_IOAPIC]		= { 12, madt_ioapic },
	[MADT_INT_SRC_OVR]	= { 10, madt_int_src_ovr },
	[MADT_NMI_SRC]		= { 8, NULL },
	[MADT_LAPIC_NMI]	= { 6, madt_lapic_nmi },
	[MADT_LAPIC_ADDR_OVR]	= { 12, madt_lapic_addr_ovr },
	[MADT_X2APIC]		= { 16, madt_x2apic },
	[MADT_X2APIC_NMI]	= { 12, NULL },
};

/*
 * Check every entry's length; note whether there are LAPIC entries for
 * CPUs (the x2APIC rule needs it before the walk). Returns false after a
 * message if an entry is malformed.
 */
static bool madt_check_entries(struct acpi_state *st, const u8 *t, u32 len)
{
	st->out->madt_revision = t[8];	/* cpu_usable() needs it */
	for (u32 off = ACPI_MADT_HDR_SIZE; off < len; off += t[off + 1]) {
		u8 type, elen;

		if (len - off < 2) {
			pr_err("MADT entry at offset %u cut by the end of the table\n",
			       off);
			return false;
		}
		type = t[off];
		elen = t[off + 1];
		if (elen < 2 || elen > len - off ||
		    (type < ARRAY_SIZE(madt_types) &&
		     elen < madt_types[type].min_len)) {
			pr_err("MADT entry type %u at offset %u: bad length %u\n",
			       type, off, elen);
			return false;
		}
		if (type == MADT_LAPIC && t[off + 3] != 0xff &&
		    cpu_usable(st->out, acpi_get_u32(t + off + 4)))
			st->has_lapic_cpus = true;
	}
	return true;
}

static void madt_parse(struct acpi_state *st, const u8 *t, u32 len)
{
	struct x86_madt *m = st->out;

	m->madt_revision = t[8];
	m->lapic_phys = acpi_get_u32(t + 36);
	m->madt_flags = acpi_get_u32(t + 40);
	pr_info("Local APIC address 0x%08llx\n",
		(unsigned long long)m->lapic_phys);
	for (u32 off = ACPI_MADT_HDR_SIZE; off < len; off += t[off + 1]) {
		u8 type = t[off];

		if (type < ARRAY_SIZE(madt_types) && madt_types[type].parse)
			madt_types[type].parse(st, t + off);
	}
	m->from_madt = true;
}

/* --- root tables ------------------------------------------------------- */

/*
 * Check and print every table the root table lists; parse the first
 * valid MADT. Returns true if one was found.
 */
static bool acpi_scan_root(struct acpi_state *st, const u8 *root, u32 len,
			   unsigned int entry_size)
{
	bool found = false;

	for (u32 off = ACPI_TABLE_HDR_SIZE; off + entry_size <= len;
	     off += entry_size) {
		u64 phys = entry_size == 8 ? acpi_get_u64(root + off) :
					     acpi_get_u32(root + off);
		const u8 *t;
		u32 tlen;

		if (!phys)
			continue;
		t = acpi_get_table(st, phys, NULL, &tlen);
		if (!t || found || memcmp(t, ACPI_SIG_MADT, 4))
			continue;
		if (tlen < ACPI_MADT_HDR_SIZE) {
			pr_err("[APIC] at 0x%llx: length %u too small for a MADT\n",
			       (unsigned long long)phys, tlen);
			st->out->problems |= ACPI_E_LENGTH;
			continue;
		}
		if (!madt_check_entries(st, t, tlen)) {
			st->out->problems |= ACPI_E_MADT_ENTRY;
			continue;
		}
		madt_parse(st, t, tlen);
		found = true;
	}
	return found;
}

static void acpi_print_rsdp(const u8 *p, u32 len, u64 phys)
{
	char oem[7];

	acpi_text(oem, p + 9, 6);
	pr_info("RSDP 0x%016llX %06X (v%02u %-6s)\n", (unsigned long long)phys,
		len, p[15], oem);
}

/*
 * The root table from a checked RSDP: the XSDT if usable, else the RSDT.
 * NULL if neither is; *entry_size: 8 (XSDT) or 4 (RSDT).
 */
static const u8 *acpi_get_root(struct acpi_state *st, const u8 *rsdp,
			       u32 rsdp_len, u32 *len, unsigned int *entry_size)
{
	const u8 *root;

	if (rsdp[15] >= 2 && rsdp_len >= 32 && acpi_get_u64(rsdp + 24)) {
		root = acpi_get_table(st, acpi_get_u64(rsdp + 24), ACPI_SIG_XSDT, len);
		*entry_size = 8;
		if (root)
			return root;
		st->out->problems |= ACPI_W_XSDT_FALLBACK;
		if (!st->quiet)
			pr_warn("XSDT unusable, trying the RSDT\n");
	}
	*entry_size = 4;
	return acpi_get_table(st, acpi_get_u32(rsdp + 16), ACPI_SIG_RSDT, len);
}

static bool acpi_find_madt(struct acpi_state *st, const u8 *rsdp, u32 rsdp_len)
{
	unsigned int entry_size;
	u32 len;
	const u8 *root = acpi_get_root(st, rsdp, rsdp_len, &len, &entry_size);

	if (!root) {
		pr_err("no usable RSDT or XSDT\n");
		st->out->problems |= ACPI_E_NO_ROOT;
		return false;
	}
	return acpi_scan_root(st, root, len, entry_size);
}

static bool acpi_check_rsdp(const u8 *p, u32 len)
{
	if (!p || len < 20 || memcmp(p, "RSD PTR ", 8)) {
		pr_err("no RSDP\n");
		return false;
	}
	if (acpi_checksum(p, 20)) {
		pr_err("RSDP: bad checksum\n");
		return false;
	}
	return true;
}

/* The boot CPU first; added (reported) if the MADT does not list it. */
static void put_boot_cpu_first(struct acpi_state *st)
{
	struct x86_madt *m = st->out;
	u32 boot_id = st->args->boot_apic_id;
	int i = find_cpu(m, boot_id);
	struct acpi_cpu boot = { .apic_id = boot_id, .present = true };

	if (i >= 0 && m->cpus[i].present) {
		boot = m->cpus[i];
		memmove(&m->cpus[1], &m->cpus[0], i * sizeof(m->cpus[0]));
		m->cpus[0] = boot;
		return;
	}
	if (m->from_madt && m->nr_cpus) {
		pr_warn("boot CPU (APIC ID 0x%x) %s in the MADT, added\n",
			boot_id, i >= 0 ? "not enabled" : "not listed");
		m->problems |= ACPI_W_NO_BOOT_CPU;
	}
	if (i >= 0) {			/* listed, but not enabled */
		boot.acpi_id = m->cpus[i].acpi_id;
		boot.x2apic = m->cpus[i].x2apic;
		memmove(&m->cpus[i], &m->cpus[i + 1],
			(m->nr_cpus - i - 1) * sizeof(m->cpus[0]));
		m->nr_cpus--;
	} else if (m->nr_cpus == NR_CPUS) {
		m->nr_cpus--;		/* the last one makes room */
		m->nr_present -= m->cpus[m->nr_cpus].present;
		m->nr_ignored++;
	}
	memmove(&m->cpus[1], &m->cpus[0], m->nr_cpus * sizeof(m->cpus[0]));
	m->cpus[0] = boot;
	m->nr_cpus++;
	m->nr_present++;
}

void acpi_parse(const struct acpi_parse_args *args, struct x86_madt *out)
{
	struct acpi_state st = { .args = args, .out = out };
	const u8 *rsdp = args->rsdp;

	memset(out, 0, sizeof(*out));
	out->lapic_phys = APIC_DEFAULT_PHYS_BASE;
	if (!acpi_check_rsdp(rsdp, args->rsdp_len)) {
		out->problems |= ACPI_E_NO_RSDP;
	} else {
		acpi_print_rsdp(rsdp, args->rsdp_len, args->rsdp_phys);
		if (!acpi_find_madt(&st, rsdp, args->rsdp_len)) {
			pr_err("no valid MADT\n");
			out->problems |= ACPI_E_NO_MADT;
		} else if (!out->nr_present) {
			pr_err("the MADT lists no enabled CPU\n");
			out->problems |= ACPI_E_NO_CPUS;
		}
	}
	if (!out->from_madt) {
		/* Nothing of a broken MADT is trusted. */
		memset(out, 0, offsetof(struct x86_madt, problems));
		out->lapic_phys = APIC_DEFAULT_PHYS_BASE;
	}
	put_boot_cpu_first(&st);
	if (out->from_madt && !(out->problems & ACPI_E_NO_CPUS))
		printk(KERN_INFO "smp: found %u CPUs in the MADT (%u present, %u hotplug, %u unusable, %u ignored)\n",
			out->nr_cpus, out->nr_present,
			out->nr_cpus - out->nr_present, out->nr_unusable,
			out->nr_ignored);
	else
		printk(KERN_WARNING "smp: no usable CPU list, using the boot CPU (APIC ID 0x%x) only\n",
			args->boot_apic_id);
}

const void *acpi_find_table(const struct acpi_parse_args *args,
			    const char *sig, u32 *len, u32 *problems)
{
	struct x86_madt scratch = { 0 };
	struct acpi_state st = { .args = args, .out = &scratch, .quiet = true };
	unsigned int entry_size;
	const u8 *root, *t = NULL;
	u32 root_len;

	*problems = 0;
	if (!args->rsdp || args->rsdp_len < 20 ||
	    memcmp(args->rsdp, "RSD PTR ", 8) || acpi_checksum(args->rsdp, 20))
		return NULL;
	root = acpi_get_root(&st, args->rsdp, args->rsdp_len, &root_len,
			     &entry_size);
	for (u32 off = ACPI_TABLE_HDR_SIZE; root && !t &&
	     off + entry_size <= root_len; off += entry_size) {
		u64 phys = entry_size == 8 ? acpi_get_u64(root + off) :
					     acpi_get_u32(root + off);
		const u8 *hdr = acpi_map(&st, phys, ACPI_TABLE_HDR_SIZE);

		if (!hdr || memcmp(hdr, sig, 4))
			continue;
		scratch.problems = 0;
		t = acpi_get_table(&st, phys, sig, len);
		*problems = scratch.problems;
	}
	return t;
}

void acpi_print_madt(const struct x86_madt *m)
{
	pr_info("%s, local APIC at 0x%llx, MADT flags 0x%x, problems 0x%x\n",
		m->from_madt ? "from the MADT" : "no MADT (boot CPU only)",
		(unsigned long long)m->lapic_phys, m->madt_flags, m->problems);
	for (unsigned int i = 0; i < m->nr_cpus; i++)
		pr_info("cpu%u: %s ID 0x%02x acpi_id 0x%02x %s%s\n", i,
			m->cpus[i].x2apic ? "x2APIC" : "APIC", m->cpus[i].apic_id,
			m->cpus[i].acpi_id,
			m->cpus[i].present ? "present" : "hotplug (not present)",
			i ? "" : " (boot CPU)");
	for (unsigned int i = 0; i < m->nr_ioapics; i++)
		pr_info("IOAPIC (id[0x%02x] address[0x%08x] gsi_base[%u])\n",
			m->ioapics[i].id, m->ioapics[i].address,
			m->ioapics[i].gsi_base);
	for (unsigned int i = 0; i < m->nr_overrides; i++) {
		const struct acpi_int_override *o = &m->overrides[i];

		pr_info("INT_SRC_OVR (bus %u bus_irq %u global_irq %u %s %s)\n",
			o->bus, o->source_irq, o->gsi, mps_polarity[o->flags & 3],
			mps_trigger[(o->flags >> 2) & 3]);
	}
}

unsigned int acpi_cpu_apic_ids(u32 *ids, unsigned int max)
{
	unsigned int n = 0;

	if (!x86_boot_madt)
		return 0;
	for (; n < x86_boot_madt->nr_cpus && n < max; n++)
		ids[n] = x86_boot_madt->cpus[n].apic_id;
	return n;
}

u64 acpi_lapic_phys(void)
{
	return x86_boot_madt ? x86_boot_madt->lapic_phys :
			       APIC_DEFAULT_PHYS_BASE;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ACPI tables the kernel reads at boot: from the RSDP to the RSDT or
 * XSDT, and from there to the MADT ("APIC"), which lists the CPUs (their
 * local APIC IDs), the local APIC address, the I/O APICs and the ISA
 * interrupt source overrides.
 *
 * acpi_parse() is pure: it reads physical memory only through the map
 * callback its caller gives it, so the host build tests it on synthetic
 * tables. The boot glue (acpi_boot.c) gives it the direct map.
 */
#ifndef ARCH_X86_64_ACPI_H
#define ARCH_X86_64_ACPI_H

#include "arch/arch.h"
#include "kernel/types.h"

/* Little-endian table fields at any alignment. */
static inline u16 acpi_get_u16(const u8 *p)
{
	return p[0] | (u16)p[1] << 8;
}

static inline u32 acpi_get_u32(const u8 *p)
{
	return acpi_get_u16(p) | (u32)acpi_get_u16(p + 2) << 16;
}

static inline u64 acpi_get_u64(const u8 *p)
{
	return acpi_get_u32(p) | (u64)acpi_get_u32(p + 4) << 32;
}

/* The byte sum of len bytes at p: 0 for a table with a good checksum. */
static inline u8 acpi_checksum(const u8 *p, u32 len)
{
	u8 sum = 0;

	while (len--)
		sum += *p++;
	return sum;
}

#define ACPI_TABLE_HDR_SIZE	36	/* struct acpi_table_header */
#define ACPI_MAX_TABLE_LEN	SZ_1M	/* larger is taken for garbage */
#define ACPI_MAX_IOAPICS	8
#define ACPI_MAX_OVERRIDES	16
#define APIC_DEFAULT_PHYS_BASE	0xfee00000ULL

/* What acpi_parse() ran into: bits of x86_madt.problems. */
enum {
	ACPI_E_NO_RSDP		= 1U << 0,	/* no (usable) RSDP at all */
	ACPI_E_UNMAPPED		= 1U << 1,	/* a table not readable / runs past the map */
	ACPI_E_SIGNATURE	= 1U << 2,	/* a table's signature is wrong */
	ACPI_E_LENGTH		= 1U << 3,	/* length < 36 or > ACPI_MAX_TABLE_LEN */
	ACPI_E_CHECKSUM		= 1U << 4,	/* a table's bytes do not sum to 0 */
	ACPI_E_NO_ROOT		= 1U << 5,	/* neither XSDT nor RSDT usable */
	ACPI_E_NO_MADT		= 1U << 6,	/* no valid MADT in the root table */
	ACPI_E_MADT_ENTRY	= 1U << 7,	/* a malformed MADT entry: MADT dropped */
	ACPI_E_NO_CPUS		= 1U << 8,	/* the MADT lists no enabled CPU */
	ACPI_W_TOO_MANY_CPUS	= 1U << 9,	/* CPUs beyond NR_CPUS ignored */
	ACPI_W_DUP_APIC_ID	= 1U << 10,	/* an APIC ID listed twice, ignored */
	ACPI_W_NO_BOOT_CPU	= 1U << 11,	/* the boot CPU is not in the MADT */
	ACPI_W_XSDT_FALLBACK	= 1U << 12,	/* XSDT unusable, RSDT used */
	ACPI_W_TABLE_FULL	= 1U << 13,	/* I/O APICs or overrides dropped */
};

struct acpi_cpu {
	u32 apic_id;	/* local APIC (or x2APIC) ID */
	u32 acpi_id;	/* ACPI processor UID */
	bool x2apic;	/* from an x2APIC entry (type 9) */
	bool present;	/* enabled; false: possible only (hotplug) */
};

struct acpi_ioapic {
	u32 id;
	u32 address;
	u32 gsi_base;
};

struct acpi_int_override {
	u8 bus;
	u8 source_irq;
	u16 flags;	/* MPS INTI flags: polarity bits 0-1, trigger 2-3 */
	u32 gsi;
};

/*
 * The CPUs and interrupt controllers. cpus[0] is always the boot CPU,
 * the others follow in MADT order; at worst (no usable MADT) the boot
 * CPU is the only one and from_madt is false.
 */
struct x86_madt {
	bool from_madt;			/* a valid MADT was read */
	u64 lapic_phys;			/* local APIC registers (override honoured) */
	u32 madt_flags;			/* bit 0: PC-AT compatible 8259s */
	u8 madt_revision;
	unsigned int nr_cpus;		/* entries of cpus[] */
	unsigned int nr_present;	/* of which present (enabled) */
	unsigned int nr_unusable;	/* not enabled, not online capable (rev >= 5) */
	unsigned int nr_ignored;	/* usable CPUs beyond NR_CPUS */
	struct acpi_cpu cpus[NR_CPUS];
	unsigned int nr_ioapics;
	struct acpi_ioapic ioapics[ACPI_MAX_IOAPICS];
	unsigned int nr_overrides;
	struct acpi_int_override overrides[ACPI_MAX_OVERRIDES];
	u32 problems;			/* ACPI_E_* and ACPI_W_* bits */
};

/*
 * Read physical memory: a pointer to len readable bytes at phys, or NULL
 * if they are not all readable.
 */
typedef const void *(*acpi_map_fn)(u64 phys, u32 len, void *ctx);

struct acpi_parse_args {
	const void *rsdp;	/* the RSDP's bytes (a copy), or NULL */
	u32 rsdp_len;		/* bytes readable at rsdp */
	u64 rsdp_phys;		/* where they are, for the messages */
	u32 boot_apic_id;	/* the CPU running now */
	acpi_map_fn map;
	void *ctx;
};

/*
 * Read the tables and fill *out; never fails: whatever is broken is
 * reported ("ACPI: ...") and recorded in out->problems, and what cannot be
 * read is replaced by the boot CPU alone at the default APIC address.
 * Prints Linux's boot lines for each table and MADT entry.
 */
void acpi_parse(const struct acpi_parse_args *args, struct x86_madt *out);

/*
 * The first table with signature sig (4 characters) that the root table
 * lists, checked (length, checksum) as acpi_parse() checks it but without
 * a message (acpi_parse() has printed every table): NULL if there is
 * none or it is unusable, *problems then saying why (ACPI_E_* bits; 0 if
 * the table is not listed). *len gets its length.
 */
const void *acpi_find_table(const struct acpi_parse_args *args,
			    const char *sig, u32 *len, u32 *problems);

/* Print *madt (the `acpi` shell command). */
void acpi_print_madt(const struct x86_madt *madt);

/*
 * What the kernel booted with (acpi_boot.c), NULL before that and in the
 * host build. fw_nr_cpus is the number of CPUs QEMU says it started (its
 * fw_cfg), -1 if unknown.
 */
extern const struct x86_madt *x86_boot_madt;
extern int x86_fw_nr_cpus;

/* The boot CPU's (cpus[0]) and the others' APIC IDs; returns how many. */
unsigned int acpi_cpu_apic_ids(u32 *ids, unsigned int max);
/* The local APIC's physical address (the default one without a MADT). */
u64 acpi_lapic_phys(void);

#endif /* ARCH_X86_64_ACPI_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the ACPI table parser (arch/x86_64/acpi.c). Each case builds
 * its firmware with tests/acpi_fw.h in a buffer that stands for physical
 * memory (RSDP, RSDT/XSDT, MADT, checksums right unless the case breaks
 * them), runs acpi_parse() with a map callback that reads only that
 * buffer, and checks the CPU list, the interrupt controllers, the problem
 * bits and the message printed. The acpi_boot suite checks what the
 * kernel found at boot against the CPUs QEMU says it started.
 */
#include "arch/x86_64/acpi.h"
#include "tests/acpi_fw.h"
#include "kernel/bug.h"
#include "lib/ktest/ktest.h"
#include "lib/sprintf.h"
#include "lib/string.h"

#define MADT_MAX	1024

static struct {
	u8 madt[MADT_MAX];
	u32 madt_len;
	struct x86_madt out;
} fw;

static void fw_reset(void)
{
	memset(&fw, 0, sizeof(fw));
	acpi_fw_reset();
}

/* --- MADT builder -------------------------------------------------- */

static void madt_begin(u32 lapic_addr)
{
	fw.madt_len = 8;
	put32(fw.madt, lapic_addr);
	put32(fw.madt + 4, 1);		/* PCAT_COMPAT */
}

static u8 *madt_entry(u8 type, u8 len)
{
	u8 *e = fw.madt + fw.madt_len;

	BUG_ON(fw.madt_len + len > MADT_MAX);
	e[0] = type;
	e[1] = len;
	fw.madt_len += len;
	return e;
}

static void madt_lapic(u8 uid, u8 id, u32 flags)
{
	u8 *e = madt_entry(0, 8);

	e[2] = uid;
	e[3] = id;
	put32(e + 4, flags);
}

static void madt_x2apic(u32 id, u32 uid, u32 flags)
{
	u8 *e = madt_entry(9, 16);

	put32(e + 4, id);
	put32(e + 8, flags);
	put32(e + 12, uid);
}

static void madt_ioapic(u8 id, u32 addr, u32 gsi_base)
{
	u8 *e = madt_entry(1, 12);

	e[2] = id;
	put32(e + 4, addr);
	put32(e + 8, gsi_base);
}

static void madt_iso(u8 irq, u32 gsi, u16 flags)
{
	u8 *e = madt_entry(2, 10);

	e[2] = 0;
	e[3] = irq;
	put32(e + 4, gsi);
	put16(e + 8, flags);
}

static void madt_lapic_ovr(u64 addr)
{
	put64(madt_entry(5, 12) + 4, addr);
}

static u64 madt_install(u8 rev)
{
	return fw_table("APIC", fw.madt, fw.madt_len, rev);
}

/* The usual firmware: an RSDT (rev 0 RSDP) listing a FACP and the MADT. */
static u32 fw_rsdt_with_madt(u64 madt)
{
	u64 tables[2] = { fw_table("FACP", "facs", 4, 1), madt };

	return fw_rsdp(fw_rsdt(tables, 2), 0);
}

/* Parse with boot CPU boot_id; returns the lines containing needle. */
static unsigned int parse(struct ktest *t, u32 rsdp_len, u32 boot_id,
			  const char *needle)
{
	struct acpi_parse_args args = {
		.rsdp = rsdp_len ? acpi_fw.rsdp : NULL,
		.rsdp_len = rsdp_len,
		.rsdp_phys = 0xf5270,
		.boot_apic_id = boot_id,
		.map = fw_map,
	};

	ktest_capture_start(t, needle);
	acpi_parse(&args, &fw.out);
	return ktest_capture_stop(t);
}

static bool captured(struct ktest *t, const char *s)
{
	return strstr(ktest_captured(t), s);
}

/* Only the boot CPU, at the default address: the fallback. */
static void expect_fallback(struct ktest *t, u32 boot_id)
{
	KTEST_EXPECT_FALSE(t, fw.out.from_madt);
	KTEST_EXPECT_EQ(t, fw.out.nr_cpus, 1U);
	KTEST_EXPECT_EQ(t, fw.out.nr_present, 1U);
	KTEST_EXPECT_EQ(t, fw.out.cpus[0].apic_id, boot_id);
	KTEST_EXPECT_TRUE(t, fw.out.cpus[0].present);
	KTEST_EXPECT_EQ(t, fw.out.lapic_phys, APIC_DEFAULT_PHYS_BASE);
	KTEST_EXPECT_EQ(t, fw.out.nr_ioapics, 0U);
	KTEST_EXPECT_TRUE(t, captured(t, "smp: no usable CPU list, using the boot CPU"));
}

/* --- cases --------------------------------------------------------------- */

static void test_acpi_one_cpu(struct ktest *t)
{
	fw_reset();
	madt_begin(0xfee00000);
	madt_lapic(0, 0, 1);
	u32 len = fw_rsdt_with_madt(madt_install(1));

	KTEST_EXPECT_EQ(t, parse(t, len, 0, "ACPI: LAPIC ("), 1U);
	KTEST_EXPECT_TRUE(t, fw.out.from_madt);
	KTEST_EXPECT_EQ(t, fw.out.problems, 0U);
	KTEST_EXPECT_EQ(t, fw.out.nr_cpus, 1U);
	KTEST_EXPECT_EQ(t, fw.out.cpus[0].apic_id, 0U);
	KTEST_EXPECT_EQ(t, fw.out.madt_flags, 1U);
	KTEST_EXPECT_EQ(t, fw.out.lapic_phys, 0xfee00000ULL);
	/* Linux's lines, byte for byte. */
	KTEST_EXPECT_TRUE(t, captured(t, "ACPI: RSDP 0x00000000000F5270 000014 (v00 CRAMTS)\n"));
	KTEST_EXPECT_TRUE(t, captured(t, "ACPI: RSDT 0x0000000000010070 00002C (v01 CRAMTS CRAMTEST 00000001 TEST 00000001)\n"));
	KTEST_EXPECT_TRUE(t, captured(t, "ACPI: FACP 0x0000000000010040 000028 (v01 CRAMTS CRAMTEST 00000001 TEST 00000001)\n"));
	KTEST_EXPECT_TRUE(t, captured(t, "ACPI: LAPIC (acpi_id[0x00] lapic_id[0x00] enabled)\n"));
	KTEST_EXPECT_TRUE(t, captured(t, "ACPI: APIC 0x0000000000010000 000034 (v01 CRAMTS CRAMTEST 00000001 TEST 00000001)\n"));
	KTEST_EXPECT_TRUE(t, captured(t, "smp: found 1 CPUs in the MADT"));
}

static void test_acpi_four_cpus_boot_first(struct ktest *t)
{
	static const u32 order[] = { 2, 0, 1, 3 };

	fw_reset();
	madt_begin(0xfee00000);
	for (u8 i = 0; i < 4; i++)
		madt_lapic(0x10 + i, i, 1);
	u32 len = fw_rsdt_with_madt(madt_install(3));

	KTEST_EXPECT_EQ(t, parse(t, len, 2, "enabled)"), 4U);
	KTEST_EXPECT_EQ(t, fw.out.problems, 0U);
	KTEST_ASSERT_EQ(t, fw.out.nr_cpus, 4U);
	KTEST_EXPECT_EQ(t, fw.out.nr_present, 4U);
	for (unsigned int i = 0; i < 4; i++) {
		KTEST_EXPECT_EQ(t, fw.out.cpus[i].apic_id, order[i]);
		KTEST_EXPECT_EQ(t, fw.out.cpus[i].acpi_id, 0x10 + order[i]);
		KTEST_EXPECT_FALSE(t, fw.out.cpus[i].x2apic);
	}
	KTEST_EXPECT_TRUE(t, captured(t, "smp: found 4 CPUs in the MADT (4 present"));
}

static void test_acpi_disabled_cpus(struct ktest *t)
{
	fw_reset();
	madt_begin(0xfee00000);
	madt_lapic(0, 0, 1);
	madt_lapic(1, 1, 0);	/* revision 5: neither flag, unusable */
	madt_lapic(2, 2, 1);
	madt_lapic(3, 0xff, 1);	/* not a valid ID */
	u32 len = fw_rsdt_with_madt(madt_install(5));

	KTEST_EXPECT_EQ(t, parse(t, len, 0, "disabled)"), 1U);
	KTEST_EXPECT_EQ(t, fw.out.problems, 0U);
	KTEST_ASSERT_EQ(t, fw.out.nr_cpus, 2U);
	KTEST_EXPECT_EQ(t, fw.out.nr_present, 2U);
	KTEST_EXPECT_EQ(t, fw.out.nr_unusable, 1U);
	KTEST_EXPECT_EQ(t, fw.out.cpus[1].apic_id, 2U);
	KTEST_EXPECT_TRUE(t, captured(t, "(2 present, 0 hotplug, 1 unusable, 0 ignored)"));

	/*
	 * Before revision 5 a CPU that is not enabled is a hotplug one
	 * (Linux's disabled_cpus): possible, not present; the
	 * online-capable bit means nothing there.
	 */
	fw_reset();
	madt_begin(0xfee00000);
	madt_lapic(0, 0, 1);
	madt_lapic(1, 1, 0);
	madt_lapic(2, 2, 2);
	len = fw_rsdt_with_madt(madt_install(4));
	KTEST_EXPECT_EQ(t, parse(t, len, 0, "disabled)"), 2U);
	KTEST_EXPECT_EQ(t, fw.out.problems, 0U);
	KTEST_ASSERT_EQ(t, fw.out.nr_cpus, 3U);
	KTEST_EXPECT_EQ(t, fw.out.nr_present, 1U);
	KTEST_EXPECT_EQ(t, fw.out.nr_unusable, 0U);
	KTEST_EXPECT_FALSE(t, fw.out.cpus[1].present);
	KTEST_EXPECT_FALSE(t, fw.out.cpus[2].present);
	KTEST_EXPECT_TRUE(t, captured(t, "(1 present, 2 hotplug, 0 unusable, 0 ignored)"));
}

static void test_acpi_online_capable(struct ktest *t)
{
	fw_reset();
	madt_begin(0xfee00000);
	madt_lapic(0, 0, 1);
	madt_lapic(1, 1, 2);	/* online capable: possible, not present */
	madt_lapic(2, 2, 0);	/* unusable */
	madt_lapic(3, 3, 3);	/* both: enabled wins */
	u32 len = fw_rsdt_with_madt(madt_install(5));

	KTEST_EXPECT_EQ(t, parse(t, len, 0, "online-capable)"), 1U);
	KTEST_EXPECT_EQ(t, fw.out.problems, 0U);
	KTEST_ASSERT_EQ(t, fw.out.nr_cpus, 3U);
	KTEST_EXPECT_EQ(t, fw.out.nr_present, 2U);
	KTEST_EXPECT_EQ(t, fw.out.nr_unusable, 1U);
	KTEST_EXPECT_TRUE(t, fw.out.cpus[0].present);
	KTEST_EXPECT_EQ(t, fw.out.cpus[1].apic_id, 1U);
	KTEST_EXPECT_FALSE(t, fw.out.cpus[1].present);
	KTEST_EXPECT_TRUE(t, fw.out.cpus[2].present);
	KTEST_EXPECT_TRUE(t, captured(t, "(2 present, 1 hotplug, 1 unusable, 0 ignored)"));
}

static void test_acpi_x2apic(struct ktest *t)
{
	fw_reset();
	madt_begin(0xfee00000);
	madt_x2apic(0x100, 7, 1);
	madt_x2apic(0x101, 8, 1);
	madt_x2apic(0x05, 9, 1);	/* kept: no LAPIC entries */
	u32 len = fw_rsdt_with_madt(madt_install(3));

	KTEST_EXPECT_EQ(t, parse(t, len, 0x101, "ACPI: X2APIC (apic_id["), 3U);
	KTEST_EXPECT_EQ(t, fw.out.problems, 0U);
	KTEST_ASSERT_EQ(t, fw.out.nr_cpus, 3U);
	KTEST_EXPECT_EQ(t, fw.out.cpus[0].apic_id, 0x101U);
	KTEST_EXPECT_EQ(t, fw.out.cpus[0].acpi_id, 8U);
	KTEST_EXPECT_TRUE(t, fw.out.cpus[0].x2apic);
	KTEST_EXPECT_EQ(t, fw.out.cpus[2].apic_id, 5U);
	KTEST_EXPECT_TRUE(t, captured(t, "ACPI: X2APIC (apic_id[0x100] uid[0x07] enabled)"));

	/* With LAPIC entries, x2APIC ones below 0xff repeat them (Linux). */
	fw_reset();
	madt_begin(0xfee00000);
	madt_lapic(0, 0, 1);
	madt_lapic(1, 1, 1);
	madt_x2apic(0, 0, 1);
	madt_x2apic(1, 1, 1);
	madt_x2apic(0x200, 2, 1);
	madt_x2apic(0xffffffff, 3, 1);	/* invalid ID */
	len = fw_rsdt_with_madt(madt_install(3));
	parse(t, len, 0, NULL);
	KTEST_EXPECT_EQ(t, fw.out.problems, 0U);
	KTEST_ASSERT_EQ(t, fw.out.nr_cpus, 3U);
	KTEST_EXPECT_FALSE(t, fw.out.cpus[1].x2apic);
	KTEST_EXPECT_EQ(t, fw.out.cpus[2].apic_id, 0x200U);
	KTEST_EXPECT_TRUE(t, fw.out.cpus[2].x2apic);
}

static void test_acpi_lapic_override(struct ktest *t)
{
	fw_reset();
	madt_begin(0xfee00000);
	madt_lapic(0, 0, 1);
	madt_lapic_ovr(0x123456000ULL);
	u32 len = fw_rsdt_with_madt(madt_install(3));

	KTEST_EXPECT_EQ(t, parse(t, len, 0, "LAPIC_ADDR_OVR (address[0x123456000])"), 1U);
	KTEST_EXPECT_EQ(t, fw.out.problems, 0U);
	KTEST_EXPECT_EQ(t, fw.out.lapic_phys, 0x123456000ULL);
	KTEST_EXPECT_TRUE(t, fw.out.from_madt);
}

static void test_acpi_ioapic_overrides(struct ktest *t)
{
	fw_reset();
	madt_begin(0xfee00000);
	madt_lapic(0, 0, 1);
	madt_ioapic(2, 0xfec00000, 0);
	madt_ioapic(3, 0xfec01000, 24);
	madt_iso(0, 2, 0);
	madt_iso(9, 9, 0xd);	/* active high, level */
	madt_iso(5, 21, 0xf);	/* active low, level */
	u32 len = fw_rsdt_with_madt(madt_install(3));

	KTEST_EXPECT_EQ(t, parse(t, len, 0, "ACPI: INT_SRC_OVR"), 3U);
	KTEST_EXPECT_EQ(t, fw.out.problems, 0U);
	KTEST_ASSERT_EQ(t, fw.out.nr_ioapics, 2U);
	KTEST_EXPECT_EQ(t, fw.out.ioapics[1].id, 3U);
	KTEST_EXPECT_EQ(t, fw.out.ioapics[1].address, 0xfec01000U);
	KTEST_EXPECT_EQ(t, fw.out.ioapics[1].gsi_base, 24U);
	KTEST_ASSERT_EQ(t, fw.out.nr_overrides, 3U);
	KTEST_EXPECT_EQ(t, fw.out.overrides[0].source_irq, 0U);
	KTEST_EXPECT_EQ(t, fw.out.overrides[0].gsi, 2U);
	KTEST_EXPECT_EQ(t, fw.out.overrides[2].source_irq, 5U);
	KTEST_EXPECT_EQ(t, fw.out.overrides[2].gsi, 21U);
	KTEST_EXPECT_EQ(t, fw.out.overrides[2].flags, 0xfU);
	KTEST_EXPECT_TRUE(t, captured(t, "ACPI: IOAPIC (id[0x03] address[0xfec01000] gsi_base[24])\n"));
	KTEST_EXPECT_TRUE(t, captured(t, "ACPI: INT_SRC_OVR (bus 0 bus_irq 0 global_irq 2 dfl dfl)\n"));
	KTEST_EXPECT_TRUE(t, captured(t, "ACPI: INT_SRC_OVR (bus 0 bus_irq 9 global_irq 9 high level)\n"));
	KTEST_EXPECT_TRUE(t, captured(t, "ACPI: INT_SRC_OVR (bus 0 bus_irq 5 global_irq 21 low level)\n"));

	/* More overrides than kept: the rest reported, not stored. */
	fw_reset();
	madt_begin(0xfee00000);
	madt_lapic(0, 0, 1);
	for (unsigned int i = 0; i < ACPI_MAX_OVERRIDES + 2; i++)
		madt_iso(i, i, 0);
	len = fw_rsdt_with_madt(madt_install(3));
	KTEST_EXPECT_EQ(t, parse(t, len, 0, "interrupt source overrides"), 2U);
	KTEST_EXPECT_EQ(t, fw.out.problems, (u32)ACPI_W_TABLE_FULL);
	KTEST_EXPECT_EQ(t, fw.out.nr_overrides, (unsigned int)ACPI_MAX_OVERRIDES);
}

/* Two MADTs: 2 CPUs behind the XSDT, 1 behind the RSDT. */
static u32 fw_rsdt_and_xsdt(u64 *xsdt_out)
{
	u64 xmadt, rmadt;

	madt_begin(0xfee00000);
	madt_lapic(0, 0, 1);
	madt_lapic(1, 1, 1);
	xmadt = madt_install(3);
	madt_begin(0xfee00000);
	madt_lapic(0, 0, 1);
	rmadt = madt_install(1);
	*xsdt_out = fw_xsdt(&xmadt, 1);
	return fw_rsdp(fw_rsdt(&rmadt, 1), *xsdt_out);
}

static void test_acpi_rsdt_vs_xsdt(struct ktest *t)
{
	u64 xsdt;
	u32 len;

	fw_reset();
	len = fw_rsdt_and_xsdt(&xsdt);
	KTEST_EXPECT_EQ(t, parse(t, len, 0, "ACPI: RSDT"), 0U);
	KTEST_EXPECT_EQ(t, fw.out.problems, 0U);
	KTEST_EXPECT_EQ(t, fw.out.nr_cpus, 2U);
	KTEST_EXPECT_TRUE(t, captured(t, "ACPI: RSDP 0x00000000000F5270 000024 (v02 CRAMTS)"));
	KTEST_EXPECT_TRUE(t, captured(t, "ACPI: XSDT 0x"));
	KTEST_EXPECT_TRUE(t, captured(t, "ACPI: APIC 0x"));

	/* A broken XSDT: the RSDT (and its MADT) is used. */
	fw_ptr(xsdt)[ACPI_TABLE_HDR_SIZE] ^= 1;
	KTEST_EXPECT_EQ(t, parse(t, len, 0, "XSDT unusable, trying the RSDT"), 1U);
	KTEST_EXPECT_EQ(t, fw.out.problems, (u32)(ACPI_E_CHECKSUM | ACPI_W_XSDT_FALLBACK));
	KTEST_EXPECT_TRUE(t, fw.out.from_madt);
	KTEST_EXPECT_EQ(t, fw.out.nr_cpus, 1U);
	KTEST_EXPECT_TRUE(t, captured(t, "ACPI: [XSDT] at 0x"));
	KTEST_EXPECT_TRUE(t, captured(t, "bad checksum"));
}

/* Break each table's checksum in turn: the boot CPU alone is left. */
static void test_acpi_bad_checksum(struct ktest *t)
{
	u64 madt, rsdt;
	u32 len;

	fw_reset();
	madt_begin(0xfee00000);
	madt_lapic(0, 0, 1);
	madt_lapic(1, 1, 1);
	madt = madt_install(3);
	rsdt = fw_rsdt(&madt, 1);
	len = fw_rsdp(rsdt, 0);
	parse(t, len, 0, NULL);
	KTEST_ASSERT_EQ(t, fw.out.nr_cpus, 2U);	/* good as built */

	fw_ptr(madt)[ACPI_TABLE_HDR_SIZE + 9] ^= 0x40;
	KTEST_EXPECT_EQ(t, parse(t, len, 0, "ACPI: [APIC] at 0x"), 1U);
	KTEST_EXPECT_EQ(t, fw.out.problems, (u32)(ACPI_E_CHECKSUM | ACPI_E_NO_MADT));
	KTEST_EXPECT_TRUE(t, captured(t, "bad checksum"));
	KTEST_EXPECT_TRUE(t, captured(t, "ACPI: no valid MADT"));
	expect_fallback(t, 0);
	fix_checksum(fw_ptr(madt));

	fw_ptr(rsdt)[ACPI_TABLE_HDR_SIZE + 1] ^= 0x40;
	KTEST_EXPECT_EQ(t, parse(t, len, 0, "ACPI: [RSDT] at 0x"), 1U);
	KTEST_EXPECT_EQ(t, fw.out.problems,
			(u32)(ACPI_E_CHECKSUM | ACPI_E_NO_ROOT | ACPI_E_NO_MADT));
	expect_fallback(t, 0);
	fix_checksum(fw_ptr(rsdt));

	acpi_fw.rsdp[16] ^= 0x40;
	KTEST_EXPECT_EQ(t, parse(t, len, 5, "ACPI: RSDP: bad checksum"), 1U);
	KTEST_EXPECT_EQ(t, fw.out.problems, (u32)ACPI_E_NO_RSDP);
	expect_fallback(t, 5);
}

static void test_acpi_truncated(struct ktest *t)
{
	u64 madt;
	u32 len;
	u8 *m;

	/* The MADT's length runs past the end of "memory". */
	fw_reset();
	madt_begin(0xfee00000);
	madt_lapic(0, 0, 1);
	madt = madt_install(3);
	len = fw_rsdt_with_madt(madt);
	m = fw_ptr(madt);
	put32(m + 4, FW_SIZE + 16);
	KTEST_EXPECT_EQ(t, parse(t, len, 0, "truncated, its 8208 bytes are not all readable"), 1U);
	KTEST_EXPECT_EQ(t, fw.out.problems, (u32)(ACPI_E_UNMAPPED | ACPI_E_NO_MADT));
	expect_fallback(t, 0);

	/* Lengths below a header, and absurdly large. */
	put32(m + 4, 20);
	KTEST_EXPECT_EQ(t, parse(t, len, 0, "bad length 20"), 1U);
	KTEST_EXPECT_EQ(t, fw.out.problems, (u32)(ACPI_E_LENGTH | ACPI_E_NO_MADT));
	put32(m + 4, 0x80000000);
	KTEST_EXPECT_EQ(t, parse(t, len, 0, "bad length 2147483648"), 1U);
	expect_fallback(t, 0);

	/* A MADT too short for its own fields. */
	put32(m + 4, 40);
	fix_checksum(m);
	KTEST_EXPECT_EQ(t, parse(t, len, 0, "too small for a MADT"), 1U);
	KTEST_EXPECT_EQ(t, fw.out.problems, (u32)(ACPI_E_LENGTH | ACPI_E_NO_MADT));
	expect_fallback(t, 0);

	/* Entries cut by the end of the table, or of length 0. */
	fw_reset();
	madt_begin(0xfee00000);
	madt_lapic(0, 0, 1);
	madt_lapic(1, 1, 1);
	fw.madt_len -= 3;	/* the second LAPIC entry is cut */
	len = fw_rsdt_with_madt(madt_install(3));
	KTEST_EXPECT_EQ(t, parse(t, len, 0, "MADT entry type 0 at offset 52: bad length 8"), 1U);
	KTEST_EXPECT_EQ(t, fw.out.problems, (u32)(ACPI_E_MADT_ENTRY | ACPI_E_NO_MADT));
	expect_fallback(t, 0);

	fw_reset();
	madt_begin(0xfee00000);
	madt_lapic(0, 0, 1);
	madt_entry(0, 0);
	fw.madt_len += 6;
	len = fw_rsdt_with_madt(madt_install(3));
	KTEST_EXPECT_EQ(t, parse(t, len, 0, "bad length 0"), 1U);
	KTEST_EXPECT_EQ(t, fw.out.problems, (u32)(ACPI_E_MADT_ENTRY | ACPI_E_NO_MADT));
	expect_fallback(t, 0);

	/* A LAPIC entry shorter than a LAPIC entry. */
	fw_reset();
	madt_begin(0xfee00000);
	madt_entry(0, 6);
	len = fw_rsdt_with_madt(madt_install(3));
	KTEST_EXPECT_EQ(t, parse(t, len, 0, "bad length 6"), 1U);
	expect_fallback(t, 0);

	/* Root table entries pointing nowhere. */
	fw_reset();
	u64 tables[2] = { 0xdead0000, 0 };

	len = fw_rsdp(fw_rsdt(tables, 2), 0);
	KTEST_EXPECT_EQ(t, parse(t, len, 0, "ACPI: [table] at 0xdead0000: not readable"), 1U);
	KTEST_EXPECT_EQ(t, fw.out.problems, (u32)(ACPI_E_UNMAPPED | ACPI_E_NO_MADT));
	expect_fallback(t, 0);
}

static void test_acpi_wrong_signature(struct ktest *t)
{
	u64 madt, rsdt;
	u32 len;

	fw_reset();
	madt_begin(0xfee00000);
	madt_lapic(0, 0, 1);
	madt = madt_install(3);
	rsdt = fw_rsdt(&madt, 1);
	len = fw_rsdp(rsdt, 0);

	memcpy(fw_ptr(rsdt), "RSDX", 4);
	fix_checksum(fw_ptr(rsdt));
	KTEST_EXPECT_EQ(t, parse(t, len, 0, "ACPI: [RSDT] at 0x"), 1U);
	KTEST_EXPECT_TRUE(t, captured(t, "wrong signature [RSDX]"));
	KTEST_EXPECT_EQ(t, fw.out.problems,
			(u32)(ACPI_E_SIGNATURE | ACPI_E_NO_ROOT | ACPI_E_NO_MADT));
	expect_fallback(t, 0);
	memcpy(fw_ptr(rsdt), "RSDT", 4);
	fix_checksum(fw_ptr(rsdt));

	/* A MADT that is not called APIC is just another table. */
	memcpy(fw_ptr(madt), "APIX", 4);
	fix_checksum(fw_ptr(madt));
	KTEST_EXPECT_EQ(t, parse(t, len, 0, "ACPI: APIX 0x"), 1U);
	KTEST_EXPECT_EQ(t, fw.out.problems, (u32)ACPI_E_NO_MADT);
	expect_fallback(t, 0);

	/* An RSDP without its signature. */
	memcpy(acpi_fw.rsdp, "RSD PTX ", 8);
	KTEST_EXPECT_EQ(t, parse(t, len, 0, "ACPI: no RSDP"), 1U);
	KTEST_EXPECT_EQ(t, fw.out.problems, (u32)ACPI_E_NO_RSDP);
	expect_fallback(t, 0);
}

static void test_acpi_no_rsdp(struct ktest *t)
{
	fw_reset();
	KTEST_EXPECT_EQ(t, parse(t, 0, 3, "ACPI: no RSDP"), 1U);
	KTEST_EXPECT_EQ(t, fw.out.problems, (u32)ACPI_E_NO_RSDP);
	expect_fallback(t, 3);
	/* Too short to be one. */
	fw_rsdp(0x1000, 0);
	KTEST_EXPECT_EQ(t, parse(t, 19, 3, "ACPI: no RSDP"), 1U);
	expect_fallback(t, 3);
}

static void test_acpi_zero_cpus(struct ktest *t)
{
	fw_reset();
	madt_begin(0xfee00000);
	madt_lapic(0, 0, 0);	/* unusable (revision 5) */
	madt_ioapic(0, 0xfec00000, 0);
	u32 len = fw_rsdt_with_madt(madt_install(5));

	KTEST_EXPECT_EQ(t, parse(t, len, 4, "ACPI: the MADT lists no enabled CPU"), 1U);
	KTEST_EXPECT_EQ(t, fw.out.problems, (u32)ACPI_E_NO_CPUS);
	KTEST_EXPECT_TRUE(t, captured(t, "smp: no usable CPU list, using the boot CPU (APIC ID 0x4) only"));
	KTEST_ASSERT_EQ(t, fw.out.nr_cpus, 1U);
	KTEST_EXPECT_EQ(t, fw.out.cpus[0].apic_id, 4U);
	KTEST_EXPECT_EQ(t, fw.out.nr_ioapics, 1U);	/* the rest of the MADT stays */

	/* Only hotplug CPUs (revision 3): kept, the boot CPU added first. */
	fw_reset();
	madt_begin(0xfee00000);
	madt_lapic(0, 0, 0);
	madt_lapic(1, 1, 0);
	len = fw_rsdt_with_madt(madt_install(3));
	KTEST_EXPECT_EQ(t, parse(t, len, 0, "ACPI: the MADT lists no enabled CPU"), 1U);
	KTEST_EXPECT_EQ(t, fw.out.problems, (u32)(ACPI_E_NO_CPUS | ACPI_W_NO_BOOT_CPU));
	KTEST_EXPECT_TRUE(t, captured(t, "boot CPU (APIC ID 0x0) not enabled in the MADT, added"));
	KTEST_ASSERT_EQ(t, fw.out.nr_cpus, 2U);
	KTEST_EXPECT_EQ(t, fw.out.nr_present, 1U);
	KTEST_EXPECT_EQ(t, fw.out.cpus[0].apic_id, 0U);
	KTEST_EXPECT_TRUE(t, fw.out.cpus[0].present);
	KTEST_EXPECT_FALSE(t, fw.out.cpus[1].present);
}

static void test_acpi_too_many_cpus(struct ktest *t)
{
	const unsigned int n = NR_CPUS + 3;
	char first_ignored[64];

	snprintf(first_ignored, sizeof(first_ignored),
		 "processor with APIC ID 0x%x ignored", (unsigned int)NR_CPUS);
	fw_reset();
	madt_begin(0xfee00000);
	for (unsigned int i = 0; i < n; i++)
		madt_lapic(i, i, 1);
	u32 len = fw_rsdt_with_madt(madt_install(3));

	KTEST_EXPECT_EQ(t, parse(t, len, 0, "NR_CPUS limit of"), 3U);
	KTEST_EXPECT_EQ(t, fw.out.problems, (u32)ACPI_W_TOO_MANY_CPUS);
	KTEST_EXPECT_EQ(t, fw.out.nr_cpus, (unsigned int)NR_CPUS);
	KTEST_EXPECT_EQ(t, fw.out.nr_present, (unsigned int)NR_CPUS);
	KTEST_EXPECT_EQ(t, fw.out.nr_ignored, 3U);
	KTEST_EXPECT_EQ(t, fw.out.cpus[NR_CPUS - 1].apic_id, NR_CPUS - 1U);
	KTEST_EXPECT_TRUE(t, captured(t, first_ignored));

	/* The boot CPU listed last still gets a slot, the first one. */
	KTEST_EXPECT_EQ(t, parse(t, len, n - 1, "NR_CPUS limit of"), 3U);
	KTEST_EXPECT_EQ(t, fw.out.problems, (u32)ACPI_W_TOO_MANY_CPUS);
	KTEST_ASSERT_EQ(t, fw.out.nr_cpus, (unsigned int)NR_CPUS);
	KTEST_EXPECT_EQ(t, fw.out.cpus[0].apic_id, n - 1);
	KTEST_EXPECT_EQ(t, fw.out.cpus[NR_CPUS - 1].apic_id, NR_CPUS - 2U);
}

static void test_acpi_repeated_apic_id(struct ktest *t)
{
	fw_reset();
	madt_begin(0xfee00000);
	madt_lapic(0, 0, 1);
	madt_lapic(1, 1, 1);
	madt_lapic(2, 1, 1);
	madt_x2apic(0x300, 3, 1);
	madt_x2apic(0x300, 4, 1);
	u32 len = fw_rsdt_with_madt(madt_install(3));

	KTEST_EXPECT_EQ(t, parse(t, len, 0, "listed twice in the MADT"), 2U);
	KTEST_EXPECT_TRUE(t, captured(t, "APIC ID 0x1 listed twice in the MADT, the later entry ignored"));
	KTEST_EXPECT_EQ(t, fw.out.problems, (u32)ACPI_W_DUP_APIC_ID);
	KTEST_ASSERT_EQ(t, fw.out.nr_cpus, 3U);
	KTEST_EXPECT_EQ(t, fw.out.cpus[1].acpi_id, 1U);
	KTEST_EXPECT_EQ(t, fw.out.cpus[2].acpi_id, 3U);
}

static void test_acpi_boot_cpu_missing(struct ktest *t)
{
	fw_reset();
	madt_begin(0xfee00000);
	madt_lapic(1, 1, 1);
	madt_lapic(2, 2, 1);
	u32 len = fw_rsdt_with_madt(madt_install(3));

	KTEST_EXPECT_EQ(t, parse(t, len, 0, "boot CPU (APIC ID 0x0) not listed in the MADT, added"), 1U);
	KTEST_EXPECT_EQ(t, fw.out.problems, (u32)ACPI_W_NO_BOOT_CPU);
	KTEST_ASSERT_EQ(t, fw.out.nr_cpus, 3U);
	KTEST_EXPECT_EQ(t, fw.out.nr_present, 3U);
	KTEST_EXPECT_EQ(t, fw.out.cpus[0].apic_id, 0U);
	KTEST_EXPECT_EQ(t, fw.out.cpus[1].apic_id, 1U);

	/* Listed, but only online capable: made present, first. */
	fw_reset();
	madt_begin(0xfee00000);
	madt_lapic(1, 1, 1);
	madt_lapic(7, 0, 2);
	len = fw_rsdt_with_madt(madt_install(5));
	KTEST_EXPECT_EQ(t, parse(t, len, 0, "boot CPU (APIC ID 0x0) not enabled in the MADT, added"), 1U);
	KTEST_EXPECT_EQ(t, fw.out.problems, (u32)ACPI_W_NO_BOOT_CPU);
	KTEST_ASSERT_EQ(t, fw.out.nr_cpus, 2U);
	KTEST_EXPECT_EQ(t, fw.out.nr_present, 2U);
	KTEST_EXPECT_EQ(t, fw.out.cpus[0].apic_id, 0U);
	KTEST_EXPECT_EQ(t, fw.out.cpus[0].acpi_id, 7U);
	KTEST_EXPECT_TRUE(t, fw.out.cpus[0].present);
	KTEST_EXPECT_EQ(t, fw.out.cpus[1].apic_id, 1U);
}

static struct ktest_case acpi_cases[] = {
	KTEST_CASE(test_acpi_one_cpu),
	KTEST_CASE(test_acpi_four_cpus_boot_first),
	KTEST_CASE(test_acpi_disabled_cpus),
	KTEST_CASE(test_acpi_online_capable),
	KTEST_CASE(test_acpi_x2apic),
	KTEST_CASE(test_acpi_lapic_override),
	KTEST_CASE(test_acpi_ioapic_overrides),
	KTEST_CASE(test_acpi_rsdt_vs_xsdt),
	KTEST_CASE(test_acpi_bad_checksum),
	KTEST_CASE(test_acpi_truncated),
	KTEST_CASE(test_acpi_wrong_signature),
	KTEST_CASE(test_acpi_no_rsdp),
	KTEST_CASE(test_acpi_zero_cpus),
	KTEST_CASE(test_acpi_too_many_cpus),
	KTEST_CASE(test_acpi_repeated_apic_id),
	KTEST_CASE(test_acpi_boot_cpu_missing),
	{}
};
KTEST_SUITE(acpi, acpi_cases);

/*
 * What the kernel read at boot: a MADT, no problem, the boot CPU first,
 * and as many present CPUs as QEMU started (its fw_cfg).
 */
static void test_acpi_boot_madt(struct ktest *t)
{
	const struct x86_madt *m = x86_boot_madt;
	u32 ids[NR_CPUS];

	if (!m)
		ktest_skip(t, "no firmware tables (host build)");
	KTEST_EXPECT_TRUE(t, m->from_madt);
	/* -smp above NR_CPUS: the rest is reported and ignored. */
	KTEST_EXPECT_EQ(t, m->problems, x86_fw_nr_cpus > NR_CPUS ?
			(u32)ACPI_W_TOO_MANY_CPUS : 0U);
	KTEST_EXPECT_EQ(t, acpi_lapic_phys(), APIC_DEFAULT_PHYS_BASE);
	KTEST_ASSERT_GE(t, m->nr_cpus, 1U);
	KTEST_EXPECT_TRUE(t, m->cpus[0].present);
	KTEST_EXPECT_GE(t, m->nr_ioapics, 1U);
	KTEST_EXPECT_EQ(t, acpi_cpu_apic_ids(ids, NR_CPUS), m->nr_cpus);
	KTEST_EXPECT_EQ(t, ids[0], m->cpus[0].apic_id);
	KTEST_ASSERT_GE(t, x86_fw_nr_cpus, 1);
	KTEST_EXPECT_EQ(t, m->nr_present,
			min((unsigned int)x86_fw_nr_cpus, (unsigned int)NR_CPUS));
	KTEST_EXPECT_EQ(t, m->nr_ignored,
			x86_fw_nr_cpus - min((unsigned int)x86_fw_nr_cpus,
					     (unsigned int)NR_CPUS));
}

static struct ktest_case acpi_boot_cases[] = {
	KTEST_CASE(test_acpi_boot_madt),
	{}
};
KTEST_SUITE(acpi_boot, acpi_boot_cases);

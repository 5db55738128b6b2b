// SPDX-License-Identifier: GPL-2.0
/* Synthetic ACPI firmware for the parser suites (tests/acpi_fw.h). */
#include "tests/acpi_fw.h"
#include "arch/x86_64/acpi.h"
#include "kernel/bug.h"
#include "lib/string.h"

struct acpi_fw acpi_fw;

const void *fw_map(u64 phys, u32 len, void *ctx)
{
	if (phys < FW_BASE || phys - FW_BASE > FW_SIZE ||
	    len > FW_SIZE - (phys - FW_BASE))
		return NULL;
	return acpi_fw.mem + (phys - FW_BASE);
}

u8 *fw_ptr(u64 phys)
{
	return acpi_fw.mem + (phys - FW_BASE);
}

void put16(u8 *p, u16 v)
{
	p[0] = v;
	p[1] = v >> 8;
}

void put32(u8 *p, u32 v)
{
	put16(p, v);
	put16(p + 2, v >> 16);
}

void put64(u8 *p, u64 v)
{
	put32(p, v);
	put32(p + 4, v >> 32);
}

static u8 sum(const u8 *p, u32 len)
{
	u8 s = 0;

	while (len--)
		s += *p++;
	return s;
}

void fix_checksum(u8 *t)
{
	t[9] = 0;
	t[9] = -sum(t, t[4] | (u32)t[5] << 8 | (u32)t[6] << 16 | (u32)t[7] << 24);
}

void acpi_fw_reset(void)
{
	memset(&acpi_fw, 0, sizeof(acpi_fw));
}

u64 fw_alloc(u32 len)
{
	u64 phys = FW_BASE + acpi_fw.used;

	acpi_fw.used = ALIGN(acpi_fw.used + len, 16U);
	BUG_ON(acpi_fw.used > FW_SIZE);
	return phys;
}

static void put_header(u8 *t, const char *sig, u32 len, u8 rev)
{
	memcpy(t, sig, 4);
	put32(t + 4, len);
	t[8] = rev;
	memcpy(t + 10, "CRAMTS", 6);
	memcpy(t + 16, "CRAMTEST", 8);
	put32(t + 24, 1);
	memcpy(t + 28, "TEST", 4);
	put32(t + 32, 1);
}

u64 fw_table(const char *sig, const void *data, u32 data_len, u8 rev)
{
	u32 len = ACPI_TABLE_HDR_SIZE + data_len;
	u64 phys = fw_alloc(len);
	u8 *t = fw_ptr(phys);

	put_header(t, sig, len, rev);
	memcpy(t + ACPI_TABLE_HDR_SIZE, data, data_len);
	fix_checksum(t);
	return phys;
}

u64 fw_rsdt(const u64 *tables, unsigned int n)
{
	u8 data[64];

	for (unsigned int i = 0; i < n; i++)
		put32(data + 4 * i, tables[i]);
	return fw_table("RSDT", data, 4 * n, 1);
}

u64 fw_xsdt(const u64 *tables, unsigned int n)
{
	u8 data[128];

	for (unsigned int i = 0; i < n; i++)
		put64(data + 8 * i, tables[i]);
	return fw_table("XSDT", data, 8 * n, 1);
}

u32 fw_rsdp(u64 rsdt, u64 xsdt)
{
	u8 *p = acpi_fw.rsdp;

	memcpy(p, "RSD PTR ", 8);
	memcpy(p + 9, "CRAMTS", 6);
	p[15] = xsdt ? 2 : 0;
	put32(p + 16, rsdt);
	p[8] = -sum(p, 20);
	if (!xsdt)
		return 20;
	put32(p + 20, 36);
	put64(p + 24, xsdt);
	p[32] = -sum(p, 36);
	return 36;
}


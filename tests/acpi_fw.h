/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthetic ACPI firmware for the parser suites (acpi, numa): a static
 * buffer stands for physical memory at FW_BASE; tables are laid out in it
 * with right checksums (a case may then break them), and fw_map() is the
 * parsers' map callback, reading only that buffer.
 */
#ifndef TESTS_ACPI_FW_H
#define TESTS_ACPI_FW_H

#include "kernel/types.h"

#define FW_BASE		0x10000ULL
#define FW_SIZE		8192

struct acpi_fw {
	u8 mem[FW_SIZE];
	u32 used;
	u8 rsdp[36];
};

extern struct acpi_fw acpi_fw;

/* Empty memory, no RSDP. */
void acpi_fw_reset(void);
/* acpi_map_fn over the buffer: NULL outside it. */
const void *fw_map(u64 phys, u32 len, void *ctx);
u8 *fw_ptr(u64 phys);

void put16(u8 *p, u16 v);
void put32(u8 *p, u32 v);
void put64(u8 *p, u64 v);
/* Make the table at t (its length field set) sum to 0. */
void fix_checksum(u8 *t);

/* len bytes of "physical memory", 16-aligned. */
u64 fw_alloc(u32 len);
/* A table with a right checksum, data_len bytes of payload from data. */
u64 fw_table(const char *sig, const void *data, u32 data_len, u8 rev);
/* Root tables listing tables[0..n). */
u64 fw_rsdt(const u64 *tables, unsigned int n);
u64 fw_xsdt(const u64 *tables, unsigned int n);
/* An RSDP in acpi_fw.rsdp: revision 0 (20 bytes) if xsdt is 0, else 2 (36). */
u32 fw_rsdp(u64 rsdt, u64 xsdt);

#endif /* TESTS_ACPI_FW_H */

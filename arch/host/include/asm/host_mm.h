/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What arch/host/mm.c offers a program that embeds the host build (the
 * malloc shim, bench/shim/): the RAM size when CRAM_HOST_MEM is unset,
 * the vmalloc window's size (64 GiB by default; valgrind cannot reserve
 * that much), both set before boot, and the RAM made a copy of its own
 * in a child after fork().
 */
#ifndef ASM_HOST_MM_H
#define ASM_HOST_MM_H

extern unsigned long host_default_mem;
extern unsigned long host_vmalloc_size;

void host_ram_unshare(void);

#endif /* ASM_HOST_MM_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * What the arches' page-table code shares (arch/pgtable.h): the two
 * passes of arch_protect_kernel_range(). The PTE format, the lock over
 * the tables and what follows a change (a TLB flush on x86_64, mprotect()
 * on the host) stay with each arch; the walk is the same on both.
 */
#include "arch/pgtable.h"
#include "kernel/errno.h"
#include "mm/mm.h"

int protect_kernel_ptes(unsigned long addr, unsigned long size,
			pgprot_t prot, u64 *(*mapped_pte)(unsigned long addr),
			void (*set_prot)(u64 *pte, pgprot_t prot))
{
	unsigned long a;

	/* First every page must be mapped, so a refusal changes nothing. */
	for (a = addr; a < addr + size; a += PAGE_SIZE)
		if (!mapped_pte(a))
			return -ENOENT;
	for (a = addr; a < addr + size; a += PAGE_SIZE)
		set_prot(mapped_pte(a), prot);
	return 0;
}

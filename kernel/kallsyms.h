/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kallsyms: function names for addresses, for %pS and backtraces.
 *
 * The build links the kernel twice: the first image's text symbols (from
 * nm) become a table that the second image carries in .rodata. Addresses
 * are stored as offsets from _text, so the same table also works for the
 * position-independent host build. Until the table is linked in (first
 * pass), lookups simply fail and callers print raw addresses.
 */
#ifndef KERNEL_KALLSYMS_H
#define KERNEL_KALLSYMS_H

#include "kernel/types.h"

/*
 * Name of the function containing addr, or NULL if none is known.
 * *size and *offset (either may be NULL) receive the symbol's size and
 * addr's offset into it.
 */
const char *kallsyms_lookup(unsigned long addr, unsigned long *size,
			    unsigned long *offset);

/*
 * The kernel's text, from its first symbol to the end of its last:
 * [*start, *end). [0, ULONG_MAX) while there is no table (first link
 * pass): then nothing can be told apart.
 */
void kernel_text_bounds(unsigned long *start, unsigned long *end);

#endif /* KERNEL_KALLSYMS_H */

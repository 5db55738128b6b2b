/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Word copies and fills for lib/string.c's memcpy(), memmove() and
 * memset(), shared by both builds (the host build is x86_64 code too):
 * one `rep movsq` or `rep stosq`, as Linux's x86_64 memcpy and memset
 * work with string instructions. The copy goes upwards (the direction
 * flag is clear, as the ABI keeps it), so a memmove() to a lower
 * address may use it on overlapping ranges.
 */
#ifndef ARCH_X86_STRING_H
#define ARCH_X86_STRING_H

/* Copy nr words from src up to dst, lowest first. */
static inline void arch_copy_words(unsigned long *dst,
				   const unsigned long *src, unsigned long nr)
{
	__asm__ __volatile__("rep movsq"
			     : "+D" (dst), "+S" (src), "+c" (nr)
			     : : "memory");
}

/* Store word into nr words from dst up. */
static inline void arch_fill_words(unsigned long *dst, unsigned long word,
				   unsigned long nr)
{
	__asm__ __volatile__("rep stosq"
			     : "+D" (dst), "+c" (nr)
			     : "a" (word) : "memory");
}

#endif /* ARCH_X86_STRING_H */

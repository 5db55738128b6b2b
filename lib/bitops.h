/* SPDX-License-Identifier: GPL-2.0 */
/* Bit operations on the compiler's builtins (Linux's names). */
#ifndef LIB_BITOPS_H
#define LIB_BITOPS_H

#include "kernel/types.h"

/* Position of the highest set bit, 1-based; 0 for 0 (fls(1) == 1). */
static inline unsigned int fls(u32 x)
{
	return x ? 32 - (unsigned int)__builtin_clz(x) : 0;
}

/*
 * Set bits in a word (Linux's hweight_long), by halves: the kernel build
 * has no popcount instruction and no libgcc to call.
 */
static inline unsigned int hweight_long(unsigned long w)
{
	w -= (w >> 1) & 0x5555555555555555UL;
	w = (w & 0x3333333333333333UL) + ((w >> 2) & 0x3333333333333333UL);
	w = (w + (w >> 4)) & 0x0f0f0f0f0f0f0f0fUL;
	return (unsigned int)((w * 0x0101010101010101UL) >> 56);
}

/* Linux's is_power_of_2 (<linux/log2.h>): false for 0. */
static inline bool is_power_of_2(unsigned long n)
{
	return n && !(n & (n - 1));
}

#endif /* LIB_BITOPS_H */

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

#endif /* LIB_BITOPS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* Word copies for lib/string.c: x86_64 code, shared. */
#ifndef ASM_STRING_H
#define ASM_STRING_H

#include "arch/x86_string.h"

#endif /* ASM_STRING_H */

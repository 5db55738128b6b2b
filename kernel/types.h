/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Basic types and helpers. The compiler's freestanding headers give the
 * fixed-width integers; everything else the kernel defines itself.
 */
#ifndef KERNEL_TYPES_H
#define KERNEL_TYPES_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/compiler.h"

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

typedef unsigned long phys_addr_t;
typedef long ssize_t;

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#define ALIGN(x, a)		(((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a)	((x) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a)	(((x) & ((__typeof__(x))(a) - 1)) == 0)
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define BITS_PER_LONG		(8 * sizeof(long))

#define min(a, b)		({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a < _b ? _a : _b; })
#define max(a, b)		({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define clamp_val(v, lo, hi)	min(max(v, lo), hi)
#define min_t(t, a, b)		min((t)(a), (t)(b))
#define max_t(t, a, b)		max((t)(a), (t)(b))
#define max3(a, b, c)		max(max(a, b), c)

#define SZ_1K			0x400UL
#define SZ_4K			0x1000UL
#define SZ_64K			0x10000UL
#define SZ_128K			0x20000UL
#define SZ_1M			0x100000UL
#define SZ_2M			0x200000UL
#define SZ_4M			0x400000UL
#define SZ_16M			0x1000000UL
#define SZ_32M			0x2000000UL
#define SZ_64M			0x4000000UL
#define SZ_128M			0x8000000UL
#define SZ_256M			0x10000000UL
#define SZ_1G			0x40000000UL
#define SZ_4G			0x100000000UL

#define U64_MAX			((u64)~0ULL)
#define ULONG_MAX		(~0UL)
#define LONG_MAX		((long)(ULONG_MAX >> 1))
#define INT_MAX			((int)(~0U >> 1))
#define UINT_MAX		(~0U)

#endif /* KERNEL_TYPES_H */

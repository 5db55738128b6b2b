/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Arithmetic that notices overflow (Linux's <linux/overflow.h>).
 *
 * check_add_overflow(a, b, &d), check_sub_overflow() and
 * check_mul_overflow() store the result, wrapped to d's type, and return
 * true if it did not fit (the compiler's __builtin_*_overflow, which
 * works for any mix of integer types).
 *
 * size_add(), size_sub() and size_mul() are for sizes of allocations:
 * on overflow they give SIZE_MAX, which no allocator can satisfy, so
 * kmalloc(size_mul(n, size)) fails instead of handing out a buffer too
 * small. SIZE_MAX stays SIZE_MAX through further size_*() arithmetic.
 * array_size(), array3_size(), flex_array_size() and struct_size() are
 * built on them.
 */
#ifndef KERNEL_OVERFLOW_H
#define KERNEL_OVERFLOW_H

#include "kernel/types.h"

#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)
#define check_sub_overflow(a, b, d)	__builtin_sub_overflow(a, b, d)
#define check_mul_overflow(a, b, d)	__builtin_mul_overflow(a, b, d)

/* factor1 * factor2, or SIZE_MAX if it overflows. */
static inline size_t __must_check size_mul(size_t factor1, size_t factor2)
{
	size_t bytes;

	if (check_mul_overflow(factor1, factor2, &bytes))
		return SIZE_MAX;
	return bytes;
}

/* addend1 + addend2, or SIZE_MAX if it overflows. */
static inline size_t __must_check size_add(size_t addend1, size_t addend2)
{
	size_t bytes;

	if (check_add_overflow(addend1, addend2, &bytes))
		return SIZE_MAX;
	return bytes;
}

/*
 * minuend - subtrahend, or SIZE_MAX if it underflows or either is
 * SIZE_MAX already (a saturated size stays saturated).
 */
static inline size_t __must_check size_sub(size_t minuend, size_t subtrahend)
{
	size_t bytes;

	if (minuend == SIZE_MAX || subtrahend == SIZE_MAX ||
	    check_sub_overflow(minuend, subtrahend, &bytes))
		return SIZE_MAX;
	return bytes;
}

/* Bytes of an array of a elements of b bytes; SIZE_MAX on overflow. */
#define array_size(a, b)	size_mul(a, b)
/* Bytes of an a x b x c array; SIZE_MAX on overflow. */
#define array3_size(a, b, c)	size_mul(size_mul(a, b), c)

/*
 * Bytes of count elements of the flexible array member of the struct
 * that p points to (p is not dereferenced); SIZE_MAX on overflow.
 */
#define flex_array_size(p, member, count)				\
	size_mul(count, sizeof(*(p)->member))

/*
 * Bytes of the struct p points to with count elements in its flexible
 * array member; SIZE_MAX on overflow:
 *
 *	struct foo *f = kmalloc(struct_size(f, items, n), GFP_KERNEL);
 */
#define struct_size(p, member, count)					\
	size_add(sizeof(*(p)), flex_array_size(p, member, count))

#endif /* KERNEL_OVERFLOW_H */

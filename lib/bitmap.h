/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bitmaps of any length: arrays of unsigned long, bit n in word
 * n / BITS_PER_LONG (Linux's <linux/bitmap.h>, <linux/find.h> and the
 * atomic bit operations). nbits is the bitmap's length; the bits of the
 * last word past nbits are kept clear by every function that writes a
 * whole bitmap, and ignored by those that read one.
 *
 * set_bit() and clear_bit() are atomic (relaxed, as Linux's: order with
 * a barrier or the _acquire/_release variants); __set_bit() and
 * __clear_bit() are not. The rest read or write plain words: the caller
 * owns the bitmap or does not mind a racy snapshot.
 */
#ifndef LIB_BITMAP_H
#define LIB_BITMAP_H

#include "kernel/types.h"
#include "lib/bitops.h"

#define BITS_TO_LONGS(nr)	DIV_ROUND_UP(nr, BITS_PER_LONG)
#define BIT_WORD(nr)		((nr) / BITS_PER_LONG)
#define BIT_MASK(nr)		(1UL << ((nr) % BITS_PER_LONG))
#define DECLARE_BITMAP(name, bits)	unsigned long name[BITS_TO_LONGS(bits)]

/* The bits of the last word that belong to a bitmap of nbits. */
#define BITMAP_LAST_WORD_MASK(nbits) \
	(~0UL >> (-(nbits) & (BITS_PER_LONG - 1)))

static inline void set_bit(unsigned int nr, unsigned long *addr)
{
	__atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr), __ATOMIC_RELAXED);
}

static inline void clear_bit(unsigned int nr, unsigned long *addr)
{
	__atomic_fetch_and(&addr[BIT_WORD(nr)], ~BIT_MASK(nr),
			   __ATOMIC_RELAXED);
}

/* Atomic; everything written before is seen by whoever sees the bit. */
static inline void set_bit_release(unsigned int nr, unsigned long *addr)
{
	__atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr), __ATOMIC_RELEASE);
}

static inline void clear_bit_release(unsigned int nr, unsigned long *addr)
{
	__atomic_fetch_and(&addr[BIT_WORD(nr)], ~BIT_MASK(nr),
			   __ATOMIC_RELEASE);
}

/* Atomic; returns whether the bit was set before. */
static inline bool test_and_set_bit(unsigned int nr, unsigned long *addr)
{
	return __atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr),
				 __ATOMIC_ACQ_REL) & BIT_MASK(nr);
}

static inline bool test_and_clear_bit(unsigned int nr, unsigned long *addr)
{
	return __atomic_fetch_and(&addr[BIT_WORD(nr)], ~BIT_MASK(nr),
				  __ATOMIC_ACQ_REL) & BIT_MASK(nr);
}

static inline void __set_bit(unsigned int nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(unsigned int nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

static inline bool test_bit(unsigned int nr, const unsigned long *addr)
{
	return __atomic_load_n(&addr[BIT_WORD(nr)], __ATOMIC_RELAXED) &
	       BIT_MASK(nr);
}

/* As test_bit(), and what was written before the bit was set is seen. */
static inline bool test_bit_acquire(unsigned int nr, const unsigned long *addr)
{
	return __atomic_load_n(&addr[BIT_WORD(nr)], __ATOMIC_ACQUIRE) &
	       BIT_MASK(nr);
}

/*
 * The first bit at or after offset that differs from the bits of invert
 * (0: a set bit, ~0UL: a clear one), or size if there is none.
 */
static inline unsigned long __find_next_bit(const unsigned long *addr,
					    unsigned long size,
					    unsigned long offset,
					    unsigned long invert)
{
	unsigned long word;

	if (offset >= size)
		return size;
	word = (READ_ONCE(addr[BIT_WORD(offset)]) ^ invert) &
	       (~0UL << (offset % BITS_PER_LONG));
	offset = ALIGN_DOWN(offset, BITS_PER_LONG);
	while (!word) {
		offset += BITS_PER_LONG;
		if (offset >= size)
			return size;
		word = READ_ONCE(addr[BIT_WORD(offset)]) ^ invert;
	}
	offset += (unsigned long)__builtin_ctzl(word);
	return offset < size ? offset : size;
}

/* The first set bit at or after offset, or size if there is none. */
static inline unsigned long find_next_bit(const unsigned long *addr,
					  unsigned long size,
					  unsigned long offset)
{
	return __find_next_bit(addr, size, offset, 0);
}

/* The first clear bit at or after offset, or size if none. */
static inline unsigned long find_next_zero_bit(const unsigned long *addr,
					       unsigned long size,
					       unsigned long offset)
{
	return __find_next_bit(addr, size, offset, ~0UL);
}

/* Set bits [start, start + len), not atomically. */
static inline void bitmap_set(unsigned long *map, unsigned int start,
			      unsigned int len)
{
	unsigned int end = start + len;

	while (start < end && start % BITS_PER_LONG)
		__set_bit(start++, map);
	for (; start + BITS_PER_LONG <= end; start += BITS_PER_LONG)
		map[BIT_WORD(start)] = ~0UL;
	while (start < end)
		__set_bit(start++, map);
}

/* Clear bits [start, start + len), not atomically. */
static inline void bitmap_clear(unsigned long *map, unsigned int start,
				unsigned int len)
{
	unsigned int end = start + len;

	while (start < end && start % BITS_PER_LONG)
		__clear_bit(start++, map);
	for (; start + BITS_PER_LONG <= end; start += BITS_PER_LONG)
		map[BIT_WORD(start)] = 0;
	while (start < end)
		__clear_bit(start++, map);
}

static inline unsigned long find_first_bit(const unsigned long *addr,
					   unsigned long size)
{
	return find_next_bit(addr, size, 0);
}

static inline void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
	for (unsigned int i = 0; i < BITS_TO_LONGS(nbits); i++)
		dst[i] = 0;
}

static inline void bitmap_copy(unsigned long *dst, const unsigned long *src,
			       unsigned int nbits)
{
	for (unsigned int i = 0; i < BITS_TO_LONGS(nbits); i++)
		dst[i] = READ_ONCE(src[i]);
}

/* The value of word i of a bitmap of nbits, bits past nbits cleared. */
static inline unsigned long bitmap_word(const unsigned long *src,
					unsigned int i, unsigned int nbits)
{
	unsigned long w = READ_ONCE(src[i]);

	return i == BITS_TO_LONGS(nbits) - 1 ?
	       w & BITMAP_LAST_WORD_MASK(nbits) : w;
}

static inline unsigned int bitmap_weight(const unsigned long *src,
					 unsigned int nbits)
{
	unsigned int w = 0;

	for (unsigned int i = 0; i < BITS_TO_LONGS(nbits); i++)
		w += hweight_long(bitmap_word(src, i, nbits));
	return w;
}

static inline bool bitmap_empty(const unsigned long *src, unsigned int nbits)
{
	for (unsigned int i = 0; i < BITS_TO_LONGS(nbits); i++)
		if (bitmap_word(src, i, nbits))
			return false;
	return true;
}

/* dst = src1 & src2; whether dst has a bit set. */
static inline bool bitmap_and(unsigned long *dst, const unsigned long *src1,
			      const unsigned long *src2, unsigned int nbits)
{
	unsigned long any = 0;

	for (unsigned int i = 0; i < BITS_TO_LONGS(nbits); i++)
		any |= dst[i] = bitmap_word(src1, i, nbits) &
				READ_ONCE(src2[i]);
	return any;
}

static inline void bitmap_or(unsigned long *dst, const unsigned long *src1,
			     const unsigned long *src2, unsigned int nbits)
{
	for (unsigned int i = 0; i < BITS_TO_LONGS(nbits); i++)
		dst[i] = bitmap_word(src1, i, nbits) |
			 bitmap_word(src2, i, nbits);
}

/* dst = src1 & ~src2; whether dst has a bit set. */
static inline bool bitmap_andnot(unsigned long *dst, const unsigned long *src1,
				 const unsigned long *src2, unsigned int nbits)
{
	unsigned long any = 0;

	for (unsigned int i = 0; i < BITS_TO_LONGS(nbits); i++)
		any |= dst[i] = bitmap_word(src1, i, nbits) &
				~READ_ONCE(src2[i]);
	return any;
}

static inline bool bitmap_equal(const unsigned long *src1,
				const unsigned long *src2, unsigned int nbits)
{
	for (unsigned int i = 0; i < BITS_TO_LONGS(nbits); i++)
		if (bitmap_word(src1, i, nbits) != bitmap_word(src2, i, nbits))
			return false;
	return true;
}

#endif /* LIB_BITMAP_H */

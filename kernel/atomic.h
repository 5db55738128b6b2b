/* SPDX-License-Identifier: GPL-2.0 */
/*
 * atomic_t and atomic_long_t on the compiler's __atomic builtins (read and
 * set relaxed, read-modify-write sequentially consistent).
 */
#ifndef KERNEL_ATOMIC_H
#define KERNEL_ATOMIC_H

#include "kernel/types.h"

typedef struct {
	int counter;
} atomic_t;

#define ATOMIC_INIT(i)	{ (i) }

static inline int atomic_read(const atomic_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline void atomic_set(atomic_t *v, int i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

static inline int atomic_add_return(int i, atomic_t *v)
{
	return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST);
}

static inline void atomic_inc(atomic_t *v)
{
	atomic_add_return(1, v);
}

static inline bool atomic_dec_and_test(atomic_t *v)
{
	return atomic_add_return(-1, v) == 0;
}

/* If v is *old, set it to new and return true; else *old = v, false. */
static inline bool atomic_try_cmpxchg(atomic_t *v, int *old, int new)
{
	return __atomic_compare_exchange_n(&v->counter, old, new, false,
					   __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
}

/* Add a to v unless v is u; true if it added. */
static inline bool atomic_add_unless(atomic_t *v, int a, int u)
{
	int c = atomic_read(v);

	do {
		if (c == u)
			return false;
	} while (!atomic_try_cmpxchg(v, &c, c + a));
	return true;
}

typedef struct {
	long counter;
} atomic_long_t;

#define ATOMIC_LONG_INIT(i)	{ (i) }

static inline long atomic_long_read(const atomic_long_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline void atomic_long_inc(atomic_long_t *v)
{
	__atomic_add_fetch(&v->counter, 1, __ATOMIC_SEQ_CST);
}

/* A counter: no ordering against other memory. */
static inline void atomic_long_add(long i, atomic_long_t *v)
{
	__atomic_add_fetch(&v->counter, i, __ATOMIC_RELAXED);
}

#endif /* KERNEL_ATOMIC_H */

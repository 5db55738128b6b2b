/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small seeded pseudo-random generator (xorshift64*, Vigna 2014) for
 * everything that must be random-looking yet repeatable from a seed:
 * fault injection, freelist randomization, fuzzing, tests. Not for
 * secrets. The state must never be 0; prandom_seed() sees to that.
 */
#ifndef LIB_PRANDOM_H
#define LIB_PRANDOM_H

#include "kernel/types.h"

static inline void prandom_seed(u64 *state, u64 seed)
{
	/* splitmix64's finalizer spreads small seeds over all 64 bits. */
	seed += 0x9e3779b97f4a7c15ULL;
	seed = (seed ^ (seed >> 30)) * 0xbf58476d1ce4e5b9ULL;
	seed = (seed ^ (seed >> 27)) * 0x94d049bb133111ebULL;
	seed ^= seed >> 31;
	*state = seed ? seed : 1;
}

static inline u64 prandom_u64(u64 *state)
{
	u64 x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

/* Uniform enough in [0, n) for n far below 2^64; n must not be 0. */
static inline u64 prandom_below(u64 *state, u64 n)
{
	return prandom_u64(state) % n;
}

#endif /* LIB_PRANDOM_H */

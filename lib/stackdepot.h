/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stack depot (Linux's lib/stackdepot.c interface): a call chain is
 * stored once and named by a 32-bit handle, so that a record of who
 * allocated or freed an object (KASAN's tracks) costs 4 bytes, not a
 * stack. Saving works from any context, interrupts included, with any
 * lock held, and never allocates; a depot that is full returns 0 and
 * counts the stack as dropped.
 */
#ifndef LIB_STACKDEPOT_H
#define LIB_STACKDEPOT_H

#include "kernel/types.h"
#include "mm/gfp.h"

/* A stored stack's name; 0 is none. */
typedef u32 depot_stack_handle_t;

/* The most entries a stored stack keeps (the innermost ones). */
#define STACK_DEPOT_MAX_ENTRIES	64

/*
 * Make the depot ready: its pools (1 MiB) taken from the page allocator
 * once, for good. Until then every save returns 0. Process context; may
 * be called again (does nothing). 0 or -ENOMEM (no pool at all).
 */
int stack_depot_init(void);

/*
 * Store entries[0..nr_entries) once (the same stack again gives the
 * same handle) and return its handle, or 0: nr_entries 0, the depot
 * full, or not ready. Any context. gfp and can_alloc are Linux's
 * arguments; here no save allocates (the pools are all taken at init).
 */
depot_stack_handle_t __stack_depot_save(const unsigned long *entries,
					unsigned int nr_entries, gfp_t gfp,
					bool can_alloc);
/* __stack_depot_save() that may allocate. */
depot_stack_handle_t stack_depot_save(const unsigned long *entries,
				      unsigned int nr_entries, gfp_t gfp);

/*
 * The entries of a stored stack: *entries set to them, their number
 * returned. A handle the depot never gave (0, garbage) gives 0 and
 * *entries NULL.
 */
unsigned int stack_depot_fetch(depot_stack_handle_t handle,
			       unsigned long **entries);

/* Print a stored stack (stack_trace_print()); nothing for a bad handle. */
void stack_depot_print(depot_stack_handle_t handle);

struct stack_depot_stats {
	unsigned long records;	/* distinct stacks stored */
	unsigned long pools;	/* pools in use */
	unsigned long max_pools;
	unsigned long pages;	/* pages held: every pool taken at init */
	unsigned long dropped;	/* saves that found no room: handle 0 */
};
void stack_depot_get_stats(struct stack_depot_stats *st);

/*
 * Lower (or restore) the bound on pools, for the tests that fill the
 * depot: at least the pools in use, at most the built-in bound. Returns
 * the bound before.
 */
unsigned int stack_depot_set_max_pools(unsigned int max_pools);

#endif /* LIB_STACKDEPOT_H */

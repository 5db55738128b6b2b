/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fault injection (Linux's failslab and fail_page_alloc): make chosen
 * allocations fail on purpose, so every caller's NULL handling can be
 * tested.
 *
 * Each point has a struct fault_attr, set from the command line with
 * Linux's syntax "failslab=<interval>,<probability>,<space>,<times>"
 * (probability in percent; times -1 for no limit) or by tests through
 * fault_attr_set(). A call is a candidate when it passes the point's
 * filters (failslab: the cache named by failslab_cache=; fail_page_alloc:
 * order >= fail_page_alloc_order=); of the candidates every interval-th
 * one is failed with the given probability, while times lasts. The
 * random numbers come from a seeded PRNG (fault_inject_seed=), so a run
 * can be repeated exactly.
 *
 * An injected failure is not an out-of-memory condition: alloc_pages()
 * returns NULL without its "page allocation failure" report. With
 * fault_inject_verbose each one prints "FAULT_INJECTION: forcing a
 * failure" with the point's name, its settings, the caller and the stack
 * (not for __GFP_NOWARN allocations, as in Linux).
 */
#ifndef MM_FAULT_INJECT_H
#define MM_FAULT_INJECT_H

#include "kernel/types.h"
#include "mm/gfp.h"

#define FAULT_CACHE_NAME_LEN	32

struct fault_attr {
	const char *name;		/* "failslab", "fail_page_alloc" */
	bool enabled;
	unsigned long interval;		/* every interval-th candidate */
	unsigned int probability;	/* percent */
	long space;			/* bytes to let through first */
	long times;			/* failures left, -1: unlimited */
	u64 prng;			/* PRNG state */
	unsigned long count;		/* candidates past space (interval) */
	unsigned long candidates;	/* calls that passed the filters */
	unsigned long failures;		/* failures injected */
	bool verbose;			/* print a line per failure */
};

extern struct fault_attr failslab;
extern struct fault_attr fail_page_alloc;

/*
 * Configure attr from "<interval>,<probability>,<space>,<times>" (Linux's
 * order; trailing fields may be left out: interval 1, probability 100,
 * space 0, times -1), seed its PRNG and zero its counters. interval >= 1,
 * probability 0..100, space >= 0, times >= -1; the point is enabled when
 * probability and times are not 0. NULL or "" disables it. Returns 0 or
 * -EINVAL (attr left exactly as it was).
 */
int fault_attr_set(struct fault_attr *attr, const char *spec, u64 seed);
/* Switch attr off; its settings and counters stay readable. */
void fault_attr_disable(struct fault_attr *attr);

/* The decision for one candidate call of size bytes (false if disabled). */
bool should_fail(struct fault_attr *attr, size_t size);

/* failslab: only the cache named name ("" or NULL: every cache). */
void failslab_set_cache(const char *name);
/* fail_page_alloc: only orders >= order; 0 or -EINVAL (>= MAX_ORDER). */
int fail_page_alloc_set_order(unsigned int order);

/*
 * Arm what failslab= and fail_page_alloc= set up: called once memory
 * bring-up is over, so that boot allocations never fail on purpose.
 */
void fault_inject_init(void);

/* The hooks the allocators call on their slow paths. */
struct kmem_cache;
bool should_failslab(struct kmem_cache *cachep, gfp_t gfp);
bool should_fail_alloc_page(gfp_t gfp, unsigned int order);

#endif /* MM_FAULT_INJECT_H */

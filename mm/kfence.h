/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KFENCE, the sampling memory-safety detector (mm/kfence.c), as Linux's
 * <linux/kfence.h>: what SLAB, the fault handlers, the shell and the
 * tests call.
 *
 * Every kfence.sample_interval milliseconds one kmalloc or
 * kmem_cache_alloc is served from a small pool of pages set aside at
 * boot, each object alone on its page between two guard pages that are
 * not present. An access past the object faults on a guard page, an
 * access after kfree faults on the object's page (made not present when
 * freed); the bytes of the page around the object hold a canary checked
 * at free. The fault handler (the arch's page fault path) asks
 * kfence_handle_page_fault() first: KFENCE prints its report, makes the
 * page present and the access goes on.
 *
 * Costs while no sample is due: nothing on kmalloc, kmem_cache_alloc and
 * kfree (the sample rides on slab_slowpath_gfp, which the allocation fast
 * path tests anyway, and a KFENCE page is no slab page, so kfree meets it
 * only on its large-kmalloc path); kmem_cache_free, which looks at no
 * page, pays is_kfence_address(): a load and a compare.
 */
#ifndef MM_KFENCE_H
#define MM_KFENCE_H

#include "kernel/atomic.h"
#include "kernel/compiler.h"
#include "kernel/types.h"
#include "mm/gfp.h"
#include "mm/mm.h"

/*
 * 63 objects: with the two guard pages in front, (63 + 1) * 2 pages =
 * 512 KiB, 1.6% of a 32 MiB boot (Linux's default of 255 would take
 * 2 MiB, 6%). At one sample per 100 ms the pool fills only with objects
 * living for 6 s or more; then sampling skips (counted) until one is freed.
 */
#define KFENCE_NUM_OBJECTS	63
#define KFENCE_POOL_SIZE	((KFENCE_NUM_OBJECTS + 1) * 2 * PAGE_SIZE)

/* The pool's first byte; NULL without a pool (kfence.sample_interval=0). */
extern char *__kfence_pool;

/* 0: a sample is due, the next eligible allocation takes it. */
extern atomic_t kfence_allocation_gate;

/* Does addr lie in the pool (object or guard page)? One compare. */
static __always_inline bool is_kfence_address(const void *addr)
{
	return unlikely((unsigned long)((const char *)addr - __kfence_pool) <
			KFENCE_POOL_SIZE && __kfence_pool);
}

/* Is a sample due? SLAB's slow path asks before kfence_alloc(). */
static inline bool kfence_sample_due(void)
{
	return atomic_read(&kfence_allocation_gate) == 0;
}

struct kmem_cache;

/*
 * Boot: set the pool aside from memblock and have the arch map it with
 * 4 KiB pages (mm_core_init(), before memblock hands memory over), then
 * start the sampling timer (start_kernel(), once timers run).
 */
void kfence_alloc_pool(void);
void kfence_init(void);

/*
 * An object of cachep for size bytes (the kmalloc request; the cache's
 * object size for kmem_cache_alloc) from the pool if a sample is due and
 * the allocation may have one, else NULL (the caller goes on as usual).
 * Closes the gate for everybody else.
 */
void *kfence_alloc(struct kmem_cache *cachep, size_t size, gfp_t flags);

/* The size asked for, for ksize() and krealloc(): addr a KFENCE object. */
size_t kfence_ksize(const void *addr);

/*
 * Free addr (is_kfence_address()): checks the canary, makes the page not
 * present. A pointer that is not a live object's start is reported
 * ("invalid free") and nothing is freed.
 */
void kfence_free(const void *addr);

/*
 * The page fault handlers ask first: true if addr is KFENCE's. Then the
 * fault has been reported (out-of-bounds on a guard page, use-after-free
 * on a freed object's page) and the page made present, so the access
 * may be retried. ip and bp are the faulting context's instruction and
 * frame pointer, for the stack.
 */
bool kfence_handle_page_fault(unsigned long addr, bool is_write,
			      unsigned long ip, unsigned long bp);

/* The counters of Linux's /sys/kernel/debug/kfence/stats. */
enum kfence_counter {
	KFENCE_COUNTER_ALLOCATED,
	KFENCE_COUNTER_ALLOCS,
	KFENCE_COUNTER_FREES,
	KFENCE_COUNTER_ZOMBIES,
	KFENCE_COUNTER_BUGS,
	KFENCE_COUNTER_SKIP_INCOMPAT,
	KFENCE_COUNTER_SKIP_CAPACITY,
	KFENCE_COUNTER_COUNT,
};
long kfence_counter(enum kfence_counter counter);

/*
 * For the tests and the shell: the sample interval in ms (0 stops the
 * timer and withdraws a sample due; the pool stays), and a sample made
 * due now. The test and fuzz runs set 0 first: their checks count every
 * object; the kfence suite forces its samples.
 */
unsigned long kfence_sample_interval_get(void);
void kfence_sample_interval_set(unsigned long ms);
void kfence_force_sample(void);

#endif /* MM_KFENCE_H */

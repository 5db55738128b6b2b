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
 * Costs while no sample is due: nothing on kmalloc and kmem_cache_alloc
 * (the sample rides on slab_slowpath_gfp, which the allocation fast
 * path tests anyway), nothing on kfree and kmem_cache_free: the arch
 * puts the pool where one unsigned compare tells NULL, ZERO_SIZE_PTR and
 * a KFENCE object from everything else (asm/kfence.h), and that compare
 * replaces the NULL test they make anyway (zero_or_null_or_kfence()). This
 * is where KFENCE parts from Linux, whose pool lies in the direct map
 * and whose SLAB pays is_kfence_address(), a load and a compare, on
 * every free. The pool's pages keep their direct-map alias, unused.
 */
#ifndef MM_KFENCE_H
#define MM_KFENCE_H

#include "kernel/atomic.h"
#include "kernel/bug.h"
#include "kernel/compiler.h"
#include "kernel/types.h"
#include "mm/gfp.h"
#include "mm/mm.h"
#include "mm/slab.h"
#include "asm/kfence.h"

/*
 * 63 objects: with the two guard pages in front, (63 + 1) * 2 pages =
 * 512 KiB, 1.6% of a 32 MiB boot (Linux's default of 255 would take
 * 2 MiB, 6%). At one sample per 100 ms the pool fills only with objects
 * living for 6 s or more; then sampling skips (counted) until one is freed.
 */
#define KFENCE_NUM_OBJECTS	63
#define KFENCE_POOL_SIZE	((KFENCE_NUM_OBJECTS + 1) * 2 * PAGE_SIZE)

/* The pool's first byte (KFENCE_POOL_START); NULL while it has no pool. */
extern char *__kfence_pool;

/* 0: a sample is due, the next eligible allocation takes it. */
extern atomic_t kfence_allocation_gate;

/*
 * Does addr lie in the pool (object or guard page)? A constant range: no
 * load. True in the pool's range even without a pool (kfence.sample_interval=0
 * or no mapping): kfence_free() then reports an invalid free, as nothing
 * valid can point there.
 */
static __always_inline bool is_kfence_address(const void *addr)
{
	return unlikely((unsigned long)addr - KFENCE_POOL_START <
			KFENCE_POOL_SIZE);
}

/*
 * The one range, modulo 2^64, that holds [0, ZERO_SIZE_PTR] and the pool:
 * from the pool's start through ZERO_SIZE_PTR where the pool ends the
 * address space (x86_64), from 0 through the pool's end where it lies
 * low (the host).
 */
#define KFENCE_POOL_WRAPS	(KFENCE_POOL_START + KFENCE_POOL_SIZE == 0)
#define KFENCE_SPECIAL_START	(KFENCE_POOL_WRAPS ? KFENCE_POOL_START : 0UL)
#define KFENCE_SPECIAL_LAST						\
	(KFENCE_POOL_WRAPS ?						\
	 KFENCE_POOL_SIZE + (unsigned long)ZERO_SIZE_PTR :		\
	 KFENCE_POOL_START + KFENCE_POOL_SIZE - 1)

/*
 * NULL, ZERO_SIZE_PTR or a KFENCE object: the first test of kfree() and
 * kmem_cache_free(), one compare, which zero_or_null_or_kfence() sorts out.
 */
static __always_inline bool zero_or_null_or_kfence(const void *addr)
{
	/* A low pool lies above ZERO_SIZE_PTR (clang takes no pointer here). */
	BUILD_BUG_ON(!KFENCE_POOL_WRAPS && KFENCE_POOL_START < PAGE_SIZE);
	return unlikely((unsigned long)addr - KFENCE_SPECIAL_START <=
			KFENCE_SPECIAL_LAST);
}

/* Is a sample due? SLAB's slow path asks before kfence_alloc(). */
static inline bool kfence_sample_due(void)
{
	return atomic_read(&kfence_allocation_gate) == 0;
}

struct kmem_cache;

/*
 * Boot: have the arch back the pool with memory at KFENCE_POOL_START,
 * mapped with 4 KiB pages (mm_core_init(), while memblock still hands
 * out memory: arch_kfence_init_pool()), then
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

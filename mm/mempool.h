/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory pools (Linux's <linux/mempool.h>): a reserve of min_nr elements
 * set aside when the pool is made, so that a caller who must make
 * progress under memory pressure (an I/O path freeing memory, say) gets
 * an element even when the allocator has none to give.
 *
 * mempool_alloc() asks the backend first, in a way that fails fast
 * rather than digs into the allocator's own reserves (__GFP_NOMEMALLOC |
 * __GFP_NORETRY | __GFP_NOWARN); only when that fails does it take an
 * element from the reserve. mempool_free() refills the reserve first and
 * hands elements to the backend only while the reserve is full.
 *
 * Known limit: Linux's mempool_alloc() sleeps until an element is freed
 * when the reserve is empty and the caller may sleep (__GFP_DIRECT_RECLAIM,
 * e.g. GFP_KERNEL), so it never fails then. This kernel cannot sleep
 * yet: mempool_alloc() retries the backend once with the caller's own
 * flags and then returns NULL. Every caller must handle NULL.
 *
 * Backends: slab caches (mempool_alloc_slab, pool_data the cache),
 * kmalloc (mempool_kmalloc, pool_data the size), pages (mempool_alloc_pages,
 * pool_data the order; elements are struct page *). Any pair of functions
 * of the types below works.
 *
 * Locking: pool->lock guards the reserve (see Documentation/locking/locking.md);
 * the backend is never called with it held.
 */
#ifndef MM_MEMPOOL_H
#define MM_MEMPOOL_H

#include "kernel/spinlock.h"
#include "mm/gfp.h"

struct kmem_cache;

typedef void *(mempool_alloc_t)(gfp_t gfp_mask, void *pool_data);
typedef void (mempool_free_t)(void *element, void *pool_data);

typedef struct mempool_s {
	spinlock_t lock;
	int min_nr;		/* size of the reserve */
	int curr_nr;		/* elements in it now: elements[0..curr_nr) */
	void **elements;	/* NULL: not initialised, or exited */
	void *pool_data;
	mempool_alloc_t *alloc;
	mempool_free_t *free;
} mempool_t;

/*
 * Fill pool, which the caller provides (embedded in a structure), with
 * min_nr elements from alloc_fn(gfp_mask, pool_data). min_nr must be at
 * least 1 and the functions given (else -EINVAL, with a warning);
 * -ENOMEM if the reserve cannot be filled (nothing is kept). node is
 * ignored: one node. Undo with mempool_exit().
 */
int mempool_init_node(mempool_t *pool, int min_nr, mempool_alloc_t *alloc_fn,
		      mempool_free_t *free_fn, void *pool_data, gfp_t gfp_mask,
		      int node);
int mempool_init(mempool_t *pool, int min_nr, mempool_alloc_t *alloc_fn,
		 mempool_free_t *free_fn, void *pool_data);
/*
 * Give the reserve back to the backend. Linux has no check here; as
 * mempool_destroy() below, this one refuses, with a warning, while
 * elements are outstanding (fewer than min_nr in the reserve), keeping
 * the pool as it is. An uninitialised (zeroed) or exited pool is fine.
 */
void mempool_exit(mempool_t *pool);
static inline bool mempool_initialized(const mempool_t *pool)
{
	return pool->elements != NULL;
}

/* The same with the pool allocated too; NULL on failure. */
mempool_t *mempool_create(int min_nr, mempool_alloc_t *alloc_fn,
			  mempool_free_t *free_fn, void *pool_data);
mempool_t *mempool_create_node(int min_nr, mempool_alloc_t *alloc_fn,
			       mempool_free_t *free_fn, void *pool_data,
			       gfp_t gfp_mask, int node);
/*
 * Free the reserve and the pool; NULL is ignored. Linux's BUG_ON for
 * elements still outstanding (fewer than min_nr in the reserve) is here
 * a warning and a refusal: the pool stays intact, to be destroyed once
 * they are back.
 */
void mempool_destroy(mempool_t *pool);

/*
 * Change the reserve to new_min_nr elements (at least 1, else -EINVAL
 * with a warning). Shrinking frees the surplus to the backend. Growing
 * allocates the bigger array and the missing elements with GFP_KERNEL
 * first: if any allocation fails it frees them and returns -ENOMEM with
 * the pool unchanged (Linux can stop half way and return 0).
 */
int mempool_resize(mempool_t *pool, int new_min_nr);

/*
 * An element: from the backend if it has one, else from the reserve;
 * NULL if both are out (see the limit above). __GFP_ZERO is not allowed
 * (reserved elements are not zeroed): it is warned about and dropped.
 */
void *mempool_alloc(mempool_t *pool, gfp_t gfp_mask) __malloc;
/* An element from the reserve only, never the backend; NULL if empty. */
void *mempool_alloc_preallocated(mempool_t *pool) __malloc;
/*
 * Return element (NULL is ignored): to the reserve while it holds fewer
 * than min_nr, else to the backend.
 */
void mempool_free(void *element, mempool_t *pool);
/* Is the reserve full? */
bool mempool_is_saturated(mempool_t *pool);

/* Backends: a slab cache, kmalloc of a fixed size, pages of an order. */
void *mempool_alloc_slab(gfp_t gfp_mask, void *pool_data);
void mempool_free_slab(void *element, void *pool_data);
void *mempool_kmalloc(gfp_t gfp_mask, void *pool_data);
void mempool_kfree(void *element, void *pool_data);
void *mempool_alloc_pages(gfp_t gfp_mask, void *pool_data);
void mempool_free_pages(void *element, void *pool_data);

static inline int mempool_init_slab_pool(mempool_t *pool, int min_nr,
					 struct kmem_cache *kc)
{
	return mempool_init(pool, min_nr, mempool_alloc_slab,
			    mempool_free_slab, (void *)kc);
}

static inline mempool_t *mempool_create_slab_pool(int min_nr,
						  struct kmem_cache *kc)
{
	return mempool_create(min_nr, mempool_alloc_slab, mempool_free_slab,
			      (void *)kc);
}

static inline int mempool_init_kmalloc_pool(mempool_t *pool, int min_nr,
					    size_t size)
{
	return mempool_init(pool, min_nr, mempool_kmalloc, mempool_kfree,
			    (void *)size);
}

static inline mempool_t *mempool_create_kmalloc_pool(int min_nr, size_t size)
{
	return mempool_create(min_nr, mempool_kmalloc, mempool_kfree,
			      (void *)size);
}

static inline int mempool_init_page_pool(mempool_t *pool, int min_nr,
					 int order)
{
	return mempool_init(pool, min_nr, mempool_alloc_pages,
			    mempool_free_pages, (void *)(long)order);
}

static inline mempool_t *mempool_create_page_pool(int min_nr, int order)
{
	return mempool_create(min_nr, mempool_alloc_pages, mempool_free_pages,
			      (void *)(long)order);
}

#endif /* MM_MEMPOOL_H */

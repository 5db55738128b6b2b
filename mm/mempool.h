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
 * yet: mempool_alloc() retries the backend once with
 * __GFP_DIRECT_RECLAIM kept (still __GFP_NORETRY) and then returns NULL.
 * Every caller must handle NULL.
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

/**
 * struct mempool_s - a memory pool (mempool_t)
 * @lock: guards the reserve, @min_nr and @elements; taken with
 *	interrupts off, never held across a backend call
 * @min_nr: the size of the reserve
 * @curr_nr: the elements in it now, @elements[0..@curr_nr)
 * @elements: the reserve; NULL while not initialised, or once exited
 * @pool_data: passed to @alloc and @free
 * @alloc: the backend's allocation function
 * @free: the backend's free function
 *
 * A caller may embed one in a structure (mempool_init()) but sets no
 * field itself.
 */
typedef struct mempool_s {
	spinlock_t lock;
	int min_nr;
	int curr_nr;
	void **elements;
	void *pool_data;
	mempool_alloc_t *alloc;
	mempool_free_t *free;
} mempool_t;

/**
 * mempool_init_node() - fill a pool the caller provides
 * @pool: the pool, embedded in a structure of the caller's
 * @min_nr: the size of the reserve, at least 1
 * @alloc_fn: the backend's allocation function
 * @free_fn: the backend's free function
 * @pool_data: passed to @alloc_fn and @free_fn
 * @gfp_mask: GFP flags for the reserve's array and its elements
 * @node: ignored: there is one node
 *
 * The reserve is filled with @min_nr elements from @alloc_fn(@gfp_mask,
 * @pool_data). Undo with mempool_exit().
 *
 * Context: as the backend with @gfp_mask (GFP_KERNEL: as kmalloc()).
 * Return: 0; -EINVAL (with a warning) if @min_nr is below 1 or a
 * function is missing; -ENOMEM if the reserve cannot be filled, in
 * which case nothing is kept.
 */
int mempool_init_node(mempool_t *pool, int min_nr, mempool_alloc_t *alloc_fn,
		      mempool_free_t *free_fn, void *pool_data, gfp_t gfp_mask,
		      int node);
/**
 * mempool_init() - mempool_init_node() with GFP_KERNEL
 * @pool: the pool, embedded in a structure of the caller's
 * @min_nr: the size of the reserve, at least 1
 * @alloc_fn: the backend's allocation function
 * @free_fn: the backend's free function
 * @pool_data: passed to @alloc_fn and @free_fn
 *
 * Context: as kmalloc() with GFP_KERNEL.
 * Return: as mempool_init_node().
 */
int mempool_init(mempool_t *pool, int min_nr, mempool_alloc_t *alloc_fn,
		 mempool_free_t *free_fn, void *pool_data);
/**
 * mempool_exit() - give a pool's reserve back to its backend
 * @pool: the pool; an uninitialised (zeroed) or exited one is ignored
 *
 * While elements are outstanding (fewer than min_nr in the reserve) it
 * refuses, with a warning, and keeps the pool as it is; Linux has no
 * such check.
 *
 * Context: as the backend's free function.
 */
void mempool_exit(mempool_t *pool);
/**
 * mempool_initialized() - has a pool a reserve
 * @pool: the pool
 *
 * Context: any context.
 * Return: true between mempool_init() and mempool_exit().
 */
static inline bool mempool_initialized(const mempool_t *pool)
{
	return pool->elements != NULL;
}

/**
 * mempool_create() - allocate and fill a pool
 * @min_nr: the size of the reserve, at least 1
 * @alloc_fn: the backend's allocation function
 * @free_fn: the backend's free function
 * @pool_data: passed to @alloc_fn and @free_fn
 *
 * As mempool_init(), with the pool itself allocated (GFP_KERNEL). Free
 * it with mempool_destroy().
 *
 * Context: as kmalloc() with GFP_KERNEL.
 * Return: the pool, or NULL on failure.
 */
mempool_t *mempool_create(int min_nr, mempool_alloc_t *alloc_fn,
			  mempool_free_t *free_fn, void *pool_data);
/**
 * mempool_create_node() - allocate and fill a pool, with GFP flags
 * @min_nr: the size of the reserve, at least 1
 * @alloc_fn: the backend's allocation function
 * @free_fn: the backend's free function
 * @pool_data: passed to @alloc_fn and @free_fn
 * @gfp_mask: GFP flags for the pool, its array and its elements
 * @node: ignored: there is one node
 *
 * Context: as the backend with @gfp_mask.
 * Return: the pool, or NULL on failure.
 */
mempool_t *mempool_create_node(int min_nr, mempool_alloc_t *alloc_fn,
			       mempool_free_t *free_fn, void *pool_data,
			       gfp_t gfp_mask, int node);
/**
 * mempool_destroy() - free a pool's reserve and the pool
 * @pool: a pool from mempool_create(); NULL is ignored
 *
 * While elements are outstanding (fewer than min_nr in the reserve) it
 * refuses, with a warning, where Linux would BUG: the pool stays
 * intact, to be destroyed once they are back.
 *
 * Context: as the backend's free function.
 */
void mempool_destroy(mempool_t *pool);

/**
 * mempool_resize() - change the size of a pool's reserve
 * @pool: the pool
 * @new_min_nr: the new size, at least 1
 *
 * Shrinking frees the surplus to the backend. Growing allocates the
 * bigger array and the missing elements with GFP_KERNEL before it
 * touches the pool, so a failure leaves the pool unchanged (Linux can
 * stop half way and return 0).
 *
 * Context: as kmalloc() with GFP_KERNEL.
 * Return: 0; -EINVAL (with a warning) if @new_min_nr is below 1;
 * -ENOMEM if growing failed.
 */
int mempool_resize(mempool_t *pool, int new_min_nr);

/**
 * mempool_alloc() - allocate an element from a pool
 * @pool: the pool
 * @gfp_mask: GFP flags for the backend; __GFP_ZERO is not allowed
 *	(reserved elements are not zeroed): it is warned about and dropped
 *
 * The backend is asked first with __GFP_NOMEMALLOC, __GFP_NORETRY and
 * __GFP_NOWARN added and __GFP_DIRECT_RECLAIM and __GFP_IO taken away;
 * if it fails, an element comes from the reserve. With the reserve
 * empty and __GFP_DIRECT_RECLAIM in @gfp_mask, the backend is asked
 * once more with it (__GFP_NORETRY still set); nothing waits for an
 * element to be freed, so every caller must handle NULL.
 *
 * Context: as the backend with @gfp_mask; spins on @pool's lock with
 * interrupts off. With GFP_ATOMIC, any context.
 * Return: an element, or NULL if the backend and the reserve are out.
 */
void *mempool_alloc(mempool_t *pool, gfp_t gfp_mask) __malloc;
/**
 * mempool_alloc_preallocated() - take an element from a pool's reserve
 * @pool: the pool
 *
 * The backend is never asked.
 *
 * Context: any context; spins on @pool's lock with interrupts off.
 * Return: an element, or NULL if the reserve is empty.
 */
void *mempool_alloc_preallocated(mempool_t *pool) __malloc;
/**
 * mempool_free() - give an element back to its pool
 * @element: the element; NULL is ignored
 * @pool: the pool it came from; NULL is warned about (the element leaks)
 *
 * The element refills the reserve while it holds fewer than min_nr,
 * else goes to the backend.
 *
 * Context: any context the backend's free function allows (all three
 * backends below: any); spins on @pool's lock with interrupts off.
 */
void mempool_free(void *element, mempool_t *pool);
/**
 * mempool_is_saturated() - is a pool's reserve full
 * @pool: the pool
 *
 * Context: any context; read without the lock, a snapshot.
 * Return: true if the reserve holds min_nr elements.
 */
bool mempool_is_saturated(mempool_t *pool);

/**
 * mempool_alloc_slab() - backend: an object of a slab cache
 * @gfp_mask: GFP flags, as for kmem_cache_alloc()
 * @pool_data: the struct kmem_cache
 *
 * Context: as kmem_cache_alloc().
 * Return: the object, or NULL on failure.
 */
void *mempool_alloc_slab(gfp_t gfp_mask, void *pool_data);
/**
 * mempool_free_slab() - backend: free an object to its slab cache
 * @element: the object
 * @pool_data: the struct kmem_cache
 *
 * Context: as kmem_cache_free().
 */
void mempool_free_slab(void *element, void *pool_data);
/**
 * mempool_kmalloc() - backend: kmalloc() of a fixed size
 * @gfp_mask: GFP flags, as for kmalloc()
 * @pool_data: the size, cast to a pointer
 *
 * Context: as kmalloc().
 * Return: the memory, or NULL on failure.
 */
void *mempool_kmalloc(gfp_t gfp_mask, void *pool_data);
/**
 * mempool_kfree() - backend: kfree()
 * @element: the memory
 * @pool_data: unused
 *
 * Context: as kfree().
 */
void mempool_kfree(void *element, void *pool_data);
/**
 * mempool_alloc_pages() - backend: a block of pages
 * @gfp_mask: GFP flags, as for alloc_pages()
 * @pool_data: the order, cast to a pointer
 *
 * Context: as alloc_pages().
 * Return: the block's struct page, or NULL on failure.
 */
void *mempool_alloc_pages(gfp_t gfp_mask, void *pool_data);
/**
 * mempool_free_pages() - backend: free a block of pages
 * @element: the block's struct page
 * @pool_data: the order, cast to a pointer
 *
 * Context: as __free_pages().
 */
void mempool_free_pages(void *element, void *pool_data);

/**
 * mempool_init_slab_pool() - mempool_init() over a slab cache
 * @pool: the pool
 * @min_nr: the size of the reserve
 * @kc: the cache the elements come from
 *
 * Context: as mempool_init().
 * Return: as mempool_init_node().
 */
static inline int mempool_init_slab_pool(mempool_t *pool, int min_nr,
					 struct kmem_cache *kc)
{
	return mempool_init(pool, min_nr, mempool_alloc_slab,
			    mempool_free_slab, (void *)kc);
}

/**
 * mempool_create_slab_pool() - mempool_create() over a slab cache
 * @min_nr: the size of the reserve
 * @kc: the cache the elements come from
 *
 * Context: as mempool_create().
 * Return: the pool, or NULL on failure.
 */
static inline mempool_t *mempool_create_slab_pool(int min_nr,
						  struct kmem_cache *kc)
{
	return mempool_create(min_nr, mempool_alloc_slab, mempool_free_slab,
			      (void *)kc);
}

/**
 * mempool_init_kmalloc_pool() - mempool_init() over kmalloc()
 * @pool: the pool
 * @min_nr: the size of the reserve
 * @size: the size of every element
 *
 * Context: as mempool_init().
 * Return: as mempool_init_node().
 */
static inline int mempool_init_kmalloc_pool(mempool_t *pool, int min_nr,
					    size_t size)
{
	return mempool_init(pool, min_nr, mempool_kmalloc, mempool_kfree,
			    (void *)size);
}

/**
 * mempool_create_kmalloc_pool() - mempool_create() over kmalloc()
 * @min_nr: the size of the reserve
 * @size: the size of every element
 *
 * Context: as mempool_create().
 * Return: the pool, or NULL on failure.
 */
static inline mempool_t *mempool_create_kmalloc_pool(int min_nr, size_t size)
{
	return mempool_create(min_nr, mempool_kmalloc, mempool_kfree,
			      (void *)size);
}

/**
 * mempool_init_page_pool() - mempool_init() over the page allocator
 * @pool: the pool
 * @min_nr: the size of the reserve
 * @order: the order of every element, a block of pages
 *
 * Context: as mempool_init().
 * Return: as mempool_init_node().
 */
static inline int mempool_init_page_pool(mempool_t *pool, int min_nr,
					 int order)
{
	return mempool_init(pool, min_nr, mempool_alloc_pages,
			    mempool_free_pages, (void *)(long)order);
}

/**
 * mempool_create_page_pool() - mempool_create() over the page allocator
 * @min_nr: the size of the reserve
 * @order: the order of every element, a block of pages
 *
 * Context: as mempool_create().
 * Return: the pool, or NULL on failure.
 */
static inline mempool_t *mempool_create_page_pool(int min_nr, int order)
{
	return mempool_create(min_nr, mempool_alloc_pages, mempool_free_pages,
			      (void *)(long)order);
}

#endif /* MM_MEMPOOL_H */

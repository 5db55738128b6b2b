// SPDX-License-Identifier: GPL-2.0
/*
 * Memory pools (Linux's mempool.c): a reserve of elements that
 * guarantees min_nr allocations whatever the state of memory.
 *
 * 1. Data. pool->elements[0..curr_nr) is the reserve, a stack; the array
 *    has room for min_nr. Invariant: 0 <= curr_nr <= min_nr, and
 *    min_nr - curr_nr elements of the reserve are out with callers (an
 *    element from the backend that comes back while the reserve is short
 *    takes the place of one of them).
 * 2. Allocation asks the backend first, with flags that make it fail
 *    rather than dig into the page allocator's reserve or reclaim
 *    (__GFP_NOMEMALLOC | __GFP_NORETRY | __GFP_NOWARN, and neither
 *    __GFP_DIRECT_RECLAIM nor __GFP_IO), then pops the reserve. With the
 *    reserve empty, a caller that may sleep gets one more try of the
 *    backend with its own flags; Linux would then sleep until an element
 *    comes back, which this kernel cannot do yet, so it returns NULL.
 * 3. Free pushes onto the reserve while it is short, else hands the
 *    element to the backend.
 * 4. Resize down pops and frees the surplus; resize up allocates the new
 *    array and every missing element before it touches the pool, so a
 *    failure changes nothing.
 * 5. Destroy (and exit) with elements outstanding: Linux's BUG_ON, here
 *    a WARN and a refusal.
 *
 * Locking: pool->lock, taken with interrupts off, guards curr_nr,
 * min_nr and the array. It is held only to move elements in and out of
 * the reserve: the backend, kmalloc and kfree are always called with it
 * dropped, so no allocator lock nests inside it (lock order: Documentation/locking/locking.md).
 */
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "lib/string.h"
#include "mm/kasan.h"
#include "mm/mempool.h"
#include "mm/slab.h"

#define MEMPOOL_BACKEND_GFP	(__GFP_NOMEMALLOC | __GFP_NORETRY | __GFP_NOWARN)

/*
 * KASAN: an element of a slab or kmalloc pool waiting in the reserve is
 * invalid memory, as a freed object is (Linux's kasan_poison_element);
 * other pools' elements are the caller's business.
 */
static bool pool_of_objects(const mempool_t *pool)
{
	return pool->alloc == mempool_alloc_slab ||
	       pool->alloc == mempool_kmalloc;
}

static void add_element(mempool_t *pool, void *element)
{
	lockdep_assert_held(&pool->lock);
	BUG_ON(pool->curr_nr >= pool->min_nr);
	if (kasan_enabled() && pool_of_objects(pool))
		kasan_mempool_poison_object(element);
	pool->elements[pool->curr_nr++] = element;
}

static void *remove_element(mempool_t *pool)
{
	void *element;

	lockdep_assert_held(&pool->lock);
	BUG_ON(pool->curr_nr <= 0);
	element = pool->elements[--pool->curr_nr];
	if (kasan_enabled() && pool_of_objects(pool))
		kasan_mempool_unpoison_object(element);
	return element;
}

/* Shrink the reserve to new_min_nr, freeing the surplus. */
static void mempool_shrink(mempool_t *pool, int new_min_nr)
{
	unsigned long flags;

	spin_lock_irqsave(&pool->lock, flags);
	while (pool->curr_nr > new_min_nr) {
		void *element = remove_element(pool);

		spin_unlock_irqrestore(&pool->lock, flags);
		pool->free(element, pool->pool_data);
		spin_lock_irqsave(&pool->lock, flags);
	}
	if (new_min_nr < pool->min_nr)
		pool->min_nr = new_min_nr;
	spin_unlock_irqrestore(&pool->lock, flags);
}

/* Free every element of the reserve and the array; no checks. */
static void free_reserve(mempool_t *pool)
{
	mempool_shrink(pool, 0);
	kfree(pool->elements);
	pool->elements = NULL;
}

/*
 * Elements outstanding (the reserve is short): refuse to tear the pool
 * down, as Linux's BUG_ON would have, but with a warning only.
 */
static bool mempool_busy(mempool_t *pool, const char *what)
{
	return WARN(READ_ONCE(pool->curr_nr) != pool->min_nr,
		    "%s: %d of the %d reserved elements are still outstanding; pool kept\n",
		    what, pool->min_nr - READ_ONCE(pool->curr_nr), pool->min_nr);
}

void mempool_exit(mempool_t *pool)
{
	if (!pool->elements)
		return;
	if (mempool_busy(pool, "mempool_exit"))
		return;
	free_reserve(pool);
}

void mempool_destroy(mempool_t *pool)
{
	if (unlikely(!pool))
		return;
	if (pool->elements) {
		if (mempool_busy(pool, "mempool_destroy"))
			return;
		free_reserve(pool);
	}
	kfree(pool);
}

int mempool_init_node(mempool_t *pool, int min_nr, mempool_alloc_t *alloc_fn,
		      mempool_free_t *free_fn, void *pool_data, gfp_t gfp_mask,
		      int node)
{
	memset(pool, 0, sizeof(*pool));
	if (WARN(min_nr < 1 || !alloc_fn || !free_fn,
		 "mempool: bad arguments (min_nr %d)\n", min_nr))
		return -EINVAL;
	spin_lock_init(&pool->lock);
	pool->min_nr = min_nr;
	pool->pool_data = pool_data;
	pool->alloc = alloc_fn;
	pool->free = free_fn;
	pool->elements = kmalloc_array_node((size_t)min_nr, sizeof(void *),
					    gfp_mask, node);
	if (!pool->elements)
		return -ENOMEM;

	/* Nobody else sees the pool yet, but add_element wants the lock. */
	while (pool->curr_nr < pool->min_nr) {
		unsigned long flags;
		void *element = pool->alloc(gfp_mask, pool->pool_data);

		if (unlikely(!element)) {
			free_reserve(pool);
			return -ENOMEM;
		}
		spin_lock_irqsave(&pool->lock, flags);
		add_element(pool, element);
		spin_unlock_irqrestore(&pool->lock, flags);
	}
	return 0;
}

int mempool_init(mempool_t *pool, int min_nr, mempool_alloc_t *alloc_fn,
		 mempool_free_t *free_fn, void *pool_data)
{
	return mempool_init_node(pool, min_nr, alloc_fn, free_fn, pool_data,
				 GFP_KERNEL, 0);
}

mempool_t *mempool_create_node(int min_nr, mempool_alloc_t *alloc_fn,
			       mempool_free_t *free_fn, void *pool_data,
			       gfp_t gfp_mask, int node)
{
	mempool_t *pool = kzalloc_node(sizeof(*pool), gfp_mask, node);

	if (!pool)
		return NULL;
	if (mempool_init_node(pool, min_nr, alloc_fn, free_fn, pool_data,
			      gfp_mask, node)) {
		kfree(pool);
		return NULL;
	}
	return pool;
}

mempool_t *mempool_create(int min_nr, mempool_alloc_t *alloc_fn,
			  mempool_free_t *free_fn, void *pool_data)
{
	return mempool_create_node(min_nr, alloc_fn, free_fn, pool_data,
				   GFP_KERNEL, 0);
}

/*
 * Grow the reserve to new_min_nr: everything is allocated first, then
 * put in under the lock. What a concurrent free or resize made surplus
 * is freed after.
 */
static int mempool_grow(mempool_t *pool, int new_min_nr)
{
	void **new_elements, **extra, **old = NULL;
	unsigned long flags;
	int need, got = 0;

	spin_lock_irqsave(&pool->lock, flags);
	need = new_min_nr - pool->curr_nr;
	spin_unlock_irqrestore(&pool->lock, flags);

	new_elements = kmalloc_array((size_t)new_min_nr, sizeof(void *),
				     GFP_KERNEL);
	extra = kmalloc_array((size_t)need, sizeof(void *), GFP_KERNEL);
	if (!new_elements || !extra)
		goto fail;
	for (got = 0; got < need; got++) {
		extra[got] = pool->alloc(GFP_KERNEL, pool->pool_data);
		if (!extra[got])
			goto fail;
	}

	spin_lock_irqsave(&pool->lock, flags);
	if (new_min_nr > pool->min_nr) {
		memcpy(new_elements, pool->elements,
		       (size_t)pool->curr_nr * sizeof(void *));
		old = pool->elements;
		pool->elements = new_elements;
		pool->min_nr = new_min_nr;
		new_elements = NULL;
	}
	while (got && pool->curr_nr < pool->min_nr)
		add_element(pool, extra[--got]);
	spin_unlock_irqrestore(&pool->lock, flags);

	kfree(old);
	kfree(new_elements);
	while (got)
		pool->free(extra[--got], pool->pool_data);
	kfree(extra);
	return 0;

fail:
	while (got)
		pool->free(extra[--got], pool->pool_data);
	kfree(extra);
	kfree(new_elements);
	return -ENOMEM;
}

int mempool_resize(mempool_t *pool, int new_min_nr)
{
	if (WARN(new_min_nr < 1, "mempool_resize: bad min_nr %d\n", new_min_nr))
		return -EINVAL;
	if (new_min_nr <= READ_ONCE(pool->min_nr)) {
		mempool_shrink(pool, new_min_nr);
		return 0;
	}
	return mempool_grow(pool, new_min_nr);
}

/* Pop the reserve, or NULL if it is empty. */
static void *take_reserved(mempool_t *pool)
{
	unsigned long flags;
	void *element = NULL;

	spin_lock_irqsave(&pool->lock, flags);
	if (likely(pool->curr_nr))
		element = remove_element(pool);
	spin_unlock_irqrestore(&pool->lock, flags);
	return element;
}

void *mempool_alloc(mempool_t *pool, gfp_t gfp_mask)
{
	gfp_t gfp_temp;
	void *element;

	if (WARN_ON_ONCE(gfp_mask & __GFP_ZERO))
		gfp_mask &= ~__GFP_ZERO;
	gfp_mask |= MEMPOOL_BACKEND_GFP;
	gfp_temp = gfp_mask & ~(__GFP_DIRECT_RECLAIM | __GFP_IO);

	element = pool->alloc(gfp_temp, pool->pool_data);
	if (likely(element))
		return element;
	element = take_reserved(pool);
	if (element)
		return element;
	/*
	 * Linux would now let a sleeping caller try the backend with its own
	 * flags and then wait for an element to be freed. Without sleep,
	 * the try is all there is.
	 */
	if (gfp_mask & __GFP_DIRECT_RECLAIM)
		return pool->alloc(gfp_mask, pool->pool_data);
	return NULL;
}

void *mempool_alloc_preallocated(mempool_t *pool)
{
	return take_reserved(pool);
}

void mempool_free(void *element, mempool_t *pool)
{
	unsigned long flags;

	if (unlikely(!element))
		return;
	if (WARN(!pool, "mempool_free: element %p of no pool: leaked\n", element))
		return;
	/* The unlocked test is a hint; the locked one decides. */
	if (unlikely(READ_ONCE(pool->curr_nr) < READ_ONCE(pool->min_nr))) {
		spin_lock_irqsave(&pool->lock, flags);
		if (likely(pool->curr_nr < pool->min_nr)) {
			add_element(pool, element);
			spin_unlock_irqrestore(&pool->lock, flags);
			return;
		}
		spin_unlock_irqrestore(&pool->lock, flags);
	}
	pool->free(element, pool->pool_data);
}

bool mempool_is_saturated(mempool_t *pool)
{
	return READ_ONCE(pool->curr_nr) >= READ_ONCE(pool->min_nr);
}

/* --- backends ------------------------------------------------------------ */

void *mempool_alloc_slab(gfp_t gfp_mask, void *pool_data)
{
	return kmem_cache_alloc(pool_data, gfp_mask);
}

void mempool_free_slab(void *element, void *pool_data)
{
	kmem_cache_free(pool_data, element);
}

void *mempool_kmalloc(gfp_t gfp_mask, void *pool_data)
{
	return kmalloc((size_t)pool_data, gfp_mask);
}

void mempool_kfree(void *element, void *pool_data)
{
	(void)pool_data;
	kfree(element);
}

void *mempool_alloc_pages(gfp_t gfp_mask, void *pool_data)
{
	return alloc_pages(gfp_mask, (unsigned int)(long)pool_data);
}

void mempool_free_pages(void *element, void *pool_data)
{
	__free_pages(element, (unsigned int)(long)pool_data);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Must compile: a caller of the allocators that includes the API headers
 * alone (mm/slab.h, mm/gfp.h, mm/mempool.h) and uses what they promise. Compiled, never
 * linked, by tools/testing/compile_checks.py.
 */
#include "mm/gfp.h"
#include "mm/mempool.h"
#include "mm/slab.h"

struct widget {
	int id;
	char name[24];
};

int widget_demo(void);
int pool_demo(void);

int widget_demo(void)
{
	struct kmem_cache *cache;
	struct widget *w;
	struct page *page;
	unsigned long addr;
	char *buf, *bigger;
	int *v, ret = 0;

	cache = kmem_cache_create("widget", sizeof(struct widget), 0,
				  SLAB_HWCACHE_ALIGN, NULL);
	if (!cache)
		return -1;
	w = kmem_cache_zalloc(cache, GFP_KERNEL);
	buf = kmalloc(64, GFP_KERNEL);
	/* No kmalloc cache is DMA32: kmalloc would WARN and ignore it. */
	v = kcalloc(8, sizeof(*v), GFP_KERNEL);
	bigger = krealloc(buf, 2 * KMALLOC_MIN_SIZE, GFP_KERNEL);
	if (w && bigger && v)
		ret = w->id + bigger[0] + v[7] + (int)ksize(bigger);
	kfree(v);
	kfree(bigger ? bigger : buf);
	kmem_cache_free(cache, w);
	kmem_cache_destroy(cache);

	page = alloc_pages(GFP_KERNEL | __GFP_COMP, 1);
	if (page) {
		ret += PageHead(page) + (int)compound_order(page);
		ret += *(char *)page_address(page) + (virt_to_page(
			page_address(page)) == page);
		__free_pages(page, 1);
	}
	addr = get_zeroed_page(GFP_KERNEL);
	free_page(addr);
	/* Memory a device with a 32-bit limit reads: ask the page allocator. */
	page = alloc_pages(GFP_KERNEL | __GFP_DMA32, 0);
	if (page) {
		ret += page_to_pfn(page) < (1UL << (32 - PAGE_SHIFT));
		__free_pages(page, 0);
	}
	return ret + !ZERO_OR_NULL_PTR(kzalloc(0, GFP_KERNEL));
}

int pool_demo(void)
{
	struct kmem_cache *cache = KMEM_CACHE(widget, 0);
	mempool_t *pool = mempool_create_slab_pool(4, cache);
	const char *name = kstrdup_const("widget", GFP_KERNEL);
	struct widget *w;
	int ret = 0;

	if (pool) {
		w = mempool_alloc(pool, GFP_KERNEL);
		if (w)
			ret = w->id + pool->curr_nr;
		mempool_free(w, pool);
		ret += mempool_resize(pool, 8);
	}
	mempool_destroy(pool);
	kmem_cache_destroy(cache);
	kfree_const(name);
	return ret + (int)kmalloc_size_roundup(100) +
	       (int)struct_size(w, name, 3);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The allocators with two CPUs at once (where the arch can run a second
 * CPU: the host build, where CPUs are threads; skipped on x86_64, whose
 * application processors are up but only idle, until arch_cpu_run()
 * can send them work). Two CPUs allocate, fill, hand over and free
 * kmalloc objects, cache objects and pages, each freeing what the other
 * allocated; every object is checked for its pattern before it is freed,
 * and at the end the page and object counts are back where they started.
 */
#include "kernel/errno.h"
#include "lib/ktest/ktest.h"
#include "mm/gfp.h"
#include "mm/slab.h"
#include "arch/arch.h"

#define SMP_RING	256
#define SMP_ITEMS	200000UL

struct smp_item {
	void *ptr;
	unsigned long size;	/* kmalloc size; 0: a page; ~0: cache object */
	unsigned long stamp;
};

struct smp_ring {
	struct smp_item item[SMP_RING];
	unsigned long head, tail;
	unsigned long bad;	/* patterns found overwritten */
	struct kmem_cache *cache;
};

static struct smp_ring smp_ring;

static unsigned char stamp_byte(unsigned long stamp)
{
	return (unsigned char)(stamp * 0x9e3779b1UL >> 24);
}

static bool pattern_ok(const struct smp_item *it, unsigned long len)
{
	const unsigned char *p = it->ptr;

	return p[0] == stamp_byte(it->stamp) &&
	       p[len - 1] == stamp_byte(it->stamp);
}

static void free_item(struct smp_ring *r, const struct smp_item *it)
{
	if (it->size == 0) {
		r->bad += !pattern_ok(it, PAGE_SIZE);
		__free_pages(virt_to_page(it->ptr), 0);
	} else if (it->size == ~0UL) {
		r->bad += !pattern_ok(it, 128);
		kmem_cache_free(r->cache, it->ptr);
	} else {
		r->bad += !pattern_ok(it, it->size);
		kfree(it->ptr);
	}
}

/* The other CPU: take items off the ring and free them. */
static void smp_consumer(void *arg)
{
	struct smp_ring *r = arg;

	for (unsigned long n = 0; n < SMP_ITEMS; n++) {
		while (__atomic_load_n(&r->head, __ATOMIC_ACQUIRE) == r->tail)
			arch_cpu_relax();
		free_item(r, &r->item[r->tail % SMP_RING]);
		__atomic_store_n(&r->tail, r->tail + 1, __ATOMIC_RELEASE);
	}
}

static bool make_item(struct smp_ring *r, unsigned long n,
		      struct smp_item *it)
{
	unsigned long len;

	it->stamp = n;
	if (n % 7 == 0) {
		struct page *page = alloc_page(GFP_KERNEL);

		it->ptr = page ? page_address(page) : NULL;
		it->size = 0;
		len = PAGE_SIZE;
	} else if (n % 3 == 0) {
		it->ptr = kmem_cache_alloc(r->cache, GFP_KERNEL);
		it->size = ~0UL;
		len = 128;
	} else {
		it->size = 1 + (n * 2654435761UL) % 2048;
		it->ptr = kmalloc(it->size, GFP_KERNEL);
		len = it->size;
	}
	if (!it->ptr)
		return false;
	((unsigned char *)it->ptr)[0] = stamp_byte(n);
	((unsigned char *)it->ptr)[len - 1] = stamp_byte(n);
	return true;
}

static void test_cross_cpu_free(struct ktest *t)
{
	struct smp_ring *r = &smp_ring;
	unsigned long failed = 0;
	int err;

	r->head = r->tail = r->bad = 0;
	r->cache = kmem_cache_create("smp-128", 128, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, r->cache);
	err = arch_cpu_run(1, smp_consumer, r);
	if (err == -ENOSYS) {
		kmem_cache_destroy(r->cache);
		ktest_skip(t, "this arch cannot run work on another CPU yet (arch_cpu_run)");
	}
	KTEST_ASSERT_EQ(t, err, 0);
	for (unsigned long n = 0; n < SMP_ITEMS; n++) {
		struct smp_item *slot = &r->item[n % SMP_RING];

		while (n - __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) >= SMP_RING)
			arch_cpu_relax();
		/* A failed allocation still sends a page, so counts match. */
		while (!make_item(r, n, slot))
			failed++;
		__atomic_store_n(&r->head, n + 1, __ATOMIC_RELEASE);
	}
	arch_cpu_join(1);
	KTEST_EXPECT_EQ(t, r->bad, 0UL);
	KTEST_EXPECT_EQ(t, failed, 0UL);
	KTEST_EXPECT_EQ(t, r->tail, SMP_ITEMS);
	kmem_cache_destroy(r->cache);
}

static const struct ktest_case smp_cases[] = {
	KTEST_CASE(test_cross_cpu_free),
	{}
};
KTEST_SUITE(smp, smp_cases);

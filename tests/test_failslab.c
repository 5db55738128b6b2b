// SPDX-License-Identifier: GPL-2.0
/*
 * failslab (mm/fault_inject.c): slab allocations that fail on purpose.
 *
 *  - every Nth candidate, a number of times, one cache only;
 *  - the per-CPU fast path obeys it (objects in the array do not
 *    escape it), and so do kzalloc, krealloc and bulk allocation;
 *  - a stress of kmem_cache_alloc and kmalloc with 1% failures: every
 *    NULL is handled, contents stay intact, nothing leaks (the runner's
 *    leak check), every cache validates afterwards.
 */
#include "kernel/errno.h"
#include "lib/ktest/ktest.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/fault_inject.h"
#include "mm/slab.h"
#include "tests/mm_util.h"

#define STRESS_OPS	20000

static struct kmem_cache *make_cache(struct ktest *t, const char *name)
{
	struct kmem_cache *c = kmem_cache_create(name, 72, 0, 0, NULL);

	KTEST_ASSERT_NOT_NULL(t, c);
	return c;
}

static void test_every_nth_one_cache(struct ktest *t)
{
	struct kmem_cache *c = make_cache(t, "t-fail");
	void *p[30], *k;
	unsigned int nulls = 0;

	KTEST_ASSERT_EQ(t, fault_attr_set(&failslab, "3,100,0,-1", 1), 0);
	failslab_set_cache("t-fail");
	for (int i = 0; i < 30; i++) {
		p[i] = kmem_cache_alloc(c, GFP_KERNEL);
		nulls += !p[i];
		/* Every third candidate fails: the 3rd, 6th, ... */
		KTEST_EXPECT_EQ(t, !p[i], i % 3 == 2);
	}
	KTEST_EXPECT_EQ(t, nulls, 10U);
	KTEST_EXPECT_EQ(t, failslab.failures, 10UL);
	/* Other caches are not candidates. */
	k = kmalloc(72, GFP_KERNEL);
	KTEST_EXPECT_NOT_NULL(t, k);
	kfree(k);
	fault_attr_disable(&failslab);
	failslab_set_cache(NULL);
	for (int i = 0; i < 30; i++)
		kmem_cache_free(c, p[i]);
	kmem_cache_destroy(c);
}

static void test_times_runs_out(struct ktest *t)
{
	unsigned int nulls = 0;

	KTEST_ASSERT_EQ(t, fault_attr_set(&failslab, "1,100,0,5", 2), 0);
	for (int i = 0; i < 20; i++) {
		void *p = kmalloc(40, GFP_KERNEL);

		nulls += !p;
		kfree(p);
	}
	KTEST_EXPECT_EQ(t, nulls, 5U);
	KTEST_EXPECT_EQ(t, failslab.failures, 5UL);
	fault_attr_disable(&failslab);
}

/* An object waiting in the per-CPU array is not handed out either. */
static void test_fast_path_obeys(struct ktest *t)
{
	struct kmem_cache *c = make_cache(t, "t-fail-fast");
	void *p = kmem_cache_alloc(c, GFP_KERNEL);

	KTEST_ASSERT_NOT_NULL(t, p);
	kmem_cache_free(c, p);		/* now on top of the array */
	KTEST_ASSERT_EQ(t, fault_attr_set(&failslab, "1,100,0,-1", 3), 0);
	KTEST_EXPECT_NULL(t, kmem_cache_alloc(c, GFP_KERNEL));
	KTEST_EXPECT_NULL(t, kmalloc(64, GFP_KERNEL));
	KTEST_EXPECT_NULL(t, kzalloc(64, GFP_KERNEL));
	fault_attr_disable(&failslab);
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_EXPECT_NOT_NULL(t, p);
	kmem_cache_free(c, p);
	kmem_cache_destroy(c);
}

static void test_krealloc_and_bulk(struct ktest *t)
{
	struct kmem_cache *c = make_cache(t, "t-fail-bulk");
	u8 *p = kmalloc(20, GFP_KERNEL);
	void *v[16];

	KTEST_ASSERT_NOT_NULL(t, p);
	memset(p, 0x3c, 20);
	/* The 5th candidate fails: bulk gets 4, gives them back, returns 0. */
	KTEST_ASSERT_EQ(t, fault_attr_set(&failslab, "5,100,0,1", 4), 0);
	failslab_set_cache("t-fail-bulk");
	KTEST_EXPECT_EQ(t, kmem_cache_alloc_bulk(c, GFP_KERNEL, 16, v), 0);
	KTEST_EXPECT_EQ(t, failslab.failures, 1UL);
	failslab_set_cache(NULL);
	/* A krealloc that must move fails and leaves the old object. */
	KTEST_ASSERT_EQ(t, fault_attr_set(&failslab, "1,100,0,-1", 5), 0);
	KTEST_EXPECT_NULL(t, krealloc(p, 500, GFP_KERNEL));
	fault_attr_disable(&failslab);
	KTEST_EXPECT_NULL(t, memchr_inv(p, 0x3c, 20));
	kfree(p);
	/* A shrink that cannot move keeps the object where it is. */
	p = kmalloc(1000, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	memset(p, 0x3c, 1000);
	KTEST_ASSERT_EQ(t, fault_attr_set(&failslab, "1,100,0,-1", 5), 0);
	KTEST_EXPECT_PTR_EQ(t, krealloc(p, 100, GFP_KERNEL), p);
	fault_attr_disable(&failslab);
	/* (slab_debug guards the bytes past the new size now) */
	KTEST_EXPECT_NULL(t, memchr_inv(p, 0x3c, 100));
	kfree(p);
	KTEST_EXPECT_EQ(t, kmem_cache_alloc_bulk(c, GFP_KERNEL, 16, v), 16);
	kmem_cache_free_bulk(c, 16, v);
	kmem_cache_destroy(c);
}

static void test_bad_spec_keeps_config(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, fault_attr_set(&failslab, "7,50,0,-1", 6), 0);
	KTEST_EXPECT_EQ(t, fault_attr_set(&failslab, "x,1", 6), -EINVAL);
	KTEST_EXPECT_EQ(t, fault_attr_set(&failslab, "1,101,0,-1", 6), -EINVAL);
	KTEST_EXPECT_TRUE(t, failslab.enabled);
	KTEST_EXPECT_EQ(t, failslab.interval, 7UL);
	KTEST_EXPECT_EQ(t, failslab.probability, 50U);
	fault_attr_disable(&failslab);
	KTEST_EXPECT_FALSE(t, failslab.enabled);
}

/* kmem_cache_alloc and kmalloc with 1% failures: NULL handled, no leak. */
static void test_stress_one_percent(struct ktest *t)
{
	struct kmem_cache *c = make_cache(t, "t-fail-stress");
	struct slab_stress st;

	KTEST_ASSERT_EQ(t, fault_attr_set(&failslab, "1,1,0,-1", 12), 0);
	slab_stress(c, STRESS_OPS, 3000, 11, &st);
	fault_attr_disable(&failslab);
	ktest_info(t, "%lu allocations, %lu failed on purpose", st.allocs,
		   st.failed);
	KTEST_EXPECT_EQ(t, st.corrupt, 0UL);
	/* About 1% of some 10000 allocations. */
	KTEST_EXPECT_GE(t, st.failed, st.allocs / 200);
	KTEST_EXPECT_LE(t, st.failed, st.allocs / 50);
	KTEST_EXPECT_EQ(t, failslab.failures, st.failed);
	KTEST_EXPECT_EQ(t, kmem_cache_validate(c), 0);
	KTEST_EXPECT_EQ(t, slab_validate_all(), 0);
	kmem_cache_destroy(c);
}

/*
 * kmem_cache_create allocates the cache, its name, node, per-CPU arrays
 * and random sequence: fail each of them in turn. Creation must fail
 * cleanly (no leak: the runner checks) or give a cache that works.
 */
static void test_create_under_failslab(struct ktest *t)
{
	unsigned int failed = 0, worked = 0;

	for (unsigned int nth = 1; nth <= 24; nth++) {
		char spec[32];
		struct kmem_cache *c;
		void *p;

		snprintf(spec, sizeof(spec), "%u,100,0,1", nth);
		KTEST_ASSERT_EQ(t, fault_attr_set(&failslab, spec, nth), 0);
		ktest_capture_start(t, "kmem_cache_create(t-fail-create) failed");
		c = kmem_cache_create("t-fail-create", 100, 0,
				      SLAB_FREELIST_RANDOM, NULL);
		KTEST_EXPECT_EQ(t, ktest_capture_stop(t), c ? 0U : 1U);
		fault_attr_disable(&failslab);
		if (!c) {
			failed++;
			continue;
		}
		worked++;
		p = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_EXPECT_NOT_NULL(t, p);
		kmem_cache_free(c, p);
		kmem_cache_destroy(c);
	}
	ktest_info(t, "%u creations failed cleanly, %u worked", failed, worked);
	/* The first allocations are creation's own; later ones miss it. */
	KTEST_EXPECT_GE(t, failed, 4U);
	KTEST_EXPECT_GE(t, worked, 1U);
}

static void failslab_exit(struct ktest *t)
{
	(void)t;
	fault_attr_disable(&failslab);
	failslab_set_cache(NULL);
}

static const struct ktest_case failslab_cases[] = {
	KTEST_CASE(test_every_nth_one_cache),
	KTEST_CASE(test_times_runs_out),
	KTEST_CASE(test_fast_path_obeys),
	KTEST_CASE(test_krealloc_and_bulk),
	KTEST_CASE(test_bad_spec_keeps_config),
	KTEST_CASE(test_stress_one_percent),
	KTEST_CASE(test_create_under_failslab),
	{}
};

KTEST_SUITE(failslab, failslab_cases, .exit = failslab_exit);

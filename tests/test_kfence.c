// SPDX-License-Identifier: GPL-2.0
/*
 * KFENCE (mm/kfence.c): a sampled object is caught when it is read or
 * written out of bounds (left and right, through the guard pages) or
 * after its free, when its canary is written (seen at free), and when a
 * free is not its start or is its second; each with exactly one report
 * of its kind. kmalloc and kmem_cache both; the pool's exhaustion falls
 * back to SLAB (counted); ksize() and krealloc() of a KFENCE object; the
 * timer's sampling; the counters.
 *
 * The timer is stopped while a case runs (init), so only the samples a
 * case forces (kfence_force_sample()) come from the pool; another CPU's
 * allocation may still take one, so each forced allocation is retried a
 * bounded number of times.
 */
#include "kernel/shell.h"
#include "kernel/time.h"
#include "lib/ktest/ktest.h"
#include "lib/string.h"
#include "mm/kfence.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"

#define FORCE_TRIES	100

enum placement { ANYWHERE, PAGE_START, PAGE_END };

struct kfence_test {
	unsigned long interval;
	struct kmem_cache *cache;
};

static int kfence_test_init(struct ktest *t)
{
	static struct kfence_test ctx;

	if (!__kfence_pool)
		ktest_skip(t, "no KFENCE pool (kfence.sample_interval=0)");
	if (cache_debug(kmalloc_slab(32, GFP_KERNEL)))
		ktest_skip(t, "caches debugged (slab_debug): KFENCE leaves them alone");
	ctx.interval = kfence_sample_interval_get();
	ctx.cache = NULL;
	kfence_sample_interval_set(0);
	t->priv = &ctx;
	return 0;
}

static void kfence_test_exit(struct ktest *t)
{
	struct kfence_test *ctx = t->priv;

	if (!ctx)
		return;
	if (ctx->cache)
		kmem_cache_destroy(ctx->cache);
	kfence_sample_interval_set(ctx->interval);
}

static bool placed(const void *p, enum placement where)
{
	unsigned long off = (unsigned long)p % PAGE_SIZE;

	return where == ANYWHERE || (where == PAGE_START) == (off == 0);
}

static void test_free(struct kmem_cache *cache, void *p)
{
	if (cache)
		kmem_cache_free(cache, p);
	else
		kfree(p);
}

/* A KFENCE object of size bytes (or of cache), placed as asked. */
static void *kfence_object(struct ktest *t, struct kmem_cache *cache,
			   size_t size, enum placement where)
{
	for (int i = 0; i < FORCE_TRIES; i++) {
		void *p;

		kfence_force_sample();
		p = cache ? kmem_cache_alloc(cache, GFP_KERNEL) :
			    kmalloc(size, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, p);
		if (is_kfence_address(p) && placed(p, where))
			return p;
		test_free(cache, p);
	}
	KTEST_FAIL(t, "no KFENCE object in %d forced samples", FORCE_TRIES);
	return NULL;
}

static __noinline void kfence_test_read(const void *p)
{
	(void)READ_ONCE(*(const volatile char *)p);
}

static __noinline void kfence_test_write(void *p)
{
	WRITE_ONCE(*(volatile char *)p, 0x2a);
}

/* Touch p, expecting exactly one KFENCE report of kind. */
static void expect_fault(struct ktest *t, void *p, bool write,
			 enum report_kind kind)
{
	long bugs = kfence_counter(KFENCE_COUNTER_BUGS);

	ktest_capture_start(t, "BUG: KFENCE:");
	if (write)
		kfence_test_write(p);
	else
		kfence_test_read(p);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_REPORTS(t, kind, 1);
	KTEST_EXPECT_EQ(t, kfence_counter(KFENCE_COUNTER_BUGS), bugs + 1);
	KTEST_EXPECT_CAPTURED(t, write ? "write in kfence_test_write+0x" :
					 "read in kfence_test_read+0x");
}

static void oob(struct ktest *t, struct kmem_cache *cache, bool right,
		bool write)
{
	size_t size = cache ? kmem_cache_size(cache) : 32;
	char *p = kfence_object(t, cache, size,
				right ? PAGE_END : PAGE_START);
	char *bad = right ? p + size : p - 1;

	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_ASSERT_EQ(t, (unsigned long)bad % PAGE_SIZE,
			right ? 0UL : PAGE_SIZE - 1);
	expect_fault(t, bad, write, REPORT_KFENCE_OOB);
	KTEST_EXPECT_CAPTURED(t, right ? "B right of kfence-#" :
					 "1B left of kfence-#");
	KTEST_EXPECT_CAPTURED(t, write ? "Out-of-bounds write at" :
					 "Out-of-bounds read at");
	KTEST_EXPECT_CAPTURED(t, "allocated by task 0 on cpu");
	/* One shot: the guard page stays open until the slot's next use. */
	ktest_capture_start(t, "BUG:");
	kfence_test_read(bad);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
	test_free(cache, p);
}

static void test_oob_read_right(struct ktest *t)
{
	oob(t, NULL, true, false);
}

static void test_oob_read_left(struct ktest *t)
{
	oob(t, NULL, false, false);
}

static void test_oob_write_right(struct ktest *t)
{
	oob(t, NULL, true, true);
}

static void test_oob_write_left(struct ktest *t)
{
	oob(t, NULL, false, true);
}

static void uaf(struct ktest *t, struct kmem_cache *cache, bool write)
{
	size_t size = cache ? kmem_cache_size(cache) : 64;
	char *p = kfence_object(t, cache, size, ANYWHERE);

	KTEST_ASSERT_NOT_NULL(t, p);
	test_free(cache, p);
	expect_fault(t, p + size / 2, write, REPORT_KFENCE_UAF);
	KTEST_EXPECT_CAPTURED(t, "Use-after-free");
	KTEST_EXPECT_CAPTURED(t, "freed by task 0 on cpu");
}

static void test_uaf_read(struct ktest *t)
{
	uaf(t, NULL, false);
}

static void test_uaf_write(struct ktest *t)
{
	uaf(t, NULL, true);
}

static struct kmem_cache *test_cache(struct ktest *t)
{
	struct kfence_test *ctx = t->priv;

	ctx->cache = kmem_cache_create("kfence_test", 48, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, ctx->cache);
	return ctx->cache;
}

static void test_cache_oob_and_uaf(struct ktest *t)
{
	struct kmem_cache *cache = test_cache(t);

	oob(t, cache, true, false);
	oob(t, cache, false, true);
	uaf(t, cache, false);
	KTEST_EXPECT_CAPTURED(t, "cache=kfence_test");
}

/* The canary written beside the object is reported when it is freed. */
static void test_corruption(struct ktest *t)
{
	char *p = kfence_object(t, NULL, 13, ANYWHERE);

	KTEST_ASSERT_NOT_NULL(t, p);
	p[13] = 0x2a;		/* inside the page: no fault */
	ktest_capture_start(t, "BUG: KFENCE:");
	kfree(p);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_REPORTS(t, REPORT_KFENCE_CORRUPTION, 1);
	KTEST_EXPECT_CAPTURED(t, "BUG: KFENCE: memory corruption in test_corruption+0x");
	KTEST_EXPECT_CAPTURED(t, "[ 0x2a");
	KTEST_EXPECT_CAPTURED(t, "size=13, cache=kmalloc-16");
}

static void test_corruption_left(struct ktest *t)
{
	char *p = kfence_object(t, NULL, 32, PAGE_END);

	KTEST_ASSERT_NOT_NULL(t, p);
	p[-3] = 0x2a;
	ktest_capture_start(t, "BUG: KFENCE:");
	kfree(p);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_REPORTS(t, REPORT_KFENCE_CORRUPTION, 1);
}

static void test_invalid_free(struct ktest *t)
{
	char *p = kfence_object(t, NULL, 32, ANYWHERE);
	long frees = kfence_counter(KFENCE_COUNTER_FREES);

	KTEST_ASSERT_NOT_NULL(t, p);
	ktest_capture_start(t, "BUG: KFENCE:");
	kfree(p + 1);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_REPORTS(t, REPORT_KFENCE_INVALID_FREE, 1);
	KTEST_EXPECT_CAPTURED(t, "invalid free in test_invalid_free+0x");
	KTEST_EXPECT_EQ(t, kfence_counter(KFENCE_COUNTER_FREES), frees);
	kfree(p);		/* the real one still works */
	KTEST_EXPECT_EQ(t, kfence_counter(KFENCE_COUNTER_FREES), frees + 1);
}

static void test_double_free(struct ktest *t)
{
	struct kmem_cache *cache = test_cache(t);
	void *p = kfence_object(t, cache, 0, ANYWHERE);

	KTEST_ASSERT_NOT_NULL(t, p);
	kmem_cache_free(cache, p);
	ktest_capture_start(t, "BUG: KFENCE:");
	kmem_cache_free(cache, p);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_REPORTS(t, REPORT_KFENCE_INVALID_FREE, 1);
	KTEST_EXPECT_CAPTURED(t, "freed by task 0");
}

/* A free into a guard page is no object's: invalid. */
static void test_invalid_free_guard(struct ktest *t)
{
	ktest_capture_start(t, "BUG: KFENCE:");
	kfree(__kfence_pool + PAGE_SIZE + 8);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_REPORTS(t, REPORT_KFENCE_INVALID_FREE, 1);
}

static void test_ksize_krealloc(struct ktest *t)
{
	char *p = kfence_object(t, NULL, 13, ANYWHERE), *q;
	long frees = kfence_counter(KFENCE_COUNTER_FREES);

	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_EQ(t, ksize(p), 13UL);
	KTEST_EXPECT_TRUE(t, kmem_valid_obj(p));
	memset(p, 0x5a, 13);
	q = krealloc(p, 12, GFP_KERNEL);	/* fits: kept */
	KTEST_EXPECT_PTR_EQ(t, q, p);
	q = krealloc(p, 100, GFP_KERNEL);	/* moves, frees p */
	KTEST_ASSERT_NOT_NULL(t, q);
	KTEST_EXPECT_PTR_NE(t, q, p);
	KTEST_EXPECT_EQ(t, kfence_counter(KFENCE_COUNTER_FREES), frees + 1);
	for (int i = 0; i < 13; i++)
		KTEST_EXPECT_EQ(t, q[i], 0x5a);
	kfree(q);
}

static void ctor(void *obj)
{
	memset(obj, 0x77, 48);
}

static void test_zero_and_ctor(struct ktest *t)
{
	struct kfence_test *ctx = t->priv;
	char *p = NULL;

	for (int i = 0; i < FORCE_TRIES && !p; i++) {
		kfence_force_sample();
		p = kzalloc(40, GFP_KERNEL);
		if (!is_kfence_address(p)) {
			kfree(p);
			p = NULL;
		}
	}
	KTEST_ASSERT_NOT_NULL(t, p);
	for (int i = 0; i < 40; i++)
		KTEST_EXPECT_EQ(t, p[i], 0);
	kfree(p);
	ctx->cache = kmem_cache_create("kfence_ctor", 48, 0, 0, ctor);
	KTEST_ASSERT_NOT_NULL(t, ctx->cache);
	p = kfence_object(t, ctx->cache, 0, ANYWHERE);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_EQ(t, p[0], 0x77);
	KTEST_EXPECT_EQ(t, p[47], 0x77);
	kmem_cache_free(ctx->cache, p);
}

/* A full pool: the sample is skipped (counted), SLAB serves as usual. */
static void test_exhausted(struct ktest *t)
{
	static void *objs[KFENCE_NUM_OBJECTS + 1];
	long skipped = kfence_counter(KFENCE_COUNTER_SKIP_CAPACITY);
	unsigned int n = 0;
	void *p = NULL;

	while (n < ARRAY_SIZE(objs) &&
	       kfence_counter(KFENCE_COUNTER_SKIP_CAPACITY) == skipped) {
		kfence_force_sample();
		p = kmalloc(32, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, p);
		objs[n++] = p;
	}
	KTEST_EXPECT_GT(t, kfence_counter(KFENCE_COUNTER_SKIP_CAPACITY),
			skipped);
	KTEST_EXPECT_EQ(t, kfence_counter(KFENCE_COUNTER_ALLOCATED),
			(long)KFENCE_NUM_OBJECTS);
	KTEST_EXPECT_FALSE(t, is_kfence_address(p));
	KTEST_EXPECT_EQ(t, ksize(p), 32UL);
	while (n)
		kfree(objs[--n]);
	KTEST_EXPECT_LT(t, kfence_counter(KFENCE_COUNTER_ALLOCATED),
			(long)KFENCE_NUM_OBJECTS);
}

/* Too big, or not a plain cache: the sample waits for the next one. */
static void test_incompatible(struct ktest *t)
{
	long incompat = kfence_counter(KFENCE_COUNTER_SKIP_INCOMPAT);
	void *p;

	kfence_force_sample();
	p = kmalloc(PAGE_SIZE + 1, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_FALSE(t, is_kfence_address(p));
	KTEST_EXPECT_GT(t, kfence_counter(KFENCE_COUNTER_SKIP_INCOMPAT),
			incompat);
	kfree(p);
	p = kfence_object(t, NULL, 8, ANYWHERE);	/* still due */
	kfree(p);
	KTEST_EXPECT_FALSE(t, kfence_sample_due());
}

/* The timer samples on its own: an object within a bounded wait. */
static void test_timer_samples(struct ktest *t)
{
	long allocs = kfence_counter(KFENCE_COUNTER_ALLOCS);
	unsigned long end = jiffies + msecs_to_jiffies(5000);

	kfence_sample_interval_set(1);
	while (kfence_counter(KFENCE_COUNTER_ALLOCS) == allocs &&
	       time_before(jiffies, end))
		kfree(kmalloc(24, GFP_KERNEL));
	kfence_sample_interval_set(0);
	KTEST_EXPECT_GT(t, kfence_counter(KFENCE_COUNTER_ALLOCS), allocs);
}

static void test_stats(struct ktest *t)
{
	char line[] = "kfence";

	ktest_capture_start(t, "enabled: ");
	KTEST_EXPECT_EQ(t, shell_exec(line), 0);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "currently allocated: ");
	KTEST_EXPECT_CAPTURED(t, "total allocations: ");
	KTEST_EXPECT_CAPTURED(t, "total frees: ");
	KTEST_EXPECT_CAPTURED(t, "zombie allocations: 0");
	KTEST_EXPECT_CAPTURED(t, "total bugs: ");
}

static const struct ktest_case kfence_cases[] = {
	KTEST_CASE(test_oob_read_right),
	KTEST_CASE(test_oob_read_left),
	KTEST_CASE(test_oob_write_right),
	KTEST_CASE(test_oob_write_left),
	KTEST_CASE(test_uaf_read),
	KTEST_CASE(test_uaf_write),
	KTEST_CASE(test_cache_oob_and_uaf),
	KTEST_CASE(test_corruption),
	KTEST_CASE(test_corruption_left),
	KTEST_CASE(test_invalid_free),
	KTEST_CASE(test_double_free),
	KTEST_CASE(test_invalid_free_guard),
	KTEST_CASE(test_ksize_krealloc),
	KTEST_CASE(test_zero_and_ctor),
	KTEST_CASE(test_exhausted),
	KTEST_CASE(test_incompatible),
	KTEST_CASE(test_timer_samples),
	KTEST_CASE(test_stats),
	{}
};

KTEST_SUITE(kfence, kfence_cases, .init = kfence_test_init,
	    .exit = kfence_test_exit);

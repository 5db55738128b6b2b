// SPDX-License-Identifier: GPL-2.0
/*
 * Direct reclaim and shrinkers (mm/vmscan.c):
 *
 *  - with memory exhausted, an allocation gets what slab caches keep
 *    (per-CPU and shared arrays, free slabs) and what per-CPU page lists
 *    hold; under __GFP_NORETRY it fails instead;
 *  - shrinkers are counted and scanned in batches, their memory is used,
 *    SHRINK_STOP ends their share, unregistered ones are left alone;
 *  - an allocation inside a shrinker neither reclaims again nor
 *    deadlocks, and may use the reserve; GFP_ATOMIC and GFP_NOWAIT call
 *    no shrinker;
 *  - a stress with failslab and fail_page_alloc at 1% under memory
 *    pressure leaks nothing and corrupts nothing;
 *  - the vmstat counters, meminfo's reclaimable lines, and the shell
 *    commands with bad input.
 *
 * Memory is exhausted with __GFP_NORETRY, which never reclaims, so what
 * the caches hold is still there when the allocation under test runs.
 */
#include "kernel/cpumask.h"
#include "kernel/errno.h"
#include "kernel/shell.h"
#include "lib/ktest/ktest.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/fault_inject.h"
#include "mm/gfp.h"
#include "mm/internal.h"	/* white-box: vmstat events, reclaim depth */
#include "mm/kasan.h"
#include "mm/mm.h"
#include "mm/page-flags.h"
#include "mm/shrinker.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"	/* white-box: arrays and free slabs */
#include "tests/mm_util.h"

#define GFP_HOG		(GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY)

/* Every page an allocation of gfp may get, without reclaim. */
static struct hog *hog_noreclaim(gfp_t gfp)
{
	return hog_memory_gfp(gfp | __GFP_NORETRY);
}

/* Give back the first blocks of the hog, at least pages pages. */
static struct hog *hog_release_some(struct hog *head, unsigned long pages)
{
	unsigned long done = 0;

	while (head && done < pages) {
		struct hog *next = head->next;

		done += 1UL << head->order;
		__free_pages(virt_to_page(head), head->order);
		head = next;
	}
	return head;
}

/* Take order-0 pages until none comes (no reclaim); chained on *head. */
static unsigned long grab_pages(struct hog **head, gfp_t gfp)
{
	unsigned long n = 0;
	struct page *page;

	while ((page = alloc_page(gfp | __GFP_NOWARN | __GFP_NORETRY))) {
		struct hog *h = page_address(page);

		h->next = *head;
		h->order = 0;
		*head = h;
		n++;
	}
	return n;
}

/* --- a test shrinker: a pool of pages ----------------------------------- */

struct pool {
	struct shrinker shrinker;
	struct hog *pages;
	unsigned long nr;
	unsigned long count_calls, scan_calls, freed;
	unsigned long max_to_scan, min_to_scan;
	bool stop;			/* scan_objects says SHRINK_STOP */
	bool allocate;			/* scan_objects allocates (recursion) */
	bool in_scan;
	unsigned int recursions;	/* scan entered while in scan */
	unsigned int depth_seen;	/* reclaim depth inside scan */
	unsigned long stalls_inside;	/* allocstall moves inside scan */
	bool nested_kmalloc_ok, nested_page_pfmemalloc, nested_nomemalloc_null;
	gfp_t gfp_seen;
};

static struct pool *to_pool(struct shrinker *s)
{
	return container_of(s, struct pool, shrinker);
}

static unsigned long pool_count(struct shrinker *s, struct shrink_control *sc)
{
	struct pool *p = to_pool(s);

	p->count_calls++;
	p->gfp_seen = sc->gfp_mask;
	return p->nr ? p->nr : SHRINK_EMPTY;
}

static unsigned long stalls(void)
{
	return global_vm_event(ALLOCSTALL_DMA) +
	       global_vm_event(ALLOCSTALL_DMA32) +
	       global_vm_event(ALLOCSTALL_NORMAL);
}

/*
 * What an allocating shrinker does: allocations that must not reclaim.
 * What they got is kept from the first call only, made while memory is
 * at the min watermark: by the next one the pool has given pages back,
 * and where the per-CPU lists are short (32 MiB: a small high mark)
 * they reach the buddy lists, above the watermark, so the reserve is
 * rightly not needed any more.
 */
static void pool_allocate(struct pool *p)
{
	unsigned long before = stalls();
	bool first = p->scan_calls == 1;
	struct page *page;
	void *obj;

	p->depth_seen = current_reclaim_depth();
	obj = kmalloc(100, GFP_KERNEL);
	if (first)
		p->nested_kmalloc_ok = obj != NULL;
	kfree(obj);
	page = alloc_page(GFP_KERNEL | __GFP_NOWARN);
	if (page && first)
		p->nested_page_pfmemalloc = PagePfmemalloc(page);
	if (page)
		__free_page(page);
	page = alloc_page(GFP_KERNEL | __GFP_NOWARN | __GFP_NOMEMALLOC);
	if (first)
		p->nested_nomemalloc_null = page == NULL;
	if (page)
		__free_page(page);
	p->stalls_inside += stalls() - before;
}

static unsigned long pool_scan(struct shrinker *s, struct shrink_control *sc)
{
	struct pool *p = to_pool(s);
	unsigned long freed = 0;

	p->scan_calls++;
	p->max_to_scan = max(p->max_to_scan, sc->nr_to_scan);
	p->min_to_scan = p->min_to_scan ? min(p->min_to_scan, sc->nr_to_scan) :
					  sc->nr_to_scan;
	if (p->in_scan)
		p->recursions++;
	p->in_scan = true;
	if (p->allocate)
		pool_allocate(p);
	if (p->stop) {
		p->in_scan = false;
		return SHRINK_STOP;
	}
	while (p->pages && freed < sc->nr_to_scan) {
		struct hog *next = p->pages->next;

		__free_page(virt_to_page(p->pages));
		p->pages = next;
		p->nr--;
		freed++;
	}
	p->freed += freed;
	p->in_scan = false;
	return freed;
}

/* A pool of nr pages, registered with the given batch. */
static void pool_init(struct ktest *t, struct pool *p, unsigned long nr,
		      long batch)
{
	memset(p, 0, sizeof(*p));
	p->shrinker.count_objects = pool_count;
	p->shrinker.scan_objects = pool_scan;
	p->shrinker.seeks = DEFAULT_SEEKS;
	p->shrinker.batch = batch;
	for (unsigned long i = 0; i < nr; i++) {
		struct page *page = alloc_page(GFP_KERNEL);
		struct hog *h;

		KTEST_ASSERT_NOT_NULL(t, page);
		h = page_address(page);
		h->order = 0;
		h->next = p->pages;
		p->pages = h;
		p->nr++;
	}
	KTEST_ASSERT_EQ(t, register_shrinker(&p->shrinker, "t-pool-%lu", nr), 0);
}

static void pool_destroy(struct pool *p)
{
	unregister_shrinker(&p->shrinker);
	release_memory(p->pages);
	p->pages = NULL;
	p->nr = 0;
}

/* --- the allocators' own caches ------------------------------------------ */

/* Allocate nr objects of c and free them all: they stay in c's care. */
static void fill_and_free(struct ktest *t, struct kmem_cache *c,
			  unsigned int nr)
{
	void **objs = kmalloc_array(nr, sizeof(void *), GFP_KERNEL);

	KTEST_ASSERT_NOT_NULL(t, objs);
	for (unsigned int i = 0; i < nr; i++) {
		objs[i] = c ? kmem_cache_alloc(c, GFP_KERNEL) :
			      kmalloc(64, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, objs[i]);
	}
	for (unsigned int i = 0; i < nr; i++) {
		if (c)
			kmem_cache_free(c, objs[i]);
		else
			kfree(objs[i]);
	}
	kfree(objs);
}

/* What a cache keeps: pages of its slabs (all free after fill_and_free). */
static unsigned long cache_kept_pages(struct kmem_cache *c)
{
	return get_node(c, 0)->total_slabs << c->gfporder;
}

/*
 * Free objects a cache keeps: in its slabs and arrays, and freed ones
 * waiting in KASAN's quarantine (which reclaim empties first).
 */
static unsigned long cache_kept_objects(struct kmem_cache *c)
{
	struct kmem_cache_node *n = get_node(c, 0);
	unsigned long objs = n->free_objects + cpu_cache_get(c)->avail +
			     kasan_quarantine_cache_objects(c);

	return objs + (n->shared ? n->shared->avail : 0);
}

static void test_reclaims_slab_caches(struct ktest *t)
{
	struct kmem_cache *a = kmem_cache_create("t-reclaim-a", 200, 0, 0, NULL);
	struct kmem_cache *b = kmem_cache_create("t-reclaim-b", 1000, 0,
						 SLAB_RECLAIM_ACCOUNT, NULL);
	unsigned long kept, got, stall0, steal0;
	struct hog *hog, *more = NULL;
	struct page *page;

	KTEST_ASSERT_NOT_NULL(t, a);
	KTEST_ASSERT_NOT_NULL(t, b);
	hold_off_cache_reap(t);		/* what the caches keep is counted */
	fill_and_free(t, a, 600);
	fill_and_free(t, b, 200);
	fill_and_free(t, NULL, 400);		/* kmalloc-64 */
	kept = cache_kept_pages(a) + cache_kept_pages(b);
	KTEST_ASSERT_GT(t, cache_kept_objects(a), 0UL);
	KTEST_ASSERT_GT(t, cache_kept_objects(b), 0UL);
	/* A debugged cache keeps no arrays: only its free slabs, fewer. */
	KTEST_ASSERT_GE(t, kept, cache_debug(a) ? 8UL : 48UL);
	ktest_info(t, "the test caches keep %lu pages", kept);

	hog = hog_noreclaim(GFP_KERNEL);
	KTEST_EXPECT_NULL(t, alloc_page(GFP_HOG));
	/* The caches were not touched by the failures. */
	KTEST_EXPECT_EQ(t, cache_kept_pages(a) + cache_kept_pages(b), kept);

	stall0 = global_vm_event(ALLOCSTALL_NORMAL);
	steal0 = global_vm_event(PGSTEAL_DIRECT);
	page = alloc_page(GFP_KERNEL | __GFP_NOWARN);
	KTEST_EXPECT_NOT_NULL(t, page);
	KTEST_EXPECT_GE(t, global_vm_event(ALLOCSTALL_NORMAL), stall0 + 1);
	KTEST_EXPECT_GE(t, global_vm_event(PGSTEAL_DIRECT), steal0 + kept);
	/* Everything went back: this CPU's arrays, shared, free slabs. */
	KTEST_EXPECT_EQ(t, cache_kept_objects(a), 0UL);
	KTEST_EXPECT_EQ(t, cache_kept_objects(b), 0UL);
	KTEST_EXPECT_EQ(t, cache_kept_pages(a) + cache_kept_pages(b), 0UL);
	KTEST_EXPECT_EQ(t, cpu_cache_get(kmalloc_slab(64, 0))->avail, 0U);
	/* And the memory is there to use: at least what the caches kept. */
	got = grab_pages(&more, GFP_KERNEL) + (page ? 1 : 0);
	ktest_info(t, "%lu pages after reclaim", got);
	/* Less the per-CPU list slack of each zone's watermark. */
	KTEST_EXPECT_GE(t, got + 32, kept);
	if (page)
		__free_page(page);
	release_memory(more);
	release_memory(hog);
	kmem_cache_destroy(a);
	kmem_cache_destroy(b);
}

/* Without reclaim the same allocation fails, and nothing is drained. */
static void test_noretry_fails_fast(struct ktest *t)
{
	struct kmem_cache *a = kmem_cache_create("t-reclaim-nr", 200, 0, 0, NULL);
	unsigned long kept, stall0;
	struct hog *hog;
	struct pool p;

	KTEST_ASSERT_NOT_NULL(t, a);
	hold_off_cache_reap(t);		/* "nothing is drained": by reclaim */
	pool_init(t, &p, 32, 8);
	fill_and_free(t, a, 600);
	kept = cache_kept_objects(a);
	hog = hog_noreclaim(GFP_KERNEL);
	stall0 = stalls();
	KTEST_EXPECT_NULL(t, alloc_page(GFP_HOG));
	KTEST_EXPECT_NULL(t, alloc_pages(GFP_HOG, 2));
	KTEST_EXPECT_EQ(t, stalls(), stall0);
	KTEST_EXPECT_EQ(t, p.count_calls, 0UL);
	KTEST_EXPECT_EQ(t, cache_kept_objects(a), kept);
	KTEST_EXPECT_EQ(t, p.nr, 32UL);
	release_memory(hog);
	pool_destroy(&p);
	kmem_cache_destroy(a);
}

/* --- shrinkers ------------------------------------------------------------- */

static void test_shrinker_asked_and_used(struct ktest *t)
{
	unsigned long scanned0 = global_vm_event(SLABS_SCANNED);
	struct hog *hog;
	struct page *page;
	struct pool p;

	pool_init(t, &p, 64, 16);
	hog = hog_noreclaim(GFP_KERNEL);
	page = alloc_page(GFP_KERNEL | __GFP_NOWARN);
	KTEST_EXPECT_NOT_NULL(t, page);
	KTEST_EXPECT_GE(t, p.count_calls, 1UL);
	KTEST_EXPECT_GE(t, p.scan_calls, 1UL);
	KTEST_EXPECT_EQ(t, p.max_to_scan, 16UL);	/* one batch a call */
	KTEST_EXPECT_EQ(t, p.min_to_scan, 16UL);
	KTEST_EXPECT_EQ(t, p.freed, 32UL);	/* (64 >> 2) * 4 / 2 */
	KTEST_EXPECT_EQ(t, p.nr + p.freed, 64UL);
	KTEST_EXPECT_TRUE(t, p.gfp_seen & __GFP_DIRECT_RECLAIM);
	KTEST_EXPECT_GE(t, global_vm_event(SLABS_SCANNED), scanned0 + p.freed);
	if (page)
		__free_page(page);
	release_memory(hog);
	pool_destroy(&p);
}

/*
 * How much a pass asks (mm/vmscan.c, rule 5): at priority 2 a pool of
 * 256 with seeks 2 is asked for (256 >> 2) * 4 / 2 = 128 objects, in
 * four batches of 32; that is enough, so no lower priority runs.
 */
static void test_shrinker_share(struct ktest *t)
{
	struct hog *hog;
	struct page *page;
	struct pool p;

	pool_init(t, &p, 256, 32);
	hog = hog_noreclaim(GFP_KERNEL);
	page = alloc_page(GFP_KERNEL | __GFP_NOWARN);
	KTEST_EXPECT_NOT_NULL(t, page);
	KTEST_EXPECT_EQ(t, p.count_calls, 1UL);
	KTEST_EXPECT_EQ(t, p.scan_calls, 4UL);
	KTEST_EXPECT_EQ(t, p.freed, 128UL);
	KTEST_EXPECT_EQ(t, p.max_to_scan, 32UL);
	if (page)
		__free_page(page);
	release_memory(hog);
	pool_destroy(&p);
}

static void test_shrink_stop_honoured(struct ktest *t)
{
	struct hog *hog;
	struct page *page;
	struct pool p;

	pool_init(t, &p, 64, 16);
	p.stop = true;
	hog = hog_noreclaim(GFP_KERNEL);
	page = alloc_page(GFP_KERNEL | __GFP_NOWARN);
	/* Each pass: one count, one scan that says stop, no second batch. */
	KTEST_EXPECT_GE(t, p.scan_calls, 1UL);
	KTEST_EXPECT_EQ(t, p.scan_calls, p.count_calls);
	KTEST_EXPECT_EQ(t, p.nr, 64UL);
	if (page)
		__free_page(page);
	release_memory(hog);
	pool_destroy(&p);
}

static void test_unregistered_not_called(struct ktest *t)
{
	struct hog *hog;
	struct page *page;
	struct pool p;

	pool_init(t, &p, 16, 0);
	unregister_shrinker(&p.shrinker);
	unregister_shrinker(&p.shrinker);	/* twice: nothing happens */
	hog = hog_noreclaim(GFP_KERNEL);
	page = alloc_page(GFP_KERNEL | __GFP_NOWARN);
	KTEST_EXPECT_EQ(t, p.count_calls, 0UL);
	KTEST_EXPECT_EQ(t, p.scan_calls, 0UL);
	KTEST_EXPECT_EQ(t, p.nr, 16UL);
	if (page)
		__free_page(page);
	release_memory(hog);
	pool_destroy(&p);
}

/* Each side's wait for the other: in time, since a busy host may not run it. */
#define UNREG_WAIT_S	20

/*
 * Another CPU is inside a shrinker's callback: unregister_shrinker()
 * waits for it to return, and the shrinker is not called afterwards.
 * (The host build runs CPUs as threads; x86_64 runs one CPU yet.)
 */
static struct unreg_race {
	struct pool pool;
	volatile bool entered, unregistering, done;
} unreg_race;

static unsigned long slow_scan(struct shrinker *s, struct shrink_control *sc)
{
	struct unreg_race *r = container_of(to_pool(s), struct unreg_race, pool);

	__atomic_store_n(&r->entered, true, __ATOMIC_RELEASE);
	wait_flag(&r->unregistering, UNREG_WAIT_S);
	for (int i = 0; i < 200000; i++)	/* unregister is waiting now */
		arch_cpu_relax();
	__atomic_store_n(&r->done, true, __ATOMIC_RELEASE);
	return pool_scan(s, sc);
}

static void reclaim_on_cpu1(void *arg)
{
	(void)arg;
	try_to_free_pages(GFP_KERNEL, 0, 0);
}

static void test_unregister_waits_for_callback(struct ktest *t)
{
	struct unreg_race *r = &unreg_race;
	unsigned long calls;
	int err;

	pool_init(t, &r->pool, 16, 0);
	unregister_shrinker(&r->pool.shrinker);
	r->pool.shrinker.scan_objects = slow_scan;
	r->entered = r->unregistering = r->done = false;
	KTEST_ASSERT_EQ(t, register_shrinker(&r->pool.shrinker, "t-slow"), 0);
	err = arch_cpu_run(1, reclaim_on_cpu1, NULL);
	if (err == -ENOSYS || (err == -EINVAL && nr_cpu_ids < 2)) {
		pool_destroy(&r->pool);
		ktest_skip(t, "no second CPU to run work on (arch_cpu_run)");
	}
	KTEST_ASSERT_EQ(t, err, 0);
	KTEST_EXPECT_TRUE(t, wait_flag(&r->entered, UNREG_WAIT_S));
	__atomic_store_n(&r->unregistering, true, __ATOMIC_RELEASE);
	unregister_shrinker(&r->pool.shrinker);
	KTEST_EXPECT_TRUE(t, __atomic_load_n(&r->done, __ATOMIC_ACQUIRE));
	arch_cpu_join(1);
	calls = r->pool.count_calls;
	KTEST_EXPECT_EQ(t, calls, 1UL);
	try_to_free_pages(GFP_KERNEL, 0, 0);
	KTEST_EXPECT_EQ(t, r->pool.count_calls, calls);
	pool_destroy(&r->pool);
}

static unsigned long count_dummy(struct shrinker *s, struct shrink_control *sc)
{
	(void)s;
	(void)sc;
	return 0;
}

static void test_register_bad_input(struct ktest *t)
{
	struct shrinker s = { .count_objects = count_dummy,
			      .scan_objects = count_dummy,
			      .seeks = DEFAULT_SEEKS };
	struct shrinker bad;

	KTEST_EXPECT_EQ(t, register_shrinker(NULL, "x"), -EINVAL);
	KTEST_EXPECT_EQ(t, register_shrinker(&s, NULL), -EINVAL);
	bad = s;
	bad.scan_objects = NULL;
	KTEST_EXPECT_EQ(t, register_shrinker(&bad, "x"), -EINVAL);
	bad = s;
	bad.count_objects = NULL;
	KTEST_EXPECT_EQ(t, register_shrinker(&bad, "x"), -EINVAL);
	bad = s;
	bad.batch = -1;
	KTEST_EXPECT_EQ(t, register_shrinker(&bad, "x"), -EINVAL);
	bad = s;
	bad.seeks = -2;
	KTEST_EXPECT_EQ(t, register_shrinker(&bad, "x"), -EINVAL);
	bad = s;
	bad.flags = 1U << 20;
	KTEST_EXPECT_EQ(t, register_shrinker(&bad, "x"), -EINVAL);
	unregister_shrinker(NULL);
	unregister_shrinker(&bad);		/* never registered */

	s.flags = SHRINKER_NUMA_AWARE;
	KTEST_ASSERT_EQ(t, register_shrinker(&s, "t-%s-%d", "named", 42), 0);
	KTEST_EXPECT_STREQ(t, s.name, "t-named-42");
	KTEST_EXPECT_EQ(t, register_shrinker(&s, "again"), -EBUSY);
	unregister_shrinker(&s);
	/* A long name is cut, not overflowed. */
	KTEST_ASSERT_EQ(t, register_shrinker(&s, "%s",
		"a-name-far-longer-than-the-thirty-one-characters-kept"), 0);
	KTEST_EXPECT_EQ(t, strlen(s.name), (size_t)SHRINKER_NAME_LEN - 1);
	unregister_shrinker(&s);
}

/* --- no recursion ---------------------------------------------------------- */

static void test_no_recursion_in_shrinker(struct ktest *t)
{
	unsigned long stall0;
	struct hog *hog;
	struct page *page;
	struct pool p;

	pool_init(t, &p, 64, 16);
	p.allocate = true;
	hog = hog_noreclaim(GFP_KERNEL);
	stall0 = stalls();
	KTEST_EXPECT_EQ(t, current_reclaim_depth(), 0U);
	KTEST_EXPECT_FALSE(t, memalloc_noreclaim_active());
	page = alloc_page(GFP_KERNEL | __GFP_NOWARN);
	KTEST_EXPECT_NOT_NULL(t, page);
	KTEST_EXPECT_GE(t, p.scan_calls, 1UL);
	KTEST_EXPECT_EQ(t, p.recursions, 0U);
	KTEST_EXPECT_EQ(t, p.depth_seen, 1U);
	/* Only the outer allocation stalled; those inside did not. */
	KTEST_EXPECT_EQ(t, p.stalls_inside, 0UL);
	KTEST_EXPECT_GE(t, stalls(), stall0 + 1);
	/* Inside reclaim the reserve may be used, unless refused. */
	KTEST_EXPECT_TRUE(t, p.nested_kmalloc_ok);
	KTEST_EXPECT_TRUE(t, p.nested_page_pfmemalloc);
	KTEST_EXPECT_TRUE(t, p.nested_nomemalloc_null);
	KTEST_EXPECT_EQ(t, current_reclaim_depth(), 0U);
	KTEST_EXPECT_FALSE(t, memalloc_noreclaim_active());
	if (page)
		__free_page(page);
	release_memory(hog);
	pool_destroy(&p);
}

/* memalloc_noreclaim_save() by hand: no reclaim, the reserve allowed. */
static void test_memalloc_scope(struct ktest *t)
{
	unsigned long stall0;
	unsigned int old;
	struct kmem_cache *c = kmem_cache_create("t-reclaim-memalloc", 256, 0,
						 0, NULL);
	struct page *page, *reserve;
	struct hog *hog;
	struct pool p;
	void *obj;

	KTEST_ASSERT_NOT_NULL(t, c);
	pool_init(t, &p, 32, 8);
	hog = hog_noreclaim(GFP_KERNEL);
	stall0 = stalls();
	old = memalloc_noreclaim_save();
	/* A new slab from the reserve, its objects for this scope only. */
	obj = kmem_cache_alloc(c, GFP_KERNEL | __GFP_NOWARN);
	KTEST_EXPECT_NOT_NULL(t, obj);
	KTEST_EXPECT_TRUE(t, obj && slab_test_pfmemalloc(virt_to_slab(obj)));
	KTEST_EXPECT_TRUE(t, memalloc_noreclaim_active());
	page = alloc_page(GFP_KERNEL | __GFP_NOWARN | __GFP_NOMEMALLOC);
	KTEST_EXPECT_NULL(t, page);
	reserve = alloc_page(GFP_KERNEL | __GFP_NOWARN);
	KTEST_EXPECT_NOT_NULL(t, reserve);
	KTEST_EXPECT_TRUE(t, reserve && PagePfmemalloc(reserve));
	memalloc_noreclaim_restore(old);
	KTEST_EXPECT_FALSE(t, memalloc_noreclaim_active());
	KTEST_EXPECT_NULL(t, kmem_cache_alloc(c, GFP_HOG));
	KTEST_EXPECT_EQ(t, stalls(), stall0);
	KTEST_EXPECT_EQ(t, p.count_calls, 0UL);
	if (page)
		__free_page(page);
	if (reserve)
		__free_page(reserve);
	kmem_cache_free(c, obj);
	release_memory(hog);
	pool_destroy(&p);
	kmem_cache_destroy(c);
}

/*
 * A cache made while memory is short: its allocations may reclaim, some
 * of them under slab_lock; it is made, and nothing deadlocks.
 */
static void test_create_cache_under_pressure(struct ktest *t)
{
	struct kmem_cache *c;
	struct hog *hog;
	struct pool p;

	pool_init(t, &p, 128, 16);
	kmem_cache_shrink_all();
	hog = hog_noreclaim(GFP_KERNEL);
	c = kmem_cache_create("t-reclaim-create", 300, 0, 0, NULL);
	KTEST_EXPECT_NOT_NULL(t, c);
	release_memory(hog);
	kmem_cache_destroy(c);
	pool_destroy(&p);
}

/*
 * An allocation under slab_lock (kmem_cache_walk holds it around its
 * callback, as kmem_cache_create does around its arrays): reclaim cannot
 * have the cache list, so it leaves the caches alone and gets memory
 * from the shrinkers, without waiting for the lock this CPU holds.
 */
static struct under_lock {
	struct kmem_cache *cache;
	unsigned long kept_before, kept_after;
	struct page *page;
	bool done;
} under_lock;

static void alloc_under_slab_lock(struct kmem_cache *cachep, long in_use,
				  void *data)
{
	struct under_lock *u = data;

	(void)cachep;
	(void)in_use;
	if (u->done)
		return;
	u->done = true;
	u->kept_before = cache_kept_pages(u->cache);
	u->page = alloc_page(GFP_KERNEL | __GFP_NOWARN);
	u->kept_after = cache_kept_pages(u->cache);
}

static void test_reclaim_under_slab_lock(struct ktest *t)
{
	struct under_lock *u = &under_lock;
	struct hog *hog;
	struct pool p;

	memset(u, 0, sizeof(*u));
	u->cache = kmem_cache_create("t-reclaim-locked", 200, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, u->cache);
	fill_and_free(t, u->cache, 600);
	pool_init(t, &p, 64, 16);
	hog = hog_noreclaim(GFP_KERNEL);
	kmem_cache_walk(alloc_under_slab_lock, u);
	KTEST_EXPECT_TRUE(t, u->done);
	KTEST_EXPECT_NOT_NULL(t, u->page);
	KTEST_EXPECT_GE(t, p.scan_calls, 1UL);
	KTEST_EXPECT_GT(t, u->kept_before, 0UL);
	KTEST_EXPECT_EQ(t, u->kept_after, u->kept_before);	/* skipped */
	if (u->page)
		__free_page(u->page);
	release_memory(hog);
	pool_destroy(&p);
	kmem_cache_destroy(u->cache);
}

/* --- callers that cannot reclaim ------------------------------------------ */

static void atomic_case(struct ktest *t, gfp_t gfp)
{
	unsigned long stall0;
	struct hog *hog;
	struct page *page;
	struct pool p;

	pool_init(t, &p, 64, 16);
	hog = hog_noreclaim(gfp);
	stall0 = stalls();
	page = alloc_page(gfp | __GFP_NOWARN);
	KTEST_EXPECT_EQ(t, p.count_calls, 0UL);
	KTEST_EXPECT_EQ(t, p.scan_calls, 0UL);
	KTEST_EXPECT_EQ(t, stalls(), stall0);
	/* What it may take, it took: this CPU's page lists are empty. */
	if (!page) {
		struct zone *zone;

		for_each_zone(zone)
			KTEST_EXPECT_EQ(t,
					pcp_pages(&zone->pcp[arch_cpu_id()]),
					0UL);
	}
	if (page)
		__free_page(page);
	release_memory(hog);
	pool_destroy(&p);
}

static void test_atomic_no_shrinkers(struct ktest *t)
{
	atomic_case(t, GFP_ATOMIC);
}

static void test_nowait_no_shrinkers(struct ktest *t)
{
	atomic_case(t, GFP_NOWAIT);
}

static unsigned long local_pcp_pages(void)
{
	unsigned long sum = 0;
	struct zone *zone;

	for_each_zone(zone)
		sum += pcp_pages(&zone->pcp[arch_cpu_id()]);
	return sum;
}

/*
 * What a caller that may not wait gets from a pass: this CPU's own page
 * lists, moved to the buddy lists; no stall counted, no shrinker.
 * __GFP_NORETRY gets nothing.
 */
static void test_nowait_pass_drains_local_pages(struct ktest *t)
{
	unsigned long stall0 = stalls(), free0, local;
	struct page *pages[8];
	struct pool p;

	pool_init(t, &p, 16, 0);
	for (int i = 0; i < 8; i++)
		pages[i] = alloc_page(GFP_KERNEL);
	for (int i = 0; i < 8; i++) {
		if (pages[i])
			__free_page(pages[i]);
	}
	local = local_pcp_pages();
	KTEST_ASSERT_GT(t, local, 0UL);
	free0 = nr_free_pages();
	KTEST_EXPECT_EQ(t, try_to_free_pages(GFP_NOWAIT | __GFP_NORETRY, 0, 0),
			0UL);
	KTEST_EXPECT_EQ(t, local_pcp_pages(), local);
	KTEST_EXPECT_EQ(t, try_to_free_pages(GFP_NOWAIT, 0, 0), local);
	KTEST_EXPECT_EQ(t, local_pcp_pages(), 0UL);
	KTEST_EXPECT_EQ(t, nr_free_pages(), free0 + local);
	KTEST_EXPECT_EQ(t, stalls(), stall0);
	KTEST_EXPECT_EQ(t, p.count_calls, 0UL);
	pool_destroy(&p);
}

/* --- stress with fault injection ------------------------------------------- */

static void test_stress_failures_under_pressure(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("t-reclaim-stress", 136, 0,
						 0, NULL);
	unsigned long stall0 = stalls();
	struct slab_stress ss = { 0 };
	struct page_stress ps = { 0 };
	struct hog *hog;
	struct pool p;

	KTEST_ASSERT_NOT_NULL(t, c);
	pool_init(t, &p, 256, 32);
	hog = hog_noreclaim(GFP_KERNEL);
	hog = hog_release_some(hog, 32);
	KTEST_ASSERT_EQ(t, fault_attr_set(&failslab, "1,1,0,-1", 7), 0);
	KTEST_ASSERT_EQ(t, fault_attr_set(&fail_page_alloc, "1,1,0,-1", 8), 0);
	for (u64 round = 0; round < 10; round++) {
		struct slab_stress s = { 0 };
		struct page_stress q = { 0 };

		slab_stress(c, 1000, 4096, 100 + round, &s);
		page_stress(300, 200 + round, &q);
		ss.allocs += s.allocs;
		ss.failed += s.failed;
		ss.corrupt += s.corrupt;
		ps.allocs += q.allocs;
		ps.failed += q.failed;
		ps.corrupt += q.corrupt + q.not_zeroed + q.misaligned;
	}
	fault_attr_disable(&failslab);
	fault_attr_disable(&fail_page_alloc);
	ktest_info(t, "slab %lu allocs %lu failed, pages %lu allocs %lu failed, %lu stalls, %lu+%lu injected",
		   ss.allocs, ss.failed, ps.allocs, ps.failed, stalls() - stall0,
		   failslab.failures, fail_page_alloc.failures);
	KTEST_EXPECT_EQ(t, ss.corrupt, 0UL);
	KTEST_EXPECT_EQ(t, ps.corrupt, 0UL);
	KTEST_EXPECT_GT(t, failslab.failures + fail_page_alloc.failures, 0UL);
	KTEST_EXPECT_GT(t, stalls(), stall0);	/* reclaim did run */
	release_memory(hog);
	pool_destroy(&p);
	kmem_cache_destroy(c);
	KTEST_EXPECT_EQ(t, slab_validate_all(), 0);
}

/* --- counters and shell commands ------------------------------------------- */

static int run(const char *cmd)
{
	char line[64];

	strscpy(line, cmd, sizeof(line));
	return shell_exec(line);
}

static void test_drop_caches(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("t-reclaim-drop", 500, 0, 0,
						 NULL);
	unsigned long drops = global_vm_event(DROP_SLAB);
	unsigned long pc = global_vm_event(DROP_PAGECACHE);
	struct pool p;

	KTEST_ASSERT_NOT_NULL(t, c);
	fill_and_free(t, c, 300);
	pool_init(t, &p, 40, 0);
	KTEST_ASSERT_GT(t, cache_kept_pages(c), 0UL);
	ktest_capture_start(t, "pages freed");
	KTEST_EXPECT_EQ(t, run("drop_caches 2"), 0);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_EQ(t, global_vm_event(DROP_SLAB), drops + 1);
	KTEST_EXPECT_EQ(t, cache_kept_pages(c), 0UL);
	/* Shrinkers are asked until they free little: the pool is empty. */
	KTEST_EXPECT_EQ(t, p.nr, 0UL);
	KTEST_EXPECT_EQ(t, run("drop_caches 1"), 0);
	KTEST_EXPECT_EQ(t, global_vm_event(DROP_PAGECACHE), pc + 1);
	KTEST_EXPECT_EQ(t, global_vm_event(DROP_SLAB), drops + 1);
	KTEST_EXPECT_EQ(t, run("drop_caches 3"), 0);
	KTEST_EXPECT_EQ(t, global_vm_event(DROP_SLAB), drops + 2);
	KTEST_EXPECT_EQ(t, global_vm_event(DROP_PAGECACHE), pc + 2);

	ktest_capture_start(t, "usage: drop_caches");
	KTEST_EXPECT_EQ(t, run("drop_caches"), -EINVAL);
	KTEST_EXPECT_EQ(t, run("drop_caches 0"), -EINVAL);
	KTEST_EXPECT_EQ(t, run("drop_caches 4"), -EINVAL);
	KTEST_EXPECT_EQ(t, run("drop_caches 2x"), -EINVAL);
	KTEST_EXPECT_EQ(t, run("drop_caches -2"), -EINVAL);
	KTEST_EXPECT_EQ(t, run("drop_caches 2 3"), -EINVAL);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 6U);
	KTEST_EXPECT_EQ(t, global_vm_event(DROP_SLAB), drops + 2);
	pool_destroy(&p);
	kmem_cache_destroy(c);
}

static void test_vmstat_command(struct ktest *t)
{
	char want[64];

	ktest_capture_start(t, NULL);
	KTEST_EXPECT_EQ(t, run("vmstat"), 0);
	ktest_capture_stop(t);
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++) {
		snprintf(want, sizeof(want), "%s %lu\n", vm_event_names[i],
			 global_vm_event((enum vm_event_item)i));
		KTEST_EXPECT_CAPTURED(t, want);
	}
	KTEST_EXPECT_CAPTURED(t, "nr_slab_reclaimable ");
	KTEST_EXPECT_CAPTURED(t, "nr_free_pages ");
	KTEST_EXPECT_CAPTURED(t, "allocstall_normal ");
	ktest_capture_start(t, "usage: vmstat");
	KTEST_EXPECT_EQ(t, run("vmstat extra"), -EINVAL);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
}

static void test_reclaimable_accounting(struct ktest *t)
{
	struct kmem_cache *r = kmem_cache_create("t-reclaim-acct", 512, 0,
						 SLAB_RECLAIM_ACCOUNT, NULL);
	struct kmem_cache *u = kmem_cache_create("t-reclaim-unacct", 512, 0,
						 0, NULL);
	unsigned long r0 = slab_reclaimable_pages(), all0 = slab_pages();
	void *a[64], *b[64];

	KTEST_ASSERT_NOT_NULL(t, r);
	KTEST_ASSERT_NOT_NULL(t, u);
	for (int i = 0; i < 64; i++) {
		a[i] = kmem_cache_alloc(r, GFP_KERNEL);
		b[i] = kmem_cache_alloc(u, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, a[i]);
		KTEST_ASSERT_NOT_NULL(t, b[i]);
	}
	KTEST_EXPECT_EQ(t, slab_reclaimable_pages() - r0, cache_kept_pages(r));
	KTEST_EXPECT_GE(t, slab_pages() - all0,
			cache_kept_pages(r) + cache_kept_pages(u));
	ktest_capture_start(t, NULL);
	KTEST_EXPECT_EQ(t, run("meminfo"), 0);
	ktest_capture_stop(t);
	KTEST_EXPECT_CAPTURED(t, "KReclaimable:");
	KTEST_EXPECT_CAPTURED(t, "SReclaimable:");
	KTEST_EXPECT_CAPTURED(t, "SUnreclaim:");
	for (int i = 0; i < 64; i++) {
		kmem_cache_free(r, a[i]);
		kmem_cache_free(u, b[i]);
	}
	kmem_cache_destroy(r);
	kmem_cache_destroy(u);
	KTEST_EXPECT_EQ(t, slab_reclaimable_pages(), r0);
}

/* allocstall_<zone> names the highest zone the allocation may use. */
static void test_allocstall_by_zone(struct ktest *t)
{
	unsigned long dma = global_vm_event(ALLOCSTALL_DMA);
	unsigned long dma32 = global_vm_event(ALLOCSTALL_DMA32);
	unsigned long normal = global_vm_event(ALLOCSTALL_NORMAL);
	struct hog *hog = hog_noreclaim(GFP_KERNEL);
	struct page *page;

	page = alloc_page(GFP_KERNEL | GFP_DMA32 | __GFP_NOWARN);
	KTEST_EXPECT_GE(t, global_vm_event(ALLOCSTALL_DMA32), dma32 + 1);
	KTEST_EXPECT_EQ(t, global_vm_event(ALLOCSTALL_NORMAL), normal);
	KTEST_EXPECT_EQ(t, global_vm_event(ALLOCSTALL_DMA), dma);
	if (page)
		__free_page(page);
	page = alloc_page(GFP_KERNEL | GFP_DMA | __GFP_NOWARN);
	KTEST_EXPECT_GE(t, global_vm_event(ALLOCSTALL_DMA), dma + 1);
	KTEST_EXPECT_EQ(t, global_vm_event(ALLOCSTALL_NORMAL), normal);
	if (page)
		__free_page(page);
	release_memory(hog);
}

static const struct ktest_case reclaim_cases[] = {
	KTEST_CASE(test_reclaims_slab_caches),
	KTEST_CASE(test_noretry_fails_fast),
	KTEST_CASE(test_shrinker_asked_and_used),
	KTEST_CASE(test_shrinker_share),
	KTEST_CASE(test_shrink_stop_honoured),
	KTEST_CASE(test_unregistered_not_called),
	KTEST_CASE(test_unregister_waits_for_callback),
	KTEST_CASE(test_register_bad_input),
	KTEST_CASE(test_no_recursion_in_shrinker),
	KTEST_CASE(test_memalloc_scope),
	KTEST_CASE(test_create_cache_under_pressure),
	KTEST_CASE(test_reclaim_under_slab_lock),
	KTEST_CASE(test_atomic_no_shrinkers),
	KTEST_CASE(test_nowait_no_shrinkers),
	KTEST_CASE(test_nowait_pass_drains_local_pages),
	KTEST_CASE(test_stress_failures_under_pressure),
	KTEST_CASE(test_drop_caches),
	KTEST_CASE(test_vmstat_command),
	KTEST_CASE(test_allocstall_by_zone),
	KTEST_CASE(test_reclaimable_accounting),
	{}
};

KTEST_SUITE(reclaim, reclaim_cases);

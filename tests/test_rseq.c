// SPDX-License-Identifier: GPL-2.0
/*
 * The fast paths of SLAB and of the page allocator are restartable
 * sequences (kernel/rseq.h): an interrupt inside the pop or the push
 * rewinds it to its restart before the handler runs. Here the interrupt
 * lands at every instruction of a sequence in turn: arch_single_step()
 * traps after each instruction, and at the Nth instruction of the
 * sequence the trap does what an interrupt entry does (rseq_fixup_ip())
 * and then what a handler may: it allocates two objects (or pages) from
 * the same cache (the same per-CPU list) and frees the first. For N = 1,
 * 2, ... until the sequence completes before its Nth step, the array
 * (the list) must then hold exactly what it held, less what the handler
 * and the caller kept, plus what the caller freed: nothing lost, nothing
 * twice, the count right. Every instruction of the sequence must have
 * been interrupted once (the sequence's bounds come from its table
 * entry). Without the rewind the handler's changes are overwritten by
 * the interrupted commit, and these checks fail.
 *
 * The stepping runs with interrupts off, so that no real interrupt
 * rewinds the sequence between the steps. White-box: reads the arrays
 * and the lists.
 *
 * Then the real thing: other CPUs allocate and free objects and pages
 * in a loop while this one sends them cross-CPU calls whose handlers
 * allocate from the same cache and lists and keep one object and one
 * page until the next call, until enough of them landed inside a
 * sequence (rseq_restart_count()); every object must come back (a lost
 * one stays in a slab, one handed out twice is freed twice: SLAB's BUG;
 * a page handed out twice is a "Bad page state" report).
 */
#include "arch/arch.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/rseq.h"
#include "kernel/smp.h"
#include "lib/bitops.h"
#include "lib/ktest/ktest.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/internal.h"	/* white-box: the per-CPU page lists */
#include "mm/kasan.h"
#include "mm/kfence.h"
#include "mm/page_debug.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"
#include "mm/slab_stats.h"

#define OBJ_SIZE	64
#define FILL		16	/* objects in the array before each run */
#define PAGE_FILL	6	/* pages on the list before each run */
#define MAX_AVAIL	256	/* the largest array snapshot */
#define MAX_SEQ_BYTES	64	/* a sequence's length, at most */
#define STEP_LIMIT	100000	/* a runaway stepping fails, never hangs */

struct rseq_run;

/* What the stepped calls and the handler use: a cache, kmalloc, pages. */
struct rseq_target {
	void *(*alloc)(struct rseq_run *r, gfp_t gfp);
	void (*free)(struct rseq_run *r, void *objp);
	/* The CPU's stack: its entries into objs, its count and limit. */
	unsigned int (*snapshot)(struct rseq_run *r, void **objs);
	unsigned int (*limit)(struct rseq_run *r);
	const char *(*name)(struct rseq_run *r);
	/* Before a run: room for the run's pushes (NULL: nothing to do). */
	void (*prepare)(struct rseq_run *r);
};

/* One stepped call of a fast path, interrupted at its inject_at'th step. */
struct rseq_run {
	const struct rseq_target *tg;
	struct kmem_cache *cachep;
	struct zone *zone;	/* pages: the zone of the list */
	bool free_op;
	void *obj;		/* freed (free_op), or allocated */
	unsigned int inject_at;	/* 1-based sequence step; 0: never */

	bool entered;		/* stepped into a sequence */
	bool done;		/* and out of it */
	unsigned long start, post_commit, restart, exit_ip;
	unsigned int total_steps, seq_steps;
	unsigned long hit;	/* offsets from start stepped */
	bool too_long;
	bool injected;
	unsigned int inject_off;
	unsigned long rewound_to;
	void *held;		/* kept by the handler */
	bool handler_failed;
	bool sampled;		/* KFENCE gave the handler an object */
};

static void *run_alloc(struct rseq_run *r, gfp_t gfp)
{
	return r->tg->alloc(r, gfp);
}

static void run_free(struct rseq_run *r, void *objp)
{
	r->tg->free(r, objp);
}

static void *cache_alloc(struct rseq_run *r, gfp_t gfp)
{
	return kmem_cache_alloc(r->cachep, gfp);
}

static void cache_free(struct rseq_run *r, void *objp)
{
	kmem_cache_free(r->cachep, objp);
}

static void *kmalloc_alloc(struct rseq_run *r, gfp_t gfp)
{
	(void)r;
	return kmalloc(OBJ_SIZE, gfp);
}

static void kmalloc_free(struct rseq_run *r, void *objp)
{
	(void)r;
	kfree(objp);
}

static unsigned int array_snapshot(struct rseq_run *r, void **objs)
{
	struct array_cache *ac = cpu_cache_get(r->cachep);
	unsigned int avail = READ_ONCE(ac->avail);

	for (unsigned int i = 0; i < avail && i < MAX_AVAIL; i++)
		objs[i] = ac->entry[i];
	return avail;
}

/*
 * The array's room: its limit, or the one cache_reap took away until
 * the next slow-path free (armed_limit, struct array_cache): a run that
 * meets an armed array leaves the fast path, and step_fast() tries it
 * again.
 */
static unsigned int array_limit(struct rseq_run *r)
{
	struct array_cache *ac = cpu_cache_get(r->cachep);

	return ac->armed_limit ? ac->armed_limit : ac->limit;
}

static const char *cache_name(struct rseq_run *r)
{
	return r->cachep->name;
}

static const struct rseq_target cache_target = {
	cache_alloc, cache_free, array_snapshot, array_limit, cache_name,
};

static const struct rseq_target kmalloc_target = {
	kmalloc_alloc, kmalloc_free, array_snapshot, array_limit, cache_name,
};

static void *page_alloc_one(struct rseq_run *r, gfp_t gfp)
{
	(void)r;
	return alloc_page(gfp);
}

static void page_free_one(struct rseq_run *r, void *page)
{
	(void)r;
	__free_page((struct page *)page);
}

static struct pcp_list *my_list(struct rseq_run *r)
{
	return r->zone->pcp[arch_cpu_id()].lists[0];
}

static unsigned int list_snapshot(struct rseq_run *r, void **objs)
{
	struct pcp_list *l = my_list(r);
	unsigned int count = READ_ONCE(l->count);

	for (unsigned int i = 0; i < count && i < MAX_AVAIL; i++)
		objs[i] = l->pages[i];
	return count;
}

static unsigned int list_limit(struct rseq_run *r)
{
	return my_list(r)->limit;
}

static const char *page_name(struct rseq_run *r)
{
	return r->zone->name;
}

/*
 * A slow-path allocation sets the lists' limits again (a fast-path push
 * only ever uses up the room they leave): room for the run's pushes.
 */
static void list_prepare(struct rseq_run *r)
{
	struct page *page = alloc_page(GFP_ATOMIC);

	(void)r;
	if (page)
		__free_page(page);
}

static const struct rseq_target page_target = {
	page_alloc_one, page_free_one, list_snapshot, list_limit, page_name,
	list_prepare,
};

/* What an interrupt handler may do: use the same cache. */
static void interrupt_body(struct rseq_run *r)
{
	void *h1 = run_alloc(r, GFP_ATOMIC);
	void *h2 = run_alloc(r, GFP_ATOMIC);

	r->handler_failed = !h1 || !h2;
	r->sampled = is_kfence_address(h1) || is_kfence_address(h2);
	if (h1)
		run_free(r, h1);
	r->held = h2;
}

/* The debug trap's hook, before each instruction of the stepped call. */
static bool rseq_step(unsigned long *ip, void *data)
{
	struct rseq_run *r = data;
	unsigned long off;

	if (++r->total_steps > STEP_LIMIT)
		return false;
	if (!r->entered) {
		const struct rseq_entry *e = rseq_search(*ip);

		if (!e)
			return true;
		r->entered = true;
		r->start = rseq_addr(&e->start);
		r->post_commit = rseq_addr(&e->post_commit);
		r->restart = rseq_addr(&e->restart);
	}
	if (*ip < r->start || *ip >= r->post_commit) {
		r->exit_ip = *ip;
		r->done = true;
		return false;
	}
	off = *ip - r->start;
	if (off < MAX_SEQ_BYTES)
		r->hit |= 1UL << off;
	else
		r->too_long = true;
	if (++r->seq_steps == r->inject_at) {
		r->injected = true;
		r->inject_off = off;
		rseq_fixup_ip(ip);	/* what the interrupt entry does */
		r->rewound_to = *ip;
		interrupt_body(r);
	}
	return true;
}

static void run_op(void *arg)
{
	struct rseq_run *r = arg;

	if (r->free_op)
		run_free(r, r->obj);
	else
		r->obj = run_alloc(r, GFP_KERNEL);
}

static unsigned int snapshot(struct rseq_run *r, void **objs)
{
	return r->tg->snapshot(r, objs);
}

static unsigned int count_in(void *const *objs, unsigned int nr, void *objp)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < nr; i++)
		n += objs[i] == objp;
	return n;
}

/*
 * After the run: the array (after) and what the caller and the handler
 * kept account for exactly the objects before, the freed one included.
 */
static void check_accounting(struct ktest *t, struct rseq_run *r,
			     void **before, unsigned int nr_before)
{
	void *after[MAX_AVAIL];
	unsigned int nr_after = snapshot(r, after);
	unsigned int kept = r->injected + !r->free_op;

	if (r->free_op)
		before[nr_before++] = r->obj;
	KTEST_EXPECT_EQ(t, nr_after + kept, nr_before);
	for (unsigned int i = 0; i < nr_after; i++) {
		KTEST_EXPECT_EQ(t, count_in(after, nr_after, after[i]), 1U);
		KTEST_EXPECT_EQ(t, count_in(before, nr_before, after[i]), 1U);
	}
	if (!r->free_op) {
		KTEST_EXPECT_EQ(t, count_in(before, nr_before, r->obj), 1U);
		KTEST_EXPECT_EQ(t, count_in(after, nr_after, r->obj), 0U);
	} else {
		KTEST_EXPECT_EQ(t, count_in(after, nr_after, r->obj), 1U);
	}
	if (r->injected) {
		KTEST_EXPECT_FALSE(t, r->handler_failed);
		KTEST_EXPECT_PTR_NE(t, r->held, r->obj);
		KTEST_EXPECT_EQ(t, count_in(before, nr_before, r->held), 1U);
		KTEST_EXPECT_EQ(t, count_in(after, nr_after, r->held), 0U);
	}
}

/* Undo a run: the objects the caller and the handler kept go back. */
static void run_undo(struct rseq_run *r)
{
	if (!r->free_op && r->obj)
		run_free(r, r->obj);
	if (r->held)
		run_free(r, r->held);
}

/*
 * One stepped call, interrupted at step inject_at (0: never). False if
 * a due KFENCE sample sent the call or the handler elsewhere (the call
 * is undone, nothing checked: the caller tries again).
 */
static bool step_once(struct ktest *t, struct rseq_run *r,
		      unsigned int inject_at)
{
	void *before[MAX_AVAIL + 1];
	unsigned int nr_before;
	unsigned long flags;

	*r = (struct rseq_run){ .tg = r->tg, .cachep = r->cachep,
				.zone = r->zone, .free_op = r->free_op,
				.inject_at = inject_at };
	if (r->free_op) {
		r->obj = run_alloc(r, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, r->obj);
	}
	if (r->tg->prepare)
		r->tg->prepare(r);
	nr_before = snapshot(r, before);
	KTEST_ASSERT_GE(t, nr_before, 3U);
	KTEST_ASSERT_LT(t, nr_before + 2, r->tg->limit(r));
	KTEST_ASSERT_LT(t, nr_before, (unsigned int)MAX_AVAIL);

	local_irq_save(flags);
	arch_single_step(run_op, r, rseq_step, r);
	local_irq_restore(flags);

	KTEST_EXPECT_LE(t, r->total_steps, (unsigned int)STEP_LIMIT);
	if (!r->entered || !r->done || r->exit_ip != r->post_commit ||
	    r->sampled) {
		run_undo(r);
		return false;
	}
	KTEST_EXPECT_FALSE(t, r->too_long);
	if (r->injected)
		KTEST_EXPECT_EQ(t, r->rewound_to, r->restart);
	KTEST_ASSERT_NOT_NULL(t, r->obj);
	check_accounting(t, r, before, nr_before);
	run_undo(r);
	return true;
}

/* step_once() until the call took the fast path, a bounded number of times. */
static void step_fast(struct ktest *t, struct rseq_run *r,
		      unsigned int inject_at)
{
	unsigned int tries = 0;

	while (!step_once(t, r, inject_at))
		KTEST_ASSERT_LT(t, ++tries, 100U);
}

/*
 * A per-CPU array (list) holding fill objects (pages) or more and room
 * for a few more: fill allocated (a refill) and freed.
 */
static void fill_array(struct ktest *t, struct rseq_run *r, unsigned int fill)
{
	void *objs[FILL];

	for (unsigned int i = 0; i < fill; i++) {
		objs[i] = run_alloc(r, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, objs[i]);
	}
	for (unsigned int i = 0; i < fill; i++)
		run_free(r, objs[i]);
	if (r->tg->prepare)
		r->tg->prepare(r);
	if (r->tg->limit(r) < fill + 4)
		ktest_skip(t, "%s: no room for %u more (slab_debug? a small zone?)",
			   r->tg->name(r), 4);
}

static void check_every_step(struct ktest *t, struct rseq_run *r,
			     unsigned int fill)
{
	unsigned long baseline, interrupted = 0;
	unsigned int n;

	fill_array(t, r, fill);
	step_fast(t, r, 0);
	baseline = r->hit;
	KTEST_EXPECT_TRUE(t, baseline & 1);	/* entered at its start */
	for (n = 1; n <= MAX_SEQ_BYTES + 1; n++) {
		step_fast(t, r, n);
		if (!r->injected)
			break;
		interrupted |= 1UL << r->inject_off;
	}
	KTEST_EXPECT_EQ(t, n - 1, hweight_long(baseline));
	KTEST_EXPECT_EQ(t, interrupted, baseline);
	ktest_info(t, "%s of %s: the sequence at %pS, %u instructions, each interrupted",
		   r->free_op ? "free" : "alloc", r->tg->name(r),
		   (void *)r->start, n - 1);
}

static struct kmem_cache *kmalloc_cache_of(struct ktest *t)
{
	void *p = kmalloc(OBJ_SIZE, GFP_KERNEL);
	struct kmem_cache *cachep;

	KTEST_ASSERT_NOT_NULL(t, p);
	cachep = virt_to_slab(p)->slab_cache;
	kfree(p);
	return cachep;
}

static void check_cache_op(struct ktest *t, bool free_op)
{
	struct kmem_cache *c = kmem_cache_create("rseq-test", OBJ_SIZE, 0, 0,
						 NULL);
	struct rseq_run r = { .tg = &cache_target, .cachep = c,
			      .free_op = free_op };

	KTEST_ASSERT_NOT_NULL(t, c);
	if (slab_stats_on())
		ktest_skip(t, "statistics on: no fast path");
	check_every_step(t, &r, FILL);
	kmem_cache_destroy(c);
}

static void test_kmem_cache_alloc(struct ktest *t)
{
	check_cache_op(t, false);
}

static void test_kmem_cache_free(struct ktest *t)
{
	check_cache_op(t, true);
}

static void check_kmalloc_op(struct ktest *t, bool free_op)
{
	struct rseq_run r = { .tg = &kmalloc_target,
			      .cachep = kmalloc_cache_of(t),
			      .free_op = free_op };

	if (slab_stats_on())
		ktest_skip(t, "statistics on: no fast path");
	check_every_step(t, &r, FILL);
}

static void test_kmalloc(struct ktest *t)
{
	check_kmalloc_op(t, false);
}

static void test_kfree(struct ktest *t)
{
	check_kmalloc_op(t, true);
}

/*
 * alloc_page() and __free_page() on this CPU's order-0 list of the zone
 * GFP_KERNEL gets pages from; the handler's GFP_ATOMIC takes the slow
 * path, on the same list, as an interrupt's would.
 */
static void check_page_op(struct ktest *t, bool free_op)
{
	struct page *page = alloc_page(GFP_KERNEL);
	struct rseq_run r = { .tg = &page_target, .free_op = free_op };

	KTEST_ASSERT_NOT_NULL(t, page);
	r.zone = page_zone(page);
	__free_page(page);
	if (page_debug_active())
		ktest_skip(t, "page debugging on: no fast path");
	check_every_step(t, &r, PAGE_FILL);
}

static void test_alloc_page(struct ktest *t)
{
	check_page_op(t, false);
}

static void test_free_page(struct ktest *t)
{
	check_page_op(t, true);
}

/*
 * The table: every entry inside the filter's span, restart inside its
 * sequence; the fixup moves an address inside a sequence to its restart
 * and leaves others alone.
 */
static void test_table(struct ktest *t)
{
	const struct rseq_entry *e;
	unsigned int nr = 0;

	for (e = __start___rseq_table; e < __stop___rseq_table; e++, nr++) {
		unsigned long start = rseq_addr(&e->start);
		unsigned long post_commit = rseq_addr(&e->post_commit);
		unsigned long ip;

		KTEST_EXPECT_LT(t, start, post_commit);
		KTEST_EXPECT_LE(t, rseq_lo, start);
		KTEST_EXPECT_LE(t, post_commit - rseq_lo, rseq_span);
		for (ip = start; ip < post_commit; ip++) {
			unsigned long fixed = ip;

			rseq_fixup_ip(&fixed);
			KTEST_EXPECT_EQ(t, fixed, rseq_addr(&e->restart));
		}
		ip = post_commit;
		if (!rseq_search(ip)) {
			rseq_fixup_ip(&ip);
			KTEST_EXPECT_EQ(t, ip, post_commit);
		}
	}
	/* kmalloc, kfree, kmem_cache_alloc and _free, pages' pop and push. */
	KTEST_EXPECT_GE(t, nr, 6U);
}

#define MAX_WORKERS	3
/*
 * At most: a quiet host needs 1,000-2,000 calls (well under a second) for
 * STRESS_RESTARTS; at a load average of 30 a numa=fake=4 host run with
 * 2 CPUs did not get them in 10 s.
 */
#define STRESS_NS	(30ULL * 1000 * 1000 * 1000)
#define STRESS_RESTARTS	20	/* interrupts inside a sequence, at least */

static struct {
	struct kmem_cache *cachep;
	unsigned long stop;
	unsigned long rounds[NR_CPUS];
	void *held[NR_CPUS];	/* kept by a handler until the next one */
	void *held_kmalloc[NR_CPUS];
	struct page *held_page[NR_CPUS];
	unsigned long failed;
} sw;

static void stress_worker(void *arg)
{
	unsigned int cpu = smp_processor_id();
	void *objs[4], *p;
	struct page *page;

	(void)arg;
	while (!__atomic_load_n(&sw.stop, __ATOMIC_ACQUIRE)) {
		for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++)
			objs[i] = kmem_cache_alloc(sw.cachep, GFP_KERNEL);
		p = kmalloc(OBJ_SIZE, GFP_KERNEL);
		page = alloc_page(GFP_KERNEL);
		if (!page)
			__atomic_fetch_add(&sw.failed, 1, __ATOMIC_RELAXED);
		else
			__free_page(page);
		for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++) {
			if (!objs[i])
				__atomic_fetch_add(&sw.failed, 1,
						   __ATOMIC_RELAXED);
			kmem_cache_free(sw.cachep, objs[i]);
		}
		if (!p)
			__atomic_fetch_add(&sw.failed, 1, __ATOMIC_RELAXED);
		kfree(p);
		WRITE_ONCE(sw.rounds[cpu], sw.rounds[cpu] + 1);
	}
}

/* The cross-CPU call on a worker: two objects out, one kept, one back. */
static void stress_ipi(void *info)
{
	unsigned int cpu = smp_processor_id();
	void *a = kmem_cache_alloc(sw.cachep, GFP_ATOMIC);
	void *b = kmem_cache_alloc(sw.cachep, GFP_ATOMIC);
	void *k = kmalloc(OBJ_SIZE, GFP_ATOMIC);
	struct page *page = alloc_page(GFP_ATOMIC);

	(void)info;
	if (sw.held_page[cpu])
		__free_page(sw.held_page[cpu]);
	sw.held_page[cpu] = page;
	kmem_cache_free(sw.cachep, sw.held[cpu]);
	kmem_cache_free(sw.cachep, a);
	sw.held[cpu] = b;
	kfree(sw.held_kmalloc[cpu]);
	sw.held_kmalloc[cpu] = k;
}

static void test_ipis_into_fast_paths(struct ktest *t)
{
	unsigned int cpus[MAX_WORKERS], nr;
	unsigned long restarts, calls = 0;
	u64 deadline;

	if (num_online_cpus() < 2)
		ktest_skip(t, "one CPU online: no other CPU to interrupt");
	if (slab_stats_on())
		ktest_skip(t, "statistics on: no fast path");
	memset(&sw, 0, sizeof(sw));
	sw.cachep = kmem_cache_create("rseq-stress", OBJ_SIZE, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, sw.cachep);
	nr = ktest_run_on_other_cpus(t, stress_worker, NULL, cpus, MAX_WORKERS);
	if (!nr) {
		kmem_cache_destroy(sw.cachep);
		ktest_skip(t, "this arch cannot run work on another CPU (arch_cpu_run)");
	}
	restarts = rseq_restart_count();
	deadline = arch_clock_ns() + STRESS_NS;
	while (rseq_restart_count() - restarts < STRESS_RESTARTS &&
	       arch_clock_ns() < deadline) {
		for (unsigned int i = 0; i < nr; i++, calls++)
			KTEST_EXPECT_EQ(t, smp_call_function_single(cpus[i],
					stress_ipi, NULL, true), 0);
	}
	restarts = rseq_restart_count() - restarts;
	__atomic_store_n(&sw.stop, 1, __ATOMIC_RELEASE);
	for (unsigned int i = 0; i < nr; i++) {
		arch_cpu_join(cpus[i]);
		KTEST_EXPECT_GT(t, sw.rounds[cpus[i]], 0UL);
		kmem_cache_free(sw.cachep, sw.held[cpus[i]]);
		kfree(sw.held_kmalloc[cpus[i]]);
		if (sw.held_page[cpus[i]])
			__free_page(sw.held_page[cpus[i]]);
	}
	ktest_info(t, "%lu calls to %u CPUs, %lu landed inside a sequence",
		   calls, nr, restarts);
	KTEST_EXPECT_GE(t, restarts, (unsigned long)STRESS_RESTARTS);
	KTEST_EXPECT_EQ(t, sw.failed, 0UL);
	/* Every object back: none lost in a slab, none freed twice. */
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(sw.cachep), 0);
	kmem_cache_destroy(sw.cachep);
}

/*
 * Under KASAN a free waits in the quarantine and never reaches the push:
 * the quarantine is off while a case runs (it empties on the way off).
 */
static bool quarantine_was_on;

static int rseq_init(struct ktest *t)
{
	quarantine_was_on = kasan_quarantine_set(false);
	return 0;
}

static void rseq_exit(struct ktest *t)
{
	kasan_quarantine_set(quarantine_was_on);
}

static const struct ktest_case rseq_cases[] = {
	KTEST_CASE(test_table),
	KTEST_CASE(test_kmem_cache_alloc),
	KTEST_CASE(test_kmem_cache_free),
	KTEST_CASE(test_kmalloc),
	KTEST_CASE(test_kfree),
	KTEST_CASE(test_alloc_page),
	KTEST_CASE(test_free_page),
	KTEST_CASE(test_ipis_into_fast_paths),
	{}
};
KTEST_SUITE(rseq, rseq_cases, .init = rseq_init, .exit = rseq_exit);

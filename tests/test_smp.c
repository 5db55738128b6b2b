// SPDX-License-Identifier: GPL-2.0
/*
 * The allocators on every online CPU at once (the host: CPUs are threads;
 * x86_64: the application processors run the work, arch_cpu_run()).
 *
 * Each CPU c allocates, fills with a pattern and hands over objects on a
 * single-producer, single-consumer ring to CPU c + 1 (the last to CPU 0),
 * and takes what CPU c - 1 sent from its own ring, checks the pattern and
 * frees it: every object is freed on another CPU than the one that
 * allocated it. A CPU alternates producing and consuming, never waiting
 * for one while the other can move, so no ring can block the circle.
 * What goes round: kmalloc of 1 byte up to 8 KiB, objects of a cache with
 * a constructor (checked to be constructed when they come out, and given
 * back constructed), batches from kmem_cache_alloc_bulk() freed with
 * kmem_cache_free_bulk(), and pages of order 0 to 3.
 *
 * smp_ops= sets how many allocator operations (an allocation or a free
 * of one object or block each) the stress case does in all, over all the
 * CPUs: SMP_OPS_DEFAULT (5 * 10^5) keeps the host and debug runs short;
 * make test's 4-CPU boot runs the full smp_ops=10000000 (about 20 s of
 * TCG on a quiet 2-core host, 100 s on a busy one). At
 * the end every page and object is back. A second case (up to
 * SMP_STATS_OPS operations) runs with the slab statistics on and checks
 * that each CPU's counters for the test's cache add up to exactly the
 * allocations and frees that CPU made. A third has every CPU allocate
 * past the part of memory boot initialised, at once (deferred init; the
 * host run with CRAM_HOST_MEM=1G has it).
 */
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/printk.h"
#include "kernel/params.h"
#include "kernel/time.h"
#include "lib/ktest/ktest.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/internal.h"	/* white-box: the node's deferred part */
#include "mm/page_debug.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"	/* white-box: per-CPU statistics */
#include "tests/mm_util.h"
#include "arch/arch.h"
#include "kernel/cpumask.h"

#define SMP_RING		128	/* items in flight per ring */
#define SMP_BULK		8	/* objects per bulk item */
#define SMP_STRIDE		32	/* pattern: one byte every SMP_STRIDE */
#define SMP_OPS_DEFAULT		500000UL
#define SMP_OPS_MAX		1000000000UL
#define SMP_STATS_OPS		200000UL
#define CTOR_MAGIC		0x5a17c0de5eedf00dUL

enum smp_kind { SMP_NONE, SMP_KMALLOC, SMP_CTOR, SMP_BULK_KIND, SMP_PAGES };

struct smp_item {
	enum smp_kind kind;
	unsigned int size;	/* kmalloc size, or page order */
	unsigned long stamp;
	void *ptr[SMP_BULK];
};

struct smp_ring {
	struct smp_item item[SMP_RING];
	unsigned long head __aligned(64);	/* written by the producer */
	unsigned long tail __aligned(64);	/* written by the consumer */
};

/* What one CPU did; read by CPU 0 after the join. */
struct smp_cpu {
	unsigned int cpu;
	struct smp_ring *out, *in;
	unsigned long items;		/* to produce, and to consume */
	unsigned long produced, consumed;
	unsigned long ops;		/* allocations + frees */
	unsigned long failed;		/* allocations that returned NULL */
	unsigned long bad;		/* patterns found overwritten */
	unsigned long unconstructed;	/* ctor objects not in ctor state */
	unsigned long cache_allocs, cache_frees;	/* smp_cache objects */
} __aligned(64);

/* One constructed object of smp_cache. */
struct ctor_obj {
	unsigned long magic;		/* CTOR_MAGIC while constructed */
	unsigned char data[184];
};

static struct smp_ring smp_rings[NR_CPUS];
static struct smp_cpu smp_cpus[NR_CPUS];
static struct kmem_cache *smp_cache;
static unsigned long smp_ops = SMP_OPS_DEFAULT;

static int smp_ops_setup(char *val)
{
	unsigned long ops;

	if (!val || kstrtoul(val, 0, &ops) || !ops || ops > SMP_OPS_MAX)
		return -EINVAL;
	smp_ops = ops;
	return 0;
}
kernel_param("smp_ops", smp_ops_setup);

static void ctor_obj_init(void *p)
{
	struct ctor_obj *o = p;

	o->magic = CTOR_MAGIC;
	memset(o->data, 0, sizeof(o->data));
}

static unsigned long mix(unsigned long x)
{
	x ^= x >> 31;
	x *= 0x9e3779b97f4a7c15UL;
	return x ^ (x >> 29);
}

static unsigned char pattern_byte(unsigned long stamp, unsigned long off)
{
	return (unsigned char)((stamp >> 8) ^ stamp ^ (off * 7));
}

static void fill(void *ptr, unsigned long len, unsigned long stamp)
{
	unsigned char *p = ptr;

	for (unsigned long off = 0; off < len; off += SMP_STRIDE)
		p[off] = pattern_byte(stamp, off);
	p[len - 1] = pattern_byte(stamp, len - 1);
}

static bool intact(const void *ptr, unsigned long len, unsigned long stamp)
{
	const unsigned char *p = ptr;

	for (unsigned long off = 0; off < len; off += SMP_STRIDE)
		if (p[off] != pattern_byte(stamp, off))
			return false;
	return p[len - 1] == pattern_byte(stamp, len - 1);
}

/* A new smp_cache object: constructed, then given its pattern. */
static void take_ctor_obj(struct smp_cpu *sc, void *p, unsigned long stamp)
{
	struct ctor_obj *o = p;

	sc->unconstructed += o->magic != CTOR_MAGIC;
	fill(o->data, sizeof(o->data), stamp);
	sc->cache_allocs++;
}

/* Checked, then back in its constructed state before it is freed. */
static void drop_ctor_obj(struct smp_cpu *sc, void *p, unsigned long stamp)
{
	struct ctor_obj *o = p;

	sc->bad += o->magic != CTOR_MAGIC ||
		   !intact(o->data, sizeof(o->data), stamp);
	memset(o->data, 0, sizeof(o->data));
	sc->cache_frees++;
}

static void make_item(struct smp_cpu *sc, unsigned long n,
		      struct smp_item *it)
{
	unsigned long h = mix((unsigned long)sc->cpu << 40 | n);
	unsigned int sel = h % 16;

	it->stamp = h;
	it->kind = SMP_NONE;
	if (sel < 8) {
		/* Mostly small, now and then up to 8 KiB. */
		it->size = 1 + (h >> 8) % (sel == 0 ? 8192 : 512);
		it->ptr[0] = kmalloc(it->size, GFP_KERNEL);
		if (it->ptr[0]) {
			fill(it->ptr[0], it->size, it->stamp);
			it->kind = SMP_KMALLOC;
		}
		sc->ops++;
	} else if (sel < 12) {
		it->ptr[0] = kmem_cache_alloc(smp_cache, GFP_KERNEL);
		if (it->ptr[0]) {
			take_ctor_obj(sc, it->ptr[0], it->stamp);
			it->kind = SMP_CTOR;
		}
		sc->ops++;
	} else if (sel < 14) {
		int got = kmem_cache_alloc_bulk(smp_cache, GFP_KERNEL,
						SMP_BULK, it->ptr);

		if (got == SMP_BULK) {
			for (unsigned int i = 0; i < SMP_BULK; i++)
				take_ctor_obj(sc, it->ptr[i], it->stamp + i);
			it->kind = SMP_BULK_KIND;
		} else if (got) {
			sc->bad++;	/* bulk is all or nothing */
		}
		sc->ops += SMP_BULK;
	} else {
		struct page *page;

		it->size = (h >> 8) % 4;
		page = alloc_pages(GFP_KERNEL, it->size);
		if (page) {
			it->ptr[0] = page_address(page);
			fill(it->ptr[0], PAGE_SIZE << it->size, it->stamp);
			it->kind = SMP_PAGES;
		}
		sc->ops++;
	}
	sc->failed += it->kind == SMP_NONE;
}

static void free_item(struct smp_cpu *sc, const struct smp_item *it)
{
	switch (it->kind) {
	case SMP_KMALLOC:
		sc->bad += !intact(it->ptr[0], it->size, it->stamp);
		kfree(it->ptr[0]);
		sc->ops++;
		break;
	case SMP_CTOR:
		drop_ctor_obj(sc, it->ptr[0], it->stamp);
		kmem_cache_free(smp_cache, it->ptr[0]);
		sc->ops++;
		break;
	case SMP_BULK_KIND:
		for (unsigned int i = 0; i < SMP_BULK; i++)
			drop_ctor_obj(sc, it->ptr[i], it->stamp + i);
		kmem_cache_free_bulk(smp_cache, SMP_BULK, (void **)it->ptr);
		sc->ops += SMP_BULK;
		break;
	case SMP_PAGES:
		sc->bad += !intact(it->ptr[0], PAGE_SIZE << it->size,
				   it->stamp);
		__free_pages(virt_to_page(it->ptr[0]), it->size);
		sc->ops++;
		break;
	case SMP_NONE:
		break;
	}
}

static bool produce_one(struct smp_cpu *sc)
{
	struct smp_ring *r = sc->out;

	if (sc->produced == sc->items ||
	    sc->produced - __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) >=
	    SMP_RING)
		return false;
	make_item(sc, sc->produced, &r->item[sc->produced % SMP_RING]);
	sc->produced++;
	__atomic_store_n(&r->head, sc->produced, __ATOMIC_RELEASE);
	return true;
}

static bool consume_one(struct smp_cpu *sc)
{
	struct smp_ring *r = sc->in;

	if (sc->consumed == sc->items ||
	    __atomic_load_n(&r->head, __ATOMIC_ACQUIRE) == sc->consumed)
		return false;
	free_item(sc, &r->item[sc->consumed % SMP_RING]);
	sc->consumed++;
	__atomic_store_n(&r->tail, sc->consumed, __ATOMIC_RELEASE);
	return true;
}

#define SMP_PROGRESS_NS	(10 * 1000000000ULL)

/*
 * CPU 0 says how far it got every SMP_PROGRESS_NS: a long run on a busy
 * host is then not taken for a hang by the harness's idle timeout.
 */
static void smp_progress(struct smp_cpu *sc, u64 *next)
{
	u64 now = arch_clock_ns();

	if (now < *next)
		return;
	*next = now + SMP_PROGRESS_NS;
	pr_info("smp: CPU 0 has produced %lu and consumed %lu of %lu items\n",
		sc->produced, sc->consumed, sc->items);
}

/* One CPU's part: produce and consume until both are done. */
static void smp_worker(void *arg)
{
	struct smp_cpu *sc = arg;
	u64 next = arch_clock_ns() + SMP_PROGRESS_NS;
	unsigned long rounds = 0;

	while (sc->produced < sc->items || sc->consumed < sc->items) {
		bool moved = produce_one(sc);

		moved |= consume_one(sc);
		if (!moved)
			arch_cpu_relax();
		if (sc->cpu == 0 && !(++rounds % 1024))
			smp_progress(sc, &next);
	}
}

/* A circle over the CPUs the arch can run work on; their count. */
static unsigned int smp_setup(struct ktest *t, unsigned long items)
{
	unsigned int nr = nr_cpu_ids;

	if (nr < 2)
		ktest_skip(t, "one CPU online");
	for (unsigned int c = 0; c < nr; c++) {
		struct smp_cpu *sc = &smp_cpus[c];

		memset(sc, 0, sizeof(*sc));
		sc->cpu = c;
		sc->items = items;
		sc->out = &smp_rings[c];
		sc->in = &smp_rings[(c + nr - 1) % nr];
		smp_rings[c].head = smp_rings[c].tail = 0;
	}
	return nr;
}

/* Run smp_worker on CPUs 0..nr-1 at once; false if a CPU refused. */
static bool smp_run(struct ktest *t, unsigned int nr)
{
	int err;

	err = arch_cpu_run(1, smp_worker, &smp_cpus[1]);
	if (err == -ENOSYS)
		return false;
	KTEST_ASSERT_EQ(t, err, 0);
	for (unsigned int c = 2; c < nr; c++) {
		err = arch_cpu_run(c, smp_worker, &smp_cpus[c]);
		/* The others are already running: let them finish. */
		KTEST_EXPECT_EQ(t, err, 0);
		if (err)
			smp_cpus[c].items = 0;
	}
	smp_worker(&smp_cpus[0]);
	for (unsigned int c = 1; c < nr; c++)
		arch_cpu_join(c);
	return true;
}

static void destroy_smp_cache(void *unused)
{
	kmem_cache_destroy(smp_cache);
	smp_cache = NULL;
}

static void create_smp_cache(struct ktest *t)
{
	smp_cache = kmem_cache_create("smp-ctor", sizeof(struct ctor_obj), 0,
				      0, ctor_obj_init);
	KTEST_ASSERT_NOT_NULL(t, smp_cache);
	KTEST_ASSERT_EQ(t, ktest_add_action_or_reset(t, destroy_smp_cache,
						     NULL), 0);
}

/* Every CPU did its share, every pattern held, nothing failed. */
static unsigned long expect_clean(struct ktest *t, unsigned int nr)
{
	unsigned long ops = 0;

	for (unsigned int c = 0; c < nr; c++) {
		const struct smp_cpu *sc = &smp_cpus[c];

		KTEST_EXPECT_EQ(t, sc->produced, sc->items);
		KTEST_EXPECT_EQ(t, sc->consumed, sc->items);
		KTEST_EXPECT_EQ(t, sc->bad, 0UL);
		KTEST_EXPECT_EQ(t, sc->unconstructed, 0UL);
		KTEST_EXPECT_EQ(t, sc->failed, 0UL);
		ops += sc->ops;
	}
	return ops;
}

/*
 * Allocator operations per item on average, as a fraction: make_item()'s
 * mix gives 1 + 1/2 + 2 + 1/4 = 15/4.
 */
#define SMP_ITEMS(ops, nr)	max((ops) * 4 / 15 / (nr), 1UL)

static void test_all_cpus_cross_free(struct ktest *t)
{
	unsigned long free_before, objs_before, items, ops;
	u64 ns;
	unsigned int nr;

	items = SMP_ITEMS(smp_ops, nr_cpu_ids);
	nr = smp_setup(t, items);
	create_smp_cache(t);
	free_before = pages_baseline();
	objs_before = slab_objects_in_use();
	ns = arch_clock_ns();
	if (!smp_run(t, nr))
		ktest_skip(t, "this arch cannot run work on another CPU (arch_cpu_run)");
	ns = arch_clock_ns() - ns;
	ops = expect_clean(t, nr);
	ktest_info(t, "%u CPUs, %lu operations in %llu ms", nr, ops,
		     (unsigned long long)(ns / 1000000));
	/* The mix is random: within 5% of what was asked (plus rounding). */
	KTEST_EXPECT_GE(t, ops + 64UL * nr, smp_ops - smp_ops / 20);
	KTEST_EXPECT_LE(t, ops, smp_ops + smp_ops / 20 + 64UL * nr);
	KTEST_EXPECT_EQ(t, slab_objects_in_use(), objs_before);
	KTEST_EXPECT_EQ(t, pages_baseline(), free_before);
}

static void restore_stats(void *was)
{
	slab_stats_set(was != NULL);
}

/*
 * With the statistics on, each CPU's array counters for smp_cache add up
 * to the objects it took and gave back: every allocation is a hit, a miss
 * or (a debugged cache, no arrays) a node allocation; every free a hit or
 * a miss, or, debugged, none of them.
 */
static void test_per_cpu_stats_add_up(struct ktest *t)
{
	struct kmem_cache_node *n;
	struct slab_stats st;
	unsigned int nr;
	bool was;

	skip_if_kasan_quarantine(t);
	nr = smp_setup(t, SMP_ITEMS(min(SMP_STATS_OPS, smp_ops / 2),
				    nr_cpu_ids));
	create_smp_cache(t);
	was = slab_stats_set(true);
	KTEST_ASSERT_EQ(t, ktest_add_action_or_reset(t, restore_stats,
						     was ? (void *)1 : NULL), 0);
	if (!smp_run(t, nr))
		ktest_skip(t, "this arch cannot run work on another CPU (arch_cpu_run)");
	expect_clean(t, nr);
	n = get_node(smp_cache, 0);
	for (unsigned int c = 0; c < nr; c++) {
		const struct slab_cpu_stats *cs = &n->stats.cpu[c];
		const struct smp_cpu *sc = &smp_cpus[c];
		unsigned long frees = cs->freehit + cs->freemiss;

		KTEST_EXPECT_GT(t, sc->cache_allocs, 0UL);
		KTEST_EXPECT_EQ(t, cs->allochit + cs->allocmiss + cs->node_allocs,
				sc->cache_allocs);
		KTEST_EXPECT_EQ(t, frees, cs->node_allocs ? 0 : sc->cache_frees);
	}
	for (unsigned int c = nr; c < nr_cpu_ids; c++)
		KTEST_EXPECT_EQ(t, n->stats.cpu[c].allochit +
				   n->stats.cpu[c].allocmiss +
				   n->stats.cpu[c].node_allocs, 0UL);
	kmem_cache_get_stats(smp_cache, &st);
	KTEST_EXPECT_EQ(t, st.remote_frees, 0UL);	/* one node */
}

/* --- a cache's shared array, replaced under the CPUs that use it ------- */

/*
 * cache_refill() looks at n->shared->avail without the node's lock, with
 * interrupts off. do_tune_cpucache() replaces n->shared, so it may free
 * the old array only once every CPU has had its interrupts on since:
 * after a grace period (Linux's synchronize_rcu() in
 * setup_kmem_cache_node()). A shared array of TUNE_SHARED_A or _B
 * batches of TUNE_BATCH is larger than KMALLOC_MAX_CACHE_SIZE, so it has
 * pages of its own, which its kfree() gives back to the page allocator.
 */
#define TUNE_LIMIT		120
#define TUNE_BATCH		60
#define TUNE_SHARED_A		20
#define TUNE_SHARED_B		24
#define TUNE_HOLD_NS		(20 * 1000000ULL)
#define TUNE_ROUNDS		24
#define TUNE_WAIT_S		60
#define TUNE_OBJ_SIZE		64
#define TUNE_STRESS_NS		(1000 * 1000000ULL)
#define TUNE_STRESS_BATCH	200

static struct {
	struct kmem_cache *cache;
	unsigned long tunes_done;	/* tunes that returned */
	bool stop;
	/* The reader's findings. */
	unsigned long holds, replaced, freed_under, changed_under;
	/* The stress: per CPU. */
	unsigned long ops[NR_CPUS], bad[NR_CPUS], failed[NR_CPUS];
} tune;

static void destroy_tune_cache(void *unused)
{
	kmem_cache_destroy(tune.cache);
	tune.cache = NULL;
}

static void create_tune_cache(struct ktest *t, const char *name)
{
	memset(&tune, 0, sizeof(tune));
	if (nr_cpu_ids < 2)
		ktest_skip(t, "one CPU online");
	tune.cache = kmem_cache_create(name, TUNE_OBJ_SIZE, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, tune.cache);
	skip_debugged_cache(t, tune.cache);
	KTEST_ASSERT_EQ(t, ktest_add_action_or_reset(t, destroy_tune_cache,
						     NULL), 0);
}

static int tune_shared(unsigned int round)
{
	int err = slab_tune_cpucache(tune.cache->name, TUNE_LIMIT, TUNE_BATCH,
				     round & 1 ? TUNE_SHARED_B : TUNE_SHARED_A);

	__atomic_fetch_add(&tune.tunes_done, 1, __ATOMIC_RELEASE);
	return err;
}

/* Has sh gone back to the page allocator (or been given out again)? */
static bool shared_changed(const struct array_cache *sh, unsigned int limit,
			   unsigned int batch)
{
	struct page *page = virt_to_page(sh);

	return !PageHead(page) || !page_ref_count(page) ||
	       READ_ONCE(sh->limit) != limit ||
	       READ_ONCE(sh->batchcount) != batch;
}

/*
 * One hold, as cache_refill() holds n->shared: interrupts off, the
 * pointer loaded once, its array read for TUNE_HOLD_NS. A tune whose
 * IPI this CPU took just before may replace n->shared meanwhile; that
 * tune must not return (it frees the old array) before this CPU has its
 * interrupts on again.
 */
static void shared_hold(struct kmem_cache_node *n)
{
	unsigned long flags, done;
	unsigned int limit, batch;
	struct array_cache *sh;
	bool replaced = false;
	u64 end;

	local_irq_save(flags);
	sh = READ_ONCE(n->shared);
	done = __atomic_load_n(&tune.tunes_done, __ATOMIC_ACQUIRE);
	end = arch_clock_ns() + TUNE_HOLD_NS;
	if (sh) {
		limit = READ_ONCE(sh->limit);
		batch = READ_ONCE(sh->batchcount);
		tune.holds++;
	}
	while (sh && arch_clock_ns() < end) {
		if (!replaced && READ_ONCE(n->shared) != sh) {
			replaced = true;
			tune.replaced++;
		}
		if (replaced && __atomic_load_n(&tune.tunes_done,
						__ATOMIC_ACQUIRE) != done) {
			tune.freed_under++;	/* its tune returned */
			break;
		}
		if (shared_changed(sh, limit, batch)) {
			tune.changed_under++;
			break;
		}
		arch_cpu_relax();
	}
	local_irq_restore(flags);
}

static void shared_reader(void *unused)
{
	struct kmem_cache_node *n = get_node(tune.cache, 0);
	u64 deadline = arch_clock_ns() + TUNE_WAIT_S * NSEC_PER_SEC;

	while (!READ_ONCE(tune.stop) && arch_clock_ns() < deadline)
		shared_hold(n);
}

static void test_tune_shared_under_reader(struct ktest *t)
{
	int err;

	create_tune_cache(t, "smp-tune-reader");
	KTEST_ASSERT_EQ(t, tune_shared(1), 0);
	err = arch_cpu_run(1, shared_reader, NULL);
	if (err == -ENOSYS)
		ktest_skip(t, "this arch cannot run work on another CPU (arch_cpu_run)");
	KTEST_ASSERT_EQ(t, err, 0);
	for (unsigned int round = 0; round < TUNE_ROUNDS; round++)
		KTEST_EXPECT_EQ(t, tune_shared(round), 0);
	WRITE_ONCE(tune.stop, true);
	arch_cpu_join(1);
	ktest_info(t, "%u tunes, %lu holds, %lu saw their array replaced, %lu freed under the reader, %lu changed under it",
		   TUNE_ROUNDS, tune.holds, tune.replaced, tune.freed_under,
		   tune.changed_under);
	KTEST_EXPECT_EQ(t, tune.freed_under, 0UL);
	KTEST_EXPECT_EQ(t, tune.changed_under, 0UL);
	/* The race was there to be lost: some holds straddled a swap. */
	KTEST_EXPECT_GT(t, tune.replaced, 0UL);
}

/* Allocate and free batches of the cache, each object checked. */
static void tune_worker(void *unused)
{
	unsigned int cpu = arch_cpu_id();
	void *objs[TUNE_STRESS_BATCH];
	u64 deadline = arch_clock_ns() + TUNE_WAIT_S * NSEC_PER_SEC;

	while (!READ_ONCE(tune.stop) && arch_clock_ns() < deadline) {
		unsigned int nr = 1 + tune.ops[cpu] % TUNE_STRESS_BATCH;

		for (unsigned int i = 0; i < nr; i++) {
			objs[i] = kmem_cache_alloc(tune.cache, GFP_KERNEL);
			if (!objs[i]) {
				tune.failed[cpu]++;
				nr = i;
				break;
			}
			memset(objs[i], (int)(cpu + i), TUNE_OBJ_SIZE);
		}
		for (unsigned int i = 0; i < nr; i++) {
			const unsigned char *p = objs[i];

			tune.bad[cpu] += p[0] != (unsigned char)(cpu + i) ||
				p[TUNE_OBJ_SIZE - 1] != (unsigned char)(cpu + i);
			kmem_cache_free(tune.cache, objs[i]);
		}
		tune.ops[cpu] += 2 * nr;
	}
}

/*
 * The shared array replaced again and again while every other CPU
 * allocates and frees through it: whatever cache_refill() reads of an
 * old array it reads before the array is freed. The race is a few
 * instructions wide, so this is a stress, not a proof: the case above
 * is the proof.
 */
static void test_tune_shared_under_load(struct ktest *t)
{
	unsigned long ops = 0, bad = 0, failed = 0, tunes = 0;
	unsigned int nr = nr_cpu_ids, started = 0;
	u64 end;

	create_tune_cache(t, "smp-tune-load");
	for (unsigned int c = 1; c < nr; c++) {
		int err = arch_cpu_run(c, tune_worker, NULL);

		if (err == -ENOSYS)
			break;
		KTEST_EXPECT_EQ(t, err, 0);
		started += !err;
	}
	if (!started)
		ktest_skip(t, "this arch cannot run work on another CPU (arch_cpu_run)");
	end = arch_clock_ns() + TUNE_STRESS_NS;
	/* Two tunes at least: on a busy host one may take longer than that. */
	while (arch_clock_ns() < end || tunes < 2)
		KTEST_EXPECT_EQ(t, tune_shared((unsigned int)tunes++), 0);
	WRITE_ONCE(tune.stop, true);
	for (unsigned int c = 1; c < nr; c++)
		arch_cpu_join(c);
	for (unsigned int c = 0; c < NR_CPUS; c++) {
		ops += tune.ops[c];
		bad += tune.bad[c];
		failed += tune.failed[c];
	}
	ktest_info(t, "%lu tunes while %u CPUs did %lu operations", tunes,
		   started, ops);
	KTEST_EXPECT_EQ(t, bad, 0UL);
	KTEST_EXPECT_EQ(t, failed, 0UL);
	KTEST_EXPECT_GT(t, ops, 0UL);
	KTEST_EXPECT_GE(t, tunes, 2UL);
	/* The leak check after the case: every object and array is back. */
}

static void test_smp_ops_param(struct ktest *t)
{
	static const char *const bad[] = { "0", "x", "-1", "1000000001", "" };
	unsigned long old = smp_ops;
	char buf[24];

	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(buf, sizeof(buf), "%s", bad[i]);
		KTEST_EXPECT_EQ(t, smp_ops_setup(buf), -EINVAL);
		KTEST_EXPECT_EQ(t, smp_ops, old);
	}
	KTEST_EXPECT_EQ(t, smp_ops_setup(NULL), -EINVAL);
	snprintf(buf, sizeof(buf), "12345");
	KTEST_EXPECT_EQ(t, smp_ops_setup(buf), 0);
	KTEST_EXPECT_EQ(t, smp_ops, 12345UL);
	smp_ops = old;
}

/* arch_cpu_run()'s refusals: CPU 0, a busy CPU, a CPU that is not there. */
static unsigned int ran_on_cpu;
static bool ran_irqs_off;

static void spin_until_released(void *arg)
{
	unsigned long *gate = arg;

	ran_on_cpu = arch_cpu_id();
	ran_irqs_off = arch_irqs_disabled();
	while (!__atomic_load_n(gate, __ATOMIC_ACQUIRE))
		arch_cpu_relax();
	__atomic_store_n(gate, 2, __ATOMIC_RELEASE);
}

static void test_cpu_run_refuses(struct ktest *t)
{
	static unsigned long gate;
	struct arch_cpu_info info;
	int err;

	if (nr_cpu_ids < 2)
		ktest_skip(t, "one CPU online");
	KTEST_EXPECT_EQ(t, arch_cpu_run(0, spin_until_released, &gate), -EINVAL);
	KTEST_EXPECT_EQ(t, arch_cpu_run(NR_CPUS, spin_until_released, &gate),
			-EINVAL);
	/* Where the kernel starts its CPUs, one past the online ones is off. */
	if (arch_cpu_info(0, &info) != -ENOSYS && nr_cpu_ids < NR_CPUS)
		KTEST_EXPECT_EQ(t, arch_cpu_run(nr_cpu_ids,
						spin_until_released, &gate),
				-EINVAL);
	gate = 0;
	err = arch_cpu_run(1, spin_until_released, &gate);
	if (err == -ENOSYS)
		ktest_skip(t, "this arch cannot run work on another CPU (arch_cpu_run)");
	KTEST_ASSERT_EQ(t, err, 0);
	KTEST_EXPECT_EQ(t, arch_cpu_run(1, spin_until_released, &gate), -EBUSY);
	__atomic_store_n(&gate, 1, __ATOMIC_RELEASE);
	arch_cpu_join(1);
	KTEST_EXPECT_EQ(t, __atomic_load_n(&gate, __ATOMIC_ACQUIRE), 2UL);
	KTEST_EXPECT_EQ(t, ran_on_cpu, 1U);
	KTEST_EXPECT_FALSE(t, ran_irqs_off);	/* work runs with them on */
	/* Joined: the CPU takes work again, and a join of nothing returns. */
	gate = 1;
	ran_on_cpu = 0;
	KTEST_EXPECT_EQ(t, arch_cpu_run(nr_cpu_ids - 1,
					spin_until_released, &gate), 0);
	arch_cpu_join(nr_cpu_ids - 1);
	KTEST_EXPECT_EQ(t, gate, 2UL);
	KTEST_EXPECT_EQ(t, ran_on_cpu, nr_cpu_ids - 1);
	arch_cpu_join(1);
}

/* --- deferred init grown by several CPUs at once ------------------------ */

struct grown_block {
	struct grown_block *next;
	unsigned long pfn;	/* checked on free: nobody else had it */
	unsigned int cpu;
};

struct grow_cpu {
	struct grown_block *blocks;
	unsigned long nr, max, stop_pfn;
	unsigned long failed;	/* NULL while the zone could still grow */
	unsigned int cpu;
};

static struct grow_cpu grow_cpus[NR_CPUS];

/* Take 4 MiB blocks until the node has grown up to stop_pfn. */
static void grow_worker(void *arg)
{
	const gfp_t gfp = GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY;
	struct pglist_data *pgdat = NODE_DATA(0);
	struct grow_cpu *g = arg;

	while (g->nr < g->max &&
	       READ_ONCE(pgdat->first_deferred_pfn) < g->stop_pfn) {
		struct page *page = alloc_pages(gfp, MAX_ORDER - 1);
		struct grown_block *b;

		if (!page) {
			g->failed += READ_ONCE(pgdat->first_deferred_pfn) != ULONG_MAX;
			break;
		}
		b = page_address(page);
		b->next = g->blocks;
		b->pfn = page_to_pfn(page);
		b->cpu = g->cpu;
		g->blocks = b;
		g->nr++;
	}
}

/*
 * Every CPU allocates past the initialised part at once, so that they
 * meet in deferred_grow_zone(): the node grows two units, unit by unit,
 * no allocation fails while it could still grow, no block goes to two
 * CPUs, and totalram_pages grows by exactly what is no longer
 * deferred. Everything given back, the free lists check clean.
 */
static void test_deferred_grow_race(struct ktest *t)
{
	struct pglist_data *pgdat = NODE_DATA(0);
	unsigned long first = READ_ONCE(pgdat->first_deferred_pfn);
	unsigned long deferred, total, stop, failed = 0, corrupt = 0, nr = 0;
	unsigned int cpus = nr_cpu_ids;
	struct grown_block *b;

	if (cpus < 2)
		ktest_skip(t, "one CPU online");
	if (first == ULONG_MAX)
		ktest_skip(t, "nothing deferred (the last zone is under two units)");
	deferred = nr_deferred_pages();
	total = totalram_pages;
	stop = first + 2 * deferred_init_pages;
	for (unsigned int c = 0; c < cpus; c++) {
		grow_cpus[c] = (struct grow_cpu){
			.max = ((total + deferred) >> (MAX_ORDER - 1)) + 2,
			.stop_pfn = stop, .cpu = c,
		};
	}
	for (unsigned int c = 1; c < cpus; c++) {
		int err = arch_cpu_run(c, grow_worker, &grow_cpus[c]);

		if (err == -ENOSYS)
			ktest_skip(t, "this arch cannot run work on another CPU (arch_cpu_run)");
		KTEST_EXPECT_EQ(t, err, 0);
	}
	grow_worker(&grow_cpus[0]);
	for (unsigned int c = 1; c < cpus; c++)
		arch_cpu_join(c);
	KTEST_EXPECT_GE(t, READ_ONCE(pgdat->first_deferred_pfn), stop);
	KTEST_EXPECT_EQ(t, totalram_pages - total, deferred - nr_deferred_pages());
	for (unsigned int c = 0; c < cpus; c++) {
		struct grow_cpu *g = &grow_cpus[c];

		failed += g->failed;
		while ((b = g->blocks)) {
			g->blocks = b->next;
			corrupt += b->pfn != virt_to_pfn(b) || b->cpu != c;
			__free_pages(virt_to_page(b), MAX_ORDER - 1);
			nr++;
		}
	}
	ktest_info(t, "%u CPUs took %lu blocks of 4 MiB; %lu KiB still deferred",
		   cpus, nr, nr_deferred_pages() << (PAGE_SHIFT - 10));
	KTEST_EXPECT_EQ(t, failed, 0UL);
	KTEST_EXPECT_EQ(t, corrupt, 0UL);
	KTEST_EXPECT_EQ(t, page_alloc_check(), 0);
}

static const struct ktest_case smp_cases[] = {
	KTEST_CASE(test_cpu_run_refuses),
	KTEST_CASE(test_smp_ops_param),
	KTEST_CASE(test_deferred_grow_race),
	KTEST_CASE(test_all_cpus_cross_free),
	KTEST_CASE(test_per_cpu_stats_add_up),
	KTEST_CASE(test_tune_shared_under_reader),
	KTEST_CASE(test_tune_shared_under_load),
	{}
};
KTEST_SUITE(smp, smp_cases);

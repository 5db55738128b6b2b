// SPDX-License-Identifier: GPL-2.0
/*
 * SLAB statistics and tuning (mm/slab_stats.c):
 *
 *  - scripted sequences on fresh caches, tuned to small arrays so every
 *    step is worked out by hand in the comments, give exact counts:
 *    misses and a new slab from empty, hits from the array, frees into
 *    an array with room and into a full one, reallocation, free slabs
 *    kept after a flush, shrinking, a slab that cannot be made, a
 *    debugged cache served straight from its slabs; kfree and the bulk
 *    calls counted as kmem_cache_free and kmem_cache_alloc are;
 *  - with statistics off nothing moves;
 *  - slabinfo's header and columns, with and without statistics;
 *  - tuning: the arrays, free_limit and slabinfo follow, the cache keeps
 *    working; every bad value, name or argument (C function and shell
 *    command) is refused with nothing changed, as is a debugged cache
 *    and a tuning that runs out of memory.
 *
 * Each case switches statistics on itself and restores the previous
 * state when it ends, so the suite also runs under slab_stats.
 */
#include "kernel/cpumask.h"
#include "kernel/errno.h"
#include "kernel/params.h"
#include "kernel/shell.h"
#include "lib/ktest/ktest.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/fault_inject.h"
#include "mm/numa.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"	/* white-box: arrays, nodes, counters */
#include "tests/mm_util.h"

#define OBJ_SIZE	64
#define MAX_OBJS	512
static void *objs[MAX_OBJS];

/* --- helpers ---------------------------------------------------------- */

static void restore_stats(void *was)
{
	slab_stats_set(was != NULL);
}

/* Statistics on (or off) for the rest of the case. */
static void set_stats(struct ktest *t, bool on)
{
	bool was = slab_stats_set(on);

	ktest_add_action_or_reset(t, restore_stats, was ? (void *)1 : NULL);
}

static void destroy_cache(void *cachep)
{
	kmem_cache_destroy(cachep);
}

static struct kmem_cache *new_cache(struct ktest *t, const char *name,
				    slab_flags_t flags)
{
	struct kmem_cache *c = kmem_cache_create(name, OBJ_SIZE, 0, flags, NULL);

	KTEST_ASSERT_NOT_NULL(t, c);
	ktest_add_action_or_reset(t, destroy_cache, c);
	/* slab_debug on the command line: no arrays, other counts. */
	if (!(flags & SLAB_DEBUG_FLAGS))
		skip_if_debugged(t, c);
	return c;
}

/* A fresh cache with arrays of limit, batch and shared batches. */
static struct kmem_cache *tuned_cache(struct ktest *t, const char *name,
				      int limit, int batch, int shared)
{
	struct kmem_cache *c = new_cache(t, name, 0);

	KTEST_ASSERT_EQ(t, slab_tune_cpucache(name, limit, batch, shared), 0);
	return c;
}

#define EXPECT_STAT(t, st, field, want) \
	KTEST_EXPECT_EQ(t, (st).field, (unsigned long)(want))

static void alloc_n(struct ktest *t, struct kmem_cache *c, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, objs[i]);
	}
}

static void free_n(struct kmem_cache *c, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		kmem_cache_free(c, objs[i]);
}

/* --- counting --------------------------------------------------------- */

/*
 * limit 4, batch 2, no shared array; one slab holds num >= 16 objects.
 * A first refill takes min(batch, 16) = 2.
 */
static void test_scripted_counts(struct ktest *t)
{
	struct kmem_cache *c;
	struct slab_stats st;
	void *again;

	skip_if_kasan_quarantine(t);
	set_stats(t, true);
	c = tuned_cache(t, "stats-script", 4, 2, 0);
	KTEST_ASSERT_GE(t, c->num, 16U);

	/*
	 * 6 allocations from empty: 1 misses (a slab is made, 2 taken),
	 * 2 hits, 3 misses (2 taken), 4 hits, 5 misses, 6 hits.
	 */
	alloc_n(t, c, 6);
	kmem_cache_get_stats(c, &st);
	EXPECT_STAT(t, st, allocmiss, 3);
	EXPECT_STAT(t, st, allochit, 3);
	EXPECT_STAT(t, st, grown, 1);
	EXPECT_STAT(t, st, allocs, 6);
	EXPECT_STAT(t, st, high_mark, 6);
	EXPECT_STAT(t, st, freehit, 0);
	EXPECT_STAT(t, st, freemiss, 0);

	/*
	 * 6 frees into the empty array: 4 fit (hits), the 5th finds it
	 * full (miss: 2 flushed to the slab), the 6th fits again.
	 */
	free_n(c, 6);
	kmem_cache_get_stats(c, &st);
	EXPECT_STAT(t, st, freehit, 5);
	EXPECT_STAT(t, st, freemiss, 1);
	EXPECT_STAT(t, st, max_freeable, 0);	/* the slab holds 4 still */
	KTEST_EXPECT_EQ(t, cpu_cache_get(c)->avail, 4U);

	/* Reallocation comes from the array: a hit, nothing taken. */
	again = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, again);
	kmem_cache_free(c, again);
	kmem_cache_get_stats(c, &st);
	EXPECT_STAT(t, st, allochit, 4);
	EXPECT_STAT(t, st, allocmiss, 3);
	EXPECT_STAT(t, st, freehit, 6);
	EXPECT_STAT(t, st, allocs, 6);

	/* Shrinking gives the one slab back. */
	kmem_cache_shrink(c);
	kmem_cache_get_stats(c, &st);
	EXPECT_STAT(t, st, reaped, 1);
	EXPECT_STAT(t, st, grown, 1);
	EXPECT_STAT(t, st, errors, 0);
	EXPECT_STAT(t, st, node_allocs, 0);
	EXPECT_STAT(t, st, remote_frees, 0);
	EXPECT_STAT(t, st, alien_overflow, 0);
}

/*
 * limit 1, batch 1: every allocation misses, every free but the first
 * flushes the one before it. 2 * num objects fill two slabs, A then B;
 * freed in order, A's last object goes back when B's first is freed,
 * and A is kept as a free slab (free_objects num <= free_limit).
 */
static void test_flush_keeps_free_slab(struct ktest *t)
{
	struct kmem_cache *c;
	struct slab_stats st;
	unsigned int n;

	skip_if_kasan_quarantine(t);
	set_stats(t, true);
	c = tuned_cache(t, "stats-flush", 1, 1, 0);
	n = 2 * c->num;
	KTEST_ASSERT_TRUE(t, n <= MAX_OBJS);
	alloc_n(t, c, n);
	free_n(c, n);
	kmem_cache_get_stats(c, &st);
	EXPECT_STAT(t, st, allocmiss, n);
	EXPECT_STAT(t, st, allochit, 0);
	EXPECT_STAT(t, st, grown, 2);
	EXPECT_STAT(t, st, allocs, n);
	EXPECT_STAT(t, st, high_mark, n);
	EXPECT_STAT(t, st, freehit, 1);
	EXPECT_STAT(t, st, freemiss, n - 1);
	EXPECT_STAT(t, st, max_freeable, 1);
	kmem_cache_shrink(c);
	kmem_cache_get_stats(c, &st);
	/* B (its last object came back from the array); A went earlier. */
	KTEST_EXPECT_GE(t, st.reaped, 1UL);
	KTEST_EXPECT_EQ(t, get_node(c, 0)->total_slabs, 0UL);
}

/* kfree and the bulk calls take the slow paths too, and count. */
static void test_kfree_and_bulk_count(struct ktest *t)
{
	struct kmem_cache *c;
	struct slab_stats st;
	void *p[3];

	skip_if_kasan_quarantine(t);
	set_stats(t, true);
	c = tuned_cache(t, "stats-bulk", 8, 4, 0);
	KTEST_ASSERT_EQ(t, kmem_cache_alloc_bulk(c, GFP_KERNEL, 3, p), 3);
	kmem_cache_get_stats(c, &st);
	EXPECT_STAT(t, st, allocmiss, 1);	/* refill of 4 */
	EXPECT_STAT(t, st, allochit, 2);
	EXPECT_STAT(t, st, allocs, 4);
	kfree(p[0]);
	kmem_cache_free_bulk(c, 2, &p[1]);
	kmem_cache_get_stats(c, &st);
	EXPECT_STAT(t, st, freehit, 3);
	EXPECT_STAT(t, st, freemiss, 0);
}

/*
 * A slab that cannot be made is an error, and the allocation a miss.
 * Every page allocation fails meanwhile: with several nodes a failed
 * grow on this CPU's node falls back to a grow on any node, which fails
 * too, and each failed grow counts.
 */
static void test_grow_failure_counts_error(struct ktest *t)
{
	unsigned long grows = num_online_nodes() > 1 ? 2 : 1;
	struct kmem_cache *c;
	struct slab_stats st;
	void *p;

	set_stats(t, true);
	c = tuned_cache(t, "stats-error", 4, 2, 0);
	KTEST_ASSERT_EQ(t, fault_attr_set(&fail_page_alloc, "1,100,0,-1", 1), 0);
	p = kmem_cache_alloc(c, GFP_KERNEL | __GFP_NOWARN);
	fault_attr_disable(&fail_page_alloc);
	if (p)
		kmem_cache_free(c, p);
	KTEST_EXPECT_NULL(t, p);
	kmem_cache_get_stats(c, &st);
	EXPECT_STAT(t, st, errors, grows);
	EXPECT_STAT(t, st, allocmiss, 1);
	EXPECT_STAT(t, st, grown, 0);
	EXPECT_STAT(t, st, allocs, 0);
	/* The next one works. */
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	kmem_cache_free(c, p);
	kmem_cache_get_stats(c, &st);
	EXPECT_STAT(t, st, errors, grows);
	EXPECT_STAT(t, st, grown, 1);
}

/* A debugged cache has no arrays: objects straight from its slabs. */
static void test_debugged_cache_node_allocs(struct ktest *t)
{
	struct kmem_cache *c;
	struct slab_stats st;

	set_stats(t, true);
	c = new_cache(t, "stats-debug", SLAB_CONSISTENCY_CHECKS);
	alloc_n(t, c, 3);
	free_n(c, 3);
	kmem_cache_get_stats(c, &st);
	EXPECT_STAT(t, st, node_allocs, 3);
	EXPECT_STAT(t, st, allocs, 3);
	EXPECT_STAT(t, st, high_mark, 3);
	EXPECT_STAT(t, st, grown, 1);
	EXPECT_STAT(t, st, allochit, 0);
	EXPECT_STAT(t, st, allocmiss, 0);
	EXPECT_STAT(t, st, freehit, 0);
	EXPECT_STAT(t, st, freemiss, 0);
}

static bool stats_equal(const struct slab_stats *a, const struct slab_stats *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* Off: nothing moves, on a fresh cache or one that counted before. */
static void test_off_nothing_moves(struct ktest *t)
{
	struct kmem_cache *fresh, *used;
	struct slab_stats before, after, zero = { 0 };

	set_stats(t, true);
	used = tuned_cache(t, "stats-used", 4, 2, 0);
	alloc_n(t, used, 5);
	free_n(used, 5);
	kmem_cache_get_stats(used, &before);
	KTEST_EXPECT_FALSE(t, stats_equal(&before, &zero));

	KTEST_EXPECT_TRUE(t, slab_stats_set(false));
	KTEST_EXPECT_FALSE(t, slab_stats_on());
	fresh = tuned_cache(t, "stats-fresh", 4, 2, 0);
	for (int round = 0; round < 2; round++) {
		struct kmem_cache *c = round ? used : fresh;
		void *p[4];

		alloc_n(t, c, 40);
		free_n(c, 40);
		KTEST_ASSERT_EQ(t, kmem_cache_alloc_bulk(c, GFP_KERNEL, 4, p), 4);
		kmem_cache_free_bulk(c, 4, p);
		kfree(kmem_cache_alloc(c, GFP_KERNEL));
		kmem_cache_shrink(c);
	}
	kmem_cache_get_stats(fresh, &after);
	KTEST_EXPECT_TRUE(t, stats_equal(&after, &zero));
	kmem_cache_get_stats(used, &after);
	KTEST_EXPECT_TRUE(t, stats_equal(&after, &before));
}

/* Was the kernel booted with the bare parameter name? */
static bool booted_with(const char *name)
{
	static char args[COMMAND_LINE_SIZE];
	char *p = args, *param, *val;

	strscpy(args, boot_command_line, sizeof(args));
	while (*p) {
		p = next_arg(p, &param, &val);
		if (parameq(param, name) && !val)
			return true;
	}
	return false;
}

/* slab_stats on the command line: on from boot, all allocations slow. */
static void test_boot_parameter(struct ktest *t)
{
	struct kmem_cache *c;
	struct slab_stats st;
	void *p;

	if (!booted_with("slab_stats"))
		ktest_skip(t, "booted without slab_stats");
	KTEST_EXPECT_TRUE(t, slab_stats_on());
	c = new_cache(t, "stats-boot", 0);
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	kmem_cache_free(c, p);
	/* Under KASAN p reaches SLAB's array from the quarantine here. */
	kmem_cache_shrink(c);
	kmem_cache_get_stats(c, &st);
	EXPECT_STAT(t, st, allocmiss, 1);
	EXPECT_STAT(t, st, freehit, 1);
}

/* --- slabinfo --------------------------------------------------------- */

#define MAX_TOKENS	48

/* Split a copy of the line of text starting with prefix into words. */
static unsigned int line_words(const char *text, const char *prefix,
			       char *buf, size_t size, char **words)
{
	const char *line = text;
	unsigned int n = 0;
	char *p;

	while (line && strncmp(line, prefix, strlen(prefix))) {
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	if (!line)
		return 0;
	strscpy(buf, line, size);
	if ((p = strchr(buf, '\n')))
		*p = '\0';
	p = buf;
	while (p && n < MAX_TOKENS) {
		char *w = strsep(&p, " ");

		if (*w)
			words[n++] = w;
	}
	return n;
}

static const char *const stats_header[] = {
	"#", "name", "<active_objs>", "<num_objs>", "<objsize>", "<objperslab>",
	"<pagesperslab>", ":", "tunables", "<limit>", "<batchcount>",
	"<sharedfactor>", ":", "slabdata", "<active_slabs>", "<num_slabs>",
	"<sharedavail>", ":", "globalstat", "<listallocs>", "<maxobjs>",
	"<grown>", "<reaped>", "<error>", "<maxfreeable>", "<nodeallocs>",
	"<remotefrees>", "<alienoverflow>", ":", "cpustat", "<allochit>",
	"<allocmiss>", "<freehit>", "<freemiss>",
};

static void test_slabinfo_columns(struct ktest *t)
{
	static char buf[512];
	char *w[MAX_TOKENS];
	struct kmem_cache *c;
	unsigned int n;

	skip_if_kasan_quarantine(t);
	set_stats(t, true);
	c = tuned_cache(t, "stats-info", 4, 2, 0);
	alloc_n(t, c, 6);
	free_n(c, 6);

	ktest_capture_start(t, NULL);
	KTEST_EXPECT_EQ(t, slabinfo_show("stats-info"), 0);
	ktest_capture_stop(t);
	KTEST_EXPECT_CAPTURED(t, "slabinfo - version: 2.1 (statistics)\n");
	n = line_words(ktest_captured(t), "# name", buf, sizeof(buf), w);
	KTEST_ASSERT_EQ(t, n, (unsigned int)ARRAY_SIZE(stats_header));
	for (unsigned int i = 0; i < n; i++)
		KTEST_EXPECT_STREQ(t, w[i], stats_header[i]);

	/* name, 5, 3 tunables, 3 slabdata, 9 globalstat, 4 cpustat + labels */
	n = line_words(ktest_captured(t), "stats-info ", buf, sizeof(buf), w);
	KTEST_ASSERT_EQ(t, n, 33U);
	KTEST_EXPECT_STREQ(t, w[6], ":");
	KTEST_EXPECT_STREQ(t, w[7], "tunables");
	KTEST_EXPECT_STREQ(t, w[8], "4");	/* limit */
	KTEST_EXPECT_STREQ(t, w[9], "2");	/* batchcount */
	KTEST_EXPECT_STREQ(t, w[10], "0");	/* sharedfactor */
	KTEST_EXPECT_STREQ(t, w[16], ":");
	KTEST_EXPECT_STREQ(t, w[17], "globalstat");
	KTEST_EXPECT_STREQ(t, w[18], "6");	/* listallocs */
	KTEST_EXPECT_STREQ(t, w[19], "6");	/* maxobjs */
	KTEST_EXPECT_STREQ(t, w[20], "1");	/* grown */
	KTEST_EXPECT_STREQ(t, w[25], "0");	/* remotefrees */
	KTEST_EXPECT_STREQ(t, w[26], "0");	/* alienoverflow */
	KTEST_EXPECT_STREQ(t, w[27], ":");
	KTEST_EXPECT_STREQ(t, w[28], "cpustat");
	KTEST_EXPECT_STREQ(t, w[29], "3");	/* allochit */
	KTEST_EXPECT_STREQ(t, w[30], "3");	/* allocmiss */
	KTEST_EXPECT_STREQ(t, w[31], "5");	/* freehit */
	KTEST_EXPECT_STREQ(t, w[32], "1");	/* freemiss */

	/* Off: Linux's plain 2.1 format, 16 words. */
	slab_stats_set(false);
	ktest_capture_start(t, NULL);
	KTEST_EXPECT_EQ(t, slabinfo_show("stats-info"), 0);
	ktest_capture_stop(t);
	KTEST_EXPECT_CAPTURED(t, "slabinfo - version: 2.1\n");
	KTEST_EXPECT_NOT_CAPTURED(t, "statistics");
	KTEST_EXPECT_NOT_CAPTURED(t, "globalstat");
	n = line_words(ktest_captured(t), "stats-info ", buf, sizeof(buf), w);
	KTEST_EXPECT_EQ(t, n, 16U);

	/* Unknown name: the header only. */
	ktest_capture_start(t, "stats-none");
	KTEST_EXPECT_EQ(t, slabinfo_show("stats-none"), -ENOENT);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
}

/* The whole table: one line per cache, every one with all columns. */
static void test_slabinfo_all_caches(struct ktest *t)
{
	unsigned int lines;

	set_stats(t, true);
	ktest_capture_start(t, " : cpustat ");
	slabinfo_show(NULL);
	lines = ktest_capture_stop(t);
	/* kmem_cache and 2 x 28 kmalloc caches at least, plus the header. */
	KTEST_EXPECT_GE(t, lines, 58U);
}

/* --- tuning ----------------------------------------------------------- */

struct tune_state {
	struct array_cache *ac[NR_CPUS], *shared;
	unsigned int limit, batch, shared_factor, free_limit;
};

static void tune_state(struct kmem_cache *c, struct tune_state *s)
{
	unsigned int cpu;

	memset(s, 0, sizeof(*s));
	for_each_possible_cpu(cpu)
		s->ac[cpu] = c->cpu_cache[cpu];
	s->shared = get_node(c, 0)->shared;
	s->limit = c->limit;
	s->batch = c->batchcount;
	s->shared_factor = c->shared;
	s->free_limit = get_node(c, 0)->free_limit;
}

static void expect_unchanged(struct ktest *t, struct kmem_cache *c,
			     const struct tune_state *was)
{
	unsigned int cpu;
	struct tune_state now;

	tune_state(c, &now);
	KTEST_EXPECT_TRUE(t, !memcmp(&now, was, sizeof(now)));
	for_each_possible_cpu(cpu) {
		KTEST_EXPECT_EQ(t, c->cpu_cache[cpu]->limit, was->limit);
		KTEST_EXPECT_EQ(t, c->cpu_cache[cpu]->batchcount, was->batch);
	}
}

static void test_tune_changes_arrays(struct ktest *t)
{
	struct kmem_cache_node *n;
	struct kmem_cache *c;
	unsigned int cpu;

	skip_if_kasan_quarantine(t);
	c = new_cache(t, "stats-tune", 0);
	n = get_node(c, 0);
	/* Used first, so objects sit in the arrays the tuning replaces. */
	alloc_n(t, c, 100);
	free_n(c, 50);
	KTEST_ASSERT_EQ(t, slab_tune_cpucache("stats-tune", 10, 5, 3), 0);
	KTEST_EXPECT_EQ(t, c->limit, 10U);
	KTEST_EXPECT_EQ(t, c->batchcount, 5U);
	KTEST_EXPECT_EQ(t, c->shared, 3U);
	for_each_possible_cpu(cpu) {
		KTEST_EXPECT_EQ(t, c->cpu_cache[cpu]->limit, 10U);
		KTEST_EXPECT_EQ(t, c->cpu_cache[cpu]->batchcount, 5U);
		KTEST_EXPECT_EQ(t, c->cpu_cache[cpu]->avail, 0U);
	}
	KTEST_ASSERT_NOT_NULL(t, n->shared);
	KTEST_EXPECT_EQ(t, n->shared->limit, 15U);
	KTEST_EXPECT_EQ(t, n->shared->avail, 0U);
	KTEST_EXPECT_EQ(t, n->free_limit, (1 + nr_cpu_ids) * 5 + c->num);
	KTEST_EXPECT_EQ(t, kmem_cache_validate(c), 0);

	/* It keeps working: the array overflows into the shared one. */
	for (unsigned int i = 50; i < 100; i++)
		kmem_cache_free(c, objs[i]);
	KTEST_EXPECT_EQ(t, cpu_cache_get(c)->avail, 10U);
	KTEST_EXPECT_EQ(t, n->shared->avail, 15U);
	alloc_n(t, c, 200);
	KTEST_EXPECT_EQ(t, kmem_cache_validate(c), 0);
	free_n(c, 200);

	/* No shared array with sharedfactor 0; limit may equal batch. */
	KTEST_ASSERT_EQ(t, slab_tune_cpucache("stats-tune", 1, 1, 0), 0);
	KTEST_EXPECT_NULL(t, n->shared);
	KTEST_EXPECT_EQ(t, c->shared, 0U);
	KTEST_EXPECT_EQ(t, cpu_cache_get(c)->limit, 1U);
	alloc_n(t, c, 70);
	free_n(c, 70);
	KTEST_EXPECT_EQ(t, kmem_cache_validate(c), 0);
}

/*
 * The per-CPU arrays lie in one block a node (alloc_cpu_arrays()): those
 * of every kmalloc cache, and a cache's after each tune, with strides
 * from one cache line to more than a page; each tune's old blocks go
 * back (the leak check).
 */
static void test_cpu_arrays_in_node_blocks(struct ktest *t)
{
	static const int limits[] = { 1, 5, 8, 120, 600 };
	struct kmem_cache *c = new_cache(t, "stats-blocks", 0);

	for (int dma = 0; dma < 2; dma++) {
		for (unsigned int i = 0; i < KMALLOC_ROW_SIZE; i++)
			if (kmalloc_caches[dma][i])
				expect_cpu_arrays_laid_out(t, kmalloc_caches[dma][i],
							   false);
	}
	expect_cpu_arrays_laid_out(t, c, false);
	for (unsigned int i = 0; i < ARRAY_SIZE(limits); i++) {
		void *was = c->cpu_blocks[cpu_to_mem(0)];

		KTEST_ASSERT_EQ(t, slab_tune_cpucache("stats-blocks", limits[i],
						      1, 1), 0);
		KTEST_EXPECT_PTR_NE(t, c->cpu_blocks[cpu_to_mem(0)], was);
		expect_cpu_arrays_laid_out(t, c, false);
		alloc_n(t, c, min(2 * limits[i], MAX_OBJS));
		free_n(c, min(2 * limits[i], MAX_OBJS));
	}
	KTEST_EXPECT_EQ(t, kmem_cache_validate(c), 0);
}

/* A kmalloc cache (its boot arrays long replaced) tuned and put back. */
static void test_tune_kmalloc_cache(struct ktest *t)
{
	struct kmem_cache *k = kmalloc_slab(OBJ_SIZE, 0);
	struct tune_state was;
	void *p[40];

	skip_if_kasan_quarantine(t);
	skip_if_debugged(t, k);
	skip_if_kasan_layout(t, k);
	tune_state(k, &was);
	KTEST_ASSERT_EQ(t, slab_tune_cpucache(k->name, 32, 16, 4), 0);
	KTEST_EXPECT_EQ(t, cpu_cache_get(k)->limit, 32U);
	KTEST_EXPECT_EQ(t, get_node(k, 0)->shared->limit, 64U);
	for (unsigned int i = 0; i < ARRAY_SIZE(p); i++) {
		p[i] = kmalloc(OBJ_SIZE, GFP_KERNEL);
		KTEST_EXPECT_NOT_NULL(t, p[i]);
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(p); i++)
		kfree(p[i]);
	/* 3 refills of 16 leave 8; 24 frees fill it, a flush of 16, 16 more */
	KTEST_EXPECT_EQ(t, cpu_cache_get(k)->avail, 32U);
	KTEST_EXPECT_EQ(t, slab_tune_cpucache(k->name, (int)was.limit,
					      (int)was.batch,
					      (int)was.shared_factor), 0);
	KTEST_EXPECT_EQ(t, k->limit, was.limit);
	KTEST_EXPECT_EQ(t, k->batchcount, was.batch);
	KTEST_EXPECT_EQ(t, k->shared, was.shared_factor);
	KTEST_EXPECT_EQ(t, kmem_cache_validate(k), 0);
}

static void test_tune_bad_values(struct ktest *t)
{
	static const struct { int limit, batch, shared; } bad[] = {
		{ 0, 1, 0 },		/* limit < 1 */
		{ -1, 1, 0 },
		{ 4, 0, 0 },		/* batchcount < 1 */
		{ 4, -2, 0 },
		{ 4, 5, 0 },		/* batchcount > limit */
		{ 4, 2, -1 },		/* sharedfactor < 0 */
		{ SLAB_TUNE_MAX_ENTRIES + 1, 1, 0 },	/* array too big */
		{ 1 << 30, 1 << 30, 1 },
		{ 1000, 1000, 66 },	/* shared array too big */
		{ 64, 64, 0x7fffffff },	/* shared * batch overflows 32 bits */
	};
	struct kmem_cache *c = new_cache(t, "stats-bad", 0);
	struct tune_state was;

	KTEST_ASSERT_EQ(t, slab_tune_cpucache("stats-bad", 6, 3, 2), 0);
	tune_state(c, &was);
	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		ktest_info(t, "limit %d batchcount %d sharedfactor %d",
			   bad[i].limit, bad[i].batch, bad[i].shared);
		KTEST_EXPECT_EQ(t, slab_tune_cpucache("stats-bad", bad[i].limit,
						      bad[i].batch,
						      bad[i].shared), -EINVAL);
		expect_unchanged(t, c, &was);
	}
	KTEST_EXPECT_EQ(t, slab_tune_cpucache("stats-nonesuch", 6, 3, 2), -ENOENT);
	KTEST_EXPECT_EQ(t, slab_tune_cpucache(NULL, 6, 3, 2), -ENOENT);
	KTEST_EXPECT_EQ(t, slab_tune_cpucache("", 6, 3, 2), -ENOENT);
	KTEST_EXPECT_EQ(t, slab_tune_cpucache("stats-ba", 6, 3, 2), -ENOENT);
	expect_unchanged(t, c, &was);
	alloc_n(t, c, 20);
	free_n(c, 20);
	KTEST_EXPECT_EQ(t, kmem_cache_validate(c), 0);
}

/* Linux keeps a debugged cache's arrays out of reach; so does this. */
static void test_tune_debugged_cache_refused(struct ktest *t)
{
	struct kmem_cache *c = new_cache(t, "stats-dbg", SLAB_POISON);
	struct tune_state was;

	tune_state(c, &was);
	KTEST_EXPECT_EQ(t, was.limit, 0U);
	KTEST_EXPECT_EQ(t, slab_tune_cpucache("stats-dbg", 8, 4, 1), -EPERM);
	expect_unchanged(t, c, &was);
}

/* Out of memory for the new arrays: -ENOMEM, the old ones stay. */
static void test_tune_out_of_memory(struct ktest *t)
{
	struct kmem_cache *c = new_cache(t, "stats-nomem", 0);
	struct kmem_cache *shared_cache;
	struct tune_state was;
	int err;

	/*
	 * Arrays of 8 entries: a block of them, even for 64 CPUs (8 KiB),
	 * comes from a kmalloc cache, which failslab fails.
	 */
	tune_state(c, &was);
	/* Every kmalloc fails: the first block of arrays already. */
	KTEST_ASSERT_EQ(t, fault_attr_set(&failslab, "1,100,0,-1", 1), 0);
	err = slab_tune_cpucache("stats-nomem", 8, 4, 8);
	fault_attr_disable(&failslab);
	KTEST_EXPECT_EQ(t, err, -ENOMEM);
	expect_unchanged(t, c, &was);
	/*
	 * The per-CPU arrays are made (a block a node), the shared one
	 * fails: they go back (the leak check), the old ones stay. Its 9
	 * entries take kmalloc-96, where no block of arrays (whole
	 * 128-byte strides here) ever goes.
	 */
	shared_cache = kmalloc_slab(struct_size((struct array_cache *)NULL,
						entry, 9), 0);
	KTEST_ASSERT_EQ(t, shared_cache->object_size, 96U);
	failslab_set_cache(shared_cache->name);
	KTEST_ASSERT_EQ(t, fault_attr_set(&failslab, "1,100,0,1", 1), 0);
	err = slab_tune_cpucache("stats-nomem", 8, 3, 3);
	failslab_set_cache(NULL);
	KTEST_EXPECT_EQ(t, failslab.failures, 1UL);
	fault_attr_disable(&failslab);
	KTEST_EXPECT_EQ(t, err, -ENOMEM);
	expect_unchanged(t, c, &was);
	alloc_n(t, c, 30);
	free_n(c, 30);
}

/* The shell command: words as typed, every mistake refused. */
static int shell(const char *cmd)
{
	static char line[128];

	strscpy(line, cmd, sizeof(line));
	return shell_exec(line);
}

static void test_tune_shell_command(struct ktest *t)
{
	static const char *const bad_numbers[] = {
		"slabinfo stats-sh x 2 1",		/* not a number */
		"slabinfo stats-sh 8x 2 1",
		"slabinfo stats-sh 8 2.0 1",
		"slabinfo stats-sh 8 2 -",
		"slabinfo stats-sh 99999999999 2 1",	/* overflows an int */
		"slabinfo stats-sh 8 2 99999999999999999999999",
		"slabinfo stats-sh 8 9 1",		/* batchcount > limit */
		"slabinfo stats-sh 0 0 0",
		"slabinfo stats-sh 8 2 -1",
	};
	struct kmem_cache *c = new_cache(t, "stats-sh", 0);
	struct tune_state was;

	ktest_capture_start(t, "slabinfo: ");
	KTEST_EXPECT_EQ(t, shell("slabinfo stats-sh 8 4 2"), 0);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
	KTEST_EXPECT_EQ(t, c->limit, 8U);
	KTEST_EXPECT_EQ(t, c->batchcount, 4U);
	KTEST_EXPECT_EQ(t, c->shared, 2U);
	KTEST_EXPECT_EQ(t, get_node(c, 0)->shared->limit, 8U);

	tune_state(c, &was);
	for (unsigned int i = 0; i < ARRAY_SIZE(bad_numbers); i++) {
		ktest_info(t, "%s", bad_numbers[i]);
		ktest_capture_start(t, "slabinfo: ");
		KTEST_EXPECT_EQ(t, shell(bad_numbers[i]), -EINVAL);
		KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
		expect_unchanged(t, c, &was);
	}
	ktest_capture_start(t, "slabinfo: ");
	KTEST_EXPECT_EQ(t, shell("slabinfo stats-sh 8 x 1"), -EINVAL);
	ktest_capture_stop(t);
	KTEST_EXPECT_CAPTURED(t, "slabinfo: batchcount 'x' is not a number");
	ktest_capture_start(t, "slabinfo: ");
	KTEST_EXPECT_EQ(t, shell("slabinfo stats-sh 99999999999 2 1"), -EINVAL);
	ktest_capture_stop(t);
	KTEST_EXPECT_CAPTURED(t, "slabinfo: limit '99999999999' out of range");
	ktest_capture_start(t, "slabinfo: ");
	KTEST_EXPECT_EQ(t, shell("slabinfo stats-nonesuch 8 4 2"), -ENOENT);
	KTEST_EXPECT_EQ(t, shell("slabinfo stats-nonesuch"), -ENOENT);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 2U);
	KTEST_EXPECT_CAPTURED(t, "slabinfo: no cache named 'stats-nonesuch'");
	/* Wrong numbers of words: usage. */
	ktest_capture_start(t, "usage: slabinfo");
	KTEST_EXPECT_EQ(t, shell("slabinfo stats-sh 8"), -EINVAL);
	KTEST_EXPECT_EQ(t, shell("slabinfo stats-sh 8 4"), -EINVAL);
	KTEST_EXPECT_EQ(t, shell("slabinfo stats-sh 8 4 2 1"), -EINVAL);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 3U);
	expect_unchanged(t, c, &was);
	/* One cache's line. */
	ktest_capture_start(t, "stats-sh ");
	KTEST_EXPECT_EQ(t, shell("slabinfo stats-sh"), 0);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	alloc_n(t, c, 30);
	free_n(c, 30);
}

static const struct ktest_case slab_stats_cases[] = {
	KTEST_CASE(test_scripted_counts),
	KTEST_CASE(test_flush_keeps_free_slab),
	KTEST_CASE(test_kfree_and_bulk_count),
	KTEST_CASE(test_grow_failure_counts_error),
	KTEST_CASE(test_debugged_cache_node_allocs),
	KTEST_CASE(test_off_nothing_moves),
	KTEST_CASE(test_boot_parameter),
	KTEST_CASE(test_slabinfo_columns),
	KTEST_CASE(test_slabinfo_all_caches),
	KTEST_CASE(test_tune_changes_arrays),
	KTEST_CASE(test_tune_kmalloc_cache),
	KTEST_CASE(test_cpu_arrays_in_node_blocks),
	KTEST_CASE(test_tune_bad_values),
	KTEST_CASE(test_tune_debugged_cache_refused),
	KTEST_CASE(test_tune_out_of_memory),
	KTEST_CASE(test_tune_shell_command),
	{}
};

KTEST_SUITE(slab_stats, slab_stats_cases);

// SPDX-License-Identifier: GPL-2.0
/*
 * The stack depot (lib/stackdepot.h) and the frame-pointer walk under
 * it (kernel/stacktrace.h):
 *
 *  - stack_trace_save() starts at its caller, skips what it is told,
 *    and stops at a frame that is off the stack, a return address not
 *    just past a call in the kernel's text (to the text's first and last
 *    byte), a next frame not above or not aligned, and 128 frames;
 *  - a walk's log of the words it read matches a later walk from the
 *    same frame through the same frames, and none that differs;
 *  - the same stack saved twice is one record and one handle, from one
 *    call site or from every CPU at once; different stacks (one entry
 *    apart, or one a prefix of the other, or each CPU's own saved
 *    while the others save theirs) get different handles;
 *  - fetch gives back what was saved; a zero, garbage or off-by-one
 *    handle fetches nothing (and prints nothing) without a fault;
 *  - a full depot returns 0 and counts each drop; what it stored stays
 *    fetchable, and a stored stack is still found;
 *  - saving from an interrupt handler works.
 */
#include "kernel/irq.h"
#include "kernel/kallsyms.h"
#include "kernel/smp.h"
#include "kernel/stacktrace.h"
#include "lib/ktest/ktest.h"
#include "lib/stackdepot.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/slab.h"

#define NR_ENTRIES	8
#define VEC_DEPOT	0x52

/* Synthetic stacks never seen before: a counter in every entry. */
static unsigned long fresh_seq;

static void fresh_stack(unsigned long *entries, unsigned int nr)
{
	unsigned long seq = __atomic_add_fetch(&fresh_seq, 1, __ATOMIC_RELAXED);

	for (unsigned int i = 0; i < nr; i++)
		entries[i] = 0xc0de000000000000UL | seq << 8 | i;
}

static __noinline depot_stack_handle_t save_here(void)
{
	unsigned long entries[STACK_DEPOT_MAX_ENTRIES];
	unsigned int nr = stack_trace_save(entries, ARRAY_SIZE(entries), 0);

	return stack_depot_save(entries, nr, GFP_KERNEL);
}

static __noinline depot_stack_handle_t save_elsewhere(void)
{
	return save_here();
}

static void test_stack_trace_save_starts_at_caller(struct ktest *t)
{
	unsigned long entries[16];
	unsigned int nr = stack_trace_save(entries, ARRAY_SIZE(entries), 0);
	unsigned int nr_skip;
	const char *name;

	KTEST_ASSERT_GT(t, nr, 1U);
	name = kallsyms_lookup(entries[0] - 1, NULL, NULL);
	KTEST_ASSERT_NOT_NULL(t, name);
	KTEST_EXPECT_STREQ(t, name, "test_stack_trace_save_starts_at_caller");
	/* Skipping one leaves out this function: the rest is the same. */
	nr_skip = stack_trace_save(entries, ARRAY_SIZE(entries), 1);
	KTEST_EXPECT_EQ(t, nr_skip, nr - 1);
	KTEST_EXPECT_NE(t, strcmp(kallsyms_lookup(entries[0] - 1, NULL, NULL),
				  "test_stack_trace_save_starts_at_caller"), 0);
	/* Bounded by the store. */
	KTEST_EXPECT_EQ(t, stack_trace_save(entries, 1, 0), 1U);
}

struct fake_frame {
	const struct fake_frame *next;
	unsigned long ret;
};

static void test_stack_trace_bad_frames(struct ktest *t)
{
	unsigned long entries[8];
	struct fake_frame f[2];
	static struct fake_frame off_stack = { NULL, 0 };

	off_stack.ret = (unsigned long)save_here + 1;
	/* Not a stack address, unaligned, NULL. */
	KTEST_EXPECT_EQ(t, stack_trace_save_bp((unsigned long)&off_stack,
					       entries, 8, 0), 0U);
	KTEST_EXPECT_EQ(t, stack_trace_save_bp((unsigned long)f + 1, entries,
					       8, 0), 0U);
	KTEST_EXPECT_EQ(t, stack_trace_save_bp(0, entries, 8, 0), 0U);
	/* A return address outside the kernel's text ends the walk. */
	f[0].next = &f[1];
	f[0].ret = 0x1234;
	KTEST_EXPECT_EQ(t, stack_trace_save_bp((unsigned long)f, entries, 8,
					       0), 0U);
	/* A next frame that leads down the stack ends it after one entry. */
	f[0].next = &f[0];
	f[0].ret = (unsigned long)save_here + 1;
	KTEST_EXPECT_EQ(t, stack_trace_save_bp((unsigned long)f, entries, 8,
					       0), 1U);
	KTEST_EXPECT_EQ(t, entries[0], (unsigned long)save_here + 1);
}

/* A chain of n frames on this stack, f[i] called by f[i + 1]. */
static void fake_chain(struct fake_frame *f, unsigned int n, unsigned long ret)
{
	for (unsigned int i = 0; i < n; i++) {
		f[i].next = i + 1 < n ? &f[i + 1] : NULL;
		f[i].ret = ret + i;
	}
}

#define CHAIN_FRAMES	8
#define LONG_CHAIN	136	/* past the walk's 128 frames */

/* Where a chain stops, what it skips, and the text's very edges. */
static void test_stack_trace_chain_checks(struct ktest *t)
{
	unsigned long ret = (unsigned long)save_here + 1, start, end;
	struct fake_frame f[CHAIN_FRAMES];
	unsigned long entries[CHAIN_FRAMES];

	fake_chain(f, CHAIN_FRAMES, ret);
	KTEST_EXPECT_EQ(t, stack_trace_save_bp((unsigned long)f, entries,
					       CHAIN_FRAMES, 0), CHAIN_FRAMES);
	KTEST_EXPECT_EQ(t, entries[CHAIN_FRAMES - 1], ret + CHAIN_FRAMES - 1);
	/* Skipped frames are walked, not stored; skipping them all: none. */
	KTEST_EXPECT_EQ(t, stack_trace_save_bp((unsigned long)f, entries,
					       CHAIN_FRAMES, 3),
			CHAIN_FRAMES - 3);
	KTEST_EXPECT_EQ(t, entries[0], ret + 3);
	KTEST_EXPECT_EQ(t, stack_trace_save_bp((unsigned long)f, entries,
					       CHAIN_FRAMES, CHAIN_FRAMES), 0U);
	KTEST_EXPECT_EQ(t, stack_trace_save_bp((unsigned long)f, entries, 3,
					       0), 3U);
	KTEST_EXPECT_EQ(t, stack_trace_save_bp((unsigned long)f, entries, 0,
					       0), 0U);
	/* A next frame that is not aligned ends the walk after this one. */
	f[2].next = (const void *)((char *)&f[3] + 4);
	KTEST_EXPECT_EQ(t, stack_trace_save_bp((unsigned long)f, entries,
					       CHAIN_FRAMES, 0), 3U);
	/* The text: ret - 1 must lie in [start, end); 0 never does. */
	kernel_text_bounds(&start, &end);
	KTEST_ASSERT_LT(t, start, end);
	fake_chain(f, 2, ret);
	f[1].ret = 0;
	KTEST_EXPECT_EQ(t, stack_trace_save_bp((unsigned long)f, entries,
					       CHAIN_FRAMES, 0), 1U);
	f[1].ret = start;
	KTEST_EXPECT_EQ(t, stack_trace_save_bp((unsigned long)f, entries,
					       CHAIN_FRAMES, 0), 1U);
	f[1].ret = end + 1;
	KTEST_EXPECT_EQ(t, stack_trace_save_bp((unsigned long)f, entries,
					       CHAIN_FRAMES, 0), 1U);
	f[1].ret = start + 1;
	KTEST_EXPECT_EQ(t, stack_trace_save_bp((unsigned long)f, entries,
					       CHAIN_FRAMES, 0), 2U);
	f[1].ret = end;
	KTEST_EXPECT_EQ(t, stack_trace_save_bp((unsigned long)f, entries,
					       CHAIN_FRAMES, 0), 2U);
}

/* At most 128 frames are walked, skipped ones included. */
static void test_stack_trace_frame_limit(struct ktest *t)
{
	unsigned long ret = (unsigned long)save_here + 1;
	struct fake_frame chain[LONG_CHAIN];
	unsigned long *entries;

	entries = kmalloc_array(LONG_CHAIN, sizeof(*entries), GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, entries);
	fake_chain(chain, LONG_CHAIN, ret);
	KTEST_EXPECT_EQ(t, stack_trace_save_bp((unsigned long)chain, entries,
					       LONG_CHAIN, 0), 128U);
	KTEST_EXPECT_EQ(t, entries[127], ret + 127);
	KTEST_EXPECT_EQ(t, stack_trace_save_bp((unsigned long)chain, entries,
					       LONG_CHAIN, 100), 28U);
	KTEST_EXPECT_EQ(t, entries[0], ret + 100);
	kfree(entries);
}


/* What log_here() found: its log, checked as saved and changed. */
enum { LOG_SAME, LOG_SHORTER, LOG_VOID, LOG_EMPTY, LOG_WORD };

struct log_result {
	struct stack_trace_log log;
	unsigned int nr;	/* entries saved */
	bool got[LOG_WORD + STACK_TRACE_LOG_WORDS];
};

/* The log changed as step i says. */
static void change_log(struct stack_trace_log *log, unsigned int i)
{
	if (i == LOG_SHORTER)
		log->nr--;
	else if (i == LOG_VOID)
		log->nr = STACK_TRACE_LOG_WORDS + 1;
	else if (i == LOG_EMPTY)
		log->nr = 1;
	else if (i >= LOG_WORD)
		log->word[i - LOG_WORD]++;
}

/*
 * Save a log, then match it, and copies of it changed, against walks
 * from this very frame (a later call could come from another call site
 * of the caller: gcc may split a loop).
 */
static __noinline void log_here(struct log_result *r)
{
	unsigned long fp = (unsigned long)__builtin_frame_address(0);
	struct stack_trace_log copy;
	unsigned long entries[16];

	r->nr = stack_trace_save_log(entries, ARRAY_SIZE(entries), &r->log);
	for (unsigned int i = 0; i < LOG_WORD + r->log.nr &&
	     i < ARRAY_SIZE(r->got); i++) {
		copy = r->log;
		change_log(&copy, i);
		r->got[i] = stack_trace_log_matches(&copy, fp);
	}
	barrier();
}

/* Does log match a walk from here? */
static __noinline bool log_check_here(const struct stack_trace_log *log)
{
	bool ret = stack_trace_log_matches(log,
				(unsigned long)__builtin_frame_address(0));

	barrier();
	return ret;
}

static __noinline void log_from_a(struct log_result *r)
{
	log_here(r);
	barrier();
}

static __noinline bool log_from_b(const struct stack_trace_log *log)
{
	bool ret = log_check_here(log);

	barrier();
	return ret;
}

/*
 * A log matches a walk from the same frame through the same frames, and
 * nothing else: any word changed but the walker's own return, another
 * caller at the same depth, a void log.
 */
static void test_stack_trace_log_matches(struct ktest *t)
{
	static struct log_result r;

	memset(&r, 0, sizeof(r));
	log_from_a(&r);
	KTEST_ASSERT_GT(t, r.nr, 3U);
	KTEST_ASSERT_LE(t, r.log.nr, (unsigned int)STACK_TRACE_LOG_WORDS);
	/* Two words a frame: its return address, then the next frame. */
	KTEST_EXPECT_GE(t, r.log.nr, 2 * r.nr);
	KTEST_EXPECT_LE(t, r.log.nr, 2 * r.nr + 2);
	KTEST_EXPECT_TRUE(t, r.got[LOG_SAME]);
	KTEST_EXPECT_TRUE(t, r.got[LOG_SHORTER]);
	KTEST_EXPECT_FALSE(t, r.got[LOG_VOID]);
	KTEST_EXPECT_FALSE(t, r.got[LOG_EMPTY]);
	for (unsigned int w = 0; w < r.log.nr; w++)
		KTEST_EXPECT_EQ(t, r.got[LOG_WORD + w], w == 0);
	KTEST_EXPECT_FALSE(t, log_from_b(&r.log));
	KTEST_EXPECT_FALSE(t, stack_trace_log_matches(&r.log, 0));
}

static int two = 2;

static void test_same_stack_same_handle(struct ktest *t)
{
	struct stack_depot_stats before, after;
	unsigned long a[NR_ENTRIES], copy[NR_ENTRIES];
	depot_stack_handle_t h1, h2, h3, real[2];

	fresh_stack(a, NR_ENTRIES);
	memcpy(copy, a, sizeof(a));
	stack_depot_get_stats(&before);
	h1 = stack_depot_save(a, NR_ENTRIES, GFP_KERNEL);
	h2 = stack_depot_save(copy, NR_ENTRIES, GFP_KERNEL);
	h3 = __stack_depot_save(a, NR_ENTRIES, 0, false);
	stack_depot_get_stats(&after);
	KTEST_ASSERT_NE(t, h1, 0U);
	KTEST_EXPECT_EQ(t, h2, h1);
	KTEST_EXPECT_EQ(t, h3, h1);
	KTEST_EXPECT_EQ(t, after.records, before.records + 1);
	/* A real stack from one call site, twice (a loop not unrolled). */
	for (int i = 0; i < READ_ONCE(two); i++)
		real[i] = save_here();
	KTEST_EXPECT_NE(t, real[0], 0U);
	KTEST_EXPECT_EQ(t, real[1], real[0]);
}

static void test_different_stacks_different_handles(struct ktest *t)
{
	unsigned long a[NR_ENTRIES], b[NR_ENTRIES];
	depot_stack_handle_t ha, hb, hprefix;

	fresh_stack(a, NR_ENTRIES);
	memcpy(b, a, sizeof(a));
	b[NR_ENTRIES - 1]++;
	ha = stack_depot_save(a, NR_ENTRIES, GFP_KERNEL);
	hb = stack_depot_save(b, NR_ENTRIES, GFP_KERNEL);
	hprefix = stack_depot_save(a, NR_ENTRIES - 1, GFP_KERNEL);
	KTEST_ASSERT_NE(t, ha, 0U);
	KTEST_ASSERT_NE(t, hb, 0U);
	KTEST_ASSERT_NE(t, hprefix, 0U);
	KTEST_EXPECT_NE(t, ha, hb);
	KTEST_EXPECT_NE(t, ha, hprefix);
	KTEST_EXPECT_NE(t, hb, hprefix);
	/* Two call sites: two stacks. */
	KTEST_EXPECT_NE(t, save_here(), save_elsewhere());
}

static void test_fetch_returns_entries(struct ktest *t)
{
	unsigned long a[STACK_DEPOT_MAX_ENTRIES + 8], *got;
	depot_stack_handle_t h;

	fresh_stack(a, NR_ENTRIES);
	h = stack_depot_save(a, NR_ENTRIES, GFP_KERNEL);
	KTEST_ASSERT_NE(t, h, 0U);
	KTEST_ASSERT_EQ(t, stack_depot_fetch(h, &got), (unsigned int)NR_ENTRIES);
	KTEST_ASSERT_NOT_NULL(t, got);
	KTEST_EXPECT_EQ(t, memcmp(got, a, NR_ENTRIES * sizeof(*a)), 0);
	/* Longer than a record keeps: the innermost entries. */
	fresh_stack(a, ARRAY_SIZE(a));
	h = stack_depot_save(a, ARRAY_SIZE(a), GFP_KERNEL);
	KTEST_ASSERT_NE(t, h, 0U);
	KTEST_ASSERT_EQ(t, stack_depot_fetch(h, &got),
			(unsigned int)STACK_DEPOT_MAX_ENTRIES);
	KTEST_EXPECT_EQ(t, memcmp(got, a, STACK_DEPOT_MAX_ENTRIES * sizeof(*a)),
			0);
	/* Nothing to save. */
	KTEST_EXPECT_EQ(t, stack_depot_save(a, 0, GFP_KERNEL), 0U);
}

static void test_bad_handles_fetch_nothing(struct ktest *t)
{
	static const depot_stack_handle_t bad[] = {
		0, 1, 0x7fffffff, 0xffffffff, 0x80000000 | (1023U << 10),
		0xdeadbeef,
	};
	unsigned long a[NR_ENTRIES], *got;
	depot_stack_handle_t h;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		got = (unsigned long *)1;
		KTEST_EXPECT_EQ(t, stack_depot_fetch(bad[i], &got), 0U);
		KTEST_EXPECT_NULL(t, got);
	}
	/* A real record's neighbours in its pool are no records. */
	fresh_stack(a, NR_ENTRIES);
	h = stack_depot_save(a, NR_ENTRIES, GFP_KERNEL);
	KTEST_ASSERT_NE(t, h, 0U);
	KTEST_EXPECT_EQ(t, stack_depot_fetch(h + 1, &got), 0U);
	KTEST_EXPECT_NULL(t, got);
	/*
	 * A record forged inside another's entries (16-byte aligned, a
	 * plausible size) is no record either: it does not carry its handle.
	 */
	fresh_stack(a, NR_ENTRIES);
	a[2] = 2UL << 32;	/* size 2, hash 0 */
	a[3] = 0;		/* handle 0 */
	h = stack_depot_save(a, NR_ENTRIES, GFP_KERNEL);
	KTEST_ASSERT_NE(t, h, 0U);
	KTEST_EXPECT_EQ(t, stack_depot_fetch(h + 2, &got), 0U);
	KTEST_EXPECT_NULL(t, got);
	/* Printing a bad handle prints nothing, and does not fault. */
	ktest_capture_start(t, "0xc0de");
	stack_depot_print(0);
	stack_depot_print(0xdeadbeef);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
}

static void test_full_depot_drops(struct ktest *t)
{
	struct stack_depot_stats st, after;
	unsigned long a[NR_ENTRIES], kept[NR_ENTRIES], *got;
	depot_stack_handle_t hkept, h = 1;
	unsigned long saved = 0, dropped = 0;
	unsigned int old_max;

	fresh_stack(kept, NR_ENTRIES);
	hkept = stack_depot_save(kept, NR_ENTRIES, GFP_KERNEL);
	KTEST_ASSERT_NE(t, hkept, 0U);
	/* No more pools than in use: the last one fills, then nothing. */
	old_max = stack_depot_set_max_pools(0);
	stack_depot_get_stats(&st);
	KTEST_EXPECT_EQ(t, st.max_pools, st.pools);
	for (unsigned int i = 0; i < 100000 && h; i++) {
		fresh_stack(a, NR_ENTRIES);
		h = stack_depot_save(a, NR_ENTRIES, GFP_KERNEL);
		saved += h != 0;
	}
	KTEST_EXPECT_EQ(t, h, 0U);
	/* Every further new stack is dropped and counted. */
	for (unsigned int i = 0; i < 10; i++) {
		fresh_stack(a, NR_ENTRIES);
		dropped += !stack_depot_save(a, NR_ENTRIES, GFP_KERNEL);
	}
	stack_depot_get_stats(&after);
	stack_depot_set_max_pools(old_max);
	KTEST_EXPECT_EQ(t, dropped, 10UL);
	KTEST_EXPECT_EQ(t, after.dropped, st.dropped + 11);
	KTEST_EXPECT_EQ(t, after.records, st.records + saved);
	KTEST_EXPECT_EQ(t, after.pools, st.pools);
	/* What was stored is still there, and found again. */
	KTEST_EXPECT_EQ(t, stack_depot_save(kept, NR_ENTRIES, GFP_KERNEL),
			hkept);
	KTEST_ASSERT_EQ(t, stack_depot_fetch(hkept, &got),
			(unsigned int)NR_ENTRIES);
	KTEST_EXPECT_EQ(t, memcmp(got, kept, sizeof(kept)), 0);
	/* With the bound back, new stacks are stored again. */
	fresh_stack(a, NR_ENTRIES);
	KTEST_EXPECT_NE(t, stack_depot_save(a, NR_ENTRIES, GFP_KERNEL), 0U);
}

static struct {
	unsigned long entries[NR_ENTRIES];
	depot_stack_handle_t fresh, walked;
	unsigned int hits;
	bool bad_context;
} irq_probe;

static void depot_irq_handler(unsigned int vector)
{
	if (!in_hardirq() || !irqs_disabled())
		irq_probe.bad_context = true;
	irq_probe.fresh = stack_depot_save(irq_probe.entries, NR_ENTRIES,
					   GFP_ATOMIC);
	irq_probe.walked = save_here();
	irq_probe.hits++;
}

static void remove_handler(void *arg)
{
	set_irq_handler((unsigned int)(unsigned long)arg, NULL);
}

static void test_save_from_interrupt(struct ktest *t)
{
	unsigned long *got;

	memset(&irq_probe, 0, sizeof(irq_probe));
	fresh_stack(irq_probe.entries, NR_ENTRIES);
	KTEST_ASSERT_EQ(t, set_irq_handler(VEC_DEPOT, depot_irq_handler), 0);
	KTEST_ASSERT_EQ(t, ktest_add_action_or_reset(t, remove_handler,
				(void *)(unsigned long)VEC_DEPOT), 0);
	apic_send_IPI_self(VEC_DEPOT);
	KTEST_ASSERT_EQ(t, irq_probe.hits, 1U);
	KTEST_EXPECT_FALSE(t, irq_probe.bad_context);
	KTEST_ASSERT_NE(t, irq_probe.fresh, 0U);
	KTEST_EXPECT_NE(t, irq_probe.walked, 0U);
	/* Found again from process context: one record. */
	KTEST_EXPECT_EQ(t, stack_depot_save(irq_probe.entries, NR_ENTRIES,
					    GFP_KERNEL), irq_probe.fresh);
	KTEST_ASSERT_EQ(t, stack_depot_fetch(irq_probe.fresh, &got),
			(unsigned int)NR_ENTRIES);
	KTEST_EXPECT_EQ(t, memcmp(got, irq_probe.entries,
				  sizeof(irq_probe.entries)), 0);
}

/*
 * Every CPU saves the same new stacks at once, in its IPI handler, and
 * between them stacks of its own that no other CPU saves.
 */
#define RACE_STACKS	32
#define RACE_OWN	8

static struct {
	unsigned long entries[RACE_STACKS][NR_ENTRIES];
	unsigned long own[NR_CPUS][RACE_OWN][NR_ENTRIES];
	depot_stack_handle_t handle[NR_CPUS][RACE_STACKS];
	depot_stack_handle_t own_handle[NR_CPUS][RACE_OWN];
} race;

static void save_race_stacks(void *info)
{
	unsigned int cpu = smp_processor_id();

	for (unsigned int i = 0; i < RACE_STACKS; i++) {
		race.handle[cpu][i] = stack_depot_save(race.entries[i],
						       NR_ENTRIES, GFP_ATOMIC);
		if (i < RACE_OWN)
			race.own_handle[cpu][i] =
				stack_depot_save(race.own[cpu][i], NR_ENTRIES,
						 GFP_ATOMIC);
	}
}

/* Each CPU's own stacks: stored once each, and fetched back whole. */
static void check_own_stacks(struct ktest *t, unsigned int cpu)
{
	unsigned long *entries;

	for (unsigned int i = 0; i < RACE_OWN; i++) {
		depot_stack_handle_t h = race.own_handle[cpu][i];

		KTEST_EXPECT_NE(t, h, 0U);
		KTEST_EXPECT_EQ(t, stack_depot_fetch(h, &entries),
				(unsigned int)NR_ENTRIES);
		if (entries)
			KTEST_EXPECT_EQ(t, memcmp(entries, race.own[cpu][i],
						  sizeof(race.own[cpu][i])), 0);
	}
}

static void test_same_stack_on_every_cpu(struct ktest *t)
{
	struct stack_depot_stats before, after;
	unsigned int this = smp_processor_id();
	unsigned int cpus = num_online_cpus();

	if (cpus < 2)
		ktest_skip(t, "one CPU online");
	memset(&race, 0, sizeof(race));
	for (unsigned int i = 0; i < RACE_STACKS; i++)
		fresh_stack(race.entries[i], NR_ENTRIES);
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		for (unsigned int i = 0; i < RACE_OWN; i++)
			fresh_stack(race.own[cpu][i], NR_ENTRIES);
	}
	stack_depot_get_stats(&before);
	KTEST_ASSERT_EQ(t, on_each_cpu(save_race_stacks, NULL, true), 0);
	stack_depot_get_stats(&after);
	KTEST_EXPECT_EQ(t, after.records,
			before.records + RACE_STACKS + cpus * RACE_OWN);
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (!cpu_online(cpu))
			continue;
		for (unsigned int i = 0; i < RACE_STACKS; i++) {
			KTEST_EXPECT_NE(t, race.handle[cpu][i], 0U);
			KTEST_EXPECT_EQ(t, race.handle[cpu][i],
					race.handle[this][i]);
		}
		check_own_stacks(t, cpu);
	}
}

/* The counters agree with each other; the log shows what the boot stored. */
static void test_stats(struct ktest *t)
{
	struct stack_depot_stats st;
	unsigned long pool_pages;

	KTEST_ASSERT_NE(t, save_here(), 0U);
	stack_depot_get_stats(&st);
	pool_pages = st.pools * 4;	/* 16 KiB pools */
	KTEST_EXPECT_GE(t, st.records, 1UL);
	KTEST_EXPECT_GE(t, st.pools, 1UL);
	KTEST_EXPECT_LE(t, st.pools, st.max_pools);
	KTEST_EXPECT_GE(t, st.pages, pool_pages);
	KTEST_EXPECT_LE(t, st.pages, st.max_pools * 4);
	ktest_info(t, "%lu stacks in %lu pools of 16 KiB, %lu dropped",
		   st.records, st.pools, st.dropped);
}

static int stackdepot_suite_init(struct ktest *t)
{
	return stack_depot_init();
}

static struct ktest_case stackdepot_cases[] = {
	KTEST_CASE(test_stack_trace_save_starts_at_caller),
	KTEST_CASE(test_stack_trace_bad_frames),
	KTEST_CASE(test_stack_trace_chain_checks),
	KTEST_CASE(test_stack_trace_frame_limit),
	KTEST_CASE(test_stack_trace_log_matches),
	KTEST_CASE(test_same_stack_same_handle),
	KTEST_CASE(test_different_stacks_different_handles),
	KTEST_CASE(test_fetch_returns_entries),
	KTEST_CASE(test_bad_handles_fetch_nothing),
	KTEST_CASE(test_full_depot_drops),
	KTEST_CASE(test_save_from_interrupt),
	KTEST_CASE(test_same_stack_on_every_cpu),
	KTEST_CASE(test_stats),
	{}
};

KTEST_SUITE(stackdepot, stackdepot_cases, .init = stackdepot_suite_init);

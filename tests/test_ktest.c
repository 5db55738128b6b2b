// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the test framework and the console plumbing it relies on:
 * the comparison helpers decide right for signed and unsigned values
 * (checked on a private struct ktest, so no failure reaches the real
 * case), parameters are generated in order, the printk capture hook sees
 * whole lines, and the shell dispatches and rejects commands.
 *
 * The checks the runner makes around a case (uncaptured reports, leaks
 * named by cache) and failing ASSERTs run in nested cases
 * (ktest_run_nested), named "deliberate...": their failure lines in the
 * log are expected, and captured and checked here.
 */
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "lib/ktest/ktest.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
#include "kernel/smp.h"
#include "kernel/time.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/slab.h"

/* Run one passing check on a scratch test; it must not flag anything. */
static void test_int_compare_signedness(struct ktest *t)
{
	int minus_one = -1;
	unsigned long big = ~0UL;

	KTEST_EXPECT_LT(t, minus_one, 1);
	KTEST_EXPECT_GT(t, big, 1UL);
	KTEST_EXPECT_LE(t, -5L, -5L);
	KTEST_EXPECT_GE(t, (u8)200, (u8)100);
	KTEST_EXPECT_NE(t, minus_one, 0);
	KTEST_EXPECT_EQ(t, t->status, KTEST_SUCCESS);
}

static void test_ptr_and_str_compare(struct ktest *t)
{
	const char *a = "abc";
	char b[4] = "abc";

	KTEST_EXPECT_STREQ(t, a, b);
	KTEST_EXPECT_STRNEQ(t, a, "abd");
	KTEST_EXPECT_STRNEQ(t, a, NULL);
	KTEST_EXPECT_PTR_NE(t, (const void *)a, (const void *)b);
	KTEST_EXPECT_NULL(t, (void *)NULL);
	KTEST_EXPECT_MEMEQ(t, a, b, 4);
	KTEST_EXPECT_EQ(t, t->status, KTEST_SUCCESS);
}

static const int squares[] = { 0, 1, 4, 9 };

static void square_desc(const int *p, char *desc)
{
	desc[0] = (char)('0' + (p - squares));
	desc[1] = '\0';
}
KTEST_ARRAY_PARAM(square_gen, squares, square_desc);

static void test_params_in_order(struct ktest *t)
{
	const int *p = t->param_value;
	int i = (int)(p - squares);

	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_EQ(t, *p, i * i);
	KTEST_EXPECT_EQ(t, t->name[0], '0' + i);
}

/*
 * Descriptions that would break KTAP: '#' starts a directive, a line
 * break ends the result line. The runner prints, and names the case,
 * a safe form.
 */
static const char *const unsafe_descs[] = {
	"\"%#x\" -> \"0x1f\"",
	"a # SKIP b",
	"two\nlines",
};

static void unsafe_desc(const char *const *p, char *desc)
{
	strscpy(desc, *p, KTEST_DESC_SIZE);
}
KTEST_ARRAY_PARAM(unsafe_gen, unsafe_descs, unsafe_desc);

static void test_names_ktap_safe(struct ktest *t)
{
	static const char *const safe[] = {
		"\"%<hash>x\" -> \"0x1f\"",
		"a <hash> SKIP b",
		"two lines",
	};
	const char *const *p = t->param_value;

	KTEST_EXPECT_STREQ(t, t->name, safe[p - unsafe_descs]);
	KTEST_EXPECT_NULL(t, strchr(t->name, '#'));
}

static void test_capture_counts_lines(struct ktest *t)
{
	ktest_capture_start(t, "ktest-capture-marker");
	pr_info("ktest-capture-marker one\n");
	pr_info("unrelated line\n");
	pr_info("two: ktest-capture-");
	pr_cont("marker, split over two printk calls\n");
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 2U);
	pr_info("ktest-capture-marker after stop\n");
	KTEST_EXPECT_EQ(t, t->capture_hits, 2U);
}

static void test_capture_keeps_text(struct ktest *t)
{
	ktest_capture_start(t, "marker");
	pr_info("ktest-capture marker one\n");
	pr_info("no match, ");
	pr_cont("continued\n");
	console_printf("straight to the console: marker\n");
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 2U);
	pr_info("after the stop\n");
	/* Timestamps are not kept: the text can be compared exactly. */
	KTEST_EXPECT_STREQ(t, ktest_captured(t),
			   "ktest-capture marker one\n"
			   "no match, continued\n"
			   "straight to the console: marker\n");

	ktest_capture_start(t, NULL);
	KTEST_EXPECT_STREQ(t, ktest_captured(t), "");
	pr_info("second window\n");
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_STREQ(t, ktest_captured(t), "second window\n");
}

/* Past KTEST_CAPTURE_SIZE lines are dropped, and the text says so. */
static void test_capture_overflow_noted(struct ktest *t)
{
	const unsigned int lines = 2 * KTEST_CAPTURE_SIZE / 64;
	const char *text;
	size_t len;

	ktest_capture_start(t, "flood line");
	for (unsigned int i = 0; i < lines; i++)	/* below the console level */
		pr_debug("ktest flood line %4u: .................................\n", i);
	pr_info("ktest after the flood\n");
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), lines);
	text = ktest_captured(t);
	len = strlen(text);
	KTEST_EXPECT_LT(t, len, (size_t)KTEST_CAPTURE_SIZE);
	KTEST_EXPECT_GT(t, len, (size_t)KTEST_CAPTURE_SIZE - 128);
	KTEST_EXPECT_TRUE(t, !strncmp(text, "ktest flood line    0: ", 23));
	KTEST_EXPECT_CAPTURED(t, "capture buffer full");
	KTEST_EXPECT_NOT_CAPTURED(t, "ktest after the flood");
	KTEST_EXPECT_EQ(t, text[len - 1], '\n');
}

/*
 * A failing EXPECT_CAPTURED on a private struct ktest (its failure must
 * not reach this case), its report captured here.
 */
static void test_expect_captured(struct ktest *t)
{
	struct ktest inner = { .name = "deliberate", .indent = t->indent };

	ktest_capture_start(t, NULL);
	pr_info("ktest-capture alpha\n");
	ktest_capture_stop(t);
	KTEST_EXPECT_CAPTURED(t, "capture alpha");
	KTEST_EXPECT_NOT_CAPTURED(t, "capture beta");

	ktest_capture_start(&inner, NULL);
	pr_info("ktest-capture alpha\n");
	ktest_capture_stop(&inner);
	KTEST_EXPECT_TRUE(t, KTEST_EXPECT_CAPTURED(&inner, "capture alpha"));
	KTEST_EXPECT_EQ(t, inner.status, KTEST_SUCCESS);

	ktest_capture_start(t, NULL);
	KTEST_EXPECT_FALSE(t, KTEST_EXPECT_CAPTURED(&inner, "capture beta"));
	KTEST_EXPECT_FALSE(t, KTEST_EXPECT_NOT_CAPTURED(&inner, "alpha"));
	ktest_capture_stop(t);
	KTEST_EXPECT_EQ(t, inner.status, KTEST_FAILURE);
	KTEST_EXPECT_CAPTURED(t, "# deliberate: EXPECTATION FAILED at tests/test_ktest.c:");
	KTEST_EXPECT_CAPTURED(t, "\n    Expected the captured output to contain \"capture beta\", but\n"
			      "        captured (1 line):\n"
			      "        | ktest-capture alpha\n");
	KTEST_EXPECT_CAPTURED(t, "Expected the captured output not to contain \"alpha\", but\n");
}

/* Five report lines the nested case does not capture. */
static void provoke_reports(struct ktest *t)
{
	ktest_capture_start(t, "BUG:");
	pr_err("BUG: ktest expected report (captured)\n");
	ktest_capture_stop(t);
	pr_err("BUG: ktest deliberate report 1\n");
	pr_warn("WARNING: ktest deliberate report 2\n");
	for (int i = 3; i <= 5; i++)
		pr_debug("BUG: ktest deliberate report %d\n", i);
}

static void test_unexpected_report_fails(struct ktest *t)
{
	ktest_capture_start(t, "unexpected report");
	KTEST_EXPECT_EQ(t, ktest_run_nested(t, "deliberate-reports", provoke_reports,
					    NULL), KTEST_FAILURE);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 4U);
	KTEST_EXPECT_CAPTURED(t, "# deliberate-reports: unexpected report: BUG: ktest deliberate report 1\n");
	KTEST_EXPECT_CAPTURED(t, "# deliberate-reports: unexpected report: WARNING: ktest deliberate report 2\n");
	KTEST_EXPECT_CAPTURED(t, "# deliberate-reports: unexpected report: BUG: ktest deliberate report 3\n");
	KTEST_EXPECT_CAPTURED(t, "# deliberate-reports: 2 more unexpected report lines\n");
	KTEST_EXPECT_NOT_CAPTURED(t, "report: BUG: ktest expected report");
}

/* Captured reports, and the framework's own lines, are no reports. */
static void expected_reports(struct ktest *t)
{
	ktest_capture_start(t, "BUG:");
	pr_err("BUG: ktest expected report\n");
	pr_warn("WARNING: ktest expected report\n");
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	ktest_info(t, "not a report: BUG: WARNING:");
}

static void test_expected_report_passes(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, ktest_run_nested(t, "expected-reports", expected_reports,
					    NULL), KTEST_SUCCESS);
}

static void assert_captured(struct ktest *t)
{
	bool *reached = t->priv;

	ktest_capture_start(t, NULL);
	pr_info("ktest-capture gamma\n");
	ktest_capture_stop(t);
	KTEST_ASSERT_CAPTURED(t, "gamma");
	KTEST_ASSERT_CAPTURED(t, "delta");
	*reached = true;
}

static void test_assert_captured_ends_case(struct ktest *t)
{
	bool reached = false;

	ktest_capture_start(t, NULL);
	KTEST_EXPECT_EQ(t, ktest_run_nested(t, "deliberate-assert", assert_captured,
					    &reached), KTEST_FAILURE);
	ktest_capture_stop(t);
	KTEST_EXPECT_FALSE(t, reached);
	KTEST_EXPECT_CAPTURED(t, "# deliberate-assert: ASSERTION FAILED at tests/test_ktest.c:");
	KTEST_EXPECT_CAPTURED(t, "Expected the captured output to contain \"delta\", but\n");
	KTEST_EXPECT_NOT_CAPTURED(t, "\"gamma\"");
}

/*
 * Leaks in nested cases, named by cache. The outer case frees what they
 * left.
 */
struct leak_test {
	struct kmem_cache *old, *born;
	void *objs[4];
};

static void leak_test_cleanup(struct leak_test *lt)
{
	for (int i = 0; i < 4; i++) {
		if (lt->objs[i])
			kmem_cache_free(lt->born ? lt->born : lt->old, lt->objs[i]);
	}
	if (lt->born)
		kmem_cache_destroy(lt->born);
	if (lt->old)
		kmem_cache_destroy(lt->old);
}

static void leak_one(struct ktest *t)
{
	struct leak_test *lt = t->priv;

	lt->objs[0] = kmem_cache_alloc(lt->old, GFP_KERNEL);
}

static void test_leak_names_cache(struct ktest *t)
{
	struct leak_test lt = { 0 };
	enum ktest_status status;

	lt.old = kmem_cache_create("ktest-leaky", 40, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, lt.old);
	ktest_capture_start(t, "leaked");
	status = ktest_run_nested(t, "deliberate-leak", leak_one, &lt);
	ktest_capture_stop(t);
	KTEST_EXPECT_NOT_NULL(t, lt.objs[0]);
	leak_test_cleanup(&lt);
	KTEST_EXPECT_EQ(t, status, KTEST_FAILURE);
	KTEST_EXPECT_CAPTURED(t, "# deliberate-leak: leaked 1 slab objects (");
	KTEST_EXPECT_CAPTURED(t, " after): ktest-leaky +1\n");
}

/*
 * A cache born during the case counts from 0; one destroyed is absent,
 * even when the new one takes over its struct kmem_cache (likely: the
 * cache of caches hands back the object just freed).
 */
static void leak_from_new_cache(struct ktest *t)
{
	struct leak_test *lt = t->priv;

	kmem_cache_free(lt->old, lt->objs[0]);
	kmem_cache_free(lt->old, lt->objs[1]);
	lt->objs[0] = lt->objs[1] = NULL;
	kmem_cache_destroy(lt->old);
	lt->old = NULL;
	lt->born = kmem_cache_create("ktest-born", 40, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, lt->born);
	for (int i = 0; i < 4; i++)
		lt->objs[i] = kmem_cache_alloc(lt->born, GFP_KERNEL);
}

static void test_leak_names_new_cache(struct ktest *t)
{
	struct leak_test lt = { 0 };
	enum ktest_status status;

	lt.old = kmem_cache_create("ktest-doomed", 40, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, lt.old);
	lt.objs[0] = kmem_cache_alloc(lt.old, GFP_KERNEL);
	lt.objs[1] = kmem_cache_alloc(lt.old, GFP_KERNEL);
	ktest_capture_start(t, "leaked");
	status = ktest_run_nested(t, "deliberate-leak", leak_from_new_cache, &lt);
	ktest_capture_stop(t);
	leak_test_cleanup(&lt);
	KTEST_EXPECT_EQ(t, status, KTEST_FAILURE);
	KTEST_EXPECT_CAPTURED(t, "ktest-born +4");
	KTEST_EXPECT_NOT_CAPTURED(t, "ktest-doomed");
}

/* A nested run takes the resources' breakdown: the failure says so. */
static void nested_then_leak(struct ktest *t)
{
	struct leak_test *lt = t->priv;

	ktest_run_nested(t, "inner", leak_one, lt);
	lt->objs[1] = kmem_cache_alloc(lt->old, GFP_KERNEL);
}

static void test_leak_breakdown_lost(struct ktest *t)
{
	struct leak_test lt = { 0 };

	lt.old = kmem_cache_create("ktest-leaky", 40, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, lt.old);
	ktest_capture_start(t, "slab objects");
	KTEST_EXPECT_EQ(t, ktest_run_nested(t, "deliberate-leak", nested_then_leak, &lt),
			KTEST_FAILURE);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 2U);
	leak_test_cleanup(&lt);
	KTEST_EXPECT_CAPTURED(t, "# inner: leaked 1 slab objects (");
	KTEST_EXPECT_CAPTURED(t, "# deliberate-leak: leaked 2 slab objects (");
	KTEST_EXPECT_CAPTURED(t, " after) (no breakdown: a nested case replaced it)\n");
}

/*
 * A case that frees everything passes the leak check, whatever the
 * caches keep afterwards: free slabs, objects in per-CPU and shared
 * arrays, pages on per-CPU lists, off-slab index arrays (caches of 512
 * bytes and more keep them in kmalloc objects).
 */
#define SETTLE_OBJS	48

static const size_t settle_sizes[] = {
	8, 16, 24, 64, 96, 100, 192, 256, 500, 512, 700, 1024, 2048, 3000,
	4096, 8192, 8193, 20000,
};

static void kmalloc_then_free(struct ktest *t, size_t size, void **objs)
{
	for (int i = 0; i < SETTLE_OBJS; i++) {
		objs[i] = kmalloc(size, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, objs[i]);
	}
	/* Odd slots first, then the even ones from the last. */
	for (int i = 1; i < SETTLE_OBJS; i += 2)
		kfree(objs[i]);
	for (int i = SETTLE_OBJS - 2; i >= 0; i -= 2)
		kfree(objs[i]);
}

static void krealloc_up_and_down(struct ktest *t)
{
	static const size_t steps[] = { 8, 200, 1500, 9000, 600, 40, 5000, 16 };
	void *p = NULL;

	for (unsigned int i = 0; i < ARRAY_SIZE(steps); i++) {
		void *q = krealloc(p, steps[i], GFP_KERNEL);

		KTEST_ASSERT_NOT_NULL(t, q);
		p = q;
	}
	kfree(p);
}

static void bulk_then_free(struct ktest *t, struct kmem_cache *c, void **objs)
{
	KTEST_ASSERT_EQ(t, kmem_cache_alloc_bulk(c, GFP_KERNEL, SETTLE_OBJS, objs),
			SETTLE_OBJS);
	kmem_cache_free_bulk(c, SETTLE_OBJS / 2, objs + SETTLE_OBJS / 2);
	kmem_cache_free_bulk(c, SETTLE_OBJS / 2, objs);
}

static void free_everything(struct ktest *t)
{
	struct kmem_cache *outer_cache = t->priv, *c;
	void *objs[SETTLE_OBJS];

	for (unsigned int i = 0; i < ARRAY_SIZE(settle_sizes); i++)
		kmalloc_then_free(t, settle_sizes[i], objs);
	krealloc_up_and_down(t);
	bulk_then_free(t, kmalloc_caches[0][6], objs);		/* 64 */
	bulk_then_free(t, kmalloc_caches[0][10], objs);		/* 1024 */
	bulk_then_free(t, outer_cache, objs);
	c = kmem_cache_create("ktest-settle", 700, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, c);
	bulk_then_free(t, c, objs);
	kmem_cache_destroy(c);
}

/* Its cache outlives the nested case, keeping what it was given back. */
static void test_leak_check_settles(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("ktest-settle-kept", 600, 0,
						 0, NULL);

	KTEST_ASSERT_NOT_NULL(t, c);
	KTEST_EXPECT_EQ(t, ktest_run_nested(t, "frees-everything", free_everything,
					    c), KTEST_SUCCESS);
	kmem_cache_destroy(c);
}

/* A case that keeps one object fails, naming the object's cache. */
struct leak_size {
	const char *name;	/* the cache the leak must name */
	size_t size;		/* kmalloc size, or a private cache's */
	bool private;
};

static const struct leak_size leak_sizes[] = {
	{ "kmalloc-8", 8 },
	{ "kmalloc-64", 64 },
	{ "kmalloc-512", 512 },		/* off-slab index arrays */
	{ "kmalloc-1k", 1000 },
	{ "kmalloc-8k", 8192 },
	{ "ktest-leak-40", 40, true },
	{ "ktest-leak-700", 700, true },	/* off-slab index arrays */
};

static void leak_size_desc(const struct leak_size *p, char *desc)
{
	strscpy(desc, p->name, KTEST_DESC_SIZE);
}
KTEST_ARRAY_PARAM(leak_size_gen, leak_sizes, leak_size_desc);

struct leak_one_object {
	struct kmem_cache *cache;	/* NULL: kmalloc */
	size_t size;
	void *obj;
};

static void leak_one_object(struct ktest *t)
{
	struct leak_one_object *l = t->priv;

	l->obj = l->cache ? kmem_cache_alloc(l->cache, GFP_KERNEL) :
			    kmalloc(l->size, GFP_KERNEL);
}

static void test_leak_names_any_size(struct ktest *t)
{
	const struct leak_size *p = t->param_value;
	struct leak_one_object l = { .size = p->size };
	char expected[80];
	enum ktest_status status;

	if (p->private) {
		l.cache = kmem_cache_create(p->name, p->size, 0, 0, NULL);
		KTEST_ASSERT_NOT_NULL(t, l.cache);
	}
	ktest_capture_start(t, "leaked");
	status = ktest_run_nested(t, "deliberate-leak", leak_one_object, &l);
	ktest_capture_stop(t);
	if (l.cache) {
		kmem_cache_free(l.cache, l.obj);
		kmem_cache_destroy(l.cache);
	} else {
		kfree(l.obj);
	}
	KTEST_EXPECT_NOT_NULL(t, l.obj);
	KTEST_EXPECT_EQ(t, status, KTEST_FAILURE);
	snprintf(expected, sizeof(expected), " after): %s +1\n", p->name);
	KTEST_EXPECT_CAPTURED(t, "# deliberate-leak: leaked 1 slab objects (");
	KTEST_EXPECT_CAPTURED(t, expected);
}

static void leak_one_page(struct ktest *t)
{
	*(struct page **)t->priv = alloc_pages(GFP_KERNEL, 0);
}

static void test_leak_page_fails(struct ktest *t)
{
	struct page *page = NULL;
	enum ktest_status status;

	ktest_capture_start(t, "leaked");
	status = ktest_run_nested(t, "deliberate-leak", leak_one_page, &page);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_ASSERT_NOT_NULL(t, page);
	__free_pages(page, 0);
	KTEST_EXPECT_EQ(t, status, KTEST_FAILURE);
	KTEST_EXPECT_CAPTURED(t, "# deliberate-leak: leaked 1 pages (");
}

/* --- report kinds ------------------------------------------------- */

static void warn_then_expect(struct ktest *t)
{
	ktest_capture_start(t, "WARNING:");
	WARN(true, "ktest deliberate warning\n");
	ktest_capture_stop(t);
	KTEST_EXPECT_REPORTS(t, REPORT_WARN, 1);
	KTEST_EXPECT_REPORT(t, REPORT_BAD_PAGE_WRONG_ORDER);
}

/* A capture window counts the reports by kind; a check names them. */
static void test_report_kinds(struct ktest *t)
{
	ktest_capture_start(t, "WARNING:");
	WARN(true, "ktest deliberate warning\n");
	WARN(true, "ktest deliberate warning\n");
	report_kind(REPORT_SLAB_POISON);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 2U);
	KTEST_EXPECT_REPORTS(t, REPORT_WARN, 2);
	KTEST_EXPECT_REPORT(t, REPORT_SLAB_POISON);
	KTEST_EXPECT_EQ(t, ktest_reports(t, REPORT_BAD_PAGE_TAIL), 0U);
	report_kind(REPORT_WARN);	/* outside the window: not counted */
	KTEST_EXPECT_EQ(t, ktest_reports(t, REPORT_WARN), 2U);

	ktest_capture_start(t, NULL);
	KTEST_EXPECT_EQ(t, ktest_reports(t, REPORT_WARN), 0U);
	KTEST_EXPECT_EQ(t, ktest_run_nested(t, "deliberate-kind", warn_then_expect,
					    NULL), KTEST_FAILURE);
	ktest_capture_stop(t);
	KTEST_EXPECT_EQ(t, ktest_reports(t, REPORT_WARN), 1U);
	KTEST_EXPECT_CAPTURED(t, "Expected a report of kind REPORT_BAD_PAGE_WRONG_ORDER (bad_page_wrong_order), but\n"
			      "        reports captured: warn x1\n");
	KTEST_EXPECT_STREQ(t, report_kind_name(REPORT_BAD_PAGE_TAIL), "bad_page_tail");
}

#define KINDS_PER_CPU	8000

static void report_many(void *info)
{
	(void)info;
	for (unsigned int i = 0; i < KINDS_PER_CPU; i++)
		report_kind(REPORT_SLAB_POISON);
}

/* Reports from every CPU at once are all counted. */
static void test_report_kinds_every_cpu(struct ktest *t)
{
	unsigned int want;

	if (num_online_cpus() < 2)
		ktest_skip(t, "one CPU online");
	want = num_online_cpus() * KINDS_PER_CPU;
	ktest_capture_start(t, NULL);
	on_each_cpu(report_many, NULL, true);
	ktest_capture_stop(t);
	KTEST_EXPECT_EQ(t, ktest_reports(t, REPORT_SLAB_POISON),
			min(want, 65535U));
}

/* --- deferred actions ---------------------------------------------- */

struct action_log {
	char text[KTEST_MAX_ACTIONS + 2];
	unsigned int len;
};

struct action_note {
	struct action_log *log;
	char c;
};

static void note_action(void *arg)
{
	struct action_note *n = arg;

	n->log->text[n->log->len++] = n->c;
}

static void three_actions(struct ktest *t)
{
	static struct action_note notes[3];
	struct action_log *log = t->priv;

	for (int i = 0; i < 3; i++) {
		notes[i] = (struct action_note){ log, (char)('a' + i) };
		KTEST_EXPECT_EQ(t, ktest_add_action(t, note_action, &notes[i]), 0);
	}
	KTEST_EXPECT_EQ(t, ktest_release_action(t, note_action, &notes[1]), 0);
	KTEST_EXPECT_EQ(t, ktest_release_action(t, note_action, &notes[1]), -ENOENT);
	KTEST_EXPECT_STREQ(t, log->text, "b");
}

static void test_actions_run_last_first(struct ktest *t)
{
	struct action_log log = { .len = 0 };

	KTEST_EXPECT_EQ(t, ktest_run_nested(t, "actions", three_actions, &log),
			KTEST_SUCCESS);
	KTEST_EXPECT_STREQ(t, log.text, "bca");
}

static void destroy_cache_action(void *cachep)
{
	kmem_cache_destroy(cachep);
}

static void free_object_action(void *obj)
{
	kmem_cache_free(*(struct kmem_cache **)obj, obj);
}

/* Memory and a cache, then an ASSERT that fails: the actions free all. */
static void assert_after_cleanup(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("ktest-action", 64, 0, 0, NULL);
	struct kmem_cache **obj;
	char *buf;

	KTEST_ASSERT_NOT_NULL(t, c);
	KTEST_ASSERT_EQ(t, ktest_add_action_or_reset(t, destroy_cache_action, c), 0);
	obj = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, obj);
	*obj = c;
	KTEST_ASSERT_EQ(t, ktest_add_action_or_reset(t, free_object_action, obj), 0);
	buf = ktest_kzalloc(t, 3000, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, buf);
	KTEST_EXPECT_EQ(t, buf[0] | buf[2999], 0);
	KTEST_ASSERT_NOT_NULL(t, ktest_kmalloc(t, 40, GFP_KERNEL));
	KTEST_ASSERT_NOT_NULL(t, ktest_kmalloc(t, 20000, GFP_KERNEL));
	KTEST_ASSERT_EQ(t, 1, 2);
	*(bool *)t->priv = true;
}

static void test_assert_runs_actions(struct ktest *t)
{
	bool reached = false;
	enum ktest_status status;

	ktest_capture_start(t, NULL);
	status = ktest_run_nested(t, "deliberate-assert", assert_after_cleanup,
				  &reached);
	ktest_capture_stop(t);
	KTEST_EXPECT_EQ(t, status, KTEST_FAILURE);
	KTEST_EXPECT_FALSE(t, reached);
	KTEST_EXPECT_CAPTURED(t, "# deliberate-assert: ASSERTION FAILED at tests/test_ktest.c:");
	KTEST_EXPECT_NOT_CAPTURED(t, "leaked");
	KTEST_EXPECT_NOT_CAPTURED(t, "BUG:");
}

/* ktest_kfree frees early; a pointer ktest_kmalloc did not give fails. */
static void kfree_early(struct ktest *t)
{
	void *p = ktest_kmalloc(t, 100, GFP_KERNEL), *other;

	KTEST_ASSERT_NOT_NULL(t, p);
	ktest_kfree(t, p);
	ktest_kfree(t, NULL);
	KTEST_EXPECT_EQ(t, t->nr_actions, 0U);
	KTEST_EXPECT_EQ(t, t->status, KTEST_SUCCESS);
	other = kmalloc(100, GFP_KERNEL);
	ktest_kfree(t, other);		/* not freed: the case frees it */
	kfree(other);
}

static void test_kfree_early(struct ktest *t)
{
	ktest_capture_start(t, "ktest_kfree");
	KTEST_EXPECT_EQ(t, ktest_run_nested(t, "deliberate-kfree", kfree_early, NULL),
			KTEST_FAILURE);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "was not allocated by ktest_kmalloc");
}

/*
 * One action more than there are records: it runs at once, the case
 * fails saying why, and every registered action still runs at the end.
 */
static void too_many_actions(struct ktest *t)
{
	static struct action_note notes[KTEST_MAX_ACTIONS + 1];
	struct action_log *log = t->priv;

	for (int i = 0; i <= KTEST_MAX_ACTIONS; i++) {
		notes[i] = (struct action_note){ log, (char)('a' + i) };
		KTEST_EXPECT_EQ(t, ktest_add_action_or_reset(t, note_action, &notes[i]),
				i < KTEST_MAX_ACTIONS ? 0 : -ENOMEM);
	}
	KTEST_EXPECT_EQ(t, log->len, 1U);
	KTEST_EXPECT_NULL(t, ktest_kmalloc(t, 8, GFP_KERNEL));
}

static void test_action_records_run_out(struct ktest *t)
{
	struct action_log log = { .len = 0 };

	ktest_capture_start(t, "action records in use");
	KTEST_EXPECT_EQ(t, ktest_run_nested(t, "deliberate-actions", too_many_actions,
					    &log), KTEST_FAILURE);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 2U);
	KTEST_EXPECT_EQ(t, log.len, (unsigned int)KTEST_MAX_ACTIONS + 1);
	KTEST_EXPECT_EQ(t, log.text[0], (char)('a' + KTEST_MAX_ACTIONS));
	KTEST_EXPECT_EQ(t, log.text[1], (char)('a' + KTEST_MAX_ACTIONS - 1));
	KTEST_EXPECT_NOT_CAPTURED(t, "leaked");
}

static void test_skip_reports_reason(struct ktest *t)
{
	ktest_skip(t, "skipping on purpose");
	KTEST_FAIL(t, "ktest_skip returned");
}

static void test_shell_dispatch(struct ktest *t)
{
	char unknown[] = "no-such-command arg";
	char empty[] = "   ";
	char version[] = "version";

	ktest_capture_start(t, "unknown command");
	KTEST_EXPECT_EQ(t, shell_exec(unknown), -ENOENT);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_EQ(t, shell_exec(empty), 0);
	ktest_capture_start(t, "cram ");
	KTEST_EXPECT_EQ(t, shell_exec(version), 0);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
}

static void test_shell_too_many_args(struct ktest *t)
{
	char line[128];

	strcpy(line, "help");
	for (int i = 0; i < SHELL_MAX_ARGS; i++)
		strcat(line, " x");
	KTEST_EXPECT_EQ(t, shell_exec(line), -E2BIG);
}

static const struct ktest_case ktest_cases[] = {
	KTEST_CASE(test_int_compare_signedness),
	KTEST_CASE(test_ptr_and_str_compare),
	KTEST_CASE_PARAM(test_params_in_order, square_gen),
	KTEST_CASE_PARAM(test_names_ktap_safe, unsafe_gen),
	KTEST_CASE(test_capture_counts_lines),
	KTEST_CASE(test_capture_keeps_text),
	KTEST_CASE(test_capture_overflow_noted),
	KTEST_CASE(test_expect_captured),
	KTEST_CASE(test_unexpected_report_fails),
	KTEST_CASE(test_expected_report_passes),
	KTEST_CASE(test_assert_captured_ends_case),
	KTEST_CASE(test_leak_names_cache),
	KTEST_CASE(test_leak_names_new_cache),
	KTEST_CASE(test_leak_breakdown_lost),
	KTEST_CASE(test_leak_check_settles),
	KTEST_CASE_PARAM(test_leak_names_any_size, leak_size_gen),
	KTEST_CASE(test_leak_page_fails),
	KTEST_CASE(test_report_kinds),
	KTEST_CASE(test_report_kinds_every_cpu),
	KTEST_CASE(test_actions_run_last_first),
	KTEST_CASE(test_assert_runs_actions),
	KTEST_CASE(test_kfree_early),
	KTEST_CASE(test_action_records_run_out),
	KTEST_CASE(test_skip_reports_reason),
	KTEST_CASE(test_shell_dispatch),
	KTEST_CASE(test_shell_too_many_args),
	{}
};
KTEST_SUITE(ktest, ktest_cases);

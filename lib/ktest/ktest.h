/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktest: the in-kernel unit test framework (KUnit's model and output).
 *
 * A suite is a named array of cases registered at link time:
 *
 *	static void test_add(struct ktest *t)
 *	{
 *		KTEST_EXPECT_EQ(t, 1 + 1, 2);
 *	}
 *	static const struct ktest_case math_cases[] = {
 *		KTEST_CASE(test_add),
 *		{}
 *	};
 *	KTEST_SUITE(math, math_cases);
 *
 * EXPECT checks record a failure and go on; ASSERT checks also end the
 * case at once. A parametrised case (KTEST_CASE_PARAM) runs once per value
 * its generator yields, each reported as a nested subtest. A case may call
 * ktest_skip(). Booting with "ktest" runs every suite, "ktest=GLOB[,GLOB]"
 * those whose "suite.case" matches; suites declared with KTEST_HIDDEN run
 * only when a glob names the suite without wildcards (the harness's own
 * selftests: cases that must fail, panic or hang).
 *
 * Output is KTAP version 1, as Linux's KUnit prints it. Around every case
 * the runner counts the pages and slab objects in use, with the
 * allocators settled (caches shrunk, per-CPU arrays and page lists
 * drained: what they keep for themselves is no leak), and fails a case
 * that leaves more in use than before, naming the caches that grew
 * (lib/ktest/leak.c).
 * A case also fails if the kernel prints a report ("BUG:", "WARNING:")
 * that it did not capture: a case that provokes one on purpose wraps it
 * in ktest_capture_start()/ktest_capture_stop() and checks its kind (or
 * its text):
 *
 *	ktest_capture_start(t, "BUG: Bad page state");
 *	__free_pages(page, 1);		(allocated at order 0)
 *	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
 *	KTEST_EXPECT_REPORT(t, REPORT_BAD_PAGE_WRONG_ORDER);
 */
#ifndef LIB_KTEST_KTEST_H
#define LIB_KTEST_KTEST_H

#include "kernel/report.h"
#include "kernel/types.h"
#include "mm/gfp.h"

#define KTEST_DESC_SIZE		128
#define KTEST_CAPTURE_SIZE	8192	/* text kept per capture */
#define KTEST_MAX_REPORTS	3	/* unexpected reports kept per case */
#define KTEST_REPORT_LEN	160
#define KTEST_MAX_ACTIONS	16	/* deferred actions per case */

struct ktest_capture;

enum ktest_status {
	KTEST_SUCCESS,
	KTEST_FAILURE,
	KTEST_SKIPPED,
};

typedef void (*ktest_action_t)(void *arg);

struct ktest_action {
	ktest_action_t fn;
	void *arg;
};

struct ktest {
	const char *name;		/* case (or parameter) name */
	const void *param_value;	/* current parameter, or NULL */
	void *priv;			/* for the suite's init/exit */
	enum ktest_status status;
	char status_comment[KTEST_DESC_SIZE];
	int indent;			/* spaces before each output line */
	void *abort_buf[5];		/* __builtin_setjmp buffer */
	unsigned int capture_hits;	/* lines matched while capturing */
	const char *capture_needle;
	bool capturing;			/* inside a capture window */
	bool capture_routed;		/* the capture took the console */
	struct ktest_capture *capture;	/* text captured (runner's storage) */
	struct ktest *outer;		/* who had the console before */
	int depth;			/* nesting: 0 for a case the runner runs */
	unsigned int nr_reports;	/* "BUG:"/"WARNING:" outside captures */
	char reports[KTEST_MAX_REPORTS][KTEST_REPORT_LEN];
	/* Reports of each kind (kernel/report.h) in the capture window. */
	unsigned short report_kinds[NR_REPORT_KINDS];
	unsigned int nr_actions;	/* deferred, run last first */
	struct ktest_action actions[KTEST_MAX_ACTIONS];
};

struct ktest_case {
	const char *name;
	void (*run)(struct ktest *t);
	/* Next parameter after prev (NULL: first); NULL when done. */
	const void *(*generate_params)(const void *prev, char *desc);
};

struct ktest_suite {
	const char *name;
	const struct ktest_case *cases;	/* ends with an empty entry */
	int (*init)(struct ktest *t);	/* before each case; nonzero fails it */
	void (*exit)(struct ktest *t);	/* after each case */
	bool hidden;
};

#define KTEST_CASE(fn)			{ .name = #fn, .run = fn }
#define KTEST_CASE_PARAM(fn, gen)	{ .name = #fn, .run = fn, .generate_params = gen }

#define KTEST_SUITE(sname, case_array, ...)				\
	static const struct ktest_suite __ktest_suite_##sname = {	\
		.name = #sname, .cases = case_array, ##__VA_ARGS__	\
	};								\
	static const struct ktest_suite *const __ktest_ptr_##sname	\
	__used __section("ktest_suites") = &__ktest_suite_##sname

#define KTEST_HIDDEN	.hidden = true

/*
 * Parameters from an array: gen yields &array[0], &array[1], ...;
 * get_desc(const T *param, char *desc) may describe each (or be NULL).
 */
#define KTEST_ARRAY_PARAM(gen, array, get_desc)				\
	static const void *gen(const void *prev, char *desc)		\
	{								\
		const __typeof__((array)[0]) *__p = prev;		\
		void (*__desc)(const __typeof__((array)[0]) *, char *) = get_desc; \
		__p = __p ? __p + 1 : (array);				\
		if (__p >= (array) + ARRAY_SIZE(array))			\
			return NULL;					\
		if (__desc)						\
			__desc(__p, desc);				\
		return __p;						\
	}

/* Run the selected suites (glob NULL or "": all visible ones). */
int ktest_run(const char *glob);	/* returns the number of failures */

/*
 * Run fn as a case of its own, nested in t, with the checks the runner
 * makes around every case (leaks, unexpected reports); for the tests of
 * the framework itself. It prints no KTAP result, only its diagnostics
 * (t can capture them); returns its status.
 */
enum ktest_status ktest_run_nested(struct ktest *t, const char *name,
				   void (*fn)(struct ktest *), void *priv);

/*
 * Deferred cleanup (KUnit's kunit_add_action): fn(arg) runs when the case
 * ends, after the suite's exit and before the leak check, whether the
 * case returned or an ASSERT ended it; actions run last registered
 * first. The records live in struct ktest (KTEST_MAX_ACTIONS of them),
 * so registering never allocates: a case may be testing allocation
 * failure. Returns 0, or -ENOMEM when the records are used up, which
 * also fails the case. The _or_reset form then runs fn(arg) at once.
 */
int ktest_add_action(struct ktest *t, ktest_action_t fn, void *arg);
int ktest_add_action_or_reset(struct ktest *t, ktest_action_t fn, void *arg);
/* Run a registered action now, and drop it (0, or -ENOENT). */
int ktest_release_action(struct ktest *t, ktest_action_t fn, void *arg);

/*
 * kmalloc/kzalloc freed when the case ends (KUnit's kunit_kmalloc); NULL
 * when the allocation fails or no action record is left (the case then
 * fails). ktest_kfree frees such memory early (NULL: nothing).
 */
void *ktest_kmalloc(struct ktest *t, size_t size, gfp_t gfp);
void *ktest_kzalloc(struct ktest *t, size_t size, gfp_t gfp);
void ktest_kfree(struct ktest *t, const void *p);

/*
 * Start fn(arg) on every online CPU but this one, at most max of them
 * (arch_cpu_run()), their numbers in cpus: the other CPUs a case needs
 * busy. A CPU that refuses fails the case and is left out; an arch that
 * cannot run work on another CPU (-ENOSYS) starts none. Returns how many
 * started; the case joins each (arch_cpu_join()).
 */
unsigned int ktest_run_on_other_cpus(struct ktest *t, void (*fn)(void *arg),
				     void *arg, unsigned int *cpus,
				     unsigned int max);

/* Diagnostic line "# case: message" in the case's KTAP block. */
void ktest_info(struct ktest *t, const char *fmt, ...) __printf(2, 3);
/* Fail the case with a message and go on. */
void ktest_fail(struct ktest *t, const char *file, int line,
		const char *fmt, ...) __printf(4, 5);
/* End the case now (after an ASSERT failure or a skip). */
__noreturn void ktest_abort(struct ktest *t);
/* Mark the case skipped with a reason, and end it. */
__noreturn void ktest_skip(struct ktest *t, const char *fmt, ...) __printf(2, 3);

/*
 * Capture the console from now until the stop call (e.g. a "BUG: double
 * free" report the case provokes on purpose): stop returns the number of
 * lines that contained needle (NULL: every line). The text of every line,
 * without its timestamp, is kept too (the first KTEST_CAPTURE_SIZE bytes;
 * a line in the buffer says so when later ones were dropped), readable
 * with ktest_captured() until the next start, which begins afresh.
 */
void ktest_capture_start(struct ktest *t, const char *needle);
unsigned int ktest_capture_stop(struct ktest *t);
/* The lines captured by the last capture window, each ending in '\n'. */
const char *ktest_captured(struct ktest *t);
/*
 * Reports of a kind (kernel/report.h) in the last capture window: what
 * a test of a bad free or a damaged object checks, rather than the
 * wording of the report, which is for people (one test per kind pins
 * the wording).
 */
unsigned int ktest_reports(struct ktest *t, enum report_kind kind);

/* Comparison plumbing used by the macros below. */
enum ktest_op { KTEST_OP_EQ, KTEST_OP_NE, KTEST_OP_LT, KTEST_OP_LE,
		KTEST_OP_GT, KTEST_OP_GE };

struct ktest_loc {
	const char *file;
	int line;
	bool assert;
};

bool ktest_check_int(struct ktest *t, const struct ktest_loc *loc,
		     enum ktest_op op, bool is_signed, u64 a, u64 b,
		     const char *as, const char *bs);
bool ktest_check_ptr(struct ktest *t, const struct ktest_loc *loc,
		     enum ktest_op op, const void *a, const void *b,
		     const char *as, const char *bs);
bool ktest_check_str(struct ktest *t, const struct ktest_loc *loc,
		     bool equal, const char *a, const char *b,
		     const char *as, const char *bs);
bool ktest_check_mem(struct ktest *t, const struct ktest_loc *loc,
		     const void *a, const void *b, size_t n,
		     const char *as, const char *bs);
bool ktest_check_bool(struct ktest *t, const struct ktest_loc *loc,
		      bool value, bool expected, const char *cond);
bool ktest_check_captured(struct ktest *t, const struct ktest_loc *loc,
			  bool expected, const char *substr, const char *ss);
bool ktest_check_reports(struct ktest *t, const struct ktest_loc *loc,
			 enum report_kind kind, int count, const char *ks);

#define __KTEST_LOC(is_assert) \
	(&(const struct ktest_loc){ __FILE__, __LINE__, is_assert })

#define __ktest_is_signed(x)	((__typeof__(x))-1 < (__typeof__(x))1)

#define __KTEST_INT(t, as, op, a, b) do {				\
	__typeof__(a) __a = (a);					\
	__typeof__(b) __b = (b);					\
	ktest_check_int(t, __KTEST_LOC(as), op,				\
			__ktest_is_signed(__a) || __ktest_is_signed(__b), \
			(u64)__a, (u64)__b, #a, #b);			\
} while (0)

#define __KTEST_PTR(t, as, op, a, b)					\
	ktest_check_ptr(t, __KTEST_LOC(as), op, (a), (b), #a, #b)

#define KTEST_EXPECT_EQ(t, a, b)	__KTEST_INT(t, false, KTEST_OP_EQ, a, b)
#define KTEST_EXPECT_NE(t, a, b)	__KTEST_INT(t, false, KTEST_OP_NE, a, b)
#define KTEST_EXPECT_LT(t, a, b)	__KTEST_INT(t, false, KTEST_OP_LT, a, b)
#define KTEST_EXPECT_LE(t, a, b)	__KTEST_INT(t, false, KTEST_OP_LE, a, b)
#define KTEST_EXPECT_GT(t, a, b)	__KTEST_INT(t, false, KTEST_OP_GT, a, b)
#define KTEST_EXPECT_GE(t, a, b)	__KTEST_INT(t, false, KTEST_OP_GE, a, b)
#define KTEST_ASSERT_EQ(t, a, b)	__KTEST_INT(t, true, KTEST_OP_EQ, a, b)
#define KTEST_ASSERT_NE(t, a, b)	__KTEST_INT(t, true, KTEST_OP_NE, a, b)
#define KTEST_ASSERT_LT(t, a, b)	__KTEST_INT(t, true, KTEST_OP_LT, a, b)
#define KTEST_ASSERT_LE(t, a, b)	__KTEST_INT(t, true, KTEST_OP_LE, a, b)
#define KTEST_ASSERT_GT(t, a, b)	__KTEST_INT(t, true, KTEST_OP_GT, a, b)
#define KTEST_ASSERT_GE(t, a, b)	__KTEST_INT(t, true, KTEST_OP_GE, a, b)

#define KTEST_EXPECT_PTR_EQ(t, a, b)	__KTEST_PTR(t, false, KTEST_OP_EQ, a, b)
#define KTEST_EXPECT_PTR_NE(t, a, b)	__KTEST_PTR(t, false, KTEST_OP_NE, a, b)
#define KTEST_ASSERT_PTR_EQ(t, a, b)	__KTEST_PTR(t, true, KTEST_OP_EQ, a, b)
#define KTEST_ASSERT_PTR_NE(t, a, b)	__KTEST_PTR(t, true, KTEST_OP_NE, a, b)
#define KTEST_EXPECT_NULL(t, p)		__KTEST_PTR(t, false, KTEST_OP_EQ, p, NULL)
#define KTEST_EXPECT_NOT_NULL(t, p)	__KTEST_PTR(t, false, KTEST_OP_NE, p, NULL)
#define KTEST_ASSERT_NULL(t, p)		__KTEST_PTR(t, true, KTEST_OP_EQ, p, NULL)
#define KTEST_ASSERT_NOT_NULL(t, p)	__KTEST_PTR(t, true, KTEST_OP_NE, p, NULL)

#define KTEST_EXPECT_TRUE(t, c)		ktest_check_bool(t, __KTEST_LOC(false), !!(c), true, #c)
#define KTEST_EXPECT_FALSE(t, c)	ktest_check_bool(t, __KTEST_LOC(false), !!(c), false, #c)
#define KTEST_ASSERT_TRUE(t, c)		ktest_check_bool(t, __KTEST_LOC(true), !!(c), true, #c)
#define KTEST_ASSERT_FALSE(t, c)	ktest_check_bool(t, __KTEST_LOC(true), !!(c), false, #c)

#define KTEST_EXPECT_STREQ(t, a, b)	ktest_check_str(t, __KTEST_LOC(false), true, a, b, #a, #b)
#define KTEST_EXPECT_STRNEQ(t, a, b)	ktest_check_str(t, __KTEST_LOC(false), false, a, b, #a, #b)
#define KTEST_ASSERT_STREQ(t, a, b)	ktest_check_str(t, __KTEST_LOC(true), true, a, b, #a, #b)

#define KTEST_EXPECT_MEMEQ(t, a, b, n)	ktest_check_mem(t, __KTEST_LOC(false), a, b, n, #a, #b)
#define KTEST_ASSERT_MEMEQ(t, a, b, n)	ktest_check_mem(t, __KTEST_LOC(true), a, b, n, #a, #b)

/*
 * Does the captured text (ktest_captured) contain substr? A failure shows
 * the first lines captured.
 */
#define KTEST_EXPECT_CAPTURED(t, s)	ktest_check_captured(t, __KTEST_LOC(false), true, s, #s)
#define KTEST_EXPECT_NOT_CAPTURED(t, s)	ktest_check_captured(t, __KTEST_LOC(false), false, s, #s)
#define KTEST_ASSERT_CAPTURED(t, s)	ktest_check_captured(t, __KTEST_LOC(true), true, s, #s)

/*
 * Did the last capture window see a report of kind (at least one), or
 * exactly n of them? A failure lists the kinds it saw:
 *
 *	ktest_capture_start(t, "BUG:");
 *	__free_pages(page, 1);		(allocated at order 0)
 *	ktest_capture_stop(t);
 *	KTEST_EXPECT_REPORT(t, REPORT_BAD_PAGE_WRONG_ORDER);
 */
#define KTEST_EXPECT_REPORT(t, k)	ktest_check_reports(t, __KTEST_LOC(false), k, -1, #k)
#define KTEST_EXPECT_REPORTS(t, k, n)	ktest_check_reports(t, __KTEST_LOC(false), k, n, #k)
#define KTEST_ASSERT_REPORT(t, k)	ktest_check_reports(t, __KTEST_LOC(true), k, -1, #k)

#define KTEST_FAIL(t, fmt, ...)		ktest_fail(t, __FILE__, __LINE__, fmt, ##__VA_ARGS__)

#endif /* LIB_KTEST_KTEST_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the test framework and the console plumbing it relies on:
 * the comparison helpers decide right for signed and unsigned values
 * (checked on a private struct ktest, so no failure reaches the real
 * case), parameters are generated in order, the printk capture hook sees
 * whole lines, and the shell dispatches and rejects commands.
 */
#include "kernel/errno.h"
#include "kernel/ktest.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
#include "kernel/string.h"

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
	KTEST_CASE(test_capture_counts_lines),
	KTEST_CASE(test_capture_keeps_text),
	KTEST_CASE(test_capture_overflow_noted),
	KTEST_CASE(test_expect_captured),
	KTEST_CASE(test_unexpected_report_fails),
	KTEST_CASE(test_expected_report_passes),
	KTEST_CASE(test_assert_captured_ends_case),
	KTEST_CASE(test_skip_reports_reason),
	KTEST_CASE(test_shell_dispatch),
	KTEST_CASE(test_shell_too_many_args),
	{}
};
KTEST_SUITE(ktest, ktest_cases);

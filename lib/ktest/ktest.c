// SPDX-License-Identifier: GPL-2.0
/*
 * ktest runner: selects suites and cases by glob, runs them and prints
 * KTAP version 1 exactly as Linux's KUnit does:
 *
 *	KTAP version 1
 *	1..<suites>
 *	    KTAP version 1
 *	    # Subtest: <suite>
 *	    1..<cases>
 *	    ok 1 <case>
 *	        KTAP version 1            (parametrised case: no plan)
 *	        # Subtest: <case>
 *	        ok 1 <param description>
 *	    # <case>: pass:P fail:F skip:S total:T
 *	    ok 2 <case>
 *	    # <suite>: pass:P fail:F skip:S total:T
 *	    # Totals: pass:P fail:F skip:S total:T
 *	ok 1 <suite>
 *
 * A case ends early through ktest_abort(), a __builtin_longjmp back to the
 * runner (ASSERT failures, skips). Then the suite's exit runs, then the
 * case's deferred actions (ktest_add_action, ktest_kmalloc), last first;
 * the pages and slab objects in use are counted before the case and
 * after its actions (leak.c); growth fails the case. So does a case that
 * ends with interrupts off or inside an interrupt handler.
 *
 * While a case runs, its printk hook sees every console line: capture
 * windows keep them, and outside one a "BUG:" or "WARNING:" line fails
 * the case:
 *
 *	    # <case>: unexpected report: BUG: Bad page state: ...
 */
#include "lib/ktest/ktest_internal.h"
#include "arch/arch.h"
#include "kernel/cpumask.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/params.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
#include "kernel/smp.h"
#include "kernel/workqueue.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/kfence.h"
#include "mm/slab.h"

#define INDENT_STEP	4
#define MAX_GLOBS	16
#define MAX_DEPTH	4	/* a case, a nested case, a private capture */
#define SHOWN_LINES	16	/* of the captured text, in a failure */
#define SHOWN_WIDTH	160

/* Room kept at the end of the buffer to say that lines were dropped. */
#define CAPTURE_FULL_NOTE	"[ktest: capture buffer full, later lines dropped]\n"

extern const struct ktest_suite *const __start_ktest_suites[] __weak;
extern const struct ktest_suite *const __stop_ktest_suites[] __weak;

struct ktest_counts {
	unsigned int pass, fail, skip;
};

struct ktest_filter {
	char buf[256];
	char *globs[MAX_GLOBS];	/* each "suite" or "suite.case" pattern */
	int n;
};

static void ktest_print(int indent, const char *fmt, ...) __printf(2, 3);
static void expectation_failed(struct ktest *t, const struct ktest_loc *loc);
static void run_actions(struct ktest *t);

/* The framework's own output is never a report of the code under test. */
static bool ktest_printing;

static void ktest_print(int indent, const char *fmt, ...)
{
	char line[512];
	va_list args;
	int len;

	len = scnprintf(line, sizeof(line), "%*s", indent, "");
	va_start(args, fmt);
	len += vscnprintf(line + len, sizeof(line) - len, fmt, args);
	va_end(args);
	ktest_printing = true;
	console_write(line, len);
	ktest_printing = false;
}

/* --- names in KTAP ------------------------------------------------- */

/*
 * KTAP forbids '#' in a test's description (it starts a directive, as in
 * "ok 1 name # SKIP"), and a line break would end the result line:
 * Linux's kunit_parser then drops the result. Every name the runner
 * prints goes through here: '#' becomes KTAP_HASH, other control
 * characters a space. (TAP 14 writes "\#", which kunit_parser reads as
 * a directive all the same.)
 */
#define KTAP_HASH	"<hash>"

static void ktap_safe_name(char *dst, const char *src, size_t size)
{
	size_t len = 0;

	for (; *src && len + 1 < size; src++) {
		if (*src == '#') {
			if (len + sizeof(KTAP_HASH) > size)
				break;
			memcpy(dst + len, KTAP_HASH, sizeof(KTAP_HASH) - 1);
			len += sizeof(KTAP_HASH) - 1;
		} else {
			dst[len++] = (unsigned char)*src < ' ' ? ' ' : *src;
		}
	}
	dst[len] = '\0';
}

/* name itself when it is safe, else its safe form in buf. */
static const char *ktap_name(const char *name, char *buf, size_t size)
{
	for (const char *p = name; *p; p++) {
		if (*p == '#' || (unsigned char)*p < ' ') {
			ktap_safe_name(buf, name, size);
			return buf;
		}
	}
	return name;
}

/* --- selection ---------------------------------------------------- */

static void filter_init(struct ktest_filter *f, const char *glob)
{
	char *s = f->buf, *word;

	f->n = 0;
	strscpy(f->buf, glob ? glob : "", sizeof(f->buf));
	while ((word = strsep(&s, ",")) && f->n < MAX_GLOBS) {
		if (*word)
			f->globs[f->n++] = word;
	}
}

/* Does one glob select suite.case? Hidden suites need their exact name. */
static bool glob_selects(const char *glob, const struct ktest_suite *suite,
			 const char *case_name)
{
	const char *dot = strchr(glob, '.');
	size_t suite_len = dot ? (size_t)(dot - glob) : strlen(glob);
	char suite_pat[64];

	if (suite_len >= sizeof(suite_pat))
		return false;
	memcpy(suite_pat, glob, suite_len);
	suite_pat[suite_len] = '\0';
	if (suite->hidden ? strcmp(suite_pat, suite->name) :
			    !glob_match(suite_pat, suite->name))
		return false;
	return !dot || glob_match(dot + 1, case_name);
}

static bool case_selected(const struct ktest_filter *f,
			  const struct ktest_suite *suite,
			  const struct ktest_case *c)
{
	if (!f->n)
		return !suite->hidden;
	for (int i = 0; i < f->n; i++) {
		if (glob_selects(f->globs[i], suite, c->name))
			return true;
	}
	return false;
}

static int count_selected(const struct ktest_filter *f,
			  const struct ktest_suite *suite)
{
	int n = 0;

	for (const struct ktest_case *c = suite->cases; c->name; c++)
		n += case_selected(f, suite, c);
	return n;
}

/* --- the console during a case ------------------------------------ */

/*
 * The running case owns the printk hook from its start to its end, so
 * capture windows need no hook of their own. A nested run (or a capture
 * on a struct ktest the runner does not run) takes the console over and
 * gives it back: the tests that had it form a chain through ->outer, and
 * each one of them that is capturing sees every line.
 */
struct ktest_capture {
	size_t len;
	bool full;
	char text[KTEST_CAPTURE_SIZE];
};

static struct ktest_capture capture_pool[MAX_DEPTH];
static struct ktest *console_owner;

/* "[    0.123456] " in front of printk lines; console_printf has none. */
static const char *skip_timestamp(const char *line)
{
	const char *p = line;

	if (*p++ != '[')
		return line;
	while (*p == ' ')
		p++;
	if (!isdigit(*p))
		return line;
	while (isdigit(*p))
		p++;
	if (*p++ != '.' || !isdigit(*p))
		return line;
	while (isdigit(*p))
		p++;
	return p[0] == ']' && p[1] == ' ' ? p + 2 : line;
}

static void capture_reset(struct ktest_capture *c)
{
	c->len = 0;
	c->full = false;
	c->text[0] = '\0';
}

/* Keep whole lines; once one does not fit, drop it and all after it. */
static void capture_line(struct ktest *t, const char *line)
{
	struct ktest_capture *c = t->capture;
	size_t n = strlen(line);
	size_t room = sizeof(c->text) - sizeof(CAPTURE_FULL_NOTE);

	if (!t->capture_needle || strstr(line, t->capture_needle))
		t->capture_hits++;
	if (!c || c->full)
		return;
	if (c->len + n + 1 > room) {
		memcpy(c->text + c->len, CAPTURE_FULL_NOTE, sizeof(CAPTURE_FULL_NOTE));
		c->len += sizeof(CAPTURE_FULL_NOTE) - 1;
		c->full = true;
		return;
	}
	memcpy(c->text + c->len, line, n);
	c->len += n;
	c->text[c->len++] = '\n';
	c->text[c->len] = '\0';
}

/* The prefixes of the kernel's reports: panic.c's WARN, bad_page(), slab. */
static bool is_report(const char *line)
{
	return strstr(line, "BUG:") || strstr(line, "WARNING:");
}

static void note_report(struct ktest *t, const char *line)
{
	if (t->nr_reports < KTEST_MAX_REPORTS)
		strscpy(t->reports[t->nr_reports], line, KTEST_REPORT_LEN);
	t->nr_reports++;
}

/*
 * Runs under printk's lock: record only, never print. A report outside
 * a capture window is one the case did not expect; the owner, the case
 * running now, answers for it even when an outer case is capturing.
 */
static void console_hook(const char *line, size_t len, void *data)
{
	struct ktest *owner = data;

	(void)len;
	line = skip_timestamp(line);
	for (struct ktest *t = owner; t; t = t->outer) {
		if (t->capturing)
			capture_line(t, line);
	}
	if (!owner->capturing && !ktest_printing && is_report(line))
		note_report(owner, line);
}

/*
 * Every test of the chain that is capturing counts the report's kind.
 * Reporters on several CPUs may call at once, outside any lock: the
 * count is a compare-and-swap loop that stops at its ceiling.
 */
static void count_report_kind(unsigned short *count)
{
	unsigned short old = __atomic_load_n(count, __ATOMIC_RELAXED);

	while (old != (unsigned short)~0 &&
	       !__atomic_compare_exchange_n(count, &old, old + 1, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static void report_hook(enum report_kind kind, void *data)
{
	if ((unsigned int)kind >= NR_REPORT_KINDS)
		kind = REPORT_NONE;
	for (struct ktest *t = data; t; t = t->outer) {
		if (t->capturing)
			count_report_kind(&t->report_kinds[kind]);
	}
}

/* (Re)install the hooks; printk's lock orders this against other CPUs. */
static void console_route(struct ktest *t)
{
	console_owner = t;
	printk_set_hook(t ? console_hook : NULL, t);
	report_set_hook(t ? report_hook : NULL, t);
}

static void console_push(struct ktest *t)
{
	t->outer = console_owner;
	t->depth = t->outer ? t->outer->depth + 1 : 0;
	t->capture = t->depth < MAX_DEPTH ? &capture_pool[t->depth] : NULL;
	if (t->capture)
		capture_reset(t->capture);
	console_route(t);
}

/* Give the console back, also dropping captures t left running. */
static void console_pop(struct ktest *t)
{
	t->capturing = false;
	console_route(t->outer);
}

static bool console_chain_has(const struct ktest *t)
{
	for (const struct ktest *o = console_owner; o; o = o->outer) {
		if (o == t)
			return true;
	}
	return false;
}

/* --- running -------------------------------------------------------- */

/* A diagnostic line "# case: message" in the case's KTAP block. */
static void ktest_vinfo(struct ktest *t, const char *fmt, va_list args)
{
	char msg[384];

	vscnprintf(msg, sizeof(msg), fmt, args);
	ktest_print(t->indent, "# %s: %s\n", t->name, msg);
}

/* A failure of the case as a whole, found by the runner: no location. */
void ktest_runner_fail(struct ktest *t, const char *fmt, ...)
{
	va_list args;

	t->status = KTEST_FAILURE;
	va_start(args, fmt);
	ktest_vinfo(t, fmt, args);
	va_end(args);
}

static void check_reports(struct ktest *t)
{
	unsigned int shown = min_t(unsigned int, t->nr_reports, KTEST_MAX_REPORTS);

	for (unsigned int i = 0; i < shown; i++)
		ktest_runner_fail(t, "unexpected report: %s", t->reports[i]);
	if (t->nr_reports > shown)
		ktest_info(t, "%u more unexpected report lines",
			   t->nr_reports - shown);
}

/*
 * A case (or its actions) must give interrupts back as it found them: on,
 * outside any handler, preemptible (kernel/preempt.h). Left off, they
 * are turned on again for the next.
 */
static void check_irq_state(struct ktest *t)
{
	int count = preempt_count();

	if (in_hardirq())
		ktest_runner_fail(t, "case ended in hardirq context (count %u)",
				  arch_hardirq_count());
	if (irqs_disabled()) {
		ktest_runner_fail(t, "case left interrupts off");
		local_irq_enable();
	}
	if (count) {
		ktest_runner_fail(t, "case left preemption off (count %d)", count);
		preempt_cpus[arch_cpu_id()].count = 0;
		preempt_schedule(_THIS_IP_);
	}
}

static void run_case_body(struct ktest *t, const struct ktest_suite *suite,
			  const struct ktest_case *c)
{
	struct ktest_leak_snapshot before;

	ktest_leak_snapshot(t, &before);
	console_push(t);
	if (__builtin_setjmp(t->abort_buf) == 0) {
		if (suite->init && suite->init(t))
			KTEST_FAIL(t, "suite init failed");
		else
			c->run(t);
	}
	/*
	 * An ASSERT may have ended the case inside a capture window, even
	 * one of a struct ktest on the stack it left: take the console back.
	 */
	t->capturing = false;
	console_route(t);
	if (suite->exit)
		suite->exit(t);
	run_actions(t);
	check_irq_state(t);
	console_pop(t);
	check_reports(t);
	if (t->status != KTEST_SKIPPED)
		ktest_leak_check(t, &before);
}

/* --- deferred actions ------------------------------------------------ */

int ktest_add_action(struct ktest *t, ktest_action_t fn, void *arg)
{
	if (t->nr_actions == KTEST_MAX_ACTIONS) {
		ktest_runner_fail(t, "ktest_add_action: all %d action records in use",
				  KTEST_MAX_ACTIONS);
		return -ENOMEM;
	}
	t->actions[t->nr_actions].fn = fn;
	t->actions[t->nr_actions].arg = arg;
	t->nr_actions++;
	return 0;
}

int ktest_add_action_or_reset(struct ktest *t, ktest_action_t fn, void *arg)
{
	int err = ktest_add_action(t, fn, arg);

	if (err)
		fn(arg);
	return err;
}

/* Drop the latest record of fn(arg); false if there is none. */
static bool remove_action(struct ktest *t, ktest_action_t fn, void *arg)
{
	for (unsigned int i = t->nr_actions; i-- > 0;) {
		if (t->actions[i].fn != fn || t->actions[i].arg != arg)
			continue;
		memmove(&t->actions[i], &t->actions[i + 1],
			(t->nr_actions - i - 1) * sizeof(t->actions[0]));
		t->nr_actions--;
		return true;
	}
	return false;
}

int ktest_release_action(struct ktest *t, ktest_action_t fn, void *arg)
{
	if (!remove_action(t, fn, arg))
		return -ENOENT;
	fn(arg);
	return 0;
}

static void run_actions(struct ktest *t)
{
	while (t->nr_actions) {
		const struct ktest_action *a = &t->actions[--t->nr_actions];

		a->fn(a->arg);
	}
}

static void kfree_action(void *p)
{
	kfree(p);
}

void *ktest_kmalloc(struct ktest *t, size_t size, gfp_t gfp)
{
	void *p = kmalloc(size, gfp);

	if (p && ktest_add_action_or_reset(t, kfree_action, p))
		return NULL;
	return p;
}

void *ktest_kzalloc(struct ktest *t, size_t size, gfp_t gfp)
{
	return ktest_kmalloc(t, size, gfp | __GFP_ZERO);
}

void ktest_kfree(struct ktest *t, const void *p)
{
	if (p && ktest_release_action(t, kfree_action, (void *)p))
		ktest_runner_fail(t, "ktest_kfree: %px was not allocated by ktest_kmalloc",
				  p);
}

static void print_result(int indent, int number, const char *name,
			 const struct ktest *t)
{
	if (t->status == KTEST_SKIPPED)
		ktest_print(indent, "ok %d %s # SKIP %s\n", number, name,
			    t->status_comment);
	else
		ktest_print(indent, "%s %d %s\n",
			    t->status == KTEST_FAILURE ? "not ok" : "ok",
			    number, name);
}

static void count_result(struct ktest_counts *counts, enum ktest_status s)
{
	if (s == KTEST_SUCCESS)
		counts->pass++;
	else if (s == KTEST_FAILURE)
		counts->fail++;
	else
		counts->skip++;
}

static void print_counts(int indent, const char *name,
			 const struct ktest_counts *c)
{
	ktest_print(indent, "# %s: pass:%u fail:%u skip:%u total:%u\n", name,
		    c->pass, c->fail, c->skip, c->pass + c->fail + c->skip);
}

static void init_test(struct ktest *t, const char *name, int indent)
{
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->indent = indent;
	t->status = KTEST_SUCCESS;
}

enum ktest_status ktest_run_nested(struct ktest *t, const char *name,
				   void (*fn)(struct ktest *), void *priv)
{
	static const struct ktest_suite nested_suite = { .name = "nested" };
	const struct ktest_case c = { .name = name, .run = fn };
	struct ktest inner;

	init_test(&inner, name, t->indent);
	inner.priv = priv;
	run_case_body(&inner, &nested_suite, &c);
	return inner.status;
}

/*
 * One parameter set per subtest; the case fails if any of them does.
 * The subtests are the leaves counted; a case that generates no
 * parameter is a leaf itself, as kunit_parser counts it.
 */
static enum ktest_status run_param_case(const struct ktest_suite *suite,
					const struct ktest_case *c,
					const char *cname, int indent,
					struct ktest_counts *leaves)
{
	struct ktest_counts counts = { 0 };
	const void *param = NULL;
	char desc[KTEST_DESC_SIZE], name[KTEST_DESC_SIZE];
	int number = 0;

	ktest_print(indent + INDENT_STEP, "KTAP version 1\n");
	ktest_print(indent + INDENT_STEP, "# Subtest: %s\n", cname);
	for (;;) {
		struct ktest t;

		desc[0] = '\0';
		param = c->generate_params(param, desc);
		if (!param)
			break;
		number++;
		if (!desc[0])
			snprintf(desc, sizeof(desc), "param-%d", number - 1);
		ktap_safe_name(name, desc, sizeof(name));
		init_test(&t, name, indent + INDENT_STEP);
		t.param_value = param;
		run_case_body(&t, suite, c);
		print_result(indent + INDENT_STEP, number, name, &t);
		count_result(&counts, t.status);
		count_result(leaves, t.status);
	}
	print_counts(indent, cname, &counts);
	if (!number)
		count_result(leaves, KTEST_SUCCESS);
	if (counts.fail)
		return KTEST_FAILURE;
	return counts.pass || !number ? KTEST_SUCCESS : KTEST_SKIPPED;
}

static void run_case(const struct ktest_suite *suite, const struct ktest_case *c,
		     int number, int indent, struct ktest_counts *counts,
		     struct ktest_counts *leaves)
{
	char buf[KTEST_DESC_SIZE];
	const char *name = ktap_name(c->name, buf, sizeof(buf));
	struct ktest t;

	init_test(&t, name, indent);
	if (c->generate_params) {
		t.status = run_param_case(suite, c, name, indent, leaves);
	} else {
		run_case_body(&t, suite, c);
		count_result(leaves, t.status);
	}
	print_result(indent, number, name, &t);
	count_result(counts, t.status);
}

static enum ktest_status run_suite(const struct ktest_suite *suite,
				   const struct ktest_filter *f, int number,
				   struct ktest_counts *leaves)
{
	struct ktest_counts counts = { 0 }, suite_leaves = { 0 };
	int indent = INDENT_STEP, n = 0;
	char buf[KTEST_DESC_SIZE];
	const char *name = ktap_name(suite->name, buf, sizeof(buf));

	ktest_print(indent, "KTAP version 1\n");
	ktest_print(indent, "# Subtest: %s\n", name);
	ktest_print(indent, "1..%d\n", count_selected(f, suite));
	for (const struct ktest_case *c = suite->cases; c->name; c++) {
		if (case_selected(f, suite, c))
			run_case(suite, c, ++n, indent, &counts, &suite_leaves);
	}
	print_counts(indent, name, &counts);
	print_counts(indent, "Totals", &suite_leaves);
	leaves->pass += suite_leaves.pass;
	leaves->fail += suite_leaves.fail;
	leaves->skip += suite_leaves.skip;

	if (counts.fail) {
		ktest_print(0, "not ok %d %s\n", number, name);
		return KTEST_FAILURE;
	}
	if (!counts.pass && counts.skip) {
		ktest_print(0, "ok %d %s # SKIP all cases skipped\n", number,
			    name);
		return KTEST_SKIPPED;
	}
	ktest_print(0, "ok %d %s\n", number, name);
	return KTEST_SUCCESS;
}

int ktest_run(const char *glob)
{
	static struct ktest_filter filter;
	const struct ktest_suite *const *s;
	struct ktest_counts leaves = { 0 };
	int suites = 0, number = 0;

	filter_init(&filter, glob);
	for (s = __start_ktest_suites; s < __stop_ktest_suites; s++)
		suites += count_selected(&filter, *s) > 0;

	ktest_print(0, "KTAP version 1\n");
	ktest_print(0, "1..%d\n", suites);
	for (s = __start_ktest_suites; s < __stop_ktest_suites; s++) {
		if (count_selected(&filter, *s))
			run_suite(*s, &filter, ++number, &leaves);
	}
	ktest_print(0, "# ktest: pass:%u fail:%u skip:%u total:%u\n",
		    leaves.pass, leaves.fail, leaves.skip,
		    leaves.pass + leaves.fail + leaves.skip);
	return (int)leaves.fail;
}

/* --- the boot and the shell ------------------------------------------- */

static bool ktest_requested;
static const char *ktest_glob;

/* "ktest" or "ktest=GLOB[,GLOB...]": run the tests instead of the shell. */
static int ktest_setup(char *val)
{
	ktest_requested = true;
	ktest_glob = val;
	return 0;
}
kernel_param("ktest", ktest_setup);

static void ktest_boot(void)
{
	unsigned long site;
	u64 blocked;
	int failed;

	if (!ktest_requested)
		return;
	/*
	 * The suites count objects, pages and slow-path hits exactly: no
	 * sample may come from KFENCE's pool behind their back. The kfence
	 * suite forces its own.
	 */
	kfence_sample_interval_set(0);
	failed = ktest_run(ktest_glob);
	if (IS_ENABLED(CONFIG_PROVE_LOCKING))
		lockdep_print_graph();
	blocked = workqueue_max_blocked_ns(&site);
	if (site)
		pr_info("workqueue: the longest wait of work for a safe point: %llu us, ended at %pS\n",
			(unsigned long long)(blocked / 1000), (void *)site);
	else
		pr_info("workqueue: no work waited for a safe point\n");
	if (failed)
		pr_err("ktest: %d tests failed\n", failed);
	else
		pr_info("ktest: all tests passed\n");
	arch_exit(failed ? ARCH_EXIT_FAILURE : ARCH_EXIT_SUCCESS);
}
boot_run(ktest_boot);

static int cmd_test(int argc, char **argv)
{
	int failed;

	if (argc > 2) {
		console_printf("usage: test [GLOB[,GLOB...]]\n");
		return -EINVAL;
	}
	failed = ktest_run(argc == 2 ? argv[1] : NULL);
	console_printf("ktest: %d failed\n", failed);
	return failed ? -EIO : 0;
}
SHELL_CMD("test", cmd_test, "run tests: test [suite.case glob]");

/* --- reporting from inside a case ------------------------------------ */

unsigned int ktest_run_on_other_cpus(struct ktest *t, void (*fn)(void *arg),
				     void *arg, unsigned int *cpus,
				     unsigned int max)
{
	unsigned int nr = 0;

	for (unsigned int cpu = 0; cpu < nr_cpu_ids && nr < max; cpu++) {
		int err;

		if (!cpu_online(cpu) || cpu == smp_processor_id())
			continue;
		err = arch_cpu_run(cpu, fn, arg);
		if (err == -ENOSYS)
			break;
		KTEST_EXPECT_EQ(t, err, 0);
		if (!err)
			cpus[nr++] = cpu;
	}
	return nr;
}

void ktest_info(struct ktest *t, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	ktest_vinfo(t, fmt, args);
	va_end(args);
}

void ktest_fail(struct ktest *t, const char *file, int line,
		const char *fmt, ...)
{
	char msg[256];
	va_list args;

	va_start(args, fmt);
	vscnprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	expectation_failed(t, &(const struct ktest_loc){ file, line, false });
	ktest_print(t->indent, "%s\n", msg);
}

__noreturn void ktest_abort(struct ktest *t)
{
	__builtin_longjmp(t->abort_buf, 1);
}

__noreturn void ktest_skip(struct ktest *t, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vscnprintf(t->status_comment, sizeof(t->status_comment), fmt, args);
	va_end(args);
	t->status = KTEST_SKIPPED;
	ktest_abort(t);
}

/* --- capturing the console ----------------------------------------- */

void ktest_capture_start(struct ktest *t, const char *needle)
{
	/* A struct ktest the runner does not run takes the console itself. */
	if (!console_chain_has(t)) {
		console_push(t);
		t->capture_routed = true;
	}
	t->capture_needle = needle;
	t->capture_hits = 0;
	memset(t->report_kinds, 0, sizeof(t->report_kinds));
	if (t->capture)
		capture_reset(t->capture);
	t->capturing = true;
	console_route(console_owner);
}

unsigned int ktest_capture_stop(struct ktest *t)
{
	t->capturing = false;
	if (t->capture_routed) {
		t->capture_routed = false;
		console_pop(t);
	} else {
		console_route(console_owner);
	}
	if (t->capture && t->capture->full)
		ktest_info(t, "capture buffer full (%d bytes): later lines were dropped",
			   KTEST_CAPTURE_SIZE);
	return t->capture_hits;
}

const char *ktest_captured(struct ktest *t)
{
	return t->capture ? t->capture->text : "";
}

unsigned int ktest_reports(struct ktest *t, enum report_kind kind)
{
	return (unsigned int)kind < NR_REPORT_KINDS ? t->report_kinds[kind] : 0;
}

/* --- expectations ---------------------------------------------------- */

static const char *const op_text[] = {
	[KTEST_OP_EQ] = "==", [KTEST_OP_NE] = "!=", [KTEST_OP_LT] = "<",
	[KTEST_OP_LE] = "<=", [KTEST_OP_GT] = ">", [KTEST_OP_GE] = ">=",
};

/* Print the KUnit failure header and mark the case failed. */
static void expectation_failed(struct ktest *t, const struct ktest_loc *loc)
{
	t->status = KTEST_FAILURE;
	ktest_print(t->indent, "# %s: %s FAILED at %s:%d\n", t->name,
		    loc->assert ? "ASSERTION" : "EXPECTATION", loc->file,
		    loc->line);
}

static bool finish_check(struct ktest *t, const struct ktest_loc *loc, bool ok)
{
	if (!ok && loc->assert)
		ktest_abort(t);
	return ok;
}

static bool compare(enum ktest_op op, int cmp)
{
	switch (op) {
	case KTEST_OP_EQ: return cmp == 0;
	case KTEST_OP_NE: return cmp != 0;
	case KTEST_OP_LT: return cmp < 0;
	case KTEST_OP_LE: return cmp <= 0;
	case KTEST_OP_GT: return cmp > 0;
	default: return cmp >= 0;
	}
}

bool ktest_check_int(struct ktest *t, const struct ktest_loc *loc,
		     enum ktest_op op, bool is_signed, u64 a, u64 b,
		     const char *as, const char *bs)
{
	int cmp;

	if (is_signed)
		cmp = (s64)a < (s64)b ? -1 : (s64)a > (s64)b;
	else
		cmp = a < b ? -1 : a > b;
	if (compare(op, cmp))
		return true;
	expectation_failed(t, loc);
	ktest_print(t->indent, "Expected %s %s %s, but\n", as, op_text[op], bs);
	if (is_signed) {
		ktest_print(t->indent + 4, "%s == %lld (0x%llx)\n", as,
			    (long long)a, (unsigned long long)a);
		ktest_print(t->indent + 4, "%s == %lld (0x%llx)\n", bs,
			    (long long)b, (unsigned long long)b);
	} else {
		ktest_print(t->indent + 4, "%s == %llu (0x%llx)\n", as,
			    (unsigned long long)a, (unsigned long long)a);
		ktest_print(t->indent + 4, "%s == %llu (0x%llx)\n", bs,
			    (unsigned long long)b, (unsigned long long)b);
	}
	return finish_check(t, loc, false);
}

bool ktest_check_ptr(struct ktest *t, const struct ktest_loc *loc,
		     enum ktest_op op, const void *a, const void *b,
		     const char *as, const char *bs)
{
	unsigned long x = (unsigned long)a, y = (unsigned long)b;

	if (compare(op, x < y ? -1 : x > y))
		return true;
	expectation_failed(t, loc);
	ktest_print(t->indent, "Expected %s %s %s, but\n", as, op_text[op], bs);
	ktest_print(t->indent + 4, "%s == %px\n", as, a);
	ktest_print(t->indent + 4, "%s == %px\n", bs, b);
	return finish_check(t, loc, false);
}

bool ktest_check_str(struct ktest *t, const struct ktest_loc *loc,
		     bool equal, const char *a, const char *b,
		     const char *as, const char *bs)
{
	bool same = (a && b) ? !strcmp(a, b) : a == b;

	if (same == equal)
		return true;
	expectation_failed(t, loc);
	ktest_print(t->indent, "Expected %s %s %s, but\n", as,
		    equal ? "==" : "!=", bs);
	ktest_print(t->indent + 4, "%s == \"%s\"\n", as, a);
	ktest_print(t->indent + 4, "%s == \"%s\"\n", bs, b);
	return finish_check(t, loc, false);
}

bool ktest_check_mem(struct ktest *t, const struct ktest_loc *loc,
		     const void *a, const void *b, size_t n,
		     const char *as, const char *bs)
{
	const u8 *x = a, *y = b;
	size_t i;

	for (i = 0; i < n && x[i] == y[i]; i++)
		;
	if (i == n)
		return true;
	expectation_failed(t, loc);
	ktest_print(t->indent, "Expected %s == %s over %zu bytes, but\n", as, bs, n);
	ktest_print(t->indent + 4, "%s[%zu] == 0x%02x\n", as, i, x[i]);
	ktest_print(t->indent + 4, "%s[%zu] == 0x%02x\n", bs, i, y[i]);
	return finish_check(t, loc, false);
}

bool ktest_check_bool(struct ktest *t, const struct ktest_loc *loc,
		      bool value, bool expected, const char *cond)
{
	if (value == expected)
		return true;
	expectation_failed(t, loc);
	ktest_print(t->indent, "Expected %s to be %s, but is %s\n", cond,
		    expected ? "true" : "false", value ? "true" : "false");
	return finish_check(t, loc, false);
}

/* The first lines captured, quoted so that none can pass for KTAP. */
static void show_captured(struct ktest *t)
{
	/* Failure lines printed now may be captured too: stop at the end. */
	const char *text = ktest_captured(t), *end = text + strlen(text);
	unsigned int lines = 0;

	if (text == end) {
		ktest_print(t->indent + 4, "nothing was captured\n");
		return;
	}
	for (const char *p = text; p < end; p = strchr(p, '\n') + 1)
		lines++;
	ktest_print(t->indent + 4, "captured (%u line%s):\n", lines,
		    lines == 1 ? "" : "s");
	for (unsigned int i = 0; i < min_t(unsigned int, lines, SHOWN_LINES); i++) {
		int n = (int)(strchr(text, '\n') - text);

		ktest_print(t->indent + 4, "| %.*s%s\n", min(n, SHOWN_WIDTH),
			    text, n > SHOWN_WIDTH ? "..." : "");
		text += n + 1;
	}
	if (lines > SHOWN_LINES)
		ktest_print(t->indent + 4, "| ... %u more lines\n",
			    lines - SHOWN_LINES);
}

bool ktest_check_captured(struct ktest *t, const struct ktest_loc *loc,
			  bool expected, const char *substr, const char *ss)
{
	if (!!strstr(ktest_captured(t), substr) == expected)
		return true;
	expectation_failed(t, loc);
	ktest_print(t->indent, "Expected the captured output %s %s, but\n",
		    expected ? "to contain" : "not to contain", ss);
	if (ss[0] != '"')	/* KUnit shows the value of an expression only */
		ktest_print(t->indent + 4, "%s == \"%s\"\n", ss, substr);
	show_captured(t);
	return finish_check(t, loc, false);
}

/* "bad_page_tail x1, warn x2", or that there was none. */
static void show_report_kinds(struct ktest *t)
{
	char line[256];
	int len = 0;

	for (int k = 0; k < NR_REPORT_KINDS; k++) {
		if (t->report_kinds[k])
			len += scnprintf(line + len, sizeof(line) - len, "%s%s x%u",
					 len ? ", " : "", report_kind_name(k),
					 t->report_kinds[k]);
	}
	ktest_print(t->indent + 4, "reports captured: %s\n",
		    len ? line : "none");
}

bool ktest_check_reports(struct ktest *t, const struct ktest_loc *loc,
			 enum report_kind kind, int count, const char *ks)
{
	unsigned int seen = ktest_reports(t, kind);

	if (count < 0 ? seen > 0 : seen == (unsigned int)count)
		return true;
	expectation_failed(t, loc);
	if (count < 0)
		ktest_print(t->indent, "Expected a report of kind %s (%s), but\n",
			    ks, report_kind_name(kind));
	else
		ktest_print(t->indent, "Expected %d reports of kind %s (%s), but\n",
			    count, ks, report_kind_name(kind));
	show_report_kinds(t);
	return finish_check(t, loc, false);
}

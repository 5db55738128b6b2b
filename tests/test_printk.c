// SPDX-License-Identifier: GPL-2.0
/*
 * printk from every CPU at once. Each online CPU prints PRINTK_LINES
 * lines, each naming its CPU and sequence number and carrying a text
 * made from both; then the case reads the log back (log_buf_copy()) and
 * checks that every such line is whole: one timestamp, one marker, the
 * exact text, and each CPU's lines all there, in order. The console
 * gets the same bytes from the same emit() under printk's lock, so a
 * torn line in the log would be a torn line on the serial port. The
 * lines are KERN_DEBUG, below the console level: they stay out of the
 * boot log.
 */
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/ktest/ktest.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/slab.h"
#include "arch/arch.h"
#include "kernel/cpumask.h"

#define PRINTK_LINES	100
#define PRINTK_MARKER	"printk_smp "
#define PRINTK_COPY	(64 * 1024)
#define PRINTK_START_S	20	/* TCG with 4 vCPUs on 2 host cores */

struct printk_run {
	unsigned int go;	/* every CPU starts printing at once */
	unsigned int ready;
};

/* The text of CPU cpu's line seq: long enough to be cut if lines tore. */
static int line_text(char *buf, size_t size, unsigned int cpu,
		     unsigned int seq)
{
	return snprintf(buf, size, PRINTK_MARKER "cpu%u #%03u %08x%08x%08x%08x",
			cpu, seq, cpu * 0x9e3779b1U ^ seq, seq * 0x85ebca6bU,
			(cpu + 1) * seq * 0xc2b2ae35U, ~(cpu ^ seq));
}

static void print_lines(void *arg)
{
	struct printk_run *run = arg;
	unsigned int cpu = arch_cpu_id();
	char text[128];

	__atomic_fetch_add(&run->ready, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&run->go, __ATOMIC_ACQUIRE))
		arch_cpu_relax();
	for (unsigned int seq = 0; seq < PRINTK_LINES; seq++) {
		line_text(text, sizeof(text), cpu, seq);
		printk(KERN_DEBUG "%s\n", text);
	}
}

static unsigned int parse_uint(const char **s)
{
	unsigned int v = 0;

	while (isdigit(**s))
		v = v * 10 + (unsigned int)(*(*s)++ - '0');
	return v;
}

/*
 * Check one line of the log that holds the marker: "[ sec.usec] " then
 * the exact text its CPU and number say. Counts it in next[cpu].
 */
static bool check_line(struct ktest *t, const char *line, size_t len,
		       unsigned int *next, unsigned int nr_cpus)
{
	const char *m = strstr(line, PRINTK_MARKER), *p;
	unsigned int cpu, seq;
	char want[128];
	int n;

	if (line[0] != '[' || !strstr(line, "] ") ||
	    strstr(line, "] ") + 2 != m || strstr(m + 1, "] ")) {
		KTEST_FAIL(t, "torn line: %.*s", (int)len, line);
		return false;
	}
	p = m + strlen(PRINTK_MARKER "cpu");
	cpu = parse_uint(&p);
	p += 2;				/* " #" */
	seq = parse_uint(&p);
	n = line_text(want, sizeof(want), cpu, seq);
	if (cpu >= nr_cpus || (size_t)(line + len - m) != (size_t)n ||
	    memcmp(m, want, n)) {
		KTEST_FAIL(t, "garbled line: %.*s", (int)len, line);
		return false;
	}
	if (seq != next[cpu]) {
		KTEST_FAIL(t, "cpu%u: line #%u where #%u was due", cpu, seq,
			   next[cpu]);
		return false;
	}
	next[cpu]++;
	return true;
}

static void test_lines_whole(struct ktest *t)
{
	struct printk_run run = {};
	unsigned int nr = nr_cpu_ids, started = 1, next[NR_CPUS] = {};
	char *log = kmalloc(PRINTK_COPY + 1, GFP_KERNEL);
	u64 deadline = arch_clock_ns() + PRINTK_START_S * 1000000000ULL;
	size_t len, start = 0;

	KTEST_ASSERT_NOT_NULL(t, log);
	for (unsigned int cpu = 1; cpu < nr; cpu++) {
		int err = arch_cpu_run(cpu, print_lines, &run);

		if (err == -ENOSYS)
			break;
		KTEST_EXPECT_EQ(t, err, 0);
		started += !err;
	}
	while (__atomic_load_n(&run.ready, __ATOMIC_SEQ_CST) < started - 1) {
		if (arch_clock_ns() > deadline) {
			KTEST_FAIL(t, "the other CPUs did not start within %u s",
				   PRINTK_START_S);
			break;
		}
		arch_cpu_relax();
	}
	__atomic_store_n(&run.go, 1, __ATOMIC_RELEASE);
	print_lines(&run);
	for (unsigned int cpu = 1; cpu < started; cpu++)
		arch_cpu_join(cpu);

	len = log_buf_copy(log, PRINTK_COPY);
	log[len] = '\0';
	if (len == PRINTK_COPY)		/* the first line may be cut */
		start = strcspn(log, "\n") + 1;
	while (start < len) {
		char *eol = memchr(log + start, '\n', len - start);
		size_t n = eol ? (size_t)(eol - log) - start : len - start;

		log[start + n] = '\0';
		if (strstr(log + start, PRINTK_MARKER) &&
		    !check_line(t, log + start, n, next, nr))
			break;
		start += n + 1;
	}
	for (unsigned int cpu = 0; cpu < started; cpu++)
		KTEST_EXPECT_EQ(t, next[cpu], PRINTK_LINES);
	kfree(log);
	if (started < 2)
		ktest_skip(t, "one CPU only: the lines were checked, but nothing printed beside them");
}

static const struct ktest_case printk_cases[] = {
	KTEST_CASE(test_lines_whole),
	{}
};
KTEST_SUITE(printk, printk_cases);

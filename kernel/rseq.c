// SPDX-License-Identifier: GPL-2.0
/*
 * The restartable sequences' table (kernel/rseq.h): the bounds the
 * interrupt entries filter with, the search and the rewind. The table
 * holds one entry per inlined copy of a sequence (a few dozen), so the
 * search is a scan; it only runs for an interrupt that lands between
 * the lowest and the highest sequence.
 */
#include "arch/arch.h"
#include "kernel/bug.h"
#include "kernel/printk.h"
#include "kernel/rseq.h"

/* Until rseq_table_init(): an empty span, no interrupt is rewound. */
unsigned long rseq_lo;
unsigned long rseq_span;

void rseq_table_init(void)
{
	unsigned long lo = ~0UL, hi = 0;
	const struct rseq_entry *e;

	for (e = __start___rseq_table; e < __stop___rseq_table; e++) {
		unsigned long start = rseq_addr(&e->start);
		unsigned long post_commit = rseq_addr(&e->post_commit);
		unsigned long restart = rseq_addr(&e->restart);

		BUG_ON(start >= post_commit);
		BUG_ON(restart >= post_commit);
		lo = min(lo, start);
		hi = max(hi, post_commit);
	}
	if (hi) {
		rseq_lo = lo;
		rseq_span = hi - lo;
	}
	pr_info("rseq: %ld restartable sequences in %lu bytes of text\n",
		(long)(__stop___rseq_table - __start___rseq_table), rseq_span);
}

const struct rseq_entry *rseq_search(unsigned long ip)
{
	const struct rseq_entry *e;

	for (e = __start___rseq_table; e < __stop___rseq_table; e++)
		if (ip >= rseq_addr(&e->start) &&
		    ip < rseq_addr(&e->post_commit))
			return e;
	return NULL;
}

/* Rewinds per CPU, for the tests: only interrupts inside a sequence. */
static unsigned long rseq_restarts[NR_CPUS];

unsigned long rseq_restart_count(void)
{
	unsigned long sum = 0;

	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		sum += READ_ONCE(rseq_restarts[cpu]);
	return sum;
}

void __rseq_fixup_ip(unsigned long *ip)
{
	const struct rseq_entry *e = rseq_search(*ip);

	if (!e)
		return;
	*ip = rseq_addr(&e->restart);
	WRITE_ONCE(rseq_restarts[arch_cpu_id()],
		   rseq_restarts[arch_cpu_id()] + 1);
}

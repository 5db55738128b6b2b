/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Restartable sequences inside the kernel (after Linux's user-space rseq,
 * struct rseq_cs, and its kernel-side rseq_ip_fixup()): a short run of
 * instructions on this CPU's data whose only store that matters is its
 * last one, the commit. An interrupt that lands in [start, post_commit)
 * rewinds the interrupted instruction pointer to restart before its
 * handler runs, so the handler may use the same data freely and the
 * sequence reads everything again when it resumes. No interrupt flag is
 * saved or changed.
 *
 * Each sequence (each inlined copy of one) puts an entry in the
 * __rseq_table section from its inline asm (<asm/rseq.h>), as
 * _ASM_EXTABLE does for the exception table. The interrupt entries
 * (do_IRQ() on x86_64, the interrupt signals' handlers on the host) call
 * rseq_fixup_ip() on the interrupted context before any handler runs.
 * Exceptions need none (a page fault resumes at the faulting
 * instruction), nor NMIs, which never allocate.
 *
 * A sequence must be restartable from restart: its inputs live in
 * registers that no instruction of it writes, and a store before the
 * commit goes only where nobody reads before the commit (a free slot).
 */
#ifndef KERNEL_RSEQ_H
#define KERNEL_RSEQ_H

#include "kernel/compiler.h"
#include "kernel/types.h"
#include <asm/rseq.h>

/*
 * One sequence. Each field is its address's distance from the field
 * itself, so the table needs no relocation (the host build is position
 * independent; Linux's exception table is relative the same way).
 */
struct rseq_entry {
	s32 start;
	s32 post_commit;
	s32 restart;
};

static inline unsigned long rseq_addr(const s32 *field)
{
	return (unsigned long)field + (long)*field;
}

/* The section's bounds (linker.ld; ld's own on the host). */
extern const struct rseq_entry __start___rseq_table[];
extern const struct rseq_entry __stop___rseq_table[];

/* The lowest start, and the span up to the highest post_commit. */
extern unsigned long rseq_lo, rseq_span;

/* Compute the bounds; before interrupts are first turned on. */
void rseq_table_init(void);
/* The sequence ip is inside ([start, post_commit)), or NULL. */
const struct rseq_entry *rseq_search(unsigned long ip);
void __rseq_fixup_ip(unsigned long *ip);
/* Interrupts that landed inside a sequence so far, on every CPU. */
unsigned long rseq_restart_count(void);

/*
 * The interrupt entries' check of the interrupted *ip: one compare
 * against the table's span, a search only inside it.
 */
static __always_inline void rseq_fixup_ip(unsigned long *ip)
{
	if (likely(*ip - rseq_lo >= rseq_span))
		return;
	__rseq_fixup_ip(ip);
}

#endif /* KERNEL_RSEQ_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The restartable sequences both builds use (kernel/rseq.h; the host
 * build is x86_64 code too): a pop from and a push onto this CPU's
 * stack of pointers, without touching the interrupt flag.
 *
 * The stack: stacks[cpu] points at a structure whose first two u32 are
 * the count of entries and the limit, and whose entries (void *) start
 * at byte entry_off (mm/slab.c's struct array_cache). The CPU's number
 * is read before the sequence: code never moves to another CPU (there
 * is no scheduler), only stacks[cpu] may change under it, from an
 * interrupt on this CPU, which restarts the sequence.
 *
 * Every output is early-clobber: a restart reads the inputs again, so
 * no instruction of the sequence may write a register that holds one.
 * The commit is the store of the count, the sequence's last instruction.
 */
#ifndef ARCH_X86_RSEQ_H
#define ARCH_X86_RSEQ_H

/* This sequence's entry in __rseq_table: three offsets (kernel/rseq.h). */
#define RSEQ_TABLE_ENTRY(start, post_commit, restart)			\
	".pushsection __rseq_table, \"a\"\n\t"				\
	".balign 4\n\t"							\
	".long (" start ") - .\n\t"					\
	".long (" post_commit ") - .\n\t"				\
	".long (" restart ") - .\n\t"					\
	".popsection\n\t"

/*
 * The top entry of stacks[cpu], popped; NULL (nothing popped) when the
 * stack is empty. entry_off must be a constant.
 */
static __always_inline void *arch_rseq_stack_pop(void *const *stacks,
						 unsigned int cpu,
						 const unsigned long entry_off)
{
	unsigned long st, n;
	void *obj;

	__asm__ __volatile__ goto("1:\tmovq (%[stacks],%[cpu],8), %[st]\n\t"
				  "movl (%[st]), %k[n]\n\t"
				  "subl $1, %k[n]\n\t"
				  "jb %l[empty]\n\t"
				  "movq %c[off](%[st],%[n],8), %[obj]\n\t"
				  "movl %k[n], (%[st])\n"
				  "2:\n\t"
				  RSEQ_TABLE_ENTRY("1b", "2b", "1b")
				  : [obj] "=&r"(obj), [st] "=&r"(st),
				    [n] "=&r"(n)
				  : [stacks] "r"(stacks),
				    [cpu] "r"((unsigned long)cpu),
				    [off] "i"(entry_off)
				  : "memory", "cc"
				  : empty);
	return obj;
empty:
	return NULL;
}

/*
 * Push obj onto stacks[cpu]; false (nothing pushed) when it holds its
 * limit already. The entry is stored above the count before the commit:
 * a slot nobody reads until the count covers it.
 */
static __always_inline bool arch_rseq_stack_push(void *const *stacks,
						 unsigned int cpu,
						 const unsigned long entry_off,
						 void *obj)
{
	unsigned long st, n;

	__asm__ __volatile__ goto("1:\tmovq (%[stacks],%[cpu],8), %[st]\n\t"
				  "movl (%[st]), %k[n]\n\t"
				  "cmpl 4(%[st]), %k[n]\n\t"
				  "jae %l[full]\n\t"
				  "movq %[obj], %c[off](%[st],%[n],8)\n\t"
				  "addl $1, %k[n]\n\t"
				  "movl %k[n], (%[st])\n"
				  "2:\n\t"
				  RSEQ_TABLE_ENTRY("1b", "2b", "1b")
				  : [st] "=&r"(st), [n] "=&r"(n)
				  : [stacks] "r"(stacks),
				    [cpu] "r"((unsigned long)cpu),
				    [obj] "r"(obj), [off] "i"(entry_off)
				  : "memory", "cc"
				  : full);
	return true;
full:
	return false;
}

#endif /* ARCH_X86_RSEQ_H */

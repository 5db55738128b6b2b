/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The restartable sequences both builds use (kernel/rseq.h; the host
 * build is x86_64 code too): a pop from and a push onto this CPU's
 * stack of pointers, without touching the interrupt flag.
 *
 * The stack: this CPU's slot points at a structure whose first two u32
 * are the count of entries and the limit, and whose entries (void *)
 * start at byte entry_off (mm/slab.c's struct array_cache, mm/internal.h's
 * struct pcp_list). The slot's address is worked out before the
 * sequence: code never moves to another CPU (there is no scheduler),
 * only the slot and the stack may change under it, from an interrupt on
 * this CPU, which restarts the sequence.
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
 * A sequence's gate: with gate_off >= 0, a non-zero byte at gate_off in
 * the stack turns the sequence away, as if the stack were empty (full),
 * so that another CPU can ask the owner to take its slow path.
 */
#define RSEQ_GATE(label)						\
	".if %c[gate] >= 0\n\t"					\
	"cmpb $0, %c[gate](%[st])\n\t"					\
	"jne %l[" label "]\n\t"						\
	".endif\n\t"

/*
 * The top entry of the stack *slot points at (slot: this CPU's pointer
 * to its stack), popped; NULL (nothing popped) when the stack is empty
 * or gated. Entries are never NULL. entry_off and gate_off must be
 * constants; if stackp is not NULL, *stackp is the stack.
 */
static __always_inline void *arch_rseq_pop(void *const *slot,
					   const unsigned long entry_off,
					   const long gate_off, void **stackp)
{
	unsigned long st, n;
	void *obj;

	__asm__ __volatile__ goto("1:\tmovq %[slot], %[st]\n\t"
				  RSEQ_GATE("empty")
				  "movl (%[st]), %k[n]\n\t"
				  "subl $1, %k[n]\n\t"
				  "jb %l[empty]\n\t"
				  "movq %c[off](%[st],%[n],8), %[obj]\n\t"
				  "movl %k[n], (%[st])\n"
				  "2:\n\t"
				  RSEQ_TABLE_ENTRY("1b", "2b", "1b")
				  : [obj] "=&a"(obj), [st] "=&r"(st),
				    [n] "=&r"(n)
				  : [slot] "m"(*slot), [off] "i"(entry_off),
				    [gate] "i"(gate_off)
				  : "memory", "cc"
				  : empty);
	if (!obj)
		__builtin_unreachable();
	if (stackp)
		*stackp = (void *)st;
	return obj;
empty:
	return NULL;
}

/*
 * Push obj onto the stack *slot points at; false (nothing pushed) when
 * it holds its limit already or is gated. The entry is stored above the
 * count before the commit: a slot nobody reads until the count covers
 * it. if stackp is not NULL, *stackp is the stack after a push.
 */
static __always_inline bool arch_rseq_push(void *const *slot,
					   const unsigned long entry_off,
					   const long gate_off, void *obj,
					   void **stackp)
{
	unsigned long st, n;

	__asm__ __volatile__ goto("1:\tmovq %[slot], %[st]\n\t"
				  RSEQ_GATE("full")
				  "movl (%[st]), %k[n]\n\t"
				  "cmpl 4(%[st]), %k[n]\n\t"
				  "jae %l[full]\n\t"
				  "movq %[obj], %c[off](%[st],%[n],8)\n\t"
				  "addl $1, %k[n]\n\t"
				  "movl %k[n], (%[st])\n"
				  "2:\n\t"
				  RSEQ_TABLE_ENTRY("1b", "2b", "1b")
				  : [st] "=&r"(st), [n] "=&r"(n)
				  : [slot] "m"(*slot), [obj] "r"(obj),
				    [off] "i"(entry_off), [gate] "i"(gate_off)
				  : "memory", "cc"
				  : full);
	if (stackp)
		*stackp = (void *)st;
	return true;
full:
	return false;
}

/* The same on stacks[cpu], one stack per CPU. */
static __always_inline void *arch_rseq_stack_pop(void *const *stacks,
						 unsigned int cpu,
						 const unsigned long entry_off)
{
	return arch_rseq_pop(&stacks[cpu], entry_off, -1, NULL);
}

static __always_inline bool arch_rseq_stack_push(void *const *stacks,
						 unsigned int cpu,
						 const unsigned long entry_off,
						 void *obj)
{
	return arch_rseq_push(&stacks[cpu], entry_off, -1, obj, NULL);
}

/*
 * Add 1 to *counter in one instruction, which an interrupt on this CPU
 * cannot split (Linux's local_inc()): for a count that only its CPU
 * updates, outside a sequence.
 */
static __always_inline void arch_local_inc(unsigned long *counter)
{
	__asm__ __volatile__("addq $1, %0" : "+m"(*counter));
}

#endif /* ARCH_X86_RSEQ_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The this_cpu operations for x86_64 (mm/percpu.h), as Linux's: each is
 * one instruction with a segment prefix, "addq %reg, %fs:(cookie)", so
 * an interrupt comes before or after it, never inside: the operations
 * are interrupt-safe without turning interrupts off (not atomic against
 * other CPUs, which each have their own copy).
 *
 * Linux uses %gs; here the GS base already points at each CPU's struct
 * x86_percpu (arch_cpu_id() is one %gs-relative load, asm/cpu.h), so the
 * per-CPU offset sits in the FS base, which the kernel has no other use
 * for (no user space, no thread-local storage). smpboot.c writes
 * per_cpu_offset(cpu) to MSR_FS_BASE on every CPU before it runs any
 * other code. Included by mm/percpu.h after per_cpu_offset().
 */
#ifndef ASM_X86_64_PERCPU_H
#define ASM_X86_64_PERCPU_H

#include <asm/cpu.h>

#define MSR_FS_BASE		0xc0000100

/*
 * This CPU's per-CPU offset, for this_cpu_ptr(): computed from the CPU
 * number (one %gs load) rather than read back from the FS base, which
 * would take rdmsr (rdfsbase needs CR4.FSGSBASE, which TCG's default
 * CPU model lacks).
 */
static inline unsigned long arch_this_cpu_off(void)
{
	return per_cpu_offset(arch_cpu_id());
}

#include "arch/x86_percpu_op.h"

/* One instruction "op %val, %fs:var" of var's size. */
#define arch_percpu_to_op(op, var, val)					\
	x86_percpu_to_op("%%fs:", op, var, val)

/* One load "mov %fs:var, %reg". */
#define arch_percpu_from_op(var)					\
({									\
	__typeof__(var) pfo_ret__;					\
	switch (sizeof(var)) {						\
	case 1:								\
		__asm__ __volatile__("movb %%fs:%1, %0"			\
				     : "=q"(pfo_ret__) : "m"(var));	\
		break;							\
	case 2:								\
		__asm__ __volatile__("movw %%fs:%1, %0"			\
				     : "=r"(pfo_ret__) : "m"(var));	\
		break;							\
	case 4:								\
		__asm__ __volatile__("movl %%fs:%1, %0"			\
				     : "=r"(pfo_ret__) : "m"(var));	\
		break;							\
	case 8:								\
		__asm__ __volatile__("movq %%fs:%1, %0"			\
				     : "=r"(pfo_ret__) : "m"(var));	\
		break;							\
	default:							\
		__bad_percpu_size();					\
	}								\
	pfo_ret__;							\
})

#define arch_this_cpu_read(pcp)		arch_percpu_from_op(*(pcp))
#define arch_this_cpu_write(pcp, val)	arch_percpu_to_op("mov", *(pcp), val)
#define arch_this_cpu_add(pcp, val)	arch_percpu_to_op("add", *(pcp), val)

#endif /* ASM_X86_64_PERCPU_H */

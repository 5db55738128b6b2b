/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The this_cpu operations for the host build (mm/percpu.h). A CPU is a
 * thread and its number a thread-local (host_this_cpu.id, asm/cpu.h),
 * so this CPU's copy is the cookie plus per_cpu_offset(id); the
 * operation itself is one read-modify-write instruction on that copy
 * ("addq %reg, (%rax)"). An interrupt is a signal, delivered between two
 * instructions, never inside one, so the operations are interrupt-safe
 * without the soft interrupt flag, as Linux's %gs-prefixed ones on x86.
 * Included by mm/percpu.h after per_cpu_offset().
 */
#ifndef ASM_HOST_PERCPU_H
#define ASM_HOST_PERCPU_H

#include <asm/cpu.h>

static inline unsigned long arch_this_cpu_off(void)
{
	return per_cpu_offset(arch_cpu_id());
}

void __bad_percpu_size(void);	/* never defined: a link error */

/* This CPU's copy of *pcp, as an lvalue. */
#define arch_this_cpu_var(pcp)						\
	(*(__typeof__(pcp))((unsigned long)(pcp) + arch_this_cpu_off()))

/* One instruction "op %val, var" of var's size. */
#define arch_percpu_to_op(op, var, val)					\
do {									\
	switch (sizeof(var)) {						\
	case 1:								\
		__asm__ __volatile__(op "b %1, %0"			\
				     : "+m"(var) : "qi"((u8)(val)));	\
		break;							\
	case 2:								\
		__asm__ __volatile__(op "w %1, %0"			\
				     : "+m"(var) : "ri"((u16)(val)));	\
		break;							\
	case 4:								\
		__asm__ __volatile__(op "l %1, %0"			\
				     : "+m"(var) : "ri"((u32)(val)));	\
		break;							\
	case 8:								\
		__asm__ __volatile__(op "q %1, %0"			\
				     : "+m"(var) : "re"((u64)(val)));	\
		break;							\
	default:							\
		__bad_percpu_size();					\
	}								\
} while (0)

#define arch_this_cpu_read(pcp)		READ_ONCE(arch_this_cpu_var(pcp))
#define arch_this_cpu_write(pcp, val)					\
	arch_percpu_to_op("mov", arch_this_cpu_var(pcp), val)
#define arch_this_cpu_add(pcp, val)					\
	arch_percpu_to_op("add", arch_this_cpu_var(pcp), val)

#endif /* ASM_HOST_PERCPU_H */

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

#include "arch/x86_percpu_op.h"

/* This CPU's copy of *pcp, as an lvalue. */
#define arch_this_cpu_var(pcp)						\
	(*(__typeof__(pcp))((unsigned long)(pcp) + arch_this_cpu_off()))

/* One instruction "op %val, var" of var's size. */
#define arch_percpu_to_op(op, var, val)	x86_percpu_to_op("", op, var, val)

#define arch_this_cpu_read(pcp)		READ_ONCE(arch_this_cpu_var(pcp))
#define arch_this_cpu_write(pcp, val)					\
	arch_percpu_to_op("mov", arch_this_cpu_var(pcp), val)
#define arch_this_cpu_add(pcp, val)					\
	arch_percpu_to_op("add", arch_this_cpu_var(pcp), val)

#endif /* ASM_HOST_PERCPU_H */

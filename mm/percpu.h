/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Dynamic per-CPU memory (Linux's <linux/percpu.h>): one copy of an
 * object for every possible CPU, allocated together and reached through
 * one per-CPU pointer.
 *
 * A per-CPU pointer is a cookie, not an address to dereference: CPU
 * cpu's copy is at per_cpu_ptr(ptr, cpu), the cookie plus
 * per_cpu_offset(cpu), and the running CPU's at this_cpu_ptr(ptr).
 * Every copy starts zeroed. this_cpu_read/write/add/inc/dec() work on
 * the running CPU's copy in one instruction that an interrupt cannot
 * split (asm/percpu.h): a counter bumped by task code and by interrupt
 * handlers on the same CPU loses nothing, without turning interrupts
 * off. They are not atomic against other CPUs, which have copies of
 * their own; reading every CPU's copy (a sum, say) is racy by nature.
 *
 * The allocator (mm/percpu.c, Documentation/mm/percpu.md) hands out
 * areas of 1 to PCPU_MAX_ALLOC_SIZE bytes, aligned to a power of two up
 * to PAGE_SIZE. Context: alloc_percpu_gfp() with GFP_ATOMIC is served
 * only from chunks that exist already, and may be called with
 * interrupts off or from a handler; anything that may grow a chunk
 * (GFP_KERNEL) needs interrupts on and no interrupt handler.
 * free_percpu() may be called from any context.
 */
#ifndef MM_PERCPU_H
#define MM_PERCPU_H

#include "kernel/types.h"
#include "mm/gfp.h"
#include "mm/mm.h"

/* The unit of a CPU in a chunk: 32 KiB, the largest allocation too. */
#define PCPU_UNIT_SHIFT		15
#define PCPU_UNIT_SIZE		(1UL << PCPU_UNIT_SHIFT)
#define PCPU_UNIT_PAGES		(PCPU_UNIT_SIZE / PAGE_SIZE)
#define PCPU_MIN_ALLOC_SIZE	4	/* the allocation granule */
#define PCPU_MAX_ALLOC_SIZE	PCPU_UNIT_SIZE

/**
 * per_cpu_offset() - the distance from CPU 0's copy to a CPU's
 * @cpu: a CPU number below nr_cpu_ids
 *
 * The units of a chunk lie one after the other in CPU order, so the
 * distance is the same for every per-CPU object.
 *
 * Context: any context.
 * Return: @cpu times PCPU_UNIT_SIZE.
 */
static inline unsigned long per_cpu_offset(unsigned int cpu)
{
	return (unsigned long)cpu << PCPU_UNIT_SHIFT;
}

#include <asm/percpu.h>

/* Marks a per-CPU pointer, as Linux's (only for the reader here). */
#define __percpu

/**
 * __alloc_percpu_gfp() - allocate a zeroed per-CPU area
 * @size: bytes per CPU, 1..PCPU_MAX_ALLOC_SIZE
 * @align: a power of two, at most PAGE_SIZE
 * @gfp: GFP_KERNEL may map a new chunk; without __GFP_DIRECT_RECLAIM
 *	(GFP_ATOMIC) only the chunks that exist are used
 *
 * Every possible CPU's copy is zeroed. A bad @size or @align is warned
 * about and fails.
 *
 * Context: GFP_ATOMIC: any context. GFP_KERNEL: interrupts on, not in
 * an interrupt handler (else it is served as GFP_ATOMIC, with a warning).
 * Return: the per-CPU pointer, or NULL.
 */
void __percpu *__alloc_percpu_gfp(size_t size, size_t align, gfp_t gfp);

/**
 * __alloc_percpu() - allocate a zeroed per-CPU area, GFP_KERNEL
 * @size: bytes per CPU, 1..PCPU_MAX_ALLOC_SIZE
 * @align: a power of two, at most PAGE_SIZE
 *
 * Context: interrupts on, not in an interrupt handler.
 * Return: the per-CPU pointer, or NULL.
 */
void __percpu *__alloc_percpu(size_t size, size_t align);

/**
 * free_percpu() - free a per-CPU area
 * @ptr: what an alloc_percpu function returned; NULL is ignored
 *
 * A pointer that is not the start of an allocated area (a double free,
 * an address from elsewhere) is warned about and nothing is freed. A
 * chunk left empty goes back to the page allocator, unless it is the
 * first one (mapped at boot, kept): at once when the caller may sleep,
 * else from a work item.
 *
 * Context: any context.
 */
void free_percpu(void __percpu *ptr);

/**
 * percpu_init() - set the per-CPU allocator up and map its first chunk
 *
 * Context: boot, once, after vmalloc_init() and before the first
 * allocation.
 */
void percpu_init(void);

/**
 * alloc_percpu_gfp() - allocate a zeroed per-CPU object of a type
 * @type: the type, whose size and alignment are used
 * @gfp: as for __alloc_percpu_gfp()
 *
 * Context: as __alloc_percpu_gfp().
 * Return: a per-CPU pointer to @type, or NULL.
 */
#define alloc_percpu_gfp(type, gfp)					\
	((type __percpu *)__alloc_percpu_gfp(sizeof(type),		\
					     __alignof__(type), gfp))
/**
 * alloc_percpu() - allocate a zeroed per-CPU object of a type, GFP_KERNEL
 * @type: the type, whose size and alignment are used
 *
 * Context: as __alloc_percpu().
 * Return: a per-CPU pointer to @type, or NULL.
 */
#define alloc_percpu(type)						\
	((type __percpu *)__alloc_percpu(sizeof(type), __alignof__(type)))

/**
 * per_cpu_ptr() - a CPU's copy of a per-CPU object
 * @ptr: a per-CPU pointer
 * @cpu: a possible CPU
 *
 * Context: any context; the copy is another CPU's too, mind the races.
 * Return: the address of @cpu's copy, of @ptr's type.
 */
#define per_cpu_ptr(ptr, cpu)						\
	((__typeof__(ptr))((unsigned long)(ptr) + per_cpu_offset(cpu)))
/**
 * this_cpu_ptr() - the running CPU's copy of a per-CPU object
 * @ptr: a per-CPU pointer
 *
 * Context: any context (code never changes CPU here).
 * Return: the address of the running CPU's copy, of @ptr's type.
 */
#define this_cpu_ptr(ptr)						\
	((__typeof__(ptr))((unsigned long)(ptr) + arch_this_cpu_off()))
/**
 * raw_cpu_ptr() - this_cpu_ptr(), as Linux's unchecked form
 * @ptr: a per-CPU pointer
 *
 * Context: any context.
 * Return: as this_cpu_ptr().
 */
#define raw_cpu_ptr(ptr)	this_cpu_ptr(ptr)

/*
 * The operations on the running CPU's copy of *pcp, pcp a per-CPU
 * pointer to a 1, 2, 4 or 8-byte integer: each one instruction that an
 * interrupt cannot split (asm/percpu.h), so safe with interrupts on.
 */

/**
 * this_cpu_read() - read the running CPU's copy
 * @pcp: a per-CPU pointer to an integer
 *
 * Context: any context.
 * Return: the value.
 */
#define this_cpu_read(pcp)		arch_this_cpu_read(pcp)
/**
 * this_cpu_write() - write the running CPU's copy
 * @pcp: a per-CPU pointer to an integer
 * @val: the value
 *
 * Context: any context.
 */
#define this_cpu_write(pcp, val)	arch_this_cpu_write(pcp, val)
/**
 * this_cpu_add() - add to the running CPU's copy, interrupt-safe
 * @pcp: a per-CPU pointer to an integer
 * @val: the addend, truncated to the integer's size
 *
 * Context: any context; an interrupt handler's add on the same CPU is
 * never lost.
 */
#define this_cpu_add(pcp, val)		arch_this_cpu_add(pcp, val)
/**
 * this_cpu_sub() - subtract from the running CPU's copy
 * @pcp: a per-CPU pointer to an integer
 * @val: what to subtract
 *
 * Context: as this_cpu_add().
 */
#define this_cpu_sub(pcp, val)		this_cpu_add(pcp, -(__typeof__(*(pcp)))(val))
/**
 * this_cpu_inc() - add 1 to the running CPU's copy
 * @pcp: a per-CPU pointer to an integer
 *
 * Context: as this_cpu_add().
 */
#define this_cpu_inc(pcp)		this_cpu_add(pcp, 1)
/**
 * this_cpu_dec() - subtract 1 from the running CPU's copy
 * @pcp: a per-CPU pointer to an integer
 *
 * Context: as this_cpu_add().
 */
#define this_cpu_dec(pcp)		this_cpu_sub(pcp, 1)

/*
 * Linux's __this_cpu forms skip the interrupt protection the plain ones
 * need on other architectures; here the plain ones cost nothing more,
 * so these are the same operations, for code written against Linux.
 */

/**
 * __this_cpu_read() - this_cpu_read()
 * @pcp: a per-CPU pointer to an integer
 *
 * Context: any context.
 * Return: the value.
 */
#define __this_cpu_read(pcp)		this_cpu_read(pcp)
/**
 * __this_cpu_write() - this_cpu_write()
 * @pcp: a per-CPU pointer to an integer
 * @val: the value
 *
 * Context: any context.
 */
#define __this_cpu_write(pcp, val)	this_cpu_write(pcp, val)
/**
 * __this_cpu_add() - this_cpu_add()
 * @pcp: a per-CPU pointer to an integer
 * @val: the addend
 *
 * Context: any context.
 */
#define __this_cpu_add(pcp, val)	this_cpu_add(pcp, val)
/**
 * __this_cpu_inc() - this_cpu_inc()
 * @pcp: a per-CPU pointer to an integer
 *
 * Context: any context.
 */
#define __this_cpu_inc(pcp)		this_cpu_inc(pcp)
/**
 * __this_cpu_dec() - this_cpu_dec()
 * @pcp: a per-CPU pointer to an integer
 *
 * Context: any context.
 */
#define __this_cpu_dec(pcp)		this_cpu_dec(pcp)

#endif /* MM_PERCPU_H */

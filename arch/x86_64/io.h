/* SPDX-License-Identifier: GPL-2.0 */
/* Port I/O, control registers and other single x86 instructions. */
#ifndef ARCH_X86_64_IO_H
#define ARCH_X86_64_IO_H

#include "kernel/types.h"

static inline void outb(u16 port, u8 val)
{
	__asm__ __volatile__("outb %0, %1" : : "a"(val), "Nd"(port));
}

static inline u8 inb(u16 port)
{
	u8 val;

	__asm__ __volatile__("inb %1, %0" : "=a"(val) : "Nd"(port));
	return val;
}

static inline u64 rdtsc(void)
{
	u32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

static inline unsigned long read_cr0(void)
{
	unsigned long v;

	__asm__ __volatile__("mov %%cr0, %0" : "=r"(v));
	return v;
}

static inline unsigned long read_cr2(void)
{
	unsigned long v;

	__asm__ __volatile__("mov %%cr2, %0" : "=r"(v));
	return v;
}

static inline unsigned long read_cr3(void)
{
	unsigned long v;

	__asm__ __volatile__("mov %%cr3, %0" : "=r"(v));
	return v;
}

static inline void write_cr3(unsigned long v)
{
	__asm__ __volatile__("mov %0, %%cr3" : : "r"(v) : "memory");
}

static inline unsigned long read_cr4(void)
{
	unsigned long v;

	__asm__ __volatile__("mov %%cr4, %0" : "=r"(v));
	return v;
}

static inline void cpuid(u32 leaf, u32 sub, u32 *a, u32 *b, u32 *c, u32 *d)
{
	__asm__ __volatile__("cpuid"
			     : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
			     : "a"(leaf), "c"(sub));
}

static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;

	__asm__ __volatile__("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}

static inline void wrmsr(u32 msr, u64 val)
{
	__asm__ __volatile__("wrmsr" : : "c"(msr), "a"((u32)val),
			     "d"((u32)(val >> 32)) : "memory");
}

/* Device registers: one access each, never merged or reordered. */
static inline u32 readl(const volatile void *addr)
{
	return *(const volatile u32 *)addr;
}

static inline void writel(u32 val, volatile void *addr)
{
	*(volatile u32 *)addr = val;
}

static inline void cpu_halt(void)
{
	__asm__ __volatile__("hlt");
}

#endif /* ARCH_X86_64_IO_H */

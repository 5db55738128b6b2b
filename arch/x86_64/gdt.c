// SPDX-License-Identifier: GPL-2.0
/*
 * GDT and TSS. Long mode ignores segment bases and limits, so the GDT only
 * has to name a 64-bit code segment, a data segment and the TSS. The TSS
 * matters for one thing: its interrupt stack table, known-good stacks
 * for the double fault (IST1), NMI (IST2) and machine check (IST3)
 * handlers, so that a kernel stack overflow still ends in a readable
 * report instead of a triple fault, and an NMI that hits while another
 * of them runs does not overwrite its stack. Every CPU gets its own TSS
 * and GDT (arrays sized NR_CPUS, 144 bytes a CPU) and IST stacks: the
 * boot CPU's static, an AP's from memblock with its kernel stack
 * (smpboot.c), so NR_CPUS costs no stacks for CPUs that are not there.
 * gdt_init() sets up the calling CPU's.
 */
#include "arch/arch.h"
#include "arch/x86_64/x86.h"
#include "kernel/bug.h"

struct tss {
	u32 reserved0;
	u64 rsp[3];
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3;
	u16 iomap_base;
} __packed;

struct gdt_desc {
	u16 limit;
	u64 base;
} __packed;

static __aligned(16) char boot_ist_stacks[IST_NR][IST_STACK_SIZE];

/*
 * One GDT per CPU: ltr marks the TSS descriptor busy, so CPUs cannot
 * share one.
 */
static struct tss tss[NR_CPUS];
static u64 gdt[NR_CPUS][5] __aligned(16);

static void set_tss_descriptor(unsigned int cpu)
{
	u64 base = (u64)&tss[cpu], limit = sizeof(tss[cpu]) - 1;

	gdt[cpu][0] = 0;
	gdt[cpu][1] = 0x00af9a000000ffffULL;	/* 0x08: 64-bit code, ring 0 */
	gdt[cpu][2] = 0x00cf92000000ffffULL;	/* 0x10: data, ring 0 */
	/* 0x18: the TSS, 16 bytes */
	gdt[cpu][3] = (limit & 0xffff) | ((base & 0xffffff) << 16) |
		 (0x89ULL << 40) |		/* present, 64-bit TSS (available) */
		 ((limit >> 16 & 0xf) << 48) | ((base >> 24 & 0xff) << 56);
	gdt[cpu][4] = base >> 32;
}

char *x86_ist_stacks(unsigned int cpu)
{
	unsigned long lo = x86_percpu[cpu].ist_lo;

	BUG_ON(cpu && !lo);
	return lo ? (char *)lo : &boot_ist_stacks[0][0];
}

/* This CPU's GDT and TSS (the boot CPU early, each AP at start-up). */
void gdt_init(void)
{
	unsigned int cpu = arch_cpu_id();
	struct gdt_desc desc = { .limit = sizeof(gdt[cpu]) - 1,
				 .base = (u64)gdt[cpu] };

	/* ist[n - 1] is ISTn; stacks grow down from the top. */
	for (int i = 0; i < IST_NR; i++)
		tss[cpu].ist[i] = (u64)(x86_ist_stacks(cpu) +
					(i + 1) * IST_STACK_SIZE);
	tss[cpu].iomap_base = sizeof(tss[cpu]);
	set_tss_descriptor(cpu);

	__asm__ __volatile__(
		"lgdt %0\n\t"
		"pushq %1\n\t"
		"leaq 1f(%%rip), %%rax\n\t"
		"pushq %%rax\n\t"
		"lretq\n"
		"1:\n\t"
		"movw %w2, %%ax\n\t"
		"movw %%ax, %%ds\n\t"
		"movw %%ax, %%es\n\t"
		"movw %%ax, %%ss\n\t"
		"movw %w3, %%ax\n\t"
		"ltr %%ax\n\t"
		:
		: "m"(desc), "i"(KERNEL_CS), "i"(KERNEL_DS), "i"(KERNEL_TSS)
		: "rax", "memory");
}

/* SPDX-License-Identifier: GPL-2.0 */
/* Interfaces between the files of arch/x86_64 (not for kernel/ or mm/). */
#ifndef ARCH_X86_64_X86_H
#define ARCH_X86_64_X86_H

#include "kernel/types.h"
#include "arch/arch.h"

#define KERNEL_VIRT_BASE	0xffffffff80000000UL	/* linker.ld */
#define X86_PAGE_OFFSET		0xffff888000000000UL	/* direct map */
#define X86_VMEMMAP_START	0xffffea0000000000UL	/* mem_map */
#define X86_VMALLOC_START	0xffffc90000000000UL	/* Linux's VMALLOC_START */
#define X86_VMALLOC_SIZE	(32UL << 40)
#define EARLY_MAP_SIZE		SZ_1G	/* what boot/entry.S maps */

/* Page-table entry bits (mm.c, kasan.c). */
#define PTE_PRESENT	(1UL << 0)
#define PTE_RW		(1UL << 1)
#define PTE_PWT		(1UL << 3)
#define PTE_PCD		(1UL << 4)
#define PTE_PSE		(1UL << 7)
#define PTE_GLOBAL	(1UL << 8)
#define PTE_PAT_LARGE	(1UL << 12)	/* PAT bit of a 2 MiB or 1 GiB entry */
#define PTE_NX		(1UL << 63)
#define PTE_ADDR_MASK	0x000ffffffffff000UL

#define PGD_LEVEL	3	/* levels: 3 PML4, 2 PDPT, 1 PD, 0 PT */

#define KERNEL_CS	0x08
#define KERNEL_DS	0x10
#define KERNEL_TSS	0x18

/* Saved by the exception entry stubs (entry_64.S), lowest address first. */
struct pt_regs {
	unsigned long r15, r14, r13, r12, r11, r10, r9, r8;
	unsigned long rbp, rdi, rsi, rdx, rcx, rbx, rax;
	unsigned long vector, error_code;
	unsigned long rip, cs, rflags, rsp, ss;	/* pushed by the CPU */
};

void serial_init(void);
void serial_write(const char *s, size_t len);
int serial_getc(void);

/* Called from assembly: boot/entry.S and entry_64.S. */
__noreturn void x86_64_start_kernel(u32 magic, u32 info_phys);
void do_exception(struct pt_regs *regs);
void do_IRQ(struct pt_regs *regs);

/* Interrupts (irq.c, apic.c, i8259.c). */
int apic_map(void);
int apic_init(void);
phys_addr_t apic_phys_base(void);
void apic_eoi(void);
void init_8259A(void);
void pic_register_spurious(void);


void apic_ap_init(void);
u32 apic_read_id(void);
int apic_wakeup_secondary_cpu(u32 apic_id, unsigned int start_page);
void apic_send_init(u32 apic_id);
void setup_boot_APIC_clock(void);
int apic_send_IPI_fixed(u32 apic_id, unsigned int vector);
void apic_send_nmi(u32 apic_id);

/* NMIs and the panic's stop of the other CPUs (nmi.c). */
bool x86_nmi_stop(void);

/* The TSC and the PIT (tsc.c). */
struct pit_window {
	u64 tsc_start, tsc_end;
	u32 other_start, other_end;
	u32 pit_counts;			/* the window, in PIT_HZ counts */
	u64 slack;			/* TSC cycles the edges may be off */
};
#define PIT_HZ		1193182
bool pit_window(unsigned int ms, u32 (*other)(void), struct pit_window *w);
void pit_window_best(unsigned int ms, u32 (*other)(void),
		     struct pit_window *w);
extern unsigned long tsc_khz;
u64 tsc_us_to_cycles(unsigned long us);
void tsc_udelay(unsigned long us);

/*
 * Each CPU's own data, reached through its GS base (arch_cpu_id() reads
 * cpu_number with one %gs-relative load, asm/cpu.h). What the CPU
 * recorded at start-up is for arch_cpu_info() and the smpboot tests.
 */
struct x86_percpu {
	unsigned int cpu_number;	/* offset X86_PERCPU_CPU_NUMBER */
	u32 apic_id;
	unsigned long stack_lo, stack_hi;	/* its kernel stack */
	unsigned long ist_lo;		/* its IST stacks (0: the boot CPU's) */
	unsigned long seen_gs_base;	/* MSR_GS_BASE, read by the CPU */
	unsigned long seen_stack;	/* a local of start_secondary() */
	unsigned int seen_cpu;		/* arch_cpu_id() on the CPU */
	u32 seen_apic_id;		/* its local APIC's ID register */
	/* arch_cpu_run()'s work slot (smpboot.c): state, then fn(arg). */
	unsigned int work_state;
	void (*work_fn)(void *arg);
	void *work_arg;
} __aligned(64);
extern struct x86_percpu x86_percpu[NR_CPUS];

/* Bring-up of the application processors (smpboot.c), from setup_arch(). */
void smp_reserve_trampoline(void);
void smp_boot_cpus(void);
void x86_cpu_stack(unsigned int cpu, unsigned long *lo, unsigned long *hi);

void gdt_init(void);
void idt_load(void);
void init_mem_mapping(void);
void idt_init(void);
void tsc_init(void);

/*
 * The ACPI RSDP the boot loader copied into the boot information (the
 * multiboot2 "new" tag preferred over the "old" one), its length in *len;
 * NULL if there was no valid one.
 */
const void *x86_acpi_rsdp(u32 *len);

/*
 * Map firmware memory (ACPI tables) read-only into the direct map, boot
 * only (mm.c); NULL if it cannot be. acpi_boot_init() reads the ACPI
 * tables through it (acpi_boot.c).
 */
const void *x86_map_firmware(u64 phys, u64 size);
void acpi_boot_init(void);
/* The NUMA topology from the SRAT and SLIT (after acpi_boot_init()). */
void x86_numa_init(void);
/* Each CPU's node, once they have their numbers (after smp_boot_cpus()). */
void init_cpu_to_node(void);

/* The stacks a frame-pointer walk may follow. */
extern char boot_stack[], boot_stack_top[];
#define IST_DF		1	/* double fault */
#define IST_NMI		2
#define IST_MC		3	/* machine check */
#define IST_NR		3
#define IST_STACK_SIZE	8192
/* cpu's IST_NR stacks, IST_STACK_SIZE each, in a row (gdt.c). */
char *x86_ist_stacks(unsigned int cpu);

#endif /* ARCH_X86_64_X86_H */

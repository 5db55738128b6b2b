// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64 bring-up and the arch interface (arch/arch.h) for the machine.
 *
 * boot/entry.S calls x86_64_start_kernel() in the higher half with the
 * multiboot2 magic and the physical address of the boot information. We
 * start the console first (so everything after can report), load our own
 * GDT/TSS and IDT, calibrate the clock, parse the boot information, drop
 * the identity mapping of low memory (so NULL and other low pointers
 * fault) and hand over to start_kernel(). Later start_kernel() calls back
 * for the memory map (arch_memory_map) and to map RAM (setup_arch).
 */
#include "arch/x86_64/x86.h"
#include "arch/x86_64/io.h"
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/kernel.h"
#include "arch/x86_64/multiboot2.h"
#include "arch/x86_64/efi.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "arch/x86_64/e820.h"
#include "mm/memblock.h"
#include "mm/mm.h"
#include "arch/arch.h"

#define QEMU_EXIT_PORT		0xf4
#define QEMU_EXIT_SUCCESS	0x10	/* QEMU exits with (0x10 << 1) | 1 = 33 */
#define QEMU_EXIT_FAILURE	0x11	/* ... and 35 */

extern u64 boot_pml4[512];
extern char _boot_start[], _end[];

const char arch_name[] = "x86_64";
static struct mb2_info mb2;
static unsigned long mb2_phys;

/*
 * Parse the boot information through the boot map of the first GiB. A
 * broken block is reported by mb2_parse() and leaves mb2 empty: the
 * kernel then boots with an empty command line and stops at the missing
 * memory map with a clear panic.
 */
static void parse_boot_info(unsigned long info_phys)
{
	mb2_phys = info_phys;
	if (!info_phys || info_phys >= EARLY_MAP_SIZE ||
	    mb2_parse((void *)(X86_PAGE_OFFSET + info_phys),
		      EARLY_MAP_SIZE - info_phys, &mb2))
		memset(&mb2, 0, sizeof(mb2));
}

/* Low memory is reached through the direct map from now on. */
static void drop_identity_map(void)
{
	boot_pml4[0] = 0;
	write_cr3(read_cr3());
}

__noreturn void x86_64_start_kernel(u32 magic, u32 info_phys)
{
	(void)magic;	/* checked by boot/entry.S */
	x86_kasan_early_init();	/* before any instrumented access */
	serial_init();
	gdt_init();
	idt_init();
	tsc_init();
	page_offset_base = X86_PAGE_OFFSET;
	parse_boot_info(info_phys);
	drop_identity_map();
	start_kernel();
}

static void reserve_boot_ranges(void)
{
	phys_addr_t image_start = (phys_addr_t)_boot_start;
	phys_addr_t image_end = (phys_addr_t)_end - KERNEL_VIRT_BASE;

	memblock_reserve_named(image_start, image_end - image_start,
			       "kernel image");
	if (mb2.total_size)
		memblock_reserve_named(mb2_phys, mb2.total_size,
				       "boot information");
	for (u32 i = 0; i < mb2.nr_modules; i++)
		memblock_reserve_named(mb2.modules[i].mod_start,
				       mb2.modules[i].mod_end -
				       mb2.modules[i].mod_start, "modules");
}

/*
 * The firmware's map (the EFI one under UEFI), read before memblock
 * knows any RAM. What boot left in memory is reserved right away, so
 * that memblock may grow its tables (allocating from the first GiB, the
 * boot map) while arch_memblock_setup() adds a fragmented map's RAM.
 */
void e820__memory_setup_firmware(struct e820_table *t)
{
	if (efi_mb2_memory_map(&mb2, t))
		panic("multiboot2: the boot loader gave no memory map");
	reserve_boot_ranges();
	memblock_set_current_limit(EARLY_MAP_SIZE);
	memblock_allow_resize();
}

void setup_arch(void)
{
	smp_reserve_trampoline();	/* low memory, before anyone else */
	memblock_set_current_limit(EARLY_MAP_SIZE);
	init_mem_mapping();
	/* The CPU bring-up and interrupts below need it: say so now. */
	if (apic_map())
		panic("APIC: no local APIC found or mapped");
	memblock_set_current_limit(memblock_end_of_DRAM());
	x86_kasan_populate_shadow();	/* before anyone poisons it */
	vmemmap = (struct page *)X86_VMEMMAP_START;
	acpi_boot_init();
	x86_numa_init();	/* the nodes of the MADT's CPUs */
	smp_boot_cpus();	/* before mm_core_init() sizes per-CPU data */
	init_cpu_to_node();
}

/* The ACPI RSDP the boot loader copied, or NULL (for SMP and ACPI). */
const void *x86_acpi_rsdp(u32 *len)
{
	if (len)
		*len = mb2.acpi_rsdp_len;
	return mb2.acpi_rsdp;
}

const char *arch_cmdline(void)
{
	return mb2.cmdline ? mb2.cmdline : "";
}

void arch_console_write(const char *s, size_t len)
{
	serial_write(s, len);
}

int arch_console_getc(void)
{
	return serial_getc();
}

__noreturn void arch_halt(void)
{
	for (;;) {
		__asm__ __volatile__("cli");
		cpu_halt();
	}
}

/* An empty IDT turns the breakpoint into #GP, #DF, then a triple fault. */
__noreturn void arch_emergency_restart(void)
{
	struct { u16 limit; u64 base; } __packed empty = { 0, 0 };

	__asm__ __volatile__("cli; lidt %0; int3" : : "m"(empty));
	arch_halt();
}

__noreturn void arch_exit(enum arch_exit_status status)
{
	outb(QEMU_EXIT_PORT, status == ARCH_EXIT_SUCCESS ? QEMU_EXIT_SUCCESS :
							  QEMU_EXIT_FAILURE);
	/* Not under QEMU (or no exit device): stop here. */
	arch_halt();
}

/*
 * At every stack KASAN saves (the walk asks once a stack): not
 * instrumented, as the walk itself, and the IST stacks are looked at
 * only for an address off the task stack.
 */
__no_sanitize_address bool arch_stack_bounds(unsigned long addr,
					     unsigned long *lo,
					     unsigned long *hi)
{
	unsigned int cpu = arch_cpu_id();
	unsigned long ist;

	x86_cpu_stack(cpu, lo, hi);
	if (unlikely(!*hi)) {	/* before smp_boot_cpus() */
		*lo = (unsigned long)boot_stack;
		*hi = (unsigned long)boot_stack_top;
	}
	if (addr >= *lo && addr < *hi)
		return true;
	ist = (unsigned long)x86_ist_stacks(cpu);	/* an exception's */
	*lo = ist;
	*hi = ist + IST_NR * IST_STACK_SIZE;
	return addr >= *lo && addr < *hi;
}



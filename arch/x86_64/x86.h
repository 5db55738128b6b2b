/* SPDX-License-Identifier: GPL-2.0 */
/* Interfaces between the files of arch/x86_64 (not for kernel/ or mm/). */
#ifndef ARCH_X86_64_X86_H
#define ARCH_X86_64_X86_H

#include "kernel/types.h"

#define KERNEL_VIRT_BASE	0xffffffff80000000UL	/* linker.ld */
#define X86_PAGE_OFFSET		0xffff888000000000UL	/* direct map */
#define X86_VMEMMAP_START	0xffffea0000000000UL	/* mem_map */
#define EARLY_MAP_SIZE		SZ_1G	/* what boot/entry.S maps */

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

void gdt_init(void);
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

/* The stacks a frame-pointer walk may follow. */
extern char boot_stack[], boot_stack_top[];
extern char ist_stack[8192];

#endif /* ARCH_X86_64_X86_H */

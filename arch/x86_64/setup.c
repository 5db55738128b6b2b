// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64 bring-up and the arch interface (arch/arch.h) for the machine.
 *
 * boot/entry.S calls x86_64_start_kernel() in the higher half with the
 * multiboot2 magic and the physical address of the boot information. We
 * start the console first (so everything after can report), load our own
 * GDT/TSS and IDT, calibrate the clock, drop the identity mapping of low
 * memory (so NULL and other low pointers fault), find the command line,
 * and hand over to start_kernel().
 */
#include "arch/x86_64/x86.h"
#include "arch/x86_64/io.h"
#include "kernel/kernel.h"
#include "kernel/printk.h"
#include "kernel/string.h"
#include "arch/arch.h"

#define PAGE_OFFSET		0xffff888000000000UL
#define QEMU_EXIT_PORT		0xf4
#define QEMU_EXIT_SUCCESS	0x10	/* QEMU exits with (0x10 << 1) | 1 = 33 */
#define QEMU_EXIT_FAILURE	0x11	/* ... and 35 */
#define MB2_TAG_END		0
#define MB2_TAG_CMDLINE		1
#define MB2_INFO_MAX		(1UL << 20)
#define EARLY_MAP_SIZE		SZ_1G	/* what boot/entry.S maps */

struct mb2_tag {
	u32 type;
	u32 size;
};

extern u64 boot_pml4[512];

const char arch_name[] = "x86_64";
static const char *cmdline = "";

/*
 * Find the command line tag, checking every tag's size against the total
 * so a broken information block is reported instead of read past.
 */
static const char *mb2_find_cmdline(unsigned long info_phys)
{
	const u8 *info = (const u8 *)(PAGE_OFFSET + info_phys);
	u32 total, off;

	if (!info_phys || info_phys + 8 > EARLY_MAP_SIZE) {
		pr_err("multiboot2: boot information at %#lx is out of reach\n",
		       info_phys);
		return "";
	}
	total = *(const u32 *)info;
	if (total < 16 || total > MB2_INFO_MAX ||
	    info_phys + total > EARLY_MAP_SIZE) {
		pr_err("multiboot2: bad total_size %u\n", total);
		return "";
	}
	for (off = 8; off + sizeof(struct mb2_tag) <= total;
	     off = ALIGN(off + ((const struct mb2_tag *)(info + off))->size, 8)) {
		const struct mb2_tag *tag = (const void *)(info + off);

		if (tag->size < sizeof(*tag) || tag->size > total - off) {
			pr_err("multiboot2: tag type %u at offset %u has bad size %u\n",
			       tag->type, off, tag->size);
			return "";
		}
		if (tag->type == MB2_TAG_END)
			break;
		if (tag->type == MB2_TAG_CMDLINE) {
			const char *s = (const char *)(tag + 1);

			if (!memchr(s, 0, tag->size - sizeof(*tag))) {
				pr_err("multiboot2: command line is not terminated\n");
				return "";
			}
			return s;
		}
	}
	return "";
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
	serial_init();
	gdt_init();
	idt_init();
	tsc_init();
	cmdline = mb2_find_cmdline(info_phys);
	drop_identity_map();
	start_kernel();
}

void arch_console_write(const char *s, size_t len)
{
	serial_write(s, len);
}

int arch_console_getc(void)
{
	return serial_getc();
}

const char *arch_cmdline(void)
{
	return cmdline;
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

static bool within(unsigned long addr, size_t size, const char *lo,
		   const char *hi)
{
	return addr >= (unsigned long)lo && addr + size <= (unsigned long)hi &&
	       addr + size > addr;
}

bool arch_on_stack(unsigned long addr, size_t size)
{
	return within(addr, size, boot_stack, boot_stack_top) ||
	       within(addr, size, ist_stack, ist_stack + sizeof(ist_stack));
}

unsigned long arch_irq_save(void)
{
	unsigned long flags;

	__asm__ __volatile__("pushfq; popq %0; cli" : "=r"(flags) : : "memory");
	return flags;
}

void arch_irq_restore(unsigned long flags)
{
	__asm__ __volatile__("pushq %0; popfq" : : "r"(flags) : "memory", "cc");
}

void arch_cpu_relax(void)
{
	__asm__ __volatile__("pause");
}

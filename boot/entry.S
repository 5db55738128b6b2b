/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 32-bit entry from a multiboot2 loader, and the switch to long mode.
 *
 * GRUB enters _start in 32-bit protected mode, paging off, with the
 * multiboot2 magic in eax and the physical address of the boot
 * information in ebx. This code runs at its physical address (the .boot
 * section is linked 1:1) and:
 *   1. checks the magic and that the CPU has long mode, saying why on
 *      COM1 (and ending the QEMU run) if not;
 *   2. loads the early page tables below: the first 1 GiB mapped three
 *      times with 2 MiB pages, at 0 (to survive enabling paging), at
 *      PAGE_OFFSET (the direct map) and at -2 GiB (the kernel image);
 *   3. enables PAE, long mode (and NX when present), paging, loads a
 *      64-bit GDT and jumps to the 64-bit code, which moves to the higher
 *      half, sets the stack, clears .bss and calls x86_64_start_kernel().
 */
#define MB2_BOOTLOADER_MAGIC	0x36d76289
#define COM1			0x3f8
#define QEMU_EXIT_PORT		0xf4
#define MSR_EFER		0xc0000080
#define MSR_GS_BASE		0xc0000101
#define EFER_LME		(1 << 8)
#define EFER_NXE		(1 << 11)
#define CR0_PE			(1 << 0)
#define CR0_WP			(1 << 16)
#define CR0_PG			(1 << 31)
#define CR4_PAE			(1 << 5)
#define PTE_PRESENT		0x1
#define PTE_WRITE		0x2
#define PTE_HUGE		0x80
#define KERNEL_CS		0x08
#define KERNEL_DS		0x10

	.section .boot.text, "ax"
	.code32
	.globl _start
_start:
	cli
	cld
	movl	$boot_stack32_top, %esp
	movl	%eax, boot_mb2_magic
	movl	%ebx, boot_mb2_info

	cmpl	$MB2_BOOTLOADER_MAGIC, %eax
	jne	no_multiboot

	/* CPUID exists if the ID flag in EFLAGS can be toggled. */
	pushfl
	popl	%eax
	movl	%eax, %ecx
	xorl	$(1 << 21), %eax
	pushl	%eax
	popfl
	pushfl
	popl	%eax
	cmpl	%eax, %ecx
	je	no_long_mode

	movl	$0x80000000, %eax
	cpuid
	cmpl	$0x80000001, %eax
	jb	no_long_mode
	movl	$0x80000001, %eax
	cpuid
	testl	$(1 << 29), %edx		/* LM */
	jz	no_long_mode
	movl	%edx, %edi			/* keep NX (bit 20) for later */

	movl	%cr4, %eax
	orl	$CR4_PAE, %eax
	movl	%eax, %cr4

	movl	$boot_pml4, %eax
	movl	%eax, %cr3

	movl	$MSR_EFER, %ecx
	rdmsr
	orl	$EFER_LME, %eax
	testl	$(1 << 20), %edi
	jz	1f
	orl	$EFER_NXE, %eax
1:	wrmsr

	movl	%cr0, %eax
	orl	$(CR0_PG | CR0_PE | CR0_WP), %eax
	movl	%eax, %cr0

	lgdt	boot_gdt_desc
	ljmp	$KERNEL_CS, $start64

no_multiboot:
	movl	$msg_no_multiboot, %esi
	jmp	fail32
no_long_mode:
	movl	$msg_no_long_mode, %esi

/* Print the NUL-terminated string at esi on COM1, end the QEMU run, halt. */
fail32:
	movw	$(COM1 + 5), %dx		/* line status register */
2:	inb	%dx, %al
	testb	$0x20, %al			/* transmitter empty? */
	jz	2b
	movb	(%esi), %al
	testb	%al, %al
	jz	3f
	movw	$COM1, %dx
	outb	%al, %dx
	incl	%esi
	movw	$(COM1 + 5), %dx
	jmp	2b
3:	movb	$0x11, %al			/* failure, see arch/x86_64/setup.c */
	outb	%al, $QEMU_EXIT_PORT
4:	hlt
	jmp	4b

	.code64
start64:
	movw	$KERNEL_DS, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %ss
	xorw	%ax, %ax
	movw	%ax, %fs
	movw	%ax, %gs
	movabsq	$higher_half, %rax
	jmp	*%rax

	.section .boot.data, "aw"
msg_no_multiboot:
	.asciz	"boot: not started by a multiboot2 boot loader (bad magic in eax); halting\r\n"
msg_no_long_mode:
	.asciz	"boot: this CPU has no long mode (x86_64); cannot boot, halting\r\n"

	.globl boot_mb2_magic, boot_mb2_info
	.balign 8
boot_mb2_magic:	.long 0
boot_mb2_info:	.long 0

	.balign 8
boot_gdt:
	.quad	0
	.quad	0x00af9a000000ffff		/* 64-bit code */
	.quad	0x00cf92000000ffff		/* data */
boot_gdt_end:
boot_gdt_desc:
	.short	boot_gdt_end - boot_gdt - 1
	.long	boot_gdt

	/* Early page tables: three views of the first GiB, see above. */
	.balign 4096
	.globl boot_pml4
boot_pml4:
	.quad	boot_pdpt_low + (PTE_PRESENT | PTE_WRITE)	/* 0 */
	.fill	272, 8, 0
	.quad	boot_pdpt_low + (PTE_PRESENT | PTE_WRITE)	/* 273: PAGE_OFFSET */
	.fill	237, 8, 0
	.quad	boot_pdpt_high + (PTE_PRESENT | PTE_WRITE)	/* 511: -512 GiB */
boot_pdpt_low:
	.quad	boot_pd + (PTE_PRESENT | PTE_WRITE)
	.fill	511, 8, 0
boot_pdpt_high:
	.fill	510, 8, 0
	.quad	boot_pd + (PTE_PRESENT | PTE_WRITE)		/* 510: -2 GiB */
	.quad	0
boot_pd:
	.set	i, 0
	.rept	512
	.quad	(i << 21) + (PTE_PRESENT | PTE_WRITE | PTE_HUGE)
	.set	i, i + 1
	.endr

	.balign 16
	.fill	1024, 1, 0
boot_stack32_top:

	.text
higher_half:
	movabsq	$boot_stack_top, %rsp
	xorl	%ebp, %ebp
	/* Clear .bss (GRUB zero-fills it too; do not depend on that). */
	movabsq	$__bss_start, %rdi
	movabsq	$__bss_stop, %rcx
	subq	%rdi, %rcx
	xorl	%eax, %eax
	rep stosb
	/* The boot CPU's per-CPU area (CPU 0) for arch_cpu_id(), before C. */
	movl	$MSR_GS_BASE, %ecx
	movabsq	$x86_percpu, %rax
	movq	%rax, %rdx
	shrq	$32, %rdx
	wrmsr
	movl	boot_mb2_magic, %edi
	movl	boot_mb2_info, %esi
	call	x86_64_start_kernel
5:	cli
	hlt
	jmp	5b

	.section .bss
	.balign 16
	.globl boot_stack, boot_stack_top
boot_stack:
	.skip	16384
boot_stack_top:

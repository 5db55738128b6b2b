/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The application processors' way from reset to C (smpboot.c).
 *
 * trampoline_start .. trampoline_end is a blob that smpboot.c copies to
 * a page below 1 MiB (reserved from memblock at boot); the STARTUP IPI
 * starts an AP there in real mode with CS = page >> 4 (so IP = 0). The
 * blob is position independent: it finds its base from CS and patches
 * its own GDT pointer and far jumps. Its way:
 *
 *   16-bit: load the blob's GDT, set CR0.PE, far jump to 32-bit
 *   32-bit: CR4.PAE, CR3 = tr_cr3 (the boot page tables of boot/entry.S,
 *           which still map the first GiB 1:1, at PAGE_OFFSET and at
 *           -2 GiB), EFER = tr_efer (LME, NXE as the boot CPU), CR0.PG,
 *           far jump to 64-bit
 *   64-bit: still at the low address; jump to secondary_startup_64 in
 *           the kernel image (higher half)
 *
 * secondary_startup_64 switches to the kernel's page tables, takes the
 * stack and GS base smp_boot_cpus() left in smp_boot_params for this AP
 * and calls start_secondary(), which never returns. The boot CPU starts
 * one AP at a time, so one set of parameters serves them all.
 */
#define MSR_EFER	0xc0000080
#define MSR_GS_BASE	0xc0000101
#define CR0_PE		(1 << 0)
#define CR0_WP		(1 << 16)
#define CR0_PG		(1 << 31)
#define CR4_PAE		(1 << 5)
#define TR_CS32		0x08
#define TR_DS32		0x10
#define TR_CS64		0x18

#define OFF(sym)	((sym) - trampoline_start)

	.section .rodata
	.balign 16
	.globl trampoline_start, trampoline_end
	.globl tr_cr3, tr_efer
	.code16
trampoline_start:
	cli
	cld
	movw	%cs, %ax
	movw	%ax, %ds
	xorl	%ebx, %ebx
	movw	%ax, %bx
	shll	$4, %ebx			/* ebx: the blob's physical base */

	leal	OFF(tr_gdt)(%ebx), %eax
	movl	%eax, OFF(tr_gdt_desc) + 2
	leal	OFF(tr_start32)(%ebx), %eax
	movl	%eax, OFF(tr_jmp32)
	leal	OFF(tr_start64)(%ebx), %eax
	movl	%eax, OFF(tr_jmp64)

	lgdtl	OFF(tr_gdt_desc)
	movl	%cr0, %eax
	orl	$CR0_PE, %eax
	movl	%eax, %cr0
	ljmpl	*OFF(tr_jmp32)

	.code32
tr_start32:
	movw	$TR_DS32, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %ss

	movl	%cr4, %eax
	orl	$CR4_PAE, %eax
	movl	%eax, %cr4
	movl	OFF(tr_cr3)(%ebx), %eax
	movl	%eax, %cr3
	movl	$MSR_EFER, %ecx
	movl	OFF(tr_efer)(%ebx), %eax
	movl	OFF(tr_efer) + 4(%ebx), %edx
	wrmsr
	movl	%cr0, %eax
	orl	$(CR0_PG | CR0_WP), %eax
	movl	%eax, %cr0
	ljmpl	*OFF(tr_jmp64)(%ebx)

	.code64
tr_start64:
	movq	OFF(tr_entry)(%rbx), %rax
	jmp	*%rax

	.balign 8
tr_gdt:
	.quad	0
	.quad	0x00cf9a000000ffff		/* 0x08: 32-bit code */
	.quad	0x00cf92000000ffff		/* 0x10: data */
	.quad	0x00af9a000000ffff		/* 0x18: 64-bit code */
tr_gdt_end:
tr_gdt_desc:
	.short	tr_gdt_end - tr_gdt - 1
	.long	0				/* patched: base of tr_gdt */
	.balign 4
tr_jmp32:
	.long	0				/* patched */
	.short	TR_CS32
	.balign 4
tr_jmp64:
	.long	0				/* patched */
	.short	TR_CS64
	.balign 8
tr_entry:
	.quad	secondary_startup_64
tr_cr3:
	.quad	0				/* set by smpboot.c */
tr_efer:
	.quad	0				/* set by smpboot.c */
trampoline_end:

	.text
	.globl secondary_startup_64
secondary_startup_64:
	movq	smp_boot_params + 0(%rip), %rax	/* cr3 */
	movq	%rax, %cr3
	movq	smp_boot_params + 8(%rip), %rsp	/* stack top */
	movl	$MSR_GS_BASE, %ecx
	movl	smp_boot_params + 16(%rip), %eax	/* per-CPU area */
	movl	smp_boot_params + 20(%rip), %edx
	wrmsr
	xorl	%ebp, %ebp
	call	start_secondary
1:	cli
	hlt
	jmp	1b

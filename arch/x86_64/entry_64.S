/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exception and interrupt entry stubs. Exceptions: vectors 0-31. Each stub makes the stack look
 * the same whether or not the CPU pushed an error code (it pushes 0 when
 * not), pushes its vector number, then the common code saves every
 * general register to form a struct pt_regs (arch/x86_64/x86.h) and calls
 * do_exception(regs). If that returns, the registers are restored and the
 * interrupted code resumes.
 */
	.text

.macro EXC_NOERR vec
	.globl exc_stub_\vec
exc_stub_\vec:
	pushq	$0
	pushq	$\vec
	jmp	exception_common
.endm

.macro EXC_ERR vec
	.globl exc_stub_\vec
exc_stub_\vec:
	pushq	$\vec
	jmp	exception_common
.endm

EXC_NOERR 0
EXC_NOERR 1
EXC_NOERR 2
EXC_NOERR 3
EXC_NOERR 4
EXC_NOERR 5
EXC_NOERR 6
EXC_NOERR 7
EXC_ERR   8
EXC_NOERR 9
EXC_ERR   10
EXC_ERR   11
EXC_ERR   12
EXC_ERR   13
EXC_ERR   14
EXC_NOERR 15
EXC_NOERR 16
EXC_ERR   17
EXC_NOERR 18
EXC_NOERR 19
EXC_NOERR 20
EXC_ERR   21
EXC_NOERR 22
EXC_NOERR 23
EXC_NOERR 24
EXC_NOERR 25
EXC_NOERR 26
EXC_NOERR 27
EXC_NOERR 28
EXC_ERR   29
EXC_ERR   30
EXC_NOERR 31

.macro SAVE_REGS
	pushq	%rax
	pushq	%rbx
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%rbp
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	cld
.endm

.macro RESTORE_REGS_IRET
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rbp
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%rbx
	popq	%rax
	addq	$16, %rsp		/* vector and error code */
	iretq
.endm

exception_common:
	SAVE_REGS
	movq	%rsp, %rdi
	call	do_exception
	RESTORE_REGS_IRET

/*
 * External interrupts, vectors 0x20-0xff: one 16-byte stub per vector
 * from irq_entries_start (the IDT points vector v at
 * irq_entries_start + (v - 0x20) * IRQ_STUB_SIZE), each pushing a zero
 * error code and its vector like the exception stubs, so do_IRQ() gets
 * the same struct pt_regs. The gate clears IF; iretq sets it back.
 */
	.balign 16
	.globl irq_entries_start
irq_entries_start:
	vector = 0x20
	.rept 256 - 0x20
	.balign 16
	pushq	$0
	pushq	$vector
	jmp	irq_common
	vector = vector + 1
	.endr
	.balign 16
	.globl irq_entries_end
irq_entries_end:

irq_common:
	SAVE_REGS
	movq	%rsp, %rdi
	call	do_IRQ
	RESTORE_REGS_IRET

/*
 * __probe_kernel_access(addr, kind, val), for arch_probe_kernel_access()
 * (mm.c): one read of a byte, one store of val (a plain store, so that
 * the fault says "write" however the CPU does a read-modify-write), or a
 * call, at addr. If the access faults, do_exception() reports it and
 * resumes at probe_fixup, which returns -EFAULT (for the call, after
 * dropping its return address).
 */
	.globl __probe_kernel_access, probe_read_insn, probe_write_insn
	.globl probe_exec_ret, probe_fixup
__probe_kernel_access:
	xorl	%eax, %eax
	cmpl	$1, %esi
	je	1f
	ja	2f
probe_read_insn:
	movb	(%rdi), %cl
	ret
1:
probe_write_insn:
	movb	%dl, (%rdi)
	ret
2:
	call	*%rdi
probe_exec_ret:
	xorl	%eax, %eax
	ret
probe_fixup:
	movl	$-14, %eax		/* -EFAULT */
	ret

	.section .rodata
	.balign 8
	.globl exception_stubs
exception_stubs:
	.irp vec, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.quad	exc_stub_\vec
	.endr

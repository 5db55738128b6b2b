/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The multiboot2 header (multiboot2 spec 3.1). It must lie 8-byte aligned
 * in the first 32 KiB of the file: linker.ld puts .multiboot first.
 * Only the mandatory end tag: GRUB loads the ELF segments at their load
 * addresses and jumps to the (physical) ELF entry point, _start.
 */
#define MB2_HEADER_MAGIC	0xe85250d6
#define MB2_ARCH_I386		0

	.section .multiboot, "a"
	.balign 8
mb2_header:
	.long	MB2_HEADER_MAGIC
	.long	MB2_ARCH_I386
	.long	mb2_header_end - mb2_header
	.long	0x100000000 - (MB2_HEADER_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))

	/* end tag: type 0, flags 0, size 8 */
	.balign 8
	.short	0
	.short	0
	.long	8
mb2_header_end:

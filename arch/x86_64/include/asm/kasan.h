/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The KASAN shadow operations for x86_64 (arch/arch.h).
 *
 * Built with KASAN=1 (the Makefile defines CONFIG_KASAN and compiles the
 * kernel with gcc's -fsanitize=kernel-address), the shadow is generic
 * KASAN's at Linux's KASAN_SHADOW_OFFSET: one byte per 8-byte granule at
 * (addr >> 3) + KASAN_SHADOW_OFFSET, 0 for a valid granule, 1..7 for one
 * whose first k bytes are valid, a negative value (the KASAN_* poison
 * values of mm/kasan.h) for an invalid one. arch/x86_64/kasan.c maps it
 * and holds the compiler's __asan_* checks; the operations below write
 * and read it there.
 *
 * Without KASAN=1 every operation is an empty inline and
 * arch_kasan_enabled() a constant false, so mm/kasan.h's hooks compile
 * away. This header, arch/x86_64/kasan.c and the Makefile are the only
 * places that tell the two builds apart.
 */
#ifndef ASM_X86_64_KASAN_H
#define ASM_X86_64_KASAN_H

#include "kernel/types.h"

struct pt_regs;

#ifdef CONFIG_KASAN
#define KASAN_SHADOW_OFFSET	0xdffffc0000000000UL
#define KASAN_SHADOW_SCALE_SHIFT	3
/* The shadow of the kernel half (0xffff800000000000 up): 16 TiB. */
#define KASAN_SHADOW_START	0xffffec0000000000UL
#define KASAN_SHADOW_END	0xfffffc0000000000UL

void x86_kasan_early_init(void);
void kasan_map_early_shadow(u64 *pgd);
void x86_kasan_populate_shadow(void);
void x86_kasan_gp_hint(const struct pt_regs *regs);
void x86_kasan_init(void);
void x86_kasan_poison(const void *addr, size_t size, u8 value);
void x86_kasan_unpoison(const void *addr, size_t size);
const void *x86_kasan_first_bad(const void *addr, size_t size);
void x86_kasan_report(unsigned long addr, size_t size, bool is_write,
		      unsigned long ip);
void x86_kasan_expect_reports(bool on);
unsigned long x86_kasan_shadow_pages(void);
void x86_kasan_print_shadow(unsigned long addr);

static inline bool arch_kasan_enabled(void)
{
	return true;
}

static inline void arch_kasan_init(void)
{
	x86_kasan_init();
}

static inline void arch_kasan_poison(const void *addr, size_t size, u8 value)
{
	x86_kasan_poison(addr, size, value);
}

static inline void arch_kasan_unpoison(const void *addr, size_t size)
{
	x86_kasan_unpoison(addr, size);
}

static inline const void *arch_kasan_first_bad(const void *addr, size_t size)
{
	return x86_kasan_first_bad(addr, size);
}

static inline void arch_kasan_print_shadow(const void *addr)
{
	x86_kasan_print_shadow((unsigned long)addr);
}

static inline unsigned long arch_kasan_shadow_pages(void)
{
	return x86_kasan_shadow_pages();
}

static inline void arch_kasan_expect_reports(bool on)
{
	x86_kasan_expect_reports(on);
}

static inline void arch_kasan_report(const void *addr, size_t size,
				     bool is_write, unsigned long ip)
{
	x86_kasan_report((unsigned long)addr, size, is_write, ip);
}
#else
/*
 * The arch's hooks (setup.c, mm.c, traps.c): the shadow's early map,
 * then its pages; what a #GP may have been.
 */
static inline void x86_kasan_early_init(void)
{
}

static inline void kasan_map_early_shadow(u64 *pgd)
{
}

static inline void x86_kasan_populate_shadow(void)
{
}

static inline void x86_kasan_gp_hint(const struct pt_regs *regs)
{
}

#include "arch/kasan_none.h"
#endif

#endif /* ASM_X86_64_KASAN_H */

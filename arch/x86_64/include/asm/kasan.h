/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The KASAN shadow operations for x86_64 (arch/arch.h): none yet. The
 * compiler-instrumented backend (shadow at KASAN_SHADOW_OFFSET, gcc's
 * -fsanitize=kernel-address) is still to come; until then every
 * operation is an empty inline and arch_kasan_enabled() a constant
 * false, so mm/kasan.h's hooks compile away.
 */
#ifndef ASM_X86_64_KASAN_H
#define ASM_X86_64_KASAN_H

static inline bool arch_kasan_enabled(void)
{
	return false;
}

static inline void arch_kasan_init(void)
{
}

static inline void arch_kasan_poison(const void *addr, size_t size, u8 value)
{
}

static inline void arch_kasan_unpoison(const void *addr, size_t size)
{
}

static inline const void *arch_kasan_first_bad(const void *addr, size_t size)
{
	return NULL;
}

static inline void arch_kasan_expect_reports(bool on)
{
}

static inline void arch_kasan_report(const void *addr, size_t size,
				     bool is_write, unsigned long ip)
{
}

#endif /* ASM_X86_64_KASAN_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The KASAN shadow operations of a build without a backend (arch/arch.h):
 * every operation an empty inline and arch_kasan_enabled() a constant
 * false, so that mm/kasan.h's hooks compile away. Each arch's
 * <asm/kasan.h> includes it where it has no shadow (x86_64 without
 * KASAN=1, the host without AddressSanitizer).
 */
#ifndef ARCH_KASAN_NONE_H
#define ARCH_KASAN_NONE_H

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

static inline void arch_kasan_print_shadow(const void *addr)
{
}

static inline unsigned long arch_kasan_shadow_pages(void)
{
	return 0;
}

static inline void arch_kasan_expect_reports(bool on)
{
}

static inline void arch_kasan_report(const void *addr, size_t size,
				     bool is_write, unsigned long ip)
{
}

#endif /* ARCH_KASAN_NONE_H */

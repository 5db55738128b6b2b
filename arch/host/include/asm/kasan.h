/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The KASAN shadow operations for the host build (arch/arch.h): the
 * shadow is AddressSanitizer's own, driven through its manual poisoning
 * interface (<sanitizer/asan_interface.h>). ASan has no shadow values
 * of ours: every poisoned byte reads 0xf7 ("poisoned by user"), and the
 * generic report (mm/kasan.c) finds what the bytes were from the
 * allocator's own state. Its granule is 8 bytes, as generic KASAN's:
 * a granule whose first k bytes are valid and the rest poisoned is one
 * shadow byte of value k, so unpoisoning 13 bytes leaves bytes 13..15
 * poisoned; a poisoned prefix followed by valid bytes in one granule
 * cannot be written, so poisoned ranges start on a granule.
 *
 * A build without ASan (the benchmarks, the malloc shim) has no backend:
 * the same empty inlines as x86_64, and the hooks compile away. This is
 * the one place that tells the two apart.
 */
#ifndef ASM_HOST_KASAN_H
#define ASM_HOST_KASAN_H

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HOST_KASAN	1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define HOST_KASAN	1
#endif

#ifdef HOST_KASAN
#include <sanitizer/asan_interface.h>

void host_kasan_init(void);
void host_kasan_expect_reports(bool on);

static inline bool arch_kasan_enabled(void)
{
	return true;
}

static inline void arch_kasan_init(void)
{
	host_kasan_init();
}

static inline void arch_kasan_poison(const void *addr, size_t size, u8 value)
{
	__asan_poison_memory_region(addr, size);
}

static inline void arch_kasan_unpoison(const void *addr, size_t size)
{
	__asan_unpoison_memory_region(addr, size);
}

static inline const void *arch_kasan_first_bad(const void *addr, size_t size)
{
	return __asan_region_is_poisoned((void *)addr, size);
}

static inline void arch_kasan_print_shadow(const void *addr)
{
	/* ASan prints its own shadow bytes. */
}

static inline unsigned long arch_kasan_shadow_pages(void)
{
	return 0;	/* ASan's shadow is its own */
}

static inline void arch_kasan_expect_reports(bool on)
{
	host_kasan_expect_reports(on);
}

static inline void arch_kasan_report(const void *addr, size_t size,
				     bool is_write, unsigned long ip)
{
	__asan_report_error((void *)ip, __builtin_frame_address(0),
			    __builtin_frame_address(0), (void *)addr,
			    is_write, size);
}
#else
#include "arch/kasan_none.h"
#endif

#endif /* ASM_HOST_KASAN_H */

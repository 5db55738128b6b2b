/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where x86_64 puts KFENCE's pool (mm/kfence.h): the last
 * KFENCE_POOL_SIZE bytes of the address space, above the kernel image
 * and mapped by nothing else (Linux leaves the top 2 MiB a hole).
 *
 * There, the pool ends where the address space wraps to NULL, so NULL,
 * ZERO_SIZE_PTR and the pool make one range modulo 2^64: the test kfree
 * and kmem_cache_free make for NULL anyway also catches a KFENCE object,
 * and the pool costs their fast paths nothing (mm/kfence.h,
 * zero_or_null_or_kfence()). The pool's shadow under KASAN lies in the
 * early zero shadow, which reads "valid", as KASAN leaves KFENCE's
 * objects alone.
 */
#ifndef ASM_X86_64_KFENCE_H
#define ASM_X86_64_KFENCE_H

#define KFENCE_POOL_START	(0UL - KFENCE_POOL_SIZE)

#endif

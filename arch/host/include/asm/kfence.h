/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the host puts KFENCE's pool (mm/kfence.h): a fixed mapping at
 * 1 GiB of the process (arch_kfence_init_pool() maps it there or KFENCE
 * stays off). A user-space process cannot map the top of the address
 * space as x86_64 does, so the pool lies low instead, and everything
 * below its end (NULL, ZERO_SIZE_PTR, unmapped pages, the pool) is one
 * range from 0: the test kfree and kmem_cache_free make for NULL anyway
 * also catches a KFENCE object. ASan keeps no memory of its own there
 * (its low shadow starts at 0x7fff8000), nor does valgrind.
 */
#ifndef ASM_HOST_KFENCE_H
#define ASM_HOST_KFENCE_H

#define KFENCE_POOL_START	0x40000000UL

#endif

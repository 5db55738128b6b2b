/* SPDX-License-Identifier: GPL-2.0 */
/*
 * glibc's own malloc entry points, which a preloaded library that
 * forwards to glibc calls (libempty-malloc.so, libcount-malloc.so).
 */
#ifndef BENCH_SHIM_LIBC_MALLOC_H
#define BENCH_SHIM_LIBC_MALLOC_H

#include <stddef.h>

#define EXPORT __attribute__((visibility("default")))

void *__libc_malloc(size_t size);
void __libc_free(void *p);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);
void *__libc_memalign(size_t align, size_t size);
void *__libc_valloc(size_t size);
void *__libc_pvalloc(size_t size);

#endif /* BENCH_SHIM_LIBC_MALLOC_H */

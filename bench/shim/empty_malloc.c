// SPDX-License-Identifier: GPL-2.0
/*
 * libempty-malloc.so: the interposition of libcram-malloc.so with nothing
 * behind it. Every call goes straight on to glibc's own entry points
 * (__libc_malloc and friends), so a program preloading this library
 * measures what an LD_PRELOAD'ed malloc costs by itself: the PLT hop into
 * another object and the exported wrappers. malloc_usable_size is not
 * wrapped: glibc's own works on glibc's blocks.
 */
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>

#include "libc_malloc.h"

EXPORT void *malloc(size_t size)
{
	return __libc_malloc(size);
}

EXPORT void free(void *p)
{
	__libc_free(p);
}

EXPORT void *calloc(size_t n, size_t size)
{
	return __libc_calloc(n, size);
}

EXPORT void *realloc(void *p, size_t size)
{
	return __libc_realloc(p, size);
}

EXPORT int posix_memalign(void **out, size_t align, size_t size)
{
	void *p;

	if (align < sizeof(void *) || (align & (align - 1)))
		return EINVAL;
	p = __libc_memalign(align, size);
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}

EXPORT void *aligned_alloc(size_t align, size_t size)
{
	return __libc_memalign(align, size);
}

EXPORT void *memalign(size_t align, size_t size)
{
	return __libc_memalign(align, size);
}

EXPORT void *valloc(size_t size)
{
	return __libc_valloc(size);
}

EXPORT void *pvalloc(size_t size)
{
	return __libc_pvalloc(size);
}

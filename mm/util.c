// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers over kmalloc (Linux's util.c): copies of memory and strings,
 * strings that stay where they are when they are read-only, bulk kfree,
 * and what kmalloc would really give for a size. Declared in mm/util.h,
 * which mm/slab.h includes.
 *
 * Every length is checked before it is used: len + 1 for a terminating
 * NUL that would wrap gives NULL and allocates nothing, as does a NULL
 * source. kstrdup_const() asks the arch whether a string is in the
 * kernel's read-only data (arch_is_kernel_rodata()); kfree_const() asks
 * the same question, so only copies are freed.
 *
 * kvmalloc and its kin pick kmalloc or vmalloc (mm/vmalloc.c) by size
 * and by what kmalloc can give; kvfree() tells them apart by address.
 */
#include "arch/arch.h"
#include "kernel/bug.h"
#include "lib/string.h"
#include "mm/slab_internal.h"
#include "mm/vmalloc.h"

void *kmemdup(const void *src, size_t len, gfp_t gfp)
{
	void *p;

	if (unlikely(!src))
		return NULL;
	p = kmalloc(len, gfp);
	if (p)
		memcpy(p, src, len);
	return p;
}

char *kmemdup_nul(const char *s, size_t len, gfp_t gfp)
{
	size_t bytes;
	char *buf;

	if (unlikely(!s || check_add_overflow(len, (size_t)1, &bytes)))
		return NULL;
	buf = kmalloc(bytes, gfp);
	if (buf) {
		memcpy(buf, s, len);
		buf[len] = '\0';
	}
	return buf;
}

char *kstrdup(const char *s, gfp_t gfp)
{
	if (unlikely(!s))
		return NULL;
	return kmemdup_nul(s, strlen(s), gfp);
}

char *kstrndup(const char *s, size_t max, gfp_t gfp)
{
	if (unlikely(!s))
		return NULL;
	return kmemdup_nul(s, strnlen(s, max), gfp);
}

const char *kstrdup_const(const char *s, gfp_t gfp)
{
	if (s && arch_is_kernel_rodata((unsigned long)s))
		return s;
	return kstrdup(s, gfp);
}

void kfree_const(const void *x)
{
	if (!arch_is_kernel_rodata((unsigned long)x))
		kfree(x);
}

void kfree_bulk(size_t nr, void **p)
{
	for (size_t i = 0; i < nr; i++)
		kfree(p[i]);
}

size_t kmalloc_size_roundup(size_t size)
{
	if (size && size <= KMALLOC_MAX_CACHE_SIZE)
		return kmalloc_slab(size, 0)->object_size;
	/* Large kmalloc: a compound page of 2^order pages (mm/slab.c). */
	if (size && size <= KMALLOC_MAX_SIZE)
		return PAGE_SIZE << get_order(size);
	/* 0: kmalloc gives ZERO_SIZE_PTR; larger: kmalloc fails. */
	return size;
}

void *kvmalloc_node(size_t size, gfp_t flags, int node)
{
	gfp_t kmalloc_flags = flags;
	void *p;

	/* vmalloc may sleep and flush other CPUs: only GFP_KERNEL falls back. */
	if ((flags & GFP_KERNEL) != GFP_KERNEL)
		return kmalloc_node(size, flags, node);
	if (size <= KMALLOC_MAX_SIZE) {
		if (size > PAGE_SIZE)
			kmalloc_flags |= __GFP_NOWARN | __GFP_NORETRY;
		p = kmalloc_node(size, kmalloc_flags, node);
		if (p || size <= PAGE_SIZE)
			return p;
	}
	return __vmalloc_node(size, 1, flags, node, __builtin_return_address(0));
}

void kvfree(const void *addr)
{
	if (is_vmalloc_addr(addr))
		vfree(addr);
	else
		kfree(addr);
}

void *kvrealloc(const void *p, size_t oldsize, size_t newsize, gfp_t flags)
{
	void *newp;

	if (oldsize >= newsize)
		return (void *)p;
	newp = kvmalloc(newsize, flags);
	if (!newp)
		return NULL;
	memcpy(newp, p, oldsize);
	kvfree(p);
	return newp;
}

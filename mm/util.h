/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers over kmalloc that ported code expects (Linux keeps them in
 * <linux/slab.h> and <linux/string.h>, implemented in mm/util.c).
 * mm/slab.h includes this header: a caller includes mm/slab.h.
 *
 * Every size a helper computes is checked: a count times a size, or a
 * length plus its terminating NUL, that overflows gives NULL and
 * allocates nothing. NULL sources give NULL.
 */
#ifndef MM_UTIL_H
#define MM_UTIL_H

#include "kernel/overflow.h"
#include "mm/slab.h"

/* A copy of len bytes at src; NULL on failure. len 0 gives ZERO_SIZE_PTR. */
void *kmemdup(const void *src, size_t len, gfp_t gfp) __alloc_size(2);
/* len bytes of s and a NUL after them (s need not be terminated). */
char *kmemdup_nul(const char *s, size_t len, gfp_t gfp) __malloc;
/* A copy of the string s; NULL if s is NULL or on failure. */
char *kstrdup(const char *s, gfp_t gfp) __malloc;
/* At most max bytes of s, always NUL-terminated. */
char *kstrndup(const char *s, size_t max, gfp_t gfp) __malloc;
/*
 * kstrdup, except that a string in the kernel's read-only data (a
 * literal, a const table) is returned itself: it never changes and is
 * never freed. Free the result with kfree_const(), which frees only
 * what was copied.
 */
const char *kstrdup_const(const char *s, gfp_t gfp);
void kfree_const(const void *x);

/*
 * kfree each of the nr pointers in p (NULL and ZERO_SIZE_PTR are
 * skipped, as by kfree).
 */
void kfree_bulk(size_t nr, void **p);

/*
 * The bytes kmalloc(size) really gives, as ksize() of it would say:
 * the size class up to KMALLOC_MAX_CACHE_SIZE, whole pages (a power of
 * two of them) above. 0 gives 0 (kmalloc(0) is ZERO_SIZE_PTR); a size
 * kmalloc cannot give (above KMALLOC_MAX_SIZE, SIZE_MAX) is returned
 * as it is, as in Linux.
 */
size_t kmalloc_size_roundup(size_t size);

/*
 * new_n elements of new_size bytes in p, resized as by krealloc; NULL
 * (p untouched) if the product overflows or on failure.
 */
static inline __realloc_size(2, 3) void *krealloc_array(void *p,
							size_t new_n,
							size_t new_size,
							gfp_t flags)
{
	size_t bytes;

	if (unlikely(check_mul_overflow(new_n, new_size, &bytes)))
		return NULL;
	return krealloc(p, bytes, flags);
}

static inline __alloc_size(1) void *kzalloc_node(size_t size, gfp_t flags,
						 int node)
{
	return kmalloc_node(size, flags | __GFP_ZERO, node);
}

/* n * size bytes on node; NULL if the product overflows. */
static inline __alloc_size(1, 2) void *kmalloc_array_node(size_t n,
							  size_t size,
							  gfp_t flags,
							  int node)
{
	size_t bytes;

	if (unlikely(check_mul_overflow(n, size, &bytes)))
		return NULL;
	return kmalloc_node(bytes, flags, node);
}

static inline __alloc_size(1, 2) void *kcalloc_node(size_t n, size_t size,
						    gfp_t flags, int node)
{
	return kmalloc_array_node(n, size, flags | __GFP_ZERO, node);
}

/*
 * kvmalloc: kmalloc first, vmalloc if that fails (Linux's rule). Sizes
 * above KMALLOC_MAX_SIZE go to vmalloc at once; above a page, the
 * kmalloc try neither retries nor warns, as fragmented memory makes it
 * fail. kvfree() frees either kind; kvrealloc() copies oldsize bytes
 * into a new block when newsize is larger (else returns p).
 */
void *kvmalloc_node(size_t size, gfp_t flags, int node) __alloc_size(1);
void kvfree(const void *addr);
void *kvrealloc(const void *p, size_t oldsize, size_t newsize, gfp_t flags)
	__realloc_size(3);

static inline __alloc_size(1) void *kvmalloc(size_t size, gfp_t flags)
{
	return kvmalloc_node(size, flags, NUMA_NO_NODE);
}

static inline __alloc_size(1) void *kvzalloc(size_t size, gfp_t flags)
{
	return kvmalloc_node(size, flags | __GFP_ZERO, NUMA_NO_NODE);
}

static inline __alloc_size(1, 2) void *kvmalloc_array(size_t n, size_t size,
						      gfp_t flags)
{
	size_t bytes;

	if (check_mul_overflow(n, size, &bytes))
		return NULL;
	return kvmalloc(bytes, flags);
}

/*
 * A cache for struct s, named after it, with its size and alignment:
 *
 *	foo_cache = KMEM_CACHE(foo, SLAB_HWCACHE_ALIGN);
 */
#define KMEM_CACHE(__struct, __flags)					\
	kmem_cache_create(#__struct, sizeof(struct __struct),		\
			  __alignof__(struct __struct), (__flags), NULL)

#endif /* MM_UTIL_H */

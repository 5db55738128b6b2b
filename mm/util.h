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

/**
 * kmemdup() - copy memory into a new kmalloc() allocation
 * @src: the bytes to copy
 * @len: how many
 * @gfp: GFP flags, as for kmalloc()
 *
 * Context: as kmalloc().
 * Return: the copy; ZERO_SIZE_PTR for @len 0; NULL if @src is NULL or on
 * failure.
 */
void *kmemdup(const void *src, size_t len, gfp_t gfp) __alloc_size(2);
/**
 * kmemdup_nul() - copy bytes into a new string
 * @s: the bytes, which need not be NUL-terminated
 * @len: how many to copy
 * @gfp: GFP flags, as for kmalloc()
 *
 * Context: as kmalloc().
 * Return: @len bytes of @s and a NUL after them; NULL if @s is NULL,
 * @len + 1 overflows, or on failure.
 */
char *kmemdup_nul(const char *s, size_t len, gfp_t gfp) __malloc;
/**
 * kstrdup() - copy a string into a new kmalloc() allocation
 * @s: the string
 * @gfp: GFP flags, as for kmalloc()
 *
 * Context: as kmalloc().
 * Return: the copy; NULL if @s is NULL or on failure.
 */
char *kstrdup(const char *s, gfp_t gfp) __malloc;
/**
 * kstrndup() - copy at most some bytes of a string
 * @s: the string
 * @max: the most bytes to copy, the NUL left out
 * @gfp: GFP flags, as for kmalloc()
 *
 * Context: as kmalloc().
 * Return: the copy, always NUL-terminated; NULL if @s is NULL or on
 * failure.
 */
char *kstrndup(const char *s, size_t max, gfp_t gfp) __malloc;
/**
 * kstrdup_const() - copy a string unless it is read-only data
 * @s: the string
 * @gfp: GFP flags, as for kmalloc()
 *
 * A string in the kernel's read-only data (a literal, a const table)
 * never changes and is never freed, so it is returned itself. Free the
 * result with kfree_const().
 *
 * Context: as kmalloc().
 * Return: @s itself, or a copy as kstrdup() makes; NULL if @s is NULL
 * or on failure.
 */
const char *kstrdup_const(const char *s, gfp_t gfp);
/**
 * kfree_const() - free a string from kstrdup_const()
 * @x: the string; one in read-only data is left alone, NULL is ignored
 *
 * Context: as kfree().
 */
void kfree_const(const void *x);

/**
 * kfree_bulk() - kfree() each pointer of an array
 * @nr: the number of pointers
 * @p: the pointers; NULL and ZERO_SIZE_PTR are skipped, as by kfree()
 *
 * Context: as kfree().
 */
void kfree_bulk(size_t nr, void **p);

/**
 * kmalloc_size_roundup() - the bytes kmalloc() really gives for a size
 * @size: the size that would be asked for
 *
 * As ksize() of the allocation would say: the size class up to
 * KMALLOC_MAX_CACHE_SIZE, a power of two of whole pages above.
 *
 * Context: any context.
 * Return: the rounded size; 0 for 0; a size kmalloc() cannot give
 * (above KMALLOC_MAX_SIZE) unchanged.
 */
size_t kmalloc_size_roundup(size_t size);

/**
 * krealloc_array() - resize memory for an array
 * @p: the memory, from kmalloc() (or NULL)
 * @new_n: the new number of elements
 * @new_size: the size of one element
 * @flags: GFP flags, as for kmalloc()
 *
 * Context: as kmalloc().
 * Return: as krealloc() for @new_n * @new_size bytes; NULL (@p
 * untouched) if the product overflows.
 */
static inline void *krealloc_array(void *p, size_t new_n, size_t new_size,
				   gfp_t flags) __realloc_size(2, 3);
static inline void *krealloc_array(void *p, size_t new_n, size_t new_size,
				   gfp_t flags)
{
	size_t bytes;

	if (unlikely(check_mul_overflow(new_n, new_size, &bytes)))
		return NULL;
	return krealloc(p, bytes, flags);
}

/**
 * kzalloc_node() - allocate zeroed memory on a node
 * @size: bytes wanted
 * @flags: GFP flags, as for kmalloc(); __GFP_ZERO is added
 * @node: the node, or NUMA_NO_NODE, as for kmalloc_node()
 *
 * Context: as kmalloc().
 * Return: as kmalloc().
 */
static inline __alloc_size(1) void *kzalloc_node(size_t size, gfp_t flags,
						 int node)
{
	return kmalloc_node(size, flags | __GFP_ZERO, node);
}

/**
 * kmalloc_array_node() - allocate memory for an array on a node
 * @n: the number of elements
 * @size: the size of one element
 * @flags: GFP flags, as for kmalloc()
 * @node: the node, or NUMA_NO_NODE, as for kmalloc_node()
 *
 * Context: as kmalloc().
 * Return: as kmalloc_array().
 */
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

/**
 * kcalloc_node() - allocate a zeroed array on a node
 * @n: the number of elements
 * @size: the size of one element
 * @flags: GFP flags, as for kmalloc(); __GFP_ZERO is added
 * @node: the node, or NUMA_NO_NODE, as for kmalloc_node()
 *
 * Context: as kmalloc().
 * Return: as kmalloc_array().
 */
static inline __alloc_size(1, 2) void *kcalloc_node(size_t n, size_t size,
						    gfp_t flags, int node)
{
	return kmalloc_array_node(n, size, flags | __GFP_ZERO, node);
}

/**
 * kvmalloc_node() - kmalloc() memory, or vmalloc() it if that fails
 * @size: bytes wanted
 * @flags: GFP flags; only with all of GFP_KERNEL's bits may it fall
 *	back to vmalloc, else this is kmalloc_node() alone
 * @node: the node for kmalloc_node(), or NUMA_NO_NODE (vmalloc ignores
 *	it)
 *
 * Sizes above KMALLOC_MAX_SIZE go to vmalloc at once. Above a page the
 * kmalloc() try neither reclaims nor warns, since fragmented memory
 * makes it fail; up to a page there is no fallback. Free with kvfree().
 *
 * Context: with GFP_KERNEL as vmalloc(): interrupts on, not an interrupt
 * handler; with other flags as kmalloc().
 * Return: the memory, or NULL on failure.
 */
void *kvmalloc_node(size_t size, gfp_t flags, int node) __alloc_size(1);
/**
 * kvfree() - free memory from kvmalloc(), kmalloc() or vmalloc()
 * @addr: the memory; NULL is ignored
 *
 * Context: as kfree(); a vmalloc() area freed from an interrupt handler
 * or with interrupts off is queued, as vfree() does.
 */
void kvfree(const void *addr);
/**
 * kvrealloc() - grow memory from kvmalloc()
 * @p: the memory
 * @oldsize: its size: the bytes copied
 * @newsize: the size wanted
 * @flags: GFP flags, as for kvmalloc_node()
 *
 * Context: as kvmalloc_node().
 * Return: @p itself if @newsize is not larger than @oldsize; else a new
 * block holding @p's @oldsize bytes (@p is freed), or NULL on failure
 * (@p untouched).
 */
void *kvrealloc(const void *p, size_t oldsize, size_t newsize, gfp_t flags)
	__realloc_size(3);

/**
 * kvmalloc() - kvmalloc_node() on any node
 * @size: bytes wanted
 * @flags: GFP flags, as for kvmalloc_node()
 *
 * Context: as kvmalloc_node().
 * Return: the memory, or NULL on failure.
 */
static inline __alloc_size(1) void *kvmalloc(size_t size, gfp_t flags)
{
	return kvmalloc_node(size, flags, NUMA_NO_NODE);
}

/**
 * kvzalloc() - kvmalloc() zeroed memory
 * @size: bytes wanted
 * @flags: GFP flags, as for kvmalloc_node(); __GFP_ZERO is added
 *
 * Context: as kvmalloc_node().
 * Return: the memory, or NULL on failure.
 */
static inline __alloc_size(1) void *kvzalloc(size_t size, gfp_t flags)
{
	return kvmalloc_node(size, flags | __GFP_ZERO, NUMA_NO_NODE);
}

/**
 * kvmalloc_array() - kvmalloc() memory for an array
 * @n: the number of elements
 * @size: the size of one element
 * @flags: GFP flags, as for kvmalloc_node()
 *
 * Context: as kvmalloc_node().
 * Return: the memory; NULL if @n * @size overflows or on failure.
 */
static inline __alloc_size(1, 2) void *kvmalloc_array(size_t n, size_t size,
						      gfp_t flags)
{
	size_t bytes;

	if (unlikely(check_mul_overflow(n, size, &bytes)))
		return NULL;
	return kvmalloc(bytes, flags);
}

/**
 * KMEM_CACHE() - create a cache for a structure
 * @__struct: the structure's tag: the cache is named after it and gets
 *	its size and alignment
 * @__flags: SLAB_* flags, as for kmem_cache_create()
 *
 * For example ``foo_cache = KMEM_CACHE(foo, SLAB_HWCACHE_ALIGN);``.
 *
 * Context: as kmem_cache_create().
 * Return: the new cache, or NULL on failure.
 */
#define KMEM_CACHE(__struct, __flags)					\
	kmem_cache_create(#__struct, sizeof(struct __struct),		\
			  __alignof__(struct __struct), (__flags), NULL)

#endif /* MM_UTIL_H */

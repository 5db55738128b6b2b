// SPDX-License-Identifier: GPL-2.0
/*
 * libcount-malloc.so: glibc's malloc, counted. bench/real/check.py
 * preloads it into each real program of make bench-real to show that
 * the program's memory goes through malloc (and so through the
 * allocator a measurement preloads), and that the multi-threaded one
 * frees across threads.
 *
 * Each thread counts its own calls in a slot of its own (no atomics on
 * the counts). A thread that frees more blocks than it allocated freed
 * at least the difference for other threads: the sum of those
 * differences is a lower bound on frees across threads. At exit the
 * totals go to the file named by COUNT_MALLOC_OUT (not to the program's
 * own output, which check.py compares): "allocs A frees F cross C".
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

#include "libc_malloc.h"

#define MAX_THREADS	256

struct thread_counts {
	unsigned long allocs;
	unsigned long frees;
};

static struct thread_counts counts[MAX_THREADS];
static unsigned int nr_slots;	/* the last slot is shared by the rest */
static __thread struct thread_counts *mine;

static struct thread_counts *my_counts(void)
{
	if (!mine) {
		unsigned int slot = __atomic_fetch_add(&nr_slots, 1,
						       __ATOMIC_RELAXED);

		mine = &counts[slot < MAX_THREADS ? slot : MAX_THREADS - 1];
	}
	return mine;
}

static void *counted(void *p)
{
	if (p)
		__atomic_fetch_add(&my_counts()->allocs, 1, __ATOMIC_RELAXED);
	return p;
}

EXPORT void *malloc(size_t size)
{
	return counted(__libc_malloc(size));
}

EXPORT void free(void *p)
{
	if (p)
		__atomic_fetch_add(&my_counts()->frees, 1, __ATOMIC_RELAXED);
	__libc_free(p);
}

EXPORT void *calloc(size_t n, size_t size)
{
	return counted(__libc_calloc(n, size));
}

/* A move is a free and an allocation; a resize in place neither. */
EXPORT void *realloc(void *p, size_t size)
{
	void *q = __libc_realloc(p, size);

	if (!p)
		return counted(q);
	if (q && q != p) {
		counted(q);
		__atomic_fetch_add(&my_counts()->frees, 1, __ATOMIC_RELAXED);
	}
	return q;
}

EXPORT int posix_memalign(void **out, size_t align, size_t size)
{
	void *p;

	if (align < sizeof(void *) || (align & (align - 1)))
		return 22;	/* EINVAL */
	p = counted(__libc_memalign(align, size));
	if (!p)
		return 12;	/* ENOMEM */
	*out = p;
	return 0;
}

EXPORT void *aligned_alloc(size_t align, size_t size)
{
	return counted(__libc_memalign(align, size));
}

EXPORT void *memalign(size_t align, size_t size)
{
	return counted(__libc_memalign(align, size));
}

EXPORT void *valloc(size_t size)
{
	return counted(__libc_valloc(size));
}

EXPORT void *pvalloc(size_t size)
{
	return counted(__libc_pvalloc(size));
}

__attribute__((destructor)) static void count_malloc_report(void)
{
	const char *path = getenv("COUNT_MALLOC_OUT");
	unsigned long allocs = 0, frees = 0, cross = 0;
	unsigned int n = nr_slots < MAX_THREADS ? nr_slots : MAX_THREADS;
	FILE *f;

	for (unsigned int i = 0; i < n; i++) {
		unsigned long a = __atomic_load_n(&counts[i].allocs, __ATOMIC_RELAXED);
		unsigned long fr = __atomic_load_n(&counts[i].frees, __ATOMIC_RELAXED);

		allocs += a;
		frees += fr;
		cross += fr > a ? fr - a : 0;
	}
	if (!path)
		return;
	f = fopen(path, "a");
	if (!f)
		return;
	fprintf(f, "allocs %lu frees %lu cross %lu\n", allocs, frees, cross);
	fclose(f);
}

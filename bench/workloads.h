/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Allocator workloads, written once and compiled twice: into the kernel
 * against kmalloc/kfree (tests/bench_alloc.c) and into bench/peer.c
 * against malloc/free, which then runs under glibc, jemalloc, mimalloc
 * and tcmalloc. The includer defines:
 *
 *	BENCH_ALLOC(size)	allocate size bytes
 *	BENCH_FREE(ptr, size)	free them
 *	BENCH_SCRATCH(bytes)	memory for the workloads' own tables,
 *				taken once and kept
 *
 * Every allocation is touched (one byte written through a volatile
 * pointer) so neither side can skip it, and results go to bench_sink.
 */
#ifndef BENCH_WORKLOADS_H
#define BENCH_WORKLOADS_H

#define BATCH_OBJECTS	100000

static volatile unsigned long bench_sink;
static void **batch_objs;
static unsigned int *batch_sizes;
static unsigned int *batch_order;

static inline void bench_touch(void *p)
{
	*(volatile char *)p = 1;
}

/* xorshift64: the same sequence in every build. */
static inline unsigned long bench_rand(unsigned long *state)
{
	unsigned long x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

/* Allocate and free one object of size, iters times. */
static inline void wl_hot_pair(unsigned long iters, unsigned long size)
{
	for (unsigned long i = 0; i < iters; i++) {
		void *p = BENCH_ALLOC(size);

		bench_touch(p);
		BENCH_FREE(p, size);
	}
}

/*
 * 100,000 objects of random sizes 8..4096, then freed in random order
 * (shuffled) or in allocation order. Returns the number of operations.
 */
static inline unsigned long wl_batch(bool random_order)
{
	unsigned long seed = 0x9e3779b97f4a7c15UL;

	if (!batch_objs) {
		batch_objs = BENCH_SCRATCH(BATCH_OBJECTS * sizeof(void *));
		batch_sizes = BENCH_SCRATCH(BATCH_OBJECTS * sizeof(unsigned int));
		batch_order = BENCH_SCRATCH(BATCH_OBJECTS * sizeof(unsigned int));
		if (!batch_objs || !batch_sizes || !batch_order)
			return 0;
	}
	for (unsigned int i = 0; i < BATCH_OBJECTS; i++) {
		batch_sizes[i] = 8 + (unsigned int)(bench_rand(&seed) % 4089);
		batch_order[i] = i;
	}
	for (unsigned int i = BATCH_OBJECTS - 1; random_order && i > 0; i--) {
		unsigned int j = (unsigned int)(bench_rand(&seed) % (i + 1));
		unsigned int tmp = batch_order[i];

		batch_order[i] = batch_order[j];
		batch_order[j] = tmp;
	}
	for (unsigned int i = 0; i < BATCH_OBJECTS; i++) {
		batch_objs[i] = BENCH_ALLOC(batch_sizes[i]);
		bench_touch(batch_objs[i]);
	}
	for (unsigned int i = 0; i < BATCH_OBJECTS; i++) {
		unsigned int k = batch_order[i];

		BENCH_FREE(batch_objs[k], batch_sizes[k]);
	}
	return 2UL * BATCH_OBJECTS;
}

/* n objects of size at once, then all freed: the bulk pattern. */
static inline void wl_burst(unsigned long iters, unsigned long size,
			    unsigned int n)
{
	void *objs[64];

	for (unsigned long i = 0; i < iters; i++) {
		for (unsigned int j = 0; j < n; j++) {
			objs[j] = BENCH_ALLOC(size);
			bench_touch(objs[j]);
		}
		for (unsigned int j = 0; j < n; j++)
			BENCH_FREE(objs[j], size);
	}
}

/* The speed limit: a bare LIFO of pointers, push then pop. */
static inline void wl_lifo(unsigned long iters)
{
	static void *stack[64];
	volatile unsigned int top = 0;

	for (unsigned long i = 0; i < iters; i++) {
		stack[top++] = (void *)&stack[i & 63];
		bench_touch(stack[--top]);
	}
	bench_sink += top;
}

#endif /* BENCH_WORKLOADS_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * A correctness test of a malloc shim, run with the shim preloaded
 * (bench/real/check.py): malloc, calloc, realloc, free, posix_memalign,
 * aligned_alloc, memalign, valloc, malloc_usable_size, at every size
 * class, zero sizes, blocks above kmalloc's 4 MiB, growing and shrinking
 * reallocs that keep their contents, 16-byte alignment of every block,
 * more threads than the kernel has CPUs, all at once, a forked child
 * whose heap is its own, and (cram) a fresh block backed before use.
 * Prints "ok" and exits 0, or says what failed and exits 1.
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define NTHREADS	72	/* more than NR_CPUS (64 by default) */
#define SLOTS		512

static int failures;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "shim_test: %s:%d: %s: ", __FILE__,	\
			__LINE__, #cond);				\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		__atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED);	\
	}								\
} while (0)

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void fill(unsigned char *p, size_t n, unsigned char seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(seed + i * 7);
}

static int intact(const unsigned char *p, size_t n, unsigned char seed)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (unsigned char)(seed + i * 7))
			return 0;
	return 1;
}

static void *check_block(void *p, size_t size, size_t align)
{
	CHECK(p != NULL, "size %zu", size);
	if (!p)
		return NULL;
	CHECK(((uintptr_t)p & (align - 1)) == 0, "%p size %zu align %zu", p,
	      size, align);
	CHECK(malloc_usable_size(p) >= size, "usable %zu < %zu",
	      malloc_usable_size(p), size);
	return p;
}

static void test_sizes(void)
{
	static const size_t sizes[] = {
		0, 1, 8, 15, 16, 17, 24, 40, 63, 64, 65, 80, 96, 100, 128, 160,
		192, 200, 256, 300, 320, 400, 448, 600, 700, 896, 1000, 1200,
		1500, 1792, 2500, 3000, 3500, 4096, 5000, 6000, 7000, 8192,
		8193, 65536, 100000,
		1 << 20, (4 << 20) - 1, 4 << 20, (4 << 20) + 1, 9 << 20,
		64 << 20,
	};

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i];
		unsigned char *p = check_block(malloc(n), n, 16);
		unsigned char *z = check_block(calloc(1, n), n, 16);
		void *a[8];

		if (p) {
			fill(p, n, (unsigned char)i);
			CHECK(intact(p, n, (unsigned char)i), "size %zu", n);
		}
		for (size_t k = 0; z && k < n; k++)
			if (z[k]) {
				CHECK(0, "calloc(%zu) byte %zu not zero", n, k);
				break;
			}
		/* Several at once: distinct, and each 16-byte aligned. */
		for (int k = 0; k < 8; k++)
			a[k] = check_block(malloc(n < (1 << 20) ? n : 64), n < (1 << 20) ? n : 64, 16);
		for (int k = 1; k < 8; k++)
			CHECK(a[k] != a[k - 1], "same block twice");
		for (int k = 0; k < 8; k++)
			free(a[k]);
		free(p);
		free(z);
	}
	{
		/* volatile: sizes the compiler cannot see (and reject) */
		volatile size_t half = SIZE_MAX / 2, huge = SIZE_MAX - 16;

		CHECK(calloc(half, 4) == NULL, "calloc overflow");
		CHECK(malloc(huge) == NULL, "huge malloc");
	}
	free(NULL);
}

static void test_aligned(void)
{
	static const size_t aligns[] = { 8, 16, 32, 64, 256, 4096, 65536, 1 << 21 };
	static const size_t sizes[] = { 0, 1, 24, 100, 5000, 70000, 5 << 20 };

	for (size_t i = 0; i < sizeof(aligns) / sizeof(aligns[0]); i++) {
		for (size_t j = 0; j < sizeof(sizes) / sizeof(sizes[0]); j++) {
			size_t al = aligns[i], n = sizes[j];
			void *p = NULL;

			CHECK(posix_memalign(&p, al, n) == 0, "align %zu size %zu", al, n);
			check_block(p, n, al);
			if (p)
				memset(p, 0x5a, n);
			free(p);
			p = check_block(aligned_alloc(al, n), n, al);
			free(p);
			p = check_block(memalign(al, n), n, al);
			free(p);
		}
	}
	{
		void *p = NULL;

		CHECK(posix_memalign(&p, 24, 10) != 0, "bad alignment accepted");
		p = check_block(valloc(100), 100, 4096);
		free(p);
	}
}

static void test_realloc(void)
{
	static const size_t steps[] = {
		1, 16, 17, 100, 4000, 8192, 70000, 200000, 300000, 700000,
		3 << 20, 6 << 20, 20 << 20, 5 << 20, 1 << 20, 1000, 33, 8, 200,
		9 << 20, 40, 5000, 100000, 400000, 12345,
	};
	unsigned char *p = NULL;
	size_t have = 0;

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		size_t n = steps[i], keep = have < n ? have : n;

		p = realloc(p, n);
		check_block(p, n, 16);
		if (!p)
			return;
		CHECK(intact(p, keep, 3), "realloc to %zu lost contents", n);
		fill(p, n, 3);
		have = n;
	}
	free(p);
	/* An aligned block grown and shrunk keeps its contents. */
	if (posix_memalign((void **)&p, 4096, 5 << 20)) {
		CHECK(0, "posix_memalign of 5 MiB failed");
		return;
	}
	fill(p, 5 << 20, 4);
	p = realloc(p, 11 << 20);
	check_block(p, 11 << 20, 16);
	CHECK(p && intact(p, 5 << 20, 4), "aligned realloc lost contents");
	p = p ? realloc(p, 3000) : NULL;
	check_block(p, 3000, 16);
	CHECK(p && intact(p, 3000, 4), "aligned realloc shrink lost contents");
	free(p);
}

/* Random work in every thread; blocks also move between threads. */
static void *shared_slots[SLOTS];

static void *worker(void *arg)
{
	uint64_t s = (uintptr_t)arg * 0x9e3779b97f4a7c15ULL + 1;
	void *mine[64] = { 0 };
	size_t sz[64] = { 0 };

	for (int it = 0; it < 20000; it++) {
		unsigned int k = (unsigned int)(rnd(&s) % 64);
		size_t n = rnd(&s) % 9 == 0 ? rnd(&s) % 100000 : rnd(&s) % 600;

		if (mine[k]) {
			CHECK(intact(mine[k], sz[k] < 64 ? sz[k] : 64, (unsigned char)k),
			      "thread block corrupted");
			if (rnd(&s) % 2) {
				/* hand it to another thread to free */
				void *old = __atomic_exchange_n(&shared_slots[rnd(&s) % SLOTS],
								mine[k], __ATOMIC_ACQ_REL);
				free(old);
			} else {
				free(mine[k]);
			}
		}
		mine[k] = check_block(malloc(n), n, 16);
		sz[k] = n;
		if (mine[k])
			fill(mine[k], n < 64 ? n : 64, (unsigned char)k);
	}
	for (int k = 0; k < 64; k++)
		free(mine[k]);
	return NULL;
}

static void test_threads(void)
{
	pthread_t t[NTHREADS];

	/* Two waves: the second reuses the CPUs the first gave back. */
	for (int wave = 0; wave < 2; wave++) {
		for (long i = 0; i < NTHREADS; i++)
			CHECK(pthread_create(&t[i], NULL, worker, (void *)(i + wave * 100)) == 0,
			      "pthread_create");
		for (int i = 0; i < NTHREADS; i++)
			pthread_join(t[i], NULL);
	}
	for (int i = 0; i < SLOTS; i++)
		free(shared_slots[i]);
}

/*
 * fork(): the child's heap is its own. The child frees the parent's
 * blocks and fills the memory it then gets with another pattern; the
 * parent's blocks must still hold theirs, and the child's its.
 */
#define FORK_BLOCKS	256

static void test_fork(void)
{
	unsigned char *mine[FORK_BLOCKS];
	int status = 0, bad = 0;
	pid_t pid;

	for (int i = 0; i < FORK_BLOCKS; i++) {
		mine[i] = malloc(100 + i * 40);
		CHECK(mine[i] != NULL, "malloc");
		if (mine[i])
			fill(mine[i], 100 + i * 40, (unsigned char)i);
	}
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		unsigned char *theirs[FORK_BLOCKS];

		for (int i = 0; i < FORK_BLOCKS; i++) {
			bad += mine[i] && !intact(mine[i], 100 + i * 40, (unsigned char)i);
			free(mine[i]);
		}
		for (int i = 0; i < FORK_BLOCKS; i++) {
			theirs[i] = malloc(100 + i * 40);
			if (theirs[i])
				memset(theirs[i], 0x55, 100 + i * 40);
		}
		for (int i = 0; i < FORK_BLOCKS; i++) {
			for (int j = 0; theirs[i] && j < 100 + i * 40; j++)
				bad += theirs[i][j] != 0x55;
			free(theirs[i]);
		}
		_exit(bad ? 1 : 0);
	}
	if (pid > 0) {
		CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the child's heap was not its own (status %#x)", status);
	}
	for (int i = 0; i < FORK_BLOCKS; i++) {
		bad += mine[i] && !intact(mine[i], 100 + i * 40, (unsigned char)i);
		free(mine[i]);
	}
	CHECK(!bad, "%d blocks changed in the parent by the child's work", bad);
}

/*
 * cram backs a block's RAM as it leaves the buddy lists (the host's
 * arch_alloc_page()), so a fresh 2 MiB block is resident before its
 * first touch: without that, none of its pages would be.
 */
static void test_backed(void)
{
	size_t size = 2 << 20, pages = size / 4096, resident = 0;
	unsigned char *p = malloc(size), *vec = malloc(pages);

	CHECK(p && vec, "malloc");
	if (!p || !vec)
		goto out;
	CHECK(mincore(p, size, vec) == 0, "mincore");
	for (size_t i = 0; i < pages; i++)
		resident += vec[i] & 1;
	CHECK(resident == pages, "%zu of %zu pages of a fresh block resident",
	      resident, pages);
out:
	free(vec);
	free(p);
}

/* With SHIM_TEST_EXPECT=cram: the kernel's arena must be mapped. */
static void test_preloaded(void)
{
	const char *expect = getenv("SHIM_TEST_EXPECT");
	char line[512];
	int found = 0;
	FILE *f;

	if (!expect || strcmp(expect, "cram"))
		return;
	f = fopen("/proc/self/maps", "r");
	CHECK(f != NULL, "/proc/self/maps");
	while (f && fgets(line, sizeof(line), f))
		found |= strstr(line, "memfd:cram-ram") != NULL;
	if (f)
		fclose(f);
	CHECK(found, "libcram-malloc.so is not in use (no cram-ram arena)");
	test_backed();
}

int main(void)
{
	test_preloaded();
	test_sizes();
	test_aligned();
	test_realloc();
	test_threads();
	test_fork();
	if (failures) {
		fprintf(stderr, "shim_test: %d checks failed\n", failures);
		return 1;
	}
	printf("ok\n");
	return 0;
}

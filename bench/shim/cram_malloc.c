// SPDX-License-Identifier: GPL-2.0
/*
 * libcram-malloc.so: the kernel's kmalloc as a program's malloc.
 *
 * The generic kernel code (kernel/, lib/, mm/) and arch/host/mm.c are
 * linked into a shared object with this file, which exports malloc and
 * friends (bench/shim/exports.map hides everything else) and stands in
 * for arch/host/main.c: there is no shell and no test, only memory.
 *
 * Boot: the first call, from whichever thread (often the dynamic loader
 * or libc before main), runs the memory half of start_kernel(). Other
 * threads arriving meanwhile spin until it is done; a call made by the
 * booting thread itself (libc inside the boot) is served from a small
 * static bump buffer that is never freed.
 *
 * CPUs: the kernel's per-CPU structures (pcp lists, array caches) are
 * used without locks by the CPU that owns them, so each thread gets a
 * CPU of its own, 1 .. NR_CPUS - 1 (63 threads at the default
 * NR_CPUS=64; the CPUs taken are a cpumask), on its first call, and
 * gives it back when it exits (a pthread key destructor). All NR_CPUS
 * are possible, none online: no thread takes cross-CPU calls, drains of
 * other CPUs are asked for (mm/page_alloc.c, mm/slab.c). Threads beyond
 * those, and a thread that frees during its exit after giving its CPU
 * back, share CPU 0 (the boot's) under a mutex: correct, but serialised.
 *
 * Sizes: every size is rounded up to a multiple of 16 (16 at least, so
 * malloc(0) is a unique pointer): kmalloc's caches for those sizes start
 * every object on a 16-byte boundary (shim_test checks it), as glibc
 * guarantees. Alignments above 16 use a power-of-two size, which kmalloc
 * aligns naturally (the host's direct map starts on a 1 GiB boundary, as
 * on x86_64, so that holds in virtual memory too). Above
 * KMALLOC_MAX_SIZE (4 MiB), or when the arena is exhausted, a block is
 * mmap'd directly with a 16-byte header before the pointer (its
 * mapping's start and length); free, realloc and malloc_usable_size tell
 * the two apart by address: inside the arena or not; realloc of an
 * mmap'd block is an mremap (see realloc_block()).
 *
 * The arena is CRAM_HOST_MEM (default here 1G, the host build's limit
 * being 3G): deferred struct page init (mm/internal.h), in 16 MiB units
 * (deferred_init=16M below), makes the boot initialise the struct pages
 * of its first 48 MiB only, the rest as the program needs it, and a
 * program that outgrows the arena goes on with mmap'd blocks. The kernel's messages go to stderr at loglevel 4
 * (warnings and worse), so a program's stdout is its own.
 *
 * fork(): the arena is a shared mapping of a memfd, so a child would
 * write into its parent's heap; the child's pthread_atfork handler gives
 * it a copy (host_ram_unshare) before it runs on.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "arch/arch.h"
#include "asm/host_mm.h"
#include "kernel/cpumask.h"
#include "kernel/kernel.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "mm/memblock.h"
#include "mm/mm.h"
#include "mm/kfence.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"	/* kmalloc_slab() */

#define EXPORT			__attribute__((visibility("default")))
/* An entry point with the kernel's fast path inlined (see fast_size()). */
#define EXPORT_FLAT		EXPORT __attribute__((flatten))
#define SHIM_DEFAULT_MEM	(1UL << 30)
#define SHIM_VMALLOC_SIZE	(1UL << 30)
#define SHARED_CPU		0
#define MIN_ALIGN		16UL
#define BOOT_BUF_SIZE		(256UL << 10)


/* --- the arch interface main.c gives the host build ------------------ */

const char arch_name[] = "host (malloc shim)";

static u64 boot_ns;

static u64 monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

void arch_console_write(const char *s, size_t len)
{
	while (len) {
		ssize_t n = write(2, s, len);

		if (n <= 0)
			return;
		s += n;
		len -= (size_t)n;
	}
}

int arch_console_getc(void)
{
	return -1;
}

u64 arch_clock_ns(void)
{
	return monotonic_ns() - boot_ns;
}

u64 arch_cycles(void)
{
	u32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

const char *arch_cmdline(void)
{
	return "loglevel=4 deferred_init=16M";
}

__noreturn void arch_exit(enum arch_exit_status status)
{
	_exit(status == ARCH_EXIT_SUCCESS ? 0 : 1);
}

__noreturn void arch_halt(void)
{
	abort();
}

__noreturn void arch_emergency_restart(void)
{
	abort();
}

/* No tick in the shim: its CPUs are the application's threads. */
unsigned long arch_tick_rate_mhz(enum tick_ref ref)
{
	return 0;
}

void arch_tick_start(void)
{
}

bool arch_tick_stop(u64 delta_ns)
{
	return false;
}

void arch_tick_resume(void)
{
}

/* arch_irq_init() (arch/host/irq.c) is never called in the shim. */
void host_tick_init(void)
{
}

/*
 * The console is write(2) already (arch_console_write() above), and the
 * shim registers no CPU thread a panic could stop (arch/host/irq.c).
 */
void host_console_raw(void)
{
}

/* No stack walks here: backtraces stop at once. */
bool arch_stack_bounds(unsigned long addr, unsigned long *lo,
		       unsigned long *hi)
{
	*lo = 0;
	*hi = 0;
	return false;
}

int arch_cpu_run(unsigned int cpu, void (*fn)(void *arg), void *arg)
{
	return -ENOSYS;
}

void arch_cpu_join(unsigned int cpu)
{
}

/* kernel/kallsyms.c takes symbol offsets from start_kernel; never run. */
__noreturn void start_kernel(void)
{
	abort();
}

/* --- boot ------------------------------------------------------------ */

enum { BOOT_NONE, BOOT_RUNNING, BOOT_DONE };

static int boot_state;
static pthread_t boot_thread;
static unsigned long arena_size;

/*
 * The arena is the kernel's direct map, from page_offset_base: free()'s
 * fast path subtracts page_offset_base here, and virt_to_page() does
 * the same subtraction after it (the compiler makes it once).
 */
static inline bool in_arena(const void *p)
{
	return (unsigned long)p - page_offset_base < arena_size;
}

/*
 * The kmalloc cache of each size rounded up to MIN_ALIGN, by size /
 * MIN_ALIGN (kmalloc_slab(), filled at boot): malloc's fast path finds
 * it in one load and allocates from it as kmalloc would, without
 * kmalloc's own two-table lookup.
 */
static struct kmem_cache *shim_caches[KMALLOC_MAX_CACHE_SIZE / MIN_ALIGN + 1];

static void shim_caches_init(void)
{
	for (size_t i = 1; i < ARRAY_SIZE(shim_caches); i++) {
		shim_caches[i] = kmalloc_slab(i * MIN_ALIGN, GFP_KERNEL);
		BUG_ON(!shim_caches[i]);
	}
}

static pthread_key_t cpu_key;

/* The booting thread's own calls: a bump allocator, never freed. */
static unsigned char boot_buf[BOOT_BUF_SIZE] __attribute__((aligned(16)));
static size_t boot_used;

static void cpu_release(void *unused);
static void shim_fork_child(void);

static void shim_boot(void)
{
	boot_ns = monotonic_ns();
	console_loglevel = 4;	/* before the command line says so too */
	host_default_mem = SHIM_DEFAULT_MEM;
	host_vmalloc_size = SHIM_VMALLOC_SIZE;
	arch_memory_setup();
	parse_early_params(arch_cmdline());
	arch_memblock_setup();
	setup_arch();
	/* Every CPU number may come to a thread; none takes IPIs. */
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		set_cpu_possible(cpu, true);
		set_cpu_present(cpu, true);
	}
	setup_nr_cpu_ids();
	mm_core_init();
	arena_size = memblock_end_of_DRAM();
	/* free()'s fast path takes no NULL and no KFENCE object from it. */
	BUG_ON(in_arena(NULL) || in_arena((void *)KFENCE_POOL_START) ||
	       in_arena((void *)(KFENCE_POOL_START + KFENCE_POOL_SIZE - 1)));
	shim_caches_init();
	if (pthread_key_create(&cpu_key, cpu_release) ||
	    pthread_atfork(NULL, NULL, shim_fork_child)) {
		static const char msg[] = "cram-malloc: pthread_key_create or pthread_atfork failed\n";

		arch_console_write(msg, sizeof(msg) - 1);
		abort();
	}
}

/* true: booted; false: the calling thread is the one booting. */
static inline bool shim_ready(void)
{
	int expected = BOOT_NONE;

	if (likely(__atomic_load_n(&boot_state, __ATOMIC_ACQUIRE) == BOOT_DONE))
		return true;
	if (__atomic_compare_exchange_n(&boot_state, &expected, BOOT_RUNNING,
					false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		boot_thread = pthread_self();
		shim_boot();
		__atomic_store_n(&boot_state, BOOT_DONE, __ATOMIC_RELEASE);
		return true;
	}
	if (pthread_equal(boot_thread, pthread_self()))
		return false;
	while (__atomic_load_n(&boot_state, __ATOMIC_ACQUIRE) != BOOT_DONE)
		arch_cpu_relax();
	return true;
}

static void *boot_alloc(size_t size, size_t align)
{
	size_t start = (boot_used + 16 + align - 1) & ~(align - 1);

	if (size > BOOT_BUF_SIZE || start + size > BOOT_BUF_SIZE)
		return NULL;
	boot_used = start + size;
	((size_t *)(boot_buf + start))[-1] = size;
	return boot_buf + start;
}

static inline bool in_boot_buf(const void *p)
{
	return (const unsigned char *)p >= boot_buf &&
	       (const unsigned char *)p < boot_buf + BOOT_BUF_SIZE;
}

/* --- CPUs for threads -------------------------------------------------- */

/*
 * A thread's CPU is host_this_cpu.id: one of its own, 1 .. NR_CPUS - 1,
 * or SHARED_CPU (0, the CPU the boot ran on), which is also what a
 * thread starts with (thread-local storage starts zeroed). The fast
 * paths test that id, which the kernel's own fast path loads anyway
 * (arch_cpu_id()): one thread-local load for both. cpu_state tells a
 * thread that has not asked yet from one that got no CPU of its own.
 */
enum { CPU_NONE, CPU_OWN, CPU_SHARED };

static __thread int cpu_state __attribute__((tls_model("initial-exec")));
static struct cpumask cpus_taken;	/* CPU n has a thread */
static pthread_mutex_t shared_cpu_lock = PTHREAD_MUTEX_INITIALIZER;

static inline bool cpu_own(void)
{
	return host_this_cpu.id != SHARED_CPU;
}

/*
 * The thread exits: what its CPU's caches hold goes back first, as a CPU
 * going offline gives back its arrays and page lists, so that a CPU no
 * thread takes again strands nothing.
 */
static void cpu_release(void *unused)
{
	kmem_cache_cpu_release();
	cpumask_clear_cpu(host_this_cpu.id, &cpus_taken);
	host_this_cpu.id = SHARED_CPU;
	cpu_state = CPU_SHARED;
}

/* The lowest free CPU above SHARED_CPU, else the shared one. */
static void cpu_claim(void)
{
	for (unsigned int cpu = SHARED_CPU + 1; cpu < NR_CPUS; cpu++) {
		if (cpumask_test_cpu(cpu, &cpus_taken) ||
		    cpumask_test_and_set_cpu(cpu, &cpus_taken))
			continue;
		host_this_cpu.id = cpu;
		cpu_state = CPU_OWN;
		/* The destructor runs only for a non-NULL value. */
		pthread_setspecific(cpu_key, (void *)1);
		return;
	}
	cpu_state = CPU_SHARED;
}

/* Enter the kernel: returns true if the shared CPU's lock is held. */
static inline bool cpu_enter(void)
{
	if (likely(cpu_own()))
		return false;
	if (cpu_state == CPU_NONE) {
		cpu_claim();
		if (cpu_own())
			return false;
	}
	pthread_mutex_lock(&shared_cpu_lock);
	host_this_cpu.id = SHARED_CPU;
	return true;
}

static inline void cpu_leave(bool locked)
{
	if (unlikely(locked))
		pthread_mutex_unlock(&shared_cpu_lock);
}

/*
 * fork(): the child gets a copy of the arena (host_ram_unshare), or its
 * allocations would land in the parent's memory, the arena being a
 * shared mapping. Only the forking thread lives on in the child: the
 * shared CPU's mutex starts unlocked there. A kernel lock that another
 * thread held at the fork stays held in the child (see the top).
 */
static void shim_fork_child(void)
{
	host_ram_unshare();
	pthread_mutex_init(&shared_cpu_lock, NULL);
}

/* --- blocks mmap'd directly ---------------------------------------------- */

struct map_header {
	void *base;
	size_t len;
};


static void *map_alloc(size_t size, size_t align)
{
	size_t page = (size_t)PAGE_SIZE, len;
	unsigned char *base, *p;

	if (align < MIN_ALIGN)
		align = MIN_ALIGN;
	if (size > SIZE_MAX / 2 || align > SIZE_MAX / 4)
		return NULL;
	len = (size + sizeof(struct map_header) + align - 1 + page - 1) & ~(page - 1);
	base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	if (base == MAP_FAILED)
		return NULL;
	p = (unsigned char *)(((uintptr_t)base + sizeof(struct map_header) +
			       align - 1) & ~(uintptr_t)(align - 1));
	((struct map_header *)p)[-1] = (struct map_header){ base, len };
	return p;
}

static inline struct map_header *map_header(const void *p)
{
	return &((struct map_header *)p)[-1];
}

/*
 * realloc of an mmap'd block: mremap() moves or grows its pages, no
 * copy; the pointer keeps its offset in the first page (so 16-byte
 * alignment, and any up to a page). NULL, the block untouched, if the
 * host refuses.
 */
static void *map_realloc(void *p, size_t size)
{
	struct map_header *h = map_header(p);
	size_t off = (size_t)((unsigned char *)p - (unsigned char *)h->base);
	size_t len;
	unsigned char *base;

	if (size > SIZE_MAX / 2)
		return NULL;
	len = (off + size + PAGE_SIZE - 1) & ~((size_t)PAGE_SIZE - 1);
	base = mremap(h->base, h->len, len, MREMAP_MAYMOVE);
	if (base == MAP_FAILED)
		return NULL;
	p = base + off;
	*map_header(p) = (struct map_header){ base, len };
	return p;
}

static size_t map_usable(const void *p)
{
	const struct map_header *h = map_header(p);

	return (size_t)((unsigned char *)h->base + h->len - (unsigned char *)p);
}

/* --- the allocator -------------------------------------------------------- */

static __noinline void *shim_alloc(size_t size, size_t align, gfp_t gfp)
{
	void *p = NULL;
	bool locked;

	if (unlikely(!shim_ready())) {
		p = boot_alloc(size, align < MIN_ALIGN ? MIN_ALIGN : align);
		if (p && (gfp & __GFP_ZERO))
			memset(p, 0, size);
		goto out;
	}
	if (size > SIZE_MAX - PAGE_SIZE)
		goto out;
	size = size ? (size + MIN_ALIGN - 1) & ~(MIN_ALIGN - 1) : MIN_ALIGN;
	if (align > MIN_ALIGN && size < align)
		size = align;
	if (align > MIN_ALIGN && (size & (size - 1)))
		size = size > KMALLOC_MAX_SIZE ? size : 1UL << (64 - __builtin_clzl(size));
	if (size <= KMALLOC_MAX_SIZE) {
		locked = cpu_enter();
		p = __kmalloc(size, gfp);
		cpu_leave(locked);
	}
	if (!p)
		p = map_alloc(size, align);	/* mmap'd memory is zeroed */
out:
	if (!p)
		errno = ENOMEM;
	return p;
}

/*
 * The fast paths: a thread with a CPU of its own (so the boot is done)
 * and a size a kmalloc cache serves, or a pointer into the arena, goes
 * straight to kmalloc or kfree: one thread-local load and a compare or
 * two before the kernel's own fast path. Everything else takes the
 * general functions above and below. The library is built as one LTO
 * unit, and malloc, calloc and free are flattened: __kmalloc and kfree
 * are inlined into them, with the GFP flags known (no DMA row, no
 * zeroing test in malloc); the slow paths, all __noinline, stay calls.
 */
static __always_inline bool fast_size(size_t size)
{
	return likely(cpu_own() && size - 1 < KMALLOC_MAX_CACHE_SIZE);
}

static __always_inline bool fast_ptr(const void *p)
{
	return likely(cpu_own() && in_arena(p));
}

static __always_inline void *fast_alloc(size_t size, gfp_t gfp)
{
	return kmem_cache_alloc(shim_caches[(size + MIN_ALIGN - 1) / MIN_ALIGN],
				gfp);
}

static size_t usable_size(const void *p)
{
	size_t n;
	bool locked;

	if (fast_ptr(p))
		return ksize(p);
	if (!p)
		return 0;
	if (in_arena(p)) {
		locked = cpu_enter();
		n = ksize(p);
		cpu_leave(locked);
		return n;
	}
	if (in_boot_buf(p))
		return ((const size_t *)p)[-1];
	return map_usable(p);
}

EXPORT_FLAT void *malloc(size_t size)
{
	if (fast_size(size)) {
		void *p = fast_alloc(size, GFP_KERNEL);

		if (likely(p))
			return p;
	}
	return shim_alloc(size, 0, GFP_KERNEL);
}

static __noinline void free_slow(void *p)
{
	bool locked;

	if (!p || in_boot_buf(p))
		return;
	if (likely(in_arena(p))) {
		locked = cpu_enter();
		kfree(p);
		cpu_leave(locked);
		return;
	}
	munmap(map_header(p)->base, map_header(p)->len);
}

EXPORT_FLAT void free(void *p)
{
	if (fast_ptr(p)) {
		if (zero_or_null_or_kfence(p))	/* not in the arena */
			__builtin_unreachable();
		kfree(p);
		return;
	}
	free_slow(p);
}

EXPORT_FLAT void *calloc(size_t n, size_t size)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes)) {
		errno = ENOMEM;
		return NULL;
	}
	if (fast_size(bytes)) {
		void *p = fast_alloc(bytes, GFP_KERNEL | __GFP_ZERO);

		if (likely(p))
			return p;
	}
	return shim_alloc(bytes, 0, GFP_KERNEL | __GFP_ZERO);
}

/*
 * realloc of a block: one that fits stays where it is unless shrinking
 * would waste more than half of it; an mmap'd block grows or shrinks by
 * mremap(), without a copy. Arena blocks are not moved out to mmap to
 * save copies: the fresh pages' faults cost more (sqlite's sorter ran
 * 10% slower that way).
 */
static __noinline void *realloc_block(void *old, size_t size)
{
	size_t have;
	void *p;

	if (!size) {
		free(old);
		return NULL;
	}
	if (!in_arena(old) && !in_boot_buf(old)) {
		p = map_realloc(old, size);
		goto out;
	}
	/* The capacity: the shim's kernel has no KASAN, no debugged cache. */
	have = in_arena(old) ? __ksize(old) : usable_size(old);
	if (size <= have && (size > have / 2 || have <= 64))
		return old;
	p = malloc(size);
	if (!p)
		goto out;
	memcpy(p, old, have < size ? have : size);
	free(old);
out:
	if (!p)
		errno = ENOMEM;
	return p;
}

/*
 * realloc(NULL, size) is malloc(size), with malloc's fast path inlined:
 * some programs (lua) allocate everything that way.
 */
EXPORT_FLAT void *realloc(void *old, size_t size)
{
	if (!old)
		return malloc(size);
	return realloc_block(old, size);
}

EXPORT int posix_memalign(void **out, size_t align, size_t size)
{
	void *p;

	if (align < sizeof(void *) || (align & (align - 1)))
		return EINVAL;
	p = shim_alloc(size, align, GFP_KERNEL);
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}

EXPORT void *aligned_alloc(size_t align, size_t size)
{
	if (!align || (align & (align - 1))) {
		errno = EINVAL;
		return NULL;
	}
	return shim_alloc(size, align, GFP_KERNEL);
}

EXPORT void *memalign(size_t align, size_t size)
{
	return aligned_alloc(align, size);
}

EXPORT void *valloc(size_t size)
{
	return shim_alloc(size, PAGE_SIZE, GFP_KERNEL);
}

EXPORT void *pvalloc(size_t size)
{
	return shim_alloc(PAGE_ALIGN(size ? size : 1), PAGE_SIZE, GFP_KERNEL);
}

EXPORT size_t malloc_usable_size(void *p)
{
	return usable_size(p);
}

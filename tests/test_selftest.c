// SPDX-License-Identifier: GPL-2.0
/*
 * The harness's own selftests: a hidden suite whose cases end the run in
 * every way a broken kernel can (a failed expectation, a panic, a CPU
 * exception, a hang, a silent reset) plus one that passes. They run only
 * when named exactly, e.g. "ktest=selftest.panic"; tools/testing/harness.py boots
 * each one and checks that it reports the right verdict. Never part of a
 * normal test run. pagealloc_fault needs debug_pagealloc=on as well: a
 * write to a page just freed must fault, and the report name the page.
 * double_fault runs on a stack pointer into unmapped memory: the page
 * fault cannot push its frame, and the double fault, on a stack of its
 * own, must still be reported. vmalloc_guard writes to the guard page
 * after a 12288-byte vmalloc area: the report must name the area's size
 * and this case as its caller. panic_smp and panic_ap need several
 * CPUs: the others print without pause (one spins with interrupts off,
 * which only an NMI stops) when CPU 0, or CPU 1, panics; the log must
 * end with that panic's last line. kasan_panic_on_warn runs on the
 * KASAN=1 kernel booted with panic_on_warn: its out-of-bounds write must
 * be reported, then panic. slab_double_free and slab_bad_pointer free
 * what SLAB's fast path takes without a look (no debugging, KFENCE off:
 * kfence.sample_interval=0): a second free of one object, a page that
 * is no slab's. Both reach the per-CPU array; shrinking the cache puts
 * the array back into the slabs, where free_block() must stop with a
 * BUG: more objects back than were out, a pointer into no slab.
 */
#include "kernel/bug.h"
#include "kernel/printk.h"
#include "lib/ktest/ktest.h"
#include "mm/gfp.h"
#include "mm/kasan.h"
#include "mm/page_debug.h"
#include "mm/slab.h"
#include "mm/vmalloc.h"
#include "arch/arch.h"
#include "kernel/cpumask.h"

static void pass(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, 2 + 2, 4);
}

static void fail(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, 1 + 1, 3);
}

static void panic_now(struct ktest *t)
{
	panic("selftest: deliberate panic");
}

/* An address nothing maps, hidden from the optimizer. */
static volatile unsigned long bad_address = 16;

static void exception(struct ktest *t)
{
	*(volatile int *)bad_address = 1;
	KTEST_FAIL(t, "write to %#lx did not fault", bad_address);
}

static void pagealloc_fault(struct ktest *t)
{
	unsigned long addr = __get_free_page(GFP_KERNEL);

	KTEST_ASSERT_TRUE(t, debug_pagealloc_enabled());
	KTEST_ASSERT_NE(t, addr, 0UL);
	free_page(addr);
	*(volatile unsigned long *)(addr + 0x40) = 1;
	KTEST_FAIL(t, "write to free page %#lx did not fault", addr);
}

static void vmalloc_guard(struct ktest *t)
{
	u8 *p = vmalloc(12288);
	unsigned long guard = (unsigned long)p + 12288;

	KTEST_ASSERT_NOT_NULL(t, p);
	*(volatile u8 *)(guard + 0x10) = 1;
	KTEST_FAIL(t, "write to the guard page at %#lx did not fault", guard);
}

static void double_fault(struct ktest *t)
{
	__asm__ __volatile__("movq %0, %%rsp\n\tpushq $0"
			     : : "r"(bad_address & ~15UL) : "memory");
	KTEST_FAIL(t, "a push to %#lx did not fault", bad_address);
}

static void hang(struct ktest *t)
{
	for (;;)
		arch_cpu_relax();
}

static void triple(struct ktest *t)
{
	arch_emergency_restart();
}

#define BUSY_LINES	20	/* each printer prints this many before the panic */

static unsigned long busy_lines[NR_CPUS];
static bool ap_panics;

/* CPU 1 panics (panic_ap) or spins with interrupts off; others print. */
static void busy_cpu(void *arg)
{
	unsigned int cpu = arch_cpu_id();

	if (cpu == 1 && ap_panics) {
		for (unsigned int c = 2; c < nr_cpu_ids; c++)
			while (READ_ONCE(busy_lines[c]) < BUSY_LINES)
				arch_cpu_relax();
		panic("selftest: panic on CPU 1 with the others busy");
	}
	if (cpu == 1) {
		arch_irq_save();
		WRITE_ONCE(busy_lines[cpu], BUSY_LINES);
		for (;;)
			arch_cpu_relax();
	}
	for (unsigned long n = 0;; n++) {
		printk(KERN_INFO "selftest: cpu%u busy %lu\n", cpu, n);
		WRITE_ONCE(busy_lines[cpu], n + 1);
	}
}

/* Start busy_cpu() on every other CPU; wait until each is under way. */
static void start_busy_cpus(struct ktest *t)
{
	unsigned int nr = nr_cpu_ids;

	KTEST_ASSERT_TRUE(t, nr >= 3);
	for (unsigned int cpu = 1; cpu < nr; cpu++)
		KTEST_ASSERT_EQ(t, arch_cpu_run(cpu, busy_cpu, NULL), 0);
	for (unsigned int cpu = ap_panics ? 2 : 1; cpu < nr; cpu++)
		while (READ_ONCE(busy_lines[cpu]) < BUSY_LINES)
			arch_cpu_relax();
}

static void panic_smp(struct ktest *t)
{
	start_busy_cpus(t);
	panic("selftest: panic with the other CPUs busy");
}

static void panic_ap(struct ktest *t)
{
	ap_panics = true;
	start_busy_cpus(t);
	arch_irq_save();
	for (;;)
		arch_cpu_relax();
}

/* Out of line, so that the compiler neither drops nor warns. */
static __noinline void poke_byte(volatile u8 *p, long i)
{
	p[i] = 0x5a;
}

/* The KASAN=1 kernel with panic_on_warn: the report panics. */
static void kasan_panic_on_warn(struct ktest *t)
{
	u8 *p;

	if (!kasan_enabled())
		ktest_skip(t, "needs a KASAN backend (the KASAN=1 kernel)");
	p = kmalloc(13, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	poke_byte(p, 13);
	kfree(p);
	KTEST_FAIL(t, "a KASAN report with panic_on_warn did not panic");
}

/* A cache of 64-byte objects, one object of it in p. */
static struct kmem_cache *selftest_cache(struct ktest *t, void **p)
{
	struct kmem_cache *c = kmem_cache_create("selftest-slab", 64, 0, 0,
						 NULL);

	KTEST_ASSERT_NOT_NULL(t, c);
	*p = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, *p);
	return c;
}

static void slab_double_free(struct ktest *t)
{
	void *p;
	struct kmem_cache *c = selftest_cache(t, &p);

	kmem_cache_free(c, p);
	kmem_cache_free(c, p);
	kmem_cache_shrink(c);
	KTEST_FAIL(t, "a double free of %px went back into its slab", p);
}

static void slab_bad_pointer(struct ktest *t)
{
	void *p;
	struct kmem_cache *c = selftest_cache(t, &p);
	void *page = (void *)__get_free_page(GFP_KERNEL);

	KTEST_ASSERT_NOT_NULL(t, page);
	kmem_cache_free(c, page);
	kmem_cache_shrink(c);
	KTEST_FAIL(t, "%px, no slab's, went back into a slab", page);
}

static const struct ktest_case selftest_cases[] = {
	{ .name = "pass", .run = pass },
	{ .name = "fail", .run = fail },
	{ .name = "panic", .run = panic_now },
	{ .name = "exception", .run = exception },
	{ .name = "pagealloc_fault", .run = pagealloc_fault },
	{ .name = "double_fault", .run = double_fault },
	{ .name = "vmalloc_guard", .run = vmalloc_guard },
	{ .name = "panic_smp", .run = panic_smp },
	{ .name = "panic_ap", .run = panic_ap },
	{ .name = "hang", .run = hang },
	{ .name = "triple", .run = triple },
	{ .name = "kasan_panic_on_warn", .run = kasan_panic_on_warn },
	{ .name = "slab_double_free", .run = slab_double_free },
	{ .name = "slab_bad_pointer", .run = slab_bad_pointer },
	{}
};
KTEST_SUITE(selftest, selftest_cases, KTEST_HIDDEN);

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
 * own, must still be reported.
 */
#include "kernel/bug.h"
#include "lib/ktest/ktest.h"
#include "mm/gfp.h"
#include "mm/page_debug.h"
#include "arch/arch.h"

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

static const struct ktest_case selftest_cases[] = {
	{ .name = "pass", .run = pass },
	{ .name = "fail", .run = fail },
	{ .name = "panic", .run = panic_now },
	{ .name = "exception", .run = exception },
	{ .name = "pagealloc_fault", .run = pagealloc_fault },
	{ .name = "double_fault", .run = double_fault },
	{ .name = "hang", .run = hang },
	{ .name = "triple", .run = triple },
	{}
};
KTEST_SUITE(selftest, selftest_cases, KTEST_HIDDEN);

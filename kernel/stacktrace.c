// SPDX-License-Identifier: GPL-2.0
/*
 * Stack traces over frame pointers (kernel/stacktrace.h).
 *
 * With frame pointers every frame begins with the caller's saved frame
 * pointer and the return address into the caller, so the chain from
 * any frame pointer leads up the stack to the outermost function. The
 * walk trusts nothing it reads: it stops at a frame not on this CPU's
 * stacks (arch_stack_bounds(), asked once per stack) or not aligned, at a return address outside
 * the kernel's text (kernel_text_address(): garbage, or on the host
 * libc's and AddressSanitizer's frames, whose own frame pointers are
 * not kept), at a next frame that is not above this one, and after
 * STACK_TRACE_MAX_FRAMES frames: it only ever reads this CPU's stack,
 * and a broken chain gives a short trace, never a fault.
 *
 * dump_stack(), show_stack(), KFENCE's and KASAN's tracks (through the
 * stack depot, lib/stackdepot.c) all walk here.
 */
#include "arch/arch.h"
#include "kernel/kallsyms.h"
#include "kernel/printk.h"
#include "kernel/stacktrace.h"

#define STACK_TRACE_MAX_FRAMES	128

/* Layout of a frame on x86_64 with frame pointers: saved rbp, then rip. */
struct stack_frame {
	const struct stack_frame *next;
	unsigned long ret;
};

/* The stack the walk is on: asked of the arch when a frame leaves it. */
struct walk_stack {
	unsigned long lo, hi;
};

static bool frame_ok(const struct stack_frame *frame, struct walk_stack *s)
{
	unsigned long addr = (unsigned long)frame;

	if (!frame || !IS_ALIGNED(addr, sizeof(long)))
		return false;
	if (addr >= s->lo && addr + sizeof(*frame) <= s->hi)
		return true;
	return arch_stack_bounds(addr, &s->lo, &s->hi) &&
	       addr + sizeof(*frame) <= s->hi;
}

unsigned int stack_trace_save_bp(unsigned long bp, unsigned long *store,
				 unsigned int size, unsigned int skipnr)
{
	const struct stack_frame *frame = (const struct stack_frame *)bp;
	struct walk_stack s = { 0, 0 };
	unsigned int nr = 0;

	for (int depth = 0; depth < STACK_TRACE_MAX_FRAMES && nr < size;
	     depth++) {
		if (!frame_ok(frame, &s) || !frame->ret ||
		    !kernel_text_address(frame->ret - 1))
			break;
		if (skipnr)
			skipnr--;
		else
			store[nr++] = frame->ret;
		if (frame->next <= frame)
			break;
		frame = frame->next;
	}
	return nr;
}

__noinline unsigned int stack_trace_save(unsigned long *store,
					 unsigned int size,
					 unsigned int skipnr)
{
	return stack_trace_save_bp((unsigned long)__builtin_frame_address(0),
				   store, size, skipnr);
}

void stack_trace_print(const unsigned long *entries, unsigned int nr_entries,
		       int spaces)
{
	/* Return addresses point after the call: show the call. */
	for (unsigned int i = 0; i < nr_entries; i++)
		pr_err("%*c%pS\n", 1 + spaces, ' ', (void *)(entries[i] - 1));
}

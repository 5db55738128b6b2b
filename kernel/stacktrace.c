// SPDX-License-Identifier: GPL-2.0
/*
 * Stack traces over frame pointers (kernel/stacktrace.h).
 *
 * With frame pointers every frame begins with the caller's saved frame
 * pointer and the return address into the caller, so the chain from
 * any frame pointer leads up the stack to the outermost function. The
 * walk trusts nothing it reads: it stops at a frame not on this CPU's
 * stacks (arch_stack_bounds(), asked once per stack) or not aligned, at
 * a return address outside the kernel's text (kernel_text_bounds(),
 * asked once: garbage, or on the host libc's and
 * AddressSanitizer's frames, whose own frame pointers are not kept), at
 * a next frame that is not above this one, and after
 * STACK_TRACE_MAX_FRAMES frames: it only ever reads this CPU's stack,
 * and a broken chain gives a short trace, never a fault.
 *
 * dump_stack(), show_stack(), KFENCE's and KASAN's tracks (through the
 * stack depot, lib/stackdepot.c) all walk here. stack_trace_save_log()
 * also logs every word the walk read; stack_trace_log_matches() reads
 * the same places again and says whether a walk from the same frame
 * would read the same words, and so save the same entries: KASAN keeps
 * each CPU's last logs and takes their stacks' handles without walking.
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

/*
 * What a frame is checked against, kept in registers: the stack it must
 * lie on (frames start in [lo, lo + span]), asked of the arch only when
 * a frame is off the one known, and the kernel's text (a return address
 * in [after, after + text_len): just past a call), asked once for good.
 */
struct walk_stack {
	unsigned long lo, span;
};

struct walk {
	struct walk_stack stack;
	unsigned long after, text_len;
};

/* text_len published last: the table is fixed at link time. */
static unsigned long text_start, text_len;

static void walk_init(struct walk *w)
{
	unsigned long start, end;

	w->stack.lo = 1;	/* no stack yet: the first frame asks */
	w->stack.span = 0;
	w->text_len = __atomic_load_n(&text_len, __ATOMIC_ACQUIRE);
	start = READ_ONCE(text_start);
	if (unlikely(!w->text_len)) {
		kernel_text_bounds(&start, &end);
		w->text_len = end - start;
		WRITE_ONCE(text_start, start);
		__atomic_store_n(&text_len, w->text_len, __ATOMIC_RELEASE);
	}
	w->after = start + 1;
}

/* The stack of this CPU's that addr is on, or { 1, 0 } (none). */
static __noinline struct walk_stack walk_find_stack(unsigned long addr)
{
	struct walk_stack none = { 1, 0 };
	unsigned long lo, hi;

	if (!arch_stack_bounds(addr, &lo, &hi) ||
	    hi - lo < sizeof(struct stack_frame) ||
	    addr > hi - sizeof(struct stack_frame))
		return none;
	return (struct walk_stack){ lo, hi - sizeof(struct stack_frame) - lo };
}

/* One more word the walk read, if it keeps a log (a full one is void). */
static __always_inline void log_word(struct stack_trace_log *log,
				     unsigned long word)
{
	if (!log)
		return;
	if (log->nr < STACK_TRACE_LOG_WORDS)
		log->word[log->nr] = word;
	log->nr++;
}

/* Is the frame on the stack, its return address in the text? */
static __always_inline bool frame_ret(const struct stack_frame *frame,
				      struct walk *w, unsigned long *ret,
				      struct stack_trace_log *log)
{
	unsigned long addr = (unsigned long)frame;

	if (unlikely(addr - w->stack.lo > w->stack.span)) {
		w->stack = walk_find_stack(addr);
		if (addr - w->stack.lo > w->stack.span)
			return false;
	}
	*ret = frame->ret;
	log_word(log, *ret);
	return *ret - w->after < w->text_len;	/* 0 wraps: fails */
}

/* The caller's frame: above this one and aligned, or NULL. */
static __always_inline const struct stack_frame *
frame_next(const struct stack_frame *frame, struct stack_trace_log *log)
{
	const struct stack_frame *next = frame->next;

	log_word(log, (unsigned long)next);
	if (next <= frame || !IS_ALIGNED((unsigned long)next, sizeof(long)))
		return NULL;
	return next;
}

/*
 * The walk. Every allocation and free under KASAN comes here (its
 * tracks) unless its stack is known (stack_trace_log_matches()): a
 * frame costs a few compares. With a log, every word read from the
 * stack is written to it, in order.
 */
static __always_inline unsigned int walk(unsigned long bp, unsigned long *store,
					 unsigned int size,
					 unsigned int skipnr,
					 struct stack_trace_log *log)
{
	const struct stack_frame *frame = (const struct stack_frame *)bp;
	unsigned int left = STACK_TRACE_MAX_FRAMES, nr = 0;
	unsigned long ret;
	struct walk w;

	if (!frame || !IS_ALIGNED(bp, sizeof(long)))
		return 0;
	walk_init(&w);
	for (; skipnr && left; skipnr--, left--) {
		if (!frame_ret(frame, &w, &ret, log))
			return 0;
		frame = frame_next(frame, log);
		if (!frame)
			return 0;
	}
	size = min(size, left);
	while (nr < size && frame_ret(frame, &w, &ret, log)) {
		store[nr++] = ret;
		frame = frame_next(frame, log);
		if (!frame)
			break;
	}
	return nr;
}

unsigned int stack_trace_save_bp(unsigned long bp, unsigned long *store,
				 unsigned int size, unsigned int skipnr)
{
	return walk(bp, store, size, skipnr, NULL);
}

__noinline unsigned int stack_trace_save_log(unsigned long *store,
					     unsigned int size,
					     struct stack_trace_log *log)
{
	log->nr = 0;
	return walk((unsigned long)__builtin_frame_address(0), store, size, 0,
		    log);
}

/*
 * The log's words are what the walk read, in order: from each frame its
 * return address, then the next frame; its first two, from the walker's
 * own frame, the return into its caller and the caller's frame. Reading
 * the same words from the same places is walking the same way: the
 * checks (this CPU's stacks, the text) are of these words alone. Each
 * frame read here was checked equal to one the walk found on the stack.
 */
bool stack_trace_log_matches(const struct stack_trace_log *log,
			     unsigned long bp)
{
	const struct stack_frame *frame = (const struct stack_frame *)bp;
	unsigned int n = log->nr;
	const unsigned long *w, *pairs_end;

	if (n < 2 || n > STACK_TRACE_LOG_WORDS || log->word[1] != bp)
		return false;
	/* A frame's two words at a time: its return address, the next. */
	pairs_end = &log->word[n & ~1U];
	for (w = &log->word[2]; w < pairs_end; w += 2) {
		if (frame->ret != w[0] || (unsigned long)frame->next != w[1])
			return false;
		frame = (const struct stack_frame *)w[1];
	}
	/* An odd count ends with a return address the walk turned down. */
	return !(n & 1) || frame->ret == w[0];
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

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stack traces: the return addresses up the frame-pointer chain (the
 * kernel and the host program are built with -fno-omit-frame-pointer),
 * Linux's stack_trace_save() and stack_trace_print().
 */
#ifndef KERNEL_STACKTRACE_H
#define KERNEL_STACKTRACE_H

#include "kernel/types.h"

/*
 * Save up to size return addresses of the caller's call chain into
 * store, the caller's own return address first, after leaving out the
 * skipnr innermost ones. Returns how many were saved.
 */
unsigned int stack_trace_save(unsigned long *store, unsigned int size,
			      unsigned int skipnr);

/*
 * The same from the frame whose frame pointer is bp (an exception's or
 * another CPU's saved rbp). The walk stops at a frame off this CPU's
 * stacks, a return address outside the kernel's text, or a frame that
 * does not lead up the stack.
 */
unsigned int stack_trace_save_bp(unsigned long bp, unsigned long *store,
				 unsigned int size, unsigned int skipnr);

/* What stack_trace_save_log() read: enough for 20 frames, or void. */
#define STACK_TRACE_LOG_WORDS	40

struct stack_trace_log {
	unsigned int nr;	/* words read; past STACK_TRACE_LOG_WORDS: void */
	unsigned long word[STACK_TRACE_LOG_WORDS];
};

/*
 * stack_trace_save() from the caller, also logging every word its walk
 * reads from the stack (log->nr past STACK_TRACE_LOG_WORDS: too many).
 */
unsigned int stack_trace_save_log(unsigned long *store, unsigned int size,
				  struct stack_trace_log *log);

/*
 * Would the same call of stack_trace_save_log() as the one that wrote
 * log, from the function whose frame is bp (its caller's
 * __builtin_frame_address(0)), read the very same words, and so save
 * the very same entries? Reads only the frames log names, each of
 * which the walk found on this CPU's stacks: call it on the CPU that
 * wrote log. False for a void log.
 */
bool stack_trace_log_matches(const struct stack_trace_log *log,
			     unsigned long bp);

/* Print nr_entries entries, one " function+off/size" line each, indented. */
void stack_trace_print(const unsigned long *entries, unsigned int nr_entries,
		       int spaces);

#endif /* KERNEL_STACKTRACE_H */

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

/* Print nr_entries entries, one " function+off/size" line each, indented. */
void stack_trace_print(const unsigned long *entries, unsigned int nr_entries,
		       int spaces);

#endif /* KERNEL_STACKTRACE_H */

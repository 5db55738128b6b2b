/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-CPU allocator's state, for the tests (mm/percpu.c).
 */
#ifndef MM_PERCPU_INTERNAL_H
#define MM_PERCPU_INTERNAL_H

/* Chunks mapped now. */
unsigned int pcpu_nr_chunks_now(void);
/* Release the empty chunks but the first now (interrupts on, not a handler). */
void pcpu_flush_release(void);

#endif /* MM_PERCPU_INTERNAL_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzzing the memory allocators.
 *
 * The target, fuzz_one_input() (fuzz/fuzz_ops.c), decodes a byte string
 * into a sequence of slab, kmalloc and page allocator calls, checks every
 * object's contents and the allocators' bookkeeping, frees everything and
 * checks that nothing leaked. It returns 0, or nonzero after printing a
 * "fuzz: BUG: ..." line (a finding).
 *
 * The driver (fuzz/fuzz.c) feeds it: "fuzz=SECONDS[,SEED]" (parameter)
 * or "fuzz SECONDS [SEED]" (shell) runs random and mutated inputs for
 * that long; "fuzzfile=PATH[,PATH...]" replays saved inputs, read
 * through arch_read_file(). The parameters print KTAP, one result per
 * file or one for the random run, and end the run with the verdict.
 */
#ifndef FUZZ_FUZZ_H
#define FUZZ_FUZZ_H

#include "kernel/types.h"

/* Run one input: 0 if all was well, nonzero on a finding. */
int fuzz_one_input(const u8 *data, size_t len);

/* Operations fuzz_one_input() has decoded and run so far, all inputs. */
extern unsigned long fuzz_nr_ops;

/* A boot_run(): runs fuzz= or fuzzfile= and exits, if given. */
void fuzz_boot(void);

#endif /* FUZZ_FUZZ_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzz driver's arch hooks on the machine: no file system, so inputs
 * are not saved (a failing one is dumped on the console in hex) and no
 * file can be replayed.
 */
#include "kernel/errno.h"
#include "arch/arch.h"

void arch_fuzz_input(const u8 *data, size_t len)
{
}

long arch_read_file(const char *path, void *buf, size_t size)
{
	return -ENOSYS;
}

/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's entry point and version, shared by arch/ and kernel/. */
#ifndef KERNEL_KERNEL_H
#define KERNEL_KERNEL_H

#include "kernel/types.h"

#define KERNEL_NAME	"cram"
#define KERNEL_VERSION	"0.1.0"

/*
 * Called by the arch once the console, traps and clock work and the boot
 * command line is known. Never returns.
 */
__noreturn void start_kernel(void);

#endif /* KERNEL_KERNEL_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* Restartable sequences (kernel/rseq.h): x86_64 code, shared. */
#ifndef ASM_RSEQ_H
#define ASM_RSEQ_H

#include "arch/x86_rseq.h"

#endif /* ASM_RSEQ_H */

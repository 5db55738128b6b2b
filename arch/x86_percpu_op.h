/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one-instruction per-CPU update both builds use (they are x86_64
 * code alike): "op %val, <seg>var" sized by var, so that an interrupt
 * on this CPU cannot split the read-modify-write. seg is the segment
 * prefix of the arch's per-CPU base ("%%fs:" in the kernel; "" on the
 * host, where the address already holds this CPU's offset).
 */
#ifndef ARCH_X86_PERCPU_OP_H
#define ARCH_X86_PERCPU_OP_H

void __bad_percpu_size(void);	/* never defined: a link error */

#define x86_percpu_to_op(seg, op, var, val)				\
do {									\
	switch (sizeof(var)) {						\
	case 1:								\
		__asm__ __volatile__(op "b %1, " seg "%0"		\
				     : "+m"(var) : "qi"((u8)(val)));	\
		break;							\
	case 2:								\
		__asm__ __volatile__(op "w %1, " seg "%0"		\
				     : "+m"(var) : "ri"((u16)(val)));	\
		break;							\
	case 4:								\
		__asm__ __volatile__(op "l %1, " seg "%0"		\
				     : "+m"(var) : "ri"((u32)(val)));	\
		break;							\
	case 8:								\
		__asm__ __volatile__(op "q %1, " seg "%0"		\
				     : "+m"(var) : "re"((u64)(val)));	\
		break;							\
	default:							\
		__bad_percpu_size();					\
	}								\
} while (0)

#endif /* ARCH_X86_PERCPU_OP_H */

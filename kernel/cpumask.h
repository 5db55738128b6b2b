/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU masks (Linux's <linux/cpumask.h>): a bitmap of NR_CPUS bits, one
 * per CPU number.
 *
 * The kernel's three masks (kernel/cpu.c):
 *	cpu_possible_mask	CPUs that may ever run here: the firmware's
 *				(x86_64: the MADT's present CPUs, cut by
 *				nosmp/maxcpus=; the host: its CPU threads).
 *				Fixed before mm_core_init(): per-CPU data
 *				is sized by it.
 *	cpu_present_mask	CPUs found (here: the possible ones; no
 *				CPU is hot-added).
 *	cpu_online_mask		CPUs that run and take cross-CPU calls.
 *				A CPU sets its own bit as it comes up,
 *				with release order (set_cpu_online()).
 * nr_cpu_ids is one past the highest possible CPU: every CPU number the
 * kernel meets is below it, and arrays indexed by CPU need that many
 * entries. for_each_possible_cpu(), for_each_online_cpu() and
 * for_each_cpu() walk a mask in CPU order.
 *
 * cpumask_set_cpu() and cpumask_clear_cpu() are atomic (several CPUs may
 * change one mask at once), __cpumask_set_cpu()/__cpumask_clear_cpu()
 * are not. The whole-mask operations read words one at a time: on a
 * mask others change, a snapshot.
 */
#ifndef KERNEL_CPUMASK_H
#define KERNEL_CPUMASK_H

#include "arch/arch.h"
#include "lib/bitmap.h"

struct cpumask {
	DECLARE_BITMAP(bits, NR_CPUS);
};
typedef struct cpumask cpumask_t;

/* How many bits a mask operation looks at: every CPU number. */
#define nr_cpumask_bits		((unsigned int)NR_CPUS)

#define cpumask_bits(maskp)	((maskp)->bits)

extern unsigned int nr_cpu_ids;
extern struct cpumask __cpu_possible_mask, __cpu_present_mask,
		      __cpu_online_mask;
#define cpu_possible_mask	((const struct cpumask *)&__cpu_possible_mask)
#define cpu_present_mask	((const struct cpumask *)&__cpu_present_mask)
#define cpu_online_mask		((const struct cpumask *)&__cpu_online_mask)

static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *dstp)
{
	set_bit(cpu, cpumask_bits(dstp));
}

static inline void cpumask_clear_cpu(unsigned int cpu, struct cpumask *dstp)
{
	clear_bit(cpu, cpumask_bits(dstp));
}

static inline void __cpumask_set_cpu(unsigned int cpu, struct cpumask *dstp)
{
	__set_bit(cpu, cpumask_bits(dstp));
}

static inline void __cpumask_clear_cpu(unsigned int cpu, struct cpumask *dstp)
{
	__clear_bit(cpu, cpumask_bits(dstp));
}

/* Atomic: was cpu's bit set (it is set now)? */
static inline bool cpumask_test_and_set_cpu(unsigned int cpu,
					    struct cpumask *dstp)
{
	return test_and_set_bit(cpu, cpumask_bits(dstp));
}

/* Atomic: was cpu's bit set (it is clear now)? */
static inline bool cpumask_test_and_clear_cpu(unsigned int cpu,
					      struct cpumask *dstp)
{
	return test_and_clear_bit(cpu, cpumask_bits(dstp));
}

/* false for a CPU number out of range, as for one whose bit is clear. */
static inline bool cpumask_test_cpu(unsigned int cpu,
				    const struct cpumask *srcp)
{
	return cpu < nr_cpumask_bits && test_bit(cpu, cpumask_bits(srcp));
}

static inline void cpumask_clear(struct cpumask *dstp)
{
	bitmap_zero(cpumask_bits(dstp), nr_cpumask_bits);
}

/* The first CPU in the mask, or nr_cpumask_bits (>= nr_cpu_ids). */
static inline unsigned int cpumask_first(const struct cpumask *srcp)
{
	return find_first_bit(cpumask_bits(srcp), nr_cpumask_bits);
}

/* The first CPU in the mask after n (n = -1: from 0), else as above. */
static inline unsigned int cpumask_next(int n, const struct cpumask *srcp)
{
	return find_next_bit(cpumask_bits(srcp), nr_cpumask_bits,
			     (unsigned int)(n + 1));
}

static inline unsigned int cpumask_weight(const struct cpumask *srcp)
{
	return bitmap_weight(cpumask_bits(srcp), nr_cpumask_bits);
}

static inline bool cpumask_empty(const struct cpumask *srcp)
{
	return bitmap_empty(cpumask_bits(srcp), nr_cpumask_bits);
}

static inline bool cpumask_equal(const struct cpumask *src1p,
				 const struct cpumask *src2p)
{
	return bitmap_equal(cpumask_bits(src1p), cpumask_bits(src2p),
			    nr_cpumask_bits);
}

static inline void cpumask_copy(struct cpumask *dstp,
				const struct cpumask *srcp)
{
	bitmap_copy(cpumask_bits(dstp), cpumask_bits(srcp), nr_cpumask_bits);
}

/* *dstp = *src1p & *src2p; false if the result is empty. */
static inline bool cpumask_and(struct cpumask *dstp,
			       const struct cpumask *src1p,
			       const struct cpumask *src2p)
{
	return bitmap_and(cpumask_bits(dstp), cpumask_bits(src1p),
			  cpumask_bits(src2p), nr_cpumask_bits);
}

static inline void cpumask_or(struct cpumask *dstp,
			      const struct cpumask *src1p,
			      const struct cpumask *src2p)
{
	bitmap_or(cpumask_bits(dstp), cpumask_bits(src1p),
		  cpumask_bits(src2p), nr_cpumask_bits);
}

/* *dstp = *src1p & ~*src2p; false if the result is empty. */
static inline bool cpumask_andnot(struct cpumask *dstp,
				  const struct cpumask *src1p,
				  const struct cpumask *src2p)
{
	return bitmap_andnot(cpumask_bits(dstp), cpumask_bits(src1p),
			     cpumask_bits(src2p), nr_cpumask_bits);
}

#define for_each_cpu(cpu, mask)						\
	for ((cpu) = cpumask_first(mask); (cpu) < nr_cpumask_bits;	\
	     (cpu) = cpumask_next((int)(cpu), mask))

#define for_each_possible_cpu(cpu)	for_each_cpu((cpu), cpu_possible_mask)
#define for_each_present_cpu(cpu)	for_each_cpu((cpu), cpu_present_mask)
#define for_each_online_cpu(cpu)	for_each_cpu((cpu), cpu_online_mask)

#define num_possible_cpus()	cpumask_weight(cpu_possible_mask)
#define num_present_cpus()	cpumask_weight(cpu_present_mask)
#define num_online_cpus()	cpumask_weight(cpu_online_mask)

/*
 * Is cpu online? Whoever sees its bit also sees everything the CPU wrote
 * before it set it (set_cpu_online()).
 */
static inline bool cpu_online(unsigned int cpu)
{
	return cpu < nr_cpumask_bits &&
	       test_bit_acquire(cpu, cpumask_bits(cpu_online_mask));
}

static inline bool cpu_possible(unsigned int cpu)
{
	return cpumask_test_cpu(cpu, cpu_possible_mask);
}

static inline bool cpu_present(unsigned int cpu)
{
	return cpumask_test_cpu(cpu, cpu_present_mask);
}

/*
 * The arch's side (kernel/cpu.c). boot_cpu_init(): the calling CPU is
 * possible, present and online, first thing at boot. set_cpu_possible()
 * and set_cpu_present() come before setup_nr_cpu_ids(), which fixes
 * nr_cpu_ids, and all of it before mm_core_init(); set_cpu_online() at
 * any time, atomic, with release order.
 */
void boot_cpu_init(void);
void set_cpu_possible(unsigned int cpu, bool possible);
void set_cpu_present(unsigned int cpu, bool present);
void set_cpu_online(unsigned int cpu, bool online);
void setup_nr_cpu_ids(void);

/*
 * Per-CPU data sized by nr_cpu_ids at boot: each allocation says how
 * many bytes it took (percpu_account()); percpu_print() reports the sum
 * once the boot is done, as Linux's "percpu: Embedded ..." line.
 */
void percpu_account(size_t bytes);
void percpu_print(void);

#endif /* KERNEL_CPUMASK_H */

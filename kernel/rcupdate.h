/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Read-copy update (Linux's <linux/rcupdate.h>), classic non-preemptible
 * RCU: the design is at the top of kernel/rcu.c.
 *
 *	rcu_read_lock() / rcu_read_unlock()
 *		a read-side critical section; they nest, cost a per-CPU
 *		increment and decrement (no atomics, no barriers) and work
 *		in any context, interrupt handlers included. A reader must
 *		not wait for a grace period (it would wait for itself). No
 *		work function runs inside a reader (kernel/preempt.h).
 *	rcu_dereference(p) / rcu_assign_pointer(p, v)
 *		load a pointer a reader follows / publish one (release).
 *	call_rcu(head, func)
 *		func(head) runs after a grace period: once every CPU has
 *		left every read-side section it was in when call_rcu() was
 *		called. Any context. func runs on the CPU that queued it,
 *		with interrupts off (in the tick's hardirq context, the
 *		idle loop, or that CPU's own synchronize_rcu() or
 *		rcu_barrier() wait): it may free memory, take hardirq-safe
 *		locks, queue call_rcu(), and must not wait.
 *	kvfree_rcu(ptr, field) / kfree_rcu(ptr, field)
 *		kvfree(ptr) after a grace period, through ptr->field (a
 *		struct rcu_head, less than 4 KiB into *ptr): ptr may come
 *		from kmalloc or vmalloc (kvmalloc), as in Linux since 5.9,
 *		where kfree_rcu is kvfree_rcu. The callback's vfree() hands
 *		the area to vfree's work item (mm/vmalloc.h).
 *	kvfree_rcu(ptr) / kfree_rcu(ptr) / kfree_rcu_mightsleep(ptr)
 *		the same without an rcu_head: it allocates one
 *		(GFP_ATOMIC | __GFP_NOWARN), or else waits for a grace
 *		period itself (synchronize_rcu()) and frees at once; so it
 *		follows synchronize_rcu()'s rules.
 *	synchronize_rcu()
 *		return after a full grace period. A stretch of code with
 *		interrupts off counts as a reader (Linux's RCU-sched): it
 *		waits for every one that began before it.
 *	rcu_barrier()
 *		return once every callback queued before it has run.
 *
 * synchronize_rcu(), rcu_barrier() and kfree_rcu_mightsleep() wait: not
 * from an interrupt handler nor inside a read-side section (a WARNING
 * at the caller; synchronize_rcu() and rcu_barrier() then return at
 * once, kfree_rcu_mightsleep() queues with GFP_ATOMIC or leaks), and
 * with interrupts on. Each wait is bounded (RCU_WAIT_TIMEOUT_S): then a
 * report and a panic, never a hang.
 *
 * Bad input is reported at the caller and the kernel goes on: an
 * unbalanced rcu_read_unlock() (the nesting count stays at 0), call_rcu()
 * of a head already queued (ignored; seen only with debug objects on,
 * kernel/debugobjects.h: call_rcu() never reads the head it is given),
 * kfree_rcu() of a pointer neither a slab nor vmalloc holds (not freed).
 */
#ifndef KERNEL_RCUPDATE_H
#define KERNEL_RCUPDATE_H

#include "kernel/cpumask.h"
#include "kernel/bug.h"
#include "kernel/compiler.h"
#include "kernel/types.h"
#include "arch/arch.h"
#include "mm/mm_types.h"	/* struct rcu_head */

typedef void (*rcu_callback_t)(struct rcu_head *head);

/* A GP waits for the CPUs' ticks: under TCG a tick may come late. */
#define RCU_WAIT_TIMEOUT_S	120
#define RCU_STALL_TIMEOUT_DEFAULT	21	/* s, Linux's default */

/*
 * Read-side state of each CPU, written only by that CPU: the nesting
 * count, and what the outermost rcu_read_unlock() must do at once (one
 * load tests both, as Linux's rcu_read_unlock_special): need_qs, set
 * by the tick when it found this CPU inside a reader while a grace
 * period waits for it, so report the quiescent state; need_work, set
 * by an interrupt that found work waiting for the reader to end, so
 * run it (kernel/preempt.h).
 */
struct rcu_reader {
	int nesting;
	union {
		struct {
			bool need_qs;
			bool need_work;
		};
		u16 special;
	};
} __aligned(64);

extern struct rcu_reader rcu_readers[NR_CPUS];

void __rcu_read_unlock_bad(unsigned long caller);
void __rcu_read_unlock_special(void);

static __always_inline void rcu_read_lock(void)
{
	rcu_readers[arch_cpu_id()].nesting++;
	barrier();
}

static __always_inline void rcu_read_unlock(void)
{
	struct rcu_reader *r;

	barrier();
	r = &rcu_readers[arch_cpu_id()];
	if (unlikely(r->nesting <= 0))
		__rcu_read_unlock_bad(_THIS_IP_);
	else if (--r->nesting == 0 && unlikely(READ_ONCE(r->special)))
		__rcu_read_unlock_special();
}

/* Inside a read-side section on this CPU? */
static inline bool rcu_read_lock_held(void)
{
	return READ_ONCE(rcu_readers[arch_cpu_id()].nesting) > 0;
}

#define rcu_dereference(p)		READ_ONCE(p)
#define rcu_access_pointer(p)		READ_ONCE(p)
#define rcu_assign_pointer(p, v)	__atomic_store_n(&(p), (v), __ATOMIC_RELEASE)
#define RCU_INIT_POINTER(p, v)		WRITE_ONCE(p, v)

void call_rcu(struct rcu_head *head, rcu_callback_t func);
void synchronize_rcu(void);
void rcu_barrier(void);

/* kvfree_rcu(): an offset (< 4096) into the object stands for kvfree(). */
#define RCU_KFREE_OFFSET_MAX	4096
void __kvfree_rcu(struct rcu_head *head, unsigned long offset);
void kvfree_rcu_mightsleep(const void *ptr);

#define __kvfree_rcu_2(ptr, rhf) do {					\
	typeof(ptr) ___p = (ptr);					\
									\
	BUILD_BUG_ON(__builtin_offsetof(typeof(*___p), rhf) >=		\
		     RCU_KFREE_OFFSET_MAX);				\
	if (___p)							\
		__kvfree_rcu(&___p->rhf,				\
			     __builtin_offsetof(typeof(*___p), rhf));	\
} while (0)
#define __kvfree_rcu_1(ptr)	kvfree_rcu_mightsleep(ptr)
#define __kvfree_rcu_pick(_1, _2, name, ...)	name
#define kvfree_rcu(...)	\
	__kvfree_rcu_pick(__VA_ARGS__, __kvfree_rcu_2, __kvfree_rcu_1)(__VA_ARGS__)
#define kfree_rcu(...)			kvfree_rcu(__VA_ARGS__)
#define kfree_rcu_mightsleep(ptr)	kvfree_rcu_mightsleep(ptr)

/*
 * A CPU takes part in grace periods from rcu_cpu_starting() (Linux's
 * name), which it calls as it comes up, interrupts off, before it takes
 * an interrupt or runs work (x86_64's start_secondary(), the host's CPU
 * threads); rcu_init() does it for the boot CPU, from start_kernel().
 */
void rcu_init(void);
void rcu_cpu_starting(void);

/*
 * The arch and kernel/time.c call these: the tick (hardirq, interrupts
 * off) and an idle loop about to wait (interrupts off, no reader).
 */
void rcu_sched_clock_irq(void);
void rcu_idle(void);

/*
 * Tickless idle (kernel/time.c), interrupts off: whether this CPU has
 * callbacks to run (then it keeps ticking); it stops its tick in idle
 * and leaves the grace periods; its next interrupt brings it back.
 */
bool rcu_needs_cpu(void);
void rcu_idle_enter(void);
void rcu_idle_exit(void);

/* For the tests and the shell. */
struct rcu_stats {
	unsigned long gp_seq;		/* grace periods started */
	unsigned long completed;	/* grace periods ended */
	struct cpumask qsmask;		/* CPUs the current one waits for */
	struct cpumask online;		/* CPUs that take part */
	unsigned long queued;		/* callbacks queued, not yet run */
	unsigned long invoked;		/* callbacks run */
	unsigned long stalls;		/* stall reports */
};
void rcu_get_stats(struct rcu_stats *st);
/* Callbacks queued on every CPU and not run yet. */
unsigned long rcu_pending_callbacks(void);
/* rcu_cpu_stall_timeout= at run time (seconds, >= 1); the old value. */
unsigned int rcu_set_stall_timeout(unsigned int seconds);

#endif /* KERNEL_RCUPDATE_H */

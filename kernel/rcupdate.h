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

/**
 * __rcu_read_unlock_bad() - report an unbalanced rcu_read_unlock()
 * @caller: the address of the unlock, named in the warning
 *
 * Called by rcu_read_unlock() only; the nesting count stays at 0.
 *
 * Context: any context.
 */
void __rcu_read_unlock_bad(unsigned long caller);
/**
 * __rcu_read_unlock_special() - what the outermost rcu_read_unlock() owes
 *
 * Description: called by rcu_read_unlock() only, when this CPU's reader
 * state asks for it: reports the quiescent state a grace period waits
 * for (interrupts on only), and runs the work that waited for the
 * reader to end (kernel/preempt.h).
 *
 * Context: any context; it runs work only at a safe point.
 */
void __rcu_read_unlock_special(void);

/**
 * rcu_read_lock() - enter an RCU read-side critical section
 *
 * Description: the section lasts until the matching rcu_read_unlock();
 * sections nest. It costs a per-CPU increment: no atomics, no
 * barriers beyond the compiler's. Inside it no work function runs on
 * this CPU and nothing may wait for a grace period.
 *
 * Context: any context, interrupt handlers and interrupts off included.
 */
static __always_inline void rcu_read_lock(void)
{
	rcu_readers[arch_cpu_id()].nesting++;
	barrier();
}

/**
 * rcu_read_unlock() - leave an RCU read-side critical section
 *
 * Description: the outermost unlock reports a quiescent state the tick
 * found pending and runs work that waited for the reader to end. An
 * unlock without a lock is warned about at the caller and ignored.
 *
 * Context: any context, as the rcu_read_lock() it ends.
 */
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

/**
 * rcu_read_lock_held() - is this CPU inside an RCU read-side section
 *
 * Description: a stretch with interrupts off is not counted, though
 * synchronize_rcu() waits for it too.
 *
 * Context: any context.
 * Return: true between rcu_read_lock() and its rcu_read_unlock().
 */
static inline bool rcu_read_lock_held(void)
{
	return READ_ONCE(rcu_readers[arch_cpu_id()].nesting) > 0;
}

/**
 * rcu_dereference() - load a pointer an RCU reader will follow
 * @p: the pointer, published with rcu_assign_pointer()
 *
 * A single load (READ_ONCE()); the CPUs this kernel runs on order the
 * loads through it.
 *
 * Context: inside an RCU read-side section, or where the pointer
 * cannot change.
 * Return: the pointer's value.
 */
#define rcu_dereference(p)		READ_ONCE(p)
/**
 * rcu_access_pointer() - load an RCU pointer's value without following it
 * @p: the pointer
 *
 * For a test against NULL, say, outside a reader.
 *
 * Context: any context.
 * Return: the pointer's value.
 */
#define rcu_access_pointer(p)		READ_ONCE(p)
/**
 * rcu_assign_pointer() - publish a pointer to RCU readers
 * @p: the pointer to store into
 * @v: the new value
 *
 * A store with release order: a reader that loads @v sees what was
 * written to it before.
 *
 * Context: any context; writers serialise among themselves.
 */
#define rcu_assign_pointer(p, v)	__atomic_store_n(&(p), (v), __ATOMIC_RELEASE)
/**
 * RCU_INIT_POINTER() - store an RCU pointer without ordering
 * @p: the pointer to store into
 * @v: the new value: NULL, or something readers cannot reach yet
 *
 * Context: any context.
 */
#define RCU_INIT_POINTER(p, v)		WRITE_ONCE(p, v)

/**
 * call_rcu() - run a function after a grace period
 * @head: an rcu_head, usually inside the object the callback frees; it
 *	must not be queued already (seen, warned about and ignored only
 *	with debug objects on)
 * @func: called with @head once every CPU has left every read-side
 *	section it was in when call_rcu() was called
 *
 * @func runs on the CPU that queued it, with interrupts off, from the
 * tick, the idle loop or that CPU's own synchronize_rcu() or
 * rcu_barrier() wait: it may free memory, take hardirq-safe locks and
 * call call_rcu(), and must not wait. A NULL @head or @func is warned
 * about and ignored.
 *
 * Context: any context, interrupt handlers, interrupts off and RCU
 * readers included; never waits.
 */
void call_rcu(struct rcu_head *head, rcu_callback_t func);
/**
 * synchronize_rcu() - wait for a grace period
 *
 * Description: returns once every read-side section that began before
 * the call has ended; a stretch with interrupts off counts as one.
 * The wait spins, and this CPU meanwhile reports its quiescent state
 * and runs its ready callbacks. After RCU_WAIT_TIMEOUT_S it reports
 * and panics.
 *
 * Context: interrupts on, not an interrupt handler, not inside an RCU
 * reader: there it warns and returns at once.
 */
void synchronize_rcu(void);
/**
 * rcu_barrier() - wait for every queued RCU callback
 *
 * Description: returns once every callback queued, on any CPU, before
 * the call has run. One caller at a time; the others wait. Bounded as
 * synchronize_rcu() is.
 *
 * Context: as synchronize_rcu(); also waits for the other CPUs (IPIs).
 */
void rcu_barrier(void);

/* kvfree_rcu(): an offset (< 4096) into the object stands for kvfree(). */
#define RCU_KFREE_OFFSET_MAX	4096
/**
 * __kvfree_rcu() - queue an object for kvfree() after a grace period
 * @head: the rcu_head inside the object
 * @offset: @head's offset in the object, below RCU_KFREE_OFFSET_MAX
 *
 * Called through kvfree_rcu(). An object neither a slab nor vmalloc
 * holds is warned about and not freed.
 *
 * Context: as call_rcu().
 */
void __kvfree_rcu(struct rcu_head *head, unsigned long offset);
/**
 * kvfree_rcu_mightsleep() - kvfree() an object after a grace period
 * @ptr: the object, from kmalloc() or vmalloc(); NULL is ignored; one
 *	neither a slab nor vmalloc holds is warned about and not freed
 *
 * An rcu_head is allocated for it (GFP_ATOMIC | __GFP_NOWARN); failing
 * that, it waits with synchronize_rcu() and frees @ptr at once.
 *
 * Context: as synchronize_rcu(): interrupts on, not a handler, not a
 * reader. Called there it warns, then queues if it can allocate, else
 * leaks @ptr rather than waits.
 */
void kvfree_rcu_mightsleep(const void *ptr);

/**
 * __kvfree_rcu_2() - kvfree_rcu() with an rcu_head field
 * @ptr: the object; NULL is ignored
 * @rhf: the name of its struct rcu_head field, less than
 *	RCU_KFREE_OFFSET_MAX bytes in (else the build fails)
 *
 * Context: as call_rcu().
 */
#define __kvfree_rcu_2(ptr, rhf) do {					\
	typeof(ptr) ___p = (ptr);					\
									\
	BUILD_BUG_ON(__builtin_offsetof(typeof(*___p), rhf) >=		\
		     RCU_KFREE_OFFSET_MAX);				\
	if (___p)							\
		__kvfree_rcu(&___p->rhf,				\
			     __builtin_offsetof(typeof(*___p), rhf));	\
} while (0)
/**
 * __kvfree_rcu_1() - kvfree_rcu() without an rcu_head
 * @ptr: the object
 *
 * Context: as kvfree_rcu_mightsleep().
 */
#define __kvfree_rcu_1(ptr)	kvfree_rcu_mightsleep(ptr)
/**
 * __kvfree_rcu_pick() - choose a kvfree_rcu() form by its argument count
 * @_1: the first argument
 * @_2: the second argument, or the two-argument form's name
 * @name: the form's name
 * @...: what is left
 *
 * Context: any context (it only expands).
 */
#define __kvfree_rcu_pick(_1, _2, name, ...)	name
/**
 * kvfree_rcu() - kvfree() an object after a grace period
 * @...: the object, and optionally the name of its struct rcu_head field
 *
 * With the field: as call_rcu(), less than RCU_KFREE_OFFSET_MAX bytes
 * into the object; the object may come from kmalloc() or vmalloc(). The
 * callback's vfree() hands a vmalloc() area to vfree()'s work item.
 * Without it: kvfree_rcu_mightsleep().
 *
 * Context: with the field, any context; without it, as
 * kvfree_rcu_mightsleep().
 */
#define kvfree_rcu(...)	\
	__kvfree_rcu_pick(__VA_ARGS__, __kvfree_rcu_2, __kvfree_rcu_1)(__VA_ARGS__)
/**
 * kfree_rcu() - the same as kvfree_rcu()
 * @...: the object, and optionally the name of its struct rcu_head field
 *
 * Context: as kvfree_rcu().
 */
#define kfree_rcu(...)			kvfree_rcu(__VA_ARGS__)
/**
 * kfree_rcu_mightsleep() - the same as kvfree_rcu_mightsleep()
 * @ptr: the object
 *
 * Context: as kvfree_rcu_mightsleep().
 */
#define kfree_rcu_mightsleep(ptr)	kvfree_rcu_mightsleep(ptr)

/**
 * rcu_init() - make the boot CPU take part in grace periods
 *
 * Context: boot, once, from start_kernel().
 */
void rcu_init(void);
/**
 * rcu_cpu_starting() - make this CPU take part in grace periods
 *
 * Description: a CPU calls it as it comes up, before it takes an
 * interrupt or runs work (x86_64's start_secondary(), the host's CPU
 * threads). A second call does nothing.
 *
 * Context: interrupts off.
 */
void rcu_cpu_starting(void);

/**
 * rcu_sched_clock_irq() - RCU's share of the tick
 *
 * Description: reports this CPU's quiescent state if it is in no
 * reader (else asks the reader's end to), checks for stalls and runs
 * the callbacks whose grace period has ended.
 *
 * Context: the tick's interrupt handler, interrupts off.
 */
void rcu_sched_clock_irq(void);
/**
 * rcu_idle() - RCU's share of an idle loop about to wait
 *
 * Description: reports this CPU's quiescent state and runs its ready
 * callbacks. Inside a reader it warns and does nothing.
 *
 * Context: interrupts off, outside any RCU reader.
 */
void rcu_idle(void);

/**
 * rcu_needs_cpu() - has this CPU RCU callbacks queued
 *
 * Description: tickless idle asks: if so, the CPU keeps its tick to run
 * them.
 *
 * Context: interrupts off.
 * Return: true if callbacks are queued on this CPU.
 */
bool rcu_needs_cpu(void);
/**
 * rcu_idle_enter() - this CPU stops its tick and leaves the grace periods
 *
 * Description: its quiescent state is reported for the grace period in
 * progress, and later ones do not wait for it. Inside a reader it warns
 * and does nothing.
 *
 * Context: the idle loop, interrupts off, outside any RCU reader.
 */
void rcu_idle_enter(void);
/**
 * rcu_idle_exit() - this CPU takes part in grace periods again
 *
 * Description: called at its first interrupt after rcu_idle_enter();
 * otherwise it does nothing.
 *
 * Context: interrupts off.
 */
void rcu_idle_exit(void);

/**
 * struct rcu_stats - RCU's counters, for the tests and the shell
 * @gp_seq: grace periods started
 * @completed: grace periods ended
 * @qsmask: the CPUs the current grace period waits for
 * @online: the CPUs that take part
 * @queued: callbacks queued and not yet run
 * @invoked: callbacks run
 * @stalls: stall reports
 *
 * rcu_get_stats() fills it in.
 */
struct rcu_stats {
	unsigned long gp_seq;
	unsigned long completed;
	struct cpumask qsmask;
	struct cpumask online;
	unsigned long queued;
	unsigned long invoked;
	unsigned long stalls;
};
/**
 * rcu_get_stats() - read RCU's counters
 * @st: filled in
 *
 * Context: any context; spins on RCU's lock with interrupts off.
 */
void rcu_get_stats(struct rcu_stats *st);
/**
 * rcu_pending_callbacks() - callbacks queued and not run yet
 *
 * Context: any context; read without locks, a snapshot.
 * Return: the count over every CPU.
 */
unsigned long rcu_pending_callbacks(void);
/**
 * rcu_set_stall_timeout() - set rcu_cpu_stall_timeout= at run time
 * @seconds: the new timeout, at least 1; 0 is warned about and ignored
 *
 * Context: any context.
 * Return: the old timeout, in seconds.
 */
unsigned int rcu_set_stall_timeout(unsigned int seconds);

#endif /* KERNEL_RCUPDATE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Spinlocks: a test-and-set lock on the compiler's atomics, with the
 * irqsave variants Linux code expects. Real on every build (the host
 * build runs CPUs as threads), cheap when uncontended: one exchange to
 * take, one release store to drop. A held lock disables preemption
 * (kernel/preempt.h): no work function runs on a CPU that holds one.
 *
 * With CONFIG_PROVE_LOCKING (kernel/lockdep.h) each lock also carries a
 * lockdep_map: its class, from the spin_lock_init() call site or, for
 * DEFINE_SPINLOCK(), the lock itself. Every operation tells the validator
 * first (an acquisition is checked before the CPU spins, so a deadlock is
 * reported before it hangs). Without it, dep_map is a zero-length array
 * and the hooks are dead code: the lock is the bare word it always was.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "kernel/types.h"
#include "kernel/lockdep.h"
#include "kernel/preempt.h"
#include "arch/arch.h"

/*
 * With the validator, the lock functions must be inlined into their
 * callers: the hooks name their return address as the site taking the
 * lock. Without it, plain inline, the compiler's choice as ever.
 */
#define __spin_inline	inline LOCKDEP_ONLY(__attribute__((always_inline)))

typedef struct {
	int locked;
	struct lockdep_map dep_map[CONFIG_PROVE_LOCKING];
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(lockname)					\
	{ .locked = 0,							\
	  LOCKDEP_ONLY(.dep_map = { STATIC_LOCKDEP_MAP_INIT(#lockname) }) }
#define DEFINE_SPINLOCK(x)	spinlock_t x = __SPIN_LOCK_UNLOCKED(x)

static __spin_inline struct lockdep_map *spin_dep_map(spinlock_t *lock)
{
	return lock->dep_map;
}

static __spin_inline void __spin_lock_init(spinlock_t *lock, const char *name,
					     const struct lock_class_key *key)
{
	lock->locked = 0;
	if (IS_ENABLED(CONFIG_PROVE_LOCKING))
		lockdep_init_map(spin_dep_map(lock), name, key);
}

/* The lock's class is this call site's (one static key per site). */
#define spin_lock_init(lock)						\
	do {								\
		static struct lock_class_key __key __maybe_unused = {	\
			.file = __FILE__ };				\
									\
		__spin_lock_init(lock, #lock,				\
				 IS_ENABLED(CONFIG_PROVE_LOCKING) ?	\
				 &__key : NULL);			\
	} while (0)

static __spin_inline void arch_spin_lock(spinlock_t *lock)
{
	while (__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE)) {
		while (__atomic_load_n(&lock->locked, __ATOMIC_RELAXED))
			arch_cpu_relax();
	}
}

static __spin_inline void spin_lock(spinlock_t *lock)
{
	preempt_disable();
	if (IS_ENABLED(CONFIG_PROVE_LOCKING))
		lock_acquire(spin_dep_map(lock), 0, false);
	arch_spin_lock(lock);
}

/*
 * Take a second lock of a class whose first is held, in an order the
 * caller guarantees: subclass (1 .. MAX_LOCKDEP_SUBCLASSES - 1) makes it
 * a class of its own for the validator.
 */
static __spin_inline void spin_lock_nested(spinlock_t *lock,
					     unsigned int subclass)
{
	preempt_disable();
	if (IS_ENABLED(CONFIG_PROVE_LOCKING))
		lock_acquire(spin_dep_map(lock), subclass, false);
	arch_spin_lock(lock);
}

static __spin_inline bool spin_trylock(spinlock_t *lock)
{
	preempt_disable();
	if (__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE)) {
		preempt_enable();
		return false;
	}
	if (IS_ENABLED(CONFIG_PROVE_LOCKING))
		lock_acquire(spin_dep_map(lock), 0, true);
	return true;
}

static __spin_inline void __spin_release(spinlock_t *lock)
{
	if (IS_ENABLED(CONFIG_PROVE_LOCKING))
		lock_release(spin_dep_map(lock));
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

static __spin_inline void spin_unlock(spinlock_t *lock)
{
	__spin_release(lock);
	preempt_enable();
}

static __spin_inline bool spin_is_locked(spinlock_t *lock)
{
	return __atomic_load_n(&lock->locked, __ATOMIC_RELAXED);
}

#define spin_lock_irqsave(lock, flags)			\
	do {						\
		(flags) = arch_irq_save();		\
		spin_lock(lock);			\
	} while (0)

static __spin_inline void spin_unlock_irqrestore(spinlock_t *lock,
						   unsigned long flags)
{
	__spin_release(lock);
	if (IS_ENABLED(CONFIG_PROVE_LOCKING) && !arch_irqs_disabled_flags(flags))
		lockdep_hardirqs_on();
	arch_irq_restore(flags);
	preempt_enable();	/* interrupts as they were: work may run */
}

/*
 * The caller says interrupts are off: it takes or holds a lock that an
 * interrupt handler may take too. A lockdep report naming this call site
 * if they are on.
 */
#define lockdep_assert_irqs_disabled()					\
	do {								\
		if (IS_ENABLED(CONFIG_PROVE_LOCKING) &&			\
		    !arch_irqs_disabled()) {				\
			lock_assert_irqs_disabled_failed();		\
			barrier();	/* no tail call: keep the site */ \
		}							\
	} while (0)

/*
 * The caller says it holds lock: WARN (a lockdep report naming the lock
 * and this call site) if this CPU does not.
 */
#define lockdep_assert_held(lock)					\
	do {								\
		if (IS_ENABLED(CONFIG_PROVE_LOCKING)) {			\
			lock_assert_held(spin_dep_map(lock));		\
			barrier();	/* no tail call: keep the site */ \
		}							\
	} while (0)

#endif /* KERNEL_SPINLOCK_H */

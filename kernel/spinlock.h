/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Spinlocks: a test-and-set lock on the compiler's atomics, with the
 * irqsave variants Linux code expects. Real on every build (the host
 * build runs CPUs as threads), cheap when uncontended: one exchange to
 * take, one release store to drop.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "kernel/types.h"
#include "arch/arch.h"

typedef struct {
	int locked;
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED	{ 0 }
#define DEFINE_SPINLOCK(x)	spinlock_t x = __SPIN_LOCK_UNLOCKED

static inline void spin_lock_init(spinlock_t *lock)
{
	lock->locked = 0;
}

static inline void spin_lock(spinlock_t *lock)
{
	while (__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE)) {
		while (__atomic_load_n(&lock->locked, __ATOMIC_RELAXED))
			arch_cpu_relax();
	}
}

static inline bool spin_trylock(spinlock_t *lock)
{
	return !__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE);
}

static inline void spin_unlock(spinlock_t *lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

static inline bool spin_is_locked(spinlock_t *lock)
{
	return __atomic_load_n(&lock->locked, __ATOMIC_RELAXED);
}

#define spin_lock_irqsave(lock, flags)			\
	do {						\
		(flags) = arch_irq_save();		\
		spin_lock(lock);			\
	} while (0)

static inline void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
	spin_unlock(lock);
	arch_irq_restore(flags);
}

#endif /* KERNEL_SPINLOCK_H */

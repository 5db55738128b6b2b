/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lockdep: a small lock validator in the spirit of Linux's.
 *
 * Lock classes. Every lock belongs to a class, and the rules are about
 * classes, not instances: all node list_locks are one class, all zone
 * locks another. A lock initialised by spin_lock_init() gets the class of
 * that call site (the macro plants a static struct lock_class_key there,
 * as Linux does); a lock defined by DEFINE_SPINLOCK() is a class of its
 * own, keyed by its address. The class is named after the lock as written
 * at that site ("&n->list_lock", "slab_lock"). spin_lock_nested() takes a
 * lock as subclass 1..7 of its class, a class of its own: the annotation
 * for taking two locks of one class in a fixed order.
 *
 * What is checked, before each acquisition (trylocks are only recorded):
 *  - recursion: this CPU already holds the same lock, or a lock of the
 *    same class and subclass;
 *  - order: every lock this CPU holds becomes a dependency "held -> new"
 *    between classes, kept in a matrix of MAX_LOCK_CLASSES bits squared.
 *    A new dependency that closes a cycle (new -> ... -> held seen before)
 *    is a possible deadlock and is reported instead of being added;
 *  - on release: the lock must be held by this CPU;
 *  - lockdep_assert_held(): the lock must be held by this CPU.
 *  - lockdep_assert_irqs_disabled(): interrupts must be off here.
 *  - interrupt safety (kernel/lockdep.c has the details): a class taken
 *    in an interrupt handler and with interrupts on elsewhere ("inconsistent
 *    lock state"), and a dependency from a class taken in a handler to one
 *    taken with interrupts on ("HARDIRQ-safe -> HARDIRQ-unsafe lock order",
 *    "irq lock inversion"). Trylocks count only outside handlers.
 * Each problem prints one report ("WARNING: possible circular locking
 * dependency detected" and so on) naming the classes, the call sites and
 * the CPU, and is reported once (per pair of classes, or per class); the
 * bookkeeping then goes on as if nothing were wrong (the lock is recorded
 * as held when taken; an unlock of a lock not held changes nothing).
 *
 * State. Per CPU (arch_cpu_id()): a stack of the locks held, MAX_LOCK_DEPTH
 * deep, touched only by that CPU, so no lock guards it. Shared: the class
 * table and the dependency matrix, grown by atomic operations; a raw lock
 * the validator does not track serialises only the registering of a new
 * class. While the validator runs on a CPU, lock operations of that CPU
 * (printk's logbuf_lock while a report prints) are not tracked, so a
 * report never recurses.
 *
 * Cost. CONFIG_PROVE_LOCKING (0 or 1, from the Makefile's LOCKDEP) is a
 * constant: with 0, spinlock_t is the bare lock word and every hook is a
 * dead branch, so the locking code is what it is without a validator.
 */
#ifndef KERNEL_LOCKDEP_H
#define KERNEL_LOCKDEP_H

#include "kernel/types.h"

_Static_assert(CONFIG_PROVE_LOCKING == 0 || CONFIG_PROVE_LOCKING == 1,
	       "the Makefile sets CONFIG_PROVE_LOCKING to 0 or 1");

#define MAX_LOCKDEP_SUBCLASSES	8
#define SINGLE_DEPTH_NESTING	1

/*
 * Its address is the class: one static key per spin_lock_init() site,
 * which also names the site's file (the lock-order check reads it).
 */
struct lock_class_key {
	char subkeys[MAX_LOCKDEP_SUBCLASSES];
	const char *file;
};

struct lock_class;

/*
 * What a lock carries for the validator. key NULL: the map's own address
 * is the key (a lock defined statically). class_cache caches the lookup
 * of subclass 0.
 * Packed to 4-byte alignment when the validator is off, so that the
 * zero-length array of these in spinlock_t adds neither size nor
 * alignment to it.
 */
struct lockdep_map {
	const char *name;
	const struct lock_class_key *key;
	struct lock_class *class_cache;
} __packed __aligned(CONFIG_PROVE_LOCKING ? 8 : 4);

/*
 * Expand the arguments only when the validator is built in: for static
 * initialisers, where a constant branch cannot help.
 */
#define __lockdep_if_0(...)
#define __lockdep_if_1(...)		__VA_ARGS__
#define ___lockdep_if(on, ...)		__lockdep_if_##on(__VA_ARGS__)
#define __lockdep_if(on, ...)		___lockdep_if(on, __VA_ARGS__)
#define LOCKDEP_ONLY(...)		__lockdep_if(CONFIG_PROVE_LOCKING, __VA_ARGS__)

#define STATIC_LOCKDEP_MAP_INIT(lockname)	{ .name = lockname }

/*
 * The hooks. Each takes the call site from its return address, so callers
 * must be inline (spin_lock and friends are __always_inline): the site
 * reported is then the line that took the lock.
 */
void lockdep_init_map(struct lockdep_map *map, const char *name,
		      const struct lock_class_key *key);
void lock_acquire(struct lockdep_map *map, unsigned int subclass, bool trylock);
void lock_release(struct lockdep_map *map);
/* Interrupts go on (outside a handler): the held locks become unsafe. */
void lockdep_hardirqs_on(void);
void lock_assert_held(struct lockdep_map *map);
/* Report a lockdep_assert_irqs_disabled() that failed (kernel/spinlock.h). */
void lock_assert_irqs_disabled_failed(void);
/*
 * Print every class and every dependency seen so far, one per line
 * ("lockdep: class IDX NAME FILE", "lockdep: dep IDX IDX": the second
 * taken while the first was held), for tools/testing/lock_order.py.
 */
void lockdep_print_graph(void);
/* Does this CPU hold the lock? (true when the validator is off) */
bool lock_is_held(const struct lockdep_map *map);

/* False once something turned the validator off (a panic). */
extern bool debug_locks;
/* Turn the validator off for good (the panic path); returns the old state. */
bool debug_locks_off(void);

/* How many reports the validator has printed (tests). */
extern unsigned long lockdep_reports;

/*
 * For tests only: forget every dependency and every "already reported"
 * mark, so a test can provoke the same report again. The classes and the
 * locks held stay. Other CPUs must not take locks meanwhile.
 */
void lockdep_reset_for_test(void);

/* The number of locks this CPU holds, as the validator sees it (tests). */
unsigned int lockdep_depth(void);

/*
 * The proof that a lockdep_assert_held() fires: run() calls the function
 * holding the assertion without its lock, in a way that changes nothing
 * else (an empty private zone, a private cache, a count of 0). The
 * lockdep suite runs each one and expects exactly one report naming the
 * lock class. Registered next to the function with LOCKDEP_ASSERT_TEST().
 */
struct lockdep_assert_test {
	const char *func;	/* the function asserting */
	const char *lock;	/* its lock, as the report names the class */
	void (*run)(void);
	const char *run_name;
};

#define __LOCKDEP_ASSERT_TEST(fn, lockname, runner)			\
	static const struct lockdep_assert_test __lockdep_assert_##fn = { \
		.func = #fn, .lock = lockname,				\
		.run = runner, .run_name = #runner			\
	};								\
	static const struct lockdep_assert_test *const			\
	__lockdep_assert_ptr_##fn __used					\
	__section("lockdep_assert_tests") = &__lockdep_assert_##fn

/*
 * Without the validator nothing is registered and the runners (mark them
 * __maybe_unused) are dropped: no extra caller changes how the compiler
 * treats the functions they call.
 */
#define LOCKDEP_ASSERT_TEST(fn, lockname, runner)			\
	LOCKDEP_ONLY(__LOCKDEP_ASSERT_TEST(fn, lockname, runner))

#endif /* KERNEL_LOCKDEP_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * The lock validator (kernel/lockdep.c): it is built in, each misuse
 * gives its one report (order inversion, directly and through a third
 * class; recursion on one lock and within one class; unlock of a lock
 * not held; lockdep_assert_held on a lock not held), correct nesting
 * gives none, and a report comes once until lockdep_reset_for_test().
 * Interrupt safety: a class taken in an interrupt handler (a self-IPI)
 * and with interrupts on elsewhere is an inconsistent lock state, a
 * dependency from such a hardirq-safe class to a hardirq-unsafe one is
 * reported whichever half comes first, and locks taken with interrupts
 * off everywhere outside the handler give no report, nor does a trylock
 * in the handler. Interrupts turned on while such a lock is held are the
 * same inconsistency, named where they went on.
 *
 * The locks here are this file's own, so their classes are too. Each
 * case starts from a clean dependency graph (lockdep_reset_for_test());
 * the locks of the rest of the kernel keep their classes.
 */
#include "kernel/cpumask.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/lockdep.h"
#include "kernel/spinlock.h"
#include "lib/ktest/ktest.h"
#include "lib/sprintf.h"
#include "lib/string.h"

static DEFINE_SPINLOCK(ld_lock_a);
static DEFINE_SPINLOCK(ld_lock_b);
static DEFINE_SPINLOCK(ld_lock_c);
static DEFINE_SPINLOCK(ld_lock_d);
static DEFINE_SPINLOCK(ld_irq_lock);
static DEFINE_SPINLOCK(ld_irq_lock2);
static DEFINE_SPINLOCK(ld_on_lock);
static DEFINE_SPINLOCK(ld_on_lock2);
static DEFINE_SPINLOCK(ld_on_inner);

/* One spin_lock_init() site: every lock initialised here is one class. */
static void ld_init_same_class(spinlock_t *lock)
{
	spin_lock_init(lock);
}

static __noinline void ld_take_pair(spinlock_t *outer, spinlock_t *inner)
{
	spin_lock(outer);
	spin_lock(inner);
	spin_unlock(inner);
	spin_unlock(outer);
}

/* Every case but the first needs the validator (LOCKDEP=1). */
static void ld_setup(struct ktest *t)
{
	if (!IS_ENABLED(CONFIG_PROVE_LOCKING))
		ktest_skip(t, "the lock validator is not built in (LOCKDEP=0)");
	lockdep_reset_for_test();
	KTEST_ASSERT_EQ(t, lockdep_depth(), 0U);
}

/* The build `make test` uses has the validator in, and on. */
static void test_lockdep_built_in(struct ktest *t)
{
	unsigned long before = lockdep_reports;

	KTEST_ASSERT_TRUE(t, IS_ENABLED(CONFIG_PROVE_LOCKING));
	KTEST_ASSERT_TRUE(t, debug_locks);
	ld_setup(t);
	spin_lock(&ld_lock_a);
	KTEST_EXPECT_EQ(t, lockdep_depth(), 1U);
	KTEST_EXPECT_TRUE(t, lock_is_held(spin_dep_map(&ld_lock_a)));
	KTEST_EXPECT_FALSE(t, lock_is_held(spin_dep_map(&ld_lock_b)));
	spin_unlock(&ld_lock_a);
	KTEST_EXPECT_EQ(t, lockdep_depth(), 0U);
	KTEST_EXPECT_EQ(t, lockdep_reports, before);
}

/* A then B, later B then A: one report naming both locks and sites. */
static void test_order_inversion(struct ktest *t)
{
	ld_setup(t);
	ld_take_pair(&ld_lock_a, &ld_lock_b);
	ktest_capture_start(t, "WARNING:");
	ld_take_pair(&ld_lock_b, &ld_lock_a);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "WARNING: possible circular locking dependency detected");
	KTEST_EXPECT_CAPTURED(t, "is trying to acquire ld_lock_a");
	KTEST_EXPECT_CAPTURED(t, "while holding ld_lock_b");
	KTEST_EXPECT_CAPTURED(t, "ld_lock_a held (taken at ld_take_pair+");
	KTEST_EXPECT_CAPTURED(t, "then ld_lock_b taken at ld_take_pair+");
	KTEST_EXPECT_CAPTURED(t, "cpu 0 ");
	KTEST_EXPECT_EQ(t, lockdep_depth(), 0U);
}

/* The same inversion again: no second report, until a reset. */
static void test_order_inversion_once(struct ktest *t)
{
	ld_setup(t);
	ld_take_pair(&ld_lock_a, &ld_lock_b);
	ktest_capture_start(t, "WARNING:");
	ld_take_pair(&ld_lock_b, &ld_lock_a);
	ld_take_pair(&ld_lock_b, &ld_lock_a);
	ld_take_pair(&ld_lock_b, &ld_lock_a);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	lockdep_reset_for_test();
	ld_take_pair(&ld_lock_a, &ld_lock_b);
	ktest_capture_start(t, "WARNING: possible circular");
	ld_take_pair(&ld_lock_b, &ld_lock_a);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
}

/* A -> B and B -> C make C -> A a cycle through a third class. */
static void test_order_inversion_chain(struct ktest *t)
{
	ld_setup(t);
	ld_take_pair(&ld_lock_a, &ld_lock_b);
	ld_take_pair(&ld_lock_b, &ld_lock_c);
	ktest_capture_start(t, "WARNING:");
	ld_take_pair(&ld_lock_c, &ld_lock_a);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "possible circular locking dependency");
	KTEST_EXPECT_CAPTURED(t, "ld_lock_a held (taken at");
	KTEST_EXPECT_CAPTURED(t, "ld_lock_b held (taken at");
	KTEST_EXPECT_CAPTURED(t, "then ld_lock_c taken at");
}

/* A consistent order, repeated, and unrelated locks: silence. */
static void test_correct_nesting(struct ktest *t)
{
	unsigned long before = lockdep_reports;

	ld_setup(t);
	ktest_capture_start(t, "WARNING:");
	for (int i = 0; i < 100; i++) {
		ld_take_pair(&ld_lock_a, &ld_lock_b);
		ld_take_pair(&ld_lock_b, &ld_lock_c);
		spin_lock(&ld_lock_a);
		spin_lock(&ld_lock_b);
		spin_lock(&ld_lock_c);
		spin_unlock(&ld_lock_b);	/* out of order is fine */
		spin_unlock(&ld_lock_c);
		spin_unlock(&ld_lock_a);
		spin_lock(&ld_lock_d);
		spin_unlock(&ld_lock_d);
		ld_take_pair(&ld_lock_d, &ld_lock_a);
	}
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
	KTEST_EXPECT_EQ(t, lockdep_reports, before);
	KTEST_EXPECT_EQ(t, lockdep_depth(), 0U);
}

/* Two locks of one class, nested without an annotation. */
static void test_recursion_same_class(struct ktest *t)
{
	spinlock_t x, y;

	ld_setup(t);
	ld_init_same_class(&x);
	ld_init_same_class(&y);
	ktest_capture_start(t, "WARNING:");
	ld_take_pair(&x, &y);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "WARNING: possible recursive locking detected");
	KTEST_EXPECT_CAPTURED(t, "is trying to acquire lock");
	KTEST_EXPECT_CAPTURED(t, "taken at ld_take_pair+");
	KTEST_EXPECT_CAPTURED(t, "another lock of the same class");
	KTEST_EXPECT_EQ(t, lockdep_depth(), 0U);

	/* Said to be ordered: a subclass of its own, no report. */
	lockdep_reset_for_test();
	ktest_capture_start(t, "WARNING:");
	spin_lock(&x);
	spin_lock_nested(&y, SINGLE_DEPTH_NESTING);
	spin_unlock(&y);
	spin_unlock(&x);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
}

/*
 * The same lock twice would spin forever, so the second acquisition is
 * told to the validator alone (what spin_lock does before it spins).
 */
static void test_recursion_same_lock(struct ktest *t)
{
	ld_setup(t);
	spin_lock(&ld_lock_a);
	ktest_capture_start(t, "WARNING:");
	lock_acquire(spin_dep_map(&ld_lock_a), 0, false);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "WARNING: possible recursive locking detected");
	KTEST_EXPECT_CAPTURED(t, "is trying to acquire ld_lock_a");
	KTEST_EXPECT_CAPTURED(t, "test_recursion_same_lock+");
	KTEST_EXPECT_CAPTURED(t, "the same lock");
	lock_release(spin_dep_map(&ld_lock_a));
	spin_unlock(&ld_lock_a);
	KTEST_EXPECT_EQ(t, lockdep_depth(), 0U);
}

/* Unlocking a lock this CPU does not hold changes nothing else. */
static void test_bad_unlock(struct ktest *t)
{
	ld_setup(t);
	spin_lock(&ld_lock_b);
	ktest_capture_start(t, "WARNING:");
	spin_unlock(&ld_lock_a);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "WARNING: bad unlock balance detected");
	KTEST_EXPECT_CAPTURED(t, "is trying to release ld_lock_a");
	KTEST_EXPECT_CAPTURED(t, "test_bad_unlock+");
	KTEST_EXPECT_CAPTURED(t, "ld_lock_b");
	KTEST_EXPECT_EQ(t, lockdep_depth(), 1U);
	/* The bad unlock ended a preempt_disable() section of lock_b's. */
	ktest_capture_start(t, "WARNING:");
	spin_unlock(&ld_lock_b);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "preempt_enable() without preempt_disable()");
	KTEST_EXPECT_EQ(t, lockdep_depth(), 0U);
	KTEST_EXPECT_EQ(t, preempt_count(), 0);
}

static __noinline void ld_needs_lock_a(void)
{
	lockdep_assert_held(&ld_lock_a);
}

static void test_assert_held(struct ktest *t)
{
	ld_setup(t);
	ktest_capture_start(t, "WARNING:");
	spin_lock(&ld_lock_a);
	ld_needs_lock_a();
	spin_unlock(&ld_lock_a);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);

	ktest_capture_start(t, "WARNING:");
	spin_lock(&ld_lock_b);
	ld_needs_lock_a();
	spin_unlock(&ld_lock_b);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "WARNING: lock not held: cpu 0 does not hold ld_lock_a");
	KTEST_EXPECT_CAPTURED(t, "at ld_needs_lock_a+");
}

extern const struct lockdep_assert_test *const
	__start_lockdep_assert_tests[] __weak;
extern const struct lockdep_assert_test *const
	__stop_lockdep_assert_tests[] __weak;

/*
 * Does text name the function in site (" at fn") as a %pS does: followed
 * by "+0x" or by a compiler suffix such as ".constprop.0"?
 */
static bool names_site(const char *text, const char *site)
{
	size_t len = strlen(site);

	for (const char *p = strstr(text, site); p; p = strstr(p + 1, site))
		if (p[len] == '+' || p[len] == '.')
			return true;
	return false;
}

/*
 * Every lockdep_assert_held() in the kernel's functions that registered
 * a proof (LOCKDEP_ASSERT_TEST): called without its lock, each gives one
 * report, naming its lock, at a site in its function or the proof that
 * called it (a static function may be inlined there).
 */
static void test_kernel_asserts_fire(struct ktest *t)
{
	const struct lockdep_assert_test *const *p;
	unsigned long flags;
	unsigned int n = 0;
	char text[96];

	ld_setup(t);
	for (p = __start_lockdep_assert_tests;
	     p < __stop_lockdep_assert_tests; p++) {
		const struct lockdep_assert_test *at = *p;
		char func_site[64], proof_site[64];
		unsigned int reports;

		lockdep_reset_for_test();
		ktest_capture_start(t, "WARNING:");
		/* Interrupts off, as the code runs: only the lock is missing. */
		flags = arch_irq_save();
		at->run();
		arch_irq_restore(flags);
		reports = ktest_capture_stop(t);
		if (reports != 1)
			KTEST_FAIL(t, "%s: %u reports instead of 1", at->func,
				   reports);
		snprintf(text, sizeof(text), "does not hold %s (", at->lock);
		KTEST_EXPECT_CAPTURED(t, text);
		snprintf(func_site, sizeof(func_site), " at %s", at->func);
		snprintf(proof_site, sizeof(proof_site), " at %s", at->run_name);
		if (!names_site(ktest_captured(t), func_site) &&
		    !names_site(ktest_captured(t), proof_site))
			KTEST_FAIL(t, "%s: the report names neither%s nor%s",
				   at->func, func_site, proof_site);
		n++;
	}
	ktest_info(t, "%u lock assertions fired", n);
	KTEST_EXPECT_GE(t, n, 14U);
	KTEST_EXPECT_EQ(t, lockdep_depth(), 0U);
}

/* Each site reports once: irqs_assert_site() is one site. */
static __noinline void irqs_assert_site(void)
{
	lockdep_assert_irqs_disabled();
}

/*
 * lockdep_assert_irqs_disabled() reports a call site with interrupts on,
 * once, and says nothing with them off. The host has no interrupts.
 */
static void test_assert_irqs_disabled(struct ktest *t)
{
	unsigned long flags;

	ld_setup(t);
	flags = arch_irq_save();
	ktest_capture_start(t, "WARNING:");
	irqs_assert_site();
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
	arch_irq_restore(flags);
	if (arch_irqs_disabled())
		ktest_skip(t, "interrupts are off in normal operation here");
	ktest_capture_start(t, "WARNING:");
	irqs_assert_site();
	irqs_assert_site();
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "WARNING: interrupts on at irqs_assert_site");
}

#define LD_VECTOR	0x58	/* this suite's interrupt */

/* What the handler takes, outer then inner (NULL: nothing). */
static spinlock_t *ld_irq_takes[2];
static unsigned long ld_irq_runs;
static bool ld_irq_trylock;	/* the outer one with spin_trylock() */

static __noinline void ld_irq_handler(unsigned int vector)
{
	(void)vector;
	__atomic_fetch_add(&ld_irq_runs, 1, __ATOMIC_RELAXED);
	if (ld_irq_takes[0] && ld_irq_trylock) {
		if (!spin_trylock(ld_irq_takes[0]))
			return;
	} else if (ld_irq_takes[0]) {
		spin_lock(ld_irq_takes[0]);
	}
	if (ld_irq_takes[1])
		spin_lock(ld_irq_takes[1]);
	if (ld_irq_takes[1])
		spin_unlock(ld_irq_takes[1]);
	if (ld_irq_takes[0])
		spin_unlock(ld_irq_takes[0]);
}

static void ld_irq_remove(void *arg)
{
	(void)arg;
	set_irq_handler(LD_VECTOR, NULL);
	ld_irq_takes[0] = ld_irq_takes[1] = NULL;
	ld_irq_trylock = false;
}

/* ld_setup() and this suite's interrupt handler, interrupts on. */
static void ld_irq_setup(struct ktest *t)
{
	ld_setup(t);
	if (irqs_disabled())
		ktest_skip(t, "interrupts are off in normal operation here");
	ld_irq_takes[0] = ld_irq_takes[1] = NULL;
	KTEST_ASSERT_EQ(t, set_irq_handler(LD_VECTOR, ld_irq_handler), 0);
	KTEST_ASSERT_EQ(t, ktest_add_action_or_reset(t, ld_irq_remove, NULL), 0);
}

/* Run the handler now, taking outer (and inner) in hardirq context. */
static void ld_irq_take(struct ktest *t, spinlock_t *outer, spinlock_t *inner)
{
	unsigned long runs = ld_irq_runs;

	ld_irq_takes[0] = outer;
	ld_irq_takes[1] = inner;
	apic_send_IPI_self(LD_VECTOR);
	ld_irq_takes[0] = ld_irq_takes[1] = NULL;
	KTEST_EXPECT_EQ(t, ld_irq_runs, runs + 1);
}

static __noinline void ld_take_irqs_on(spinlock_t *lock)
{
	spin_lock(lock);
	spin_unlock(lock);
}

static __noinline void ld_take_irqsave(spinlock_t *outer, spinlock_t *inner)
{
	unsigned long flags;

	spin_lock_irqsave(outer, flags);
	if (inner)
		spin_lock(inner);
	if (inner)
		spin_unlock(inner);
	spin_unlock_irqrestore(outer, flags);
}

/*
 * Taken in a handler, then with interrupts on: one report naming both
 * sites, once however often it happens; the other way round as well.
 */
static void test_irq_inconsistent_state(struct ktest *t)
{
	ld_irq_setup(t);
	ld_irq_take(t, &ld_irq_lock, NULL);
	ktest_capture_start(t, "WARNING:");
	ld_take_irqs_on(&ld_irq_lock);
	ld_take_irqs_on(&ld_irq_lock);
	ld_irq_take(t, &ld_irq_lock, NULL);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "WARNING: inconsistent lock state");
	KTEST_EXPECT_CAPTURED(t, "inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage.");
	KTEST_EXPECT_CAPTURED(t, "cpu 0 [in hardirq: 0, interrupts on] takes ld_irq_lock (");
	KTEST_EXPECT_CAPTURED(t, "{IN-HARDIRQ-W} state was registered at ld_irq_handler+");
	KTEST_EXPECT_CAPTURED(t, "{HARDIRQ-ON-W} state was registered at ld_take_irqs_on+");
	KTEST_EXPECT_EQ(t, lockdep_depth(), 0U);

	ld_take_irqs_on(&ld_irq_lock2);
	ktest_capture_start(t, "WARNING:");
	ld_irq_take(t, &ld_irq_lock2, NULL);
	ld_irq_take(t, &ld_irq_lock2, NULL);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W} usage.");
	KTEST_EXPECT_CAPTURED(t, "[in hardirq: 1, interrupts off] takes ld_irq_lock2 (");
	KTEST_EXPECT_CAPTURED(t, "{HARDIRQ-ON-W} state was registered at ld_take_irqs_on+");
	KTEST_EXPECT_CAPTURED(t, "{IN-HARDIRQ-W} state was registered at ld_irq_handler+");

	/* A reset forgets the usage: the same report again. */
	lockdep_reset_for_test();
	ld_take_irqs_on(&ld_irq_lock2);
	ktest_capture_start(t, "WARNING: inconsistent lock state");
	ld_irq_take(t, &ld_irq_lock2, NULL);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
}

/* local_irq_enable() while holding lock (interrupts off around it). */
static __noinline void ld_enable_holding(spinlock_t *lock)
{
	unsigned long flags;

	local_irq_save(flags);
	spin_lock(lock);
	local_irq_enable();
	local_irq_disable();
	spin_unlock(lock);
	local_irq_restore(flags);
}

/* spin_unlock_irqrestore() of ld_on_inner back to "on", outer held. */
static __noinline void ld_restore_holding(spinlock_t *outer)
{
	unsigned long flags;

	spin_lock_irqsave(&ld_on_inner, flags);
	spin_lock(outer);
	spin_unlock_irqrestore(&ld_on_inner, flags);
	local_irq_disable();
	spin_unlock(outer);
	local_irq_enable();
}

/*
 * Interrupts turned on while a hardirq-safe lock is held: one report,
 * naming where they went on (local_irq_enable(), or a
 * spin_unlock_irqrestore() of another lock); a lock released before
 * they go on gives none.
 */
static void test_irqs_on_while_held(struct ktest *t)
{
	ld_irq_setup(t);
	ld_irq_take(t, &ld_on_lock, NULL);
	ld_irq_take(t, &ld_on_lock2, NULL);
	ktest_capture_start(t, "WARNING:");
	ld_take_irqsave(&ld_on_lock, NULL);
	ld_take_irqsave(&ld_on_lock2, NULL);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);

	ktest_capture_start(t, "WARNING:");
	ld_enable_holding(&ld_on_lock);
	ld_enable_holding(&ld_on_lock);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "WARNING: inconsistent lock state");
	KTEST_EXPECT_CAPTURED(t, "inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage.");
	KTEST_EXPECT_CAPTURED(t, "{IN-HARDIRQ-W} state was registered at ld_irq_handler+");
	/* (no "+" after the name: the compiler may clone it, ".constprop") */
	KTEST_EXPECT_CAPTURED(t, "{HARDIRQ-ON-W} state was registered at ld_enable_holding");

	ktest_capture_start(t, "WARNING:");
	ld_restore_holding(&ld_on_lock2);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "takes ld_on_lock2 (");
	KTEST_EXPECT_CAPTURED(t, "{HARDIRQ-ON-W} state was registered at ld_restore_holding");
	KTEST_EXPECT_EQ(t, lockdep_depth(), 0U);
}

/*
 * A trylock in a handler fails instead of spinning: it leaves its class
 * as it was. Outside one, with interrupts on, it makes the class unsafe.
 */
static void test_irq_trylock(struct ktest *t)
{
	ld_irq_setup(t);
	ld_take_irqs_on(&ld_irq_lock);
	ld_irq_trylock = true;
	ktest_capture_start(t, "WARNING:");
	ld_irq_take(t, &ld_irq_lock, NULL);
	ld_irq_take(t, &ld_irq_lock, &ld_irq_lock2);
	ld_irq_trylock = false;
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);

	ld_irq_take(t, &ld_irq_lock2, NULL);
	ktest_capture_start(t, "WARNING:");
	KTEST_ASSERT_TRUE(t, spin_trylock(&ld_irq_lock2));
	spin_unlock(&ld_irq_lock2);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage.");
	KTEST_EXPECT_CAPTURED(t, "{HARDIRQ-ON-W} state was registered at test_irq_trylock+");
}

/*
 * Interrupts off wherever the lock is taken outside the handler (and
 * locks nested in it, in the same order everywhere): silence.
 */
static void test_irq_safe_usage_quiet(struct ktest *t)
{
	unsigned long before = lockdep_reports;

	ld_irq_setup(t);
	ktest_capture_start(t, "WARNING:");
	for (int i = 0; i < 10; i++) {
		ld_irq_take(t, &ld_irq_lock, &ld_irq_lock2);
		ld_take_irqsave(&ld_irq_lock, &ld_irq_lock2);
		ld_take_irqsave(&ld_irq_lock2, NULL);
		ld_irq_take(t, &ld_irq_lock2, NULL);
		/* an unsafe lock taken alone, and before a safe one: fine */
		ld_take_irqs_on(&ld_lock_a);
		spin_lock(&ld_lock_a);
		ld_take_irqsave(&ld_irq_lock, NULL);
		spin_unlock(&ld_lock_a);
	}
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
	KTEST_EXPECT_EQ(t, lockdep_reports, before);
	KTEST_EXPECT_EQ(t, lockdep_depth(), 0U);
}

/* A hardirq-safe lock, then an unsafe one under it: reported at once. */
static void test_irq_safe_to_unsafe(struct ktest *t)
{
	ld_irq_setup(t);
	ld_irq_take(t, &ld_irq_lock, NULL);	/* safe */
	ld_take_irqs_on(&ld_lock_a);		/* unsafe */
	ktest_capture_start(t, "WARNING:");
	ld_take_irqsave(&ld_irq_lock, &ld_lock_a);
	ld_take_irqsave(&ld_irq_lock, &ld_lock_a);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected");
	KTEST_EXPECT_CAPTURED(t, "is trying to acquire ld_lock_a (");
	KTEST_EXPECT_CAPTURED(t, "while holding ld_irq_lock (");
	KTEST_EXPECT_CAPTURED(t, "ld_irq_lock is {IN-HARDIRQ-W}, first seen at ld_irq_handler+");
	KTEST_EXPECT_CAPTURED(t, "ld_lock_a is {HARDIRQ-ON-W}, first seen at ld_take_irqs_on+");
	KTEST_EXPECT_EQ(t, lockdep_depth(), 0U);
}

/*
 * The same through a third class that is neither: safe -> b is fine,
 * b -> unsafe is not, and the report shows the whole chain.
 */
static void test_irq_safe_to_unsafe_chain(struct ktest *t)
{
	unsigned long flags;

	ld_irq_setup(t);
	ld_irq_take(t, &ld_irq_lock, NULL);	/* safe */
	ld_take_irqs_on(&ld_lock_c);		/* unsafe */
	ktest_capture_start(t, "WARNING:");
	ld_take_irqsave(&ld_irq_lock, &ld_lock_b);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
	ktest_capture_start(t, "WARNING:");
	local_irq_save(flags);
	ld_take_pair(&ld_lock_b, &ld_lock_c);
	local_irq_restore(flags);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "HARDIRQ-safe -> HARDIRQ-unsafe lock order detected");
	KTEST_EXPECT_CAPTURED(t, "ld_irq_lock is {IN-HARDIRQ-W}");
	KTEST_EXPECT_CAPTURED(t, "ld_irq_lock held (taken at ld_take_irqsave+");
	KTEST_EXPECT_CAPTURED(t, "then ld_lock_b taken at ld_take_irqsave+");
	KTEST_EXPECT_CAPTURED(t, "ld_lock_b held, then ld_lock_c taken here");
	KTEST_EXPECT_CAPTURED(t, "ld_lock_c is {HARDIRQ-ON-W}");
}

/*
 * The dependency first, with interrupts off and no usage yet; then the
 * classes turn safe and unsafe: reported when the second one does,
 * whichever it is.
 */
static void test_irq_lock_inversion(struct ktest *t)
{
	ld_irq_setup(t);
	ld_take_irqsave(&ld_irq_lock, &ld_lock_a);
	ld_irq_take(t, &ld_irq_lock, NULL);		/* safe first */
	ktest_capture_start(t, "WARNING:");
	ld_take_irqs_on(&ld_lock_a);
	ld_take_irqs_on(&ld_lock_a);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "WARNING: possible irq lock inversion dependency detected");
	KTEST_EXPECT_CAPTURED(t, "takes ld_lock_a (");
	KTEST_EXPECT_CAPTURED(t, "now {HARDIRQ-ON-W}");
	KTEST_EXPECT_CAPTURED(t, "was taken by a HARDIRQ-safe lock in the past");
	KTEST_EXPECT_CAPTURED(t, "ld_irq_lock held (taken at ld_take_irqsave+");
	KTEST_EXPECT_CAPTURED(t, "ld_irq_lock is {IN-HARDIRQ-W}, first seen at ld_irq_handler+");

	ld_take_irqsave(&ld_irq_lock2, &ld_lock_b);
	ld_take_irqs_on(&ld_lock_b);			/* unsafe first */
	ktest_capture_start(t, "WARNING:");
	ld_irq_take(t, &ld_irq_lock2, NULL);
	ld_irq_take(t, &ld_irq_lock2, NULL);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "possible irq lock inversion dependency detected");
	KTEST_EXPECT_CAPTURED(t, "[in hardirq: 1] takes ld_irq_lock2 (");
	KTEST_EXPECT_CAPTURED(t, "now {IN-HARDIRQ-W}");
	KTEST_EXPECT_CAPTURED(t, "took a HARDIRQ-unsafe lock in the past");
	KTEST_EXPECT_CAPTURED(t, "ld_lock_b is {HARDIRQ-ON-W}, first seen at ld_take_irqs_on+");
}

/*
 * A handler's locks do not depend on those of the code it interrupted:
 * with ld_lock_a held (interrupts on) the handler takes ld_irq_lock, and
 * later ld_irq_lock -> ld_lock_a is a safe -> unsafe order, not a cycle.
 */
static void test_irq_context_no_dependency(struct ktest *t)
{
	ld_irq_setup(t);
	spin_lock(&ld_lock_a);
	ld_irq_take(t, &ld_irq_lock, NULL);
	spin_unlock(&ld_lock_a);
	ktest_capture_start(t, "WARNING:");
	ld_take_irqsave(&ld_irq_lock, &ld_lock_a);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "HARDIRQ-safe -> HARDIRQ-unsafe lock order detected");
}

#define LD_SMP_CPUS	4
#define LD_SMP_ROUNDS	200

static unsigned int ld_smp_go;

/* Each CPU: the lock in its handler, then with interrupts on, in a loop. */
static void ld_smp_inconsistent(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&ld_smp_go, __ATOMIC_ACQUIRE))
		arch_cpu_relax();
	for (int i = 0; i < LD_SMP_ROUNDS; i++) {
		apic_send_IPI_self(LD_VECTOR);
		ld_take_irqs_on(&ld_irq_lock);
	}
}

/*
 * Several CPUs give one class both usages at once, many times over: one
 * report in all.
 */
static void test_irq_inconsistent_smp(struct ktest *t)
{
	unsigned int cpus = min(nr_cpu_ids, (unsigned int)LD_SMP_CPUS);
	unsigned int started = 1;
	unsigned long runs;

	ld_irq_setup(t);
	if (cpus < 2)
		ktest_skip(t, "one CPU");
	ld_irq_takes[0] = &ld_irq_lock;
	runs = ld_irq_runs;
	__atomic_store_n(&ld_smp_go, 0, __ATOMIC_RELAXED);
	ktest_capture_start(t, "WARNING:");
	for (unsigned int cpu = 1; cpu < cpus; cpu++) {
		int err = arch_cpu_run(cpu, ld_smp_inconsistent, NULL);

		if (err == -ENOSYS)
			break;
		KTEST_EXPECT_EQ(t, err, 0);
		if (!err)
			started++;
	}
	__atomic_store_n(&ld_smp_go, 1, __ATOMIC_RELEASE);
	if (started > 1)
		ld_smp_inconsistent(NULL);
	for (unsigned int cpu = 1; cpu < started; cpu++)
		arch_cpu_join(cpu);
	ld_irq_takes[0] = NULL;
	if (started == 1) {
		ktest_capture_stop(t);
		ktest_skip(t, "this arch cannot run work on another CPU yet (arch_cpu_run)");
	}
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "WARNING: inconsistent lock state");
	KTEST_EXPECT_CAPTURED(t, "ld_irq_lock");
	KTEST_EXPECT_EQ(t, ld_irq_runs, runs + (unsigned long)started *
					  LD_SMP_ROUNDS);
	ktest_info(t, "%u CPUs", started);
}

static const struct ktest_case lockdep_cases[] = {
	KTEST_CASE(test_lockdep_built_in),
	KTEST_CASE(test_order_inversion),
	KTEST_CASE(test_order_inversion_once),
	KTEST_CASE(test_order_inversion_chain),
	KTEST_CASE(test_correct_nesting),
	KTEST_CASE(test_recursion_same_class),
	KTEST_CASE(test_recursion_same_lock),
	KTEST_CASE(test_bad_unlock),
	KTEST_CASE(test_assert_held),
	KTEST_CASE(test_kernel_asserts_fire),
	KTEST_CASE(test_assert_irqs_disabled),
	KTEST_CASE(test_irq_inconsistent_state),
	KTEST_CASE(test_irqs_on_while_held),
	KTEST_CASE(test_irq_trylock),
	KTEST_CASE(test_irq_inconsistent_smp),
	KTEST_CASE(test_irq_safe_usage_quiet),
	KTEST_CASE(test_irq_safe_to_unsafe),
	KTEST_CASE(test_irq_safe_to_unsafe_chain),
	KTEST_CASE(test_irq_lock_inversion),
	KTEST_CASE(test_irq_context_no_dependency),
	{}
};
KTEST_SUITE(lockdep, lockdep_cases);

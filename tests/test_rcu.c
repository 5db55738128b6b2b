// SPDX-License-Identifier: GPL-2.0
/*
 * RCU (kernel/rcupdate.h), in the spirit of rcutorture: readers on other
 * CPUs walk a table of elements under rcu_read_lock() while a writer
 * replaces them and frees the old ones with call_rcu() (poisoned first)
 * and kfree_rcu(); no reader may see an element change under it.
 * synchronize_rcu() waits for a reader that began before it and not for
 * one that began after; rcu_barrier() waits for every callback;
 * SLAB_TYPESAFE_BY_RCU keeps a freed object's slab a slab of its cache
 * until a grace period has passed; a CPU stuck in a reader gets a stall
 * report; and each misuse gets one report at the caller.
 *
 * Cases that need work on another CPU use arch_cpu_run() and skip where
 * it cannot run any (one CPU, or x86_64 before the APs take work), except
 * where a cross-CPU call does the job (a reader with interrupts off).
 */
#include "kernel/debugobjects.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/rcupdate.h"
#include "kernel/smp.h"
#include "kernel/time.h"
#include "lib/ktest/ktest.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/fault_inject.h"
#include "mm/mm.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"	/* white-box: the slab behind an object */
#include "mm/vmalloc.h"
#include "tests/mm_util.h"
#include "arch/arch.h"

#define WAIT_S			20	/* bound of every wait: TCG is slow */
#define TORTURE_UPDATES		1000000UL
#define TORTURE_MIN_UPDATES	10000UL
#define TORTURE_BUDGET_S	15	/* SMP=4 TCG: what fits; see README */
#define TORTURE_BACKLOG		10000UL	/* callbacks the writer lets pile */
#define NR_SLOTS		16
#define NR_READERS		3
#define ELEM_ALIVE		0x600dcafe600dcafeUL
#define ELEM_DEAD		0xdeaddeaddeaddeadUL
#define RCU_TEST_VECTOR		0x58

static int this_nesting(void)
{
	return rcu_readers[arch_cpu_id()].nesting;
}

/*
 * Before each case: this CPU takes part in the GPs, which it does from
 * its first tick (kernel/rcu.c). A case run straight after boot could
 * otherwise hold a reader that no GP waits for.
 */
static int rcu_test_init(struct ktest *t)
{
	u64 deadline = arch_clock_ns() + WAIT_S * 1000000000ULL;

	while (!tick_count(smp_processor_id())) {
		if (arch_clock_ns() > deadline) {
			ktest_info(t, "CPU %u has not ticked in %u s",
				   smp_processor_id(), WAIT_S);
			return -ETIMEDOUT;
		}
		arch_cpu_relax();
	}
	return 0;
}

/* --- nesting and the misuse of the read side ------------------------------ */

static void test_read_lock_nests(struct ktest *t)
{
	KTEST_EXPECT_FALSE(t, rcu_read_lock_held());
	rcu_read_lock();
	rcu_read_lock();
	KTEST_EXPECT_EQ(t, this_nesting(), 2);
	rcu_read_unlock();
	KTEST_EXPECT_TRUE(t, rcu_read_lock_held());
	rcu_read_unlock();
	KTEST_EXPECT_EQ(t, this_nesting(), 0);
	KTEST_EXPECT_FALSE(t, rcu_read_lock_held());
}

static void test_unlock_without_lock(struct ktest *t)
{
	ktest_capture_start(t, "WARNING:");
	rcu_read_unlock();
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_NOT_NULL(t, strstr(ktest_captured(t),
					"rcu_read_unlock() without rcu_read_lock()"));
	KTEST_EXPECT_NOT_NULL(t, strstr(ktest_captured(t), "test_unlock_without_lock"));
	KTEST_EXPECT_EQ(t, this_nesting(), 0);	/* not -1 */
	rcu_read_lock();
	KTEST_EXPECT_EQ(t, this_nesting(), 1);
	rcu_read_unlock();
	KTEST_EXPECT_EQ(t, this_nesting(), 0);
}

static void test_wait_inside_reader(struct ktest *t)
{
	struct rcu_stats before, after;

	rcu_get_stats(&before);
	rcu_read_lock();
	ktest_capture_start(t, "WARNING:");
	synchronize_rcu();		/* would wait for itself */
	rcu_barrier();
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 2U);
	rcu_read_unlock();
	KTEST_EXPECT_NOT_NULL(t, strstr(ktest_captured(t),
		"synchronize_rcu() inside an RCU read-side critical section"));
	KTEST_EXPECT_NOT_NULL(t, strstr(ktest_captured(t),
		"rcu_barrier() inside an RCU read-side critical section"));
	KTEST_EXPECT_NOT_NULL(t, strstr(ktest_captured(t), "test_wait_inside_reader"));
	rcu_get_stats(&after);
	KTEST_EXPECT_EQ(t, after.stalls, before.stalls);
	synchronize_rcu();		/* and outside, it works */
}

static struct {
	bool ran, in_irq;
} irq_wait;

static void wait_in_handler(unsigned int vector)
{
	(void)vector;
	irq_wait.in_irq = in_hardirq();
	synchronize_rcu();
	rcu_barrier();
	irq_wait.ran = true;
}

static void remove_handler(void *arg)
{
	(void)arg;
	set_irq_handler(RCU_TEST_VECTOR, NULL);
}

static void test_wait_in_interrupt(struct ktest *t)
{
	memset(&irq_wait, 0, sizeof(irq_wait));
	KTEST_ASSERT_EQ(t, set_irq_handler(RCU_TEST_VECTOR, wait_in_handler), 0);
	KTEST_ASSERT_EQ(t, ktest_add_action_or_reset(t, remove_handler, NULL), 0);
	ktest_capture_start(t, "WARNING:");
	apic_send_IPI_self(RCU_TEST_VECTOR);
	KTEST_EXPECT_TRUE(t, wait_flag(&irq_wait.ran, WAIT_S));
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 2U);
	KTEST_EXPECT_TRUE(t, irq_wait.in_irq);
	KTEST_EXPECT_NOT_NULL(t, strstr(ktest_captured(t),
		"synchronize_rcu() in an interrupt handler"));
	KTEST_EXPECT_NOT_NULL(t, strstr(ktest_captured(t),
		"rcu_barrier() in an interrupt handler"));
}

/* --- callbacks ------------------------------------------------------------ */

static unsigned long cb_runs;
static unsigned long cb_bad_context;

static void count_cb(struct rcu_head *head)
{
	(void)head;
	if (!irqs_disabled() || rcu_read_lock_held())
		cb_bad_context++;
	__atomic_fetch_add(&cb_runs, 1, __ATOMIC_RELAXED);
}

static void test_call_rcu_after_gp(struct ktest *t)
{
	struct rcu_head head = {};
	struct rcu_stats before, after;

	cb_runs = cb_bad_context = 0;
	rcu_get_stats(&before);
	rcu_read_lock();
	call_rcu(&head, count_cb);
	spin_ns(3 * TICK_NSEC);		/* ticks come; we are a reader */
	KTEST_EXPECT_EQ(t, READ_ONCE(cb_runs), 0UL);
	rcu_read_unlock();
	rcu_barrier();
	KTEST_EXPECT_EQ(t, cb_runs, 1UL);
	KTEST_EXPECT_EQ(t, cb_bad_context, 0UL);
	rcu_get_stats(&after);
	KTEST_EXPECT_GT(t, after.completed, before.completed);
	KTEST_EXPECT_EQ(t, after.gp_seq, after.completed);
}

static void restore_debug_objects(void *on)
{
	debug_objects_set(on != NULL);
}

/* Debug objects on for the rest of the case (boot: debug_objects). */
static void debug_objects_on(struct ktest *t)
{
	bool was = debug_objects_set(true);

	KTEST_ASSERT_EQ(t, ktest_add_action_or_reset(t, restore_debug_objects,
						     (void *)(unsigned long)was), 0);
}

/* With debug objects on, a head queued twice is reported and refused. */
static void test_call_rcu_twice(struct ktest *t)
{
	struct rcu_head head = {};
	struct debug_objects_stats st;

	debug_objects_on(t);
	cb_runs = 0;
	rcu_read_lock();	/* no GP ends, so the head stays queued */
	call_rcu(&head, count_cb);
	debug_objects_get_stats(&st);
	KTEST_EXPECT_GE(t, st.active, 1UL);
	ktest_capture_start(t, "WARNING:");
	call_rcu(&head, count_cb);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	rcu_read_unlock();
	KTEST_EXPECT_NOT_NULL(t, strstr(ktest_captured(t), "already queued"));
	KTEST_EXPECT_NOT_NULL(t, strstr(ktest_captured(t), "test_call_rcu_twice"));
	rcu_barrier();
	KTEST_EXPECT_EQ(t, cb_runs, 1UL);
	/* Once it ran, the head may be queued again. */
	call_rcu(&head, count_cb);
	rcu_barrier();
	KTEST_EXPECT_EQ(t, cb_runs, 2UL);
	ktest_capture_start(t, "WARNING:");
	call_rcu(NULL, count_cb);
	call_rcu(&head, NULL);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 2U);
	rcu_barrier();
	KTEST_EXPECT_EQ(t, cb_runs, 2UL);
}

/*
 * call_rcu() never reads the caller's head: whatever bytes it held (here
 * those that look like a queued head's old mark, 0x3c3c or 0xc3c3 in the
 * top 16 bits of func) it is queued and its callback runs.
 */
static void test_call_rcu_head_garbage(struct ktest *t)
{
	struct rcu_head heads[2];

	cb_runs = cb_bad_context = 0;
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			debug_objects_on(t);	/* the tracker reads none either */
		memset(&heads[0], 0x3c, sizeof(heads[0]));
		memset(&heads[1], 0xc3, sizeof(heads[1]));
		call_rcu(&heads[0], count_cb);
		call_rcu(&heads[1], count_cb);
		rcu_barrier();
	}
	KTEST_EXPECT_EQ(t, cb_runs, 4UL);
	KTEST_EXPECT_EQ(t, cb_bad_context, 0UL);
}

#define GARBAGE_SLOTS	64

/*
 * kfree_rcu(ptr) takes its head from kmalloc: from a slot (kmalloc-32)
 * that last held a string of '<' here, the most recently freed one on
 * this CPU. The head is queued all the same and nothing leaks (the leak
 * check after the case). Under slab_debug new objects come poisoned,
 * so the slot holds no '<' there: the case then checks only the rest.
 */
static void test_kfree_rcu_slot_garbage(struct ktest *t)
{
	void *slots[GARBAGE_SLOTS];
	void *p = kmalloc(64, GFP_KERNEL);

	KTEST_ASSERT_NOT_NULL(t, p);
	for (unsigned int i = 0; i < GARBAGE_SLOTS; i++) {
		slots[i] = kmalloc(32, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, slots[i]);
		memset(slots[i], '<', 32);
	}
	for (unsigned int i = 0; i < GARBAGE_SLOTS; i++)
		kfree(slots[i]);
	ktest_capture_start(t, "WARNING:");
	kfree_rcu(p);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);	/* not refused */
	rcu_barrier();
	/* The leak check after the case proves p and its head were freed. */
}

static void queue_here(void *info)
{
	call_rcu(info, count_cb);
}

/* Callbacks on every CPU; rcu_barrier() returns only once all ran. */
static void test_rcu_barrier_waits_all(struct ktest *t)
{
	unsigned int cpu;
	static struct rcu_head heads[NR_CPUS][64];
	unsigned long queued = 0;

	cb_runs = cb_bad_context = 0;
	memset(heads, 0, sizeof(heads));
	for_each_possible_cpu(cpu) {
		if (!on_each_cpu_reaches(cpu))
			continue;
		for (unsigned int i = 0; i < 64; i++) {
			KTEST_ASSERT_EQ(t, smp_call_function_single(cpu,
					queue_here, &heads[cpu][i], true), 0);
			queued++;
		}
	}
	rcu_barrier();
	KTEST_EXPECT_EQ(t, READ_ONCE(cb_runs), queued);
	KTEST_EXPECT_EQ(t, cb_bad_context, 0UL);
	ktest_info(t, "%lu callbacks on %u CPUs", queued, num_online_cpus());
}

/*
 * Callbacks on this CPU only: rcu_barrier() interrupts no other CPU
 * (Linux's rcu_barrier skips a CPU with no callbacks), and this CPU runs
 * them in its wait, not at its next tick: 100 barriers take far fewer
 * than 100 of its ticks (each one would wait for one if the tick ran
 * them; on a host CPU thread or an idle TCG AP nothing else delays the
 * GP beyond a tick of the others, and those are not counted here).
 */
static void test_rcu_barrier_here_only(struct ktest *t)
{
	static struct rcu_head heads[100];
	unsigned int this = smp_processor_id();
	unsigned long ipis, ipis_sent = 0, ticks, runs = 0, alone = 0;

	cb_runs = cb_bad_context = 0;
	memset(heads, 0, sizeof(heads));
	rcu_barrier();		/* earlier callbacks, anywhere */
	ticks = tick_count(this);
	for (unsigned int i = 0; i < ARRAY_SIZE(heads); i++) {
		alone += rcu_pending_callbacks() == 0;
		call_rcu(&heads[i], count_cb);
		ipis = irq_vector_count(CALL_FUNCTION_VECTOR);
		rcu_barrier();
		ipis_sent += irq_vector_count(CALL_FUNCTION_VECTOR) - ipis;
		runs += READ_ONCE(cb_runs) == i + 1;
	}
	ticks = tick_count(this) - ticks;
	ktest_info(t, "100 barriers in %lu ticks of this CPU", ticks);
	KTEST_EXPECT_EQ(t, runs, 100UL);
	KTEST_EXPECT_EQ(t, cb_bad_context, 0UL);
	/* No other CPU had a callback queued: none was interrupted. */
	KTEST_EXPECT_EQ(t, alone, 100UL);
	KTEST_EXPECT_EQ(t, ipis_sent, 0UL);
	KTEST_EXPECT_LT(t, ticks, 50UL);
}

/*
 * kmem_cache_destroy() waits for a GP only for a SLAB_TYPESAFE_BY_RCU
 * cache, whose slabs wait for one: an ordinary cache with slabs to give
 * back is destroyed with no GP started, nor a callback queued.
 */
static void test_destroy_waits_only_for_typesafe(struct ktest *t)
{
	const slab_flags_t flags[2] = { 0, SLAB_TYPESAFE_BY_RCU };
	struct rcu_stats before, after;
	unsigned long free_before;

	for (unsigned int i = 0; i < 2; i++) {
		struct kmem_cache *c;
		void *p;

		free_before = pages_baseline();
		c = kmem_cache_create("t-rcu-destroy", 256, 0, flags[i], NULL);
		KTEST_ASSERT_NOT_NULL(t, c);
		p = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, p);
		kmem_cache_free(c, p);
		KTEST_EXPECT_EQ(t, c->node[0]->total_slabs, 1UL);
		rcu_get_stats(&before);
		KTEST_EXPECT_EQ(t, before.queued, 0UL);
		kmem_cache_destroy(c);	/* its slab goes now */
		rcu_get_stats(&after);
		if (flags[i]) {
			KTEST_EXPECT_GT(t, after.completed, before.completed);
		} else {
			KTEST_EXPECT_EQ(t, after.gp_seq, before.gp_seq);
			KTEST_EXPECT_EQ(t, after.invoked, before.invoked);
		}
		/* Either way the slab's pages are back when it returns. */
		KTEST_EXPECT_EQ(t, after.queued, 0UL);
		KTEST_EXPECT_EQ(t, pages_baseline(), free_before);
	}
}

struct boxed {
	unsigned long value;
	struct rcu_head rh;
};

/*
 * Linux 6.1's rule for kmem_cache_destroy(): objects of the cache still
 * waiting in kfree_rcu() are objects in use, so the destroy is refused
 * with a report (and the cache kept, nothing left behind) until the
 * caller's rcu_barrier(). Inside a reader, the callback cannot run
 * first; and an ordinary cache's destroy does not wait for a GP, so it
 * may run there.
 */
static void test_destroy_with_kfree_rcu_pending(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("t-rcu-pending",
						 sizeof(struct boxed), 0, 0,
						 NULL);
	struct boxed *b;

	KTEST_ASSERT_NOT_NULL(t, c);
	b = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, b);
	rcu_read_lock();
	kfree_rcu(b, rh);
	ktest_capture_start(t, "WARNING:");
	kmem_cache_destroy(c);
	/* The refusal's WARNING; none for a wait inside this reader. */
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	rcu_read_unlock();
	KTEST_EXPECT_REPORTS(t, REPORT_SLAB_CACHE_BUSY, 1);
	KTEST_EXPECT_CAPTURED(t, "Slab cache still has objects");
	KTEST_EXPECT_EQ(t, c->node[0]->total_slabs, 1UL);
	rcu_barrier();		/* the caller's part: kfree() has run */
	ktest_capture_start(t, NULL);
	kmem_cache_destroy(c);
	ktest_capture_stop(t);
	KTEST_EXPECT_REPORTS(t, REPORT_SLAB_CACHE_BUSY, 0);
}

static void test_kfree_rcu(struct ktest *t)
{
	struct boxed *b = kmalloc(sizeof(*b), GFP_KERNEL);
	void *plain = kmalloc(100, GFP_KERNEL);
	void *large = kmalloc(3 * PAGE_SIZE, GFP_KERNEL);
	unsigned long pending;

	KTEST_ASSERT_NOT_NULL(t, b);
	KTEST_ASSERT_NOT_NULL(t, plain);
	KTEST_ASSERT_NOT_NULL(t, large);
	rcu_read_lock();
	kfree_rcu(b, rh);
	pending = rcu_pending_callbacks();
	KTEST_EXPECT_GE(t, pending, 1UL);
	rcu_read_unlock();
	kfree_rcu(plain);		/* one argument: a head is allocated */
	kfree_rcu_mightsleep(large);
	kfree_rcu_mightsleep(NULL);	/* nothing */
	rcu_barrier();
	/* The leak check after the case proves all three were freed. */
}

/* More than kmalloc gives: kvmalloc() takes it from vmalloc. */
#define VMALLOCED_SIZE	(KMALLOC_MAX_SIZE + 1)

static bool wait_vfreed(const void *addr)
{
	u64 deadline = ktime_get_ns() + WAIT_S * NSEC_PER_SEC;

	while (find_vm_area(addr))
		if (ktime_get_ns() > deadline)
			return false;
		else
			arch_cpu_relax();
	return true;
}

/*
 * kfree_rcu() takes vmalloc'd memory as well, as Linux's (kvfree_rcu):
 * kvfree() after the GP. The callback runs in hardirq context, where
 * vfree() hands the area to its work item; the areas are gone after.
 */
static void test_kfree_rcu_vmalloc(struct ktest *t)
{
	struct boxed *a = kvmalloc(VMALLOCED_SIZE, GFP_KERNEL);
	void *b = kvmalloc(VMALLOCED_SIZE, GFP_KERNEL);

	KTEST_ASSERT_NOT_NULL(t, a);
	KTEST_ASSERT_NOT_NULL(t, b);
	KTEST_ASSERT_TRUE(t, is_vmalloc_addr(a));
	KTEST_ASSERT_TRUE(t, is_vmalloc_addr(b));
	ktest_capture_start(t, "WARNING:");
	kfree_rcu(a, rh);
	kfree_rcu(b);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);	/* not refused */
	rcu_barrier();
	KTEST_EXPECT_TRUE(t, wait_vfreed(a));
	KTEST_EXPECT_TRUE(t, wait_vfreed(b));
	vm_unmap_aliases();	/* the lazily freed areas' vmap_areas */
	/* The leak check after the case proves their pages are back. */
}

/* kvfree_rcu(), both forms, on vmalloc'd and on kmalloc'd memory. */
static void test_kvfree_rcu(struct ktest *t)
{
	struct boxed *a = kvmalloc(VMALLOCED_SIZE, GFP_KERNEL);
	void *b = kvmalloc(VMALLOCED_SIZE, GFP_KERNEL);
	struct boxed *c = kvmalloc(sizeof(*c), GFP_KERNEL);
	void *d = kvmalloc(100, GFP_KERNEL);

	KTEST_ASSERT_NOT_NULL(t, a);
	KTEST_ASSERT_NOT_NULL(t, b);
	KTEST_ASSERT_NOT_NULL(t, c);
	KTEST_ASSERT_NOT_NULL(t, d);
	KTEST_EXPECT_TRUE(t, is_vmalloc_addr(a) && is_vmalloc_addr(b));
	KTEST_EXPECT_FALSE(t, is_vmalloc_addr(c) || is_vmalloc_addr(d));
	rcu_read_lock();
	kvfree_rcu(a, rh);
	kvfree_rcu(c, rh);
	rcu_read_unlock();
	kvfree_rcu(b);
	kvfree_rcu(d);
	kvfree_rcu_mightsleep(NULL);	/* nothing */
	rcu_barrier();
	KTEST_EXPECT_TRUE(t, wait_vfreed(a));
	KTEST_EXPECT_TRUE(t, wait_vfreed(b));
	vm_unmap_aliases();
}

/* In the vmalloc window but no area's start: refused at once. */
static void test_kvfree_rcu_bad_vmalloc_pointer(struct ktest *t)
{
	char *v = vmalloc(2 * PAGE_SIZE);

	KTEST_ASSERT_NOT_NULL(t, v);
	ktest_capture_start(t, "WARNING:");
	kvfree_rcu(v + 8);
	kvfree_rcu((struct boxed *)(v + 64), rh);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 2U);
	KTEST_EXPECT_NOT_NULL(t, strstr(ktest_captured(t),
		"which neither a slab nor vmalloc holds: not freed"));
	KTEST_EXPECT_EQ(t, rcu_pending_callbacks(), 0UL);
	KTEST_EXPECT_PTR_EQ(t, find_vm_area(v)->addr, (void *)v);
	vfree(v);			/* still the caller's */
	vm_unmap_aliases();
}

/* kfree_rcu(ptr) with no memory for its head: a GP, then kfree at once. */
static void test_kfree_rcu_no_memory(struct ktest *t)
{
	void *p = kmalloc(64, GFP_KERNEL);
	struct rcu_stats before, after;

	KTEST_ASSERT_NOT_NULL(t, p);
	rcu_get_stats(&before);
	KTEST_ASSERT_EQ(t, fault_attr_set(&failslab, "1,100,0,1", 7), 0);
	kfree_rcu(p);
	fault_attr_disable(&failslab);
	KTEST_EXPECT_EQ(t, failslab.failures, 1UL);
	KTEST_EXPECT_EQ(t, rcu_pending_callbacks(), 0UL);	/* none queued */
	rcu_get_stats(&after);
	KTEST_EXPECT_GT(t, after.completed, before.completed);	/* it waited */
	/* The leak check after the case proves p was freed. */
}

/* kfree_rcu(ptr) might wait: inside a reader it says so, and queues. */
static void test_kfree_rcu_mightsleep_in_reader(struct ktest *t)
{
	void *p = kmalloc(64, GFP_KERNEL);

	KTEST_ASSERT_NOT_NULL(t, p);
	rcu_read_lock();
	ktest_capture_start(t, "WARNING:");
	kfree_rcu(p);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_GE(t, rcu_pending_callbacks(), 1UL);
	rcu_read_unlock();
	KTEST_EXPECT_NOT_NULL(t, strstr(ktest_captured(t),
		"kfree_rcu_mightsleep() inside an RCU read-side critical section"));
	rcu_barrier();
}

static struct boxed not_slab;

static void test_kfree_rcu_bad_pointer(struct ktest *t)
{
	struct page *page = alloc_pages(GFP_KERNEL, 0);
	struct boxed *in_page;

	KTEST_ASSERT_NOT_NULL(t, page);
	in_page = page_address(page);
	ktest_capture_start(t, "WARNING:");
	kfree_rcu(&not_slab, rh);
	kfree_rcu(in_page, rh);
	kfree_rcu((void *)&not_slab);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 3U);
	KTEST_EXPECT_NOT_NULL(t, strstr(ktest_captured(t), "which neither a slab nor vmalloc holds"));
	KTEST_EXPECT_NOT_NULL(t, strstr(ktest_captured(t), "test_kfree_rcu_bad_pointer"));
	KTEST_EXPECT_EQ(t, rcu_pending_callbacks(), 0UL);
	rcu_barrier();
	/* Still the caller's: not freed behind its back. */
	KTEST_EXPECT_EQ(t, page_ref_count(page), 1);
	__free_pages(page, 0);
}

/*
 * A CPU with interrupts off is in a reader too (kernel/rcu.c): the
 * outermost rcu_read_unlock() of a reader the tick found reports no
 * quiescent state while interrupts stay off, so no GP ends under code
 * that walks a structure locklessly with them off (cache_refill() and a
 * cache's shared array, which do_tune_cpucache() frees after a GP).
 */
static void test_irqs_off_is_reader(struct ktest *t)
{
	u64 deadline = ktime_get_ns() + WAIT_S * NSEC_PER_SEC;
	struct rcu_head head = {};
	struct rcu_stats before, after;
	unsigned long flags;
	bool found;

	cb_runs = 0;
	rcu_barrier();			/* no GP runs: the next is ours */
	rcu_read_lock();
	call_rcu(&head, count_cb);	/* a GP that waits for this CPU */
	while (!(found = READ_ONCE(rcu_readers[arch_cpu_id()].need_qs)) &&
	       ktime_get_ns() < deadline)
		arch_cpu_relax();	/* until a tick finds the reader */
	local_irq_save(flags);
	rcu_get_stats(&before);
	rcu_read_unlock();
	spin_ns(3 * TICK_NSEC);		/* the other CPUs tick meanwhile */
	rcu_get_stats(&after);
	local_irq_restore(flags);
	rcu_barrier();
	KTEST_EXPECT_TRUE(t, found);
	KTEST_EXPECT_EQ(t, after.completed, before.completed);
	KTEST_EXPECT_EQ(t, cb_runs, 1UL);
}

/* --- synchronize_rcu() against readers on another CPU --------------------- */

static struct {
	bool started, finished, sync_returned, seen_return;
	unsigned long gp_before;
	u64 hold_ns;
} sr;

/* A reader with interrupts off (a cross-CPU call), started before. */
static void prior_reader(void *info)
{
	(void)info;
	rcu_read_lock();
	WRITE_ONCE(sr.started, true);
	spin_ns(sr.hold_ns);
	WRITE_ONCE(sr.seen_return, READ_ONCE(sr.sync_returned));
	WRITE_ONCE(sr.finished, true);
	rcu_read_unlock();
}

static unsigned int other_cpu(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (cpu != arch_cpu_id() && cpu_online(cpu))
			return cpu;
	return NR_CPUS;
}

static void test_synchronize_waits_for_prior_reader(struct ktest *t)
{
	unsigned int cpu = other_cpu();

	if (cpu == NR_CPUS)
		ktest_skip(t, "one CPU online");
	memset(&sr, 0, sizeof(sr));
	sr.hold_ns = 200 * NSEC_PER_MSEC;
	KTEST_ASSERT_EQ(t, smp_call_function_single(cpu, prior_reader, NULL,
						    false), 0);
	KTEST_ASSERT_TRUE(t, wait_flag(&sr.started, WAIT_S));
	synchronize_rcu();
	WRITE_ONCE(sr.sync_returned, true);
	KTEST_EXPECT_TRUE(t, READ_ONCE(sr.finished));
	KTEST_EXPECT_TRUE(t, wait_flag(&sr.finished, WAIT_S));
	KTEST_EXPECT_FALSE(t, sr.seen_return);
}

/*
 * A reader that begins after synchronize_rcu() began, once its CPU has
 * reported for that GP: synchronize_rcu() must return while it still
 * reads. The GP is held open by this CPU's own reader until the later
 * reader is in, so that "after" is certain; synchronize_rcu() runs on a
 * third CPU. Needs arch_cpu_run() (interrupts on: the reader's CPU
 * reports from its tick).
 */
static void later_reader(void *info)
{
	u64 deadline = ktime_get_ns() + WAIT_S * NSEC_PER_SEC;
	unsigned int cpu = arch_cpu_id();
	struct rcu_stats st;

	(void)info;
	for (;;) {
		rcu_get_stats(&st);
		if (st.gp_seq == sr.gp_before + 1 &&
		    !cpumask_test_cpu(cpu, &st.qsmask))
			break;
		if (ktime_get_ns() > deadline)
			return;
		arch_cpu_relax();
	}
	rcu_read_lock();
	WRITE_ONCE(sr.started, true);
	while (!READ_ONCE(sr.sync_returned) && ktime_get_ns() < deadline)
		arch_cpu_relax();
	WRITE_ONCE(sr.seen_return, READ_ONCE(sr.sync_returned));
	rcu_read_unlock();
	WRITE_ONCE(sr.finished, true);
}

static void sync_caller(void *info)
{
	(void)info;
	synchronize_rcu();
	WRITE_ONCE(sr.sync_returned, true);
}

static void test_synchronize_ignores_later_reader(struct ktest *t)
{
	struct rcu_stats st;
	int err;

	memset(&sr, 0, sizeof(sr));
	rcu_barrier();			/* no GP runs: the next is ours */
	rcu_read_lock();		/* holds that GP open */
	rcu_get_stats(&st);
	sr.gp_before = st.gp_seq;
	err = arch_cpu_run(1, later_reader, NULL);
	if (err) {
		rcu_read_unlock();
		ktest_skip(t, "arch_cpu_run: %d", err);
	}
	err = arch_cpu_run(2, sync_caller, NULL);
	if (err) {
		rcu_read_unlock();
		WRITE_ONCE(sr.sync_returned, true);
		arch_cpu_join(1);
		ktest_skip(t, "arch_cpu_run: %d", err);
	}
	KTEST_EXPECT_TRUE(t, wait_flag(&sr.started, WAIT_S));
	KTEST_EXPECT_FALSE(t, READ_ONCE(sr.sync_returned));
	rcu_read_unlock();		/* now only the later reader is in */
	arch_cpu_join(2);
	arch_cpu_join(1);
	KTEST_EXPECT_TRUE(t, sr.finished);
	KTEST_EXPECT_TRUE(t, sr.seen_return);	/* returned while it read */
}

/* --- torture -------------------------------------------------------------- */

struct elem {
	unsigned long magic;
	unsigned long value;
	unsigned long check;		/* ~value */
	struct rcu_head rh;
};

static struct {
	struct elem *slots[NR_SLOTS];
	bool stop;
	unsigned long reads[NR_CPUS];
	unsigned long errors[NR_CPUS];
	unsigned long gp_errors[NR_CPUS];
	unsigned long first_bad;
} tort;

static bool elem_intact(const struct elem *e)
{
	unsigned long v = READ_ONCE(e->value);

	if (READ_ONCE(e->magic) != ELEM_ALIVE || READ_ONCE(e->check) != ~v)
		return false;
	for (int i = 0; i < 4; i++)
		arch_cpu_relax();
	/* Freed and reused under a reader: a new value or the poison. */
	return READ_ONCE(e->value) == v && READ_ONCE(e->magic) == ELEM_ALIVE;
}

static void torture_check(unsigned int cpu, const struct elem *e)
{
	if (!elem_intact(e)) {
		tort.errors[cpu]++;
		WRITE_ONCE(tort.first_bad, (unsigned long)e);
	}
}

/*
 * One walk over the table. Every TORTURE_LONG_EVERY-th walk of a reader
 * on another CPU also holds one element across a tick or two, as
 * rcutorture's readers sometimes delay: a GP that ended without this
 * CPU's QS would let the writer free and reuse it meanwhile.
 */
#define TORTURE_LONG_EVERY	128

static void torture_read_pass(unsigned int cpu, bool long_reads)
{
	unsigned long pass = tort.reads[cpu];

	rcu_read_lock();
	for (unsigned int i = 0; i < NR_SLOTS; i++)
		torture_check(cpu, rcu_dereference(tort.slots[i]));
	if (long_reads && !(pass % TORTURE_LONG_EVERY)) {
		const struct elem *e = rcu_dereference(tort.slots[pass % NR_SLOTS]);
		struct rcu_stats st0, st1;

		rcu_get_stats(&st0);
		torture_check(cpu, e);
		spin_ns(2 * TICK_NSEC + TICK_NSEC / 2);
		torture_check(cpu, e);
		rcu_get_stats(&st1);
		/* A whole GP (begun after us) ended while we read. */
		if (st1.completed - st0.completed >= 2)
			tort.gp_errors[cpu]++;
	}
	rcu_read_unlock();
	tort.reads[cpu]++;
}

static void torture_reader(void *info)
{
	unsigned int cpu = arch_cpu_id();

	(void)info;
	while (!READ_ONCE(tort.stop))
		torture_read_pass(cpu, true);
}

static void elem_free_cb(struct rcu_head *head)
{
	struct elem *e = container_of(head, struct elem, rh);

	e->magic = ELEM_DEAD;
	e->value = ELEM_DEAD;
	e->check = 0;
	kfree(e);
}

static struct elem *elem_new(unsigned long value)
{
	struct elem *e = kmalloc(sizeof(*e), GFP_KERNEL);

	if (!e)
		return NULL;
	memset(&e->rh, 0, sizeof(e->rh));
	e->value = value;
	e->check = ~value;
	e->magic = ELEM_ALIVE;
	return e;
}

static bool torture_throttle(u64 deadline)
{
	while (rcu_pending_callbacks() > TORTURE_BACKLOG)
		if (ktime_get_ns() > deadline)
			return false;
		else
			arch_cpu_relax();
	return ktime_get_ns() <= deadline;
}

static void test_torture(struct ktest *t)
{
	u64 start = ktime_get_ns(), deadline = start + TORTURE_BUDGET_S * NSEC_PER_SEC;
	unsigned int readers[NR_READERS], nr_readers = 0;
	struct rcu_stats before, after;
	unsigned long n, gen = 0, reads = 0, errors = 0, gp_errors = 0;

	memset(&tort, 0, sizeof(tort));
	for (unsigned int i = 0; i < NR_SLOTS; i++) {
		tort.slots[i] = elem_new(++gen);
		KTEST_ASSERT_NOT_NULL(t, tort.slots[i]);
	}
	rcu_get_stats(&before);
	for (unsigned int cpu = 1; cpu < nr_cpu_ids && nr_readers < NR_READERS; cpu++)
		if (!arch_cpu_run(cpu, torture_reader, NULL))
			readers[nr_readers++] = cpu;
	for (n = 0; n < TORTURE_UPDATES; n++) {
		unsigned int i = n % NR_SLOTS;
		struct elem *old = tort.slots[i], *e = elem_new(++gen);

		if (!e)
			break;
		rcu_assign_pointer(tort.slots[i], e);
		if (n & 1)
			call_rcu(&old->rh, elem_free_cb);
		else
			kfree_rcu(old, rh);
		if (!nr_readers)
			torture_read_pass(arch_cpu_id(), false);	/* one CPU */
		if (!(n % 1024) && !torture_throttle(deadline))
			break;
	}
	WRITE_ONCE(tort.stop, true);
	for (unsigned int r = 0; r < nr_readers; r++)
		arch_cpu_join(readers[r]);
	for (unsigned int i = 0; i < NR_SLOTS; i++)
		kfree(tort.slots[i]);
	rcu_barrier();
	rcu_get_stats(&after);
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		reads += tort.reads[cpu];
		errors += tort.errors[cpu];
		gp_errors += tort.gp_errors[cpu];
	}
	ktest_info(t, "%lu updates in %llu ms, %u reader CPUs, %lu read passes, %lu grace periods, %lu bad reads, %lu GPs inside a reader",
		   n, (unsigned long long)((ktime_get_ns() - start) / NSEC_PER_MSEC),
		   nr_readers, reads, after.completed - before.completed, errors,
		   gp_errors);
	KTEST_EXPECT_EQ(t, errors, 0UL);
	KTEST_EXPECT_EQ(t, gp_errors, 0UL);
	KTEST_EXPECT_GE(t, n, TORTURE_MIN_UPDATES);
	KTEST_EXPECT_GT(t, reads, 0UL);
	for (unsigned int r = 0; r < nr_readers; r++)
		KTEST_EXPECT_GT(t, tort.reads[readers[r]], 0UL);
	KTEST_EXPECT_GE(t, after.completed - before.completed, 2UL);
}

/* --- SLAB_TYPESAFE_BY_RCU ------------------------------------------------- */

static bool page_of_cache(const void *obj, struct kmem_cache *c)
{
	struct page *page = compound_head(virt_to_page(obj));

	return PageSlab(page) && page_slab(page)->slab_cache == c;
}

static void test_typesafe_by_rcu(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("t-rcu-typesafe", 512, 0,
						 SLAB_TYPESAFE_BY_RCU, NULL);
	unsigned long free_before, free_in_reader, free_after;
	unsigned long slab_pages;
	char *p;

	KTEST_ASSERT_NOT_NULL(t, c);
	skip_kasan_layout_cache(t, c);
	free_before = pages_baseline();
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	slab_pages = 1UL << compound_order(compound_head(virt_to_page(p)));
	memset(p, 0x5c, 512);
	rcu_read_lock();
	kmem_cache_free(c, p);
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
	KTEST_EXPECT_EQ(t, c->node[0]->total_slabs, 0UL);
	spin_ns(5 * TICK_NSEC);		/* ticks find this CPU a reader */
	drain_all_pages();
	free_in_reader = pages_free();
	/* The reader still reads the cache's memory, not the buddy's. */
	KTEST_EXPECT_TRUE(t, page_of_cache(p, c));
	KTEST_EXPECT_EQ(t, (unsigned char)READ_ONCE(p[100]), 0x5cU);
	rcu_read_unlock();
	rcu_barrier();
	drain_all_pages();
	free_after = pages_free();
	KTEST_EXPECT_FALSE(t, PageSlab(compound_head(virt_to_page(p))));
	KTEST_EXPECT_GE(t, free_after, free_in_reader + slab_pages);
	KTEST_EXPECT_EQ(t, free_after, free_before);
	ktest_info(t, "%lu page(s) held for the reader, back after the GP",
		   slab_pages);
	kmem_cache_destroy(c);
}

/* Objects are reused at once within the cache; only pages wait. */
static void test_typesafe_reuse_at_once(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("t-rcu-reuse", 128, 0,
						 SLAB_TYPESAFE_BY_RCU, NULL);
	void *p, *q;

	KTEST_ASSERT_NOT_NULL(t, c);
	skip_debugged_cache(t, c);
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	rcu_read_lock();
	kmem_cache_free(c, p);
	q = kmem_cache_alloc(c, GFP_KERNEL);
	rcu_read_unlock();
	KTEST_EXPECT_PTR_EQ(t, q, p);
	kmem_cache_free(c, q);
	kmem_cache_destroy(c);		/* waits for its pending pages */
}

/* --- stalls --------------------------------------------------------------- */

static struct rcu_head stall_head;

static void restore_timeout(void *arg)
{
	rcu_set_stall_timeout((unsigned int)(unsigned long)arg);
}

static bool wait_stall_report(unsigned long stalls_before)
{
	u64 deadline = ktime_get_ns() + WAIT_S * NSEC_PER_SEC;
	struct rcu_stats st;

	do {
		rcu_get_stats(&st);
		if (st.stalls > stalls_before)
			return true;
		arch_cpu_relax();
	} while (ktime_get_ns() < deadline);
	return false;
}

/*
 * Another CPU reports the stall if this one's tick does not come within
 * the half timeout it has to itself (kernel/rcu.c): on a busy host its
 * vCPU or thread can be held off that long. That report names this CPU
 * too; the case then runs again, STALL_TRIES times at most.
 */
#define STALL_TRIES	3

/* This CPU stays in a reader with interrupts on: it reports itself. */
static void test_stall_self_detected(struct ktest *t)
{
	unsigned int old = rcu_set_stall_timeout(1);
	bool reported = true, self = false;
	char name[16];

	KTEST_ASSERT_EQ(t, ktest_add_action_or_reset(t, restore_timeout,
				(void *)(unsigned long)old), 0);
	snprintf(name, sizeof(name), "\t%u-...!", arch_cpu_id());
	for (int try = 0; try < STALL_TRIES && reported && !self; try++) {
		struct rcu_stats st;

		if (try)
			ktest_info(t, "another CPU reported the stall first, again");
		rcu_get_stats(&st);
		memset(&stall_head, 0, sizeof(stall_head));
		ktest_capture_start(t, "rcu: INFO: rcu_sched");
		rcu_read_lock();
		call_rcu(&stall_head, count_cb);	/* a GP that waits for us */
		reported = wait_stall_report(st.stalls);
		spin_ns(2 * TICK_NSEC);
		rcu_read_unlock();
		KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
		KTEST_EXPECT_NOT_NULL(t, strstr(ktest_captured(t), name));
		self = strstr(ktest_captured(t),
			      "rcu: INFO: rcu_sched self-detected stall on CPU");
		rcu_barrier();			/* and the kernel goes on */
	}
	KTEST_EXPECT_TRUE(t, reported);
	KTEST_EXPECT_TRUE(t, self);
}

static struct {
	bool started, done;
	unsigned long stalls_before;
	bool reported;
} stall;

/* Interrupts off inside a reader until another CPU reports it. */
static void stuck_reader(void *info)
{
	(void)info;
	rcu_read_lock();
	WRITE_ONCE(stall.started, true);
	stall.reported = wait_stall_report(stall.stalls_before);
	rcu_read_unlock();
	WRITE_ONCE(stall.done, true);
}

static void test_stall_detected_by_other(struct ktest *t)
{
	unsigned int cpu = other_cpu(), old;
	struct rcu_stats st;
	char name[16];

	if (cpu == NR_CPUS)
		ktest_skip(t, "one CPU online");
	old = rcu_set_stall_timeout(1);
	KTEST_ASSERT_EQ(t, ktest_add_action_or_reset(t, restore_timeout,
				(void *)(unsigned long)old), 0);
	rcu_get_stats(&st);
	memset(&stall, 0, sizeof(stall));
	stall.stalls_before = st.stalls;
	memset(&stall_head, 0, sizeof(stall_head));
	ktest_capture_start(t, "rcu: INFO: rcu_sched");
	KTEST_ASSERT_EQ(t, smp_call_function_single(cpu, stuck_reader, NULL,
						    false), 0);
	KTEST_EXPECT_TRUE(t, wait_flag(&stall.started, WAIT_S));
	call_rcu(&stall_head, count_cb);
	KTEST_EXPECT_TRUE(t, wait_flag(&stall.done, 2 * WAIT_S));
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_TRUE(t, stall.reported);
	KTEST_EXPECT_NOT_NULL(t, strstr(ktest_captured(t),
		"rcu: INFO: rcu_sched detected stalls on CPUs/tasks:"));
	snprintf(name, sizeof(name), "\t%u-...!", cpu);
	KTEST_EXPECT_NOT_NULL(t, strstr(ktest_captured(t), name));
	rcu_barrier();
}

static const struct ktest_case rcu_cases[] = {
	KTEST_CASE(test_read_lock_nests),
	KTEST_CASE(test_unlock_without_lock),
	KTEST_CASE(test_wait_inside_reader),
	KTEST_CASE(test_wait_in_interrupt),
	KTEST_CASE(test_call_rcu_after_gp),
	KTEST_CASE(test_call_rcu_twice),
	KTEST_CASE(test_call_rcu_head_garbage),
	KTEST_CASE(test_kfree_rcu_slot_garbage),
	KTEST_CASE(test_rcu_barrier_waits_all),
	KTEST_CASE(test_rcu_barrier_here_only),
	KTEST_CASE(test_destroy_waits_only_for_typesafe),
	KTEST_CASE(test_destroy_with_kfree_rcu_pending),
	KTEST_CASE(test_kfree_rcu),
	KTEST_CASE(test_kfree_rcu_vmalloc),
	KTEST_CASE(test_kvfree_rcu),
	KTEST_CASE(test_kvfree_rcu_bad_vmalloc_pointer),
	KTEST_CASE(test_kfree_rcu_no_memory),
	KTEST_CASE(test_kfree_rcu_mightsleep_in_reader),
	KTEST_CASE(test_kfree_rcu_bad_pointer),
	KTEST_CASE(test_irqs_off_is_reader),
	KTEST_CASE(test_synchronize_waits_for_prior_reader),
	KTEST_CASE(test_synchronize_ignores_later_reader),
	KTEST_CASE(test_torture),
	KTEST_CASE(test_typesafe_by_rcu),
	KTEST_CASE(test_typesafe_reuse_at_once),
	KTEST_CASE(test_stall_self_detected),
	KTEST_CASE(test_stall_detected_by_other),
	{}
};
KTEST_SUITE(rcu, rcu_cases, .init = rcu_test_init);

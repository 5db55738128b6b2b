// SPDX-License-Identifier: GPL-2.0
/*
 * Interrupts: the interrupt flag, self-IPIs, the vector table, and the
 * allocators called from an interrupt handler (kernel/irq.h). The same
 * cases run on x86_64 (local APIC, RFLAGS.IF) and on the host (SIGUSR1
 * behind a soft flag).
 *
 * The allocator case uses one CPU: the allocators run with interrupts
 * off, so a handler that allocates runs where they come back on. The
 * case raises the self-IPI with interrupts off right before an
 * allocation or free (the handler runs at the restore), from a slab
 * constructor (inside the slab allocator growing a cache: the handler
 * runs when the allocator turns interrupts back on, with its own call
 * still on the stack) and from a shrinker's callback (inside reclaim),
 * while a loop of kmalloc/kfree/shrink runs. Every raise is handled
 * exactly once, every object the handler allocates is freed, the lock
 * validator stays quiet.
 */
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/lockdep.h"
#include "kernel/shell.h"
#include "lib/ktest/ktest.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/mm.h"
#include "mm/shrinker.h"
#include "mm/slab.h"

#define VEC_LOW		0x50
#define VEC_HIGH	0x60
#define VEC_ALLOC	0x41
#define VEC_NESTED	0x70
#define VEC_NONE	0xe0	/* never registered */

static struct irq_probe {
	unsigned long hits[NR_VECTORS];
	unsigned long bad_context;	/* ran with interrupts on, or not in hardirq */
	unsigned int order[8];		/* vectors in the order they ran */
	unsigned int nr_order;
} probe;

static void probe_handler(unsigned int vector)
{
	if (!irqs_disabled() || !in_hardirq() || !in_interrupt())
		probe.bad_context++;
	probe.hits[vector]++;
	if (probe.nr_order < ARRAY_SIZE(probe.order))
		probe.order[probe.nr_order++] = vector;
}

static void remove_handler(void *arg)
{
	set_irq_handler((unsigned int)(unsigned long)arg, NULL);
}

/* Claim vector for probe_handler until the case ends. */
static void use_vector(struct ktest *t, unsigned int vector,
		       irq_handler_t handler)
{
	KTEST_ASSERT_EQ(t, set_irq_handler(vector, handler), 0);
	KTEST_ASSERT_EQ(t, ktest_add_action_or_reset(t, remove_handler,
				(void *)(unsigned long)vector), 0);
}

static void probe_reset(void)
{
	memset(&probe, 0, sizeof(probe));
}

static void test_irqs_on_in_normal_operation(struct ktest *t)
{
	KTEST_EXPECT_FALSE(t, irqs_disabled());
	KTEST_EXPECT_FALSE(t, in_hardirq());
	KTEST_EXPECT_FALSE(t, in_interrupt());
}

static void test_irq_save_restore_nested(struct ktest *t)
{
	unsigned long outer, inner;

	local_irq_save(outer);
	KTEST_EXPECT_TRUE(t, irqs_disabled());
	local_irq_save(inner);
	KTEST_EXPECT_TRUE(t, irqs_disabled());
	local_irq_restore(inner);
	KTEST_EXPECT_TRUE(t, irqs_disabled());	/* still the outer's */
	local_irq_restore(outer);
	KTEST_EXPECT_FALSE(t, irqs_disabled());

	local_irq_disable();
	KTEST_EXPECT_TRUE(t, irqs_disabled());
	local_irq_enable();
	KTEST_EXPECT_FALSE(t, irqs_disabled());
}

static void leave_irqs_off(struct ktest *t)
{
	local_irq_disable();
}

/* The runner fails a case that ends with interrupts off, and fixes them. */
static void test_case_leaving_irqs_off_fails(struct ktest *t)
{
	ktest_capture_start(t, "left interrupts off");
	KTEST_EXPECT_EQ(t, ktest_run_nested(t, "deliberate-irqs-off",
					    leave_irqs_off, NULL),
			KTEST_FAILURE);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_FALSE(t, irqs_disabled());
}

static void test_set_irq_handler_bad_input(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, set_irq_handler(0, probe_handler), -EINVAL);
	KTEST_EXPECT_EQ(t, set_irq_handler(FIRST_EXTERNAL_VECTOR - 1,
					   probe_handler), -EINVAL);
	KTEST_EXPECT_EQ(t, set_irq_handler(ERROR_APIC_VECTOR, probe_handler),
			-EINVAL);
	KTEST_EXPECT_EQ(t, set_irq_handler(SPURIOUS_APIC_VECTOR,
					   probe_handler), -EINVAL);
	KTEST_EXPECT_EQ(t, set_irq_handler(NR_VECTORS, probe_handler), -EINVAL);
	KTEST_EXPECT_EQ(t, set_irq_handler(~0U, probe_handler), -EINVAL);
	KTEST_EXPECT_EQ(t, arch_set_irq_handler(VEC_LOW, probe_handler),
			-EINVAL);

	use_vector(t, VEC_LOW, probe_handler);
	KTEST_EXPECT_EQ(t, set_irq_handler(VEC_LOW, probe_handler), -EBUSY);
	KTEST_EXPECT_EQ(t, set_irq_handler(VEC_LOW, NULL), 0);
	KTEST_EXPECT_EQ(t, set_irq_handler(VEC_LOW, NULL), 0);	/* twice */
	KTEST_EXPECT_EQ(t, set_irq_handler(VEC_LOW, probe_handler), 0);
}

static void test_self_ipi_runs_at_once(struct ktest *t)
{
	unsigned long before = irq_vector_count(VEC_LOW);

	probe_reset();
	use_vector(t, VEC_LOW, probe_handler);
	apic_send_IPI_self(VEC_LOW);
	KTEST_EXPECT_EQ(t, probe.hits[VEC_LOW], 1UL);
	KTEST_EXPECT_EQ(t, irq_vector_count(VEC_LOW), before + 1);
	KTEST_EXPECT_EQ(t, probe.bad_context, 0UL);
	KTEST_EXPECT_FALSE(t, in_hardirq());
	KTEST_EXPECT_FALSE(t, irqs_disabled());
}

static void test_self_ipi_deferred_until_restore(struct ktest *t)
{
	unsigned long outer, inner;

	probe_reset();
	use_vector(t, VEC_LOW, probe_handler);
	local_irq_save(outer);
	apic_send_IPI_self(VEC_LOW);
	apic_send_IPI_self(VEC_LOW);	/* one request bit: runs once */
	KTEST_EXPECT_EQ(t, probe.hits[VEC_LOW], 0UL);
	local_irq_save(inner);
	local_irq_restore(inner);	/* interrupts stay off */
	KTEST_EXPECT_EQ(t, probe.hits[VEC_LOW], 0UL);
	local_irq_restore(outer);
	KTEST_EXPECT_EQ(t, probe.hits[VEC_LOW], 1UL);
	KTEST_EXPECT_EQ(t, probe.bad_context, 0UL);

	/* Nothing left pending: another restore runs nothing. */
	local_irq_save(outer);
	local_irq_restore(outer);
	KTEST_EXPECT_EQ(t, probe.hits[VEC_LOW], 1UL);
}

/* Two vectors pending: the higher one runs first, as the APIC orders them. */
static void test_self_ipi_priority(struct ktest *t)
{
	unsigned long flags;

	probe_reset();
	use_vector(t, VEC_LOW, probe_handler);
	use_vector(t, VEC_HIGH, probe_handler);
	local_irq_save(flags);
	apic_send_IPI_self(VEC_LOW);
	apic_send_IPI_self(VEC_HIGH);
	local_irq_restore(flags);
	KTEST_ASSERT_EQ(t, probe.nr_order, 2U);
	KTEST_EXPECT_EQ(t, probe.order[0], (unsigned int)VEC_HIGH);
	KTEST_EXPECT_EQ(t, probe.order[1], (unsigned int)VEC_LOW);
}

static void test_self_ipi_many(struct ktest *t)
{
	unsigned long i, missed = 0;

	probe_reset();
	use_vector(t, VEC_LOW, probe_handler);
	for (i = 0; i < 10000; i++) {
		apic_send_IPI_self(VEC_LOW);
		missed += probe.hits[VEC_LOW] != i + 1;
	}
	KTEST_EXPECT_EQ(t, missed, 0UL);
	KTEST_EXPECT_EQ(t, probe.hits[VEC_LOW], 10000UL);
	KTEST_EXPECT_EQ(t, probe.bad_context, 0UL);
}

/* A handler raising another vector: it runs after, not inside, the first. */
static bool nested_seen_early;

static void nesting_handler(unsigned int vector)
{
	probe_handler(vector);
	apic_send_IPI_self(VEC_LOW);
	nested_seen_early = probe.hits[VEC_LOW] != 0;
}

static void test_self_ipi_from_handler(struct ktest *t)
{
	probe_reset();
	nested_seen_early = false;
	use_vector(t, VEC_LOW, probe_handler);
	use_vector(t, VEC_NESTED, nesting_handler);
	apic_send_IPI_self(VEC_NESTED);
	/* x86 takes it after iretq: give it a few instructions to. */
	for (int i = 0; i < 1000 && !probe.hits[VEC_LOW]; i++)
		arch_cpu_relax();
	KTEST_EXPECT_FALSE(t, nested_seen_early);
	KTEST_EXPECT_EQ(t, probe.hits[VEC_NESTED], 1UL);
	KTEST_EXPECT_EQ(t, probe.hits[VEC_LOW], 1UL);
	KTEST_ASSERT_EQ(t, probe.nr_order, 2U);
	KTEST_EXPECT_EQ(t, probe.order[0], (unsigned int)VEC_NESTED);
	KTEST_EXPECT_EQ(t, probe.bad_context, 0UL);
}

static void test_self_ipi_bad_vector(struct ktest *t)
{
	unsigned long unhandled = irq_unhandled_count();

	ktest_capture_start(t, "WARNING:");
	apic_send_IPI_self(0);
	apic_send_IPI_self(FIRST_EXTERNAL_VECTOR - 1);
	apic_send_IPI_self(NR_VECTORS);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 3U);
	KTEST_EXPECT_CAPTURED(t, "self-IPI with invalid vector 0x1f");
	KTEST_EXPECT_EQ(t, irq_unhandled_count(), unhandled);
	KTEST_EXPECT_EQ(t, irq_vector_count(0), 0UL);
}

/*
 * The spurious vector is counted, not reported as unhandled; on x86_64
 * an IPI sent on it is in service and must be acknowledged, or the next
 * interrupt would never come.
 */
static void test_spurious_vector(struct ktest *t)
{
	unsigned long spurious = irq_vector_count(SPURIOUS_APIC_VECTOR);
	unsigned long unhandled = irq_unhandled_count();

	probe_reset();
	use_vector(t, VEC_LOW, probe_handler);
	ktest_capture_start(t, NULL);
	apic_send_IPI_self(SPURIOUS_APIC_VECTOR);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
	KTEST_EXPECT_EQ(t, irq_vector_count(SPURIOUS_APIC_VECTOR), spurious + 1);
	KTEST_EXPECT_EQ(t, irq_unhandled_count(), unhandled);
	apic_send_IPI_self(VEC_LOW);
	KTEST_EXPECT_EQ(t, probe.hits[VEC_LOW], 1UL);
}

/* A vector nobody claimed: counted, reported, acknowledged. */
static void test_unregistered_vector(struct ktest *t)
{
	unsigned long unhandled = irq_unhandled_count();
	unsigned long count = irq_vector_count(VEC_NONE);

	probe_reset();
	use_vector(t, VEC_LOW, probe_handler);
	apic_send_IPI_self(VEC_NONE);
	KTEST_EXPECT_EQ(t, irq_unhandled_count(), unhandled + 1);
	KTEST_EXPECT_EQ(t, irq_vector_count(VEC_NONE), count + 1);
	/* Acknowledged: a lower vector still gets through. */
	apic_send_IPI_self(VEC_LOW);
	KTEST_EXPECT_EQ(t, probe.hits[VEC_LOW], 1UL);
	KTEST_EXPECT_FALSE(t, irqs_disabled());
}

static void test_interrupts_command(struct ktest *t)
{
	char line[32];

	probe_reset();
	use_vector(t, VEC_HIGH, probe_handler);
	apic_send_IPI_self(VEC_HIGH);
	ktest_capture_start(t, "0x60");
	strscpy(line, "interrupts", sizeof(line));
	KTEST_EXPECT_EQ(t, shell_exec(line), 0);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "claimed");
	KTEST_EXPECT_CAPTURED(t, "unhandled ");
	strscpy(line, "interrupts extra", sizeof(line));
	ktest_capture_start(t, "usage: interrupts");
	KTEST_EXPECT_EQ(t, shell_exec(line), -EINVAL);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
}

/* --- the allocators from an interrupt handler --------------------------- */

#define STRESS_ROUNDS	3000
#define STRESS_LIVE	64

static const size_t handler_sizes[] = { 8, 96, 256, 1024, 4096, 16384 };

static struct irq_alloc {
	struct kmem_cache *cache;	/* the handler's */
	struct kmem_cache *ctor_cache;	/* whose constructor raises the IPI */
	bool outstanding;		/* raised, handler not run yet */
	bool arm_ctor, arm_shrinker;
	unsigned long raised, runs;
	unsigned long allocs, frees, failures, bad_context;
	unsigned long ctor_raises, shrinker_raises;
} ia;

static void raise_once(void)
{
	if (ia.outstanding)	/* one request bit: would merge */
		return;
	ia.outstanding = true;
	ia.raised++;
	apic_send_IPI_self(VEC_ALLOC);
}

static void alloc_handler(unsigned int vector)
{
	void *obj[ARRAY_SIZE(handler_sizes)], *cobj;
	struct page *pages[4];

	if (!irqs_disabled() || !in_hardirq())
		ia.bad_context++;
	ia.runs++;
	ia.outstanding = false;
	for (unsigned int i = 0; i < ARRAY_SIZE(handler_sizes); i++) {
		obj[i] = kmalloc(handler_sizes[i], GFP_ATOMIC | __GFP_NOWARN);
		if (obj[i]) {
			memset(obj[i], 0xa5, handler_sizes[i]);
			ia.allocs++;
		} else {
			ia.failures++;
		}
	}
	cobj = kmem_cache_alloc(ia.cache, GFP_ATOMIC | __GFP_NOWARN);
	ia.allocs += !!cobj;
	ia.failures += !cobj;
	for (unsigned int order = 0; order < 4; order++) {
		pages[order] = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, order);
		if (pages[order]) {
			memset(page_address(pages[order]), 0x5a,
			       PAGE_SIZE << order);
			ia.allocs++;
		} else {
			ia.failures++;
		}
	}
	for (unsigned int order = 0; order < 4; order++) {
		if (pages[order]) {
			__free_pages(pages[order], order);
			ia.frees++;
		}
	}
	if (cobj) {
		kmem_cache_free(ia.cache, cobj);
		ia.frees++;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(handler_sizes); i++) {
		if (obj[i]) {
			kfree(obj[i]);
			ia.frees++;
		}
	}
}

/* Runs inside the slab allocator, growing ctor_cache. */
static void raising_ctor(void *obj)
{
	memset(obj, 0, 64);
	if (ia.arm_ctor) {
		ia.arm_ctor = false;
		ia.ctor_raises++;
		raise_once();
	}
}

static unsigned long raising_count(struct shrinker *s,
				   struct shrink_control *sc)
{
	return ia.arm_shrinker ? 1024 : 0;
}

/* Runs inside reclaim (drop_slab()). */
static unsigned long raising_scan(struct shrinker *s,
				  struct shrink_control *sc)
{
	if (ia.arm_shrinker) {
		ia.arm_shrinker = false;
		ia.shrinker_raises++;
		raise_once();
	}
	return SHRINK_STOP;
}

static struct shrinker raising_shrinker = {
	.count_objects = raising_count,
	.scan_objects = raising_scan,
};

static void stress_round(unsigned long round, void **live, u64 *seed)
{
	unsigned long flags;
	void *p;
	unsigned int slot;

	*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
	slot = (unsigned int)(*seed >> 33) % STRESS_LIVE;
	switch (round % 5) {
	case 0:		/* pending across an allocation, run at restore */
		local_irq_save(flags);
		raise_once();
		p = kmalloc(16 + (*seed >> 40) % 2048, GFP_KERNEL);
		local_irq_restore(flags);
		kfree(live[slot]);
		live[slot] = p;
		break;
	case 1:		/* pending across a free */
		local_irq_save(flags);
		raise_once();
		kfree(live[slot]);
		live[slot] = NULL;
		local_irq_restore(flags);
		break;
	case 2:		/* from the constructor, inside cache growth */
		kmem_cache_shrink(ia.ctor_cache);
		ia.arm_ctor = true;
		p = kmem_cache_alloc(ia.ctor_cache, GFP_KERNEL);
		ia.arm_ctor = false;
		kmem_cache_free(ia.ctor_cache, p);
		break;
	case 3:		/* from a shrinker, inside reclaim */
		if (round % 50 == 3) {
			ia.arm_shrinker = true;
			drop_slab();
			ia.arm_shrinker = false;
		} else {
			kmem_cache_shrink(ia.cache);
		}
		break;
	default:	/* plain traffic, interrupts on */
		kfree(live[slot]);
		live[slot] = kmalloc(8 + (*seed >> 44) % 8192, GFP_KERNEL);
		break;
	}
}

static void test_alloc_from_irq_handler(struct ktest *t)
{
	void *live[STRESS_LIVE] = { NULL };
	unsigned long lockdep_before = lockdep_reports;
	u64 seed = 0x1234567;

	memset(&ia, 0, sizeof(ia));
	ia.cache = kmem_cache_create("irq_test", 200, 0, 0, NULL);
	KTEST_ASSERT_PTR_NE(t, ia.cache, NULL);
	ia.ctor_cache = kmem_cache_create("irq_test_ctor", 64, 0, 0,
					  raising_ctor);
	KTEST_ASSERT_PTR_NE(t, ia.ctor_cache, NULL);
	KTEST_ASSERT_EQ(t, register_shrinker(&raising_shrinker, "irq-test"), 0);
	use_vector(t, VEC_ALLOC, alloc_handler);

	for (unsigned long round = 0; round < STRESS_ROUNDS; round++)
		stress_round(round, live, &seed);
	for (unsigned int i = 0; i < STRESS_LIVE; i++)
		kfree(live[i]);

	unregister_shrinker(&raising_shrinker);
	kmem_cache_destroy(ia.ctor_cache);
	kmem_cache_destroy(ia.cache);

	ktest_info(t, "%lu interrupts (%lu from a constructor, %lu from a shrinker), %lu objects and pages",
		   ia.runs, ia.ctor_raises, ia.shrinker_raises, ia.allocs);
	KTEST_EXPECT_FALSE(t, ia.outstanding);
	KTEST_EXPECT_EQ(t, ia.runs, ia.raised);
	KTEST_EXPECT_GE(t, ia.runs, STRESS_ROUNDS * 2UL / 5);
	KTEST_EXPECT_GT(t, ia.ctor_raises, 0UL);
	KTEST_EXPECT_GT(t, ia.shrinker_raises, 0UL);
	KTEST_EXPECT_EQ(t, ia.failures, 0UL);
	KTEST_EXPECT_EQ(t, ia.allocs, ia.frees);
	KTEST_EXPECT_EQ(t, ia.allocs, ia.runs * 11);
	KTEST_EXPECT_EQ(t, ia.bad_context, 0UL);
	KTEST_EXPECT_EQ(t, lockdep_reports, lockdep_before);
	KTEST_EXPECT_FALSE(t, irqs_disabled());
}

static const struct ktest_case irq_cases[] = {
	KTEST_CASE(test_irqs_on_in_normal_operation),
	KTEST_CASE(test_irq_save_restore_nested),
	KTEST_CASE(test_case_leaving_irqs_off_fails),
	KTEST_CASE(test_set_irq_handler_bad_input),
	KTEST_CASE(test_self_ipi_runs_at_once),
	KTEST_CASE(test_self_ipi_deferred_until_restore),
	KTEST_CASE(test_self_ipi_priority),
	KTEST_CASE(test_self_ipi_many),
	KTEST_CASE(test_self_ipi_from_handler),
	KTEST_CASE(test_self_ipi_bad_vector),
	KTEST_CASE(test_spurious_vector),
	KTEST_CASE(test_unregistered_vector),
	KTEST_CASE(test_interrupts_command),
	KTEST_CASE(test_alloc_from_irq_handler),
	{}
};
KTEST_SUITE(irq, irq_cases);

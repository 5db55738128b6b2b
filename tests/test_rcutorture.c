// SPDX-License-Identifier: GPL-2.0
/*
 * rcutorture: RCU on every online CPU at once. CPU 0 runs a case's work
 * itself and hands the same work to every other CPU (arch_cpu_run(), as
 * the smp suite does); each case runs for torture_ms= milliseconds
 * (tests/torture.h) and reports what it did as a KTAP diagnostic line.
 *
 * test_rcutorture_all_cpus: every CPU reads and writes one table. It
 * owns TORT_SLOTS slots, whose elements it replaces one at a time,
 * freeing the old one in turn with call_rcu() (whose callback poisons
 * it), kfree_rcu(p, rh), kfree_rcu(p), kvfree_rcu(p, rh), kvfree_rcu(p)
 * and synchronize_rcu() (then poison and kfree), with an rcu_barrier()
 * now and then. Between two updates it walks the whole table under
 * rcu_read_lock(): every element must be intact, neither poisoned (by
 * the callback, or by slab_debug where kfree poisons) nor given out
 * again; every TORT_LONG_EVERY-th walk holds one element across two and
 * a half ticks and checks no grace period that began after it took the
 * element has ended.
 *
 * test_rcutorture_typesafe: a SLAB_TYPESAFE_BY_RCU cache, churned on
 * every CPU: each replaces its slots' objects and frees the old ones at
 * once (no grace period: the rules of such a cache), and shrinks the
 * cache after each round, so that its empty slabs go back to the page
 * allocator, each a grace period later. Readers look objects up under
 * rcu_read_lock(): an object may have been freed and given out again
 * (the identity check after the lookup, Linux's rule for these caches,
 * tells; the lookup counts a miss), but its memory must stay an object
 * of this cache, constructed: never a page given back, never foreign
 * memory. Each CPU runs its rounds inside a reader that holds one of
 * the next CPU's objects meanwhile and for two and a half ticks more,
 * so most holds see their object freed and the cache shrunk (with the
 * slab's release made immediate, the case finds foreign memory in every
 * run).
 */
#include "kernel/errno.h"
#include "kernel/rcupdate.h"
#include "kernel/time.h"
#include "lib/ktest/ktest.h"
#include "lib/string.h"
#include "mm/mm.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"	/* white-box: the slab behind an object */
#include "tests/mm_util.h"
#include "tests/torture.h"
#include "arch/arch.h"
#include "kernel/cpumask.h"

#define TORT_SLOTS		8	/* per CPU */
#define TORT_LONG_EVERY		64	/* walks per hold across ticks */
#define TORT_HOLD_NS		(2 * TICK_NSEC + TICK_NSEC / 2)
#define TORT_BACKLOG		4096UL	/* callbacks the writers let pile */
#define TORT_THROTTLE_EVERY	32	/* updates between two looks */
#define TORT_SYNC_EVERY		32	/* updates per synchronize_rcu() */
#define TORT_BARRIER_EVERY	256	/* updates per rcu_barrier() */
#define TORT_MIN_UPDATES	TORT_SYNC_EVERY	/* every way of freeing */
#define TORT_GRACE_S		60	/* past the deadline: a failure */
#define ELEM_ALIVE		0x600dcafe600dcafeUL
#define ELEM_DEAD		0xdeaddeaddeaddeadUL

/* --- what every case shares ------------------------------------------------ */

/* Run fn on every online CPU: those that took it (this one always). */
static void run_on_all(void (*fn)(void *), u64 *deadline, struct cpumask *ran)
{
	unsigned int cpu, this = arch_cpu_id();

	cpumask_clear(ran);
	cpumask_set_cpu(this, ran);
	*deadline = ktime_get_ns() + torture_ms() * NSEC_PER_MSEC;
	for_each_online_cpu(cpu)
		if (cpu != this && !arch_cpu_run(cpu, fn, NULL))
			cpumask_set_cpu(cpu, ran);
	fn(NULL);
	for_each_cpu(cpu, ran)
		if (cpu != this)
			arch_cpu_join(cpu);
}

/* Past the deadline; past it by TORT_GRACE_S: something is stuck. */
static bool past(u64 deadline)
{
	return ktime_get_ns() > deadline;
}

static bool hopeless(u64 deadline)
{
	return past(deadline + TORT_GRACE_S * NSEC_PER_SEC);
}

/* --- every CPU takes part ------------------------------------------------- */

static struct cpumask absent_cpus;

static void check_taking_part(void *unused)
{
	unsigned int cpu = arch_cpu_id();
	struct rcu_stats st;

	rcu_get_stats(&st);
	if (!cpumask_test_cpu(cpu, &st.online))
		cpumask_set_cpu(cpu, &absent_cpus);
}

/*
 * A CPU given work may enter a reader at once, so the grace periods
 * wait for it already, before its first tick (rcu_cpu_starting()).
 * That first tick comes a few ms after boot: this case tells most when
 * the suite runs first.
 */
static void test_rcutorture_cpus_take_part(struct ktest *t)
{
	struct cpumask ran;
	u64 deadline;

	cpumask_clear(&absent_cpus);
	run_on_all(check_taking_part, &deadline, &ran);
	ktest_info(t, "CPUs that ran: %u, outside the grace periods: %u (first %u)",
		   cpumask_weight(&ran), cpumask_weight(&absent_cpus),
		   cpumask_first(&absent_cpus));
	KTEST_EXPECT_EQ(t, cpumask_weight(&ran), num_online_cpus());
	KTEST_EXPECT_TRUE(t, cpumask_empty(&absent_cpus));
}

/* --- readers and writers on every CPU ------------------------------------ */

struct telem {
	unsigned long magic;
	unsigned long value;
	unsigned long check;		/* ~value */
	struct rcu_head rh;
};

enum tort_free {
	FREE_CALL_RCU,
	FREE_KFREE_RCU,
	FREE_KFREE_RCU_PTR,
	FREE_KVFREE_RCU,
	FREE_KVFREE_RCU_PTR,
	FREE_SYNCHRONIZE,
	NR_TORT_FREE
};

/*
 * How the n-th update frees: synchronize_rcu() once in TORT_SYNC_EVERY
 * (it waits for a GP), the other ways in turn between.
 */
static enum tort_free free_kind(unsigned long n)
{
	if (n % TORT_SYNC_EVERY == TORT_SYNC_EVERY - 1)
		return FREE_SYNCHRONIZE;
	return (enum tort_free)(n % FREE_SYNCHRONIZE);
}

struct tort_cpu {
	unsigned long reads, long_reads, updates, barriers;
	unsigned long freed[NR_TORT_FREE];
	unsigned long errors, gp_errors, no_memory;
	unsigned long bad_value;	/* what the first bad read found */
	unsigned long gen;
} __aligned(64);

static struct {
	struct telem *slots[NR_CPUS][TORT_SLOTS];
	unsigned int nr_cpus;		/* the table's width */
	u64 deadline;
	struct tort_cpu cpu[NR_CPUS];
} tort;

static struct telem *telem_new(unsigned int cpu)
{
	struct telem *e = kmalloc(sizeof(*e), GFP_KERNEL);
	unsigned long value = (unsigned long)cpu << 48 | ++tort.cpu[cpu].gen;

	if (!e)
		return NULL;
	e->value = value;
	e->check = ~value;
	e->magic = ELEM_ALIVE;
	return e;
}

static void telem_poison(struct telem *e)
{
	WRITE_ONCE(e->magic, ELEM_DEAD);
	WRITE_ONCE(e->value, ELEM_DEAD);
	WRITE_ONCE(e->check, 0);
}

static void telem_free_cb(struct rcu_head *head)
{
	struct telem *e = container_of(head, struct telem, rh);

	telem_poison(e);
	kfree(e);
}

/* Intact, and not changed while looked at (freed and reused). */
static bool telem_intact(const struct telem *e)
{
	unsigned long v = READ_ONCE(e->value);

	if (READ_ONCE(e->magic) != ELEM_ALIVE || READ_ONCE(e->check) != ~v)
		return false;
	for (int i = 0; i < 4; i++)
		arch_cpu_relax();
	return READ_ONCE(e->value) == v && READ_ONCE(e->magic) == ELEM_ALIVE;
}

static void telem_check(struct tort_cpu *tc, const struct telem *e)
{
	if (telem_intact(e))
		return;
	if (!tc->errors++)
		tc->bad_value = READ_ONCE(e->magic);
}

/* Hold one element across ticks: no GP begun since may end meanwhile. */
static void tort_long_read(struct tort_cpu *tc, unsigned long pass)
{
	unsigned int c = (unsigned int)(pass / TORT_LONG_EVERY) % tort.nr_cpus;
	const struct telem *e = rcu_dereference(tort.slots[c][pass % TORT_SLOTS]);
	struct rcu_stats st0, st1;

	rcu_get_stats(&st0);
	telem_check(tc, e);
	spin_ns(TORT_HOLD_NS);
	telem_check(tc, e);
	rcu_get_stats(&st1);
	if (st1.completed - st0.completed >= 2)
		tc->gp_errors++;
	tc->long_reads++;
}

static void tort_read_pass(struct tort_cpu *tc)
{
	unsigned long pass = tc->reads++;

	rcu_read_lock();
	for (unsigned int c = 0; c < tort.nr_cpus; c++)
		for (unsigned int i = 0; i < TORT_SLOTS; i++)
			telem_check(tc, rcu_dereference(tort.slots[c][i]));
	if (!(pass % TORT_LONG_EVERY))
		tort_long_read(tc, pass);
	rcu_read_unlock();
}

static void tort_free(struct telem *old, enum tort_free how)
{
	switch (how) {
	case FREE_CALL_RCU:
		call_rcu(&old->rh, telem_free_cb);
		break;
	case FREE_KFREE_RCU:
		kfree_rcu(old, rh);
		break;
	case FREE_KFREE_RCU_PTR:
		kfree_rcu(old);
		break;
	case FREE_KVFREE_RCU:
		kvfree_rcu(old, rh);
		break;
	case FREE_KVFREE_RCU_PTR:
		kvfree_rcu(old);
		break;
	case FREE_SYNCHRONIZE:
	case NR_TORT_FREE:
		synchronize_rcu();
		telem_poison(old);
		kfree(old);
		break;
	}
}

/* Replace one of this CPU's elements; false if out of memory. */
static bool tort_update(unsigned int cpu, struct tort_cpu *tc)
{
	unsigned long n = tc->updates;
	struct telem **slot = &tort.slots[cpu][n % TORT_SLOTS];
	enum tort_free how = free_kind(n);
	struct telem *old = *slot, *e = telem_new(cpu);

	if (!e) {
		tc->no_memory++;
		return false;
	}
	rcu_assign_pointer(*slot, e);
	tort_free(old, how);
	tc->freed[how]++;
	tc->updates++;
	if (!(tc->updates % TORT_BARRIER_EVERY)) {
		rcu_barrier();
		tc->barriers++;
	}
	return true;
}

/* Let the callbacks catch up; false once hopeless. */
static bool tort_throttle(void)
{
	while (rcu_pending_callbacks() > TORT_BACKLOG) {
		if (hopeless(tort.deadline))
			return false;
		arch_cpu_relax();
	}
	return true;
}

static void tort_worker(void *unused)
{
	unsigned int cpu = arch_cpu_id();
	struct tort_cpu *tc = &tort.cpu[cpu];

	while (!past(tort.deadline) || tc->updates < TORT_MIN_UPDATES) {
		if (hopeless(tort.deadline))
			break;
		tort_read_pass(tc);
		if (!tort_update(cpu, tc))
			break;
		if (!(tc->updates % TORT_THROTTLE_EVERY) && !tort_throttle())
			break;
	}
}

static void tort_free_table(void *unused)
{
	for (unsigned int c = 0; c < NR_CPUS; c++)
		for (unsigned int i = 0; i < TORT_SLOTS; i++) {
			kfree(tort.slots[c][i]);
			tort.slots[c][i] = NULL;
		}
}

static void test_rcutorture_all_cpus(struct ktest *t)
{
	struct tort_cpu sum = {};
	struct rcu_stats before, after;
	struct cpumask ran;
	unsigned int cpus = 0, c;

	memset(&tort, 0, sizeof(tort));
	tort.nr_cpus = nr_cpu_ids;
	KTEST_ASSERT_EQ(t, ktest_add_action_or_reset(t, tort_free_table, NULL), 0);
	for (unsigned int c = 0; c < tort.nr_cpus; c++)
		for (unsigned int i = 0; i < TORT_SLOTS; i++) {
			tort.slots[c][i] = telem_new(c);
			KTEST_ASSERT_NOT_NULL(t, tort.slots[c][i]);
		}
	rcu_get_stats(&before);
	run_on_all(tort_worker, &tort.deadline, &ran);
	tort_free_table(NULL);		/* no reader is left */
	rcu_barrier();
	rcu_get_stats(&after);
	for_each_cpu(c, &ran) {
		const struct tort_cpu *tc = &tort.cpu[c];

		cpus++;
		sum.reads += tc->reads;
		sum.long_reads += tc->long_reads;
		sum.updates += tc->updates;
		sum.barriers += tc->barriers;
		for (int k = 0; k < NR_TORT_FREE; k++)
			sum.freed[k] += tc->freed[k];
		sum.errors += tc->errors;
		sum.gp_errors += tc->gp_errors;
		sum.no_memory += tc->no_memory;
		if (tc->errors)
			ktest_info(t, "CPU %u: %lu bad reads, the first found magic %#lx",
				   c, tc->errors, tc->bad_value);
		/* Each CPU read, and freed in every way. */
		KTEST_EXPECT_GT(t, tc->reads, 0UL);
		KTEST_EXPECT_GE(t, tc->updates, (unsigned long)TORT_MIN_UPDATES);
	}
	ktest_info(t, "%u CPUs: %lu reads, %lu held across ticks, %lu updates (%lu call_rcu, %lu kfree_rcu, %lu kfree_rcu(ptr), %lu kvfree_rcu, %lu kvfree_rcu(ptr), %lu synchronize_rcu), %lu rcu_barrier, %lu grace periods, %lu bad reads, %lu GPs inside a reader",
		   cpus, sum.reads, sum.long_reads, sum.updates,
		   sum.freed[FREE_CALL_RCU], sum.freed[FREE_KFREE_RCU],
		   sum.freed[FREE_KFREE_RCU_PTR], sum.freed[FREE_KVFREE_RCU],
		   sum.freed[FREE_KVFREE_RCU_PTR], sum.freed[FREE_SYNCHRONIZE],
		   sum.barriers, after.completed - before.completed, sum.errors,
		   sum.gp_errors);
	KTEST_EXPECT_EQ(t, sum.errors, 0UL);
	KTEST_EXPECT_EQ(t, sum.gp_errors, 0UL);
	KTEST_EXPECT_EQ(t, sum.no_memory, 0UL);
	KTEST_EXPECT_GT(t, sum.long_reads, 0UL);
	KTEST_EXPECT_GE(t, after.completed - before.completed, 2UL);
}

/* --- a SLAB_TYPESAFE_BY_RCU cache churned and shrunk --------------------- */

#define TS_SLOTS		32	/* per CPU */
#define TS_SIZE			1024	/* a few to a slab: slabs empty often */
#define TS_TYPE			0x7e5afe0b7ec75afeUL
#define TS_KEY(cpu, slot, gen)	((gen) << 16 | (unsigned long)(cpu) << 8 | (slot))
#define TS_KEY_WHERE(key)	((key) & 0xffffUL)

struct tsobj {
	unsigned long type;		/* TS_TYPE from the constructor on */
	unsigned long key;		/* TS_KEY() while published */
	unsigned char data[TS_SIZE - 2 * sizeof(unsigned long)];
};

struct ts_cpu {
	unsigned long lookups, hits, misses, held, held_reused, held_shrunk;
	unsigned long rounds, shrinks, shrunk;
	unsigned long foreign, unconstructed, no_memory;
	unsigned long bad_type;		/* what the first foreign read found */
	unsigned long gen;
} __aligned(64);

static struct {
	struct kmem_cache *cache;
	struct tsobj *slots[NR_CPUS][TS_SLOTS];
	unsigned int nr_cpus;
	u64 deadline;
	struct ts_cpu cpu[NR_CPUS];
} ts;

static void tsobj_ctor(void *p)
{
	struct tsobj *o = p;

	o->type = TS_TYPE;
	o->key = 0;
}

/* Memory of this cache, an object of it: never anything else. */
static bool ts_ours(const struct tsobj *o)
{
	const struct slab *slab = virt_to_slab(o);

	return slab && READ_ONCE(slab->slab_cache) == ts.cache &&
	       READ_ONCE(o->type) == TS_TYPE;
}

/* Inside a reader: o must still be ours; count it once if not. */
static bool ts_check(struct ts_cpu *sc, const struct tsobj *o)
{
	if (ts_ours(o))
		return true;
	if (!sc->foreign++)
		sc->bad_type = READ_ONCE(o->type);
	return false;
}

/* Look slot (c, i) up, under the caller's reader. */
static const struct tsobj *ts_lookup(struct ts_cpu *sc, unsigned int c,
				     unsigned int i)
{
	const struct tsobj *o = rcu_dereference(ts.slots[c][i]);

	sc->lookups++;
	if (!ts_check(sc, o))
		return o;
	/* The identity check after the lookup: freed and given out again? */
	if (TS_KEY_WHERE(READ_ONCE(o->key)) == TS_KEY(c, i, 0UL))
		sc->hits++;
	else
		sc->misses++;	/* a real lookup would look again */
	return o;
}

static void ts_read_pass(struct ts_cpu *sc)
{
	rcu_read_lock();
	for (unsigned int c = 0; c < ts.nr_cpus; c++)
		for (unsigned int i = 0; i < TS_SLOTS; i++)
			ts_lookup(sc, c, i);
	rcu_read_unlock();
}

static struct tsobj *tsobj_new(struct ts_cpu *sc, unsigned int cpu,
			       unsigned int slot)
{
	struct tsobj *o = kmem_cache_alloc(ts.cache, GFP_KERNEL);

	if (!o) {
		sc->no_memory++;
		return NULL;
	}
	if (o->type != TS_TYPE)
		sc->unconstructed++;
	WRITE_ONCE(o->key, TS_KEY(cpu, slot, ++sc->gen));
	return o;
}

/* New objects for every slot of this CPU (outside any reader). */
static bool ts_alloc_round(struct ts_cpu *sc, unsigned int cpu,
			   struct tsobj **new)
{
	for (unsigned int i = 0; i < TS_SLOTS; i++) {
		new[i] = tsobj_new(sc, cpu, i);
		if (!new[i]) {
			while (i--)
				kmem_cache_free(ts.cache, new[i]);
			return false;
		}
	}
	return true;
}

/*
 * Publish them, free the old objects at once and shrink the cache: a
 * slab that held only old objects goes back to the page allocator a
 * grace period later, while other CPUs may still look at it.
 */
static void ts_replace_round(struct ts_cpu *sc, unsigned int cpu,
			     struct tsobj **new)
{
	struct tsobj *old[TS_SLOTS];
	unsigned long before, after;

	for (unsigned int i = 0; i < TS_SLOTS; i++) {
		old[i] = ts.slots[cpu][i];
		rcu_assign_pointer(ts.slots[cpu][i], new[i]);
	}
	for (unsigned int i = 0; i < TS_SLOTS; i++)
		kmem_cache_free(ts.cache, old[i]);
	before = READ_ONCE(get_node(ts.cache, 0)->total_slabs);
	kmem_cache_shrink(ts.cache);
	after = READ_ONCE(get_node(ts.cache, 0)->total_slabs);
	sc->shrunk += before > after ? before - after : 0;	/* roughly */
	sc->rounds++;
	WRITE_ONCE(sc->shrinks, sc->shrinks + 1);
}

/*
 * One round, inside a reader that holds one of the next CPU's objects
 * throughout, and then for another two and a half ticks: that CPU runs
 * its rounds meanwhile, so the object is often freed and its slab
 * shrunk away while held. It must stay an object of the cache.
 */
static void ts_round_holding(struct ts_cpu *sc, unsigned int cpu,
			     struct tsobj **new)
{
	unsigned int c = (cpu + 1) % ts.nr_cpus;
	unsigned int i = (unsigned int)(sc->rounds % TS_SLOTS);
	unsigned long key, shrinks;
	const struct tsobj *o;
	u64 end;

	rcu_read_lock();
	o = ts_lookup(sc, c, i);
	key = READ_ONCE(o->key);
	shrinks = READ_ONCE(ts.cpu[c].shrinks);
	ts_replace_round(sc, cpu, new);
	end = ktime_get_ns() + TORT_HOLD_NS;
	while (ts_check(sc, o) && ktime_get_ns() < end)
		arch_cpu_relax();
	sc->held++;
	/* Typically another object by now: never other memory. */
	sc->held_reused += READ_ONCE(o->key) != key;
	sc->held_shrunk += rcu_dereference(ts.slots[c][i]) != o &&
			   READ_ONCE(ts.cpu[c].shrinks) != shrinks;
	rcu_read_unlock();
}

static void ts_worker(void *unused)
{
	unsigned int cpu = arch_cpu_id();
	struct ts_cpu *sc = &ts.cpu[cpu];
	struct tsobj *new[TS_SLOTS];

	while (!past(ts.deadline) || !sc->rounds) {
		if (hopeless(ts.deadline))
			break;
		ts_read_pass(sc);
		if (!ts_alloc_round(sc, cpu, new))
			break;
		ts_round_holding(sc, cpu, new);
	}
}

static void ts_destroy(void *unused)
{
	for (unsigned int c = 0; c < NR_CPUS; c++)
		for (unsigned int i = 0; i < TS_SLOTS; i++) {
			if (ts.slots[c][i])
				kmem_cache_free(ts.cache, ts.slots[c][i]);
			ts.slots[c][i] = NULL;
		}
	kmem_cache_destroy(ts.cache);	/* waits for its pending slabs */
	ts.cache = NULL;
}

static void test_rcutorture_typesafe(struct ktest *t)
{
	struct ts_cpu sum = {};
	struct rcu_stats before, after;
	struct cpumask ran;
	unsigned int cpus = 0, c;

	memset(&ts, 0, sizeof(ts));
	ts.nr_cpus = nr_cpu_ids;
	ts.cache = kmem_cache_create("rcutorture-typesafe", sizeof(struct tsobj),
				     0, SLAB_TYPESAFE_BY_RCU, tsobj_ctor);
	KTEST_ASSERT_NOT_NULL(t, ts.cache);
	KTEST_ASSERT_EQ(t, ktest_add_action_or_reset(t, ts_destroy, NULL), 0);
	for (unsigned int c = 0; c < ts.nr_cpus; c++)
		for (unsigned int i = 0; i < TS_SLOTS; i++) {
			ts.slots[c][i] = tsobj_new(&ts.cpu[c], c, i);
			KTEST_ASSERT_NOT_NULL(t, ts.slots[c][i]);
		}
	rcu_get_stats(&before);
	run_on_all(ts_worker, &ts.deadline, &ran);
	rcu_get_stats(&after);
	for_each_cpu(c, &ran) {
		const struct ts_cpu *sc = &ts.cpu[c];

		cpus++;
		sum.lookups += sc->lookups;
		sum.hits += sc->hits;
		sum.misses += sc->misses;
		sum.held += sc->held;
		sum.held_reused += sc->held_reused;
		sum.held_shrunk += sc->held_shrunk;
		sum.rounds += sc->rounds;
		sum.shrinks += sc->shrinks;
		sum.shrunk += sc->shrunk;
		sum.foreign += sc->foreign;
		sum.unconstructed += sc->unconstructed;
		sum.no_memory += sc->no_memory;
		if (sc->foreign)
			ktest_info(t, "CPU %u: %lu lookups found foreign memory, the first type %#lx",
				   c, sc->foreign, sc->bad_type);
		KTEST_EXPECT_GT(t, sc->lookups, 0UL);
		KTEST_EXPECT_GT(t, sc->rounds, 0UL);
	}
	ktest_info(t, "%u CPUs: %lu lookups (%lu hits, %lu found the object given out again), %lu held (%lu while freed and shrunk, %lu given out again meanwhile), %lu updates in %lu rounds, %lu shrinks, about %lu slabs given back, %lu grace periods, %lu foreign",
		   cpus, sum.lookups, sum.hits, sum.misses, sum.held,
		   sum.held_shrunk, sum.held_reused, sum.rounds * TS_SLOTS,
		   sum.rounds,
		   sum.shrinks, sum.shrunk, after.completed - before.completed,
		   sum.foreign);
	KTEST_EXPECT_EQ(t, sum.foreign, 0UL);
	KTEST_EXPECT_EQ(t, sum.unconstructed, 0UL);
	KTEST_EXPECT_EQ(t, sum.no_memory, 0UL);
	KTEST_EXPECT_GT(t, sum.hits, 0UL);
	KTEST_EXPECT_GT(t, sum.held_shrunk, 0UL);
	KTEST_EXPECT_GT(t, sum.shrunk, 0UL);	/* slabs went under readers */
}

static const struct ktest_case rcutorture_cases[] = {
	KTEST_CASE(test_rcutorture_cpus_take_part),
	KTEST_CASE(test_rcutorture_all_cpus),
	KTEST_CASE(test_rcutorture_typesafe),
	{}
};
KTEST_SUITE(rcutorture, rcutorture_cases);

// SPDX-License-Identifier: GPL-2.0
/*
 * KASAN's quarantine: freed slab objects wait here, poisoned, before
 * SLAB may hand them out again, so that a use after free finds invalid
 * memory rather than somebody else's new object (Linux's
 * mm/kasan/quarantine.c, smaller).
 *
 * Two stages, as Linux's. A free puts its object on this CPU's batch
 * (QUARANTINE_CPU_BATCH objects, at most qcpu_max_bytes), with
 * interrupts off and no lock; a full batch goes whole into one FIFO for
 * the machine, a ring of object pointers, oldest first, under
 * quarantine_lock, so the lock is taken once a batch. A slot whose
 * object left early (its cache was shrunk) stays, empty, until it is the
 * oldest, so that no walk moves the others. Nothing is written into the
 * objects (their cache is found from their slab), so constructors'
 * state and SLAB's own use of free memory are left as they were.
 *
 * Bounds, never passed: the ring's slots (QUARANTINE_OBJECTS) and, for
 * the bytes, 1/QUARANTINE_FRACTION of RAM as in Linux, shared between
 * the batches (qcpu_max_bytes each, at most half of it in all) and the
 * ring (the rest, qmax_bytes). A batch that would pass the ring's bounds
 * first takes out its oldest objects, up to QUARANTINE_BATCH per pass of
 * the lock, and gives them back to SLAB once the lock is dropped, until
 * the batch fits (if it finds no room in QUARANTINE_PASSES passes while
 * other CPUs fill the ring, the batch goes back to SLAB at once). An
 * object bigger than a batch may hold goes to the ring alone; one bigger
 * than the ring's bytes is not held.
 *
 * Objects leave early under memory pressure (a shrinker: this CPU's
 * batch and the ring, all of them at every priority) and when their
 * cache is shrunk or destroyed (kasan_quarantine_remove_cache(), from
 * the cache's drain: every CPU's batch into the ring, each CPU its own
 * in its call-function interrupt as the drain does its arrays, then
 * every object of the cache that is in the ring when it starts, in one
 * walk, however many other CPUs free meanwhile), freeing at most
 * QUARANTINE_BATCH objects per pass of the lock.
 *
 * On by default whenever KASAN is, as in Linux; kasan.quarantine=off
 * turns it off (kasan_quarantine_set() too: the kasan suite turns it on).
 *
 * Locking: a batch is its CPU's, touched with interrupts off there (or
 * by a drain, from a CPU that takes no interrupts, as SLAB's arrays).
 * quarantine_lock, interrupts off, is taken last of the allocators'
 * locks: kfree() may come under any of them. Nothing is taken under it;
 * SLAB gets its objects back after it is dropped.
 */
#include "kernel/bug.h"
#include "kernel/cpumask.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "mm/kasan.h"
#include "mm/mm.h"
#include "mm/shrinker.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"
#include "lib/string.h"

#define QUARANTINE_OBJECTS	8192	/* ring slots */
#define QUARANTINE_FRACTION	32	/* of RAM, at most, in objects */
#define QUARANTINE_BATCH	32	/* objects handed back per lock pass */
/* Lock passes a batch may take to make room: enough to empty the ring. */
#define QUARANTINE_PASSES	(QUARANTINE_OBJECTS / QUARANTINE_BATCH + 1)
#define QUARANTINE_CPU_BATCH	32	/* objects a CPU gathers first */
#define QUARANTINE_CPU_BYTES	(64UL << 10)	/* their bytes, at most */

/* The objects a CPU freed last, not in the ring yet. */
struct qbatch {
	void *objects[QUARANTINE_CPU_BATCH];
	unsigned int nr;
	unsigned long bytes;
};

static DEFINE_SPINLOCK(quarantine_lock);
static bool quarantine_on = true;	/* kasan.quarantine=, kasan_quarantine_set() */
static void **qring;		/* QUARANTINE_OBJECTS slots; NULL: none */
/*
 * Slots [qhead, qtail) are in use, counted from boot (slot seq is
 * qring[seq % QUARANTINE_OBJECTS]), oldest first. A slot whose object
 * its cache took back early is NULL until it is the oldest.
 */
static unsigned long qhead, qtail;
static unsigned long qobjects;	/* objects in the slots */
static unsigned long qbytes;	/* their caches' sizes */
static unsigned long qmax_bytes;	/* the ring's byte bound */
static struct qbatch qcpu[NR_CPUS];
static unsigned long qcpu_max_bytes;	/* a batch's byte bound */

static struct kmem_cache *object_cache(const void *object)
{
	return virt_to_slab(object)->slab_cache;
}

static void **slot(unsigned long seq)
{
	return &qring[seq % QUARANTINE_OBJECTS];
}

/* Slot s emptied, its object no longer counted. quarantine_lock held. */
static void take_out(void **s)
{
	qobjects--;
	qbytes -= object_cache(*s)->size;
	*s = NULL;
}

/* The oldest slot made free: its object, or NULL if it was taken already. */
static void *pop_oldest(void)
{
	void **s = slot(qhead++);
	void *object = *s;

	if (object)
		take_out(s);
	return object;
}

/* Back to SLAB, past KASAN (the objects stay poisoned: free is free). */
static void give_back(void **objects, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++)
		___cache_free(object_cache(objects[i]), objects[i], _RET_IP_);
}

/*
 * Room for nr more objects of bytes in all, under the lock: up to a
 * batch of the oldest objects taken out into out[] to make it. True if
 * there is room now.
 */
static bool make_room(unsigned int nr, unsigned long bytes, void **out,
		      unsigned int *nr_out)
{
	lockdep_assert_held(&quarantine_lock);
	while (qtail != qhead && *nr_out < QUARANTINE_BATCH &&
	       (qtail - qhead + nr > QUARANTINE_OBJECTS ||
		qbytes + bytes > qmax_bytes)) {
		void *object = pop_oldest();

		if (object)
			out[(*nr_out)++] = object;
	}
	return qtail - qhead + nr <= QUARANTINE_OBJECTS &&
	       qbytes + bytes <= qmax_bytes;
}

/* A batch into the ring, behind everything there; or back to SLAB. */
static void ring_put(void **objects, unsigned int nr, unsigned long bytes)
{
	void *out[QUARANTINE_BATCH];
	unsigned int n, passes = 0;
	unsigned long flags;
	bool room;

	do {
		n = 0;
		spin_lock_irqsave(&quarantine_lock, flags);
		room = make_room(nr, bytes, out, &n);
		if (room) {
			for (unsigned int i = 0; i < nr; i++)
				*slot(qtail++) = objects[i];
			qobjects += nr;
			qbytes += bytes;
		}
		spin_unlock_irqrestore(&quarantine_lock, flags);
		give_back(out, n);
	} while (!room && ++passes < QUARANTINE_PASSES);
	if (!room)
		give_back(objects, nr);
}

/* Take cpu's batch (its CPU's interrupts off, or that CPU not running). */
static void take_batch(unsigned int cpu, struct qbatch *to)
{
	struct qbatch *b = &qcpu[cpu];

	memcpy(to->objects, b->objects, b->nr * sizeof(b->objects[0]));
	to->nr = b->nr;
	to->bytes = b->bytes;
	WRITE_ONCE(b->nr, 0);
	WRITE_ONCE(b->bytes, 0);
}

/*
 * This CPU's batch is full: it goes to the ring, object starts the next.
 * Interrupts off (flags), given back here.
 */
static __noinline void put_past_full_batch(unsigned int cpu, void *object,
					   unsigned int size,
					   unsigned long flags)
{
	struct qbatch *b = &qcpu[cpu], full;

	take_batch(cpu, &full);
	b->objects[0] = object;
	WRITE_ONCE(b->nr, 1);
	WRITE_ONCE(b->bytes, size);
	arch_irq_restore(flags);
	ring_put(full.objects, full.nr, full.bytes);
}

bool kasan_quarantine_put(struct kmem_cache *cachep, void *object)
{
	unsigned int size = cachep->size, cpu;
	unsigned long flags;
	struct qbatch *b;

	if (!READ_ONCE(quarantine_on) || !READ_ONCE(qring) || size > qmax_bytes)
		return false;
	if (size > qcpu_max_bytes) {
		ring_put(&object, 1, size);
		return true;
	}
	flags = arch_irq_save();
	cpu = arch_cpu_id();
	b = &qcpu[cpu];
	if (b->nr == QUARANTINE_CPU_BATCH || b->bytes + size > qcpu_max_bytes) {
		put_past_full_batch(cpu, object, size, flags);
		return true;
	}
	b->objects[b->nr] = object;
	WRITE_ONCE(b->nr, b->nr + 1);
	WRITE_ONCE(b->bytes, b->bytes + size);
	arch_irq_restore(flags);
	return true;
}

/* This CPU's batch into the ring (an IPI's function, or called). */
static void flush_this_batch(void *unused)
{
	unsigned long flags = arch_irq_save();
	struct qbatch full;

	take_batch(arch_cpu_id(), &full);
	arch_irq_restore(flags);
	if (full.nr)
		ring_put(full.objects, full.nr, full.bytes);
}

static bool batch_has_objects(unsigned int cpu, void *unused)
{
	return READ_ONCE(qcpu[cpu].nr);
}

/*
 * Every CPU's batch into the ring: each CPU its own in its call-function
 * interrupt, a CPU that takes none from here (SLAB's drain_cpu_arrays()
 * does the same). With interrupts off, this CPU's only.
 */
static void flush_batches(void)
{
	struct qbatch full;
	unsigned int cpu;

	if (irqs_disabled() || in_interrupt()) {
		flush_this_batch(NULL);
		return;
	}
	WARN_ON_ONCE(on_each_cpu_cond(batch_has_objects, flush_this_batch,
				      NULL, true));
	for_each_possible_cpu(cpu) {
		if (on_each_cpu_reaches(cpu) || !READ_ONCE(qcpu[cpu].nr))
			continue;
		take_batch(cpu, &full);
		ring_put(full.objects, full.nr, full.bytes);
	}
}

/*
 * From slot *seq up to end, take out up to QUARANTINE_BATCH of cachep's
 * objects; how many. *seq moves on past the slots looked at.
 */
static unsigned int take_cache_batch(struct kmem_cache *cachep, void **out,
				     unsigned long *seq, unsigned long end)
{
	unsigned int nr = 0;
	unsigned long flags;

	spin_lock_irqsave(&quarantine_lock, flags);
	/* Slots before qhead left meanwhile: their objects went to SLAB. */
	if ((long)(qhead - *seq) > 0)
		*seq = qhead;
	for (; (long)(end - *seq) > 0 && nr < QUARANTINE_BATCH; ++*seq) {
		void **s = slot(*seq);

		if (*s && object_cache(*s) == cachep) {
			out[nr++] = *s;
			take_out(s);
		}
	}
	spin_unlock_irqrestore(&quarantine_lock, flags);
	return nr;
}

/*
 * Every object of cachep that is in the quarantine when this starts:
 * one walk over the slots, however many other CPUs free meanwhile
 * (theirs go in behind end).
 */
void kasan_quarantine_remove_cache(struct kmem_cache *cachep)
{
	void *out[QUARANTINE_BATCH];
	unsigned long seq, end, flags;
	unsigned int nr;

	if (!READ_ONCE(qring))
		return;
	flush_batches();
	spin_lock_irqsave(&quarantine_lock, flags);
	seq = qhead;
	end = qtail;
	spin_unlock_irqrestore(&quarantine_lock, flags);
	while ((long)(end - seq) > 0) {
		nr = take_cache_batch(cachep, out, &seq, end);
		give_back(out, nr);
	}
}

/*
 * This CPU's batch into the ring, then the nr oldest objects (at most)
 * back to SLAB; how many went. Any context.
 */
unsigned long kasan_quarantine_reduce(unsigned long nr)
{
	void *out[QUARANTINE_BATCH];
	unsigned long done = 0;
	unsigned long flags;
	unsigned int n;

	if (!READ_ONCE(qring))
		return 0;
	flush_this_batch(NULL);
	while (done < nr) {
		n = 0;
		spin_lock_irqsave(&quarantine_lock, flags);
		while (qtail != qhead && n < QUARANTINE_BATCH && done + n < nr) {
			void *object = pop_oldest();

			if (object)
				out[n++] = object;
		}
		spin_unlock_irqrestore(&quarantine_lock, flags);
		if (!n)
			break;
		give_back(out, n);
		done += n;
	}
	return done;
}

unsigned long kasan_quarantine_cache_objects(struct kmem_cache *cachep)
{
	unsigned long nr = 0;
	unsigned long flags;
	unsigned int cpu;

	if (!READ_ONCE(qring))
		return 0;
	spin_lock_irqsave(&quarantine_lock, flags);
	for (unsigned long seq = qhead; seq != qtail; seq++) {
		void *object = *slot(seq);

		nr += object && object_cache(object) == cachep;
	}
	spin_unlock_irqrestore(&quarantine_lock, flags);
	/* Other CPUs' batches as they are now (for counts, not exact). */
	for_each_possible_cpu(cpu) {
		unsigned int n = READ_ONCE(qcpu[cpu].nr);

		for (unsigned int i = 0; i < n; i++) {
			void *object = READ_ONCE(qcpu[cpu].objects[i]);

			nr += object && object_cache(object) == cachep;
		}
	}
	return nr;
}

/* Objects and bytes in every CPU's batch now. */
static void batch_totals(unsigned long *objects, unsigned long *bytes)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		*objects += READ_ONCE(qcpu[cpu].nr);
		*bytes += READ_ONCE(qcpu[cpu].bytes);
	}
}

void kasan_quarantine_get_stats(struct kasan_quarantine_stats *st)
{
	unsigned long flags;

	spin_lock_irqsave(&quarantine_lock, flags);
	st->objects = qobjects;
	st->bytes = qbytes;
	spin_unlock_irqrestore(&quarantine_lock, flags);
	batch_totals(&st->objects, &st->bytes);
	st->max_bytes = qmax_bytes + nr_cpu_ids * qcpu_max_bytes;
	st->max_objects = READ_ONCE(qring) ? QUARANTINE_OBJECTS +
			  nr_cpu_ids * QUARANTINE_CPU_BATCH : 0;
}

static unsigned long quarantine_count(struct shrinker *s,
				      struct shrink_control *sc)
{
	unsigned long objects = READ_ONCE(qobjects), bytes = 0;

	batch_totals(&objects, &bytes);
	return objects;
}

static unsigned long quarantine_scan(struct shrinker *s,
				     struct shrink_control *sc)
{
	return kasan_quarantine_reduce(sc->nr_to_scan);
}

static struct shrinker quarantine_shrinker = {
	.count_objects = quarantine_count,
	.scan_objects = quarantine_scan,
	.batch = QUARANTINE_BATCH,
	.seeks = 1,	/* all of it at every priority: it is only delay */
};

bool kasan_quarantine_enabled(void)
{
	return READ_ONCE(quarantine_on) && READ_ONCE(qring);
}

bool kasan_quarantine_set(bool on)
{
	bool was = kasan_quarantine_enabled();

	WRITE_ONCE(quarantine_on, on && READ_ONCE(qring));
	if (!on && READ_ONCE(qring)) {
		flush_batches();
		kasan_quarantine_reduce(ULONG_MAX);
	}
	return was;
}

static int quarantine_setup(char *val)
{
	if (!val || !strcmp(val, "on") || !strcmp(val, "1"))
		quarantine_on = true;
	else if (!strcmp(val, "off") || !strcmp(val, "0"))
		quarantine_on = false;
	else
		return -EINVAL;
	return 0;
}
kernel_param("kasan.quarantine", quarantine_setup);

void kasan_quarantine_init(void)
{
	unsigned long total;
	void **ring = kmalloc_array(QUARANTINE_OBJECTS, sizeof(void *),
				    GFP_KERNEL);

	if (WARN(!ring, "kasan: no memory for the quarantine: none\n")) {
		quarantine_on = false;
		return;
	}
	total = totalram_pages * PAGE_SIZE / QUARANTINE_FRACTION;
	/* The batches may take half of it at most, the ring the rest. */
	qcpu_max_bytes = min(QUARANTINE_CPU_BYTES, total / 2 / nr_cpu_ids);
	qmax_bytes = total - nr_cpu_ids * qcpu_max_bytes;
	WRITE_ONCE(qring, ring);
	WARN_ON(register_shrinker(&quarantine_shrinker, "kasan-quarantine"));
}

// SPDX-License-Identifier: GPL-2.0
/*
 * KASAN's quarantine: freed slab objects wait here, poisoned, before
 * SLAB may hand them out again, so that a use after free finds invalid
 * memory rather than somebody else's new object (Linux's
 * mm/kasan/quarantine.c, smaller).
 *
 * One FIFO for the whole machine: a ring of object pointers, oldest
 * first, under quarantine_lock; a slot whose object left early (its
 * cache was shrunk) stays, empty, until it is the oldest, so that no
 * walk moves the others. Nothing is written into the objects
 * (their cache is found from their slab), so constructors' state and
 * SLAB's own use of free memory are left as they were. Two bounds: the
 * ring's slots (QUARANTINE_OBJECTS) and the bytes of the objects in it,
 * 1/QUARANTINE_FRACTION of RAM as in Linux; neither is ever passed. A
 * free that would pass one first takes out the oldest objects, up to
 * QUARANTINE_BATCH per pass of the lock, and gives them back to SLAB
 * once the lock is dropped, until its object fits (an object bigger
 * than the byte bound, or one that finds no room in QUARANTINE_PASSES
 * passes while other CPUs fill it, goes back to SLAB at once).
 *
 * Objects leave early under memory pressure (a shrinker, which gives
 * all of them back at every priority) and when their cache is shrunk or
 * destroyed (kasan_quarantine_remove_cache(), from the cache's drain:
 * all that were there when it started, however many other CPUs free
 * meanwhile, in one walk over the slots), freeing at most
 * QUARANTINE_BATCH objects per pass of the lock.
 *
 * On by default whenever KASAN is, as in Linux; kasan.quarantine=off
 * turns it off (kasan_quarantine_set() too: the kasan suite turns it on).
 *
 * Locking: quarantine_lock, interrupts off, is taken last of the
 * allocators' locks: kfree() may come under any of them. Nothing is
 * taken under it; SLAB gets its objects back after it is dropped.
 */
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/params.h"
#include "kernel/printk.h"
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
/* Lock passes a free may take to make room: enough to empty the ring. */
#define QUARANTINE_PASSES	(QUARANTINE_OBJECTS / QUARANTINE_BATCH + 1)

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
static unsigned long qmax_bytes;

static struct kmem_cache *object_cache(const void *object)
{
	return virt_to_slab(object)->slab_cache;
}

static void **slot(unsigned long seq)
{
	return &qring[seq % QUARANTINE_OBJECTS];
}

static void take_out(void **s)
{
	lockdep_assert_held(&quarantine_lock);
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
 * Room for one more object of size bytes, under the lock: up to a batch
 * of the oldest objects taken out into out[] to make it. True if there
 * is room now.
 */
static bool make_room(unsigned int size, void **out, unsigned int *nr)
{
	lockdep_assert_held(&quarantine_lock);
	while (qtail != qhead && *nr < QUARANTINE_BATCH &&
	       (qtail - qhead == QUARANTINE_OBJECTS ||
		qbytes + size > qmax_bytes)) {
		void *object = pop_oldest();

		if (object)
			out[(*nr)++] = object;
	}
	return qtail - qhead < QUARANTINE_OBJECTS &&
	       qbytes + size <= qmax_bytes;
}

bool kasan_quarantine_put(struct kmem_cache *cachep, void *object)
{
	void *out[QUARANTINE_BATCH];
	unsigned int nr, passes = 0;
	unsigned long flags;
	bool room;

	if (!READ_ONCE(quarantine_on) || !READ_ONCE(qring) ||
	    cachep->size > qmax_bytes)
		return false;
	do {
		nr = 0;
		spin_lock_irqsave(&quarantine_lock, flags);
		room = make_room(cachep->size, out, &nr);
		if (room) {
			*slot(qtail++) = object;
			qobjects++;
			qbytes += cachep->size;
		}
		spin_unlock_irqrestore(&quarantine_lock, flags);
		give_back(out, nr);
	} while (!room && ++passes < QUARANTINE_PASSES);
	return room;	/* else SLAB takes it back now */
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
	spin_lock_irqsave(&quarantine_lock, flags);
	seq = qhead;
	end = qtail;
	spin_unlock_irqrestore(&quarantine_lock, flags);
	while ((long)(end - seq) > 0) {
		nr = take_cache_batch(cachep, out, &seq, end);
		give_back(out, nr);
	}
}

/* The nr oldest objects (at most) back to SLAB; how many went. */
unsigned long kasan_quarantine_reduce(unsigned long nr)
{
	void *out[QUARANTINE_BATCH];
	unsigned long done = 0;
	unsigned long flags;
	unsigned int n;

	if (!READ_ONCE(qring))
		return 0;
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

	if (!READ_ONCE(qring))
		return 0;
	spin_lock_irqsave(&quarantine_lock, flags);
	for (unsigned long seq = qhead; seq != qtail; seq++) {
		void *object = *slot(seq);

		nr += object && object_cache(object) == cachep;
	}
	spin_unlock_irqrestore(&quarantine_lock, flags);
	return nr;
}

void kasan_quarantine_get_stats(struct kasan_quarantine_stats *st)
{
	unsigned long flags;

	spin_lock_irqsave(&quarantine_lock, flags);
	st->objects = qobjects;
	st->bytes = qbytes;
	spin_unlock_irqrestore(&quarantine_lock, flags);
	st->max_bytes = qmax_bytes;
	st->max_objects = READ_ONCE(qring) ? QUARANTINE_OBJECTS : 0;
}

static unsigned long quarantine_count(struct shrinker *s,
				      struct shrink_control *sc)
{
	return READ_ONCE(qobjects);
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
	if (!on)
		kasan_quarantine_reduce(ULONG_MAX);
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
	void **ring = kmalloc_array(QUARANTINE_OBJECTS, sizeof(void *),
				    GFP_KERNEL);

	if (WARN(!ring, "kasan: no memory for the quarantine: none\n")) {
		quarantine_on = false;
		return;
	}
	qmax_bytes = totalram_pages * PAGE_SIZE / QUARANTINE_FRACTION;
	WRITE_ONCE(qring, ring);
	WARN_ON(register_shrinker(&quarantine_shrinker, "kasan-quarantine"));
}

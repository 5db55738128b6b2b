// SPDX-License-Identifier: GPL-2.0
/*
 * KASAN's quarantine: freed slab objects wait here, poisoned, before
 * SLAB may hand them out again, so that a use after free finds invalid
 * memory rather than somebody else's new object (Linux's
 * mm/kasan/quarantine.c, smaller).
 *
 * One FIFO for the whole machine: a ring of object pointers, oldest
 * first, under quarantine_lock. Nothing is written into the objects
 * (their cache is found from their slab), so constructors' state and
 * SLAB's own use of free memory are left as they were. Two bounds: the
 * ring's slots (QUARANTINE_OBJECTS) and the bytes of the objects in it,
 * 1/QUARANTINE_FRACTION of RAM as in Linux. A free that would pass
 * either first takes out up to QUARANTINE_BATCH of the oldest objects
 * and gives them back to SLAB once the lock is dropped (so one big
 * object may leave the bytes over their bound for a few frees).
 *
 * Objects leave early under memory pressure (a shrinker) and when their
 * cache is shrunk or destroyed (kasan_quarantine_remove_cache(), from
 * the cache's drain), which bounds each walk by the ring's size and
 * frees at most QUARANTINE_BATCH objects per pass of the lock.
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

static DEFINE_SPINLOCK(quarantine_lock);
static bool quarantine_on;	/* kasan.quarantine=, kasan_quarantine_set() */
static void **qring;		/* QUARANTINE_OBJECTS slots; NULL: none */
static unsigned long qhead;	/* the oldest object's slot */
static unsigned long qcount;
static unsigned long qbytes;
static unsigned long qmax_bytes;

static struct kmem_cache *object_cache(const void *object)
{
	return virt_to_slab(object)->slab_cache;
}

static void **slot(unsigned long i)
{
	return &qring[(qhead + i) % QUARANTINE_OBJECTS];
}

static void *pop_oldest(void)
{
	void *object = qring[qhead];

	lockdep_assert_held(&quarantine_lock);
	qhead = (qhead + 1) % QUARANTINE_OBJECTS;
	qcount--;
	qbytes -= object_cache(object)->size;
	return object;
}

/* Back to SLAB, past KASAN (the objects stay poisoned: free is free). */
static void give_back(void **objects, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++)
		___cache_free(object_cache(objects[i]), objects[i], _RET_IP_);
}

bool kasan_quarantine_put(struct kmem_cache *cachep, void *object)
{
	void *out[QUARANTINE_BATCH];
	unsigned int nr = 0;
	unsigned long flags;

	if (!READ_ONCE(quarantine_on) || !READ_ONCE(qring))
		return false;
	spin_lock_irqsave(&quarantine_lock, flags);
	while (qcount && nr < QUARANTINE_BATCH &&
	       (qcount == QUARANTINE_OBJECTS ||
		qbytes + cachep->size > qmax_bytes))
		out[nr++] = pop_oldest();
	*slot(qcount) = object;
	qcount++;
	qbytes += cachep->size;
	spin_unlock_irqrestore(&quarantine_lock, flags);
	give_back(out, nr);
	return true;
}

/* Take up to QUARANTINE_BATCH of cachep's objects out; how many. */
static unsigned int take_cache_batch(struct kmem_cache *cachep, void **out)
{
	unsigned long kept = 0, n;
	unsigned int nr = 0;
	unsigned long flags;

	spin_lock_irqsave(&quarantine_lock, flags);
	n = qcount;
	for (unsigned long i = 0; i < n; i++) {
		void *object = *slot(i);
		struct kmem_cache *c = object_cache(object);

		if (c == cachep && nr < QUARANTINE_BATCH) {
			out[nr++] = object;
			qbytes -= c->size;
			continue;
		}
		*slot(kept++) = object;
	}
	qcount = kept;
	spin_unlock_irqrestore(&quarantine_lock, flags);
	return nr;
}

void kasan_quarantine_remove_cache(struct kmem_cache *cachep)
{
	void *out[QUARANTINE_BATCH];
	unsigned int nr, passes = 0;

	if (!READ_ONCE(qring))
		return;
	do {
		nr = take_cache_batch(cachep, out);
		give_back(out, nr);
	} while (nr == QUARANTINE_BATCH &&
		 !WARN_ON_ONCE(++passes > QUARANTINE_OBJECTS / QUARANTINE_BATCH));
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
		while (qcount && n < QUARANTINE_BATCH && done + n < nr)
			out[n++] = pop_oldest();
		spin_unlock_irqrestore(&quarantine_lock, flags);
		if (!n)
			break;
		give_back(out, n);
		done += n;
	}
	return done;
}

void kasan_quarantine_get_stats(struct kasan_quarantine_stats *st)
{
	unsigned long flags;

	spin_lock_irqsave(&quarantine_lock, flags);
	st->objects = qcount;
	st->bytes = qbytes;
	spin_unlock_irqrestore(&quarantine_lock, flags);
	st->max_bytes = qmax_bytes;
	st->max_objects = READ_ONCE(qring) ? QUARANTINE_OBJECTS : 0;
}

static unsigned long quarantine_count(struct shrinker *s,
				      struct shrink_control *sc)
{
	return READ_ONCE(qcount);
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
	.seeks = 0,
};

bool kasan_quarantine_set(bool on)
{
	bool was = READ_ONCE(quarantine_on);

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

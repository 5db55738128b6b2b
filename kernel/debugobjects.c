// SPDX-License-Identifier: GPL-2.0
/*
 * Debug objects (kernel/debugobjects.h): the active objects by address.
 *
 * A hash table of ODEBUG_HASH_SIZE buckets, each a singly linked chain
 * of entries from a static pool of ODEBUG_POOL_SIZE (no allocation: the
 * callers, call_rcu() among them, may run under the allocators' locks
 * or in an interrupt handler). One lock, debug_objects_lock, covers the
 * table, the pool's free list and the counters; it is taken with
 * interrupts off and nothing is taken under it (what is printed is
 * printed after it is dropped). The pool bounds how many objects are
 * tracked at once: past it an activation is counted as untracked and
 * said once, and the object goes unchecked, as Linux's debug objects
 * stop when their pool runs dry.
 */
#include "kernel/debugobjects.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "kernel/errno.h"

#define ODEBUG_HASH_BITS	12
#define ODEBUG_HASH_SIZE	(1U << ODEBUG_HASH_BITS)
#define ODEBUG_POOL_SIZE	16384

struct debug_obj {
	struct debug_obj *next;		/* in a bucket, or the free list */
	const void *addr;
};

static struct debug_obj obj_pool[ODEBUG_POOL_SIZE];
static struct debug_obj *obj_free;	/* entries given back */
static unsigned int pool_used;		/* entries ever taken from obj_pool */
static struct debug_obj *obj_hash[ODEBUG_HASH_SIZE];
static DEFINE_SPINLOCK(debug_objects_lock);
static unsigned long max_active, untracked;
static bool full_said;

bool debug_objects_enabled;
unsigned long debug_objects_active;

kernel_param_flag("debug_objects", debug_objects_enabled);

bool debug_objects_set(bool on)
{
	return __atomic_exchange_n(&debug_objects_enabled, on,
				   __ATOMIC_RELAXED);
}

static struct debug_obj **bucket(const void *addr)
{
	unsigned long a = (unsigned long)addr;

	/* Objects are at least 8-byte aligned: fold the higher bits in. */
	a ^= a >> (ODEBUG_HASH_BITS + 3);
	return &obj_hash[(a >> 3) & (ODEBUG_HASH_SIZE - 1)];
}

/* An entry: from the free list, or one never used yet. Lock held. */
static struct debug_obj *obj_get(void)
{
	struct debug_obj *obj = obj_free;

	if (obj) {
		obj_free = obj->next;
		return obj;
	}
	if (pool_used < ODEBUG_POOL_SIZE)
		return &obj_pool[pool_used++];
	return NULL;
}

static void obj_put(struct debug_obj *obj)
{
	obj->addr = NULL;
	obj->next = obj_free;
	obj_free = obj;
}

/* Put obj, for addr, at the head of bucket b. debug_objects_lock held. */
static void track(struct debug_obj **b, struct debug_obj *obj,
		  const void *addr)
{
	obj->addr = addr;
	obj->next = *b;
	*b = obj;
	WRITE_ONCE(debug_objects_active, debug_objects_active + 1);
	if (debug_objects_active > max_active)
		max_active = debug_objects_active;
}

int debug_object_activate(const void *addr)
{
	struct debug_obj **b, *obj;
	unsigned long flags;
	bool say_full = false;
	int ret = 0;

	if (!READ_ONCE(debug_objects_enabled))
		return 0;
	b = bucket(addr);
	spin_lock_irqsave(&debug_objects_lock, flags);
	for (obj = *b; obj; obj = obj->next)
		if (obj->addr == addr)
			break;
	if (obj) {
		ret = -EEXIST;
	} else {
		obj = obj_get();
		if (obj) {
			track(b, obj, addr);
		} else {
			untracked++;
			say_full = !full_said;
			full_said = true;
			ret = -ENOSPC;
		}
	}
	spin_unlock_irqrestore(&debug_objects_lock, flags);
	if (say_full)
		pr_warn("ODEBUG: all %u entries in use: objects past them are not tracked\n",
			ODEBUG_POOL_SIZE);
	return ret;
}

bool __debug_object_deactivate(const void *addr)
{
	struct debug_obj **link = bucket(addr), *obj;
	unsigned long flags;

	spin_lock_irqsave(&debug_objects_lock, flags);
	for (obj = *link; obj; link = &obj->next, obj = obj->next)
		if (obj->addr == addr)
			break;
	if (obj) {
		*link = obj->next;
		obj_put(obj);
		WRITE_ONCE(debug_objects_active, debug_objects_active - 1);
	}
	spin_unlock_irqrestore(&debug_objects_lock, flags);
	return obj;
}

void debug_objects_get_stats(struct debug_objects_stats *st)
{
	unsigned long flags;

	spin_lock_irqsave(&debug_objects_lock, flags);
	st->active = debug_objects_active;
	st->max_active = max_active;
	st->untracked = untracked;
	st->pool_size = ODEBUG_POOL_SIZE;
	spin_unlock_irqrestore(&debug_objects_lock, flags);
}

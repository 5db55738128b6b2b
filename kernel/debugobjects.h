/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Debug objects (Linux's <linux/debugobjects.h>, cut down to what RCU
 * uses): a table of the objects that are active now, keyed by their
 * address, so that a second activation of an object already active is
 * seen without reading a byte of the object itself. RCU activates an
 * rcu_head in call_rcu() and deactivates it when its callback is taken
 * to run (Linux's CONFIG_DEBUG_OBJECTS_RCU_HEAD).
 *
 * Off unless the boot parameter debug_objects is given (make test's
 * debug stages give it beside slab_debug); tests switch it at run time.
 * While off, activation does nothing and deactivation costs one load
 * (the table may still hold objects activated while it was on).
 *
 *	debug_object_activate(addr)
 *		0 once addr is recorded active; -EEXIST if it already was
 *		(the caller reports it: a double call_rcu()); -ENOSPC if
 *		the table is full (addr is not tracked, the caller goes
 *		on; a line says so, once); 0 while off.
 *	debug_object_deactivate(addr)
 *		addr is no longer active; true if it was tracked.
 *
 * Both work in any context, under any lock but the table's own: it is
 * taken with interrupts off and nothing is taken under it.
 */
#ifndef KERNEL_DEBUGOBJECTS_H
#define KERNEL_DEBUGOBJECTS_H

#include "kernel/compiler.h"
#include "kernel/types.h"

extern bool debug_objects_enabled;
extern unsigned long debug_objects_active;

int debug_object_activate(const void *addr);
bool __debug_object_deactivate(const void *addr);

static inline bool debug_object_deactivate(const void *addr)
{
	if (likely(!READ_ONCE(debug_objects_active)))
		return false;
	return __debug_object_deactivate(addr);
}

/* For the tests: switch tracking on or off; the old setting. */
bool debug_objects_set(bool on);

struct debug_objects_stats {
	unsigned long active;		/* tracked now */
	unsigned long max_active;	/* most tracked at once */
	unsigned long untracked;	/* activations the full table missed */
	unsigned long pool_size;
};
void debug_objects_get_stats(struct debug_objects_stats *st);

#endif /* KERNEL_DEBUGOBJECTS_H */

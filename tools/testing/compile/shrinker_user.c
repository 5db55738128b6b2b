// SPDX-License-Identifier: GPL-2.0
/*
 * Must compile: a cache of objects with a shrinker, written against the
 * API headers alone (mm/shrinker.h, mm/slab.h). Compiled, never linked,
 * by tools/testing/compile_checks.py.
 */
#include "mm/shrinker.h"
#include "mm/slab.h"

struct pooled {
	struct pooled *next;
};

static struct pooled *pool_head;
static unsigned long pool_nr;

static unsigned long pool_count(struct shrinker *s, struct shrink_control *sc)
{
	(void)s;
	(void)sc;
	return pool_nr ? pool_nr : SHRINK_EMPTY;
}

static unsigned long pool_scan(struct shrinker *s, struct shrink_control *sc)
{
	unsigned long freed = 0;

	(void)s;
	if (!(sc->gfp_mask & __GFP_DIRECT_RECLAIM))
		return SHRINK_STOP;
	while (pool_head && freed < sc->nr_to_scan) {
		struct pooled *p = pool_head;

		pool_head = p->next;
		kfree(p);
		pool_nr--;
		freed++;
	}
	return freed;
}

static struct shrinker pool_shrinker = {
	.count_objects = pool_count,
	.scan_objects = pool_scan,
	.seeks = DEFAULT_SEEKS,
	.batch = 32,
};

int pool_demo(void);

int pool_demo(void)
{
	unsigned int old;
	int err;

	err = register_shrinker(&pool_shrinker, "pool-%d", 1);
	if (err)
		return err;
	old = memalloc_noreclaim_save();
	kfree(kmalloc(64, GFP_KERNEL));
	memalloc_noreclaim_restore(old);
	unregister_shrinker(&pool_shrinker);
	return (int)(drop_slab() & 0);
}

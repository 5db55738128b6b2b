// SPDX-License-Identifier: GPL-2.0
/*
 * Must not compile: a caller that includes only the slab API (mm/slab.h)
 * and reaches into a cache or a slab. Each line marked "internal" must
 * be an error, and only those. With mm/slab_internal.h added on the
 * command line (-include) the file must compile, so the errors come from
 * the header split and nothing else (tools/testing/compile_checks.py).
 */
#include "mm/slab.h"

unsigned long cache_slabs(struct kmem_cache *c);
unsigned int slab_in_use(const void *objp);

unsigned long cache_slabs(struct kmem_cache *c)
{
	return c->node[0]->total_slabs;		/* internal */
}

unsigned int slab_in_use(const void *objp)
{
	const struct slab *slab = (const void *)objp;

	return slab->active;			/* internal */
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What mm/slab.c and mm/slab_common.c share, and nothing else uses.
 */
#ifndef MM_SLAB_INTERNAL_H
#define MM_SLAB_INTERNAL_H

#include "mm/slab.h"

static inline struct array_cache *cpu_cache_get(struct kmem_cache *cachep)
{
	return cachep->cpu_cache[arch_cpu_id()];
}

static inline struct kmem_cache_node *get_node(struct kmem_cache *cachep)
{
	return cachep->node[0];
}

/* Entry i of a slab's index array (1- or 2-byte indices). */
static inline unsigned int get_free_obj(const struct kmem_cache *cachep,
					const struct slab *slab, unsigned int i)
{
	if (cachep->freelist_idx_size == 1)
		return ((const u8 *)slab->freelist)[i];
	return ((const u16 *)slab->freelist)[i];
}

static inline void set_free_obj(const struct kmem_cache *cachep,
				struct slab *slab, unsigned int i,
				unsigned int idx)
{
	if (cachep->freelist_idx_size == 1)
		((u8 *)slab->freelist)[i] = (u8)idx;
	else
		((u16 *)slab->freelist)[i] = (u16)idx;
}

static inline void *index_to_obj(const struct kmem_cache *cachep,
				 const struct slab *slab, unsigned int idx)
{
	return (char *)slab->s_mem + cachep->size * idx;
}

/* Give every object in ac back to its slab. */
void drain_array(struct kmem_cache *cachep, struct array_cache *ac);
/* Free the slabs on list (taken off the node's lists under its lock). */
void slabs_destroy(struct kmem_cache *cachep, struct list_head *list);

#endif /* MM_SLAB_INTERNAL_H */

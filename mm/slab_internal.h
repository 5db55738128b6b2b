/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What mm/slab.c and mm/slab_common.c share, and nothing else uses.
 */
#ifndef MM_SLAB_INTERNAL_H
#define MM_SLAB_INTERNAL_H

#include "mm/slab.h"

#define SLAB_MAX_NUM_1BYTE	256	/* objects a 1-byte index can name */
#define SLAB_MAX_NUM_2BYTE	65535

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

static inline bool cache_debug(const struct kmem_cache *cachep)
{
	return cachep->flags & SLAB_DEBUG_FLAGS;
}

/*
 * Parse a slab_debug= value (Linux's slub_debug syntax) and give the
 * flags it sets for the cache name (NULL: check the syntax only).
 */
int slab_debug_parse(const char *spec, const char *name, slab_flags_t *flags);
/* The slab_debug flags for a new cache of that name (slab_debug=...). */
slab_flags_t slab_debug_boot_flags(const char *name);
/* Object stride and offsets for a debugged cache (before slab sizing). */
void slab_debug_layout(struct kmem_cache *cachep);
/* A new slab's object: put it in the state of a free object. */
void slab_debug_init_obj(struct kmem_cache *cachep, void *objp);
/* The allocation and free paths of a debugged cache. */
void *slab_debug_alloc(struct kmem_cache *cachep, gfp_t flags,
		       size_t orig_size, unsigned long caller);
void slab_debug_free(struct kmem_cache *cachep, void *objp,
		     unsigned long caller);
/*
 * While some cache is debugged, kfree, ksize, krealloc and kfree_sensitive
 * first check that the pointer is in the direct map at all; what names
 * the call in the report.
 */
bool slab_debug_ptr_ok(const void *objp, const char *what,
		       unsigned long caller);
/* A kfree or ksize of a pointer that is not an object start. */
void slab_report_bad_ptr(const void *ptr, unsigned long caller,
			 const char *problem);
/* Bytes the caller asked for (kmalloc red zone), and resizing it. */
size_t slab_debug_orig_size(struct kmem_cache *cachep, const void *objp);
void slab_debug_set_orig_size(struct kmem_cache *cachep, void *objp,
			      size_t size);
/* Is objp in the cache's quarantine? */
bool slab_debug_quarantined(struct kmem_cache *cachep, const void *objp);
/*
 * Debugged caches that exist. Changed only under slab_lock (creating and
 * destroying a cache, mm/slab_common.c); read without it.
 */
extern unsigned int slab_nr_debug_caches;
/* slab_nr_debug_caches changed: kfree's fast path test follows it. */
void slab_fastpath_update(void);

/* One object straight from / back to the slabs (no per-CPU arrays). */
void *cache_alloc_one(struct kmem_cache *cachep, gfp_t flags);
void cache_free_one(struct kmem_cache *cachep, void *objp);

/* Give every object in ac back to its slab. */
void drain_array(struct kmem_cache *cachep, struct array_cache *ac);
/* Free the slabs on list (taken off the node's lists under its lock). */
void slabs_destroy(struct kmem_cache *cachep, struct list_head *list);

#endif /* MM_SLAB_INTERNAL_H */

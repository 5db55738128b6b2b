/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KASAN, generic mode: the allocators say which bytes are valid, a
 * shadow remembers it, and every access to an invalid byte is reported
 * where it happens (Documentation/dev-tools/kasan.md).
 *
 * This header is the allocators' side, Linux's hooks by Linux's names:
 * SLAB poisons a new slab whole and unpoisons each object as it is
 * handed out, to the size asked for (kmalloc(13) is valid for bytes
 * 0..12 only); a freed object is poisoned and waits in a quarantine
 * before SLAB may hand it out again; pages are poisoned when freed and
 * unpoisoned when allocated; a vmalloc area is valid to its size, its
 * guard page not; a mempool's spare elements are poisoned.
 *
 * Each slab object also carries, after it, who allocated it and who
 * freed it last (struct kasan_alloc_meta: a CPU and a stack depot
 * handle each), which the report prints.
 *
 * The shadow itself is the arch's (arch/arch.h: arch_kasan_poison(),
 * arch_kasan_unpoison(), arch_kasan_first_bad(), arch_kasan_report()):
 * on the host build, AddressSanitizer's; on x86_64 with KASAN=1, gcc's
 * generic KASAN shadow. Without a backend kasan_enabled() is a constant
 * false and every hook below compiles to nothing, so the allocators'
 * fast paths and the caches' layout stay as they are.
 */
#ifndef MM_KASAN_H
#define MM_KASAN_H

#include "arch/arch.h"
#include "kernel/types.h"
#include "mm/gfp.h"

struct kmem_cache;
struct page;
struct slab;

/* Bytes per shadow byte; the unit of validity (generic KASAN's 8). */
#define KASAN_GRANULE_SIZE	8

/* Generic KASAN's shadow byte values, what a poisoned granule was. */
#define KASAN_PAGE_FREE		0xff	/* a free page */
#define KASAN_PAGE_REDZONE	0xfe	/* past a large kmalloc's size */
#define KASAN_SLAB_REDZONE	0xfc	/* a slab's bytes no object owns */
#define KASAN_SLAB_FREE		0xfb	/* a free or quarantined object */
#define KASAN_VMALLOC_INVALID	0xf8	/* a vmalloc guard or freed area */

/*
 * A cache whose objects each carry a struct kasan_alloc_meta after them
 * (kasan_cache_create()); never asked for by kmem_cache_create()'s
 * callers (Linux's SLAB_KASAN).
 */
#define SLAB_KASAN		0x08000000u

/*
 * Who allocated or freed an object: the CPU (reports say
 * "swapper/cpu", as for the bad access) and the stack, in the stack
 * depot (lib/stackdepot.h; 0: none saved).
 */
struct kasan_track {
	u32 cpu;
	u32 stack;	/* depot_stack_handle_t */
};

/*
 * Behind each object of a SLAB_KASAN cache, at the object size rounded
 * up to a granule: the last allocation's track, and the last free's
 * (cleared at allocation). Poisoned as the slab's red zone: only KASAN
 * reads and writes it.
 */
struct kasan_alloc_meta {
	struct kasan_track alloc_track;
	struct kasan_track free_track;
};

/*
 * One bulk call's objects (kmem_cache_alloc_bulk(), kmem_cache_free_bulk())
 * share one stack: each object's hook is called from the same loop of
 * the same call, so its stack is the same; the first object's track
 * saves it and the others take its handle. Zeroed before the first.
 */
struct kasan_bulk {
	u32 stack;	/* depot_stack_handle_t; 0: not saved yet */
};

/* Does this build have a shadow? A compile-time constant. */
static __always_inline bool kasan_enabled(void)
{
	return arch_kasan_enabled();
}

/* The backend and the quarantine; once, after vmalloc_init(). */
void kasan_init(void);

/* Out-of-line halves of the hooks below (mm/kasan.c). */
void __kasan_cache_create(struct kmem_cache *cachep);
void __kasan_poison_slab(struct slab *slab);
void __kasan_unpoison_range(const void *addr, size_t size);
void __kasan_unpoison_object_data(struct kmem_cache *cachep, void *object);
void __kasan_poison_object_data(struct kmem_cache *cachep, void *object);
void *__kasan_slab_alloc(struct kmem_cache *cachep, void *object,
			 gfp_t flags, bool init, struct kasan_bulk *bulk);
void *__kasan_kmalloc(struct kmem_cache *cachep, const void *object,
		      size_t size, gfp_t flags);
void *__kasan_kmalloc_large(const void *ptr, size_t size, gfp_t flags);
void *__kasan_krealloc(const void *object, size_t size, gfp_t flags);
bool __kasan_slab_free(struct kmem_cache *cachep, void *object,
		       unsigned long ip, struct kasan_bulk *bulk);
bool __kasan_check_byte(const void *addr, unsigned long ip);
bool __kasan_check_range(const void *addr, size_t size, bool write,
			 unsigned long ip);
void __kasan_alloc_pages(struct page *page, unsigned int order);
void __kasan_free_pages(struct page *page, unsigned int order);
void __kasan_unpoison_vmalloc(const void *addr, size_t size,
			      size_t area_size);
void __kasan_poison_vmalloc(const void *addr, size_t size);
void __kasan_mempool_poison_object(void *object);
void __kasan_mempool_unpoison_object(void *object);
void __kasan_cache_shrink(struct kmem_cache *cachep);

/*
 * A cache is laid out (not a slab_debug one): room for a struct
 * kasan_alloc_meta after each object, cachep->size grown to hold it.
 * Without a backend the layout is left as it is.
 */
static __always_inline void kasan_cache_create(struct kmem_cache *cachep)
{
	if (kasan_enabled())
		__kasan_cache_create(cachep);
}

/* SLAB: a new slab is poisoned whole; objects are unpoisoned one by one. */
static __always_inline void kasan_poison_slab(struct slab *slab)
{
	if (kasan_enabled())
		__kasan_poison_slab(slab);
}

/* Mark [addr, addr + size) valid (ksize(), the slab's own freelist). */
static __always_inline void kasan_unpoison_range(const void *addr,
						 size_t size)
{
	if (kasan_enabled())
		__kasan_unpoison_range(addr, size);
}

/* Around a constructor: the object valid while it runs, then not. */
static __always_inline void kasan_unpoison_object_data(struct kmem_cache *c,
						       void *object)
{
	if (kasan_enabled())
		__kasan_unpoison_object_data(c, object);
}

static __always_inline void kasan_poison_object_data(struct kmem_cache *c,
						     void *object)
{
	if (kasan_enabled())
		__kasan_poison_object_data(c, object);
}

/*
 * An object leaves SLAB: valid to the cache's object size, zeroed if
 * init. Returns the object (a tag-based mode would retag it).
 */
static __always_inline void *kasan_slab_alloc(struct kmem_cache *cachep,
					      void *object, gfp_t flags,
					      bool init)
{
	if (kasan_enabled() && object)
		return __kasan_slab_alloc(cachep, object, flags, init, NULL);
	return object;
}

/* kasan_slab_alloc() for one object of a bulk allocation. */
static __always_inline void *kasan_slab_alloc_bulk(struct kmem_cache *cachep,
						   void *object, gfp_t flags,
						   bool init,
						   struct kasan_bulk *bulk)
{
	if (kasan_enabled() && object)
		return __kasan_slab_alloc(cachep, object, flags, init, bulk);
	return object;
}

/* kmalloc: the bytes from size to the object's end poisoned again. */
static __always_inline void *kasan_kmalloc(struct kmem_cache *cachep,
					   const void *object, size_t size,
					   gfp_t flags)
{
	if (kasan_enabled() && object)
		return __kasan_kmalloc(cachep, object, size, flags);
	return (void *)object;
}

/* A kmalloc above the caches (whole pages): valid to size only. */
static __always_inline void *kasan_kmalloc_large(const void *ptr, size_t size,
						 gfp_t flags)
{
	if (kasan_enabled() && ptr)
		return __kasan_kmalloc_large(ptr, size, flags);
	return (void *)ptr;
}

/* krealloc() keeps object for size: valid to the new size, no more. */
static __always_inline void *kasan_krealloc(const void *object, size_t size,
					    gfp_t flags)
{
	if (kasan_enabled() && object)
		return __kasan_krealloc(object, size, flags);
	return (void *)object;
}

/*
 * An object is freed. True if SLAB must not take it back now: it went
 * to the quarantine, or the free was bad (a double or invalid free,
 * reported). A SLAB_TYPESAFE_BY_RCU object is neither poisoned nor
 * quarantined: it stays valid memory of its type until its slab goes,
 * after a grace period.
 */
static __always_inline bool kasan_slab_free(struct kmem_cache *cachep,
					    void *object, unsigned long ip)
{
	if (kasan_enabled())
		return __kasan_slab_free(cachep, object, ip, NULL);
	return false;
}

/* kasan_slab_free() for one object of a bulk free. */
static __always_inline bool kasan_slab_free_bulk(struct kmem_cache *cachep,
						 void *object, unsigned long ip,
						 struct kasan_bulk *bulk)
{
	if (kasan_enabled())
		return __kasan_slab_free(cachep, object, ip, bulk);
	return false;
}

/* Is the byte at addr valid? Reports it if not (Linux's kasan_check_byte). */
static __always_inline bool kasan_check_byte(const void *addr)
{
	if (kasan_enabled())
		return __kasan_check_byte(addr, _RET_IP_);
	return true;
}

/*
 * A string function's whole range, checked once at its entry: reported
 * (once) if any byte is invalid. True if all are valid.
 */
static __always_inline bool kasan_check_read(const void *p, size_t size)
{
	if (kasan_enabled())
		return __kasan_check_range(p, size, false, _RET_IP_);
	return true;
}

static __always_inline bool kasan_check_write(const void *p, size_t size)
{
	if (kasan_enabled())
		return __kasan_check_range(p, size, true, _RET_IP_);
	return true;
}

/* The page allocator: a block is valid while allocated, poisoned free. */
static __always_inline void kasan_alloc_pages(struct page *page,
					      unsigned int order)
{
	if (kasan_enabled())
		__kasan_alloc_pages(page, order);
}

static __always_inline void kasan_free_pages(struct page *page,
					     unsigned int order)
{
	if (kasan_enabled())
		__kasan_free_pages(page, order);
}

/*
 * vmalloc: an area of area_size bytes (its pages, then the guard page)
 * is valid to size; vfree() poisons it all.
 */
static __always_inline void kasan_unpoison_vmalloc(const void *addr,
						   size_t size,
						   size_t area_size)
{
	if (kasan_enabled())
		__kasan_unpoison_vmalloc(addr, size, area_size);
}

static __always_inline void kasan_poison_vmalloc(const void *addr,
						 size_t size)
{
	if (kasan_enabled())
		__kasan_poison_vmalloc(addr, size);
}

/*
 * mempool: an element of a slab pool is poisoned while it waits in the
 * pool, valid again when handed out (Linux 6.8's names).
 */
static __always_inline void kasan_mempool_poison_object(void *object)
{
	if (kasan_enabled())
		__kasan_mempool_poison_object(object);
}

static __always_inline void kasan_mempool_unpoison_object(void *object)
{
	if (kasan_enabled())
		__kasan_mempool_unpoison_object(object);
}

/* kmem_cache_shrink() and destroy: the cache's objects leave quarantine. */
static __always_inline void kasan_cache_shrink(struct kmem_cache *cachep)
{
	if (kasan_enabled())
		__kasan_cache_shrink(cachep);
}

/*
 * The backend found a bad access: print the report and say what the
 * memory is. True if the run may go on: a kasan test expects it
 * (kasan_kunit_test_suite_start()); otherwise the backend ends the run
 * as it would for any other bug.
 */
bool kasan_report(unsigned long addr, size_t size, bool is_write,
		  unsigned long ip);

/* The kasan suite runs: its reports are expected, the run goes on. */
void kasan_kunit_test_suite_start(void);
void kasan_kunit_test_suite_end(void);
bool kasan_reports_expected(void);

/*
 * For a backend that goes on after a report (x86_64). Print this one?
 * Those expected all; others only the first unless kasan_multi_shot is
 * on the command line (Linux's report_enabled()). Then panic? Only
 * after one not expected, and with panic_on_warn (Linux's
 * check_panic_on_warn()).
 */
bool kasan_report_enabled(bool expected);
bool kasan_report_panics(bool expected);
/* kasan_multi_shot on, returning whether it was (Linux's names). */
bool kasan_save_enable_multi_shot(void);
void kasan_restore_multi_shot(bool enabled);
/* Whether a report was printed already, set; the old value (the tests). */
bool kasan_set_reported(bool reported);

/* The quarantine (mm/kasan_quarantine.c). */
bool kasan_quarantine_put(struct kmem_cache *cachep, void *object);
/* Do freed objects wait in the quarantine (on by default with a backend)? */
bool kasan_quarantine_enabled(void);
/* Quarantine on or off (off: emptied); returns whether it was on. */
bool kasan_quarantine_set(bool on);
void kasan_quarantine_remove_cache(struct kmem_cache *cachep);
/* cachep's objects in the quarantine now (freed, not yet SLAB's again). */
unsigned long kasan_quarantine_cache_objects(struct kmem_cache *cachep);
unsigned long kasan_quarantine_reduce(unsigned long nr);
void kasan_quarantine_init(void);
/* Objects and bytes in the quarantine now, and its byte bound. */
struct kasan_quarantine_stats {
	unsigned long objects;
	unsigned long bytes;
	unsigned long max_bytes;
	unsigned long max_objects;
};
void kasan_quarantine_get_stats(struct kasan_quarantine_stats *st);

#endif /* MM_KASAN_H */

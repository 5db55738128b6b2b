// SPDX-License-Identifier: GPL-2.0
/*
 * KASAN, generic mode: the hooks' bodies and the report (mm/kasan.h is
 * the API, Documentation/dev-tools/kasan.md the guide).
 *
 * 1. What is valid. A slab is poisoned whole when it is made
 *    (KASAN_SLAB_REDZONE); an object handed out is unpoisoned to the
 *    cache's object size, a kmalloc object to the size asked for, the
 *    partial last granule exactly (the shadow's k-valid-bytes value).
 *    A freed object is poisoned (KASAN_SLAB_FREE) and goes to the
 *    quarantine (mm/kasan_quarantine.c), which hands it back to SLAB
 *    later, so a use after free is caught before the memory is reused.
 *    Pages are valid from alloc to free; a large kmalloc (whole pages)
 *    only to its size; a vmalloc area to its size, not its guard page.
 *
 * 2. Left alone. Caches with slab_debug: their red zones and poison are
 *    slab_debug's, checked at free and validation; SLAB_TYPESAFE_BY_RCU
 *    objects are not poisoned at free (readers may still look at them
 *    until the grace period after which the slab itself goes); KFENCE's
 *    objects (mm/kfence.c), whose guard pages and canaries are its own
 *    checks, as Linux leaves them.
 *
 * 3. Frees. A free of a pointer that is not an object's start is an
 *    "invalid-free"; of an object whose first byte is poisoned (free or
 *    in quarantine), a "double-free". Both are reported here, from the
 *    shadow, and the call is ignored, as Linux's kasan_slab_free does.
 *
 * 4. Reports. The backend (arch/arch.h) calls kasan_report() for every
 *    bad access. The shadow says only "invalid", so what the bytes are
 *    comes from the allocators: a slab object whose first byte is
 *    invalid is free (use-after-free), one whose first byte is valid is
 *    allocated and the access lies past its size (out-of-bounds); a
 *    page likewise; anything in the vmalloc window is
 *    vmalloc-out-of-bounds. The report is Linux's header, object and
 *    cache, then the arch's shadow bytes around the address
 *    (arch_kasan_print_shadow(), if it has its own), and it says its
 *    kind (kernel/report.h) for the tests. For a slab object it first
 *    prints who allocated it and, if it is free, who freed it. Which
 *    reports a backend that goes on after one prints, and whether it
 *    then panics, is decided here too (kasan_report_enabled(),
 *    kasan_report_panics()).
 *
 * 5. Tracks. With a backend every cache but slab_debug's gets a struct
 *    kasan_alloc_meta after each object (kasan_cache_create(): the
 *    stride grows by 16 bytes, rounded to the cache's alignment;
 *    SLAB_KASAN says so), poisoned with the slab's red zone: the CPU
 *    and a stack depot handle (lib/stackdepot.c) of the last
 *    allocation and of the last free. Unlike Linux, which keeps the
 *    free track inside the freed object, both stay outside it: the
 *    quarantine writes nothing into its objects, and SLAB may keep its
 *    index array in a free object. Saving a stack never allocates (the
 *    depot took its pools at init), so frees under any lock and in
 *    any context save theirs. A mempool element's trip into and out of
 *    its reserve counts as a free and an allocation. Two shortcuts give
 *    the very stack the walk would: each CPU keeps the log of the last
 *    walk of an allocation and of a free (stack_trace_save_log()), and
 *    a save whose walk would read the same words takes its handle; a
 *    bulk call's objects share the first one's (struct kasan_bulk).
 */
#include "kernel/atomic.h"
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/report.h"
#include "kernel/stacktrace.h"
#include "lib/stackdepot.h"
#include "lib/string.h"
#include "mm/kasan.h"
#include "mm/kfence.h"
#include "mm/mm.h"
#include "mm/slab_internal.h"
#include "mm/vmalloc.h"

#define KASAN_ROUND(x)	ALIGN((size_t)(x), KASAN_GRANULE_SIZE)
#define KASAN_STACK_DEPTH	64	/* Linux's */

static atomic_t kasan_tests_running;

static bool cache_skipped(const struct kmem_cache *cachep)
{
	return cache_debug(cachep);
}

static void poison(const void *addr, size_t size, u8 value)
{
	WARN_ON_ONCE(!IS_ALIGNED((unsigned long)addr, KASAN_GRANULE_SIZE));
	arch_kasan_poison(addr, size, value);
}

/* Valid [addr, addr + valid), invalid from there to addr + total. */
static void set_valid(const void *addr, size_t valid, size_t total, u8 value)
{
	poison(addr, KASAN_ROUND(total), value);
	if (valid)
		arch_kasan_unpoison(addr, valid);
}

static bool byte_valid(const void *addr)
{
	return !arch_kasan_first_bad(addr, 1);
}

static void kasan_stack_cache_init(void);

void kasan_init(void)
{
	if (!kasan_enabled())
		return;
	arch_kasan_init();
	WARN(stack_depot_init(), "kasan: no memory for the stack depot yet\n");
	kasan_stack_cache_init();
	kasan_quarantine_init();
	pr_info("kasan: KernelAddressSanitizer initialized (generic, %s)\n",
		arch_name);
}

/* --- tracks: who allocated and freed an object (section 5) ------------ */

void __kasan_cache_create(struct kmem_cache *cachep)
{
	size_t size = ALIGN(KASAN_ROUND(cachep->object_size) +
			    sizeof(struct kasan_alloc_meta), cachep->align);

	if (WARN_ON_ONCE(cache_skipped(cachep)) || size > KMALLOC_MAX_SIZE)
		return;	/* no room: no tracks (Linux's rule) */
	cachep->size = (unsigned int)size;
	cachep->flags |= SLAB_KASAN;
}

static struct kasan_alloc_meta *
kasan_get_alloc_meta(const struct kmem_cache *cachep, const void *object)
{
	if (!(cachep->flags & SLAB_KASAN) || is_kfence_address(object))
		return NULL;
	return (void *)((char *)object + KASAN_ROUND(cachep->object_size));
}

/*
 * The last stack each CPU saved for an allocation and for a free: the
 * words its walk read (kernel/stacktrace.h) and its handle. A save whose
 * walk would read the very same words saves the very same stack: it
 * takes the handle, without the walk's checks or the depot's lookup
 * (a loop allocating and freeing from one place). Only the CPU touches
 * its own, from any context: seq is odd while a save rewrites a slot
 * and moves on whenever one did, so a lookup that an interrupt's save
 * overtook misses, and a save inside another's rewrite leaves it alone.
 * NR_CPUS of them, from the page allocator at init (none without a
 * backend, or if that fails: every save walks).
 */
enum kasan_stack_kind { KASAN_STACK_ALLOC, KASAN_STACK_FREE, KASAN_STACK_KINDS };

struct kasan_stack_cache {
	unsigned long seq;
	struct {
		depot_stack_handle_t handle;	/* 0: empty */
		struct stack_trace_log log;
	} slot[KASAN_STACK_KINDS];
};

static struct kasan_stack_cache *stack_cache;

static void kasan_stack_cache_init(void)
{
	struct page *page;

	page = alloc_pages(GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN,
			   get_order(NR_CPUS * sizeof(*stack_cache)));
	if (page)
		__atomic_store_n(&stack_cache, page_address(page),
				 __ATOMIC_RELEASE);
}

static depot_stack_handle_t stack_cache_lookup(struct kasan_stack_cache *c,
					       enum kasan_stack_kind kind,
					       unsigned long fp)
{
	unsigned long seq = READ_ONCE(c->seq);
	depot_stack_handle_t handle;

	if (seq & 1)
		return 0;
	barrier();
	handle = c->slot[kind].handle;
	if (!handle || !stack_trace_log_matches(&c->slot[kind].log, fp))
		return 0;
	barrier();
	return READ_ONCE(c->seq) == seq ? handle : 0;
}

static void stack_cache_store(struct kasan_stack_cache *c,
			      enum kasan_stack_kind kind,
			      depot_stack_handle_t handle,
			      const struct stack_trace_log *log)
{
	unsigned long seq = READ_ONCE(c->seq);

	if ((seq & 1) || log->nr > STACK_TRACE_LOG_WORDS)
		return;
	WRITE_ONCE(c->seq, seq + 1);
	barrier();
	c->slot[kind].handle = handle;
	c->slot[kind].log.nr = log->nr;
	for (unsigned int i = 0; i < log->nr; i++)
		c->slot[kind].log.word[i] = log->word[i];
	barrier();
	WRITE_ONCE(c->seq, seq + 2);
}

/* One call of the walk, so that its first word read is always the same. */
static __noinline depot_stack_handle_t
kasan_save_stack(gfp_t flags, bool can_alloc, enum kasan_stack_kind kind)
{
	struct kasan_stack_cache *c = __atomic_load_n(&stack_cache,
						      __ATOMIC_ACQUIRE);
	unsigned long fp = (unsigned long)__builtin_frame_address(0);
	unsigned long entries[KASAN_STACK_DEPTH];
	struct stack_trace_log log;
	depot_stack_handle_t handle;
	unsigned int nr;

	if (c) {
		c += arch_cpu_id();
		handle = stack_cache_lookup(c, kind, fp);
		if (handle)
			return handle;
	}
	nr = stack_trace_save_log(entries, ARRAY_SIZE(entries), &log);
	handle = __stack_depot_save(entries, nr, flags, can_alloc);
	if (handle && c)
		stack_cache_store(c, kind, handle, &log);
	return handle;
}

/*
 * The metadata is poisoned (the slab's red zone): only these touch it.
 * A bulk call's first object saves the stack, the others share it.
 */
static __no_sanitize_address void kasan_set_track(struct kasan_track *track,
						  gfp_t flags, bool can_alloc,
						  enum kasan_stack_kind kind,
						  struct kasan_bulk *bulk)
{
	track->cpu = arch_cpu_id();
	if (bulk && bulk->stack) {
		track->stack = bulk->stack;
		return;
	}
	track->stack = kasan_save_stack(flags, can_alloc, kind);
	if (bulk)
		bulk->stack = track->stack;
}

static __no_sanitize_address void kasan_clear_track(struct kasan_track *track)
{
	track->cpu = 0;
	track->stack = 0;
}

static __no_sanitize_address void kasan_read_track(struct kasan_track *to,
						   const struct kasan_track *from)
{
	to->cpu = READ_ONCE(from->cpu);
	to->stack = READ_ONCE(from->stack);
}

static void kasan_save_alloc_info(struct kmem_cache *cachep, void *object,
				  gfp_t flags, bool can_alloc,
				  struct kasan_bulk *bulk)
{
	struct kasan_alloc_meta *meta = kasan_get_alloc_meta(cachep, object);

	if (!meta)
		return;
	kasan_set_track(&meta->alloc_track, flags, can_alloc, KASAN_STACK_ALLOC,
			bulk);
	kasan_clear_track(&meta->free_track);
}

/* A free may come under any lock, from any context: it never allocates. */
static void kasan_save_free_info(struct kmem_cache *cachep, void *object,
				 struct kasan_bulk *bulk)
{
	struct kasan_alloc_meta *meta = kasan_get_alloc_meta(cachep, object);

	if (meta)
		kasan_set_track(&meta->free_track, 0, false, KASAN_STACK_FREE,
				bulk);
}

/* --- what is valid ---------------------------------------------------- */

void __kasan_poison_slab(struct slab *slab)
{
	struct kmem_cache *cachep = slab->slab_cache;

	if (cache_skipped(cachep))
		return;
	poison(slab_address(slab), PAGE_SIZE << cachep->gfporder,
	       KASAN_SLAB_REDZONE);
}

void __kasan_unpoison_range(const void *addr, size_t size)
{
	arch_kasan_unpoison(addr, size);
}

void __kasan_unpoison_object_data(struct kmem_cache *cachep, void *object)
{
	if (!cache_skipped(cachep))
		arch_kasan_unpoison(object, cachep->object_size);
}

void __kasan_poison_object_data(struct kmem_cache *cachep, void *object)
{
	if (!cache_skipped(cachep))
		poison(object, KASAN_ROUND(cachep->object_size),
		       KASAN_SLAB_REDZONE);
}

void *__kasan_slab_alloc(struct kmem_cache *cachep, void *object,
			 gfp_t flags, bool init, struct kasan_bulk *bulk)
{
	if (cache_skipped(cachep) || is_kfence_address(object))
		return object;
	arch_kasan_unpoison(object, cachep->object_size);
	if (init)
		memset(object, 0, cachep->object_size);
	kasan_save_alloc_info(cachep, object, flags, true, bulk);
	return object;
}

/*
 * Invalid from valid bytes on to total: only the tail's shadow is
 * written, from the granule valid ends in (those before it are valid
 * already, as __kasan_slab_alloc() left them), nothing when valid fills
 * the object (Linux's kasan_poison_last_granule() and redzone).
 */
static void set_tail_invalid(const void *object, size_t valid, size_t total,
			     u8 value)
{
	size_t from = ALIGN_DOWN(valid, KASAN_GRANULE_SIZE);
	const char *tail = (const char *)object + from;

	if (KASAN_ROUND(total) > from)
		poison(tail, KASAN_ROUND(total) - from, value);
	if (valid > from)
		arch_kasan_unpoison(tail, valid - from);
}

/* After __kasan_slab_alloc(): the object is valid to its object size. */
void *__kasan_kmalloc(struct kmem_cache *cachep, const void *object,
		      size_t size, gfp_t flags)
{
	/* All of it asked for: valid already, as the slab alloc left it. */
	if (size >= cachep->object_size || cache_skipped(cachep) ||
	    is_kfence_address(object))
		return (void *)object;
	set_tail_invalid(object, size, cachep->object_size, KASAN_SLAB_REDZONE);
	return (void *)object;
}

void *__kasan_kmalloc_large(const void *ptr, size_t size, gfp_t flags)
{
	if (is_kfence_address(ptr))	/* not in the direct map */
		return (void *)ptr;
	set_valid(ptr, size, PAGE_SIZE << compound_order(virt_to_page(ptr)),
		  KASAN_PAGE_REDZONE);
	return (void *)ptr;
}

void *__kasan_krealloc(const void *object, size_t size, gfp_t flags)
{
	struct slab *slab;

	if (is_kfence_address(object))
		return (void *)object;
	slab = virt_to_slab(object);
	if (!slab)
		return __kasan_kmalloc_large(object, size, flags);
	/* Growing: the bytes up to size may have been cut off before. */
	if (!cache_skipped(slab->slab_cache) && !is_kfence_address(object))
		arch_kasan_unpoison(object, min_t(size_t, size,
					  slab->slab_cache->object_size));
	return __kasan_kmalloc(slab->slab_cache, object, size, flags);
}

/* --- frees ------------------------------------------------------------ */

static void report_free(const void *object, unsigned long ip,
			enum report_kind kind, const char *bug_type);

/*
 * Is object the start of one of the slab's objects? SLAB's reciprocal
 * of the stride, not a divide (below s_mem, off wraps and is too big).
 */
static bool object_start(const struct kmem_cache *cachep,
			 const struct slab *slab, const void *object)
{
	unsigned long off = (unsigned long)object - (unsigned long)slab->s_mem;

	if (off >= (unsigned long)cachep->num * cachep->size)
		return false;
	return off == (unsigned long)offset_to_index(off,
			cachep->reciprocal_buffer_size) * cachep->size;
}

bool __kasan_slab_free(struct kmem_cache *cachep, void *object,
		       unsigned long ip, struct kasan_bulk *bulk)
{
	struct slab *slab;

	if (cache_skipped(cachep) || is_kfence_address(object))
		return false;
	slab = virt_to_slab(object);
	if (!slab || slab->slab_cache != cachep ||
	    !object_start(cachep, slab, object)) {
		report_free(object, ip, REPORT_KASAN_INVALID_FREE,
			    "invalid-free");
		return true;
	}
	if (!byte_valid(object)) {
		report_free(object, ip, REPORT_KASAN_DOUBLE_FREE,
			    "double-free");
		return true;
	}
	if (cachep->flags & SLAB_TYPESAFE_BY_RCU)
		return false;
	/* init_on_free's zeroes go in while the object is valid (Linux's). */
	if (slab_want_init_on_free(cachep)) {
		arch_kasan_unpoison(object, cachep->object_size);
		memset(object, 0, cachep->object_size);
	}
	poison(object, KASAN_ROUND(cachep->object_size), KASAN_SLAB_FREE);
	kasan_save_free_info(cachep, object, bulk);
	return kasan_quarantine_put(cachep, object);
}

bool __kasan_check_byte(const void *addr, unsigned long ip)
{
	if (byte_valid(addr))
		return true;
	arch_kasan_report(addr, 1, false, ip);
	return false;
}

bool __kasan_check_range(const void *addr, size_t size, bool write,
			 unsigned long ip)
{
	const char *bad;

	if (!size)
		return true;
	bad = arch_kasan_first_bad(addr, size);
	if (!bad)
		return true;
	arch_kasan_report(bad, size - (size_t)(bad - (const char *)addr),
			  write, ip);
	return false;
}

/* --- pages, vmalloc, mempool ------------------------------------------ */

void __kasan_alloc_pages(struct page *page, unsigned int order)
{
	arch_kasan_unpoison(page_address(page), PAGE_SIZE << order);
}

void __kasan_free_pages(struct page *page, unsigned int order)
{
	poison(page_address(page), PAGE_SIZE << order, KASAN_PAGE_FREE);
}

void __kasan_unpoison_vmalloc(const void *addr, size_t size, size_t area_size)
{
	set_valid(addr, size, area_size, KASAN_VMALLOC_INVALID);
}

void __kasan_poison_vmalloc(const void *addr, size_t size)
{
	poison(addr, KASAN_ROUND(size), KASAN_VMALLOC_INVALID);
}

void __kasan_mempool_poison_object(void *object)
{
	struct slab *slab;

	if (is_kfence_address(object))
		return;
	slab = virt_to_slab(object);
	if (!slab) {
		poison(object, PAGE_SIZE << compound_order(virt_to_page(object)),
		       KASAN_PAGE_FREE);
		return;
	}
	if (cache_skipped(slab->slab_cache))
		return;
	poison(object, KASAN_ROUND(slab->slab_cache->object_size),
	       KASAN_SLAB_FREE);
	kasan_save_free_info(slab->slab_cache, object, NULL);
}

void __kasan_mempool_unpoison_object(void *object)
{
	struct slab *slab;

	if (is_kfence_address(object))
		return;
	slab = virt_to_slab(object);
	if (!slab) {
		arch_kasan_unpoison(object, PAGE_SIZE <<
				    compound_order(virt_to_page(object)));
		return;
	}
	if (cache_skipped(slab->slab_cache))
		return;
	arch_kasan_unpoison(object, slab->slab_cache->object_size);
	kasan_save_alloc_info(slab->slab_cache, object, 0, false, NULL);
}

void __kasan_cache_shrink(struct kmem_cache *cachep)
{
	kasan_quarantine_remove_cache(cachep);
}

/* --- reports ---------------------------------------------------------- */

void kasan_kunit_test_suite_start(void)
{
	if (atomic_add_return(1, &kasan_tests_running) == 1)
		arch_kasan_expect_reports(true);
}

void kasan_kunit_test_suite_end(void)
{
	if (!atomic_add_return(-1, &kasan_tests_running))
		arch_kasan_expect_reports(false);
}

/*
 * Which reports a backend prints, and what then (Linux's report_enabled()
 * and check_panic_on_warn()): the kasan suite's all, since it expects
 * them; others only the first, unless kasan_multi_shot; panic_on_warn
 * panics after one the suite did not expect.
 */
static bool multi_shot, panic_on_warn, reported;

bool kasan_report_enabled(bool expected)
{
	if (expected || READ_ONCE(multi_shot))
		return true;
	return !__atomic_exchange_n(&reported, true, __ATOMIC_RELAXED);
}

bool kasan_report_panics(bool expected)
{
	return !expected && READ_ONCE(panic_on_warn);
}

bool kasan_reports_expected(void)
{
	return atomic_read(&kasan_tests_running) > 0;
}

bool kasan_save_enable_multi_shot(void)
{
	return __atomic_exchange_n(&multi_shot, true, __ATOMIC_RELAXED);
}

void kasan_restore_multi_shot(bool enabled)
{
	WRITE_ONCE(multi_shot, enabled);
}

bool kasan_set_reported(bool was)
{
	return __atomic_exchange_n(&reported, was, __ATOMIC_RELAXED);
}

kernel_param_flag("kasan_multi_shot", multi_shot);

static int panic_on_warn_setup(char *val)
{
	if (val && strcmp(val, "1") && strcmp(val, "0"))
		return -EINVAL;
	WRITE_ONCE(panic_on_warn, !val || !strcmp(val, "1"));
	return 0;
}
kernel_param("panic_on_warn", panic_on_warn_setup);

/* What the bad address is, found from the allocators (section 4). */
struct kasan_bug {
	const char *type;
	enum report_kind kind;
	struct kmem_cache *cachep;	/* a slab object's cache */
	const char *object;		/* its object, or a page block */
	size_t valid;			/* bytes valid from object */
	size_t size;			/* the object's or block's size */
	bool freed;
};

/* Bytes valid from start, at most size (the requested size, to a byte). */
static size_t valid_bytes(const char *start, size_t size)
{
	const char *bad = arch_kasan_first_bad(start, size);

	return bad ? (size_t)(bad - start) : size;
}

static void classify_slab(struct kasan_bug *b, struct slab *slab,
			  unsigned long addr)
{
	struct kmem_cache *cachep = slab->slab_cache;
	unsigned long s_mem = (unsigned long)slab->s_mem;
	unsigned long idx = addr < s_mem ? 0 : (addr - s_mem) / cachep->size;

	if (idx >= cachep->num)
		idx = cachep->num - 1;
	b->cachep = cachep;
	b->object = index_to_obj(cachep, slab, (unsigned int)idx);
	b->size = cachep->object_size;
	b->freed = !byte_valid(b->object);
	b->valid = b->freed ? 0 : valid_bytes(b->object, b->size);
	if (b->freed && addr >= (unsigned long)b->object &&
	    addr < (unsigned long)b->object + b->size) {
		b->type = "slab-use-after-free";
		b->kind = REPORT_KASAN_SLAB_USE_AFTER_FREE;
	} else {
		b->type = "slab-out-of-bounds";
		b->kind = REPORT_KASAN_SLAB_OUT_OF_BOUNDS;
	}
}

static void classify_page(struct kasan_bug *b, struct page *page)
{
	struct page *head = compound_head(page);

	b->freed = !page_ref_count(head);
	b->object = page_address(head);
	b->size = PAGE_SIZE << (PageHead(head) ? compound_order(head) : 0);
	b->valid = b->freed ? 0 : valid_bytes(b->object, b->size);
	if (b->freed) {
		b->type = "use-after-free";
		b->kind = REPORT_KASAN_USE_AFTER_FREE;
	} else {
		b->type = "page-out-of-bounds";
		b->kind = REPORT_KASAN_PAGE_OUT_OF_BOUNDS;
	}
}

static void classify(struct kasan_bug *b, unsigned long addr)
{
	struct page *page;

	memset(b, 0, sizeof(*b));
	if (is_vmalloc_addr((void *)addr)) {
		b->type = "vmalloc-out-of-bounds";
		b->kind = REPORT_KASAN_VMALLOC_OUT_OF_BOUNDS;
		return;
	}
	if (!virt_addr_valid((void *)addr)) {
		b->type = "wild-memory-access";
		b->kind = REPORT_KASAN_WILD_ACCESS;
		return;
	}
	page = virt_to_page((void *)addr);
	if (PageSlab(compound_head(page)))
		classify_slab(b, page_slab(compound_head(page)), addr);
	else
		classify_page(b, page);
}

/* "The buggy address is located 13 bytes to the right of ..." */
static void describe(const struct kasan_bug *b, unsigned long addr)
{
	unsigned long start = (unsigned long)b->object;
	size_t len = b->freed ? b->size : b->valid;
	const char *what = b->freed ? "freed" : "allocated";

	if (!b->object) {
		pr_err("The buggy address %px belongs to no allocated object\n",
		       (void *)addr);
		return;
	}
	if (b->cachep)
		pr_err("The buggy address belongs to the object at %px\n which belongs to the cache %s of size %u\n",
		       b->object, b->cachep->name, b->cachep->object_size);
	else
		pr_err("The buggy address belongs to the %s pages at %px (%zu bytes)\n",
		       what, b->object, b->size);
	if (addr < start)
		pr_err("The buggy address is located %lu bytes to the left of\n %s %zu-byte region [%px, %px)\n",
		       start - addr, what, len, (void *)start,
		       (void *)(start + len));
	else if (addr >= start + len)
		pr_err("The buggy address is located %lu bytes to the right of\n %s %zu-byte region [%px, %px)\n",
		       addr - (start + len), what, len, (void *)start,
		       (void *)(start + len));
	else
		pr_err("The buggy address is located %lu bytes inside of\n %s %zu-byte region [%px, %px)\n",
		       addr - start, what, len, (void *)start,
		       (void *)(start + len));
}

static void print_track(const struct kasan_track *track, const char *prefix)
{
	unsigned long *entries;
	unsigned int nr = stack_depot_fetch(track->stack, &entries);

	pr_err("%s by task swapper/%u:\n", prefix, track->cpu);
	if (nr)
		stack_trace_print(entries, nr, 0);
	else
		pr_err("(stack is not available)\n");
	pr_err("\n");
}

/*
 * A slab object's tracks, those with a stack: its allocation, and its
 * free if it is free (Linux 6.1's describe_object_stacks()).
 */
static void print_tracks(const struct kasan_bug *b)
{
	struct kasan_alloc_meta *meta;
	struct kasan_track alloc, free;

	if (!b->cachep)
		return;
	meta = kasan_get_alloc_meta(b->cachep, b->object);
	if (!meta)
		return;
	kasan_read_track(&alloc, &meta->alloc_track);
	kasan_read_track(&free, &meta->free_track);
	if (!b->freed)
		free.stack = 0;
	if (alloc.stack || free.stack)
		pr_err("\n");
	if (alloc.stack)
		print_track(&alloc, "Allocated");
	if (free.stack)
		print_track(&free, "Freed");
}

static const char report_rule[] =
	"==================================================================\n";

bool kasan_report(unsigned long addr, size_t size, bool is_write,
		  unsigned long ip)
{
	struct kasan_bug b;

	classify(&b, addr);
	pr_err("%s", report_rule);
	report_kind(b.kind);
	pr_err("BUG: KASAN: %s in %pS\n", b.type, (void *)ip);
	pr_err("%s of size %zu at addr %px by task swapper/%u\n",
	       is_write ? "Write" : "Read", size, (void *)addr, arch_cpu_id());
	dump_stack();
	print_tracks(&b);
	describe(&b, addr);
	arch_kasan_print_shadow((const void *)addr);
	pr_err("%s", report_rule);
	return atomic_read(&kasan_tests_running) > 0;
}

static void report_free(const void *object, unsigned long ip,
			enum report_kind kind, const char *bug_type)
{
	struct kasan_bug b;

	classify(&b, (unsigned long)object);
	pr_err("%s", report_rule);
	report_kind(kind);
	pr_err("BUG: KASAN: %s in %pS\n", bug_type, (void *)ip);
	pr_err("Free of addr %px by task swapper/%u\n", object, arch_cpu_id());
	dump_stack();
	print_tracks(&b);
	describe(&b, (unsigned long)object);
	arch_kasan_print_shadow(object);
	pr_err("%s", report_rule);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * KFENCE: a sampling detector of out-of-bounds accesses, use-after-free
 * and invalid frees, cheap enough to stay on (Linux's mm/kfence/).
 *
 * 1. The pool. KFENCE_POOL_SIZE bytes at a fixed address of the arch's
 *    (asm/kfence.h: where one compare of kfree's NULL test finds it),
 *    backed and mapped with 4 KiB pages at boot by
 *    arch_kfence_init_pool(). Pages 0 and 1 are guard pages; then object
 *    i has page 2 + 2i and the guard page 3 + 2i after it. Guard pages
 *    are never present; an object page is present only while its object
 *    is allocated (arch_kfence_protect_page()).
 *
 * 2. Sampling. kfence_allocation_gate is 1 (closed) but for a moment
 *    every kfence.sample_interval ms, when a timer opens it and has SLAB
 *    send every allocation to its slow path (slab_fastpath_update()); the
 *    first eligible allocation there takes the gate back (an atomic
 *    increment: only the one that finds 0 goes on), gets its object from
 *    the pool and lets the fast path back. Not eligible, and not taking
 *    the gate: more than a page, zone modifiers and DMA caches, debugged
 *    caches (slab_debug checks those) and SLAB_TYPESAFE_BY_RCU caches
 *    (a freed object must stay one of the cache's until a grace period).
 *
 * 3. An object. Alone on its page, at the page's start or, aligned down
 *    to the cache's alignment, at its end (chosen at random); the rest of
 *    the page holds KFENCE_CANARY_PATTERN, checked at free. Its metadata
 *    keeps the size, the cache's name (the cache may be gone when the
 *    report prints) and the allocation's and the free's stack, CPU and
 *    time. A freed object's page is made not present and the slot goes to
 *    the tail of the free list, so that the longest-freed slot is reused
 *    first and use-after-free stays visible for as long as possible.
 *
 * 4. Faults. On a guard page: out-of-bounds, charged to the nearer of
 *    the allocated neighbours; on a freed object's page: use-after-free.
 *    The report prints, the page is made present and the access goes on;
 *    it stays present (a one-shot report) until the slot's next
 *    allocation protects it and its guards again. Another CPU may keep
 *    a stale translation of a page made not present meanwhile (only the
 *    local TLB is flushed, as in Linux) and miss a bug.
 *
 * 5. Locking. kfence_lock (irqsave; faults take it with interrupts
 *    off) covers the free list and every metadata word. Nothing touches
 *    a pool page under it but the canary check, on a present page.
 *    Reports print from a copy, after the lock.
 */
#include "mm/kfence.h"
#include "arch/arch.h"
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/kallsyms.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/report.h"
#include "kernel/shell.h"
#include "kernel/spinlock.h"
#include "kernel/stacktrace.h"
#include "kernel/time.h"
#include "lib/list.h"
#include "lib/prandom.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/slab_internal.h"

#define KFENCE_STACK_DEPTH	16
#define KFENCE_CACHE_NAME	32
#define KFENCE_CANARY_PATTERN(addr)	((u8)0xaa ^ (u8)((addr) & 0x7))
#define KFENCE_DEFAULT_INTERVAL	100	/* ms */

enum kfence_object_state {
	KFENCE_OBJECT_UNUSED,
	KFENCE_OBJECT_ALLOCATED,
	KFENCE_OBJECT_FREED,
};

struct kfence_track {
	unsigned int cpu;
	u64 ts_nsec;
	unsigned int nr_entries;
	unsigned long entries[KFENCE_STACK_DEPTH];
};

struct kfence_metadata {
	struct list_head list;		/* on kfence_freelist if not allocated */
	unsigned int index;		/* kfence-#index */
	enum kfence_object_state state;
	unsigned long addr;		/* the object's first byte */
	size_t size;			/* as asked for */
	char cache[KFENCE_CACHE_NAME];
	struct kfence_track alloc_track;
	struct kfence_track free_track;
};

enum kfence_error {
	KFENCE_ERROR_OOB,
	KFENCE_ERROR_UAF,
	KFENCE_ERROR_CORRUPTION,
	KFENCE_ERROR_INVALID,
	KFENCE_ERROR_INVALID_FREE,
};

char *__kfence_pool;
atomic_t kfence_allocation_gate = ATOMIC_INIT(1);

static struct kfence_metadata kfence_metadata[KFENCE_NUM_OBJECTS];
static LIST_HEAD(kfence_freelist);
static DEFINE_SPINLOCK(kfence_lock);
static atomic_long_t counters[KFENCE_COUNTER_COUNT];
static unsigned long kfence_sample_interval = KFENCE_DEFAULT_INTERVAL;
static struct timer_list kfence_timer;
static bool kfence_timer_ready;
static u64 kfence_rand_state;

static int kfence_sample_interval_setup(char *val)
{
	unsigned long ms;

	if (!val || kstrtoul(val, 0, &ms))
		return -EINVAL;
	kfence_sample_interval = ms;
	return 0;
}
kernel_param("kfence.sample_interval", kfence_sample_interval_setup);

long kfence_counter(enum kfence_counter counter)
{
	if (WARN_ON(counter >= KFENCE_COUNTER_COUNT))
		return 0;
	return atomic_long_read(&counters[counter]);
}

static void counter_add(enum kfence_counter counter, long delta)
{
	atomic_long_add(delta, &counters[counter]);
}

/* --- the pool's layout ------------------------------------------------ */

static unsigned long metadata_page(const struct kfence_metadata *meta)
{
	return (unsigned long)__kfence_pool +
	       ((unsigned long)(meta - kfence_metadata) + 1) * 2 * PAGE_SIZE;
}

/* The metadata of the object page at pool page index n (even, >= 2). */
static struct kfence_metadata *page_metadata(unsigned long n)
{
	if (n < 2 || n % 2 || n / 2 - 1 >= KFENCE_NUM_OBJECTS)
		return NULL;
	return &kfence_metadata[n / 2 - 1];
}

static unsigned long pool_page_index(unsigned long addr)
{
	return (addr - (unsigned long)__kfence_pool) / PAGE_SIZE;
}

/* The object whose page holds addr, if that page is an object page. */
static struct kfence_metadata *addr_to_metadata(unsigned long addr)
{
	if (!is_kfence_address((void *)addr))
		return NULL;
	return page_metadata(pool_page_index(addr));
}

static void kfence_protect(unsigned long page, bool protect)
{
	arch_kfence_protect_page(page, protect);
}

static void kfence_protect_guards(unsigned long page)
{
	kfence_protect(page - PAGE_SIZE, true);
	kfence_protect(page + PAGE_SIZE, true);
}

/* --- stacks ----------------------------------------------------------- */

/* Return addresses up the frame-pointer chain from bp, after entries[0..n). */
static unsigned int save_stack(unsigned long *entries, unsigned int n,
			       unsigned long bp)
{
	return n + stack_trace_save_bp(bp, entries + n, KFENCE_STACK_DEPTH - n,
				       0);
}

/* The allocator's own functions, left off the top of a stack. */
static bool allocator_function(unsigned long addr)
{
	static const char *const prefixes[] = {
		"kfence", "__kfence", "slab_", "kmem_cache_", "kmalloc",
		"__kmalloc", "kzalloc", "kfree", "__kfree", "krealloc",
		"kcalloc", "kmalloc_array",
	};
	const char *name = kallsyms_lookup(addr, NULL, NULL);

	if (!name)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++) {
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	}
	return false;
}

/* Entries from the first frame outside the allocator. */
static unsigned int skip_allocator(const unsigned long *entries,
				   unsigned int n)
{
	unsigned int skip = 0;

	while (skip < n && allocator_function(entries[skip] - 1))
		skip++;
	return skip < n ? skip : 0;
}

static __noinline void save_track(struct kfence_track *track)
{
	unsigned long entries[KFENCE_STACK_DEPTH];
	unsigned int n, skip;

	n = save_stack(entries, 0, (unsigned long)__builtin_frame_address(0));
	skip = skip_allocator(entries, n);
	track->nr_entries = n - skip;
	memcpy(track->entries, entries + skip,
	       track->nr_entries * sizeof(entries[0]));
	track->cpu = arch_cpu_id();
	track->ts_nsec = arch_clock_ns();
}

static void print_stack(const unsigned long *entries, unsigned int n)
{
	stack_trace_print(entries, n, 0);
}

/* --- reports ---------------------------------------------------------- */

static void print_track(const char *what, const struct kfence_track *track)
{
	pr_err("%s by task 0 on cpu %u at %lu.%06lus:\n", what, track->cpu,
	       (unsigned long)(track->ts_nsec / 1000000000),
	       (unsigned long)(track->ts_nsec % 1000000000 / 1000));
	print_stack(track->entries, track->nr_entries);
}

static void print_object(const struct kfence_metadata *meta)
{
	pr_err("kfence-#%u: 0x%016lx-0x%016lx, size=%zu, cache=%s\n",
	       meta->index, meta->addr,
	       meta->addr + meta->size - 1, meta->size, meta->cache);
	pr_err("\n");
	print_track("allocated", &meta->alloc_track);
	if (meta->state == KFENCE_OBJECT_FREED) {
		pr_err("\n");
		print_track("freed", &meta->free_track);
	}
}

static const enum report_kind kfence_report_kinds[] = {
	[KFENCE_ERROR_OOB]		= REPORT_KFENCE_OOB,
	[KFENCE_ERROR_UAF]		= REPORT_KFENCE_UAF,
	[KFENCE_ERROR_CORRUPTION]	= REPORT_KFENCE_CORRUPTION,
	[KFENCE_ERROR_INVALID]		= REPORT_KFENCE_INVALID,
	[KFENCE_ERROR_INVALID_FREE]	= REPORT_KFENCE_INVALID_FREE,
};

/* "out-of-bounds read", "invalid free"...: the title's words. */
static const char *error_title(enum kfence_error type, bool is_write)
{
	switch (type) {
	case KFENCE_ERROR_OOB:
		return is_write ? "out-of-bounds write" : "out-of-bounds read";
	case KFENCE_ERROR_UAF:
		return is_write ? "use-after-free write" : "use-after-free read";
	case KFENCE_ERROR_CORRUPTION:
		return "memory corruption";
	case KFENCE_ERROR_INVALID:
		return is_write ? "invalid write" : "invalid read";
	case KFENCE_ERROR_INVALID_FREE:
		return "invalid free";
	}
	return "unknown";
}

/* The bytes of the canary that differ, as Linux prints them. */
static void print_corruption(const struct kfence_metadata *meta,
			     unsigned long addr, char *buf, size_t size)
{
	unsigned long end = addr < meta->addr ? meta->addr :
			    ALIGN_DOWN(addr, PAGE_SIZE) + PAGE_SIZE;
	size_t len = 0;

	len += scnprintf(buf + len, size - len, "[");
	for (unsigned long a = addr; a < end && a < addr + 16; a++) {
		u8 byte = *(u8 *)a;

		if (byte == KFENCE_CANARY_PATTERN(a))
			len += scnprintf(buf + len, size - len, " .");
		else
			len += scnprintf(buf + len, size - len, " 0x%02x", byte);
	}
	scnprintf(buf + len, size - len, " ]");
}

/*
 * Print one report; meta a copy (or NULL if no object is involved).
 * entries[0..n) is the stack of the bad access or free.
 */
static void kfence_report_error(unsigned long addr, bool is_write,
				const unsigned long *entries, unsigned int n,
				const struct kfence_metadata *meta,
				enum kfence_error type, const char *extra)
{
	unsigned int index = meta ? meta->index : 0;
	const char *title = error_title(type, is_write);

	report_kind(kfence_report_kinds[type]);
	counter_add(KFENCE_COUNTER_BUGS, 1);
	pr_err("==================================================================\n");
	pr_err("BUG: KFENCE: %s in %pS\n", title,
	       (void *)(n ? entries[0] : 0));
	pr_err("\n");
	switch (type) {
	case KFENCE_ERROR_OOB: {
		bool left = addr < meta->addr;
		unsigned long dist = left ? meta->addr - addr :
				     addr - (meta->addr + meta->size) + 1;

		pr_err("Out-of-bounds %s at 0x%016lx (%luB %s of kfence-#%u):\n",
		       is_write ? "write" : "read", addr, dist,
		       left ? "left" : "right", index);
		break;
	}
	case KFENCE_ERROR_UAF:
		pr_err("Use-after-free %s at 0x%016lx (in kfence-#%u):\n",
		       is_write ? "write" : "read", addr, index);
		break;
	case KFENCE_ERROR_CORRUPTION:
		pr_err("Corrupted memory at 0x%016lx %s (in kfence-#%u):\n",
		       addr, extra, index);
		break;
	case KFENCE_ERROR_INVALID:
		pr_err("Invalid %s at 0x%016lx:\n",
		       is_write ? "write" : "read", addr);
		break;
	case KFENCE_ERROR_INVALID_FREE:
		if (meta)
			pr_err("Invalid free of 0x%016lx (in kfence-#%u):\n",
			       addr, index);
		else
			pr_err("Invalid free of 0x%016lx:\n", addr);
		break;
	}
	print_stack(entries, n);
	if (meta) {
		pr_err("\n");
		print_object(meta);
	}
	pr_err("\n");
	pr_err("CPU: %u PID: 0 Comm: swapper/%u\n", arch_cpu_id(),
	       arch_cpu_id());
	pr_err("==================================================================\n");
}

/* A report about a free (invalid free, corruption): this stack. */
static __noinline void report_at_free(unsigned long addr,
				    const struct kfence_metadata *meta,
				    enum kfence_error type, const char *extra)
{
	unsigned long entries[KFENCE_STACK_DEPTH];
	unsigned int n, skip;

	n = save_stack(entries, 0, (unsigned long)__builtin_frame_address(0));
	skip = skip_allocator(entries, n);
	kfence_report_error(addr, false, entries + skip, n - skip, meta, type,
			    extra);
}

/* --- allocation and free ---------------------------------------------- */

static bool kfence_eligible(struct kmem_cache *cachep, size_t size,
			    gfp_t flags)
{
	return size && size <= PAGE_SIZE && !(flags & GFP_ZONEMASK) &&
	       !(cachep->flags & (SLAB_CACHE_DMA | SLAB_TYPESAFE_BY_RCU)) &&
	       !cache_debug(cachep);
}

/* Fill the object's page but the object with the canary. */
static void canary_fill(unsigned long page, unsigned long addr, size_t size)
{
	for (unsigned long a = page; a < addr; a++)
		*(u8 *)a = KFENCE_CANARY_PATTERN(a);
	for (unsigned long a = addr + size; a < page + PAGE_SIZE; a++)
		*(u8 *)a = KFENCE_CANARY_PATTERN(a);
}

/* The first canary byte written over, or 0. */
static unsigned long canary_check(const struct kfence_metadata *meta)
{
	unsigned long page = ALIGN_DOWN(meta->addr, PAGE_SIZE);

	for (unsigned long a = page; a < meta->addr; a++) {
		if (*(u8 *)a != KFENCE_CANARY_PATTERN(a))
			return a;
	}
	for (unsigned long a = meta->addr + meta->size; a < page + PAGE_SIZE;
	     a++) {
		if (*(u8 *)a != KFENCE_CANARY_PATTERN(a))
			return a;
	}
	return 0;
}

/* Where the object goes on its page: the start or the (aligned) end. */
static unsigned long object_placement(struct kmem_cache *cachep,
				      unsigned long page, size_t size)
{
	unsigned long align = max_t(unsigned int, cachep->align, sizeof(void *));

	if (prandom_u64(&kfence_rand_state) & 1)
		return page;
	return ALIGN_DOWN(page + PAGE_SIZE - size, align);
}

static struct kfence_metadata *take_free_slot(void)
{
	struct kfence_metadata *meta;

	if (list_empty(&kfence_freelist))
		return NULL;
	meta = list_first_entry(&kfence_freelist, struct kfence_metadata,
				list);
	list_del(&meta->list);
	return meta;
}

static void *kfence_guarded_alloc(struct kmem_cache *cachep, size_t size,
				  gfp_t flags)
{
	struct kfence_metadata *meta;
	unsigned long irqflags, page, addr;

	spin_lock_irqsave(&kfence_lock, irqflags);
	meta = take_free_slot();
	if (!meta) {
		spin_unlock_irqrestore(&kfence_lock, irqflags);
		counter_add(KFENCE_COUNTER_SKIP_CAPACITY, 1);
		return NULL;
	}
	BUG_ON(meta->state == KFENCE_OBJECT_ALLOCATED);
	page = metadata_page(meta);
	addr = object_placement(cachep, page, size);
	kfence_protect(page, false);
	kfence_protect_guards(page);
	canary_fill(page, addr, size);
	meta->addr = addr;
	meta->size = size;
	strscpy(meta->cache, cachep->name, sizeof(meta->cache));
	save_track(&meta->alloc_track);
	meta->state = KFENCE_OBJECT_ALLOCATED;
	spin_unlock_irqrestore(&kfence_lock, irqflags);

	counter_add(KFENCE_COUNTER_ALLOCATED, 1);
	counter_add(KFENCE_COUNTER_ALLOCS, 1);
	if (flags & __GFP_ZERO)
		memset((void *)addr, 0, size);
	else if (cachep->ctor)
		cachep->ctor((void *)addr);
	return (void *)addr;
}

/* Close the gate and let SLAB's fast path back. */
static void kfence_close_gate(void)
{
	slab_fastpath_update();
}

void *kfence_alloc(struct kmem_cache *cachep, size_t size, gfp_t flags)
{
	void *objp;

	if (!__kfence_pool)
		return NULL;
	if (!size)
		size = cachep->object_size;
	if (!kfence_eligible(cachep, size, flags)) {
		counter_add(KFENCE_COUNTER_SKIP_INCOMPAT, 1);
		return NULL;
	}
	if (atomic_add_return(1, &kfence_allocation_gate) > 1)
		return NULL;		/* another CPU took this sample */
	objp = kfence_guarded_alloc(cachep, size, flags);
	kfence_close_gate();
	return objp;
}

size_t kfence_ksize(const void *addr)
{
	struct kfence_metadata *meta = addr_to_metadata((unsigned long)addr);

	return meta ? READ_ONCE(meta->size) : 0;
}

void kfence_free(const void *objp)
{
	unsigned long addr = (unsigned long)objp, irqflags, bad;
	struct kfence_metadata *meta = addr_to_metadata(addr);
	struct kfence_metadata copy;
	char bytes[96];

	if (!meta) {		/* a guard page */
		report_at_free(addr, NULL, KFENCE_ERROR_INVALID_FREE, NULL);
		return;
	}
	spin_lock_irqsave(&kfence_lock, irqflags);
	if (meta->state != KFENCE_OBJECT_ALLOCATED || meta->addr != addr) {
		copy = *meta;
		spin_unlock_irqrestore(&kfence_lock, irqflags);
		report_at_free(addr, &copy, KFENCE_ERROR_INVALID_FREE, NULL);
		return;
	}
	bad = canary_check(meta);
	if (bad) {
		print_corruption(meta, bad, bytes, sizeof(bytes));
		copy = *meta;
	}
	save_track(&meta->free_track);
	meta->state = KFENCE_OBJECT_FREED;
	kfence_protect(ALIGN_DOWN(addr, PAGE_SIZE), true);
	list_add_tail(&meta->list, &kfence_freelist);
	spin_unlock_irqrestore(&kfence_lock, irqflags);

	counter_add(KFENCE_COUNTER_ALLOCATED, -1);
	counter_add(KFENCE_COUNTER_FREES, 1);
	if (bad)
		report_at_free(bad, &copy, KFENCE_ERROR_CORRUPTION, bytes);
}

/* --- faults ----------------------------------------------------------- */

/*
 * The object an access to guard page n (pool page index) overran: the
 * allocated neighbour nearer to addr (left of the guard page: its end;
 * right: its start), or the nearer one if none is allocated.
 */
static struct kfence_metadata *guard_owner(unsigned long n,
					   unsigned long addr)
{
	struct kfence_metadata *left = page_metadata(n - 1);
	struct kfence_metadata *right = page_metadata(n + 1);
	unsigned long dl, dr;

	if (!left || left->state != KFENCE_OBJECT_ALLOCATED)
		return right && (right->state == KFENCE_OBJECT_ALLOCATED ||
				 !left) ? right : left;
	if (!right || right->state != KFENCE_OBJECT_ALLOCATED)
		return left;
	dl = addr - (left->addr + left->size);
	dr = right->addr - addr;
	return dl <= dr ? left : right;
}

bool kfence_handle_page_fault(unsigned long addr, bool is_write,
			      unsigned long ip, unsigned long bp)
{
	unsigned long entries[KFENCE_STACK_DEPTH], irqflags, n;
	struct kfence_metadata *meta, copy;
	enum kfence_error type;
	unsigned int nr;

	if (!is_kfence_address((void *)addr))
		return false;
	n = pool_page_index(addr);
	spin_lock_irqsave(&kfence_lock, irqflags);
	meta = page_metadata(n);
	if (!meta) {
		meta = guard_owner(n, addr);
		type = KFENCE_ERROR_OOB;
	} else {
		type = meta->state == KFENCE_OBJECT_FREED ? KFENCE_ERROR_UAF :
							   KFENCE_ERROR_INVALID;
	}
	if (meta)
		copy = *meta;
	kfence_protect(ALIGN_DOWN(addr, PAGE_SIZE), false);
	spin_unlock_irqrestore(&kfence_lock, irqflags);

	entries[0] = ip;
	nr = save_stack(entries, 1, bp);
	if (type == KFENCE_ERROR_OOB && (!meta || copy.state == KFENCE_OBJECT_UNUSED))
		type = KFENCE_ERROR_INVALID;
	kfence_report_error(addr, is_write, entries, nr,
			    type == KFENCE_ERROR_INVALID ? NULL : &copy, type,
			    NULL);
	return true;
}

/* --- boot, sampling, the shell ----------------------------------------- */

void kfence_alloc_pool(void)
{
	if (!kfence_sample_interval)
		return;
	if (!arch_kfence_init_pool(KFENCE_POOL_START, KFENCE_POOL_SIZE)) {
		pr_warn("kfence: the pool cannot be mapped at 0x%lx, disabled\n",
			KFENCE_POOL_START);
		return;
	}
	__kfence_pool = (char *)KFENCE_POOL_START;
}

/* Open the gate: the next eligible allocation is sampled. */
void kfence_force_sample(void)
{
	if (!__kfence_pool)
		return;
	atomic_set(&kfence_allocation_gate, 0);
	slab_fastpath_update();
}

static void toggle_allocation_gate(struct timer_list *timer)
{
	unsigned long ms = READ_ONCE(kfence_sample_interval);

	if (!ms)
		return;
	if (!kfence_sample_due())
		kfence_force_sample();
	mod_timer(timer, jiffies + max(msecs_to_jiffies(ms), 1UL));
}

unsigned long kfence_sample_interval_get(void)
{
	return READ_ONCE(kfence_sample_interval);
}

void kfence_sample_interval_set(unsigned long ms)
{
	WRITE_ONCE(kfence_sample_interval, ms);
	if (!kfence_timer_ready)
		return;
	if (ms) {
		mod_timer(&kfence_timer, jiffies + max(msecs_to_jiffies(ms), 1UL));
		return;
	}
	del_timer_sync(&kfence_timer);
	atomic_set(&kfence_allocation_gate, 1);	/* a sample due: withdrawn */
	slab_fastpath_update();
}

void kfence_init(void)
{
	if (!__kfence_pool)
		return;
	prandom_seed(&kfence_rand_state, arch_cycles());
	for (unsigned int i = 0; i < KFENCE_NUM_OBJECTS; i++) {
		kfence_metadata[i].index = i;
		kfence_metadata[i].state = KFENCE_OBJECT_UNUSED;
		list_add_tail(&kfence_metadata[i].list, &kfence_freelist);
	}
	/* Nothing is present until it is allocated. */
	for (unsigned long off = 0; off < KFENCE_POOL_SIZE; off += PAGE_SIZE)
		kfence_protect((unsigned long)__kfence_pool + off, true);
	timer_setup(&kfence_timer, toggle_allocation_gate, 0);
	kfence_timer_ready = true;
	kfence_sample_interval_set(kfence_sample_interval);
	pr_info("kfence: initialized - using %lu bytes for %d objects at 0x%p-0x%p\n",
		KFENCE_POOL_SIZE, KFENCE_NUM_OBJECTS, __kfence_pool,
		__kfence_pool + KFENCE_POOL_SIZE);
}

static int kfence_stats(int argc, char **argv)
{
	static const char *const names[KFENCE_COUNTER_COUNT] = {
		[KFENCE_COUNTER_ALLOCATED]	= "currently allocated",
		[KFENCE_COUNTER_ALLOCS]		= "total allocations",
		[KFENCE_COUNTER_FREES]		= "total frees",
		[KFENCE_COUNTER_ZOMBIES]	= "zombie allocations",
		[KFENCE_COUNTER_BUGS]		= "total bugs",
		[KFENCE_COUNTER_SKIP_INCOMPAT]	= "skipped allocations (incompatible)",
		[KFENCE_COUNTER_SKIP_CAPACITY]	= "skipped allocations (capacity)",
	};

	(void)argc;
	(void)argv;
	pr_info("enabled: %d\n", __kfence_pool && kfence_sample_interval_get());
	for (int i = 0; i < KFENCE_COUNTER_COUNT; i++)
		pr_info("%s: %ld\n", names[i], kfence_counter(i));
	return 0;
}
SHELL_CMD("kfence", kfence_stats,
	  "KFENCE's counters (/sys/kernel/debug/kfence/stats)");

// SPDX-License-Identifier: GPL-2.0
/*
 * The allocator fuzz target: fuzz_one_input() (fuzz/fuzz.h).
 *
 * An input is a program for a small machine: 64 slots, each empty or
 * holding one allocation (a kmalloc object, an object of one of 4
 * private caches, a block of pages, a split block, an exact-size page
 * run, a vmalloc or kvmalloc area), and the 4 private cache slots. Every allocation is filled with a
 * pattern derived from a seed unique to it (slot and a generation count)
 * and verified before it is freed, reallocated or checked, so objects
 * that overlap, move, or get written by the allocator are caught.
 * Objects of a cache with a constructor must be handed out constructed;
 * the fuzzer checks the constructor's pattern on every allocation and
 * writes it back before freeing (a freed object stays constructed).
 * Besides contents, each allocation is checked against the API: zeroed
 * when asked, the alignment promised, the zone asked for, the right
 * kmalloc cache, compound structure, ksize(); private caches' object
 * counters must match the objects the fuzzer holds after every
 * operation. Any "BUG:" or "WARNING:" line the kernel prints meanwhile
 * is a finding too (the printk hook sees it).
 *
 * At the end everything is freed, the caches destroyed, and pages and
 * slab objects in use must be what they were before: both sides are
 * measured after shrinking the kmalloc caches and the cache of caches
 * and draining the per-CPU page lists.
 *
 * Input format. Bytes are read in order; a read past the end gives 0,
 * and the input ends when no byte is left for the next operation. An
 * operation is one byte: bits 0-4 select it through op_table[], bits
 * 5-7 are its variant v. Then its arguments, one byte each except
 * size (class byte, then 16-bit little-endian value; decode_size()):
 *
 *   KMALLOC     slot size gfp        v&1: kmalloc_node
 *   KZALLOC     slot size gfp [n]    v<4 kzalloc, v 4-6 kcalloc(n+1, ..),
 *                                    v 7 kmalloc_array overflow (NULL)
 *   KREALLOC    slot size gfp        v 7: new size 0; empty slot: NULL
 *   FREE        slot                 v 7 on kmalloc: kfree_sensitive
 *   CREATE      cache size align flags
 *   CACHE_ALLOC cache slot gfp       v&1: _node, v 6-7: zalloc (no ctor)
 *   BULK_ALLOC  cache slot nr gfp    into the next free slots from slot;
 *                                    v&1: __GFP_ZERO (no ctor)
 *   BULK_FREE   cache slot nr        live objects from slot on
 *   SHRINK      which                bit 7: a kmalloc cache, else private
 *   DESTROY     cache                frees its objects first; v 7 with
 *                                    live objects: must be refused
 *   PAGES       slot order gfp       order%6, +8 __GFP_COMP, +16 ZERO,
 *                                    0xf8: MAX_ORDER-1, 0xf9: MAX_ORDER;
 *                                    v 5 _node, 6 __get_free_pages,
 *                                    7 get_zeroed_page
 *   EXACT       slot size16 gfp      alloc_pages_exact, v&2: zeroed
 *   SPLIT       slot                 split_page, or free the upper half
 *                                    of a split block
 *   CHECK       slot                 verify now; v 7: every slot
 *   STORM       cache size n gfp     n+1 objects allocated, then freed
 *                                    (op_storm(); v&1: private cache)
 *   DRAIN       -                    drain_all_pages; v 7: shrink all
 *   HOG         slack                take free memory down to the min
 *                                    watermarks + slack/8*32 pages (v 1:
 *                                    all, v 2: the reserve too); v 4-7
 *                                    give it back
 *
 * An allocation into a used slot frees what is there first. Every
 * allocation passes __GFP_NOWARN: failing is allowed, never a finding.
 */
#include "kernel/bug.h"
#include "fuzz/fuzz.h"
#include "kernel/printk.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/internal.h"	/* white-box: the zones' watermarks */
#include "mm/kasan.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"	/* white-box: inside caches and slabs */
#include "mm/vmalloc.h"
#include "arch/arch.h"
#include "kernel/cpumask.h"

#define NR_SLOTS		64
#define NR_CACHES		4
#define MAX_BULK		32
#define MAX_STORM		256
#define STORM_BYTES		(512 * SZ_1K)
#define MAX_OPS_PER_INPUT	100000
#define MAX_PAGE_ORDER		5
#define LINE_SAVED		160

enum fuzz_op {
	OP_KMALLOC, OP_KZALLOC, OP_KREALLOC, OP_FREE, OP_CREATE,
	OP_CACHE_ALLOC, OP_BULK_ALLOC, OP_BULK_FREE, OP_SHRINK, OP_DESTROY,
	OP_PAGES, OP_EXACT, OP_SPLIT, OP_CHECK, OP_DRAIN, OP_HOG, OP_STORM,
	OP_VMALLOC,
};

/* Weights: allocating and freeing dominate. */
static const u8 op_table[32] = {
	OP_KMALLOC, OP_KMALLOC, OP_KMALLOC, OP_KMALLOC,
	OP_KZALLOC, OP_KREALLOC, OP_KREALLOC, OP_FREE,
	OP_FREE, OP_FREE, OP_FREE, OP_STORM,
	OP_CREATE, OP_CACHE_ALLOC, OP_CACHE_ALLOC, OP_CACHE_ALLOC,
	OP_BULK_ALLOC, OP_BULK_FREE, OP_SHRINK, OP_DESTROY,
	OP_PAGES, OP_PAGES, OP_PAGES, OP_EXACT,
	OP_SPLIT, OP_CHECK, OP_DRAIN, OP_HOG,
	OP_KMALLOC, OP_CACHE_ALLOC, OP_PAGES, OP_VMALLOC,
};

enum slot_kind {
	SLOT_EMPTY,
	SLOT_KMALLOC,	/* ptr from kmalloc & co; size = ksize() */
	SLOT_CACHE,	/* object of caches[cache]; size = object size */
	SLOT_PAGES,	/* 2^order pages; by_addr: free_pages() */
	SLOT_SPLIT,	/* split_page()d block: 2^order single pages */
	SLOT_EXACT,	/* alloc_pages_exact(size) */
	SLOT_VMALLOC,	/* vmalloc(size) */
	SLOT_KVMALLOC,	/* kvmalloc(size) */
};

struct fuzz_slot {
	u8 kind;
	u8 cache;
	u8 order;
	bool by_addr;
	void *ptr;
	size_t size;	/* bytes holding the pattern */
	u32 seed;
};

struct fuzz_cache {
	struct kmem_cache *cachep;
	unsigned int size;
	unsigned int align;
	slab_flags_t flags;
	bool ctor;
	u32 ctor_seed;
	unsigned int live;	/* its objects in slots */
};

/* A block the hog holds; it lives at the start of the block itself. */
struct hog_block {
	struct hog_block *next;
	unsigned int order;
	u32 seed;
};

struct fuzz_state {
	const u8 *data;
	size_t len, pos;
	size_t op_start;	/* offset of the current operation */
	unsigned long nr_ops;
	u32 gen;
	bool failed;
	/* Lines seen by the printk hook while the input runs. */
	unsigned int reports;		/* "BUG:" or "WARNING:" */
	unsigned int refusals;		/* kmem_cache_destroy: live objects */
	char first_report[LINE_SAVED];
	struct fuzz_slot slots[NR_SLOTS];
	struct fuzz_cache caches[NR_CACHES];
	struct hog_block *hog;
};

struct fuzz_usage {
	long pages;
	long objects;
};

static struct fuzz_state fuzz;
unsigned long fuzz_nr_ops;

static const char *const cache_names[NR_CACHES] = {
	"fuzz-0", "fuzz-1", "fuzz-2", "fuzz-3",
};

/* --- reporting -------------------------------------------------------- */

static bool fuzz_bug(struct fuzz_state *s, const char *fmt, ...) __printf(2, 3);

/* Report a finding; the input stops here. Returns false for "if (!...)". */
static bool fuzz_bug(struct fuzz_state *s, const char *fmt, ...)
{
	char msg[256];
	va_list args;

	va_start(args, fmt);
	vscnprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	pr_err("fuzz: BUG: %s (operation %lu, input byte %zu)\n", msg,
	       s->nr_ops, s->op_start);
	s->failed = true;
	return false;
}

#define fuzz_check(s, cond, fmt, ...)					\
	(likely(cond) ? true : fuzz_bug(s, fmt, ##__VA_ARGS__))

static void report_hook(const char *line, size_t len, void *data)
{
	struct fuzz_state *s = data;

	if (strstr(line, "still has objects"))
		s->refusals++;
	if (strstr(line, "BUG:") || strstr(line, "WARNING:")) {
		if (!s->reports++)
			strscpy(s->first_report, line, sizeof(s->first_report));
	}
}

/* --- patterns ----------------------------------------------------------- */

/* Word w of the pattern for seed: a hash, so no two offsets agree. */
static u64 pattern_word(u32 seed, unsigned long w)
{
	u64 x = ((u64)seed << 32 | seed) ^ ((u64)w * 0x9e3779b97f4a7c15ULL);

	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 32;
	return x;
}

static u8 pattern_byte(u32 seed, size_t off)
{
	return (u8)(pattern_word(seed, off / 8) >> (off % 8 * 8));
}

/* Write the pattern to p[from, to): byte i of p gets pattern_byte(i). */
static void fill(void *p, size_t from, size_t to, u32 seed)
{
	u8 *b = p;
	size_t i = from;

	if (!((unsigned long)p & 7)) {
		for (; i < to && (i & 7); i++)
			b[i] = pattern_byte(seed, i);
		for (; i + 8 <= to; i += 8)
			*(u64 *)(b + i) = pattern_word(seed, i / 8);
	}
	for (; i < to; i++)
		b[i] = pattern_byte(seed, i);
}

/* First offset in [from, to) that breaks the pattern, or to. */
static size_t mismatch(const void *p, size_t from, size_t to, u32 seed)
{
	const u8 *b = p;
	size_t i = from;

	if (!((unsigned long)p & 7)) {
		for (; i < to && (i & 7); i++) {
			if (b[i] != pattern_byte(seed, i))
				return i;
		}
		for (; i + 8 <= to; i += 8) {
			if (*(const u64 *)(b + i) != pattern_word(seed, i / 8))
				break;
		}
	}
	for (; i < to; i++) {
		if (b[i] != pattern_byte(seed, i))
			return i;
	}
	return to;
}

static bool verify(struct fuzz_state *s, const void *p, size_t from,
		   size_t to, u32 seed, const char *what, int slot)
{
	size_t off = mismatch(p, from, to, seed);

	return fuzz_check(s, off == to,
			  "corrupted %s in slot %d at %px (%zu bytes): byte %zu is %#x, expected %#x",
			  what, slot, p, to, off, ((const u8 *)p)[off],
			  pattern_byte(seed, off));
}

static bool verify_zero(struct fuzz_state *s, const void *p, size_t size,
			const char *what)
{
	const u8 *bad = memchr_inv(p, 0, size);

	return fuzz_check(s, !bad,
			  "%s at %px not zeroed: byte %zu of %zu is %#x", what,
			  p, (size_t)(bad - (const u8 *)p), size,
			  bad ? *bad : 0);
}

/* --- reading the input ------------------------------------------------ */

static u8 next_u8(struct fuzz_state *s)
{
	return s->pos < s->len ? s->data[s->pos++] : 0;
}

static u16 next_u16(struct fuzz_state *s)
{
	u16 lo = next_u8(s);

	return lo | (u16)(next_u8(s) << 8);
}

static unsigned int next_slot(struct fuzz_state *s)
{
	return next_u8(s) % NR_SLOTS;
}

/*
 * A size from a class byte c and a value v: mostly small, all kmalloc
 * cache sizes, powers of two and their neighbours, large kmallocs, and
 * rarely 0 or sizes at and beyond KMALLOC_MAX_SIZE.
 */
static size_t decode_size(u8 c, u16 v)
{
	size_t p;

	switch (c & 7) {
	case 0:
		return c >> 3 ? 1 + v % 64 : 0;
	case 1:
	case 2:
		return 1 + v % 256;
	case 3:
	case 4:
		return 1 + v % KMALLOC_MAX_CACHE_SIZE;
	case 5:
		return 1 + v % 16384;
	case 6:
		p = 1UL << (v % 15);
		return p + (c >> 3) % 3 - 1;
	default:
		if (c >> 3 == 31)
			return KMALLOC_MAX_SIZE - 2 * PAGE_SIZE + v % (4 * PAGE_SIZE);
		return KMALLOC_MAX_CACHE_SIZE + 1 + v;
	}
}

static size_t next_size(struct fuzz_state *s)
{
	u8 c = next_u8(s);

	return decode_size(c, next_u16(s));
}

/*
 * GFP flags: always __GFP_NOWARN; GFP_KERNEL or GFP_ATOMIC; 1 in 8
 * ZONE_DMA, 1 in 8 ZONE_DMA32; rarely __GFP_MEMALLOC or __GFP_NOMEMALLOC.
 */
static gfp_t decode_gfp(u8 b)
{
	gfp_t gfp = (b & 8 ? GFP_ATOMIC : GFP_KERNEL) | __GFP_NOWARN;

	if ((b & 7) == 7)
		gfp |= __GFP_DMA;
	else if ((b & 7) == 6)
		gfp |= __GFP_DMA32;
	if ((b & 0xf0) == 0xf0)
		gfp |= __GFP_MEMALLOC;
	else if ((b & 0xf0) == 0xe0)
		gfp |= __GFP_NOMEMALLOC;
	return gfp;
}

static gfp_t next_gfp(struct fuzz_state *s)
{
	return decode_gfp(next_u8(s));
}

static u32 new_seed(struct fuzz_state *s, unsigned int slot)
{
	return ++s->gen << 6 | slot;
}

/* --- constructors ------------------------------------------------------- */

static void ctor_fill(unsigned int ci, void *obj)
{
	const struct fuzz_cache *c = &fuzz.caches[ci];

	fill(obj, 0, c->size, c->ctor_seed);
}

static void fuzz_ctor0(void *obj) { ctor_fill(0, obj); }
static void fuzz_ctor1(void *obj) { ctor_fill(1, obj); }
static void fuzz_ctor2(void *obj) { ctor_fill(2, obj); }
static void fuzz_ctor3(void *obj) { ctor_fill(3, obj); }

static void (*const fuzz_ctors[NR_CACHES])(void *) = {
	fuzz_ctor0, fuzz_ctor1, fuzz_ctor2, fuzz_ctor3,
};

/* --- checks on new allocations ------------------------------------------ */

static enum zone_type zone_of(const void *p)
{
	return page_zonenum(virt_to_page(p));
}

static bool check_kmalloc(struct fuzz_state *s, const void *p, size_t size,
			  gfp_t gfp)
{
	size_t ks = ksize(p);
	struct slab *slab;
	struct page *page;

	if (!size)
		return fuzz_check(s, p == ZERO_SIZE_PTR,
				  "kmalloc(0) returned %px, not ZERO_SIZE_PTR", p);
	if (!fuzz_check(s, !ZERO_OR_NULL_PTR(p) && IS_ALIGNED((unsigned long)p, 8),
			"kmalloc(%zu) returned %px", size, p) ||
	    !fuzz_check(s, !is_power_of_2(size) ||
			   IS_ALIGNED((unsigned long)p, min(size, PAGE_SIZE)),
			"kmalloc(%zu) returned %px: not naturally aligned", size, p) ||
	    !fuzz_check(s, ks >= size, "ksize(%px) = %zu after kmalloc(%zu)",
			p, ks, size))
		return false;
	if (size <= KMALLOC_MAX_CACHE_SIZE) {
		struct kmem_cache *want = kmalloc_slab(size, gfp);

		slab = virt_to_slab(p);
		return fuzz_check(s, slab && slab->slab_cache == want,
				  "kmalloc(%zu, %#x) returned %px from cache %s, expected %s",
				  size, gfp, p, slab ? slab->slab_cache->name : "(no slab)",
				  want->name) &&
		       fuzz_check(s, ks == want->object_size,
				  "ksize(%px) = %zu in %s", p, ks, want->name) &&
		       fuzz_check(s, !(gfp & __GFP_DMA) || zone_of(p) == ZONE_DMA,
				  "kmalloc(%zu, GFP_DMA) returned %px outside ZONE_DMA",
				  size, p);
	}
	page = virt_to_page(p);
	return fuzz_check(s, PageHead(page) && page_address(page) == p &&
			     compound_order(page) == get_order(size) &&
			     ks == PAGE_SIZE << get_order(size),
			  "large kmalloc(%zu) returned %px: head %d order %u ksize %zu",
			  size, p, PageHead(page), compound_order(page), ks) &&
	       fuzz_check(s, zone_of(p) <= gfp_zone(gfp),
			  "kmalloc(%zu, %#x) returned %px in zone %d", size, gfp,
			  p, zone_of(p));
}

/* The alignment kmem_cache_create promises (Linux's rules). */
static unsigned int cache_alignment(const struct fuzz_cache *c)
{
	unsigned int align = max(c->align, 8U);

	if (c->flags & SLAB_HWCACHE_ALIGN) {
		unsigned int ralign = L1_CACHE_BYTES;

		while (c->size <= ralign / 2)
			ralign /= 2;
		align = max(align, ralign);
	}
	return align;
}

static bool check_cache_obj(struct fuzz_state *s, unsigned int ci, void *p)
{
	const struct fuzz_cache *c = &s->caches[ci];
	struct slab *slab = virt_to_slab(p);

	return fuzz_check(s, IS_ALIGNED((unsigned long)p, cache_alignment(c)),
			  "%s object %px not aligned to %u", cache_names[ci], p,
			  cache_alignment(c)) &&
	       fuzz_check(s, slab && slab->slab_cache == c->cachep,
			  "%s object %px is in cache %s", cache_names[ci], p,
			  slab ? slab->slab_cache->name : "(no slab)") &&
	       fuzz_check(s, !(c->flags & SLAB_CACHE_DMA) || zone_of(p) == ZONE_DMA,
			  "%s object %px outside ZONE_DMA", cache_names[ci], p);
}

static bool check_pages(struct fuzz_state *s, struct page *page,
			unsigned int order, gfp_t gfp)
{
	bool comp = order && (gfp & __GFP_COMP);

	if (!fuzz_check(s, IS_ALIGNED(page_to_pfn(page), 1UL << order),
			"order-%u block at pfn %#lx not naturally aligned", order,
			page_to_pfn(page)) ||
	    !fuzz_check(s, page_zonenum(page) <= gfp_zone(gfp),
			"alloc_pages(%#x) gave pfn %#lx in zone %d", gfp,
			page_to_pfn(page), page_zonenum(page)) ||
	    !fuzz_check(s, comp ? PageHead(page) && compound_order(page) == order
			       : !PageCompound(page),
			"order-%u block at pfn %#lx: compound %d head %d order %u",
			order, page_to_pfn(page), comp, PageHead(page),
			PageHead(page) ? compound_order(page) : 0))
		return false;
	for (unsigned long i = 1; comp && i < (1UL << order); i++) {
		if (!fuzz_check(s, compound_head(page + i) == page,
				"tail %lu of compound pfn %#lx points elsewhere",
				i, page_to_pfn(page)))
			return false;
	}
	return true;
}

/* --- slots ------------------------------------------------------------- */

static const char *const kind_names[] = {
	[SLOT_EMPTY] = "empty slot", [SLOT_KMALLOC] = "kmalloc object",
	[SLOT_CACHE] = "cache object", [SLOT_PAGES] = "page block",
	[SLOT_SPLIT] = "split page block", [SLOT_EXACT] = "exact page run",
	[SLOT_VMALLOC] = "vmalloc area", [SLOT_KVMALLOC] = "kvmalloc block",
};

static bool verify_slot(struct fuzz_state *s, unsigned int i)
{
	struct fuzz_slot *sl = &s->slots[i];
	struct slab *slab;

	switch (sl->kind) {
	case SLOT_KMALLOC:
		if (!fuzz_check(s, ksize(sl->ptr) == sl->size,
				"ksize(%px) changed from %zu to %zu", sl->ptr,
				sl->size, ksize(sl->ptr)))
			return false;
		break;
	case SLOT_CACHE:
		slab = virt_to_slab(sl->ptr);
		if (!fuzz_check(s, slab && slab->slab_cache == s->caches[sl->cache].cachep,
				"%s object %px no longer in its cache",
				cache_names[sl->cache], sl->ptr))
			return false;
		break;
	default:
		break;
	}
	return sl->kind == SLOT_EMPTY ||
	       verify(s, sl->ptr, 0, sl->size, sl->seed, kind_names[sl->kind], i);
}

static void free_split(struct page *page, unsigned long from, unsigned long to)
{
	for (unsigned long i = from; i < to; i++)
		__free_pages(page + i, 0);
}

/* Verify and free what slot i holds (v: variant of the freeing op). */
static bool release_slot(struct fuzz_state *s, unsigned int i, unsigned int v)
{
	struct fuzz_slot *sl = &s->slots[i];
	struct fuzz_cache *c;

	if (sl->kind == SLOT_EMPTY)
		return true;
	if (!verify_slot(s, i))
		return false;
	switch (sl->kind) {
	case SLOT_KMALLOC:
		if (v == 7)
			kfree_sensitive(sl->ptr);
		else
			kfree(sl->ptr);
		break;
	case SLOT_CACHE:
		c = &s->caches[sl->cache];
		if (c->ctor)
			fill(sl->ptr, 0, sl->size, c->ctor_seed);
		kmem_cache_free(c->cachep, sl->ptr);
		c->live--;
		break;
	case SLOT_PAGES:
		if (sl->by_addr)
			free_pages((unsigned long)sl->ptr, sl->order);
		else
			__free_pages(virt_to_page(sl->ptr), sl->order);
		break;
	case SLOT_SPLIT:
		free_split(virt_to_page(sl->ptr), 0, 1UL << sl->order);
		break;
	case SLOT_EXACT:
		free_pages_exact(sl->ptr, sl->size);
		break;
	case SLOT_VMALLOC:
		vfree(sl->ptr);
		break;
	case SLOT_KVMALLOC:
		kvfree(sl->ptr);
		break;
	}
	sl->kind = SLOT_EMPTY;
	return true;
}

static void set_slot(struct fuzz_state *s, unsigned int i, enum slot_kind kind,
		     void *ptr, size_t size)
{
	struct fuzz_slot *sl = &s->slots[i];

	sl->kind = kind;
	sl->ptr = ptr;
	sl->size = size;
	sl->by_addr = false;
	sl->order = 0;
	sl->seed = new_seed(s, i);
	fill(ptr, 0, size, sl->seed);
}

/* --- kmalloc ------------------------------------------------------------ */

static void op_kmalloc(struct fuzz_state *s, unsigned int v)
{
	unsigned int i = next_slot(s);
	size_t size = next_size(s);
	gfp_t gfp = next_gfp(s) & ~__GFP_DMA32;
	void *p;

	if (!release_slot(s, i, 0))
		return;
	p = v & 1 ? kmalloc_node(size, gfp, 0) : kmalloc(size, gfp);
	if (!p)
		return;
	if (check_kmalloc(s, p, size, gfp))
		set_slot(s, i, SLOT_KMALLOC, p, ksize(p));
}

static void op_kzalloc(struct fuzz_state *s, unsigned int v)
{
	unsigned int i = next_slot(s);
	size_t size = next_size(s);
	gfp_t gfp = next_gfp(s) & ~__GFP_DMA32;
	void *p;

	if (v == 7) {
		fuzz_check(s, !kmalloc_array(~0UL / 2, 3, gfp),
			   "kmalloc_array() with an overflowing size did not fail");
		return;
	}
	if (!release_slot(s, i, 0))
		return;
	if (v >= 4) {
		size_t n = 1 + next_u8(s), elem = max(size / n, (size_t)1);

		size = n * elem;
		p = kcalloc(n, elem, gfp);
	} else {
		p = kzalloc(size, gfp);
	}
	if (!p)
		return;
	if (check_kmalloc(s, p, size, gfp) &&
	    verify_zero(s, p, size, "kzalloc object"))
		set_slot(s, i, SLOT_KMALLOC, p, ksize(p));
}

static void op_krealloc(struct fuzz_state *s, unsigned int v)
{
	unsigned int i = next_slot(s);
	size_t size = next_size(s);
	gfp_t gfp = next_gfp(s) & ~__GFP_DMA32;
	struct fuzz_slot *sl = &s->slots[i];
	size_t old_size = 0, keep;
	void *old = NULL, *p;

	if (v == 7)
		size = 0;
	if (sl->kind == SLOT_KMALLOC) {
		if (!verify_slot(s, i))
			return;
		old = sl->ptr;
		old_size = sl->size;
	} else if (sl->kind != SLOT_EMPTY) {
		return;
	}
	p = krealloc(old, size, gfp);
	if (!p) {
		/* Failed: the old object must be untouched (checked later). */
		fuzz_check(s, size, "krealloc(%px, 0) returned NULL", old);
		return;
	}
	if (!size) {
		fuzz_check(s, p == ZERO_SIZE_PTR,
			   "krealloc(%px, 0) returned %px, not ZERO_SIZE_PTR",
			   old, p);
		sl->kind = SLOT_KMALLOC;
		sl->ptr = p;
		sl->size = 0;
		return;
	}
	if (p == old) {
		/* In place: nothing moves, ksize() already covers size. */
		if (!fuzz_check(s, ksize(p) == old_size && old_size >= size,
				"krealloc(%px, %zu) in place, but ksize() was %zu and is %zu",
				old, size, old_size, ksize(p)))
			return;
	} else if (!check_kmalloc(s, p, size, gfp)) {
		return;
	}
	/* krealloc keeps what both sizes cover; the rest is the allocator's
	 * (a red-zoned cache guards it after an in-place shrink). */
	keep = min(old_size, size);
	if (sl->kind == SLOT_EMPTY)
		sl->seed = new_seed(s, i);
	if (!verify(s, p, 0, keep, sl->seed, "krealloc'ed object (kept prefix)", i))
		return;
	sl->kind = SLOT_KMALLOC;
	sl->ptr = p;
	sl->size = ksize(p);
	fill(p, keep, sl->size, sl->seed);
}

/*
 * vmalloc (v 0-3: a size up to 64 times next_size, 4: vzalloc, checked
 * zeroed), kvmalloc (v 5-6, with the input's flags: without GFP_KERNEL's
 * it is kmalloc alone), or bad input (v 7: vmalloc(0), which must fail).
 */
static void op_vmalloc(struct fuzz_state *s, unsigned int v)
{
	unsigned int i = next_slot(s);
	size_t size = next_size(s) * (1 + (v & 3) * 21);
	gfp_t gfp = next_gfp(s) & ~(__GFP_DMA | __GFP_DMA32);
	u8 *p;

	if (!release_slot(s, i, 0))
		return;
	if (!size)
		size = 1;
	if (v < 5) {
		p = __vmalloc(size, GFP_KERNEL | __GFP_NOWARN | (v == 4 ? __GFP_ZERO : 0));
		if (!p)
			return;
		fuzz_check(s, is_vmalloc_addr(p) && vmalloc_to_page(p),
			   "vmalloc(%zu) gave %px, not mapped in the window", size, p);
		for (size_t b = 0; v == 4 && b < size && !s->failed; b += 61)
			fuzz_check(s, !p[b], "vzalloc(%zu): byte %zu is %#x", size, b, p[b]);
		set_slot(s, i, SLOT_VMALLOC, p, size);
	} else if (v < 7) {
		if (gfp & __GFP_HIGH)	/* kvmalloc may not be atomic */
			gfp = GFP_KERNEL | __GFP_NOWARN;
		p = kvmalloc(size, gfp);
		if (p)
			set_slot(s, i, SLOT_KVMALLOC, p, size);
	} else {
		fuzz_check(s, !__vmalloc(0, GFP_KERNEL | __GFP_NOWARN),
			   "vmalloc(0) did not fail");
	}
}

static void op_free(struct fuzz_state *s, unsigned int v)
{
	release_slot(s, next_slot(s), v);
}

/* --- private caches ------------------------------------------------------ */

/* Objects handed out and not freed (KASAN's quarantined ones were). */
static long cache_in_use(struct kmem_cache *cachep)
{
	long in_use = -(long)kasan_quarantine_cache_objects(cachep);
	struct kmem_cache_node *n;
	unsigned int cpu;
	int nid;

	for_each_kmem_cache_node(cachep, nid, n) {
		in_use += (long)(n->total_slabs * cachep->num - n->free_objects);
		if (n->shared)
			in_use -= n->shared->avail;
		for (int home = 0; home < MAX_NUMNODES; home++)
			if (n->alien[home])
				in_use -= n->alien[home]->ac.avail;
	}
	for_each_possible_cpu(cpu)
		in_use -= cachep->cpu_cache[cpu]->avail;
	return in_use;
}

static bool create_args_valid(size_t size, unsigned int align,
			      slab_flags_t flags)
{
	const slab_flags_t known = SLAB_HWCACHE_ALIGN | SLAB_CACHE_DMA |
				   SLAB_TYPESAFE_BY_RCU;

	return size && size <= KMALLOC_MAX_SIZE &&
	       !(align & (align - 1)) && align <= PAGE_SIZE && !(flags & ~known);
}

static void op_create(struct fuzz_state *s, unsigned int v)
{
	unsigned int ci = next_u8(s) % NR_CACHES;
	size_t size = next_size(s);
	u8 a = next_u8(s), f = next_u8(s);
	struct fuzz_cache *c = &s->caches[ci];
	unsigned int align = (a & 15) < 6 ? 0 : 1U << ((a & 15) - 6);
	slab_flags_t flags = 0;
	int level = console_loglevel;
	bool valid;

	if (c->cachep)
		return;
	if (a >> 4 == 15)
		align = 2 * PAGE_SIZE;		/* invalid: above PAGE_SIZE */
	else if (a >> 4 == 14)
		align = 24;			/* invalid: not a power of 2 */
	else if (a >> 4 == 13)
		align = PAGE_SIZE;
	if (f & 1)
		flags |= SLAB_HWCACHE_ALIGN;
	if ((f & 6) == 6)
		flags |= SLAB_CACHE_DMA;
	if (f & 8)
		flags |= SLAB_TYPESAFE_BY_RCU;
	if ((f & 0xe0) == 0xe0)
		flags |= 0x1;			/* invalid: unknown flag */
	valid = create_args_valid(size, align, flags);
	c->size = (unsigned int)min(size, (size_t)KMALLOC_MAX_SIZE + 1);
	c->align = align;
	c->flags = flags;
	c->ctor = f & 16;
	c->ctor_seed = 0x80000000u | new_seed(s, ci);
	c->live = 0;
	/* A failure is reported with pr_warn; expected here, not shown. */
	console_loglevel = min(level, LOGLEVEL_WARNING);
	c->cachep = kmem_cache_create(cache_names[ci], (unsigned int)size,
				      align, flags, c->ctor ? fuzz_ctors[ci] : NULL);
	console_loglevel = level;
	if (c->cachep &&
	    fuzz_check(s, valid,
		       "kmem_cache_create(size %zu, align %u, flags %#x) accepted invalid arguments",
		       size, align, flags))
		fuzz_check(s, kmem_cache_size(c->cachep) == size,
			   "kmem_cache_size(%s) = %u, created with %zu",
			   cache_names[ci], kmem_cache_size(c->cachep), size);
}

/* A new object of cache ci for slot i: checks, then the slot's pattern. */
static bool take_cache_obj(struct fuzz_state *s, unsigned int ci,
			   unsigned int i, void *p, bool zeroed)
{
	struct fuzz_cache *c = &s->caches[ci];

	c->live++;		/* counted even if a check fails */
	if (!check_cache_obj(s, ci, p))
		return false;
	if (zeroed && !verify_zero(s, p, c->size, "kmem_cache_zalloc object"))
		return false;
	if (!zeroed && c->ctor &&
	    !verify(s, p, 0, c->size, c->ctor_seed, "constructed object", i))
		return false;
	set_slot(s, i, SLOT_CACHE, p, c->size);
	s->slots[i].cache = (u8)ci;
	return true;
}

static gfp_t cache_gfp(struct fuzz_state *s)
{
	return next_gfp(s) & ~GFP_ZONEMASK;
}

static void op_cache_alloc(struct fuzz_state *s, unsigned int v)
{
	unsigned int ci = next_u8(s) % NR_CACHES, i = next_slot(s);
	gfp_t gfp = cache_gfp(s);
	struct fuzz_cache *c = &s->caches[ci];
	bool zero;
	void *p;

	if (!c->cachep || !release_slot(s, i, 0))
		return;
	zero = v >= 6 && !c->ctor;
	if (zero)
		p = kmem_cache_zalloc(c->cachep, gfp);
	else if (v & 1)
		p = kmem_cache_alloc_node(c->cachep, gfp, 0);
	else
		p = kmem_cache_alloc(c->cachep, gfp);
	if (p)
		take_cache_obj(s, ci, i, p, zero);
}

static void op_bulk_alloc(struct fuzz_state *s, unsigned int v)
{
	unsigned int ci = next_u8(s) % NR_CACHES, start = next_slot(s);
	unsigned int want = 1 + next_u8(s) % MAX_BULK, nr = 0;
	gfp_t gfp = cache_gfp(s);
	struct fuzz_cache *c = &s->caches[ci];
	unsigned int slot[MAX_BULK];
	void *objs[MAX_BULK];
	bool zero = (v & 1) && !c->ctor;

	if (!c->cachep)
		return;
	for (unsigned int k = 0; k < NR_SLOTS && nr < want; k++) {
		unsigned int i = (start + k) % NR_SLOTS;

		if (s->slots[i].kind == SLOT_EMPTY)
			slot[nr++] = i;
	}
	if (!nr)
		return;
	if (!kmem_cache_alloc_bulk(c->cachep, gfp | (zero ? __GFP_ZERO : 0),
				   nr, objs))
		return;
	for (unsigned int k = 0; k < nr; k++) {
		if (!take_cache_obj(s, ci, slot[k], objs[k], zero))
			return;
	}
}

static void op_bulk_free(struct fuzz_state *s, unsigned int v)
{
	unsigned int ci = next_u8(s) % NR_CACHES, start = next_slot(s);
	unsigned int want = 1 + next_u8(s) % MAX_BULK, nr = 0;
	struct fuzz_cache *c = &s->caches[ci];
	void *objs[MAX_BULK];

	if (!c->cachep)
		return;
	for (unsigned int k = 0; k < NR_SLOTS && nr < want; k++) {
		unsigned int i = (start + k) % NR_SLOTS;
		struct fuzz_slot *sl = &s->slots[i];

		if (sl->kind != SLOT_CACHE || sl->cache != ci)
			continue;
		if (!verify_slot(s, i))
			return;
		if (c->ctor)
			fill(sl->ptr, 0, sl->size, c->ctor_seed);
		objs[nr++] = sl->ptr;
		sl->kind = SLOT_EMPTY;
	}
	if (!nr)
		return;
	kmem_cache_free_bulk(c->cachep, nr, objs);
	c->live -= nr;
}

static bool free_cache_objects(struct fuzz_state *s, unsigned int ci)
{
	for (unsigned int i = 0; i < NR_SLOTS; i++) {
		if (s->slots[i].kind == SLOT_CACHE && s->slots[i].cache == ci &&
		    !release_slot(s, i, 0))
			return false;
	}
	return true;
}

static void destroy_cache(struct fuzz_state *s, unsigned int ci)
{
	struct fuzz_cache *c = &s->caches[ci];

	kmem_cache_destroy(c->cachep);	/* a refusal shows as a report */
	c->cachep = NULL;
}

/* Destroy with live objects: must be refused, reported, cache kept. */
static void destroy_refused(struct fuzz_state *s, unsigned int ci)
{
	struct fuzz_cache *c = &s->caches[ci];
	unsigned int reports = s->reports, refusals = s->refusals;
	int level = console_loglevel;

	console_loglevel = LOGLEVEL_EMERG + 1;	/* the report is expected */
	kmem_cache_destroy(c->cachep);
	console_loglevel = level;
	if (!reports)
		s->first_report[0] = '\0';
	s->reports = reports;
	fuzz_check(s, s->refusals > refusals,
		   "kmem_cache_destroy(%s) with %u live objects was not refused",
		   cache_names[ci], c->live);
}

static void op_destroy(struct fuzz_state *s, unsigned int v)
{
	unsigned int ci = next_u8(s) % NR_CACHES;
	struct fuzz_cache *c = &s->caches[ci];

	if (!c->cachep)
		return;
	if (c->live && v == 7) {
		destroy_refused(s, ci);
		return;
	}
	if (free_cache_objects(s, ci))
		destroy_cache(s, ci);
}

static void op_shrink(struct fuzz_state *s, unsigned int v)
{
	u8 b = next_u8(s);
	struct fuzz_cache *c = &s->caches[b % NR_CACHES];
	int ret;

	if (b & 0x80) {
		int dma = (b >> 4) & 1, k = 1 + b % (KMALLOC_NR_CACHES - 1);

		if (kmalloc_caches[dma][k])
			kmem_cache_shrink(kmalloc_caches[dma][k]);
		return;
	}

	if (!c->cachep)
		return;
	ret = kmem_cache_shrink(c->cachep);
	fuzz_check(s, !ret == !c->live,
		   "kmem_cache_shrink(%s) returned %d with %u objects allocated",
		   cache_names[b % NR_CACHES], ret, c->live);
}

/* --- pages ------------------------------------------------------------ */

static void op_pages(struct fuzz_state *s, unsigned int v)
{
	unsigned int i = next_slot(s);
	u8 o = next_u8(s);
	gfp_t gfp = next_gfp(s);
	unsigned int order = o % (MAX_PAGE_ORDER + 1);
	struct page *page;
	unsigned long addr;

	if ((o & 0xf8) == 0xf8)		/* rarely the largest order, or beyond */
		order = o & 1 ? MAX_ORDER : MAX_ORDER - 1;

	if (o & 8)
		gfp |= __GFP_COMP;
	if (o & 16)
		gfp |= __GFP_ZERO;
	if (!release_slot(s, i, 0))
		return;
	if (v == 7) {
		order = 0;
		gfp |= __GFP_ZERO;
		addr = get_zeroed_page(gfp);
		page = addr ? virt_to_page((void *)addr) : NULL;
	} else if (v == 6) {
		addr = __get_free_pages(gfp, order);
		page = addr ? virt_to_page((void *)addr) : NULL;
	} else if (v == 5) {
		page = alloc_pages_node(0, gfp, order);
	} else {
		page = alloc_pages(gfp, order);
	}
	if (!page)
		return;
	if (!fuzz_check(s, order < MAX_ORDER, "order-%u allocation succeeded",
			order) ||
	    !check_pages(s, page, order, gfp))
		return;
	if ((gfp & __GFP_ZERO) && !verify_zero(s, page_address(page),
					       PAGE_SIZE << order, "zeroed pages"))
		return;
	set_slot(s, i, SLOT_PAGES, page_address(page), PAGE_SIZE << order);
	s->slots[i].order = (u8)order;
	s->slots[i].by_addr = v >= 6;
}

static void op_exact(struct fuzz_state *s, unsigned int v)
{
	unsigned int i = next_slot(s);
	size_t size = 1 + next_u16(s) * (1 + (v & 1));
	gfp_t gfp = next_gfp(s) | (v & 2 ? __GFP_ZERO : 0);
	void *p;

	if (!release_slot(s, i, 0))
		return;
	p = alloc_pages_exact(size, gfp);
	if (!p)
		return;
	if (!fuzz_check(s, IS_ALIGNED((unsigned long)p, PAGE_SIZE) &&
			   zone_of(p) <= gfp_zone(gfp),
			"alloc_pages_exact(%zu, %#x) returned %px", size, gfp, p))
		return;
	if ((gfp & __GFP_ZERO) && !verify_zero(s, p, size, "alloc_pages_exact"))
		return;
	set_slot(s, i, SLOT_EXACT, p, size);
}

static void op_split(struct fuzz_state *s, unsigned int v)
{
	unsigned int i = next_slot(s);
	struct fuzz_slot *sl = &s->slots[i];
	struct page *page;

	if (sl->kind == SLOT_SPLIT && sl->order) {
		/* Free the upper half, page by page; keep the lower. */
		if (!verify_slot(s, i))
			return;
		sl->order--;
		sl->size = PAGE_SIZE << sl->order;
		page = virt_to_page(sl->ptr);
		free_split(page, 1UL << sl->order, 2UL << sl->order);
		return;
	}
	if (sl->kind != SLOT_PAGES || !sl->order)
		return;
	page = virt_to_page(sl->ptr);
	if (PageCompound(page))
		return;		/* split_page() is for plain blocks only */
	split_page(page, sl->order);
	sl->kind = SLOT_SPLIT;
}

/* --- storms --------------------------------------------------------------- */

static void *storm_objs[MAX_STORM];
static u32 storm_seeds[MAX_STORM];

static bool storm_free_one(struct fuzz_state *s, struct fuzz_cache *c,
			   unsigned int k, size_t size)
{
	if (!verify(s, storm_objs[k], 0, size, storm_seeds[k], "storm object", -1))
		return false;
	if (!c) {
		kfree(storm_objs[k]);
	} else {
		if (c->ctor)
			fill(storm_objs[k], 0, size, c->ctor_seed);
		kmem_cache_free(c->cachep, storm_objs[k]);
	}
	storm_objs[k] = NULL;
	return true;
}

/*
 * Up to 256 objects of one size (kmalloc, or a private cache if v&1),
 * filled, then freed in an order v picks: last first, first first,
 * odd then even, or half of them reallocated in between. Enough
 * objects to overflow the per-CPU arrays into the shared array and
 * past the node's free limit, which the slots alone never do.
 */
static void op_storm(struct fuzz_state *s, unsigned int v)
{
	unsigned int ci = next_u8(s) % NR_CACHES;
	size_t size = next_size(s);
	unsigned int want = 1 + next_u8(s), n = 0, k;
	gfp_t gfp = next_gfp(s) & ~__GFP_DMA32;
	struct fuzz_cache *c = v & 1 ? &s->caches[ci] : NULL;
	unsigned int mode = (v >> 1) & 3;

	if (c && !c->cachep)
		return;
	if (c) {
		size = c->size;
		gfp &= ~GFP_ZONEMASK;
	}
	if (size && want > STORM_BYTES / size)
		want = max(STORM_BYTES / size, 1UL);
	for (; n < want; n++) {
		void *p = c ? kmem_cache_alloc(c->cachep, gfp) : kmalloc(size, gfp);

		if (!p)
			break;
		if (c ? !check_cache_obj(s, ci, p) ||
			(c->ctor && !verify(s, p, 0, size, c->ctor_seed, "constructed object", -1))
		      : !check_kmalloc(s, p, size, gfp))
			return;
		storm_objs[n] = p;
		storm_seeds[n] = new_seed(s, 63);
		fill(p, 0, size, storm_seeds[n]);
	}
	if (mode == 3) {
		/* Free the even ones, take them again, then free all. */
		for (k = 0; k < n; k += 2) {
			if (!storm_free_one(s, c, k, size))
				return;
		}
		for (k = 0; k < n; k += 2) {
			void *p = c ? kmem_cache_alloc(c->cachep, gfp) : kmalloc(size, gfp);

			if (!p)
				continue;
			if (c ? !check_cache_obj(s, ci, p) ||
				(c->ctor && !verify(s, p, 0, size, c->ctor_seed, "constructed object", -1))
			      : !check_kmalloc(s, p, size, gfp))
				return;
			storm_objs[k] = p;
			storm_seeds[k] = new_seed(s, 63);
			fill(p, 0, size, storm_seeds[k]);
		}
		mode = 0;
	}
	for (unsigned int j = 0; j < n; j++) {
		if (mode == 0)
			k = n - 1 - j;			/* LIFO */
		else if (mode == 1)
			k = j;				/* FIFO */
		else
			k = j < n / 2 ? 2 * j + 1 : 2 * (j - n / 2);	/* odd, even */
		if (storm_objs[k] && !storm_free_one(s, c, k, size))
			return;
	}
}

/* --- memory pressure ------------------------------------------------------ */

/* A block's last word, written when the hog takes it, checked on return. */
static u64 *hog_tail(struct hog_block *h)
{
	return (u64 *)((char *)h + (PAGE_SIZE << h->order)) - 1;
}

static bool hog_release(struct fuzz_state *s)
{
	while (s->hog) {
		struct hog_block *h = s->hog;

		if (!fuzz_check(s, h->order < MAX_ORDER &&
				   *hog_tail(h) == pattern_word(h->seed, 0),
				"corrupted hog block at %px (order %u)", h, h->order))
			return false;
		s->hog = h->next;
		__free_pages(virt_to_page(h), h->order);
	}
	return true;
}

/*
 * Take free memory until only slack pages above the zones' min
 * watermarks remain (variant 1: all the page allocator gives, 2: the
 * reserve too), so that allocations fail, kmem_cache_create runs out of
 * memory, and __GFP_MEMALLOC gets pfmemalloc pages. Variants 4-7 give
 * it all back.
 */
static void op_hog(struct fuzz_state *s, unsigned int v)
{
	u8 b = next_u8(s);
	long want = (long)nr_free_pages() - (long)(b >> 3) * 32;
	gfp_t gfp = GFP_KERNEL | __GFP_NOWARN;
	struct zone *zone;

	if (v >= 4) {
		hog_release(s);
		return;
	}
	for_each_zone(zone)
		want -= (long)min_wmark_pages(zone);
	if (v == 1 || v == 2)
		want = LONG_MAX;
	if (v == 2)
		gfp |= __GFP_MEMALLOC;
	for (int order = MAX_ORDER - 1; order >= 0 && want > 0; order--) {
		struct page *page;

		while ((1L << order) <= want && (page = alloc_pages(gfp, order))) {
			struct hog_block *h = page_address(page);

			h->next = s->hog;
			h->order = (unsigned int)order;
			h->seed = new_seed(s, 0);
			*hog_tail(h) = pattern_word(h->seed, 0);
			s->hog = h;
			want -= 1L << order;
		}
	}
}

/* --- the rest ------------------------------------------------------------ */

static void verify_all(struct fuzz_state *s)
{
	for (unsigned int i = 0; i < NR_SLOTS && !s->failed; i++)
		verify_slot(s, i);
}

static void op_check(struct fuzz_state *s, unsigned int v)
{
	unsigned int i = next_slot(s);

	if (v == 7)
		verify_all(s);
	else
		verify_slot(s, i);
}

/*
 * Purge vmalloc's lazily freed areas, empty every array cache and free
 * slab, then the per-CPU page lists.
 */
static void shrink_all(void)
{
	vm_unmap_aliases();	/* the lazily freed areas' records */
	kmem_cache_shrink_all();
	drain_all_pages();
}

static void op_drain(struct fuzz_state *s, unsigned int v)
{
	if (v == 7)
		shrink_all();
	else
		drain_all_pages();
}

static void measure(struct fuzz_usage *u)
{
	shrink_all();
	u->pages = nr_allocated_pages();
	u->objects = slab_objects_in_use();
}

/* After every operation: reports, and the private caches' counters. */
static void check_after_op(struct fuzz_state *s)
{
	if (s->failed)
		return;
	if (!fuzz_check(s, !s->reports, "the kernel reported a problem: %s",
			s->first_report))
		return;
	for (unsigned int ci = 0; ci < NR_CACHES; ci++) {
		struct fuzz_cache *c = &s->caches[ci];

		if (c->cachep &&
		    !fuzz_check(s, cache_in_use(c->cachep) == c->live,
				"%s counts %ld objects in use, the fuzzer holds %u",
				cache_names[ci], cache_in_use(c->cachep), c->live))
			return;
	}
}

static void run_op(struct fuzz_state *s)
{
	u8 b = next_u8(s);
	unsigned int v = b >> 5;

	switch (op_table[b & 31]) {
	case OP_KMALLOC:	op_kmalloc(s, v); break;
	case OP_KZALLOC:	op_kzalloc(s, v); break;
	case OP_KREALLOC:	op_krealloc(s, v); break;
	case OP_FREE:		op_free(s, v); break;
	case OP_CREATE:		op_create(s, v); break;
	case OP_CACHE_ALLOC:	op_cache_alloc(s, v); break;
	case OP_BULK_ALLOC:	op_bulk_alloc(s, v); break;
	case OP_BULK_FREE:	op_bulk_free(s, v); break;
	case OP_SHRINK:		op_shrink(s, v); break;
	case OP_DESTROY:	op_destroy(s, v); break;
	case OP_PAGES:		op_pages(s, v); break;
	case OP_EXACT:		op_exact(s, v); break;
	case OP_SPLIT:		op_split(s, v); break;
	case OP_CHECK:		op_check(s, v); break;
	case OP_DRAIN:		op_drain(s, v); break;
	case OP_HOG:		op_hog(s, v); break;
	case OP_STORM:		op_storm(s, v); break;
	case OP_VMALLOC:	op_vmalloc(s, v); break;
	}
	check_after_op(s);
}

/* Free every slot, destroy every cache. */
static void teardown(struct fuzz_state *s)
{
	hog_release(s);
	for (unsigned int i = 0; i < NR_SLOTS && !s->failed; i++)
		release_slot(s, i, 0);
	for (unsigned int ci = 0; ci < NR_CACHES && !s->failed; ci++) {
		if (s->caches[ci].cachep)
			destroy_cache(s, ci);
	}
	check_after_op(s);
}

int fuzz_one_input(const u8 *data, size_t len)
{
	struct fuzz_state *s = &fuzz;
	struct fuzz_usage before, after;

	memset(s, 0, sizeof(*s));
	s->data = data;
	s->len = len;
	measure(&before);
	printk_set_hook(report_hook, s);
	while (s->pos < s->len && !s->failed && s->nr_ops < MAX_OPS_PER_INPUT) {
		s->op_start = s->pos;
		s->nr_ops++;
		run_op(s);
	}
	s->op_start = s->pos;
	if (!s->failed)
		teardown(s);
	printk_set_hook(NULL, NULL);
	fuzz_nr_ops += s->nr_ops;
	if (s->failed)
		return 1;
	measure(&after);
	fuzz_check(s, after.pages == before.pages,
		   "leak: %ld pages in use after the input, %ld before",
		   after.pages, before.pages);
	fuzz_check(s, after.objects == before.objects,
		   "leak: %ld slab objects in use after the input, %ld before",
		   after.objects, before.objects);
	return s->failed;
}

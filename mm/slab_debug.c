// SPDX-License-Identifier: GPL-2.0
/*
 * slab_debug: catch slab misuse where it happens (Linux's slub_debug
 * flags on the SLAB allocator).
 *
 * 1. Which caches. A cache created with SLAB_CONSISTENCY_CHECKS (F),
 *    SLAB_RED_ZONE (Z), SLAB_POISON (P) or SLAB_STORE_USER (U), or named
 *    by the slab_debug= parameter, is debugged. It keeps no per-CPU
 *    arrays (its array limit is 0): every allocation and free misses the
 *    fast path and lands here, so a cache without debugging pays nothing,
 *    not even a branch, and kfree pays one predictable test of
 *    kfree_checks (mm/slab.c), which is nonzero while
 *    slab_nr_debug_caches is.
 *
 * 2. Object layout of a debugged cache (offsets from the object):
 *
 *      -obj_offset      0         orig_size   object_size   debug_offset
 *      | red zone before | object             | kmalloc slack | red zone after | slab_debug_info
 *
 *    The red zones (Z) hold RED_ACTIVE while the object is allocated and
 *    RED_INACTIVE while it is free; the slack between what kmalloc was
 *    asked for and the object size is guarded like a red zone while the
 *    object is allocated. slab_debug_info keeps orig_size and, with U, the
 *    last allocation and free (caller, CPU, time).
 *
 * 3. Poison (P; not for caches with a constructor or SLAB_TYPESAFE_BY_RCU,
 *    whose free objects must keep their contents): a free object is
 *    POISON_FREE ending in POISON_END; a new one is POISON_INUSE unless
 *    zeroed. The poison is checked when the object is handed out again.
 *
 * 4. Checks. On free: the pointer is the start of an object of this
 *    cache, not one already free (red zones saying "free", or the object
 *    found in the free part of its slab's index array, the seed patch
 *    set's scan), and its red zones are intact. On allocation: poison
 *    and red zones of the free object are intact. F adds a check of the
 *    slab's whole index array on every allocation and free.
 *    kmem_cache_validate() checks everything on demand, including the
 *    array caches of caches without debugging (double frees there).
 *
 * 5. Reports and recovery. Every problem gets one report from
 *    slab_report(): "BUG: slab_debug: <cache>: <problem>", then the
 *    object, the first bad byte and its offset, the last allocation and
 *    free, the caller, a hex dump, and a "FIX" line saying what was done.
 *    A bad free is ignored; a damaged red zone is restored and the free
 *    goes on; an object damaged while free (write after free) is put in
 *    quarantine instead of being handed out.
 */
#include "kernel/bug.h"
#include "kernel/cpumask.h"
#include "kernel/errno.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/report.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/numa.h"
#include "mm/slab_internal.h"

#define RED_INACTIVE	0xbb
#define RED_ACTIVE	0xcc
#define POISON_INUSE	0x5a
#define POISON_FREE	0x6b
#define POISON_END	0xa5

#define SLAB_DEBUG_SPEC_LEN	256

struct slab_track {
	unsigned long caller;
	u64 when_ns;
	unsigned int cpu;
};

struct slab_debug_info {
	unsigned int orig_size;
	struct slab_track alloc;
	struct slab_track free;
};

unsigned int slab_nr_debug_caches;	/* under slab_lock (slab_common.c) */
atomic_long_t slab_debug_checks;	/* atomic: CPUs check at once */

/* --- slab_debug= ------------------------------------------------------- */

static char slab_debug_spec[SLAB_DEBUG_SPEC_LEN];
static bool slab_debug_given;

static int flag_letter(char c, slab_flags_t *flags)
{
	switch (c | 0x20) {	/* lower case */
	case 'f':
		*flags |= SLAB_CONSISTENCY_CHECKS;
		return 0;
	case 'z':
		*flags |= SLAB_RED_ZONE;
		return 0;
	case 'p':
		*flags |= SLAB_POISON;
		return 0;
	case 'u':
		*flags |= SLAB_STORE_USER;
		return 0;
	default:
		return -EINVAL;
	}
}

/* The flags of one block's flag part: "" means all, "-" none. */
static int parse_flags(const char *s, size_t len, slab_flags_t *flags)
{
	*flags = 0;
	if (!len) {
		*flags = SLAB_DEBUG_FLAGS;
		return 0;
	}
	if (len == 1 && *s == '-')
		return 0;
	for (size_t i = 0; i < len; i++) {
		if (flag_letter(s[i], flags)) {
			pr_warn("slab_debug: unknown flag '%c'\n", s[i]);
			return -EINVAL;
		}
	}
	return 0;
}

/* Does the comma-separated list of cache globs [s, end) match name? */
static bool list_matches(const char *s, const char *end, const char *name)
{
	char glob[64];

	while (s < end) {
		const char *comma = s;
		size_t len;

		while (comma < end && *comma != ',')
			comma++;
		len = min((size_t)(comma - s), sizeof(glob) - 1);
		memcpy(glob, s, len);
		glob[len] = '\0';
		if (len && glob_match(glob, name))
			return true;
		s = comma + 1;
	}
	return false;
}

/*
 * Linux's slub_debug syntax: blocks separated by ';', each
 * "FLAGS[,cache,cache...]" (cache names may be globs). A block with a
 * list applies to the caches it names, the first such block wins; a
 * block without one applies to every other cache. name NULL only checks
 * the syntax. Returns 0 or -EINVAL.
 */
int slab_debug_parse(const char *spec, const char *name, slab_flags_t *flags)
{
	slab_flags_t global = 0;
	bool named = false;

	*flags = SLAB_DEBUG_FLAGS;	/* bare "slab_debug" */
	if (!*spec)
		return 0;
	*flags = 0;
	while (*spec) {
		const char *end = strchr(spec, ';');
		const char *comma;
		slab_flags_t f;

		if (!end)
			end = spec + strlen(spec);
		comma = spec;
		while (comma < end && *comma != ',')
			comma++;
		if (parse_flags(spec, (size_t)(comma - spec), &f))
			return -EINVAL;
		if (comma == end)
			global = f;
		else if (!named && name && list_matches(comma + 1, end, name)) {
			*flags = f;
			named = true;
		}
		spec = *end ? end + 1 : end;
	}
	if (!named)
		*flags = global;
	return 0;
}

static int set_slab_debug(char *val)
{
	slab_flags_t flags;

	if (!val)
		val = "";	/* bare "slab_debug": everything, everywhere */
	if (strlen(val) >= SLAB_DEBUG_SPEC_LEN || slab_debug_parse(val, NULL, &flags))
		return -EINVAL;
	strscpy(slab_debug_spec, val, sizeof(slab_debug_spec));
	slab_debug_given = true;
	return 0;
}
kernel_param("slab_debug", set_slab_debug);

/* Its older name, still accepted by Linux. */
static int set_slub_debug(char *val)
{
	return set_slab_debug(val);
}
kernel_param("slub_debug", set_slub_debug);

slab_flags_t slab_debug_boot_flags(const char *name)
{
	slab_flags_t flags = 0;

	if (slab_debug_given)
		slab_debug_parse(slab_debug_spec, name, &flags);
	return flags;
}

/* --- layout ------------------------------------------------------------- */

static bool cache_poisoned(const struct kmem_cache *cachep)
{
	return cachep->flags & SLAB_POISON;
}

static bool cache_red_zoned(const struct kmem_cache *cachep)
{
	return cachep->flags & SLAB_RED_ZONE;
}

void slab_debug_layout(struct kmem_cache *cachep)
{
	unsigned int end;

	/* Free objects of these caches must keep their contents (SLUB). */
	if (cachep->ctor || (cachep->flags & SLAB_TYPESAFE_BY_RCU))
		cachep->flags &= ~SLAB_POISON;
	cachep->obj_offset = cache_red_zoned(cachep) ?
			     ALIGN((unsigned int)sizeof(long), cachep->align) : 0;
	cachep->debug_offset = ALIGN(cachep->object_size,
				     (unsigned int)sizeof(long));
	if (cache_red_zoned(cachep))
		cachep->debug_offset += sizeof(long);
	end = cachep->obj_offset + cachep->debug_offset +
	      sizeof(struct slab_debug_info);
	cachep->size = ALIGN(end, cachep->align);
}

static struct slab_debug_info *debug_info(const struct kmem_cache *cachep,
					  const void *objp)
{
	return (struct slab_debug_info *)((char *)objp + cachep->debug_offset);
}

size_t slab_debug_orig_size(struct kmem_cache *cachep, const void *objp)
{
	return debug_info(cachep, objp)->orig_size;
}

/*
 * The kmalloc slack [size, object_size) is red zone while allocated.
 * Bytes that become usable (ksize, krealloc growing in place) are zeroed,
 * so a kzalloc'ed object stays zero up to its new size.
 */
void slab_debug_set_orig_size(struct kmem_cache *cachep, void *objp,
			      size_t size)
{
	struct slab_debug_info *info = debug_info(cachep, objp);

	if (!cache_red_zoned(cachep)) {
		info->orig_size = (unsigned int)size;
		return;
	}
	if (size > info->orig_size)
		memset((char *)objp + info->orig_size, 0,
		       size - info->orig_size);
	else
		memset((char *)objp + size, RED_ACTIVE,
		       info->orig_size - size);
	info->orig_size = (unsigned int)size;
}

/* --- the states of an object ----------------------------------------- */

struct region {
	const char *name;
	enum report_kind kind;		/* when it is found damaged */
	u8 *start;
	size_t len;
	u8 value;
};

/* The red zones and the poison of an object, as they must be. */
static unsigned int object_regions(const struct kmem_cache *cachep,
				   void *objp, bool allocated,
				   struct region *r)
{
	u8 *obj = objp;
	unsigned int n = 0;
	u8 red = allocated ? RED_ACTIVE : RED_INACTIVE;

	if (cache_red_zoned(cachep)) {
		r[n++] = (struct region){ "red zone before the object",
			REPORT_SLAB_RED_ZONE,
			obj - cachep->obj_offset, cachep->obj_offset, red };
		r[n++] = (struct region){ "red zone after the object",
			REPORT_SLAB_RED_ZONE,
			obj + cachep->object_size,
			cachep->debug_offset - cachep->object_size, red };
		if (allocated) {
			size_t orig = debug_info(cachep, objp)->orig_size;

			r[n++] = (struct region){ "kmalloc red zone past the size asked for",
				REPORT_SLAB_KMALLOC_RED_ZONE,
				obj + orig, cachep->object_size - orig, red };
		}
	}
	if (!allocated && cache_poisoned(cachep)) {
		r[n++] = (struct region){ "poison", REPORT_SLAB_POISON, obj,
			cachep->object_size - 1, POISON_FREE };
		r[n++] = (struct region){ "poison end", REPORT_SLAB_POISON,
			obj + cachep->object_size - 1, 1, POISON_END };
	}
	return n;
}

static void set_regions(const struct region *r, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		memset(r[i].start, r[i].value, r[i].len);
}

static void set_track(struct slab_track *t, unsigned long caller)
{
	t->caller = caller;
	t->when_ns = arch_clock_ns();
	t->cpu = arch_cpu_id();
}

/* Put objp in the state of a free object (new slab, free, quarantine). */
static void mark_free(struct kmem_cache *cachep, void *objp,
		      unsigned long caller)
{
	struct region r[5];

	set_regions(r, object_regions(cachep, objp, false, r));
	if (caller && (cachep->flags & SLAB_STORE_USER))
		set_track(&debug_info(cachep, objp)->free, caller);
}

void slab_debug_init_obj(struct kmem_cache *cachep, void *objp)
{
	memset(debug_info(cachep, objp), 0, sizeof(struct slab_debug_info));
	mark_free(cachep, objp, 0);
}

static void mark_allocated(struct kmem_cache *cachep, void *objp, gfp_t flags,
			   size_t orig_size, unsigned long caller)
{
	struct region r[5];
	unsigned int n;

	debug_info(cachep, objp)->orig_size = (unsigned int)orig_size;
	n = object_regions(cachep, objp, true, r);
	set_regions(r, n);
	if (flags & __GFP_ZERO)
		memset(objp, 0, orig_size);
	else if (cache_poisoned(cachep))
		memset(objp, POISON_INUSE, orig_size);
	if (cachep->flags & SLAB_STORE_USER)
		set_track(&debug_info(cachep, objp)->alloc, caller);
}

/* --- the report ---------------------------------------------------------- */

struct slab_problem {
	struct kmem_cache *cachep;	/* NULL: not from any cache */
	const void *ptr;		/* what the caller passed */
	void *objp;			/* the object, if one is involved */
	const struct region *region;	/* the damaged region, if any */
	const u8 *bad;			/* its first bad byte */
	unsigned long caller;
	enum report_kind kind;
};

static void print_track(const char *what, const struct slab_track *t,
			u64 now)
{
	if (!t->caller) {
		pr_err("  %s: no record\n", what);
		return;
	}
	pr_err("  %s by %pS on cpu %u, %llu us ago\n", what, (void *)t->caller,
	       t->cpu, (unsigned long long)(now - t->when_ns) / 1000);
}

/* 16 bytes a line around bad, within [lo, hi). */
static void hex_dump(const u8 *lo, const u8 *hi, const u8 *bad)
{
	const u8 *p = (const u8 *)((unsigned long)(bad ? bad : lo) & ~15UL) - 16;

	if (p < lo)
		p = lo;
	for (int line = 0; line < 3 && p < hi; line++, p += 16) {
		char buf[16 * 3 + 1];

		scnprint_hex(buf, sizeof(buf), p, min((size_t)(hi - p), (size_t)16));
		pr_err("  %px:%s\n", p, buf);
	}
}

static void print_object(const struct slab_problem *p)
{
	struct kmem_cache *cachep = p->cachep;
	struct slab *slab = virt_to_slab(p->objp);
	u8 *obj = p->objp;

	pr_err("  object %px: index %u of %u in slab %px (%u in use), size %u\n",
	       obj, (unsigned int)((obj - (u8 *)slab->s_mem) / cachep->size),
	       cachep->num, slab_address(slab), slab->active,
	       cachep->object_size);
	if (p->bad)
		pr_err("  first bad byte at offset %ld (%s): 0x%02x instead of 0x%02x\n",
		       (long)(p->bad - obj), p->region->name, *p->bad,
		       p->region->value);
	if (cache_debug(cachep)) {
		const struct slab_debug_info *info = debug_info(cachep, obj);

		if (cache_red_zoned(cachep))
			pr_err("  %u bytes asked for\n", info->orig_size);
		if (cachep->flags & SLAB_STORE_USER) {
			u64 now = arch_clock_ns();

			print_track("last allocated", &info->alloc, now);
			print_track("last freed", &info->free, now);
		}
	}
	hex_dump(obj - cachep->obj_offset,
		 obj + (cache_debug(cachep) ? cachep->debug_offset :
					      cachep->object_size), p->bad);
}

/* The one reporter: every problem found in a slab comes through here. */
static void slab_report(const struct slab_problem *p, const char *problem,
			const char *fix)
{
	const char *name = p->cachep ? p->cachep->name : "kmalloc";

	report_kind(p->kind);
	pr_err("BUG: slab_debug: %s: %s\n", name, problem);
	if (p->ptr)
		pr_err("  pointer %px passed by %pS\n", p->ptr, (void *)p->caller);
	if (p->objp)
		print_object(p);
	pr_err("FIX %s: %s\n", name, fix);
}

void slab_report_bad_ptr(const void *ptr, unsigned long caller,
			 enum report_kind kind, const char *problem)
{
	struct slab_problem p = { .ptr = ptr, .caller = caller, .kind = kind };

	slab_report(&p, problem, "call ignored");
	dump_stack();
}

/* Check the regions of objp; report the first damaged one. */
static bool regions_intact(struct slab_problem *p, bool allocated,
			   const char *when, const char *fix, bool repair)
{
	struct region r[5];
	unsigned int n = object_regions(p->cachep, p->objp, allocated, r);
	bool ok = true;

	for (unsigned int i = 0; i < n; i++) {
		const u8 *bad = memchr_inv(r[i].start, r[i].value, r[i].len);
		char problem[96];

		if (!bad)
			continue;
		p->region = &r[i];
		p->bad = bad;
		p->kind = r[i].kind;
		snprintf(problem, sizeof(problem), "%s overwritten%s", r[i].name,
			 when);
		slab_report(p, problem, fix);
		if (repair)
			memset(r[i].start, r[i].value, r[i].len);
		ok = false;
	}
	p->bad = NULL;
	return ok;
}

/* --- quarantine ---------------------------------------------------------- */

/* The quarantine is the cache's, under its first node's lock. */
static void quarantine(struct kmem_cache *cachep, void *objp)
{
	struct kmem_cache_node *n = first_kmem_cache_node(cachep);
	unsigned long flags;

	spin_lock_irqsave(&n->list_lock, flags);
	*(void **)objp = cachep->quarantine;
	cachep->quarantine = objp;
	cachep->nr_quarantined++;
	spin_unlock_irqrestore(&n->list_lock, flags);
}

static bool in_quarantine(const struct kmem_cache *cachep, const void *objp)
{
	for (void *q = cachep->quarantine; q; q = *(void **)q)
		if (q == objp)
			return true;
	return false;
}

bool slab_debug_quarantined(struct kmem_cache *cachep, const void *objp)
{
	struct kmem_cache_node *n = first_kmem_cache_node(cachep);
	unsigned long flags;
	bool found;

	spin_lock_irqsave(&n->list_lock, flags);
	found = in_quarantine(cachep, objp);
	spin_unlock_irqrestore(&n->list_lock, flags);
	return found;
}

void kmem_cache_release_quarantine(struct kmem_cache *cachep)
{
	struct kmem_cache_node *n = first_kmem_cache_node(cachep);
	unsigned long flags;

	for (;;) {
		void *objp;

		spin_lock_irqsave(&n->list_lock, flags);
		objp = cachep->quarantine;
		if (objp) {
			cachep->quarantine = *(void **)objp;
			cachep->nr_quarantined--;
		}
		spin_unlock_irqrestore(&n->list_lock, flags);
		if (!objp)
			return;
		mark_free(cachep, objp, _RET_IP_);
		cache_free_one(cachep, objp);
	}
}

/* --- where a pointer points ----------------------------------------------- */

/* The slab ptr lies in, or NULL: ptr may be any address at all. */
static struct slab *slab_of(const void *ptr)
{
	return virt_addr_valid(ptr) ? virt_to_slab(ptr) : NULL;
}

/* The index of the object ptr points into, or -1 if none. */
static long obj_index(const struct kmem_cache *cachep, const struct slab *slab,
		      const void *ptr)
{
	long off = (const u8 *)ptr - (const u8 *)slab->s_mem;

	if (off < 0 || (unsigned long)off / cachep->size >= cachep->num)
		return -1;
	return off / (long)cachep->size;
}

/*
 * Is object idx in the free part of its slab's index array (the seed
 * patch set's double-free scan)? n->list_lock held.
 */
static bool index_is_free(struct kmem_cache *cachep,
			  const struct slab *slab, unsigned int idx)
{
	lockdep_assert_held(&get_node(cachep, slab_nid(slab))->list_lock);
	for (unsigned int i = slab->active; i < cachep->num; i++)
		if (get_free_obj(cachep, slab, i) == idx)
			return true;
	return false;
}

/* --- validation on demand ------------------------------------------------- */

/* Objects of one slab seen free (index array) or cached, while validating. */
static u8 seen[SLAB_MAX_NUM_2BYTE / 8 + 1];
static DEFINE_SPINLOCK(validate_lock);

struct validation {
	struct kmem_cache *cachep;
	int problems;
};

static void problem(struct validation *v, enum report_kind kind, void *objp,
		    const char *fix, const char *fmt, ...) __printf(5, 6);

static void problem(struct validation *v, enum report_kind kind, void *objp,
		    const char *fix, const char *fmt, ...)
{
	struct slab_problem p = { .cachep = v->cachep, .objp = objp,
				  .kind = kind };
	char buf[128];
	va_list args;

	va_start(args, fmt);
	vscnprintf(buf, sizeof(buf), fmt, args);
	va_end(args);
	slab_report(&p, buf, fix ? fix : "none (found by kmem_cache_validate)");
	v->problems++;
}

static bool test_and_set_seen(unsigned int idx)
{
	bool was = seen[idx / 8] & (1U << (idx % 8));

	seen[idx / 8] |= (u8)(1U << (idx % 8));
	return was;
}

/* The free part of the index array: distinct, in range. validate_lock held. */
static void validate_freelist(struct validation *v, struct slab *slab)
{
	struct kmem_cache *cachep = v->cachep;

	lockdep_assert_held(&validate_lock);
	memset(seen, 0, DIV_ROUND_UP(cachep->num, 8));
	for (unsigned int i = slab->active; i < cachep->num; i++) {
		unsigned int idx = get_free_obj(cachep, slab, i);

		if (idx >= cachep->num)
			problem(v, REPORT_SLAB_BAD_INDEX, NULL, NULL,
				"slab %px: index %u out of range at freelist[%u]",
				slab_address(slab), idx, i);
		else if (test_and_set_seen(idx))
			problem(v, REPORT_SLAB_BAD_INDEX,
				index_to_obj(cachep, slab, idx), NULL,
				"slab %px: object free twice in the index array",
				slab_address(slab));
	}
}

/* Red zones and poison of every object of a debugged cache's slab. */
static void validate_objects(struct validation *v, struct slab *slab)
{
	for (unsigned int i = 0; i < v->cachep->num; i++) {
		struct slab_problem p = { .cachep = v->cachep,
					  .objp = index_to_obj(v->cachep, slab, i) };
		bool is_free = seen[i / 8] & (1U << (i % 8));

		if (!is_free && in_quarantine(v->cachep, p.objp))
			continue;
		atomic_long_inc(&slab_debug_checks);
		if (!regions_intact(&p, !is_free, is_free ? " (free object)" : "",
				    "restored (found by kmem_cache_validate)", true))
			v->problems++;
	}
}

static void validate_slab(struct validation *v, struct slab *slab,
			  unsigned int min_active, unsigned int max_active)
{
	struct kmem_cache *cachep = v->cachep;

	if (!PageSlab(slab_page(slab)) || slab->slab_cache != cachep) {
		problem(v, REPORT_SLAB_BAD_SLAB, NULL, NULL,
			"slab %px on the lists is not this cache's",
			slab);
		return;
	}
	if (slab->active < min_active || slab->active > max_active)
		problem(v, REPORT_SLAB_BAD_SLAB, NULL, NULL,
			"slab %px: %u in use on a list for %u..%u",
			slab_address(slab), slab->active, min_active, max_active);
	if (slab->active > cachep->num)
		return;
	validate_freelist(v, slab);
	if (cache_debug(cachep))
		validate_objects(v, slab);
}

/* Every slab on node n's lists is of node nid's pages. n->list_lock held. */
static void validate_node_slabs(struct validation *v,
				struct kmem_cache_node *n, int nid)
{
	struct list_head *lists[] = { &n->slabs_full, &n->slabs_partial,
				      &n->slabs_free };
	struct slab *slab;

	lockdep_assert_held(&n->list_lock);
	for (int l = 0; l < 3; l++)
		list_for_each_entry(slab, lists[l], slab_list)
			if (slab_nid(slab) != nid)
				problem(v, REPORT_SLAB_BAD_SLAB, NULL, NULL,
					"slab %px of node %d on node %d's lists",
					slab_address(slab), slab_nid(slab), nid);
}

static unsigned long validate_list(struct validation *v, struct list_head *head,
				   unsigned int min_active,
				   unsigned int max_active,
				   unsigned long *free_objects)
{
	unsigned long nr = 0;
	struct slab *slab;

	list_for_each_entry(slab, head, slab_list) {
		validate_slab(v, slab, min_active, max_active);
		*free_objects += v->cachep->num - min(slab->active, v->cachep->num);
		nr++;
	}
	return nr;
}

/*
 * Why objp may not sit in an array cache: REPORT_NONE if it may, else the
 * kind, with the reason in *why.
 */
static enum report_kind cached_problem(struct validation *v, void *objp,
				       const char **why)
{
	struct kmem_cache *cachep = v->cachep;
	struct slab *slab = slab_of(objp);
	long idx;

	if (!slab || slab->slab_cache != cachep) {
		*why = "not an object of this cache";
		return REPORT_SLAB_ARRAY_FOREIGN;
	}
	idx = obj_index(cachep, slab, objp);
	if (idx < 0 || index_to_obj(cachep, slab, (unsigned int)idx) != objp) {
		*why = "not an object start";
		return REPORT_SLAB_ARRAY_FOREIGN;
	}
	if (index_is_free(cachep, slab, (unsigned int)idx)) {
		*why = "also free in its slab (double free)";
		return REPORT_SLAB_ARRAY_FREE;
	}
	return REPORT_NONE;
}

static bool cached_before(struct array_cache **acs, unsigned int a,
			  unsigned int kept, void *entry)
{
	for (unsigned int b = 0; b <= a; b++)
		for (unsigned int j = 0;
		     j < (b == a ? kept : READ_ONCE(acs[b]->avail)); j++)
			if (READ_ONCE(acs[b]->entry[j]) == entry)
				return true;
	return false;
}

/*
 * Every object in the per-CPU and shared arrays must be an allocated
 * object of this cache, once. This is how a double free into a cache
 * without debugging is found, after the fact. n->list_lock held.
 *
 * Who may change which array: this CPU's own (interrupts off here) and
 * the shared one (under n->list_lock) lose their bad entries, so the
 * object is not handed out twice. Another CPU's array is pushed and
 * popped by that CPU on its fast path without any lock, so rewriting
 * its entries or its avail from here could lose an object or hand one
 * out twice: its problems are reported and left in place, for that CPU
 * to find (kmem_cache_validate() there) or a drain to clear. Reading it
 * is safe (its entry array never moves, avail never exceeds its size,
 * and every entry is checked before it is followed) but not exact while
 * that CPU allocates: the scan may see a stale entry. (Validation runs
 * with n->list_lock held and interrupts off, so it cannot ask the other
 * CPUs by IPI as shrink does, mm/slab.c, "Locking".)
 */
static void validate_arrays(struct validation *v, int nid)
{
	unsigned int cpu;
	struct kmem_cache *cachep = v->cachep;
	struct array_cache *acs[NR_CPUS + 1], *own, *shared;
	unsigned long irqflags = arch_irq_save();
	unsigned int nr = 0;

	/* The arrays holding node nid's objects: its CPUs' and its shared. */
	lockdep_assert_held(&get_node(cachep, nid)->list_lock);
	own = cachep->cpu_cache[arch_cpu_id()];
	shared = get_node(cachep, nid)->shared;
	for_each_possible_cpu(cpu)
		if (cpu_to_mem(cpu) == nid)
			acs[nr++] = cachep->cpu_cache[cpu];
	if (shared)
		acs[nr++] = shared;
	for (unsigned int a = 0; a < nr; a++) {
		bool writable = acs[a] == own || acs[a] == shared;
		unsigned int avail = READ_ONCE(acs[a]->avail), kept = 0;

		for (unsigned int i = 0; i < avail; i++) {
			void *entry = READ_ONCE(acs[a]->entry[i]);
			void *objp = entry;
			const char *why = NULL;
			enum report_kind kind = cached_problem(v, objp, &why);

			if (kind == REPORT_NONE &&
			    cached_before(acs, a, writable ? kept : i, entry)) {
				kind = REPORT_SLAB_ARRAY_TWICE;
				why = "twice in the array caches (double free)";
			}
			if (kind != REPORT_NONE)
				problem(v, kind, NULL, writable ?
					"dropped from the array cache" :
					"left in place (another CPU's array)",
					"array cache entry %px: %s", objp, why);
			else if (writable)
				acs[a]->entry[kept++] = entry;
		}
		if (writable)
			acs[a]->avail = kept;
	}
	arch_irq_restore(irqflags);
}

/* SLAB_CONSISTENCY_CHECKS on every alloc and free: the object's slab. */
static void check_slab(struct kmem_cache *cachep, struct slab *slab)
{
	struct kmem_cache_node *n = get_node(cachep, slab_nid(slab));
	unsigned long flags;
	struct validation v = { .cachep = cachep };

	spin_lock_irqsave(&validate_lock, flags);
	spin_lock(&n->list_lock);
	if (slab->active > cachep->num)
		problem(&v, REPORT_SLAB_BAD_SLAB, NULL, NULL,
			"slab %px: %u objects in use of %u",
			slab_address(slab), slab->active, cachep->num);
	else
		validate_freelist(&v, slab);
	spin_unlock(&n->list_lock);
	spin_unlock_irqrestore(&validate_lock, flags);
}

/* Node nid's lists, counters and arrays. validate_lock held. */
static void validate_node(struct validation *v, int nid)
{
	struct kmem_cache *cachep = v->cachep;
	struct kmem_cache_node *n = get_node(cachep, nid);
	unsigned long free_objects = 0, full, partial, free;

	lockdep_assert_held(&validate_lock);
	spin_lock(&n->list_lock);
	full = validate_list(v, &n->slabs_full, cachep->num, cachep->num,
			     &free_objects);
	partial = validate_list(v, &n->slabs_partial, 1, cachep->num - 1,
				&free_objects);
	free = validate_list(v, &n->slabs_free, 0, 0, &free_objects);
	if (full + partial + free != n->total_slabs || free != n->free_slabs ||
	    free_objects != n->free_objects)
		problem(v, REPORT_SLAB_BAD_COUNTERS, NULL, NULL,
			"counters: node %d: %lu slabs, %lu free, %lu free objects; the lists hold %lu, %lu, %lu",
			nid, n->total_slabs, n->free_slabs, n->free_objects,
			full + partial + free, free, free_objects);
	validate_node_slabs(v, n, nid);
	validate_arrays(v, nid);
	spin_unlock(&n->list_lock);
}

int kmem_cache_validate(struct kmem_cache *cachep)
{
	struct validation v = { .cachep = cachep };
	struct kmem_cache_node *n;
	unsigned long flags;
	int nid;

	spin_lock_irqsave(&validate_lock, flags);
	for_each_kmem_cache_node(cachep, nid, n)
		validate_node(&v, nid);
	spin_unlock_irqrestore(&validate_lock, flags);
	return v.problems;
}

/* --- alloc and free ------------------------------------------------------ */

void *slab_debug_alloc(struct kmem_cache *cachep, gfp_t flags, int nid,
		       size_t orig_size, unsigned long caller)
{
	struct slab_problem p = { .cachep = cachep, .caller = caller };

	if (!orig_size || orig_size > cachep->object_size)
		orig_size = cachep->object_size;
	for (;;) {
		p.objp = cache_alloc_one(cachep, flags, nid);
		if (!p.objp)
			return NULL;
		atomic_long_inc(&slab_debug_checks);
		if (cachep->flags & SLAB_CONSISTENCY_CHECKS)
			check_slab(cachep, virt_to_slab(p.objp));
		if (regions_intact(&p, false, " while the object was free (write after free)",
				   "object quarantined, another one handed out",
				   false))
			break;
		quarantine(cachep, p.objp);
	}
	mark_allocated(cachep, p.objp, flags, orig_size, caller);
	return p.objp;
}

/* Is object idx free in its slab already? */
static bool free_in_slab(struct kmem_cache *cachep, struct slab *slab,
			 unsigned int idx)
{
	struct kmem_cache_node *n = get_node(cachep, slab_nid(slab));
	unsigned long flags;
	bool found;

	spin_lock_irqsave(&n->list_lock, flags);
	found = index_is_free(cachep, slab, idx);
	spin_unlock_irqrestore(&n->list_lock, flags);
	return found;
}

static bool red_zones_say_free(struct kmem_cache *cachep, void *objp)
{
	u8 *obj = objp;

	return cache_red_zoned(cachep) &&
	       !memchr_inv(obj - cachep->obj_offset, RED_INACTIVE,
			   cachep->obj_offset) &&
	       !memchr_inv(obj + cachep->object_size, RED_INACTIVE,
			   cachep->debug_offset - cachep->object_size);
}

/*
 * An object start of the slab, and not free already? NULL if so, else
 * the problem; p->objp is set to the object p->ptr points into, if any.
 */
static const char *object_problem(struct slab_problem *p, struct slab *slab)
{
	long idx = obj_index(p->cachep, slab, p->ptr);

	p->kind = REPORT_SLAB_OUTSIDE_OBJECTS;
	if (idx < 0)
		return "free of a pointer outside the slab's objects";
	p->objp = index_to_obj(p->cachep, slab, (unsigned int)idx);
	p->kind = REPORT_SLAB_INSIDE_OBJECT;
	if (p->objp != p->ptr)
		return "free of a pointer inside an object";
	p->kind = REPORT_SLAB_DOUBLE_FREE;
	if (red_zones_say_free(p->cachep, p->objp) ||
	    free_in_slab(p->cachep, slab, (unsigned int)idx))
		return "double free";
	return NULL;
}

/* Is this free of a real, allocated object of cachep? Reports if not. */
static bool free_ok(struct slab_problem *p)
{
	struct kmem_cache *cachep = p->cachep;
	struct slab *slab;
	const char *problem;
	char buf[96];

	slab = slab_of(p->ptr);
	if (!slab) {
		p->kind = REPORT_SLAB_NOT_SLAB;
		problem = "free of a pointer not from any slab";
	} else if (slab->slab_cache != cachep) {
		p->kind = REPORT_SLAB_WRONG_CACHE;
		snprintf(buf, sizeof(buf),
			 "free to the wrong cache: the object belongs to %s",
			 slab->slab_cache->name);
		problem = buf;
	} else if (slab_debug_quarantined(cachep, p->ptr)) {
		p->objp = (void *)p->ptr;
		p->kind = REPORT_SLAB_QUARANTINED;
		problem = "free of an object in quarantine (freed before, then written to)";
	} else {
		problem = object_problem(p, slab);
	}
	if (!problem)
		return true;
	slab_report(p, problem, "free ignored");
	return false;
}

void slab_debug_free(struct kmem_cache *cachep, void *objp,
		     unsigned long caller)
{
	struct slab_problem p = { .cachep = cachep, .ptr = objp,
				  .caller = caller };

	atomic_long_inc(&slab_debug_checks);
	if (!free_ok(&p))
		return;
	if (cachep->flags & SLAB_CONSISTENCY_CHECKS)
		check_slab(cachep, virt_to_slab(objp));
	regions_intact(&p, true, "", "red zone restored, object freed", true);
	if (slab_want_init_on_free(cachep))	/* red zones are outside */
		memset(objp, 0, cachep->object_size);
	mark_free(cachep, objp, caller);
	cache_free_one(cachep, objp);
}

bool slab_debug_ptr_ok(const void *objp, const char *what,
		       unsigned long caller)
{
	char problem[96];

	if (virt_addr_valid(objp))
		return true;
	snprintf(problem, sizeof(problem),
		 "%s of a pointer not from any slab (not in the direct map)",
		 what);
	slab_report_bad_ptr(objp, caller, REPORT_SLAB_WILD_POINTER, problem);
	return false;
}

/* --- lock assertions, proven by tests/test_lockdep.c ------------------- */

/*
 * A kmalloc object and its slab: healthy, so the checks find nothing to
 * report or drop. A small size, whose cache has a slab already (boot
 * allocates from it), so no page is taken. f picks the function.
 */
static __maybe_unused void
with_test_slab(void (*f)(struct kmem_cache *cachep, struct slab *slab))
{
	void *objp = kmalloc(16, GFP_KERNEL);

	if (objp)
		f(virt_to_slab(objp)->slab_cache, virt_to_slab(objp));
	kfree(objp);
}

static __maybe_unused void index_is_free_of(struct kmem_cache *cachep,
					struct slab *slab)
{
	index_is_free(cachep, slab, 0);
}

static __maybe_unused void index_is_free_unlocked(void)
{
	with_test_slab(index_is_free_of);
}
LOCKDEP_ASSERT_TEST(index_is_free, "&n->list_lock", index_is_free_unlocked);

static __maybe_unused void validate_freelist_of(struct kmem_cache *cachep,
					struct slab *slab)
{
	struct validation v = { .cachep = cachep };

	validate_freelist(&v, slab);
}

static __maybe_unused void validate_freelist_unlocked(void)
{
	with_test_slab(validate_freelist_of);
}
LOCKDEP_ASSERT_TEST(validate_freelist, "validate_lock",
		    validate_freelist_unlocked);

static __maybe_unused void validate_arrays_of(struct kmem_cache *cachep,
					struct slab *slab)
{
	struct validation v = { .cachep = cachep };

	validate_arrays(&v, slab_nid(slab));
}

static __maybe_unused void validate_arrays_unlocked(void)
{
	with_test_slab(validate_arrays_of);
}
LOCKDEP_ASSERT_TEST(validate_arrays, "&n->list_lock", validate_arrays_unlocked);

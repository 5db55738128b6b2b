// SPDX-License-Identifier: GPL-2.0
/*
 * The leak check: pages and slab objects in use, counted before and
 * after every case; a case that leaves more in use than it found fails,
 * and the failure names the caches that grew:
 *
 *	# <case>: leaked 3 slab objects (120 in use before, 123 after): kmalloc-64 +2, my_cache +1
 *
 * Memory the allocators keep for themselves is no leak: caches keep free
 * slabs and objects in per-CPU and shared arrays, and the page allocator
 * keeps pages on per-CPU lists, and vmalloc keeps freed areas (their
 * records, and on x86_64 emptied page-table pages) until a purge. So
 * both counts are taken with the allocators settled: the lazily freed
 * vmalloc areas purged, every cache shrunk (arrays drained, free slabs
 * returned) and the per-CPU page lists drained. What is left in use is
 * what someone holds. The slab count leaves out the allocator's own
 * objects (off-slab index arrays), so a case that frees all it
 * allocated finds both counts where they were, whatever sizes, caches
 * and order of frees it used. KASAN's shadow pages are left out too: a
 * backend that backs the shadow on demand (x86_64's, for vmalloc) keeps
 * them for good (arch_kasan_shadow_pages()); and so are the stack
 * depot's pools (lib/stackdepot.h), which are never given back.
 *
 * The per-cache breakdown is a static table (a case may be testing
 * allocation failure), keyed by the cache and by its name too: a cache
 * destroyed during the case may leave its struct kmem_cache to one
 * created after it. A cache created during the case counts from 0. The
 * table is one: a nested case (ktest_run_nested) replaces the outer
 * case's, and the outer failure then says so.
 */
#include "arch/arch.h"
#include "kernel/irq.h"
#include "kernel/rcupdate.h"
#include "lib/ktest/ktest_internal.h"
#include "lib/stackdepot.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/slab.h"
#include "mm/vmalloc.h"

#define LEAK_SNAP_CACHES	128
#define LEAK_SNAP_NAME		32
#define LEAK_GROWTH_SIZE	192

static struct leak_snap {
	const struct kmem_cache *cachep;
	char name[LEAK_SNAP_NAME];
	long in_use;
} leak_snap[LEAK_SNAP_CACHES];
static unsigned int leak_snap_nr;
static bool leak_snap_full;
static const struct ktest *leak_snap_owner;

/* Pages in use, less those KASAN's shadow and the stack depot keep. */
static long pages_in_use(void)
{
	struct stack_depot_stats depot;

	stack_depot_get_stats(&depot);
	return nr_allocated_pages() - (long)arch_kasan_shadow_pages() -
	       (long)depot.pages;
}

/* Give back what the allocators keep for themselves. */
static void settle_allocators(void)
{
	/* First: the purge frees records into a cache and tables as pages. */
	vm_unmap_aliases();
	kmem_cache_shrink_all();
	/* SLAB_TYPESAFE_BY_RCU pages and kfree_rcu() objects in flight. */
	if (rcu_pending_callbacks() && !irqs_disabled() && !in_hardirq())
		rcu_barrier();
	drain_all_pages();
}

static void snap_cache(struct kmem_cache *cachep, long in_use, void *data)
{
	struct leak_snap *e = &leak_snap[leak_snap_nr];

	(void)data;
	if (leak_snap_nr == LEAK_SNAP_CACHES) {
		leak_snap_full = true;
		return;
	}
	e->cachep = cachep;
	strscpy(e->name, kmem_cache_name(cachep), sizeof(e->name));
	e->in_use = in_use;
	leak_snap_nr++;
}

void ktest_leak_snapshot(const struct ktest *t,
			 struct ktest_leak_snapshot *snap)
{
	settle_allocators();
	snap->pages = pages_in_use();
	snap->objects = slab_objects_in_use();
	leak_snap_nr = 0;
	leak_snap_full = false;
	kmem_cache_walk(snap_cache, NULL);
	leak_snap_owner = t;
}

static long snapshot_in_use(const struct kmem_cache *cachep)
{
	const char *name = kmem_cache_name(cachep);

	for (unsigned int i = 0; i < leak_snap_nr; i++) {
		const struct leak_snap *e = &leak_snap[i];

		if (e->cachep == cachep &&
		    !strncmp(e->name, name, sizeof(e->name) - 1))
			return e->in_use;
	}
	return 0;
}

/* The breakdown of a leak, as ": part +2, other +1 (note)". */
struct leak_growth {
	char buf[LEAK_GROWTH_SIZE];
	size_t len;
	unsigned int parts;
	bool cut;		/* a part did not fit: ", ..." ends the list */
};

/* Truncated text fills the buffer (strscpy returns -E2BIG then). */
static void growth_append(struct leak_growth *g, const char *text)
{
	ssize_t n = strscpy(g->buf + g->len, text, sizeof(g->buf) - g->len);

	g->len += n < 0 ? sizeof(g->buf) - g->len - 1 : (size_t)n;
}

static void growth_note(struct leak_growth *g, const char *note)
{
	growth_append(g, " (");
	growth_append(g, note);
	growth_append(g, ")");
}

static void growth_add(struct kmem_cache *cachep, long in_use, void *data)
{
	static const char cut[] = ", ...";
	struct leak_growth *g = data;
	long delta = in_use - snapshot_in_use(cachep);
	char text[96];
	int n;

	if (delta <= 0 || g->cut)
		return;
	n = scnprintf(text, sizeof(text), "%s%s +%ld", g->parts ? ", " : ": ",
		      kmem_cache_name(cachep), delta);
	if (g->len + n + sizeof(cut) > sizeof(g->buf)) {
		growth_append(g, cut);
		g->cut = true;
		return;
	}
	growth_append(g, text);
	g->parts++;
}

static void describe_slab_growth(const struct ktest *t, struct leak_growth *g)
{
	if (leak_snap_owner != t) {
		growth_note(g, "no breakdown: a nested case replaced it");
		return;
	}
	kmem_cache_walk(growth_add, g);
	if (leak_snap_full)
		growth_note(g, "caches past the first 128 counted from 0");
}

void ktest_leak_check(struct ktest *t, const struct ktest_leak_snapshot *before)
{
	struct leak_growth g = { .len = 0 };
	long pages, objects;

	settle_allocators();
	pages = pages_in_use();
	objects = slab_objects_in_use();
	if (pages > before->pages)
		ktest_runner_fail(t, "leaked %ld pages (%ld in use before, %ld after)",
				  pages - before->pages, before->pages, pages);
	if (objects > before->objects) {
		describe_slab_growth(t, &g);
		ktest_runner_fail(t, "leaked %ld slab objects (%ld in use before, %ld after)%s",
				  objects - before->objects, before->objects,
				  objects, g.buf);
	}
}

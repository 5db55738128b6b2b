// SPDX-License-Identifier: GPL-2.0
/*
 * The page allocator per NUMA node (mm/page_alloc.c, mm/mm_init.c):
 *
 *  - every online node has a pg_data_t whose zones and span cover its
 *    memblock ranges, and whose pages carry its node id (page_to_nid);
 *  - zonelists: own zones first, then the other nodes by node_distance(),
 *    each node's zones from the highest down; the NOFALLBACK list holds
 *    the node's own zones only; on the 4-node SLIT of the QEMU NUMA boot
 *    (Makefile NUMA_4NODES) the order is checked against a table written
 *    by hand;
 *  - placement: alloc_pages_node() on each node at orders 0-3 gives pages
 *    of that node's memblock and SRAT (or numa=fake) ranges;
 *  - fallback: with a node exhausted, an allocation preferring it comes
 *    from the nearest node with memory, then the next nearest;
 *  - __GFP_THISNODE: NULL on an exhausted node, no other node's pages;
 *  - the numa_hit/miss/foreign/local/other counters move as Linux's do;
 *  - a CPU of a memoryless node allocates from its nearest node;
 *  - bad node ids: a warning and NULL;
 *  - after a drain every free page is on its own node's free lists and
 *    the per-node counts add up; deferred init grows each node on its own;
 *  - numastat, vmstat, zoneinfo and buddyinfo show every node.
 *
 * It needs more than one node to say much: the host runs it with
 * numa=fake=N, the QEMU NUMA boots with QEMU's SRAT and SLIT. On one
 * node the cases that need two skip.
 */
#include "arch/arch.h"
#include "arch/pgtable.h"
#include "kernel/bug.h"
#include "kernel/cpumask.h"
#include "kernel/irq.h"
#include "kernel/errno.h"
#include "kernel/report.h"
#include "kernel/shell.h"
#include "kernel/smp.h"
#include "lib/ktest/ktest.h"
#include "lib/list.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/internal.h"	/* white-box: nodes, zones, zonelists, pcp */
#include "mm/memblock.h"
#include "mm/mm.h"
#include "mm/numa.h"
#include "mm/util.h"
#include "mm/vmalloc.h"
#include "tests/mm_util.h"

/* What the tests exhaust nodes with: no reclaim, no report, no reserve. */
#define GFP_EXHAUST	(GFP_NOWAIT | __GFP_NORETRY | __GFP_NOWARN | \
			 __GFP_NOMEMALLOC)

static bool node_has_memory(int nid)
{
	return nid >= 0 && nid < MAX_NUMNODES && NODE_DATA(nid) &&
	       NODE_DATA(nid)->node_present_pages;
}

static unsigned int nodes_with_memory(void)
{
	unsigned int n = 0;

	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		n += node_has_memory(nid);
	return n;
}

static void need_nodes(struct ktest *t, unsigned int n)
{
	if (nodes_with_memory() < n)
		ktest_skip(t, "needs %u nodes with memory (numa=fake=N)", n);
}

/* Free pages on node nid's buddy lists. */
static unsigned long node_free_pages(int nid)
{
	unsigned long sum = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		sum += READ_ONCE(NODE_DATA(nid)->node_zones[z].free_pages);
	return sum;
}

/*
 * Does the topology (SRAT, numa=fake) put [pfn, pfn + n) on node nid,
 * and memblock too?
 */
static bool pfns_on_node(unsigned long pfn, unsigned long n, int nid)
{
	const struct numa_meminfo *mi = &numa_topology()->meminfo;

	for (unsigned long p = pfn; p < pfn + n; p++) {
		bool in_topology = false;

		for (int i = 0; i < mi->nr_blks; i++)
			in_topology |= mi->blk[i].nid == nid &&
				       PFN_PHYS(p) >= mi->blk[i].start &&
				       PFN_PHYS(p) < mi->blk[i].end;
		/* numa=off and one-node fallbacks leave meminfo empty */
		if ((mi->nr_blks && !in_topology) ||
		    memblock_pfn_to_nid(p) != nid)
			return false;
	}
	return true;
}

/*
 * Linux's node order, worked out here on its own: nid itself, then the
 * nodes with a pg_data_t nearest first, ties to the lower id. Returns
 * the count.
 */
static int expected_node_order(int nid, int *order)
{
	unsigned long used = 1UL << nid;
	int n = 0;

	order[n++] = nid;
	for (;;) {
		int best = -1;

		for (int o = 0; o < MAX_NUMNODES; o++) {
			if (!NODE_DATA(o) || (used & (1UL << o)))
				continue;
			if (best < 0 ||
			    node_distance(nid, o) < node_distance(nid, best))
				best = o;
		}
		if (best < 0)
			return n;
		used |= 1UL << best;
		order[n++] = best;
	}
}

/* The nearest node with memory to nid other than those in skip. */
static int nearest_other(int nid, unsigned long skip)
{
	int order[MAX_NUMNODES], n = expected_node_order(nid, order);

	for (int i = 0; i < n; i++) {
		if (!(skip & (1UL << order[i])) && node_has_memory(order[i]))
			return order[i];
	}
	return NUMA_NO_NODE;
}

/* --- holding pages ------------------------------------------------------ */

struct held {
	struct list_head list;
	unsigned long pages;
};

static void held_init(struct held *h)
{
	INIT_LIST_HEAD(&h->list);
	h->pages = 0;
}

static void hold(struct held *h, struct page *page, unsigned int order)
{
	page->private = order;
	list_add(&page->lru, &h->list);
	h->pages += 1UL << order;
}

static void held_free(struct held *h)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, &h->list, lru) {
		unsigned int order = (unsigned int)page->private;

		list_del(&page->lru);
		page->private = 0;
		__free_pages(page, order);
	}
	h->pages = 0;
}

/*
 * Take node nid's memory down to its watermarks: __GFP_THISNODE blocks
 * from the largest order down until none is left. Every page must be
 * nid's. Returns the pages taken.
 */
static unsigned long exhaust_node(struct ktest *t, int nid, struct held *h)
{
	unsigned long before = h->pages, wrong = 0;

	for (int order = MAX_ORDER - 1; order >= 0; order--) {
		struct page *page;

		while ((page = alloc_pages_node(nid, GFP_EXHAUST | __GFP_THISNODE,
						(unsigned int)order))) {
			wrong += page_to_nid(page) != nid;
			hold(h, page, (unsigned int)order);
		}
	}
	KTEST_EXPECT_EQ(t, wrong, 0UL);
	return h->pages - before;
}

/*
 * Exhaust again the nodes in mask: other CPUs' caches may have given
 * pages back to them since (cache_reap, drains), which would make an
 * "exhausted" node give. Right before a check that needs them empty.
 */
static void exhaust_again(struct ktest *t, unsigned long mask, struct held *h)
{
	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		if (mask & (1UL << nid))
			exhaust_node(t, nid, h);
}

/* --- structure ---------------------------------------------------------- */

/* Each online node's pg_data_t: its zones, span and pages are its own. */
static void test_node_data(struct ktest *t)
{
	unsigned long present = 0;
	unsigned int online = 0;

	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		struct pglist_data *pgdat = NODE_DATA(nid);
		unsigned long start = pgdat ? pgdat->node_start_pfn : 0;
		unsigned long bad = 0, node_present = 0;

		KTEST_EXPECT_EQ(t, node_online(nid), pgdat != NULL);
		if (!pgdat)
			continue;
		online++;
		KTEST_EXPECT_EQ(t, pgdat->node_id, nid);
		/* the pg_data_t lies on its node when the node has memory */
		if (pgdat->node_present_pages)
			KTEST_EXPECT_EQ(t, memblock_pfn_to_nid(virt_to_pfn(pgdat)),
					nid);
		for (int z = 0; z < MAX_NR_ZONES; z++) {
			struct zone *zone = &pgdat->node_zones[z];

			KTEST_EXPECT_PTR_EQ(t, zone->zone_pgdat, pgdat);
			node_present += zone->present_pages;
			if (!populated_zone(zone))
				continue;
			KTEST_EXPECT_GE(t, zone->zone_start_pfn, start);
			KTEST_EXPECT_LE(t, zone_end_pfn(zone),
					start + pgdat->node_spanned_pages);
			for (unsigned long pfn = zone->zone_start_pfn;
			     pfn < zone_end_pfn(zone); pfn++) {
				struct page *page = pfn_to_page(pfn);

				if (!pfn_valid(pfn) ||
				    memblock_pfn_to_nid(pfn) != nid ||
				    deferred_page(pfn))
					continue;
				bad += page_to_nid(page) != nid ||
				       page_zone(page) != zone;
			}
		}
		KTEST_EXPECT_EQ(t, bad, 0UL);
		KTEST_EXPECT_EQ(t, node_present, pgdat->node_present_pages);
		present += node_present;
	}
	KTEST_EXPECT_EQ(t, online, num_online_nodes());
	KTEST_EXPECT_EQ(t, present, PHYS_PFN(memblock_phys_mem_size()));
}

/*
 * Node nid's pfns in the page of mem_map at va (PAGE_SIZE of struct
 * pages): true if every RAM pfn there is nid's and there is one.
 */
static bool mem_map_page_of_node(unsigned long va, int nid)
{
	unsigned long first = (va - (unsigned long)vmemmap) / sizeof(struct page);
	bool any = false;

	for (unsigned long pfn = first;
	     pfn < first + PAGE_SIZE / sizeof(struct page); pfn++) {
		if (!pfn_valid(pfn))
			continue;
		if (memblock_pfn_to_nid(pfn) != nid)
			return false;
		any = true;
	}
	return any;
}

/*
 * mem_map is backed by each node's own memory (Linux's vmemmap_populate
 * on the node): every page of struct pages that describes RAM of one
 * node only lies in that node's RAM (by the firmware's ranges, as
 * memblock keeps them).
 */
static void test_mem_map_on_node(struct ktest *t)
{
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		struct pglist_data *pgdat = NODE_DATA(nid);
		unsigned long checked = 0, elsewhere = 0, end;

		if (!pgdat || !pgdat->node_present_pages)
			continue;
		end = pgdat->node_start_pfn + pgdat->node_spanned_pages;
		for (unsigned long va = (unsigned long)pfn_to_page(pgdat->node_start_pfn) & PAGE_MASK;
		     va < (unsigned long)pfn_to_page(end); va += PAGE_SIZE) {
			unsigned long pfn;
			pgprot_t prot;

			if (!mem_map_page_of_node(va, nid))
				continue;
			KTEST_ASSERT_TRUE(t, arch_lookup_kernel_page(va, &pfn, &prot));
			checked++;
			elsewhere += memblock_pfn_to_nid(pfn) != nid;
		}
		KTEST_EXPECT_GT(t, checked, 0UL);
		KTEST_EXPECT_EQ(t, elsewhere, 0UL);
	}
}

/* Zonelists: Linux's order, every populated zone once. */
static void test_zonelists(struct ktest *t)
{
	struct pglist_data *pgdat;

	for_each_online_pgdat(pgdat) {
		int order[MAX_NUMNODES], n = expected_node_order(pgdat->node_id, order);
		struct zone *want[MAX_NUMNODES * MAX_NR_ZONES + 1];
		struct zoneref *zl;
		int w = 0, i;

		for (i = 0; i < n; i++)
			for (int z = MAX_NR_ZONES - 1; z >= 0; z--)
				if (populated_zone(&NODE_DATA(order[i])->node_zones[z]))
					want[w++] = &NODE_DATA(order[i])->node_zones[z];
		want[w] = NULL;
		zl = pgdat->node_zonelists[ZONELIST_FALLBACK]._zonerefs;
		for (i = 0; i <= w; i++) {
			KTEST_EXPECT_PTR_EQ(t, zl[i].zone, want[i]);
			if (want[i])
				KTEST_EXPECT_EQ(t, zl[i].zone_idx,
						(int)zone_idx(want[i]));
		}
		zl = pgdat->node_zonelists[ZONELIST_NOFALLBACK]._zonerefs;
		for (i = 0; zl[i].zone; i++)
			KTEST_EXPECT_EQ(t, zone_to_nid(zl[i].zone), pgdat->node_id);
		w = 0;
		for (int z = 0; z < MAX_NR_ZONES; z++)
			w += populated_zone(&pgdat->node_zones[z]);
		KTEST_EXPECT_EQ(t, i, w);
	}
}

/*
 * The QEMU boot with NUMA_4NODES (node 3 without memory; 0->1 15,
 * 1->0 25, 0-2 30, 0-3 40, 1-2 18, 1-3 22, 2-3 12): the nodes each
 * zonelist visits, by hand from that SLIT.
 */
static void test_zonelists_4node_slit(struct ktest *t)
{
	static const int want[4][3] = {
		{ 0, 1, 2 }, { 1, 2, 0 }, { 2, 1, 0 }, { 2, 1, 0 },
	};

	if (num_online_nodes() != 4 || node_distance(0, 1) != 15 ||
	    node_distance(1, 0) != 25 || node_distance(2, 3) != 12 ||
	    node_has_memory(3))
		ktest_skip(t, "not the NUMA_4NODES topology");
	for (int nid = 0; nid < 4; nid++) {
		struct zoneref *zl =
			NODE_DATA(nid)->node_zonelists[ZONELIST_FALLBACK]._zonerefs;
		int seen = 0, last = -1;

		for (; zl->zone; zl++) {
			if (zone_to_nid(zl->zone) == last)
				continue;
			last = zone_to_nid(zl->zone);
			KTEST_ASSERT_LT(t, seen, 3);
			KTEST_EXPECT_EQ(t, last, want[nid][seen]);
			seen++;
		}
		KTEST_EXPECT_EQ(t, seen, 3);
	}
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (cpu_to_node(cpu) == 3)
			KTEST_EXPECT_EQ(t, cpu_to_mem(cpu), 2);
}

/* --- placement ------------------------------------------------------------ */

static void test_placement(struct ktest *t)
{
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		if (!node_has_memory(nid))
			continue;
		for (unsigned int order = 0; order <= PAGE_ALLOC_COSTLY_ORDER; order++) {
			struct page *pages[8];

			for (int i = 0; i < 8; i++) {
				pages[i] = alloc_pages_node(nid, GFP_KERNEL, order);
				KTEST_ASSERT_NOT_NULL(t, pages[i]);
				KTEST_EXPECT_EQ(t, page_to_nid(pages[i]), nid);
				KTEST_EXPECT_TRUE(t, pfns_on_node(page_to_pfn(pages[i]),
								  1UL << order, nid));
				KTEST_EXPECT_PTR_EQ(t, page_zone(pages[i])->zone_pgdat,
						    NODE_DATA(nid));
			}
			for (int i = 0; i < 8; i++)
				__free_pages(pages[i], order);
		}
	}
}

/* NUMA_NO_NODE and alloc_pages() are this CPU's memory node. */
static void test_local_node(struct ktest *t)
{
	unsigned long flags;
	struct page *a, *b;
	int mem;

	local_irq_save(flags);	/* stay on this CPU's numa_mem_id() */
	mem = numa_mem_id();
	a = alloc_pages_node(NUMA_NO_NODE, GFP_NOWAIT, 0);
	b = alloc_pages(GFP_NOWAIT, 2);
	local_irq_restore(flags);
	KTEST_EXPECT_EQ(t, numa_node_id(), cpu_to_node(arch_cpu_id()));
	KTEST_EXPECT_EQ(t, mem, cpu_to_mem(arch_cpu_id()));
	KTEST_ASSERT_NOT_NULL(t, a);
	KTEST_ASSERT_NOT_NULL(t, b);
	KTEST_EXPECT_EQ(t, page_to_nid(a), mem);
	KTEST_EXPECT_EQ(t, page_to_nid(b), mem);
	if (node_has_memory(numa_node_id()))
		KTEST_EXPECT_EQ(t, mem, numa_node_id());
	__free_pages(a, 0);
	__free_pages(b, 2);
}

/* --- exhaustion ------------------------------------------------------------ */

/*
 * Exhaust the nodes one after another in node a's fallback order: each
 * time, a plain allocation preferring a comes from the nearest node that
 * still has memory.
 */
static void test_fallback_slit_order(struct ktest *t)
{
	unsigned long done = 0;
	struct held h;

	need_nodes(t, 2);
	deferred_init_all();
	drain_all_pages();
	held_init(&h);
	for (int a = 0; a < MAX_NUMNODES; a++) {
		int next;

		if (!node_has_memory(a))
			continue;
		done = 0;
		while ((next = nearest_other(a, done)) != NUMA_NO_NODE) {
			struct page *page;

			exhaust_again(t, done, &h);
			page = alloc_pages_node(a, GFP_EXHAUST, 0);
			KTEST_ASSERT_NOT_NULL(t, page);
			KTEST_EXPECT_EQ(t, page_to_nid(page), next);
			hold(&h, page, 0);
			drain_all_pages();
			KTEST_EXPECT_GT(t, exhaust_node(t, next, &h), 0UL);
			done |= 1UL << next;
		}
		exhaust_again(t, done, &h);
		KTEST_EXPECT_NULL(t, alloc_pages_node(a, GFP_EXHAUST, 0));
		held_free(&h);
		drain_all_pages();
	}
}

/*
 * __GFP_THISNODE on an exhausted node: NULL at every order, and not a
 * page taken from another node; without it, the nearest node gives.
 */
static void test_thisnode_exhausted(struct ktest *t)
{
	unsigned long others[MAX_NUMNODES];
	struct held h;

	need_nodes(t, 2);
	deferred_init_all();
	held_init(&h);
	for (int a = 0; a < MAX_NUMNODES; a++) {
		struct page *page;

		if (!node_has_memory(a))
			continue;
		drain_all_pages();
		KTEST_EXPECT_GT(t, exhaust_node(t, a, &h), 0UL);
		drain_all_pages();
		for (int n = 0; n < MAX_NUMNODES; n++)
			others[n] = NODE_DATA(n) ? node_free_pages(n) : 0;
		exhaust_again(t, 1UL << a, &h);
		for (unsigned int order = 0; order < MAX_ORDER; order++)
			KTEST_EXPECT_NULL(t, alloc_pages_node(a, GFP_EXHAUST |
							      __GFP_THISNODE, order));
		/*
		 * With reclaim allowed: what reclaim gives back to a may
		 * serve it (the caches drained), but never another node.
		 */
		page = alloc_pages_node(a, GFP_KERNEL | __GFP_NOWARN |
					__GFP_THISNODE, 0);
		if (page) {
			KTEST_EXPECT_EQ(t, page_to_nid(page), a);
			__free_pages(page, 0);
		}
		drain_all_pages();
		for (int n = 0; n < MAX_NUMNODES; n++)
			if (n != a && NODE_DATA(n))
				KTEST_EXPECT_GE(t, node_free_pages(n), others[n]);
		exhaust_again(t, 1UL << a, &h);
		page = alloc_pages_node(a, GFP_EXHAUST, 0);
		KTEST_ASSERT_NOT_NULL(t, page);
		KTEST_EXPECT_EQ(t, page_to_nid(page), nearest_other(a, 1UL << a));
		__free_pages(page, 0);
		held_free(&h);
	}
	drain_all_pages();
}

/* --- counters ------------------------------------------------------------ */

/* This CPU's count of item on node nid (its pcp's, fast path included). */
static unsigned long my_numa_event(int nid, enum numa_stat_item item)
{
	unsigned int cpu = arch_cpu_id();
	bool local = cpu_to_node(cpu) == nid;
	unsigned long sum = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++) {
		const struct zone *zone = &NODE_DATA(nid)->node_zones[z];
		const struct per_cpu_pages *pcp = &zone->pcp[cpu];

		sum += zone->numa_events[cpu][item];
		if (item == NUMA_HIT || item == (local ? NUMA_LOCAL : NUMA_OTHER))
			sum += pcp_fast_hits(pcp);
	}
	return sum;
}

struct numa_counts {
	unsigned long v[MAX_NUMNODES][NR_VM_NUMA_EVENT_ITEMS];
};

static void my_counts(struct numa_counts *c)
{
	memset(c, 0, sizeof(*c));
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		if (!NODE_DATA(nid))
			continue;
		for (int i = 0; i < NR_VM_NUMA_EVENT_ITEMS; i++)
			c->v[nid][i] = my_numa_event(nid, (enum numa_stat_item)i);
	}
}

/*
 * Each counter of each node moved by exactly the expected amount between
 * before and after (this CPU's own counts: nothing else runs here with
 * interrupts off).
 */
static void expect_moved(struct ktest *t, const struct numa_counts *before,
			 const struct numa_counts *after,
			 const struct numa_counts *want)
{
	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		for (int i = 0; i < NR_VM_NUMA_EVENT_ITEMS; i++)
			if (after->v[nid][i] - before->v[nid][i] != want->v[nid][i])
				KTEST_FAIL(t, "node %d counter %d moved %lu, expected %lu",
					   nid, i, after->v[nid][i] - before->v[nid][i],
					   want->v[nid][i]);
}

/*
 * Local hits (fast and slow path), a remote __GFP_THISNODE hit, and a
 * miss on an exhausted node: hit, miss, foreign, local, other move as in
 * Linux's zone_statistics(); node_numa_event() sees at least as much.
 */
static void test_counters(struct ktest *t)
{
	static struct numa_counts before, after, want;
	unsigned long hit_before, hit_after;
	int local, remote, next;
	struct page *p[4];
	unsigned long flags;
	struct held h;

	need_nodes(t, 2);
	deferred_init_all();
	local_irq_save(flags);
	local = numa_mem_id();
	remote = nearest_other(local, 1UL << local);
	local_irq_restore(flags);

	/* local: one order-0 (the pcp fast path once warm), one order-5 */
	p[0] = alloc_pages_node(local, GFP_KERNEL, 0);	/* warm the list */
	__free_pages(p[0], 0);
	hit_before = node_numa_event(local, NUMA_HIT);
	local_irq_save(flags);
	my_counts(&before);
	p[0] = alloc_pages(GFP_NOWAIT, 0);
	p[1] = alloc_pages_node(local, GFP_NOWAIT, 5);
	my_counts(&after);
	local_irq_restore(flags);
	hit_after = node_numa_event(local, NUMA_HIT);
	memset(&want, 0, sizeof(want));
	want.v[local][NUMA_HIT] = 2;
	want.v[local][local == numa_node_id() ? NUMA_LOCAL : NUMA_OTHER] = 2;
	expect_moved(t, &before, &after, &want);
	KTEST_EXPECT_GE(t, hit_after - hit_before, 2UL);

	/* remote, preferred: a hit there, other_node */
	local_irq_save(flags);
	my_counts(&before);
	p[2] = alloc_pages_node(remote, GFP_NOWAIT | __GFP_THISNODE, 1);
	my_counts(&after);
	local_irq_restore(flags);
	memset(&want, 0, sizeof(want));
	want.v[remote][NUMA_HIT] = 1;
	want.v[remote][remote == numa_node_id() ? NUMA_LOCAL : NUMA_OTHER] = 1;
	expect_moved(t, &before, &after, &want);

	/* a miss: remote exhausted, its nearest gives */
	held_init(&h);
	drain_all_pages();
	exhaust_node(t, remote, &h);
	next = nearest_other(remote, 1UL << remote);
	local_irq_save(flags);
	exhaust_again(t, 1UL << remote, &h);
	my_counts(&before);
	p[3] = alloc_pages_node(remote, GFP_EXHAUST, 0);
	my_counts(&after);
	local_irq_restore(flags);
	KTEST_EXPECT_NOT_NULL(t, p[3]);
	memset(&want, 0, sizeof(want));
	want.v[next][NUMA_MISS] = 1;
	want.v[remote][NUMA_FOREIGN] = 1;
	want.v[next][next == numa_node_id() ? NUMA_LOCAL : NUMA_OTHER] = 1;
	expect_moved(t, &before, &after, &want);
	KTEST_EXPECT_EQ(t, node_numa_event(remote, NUMA_INTERLEAVE_HIT), 0UL);
	held_free(&h);

	KTEST_EXPECT_EQ(t, p[3] ? page_to_nid(p[3]) : -1, next);
	__free_pages(p[0], 0);
	__free_pages(p[1], 5);
	__free_pages(p[2], 1);
	if (p[3])
		__free_pages(p[3], 0);
}

/* --- memoryless nodes ------------------------------------------------------ */

struct on_cpu_alloc {
	int node, mem, page_nid;
	unsigned long other_before, other_after;
};

static void alloc_on_cpu(void *info)
{
	struct on_cpu_alloc *r = info;
	struct page *page;

	r->node = numa_node_id();
	r->mem = numa_mem_id();
	r->other_before = my_numa_event(r->mem, NUMA_OTHER);
	page = alloc_page(GFP_ATOMIC | __GFP_NOWARN);
	r->other_after = my_numa_event(r->mem, NUMA_OTHER);
	r->page_nid = page ? page_to_nid(page) : NUMA_NO_NODE;
	if (page)
		__free_page(page);
}

/*
 * Every CPU's memory node is its own if that has memory, else the
 * nearest node that has; an online CPU of a memoryless node allocates
 * there (counted as other_node).
 */
static void test_memoryless_node_cpu(struct ktest *t)
{
	unsigned int cpu, tried = 0;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		int node = cpu_to_node(cpu);
		int want = node_has_memory(node) ? node : nearest_other(node, 0);
		struct on_cpu_alloc r = { 0 };

		KTEST_EXPECT_EQ(t, cpu_to_mem(cpu), want);
		if (node_has_memory(node) || !cpu_online(cpu))
			continue;
		KTEST_ASSERT_EQ(t, smp_call_function_single(cpu, alloc_on_cpu,
							    &r, true), 0);
		KTEST_EXPECT_EQ(t, r.node, node);
		KTEST_EXPECT_EQ(t, r.mem, want);
		KTEST_EXPECT_EQ(t, r.page_nid, want);
		KTEST_EXPECT_EQ(t, r.other_after - r.other_before, 1UL);
		tried++;
	}
	if (!tried)
		ktest_skip(t, "no online CPU on a memoryless node");
}

/* --- bad input ------------------------------------------------------------ */

/* A node id out of range or offline: a warning each, and NULL. */
static void test_bad_nid(struct ktest *t)
{
	int bad[] = { MAX_NUMNODES, MAX_NUMNODES + 5, -2, -1000, -1 };
	unsigned int n = ARRAY_SIZE(bad) - 1;

	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		if (!node_online(nid)) {
			bad[n++] = nid;	/* the last slot: an offline node */
			break;
		}
	for (unsigned int i = 0; i < n; i++) {
		struct page *page;

		ktest_capture_start(t, "WARNING");
		page = alloc_pages_node(bad[i], GFP_KERNEL, 0);
		ktest_capture_stop(t);
		KTEST_EXPECT_NULL(t, page);
		KTEST_EXPECT_REPORTS(t, REPORT_WARN, 1);
		ktest_capture_start(t, "WARNING");
		page = __alloc_pages(GFP_KERNEL | __GFP_THISNODE, 1, bad[i]);
		ktest_capture_stop(t);
		KTEST_EXPECT_NULL(t, page);
		KTEST_EXPECT_REPORTS(t, REPORT_WARN, 1);
	}
}

/* --- drains and deferred init ------------------------------------------------ */

/*
 * Pages of every node allocated and freed from every CPU fill the CPUs'
 * lists of many zones; after a drain each node's free lists hold exactly
 * what they held before, every block on them is the node's, and the
 * per-node sums are nr_free_pages().
 */
static void pcp_churn(void *info)
{
	struct page *pages[MAX_NUMNODES][16];

	(void)info;
	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		for (int i = 0; i < 16; i++)
			pages[nid][i] = node_has_memory(nid) ?
				alloc_pages_node(nid, GFP_ATOMIC | __GFP_NOWARN,
						 (unsigned int)i % 4) : NULL;
	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		for (int i = 0; i < 16; i++)
			if (pages[nid][i])
				__free_pages(pages[nid][i], (unsigned int)i % 4);
}

static void test_drain_home_nodes(struct ktest *t)
{
	unsigned long before[MAX_NUMNODES] = { 0 }, sum = 0, wrong = 0;
	struct zone *zone;

	deferred_init_all();
	drain_all_pages();
	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		before[nid] = NODE_DATA(nid) ? node_free_pages(nid) : 0;
	on_each_cpu(pcp_churn, NULL, true);
	pcp_churn(NULL);
	KTEST_EXPECT_GT(t, nr_pcp_pages(), 0UL);
	drain_all_pages();
	KTEST_EXPECT_EQ(t, nr_pcp_pages(), 0UL);
	for_each_zone(zone) {
		unsigned long flags;

		spin_lock_irqsave(&zone->lock, flags);
		for (unsigned int o = 0; o < MAX_ORDER; o++) {
			struct page *page;

			list_for_each_entry(page, &zone->free_area[o].free_list, lru)
				wrong += page_zone(page) != zone ||
					 !pfns_on_node(page_to_pfn(page), 1,
						       zone_to_nid(zone)) ||
					 page_to_nid(page + (1UL << o) - 1) !=
						 zone_to_nid(zone);
		}
		spin_unlock_irqrestore(&zone->lock, flags);
		sum += zone->free_pages;
	}
	KTEST_EXPECT_EQ(t, wrong, 0UL);
	KTEST_EXPECT_EQ(t, sum, nr_free_pages());
	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		if (NODE_DATA(nid))
			KTEST_EXPECT_EQ(t, node_free_pages(nid), before[nid]);
}

/*
 * Deferred init per node: each node with a deferred part grows on its
 * own (deferred_init=SIZE makes small nodes defer), the new pages carry
 * the node's id, and the other nodes do not change.
 */
static void test_deferred_per_node(struct ktest *t)
{
	unsigned int grown = 0;

	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		struct pglist_data *pgdat = NODE_DATA(nid);
		unsigned long managed[MAX_NUMNODES] = { 0 }, first, end, bad = 0;
		struct zone *zone = NULL;

		if (!pgdat || READ_ONCE(pgdat->first_deferred_pfn) == ULONG_MAX)
			continue;
		first = pgdat->first_deferred_pfn;
		for (int z = 0; z < MAX_NR_ZONES; z++)
			if (zone_spans_pfn(&pgdat->node_zones[z], first))
				zone = &pgdat->node_zones[z];
		KTEST_ASSERT_NOT_NULL(t, zone);
		KTEST_EXPECT_GE(t, first, pgdat->node_start_pfn);
		for (int n = 0; n < MAX_NUMNODES; n++)
			managed[n] = NODE_DATA(n) ?
				NODE_DATA(n)->node_zones[MAX_NR_ZONES - 1].managed_pages +
				NODE_DATA(n)->node_zones[ZONE_DMA32].managed_pages : 0;
		KTEST_EXPECT_TRUE(t, deferred_grow_zone(zone, 0));
		end = READ_ONCE(pgdat->first_deferred_pfn);
		if (end == ULONG_MAX)
			end = zone_end_pfn(zone);
		KTEST_EXPECT_GT(t, end, first);
		for (unsigned long pfn = first; pfn < end; pfn++)
			if (pfn_valid(pfn) && memblock_pfn_to_nid(pfn) == nid)
				bad += page_to_nid(pfn_to_page(pfn)) != nid ||
				       page_zone(pfn_to_page(pfn)) != zone;
		KTEST_EXPECT_EQ(t, bad, 0UL);
		for (int n = 0; n < MAX_NUMNODES; n++) {
			unsigned long now;

			if (!NODE_DATA(n))
				continue;
			now = NODE_DATA(n)->node_zones[MAX_NR_ZONES - 1].managed_pages +
			      NODE_DATA(n)->node_zones[ZONE_DMA32].managed_pages;
			if (n == nid)
				KTEST_EXPECT_GT(t, now, managed[n]);
			else
				KTEST_EXPECT_EQ(t, now, managed[n]);
		}
		grown++;
	}
	if (!grown)
		ktest_skip(t, "no node has a deferred part (deferred_init=4M)");
}

/* --- what people read ---------------------------------------------------- */

/* Run a shell command line; its exit code. */
static int shell(const char *cmd)
{
	char line[64];

	strscpy(line, cmd, sizeof(line));
	return shell_exec(line);
}

/*
 * numastat (the numastat tool's table: a nodeN column per online node),
 * numastat N (nodeN/numastat's six lines, the counts node_numa_event()
 * has), vmstat's numa_* lines, and buddyinfo and zoneinfo naming every
 * node's zones.
 */
static void test_shell_commands(struct ktest *t)
{
	struct pglist_data *pgdat;
	char want[64];
	unsigned int n;

	ktest_capture_start(t, "numa_");
	KTEST_EXPECT_EQ(t, shell("numastat"), 0);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 3U);	/* hit, miss, foreign */
	for_each_online_pgdat(pgdat) {
		snprintf(want, sizeof(want), "node%d", pgdat->node_id);
		KTEST_EXPECT_CAPTURED(t, want);
	}
	KTEST_EXPECT_CAPTURED(t, "interleave_hit ");
	KTEST_EXPECT_CAPTURED(t, "local_node ");
	KTEST_EXPECT_CAPTURED(t, "other_node ");

	for_each_online_pgdat(pgdat) {
		snprintf(want, sizeof(want), "numastat %d", pgdat->node_id);
		ktest_capture_start(t, NULL);
		KTEST_EXPECT_EQ(t, shell(want), 0);
		KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 6U);
		/* a count that cannot move while this runs */
		snprintf(want, sizeof(want), "numa_foreign %lu\n",
			 node_numa_event(pgdat->node_id, NUMA_FOREIGN));
		KTEST_EXPECT_CAPTURED(t, want);
		KTEST_EXPECT_CAPTURED(t, "interleave_hit 0\n");
	}
	ktest_capture_start(t, "numastat: no node");
	KTEST_EXPECT_EQ(t, shell("numastat 8"), -EINVAL);
	KTEST_EXPECT_EQ(t, shell("numastat x"), -EINVAL);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 2U);

	ktest_capture_start(t, "numa_");
	KTEST_EXPECT_EQ(t, shell("vmstat"), 0);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 6U);
	KTEST_EXPECT_CAPTURED(t, "numa_interleave 0\n");
	KTEST_EXPECT_CAPTURED(t, "numa_other ");

	ktest_capture_start(t, ", zone ");
	KTEST_EXPECT_EQ(t, shell("zoneinfo"), 0);
	n = ktest_capture_stop(t);
	KTEST_EXPECT_EQ(t, n, num_online_nodes() * MAX_NR_ZONES);
	for_each_online_pgdat(pgdat) {
		snprintf(want, sizeof(want), "Node %d, zone   Normal", pgdat->node_id);
		KTEST_EXPECT_CAPTURED(t, want);
	}
	ktest_capture_start(t, ", zone ");
	KTEST_EXPECT_EQ(t, shell("buddyinfo"), 0);
	ktest_capture_stop(t);
	for_each_online_pgdat(pgdat) {
		if (!pgdat->node_present_pages)
			continue;
		snprintf(want, sizeof(want), "Node %d, zone ", pgdat->node_id);
		KTEST_EXPECT_CAPTURED(t, want);
	}
}

/* Pages of the vmalloc area p of size bytes not on node nid. */
static unsigned int pages_off_node(const void *p, unsigned long size, int nid)
{
	unsigned int off = 0;

	for (unsigned long o = 0; o < size; o += PAGE_SIZE)
		off += page_to_nid(vmalloc_to_page((const char *)p + o)) != nid;
	return off;
}

static bool all_zero(const u8 *p, unsigned long size)
{
	for (unsigned long i = 0; i < size; i++)
		if (p[i])
			return false;
	return true;
}

/*
 * vmalloc_node(), vzalloc_node() and kvmalloc_node()'s vmalloc path put
 * every page of the area on the node asked for.
 */
static void test_vmalloc_node_placement(struct ktest *t)
{
	const unsigned long size = 16 * PAGE_SIZE, big = SZ_4M + PAGE_SIZE;

	need_nodes(t, 2);
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		void *v, *z, *kv;

		if (!node_has_memory(nid))
			continue;
		v = vmalloc_node(size, nid);
		z = vzalloc_node(size, nid);
		kv = kvmalloc_node(big, GFP_KERNEL, nid);	/* above 4 MiB: vmalloc */
		KTEST_EXPECT_NOT_NULL(t, v);
		KTEST_EXPECT_NOT_NULL(t, z);
		KTEST_EXPECT_NOT_NULL(t, kv);
		if (v)
			KTEST_EXPECT_EQ(t, pages_off_node(v, size, nid), 0U);
		if (z) {
			KTEST_EXPECT_EQ(t, pages_off_node(z, size, nid), 0U);
			KTEST_EXPECT_TRUE(t, all_zero(z, size));
		}
		if (kv) {
			KTEST_EXPECT_TRUE(t, is_vmalloc_addr(kv));
			KTEST_EXPECT_EQ(t, pages_off_node(kv, big, nid), 0U);
		}
		vfree(v);
		vfree(z);
		kvfree(kv);
	}
}

static const struct ktest_case page_alloc_numa_cases[] = {
	KTEST_CASE(test_node_data),
	KTEST_CASE(test_mem_map_on_node),
	KTEST_CASE(test_zonelists),
	KTEST_CASE(test_zonelists_4node_slit),
	KTEST_CASE(test_deferred_per_node),
	KTEST_CASE(test_placement),
	KTEST_CASE(test_local_node),
	KTEST_CASE(test_fallback_slit_order),
	KTEST_CASE(test_thisnode_exhausted),
	KTEST_CASE(test_counters),
	KTEST_CASE(test_memoryless_node_cpu),
	KTEST_CASE(test_bad_nid),
	KTEST_CASE(test_drain_home_nodes),
	KTEST_CASE(test_vmalloc_node_placement),
	KTEST_CASE(test_shell_commands),
	{}
};
KTEST_SUITE(page_alloc_numa, page_alloc_numa_cases);

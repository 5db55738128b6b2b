// SPDX-License-Identifier: GPL-2.0
/*
 * SLAB on several NUMA nodes (mm/slab.c, section 8): run with numa=fake=N
 * on the host, and in the QEMU NUMA boots; on one node every case skips.
 *
 *  - placement: kmem_cache_alloc_node() and kmalloc_node() at every
 *    kmalloc size class, and a large kmalloc_node(), on every node with
 *    memory give objects whose page_to_nid() is that node, on that
 *    node's lists;
 *  - fallback: a node exhausted (its pages all held) gives NULL with
 *    __GFP_THISNODE, and without it an object of the nearest node;
 *  - remote frees: objects of node 0 freed on a CPU of another node go
 *    through that node's alien array for node 0 (remotefrees counts
 *    each, alienoverflow each full array sent home), never onto the
 *    other node's lists; a local free on that CPU still lands in its
 *    per-CPU array; shrink and cache_reap send the alien arrays home;
 *  - bad input: a node id out of range is a WARNING and the local node;
 *    an offline node falls back to the nearest (NULL with
 *    __GFP_THISNODE), as Linux's fallback_alloc;
 *  - torture: every CPU allocates on every node and hands its objects
 *    to a CPU of another node, which checks and frees them, for
 *    torture_ms milliseconds.
 *
 * After each case the framework's leak check finds every object and page
 * back (slab_objects_in_use() counts the alien arrays as cached).
 */
#include "arch/arch.h"
#include "kernel/cpumask.h"
#include "kernel/errno.h"
#include "kernel/report.h"
#include "kernel/time.h"
#include "lib/ktest/ktest.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/internal.h"	/* deferred_init_all() */
#include "mm/numa.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"	/* white-box: nodes, alien arrays */
#include "mm/slab_reap.h"
#include "tests/mm_util.h"
#include "tests/torture.h"

#define NUMA_TORTURE_RING	64
#define NUMA_TORTURE_STRIDE	32
#define NR_REMOTE		41	/* 3 full alien arrays and 5 more */

/* Does the page allocator give node nid's own pages (placement possible)? */
static bool node_has_memory(int nid)
{
	struct page *page = alloc_pages_node(nid, __GFP_THISNODE |
					     __GFP_NOWARN | __GFP_NORETRY, 0);
	bool ok = page && page_to_nid(page) == nid;

	if (page)
		__free_pages(page, 0);
	return ok;
}

/* Skip on one node, or when page_to_nid() cannot tell the nodes apart. */
static void need_nodes(struct ktest *t)
{
	int with_memory = 0;

	if (num_online_nodes() < 2)
		ktest_skip(t, "one NUMA node (numa=fake=2 on the host)");
	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		with_memory += node_online(nid) && node_has_memory(nid);
	if (with_memory < 2)
		ktest_skip(t, "fewer than two nodes with memory of their own");
}

/* An online CPU other than this one whose memory node is nid, or -1. */
static int cpu_on_node(int nid)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		if (cpu != arch_cpu_id() && cpu_to_mem(cpu) == nid)
			return (int)cpu;
	return -1;
}

static struct kmem_cache *numa_cache(struct ktest *t, const char *name,
				     unsigned int size)
{
	struct kmem_cache *c = kmem_cache_create(name, size, 0, 0, NULL);

	KTEST_ASSERT_NOT_NULL(t, c);
	return c;
}

/* The objects of a node's slabs, not free in them. */
static unsigned long node_out(struct kmem_cache *c, int nid)
{
	struct kmem_cache_node *n = get_node(c, nid);

	return n->total_slabs * c->num - n->free_objects;
}

static unsigned long shared_avail(struct kmem_cache *c, int nid)
{
	struct array_cache *shared = get_node(c, nid)->shared;

	return shared ? shared->avail : 0;
}

/* --- the nodes ------------------------------------------------------------ */

static void test_every_online_node_has_lists(struct ktest *t)
{
	struct kmem_cache *c = numa_cache(t, "numa-lists", 64);
	struct kmem_cache *k = kmalloc_slab(64, 0);

	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		KTEST_EXPECT_EQ(t, get_node(c, nid) != NULL, node_online(nid));
		KTEST_EXPECT_EQ(t, get_node(k, nid) != NULL, node_online(nid));
		if (!get_node(c, nid) || num_online_nodes() < 2)
			continue;
		/* An alien array for every other node, none for its own. */
		for (int home = 0; home < MAX_NUMNODES; home++)
			KTEST_EXPECT_EQ(t, get_node(c, nid)->alien[home] != NULL,
					home != nid && node_online(home));
	}
	kmem_cache_destroy(c);
}

/* --- placement ------------------------------------------------------------ */

static void test_cache_alloc_node_placement(struct ktest *t)
{
	struct kmem_cache *c;
	void *objs[80];

	need_nodes(t);
	c = numa_cache(t, "numa-place", 256);
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		if (!node_online(nid) || !node_has_memory(nid))
			continue;
		/* More than a slab's worth: the node grows more than once. */
		for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++) {
			objs[i] = kmem_cache_alloc_node(c, GFP_KERNEL, nid);
			KTEST_ASSERT_NOT_NULL(t, objs[i]);
			KTEST_EXPECT_EQ(t, page_to_nid(virt_to_page(objs[i])), nid);
		}
		KTEST_EXPECT_GE(t, node_out(c, nid), (unsigned long)ARRAY_SIZE(objs));
		KTEST_EXPECT_EQ(t, kmem_cache_validate(c), 0);
		for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++)
			kmem_cache_free(c, objs[i]);
	}
	kmem_cache_destroy(c);
}

#define NR_KMALLOC_CLASSES	28

static void test_kmalloc_node_every_class(struct ktest *t)
{
	need_nodes(t);
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		unsigned int classes = 0;
		size_t size = 1;

		if (!node_online(nid) || !node_has_memory(nid))
			continue;
		while (size <= KMALLOC_MAX_CACHE_SIZE) {
			struct kmem_cache *k = kmalloc_slab(size, 0);
			void *p = kmalloc_node(size, GFP_KERNEL, nid);

			KTEST_ASSERT_NOT_NULL(t, p);
			KTEST_EXPECT_EQ(t, page_to_nid(virt_to_page(p)), nid);
			KTEST_EXPECT_PTR_EQ(t, virt_to_slab(p)->slab_cache, k);
			kfree(p);
			classes++;
			size = k->object_size + 1;	/* the next class */
		}
		/* Beyond the classes: pages of the node. */
		{
			void *p = kmalloc_node(4 * KMALLOC_MAX_CACHE_SIZE,
					       GFP_KERNEL, nid);

			KTEST_ASSERT_NOT_NULL(t, p);
			KTEST_EXPECT_EQ(t, page_to_nid(virt_to_page(p)), nid);
			kfree(p);
		}
		KTEST_EXPECT_EQ(t, classes, NR_KMALLOC_CLASSES);
	}
}

/* --- fallback ------------------------------------------------------------- */

/*
 * Every page of node nid, held; the node is then exhausted. All of its
 * RAM first (deferred init would grow it on demand), and twice over:
 * what reclaim gave back during the first pass goes too.
 */
static struct hog *hog_node(int nid)
{
	struct hog *head = NULL;

	deferred_init_all();
	/* Reclaiming as a slab's grow may (gfp_exact_node()). */
	for (int pass = 0; pass < 2; pass++)
		head = hog_pages(head, __GFP_THISNODE, nid);
	return head;
}

static void test_exhausted_node_thisnode_and_fallback(struct ktest *t)
{
	int order[MAX_NUMNODES], nid = -1;
	struct kmem_cache *c;
	struct hog *held;
	void *p, *q, *r;

	need_nodes(t);
	/* The last node with memory; its nearest other node takes over. */
	for (int i = 0; i < MAX_NUMNODES; i++)
		if (node_online(i) && node_has_memory(i))
			nid = i;
	numa_nodes_by_distance(nid, order);
	KTEST_ASSERT_EQ(t, order[0], nid);
	c = numa_cache(t, "numa-exhaust", 512);
	kmem_cache_shrink_all();
	held = hog_node(nid);
	KTEST_EXPECT_NOT_NULL(t, held);
	p = kmem_cache_alloc_node(c, GFP_KERNEL | __GFP_THISNODE, nid);
	/* Large: straight from the page allocator, on that node only. */
	q = kmalloc_node(4 * KMALLOC_MAX_CACHE_SIZE,
			 GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN, nid);
	r = kmem_cache_alloc_node(c, GFP_KERNEL, nid);
	release_memory(held);
	KTEST_EXPECT_NULL(t, p);
	KTEST_EXPECT_NULL(t, q);
	KTEST_ASSERT_NOT_NULL(t, r);
	/* Not the exhausted node: the nearest with memory. */
	KTEST_EXPECT_NE(t, page_to_nid(virt_to_page(r)), nid);
	for (int i = 1; i < MAX_NUMNODES && order[i] != nid; i++) {
		if (node_has_memory(order[i])) {
			KTEST_EXPECT_EQ(t, page_to_nid(virt_to_page(r)), order[i]);
			break;
		}
	}
	kmem_cache_free(c, r);
	kfree(q);
	kmem_cache_free(c, p);
	kmem_cache_destroy(c);
}

/* --- remote frees --------------------------------------------------------- */

struct remote_free {
	struct kmem_cache *cachep;	/* NULL: kfree */
	void **objs;
	unsigned int nr;
	int nid;			/* numa_mem_id() where it ran */
	unsigned int avail_before, avail_after;
	void *top, *obj;
};

static void free_there(void *arg)
{
	struct remote_free *rf = arg;

	rf->nid = numa_mem_id();
	for (unsigned int i = 0; i < rf->nr; i++) {
		if (rf->cachep)
			kmem_cache_free(rf->cachep, rf->objs[i]);
		else
			kfree(rf->objs[i]);
	}
}

static void run_on(struct ktest *t, int cpu, void (*fn)(void *), void *arg)
{
	int err = arch_cpu_run((unsigned int)cpu, fn, arg);

	if (err == -ENOSYS)
		ktest_skip(t, "this arch runs no work on other CPUs");
	KTEST_ASSERT_EQ(t, err, 0);
	arch_cpu_join((unsigned int)cpu);
}

/* A CPU of node 1's memory node other than node 0; skips if none. */
static int remote_cpu(struct ktest *t, int *nid)
{
	for (int i = 1; i < MAX_NUMNODES; i++) {
		int cpu;

		if (!node_online(i) || !node_has_memory(i))
			continue;
		cpu = cpu_on_node(i);
		if (cpu >= 0) {
			*nid = i;
			return cpu;
		}
	}
	ktest_skip(t, "no CPU on a node other than 0 with memory");
	return -1;
}

static void test_remote_free_through_alien(struct ktest *t)
{
	struct remote_free rf = { 0 };
	struct kmem_cache *c;
	struct slab_stats st;
	struct alien_cache *alien;
	void *objs[NR_REMOTE];
	int cpu, nid;
	bool was;

	/* Skipped before statistics go on: a skip would leave them on. */
	need_nodes(t);
	skip_if_kasan_quarantine(t);
	cpu = remote_cpu(t, &nid);
	was = slab_stats_set(true);
	c = numa_cache(t, "numa-remote", 128);
	for (unsigned int i = 0; i < NR_REMOTE; i++) {
		objs[i] = kmem_cache_alloc_node(c, GFP_KERNEL, 0);
		KTEST_ASSERT_NOT_NULL(t, objs[i]);
		KTEST_EXPECT_EQ(t, page_to_nid(virt_to_page(objs[i])), 0);
	}
	rf = (struct remote_free){ .cachep = c, .objs = objs, .nr = NR_REMOTE };
	run_on(t, cpu, free_there, &rf);
	KTEST_EXPECT_EQ(t, rf.nid, nid);
	kmem_cache_get_stats(c, &st);
	slab_stats_set(was);
	KTEST_EXPECT_EQ(t, st.remote_frees, (unsigned long)NR_REMOTE);
	alien = get_node(c, nid)->alien[0];
	KTEST_ASSERT_NOT_NULL(t, alien);
	/* A full array goes home when the next object comes. */
	KTEST_EXPECT_EQ(t, st.alien_overflow,
			(unsigned long)((NR_REMOTE - 1) / alien->ac.limit));
	KTEST_EXPECT_EQ(t, alien->ac.avail,
			(unsigned int)(NR_REMOTE - st.alien_overflow *
				       alien->ac.limit));
	/* Nothing of node 0 on the other node's lists. */
	KTEST_EXPECT_EQ(t, get_node(c, nid)->total_slabs, 0UL);
	KTEST_EXPECT_EQ(t, kmem_cache_validate(c), 0);
	/* Shrink sends the rest home: every slab goes, on every node. */
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
	KTEST_EXPECT_EQ(t, alien->ac.avail, 0U);
	KTEST_EXPECT_EQ(t, get_node(c, 0)->total_slabs, 0UL);
	kmem_cache_destroy(c);
}

/* kfree's node check, statistics off: the other node's object waits. */
static void test_kfree_remote_and_local(struct ktest *t)
{
	struct remote_free rf = { 0 };
	struct kmem_cache *k = kmalloc_slab(96, 0);
	struct alien_cache *alien;
	void *objs[3];
	unsigned int before;
	int cpu, nid;

	need_nodes(t);
	skip_if_kasan_quarantine(t);
	cpu = remote_cpu(t, &nid);
	KTEST_ASSERT_FALSE(t, slab_stats_on());
	alien = get_node(k, nid)->alien[0];
	KTEST_ASSERT_NOT_NULL(t, alien);
	drain_alien_caches(k, get_node(k, nid));
	for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++) {
		objs[i] = kmalloc_node(96, GFP_KERNEL, 0);
		KTEST_ASSERT_NOT_NULL(t, objs[i]);
	}
	rf = (struct remote_free){ .objs = objs, .nr = ARRAY_SIZE(objs) };
	before = alien->ac.avail;
	run_on(t, cpu, free_there, &rf);
	KTEST_EXPECT_EQ(t, alien->ac.avail, before + 3);
	KTEST_EXPECT_PTR_EQ(t, alien->ac.entry[alien->ac.avail - 1], objs[2]);
	drain_alien_caches(k, get_node(k, nid));
	KTEST_EXPECT_EQ(t, alien->ac.avail, 0U);
}

/* A local free on that CPU: into its own per-CPU array, on top. */
static void alloc_free_local(void *arg)
{
	struct remote_free *rf = arg;
	struct array_cache *ac = cpu_cache_get(rf->cachep);
	void *p = kmalloc(192, GFP_KERNEL);

	rf->nid = numa_mem_id();
	if (!p)
		return;
	rf->avail_before = ac->avail;
	kfree(p);
	rf->avail_after = ac->avail;
	rf->top = ac->avail ? ac->entry[ac->avail - 1] : NULL;
	/* Give it back the same way, leaving the array as it was. */
	kfree(kmalloc(192, GFP_KERNEL));
	rf->obj = p;
}

static void test_local_free_stays_on_cpu(struct ktest *t)
{
	struct remote_free rf = { .cachep = kmalloc_slab(192, 0) };
	int cpu, nid;

	need_nodes(t);
	skip_if_kasan_quarantine(t);
	cpu = remote_cpu(t, &nid);
	run_on(t, cpu, alloc_free_local, &rf);
	KTEST_EXPECT_EQ(t, rf.nid, nid);
	KTEST_ASSERT_NOT_NULL(t, rf.obj);
	KTEST_EXPECT_EQ(t, page_to_nid(virt_to_page(rf.obj)), nid);
	KTEST_EXPECT_EQ(t, rf.avail_after, rf.avail_before + 1);
	KTEST_EXPECT_PTR_EQ(t, rf.top, rf.obj);
}

/* cache_reap's node pass sends a node's alien arrays home. */
static void test_reap_sends_aliens_home(struct ktest *t)
{
	struct cache_reap_result r = { 0 };
	struct remote_free rf = { 0 };
	struct kmem_cache *c;
	unsigned long out;
	void *objs[5];
	int cpu, nid;

	need_nodes(t);
	skip_if_kasan_quarantine(t);
	cpu = remote_cpu(t, &nid);
	c = numa_cache(t, "numa-reap", 64);
	for (unsigned int i = 0; i < ARRAY_SIZE(objs); i++) {
		objs[i] = kmem_cache_alloc_node(c, GFP_KERNEL, 0);
		KTEST_ASSERT_NOT_NULL(t, objs[i]);
	}
	rf = (struct remote_free){ .cachep = c, .objs = objs,
				   .nr = ARRAY_SIZE(objs) };
	run_on(t, cpu, free_there, &rf);
	/*
	 * Out of node 0's slabs and shared array: the 5, and this CPU's
	 * array's batch. Home, they top up the shared array first.
	 */
	out = node_out(c, 0) - shared_avail(c, 0);
	KTEST_EXPECT_EQ(t, get_node(c, nid)->alien[0]->ac.avail, 5U);
	cache_reap_one(c, &r, 1);
	KTEST_EXPECT_EQ(t, get_node(c, nid)->alien[0]->ac.avail, 0U);
	KTEST_EXPECT_EQ(t, node_out(c, 0) - shared_avail(c, 0), out - 5);
	kmem_cache_destroy(c);
}

/* --- bad input ------------------------------------------------------------ */

static void test_bad_node_ids(struct ktest *t)
{
	int offline = -1;
	void *p, *q;

	/* Out of range: a WARNING each, then the local node. */
	ktest_capture_start(t, "WARNING:");
	p = kmalloc_node(64, GFP_KERNEL, MAX_NUMNODES);
	q = kmalloc_node(64, GFP_KERNEL, -5);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 2U);
	KTEST_EXPECT_REPORTS(t, REPORT_WARN, 2);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_ASSERT_NOT_NULL(t, q);
	KTEST_EXPECT_EQ(t, page_to_nid(virt_to_page(p)), numa_mem_id());
	KTEST_EXPECT_EQ(t, page_to_nid(virt_to_page(q)), numa_mem_id());
	kfree(p);
	kfree(q);
	/* Offline: the nearest node, silently; NULL if it alone will do. */
	for (int nid = MAX_NUMNODES - 1; nid >= 0 && offline < 0; nid--)
		if (!node_online(nid))
			offline = nid;
	if (offline < 0)
		return;
	ktest_capture_start(t, "WARNING:");
	p = kmalloc_node(64, GFP_KERNEL, offline);
	q = kmalloc_node(64, GFP_KERNEL | __GFP_THISNODE, offline);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_EQ(t, page_to_nid(virt_to_page(p)), numa_mem_id());
	KTEST_EXPECT_NULL(t, q);
	kfree(p);
}

/* --- torture -------------------------------------------------------------- */

struct numa_item {
	void *ptr;
	unsigned int size;
	int nid;		/* asked for, or NUMA_NO_NODE */
	u8 stamp;
};

struct numa_ring {
	struct numa_item item[NUMA_TORTURE_RING];
	unsigned long head __aligned(64);
	unsigned long tail __aligned(64);
};

struct numa_tcpu {
	unsigned int cpu;
	struct numa_ring *out, *in;
	u64 deadline;
	unsigned long produced, consumed, failed, bad, misplaced, remote;
	bool done;
	u64 rng;
} __aligned(64);

static struct numa_ring numa_rings[NR_CPUS];
static struct numa_tcpu numa_cpus[NR_CPUS];
static unsigned long numa_mem_mask;	/* nodes with memory of their own */

static u64 numa_rand(struct numa_tcpu *nc)
{
	nc->rng ^= nc->rng << 13;
	nc->rng ^= nc->rng >> 7;
	nc->rng ^= nc->rng << 17;
	return nc->rng;
}

static bool numa_produce(struct numa_tcpu *nc)
{
	struct numa_ring *r = nc->out;
	unsigned long head = r->head;
	struct numa_item *it;
	u64 v = numa_rand(nc);
	int nid = (int)(v % (MAX_NUMNODES + 1)) - 1;

	if (head - __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) >= NUMA_TORTURE_RING)
		return false;
	if (nid >= 0 && !node_online(nid))
		nid = NUMA_NO_NODE;
	it = &r->item[head % NUMA_TORTURE_RING];
	it->size = 1 + (unsigned int)((v >> 8) % (v & 0x100 ? 8192 : 256));
	it->nid = nid;
	it->stamp = (u8)(v >> 24);
	it->ptr = kmalloc_node(it->size, GFP_KERNEL | __GFP_NOWARN, nid);
	if (!it->ptr) {
		nc->failed++;
		return true;
	}
	if (nid >= 0 && (numa_mem_mask & (1UL << nid)) &&
	    page_to_nid(virt_to_page(it->ptr)) != nid)
		nc->misplaced++;
	for (unsigned int i = 0; i < it->size; i += NUMA_TORTURE_STRIDE)
		((u8 *)it->ptr)[i] = it->stamp;
	__atomic_store_n(&r->head, head + 1, __ATOMIC_RELEASE);
	nc->produced++;
	return true;
}

static bool numa_consume(struct numa_tcpu *nc)
{
	struct numa_ring *r = nc->in;
	unsigned long tail = r->tail;
	struct numa_item *it;

	if (tail == __atomic_load_n(&r->head, __ATOMIC_ACQUIRE))
		return false;
	it = &r->item[tail % NUMA_TORTURE_RING];
	for (unsigned int i = 0; i < it->size; i += NUMA_TORTURE_STRIDE)
		nc->bad += ((u8 *)it->ptr)[i] != it->stamp;
	nc->remote += page_to_nid(virt_to_page(it->ptr)) != numa_mem_id();
	kfree(it->ptr);
	__atomic_store_n(&r->tail, tail + 1, __ATOMIC_RELEASE);
	nc->consumed++;
	return true;
}

/* Produce until the deadline, then drain what the neighbour sent. */
static void numa_worker(void *arg)
{
	struct numa_tcpu *nc = arg;
	struct numa_tcpu *prev;

	while (arch_clock_ns() < nc->deadline) {
		bool moved = numa_produce(nc);

		moved |= numa_consume(nc);
		if (!moved)
			arch_cpu_relax();
	}
	WRITE_ONCE(nc->done, true);
	prev = &numa_cpus[(nc->cpu + nr_cpu_ids - 1) % nr_cpu_ids];
	/* Bounded: the neighbour stops producing at the same deadline. */
	for (;;) {
		bool prev_done = READ_ONCE(prev->done);

		while (numa_consume(nc))
			;
		if (prev_done && READ_ONCE(nc->in->head) == nc->in->tail)
			break;
		if (arch_clock_ns() > nc->deadline + 60ULL * NSEC_PER_SEC)
			break;	/* the join then finds items left: a failure */
		arch_cpu_relax();
	}
}

/*
 * A circle of the CPUs in order: numa=fake and the QEMU boots deal the
 * CPUs to the nodes round robin, or in blocks, so most neighbours are
 * on another node (the case checks some frees were remote).
 */
static void numa_torture_setup(unsigned int nr)
{
	u64 deadline = arch_clock_ns() + torture_ms() * NSEC_PER_MSEC;

	numa_mem_mask = 0;
	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		if (node_online(nid) && node_has_memory(nid))
			numa_mem_mask |= 1UL << nid;

	for (unsigned int c = 0; c < nr; c++) {
		struct numa_tcpu *nc = &numa_cpus[c];

		memset(nc, 0, sizeof(*nc));
		nc->cpu = c;
		nc->deadline = deadline;
		nc->rng = 0x9e3779b97f4a7c15ULL * (c + 1);
		nc->out = &numa_rings[c];
		nc->in = &numa_rings[(c + nr - 1) % nr];
		numa_rings[c].head = numa_rings[c].tail = 0;
	}
}

static void test_cross_node_torture(struct ktest *t)
{
	unsigned long produced = 0, consumed = 0, remote = 0;
	unsigned int nr = nr_cpu_ids;
	int err;

	need_nodes(t);
	if (nr < 2)
		ktest_skip(t, "one CPU");
	numa_torture_setup(nr);
	for (unsigned int c = 1; c < nr; c++) {
		err = arch_cpu_run(c, numa_worker, &numa_cpus[c]);
		if (err == -ENOSYS)
			ktest_skip(t, "this arch runs no work on other CPUs");
		KTEST_ASSERT_EQ(t, err, 0);
	}
	numa_worker(&numa_cpus[0]);
	for (unsigned int c = 1; c < nr; c++)
		arch_cpu_join(c);
	for (unsigned int c = 0; c < nr; c++) {
		struct numa_tcpu *nc = &numa_cpus[c];

		KTEST_EXPECT_EQ(t, nc->bad, 0UL);
		KTEST_EXPECT_EQ(t, nc->misplaced, 0UL);
		KTEST_EXPECT_EQ(t, nc->failed, 0UL);
		produced += nc->produced;
		consumed += nc->consumed;
		remote += nc->remote;
	}
	KTEST_EXPECT_EQ(t, produced, consumed);
	KTEST_EXPECT_GT(t, remote, 0UL);
	ktest_info(t, "%lu objects over %u CPUs, %lu freed on another node",
		   produced, nr, remote);
	kmem_cache_shrink_all();
	KTEST_EXPECT_EQ(t, slab_validate_all(), 0);
}

/*
 * Each CPU's per-CPU arrays are in its memory node's block, in that
 * node's memory: those of every kmalloc cache and of a new cache.
 */
static void test_cpu_arrays_on_their_nodes(struct ktest *t)
{
	struct kmem_cache *c;

	need_nodes(t);
	for (int dma = 0; dma < 2; dma++) {
		for (unsigned int i = 0; i < KMALLOC_ROW_SIZE; i++)
			if (kmalloc_caches[dma][i])
				expect_cpu_arrays_laid_out(t, kmalloc_caches[dma][i],
							   true);
	}
	c = numa_cache(t, "numa-arrays", 64);
	expect_cpu_arrays_laid_out(t, c, true);
	kmem_cache_destroy(c);
}

static struct ktest_case slab_numa_cases[] = {
	KTEST_CASE(test_every_online_node_has_lists),
	KTEST_CASE(test_cpu_arrays_on_their_nodes),
	KTEST_CASE(test_cache_alloc_node_placement),
	KTEST_CASE(test_kmalloc_node_every_class),
	KTEST_CASE(test_exhausted_node_thisnode_and_fallback),
	KTEST_CASE(test_remote_free_through_alien),
	KTEST_CASE(test_kfree_remote_and_local),
	KTEST_CASE(test_local_free_stays_on_cpu),
	KTEST_CASE(test_reap_sends_aliens_home),
	KTEST_CASE(test_bad_node_ids),
	KTEST_CASE(test_cross_node_torture),
	{}
};

KTEST_SUITE(slab_numa, slab_numa_cases);

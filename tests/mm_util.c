// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the memory test suites (see tests/mm_util.h). */
#include "lib/ktest/ktest.h"
#include "lib/prandom.h"
#include "lib/string.h"
#include "mm/internal.h"
#include "mm/kasan.h"
#include "mm/memblock.h"
#include "mm/page_debug.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"	/* white-box: inside caches and slabs */
#include "mm/vmalloc.h"
#include "tests/mm_util.h"
#include "kernel/rcupdate.h"
#include "kernel/time.h"
#include "mm/slab_reap.h"
#include "arch/arch.h"

#define STRESS_HELD	64
#define STRESS_ORDERS	4

struct hog *hog_memory(void)
{
	return hog_memory_gfp(GFP_KERNEL);
}

struct hog *hog_memory_gfp(gfp_t gfp)
{
	deferred_init_all();	/* all of RAM, whatever the gfp may grow */
	return hog_pages(NULL, gfp, NUMA_NO_NODE);
}

struct hog *hog_pages(struct hog *head, gfp_t gfp, int nid)
{
	for (int order = MAX_ORDER - 1; order >= 0; order--) {
		struct page *page;

		while ((page = alloc_pages_node(nid, gfp | __GFP_NOWARN,
						(unsigned int)order))) {
			struct hog *h = page_address(page);

			h->next = head;
			h->order = (unsigned int)order;
			head = h;
		}
	}
	return head;
}

void release_memory(struct hog *head)
{
	while (head) {
		struct hog *next = head->next;

		__free_pages(virt_to_page(head), head->order);
		head = next;
	}
}

unsigned long pages_free(void)
{
	return nr_free_pages() + nr_pcp_pages();
}

unsigned long pages_baseline(void)
{
	deferred_init_all();	/* a test's growth must not look like a leak */
	kmem_cache_shrink_all();
	if (rcu_pending_callbacks())
		rcu_barrier();	/* SLAB_TYPESAFE_BY_RCU pages wait for a GP */
	drain_all_pages();
	return pages_free();
}

int memblock_pfn_to_nid(unsigned long pfn)
{
	long r = memblock_search(&memblock.memory, PFN_PHYS(pfn));

	return r < 0 ? NUMA_NO_NODE :
		       memblock_get_region_node(&memblock.memory.regions[r]);
}

unsigned long all_nodes_present_pages(void)
{
	struct pglist_data *pgdat;
	unsigned long sum = 0;

	for_each_online_pgdat(pgdat)
		sum += pgdat->node_present_pages;
	return sum;
}

/* A deferred page has no flags yet: its node comes from memblock. */
bool deferred_page(unsigned long pfn)
{
	const struct page *page = pfn_to_page(pfn);
	int nid = memblock_pfn_to_nid(pfn);

	return nid >= 0 && NODE_DATA(nid) &&
	       pfn >= READ_ONCE(NODE_DATA(nid)->first_deferred_pfn) &&
	       !page->flags && !page_ref_count(page);
}

enum zone_type expected_zone(unsigned long pfn)
{
	if (pfn < MAX_DMA_PFN)
		return ZONE_DMA;
	if (pfn < MAX_DMA32_PFN)
		return ZONE_DMA32;
	return ZONE_NORMAL;
}

void skip_if_debugged(struct ktest *t, const struct kmem_cache *cachep)
{
	if (cachep->flags & SLAB_DEBUG_FLAGS)
		ktest_skip(t, "%s is debugged (slab_debug): no per-CPU arrays, other layout",
			   cachep->name);
}

void skip_debugged_cache(struct ktest *t, struct kmem_cache *cachep)
{
	if (!(cachep->flags & SLAB_DEBUG_FLAGS))
		return;
	kmem_cache_destroy(cachep);
	ktest_skip(t, "the cache is debugged (slab_debug): no per-CPU arrays, other layout");
}

#define KASAN_LAYOUT_SKIP \
	"the cache's objects carry KASAN's tracks (kasan.md): another stride and slab geometry"

void skip_if_kasan_layout(struct ktest *t, const struct kmem_cache *cachep)
{
	if (cachep->flags & SLAB_KASAN)
		ktest_skip(t, KASAN_LAYOUT_SKIP);
}

void skip_kasan_layout_cache(struct ktest *t, struct kmem_cache *cachep)
{
	if (!(cachep->flags & SLAB_KASAN))
		return;
	kmem_cache_destroy(cachep);
	ktest_skip(t, KASAN_LAYOUT_SKIP);
}

void skip_if_kmalloc_debugged(struct ktest *t)
{
	for (unsigned int i = 0; i < KMALLOC_NR_CACHES; i++)
		if (kmalloc_caches[0][i])
			skip_if_debugged(t, kmalloc_caches[0][i]);
}

void skip_if_kasan_quarantine(struct ktest *t)
{
	if (kasan_quarantine_enabled())
		ktest_skip(t, "KASAN's quarantine holds freed objects back: SLAB's own reuse order is not seen (kasan.quarantine=off runs it)");
}

void skip_kasan_quarantine_cache(struct ktest *t, struct kmem_cache *cachep)
{
	if (!kasan_quarantine_enabled())
		return;
	kmem_cache_destroy(cachep);
	skip_if_kasan_quarantine(t);
}

/* --- page_stress ----------------------------------------------------- */

struct stress_held {
	struct page *page;
	unsigned int order;
};

static struct stress_held stress_held[STRESS_HELD];

static u64 stress_next(u64 *state)
{
	u64 x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

static u64 stress_word(unsigned long pfn, unsigned int i)
{
	return (pfn * 0x9e3779b97f4a7c15ULL) ^ (0x5bd1e995ULL << (i * 8));
}

static u64 *stress_slot(unsigned long pfn, unsigned int i)
{
	return (u64 *)__va(PFN_PHYS(pfn)) + i * (PAGE_SIZE / 8 - 1) / 2;
}

/* Check a new block, then write the words of each of its pages. */
static void stress_fill(struct page *page, unsigned int order, gfp_t gfp,
			struct page_stress *s)
{
	const u64 poison = PAGE_POISON * 0x0101010101010101ULL;
	unsigned long pfn = page_to_pfn(page);

	s->misaligned += !IS_ALIGNED(pfn, 1UL << order);
	for (unsigned long p = pfn; p < pfn + (1UL << order); p++) {
		for (unsigned int i = 0; i < 3; i++) {
			u64 *w = stress_slot(p, i);

			if (gfp & __GFP_ZERO)
				s->not_zeroed += *w != 0;
			else if (page_poisoning_enabled())
				s->not_poisoned += *w != poison;
			*w = stress_word(p, i);
		}
	}
}

static void stress_release(const struct stress_held *h, struct page_stress *s)
{
	unsigned long pfn = page_to_pfn(h->page);

	for (unsigned long p = pfn; p < pfn + (1UL << h->order); p++) {
		for (unsigned int i = 0; i < 3; i++)
			s->corrupt += *stress_slot(p, i) != stress_word(p, i);
	}
	__free_pages(h->page, h->order);
	s->frees++;
}

void page_stress(unsigned long ops, u64 seed, struct page_stress *s)
{
	static const gfp_t gfps[8] = {
		GFP_KERNEL, GFP_KERNEL, GFP_KERNEL, GFP_KERNEL | __GFP_ZERO,
		GFP_DMA32, GFP_DMA32, GFP_DMA32 | __GFP_COMP, GFP_DMA,
	};
	u64 state = seed | 1;
	unsigned int held = 0;

	memset(s, 0, sizeof(*s));
	for (unsigned long op = 0; op < ops; op++) {
		u64 r = stress_next(&state);

		if (held && (held == STRESS_HELD || (r & 1))) {
			unsigned int i = (unsigned int)((r >> 8) % held);

			stress_release(&stress_held[i], s);
			stress_held[i] = stress_held[--held];
		} else {
			unsigned int order = (unsigned int)((r >> 16) % STRESS_ORDERS);
			gfp_t gfp = gfps[(r >> 24) & 7];
			struct page *page = alloc_pages(gfp, order);

			if (!page) {
				s->failed++;
				continue;
			}
			s->allocs++;
			stress_fill(page, order, gfp, s);
			stress_held[held++] = (struct stress_held){ page, order };
		}
	}
	while (held)
		stress_release(&stress_held[--held], s);
}

void expect_page_alloc_sane(struct ktest *t, unsigned long ops)
{
	struct page_stress s;

	KTEST_EXPECT_EQ(t, page_alloc_check(), 0);
	page_stress(ops, 0x1234567, &s);
	KTEST_EXPECT_GT(t, s.allocs, ops / 4);
	KTEST_EXPECT_EQ(t, s.failed, 0UL);
	KTEST_EXPECT_EQ(t, s.frees, s.allocs);
	KTEST_EXPECT_EQ(t, s.corrupt, 0UL);
	KTEST_EXPECT_EQ(t, s.not_zeroed, 0UL);
	KTEST_EXPECT_EQ(t, s.not_poisoned, 0UL);
	KTEST_EXPECT_EQ(t, s.misaligned, 0UL);
	KTEST_EXPECT_EQ(t, page_alloc_check(), 0);
}

/* --- slab stress ----------------------------------------------------------- */

#define SLAB_STRESS_LIVE	64

static void pattern_fill(u8 *p, size_t n, u8 seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (u8)(seed + i);
}

static bool pattern_intact(const u8 *p, size_t n, u8 seed)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (u8)(seed + i))
			return false;
	return true;
}

static void slab_stress_release(struct kmem_cache *cachep, unsigned int slot,
			   void *p, size_t size, struct slab_stress *s)
{
	s->corrupt += !pattern_intact(p, size, (u8)slot);
	if (slot & 1)
		kmem_cache_free(cachep, p);
	else
		kfree(p);
}

void slab_stress(struct kmem_cache *cachep, unsigned long ops,
		 size_t kmalloc_max, u64 seed, struct slab_stress *s)
{
	void *live[SLAB_STRESS_LIVE] = { NULL };
	size_t size[SLAB_STRESS_LIVE];
	u64 rng;

	memset(s, 0, sizeof(*s));
	prandom_seed(&rng, seed);
	for (unsigned long op = 0; op < ops; op++) {
		unsigned int i = (unsigned int)prandom_below(&rng, SLAB_STRESS_LIVE);

		if (live[i]) {
			slab_stress_release(cachep, i, live[i], size[i], s);
			live[i] = NULL;
			continue;
		}
		size[i] = (i & 1) ? kmem_cache_size(cachep) :
			  1 + prandom_below(&rng, kmalloc_max);
		live[i] = (i & 1) ? kmem_cache_alloc(cachep, GFP_KERNEL) :
				    kmalloc(size[i], GFP_KERNEL);
		s->allocs++;
		if (!live[i]) {
			s->failed++;
			continue;
		}
		pattern_fill(live[i], size[i], (u8)i);
	}
	for (unsigned int i = 0; i < SLAB_STRESS_LIVE; i++)
		if (live[i])
			slab_stress_release(cachep, i, live[i], size[i], s);
}

bool wait_until(const volatile unsigned long *v, unsigned long want,
		unsigned int seconds)
{
	u64 deadline = ktime_get_ns() + seconds * NSEC_PER_SEC;

	while (*v < want) {
		if (ktime_get_ns() > deadline)
			return false;
		arch_cpu_relax();
	}
	return true;
}

bool wait_flag(const volatile bool *flag, unsigned int seconds)
{
	u64 deadline = ktime_get_ns() + seconds * NSEC_PER_SEC;

	while (!*flag) {
		if (ktime_get_ns() > deadline)
			return false;
		arch_cpu_relax();
	}
	return true;
}

void spin_ns(u64 ns)
{
	u64 end = ktime_get_ns() + ns;

	while (ktime_get_ns() < end)
		arch_cpu_relax();
}

static void restore_reap_period(void *period)
{
	cache_reap_set_period((unsigned long)period);
}

void hold_off_cache_reap(struct ktest *t)
{
	unsigned long old;

	if (!cache_reap_running())
		return;
	old = cache_reap_set_period(60 * HZ);
	KTEST_ASSERT_EQ(t, ktest_add_action_or_reset(t, restore_reap_period,
						     (void *)old), 0);
}

/* Arrays of node nid's CPUs at their pointers' offsets, slots turned by rot. */
static unsigned int node_aliases(struct kmem_cache *cachep, int nid,
				 unsigned int nr, unsigned int rot)
{
	unsigned int stride = cpu_array_stride(cachep->limit);
	char *block = cachep->cpu_blocks[nid];
	unsigned int cpu, slot = rot, aliases = 0;

	for_each_possible_cpu(cpu) {
		if (cpu_to_mem(cpu) != nid)
			continue;
		aliases += aliases_4k(block + (size_t)slot * stride +
				      offsetof(struct array_cache, avail),
				      &cachep->cpu_cache[cpu]);
		slot = (slot + 1) % nr;
	}
	return aliases;
}

void expect_cpu_arrays_laid_out(struct ktest *t, struct kmem_cache *cachep,
				bool on_node)
{
	unsigned int stride = cpu_array_stride(cachep->limit);
	unsigned int nr[MAX_NUMNODES] = { 0 }, next[MAX_NUMNODES];
	int rot[MAX_NUMNODES];
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		nr[cpu_to_mem(cpu)]++;
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		char *block = cachep->cpu_blocks[nid];

		KTEST_EXPECT_EQ(t, !block, !nr[nid]);
		if (block && on_node && !is_vmalloc_addr(block))
			KTEST_EXPECT_EQ(t, page_to_nid(virt_to_page(block)), nid);
		rot[nid] = -1;
		next[nid] = 0;
	}
	for_each_possible_cpu(cpu) {
		int nid = cpu_to_mem(cpu);
		struct array_cache *ac = cachep->cpu_cache[cpu];
		unsigned long off = (char *)ac - (char *)cachep->cpu_blocks[nid];

		KTEST_ASSERT_TRUE(t, cachep->cpu_blocks[nid]);
		KTEST_EXPECT_EQ(t, off % stride, 0UL);
		KTEST_ASSERT_LT(t, off / stride, (unsigned long)nr[nid]);
		/* The i-th CPU of the node in slot (i + rot) % nr. */
		if (rot[nid] < 0)
			rot[nid] = off / stride;
		KTEST_EXPECT_EQ(t, off / stride,
				(unsigned long)(rot[nid] + next[nid]++) % nr[nid]);
		KTEST_EXPECT_EQ(t, ac->armed_limit ?: ac->limit, cachep->limit);
		KTEST_EXPECT_EQ(t, ac->batchcount, cachep->batchcount);
	}
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		if (!nr[nid] || !node_aliases(cachep, nid, nr[nid], rot[nid]))
			continue;
		ktest_info(t, "%s: node %d's arrays alias their pointers",
			   cachep->name, nid);
		for (unsigned int r = 0; r < nr[nid]; r++)
			KTEST_EXPECT_GT(t, node_aliases(cachep, nid, nr[nid], r), 0U);
	}
}

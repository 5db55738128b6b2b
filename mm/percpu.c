// SPDX-License-Identifier: GPL-2.0
/*
 * The dynamic per-CPU allocator (mm/percpu.h; Linux's percpu.c, much
 * simplified): alloc_percpu() gives each possible CPU its own zeroed
 * copy of an object, all reached through one per-CPU pointer.
 *
 * Chunks. Memory comes in chunks, each a vmap() of nr_cpu_ids units of
 * PCPU_UNIT_SIZE bytes, unit cpu at per_cpu_offset(cpu) from the
 * chunk's base: an area at offset off of a chunk is the bytes
 * [off, off + size) of every unit, and its per-CPU pointer (the cookie)
 * is base + off, CPU 0's copy. Because every chunk has the same layout,
 * per_cpu_ptr() is one addition whatever the chunk. A unit's pages come
 * from its CPU's node (alloc_pages_node(cpu_to_node(cpu))), so each CPU
 * works on local memory; the vmap() makes them one range.
 *
 *   chunk->base                                 + per_cpu_offset(n - 1)
 *   |  unit 0 (CPU 0)  |  unit 1 (CPU 1)  | ... |  unit n-1             |
 *   |  ##..###.......  |  ##..###.......  | ... |  ##..###.......       |
 *      ^ area at off: the same bytes of every unit, the cookie base + off
 *
 * The area map. A chunk's units share one map of PCPU_MIN_ALLOC_SIZE
 * granules: alloc_map has a bit per granule in use, bound_map a bit at
 * the first granule of each area (Linux's bitmap allocator keeps the
 * same two maps, plus per-block hints this one does without). An
 * allocation takes the first fit, lowest address first, in the first
 * chunk with room; a free finds the area's end at the next bound or the
 * next clear granule.
 *
 * Growth and release. Chunks are mapped whole when made (no partially
 * populated chunks as in Linux): the first by percpu_init(), others when
 * an allocation that may sleep (__GFP_DIRECT_RECLAIM) finds no room. An
 * allocation that may not (GFP_ATOMIC) takes only the space the chunks
 * have: Linux's rule, atomic allocations never populate. A chunk left
 * empty by free_percpu() is unmapped and its pages freed, unless it is
 * the first chunk, which stays for good (the chunk count never drops to
 * zero, and the vmalloc window is not left with a hole below it); free_percpu() where vunmap() may not run (interrupts
 * off, a handler) leaves that to pcpu_release_work.
 *
 * Locking: pcpu_lock, a spinlock taken with interrupts off, guards the
 * chunk list and every chunk's maps and counts. Nothing else is taken
 * under it: chunks are made and unmapped outside it, and the zeroing of
 * a new area's copies is done after it is dropped (the area is the
 * caller's by then). See Documentation/locking/locking.md.
 */
#include "mm/percpu.h"
#include "arch/arch.h"
#include "arch/pgtable.h"
#include "kernel/bug.h"
#include "kernel/cpumask.h"
#include "kernel/irq.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/workqueue.h"
#include "lib/bitmap.h"
#include "lib/list.h"
#include "lib/string.h"
#include "mm/numa.h"
#include "mm/percpu_internal.h"
#include "mm/slab.h"
#include "mm/vmalloc.h"

#define PCPU_MAP_BITS	(PCPU_UNIT_SIZE / PCPU_MIN_ALLOC_SIZE)

struct pcpu_chunk {
	struct list_head list;		/* on pcpu_chunks */
	void *base;			/* the vmap(): unit 0 */
	struct page **pages;		/* PCPU_UNIT_PAGES per unit */
	unsigned int free_bytes;	/* per unit */
	unsigned int nr_alloc;		/* areas allocated */
	DECLARE_BITMAP(alloc_map, PCPU_MAP_BITS);
	DECLARE_BITMAP(bound_map, PCPU_MAP_BITS);
};

static DEFINE_SPINLOCK(pcpu_lock);
static LIST_HEAD(pcpu_chunks);
static unsigned int pcpu_nr_chunks;
static struct pcpu_chunk *pcpu_first_chunk;	/* percpu_init()'s, kept */
static void pcpu_release_workfn(struct work_struct *work);
static struct work_struct pcpu_release_work;

static unsigned int pcpu_nr_pages(void)
{
	return nr_cpu_ids * PCPU_UNIT_PAGES;
}

static void pcpu_free_pages(struct page **pages, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++)
		__free_pages(pages[i], 0);
}

/*
 * Every CPU's unit from its own node, zeroed, the pages in unit order.
 * A CPU number below nr_cpu_ids that is not possible gets a unit too
 * (from any node): per_cpu_offset() leaves it room either way.
 */
static bool pcpu_alloc_pages(struct page **pages, gfp_t gfp)
{
	unsigned int nr = 0;

	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++) {
		int nid = cpu_possible(cpu) ? cpu_to_node(cpu) : NUMA_NO_NODE;

		for (unsigned int i = 0; i < PCPU_UNIT_PAGES; i++) {
			pages[nr] = alloc_pages_node(nid, gfp | __GFP_ZERO, 0);
			if (!pages[nr]) {
				pcpu_free_pages(pages, nr);
				return false;
			}
			nr++;
		}
	}
	return true;
}

/* A new chunk, mapped and empty, not yet on the list; NULL on failure. */
static struct pcpu_chunk *pcpu_create_chunk(gfp_t gfp)
{
	struct pcpu_chunk *chunk;

	chunk = kzalloc(sizeof(*chunk), gfp);
	if (!chunk)
		return NULL;
	chunk->pages = kcalloc(pcpu_nr_pages(), sizeof(*chunk->pages), gfp);
	if (!chunk->pages)
		goto out_chunk;
	if (!pcpu_alloc_pages(chunk->pages, gfp))
		goto out_pages;
	chunk->base = vmap(chunk->pages, pcpu_nr_pages(), 0, PAGE_KERNEL);
	if (!chunk->base)
		goto out_free;
	chunk->free_bytes = PCPU_UNIT_SIZE;
	INIT_LIST_HEAD(&chunk->list);
	return chunk;

out_free:
	pcpu_free_pages(chunk->pages, pcpu_nr_pages());
out_pages:
	kfree(chunk->pages);
out_chunk:
	kfree(chunk);
	return NULL;
}

static void pcpu_destroy_chunk(struct pcpu_chunk *chunk)
{
	WARN_ON(chunk->nr_alloc || !list_empty(&chunk->list));
	vunmap(chunk->base);
	pcpu_free_pages(chunk->pages, pcpu_nr_pages());
	kfree(chunk->pages);
	kfree(chunk);
}

/*
 * The first granule of a free run of bits granules aligned to
 * align_bits, lowest first, or -1 if the chunk has none.
 */
static int pcpu_find_fit(struct pcpu_chunk *chunk, unsigned int bits,
			 unsigned int align_bits)
{
	unsigned long start = 0, busy;

	for (;;) {
		start = find_next_zero_bit(chunk->alloc_map, PCPU_MAP_BITS,
					   start);
		start = ALIGN(start, align_bits);
		if (start + bits > PCPU_MAP_BITS)
			return -1;
		busy = find_next_bit(chunk->alloc_map, start + bits, start);
		if (busy >= start + bits)
			return (int)start;
		start = busy + 1;
	}
}

/* Take an area from the chunks there are; its cookie, or NULL. */
static void *pcpu_alloc_area(size_t size, size_t align)
{
	unsigned int bits = DIV_ROUND_UP(size, PCPU_MIN_ALLOC_SIZE);
	unsigned int align_bits = max_t(size_t, align, PCPU_MIN_ALLOC_SIZE) /
				  PCPU_MIN_ALLOC_SIZE;
	struct pcpu_chunk *chunk;
	unsigned long flags;
	void *ptr = NULL;
	int bit;

	spin_lock_irqsave(&pcpu_lock, flags);
	list_for_each_entry(chunk, &pcpu_chunks, list) {
		if (chunk->free_bytes < bits * PCPU_MIN_ALLOC_SIZE)
			continue;
		bit = pcpu_find_fit(chunk, bits, align_bits);
		if (bit < 0)
			continue;
		bitmap_set(chunk->alloc_map, bit, bits);
		__set_bit(bit, chunk->bound_map);
		chunk->free_bytes -= bits * PCPU_MIN_ALLOC_SIZE;
		chunk->nr_alloc++;
		ptr = chunk->base + bit * PCPU_MIN_ALLOC_SIZE;
		break;
	}
	spin_unlock_irqrestore(&pcpu_lock, flags);
	return ptr;
}

static void pcpu_add_chunk(struct pcpu_chunk *chunk)
{
	unsigned long flags;

	spin_lock_irqsave(&pcpu_lock, flags);
	list_add_tail(&chunk->list, &pcpu_chunks);
	pcpu_nr_chunks++;
	spin_unlock_irqrestore(&pcpu_lock, flags);
}

/* May this call map a chunk (vmap, page allocations that sleep)? */
static bool pcpu_may_grow(gfp_t gfp)
{
	if (!(gfp & __GFP_DIRECT_RECLAIM))
		return false;
	return !WARN(irqs_disabled() || in_interrupt(),
		     "percpu: a sleeping allocation in atomic context\n");
}

void __percpu *__alloc_percpu_gfp(size_t size, size_t align, gfp_t gfp)
{
	struct pcpu_chunk *chunk;
	void *ptr;

	if (WARN(!size || size > PCPU_MAX_ALLOC_SIZE ||
		 !is_power_of_2(align) || align > PAGE_SIZE,
		 "percpu: bad allocation size %zu, align %zu\n", size, align))
		return NULL;
	ptr = pcpu_alloc_area(size, align);
	while (!ptr && pcpu_may_grow(gfp)) {
		chunk = pcpu_create_chunk(gfp);
		if (!chunk)
			break;
		pcpu_add_chunk(chunk);
		ptr = pcpu_alloc_area(size, align);
	}
	if (!ptr)
		return NULL;
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		memset(per_cpu_ptr(ptr, cpu), 0, size);
	return ptr;
}

void __percpu *__alloc_percpu(size_t size, size_t align)
{
	return __alloc_percpu_gfp(size, align, GFP_KERNEL);
}

/* The chunk whose unit 0 holds ptr, or NULL; pcpu_lock held. */
static struct pcpu_chunk *pcpu_chunk_addr_search(const void *ptr)
{
	struct pcpu_chunk *chunk;

	list_for_each_entry(chunk, &pcpu_chunks, list)
		if (ptr >= chunk->base && ptr < chunk->base + PCPU_UNIT_SIZE)
			return chunk;
	return NULL;
}

/* Free the area at bit; its size in bytes. pcpu_lock held. */
static unsigned int pcpu_free_area(struct pcpu_chunk *chunk, unsigned int bit)
{
	unsigned int end = min(find_next_bit(chunk->bound_map, PCPU_MAP_BITS,
					     bit + 1),
			       find_next_zero_bit(chunk->alloc_map,
						  PCPU_MAP_BITS, bit + 1));

	bitmap_clear(chunk->alloc_map, bit, end - bit);
	__clear_bit(bit, chunk->bound_map);
	chunk->free_bytes += (end - bit) * PCPU_MIN_ALLOC_SIZE;
	BUG_ON(!chunk->nr_alloc || chunk->free_bytes > PCPU_UNIT_SIZE);
	chunk->nr_alloc--;
	return (end - bit) * PCPU_MIN_ALLOC_SIZE;
}

/*
 * Take the empty chunks off the list, all but the first, and unmap them.
 * Context: interrupts on, not in a handler (vunmap()).
 */
static void pcpu_release_empty(void)
{
	struct pcpu_chunk *chunk, *next;
	unsigned long flags;
	LIST_HEAD(to_free);

	spin_lock_irqsave(&pcpu_lock, flags);
	list_for_each_entry_safe(chunk, next, &pcpu_chunks, list) {
		if (chunk->nr_alloc || chunk == pcpu_first_chunk)
			continue;
		list_move(&chunk->list, &to_free);
		pcpu_nr_chunks--;
	}
	spin_unlock_irqrestore(&pcpu_lock, flags);
	list_for_each_entry_safe(chunk, next, &to_free, list) {
		list_del_init(&chunk->list);
		pcpu_destroy_chunk(chunk);
	}
}

static void pcpu_release_workfn(struct work_struct *work)
{
	pcpu_release_empty();
}

void free_percpu(void __percpu *ptr)
{
	struct pcpu_chunk *chunk;
	unsigned long flags, off;
	bool emptied = false;

	if (!ptr)
		return;
	spin_lock_irqsave(&pcpu_lock, flags);
	chunk = pcpu_chunk_addr_search(ptr);
	off = chunk ? (unsigned long)(ptr - chunk->base) : 0;
	if (!chunk || off % PCPU_MIN_ALLOC_SIZE ||
	    !test_bit(off / PCPU_MIN_ALLOC_SIZE, chunk->bound_map)) {
		spin_unlock_irqrestore(&pcpu_lock, flags);
		WARN(1, "percpu: free_percpu(%p): not an allocated per-CPU area\n",
		     ptr);
		return;
	}
	pcpu_free_area(chunk, off / PCPU_MIN_ALLOC_SIZE);
	emptied = !chunk->nr_alloc && chunk != pcpu_first_chunk;
	spin_unlock_irqrestore(&pcpu_lock, flags);
	if (!emptied)
		return;
	if (irqs_disabled() || in_interrupt())
		schedule_work_on(smp_processor_id(), &pcpu_release_work);
	else
		pcpu_release_empty();
}

unsigned int pcpu_nr_chunks_now(void)
{
	return READ_ONCE(pcpu_nr_chunks);
}

void pcpu_flush_release(void)
{
	pcpu_release_empty();
}

void percpu_init(void)
{
	struct pcpu_chunk *chunk;

	BUILD_BUG_ON(PCPU_UNIT_SIZE % PAGE_SIZE ||
		     PCPU_MAP_BITS % BITS_PER_LONG);
	INIT_WORK(&pcpu_release_work, pcpu_release_workfn);
	chunk = pcpu_create_chunk(GFP_KERNEL);
	if (!chunk)
		panic("percpu: no memory for the first chunk");
	pcpu_first_chunk = chunk;
	pcpu_add_chunk(chunk);
	/* Linux's line for page-mapped chunks: no static or reserved part. */
	pr_info("percpu: %lu 4K pages/cpu s0 r0 d%lu\n", PCPU_UNIT_PAGES,
		PCPU_UNIT_SIZE);
}

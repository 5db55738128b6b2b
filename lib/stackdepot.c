// SPDX-License-Identifier: GPL-2.0
/*
 * The stack depot (lib/stackdepot.h; Linux's stack depot, smaller).
 *
 * Records. A stored stack is a struct stack_record: its hash, its
 * number of entries, its own handle and the entries, DEPOT_STACK_ALIGN
 * aligned, packed one after another into pools of DEPOT_POOL_SIZE bytes
 * (order DEPOT_POOL_ORDER pages). Nothing is ever removed. A handle is
 * the pool's index and the record's offset in it, and a valid bit, so
 * that 0 names nothing:
 *
 *	bit 31: valid   bits 30..10: pool index   bits 9..0: offset / 16
 *
 * Lookup. A hash table of STACK_HASH_SIZE buckets, each a list of the
 * records with that hash, newest first. A record is written whole before
 * it is published at its bucket's head (a release store), and records
 * never change after, so lookups take no lock; a save that finds
 * nothing takes depot_lock (a spinlock, interrupts off), looks again and
 * adds the record. Fetching a handle needs no lock either: the pool's
 * index is checked against the pools published, the offset against the
 * pool, and the record found there must carry that very handle, so a
 * bad handle (0, garbage, a stale word from a freed object) fetches
 * nothing rather than reading past a pool.
 *
 * Memory. Saving never allocates: KASAN saves from inside the slab
 * allocator, under any lock, in interrupts. stack_depot_init() takes
 * all the pools at once from the page allocator (DEPOT_MAX_POOLS of
 * them, 1 MiB; fewer if that many are not there), before anything is
 * saved, and the depot keeps them for good: nothing it does later moves
 * the page allocator's counters, which the tests compare before and
 * after their cases. A record that does not fit the current pool opens
 * the next one (a release store publishes it to fetch); when the last
 * one is full, or past max_pools (lowered by the tests that fill the
 * depot), every new stack is dropped and counted, and what is stored
 * stays valid. Before stack_depot_init() (early boot, before KASAN's
 * init) a save stores nothing and returns 0, uncounted.
 */
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "kernel/stacktrace.h"
#include "lib/stackdepot.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/mm.h"

#define DEPOT_POOL_ORDER	2
#define DEPOT_POOL_SIZE		(PAGE_SIZE << DEPOT_POOL_ORDER)
#define DEPOT_STACK_ALIGN	4	/* records 16-byte aligned */
#define DEPOT_OFFSET_BITS	(DEPOT_POOL_ORDER + PAGE_SHIFT - DEPOT_STACK_ALIGN)
#define DEPOT_POOL_INDEX_BITS	(31 - DEPOT_OFFSET_BITS)
#define DEPOT_VALID		(1U << 31)
#define DEPOT_MAX_POOLS		64	/* 1 MiB */
#define STACK_HASH_ORDER	12
#define STACK_HASH_SIZE		(1U << STACK_HASH_ORDER)

_Static_assert(DEPOT_MAX_POOLS <= (1U << DEPOT_POOL_INDEX_BITS),
	       "pool index does not fit the handle");

struct stack_record {
	struct stack_record *next;	/* in its bucket, older */
	u32 hash;
	u32 size;			/* entries */
	depot_stack_handle_t handle;	/* its own, for fetch's check */
	unsigned long entries[];
};

static struct stack_record *stack_table[STACK_HASH_SIZE];
static void *stack_pools[DEPOT_MAX_POOLS];
static unsigned int pools_reserved;	/* stack_pools[0..pools_reserved) */
static unsigned int pools_num;	/* in use, published: [0..pools_num) */
static size_t pool_offset;	/* used bytes of the last pool in use */
static unsigned int max_pools = DEPOT_MAX_POOLS;
static bool depot_ready;	/* stack_depot_init() has run */
static unsigned long nr_records;
static unsigned long nr_dropped;
static DEFINE_SPINLOCK(depot_lock);

static size_t record_size(unsigned int nr)
{
	return ALIGN(sizeof(struct stack_record) + nr * sizeof(unsigned long),
		     1UL << DEPOT_STACK_ALIGN);
}

/*
 * Every save hashes its stack: a multiply and a rotate a word (FxHash's
 * step), then the 64 bits folded once, so the bucket's low bits depend
 * on every bit of every entry.
 */
static u32 hash_stack(const unsigned long *entries, unsigned int nr)
{
	u64 h = nr;

	for (unsigned int i = 0; i < nr; i++)
		h = (((h << 5) | (h >> 59)) ^ entries[i]) * 0x517cc1b727220a95ULL;
	h ^= h >> 32;
	h *= 0x9e3779b97f4a7c15ULL;
	return (u32)(h >> 32);
}

/* Word by word: every allocation under KASAN comes here. */
static bool same_stack(const struct stack_record *rec, u32 hash,
		       const unsigned long *entries, unsigned int nr)
{
	if (rec->hash != hash || rec->size != nr)
		return false;
	for (unsigned int i = 0; i < nr; i++) {
		if (rec->entries[i] != entries[i])
			return false;
	}
	return true;
}

static __always_inline struct stack_record *
find_stack(struct stack_record **bucket, u32 hash,
	   const unsigned long *entries, unsigned int nr)
{
	struct stack_record *rec = __atomic_load_n(bucket, __ATOMIC_ACQUIRE);

	for (; rec; rec = __atomic_load_n(&rec->next, __ATOMIC_ACQUIRE)) {
		if (same_stack(rec, hash, entries, nr))
			return rec;
	}
	return NULL;
}

/* Room for size bytes: in the last pool in use, else in the next one. */
static void *depot_room(size_t size, unsigned int *index)
{
	lockdep_assert_held(&depot_lock);
	if (!pools_num || pool_offset + size > DEPOT_POOL_SIZE) {
		if (pools_num >= min(max_pools, pools_reserved))
			return NULL;
		pool_offset = 0;
		__atomic_store_n(&pools_num, pools_num + 1, __ATOMIC_RELEASE);
	}
	*index = pools_num - 1;
	pool_offset += size;
	return (char *)stack_pools[*index] + pool_offset - size;
}

static struct stack_record *depot_alloc_stack(const unsigned long *entries,
					      unsigned int nr, u32 hash)
{
	size_t size = record_size(nr);
	struct stack_record *rec;
	unsigned int index;

	rec = depot_room(size, &index);
	if (!rec)
		return NULL;
	rec->hash = hash;
	rec->size = nr;
	rec->handle = DEPOT_VALID | index << DEPOT_OFFSET_BITS |
		      (u32)(((char *)rec - (char *)stack_pools[index]) >>
			    DEPOT_STACK_ALIGN);
	memcpy(rec->entries, entries, nr * sizeof(*entries));
	return rec;
}

static void *alloc_pool(gfp_t gfp)
{
	struct page *page = alloc_pages(gfp | __GFP_ZERO | __GFP_NOWARN,
					DEPOT_POOL_ORDER);

	return page ? page_address(page) : NULL;
}

depot_stack_handle_t __stack_depot_save(const unsigned long *entries,
					unsigned int nr_entries, gfp_t gfp,
					bool can_alloc)
{
	struct stack_record **bucket, *found;
	unsigned long flags;
	u32 hash;

	if (!nr_entries || !READ_ONCE(depot_ready))
		return 0;
	nr_entries = min_t(unsigned int, nr_entries, STACK_DEPOT_MAX_ENTRIES);
	hash = hash_stack(entries, nr_entries);
	bucket = &stack_table[hash & (STACK_HASH_SIZE - 1)];
	found = find_stack(bucket, hash, entries, nr_entries);
	if (found)
		return found->handle;

	spin_lock_irqsave(&depot_lock, flags);
	found = find_stack(bucket, hash, entries, nr_entries);
	if (!found) {
		found = depot_alloc_stack(entries, nr_entries, hash);
		if (found) {
			found->next = *bucket;
			__atomic_store_n(bucket, found, __ATOMIC_RELEASE);
			nr_records++;
		} else {
			nr_dropped++;
		}
	}
	spin_unlock_irqrestore(&depot_lock, flags);
	return found ? found->handle : 0;
}

depot_stack_handle_t stack_depot_save(const unsigned long *entries,
				      unsigned int nr_entries, gfp_t gfp)
{
	return __stack_depot_save(entries, nr_entries, gfp, true);
}

unsigned int stack_depot_fetch(depot_stack_handle_t handle,
			       unsigned long **entries)
{
	unsigned int index = (handle & ~DEPOT_VALID) >> DEPOT_OFFSET_BITS;
	size_t offset = (size_t)(handle & ((1U << DEPOT_OFFSET_BITS) - 1))
			<< DEPOT_STACK_ALIGN;
	const struct stack_record *rec;

	*entries = NULL;
	if (!(handle & DEPOT_VALID) ||
	    index >= __atomic_load_n(&pools_num, __ATOMIC_ACQUIRE) ||
	    offset + sizeof(*rec) > DEPOT_POOL_SIZE)
		return 0;
	rec = (const void *)((char *)stack_pools[index] + offset);
	if (rec->handle != handle || !rec->size ||
	    rec->size > STACK_DEPOT_MAX_ENTRIES ||
	    offset + record_size(rec->size) > DEPOT_POOL_SIZE)
		return 0;
	*entries = (unsigned long *)rec->entries;
	return rec->size;
}

void stack_depot_print(depot_stack_handle_t handle)
{
	unsigned long *entries;
	unsigned int nr = stack_depot_fetch(handle, &entries);

	if (nr)
		stack_trace_print(entries, nr, 0);
}

void stack_depot_get_stats(struct stack_depot_stats *st)
{
	unsigned long flags;

	spin_lock_irqsave(&depot_lock, flags);
	st->records = nr_records;
	st->pools = pools_num;
	st->max_pools = max_pools;
	st->pages = pools_reserved << DEPOT_POOL_ORDER;
	st->dropped = nr_dropped;
	spin_unlock_irqrestore(&depot_lock, flags);
}

unsigned int stack_depot_set_max_pools(unsigned int max)
{
	unsigned int old;
	unsigned long flags;

	spin_lock_irqsave(&depot_lock, flags);
	old = max_pools;
	max = max_t(unsigned int, max, max_t(unsigned int, pools_num, 1));
	max_pools = min_t(unsigned int, max, DEPOT_MAX_POOLS);
	spin_unlock_irqrestore(&depot_lock, flags);
	return old;
}

int stack_depot_init(void)
{
	unsigned int nr = 0;
	unsigned long flags;
	void *pool;

	if (READ_ONCE(depot_ready))
		return 0;
	while (nr < DEPOT_MAX_POOLS && (pool = alloc_pool(GFP_KERNEL)))
		stack_pools[nr++] = pool;
	if (!nr)
		return -ENOMEM;
	spin_lock_irqsave(&depot_lock, flags);
	pools_reserved = nr;
	WRITE_ONCE(depot_ready, true);
	spin_unlock_irqrestore(&depot_lock, flags);
	return 0;
}

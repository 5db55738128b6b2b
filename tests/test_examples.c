// SPDX-License-Identifier: GPL-2.0
/*
 * The examples of Documentation/core-api/memory-allocation.md, run.
 *
 * Each example is a function here, between "example:" and "end example"
 * marker comments; the document shows the lines between them, and
 * tools/testing/doc_examples.py (make compile-checks) checks that the
 * two are the same text. The cases run them and check what they did;
 * the leak check after each case proves everything was freed.
 */
#include "kernel/errno.h"
#include "kernel/rcupdate.h"
#include "kernel/spinlock.h"
#include "lib/ktest/ktest.h"
#include "mm/mempool.h"
#include "mm/slab.h"
#include "mm/util.h"

struct req {
	int id;
	char payload[60];
};

struct item {
	int key;
	struct rcu_head rcu;
};

#define NR_ITEMS	4

static struct item *items[NR_ITEMS];
static DEFINE_SPINLOCK(items_lock);

/* example: kmalloc */
static int use_kmalloc(size_t len, size_t n)
{
	struct req *r;
	char *buf;
	u64 *table;

	/* An object; NULL on failure. */
	r = kmalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	kfree(r);

	/* On a node: this CPU's (NUMA_NO_NODE) or a given one. */
	buf = kmalloc_node(len, GFP_KERNEL, NUMA_NO_NODE);
	if (!buf)
		return -ENOMEM;
	kfree(buf);

	/* Maybe large: kmalloc first, vmalloc when that fails or the
	 * size is above 4 MiB (GFP_KERNEL only); kvfree() tells them apart.
	 */
	table = kvmalloc_array(n, sizeof(*table), GFP_KERNEL);
	if (!table)
		return -ENOMEM;
	kvfree(table);
	return 0;
}
/* end example */

/* example: mempool */
static int use_mempool(void)
{
	mempool_t *pool;
	struct req *r;

	/* A reserve that keeps a path going under memory pressure (its
	 * limits: mm/reclaim.md; mempool_alloc() may return NULL here).
	 */
	pool = mempool_create_kmalloc_pool(16, sizeof(struct req));
	if (!pool)
		return -ENOMEM;
	r = mempool_alloc(pool, GFP_KERNEL);
	if (r)
		mempool_free(r, pool);
	mempool_destroy(pool);
	return r ? 0 : -ENOMEM;
}
/* end example */

/* example: kfree_rcu */
static int replace_item(int i, int key)
{
	struct item *new, *old;

	new = kmalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	new->key = key;
	spin_lock(&items_lock);
	old = items[i];		/* the updaters' lock: a plain load */
	rcu_assign_pointer(items[i], new);
	spin_unlock(&items_lock);
	/* Freed after every RCU reader that may hold it is done. */
	if (old)
		kfree_rcu(old, rcu);
	return 0;
}
/* end example */

static void test_kmalloc_example(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, use_kmalloc(100, 16), 0);
	KTEST_EXPECT_EQ(t, use_kmalloc(8192, 1 << 20), 0);	/* 8 MiB: vmalloc */
	KTEST_EXPECT_EQ(t, use_kmalloc(1, 0), 0);
}

static void test_mempool_example(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, use_mempool(), 0);
}

static int read_key(int i)
{
	struct item *it;
	int key;

	rcu_read_lock();
	it = rcu_dereference(items[i]);
	key = it ? it->key : -1;
	rcu_read_unlock();
	return key;
}

static void test_kfree_rcu_example(struct ktest *t)
{
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < NR_ITEMS; i++) {
			KTEST_ASSERT_EQ(t, replace_item(i, round * 10 + i), 0);
			KTEST_EXPECT_EQ(t, read_key(i), round * 10 + i);
		}
	spin_lock(&items_lock);
	for (int i = 0; i < NR_ITEMS; i++) {
		struct item *it = items[i];

		RCU_INIT_POINTER(items[i], NULL);
		if (it)
			kfree_rcu(it, rcu);
	}
	spin_unlock(&items_lock);
	rcu_barrier();		/* the leak check sees them all freed */
}

static const struct ktest_case examples_cases[] = {
	KTEST_CASE(test_kmalloc_example),
	KTEST_CASE(test_mempool_example),
	KTEST_CASE(test_kfree_rcu_example),
	{}
};
KTEST_SUITE(examples, examples_cases);

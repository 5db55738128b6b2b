// SPDX-License-Identifier: GPL-2.0
/*
 * Page references (mm/mm.h: get_page(), put_page(), get_page_unless_zero(),
 * the page_ref_*() helpers; mm/gfp.h: split_page()), the rules of
 * mm/page_alloc.c section 10:
 *
 *  - an order-0 page: get_page() keeps it past __free_pages(), the last
 *    put_page() frees it; put_page() of the only reference frees;
 *  - a plain order-3 block freed while its first page is held: the
 *    other seven pages go back at once, as blocks of orders 2, 1 and 0
 *    at offsets 4, 2 and 1; the first page waits for the last put_page()
 *    and is freed at order 0 (Linux's lib/test_free_pages.c: a thousand
 *    rounds leak nothing, plain and compound);
 *  - a compound page: references on any page count on the head, and the
 *    last put_page() frees the whole block;
 *  - split_page(): 2^order pages with one reference each;
 *  - several CPUs taking and dropping references to one page at once,
 *    and racing for the last one: exactly one frees;
 *  - bad input, each reported once with its kind and the page left
 *    alone: put_page() of a free page and a double put, get_page() of a
 *    free page and of an inner page of a block, split_page() of a
 *    compound, a free or a wrongly ordered block, put_page() of a slab's
 *    last reference and of a plain block above order 0, pointers that
 *    are no struct page; afterwards page_alloc_check() is clean and a
 *    short stress finds the allocator sound.
 *
 * Counting cases compare pages_free() (buddy and per-CPU lists) before
 * and after; cache_reap is held off so that no background trim moves
 * the count.
 */
#include "arch/arch.h"
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/smp.h"
#include "lib/ktest/ktest.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/internal.h"	/* white-box: per-CPU lists */
#include "mm/mm.h"
#include "mm/page_debug.h"
#include "mm/slab.h"
#include "tests/mm_util.h"

#define SANE_OPS	1000
#define LOOPS		1000

#define BAD_PAGE	"BUG: Bad page state: "

/* --- helpers ------------------------------------------------------------- */

static unsigned long count_start(struct ktest *t)
{
	hold_off_cache_reap(t);
	return pages_free();
}

/* Exactly one bad_page() report of kind in the window just closed. */
static void expect_one_report(struct ktest *t, enum report_kind kind)
{
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_REPORTS(t, kind, 1);
}

/* After bad input: the lists are sound and the allocator works. */
static void expect_sane(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, page_alloc_check(), 0);
	expect_page_alloc_sane(t, SANE_OPS);
}

/* --- the rules ----------------------------------------------------------- */

static void test_order0_get_put(struct ktest *t)
{
	unsigned long free = count_start(t);
	struct page *page = alloc_page(GFP_KERNEL);

	KTEST_ASSERT_NOT_NULL(t, page);
	KTEST_EXPECT_EQ(t, page_ref_count(page), 1);
	get_page(page);
	KTEST_EXPECT_EQ(t, page_ref_count(page), 2);
	__free_page(page);		/* the owner lets go: still held */
	KTEST_EXPECT_EQ(t, page_ref_count(page), 1);
	KTEST_EXPECT_EQ(t, pages_free(), free - 1);
	memset(page_address(page), 0x5a, PAGE_SIZE);	/* still ours */
	put_page(page);			/* the last reference frees */
	KTEST_EXPECT_EQ(t, pages_free(), free);
}

/* put_page() of the only reference is a free. */
static void test_order0_put_frees(struct ktest *t)
{
	unsigned long free = count_start(t);
	struct page *page = alloc_page(GFP_KERNEL);

	KTEST_ASSERT_NOT_NULL(t, page);
	put_page(page);
	KTEST_EXPECT_EQ(t, pages_free(), free);
	KTEST_EXPECT_EQ(t, page_ref_count(page), 0);
}

/* The raw helpers move the count and nothing else. */
static void test_page_ref_helpers(struct ktest *t)
{
	struct page *page = alloc_page(GFP_KERNEL);

	KTEST_ASSERT_NOT_NULL(t, page);
	page_ref_inc(page);
	KTEST_EXPECT_EQ(t, page_ref_count(page), 2);
	KTEST_EXPECT_FALSE(t, page_ref_dec_and_test(page));
	KTEST_EXPECT_EQ(t, page_ref_count(page), 1);
	KTEST_EXPECT_TRUE(t, get_page_unless_zero(page));
	KTEST_EXPECT_EQ(t, page_ref_count(page), 2);
	put_page(page);
	__free_page(page);

	/* A free page: no reference taken, no report either. */
	KTEST_EXPECT_EQ(t, page_ref_count(page), 0);
	ktest_capture_start(t, BAD_PAGE);
	KTEST_EXPECT_FALSE(t, get_page_unless_zero(page));
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
	KTEST_EXPECT_EQ(t, page_ref_count(page), 0);
}

/*
 * Linux's rule for a plain block freed while its first page is held:
 * the seven other pages of an order-3 block go back at once, as blocks
 * of orders 2, 1 and 0 at offsets 4, 2 and 1 (the front of this CPU's
 * lists, drained first so that no drain moves them); the first page
 * becomes order 0 and the last put_page() frees it.
 */
static void test_free_held_block(struct ktest *t)
{
	unsigned long free = count_start(t);
	struct page *page = alloc_pages(GFP_KERNEL, 3);
	struct per_cpu_pages *pcp;
	struct page *first[3];
	unsigned long flags;

	KTEST_ASSERT_NOT_NULL(t, page);
	get_page(page);
	local_irq_save(flags);
	drain_local_pages();
	__free_pages(page, 3);
	pcp = &page_zone(page)->pcp[arch_cpu_id()];
	for (unsigned int o = 0; o < 3; o++)
		first[o] = pcp->lists[o]->count ?
			   pcp->lists[o]->pages[pcp->lists[o]->count - 1] :
			   NULL;
	local_irq_restore(flags);
	for (unsigned int o = 0; o < 3; o++)
		KTEST_EXPECT_PTR_EQ(t, first[o], page + (1UL << o));
	KTEST_EXPECT_EQ(t, pages_free(), free - 1);
	KTEST_EXPECT_EQ(t, page_ref_count(page), 1);
	KTEST_EXPECT_EQ(t, page->alloc_order, 0U);
	put_page(page);
	KTEST_EXPECT_EQ(t, pages_free(), free);
}

struct gfp_case {
	const char *name;
	gfp_t gfp;
};

static const struct gfp_case gfp_cases[] = {
	{ "GFP_KERNEL", GFP_KERNEL },
	{ "GFP_KERNEL | __GFP_COMP", GFP_KERNEL | __GFP_COMP },
};

static void gfp_desc(const struct gfp_case *c, char *desc)
{
	strscpy(desc, c->name, KTEST_DESC_SIZE);
}

KTEST_ARRAY_PARAM(gfp_gen, gfp_cases, gfp_desc);

/*
 * Linux's lib/test_free_pages.c: a reference taken as a page cache
 * lookup would, the block freed, the reference dropped, a thousand
 * times: nothing leaks, nothing is reported.
 */
static void test_free_pages_loop(struct ktest *t)
{
	const struct gfp_case *c = t->param_value;
	unsigned long free = count_start(t);

	for (unsigned int i = 0; i < LOOPS; i++) {
		unsigned long addr = __get_free_pages(c->gfp, 3);
		struct page *page;

		KTEST_ASSERT_NE(t, addr, 0UL);
		page = virt_to_page((void *)addr);
		get_page(page);
		free_pages(addr, 3);
		put_page(page);
	}
	KTEST_EXPECT_EQ(t, pages_free(), free);
	KTEST_EXPECT_EQ(t, page_alloc_check(), 0);
}

/*
 * A compound page: a reference taken through a tail counts on the head;
 * __free_pages() then frees nothing, and the last put_page(), through
 * any page, frees the whole block at its order.
 */
static void test_compound(struct ktest *t)
{
	unsigned long free = count_start(t);
	struct page *page = alloc_pages(GFP_KERNEL | __GFP_COMP, 2);

	KTEST_ASSERT_NOT_NULL(t, page);
	get_page(page + 3);
	KTEST_EXPECT_EQ(t, page_ref_count(page), 2);
	KTEST_EXPECT_EQ(t, page_ref_count(page + 3), 0);
	__free_pages(page, 2);
	KTEST_EXPECT_EQ(t, pages_free(), free - 4);
	KTEST_EXPECT_TRUE(t, PageHead(page));
	KTEST_EXPECT_PTR_EQ(t, compound_head(page + 2), page);
	put_page(page + 2);
	KTEST_EXPECT_EQ(t, pages_free(), free);
	KTEST_EXPECT_FALSE(t, PageCompound(page));
	KTEST_EXPECT_FALSE(t, PageCompound(page + 2));

	/* The only reference, dropped by put_page(): the whole block. */
	page = alloc_pages(GFP_KERNEL | __GFP_COMP, 3);
	KTEST_ASSERT_NOT_NULL(t, page);
	put_page(page + 5);
	KTEST_EXPECT_EQ(t, pages_free(), free);
}

/* split_page(): 2^order order-0 pages, one reference each. */
static void test_split_page(struct ktest *t)
{
	unsigned long free = count_start(t);
	struct page *page = alloc_pages(GFP_KERNEL, 2);

	KTEST_ASSERT_NOT_NULL(t, page);
	split_page(page, 2);
	for (unsigned int i = 0; i < 4; i++) {
		KTEST_EXPECT_EQ(t, page_ref_count(page + i), 1);
		KTEST_EXPECT_EQ(t, page[i].alloc_order, 0U);
	}
	get_page(page + 2);
	put_page(page + 1);
	__free_page(page + 2);
	__free_page(page + 3);
	put_page(page);
	KTEST_EXPECT_EQ(t, pages_free(), free - 1);
	put_page(page + 2);
	KTEST_EXPECT_EQ(t, pages_free(), free);
}

/* A slab's page: references may come and go, the slab's own stays. */
static void test_slab_page_refs(struct ktest *t)
{
	void *obj = kmalloc(64, GFP_KERNEL);
	struct page *page;

	KTEST_ASSERT_NOT_NULL(t, obj);
	page = compound_head(virt_to_page(obj));
	KTEST_EXPECT_EQ(t, page_ref_count(page), 1);
	get_page(virt_to_page(obj));
	KTEST_EXPECT_EQ(t, page_ref_count(page), 2);
	put_page(virt_to_page(obj));
	KTEST_EXPECT_EQ(t, page_ref_count(page), 1);
	KTEST_EXPECT_TRUE(t, PageSlab(page));
	kfree(obj);
}

/* --- several CPUs -------------------------------------------------------- */

#define SMP_REFS	20000

struct ref_worker {
	struct page *page;
	unsigned long rounds;
	bool put_last;		/* end with one put_page() of a held reference */
};

static void ref_worker(void *arg)
{
	struct ref_worker *w = arg;

	for (unsigned long i = 0; i < w->rounds; i++) {
		get_page(w->page);
		put_page(w->page);
	}
	if (w->put_last)
		put_page(w->page);
}

/*
 * Every CPU takes and drops references to one page at once, then each
 * drops one it was given: the count never reaches 0 early (no report),
 * and exactly the last put frees the page, once.
 */
static void test_smp_get_put(struct ktest *t)
{
	static struct ref_worker workers[NR_CPUS];
	unsigned int nr = min(nr_cpu_ids, 8U);
	unsigned long free;
	struct page *page;
	int err;

	if (nr < 2)
		ktest_skip(t, "one CPU online");
	free = count_start(t);
	page = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, page);
	for (unsigned int c = 1; c < nr; c++)
		get_page(page);		/* one each to drop at the end */
	ktest_capture_start(t, BAD_PAGE);
	for (unsigned int c = 1; c < nr; c++) {
		workers[c] = (struct ref_worker){ page, SMP_REFS, true };
		err = arch_cpu_run(c, ref_worker, &workers[c]);
		if (err == -ENOSYS) {
			workers[c].rounds = 0;
			ref_worker(&workers[c]);
			continue;
		}
		KTEST_EXPECT_EQ(t, err, 0);
		if (err)
			put_page(page);
	}
	workers[0] = (struct ref_worker){ page, SMP_REFS, true };
	ref_worker(&workers[0]);
	for (unsigned int c = 1; c < nr; c++)
		arch_cpu_join(c);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
	KTEST_EXPECT_EQ(t, page_ref_count(page), 0);
	KTEST_EXPECT_EQ(t, pages_free(), free);
}

/* --- bad input ----------------------------------------------------------- */

/*
 * op (put_page or get_page) on a page just freed: one report of kind,
 * saying what, no reference count changed, the free lists untouched.
 */
static void ref_op_on_free_page(struct ktest *t, void (*op)(struct page *),
				enum report_kind kind, const char *what)
{
	struct page *page = alloc_page(GFP_KERNEL);
	unsigned long free;

	KTEST_ASSERT_NOT_NULL(t, page);
	__free_page(page);
	free = count_start(t);
	ktest_capture_start(t, BAD_PAGE);
	op(page);
	expect_one_report(t, kind);
	KTEST_EXPECT_CAPTURED(t, what);
	KTEST_EXPECT_EQ(t, page_ref_count(page), 0);
	KTEST_EXPECT_EQ(t, pages_free(), free);
	expect_sane(t);
}

/* put_page() of a free page: reported, the free lists untouched. */
static void test_put_free_page(struct ktest *t)
{
	ref_op_on_free_page(t, put_page, REPORT_BAD_PAGE_PUT_UNDERFLOW,
			    "order:0: put_page() of a page with refcount 0: page_ref underflow");
}

/* The same with the page merged into a free block on the buddy lists. */
static void test_put_buddy_page(struct ktest *t)
{
	struct page *page = alloc_pages(GFP_KERNEL, 4);	/* not per-CPU */
	unsigned long free;

	KTEST_ASSERT_NOT_NULL(t, page);
	__free_pages(page, 4);
	free = count_start(t);
	ktest_capture_start(t, BAD_PAGE);
	put_page(page);
	put_page(page + 1);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 2U);
	KTEST_EXPECT_REPORTS(t, REPORT_BAD_PAGE_PUT_UNDERFLOW, 2);
	KTEST_EXPECT_EQ(t, pages_free(), free);
	expect_sane(t);
}

/* A second put of the last reference: the first frees, the second reports. */
static void test_double_put(struct ktest *t)
{
	unsigned long free = count_start(t);
	struct page *page = alloc_pages(GFP_KERNEL | __GFP_COMP, 1);

	KTEST_ASSERT_NOT_NULL(t, page);
	get_page(page);
	put_page(page);
	put_page(page + 1);
	KTEST_EXPECT_EQ(t, pages_free(), free);
	ktest_capture_start(t, BAD_PAGE);
	put_page(page);
	expect_one_report(t, REPORT_BAD_PAGE_PUT_UNDERFLOW);
	KTEST_EXPECT_EQ(t, pages_free(), free);
	expect_sane(t);
}

/* get_page() of a free page: reported, no reference taken. */
static void test_get_free_page(struct ktest *t)
{
	ref_op_on_free_page(t, get_page, REPORT_BAD_PAGE_REF_ZERO,
			    "order:0: refcount 0: a reference to a free page, or not the first page of its block");
}

/* get_page() of an inner page of a plain block, which holds no count. */
static void test_get_inner_page(struct ktest *t)
{
	struct page *page = alloc_pages(GFP_KERNEL, 2);

	KTEST_ASSERT_NOT_NULL(t, page);
	ktest_capture_start(t, BAD_PAGE);
	get_page(page + 1);
	expect_one_report(t, REPORT_BAD_PAGE_REF_ZERO);
	KTEST_EXPECT_EQ(t, page_ref_count(page + 1), 0);
	KTEST_EXPECT_EQ(t, page_ref_count(page), 1);
	__free_pages(page, 2);
	expect_sane(t);
}

/* split_page() of a compound page: refused, the compound page intact. */
static void test_split_compound(struct ktest *t)
{
	unsigned long free = count_start(t);
	struct page *page = alloc_pages(GFP_KERNEL | __GFP_COMP, 2);

	KTEST_ASSERT_NOT_NULL(t, page);
	ktest_capture_start(t, BAD_PAGE);
	split_page(page, 2);
	split_page(page + 1, 0);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 2U);
	KTEST_EXPECT_REPORTS(t, REPORT_BAD_PAGE_SPLIT_COMPOUND, 2);
	KTEST_EXPECT_CAPTURED(t, "order:2: split_page() of a compound page");
	KTEST_EXPECT_TRUE(t, PageHead(page));
	KTEST_EXPECT_EQ(t, compound_order(page), 2U);
	for (unsigned int i = 1; i < 4; i++) {
		KTEST_EXPECT_PTR_EQ(t, compound_head(page + i), page);
		KTEST_EXPECT_EQ(t, page_ref_count(page + i), 0);
	}
	__free_pages(page, 2);
	KTEST_EXPECT_EQ(t, pages_free(), free);
	expect_sane(t);
}

/* split_page() of a free block, or at an order not the block's: refused. */
static void test_split_bad(struct ktest *t)
{
	unsigned long free = count_start(t);
	struct page *page = alloc_pages(GFP_KERNEL, 2);

	KTEST_ASSERT_NOT_NULL(t, page);
	ktest_capture_start(t, BAD_PAGE);
	split_page(page, 1);
	expect_one_report(t, REPORT_BAD_PAGE_WRONG_ORDER);
	KTEST_EXPECT_EQ(t, page_ref_count(page + 1), 0);
	KTEST_EXPECT_EQ(t, page->alloc_order, 2U);
	__free_pages(page, 2);
	KTEST_EXPECT_EQ(t, pages_free(), free);
	ktest_capture_start(t, BAD_PAGE);
	split_page(page, 2);
	expect_one_report(t, REPORT_BAD_PAGE_REF_ZERO);
	for (unsigned int i = 0; i < 4; i++)
		KTEST_EXPECT_EQ(t, page_ref_count(page + i), 0);
	KTEST_EXPECT_EQ(t, pages_free(), free);
	expect_sane(t);
}

/*
 * put_page() of a slab's last reference: only SLAB frees its pages, so
 * this is reported and the slab left as it was.
 */
static void test_put_slab_page(struct ktest *t)
{
	void *obj = kmalloc(64, GFP_KERNEL);
	struct page *page;

	KTEST_ASSERT_NOT_NULL(t, obj);
	page = compound_head(virt_to_page(obj));
	ktest_capture_start(t, BAD_PAGE);
	put_page(virt_to_page(obj));
	expect_one_report(t, REPORT_BAD_PAGE_SLAB);
	KTEST_EXPECT_EQ(t, page_ref_count(page), 1);
	KTEST_EXPECT_TRUE(t, PageSlab(page));
	memset(obj, 0x11, 64);
	kfree(obj);
	expect_sane(t);
}

/*
 * put_page() of the only reference of a plain block above order 0: it
 * would free the first page alone (Linux frees it at order 0 and loses
 * the rest). Reported, the block kept; __free_pages() frees it.
 */
static void test_put_plain_block(struct ktest *t)
{
	unsigned long free = count_start(t);
	struct page *page = alloc_pages(GFP_KERNEL, 3);

	KTEST_ASSERT_NOT_NULL(t, page);
	ktest_capture_start(t, BAD_PAGE);
	put_page(page);
	expect_one_report(t, REPORT_BAD_PAGE_WRONG_ORDER);
	KTEST_EXPECT_EQ(t, page_ref_count(page), 1);
	KTEST_EXPECT_EQ(t, pages_free(), free - 8);
	__free_pages(page, 3);
	KTEST_EXPECT_EQ(t, pages_free(), free);
	expect_sane(t);
}

/* Pointers that are no struct page of RAM. */
static void test_not_a_page(struct ktest *t)
{
	static unsigned long not_a_page[8];
	struct page *page = (struct page *)not_a_page;

	ktest_capture_start(t, BAD_PAGE);
	get_page(page);
	put_page(page);
	put_page((struct page *)((char *)vmemmap + 8));
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 3U);
	KTEST_EXPECT_REPORTS(t, REPORT_BAD_PAGE_NOT_RAM, 3);
	for (unsigned int i = 0; i < ARRAY_SIZE(not_a_page); i++)
		KTEST_EXPECT_EQ(t, not_a_page[i], 0UL);	/* nothing written */
	expect_sane(t);
}

static const struct ktest_case page_ref_cases[] = {
	KTEST_CASE(test_order0_get_put),
	KTEST_CASE(test_order0_put_frees),
	KTEST_CASE(test_page_ref_helpers),
	KTEST_CASE(test_free_held_block),
	KTEST_CASE_PARAM(test_free_pages_loop, gfp_gen),
	KTEST_CASE(test_compound),
	KTEST_CASE(test_split_page),
	KTEST_CASE(test_slab_page_refs),
	KTEST_CASE(test_smp_get_put),
	KTEST_CASE(test_put_free_page),
	KTEST_CASE(test_put_buddy_page),
	KTEST_CASE(test_double_put),
	KTEST_CASE(test_get_free_page),
	KTEST_CASE(test_get_inner_page),
	KTEST_CASE(test_split_compound),
	KTEST_CASE(test_split_bad),
	KTEST_CASE(test_put_slab_page),
	KTEST_CASE(test_put_plain_block),
	KTEST_CASE(test_not_a_page),
	{}
};
KTEST_SUITE(page_ref, page_ref_cases);

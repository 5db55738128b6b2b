// SPDX-License-Identifier: GPL-2.0
/*
 * vmalloc: areas of the kernel's vmalloc window (mm/vmalloc.h).
 *
 * Address space. Each range of the window is a struct vmap_area
 * [va_start, va_end), in one of three places, all under vmap_area_lock:
 *
 *   free tree    the free ranges, never two touching (a freed range is
 *                merged with its neighbours). An AVL tree by address,
 *                augmented: each node keeps subtree_max_size, the largest
 *                free range below it, so the lowest range that fits is
 *                found in one descent, O(log n), as Linux's augmented
 *                rb-tree does. Its total is free_bytes.
 *   busy tree    the live areas, by address (the same AVL code), each
 *                with its struct vm_struct: for lookups by address.
 *   purge list   areas freed but not yet flushed from other CPUs' TLBs
 *                (lazy_pages of them). Their page-table entries are
 *                cleared at once, but the range is not reused until a
 *                purge has shot the TLBs down on every CPU; a purge runs
 *                when more than lazy_max_pages() build up (32 MiB worth
 *                per log2(CPUs) + 1, as Linux), when the window is full,
 *                or on vm_unmap_aliases(). One shootdown covers them all.
 *
 * An area's range includes one guard page after it, never mapped.
 *
 * Purges are serialised by vmap_purge_lock (Linux's vmap_purge_lock, a
 * mutex there), held from taking the purge list to giving its ranges
 * back, the shootdown included: whoever returns from a purge, or finds
 * no room after one, knows that every area freed before it began is off
 * every CPU's TLB, not only those its own purge took. The lock is held
 * with interrupts on (the shootdown waits for the other CPUs' answers),
 * and waited for with interrupts on, so the holder's IPIs are served by
 * a CPU waiting for it; the wait is bounded (PURGE_LOCK_TIMEOUT_NS,
 * then a panic naming the holder). A work function may wait for it too:
 * it never runs on a CPU that holds a lock (kernel/preempt.h). The purge
 * of too many lazy pages, which nobody waits for, only tries it.
 *
 * Lock order: vmap_purge_lock (interrupts on, never in a handler), then
 * vmap_area_lock (interrupts off, also taken by vfree() in a handler),
 * under which records go back to their cache (n->list_lock) and reports
 * print. The arch's page-table lock is taken under neither.
 *
 * vfree() in interrupt context or with interrupts off checks the area
 * and puts it on the deferred list (through va->list; it stays in the
 * busy tree, marked so) that a work item empties.
 */
#include "mm/vmalloc.h"
#include "arch/arch.h"
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/kernel.h"
#include "kernel/printk.h"
#include "kernel/report.h"
#include "kernel/shell.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/workqueue.h"
#include "lib/bitops.h"
#include "lib/list.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/kasan.h"
#include "mm/slab.h"

struct vmap_area {
	unsigned long va_start;
	unsigned long va_end;
	struct vmap_area *left, *right;
	unsigned long subtree_max_size;	/* free tree: largest range below */
	int height;
	struct list_head list;		/* purge list; busy: deferred list */
	struct vm_struct *vm;		/* busy: the area */
};

static DEFINE_SPINLOCK(vmap_area_lock);
static DEFINE_SPINLOCK(vmap_purge_lock);
static unsigned int vmap_purge_owner;	/* the CPU holding it, for a report */
static unsigned long purge_seq;		/* purges begun; vmap_purge_lock */
static struct vmap_area *free_root;
static struct vmap_area *busy_root;
static LIST_HEAD(purge_list);
static LIST_HEAD(deferred_list);
static unsigned long free_bytes;
static unsigned long lazy_pages;
static unsigned long nr_busy;
static unsigned long nr_purges;
static unsigned long nr_shootdowns;
static unsigned long nr_vmalloc_pages;
static bool vmap_initialized;
/*
 * The records, in a cache of their own: the one that survives as the
 * free tree's big range may change, and in a shared kmalloc cache it
 * would pin a slab that other objects share.
 */
static struct kmem_cache *vmap_area_cachep;

static void free_va(struct vmap_area *va)
{
	if (va)
		kmem_cache_free(vmap_area_cachep, va);
}

/*
 * The flags for vmalloc's own records and pages array: the caller's
 * reclaim and warning choices, never its zone or __GFP_ZERO.
 */
static gfp_t vm_gfp(gfp_t gfp)
{
	return gfp & (GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY);
}

/* --- the AVL trees ------------------------------------------------------ */

static unsigned long va_size(const struct vmap_area *va)
{
	return va->va_end - va->va_start;
}

static int height(const struct vmap_area *n)
{
	return n ? n->height : 0;
}

static unsigned long subtree_max(const struct vmap_area *n)
{
	return n ? n->subtree_max_size : 0;
}

static void avl_update(struct vmap_area *n)
{
	n->height = 1 + max(height(n->left), height(n->right));
	n->subtree_max_size = max3(va_size(n), subtree_max(n->left),
				   subtree_max(n->right));
}

static struct vmap_area *rotate_right(struct vmap_area *n)
{
	struct vmap_area *l = n->left;

	n->left = l->right;
	l->right = n;
	avl_update(n);
	avl_update(l);
	return l;
}

static struct vmap_area *rotate_left(struct vmap_area *n)
{
	struct vmap_area *r = n->right;

	n->right = r->left;
	r->left = n;
	avl_update(n);
	avl_update(r);
	return r;
}

static struct vmap_area *rebalance(struct vmap_area *n)
{
	int balance;

	avl_update(n);
	balance = height(n->left) - height(n->right);
	if (balance > 1) {
		if (height(n->left->left) < height(n->left->right))
			n->left = rotate_left(n->left);
		return rotate_right(n);
	}
	if (balance < -1) {
		if (height(n->right->right) < height(n->right->left))
			n->right = rotate_right(n->right);
		return rotate_left(n);
	}
	return n;
}

static struct vmap_area *avl_insert(struct vmap_area *root,
				    struct vmap_area *va)
{
	if (!root) {
		va->left = va->right = NULL;
		avl_update(va);
		return va;
	}
	BUG_ON(va->va_start < root->va_end && root->va_start < va->va_end);
	if (va->va_start < root->va_start)
		root->left = avl_insert(root->left, va);
	else
		root->right = avl_insert(root->right, va);
	return rebalance(root);
}

static struct vmap_area *avl_remove_min(struct vmap_area *root,
					struct vmap_area **min)
{
	if (!root->left) {
		*min = root;
		return root->right;
	}
	root->left = avl_remove_min(root->left, min);
	return rebalance(root);
}

/* Remove va (which is in the tree) by its key. */
static struct vmap_area *avl_remove(struct vmap_area *root,
				    struct vmap_area *va)
{
	struct vmap_area *min;

	BUG_ON(!root);
	if (va->va_start < root->va_start) {
		root->left = avl_remove(root->left, va);
	} else if (va->va_start > root->va_start) {
		root->right = avl_remove(root->right, va);
	} else {
		BUG_ON(root != va);
		if (!va->left || !va->right)
			return va->left ? va->left : va->right;
		va->right = avl_remove_min(va->right, &min);
		min->left = va->left;
		min->right = va->right;
		root = min;
	}
	return rebalance(root);
}

/*
 * va's range changed without passing another node's: the path to it is
 * the one to its new start; redo the sums on that path.
 */
static void avl_refresh(struct vmap_area *root, const struct vmap_area *va)
{
	if (!root)
		return;
	if (va->va_start < root->va_start)
		avl_refresh(root->left, va);
	else if (va->va_start > root->va_start)
		avl_refresh(root->right, va);
	avl_update(root);
}

/* The node whose range holds addr. */
static struct vmap_area *avl_find(struct vmap_area *n, unsigned long addr)
{
	while (n) {
		if (addr < n->va_start)
			n = n->left;
		else if (addr >= n->va_end)
			n = n->right;
		else
			return n;
	}
	return NULL;
}

/* The node with the largest start below addr, or the smallest above. */
static struct vmap_area *avl_prev(struct vmap_area *n, unsigned long addr)
{
	struct vmap_area *best = NULL;

	while (n) {
		if (n->va_start < addr) {
			best = n;
			n = n->right;
		} else {
			n = n->left;
		}
	}
	return best;
}

static struct vmap_area *avl_next(struct vmap_area *n, unsigned long addr)
{
	struct vmap_area *best = NULL;

	while (n) {
		if (n->va_start >= addr) {
			best = n;
			n = n->left;
		} else {
			n = n->right;
		}
	}
	return best;
}

/* --- free space ----------------------------------------------------------- */

/*
 * The lowest free range of at least length bytes: go left while the
 * left subtree has one, else this node, else right.
 */
static struct vmap_area *find_lowest_match(unsigned long length)
{
	struct vmap_area *n = free_root;

	while (n) {
		if (subtree_max(n->left) >= length)
			n = n->left;
		else if (va_size(n) >= length)
			return n;
		else if (subtree_max(n->right) >= length)
			n = n->right;
		else
			return NULL;
	}
	return NULL;
}

/* Give [va) back to the free tree, merged with the ranges it touches. */
static void free_range_merge(struct vmap_area *va)
{
	struct vmap_area *prev = avl_prev(free_root, va->va_start);
	struct vmap_area *next = avl_next(free_root, va->va_end);

	free_bytes += va_size(va);
	if (next && next->va_start != va->va_end)
		next = NULL;
	if (prev && prev->va_end != va->va_start)
		prev = NULL;
	if (prev && next) {
		/*
		 * next lives on: the window's top range is always a next,
		 * so its record stays the same one for good.
		 */
		free_root = avl_remove(free_root, prev);
		next->va_start = prev->va_start;
		avl_refresh(free_root, next);
		free_va(prev);
		free_va(va);
	} else if (next) {
		next->va_start = va->va_start;
		avl_refresh(free_root, next);
		free_va(va);
	} else if (prev) {
		prev->va_end = va->va_end;
		avl_refresh(free_root, prev);
		free_va(va);
	} else {
		free_root = avl_insert(free_root, va);
	}
}

/*
 * Cut [start, start + size) out of the free range fva. A cut in the
 * middle leaves two ranges: the lower one goes into *spare.
 */
static void free_range_cut(struct vmap_area *fva, unsigned long start,
			   unsigned long size, struct vmap_area **spare)
{
	unsigned long end = start + size;

	BUG_ON(start < fva->va_start || end > fva->va_end);
	free_bytes -= size;
	if (fva->va_start == start && fva->va_end == end) {
		free_root = avl_remove(free_root, fva);
		free_va(fva);
	} else if (fva->va_start == start) {
		fva->va_start = end;
		avl_refresh(free_root, fva);
	} else if (fva->va_end == end) {
		fva->va_end = start;
		avl_refresh(free_root, fva);
	} else {
		struct vmap_area *lva = *spare;

		*spare = NULL;
		lva->va_start = fva->va_start;
		lva->va_end = start;
		fva->va_start = end;
		avl_refresh(free_root, fva);
		free_root = avl_insert(free_root, lva);
	}
}

/* --- TLB shootdown and the lazy purge ----------------------------------- */

struct flush_range {
	unsigned long start, end;
};

static void do_flush_tlb_kernel_range(void *info)
{
	const struct flush_range *r = info;

	arch_flush_tlb_kernel_range(r->start, r->end);
}

/* Flush [start, end) from every CPU's TLB, waiting for each to say so. */
static void flush_tlb_kernel_range(unsigned long start, unsigned long end)
{
	struct flush_range r = { start, end };

	WARN_ON(arch_irqs_disabled() || in_interrupt());
	WARN_ON(on_each_cpu(do_flush_tlb_kernel_range, &r, true));
	WRITE_ONCE(nr_shootdowns, nr_shootdowns + 1);
}

unsigned long lazy_max_pages(void)
{
	return ((32UL << 20) >> PAGE_SHIFT) * (unsigned long)fls(num_online_cpus());
}

/*
 * Longer than a holder's purge can take: its shootdown panics itself
 * after SMP_CALL_TIMEOUT_NS for a CPU that does not answer.
 */
#define PURGE_LOCK_TIMEOUT_NS	(3 * SMP_CALL_TIMEOUT_NS)

/* One try at the lock word (the validator is told by the caller). */
static bool purge_lock_try_raw(void)
{
	return !__atomic_exchange_n(&vmap_purge_lock.locked, 1, __ATOMIC_ACQUIRE);
}

/*
 * Take vmap_purge_lock: interrupts on, outside a handler. Without wait,
 * only try (false: another purge runs); else wait, bounded, with
 * interrupts on, as spin_lock() would (preemption off, the validator
 * told before the wait).
 */
static bool purge_lock(bool wait)
{
	u64 deadline = 0;
	unsigned int spins = 0;

	if (!wait) {
		if (!spin_trylock(&vmap_purge_lock))
			return false;
		vmap_purge_owner = smp_processor_id();
		return true;
	}
	preempt_disable();
	if (IS_ENABLED(CONFIG_PROVE_LOCKING))
		lock_acquire(spin_dep_map(&vmap_purge_lock), 0, false);
	while (!purge_lock_try_raw()) {
		arch_cpu_relax();
		if (++spins & 1023)
			continue;
		if (!deadline) {
			deadline = arch_clock_ns() + PURGE_LOCK_TIMEOUT_NS;
		} else if (arch_clock_ns() > deadline) {
			pr_emerg("vmalloc: CPU %u waited %llu s for the purge lock, held by CPU %u\n",
				 smp_processor_id(),
				 PURGE_LOCK_TIMEOUT_NS / 1000000000ULL,
				 READ_ONCE(vmap_purge_owner));
			panic("vmalloc: a purge did not finish");
		}
	}
	vmap_purge_owner = smp_processor_id();
	return true;
}

/*
 * Flush the lazily freed areas from every CPU, then give their ranges
 * back to the free tree; vmap_purge_lock held. The page-table pages
 * emptied before the flush began are freed after it (a CPU's
 * paging-structure caches may point at them until then); with no area
 * waiting they still get a flush.
 */
static void __purge_vmap_area_lazy(void)
{
	unsigned long flags, start = ULONG_MAX, end = 0;
	struct vmap_area *va, *tmp;
	struct page *page, *next;
	LIST_HEAD(local);
	LIST_HEAD(tables);

	lockdep_assert_held(&vmap_purge_lock);
	__atomic_store_n(&purge_seq, purge_seq + 1, __ATOMIC_RELAXED);
	arch_take_freed_pgtables(&tables);
	spin_lock_irqsave(&vmap_area_lock, flags);
	list_splice_init(&purge_list, &local);
	lazy_pages = 0;
	spin_unlock_irqrestore(&vmap_area_lock, flags);
	if (list_empty(&local) && list_empty(&tables))
		return;
	list_for_each_entry(va, &local, list) {
		start = min(start, va->va_start);
		end = max(end, va->va_end);
	}
	if (list_empty(&local)) {
		start = VMALLOC_START;
		end = VMALLOC_END;
	}
	flush_tlb_kernel_range(start, end);
	list_for_each_entry_safe(page, next, &tables, lru) {
		list_del(&page->lru);
		__free_page(page);
	}
	spin_lock_irqsave(&vmap_area_lock, flags);
	list_for_each_entry_safe(va, tmp, &local, list) {
		list_del(&va->list);
		free_range_merge(va);
	}
	nr_purges++;
	spin_unlock_irqrestore(&vmap_area_lock, flags);
}

/*
 * Purge, once every purge begun before has finished (wait), or only if
 * none runs (!wait: the purge of too many lazy pages, as Linux's
 * try_purge_vmap_area_lazy(); the running one takes most of them). A
 * purge that began while this one waited took every area freed before
 * the call (and the tables emptied): then nothing is left to do, and
 * CPUs that pile up on the lock cost one shootdown, not one each. With
 * interrupts off or in a handler no IPI may be sent, so nothing is
 * purged there: the areas wait for the next caller that can flush (an
 * atomic vmalloc in a full window then fails).
 */
static void purge_vmap_area_lazy(bool wait)
{
	unsigned long seq;

	if (arch_irqs_disabled() || in_interrupt())
		return;
	seq = __atomic_load_n(&purge_seq, __ATOMIC_ACQUIRE);
	if (!purge_lock(wait))
		return;
	if (purge_seq == seq)
		__purge_vmap_area_lazy();
	spin_unlock(&vmap_purge_lock);
}

void vm_unmap_aliases(void)
{
	purge_vmap_area_lazy(true);
}

/* --- areas ---------------------------------------------------------------- */

/*
 * A range of size bytes (guard page included) aligned to align, or
 * NULL. When the window is full the lazily freed areas are purged and
 * the search made once more.
 */
static struct vmap_area *alloc_vmap_area(unsigned long size,
					 unsigned long align, gfp_t gfp)
{
	unsigned long flags;
	unsigned long length = size + align - PAGE_SIZE;
	struct vmap_area *va, *spare, *fva;
	bool purged = false;

	if (length < size)
		return NULL;
	va = kmem_cache_alloc(vmap_area_cachep, vm_gfp(gfp));
	spare = kmem_cache_alloc(vmap_area_cachep, vm_gfp(gfp));
	if (!va || !spare)
		goto fail;
	for (;;) {
		spin_lock_irqsave(&vmap_area_lock, flags);
		fva = find_lowest_match(length);
		/* Even with the list empty: another CPU's purge may hold it. */
		if (fva || purged)
			break;
		spin_unlock_irqrestore(&vmap_area_lock, flags);
		purge_vmap_area_lazy(true);
		purged = true;
	}
	if (!fva) {
		spin_unlock_irqrestore(&vmap_area_lock, flags);
		goto fail;
	}
	va->va_start = ALIGN(fva->va_start, align);
	va->va_end = va->va_start + size;
	INIT_LIST_HEAD(&va->list);
	free_range_cut(fva, va->va_start, size, &spare);
	busy_root = avl_insert(busy_root, va);
	nr_busy++;
	spin_unlock_irqrestore(&vmap_area_lock, flags);
	free_va(spare);
	return va;
fail:
	free_va(va);
	free_va(spare);
	return NULL;
}

static struct vm_struct *get_vm_area(unsigned long size, unsigned long align,
				     unsigned int flags, gfp_t gfp,
				     const void *caller)
{
	struct vm_struct *vm = kzalloc(sizeof(*vm), vm_gfp(gfp));
	struct vmap_area *va;

	if (!vm)
		return NULL;
	va = alloc_vmap_area(size + PAGE_SIZE, max(align, PAGE_SIZE), gfp);
	if (!va) {
		kfree(vm);
		return NULL;
	}
	vm->addr = (void *)va->va_start;
	vm->size = size + PAGE_SIZE;
	vm->flags = flags;
	vm->caller = caller;
	va->vm = vm;
	/* Valid to its size (vmalloc() cuts it to the size asked for). */
	kasan_unpoison_vmalloc(vm->addr, size, vm->size);
	return vm;
}

static unsigned long get_vm_area_size(const struct vm_struct *vm)
{
	return vm->size - PAGE_SIZE;
}

static bool on_purge_list(unsigned long addr)
{
	struct vmap_area *va;

	list_for_each_entry(va, &purge_list, list) {
		if (addr >= va->va_start && addr < va->va_end)
			return true;
	}
	return false;
}

static const char *vm_kind(unsigned int flags)
{
	return flags & VM_ALLOC ? "vmalloc" : flags & VM_MAP ? "vmap" :
	       flags & VM_IOREMAP ? "ioremap" : "area";
}

/*
 * The live area starting at a, of kind want and not queued for a
 * deferred free: REPORT_NONE and *vap. Else the kind of report and in
 * *why what lies at a. vmap_area_lock held.
 */
static enum report_kind find_area_to_free(unsigned long a, unsigned int want,
					  struct vmap_area **vap,
					  const char **why)
{
	struct vmap_area *va = avl_find(busy_root, a);

	*vap = va;
	if (va && va->va_start == a && !list_empty(&va->list)) {
		*why = "already freed (its deferred free is pending)";
		return REPORT_VMALLOC_DOUBLE_FREE;
	}
	if (va && va->va_start == a && va->vm->flags & want)
		return REPORT_NONE;
	if (va && va->va_start == a) {
		*why = vm_kind(va->vm->flags);
		return REPORT_VMALLOC_WRONG_KIND;
	}
	if (va) {
		*why = "inside an area, not its start";
		return REPORT_VMALLOC_BAD_FREE;
	}
	if (on_purge_list(a) || avl_find(free_root, a)) {
		*why = "already freed";
		return REPORT_VMALLOC_DOUBLE_FREE;
	}
	*why = "no area there";
	return REPORT_VMALLOC_BAD_FREE;
}

/* A bad free of addr by caller, through fn: reported, nothing changed. */
static void report_bad_free(enum report_kind kind, const char *why,
			    const char *fn, const void *addr, const void *caller)
{
	report_kind(kind);
	if (kind == REPORT_VMALLOC_WRONG_KIND)
		pr_err("BUG: %s: %px is the start of a %s area, not %s's\n",
		       fn, addr, why, fn);
	else
		pr_err("BUG: %s: bad address %px: %s\n", fn, addr, why);
	pr_err("caller: %pS\n", caller);
	dump_stack();
}

/*
 * Claim the live area starting at addr of kind want for a free: take it
 * out of the busy tree or, with defer, queue it on deferred_list (it
 * stays in the tree, marked). NULL with a report if there is none (the
 * caller's name in it).
 */
static struct vmap_area *claim_vmap_area(const void *addr, unsigned int want,
					 bool defer, const char *fn,
					 const void *caller)
{
	unsigned long flags;
	enum report_kind kind;
	struct vmap_area *va;
	const char *why;

	if (!is_vmalloc_addr(addr)) {
		report_bad_free(REPORT_VMALLOC_BAD_FREE, "not in the vmalloc area",
				fn, addr, caller);
		return NULL;
	}
	spin_lock_irqsave(&vmap_area_lock, flags);
	kind = find_area_to_free((unsigned long)addr, want, &va, &why);
	if (kind == REPORT_NONE && defer) {
		list_add_tail(&va->list, &deferred_list);
	} else if (kind == REPORT_NONE) {
		busy_root = avl_remove(busy_root, va);
		nr_busy--;
	}
	spin_unlock_irqrestore(&vmap_area_lock, flags);
	if (kind == REPORT_NONE)
		return va;
	report_bad_free(kind, why, fn, addr, caller);
	return NULL;
}

static struct vmap_area *take_vmap_area(const void *addr, unsigned int want,
					const char *fn, const void *caller)
{
	return claim_vmap_area(addr, want, false, fn, caller);
}

/* Unmap a taken area and queue its range for the lazy purge. */
static void free_vmap_area_lazy(struct vmap_area *va)
{
	unsigned long flags;
	bool purge;

	arch_unmap_kernel_range(va->va_start, va_size(va));
	spin_lock_irqsave(&vmap_area_lock, flags);
	list_add_tail(&va->list, &purge_list);
	lazy_pages += va_size(va) >> PAGE_SHIFT;
	purge = lazy_pages > lazy_max_pages();
	spin_unlock_irqrestore(&vmap_area_lock, flags);
	if (purge)
		purge_vmap_area_lazy(false);
}

static int map_area_pages(struct vm_struct *vm, struct page **pages,
			  unsigned int count, pgprot_t prot)
{
	unsigned long addr = (unsigned long)vm->addr;

	for (unsigned int i = 0; i < count; i++) {
		int err = arch_map_kernel_page(addr + i * PAGE_SIZE,
					       page_to_pfn(pages[i]), prot);

		if (err) {
			arch_unmap_kernel_range(addr, i * PAGE_SIZE);
			return err;
		}
	}
	return 0;
}

/* --- vmalloc and vfree ----------------------------------------------------- */

static void free_pages_array(struct vm_struct *vm)
{
	if (is_vmalloc_addr(vm->pages))
		vfree(vm->pages);
	else
		kfree(vm->pages);
}

static void vm_free_pages(struct vm_struct *vm, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++)
		__free_page(vm->pages[i]);
}

/* Refuse a size of 0 or more than all RAM, with a report. */
static bool vmalloc_size_ok(unsigned long size, gfp_t gfp, const void *caller)
{
	if (size && size <= (totalram_pages << PAGE_SHIFT))
		return true;
	if (!(gfp & __GFP_NOWARN)) {
		report_kind(REPORT_VMALLOC_BAD_SIZE);
		WARN(1, "vmalloc error: size %lu, %s, caller %pS\n", size,
		     size ? "exceeds total pages" : "zero", caller);
	}
	return false;
}

/* The pages array: a page or less from kmalloc, more from vmalloc. */
static struct page **alloc_pages_array(unsigned int nr, gfp_t gfp, int node,
				       const void *caller)
{
	size_t bytes = (size_t)nr * sizeof(struct page *);

	if (bytes > PAGE_SIZE)
		return __vmalloc_node(bytes, 1, vm_gfp(gfp) | __GFP_ZERO,
				      node, caller);
	return kzalloc_node(bytes, vm_gfp(gfp), node);
}

void *__vmalloc_node(unsigned long size, unsigned long align, gfp_t gfp,
		     int node, const void *caller)
{
	unsigned long flags, asked = size;
	struct vm_struct *vm;
	unsigned int nr;

	if (!vmalloc_size_ok(size, gfp, caller))
		return NULL;
	if (WARN_ON(!align || (align & (align - 1))))
		return NULL;
	size = PAGE_ALIGN(size);
	nr = size >> PAGE_SHIFT;
	vm = get_vm_area(size, align, VM_ALLOC, gfp, caller);
	if (!vm)
		goto fail;
	vm->pages = alloc_pages_array(nr, gfp, node, caller);
	if (!vm->pages)
		goto fail_area;
	for (; vm->nr_pages < nr; vm->nr_pages++) {
		struct page *page = alloc_pages_node(node, gfp | __GFP_NOWARN, 0);

		if (!page)
			goto fail_pages;
		vm->pages[vm->nr_pages] = page;
	}
	if (map_area_pages(vm, vm->pages, nr, PAGE_KERNEL))
		goto fail_pages;
	spin_lock_irqsave(&vmap_area_lock, flags);
	nr_vmalloc_pages += nr;
	spin_unlock_irqrestore(&vmap_area_lock, flags);
	kasan_unpoison_vmalloc(vm->addr, asked, vm->size);
	return vm->addr;

fail_pages:
	vm_free_pages(vm, vm->nr_pages);
	free_pages_array(vm);
fail_area:
	free_vmap_area_lazy(take_vmap_area(vm->addr, VM_ALLOC, __func__, caller));
	kfree(vm);
fail:
	if (!(gfp & __GFP_NOWARN))
		pr_warn("vmalloc error: size %lu, failed to allocate, caller %pS\n",
			size, caller);
	return NULL;
}

void *__vmalloc(unsigned long size, gfp_t gfp)
{
	return __vmalloc_node(size, 1, gfp, NUMA_NO_NODE,
			      __builtin_return_address(0));
}

void *vmalloc(unsigned long size)
{
	return __vmalloc_node(size, 1, GFP_KERNEL, NUMA_NO_NODE,
			      __builtin_return_address(0));
}

void *vzalloc(unsigned long size)
{
	return __vmalloc_node(size, 1, GFP_KERNEL | __GFP_ZERO, NUMA_NO_NODE,
			      __builtin_return_address(0));
}

void *vmalloc_node(unsigned long size, int node)
{
	return __vmalloc_node(size, 1, GFP_KERNEL, node,
			      __builtin_return_address(0));
}

void *vzalloc_node(unsigned long size, int node)
{
	return __vmalloc_node(size, 1, GFP_KERNEL | __GFP_ZERO, node,
			      __builtin_return_address(0));
}

/* Free a vmalloc() area taken out of the busy tree, and its pages. */
static void vfree_area(struct vmap_area *va)
{
	struct vm_struct *vm = va->vm;
	unsigned long flags;

	kasan_poison_vmalloc(vm->addr, vm->size);
	free_vmap_area_lazy(va);
	vm_free_pages(vm, vm->nr_pages);
	free_pages_array(vm);
	spin_lock_irqsave(&vmap_area_lock, flags);
	nr_vmalloc_pages -= vm->nr_pages;
	spin_unlock_irqrestore(&vmap_area_lock, flags);
	kfree(vm);
}

/*
 * Areas vfree()d in interrupt context or with interrupts off wait on
 * deferred_list (through va->list) for the work item; they stay in the
 * busy tree meanwhile, so a second vfree() finds them queued and is
 * reported, and nothing is written into the area.
 */
static struct work_struct deferred_work;

static void vfree_deferred_work(struct work_struct *work)
{
	struct vmap_area *va, *tmp;
	unsigned long flags;
	LIST_HEAD(local);

	spin_lock_irqsave(&vmap_area_lock, flags);
	list_splice_init(&deferred_list, &local);
	list_for_each_entry(va, &local, list) {
		busy_root = avl_remove(busy_root, va);
		nr_busy--;
	}
	spin_unlock_irqrestore(&vmap_area_lock, flags);
	list_for_each_entry_safe(va, tmp, &local, list) {
		list_del_init(&va->list);
		vfree_area(va);
	}
}

/* Queue the area at addr for the work item, checked as vfree() checks. */
static void vfree_deferred(const void *addr, const void *caller)
{
	if (claim_vmap_area(addr, VM_ALLOC, true, "vfree", caller))
		schedule_work_on(smp_processor_id(), &deferred_work);
}

void vfree(const void *addr)
{
	const void *caller = __builtin_return_address(0);
	struct vmap_area *va;

	if (!addr)
		return;
	if (in_interrupt() || arch_irqs_disabled()) {
		vfree_deferred(addr, caller);
		return;
	}
	va = take_vmap_area(addr, VM_ALLOC, "vfree", caller);
	if (va)
		vfree_area(va);
}

/* --- vmap, ioremap ----------------------------------------------------------- */

void *vmap(struct page **pages, unsigned int count, unsigned int flags,
	   pgprot_t prot)
{
	const void *caller = __builtin_return_address(0);
	struct vm_struct *vm;

	if (!count || count > totalram_pages) {
		report_kind(REPORT_VMALLOC_BAD_SIZE);
		WARN(1, "vmap error: %u pages, caller %pS\n", count, caller);
		return NULL;
	}
	vm = get_vm_area((unsigned long)count << PAGE_SHIFT, PAGE_SIZE,
			 VM_MAP | flags, GFP_KERNEL, caller);
	if (!vm)
		return NULL;
	vm->nr_pages = count;
	if (map_area_pages(vm, pages, count, prot)) {
		free_vmap_area_lazy(take_vmap_area(vm->addr, VM_MAP, __func__, caller));
		kfree(vm);
		return NULL;
	}
	return vm->addr;
}

/* vunmap()/iounmap(): the area's pages stay the caller's. */
static void unmap_area(const void *addr, unsigned int flags, const char *fn,
		       const void *caller)
{
	struct vmap_area *va;
	struct vm_struct *vm;

	WARN_ON(in_interrupt() || arch_irqs_disabled());
	va = take_vmap_area(addr, flags, fn, caller);
	if (!va)
		return;
	vm = va->vm;
	free_vmap_area_lazy(va);
	kfree(vm);
}

void vunmap(const void *addr)
{
	if (addr)
		unmap_area(addr, VM_MAP, "vunmap", __builtin_return_address(0));
}

/* Areas ioremap()ed before vmalloc_init(): the local APIC's. */
#define NR_EARLY_VMS	4
static struct vm_struct early_vms[NR_EARLY_VMS];
static unsigned int nr_early_vms;
static unsigned long early_end;

static struct vm_struct *early_vm_area(unsigned long size, const void *caller)
{
	struct vm_struct *vm;

	BUG_ON(nr_early_vms == NR_EARLY_VMS);
	vm = &early_vms[nr_early_vms++];
	vm->addr = (void *)(VMALLOC_START + early_end);
	vm->size = size + PAGE_SIZE;
	vm->flags = VM_IOREMAP;
	vm->caller = caller;
	early_end += vm->size;
	return vm;
}

static void *__ioremap(phys_addr_t phys, unsigned long size, pgprot_t prot,
		       const void *caller)
{
	unsigned long offset = phys & ~PAGE_MASK, addr;
	struct vm_struct *vm;

	if (!size || phys + size < phys)
		return NULL;
	phys -= offset;
	size = PAGE_ALIGN(size + offset);
	if (!vmap_initialized)
		vm = early_vm_area(size, caller);
	else
		vm = get_vm_area(size, PAGE_SIZE, VM_IOREMAP, GFP_KERNEL, caller);
	if (!vm)
		return NULL;
	vm->phys_addr = phys;
	addr = (unsigned long)vm->addr;
	for (unsigned long o = 0; o < size; o += PAGE_SIZE) {
		if (!arch_map_kernel_page(addr + o, PHYS_PFN(phys + o), prot))
			continue;
		arch_unmap_kernel_range(addr, o);
		BUG_ON(!vmap_initialized);
		free_vmap_area_lazy(take_vmap_area(vm->addr, VM_IOREMAP,
						   "ioremap", caller));
		kfree(vm);
		return NULL;
	}
	return (void *)(addr + offset);
}

void *ioremap(phys_addr_t phys, unsigned long size)
{
	return __ioremap(phys, size, PAGE_KERNEL_NOCACHE,
			 __builtin_return_address(0));
}

void *ioremap_uc(phys_addr_t phys, unsigned long size)
{
	return __ioremap(phys, size, PAGE_KERNEL_NOCACHE,
			 __builtin_return_address(0));
}

void iounmap(void *addr)
{
	if (addr)
		unmap_area((void *)((unsigned long)addr & PAGE_MASK), VM_IOREMAP,
			   "iounmap", __builtin_return_address(0));
}

/* --- lookups ---------------------------------------------------------------- */

bool is_vmalloc_addr(const void *addr)
{
	unsigned long a = (unsigned long)addr;

	return vmalloc_size && a >= VMALLOC_START && a - VMALLOC_START < vmalloc_size;
}

unsigned long vmalloc_to_pfn(const void *addr)
{
	unsigned long pfn;
	pgprot_t prot;

	if (!arch_lookup_kernel_page((unsigned long)addr, &pfn, &prot))
		return 0;
	return pfn;
}

struct page *vmalloc_to_page(const void *addr)
{
	unsigned long pfn;
	pgprot_t prot;

	if (!is_vmalloc_addr(addr) ||
	    !arch_lookup_kernel_page((unsigned long)addr, &pfn, &prot) ||
	    !pfn_valid(pfn))
		return NULL;
	return pfn_to_page(pfn);
}

struct vm_struct *find_vm_area(const void *addr)
{
	unsigned long flags;
	struct vmap_area *va;

	if (!is_vmalloc_addr(addr))
		return NULL;
	spin_lock_irqsave(&vmap_area_lock, flags);
	va = avl_find(busy_root, (unsigned long)addr);
	spin_unlock_irqrestore(&vmap_area_lock, flags);
	return va ? va->vm : NULL;
}

size_t vmalloc_fault_describe(unsigned long addr, char *buf, size_t len)
{
	unsigned long flags;
	struct vmap_area *va;
	const struct vm_struct *vm;
	int n;

	if (!is_vmalloc_addr((void *)addr))
		return 0;
	if (!vmap_initialized)
		return scnprintf(buf, len, "vmalloc area");
	flags = arch_irq_save();
	if (!spin_trylock(&vmap_area_lock)) {
		arch_irq_restore(flags);
		return scnprintf(buf, len, "vmalloc area (its lock is held)");
	}
	va = avl_find(busy_root, addr);
	vm = va ? va->vm : NULL;
	if (!vm)
		n = scnprintf(buf, len, "vmalloc area: %s",
			      on_purge_list(addr) ? "a freed area" : "nothing there");
	else if (addr >= va->va_end - PAGE_SIZE)
		n = scnprintf(buf, len, "vmalloc guard page of a %lu-byte area allocated by %pS",
			      get_vm_area_size(vm), vm->caller);
	else
		n = scnprintf(buf, len, "inside a %lu-byte %s area allocated by %pS",
			      get_vm_area_size(vm), vm_kind(vm->flags), vm->caller);
	spin_unlock_irqrestore(&vmap_area_lock, flags);
	return n;
}

void vmalloc_get_stats(struct vmalloc_stats *s)
{
	unsigned long flags;

	spin_lock_irqsave(&vmap_area_lock, flags);
	s->nr_pages = nr_vmalloc_pages;
	s->free_bytes = free_bytes;
	s->largest_free = subtree_max(free_root);
	s->lazy_pages = lazy_pages;
	s->nr_purges = nr_purges;
	s->nr_shootdowns = READ_ONCE(nr_shootdowns);
	s->nr_busy = nr_busy;
	spin_unlock_irqrestore(&vmap_area_lock, flags);
}

/* --- checks ------------------------------------------------------------------ */

struct tree_walk {
	unsigned long last_end;		/* end of the previous node */
	unsigned long sum;
	unsigned long nodes;
	bool is_free;
	unsigned int problems;
};

static int check_subtree(const struct vmap_area *n, struct tree_walk *w)
{
	int hl, hr;

	if (!n)
		return 0;
	hl = check_subtree(n->left, w);
	if (n->va_start >= n->va_end || n->va_start < w->last_end ||
	    (w->is_free && w->nodes && n->va_start == w->last_end)) {
		pr_err("vmalloc: %s tree: range %#lx-%#lx after %#lx\n",
		       w->is_free ? "free" : "busy", n->va_start, n->va_end,
		       w->last_end);
		w->problems++;
	}
	w->last_end = n->va_end;
	w->sum += va_size(n);
	w->nodes++;
	hr = check_subtree(n->right, w);
	if (n->height != 1 + max(hl, hr) || hl - hr > 1 || hr - hl > 1 ||
	    n->subtree_max_size != max3(va_size(n), subtree_max(n->left),
					subtree_max(n->right))) {
		pr_err("vmalloc: %s tree: node %#lx height %d (%d/%d), max %#lx\n",
		       w->is_free ? "free" : "busy", n->va_start, n->height,
		       hl, hr, n->subtree_max_size);
		w->problems++;
	}
	return 1 + max(hl, hr);
}

unsigned int vmalloc_check(void)
{
	unsigned long flags;
	struct tree_walk fw = { .is_free = true }, bw = { .is_free = false };

	spin_lock_irqsave(&vmap_area_lock, flags);
	check_subtree(free_root, &fw);
	check_subtree(busy_root, &bw);
	if (fw.sum != free_bytes) {
		pr_err("vmalloc: free tree holds %#lx bytes, counted %#lx\n",
		       fw.sum, free_bytes);
		fw.problems++;
	}
	if (bw.nodes != nr_busy) {
		pr_err("vmalloc: busy tree has %lu areas, counted %lu\n",
		       bw.nodes, nr_busy);
		bw.problems++;
	}
	spin_unlock_irqrestore(&vmap_area_lock, flags);
	return fw.problems + bw.problems;
}

/* --- boot and the shell --------------------------------------------------- */

void vmalloc_init(void)
{
	struct vmap_area *va;

	INIT_WORK(&deferred_work, vfree_deferred_work);
	vmap_area_cachep = KMEM_CACHE(vmap_area, 0);
	BUG_ON(!vmap_area_cachep);
	for (unsigned int i = 0; i < nr_early_vms; i++) {
		va = kmem_cache_zalloc(vmap_area_cachep, GFP_KERNEL);
		BUG_ON(!va);
		va->va_start = (unsigned long)early_vms[i].addr;
		va->va_end = va->va_start + early_vms[i].size;
		va->vm = &early_vms[i];
		INIT_LIST_HEAD(&va->list);
		busy_root = avl_insert(busy_root, va);
		nr_busy++;
	}
	va = kmem_cache_zalloc(vmap_area_cachep, GFP_KERNEL);
	BUG_ON(!va);
	va->va_start = VMALLOC_START + early_end;
	va->va_end = VMALLOC_END;
	free_range_merge(va);
	vmap_initialized = true;
	pr_info("vmalloc: 0x%016lx-0x%016lx (%lu GiB), %u early areas, lazy_max_pages %lu\n",
		VMALLOC_START, VMALLOC_END, vmalloc_size >> 30, nr_early_vms,
		lazy_max_pages());
}

static void show_area(const struct vmap_area *va)
{
	const struct vm_struct *vm = va->vm;

	console_printf("0x%016lx-0x%016lx %7lu", va->va_start, va->va_end,
		       vm->size);
	if (vm->caller)
		console_printf(" %pS", vm->caller);
	if (vm->nr_pages)
		console_printf(" pages=%u", vm->nr_pages);
	if (vm->phys_addr)
		console_printf(" phys=0x%016llx",
			       (unsigned long long)vm->phys_addr);
	console_printf(" %s%s\n", vm_kind(vm->flags),
		       is_vmalloc_addr(vm->pages) ? " vpages" : "");
}

static void show_tree(const struct vmap_area *n)
{
	if (!n)
		return;
	show_tree(n->left);
	show_area(n);
	show_tree(n->right);
}

static int cmd_vmallocinfo(int argc, char **argv)
{
	unsigned long flags;
	const struct vmap_area *va;

	(void)argc;
	(void)argv;
	spin_lock_irqsave(&vmap_area_lock, flags);
	show_tree(busy_root);
	list_for_each_entry(va, &purge_list, list)
		console_printf("0x%016lx-0x%016lx %7lu unpurged vm_area\n",
			       va->va_start, va->va_end, va_size(va));
	spin_unlock_irqrestore(&vmap_area_lock, flags);
	return 0;
}
SHELL_CMD("vmallocinfo", cmd_vmallocinfo,
	  "vmalloc areas (/proc/vmallocinfo)");

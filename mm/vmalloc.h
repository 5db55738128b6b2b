/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vmalloc: virtually contiguous kernel memory (Linux's <linux/vmalloc.h>
 * and <linux/io.h>'s ioremap). An API header.
 *
 * The window is [VMALLOC_START, VMALLOC_END) (arch/pgtable.h; x86_64:
 * 0xffffc90000000000, 32 TiB). vmalloc() maps pages from the page
 * allocator there, one by one, so it needs no contiguous memory;
 * vmap() maps pages the caller owns; ioremap() maps device registers
 * uncached. Every area is followed by an unmapped guard page: a touch
 * faults, and the report names the area and its caller.
 *
 * vfree() may be called from interrupt context or with interrupts off:
 * it then only queues the area, which a work item frees. vunmap() and
 * iounmap() may not. None of the others may be called with interrupts
 * off (TLB shootdown waits for the other CPUs).
 */
#ifndef MM_VMALLOC_H
#define MM_VMALLOC_H

#include "arch/pgtable.h"
#include "kernel/compiler.h"
#include "mm/gfp.h"

#define VMALLOC_START		vmalloc_base
#define VMALLOC_END		(vmalloc_base + vmalloc_size)
#define VMALLOC_TOTAL		vmalloc_size

/* vm_struct.flags: what the area is. */
#define VM_IOREMAP		0x00000001u	/* ioremap() */
#define VM_ALLOC		0x00000002u	/* vmalloc() */
#define VM_MAP			0x00000004u	/* vmap() */

/**
 * struct vm_struct - one area of the vmalloc window
 * @addr: its first byte
 * @size: its bytes, the guard page included (as Linux's size)
 * @flags: what it is: VM_ALLOC, VM_MAP or VM_IOREMAP
 * @nr_pages: the pages mapped
 * @pages: the pages, for vmalloc() areas only
 * @phys_addr: the first physical address mapped, for ioremap() only
 * @caller: the code that asked for the area
 *
 * find_vm_area() returns it; the caller only reads it.
 */
struct vm_struct {
	void *addr;
	unsigned long size;
	unsigned int flags;
	unsigned int nr_pages;
	struct page **pages;
	phys_addr_t phys_addr;
	const void *caller;
};

/**
 * vmalloc_init() - set the vmalloc window up
 *
 * Description: takes over the areas ioremap() made before it ran.
 * Panics if it cannot allocate its records.
 *
 * Context: boot, once, after the slab allocator is up.
 */
void vmalloc_init(void);

/**
 * vmalloc() - allocate virtually contiguous memory
 * @size: bytes wanted, rounded up to whole pages
 *
 * The pages come from the page allocator one by one (GFP_KERNEL), so no
 * contiguous memory is needed. A @size of 0 or more than all RAM is
 * warned about. Free with vfree().
 *
 * Context: interrupts on, not an interrupt handler: a purge of freed
 * areas may wait for the other CPUs' TLB flushes.
 * Return: the memory, or NULL on failure (reported).
 */
void *vmalloc(unsigned long size) __alloc_size(1);
/**
 * vzalloc() - allocate zeroed virtually contiguous memory
 * @size: bytes wanted, rounded up to whole pages
 *
 * Context: as vmalloc().
 * Return: the memory, or NULL on failure.
 */
void *vzalloc(unsigned long size) __alloc_size(1);
/**
 * vmalloc_node() - vmalloc() on a node
 * @size: bytes wanted
 * @node: ignored: there is one node
 *
 * Context: as vmalloc().
 * Return: the memory, or NULL on failure.
 */
void *vmalloc_node(unsigned long size, int node) __alloc_size(1);
/**
 * vzalloc_node() - vzalloc() on a node
 * @size: bytes wanted
 * @node: ignored: there is one node
 *
 * Context: as vmalloc().
 * Return: the memory, or NULL on failure.
 */
void *vzalloc_node(unsigned long size, int node) __alloc_size(1);
/**
 * __vmalloc() - vmalloc() with GFP flags
 * @size: bytes wanted
 * @gfp: GFP flags for the pages, as for alloc_pages(); the area's own
 *	records keep only the reclaim and warning bits
 *
 * Context: as vmalloc().
 * Return: the memory, or NULL on failure.
 */
void *__vmalloc(unsigned long size, gfp_t gfp) __alloc_size(1);
/**
 * __vmalloc_node() - vmalloc() with every choice given
 * @size: bytes wanted
 * @align: the area's alignment: 1, or a power of two of at least
 *	PAGE_SIZE; anything else is warned about and fails
 * @gfp: GFP flags, as for __vmalloc()
 * @node: ignored: there is one node
 * @caller: the code to name in reports
 *
 * Context: as vmalloc().
 * Return: the memory, or NULL on failure (reported unless __GFP_NOWARN).
 */
void *__vmalloc_node(unsigned long size, unsigned long align, gfp_t gfp,
		     int node, const void *caller) __alloc_size(1);
/**
 * vfree() - free memory from vmalloc()
 * @addr: its address; NULL is ignored
 *
 * A pointer that is not a live vmalloc() area's start is reported. The
 * area is unmapped at once and its range reused after a lazy TLB purge.
 *
 * Context: any context. From an interrupt handler or with interrupts off
 * the area is only queued, and a work item on this CPU frees it.
 */
void vfree(const void *addr);

/**
 * vmap() - map pages the caller owns into the vmalloc window
 * @pages: the pages
 * @count: how many; 0 or more than all RAM is warned about and fails
 * @flags: VM_* flags added to VM_MAP
 * @prot: the protection, PAGE_KERNEL for example
 *
 * Context: as vmalloc().
 * Return: the address of the mapping, or NULL on failure.
 */
void *vmap(struct page **pages, unsigned int count, unsigned int flags,
	   pgprot_t prot);
/**
 * vunmap() - remove a mapping vmap() made
 * @addr: the address vmap() returned; NULL is ignored
 *
 * The pages stay the caller's.
 *
 * Context: interrupts on, not an interrupt handler (else a warning).
 */
void vunmap(const void *addr);

/**
 * ioremap() - map device memory uncached
 * @phys: the first physical address, not necessarily page-aligned
 * @size: bytes to map
 *
 * Works before vmalloc_init() too, for a few early areas.
 *
 * Context: as vmalloc().
 * Return: the address of @phys in the mapping; NULL if @size is 0, the
 * range wraps, or on failure.
 */
void *ioremap(phys_addr_t phys, unsigned long size);
/**
 * ioremap_uc() - map device memory uncached
 * @phys: the first physical address
 * @size: bytes to map
 *
 * The same as ioremap() here.
 *
 * Context: as vmalloc().
 * Return: as ioremap().
 */
void *ioremap_uc(phys_addr_t phys, unsigned long size);
/**
 * iounmap() - remove a mapping ioremap() made
 * @addr: an address ioremap() returned; NULL is ignored
 *
 * Context: as vunmap().
 */
void iounmap(void *addr);

/**
 * is_vmalloc_addr() - does an address lie in the vmalloc window
 * @addr: the address
 *
 * Context: any context.
 * Return: true if @addr is in [VMALLOC_START, VMALLOC_END), mapped or not.
 */
bool is_vmalloc_addr(const void *addr);
/**
 * vmalloc_to_page() - the page mapped at a vmalloc address
 * @addr: the address
 *
 * Context: any context; reads the page tables without a lock.
 * Return: the page, or NULL if @addr is outside the window, not mapped,
 * or not RAM with a struct page.
 */
struct page *vmalloc_to_page(const void *addr);
/**
 * vmalloc_to_pfn() - the page frame mapped at a kernel address
 * @addr: the address
 *
 * Context: any context; reads the page tables without a lock.
 * Return: the pfn, or 0 if @addr is not mapped.
 */
unsigned long vmalloc_to_pfn(const void *addr);
/**
 * find_vm_area() - the live area an address lies in
 * @addr: the address; the guard page counts as the area's
 *
 * Context: any context; spins on the window's lock with interrupts off.
 * Return: the area, or NULL. It is valid only until the area is freed.
 */
struct vm_struct *find_vm_area(const void *addr);

/**
 * vm_unmap_aliases() - purge the lazily freed areas now
 *
 * Description: one TLB shootdown for all of them. On return every area
 * freed before the call is off every CPU's TLB (a purge another CPU
 * runs is waited for).
 *
 * Context: interrupts on, not an interrupt handler; waits for the other
 * CPUs. With interrupts off or in a handler it does nothing, since no
 * IPI may be sent there.
 */
void vm_unmap_aliases(void);

/**
 * lazy_max_pages() - how many freed pages may wait for a purge
 *
 * Context: any context.
 * Return: 32 MiB of pages times fls() of the online CPUs: past that a
 * vfree() purges.
 */
unsigned long lazy_max_pages(void);

/**
 * struct vmalloc_stats - the vmalloc window's counters
 * @nr_pages: pages vmalloc() has mapped
 * @free_bytes: bytes in the free tree
 * @largest_free: the largest free range
 * @lazy_pages: pages freed and waiting for a purge
 * @nr_purges: purges so far
 * @nr_shootdowns: TLB flushes on every CPU so far
 * @nr_busy: live areas
 *
 * vmalloc_get_stats() fills it in, for meminfo and the tests.
 */
struct vmalloc_stats {
	unsigned long nr_pages;
	unsigned long free_bytes;
	unsigned long largest_free;
	unsigned long lazy_pages;
	unsigned long nr_purges;
	unsigned long nr_shootdowns;
	unsigned long nr_busy;
};
/**
 * vmalloc_get_stats() - read the vmalloc window's counters
 * @stats: filled in
 *
 * Context: any context; spins on the window's lock with interrupts off.
 */
void vmalloc_get_stats(struct vmalloc_stats *stats);

/**
 * vmalloc_check() - check the vmalloc window's trees
 *
 * Description: checks order, balance, the free ranges' subtree maxima,
 * that no two free ranges touch, and the free bytes and live areas
 * against their counters. Prints each problem.
 *
 * Context: any context; spins on the window's lock with interrupts off.
 * Return: the number of problems; 0 if none.
 */
unsigned int vmalloc_check(void);

/**
 * vmalloc_fault_describe() - what lies at a faulting vmalloc address
 * @addr: the faulting address
 * @buf: where to write the description
 * @len: the size of @buf
 *
 * For the page fault report, for example "vmalloc guard page of a
 * 12288-byte area allocated by foo+0x12/0x40".
 *
 * Context: any context, the page fault handler included: it only tries
 * the window's lock.
 * Return: the length written, or 0 if @addr is outside the window.
 */
size_t vmalloc_fault_describe(unsigned long addr, char *buf, size_t len);

#endif /* MM_VMALLOC_H */

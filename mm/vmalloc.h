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

/* One area: its range includes the guard page (as Linux's size does). */
struct vm_struct {
	void *addr;
	unsigned long size;		/* bytes, the guard page included */
	unsigned int flags;
	unsigned int nr_pages;
	struct page **pages;		/* vmalloc() only */
	phys_addr_t phys_addr;		/* ioremap() only */
	const void *caller;
};

void vmalloc_init(void);

void *vmalloc(unsigned long size) __alloc_size(1);
void *vzalloc(unsigned long size) __alloc_size(1);
void *vmalloc_node(unsigned long size, int node) __alloc_size(1);
void *vzalloc_node(unsigned long size, int node) __alloc_size(1);
void *__vmalloc(unsigned long size, gfp_t gfp) __alloc_size(1);
/* The general one: align a power of two >= PAGE_SIZE (or 1). */
void *__vmalloc_node(unsigned long size, unsigned long align, gfp_t gfp,
		     int node, const void *caller) __alloc_size(1);
void vfree(const void *addr);

void *vmap(struct page **pages, unsigned int count, unsigned int flags,
	   pgprot_t prot);
void vunmap(const void *addr);

void *ioremap(phys_addr_t phys, unsigned long size);
void *ioremap_uc(phys_addr_t phys, unsigned long size);
void iounmap(void *addr);

bool is_vmalloc_addr(const void *addr);
struct page *vmalloc_to_page(const void *addr);
unsigned long vmalloc_to_pfn(const void *addr);
/* The live area addr lies in (its guard page included), or NULL. */
struct vm_struct *find_vm_area(const void *addr);

/*
 * Purge the lazily freed areas now: one TLB shootdown for all. On
 * return every area freed before the call is off every CPU's TLB (a
 * purge another CPU runs is waited for). With interrupts off or in a
 * handler it does nothing: no IPI may be sent there.
 */
void vm_unmap_aliases(void);

/* Freed pages that may wait for a shootdown before a purge runs. */
unsigned long lazy_max_pages(void);

/* For meminfo and the tests. */
struct vmalloc_stats {
	unsigned long nr_pages;		/* pages vmalloc() has mapped */
	unsigned long free_bytes;	/* in the free tree */
	unsigned long largest_free;	/* the largest free range */
	unsigned long lazy_pages;	/* freed, waiting for a purge */
	unsigned long nr_purges;	/* purges so far */
	unsigned long nr_shootdowns;	/* TLB flushes on every CPU */
	unsigned long nr_busy;		/* live areas */
};
void vmalloc_get_stats(struct vmalloc_stats *stats);

/*
 * Check both trees: order, balance, the free ranges' subtree maxima, no
 * two free ranges touching, the free bytes against the counter. Prints
 * what is wrong; returns the number of problems.
 */
unsigned int vmalloc_check(void);

/*
 * For the page fault report: if addr is in the window, describe what
 * lies there ("vmalloc guard page of a 12288-byte area allocated by
 * foo+0x12/0x40") into buf and return its length; else 0. Safe in the
 * fault handler (it only tries the lock).
 */
size_t vmalloc_fault_describe(unsigned long addr, char *buf, size_t len);

#endif /* MM_VMALLOC_H */

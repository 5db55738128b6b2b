/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel page-table API: what mm/vmalloc.c asks of the arch to map
 * pages into the kernel's own address space, 4 KiB at a time.
 *
 * Only the vmalloc window [vmalloc_base, vmalloc_base + vmalloc_size)
 * is managed here; the direct map and the kernel image stay as setup_arch()
 * built them. x86_64: the window is Linux's VMALLOC_START,
 * 0xffffc90000000000, 32 TiB, mapped by the CPU's page tables. The host:
 * a PROT_NONE reservation of the process, where a page is mapped with
 * mmap() of the RAM memfd at the page's offset, and a software table of
 * the same shape records what is mapped (the walk reads it).
 *
 * Page-table pages come from the page allocator (memblock before the
 * page allocator is up, for the early ioremap of the local APIC) and go
 * back to it when the last entry in them is cleared:
 * arch_pgtable_pages() counts those of the window, so a test can see the
 * count back at its baseline. Another CPU's paging-structure caches may
 * still point at a table just emptied, so it is only freed after a TLB
 * shootdown: arch_take_freed_pgtables() hands the emptied ones to the
 * caller (linked through page->lru), which frees them once every CPU
 * has flushed (mm/vmalloc.c does, at each purge). The host frees them
 * at once and hands over none.
 *
 * None of these flush the TLB of another CPU: arch_unmap_kernel_range()
 * and arch_protect_kernel_range() flush only this CPU's, and the caller
 * shoots down the others (flush_tlb_kernel_range() in mm/vmalloc.c).
 * Callers serialise changes to one range themselves; different ranges
 * may change at once (the table allocation is locked inside).
 */
#ifndef ARCH_PGTABLE_H
#define ARCH_PGTABLE_H

#include "kernel/types.h"

/* Protections: readable always; the bits add write, execute, uncached. */
typedef struct {
	unsigned int pgprot;
} pgprot_t;

#define _PAGE_KERNEL_WRITE	0x1u
#define _PAGE_KERNEL_EXEC	0x2u
#define _PAGE_KERNEL_UC		0x4u	/* uncached: MMIO (x86: PCD|PWT) */
#define _PAGE_KERNEL_MASK	0x7u

#define __pgprot(x)		((pgprot_t){ .pgprot = (x) })
#define pgprot_val(p)		((p).pgprot)

#define PAGE_KERNEL		__pgprot(_PAGE_KERNEL_WRITE)	/* RW, NX, WB */
#define PAGE_KERNEL_RO		__pgprot(0)
#define PAGE_KERNEL_EXEC	__pgprot(_PAGE_KERNEL_WRITE | _PAGE_KERNEL_EXEC)
#define PAGE_KERNEL_ROX		__pgprot(_PAGE_KERNEL_EXEC)
#define PAGE_KERNEL_NOCACHE	__pgprot(_PAGE_KERNEL_WRITE | _PAGE_KERNEL_UC)

/* The window, set by setup_arch(). */
extern unsigned long vmalloc_base;
extern unsigned long vmalloc_size;

/*
 * Map the page at pfn at addr (page aligned, in the window): 0; -EINVAL
 * outside the window or unaligned, -EEXIST if addr is mapped already,
 * -ENOMEM if a page-table page cannot be had (or, on the host, mmap()
 * fails); nothing is mapped then.
 */
int arch_map_kernel_page(unsigned long addr, unsigned long pfn, pgprot_t prot);

/*
 * For the tests: the nth arch_map_kernel_page() from now (1: the next)
 * fails with -ENOMEM and leaves nothing behind, as the host's does when
 * mmap() refuses (past vm.max_map_count); 0 disarms. 0, or -ENOSYS
 * where a mapping cannot fail that way (x86_64).
 */
int arch_fail_kernel_map(unsigned int nth);

/*
 * Unmap every page of [addr, addr + size) (page aligned, in the window;
 * holes are fine), free the page-table pages left empty, flush this
 * CPU's TLB for the range.
 */
void arch_unmap_kernel_range(unsigned long addr, unsigned long size);

/*
 * Give every mapped page of [addr, addr + size) protection prot and
 * flush this CPU's TLB for the range: 0, or -EINVAL as above, or
 * -ENOENT if a page of the range is not mapped (nothing changed then).
 */
int arch_protect_kernel_range(unsigned long addr, unsigned long size,
			      pgprot_t prot);

/*
 * For the arches (mm/pgtable_generic.c): arch_protect_kernel_range()'s
 * walk over [addr, addr + size), under the arch's lock. -ENOENT, nothing
 * changed, if mapped_pte() finds a page unmapped (NULL); else set_prot()
 * rewrites each PTE, and 0.
 */
int protect_kernel_ptes(unsigned long addr, unsigned long size,
			pgprot_t prot, u64 *(*mapped_pte)(unsigned long addr),
			void (*set_prot)(u64 *pte, pgprot_t prot));

/* The walk: true and the pfn and protection if addr (any) is mapped. */
bool arch_lookup_kernel_page(unsigned long addr, unsigned long *pfn,
			     pgprot_t *prot);

/*
 * This CPU's TLB for [start, end): one invalidation per page up to
 * TLB_FLUSH_CEILING pages, a full flush above (x86_64; nothing on the
 * host, whose mmap() calls are coherent on every thread).
 */
#define TLB_FLUSH_CEILING	33
void arch_flush_tlb_kernel_range(unsigned long start, unsigned long end);
/* Full flushes this CPU did for a range above the ceiling. */
unsigned long arch_tlb_full_flushes(void);

/* Page-table pages that map the window now. */
unsigned long arch_pgtable_pages(void);

/* Move the tables emptied so far, to be freed after a shootdown, to pages. */
struct list_head;
void arch_take_freed_pgtables(struct list_head *pages);

/*
 * Touch addr once, kind one of PROBE_READ, PROBE_WRITE (a byte, its own
 * value written back) or PROBE_EXEC (a call: the byte there must be a
 * return instruction, 0xc3). 0 if it worked; -EFAULT if it faulted: the
 * fault handler printed its usual report ("BUG: unable to handle page
 * fault for address: ...", what lies there, the access) and resumed
 * here instead of ending the run. For tests of protections and guard
 * pages: a fault anywhere else stays fatal.
 */
enum probe_access { PROBE_READ, PROBE_WRITE, PROBE_EXEC };
int arch_probe_kernel_access(unsigned long addr, enum probe_access kind);

#endif /* ARCH_PGTABLE_H */

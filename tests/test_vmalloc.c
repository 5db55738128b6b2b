// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel page-table API (arch/pgtable.h) and vmalloc (mm/vmalloc.c).
 *
 * pgtable: map, unmap and protect at 4 KiB in the vmalloc window, near
 * its top where vmalloc never reaches; the walk; page-table pages back
 * to the baseline count after the unmap; RO and NX faults reported
 * (arch_probe_kernel_access() touches and recovers); bad arguments.
 *
 * vmalloc: sizes from 1 byte to 64 MiB (each skipped when more than
 * three quarters of free memory), contents and page-by-page backing,
 * alignment, vmalloc_to_page() round trips, the guard page's fault
 * report, vmallocinfo's lines and meminfo's, vmap and ioremap,
 * kvmalloc's choice, vfree from an interrupt handler and a second vfree
 * of an area waiting for it, fragmentation (order-0 free memory:
 * vmalloc of 16 MiB works where kmalloc fails), a random stress with
 * content checks whose free space comes back to the byte, lazy purge
 * batching, another CPU that loses the mapping once vfree's purge has
 * shot its TLB down, purges serialised (a purge, or a vmalloc that finds
 * no room, waits for another CPU's purge to finish; a vunmap past
 * lazy_max_pages() does not), and bad frees and sizes: reported,
 * nothing changed. A mapping the arch refuses (arch_fail_kernel_map(),
 * the host) fails vmalloc, vmap and ioremap cleanly. The leak check
 * purges: a case that frees all it mapped does not leak.
 */
#include "arch/arch.h"
#include "arch/pgtable.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/shell.h"
#include "kernel/smp.h"
#include "kernel/workqueue.h"
#include "lib/bitops.h"
#include "lib/ktest/ktest.h"
#include "lib/prandom.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/slab.h"
#include "mm/util.h"
#include "mm/vmalloc.h"
#include "tests/mm_util.h"

/* An address near the window's top: vmalloc hands out the lowest first. */
static unsigned long test_window_addr(void)
{
	return VMALLOC_END - SZ_4M - SZ_2M;
}

/* --- pgtable ----------------------------------------------------------- */

static void test_map_unmap_protect(struct ktest *t)
{
	unsigned long base = arch_pgtable_pages(), addr = test_window_addr();
	struct page *page = alloc_pages(GFP_KERNEL | __GFP_ZERO, 2);
	unsigned long pfn;
	pgprot_t prot;

	KTEST_ASSERT_NOT_NULL(t, page);
	for (int i = 0; i < 3; i++)
		KTEST_ASSERT_EQ(t, arch_map_kernel_page(addr + i * PAGE_SIZE,
				page_to_pfn(page) + i, PAGE_KERNEL), 0);
	KTEST_EXPECT_GT(t, arch_pgtable_pages(), base);
	KTEST_EXPECT_EQ(t, arch_map_kernel_page(addr, page_to_pfn(page), PAGE_KERNEL),
			-EEXIST);
	for (int i = 0; i < 3; i++) {
		KTEST_ASSERT_TRUE(t, arch_lookup_kernel_page(addr + i * PAGE_SIZE + 5,
							     &pfn, &prot));
		KTEST_EXPECT_EQ(t, pfn, page_to_pfn(page) + i);
		KTEST_EXPECT_EQ(t, pgprot_val(prot), pgprot_val(PAGE_KERNEL));
		*(volatile u32 *)(addr + i * PAGE_SIZE + 8) = 0xc0de0000 + i;
		KTEST_EXPECT_EQ(t, *(u32 *)((char *)page_address(page + i) + 8),
				0xc0de0000U + i);
	}
	KTEST_EXPECT_FALSE(t, arch_lookup_kernel_page(addr + 3 * PAGE_SIZE, &pfn, &prot));
	/* A range with a hole is refused whole. */
	KTEST_EXPECT_EQ(t, arch_protect_kernel_range(addr, 4 * PAGE_SIZE, PAGE_KERNEL_RO),
			-ENOENT);
	KTEST_EXPECT_EQ(t, arch_probe_kernel_access(addr, PROBE_WRITE), 0);
	KTEST_ASSERT_EQ(t, arch_protect_kernel_range(addr + PAGE_SIZE, PAGE_SIZE,
						     PAGE_KERNEL_RO), 0);
	KTEST_ASSERT_TRUE(t, arch_lookup_kernel_page(addr + PAGE_SIZE, &pfn, &prot));
	KTEST_EXPECT_EQ(t, pgprot_val(prot), pgprot_val(PAGE_KERNEL_RO));
	KTEST_EXPECT_EQ(t, arch_probe_kernel_access(addr + PAGE_SIZE, PROBE_READ), 0);
	ktest_capture_start(t, "BUG: unable to handle page fault");
	KTEST_EXPECT_EQ(t, arch_probe_kernel_access(addr + PAGE_SIZE + 8, PROBE_WRITE),
			-EFAULT);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_REPORT(t, REPORT_PAGE_FAULT);
	KTEST_EXPECT_CAPTURED(t, "write access");
	/* The others stay writable; unmap one in the middle. */
	KTEST_EXPECT_EQ(t, arch_probe_kernel_access(addr + 2 * PAGE_SIZE, PROBE_WRITE), 0);
	arch_unmap_kernel_range(addr + PAGE_SIZE, PAGE_SIZE);
	KTEST_EXPECT_FALSE(t, arch_lookup_kernel_page(addr + PAGE_SIZE, &pfn, &prot));
	KTEST_EXPECT_TRUE(t, arch_lookup_kernel_page(addr, &pfn, &prot));
	KTEST_EXPECT_TRUE(t, arch_lookup_kernel_page(addr + 2 * PAGE_SIZE, &pfn, &prot));
	ktest_capture_start(t, "BUG: unable to handle page fault");
	KTEST_EXPECT_EQ(t, arch_probe_kernel_access(addr + PAGE_SIZE, PROBE_READ), -EFAULT);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	arch_unmap_kernel_range(addr, 3 * PAGE_SIZE);
	KTEST_EXPECT_FALSE(t, arch_lookup_kernel_page(addr, &pfn, &prot));
	KTEST_EXPECT_EQ(t, arch_pgtable_pages(), base);
	__free_pages(page, 2);
}

/* Pages 2 MiB and 1 GiB apart need tables of their own; all go again. */
static void test_tables_freed_when_empty(struct ktest *t)
{
	unsigned long base = arch_pgtable_pages(), addr = test_window_addr();
	unsigned long offsets[] = { 0, SZ_2M, SZ_1G, SZ_1G + PAGE_SIZE };
	long pages0 = nr_allocated_pages();
	struct page *page = alloc_page(GFP_KERNEL);
	unsigned long grown;

	KTEST_ASSERT_NOT_NULL(t, page);
	addr -= SZ_1G * 2;
	for (unsigned int i = 0; i < ARRAY_SIZE(offsets); i++)
		KTEST_ASSERT_EQ(t, arch_map_kernel_page(addr + offsets[i],
				page_to_pfn(page), PAGE_KERNEL), 0);
	grown = arch_pgtable_pages() - base;
	/* Three PTE tables, at least one more PMD table. */
	KTEST_EXPECT_GE(t, grown, 4UL);
	arch_unmap_kernel_range(addr + offsets[1], PAGE_SIZE);
	KTEST_EXPECT_EQ(t, arch_pgtable_pages() - base, grown - 1);
	arch_unmap_kernel_range(addr + offsets[3], PAGE_SIZE);
	KTEST_EXPECT_EQ(t, arch_pgtable_pages() - base, grown - 1);
	arch_unmap_kernel_range(addr, SZ_1G + SZ_2M);
	KTEST_EXPECT_EQ(t, arch_pgtable_pages(), base);
	__free_page(page);
	/* Back in the page allocator once a shootdown has run. */
	vm_unmap_aliases();
	KTEST_EXPECT_EQ(t, nr_allocated_pages(), pages0);
}

static void test_nx_fault_reported(struct ktest *t)
{
	unsigned long addr = test_window_addr();
	struct page *page = alloc_page(GFP_KERNEL);

	KTEST_ASSERT_NOT_NULL(t, page);
	*(u8 *)page_address(page) = 0xc3;	/* ret */
	KTEST_ASSERT_EQ(t, arch_map_kernel_page(addr, page_to_pfn(page), PAGE_KERNEL), 0);
	ktest_capture_start(t, "BUG: unable to handle page fault");
	KTEST_EXPECT_EQ(t, arch_probe_kernel_access(addr, PROBE_EXEC), -EFAULT);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "instruction fetch");
	KTEST_EXPECT_REPORT(t, REPORT_PAGE_FAULT);
	/* Executable, it runs: the probe could have told. */
	KTEST_EXPECT_EQ(t, arch_protect_kernel_range(addr, PAGE_SIZE, PAGE_KERNEL_ROX), 0);
	KTEST_EXPECT_EQ(t, arch_probe_kernel_access(addr, PROBE_EXEC), 0);
	arch_unmap_kernel_range(addr, PAGE_SIZE);
	__free_page(page);
}

static void test_pgtable_bad_input(struct ktest *t)
{
	unsigned long addr = test_window_addr(), pfn;
	pgprot_t prot;

	KTEST_EXPECT_EQ(t, arch_map_kernel_page(addr + 1, 0, PAGE_KERNEL), -EINVAL);
	KTEST_EXPECT_EQ(t, arch_map_kernel_page(VMALLOC_START - PAGE_SIZE, 0, PAGE_KERNEL),
			-EINVAL);
	KTEST_EXPECT_EQ(t, arch_map_kernel_page(VMALLOC_END, 0, PAGE_KERNEL), -EINVAL);
	KTEST_EXPECT_EQ(t, arch_map_kernel_page(addr, 0, __pgprot(0x80)), -EINVAL);
	KTEST_EXPECT_EQ(t, arch_protect_kernel_range(addr, PAGE_SIZE, PAGE_KERNEL), -ENOENT);
	KTEST_EXPECT_EQ(t, arch_protect_kernel_range(addr, 100, PAGE_KERNEL), -EINVAL);
	KTEST_EXPECT_FALSE(t, arch_lookup_kernel_page(addr, &pfn, &prot));
	KTEST_EXPECT_FALSE(t, arch_lookup_kernel_page(0x1000, &pfn, &prot));
}

static const struct ktest_case pgtable_cases[] = {
	KTEST_CASE(test_map_unmap_protect),
	KTEST_CASE(test_tables_freed_when_empty),
	KTEST_CASE(test_nx_fault_reported),
	KTEST_CASE(test_pgtable_bad_input),
	{}
};
/* Emptied page-table pages wait for a shootdown: purge them. */
static void pgtable_exit(struct ktest *t)
{
	vm_unmap_aliases();
}

KTEST_SUITE(pgtable, pgtable_cases, .exit = pgtable_exit);

/* --- vmalloc -------------------------------------------------------------- */

static void vmalloc_exit(struct ktest *t)
{
	vm_unmap_aliases();
}

static u32 pattern(unsigned long seed, unsigned long i)
{
	return (u32)(seed * 0x9e3779b9UL + i * 0x85ebca6bUL);
}

/* Fill size bytes at p, a word per page enough: first and last words too. */
static void fill(u32 *p, unsigned long size, unsigned long seed)
{
	unsigned long words = size / 4;

	for (unsigned long i = 0; i < words; i += 1 + (i & 255))
		p[i] = pattern(seed, i);
	if (words)
		p[words - 1] = pattern(seed, words - 1);
}

static unsigned long check_fill(const u32 *p, unsigned long size, unsigned long seed)
{
	unsigned long words = size / 4, bad = 0;

	for (unsigned long i = 0; i < words; i += 1 + (i & 255))
		bad += p[i] != pattern(seed, i);
	if (words)
		bad += p[words - 1] != pattern(seed, words - 1);
	return bad;
}

static const unsigned long vmalloc_sizes[] = {
	1, 4095, 4096, 4097, 12288, SZ_1M + 1, SZ_4M + 1, SZ_16M, 64UL << 20,
};

static void size_desc(const unsigned long *size, char *desc)
{
	snprintf(desc, KTEST_DESC_SIZE, "%lu bytes", *size);
}
KTEST_ARRAY_PARAM(size_gen, vmalloc_sizes, size_desc);

/* Backing: each page distinct, RAM, the same bytes through the direct map. */
static void test_vmalloc_sizes(struct ktest *t)
{
	unsigned long size = *(const unsigned long *)t->param_value;
	unsigned long pages = PAGE_ALIGN(size) >> PAGE_SHIFT, bad = 0;
	struct vmalloc_stats before, during;
	struct vm_struct *vm;
	u8 *p;

	if (size > nr_free_pages() / 4 * 3 * PAGE_SIZE)
		ktest_skip(t, "%lu bytes: more than 3/4 of free memory", size);
	vmalloc_get_stats(&before);
	p = vmalloc(size);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_TRUE(t, is_vmalloc_addr(p));
	KTEST_EXPECT_TRUE(t, IS_ALIGNED((unsigned long)p, PAGE_SIZE));
	vm = find_vm_area(p + size - 1);
	KTEST_ASSERT_NOT_NULL(t, vm);
	KTEST_EXPECT_PTR_EQ(t, vm->addr, (void *)p);
	KTEST_EXPECT_EQ(t, vm->size, (pages + 1) * PAGE_SIZE);
	KTEST_EXPECT_EQ(t, vm->nr_pages, (unsigned int)pages);
	vmalloc_get_stats(&during);
	/* A pages array above a page is vmalloc()ed too. */
	KTEST_EXPECT_EQ(t, during.nr_pages - before.nr_pages,
			pages + (pages * sizeof(void *) > PAGE_SIZE ?
				 PAGE_ALIGN(pages * sizeof(void *)) >> PAGE_SHIFT : 0));
	memset(p, 0x5a, size);
	fill((u32 *)p, size & ~3UL, size);
	for (unsigned long i = 0; i < pages; i++) {
		struct page *page = vmalloc_to_page(p + i * PAGE_SIZE);
		const u8 *direct;

		if (!page || page != vm->pages[i] || (i && page == vm->pages[i - 1])) {
			bad++;
			continue;
		}
		direct = page_address(page);
		bad += memcmp(direct, p + i * PAGE_SIZE,
			      min(PAGE_SIZE, size - i * PAGE_SIZE)) != 0;
	}
	KTEST_EXPECT_EQ(t, bad, 0UL);
	KTEST_EXPECT_EQ(t, check_fill((u32 *)p, size & ~3UL, size), 0UL);
	vfree(p);
	vmalloc_get_stats(&during);
	KTEST_EXPECT_EQ(t, during.nr_pages, before.nr_pages);
	KTEST_EXPECT_NULL(t, find_vm_area(p));
}

static void test_vzalloc_zeroed(struct ktest *t)
{
	unsigned long nonzero = 0;
	u8 *p = vmalloc(5 * PAGE_SIZE);

	KTEST_ASSERT_NOT_NULL(t, p);
	memset(p, 0xa5, 5 * PAGE_SIZE);
	vfree(p);
	vm_unmap_aliases();
	p = vzalloc(5 * PAGE_SIZE);
	KTEST_ASSERT_NOT_NULL(t, p);
	for (unsigned long i = 0; i < 5 * PAGE_SIZE; i++)
		nonzero += p[i] != 0;
	KTEST_EXPECT_EQ(t, nonzero, 0UL);
	vfree(p);
	p = vmalloc_node(100, 0);
	KTEST_EXPECT_NOT_NULL(t, p);
	vfree(p);
}

static void test_vmalloc_alignment(struct ktest *t)
{
	unsigned long aligns[] = { PAGE_SIZE, SZ_64K, SZ_2M };
	void *guard = vmalloc(PAGE_SIZE);	/* so the next start is odd */

	KTEST_ASSERT_NOT_NULL(t, guard);
	for (unsigned int i = 0; i < ARRAY_SIZE(aligns); i++) {
		void *p = __vmalloc_node(3 * PAGE_SIZE, aligns[i], GFP_KERNEL,
					 NUMA_NO_NODE, NULL);

		KTEST_ASSERT_NOT_NULL(t, p);
		KTEST_EXPECT_TRUE(t, IS_ALIGNED((unsigned long)p, aligns[i]));
		memset(p, 1, 3 * PAGE_SIZE);
		vfree(p);
	}
	vfree(guard);
	KTEST_EXPECT_EQ(t, vmalloc_check(), 0U);
}

static void test_vmalloc_to_page_round_trip(struct ktest *t)
{
	u8 *p = vmalloc(3 * PAGE_SIZE);
	unsigned long bad = 0;

	KTEST_ASSERT_NOT_NULL(t, p);
	for (unsigned long off = 0; off < 3 * PAGE_SIZE; off += 1000) {
		struct page *page = vmalloc_to_page(p + off);
		u8 *direct = (u8 *)page_address(page) + (off & ~PAGE_MASK);

		p[off] = (u8)(off / 1000 + 1);
		bad += *direct != (u8)(off / 1000 + 1);
		bad += vmalloc_to_pfn(p + off) != page_to_pfn(page);
	}
	KTEST_EXPECT_EQ(t, bad, 0UL);
	KTEST_EXPECT_NULL(t, vmalloc_to_page(p + 3 * PAGE_SIZE));	/* guard */
	KTEST_EXPECT_NULL(t, vmalloc_to_page((void *)page_offset_base));
	vfree(p);
	KTEST_EXPECT_NULL(t, vmalloc_to_page(p));
}

static void test_guard_page_named(struct ktest *t)
{
	u8 *p = vmalloc(12288);

	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_EQ(t, arch_probe_kernel_access((unsigned long)p + 12287, PROBE_WRITE), 0);
	ktest_capture_start(t, "BUG: unable to handle page fault");
	KTEST_EXPECT_EQ(t, arch_probe_kernel_access((unsigned long)p + 12288 + 40,
						    PROBE_WRITE), -EFAULT);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_CAPTURED(t, "(vmalloc guard page of a 12288-byte area allocated by test_guard_page_named+0x");
	KTEST_EXPECT_CAPTURED(t, "write access");
	vfree(p);
}

/* A field of the meminfo command's output, in kB; ULONG_MAX if absent. */
static unsigned long meminfo_kb(struct ktest *t, const char *field)
{
	char cmd[] = "meminfo";
	unsigned long kb = 0;
	const char *s;

	ktest_capture_start(t, NULL);
	KTEST_EXPECT_EQ(t, shell_exec(cmd), 0);
	ktest_capture_stop(t);
	s = strstr(ktest_captured(t), field);
	if (!s)
		return ULONG_MAX;
	for (s += strlen(field); *s == ' '; s++)
		;
	for (; *s >= '0' && *s <= '9'; s++)
		kb = kb * 10 + (unsigned long)(*s - '0');
	return kb;
}

static void test_vmallocinfo(struct ktest *t)
{
	char line[64], cmd[] = "vmallocinfo";
	unsigned long used = meminfo_kb(t, "VmallocUsed:");
	void *p = vmalloc(3 * PAGE_SIZE);

	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_ASSERT_NE(t, used, ULONG_MAX);
	/* Three more pages in use; the largest free range inside the area. */
	KTEST_EXPECT_EQ(t, meminfo_kb(t, "VmallocUsed:"), used + 12);
	KTEST_EXPECT_GT(t, meminfo_kb(t, "VmallocChunk:"), 0UL);
	KTEST_EXPECT_LT(t, meminfo_kb(t, "VmallocChunk:"),
			(unsigned long)(VMALLOC_TOTAL >> 10));
	snprintf(line, sizeof(line), "0x%016lx-0x%016lx   16384 test_vmallocinfo+0x",
		 (unsigned long)p, (unsigned long)p + 4 * PAGE_SIZE);
	ktest_capture_start(t, NULL);
	KTEST_EXPECT_EQ(t, shell_exec(cmd), 0);
	ktest_capture_stop(t);
	KTEST_EXPECT_CAPTURED(t, line);
	KTEST_EXPECT_CAPTURED(t, " pages=3 vmalloc\n");
	snprintf(line, sizeof(line), "meminfo");
	ktest_capture_start(t, "Vmalloc");
	KTEST_EXPECT_EQ(t, shell_exec(line), 0);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 3U);
	snprintf(line, sizeof(line), "VmallocTotal:   %8lu kB\n", VMALLOC_TOTAL >> 10);
	KTEST_EXPECT_CAPTURED(t, line);
	vfree(p);
	ktest_capture_start(t, NULL);
	KTEST_EXPECT_EQ(t, shell_exec(cmd), 0);
	ktest_capture_stop(t);
	KTEST_EXPECT_CAPTURED(t, " unpurged vm_area\n");
}

static void test_vmap_vunmap(struct ktest *t)
{
	struct page *pages[3];
	u8 *p;

	for (int i = 0; i < 3; i++) {
		pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		KTEST_ASSERT_NOT_NULL(t, pages[i]);
	}
	p = vmap(pages, 3, 0, PAGE_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	for (int i = 0; i < 3; i++) {
		p[i * PAGE_SIZE + 7] = (u8)(i + 1);
		KTEST_EXPECT_EQ(t, ((u8 *)page_address(pages[i]))[7], (u8)(i + 1));
		KTEST_EXPECT_PTR_EQ(t, vmalloc_to_page(p + i * PAGE_SIZE), pages[i]);
	}
	KTEST_EXPECT_EQ(t, find_vm_area(p)->flags, VM_MAP);
	vunmap(p);
	KTEST_EXPECT_NULL(t, vmalloc_to_page(p));
	KTEST_EXPECT_EQ(t, page_ref_count(pages[0]), 1);	/* still ours */
	for (int i = 0; i < 3; i++)
		__free_page(pages[i]);
}

static void test_ioremap(struct ktest *t)
{
	struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	unsigned long pfn;
	pgprot_t prot;
	u32 *io;

	KTEST_ASSERT_NOT_NULL(t, page);
	io = ioremap(PFN_PHYS(page_to_pfn(page)) + 0x10, 8);
	KTEST_ASSERT_NOT_NULL(t, io);
	KTEST_EXPECT_EQ(t, (unsigned long)io & ~PAGE_MASK, 0x10UL);
	KTEST_ASSERT_TRUE(t, arch_lookup_kernel_page((unsigned long)io, &pfn, &prot));
	KTEST_EXPECT_EQ(t, pfn, page_to_pfn(page));
	KTEST_EXPECT_EQ(t, pgprot_val(prot), pgprot_val(PAGE_KERNEL_NOCACHE));
	*io = 0x12345678;
	KTEST_EXPECT_EQ(t, *(u32 *)((u8 *)page_address(page) + 0x10), 0x12345678U);
	KTEST_EXPECT_EQ(t, find_vm_area(io)->flags, VM_IOREMAP);
	KTEST_EXPECT_EQ(t, find_vm_area(io)->phys_addr, PFN_PHYS(page_to_pfn(page)));
	iounmap(io);
	KTEST_EXPECT_FALSE(t, arch_lookup_kernel_page((unsigned long)io, &pfn, &prot));
	KTEST_EXPECT_NULL(t, ioremap(0, 0));
	__free_page(page);
}

static void test_kvmalloc_choice(struct ktest *t)
{
	void *small = kvmalloc(100, GFP_KERNEL);
	void *page = kvmalloc(PAGE_SIZE * 4, GFP_KERNEL);
	void *big = kvzalloc(KMALLOC_MAX_SIZE + 1, GFP_KERNEL);
	u8 *r;

	KTEST_ASSERT_NOT_NULL(t, small);
	KTEST_ASSERT_NOT_NULL(t, page);
	KTEST_ASSERT_NOT_NULL(t, big);
	KTEST_EXPECT_FALSE(t, is_vmalloc_addr(small));
	KTEST_EXPECT_FALSE(t, is_vmalloc_addr(page));
	KTEST_EXPECT_TRUE(t, is_vmalloc_addr(big));
	KTEST_EXPECT_EQ(t, ((u8 *)big)[KMALLOC_MAX_SIZE], 0);
	memset(small, 7, 100);
	r = kvrealloc(small, 100, KMALLOC_MAX_SIZE + 4096, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, r);
	KTEST_EXPECT_TRUE(t, is_vmalloc_addr(r));
	KTEST_EXPECT_TRUE(t, r[0] == 7 && r[99] == 7);
	KTEST_EXPECT_PTR_EQ(t, kvrealloc(r, 200, 100, GFP_KERNEL), (void *)r);
	kvfree(r);
	kvfree(page);
	kvfree(big);
	kvfree(NULL);
	KTEST_EXPECT_NULL(t, kvmalloc_array(SIZE_MAX / 2, 4, GFP_KERNEL));
}

#define VFREE_VECTOR	0x5c

static void *irq_victim;

static void vfree_in_irq(unsigned int vector)
{
	vfree(irq_victim);
}

static void remove_vfree_handler(void *arg)
{
	set_irq_handler(VFREE_VECTOR, NULL);
}

/* vfree in an interrupt handler is queued; the work item frees it. */
static void test_vfree_from_irq(struct ktest *t)
{
	u64 deadline;

	irq_victim = vmalloc(2 * PAGE_SIZE);
	KTEST_ASSERT_NOT_NULL(t, irq_victim);
	KTEST_ASSERT_EQ(t, set_irq_handler(VFREE_VECTOR, vfree_in_irq), 0);
	KTEST_ASSERT_EQ(t, ktest_add_action_or_reset(t, remove_vfree_handler, NULL), 0);
	apic_send_IPI_self(VFREE_VECTOR);
	deadline = arch_clock_ns() + 5000000000ULL;
	while (find_vm_area(irq_victim) && arch_clock_ns() < deadline)
		arch_cpu_relax();
	KTEST_EXPECT_NULL(t, find_vm_area(irq_victim));
	/* With interrupts off it is deferred too. */
	irq_victim = vmalloc(PAGE_SIZE);
	KTEST_ASSERT_NOT_NULL(t, irq_victim);
	local_irq_disable();
	vfree(irq_victim);
	KTEST_EXPECT_NOT_NULL(t, find_vm_area(irq_victim));
	local_irq_enable();
	deadline = arch_clock_ns() + 5000000000ULL;
	while (find_vm_area(irq_victim) && arch_clock_ns() < deadline)
		arch_cpu_relax();
	KTEST_EXPECT_NULL(t, find_vm_area(irq_victim));
}

/* Wait (bounded) until the work item has freed the area at p. */
static bool deferred_free_done(const void *p)
{
	u64 deadline = arch_clock_ns() + 5000000000ULL;

	while (find_vm_area(p) && arch_clock_ns() < deadline)
		arch_cpu_relax();
	return !find_vm_area(p);
}

/*
 * A second vfree() of an area whose deferred free is pending, with
 * interrupts off or on, is reported and changes nothing: the work item
 * frees the area once. A bad address is reported at once too.
 */
static void test_double_vfree_deferred(struct ktest *t)
{
	struct vmalloc_stats s0, s;
	unsigned int reports;
	void *p, *k = kmalloc(64, GFP_KERNEL);

	KTEST_ASSERT_NOT_NULL(t, k);
	vmalloc_get_stats(&s0);
	p = vmalloc(2 * PAGE_SIZE);
	KTEST_ASSERT_NOT_NULL(t, p);
	ktest_capture_start(t, "BUG: vfree");
	local_irq_disable();
	vfree(p);
	vfree(p);
	vfree((u8 *)p + 16);
	vfree(k);
	reports = ktest_capture_stop(t);
	local_irq_enable();
	KTEST_EXPECT_EQ(t, reports, 3U);
	KTEST_EXPECT_REPORT(t, REPORT_VMALLOC_DOUBLE_FREE);
	KTEST_EXPECT_REPORTS(t, REPORT_VMALLOC_BAD_FREE, 2);
	KTEST_EXPECT_CAPTURED(t, "already freed");
	KTEST_EXPECT_TRUE(t, deferred_free_done(p));
	/* Queued, then a vfree() with interrupts on before or after the work. */
	p = vmalloc(PAGE_SIZE);
	KTEST_ASSERT_NOT_NULL(t, p);
	ktest_capture_start(t, "BUG: vfree");
	local_irq_disable();
	vfree(p);
	local_irq_enable();
	vfree(p);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_REPORT(t, REPORT_VMALLOC_DOUBLE_FREE);
	KTEST_EXPECT_TRUE(t, deferred_free_done(p));
	vmalloc_get_stats(&s);
	KTEST_EXPECT_EQ(t, s.nr_busy, s0.nr_busy);
	KTEST_EXPECT_EQ(t, s.nr_pages, s0.nr_pages);
	KTEST_EXPECT_EQ(t, *(u8 *)k, *(u8 *)k);	/* still ours */
	KTEST_EXPECT_EQ(t, vmalloc_check(), 0U);
	kfree(k);
}

struct page_list {
	struct list_head pages;
	unsigned long nr;
};

/* Take every page at order 0, then give back the odd pfns: order-0 holes. */
static void fragment_memory(struct page_list *held, struct page_list *odd)
{
	struct page *page, *tmp;

	INIT_LIST_HEAD(&held->pages);
	INIT_LIST_HEAD(&odd->pages);
	/* The reserve too: it would keep larger blocks. */
	while ((page = alloc_page(GFP_KERNEL | __GFP_MEMALLOC | __GFP_NOWARN |
				  __GFP_NORETRY))) {
		list_add(&page->lru, &held->pages);
		held->nr++;
	}
	list_for_each_entry_safe(page, tmp, &held->pages, lru) {
		if (page_to_pfn(page) & 1) {
			list_del(&page->lru);
			held->nr--;
			__free_page(page);
		}
	}
	drain_all_pages();
}

static void release_pages(struct page_list *held)
{
	struct page *page, *tmp;

	list_for_each_entry_safe(page, tmp, &held->pages, lru) {
		list_del(&page->lru);
		__free_page(page);
	}
}

/*
 * With every other page taken, no block of order 3 and no 16 MiB
 * kmalloc can be had, but a vmalloc of order-0 pages can: 16 MiB, or
 * half of what is left free where that is less (32 MiB of RAM leaves
 * about 14 MiB; the rest above the watermarks is for the page array and
 * the page tables).
 */
static void test_fragmented_memory(struct ktest *t)
{
	struct page_list held = { 0 }, odd = { 0 };
	unsigned long bad = 0, size, free;
	struct page *block;
	void *v, *k;

	fragment_memory(&held, &odd);
	free = nr_free_pages();
	size = min((unsigned long)SZ_16M, (free / 2) << PAGE_SHIFT) &
	       ~(SZ_1M - 1);
	if (!size) {
		release_pages(&held);
		ktest_skip(t, "less than 2 MiB left free in order-0 holes");
	}
	block = alloc_pages(GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY, 3);
	k = kmalloc(SZ_16M, GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY);
	v = vmalloc(size);
	if (v) {
		fill(v, size, 16);
		bad = check_fill(v, size, 16);
		vfree(v);
	}
	vm_unmap_aliases();
	release_pages(&held);
	ktest_info(t, "vmalloc(%lu MiB) with %lu pages free in order-0 holes; %lu free after",
		   size >> 20, free, nr_free_pages());
	KTEST_EXPECT_NULL(t, block);
	KTEST_EXPECT_NULL(t, k);
	KTEST_ASSERT_NOT_NULL(t, v);
	KTEST_EXPECT_EQ(t, bad, 0UL);
	if (block)
		__free_pages(block, 3);
	kfree(k);
}

#define STRESS_SLOTS	64
#define STRESS_OPS	100000UL
#define STRESS_BUDGET_NS	(4ULL * 1000 * 1000 * 1000)

/*
 * 10^5 vmalloc/vfree of random sizes (1 byte to 16 KiB, now and then
 * 1 MiB), each checked before its free; on a slow machine, as many as
 * fit in the time budget. Afterwards the free tree holds exactly what it
 * held before.
 */
static void test_stress(struct ktest *t)
{
	struct { void *p; unsigned long size, seed; } slot[STRESS_SLOTS] = { 0 };
	u64 rng, deadline = arch_clock_ns() + STRESS_BUDGET_NS;
	struct vmalloc_stats before, after;
	unsigned long ops, bad = 0, failed = 0;

	unsigned long tables = arch_pgtable_pages();

	prandom_seed(&rng, 0x7a110c);
	vm_unmap_aliases();
	vmalloc_get_stats(&before);
	for (ops = 0; ops < STRESS_OPS; ops++) {
		unsigned int i = (unsigned int)prandom_below(&rng, STRESS_SLOTS);

		if ((ops & 255) == 0 && arch_clock_ns() > deadline)
			break;
		if ((ops & 2047) == 0)
			vm_unmap_aliases();	/* bounds the purge list */
		if (slot[i].p) {
			bad += check_fill(slot[i].p, slot[i].size, slot[i].seed);
			vfree(slot[i].p);
			slot[i].p = NULL;
			continue;
		}
		slot[i].size = prandom_below(&rng, 256) ? 1 + prandom_below(&rng, 4 * PAGE_SIZE) :
			       SZ_1M;
		slot[i].seed = ops;
		slot[i].p = vmalloc(slot[i].size);
		failed += !slot[i].p;
		if (slot[i].p)
			fill(slot[i].p, slot[i].size & ~3UL, ops);
		slot[i].size &= ~3UL;
	}
	for (unsigned int i = 0; i < STRESS_SLOTS; i++) {
		if (slot[i].p) {
			bad += check_fill(slot[i].p, slot[i].size, slot[i].seed);
			vfree(slot[i].p);
		}
	}
	vm_unmap_aliases();
	vmalloc_get_stats(&after);
	ktest_info(t, "%lu operations, %lu purges", ops, after.nr_purges - before.nr_purges);
	KTEST_EXPECT_EQ(t, bad, 0UL);
	KTEST_EXPECT_EQ(t, failed, 0UL);
	KTEST_EXPECT_GE(t, ops, 2000UL);
	KTEST_EXPECT_EQ(t, arch_pgtable_pages(), tables);
	KTEST_EXPECT_EQ(t, after.free_bytes, before.free_bytes);
	KTEST_EXPECT_EQ(t, after.largest_free, before.largest_free);
	KTEST_EXPECT_EQ(t, after.nr_busy, before.nr_busy);
	KTEST_EXPECT_EQ(t, after.nr_pages, before.nr_pages);
	KTEST_EXPECT_EQ(t, vmalloc_check(), 0U);
}

/*
 * Freed areas wait on the purge list until more than lazy_max_pages()
 * build up: then one purge, one shootdown, takes them all. 1 MiB vmaps
 * of one page over and over cost no memory.
 */
static void test_lazy_purge_batching(struct ktest *t)
{
	unsigned long per = SZ_1M / PAGE_SIZE, frees, n;
	struct vmalloc_stats s0, s;
	struct page **pages = kmalloc_array(per, sizeof(*pages), GFP_KERNEL);
	struct page *page = alloc_page(GFP_KERNEL);

	KTEST_ASSERT_NOT_NULL(t, pages);
	KTEST_ASSERT_NOT_NULL(t, page);
	for (unsigned long i = 0; i < per; i++)
		pages[i] = page;
	vm_unmap_aliases();
	vmalloc_get_stats(&s0);
	KTEST_EXPECT_EQ(t, s0.lazy_pages, 0UL);
	/* Each area is per + 1 pages with its guard. */
	frees = lazy_max_pages() / (per + 1) + 1;
	for (n = 0; n < frees; n++) {
		void *p = vmap(pages, (unsigned int)per, 0, PAGE_KERNEL);

		if (!p)
			break;
		vunmap(p);
		vmalloc_get_stats(&s);
		if (n + 1 < frees && s.nr_purges != s0.nr_purges)
			break;
	}
	KTEST_EXPECT_EQ(t, n, frees);
	KTEST_EXPECT_EQ(t, s.nr_purges - s0.nr_purges, 1UL);
	KTEST_EXPECT_EQ(t, s.nr_shootdowns - s0.nr_shootdowns, 1UL);
	KTEST_EXPECT_EQ(t, s.lazy_pages, 0UL);
	ktest_info(t, "one purge after %lu frees (lazy_max_pages %lu)", n,
		   lazy_max_pages());
	__free_page(page);
	kfree(pages);
}

/* With interrupts off no IPI may go out: the purge waits, nothing is lost. */
static void test_no_purge_irqs_off(struct ktest *t)
{
	struct vmalloc_stats s0, s1, s2;
	unsigned long flags;
	void *p = vmalloc(3 * PAGE_SIZE);

	KTEST_ASSERT_NOT_NULL(t, p);
	vm_unmap_aliases();
	vfree(p);
	vmalloc_get_stats(&s0);
	KTEST_EXPECT_GT(t, s0.lazy_pages, 0UL);
	local_irq_save(flags);
	vm_unmap_aliases();
	local_irq_restore(flags);
	vmalloc_get_stats(&s1);
	KTEST_EXPECT_EQ(t, s1.nr_purges, s0.nr_purges);
	KTEST_EXPECT_EQ(t, s1.nr_shootdowns, s0.nr_shootdowns);
	KTEST_EXPECT_EQ(t, s1.lazy_pages, s0.lazy_pages);
	vm_unmap_aliases();
	vmalloc_get_stats(&s2);
	KTEST_EXPECT_EQ(t, s2.nr_purges, s0.nr_purges + 1);
	KTEST_EXPECT_EQ(t, s2.lazy_pages, 0UL);
	KTEST_EXPECT_EQ(t, vmalloc_check(), 0U);
}

struct reader {
	volatile u32 *p;
	volatile bool ready, stop, stopped, go;
	volatile unsigned long reads;
	int probe;
	u32 seen;
};

/* The bound of each wait for another CPU (wait_flag(), wait_until()). */
#define WAIT_S	20

/*
 * Read until told to stop (the translation is in this CPU's TLB then),
 * wait while CPU 0 frees and purges, then probe the address once.
 */
static void reader_fn(void *arg)
{
	struct reader *r = arg;
	u64 deadline = arch_clock_ns() + 20000000000ULL;

	r->seen = *r->p;
	r->ready = true;
	while (!r->stop && arch_clock_ns() < deadline) {
		r->seen = *r->p;
		r->reads++;
	}
	r->stopped = true;
	if (wait_flag(&r->go, WAIT_S))
		r->probe = arch_probe_kernel_access((unsigned long)r->p, PROBE_READ);
}

#define READER_MIN_READS	1000UL

/*
 * CPU 1 reads an area, then CPU 0 vfrees it and purges: once the purge's
 * shootdown is done, CPU 1's next read faults. Without the shootdown its
 * TLB would still hold the old translation and the read would work.
 */
static void test_no_stale_mapping_after_vfree(struct ktest *t)
{
	struct reader r = { 0 };
	int err;

	if (num_online_cpus() < 2)
		ktest_skip(t, "one CPU online");
	r.p = vmalloc(PAGE_SIZE);
	KTEST_ASSERT_NOT_NULL(t, (void *)r.p);
	*r.p = 0x5a5a5a5a;
	err = arch_cpu_run(1, reader_fn, &r);
	if (err) {
		vfree((void *)r.p);
		ktest_skip(t, "CPU 1 cannot run work: %d", err);
	}
	KTEST_EXPECT_TRUE(t, wait_flag(&r.ready, WAIT_S));
	/* Stopping at once could end the loop before its first read. */
	KTEST_EXPECT_TRUE(t, wait_until(&r.reads, READER_MIN_READS, WAIT_S));
	r.stop = true;
	KTEST_EXPECT_TRUE(t, wait_flag(&r.stopped, WAIT_S));
	vfree((void *)r.p);
	ktest_capture_start(t, "BUG: unable to handle page fault");
	vm_unmap_aliases();
	r.go = true;
	arch_cpu_join(1);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_EQ(t, r.probe, -EFAULT);
	KTEST_EXPECT_EQ(t, r.seen, 0x5a5a5a5aU);
	KTEST_EXPECT_GE(t, r.reads, READER_MIN_READS);
}

#define PURGE_HOLD_NS	(500ULL * 1000 * 1000)
#define PURGE_MAX_FREES	16

/*
 * CPU 1 frees areas and purges; CPU 2 holds interrupts off meanwhile, so
 * CPU 1's shootdown waits; CPU 0 acts while it does.
 */
struct purge_race {
	volatile u32 *p;	/* read by CPU 2 first */
	void *frees[PURGE_MAX_FREES];	/* vfree()d by CPU 1 */
	unsigned int nr_frees;
	bool probe;		/* CPU 2 probes p at the end */
	u64 hold_ns;		/* CPU 2's wait for CPU 0 (0: PURGE_HOLD_NS) */
	void *q;		/* freed by the work item */
	volatile bool blocking, freed, returned, work_done;
	unsigned long purges_before;	/* nr_purges when the race began */
	bool early;		/* CPU 0 returned while CPU 2 had not flushed */
	/*
	 * A purge had ended when CPU 0 returned: CPU 1's, which held the
	 * purge lock first (purges are counted before the lock is dropped;
	 * a flag CPU 1 set after its vm_unmap_aliases() returned could come
	 * after CPU 0's return even when the purge was over).
	 */
	bool purged_first;
	unsigned int work_cpu;
	int probe_ret;
};

static struct purge_race purge_race;
static struct work_struct purge_work;

/* On CPU 1, after its purge: a work function may free and purge too. */
static void purge_work_fn(struct work_struct *work)
{
	struct purge_race *r = &purge_race;

	vfree(r->q);
	vm_unmap_aliases();
	r->work_cpu = smp_processor_id();
	r->work_done = true;
}

/* Wait (bounded) for flag, with interrupts as they are. */
static bool wait_flag_ns(volatile bool *flag, u64 ns)
{
	u64 deadline = arch_clock_ns() + ns;

	while (!*flag && arch_clock_ns() < deadline)
		arch_cpu_relax();
	return *flag;
}

/*
 * CPU 2: with p in its TLB, hold interrupts off (so CPU 1's shootdown
 * waits for it) until CPU 0 returns or PURGE_HOLD_NS pass; then,
 * interrupts on, probe p once CPU 0 has returned.
 */
static void purge_blocker_fn(void *arg)
{
	struct purge_race *r = arg;

	(void)*r->p;
	local_irq_disable();
	r->blocking = true;
	r->early = wait_flag_ns(&r->returned, r->hold_ns ?: PURGE_HOLD_NS);
	local_irq_enable();
	if (wait_flag(&r->returned, WAIT_S) && r->probe)
		r->probe_ret = arch_probe_kernel_access((unsigned long)r->p,
							PROBE_READ);
}

/* CPU 1: free the areas and purge: its shootdown waits for CPU 2. */
static void purge_holder_fn(void *arg)
{
	struct purge_race *r = arg;

	if (!wait_flag(&r->blocking, WAIT_S))
		return;
	for (unsigned int i = 0; i < r->nr_frees; i++)
		vfree(r->frees[i]);
	r->freed = true;
	vm_unmap_aliases();
}

/* Wait (bounded) until a purge has taken the purge list. */
static bool purge_list_taken(void)
{
	u64 deadline = arch_clock_ns() + 20000000000ULL;
	struct vmalloc_stats s;

	do {
		vmalloc_get_stats(&s);
	} while (s.lazy_pages && arch_clock_ns() < deadline);
	return !s.lazy_pages;
}

/*
 * Start CPU 2, then CPU 1, on r (r->p, r->frees set); wait until CPU 1's
 * purge holds the purge list. Skips (freeing r->frees) if a CPU is
 * missing.
 */
static void purge_race_start(struct ktest *t, struct purge_race *r)
{
	struct vmalloc_stats s;
	int err;

	if (num_online_cpus() < 3)
		ktest_skip(t, "fewer than 3 CPUs online");
	vmalloc_get_stats(&s);
	r->purges_before = s.nr_purges;
	err = arch_cpu_run(2, purge_blocker_fn, r);
	if (!err) {
		err = arch_cpu_run(1, purge_holder_fn, r);
		if (err) {
			r->work_done = r->returned = true;
			arch_cpu_join(2);
		}
	}
	if (err) {
		for (unsigned int i = 0; i < r->nr_frees; i++)
			vfree(r->frees[i]);
		vfree(r->q);
		ktest_skip(t, "CPU 1 or 2 cannot run work: %d", err);
	}
	KTEST_EXPECT_TRUE(t, wait_flag(&r->freed, WAIT_S));
	KTEST_EXPECT_TRUE(t, purge_list_taken());
}

/* CPU 0 has returned: let CPU 2 go on, and wait for both. */
static void purge_race_finish(struct purge_race *r)
{
	struct vmalloc_stats s;

	vmalloc_get_stats(&s);
	r->purged_first = s.nr_purges > r->purges_before;
	r->returned = true;
	arch_cpu_join(1);
	arch_cpu_join(2);
}

/*
 * Purges are serialised: while CPU 1's purge waits in its shootdown for
 * CPU 2, CPU 0's vm_unmap_aliases() finds the purge list empty, but must
 * not return before CPU 1's shootdown is done: on return every CPU has
 * lost the freed mapping (a stale TLB entry read it on QEMU). Then a
 * work item on CPU 1 frees and purges as well.
 */
static void test_purges_serialised(struct ktest *t)
{
	struct purge_race *r = &purge_race;

	memset(r, 0, sizeof(*r));
	INIT_WORK(&purge_work, purge_work_fn);
	vm_unmap_aliases();
	r->p = vmalloc(PAGE_SIZE);
	r->q = vmalloc(PAGE_SIZE);
	KTEST_ASSERT_NOT_NULL(t, (void *)r->p);
	KTEST_ASSERT_NOT_NULL(t, r->q);
	*r->p = 0x5a5a5a5a;
	r->frees[r->nr_frees++] = (void *)r->p;
	r->probe = true;
	ktest_capture_start(t, "BUG: unable to handle page fault");
	purge_race_start(t, r);
	vm_unmap_aliases();
	purge_race_finish(r);
	KTEST_EXPECT_TRUE(t, schedule_work_on(1, &purge_work));
	KTEST_EXPECT_TRUE(t, wait_flag(&r->work_done, WAIT_S));
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_FALSE(t, r->early);
	KTEST_EXPECT_TRUE(t, r->purged_first);
	KTEST_EXPECT_EQ(t, r->probe_ret, -EFAULT);
	KTEST_EXPECT_EQ(t, r->work_cpu, 1U);
	KTEST_EXPECT_NULL(t, find_vm_area(r->q));
}

#define LAZY_VMAP_PAGES	4096UL

/*
 * The purge of too many lazy pages only tries the lock: a vunmap() that
 * crosses lazy_max_pages() while another CPU's purge runs returns at
 * once, its pages left for the next purge. The vmaps are of one page,
 * over and over.
 */
static void test_lazy_purge_does_not_wait(struct ktest *t)
{
	struct page **pages = kmalloc_array(LAZY_VMAP_PAGES, sizeof(*pages),
					    GFP_KERNEL);
	struct page *page = alloc_page(GFP_KERNEL);
	struct purge_race *r = &purge_race;
	unsigned long nr = min(LAZY_VMAP_PAGES, totalram_pages / 2), rounds;
	struct vmalloc_stats s;

	KTEST_ASSERT_NOT_NULL(t, pages);
	KTEST_ASSERT_NOT_NULL(t, page);
	for (unsigned long i = 0; i < nr; i++)
		pages[i] = page;
	memset(r, 0, sizeof(*r));
	r->hold_ns = 10000000000ULL;	/* below SMP_CALL_TIMEOUT_NS */
	vm_unmap_aliases();
	r->p = vmalloc(PAGE_SIZE);
	KTEST_ASSERT_NOT_NULL(t, (void *)r->p);
	r->frees[r->nr_frees++] = (void *)r->p;
	purge_race_start(t, r);
	/* Enough to cross it twice: a purge here would start again from 0. */
	rounds = 2 * (lazy_max_pages() / (nr + 1) + 1);
	do {
		void *v = vmap(pages, (unsigned int)nr, 0, PAGE_KERNEL);

		if (!v)
			break;
		vunmap(v);
		vmalloc_get_stats(&s);
	} while (s.lazy_pages <= lazy_max_pages() && --rounds);
	purge_race_finish(r);
	KTEST_EXPECT_GT(t, s.lazy_pages, lazy_max_pages());
	KTEST_EXPECT_FALSE(t, r->purged_first);
	KTEST_EXPECT_TRUE(t, r->early);
	vm_unmap_aliases();
	vmalloc_get_stats(&s);
	KTEST_EXPECT_EQ(t, s.lazy_pages, 0UL);
	__free_page(page);
	kfree(pages);
}

static void *vmalloc_aligned(unsigned long align)
{
	return __vmalloc_node(PAGE_SIZE, align, GFP_KERNEL | __GFP_NOWARN,
			      NUMA_NO_NODE, NULL);
}

/*
 * A vmalloc that finds no room purges and tries again: with the room
 * on another CPU's purge list, it waits for that purge. Areas aligned to
 * an eighth of the window, one after the other, leave no gap for one
 * more; once freed and purged there is room again.
 */
static void test_alloc_retry_waits_for_purge(struct ktest *t)
{
	unsigned long align = VMALLOC_TOTAL / 8;
	struct purge_race *r = &purge_race;
	void *p;

	while (!is_power_of_2(align))
		align &= align - 1;	/* its top bit */
	memset(r, 0, sizeof(*r));
	vm_unmap_aliases();
	while (r->nr_frees < PURGE_MAX_FREES &&
	       (p = vmalloc_aligned(align)))
		r->frees[r->nr_frees++] = p;
	KTEST_ASSERT_GT(t, r->nr_frees, 0U);
	if (r->nr_frees == PURGE_MAX_FREES) {
		while (r->nr_frees)
			vfree(r->frees[--r->nr_frees]);
		KTEST_FAIL(t, "%d areas aligned to %#lx fit", PURGE_MAX_FREES, align);
	}
	KTEST_EXPECT_NULL(t, vmalloc_aligned(align));	/* the window is full */
	r->p = r->frees[0];
	purge_race_start(t, r);
	p = vmalloc_aligned(align);
	purge_race_finish(r);
	ktest_info(t, "%u areas aligned to %#lx filled the window", r->nr_frees, align);
	KTEST_EXPECT_NOT_NULL(t, p);
	KTEST_EXPECT_FALSE(t, r->early);
	KTEST_EXPECT_TRUE(t, r->purged_first);
	vfree(p);
}

/* Sizes that wrap when rounded up to pages, hidden from the compiler. */
static volatile unsigned long huge_size = ULONG_MAX;

static void vfree_fn(const void *p)
{
	vfree(p);
}

static void vunmap_fn(const void *p)
{
	vunmap(p);
}

static void iounmap_fn(const void *p)
{
	iounmap((void *)p);
}

enum bad_target { BAD_KMALLOC, BAD_DEAD, BAD_VMALLOC, BAD_VMAP };

static const struct bad_free {
	void (*fn)(const void *p);
	enum bad_target which;
	unsigned long offset;
	const char *needle;
	enum report_kind kind;
} bad_frees[] = {
	{ vfree_fn, BAD_KMALLOC, 0, "BUG: vfree", REPORT_VMALLOC_BAD_FREE },
	{ vfree_fn, BAD_DEAD, 0, "already freed", REPORT_VMALLOC_DOUBLE_FREE },
	{ vfree_fn, BAD_VMALLOC, 16, "BUG: vfree", REPORT_VMALLOC_BAD_FREE },
	{ vunmap_fn, BAD_VMALLOC, 0, "BUG: vunmap", REPORT_VMALLOC_WRONG_KIND },
	{ vfree_fn, BAD_VMAP, 0, "BUG: vfree", REPORT_VMALLOC_WRONG_KIND },
	{ iounmap_fn, BAD_VMALLOC, 0, "BUG: iounmap", REPORT_VMALLOC_WRONG_KIND },
};

/* Each bad call is reported and changes nothing. */
static void test_bad_input(struct ktest *t)
{
	struct vmalloc_stats s0, s;
	long pages0 = nr_allocated_pages();
	void *k = kmalloc(64, GFP_KERNEL), *v = vmalloc(PAGE_SIZE), *dead;
	struct page *page = alloc_page(GFP_KERNEL);
	void *m;

	KTEST_ASSERT_NOT_NULL(t, k);
	KTEST_ASSERT_NOT_NULL(t, v);
	KTEST_ASSERT_NOT_NULL(t, page);
	m = vmap(&page, 1, 0, PAGE_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, m);
	dead = vmalloc(PAGE_SIZE);
	KTEST_ASSERT_NOT_NULL(t, dead);
	vfree(dead);
	vmalloc_get_stats(&s0);
	pages0 = nr_allocated_pages();

	for (unsigned int i = 0; i < ARRAY_SIZE(bad_frees); i++) {
		const struct bad_free *bf = &bad_frees[i];
		const void *addr = bf->which == BAD_KMALLOC ? k : bf->which == BAD_DEAD ? dead :
				   bf->which == BAD_VMAP ? m : v;

		ktest_capture_start(t, bf->needle);
		bf->fn((const u8 *)addr + bf->offset);
		KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
		KTEST_EXPECT_REPORT(t, bf->kind);
	}
	KTEST_EXPECT_CAPTURED(t, "is the start of a vmalloc area, not iounmap's");

	ktest_capture_start(t, "vmalloc error: size 0");
	KTEST_EXPECT_NULL(t, vmalloc(0));
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_REPORT(t, REPORT_VMALLOC_BAD_SIZE);

	ktest_capture_start(t, "vmalloc error: size");
	KTEST_EXPECT_NULL(t, vmalloc(huge_size));
	KTEST_EXPECT_NULL(t, vmalloc(huge_size - PAGE_SIZE + 1));
	KTEST_EXPECT_NULL(t, vmalloc((totalram_pages + 1) << PAGE_SHIFT));
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 3U);
	KTEST_EXPECT_REPORTS(t, REPORT_VMALLOC_BAD_SIZE, 3);
	KTEST_EXPECT_NULL(t, __vmalloc(0, GFP_KERNEL | __GFP_NOWARN));

	vmalloc_get_stats(&s);
	KTEST_EXPECT_EQ(t, s.nr_busy, s0.nr_busy);
	KTEST_EXPECT_EQ(t, s.nr_pages, s0.nr_pages);
	KTEST_EXPECT_EQ(t, s.free_bytes, s0.free_bytes);
	KTEST_EXPECT_EQ(t, s.lazy_pages, s0.lazy_pages);
	KTEST_EXPECT_EQ(t, nr_allocated_pages(), pages0);
	KTEST_EXPECT_EQ(t, *(u8 *)k, *(u8 *)k);	/* still mapped */
	KTEST_EXPECT_EQ(t, vmalloc_check(), 0U);
	vunmap(m);
	vfree(v);
	kfree(k);
	__free_page(page);
}

static void disarm_map_failure(void *unused)
{
	arch_fail_kernel_map(0);
}

/*
 * A mapping the arch refuses (the host: mmap() past vm.max_map_count)
 * fails vmalloc, vmap and ioremap with NULL and undoes all they did:
 * pages, tables, the range and the counters are back once purged.
 */
static void test_map_failure_undone(struct ktest *t)
{
	static const unsigned int nths[] = { 1, 3, 5 };
	unsigned long tables = arch_pgtable_pages(), pfn;
	struct page *pages[3];
	struct vmalloc_stats s0, s;
	pgprot_t prot;
	void *p;

	if (arch_fail_kernel_map(0) == -ENOSYS)
		ktest_skip(t, "no mapping fails on purpose on this arch");
	KTEST_ASSERT_EQ(t, ktest_add_action_or_reset(t, disarm_map_failure, NULL), 0);
	for (int i = 0; i < 3; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, pages[i]);
	}
	vm_unmap_aliases();
	vmalloc_get_stats(&s0);
	for (unsigned int i = 0; i < ARRAY_SIZE(nths); i++) {
		KTEST_ASSERT_EQ(t, arch_fail_kernel_map(nths[i]), 0);
		ktest_capture_start(t, "vmalloc error: size 20480, failed to allocate");
		p = vmalloc(5 * PAGE_SIZE);
		KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
		KTEST_EXPECT_NULL(t, p);
	}
	KTEST_ASSERT_EQ(t, arch_fail_kernel_map(2), 0);
	KTEST_EXPECT_NULL(t, vmap(pages, 3, 0, PAGE_KERNEL));
	KTEST_ASSERT_EQ(t, arch_fail_kernel_map(2), 0);
	KTEST_EXPECT_NULL(t, ioremap(PFN_PHYS(page_to_pfn(pages[0])), 2 * PAGE_SIZE));
	KTEST_EXPECT_EQ(t, arch_fail_kernel_map(0), 0);
	vm_unmap_aliases();
	vmalloc_get_stats(&s);
	KTEST_EXPECT_EQ(t, s.nr_busy, s0.nr_busy);
	KTEST_EXPECT_EQ(t, s.nr_pages, s0.nr_pages);
	KTEST_EXPECT_EQ(t, s.free_bytes, s0.free_bytes);
	KTEST_EXPECT_EQ(t, s.lazy_pages, 0UL);
	KTEST_EXPECT_EQ(t, arch_pgtable_pages(), tables);
	KTEST_EXPECT_EQ(t, vmalloc_check(), 0U);
	/* And the next one works. */
	p = vmalloc(5 * PAGE_SIZE);
	KTEST_ASSERT_NOT_NULL(t, p);
	memset(p, 0x3c, 5 * PAGE_SIZE);
	KTEST_EXPECT_TRUE(t, arch_lookup_kernel_page((unsigned long)p + 4 * PAGE_SIZE,
						     &pfn, &prot));
	vfree(p);
	for (int i = 0; i < 3; i++)
		__free_page(pages[i]);
}

/* A case that frees all it mapped, leaving the purge to others. */
static void vmalloc_then_free(struct ktest *t)
{
	struct page *page = alloc_page(GFP_KERNEL);
	void *v = vmalloc(5 * PAGE_SIZE), *m;

	KTEST_ASSERT_NOT_NULL(t, page);
	KTEST_ASSERT_NOT_NULL(t, v);
	m = vmap(&page, 1, 0, PAGE_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, m);
	vunmap(m);
	vfree(v);
	__free_page(page);
}

/*
 * The leak check purges the lazily freed areas: their records (and on
 * x86_64 the page-table pages emptied) are no leak of the case.
 */
static void test_leak_check_purges(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, ktest_run_nested(t, "frees-everything",
					    vmalloc_then_free, NULL),
			KTEST_SUCCESS);
}

static const struct ktest_case vmalloc_cases[] = {
	KTEST_CASE_PARAM(test_vmalloc_sizes, size_gen),
	KTEST_CASE(test_vzalloc_zeroed),
	KTEST_CASE(test_vmalloc_alignment),
	KTEST_CASE(test_vmalloc_to_page_round_trip),
	KTEST_CASE(test_guard_page_named),
	KTEST_CASE(test_vmallocinfo),
	KTEST_CASE(test_vmap_vunmap),
	KTEST_CASE(test_ioremap),
	KTEST_CASE(test_kvmalloc_choice),
	KTEST_CASE(test_vfree_from_irq),
	KTEST_CASE(test_double_vfree_deferred),
	KTEST_CASE(test_fragmented_memory),
	KTEST_CASE(test_stress),
	KTEST_CASE(test_lazy_purge_batching),
	KTEST_CASE(test_no_purge_irqs_off),
	KTEST_CASE(test_no_stale_mapping_after_vfree),
	KTEST_CASE(test_purges_serialised),
	KTEST_CASE(test_alloc_retry_waits_for_purge),
	KTEST_CASE(test_lazy_purge_does_not_wait),
	KTEST_CASE(test_bad_input),
	KTEST_CASE(test_map_failure_undone),
	KTEST_CASE(test_leak_check_purges),
	{}
};
KTEST_SUITE(vmalloc, vmalloc_cases, .exit = vmalloc_exit);

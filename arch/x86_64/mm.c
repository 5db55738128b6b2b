// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64 page tables: the kernel's final address space.
 *
 * boot/entry.S left a temporary map of the first GiB. setup_arch()
 * replaces it with tables built here from memblock memory:
 *
 *   PAGE_OFFSET + p   every RAM range of memblock, read-write, no-execute,
 *                     with 1 GiB pages where the CPU has them and the
 *                     range is aligned, 2 MiB pages next, 4 KiB at edges;
 *                     4 KiB pages only with debug_pagealloc=on, whose
 *                     arch_kernel_map_pages() clears and sets the present
 *                     bit of single pages (the address stays in the PTE)
 *   -2 GiB + p        the kernel image with W^X: text read-only and
 *                     executable, rodata read-only, data and bss
 *                     read-write, both no-execute (4 KiB pages)
 *   VMEMMAP_START     mem_map, backed page by page by vmemmap_populate()
 *   VMALLOC_START     the vmalloc window (32 TiB), 4 KiB pages mapped and
 *                     unmapped through the kernel page-table API
 *                     (arch/pgtable.h) by mm/vmalloc.c: vmalloc, vmap and
 *                     ioremap (uncached there is PCD|PWT: strong
 *                     uncacheable whatever the MTRRs say, as Linux's
 *                     ioremap_uc()). Not global, so a CR3 reload flushes
 *                     them all.
 *   -512 KiB          KFENCE's pool (asm/kfence.h), 4 KiB pages whose
 *                     present bit arch_kfence_protect_page() switches;
 *                     its memory keeps its direct-map alias
 *
 * Nothing else is mapped: not page 0, not the low boot code, not holes.
 * Page-table pages come from memblock; until the switch they must lie in
 * the first GiB (the only memory the boot map reaches), so setup_arch()
 * holds memblock's limit there while building. Those of the vmalloc
 * window come from the page allocator once it is up, and go back to it
 * when their last entry is cleared and every CPU has flushed its TLB.
 */
#include "arch/arch.h"
#include "arch/pgtable.h"
#include "arch/x86_64/x86.h"
#include "arch/x86_64/io.h"
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/spinlock.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/memblock.h"
#include "mm/mm.h"
#include "mm/page_debug.h"

extern char _text[], _etext[], _rodata[], _erodata[], _data[], _end[];

static u64 *kernel_pgd;
static u64 supported_pte_mask = ~PTE_NX;
static bool has_gbpages;
unsigned long pgtable_pages;
unsigned long vmalloc_base = X86_VMALLOC_START;
unsigned long vmalloc_size = X86_VMALLOC_SIZE;

static void detect_paging_features(void)
{
	u32 a, b, c, d;

	cpuid(0x80000001, 0, &a, &b, &c, &d);
	if (d & (1U << 20))
		supported_pte_mask |= PTE_NX;
	has_gbpages = d & (1U << 26);
}

static u64 *alloc_table(void)
{
	phys_addr_t phys = memblock_alloc_pages_named(1, "page tables");
	u64 *table;

	if (!phys)
		panic("x86_64: out of memory for page tables");
	table = __va(phys);
	memset(table, 0, PAGE_SIZE);
	pgtable_pages++;
	return table;
}

static unsigned int pt_index(unsigned long virt, int level)
{
	return (virt >> (PAGE_SHIFT + 9 * level)) & 511;
}

/* The entry mapping virt at level, creating the tables above it. */
static u64 *walk_create(unsigned long virt, int level)
{
	u64 *table = kernel_pgd;

	for (int l = PGD_LEVEL; l > level; l--) {
		u64 *entry = &table[pt_index(virt, l)];

		if (!(*entry & PTE_PRESENT))
			*entry = __pa(alloc_table()) | PTE_PRESENT | PTE_RW;
		BUG_ON(*entry & PTE_PSE);	/* would split a huge page */
		table = __va(*entry & PTE_ADDR_MASK);
	}
	return &table[pt_index(virt, level)];
}

/* The largest page level that maps virt -> phys within size. */
static int map_level(unsigned long virt, phys_addr_t phys, unsigned long size,
		     bool huge)
{
	if (huge && has_gbpages && IS_ALIGNED(virt | phys, SZ_1G) &&
	    size >= SZ_1G)
		return 2;
	if (huge && IS_ALIGNED(virt | phys, SZ_2M) && size >= SZ_2M)
		return 1;
	return 0;
}

static void map_range(unsigned long virt, phys_addr_t phys, unsigned long size,
		      u64 prot, bool huge)
{
	BUG_ON(!IS_ALIGNED(virt | phys | size, PAGE_SIZE));
	while (size) {
		int level = map_level(virt, phys, size, huge);
		unsigned long step = PAGE_SIZE << (9 * level);
		u64 *entry = walk_create(virt, level);

		BUG_ON(*entry & PTE_PRESENT);
		*entry = (phys | prot | PTE_PRESENT | (level ? PTE_PSE : 0)) &
			 supported_pte_mask;
		virt += step;
		phys += step;
		size -= step;
	}
}

static void map_kernel_part(const char *start, const char *end, u64 prot)
{
	unsigned long virt = (unsigned long)start;
	unsigned long size = PAGE_ALIGN((unsigned long)end) - virt;

	map_range(virt, virt - KERNEL_VIRT_BASE, size, prot | PTE_GLOBAL, false);
}

static void map_direct(bool huge)
{
	const struct memblock_type *mem = &memblock.memory;

	for (unsigned long i = 0; i < mem->cnt; i++) {
		phys_addr_t base = mem->regions[i].base;

		map_range(X86_PAGE_OFFSET + base, base, mem->regions[i].size,
			  PTE_RW | PTE_NX | PTE_GLOBAL, huge);
	}
}

void init_mem_mapping(void)
{
	detect_paging_features();
	kernel_pgd = alloc_table();
	map_direct(!debug_pagealloc_enabled());
	map_kernel_part(_text, _etext, 0);
	map_kernel_part(_rodata, _erodata, PTE_NX);
	map_kernel_part(_data, _end, PTE_RW | PTE_NX);
	kasan_map_early_shadow(kernel_pgd);
	write_cr3(__pa(kernel_pgd));
	pr_info("x86_64: page tables built (%lu pages), NX %s, 1G pages %s%s\n",
		pgtable_pages, supported_pte_mask & PTE_NX ? "on" : "off",
		has_gbpages ? "on" : "off",
		debug_pagealloc_enabled() ?
			", direct map in 4K pages (debug_pagealloc)" : "");
}

/*
 * The entry that maps virt, at whatever level: NULL if a table on the
 * way is missing. *level gets the entry's level (0: a 4 KiB PTE).
 */
static u64 *lookup_entry(unsigned long virt, int *level)
{
	u64 *table = kernel_pgd;

	for (int l = PGD_LEVEL; ; l--) {
		u64 *entry = &table[pt_index(virt, l)];

		if (!l || !(*entry & PTE_PRESENT) || (*entry & PTE_PSE)) {
			*level = l;
			return entry;
		}
		table = __va(*entry & PTE_ADDR_MASK);
	}
}

static void invlpg(unsigned long virt)
{
	__asm__ __volatile__("invlpg (%0)" : : "r"(virt) : "memory");
}

/* RAM is RAM here: nothing to back. */
void arch_alloc_page(struct page *page, unsigned int order)
{
}

/* Clear or set the present bit of the 4 KiB page mapping virt; false if none. */
static bool set_page_present(unsigned long virt, bool present)
{
	int level;
	u64 *pte = lookup_entry(virt, &level);

	/* A huge page or no table: no 4 KiB page maps virt. */
	if (WARN_ON_ONCE(level || !(*pte & PTE_ADDR_MASK)))
		return false;
	if (present)
		*pte |= PTE_PRESENT;
	else
		*pte &= ~PTE_PRESENT;
	invlpg(virt);
	return true;
}

void arch_kernel_map_pages(struct page *page, int numpages, bool enable)
{
	unsigned long virt = (unsigned long)page_address(page);

	for (int i = 0; i < numpages; i++, virt += PAGE_SIZE)
		if (!set_page_present(virt, enable))
			return;
}

/* KFENCE's pool at the top of the address space (asm/kfence.h). */
bool arch_kfence_init_pool(unsigned long addr, unsigned long size)
{
	phys_addr_t phys = memblock_alloc_pages_named(size / PAGE_SIZE,
						      "kfence pool");

	if (!phys)
		return false;
	map_range(addr, phys, size, PTE_RW | PTE_NX | PTE_GLOBAL, false);
	return true;
}

void arch_kfence_protect_page(unsigned long addr, bool protect)
{
	set_page_present(addr, !protect);
}

bool arch_kernel_page_present(unsigned long virt)
{
	int level;

	if (!kernel_pgd)
		return false;
	return *lookup_entry(virt, &level) & PTE_PRESENT;
}

/* --- the kernel page-table API (arch/pgtable.h) ------------------------ */

static DEFINE_SPINLOCK(pgtable_lock);	/* tables of the window appear, go */
static unsigned long window_tables;	/* the window's table pages */
static LIST_HEAD(freed_tables);		/* emptied, not yet flushed */
static unsigned long full_flushes[NR_CPUS];

static bool is_canonical(unsigned long addr)
{
	return (long)addr >> 47 == 0 || (long)addr >> 47 == -1;
}

static bool in_window(unsigned long addr, unsigned long size)
{
	return IS_ALIGNED(addr | size, PAGE_SIZE) && addr >= vmalloc_base &&
	       size <= vmalloc_size && addr - vmalloc_base <= vmalloc_size - size;
}

static u64 prot_bits(pgprot_t prot)
{
	unsigned int p = pgprot_val(prot);
	u64 bits = PTE_PRESENT;

	if (p & _PAGE_KERNEL_WRITE)
		bits |= PTE_RW;
	if (!(p & _PAGE_KERNEL_EXEC))
		bits |= PTE_NX;
	if (p & _PAGE_KERNEL_UC)
		bits |= PTE_PCD | PTE_PWT;
	return bits & supported_pte_mask;
}

static pgprot_t pte_pgprot(u64 pte)
{
	unsigned int p = 0;

	if (pte & PTE_RW)
		p |= _PAGE_KERNEL_WRITE;
	if (!(pte & PTE_NX))
		p |= _PAGE_KERNEL_EXEC;
	if (pte & PTE_PCD)
		p |= _PAGE_KERNEL_UC;
	return __pgprot(p);
}

/*
 * A zeroed table page for the window: from the page allocator once it
 * has memory (totalram_pages), from memblock before (never freed then).
 */
static u64 *alloc_window_table(void)
{
	struct page *page;

	if (!totalram_pages) {
		pgtable_pages--;	/* alloc_table() counts boot tables */
		window_tables++;
		return alloc_table();
	}
	page = alloc_page(GFP_ATOMIC | __GFP_ZERO | __GFP_NOWARN);
	if (!page)
		return NULL;
	window_tables++;
	return page_address(page);
}

static bool table_empty(const u64 *table)
{
	for (int i = 0; i < 512; i++) {
		if (table[i])
			return false;
	}
	return true;
}

/* The PTE for addr, with the tables above it made; NULL without memory. */
static u64 *window_pte_alloc(unsigned long addr)
{
	u64 *table = kernel_pgd;

	for (int l = PGD_LEVEL; l > 0; l--) {
		u64 *entry = &table[pt_index(addr, l)];

		if (!(*entry & PTE_PRESENT)) {
			u64 *new = alloc_window_table();

			if (!new)
				return NULL;
			*entry = __pa(new) | PTE_PRESENT | PTE_RW;
		}
		BUG_ON(*entry & PTE_PSE);
		table = __va(*entry & PTE_ADDR_MASK);
	}
	return &table[pt_index(addr, 0)];
}

int arch_map_kernel_page(unsigned long addr, unsigned long pfn, pgprot_t prot)
{
	unsigned long flags;
	u64 *pte;
	int ret = 0;

	if (!in_window(addr, PAGE_SIZE) || pgprot_val(prot) & ~_PAGE_KERNEL_MASK)
		return -EINVAL;
	spin_lock_irqsave(&pgtable_lock, flags);
	pte = window_pte_alloc(addr);
	if (!pte)
		ret = -ENOMEM;
	else if (*pte & PTE_PRESENT)
		ret = -EEXIST;
	else
		*pte = PFN_PHYS(pfn) | prot_bits(prot);
	spin_unlock_irqrestore(&pgtable_lock, flags);
	return ret;
}

int arch_fail_kernel_map(unsigned int nth)
{
	return -ENOSYS;
}

/*
 * Clear the entries of [addr, end) under table (at level), free tables
 * left empty below it; true if table itself is empty now.
 */
static bool unmap_level(u64 *table, int level, unsigned long addr,
			unsigned long end)
{
	unsigned long span = PAGE_SIZE << (9 * level);

	while (addr < end) {
		unsigned long next = min(ALIGN_DOWN(addr, span) + span, end);
		u64 *entry = &table[pt_index(addr, level)];

		if (!level) {
			*entry = 0;
		} else if (*entry & PTE_PRESENT) {
			u64 *sub = __va(*entry & PTE_ADDR_MASK);
			struct page *page = virt_to_page(sub);

			if (unmap_level(sub, level - 1, addr, next) &&
			    !PageReserved(page)) {
				*entry = 0;
				window_tables--;
				list_add(&page->lru, &freed_tables);
			}
		}
		addr = next;
	}
	return table_empty(table);
}

void arch_unmap_kernel_range(unsigned long addr, unsigned long size)
{
	unsigned long flags;

	if (WARN_ON(!in_window(addr, size)) || !size)
		return;
	spin_lock_irqsave(&pgtable_lock, flags);
	unmap_level(kernel_pgd, PGD_LEVEL, addr, addr + size);
	spin_unlock_irqrestore(&pgtable_lock, flags);
	arch_flush_tlb_kernel_range(addr, addr + size);
}

/* The PTE for addr in the window if its tables exist, else NULL. */
static u64 *window_pte(unsigned long addr)
{
	int level;
	u64 *entry = lookup_entry(addr, &level);

	return level ? NULL : entry;
}

/* A present PTE of the window at addr, or NULL. pgtable_lock held. */
static u64 *mapped_window_pte(unsigned long addr)
{
	u64 *pte = window_pte(addr);

	return pte && (*pte & PTE_PRESENT) ? pte : NULL;
}

static void set_pte_prot(u64 *pte, pgprot_t prot)
{
	*pte = (*pte & PTE_ADDR_MASK) | prot_bits(prot);
}

int arch_protect_kernel_range(unsigned long addr, unsigned long size,
			      pgprot_t prot)
{
	unsigned long flags;
	int ret;

	if (!in_window(addr, size) || pgprot_val(prot) & ~_PAGE_KERNEL_MASK)
		return -EINVAL;
	spin_lock_irqsave(&pgtable_lock, flags);
	ret = protect_kernel_ptes(addr, size, prot, mapped_window_pte,
				  set_pte_prot);
	spin_unlock_irqrestore(&pgtable_lock, flags);
	if (!ret)
		arch_flush_tlb_kernel_range(addr, addr + size);
	return ret;
}

bool arch_lookup_kernel_page(unsigned long addr, unsigned long *pfn,
			     pgprot_t *prot)
{
	int level;
	u64 *entry;
	unsigned long offset;

	if (!kernel_pgd || !is_canonical(addr))
		return false;
	entry = lookup_entry(addr, &level);
	if (!(*entry & PTE_PRESENT))
		return false;
	offset = addr & ((PAGE_SIZE << (9 * level)) - 1);
	*pfn = PHYS_PFN((*entry & PTE_ADDR_MASK & ~(u64)(level ? PTE_PAT_LARGE : 0)) +
			offset);
	*prot = pte_pgprot(*entry);
	return true;
}

void arch_flush_tlb_kernel_range(unsigned long start, unsigned long end)
{
	if ((end - start) >> PAGE_SHIFT > TLB_FLUSH_CEILING) {
		write_cr3(read_cr3());	/* the window is not global */
		full_flushes[arch_cpu_id()]++;
		return;
	}
	for (unsigned long a = ALIGN_DOWN(start, PAGE_SIZE); a < end;
	     a += PAGE_SIZE)
		invlpg(a);
}

unsigned long arch_tlb_full_flushes(void)
{
	return READ_ONCE(full_flushes[arch_cpu_id()]);
}

unsigned long arch_pgtable_pages(void)
{
	return READ_ONCE(window_tables);
}

void arch_take_freed_pgtables(struct list_head *pages)
{
	unsigned long flags;

	spin_lock_irqsave(&pgtable_lock, flags);
	list_splice_init(&freed_tables, pages);
	spin_unlock_irqrestore(&pgtable_lock, flags);
}

int __probe_kernel_access(unsigned long addr, enum probe_access kind, u8 val);

/* A write stores the byte already there, read through the direct map. */
int arch_probe_kernel_access(unsigned long addr, enum probe_access kind)
{
	unsigned long pfn;
	pgprot_t prot;
	u8 val = 0;

	if (kind == PROBE_WRITE && arch_lookup_kernel_page(addr, &pfn, &prot) &&
	    pfn_valid(pfn) && arch_kernel_page_present((unsigned long)__va(PFN_PHYS(pfn))))
		val = *(u8 *)__va(PFN_PHYS(pfn) + (addr & ~PAGE_MASK));
	return __probe_kernel_access(addr, kind, val);
}

/* The image's .rodata (linker.ld), mapped read-only by setup_arch(). */
bool arch_is_kernel_rodata(unsigned long addr)
{
	return addr >= (unsigned long)_rodata && addr < (unsigned long)_erodata;
}

unsigned long vmemmap_populate(unsigned long start, unsigned long end, int nid)
{
	unsigned long bytes = 0;

	for (unsigned long va = ALIGN_DOWN(start, PAGE_SIZE); va < end;
	     va += PAGE_SIZE) {
		u64 *entry = walk_create(va, 0);
		phys_addr_t phys;

		if (*entry & PTE_PRESENT)
			continue;
		phys = memblock_alloc_pages_nid_named(1, PAGE_SIZE, nid, "mem_map");
		if (!phys)
			panic("x86_64: out of memory for mem_map");
		memset(__va(phys), 0, PAGE_SIZE);
		*entry = (phys | PTE_PRESENT | PTE_RW | PTE_NX | PTE_GLOBAL) &
			 supported_pte_mask;
		bytes += PAGE_SIZE;
	}
	return bytes;
}

/* The physical addresses the direct map may reach (MAXPHYADDR, 64 TiB). */
static u64 direct_map_phys_limit(void)
{
	u32 a, b, c, d, bits = 36;

	cpuid(0x80000000, 0, &a, &b, &c, &d);
	if (a >= 0x80000008) {
		cpuid(0x80000008, 0, &a, &b, &c, &d);
		bits = a & 0xff;
	}
	return 1ULL << min(bits, 46U);
}

/*
 * Firmware tables (ACPI data, NVS, reserved ranges) lie outside the RAM
 * the direct map covers. Map [phys, phys + size) there, read-only and
 * write-back, page by page where nothing is mapped yet, and return its
 * direct-map address; NULL if the range is beyond what the direct map
 * reaches or covers a page deliberately unmapped (debug_pagealloc).
 * Page tables come from memblock: only during boot, after
 * init_mem_mapping().
 */
const void *x86_map_firmware(u64 phys, u64 size)
{
	u64 start = ALIGN_DOWN(phys, PAGE_SIZE), end;

	if (!kernel_pgd || !size || phys + size < phys ||
	    phys + size > direct_map_phys_limit())
		return NULL;
	end = ALIGN(phys + size, PAGE_SIZE);
	for (u64 pa = start; pa < end; pa += PAGE_SIZE) {
		unsigned long va = X86_PAGE_OFFSET + pa;
		int level;
		u64 *entry = lookup_entry(va, &level);

		if (*entry & PTE_PRESENT)
			continue;
		if (*entry & PTE_ADDR_MASK)	/* unmapped on purpose */
			return NULL;
		map_range(va, pa, PAGE_SIZE, PTE_NX | PTE_GLOBAL, false);
		invlpg(va);
	}
	return (const void *)(X86_PAGE_OFFSET + phys);
}

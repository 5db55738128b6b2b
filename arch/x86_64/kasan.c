// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64's KASAN backend, built with KASAN=1 only (asm/kasan.h): generic
 * KASAN's shadow at Linux's KASAN_SHADOW_OFFSET, and the checks gcc's
 * -fsanitize=kernel-address calls. This file is not instrumented itself
 * (the Makefile's KASAN_SANITIZE_N).
 *
 * 1. The early shadow. x86_64_start_kernel() first calls
 *    x86_kasan_early_init(), before any instrumented code: every shadow
 *    address (the 16 TiB at KASAN_SHADOW_START, PML4 entries 472-503)
 *    maps one read-only zero page through three shared tables, as
 *    Linux's kasan_early_shadow_{pud,pmd,pte,page}, hung from
 *    boot/entry.S's boot_pml4. So every check reads "valid" until the
 *    shadow has pages. init_mem_mapping() hangs the same tables from the
 *    final page tables (kasan_map_early_shadow()) before it loads them.
 *
 * 2. Real shadow. setup_arch() calls x86_kasan_populate_shadow() once
 *    the direct map covers RAM: zeroed pages from memblock back the
 *    shadow of the direct map of every RAM range and of the kernel
 *    image (RAM/8: a machine whose free memory cannot hold it refuses
 *    to boot, saying so). A shared table on the way is never written: a
 *    copy takes its place whose entries point where the shared one's
 *    did (shadow_pte()).
 *
 * 3. vmalloc. Its window (32 TiB) would need 4 TiB of shadow, so its
 *    shadow gets a page when a range in it is first poisoned or
 *    unpoisoned (vmalloc() and vfree() through mm/kasan.h), as Linux's
 *    KASAN_VMALLOC populates it: from the page allocator (memblock
 *    before it is up), installed with a compare-and-swap so that no lock
 *    is taken, never given back (the window is handed out lowest first,
 *    so this is bounded by its highest address used / 8; the tests' leak
 *    check leaves these pages out, arch_kasan_shadow_pages()). Without
 *    memory the range keeps the zero page: unchecked, not broken.
 *
 *    Everything else keeps the zero page: mem_map (vmemmap), fixed and
 *    firmware mappings, KFENCE's pool (its objects KASAN leaves alone).
 *    Accesses there read "valid" and are not checked.
 *    The shadow of a pointer below the kernel half (NULL) is not
 *    canonical: an inline check of one takes a #GP, which
 *    x86_kasan_gp_hint() explains.
 *
 * 4. Checks and reports. gcc's inline checks read the shadow (0: valid,
 *    1..7: the granule's first k bytes valid, negative: invalid) and
 *    call __asan_report_{load,store}*_noabort() for a bad access;
 *    __asan_{load,store}*_noabort() do the same out of line (sizes the
 *    compiler does not inline, and outline builds). Each hands the access
 *    to kasan_report() (mm/kasan.c) with the caller's address, whose
 *    report ends with the shadow bytes around it. A report's own
 *    accesses are not checked (report_depth, per CPU), so reports never
 *    recurse, in interrupts too. As Linux: only the first report is
 *    printed unless kasan_multi_shot is on the command line (or the
 *    kasan suite runs, whose reports are all expected), and
 *    panic_on_warn panics after one (mm/kasan.c decides both).
 */
#include "arch/x86_64/io.h"
#include "arch/x86_64/x86.h"
#include "kernel/bug.h"
#include "kernel/printk.h"
#include "lib/bitops.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/kasan.h"
#include "mm/kfence.h"
#include "mm/memblock.h"
#include "mm/mm.h"
#include "mm/vmalloc.h"

#define KERNEL_HALF_START	0xffff800000000000UL

extern u64 boot_pml4[512];
extern char _text[], _end[];

static u64 kasan_early_shadow_pud[512] __aligned(PAGE_SIZE);
static u64 kasan_early_shadow_pmd[512] __aligned(PAGE_SIZE);
static u64 kasan_early_shadow_pte[512] __aligned(PAGE_SIZE);
static u8 kasan_early_shadow_page[PAGE_SIZE] __aligned(PAGE_SIZE);

static u64 shadow_nx;		/* PTE_NX if the CPU has it */
static bool shadow_ready;	/* x86_kasan_populate_shadow() is done */
static unsigned long direct_end;	/* the direct map of RAM ends here */
static unsigned long shadow_boot_pages, shadow_vmalloc_pages;

static bool reports_expected;
static unsigned int report_depth[NR_CPUS];

static __always_inline s8 *shadow(unsigned long addr)
{
	return (s8 *)((addr >> KASAN_SHADOW_SCALE_SHIFT) + KASAN_SHADOW_OFFSET);
}

/* The physical address of one of this file's static tables. */
static phys_addr_t image_pa(const void *p)
{
	return (unsigned long)p - KERNEL_VIRT_BASE;
}

static unsigned int pt_index(unsigned long virt, int level)
{
	return (virt >> (PAGE_SHIFT + 9 * level)) & 511;
}

static void invlpg(unsigned long virt)
{
	__asm__ __volatile__("invlpg (%0)" : : "r"(virt) : "memory");
}

/* The shared early shadow below a level-level table's entries. */
static const void *early_below(int level)
{
	static const void *const below[] = {
		kasan_early_shadow_page, kasan_early_shadow_pte,
		kasan_early_shadow_pmd, kasan_early_shadow_pud,
	};

	return below[level];
}

/*
 * An entry of a level-level table that points at the shared early
 * shadow below it: the pud from the PML4 (3), the pmd (2), the pte
 * table (1), the zero page, read-only (0).
 */
static u64 early_entry(int level)
{
	return image_pa(early_below(level)) | PTE_PRESENT | (level ? PTE_RW : 0);
}

/* Does entry point there? (The CPU may have set its accessed bit.) */
static bool is_early_entry(u64 entry, int level)
{
	return (entry & PTE_ADDR_MASK) == image_pa(early_below(level));
}

/* --- 1. the early shadow ------------------------------------------------ */

void kasan_map_early_shadow(u64 *pgd)
{
	for (unsigned int i = pt_index(KASAN_SHADOW_START, PGD_LEVEL);
	     i <= pt_index(KASAN_SHADOW_END - 1, PGD_LEVEL); i++)
		pgd[i] = early_entry(PGD_LEVEL);
}

void x86_kasan_early_init(void)
{
	u32 a, b, c, d;

	cpuid(0x80000001, 0, &a, &b, &c, &d);
	shadow_nx = d & (1U << 20) ? PTE_NX : 0;
	for (int i = 0; i < 512; i++) {
		kasan_early_shadow_pte[i] = early_entry(0);
		kasan_early_shadow_pmd[i] = early_entry(1);
		kasan_early_shadow_pud[i] = early_entry(2);
	}
	kasan_map_early_shadow(boot_pml4);
	write_cr3(read_cr3());
}

/* --- 2. and 3. shadow pages --------------------------------------------- */

/* A zeroed page: memblock's until the page allocator has memory. */
static void *shadow_alloc_page(void)
{
	struct page *page;
	phys_addr_t phys;

	if (!totalram_pages) {
		phys = memblock_alloc_pages_named(1, "kasan shadow");
		if (!phys)
			return NULL;
		for (u64 *p = __va(phys); p < (u64 *)__va(phys + PAGE_SIZE); p++)
			*p = 0;
		return __va(phys);
	}
	page = alloc_page(GFP_ATOMIC | __GFP_ZERO | __GFP_NOWARN);
	if (!page)
		return NULL;
	__atomic_fetch_add(&shadow_vmalloc_pages, 1, __ATOMIC_RELAXED);
	return page_address(page);
}

static void shadow_free_page(void *p)
{
	if (!totalram_pages) {
		memblock_phys_free(__pa(p), PAGE_SIZE);
		return;
	}
	__free_page(virt_to_page(p));
	__atomic_fetch_sub(&shadow_vmalloc_pages, 1, __ATOMIC_RELAXED);
}

/*
 * Point *entry (of a level-level table, level > 0) at a private copy of
 * the shared table below it, unless someone did already. False without
 * memory.
 */
static bool unshare_table(u64 *entry, u64 old, int level)
{
	u64 *copy = shadow_alloc_page();

	if (!copy)
		return false;
	for (int i = 0; i < 512; i++)
		copy[i] = early_entry(level - 1);
	if (!__atomic_compare_exchange_n(entry, &old,
					 __pa(copy) | PTE_PRESENT | PTE_RW,
					 false, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST))
		shadow_free_page(copy);
	return true;
}

/* The PTE mapping shadow address addr, its tables made private; or NULL. */
static u64 *shadow_pte(unsigned long addr)
{
	u64 *table = __va(read_cr3() & PTE_ADDR_MASK);

	for (int l = PGD_LEVEL; l > 0; l--) {
		u64 *entry = &table[pt_index(addr, l)];

		u64 old = READ_ONCE(*entry);

		if (is_early_entry(old, l) && !unshare_table(entry, old, l))
			return NULL;
		table = __va(READ_ONCE(*entry) & PTE_ADDR_MASK);
	}
	return &table[pt_index(addr, 0)];
}

/* Back the shadow page at addr with memory of its own; false if none. */
static bool populate_shadow_page(unsigned long addr)
{
	u64 *pte = shadow_pte(addr);
	void *page;
	u64 old;

	if (!pte)
		return false;
	old = READ_ONCE(*pte);
	if (!is_early_entry(old, 0))
		return true;
	page = shadow_alloc_page();
	if (!page)
		return false;
	if (__atomic_compare_exchange_n(pte, &old, __pa(page) | PTE_PRESENT |
					PTE_RW | shadow_nx, false,
					__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		if (!totalram_pages)
			shadow_boot_pages++;
	} else {
		shadow_free_page(page);
	}
	/* This CPU may have read the zero page there: forget it. */
	invlpg(addr);
	return true;
}

/* Back the shadow of [start, end) with pages of its own. */
static bool populate_shadow(unsigned long start, unsigned long end)
{
	unsigned long s = ALIGN_DOWN((unsigned long)shadow(start), PAGE_SIZE);
	unsigned long e = (unsigned long)shadow(end - 1);

	for (; s <= e; s += PAGE_SIZE) {
		if (!populate_shadow_page(s))
			return false;
	}
	return true;
}

void x86_kasan_populate_shadow(void)
{
	const struct memblock_type *mem = &memblock.memory;
	phys_addr_t ram = memblock_phys_mem_size();
	phys_addr_t free = ram - memblock_reserved_size();
	phys_addr_t need = ram / 8 + ((unsigned long)_end - (unsigned long)_text) / 8;

	/* The shadow, its tables, and room to boot after it. */
	if (need + need / 8 + (8UL << 20) > free)
		panic("kasan: the shadow needs %llu KiB of the %llu KiB of free RAM: boot with more memory or a kernel built without KASAN",
		      (unsigned long long)need >> 10,
		      (unsigned long long)free >> 10);
	for (unsigned long i = 0; i < mem->cnt; i++) {
		unsigned long start = X86_PAGE_OFFSET + mem->regions[i].base;
		unsigned long end = start + mem->regions[i].size;

		if (!populate_shadow(start, end))
			panic("kasan: out of memory for the shadow");
		direct_end = max(direct_end, end);
	}
	if (!populate_shadow((unsigned long)_text, (unsigned long)_end))
		panic("kasan: out of memory for the shadow");
	write_cr3(read_cr3());
	WRITE_ONCE(shadow_ready, true);
}

void x86_kasan_init(void)
{
	pr_info("kasan: shadow [%px-%px): %lu KiB for the direct map and the image, vmalloc's on demand\n",
		(void *)KASAN_SHADOW_START, (void *)KASAN_SHADOW_END,
		shadow_boot_pages << (PAGE_SHIFT - 10));
}

/* --- the shadow operations (asm/kasan.h) -------------------------------- */

/*
 * Can the shadow of [addr, addr + size) be written? The direct map of
 * RAM and the image always can; vmalloc's once it has pages.
 */
static __noinline bool other_shadow_writable(unsigned long addr, size_t size)
{
	if (!READ_ONCE(shadow_ready))
		return false;
	if (addr >= (unsigned long)_text && addr + size <= (unsigned long)_end)
		return true;
	if (addr >= VMALLOC_START && addr + size <= VMALLOC_END)
		return populate_shadow(addr, addr + size);
	if (is_kfence_address((void *)addr))
		return false;	/* the zero page: all valid, as KASAN wants */
	WARN_ONCE(1, "kasan: no shadow to write for %px (%zu bytes)\n",
		  (void *)addr, size);
	return false;
}

/* The direct map's first (every slab object and page), inline. */
static __always_inline bool shadow_writable(unsigned long addr, size_t size)
{
	if (likely(addr >= X86_PAGE_OFFSET && addr + size <= direct_end &&
		   READ_ONCE(shadow_ready)))
		return true;
	return other_shadow_writable(addr, size);
}

/* Write the shadow of that many granules from addr: 8 bytes at a time. */
static __always_inline void shadow_fill(unsigned long addr, size_t granules,
					s8 value)
{
	u8 *s = (u8 *)shadow(addr), *end = s + granules;
	u64 word = (u8)value * 0x0101010101010101ULL;

	/*
	 * Most objects: whole words of shadow (64-byte multiples, aligned),
	 * four a pass (256 bytes of memory: a 4 KiB object in 16 passes).
	 */
	if (IS_ALIGNED((unsigned long)s | granules, 8)) {
		for (; end - s >= 32; s += 32) {
			((u64 *)s)[0] = word;
			((u64 *)s)[1] = word;
			((u64 *)s)[2] = word;
			((u64 *)s)[3] = word;
		}
		for (; s < end; s += 8)
			*(u64 *)s = word;
		return;
	}

	while (s < end && !IS_ALIGNED((unsigned long)s, 8))
		*s++ = value;
	for (; s + 8 <= end; s += 8)
		*(u64 *)s = word;
	while (s < end)
		*s++ = value;
}

void x86_kasan_poison(const void *addr, size_t size, u8 value)
{
	unsigned long a = (unsigned long)addr;

	if (!size || !shadow_writable(a, size))
		return;
	shadow_fill(a, DIV_ROUND_UP(size, KASAN_GRANULE_SIZE), (s8)value);
}

void x86_kasan_unpoison(const void *addr, size_t size)
{
	unsigned long a = (unsigned long)addr;

	if (!size || !shadow_writable(a, size))
		return;
	WARN_ON_ONCE(!IS_ALIGNED(a, KASAN_GRANULE_SIZE));
	shadow_fill(a, size / KASAN_GRANULE_SIZE, 0);
	if (size % KASAN_GRANULE_SIZE)
		*shadow(a + size) = (s8)(size % KASAN_GRANULE_SIZE);
}

const void *x86_kasan_first_bad(const void *addr, size_t size)
{
	unsigned long a = (unsigned long)addr, end = a + size;
	s8 s;

	if (!size || a < KERNEL_HALF_START)
		return NULL;
	if (size == 1) {	/* a free's double-free check */
		s = *shadow(a);
		return s && (s8)(a & (KASAN_GRANULE_SIZE - 1)) >= s ? addr : NULL;
	}
	while (a < end) {
		unsigned long g = ALIGN_DOWN(a, KASAN_GRANULE_SIZE);

		/* 64 valid bytes (8 shadow bytes of 0) at a time. */
		if (IS_ALIGNED(a, 64) && end - a >= 64 && !*(u64 *)shadow(a)) {
			a += 64;
			continue;
		}
		s = *shadow(a);
		if (s) {
			if (s < 0 || (long)(a - g) >= s)
				return (const void *)a;
			if (g + s < end)
				return (const void *)(g + s);
		}
		a = g + KASAN_GRANULE_SIZE;
	}
	return NULL;
}

/* --- reports -------------------------------------------------------------- */

/* The vmalloc shadow's pages and tables, from the page allocator. */
unsigned long x86_kasan_shadow_pages(void)
{
	return __atomic_load_n(&shadow_vmalloc_pages, __ATOMIC_RELAXED);
}

void x86_kasan_expect_reports(bool on)
{
	WRITE_ONCE(reports_expected, on);
}

void x86_kasan_report(unsigned long addr, size_t size, bool is_write,
		      unsigned long ip)
{
	unsigned int cpu = arch_cpu_id();
	bool expected = READ_ONCE(reports_expected);

	if (report_depth[cpu])
		return;		/* the report's own accesses */
	if (!kasan_report_enabled(expected))
		return;		/* single shot: the first report only */
	report_depth[cpu]++;
	kasan_report(addr, size, is_write, ip);
	if (kasan_report_panics(expected))
		panic("KASAN: panic_on_warn set");
	report_depth[cpu]--;
}

#define SHADOW_ROW	16	/* shadow bytes a line of the dump */
#define SHADOW_ROW_SPAN	(SHADOW_ROW * KASAN_GRANULE_SIZE)

/* Linux's "Memory state around the buggy address": 5 lines of shadow. */
void x86_kasan_print_shadow(unsigned long addr)
{
	unsigned long here = ALIGN_DOWN(addr, SHADOW_ROW_SPAN);
	unsigned long row = here - 2 * SHADOW_ROW_SPAN;

	if (addr < KERNEL_HALF_START + 2 * SHADOW_ROW_SPAN)
		return;
	pr_err("Memory state around the buggy address:\n");
	for (int i = 0; i < 5; i++, row += SHADOW_ROW_SPAN) {
		const u8 *s = (const u8 *)shadow(row);
		char line[SHADOW_ROW * 3 + 1];
		int n = 0;

		for (int j = 0; j < SHADOW_ROW; j++)
			n += scnprintf(line + n, sizeof(line) - n, " %02x", s[j]);
		pr_err("%c%px:%s\n", row == here ? '>' : ' ', (void *)row, line);
		/* '^' under the first digit of addr's byte: after "%c%px:". */
		if (row == here)
			pr_err("%*c\n", (int)(1 + 16 + 1 + 3 *
				((addr - here) / KASAN_GRANULE_SIZE) + 2), '^');
	}
}

/*
 * An inline check of a pointer below the kernel half reads a
 * non-canonical shadow address and takes a #GP: say so (Linux's
 * kasan_non_canonical_hook()). A register that holds the shadow address
 * itself names the pointer's granule; one that holds only the shadow's
 * base (the check's other register was the pointer >> 3) does not.
 */
void x86_kasan_gp_hint(const struct pt_regs *regs)
{
	const unsigned long vals[] = {
		regs->rax, regs->rbx, regs->rcx, regs->rdx, regs->rsi,
		regs->rdi, regs->rbp, regs->r8, regs->r9, regs->r10,
		regs->r11, regs->r12, regs->r13, regs->r14, regs->r15,
	};
	unsigned long lo = KASAN_SHADOW_OFFSET;
	unsigned long hi = (unsigned long)shadow(KERNEL_HALF_START);
	bool base = false;

	for (unsigned int i = 0; i < ARRAY_SIZE(vals); i++) {
		unsigned long addr = (vals[i] - lo) << KASAN_SHADOW_SCALE_SHIFT;
		const char *what = "probably wild-memory-access";

		base |= vals[i] == lo;
		if (vals[i] <= lo || vals[i] >= hi)
			continue;
		if (addr < PAGE_SIZE)
			what = "null-ptr-deref";
		else if (addr < (1UL << 47))
			what = "user-memory-access";
		pr_emerg("KASAN: %s in range [%016lx-%016lx]\n", what, addr,
			 addr + KASAN_GRANULE_SIZE - 1);
		return;
	}
	if (base)
		pr_emerg("KASAN: maybe null-ptr-deref or wild-memory-access: a check read the shadow of a pointer below the kernel half\n");
}

/* --- the compiler's checks -------------------------------------------------- */

static __always_inline bool byte_bad(unsigned long addr)
{
	s8 s = *shadow(addr);

	return unlikely(s) && (s8)(addr & (KASAN_GRANULE_SIZE - 1)) >= s;
}

/* An access of 1, 2, 4 or 8 bytes: at most two granules. */
static __always_inline bool small_bad(unsigned long addr, size_t size)
{
	unsigned long last = addr + size - 1;

	if ((last & (KASAN_GRANULE_SIZE - 1)) < size - 1)	/* crosses */
		return *shadow(addr) || byte_bad(last);
	return byte_bad(last);
}

static __always_inline void check(unsigned long addr, size_t size, bool write,
				  unsigned long ip)
{
	bool bad;

	if (unlikely(addr < KERNEL_HALF_START))
		return;		/* left to the page fault */
	if (size <= 8 && is_power_of_2(size))
		bad = small_bad(addr, size);
	else
		bad = x86_kasan_first_bad((const void *)addr, size);
	if (unlikely(bad))
		x86_kasan_report(addr, size, write, ip);
}

#define DEFINE_ASAN_CHECKS(size)						\
	void __asan_load##size##_noabort(unsigned long addr);			\
	void __asan_load##size##_noabort(unsigned long addr)			\
	{									\
		check(addr, size, false, _RET_IP_);				\
	}									\
	void __asan_store##size##_noabort(unsigned long addr);		\
	void __asan_store##size##_noabort(unsigned long addr)			\
	{									\
		check(addr, size, true, _RET_IP_);				\
	}									\
	void __asan_report_load##size##_noabort(unsigned long addr);		\
	void __asan_report_load##size##_noabort(unsigned long addr)		\
	{									\
		x86_kasan_report(addr, size, false, _RET_IP_);			\
	}									\
	void __asan_report_store##size##_noabort(unsigned long addr);		\
	void __asan_report_store##size##_noabort(unsigned long addr)		\
	{									\
		x86_kasan_report(addr, size, true, _RET_IP_);			\
	}

DEFINE_ASAN_CHECKS(1)
DEFINE_ASAN_CHECKS(2)
DEFINE_ASAN_CHECKS(4)
DEFINE_ASAN_CHECKS(8)
DEFINE_ASAN_CHECKS(16)

void __asan_loadN_noabort(unsigned long addr, size_t size);
void __asan_loadN_noabort(unsigned long addr, size_t size)
{
	check(addr, size, false, _RET_IP_);
}

void __asan_storeN_noabort(unsigned long addr, size_t size);
void __asan_storeN_noabort(unsigned long addr, size_t size)
{
	check(addr, size, true, _RET_IP_);
}

void __asan_report_load_n_noabort(unsigned long addr, size_t size);
void __asan_report_load_n_noabort(unsigned long addr, size_t size)
{
	x86_kasan_report(addr, size, false, _RET_IP_);
}

void __asan_report_store_n_noabort(unsigned long addr, size_t size);
void __asan_report_store_n_noabort(unsigned long addr, size_t size)
{
	x86_kasan_report(addr, size, true, _RET_IP_);
}

/* No stack redzones (asan-stack=0): nothing to unpoison before noreturn. */
void __asan_handle_no_return(void);
void __asan_handle_no_return(void)
{
}

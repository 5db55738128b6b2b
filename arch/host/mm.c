// SPDX-License-Identifier: GPL-2.0
/*
 * "Physical memory" for the host build.
 *
 * RAM is a memfd: physical address p is byte p of the file. The direct map
 * is one shared mapping of the whole file (page_offset_base is wherever
 * mmap puts it), and mem_map pages are file pages allocated from memblock
 * like on the machine, mapped a second time into a reserved PROT_NONE
 * range at vmemmap. So the generic mm code sees the same picture as on
 * x86_64: RAM reached at page_offset_base + p, struct pages backed only
 * for RAM, and the backing taken out of RAM.
 *
 * The firmware map is QEMU's for the same amount of RAM: 128 MiB unless
 * the environment variable CRAM_HOST_MEM says otherwise (e.g. 512M). The
 * malloc shim (bench/shim/) sets host_default_mem to its own default
 * before boot: it cannot edit the environment of the program it runs in.
 *
 * KFENCE's pool (mm/kfence.c) is a mapping of its own at a fixed
 * address (asm/kfence.h), made PROT_NONE and accessible again page by
 * page, and its faults go to kfence_handle_page_fault() first: it
 * reports, the page is made accessible, and returning from the handler
 * retries the access.
 *
 * debug_pagealloc: a free page's part of the direct map is made
 * PROT_NONE with mprotect() and PROT_READ|PROT_WRITE again when it is
 * handed out (ASan never looks at this memory itself: it is no heap of
 * its, and its shadow stays untouched). Whether a page is accessible is
 * asked of the host kernel, by writing one byte from it into a pipe
 * (EFAULT if not). A SIGSEGV handler reports a fault on such a page as
 * the machine would, and hands any other fault back to the handler that
 * was there before (ASan's, or the default).
 *
 * The vmalloc window (arch/pgtable.h) is a PROT_NONE reservation of
 * host_vmalloc_size (HOST_VMALLOC_SIZE; the malloc shim takes less, and
 * under valgrind, which has no room for 64 GiB, it is cut down). Mapping
 * a page there maps the page's part of the memfd (MAP_SHARED|MAP_FIXED
 * at its offset) with the protection asked (uncached means nothing
 * here); a refused mmap() (past vm.max_map_count) is -ENOMEM, and
 * arch_fail_kernel_map() has one refused for the tests. Unmapping puts
 * PROT_NONE anonymous memory back. What is mapped is recorded in a software page table of
 * x86_64's shape below a root of HOST_VMALLOC_SIZE / 1 GiB entries:
 * table pages of 512 entries from the page allocator, freed when empty,
 * which the walk reads. The host's TLB is its kernel's business: mmap()
 * is coherent on every thread at once, so the flushes do nothing. A
 * fault in the window is reported as on x86_64, naming the vmalloc area
 * (mm/vmalloc.c); arch_probe_kernel_access() recovers from its fault by
 * siglongjmp().
 *
 * The kernel's read-only data (arch_is_kernel_rodata) is what the host's
 * dynamic loader reports for the ELF object that holds this code (the
 * program, or the malloc shim's library): its load segments that are
 * readable and neither writable nor executable, which hold .rodata with
 * the string literals (and other read-only sections). setup_arch()
 * records them with dl_iterate_phdr(), once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "arch/arch.h"
#include "arch/pgtable.h"
#include "asm/host_mm.h"
#include "kernel/cpumask.h"
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/spinlock.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/report.h"
#include "arch/x86_64/e820.h"
#include "mm/gfp.h"
#include "mm/memblock.h"
#include "mm/numa.h"
#include "mm/mm.h"
#include "mm/kfence.h"
#include "mm/page_debug.h"
#include "mm/vmalloc.h"

#define DEFAULT_HOST_MEM	(128UL << 20)
#define MAX_HOST_MEM		(3UL << 30)	/* below the PCI hole, as QEMU -M pc */
#define MAX_VMEMMAP_PAGES	((MAX_HOST_MEM >> PAGE_SHIFT) * sizeof(struct page) / PAGE_SIZE)

unsigned long host_default_mem = DEFAULT_HOST_MEM;
static int ram_fd = -1;
static unsigned long ram_end;
static unsigned char vmemmap_populated[MAX_VMEMMAP_PAGES / 8];
static u32 vmemmap_pfn[MAX_VMEMMAP_PAGES];	/* what backs each page */
#define BACKED_SHIFT		16	/* RAM is backed 64 KiB at a time */
static unsigned long ram_backed[(MAX_HOST_MEM >> BACKED_SHIFT) / BITS_PER_LONG];
static int probe_pipe[2] = { -1, -1 };
static struct sigaction old_segv;

#define HOST_VMALLOC_SIZE	(64UL << 30)
#define PTRS_PER_TABLE		512
#define VM_ROOT_ENTRIES		(HOST_VMALLOC_SIZE >> 30)
#define SWPTE_PRESENT		1UL

unsigned long vmalloc_base;
unsigned long vmalloc_size;
unsigned long host_vmalloc_size = HOST_VMALLOC_SIZE;
static u64 *vm_root[VM_ROOT_ENTRIES];	/* -> PMD tables -> PTE tables */
static DEFINE_SPINLOCK(pgtable_lock);
static unsigned long window_tables;

/* arch_probe_kernel_access() on this thread: where to go back to. */
static __thread sigjmp_buf *probe_jmp;
static __thread unsigned long probe_addr;

static unsigned long host_mem_size(void)
{
	const char *env = getenv("CRAM_HOST_MEM");
	unsigned long size = env ? (unsigned long)memparse(env, NULL) : 0;

	if (!size)
		return host_default_mem;
	if (size < SZ_4M || size > MAX_HOST_MEM) {
		fprintf(stderr, "host: CRAM_HOST_MEM=%s out of range (4M..3G)\n", env);
		exit(2);
	}
	return size;
}

void e820__memory_setup_firmware(struct e820_table *t)
{
	unsigned long size = host_mem_size();

	e820__range_add(t, 0, 0x9fc00, E820_TYPE_RAM);
	e820__range_add(t, 0x9fc00, 0x400, E820_TYPE_RESERVED);
	e820__range_add(t, 0xf0000, 0x10000, E820_TYPE_RESERVED);
	e820__range_add(t, SZ_1M, size - SZ_1M - 0x20000, E820_TYPE_RAM);
	e820__range_add(t, size - 0x20000, 0x20000, E820_TYPE_RESERVED);
	e820__range_add(t, 0xfffc0000, 0x40000, E820_TYPE_RESERVED);
}

static void *map_or_die(void *addr, size_t len, int prot, int flags, off_t off)
{
	void *p = mmap(addr, len, prot, flags, flags & MAP_ANONYMOUS ? -1 : ram_fd,
		       off);

	if (p == MAP_FAILED) {
		perror("host: mmap");
		exit(2);
	}
	return p;
}

/* --- debug_pagealloc ------------------------------------------------ */

static void print_fault(unsigned long addr, const ucontext_t *uc,
			const char *what)
{
	unsigned long err = (unsigned long)uc->uc_mcontext.gregs[REG_ERR];

	pr_emerg("BUG: unable to handle page fault for address: %016lx (%s)\n",
		 addr, what);
	pr_emerg("#PF: %s access in kernel mode\n",
		 err & 0x10 ? "instruction fetch" : err & 2 ? "write" : "read");
}

/*
 * A fault on a page debug_pagealloc unmapped, or in the vmalloc window:
 * report it like x86_64 does. Any other goes to the handler before ours.
 */
static void segv_handler(int sig, siginfo_t *info, void *ctx)
{
	const ucontext_t *uc = ctx;
	unsigned long addr = (unsigned long)info->si_addr, pfn;
	unsigned long ip = (unsigned long)uc->uc_mcontext.gregs[REG_RIP];
	char what[160];

	(void)sig;
	if (kfence_handle_page_fault(addr,
				     uc->uc_mcontext.gregs[REG_ERR] & 0x2, ip,
				     (unsigned long)uc->uc_mcontext.gregs[REG_RBP]))
		return;		/* reported, made accessible: retried */
	if (debug_pagealloc_fault(addr, &pfn)) {
		snprintf(what, sizeof(what), "debug_pagealloc: pfn 0x%lx is free", pfn);
	} else if (!vmalloc_fault_describe(addr, what, sizeof(what))) {
		sigaction(SIGSEGV, &old_segv, NULL);	/* not ours: fault again */
		return;
	}
	if (probe_jmp && addr == probe_addr) {
		report_kind(REPORT_PAGE_FAULT);
		print_fault(addr, uc, what);
		pr_emerg("probe: the fault was expected, resuming\n");
		siglongjmp(*probe_jmp, 1);
	}
	printk_bust_lock();
	print_fault(addr, uc, what);
	pr_emerg("RIP: %pS\n", (void *)ip);
	show_stack(ip, (unsigned long)uc->uc_mcontext.gregs[REG_RBP]);
	pr_emerg("---[ end trace: fatal page fault ]---\n");
	arch_exit(ARCH_EXIT_FAILURE);
}

static void segv_handler_init(void)
{
	struct sigaction sa = { .sa_sigaction = segv_handler,
				.sa_flags = SA_SIGINFO | SA_NODEFER };

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, &old_segv)) {
		perror("host: sigaction");
		exit(2);
	}
}

static void debug_pagealloc_init(void)
{
	if (sysconf(_SC_PAGESIZE) != (long)PAGE_SIZE)
		panic("host: debug_pagealloc needs %lu-byte host pages", PAGE_SIZE);
	if (pipe2(probe_pipe, O_NONBLOCK | O_CLOEXEC)) {
		perror("host: pipe");
		exit(2);
	}
}

void arch_kernel_map_pages(struct page *page, int numpages, bool enable)
{
	if (mprotect(page_address(page), (size_t)numpages * PAGE_SIZE,
		     enable ? PROT_READ | PROT_WRITE : PROT_NONE))
		panic("host: mprotect of pfn %#lx (+%d pages) failed: errno %d",
		      page_to_pfn(page), numpages, errno);
}

/*
 * KFENCE's pool at its fixed address (asm/kfence.h), an anonymous mapping
 * of its own; false if something is there already (a program the malloc
 * shim runs in may have put anything anywhere) or host pages are not
 * 4 KiB.
 */
bool arch_kfence_init_pool(unsigned long addr, unsigned long size)
{
	void *p;

	if (sysconf(_SC_PAGESIZE) != (long)PAGE_SIZE)
		return false;
	p = mmap((void *)addr, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED)
		return false;
	if (p != (void *)addr) {	/* a kernel without MAP_FIXED_NOREPLACE */
		munmap(p, size);
		return false;
	}
	return true;
}

void arch_kfence_protect_page(unsigned long addr, bool protect)
{
	if (mprotect((void *)addr, PAGE_SIZE,
		     protect ? PROT_NONE : PROT_READ | PROT_WRITE))
		panic("host: mprotect of KFENCE's page %#lx failed: errno %d",
		      addr, errno);
}

/* Only the direct map of RAM is ever unmapped; anything else: false. */
bool arch_kernel_page_present(unsigned long virt)
{
	char c;

	if (virt < page_offset_base || virt - page_offset_base >= ram_end)
		return false;
	if (probe_pipe[1] < 0)
		return true;	/* debug_pagealloc off: all RAM is mapped */
	if (write(probe_pipe[1], (const void *)virt, 1) != 1)
		return false;	/* EFAULT */
	return read(probe_pipe[0], &c, 1) == 1 || true;	/* drained */
}

/*
 * The direct map at a 1 GiB boundary, as on x86_64: a block of 2^n pages
 * is then naturally aligned in virtual memory too, which kmalloc's
 * power-of-two sizes promise (the malloc shim's aligned allocations rely
 * on it). Reserve the size plus 1 GiB, map RAM over the aligned part,
 * give the rest back.
 */
static unsigned long map_aligned(unsigned long size)
{
	unsigned long res = (unsigned long)map_or_die(NULL, size + SZ_1G, PROT_NONE,
						      MAP_PRIVATE | MAP_ANONYMOUS |
						      MAP_NORESERVE, 0);
	unsigned long base = ALIGN(res, SZ_1G);

	map_or_die((void *)base, size, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_FIXED, 0);
	if (base > res)
		munmap((void *)res, base - res);
	munmap((void *)(base + size), res + SZ_1G - base);
	return base;
}

#define MAX_RODATA_RANGES	4

static struct { unsigned long start, end; } rodata_ranges[MAX_RODATA_RANGES];
static unsigned int nr_rodata_ranges;

/* The object whose executable segment holds this function: keep its rodata. */
static int find_rodata(struct dl_phdr_info *info, size_t size, void *data)
{
	unsigned long self = (unsigned long)&arch_is_kernel_rodata;
	bool ours = false;

	(void)size;
	(void)data;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const Elf64_Phdr *ph = &info->dlpi_phdr[i];
		unsigned long start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) &&
		    self >= start && self < start + ph->p_memsz)
			ours = true;
	}
	if (!ours)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const Elf64_Phdr *ph = &info->dlpi_phdr[i];
		unsigned long start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD || (ph->p_flags & (PF_W | PF_X)) ||
		    !(ph->p_flags & PF_R) ||
		    nr_rodata_ranges == MAX_RODATA_RANGES)
			continue;
		rodata_ranges[nr_rodata_ranges].start = start;
		rodata_ranges[nr_rodata_ranges].end = start + ph->p_memsz;
		nr_rodata_ranges++;
	}
	return 1;
}

bool arch_is_kernel_rodata(unsigned long addr)
{
	for (unsigned int i = 0; i < READ_ONCE(nr_rodata_ranges); i++) {
		if (addr >= rodata_ranges[i].start && addr < rodata_ranges[i].end)
			return true;
	}
	return false;
}

/*
 * The vmalloc window: host_vmalloc_size of address space (at most
 * HOST_VMALLOC_SIZE), or the largest power-of-two part of it (at least
 * 1 GiB) the host grants: valgrind's address space is smaller than 64 GiB.
 */
static void reserve_vmalloc_window(void)
{
	size_t want = min(host_vmalloc_size, HOST_VMALLOC_SIZE);

	for (size_t size = want; size >= SZ_1G; size /= 2) {
		void *p = mmap(NULL, size, PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

		if (p != MAP_FAILED) {
			vmalloc_base = (unsigned long)p;
			vmalloc_size = size;
			if (size < want)
				pr_info("host: vmalloc window cut to %zu MiB\n",
					size >> 20);
			return;
		}
	}
	perror("host: mmap of the vmalloc window");
	exit(2);
}

/*
 * No firmware tables: one node, or numa=fake=N's. The CPUs' hardware
 * IDs are their numbers.
 */
static void host_numa_init(void)
{
	u32 ids[NR_CPUS];

	for (unsigned int i = 0; i < NR_CPUS; i++)
		ids[i] = i;
	numa_init(NULL, NULL, ids, nr_cpu_ids);
}

void setup_arch(void)
{
	phys_addr_t end = memblock_end_of_DRAM();
	size_t vmemmap_size = PAGE_ALIGN(PFN_UP(end) * sizeof(struct page));

	if (end > MAX_HOST_MEM)
		panic("host: RAM ends at %#lx, beyond the %#lx the host supports",
		      (unsigned long)end, MAX_HOST_MEM);
	ram_fd = memfd_create("cram-ram", 0);
	if (ram_fd < 0 || ftruncate(ram_fd, (off_t)end)) {
		perror("host: memfd");
		exit(2);
	}
	page_offset_base = map_aligned(end);
	vmemmap = map_or_die(NULL, vmemmap_size, PROT_NONE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, 0);
	ram_end = end;
	memblock_set_current_limit(end);
	memblock_allow_resize();	/* all RAM is mapped now */
	if (!nr_rodata_ranges)
		dl_iterate_phdr(find_rodata, NULL);
	if (!nr_rodata_ranges)
		pr_warn("host: no read-only segment holds the kernel's rodata\n");
	reserve_vmalloc_window();
	host_numa_init();
	if (debug_pagealloc_enabled())
		debug_pagealloc_init();
	segv_handler_init();
}

/*
 * The host gives this process the memfd's pages on first touch, a page
 * fault each: about 10 us on a machine under a hypervisor, against under
 * 1 us a page for MADV_POPULATE_WRITE. A block leaving the buddy lists
 * is about to be touched, so the 64 KiB pieces of RAM it lies in are
 * backed there and then, one madvise() each, once (ram_backed). Should
 * that fail (a host kernel before 5.14, a page debug_pagealloc took out
 * of the direct map), or a forked child map its RAM anew, the pages
 * fault in one by one as they would have. Two CPUs racing for one piece
 * both back it: harmless. The test of the pieces' bits is all a block
 * of RAM backed already costs; the madvise() calls are out of line.
 */
static bool ram_piece_backed(unsigned long i)
{
	return __atomic_load_n(&ram_backed[i / BITS_PER_LONG],
			       __ATOMIC_RELAXED) & (1UL << (i % BITS_PER_LONG));
}

/* Back the pieces first to last of RAM that are not yet. */
static __noinline void back_ram_pieces(unsigned long first,
				       unsigned long last)
{
	for (unsigned long i = first; i <= last; i++) {
		phys_addr_t phys = (phys_addr_t)i << BACKED_SHIFT;

		if (ram_piece_backed(i))
			continue;
		madvise((void *)(page_offset_base + phys),
			min(1UL << BACKED_SHIFT, ram_end - phys),
			MADV_POPULATE_WRITE);
		__atomic_fetch_or(&ram_backed[i / BITS_PER_LONG],
				  1UL << (i % BITS_PER_LONG), __ATOMIC_RELAXED);
	}
}

void arch_alloc_page(struct page *page, unsigned int order)
{
	phys_addr_t start = PFN_PHYS(page_to_pfn(page));
	unsigned long first = start >> BACKED_SHIFT;
	unsigned long last = (start + (PAGE_SIZE << order) - 1) >> BACKED_SHIFT;

	for (unsigned long i = first; i <= last; i++) {
		if (!ram_piece_backed(i)) {
			back_ram_pieces(i, last);
			return;
		}
	}
}

/* Is page i of mem_map's virtual range backed? */
static bool vmemmap_backed(unsigned long i)
{
	return vmemmap_populated[i / 8] & (1U << (i % 8));
}

static bool vmemmap_page_populated(unsigned long va)
{
	return vmemmap_backed((va - (unsigned long)vmemmap) >> PAGE_SHIFT);
}

/* Back [va, va + size) of mem_map with the RAM at phys: one mapping. */
static void vmemmap_map(unsigned long va, unsigned long size, phys_addr_t phys)
{
	map_or_die((void *)va, size, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_FIXED, (off_t)phys);
	for (unsigned long off = 0; off < size; off += PAGE_SIZE) {
		unsigned long i = (va + off - (unsigned long)vmemmap) >> PAGE_SHIFT;

		vmemmap_populated[i / 8] |= 1U << (i % 8);
		vmemmap_pfn[i] = (u32)PHYS_PFN(phys + off);
	}
}

/*
 * Whole 2 MiB blocks of mem_map inside [start, end) get one 2 MiB piece
 * of RAM and one mmap (as x86_64 Linux maps vmemmap with PMDs); the
 * rest, a run of unbacked pages up to the next 2 MiB boundary, one
 * piece of as many pages: a 1 GiB arena takes a dozen mappings, not
 * 4096, and no more RAM than page by page.
 */
unsigned long vmemmap_populate(unsigned long start, unsigned long end, int nid)
{
	unsigned long bytes = 0, va = ALIGN_DOWN(start, PAGE_SIZE);

	while (va < end) {
		unsigned long size = PAGE_SIZE, limit;
		phys_addr_t phys;

		if (vmemmap_page_populated(va)) {
			va += PAGE_SIZE;
			continue;
		}
		if (IS_ALIGNED(va, SZ_2M) && va + SZ_2M <= end) {
			phys = memblock_alloc_pages_nid_named(
				SZ_2M >> PAGE_SHIFT, SZ_2M, nid, "mem_map");
			if (phys) {
				vmemmap_map(va, SZ_2M, phys);
				bytes += SZ_2M;
				va += SZ_2M;
				continue;
			}
		}
		limit = min(PAGE_ALIGN(end), ALIGN(va + 1, SZ_2M));
		while (va + size < limit && !vmemmap_page_populated(va + size))
			size += PAGE_SIZE;
		phys = memblock_alloc_pages_nid_named(size >> PAGE_SHIFT,
						      PAGE_SIZE, nid, "mem_map");
		if (!phys)
			panic("host: out of memory for mem_map");
		vmemmap_map(va, size, phys);
		bytes += size;
		va += size;
	}
	return bytes;
}

/* --- fork ---------------------------------------------------------------- */

/* Copy the data ranges of the memfd old to fd (holes stay holes). */
static void copy_ram(int fd, int old)
{
	off_t off = 0, end;

	while ((off = lseek(old, off, SEEK_DATA)) >= 0 && (unsigned long)off < ram_end) {
		end = lseek(old, off, SEEK_HOLE);
		if (end < 0 || (unsigned long)end > ram_end)
			end = (off_t)ram_end;
		while (off < end) {
			ssize_t n = pwrite(fd, (void *)(page_offset_base + off),
					   (size_t)(end - off), off);

			if (n <= 0) {
				perror("host: copying RAM");
				exit(2);
			}
			off += n;
		}
	}
}

/* mem_map again over fd, in runs of contiguous backing. */
static void remap_vmemmap(void)
{
	unsigned long i = 0, n = MAX_VMEMMAP_PAGES;

	while (i < n) {
		unsigned long run = 1;

		if (!vmemmap_backed(i)) {
			i++;
			continue;
		}
		while (i + run < n && vmemmap_backed(i + run) &&
		       vmemmap_pfn[i + run] == vmemmap_pfn[i] + run)
			run++;
		map_or_die((char *)vmemmap + (i << PAGE_SHIFT), run << PAGE_SHIFT,
			   PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
			   (off_t)PFN_PHYS(vmemmap_pfn[i]));
		i += run;
	}
}

static int host_prot(pgprot_t prot);

/* The vmalloc window's pages again over fd, from the software tables. */
static void remap_window(void)
{
	for (unsigned long r = 0; r < VM_ROOT_ENTRIES; r++) {
		for (unsigned long p = 0; vm_root[r] && p < PTRS_PER_TABLE; p++) {
			const u64 *ptes = (const u64 *)vm_root[r][p];

			for (unsigned long e = 0; ptes && e < PTRS_PER_TABLE; e++) {
				unsigned long addr = vmalloc_base + (r << 30) +
						     (p << 21) + (e << PAGE_SHIFT);
				u64 pte = ptes[e];

				if (!(pte & SWPTE_PRESENT))
					continue;
				map_or_die((void *)addr, PAGE_SIZE,
					   host_prot(__pgprot((unsigned int)(pte >> 1) &
							      _PAGE_KERNEL_MASK)),
					   MAP_SHARED | MAP_FIXED,
					   (off_t)(pte & PAGE_MASK));
			}
		}
	}
}

/*
 * After fork() the child's mappings of RAM are MAP_SHARED mappings of
 * the parent's memfd: what either writes, the other sees. The malloc
 * shim calls this in the child (pthread_atfork): a new memfd gets a copy
 * of the data, and the direct map, mem_map and the vmalloc window's
 * pages move to it at the same offsets. It costs a copy of the RAM in
 * use. debug_pagealloc's protections are not carried over.
 */
void host_ram_unshare(void)
{
	int fd = memfd_create("cram-ram", 0), old = ram_fd;

	if (fd < 0 || ftruncate(fd, (off_t)ram_end)) {
		perror("host: memfd");
		exit(2);
	}
	copy_ram(fd, old);
	ram_fd = fd;
	map_or_die((void *)page_offset_base, ram_end, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_FIXED, 0);
	remap_vmemmap();
	remap_window();
	close(old);
}

/* --- the kernel page-table API (arch/pgtable.h) ------------------------ */

static bool in_window(unsigned long addr, unsigned long size)
{
	return IS_ALIGNED(addr | size, PAGE_SIZE) && addr >= vmalloc_base &&
	       size <= vmalloc_size && addr - vmalloc_base <= vmalloc_size - size;
}

static int host_prot(pgprot_t prot)
{
	return PROT_READ | (pgprot_val(prot) & _PAGE_KERNEL_WRITE ? PROT_WRITE : 0) |
	       (pgprot_val(prot) & _PAGE_KERNEL_EXEC ? PROT_EXEC : 0);
}

static unsigned long pmd_index(unsigned long addr)
{
	return ((addr - vmalloc_base) >> 21) % PTRS_PER_TABLE;
}

static unsigned long pte_index(unsigned long addr)
{
	return ((addr - vmalloc_base) >> PAGE_SHIFT) % PTRS_PER_TABLE;
}

static u64 **root_entry(unsigned long addr)
{
	return &vm_root[(addr - vmalloc_base) >> 30];
}

static u64 *alloc_window_table(void)
{
	struct page *page = alloc_page(GFP_ATOMIC | __GFP_ZERO | __GFP_NOWARN);

	if (!page)
		return NULL;
	window_tables++;
	return page_address(page);
}

static void free_window_table(u64 *table)
{
	window_tables--;
	__free_page(virt_to_page(table));
}

static bool table_empty(const u64 *table)
{
	for (int i = 0; i < PTRS_PER_TABLE; i++) {
		if (table[i])
			return false;
	}
	return true;
}

/* The software PTE of addr; NULL if a table is missing and !create. */
static u64 *sw_pte(unsigned long addr, bool create)
{
	u64 **pmd = root_entry(addr), *pte_table;

	if (!*pmd) {
		if (!create)
			return NULL;
		*pmd = alloc_window_table();
		if (!*pmd)
			return NULL;
	}
	pte_table = (u64 *)(*pmd)[pmd_index(addr)];
	if (!pte_table) {
		if (!create)
			return NULL;
		pte_table = alloc_window_table();
		if (!pte_table)
			return NULL;
		(*pmd)[pmd_index(addr)] = (u64)pte_table;
	}
	return &pte_table[pte_index(addr)];
}

/* Clear the PTEs of [addr, end) (within one PTE table), free empty tables. */
static void unmap_pte_table(unsigned long addr, unsigned long end)
{
	u64 **pmd = root_entry(addr), *pte_table;

	if (!*pmd)
		return;
	pte_table = (u64 *)(*pmd)[pmd_index(addr)];
	if (!pte_table)
		return;
	for (; addr < end; addr += PAGE_SIZE)
		pte_table[pte_index(addr)] = 0;
	if (!table_empty(pte_table))
		return;
	(*pmd)[pmd_index(addr - PAGE_SIZE)] = 0;
	free_window_table(pte_table);
	if (table_empty(*pmd)) {
		free_window_table(*pmd);
		*pmd = NULL;
	}
}

/* arch_fail_kernel_map(): mappings to let through before one fails. */
static unsigned int map_fail_countdown;

int arch_fail_kernel_map(unsigned int nth)
{
	WRITE_ONCE(map_fail_countdown, nth);
	return 0;
}

/* Is this the mapping arch_fail_kernel_map() chose? pgtable_lock held. */
static bool map_fail_due(void)
{
	if (!map_fail_countdown)
		return false;
	return --map_fail_countdown == 0;
}

/*
 * mmap() the RAM page at phys over the window's page at addr: 0, or
 * -ENOMEM if the host refuses (past vm.max_map_count each page mapped
 * apart is one mapping too many). Linux checks the count before it
 * touches the old mapping, so the page stays PROT_NONE.
 */
static int mmap_window_page(unsigned long addr, phys_addr_t phys, int prot)
{
	void *p = MAP_FAILED;

	if (map_fail_due())
		errno = ENOMEM;
	else
		p = mmap((void *)addr, PAGE_SIZE, prot, MAP_SHARED | MAP_FIXED,
			 ram_fd, (off_t)phys);
	if (p != MAP_FAILED)
		return 0;
	pr_warn("host: mmap of vmalloc page %#lx failed: errno %d (vm.max_map_count?)\n",
		addr, errno);
	return -ENOMEM;
}

int arch_map_kernel_page(unsigned long addr, unsigned long pfn, pgprot_t prot)
{
	unsigned long flags;
	u64 *pte;
	int ret = 0;

	if (!in_window(addr, PAGE_SIZE) || pgprot_val(prot) & ~_PAGE_KERNEL_MASK ||
	    PFN_PHYS(pfn) >= ram_end)
		return -EINVAL;
	spin_lock_irqsave(&pgtable_lock, flags);
	pte = sw_pte(addr, true);
	if (!pte) {
		ret = -ENOMEM;
	} else if (*pte) {
		ret = -EEXIST;
	} else {
		ret = mmap_window_page(addr, PFN_PHYS(pfn), host_prot(prot));
		if (!ret)
			*pte = PFN_PHYS(pfn) | (u64)pgprot_val(prot) << 1 |
			       SWPTE_PRESENT;
		else	/* the tables made for it, if now empty */
			unmap_pte_table(addr, addr + PAGE_SIZE);
	}
	spin_unlock_irqrestore(&pgtable_lock, flags);
	return ret;
}

void arch_unmap_kernel_range(unsigned long addr, unsigned long size)
{
	unsigned long flags, end = addr + size;

	if (WARN_ON(!in_window(addr, size)) || !size)
		return;
	spin_lock_irqsave(&pgtable_lock, flags);
	map_or_die((void *)addr, size, PROT_NONE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, 0);
	while (addr < end) {
		unsigned long next = min(ALIGN_DOWN(addr, SZ_2M) + SZ_2M, end);

		unmap_pte_table(addr, next);
		addr = next;
	}
	spin_unlock_irqrestore(&pgtable_lock, flags);
}

/* A mapped software PTE at addr, or NULL. pgtable_lock held. */
static u64 *mapped_sw_pte(unsigned long addr)
{
	u64 *pte = sw_pte(addr, false);

	return pte && *pte ? pte : NULL;
}

static void set_sw_pte_prot(u64 *pte, pgprot_t prot)
{
	*pte = (*pte & PAGE_MASK) | (u64)pgprot_val(prot) << 1 | SWPTE_PRESENT;
}

int arch_protect_kernel_range(unsigned long addr, unsigned long size,
			      pgprot_t prot)
{
	unsigned long flags;
	int ret;

	if (!in_window(addr, size) || pgprot_val(prot) & ~_PAGE_KERNEL_MASK)
		return -EINVAL;
	spin_lock_irqsave(&pgtable_lock, flags);
	ret = protect_kernel_ptes(addr, size, prot, mapped_sw_pte,
				  set_sw_pte_prot);
	if (!ret && mprotect((void *)addr, size, host_prot(prot)))
		panic("host: mprotect of %#lx (+%#lx) failed: errno %d",
		      addr, size, errno);
	spin_unlock_irqrestore(&pgtable_lock, flags);
	return ret;
}

bool arch_lookup_kernel_page(unsigned long addr, unsigned long *pfn,
			     pgprot_t *prot)
{
	u64 *pte;

	if (addr >= page_offset_base && addr - page_offset_base < ram_end) {
		if (!arch_kernel_page_present(addr))
			return false;
		*pfn = PHYS_PFN(addr - page_offset_base);
		*prot = PAGE_KERNEL;
		return true;
	}
	if (vmemmap && addr >= (unsigned long)vmemmap &&
	    addr - (unsigned long)vmemmap < MAX_VMEMMAP_PAGES * PAGE_SIZE) {
		unsigned long i = (addr - (unsigned long)vmemmap) >> PAGE_SHIFT;

		if (!vmemmap_backed(i))
			return false;
		*pfn = vmemmap_pfn[i];
		*prot = PAGE_KERNEL;
		return true;
	}
	if (!vmalloc_size || addr < vmalloc_base || addr - vmalloc_base >= vmalloc_size)
		return false;
	pte = sw_pte(addr, false);
	if (!pte || !*pte)
		return false;
	*pfn = PHYS_PFN(*pte);
	*prot = __pgprot((unsigned int)(*pte >> 1) & _PAGE_KERNEL_MASK);
	return true;
}

void arch_flush_tlb_kernel_range(unsigned long start, unsigned long end)
{
}

unsigned long arch_tlb_full_flushes(void)
{
	return 0;
}

unsigned long arch_pgtable_pages(void)
{
	return READ_ONCE(window_tables);
}

void arch_take_freed_pgtables(struct list_head *pages)
{
}

/*
 * Not instrumented: the probe asks whether the page is mapped, not
 * whether KASAN would call the bytes valid (a freed page is neither).
 */
__no_sanitize_address
int arch_probe_kernel_access(unsigned long addr, enum probe_access kind)
{
	sigjmp_buf jb;

	if (sigsetjmp(jb, 1)) {
		probe_jmp = NULL;
		return -EFAULT;
	}
	probe_addr = addr;
	probe_jmp = &jb;
	__asm__ __volatile__("" : : : "memory");
	switch (kind) {
	case PROBE_READ:
		(void)READ_ONCE(*(u8 *)addr);
		break;
	case PROBE_WRITE:
		__atomic_fetch_or((u8 *)addr, 0, __ATOMIC_SEQ_CST);
		break;
	case PROBE_EXEC:
		((void (*)(void))addr)();
		break;
	}
	probe_jmp = NULL;
	return 0;
}

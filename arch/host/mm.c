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
 * the environment variable CRAM_HOST_MEM says otherwise (e.g. 512M).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "arch/arch.h"
#include "kernel/bug.h"
#include "kernel/params.h"
#include "mm/e820.h"
#include "mm/memblock.h"
#include "mm/mm.h"

#define DEFAULT_HOST_MEM	(128UL << 20)
#define MAX_HOST_MEM		(3UL << 30)	/* below the PCI hole, as QEMU -M pc */
#define MAX_VMEMMAP_PAGES	((MAX_HOST_MEM >> PAGE_SHIFT) * sizeof(struct page) / PAGE_SIZE)

static int ram_fd = -1;
static unsigned char vmemmap_populated[MAX_VMEMMAP_PAGES / 8];

static unsigned long host_mem_size(void)
{
	const char *env = getenv("CRAM_HOST_MEM");
	unsigned long size = env ? (unsigned long)memparse(env, NULL) : 0;

	if (!size)
		return DEFAULT_HOST_MEM;
	if (size < SZ_4M || size > MAX_HOST_MEM) {
		fprintf(stderr, "host: CRAM_HOST_MEM=%s out of range (4M..3G)\n", env);
		exit(2);
	}
	return size;
}

void arch_memory_map(struct e820_table *t)
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
	page_offset_base = (unsigned long)map_or_die(NULL, end,
						     PROT_READ | PROT_WRITE,
						     MAP_SHARED, 0);
	vmemmap = map_or_die(NULL, vmemmap_size, PROT_NONE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, 0);
	memblock_set_current_limit(end);
}

unsigned long vmemmap_populate(unsigned long start, unsigned long end)
{
	unsigned long bytes = 0;

	for (unsigned long va = ALIGN_DOWN(start, PAGE_SIZE); va < end;
	     va += PAGE_SIZE) {
		unsigned long i = (va - (unsigned long)vmemmap) >> PAGE_SHIFT;
		phys_addr_t phys;

		if (vmemmap_populated[i / 8] & (1U << (i % 8)))
			continue;
		phys = memblock_alloc_pages_named(1, "mem_map");
		if (!phys)
			panic("host: out of memory for mem_map");
		map_or_die((void *)va, PAGE_SIZE, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_FIXED, (off_t)phys);
		vmemmap_populated[i / 8] |= 1U << (i % 8);
		bytes += PAGE_SIZE;
	}
	return bytes;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the NUMA topology: the SRAT and SLIT parser
 * (arch/x86_64/srat.c) on synthetic firmware (tests/acpi_fw.h), and
 * numa_setup_topology() (mm/numa.c) on made-up RAM and CPUs: good tables,
 * every kind of bad one (each must leave one node with all RAM and every
 * CPU, and say why), numa=off and numa=fake=N. The numa_boot suite checks
 * the topology the kernel booted with against numa_expect=, which the
 * test harness passes with the NUMA nodes it gave QEMU (--numa).
 */
#include "arch/x86_64/srat.h"
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/params.h"
#include "kernel/cpumask.h"
#include "lib/ktest/ktest.h"
#include "lib/string.h"
#include "tests/acpi_fw.h"

#define SRAT_MAX	1024
#define RAM_REGIONS	8

static struct {
	u8 srat[SRAT_MAX];
	u32 srat_len;
	struct memblock ram;
	struct memblock_region ram_regions[RAM_REGIONS];
	struct memblock_region reserved_regions[1];
	u32 rsdp_len;
	u32 cpus[NR_CPUS];
	unsigned int nr_cpus;
	bool srat_read;			/* init_func was called */
	struct numa_topology out;
} nt;

static void nt_reset(void)
{
	memset(&nt, 0, sizeof(nt));
	acpi_fw_reset();
	memblock_instance_init(&nt.ram, nt.ram_regions, RAM_REGIONS,
			       nt.reserved_regions, 1);
	nt.srat_len = ACPI_SRAT_HDR_SIZE - ACPI_TABLE_HDR_SIZE;
	put32(nt.srat, 1);		/* table revision: 1, as Linux wants */
}

static void ram_add(u64 base, u64 size)
{
	BUG_ON(memblock_add_range(&nt.ram.memory, base, size));
}

/* A PC's RAM as QEMU lays it out: below 640 KiB, and from 1 MiB to end. */
static void ram_pc(u64 end)
{
	ram_add(0, 0x9fc00);
	ram_add(SZ_1M, end - SZ_1M);
}

static void cpus(unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		nt.cpus[i] = i;
	nt.nr_cpus = n;
}

/* --- SRAT and SLIT builders ------------------------------------------- */

static u8 *srat_entry(u8 type, u8 len)
{
	u8 *e = nt.srat + nt.srat_len;

	BUG_ON(nt.srat_len + len > SRAT_MAX);
	e[0] = type;
	e[1] = len;
	nt.srat_len += len;
	return e;
}

static void srat_lapic(u32 pxm, u8 apic_id, u32 flags)
{
	u8 *e = srat_entry(ACPI_SRAT_TYPE_CPU_AFFINITY, 16);

	e[2] = pxm;
	e[3] = apic_id;
	put32(e + 4, flags);
	e[9] = pxm >> 8;
	e[10] = pxm >> 16;
	e[11] = pxm >> 24;
}

static void srat_x2apic(u32 pxm, u32 apic_id, u32 flags)
{
	u8 *e = srat_entry(ACPI_SRAT_TYPE_X2APIC_CPU_AFFINITY, 24);

	put32(e + 4, pxm);
	put32(e + 8, apic_id);
	put32(e + 12, flags);
}

static void srat_mem(u32 pxm, u64 base, u64 len, u32 flags)
{
	u8 *e = srat_entry(ACPI_SRAT_TYPE_MEMORY_AFFINITY, 40);

	put32(e + 2, pxm);
	put64(e + 8, base);
	put64(e + 16, len);
	put32(e + 28, flags);
}

#define EN	ACPI_SRAT_CPU_ENABLED
#define HOT	(ACPI_SRAT_MEM_ENABLED | ACPI_SRAT_MEM_HOT_PLUGGABLE)

/* A cnt x cnt SLIT from d[], row by row. */
static u64 slit_install(u64 cnt, const u8 *d)
{
	u8 data[8 + 100];

	BUG_ON(cnt * cnt > sizeof(data) - 8);
	put64(data, cnt);
	memcpy(data + 8, d, cnt * cnt);
	return fw_table("SLIT", data, 8 + cnt * cnt, 1);
}

/* The firmware: an RSDT listing a FACP, the SRAT (rev 3) and the SLIT. */
static void fw_install(u64 slit)
{
	u64 tables[3] = { fw_table("FACP", "facs", 4, 1) };
	unsigned int n = 1;

	tables[n++] = fw_table("SRAT", nt.srat, nt.srat_len, 3);
	if (slit)
		tables[n++] = slit;
	nt.rsdp_len = fw_rsdp(fw_rsdt(tables, n), 0);
}

/* The firmware's SRAT and SLIT (tables[1] and [2] of fw_install()). */
static u8 *fw_listed(unsigned int i)
{
	const u8 *rsdt = fw_ptr(acpi_fw.rsdp[16] | (u32)acpi_fw.rsdp[17] << 8 |
				(u32)acpi_fw.rsdp[18] << 16 |
				(u32)acpi_fw.rsdp[19] << 24);
	const u8 *e = rsdt + ACPI_TABLE_HDR_SIZE + 4 * i;

	return fw_ptr(e[0] | (u32)e[1] << 8 | (u32)e[2] << 16 | (u32)e[3] << 24);
}

static int srat_init(struct numa_topology *topo, void *ctx)
{
	struct acpi_parse_args args = {
		.rsdp = nt.rsdp_len ? acpi_fw.rsdp : NULL,
		.rsdp_len = nt.rsdp_len,
		.map = fw_map,
	};

	nt.srat_read = true;
	return acpi_numa_init(&args, topo);
}

/* numa_setup_topology() with numa=option; the lines with needle. */
static int setup(struct ktest *t, const char *option, const char *needle,
		 unsigned int *hits)
{
	struct numa_setup s = {
		.ram = &nt.ram.memory,
		.cpu_ids = nt.cpus,
		.nr_cpus = nt.nr_cpus,
		.option = option,
		.init_func = srat_init,
	};
	int ret;

	ktest_capture_start(t, needle);
	ret = numa_setup_topology(&s, &nt.out);
	*hits = ktest_capture_stop(t);
	return ret;
}

static bool captured(struct ktest *t, const char *s)
{
	return strstr(ktest_captured(t), s);
}

static int distance(int a, int b)
{
	return numa_topology_distance(&nt.out, a, b);
}

/* One node: all RAM and every CPU on node 0, Linux's fallback lines. */
static void expect_one_node(struct ktest *t, const char *why)
{
	const struct numa_memblk *b = &nt.out.meminfo.blk[0];
	const struct memblock_type *ram = &nt.ram.memory;
	const struct memblock_region *last = &ram->regions[ram->cnt - 1];

	KTEST_EXPECT_EQ(t, nt.out.nodes_parsed, 1UL);
	KTEST_ASSERT_EQ(t, nt.out.meminfo.nr_blks, 1);
	KTEST_EXPECT_EQ(t, b->nid, 0);
	KTEST_EXPECT_EQ(t, b->start, 0ULL);
	KTEST_EXPECT_EQ(t, b->end, last->base + last->size);
	KTEST_EXPECT_EQ(t, nt.out.nr_cpus, nt.nr_cpus);
	for (unsigned int i = 0; i < nt.nr_cpus; i++)
		KTEST_EXPECT_EQ(t, numa_apicid_to_node(&nt.out, nt.cpus[i]), 0);
	KTEST_EXPECT_EQ(t, distance(0, 0), LOCAL_DISTANCE);
	KTEST_EXPECT_TRUE(t, captured(t, why));
	KTEST_EXPECT_TRUE(t, captured(t, "Faking a node at [mem 0x0000000000000000-"));
}

/* Two nodes of 64 MiB, CPUs 0-1 and 2-3, as QEMU builds them. */
static void two_nodes_srat(void)
{
	srat_lapic(0, 0, EN);
	srat_lapic(0, 1, EN);
	srat_lapic(1, 2, EN);
	srat_lapic(1, 3, EN);
	srat_mem(0, 0, 0xa0000, EN);
	srat_mem(0, SZ_1M, SZ_64M - SZ_1M, EN);
	srat_mem(1, SZ_64M, SZ_64M, EN);
}

static const u8 slit_2[] = { 10, 20, 20, 10 };

/* --- good tables --------------------------------------------------------- */

static void test_numa_two_nodes(struct ktest *t)
{
	unsigned int hits;

	nt_reset();
	ram_pc(SZ_128M - SZ_128K);
	cpus(4);
	two_nodes_srat();
	fw_install(slit_install(2, slit_2));

	KTEST_EXPECT_EQ(t, setup(t, NULL, "SRAT: PXM ", &hits), 0);
	KTEST_EXPECT_EQ(t, hits, 4U);
	KTEST_EXPECT_EQ(t, nt.out.nodes_parsed, 3UL);
	KTEST_ASSERT_EQ(t, nt.out.meminfo.nr_blks, 3);
	KTEST_EXPECT_EQ(t, nt.out.meminfo.blk[2].start, SZ_64M);
	KTEST_EXPECT_EQ(t, nt.out.meminfo.blk[2].nid, 1);
	for (u32 cpu = 0; cpu < 4; cpu++)
		KTEST_EXPECT_EQ(t, numa_apicid_to_node(&nt.out, cpu), (int)cpu / 2);
	KTEST_EXPECT_EQ(t, nt.out.numa_distance_cnt, 2U);
	KTEST_EXPECT_EQ(t, distance(0, 1), 20);
	KTEST_EXPECT_EQ(t, distance(1, 1), 10);
	KTEST_EXPECT_EQ(t, numa_node_ram(&nt.out, &nt.ram.memory, 0),
			SZ_64M - 0x60400);
	KTEST_EXPECT_EQ(t, numa_node_ram(&nt.out, &nt.ram.memory, 1),
			SZ_64M - SZ_128K);
	/* Linux's lines, byte for byte. */
	KTEST_EXPECT_TRUE(t, captured(t, "SRAT: PXM 0 -> APIC 0x00 -> Node 0\n"));
	KTEST_EXPECT_TRUE(t, captured(t, "SRAT: PXM 1 -> APIC 0x03 -> Node 1\n"));
	KTEST_EXPECT_TRUE(t, captured(t, "ACPI: SRAT: Node 0 PXM 0 [mem 0x00000000-0x0009ffff]\n"));
	KTEST_EXPECT_TRUE(t, captured(t, "ACPI: SRAT: Node 1 PXM 1 [mem 0x04000000-0x07ffffff]\n"));
	KTEST_EXPECT_TRUE(t, captured(t, "NUMA: Initialized distance table, cnt=2\n"));
	KTEST_EXPECT_FALSE(t, captured(t, "Faking"));
}

/*
 * Four domains with scattered numbers: nodes are handed out in order of
 * appearance, the CPU entries' domains first (the memory of PXM 9 comes
 * first in the table, yet PXM 9 is node 1). The SLIT (10 localities) is
 * asymmetric and non-uniform; each node's row is its domain's.
 */
static void test_numa_four_nodes_asymmetric_slit(struct ktest *t)
{
	static const u32 pxm[4] = { 4, 9, 0, 7 };
	u8 d[100];
	unsigned int hits;

	nt_reset();
	ram_pc(SZ_128M);
	cpus(4);
	srat_mem(9, SZ_32M, SZ_32M, ACPI_SRAT_MEM_ENABLED);
	for (u8 i = 0; i < 4; i++)
		srat_lapic(pxm[i], i, EN);
	srat_mem(4, 0, SZ_32M, ACPI_SRAT_MEM_ENABLED);
	srat_mem(0, SZ_64M, SZ_32M, ACPI_SRAT_MEM_ENABLED);
	srat_mem(7, SZ_64M + SZ_32M, SZ_32M, ACPI_SRAT_MEM_ENABLED);
	for (int i = 0; i < 10; i++)
		for (int j = 0; j < 10; j++)
			d[i * 10 + j] = i == j ? 10 : 11 + 10 * i + j;
	fw_install(slit_install(10, d));

	KTEST_EXPECT_EQ(t, setup(t, NULL, "SRAT: PXM 9 -> APIC 0x01 -> Node 1", &hits), 0);
	KTEST_EXPECT_EQ(t, hits, 1U);
	KTEST_EXPECT_EQ(t, nt.out.nodes_parsed, 0xfUL);
	KTEST_EXPECT_EQ(t, nt.out.numa_distance_cnt, 4U);
	for (int i = 0; i < 4; i++) {
		KTEST_EXPECT_EQ(t, nt.out.node_to_pxm[i], (int)pxm[i]);
		KTEST_EXPECT_EQ(t, numa_apicid_to_node(&nt.out, i), i);
		KTEST_EXPECT_EQ(t, numa_node_ram(&nt.out, &nt.ram.memory, i) >> 20,
				i ? 32UL : 31UL);
		for (int j = 0; j < 4; j++)
			KTEST_EXPECT_EQ(t, distance(i, j), d[pxm[i] * 10 + pxm[j]]);
	}
	KTEST_EXPECT_NE(t, distance(0, 1), distance(1, 0));
	KTEST_EXPECT_TRUE(t, captured(t, "ACPI: SRAT: Node 1 PXM 9 [mem 0x02000000-0x03ffffff]\n"));
}

/* Node 1 has CPUs and no memory, node 2 memory and no CPUs. */
static void test_numa_cpu_only_and_memory_only_nodes(struct ktest *t)
{
	static const u8 d[9] = { 10, 20, 30, 20, 10, 25, 30, 25, 10 };
	unsigned int hits;

	nt_reset();
	ram_pc(SZ_128M);
	cpus(3);
	srat_lapic(0, 0, EN);
	srat_lapic(1, 1, EN);
	srat_lapic(1, 2, EN);
	srat_mem(0, 0, SZ_64M, ACPI_SRAT_MEM_ENABLED);
	srat_mem(2, SZ_64M, SZ_64M, ACPI_SRAT_MEM_ENABLED);
	fw_install(slit_install(3, d));

	KTEST_EXPECT_EQ(t, setup(t, NULL, "ACPI: SRAT: Node", &hits), 0);
	KTEST_EXPECT_EQ(t, hits, 2U);
	KTEST_EXPECT_EQ(t, nt.out.nodes_parsed, 7UL);
	KTEST_EXPECT_EQ(t, numa_node_ram(&nt.out, &nt.ram.memory, 1), 0ULL);
	KTEST_EXPECT_EQ(t, numa_node_ram(&nt.out, &nt.ram.memory, 2), SZ_64M);
	KTEST_EXPECT_EQ(t, numa_apicid_to_node(&nt.out, 2), 1);
	KTEST_EXPECT_EQ(t, distance(1, 2), 25);
}

/*
 * Disabled entries map no domain (PXM 5 never becomes a node); a
 * hot-pluggable range above RAM is its node's memory, marked hotplug;
 * a zero-length range is skipped. Without a SLIT: Linux's defaults.
 */
static void test_numa_hotplug_disabled_no_slit(struct ktest *t)
{
	unsigned int hits;

	nt_reset();
	ram_pc(SZ_128M);
	cpus(2);
	srat_lapic(5, 7, 0);
	srat_lapic(0, 0, EN);
	srat_x2apic(1, 1, EN);
	srat_x2apic(5, 0x100, 0);
	srat_mem(5, SZ_256M, SZ_64M, ACPI_SRAT_MEM_HOT_PLUGGABLE);
	srat_mem(0, 0, SZ_64M, ACPI_SRAT_MEM_ENABLED);
	srat_mem(1, SZ_64M, SZ_64M, ACPI_SRAT_MEM_ENABLED);
	srat_mem(1, SZ_1G, 0, ACPI_SRAT_MEM_ENABLED);
	srat_mem(1, SZ_4G, SZ_1G, HOT | ACPI_SRAT_MEM_NON_VOLATILE);
	fw_install(0);

	KTEST_EXPECT_EQ(t, setup(t, NULL, "ACPI: SRAT: Node", &hits), 0);
	KTEST_EXPECT_EQ(t, hits, 3U);
	KTEST_EXPECT_EQ(t, nt.out.nodes_parsed, 3UL);
	KTEST_ASSERT_EQ(t, nt.out.meminfo.nr_blks, 3);
	KTEST_EXPECT_TRUE(t, nt.out.meminfo.blk[2].hotplug);
	KTEST_EXPECT_FALSE(t, nt.out.meminfo.blk[1].hotplug);
	KTEST_EXPECT_EQ(t, nt.out.nr_cpus, 2U);
	KTEST_EXPECT_EQ(t, numa_apicid_to_node(&nt.out, 7), NUMA_NO_NODE);
	KTEST_EXPECT_EQ(t, nt.out.numa_distance_cnt, 0U);
	KTEST_EXPECT_EQ(t, distance(0, 1), REMOTE_DISTANCE);
	KTEST_EXPECT_EQ(t, distance(1, 1), LOCAL_DISTANCE);
	KTEST_EXPECT_TRUE(t, captured(t, "ACPI: SRAT: Node 1 PXM 1 [mem 0x100000000-0x13fffffff] hotplug non-volatile\n"));
	KTEST_EXPECT_TRUE(t, captured(t, "SRAT: PXM 1 -> APIC 0x0001 -> Node 1\n"));
	KTEST_EXPECT_FALSE(t, captured(t, "PXM 5"));
	KTEST_EXPECT_FALSE(t, captured(t, "distance table"));
}

/* MAX_NUMNODES domains fit; one more is refused. */
static void test_numa_max_nodes(struct ktest *t)
{
	unsigned int hits;

	for (int extra = 0; extra <= 1; extra++) {
		nt_reset();
		ram_add(0, (u64)(MAX_NUMNODES + 1) * SZ_16M);
		cpus(1);
		srat_lapic(0, 0, EN);
		for (int i = 0; i < MAX_NUMNODES + extra; i++)
			srat_mem(i, (u64)i * SZ_16M, SZ_16M, ACPI_SRAT_MEM_ENABLED);
		if (!extra)	/* the last 16 MiB in node 0 */
			srat_mem(0, (u64)MAX_NUMNODES * SZ_16M, SZ_16M,
				 ACPI_SRAT_MEM_ENABLED);
		fw_install(0);
		if (!extra) {
			KTEST_EXPECT_EQ(t, setup(t, NULL, NULL, &hits), 0);
			KTEST_EXPECT_EQ(t, nt.out.nodes_parsed,
					(1UL << MAX_NUMNODES) - 1);
			continue;
		}
		KTEST_EXPECT_EQ(t, setup(t, NULL, "Too many proximity domains", &hits),
				-EINVAL);
		KTEST_EXPECT_EQ(t, hits, 1U);
		expect_one_node(t, "ACPI: SRAT: SRAT not used.");
	}
}

static void test_numa_no_srat(struct ktest *t)
{
	u64 facp;
	unsigned int hits;

	nt_reset();
	ram_pc(SZ_128M);
	cpus(2);
	facp = fw_table("FACP", "facs", 4, 1);
	nt.rsdp_len = fw_rsdp(fw_rsdt(&facp, 1), 0);
	KTEST_EXPECT_EQ(t, setup(t, NULL, "No NUMA configuration found", &hits), 0);
	KTEST_EXPECT_EQ(t, hits, 1U);
	expect_one_node(t, "No NUMA configuration found");
	KTEST_EXPECT_FALSE(t, captured(t, "SRAT not used"));
}

/* --- bad tables: each says why, then one node ---------------------------- */

static void expect_rejected(struct ktest *t, const char *why)
{
	unsigned int hits;

	KTEST_EXPECT_EQ(t, setup(t, NULL, why, &hits), -EINVAL);
	KTEST_EXPECT_EQ(t, hits, 1U);
	expect_one_node(t, "No NUMA configuration found");
}

/* The two nodes, with a 2 x 2 SLIT from d (none if NULL). */
static void two_nodes_with(const u8 *d)
{
	nt_reset();
	ram_pc(SZ_128M - SZ_128K);
	cpus(4);
	two_nodes_srat();
	fw_install(d ? slit_install(2, d) : 0);
}

static void test_numa_overlapping_ranges(struct ktest *t)
{
	nt_reset();
	ram_pc(SZ_128M);
	cpus(4);
	two_nodes_srat();
	srat_mem(1, SZ_32M, SZ_4K, ACPI_SRAT_MEM_ENABLED);
	fw_install(0);
	expect_rejected(t, "NUMA: node 1 [mem 0x02000000-0x02000fff] overlaps with node 0 [mem 0x00100000-0x03ffffff]");
}

static void test_numa_slit_too_small(struct ktest *t)
{
	static const u8 d[9] = { 10, 20, 20, 20, 10, 20, 20, 20, 10 };

	nt_reset();
	ram_pc(SZ_128M);
	cpus(1);
	srat_lapic(3, 0, EN);
	srat_mem(3, 0, SZ_128M, ACPI_SRAT_MEM_ENABLED);
	fw_install(slit_install(3, d));
	expect_rejected(t, "ACPI: SLIT: PXM 3 (node 0) missing, the SLIT has 3 localities");
	KTEST_EXPECT_TRUE(t, captured(t, "ACPI: SRAT: SRAT not used."));
}

static void test_numa_slit_invalid(struct ktest *t)
{
	static const u8 bad_diagonal[] = { 10, 20, 20, 11 };
	static const u8 too_close[] = { 10, 10, 20, 10 };
	static const u8 asymmetric[] = { 10, 20, 30, 10 };
	unsigned int hits;

	two_nodes_with(bad_diagonal);
	expect_rejected(t, "ACPI: SLIT table looks invalid. Not used.");
	two_nodes_with(too_close);
	expect_rejected(t, "ACPI: SLIT table looks invalid. Not used.");
	/* An asymmetric SLIT is valid. */
	two_nodes_with(asymmetric);
	KTEST_EXPECT_EQ(t, setup(t, NULL, NULL, &hits), 0);
	KTEST_EXPECT_EQ(t, distance(1, 0), 30);
}

static void test_numa_bad_checksums(struct ktest *t)
{
	two_nodes_with(slit_2);
	fw_listed(1)[ACPI_SRAT_HDR_SIZE + 3] ^= 0x40;	/* an APIC ID */
	expect_rejected(t, "ACPI: SRAT: bad checksum");
	KTEST_EXPECT_FALSE(t, captured(t, "SRAT: PXM"));

	two_nodes_with(slit_2);
	fw_listed(2)[ACPI_SLIT_HDR_SIZE + 1] = 30;
	expect_rejected(t, "ACPI: SLIT: bad checksum");
	/* The good as built, to be sure the cases above broke only that. */
	fix_checksum(fw_listed(2));
	KTEST_EXPECT_EQ(t, setup(t, NULL, NULL, &(unsigned int){ 0 }), 0);
	KTEST_EXPECT_EQ(t, distance(0, 1), 30);
}

static void test_numa_bad_entry_length(struct ktest *t)
{
	nt_reset();
	ram_pc(SZ_128M);
	cpus(1);
	srat_lapic(0, 0, EN);
	srat_mem(0, 0, SZ_128M, ACPI_SRAT_MEM_ENABLED);
	nt.srat[nt.srat_len - 40 + 1] = 32;	/* memory affinity: 32 < 40 */
	nt.srat_len -= 8;
	fw_install(0);
	expect_rejected(t, "ACPI: SRAT: Unexpected header length: 32");
}

static void test_numa_memory_outside_ram(struct ktest *t)
{
	nt_reset();
	ram_pc(SZ_64M);
	cpus(4);
	two_nodes_srat();
	fw_install(0);
	expect_rejected(t, "NUMA: node 1 [mem 0x04000000-0x07ffffff] holds no RAM");
}

static void test_numa_ram_in_no_node(struct ktest *t)
{
	nt_reset();
	ram_pc(SZ_256M);
	cpus(4);
	two_nodes_srat();
	fw_install(0);
	expect_rejected(t, "NUMA: RAM [mem 0x08000000-0x0fffffff] is in no node");
}

static void test_numa_cpu_in_no_node(struct ktest *t)
{
	nt_reset();
	ram_pc(SZ_128M);
	cpus(5);
	two_nodes_srat();
	fw_install(0);
	expect_rejected(t, "NUMA: CPU with APIC ID 0x04 is in no node");
}

/* --- numa=off and numa=fake=N ------------------------------------------- */

static void test_numa_off(struct ktest *t)
{
	unsigned int hits;

	two_nodes_with(slit_2);
	KTEST_EXPECT_EQ(t, setup(t, "off", "NUMA turned off", &hits), 0);
	KTEST_EXPECT_EQ(t, hits, 1U);
	KTEST_EXPECT_FALSE(t, nt.srat_read);
	KTEST_EXPECT_FALSE(t, captured(t, "SRAT"));
	expect_one_node(t, "NUMA turned off");
}

static void test_numa_bad_options(struct ktest *t)
{
	static const char *const bad[] = {
		"fake=0", "fake=9", "fake=", "fake=2x", "fake=-1", "on", "",
	};
	unsigned int hits;

	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		two_nodes_with(0);
		KTEST_EXPECT_EQ(t, setup(t, bad[i], "numa=", &hits), -EINVAL);
		KTEST_EXPECT_EQ(t, hits, 1U);
		KTEST_EXPECT_FALSE(t, nt.srat_read);
		expect_one_node(t, "NUMA turned off");
	}
}

/*
 * RAM with holes into 2 and 3 nodes: contiguous ranges from 0 to the end
 * of RAM, each node's RAM within one NUMA_FAKE alignment (2 MiB) of an
 * equal share, the CPUs dealt round robin, the SRAT not read.
 */
static void test_numa_fake_with_holes(struct ktest *t)
{
	for (int n = 2; n <= 3; n++) {
		u64 total, share, prev_end = 0;
		unsigned int hits;
		int nid;

		two_nodes_with(0);
		ram_add(SZ_128M + SZ_32M, SZ_64M);	/* a hole of 32 MiB */
		cpus(5);
		total = nt.ram.memory.total_size;
		share = total / n;
		KTEST_EXPECT_EQ(t, setup(t, n == 2 ? "fake=2" : "fake=3",
					 "Faking node", &hits), 0);
		KTEST_EXPECT_EQ(t, hits, (unsigned int)n);
		KTEST_EXPECT_FALSE(t, nt.srat_read);
		KTEST_EXPECT_EQ(t, nt.out.nodes_parsed, (1UL << n) - 1);
		KTEST_ASSERT_EQ(t, nt.out.meminfo.nr_blks, n);
		for_each_node_in(nid, &nt.out) {
			const struct numa_memblk *b = &nt.out.meminfo.blk[nid];
			u64 ram = numa_node_ram(&nt.out, &nt.ram.memory, nid);

			KTEST_EXPECT_EQ(t, b->nid, nid);
			KTEST_EXPECT_EQ(t, b->start, prev_end);
			KTEST_EXPECT_LE(t, ram, share + SZ_2M);
			KTEST_EXPECT_GE(t, ram + SZ_2M, share);
			prev_end = b->end;
			for (int j = 0; j < n; j++)
				KTEST_EXPECT_EQ(t, distance(nid, j), LOCAL_DISTANCE);
		}
		KTEST_EXPECT_EQ(t, prev_end, SZ_256M - SZ_32M);
		for (u32 cpu = 0; cpu < 5; cpu++)
			KTEST_EXPECT_EQ(t, numa_apicid_to_node(&nt.out, cpu),
					(int)(cpu % n));
		KTEST_EXPECT_TRUE(t, captured(t, "Faking node 0 at [mem 0x0000000000000000-"));
	}
}

static void test_numa_fake_too_little_ram(struct ktest *t)
{
	unsigned int hits;

	nt_reset();
	ram_pc(SZ_16M);
	cpus(1);
	KTEST_EXPECT_EQ(t, setup(t, "fake=4", "numa=fake=4: 15 MB of RAM is too little", &hits),
			-EINVAL);
	KTEST_EXPECT_EQ(t, hits, 1U);
	expect_one_node(t, "No NUMA configuration found");
	KTEST_EXPECT_EQ(t, setup(t, "fake=3", NULL, &hits), 0);
	KTEST_EXPECT_EQ(t, nt.out.nodes_parsed, 7UL);
}

static void test_numa_memblk_limits(struct ktest *t)
{
	struct numa_meminfo mi = { 0 };

	KTEST_EXPECT_EQ(t, numa_add_memblk_to(0, 5, 5, false, &mi), 0);
	KTEST_EXPECT_EQ(t, mi.nr_blks, 0);
	KTEST_EXPECT_EQ(t, numa_add_memblk_to(0, 6, 5, false, &mi), -EINVAL);
	KTEST_EXPECT_EQ(t, numa_add_memblk_to(MAX_NUMNODES, 0, 5, false, &mi), -EINVAL);
	KTEST_EXPECT_EQ(t, numa_add_memblk_to(-1, 0, 5, false, &mi), -EINVAL);
	for (int i = 0; i < NR_NODE_MEMBLKS; i++)
		KTEST_EXPECT_EQ(t, numa_add_memblk_to(0, i, i + 1, false, &mi), 0);
	KTEST_EXPECT_EQ(t, numa_add_memblk_to(0, 100, 101, false, &mi), -ENOSPC);
	KTEST_EXPECT_EQ(t, mi.nr_blks, NR_NODE_MEMBLKS);
}

static struct ktest_case numa_cases[] = {
	KTEST_CASE(test_numa_two_nodes),
	KTEST_CASE(test_numa_four_nodes_asymmetric_slit),
	KTEST_CASE(test_numa_cpu_only_and_memory_only_nodes),
	KTEST_CASE(test_numa_hotplug_disabled_no_slit),
	KTEST_CASE(test_numa_max_nodes),
	KTEST_CASE(test_numa_no_srat),
	KTEST_CASE(test_numa_overlapping_ranges),
	KTEST_CASE(test_numa_slit_too_small),
	KTEST_CASE(test_numa_slit_invalid),
	KTEST_CASE(test_numa_bad_checksums),
	KTEST_CASE(test_numa_bad_entry_length),
	KTEST_CASE(test_numa_memory_outside_ram),
	KTEST_CASE(test_numa_ram_in_no_node),
	KTEST_CASE(test_numa_cpu_in_no_node),
	KTEST_CASE(test_numa_off),
	KTEST_CASE(test_numa_bad_options),
	KTEST_CASE(test_numa_fake_with_holes),
	KTEST_CASE(test_numa_fake_too_little_ram),
	KTEST_CASE(test_numa_memblk_limits),
	{}
};
KTEST_SUITE(numa, numa_cases);

/* --- the topology the kernel booted with ---------------------------------- */

/* numa_expect=N,MB0/MB1/..,CPUS0/CPUS1/..,D00/D01/.. (the harness's). */
struct numa_expectation {
	unsigned long nodes;
	unsigned long mem_mb[MAX_NUMNODES];
	unsigned long cpus[MAX_NUMNODES];
	unsigned long dist[MAX_NUMNODES * MAX_NUMNODES];
};

static char numa_expect[256];

static int numa_expect_param(char *val)
{
	if (!val || strscpy(numa_expect, val, sizeof(numa_expect)) < 0)
		return -EINVAL;
	return 0;
}
kernel_param("numa_expect", numa_expect_param);

/* Exactly n numbers separated by '/'. */
static int parse_list(char *field, unsigned long *vals, unsigned long n)
{
	char *word;
	unsigned long i = 0;

	while ((word = strsep(&field, "/")))
		if (i == n || kstrtoul(word, 10, &vals[i++]))
			return -EINVAL;
	return i == n ? 0 : -EINVAL;
}

static int parse_expectation(struct numa_expectation *e)
{
	static char buf[sizeof(numa_expect)];
	char *rest = buf, *f[4];

	strscpy(buf, numa_expect, sizeof(buf));
	for (int i = 0; i < 4; i++)
		if (!(f[i] = strsep(&rest, ",")))
			return -EINVAL;
	if (rest || kstrtoul(f[0], 10, &e->nodes) || !e->nodes ||
	    e->nodes > MAX_NUMNODES)
		return -EINVAL;
	if (parse_list(f[1], e->mem_mb, e->nodes) ||
	    parse_list(f[2], e->cpus, e->nodes) ||
	    parse_list(f[3], e->dist, e->nodes * e->nodes))
		return -EINVAL;
	return 0;
}

/* The node QEMU put hardware ID (APIC ID = CPU index) id on. */
static int expected_node(const struct numa_expectation *e, u32 id)
{
	for (unsigned long nid = 0, first = 0; nid < e->nodes; nid++) {
		if (id < first + e->cpus[nid])
			return nid;
		first += e->cpus[nid];
	}
	return NUMA_NO_NODE;
}

static u32 hw_id(unsigned int cpu)
{
	struct arch_cpu_info info;

	return arch_cpu_info(cpu, &info) ? cpu : info.hw_id;
}

/*
 * Booted with --numa: the nodes, each node's RAM (QEMU's share less the
 * holes of a PC, under 1 MiB), the node of every CPU that came up, and
 * the distances are what the harness gave QEMU.
 */
static void test_numa_boot_expected(struct ktest *t)
{
	unsigned int cpu;
	const struct numa_topology *topo = numa_topology();
	struct numa_expectation e;

	if (!numa_expect[0])
		ktest_skip(t, "no numa_expect= (a boot without --numa)");
	KTEST_ASSERT_EQ(t, parse_expectation(&e), 0);
	KTEST_EXPECT_EQ(t, num_online_nodes(), (unsigned int)e.nodes);
	for (unsigned long nid = 0; nid < e.nodes; nid++) {
		u64 ram = numa_node_ram(topo, &memblock.memory, nid);

		KTEST_EXPECT_TRUE(t, node_online(nid));
		/*
		 * All of what QEMU gave the node but what the firmware keeps:
		 * under 1 MiB with the BIOS (the legacy hole), a few MiB with
		 * OVMF (its own data and the EFI tables): under 8 MiB.
		 */
		KTEST_EXPECT_LE(t, ram, e.mem_mb[nid] << 20);
		KTEST_EXPECT_GT(t, ram + 8 * SZ_1M, e.mem_mb[nid] << 20);
		for (unsigned long j = 0; j < e.nodes; j++)
			KTEST_EXPECT_EQ(t, node_distance(nid, j),
					(int)e.dist[nid * e.nodes + j]);
	}
	for_each_possible_cpu(cpu)
		KTEST_EXPECT_EQ(t, cpu_to_node(cpu), expected_node(&e, hw_id(cpu)));
}

/*
 * Any boot: the topology is whole. Node 0 exists, all RAM is in exactly
 * one node, every CPU's node is online, each node is LOCAL_DISTANCE from
 * itself and further from the others (fake nodes: as far as itself).
 */
static void test_numa_boot_consistent(struct ktest *t)
{
	const struct numa_topology *topo = numa_topology();
	unsigned int cpu;
	u64 sum = 0;
	int a, b;

	KTEST_EXPECT_TRUE(t, node_online(0));
	KTEST_EXPECT_FALSE(t, node_online(MAX_NUMNODES));
	for_each_node_in(a, topo) {
		sum += numa_node_ram(topo, &memblock.memory, a);
		KTEST_EXPECT_EQ(t, node_distance(a, a), LOCAL_DISTANCE);
		for_each_node_in(b, topo)
			KTEST_EXPECT_GE(t, node_distance(a, b), LOCAL_DISTANCE);
	}
	KTEST_EXPECT_EQ(t, sum, memblock.memory.total_size);
	for_each_possible_cpu(cpu)
		KTEST_EXPECT_TRUE(t, node_online(cpu_to_node(cpu)));
}

/* The node of the topology's range that holds addr (NUMA_NO_NODE: none). */
static int topology_nid(const struct numa_topology *topo, u64 addr)
{
	for (int i = 0; i < topo->meminfo.nr_blks; i++) {
		const struct numa_memblk *b = &topo->meminfo.blk[i];

		if (addr >= b->start && addr < b->end)
			return b->nid;
	}
	return NUMA_NO_NODE;
}

/* memblock's RAM regions carry the topology's nodes, split at its edges. */
static void test_numa_boot_memblock_nodes(struct ktest *t)
{
	const struct numa_topology *topo = numa_topology();
	const struct memblock_type *mem = &memblock.memory;

	for (unsigned long i = 0; i < mem->cnt; i++) {
		const struct memblock_region *r = &mem->regions[i];
		int nid = memblock_get_region_node(r);

		KTEST_EXPECT_EQ(t, nid, topology_nid(topo, r->base));
		KTEST_EXPECT_EQ(t, nid, topology_nid(topo, r->base + r->size - 1));
	}
}

/* numa_set_node() refuses an offline node or CPU and changes nothing. */
static void test_numa_set_node_refuses(struct ktest *t)
{
	int old = cpu_to_node(0);

	numa_set_node(0, MAX_NUMNODES);
	KTEST_EXPECT_EQ(t, cpu_to_node(0), old);
	numa_set_node(0, NUMA_NO_NODE);
	KTEST_EXPECT_EQ(t, cpu_to_node(0), old);
	numa_set_node(NR_CPUS, 0);
	KTEST_EXPECT_EQ(t, cpu_to_node(NR_CPUS), 0);
	numa_set_node(0, 0);
	KTEST_EXPECT_EQ(t, cpu_to_node(0), 0);
	numa_set_node(0, old);
	KTEST_EXPECT_EQ(t, cpu_to_node(0), old);
}

static struct ktest_case numa_boot_cases[] = {
	KTEST_CASE(test_numa_boot_expected),
	KTEST_CASE(test_numa_boot_consistent),
	KTEST_CASE(test_numa_boot_memblock_nodes),
	KTEST_CASE(test_numa_set_node_refuses),
	{}
};
KTEST_SUITE(numa_boot, numa_boot_cases);

// SPDX-License-Identifier: GPL-2.0
/*
 * The NUMA topology the kernel boots with (mm/numa.h).
 *
 * numa_setup_topology() is pure, so the host tests it on made-up RAM and
 * firmware. It takes, in Linux's order of preference: numa=off (one node,
 * the firmware not asked), numa=fake=N (RAM split into N nodes holding
 * equal amounts of it, boundaries on NUMA_FAKE_ALIGN, CPUs dealt round
 * robin; as in Linux's emulation, nodes carved from one physical node are
 * LOCAL_DISTANCE apart), then the firmware's nodes (init_func). Whatever
 * it takes is checked before it is used:
 *
 *	- every node id below MAX_NUMNODES, every range non-empty;
 *	- no two ranges overlap (same node or not);
 *	- a range that is not hotplug holds some RAM (hotplug memory may
 *	  be absent at boot, as Linux lets it be);
 *	- all RAM lies in some node's ranges;
 *	- every CPU (by hardware ID) is in a node;
 *	- a distance table, if any, covers every node, is LOCAL_DISTANCE on
 *	  its diagonal and more than that elsewhere (except for fake nodes).
 *
 * On any failure the reason is printed, then Linux's fallback lines
 * ("No NUMA configuration found", "Faking a node at [mem ...]"), and the
 * topology is one node: all RAM and every CPU on node 0. The kernel's
 * topology (numa_init()) is written once at boot, before the other CPUs
 * start, and only read afterwards; so is each CPU's node (numa_set_node()),
 * except that x86_64 sets it again once the CPUs have their numbers.
 */
#include "mm/numa.h"
#include "kernel/cpumask.h"
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
#include "lib/sprintf.h"
#include "lib/string.h"

#define NUMA_FAKE_ALIGN		SZ_2M
#define NUMA_FAKE_MIN_SIZE	(2 * NUMA_FAKE_ALIGN)	/* RAM per fake node */
#define NUMA_OPTION_LEN		32

static char numa_option[NUMA_OPTION_LEN];
static bool numa_option_given;

/* Linux's x86_cpu_to_node_map: by CPU number (read by cpu_to_node()). */
int numa_cpu_node[NR_CPUS];

/* The kernel's: one node with every CPU until numa_init(). */
static struct numa_topology numa_kernel_topology = {
	.nodes_parsed = 1,
	.node_to_pxm = { [0 ... MAX_NUMNODES - 1] = -1 },
};

static int numa_param(char *val)
{
	numa_option_given = true;
	/* Too long for any valid value: kept cut, reported as garbage. */
	strscpy(numa_option, val ? val : "", sizeof(numa_option));
	return 0;
}
kernel_param("numa", numa_param);

/* --- building blocks --------------------------------------------------- */

int numa_add_memblk_to(int nid, u64 start, u64 end, bool hotplug,
		       struct numa_meminfo *mi)
{
	if (start == end)
		return 0;
	if (start > end || nid < 0 || nid >= MAX_NUMNODES)
		return -EINVAL;
	if (mi->nr_blks >= NR_NODE_MEMBLKS)
		return -ENOSPC;
	mi->blk[mi->nr_blks++] = (struct numa_memblk){
		.start = start, .end = end, .nid = nid, .hotplug = hotplug,
	};
	return 0;
}

int numa_apicid_to_node(const struct numa_topology *topo, u32 apicid)
{
	for (unsigned int i = 0; i < topo->nr_cpus; i++)
		if (topo->cpus[i].apicid == apicid)
			return topo->cpus[i].nid;
	return NUMA_NO_NODE;
}

int numa_set_apicid_node(struct numa_topology *topo, u32 apicid, int nid)
{
	if (nid < 0 || nid >= MAX_NUMNODES)
		return -EINVAL;
	if (numa_apicid_to_node(topo, apicid) != NUMA_NO_NODE)
		return -EEXIST;
	if (topo->nr_cpus == NR_CPUS)
		return -ENOSPC;
	topo->cpus[topo->nr_cpus++] = (struct numa_cpu){ apicid, nid };
	return 0;
}

static void topology_reset(struct numa_topology *topo)
{
	memset(topo, 0, sizeof(*topo));
	for (int i = 0; i < MAX_NUMNODES; i++)
		topo->node_to_pxm[i] = -1;
}

static unsigned int nodes_weight(unsigned long mask)
{
	unsigned int n = 0;

	for (; mask; mask &= mask - 1)
		n++;
	return n;
}

static u64 overlap(u64 s1, u64 e1, u64 s2, u64 e2)
{
	u64 s = max(s1, s2), e = min(e1, e2);

	return e > s ? e - s : 0;
}

static u64 ram_in(const struct memblock_type *ram, u64 start, u64 end)
{
	u64 sum = 0;

	for (unsigned long i = 0; i < ram->cnt; i++)
		sum += overlap(ram->regions[i].base,
			       ram->regions[i].base + ram->regions[i].size,
			       start, end);
	return sum;
}

static u64 ram_end(const struct memblock_type *ram)
{
	const struct memblock_region *last;

	if (!ram->cnt)
		return 0;
	last = &ram->regions[ram->cnt - 1];
	return last->base + last->size;
}

u64 numa_node_ram(const struct numa_topology *topo,
		  const struct memblock_type *ram, int nid)
{
	const struct numa_meminfo *mi = &topo->meminfo;
	u64 sum = 0;

	for (int i = 0; i < mi->nr_blks; i++)
		if (mi->blk[i].nid == nid)
			sum += ram_in(ram, mi->blk[i].start, mi->blk[i].end);
	return sum;
}

int numa_topology_distance(const struct numa_topology *topo, int a, int b)
{
	if (a < 0 || b < 0 || a >= MAX_NUMNODES || b >= MAX_NUMNODES)
		return REMOTE_DISTANCE;
	if (!topo->numa_distance_cnt || (unsigned int)a >= topo->numa_distance_cnt ||
	    (unsigned int)b >= topo->numa_distance_cnt)
		return a == b ? LOCAL_DISTANCE : REMOTE_DISTANCE;
	return topo->numa_distance[a][b];
}

/* --- checks ------------------------------------------------------------ */

static int check_memblks(const struct numa_meminfo *mi,
			 const struct memblock_type *ram)
{
	for (int i = 0; i < mi->nr_blks; i++) {
		const struct numa_memblk *bi = &mi->blk[i];

		if (bi->nid < 0 || bi->nid >= MAX_NUMNODES || bi->start >= bi->end) {
			pr_err("NUMA: invalid memblk node %d [mem 0x%08lx-0x%08lx]\n",
			       bi->nid, bi->start, bi->end - 1);
			return -EINVAL;
		}
		for (int j = 0; j < i; j++) {
			const struct numa_memblk *bj = &mi->blk[j];

			if (!overlap(bi->start, bi->end, bj->start, bj->end))
				continue;
			pr_err("NUMA: node %d [mem 0x%08lx-0x%08lx] overlaps with node %d [mem 0x%08lx-0x%08lx]\n",
			       bi->nid, bi->start, bi->end - 1,
			       bj->nid, bj->start, bj->end - 1);
			return -EINVAL;
		}
		if (!bi->hotplug && !ram_in(ram, bi->start, bi->end)) {
			pr_err("NUMA: node %d [mem 0x%08lx-0x%08lx] holds no RAM\n",
			       bi->nid, bi->start, bi->end - 1);
			return -EINVAL;
		}
	}
	return 0;
}

/* The first byte of [start, end) in no range of mi, or end. */
static u64 first_uncovered(const struct numa_meminfo *mi, u64 start, u64 end)
{
	bool moved = true;

	while (start < end && moved) {
		moved = false;
		for (int i = 0; i < mi->nr_blks; i++) {
			if (mi->blk[i].start <= start && start < mi->blk[i].end) {
				start = mi->blk[i].end;
				moved = true;
			}
		}
	}
	return min(start, end);
}

static int check_ram_covered(const struct numa_meminfo *mi,
			     const struct memblock_type *ram)
{
	for (unsigned long i = 0; i < ram->cnt; i++) {
		u64 start = ram->regions[i].base;
		u64 end = start + ram->regions[i].size;
		u64 hole = first_uncovered(mi, start, end);

		if (hole < end) {
			pr_err("NUMA: RAM [mem 0x%08lx-0x%08lx] is in no node\n",
			       hole, end - 1);
			return -EINVAL;
		}
	}
	return 0;
}

static int check_cpus(const struct numa_topology *topo, const u32 *ids,
		      unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++) {
		int nid = numa_apicid_to_node(topo, ids[i]);

		if (nid == NUMA_NO_NODE) {
			pr_err("NUMA: CPU with APIC ID 0x%02x is in no node\n",
			       ids[i]);
			return -EINVAL;
		}
	}
	return 0;
}

static int check_nodes(const struct numa_topology *topo)
{
	const struct numa_meminfo *mi = &topo->meminfo;
	unsigned long seen = 0;

	if (!topo->nodes_parsed || topo->nodes_parsed >> MAX_NUMNODES) {
		pr_err("NUMA: node mask %#lx: none or beyond MAX_NUMNODES (%d)\n",
		       topo->nodes_parsed, MAX_NUMNODES);
		return -EINVAL;
	}
	for (int i = 0; i < mi->nr_blks; i++)
		seen |= 1UL << mi->blk[i].nid;
	for (unsigned int i = 0; i < topo->nr_cpus; i++)
		seen |= 1UL << topo->cpus[i].nid;
	if (seen & ~topo->nodes_parsed) {
		pr_err("NUMA: memory or CPUs on nodes %#lx that are not parsed\n",
		       seen & ~topo->nodes_parsed);
		return -EINVAL;
	}
	return 0;
}

/* Node ids are dense (0 .. n-1): the SRAT parser hands them out so. */
static int check_distances(const struct numa_topology *topo, bool fake)
{
	unsigned int n = nodes_weight(topo->nodes_parsed);
	unsigned int cnt = topo->numa_distance_cnt;

	if (!cnt)
		return 0;
	if (cnt != n || topo->nodes_parsed != (1UL << n) - 1) {
		pr_err("NUMA: distance table for %u nodes, %u nodes parsed\n",
		       cnt, n);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < cnt; i++) {
		for (unsigned int j = 0; j < cnt; j++) {
			u8 d = topo->numa_distance[i][j];

			if (i == j ? d == LOCAL_DISTANCE :
				     d > LOCAL_DISTANCE ||
				     (fake && d == LOCAL_DISTANCE))
				continue;
			pr_err("NUMA: invalid distance from node %u to node %u: %u\n",
			       i, j, d);
			return -EINVAL;
		}
	}
	return 0;
}

static int check_topology(const struct numa_setup *s,
			  const struct numa_topology *topo, bool fake)
{
	if (check_nodes(topo) || check_memblks(&topo->meminfo, s->ram) ||
	    check_ram_covered(&topo->meminfo, s->ram) ||
	    check_cpus(topo, s->cpu_ids, s->nr_cpus) ||
	    check_distances(topo, fake))
		return -EINVAL;
	return 0;
}

/* --- the three sources --------------------------------------------------- */

/* Linux's dummy_numa_init(): node 0 has everything. */
static void numa_one_node(const struct numa_setup *s, struct numa_topology *out,
			  bool off)
{
	u64 end = ram_end(s->ram);

	pr_info("%s\n", off ? "NUMA turned off" : "No NUMA configuration found");
	pr_info("Faking a node at [mem 0x%016lx-0x%016lx]\n", 0UL,
		end ? end - 1 : 0);
	topology_reset(out);
	out->nodes_parsed = 1;
	numa_add_memblk_to(0, 0, end, false, &out->meminfo);
	for (unsigned int i = 0; i < s->nr_cpus; i++)
		numa_set_apicid_node(out, s->cpu_ids[i], 0);
}

/* The lowest address by which at least want bytes of RAM lie below it. */
static u64 ram_offset_to_addr(const struct memblock_type *ram, u64 want)
{
	for (unsigned long i = 0; i < ram->cnt; i++) {
		const struct memblock_region *r = &ram->regions[i];

		if (want <= r->size)
			return r->base + want;
		want -= r->size;
	}
	return ram_end(ram);
}

/* Where the RAM below reaches want bytes, to the nearest NUMA_FAKE_ALIGN. */
static u64 fake_boundary(const struct memblock_type *ram, u64 want)
{
	u64 addr = ram_offset_to_addr(ram, want);

	return ALIGN_DOWN(addr + NUMA_FAKE_ALIGN / 2, (u64)NUMA_FAKE_ALIGN);
}

static int numa_emulation(const struct numa_setup *s, unsigned int n,
			  struct numa_topology *out)
{
	u64 total = ram_in(s->ram, 0, ram_end(s->ram));
	u64 start = ALIGN_DOWN(s->ram->cnt ? s->ram->regions[0].base : 0,
			       (u64)NUMA_FAKE_ALIGN);

	if (total / n < NUMA_FAKE_MIN_SIZE) {
		pr_err("numa=fake=%u: %lu MB of RAM is too little, each node needs %lu MB\n",
		       n, total >> 20, NUMA_FAKE_MIN_SIZE >> 20);
		return -EINVAL;
	}
	topology_reset(out);
	for (unsigned int nid = 0; nid < n; nid++) {
		u64 end = nid == n - 1 ? ram_end(s->ram) :
			  fake_boundary(s->ram, total / n * (nid + 1));

		if (end <= start || numa_add_memblk_to(nid, start, end, false,
							&out->meminfo))
			return -EINVAL;
		pr_info("Faking node %u at [mem 0x%016lx-0x%016lx] (%luMB)\n",
			nid, start, end - 1, ram_in(s->ram, start, end) >> 20);
		out->nodes_parsed |= 1UL << nid;
		start = end;
	}
	for (unsigned int i = 0; i < s->nr_cpus; i++)
		if (numa_set_apicid_node(out, s->cpu_ids[i], i % n))
			return -EINVAL;
	out->numa_distance_cnt = n;
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int j = 0; j < n; j++)
			out->numa_distance[i][j] = LOCAL_DISTANCE;
	return 0;
}

/* NUMA_BAD: a numa= value that means nothing, which turns NUMA off. */
enum numa_mode { NUMA_FIRMWARE, NUMA_OFF, NUMA_FAKE, NUMA_BAD };

/* numa=off, numa=fake=N; anything else is reported and turns NUMA off. */
static enum numa_mode parse_option(const char *opt, unsigned int *nr_fake)
{
	unsigned long n;

	if (!opt)
		return NUMA_FIRMWARE;
	if (!strcmp(opt, "off"))
		return NUMA_OFF;
	if (!strncmp(opt, "fake=", 5)) {
		if (!kstrtoul(opt + 5, 10, &n) && n >= 1 && n <= MAX_NUMNODES) {
			*nr_fake = n;
			return NUMA_FAKE;
		}
		pr_err("numa=%s: the node count must be 1-%d\n", opt,
		       MAX_NUMNODES);
		return NUMA_BAD;
	}
	pr_err("numa=%s: unknown option (numa=off, numa=fake=N)\n", opt);
	return NUMA_BAD;
}

static void print_topology(const struct numa_topology *topo)
{
	if (topo->numa_distance_cnt)
		pr_info("NUMA: Initialized distance table, cnt=%u\n",
			topo->numa_distance_cnt);
}

int numa_setup_topology(const struct numa_setup *s, struct numa_topology *out)
{
	unsigned int nr_fake = 0;
	enum numa_mode mode = parse_option(s->option, &nr_fake);
	int err = mode == NUMA_BAD ? -EINVAL : -ENOENT;

	topology_reset(out);
	if (mode == NUMA_FAKE)
		err = numa_emulation(s, nr_fake, out);
	else if (mode == NUMA_FIRMWARE && s->init_func)
		err = s->init_func(out, s->ctx);
	if (!err)
		err = check_topology(s, out, mode == NUMA_FAKE);
	if (!err) {
		print_topology(out);
		return 0;
	}
	numa_one_node(s, out, mode == NUMA_OFF || mode == NUMA_BAD);
	/* No firmware nodes, or numa=off: nothing went wrong. */
	return err == -ENOENT ? 0 : -EINVAL;
}

/* --- the kernel's topology ------------------------------------------------ */

/*
 * memblock learns each RAM range's node (Linux's numa_register_memblks()):
 * what the page allocator and the node-aware memblock calls read.
 */
static void numa_register_memblks(const struct numa_meminfo *mi)
{
	for (int i = 0; i < mi->nr_blks; i++) {
		const struct numa_memblk *b = &mi->blk[i];

		WARN_ON(memblock_set_node(b->start, b->end - b->start,
					  &memblock.memory, b->nid));
	}
}

void numa_init(int (*init_func)(struct numa_topology *topo, void *ctx),
	       void *ctx, const u32 *cpu_ids, unsigned int nr_cpus)
{
	struct numa_setup s = {
		.ram = &memblock.memory,
		.cpu_ids = cpu_ids,
		.nr_cpus = nr_cpus,
		.option = numa_option_given ? numa_option : NULL,
		.init_func = init_func,
		.ctx = ctx,
	};

	numa_setup_topology(&s, &numa_kernel_topology);
	numa_register_memblks(&numa_kernel_topology.meminfo);
	for (unsigned int i = 0; i < nr_cpus && i < NR_CPUS; i++)
		numa_set_node(i, numa_apicid_to_node(&numa_kernel_topology,
						     cpu_ids[i]));
}

void numa_set_node(unsigned int cpu, int node)
{
	if (cpu < NR_CPUS && node_online(node))
		WRITE_ONCE(numa_cpu_node[cpu], node);
}

const struct numa_topology *numa_topology(void)
{
	return &numa_kernel_topology;
}

unsigned int num_online_nodes(void)
{
	return nodes_weight(numa_kernel_topology.nodes_parsed);
}

bool node_online(int nid)
{
	return nid >= 0 && nid < MAX_NUMNODES &&
	       (numa_kernel_topology.nodes_parsed & (1UL << nid));
}

int node_distance(int a, int b)
{
	return numa_topology_distance(&numa_kernel_topology, a, b);
}

/* --- the nodes in order of distance --------------------------------------- */

/* Does node a come before node b, seen from nid? */
static bool nearer(int nid, int a, int b)
{
	int da = a == nid ? -1 : node_distance(nid, a);
	int db = b == nid ? -1 : node_distance(nid, b);

	return da < db || (da == db && a < b);
}

int numa_nodes_by_distance(int nid, int order[MAX_NUMNODES])
{
	int nr = 0, node;

	for_each_node_in(node, &numa_kernel_topology) {
		int i = nr++;

		while (i > 0 && nearer(nid, node, order[i - 1])) {
			order[i] = order[i - 1];
			i--;
		}
		order[i] = node;
	}
	return nr;
}

/* --- numactl --hardware --------------------------------------------------- */

static void print_node_cpus(int nid)
{
	char line[160];
	int len = snprintf(line, sizeof(line), "node %d cpus:", nid);

	unsigned int cpu;

	for_each_online_cpu(cpu)
		if (cpu_to_node(cpu) == nid && len < (int)sizeof(line))
			len += snprintf(line + len, sizeof(line) - len, " %u", cpu);
	pr_info("%s\n", line);
}

static void print_distances(const struct numa_topology *topo)
{
	char line[160];
	int len, a, b;

	pr_info("node distances:\n");
	len = snprintf(line, sizeof(line), "node");
	for_each_node_in(b, topo)
		len += snprintf(line + len, sizeof(line) - len, "%4d", b);
	pr_info("%s\n", line);
	for_each_node_in(a, topo) {
		len = snprintf(line, sizeof(line), "%3d:", a);
		for_each_node_in(b, topo)
			len += snprintf(line + len, sizeof(line) - len, "%4d",
					numa_topology_distance(topo, a, b));
		pr_info("%s\n", line);
	}
}

static int cmd_numa(int argc, char **argv)
{
	const struct numa_topology *topo = numa_topology();
	unsigned int n = num_online_nodes();
	int nid;

	pr_info("available: %u nodes (0-%u)\n", n, n - 1);
	for_each_node_in(nid, topo) {
		print_node_cpus(nid);
		pr_info("node %d size: %lu MB\n", nid,
			numa_node_ram(topo, &memblock.memory, nid) >> 20);
	}
	print_distances(topo);
	return 0;
}
SHELL_CMD("numa", cmd_numa, "the NUMA nodes, their memory, CPUs and distances (numactl --hardware)");

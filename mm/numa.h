/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NUMA topology: which node each range of RAM and each CPU belongs to,
 * and the distances between the nodes (Linux's numa_meminfo,
 * __apicid_to_node and numa_distance).
 *
 * The arch finds the nodes at boot (x86_64: the ACPI SRAT and SLIT,
 * arch/x86_64/srat.c) and hands them to numa_init(), which applies
 * numa=off and numa=fake=N, checks the result against RAM and the CPUs
 * and keeps it; anything wrong is reported and the kernel runs with one
 * node holding all RAM and every CPU. The page allocator runs these
 * nodes (mm/internal.h: a pg_data_t each), and so does SLAB (its lists
 * per node, mm/slab.c section 8).
 */
#ifndef MM_NUMA_H
#define MM_NUMA_H

#include "arch/arch.h"
#include "kernel/types.h"
#include "mm/memblock.h"
#include "mm/mmzone.h"

#define NR_NODE_MEMBLKS		(MAX_NUMNODES * 2)
#define LOCAL_DISTANCE		10
#define REMOTE_DISTANCE		20

/* [start, end) of node nid's memory; hotplug: may be absent at boot. */
struct numa_memblk {
	u64 start;
	u64 end;
	int nid;
	bool hotplug;
};

struct numa_meminfo {
	int nr_blks;
	struct numa_memblk blk[NR_NODE_MEMBLKS];
};

/* A CPU by hardware ID (x86_64: APIC ID; the host: its CPU number). */
struct numa_cpu {
	u32 apicid;
	int nid;
};

struct numa_topology {
	unsigned long nodes_parsed;	/* bit n: node n exists */
	struct numa_meminfo meminfo;
	unsigned int nr_cpus;		/* entries of cpus[] */
	struct numa_cpu cpus[NR_CPUS];	/* __apicid_to_node */
	/* 0: no table, LOCAL_DISTANCE/REMOTE_DISTANCE; else the node count. */
	unsigned int numa_distance_cnt;
	u8 numa_distance[MAX_NUMNODES][MAX_NUMNODES];
	int node_to_pxm[MAX_NUMNODES];	/* firmware's domain; -1: none */
};

/*
 * Add [start, end) to node nid (Linux's numa_add_memblk): 0, also for an
 * empty range, which is not added; -EINVAL for start > end or a bad nid,
 * -ENOSPC when meminfo is full.
 */
int numa_add_memblk_to(int nid, u64 start, u64 end, bool hotplug,
		       struct numa_meminfo *mi);

/* Node nid's entry for hardware ID apicid (-EEXIST if it has one). */
int numa_set_apicid_node(struct numa_topology *topo, u32 apicid, int nid);

/* The node of hardware ID apicid, NUMA_NO_NODE if none. */
int numa_apicid_to_node(const struct numa_topology *topo, u32 apicid);

/* What numa_setup_topology() works from. */
struct numa_setup {
	const struct memblock_type *ram;	/* the RAM there is */
	const u32 *cpu_ids;		/* hardware IDs of the CPUs */
	unsigned int nr_cpus;
	const char *option;		/* value of numa= (NULL: none) */
	/*
	 * The firmware's nodes into *topo (it is empty): 0, or -ENOENT if
	 * there are none, -EINVAL if they are unusable (reported). NULL:
	 * the platform has no such tables.
	 */
	int (*init_func)(struct numa_topology *topo, void *ctx);
	void *ctx;
};

/*
 * Build the topology into *out: numa=off and bad numa= values give one
 * node, numa=fake=N splits RAM into N nodes of equal size (CPUs round
 * robin), otherwise init_func's nodes are checked (no overlapping
 * ranges, each range holds RAM unless hotplug, all RAM and every CPU in
 * a node, at most MAX_NUMNODES nodes). Prints Linux's boot lines. 0 if
 * that topology is used, -EINVAL after falling back to one node (all RAM
 * and every CPU on node 0), which *out then holds.
 */
int numa_setup_topology(const struct numa_setup *s, struct numa_topology *out);

/*
 * At boot, in setup_arch() once the CPUs are known (x86_64: the MADT),
 * before they start: the kernel's topology from init_func (as above) and
 * the numa= command line option.
 */
void numa_init(int (*init_func)(struct numa_topology *topo, void *ctx),
	       void *ctx, const u32 *cpu_ids, unsigned int nr_cpus);

/* The kernel's topology (one node before numa_init()). */
const struct numa_topology *numa_topology(void);

unsigned int num_online_nodes(void);
bool node_online(int nid);
/* Distance from node a to node b (Linux's node_distance()). */
int node_distance(int a, int b);
int numa_topology_distance(const struct numa_topology *topo, int a, int b);
/*
 * The node of CPU cpu (< nr_cpu_ids), and setting it (Linux's
 * numa_set_node(); an offline node is refused). numa_init() gives CPU i
 * the node of cpu_ids[i]; an arch whose CPU numbers come later (x86_64:
 * as the CPUs come up) sets them again then (init_cpu_to_node()).
 */
extern int numa_cpu_node[NR_CPUS];	/* Linux's x86_cpu_to_node_map */

static inline int cpu_to_node(unsigned int cpu)
{
	return cpu < NR_CPUS ? READ_ONCE(numa_cpu_node[cpu]) : 0;
}

void numa_set_node(unsigned int cpu, int node);
/*
 * The online nodes from nid outwards into order[]: nid first (if
 * online), then by node_distance(), ties by node id (the order of
 * Linux's zonelists). Returns how many.
 */
int numa_nodes_by_distance(int nid, int order[MAX_NUMNODES]);

/* Bytes of RAM in node nid. */
u64 numa_node_ram(const struct numa_topology *topo,
		  const struct memblock_type *ram, int nid);

/* The first node of topo from nid on; MAX_NUMNODES if none. */
static inline int next_node_in_topology(int nid,
					const struct numa_topology *topo)
{
	while (nid < MAX_NUMNODES && !(topo->nodes_parsed & (1UL << nid)))
		nid++;
	return nid;
}

#define for_each_node_in(nid, topo)					\
	for ((nid) = next_node_in_topology(0, topo);			\
	     (nid) < MAX_NUMNODES;					\
	     (nid) = next_node_in_topology((nid) + 1, topo))

#endif /* MM_NUMA_H */

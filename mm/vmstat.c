// SPDX-License-Identifier: GPL-2.0
/*
 * Memory statistics for people: the shell commands meminfo (with
 * vmalloc's VmallocTotal, VmallocUsed and VmallocChunk), buddyinfo,
 * zoneinfo and slabinfo, printing what Linux prints in /proc/meminfo,
 * /proc/buddyinfo, /proc/zoneinfo and /proc/slabinfo (the fields that
 * exist here), every node's zones; vmstat prints /proc/vmstat's NUMA
 * and reclaim counters (mm/page_alloc.c and mm/vmscan.c count them);
 * numastat prints the NUMA counters per node as the numastat tool does,
 * or one node's as /sys/devices/system/node/nodeN/numastat.
 */
#include "kernel/cpumask.h"
#include "kernel/errno.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
#include "lib/sprintf.h"
#include "mm/gfp.h"
#include "mm/internal.h"
#include "mm/mm.h"
#include "mm/slab_internal.h"
#include "mm/vmalloc.h"

#define K(pages)	((pages) << (PAGE_SHIFT - 10))

static int cmd_meminfo(int argc, char **argv)
{
	/* SLAB_RECLAIM_ACCOUNT caches are reclaimable, as in Linux. */
	unsigned long reclaimable = slab_reclaimable_pages();
	unsigned long slab = max(slab_pages(), reclaimable);
	struct vmalloc_stats vm;

	(void)argc;
	(void)argv;
	console_printf("MemTotal:       %8lu kB\n", K(totalram_pages));
	console_printf("MemFree:        %8lu kB\n", K(nr_free_pages()));
	console_printf("MemAvailable:   %8lu kB\n",
		       K(nr_free_pages() + nr_pcp_pages()));
	console_printf("PcpFree:        %8lu kB\n", K(nr_pcp_pages()));
	console_printf("KReclaimable:   %8lu kB\n", K(reclaimable));
	console_printf("Slab:           %8lu kB\n", K(slab));
	console_printf("SReclaimable:   %8lu kB\n", K(reclaimable));
	console_printf("SUnreclaim:     %8lu kB\n", K(slab - reclaimable));
	console_printf("MemMap:         %8lu kB\n", vmemmap_bytes >> 10);
	vmalloc_get_stats(&vm);
	console_printf("VmallocTotal:   %8lu kB\n", VMALLOC_TOTAL >> 10);
	console_printf("VmallocUsed:    %8lu kB\n", K(vm.nr_pages));
	console_printf("VmallocChunk:   %8lu kB\n", vm.largest_free >> 10);
	return 0;
}
SHELL_CMD("meminfo", cmd_meminfo, "memory usage (/proc/meminfo)");

static int cmd_buddyinfo(int argc, char **argv)
{
	struct zone *zone;

	(void)argc;
	(void)argv;
	for_each_zone(zone) {
		if (!populated_zone(zone))
			continue;
		console_printf("Node %d, zone %8s ", zone_to_nid(zone),
			       zone->name);
		for (int order = 0; order < MAX_ORDER; order++)
			console_printf("%6lu ", zone->free_area[order].nr_free);
		console_printf("\n");
	}
	return 0;
}
SHELL_CMD("buddyinfo", cmd_buddyinfo, "free blocks per order (/proc/buddyinfo)");

static void print_zone(const struct zone *zone)
{
	unsigned int cpu;

	console_printf("Node %d, zone %8s\n", zone_to_nid(zone), zone->name);
	console_printf("  pages free     %lu\n", zone->free_pages);
	console_printf("        min      %lu\n", min_wmark_pages(zone));
	console_printf("        low      %lu\n", low_wmark_pages(zone));
	console_printf("        high     %lu\n", high_wmark_pages(zone));
	console_printf("        spanned  %lu\n", zone->spanned_pages);
	console_printf("        present  %lu\n", zone->present_pages);
	console_printf("        managed  %lu\n", zone->managed_pages);
	console_printf("  pagesets\n");
	for_each_possible_cpu(cpu) {
		const struct per_cpu_pages *pcp = &zone->pcp[cpu];

		if (cpu && !pcp_pages(pcp))
			continue;
		console_printf("    cpu: %d\n", cpu);
		console_printf("              count: %lu\n", pcp_pages(pcp));
		console_printf("              high:  %lu\n", (unsigned long)pcp->high);
		console_printf("              batch: %d\n", pcp->batch);
	}
	console_printf("  start_pfn:           %lu\n", zone->zone_start_pfn);
}

static int cmd_zoneinfo(int argc, char **argv)
{
	struct zone *zone;

	(void)argc;
	(void)argv;
	for_each_zone(zone) {
		if (populated_zone(zone))
			print_zone(zone);
		else
			console_printf("Node %d, zone %8s\n  pages free     0\n",
				       zone_to_nid(zone), zone->name);
	}
	return 0;
}
SHELL_CMD("zoneinfo", cmd_zoneinfo, "zone counters and watermarks (/proc/zoneinfo)");

/*
 * slabinfo: every cache; slabinfo NAME: one; slabinfo NAME LIMIT
 * BATCHCOUNT SHAREDFACTOR: tune it (Linux's write to /proc/slabinfo).
 */
static int cmd_slabinfo(int argc, char **argv)
{
	if (argc == 5)
		return slabinfo_write(argv[1], argv[2], argv[3], argv[4]);
	if (argc > 2) {
		console_printf("usage: slabinfo [NAME [LIMIT BATCHCOUNT SHAREDFACTOR]]\n");
		return -EINVAL;
	}
	if (slabinfo_show(argc == 2 ? argv[1] : NULL)) {
		console_printf("slabinfo: no cache named '%s'\n", argv[1]);
		return -ENOENT;
	}
	return 0;
}
SHELL_CMD("slabinfo", cmd_slabinfo,
	  "slab caches (/proc/slabinfo 2.1): slabinfo [NAME [LIMIT BATCHCOUNT SHAREDFACTOR]]");

/* The NUMA events' names in /sys/devices/system/node/nodeN/numastat. */
static const char *const node_numa_names[NR_VM_NUMA_EVENT_ITEMS] = {
	[NUMA_HIT] = "numa_hit",
	[NUMA_MISS] = "numa_miss",
	[NUMA_FOREIGN] = "numa_foreign",
	[NUMA_INTERLEAVE_HIT] = "interleave_hit",
	[NUMA_LOCAL] = "local_node",
	[NUMA_OTHER] = "other_node",
};

/* ... and in /proc/vmstat. */
static const char *const vmstat_numa_names[NR_VM_NUMA_EVENT_ITEMS] = {
	[NUMA_HIT] = "numa_hit",
	[NUMA_MISS] = "numa_miss",
	[NUMA_FOREIGN] = "numa_foreign",
	[NUMA_INTERLEAVE_HIT] = "numa_interleave",
	[NUMA_LOCAL] = "numa_local",
	[NUMA_OTHER] = "numa_other",
};

static unsigned long global_numa_event(enum numa_stat_item item)
{
	struct pglist_data *pgdat;
	unsigned long sum = 0;

	for_each_online_pgdat(pgdat)
		sum += node_numa_event(pgdat->node_id, item);
	return sum;
}

/* The numastat tool's table: a column per node, a row per counter. */
static void numastat_table(void)
{
	struct pglist_data *pgdat;
	char name[16];

	console_printf("%-16s", "");
	for_each_online_pgdat(pgdat) {
		snprintf(name, sizeof(name), "node%d", pgdat->node_id);
		console_printf("%16s", name);
	}
	console_printf("\n");
	for (int i = 0; i < NR_VM_NUMA_EVENT_ITEMS; i++) {
		console_printf("%-16s", node_numa_names[i]);
		for_each_online_pgdat(pgdat)
			console_printf("%16lu", node_numa_event(pgdat->node_id,
						(enum numa_stat_item)i));
		console_printf("\n");
	}
}

/*
 * numastat: the table; numastat N: node N's counters, a "name value"
 * line each (/sys/devices/system/node/nodeN/numastat).
 */
static int cmd_numastat(int argc, char **argv)
{
	unsigned long nid;

	if (argc == 1) {
		numastat_table();
		return 0;
	}
	if (argc == 2) {
		if (!kstrtoul(argv[1], 10, &nid) && nid < MAX_NUMNODES &&
		    NODE_DATA(nid)) {
			for (int i = 0; i < NR_VM_NUMA_EVENT_ITEMS; i++)
				console_printf("%s %lu\n", node_numa_names[i],
					       node_numa_event((int)nid,
						(enum numa_stat_item)i));
			return 0;
		}
		console_printf("numastat: no node %s\n", argv[1]);
		return -EINVAL;
	}
	console_printf("usage: numastat [NODE]\n");
	return -EINVAL;
}
SHELL_CMD("numastat", cmd_numastat,
	  "NUMA allocation counters per node (numastat; numastat N: nodeN/numastat)");

/* /proc/vmstat: "name value" a line; the gauges, then the events. */
static int cmd_vmstat(int argc, char **argv)
{
	unsigned long reclaimable = slab_reclaimable_pages();
	unsigned long slab = max(slab_pages(), reclaimable);

	(void)argv;
	if (argc != 1) {
		console_printf("usage: vmstat\n");
		return -EINVAL;
	}
	/* Linux counts the buddy lists only, not per-CPU lists. */
	console_printf("nr_free_pages %lu\n", nr_free_pages());
	console_printf("nr_slab_reclaimable %lu\n", reclaimable);
	console_printf("nr_slab_unreclaimable %lu\n", slab - reclaimable);
	for (int i = 0; i < NR_VM_NUMA_EVENT_ITEMS; i++)
		console_printf("%s %lu\n", vmstat_numa_names[i],
			       global_numa_event((enum numa_stat_item)i));
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		console_printf("%s %lu\n", vm_event_names[i],
			       global_vm_event((enum vm_event_item)i));
	return 0;
}
SHELL_CMD("vmstat", cmd_vmstat, "reclaim and memory counters (/proc/vmstat)");

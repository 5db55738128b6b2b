// SPDX-License-Identifier: GPL-2.0
/*
 * ACPI SRAT and SLIT parser (srat.h): the NUMA nodes the firmware
 * describes.
 *
 * The SRAT is walked twice, as Linux walks it: the CPU entries (local
 * APIC affinity, type 0, and x2APIC affinity, type 2) first, then the
 * memory affinity entries (type 1), so proximity domains become nodes in
 * order of appearance, CPU domains first. Entries without the enabled
 * flag are skipped and map no domain. A hot-pluggable memory range is
 * kept as its node's memory, marked hotplug (Linux keeps it too, and
 * marks it in memblock); it need not hold RAM at boot. A zero-length
 * memory range is skipped.
 *
 * What makes the tables unusable, each with a message and then "ACPI:
 * SRAT: SRAT not used." (the caller falls back to one node):
 *
 *	- an SRAT or SLIT that is unreadable, too short or has a bad checksum;
 *	- an SRAT entry of a known type with the wrong length, or one that
 *	  runs past the table;
 *	- more proximity domains than MAX_NUMNODES;
 *	- a memory range whose end wraps, or more than NR_NODE_MEMBLKS ranges;
 *	- a SLIT whose localities do not fit in it, whose diagonal is not
 *	  LOCAL_DISTANCE or that has a distance <= LOCAL_DISTANCE elsewhere
 *	  (Linux's slit_valid(); an asymmetric SLIT is valid), or that lacks
 *	  a domain the SRAT uses (Linux would use default distances for
 *	  that one; a partial table is taken as a broken one here).
 *
 * Overlapping ranges, ranges without RAM and CPUs in no node are the
 * caller's checks (mm/numa.c), which also apply to numa=fake. Without a
 * SLIT the distances are the defaults (10 local, 20 remote).
 */
#include "arch/x86_64/srat.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

struct srat_state {
	struct numa_topology *topo;
	u8 revision;			/* the SRAT's */
	int nr_nodes;			/* domains mapped so far */
};

/* Linux's acpi_map_pxm_to_node(): a new domain takes the next node id. */
static int acpi_map_pxm_to_node(struct srat_state *st, u32 pxm)
{
	for (int nid = 0; nid < st->nr_nodes; nid++)
		if ((u32)st->topo->node_to_pxm[nid] == pxm)
			return nid;
	if (st->nr_nodes == MAX_NUMNODES)
		return NUMA_NO_NODE;
	st->topo->node_to_pxm[st->nr_nodes] = pxm;
	return st->nr_nodes++;
}

static int map_pxm(struct srat_state *st, u32 pxm)
{
	int nid = acpi_map_pxm_to_node(st, pxm);

	if (nid == NUMA_NO_NODE)
		pr_err("ACPI: SRAT: Too many proximity domains (PXM %u, at most %d)\n",
		       pxm, MAX_NUMNODES);
	return nid;
}

static int srat_cpu(struct srat_state *st, u32 pxm, u32 apic_id, bool x2apic)
{
	int nid = map_pxm(st, pxm);
	int err;

	if (nid == NUMA_NO_NODE)
		return -EINVAL;
	st->topo->nodes_parsed |= 1UL << nid;
	err = numa_set_apicid_node(st->topo, apic_id, nid);
	if (err == -EEXIST) {
		pr_warn("SRAT: APIC 0x%02x listed twice, the later entry (PXM %u) ignored\n",
			apic_id, pxm);
		return 0;
	}
	if (err == -ENOSPC) {
		pr_warn("SRAT: PXM %u -> APIC 0x%02x -> Node %d skipped, more than NR_CPUS (%d) CPUs\n",
			pxm, apic_id, nid, NR_CPUS);
		return 0;
	}
	if (x2apic)
		pr_info("SRAT: PXM %u -> APIC 0x%04x -> Node %d\n", pxm,
			apic_id, nid);
	else
		pr_info("SRAT: PXM %u -> APIC 0x%02x -> Node %d\n", pxm,
			apic_id, nid);
	return 0;
}

/* Type 0: u8 pxm_lo, u8 apic_id, u32 flags, u8 sapic_eid, u8 pxm_hi[3] */
static int srat_lapic(struct srat_state *st, const u8 *e)
{
	u32 pxm = e[2];

	if (!(acpi_get_u32(e + 4) & ACPI_SRAT_CPU_ENABLED))
		return 0;
	if (st->revision >= 2)
		pxm |= (u32)e[9] << 8 | (u32)e[10] << 16 | (u32)e[11] << 24;
	return srat_cpu(st, pxm, e[3], false);
}

/* Type 2: u16 reserved, u32 pxm, u32 x2apic_id, u32 flags */
static int srat_x2apic(struct srat_state *st, const u8 *e)
{
	if (!(acpi_get_u32(e + 12) & ACPI_SRAT_CPU_ENABLED))
		return 0;
	return srat_cpu(st, acpi_get_u32(e + 4), acpi_get_u32(e + 8), true);
}

/* Type 1: u32 pxm, u16 reserved, u64 base, u64 length, u32 reserved, u32 flags */
static int srat_memory(struct srat_state *st, const u8 *e)
{
	u32 pxm = acpi_get_u32(e + 2), flags = acpi_get_u32(e + 28);
	u64 start = acpi_get_u64(e + 8), len = acpi_get_u64(e + 16);
	bool hotplug = flags & ACPI_SRAT_MEM_HOT_PLUGGABLE;
	int nid;

	if (!(flags & ACPI_SRAT_MEM_ENABLED) || !len)
		return 0;
	if (st->revision <= 1)
		pxm &= 0xff;
	nid = map_pxm(st, pxm);
	if (nid == NUMA_NO_NODE)
		return -EINVAL;
	if (start + len < start ||
	    numa_add_memblk_to(nid, start, start + len, hotplug,
			       &st->topo->meminfo)) {
		pr_err("ACPI: SRAT: Failed to add memblk to node %d [mem 0x%08lx-0x%08lx]\n",
		       nid, start, start + len - 1);
		return -EINVAL;
	}
	st->topo->nodes_parsed |= 1UL << nid;
	pr_info("ACPI: SRAT: Node %d PXM %u [mem 0x%08lx-0x%08lx]%s%s\n",
		nid, pxm, start, start + len - 1, hotplug ? " hotplug" : "",
		flags & ACPI_SRAT_MEM_NON_VOLATILE ? " non-volatile" : "");
	return 0;
}

struct srat_entry_type {
	u8 len;		/* the length the entry must have */
	bool exact;	/* exactly len (Linux's rule for type 0), else >= */
	bool cpu;	/* walked in the first pass */
	int (*parse)(struct srat_state *st, const u8 *e);
};

static const struct srat_entry_type srat_types[] = {
	[ACPI_SRAT_TYPE_CPU_AFFINITY]		= { 16, true, true, srat_lapic },
	[ACPI_SRAT_TYPE_MEMORY_AFFINITY]	= { 40, false, false, srat_memory },
	[ACPI_SRAT_TYPE_X2APIC_CPU_AFFINITY]	= { 24, false, true, srat_x2apic },
};

static const struct srat_entry_type *srat_type(u8 type)
{
	return type < ARRAY_SIZE(srat_types) ? &srat_types[type] : NULL;
}

/* Every entry inside the table and as long as its type needs. */
static int srat_check_entries(const u8 *t, u32 len)
{
	for (u32 off = ACPI_SRAT_HDR_SIZE; off < len; off += t[off + 1]) {
		const struct srat_entry_type *type;
		u8 elen;

		if (len - off < 2) {
			pr_err("ACPI: SRAT: entry at offset %u cut by the end of the table\n",
			       off);
			return -EINVAL;
		}
		type = srat_type(t[off]);
		elen = t[off + 1];
		if (elen < 2 || elen > len - off ||
		    (type && (type->exact ? elen != type->len : elen < type->len))) {
			pr_err("ACPI: SRAT: Unexpected header length: %u (type %u at offset %u)\n",
			       elen, t[off], off);
			return -EINVAL;
		}
	}
	return 0;
}

static int srat_walk(struct srat_state *st, const u8 *t, u32 len, bool cpu)
{
	for (u32 off = ACPI_SRAT_HDR_SIZE; off < len; off += t[off + 1]) {
		const struct srat_entry_type *type = srat_type(t[off]);

		if (type && type->cpu == cpu && type->parse(st, t + off))
			return -EINVAL;
	}
	return 0;
}

static const char *acpi_problem_text(u32 problems)
{
	if (problems & ACPI_E_CHECKSUM)
		return "bad checksum";
	if (problems & ACPI_E_LENGTH)
		return "bad length";
	return "not readable";
}

/* --- SLIT ---------------------------------------------------------------- */

static bool slit_valid(const u8 *d, u64 cnt)
{
	for (u64 i = 0; i < cnt; i++) {
		for (u64 j = 0; j < cnt; j++) {
			u8 v = d[i * cnt + j];

			if (i == j ? v != LOCAL_DISTANCE : v <= LOCAL_DISTANCE)
				return false;
		}
	}
	return true;
}

static int acpi_parse_slit(const struct acpi_parse_args *args,
			   struct srat_state *st)
{
	struct numa_topology *topo = st->topo;
	u32 len, problems;
	const u8 *t = acpi_find_table(args, "SLIT", &len, &problems);
	const u8 *d;
	u64 cnt;

	if (!t && !problems)
		return 0;	/* default distances */
	if (!t) {
		pr_err("ACPI: SLIT: %s\n", acpi_problem_text(problems));
		return -EINVAL;
	}
	cnt = len >= ACPI_SLIT_HDR_SIZE ? acpi_get_u64(t + 36) : 0;
	if (!cnt || cnt > len || cnt * cnt > len - ACPI_SLIT_HDR_SIZE) {
		pr_err("ACPI: SLIT: %lu localities do not fit in its %u bytes\n",
		       cnt, len);
		return -EINVAL;
	}
	d = t + ACPI_SLIT_HDR_SIZE;
	if (!slit_valid(d, cnt)) {
		pr_err("ACPI: SLIT table looks invalid. Not used.\n");
		return -EINVAL;
	}
	for (int i = 0; i < st->nr_nodes; i++) {
		u32 pxm = topo->node_to_pxm[i];

		if (pxm >= cnt) {
			pr_err("ACPI: SLIT: PXM %u (node %d) missing, the SLIT has %lu localities\n",
			       pxm, i, cnt);
			return -EINVAL;
		}
	}
	for (int i = 0; i < st->nr_nodes; i++)
		for (int j = 0; j < st->nr_nodes; j++)
			topo->numa_distance[i][j] =
				d[topo->node_to_pxm[i] * cnt + topo->node_to_pxm[j]];
	topo->numa_distance_cnt = st->nr_nodes;
	return 0;
}

/* --- SRAT ---------------------------------------------------------------- */

static int acpi_parse_srat(const struct acpi_parse_args *args,
			   struct srat_state *st)
{
	u32 len, problems;
	const u8 *t = acpi_find_table(args, "SRAT", &len, &problems);

	if (!t && !problems)
		return -ENOENT;
	if (!t) {
		pr_err("ACPI: SRAT: %s\n", acpi_problem_text(problems));
		return -EINVAL;
	}
	if (len < ACPI_SRAT_HDR_SIZE) {
		pr_err("ACPI: SRAT: length %u too small\n", len);
		return -EINVAL;
	}
	st->revision = t[8];
	if (srat_check_entries(t, len) || srat_walk(st, t, len, true) ||
	    srat_walk(st, t, len, false))
		return -EINVAL;
	if (!st->nr_nodes) {
		pr_err("ACPI: SRAT: no enabled entry\n");
		return -EINVAL;
	}
	return 0;
}

int acpi_numa_init(const struct acpi_parse_args *args,
		   struct numa_topology *topo)
{
	struct srat_state st = { .topo = topo };
	int err = acpi_parse_srat(args, &st);

	if (!err)
		err = acpi_parse_slit(args, &st);
	if (err == -EINVAL)
		pr_err("ACPI: SRAT: SRAT not used.\n");
	return err;
}

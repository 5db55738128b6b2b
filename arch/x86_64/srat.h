/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ACPI SRAT (which CPUs and memory ranges belong to which proximity
 * domain) and SLIT (the distances between the domains), read into a
 * NUMA topology (mm/numa.h). Pure, as acpi_parse() is: the tables are
 * reached through the caller's map callback, so the host tests the
 * parser on synthetic tables.
 */
#ifndef ARCH_X86_64_SRAT_H
#define ARCH_X86_64_SRAT_H

#include "arch/x86_64/acpi.h"
#include "mm/numa.h"

#define ACPI_SRAT_HDR_SIZE	48	/* header, table revision, reserved */
#define ACPI_SLIT_HDR_SIZE	44	/* header, locality count */

/* SRAT entry types and flags (ACPI 6.4, 5.2.16) */
#define ACPI_SRAT_TYPE_CPU_AFFINITY		0
#define ACPI_SRAT_TYPE_MEMORY_AFFINITY		1
#define ACPI_SRAT_TYPE_X2APIC_CPU_AFFINITY	2
#define ACPI_SRAT_CPU_ENABLED			(1U << 0)
#define ACPI_SRAT_MEM_ENABLED			(1U << 0)
#define ACPI_SRAT_MEM_HOT_PLUGGABLE		(1U << 1)
#define ACPI_SRAT_MEM_NON_VOLATILE		(1U << 2)

/*
 * Read the SRAT and SLIT that args' root table lists into *topo (empty
 * on entry): proximity domains become node ids in order of appearance,
 * the CPU entries' first (Linux's acpi_map_pxm_to_node(), which maps
 * them in that order too). 0; -ENOENT if there is no SRAT; -EINVAL
 * (reported, ending with "ACPI: SRAT: SRAT not used.") if the SRAT or
 * SLIT cannot be used. For numa_setup_topology()'s init_func.
 */
int acpi_numa_init(const struct acpi_parse_args *args,
		   struct numa_topology *topo);

#endif /* ARCH_X86_64_SRAT_H */

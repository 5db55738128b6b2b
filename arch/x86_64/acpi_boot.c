// SPDX-License-Identifier: GPL-2.0
/*
 * The boot glue of the ACPI parser (acpi.c): at the end of setup_arch(),
 * once the kernel's page tables are in, read the tables from the RSDP
 * GRUB copied (multiboot2), reaching them through the direct map, into
 * which x86_map_firmware() maps the firmware's (non-RAM) pages on
 * demand. The result is kept in boot_madt (x86_boot_madt); the APIC ID of
 * the boot CPU comes from CPUID. Also reads the number of CPUs QEMU
 * started from its fw_cfg device, which the acpi_boot test compares with
 * the MADT, and the `acpi` shell command. x86_numa_init() reads the
 * SRAT and SLIT into the NUMA topology (mm/numa.c) once the MADT has
 * listed the CPUs.
 */
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/srat.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/x86.h"
#include "kernel/cpumask.h"
#include "kernel/printk.h"
#include "kernel/shell.h"
#include "lib/string.h"

#define FW_CFG_PORT_SEL		0x510
#define FW_CFG_PORT_DATA	0x511
#define FW_CFG_SIGNATURE	0x00
#define FW_CFG_NB_CPUS		0x05

static struct x86_madt boot_madt;
static struct acpi_parse_args boot_args;

static const void *acpi_boot_map(u64 phys, u32 len, void *ctx)
{
	return x86_map_firmware(phys, len);
}

/* The boot CPU's APIC ID: x2APIC ID (leaf 0xb) if there is one. */
static u32 boot_cpu_apic_id(void)
{
	u32 a, b, c, d, max;

	cpuid(0, 0, &max, &b, &c, &d);
	if (max >= 0xb) {
		cpuid(0xb, 0, &a, &b, &c, &d);
		if (b)			/* leaf implemented */
			return d;
	}
	cpuid(1, 0, &a, &b, &c, &d);
	return b >> 24;
}

static void fw_cfg_select(u16 key)
{
	__asm__ __volatile__("outw %0, %1" : : "a"(key), "Nd"((u16)FW_CFG_PORT_SEL));
}

/* -1 if there is no QEMU fw_cfg device. */
static int fw_cfg_nb_cpus(void)
{
	char sig[4];
	u16 n;

	fw_cfg_select(FW_CFG_SIGNATURE);
	for (int i = 0; i < 4; i++)
		sig[i] = inb(FW_CFG_PORT_DATA);
	if (memcmp(sig, "QEMU", 4))
		return -1;
	fw_cfg_select(FW_CFG_NB_CPUS);
	n = inb(FW_CFG_PORT_DATA);
	n |= (u16)inb(FW_CFG_PORT_DATA) << 8;
	return n;
}

void acpi_boot_init(void)
{
	u32 len;
	const void *rsdp = x86_acpi_rsdp(&len);

	boot_args = (struct acpi_parse_args){
		.rsdp = rsdp,
		.rsdp_len = rsdp ? len : 0,
		.rsdp_phys = rsdp ? (unsigned long)rsdp - X86_PAGE_OFFSET : 0,
		.boot_apic_id = boot_cpu_apic_id(),
		.map = acpi_boot_map,
	};
	acpi_parse(&boot_args, &boot_madt);
	x86_boot_madt = &boot_madt;
	x86_fw_nr_cpus = fw_cfg_nb_cpus();
}

static int x86_acpi_numa_init(struct numa_topology *topo, void *ctx)
{
	return acpi_numa_init(&boot_args, topo);
}

/* The nodes of the MADT's CPUs (all of them, hotplug ones included). */
void x86_numa_init(void)
{
	u32 ids[NR_CPUS];
	unsigned int n = acpi_cpu_apic_ids(ids, NR_CPUS);

	numa_init(x86_acpi_numa_init, NULL, ids, n);
}

/* Linux's init_cpu_to_node(): each CPU's node by its APIC ID. */
void init_cpu_to_node(void)
{
	struct arch_cpu_info info;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (!arch_cpu_info(cpu, &info))
			numa_set_node(cpu, numa_apicid_to_node(numa_topology(),
							       info.hw_id));
}

static int cmd_acpi(int argc, char **argv)
{
	acpi_print_madt(&boot_madt);
	if (x86_fw_nr_cpus >= 0)
		pr_info("ACPI: QEMU started %d CPUs (fw_cfg)\n", x86_fw_nr_cpus);
	return 0;
}
SHELL_CMD("acpi", cmd_acpi, "the CPUs and interrupt controllers the ACPI MADT lists");

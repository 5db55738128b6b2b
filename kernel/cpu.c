// SPDX-License-Identifier: GPL-2.0
/*
 * The CPU masks and nr_cpu_ids (kernel/cpumask.h), as Linux's
 * cpu.c keeps them. Every mask starts empty and nr_cpu_ids at 1:
 * the arch fills them in (boot_cpu_init() first thing, the possible and
 * present CPUs before mm_core_init(), each CPU's online bit as it comes
 * up). The malloc shim sets its possible CPUs and none online: its CPUs
 * are the application's threads and take no cross-CPU calls.
 */
#include "kernel/bug.h"
#include "kernel/cpumask.h"
#include "kernel/printk.h"

unsigned int nr_cpu_ids = 1;
static unsigned long percpu_bytes;
struct cpumask __cpu_possible_mask;
struct cpumask __cpu_present_mask;
struct cpumask __cpu_online_mask;

void boot_cpu_init(void)
{
	unsigned int cpu = arch_cpu_id();

	set_cpu_possible(cpu, true);
	set_cpu_present(cpu, true);
	set_cpu_online(cpu, true);
}

void set_cpu_possible(unsigned int cpu, bool possible)
{
	BUG_ON(cpu >= NR_CPUS);
	if (possible)
		cpumask_set_cpu(cpu, &__cpu_possible_mask);
	else
		cpumask_clear_cpu(cpu, &__cpu_possible_mask);
}

void set_cpu_present(unsigned int cpu, bool present)
{
	BUG_ON(cpu >= NR_CPUS);
	if (present)
		cpumask_set_cpu(cpu, &__cpu_present_mask);
	else
		cpumask_clear_cpu(cpu, &__cpu_present_mask);
}

/* Release: whoever sees the bit (cpu_online()) sees the CPU set up. */
void set_cpu_online(unsigned int cpu, bool online)
{
	BUG_ON(cpu >= NR_CPUS);
	WARN_ON_ONCE(online && !cpu_possible(cpu));
	if (online)
		set_bit_release(cpu, cpumask_bits(&__cpu_online_mask));
	else
		clear_bit_release(cpu, cpumask_bits(&__cpu_online_mask));
}

/* nr_cpu_ids: one past the highest possible CPU. */
void setup_nr_cpu_ids(void)
{
	unsigned int cpu, last = 0;

	for_each_possible_cpu(cpu)
		last = cpu;
	BUG_ON(!cpu_possible(arch_cpu_id()));
	nr_cpu_ids = last + 1;
}

void percpu_account(size_t bytes)
{
	__atomic_fetch_add(&percpu_bytes, bytes, __ATOMIC_RELAXED);
}

void percpu_print(void)
{
	unsigned long bytes = READ_ONCE(percpu_bytes);

	pr_info("percpu: %lu KiB allocated at boot for nr_cpu_ids %u (%lu bytes/CPU; NR_CPUS %u)\n",
		DIV_ROUND_UP(bytes, 1024), nr_cpu_ids, bytes / nr_cpu_ids,
		(unsigned int)NR_CPUS);
}

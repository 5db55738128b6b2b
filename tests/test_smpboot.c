// SPDX-License-Identifier: GPL-2.0
/*
 * Bring-up of the application processors (arch/x86_64/smpboot.c). Each
 * CPU records at start-up the number arch_cpu_id() gives it, its APIC
 * ID, its GS base and an address on its stack; these cases check that
 * every online CPU has its own, that the online count is what the MADT
 * and the command line (nosmp, maxcpus=) ask for, and that a CPU that
 * does not answer (an APIC ID no CPU has) ends in the timeout path, its
 * INIT and STARTUP IPIs sent with interrupts off, as every IPI must be.
 * The host build's CPUs are threads the kernel does not start: there
 * the cases skip.
 */
#include "arch/arch.h"
#include "arch/x86_64/acpi.h"
#include "kernel/cpumask.h"
#include "kernel/errno.h"
#include "kernel/kernel.h"
#include "kernel/params.h"
#include "lib/ktest/ktest.h"
#include "lib/string.h"

#define AP_STACK_SIZE	16384	/* smpboot.c's AP_STACK_PAGES pages */

static void need_smpboot(struct ktest *t)
{
	struct arch_cpu_info info;

	if (arch_cpu_info(0, &info) == -ENOSYS)
		ktest_skip(t, "the host's CPUs are threads, not started by the kernel");
}

static void test_smpboot_cpus_distinct(struct ktest *t)
{
	struct arch_cpu_info info[NR_CPUS];
	unsigned int n = nr_cpu_ids;

	need_smpboot(t);
	KTEST_ASSERT_GE(t, n, 1U);
	KTEST_ASSERT_LE(t, n, (unsigned int)NR_CPUS);
	KTEST_EXPECT_EQ(t, arch_cpu_id(), 0U);	/* the tests run on the BSP */
	for (unsigned int i = 0; i < n; i++) {
		KTEST_ASSERT_EQ(t, arch_cpu_info(i, &info[i]), 0);
		KTEST_EXPECT_EQ(t, info[i].cpu, i);
		KTEST_EXPECT_NE(t, info[i].percpu_base, 0UL);
		KTEST_EXPECT_NE(t, info[i].stack, 0UL);
	}
	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int j = i + 1; j < n; j++) {
			unsigned long d = info[i].stack > info[j].stack ?
					  info[i].stack - info[j].stack :
					  info[j].stack - info[i].stack;

			KTEST_EXPECT_NE(t, info[i].hw_id, info[j].hw_id);
			KTEST_EXPECT_NE(t, info[i].percpu_base,
					info[j].percpu_base);
			/* Not merely distinct: not within one stack. */
			KTEST_EXPECT_GE(t, d, (unsigned long)AP_STACK_SIZE / 2);
		}
	}
}

/* What the command line asks for: nosmp -> 1, maxcpus=N -> N (0 -> 1). */
static unsigned int cmdline_max_cpus(void)
{
	static char buf[COMMAND_LINE_SIZE];
	char *args = buf, *param, *val;
	unsigned int max = NR_CPUS;

	strscpy(buf, boot_command_line, sizeof(buf));
	while (*args) {
		int n;

		args = next_arg(args, &param, &val);
		if (parameq(param, "nosmp"))
			max = 1;
		else if (parameq(param, "maxcpus") && val &&
			 !kstrtoint(val, 0, &n) && n >= 0)
			max = n ? min((unsigned int)n, (unsigned int)NR_CPUS) : 1;
	}
	return max;
}

static void test_smpboot_online_count(struct ktest *t)
{
	const struct x86_madt *m = x86_boot_madt;
	unsigned int want;

	need_smpboot(t);
	KTEST_ASSERT_NOT_NULL(t, m);
	want = min(m->nr_present, cmdline_max_cpus());
	ktest_info(t, "MADT: %u present, online %u, wanted %u", m->nr_present,
		   nr_cpu_ids, want);
	KTEST_EXPECT_EQ(t, arch_cpus_wanted(), want);
	KTEST_EXPECT_EQ(t, nr_cpu_ids, want);
	if (x86_fw_nr_cpus >= 1 && x86_fw_nr_cpus <= NR_CPUS)
		KTEST_EXPECT_EQ(t, m->nr_present, (unsigned int)x86_fw_nr_cpus);
}

static void test_smpboot_info_bad_cpu(struct ktest *t)
{
	struct arch_cpu_info info;

	need_smpboot(t);
	KTEST_EXPECT_EQ(t, arch_cpu_info(nr_cpu_ids, &info), -EINVAL);
	KTEST_EXPECT_EQ(t, arch_cpu_info(NR_CPUS, &info), -EINVAL);
	KTEST_EXPECT_EQ(t, arch_cpu_info(~0U, &info), -EINVAL);
}

/* An APIC ID the MADT does not list (and no online CPU has). */
static u32 unused_apic_id(void)
{
	u32 id = 0xf0;

	for (unsigned int i = 0; i < x86_boot_madt->nr_cpus; i++)
		if (x86_boot_madt->cpus[i].apic_id >= id)
			id = x86_boot_madt->cpus[i].apic_id + 1;
	return id;
}

static void test_smpboot_missing_cpu_times_out(struct ktest *t)
{
	unsigned int before = nr_cpu_ids;
	struct arch_cpu_info info;
	u32 id;
	int err;

	need_smpboot(t);
	if (arch_cpus_wanted() < 2)
		ktest_skip(t, "no AP was started (one CPU, nosmp or maxcpus=1)");
	id = unused_apic_id();
	if (id > 0xfe)
		ktest_skip(t, "no xAPIC ID left that the MADT does not list");
	if (before == NR_CPUS) {
		/* Every CPU number taken: refused before anything is sent. */
		KTEST_EXPECT_EQ(t, arch_cpu_wakeup_test(id, 100000), -ENOSPC);
		return;
	}
	ktest_capture_start(t, "did not come up");
	err = arch_cpu_wakeup_test(id, 100000);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	/* The INIT and STARTUP IPIs went out with interrupts off. */
	KTEST_EXPECT_NOT_CAPTURED(t, "WARNING:");
	KTEST_EXPECT_EQ(t, err, -ETIMEDOUT);
	KTEST_EXPECT_EQ(t, nr_cpu_ids, before);
	KTEST_EXPECT_EQ(t, arch_cpu_info(before, &info), -EINVAL);
}

static void test_smpboot_wakeup_bad_input(struct ktest *t)
{
	struct arch_cpu_info info;

	need_smpboot(t);
	KTEST_ASSERT_EQ(t, arch_cpu_info(0, &info), 0);
	/* Never INIT a running CPU. */
	KTEST_EXPECT_EQ(t, arch_cpu_wakeup_test(info.hw_id, 1000), -EBUSY);
	if (nr_cpu_ids > 1) {
		KTEST_ASSERT_EQ(t, arch_cpu_info(1, &info), 0);
		KTEST_EXPECT_EQ(t, arch_cpu_wakeup_test(info.hw_id, 1000),
				-EBUSY);
	}
	KTEST_EXPECT_EQ(t, arch_cpu_wakeup_test(0x100, 1000), -EINVAL);
	KTEST_EXPECT_EQ(t, arch_cpu_wakeup_test(~0U, 1000), -EINVAL);
	KTEST_EXPECT_EQ(t, arch_cpu_wakeup_test(0xfe, 10000000UL), -EINVAL);
}

/*
 * Each IPI's two ICR writes need interrupts off: the helper that makes
 * them reports a call with them on (and then turns them off itself).
 */
static void test_smpboot_icr_write_irqs_on(struct ktest *t)
{
	unsigned long flags;
	int err;

	ktest_capture_start(t, "WARNING:");
	err = arch_icr_write_irqs_on_test();
	if (err == -ENOSYS) {
		ktest_capture_stop(t);
		ktest_skip(t, "no local APIC (the host)");
	}
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_EQ(t, err, 0);
	KTEST_EXPECT_CAPTURED(t, "with interrupts on");
	/* With them off it is refused, and nothing is said. */
	ktest_capture_start(t, "WARNING:");
	flags = arch_irq_save();
	err = arch_icr_write_irqs_on_test();
	arch_irq_restore(flags);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 0U);
	KTEST_EXPECT_EQ(t, err, -EINVAL);
}

static struct ktest_case smpboot_cases[] = {
	KTEST_CASE(test_smpboot_cpus_distinct),
	KTEST_CASE(test_smpboot_online_count),
	KTEST_CASE(test_smpboot_info_bad_cpu),
	KTEST_CASE(test_smpboot_missing_cpu_times_out),
	KTEST_CASE(test_smpboot_wakeup_bad_input),
	KTEST_CASE(test_smpboot_icr_write_irqs_on),
	{}
};
KTEST_SUITE(smpboot, smpboot_cases);

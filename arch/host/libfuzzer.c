// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer drives the allocator fuzz target (make fuzz-lf). This file
 * is linked only into build/fuzz-lf/cram, with clang's
 * libclang_rt.fuzzer_no_main (the Makefile's HOST_LIBFUZZER):
 *
 *   build/fuzz-lf/cram [PARAMS] libfuzzer -- [LIBFUZZER FLAGS] [CORPUS...]
 *
 * The host program boots the kernel as always (main(), start_kernel());
 * the "libfuzzer" parameter's boot_run() then hands the boot CPU's
 * thread to LLVMFuzzerRunDriver(), which calls LLVMFuzzerTestOneInput(),
 * hence fuzz_one_input() (fuzz/fuzz.h), for each input in the context
 * fuzz= runs in: CPU 0, interrupts on, the other CPUs idle and taking
 * interrupts. An input that fails aborts: libFuzzer's SIGABRT handler
 * saves it as crash-<sha1> under its -artifact_prefix. Its bytes are an
 * input as fuzzfile= reads it, so the ordinary host build replays it.
 *
 * Signals: the kernel's interrupts are SIGUSR1 (IPIs) and SIGVTALRM (the
 * tick), SIGUSR2 stops the CPUs at a panic; their handlers are installed
 * at boot, and libFuzzer leaves a signal alone when it has one (SIGSEGV:
 * it passes the fault to the host's probe handler first). libFuzzer's
 * unit timeout is SIGALRM from an ITIMER_REAL timer, sent to the
 * process: the other CPUs block SIGALRM first, so it lands on this
 * thread (or libFuzzer's RSS thread) and never cuts into a CPU thread.
 *
 * libFuzzer runs itself again for -merge=1 (and -fork=, -jobs=) as the
 * shell command "argv[0] FLAGS...": argv[0] is therefore this program,
 * the kernel command line and "--", so the child boots the same kernel
 * and goes to libFuzzer too.
 *
 * The run prints KTAP, one test, "ok 1 libfuzzer" when libFuzzer ends
 * with exit(0) (its -max_total_time= or -runs= reached); a finding, a
 * crash or a sanitizer report ends the process with libFuzzer's error
 * status and no result.
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mm/kfence.h"
#include <string.h>

#include "arch/arch.h"
#include "fuzz/fuzz.h"
#include "kernel/bug.h"
#include "kernel/cpumask.h"
#include "kernel/errno.h"
#include "kernel/params.h"
#include "kernel/printk.h"

int LLVMFuzzerRunDriver(int *argc, char ***argv,
			int (*cb)(const uint8_t *data, size_t size));
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool libfuzzer_requested;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fuzz_one_input(data, size)) {
		fprintf(stderr, "libfuzzer: fuzz_one_input() failed (the fuzz: line above)\n");
		fflush(stdout);
		abort();
	}
	return 0;
}

static void block_sigalrm(void *unused)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

/* Every CPU but this one blocks libFuzzer's SIGALRM. */
static void other_cpus_block_sigalrm(void)
{
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		if (cpu == arch_cpu_id())
			continue;
		BUG_ON(arch_cpu_run(cpu, block_sigalrm, NULL));
		arch_cpu_join(cpu);
	}
}

/* libFuzzer's argv: argv[0] runs this kernel again (see above), flags. */
static char **libfuzzer_argv(int *argc)
{
	size_t len = strlen(host_prog) + strlen(arch_cmdline()) + 5;
	char **argv;
	int n = 0;

	while (host_argv[n])
		n++;
	argv = calloc((size_t)n + 2, sizeof(*argv));
	BUG_ON(!argv);
	argv[0] = malloc(len);
	BUG_ON(!argv[0]);
	snprintf(argv[0], len, "%s %s --", host_prog, arch_cmdline());
	for (int i = 0; i < n; i++)
		argv[i + 1] = host_argv[i];
	*argc = n + 1;
	return argv;
}

/* libFuzzer ends a run that found nothing with exit(0). */
static void libfuzzer_done(void)
{
	printf("# libfuzzer: %lu allocator operations\nok 1 libfuzzer\n",
	       fuzz_nr_ops);
	fflush(stdout);
}

static void libfuzzer_boot(void)
{
	char **argv;
	int argc;

	if (!libfuzzer_requested)
		return;
	kfence_sample_interval_set(0);	/* the checks count every object */
	other_cpus_block_sigalrm();
	argv = libfuzzer_argv(&argc);
	printf("KTAP version 1\n1..1\n");
	fflush(stdout);
	atexit(libfuzzer_done);
	LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
	pr_err("libfuzzer: LLVMFuzzerRunDriver() returned\n");
	arch_exit(ARCH_EXIT_FAILURE);
}
boot_run(libfuzzer_boot);

kernel_param_flag("libfuzzer", libfuzzer_requested);

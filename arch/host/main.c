// SPDX-License-Identifier: GPL-2.0
/*
 * The arch interface for an ordinary Linux process (like Linux's arch/um).
 *
 * main() joins its arguments into the kernel command line and calls
 * start_kernel(). The console is stdin/stdout, time is CLOCK_MONOTONIC,
 * arch_exit() is exit(), and CPUs other than 0 are threads started by
 * arch_cpu_run(), each knowing its number through host_cpu_id. This file is the only one of the host build that
 * includes libc headers: the kernel's own string functions are renamed in
 * the host objects (see the Makefile), so both live side by side.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arch/arch.h"
#include "kernel/kernel.h"

#define HOST_STACK_SIZE		(8UL << 20)

const char arch_name[] = "host";
__thread unsigned int host_cpu_id __attribute__((tls_model("local-exec")));

#define HOST_STOP_SIGNAL	SIGUSR2

static char cmdline[2048];
static pthread_t cpu0_thread;		/* main(): CPU 0 */
static unsigned int cpus_stopped;
static u64 boot_ns;
static unsigned long stack_top;

static u64 monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

static void join_args(int argc, char **argv)
{
	size_t len = 0;

	for (int i = 1; i < argc; i++) {
		int n = snprintf(cmdline + len, sizeof(cmdline) - len, "%s%s",
				 i > 1 ? " " : "", argv[i]);

		if (n < 0 || (size_t)n >= sizeof(cmdline) - len) {
			fprintf(stderr, "host: command line too long\n");
			exit(2);
		}
		len += (size_t)n;
	}
}

int main(int argc, char **argv)
{
	char here;

	stack_top = (unsigned long)&here;
	cpu0_thread = pthread_self();
	host_irq_off = 1;	/* as a CPU boots; arch_irq_init() */
	boot_ns = monotonic_ns();
	setvbuf(stdout, NULL, _IOLBF, 0);
	join_args(argc, argv);
	start_kernel();
}

void arch_console_write(const char *s, size_t len)
{
	fwrite(s, 1, len, stdout);
}

int arch_console_getc(void)
{
	int c;

	fflush(stdout);
	c = getchar();
	return c == EOF ? -1 : c;
}

u64 arch_clock_ns(void)
{
	return monotonic_ns() - boot_ns;
}

u64 arch_cycles(void)
{
	u32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

const char *arch_cmdline(void)
{
	return cmdline;
}

__noreturn void arch_exit(enum arch_exit_status status)
{
	fflush(stdout);
	exit(status == ARCH_EXIT_SUCCESS ? 0 : 1);
}

__noreturn void arch_halt(void)
{
	fflush(stdout);
	abort();
}

__noreturn void arch_emergency_restart(void)
{
	fflush(stdout);
	abort();
}

bool arch_on_stack(unsigned long addr, size_t size)
{
	return addr + size <= stack_top && addr >= stack_top - HOST_STACK_SIZE &&
	       addr + size > addr;
}

unsigned int arch_nr_cpus(void)
{
	return NR_CPUS;
}

/* CPUs 1..NR_CPUS-1 are threads, started on demand. */
struct host_cpu {
	pthread_t thread;
	bool running;
	void (*fn)(void *arg);
	void *arg;
	unsigned int id;
};

static struct host_cpu host_cpus[NR_CPUS];

static void *host_cpu_main(void *data)
{
	struct host_cpu *c = data;

	host_cpu_id = c->id;
	c->fn(c->arg);
	return NULL;
}

int arch_cpu_run(unsigned int cpu, void (*fn)(void *arg), void *arg)
{
	struct host_cpu *c;

	if (cpu == 0 || cpu >= NR_CPUS)
		return -EINVAL;
	c = &host_cpus[cpu];
	if (c->running)
		return -EBUSY;
	c->fn = fn;
	c->arg = arg;
	c->id = cpu;
	if (pthread_create(&c->thread, NULL, host_cpu_main, c))
		return -EAGAIN;
	c->running = true;
	return 0;
}

void arch_cpu_join(unsigned int cpu)
{
	struct host_cpu *c = &host_cpus[cpu];

	if (cpu < NR_CPUS && c->running) {
		pthread_join(c->thread, NULL);
		c->running = false;
	}
}

/* The CPUs are threads: no start-up record (see arch/arch.h). */
int arch_cpu_info(unsigned int cpu, struct arch_cpu_info *info)
{
	(void)cpu;
	(void)info;
	return -ENOSYS;
}

unsigned int arch_cpus_wanted(void)
{
	return 0;
}

int arch_cpu_wakeup_test(u32 hw_id, unsigned long timeout_us)
{
	(void)hw_id;
	(void)timeout_us;
	return -ENOSYS;
}

/*
 * Stopping CPUs for a panic: the panicking thread sends HOST_STOP_SIGNAL
 * to the thread of every other CPU that runs (CPU 0 is main()'s thread;
 * the others run while arch_cpu_run() work is on them), whose handler
 * counts itself stopped and parks with every signal blocked. The process
 * ends when the panicking thread calls arch_exit().
 */
static __noreturn void park_thread(void)
{
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, NULL);
	for (;;)
		sigsuspend(&all);
}

static void stop_signal(int sig)
{
	(void)sig;
	__atomic_fetch_add(&cpus_stopped, 1, __ATOMIC_SEQ_CST);
	park_thread();
}

unsigned int arch_stop_other_cpus(unsigned long timeout_us)
{
	struct sigaction sa = { .sa_handler = stop_signal };
	unsigned int this = host_cpu_id, sent = 0, stopped;
	u64 end = monotonic_ns() + (u64)timeout_us * 1000;

	sigfillset(&sa.sa_mask);
	sigaction(HOST_STOP_SIGNAL, &sa, NULL);
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		pthread_t thread = cpu0_thread;

		if (cpu == this)
			continue;
		if (cpu) {
			if (!__atomic_load_n(&host_cpus[cpu].running,
					     __ATOMIC_ACQUIRE))
				continue;
			thread = host_cpus[cpu].thread;
		}
		sent += !pthread_kill(thread, HOST_STOP_SIGNAL);
	}
	do {
		stopped = __atomic_load_n(&cpus_stopped, __ATOMIC_SEQ_CST);
	} while (stopped < sent && monotonic_ns() < end);
	return sent - min(sent, stopped);
}

__noreturn void arch_stop_this_cpu(void)
{
	fflush(stdout);
	park_thread();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The arch interface for an ordinary Linux process (like Linux's arch/um).
 *
 * main() joins its arguments into the kernel command line and calls
 * start_kernel(). Arguments after a "--" are not the kernel's: they stay
 * in host_argv for the host code that wants them (arch/host/libfuzzer.c
 * passes them to libFuzzer). The console is stdin/stdout, time is CLOCK_MONOTONIC,
 * arch_exit() is exit(). This file is the only one of the host build that
 * includes libc headers: the kernel's own string functions are renamed in
 * the host objects (see the Makefile), so both live side by side.
 *
 * CPUs: the boot thread is CPU 0; before start_kernel() main() starts
 * one thread for each other CPU, HOST_DEFAULT_CPUS in all or as many as
 * "nr_cpus=N" on the command line says (1..NR_CPUS; main() reads it
 * itself, the threads start before the kernel parses anything). Those
 * are the possible and present CPUs (kernel/cpumask.h); each thread
 * lives as long as the program and
 * knows its number through host_this_cpu.id. Each registers as its CPU's
 * interrupt target (host_irq_cpu_online(), arch/host/irq.c), so every
 * CPU takes cross-CPU calls at any time, whether a test gives it work or
 * not. A CPU thread idles as an x86_64 AP does: host_safe_halt() is its
 * "sti; hlt" (an interrupt's signal runs its handler there), and the
 * tick stops while it idles (kernel/time.c). arch_cpu_run() hands it a
 * function and wakes it with RESCHEDULE_VECTOR; it runs the function
 * and idles again; arch_cpu_join() waits for that.
 */
#define _GNU_SOURCE	/* pthread_getattr_np() */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "arch/arch.h"
#include "kernel/cpumask.h"
#include "kernel/kernel.h"
#include "kernel/params.h"
#include "kernel/rcupdate.h"
#include "kernel/time.h"

#define HOST_STACK_SIZE		(8UL << 20)
#define CPU_JOIN_TIMEOUT_S	120	/* as x86_64's arch_cpu_join() */
#define CPU_START_TIMEOUT_S	10
#define HOST_DEFAULT_CPUS	min(8U, (unsigned int)NR_CPUS)

const char arch_name[] = "host";

static char cmdline[2048];
const char *host_prog;
char **host_argv;

static void host_cpus_start(unsigned int nr);
static u64 boot_ns;
/* This thread's stack, from the caller of host_stack_bounds() down. */
static __thread unsigned long stack_lo, stack_top;

/*
 * The stack a frame walk may read (arch_stack_bounds()): from top, an
 * address in the thread's outermost kernel function, down to the end of
 * the thread's stack as pthreads says (HOST_STACK_SIZE if it cannot).
 */
static void host_stack_bounds(unsigned long top)
{
	pthread_attr_t attr;
	size_t size = 0;
	void *lo = NULL;

	stack_top = top;
	stack_lo = top - HOST_STACK_SIZE;
	if (pthread_getattr_np(pthread_self(), &attr))
		return;
	if (!pthread_attr_getstack(&attr, &lo, &size) && lo &&
	    (unsigned long)lo < top)
		stack_lo = (unsigned long)lo;
	pthread_attr_destroy(&attr);
}

static u64 monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/* "nr_cpus=N" among the arguments: N, checked; else the default. */
static unsigned int host_nr_cpus(int argc, char **argv)
{
	unsigned int nr = HOST_DEFAULT_CPUS;

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		char *end;
		unsigned long n;

		if (strncmp(argv[i], "nr_cpus=", 8))
			continue;
		n = strtoul(argv[i] + 8, &end, 10);
		if (end == argv[i] + 8 || *end || n < 1 || n > NR_CPUS) {
			fprintf(stderr, "host: %s: 1..%u CPUs (NR_CPUS)\n",
				argv[i], (unsigned int)NR_CPUS);
			exit(2);
		}
		nr = (unsigned int)n;
	}
	return nr;
}

/* The arguments before "--" make the command line; host_argv: the rest. */
static void join_args(int argc, char **argv)
{
	size_t len = 0;

	host_prog = argv[0];
	host_argv = argv + argc;
	for (int i = 1; i < argc; i++) {
		int n;

		if (!strcmp(argv[i], "--")) {
			host_argv = argv + i + 1;
			break;
		}
		n = snprintf(cmdline + len, sizeof(cmdline) - len, "%s%s",
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

	host_stack_bounds((unsigned long)&here);
	host_this_cpu.irq_off = 1;	/* as a CPU boots; arch_irq_init() */
	boot_ns = monotonic_ns();
	setvbuf(stdout, NULL, _IOLBF, 0);
	join_args(argc, argv);
	host_cpus_start(host_nr_cpus(argc, argv));
	start_kernel();
}

/*
 * After a panic stopped the other CPUs, one of them may be parked inside
 * stdio holding stdout's lock: from then on the console is write(2) on
 * the file descriptor, and the exit skips stdio's flush.
 */
static bool console_raw;

void host_console_raw(void)
{
	WRITE_ONCE(console_raw, true);
}

void arch_console_write(const char *s, size_t len)
{
	if (READ_ONCE(console_raw)) {
		while (len) {
			ssize_t n = write(STDOUT_FILENO, s, len);

			if (n <= 0)
				return;
			s += n;
			len -= (size_t)n;
		}
		return;
	}
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

u64 arch_cpu_time_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
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
	int code = status == ARCH_EXIT_SUCCESS ? 0 : 1;

	if (READ_ONCE(console_raw))
		_exit(code);
	fflush(stdout);
	exit(code);
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

bool arch_stack_bounds(unsigned long addr, unsigned long *lo,
		       unsigned long *hi)
{
	*lo = stack_lo;
	*hi = stack_top;
	return addr >= stack_lo && addr < stack_top;
}


/* "nr_cpus=": main() has used it already (host_nr_cpus()). */
static int nr_cpus_setup(char *val)
{
	return val ? 0 : -EINVAL;
}
kernel_param("nr_cpus", nr_cpus_setup);

/* CPUs 1..nr_cpu_ids - 1: one thread each, idle until given work. */
struct host_cpu {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool busy;		/* arch_cpu_run() until arch_cpu_join() */
	void (*fn)(void *arg);	/* set: to run; cleared when it returned */
	void *arg;
	unsigned int id;
};

static struct host_cpu host_cpus[NR_CPUS];

/* Run the function arch_cpu_run() handed over; arch_cpu_join() waits. */
static void host_cpu_run_work(struct host_cpu *c, void (*fn)(void *arg))
{
	tick_nohz_idle_exit();
	arch_irq_enable();
	fn(c->arg);
	arch_irq_save();
	pthread_mutex_lock(&c->lock);
	c->fn = NULL;
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
}

/*
 * A CPU thread's idle loop, as x86_64's: look for work with interrupts
 * off, else pass an RCU quiescent state (running this CPU's ready
 * callbacks), stop the tick if nothing needs it (kernel/time.c), and
 * wait for an interrupt with interrupts on (host_safe_halt()).
 */
static void *host_cpu_main(void *data)
{
	struct host_cpu *c = data;

	char here;

	host_stack_bounds((unsigned long)&here);
	host_this_cpu.id = c->id;
	host_this_cpu.irq_off = 1;
	rcu_cpu_starting();	/* in the grace periods before any work */
	host_irq_cpu_online(c->id);
	for (;;) {
		void (*fn)(void *arg);

		fn = __atomic_load_n(&c->fn, __ATOMIC_ACQUIRE);
		if (fn) {
			host_cpu_run_work(c, fn);
			continue;
		}
		rcu_idle();
		tick_nohz_idle_enter();
		host_safe_halt();
		arch_irq_save();
	}
	return NULL;
}

/* nr CPUs possible and present, CPU 0 (this thread) online; start the rest. */
static void host_cpus_start(unsigned int nr)
{
	for (unsigned int cpu = 0; cpu < nr; cpu++) {
		set_cpu_possible(cpu, true);
		set_cpu_present(cpu, true);
	}
	setup_nr_cpu_ids();
	host_irq_cpu_online(0);
	for (unsigned int cpu = 1; cpu < nr_cpu_ids; cpu++) {
		struct host_cpu *c = &host_cpus[cpu];

		c->id = cpu;
		pthread_mutex_init(&c->lock, NULL);
		pthread_cond_init(&c->cond, NULL);
		if (pthread_create(&c->thread, NULL, host_cpu_main, c)) {
			fprintf(stderr, "host: cannot start CPU %u\n", cpu);
			exit(2);
		}
	}
	/* Every CPU takes IPIs before the kernel runs (cpu_online()). */
	for (unsigned int cpu = 1; cpu < nr_cpu_ids; cpu++) {
		u64 deadline = monotonic_ns() + CPU_START_TIMEOUT_S * 1000000000ULL;

		while (!cpu_online(cpu)) {
			if (monotonic_ns() > deadline) {
				fprintf(stderr, "host: CPU %u did not start\n", cpu);
				exit(2);
			}
			sched_yield();
		}
	}
}

int arch_cpu_run(unsigned int cpu, void (*fn)(void *arg), void *arg)
{
	struct host_cpu *c;
	int err = 0;

	if (cpu == 0 || cpu >= nr_cpu_ids)
		return -EINVAL;
	c = &host_cpus[cpu];
	pthread_mutex_lock(&c->lock);
	if (c->busy) {
		err = -EBUSY;
	} else {
		c->busy = true;
		c->arg = arg;
		__atomic_store_n(&c->fn, fn, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&c->lock);
	if (!err)
		err = arch_send_reschedule_ipi(cpu);
	return err;
}

void arch_cpu_join(unsigned int cpu)
{
	struct timespec deadline;
	struct host_cpu *c;

	if (cpu == 0 || cpu >= nr_cpu_ids)
		return;
	c = &host_cpus[cpu];
	clock_gettime(CLOCK_REALTIME, &deadline);	/* the condvar's clock */
	deadline.tv_sec += CPU_JOIN_TIMEOUT_S;
	pthread_mutex_lock(&c->lock);
	while (c->fn)
		if (pthread_cond_timedwait(&c->cond, &c->lock, &deadline) ==
		    ETIMEDOUT && c->fn)
			panic("CPU %u still runs %pS after %u s (arch_cpu_join)",
			      cpu, c->fn, CPU_JOIN_TIMEOUT_S);
	c->busy = false;
	pthread_mutex_unlock(&c->lock);
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

int arch_icr_write_irqs_on_test(void)
{
	return -ENOSYS;
}

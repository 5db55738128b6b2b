// SPDX-License-Identifier: GPL-2.0
/*
 * The tick on the host: one POSIX timer per CPU thread.
 *
 * host_tick_init(), from arch_irq_init(), and arch_tick_start() on each
 * other CPU (time_init()) create for that CPU a CLOCK_MONOTONIC timer of
 * period TICK_NSEC whose signal (SIGVTALRM, not SIGALRM: see asm/cpu.h)
 * goes to that CPU's own thread (SIGEV_THREAD_ID). The signal's handler
 * raises LOCAL_TIMER_VECTOR on the thread it lands on, and from there it
 * is an interrupt like any other (arch/host/irq.c): held back while the
 * soft flag is set, run through handle_irq_vector() in hardirq context,
 * where tick_handle_periodic() (kernel/time.c) takes it. The two signals
 * block each other while one's handler runs. Ticks the host did not
 * deliver in time merge, as on a real timer; jiffies follows the clock.
 * In tickless idle the same timer is set to fire once, at the CPU's
 * next timer, or disarmed (arch_tick_stop()).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "arch/arch.h"
#include "kernel/bug.h"
#include "kernel/irq.h"
#include "kernel/printk.h"
#include "kernel/time.h"

static timer_t tick_timer[NR_CPUS];
static bool tick_running[NR_CPUS];

static void tick_signal(int sig, siginfo_t *info, void *ucontext)
{
	(void)sig;
	(void)info;
	host_irq_raise_from_signal(LOCAL_TIMER_VECTOR, ucontext);
}

static void tick_interrupt(unsigned int vector)
{
	tick_handle_periodic();
}

static void start_tick(unsigned int cpu)
{
	struct sigevent sev = {
		.sigev_notify = SIGEV_THREAD_ID,
		.sigev_signo = HOST_TICK_SIGNAL,
	};
	struct itimerspec its = {
		.it_value = { 0, TICK_NSEC },
		.it_interval = { 0, TICK_NSEC },
	};

	sev._sigev_un._tid = host_irq_cpu_tid(cpu);
	if (timer_create(CLOCK_MONOTONIC, &sev, &tick_timer[cpu]) ||
	    timer_settime(tick_timer[cpu], 0, &its, NULL)) {
		perror("host: tick timer");
		exit(2);
	}
	tick_running[cpu] = true;
}

void host_tick_init(void)
{
	struct sigaction sa = { .sa_sigaction = tick_signal,
				.sa_flags = SA_RESTART | SA_SIGINFO };

	BUILD_BUG_ON(HOST_TICK_SIGNAL != SIGVTALRM);
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR1);	/* the IPI signal: no nesting */
	if (sigaction(HOST_TICK_SIGNAL, &sa, NULL)) {
		perror("host: sigaction");
		exit(2);
	}
	BUG_ON(arch_set_irq_handler(LOCAL_TIMER_VECTOR, tick_interrupt));
	start_tick(arch_cpu_id());
	pr_info("time: tick %u Hz, a POSIX timer per CPU thread\n", HZ);
}

/* Tickless idle (kernel/time.c): one expiry delta_ns from now, or none. */
bool arch_tick_stop(u64 delta_ns)
{
	unsigned int cpu = arch_cpu_id();
	struct itimerspec its = {
		.it_value = { (time_t)(delta_ns / NSEC_PER_SEC),
			      (long)(delta_ns % NSEC_PER_SEC) },
	};

	if (cpu >= NR_CPUS || !tick_running[cpu])
		return false;
	BUG_ON(timer_settime(tick_timer[cpu], 0, &its, NULL));
	return true;
}

void arch_tick_resume(void)
{
	unsigned int cpu = arch_cpu_id();
	struct itimerspec its = {
		.it_value = { 0, TICK_NSEC },
		.it_interval = { 0, TICK_NSEC },
	};

	BUG_ON(cpu >= NR_CPUS || !tick_running[cpu]);
	BUG_ON(timer_settime(tick_timer[cpu], 0, &its, NULL));
}

/* On each other CPU, from time_init() (kernel/time.c). */
void arch_tick_start(void)
{
	unsigned int cpu = arch_cpu_id();

	if (!tick_running[cpu])
		start_tick(cpu);
}

/*
 * The period this CPU's timer was given, as a rate in millihertz, for
 * either reference: the host's timer runs off the clock itself.
 */
unsigned long arch_tick_rate_mhz(enum tick_ref ref)
{
	unsigned int cpu = arch_cpu_id();
	struct itimerspec its;
	u64 ns;

	if (cpu >= NR_CPUS || !tick_running[cpu] ||
	    timer_gettime(tick_timer[cpu], &its))
		return 0;
	ns = (u64)its.it_interval.tv_sec * NSEC_PER_SEC +
	     (u64)its.it_interval.tv_nsec;
	return ns ? (unsigned long)(NSEC_PER_SEC * 1000 / ns) : 0;
}

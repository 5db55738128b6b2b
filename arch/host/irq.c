// SPDX-License-Identifier: GPL-2.0
/*
 * Interrupts for the host build: a signal held back by a soft flag.
 *
 * Each thread (host CPU) has a soft interrupt flag,
 * host_this_cpu.irq_off, that arch_irq_save()/arch_irq_restore() set and
 * clear (asm/cpu.h), and an interrupt request register, irr[], one bit
 * per vector, like the APIC's. apic_send_IPI_self() sets the vector's bit
 * and sends SIGUSR1 to its own thread, which the host delivers before
 * pthread_kill() returns:
 *
 *   flag clear: the signal handler runs the pending vectors at once,
 *               after rewinding a restartable sequence it interrupted
 *               (kernel/rseq.h) through the ucontext's RIP
 *   flag set:   the handler leaves them pending
 *               (host_this_cpu.irq_pending), and the arch_irq_restore()
 *               that clears the flag runs them
 *
 * Pending vectors run highest first, with the soft flag set and this
 * thread's hardirq count raised, through handle_irq_vector(); a vector
 * raised again before it ran runs once (one bit). After them, with the
 * flag clear again, this CPU's queued work runs (kernel/workqueue.h).
 *
 * IPIs to other CPUs: a thread that stands for CPU n (the boot thread
 * for CPU 0, the CPU threads of arch/host/main.c) registers itself with
 * host_irq_cpu_online(n): its pthread and the address of its
 * host_this_cpu.irq_pending go into host_irq_cpus[n], with a request
 * register of its own that other threads may set (the thread-local
 * irr[] stays for self-IPIs). arch_send_call_function_ipi() sets the bit there, the
 * target's pending word, and sends SIGUSR1 to that thread; from there it
 * is the same path as a self-IPI. The malloc shim registers no thread:
 * its CPUs are the application's threads, which get no signal of ours.
 * A signal from another thread may arrive while this one is in libc
 * with interrupts on; the kernel prints with interrupts off (the log
 * lock), so a handler that prints does not re-enter stdio.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <signal.h>
#include <ucontext.h>
#include <stdio.h>
#include <stdlib.h>

#include "arch/arch.h"
#include "kernel/bug.h"
#include "kernel/cpumask.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/printk.h"
#include "kernel/rseq.h"
#include "kernel/workqueue.h"

#define HOST_IRQ_SIGNAL	SIGUSR1
#define IRR_WORDS	(NR_VECTORS / 64)

__thread struct host_cpu_local host_this_cpu
	__attribute__((tls_model(HOST_TLS_MODEL)));
static __thread unsigned long irr[IRR_WORDS];

/* The request register of each CPU a thread of ours stands for. */
struct host_irq_cpu {
	unsigned long irr[IRR_WORDS];
	unsigned long *pending;		/* its thread's host_this_cpu.irq_pending */
	pthread_t thread;
	int tid;			/* its thread's ID, for timers */
};

static struct host_irq_cpu host_irq_cpus[NR_CPUS];
static __thread struct host_irq_cpu *this_irq_cpu;

/* The calling thread is CPU cpu from now on and takes its IPIs. */
void host_irq_cpu_online(unsigned int cpu)
{
	struct host_irq_cpu *c = &host_irq_cpus[cpu];

	BUG_ON(cpu >= nr_cpu_ids || cpu_online(cpu));
	c->thread = pthread_self();
	c->tid = (int)syscall(SYS_gettid);
	c->pending = &host_this_cpu.irq_pending;
	this_irq_cpu = c;
	set_cpu_online(cpu, true);	/* release: the fields above first */
}

/* The thread ID of online CPU cpu (a timer's signal goes there). */
int host_irq_cpu_tid(unsigned int cpu)
{
	BUG_ON(!cpu_online(cpu));
	return host_irq_cpus[cpu].tid;
}

/* Raise vector on another online CPU. */
static int send_ipi(unsigned int cpu, unsigned int vector)
{
	struct host_irq_cpu *c;

	if (!cpu_online(cpu) || WARN_ON_ONCE(cpu == arch_cpu_id()))
		return -ENXIO;
	c = &host_irq_cpus[cpu];
	__atomic_fetch_or(&c->irr[vector / 64], 1UL << (vector % 64),
			  __ATOMIC_SEQ_CST);
	__atomic_store_n(c->pending, 1, __ATOMIC_SEQ_CST);
	return pthread_kill(c->thread, HOST_IRQ_SIGNAL) ? -ENXIO : 0;
}

int arch_send_call_function_ipi(unsigned int cpu)
{
	return send_ipi(cpu, CALL_FUNCTION_VECTOR);
}

int arch_send_reschedule_ipi(unsigned int cpu)
{
	return send_ipi(cpu, RESCHEDULE_VECTOR);
}

/* RESCHEDULE_VECTOR: the interrupt itself ended the wait; nothing to do. */
static void reschedule_interrupt(unsigned int vector)
{
	(void)vector;
}

/*
 * The host's "sti; hlt", for an idle CPU thread (arch/host/main.c):
 * interrupts on, and wait for one, leaving no window where one could
 * come and the thread still go to sleep. The two interrupt signals are
 * blocked while the flag clears and the pending word is read, and
 * sigsuspend() unblocks them and waits in one step. Returns with
 * interrupts on, once a handler ran (or one was pending already).
 */
void host_safe_halt(void)
{
	sigset_t block, old;

	sigemptyset(&block);
	sigaddset(&block, HOST_IRQ_SIGNAL);
	sigaddset(&block, HOST_TICK_SIGNAL);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	host_this_cpu.irq_off = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&host_this_cpu.irq_pending, __ATOMIC_RELAXED))
		sigsuspend(&old);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (__atomic_load_n(&host_this_cpu.irq_pending, __ATOMIC_RELAXED))
		host_irq_replay();	/* raised while interrupts were off */
}

/* This word of the requests: the thread's own and its CPU's. */
static unsigned long take_requests(int w)
{
	unsigned long bits = __atomic_exchange_n(&irr[w], 0, __ATOMIC_RELAXED);

	if (this_irq_cpu)
		bits |= __atomic_exchange_n(&this_irq_cpu->irr[w], 0,
					    __ATOMIC_ACQUIRE);
	return bits;
}

static void run_vector(unsigned int vector)
{
	host_this_cpu.hardirq_count++;
	handle_irq_vector(vector);
	host_this_cpu.hardirq_count--;
}

/*
 * Run and clear every pending vector, highest first. Flag clear on entry.
 * __used: its one caller is the thunk's asm below, which LTO cannot see.
 */
__used void host_irq_replay(void)
{
	do {
		host_this_cpu.irq_off = 1;
		__atomic_store_n(&host_this_cpu.irq_pending, 0, __ATOMIC_RELAXED);
		for (int w = IRR_WORDS - 1; w >= 0; w--) {
			unsigned long bits = take_requests(w);

			while (bits) {
				int bit = 63 - __builtin_clzl(bits);

				bits &= ~(1UL << bit);
				run_vector((unsigned int)(w * 64 + bit));
			}
		}
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		host_this_cpu.irq_off = 0;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
	} while (__atomic_load_n(&host_this_cpu.irq_pending, __ATOMIC_RELAXED));
	/* Interrupts were on and no handler is below: queued work runs. */
	workqueue_irq_exit();
}

/*
 * host_irq_replay() keeping every register the caller may hold live:
 * the integer ones the C calling convention lets a callee clobber, and
 * the SSE state (fxsave). Called from host_irq_replay_inline() with the
 * red zone stepped over; aligns the stack for C itself.
 */
__asm__(".text\n"
	".globl host_irq_replay_thunk\n"
	".hidden host_irq_replay_thunk\n"
	".type host_irq_replay_thunk, @function\n"
	"host_irq_replay_thunk:\n"
	"	push %rbp\n"
	"	mov %rsp, %rbp\n"
	"	push %rax\n	push %rcx\n	push %rdx\n	push %rsi\n"
	"	push %rdi\n	push %r8\n	push %r9\n	push %r10\n"
	"	push %r11\n"
	"	and $-64, %rsp\n"
	"	sub $512, %rsp\n"
	"	fxsave64 (%rsp)\n"
	"	call host_irq_replay@PLT\n"
	"	fxrstor64 (%rsp)\n"
	"	lea -72(%rbp), %rsp\n"
	"	pop %r11\n"
	"	pop %r10\n	pop %r9\n	pop %r8\n	pop %rdi\n"
	"	pop %rsi\n	pop %rdx\n	pop %rcx\n	pop %rax\n"
	"	pop %rbp\n"
	"	ret\n"
	".size host_irq_replay_thunk, . - host_irq_replay_thunk\n");

/*
 * The interrupt signals (this one's and the tick's) are blocked while
 * their handler runs. The vectors run with the soft flag set, as ever,
 * but what runs after them may wait for other interrupts: queued work
 * (kernel/workqueue.h), say in synchronize_rcu(). So the handler takes
 * both signals again first, as iretq would open the CPU to the next
 * interrupt; one that comes meanwhile nests, as on x86_64, and finds
 * the flag set or runs its own vectors.
 */
static void host_irq_signal(int sig, siginfo_t *info, void *ucontext)
{
	ucontext_t *uc = ucontext;
	sigset_t irq_signals;

	(void)sig;
	(void)info;
	if (host_this_cpu.irq_off || !host_this_cpu.irq_pending)
		return;
	/* The interrupt runs now: rewind a restartable sequence first. */
	rseq_fixup_ip((unsigned long *)&uc->uc_mcontext.gregs[REG_RIP]);
	sigemptyset(&irq_signals);
	sigaddset(&irq_signals, HOST_IRQ_SIGNAL);
	sigaddset(&irq_signals, HOST_TICK_SIGNAL);
	pthread_sigmask(SIG_UNBLOCK, &irq_signals, NULL);
	host_irq_replay();
}

/*
 * From another signal's handler on this thread (the tick's, time.c):
 * raise vector here, and run it now unless interrupts are off.
 */
void host_irq_raise_from_signal(unsigned int vector, void *ucontext)
{
	__atomic_fetch_or(&irr[vector / 64], 1UL << (vector % 64),
			  __ATOMIC_RELAXED);
	__atomic_store_n(&host_this_cpu.irq_pending, 1, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	host_irq_signal(HOST_IRQ_SIGNAL, NULL, ucontext);
}

void apic_send_IPI_self(unsigned int vector)
{
	if (WARN(vector < FIRST_EXTERNAL_VECTOR || vector >= NR_VECTORS,
		 "APIC: self-IPI with invalid vector 0x%x\n", vector))
		return;
	__atomic_fetch_or(&irr[vector / 64], 1UL << (vector % 64),
			  __ATOMIC_RELAXED);
	__atomic_store_n(&host_this_cpu.irq_pending, 1, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	pthread_kill(pthread_self(), HOST_IRQ_SIGNAL);
}

/*
 * arch_single_step(): the trap flag set in this thread's RFLAGS (popfq
 * may, in user mode), the host's SIGTRAP after every instruction, the
 * hook given the signal context's RIP; clearing the flag there ends it.
 * The interrupt signals wait meanwhile, as under an interrupt gate.
 */
#define X86_EFLAGS_TF	(1UL << 8)

struct single_step {
	bool (*step)(unsigned long *ip, void *data);
	void *data;
};

static __thread struct single_step single_step;

static void single_step_signal(int sig, siginfo_t *info, void *ucontext)
{
	ucontext_t *uc = ucontext;
	greg_t *gregs = uc->uc_mcontext.gregs;

	(void)sig;
	(void)info;
	if (!single_step.step ||
	    !single_step.step((unsigned long *)&gregs[REG_RIP],
			      single_step.data))
		gregs[REG_EFL] &= ~(greg_t)X86_EFLAGS_TF;
}

void arch_single_step(void (*fn)(void *arg), void *arg,
		      bool (*step)(unsigned long *ip, void *data), void *data)
{
	struct sigaction sa = { .sa_sigaction = single_step_signal,
				.sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, HOST_IRQ_SIGNAL);
	sigaddset(&sa.sa_mask, HOST_TICK_SIGNAL);
	BUG_ON(sigaction(SIGTRAP, &sa, NULL));
	WARN_ON_ONCE(single_step.step);
	single_step.data = data;
	single_step.step = step;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	/* Stepping over the red zone, as host_irq_replay_inline(). */
	__asm__ __volatile__("lea -128(%%rsp), %%rsp\n\t"
			     "pushfq; orq %0, (%%rsp); popfq\n\t"
			     "lea 128(%%rsp), %%rsp"
			     : : "i"(X86_EFLAGS_TF) : "memory", "cc");
	fn(arg);
	__asm__ __volatile__("lea -128(%%rsp), %%rsp\n\t"
			     "pushfq; andq %0, (%%rsp); popfq\n\t"
			     "lea 128(%%rsp), %%rsp"
			     : : "i"(~X86_EFLAGS_TF) : "memory", "cc");
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	single_step.step = NULL;
}

/* The boot thread starts with interrupts off (main()); turn them on. */
void arch_irq_init(void)
{
	struct sigaction sa = { .sa_sigaction = host_irq_signal,
				.sa_flags = SA_RESTART | SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, HOST_TICK_SIGNAL);	/* no nesting */
	if (sigaction(HOST_IRQ_SIGNAL, &sa, NULL)) {
		perror("host: sigaction");
		exit(2);
	}
	BUG_ON(arch_set_irq_handler(RESCHEDULE_VECTOR, reschedule_interrupt));
	arch_irq_enable();
	pr_info("irq: interrupts are SIGUSR1 behind a soft flag, interrupts on\n");
	host_tick_init();
}

/*
 * Stopping CPUs for a panic: the panicking thread sends HOST_STOP_SIGNAL
 * to the thread of every other online CPU, whose handler counts itself
 * stopped and parks with every signal blocked. A thread may park inside
 * stdio with stdout's lock held, so the console then bypasses stdio
 * (host_console_raw()). The process ends when the panicking thread calls
 * arch_exit().
 */
#define HOST_STOP_SIGNAL	SIGUSR2

static unsigned int cpus_stopped;

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
	unsigned int this = arch_cpu_id(), sent = 0, stopped, cpu;
	u64 end = arch_clock_ns() + (u64)timeout_us * 1000;

	sigfillset(&sa.sa_mask);
	sigaction(HOST_STOP_SIGNAL, &sa, NULL);
	for_each_online_cpu(cpu)
		if (cpu != this)
			sent += !pthread_kill(host_irq_cpus[cpu].thread,
					      HOST_STOP_SIGNAL);
	do {
		stopped = __atomic_load_n(&cpus_stopped, __ATOMIC_SEQ_CST);
	} while (stopped < sent && arch_clock_ns() < end);
	if (sent)
		host_console_raw();
	return sent - min(sent, stopped);
}

__noreturn void arch_stop_this_cpu(void)
{
	park_thread();
}

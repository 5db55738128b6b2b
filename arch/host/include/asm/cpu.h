/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arch interface's hot functions for the host build, inline (see
 * arch/arch.h). A CPU is a thread: its number lives in a thread-local
 * variable set when the thread starts.
 *
 * Interrupts (arch/host/irq.c): the interrupt flag is a thread-local soft
 * flag, host_this_cpu.irq_off (nonzero: interrupts off). arch_irq_save()
 * is a load and a store, no system call. An interrupt is a signal: its
 * handler finds the flag set and leaves the vector pending
 * (host_this_cpu.irq_pending), and arch_irq_restore() runs what is
 * pending when the flag goes clear.
 */
#ifndef ASM_HOST_CPU_H
#define ASM_HOST_CPU_H

/*
 * What a host CPU keeps for itself, in one thread-local structure: its
 * number, the soft interrupt flag (nonzero: interrupts off), the vectors
 * pending while it was set, and the hard interrupt nesting.
 */
struct host_cpu_local {
	unsigned long irq_off;
	unsigned long irq_pending;
	unsigned int id;
	unsigned int hardirq_count;
};

/*
 * local-exec: the program is one executable, so the variable sits at a
 * fixed offset from %fs and arch_cpu_id() is one load, as this_cpu_read()
 * is on Linux's %gs, instead of loading that offset first.
 */
#ifndef HOST_TLS_MODEL
#define HOST_TLS_MODEL "local-exec"
#endif
/*
 * The malloc shim (bench/shim/) links this code into a shared object,
 * where local-exec is impossible: it builds with HOST_TLS_MODEL
 * "initial-exec" (static TLS, fine for a preloaded library), where each
 * thread-local variable costs a load of its offset first: one structure
 * makes that one load for all of a fast path's fields.
 */
extern __thread struct host_cpu_local host_this_cpu
	__attribute__((tls_model(HOST_TLS_MODEL)));

/*
 * HOST_NO_IRQS (1 in the malloc shim): the CPUs are a program's threads,
 * which no interrupt ever reaches (no tick, no IPI: the shim starts no
 * CPU of the kernel's, so none is online to send one to), so nothing can
 * be pending when the flag goes clear and the restore does not look.
 */
#ifndef HOST_NO_IRQS
#define HOST_NO_IRQS 0
#endif

/* Run the pending interrupts (interrupts were just turned on). */
void host_irq_replay(void);

/* The calling thread stands for CPU cpu and takes its IPIs (irq.c). */
void host_irq_cpu_online(unsigned int cpu);
/* Interrupts on and wait for one: an idle CPU's "sti; hlt" (irq.c). */
void host_safe_halt(void);
/* argv[0], and the arguments after "--" (NULL-terminated; main.c). */
extern const char *host_prog;
extern char **host_argv;
/* The console bypasses stdio from now on (a panic stopped the others). */
void host_console_raw(void);
/*
 * The tick (arch/host/time.c): its signal, and its start in
 * arch_irq_init(). Not SIGALRM: that one stays free for the program
 * around the kernel (libFuzzer's timer, arch/host/libfuzzer.c).
 */
#define HOST_TICK_SIGNAL	26	/* SIGVTALRM */
void host_tick_init(void);
void host_irq_raise_from_signal(unsigned int vector, void *ucontext);
int host_irq_cpu_tid(unsigned int cpu);

/*
 * host_irq_replay() for the inline restore: an assembly thunk that keeps
 * every register (arch/host/irq.c), called from an asm statement the
 * compiler sees as no call at all, so the allocators' fast paths stay
 * leaf functions with no stack frame (a plain call in the cold branch
 * made every caller save registers and build a frame: +30% on the hot
 * kmalloc/kfree pair). It steps over the red zone first.
 */
static inline void host_irq_replay_inline(void)
{
	__asm__ __volatile__("lea -128(%%rsp), %%rsp\n\t"
			     "call host_irq_replay_thunk\n\t"
			     "lea 128(%%rsp), %%rsp"
			     : : : "memory", "cc");
}

static inline unsigned long arch_irq_save(void)
{
	unsigned long flags = host_this_cpu.irq_off;

	host_this_cpu.irq_off = 1;
	__asm__ __volatile__("" ::: "memory");
	return flags;
}

/*
 * Stores constants, never the flags value loaded by arch_irq_save(): a
 * store of a loaded value would chain every save to the restore before
 * it through memory (store, then load of the same word), a few cycles
 * on every allocator fast path; a constant behind a predicted branch
 * does not wait for anything.
 */
static inline void arch_irq_restore(unsigned long flags)
{
	__asm__ __volatile__("" ::: "memory");
	if (flags) {
		host_this_cpu.irq_off = 1;
		return;
	}
	host_this_cpu.irq_off = 0;
	__asm__ __volatile__("" ::: "memory");
	if (!HOST_NO_IRQS && __builtin_expect(host_this_cpu.irq_pending, 0))
		host_irq_replay_inline();
}

static inline void arch_irq_enable(void)
{
	arch_irq_restore(0);
}

/* Would arch_irq_restore(flags) leave interrupts off? */
static inline bool arch_irqs_disabled_flags(unsigned long flags)
{
	return flags != 0;
}

static inline bool arch_irqs_disabled(void)
{
	return host_this_cpu.irq_off;
}

static inline unsigned int arch_hardirq_count(void)
{
	return host_this_cpu.hardirq_count;
}

static inline void arch_cpu_relax(void)
{
	__asm__ __volatile__("pause");
}

static inline unsigned int arch_cpu_id(void)
{
	return host_this_cpu.id;
}

#endif /* ASM_HOST_CPU_H */

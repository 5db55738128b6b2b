// SPDX-License-Identifier: GPL-2.0
/*
 * Bringing up the application processors (APs), as Linux's smpboot.
 *
 * setup_arch() first reserves one page below 1 MiB for the real-mode
 * trampoline (smp_reserve_trampoline(), before any other memblock
 * allocation can take low memory) and, at its end, once the kernel's
 * page tables are in and the ACPI MADT is read, calls smp_boot_cpus().
 * That copies the trampoline (trampoline_64.S) into the page and, one
 * AP at a time in MADT order, for each present CPU:
 *
 *   - gives it the next CPU number (the boot CPU is 0; numbers stay
 *     dense: a CPU that fails leaves its number to the next one), a
 *     16 KiB stack and its 24 KiB of IST stacks (gdt.c) from memblock,
 *     cleared, and its per-CPU area
 *     x86_percpu[cpu]; the trampoline page and the stacks are booked as
 *     "SMP boot". The clearing matters under QEMU's TCG: the boot
 *     loader ran code in the pages at the top of RAM that memblock hands
 *     out first, and while a translation of that code lives, every store
 *     to its page takes TCG's self-modifying-code check (CPU 1 ran the
 *     allocator benchmarks 20-100x slower than the others on it).
 *     Writing every byte once drops those translations;
 *   - sends INIT-SIPI-SIPI to its APIC ID (apic_wakeup_secondary_cpu());
 *   - waits, at most SMP_CALLIN_TIMEOUT_US of TSC time, for it to set
 *     its bit in the online mask. A CPU that does not is reported, sent
 *     INIT again (so a late one cannot run on the next one's stack), and
 *     left out.
 *
 * The AP runs start_secondary(): its own GDT and TSS (with its IST
 * stacks for #DF, NMI and #MC), the IDT, its local APIC set up as the
 * boot CPU's (LINT0 masked), records what it sees for arch_cpu_info(),
 * reports in and enters its idle loop, cpu_idle_loop(). Until it is
 * given work it takes no lock, allocates nothing and prints nothing.
 *
 * Work: arch_cpu_run(cpu, fn, arg) fills the CPU's work slot in its
 * struct x86_percpu (work_state IDLE -> CLAIMED, then fn and arg, then
 * QUEUED with release order) and sends it RESCHEDULE_VECTOR, whose
 * handler does nothing: the interrupt only ends the hlt. The idle loop
 * checks the slot with interrupts off and, finding nothing, executes
 * "sti; hlt": sti takes effect after the next instruction, so an IPI
 * sent after the check is taken in the hlt and wakes it, never lost
 * between the check and the halt. Before halting, still with interrupts
 * off, it reports an RCU quiescent state and runs its ready RCU
 * callbacks (rcu_idle(), kernel/rcu.c), and stops its tick if nothing
 * needs it (tick_nohz_idle_enter(), kernel/time.c). Queued work runs
 * with interrupts on (RUNNING); when fn returns the slot goes back to IDLE (release) and
 * arch_cpu_join(), which waits for IDLE, sees everything fn wrote. A
 * join that waits longer than CPU_JOIN_TIMEOUT_S of TSC time panics,
 * naming the CPU and the function: a hung CPU is a clear failure.
 *
 * CPU masks (kernel/cpumask.h): before the first AP starts, CPU numbers
 * 0 .. n - 1 are possible and present, n being the MADT's present CPUs
 * cut by nosmp/maxcpus= (no CPU is hot-added, so the MADT's hotplug
 * entries are not possible), and nr_cpu_ids is n, fixed before
 * mm_core_init(), so the allocators size their per-CPU data for all of
 * them. An AP sets its bit in cpu_online_mask as it reports in; numbers
 * stay dense, so a CPU that failed leaves the last number(s) possible
 * but never online. An AP allocates and frees only inside work it was given. Drains
 * of another CPU's per-CPU caches (slab arrays, page-allocator lists)
 * run on that CPU, in its call-function IPI (kernel/smp.c), which it
 * takes while idle and while it runs work alike.
 *
 * Parameters (Linux's): "nosmp" starts no AP, "maxcpus=N" at most N CPUs
 * in all (the boot CPU included; 0 is nosmp), "nr_cpus=N" (1..) the
 * same here, possible and started CPUs being one.
 */
#include "arch/arch.h"
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/x86.h"
#include "kernel/bug.h"
#include "kernel/cpumask.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/kernel.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "kernel/rcupdate.h"
#include "kernel/time.h"
#include "lib/string.h"
#include "mm/memblock.h"
#include "mm/mm.h"
#include "mm/numa.h"
#include "mm/percpu.h"

#define SMP_CALLIN_TIMEOUT_US	1000000		/* TCG is slow */
#define AP_STACK_PAGES		4
/* Its kernel stack, then its IST stacks (gdt.c), in one allocation. */
#define AP_IST_PAGES		(IST_NR * IST_STACK_SIZE / PAGE_SIZE)
#define AP_BOOT_PAGES		(AP_STACK_PAGES + AP_IST_PAGES)
#define MSR_EFER		0xc0000080
#define MSR_GS_BASE		0xc0000101
#define EFER_LME		(1UL << 8)
#define EFER_NX			(1UL << 11)
#define TRAMPOLINE_LIMIT	SZ_1M
#define CPU_JOIN_TIMEOUT_S	120	/* TCG, 4 vCPUs on 2 host cores */

/* x86_percpu.work_state: arch_cpu_run()'s work slot. */
enum {
	CPU_WORK_IDLE,		/* nothing to do: arch_cpu_run() may claim it */
	CPU_WORK_CLAIMED,	/* arch_cpu_run() is filling in fn and arg */
	CPU_WORK_QUEUED,	/* fn and arg are set: the CPU may start */
	CPU_WORK_RUNNING,	/* the CPU runs fn */
};

extern const char trampoline_start[], trampoline_end[];
extern const char tr_cr3[], tr_efer[];
extern u64 boot_pml4[512];	/* boot/entry.S, linked 1:1 */
#define PML4_INDEX(va)		(((va) >> 39) & 511)

struct x86_percpu x86_percpu[NR_CPUS];

/* Read by secondary_startup_64 (trampoline_64.S) at these offsets. */
struct smp_boot_params {
	u64 cr3;
	u64 stack_top;
	u64 gs_base;
} smp_boot_params;

static phys_addr_t trampoline_phys;
static unsigned int nr_online = 1;	/* the boot CPU */
static unsigned int nr_wanted = 1;
static unsigned int setup_max_cpus = NR_CPUS;

static int nosmp_setup(char *val)
{
	setup_max_cpus = 1;
	return 0;
}
kernel_param("nosmp", nosmp_setup);

static int maxcpus_setup(char *val)
{
	int n;

	if (!val || kstrtoint(val, 0, &n) || n < 0)
		return -EINVAL;
	setup_max_cpus = n ? min_t(unsigned int, n, NR_CPUS) : 1;
	return 0;
}
kernel_param("maxcpus", maxcpus_setup);

/* As Linux's, the most possible CPUs: here the same as maxcpus= (1..). */
static int nr_cpus_setup(char *val)
{
	int n;

	if (!val || kstrtoint(val, 0, &n) || n < 1)
		return -EINVAL;
	return maxcpus_setup(val);
}
kernel_param("nr_cpus", nr_cpus_setup);

void smp_reserve_trampoline(void)
{
	BUILD_BUG_ON(offsetof(struct x86_percpu, cpu_number) !=
		     X86_PERCPU_CPU_NUMBER);
	BUILD_BUG_ON(offsetof(struct smp_boot_params, stack_top) != 8 ||
		     offsetof(struct smp_boot_params, gs_base) != 16);
	trampoline_phys = memblock_find_in_range(&memblock, PAGE_SIZE, PAGE_SIZE,
						 PAGE_SIZE, TRAMPOLINE_LIMIT);
	if (trampoline_phys)
		memblock_reserve_named(trampoline_phys, PAGE_SIZE, "SMP boot");
	else
		pr_warn("smp: no free page below 1 MiB for the trampoline\n");
}

/* Run the queued work, with interrupts on; the slot is IDLE after. */
static void cpu_run_work(struct x86_percpu *pc)
{
	void (*fn)(void *arg) = pc->work_fn;

	__atomic_store_n(&pc->work_state, CPU_WORK_RUNNING, __ATOMIC_RELAXED);
	arch_irq_enable();
	fn(pc->work_arg);
	BUG_ON(arch_irqs_disabled());
	pc->work_fn = NULL;
	__atomic_store_n(&pc->work_state, CPU_WORK_IDLE, __ATOMIC_RELEASE);
}

/*
 * An AP's idle loop: look for work with interrupts off, else "sti; hlt"
 * (the interrupt shadow of sti keeps a wake-up from falling between the
 * check and the halt; see the top comment).
 */
static __noreturn void cpu_idle_loop(struct x86_percpu *pc)
{
	for (;;) {
		arch_irq_save();
		if (__atomic_load_n(&pc->work_state, __ATOMIC_ACQUIRE) ==
		    CPU_WORK_QUEUED) {
			tick_nohz_idle_exit();
			cpu_run_work(pc);
		} else {
			rcu_idle();
			tick_nohz_idle_enter();
			__asm__ __volatile__("sti; hlt" : : : "memory");
		}
	}
}

/* RESCHEDULE_VECTOR: the interrupt itself ended the hlt; nothing to do. */
static void reschedule_interrupt(unsigned int vector)
{
	(void)vector;
}

/* The FS base is this CPU's per-CPU offset (asm/percpu.h). */
static void setup_percpu_segment(unsigned int cpu)
{
	wrmsr(MSR_FS_BASE, per_cpu_offset(cpu));
}

/* Called by secondary_startup_64 on the AP's stack, GS base set. */
__noreturn void start_secondary(void);
__noreturn void start_secondary(void)
{
	unsigned int cpu = arch_cpu_id();
	struct x86_percpu *pc = &x86_percpu[cpu];
	unsigned long here = (unsigned long)&cpu;

	gdt_init();
	setup_percpu_segment(cpu);
	idt_load();
	apic_ap_init();
	pc->seen_cpu = cpu;
	pc->seen_gs_base = rdmsr(MSR_GS_BASE);
	pc->seen_stack = here;
	pc->seen_apic_id = apic_read_id();
	rcu_cpu_starting();	/* in the grace periods before any work */
	set_cpu_online(cpu, true);
	cpu_idle_loop(pc);
}

/*
 * Start the CPU with this APIC ID as CPU number cpu on the stack
 * [stack_lo, stack_hi), waiting timeout_us for it to report in: 0 or an
 * error, which is printed. A CPU that does not come up gets INIT again.
 */
static int do_boot_cpu(unsigned int cpu, u32 apic_id, unsigned long stack_lo,
		       unsigned long stack_hi, unsigned long ist_lo,
		       unsigned long timeout_us)
{
	struct x86_percpu *pc = &x86_percpu[cpu];
	u64 end;
	int err;

	BUG_ON(cpu >= NR_CPUS || cpu_online(cpu));
	memset(pc, 0, sizeof(*pc));
	pc->cpu_number = cpu;
	pc->apic_id = apic_id;
	pc->stack_lo = stack_lo;
	pc->stack_hi = stack_hi;
	pc->ist_lo = ist_lo;
	smp_boot_params.cr3 = read_cr3();
	smp_boot_params.stack_top = stack_hi;
	smp_boot_params.gs_base = (u64)pc;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);

	err = apic_wakeup_secondary_cpu(apic_id, trampoline_phys >> PAGE_SHIFT);
	end = arch_cycles() + tsc_us_to_cycles(timeout_us);
	while (!err && !cpu_online(cpu)) {
		if (arch_cycles() > end)
			err = -ETIMEDOUT;
		arch_cpu_relax();
	}
	if (err) {
		apic_send_init(apic_id);
		pc->stack_lo = pc->stack_hi = 0;
		pr_warn("smp: CPU %u (APIC ID 0x%x) did not come up (%d), left out\n",
			cpu, apic_id, err);
	}
	return err;
}

/*
 * Send the wake-up sequence to an APIC ID no CPU answers to and wait
 * timeout_us, as the boot does: the timeout path, for the smpboot tests
 * (arch/arch.h). -EBUSY for the APIC ID of an online CPU, -ENOSPC if
 * every CPU number is taken, -ENODEV without a trampoline. The boot
 * page tables' 1:1 map is gone by now, so a CPU that answered after all
 * would fault in the trampoline and reset the machine: a failed test,
 * loudly (probe_stack only keeps the parameters sane).
 */
int arch_cpu_wakeup_test(u32 hw_id, unsigned long timeout_us)
{
	static char probe_stack[PAGE_SIZE] __aligned(16);

	for (unsigned int cpu = 0; cpu < nr_online; cpu++)
		if (x86_percpu[cpu].apic_id == hw_id)
			return -EBUSY;
	if (hw_id > 0xff || timeout_us > SMP_CALLIN_TIMEOUT_US)
		return -EINVAL;
	if (nr_online == NR_CPUS)
		return -ENOSPC;
	if (!trampoline_phys || nr_wanted < 2)
		return -ENODEV;
	return do_boot_cpu(nr_online, hw_id, (unsigned long)probe_stack,
			   (unsigned long)probe_stack + sizeof(probe_stack),
			   (unsigned long)probe_stack, timeout_us);
}

/* Copy the trampoline below 1 MiB and fill in its parameters. */
static void setup_trampoline(void)
{
	char *base = __va(trampoline_phys);
	u64 cr3 = (u64)boot_pml4;
	u64 efer = (rdmsr(MSR_EFER) & EFER_NX) | EFER_LME;

	memcpy(base, trampoline_start, trampoline_end - trampoline_start);
	memcpy(base + (tr_cr3 - trampoline_start), &cr3, sizeof(cr3));
	memcpy(base + (tr_efer - trampoline_start), &efer, sizeof(efer));
}

static void set_boot_cpu_info(void)
{
	struct x86_percpu *pc = &x86_percpu[0];

	setup_percpu_segment(0);
	pc->apic_id = apic_read_id();
	pc->stack_lo = (unsigned long)boot_stack;
	pc->stack_hi = (unsigned long)boot_stack_top;
	pc->seen_cpu = arch_cpu_id();
	pc->seen_gs_base = rdmsr(MSR_GS_BASE);
	pc->seen_stack = (unsigned long)__builtin_frame_address(0);
	pc->seen_apic_id = pc->apic_id;
}

void smp_boot_cpus(void)
{
	const struct x86_madt *m = x86_boot_madt;
	u64 *pml4 = __va((phys_addr_t)boot_pml4);
	unsigned int present;

	set_boot_cpu_info();
	BUG_ON(arch_set_irq_handler(RESCHEDULE_VECTOR, reschedule_interrupt));
	present = m->nr_present;	/* the boot CPU's entry included */
	nr_wanted = min(present, setup_max_cpus);
	if (nr_wanted > 1 && !trampoline_phys) {
		pr_warn("smp: no trampoline, the other CPUs stay off\n");
		nr_wanted = 1;
	}
	if (present > nr_wanted)
		pr_info("smp: %u of %u present CPUs allowed (nosmp/maxcpus=)\n",
			nr_wanted, present);
	for (unsigned int cpu = 1; cpu < nr_wanted; cpu++) {
		set_cpu_possible(cpu, true);
		set_cpu_present(cpu, true);
	}
	setup_nr_cpu_ids();
	if (nr_wanted > 1) {
		/*
		 * The APs' first page tables are the boot ones; give them
		 * back their 1:1 view of the first GiB (the boot CPU runs
		 * on the kernel's own tables by now).
		 */
		pml4[0] = pml4[PML4_INDEX(X86_PAGE_OFFSET)];
		setup_trampoline();
		pr_info("smp: Bringing up secondary CPUs ...\n");
	}
	for (unsigned int i = 1; i < m->nr_cpus && nr_online < nr_wanted;
	     i++) {
		u32 apic_id = m->cpus[i].apic_id;
		phys_addr_t stack;
		int err;

		if (!m->cpus[i].present)
			continue;
		stack = memblock_alloc_pages_named(AP_BOOT_PAGES, "SMP boot");
		if (!stack) {
			pr_warn("smp: no memory for CPU %u's stack\n", nr_online);
			break;
		}
		memset(__va(stack), 0, AP_BOOT_PAGES * PAGE_SIZE);
		/* A CPU that failed keeps its stack: it might still run. */
		err = do_boot_cpu(nr_online, apic_id, (unsigned long)__va(stack),
				  (unsigned long)__va(stack) +
				  AP_STACK_PAGES * PAGE_SIZE,
				  (unsigned long)__va(stack) +
				  AP_STACK_PAGES * PAGE_SIZE,
				  SMP_CALLIN_TIMEOUT_US);
		percpu_account(AP_BOOT_PAGES * PAGE_SIZE);
		if (err)
			continue;
		pr_info("smp: CPU %u is up (APIC ID 0x%x)\n", nr_online, apic_id);
		nr_online++;
	}
	pml4[0] = 0;
	pr_info("smp: Brought up %u node%s, %u CPU%s\n", num_online_nodes(),
		num_online_nodes() == 1 ? "" : "s", nr_online,
		nr_online == 1 ? "" : "s");
}

unsigned int arch_cpus_wanted(void)
{
	return nr_wanted;
}

int arch_cpu_info(unsigned int cpu, struct arch_cpu_info *info)
{
	const struct x86_percpu *pc;

	if (cpu >= nr_online || !cpu_online(cpu))
		return -EINVAL;
	pc = &x86_percpu[cpu];
	info->cpu = pc->seen_cpu;
	info->hw_id = pc->seen_apic_id;
	info->percpu_base = pc->seen_gs_base;
	info->stack = pc->seen_stack;
	return 0;
}

/* The stack cpu runs on: [lo, hi). The stack walk's: not instrumented. */
__no_sanitize_address void x86_cpu_stack(unsigned int cpu, unsigned long *lo, unsigned long *hi)
{
	*lo = x86_percpu[cpu].stack_lo;
	*hi = x86_percpu[cpu].stack_hi;
}

/*
 * Give cpu work (see the top comment): 0, -EINVAL for CPU 0 or a CPU
 * that is not online, -EBUSY if its slot is not idle (it runs or is
 * about to run something), -EIO if the wake-up IPI could not be sent
 * (the slot is then idle again).
 */
int arch_cpu_run(unsigned int cpu, void (*fn)(void *arg), void *arg)
{
	struct x86_percpu *pc;
	unsigned int idle = CPU_WORK_IDLE;

	if (cpu == 0 || cpu >= nr_online || !cpu_online(cpu) || !fn)
		return -EINVAL;
	pc = &x86_percpu[cpu];
	if (!__atomic_compare_exchange_n(&pc->work_state, &idle,
					 CPU_WORK_CLAIMED, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return -EBUSY;
	pc->work_fn = fn;
	pc->work_arg = arg;
	__atomic_store_n(&pc->work_state, CPU_WORK_QUEUED, __ATOMIC_RELEASE);
	if (apic_send_IPI_fixed(pc->apic_id, RESCHEDULE_VECTOR)) {
		unsigned int queued = CPU_WORK_QUEUED;

		/* Take the work back unless the CPU found it anyway. */
		if (__atomic_compare_exchange_n(&pc->work_state, &queued,
						CPU_WORK_IDLE, false,
						__ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED)) {
			pr_warn("smp: no wake-up IPI to CPU %u, work not sent\n",
				cpu);
			return -EIO;
		}
	}
	return 0;
}

/*
 * Wait until cpu's work has returned (at once if it has none). Past
 * CPU_JOIN_TIMEOUT_S of TSC time it panics, naming the CPU and fn.
 */
void arch_cpu_join(unsigned int cpu)
{
	struct x86_percpu *pc;
	u64 end;

	if (cpu == 0 || cpu >= nr_online)
		return;
	pc = &x86_percpu[cpu];
	end = arch_cycles() + tsc_us_to_cycles(CPU_JOIN_TIMEOUT_S * 1000000UL);
	while (__atomic_load_n(&pc->work_state, __ATOMIC_ACQUIRE) !=
	       CPU_WORK_IDLE) {
		if (arch_cycles() > end)
			panic("smp: CPU %u still runs %pS after %u s (state %u)\n",
			      cpu, pc->work_fn, CPU_JOIN_TIMEOUT_S,
			      __atomic_load_n(&pc->work_state,
					      __ATOMIC_RELAXED));
		arch_cpu_relax();
	}
}

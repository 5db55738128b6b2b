/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arch interface: everything kernel/ and mm/ may ask of the machine.
 *
 * Two implementations exist. arch/x86_64/ runs on the (virtual) machine:
 * a 16550 UART for the console, the TSC for time, QEMU's isa-debug-exit
 * device to end a run. arch/host/ runs the same kernel code as an ordinary
 * Linux process (as Linux's arch/um does): stdio for the console,
 * clock_gettime for time, exit() to end the run. Nothing outside arch/
 * knows which one it is linked with.
 */
#ifndef ARCH_ARCH_H
#define ARCH_ARCH_H

#include "kernel/types.h"

/* How a run ends; the harness reads this as the run's verdict. */
enum arch_exit_status {
	ARCH_EXIT_SUCCESS = 0,
	ARCH_EXIT_FAILURE = 1,
};

/* Name of the platform, printed in the boot banner. */
extern const char arch_name[];

/* Console: write bytes (never fails), read one byte (blocks; -1 at EOF). */
void arch_console_write(const char *s, size_t len);
int arch_console_getc(void);

/* Nanoseconds since boot, and a raw cycle counter. */
u64 arch_clock_ns(void);
u64 arch_cycles(void);

/*
 * Nanoseconds this CPU has run so far: on x86_64 a CPU never stops
 * running the kernel, so arch_clock_ns(); on the host the CPU's thread's
 * own CPU time, which leaves out the time the host ran other work.
 */
u64 arch_cpu_time_ns(void);

/* The kernel command line handed over by the boot loader (never NULL). */
const char *arch_cmdline(void);

/* End the run (QEMU exits, or the process exits) with a status. */
__noreturn void arch_exit(enum arch_exit_status status);

/* Stop this CPU for good, interrupts off. */
__noreturn void arch_halt(void);

/*
 * For a panic. arch_stop_other_cpus() stops every other CPU that runs
 * kernel code where it stands, for good, and waits at most timeout_us
 * for each to say it stopped; it returns how many did not. On x86_64 it
 * is an NMI, so a CPU spinning with interrupts off stops too; on the
 * host, a signal that parks the CPU's thread. arch_stop_this_cpu() parks
 * the calling CPU the same way (x86_64: cli; hlt), leaving the run to
 * the CPU that ends it (arch_halt() on the host would end the process).
 */
unsigned int arch_stop_other_cpus(unsigned long timeout_us);
__noreturn void arch_stop_this_cpu(void);

/*
 * Reset at once, without a report or a clean shutdown: a triple fault on
 * x86_64 (QEMU with -no-reboot then exits with status 0), abort() on the
 * host. The test harness uses it to prove it notices a silent reset.
 */
__noreturn void arch_emergency_restart(void);

/*
 * The whole of this CPU's kernel stack that holds addr, [*lo, *hi), or
 * false if none does: a frame-pointer walk follows frames inside it
 * without faulting, and asks once per stack, not once per frame.
 */
bool arch_stack_bounds(unsigned long addr, unsigned long *lo,
		       unsigned long *hi);

/*
 * Single-step fn(arg) on this CPU (the trap flag: a debug trap after
 * every instruction). Before each instruction, step(&ip, data) runs in
 * the trap's context, as an interrupt handler would, with the address
 * of the instruction about to run, which it may change; when it returns
 * false the stepping ends. For tests (the rseq suite steps the
 * restartable sequences, kernel/rseq.h); not reentrant.
 */
void arch_single_step(void (*fn)(void *arg), void *arg,
		      bool (*step)(unsigned long *ip, void *data), void *data);

/*
 * The hot ones come inline from each arch's <asm/cpu.h> (the build puts
 * arch/<arch>/include on the include path):
 *
 *	unsigned long arch_irq_save(void);	interrupts off, old state
 *	void arch_irq_restore(unsigned long);	back to that state
 *	void arch_irq_enable(void);		interrupts on
 *	bool arch_irqs_disabled(void);		are they off on this CPU?
 *	unsigned int arch_hardirq_count(void);	interrupt handlers this
 *						CPU is inside (0: none)
 *	void arch_cpu_relax(void);		spin-wait hint
 *	unsigned int arch_cpu_id(void);		this CPU, < nr_cpu_ids
 *
 * NR_CPUS is the most CPUs the kernel is built for (make NR_CPUS=N,
 * 1..255: x86_64 numbers CPUs by xAPIC ID, 0..254, 255 being broadcast).
 * Which CPUs there are is kernel/cpumask.h's: the arch fills in the
 * possible, present and online masks and nr_cpu_ids.
 */
#ifndef CONFIG_NR_CPUS
#error "CONFIG_NR_CPUS is not set: build with make (NR_CPUS=N)"
#endif
#define NR_CPUS		CONFIG_NR_CPUS
#if NR_CPUS < 1 || NR_CPUS > 255
#error "NR_CPUS must be 1..255 (xAPIC IDs 0..254)"
#endif
#include <asm/cpu.h>

/*
 * Interrupts (kernel/irq.h is the API kernel code uses). The boot CPU
 * starts with interrupts off; start_kernel() calls arch_irq_init() once
 * memory is up: it sets up the interrupt controller (the local APIC on
 * x86_64, a signal on the host), installs the arch's own vectors and
 * turns interrupts on. From then on the kernel runs with interrupts on
 * except inside arch_irq_save()/arch_irq_restore().
 *
 * apic_send_IPI_self() raises vector (FIRST_EXTERNAL_VECTOR ..
 * NR_VECTORS - 1) on this CPU: its handler runs at once if interrupts
 * are on, else when they come back on, once however often it was raised
 * meanwhile (an interrupt request is one bit, as in the APIC's IRR).
 * On the host, arch_irq_save() sets a thread-local soft flag, the
 * interrupt is a signal that finds the flag set and leaves the vector
 * pending, and arch_irq_restore() runs what is pending.
 */
void arch_irq_init(void);
void apic_send_IPI_self(unsigned int vector);

/*
 * The tick (kernel/time.c): arch_irq_init() starts a periodic timer of
 * HZ on the boot CPU; time_init() has every other CPU call
 * arch_tick_start(), which starts its own (nothing if it runs already).
 * Each tick calls tick_handle_periodic() in interrupt context, on
 * LOCAL_TIMER_VECTOR. arch_tick_rate_mhz(ref) is the rate this CPU's
 * timer runs at, measured now, in millihertz (0 if it does not run):
 * against the calibration reference (TICK_REF_CALIBRATION; x86_64: the
 * PIT) or the TSC (TICK_REF_TSC). The time tests compare it with HZ.
 * The host's timer is exact by construction: both give its period.
 */
enum tick_ref { TICK_REF_CALIBRATION, TICK_REF_TSC };
unsigned long arch_tick_rate_mhz(enum tick_ref ref);
void arch_tick_start(void);

/*
 * Tickless idle (kernel/time.c), on this CPU, interrupts off:
 * arch_tick_stop(delta_ns) stops the periodic tick and arms a single
 * tick interrupt delta_ns from now (none if 0); false if this arch or
 * CPU cannot, and then nothing changed. arch_tick_resume() starts the
 * periodic tick again.
 */
bool arch_tick_stop(u64 delta_ns);
void arch_tick_resume(void);

/*
 * Cross-CPU calls (kernel/smp.c). A CPU in cpu_online_mask
 * (kernel/cpumask.h) runs and takes interrupts from other CPUs (x86_64:
 * an AP sets its bit as it comes up; the host: a thread of this program
 * stands for it, see arch/host/main.c; the malloc shim: none, its CPUs
 * are the application's threads). arch_send_call_function_ipi(cpu) raises
 * CALL_FUNCTION_VECTOR on that online CPU, never on this one: 0, or
 * -ETIMEDOUT (x86_64: the APIC did not send it), -ENXIO (not online).
 * arch_send_reschedule_ipi(cpu) raises RESCHEDULE_VECTOR there in the
 * same way, whose handler does nothing: it wakes an idle CPU.
 */
int arch_send_call_function_ipi(unsigned int cpu);
int arch_send_reschedule_ipi(unsigned int cpu);

/*
 * Run fn(arg) on another CPU (1 .. nr_cpu_ids - 1) while the caller
 * goes on; arch_cpu_join() waits until it has returned (at once if that
 * CPU was given nothing). 0; -EBUSY if that CPU already runs something
 * (on the host: until it is joined); -EINVAL for CPU 0 or a CPU that is
 * not online (x86_64) or >= NR_CPUS (the host). fn runs with interrupts
 * on, and the CPU takes cross-CPU calls meanwhile. On x86_64 an
 * application processor's idle loop picks the work up, woken by
 * RESCHEDULE_VECTOR (arch/x86_64/smpboot.c). On the host each CPU is a
 * thread that lives as long as the program (arch/host/main.c): fn runs
 * on it, between the interrupts it takes. On both, a join that waits
 * more than 120 s panics naming the CPU and fn.
 */
int arch_cpu_run(unsigned int cpu, void (*fn)(void *arg), void *arg);
void arch_cpu_join(unsigned int cpu);

/*
 * What CPU cpu (< nr_cpu_ids) recorded about itself when it started
 * (x86_64: the boot CPU in setup_arch(), each application processor in
 * start_secondary()): the number arch_cpu_id() gave it, its hardware ID
 * (APIC ID), the base of its per-CPU area (GS base) and an address on
 * its stack. 0, -EINVAL for a CPU that is not online, -ENOSYS where the
 * kernel does not start the CPUs itself (the host: CPUs are threads).
 * arch_cpus_wanted() is how many CPUs the kernel meant to have online
 * (the firmware's present CPUs, cut by nosmp/maxcpus=; fewer are
 * online if some did not come up), 0 on the host.
 */
struct arch_cpu_info {
	unsigned int cpu;
	u32 hw_id;
	unsigned long percpu_base;
	unsigned long stack;
};
int arch_cpu_info(unsigned int cpu, struct arch_cpu_info *info);
unsigned int arch_cpus_wanted(void);

/*
 * For the tests: send the CPU start-up sequence to hardware ID hw_id,
 * which no CPU should answer to, and wait at most timeout_us (<= 1 s)
 * for it to report in, as the boot does: -ETIMEDOUT (and the boot's
 * "did not come up" line) when nobody does; -EBUSY if hw_id is an online
 * CPU's, -EINVAL for an ID or timeout out of range, -ENOSPC if no CPU
 * number is left, -ENODEV if the boot started no AP (nosmp, maxcpus=1,
 * one CPU), -ENOSYS on the host.
 */
int arch_cpu_wakeup_test(u32 hw_id, unsigned long timeout_us);

/*
 * For the tests: an IPI whose two ICR writes (destination, then command)
 * are made with interrupts on, which the ICR write helper reports with a
 * WARNING and then makes with them off (RESCHEDULE_VECTOR to this CPU,
 * by its APIC ID). 0 once sent, -ETIMEDOUT, -EINVAL if called with
 * interrupts off, -ENOSYS on the host (no APIC).
 */
int arch_icr_write_irqs_on_test(void);

/*
 * Memory bring-up, called by start_kernel() in this order:
 *
 * arch_memory_setup() reads the firmware's memory map, sanitizes it and
 * prints it: the e820 table from multiboot2 on x86_64, a QEMU-like
 * synthetic e820 table on the host (which models a PC, so it shares
 * arch/x86_64/e820.c). The command line's early parameters run next and
 * may edit the map (mem=, memmap=).
 *
 * arch_memblock_setup() then adds the usable RAM to memblock, reserves
 * what the firmware keeps (the first 64 KiB on a PC) and sets max_pfn.
 *
 * setup_arch() runs once memblock knows the RAM: it reserves what the
 * arch owns (kernel image, boot information, modules), maps all RAM at
 * page_offset_base (and sets it), sets vmemmap, and lifts memblock's
 * allocation limit to all of RAM.
 *
 * vmemmap_populate() backs the struct pages in [start, end) (virtual
 * addresses inside mem_map) with zeroed memory from memblock, of node
 * nid where it has some (the node of the pages they describe, as
 * Linux's), and returns how many bytes it allocated (0 for parts
 * already backed).
 */
void arch_memory_setup(void);
void arch_memblock_setup(void);
void setup_arch(void);
unsigned long vmemmap_populate(unsigned long start, unsigned long end,
			       int nid);

/*
 * True if addr lies in the kernel's read-only data, which is never
 * written or freed (kstrdup_const() returns such strings themselves).
 * x86_64: the image's .rodata, [_rodata, _erodata) from linker.ld. The
 * host: the read-only, non-executable load segments of the program (or
 * of the malloc shim's library) that holds the kernel code, found by
 * setup_arch(); they hold .rodata and also other read-only sections
 * (symbol tables, unwind data), which are never written or freed either;
 * there it is false for every address until setup_arch() has run.
 */
bool arch_is_kernel_rodata(unsigned long addr);

/*
 * debug_pagealloc (mm/page_debug.c). With debug_pagealloc=on on the
 * command line, setup_arch() maps RAM with 4 KiB pages only, so that
 * arch_kernel_map_pages() can take numpages pages starting at page out of
 * the direct map (enable false: any access faults) and put them back
 * (enable true). It is called only while debug_pagealloc is on.
 * arch_kernel_page_present() tells whether virt is mapped right now (any
 * address; tests and fault reports use it). The page fault handler names
 * a free page behind a fault (debug_pagealloc_fault()).
 *
 * KFENCE's pool (mm/kfence.c) lies at the arch's KFENCE_POOL_START
 * (asm/kfence.h). arch_kfence_init_pool() backs [addr, addr + size) with
 * memory, mapped read-write with 4 KiB pages, at boot while memblock
 * still hands out memory; false if it cannot (KFENCE stays off).
 * arch_kfence_protect_page() makes the pool's page at addr not present
 * (protect) or present again, for this CPU at once.
 */
struct page;
void arch_kernel_map_pages(struct page *page, int numpages, bool enable);
bool arch_kernel_page_present(unsigned long virt);
bool arch_kfence_init_pool(unsigned long addr, unsigned long size);
void arch_kfence_protect_page(unsigned long addr, bool protect);

/*
 * A block of 2^order pages leaves the buddy lists (Linux's hook of the
 * name, which s390 uses to tell its hypervisor the pages are in use).
 * Called under zone->lock in a per-CPU list refill, so it must neither
 * allocate nor sleep. x86_64 has nothing to do; the host backs the
 * block's RAM in its process ahead of the first touch (arch/host/mm.c).
 */
void arch_alloc_page(struct page *page, unsigned int order);

/*
 * KASAN's shadow (mm/kasan.h is the API the allocators call). Each arch
 * supplies, inline from its <asm/kasan.h>:
 *
 *	bool arch_kasan_enabled(void);	a compile-time constant: is there
 *					a shadow at all? (false: every
 *					hook compiles away)
 *	void arch_kasan_init(void);	set the backend up (kasan_init())
 *	void arch_kasan_poison(addr, size, value);
 *					mark [addr, addr + size) invalid;
 *					value is generic KASAN's shadow
 *					byte (KASAN_SLAB_FREE, ...), for a
 *					backend that keeps it. addr is
 *					granule aligned (KASAN_GRANULE_SIZE)
 *	void arch_kasan_unpoison(addr, size);
 *					mark it valid; a partial last
 *					granule keeps its tail invalid
 *	const void *arch_kasan_first_bad(addr, size);
 *					the first invalid byte, or NULL
 *	void arch_kasan_report(addr, size, is_write, ip);
 *					report a bad access the generic
 *					code found (a string function's
 *					range, a free) as the backend
 *					reports its own
 *	void arch_kasan_print_shadow(addr);
 *					print the shadow bytes around a
 *					bad address in a report (Linux's
 *					"Memory state around the buggy
 *					address"), or nothing
 *	unsigned long arch_kasan_shadow_pages(void);
 *					pages the shadow took from the
 *					page allocator and keeps (the
 *					leak check leaves them out)
 *	void arch_kasan_expect_reports(on);
 *					the kasan suite runs: its bad
 *					accesses are expected, the
 *					backend's own report text may
 *					stay quiet (the kernel's is kept)
 *
 * The backend calls kasan_report() (mm/kasan.h) for every bad access it
 * catches, so that the report says what the memory is to the
 * allocators. x86_64's backend is gcc's -fsanitize=kernel-address with
 * the shadow at KASAN_SHADOW_OFFSET (make KASAN=1; without it all empty,
 * disabled); the host build with AddressSanitizer drives ASan's shadow
 * (manual poisoning), without it (benchmarks, the malloc shim) none.
 */
#include <asm/kasan.h>

/*
 * Fuzzing (fuzz/fuzz.c). arch_fuzz_input() sees each random input just
 * before it runs, so it can be kept if the run crashes: the host writes
 * it to the file named by $CRAM_FUZZ_SAVE, x86_64 does nothing.
 * arch_read_file() reads a whole file into buf and returns its length,
 * -E2BIG if it is longer than size, or -errno (-ENOSYS on x86_64).
 */
void arch_fuzz_input(const u8 *data, size_t len);
long arch_read_file(const char *path, void *buf, size_t size);

#endif /* ARCH_ARCH_H */

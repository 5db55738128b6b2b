// SPDX-License-Identifier: GPL-2.0
/*
 * The local APIC, in xAPIC mode through its MMIO page.
 *
 * apic_map() (from setup_arch()) finds it (CPUID.1:EDX.APIC), takes its
 * physical base from apic_phys_base() (today the IA32_APIC_BASE MSR; the
 * ACPI MADT's address will come through the same function) and maps the
 * page uncached with ioremap_uc() (mm/vmalloc.c: an early area of the
 * vmalloc window, listed by vmallocinfo). apic_init() (from arch_irq_init())
 * programs it the way Linux's setup_local_APIC() does for the boot CPU
 * without an I/O APIC:
 *
 *   SVR    software enabled, spurious vector 0xff (its handler counts;
 *          a spurious interrupt is not in service, so no EOI, unless
 *          the ISR shows a real interrupt was sent on that vector)
 *   TPR    0, every priority class accepted
 *   timer  masked, until setup_boot_APIC_clock() / the AP's
 *          arch_tick_start() start the tick (below)
 *   LINT0  ExtINT, virtual wire to the 8259A (whose lines are all masked)
 *   LINT1  NMI
 *   error  vector 0xfe, whose handler reads and reports the ESR
 *   perf counters, thermal: masked
 *
 * Every other vector from 0x20 is delivered as a fixed interrupt and
 * acknowledged with an EOI by do_IRQ() (irq.c) after its handler.
 * apic_send_IPI_self() uses the ICR's "self" shorthand.
 */
#include "arch/x86_64/x86.h"
#include "mm/vmalloc.h"
#include "arch/x86_64/io.h"
#include "kernel/cpumask.h"
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "mm/mm.h"

#define MSR_IA32_APICBASE		0x1b
#define MSR_IA32_APICBASE_BSP		(1UL << 8)
#define MSR_IA32_APICBASE_ENABLE	(1UL << 11)
#define MSR_IA32_APICBASE_BASE		0xfffff000UL
#define X86_FEATURE_APIC		(1U << 9)	/* CPUID.1:EDX */

#define APIC_ID		0x020
#define APIC_LVR	0x030
#define APIC_TASKPRI	0x080
#define APIC_EOI	0x0b0
#define APIC_SPIV	0x0f0
#define APIC_SPIV_APIC_ENABLED	(1U << 8)
#define APIC_ISR	0x100
#define APIC_IRR	0x200
#define APIC_ESR	0x280
#define APIC_ICR	0x300
#define APIC_ICR2	0x310		/* destination, bits 24-31 */
#define APIC_DM_INIT		0x500
#define APIC_DM_STARTUP		0x600
#define APIC_INT_LEVELTRIG	(1U << 15)
#define APIC_INT_ASSERT		(1U << 14)
#define APIC_ICR_BUSY		(1U << 12)
#define APIC_DEST_SELF		(1U << 18)
#define APIC_DM_FIXED		0x000
#define APIC_LVTT	0x320
#define APIC_LVTTHMR	0x330
#define APIC_LVTPC	0x340
#define APIC_LVT0	0x350
#define APIC_LVT1	0x360
#define APIC_LVTERR	0x370
#define APIC_LVT_MASKED		(1U << 16)
#define APIC_LVT_TIMER_PERIODIC	(1U << 17)
#define APIC_TMICT	0x380		/* timer initial count */
#define APIC_TMCCT	0x390		/* timer current count */
#define APIC_TDCR	0x3e0		/* timer divide configuration */
#define APIC_TDR_DIV_16		0x3
#define APIC_CALIBRATE_MS	25
#define APIC_DM_NMI		0x400
#define APIC_DM_EXTINT		0x700

static void *apic_base;

static u32 apic_read(u32 reg)
{
	return readl((char *)apic_base + reg);
}

static void apic_write(u32 reg, u32 val)
{
	writel(val, (char *)apic_base + reg);
}

/* Where the local APIC's registers are (physical). */
phys_addr_t apic_phys_base(void)
{
	return rdmsr(MSR_IA32_APICBASE) & MSR_IA32_APICBASE_BASE;
}

static bool vector_bit(u32 reg, unsigned int vector)
{
	return apic_read(reg + (vector / 32) * 0x10) & (1U << (vector % 32));
}

void apic_eoi(void)
{
	apic_write(APIC_EOI, 0);
}

/*
 * A spurious interrupt is never in service: no EOI, only count it. But
 * a real interrupt sent on the spurious vector (an IPI) is, and must be
 * acknowledged, or it would block every vector below it for good.
 */
static void spurious_interrupt(unsigned int vector)
{
	if (vector_bit(APIC_ISR, vector))
		apic_eoi();
}

/* Writing the ESR latches the errors seen since; then it can be read. */
static u32 apic_read_esr(void)
{
	apic_write(APIC_ESR, 0);
	return apic_read(APIC_ESR);
}

static void error_interrupt(unsigned int vector)
{
	u32 esr = apic_read_esr();

	pr_err("APIC: CPU %u: error interrupt, ESR 0x%02x%s%s%s%s\n",
	       arch_cpu_id(), esr,
	       esr & 0x20 ? " (send illegal vector)" : "",
	       esr & 0x40 ? " (received illegal vector)" : "",
	       esr & 0x80 ? " (illegal register address)" : "",
	       esr & 0x0f ? " (bus/checksum error)" : "");
}

/*
 * The boot CPU takes the 8259A's ExtINT on LINT0 (virtual wire); an AP
 * keeps LINT0 masked, as in Linux.
 */
static void setup_local_APIC(bool boot_cpu)
{
	apic_write(APIC_TASKPRI, 0);
	apic_write(APIC_SPIV, APIC_SPIV_APIC_ENABLED | SPURIOUS_APIC_VECTOR);
	apic_write(APIC_LVTT, APIC_LVT_MASKED | LOCAL_TIMER_VECTOR);
	apic_write(APIC_LVTPC, APIC_LVT_MASKED);
	if (((apic_read(APIC_LVR) >> 16) & 0xff) >= 5)	/* has a thermal LVT */
		apic_write(APIC_LVTTHMR, APIC_LVT_MASKED);
	apic_write(APIC_LVT0, boot_cpu ? APIC_DM_EXTINT :
					 APIC_DM_EXTINT | APIC_LVT_MASKED);
	apic_write(APIC_LVT1, APIC_DM_NMI);
	apic_read_esr();
	apic_write(APIC_LVTERR, ERROR_APIC_VECTOR);
	apic_read_esr();
	apic_eoi();	/* anything left in service by the firmware */
}

/*
 * Find and map the boot CPU's local APIC, from setup_arch() (the page
 * tables come from memblock); 0, or -ENODEV if the CPU has none,
 * -ENOMEM if it cannot be mapped.
 */
int apic_map(void)
{
	u32 a, b, c, d;
	u64 msr;

	cpuid(1, 0, &a, &b, &c, &d);
	if (!(d & X86_FEATURE_APIC))
		return -ENODEV;
	msr = rdmsr(MSR_IA32_APICBASE);
	if (!(msr & MSR_IA32_APICBASE_ENABLE))
		wrmsr(MSR_IA32_APICBASE, msr | MSR_IA32_APICBASE_ENABLE);
	apic_base = ioremap_uc(apic_phys_base(), PAGE_SIZE);
	return apic_base ? 0 : -ENOMEM;
}

/* Program the mapped APIC and install its vectors' handlers. */
int apic_init(void)
{
	if (!apic_base)
		return -ENODEV;
	BUG_ON(arch_set_irq_handler(SPURIOUS_APIC_VECTOR, spurious_interrupt));
	BUG_ON(arch_set_irq_handler(ERROR_APIC_VECTOR, error_interrupt));
	setup_local_APIC(true);
	pr_info("APIC: local APIC id %u version 0x%x at 0x%lx (xAPIC)%s\n",
		apic_read(APIC_ID) >> 24, apic_read(APIC_LVR) & 0xff,
		(unsigned long)apic_phys_base(),
		rdmsr(MSR_IA32_APICBASE) & MSR_IA32_APICBASE_BSP ?
			", boot CPU" : "");
	return 0;
}

/*
 * Wait at most timeout_us microseconds for the APIC to have sent the
 * last IPI (ICR delivery status idle): 0, or -ETIMEDOUT.
 */
static int apic_wait_icr_idle(unsigned long timeout_us)
{
	u64 end = arch_cycles() + tsc_us_to_cycles(timeout_us);

	while (apic_read(APIC_ICR) & APIC_ICR_BUSY) {
		if (arch_cycles() > end)
			return -ETIMEDOUT;
		arch_cpu_relax();
	}
	return 0;
}

/* How long a self-IPI may take to be sent, then to be taken. */
#define SELF_IPI_TIMEOUT_US	100000

/*
 * Every IPI is written as a pair: the destination (ICR2), then the
 * command (ICR), whose write sends it. Interrupts must be off from the
 * wait for the ICR to be idle to the command: a handler that sent an
 * IPI of its own in between (a reschedule, a cross-CPU call) would send
 * this one to its destination instead (an INIT meant for a CPU that is
 * not up would hit a live one), or write a busy ICR. Called with them
 * on, it says so and turns them off for the pair itself.
 */
static void apic_icr_write(u32 low, u32 apic_id)
{
	unsigned long flags;

	WARN(!arch_irqs_disabled(),
	     "APIC: ICR write 0x%x to APIC ID 0x%x with interrupts on\n",
	     low, apic_id);
	flags = arch_irq_save();
	apic_write(APIC_ICR2, apic_id << 24);
	apic_write(APIC_ICR, low);
	arch_irq_restore(flags);
}

/*
 * Raise vector on this CPU. With interrupts on, wait (a bounded time)
 * until it has been taken, so the handler has run when this returns, as
 * on the host.
 */
void apic_send_IPI_self(unsigned int vector)
{
	unsigned long flags;
	int err;
	u64 end;

	if (WARN(vector < FIRST_EXTERNAL_VECTOR || vector >= NR_VECTORS,
		 "APIC: self-IPI with invalid vector 0x%x\n", vector))
		return;
	if (WARN_ON_ONCE(!apic_base))
		return;
	flags = arch_irq_save();
	err = apic_wait_icr_idle(SELF_IPI_TIMEOUT_US);
	if (!err)
		apic_icr_write(APIC_DEST_SELF | APIC_DM_FIXED | vector, 0);
	arch_irq_restore(flags);
	if (WARN_ONCE(err, "APIC: ICR busy, self-IPI 0x%x not sent\n", vector) ||
	    arch_irqs_disabled())
		return;
	end = arch_cycles() + tsc_us_to_cycles(SELF_IPI_TIMEOUT_US);
	while (vector_bit(APIC_IRR, vector)) {
		if (arch_cycles() > end) {
			WARN_ONCE(1, "APIC: self-IPI 0x%x not taken\n", vector);
			return;
		}
		arch_cpu_relax();
	}
}

/*
 * An application processor's local APIC, from start_secondary(): set up
 * like the boot CPU's (the vectors' handlers are global, installed by
 * apic_init() on the boot CPU), LINT0 masked.
 */
void apic_ap_init(void)
{
	BUG_ON(!apic_base);
	setup_local_APIC(false);
}

/* This CPU's APIC ID (xAPIC: bits 24-31 of the ID register). */
u32 apic_read_id(void)
{
	return apic_read(APIC_ID) >> 24;
}

/*
 * Send an IPI to one APIC ID (no shorthand): wait at most timeout_us
 * microseconds for the ICR to be idle, write it (apic_icr_write), and
 * wait as long for the APIC to have sent it, all with interrupts off.
 * 0, -EINVAL (no APIC, an ID past xAPIC's 8 bits), or -ETIMEDOUT if the
 * delivery status stayed busy.
 */
static int apic_send_IPI_dest(u32 apic_id, u32 low, unsigned long timeout_us)
{
	unsigned long flags;
	int err;

	if (WARN_ON_ONCE(!apic_base) || apic_id > 0xff)
		return -EINVAL;
	flags = arch_irq_save();
	err = apic_wait_icr_idle(timeout_us);
	if (!err) {
		apic_icr_write(low, apic_id);
		err = apic_wait_icr_idle(timeout_us);
	}
	arch_irq_restore(flags);
	return err;
}

/*
 * Send vector to the CPU with this APIC ID as a fixed interrupt, waiting
 * a bounded time for the APIC to have sent it: 0, -EINVAL for a vector
 * outside FIRST_EXTERNAL_VECTOR .. NR_VECTORS - 1, -ETIMEDOUT.
 */
int apic_send_IPI_fixed(u32 apic_id, unsigned int vector)
{
	if (vector < FIRST_EXTERNAL_VECTOR || vector >= NR_VECTORS)
		return -EINVAL;
	return apic_send_IPI_dest(apic_id, APIC_DM_FIXED | vector,
				  SELF_IPI_TIMEOUT_US);
}

/*
 * For the tests (arch/arch.h): the ICR write with interrupts on, which
 * apic_icr_write() reports. RESCHEDULE_VECTOR, whose handler does
 * nothing, to this CPU by its own APIC ID.
 */
int arch_icr_write_irqs_on_test(void)
{
	if (arch_irqs_disabled())
		return -EINVAL;
	if (!apic_base)
		return -ENODEV;
	apic_icr_write(APIC_DM_FIXED | RESCHEDULE_VECTOR, apic_read_id());
	return apic_wait_icr_idle(SELF_IPI_TIMEOUT_US);
}

/*
 * CALL_FUNCTION_VECTOR to an online CPU by its APIC ID (physical
 * destination, fixed delivery: apic_send_IPI_fixed()).
 */
int arch_send_call_function_ipi(unsigned int cpu)
{
	if (!cpu_online(cpu) || WARN_ON_ONCE(cpu == arch_cpu_id()))
		return -ENXIO;
	return apic_send_IPI_fixed(x86_percpu[cpu].apic_id,
				   CALL_FUNCTION_VECTOR);
}

int arch_send_reschedule_ipi(unsigned int cpu)
{
	if (!cpu_online(cpu) || WARN_ON_ONCE(cpu == arch_cpu_id()))
		return -ENXIO;
	return apic_send_IPI_fixed(x86_percpu[cpu].apic_id, RESCHEDULE_VECTOR);
}

/*
 * Intel's INIT-SIPI-SIPI (SDM vol. 3, "MP initialization"): INIT
 * (assert, then deassert), 10 ms, then STARTUP twice, 200 us after
 * each, the AP starting in real mode at page start_page (its physical
 * address >> 12). An error is the APIC's (ESR) or a send that never
 * completed; whether the AP runs is for the caller to see.
 */
int apic_wakeup_secondary_cpu(u32 apic_id, unsigned int start_page)
{
	int err;

	if (start_page > 0xff)
		return -EINVAL;
	apic_read_esr();
	err = apic_send_IPI_dest(apic_id, APIC_INT_LEVELTRIG | APIC_INT_ASSERT |
					  APIC_DM_INIT, 1000);
	if (!err)
		err = apic_send_IPI_dest(apic_id, APIC_INT_LEVELTRIG |
						  APIC_DM_INIT, 1000);
	if (err)
		return err;
	tsc_udelay(10000);
	for (int i = 0; i < 2; i++) {
		apic_read_esr();
		err = apic_send_IPI_dest(apic_id, APIC_DM_STARTUP | start_page,
					 1000);
		tsc_udelay(200);
		if (err)
			return err;
		if (apic_read_esr() & 0xef)
			return -EIO;
	}
	return 0;
}

/*
 * An NMI to the CPU with this APIC ID (the panic's stop), sent as
 * apic_send_IPI_fixed() sends; a send that does not complete is reported.
 */
void apic_send_nmi(u32 apic_id)
{
	int err = apic_send_IPI_dest(apic_id, APIC_DM_NMI, SELF_IPI_TIMEOUT_US);

	if (err)
		pr_emerg("APIC: NMI to APIC ID 0x%x not sent (%d)\n",
			 apic_id, err);
}

/* Put the CPU with this APIC ID back into wait-for-SIPI (INIT). */
void apic_send_init(u32 apic_id)
{
	int err = apic_send_IPI_dest(apic_id, APIC_INT_LEVELTRIG |
					      APIC_INT_ASSERT | APIC_DM_INIT,
				     1000);

	if (!err)
		err = apic_send_IPI_dest(apic_id, APIC_INT_LEVELTRIG |
						  APIC_DM_INIT, 1000);
	if (err)
		pr_warn("APIC: INIT to APIC ID 0x%x not sent (%d): that CPU may still run\n",
			apic_id, err);
}

/*
 * The tick: each CPU's local APIC timer, periodic, divide by 16, on
 * LOCAL_TIMER_VECTOR. Its rate is not architectural (QEMU's runs from
 * its virtual clock), so the boot CPU measures it once against the PIT:
 * a one-shot count from ~0 over a PIT window of APIC_CALIBRATE_MS (the
 * tightest of a few, see pit_window_best()). The TSC is read in the
 * same window and checked against tsc_init()'s measure; more than 5%
 * apart is reported. Every CPU then counts
 * lapic_timer_period per tick.
 */
static u32 lapic_timer_period;	/* APIC timer counts per tick */

static u32 apic_timer_count(void)
{
	return apic_read(APIC_TMCCT);
}

static void local_apic_timer_interrupt(unsigned int vector)
{
	tick_handle_periodic();
}

static void start_apic_timer(void)
{
	apic_write(APIC_TDCR, APIC_TDR_DIV_16);
	apic_write(APIC_LVTT, APIC_LVT_TIMER_PERIODIC | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TMICT, lapic_timer_period);
}

/* Counts per second of the APIC timer at divide 16, against the PIT. */
static u64 calibrate_APIC_clock(void)
{
	u64 tsc_khz_pit, counts;
	struct pit_window w;

	apic_write(APIC_TDCR, APIC_TDR_DIV_16);
	apic_write(APIC_LVTT, APIC_LVT_MASKED | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TMICT, 0xffffffff);
	pit_window_best(APIC_CALIBRATE_MS, apic_timer_count, &w);
	apic_write(APIC_TMICT, 0);
	counts = (u64)(w.other_start - w.other_end) * 1000 / APIC_CALIBRATE_MS;
	tsc_khz_pit = (w.tsc_end - w.tsc_start) / APIC_CALIBRATE_MS;
	pr_info("APIC: timer %lu.%03lu MHz, TSC %lu.%03lu MHz (%lu.%03lu at boot)\n",
		(unsigned long)(counts / 1000000),
		(unsigned long)(counts / 1000 % 1000),
		(unsigned long)(tsc_khz_pit / 1000),
		(unsigned long)(tsc_khz_pit % 1000),
		tsc_khz / 1000, tsc_khz % 1000);
	if (tsc_khz_pit * 100 < (u64)tsc_khz * 95 ||
	    tsc_khz_pit * 100 > (u64)tsc_khz * 105)
		pr_warn("APIC: TSC rate against the PIT differs by over 5%% from the boot measure\n");
	return counts;
}

void setup_boot_APIC_clock(void)
{
	u64 hz = calibrate_APIC_clock();

	if (hz < HZ || hz / HZ > 0xffffffffULL)
		panic("APIC: timer rate %llu/s unusable for a %u Hz tick",
		      (unsigned long long)hz, HZ);
	lapic_timer_period = (u32)(hz / HZ);
	BUG_ON(arch_set_irq_handler(LOCAL_TIMER_VECTOR,
				    local_apic_timer_interrupt));
	start_apic_timer();
	pr_info("APIC: tick %u Hz, %u timer counts per tick\n", HZ,
		lapic_timer_period);
}

/* On each AP, from time_init() (kernel/time.c); the boot CPU ticks. */
void arch_tick_start(void)
{
	BUG_ON(!lapic_timer_period);
	if (!(apic_read(APIC_LVTT) & APIC_LVT_TIMER_PERIODIC) ||
	    apic_read(APIC_LVTT) & APIC_LVT_MASKED)
		start_apic_timer();
}

/*
 * Tickless idle (kernel/time.c): the timer in one-shot mode, to fire once
 * delta_ns from now (at most about a minute at divide 16, then it fires
 * early and the idle loop stops it again), or masked.
 */
bool arch_tick_stop(u64 delta_ns)
{
	u64 count;

	if (!lapic_timer_period)
		return false;
	if (!delta_ns) {
		apic_write(APIC_LVTT, APIC_LVT_MASKED | LOCAL_TIMER_VECTOR);
		apic_write(APIC_TMICT, 0);
		return true;
	}
	delta_ns = min(delta_ns, 60 * NSEC_PER_SEC);
	count = delta_ns * lapic_timer_period / TICK_NSEC;
	count = clamp_val(count, 1ULL, 0xffffffffULL);
	apic_write(APIC_LVTT, LOCAL_TIMER_VECTOR);	/* one-shot */
	apic_write(APIC_TMICT, (u32)count);
	return true;
}

void arch_tick_resume(void)
{
	start_apic_timer();
}

/*
 * The tick's rate as programmed, in millihertz: the APIC timer's current
 * count at the start and the end of a 2 ms PIT window (less than a tick
 * period, so it reloads at most once in between), against the window's
 * PIT counts (the calibration reference) or its TSC cycles at the boot
 * measure of tsc_khz. Under TCG a vCPU may be held up between the PIT's
 * end and the reads: the window then looks long against the PIT, and on
 * a busy host most windows do (the median of nine was 6-16% fast). Of
 * RATE_WINDOWS windows, the one whose edges have the least slack
 * (pit_window()) counts. On a very loaded host QEMU's TSC (the host's)
 * and its virtual clock (the APIC timer's and the PIT's) have been seen
 * to drift apart by a few percent.
 */
#define RATE_WINDOWS		32
#define RATE_WINDOW_MS		2

/* The rate against the PIT, or against the TSC if tsc. */
static unsigned long tick_rate(bool tsc)
{
	struct pit_window w = { .slack = ~0ULL }, t;
	u64 counts;

	if (!lapic_timer_period)
		return 0;
	for (int i = 0; i < RATE_WINDOWS; i++) {
		unsigned long flags = arch_irq_save();
		bool ok = pit_window(RATE_WINDOW_MS, apic_timer_count, &t);

		arch_irq_restore(flags);
		if (!ok)
			return 0;
		if (t.slack < w.slack)
			w = t;
	}
	counts = w.other_end <= w.other_start ?
		 w.other_start - w.other_end :
		 (u64)w.other_start + lapic_timer_period - w.other_end;
	if (tsc)
		return (unsigned long)(counts * tsc_khz * 1000000 /
				       ((w.tsc_end - w.tsc_start) *
					lapic_timer_period));
	return (unsigned long)(counts * PIT_HZ * 1000 /
			       ((u64)w.pit_counts * lapic_timer_period));
}

unsigned long arch_tick_rate_mhz(enum tick_ref ref)
{
	return tick_rate(ref == TICK_REF_TSC);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Time from the TSC, calibrated once against the PIT.
 *
 * PIT channel 2 counts down 10 ms worth of its fixed 1.193182 MHz clock
 * (gated through port 0x61, the speaker off) while we read the TSC before
 * and after. Under QEMU's TCG the TSC rate is whatever QEMU emulates, and
 * no CPUID leaf tells it, so measuring is the only way. Nanoseconds are
 * then cycles * mult >> 32, with no division on the read path.
 *
 * A window is only as good as its edges. Under TCG the vCPU is a host
 * thread: if the host takes it off its core between the PIT's terminal
 * count and our next poll, everything read at the end comes late (a
 * 3 ms stall in a 25 ms window made the tick run at 221 Hz for 250).
 * So each edge is bracketed by TSC reads, their width is the window's
 * slack, and pit_window_best() retries a window whose slack is over
 * 1/2000 of it, keeping the tightest of up to PIT_TRIES (Linux's PIT
 * calibration likewise throws away windows an SMI stretched). On a busy
 * host a vCPU is held off its core for several milliseconds at a time,
 * often enough to spoil five windows in a row (each by 8 ms): the best
 * of those still made the TSC run 19% fast. So it tries until one is
 * tight, up to PIT_TRIES; a quiet host needs one or two.
 */
#include "arch/x86_64/x86.h"
#include "arch/x86_64/io.h"
#include "kernel/bug.h"
#include "arch/arch.h"

#define CALIBRATE_MS	10
#define PIT_TRIES	64	/* at most 1.6 s of 25 ms windows */
/*
 * Polls of OUT2 before a window is given up: a 50 ms window takes about
 * 50000 port reads at ISA speed, and no port read takes 1 ns.
 */
#define PIT_POLL_MAX	(1UL << 24)
#define PIT_CH2		0x42
#define PIT_CMD		0x43
#define PORT_B		0x61

static u64 tsc_at_boot;
static u64 ns_mult;		/* ns per cycle, 32.32 fixed point */
unsigned long tsc_khz;

/*
 * One PIT window of ms milliseconds (<= 50): the TSC, and other(), if
 * given, read right at its start and its end, and how far apart the TSC
 * reads around each edge were (slack). False, with an empty window of
 * endless slack, if OUT2 never rose (no PIT).
 */
bool pit_window(unsigned int ms, u32 (*other)(void), struct pit_window *w)
{
	u32 count = PIT_HZ * ms / 1000;
	u64 before, last_low;
	unsigned long polls = 0;

	BUG_ON(!ms || count > 0xffff);
	w->pit_counts = count;
	outb(PORT_B, (inb(PORT_B) & ~0x02) | 0x01);	/* gate on, speaker off */
	outb(PIT_CMD, 0xb0);		/* channel 2, lo/hi byte, mode 0 */
	outb(PIT_CH2, count & 0xff);
	before = rdtsc();
	outb(PIT_CH2, count >> 8);	/* the count starts here */
	w->tsc_start = rdtsc();
	w->other_start = other ? other() : 0;
	w->slack = rdtsc() - before;
	/* OUT2 goes high at terminal count: after the last low read began. */
	last_low = rdtsc();
	for (;;) {
		before = rdtsc();
		if (inb(PORT_B) & 0x20)
			break;
		if (++polls == PIT_POLL_MAX) {
			w->tsc_end = w->tsc_start;
			w->other_end = w->other_start;
			w->slack = ~0ULL;
			return false;
		}
		last_low = before;
	}
	w->tsc_end = rdtsc();
	w->other_end = other ? other() : 0;
	w->slack += rdtsc() - last_low;
	return true;
}

static bool pit_window_tight(const struct pit_window *w)
{
	return w->slack != ~0ULL &&
	       w->slack * 2000 <= w->tsc_end - w->tsc_start;
}

/*
 * The first tight window, else the one with the least slack of
 * PIT_TRIES, interrupts off (empty if none completed: the callers then
 * see a rate of 0; without a PIT the first one says so).
 */
void pit_window_best(unsigned int ms, u32 (*other)(void),
		     struct pit_window *w)
{
	unsigned long flags = arch_irq_save();
	struct pit_window t;

	if (pit_window(ms, other, w)) {
		for (int i = 1; i < PIT_TRIES && !pit_window_tight(w); i++) {
			if (pit_window(ms, other, &t) && t.slack < w->slack)
				*w = t;
		}
	}
	arch_irq_restore(flags);
}

static u64 calibrate_tsc_khz(void)
{
	struct pit_window w;

	pit_window_best(CALIBRATE_MS, NULL, &w);
	return (w.tsc_end - w.tsc_start) / CALIBRATE_MS;
}

void tsc_init(void)
{
	tsc_at_boot = rdtsc();
	tsc_khz = calibrate_tsc_khz();
	if (!tsc_khz)
		tsc_khz = 1000000;	/* 1 GHz guess; timestamps only */
	ns_mult = (1000000ULL << 32) / tsc_khz;
}

u64 arch_cycles(void)
{
	return rdtsc();
}

u64 arch_clock_ns(void)
{
	u64 cycles = rdtsc() - tsc_at_boot;

	return (u64)(((__uint128_t)cycles * ns_mult) >> 32);
}

u64 arch_cpu_time_ns(void)
{
	return arch_clock_ns();
}

u64 tsc_us_to_cycles(unsigned long us)
{
	return (u64)us * tsc_khz / 1000;
}

/* Spin for at least us microseconds (TSC; calibrated in tsc_init()). */
void tsc_udelay(unsigned long us)
{
	u64 end = rdtsc() + tsc_us_to_cycles(us);

	while (rdtsc() < end)
		arch_cpu_relax();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Time from the TSC, calibrated once against the PIT.
 *
 * PIT channel 2 counts down 10 ms worth of its fixed 1.193182 MHz clock
 * (gated through port 0x61, the speaker off) while we read the TSC before
 * and after. Under QEMU's TCG the TSC rate is whatever QEMU emulates, and
 * no CPUID leaf tells it, so measuring is the only way. Nanoseconds are
 * then cycles * mult >> 32, with no division on the read path.
 */
#include "arch/x86_64/x86.h"
#include "arch/x86_64/io.h"
#include "kernel/bug.h"
#include "arch/arch.h"

#define CALIBRATE_MS	10
#define PIT_CH2		0x42
#define PIT_CMD		0x43
#define PORT_B		0x61

static u64 tsc_at_boot;
static u64 ns_mult;		/* ns per cycle, 32.32 fixed point */
unsigned long tsc_khz;

/*
 * One PIT window of ms milliseconds (<= 50): the TSC, and other(), if
 * given, read right at its start and its end.
 */
void pit_window(unsigned int ms, u32 (*other)(void), struct pit_window *w)
{
	u32 count = PIT_HZ * ms / 1000;

	BUG_ON(!ms || count > 0xffff);
	w->pit_counts = count;
	outb(PORT_B, (inb(PORT_B) & ~0x02) | 0x01);	/* gate on, speaker off */
	outb(PIT_CMD, 0xb0);		/* channel 2, lo/hi byte, mode 0 */
	outb(PIT_CH2, count & 0xff);
	outb(PIT_CH2, count >> 8);
	w->tsc_start = rdtsc();
	w->other_start = other ? other() : 0;
	while (!(inb(PORT_B) & 0x20))	/* OUT2 goes high at terminal count */
		;
	w->tsc_end = rdtsc();
	w->other_end = other ? other() : 0;
}

static u64 calibrate_tsc_khz(void)
{
	struct pit_window w;

	pit_window(CALIBRATE_MS, NULL, &w);
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

	return (u64)(((unsigned __int128)cycles * ns_mult) >> 32);
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

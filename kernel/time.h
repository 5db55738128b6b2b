/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Time: the tick, jiffies, the monotonic clock and timers (kernel/time.c).
 *
 * Every online CPU takes a periodic tick of HZ from its own timer (the
 * local APIC timer on x86_64, a POSIX timer signal per CPU thread on the
 * host), always on the vector LOCAL_TIMER_VECTOR. HZ is 250, Linux's
 * default. jiffies counts ticks since boot; it is computed from the
 * monotonic clock by whichever CPU ticks, so ticks a busy host or TCG
 * swallowed are not lost from it.
 *
 * Timers run their function in interrupt context, on the CPU that armed
 * them, from the first tick at or after their expiry.
 *
 * Tickless idle (Linux's NO_HZ_IDLE): a CPU in its idle loop stops its
 * tick until its next timer, and the first interrupt after that starts
 * it again (kernel/time.c, "Tickless idle"). "nohz=off" keeps it ticking.
 */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include "kernel/compiler.h"
#include "kernel/types.h"
#include "lib/list.h"

#define HZ			250
#define NSEC_PER_SEC		1000000000ULL
#define NSEC_PER_MSEC		1000000ULL
#define TICK_NSEC		(NSEC_PER_SEC / HZ)

/*
 * The tick count since boot, HZ a second. Written only by
 * update_jiffies() (kernel/time.c); read through jiffies, a fresh load
 * each time, so a wait loop sees it move.
 */
extern unsigned long jiffies_counter;
#define jiffies			READ_ONCE(jiffies_counter)

/* Nanoseconds since boot, monotonic (the clock printk stamps with). */
u64 ktime_get_ns(void);

static inline unsigned long msecs_to_jiffies(unsigned int ms)
{
	return ((unsigned long)ms * HZ + 999) / 1000;
}

static inline unsigned int jiffies_to_msecs(unsigned long j)
{
	return (unsigned int)(j * 1000 / HZ);
}

/* a after b, with wraparound (as Linux's). */
#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)

/* Tick interrupts this CPU has taken (tests and the tick check). */
unsigned long tick_count(unsigned int cpu);

/* At boot: the timer bases (before interrupts are on). */
void init_timers(void);

/* At boot, once cross-CPU calls work: start the other CPUs' ticks. */
void time_init(void);

/* From the arch's timer interrupt, in hardirq context. */
void tick_handle_periodic(void);

/*
 * Tickless idle, interrupts off. An idle loop calls
 * tick_nohz_idle_enter() just before it halts and tick_nohz_idle_exit()
 * when it finds work; handle_irq_vector() calls tick_nohz_irq_enter()
 * before any handler. tick_stopped(cpu): that CPU's tick is stopped now;
 * tick_idle_stops(cpu): how many times it stopped (tests, "uptime").
 */
void tick_nohz_idle_enter(void);
void tick_nohz_idle_exit(void);
void tick_nohz_irq_enter(void);
bool tick_stopped(unsigned int cpu);
unsigned long tick_idle_stops(unsigned int cpu);
bool tick_nohz_enabled(void);

struct timer_list {
	struct list_head entry;		/* on its base's list while pending */
	unsigned long expires;		/* in jiffies */
	void (*function)(struct timer_list *timer);
	unsigned int cpu;		/* the base it is or was last on */
	bool pending;
};

#define from_timer(var, timer, field) \
	container_of(timer, __typeof__(*(var)), field)

/* Set up a timer that is not pending (flags: none yet, pass 0). */
void timer_setup(struct timer_list *timer,
		 void (*function)(struct timer_list *), unsigned int flags);

/*
 * Arm timer for expires on this CPU (moving it here if it was pending
 * elsewhere). 1 if it was pending, 0 if not.
 */
int mod_timer(struct timer_list *timer, unsigned long expires);
/*
 * Arm timer for its expires field, on this CPU. A timer already pending
 * is a caller's bug: WARNs and stays armed as it was.
 */
void add_timer(struct timer_list *timer);

/* Disarm; 1 if it was pending. The function may still be running. */
int del_timer(struct timer_list *timer);

/*
 * Disarm and wait until the function is not running on any CPU. Not
 * from interrupt context (the timer's own function would wait for
 * itself): there it is a WARNING and only deletes.
 * The wait is bounded: past TIMER_SYNC_TIMEOUT_S it reports and panics.
 */
int del_timer_sync(struct timer_list *timer);

static inline bool timer_pending(const struct timer_list *timer)
{
	return READ_ONCE(timer->pending);
}

#endif /* KERNEL_TIME_H */

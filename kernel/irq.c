// SPDX-License-Identifier: GPL-2.0
/*
 * The vector table and the generic interrupt dispatcher (kernel/irq.h).
 *
 * handlers[] is written with interrupts off on this CPU and read by the
 * dispatcher with interrupts off, one word per vector: a handler that is
 * removed while another CPU runs it finishes its run (there is no
 * synchronize_irq() yet, so only remove a handler whose interrupt can no
 * longer be raised). Counters are atomic: host CPUs (threads) take
 * interrupts at the same time. The shell's "interrupts" command prints
 * them (Linux's /proc/interrupts, one column for all CPUs).
 */
#include "kernel/bug.h"
#include "kernel/errno.h"
#include "kernel/irq.h"
#include "kernel/time.h"
#include "kernel/printk.h"
#include "kernel/shell.h"

static irq_handler_t handlers[NR_VECTORS];
static unsigned long vector_count[NR_VECTORS];
static unsigned long unhandled_count;
static bool unhandled_reported[NR_VECTORS];

/* Claim a free vector (-EBUSY if taken), or give one back (NULL). */
static int __set_handler(unsigned int vector, irq_handler_t handler)
{
	irq_handler_t old = NULL;

	if (!handler) {
		__atomic_store_n(&handlers[vector], NULL, __ATOMIC_RELEASE);
		return 0;
	}
	if (!__atomic_compare_exchange_n(&handlers[vector], &old, handler,
					 false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return -EBUSY;
	return 0;
}

int set_irq_handler(unsigned int vector, irq_handler_t handler)
{
	if (vector < FIRST_EXTERNAL_VECTOR || vector >= FIRST_SYSTEM_VECTOR)
		return -EINVAL;
	return __set_handler(vector, handler);
}

int arch_set_irq_handler(unsigned int vector, irq_handler_t handler)
{
	if (vector < FIRST_SYSTEM_VECTOR || vector >= NR_VECTORS)
		return -EINVAL;
	return __set_handler(vector, handler);
}

static void report_unhandled(unsigned int vector)
{
	__atomic_fetch_add(&unhandled_count, 1, __ATOMIC_RELAXED);
	/* Once per vector, as Linux's "No irq handler for vector". */
	if (!__atomic_exchange_n(&unhandled_reported[vector], true,
				 __ATOMIC_RELAXED))
		pr_err("irq: CPU %u: no irq handler for vector 0x%x\n",
		       arch_cpu_id(), vector);
}

void handle_irq_vector(unsigned int vector)
{
	irq_handler_t handler;

	BUG_ON(vector >= NR_VECTORS);
	WARN_ON_ONCE(!irqs_disabled() || !in_hardirq());
	tick_nohz_irq_enter();	/* a tickless idle CPU ticks again */
	__atomic_fetch_add(&vector_count[vector], 1, __ATOMIC_RELAXED);
	handler = __atomic_load_n(&handlers[vector], __ATOMIC_ACQUIRE);
	if (handler)
		handler(vector);
	else if (vector != SPURIOUS_APIC_VECTOR)	/* only counted */
		report_unhandled(vector);
	WARN_ON_ONCE(!irqs_disabled());
}

unsigned long irq_vector_count(unsigned int vector)
{
	if (vector >= NR_VECTORS)
		return 0;
	return __atomic_load_n(&vector_count[vector], __ATOMIC_RELAXED);
}

unsigned long irq_unhandled_count(void)
{
	return __atomic_load_n(&unhandled_count, __ATOMIC_RELAXED);
}

static int cmd_interrupts(int argc, char **argv)
{
	if (argc != 1) {
		console_printf("usage: interrupts\n");
		return -EINVAL;
	}
	console_printf("vector      count  handler\n");
	for (unsigned int v = FIRST_EXTERNAL_VECTOR; v < NR_VECTORS; v++) {
		irq_handler_t h = __atomic_load_n(&handlers[v], __ATOMIC_ACQUIRE);
		unsigned long n = irq_vector_count(v);

		if (!h && !n)
			continue;
		console_printf("  0x%02x %10lu  %s\n", v, n,
			       v == SPURIOUS_APIC_VECTOR ? "spurious" :
			       v == ERROR_APIC_VECTOR ? "APIC error" :
			       h ? "claimed" : "none");
	}
	console_printf("unhandled %lu\n", irq_unhandled_count());
	return 0;
}
SHELL_CMD("interrupts", cmd_interrupts,
	  "interrupt counts per vector (/proc/interrupts)");

// SPDX-License-Identifier: GPL-2.0
/*
 * The two 8259A PICs of a PC, put out of the way.
 *
 * The firmware leaves them delivering IRQ 0-7 on vectors 0x08-0x0f, on
 * top of the CPU's exceptions. init_8259A() reprograms them to vectors
 * 0x20-0x2f (master 0x20-0x27, slave 0x28-0x2f on IRQ2, 8086 mode) and
 * then masks every line: the local APIC is the interrupt controller. A
 * masked PIC can still raise a spurious IRQ7 or IRQ15 (a request that
 * went away before the CPU acknowledged it); their handlers tell a real
 * interrupt from a spurious one by the in-service register, count the
 * spurious ones and acknowledge only what needs it (a spurious IRQ15
 * still needs an EOI at the master, for the cascade).
 */
#include "arch/x86_64/x86.h"
#include "arch/x86_64/io.h"
#include "kernel/irq.h"
#include "kernel/printk.h"

#define PIC_MASTER_CMD		0x20
#define PIC_MASTER_IMR		0x21
#define PIC_SLAVE_CMD		0xa0
#define PIC_SLAVE_IMR		0xa1
#define ICW1_INIT_ICW4		0x11	/* edge, cascade, ICW4 follows */
#define ICW4_8086		0x01
#define OCW3_READ_ISR		0x0b
#define PIC_EOI			0x20
#define PIC_CASCADE_IR		2
#define PIC_VECTOR_BASE		FIRST_EXTERNAL_VECTOR
#define PIC_SPURIOUS_MASTER	(PIC_VECTOR_BASE + 7)
#define PIC_SPURIOUS_SLAVE	(PIC_VECTOR_BASE + 15)


/* Give the old parts time between writes, as Linux's outb_pic() does. */
static void outb_pic(u8 val, u16 port)
{
	outb(port, val);
	outb(0x80, 0);
}

void init_8259A(void)
{
	outb_pic(0xff, PIC_MASTER_IMR);
	outb_pic(0xff, PIC_SLAVE_IMR);
	outb_pic(ICW1_INIT_ICW4, PIC_MASTER_CMD);
	outb_pic(PIC_VECTOR_BASE, PIC_MASTER_IMR);		/* ICW2 */
	outb_pic(1U << PIC_CASCADE_IR, PIC_MASTER_IMR);	/* ICW3 */
	outb_pic(ICW4_8086, PIC_MASTER_IMR);
	outb_pic(ICW1_INIT_ICW4, PIC_SLAVE_CMD);
	outb_pic(PIC_VECTOR_BASE + 8, PIC_SLAVE_IMR);
	outb_pic(PIC_CASCADE_IR, PIC_SLAVE_IMR);
	outb_pic(ICW4_8086, PIC_SLAVE_IMR);
	/* Everything masked: the local APIC takes over. */
	outb_pic(0xff, PIC_MASTER_IMR);
	outb_pic(0xff, PIC_SLAVE_IMR);
}

static bool pic_in_service(u16 cmd, unsigned int irq)
{
	outb(cmd, OCW3_READ_ISR);
	return inb(cmd) & (1U << irq);
}

static void pic_irq7_15(unsigned int vector)
{
	bool slave = vector == PIC_SPURIOUS_SLAVE;

	if (pic_in_service(slave ? PIC_SLAVE_CMD : PIC_MASTER_CMD, 7)) {
		/* Real, though masked: acknowledge it and say so. */
		pr_err("8259A: unexpected IRQ%u while all lines are masked\n",
		       slave ? 15 : 7);
		if (slave)
			outb(PIC_SLAVE_CMD, PIC_EOI);
		outb(PIC_MASTER_CMD, PIC_EOI);
		return;
	}
	if (slave)
		outb(PIC_MASTER_CMD, PIC_EOI);	/* the cascade was real */
}

void pic_register_spurious(void)
{
	set_irq_handler(PIC_SPURIOUS_MASTER, pic_irq7_15);
	set_irq_handler(PIC_SPURIOUS_SLAVE, pic_irq7_15);
}

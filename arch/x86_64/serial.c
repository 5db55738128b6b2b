// SPDX-License-Identifier: GPL-2.0
/*
 * 16550 UART on COM1: the console. Polled, 115200 8N1. Output
 * turns "\n" into "\r\n" for terminals; input blocks until a byte comes.
 */
#include "arch/x86_64/x86.h"
#include "arch/x86_64/io.h"

#define COM1		0x3f8
#define UART_DATA	0	/* receive/transmit buffer, DLL when DLAB */
#define UART_IER	1	/* interrupt enable, DLM when DLAB */
#define UART_LCR	3	/* line control */
#define UART_MCR	4	/* modem control */
#define UART_LSR	5	/* line status */
#define LSR_DATA_READY	0x01
#define LSR_THR_EMPTY	0x20
#define LCR_8N1		0x03
#define LCR_DLAB	0x80

void serial_init(void)
{
	outb(COM1 + UART_IER, 0x00);		/* no interrupts: polled */
	outb(COM1 + UART_LCR, LCR_DLAB);
	outb(COM1 + UART_DATA, 1);		/* divisor 1: 115200 baud */
	outb(COM1 + UART_IER, 0);
	outb(COM1 + UART_LCR, LCR_8N1);
	/*
	 * FCR is left alone: switching the FIFOs on empties them, and bytes
	 * piped into QEMU before boot would be lost.
	 */
	outb(COM1 + UART_MCR, 0x03);		/* DTR, RTS */
}

static void serial_putc(char c)
{
	while (!(inb(COM1 + UART_LSR) & LSR_THR_EMPTY))
		__asm__ __volatile__("pause");
	outb(COM1 + UART_DATA, (u8)c);
}

void serial_write(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\n')
			serial_putc('\r');
		serial_putc(s[i]);
	}
}

int serial_getc(void)
{
	while (!(inb(COM1 + UART_LSR) & LSR_DATA_READY))
		__asm__ __volatile__("pause");
	return inb(COM1 + UART_DATA);
}

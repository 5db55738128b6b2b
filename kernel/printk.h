/* SPDX-License-Identifier: GPL-2.0 */
/*
 * printk: the kernel log. Messages carry a Linux log level prefix
 * (KERN_ERR ...); each line gets a "[    0.123456] " timestamp. Lines at a
 * level above console_loglevel are kept in the log buffer but not printed.
 */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include "kernel/types.h"

#define KERN_SOH	"\001"
#define KERN_EMERG	KERN_SOH "0"
#define KERN_ALERT	KERN_SOH "1"
#define KERN_CRIT	KERN_SOH "2"
#define KERN_ERR	KERN_SOH "3"
#define KERN_WARNING	KERN_SOH "4"
#define KERN_NOTICE	KERN_SOH "5"
#define KERN_INFO	KERN_SOH "6"
#define KERN_DEBUG	KERN_SOH "7"
#define KERN_CONT	KERN_SOH "c"

#define LOGLEVEL_EMERG		0
#define LOGLEVEL_ERR		3
#define LOGLEVEL_WARNING	4
#define LOGLEVEL_INFO		6
#define LOGLEVEL_DEBUG		7
#define LOGLEVEL_DEFAULT	LOGLEVEL_WARNING

/* Lines with a level below this number reach the console. */
extern int console_loglevel;

int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list args);

/* Print straight to the console, no level and no timestamp (KTAP, shell). */
int console_printf(const char *fmt, ...) __printf(1, 2);
void console_write(const char *s, size_t len);

/*
 * A hook that sees every complete line that printk or console_printf emit,
 * whatever the console level. The test framework uses it to capture
 * expected reports. Only one hook at a time; NULL removes it.
 */
typedef void (*printk_hook_fn)(const char *line, size_t len, void *data);
void printk_set_hook(printk_hook_fn fn, void *data);

/* Panic: whoever held the log lock will never drop it; take it over. */
void printk_bust_lock(void);

/* Copy the log buffer (oldest first) into buf; returns bytes copied. */
size_t log_buf_copy(char *buf, size_t size);

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

#define pr_emerg(fmt, ...)	printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...)	printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...)	printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...)	printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...)	printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...)	printk(KERN_CONT fmt, ##__VA_ARGS__)

#endif /* KERNEL_PRINTK_H */

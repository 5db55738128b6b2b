// SPDX-License-Identifier: GPL-2.0
/*
 * printk: format, stamp, keep, print.
 *
 * A message is formatted into a line buffer; its KERN_<LEVEL> prefix is
 * stripped and decides whether the console sees it (level below
 * console_loglevel). Every line starts with the time since boot in Linux's
 * "[    0.123456] " form; KERN_CONT continues the previous line. All
 * output, printed or not, goes into a ring buffer (dmesg) and through the
 * optional capture hook that the test framework installs.
 *
 * Locking: logbuf_lock, with interrupts off, around the shared buffers,
 * so lines from several CPUs do not tear. It is the innermost lock of
 * all (any code may print while holding its own). A printk from a CPU
 * that already holds it (the lock validator reporting a misuse of
 * logbuf_lock itself, say) cannot take it again: it goes straight to the
 * console, unlogged, instead of deadlocking.
 */
#include "kernel/printk.h"
#include "kernel/errno.h"
#include "kernel/params.h"
#include "kernel/spinlock.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "arch/arch.h"

#define LOG_BUF_SIZE	(64 * 1024)
#define LINE_MAX	1024

int console_loglevel = 7;

static char log_buf[LOG_BUF_SIZE];
static size_t log_head;		/* total bytes ever written */

static DEFINE_SPINLOCK(logbuf_lock);	/* log, hook line, console order */
static int logbuf_cpu = -1;		/* the CPU holding logbuf_lock */
static printk_hook_fn hook_fn;
static void *hook_data;

/* The line being assembled for the hook (lines may come in pieces). */
static char hook_line[LINE_MAX];
static size_t hook_len;
static bool at_line_start = true;

static __always_inline unsigned long logbuf_lock_irqsave(void)
{
	unsigned long flags;

	spin_lock_irqsave(&logbuf_lock, flags);
	WRITE_ONCE(logbuf_cpu, (int)arch_cpu_id());
	return flags;
}

static __always_inline void logbuf_unlock_irqrestore(unsigned long flags)
{
	WRITE_ONCE(logbuf_cpu, -1);
	spin_unlock_irqrestore(&logbuf_lock, flags);
}

/* Is this a printk from inside printk (this CPU holds logbuf_lock)? */
static bool printk_recursion(void)
{
	return READ_ONCE(logbuf_cpu) == (int)arch_cpu_id();
}

void printk_set_hook(printk_hook_fn fn, void *data)
{
	unsigned long flags = logbuf_lock_irqsave();

	hook_fn = fn;
	hook_data = data;
	hook_len = 0;
	logbuf_unlock_irqrestore(flags);
}

static void log_store(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		log_buf[(log_head + i) % LOG_BUF_SIZE] = s[i];
	log_head += len;
}

/* Panic: whoever held the lock will not give it back. Same class. */
void printk_bust_lock(void)
{
	logbuf_lock = (spinlock_t)__SPIN_LOCK_UNLOCKED(logbuf_lock);
	WRITE_ONCE(logbuf_cpu, -1);
}

size_t log_buf_copy(char *buf, size_t size)
{
	size_t avail = min_t(size_t, log_head, LOG_BUF_SIZE);
	size_t start = log_head - avail, n = min(avail, size);

	for (size_t i = 0; i < n; i++)
		buf[i] = log_buf[(start + avail - n + i) % LOG_BUF_SIZE];
	return n;
}

/* Feed the hook whole lines; a line longer than LINE_MAX is cut. */
static void hook_feed(const char *s, size_t len)
{
	for (size_t i = 0; i < len && hook_fn; i++) {
		if (s[i] == '\n') {
			hook_line[hook_len] = '\0';
			hook_fn(hook_line, hook_len, hook_data);
			hook_len = 0;
		} else if (hook_len < LINE_MAX - 1) {
			hook_line[hook_len++] = s[i];
		}
	}
}

/* Emit text: to the log, the hook, and (if visible) the console. */
static void emit(const char *s, size_t len, bool visible)
{
	if (!len)
		return;
	/*
	 * Mid-line until the write is done: a CPU stopped by a panic in the
	 * middle of it leaves the panic's first line to start a new one.
	 */
	at_line_start = false;
	log_store(s, len);
	hook_feed(s, len);
	if (visible)
		arch_console_write(s, len);
	at_line_start = s[len - 1] == '\n';
}

void console_write(const char *s, size_t len)
{
	unsigned long flags;

	if (printk_recursion()) {
		arch_console_write(s, len);
		return;
	}
	flags = logbuf_lock_irqsave();
	emit(s, len, true);
	logbuf_unlock_irqrestore(flags);
}

int console_printf(const char *fmt, ...)
{
	char line[LINE_MAX];
	va_list args;
	int len;

	va_start(args, fmt);
	len = vscnprintf(line, sizeof(line), fmt, args);
	va_end(args);
	console_write(line, len);
	return len;
}

/* Strip a KERN_<LEVEL> prefix; returns the level, or -1 for KERN_CONT. */
static int parse_level(const char **text)
{
	const char *s = *text;

	if (s[0] != KERN_SOH[0] || !s[1])
		return LOGLEVEL_DEFAULT;
	*text = s + 2;
	if (s[1] == 'c')
		return -1;
	if (s[1] >= '0' && s[1] <= '7')
		return s[1] - '0';
	return LOGLEVEL_DEFAULT;
}

static void emit_timestamp(bool visible)
{
	char stamp[32];
	u64 ns = arch_clock_ns();
	int len = snprintf(stamp, sizeof(stamp), "[%5llu.%06llu] ",
			   (unsigned long long)(ns / 1000000000),
			   (unsigned long long)(ns % 1000000000 / 1000));

	emit(stamp, len, visible);
}

int vprintk(const char *fmt, va_list args)
{
	static int cont_level = LOGLEVEL_DEFAULT;
	char line[LINE_MAX];
	const char *text;
	unsigned long flags;
	int level, len;

	len = vscnprintf(line, sizeof(line), fmt, args);
	text = line;
	level = parse_level(&text);
	len -= text - line;

	if (printk_recursion()) {
		arch_console_write(text, len);
		return len;
	}
	flags = logbuf_lock_irqsave();
	if (level < 0) {
		level = cont_level;
	} else {
		if (!at_line_start)
			emit("\n", 1, level < console_loglevel);
		cont_level = level;
	}
	if (at_line_start && len)
		emit_timestamp(level < console_loglevel);
	emit(text, len, level < console_loglevel);
	logbuf_unlock_irqrestore(flags);
	return len;
}

int printk(const char *fmt, ...)
{
	va_list args;
	int ret;

	va_start(args, fmt);
	ret = vprintk(fmt, args);
	va_end(args);
	return ret;
}

static int loglevel_setup(char *val)
{
	unsigned long level;

	if (!val || kstrtoul(val, 10, &level) || level > 15)
		return -EINVAL;
	console_loglevel = (int)level;
	return 0;
}
kernel_param("loglevel", loglevel_setup);

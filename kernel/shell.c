// SPDX-License-Identifier: GPL-2.0
/*
 * A line-oriented shell on the console. It echoes what it reads (so a
 * piped script shows up in the output next to its results), handles
 * backspace and Ctrl-C, and treats CR, LF and CRLF alike as end of line.
 * End of input (host build) powers off as the poweroff command does.
 */
#include "kernel/shell.h"
#include "kernel/errno.h"
#include "kernel/kernel.h"
#include "kernel/params.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "arch/arch.h"

#define LINE_SIZE	256
#define PROMPT		"cram> "

extern const struct shell_cmd *const __start_shell_cmds[] __weak;
extern const struct shell_cmd *const __stop_shell_cmds[] __weak;

static const struct shell_cmd *find_cmd(const char *name)
{
	for (const struct shell_cmd *const *c = __start_shell_cmds;
	     c < __stop_shell_cmds; c++) {
		if (!strcmp((*c)->name, name))
			return *c;
	}
	return NULL;
}

int shell_exec(char *line)
{
	char *argv[SHELL_MAX_ARGS + 1];
	const struct shell_cmd *cmd;
	int argc = 0;
	char *word;

	while ((word = strsep(&line, " \t")) != NULL) {
		if (!*word)
			continue;
		if (argc == SHELL_MAX_ARGS) {
			console_printf("too many arguments (at most %d)\n",
				       SHELL_MAX_ARGS - 1);
			return -E2BIG;
		}
		argv[argc++] = word;
	}
	argv[argc] = NULL;
	if (!argc)
		return 0;
	cmd = find_cmd(argv[0]);
	if (!cmd) {
		console_printf("%s: unknown command (try 'help')\n", argv[0]);
		return -ENOENT;
	}
	return cmd->fn(argc, argv);
}

/* Read one line with echo; returns false at end of input. */
static bool read_line(char *buf, size_t size)
{
	static bool last_was_cr;
	size_t len = 0;

	for (;;) {
		int c = arch_console_getc();

		if (c < 0)
			return false;
		if (c == '\n' && last_was_cr) {
			last_was_cr = false;
			continue;
		}
		last_was_cr = c == '\r';
		if (c == '\r' || c == '\n') {
			console_write("\n", 1);
			buf[len] = '\0';
			return true;
		}
		if (c == 0x7f || c == '\b') {
			if (len) {
				len--;
				console_write("\b \b", 3);
			}
		} else if (c == 0x03) {
			console_write("^C\n" PROMPT, 3 + sizeof(PROMPT) - 1);
			len = 0;
		} else if (isprint(c) && len < size - 1) {
			char ch = (char)c;

			buf[len++] = ch;
			console_write(&ch, 1);
		}
	}
}

void shell_run(void)
{
	char line[LINE_SIZE];

	console_printf("Type 'help' for the list of commands.\n");
	for (;;) {
		console_write(PROMPT, sizeof(PROMPT) - 1);
		if (!read_line(line, sizeof(line)))
			break;
		shell_exec(line);
	}
	console_printf("\nend of input: powering off\n");
}

static const char *entry_name(const void *entry)
{
	return *(const char *const *)entry;
}

const void *next_by_name(const void *const *start, const void *const *stop,
			 const void *prev)
{
	const void *best = NULL;

	for (const void *const *e = start; e < stop; e++) {
		if (prev && strcmp(entry_name(*e), entry_name(prev)) <= 0)
			continue;
		if (!best || strcmp(entry_name(*e), entry_name(best)) < 0)
			best = *e;
	}
	return best;
}

static const struct shell_cmd *next_cmd_by_name(const struct shell_cmd *prev)
{
	return next_by_name((const void *const *)__start_shell_cmds,
			    (const void *const *)__stop_shell_cmds, prev);
}

static int cmd_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	for (const struct shell_cmd *c = next_cmd_by_name(NULL); c;
	     c = next_cmd_by_name(c))
		console_printf("  %-12s %s\n", c->name, c->help);
	return 0;
}
SHELL_CMD("help", cmd_help, "list the commands");

static int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	console_printf("%s %s (%s)\n", KERNEL_NAME, KERNEL_VERSION, arch_name);
	return 0;
}
SHELL_CMD("version", cmd_version, "print the kernel version");

static int cmd_cmdline(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	console_printf("%s\n", boot_command_line);
	return 0;
}
SHELL_CMD("cmdline", cmd_cmdline, "print the kernel command line");

static int cmd_dmesg(int argc, char **argv)
{
	static char buf[16 * 1024];
	size_t n = log_buf_copy(buf, sizeof(buf));

	(void)argc;
	(void)argv;
	arch_console_write(buf, n);
	return 0;
}
SHELL_CMD("dmesg", cmd_dmesg, "print the end of the kernel log");

static int cmd_poweroff(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	console_printf("Power down.\n");
	arch_exit(ARCH_EXIT_SUCCESS);
}
SHELL_CMD("poweroff", cmd_poweroff, "power the machine off");

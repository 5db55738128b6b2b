/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The serial shell that `make run` boots into. Commands are registered at
 * link time with SHELL_CMD(name, fn, help) from any file; fn gets argc and
 * argv (argv[0] is the command) and returns 0 or a negative errno.
 */
#ifndef KERNEL_SHELL_H
#define KERNEL_SHELL_H

#include "kernel/types.h"

#define SHELL_MAX_ARGS	16

struct shell_cmd {
	const char *name;
	const char *help;
	int (*fn)(int argc, char **argv);
};

_Static_assert(offsetof(struct shell_cmd, name) == 0,
	       "next_by_name() needs the name first");

#define SHELL_CMD(cname, func, help_text)				\
	static const struct shell_cmd __shell_cmd_##func = {		\
		.name = cname, .help = help_text, .fn = func,		\
	};								\
	static const struct shell_cmd *const __shell_ptr_##func	\
	__used __section("shell_cmds") = &__shell_cmd_##func

/*
 * Link-time tables (shell commands, benchmarks) are arrays of pointers to
 * structs whose first member is their name. The entry after prev in name
 * order (NULL: the first), so listings do not depend on link order.
 */
const void *next_by_name(const void *const *start, const void *const *stop,
			 const void *prev);

/* Split line into words and run the command (line is modified). */
int shell_exec(char *line);

/* Read lines from the console and run them until poweroff or EOF. */
void shell_run(void);

#endif /* KERNEL_SHELL_H */

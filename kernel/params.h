/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel command line parameters.
 *
 * A parameter is registered at link time with kernel_param(name, fn);
 * parse_args() walks the command line (Linux syntax: words separated by
 * spaces, "name", "name=value", double quotes around a value or around a
 * whole word, '-' and '_' alike in names) and calls fn(value) for each
 * known name (value is NULL for a bare "name"). A setup function returns 0
 * or -EINVAL; a bad value or an unknown name gets a warning, never a panic.
 */
#ifndef KERNEL_PARAMS_H
#define KERNEL_PARAMS_H

#include "kernel/types.h"

#define COMMAND_LINE_SIZE	2048

struct kernel_param {
	const char *name;
	int (*setup)(char *val);
};

#define kernel_param(pname, fn)						\
	static const struct kernel_param __kparam_##fn			\
	__used __section("kernel_params") __aligned(8) = {		\
		.name = pname, .setup = fn,				\
	}

/*
 * A bare-word switch: "pname" sets the bool var (an identifier) to true;
 * "pname=..." is refused (-EINVAL), as Linux's flag parameters are.
 */
#define kernel_param_flag(pname, var)					\
	static int __kparam_flag_##var(char *val)			\
	{								\
		if (val)						\
			return -EINVAL;					\
		var = true;						\
		return 0;						\
	}								\
	kernel_param(pname, __kparam_flag_##var)

/* Every registered parameter: the linker's bounds of their section. */
extern const struct kernel_param __start_kernel_params[] __weak;
extern const struct kernel_param __stop_kernel_params[] __weak;

/*
 * A run that takes the place of the shell when the command line asks for
 * it: the tests (ktest=, lib/ktest), the fuzzer (fuzz=, fuzzfile=) and the
 * benchmarks (bench=) each register one with boot_run(fn) in their own
 * file. start_kernel() calls every fn in link order once the kernel is
 * up; fn returns at once if its parameter was not given, else it runs and
 * ends the boot with arch_exit(). A kernel linked without them (make
 * kernel-notest) has none and goes to the shell.
 */
typedef void (*boot_run_fn)(void);

#define boot_run(fn)							\
	static const boot_run_fn __boot_run_##fn			\
	__used __section("boot_runs") __aligned(8) = fn

extern const boot_run_fn __start_boot_runs[] __weak;
extern const boot_run_fn __stop_boot_runs[] __weak;

/* The command line as the boot loader gave it (read-only copy). */
extern char boot_command_line[COMMAND_LINE_SIZE];

/*
 * Split off the first word of args (modified in place: NULs written, quotes
 * removed). *param gets the name, *val the value or NULL. Returns where the
 * next word starts (never NULL; "" at the end).
 */
char *next_arg(char *args, char **param, char **val);

/* True if two parameter names are equal, treating '-' and '_' alike. */
bool parameq(const char *a, const char *b);

/*
 * Parse args against params[0..n). Returns the number of words that were
 * unknown or rejected (each one warned about).
 */
int parse_args(char *args, const struct kernel_param *params, size_t n);

/* Parse the boot command line against every registered parameter. */
void parse_early_params(const char *cmdline);

/* Number parsing (Linux): 0 or -EINVAL/-ERANGE; base 0 guesses 0x/0. */
int kstrtoull(const char *s, unsigned int base, unsigned long long *res);
int kstrtoul(const char *s, unsigned int base, unsigned long *res);
int kstrtoint(const char *s, unsigned int base, int *res);

/*
 * Parse a size with an optional K/M/G/T/P/E suffix ("128M"). *retptr (if
 * not NULL) gets the first character not parsed.
 */
unsigned long long memparse(const char *s, char **retptr);

#endif /* KERNEL_PARAMS_H */

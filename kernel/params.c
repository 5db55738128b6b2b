// SPDX-License-Identifier: GPL-2.0
/*
 * Command line parsing: splitting words (next_arg), matching them against
 * the parameters registered in the kernel_params section, and the number
 * parsers that parameter setup functions use.
 */
#include "kernel/params.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "lib/string.h"

char boot_command_line[COMMAND_LINE_SIZE];

char *next_arg(char *args, char **param, char **val)
{
	bool in_quote = false;
	char *equals = NULL, *next;
	size_t i;

	args = skip_spaces(args);
	if (*args == '"') {
		args++;
		in_quote = true;
	}
	for (i = 0; args[i]; i++) {
		if (isspace(args[i]) && !in_quote)
			break;
		if (!equals && args[i] == '=')
			equals = args + i;
		if (args[i] == '"')
			in_quote = !in_quote;
	}

	*param = args;
	*val = NULL;
	if (equals) {
		*equals = '\0';
		*val = equals + 1;
		/* Drop the quotes around a value: name="a b". */
		if (**val == '"') {
			(*val)++;
			if (i && args[i - 1] == '"')
				args[i - 1] = '\0';
		}
	}
	/* A closing quote of a fully quoted word "name=value". */
	if (i && args[i - 1] == '"')
		args[i - 1] = '\0';

	next = args + i;
	if (*next)
		*next++ = '\0';
	return skip_spaces(next);
}

bool parameq(const char *a, const char *b)
{
	for (; *a || *b; a++, b++) {
		char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;

		if (x != y)
			return false;
	}
	return true;
}

static const struct kernel_param *find_param(const char *name,
					     const struct kernel_param *params,
					     size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (parameq(name, params[i].name))
			return &params[i];
	}
	return NULL;
}

int parse_args(char *args, const struct kernel_param *params, size_t n)
{
	int bad = 0;

	args = skip_spaces(args);
	while (*args) {
		const struct kernel_param *p;
		char *param, *val;

		args = next_arg(args, &param, &val);
		if (!*param) {
			pr_warn("Malformed kernel command line word (empty name), ignored\n");
			bad++;
			continue;
		}
		p = find_param(param, params, n);
		if (!p) {
			pr_warn("Unknown kernel command line parameter \"%s\", ignored\n",
				param);
			bad++;
		} else if (p->setup(val)) {
			pr_warn("Malformed kernel command line parameter \"%s%s%s\", ignored\n",
				param, val ? "=" : "", val ? val : "");
			bad++;
		}
	}
	return bad;
}

void parse_early_params(const char *cmdline)
{
	static char tmp[COMMAND_LINE_SIZE];

	strscpy(boot_command_line, cmdline, sizeof(boot_command_line));
	strscpy(tmp, cmdline, sizeof(tmp));
	parse_args(tmp, __start_kernel_params,
		   __stop_kernel_params - __start_kernel_params);
}

static int digit_value(char c)
{
	if (isdigit(c))
		return c - '0';
	c = (char)tolower(c);
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	return 99;
}

/* Parse digits at *s; advances *s. -EINVAL if none, -ERANGE on overflow. */
static int parse_digits(const char **s, unsigned int base,
			unsigned long long *res)
{
	const char *p = *s;
	unsigned long long v = 0;
	int d;

	if (base == 0) {
		if (p[0] == '0' && tolower(p[1]) == 'x' && isxdigit(p[2])) {
			base = 16;
			p += 2;
		} else if (p[0] == '0' && isdigit(p[1])) {
			base = 8;
			p++;
		} else {
			base = 10;
		}
	} else if (base == 16 && p[0] == '0' && tolower(p[1]) == 'x') {
		p += 2;
	}
	d = digit_value(*p);
	if (d >= (int)base)
		return -EINVAL;
	for (; (d = digit_value(*p)) < (int)base; p++) {
		if (v > (U64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	*s = p;
	*res = v;
	return 0;
}

int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	unsigned long long v;
	int err;

	if (*s == '+')
		s++;
	err = parse_digits(&s, base, &v);
	if (err)
		return err;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = v;
	return 0;
}

int kstrtoul(const char *s, unsigned int base, unsigned long *res)
{
	unsigned long long v;
	int err = kstrtoull(s, base, &v);

	if (!err)
		*res = (unsigned long)v;
	return err;
}

int kstrtoint(const char *s, unsigned int base, int *res)
{
	unsigned long long v;
	bool neg = *s == '-';
	int err;

	/* One sign only: kstrtoull() would accept the '+' of "-+5". */
	if (neg && s[1] == '+')
		return -EINVAL;
	err = kstrtoull(neg ? s + 1 : s, base, &v);
	if (err)
		return err;
	if (v > (unsigned long long)INT_MAX + neg)
		return -ERANGE;
	*res = neg ? (int)(0 - v) : (int)v;
	return 0;
}

unsigned long long memparse(const char *s, char **retptr)
{
	unsigned long long v = 0;
	const char *p = s;
	int shift = 0;

	if (parse_digits(&p, 0, &v)) {
		if (retptr)
			*retptr = (char *)s;
		return 0;
	}
	switch (*p) {
	case 'E':
	case 'e':
		shift += 10;
		__fallthrough;
	case 'P':
	case 'p':
		shift += 10;
		__fallthrough;
	case 'T':
	case 't':
		shift += 10;
		__fallthrough;
	case 'G':
	case 'g':
		shift += 10;
		__fallthrough;
	case 'M':
	case 'm':
		shift += 10;
		__fallthrough;
	case 'K':
	case 'k':
		shift += 10;
		p++;
		break;
	default:
		break;
	}
	if (shift && v > (U64_MAX >> shift))
		v = U64_MAX;
	else
		v <<= shift;
	if (retptr)
		*retptr = (char *)p;
	return v;
}

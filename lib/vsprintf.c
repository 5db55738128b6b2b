// SPDX-License-Identifier: GPL-2.0
/*
 * vsnprintf and friends.
 *
 * One pass over the format: literal text is copied, each conversion is
 * decoded into a struct printf_spec (flags, width, precision, length) and
 * handed to the function for its kind (number, string, char, pointer).
 * Output goes through struct outbuf, which counts every byte the full
 * result would have but stores only what fits, so truncation never
 * changes the return value.
 */
#include "lib/sprintf.h"
#include "kernel/kallsyms.h"
#include "lib/string.h"

#define ZEROPAD	0x01	/* pad with zeros */
#define SIGN	0x02	/* signed conversion */
#define PLUS	0x04	/* show plus */
#define SPACE	0x08	/* space if plus */
#define LEFT	0x10	/* left justified */
#define SMALL	0x20	/* lower case hex digits */
#define SPECIAL	0x40	/* 0x or 0 prefix */

enum length_mod { LEN_INT, LEN_CHAR, LEN_SHORT, LEN_LONG, LEN_LLONG, LEN_SIZE,
		  LEN_PTRDIFF, LEN_INTMAX };

struct printf_spec {
	unsigned int flags;
	int width;		/* -1: none */
	int precision;		/* -1: none */
	unsigned int base;
	enum length_mod len;
};

struct outbuf {
	char *buf;
	size_t size;
	size_t pos;		/* bytes produced so far, stored or not */
};

static void out_char(struct outbuf *o, char c)
{
	if (o->pos + 1 < o->size)
		o->buf[o->pos] = c;
	o->pos++;
}

static void out_repeat(struct outbuf *o, char c, int n)
{
	while (n-- > 0)
		out_char(o, c);
}

static void out_number(struct outbuf *o, unsigned long long num, bool negative,
		       const struct printf_spec *spec)
{
	const char *digits = (spec->flags & SMALL) ? "0123456789abcdef" :
						     "0123456789ABCDEF";
	char tmp[24];
	const char *prefix = "";
	char sign = 0;
	int len = 0, precision = spec->precision, total, pad;
	bool zeropad = (spec->flags & ZEROPAD) && precision < 0 &&
		       !(spec->flags & LEFT);

	if (spec->flags & SIGN) {
		if (negative)
			sign = '-';
		else if (spec->flags & PLUS)
			sign = '+';
		else if (spec->flags & SPACE)
			sign = ' ';
	}
	/* "%.0d" of zero prints no digits at all (C11 7.21.6.1). */
	if (!(num == 0 && precision == 0)) {
		do {
			tmp[len++] = digits[num % spec->base];
			num /= spec->base;
		} while (num);
	}
	if (spec->flags & SPECIAL) {
		if (spec->base == 16 && len && !(len == 1 && tmp[0] == '0'))
			prefix = (spec->flags & SMALL) ? "0x" : "0X";
		else if (spec->base == 8 && (len == 0 || tmp[len - 1] != '0'))
			precision = max(precision, len + 1);
	}
	precision = max(precision, len);
	total = (sign ? 1 : 0) + (int)strlen(prefix) + precision;
	pad = spec->width - total;

	if (!(spec->flags & LEFT) && !zeropad)
		out_repeat(o, ' ', pad);
	if (sign)
		out_char(o, sign);
	while (*prefix)
		out_char(o, *prefix++);
	if (zeropad)
		out_repeat(o, '0', pad);
	out_repeat(o, '0', precision - len);
	while (len)
		out_char(o, tmp[--len]);
	if (spec->flags & LEFT)
		out_repeat(o, ' ', pad);
}

static void out_string(struct outbuf *o, const char *s,
		       const struct printf_spec *spec)
{
	size_t max_len = spec->precision >= 0 ? (size_t)spec->precision : SIZE_MAX;
	int len, pad;

	if (!s)
		s = "(null)";
	len = (int)strnlen(s, max_len);
	pad = spec->width - len;
	if (!(spec->flags & LEFT))
		out_repeat(o, ' ', pad);
	for (int i = 0; i < len; i++)
		out_char(o, s[i]);
	if (spec->flags & LEFT)
		out_repeat(o, ' ', pad);
}

static void out_hex_address(struct outbuf *o, unsigned long addr,
			    const struct printf_spec *spec)
{
	struct printf_spec s = *spec;

	s.base = 16;
	s.flags |= SMALL;
	if (s.width < 0 && s.precision < 0) {
		s.width = 2 * sizeof(void *);
		s.flags |= ZEROPAD;
	}
	out_number(o, addr, false, &s);
}

/* %pS: "name+0xoff/0xsize"; %ps: "name"; raw address if unknown. */
static void out_symbol(struct outbuf *o, unsigned long addr, bool with_offset,
		       const struct printf_spec *spec)
{
	unsigned long size, offset;
	const char *name = kallsyms_lookup(addr, &size, &offset);
	char sym[128];

	if (!name)
		snprintf(sym, sizeof(sym), "0x%lx", addr);
	else if (with_offset)
		snprintf(sym, sizeof(sym), "%s+0x%lx/0x%lx", name, offset, size);
	else
		snprintf(sym, sizeof(sym), "%s", name);
	out_string(o, sym, spec);
}

/* Returns how many format characters after 'p' it consumed. */
static int out_pointer(struct outbuf *o, const char *fmt, void *ptr,
		       const struct printf_spec *spec)
{
	switch (*fmt) {
	case 'S':
		out_symbol(o, (unsigned long)ptr, true, spec);
		return 1;
	case 's':
		out_symbol(o, (unsigned long)ptr, false, spec);
		return 1;
	case 'x':
		out_hex_address(o, (unsigned long)ptr, spec);
		return 1;
	default:
		out_hex_address(o, (unsigned long)ptr, spec);
		return 0;
	}
}

static const char *decode_flags(const char *fmt, struct printf_spec *spec)
{
	for (;; fmt++) {
		switch (*fmt) {
		case '-':
			spec->flags |= LEFT;
			break;
		case '+':
			spec->flags |= PLUS;
			break;
		case ' ':
			spec->flags |= SPACE;
			break;
		case '#':
			spec->flags |= SPECIAL;
			break;
		case '0':
			spec->flags |= ZEROPAD;
			break;
		default:
			return fmt;
		}
	}
}

static const char *decode_int(const char *fmt, int *val)
{
	int v = 0;

	while (*fmt >= '0' && *fmt <= '9') {
		if (v < INT_MAX / 10)
			v = v * 10 + (*fmt - '0');
		fmt++;
	}
	*val = v;
	return fmt;
}

static const char *decode_length(const char *fmt, struct printf_spec *spec)
{
	spec->len = LEN_INT;
	switch (*fmt) {
	case 'h':
		if (fmt[1] == 'h') {
			spec->len = LEN_CHAR;
			return fmt + 2;
		}
		spec->len = LEN_SHORT;
		return fmt + 1;
	case 'l':
		if (fmt[1] == 'l') {
			spec->len = LEN_LLONG;
			return fmt + 2;
		}
		spec->len = LEN_LONG;
		return fmt + 1;
	case 'L':
	case 'q':
		spec->len = LEN_LLONG;
		return fmt + 1;
	case 'z':
		spec->len = LEN_SIZE;
		return fmt + 1;
	case 't':
		spec->len = LEN_PTRDIFF;
		return fmt + 1;
	case 'j':
		spec->len = LEN_INTMAX;
		return fmt + 1;
	default:
		return fmt;
	}
}

/* Fetch an integer argument of the decoded length; sets *negative. */
static unsigned long long fetch_int(va_list *args, const struct printf_spec *spec,
				    bool *negative)
{
	long long s;
	unsigned long long u;

	if (!(spec->flags & SIGN)) {
		switch (spec->len) {
		case LEN_CHAR:
			u = (unsigned char)va_arg(*args, unsigned int);
			break;
		case LEN_SHORT:
			u = (unsigned short)va_arg(*args, unsigned int);
			break;
		case LEN_LONG:
			u = va_arg(*args, unsigned long);
			break;
		case LEN_LLONG:
			u = va_arg(*args, unsigned long long);
			break;
		case LEN_SIZE:
			u = va_arg(*args, size_t);
			break;
		case LEN_PTRDIFF:
			u = (unsigned long long)va_arg(*args, ptrdiff_t);
			break;
		case LEN_INTMAX:
			u = va_arg(*args, uintmax_t);
			break;
		default:
			u = va_arg(*args, unsigned int);
			break;
		}
		*negative = false;
		return u;
	}
	switch (spec->len) {
	case LEN_CHAR:
		s = (signed char)va_arg(*args, int);
		break;
	case LEN_SHORT:
		s = (short)va_arg(*args, int);
		break;
	case LEN_LONG:
		s = va_arg(*args, long);
		break;
	case LEN_LLONG:
		s = va_arg(*args, long long);
		break;
	case LEN_SIZE:
		s = va_arg(*args, ssize_t);
		break;
	case LEN_PTRDIFF:
		s = va_arg(*args, ptrdiff_t);
		break;
	case LEN_INTMAX:
		s = va_arg(*args, intmax_t);
		break;
	default:
		s = va_arg(*args, int);
		break;
	}
	*negative = s < 0;
	/* Negate in unsigned arithmetic so LLONG_MIN does not overflow. */
	return *negative ? 0ULL - (unsigned long long)s : (unsigned long long)s;
}

/*
 * Decode one conversion starting just after '%', emit it, and return the
 * format position after it.
 */
static const char *convert(struct outbuf *o, const char *fmt, va_list *args)
{
	const char *start = fmt - 1;
	struct printf_spec spec = { .width = -1, .precision = -1, .base = 10 };
	unsigned long long num;
	bool negative;

	fmt = decode_flags(fmt, &spec);
	if (*fmt == '*') {
		spec.width = va_arg(*args, int);
		if (spec.width < 0) {
			spec.flags |= LEFT;
			spec.width = spec.width == -2147483647 - 1 ? INT_MAX : -spec.width;
		}
		fmt++;
	} else if (*fmt >= '0' && *fmt <= '9') {
		fmt = decode_int(fmt, &spec.width);
	}
	if (*fmt == '.') {
		fmt++;
		if (*fmt == '*') {
			spec.precision = va_arg(*args, int);
			if (spec.precision < 0)
				spec.precision = -1;
			fmt++;
		} else {
			fmt = decode_int(fmt, &spec.precision);
		}
	}
	fmt = decode_length(fmt, &spec);

	switch (*fmt) {
	case 'd':
	case 'i':
		spec.flags |= SIGN;
		break;
	case 'u':
		break;
	case 'x':
		spec.flags |= SMALL;
		__fallthrough;
	case 'X':
		spec.base = 16;
		break;
	case 'o':
		spec.base = 8;
		break;
	case 'c':
		spec.precision = -1;
		if (!(spec.flags & LEFT))
			out_repeat(o, ' ', spec.width - 1);
		out_char(o, (char)va_arg(*args, int));
		if (spec.flags & LEFT)
			out_repeat(o, ' ', spec.width - 1);
		return fmt + 1;
	case 's':
		out_string(o, va_arg(*args, const char *), &spec);
		return fmt + 1;
	case 'p':
		fmt++;
		return fmt + out_pointer(o, fmt, va_arg(*args, void *), &spec);
	case '%':
		out_char(o, '%');
		return fmt + 1;
	case '\0':
		/* A lone '%' at the end is printed as it is. */
		out_char(o, '%');
		return fmt;
	default:
		/* Unknown conversion (including %n): copy it literally. */
		while (start <= fmt)
			out_char(o, *start++);
		return fmt + 1;
	}
	num = fetch_int(args, &spec, &negative);
	out_number(o, num, negative, &spec);
	return fmt + 1;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	struct outbuf o = { .buf = buf, .size = size, .pos = 0 };
	va_list ap;

	va_copy(ap, args);
	while (*fmt) {
		if (*fmt != '%') {
			out_char(&o, *fmt++);
			continue;
		}
		fmt = convert(&o, fmt + 1, &ap);
	}
	va_end(ap);
	if (size)
		buf[min(o.pos, size - 1)] = '\0';
	return o.pos > INT_MAX ? INT_MAX : (int)o.pos;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int ret;

	va_start(args, fmt);
	ret = vsnprintf(buf, size, fmt, args);
	va_end(args);
	return ret;
}

int vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	int ret = vsnprintf(buf, size, fmt, args);

	if (!size)
		return 0;
	return (size_t)ret < size ? ret : (int)(size - 1);
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int ret;

	va_start(args, fmt);
	ret = vscnprintf(buf, size, fmt, args);
	va_end(args);
	return ret;
}

int scnprint_hex(char *buf, size_t size, const void *data, size_t len)
{
	const u8 *bytes = data;
	int n = 0;

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < len; i++)
		n += scnprintf(buf + n, size - n, " %02x", bytes[i]);
	return n;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of lib/vsprintf.c: every conversion (d i u x X o c s p %), the
 * flags "-+ #0" alone and combined, width and precision (literal, from *,
 * negative * widths), the length modifiers at their boundary values, the
 * pointer extensions %p %px %pS %ps, malformed formats (unknown conversion,
 * lone '%'), and the truncation rules: vsnprintf returns the full length
 * and always NUL-terminates, scnprintf/vscnprintf return what was stored.
 * Every expected string is written out by hand; a table-driven case runs
 * integer formats through the framework's parameter path.
 */
#include "lib/ktest/ktest.h"
#include "kernel/params.h"
#include "lib/sprintf.h"
#include "lib/string.h"

#define BUF_SIZE	128
#define FILL		0x5a	/* marks bytes vsnprintf must not touch */

#define LLONG_MIN_VAL	(-9223372036854775807LL - 1)
#define LLONG_MAX_VAL	9223372036854775807LL
#define ULLONG_MAX_VAL	18446744073709551615ULL

/*
 * Format with snprintf into a fresh buffer; expect exactly the string
 * literal exp and a return value of its length.
 */
#define EXPECT_FMT(t, exp, fmt, ...) do {				\
	char __buf[BUF_SIZE];						\
	int __ret;							\
									\
	memset(__buf, FILL, sizeof(__buf));				\
	__ret = snprintf(__buf, sizeof(__buf), fmt, ##__VA_ARGS__);	\
	KTEST_EXPECT_STREQ(t, __buf, exp);				\
	KTEST_EXPECT_EQ(t, __ret, (int)sizeof(exp) - 1);		\
} while (0)

/*
 * Same for what the compiler's format checker rejects on purpose (unknown
 * conversions, a trailing '%', redundant flags, a NULL %s): these go
 * through fmt_unchecked(), which has no __printf attribute.
 */
#define EXPECT_FMT_RAW(t, exp, fmt, ...) do {				\
	char __buf[BUF_SIZE];						\
	int __ret;							\
									\
	memset(__buf, FILL, sizeof(__buf));				\
	__ret = fmt_unchecked(__buf, sizeof(__buf), fmt, ##__VA_ARGS__); \
	KTEST_EXPECT_STREQ(t, __buf, exp);				\
	KTEST_EXPECT_EQ(t, __ret, (int)sizeof(exp) - 1);		\
} while (0)

static int fmt_unchecked(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int ret;

	va_start(args, fmt);
	ret = vsnprintf(buf, size, fmt, args);
	va_end(args);
	return ret;
}

static int scn_wrapper(char *buf, size_t size, const char *fmt, ...)
	__printf(3, 4);

static int scn_wrapper(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int ret;

	va_start(args, fmt);
	ret = vscnprintf(buf, size, fmt, args);
	va_end(args);
	return ret;
}

static void test_decimal(struct ktest *t)
{
	EXPECT_FMT(t, "0", "%d", 0);
	EXPECT_FMT(t, "42", "%d", 42);
	EXPECT_FMT(t, "-42", "%i", -42);
	EXPECT_FMT(t, "2147483647", "%d", 2147483647);
	EXPECT_FMT(t, "-2147483648", "%d", -2147483647 - 1);
	EXPECT_FMT(t, "4294967295", "%u", 4294967295U);
	EXPECT_FMT(t, "4294967295", "%u", -1);
	EXPECT_FMT(t, "a1b-2c", "a%db%ic", 1, -2);
	EXPECT_FMT_RAW(t, "", "");
	EXPECT_FMT(t, "plain text", "plain text");
}

static void test_hex_octal(struct ktest *t)
{
	EXPECT_FMT(t, "0", "%x", 0);
	EXPECT_FMT(t, "deadbeef", "%x", 0xdeadbeefU);
	EXPECT_FMT(t, "DEADBEEF", "%X", 0xdeadbeefU);
	EXPECT_FMT(t, "ffffffff", "%x", -1);
	EXPECT_FMT(t, "17", "%o", 15);
	EXPECT_FMT(t, "37777777777", "%o", 0xffffffffU);
	EXPECT_FMT(t, "0x1f", "%#x", 0x1f);
	EXPECT_FMT(t, "0X1F", "%#X", 0x1f);
	EXPECT_FMT(t, "0", "%#x", 0);
	EXPECT_FMT(t, "017", "%#o", 15);
	EXPECT_FMT(t, "0", "%#o", 0);
	EXPECT_FMT(t, "010", "%#.3o", 8);
	EXPECT_FMT(t, "0x00001234", "%#010x", 0x1234);
	EXPECT_FMT(t, "    0x1234", "%#10x", 0x1234);
	EXPECT_FMT(t, "0x1234    ", "%-#10x", 0x1234);
}

static void test_flags(struct ktest *t)
{
	EXPECT_FMT(t, "+42", "%+d", 42);
	EXPECT_FMT(t, "-42", "%+d", -42);
	EXPECT_FMT(t, "+0", "%+d", 0);
	EXPECT_FMT(t, " 42", "% d", 42);
	EXPECT_FMT(t, "-42", "% d", -42);
	EXPECT_FMT_RAW(t, "+42", "%+ d", 42);	/* '+' wins over ' ' */
	EXPECT_FMT_RAW(t, "42", "%+u", 42);	/* no sign when unsigned */
	EXPECT_FMT(t, "+42  ", "%-+5d", 42);
	EXPECT_FMT(t, "+0042", "%+05d", 42);
	EXPECT_FMT(t, "-0042", "%05d", -42);
	EXPECT_FMT(t, " 0042", "% 05d", 42);
	EXPECT_FMT_RAW(t, "42   ", "%-05d", 42);	/* '-' beats '0' */
	EXPECT_FMT(t, "00042", "%05u", 42);
	EXPECT_FMT(t, "0000ff", "%06x", 0xff);
}

static void test_width_precision(struct ktest *t)
{
	EXPECT_FMT(t, "   42", "%5d", 42);
	EXPECT_FMT(t, "42", "%1d", 42);
	EXPECT_FMT(t, "  -42", "%5d", -42);
	EXPECT_FMT(t, "007", "%.3d", 7);
	EXPECT_FMT(t, "-007", "%.3d", -7);
	EXPECT_FMT(t, "  007", "%5.3d", 7);
	EXPECT_FMT_RAW(t, "  007", "%05.3d", 7);	/* precision disables '0' */
	EXPECT_FMT(t, "", "%.0d", 0);
	EXPECT_FMT(t, "   ", "%3.0d", 0);
	EXPECT_FMT(t, "", "%.0x", 0);
	EXPECT_FMT(t, "1", "%.0d", 1);
	EXPECT_FMT(t, "0x0001", "%#.4x", 1);
	EXPECT_FMT(t, "   42", "%*d", 5, 42);
	EXPECT_FMT(t, "42   |", "%*d|", -5, 42);
	EXPECT_FMT(t, "007", "%.*d", 3, 7);
	EXPECT_FMT(t, "7", "%.*d", -1, 7);	/* negative: no precision */
	EXPECT_FMT(t, "   07", "%*.*d", 5, 2, 7);
	EXPECT_FMT(t, "ab   |", "%-*s|", 5, "ab");
}

static void test_length_modifiers(struct ktest *t)
{
	EXPECT_FMT(t, "-1", "%hhd", (signed char)-1);
	EXPECT_FMT_RAW(t, "-1", "%hhd", 255);
	EXPECT_FMT(t, "255", "%hhu", (unsigned char)255);
	EXPECT_FMT_RAW(t, "44", "%hhx", 0x1244);
	EXPECT_FMT(t, "-32768", "%hd", (short)-32768);
	EXPECT_FMT_RAW(t, "-25536", "%hd", 40000);
	EXPECT_FMT_RAW(t, "65535", "%hu", 65535);
	EXPECT_FMT_RAW(t, "2345", "%hx", 0x12345);
	EXPECT_FMT(t, "-9223372036854775808", "%ld", (long)LLONG_MIN_VAL);
	EXPECT_FMT(t, "-9223372036854775808", "%lld", LLONG_MIN_VAL);
	EXPECT_FMT(t, "9223372036854775807", "%lli", LLONG_MAX_VAL);
	EXPECT_FMT(t, "18446744073709551615", "%llu", ULLONG_MAX_VAL);
	EXPECT_FMT(t, "ffffffffffffffff", "%llx", ULLONG_MAX_VAL);
	EXPECT_FMT(t, "1777777777777777777777", "%llo", ULLONG_MAX_VAL);
	EXPECT_FMT(t, "4294967296", "%lu", 4294967296UL);
	EXPECT_FMT(t, "18446744073709551615", "%zu", (size_t)-1);
	EXPECT_FMT(t, "-5", "%zd", (ssize_t)-5);
	EXPECT_FMT(t, "-123456789012", "%td", (ptrdiff_t)-123456789012LL);
	EXPECT_FMT(t, "-9223372036854775808", "%jd", (intmax_t)LLONG_MIN_VAL);
	EXPECT_FMT(t, "18446744073709551615", "%ju", (uintmax_t)ULLONG_MAX_VAL);
	/* A long argument after an int one: each fetched at its own size. */
	EXPECT_FMT(t, "1 -1 2", "%d %lld %d", 1, -1LL, 2);
}

static void test_chars_strings(struct ktest *t)
{
	EXPECT_FMT(t, "A", "%c", 'A');
	EXPECT_FMT(t, "  A", "%3c", 'A');
	EXPECT_FMT(t, "A  |", "%-3c|", 'A');
	EXPECT_FMT(t, "hello", "%s", "hello");
	EXPECT_FMT_RAW(t, "(null)", "%s", (char *)NULL);
	EXPECT_FMT_RAW(t, "  (null)", "%8s", (char *)NULL);
	EXPECT_FMT_RAW(t, "(n", "%.2s", (char *)NULL);
	EXPECT_FMT(t, "he", "%.2s", "hello");
	EXPECT_FMT(t, "", "%.0s", "hello");
	EXPECT_FMT(t, "hello", "%.9s", "hello");
	EXPECT_FMT(t, "   he", "%5.2s", "hello");
	EXPECT_FMT(t, "he   |", "%-5.2s|", "hello");
	EXPECT_FMT(t, "hel", "%.*s", 3, "hello");
	EXPECT_FMT(t, "hello", "%2s", "hello");	/* width never cuts */
	EXPECT_FMT(t, "100%", "100%%");
	EXPECT_FMT(t, "%d", "%%d");
}

/* %c of '\0' stores a NUL inside the output and still counts it. */
static void test_nul_char(struct ktest *t)
{
	char buf[8];
	int ret;

	memset(buf, FILL, sizeof(buf));
	ret = snprintf(buf, sizeof(buf), "a%cb", 0);
	KTEST_EXPECT_EQ(t, ret, 3);
	KTEST_EXPECT_MEMEQ(t, buf, "a\0b\0", 4);
	KTEST_EXPECT_EQ(t, (u8)buf[4], FILL);
}

static void test_pointers(struct ktest *t)
{
	EXPECT_FMT(t, "0000000000000000", "%p", NULL);
	EXPECT_FMT(t, "0000000000000000", "%px", NULL);
	EXPECT_FMT(t, "ffffffff80001234", "%p", (void *)0xffffffff80001234UL);
	EXPECT_FMT(t, "00000000deadbeef", "%px", (void *)0xdeadbeefUL);
	EXPECT_FMT(t, "[0000000000001000]", "[%p]", (void *)0x1000UL);
	/* A letter after %p that is no extension stays literal text. */
	EXPECT_FMT(t, "0000000000000010d", "%pd", (void *)0x10UL);
}

/*
 * %pS and %ps through kallsyms. kstrtoull is not renamed in the host
 * build (arch/host/renamed.syms), so its name is the same in both.
 */
static void test_symbols(struct ktest *t)
{
	char buf[BUF_SIZE];
	const char *size_text;
	unsigned long size = 0;
	int ret;

	ret = snprintf(buf, sizeof(buf), "%pS", (void *)kstrtoull);
	KTEST_EXPECT_GT(t, ret, 16);
	KTEST_ASSERT_MEMEQ(t, buf, "kstrtoull+0x0/0x", 16);
	size_text = buf + 16;
	KTEST_EXPECT_EQ(t, kstrtoul(size_text, 16, &size), 0);
	KTEST_EXPECT_GT(t, size, 1UL);

	ret = snprintf(buf, sizeof(buf), "%pS", (void *)((char *)kstrtoull + 1));
	KTEST_EXPECT_MEMEQ(t, buf, "kstrtoull+0x1/0x", 16);
	KTEST_EXPECT_STREQ(t, buf + 16, size_text);
	KTEST_EXPECT_EQ(t, ret, 16 + (int)strlen(size_text));

	EXPECT_FMT(t, "kstrtoull", "%ps", (void *)kstrtoull);
	EXPECT_FMT(t, "<parse_args>", "<%ps>", (void *)parse_args);
	EXPECT_FMT(t, "   kstrtoull", "%12ps", (void *)kstrtoull);
	/* Nothing is mapped at 0x10: the raw address is printed. */
	EXPECT_FMT(t, "0x10", "%pS", (void *)0x10UL);
	EXPECT_FMT(t, "0x10", "%ps", (void *)0x10UL);
}

static void test_malformed(struct ktest *t)
{
	EXPECT_FMT_RAW(t, "%y", "%y");
	EXPECT_FMT_RAW(t, "a%yb", "a%yb");
	EXPECT_FMT_RAW(t, "%-5y", "%-5y");
	EXPECT_FMT_RAW(t, "%n", "%n");		/* %n is never supported */
	EXPECT_FMT_RAW(t, "abc%", "abc%");
	EXPECT_FMT_RAW(t, "%", "%");
	EXPECT_FMT_RAW(t, "7 %y 8", "%d %y %d", 7, 8);
}

static void test_truncation(struct ktest *t)
{
	char buf[16];
	int ret;

	/* size 0: nothing written, full length returned. */
	memset(buf, FILL, sizeof(buf));
	ret = snprintf(buf, 0, "hello %d", 12345);
	KTEST_EXPECT_EQ(t, ret, 11);
	KTEST_EXPECT_EQ(t, (u8)buf[0], FILL);
	KTEST_EXPECT_EQ(t, snprintf(NULL, 0, "%s", "abcdef"), 6);

	/* size 1: only the terminator. */
	memset(buf, FILL, sizeof(buf));
	ret = snprintf(buf, 1, "hello");
	KTEST_EXPECT_EQ(t, ret, 5);
	KTEST_EXPECT_EQ(t, buf[0], '\0');
	KTEST_EXPECT_EQ(t, (u8)buf[1], FILL);

	/* Cut in literal text. */
	memset(buf, FILL, sizeof(buf));
	ret = snprintf(buf, 5, "abcdefgh");
	KTEST_EXPECT_EQ(t, ret, 8);
	KTEST_EXPECT_STREQ(t, buf, "abcd");
	KTEST_EXPECT_EQ(t, (u8)buf[5], FILL);

	/* Cut inside a padded number and a string. */
	memset(buf, FILL, sizeof(buf));
	ret = snprintf(buf, 4, "%05d", 42);
	KTEST_EXPECT_EQ(t, ret, 5);
	KTEST_EXPECT_STREQ(t, buf, "000");
	memset(buf, FILL, sizeof(buf));
	ret = snprintf(buf, 6, "x=%s!", "abcdef");
	KTEST_EXPECT_EQ(t, ret, 9);
	KTEST_EXPECT_STREQ(t, buf, "x=abc");
	KTEST_EXPECT_EQ(t, (u8)buf[6], FILL);

	/* Exactly fitting: output plus NUL fill the buffer. */
	memset(buf, FILL, sizeof(buf));
	ret = snprintf(buf, 4, "%u", 123);
	KTEST_EXPECT_EQ(t, ret, 3);
	KTEST_EXPECT_STREQ(t, buf, "123");
	KTEST_EXPECT_EQ(t, (u8)buf[4], FILL);
}

static void test_scnprintf(struct ktest *t)
{
	char buf[16];

	memset(buf, FILL, sizeof(buf));
	KTEST_EXPECT_EQ(t, scnprintf(buf, sizeof(buf), "%d-%d", 12, 34), 5);
	KTEST_EXPECT_STREQ(t, buf, "12-34");
	KTEST_EXPECT_EQ(t, scnprintf(buf, 4, "abcdef"), 3);
	KTEST_EXPECT_STREQ(t, buf, "abc");
	KTEST_EXPECT_EQ(t, scnprintf(buf, 1, "abcdef"), 0);
	KTEST_EXPECT_STREQ(t, buf, "");
	memset(buf, FILL, sizeof(buf));
	KTEST_EXPECT_EQ(t, scnprintf(buf, 0, "abcdef"), 0);
	KTEST_EXPECT_EQ(t, (u8)buf[0], FILL);
	KTEST_EXPECT_EQ(t, scnprintf(buf, 4, "abc"), 3);
	KTEST_EXPECT_STREQ(t, buf, "abc");

	KTEST_EXPECT_EQ(t, scn_wrapper(buf, 6, "%s%s", "abc", "def"), 5);
	KTEST_EXPECT_STREQ(t, buf, "abcde");
	KTEST_EXPECT_EQ(t, scn_wrapper(buf, sizeof(buf), "%x", 0xabc), 3);
	KTEST_EXPECT_STREQ(t, buf, "abc");
	KTEST_EXPECT_EQ(t, scn_wrapper(buf, 0, "%x", 0xabc), 0);
}

/*
 * Table-driven integer formats. The value is passed as int or as long
 * long, whichever the format's length modifier fetches.
 */
struct int_fmt_case {
	const char *fmt;
	bool is_ll;
	long long value;
	const char *expected;
};

static const struct int_fmt_case int_fmt_cases[] = {
	{ "%d", false, 123, "123" },
	{ "%d", false, -123, "-123" },
	{ "%+4d", false, 5, "  +5" },
	{ "%-4d|", false, -5, "-5  |" },
	{ "%04i", false, -5, "-005" },
	{ "%x", false, 0xabcdef, "abcdef" },
	{ "%#X", false, 0xabcdef, "0XABCDEF" },
	{ "%08o", false, 8, "00000010" },
	{ "%hhu", false, 0x1ff, "255" },
	{ "%hd", false, 0x18000, "-32768" },
	{ "%.5u", false, 42, "00042" },
	{ "%lld", true, -1, "-1" },
	{ "%llu", true, -1, "18446744073709551615" },
	{ "%#llx", true, 0x123456789abcLL, "0x123456789abc" },
	{ "%20lld", true, LLONG_MIN_VAL, "-9223372036854775808" },
	{ "%22lld", true, LLONG_MIN_VAL, "  -9223372036854775808" },
	{ "%-+22lli|", true, LLONG_MAX_VAL, "+9223372036854775807  |" },
	{ "%025llu", true, -1, "0000018446744073709551615" },
};

static void int_fmt_desc(const struct int_fmt_case *c, char *desc)
{
	scnprintf(desc, KTEST_DESC_SIZE, "\"%s\" -> \"%s\"", c->fmt,
		  c->expected);
}
KTEST_ARRAY_PARAM(int_fmt_gen, int_fmt_cases, int_fmt_desc);

static void test_int_formats(struct ktest *t)
{
	const struct int_fmt_case *c = t->param_value;
	char buf[BUF_SIZE];
	int ret;

	KTEST_ASSERT_NOT_NULL(t, c);
	memset(buf, FILL, sizeof(buf));
	if (c->is_ll)
		ret = fmt_unchecked(buf, sizeof(buf), c->fmt, c->value);
	else
		ret = fmt_unchecked(buf, sizeof(buf), c->fmt, (int)c->value);
	KTEST_EXPECT_STREQ(t, buf, c->expected);
	KTEST_EXPECT_EQ(t, ret, (int)strlen(c->expected));
}

/* scnprint_hex: " %02x" per byte, truncated like scnprintf. */
static void test_scnprint_hex(struct ktest *t)
{
	static const u8 data[] = { 0x00, 0x5a, 0xff, 0x0b };
	char buf[16];

	KTEST_EXPECT_EQ(t, scnprint_hex(buf, sizeof(buf), data, 4), 12);
	KTEST_EXPECT_STREQ(t, buf, " 00 5a ff 0b");
	KTEST_EXPECT_EQ(t, scnprint_hex(buf, sizeof(buf), data, 0), 0);
	KTEST_EXPECT_STREQ(t, buf, "");
	KTEST_EXPECT_EQ(t, scnprint_hex(buf, 8, data, 4), 7);
	KTEST_EXPECT_STREQ(t, buf, " 00 5a ");
}

static const struct ktest_case vsprintf_cases[] = {
	KTEST_CASE(test_decimal),
	KTEST_CASE(test_hex_octal),
	KTEST_CASE(test_flags),
	KTEST_CASE(test_width_precision),
	KTEST_CASE(test_length_modifiers),
	KTEST_CASE(test_chars_strings),
	KTEST_CASE(test_nul_char),
	KTEST_CASE(test_pointers),
	KTEST_CASE(test_symbols),
	KTEST_CASE(test_malformed),
	KTEST_CASE(test_truncation),
	KTEST_CASE(test_scnprintf),
	KTEST_CASE(test_scnprint_hex),
	KTEST_CASE_PARAM(test_int_formats, int_fmt_gen),
	{}
};
KTEST_SUITE(vsprintf, vsprintf_cases);

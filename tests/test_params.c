// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of kernel/params.c: next_arg's word splitting (plain words,
 * name=value, runs of spaces and tabs, quoted values, fully quoted words,
 * empty values, '=' inside a value, unterminated quotes, empty input),
 * parameq's '-'/'_' equivalence, parse_args against a local parameter
 * table whose setup functions log every call (values, NULL for a bare
 * name, unknown and rejected words counted and warned about), the kstrto*
 * number parsers (bases 0, 8, 10, 16, trailing newline, garbage, empty
 * input, overflow at the exact limits, signs), and memparse's suffixes and
 * end pointer. All inputs live in exactly sized arrays so that the host
 * build's ASan catches any read past their end.
 */
#include "kernel/errno.h"
#include "lib/ktest/ktest.h"
#include "kernel/params.h"
#include "lib/sprintf.h"
#include "lib/string.h"

/* Split one word off s; expect name, value (NULL: none) and the rest. */
#define EXPECT_ARG(t, s, exp_param, exp_val, exp_next) do {		\
	char *__param, *__val, *__next;					\
									\
	__next = next_arg(s, &__param, &__val);				\
	KTEST_EXPECT_STREQ(t, __param, exp_param);			\
	KTEST_EXPECT_STREQ(t, __val, exp_val);				\
	KTEST_EXPECT_STREQ(t, __next, exp_next);			\
	s = __next;							\
} while (0)

static void test_next_arg_words(struct ktest *t)
{
	char line[] = "foo name=value  bar";
	char spaces[] = "   spaced    next   ";
	char tabs[] = "\tfoo\t\tbar=1\t";
	char *s;

	s = line;
	EXPECT_ARG(t, s, "foo", NULL, "name=value  bar");
	EXPECT_ARG(t, s, "name", "value", "bar");
	EXPECT_ARG(t, s, "bar", NULL, "");
	KTEST_EXPECT_PTR_EQ(t, s, line + sizeof(line) - 1);

	s = spaces;
	EXPECT_ARG(t, s, "spaced", NULL, "next   ");
	EXPECT_ARG(t, s, "next", NULL, "");
	KTEST_EXPECT_PTR_EQ(t, s, spaces + sizeof(spaces) - 1);

	s = tabs;
	EXPECT_ARG(t, s, "foo", NULL, "bar=1\t");
	EXPECT_ARG(t, s, "bar", "1", "");
}

static void test_next_arg_values(struct ktest *t)
{
	char empty_val[] = "name= x";
	char bare[] = "flag";
	char equals[] = "a=b=c d=";
	char leading_eq[] = "=v";
	char *s;

	s = empty_val;
	EXPECT_ARG(t, s, "name", "", "x");
	EXPECT_ARG(t, s, "x", NULL, "");

	s = bare;
	EXPECT_ARG(t, s, "flag", NULL, "");

	/* Only the first '=' splits. */
	s = equals;
	EXPECT_ARG(t, s, "a", "b=c", "d=");
	EXPECT_ARG(t, s, "d", "", "");

	s = leading_eq;
	EXPECT_ARG(t, s, "", "v", "");
}

static void test_next_arg_quotes(struct ktest *t)
{
	char value[] = "name=\"quoted value with spaces\" tail";
	char word[] = "\"fully quoted=word\" x";
	char empty[] = "e=\"\" f";
	char *s;

	s = value;
	EXPECT_ARG(t, s, "name", "quoted value with spaces", "tail");
	EXPECT_ARG(t, s, "tail", NULL, "");

	s = word;
	EXPECT_ARG(t, s, "fully quoted", "word", "x");
	EXPECT_ARG(t, s, "x", NULL, "");

	s = empty;
	EXPECT_ARG(t, s, "e", "", "f");
	EXPECT_ARG(t, s, "f", NULL, "");
}

/*
 * An unterminated quote swallows the rest of the line as one word; it
 * must stop at the NUL (ASan checks the exactly sized arrays) and leave
 * an empty remainder, not a pointer past the end.
 */
static void test_next_arg_unterminated(struct ktest *t)
{
	char value[] = "a=\"open value  rest";
	char word[] = "x \"open word";
	char lone[] = "\"";
	char eq_quote[] = "k=\"";
	char *s;

	s = value;
	EXPECT_ARG(t, s, "a", "open value  rest", "");
	KTEST_EXPECT_PTR_EQ(t, s, value + sizeof(value) - 1);

	s = word;
	EXPECT_ARG(t, s, "x", NULL, "\"open word");
	EXPECT_ARG(t, s, "open word", NULL, "");
	KTEST_EXPECT_PTR_EQ(t, s, word + sizeof(word) - 1);

	s = lone;
	EXPECT_ARG(t, s, "", NULL, "");
	KTEST_EXPECT_PTR_EQ(t, s, lone + 1);

	s = eq_quote;
	EXPECT_ARG(t, s, "k", "", "");
	KTEST_EXPECT_PTR_EQ(t, s, eq_quote + sizeof(eq_quote) - 1);
}

static void test_next_arg_empty(struct ktest *t)
{
	char empty[] = "";
	char blank[] = "  \t ";
	char *s;

	s = empty;
	EXPECT_ARG(t, s, "", NULL, "");
	KTEST_EXPECT_PTR_EQ(t, s, empty);

	s = blank;
	EXPECT_ARG(t, s, "", NULL, "");
	KTEST_EXPECT_PTR_EQ(t, s, blank + 4);
}

static void test_parameq(struct ktest *t)
{
	KTEST_EXPECT_TRUE(t, parameq("foo", "foo"));
	KTEST_EXPECT_TRUE(t, parameq("foo_bar", "foo-bar"));
	KTEST_EXPECT_TRUE(t, parameq("foo-bar", "foo_bar"));
	KTEST_EXPECT_TRUE(t, parameq("a-b_c", "a_b-c"));
	KTEST_EXPECT_TRUE(t, parameq("", ""));
	KTEST_EXPECT_FALSE(t, parameq("foo", "foob"));
	KTEST_EXPECT_FALSE(t, parameq("foob", "foo"));
	KTEST_EXPECT_FALSE(t, parameq("foo", ""));
	KTEST_EXPECT_FALSE(t, parameq("Foo", "foo"));
	KTEST_EXPECT_FALSE(t, parameq("a-b", "a.b"));
	KTEST_EXPECT_FALSE(t, parameq("a-b", "ab"));
}

/* --- parse_args ------------------------------------------------------- */

/* Every setup call appends "name:value;" ("name:NULL;" for no value). */
static char setup_log[256];

static void log_call(const char *name, const char *val)
{
	size_t len = strlen(setup_log);

	scnprintf(setup_log + len, sizeof(setup_log) - len, "%s:%s;", name,
		  val ? val : "NULL");
}

static int setup_alpha(char *val)
{
	log_call("alpha", val);
	return 0;
}

static int setup_beta_gamma(char *val)
{
	log_call("beta_gamma", val);
	return 0;
}

static int setup_flag(char *val)
{
	log_call("flag", val);
	return 0;
}

static int setup_reject(char *val)
{
	log_call("reject", val);
	return -EINVAL;
}

static const struct kernel_param test_params[] = {
	{ .name = "alpha", .setup = setup_alpha },
	{ .name = "beta_gamma", .setup = setup_beta_gamma },
	{ .name = "flag", .setup = setup_flag },
	{ .name = "reject", .setup = setup_reject },
};

static void test_parse_args(struct ktest *t)
{
	char cmdline[] = "  alpha=1 unknown beta-gamma=\"x y\" reject=bad "
			 "flag =novalue nothere=3 alpha\tflag=on  ";
	int bad;

	setup_log[0] = '\0';
	ktest_capture_start(t, "ignored");
	bad = parse_args(cmdline, test_params, ARRAY_SIZE(test_params));
	/* unknown, reject=bad, =novalue, nothere=3 */
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 4U);
	KTEST_EXPECT_EQ(t, bad, 4);
	KTEST_EXPECT_STREQ(t, setup_log,
			   "alpha:1;beta_gamma:x y;reject:bad;flag:NULL;"
			   "alpha:NULL;flag:on;");
}

static void test_parse_args_edge(struct ktest *t)
{
	char empty[] = "";
	char blank[] = "   ";
	char one[] = "reject";
	char none[] = "alpha=2";

	setup_log[0] = '\0';
	KTEST_EXPECT_EQ(t, parse_args(empty, test_params, ARRAY_SIZE(test_params)), 0);
	KTEST_EXPECT_EQ(t, parse_args(blank, test_params, ARRAY_SIZE(test_params)), 0);
	KTEST_EXPECT_STREQ(t, setup_log, "");

	ktest_capture_start(t, "Malformed kernel command line parameter \"reject\"");
	KTEST_EXPECT_EQ(t, parse_args(one, test_params, ARRAY_SIZE(test_params)), 1);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_STREQ(t, setup_log, "reject:NULL;");

	/* An empty table knows no names at all. */
	setup_log[0] = '\0';
	ktest_capture_start(t, "Unknown kernel command line parameter \"alpha\"");
	KTEST_EXPECT_EQ(t, parse_args(none, test_params, 0), 1);
	KTEST_EXPECT_EQ(t, ktest_capture_stop(t), 1U);
	KTEST_EXPECT_STREQ(t, setup_log, "");
}

/* --- number parsing ---------------------------------------------------- */

#define EXPECT_ULL(t, s, base, expected) do {				\
	unsigned long long __v = 0xdeadULL;				\
									\
	KTEST_EXPECT_EQ(t, kstrtoull(s, base, &__v), 0);		\
	KTEST_EXPECT_EQ(t, __v, expected);				\
} while (0)

/* A failed parse returns err and leaves the result alone. */
#define EXPECT_ULL_ERR(t, s, base, err) do {				\
	unsigned long long __v = 0xdeadULL;				\
									\
	KTEST_EXPECT_EQ(t, kstrtoull(s, base, &__v), err);		\
	KTEST_EXPECT_EQ(t, __v, 0xdeadULL);				\
} while (0)

#define EXPECT_INT(t, s, base, expected) do {				\
	int __v = 0xdead;						\
									\
	KTEST_EXPECT_EQ(t, kstrtoint(s, base, &__v), 0);		\
	KTEST_EXPECT_EQ(t, __v, expected);				\
} while (0)

#define EXPECT_INT_ERR(t, s, base, err) do {				\
	int __v = 0xdead;						\
									\
	KTEST_EXPECT_EQ(t, kstrtoint(s, base, &__v), err);		\
	KTEST_EXPECT_EQ(t, __v, 0xdead);				\
} while (0)

static void test_kstrtoull(struct ktest *t)
{
	EXPECT_ULL(t, "0", 10, 0ULL);
	EXPECT_ULL(t, "12345", 10, 12345ULL);
	EXPECT_ULL(t, "017", 10, 17ULL);
	EXPECT_ULL(t, "+5", 10, 5ULL);
	EXPECT_ULL(t, "42\n", 10, 42ULL);
	EXPECT_ULL(t, "1f", 16, 31ULL);
	EXPECT_ULL(t, "1F", 16, 31ULL);
	EXPECT_ULL(t, "0x1f", 16, 31ULL);
	EXPECT_ULL(t, "0x1f", 0, 31ULL);
	EXPECT_ULL(t, "0X1F", 0, 31ULL);
	EXPECT_ULL(t, "017", 0, 15ULL);
	EXPECT_ULL(t, "0", 0, 0ULL);
	EXPECT_ULL(t, "100", 0, 100ULL);
	EXPECT_ULL(t, "17", 8, 15ULL);
	EXPECT_ULL(t, "101", 2, 5ULL);
	EXPECT_ULL(t, "18446744073709551615", 10, 18446744073709551615ULL);
	EXPECT_ULL(t, "ffffffffffffffff", 16, 18446744073709551615ULL);
	EXPECT_ULL(t, "01777777777777777777777", 0, 18446744073709551615ULL);

	EXPECT_ULL_ERR(t, "", 10, -EINVAL);
	EXPECT_ULL_ERR(t, "\n", 10, -EINVAL);
	EXPECT_ULL_ERR(t, "+", 10, -EINVAL);
	EXPECT_ULL_ERR(t, "-5", 10, -EINVAL);
	EXPECT_ULL_ERR(t, " 5", 10, -EINVAL);
	EXPECT_ULL_ERR(t, "5 ", 10, -EINVAL);
	EXPECT_ULL_ERR(t, "42x", 10, -EINVAL);
	EXPECT_ULL_ERR(t, "42\n\n", 10, -EINVAL);
	EXPECT_ULL_ERR(t, "1f", 10, -EINVAL);
	EXPECT_ULL_ERR(t, "0x", 16, -EINVAL);
	EXPECT_ULL_ERR(t, "0x", 0, -EINVAL);
	EXPECT_ULL_ERR(t, "08", 0, -EINVAL);
	EXPECT_ULL_ERR(t, "8", 8, -EINVAL);
	EXPECT_ULL_ERR(t, "2", 2, -EINVAL);
	EXPECT_ULL_ERR(t, "18446744073709551616", 10, -ERANGE);
	EXPECT_ULL_ERR(t, "99999999999999999999", 10, -ERANGE);
	EXPECT_ULL_ERR(t, "10000000000000000", 16, -ERANGE);
	EXPECT_ULL_ERR(t, "0x10000000000000000", 0, -ERANGE);
}

static void test_kstrtoul(struct ktest *t)
{
	unsigned long v = 7;

	KTEST_EXPECT_EQ(t, kstrtoul("4294967296", 10, &v), 0);
	KTEST_EXPECT_EQ(t, v, 4294967296UL);
	KTEST_EXPECT_EQ(t, kstrtoul("0x10", 0, &v), 0);
	KTEST_EXPECT_EQ(t, v, 16UL);
	KTEST_EXPECT_EQ(t, kstrtoul("18446744073709551615\n", 10, &v), 0);
	KTEST_EXPECT_EQ(t, v, 18446744073709551615UL);
	v = 7;
	KTEST_EXPECT_EQ(t, kstrtoul("12a", 10, &v), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoul("18446744073709551616", 10, &v), -ERANGE);
	KTEST_EXPECT_EQ(t, v, 7UL);
}

static void test_kstrtoint(struct ktest *t)
{
	EXPECT_INT(t, "0", 10, 0);
	EXPECT_INT(t, "-0", 10, 0);
	EXPECT_INT(t, "123", 10, 123);
	EXPECT_INT(t, "-123", 10, -123);
	EXPECT_INT(t, "+7", 10, 7);
	EXPECT_INT(t, "-7\n", 10, -7);
	EXPECT_INT(t, "2147483647", 10, 2147483647);
	EXPECT_INT(t, "-2147483648", 10, -2147483647 - 1);
	EXPECT_INT(t, "-0x10", 0, -16);
	EXPECT_INT(t, "7fffffff", 16, 2147483647);

	EXPECT_INT_ERR(t, "2147483648", 10, -ERANGE);
	EXPECT_INT_ERR(t, "-2147483649", 10, -ERANGE);
	EXPECT_INT_ERR(t, "4294967296", 10, -ERANGE);
	EXPECT_INT_ERR(t, "-18446744073709551616", 10, -ERANGE);
	EXPECT_INT_ERR(t, "80000000", 16, -ERANGE);
	EXPECT_INT_ERR(t, "", 10, -EINVAL);
	EXPECT_INT_ERR(t, "-", 10, -EINVAL);
	EXPECT_INT_ERR(t, "--1", 10, -EINVAL);
	EXPECT_INT_ERR(t, "-+5", 10, -EINVAL);	/* one sign only */
	EXPECT_INT_ERR(t, "12 ", 10, -EINVAL);
}

static void test_memparse(struct ktest *t)
{
	static const char m128[] = "128M";
	static const char k4[] = "4k";
	static const char k4u[] = "4K";
	static const char g1[] = "1G";
	static const char t2[] = "2t";
	static const char p1[] = "1P";
	static const char e1[] = "1E";
	static const char hex[] = "0x1000";
	static const char hexk[] = "0x10k";
	static const char oct[] = "017";
	static const char plain[] = "42";
	static const char suffix_only[] = "M";
	static const char empty[] = "";
	static const char tail[] = "128Mfoo";
	static const char spaced[] = "12 M";
	static const char huge[] = "16E";
	char *end = NULL;

	KTEST_EXPECT_EQ(t, memparse(m128, &end), 134217728ULL);
	KTEST_EXPECT_PTR_EQ(t, end, m128 + 4);
	KTEST_EXPECT_EQ(t, memparse(k4, &end), 4096ULL);
	KTEST_EXPECT_PTR_EQ(t, end, k4 + 2);
	KTEST_EXPECT_EQ(t, memparse(k4u, &end), 4096ULL);
	KTEST_EXPECT_EQ(t, memparse(g1, &end), 1073741824ULL);
	KTEST_EXPECT_PTR_EQ(t, end, g1 + 2);
	KTEST_EXPECT_EQ(t, memparse(t2, &end), 2199023255552ULL);
	KTEST_EXPECT_EQ(t, memparse(p1, &end), 1125899906842624ULL);
	KTEST_EXPECT_EQ(t, memparse(e1, &end), 1152921504606846976ULL);
	KTEST_EXPECT_EQ(t, memparse(hex, &end), 4096ULL);
	KTEST_EXPECT_PTR_EQ(t, end, hex + 6);
	KTEST_EXPECT_EQ(t, memparse(hexk, &end), 16384ULL);
	KTEST_EXPECT_PTR_EQ(t, end, hexk + 5);
	KTEST_EXPECT_EQ(t, memparse(oct, &end), 15ULL);
	KTEST_EXPECT_EQ(t, memparse(plain, &end), 42ULL);
	KTEST_EXPECT_PTR_EQ(t, end, plain + 2);

	/* No digits: 0, and nothing consumed. */
	end = NULL;
	KTEST_EXPECT_EQ(t, memparse(suffix_only, &end), 0ULL);
	KTEST_EXPECT_PTR_EQ(t, end, suffix_only);
	end = NULL;
	KTEST_EXPECT_EQ(t, memparse(empty, &end), 0ULL);
	KTEST_EXPECT_PTR_EQ(t, end, empty);

	/* The end pointer stops right after the suffix. */
	KTEST_EXPECT_EQ(t, memparse(tail, &end), 134217728ULL);
	KTEST_EXPECT_PTR_EQ(t, end, tail + 4);
	KTEST_EXPECT_STREQ(t, end, "foo");
	KTEST_EXPECT_EQ(t, memparse(spaced, &end), 12ULL);
	KTEST_EXPECT_PTR_EQ(t, end, spaced + 2);

	/* A suffix that overflows saturates. */
	KTEST_EXPECT_EQ(t, memparse(huge, &end), 18446744073709551615ULL);

	/* retptr may be NULL. */
	KTEST_EXPECT_EQ(t, memparse(k4, NULL), 4096ULL);
}

static const struct ktest_case params_cases[] = {
	KTEST_CASE(test_next_arg_words),
	KTEST_CASE(test_next_arg_values),
	KTEST_CASE(test_next_arg_quotes),
	KTEST_CASE(test_next_arg_unterminated),
	KTEST_CASE(test_next_arg_empty),
	KTEST_CASE(test_parameq),
	KTEST_CASE(test_parse_args),
	KTEST_CASE(test_parse_args_edge),
	KTEST_CASE(test_kstrtoull),
	KTEST_CASE(test_kstrtoul),
	KTEST_CASE(test_kstrtoint),
	KTEST_CASE(test_memparse),
	{}
};
KTEST_SUITE(params, params_cases);

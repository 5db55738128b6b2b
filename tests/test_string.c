// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of lib/string.c. The memory functions are checked byte by byte
 * against simple index loops over every small length and alignment (so the
 * word-at-a-time paths and their byte tails are both covered), over
 * lengths around a kilobyte (the string instructions) and for the
 * bytes around the target staying untouched; memmove in both overlap
 * directions. The string functions are checked against hand-written
 * results: signs of comparisons (bytes >= 0x80 compare as unsigned), the
 * padding and missing terminator of strncpy, strscpy's -E2BIG, the NUL
 * terminator as a searchable character, strsep's empty tokens, strim, and
 * glob_match including its backtracking.
 */
#include "kernel/errno.h"
#include "lib/ktest/ktest.h"
#include "lib/string.h"

#define FILL		0xa5	/* bytes a function must not touch */
#define AREA		128	/* bytes in each test area */
#define GUARD		16	/* guard bytes on each side of an area */

/* A pattern byte that differs from FILL and from its neighbours. */
static u8 pattern(size_t i)
{
	return (u8)(i * 7 + 1);
}

static void test_memcpy(struct ktest *t)
{
	static u8 src[AREA] __aligned(8);
	static u8 dst[GUARD + AREA + GUARD] __aligned(8);
	unsigned int bad = 0;

	for (size_t i = 0; i < AREA; i++)
		src[i] = pattern(i);

	for (size_t soff = 0; soff < 9; soff++) {
		for (size_t doff = 0; doff < 9; doff++) {
			for (size_t len = 0; len <= 80; len++) {
				u8 *d = dst + GUARD + doff;
				size_t end = GUARD + doff + len, i;
				void *ret;

				for (i = 0; i < sizeof(dst); i++)
					dst[i] = FILL;
				ret = memcpy(d, src + soff, len);
				if (ret != d)
					bad++;
				for (i = 0; i < sizeof(dst); i++) {
					u8 want = FILL;

					if (i >= GUARD + doff && i < end)
						want = pattern(soff + i - GUARD - doff);
					if (dst[i] != want)
						break;
				}
				if (i < sizeof(dst)) {
					if (!bad)
						KTEST_FAIL(t, "memcpy src+%zu dst+%zu len %zu: byte %zu wrong",
							   soff, doff, len, i);
					bad++;
				}
			}
		}
	}
	KTEST_EXPECT_EQ(t, bad, 0U);

	/* A few spot checks written out in full. */
	{
		char buf[8] = "xxxxxxx";

		KTEST_EXPECT_PTR_EQ(t, memcpy(buf + 1, "abc", 3), (void *)(buf + 1));
		KTEST_EXPECT_STREQ(t, buf, "xabcxxx");
		memcpy(buf, "zz", 0);
		KTEST_EXPECT_STREQ(t, buf, "xabcxxx");
	}
}

static void test_memmove(struct ktest *t)
{
	char buf[17];
	static u8 area[AREA] __aligned(8);
	size_t i;

	/* dst above src: must copy backwards. */
	strcpy(buf, "0123456789ABCDEF");
	KTEST_EXPECT_PTR_EQ(t, memmove(buf + 2, buf, 10), (void *)(buf + 2));
	KTEST_EXPECT_STREQ(t, buf, "010123456789CDEF");

	/* dst below src. */
	strcpy(buf, "0123456789ABCDEF");
	KTEST_EXPECT_PTR_EQ(t, memmove(buf, buf + 2, 10), (void *)buf);
	KTEST_EXPECT_STREQ(t, buf, "23456789ABABCDEF");

	/* Overlap by a single byte in each direction. */
	strcpy(buf, "0123456789ABCDEF");
	memmove(buf + 1, buf, 15);
	KTEST_EXPECT_STREQ(t, buf, "00123456789ABCDE");
	strcpy(buf, "0123456789ABCDEF");
	memmove(buf, buf + 1, 15);
	KTEST_EXPECT_STREQ(t, buf, "123456789ABCDEFF");

	/* Full overlap, and length 0. */
	strcpy(buf, "0123456789ABCDEF");
	memmove(buf, buf, 16);
	KTEST_EXPECT_STREQ(t, buf, "0123456789ABCDEF");
	memmove(buf + 3, buf, 0);
	KTEST_EXPECT_STREQ(t, buf, "0123456789ABCDEF");

	/* Word-aligned overlap, dst above src by one word. */
	for (i = 0; i < AREA; i++)
		area[i] = pattern(i);
	memmove(area + 8, area, 48);
	for (i = 0; i < AREA; i++) {
		u8 want = i < 8 ? pattern(i) : i < 56 ? pattern(i - 8) : pattern(i);

		if (area[i] != want)
			break;
	}
	KTEST_EXPECT_EQ(t, i, (size_t)AREA);

	/* Word-aligned overlap, dst below src by one word. */
	for (i = 0; i < AREA; i++)
		area[i] = pattern(i);
	memmove(area, area + 8, 48);
	for (i = 0; i < AREA; i++) {
		u8 want = i < 48 ? pattern(i + 8) : pattern(i);

		if (area[i] != want)
			break;
	}
	KTEST_EXPECT_EQ(t, i, (size_t)AREA);

	/* The same over several four-word turns, as SLAB moves its arrays. */
	for (i = 0; i < AREA; i++)
		area[i] = pattern(i);
	memmove(area, area + 8, AREA - 8);
	for (i = 0; i < AREA; i++) {
		u8 want = i < AREA - 8 ? pattern(i + 8) : pattern(i);

		if (area[i] != want)
			break;
	}
	KTEST_EXPECT_EQ(t, i, (size_t)AREA);
}

static void test_memset(struct ktest *t)
{
	static u8 buf[GUARD + AREA + GUARD] __aligned(8);
	/* Up to AREA - 8 (off goes to 8): one to three 32-byte turns. */
	static const size_t lens[] = { 0, 1, 2, 7, 8, 9, 15, 16, 17, 24, 31, 32,
				       33, 40, 63, 64, 71, 100, 120 };
	unsigned int bad = 0;

	for (size_t off = 0; off < 9; off++) {
		for (size_t k = 0; k < ARRAY_SIZE(lens); k++) {
			size_t len = lens[k], start = GUARD + off, i;

			for (i = 0; i < sizeof(buf); i++)
				buf[i] = FILL;
			/* The value is truncated to a byte: 0x1ff fills 0xff. */
			if (memset(buf + start, 0x1ff, len) != buf + start)
				bad++;
			for (i = 0; i < sizeof(buf); i++) {
				u8 want = i >= start && i < start + len ? 0xff : FILL;

				if (buf[i] != want)
					break;
			}
			if (i < sizeof(buf)) {
				if (!bad)
					KTEST_FAIL(t, "memset off %zu len %zu: byte %zu wrong",
						   off, len, i);
				bad++;
			}
		}
	}
	KTEST_EXPECT_EQ(t, bad, 0U);

	{
		char s[8] = "abcdefg";

		memset(s + 2, '-', 3);
		KTEST_EXPECT_STREQ(t, s, "ab---fg");
		memset(s, 0, 0);
		KTEST_EXPECT_STREQ(t, s, "ab---fg");
		memset(s + 1, 0, 1);
		KTEST_EXPECT_STREQ(t, s, "a");
	}
}

#define LONG_AREA	2112	/* past the string instructions' threshold */

/* Is area[from, to) the pattern from start, and the rest FILL? */
static bool long_area_ok(const u8 *area, size_t from, size_t to, size_t start)
{
	for (size_t i = 0; i < GUARD + LONG_AREA + GUARD; i++) {
		u8 want = i >= from && i < to ? pattern(start + i - from) : FILL;

		if (area[i] != want)
			return false;
	}
	return true;
}

/*
 * Lengths around a kilobyte, where memcpy(), memmove() and memset()
 * switch to the arch's string instructions, at every alignment: the
 * bytes written, the word and byte tails, the guards; a memmove() to a
 * lower address that overlaps (the upward copy).
 */
static void test_mem_long(struct ktest *t)
{
	static u8 src[LONG_AREA + 8] __aligned(8);
	static u8 dst[GUARD + LONG_AREA + GUARD] __aligned(8);
	static const size_t lens[] = { 1016, 1023, 1024, 1025, 1031, 1032,
				       1039, 2048, 2055 };
	unsigned int bad = 0, reported = 0;

	for (size_t i = 0; i < sizeof(src); i++)
		src[i] = pattern(i);
	for (size_t off = 0; off < 9; off++) {
		for (size_t k = 0; k < ARRAY_SIZE(lens); k++) {
			size_t len = lens[k], at = GUARD + off;

			memset(dst, FILL, sizeof(dst));
			if (memcpy(dst + at, src + (8 - off), len) != dst + at ||
			    !long_area_ok(dst, at, at + len, 8 - off))
				bad++;
			/* Down by a word, over itself (aligned at off 0, 8). */
			if (memmove(dst + at - 8, dst + at, len) != dst + at - 8)
				bad++;
			for (size_t i = 0; i < len; i++)
				bad += dst[at - 8 + i] != pattern(8 - off + i);
			memset(dst, FILL, sizeof(dst));
			if (memset(dst + at, 0x5a, len) != dst + at)
				bad++;
			for (size_t i = 0; i < sizeof(dst); i++)
				bad += dst[i] != (i >= at && i < at + len ? 0x5a : FILL);
			if (bad && !reported++)
				KTEST_FAIL(t, "off %zu len %zu: wrong bytes", off, len);
		}
	}
	KTEST_EXPECT_EQ(t, bad, 0U);
}

static void test_memcmp_memchr(struct ktest *t)
{
	static const u8 bytes[] = { 1, 2, 3, 0, 0x80, 0xff, 3 };

	KTEST_EXPECT_EQ(t, memcmp("abc", "abc", 3), 0);
	KTEST_EXPECT_LT(t, memcmp("abc", "abd", 3), 0);
	KTEST_EXPECT_GT(t, memcmp("abd", "abc", 3), 0);
	KTEST_EXPECT_EQ(t, memcmp("abX", "abY", 2), 0);
	KTEST_EXPECT_EQ(t, memcmp("a", "b", 0), 0);
	KTEST_EXPECT_GT(t, memcmp("\x80", "\x01", 1), 0);	/* unsigned */
	KTEST_EXPECT_LT(t, memcmp("a\0b", "a\0c", 3), 0);	/* past a NUL */

	KTEST_EXPECT_PTR_EQ(t, memchr(bytes, 3, sizeof(bytes)), (void *)&bytes[2]);
	KTEST_EXPECT_PTR_EQ(t, memchr(bytes, 0, sizeof(bytes)), (void *)&bytes[3]);
	KTEST_EXPECT_PTR_EQ(t, memchr(bytes, 0xff, sizeof(bytes)), (void *)&bytes[5]);
	KTEST_EXPECT_PTR_EQ(t, memchr(bytes, -1, sizeof(bytes)), (void *)&bytes[5]);
	KTEST_EXPECT_PTR_EQ(t, memchr(bytes, 0x180, sizeof(bytes)), (void *)&bytes[4]);
	KTEST_EXPECT_NULL(t, memchr(bytes, 3, 2));
	KTEST_EXPECT_NULL(t, memchr(bytes, 9, sizeof(bytes)));
	KTEST_EXPECT_NULL(t, memchr(bytes, 1, 0));

	KTEST_EXPECT_NULL(t, memchr_inv("aaaa", 'a', 4));
	KTEST_EXPECT_NULL(t, memchr_inv("aaab", 'a', 3));
	KTEST_EXPECT_NULL(t, memchr_inv("b", 'a', 0));
	KTEST_EXPECT_PTR_EQ(t, memchr_inv(bytes, 1, sizeof(bytes)), (void *)&bytes[1]);
	KTEST_EXPECT_PTR_EQ(t, memchr_inv(bytes, 2, sizeof(bytes)), (void *)&bytes[0]);
	{
		static const u8 ones[] = { 0xff, 0xff, 0xff, 0xfe };

		KTEST_EXPECT_PTR_EQ(t, memchr_inv(ones, 0x1ff, 4), (void *)&ones[3]);
		KTEST_EXPECT_NULL(t, memchr_inv(ones, -1, 3));
	}
}

static void test_strlen(struct ktest *t)
{
	char unterminated[4] = { 'a', 'b', 'c', 'd' };
	char long_str[201];
	int i;

	for (i = 0; i < 200; i++)
		long_str[i] = 'x';
	long_str[200] = '\0';

	KTEST_EXPECT_EQ(t, strlen(""), 0);
	KTEST_EXPECT_EQ(t, strlen("a"), 1);
	KTEST_EXPECT_EQ(t, strlen("hello"), 5);
	KTEST_EXPECT_EQ(t, strlen("ab\0cd"), 2);
	KTEST_EXPECT_EQ(t, strlen(long_str), 200);

	KTEST_EXPECT_EQ(t, strnlen("hello", 3), 3);
	KTEST_EXPECT_EQ(t, strnlen("hello", 5), 5);
	KTEST_EXPECT_EQ(t, strnlen("hello", 10), 5);
	KTEST_EXPECT_EQ(t, strnlen("hello", 0), 0);
	KTEST_EXPECT_EQ(t, strnlen("", 5), 0);
	/* Must not read past max (ASan watches the host build). */
	KTEST_EXPECT_EQ(t, strnlen(unterminated, 4), 4);
	KTEST_EXPECT_EQ(t, strnlen(unterminated, 2), 2);
}

static void test_strcmp(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, strcmp("abc", "abc"), 0);
	KTEST_EXPECT_EQ(t, strcmp("", ""), 0);
	KTEST_EXPECT_LT(t, strcmp("abc", "abd"), 0);
	KTEST_EXPECT_GT(t, strcmp("abd", "abc"), 0);
	KTEST_EXPECT_LT(t, strcmp("ab", "abc"), 0);	/* prefix sorts first */
	KTEST_EXPECT_GT(t, strcmp("abc", "ab"), 0);
	KTEST_EXPECT_LT(t, strcmp("", "a"), 0);
	KTEST_EXPECT_GT(t, strcmp("\x80", "\x7f"), 0);	/* unsigned bytes */
	KTEST_EXPECT_GT(t, strcmp("a\xff", "a\x01"), 0);
	KTEST_EXPECT_LT(t, strcmp("a", "a\xe9"), 0);
	KTEST_EXPECT_LT(t, strcmp("B", "a"), 0);		/* case sensitive */

	KTEST_EXPECT_EQ(t, strncmp("abcX", "abcY", 3), 0);
	KTEST_EXPECT_LT(t, strncmp("abcX", "abcY", 4), 0);
	KTEST_EXPECT_GT(t, strncmp("abcY", "abcX", 100), 0);
	KTEST_EXPECT_EQ(t, strncmp("abc", "xyz", 0), 0);
	KTEST_EXPECT_EQ(t, strncmp("ab", "ab", 100), 0);	/* stops at NUL */
	KTEST_EXPECT_LT(t, strncmp("ab", "abc", 3), 0);
	KTEST_EXPECT_EQ(t, strncmp("ab", "abc", 2), 0);
	KTEST_EXPECT_GT(t, strncmp("\xc0", "\x40", 1), 0);
}

static void test_strcpy_strcat(struct ktest *t)
{
	char buf[12];

	memset(buf, 'Z', sizeof(buf));
	KTEST_EXPECT_PTR_EQ(t, strcpy(buf, "hello"), buf);
	KTEST_EXPECT_MEMEQ(t, buf, "hello\0ZZZZZZ", sizeof(buf));
	KTEST_EXPECT_PTR_EQ(t, strcpy(buf, ""), buf);
	KTEST_EXPECT_MEMEQ(t, buf, "\0ello\0ZZZZZZ", sizeof(buf));

	strcpy(buf, "foo");
	KTEST_EXPECT_PTR_EQ(t, strcat(buf, "bar"), buf);
	KTEST_EXPECT_STREQ(t, buf, "foobar");
	strcat(buf, "");
	KTEST_EXPECT_STREQ(t, buf, "foobar");
	buf[0] = '\0';
	strcat(buf, "x");
	KTEST_EXPECT_STREQ(t, buf, "x");
	strcat(buf, "yz");
	KTEST_EXPECT_MEMEQ(t, buf, "xyz\0", 4);
}

static void test_strncpy(struct ktest *t)
{
	char buf[8];

	/* Short source: the rest of n is padded with NULs. */
	memset(buf, 'Z', sizeof(buf));
	KTEST_EXPECT_PTR_EQ(t, strncpy(buf, "ab", 6), buf);
	KTEST_EXPECT_MEMEQ(t, buf, "ab\0\0\0\0ZZ", sizeof(buf));

	/* Long source: exactly n bytes, no terminator. */
	memset(buf, 'Z', sizeof(buf));
	strncpy(buf, "abcdef", 3);
	KTEST_EXPECT_MEMEQ(t, buf, "abcZZZZZ", sizeof(buf));

	/* Source of exactly n: no terminator either. */
	memset(buf, 'Z', sizeof(buf));
	strncpy(buf, "abcd", 4);
	KTEST_EXPECT_MEMEQ(t, buf, "abcdZZZZ", sizeof(buf));

	memset(buf, 'Z', sizeof(buf));
	strncpy(buf, "abc", 0);
	KTEST_EXPECT_MEMEQ(t, buf, "ZZZZZZZZ", sizeof(buf));
	strncpy(buf, "", 3);
	KTEST_EXPECT_MEMEQ(t, buf, "\0\0\0ZZZZZ", sizeof(buf));
}

static void test_strscpy(struct ktest *t)
{
	char unterminated[4] = { 'w', 'x', 'y', 'z' };
	char buf[8];

	memset(buf, 'Z', sizeof(buf));
	KTEST_EXPECT_EQ(t, strscpy(buf, "hello", sizeof(buf)), 5);
	KTEST_EXPECT_MEMEQ(t, buf, "hello\0ZZ", sizeof(buf));

	memset(buf, 'Z', sizeof(buf));
	KTEST_EXPECT_EQ(t, strscpy(buf, "hello", 6), 5);	/* just fits */
	KTEST_EXPECT_MEMEQ(t, buf, "hello\0ZZ", sizeof(buf));

	memset(buf, 'Z', sizeof(buf));
	KTEST_EXPECT_EQ(t, strscpy(buf, "hello", 5), -E2BIG);
	KTEST_EXPECT_MEMEQ(t, buf, "hell\0ZZZ", sizeof(buf));

	memset(buf, 'Z', sizeof(buf));
	KTEST_EXPECT_EQ(t, strscpy(buf, "hello", 1), -E2BIG);
	KTEST_EXPECT_MEMEQ(t, buf, "\0ZZZZZZZ", sizeof(buf));

	memset(buf, 'Z', sizeof(buf));
	KTEST_EXPECT_EQ(t, strscpy(buf, "hello", 0), -E2BIG);
	KTEST_EXPECT_MEMEQ(t, buf, "ZZZZZZZZ", sizeof(buf));

	KTEST_EXPECT_EQ(t, strscpy(buf, "", sizeof(buf)), 0);
	KTEST_EXPECT_EQ(t, buf[0], '\0');

	/* Reads at most size bytes of the source. */
	memset(buf, 'Z', sizeof(buf));
	KTEST_EXPECT_EQ(t, strscpy(buf, unterminated, 4), -E2BIG);
	KTEST_EXPECT_MEMEQ(t, buf, "wxy\0ZZZZ", sizeof(buf));
}

static void test_strchr(struct ktest *t)
{
	static const char s[] = "hello";
	static const char empty[] = "";
	static const char high[] = "a\xe9";

	KTEST_EXPECT_PTR_EQ(t, strchr(s, 'h'), s);
	KTEST_EXPECT_PTR_EQ(t, strchr(s, 'l'), s + 2);
	KTEST_EXPECT_PTR_EQ(t, strchr(s, 'o'), s + 4);
	KTEST_EXPECT_PTR_EQ(t, strchr(s, '\0'), s + 5);
	KTEST_EXPECT_NULL(t, strchr(s, 'z'));
	KTEST_EXPECT_PTR_EQ(t, strchr(s, 'l' + 0x100), s + 2);	/* as char */
	KTEST_EXPECT_PTR_EQ(t, strchr(empty, '\0'), empty);
	KTEST_EXPECT_NULL(t, strchr(empty, 'a'));
	KTEST_EXPECT_PTR_EQ(t, strchr(high, 0xe9), high + 1);
	KTEST_EXPECT_PTR_EQ(t, strchr(high, -0x17), high + 1);	/* (char)0xe9 */

	KTEST_EXPECT_PTR_EQ(t, strrchr(s, 'l'), s + 3);
	KTEST_EXPECT_PTR_EQ(t, strrchr(s, 'h'), s);
	KTEST_EXPECT_PTR_EQ(t, strrchr(s, 'o'), s + 4);
	KTEST_EXPECT_PTR_EQ(t, strrchr(s, '\0'), s + 5);
	KTEST_EXPECT_NULL(t, strrchr(s, 'z'));
	KTEST_EXPECT_PTR_EQ(t, strrchr(empty, '\0'), empty);
	KTEST_EXPECT_NULL(t, strrchr(empty, 'a'));
}

static void test_strstr(struct ktest *t)
{
	static const char s[] = "hello";
	static const char rep[] = "aaab";
	static const char empty[] = "";

	KTEST_EXPECT_PTR_EQ(t, strstr(s, ""), s);
	KTEST_EXPECT_PTR_EQ(t, strstr(s, "h"), s);
	KTEST_EXPECT_PTR_EQ(t, strstr(s, "ll"), s + 2);
	KTEST_EXPECT_PTR_EQ(t, strstr(s, "lo"), s + 3);	/* at the end */
	KTEST_EXPECT_PTR_EQ(t, strstr(s, "o"), s + 4);
	KTEST_EXPECT_PTR_EQ(t, strstr(s, "hello"), s);
	KTEST_EXPECT_NULL(t, strstr(s, "hello!"));
	KTEST_EXPECT_NULL(t, strstr(s, "xyz"));
	KTEST_EXPECT_NULL(t, strstr(s, "lol"));
	KTEST_EXPECT_PTR_EQ(t, strstr(rep, "aab"), rep + 1);	/* restart */
	KTEST_EXPECT_PTR_EQ(t, strstr(empty, ""), empty);
	KTEST_EXPECT_NULL(t, strstr(empty, "a"));
}

static void test_strspn(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, strspn("abcde", "abc"), 3);
	KTEST_EXPECT_EQ(t, strspn("abcde", "cba"), 3);
	KTEST_EXPECT_EQ(t, strspn("aaa", "a"), 3);
	KTEST_EXPECT_EQ(t, strspn("abc", ""), 0);
	KTEST_EXPECT_EQ(t, strspn("", "abc"), 0);
	KTEST_EXPECT_EQ(t, strspn("xabc", "abc"), 0);

	KTEST_EXPECT_EQ(t, strcspn("abcde", "dx"), 3);
	KTEST_EXPECT_EQ(t, strcspn("abc", ""), 3);
	KTEST_EXPECT_EQ(t, strcspn("abc", "a"), 0);
	KTEST_EXPECT_EQ(t, strcspn("abc", "xyz"), 3);
	KTEST_EXPECT_EQ(t, strcspn("", "abc"), 0);
	KTEST_EXPECT_EQ(t, strcspn("key=val", "= "), 3);
}

static void test_strsep(struct ktest *t)
{
	char s[] = "a,b,,c";
	char multi[] = "x;y,z;";
	char empty[] = "";
	char *p = s, *none = NULL;

	KTEST_EXPECT_STREQ(t, strsep(&p, ","), "a");
	KTEST_EXPECT_PTR_EQ(t, p, s + 2);
	KTEST_EXPECT_STREQ(t, strsep(&p, ","), "b");
	KTEST_EXPECT_STREQ(t, strsep(&p, ","), "");	/* ",," */
	KTEST_EXPECT_PTR_EQ(t, strsep(&p, ","), s + 5);
	KTEST_EXPECT_STREQ(t, s + 5, "c");
	KTEST_EXPECT_NULL(t, p);
	KTEST_EXPECT_NULL(t, strsep(&p, ","));
	KTEST_EXPECT_NULL(t, p);

	p = multi;
	KTEST_EXPECT_STREQ(t, strsep(&p, ",;"), "x");
	KTEST_EXPECT_STREQ(t, strsep(&p, ",;"), "y");
	KTEST_EXPECT_STREQ(t, strsep(&p, ",;"), "z");
	KTEST_EXPECT_STREQ(t, strsep(&p, ",;"), "");	/* after the last ';' */
	KTEST_EXPECT_NULL(t, strsep(&p, ",;"));

	p = empty;
	KTEST_EXPECT_PTR_EQ(t, strsep(&p, ","), empty);
	KTEST_EXPECT_NULL(t, p);

	KTEST_EXPECT_NULL(t, strsep(&none, ","));
}

static void test_skip_spaces_strim(struct ktest *t)
{
	static const char lead[] = " \t\n\v\f\rabc ";
	static const char word[] = "abc";
	static const char blank[] = "   ";
	char s1[] = "  hello world \t\n";
	char s2[] = "   ";
	char s3[] = "";
	char s4[] = "x";

	KTEST_EXPECT_PTR_EQ(t, skip_spaces(lead), lead + 6);
	KTEST_EXPECT_PTR_EQ(t, skip_spaces(word), word);
	KTEST_EXPECT_PTR_EQ(t, skip_spaces(blank), blank + 3);

	KTEST_EXPECT_PTR_EQ(t, strim(s1), s1 + 2);
	KTEST_EXPECT_STREQ(t, s1 + 2, "hello world");
	KTEST_EXPECT_MEMEQ(t, s1, "  hello world", 14);
	KTEST_EXPECT_STREQ(t, strim(s2), "");
	KTEST_EXPECT_STREQ(t, strim(s3), "");
	KTEST_EXPECT_PTR_EQ(t, strim(s4), s4);
	KTEST_EXPECT_STREQ(t, s4, "x");
}

static void test_glob_match(struct ktest *t)
{
	KTEST_EXPECT_TRUE(t, glob_match("*", ""));
	KTEST_EXPECT_TRUE(t, glob_match("*", "anything"));
	KTEST_EXPECT_TRUE(t, glob_match("abc", "abc"));
	KTEST_EXPECT_FALSE(t, glob_match("abc", "abd"));
	KTEST_EXPECT_FALSE(t, glob_match("abc", "ab"));
	KTEST_EXPECT_FALSE(t, glob_match("ab", "abc"));
	KTEST_EXPECT_FALSE(t, glob_match("ABC", "abc"));
	KTEST_EXPECT_TRUE(t, glob_match("a*b", "ab"));
	KTEST_EXPECT_TRUE(t, glob_match("a*b", "axxb"));
	KTEST_EXPECT_FALSE(t, glob_match("a*b", "axxbc"));
	KTEST_EXPECT_FALSE(t, glob_match("a*b", "ba"));
	KTEST_EXPECT_TRUE(t, glob_match("?", "a"));
	KTEST_EXPECT_FALSE(t, glob_match("?", ""));
	KTEST_EXPECT_FALSE(t, glob_match("?", "ab"));
	KTEST_EXPECT_TRUE(t, glob_match("?*?", "ab"));
	KTEST_EXPECT_FALSE(t, glob_match("?*?", "a"));
	KTEST_EXPECT_TRUE(t, glob_match("*.*", "file.txt"));
	KTEST_EXPECT_TRUE(t, glob_match("*.*", "."));
	KTEST_EXPECT_FALSE(t, glob_match("*.*", "file"));
	KTEST_EXPECT_TRUE(t, glob_match("string.*", "string.test_memcpy"));
	KTEST_EXPECT_TRUE(t, glob_match("string.*", "string."));
	KTEST_EXPECT_FALSE(t, glob_match("string.*", "strings.x"));
	KTEST_EXPECT_TRUE(t, glob_match("", ""));
	KTEST_EXPECT_FALSE(t, glob_match("", "a"));
	KTEST_EXPECT_TRUE(t, glob_match("abc**", "abc"));
	KTEST_EXPECT_TRUE(t, glob_match("a*", "a"));
	KTEST_EXPECT_TRUE(t, glob_match("**a**", "a"));
	/* Backtracking: the star must give back what it took. */
	KTEST_EXPECT_TRUE(t, glob_match("*ab", "aab"));
	KTEST_EXPECT_TRUE(t, glob_match("*ab", "abab"));
	KTEST_EXPECT_FALSE(t, glob_match("*ab", "aba"));
	KTEST_EXPECT_TRUE(t, glob_match("a*b*c", "aXbYbZc"));
	KTEST_EXPECT_FALSE(t, glob_match("a*b*c", "aXbYbZ"));
	KTEST_EXPECT_TRUE(t, glob_match("*a*b", "xaybzb"));
	KTEST_EXPECT_TRUE(t, glob_match("*aab", "aaaab"));
	/* '[' and '\\' are ordinary characters here. */
	KTEST_EXPECT_TRUE(t, glob_match("[a]", "[a]"));
	KTEST_EXPECT_FALSE(t, glob_match("[a]", "a"));
}

static const struct ktest_case string_cases[] = {
	KTEST_CASE(test_memcpy),
	KTEST_CASE(test_memmove),
	KTEST_CASE(test_memset),
	KTEST_CASE(test_mem_long),
	KTEST_CASE(test_memcmp_memchr),
	KTEST_CASE(test_strlen),
	KTEST_CASE(test_strcmp),
	KTEST_CASE(test_strcpy_strcat),
	KTEST_CASE(test_strncpy),
	KTEST_CASE(test_strscpy),
	KTEST_CASE(test_strchr),
	KTEST_CASE(test_strstr),
	KTEST_CASE(test_strspn),
	KTEST_CASE(test_strsep),
	KTEST_CASE(test_skip_spaces_strim),
	KTEST_CASE(test_glob_match),
	{}
};
KTEST_SUITE(string, string_cases);

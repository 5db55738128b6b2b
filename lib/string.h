/* SPDX-License-Identifier: GPL-2.0 */
/*
 * String and memory functions (Linux's lib/string.c interface), plus the
 * ctype helpers the parsers need.
 */
#ifndef LIB_STRING_H
#define LIB_STRING_H

#include "kernel/types.h"

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *s, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
/* First byte in [s, s + n) that is not c, or NULL if all are c. */
void *memchr_inv(const void *s, int c, size_t n);

size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strcpy(char *dst, const char *src);
char *strncpy(char *dst, const char *src, size_t n);
/*
 * Copy src into dst of size bytes, always NUL-terminated when size > 0.
 * Returns the length copied, or -E2BIG if src was truncated (Linux).
 */
ssize_t strscpy(char *dst, const char *src, size_t size);
char *strcat(char *dst, const char *src);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *haystack, const char *needle);
size_t strspn(const char *s, const char *accept);
size_t strcspn(const char *s, const char *reject);
char *strsep(char **s, const char *delim);
char *skip_spaces(const char *s);
/* Remove leading and trailing white space in place; returns the start. */
char *strim(char *s);
/* Shell-style match: '*' any run, '?' any one character, nothing else special. */
bool glob_match(const char *pattern, const char *str);

static inline bool isdigit(int c) { return c >= '0' && c <= '9'; }
static inline bool isxdigit(int c)
{
	return isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static inline bool isspace(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}
static inline bool isalpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static inline bool isprint(int c) { return c >= 0x20 && c < 0x7f; }
static inline int tolower(int c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }

#endif /* LIB_STRING_H */
